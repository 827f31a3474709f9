//! Each command of the command line, carried out by calling the library. Errors go back to
//! `main` as `anyhow` errors; the exit code says what happened (0 fine, 1 a finding or an
//! unreadable message, 2 an error).

use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};
use chrono::Utc;

use crate::daemon::{Daemon, Intake};
use crate::engine::{Play, Viewer};
use crate::store::{DataDir, GameStore};
use crate::{demo, report, verify};

use super::args::{Cli, Command, GmCommand, PlayerCommand};
use super::setup::{describe_intake, init_logging, load_config};

/// A mail named on the command line: a saved file, or `-` for standard input.
fn read_mail_arg(mail: &std::path::Path) -> Result<Vec<u8>> {
    if mail.as_os_str() == "-" {
        let mut b = Vec::new();
        std::io::stdin().read_to_end(&mut b)?;
        Ok(b)
    } else {
        std::fs::read(mail).with_context(|| format!("reading {}", mail.display()))
    }
}

/// Runs one command line.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Demo {
            scenario,
            dir,
            max_steps,
        } => {
            init_logging("warn");
            let report = demo::run_demo(&dir, &scenario, max_steps)?;
            print!("{report}");
            Ok(ExitCode::SUCCESS)
        }
        Command::Run { once } => {
            let (cfg, path) = super::guard::writing_config(cli.config, "run")?;
            super::guard::service_user_only(&cfg, &path)?;
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
        Command::Listen { addr } => {
            // Writes only into the data folder's one-click queue, so as the service user.
            let (cfg, path) = super::guard::writing_config(cli.config, "listen")?;
            super::guard::service_user_only(&cfg, &path)?;
            init_logging(&cfg.daemon.log);
            let Some(url) = cfg.web.unsubscribe_url.clone() else {
                bail!(
                    "[web] unsubscribe_url is not set, so no mail carries a one-click URI and \
                     there is nothing to listen for (mails carry the mailto: STOP only; see \
                     docs/club-rules.md L1)"
                );
            };
            let listener = std::net::TcpListener::bind(&addr)
                .with_context(|| format!("listening on {addr}"))?;
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
        Command::New(args) => super::new::new_game(cli.config, args),
        Command::Campaign { action } => super::campaign::campaign(cli.config, action),
        Command::Doctor => super::doctor::doctor(cli.config),
        Command::League {
            league,
            format,
            derive,
            mailed,
        } => match derive.is_empty() {
            true => super::league::print(cli.config, &league, &format),
            false => super::league::derive(&league, &format, &derive, &mailed),
        },
        Command::Ingest { files } => {
            let (cfg, path) = super::guard::writing_config(cli.config, "ingest")?;
            super::guard::service_user_only(&cfg, &path)?;
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
        Command::Status { game } => {
            // Read-only: no Daemon, so no Maildir or data folder is created by looking.
            let cfg = load_config(cli.config)?;
            let data = DataDir::new(&cfg.data_dir);
            let registry = crate::rulesets::registry();
            let game_filter = game.clone();
            let ids = match game {
                Some(g) => vec![g],
                None => data.game_ids()?,
            };
            if ids.is_empty() {
                println!(
                    "No games in {}. Try `despatch demo` or `despatch new`.",
                    data.root.display()
                );
            }
            for id in &ids {
                match data.game(id).open(&registry) {
                    Ok(g) => println!("{}", status_line(g.as_ref())),
                    Err(e) => println!("{id}  cannot be read: {e}"),
                }
            }
            let held = data.held_mail()?;
            for line in super::held::lines(&held, game_filter.as_deref()) {
                println!("{line}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Held { retry, drop } => super::held::run(cli.config, retry, drop),
        Command::Show {
            game,
            seat,
            format,
            out,
        } => {
            let cfg = load_config(cli.config)?;
            let data = DataDir::new(&cfg.data_dir);
            let format: crate::render::Format =
                format.parse().map_err(|e| anyhow!("--format: {e}"))?;
            let store = data.game(&game);
            if !store.exists() {
                bail!("no game `{game}` in {}", data.root.display());
            }
            let g = store.open(&crate::rulesets::registry())?;
            let bytes = show_bytes(g.as_ref(), &seat, format)?;
            match out {
                Some(p) => std::fs::write(&p, bytes).with_context(|| p.display().to_string())?,
                None if matches!(format, crate::render::Format::Png(_))
                    && std::io::stdout().is_terminal() =>
                {
                    bail!("a PNG is not for the terminal: add --out FILE.png")
                }
                None => std::io::Write::write_all(&mut std::io::stdout(), &bytes)?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Archive { game, out } => {
            let (cfg, path) = super::guard::writing_config(cli.config, "archive")?;
            super::guard::service_user_only(&cfg, &path)?;
            init_logging("warn");
            let d = Daemon::new(cfg)?;
            let (dir, n) = d.write_archive(&game, out.as_deref(), None)?;
            println!(
                "{game}: archive written to {} ({n} files); open index.html in a browser.",
                dir.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Gm { action } => {
            let (cfg, path) = super::guard::writing_config(cli.config, "gm")?;
            super::guard::service_user_only(&cfg, &path)?;
            init_logging(&cfg.daemon.log);
            let d = Daemon::new(cfg)?;
            match action {
                GmCommand::Extend {
                    game,
                    hours,
                    reason,
                } => {
                    let deadline =
                        d.gm_extend(&game, hours, reason.as_deref().unwrap_or(""), Utc::now())?;
                    println!(
                        "{game}: the deadline is now {}.",
                        report::fmt_time(deadline, "UTC")
                    );
                }
                GmCommand::Spectator {
                    game,
                    action,
                    address,
                } => {
                    println!(
                        "{}",
                        d.gm_spectator(&game, action == "add", &address, Utc::now())?
                    );
                }
                GmCommand::Unsubscribe { code } => {
                    println!("{}", d.unsubscribe(&code, Utc::now())?);
                }
                GmCommand::CloseStep { game, reason } => {
                    let n = d.gm_close_step(&game, &reason, Utc::now())?;
                    println!("{game}: step closed; {n} step(s) resolved.");
                }
                GmCommand::Abandon { game, reason } => {
                    let step = d.gm_abandon(&game, &reason, Utc::now())?;
                    println!(
                        "{game}: abandoned at step {step} with no result; nothing was resolved. \
                         Every seat and spectator is told."
                    );
                }
                GmCommand::Replace {
                    game,
                    seat,
                    address,
                    reason,
                } => {
                    d.gm_replace(&game, &seat, &address, &reason, Utc::now())?;
                    println!(
                        "{game}: seat {seat} now belongs to {address}; a welcome mail is on its way."
                    );
                }
                GmCommand::Pause { game, reason } => {
                    let left = d.gm_pause(&game, &reason, Utc::now())?;
                    let left = match left {
                        Some(l) if l > chrono::Duration::zero() => {
                            format!("{} min were left", l.num_minutes())
                        }
                        Some(_) => "its deadline had passed".into(),
                        None => "its step has no deadline".into(),
                    };
                    println!("{game}: paused ({left}); every seat is told.");
                }
                GmCommand::Resume { game } => {
                    let (deadline, n) = d.gm_resume(&game, Utc::now())?;
                    match deadline {
                        Some(t) => println!(
                            "{game}: resumed; the deadline is now {}; every seat is told.",
                            report::fmt_time(t, "UTC")
                        ),
                        None => println!("{game}: resumed; every seat is told."),
                    }
                    if n > 0 {
                        println!("{game}: {n} step(s) resolved at once.");
                    }
                }
                GmCommand::Broadcast {
                    game,
                    league,
                    message,
                } => {
                    let b =
                        d.gm_broadcast(game.as_deref(), league.as_deref(), &message, Utc::now())?;
                    println!(
                        "The message went to {} player address(es) of {}.",
                        b.players,
                        b.games.join(", ")
                    );
                    if !b.skipped.is_empty() {
                        println!("Not sent to: {}.", b.skipped.join("; "));
                    }
                }
                GmCommand::Address { address } => {
                    let Some(a) = address.or_else(|| d.cfg.mail.gm_address.clone()) else {
                        anyhow::bail!(
                            "no address given and no mail.gm_address in the config: name the organiser's address"
                        );
                    };
                    let a: crate::config::address::Mailbox =
                        a.parse().map_err(|e| anyhow::anyhow!("`{a}`: {e}"))?;
                    println!(
                        "The desk of {} (keep it private; only mail from that address is read):
{}",
                        a.address,
                        d.desk_address(&a.address)?
                    );
                }
                GmCommand::RefuseAbsence { game, seat, reason } => {
                    d.gm_refuse_absence(&game, &seat, &reason, Utc::now())?;
                    println!("{game}: {seat}'s absence is refused; every seat is told.");
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Player { action } => match action {
            PlayerCommand::Init {
                game,
                seat,
                dir,
                len,
            } => {
                let line = super::player::init(&dir, &game, &seat, len)?;
                println!(
                    "Your secret is in {} (keep it; never send it). Send this line to the \
                     organiser when joining {game}:\n{line}",
                    dir.display()
                );
                Ok(ExitCode::SUCCESS)
            }
            PlayerCommand::Trust { dir, mail } => {
                let bytes = read_mail_arg(&mail)?;
                println!(
                    "{}",
                    super::player::trust(&dir, &bytes, chrono::Utc::now())?
                );
                Ok(ExitCode::SUCCESS)
            }
            PlayerCommand::Check { dir, mails } => {
                let r = super::player::check(&dir, &mails)?;
                if r.problems.is_empty() {
                    println!(
                        "OK: {} results mail(s) read; each of the {} reveal(s) of yours they \
                         show is the one your tool gave.",
                        r.mails, r.matched
                    );
                    Ok(ExitCode::SUCCESS)
                } else {
                    println!("FAILED: the game's results do not match your record of reveals");
                    for p in &r.problems {
                        println!("  {p}");
                    }
                    Ok(ExitCode::from(1))
                }
            }
            PlayerCommand::Reveal { dir, mail } => {
                let bytes = read_mail_arg(&mail)?;
                let (line, note) = super::player::reveal_at(&dir, &bytes, chrono::Utc::now())?;
                if let Some(note) = note {
                    eprintln!("{note}");
                }
                println!("{line}");
                Ok(ExitCode::SUCCESS)
            }
        },
        Command::Verify { compare, .. } if !compare.is_empty() => {
            let (checked, findings) = verify::compare_folders(&compare);
            if findings.is_empty() {
                println!(
                    "OK: {} folders show one game: every anchor line, result and log head they \
                     share is the same.",
                    compare.len()
                );
                for (d, c) in compare.iter().zip(&checked) {
                    println!(
                        "  {}: {} mails, {} signatures, {} steps, {} rolls re-derived.",
                        d.display(),
                        c.mails,
                        c.signatures,
                        c.steps,
                        c.rolls
                    );
                }
                Ok(ExitCode::SUCCESS)
            } else {
                println!("FAILED: the folders do not show one game");
                for f in &findings {
                    println!("  {f}");
                }
                Ok(ExitCode::from(1))
            }
        }
        Command::Verify { target, .. } => {
            let target = target.unwrap_or_default();
            let path = PathBuf::from(&target);
            let registry = crate::rulesets::registry();
            let (label, checked, findings) = if path.join("journal.jsonl").exists() {
                let store = GameStore {
                    id: path
                        .file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned(),
                    dir: path.clone(),
                };
                let (c, f) = verify::verify_store(&store, &registry);
                (format!("game store {}", path.display()), c, f)
            } else if path.is_dir() {
                let (c, f) = verify::verify_mails(&path, None);
                if c.mails == 0 {
                    bail!(
                        "{}: no journal.jsonl and no Despatch mails in it",
                        path.display()
                    );
                }
                (format!("mails in {}", path.display()), c, f)
            } else {
                let cfg = load_config(cli.config)?;
                let store = crate::store::DataDir::new(&cfg.data_dir).game(&target);
                if !store.exists() {
                    bail!(
                        "`{target}` is neither a game in {} nor a folder",
                        cfg.data_dir.display()
                    );
                }
                let (c, f) = verify::verify_store(&store, &registry);
                (format!("game `{target}`"), c, f)
            };
            if findings.is_empty() {
                println!(
                    "OK: {label}: {} events, {} steps, {} rolls re-derived, {} mails checked.",
                    checked.events, checked.steps, checked.rolls, checked.mails
                );
                if checked.digests > 0 {
                    println!(
                        "  {} receipt(s) opened their own orders digest with their salt.",
                        checked.digests
                    );
                }
                if checked.signatures > 0 {
                    println!(
                        "  {} mail signature(s) verified under the game's key K from the welcome.",
                        checked.signatures
                    );
                }
                if checked.bound_reveals > 0 {
                    println!(
                        "  {} strict reveal(s) bound to their lock checked against the seats' \
                         opened onions.",
                        checked.bound_reveals
                    );
                }
                if !checked.unopened.is_empty() {
                    println!(
                        "  NOTE: {} did not open (yet) the onion behind their bound strict \
                         reveals: those reveals are not checked (ruling S11).",
                        checked.unopened.join(", ")
                    );
                }
                if checked.replayed_mails > 0 {
                    println!(
                        "  The game-over mail's journal replayed the whole game; {} mail(s) \
                         matched it (log head, subject, log and positions).",
                        checked.replayed_mails
                    );
                } else if checked.mails > 0 && label.starts_with("mails") {
                    println!(
                        "  No game-over mail with the journal in the folder: the mails' dice \
                         and seals were checked, not their story (that needs the game's end)."
                    );
                }
                Ok(ExitCode::SUCCESS)
            } else {
                println!("FAILED: {label}");
                for f in &findings {
                    println!("  {f}");
                }
                Ok(ExitCode::from(1))
            }
        }
    }
}

fn status_line(g: &dyn Play) -> String {
    let b = g.book();
    if let Some(o) = g.outcome() {
        return format!(
            "{}  [{}]  over after step {}: {}",
            b.id,
            g.ruleset(),
            b.step - 1,
            o.summary
        );
    }
    let waiting = g.waiting_for();
    format!(
        "{}  [{}]  step {}: {}  — waiting for {}{}",
        b.id,
        g.ruleset(),
        b.step,
        g.spec().title,
        if waiting.is_empty() {
            "nobody".into()
        } else {
            waiting.join(", ")
        },
        b.deadline
            .map(|d| format!("; deadline {}", report::fmt_time(d, "UTC")))
            .unwrap_or_default()
    )
}

fn show_bytes(g: &dyn Play, seat: &str, format: crate::render::Format) -> Result<Vec<u8>> {
    let b = g.book();
    let viewer = if seat == "spectator" {
        Viewer::Spectator
    } else {
        if !b.seats.iter().any(|s| s.seat == seat) {
            bail!(
                "no seat `{seat}` in {} (seats: {}, or spectator)",
                b.id,
                b.seat_ids().join(", ")
            );
        }
        Viewer::Seat(seat.to_string())
    };
    Ok(crate::render::show(&g.view(&viewer), format)?)
}
