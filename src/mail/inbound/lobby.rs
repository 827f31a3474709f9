//! The lobby's words in a mail to the house address (issue 31 point 1): `GAMES`, `OPEN`,
//! `JOIN`, `LEAVE`, and the organiser's `APPROVE` / `REFUSE`. Pure: reads the body's lines
//! into acts or says exactly what is wrong with a line; what an act does is
//! `engine::lobby`'s, who may do it the daemon's.

use crate::engine::lobby::Act;

/// The first words of the lobby's lines.
pub const LOBBY_WORDS: [&str; 6] = ["GAMES", "OPEN", "JOIN", "LEAVE", "APPROVE", "REFUSE"];

/// One lobby line as read: the line itself and its act, or why it cannot be read.
pub type LobbyLine = (String, Result<Act, String>);

/// Whether the mail's first own line is a lobby line (so the mail is for the lobby).
pub fn is_lobby_mail(body: &str) -> bool {
    body.lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| first_word(l).is_some_and(|w| LOBBY_WORDS.contains(&w.as_str())))
}

fn first_word(line: &str) -> Option<String> {
    line.split_whitespace().next().map(str::to_ascii_uppercase)
}

/// Most lobby lines read from one mail; the answer says how many more there were.
pub const MAX_LOBBY_LINES: usize = 20;

fn is_lobby_line(l: &str) -> bool {
    first_word(l).is_some_and(|w| LOBBY_WORDS.contains(&w.as_str()))
}

/// How many lobby lines the body holds (all of them, read or not).
pub fn lobby_line_count(body: &str) -> usize {
    body.lines().filter(|l| is_lobby_line(l)).count()
}

/// Every lobby line of the body, in order, at most [`MAX_LOBBY_LINES`]; other lines (a
/// greeting, a signature) are not lobby lines and are passed over. Linear in the body.
pub fn lobby_lines(body: &str) -> Vec<LobbyLine> {
    body.lines()
        .filter(|l| is_lobby_line(l))
        .take(MAX_LOBBY_LINES)
        .map(|l| (l.trim().to_string(), read(l)))
        .collect()
}

/// Lower case, `_` as `-`: `Naval_RJW` is `naval-rjw` as the games folder names it.
fn name(s: &str) -> String {
    s.to_ascii_lowercase().replace('_', "-")
}

fn read(line: &str) -> Result<Act, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let word = words[0].to_ascii_uppercase();
    let args = &words[1..];
    let id_ok = |g: &str| crate::engine::valid_game_id(g);
    match word.as_str() {
        "GAMES" if args.is_empty() => Ok(Act::Games),
        "GAMES" => Err("GAMES takes nothing after it".into()),
        "OPEN" => {
            // `OPEN <ruleset> CAMPAIGN <plan> …`: a campaign the ruleset ships, whose battles
            // start one after another once the table is full (docs/campaigns.md).
            let (ruleset, scenario, rest) = match args {
                [r, c, plan, rest @ ..] if c.eq_ignore_ascii_case("CAMPAIGN") => (
                    *r,
                    format!("{}{}", crate::engine::lobby::CAMPAIGN_PREFIX, name(plan)),
                    rest,
                ),
                [r, s, rest @ ..] => (*r, name(s), rest),
                _ => {
                    return Err(
                        "write OPEN <ruleset> <scenario> [AS <seat>] [PACE <hours>] \
                                [LEAGUE <name>], or OPEN <ruleset> CAMPAIGN <campaign> [AS \
                                <seat>] [LEAGUE <name>]"
                            .into(),
                    );
                }
            };
            let campaign = scenario.starts_with(crate::engine::lobby::CAMPAIGN_PREFIX);
            let (mut seat, mut pace, mut league) = (None, None, None);
            let mut i = 0;
            while i < rest.len() {
                let key = rest[i].to_ascii_uppercase();
                let Some(v) = rest.get(i + 1) else {
                    return Err(format!("{key} needs a value after it"));
                };
                match key.as_str() {
                    "PACE" if campaign => {
                        return Err("PACE is not taken for a campaign: its battles keep the \
                                    club's pace"
                            .into());
                    }
                    "AS" if seat.is_none() => seat = Some(name(v)),
                    "PACE" if pace.is_none() => {
                        let h = v.trim_end_matches(['h', 'H']);
                        pace = Some(h.parse::<u32>().ok().filter(|_| h.len() <= 4).ok_or_else(
                            || format!("PACE {v}: give the hours a step lasts, e.g. PACE 48"),
                        )?)
                    }
                    "LEAGUE" if league.is_none() => league = Some(name(v)),
                    "AS" | "PACE" | "LEAGUE" => return Err(format!("{key} given twice")),
                    _ => {
                        return Err(format!("`{}` is not AS, PACE or LEAGUE", rest[i]));
                    }
                }
                i += 2;
            }
            Ok(Act::Open {
                ruleset: name(ruleset),
                scenario,
                seat,
                pace,
                league,
            })
        }
        "JOIN" => match args {
            [g] if id_ok(&name(g)) => Ok(Act::Join {
                game: name(g),
                seat: None,
            }),
            [g, a, s] if id_ok(&name(g)) && a.eq_ignore_ascii_case("AS") => Ok(Act::Join {
                game: name(g),
                seat: Some(name(s)),
            }),
            _ => Err("write JOIN <game> [AS <seat>]".into()),
        },
        "LEAVE" => match args {
            [g] if id_ok(&name(g)) => Ok(Act::Leave { game: name(g) }),
            _ => Err("write LEAVE <game>".into()),
        },
        "APPROVE" | "REFUSE" => {
            let (game, seat) = match args {
                [g] => (name(g), None),
                [g, s] => (name(g), Some(name(s))),
                _ => return Err(format!("write {word} <game> [<seat>]")),
            };
            if !id_ok(&game) {
                return Err(format!("`{game}` is not a game id"));
            }
            Ok(if word == "APPROVE" {
                Act::Approve { game, seat }
            } else {
                Act::Refuse { game, seat }
            })
        }
        _ => Err(format!("`{word}` is not a lobby word")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_and_wrong_ones_say_why() {
        let body = "Hello all,\nOPEN Naval_RJW training AS russia PACE 48h LEAGUE Autumn\n\
                    join training-1 as japan\nGAMES\nLEAVE training-1\nAPPROVE training-1 japan\n\
                    REFUSE training-1\n-- \nAnn";
        let acts: Vec<Act> = lobby_lines(body)
            .into_iter()
            .map(|(_, a)| a.unwrap())
            .collect();
        assert_eq!(
            acts[0],
            Act::Open {
                ruleset: "naval-rjw".into(),
                scenario: "training".into(),
                seat: Some("russia".into()),
                pace: Some(48),
                league: Some("autumn".into()),
            }
        );
        assert_eq!(
            acts[1],
            Act::Join {
                game: "training-1".into(),
                seat: Some("japan".into())
            }
        );
        assert_eq!(acts[2], Act::Games);
        assert_eq!(acts.len(), 6);
        for bad in [
            "OPEN naval-rjw",
            "OPEN naval-rjw training PACE",
            "OPEN naval-rjw training PACE soon",
            "OPEN naval-rjw training PACE 99999",
            "OPEN naval-rjw training AS a AS b",
            "OPEN naval-rjw training WITH friends",
            "JOIN",
            "JOIN Training_1 please now",
            "JOIN 1abc",
            "GAMES now",
            "LEAVE",
            "APPROVE a b c",
        ] {
            let got = lobby_lines(bad);
            assert_eq!(got.len(), 1, "{bad}");
            assert!(got[0].1.is_err(), "{bad}: {:?}", got[0].1);
        }
    }

    #[test]
    fn only_a_first_lobby_line_makes_a_lobby_mail() {
        assert!(is_lobby_mail("\n  games\n"));
        assert!(is_lobby_mail("OPEN x y"));
        assert!(!is_lobby_mail("Hello\nGAMES"));
        assert!(!is_lobby_mail("LIST"));
        assert!(!is_lobby_mail("OPENING move"));
        assert!(!is_lobby_mail(""));
    }

    #[test]
    fn a_long_body_reads_at_most_twenty_lines() {
        let body = "GAMES\n".repeat(10_000);
        assert_eq!(lobby_lines(&body).len(), 20);
        assert_eq!(lobby_line_count(&body), 10_000);
    }
}
