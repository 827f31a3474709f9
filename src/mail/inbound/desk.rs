//! The organiser's desk by mail (issue 31 point 4): its reply address
//! `<local>+_desk.<secret>@host` and its command grammar, one command a line. Pure: strings
//! in, values out. It never checks a secret, looks a game up or decides who may act; the
//! daemon does (daemon/desk.rs).

use super::Inbound;

/// The detail of the desk's address, `<local>+_desk.<secret>@…`. A game id cannot begin with
/// `_` (`engine::valid_game_id`), so no game's address can ever be the desk's.
pub const DESK: &str = "_desk";

/// Most commands read from one mail; the rest are answered as not read.
pub const MAX_COMMANDS: usize = 40;

/// Longest reason carried into every seat's mail.
pub const MAX_REASON: usize = 300;

/// The secret a mail to the desk carries in its address, lower-case (`None`: not to the desk).
/// Present but malformed gives `Some("")`, which matches no secret.
pub fn desk_secret(inb: &Inbound, local_part: &str) -> Option<String> {
    let prefix = format!("{}+{DESK}", local_part.to_ascii_lowercase());
    inb.to.iter().find_map(|addr| {
        let (local, _) = addr.rsplit_once('@')?;
        let rest = local.to_ascii_lowercase();
        let rest = rest.strip_prefix(&prefix)?;
        match rest.strip_prefix('.') {
            Some(s) if super::is_token(s) => Some(s.to_string()),
            Some(_) => Some(String::new()),
            None if rest.is_empty() => Some(String::new()),
            None => None,
        }
    })
}

/// The desk's address for `secret`.
pub fn desk_address(local_part: &str, secret: &str, domain: &str) -> String {
    format!("{local_part}+{DESK}.{secret}@{domain}")
}

/// Who a message from the organiser goes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Audience {
    Game(String),
    League(String),
}

/// One command for the desk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeskCommand {
    Games,
    Help,
    Extend {
        game: String,
        hours: i64,
        reason: String,
    },
    Close {
        game: String,
        reason: String,
    },
    Replace {
        game: String,
        seat: String,
        address: String,
        reason: String,
    },
    Pause {
        game: String,
        reason: String,
    },
    Resume {
        game: String,
    },
    /// The message as written (canonical: `engine::press::canonical`).
    Broadcast {
        to: Audience,
        text: String,
    },
}

impl DeskCommand {
    /// The game the command acts on, if one.
    pub fn game(&self) -> Option<&str> {
        match self {
            DeskCommand::Extend { game, .. }
            | DeskCommand::Close { game, .. }
            | DeskCommand::Replace { game, .. }
            | DeskCommand::Pause { game, .. }
            | DeskCommand::Resume { game }
            | DeskCommand::Broadcast {
                to: Audience::Game(game),
                ..
            } => Some(game),
            _ => None,
        }
    }
}

/// One line of a desk mail as read: its number among the organiser's own lines, its text, and
/// the command or exactly why it is not one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeskLine {
    pub line: usize,
    pub text: String,
    pub read: Result<DeskCommand, String>,
}

/// Every command of a desk mail's body, in order. Blank lines are skipped; a `BROADCAST`
/// takes the lines after it up to a line `END` (or the end) as its message.
pub fn read_desk(body: &str) -> Vec<DeskLine> {
    let lines: Vec<&str> = body.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let text = lines[i].trim();
        let line = i + 1;
        i += 1;
        if text.is_empty() {
            continue;
        }
        if out.len() == MAX_COMMANDS {
            out.push(DeskLine {
                line,
                text: text.to_string(),
                read: Err(format!(
                    "not read: at most {MAX_COMMANDS} commands are read from one mail; send \
                     the rest in another"
                )),
            });
            break;
        }
        let read = match first_word(text).as_str() {
            "BROADCAST" => {
                // The message: every following line up to END, consumed here.
                let start = i;
                while i < lines.len() && !lines[i].trim().eq_ignore_ascii_case("END") {
                    i += 1;
                }
                let message = lines[start..i].join("\n");
                i += 1; // past END
                broadcast(text, &message)
            }
            _ => command(text),
        };
        out.push(DeskLine {
            line,
            text: text.to_string(),
            read,
        });
    }
    out
}

fn first_word(text: &str) -> String {
    text.split_whitespace()
        .next()
        .unwrap_or("")
        .trim_end_matches(':')
        .to_ascii_uppercase()
}

/// The words after the command and the rest of the line after `n` of them (the reason).
fn args(text: &str, n: usize) -> (Vec<&str>, String) {
    let mut rest = text.trim_start();
    let mut words = Vec::new();
    // The command word itself, then `n` arguments.
    for k in 0..=n {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        if k > 0 {
            words.push(&rest[..end]);
        }
        rest = rest[end..].trim_start();
    }
    (words, rest.trim().to_string())
}

fn game_id(word: &str) -> Result<String, String> {
    let id = word.to_ascii_lowercase();
    if crate::engine::valid_game_id(&id) {
        Ok(id)
    } else {
        Err(format!(
            "`{word}` is not a game id (1–40 characters a–z, 0–9 and `-`, starting with a letter)"
        ))
    }
}

fn reason(r: String) -> Result<String, String> {
    if r.chars().count() > MAX_REASON {
        return Err(format!(
            "the reason is longer than {MAX_REASON} characters; every seat reads it, so keep it short"
        ));
    }
    if r.chars().any(char::is_control) {
        return Err("the reason holds control characters".into());
    }
    Ok(r)
}

fn usage(word: &str) -> String {
    let form = match word {
        "EXTEND" => "EXTEND <game> <hours> [reason]",
        "CLOSE" => "CLOSE <game> [reason]",
        "REPLACE" => "REPLACE <game> <seat> <address> [reason]",
        "PAUSE" => "PAUSE <game> [reason]",
        "RESUME" => "RESUME <game>",
        _ => "HELP",
    };
    format!("write it as {form}")
}

fn command(text: &str) -> Result<DeskCommand, String> {
    let word = first_word(text);
    let need = |n: usize| {
        let (w, r) = args(text, n);
        if w.len() < n {
            Err(format!("too few words: {}", usage(&word)))
        } else {
            Ok((w, r))
        }
    };
    match word.as_str() {
        "GAMES" | "LIST" => Ok(DeskCommand::Games),
        "HELP" => Ok(DeskCommand::Help),
        "EXTEND" => {
            let (w, r) = need(2)?;
            let game = game_id(w[0])?;
            let h = w[1].trim_end_matches(['h', 'H']);
            let hours: i64 = h.strip_prefix('+').unwrap_or(h).parse().map_err(|_| {
                format!(
                    "`{}` is not a whole number of hours: {}",
                    w[1],
                    usage("EXTEND")
                )
            })?;
            Ok(DeskCommand::Extend {
                game,
                hours,
                reason: reason(r)?,
            })
        }
        "CLOSE" | "CLOSE-STEP" => {
            let (w, r) = need(1)?;
            Ok(DeskCommand::Close {
                game: game_id(w[0])?,
                reason: reason(r)?,
            })
        }
        "REPLACE" => {
            let (w, r) = need(3)?;
            let game = game_id(w[0])?;
            let seat = w[1].to_ascii_lowercase();
            if !super::is_seat_id(&seat) {
                return Err(format!("`{}` is not a seat name", w[1]));
            }
            let address = w[2].trim_matches(['<', '>']).to_string();
            if !address.contains('@') {
                return Err(format!(
                    "`{}` is not a mail address: {}",
                    w[2],
                    usage("REPLACE")
                ));
            }
            Ok(DeskCommand::Replace {
                game,
                seat,
                address,
                reason: reason(r)?,
            })
        }
        "PAUSE" => {
            let (w, r) = need(1)?;
            Ok(DeskCommand::Pause {
                game: game_id(w[0])?,
                reason: reason(r)?,
            })
        }
        "RESUME" => {
            let (w, r) = need(1)?;
            if !r.is_empty() {
                return Err(format!("RESUME takes no reason: {}", usage("RESUME")));
            }
            Ok(DeskCommand::Resume {
                game: game_id(w[0])?,
            })
        }
        "" => Err("empty".into()),
        _ => Err(format!(
            "`{}` is not a desk command (HELP lists them)",
            text.split_whitespace().next().unwrap_or("")
        )),
    }
}

fn broadcast(text: &str, message: &str) -> Result<DeskCommand, String> {
    let (w, rest) = args(text, 1);
    let form = "write BROADCAST <game> or BROADCAST LEAGUE <name>, and the message on the \
                lines that follow";
    let more: Vec<&str> = rest.split_whitespace().collect();
    let to = match (w.first(), &more[..]) {
        (Some(l), [name]) if l.eq_ignore_ascii_case("LEAGUE") => Audience::League(game_id(name)?),
        (Some(g), []) => Audience::Game(game_id(g)?),
        _ => return Err(form.into()),
    };
    let text = crate::engine::press::canonical(message).map_err(|e| e.why)?;
    if text.trim().is_empty() {
        return Err(format!("the message is empty: {form}"));
    }
    Ok(DeskCommand::Broadcast { to, text })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(body: &str) -> Vec<Result<DeskCommand, String>> {
        read_desk(body).into_iter().map(|l| l.read).collect()
    }

    #[test]
    fn commands_one_a_line_with_reasons() {
        let got = read(
            "extend g-1 24 Bob is ill\n\nCLOSE g-1\nReplace g-1 North <cy@x.example> Ann left\n\
             PAUSE g-2\nresume G-2\nGAMES\nHELP\nEXTEND g-1 -6h\nEXTEND g-1 +2",
        );
        assert_eq!(
            got,
            vec![
                Ok(DeskCommand::Extend {
                    game: "g-1".into(),
                    hours: 24,
                    reason: "Bob is ill".into()
                }),
                Ok(DeskCommand::Close {
                    game: "g-1".into(),
                    reason: String::new()
                }),
                Ok(DeskCommand::Replace {
                    game: "g-1".into(),
                    seat: "north".into(),
                    address: "cy@x.example".into(),
                    reason: "Ann left".into()
                }),
                Ok(DeskCommand::Pause {
                    game: "g-2".into(),
                    reason: String::new()
                }),
                Ok(DeskCommand::Resume { game: "g-2".into() }),
                Ok(DeskCommand::Games),
                Ok(DeskCommand::Help),
                Ok(DeskCommand::Extend {
                    game: "g-1".into(),
                    hours: -6,
                    reason: String::new()
                }),
                Ok(DeskCommand::Extend {
                    game: "g-1".into(),
                    hours: 2,
                    reason: String::new()
                }),
            ]
        );
        // Line numbers are the organiser's own, blank lines counted.
        let lines: Vec<usize> = read_desk("GAMES\n\nHELP").iter().map(|l| l.line).collect();
        assert_eq!(lines, [1, 3]);
    }

    #[test]
    fn a_broadcast_takes_the_lines_up_to_end() {
        let got = read_desk(
            "BROADCAST g-1\nDear all,\n\n  the club meets on Friday.\nEND\nPAUSE g-1 meeting",
        );
        assert_eq!(got.len(), 2);
        assert_eq!(
            got[0].read,
            Ok(DeskCommand::Broadcast {
                to: Audience::Game("g-1".into()),
                text: "Dear all,\n\n  the club meets on Friday.".into()
            })
        );
        assert_eq!(got[1].line, 6);
        // Without END the message runs to the end; LEAGUE names a league.
        assert_eq!(
            read("broadcast league autumn\nHello")[0],
            Ok(DeskCommand::Broadcast {
                to: Audience::League("autumn".into()),
                text: "Hello".into()
            })
        );
    }

    #[test]
    fn refusals_say_exactly_why() {
        let got = read(
            "EXTEND g-1 soon\nEXTEND g-1\nREPLACE g-1 north nobody\nRESUME g-1 now please\n\
             PAUSE Not_A_Game\nDANCE g-1\nBROADCAST g-1\nEND\nBROADCAST\nhi",
        );
        let why: Vec<String> = got.into_iter().map(|r| r.unwrap_err()).collect();
        assert!(
            why[0].contains("`soon` is not a whole number of hours"),
            "{}",
            why[0]
        );
        assert!(
            why[1].contains("too few words: write it as EXTEND"),
            "{}",
            why[1]
        );
        assert!(
            why[2].contains("`nobody` is not a mail address"),
            "{}",
            why[2]
        );
        assert!(why[3].contains("RESUME takes no reason"), "{}", why[3]);
        assert!(
            why[4].contains("`Not_A_Game` is not a game id"),
            "{}",
            why[4]
        );
        assert!(
            why[5].contains("`DANCE` is not a desk command"),
            "{}",
            why[5]
        );
        assert!(why[6].contains("the message is empty"), "{}", why[6]);
        assert!(why[7].contains("write BROADCAST <game>"), "{}", why[7]);
        let long = format!("PAUSE g-1 {}", "x".repeat(MAX_REASON + 1));
        assert!(read(&long)[0].as_ref().unwrap_err().contains("longer than"));
        // Too many commands: the rest is answered as not read.
        let many = "GAMES\n".repeat(MAX_COMMANDS + 5);
        let got = read_desk(&many);
        assert_eq!(got.len(), MAX_COMMANDS + 1);
        assert!(
            got[MAX_COMMANDS]
                .read
                .as_ref()
                .unwrap_err()
                .contains("at most")
        );
    }

    #[test]
    fn the_desk_address_is_never_a_games() {
        let inb = |to: &str| Inbound {
            to: vec![to.to_string()],
            ..Default::default()
        };
        assert_eq!(
            desk_secret(&inb("despatch+_desk.abc123@club.example"), "despatch"),
            Some("abc123".into())
        );
        assert_eq!(
            desk_secret(&inb("Despatch+_DESK.ABC123@club.example"), "despatch"),
            Some("abc123".into())
        );
        assert_eq!(
            desk_secret(&inb("despatch+_desk@club.example"), "despatch"),
            Some(String::new())
        );
        assert_eq!(
            desk_secret(&inb("despatch+_desk.a-b@club.example"), "despatch"),
            Some(String::new())
        );
        assert_eq!(
            desk_secret(&inb("despatch+g-1.north.abc@club.example"), "despatch"),
            None
        );
        assert_eq!(
            desk_secret(&inb("despatch+_desks.abc@club.example"), "despatch"),
            None
        );
        // No game id can be the reserved word.
        assert!(!crate::engine::valid_game_id(DESK));
        assert!(!super::super::is_game_id(DESK));
        assert_eq!(
            desk_address("despatch", "abc", "club.example"),
            "despatch+_desk.abc@club.example"
        );
    }
}
