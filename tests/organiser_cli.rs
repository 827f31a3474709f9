//! Issue 27 points 2 and 4 at the command line, with the real binary: a failed `despatch new`
//! leaves nothing behind; `new --gm` sets the game's organiser and `new` warns about a
//! placeholder address or a missing organiser; every command that writes the data folder runs
//! only as its owner (read-only ones run for anyone); and a game made as another user than the
//! service's is reported to the organiser with the `chown` that fixes it.
//!
//! The owner tests need two users. As root (CI) the data folder is handed to `nobody` and the
//! daemon is run as `nobody`; as anyone else, a folder of root's and a file made unreadable
//! stand in for them, so the rule is tested either way.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use despatch::doctor::facts;

const NOBODY: u32 = 65534;

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_despatch")
}

pub fn games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games")
}

/// The shipped config with the repository's games, its `[mail]` lines changed by `mail`.
pub fn write_config(dir: &Path, replace: &[(&str, &str)]) -> PathBuf {
    let mut text = despatch::config::DEFAULT_CONFIG.replace(
        "# games_dir = \"games\"",
        &format!("games_dir = {:?}", games_dir().display().to_string()),
    );
    for (from, to) in replace {
        assert!(text.contains(from), "{from}");
        text = text.replace(from, to);
    }
    let p = dir.join("config.toml");
    std::fs::write(&p, text).unwrap();
    p
}

pub fn despatch(config: Option<&Path>, args: &[&str], cwd: &Path) -> Output {
    let mut c = Command::new(bin());
    if let Some(cfg) = config {
        c.arg("--config").arg(cfg);
    }
    c.args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Every path under `dir`, sorted (what a failed command must not change).
pub fn listing(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            out.push(e.path().display().to_string());
            if e.path().is_dir() {
                todo.push(e.path());
            }
        }
    }
    out.sort();
    out
}

pub const NEW: &[&str] = &[
    "new",
    "g1",
    "--ruleset",
    "naval-rjw",
    "--scenario",
    "training",
    "--seat",
    "japan=togo@fleet.example",
    "--seat",
    "russia=rozh@fleet.example",
];

fn with(extra: &[&'static str]) -> Vec<&'static str> {
    let mut v = NEW.to_vec();
    v.extend_from_slice(extra);
    v
}

fn replaced(args: &[&'static str], from: &str, to: &'static str) -> Vec<&'static str> {
    args.iter()
        .map(|a| if *a == from { to } else { *a })
        .collect()
}

#[test]
fn new_in_a_folder_without_config_fails_clearly_and_leaves_it_empty() {
    let tmp = tempfile::tempdir().unwrap();
    let o = despatch(None, NEW, tmp.path());
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("no configuration") && e.contains("--config"),
        "{e}"
    );
    assert!(listing(tmp.path()).is_empty(), "{:?}", listing(tmp.path()));
    // Control: with a config there, the same command makes the game (and its folders).
    write_config(tmp.path(), &[]);
    let o = despatch(None, NEW, tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(tmp.path().join("var/games/g1/journal.jsonl").exists());
}

#[test]
fn a_failed_new_leaves_no_folder_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = write_config(tmp.path(), &[]);
    let only_config = listing(tmp.path());
    for (args, says) in [
        (replaced(NEW, "training", "nope"), "scenario `nope`"),
        (replaced(NEW, "naval-rjw", "chess"), "chess"),
        (with(&["--gm", "not an address"]), "--gm"),
        (with(&["--league", "Bad League"]), "league"),
        (with(&["--carry-from", "g0"]), "--carry-from g0"),
        (
            replaced(NEW, "russia=rozh@fleet.example", "russia=rozh"),
            "seat russia",
        ),
        (
            replaced(NEW, "russia=rozh@fleet.example", "france=x@y.example"),
            "france",
        ),
    ] {
        let o = despatch(Some(&cfg), &args, tmp.path());
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert_eq!(listing(tmp.path()), only_config, "{args:?} left something");
    }
    // With the data folder there (one game made), a failed new adds no game folder.
    assert!(despatch(Some(&cfg), NEW, tmp.path()).status.success());
    let before = listing(tmp.path());
    let again = replaced(&replaced(NEW, "g1", "g2"), "training", "nope");
    assert!(!despatch(Some(&cfg), &again, tmp.path()).status.success());
    assert!(!tmp.path().join("var/games/g2").exists());
    assert_eq!(listing(tmp.path()), before);
}

/// A ruleset.toml of another version (an installed copy older than the binary) is refused
/// with the folder it was read from, so the organiser knows which copy to replace.
#[test]
fn a_broken_ruleset_is_refused_naming_the_folder_it_was_read_from() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("old-games");
    let naval = games.join("naval-rjw");
    std::fs::create_dir_all(naval.join("scenarios")).unwrap();
    let src = games_dir().join("naval-rjw");
    let toml = std::fs::read_to_string(src.join("ruleset.toml")).unwrap();
    // Control: the copy as shipped is accepted from the same place.
    std::fs::write(naval.join("ruleset.toml"), &toml).unwrap();
    std::fs::copy(
        src.join("scenarios/training.toml"),
        naval.join("scenarios/training.toml"),
    )
    .unwrap();
    let folder = format!("games_dir = {:?}", games.display().to_string());
    let at = |name: &str| {
        let d = tmp.path().join(name);
        std::fs::create_dir_all(&d).unwrap();
        let text = std::fs::read_to_string(write_config(&d, &[])).unwrap();
        let line = format!("games_dir = {:?}", games_dir().display().to_string());
        std::fs::write(d.join("config.toml"), text.replace(&line, &folder)).unwrap();
        d
    };
    let good = at("good");
    let o = despatch(Some(&good.join("config.toml")), NEW, &good);
    assert!(o.status.success(), "{}", stderr(&o));
    // One field gone, as in a copy from before that field was added.
    let (head, _) = toml.split_once("[rules]").expect("a [rules] table");
    std::fs::write(naval.join("ruleset.toml"), format!("{head}[rules]\n")).unwrap();
    let bad = at("bad");
    let o = despatch(Some(&bad.join("config.toml")), NEW, &bad);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains(&naval.display().to_string()), "{err}");
    assert!(err.contains("naval-rjw `training`"), "{err}");
}

#[test]
fn new_gm_sets_the_games_organiser_and_new_warns_about_a_placeholder_or_no_organiser() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = write_config(tmp.path(), &[]);
    let o = despatch(
        Some(&cfg),
        &with(&["--gm", "Umpire <Umpire@Club.example>"]),
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let seats = despatch::store::DataDir::new(tmp.path().join("var"))
        .game("g1")
        .seats()
        .unwrap();
    assert_eq!(seats.gm.as_deref(), Some("umpire@club.example"));
    let e = stderr(&o);
    assert!(
        e.contains("warning: mail.address is still the placeholder \"despatch@localhost\""),
        "{e}"
    );
    assert!(!e.contains("no organiser"), "--gm gives one: {e}");
    // Without --gm and without mail.gm_address: warned, and still made (exit 0).
    let o = despatch(Some(&cfg), &replaced(NEW, "g1", "g2"), tmp.path());
    assert!(o.status.success());
    assert!(
        stderr(&o).contains("this game has no organiser"),
        "{}",
        stderr(&o)
    );
    // Control: a real address and the club's organiser, no warning at all.
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
    let o = despatch(Some(&cfg), NEW, tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
}

/// Hands `path` (and everything under it) to `uid`.
pub fn chown_all(path: &Path, uid: u32) {
    std::os::unix::fs::lchown(path, Some(uid), Some(uid)).unwrap();
    if path.is_dir() && !path.is_symlink() {
        for e in std::fs::read_dir(path).unwrap().flatten() {
            chown_all(&e.path(), uid);
        }
    }
}

#[test]
fn commands_that_write_run_only_as_the_data_folders_owner_and_reading_ones_for_anyone() {
    let tmp = tempfile::tempdir().unwrap();
    let me = facts::me();
    let (cfg, owner) = if me.is_root() {
        // The service's folder, of `nobody`; root types the commands.
        let cfg = write_config(tmp.path(), &[]);
        assert!(despatch(Some(&cfg), NEW, tmp.path()).status.success());
        chown_all(tmp.path(), NOBODY);
        (cfg, facts::account(NOBODY).label())
    } else {
        // Not root: a data folder to be made under `/`, which is root's.
        let data = format!("/despatch-owner-test-{}/var", std::process::id());
        let cfg = write_config(
            tmp.path(),
            &[("data_dir = \"var\"", &format!("data_dir = {data:?}"))],
        );
        (cfg, "root".to_string())
    };
    let mail = tmp.path().join("m.eml");
    std::fs::write(
        &mail,
        "From: <a@b.example>\r\nTo: despatch@localhost\r\n\r\nHELP\r\n",
    )
    .unwrap();
    let mail = mail.display().to_string();
    let before = listing(tmp.path());
    for args in [
        replaced(NEW, "g1", "g2"),
        vec!["run", "--once"],
        vec!["ingest", &mail],
        vec!["gm", "extend", "g1", "--hours", "24"],
        vec!["gm", "close-step", "g1"],
        vec!["archive", "g1"],
    ] {
        let o = despatch(Some(&cfg), &args, tmp.path());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains(&format!("belongs to `{owner}`"))
                && e.contains(&format!("you are `{}`", me.label())),
            "{args:?}: {e}"
        );
        if owner != "root" {
            assert!(
                e.contains(&format!(
                    "runuser -u {owner} -- {} --config {}",
                    bin(),
                    cfg.display()
                )),
                "the exact command: {e}"
            );
        }
        assert_eq!(listing(tmp.path()), before, "{args:?} wrote something");
    }
    // Reading is not writing: status, show, verify and doctor still answer root.
    if me.is_root() {
        for args in [
            vec!["status"],
            vec!["show", "g1", "--as", "japan"],
            vec!["verify", "g1"],
        ] {
            let o = despatch(Some(&cfg), &args, tmp.path());
            assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        }
        let o = despatch(Some(&cfg), &["doctor"], tmp.path());
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains("you are root"), "{out}");
        assert_eq!(listing(tmp.path()), before);
    }
}

/// The binary where `uid` may run it: in place if every folder above it lets others in,
/// else a copy in `dir`.
fn runnable_by_others(dir: &Path) -> PathBuf {
    let b = PathBuf::from(bin());
    let open = b.ancestors().skip(1).all(|a| {
        a.metadata()
            .is_ok_and(|m| m.permissions().mode() & 0o001 != 0)
    });
    if open {
        return b;
    }
    let copy = dir.join("despatch");
    std::fs::copy(&b, &copy).unwrap();
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).unwrap();
    copy
}

#[test]
fn a_game_made_as_another_user_is_reported_to_the_organiser_once_with_the_chown() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = write_config(
        tmp.path(),
        &[(
            "# gm_address = \"gm@club.example\"",
            "gm_address = \"gm@club.org\"",
        )],
    );
    let me = facts::me();
    // `despatch new` as root in the service's folder (or, not root, a secret made unreadable).
    assert!(despatch(Some(&cfg), NEW, tmp.path()).status.success());
    let game = tmp.path().join("var/games/g1");
    let service = if me.is_root() {
        chown_all(tmp.path(), NOBODY);
        chown_all(&game, 0);
        facts::account(NOBODY)
    } else {
        std::fs::set_permissions(
            game.join("host.secret"),
            std::fs::Permissions::from_mode(0o000),
        )
        .unwrap();
        me.clone()
    };
    let exe = runnable_by_others(tmp.path());
    let run = || {
        let mut c = Command::new(&exe);
        c.arg("--config")
            .arg(&cfg)
            .args(["run", "--once"])
            .current_dir(tmp.path());
        if me.is_root() {
            c.uid(NOBODY).gid(NOBODY);
        }
        c.stdin(Stdio::null()).output().unwrap()
    };
    let reports = || {
        let outbox = tmp.path().join("var/mail/outbox/new");
        let mut out = Vec::new();
        for e in std::fs::read_dir(outbox).unwrap().flatten() {
            let bytes = std::fs::read(e.path()).unwrap();
            let m = mail_parser::MessageParser::default().parse(&bytes).unwrap();
            let to = m.to().and_then(|a| a.first()).and_then(|a| a.address());
            if to == Some("gm@club.org")
                && m.subject()
                    .is_some_and(|s| s.contains("Game g1 is set aside"))
            {
                out.push(m.body_text(0).unwrap_or_default().into_owned());
            }
        }
        out
    };
    for _ in 0..2 {
        let o = run();
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains("game set aside"), "{}", stderr(&o));
    }
    let got = reports();
    assert_eq!(got.len(), 1, "reported once");
    let flat: String = got[0].split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(&format!(
            "chown -R {} {}",
            service.chown_spec(),
            game.display()
        )),
        "{flat}"
    );
    assert!(
        flat.contains(&format!("runuser -u {} --", service.label())),
        "{flat}"
    );
    if me.is_root() {
        assert!(flat.contains("which belongs to `root`"), "{flat}");
    }
    // Control: once the files are the service's, the game goes on and nothing more is said.
    if me.is_root() {
        chown_all(&game, NOBODY);
    } else {
        std::fs::set_permissions(
            game.join("host.secret"),
            std::fs::Permissions::from_mode(0o600),
        )
        .unwrap();
    }
    let o = run();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("game set aside"), "{}", stderr(&o));
    assert_eq!(reports().len(), 1);
}
