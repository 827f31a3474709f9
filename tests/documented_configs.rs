//! Every configuration the documentation shows starts as written (issue 18.3): each ```toml
//! block of the README is a whole `config.toml`, parsed and run (`despatch status`) by the
//! real binary; and looking at an empty directory creates nothing (issue 14.9).

use std::path::Path;
use std::process::Command;

use despatch::config::{Config, DEFAULT_CONFIG};

fn toml_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match (&mut current, line.trim_start()) {
            (None, l) if l.starts_with("```toml") => current = Some(String::new()),
            (Some(b), l) if l.starts_with("```") => {
                blocks.push(std::mem::take(b));
                current = None;
            }
            (Some(b), _) => {
                b.push_str(line);
                b.push('\n');
            }
            _ => {}
        }
    }
    blocks
}

fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        out.push(e.path().display().to_string());
        if e.path().is_dir() {
            out.extend(files_under(&e.path()));
        }
    }
    out
}

#[test]
fn every_readme_config_parses_and_runs_as_written() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let blocks = toml_blocks(&readme);
    assert!(!blocks.is_empty(), "the README shows no configuration");
    for (i, block) in blocks.iter().enumerate() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("config.toml");
        std::fs::write(&path, block).unwrap();
        let cfg = Config::parse(block, &path)
            .unwrap_or_else(|e| panic!("README config block {i} does not parse: {e}\n{block}"));
        assert!(cfg.mail.address.contains('@'));
        let out = Command::new(env!("CARGO_BIN_EXE_despatch"))
            .arg("--config")
            .arg(&path)
            .arg("status")
            .env("DESPATCH_IMAP_PASSWORD", "app-password")
            .env("DESPATCH_SMTP_PASSWORD", "app-password")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "README config block {i}: despatch status failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("No games"));
        assert_eq!(
            files_under(tmp.path()),
            vec![path.display().to_string()],
            "despatch status created files"
        );
    }
}

#[test]
fn the_shipped_and_embedded_configs_parse() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shipped = std::fs::read_to_string(root.join("config.toml")).unwrap();
    Config::parse(&shipped, &root.join("config.toml")).unwrap();
    Config::parse(DEFAULT_CONFIG, &root.join("config.toml")).unwrap();
    // A negative control: the parser this test relies on does refuse a broken config.
    assert!(
        Config::parse(
            "[mail]\naddress = \"x@y\"\nbogus = 1\n",
            &root.join("c.toml")
        )
        .is_err()
    );
}

/// One set of policy defaults (issue 18.4): a config that leaves `[games.policy]` out gets
/// exactly what the shipped `config.toml` documents.
#[test]
fn a_config_without_a_policy_gets_the_documented_defaults() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shipped = std::fs::read_to_string(root.join("config.toml")).unwrap();
    let documented = Config::parse(&shipped, &root.join("config.toml"))
        .unwrap()
        .games
        .policy;
    let bare = Config::parse(
        "[mail]\naddress = \"pbem@club.example\"\n",
        &root.join("c.toml"),
    )
    .unwrap();
    assert_eq!(bare.games.policy, documented);
    let games_only = Config::parse(
        "[mail]\naddress = \"pbem@club.example\"\n[games]\ntime_zone = \"Europe/London\"\n",
        &root.join("c.toml"),
    )
    .unwrap();
    assert_eq!(games_only.games.policy, documented);
    assert_eq!(documented.step_hours, 72);
    assert_eq!(documented.hours_by_kind.get("setup"), Some(&120));
    assert_eq!(documented.hours_by_kind.get("fire"), Some(&48));
    assert_eq!(documented.reminder_hours, vec![24, 4]);
}
