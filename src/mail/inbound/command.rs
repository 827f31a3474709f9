//! Seat commands: the words a player writes instead of orders to change their own settings or
//! ask about their games (`ADDRESS ADD …`, `TIMEZONE …`, `NOTIFY …`, `LIST`). Parses the first
//! line the player wrote; decides nothing about who may do what (the daemon does).

use serde::{Deserialize, Serialize};

use crate::config::address::Mailbox;

/// What a seat's mail asks for instead of carrying orders.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatCommand {
    /// Read mails from this address as the seat's too (sent from the registered address).
    AddressAdd(String),
    /// Stop reading mails from this extra address.
    AddressRemove(String),
    /// Show the addresses the seat writes from.
    Addresses,
    /// Show every time in the seat's mails in this zone (a valid IANA name, as canonical).
    TimeZone(String),
    /// `NAME Alice Smith`: the player's name in this game's lists and the league tables
    /// (issue 30); `None` (NAME alone) shows it.
    Name(Option<String>),
    /// Turn a kind of mail that asks nothing on or off; `None` shows the current choice.
    Notify(Option<(NotifyKind, bool)>),
    /// The player's games and how to write to each.
    List,
    /// Let this address watch the game (spectator view), where the club policy allows.
    SpectatorAdd(String),
    /// Stop mailing this observer.
    SpectatorRemove(String),
    /// A command word with words it cannot take: answered with why, nothing changed.
    Invalid { command: String, why: String },
    // Issue 16, talking about the game (answered by `daemon/talk.rs`):
    /// Where the game stands for the seat.
    Status,
    /// The numbers of the seat's own units (issue 30 point 6).
    Units,
    /// Every deadline of every game the player plays, as a calendar (issue 31 point 5).
    Calendar,
    /// `HISTORY n` / `RESEND n`: step n's results mail again; `None` lists the steps.
    History(Option<u64>),
    /// `PRESS TO <seat|side|all|gm>, …`: the words after TO, lower-case (the message is the
    /// rest of the mail).
    Press(Vec<String>),
    /// One of the three above written wrong: answered with the line, why, and a hint.
    TalkInvalid { why: String, hint: String },
    /// An act on the game itself: absence, concession, resignation, draw (seat_acts.rs).
    Act(super::seat_acts::SeatAct),
    /// STOP / UNSUBSCRIBE alone (docs/club-rules.md S1): every mail the seat may turn off is
    /// turned off. Never from the word table (`parse`): `consent::seat_asks_to_stop` reads it,
    /// so STOP stays free as an order word inside a line.
    Stop,
}

impl SeatCommand {
    /// STATUS, HISTORY/RESEND or PRESS (answered by `daemon/talk.rs`).
    pub fn is_talk(&self) -> bool {
        matches!(
            self,
            SeatCommand::Status
                | SeatCommand::Units
                | SeatCommand::Calendar
                | SeatCommand::History(_)
                | SeatCommand::Press(_)
                | SeatCommand::TalkInvalid { .. }
        )
    }
}

/// Most names a `PRESS TO` line may list.
const MAX_PRESS_NAMES: usize = 32;

/// STATUS, HISTORY/RESEND and PRESS (issue 16) from a line whose first word is `keyword`.
fn talk(keyword: &str, line: &str) -> Option<SeatCommand> {
    let bad = |why: &str, hint: &str| {
        Some(SeatCommand::TalkInvalid {
            why: why.to_string(),
            hint: hint.to_string(),
        })
    };
    // The words after the keyword; a long line is read once.
    let tail = line
        .trim_start()
        .split_once(char::is_whitespace)
        .map(|(_, t)| t)
        .unwrap_or("");
    let mut words = tail.split_whitespace();
    match keyword {
        "STATUS" => match words.next() {
            None => Some(SeatCommand::Status),
            Some(_) => bad(
                "STATUS takes no words after it",
                "write STATUS alone on the line",
            ),
        },
        "UNITS" => match words.next() {
            None => Some(SeatCommand::Units),
            Some(_) => bad(
                "UNITS takes no words after it",
                "write UNITS alone on the line",
            ),
        },
        "CALENDAR" => match words.next() {
            None => Some(SeatCommand::Calendar),
            Some(_) => bad(
                "CALENDAR takes no words after it",
                "write CALENDAR alone on the line",
            ),
        },
        "HISTORY" | "RESEND" => {
            let hint = "write HISTORY 3 (or RESEND 3) for step 3's results, or HISTORY alone for the list of steps";
            match (words.next(), words.next()) {
                (None, _) => Some(SeatCommand::History(None)),
                (Some(n), None) => match n.trim_start_matches('#').parse::<u64>() {
                    Ok(k) => Some(SeatCommand::History(Some(k))),
                    Err(_) => bad(
                        &format!(
                            "`{}` is not a step number",
                            n.chars().take(20).collect::<String>()
                        ),
                        hint,
                    ),
                },
                (Some(_), Some(_)) => bad(&format!("{keyword} takes one step number"), hint),
            }
        }
        "PRESS" => {
            let hint = "write PRESS TO and a seat, a side, all or gm on the first line (several with commas), and the message on the lines below it";
            if !words
                .next()
                .is_some_and(|w| w.eq_ignore_ascii_case("TO") || w.eq_ignore_ascii_case("TO:"))
            {
                return bad("PRESS must be followed by TO and whom it is for", hint);
            }
            let rest = tail.trim_start();
            let rest = rest[rest.find(char::is_whitespace).unwrap_or(rest.len())..].trim();
            let names: Vec<String> = rest
                .split([',', ';', ' ', '\t'])
                .map(|w| w.trim().to_ascii_lowercase())
                .filter(|w| !w.is_empty() && w != "and" && w != "&")
                .take(MAX_PRESS_NAMES + 1)
                .collect();
            if names.is_empty() {
                return bad("PRESS TO names nobody", hint);
            }
            if names.len() > MAX_PRESS_NAMES {
                return bad(
                    &format!("PRESS TO may name at most {MAX_PRESS_NAMES} seats or sides"),
                    "write PRESS TO all, or name a side",
                );
            }
            Some(SeatCommand::Press(names))
        }
        _ => None,
    }
}

/// The kinds of mail a seat may have on their own as they happen (`NOTIFY RECEIPTS ON`) or
/// gathered into its next mail that asks something (`… OFF`, the default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum NotifyKind {
    /// "X has sent orders" notices.
    Orders,
    /// Results of steps that only invite the seat.
    Optional,
    /// Every kind at once (`NOTIFY ALL …`); the name is older than the four kinds.
    Both,
    /// Receipts of orders applied whole.
    Receipts,
    /// Results of steps that ask nothing of the seat.
    Results,
}

const USAGE_ADDRESS: &str = "write ADDRESS ADD you@example.org, ADDRESS REMOVE you@example.org \
                             or ADDRESS alone to see your addresses";
const USAGE_NOTIFY: &str = "write NOTIFY ALL ON (every mail on its own), NOTIFY ALL OFF (one mail \
                            a step), NOTIFY RECEIPTS, RESULTS, ORDERS or OPTIONAL with ON or OFF, \
                            or NOTIFY alone to see your choice";

const USAGE_SPECTATOR: &str = "write SPECTATOR ADD watcher@example.org or SPECTATOR REMOVE \
                               watcher@example.org";

/// Which parser reads a line that starts with a command word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Address,
    Zone,
    Notify,
    Name,
    List,
    Talk,
    Spectator,
    Act,
}

/// Every word a seat command starts with, and which parser reads its line. [`parse`]
/// dispatches on this table alone, so it is the whole list ([`command_words`]): a line whose
/// first word is not here is never a command. `WITHDRAW` is not one (it is an order in Naval
/// and Last Hundred Yards): a draw vote is taken back with `DECLINE DRAW` or `CANCEL DRAW`
/// (docs/club-rules.md M3).
const WORDS: &[(&str, Family)] = &[
    ("ADDRESS", Family::Address),
    ("ADDRESSES", Family::Address),
    ("TIMEZONE", Family::Zone),
    ("TZ", Family::Zone),
    ("TIME-ZONE", Family::Zone),
    ("NOTIFY", Family::Notify),
    ("NAME", Family::Name),
    ("LIST", Family::List),
    ("STATUS", Family::Talk),
    ("UNITS", Family::Talk),
    ("CALENDAR", Family::Talk),
    ("HISTORY", Family::Talk),
    ("RESEND", Family::Talk),
    ("PRESS", Family::Talk),
    ("SPECTATOR", Family::Spectator),
    ("SPECTATORS", Family::Spectator),
    ("OBSERVER", Family::Spectator),
    ("ABSENT", Family::Act),
    ("CONCEDE", Family::Act),
    ("RESIGN", Family::Act),
    ("PROPOSE", Family::Act),
    ("ACCEPT", Family::Act),
    ("DECLINE", Family::Act),
    ("CANCEL", Family::Act),
];

/// The words a seat command line starts with (upper case), from the parser's own table.
pub fn command_words() -> Vec<&'static str> {
    WORDS.iter().map(|(w, _)| *w).collect()
}

/// The command a mail carries, read from the body first (docs/club-rules.md M1–M2):
/// `first_own` is the first line the player wrote that is not a GAME or TOKEN line. When
/// there is one, it alone decides: a command, or `Ok(None)` — the body is orders, whatever
/// the subject says. Only a body with no line of its own lets the subject ask, and then only
/// when the whole subject (`bare_subject`: less `Re:` and tags) is one valid command that
/// reads and changes nothing ([`from_subject`]). `Err(word)` is a subject that would change
/// the game or a seat (`CONCEDE g1`, `ADDRESS ADD …`) over an empty body: not carried out,
/// and the answer says to write it in the text.
pub fn seat_command(
    first_own: Option<&str>,
    bare_subject: &str,
) -> Result<Option<SeatCommand>, String> {
    match first_own {
        Some(line) => Ok(parse(line)),
        None => from_subject(bare_subject),
    }
}

/// A subject as a command, over a body with nothing of the player's own: the read-only ones
/// (STATUS, UNITS, HISTORY/RESEND, LIST, and ADDRESS, NOTIFY or ABSENT alone, which show the
/// seat's settings) are answered; anything that would act (CONCEDE, RESIGN, draw votes, ABSENT
/// dates, ADDRESS ADD/REMOVE, TIMEZONE, NOTIFY … ON/OFF, SPECTATOR, PRESS) is `Err` with its
/// word. A subject that is no command, or a command written wrong, is `Ok(None)`: a subject
/// is a title, not an order to be answered with a mistake.
pub fn from_subject(bare_subject: &str) -> Result<Option<SeatCommand>, String> {
    use super::seat_acts::SeatAct;
    let Some(cmd) = parse(bare_subject) else {
        return Ok(None);
    };
    match cmd {
        SeatCommand::Status
        | SeatCommand::Units
        | SeatCommand::Calendar
        | SeatCommand::History(_)
        | SeatCommand::List
        | SeatCommand::Addresses
        | SeatCommand::Notify(None)
        | SeatCommand::Act(SeatAct::AbsentShow) => Ok(Some(cmd)),
        SeatCommand::Invalid { .. }
        | SeatCommand::TalkInvalid { .. }
        | SeatCommand::Act(SeatAct::Bad { .. }) => Ok(None),
        _ => Err(bare_subject
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .trim_end_matches(':')
            .to_ascii_uppercase()),
    }
}

/// The retired way to take a draw vote back (`WITHDRAW DRAW`, now `DECLINE DRAW`): the hint
/// a rejected mail gets for a line written so, since `WITHDRAW` is an order word and the line
/// was read as orders.
pub fn retired_form(line: &str) -> Option<&'static str> {
    let mut words = line.split_whitespace();
    let (Some(a), Some(b), None) = (words.next(), words.next(), words.next()) else {
        return None;
    };
    (a.eq_ignore_ascii_case("WITHDRAW") && b.eq_ignore_ascii_case("DRAW")).then_some(
        "to take your draw vote back, write DECLINE DRAW (or CANCEL DRAW) alone on the first \
         line; WITHDRAW is an order word, so WITHDRAW DRAW is not read as a command",
    )
}

/// The longest name a player may give (characters): a league table's name column and a
/// phone's line show it whole.
pub const NAME_MAX: usize = 40;

/// A player's name as `NAME` takes it: spaces folded, at most `NAME_MAX` characters of
/// letters, digits, spaces and `.-'_`; empty is `None` (show the name). No `@`, `<`, `>`:
/// a name is printed in tables and lists, where an address must never appear.
fn player_name(tail: &str) -> Result<Option<String>, &'static str> {
    let name = tail.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        return Ok(None);
    }
    if name.chars().count() > NAME_MAX {
        return Err("a name is at most 40 characters");
    }
    let fits = |c: char| c.is_alphanumeric() || matches!(c, ' ' | '.' | '-' | '\'' | '_');
    if !name.chars().all(fits) {
        return Err("a name is letters, digits, spaces and . - ' _ only (no address)");
    }
    Ok(Some(name))
}

/// One line as a command. Keywords and their words are case-insensitive; at most a few words
/// are looked at, so a long line costs no more than reading it.
pub fn parse(line: &str) -> Option<SeatCommand> {
    let words: Vec<&str> = line.split_whitespace().take(5).collect();
    let (first, rest) = words.split_first()?;
    let keyword = first.trim_end_matches(':').to_ascii_uppercase();
    let family = WORDS.iter().find(|(w, _)| *w == keyword).map(|(_, f)| *f)?;
    let upper: Vec<String> = rest.iter().map(|w| w.to_ascii_uppercase()).collect();
    let upper: Vec<&str> = upper.iter().map(String::as_str).collect();
    let invalid = |why: &str| {
        Some(SeatCommand::Invalid {
            command: keyword.clone(),
            why: why.to_string(),
        })
    };
    // The address is everything after `ADDRESS ADD`, so `Togo <togo@example.org>` works too.
    let address = || {
        let tail = line.trim_start()[first.len()..].trim_start();
        let tail = tail[rest[0].len()..].trim();
        match tail.parse::<Mailbox>() {
            Ok(m) => Ok(m.address),
            Err(e) => Err(SeatCommand::Invalid {
                command: keyword.clone(),
                why: e.to_string(),
            }),
        }
    };
    match family {
        Family::Address => match upper.as_slice() {
            [] => Some(SeatCommand::Addresses),
            ["ADD", _, ..] => Some(address().map_or_else(|e| e, SeatCommand::AddressAdd)),
            ["REMOVE" | "DELETE", _, ..] => {
                Some(address().map_or_else(|e| e, SeatCommand::AddressRemove))
            }
            _ => invalid(USAGE_ADDRESS),
        },
        Family::Zone => match rest {
            [zone] => match time_zone(zone) {
                Some(z) => Some(SeatCommand::TimeZone(z)),
                None => invalid(&format!(
                    "`{}` is not a time zone name; use an IANA name such as Europe/London, \
                     America/New_York or UTC",
                    zone.chars().take(60).collect::<String>()
                )),
            },
            _ => invalid("write TIMEZONE and one IANA name, e.g. TIMEZONE Europe/Paris"),
        },
        Family::Name => {
            // The whole rest of the line (`parse` looks at five words only for the keywords).
            let tail = line.trim_start()[first.len()..].trim();
            match player_name(tail) {
                Ok(n) => Some(SeatCommand::Name(n)),
                Err(why) => invalid(why),
            }
        }
        Family::Notify => {
            let kind = |w: &str| match w {
                "ORDERS" | "NOTICES" => Some(NotifyKind::Orders),
                "OPTIONAL" | "PROMPTS" => Some(NotifyKind::Optional),
                "ALL" | "EVERY" | "EVERYTHING" => Some(NotifyKind::Both),
                "RECEIPTS" | "RECEIPT" => Some(NotifyKind::Receipts),
                "RESULTS" => Some(NotifyKind::Results),
                _ => None,
            };
            let on = |w: &str| match w {
                "ON" | "YES" => Some(true),
                "OFF" | "NO" => Some(false),
                _ => None,
            };
            match upper.as_slice() {
                [] => Some(SeatCommand::Notify(None)),
                [k, o] => match (kind(k), on(o)) {
                    (Some(k), Some(o)) => Some(SeatCommand::Notify(Some((k, o)))),
                    _ => invalid(USAGE_NOTIFY),
                },
                _ => invalid(USAGE_NOTIFY),
            }
        }
        Family::List => rest.is_empty().then_some(SeatCommand::List),
        Family::Talk => talk(&keyword, line),
        Family::Spectator => match upper.as_slice() {
            ["ADD", _, ..] => Some(address().map_or_else(|e| e, SeatCommand::SpectatorAdd)),
            ["REMOVE" | "DELETE", _, ..] => {
                Some(address().map_or_else(|e| e, SeatCommand::SpectatorRemove))
            }
            _ => invalid(USAGE_SPECTATOR),
        },
        // Seat acts (issue 16 points 3 and 4): `None` for lines that are orders after all.
        Family::Act => super::seat_acts::parse(line).map(SeatCommand::Act),
    }
}

/// The canonical name of an IANA zone, matched without regard to case (`europe/paris`).
fn time_zone(name: &str) -> Option<String> {
    if let Ok(z) = name.parse::<chrono_tz::Tz>() {
        return Some(z.name().to_string());
    }
    chrono_tz::TZ_VARIANTS
        .iter()
        .find(|z| z.name().eq_ignore_ascii_case(name))
        .map(|z| z.name().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_takes_the_rest_of_the_line_up_to_forty_characters_and_no_address() {
        assert_eq!(
            parse("NAME  Heihachiro   Tōgō Jr."),
            Some(SeatCommand::Name(Some("Heihachiro Tōgō Jr.".into())))
        );
        assert_eq!(parse("name"), Some(SeatCommand::Name(None)));
        // Both sides of the limit: 40 characters are taken, 41 are not.
        let forty = "a".repeat(40);
        assert_eq!(
            parse(&format!("NAME {forty}")),
            Some(SeatCommand::Name(Some(forty.clone())))
        );
        assert!(matches!(
            parse(&format!("NAME {forty}b")),
            Some(SeatCommand::Invalid { why, .. }) if why.contains("40")
        ));
        for bad in [
            "NAME togo@example.org",
            "NAME Togo <t@x.org>",
            "NAME a\u{7}b",
        ] {
            assert!(
                matches!(parse(bad), Some(SeatCommand::Invalid { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn each_command_and_its_mistakes() {
        assert_eq!(
            parse("ADDRESS ADD Heihachiro Togo <Togo@Example.org>"),
            Some(SeatCommand::AddressAdd("togo@example.org".into()))
        );
        assert_eq!(
            parse("address add Togo@Example.org"),
            Some(SeatCommand::AddressAdd("togo@example.org".into()))
        );
        assert_eq!(
            parse("ADDRESS REMOVE togo@example.org"),
            Some(SeatCommand::AddressRemove("togo@example.org".into()))
        );
        assert_eq!(parse("Addresses"), Some(SeatCommand::Addresses));
        assert!(matches!(
            parse("ADDRESS ADD not-an-address"),
            Some(SeatCommand::Invalid { .. })
        ));
        assert_eq!(
            parse("timezone europe/paris"),
            Some(SeatCommand::TimeZone("Europe/Paris".into()))
        );
        assert!(matches!(
            parse("TIMEZONE Mars/Olympus"),
            Some(SeatCommand::Invalid { why, .. }) if why.contains("Mars/Olympus")
        ));
        assert_eq!(
            parse("NOTIFY orders off"),
            Some(SeatCommand::Notify(Some((NotifyKind::Orders, false))))
        );
        assert_eq!(parse("NOTIFY"), Some(SeatCommand::Notify(None)));
        assert_eq!(
            parse("NOTIFY receipts on"),
            Some(SeatCommand::Notify(Some((NotifyKind::Receipts, true))))
        );
        assert_eq!(
            parse("NOTIFY RESULTS ON"),
            Some(SeatCommand::Notify(Some((NotifyKind::Results, true))))
        );
        assert!(matches!(
            parse("NOTIFY everything"),
            Some(SeatCommand::Invalid { .. })
        ));
        assert_eq!(parse("LIST"), Some(SeatCommand::List));
        // Orders are not commands.
        assert_eq!(parse("TURN Mikasa PORT 30"), None);
        assert_eq!(parse("LIST of my ships"), None);
        assert_eq!(parse(""), None);
    }

    #[test]
    fn status_history_and_press_lines() {
        assert_eq!(parse("status"), Some(SeatCommand::Status));
        assert_eq!(parse("Units"), Some(SeatCommand::Units));
        assert_eq!(parse("HISTORY"), Some(SeatCommand::History(None)));
        assert_eq!(parse("resend #3"), Some(SeatCommand::History(Some(3))));
        assert_eq!(parse("HISTORY 0"), Some(SeatCommand::History(Some(0))));
        assert_eq!(
            parse("PRESS TO Russia, austria and gm"),
            Some(SeatCommand::Press(vec![
                "russia".into(),
                "austria".into(),
                "gm".into()
            ]))
        );
        for bad in [
            "STATUS please",
            "UNITS of the 2nd company",
            "HISTORY three",
            "HISTORY 99999999999999999999999",
            "HISTORY 1 russia",
            "PRESS",
            "PRESS russia",
            "PRESS TO",
        ] {
            assert!(
                matches!(parse(bad), Some(SeatCommand::TalkInvalid { .. })),
                "{bad}"
            );
        }
        let many = format!("PRESS TO {}", "x, ".repeat(40));
        assert!(matches!(
            parse(&many),
            Some(SeatCommand::TalkInvalid { .. })
        ));
    }

    #[test]
    fn the_subject_answers_when_the_body_does_not() {
        // Orders in the body are orders, whatever the subject says.
        for subject in [
            "NOTIFY ALL OFF",
            "STATUS",
            "Status update from the fleet",
            "Press on to Port Arthur",
            "CONCEDE g1",
            "help",
        ] {
            assert_eq!(
                seat_command(Some("TURN Mikasa PORT 30"), subject),
                Ok(None),
                "{subject}"
            );
        }
        // The body's own command line is the command.
        assert_eq!(
            seat_command(Some("STATUS"), "CONCEDE g1"),
            Ok(Some(SeatCommand::Status))
        );
        // Over an empty body, a read-only subject is answered…
        assert_eq!(seat_command(None, "STATUS"), Ok(Some(SeatCommand::Status)));
        assert_eq!(seat_command(None, "UNITS"), Ok(Some(SeatCommand::Units)));
        assert_eq!(
            seat_command(None, "history 3"),
            Ok(Some(SeatCommand::History(Some(3))))
        );
        assert_eq!(seat_command(None, "LIST"), Ok(Some(SeatCommand::List)));
        assert_eq!(
            seat_command(None, "NOTIFY"),
            Ok(Some(SeatCommand::Notify(None)))
        );
        assert_eq!(
            seat_command(None, "address"),
            Ok(Some(SeatCommand::Addresses))
        );
        // …a title or a command written wrong is no command…
        for title in [
            "Turn 3 results",
            "Status update from the fleet",
            "Press on to Port Arthur",
            "Press from russia",
            "History 3 and 4",
            "Absent next week",
            "",
        ] {
            assert_eq!(seat_command(None, title), Ok(None), "{title}");
        }
        // …and nothing that acts is ever taken from a subject.
        for (subject, word) in [
            ("CONCEDE g1", "CONCEDE"),
            ("Resign g1", "RESIGN"),
            ("PROPOSE DRAW g1", "PROPOSE"),
            ("ACCEPT DRAW g1", "ACCEPT"),
            ("DECLINE DRAW", "DECLINE"),
            ("CANCEL DRAW", "CANCEL"),
            ("ABSENT 2026-12-20 TO 2027-01-03", "ABSENT"),
            ("ABSENT CANCEL", "ABSENT"),
            ("ADDRESS ADD x@example.org", "ADDRESS"),
            ("ADDRESS REMOVE x@example.org", "ADDRESS"),
            ("SPECTATOR ADD x@example.org", "SPECTATOR"),
            ("TIMEZONE Europe/Paris", "TIMEZONE"),
            ("NOTIFY ALL OFF", "NOTIFY"),
            ("PRESS TO russia", "PRESS"),
        ] {
            assert_eq!(
                seat_command(None, subject),
                Err(word.to_string()),
                "{subject}"
            );
        }
    }

    #[test]
    fn withdraw_is_no_command_word_and_its_retired_draw_form_gets_a_hint() {
        assert!(!command_words().contains(&"WITHDRAW"));
        assert_eq!(parse("WITHDRAW DRAW"), None);
        assert_eq!(parse("WITHDRAW"), None);
        assert!(retired_form("withdraw  draw").is_some_and(|h| h.contains("DECLINE DRAW")));
        assert_eq!(retired_form("WITHDRAW Mikasa"), None);
        assert_eq!(retired_form("WITHDRAW DRAW now"), None);
        // Every word of the table starts a command (alone or with words after it).
        for w in command_words() {
            assert!(
                parse(w).is_some() || parse(&format!("{w} DRAW")).is_some(),
                "{w} is in the table but parses as nothing"
            );
        }
    }
}
