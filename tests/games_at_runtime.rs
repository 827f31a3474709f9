//! Games are read at run time: the order reference a HELP mail returns and the data a new game
//! is set up from come from the games folder as it is now, so a club's edit of its README or
//! charts takes effect without a rebuild; the folder defaults to `games` beside the config.

use std::path::{Path, PathBuf};

use chrono::{TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use mail_parser::MessageParser;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// Every mail in the outbox Maildir, parsed.
fn outbox(d: &Daemon) -> Vec<mail_parser::Message<'static>> {
    let mut mails = Vec::new();
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(d.cfg.mail.outbox.join(sub))
            .unwrap()
            .flatten()
        {
            let bytes = std::fs::read(e.path()).unwrap();
            let m = MessageParser::default().parse(&bytes).unwrap();
            mails.push(m.into_owned());
        }
    }
    mails
}

fn help_text(d: &Daemon, n: u32, token: &str) -> String {
    let raw = format!(
        "From: <togo@mikasa.example>\r\nTo: despatch+club.japan.{token}@localhost\r\nSubject: help\r\nMessage-ID: <h{n}@x>\r\n\r\nHELP\r\n"
    );
    let now = Utc.with_ymd_and_hms(2026, 5, 1, 10, n, 0).unwrap();
    assert!(matches!(
        d.ingest(raw.as_bytes(), now).unwrap(),
        Intake::Help { .. }
    ));
    let mut texts: Vec<String> = outbox(d)
        .into_iter()
        // The answer to this very mail: it threads under it.
        .filter(|m| m.in_reply_to().as_text() == Some(&format!("h{n}@x")))
        .map(|m| m.body_text(0).unwrap().into_owned())
        .collect();
    assert_eq!(texts.len(), 1, "one answer to HELP number {n}");
    texts.pop().unwrap()
}

/// Naval training as game `club`, Japan's secret `tokjapan…`.
fn start_club(d: &Daemon) {
    d.create_game_with(
        "club",
        "naval-rjw",
        "training",
        &[
            ("japan".into(), "togo@mikasa.example".into()),
            ("russia".into(), "vitgeft@tsesarevich.example".into()),
        ],
        Utc.with_ymd_and_hms(2026, 5, 1, 9, 0, 0).unwrap(),
        despatch::dice::GameSecrets::pinned("club", [1; 32], [2; 32], 100),
        &[
            "tokjapanxxxxxxxxxxxxxxxx".into(),
            "tokrussiaxxxxxxxxxxxxxxx".into(),
        ],
    )
    .unwrap();
}

#[test]
fn an_edited_order_reference_is_what_help_returns_without_a_rebuild() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    copy_dir(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games/naval-rjw"),
        &games.join("naval-rjw"),
    );
    // A config without games_dir finds `games` beside itself.
    let text = DEFAULT_CONFIG.replace("# games_dir = \"games\"", "");
    let cfg = Config::parse(&text, &tmp.path().join("config.toml")).unwrap();
    assert_eq!(
        cfg.ruleset_dir("naval-rjw").unwrap(),
        games.join("naval-rjw")
    );
    let d = Daemon::new(cfg).unwrap();
    let readme = games.join("naval-rjw/README.md");
    let original = std::fs::read_to_string(&readme).unwrap();
    std::fs::write(
        &readme,
        format!("{original}\nHOUSE RULE 1: the club plays at 1/3000 scale.\n"),
    )
    .unwrap();
    start_club(&d);
    let tok = "tokjapanxxxxxxxxxxxxxxxx";
    assert!(help_text(&d, 1, tok).contains("HOUSE RULE 1"));
    // A second edit while the daemon lives: the next HELP has it.
    std::fs::write(
        &readme,
        format!("{original}\nHOUSE RULE 2: smoke lasts two turns.\n"),
    )
    .unwrap();
    let second = help_text(&d, 2, tok);
    assert!(second.contains("HOUSE RULE 2") && !second.contains("HOUSE RULE 1"));
}

#[test]
fn a_ruleset_missing_from_the_games_folder_names_where_it_looked() {
    let tmp = tempfile::tempdir().unwrap();
    let text = DEFAULT_CONFIG.replace("# games_dir = \"games\"", "games_dir = \"nowhere\"");
    let cfg = Config::parse(&text, &tmp.path().join("config.toml")).unwrap();
    let e = cfg.ruleset_dir("naval-rjw").unwrap_err();
    assert!(e.contains("nowhere"), "{e}");
    assert!(
        !e.contains("/usr/share"),
        "an explicit games_dir is the only place searched: {e}"
    );
}

/// The text with its line breaks (the mail's 72-column layout) read as spaces.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The mails in the outbox addressed to `to`: their texts.
fn mails_to(d: &Daemon, to: &str) -> Vec<String> {
    outbox(d)
        .into_iter()
        .filter(|m| {
            m.to()
                .and_then(|a| a.first())
                .and_then(|a| a.address())
                .is_some_and(|a| a == to)
        })
        .map(|m| m.body_text(0).unwrap().into_owned())
        .collect()
}

/// A games folder whose naval-rjw has lost its README, and a daemon on it with `gm_address`
/// set or not; one game started.
fn without_reference(tmp: &Path, gm_address: Option<&str>) -> Daemon {
    let games = tmp.join("games");
    copy_dir(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games/naval-rjw"),
        &games.join("naval-rjw"),
    );
    std::fs::remove_file(games.join("naval-rjw/README.md")).unwrap();
    let mut text = DEFAULT_CONFIG.replace("# games_dir = \"games\"", "");
    if let Some(gm) = gm_address {
        text = text.replacen(
            "# gm_address = \"gm@club.example\"",
            &format!("gm_address = \"{gm}\""),
            1,
        );
    }
    let cfg = Config::parse(&text, &tmp.join("config.toml")).unwrap();
    assert_eq!(cfg.mail.gm_address.as_deref(), gm_address);
    let d = Daemon::new(cfg).unwrap();
    start_club(&d);
    d
}

#[test]
fn help_without_its_order_reference_tells_the_organiser_once_and_says_so_only_if_one_was_told() {
    let tok = "tokjapanxxxxxxxxxxxxxxxx";
    // With the club's organiser address: told once (two HELPs), and the player hears so.
    let tmp = tempfile::tempdir().unwrap();
    let d = without_reference(tmp.path(), Some("organiser@club.test"));
    for n in 1..=2 {
        let text = flat(&help_text(&d, n, tok));
        assert!(text.contains("the organiser has been told"), "{text}");
    }
    let told = mails_to(&d, "organiser@club.test");
    assert_eq!(told.len(), 1, "the organiser is told once: {told:?}");
    assert!(
        told[0].contains("naval-rjw") && told[0].contains("README.md"),
        "{}",
        told[0]
    );
    // Without one: nobody to tell, and the player is not promised that anyone was.
    let tmp = tempfile::tempdir().unwrap();
    let d = without_reference(tmp.path(), None);
    let text = flat(&help_text(&d, 1, tok));
    assert!(!text.contains("has been told"), "{text}");
    assert!(text.contains("no organiser's address"), "{text}");
}
