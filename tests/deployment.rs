//! Issue 27.1: the README's "Running a real game" works as written. The shell and TOML blocks
//! marked `<!-- deploy:NAME -->` in README.md are taken from it and run in order, as root, on
//! this host: install, the service user, the configuration, the mail (path A: a provider's IMAP
//! and SMTP, played here by the loopback Dovecot and Postfix; path B: the host's own Postfix
//! delivering into the Maildir through `.forward`), `doctor`, the service, `new`, `status`,
//! `verify`. A game is created, each player's Dovecot mailbox receives its welcome, a player's
//! reply gets its receipt and a step resolves.
//!
//! What the test changes in a block, and why, is all in `substitutions` and `run_block`:
//! the club's placeholder names become the test's servers; `cargo build` is skipped (the binary
//! under test is installed: a release build would double CI's compile time); `systemctl` is
//! played from the installed unit (no systemd runs in CI): its `ExecStart` as its `User`, in
//! its `WorkingDirectory`, with its `UMask` and `EnvironmentFile`. Any other drift fails.
//!
//! It installs into /usr/local, /srv/despatch and /etc and reconfigures Postfix for path B
//! (restored afterwards), so it runs only where that is wanted: in CI (as root, with the mail
//! servers), or with DESPATCH_DEPLOY_TEST=1.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use despatch::engine::{Game, Play, Ruleset};
use despatch::rulesets::naval_rjw::NavalRjw;
use despatch::store::DataDir;

use crate::common::{self, DOMAIN, SERIAL, clear, mailbox, swaks, wait_until};

const SRV: &str = "/srv/despatch";
const CONFIG: &str = "/srv/despatch/config.toml";
const UNIT: &str = "/etc/systemd/system/despatch.service";

/// Whether this host may be installed on: CI as root with the mail servers, or asked for.
fn wanted() -> bool {
    let asked = std::env::var("DESPATCH_DEPLOY_TEST").is_ok_and(|v| v == "1");
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false");
    if !asked && !ci {
        eprintln!(
            "SKIPPED: the deployment test installs into /usr/local, /srv and /etc; it runs in CI \
             or with DESPATCH_DEPLOY_TEST=1"
        );
        return false;
    }
    if !common::enabled() {
        return false;
    }
    assert!(
        is_root(),
        "the deployment test follows the README as root; run it as root"
    );
    true
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

// ---------- the README's blocks ----------

/// The blocks of README.md marked `<!-- deploy:NAME -->`, by name: the fenced block right
/// after the marker.
fn readme_blocks() -> BTreeMap<String, String> {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let mut out = BTreeMap::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        let Some(name) = line
            .trim()
            .strip_prefix("<!-- deploy:")
            .and_then(|r| r.strip_suffix("-->"))
        else {
            continue;
        };
        let fence = lines.next().expect("a fenced block after the marker");
        assert!(
            fence.starts_with("```"),
            "README: <!-- deploy:{name} --> must be followed by a fenced block, not {fence:?}"
        );
        let body: Vec<&str> = lines
            .by_ref()
            .take_while(|l| !l.starts_with("```"))
            .collect();
        out.insert(name.trim().to_string(), body.join("\n") + "\n");
    }
    out
}

/// The club's placeholders as the test's servers (`follow_the_readme` checks that each one is
/// still in the README's blocks, so a renamed placeholder cannot pass unnoticed).
fn substitute(text: &str, subs: &[(&str, String)]) -> String {
    let mut t = text.to_string();
    for (from, to) in subs {
        t = t.replace(from, to);
    }
    t
}

fn players() -> Vec<(&'static str, String)> {
    vec![
        ("togo@example.org", format!("togo@{DOMAIN}")),
        ("vitgeft@example.net", format!("vitgeft@{DOMAIN}")),
        ("organiser@club.example", format!("gm@{DOMAIN}")),
    ]
}

/// Runs a shell block as root in the checkout, the way an organiser pastes it.
fn run_block(name: &str, text: &str, stdin: &str) -> String {
    let bin = env!("CARGO_BIN_EXE_despatch");
    let mut script = String::from("set -euo pipefail\n");
    for line in text.lines() {
        if line.trim_start().starts_with("cargo build") {
            // The binary under test stands in for the release build (see the module doc).
            script.push_str(": skipped by the test: cargo build\n");
            continue;
        }
        script.push_str(&line.replace("target/release/despatch", bin));
        script.push('\n');
    }
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bash");
    // A block that does not read its input may exit before taking it: that is not an error.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "README block `{name}` failed ({}):\n{script}\n--- stdout\n{stdout}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Step 1 as an organiser does it: the block's keys set in the installed config.toml (the
/// shipped file, edited), plus `extra` (what the test's servers need beyond a provider's).
fn set_config(block: &str, extra: &[(&str, &str, toml::Value)]) {
    let mut cfg: toml::Table = std::fs::read_to_string(CONFIG).unwrap().parse().unwrap();
    let set: toml::Table = block
        .parse()
        .unwrap_or_else(|e| panic!("README config block: {e}\n{block}"));
    for (table, keys) in set {
        let keys = keys
            .as_table()
            .expect("a [table] in the README block")
            .clone();
        let t = cfg
            .entry(table)
            .or_insert_with(|| toml::Value::Table(Default::default()));
        for (k, v) in keys {
            t.as_table_mut().unwrap().insert(k, v);
        }
    }
    for (table, key, value) in extra {
        cfg[*table]
            .as_table_mut()
            .unwrap()
            .insert(key.to_string(), value.clone());
    }
    std::fs::write(CONFIG, toml::to_string(&cfg).unwrap()).unwrap();
}

// ---------- the host ----------

/// Back to a host that never saw Despatch: no service user, no /srv/despatch, no install.
fn fresh_host() {
    let _ = Command::new("pkill").args(["-u", "despatch"]).status();
    std::thread::sleep(Duration::from_millis(300));
    let _ = Command::new("userdel").arg("despatch").output();
    for p in [
        SRV,
        "/etc/despatch",
        "/usr/local/share/despatch",
        UNIT,
        "/usr/local/bin/despatch",
    ] {
        let p = Path::new(p);
        if p.is_dir() {
            std::fs::remove_dir_all(p).unwrap();
        } else if p.exists() {
            std::fs::remove_file(p).unwrap();
        }
    }
}

/// `systemctl enable --now despatch` where no systemd runs: the installed unit's `ExecStart`,
/// as its `User` and `Group`, in its `WorkingDirectory`, with its `UMask` and the variables of
/// its `EnvironmentFile` (optional with `-`, as systemd reads it).
fn start_service(log: &Path) -> Child {
    let unit = std::fs::read_to_string(UNIT).expect("the install block put the unit in place");
    let get = |key: &str| {
        unit.lines()
            .find_map(|l| l.strip_prefix(&format!("{key}=")))
            .map(str::trim)
            .map(str::to_string)
    };
    let exec = get("ExecStart").expect("ExecStart");
    let user = get("User").expect("User");
    let group = get("Group").unwrap_or_else(|| user.clone());
    let dir = get("WorkingDirectory").expect("WorkingDirectory");
    let umask = get("UMask").unwrap_or_else(|| "0022".into());
    let mut cmd = Command::new("setpriv");
    cmd.args(["--reuid", &user, "--regid", &group, "--init-groups", "--"])
        .args(["sh", "-c", &format!("umask {umask} && exec {exec}")])
        .current_dir(&dir)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).unwrap());
    if let Some(file) = get("EnvironmentFile") {
        let (optional, file) = match file.strip_prefix('-') {
            Some(f) => (true, f.to_string()),
            None => (false, file),
        };
        match std::fs::read_to_string(&file) {
            Ok(text) => {
                for line in text.lines().map(str::trim) {
                    if let Some((k, v)) = line.split_once('=').filter(|_| !line.starts_with('#')) {
                        cmd.env(k.trim(), v.trim());
                    }
                }
            }
            Err(e) => assert!(optional, "EnvironmentFile {file}: {e}"),
        }
    }
    cmd.spawn().expect("the service")
}

struct Service {
    child: Child,
    log: PathBuf,
}

impl Service {
    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Path B needs a host whose Postfix receives mail for the club's domain with local delivery
/// (`club.test` here: `.example` is a placeholder `doctor` rightly refuses); the
/// test servers' Postfix has neither (it serves only virtual mailboxes). The premise is set up
/// here, and main.cf and master.cf are put back when this guard is dropped, even on a panic.
struct PostfixForClub {
    saved: Vec<(PathBuf, Vec<u8>)>,
}

impl PostfixForClub {
    fn set_up() -> Self {
        let saved = ["/etc/postfix/main.cf", "/etc/postfix/master.cf"]
            .iter()
            .map(|p| (PathBuf::from(p), std::fs::read(p).unwrap()))
            .collect();
        let st = Command::new("postconf")
            .args([
                "-e",
                "mydestination = club.test",
                "local_transport = local:$myhostname",
                "local_recipient_maps = proxy:unix:passwd.byname",
                "alias_maps =",
            ])
            .status()
            .unwrap();
        assert!(st.success());
        let mut master = std::fs::OpenOptions::new()
            .append(true)
            .open("/etc/postfix/master.cf")
            .unwrap();
        writeln!(
            master,
            "local     unix  -       n       n       -       -       local"
        )
        .unwrap();
        postfix_reload();
        PostfixForClub { saved }
    }
}

impl Drop for PostfixForClub {
    fn drop(&mut self) {
        for (p, bytes) in &self.saved {
            let _ = std::fs::write(p, bytes);
        }
        postfix_reload();
    }
}

fn postfix_reload() {
    let st = Command::new("postfix").arg("reload").output().unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    std::thread::sleep(Duration::from_millis(500));
}

// ---------- one path, start to finish ----------

struct MailPath {
    name: &'static str,
    config_block: &'static str,
    mail_block: &'static str,
    mail_stdin: &'static str,
    subs: Vec<(&'static str, String)>,
    extra: Vec<(&'static str, &'static str, toml::Value)>,
}

fn follow_the_readme(p: &MailPath) {
    let blocks = readme_blocks();
    let block = |name: &str| {
        blocks
            .get(name)
            .unwrap_or_else(|| panic!("README has no <!-- deploy:{name} --> block"))
            .clone()
    };
    let used = [p.config_block, p.mail_block, "new"].map(block).concat();
    for (from, _) in &p.subs {
        assert!(
            used.contains(from),
            "the README's blocks no longer say {from:?}: update the test's substitutions"
        );
    }
    fresh_host();
    for u in ["despatch", "togo", "vitgeft", "gm"] {
        clear(u);
    }
    // 0. Install, twice: the second time is an upgrade over the first.
    run_block("install", &block("install"), "");
    run_block("install (upgrade)", &block("install"), "");
    assert!(Path::new("/usr/local/share/despatch/games/naval-rjw/README.md").exists());
    run_block("user", &block("user"), "");
    // 1. The keys of the chosen path, as the organiser edits them.
    set_config(&substitute(&block(p.config_block), &p.subs), &p.extra);
    // 2. The mail.
    run_block(
        p.mail_block,
        &substitute(&block(p.mail_block), &p.subs),
        p.mail_stdin,
    );
    // 3. Doctor finds nothing that would stop play.
    let doctor = run_block("doctor", &block("doctor"), "");
    eprintln!("[{}] doctor:\n{doctor}", p.name);
    // 4. The service.
    let start = block("start");
    assert_eq!(
        start.trim(),
        "systemctl daemon-reload && systemctl enable --now despatch",
        "README step 4 changed: teach tests/deployment.rs to play it"
    );
    let log = std::env::temp_dir().join(format!("despatch-deploy-{}.log", p.name));
    let service = Service {
        child: start_service(&log),
        log,
    };
    // 5. A game.
    let created = run_block("new", &substitute(&block("new"), &p.subs), "");
    assert!(created.contains("club-1"), "{created}");
    let store = DataDir::new(format!("{SRV}/var")).game("club-1");
    // Each player's mailbox on Dovecot receives the welcome.
    for user in ["togo", "vitgeft"] {
        wait_until(
            &format!("{user}'s welcome ({})", p.name),
            Duration::from_secs(60),
            || {
                mailbox(user, "INBOX")
                    .iter()
                    .any(|m| m.subject.contains("[club-1"))
            },
        );
    }
    // Players answer until a step resolves; every reply is read and journaled, and its receipt
    // reaches the player with their next mail (one mail a step, the shipped default).
    let first: Game<NavalRjw> = store.load().unwrap();
    let first_step = first.step;
    let players = [("japan", "togo"), ("russia", "vitgeft")];
    let mut sent = 0u64;
    let mut ids: Vec<(&str, String)> = Vec::new();
    loop {
        let g: Game<NavalRjw> = store.load().unwrap();
        if g.step > first_step || g.is_over() {
            break;
        }
        let step = g.step;
        let tag = format!("[club-1 #{step}]");
        let Some(seat) = g.waiting_for().into_iter().next() else {
            std::thread::sleep(Duration::from_millis(200));
            continue;
        };
        let user = players.iter().find(|(s, _)| *s == seat).unwrap().1;
        let mut asked = None;
        wait_until(
            &format!("a mail asking {seat} about step {step}"),
            Duration::from_secs(60),
            || {
                asked = mailbox(user, "INBOX")
                    .into_iter()
                    .rev()
                    .find(|m| m.reply_to.contains("+club-1.") && m.subject.contains(&tag));
                asked.is_some()
            },
        );
        let asked = asked.unwrap();
        sent += 1;
        let id = format!("deploy-{}-{sent}@{DOMAIN}", p.name);
        let orders = NavalRjw::sample_orders(&g.state, &seat, step * 7 + sent);
        swaks(
            &format!("{user}@{DOMAIN}"),
            &asked.reply_to,
            &id,
            &format!("Re: {}", asked.subject),
            &format!("{orders}\n-- \n{user}\n"),
        );
        wait_until(
            &format!("{id} read and journaled ({})", p.name),
            Duration::from_secs(60),
            || {
                store
                    .read_journal()
                    .is_ok_and(|j| j.lines.iter().any(|l| l.contains(&id)))
            },
        );
        ids.push((user, id));
        assert!(sent < 20, "no step resolved after {sent} order mails");
    }
    // The step's results reach the players it asks (the others' wait for their next mail).
    let resolved: Game<NavalRjw> = store.load().unwrap();
    let next_tag = format!("[club-1 #{}]", resolved.step);
    let asked = resolved.waiting_for();
    assert!(!asked.is_empty(), "the next step asks nobody");
    for (_, user) in players.iter().filter(|(s, _)| asked.iter().any(|a| a == s)) {
        wait_until(
            &format!("{user}'s results mail ({})", p.name),
            Duration::from_secs(60),
            || {
                mailbox(user, "INBOX")
                    .iter()
                    .any(|m| m.subject.contains(&next_tag))
            },
        );
    }
    // Every order mail's receipt reached its player attached to a later mail (its
    // In-Reply-To names the order mail), or waits in the store for the player's next mail.
    for (user, id) in &ids {
        let seat = players.iter().find(|(_, u)| u == user).unwrap().0;
        let waiting = || {
            store.waiting_mails().unwrap().iter().any(|m| {
                m.seat == seat && String::from_utf8_lossy(&m.bytes).contains(&format!("<{id}>"))
            })
        };
        wait_until(
            &format!("the receipt of {id} ({})", p.name),
            Duration::from_secs(60),
            || {
                waiting()
                    || mailbox(user, "INBOX")
                        .iter()
                        .any(|m| String::from_utf8_lossy(&m.raw).contains(&format!("<{id}>")))
            },
        );
    }
    // 6. Watching it.
    let watch = run_block("watch", &block("watch"), "");
    assert!(watch.contains("club-1"), "{watch}");
    // 7. Audit.
    let verified = run_block("verify", &block("verify"), "");
    assert!(verified.starts_with("OK"), "{verified}");
    // Nothing was left undelivered in the service's folder.
    let outbox_new = Path::new(SRV).join("var/mail/outbox/new");
    let stranded = std::fs::read_dir(&outbox_new)
        .map(|d| d.count())
        .unwrap_or(0);
    assert_eq!(
        stranded,
        0,
        "mail left in {} ({})",
        outbox_new.display(),
        p.name
    );
    assert!(
        !service.log().contains("ERROR"),
        "the service logged an error ({}):\n{}",
        p.name,
        service.log()
    );
    drop(service);
}

/// Leaves the host as found, once a test has checked what it made: an install left behind is
/// found by every later configuration without `games_dir` (on the development machine it
/// shadowed a newer checkout's rulesets and `new` failed with "missing field").
fn leave_the_host_as_found() {
    fresh_host();
    assert!(!Path::new("/usr/local/share/despatch").exists());
}

#[test]
fn the_readme_sets_up_a_club_with_a_mail_provider() {
    if !wanted() {
        return;
    }
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let ca = common::ca().display().to_string();
    let mut subs: Vec<(&str, String)> = vec![
        ("pbem@club.example", format!("despatch@{DOMAIN}")),
        ("imap.example.com", "localhost".into()),
        ("smtp.example.com", "localhost".into()),
        ("port = 993", "port = 10993".into()),
        ("port = 587", "port = 10587".into()),
    ];
    subs.extend(players());
    follow_the_readme(&MailPath {
        name: "provider",
        config_block: "config-provider",
        mail_block: "secrets-provider",
        mail_stdin: "despatch-pass\n",
        subs,
        // The test's provider has a certificate from the test CA: the one key a real
        // provider does not need.
        extra: vec![
            ("imap", "ca_file", toml::Value::String(ca.clone())),
            ("smtp", "ca_file", toml::Value::String(ca)),
        ],
    });
    // The self-copies of path A landed where the README says.
    assert!(!mailbox("despatch", "Despatch/Processed").is_empty());
    leave_the_host_as_found();
}

#[test]
fn the_readme_sets_up_a_club_on_its_own_postfix() {
    if !wanted() {
        return;
    }
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let _postfix = PostfixForClub::set_up();
    let mut subs: Vec<(&str, String)> = vec![
        ("despatch@club.example", "despatch@club.test".into()),
        ("port = 25", "port = 10025".into()),
    ];
    subs.extend(players());
    follow_the_readme(&MailPath {
        name: "local-mta",
        config_block: "config-local",
        mail_block: "postfix-local",
        mail_stdin: "",
        subs,
        extra: vec![],
    });
    // The players' mails came in through Postfix's local delivery into the Maildir.
    let read = std::fs::read_dir(Path::new(SRV).join("var/mail/inbox/cur"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert!(read > 0, "nothing was delivered into the inbox Maildir");
    leave_the_host_as_found();
}
