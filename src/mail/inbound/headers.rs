//! Header reading for intake: sender, recipients, message ids and the signs that a machine sent
//! the mail. Reads what `mail_parser` parsed; never looks at the body's text.

use std::collections::HashSet;

use mail_parser::{HeaderValue, Message, MimeHeaders};

/// The first From address with something in it, lower-case, and its display name.
pub(super) fn sender(msg: &Message<'_>) -> Option<(String, Option<String>)> {
    let sender = msg
        .from()
        .and_then(|a| a.iter().find(|addr| addr.address.is_some()))?;
    let from = sender
        .address
        .as_deref()
        .map(normalise_address)
        .filter(|a| !a.is_empty())?;
    let name = sender
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_string);
    Some((from, name))
}

/// To, Cc, Delivered-To and X-Original-To, lower-case, each once, in order of appearance. A
/// hash set finds repeats: a header of 100 000 addresses must not cost 10¹⁰ comparisons.
pub(super) fn recipients(msg: &Message<'_>) -> Vec<String> {
    let mut to: Vec<String> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut add = |addr: &str| {
        let addr = normalise_address(addr);
        if !addr.is_empty() && seen.insert(addr.clone()) {
            to.push(addr);
        }
    };
    for list in msg.all_to().chain(msg.all_cc()) {
        for addr in list.iter() {
            if let Some(a) = addr.address.as_deref() {
                add(a);
            }
        }
    }
    for wanted in ["Delivered-To", "X-Original-To"] {
        for (name, value) in msg.headers_raw() {
            if name.eq_ignore_ascii_case(wanted) {
                add(&unfold(value));
            }
        }
    }
    to
}

pub(super) fn normalise_id(id: &str) -> String {
    id.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim()
        .to_string()
}

fn normalise_address(addr: &str) -> String {
    addr.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim()
        .to_lowercase()
}

pub(super) fn ids(value: &HeaderValue<'_>) -> Vec<String> {
    let raw: Vec<&str> = match value {
        HeaderValue::Text(t) => t.split_whitespace().collect(),
        HeaderValue::TextList(list) => list.iter().flat_map(|t| t.split_whitespace()).collect(),
        _ => Vec::new(),
    };
    raw.into_iter()
        .map(normalise_id)
        .filter(|id| !id.is_empty())
        .collect()
}

/// A raw header value unfolded and trimmed.
fn unfold(value: &str) -> String {
    value
        .chars()
        .filter(|&c| c != '\r' && c != '\n')
        .collect::<String>()
        .trim()
        .to_string()
}

/// The first top-level header of that name (case-insensitive), unfolded and trimmed.
fn raw_header(msg: &Message<'_>, name: &str) -> Option<String> {
    msg.headers_raw()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| unfold(v))
}

fn has_header(msg: &Message<'_>, name: &str) -> bool {
    msg.headers()
        .iter()
        .any(|h| h.name().eq_ignore_ascii_case(name))
}

/// RFC 3834 and the usual de-facto signs that no human typed this mail.
pub(super) fn auto_reason(msg: &Message<'_>, from: &str) -> Option<String> {
    if let Some(value) = raw_header(msg, "Auto-Submitted") {
        let kind = value
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if kind != "no" {
            return Some(format!("Auto-Submitted: {kind}"));
        }
    }
    if let Some(value) = raw_header(msg, "Precedence") {
        let kind = value.trim().to_ascii_lowercase();
        if matches!(kind.as_str(), "bulk" | "list" | "junk" | "auto_reply") {
            return Some(format!("Precedence: {kind}"));
        }
    }
    for name in ["List-Id", "List-Unsubscribe"] {
        if has_header(msg, name) {
            return Some(name.to_string());
        }
    }
    for name in ["X-Autoreply", "X-Autorespond", "X-Autoresponder"] {
        if has_header(msg, name) {
            return Some(name.to_string());
        }
    }
    if let Some(path) = raw_header(msg, "Return-Path")
        && (path.is_empty() || path == "<>")
    {
        return Some("null Return-Path".to_string());
    }
    let local = from.split('@').next().unwrap_or("");
    if local == "mailer-daemon" || local == "postmaster" {
        return Some(format!("sender {local}"));
    }
    if let Some(ct) = msg.root_part().content_type()
        && ct.ctype().eq_ignore_ascii_case("multipart")
        && ct
            .subtype()
            .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    {
        let kind = ct.attribute("report-type").unwrap_or("unknown");
        return Some(format!("multipart/report; report-type={kind}"));
    }
    None
}
