//! Routing: which game, seat and secret a mail is for (reply address, subject tag, GAME/TOKEN
//! lines) and whether it asks for HELP. Reads an [`Inbound`]; never checks a secret itself.

use super::{Inbound, Route};

/// Finds game, seat and token: the reply address
/// `<local_part>+<game>[.<seat>[.<token>[.s<step>]]]@host` first, then a `[<game>]` or
/// `[<game> #<step>]` subject tag, then a `GAME <id>` body line; a `TOKEN <secret>` line
/// supplies the token when the address does not. The step a reply answers comes from the
/// address, else from the Message-ID it answers (`….s<step>@…`), else from the subject tag.
pub fn route(inb: &Inbound, local_part: &str) -> Route {
    let mut route = Route::default();
    let prefix = format!("{}+", local_part.to_ascii_lowercase());
    for addr in &inb.to {
        let Some((local, _host)) = addr.rsplit_once('@') else {
            continue;
        };
        let Some(detail) = local.strip_prefix(&prefix) else {
            continue;
        };
        // The lobby's reply address: never a game (the id `lobby` is reserved).
        if let Some(t) = detail.strip_prefix("lobby.").filter(|t| is_token(t)) {
            route.lobby = Some(t.to_ascii_lowercase());
            continue;
        }
        if let Some((game, seat, token, step)) = parse_detail(detail) {
            route.game = Some(game.to_string());
            route.seat = seat.map(str::to_string);
            route.token = token.map(str::to_ascii_lowercase);
            route.step = step;
            break;
        }
    }
    let tag = subject_tag(&inb.subject);
    if route.game.is_none() {
        route.game = tag.map(|(game, _)| game.to_string());
    }
    if route.step.is_none() {
        route.step = inb.in_reply_to.as_deref().and_then(step_of_message_id);
    }
    // The subject's step only counts for the game the mail is routed to.
    if route.step.is_none()
        && let Some((game, Some(k))) = tag
        && route.game.as_deref() == Some(game)
    {
        route.step = Some(k);
    }
    // One pass over the body: the first GAME line and the first TOKEN line are kept.
    let (mut game_line, mut token_line) = (None, None);
    for control in inb.body.lines().filter_map(control_line) {
        match control {
            Control::Game(g) if game_line.is_none() => game_line = Some(g),
            Control::Token(t) if token_line.is_none() => token_line = Some(t),
            _ => {}
        }
        if game_line.is_some() && token_line.is_some() {
            break;
        }
    }
    if route.game.is_none() {
        route.game = game_line;
    }
    if route.token.is_none() {
        route.token = token_line;
    }
    // Commands come from the body (docs/club-rules.md M1–M2): its first line of the player's
    // own that is not GAME or TOKEN decides — HELP, a command, or else orders. Only a body
    // with no such line lets the subject ask, and then never for anything that acts.
    let first_own = inb.body.lines().find(|l| {
        !l.trim().is_empty()
            && !matches!(control_line(l), Some(Control::Game(_) | Control::Token(_)))
    });
    let subject = bare_subject(&inb.subject);
    match first_own {
        Some(line) if control_line(line) == Some(Control::Help) => route.help = true,
        None if subject.eq_ignore_ascii_case("help") => route.help = true,
        _ => match super::command::seat_command(first_own, subject) {
            Ok(command) => route.command = command,
            Err(word) => route.subject_refused = Some(word),
        },
    }
    route
}

/// Blanks the GAME / TOKEN / HELP lines so the ruleset sees only orders, while every other line
/// keeps the number it has in [`Inbound::body`].
pub fn strip_control_lines(body: &str) -> String {
    body.lines()
        .map(|line| {
            if control_line(line).is_some() {
                ""
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn is_game_id(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

pub fn is_seat_id(s: &str) -> bool {
    crate::engine::valid_seat_id(s)
}

pub fn is_token(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The first words of the control lines (`GAME <id>`, `TOKEN <secret>`, `HELP`), upper case.
pub const CONTROL_WORDS: [&str; 3] = ["GAME", "TOKEN", "HELP"];

/// Whether a line is a control line (GAME, TOKEN or HELP as intake reads them), which is
/// never read as an order.
pub fn is_control_line(line: &str) -> bool {
    control_line(line).is_some()
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Control {
    Game(String),
    Token(String),
    Help,
}

pub(super) fn control_line(line: &str) -> Option<Control> {
    let mut words = line.split_whitespace();
    let keyword = words.next()?.trim_end_matches(':');
    let arg = words.next();
    if words.next().is_some() {
        return None;
    }
    let [game, token, help] = CONTROL_WORDS;
    match (keyword.to_ascii_uppercase(), arg) {
        (k, Some(id)) if k == game => {
            let id = id.to_ascii_lowercase();
            is_game_id(&id).then_some(Control::Game(id))
        }
        (k, Some(secret)) if k == token => {
            is_token(secret).then(|| Control::Token(secret.to_ascii_lowercase()))
        }
        (k, None) if k == help => Some(Control::Help),
        _ => None,
    }
}

type Detail<'a> = (&'a str, Option<&'a str>, Option<&'a str>, Option<u64>);

fn parse_detail(detail: &str) -> Option<Detail<'_>> {
    let mut parts = detail.split('.');
    let game = parts.next().filter(|g| is_game_id(g))?;
    let seat = parts.next();
    let token = parts.next();
    let step = match parts.next() {
        None => None,
        Some(s) => Some(step_number(s.strip_prefix(['s', 'S'])?)?),
    };
    if parts.next().is_some()
        || seat.is_some_and(|s| !is_seat_id(s))
        || token.is_some_and(|t| !is_token(t))
    {
        return None;
    }
    Some((game, seat, token, step))
}

/// A step number as Despatch writes it: 1–9 ASCII digits (so no overflow, no signs).
fn step_number(s: &str) -> Option<u64> {
    (!s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// The step of a Despatch Message-ID `<32 hex>.s<step>@host`; None for any other id.
fn step_of_message_id(id: &str) -> Option<u64> {
    let (local, _) = id.trim_matches(['<', '>']).split_once('@')?;
    let (hash, step) = local.split_once(".s")?;
    (hash.len() == 32 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| step_number(step))
        .flatten()
}

/// The first `[tag]` in the subject that is a game id, optionally followed by ` #<step>`.
/// Upper-case tags are skipped on purpose: mail gateways stamp `[EXTERNAL]` or `[SPAM]`, and
/// game ids are lower-case.
fn subject_tag(subject: &str) -> Option<(&str, Option<u64>)> {
    let mut rest = subject;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let close = after.find(']')?;
        let tag = after[..close].trim();
        let (game, step) = match tag.split_once(" #") {
            Some((game, step)) => (game.trim(), step_number(step.trim())),
            None => (tag, None),
        };
        if is_game_id(game) && (step.is_some() || !tag.contains('#')) {
            return Some((game, step));
        }
        rest = &after[close + 1..];
    }
    None
}

/// The subject without reply/forward prefixes and bracket tags. Each round strips at least one
/// prefix or tag or stops, and each strip consumes what it looked at.
fn bare_subject(subject: &str) -> &str {
    const PREFIXES: [&str; 7] = ["re:", "fw:", "fwd:", "aw:", "tr:", "sv:", "wg:"];
    let mut s = subject.trim();
    loop {
        let before = s.len();
        for p in PREFIXES {
            if s.len() >= p.len()
                && s.is_char_boundary(p.len())
                && s[..p.len()].eq_ignore_ascii_case(p)
            {
                s = s[p.len()..].trim_start();
            }
        }
        if s.starts_with('[')
            && let Some(close) = s.find(']')
        {
            s = s[close + 1..].trim_start();
        }
        if s.len() == before {
            return s.trim();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_lines_are_blanked_in_place() {
        let body =
            "GAME tsushima-1\nTURN Mikasa PORT 30\ntoken AbC123\nHELP\nFIRE Fuji AT Oslyabya";
        assert_eq!(
            strip_control_lines(body),
            "\nTURN Mikasa PORT 30\n\n\nFIRE Fuji AT Oslyabya"
        );
        assert_eq!(
            control_line("GAME: Tsushima-1"),
            Some(Control::Game("tsushima-1".into()))
        );
        assert_eq!(control_line("GAME tsushima 1"), None);
        assert_eq!(control_line("TOKEN abc-1"), None);
    }

    #[test]
    fn subject_tags_and_help() {
        assert_eq!(
            subject_tag("[EXTERNAL] Re: [tsushima-1] Turn 3"),
            Some(("tsushima-1", None))
        );
        assert_eq!(
            subject_tag("Re: [tsushima-1 #12] Turn 3"),
            Some(("tsushima-1", Some(12)))
        );
        assert_eq!(subject_tag("[tsushima-1 #-2] x"), None);
        assert_eq!(
            step_of_message_id("<0123456789abcdef0123456789abcdef.s7@club.example>"),
            Some(7)
        );
        assert_eq!(step_of_message_id("<abc.s7@club.example>"), None);
        assert_eq!(
            step_of_message_id("<0123456789abcdef0123456789abcdef@x>"),
            None
        );
        assert_eq!(subject_tag("[unclosed"), None);
        assert_eq!(bare_subject("Re: [tsushima-1] help"), "help");
        assert_eq!(bare_subject("AW: Fwd: HELP "), "HELP");
    }

    #[test]
    fn address_details_have_one_to_four_parts() {
        assert_eq!(parse_detail("g-1"), Some(("g-1", None, None, None)));
        assert_eq!(
            parse_detail("g-1.japan"),
            Some(("g-1", Some("japan"), None, None))
        );
        assert_eq!(
            parse_detail("g-1.japan.Tok9"),
            Some(("g-1", Some("japan"), Some("Tok9"), None))
        );
        assert_eq!(
            parse_detail("g-1.japan.Tok9.s14"),
            Some(("g-1", Some("japan"), Some("Tok9"), Some(14)))
        );
        for bad in [
            "",
            "G",
            "g.j.t.x",
            "g..t",
            "g.j.t-",
            "g.J",
            "g.j.t.s",
            "g.j.t.s1x",
            "g.j.t.s1.y",
            "g.j.t.s9999999999",
        ] {
            assert_eq!(parse_detail(bad), None, "{bad:?}");
        }
    }
}
