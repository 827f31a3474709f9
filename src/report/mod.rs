//! Mail bodies from the templates in `templates/`, filled only from a seat's View and public
//! protocol data; it never sees a ruleset's full state. Also seals each body with its digest.

pub mod codes;
pub mod ics;
mod plain;

mod fold;
mod wrap;

pub use fold::{FOLD, Rewrap, fit_text, fold_line, fold_text, restore, unfold};
pub use plain::{code_marks_to_quotes, markdown_to_paragraphs, markdown_to_plain};
pub use wrap::{TEXT_WIDTH, is_heading, unwrap_text, wrap_text};

use minijinja::Environment;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::dice::{self, Roll};
use crate::engine::{LockEntry, View};

/// The templates, embedded so a fresh binary needs no files beside it.
const TEMPLATES: &[(&str, &str)] = &[
    ("welcome", include_str!("../../templates/welcome.txt")),
    // The welcome's how-to and dice paragraphs: the text includes them, and the HTML shows the
    // same words (rendered alone and unwrapped), so the two parts cannot drift apart.
    (
        "welcome_intro",
        include_str!("../../templates/welcome_intro.txt"),
    ),
    (
        "welcome_how",
        include_str!("../../templates/welcome_how.txt"),
    ),
    (
        "game_over_audit",
        include_str!("../../templates/game_over_audit.txt"),
    ),
    (
        "welcome_dice",
        include_str!("../../templates/welcome_dice.txt"),
    ),
    ("receipt", include_str!("../../templates/receipt.txt")),
    ("standing", include_str!("../../templates/standing.txt")),
    ("notice", include_str!("../../templates/notice.txt")),
    ("rejection", include_str!("../../templates/rejection.txt")),
    ("results", include_str!("../../templates/results.txt")),
    ("story", include_str!("../../templates/story.txt")),
    (
        "final_story",
        include_str!("../../templates/final_story.txt"),
    ),
    ("reminder", include_str!("../../templates/reminder.txt")),
    ("paused", include_str!("../../templates/paused.txt")),
    ("resumed", include_str!("../../templates/resumed.txt")),
    ("broadcast", include_str!("../../templates/broadcast.txt")),
    ("desk_help", include_str!("../../templates/desk_help.txt")),
    ("game_over", include_str!("../../templates/game_over.txt")),
    ("help", include_str!("../../templates/help.txt")),
    ("footer", include_str!("../../templates/footer.txt")),
    ("dice", include_str!("../../templates/dice.txt")),
    ("turn.html", include_str!("../../templates/turn.html")),
    ("plain.html", include_str!("../../templates/plain.html")),
];

#[derive(Debug, thiserror::Error)]
#[error("template `{name}`: {source}")]
pub struct ReportError {
    pub name: String,
    #[source]
    pub source: minijinja::Error,
}

/// The templates, compiled once per process (issue 32 point 3): every mail used to build a
/// new environment and compile all of them for each of its renders, about a quarter of the
/// daemon's own CPU in a burst of mail.
fn env() -> &'static Environment<'static> {
    static ENV: std::sync::OnceLock<Environment<'static>> = std::sync::OnceLock::new();
    ENV.get_or_init(compile)
}

/// A new environment with every template compiled: what [`env`] keeps, and what each render
/// cost before it was kept (the render bench's yardstick).
pub fn compile() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_syntax(
        minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .keep_trailing_newline(true)
            .build()
            .expect("a valid syntax config"),
    );
    for (name, text) in TEMPLATES {
        env.add_template(name, text)
            .expect("shipped templates are checked by tests");
    }
    env
}

/// Renders template `name` with `ctx`.
pub fn render(name: &str, ctx: impl Serialize) -> Result<String, ReportError> {
    let env = env();
    let t = env.get_template(name).map_err(|source| ReportError {
        name: name.into(),
        source,
    })?;
    t.render(minijinja::Value::from(minijinja::value::Serde(&ctx)))
        .map_err(|source| ReportError {
            name: name.into(),
            source,
        })
}

/// The dice section of a results mail.
#[derive(Debug, Clone, Serialize)]
pub struct DiceSection {
    pub lock: String,
    pub reveal: String,
    pub seed: String,
    pub log_head: String,
    /// Where `log_head` is in the journal (`None` in mails of locks made before it was kept).
    pub log_head_index: Option<u64>,
    pub seats: Vec<LockEntry>,
    pub rolls: Vec<RollRow>,
    /// Strict games: each strict seat's `r_seat_k` as `S_k` took it (empty = none).
    pub strict: Vec<LockEntry>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RollRow {
    pub j: u64,
    pub die: String,
    pub results: String,
    pub label: String,
}

impl RollRow {
    pub fn from_roll(r: &Roll) -> Self {
        Self {
            j: r.j,
            die: r.faces.label(),
            results: r
                .results
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(","),
            label: r.label.clone(),
        }
    }
}

/// Context of a results mail; `view` is the only game content in it.
#[derive(Debug, Clone, Serialize)]
pub struct ResultsCtx<'a> {
    pub game: &'a str,
    pub step: u64,
    pub step_title: &'a str,
    pub view: &'a View,
    pub prompt: Option<String>,
    /// Said instead of a prompt when the seat's standing orders answer a step that resolves
    /// at once.
    pub standing: Option<String>,
    pub deadline: Option<String>,
    pub waiting: Vec<String>,
    pub dice: DiceSection,
    /// The dice protocol's name (`despatch-dice/v2`).
    pub protocol: &'a str,
}

/// A moment as a seat reads it: in its time zone (an IANA name; UTC if unknown).
pub fn fmt_time(t: chrono::DateTime<chrono::Utc>, tz: &str) -> String {
    match tz.parse::<chrono_tz::Tz>() {
        // A seat in another zone reads its own time, and UTC beside it, so that players in
        // different zones can agree on one moment.
        Ok(z) if z != chrono_tz::UTC && z.name() != "Etc/UTC" => {
            let local = t.with_timezone(&z);
            let utc = if local.date_naive() == t.date_naive() {
                t.format("%H:%M UTC")
            } else {
                t.format("%a %-d %b %H:%M UTC")
            };
            format!("{} ({utc})", local.format("%A %-d %B %Y, %H:%M %Z"))
        }
        _ => t.format("%A %-d %B %Y, %H:%M UTC").to_string(),
    }
}

/// A moment in a subject line: short (`Thu 26 Nov 18:00 CET`), in the seat's time zone.
pub fn fmt_short(t: chrono::DateTime<chrono::Utc>, tz: &str) -> String {
    match tz.parse::<chrono_tz::Tz>() {
        Ok(z) => t.with_timezone(&z).format("%a %-d %b %H:%M %Z").to_string(),
        Err(_) => t.format("%a %-d %b %H:%M UTC").to_string(),
    }
}

pub use crate::dice::DIGEST_PREFIX;

/// Text as it is hashed: CRLF folded to LF and trailing blanks cut from every line, because mail
/// transports may change both without changing what a person reads.
pub fn normalise(text: &str) -> String {
    text.replace("\r\n", "\n")
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn body_digest(text: &str) -> String {
    dice::to_hex(&Sha256::digest(normalise(text).trim_end().as_bytes()).into())
}

/// Appends the footer (log head) and the body's digest line.
pub fn seal(body: &str, game: &str, head_index: u64, head: &str) -> Result<String, ReportError> {
    let footer = render(
        "footer",
        serde_json::json!({"game": game, "head_index": head_index, "head": head}),
    )?;
    // Wrapped and folded before it is sealed, so the seal covers the bytes the player receives
    // (continuation lines and all): no line of it is wider than 72 columns.
    let text = fold::fold_text(&wrap::wrap_text(&format!(
        "{}\n{}",
        body.trim_end(),
        footer
    )));
    let digest = body_digest(&text);
    // The digest is over the normalised text, but the mail keeps its own bytes: the signature
    // separator must stay "-- " with its space for mail clients to recognise it.
    Ok(format!(
        "{}\n{}\n",
        text.trim_end(),
        fold::fold_line(&format!("{DIGEST_PREFIX}{digest}"))
    ))
}

/// Signs a sealed text with the game's mail key: the line `Mail-Signature: ed25519:<hex>` goes
/// right after the `Mail-Digest` line (docs/dice-protocol.md, "The signature of a mail"). A
/// text without a seal, or already signed, is returned as it is.
pub fn sign_seal(text: &str, game: &str, key: &dice::MailKey) -> String {
    if text.contains(dice::SIGNATURE_PREFIX) {
        return text.to_string();
    }
    let Some(at) = text.rfind(DIGEST_PREFIX) else {
        return text.to_string();
    };
    // The digest line and its continuation lines, when it is folded.
    let mut end = at;
    loop {
        let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
        let folded = text[end..line_end].trim_end().ends_with(FOLD);
        end = line_end;
        if !folded || end == text.len() {
            break;
        }
        end += 1;
    }
    let block = unfold(&text[at..end]);
    let Some(digest) = dice::from_hex(block[DIGEST_PREFIX.len()..].trim()) else {
        return text.to_string();
    };
    let signature = hex::encode(key.sign(game, &digest));
    format!(
        "{}\n{}{}",
        &text[..end],
        fold::fold_line(&format!("{}{signature}", dice::SIGNATURE_PREFIX)),
        &text[end..]
    )
}

/// The signature a sealed text carries and the digest it signs, if it carries both (folded
/// or not).
pub fn seal_signature(text: &str) -> Option<(dice::Hash, [u8; 64])> {
    let norm = unfold(&normalise(text));
    let at = norm.rfind(DIGEST_PREFIX)?;
    let mut lines = norm[at + DIGEST_PREFIX.len()..].lines();
    let digest = dice::from_hex(lines.next()?.trim())?;
    let sig_hex = lines.next()?.trim().strip_prefix(dice::SIGNATURE_PREFIX)?;
    let sig: [u8; 64] = hex::decode(sig_hex.trim()).ok()?.try_into().ok()?;
    Some((digest, sig))
}

/// Digest of a mail part's decoded content; text parts are compared with LF line ends.
pub fn part_digest(bytes: &[u8], text: bool) -> String {
    if text {
        let s = String::from_utf8_lossy(bytes).replace("\r\n", "\n");
        dice::to_hex(&Sha256::digest(s.as_bytes()).into())
    } else {
        dice::to_hex(&Sha256::digest(bytes).into())
    }
}

/// The `Mail-Digest` a sealed text claims (folded or not), as hex: how a mail attached whole to
/// another (one that waited, `message/rfc822`) is listed in that mail's Parts. Its own seal
/// checks its text; this binds it to the carrier without depending on its bytes, which a
/// transport may re-fold or re-encode.
pub fn claimed_digest(text: &str) -> Option<String> {
    let norm = unfold(&normalise(text));
    let at = norm.rfind(DIGEST_PREFIX)?;
    let hex: String = norm[at + DIGEST_PREFIX.len()..]
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    (hex.len() == 64).then_some(hex)
}

pub const PARTS_PREFIX: &str = "Parts (sha256):";

/// The `(name, hex)` entries a sealed text's Parts block lists: on the `Parts (sha256):` line
/// itself (mails sealed before lines were kept to 72 columns), or one to a line under it,
/// indented (folded lines joined first).
pub fn parts_listed(text: &str) -> Vec<(String, String)> {
    let text = unfold(text);
    let mut lines = text.lines().skip_while(|l| !l.starts_with(PARTS_PREFIX));
    let Some(first) = lines.next() else {
        return Vec::new();
    };
    let more = lines.take_while(|l| l.starts_with(' ') && l.contains('='));
    std::iter::once(&first[PARTS_PREFIX.len()..])
        .chain(more)
        .flat_map(str::split_whitespace)
        .filter_map(|item| item.split_once('='))
        .map(|(n, d)| (n.to_string(), d.to_string()))
        .collect()
}

/// Checks a sealed body: `Ok(())`, or why not.
pub fn check_seal(text: &str) -> Result<(), String> {
    let norm = normalise(text);
    let at = norm
        .rfind(DIGEST_PREFIX)
        .ok_or_else(|| "no Mail-Digest line".to_string())?;
    // The digest may be folded onto continuation lines; they are outside the digested text.
    let claimed = unfold(&norm[at + DIGEST_PREFIX.len()..])
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .to_string();
    let actual = body_digest(&norm[..at]);
    if claimed != actual {
        return Err(format!(
            "Mail-Digest is {claimed} but the body hashes to {actual}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_parses() {
        let env = env();
        for (name, _) in TEMPLATES {
            assert!(env.get_template(name).is_ok(), "{name}");
        }
    }

    #[test]
    fn a_seat_reads_its_own_zone_and_utc_beside_it() {
        use chrono::TimeZone;
        let t = chrono::Utc
            .with_ymd_and_hms(2026, 11, 26, 18, 0, 0)
            .unwrap();
        assert_eq!(fmt_time(t, "UTC"), "Thursday 26 November 2026, 18:00 UTC");
        assert_eq!(
            fmt_time(t, "Europe/Paris"),
            "Thursday 26 November 2026, 19:00 CET (18:00 UTC)"
        );
        // Another day in Tokyo: the UTC moment names its own day.
        assert_eq!(
            fmt_time(t, "Asia/Tokyo"),
            "Friday 27 November 2026, 03:00 JST (Thu 26 Nov 18:00 UTC)"
        );
        assert_eq!(
            fmt_time(t, "Not/AZone"),
            "Thursday 26 November 2026, 18:00 UTC"
        );
    }

    #[test]
    fn a_signed_seal_verifies_and_a_resealed_edit_does_not() {
        let key = dice::MailKey([7; 32]);
        let sealed = seal("Mikasa fires: 3 hits.\n", "g", 7, "00ff").unwrap();
        let signed = sign_seal(&sealed, "g", &key);
        assert_eq!(
            sign_seal(&signed, "g", &key),
            signed,
            "signing twice changes nothing"
        );
        check_seal(&signed).unwrap();
        let (d, sig) = seal_signature(&signed).expect("a signature after the digest");
        assert!(dice::mail_key::verify(&key.public(), "g", &d, &sig));
        // A forger edits the text and recomputes the digest: the seal holds, the signature
        // (over the old digest) does not, and cannot be remade without the key.
        let forged_body = seal("Mikasa fires: 5 hits.\n", "g", 7, "00ff").unwrap();
        // The signature's lines (folded after `ed25519:`), as they stand.
        let sig_lines = &signed[signed.find(dice::SIGNATURE_PREFIX).unwrap()..];
        let forged = format!("{forged_body}{sig_lines}");
        check_seal(&forged).unwrap();
        let (d2, sig2) = seal_signature(&forged).unwrap();
        assert!(!dice::mail_key::verify(&key.public(), "g", &d2, &sig2));
        // Unsealed text is left alone.
        assert_eq!(sign_seal("no seal\n", "g", &key), "no seal\n");
        assert!(seal_signature(&sealed).is_none());
    }

    /// docs/dice-protocol.md, "Lines of 72 columns": the worked example, computed there with
    /// Python's hashlib and OpenSSL, is what `seal` and `sign_seal` write, byte for byte.
    #[test]
    fn the_protocol_pages_folded_example() {
        let html = dice::to_hex(&Sha256::digest(b"<p>Mikasa fires: 3 hits.</p>\n").into());
        let head = dice::to_hex(&Sha256::digest(b"example").into());
        let body = format!("Mikasa fires: 3 hits.\n\n{PARTS_PREFIX}\n  turn.html={html}\n");
        let sealed = seal(&body, "yellow-sea-1904", 7, &head).unwrap();
        let signed = sign_seal(&sealed, "yellow-sea-1904", &dice::MailKey([0x33; 32]));
        let page = include_str!("../../docs/dice-protocol.md");
        let section = &page[page.find("### Lines of 72 columns").unwrap()..];
        let start = section.find("```\nMikasa").unwrap() + 4;
        let example = &section[start..start + section[start..].find("```").unwrap()];
        assert_eq!(signed, example);
        assert!(signed.lines().all(|l| l.chars().count() <= 72), "{signed}");
        check_seal(&signed).unwrap();
        assert_eq!(
            parts_listed(&signed),
            [("turn.html".to_string(), html.clone())]
        );
        let flat = unfold(&signed);
        assert!(flat.contains(&format!("log head #7 {head}\n")), "{flat}");
        let (d, sig) = seal_signature(&signed).unwrap();
        let key = dice::MailKey([0x33; 32]).public();
        assert!(dice::mail_key::verify(&key, "yellow-sea-1904", &d, &sig));
    }

    #[test]
    fn a_mail_sealed_before_folding_still_reads() {
        // Today's layout before lines were folded: one long Parts line, digest and signature
        // on one line each.
        let key = dice::MailKey([7; 32]);
        let body = format!(
            "Mikasa fires.\n\n{PARTS_PREFIX} turn.html={} map.png={}\n\n-- \nDespatch · game g · log head #7 {}\n",
            "a".repeat(64),
            "b".repeat(64),
            "c".repeat(64)
        );
        let digest = body_digest(&body);
        let old = format!("{}\n{DIGEST_PREFIX}{digest}\n", body.trim_end());
        let sig = hex::encode(key.sign("g", &dice::from_hex(&digest).unwrap()));
        let old = format!("{old}{}{sig}\n", dice::SIGNATURE_PREFIX);
        assert!(old.lines().any(|l| l.chars().count() > 72));
        check_seal(&old).unwrap();
        assert_eq!(unfold(&old), old, "nothing to unfold");
        assert_eq!(parts_listed(&old).len(), 2);
        let (d, s) = seal_signature(&old).unwrap();
        assert!(dice::mail_key::verify(&key.public(), "g", &d, &s));
    }

    #[test]
    fn seal_detects_any_flipped_byte() {
        let body = "Mikasa fires on Tsesarevich: 3 hits.\nL_3 = abcd\n";
        let sealed = seal(body, "g", 7, "00ff").unwrap();
        assert!(
            sealed.contains("\n-- \n"),
            "signature separator keeps its space"
        );
        assert!(check_seal(&sealed).is_ok());
        assert!(check_seal(&sealed.replace("\n", "\r\n")).is_ok());
        let bytes = sealed.as_bytes();
        let end = sealed.find(DIGEST_PREFIX).unwrap();
        for i in 0..end {
            if bytes[i] == b'\n' || bytes[i] == b' ' {
                continue;
            }
            let mut b = bytes.to_vec();
            b[i] ^= 0x01;
            let s = String::from_utf8_lossy(&b);
            assert!(check_seal(&s).is_err(), "flip at {i} undetected");
        }
    }
}
