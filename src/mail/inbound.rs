//! Inbound intake: raw RFC 5322 bytes → the words a player wrote, where they go, and whether a
//! machine sent them. Pure (no disk, clock or network) and never panics on garbage; it does not
//! decide who may play: matching sender and token to a seat is the daemon's job.

use mail_parser::decoders::html::add_html_token;
use mail_parser::{HeaderValue, Message, MessageParser, MimeHeaders, PartType};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// One inbound mail, reduced to what Despatch acts on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inbound {
    /// Message-ID without `<>`; `sha256:<hex of the raw bytes>` when the mail has none, so a
    /// re-delivered copy of the same bytes is still recognised as already processed.
    pub message_id: String,
    /// Sender address, lower-case.
    pub from: String,
    pub from_name: Option<String>,
    /// To, Cc, Delivered-To and X-Original-To addresses, lower-case, first occurrence kept.
    pub to: Vec<String>,
    pub subject: String,
    /// RFC 3339, as the sender's clock claimed it.
    pub date: Option<String>,
    /// What the player wrote: quotes, attributions and signature removed, lines kept in place.
    pub body: String,
    /// Why the mail is automated (auto-reply, bounce, list…); such mail is never taken as orders.
    pub auto: Option<String>,
    /// For threading our answer under the player's mail.
    pub in_reply_to: Option<String>,
    pub references: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IntakeError {
    #[error("not an RFC 5322 message: no header could be read")]
    NotAMessage,
    #[error("the message has no sender address in From")]
    NoSender,
}

/// Where a mail is going and with what credentials.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub game: Option<String>,
    pub seat: Option<String>,
    /// Lower-case: mail systems may fold the case of addresses, so seat secrets are compared
    /// case-insensitively and should be generated lower-case.
    pub token: Option<String>,
    pub help: bool,
}

/// Parses a raw message. Errors only when there is no message or no sender to speak of.
pub fn parse(raw: &[u8]) -> Result<Inbound, IntakeError> {
    let msg = MessageParser::default()
        .parse(raw)
        .ok_or(IntakeError::NotAMessage)?;
    if msg.headers().is_empty() {
        return Err(IntakeError::NotAMessage);
    }

    let message_id = msg
        .message_id()
        .map(normalise_id)
        .filter(|id| !id.is_empty())
        .unwrap_or_else(|| format!("sha256:{}", hex::encode(Sha256::digest(raw))));

    let sender = msg
        .from()
        .and_then(|a| a.iter().find(|addr| addr.address.is_some()))
        .ok_or(IntakeError::NoSender)?;
    let from = sender
        .address
        .as_deref()
        .map(normalise_address)
        .filter(|a| !a.is_empty())
        .ok_or(IntakeError::NoSender)?;
    let from_name = sender
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_string);

    let mut to: Vec<String> = Vec::new();
    let mut add = |addr: &str| {
        let addr = normalise_address(addr);
        if !addr.is_empty() && !to.contains(&addr) {
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
    for name in ["Delivered-To", "X-Original-To"] {
        for value in raw_headers(&msg, name) {
            add(&value);
        }
    }

    let subject = msg
        .subject()
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    let date = msg.date().filter(|d| d.is_valid()).map(|d| d.to_rfc3339());
    let in_reply_to = ids(msg.in_reply_to()).into_iter().next();
    let references = ids(msg.references());
    let auto = auto_reason(&msg, &from);
    let body = cut_reply(&body_text(&msg));

    Ok(Inbound {
        message_id,
        from,
        from_name,
        to,
        subject,
        date,
        body,
        auto,
        in_reply_to,
        references,
    })
}

/// Finds game, seat and token: the reply address `<local_part>+<game>[.<seat>[.<token>]]@host`
/// first, then a `[<game>]` subject tag, then a `GAME <id>` body line; a `TOKEN <secret>` line
/// supplies the token when the address does not.
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
        if let Some((game, seat, token)) = parse_detail(detail) {
            route.game = Some(game.to_string());
            route.seat = seat.map(str::to_string);
            route.token = token.map(str::to_ascii_lowercase);
            break;
        }
    }
    if route.game.is_none() {
        route.game = subject_tag(&inb.subject).map(str::to_string);
    }
    let controls: Vec<Control> = inb.body.lines().filter_map(control_line).collect();
    if route.game.is_none() {
        route.game = controls.iter().find_map(|c| match c {
            Control::Game(g) => Some(g.clone()),
            _ => None,
        });
    }
    if route.token.is_none() {
        route.token = controls.iter().find_map(|c| match c {
            Control::Token(t) => Some(t.clone()),
            _ => None,
        });
    }
    let first_line_help = inb
        .body
        .lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.trim().eq_ignore_ascii_case("help"));
    route.help = first_line_help || bare_subject(&inb.subject).eq_ignore_ascii_case("help");
    route
}

/// Blanks the GAME / TOKEN / HELP lines so the ruleset sees only orders, while every other line
/// keeps the number the player sees in their own mail.
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

#[derive(Debug, Clone, PartialEq, Eq)]
enum Control {
    Game(String),
    Token(String),
    Help,
}

fn control_line(line: &str) -> Option<Control> {
    let mut words = line.split_whitespace();
    let keyword = words.next()?.trim_end_matches(':');
    let arg = words.next();
    if words.next().is_some() {
        return None;
    }
    match (keyword.to_ascii_lowercase().as_str(), arg) {
        ("game", Some(id)) => {
            let id = id.to_ascii_lowercase();
            is_game_id(&id).then_some(Control::Game(id))
        }
        ("token", Some(secret)) => {
            is_token(secret).then(|| Control::Token(secret.to_ascii_lowercase()))
        }
        ("help", None) => Some(Control::Help),
        _ => None,
    }
}

fn parse_detail(detail: &str) -> Option<(&str, Option<&str>, Option<&str>)> {
    let parts: Vec<&str> = detail.split('.').collect();
    match parts.as_slice() {
        [game] if is_game_id(game) => Some((game, None, None)),
        [game, seat] if is_game_id(game) && is_seat_id(seat) => Some((game, Some(seat), None)),
        [game, seat, token] if is_game_id(game) && is_seat_id(seat) && is_token(token) => {
            Some((game, Some(seat), Some(token)))
        }
        _ => None,
    }
}

/// The first `[tag]` in the subject that is a game id. Upper-case tags are skipped on purpose:
/// mail gateways stamp `[EXTERNAL]` or `[SPAM]`, and game ids are lower-case.
fn subject_tag(subject: &str) -> Option<&str> {
    let mut rest = subject;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let close = after.find(']')?;
        let tag = after[..close].trim();
        if is_game_id(tag) {
            return Some(tag);
        }
        rest = &after[close + 1..];
    }
    None
}

/// The subject without reply/forward prefixes and bracket tags.
fn bare_subject(subject: &str) -> &str {
    const PREFIXES: [&str; 7] = ["re:", "fw:", "fwd:", "aw:", "tr:", "sv:", "wg:"];
    let mut s = subject.trim();
    loop {
        let before = s;
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
        if s == before {
            return s.trim();
        }
    }
}

fn normalise_id(id: &str) -> String {
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

fn ids(value: &HeaderValue<'_>) -> Vec<String> {
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

/// Top-level header values by name (case-insensitive), unfolded and trimmed.
fn raw_headers(msg: &Message<'_>, name: &str) -> Vec<String> {
    msg.headers_raw()
        .filter(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.replace("\r\n", "").replace('\n', "").trim().to_string())
        .collect()
}

fn raw_header(msg: &Message<'_>, name: &str) -> Option<String> {
    raw_headers(msg, name).into_iter().next()
}

fn has_header(msg: &Message<'_>, name: &str) -> bool {
    msg.headers()
        .iter()
        .any(|h| h.name().eq_ignore_ascii_case(name))
}

/// RFC 3834 and the usual de-facto signs that no human typed this mail.
fn auto_reason(msg: &Message<'_>, from: &str) -> Option<String> {
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

/// The text of the inline body: text/plain parts when there are any, else HTML made text.
fn body_text(msg: &Message<'_>) -> String {
    let mut plain = Vec::new();
    for &id in &msg.text_body {
        let Some(part) = msg.parts.get(id as usize) else {
            continue;
        };
        if let PartType::Text(text) = &part.body {
            let ct = part.content_type();
            let is_plain = ct.is_none_or(|ct| {
                ct.ctype().eq_ignore_ascii_case("text")
                    && ct.subtype().is_none_or(|s| s.eq_ignore_ascii_case("plain"))
            });
            if !is_plain {
                continue;
            }
            let flowed = ct.is_some_and(|ct| {
                ct.attribute("format")
                    .is_some_and(|f| f.eq_ignore_ascii_case("flowed"))
            });
            let delsp = ct.is_some_and(|ct| {
                ct.attribute("delsp")
                    .is_some_and(|f| f.eq_ignore_ascii_case("yes"))
            });
            plain.push(if flowed {
                unflow(text, delsp)
            } else {
                text.to_string()
            });
        }
    }
    if !plain.is_empty() {
        return plain.join("\n");
    }
    let mut html = Vec::new();
    for &id in msg.html_body.iter().chain(msg.text_body.iter()) {
        if let Some(PartType::Html(h)) = msg.parts.get(id as usize).map(|p| &p.body) {
            let text = html_to_text(h);
            if !html.contains(&text) {
                html.push(text);
            }
        }
    }
    html.join("\n")
}

/// Undoes RFC 3676 format=flowed soft breaks (Apple Mail, Thunderbird), so a long order line
/// the client wrapped is one line again, as the player sees it.
fn unflow(text: &str, delsp: bool) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for line in text.lines() {
        let depth = line.bytes().take_while(|&b| b == b'>').count();
        let mut content = &line[depth..];
        if let Some(stripped) = content.strip_prefix(' ') {
            content = stripped;
        }
        let soft = content.ends_with(' ') && content != "-- ";
        if let Some((d, buf)) = open.take() {
            if d == depth {
                open = Some((d, buf + content));
            } else {
                out.push(quote_prefix(d) + &buf);
                open = Some((depth, content.to_string()));
            }
        } else {
            open = Some((depth, content.to_string()));
        }
        if soft {
            if delsp && let Some((_, buf)) = open.as_mut() {
                buf.pop();
            }
        } else if let Some((d, buf)) = open.take() {
            out.push(quote_prefix(d) + &buf);
        }
    }
    if let Some((d, buf)) = open {
        out.push(quote_prefix(d) + &buf);
    }
    out.join("\n")
}

fn quote_prefix(depth: usize) -> String {
    if depth == 0 {
        String::new()
    } else {
        ">".repeat(depth) + " "
    }
}

/// HTML to text with one line per block, quoted `<blockquote>` content dropped. Not
/// mail-parser's `html_to_text`: that one breaks only on `<br>` and `</p>`, which glues the
/// `<div>` lines of Gmail and Outlook into one. Entities still go through mail-parser's table.
fn html_to_text(html: &str) -> String {
    const BLOCKS: [&str; 20] = [
        "p", "div", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6", "hr",
        "pre", "section", "article", "header", "footer", "dl",
    ];
    const SKIPPED: [&str; 5] = ["head", "style", "script", "title", "template"];
    let bytes = html.as_bytes();
    let mut out = String::new();
    let mut quote_depth = 0usize;
    let mut skip_until: Option<&'static str> = None;
    let mut pending_space = false;
    let mut i = 0;
    let newline = |out: &mut String| out.push('\n');
    let soft_break = |out: &mut String| {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
    };
    while i < bytes.len() {
        if bytes[i] == b'<' {
            if html[i..].starts_with("<!--") {
                i = html[i + 4..]
                    .find("-->")
                    .map_or(bytes.len(), |e| i + 4 + e + 3);
                continue;
            }
            let end = tag_end(bytes, i + 1);
            let inner = &html[i + 1..end];
            i = (end + 1).min(bytes.len());
            let closing = inner.starts_with('/');
            let name: String = inner
                .trim_start_matches('/')
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect::<String>()
                .to_ascii_lowercase();
            let self_closing = inner.ends_with('/');
            if let Some(skip) = skip_until {
                if closing && name == skip {
                    skip_until = None;
                }
                continue;
            }
            if name == "blockquote" {
                if closing {
                    quote_depth = quote_depth.saturating_sub(1);
                } else if !self_closing {
                    quote_depth += 1;
                }
                if quote_depth == 0 {
                    soft_break(&mut out);
                }
                continue;
            }
            if quote_depth > 0 {
                continue;
            }
            if !closing
                && !self_closing
                && let Some(skip) = SKIPPED.iter().find(|s| **s == name)
            {
                skip_until = Some(*skip);
                continue;
            }
            if name == "br" {
                newline(&mut out);
                pending_space = false;
            } else if BLOCKS.contains(&name.as_str()) {
                soft_break(&mut out);
                pending_space = false;
            } else if matches!(name.as_str(), "td" | "th") && !closing {
                pending_space = true;
            }
            continue;
        }
        // Text up to the next tag.
        let next = html[i..].find('<').map_or(bytes.len(), |n| i + n);
        if skip_until.is_some() || quote_depth > 0 {
            i = next;
            continue;
        }
        let text = &html[i..next];
        let mut j = 0;
        while j < text.len() {
            let rest = &text[j..];
            let Some(c) = rest.chars().next() else { break };
            if c.is_whitespace() && c != '\u{a0}' {
                pending_space = true;
                j += c.len_utf8();
                continue;
            }
            if pending_space && !out.is_empty() && !out.ends_with('\n') {
                out.push(' ');
            }
            pending_space = false;
            if c == '&'
                && let Some(semi) = rest[1..].find(';').filter(|&s| s <= 32)
            {
                let entity = &rest[..semi + 2];
                if entity[1..entity.len() - 1]
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'#')
                {
                    add_html_token(&mut out, entity.as_bytes(), false);
                    j += entity.len();
                    continue;
                }
            }
            out.push(c);
            j += c.len_utf8();
        }
        i = next;
    }
    out
}

/// Index of the `>` closing a tag that starts at `from`, ignoring `>` inside quoted attributes.
fn tag_end(bytes: &[u8], from: usize) -> usize {
    let mut quote: Option<u8> = None;
    for (k, &b) in bytes.iter().enumerate().skip(from) {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'>' => return k,
            None => {}
        }
    }
    bytes.len()
}

/// Keeps what the player wrote. Quoted (`>`) lines and attribution lines followed by quotes
/// become empty lines, so line numbers still match the mail the player sees; everything from
/// a signature, an unquoted quoted-mail header (Outlook, "-----Original Message-----") or an
/// attribution not followed by `>` lines is cut.
fn cut_reply(text: &str) -> String {
    let lines: Vec<String> = text.lines().map(clean_line).collect();
    let mut out: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].as_str();
        let t = line.trim_start();
        if t.starts_with('>') {
            out.push("");
            i += 1;
            continue;
        }
        if t == "--" || is_separator(t) || is_client_signature(t) || outlook_block_at(&lines, i) {
            break;
        }
        if t.len() >= 10 && t.chars().all(|c| c == '_') {
            let next = next_non_blank(&lines, i + 1);
            if next.is_some_and(|n| outlook_block_at(&lines, n)) {
                break;
            }
        }
        if let Some((span, starts_known)) = attribution_at(&lines, i) {
            let next = next_non_blank(&lines, i + span);
            if next.is_some_and(|n| lines[n].trim_start().starts_with('>')) {
                out.extend(std::iter::repeat_n("", span));
                i += span;
                continue;
            }
            if starts_known || next.is_none() {
                break;
            }
        }
        out.push(line);
        i += 1;
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out.join("\n")
}

/// Trailing blanks trimmed, no-break spaces made spaces, invisible format characters dropped.
fn clean_line(line: &str) -> String {
    line.chars()
        .filter(|c| !matches!(c, '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{feff}' | '\r'))
        .map(|c| {
            if matches!(c, '\u{a0}' | '\u{202f}') {
                ' '
            } else {
                c
            }
        })
        .collect::<String>()
        .trim_end()
        .to_string()
}

fn next_non_blank(lines: &[String], from: usize) -> Option<usize> {
    (from..lines.len()).find(|&k| !lines[k].trim().is_empty())
}

/// The one-line signatures mobile clients append without a `-- ` marker; left in, they would
/// be read as a bad order and the whole mail refused.
fn is_client_signature(t: &str) -> bool {
    const STARTS: [&str; 8] = [
        "Sent from my ",
        "Sent from Outlook",
        "Sent from Mail for Windows",
        "Sent from Yahoo Mail",
        "Get Outlook for ",
        "Envoyé de mon ",
        "Enviado desde mi ",
        "Von meinem ",
    ];
    STARTS.iter().any(|s| t.starts_with(s))
}

/// "-----Original Message-----", "-------- Forwarded Message --------" and their translations.
fn is_separator(t: &str) -> bool {
    t.starts_with("-----") && t.ends_with("-----") && t.chars().any(|c| c.is_alphabetic())
}

/// An Outlook-style header block of a quoted mail: `From:` then `Sent:`/`Date:` within 4 lines.
fn outlook_block_at(lines: &[String], i: usize) -> bool {
    let field = |line: &str| -> String {
        line.trim_start()
            .trim_start_matches('*')
            .trim_start()
            .to_lowercase()
    };
    let starts_any = |line: &str, keys: &[&str]| {
        let f = field(line);
        keys.iter().any(|k| f.starts_with(k))
    };
    if !starts_any(&lines[i], &["from:", "de :", "de:", "von:"]) {
        return false;
    }
    lines
        .iter()
        .skip(i + 1)
        .take(4)
        .any(|l| starts_any(l, &["sent:", "date:", "envoyé :", "envoyé:", "gesendet:"]))
}

/// An attribution line ("On … wrote:", "Le … a écrit :", "Am … schrieb …:"), possibly wrapped
/// over two lines. Returns its span and whether it opens with a known word (On/Le/Am), which
/// makes it safe to cut at even when the quote below it has no `>` marks.
fn attribution_at(lines: &[String], i: usize) -> Option<(usize, bool)> {
    let ends = |s: &str| {
        let s = s.trim_end();
        s.ends_with("wrote:")
            || s.ends_with("a écrit :")
            || s.ends_with("a écrit:")
            || (s.contains("schrieb") && s.ends_with(':'))
    };
    let known_start = |s: &str| {
        let s = s.trim_start();
        s.starts_with("On ") || s.starts_with("Le ") || s.starts_with("Am ")
    };
    let first = lines[i].as_str();
    if ends(first) {
        return Some((1, known_start(first)));
    }
    if known_start(first)
        && let Some(second) = lines.get(i + 1)
        && !second.trim_start().starts_with('>')
        && ends(second)
        && first.len() + second.len() < 300
    {
        return Some((2, true));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bottom_posted_orders_survive_the_attribution() {
        let text = "On Mon, 3 Jun 2024, Despatch wrote:\n> Your orders?\n\nTURN Mikasa PORT 30\n";
        assert_eq!(cut_reply(text), "\n\n\nTURN Mikasa PORT 30");
    }

    #[test]
    fn unquoted_text_under_an_attribution_is_cut() {
        let text = "FIRE Mikasa AT Tsesarevich\n\nOn Mon, 3 Jun 2024 at 10:02, Despatch <d@x>\nwrote:\n\nTurn 3 results\n";
        assert_eq!(cut_reply(text), "FIRE Mikasa AT Tsesarevich");
    }

    #[test]
    fn signature_and_outlook_block_are_cut() {
        assert_eq!(
            cut_reply("TURN Mikasa STBD 15\n-- \nAdm. Togo\n"),
            "TURN Mikasa STBD 15"
        );
        let outlook = "FIRE Fuji AT Pobeda\n\n________________________________\nFrom: Despatch <d@x>\nSent: Monday\nTo: me\n";
        assert_eq!(cut_reply(outlook), "FIRE Fuji AT Pobeda");
        assert_eq!(
            cut_reply("TURN Asahi PORT 45\n-----Original Message-----\nFrom: d@x\n"),
            "TURN Asahi PORT 45"
        );
    }

    #[test]
    fn html_blocks_become_lines_and_quotes_vanish() {
        let html = "<html><head><style>p{}</style></head><body><div dir=\"ltr\">TURN Tsesarevich PORT 45<div>FIRE Mikasa&nbsp;AT Tsesarevich</div><div><br></div><div>Fuji &amp; Asahi</div></div><blockquote>TURN X</blockquote></body></html>";
        assert_eq!(
            html_to_text(html),
            "TURN Tsesarevich PORT 45\nFIRE Mikasa\u{a0}AT Tsesarevich\n\nFuji & Asahi\n"
        );
    }

    /// The HTML alternative real clients send must give the same orders as their text part.
    #[test]
    fn html_alternatives_of_real_clients_match_their_text_part() {
        let fixtures: [&[u8]; 4] = [
            include_bytes!("../../tests/fixtures/mail/gmail_reply_top_posted.eml"),
            include_bytes!("../../tests/fixtures/mail/outlook365_reply.eml"),
            include_bytes!("../../tests/fixtures/mail/apple_mail_fresh.eml"),
            include_bytes!("../../tests/fixtures/mail/outlook365_out_of_office.eml"),
        ];
        for raw in fixtures {
            let msg = MessageParser::default().parse(raw).expect("fixture parses");
            let html = msg
                .html_body
                .iter()
                .find_map(|&id| match &msg.parts[id as usize].body {
                    PartType::Html(h) => Some(h.to_string()),
                    _ => None,
                })
                .expect("fixture has an HTML part");
            let from_html = cut_reply(&html_to_text(&html));
            let from_text = cut_reply(&body_text(&msg));
            assert_eq!(from_html, from_text);
            assert!(from_text.lines().count() >= 2);
        }
    }

    #[test]
    fn flowed_lines_are_joined() {
        assert_eq!(
            unflow(
                "FIRE Mikasa AT \nTsesarevich\n> quoted \n> more\nnext",
                false
            ),
            "FIRE Mikasa AT Tsesarevich\n> quoted more\nnext"
        );
        assert_eq!(unflow("TURN Mi ka\nsa", true), "TURN Mi ka\nsa");
        assert_eq!(unflow("TURN Mika \nsa", true), "TURN Mikasa");
    }

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
            Some("tsushima-1")
        );
        assert_eq!(subject_tag("[unclosed"), None);
        assert_eq!(bare_subject("Re: [tsushima-1] help"), "help");
        assert_eq!(bare_subject("AW: Fwd: HELP "), "HELP");
    }
}
