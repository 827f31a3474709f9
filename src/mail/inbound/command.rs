//! Seat commands: the words a player writes instead of orders to change their own settings or
//! ask about their games (`ADDRESS ADD …`, `TIMEZONE …`, `NOTIFY …`, `LIST`). Parses the first
//! line the player wrote; decides nothing about who may do what (the daemon does).

use serde::{Deserialize, Serialize};

use crate::mail::address::Mailbox;

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
    /// Turn a kind of mail that asks nothing on or off; `None` shows the current choice.
    Notify(Option<(NotifyKind, bool)>),
    /// The player's games and how to write to each.
    List,
    /// A command word with words it cannot take: answered with why, nothing changed.
    Invalid { command: String, why: String },
    /// An act on the game itself: absence, concession, resignation, draw (seat_acts.rs).
    Act(super::seat_acts::SeatAct),
}

/// The kinds of mail a seat may turn off (`NOTIFY ORDERS OFF`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum NotifyKind {
    /// "X has sent orders" notices.
    Orders,
    /// Results of steps that only invite the seat.
    Optional,
    Both,
}

const USAGE_ADDRESS: &str = "write ADDRESS ADD you@example.org, ADDRESS REMOVE you@example.org \
                             or ADDRESS alone to see your addresses";
const USAGE_NOTIFY: &str = "write NOTIFY ORDERS OFF, NOTIFY OPTIONAL OFF, NOTIFY ALL ON (or OFF), \
                            or NOTIFY alone to see your choice";

/// The command on the first line the player wrote that is not a GAME or TOKEN line, else in
/// the subject (without `Re:` and tags). None when neither starts with a command word, so any
/// other mail is read as orders exactly as before.
pub fn seat_command(first_line: Option<&str>, bare_subject: &str) -> Option<SeatCommand> {
    first_line.and_then(parse).or_else(|| parse(bare_subject))
}

/// One line as a command. Keywords and their words are case-insensitive; at most a few words
/// are looked at, so a long line costs no more than reading it.
pub fn parse(line: &str) -> Option<SeatCommand> {
    let words: Vec<&str> = line.split_whitespace().take(5).collect();
    let (first, rest) = words.split_first()?;
    let keyword = first.trim_end_matches(':').to_ascii_uppercase();
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
    match keyword.as_str() {
        "ADDRESS" | "ADDRESSES" => match upper.as_slice() {
            [] => Some(SeatCommand::Addresses),
            ["ADD", _, ..] => Some(address().map_or_else(|e| e, SeatCommand::AddressAdd)),
            ["REMOVE" | "DELETE", _, ..] => {
                Some(address().map_or_else(|e| e, SeatCommand::AddressRemove))
            }
            _ => invalid(USAGE_ADDRESS),
        },
        "TIMEZONE" | "TZ" | "TIME-ZONE" => match rest {
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
        "NOTIFY" => {
            let kind = |w: &str| match w {
                "ORDERS" | "NOTICES" => Some(NotifyKind::Orders),
                "OPTIONAL" | "PROMPTS" => Some(NotifyKind::Optional),
                "ALL" => Some(NotifyKind::Both),
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
        "LIST" if rest.is_empty() => Some(SeatCommand::List),
        // Seat acts (issue 16 points 3 and 4): `None` for lines that are orders after all.
        "ABSENT" | "CONCEDE" | "RESIGN" | "PROPOSE" | "ACCEPT" | "WITHDRAW" | "DECLINE"
        | "CANCEL" => super::seat_acts::parse(line).map(SeatCommand::Act),
        _ => None,
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
    fn the_subject_answers_when_the_body_does_not() {
        assert_eq!(
            seat_command(Some("TURN Mikasa PORT 30"), "NOTIFY ALL OFF"),
            Some(SeatCommand::Notify(Some((NotifyKind::Both, false))))
        );
        assert_eq!(seat_command(None, "Turn 3 results"), None);
    }
}
