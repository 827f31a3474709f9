//! Issue 27 point 7: `despatch doctor` on a set-up with everything a new organiser gets wrong
//! names each problem with its fix and exits 1; on a healthy one it prints OK lines and exits
//! 0; it writes nothing either way. (The real IMAP and SMTP logins are in e2e_doctor, under the
//! real-server lock; here the servers are closed loopback ports.)

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::organiser_cli::{NEW, chown_all, despatch, listing, stderr, write_config};

fn doctor(cfg: &Path, dir: &Path) -> (Option<i32>, String) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_despatch"))
        .arg("--config")
        .arg(cfg)
        .arg("doctor")
        .current_dir(dir)
        .env_remove("DESPATCH_IMAP_PASSWORD")
        .output()
        .unwrap();
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

/// The finding that mentions `what`, with its fix line (the next one).
fn finding<'a>(out: &'a str, what: &str) -> (&'a str, &'a str) {
    let lines: Vec<&str> = out.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no finding about {what:?} in:\n{out}"));
    (lines[i], lines.get(i + 1).copied().unwrap_or(""))
}

#[test]
fn doctor_names_every_problem_of_a_broken_set_up_with_its_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let empty_games = tmp.path().join("no-games");
    std::fs::create_dir_all(&empty_games).unwrap();
    // A game made with the rulesets there, then the rulesets' folder pointed elsewhere.
    let good = write_config(tmp.path(), &[]);
    assert!(despatch(Some(&good), NEW, tmp.path()).status.success());
    let text = std::fs::read_to_string(&good)
        .unwrap()
        .replace(
            &format!(
                "games_dir = {:?}",
                crate::organiser_cli::games_dir().display().to_string()
            ),
            &format!("games_dir = {:?}", empty_games.display().to_string()),
        )
        .replace("inbound = \"maildir\"", "inbound = \"imap\"")
        .replace("outbound = \"maildir\"", "outbound = \"smtp\"")
        + "\n[imap]\nhost = \"127.0.0.1\"\nport = 1\nuser = \"despatch\"\npassword_env = \"DESPATCH_IMAP_PASSWORD\"\n\
           \n[smtp]\nhost = \"127.0.0.1\"\nport = 1\nsecurity = \"none\"\ntimeout_seconds = 2\n";
    let cfg = tmp.path().join("broken.toml");
    std::fs::write(&cfg, text).unwrap();
    let game = tmp.path().join("var/games/g1");
    // A secret readable by everyone, and the outbox Maildir without its new/.
    std::fs::set_permissions(
        game.join("seats.toml"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    std::fs::remove_dir_all(tmp.path().join("var/mail/outbox/new")).unwrap();
    let root = despatch::doctor::facts::me().is_root();
    if root {
        // `despatch new` as another user: a file of the game is not the folder owner's.
        chown_all(&game.join("journal.jsonl"), 65534);
    }
    let before = listing(tmp.path());
    let (code, out) = doctor(&cfg, tmp.path());
    assert_eq!(code, Some(1), "{out}");
    for (what, fix) in [
        ("secret file(s) can be read by other users", "chmod 600"),
        ("no naval-rjw/ruleset.toml", "games_dir"),
        ("outbox Maildir", "chown -R"),
        (
            "imap: the environment variable DESPATCH_IMAP_PASSWORD is not set",
            "EnvironmentFile",
        ),
        ("smtp 127.0.0.1:1: cannot connect", "host and port"),
        ("is a placeholder", "set mail.address"),
        ("no mail.gm_address", "gm_address"),
    ] {
        let (line, next) = finding(&out, what);
        assert!(
            line.starts_with("PROBLEM") || line.starts_with("WARN"),
            "{line}"
        );
        assert!(
            next.contains("fix:") && next.contains(fix),
            "{what}: {next}"
        );
    }
    if root {
        let (line, next) = finding(&out, "do not belong to");
        assert!(line.contains("games/g1/journal.jsonl"), "{line}");
        assert!(next.contains("chown -R root:root"), "{next}");
    }
    assert!(out.contains("problem(s) would stop play"), "{out}");
    assert_eq!(listing(tmp.path()), before, "doctor wrote something");

    // A config with a key that does not exist: named, and nothing else is looked at.
    let typo = tmp.path().join("typo.toml");
    std::fs::write(
        &typo,
        std::fs::read_to_string(&good)
            .unwrap()
            .replace("\n[mail]\n", "\n[mail]\nsmpt_host = \"x\"\n"),
    )
    .unwrap();
    let (code, out) = doctor(&typo, tmp.path());
    assert_eq!(code, Some(1));
    assert!(out.starts_with("PROBLEM config:"), "{out}");
    let (_, fix) = out.split_once("fix:").unwrap();
    assert!(out.contains("unknown field `smpt_host`"), "{out}");
    assert!(fix.contains("fix the key it names"), "{out}");
    assert!(
        !out.contains("data folder"),
        "nothing else is looked at: {out}"
    );
}

#[test]
fn doctor_passes_a_healthy_set_up_with_ok_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = write_config(
        tmp.path(),
        &[
            (
                "address = \"despatch@localhost\"",
                "address = \"despatch@club.org\"",
            ),
            (
                "# gm_address = \"gm@club.example\"",
                "gm_address = \"gm@club.org\"",
            ),
        ],
    );
    // Before the first game: the data folder is made by the daemon.
    let (code, out) = doctor(&cfg, tmp.path());
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("does not exist yet; the daemon makes it"),
        "{out}"
    );
    assert!(
        listing(tmp.path()).len() == 1,
        "only the config: doctor made nothing"
    );
    assert!(despatch(Some(&cfg), NEW, tmp.path()).status.success());
    let (code, out) = doctor(&cfg, tmp.path());
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("PROBLEM"), "{out}");
    for ok in [
        "every key is known",
        "all `",
        "1 of 1 game(s) open",
        "every ruleset's data found",
        "inbox Maildir",
        "organiser address gm@club.org",
        "OK: nothing stops play",
    ] {
        assert!(out.contains(ok), "{ok}: {out}");
    }
}
