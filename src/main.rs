//! The binary edge: parses arguments, sets up logging, calls the library, maps errors to exit codes.

use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};
use chrono::Utc;
use clap::{Parser, Subcommand};

use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake, ruleset_of};
use despatch::dispatch;
use despatch::engine::{Game, Ruleset, Viewer};
use despatch::{demo, verify};

/// Despatch runs tabletop wargames by email, with dice nobody can fix.
///
/// Start with `despatch demo`: it plays a whole Naval game through the real mail pipeline on
/// local Maildirs and tells you where to look. Then `despatch new` a game of your own.
#[derive(Parser)]
#[command(name = "despatch", version, about, long_about)]
struct Cli {
    /// Configuration file (default: ./config.toml, or the built-in default if there is none).
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a scripted Naval RJW game through the real pipeline on local Maildirs, then say where
    /// the mails and the game store are and how to verify them.
    Demo {
        /// Scenario to play (games/naval-rjw/scenarios/<name>.toml).
        #[arg(long, default_value = "yellow-sea-1904")]
        scenario: String,
        /// Where the demo keeps everything (wiped first).
        #[arg(long, default_value = "var/demo", value_name = "DIR")]
        dir: PathBuf,
        /// Stop after this many steps even if nobody has won.
        #[arg(long, default_value_t = 400)]
        max_steps: u64,
    },
    /// The daemon: read the inbox, resolve what is ready, send mail, watch deadlines.
    Run {
        /// Process what is waiting once, then exit.
        #[arg(long)]
        once: bool,
    },
    /// Create a game from a shipped scenario and mail every seat its welcome.
    New {
        /// Game id: a–z, 0–9 and `-` (it appears in subjects and reply addresses).
        game: String,
        /// Ruleset folder under games/ (e.g. naval-rjw).
        #[arg(long)]
        ruleset: String,
        /// Scenario name under games/<ruleset>/scenarios/ (without .toml).
        #[arg(long)]
        scenario: String,
        /// A seat and its player's address, e.g. --seat japan=togo@example.org (repeat per seat,
        /// in the scenario's side order).
        #[arg(long = "seat", value_name = "SEAT=ADDRESS", required = true)]
        seats: Vec<String>,
    },
    /// Process raw RFC 5322 messages (files, or - for standard input) exactly as the daemon does.
    Ingest {
        #[arg(required = true, value_name = "FILE.eml|-")]
        files: Vec<PathBuf>,
    },
    /// Show every game, or one game's step, who is awaited and the deadline.
    Status { game: Option<String> },
    /// Show a game as one seat sees it.
    Show {
        game: String,
        /// The seat whose view to show (or `spectator`).
        #[arg(long = "as", value_name = "SEAT")]
        seat: String,
        /// text, svg, or png (800 px wide, as in the results mails).
        #[arg(long, default_value = "text", value_parser = ["text", "svg", "png"])]
        format: String,
        /// Write to a file instead of standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Organiser actions on a game, each logged and announced to every seat.
    Gm {
        #[command(subcommand)]
        action: GmCommand,
    },
    /// Check a game store (by game id or folder) or a folder of received mails: the log chain,
    /// the onion, the locks and every roll. Exit 0 only if everything checks out.
    Verify {
        #[arg(value_name = "GAME-OR-FOLDER")]
        target: String,
    },
}

#[derive(Subcommand)]
enum GmCommand {
    /// Move the open step's deadline by some hours (negative to shorten).
    Extend {
        game: String,
        #[arg(long, allow_hyphen_values = true)]
        hours: i64,
        #[arg(long, default_value = "extended by the organiser")]
        reason: String,
    },
    /// Lock the open step now: seats that have not answered are recorded as no move received.
    /// This is how a game whose silence policy is `wait_for_gm` goes on.
    CloseStep {
        game: String,
        #[arg(long, default_value = "closed by the organiser")]
        reason: String,
    },
    /// Hand a seat to a new player (a new secret is made; the old reply address stops working).
    Replace {
        game: String,
        #[arg(long)]
        seat: String,
        #[arg(long)]
        address: String,
        #[arg(long, default_value = "the previous player left")]
        reason: String,
    },
}

fn load_config(path: Option<PathBuf>) -> Result<Config> {
    match path {
        Some(p) => Ok(Config::load(&p)?),
        None => {
            let p = PathBuf::from("config.toml");
            if p.exists() {
                Ok(Config::load(&p)?)
            } else {
                Ok(Config::parse(
                    DEFAULT_CONFIG,
                    &std::env::current_dir()?.join("config.toml"),
                )?)
            }
        }
    }
}

fn init_logging(filter: &str) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_env("DESPATCH_LOG").unwrap_or_else(|_| EnvFilter::new(filter));
    // One line per event, no colour codes when journald (not a terminal) reads it.
    use std::io::IsTerminal;
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false)
        .try_init();
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("despatch: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
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
            let cfg = load_config(cli.config)?;
            init_logging(&cfg.daemon.log);
            let poll = cfg.daemon.poll_seconds;
            let d = Daemon::new(cfg)?;
            // Held for the daemon's life: a second `despatch run` on this data stops here.
            let _daemon = d.data.daemon_lock()?;
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
        Command::New {
            game,
            ruleset,
            scenario,
            seats,
        } => {
            let cfg = load_config(cli.config)?;
            init_logging(&cfg.daemon.log);
            let pairs = seats
                .iter()
                .map(|s| {
                    s.split_once('=')
                        .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
                        .ok_or_else(|| anyhow!("--seat {s}: write SEAT=ADDRESS"))
                })
                .collect::<Result<Vec<_>>>()?;
            let d = Daemon::new(cfg)?;
            {
                let _lock = d.data.lock()?;
                d.create_game(&game, &ruleset, &scenario, &pairs, Utc::now())?;
            }
            let n = d.deliver()?;
            println!(
                "Game `{game}` created; {n} welcome mail(s) in {}.",
                d.cfg.mail.outbox.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Ingest { files } => {
            let cfg = load_config(cli.config)?;
            init_logging(&cfg.daemon.log);
            let d = Daemon::new(cfg)?;
            let mut worst = ExitCode::SUCCESS;
            for f in files {
                let raw = if f.as_os_str() == "-" {
                    let mut b = Vec::new();
                    std::io::stdin().read_to_end(&mut b)?;
                    b
                } else {
                    std::fs::read(&f).with_context(|| f.display().to_string())?
                };
                let out = d.ingest(&raw, Utc::now())?;
                println!("{}: {}", f.display(), describe_intake(&out));
                if matches!(out, Intake::Unreadable(_)) {
                    worst = ExitCode::from(1);
                }
            }
            Ok(worst)
        }
        Command::Status { game } => {
            let cfg = load_config(cli.config)?;
            let d = Daemon::new(cfg)?;
            let ids = match game {
                Some(g) => vec![g],
                None => d.data.game_ids()?,
            };
            if ids.is_empty() {
                println!(
                    "No games in {}. Try `despatch demo` or `despatch new`.",
                    d.data.root.display()
                );
            }
            for id in ids {
                let store = d.data.game(&id);
                let ruleset = ruleset_of(&store)?;
                let line = dispatch!(ruleset, R => status_line::<R>(&store))?;
                println!("{line}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Show {
            game,
            seat,
            format,
            out,
        } => {
            let cfg = load_config(cli.config)?;
            let d = Daemon::new(cfg)?;
            let store = d.data.game(&game);
            let ruleset = ruleset_of(&store)?;
            let format: despatch::render::Format =
                format.parse().map_err(|e| anyhow!("--format: {e}"))?;
            let bytes = dispatch!(ruleset, R => show_bytes::<R>(&store, &seat, format))?;
            match out {
                Some(p) => std::fs::write(&p, bytes).with_context(|| p.display().to_string())?,
                None if matches!(format, despatch::render::Format::Png(_))
                    && std::io::stdout().is_terminal() =>
                {
                    bail!("a PNG is not for the terminal: add --out FILE.png")
                }
                None => std::io::Write::write_all(&mut std::io::stdout(), &bytes)?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Gm { action } => {
            let cfg = load_config(cli.config)?;
            init_logging(&cfg.daemon.log);
            let d = Daemon::new(cfg)?;
            match action {
                GmCommand::Extend {
                    game,
                    hours,
                    reason,
                } => {
                    let deadline = d.gm_extend(&game, hours, &reason, Utc::now())?;
                    println!(
                        "{game}: the deadline is now {}.",
                        despatch::daemon::fmt_time(deadline, "UTC")
                    );
                }
                GmCommand::CloseStep { game, reason } => {
                    let n = d.gm_close_step(&game, &reason, Utc::now())?;
                    println!("{game}: step closed; {n} step(s) resolved.");
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
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Verify { target } => {
            let path = PathBuf::from(&target);
            let (label, checked, findings) = if path.join("journal.jsonl").exists() {
                let store = despatch::store::GameStore {
                    id: path
                        .file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned(),
                    dir: path.clone(),
                };
                let ruleset = ruleset_of(&store)?;
                let (c, f) = dispatch!(ruleset, R => Ok::<_, anyhow::Error>(verify::verify_store::<R>(&store)))?;
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
                let store = despatch::store::DataDir::new(&cfg.data_dir).game(&target);
                if !store.exists() {
                    bail!(
                        "`{target}` is neither a game in {} nor a folder",
                        cfg.data_dir.display()
                    );
                }
                let ruleset = ruleset_of(&store)?;
                let (c, f) = dispatch!(ruleset, R => Ok::<_, anyhow::Error>(verify::verify_store::<R>(&store)))?;
                (format!("game `{target}`"), c, f)
            };
            if findings.is_empty() {
                println!(
                    "OK: {label}: {} events, {} steps, {} rolls re-derived, {} mails checked.",
                    checked.events, checked.steps, checked.rolls, checked.mails
                );
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

fn describe_intake(i: &Intake) -> String {
    match i {
        Intake::Accepted { game, seat, step } => format!("accepted: {game}, {seat}, step {step}"),
        Intake::Rejected { game, seat, lines } => {
            format!("rejected: {game}, {seat}, {lines} problem(s); the reply lists them")
        }
        Intake::Help { game, seat } => format!("help sent: {game}, {seat}"),
        Intake::Duplicate => "already processed; nothing done".into(),
        Intake::Automated(why) => format!("automated mail ignored ({why})"),
        Intake::Unknown(why) => format!("ignored, no reply ({why})"),
        Intake::Unauthenticated { game, seat } => {
            format!(
                "not applied: no valid secret for {game}/{seat}; the registered player was told"
            )
        }
        Intake::Unreadable(why) => format!("set aside: {why}"),
        Intake::RateLimited => {
            "set aside unanswered: the sender sent too many mails this hour".into()
        }
    }
}

fn status_line<R: Ruleset>(store: &despatch::store::GameStore) -> Result<String> {
    let g: Game<R> = store.load()?;
    if let Some(o) = g.outcome() {
        return Ok(format!(
            "{}  [{}]  over after step {}: {}",
            g.id,
            R::NAME,
            g.step - 1,
            o.summary
        ));
    }
    let spec = g.spec();
    let waiting = g.waiting_for();
    Ok(format!(
        "{}  [{}]  step {}: {}  — waiting for {}{}",
        g.id,
        R::NAME,
        g.step,
        spec.title,
        if waiting.is_empty() {
            "nobody".into()
        } else {
            waiting.join(", ")
        },
        g.deadline
            .map(|d| format!("; deadline {}", despatch::daemon::fmt_time(d, "UTC")))
            .unwrap_or_default()
    ))
}

fn show_bytes<R: Ruleset>(
    store: &despatch::store::GameStore,
    seat: &str,
    format: despatch::render::Format,
) -> Result<Vec<u8>> {
    let g: Game<R> = store.load()?;
    let viewer = if seat == "spectator" {
        Viewer::Spectator
    } else {
        if !g.seats.iter().any(|s| s.seat == seat) {
            bail!(
                "no seat `{seat}` in {} (seats: {}, or spectator)",
                g.id,
                g.seat_ids().join(", ")
            );
        }
        Viewer::Seat(seat.to_string())
    };
    Ok(despatch::render::show(&R::view(&g.state, &viewer), format)?)
}
