//! `despatch campaign`: declaring a campaign (checked whole before anything is made; a failed
//! run leaves nothing behind), showing where one stands, and re-deriving one from its
//! battles' journals alone (which reads no data folder, so anyone holding the archives can).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, anyhow};
use chrono::Utc;

use crate::daemon::{CampaignNew, Daemon, PlanSource};

use super::args::{CampaignCommand, CampaignNewArgs};

pub(super) fn campaign(config: Option<PathBuf>, action: CampaignCommand) -> Result<ExitCode> {
    match action {
        CampaignCommand::New(a) => new(config, a),
        CampaignCommand::Show { name } => {
            let cfg = super::setup::load_config(config)?;
            let d = Daemon::new(cfg)?;
            let (rec, ledger) = d.campaign_ledger(&name)?;
            println!("{}", ledger.text(&name));
            println!(
                "Ruleset {}; battles: {}.",
                rec.ruleset,
                rec.games.join(", ")
            );
            Ok(ExitCode::SUCCESS)
        }
        CampaignCommand::Derive { name, dirs } => {
            match crate::daemon::derive_campaign(&crate::rulesets::registry(), &name, &dirs) {
                Ok(d) => {
                    for c in &d.checks {
                        println!("ok: {c}");
                    }
                    println!("\n{}", d.ledger.text(&name));
                    eprintln!(
                        "Re-derived from {} journal(s): every carry agrees.",
                        dirs.len()
                    );
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) if e.downcast_ref::<crate::daemon::CampaignDiffers>().is_some() => {
                    eprintln!("DIFFERENT: {e:#}");
                    Ok(ExitCode::from(1))
                }
                Err(e) => Err(e),
            }
        }
    }
}

fn new(config: Option<PathBuf>, a: CampaignNewArgs) -> Result<ExitCode> {
    let pair = |s: &String, what: &str| {
        s.split_once('=')
            .map(|(x, y)| (x.trim().to_string(), y.trim().to_string()))
            .ok_or_else(|| {
                anyhow!(
                    "{what} {s}: write {}",
                    if what == "--seat" {
                        "SEAT=ADDRESS"
                    } else {
                        "TERM=VALUE"
                    }
                )
            })
    };
    let seats = a
        .seats
        .iter()
        .map(|s| pair(s, "--seat"))
        .collect::<Result<Vec<_>>>()?;
    let plan = match a.plan {
        Some(p) => PlanSource::Shipped(p),
        None => {
            let mut terms = toml::Table::new();
            for c in &a.carry {
                let (k, v) = pair(c, "--carry")?;
                // A TOML value (true, 2, "x"); a bare word is taken as a string.
                let value = format!("v = {v}")
                    .parse::<toml::Table>()
                    .ok()
                    .and_then(|mut t| t.remove("v"))
                    .unwrap_or(toml::Value::String(v));
                terms.insert(k, value);
            }
            PlanSource::Scenarios(a.scenarios, terms)
        }
    };
    let (cfg, config_path) = super::guard::writing_config(config, "campaign new")?;
    super::guard::service_user_only(&cfg, &config_path)?;
    super::setup::init_logging(&cfg.daemon.log);
    let first = crate::daemon::battle_id(&a.name, 1);
    let made = super::new::Made::before(&cfg, &first);
    let campaign_dir = crate::store::DataDir::new(&cfg.data_dir)
        .campaigns_dir()
        .join(&a.name);
    let fresh = !campaign_dir.exists();
    let req = CampaignNew {
        name: a.name.clone(),
        ruleset: a.ruleset,
        plan,
        seats,
        league: a.league,
        gm: a.gm,
    };
    let created = (|| -> Result<Daemon> {
        let d = Daemon::new(cfg)?;
        let _lock = d.data.lock()?;
        d.create_campaign(&req, Utc::now())?;
        drop(_lock);
        Ok(d)
    })();
    let d = match created {
        Ok(d) => d,
        Err(e) => {
            if fresh && campaign_dir.exists() {
                let _ = std::fs::remove_dir_all(&campaign_dir);
            }
            made.undo();
            return Err(e);
        }
    };
    let n = {
        let _lock = d.data.lock()?;
        d.deliver()?
    };
    println!(
        "Campaign `{}` created; its first battle is game `{first}`; {n} welcome mail(s) in {}.",
        a.name,
        d.cfg.mail.outbox.display()
    );
    Ok(ExitCode::SUCCESS)
}
