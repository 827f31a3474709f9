//! The doctor's checks on values: each problem is found and worded with its fix, and each has
//! its control (the same set-up without the problem gives OK).

use super::*;

fn user(uid: u32, name: &str) -> Account {
    Account {
        uid,
        name: Some(name.into()),
        gid: uid,
        group: Some(name.into()),
        groups: vec![uid],
    }
}

fn entry(path: &str, uid: u32, mode: u32, is_dir: bool) -> Entry {
    Entry {
        path: path.into(),
        uid,
        gid: uid,
        mode,
        is_dir,
    }
}

const VAR: &str = "/srv/despatch/var";

#[test]
fn readable_by_follows_owner_group_and_other_bits() {
    let d = user(998, "despatch");
    assert!(readable_by(&entry("f", 998, 0o600, false), &d));
    assert!(!readable_by(&entry("f", 0, 0o600, false), &d));
    assert!(readable_by(&entry("f", 0, 0o644, false), &d));
    assert!(!readable_by(&entry("f", 998, 0o200, false), &d));
    // A folder needs x as well as r.
    assert!(!readable_by(&entry("d", 0, 0o744, true), &d));
    assert!(readable_by(&entry("d", 0, 0o755, true), &d));
    let mut grouped = entry("f", 0, 0o640, false);
    grouped.gid = 998;
    assert!(readable_by(&grouped, &d));
    assert!(readable_by(
        &entry("f", 998, 0o000, false),
        &user(0, "root")
    ));
}

#[test]
fn writable_by_needs_write_and_enter() {
    let d = user(998, "despatch");
    assert!(writable_by(&entry("d", 998, 0o700, true), &d));
    assert!(!writable_by(&entry("d", 0, 0o755, true), &d));
    assert!(!writable_by(&entry("d", 998, 0o500, true), &d));
    assert!(writable_by(&entry("d", 0, 0o1777, true), &d));
    assert!(writable_by(&entry("d", 0, 0o755, true), &user(0, "root")));
}

#[test]
fn files_of_another_user_in_the_data_folder_are_a_problem_with_the_chown() {
    let d = user(998, "despatch");
    let fine = vec![
        entry(VAR, 998, 0o755, true),
        entry(&format!("{VAR}/games/g1"), 998, 0o755, true),
        entry(&format!("{VAR}/games/g1/host.secret"), 998, 0o600, false),
        entry(&format!("{VAR}/games/g1/journal.jsonl"), 998, 0o644, false),
    ];
    let ok = data_folder_files(Path::new(VAR), &d, &fine, &[]);
    assert_eq!(ok.len(), 1);
    assert_eq!(ok[0].level, Level::Ok, "{}", ok[0]);
    // `despatch new` run as root: the game's files are root's.
    let mut bad = fine.clone();
    bad[2].uid = 0;
    bad[3].uid = 0;
    let f = data_folder_files(Path::new(VAR), &d, &bad, &[]);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].level, Level::Problem);
    let text = f[0].to_string();
    assert!(
        text.contains("2 file(s)")
            && text.contains("games/g1/host.secret")
            && text.contains("chown -R despatch:despatch /srv/despatch/var"),
        "{text}"
    );
}

#[test]
fn a_secret_readable_by_others_is_a_problem_and_a_journal_is_not() {
    let d = user(998, "despatch");
    let entries = vec![
        entry(&format!("{VAR}/games/g1/seats.toml"), 998, 0o644, false),
        entry(&format!("{VAR}/games/g1/journal.jsonl"), 998, 0o644, false),
    ];
    let f = data_folder_files(Path::new(VAR), &d, &entries, &[]);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].what.contains("games/g1/seats.toml") && !f[0].what.contains("journal"),
        "{}",
        f[0]
    );
    assert!(f[0].fix.as_ref().unwrap().contains("chmod 600"));
}

#[test]
fn the_data_folder_owner_is_judged_against_who_runs_doctor() {
    let d = user(998, "despatch");
    let root = user(0, "root");
    let folder = Path::new(VAR);
    assert_eq!(
        data_folder_owner(folder, &d, &d, "despatch doctor").level,
        Level::Ok
    );
    // Root may look, and is told how to look as the service does.
    let f = data_folder_owner(folder, &d, &root, "despatch --config c doctor");
    assert_eq!(f.level, Level::Warn);
    assert!(
        f.fix
            .as_ref()
            .unwrap()
            .contains("runuser -u despatch -- despatch --config c doctor"),
        "{f}"
    );
    // Another user's folder is a problem for anyone else.
    let f = data_folder_owner(folder, &root, &d, "despatch doctor");
    assert_eq!(f.level, Level::Problem);
    assert!(
        f.fix
            .as_ref()
            .unwrap()
            .contains("chown -R despatch:despatch")
    );
}

#[test]
fn games_that_do_not_open_are_problems_and_games_without_organiser_are_warned() {
    let list = vec![
        GameOpened {
            id: "g1".into(),
            result: Ok(()),
            denied: false,
            has_gm: false,
        },
        GameOpened {
            id: "g2".into(),
            result: Err("host.secret: Permission denied (os error 13)".into()),
            denied: true,
            has_gm: false,
        },
    ];
    let f = games(&list, None);
    assert!(stops_play(&f));
    let problem = f.iter().find(|x| x.level == Level::Problem).unwrap();
    assert!(problem.what.contains("game g2 cannot be opened"));
    assert!(problem.fix.as_ref().unwrap().contains("service user"));
    let warn = f.iter().find(|x| x.level == Level::Warn).unwrap();
    assert!(warn.what.contains("g1"), "{warn}");
    // Control: with mail.gm_address set and every game opening, nothing is wrong.
    let f = games(&list[..1], Some("gm@club.example"));
    assert!(f.iter().all(|x| x.level == Level::Ok), "{f:?}");
}

#[test]
fn a_missing_ruleset_names_the_folders_searched() {
    let found = vec![
        ("naval-rjw".to_string(), Ok(PathBuf::from("/g/naval-rjw"))),
        (
            "lone-star".to_string(),
            Err("ruleset `lone-star`: no lone-star/ruleset.toml in /g".to_string()),
        ),
    ];
    let f = rulesets(&found);
    assert!(stops_play(&f));
    assert!(f[0].what.contains("/g") && f[0].fix.as_ref().unwrap().contains("games_dir"));
    assert!(!stops_play(&rulesets(&found[..1])));
}

#[test]
fn passwords_and_servers_say_what_to_fix() {
    let d = user(998, "despatch");
    let unset = Err("imap: the environment variable DESPATCH_IMAP_PASSWORD is not set".to_string());
    let f = password("imap", &unset, &d);
    assert_eq!(f.level, Level::Problem);
    assert!(f.fix.as_ref().unwrap().contains("EnvironmentFile"), "{f}");
    let unreadable = Err("cannot read /etc/despatch/imap: Permission denied".to_string());
    let f = password("imap", &unreadable, &d);
    assert!(
        f.fix
            .as_ref()
            .unwrap()
            .contains("chown despatch:despatch FILE")
    );
    assert_eq!(
        password("imap", &Ok(Some("file".into())), &d).level,
        Level::Ok
    );
    let f = server("smtp", "mail.example", 587, &NetOutcome::Auth("535".into()));
    assert!(f.what.contains("login refused (AUTH)"), "{f}");
    assert_eq!(
        server("smtp", "m", 587, &NetOutcome::Fine("fine".into())).level,
        Level::Ok
    );
}

#[test]
fn the_placeholder_address_stops_play_and_a_missing_organiser_only_warns() {
    let f = addresses("despatch@localhost", true, None);
    assert!(stops_play(&f));
    assert!(f[0].what.contains("placeholder"));
    assert_eq!(f[1].level, Level::Warn);
    assert!(f[1].fix.as_ref().unwrap().contains("gm_address"));
    let f = addresses("despatch@club.org", false, Some("gm@club.org"));
    assert!(f.iter().all(|x| x.level == Level::Ok), "{f:?}");
}

#[test]
fn maildirs_that_cannot_be_written_are_problems() {
    let d = user(998, "despatch");
    let p = Path::new("/srv/despatch/var/mail/inbox");
    assert_eq!(
        maildir("inbox", p, &MaildirState::Ready, &d).level,
        Level::Ok
    );
    assert_eq!(
        maildir("inbox", p, &MaildirState::WillBeMade, &d).level,
        Level::Ok
    );
    let f = maildir(
        "inbox",
        p,
        &MaildirState::NotWritable(vec![p.join("new")]),
        &d,
    );
    assert_eq!(f.level, Level::Problem);
    assert!(
        f.fix
            .as_ref()
            .unwrap()
            .contains("chown -R despatch:despatch")
    );
}

#[test]
fn one_click_unsubscription_is_said_to_be_missing_until_configured() {
    let f = unsubscribe(None);
    assert_eq!(f.level, Level::Warn);
    assert!(
        f.what
            .contains("one-click unsubscription is not configured"),
        "{f}"
    );
    assert!(f.fix.unwrap().contains("[web] unsubscribe_url"));
    let f = unsubscribe(Some("https://club.example/stop"));
    assert_eq!(f.level, Level::Ok, "{f}");
}
