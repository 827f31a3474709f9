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

fn help_text(d: &Daemon, n: u32, token: &str) -> String {
    let raw = format!(
        "From: <togo@mikasa.example>\r\nTo: despatch+club.japan.{token}@localhost\r\nSubject: help\r\nMessage-ID: <h{n}@x>\r\n\r\nHELP\r\n"
    );
    let now = Utc.with_ymd_and_hms(2026, 5, 1, 10, n, 0).unwrap();
    assert!(matches!(
        d.ingest(raw.as_bytes(), now).unwrap(),
        Intake::Help { .. }
    ));
    let mut texts = Vec::new();
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(d.cfg.mail.outbox.join(sub))
            .unwrap()
            .flatten()
        {
            let bytes = std::fs::read(e.path()).unwrap();
            let m = MessageParser::default().parse(&bytes).unwrap();
            // The answer to this very mail: it threads under it.
            if m.in_reply_to().as_text() == Some(&format!("h{n}@x")) {
                texts.push(m.body_text(0).unwrap().into_owned());
            }
        }
    }
    assert_eq!(texts.len(), 1, "one answer to HELP number {n}");
    texts.pop().unwrap()
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
