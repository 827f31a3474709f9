//! A player's or organiser's address as given on the command line or in a config: an RFC 5322
//! mailbox (`togo@jp.example` or `Togo <togo@jp.example>`), checked with lettre's parser before
//! anything is stored, so a stored address can always be mailed. Pure.

use std::str::FromStr;

/// A checked mailbox: the bare address (lower-case) and the display name (possibly empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mailbox {
    pub name: String,
    pub address: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{given}` is not a mail address (write name@example.org or Name <name@example.org>)")]
pub struct BadAddress {
    pub given: String,
}

impl FromStr for Mailbox {
    type Err = BadAddress;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadAddress {
            given: s.chars().filter(|c| !c.is_control()).take(200).collect(),
        };
        if s.chars().any(char::is_control) || s.len() > 320 {
            return Err(bad());
        }
        let parsed = lettre::message::Mailbox::from_str(s.trim()).map_err(|_| bad())?;
        let address = parsed.email.to_string().to_ascii_lowercase();
        if !address.contains('@') {
            return Err(bad());
        }
        Ok(Mailbox {
            name: parsed.name.unwrap_or_default().trim().to_string(),
            address,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_addresses_and_display_names_parse() {
        let m: Mailbox = "togo@JP.example".parse().unwrap();
        assert_eq!(
            (m.name.as_str(), m.address.as_str()),
            ("", "togo@jp.example")
        );
        let m: Mailbox = "Togo <togo@jp.example>".parse().unwrap();
        assert_eq!(
            (m.name.as_str(), m.address.as_str()),
            ("Togo", "togo@jp.example")
        );
        let m: Mailbox = "\"Togo, Heihachiro\" <togo@jp.example>".parse().unwrap();
        assert_eq!(m.name, "Togo, Heihachiro");
    }

    #[test]
    fn what_cannot_be_mailed_is_refused() {
        for bad in [
            "togo",
            "",
            "Togo <>",
            "togo@jp.example\r\nBcc: x@y.example",
            "a@b@c",
            "<togo@jp.example",
        ] {
            assert!(bad.parse::<Mailbox>().is_err(), "{bad:?} was accepted");
        }
    }
}
