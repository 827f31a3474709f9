//! The commands that run the daemon or feed it: `demo`, `run`, `listen`, `ingest`, `archive`.
//! Each takes the data folder's lock through `Daemon::new` and runs as the service user; none
//! decides anything itself (the daemon and the engine do).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use chrono::Utc;

use crate::config::Config;
use crate::daemon::{Daemon, Intake};
use crate::demo;
use crate::store::DataDir;

use super::setup::{describe_intake, init_logging};

/// The configuration a writing command uses, checked to be the service user's.
fn service_config(config: Option<PathBuf>, command: &str) -> Result<Config> {
    let (cfg, path) = super::guard::writing_config(config, command)?;
    super::guard::service_user_only(&cfg, &path)?;
    Ok(cfg)
}

/// `despatch demo`: a whole game played by scripted seats through the local Maildir.
pub(super) fn demo(dir: &Path, scenario: &str, max_steps: u64) -> Result<ExitCode> {
    init_logging("warn");
    let report = demo::run_demo(dir, scenario, max_steps)?;
    print!("{report}");
    Ok(ExitCode::SUCCESS)
}

/// `despatch run [--once]`: the daemon's passes until stopped (or one pass).
pub(super) fn run_daemon(config: Option<PathBuf>, once: bool) -> Result<ExitCode> {
    let cfg = service_config(config, "run")?;
    init_logging(&cfg.daemon.log);
    let poll = cfg.daemon.poll_seconds;
    let d = Daemon::new(cfg)?;
    // Held for the daemon's life: a second `despatch run` on this data stops here.
    let _daemon = d.data.daemon_lock()?;
    // One line at start: what this daemon runs on, for whoever reads the log first.
    tracing::info!(
        data_dir = %d.cfg.data_dir.display(),
        inbound = %d.cfg.mail.inbound,
        outbound = %d.cfg.mail.outbound,
        address = %d.cfg.mail.address,
        // The folder listed, no journal looked at: a host of 10,000 games starts in no time.
        games = d.data.game_names().map(|g| g.len()).unwrap_or(0),
        poll_seconds = poll,
        "despatch {} started",
        env!("CARGO_PKG_VERSION")
    );
    loop {
        let pass = match d.run_once(Utc::now()) {
            Ok(p) => p,
            Err(e) if once => return Err(e),
            Err(e) => {
                // A full disk or a vanished folder should not end the daemon: say so, wait, retry.
                tracing::error!("pass failed, retrying: {e:#}");
                d.wait(std::time::Duration::from_secs(poll.max(5)));
                continue;
            }
        };
        if !pass.processed.is_empty() || pass.delivered > 0 || pass.steps_resolved > 0 {
            tracing::info!(
                mails = pass.processed.len(),
                resolved = pass.steps_resolved,
                delivered = pass.delivered,
                "pass done"
            );
        }
        if once {
            return Ok(ExitCode::SUCCESS);
        }
        d.wait(std::time::Duration::from_secs(poll));
    }
}

/// `despatch listen ADDR`: the one-click unsubscribe endpoint.
pub(super) fn listen(config: Option<PathBuf>, addr: &str) -> Result<ExitCode> {
    // Writes only into the data folder's one-click queue, so as the service user.
    let cfg = service_config(config, "listen")?;
    init_logging(&cfg.daemon.log);
    let Some(url) = cfg.web.unsubscribe_url.clone() else {
        bail!(
            "[web] unsubscribe_url is not set, so no mail carries a one-click URI and \
             there is nothing to listen for (mails carry the mailto: STOP only; see \
             docs/club-rules.md L1)"
        );
    };
    let listener =
        std::net::TcpListener::bind(addr).with_context(|| format!("listening on {addr}"))?;
    let base_path = crate::listen::base_path(&url);
    tracing::info!(%addr, path = %base_path, "despatch listen started");
    crate::listen::serve(
        listener,
        crate::listen::Site {
            base_path,
            data: DataDir::new(&cfg.data_dir),
            limits: Default::default(),
        },
    );
    Ok(ExitCode::SUCCESS)
}

/// `despatch ingest FILE…`: mails handed over by an MTA or by hand, read as the inbox would.
pub(super) fn ingest(config: Option<PathBuf>, files: Vec<PathBuf>) -> Result<ExitCode> {
    let cfg = service_config(config, "ingest")?;
    init_logging(&cfg.daemon.log);
    let d = Daemon::new(cfg)?;
    let mut worst = ExitCode::SUCCESS;
    for f in files {
        // Never more than the limit (plus one byte, to know it was more) in memory.
        let limit = d.cfg.mail.max_message_bytes as u64 + 1;
        let mut raw = Vec::new();
        if f.as_os_str() == "-" {
            std::io::stdin().take(limit).read_to_end(&mut raw)?;
        } else {
            std::fs::File::open(&f)
                .and_then(|file| file.take(limit).read_to_end(&mut raw))
                .with_context(|| f.display().to_string())?;
        }
        let out = d.ingest(&raw, Utc::now())?;
        println!("{}: {}", f.display(), describe_intake(&out));
        // Held mail is kept and read later (an MTA piping to us must not bounce it);
        // only a mail that could not be read, or not be kept, is a finding.
        if matches!(out, Intake::Unreadable(_))
            || (matches!(out, Intake::Failed(_)) && !d.data.holds_mail(&raw))
        {
            worst = ExitCode::from(1);
        }
    }
    Ok(worst)
}

/// `despatch archive GAME [--out DIR]`: the game's static pages.
pub(super) fn archive(config: Option<PathBuf>, game: &str, out: Option<&Path>) -> Result<ExitCode> {
    let cfg = service_config(config, "archive")?;
    init_logging("warn");
    let d = Daemon::new(cfg)?;
    let (dir, n) = d.write_archive(game, out, None)?;
    println!(
        "{game}: archive written to {} ({n} files); open index.html in a browser.",
        dir.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The daemon for a writing command other than those above (`gm`).
pub(super) fn daemon_for(config: Option<PathBuf>, command: &str) -> Result<Daemon> {
    let cfg = service_config(config, command)?;
    init_logging(&cfg.daemon.log);
    Daemon::new(cfg)
}
