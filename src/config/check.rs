//! What `config.toml` must hold beyond its shape: each transport named has its section, no
//! clear-text connection leaves the machine, every number in range, every address and URL
//! usable. Each refusal is one line naming the key. Reads the parsed value only.

use super::{Config, Security};

/// Every check, in the order a reader of the file meets the keys; the first refusal is given.
pub(super) fn check(cfg: &Config) -> Result<(), String> {
    transports(cfg)?;
    games(cfg)?;
    numbers(cfg)?;
    if !valid_log_filter(&cfg.daemon.log) {
        return Err(format!(
            "daemon.log = {:?}: use error, warn, info, debug or trace (or per module, despatch=debug)",
            cfg.daemon.log
        ));
    }
    servers(cfg)?;
    addresses(cfg)?;
    lobby(cfg)?;
    urls(cfg)?;
    if !cfg.mail.address.contains('@') {
        return Err(format!(
            "mail.address = \"{}\" is not an address",
            cfg.mail.address
        ));
    }
    if let Err(e) = cfg.games.time_zone.parse::<chrono_tz::Tz>() {
        return Err(format!("games.time_zone: {e}"));
    }
    Ok(())
}

fn range(key: &str, v: u64, lo: u64, hi: u64) -> Result<(), String> {
    if v < lo || v > hi {
        return Err(format!("{key} = {v}: use {lo} to {hi}"));
    }
    Ok(())
}

/// Each transport named has its section; `security = "none"` only for this machine.
fn transports(cfg: &Config) -> Result<(), String> {
    match cfg.mail.inbound.as_str() {
        "maildir" => {}
        "imap" if cfg.imap.is_some() => {}
        "imap" => return Err("mail.inbound = \"imap\" needs an [imap] section".into()),
        other => {
            return Err(format!(
                "mail.inbound = \"{other}\": use \"maildir\" or \"imap\""
            ));
        }
    }
    match cfg.mail.outbound.as_str() {
        "maildir" => {}
        "smtp" if cfg.smtp.is_some() => {}
        "smtp" => return Err("mail.outbound = \"smtp\" needs an [smtp] section".into()),
        other => {
            return Err(format!(
                "mail.outbound = \"{other}\": use \"maildir\" or \"smtp\""
            ));
        }
    }
    for (what, host, sec) in [
        (
            "imap",
            cfg.imap.as_ref().map(|c| c.host.clone()),
            cfg.imap.as_ref().map(|c| c.security),
        ),
        (
            "smtp",
            cfg.smtp.as_ref().map(|c| c.host.clone()),
            cfg.smtp.as_ref().map(|c| c.security),
        ),
    ] {
        if let (Some(host), Some(Security::None)) = (host, sec)
            && !matches!(host.as_str(), "localhost" | "127.0.0.1" | "::1")
        {
            return Err(format!(
                "{what}.security = \"none\" is only allowed for a server on this machine, not {host}"
            ));
        }
    }
    Ok(())
}

/// The games' policy, and no league for every game at once.
fn games(cfg: &Config) -> Result<(), String> {
    cfg.games
        .policy
        .check()
        .map_err(|e| format!("games.policy.{e}"))?;
    if cfg.games.policy.club.league.is_some() {
        return Err(
            "games.policy.club.league: a league is chosen per game, with \
                    `despatch new … --league L`"
                .into(),
        );
    }
    Ok(())
}

fn numbers(cfg: &Config) -> Result<(), String> {
    range("games.onion_len", cfg.games.onion_len, 1, 10_000_000)?;
    range("daemon.poll_seconds", cfg.daemon.poll_seconds, 1, 86_400)?;
    range(
        "mail.max_message_bytes",
        cfg.mail.max_message_bytes as u64,
        1024,
        1 << 30,
    )?;
    range(
        "mail.max_per_sender_per_hour",
        cfg.mail.max_per_sender_per_hour as u64,
        1,
        1_000_000,
    )
}

/// The IMAP and SMTP sections: one password source each, ports, timeouts and retries.
fn servers(cfg: &Config) -> Result<(), String> {
    for (what, pw) in [
        ("imap", cfg.imap.as_ref().map(|c| &c.password)),
        ("smtp", cfg.smtp.as_ref().map(|c| &c.password)),
    ] {
        if let Some(pw) = pw
            && pw.password_env.is_some()
            && pw.password_file.is_some()
        {
            return Err(format!(
                "{what}: give password_env or password_file, not both"
            ));
        }
    }
    if let Some(i) = &cfg.imap {
        range("imap.port", i.port as u64, 1, 65_535)?;
        range("imap.timeout_seconds", i.timeout_seconds, 1, 3600)?;
    }
    if let Some(c) = &cfg.smtp {
        range("smtp.port", c.port as u64, 1, 65_535)?;
        range("smtp.timeout_seconds", c.timeout_seconds, 1, 3600)?;
        range("smtp.retry_first_seconds", c.retry_first_seconds, 1, 86_400)?;
        range(
            "smtp.retry_max_seconds",
            c.retry_max_seconds,
            c.retry_first_seconds,
            7 * 86_400,
        )?;
        range("smtp.give_up_hours", c.give_up_hours, 1, 24 * 60)?;
        range(
            "smtp.in_flight_grace_seconds",
            c.in_flight_grace_seconds,
            1,
            86_400,
        )?;
    }
    Ok(())
}

/// The organiser's and the members' addresses parse as mailboxes.
fn addresses(cfg: &Config) -> Result<(), String> {
    if let Some(gm) = &cfg.mail.gm_address {
        gm.parse::<super::address::Mailbox>()
            .map_err(|e| format!("mail.gm_address: {e}"))?;
    }
    for m in &cfg.lobby.members {
        m.parse::<super::address::Mailbox>()
            .map_err(|e| format!("lobby.members: {m:?}: {e}"))?;
    }
    Ok(())
}

fn lobby(cfg: &Config) -> Result<(), String> {
    range(
        "lobby.expire_hours",
        cfg.lobby.expire_hours as u64,
        1,
        24 * 90,
    )?;
    let [lo, hi] = cfg.lobby.pace_hours;
    range("lobby.pace_hours[0]", lo as u64, 1, 24 * 30)?;
    range("lobby.pace_hours[1]", hi as u64, lo as u64, 24 * 30)?;
    range(
        "lobby.open_per_member",
        cfg.lobby.open_per_member as u64,
        1,
        100,
    )
}

/// The site's and the one-click unsubscription's URLs: https, no query, nothing a header or
/// a page could be broken with.
fn urls(cfg: &Config) -> Result<(), String> {
    if let Some(u) = &cfg.site.base_url
        && (!u.starts_with("https://")
            || u.len() <= "https://".len()
            || u.len() > 300
            || u.contains(['?', '#', '<', '>', ',', '"', '\''])
            || u.chars().any(|c| c.is_whitespace() || c.is_control()))
    {
        return Err(format!(
            "site.base_url = {u:?}: use the https:// URL of the site's root, without a \
             query, spaces, quotes or angle brackets (a game's page is <base_url>/<game>/)"
        ));
    }
    if let Some(u) = &cfg.web.unsubscribe_url
        && (!u.starts_with("https://")
            || u.len() <= "https://".len()
            || u.len() > 500
            || u.contains(['?', '#', '<', '>', ',', '"'])
            || u.chars().any(|c| c.is_whitespace() || c.is_control()))
    {
        return Err(format!(
            "web.unsubscribe_url = {u:?}: use an https:// URL without a query, spaces, \
             commas or angle brackets (RFC 8058 needs https; `/<code>` is appended)"
        ));
    }
    Ok(())
}

/// A log filter of levels and `module=level` directives: `tracing`'s own parser takes any word
/// as a module name, so a typo such as `verbose!!` would silently log nothing.
fn valid_log_filter(filter: &str) -> bool {
    const LEVELS: &[&str] = &["off", "error", "warn", "info", "debug", "trace"];
    let level = |l: &str| LEVELS.contains(&l.trim().to_ascii_lowercase().as_str());
    let target = |t: &str| {
        !t.is_empty()
            && t.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '-'))
    };
    !filter.trim().is_empty()
        && filter.split(',').all(|d| match d.trim().split_once('=') {
            Some((t, l)) => target(t.trim()) && level(l),
            None => level(d),
        })
}
