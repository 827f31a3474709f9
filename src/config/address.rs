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

/// Why an address may not be mailed as a spectator nor added as a seat's extra address
/// (docs/club-rules.md E1): it is not one person who asked for the game's mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unfit {
    /// The game's own address or any `+` form of it: Despatch would mail itself.
    House,
    /// The organiser's: they hear of the game through their own channel.
    Organiser,
    /// A role or system mailbox (postmaster, abuse, no-reply, a list's owner …).
    Role,
}

impl Unfit {
    /// The reason, in words, for the answer to whoever asked.
    pub fn words(self) -> &'static str {
        match self {
            Unfit::House => "it is one of the game's own addresses",
            Unfit::Organiser => "it is the organiser's address",
            Unfit::Role => {
                "it is a role or system address (postmaster, mailer-daemon, abuse, no-reply, a \
                 list's owner or request address and the like), read by a mail system or its \
                 administrators, not by one person who asked for the game's mail"
            }
        }
    }
}

/// Local parts (before any `+tag`) that name a role, not a person (ruling E1). RFC 2142 names
/// postmaster, abuse, hostmaster, webmaster; mailer-daemon answers bounces; no-reply forms are
/// never read; root/admin reach an administrator; listserv/majordomo are list robots.
const ROLE_LOCALS: &[&str] = &[
    "mailer-daemon",
    "postmaster",
    "abuse",
    "noreply",
    "no-reply",
    "donotreply",
    "do-not-reply",
    "hostmaster",
    "webmaster",
    "root",
    "admin",
    "administrator",
    "listserv",
    "majordomo",
];

/// Whether `address` may not be made a recipient: pure, case-insensitive, on the bare address.
/// `house` is the game address (`despatch@host`), `organisers` every organiser's address (any
/// form `Mailbox` parses). Sub-addresses (`name+tag@`) reach the same mailbox, so the part
/// before `+` is what is compared for the house, the organisers and the roles.
pub fn unfit_address(address: &str, house: &str, organisers: &[&str]) -> Option<Unfit> {
    let base = |a: &str| -> Option<(String, String)> {
        let a = a.trim().to_ascii_lowercase();
        let (local, domain) = a.rsplit_once('@')?;
        let local = local.split('+').next().unwrap_or(local);
        Some((local.to_string(), domain.trim_end_matches('.').to_string()))
    };
    let bare = |a: &str| -> String {
        a.parse::<Mailbox>()
            .map(|m| m.address)
            .unwrap_or_else(|_| a.to_string())
    };
    let (local, domain) = base(address)?;
    if base(&bare(house)) == Some((local.clone(), domain.clone())) {
        return Some(Unfit::House);
    }
    if organisers
        .iter()
        .any(|o| base(&bare(o)) == Some((local.clone(), domain.clone())))
    {
        return Some(Unfit::Organiser);
    }
    let role = ROLE_LOCALS.contains(&local.as_str())
        || local.starts_with("owner-")
        || local.ends_with("-owner")
        || local.ends_with("-request")
        || local.ends_with("-bounces");
    role.then_some(Unfit::Role)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unfit_addresses_are_refused_and_their_neighbours_are_not() {
        let house = "despatch@club.example";
        let gm = ["Umpire <umpire@club.example>"];
        let unfit = |a: &str| unfit_address(a, house, &gm);
        // The house and every plus form of it; not another local part on the same host.
        assert_eq!(unfit("despatch@club.example"), Some(Unfit::House));
        assert_eq!(unfit("Despatch+g.japan.x@CLUB.example"), Some(Unfit::House));
        assert_eq!(unfit("despatchfan@club.example"), None);
        assert_eq!(unfit("despatch@other.example"), None);
        // The organiser, in any case and plus form; not a neighbour.
        assert_eq!(unfit("UMPIRE@club.example"), Some(Unfit::Organiser));
        assert_eq!(unfit("umpire+games@club.example"), Some(Unfit::Organiser));
        assert_eq!(unfit("umpire2@club.example"), None);
        // Each role pattern, both sides.
        for (refused, accepted) in [
            ("postmaster@x.example", "postmasterfan@x.example"),
            ("MAILER-DAEMON@x.example", "mailer@x.example"),
            ("abuse+1@x.example", "abused@x.example"),
            ("noreply@x.example", "noreplyhere@x.example"),
            ("no-reply@x.example", "no-replyx@x.example"),
            ("donotreply@x.example", "donot@x.example"),
            ("hostmaster@x.example", "host@x.example"),
            ("webmaster@x.example", "webmistress@x.example"),
            ("root@x.example", "roots@x.example"),
            ("admin@x.example", "admin.jones@x.example"),
            ("owner-club@x.example", "owner@x.example"),
            ("club-owner@x.example", "clubowner@x.example"),
            ("club-request@x.example", "request@x.example"),
            ("club-bounces@x.example", "bounces.fan@x.example"),
        ] {
            assert_eq!(unfit(refused), Some(Unfit::Role), "{refused}");
            assert_eq!(unfit(accepted), None, "{accepted}");
        }
        assert_eq!(unfit("not an address"), None, "nothing to compare");
    }

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
