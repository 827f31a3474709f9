//! What `despatch new` may add to a plain game (issue 16 point 7, issue 27 point 4): the league
//! it counts in, for a campaign the finished game whose survivors it carries, and the game's
//! own organiser. The carrying itself is the ruleset's (`Ruleset::carry`); here the shell opens
//! the finished game and hands its state and the next scenario's text over, and the carried
//! text is what the new game journals.
//!
//! `plan` does every check a new game needs (ruleset, scenario, seats and addresses, organiser,
//! league, campaign, a free id) and writes nothing, so `despatch new` can refuse before it makes
//! a single folder; creating is then `Daemon::create_game_full`.

use std::path::PathBuf;

use anyhow::{Context, Result, anyhow, bail};
use chrono::{DateTime, Utc};

use crate::config::Config;
use crate::config::address::Mailbox;
use crate::dice::GameSecrets;
use crate::engine::campaign_plan::{self, CampaignLink, Plan};
use crate::engine::registry::Entry;
use crate::engine::{CarryRefused, Creation, Event, Play, Registry};
use crate::store::{DataDir, SeatPrivate, SeatsFile};

/// The extras of a new game; the default is a plain game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NewGame {
    /// The league the game counts in (same characters as a game id).
    pub league: Option<String>,
    /// A finished game of the same ruleset whose sides' losses the new scenario takes over.
    pub carry_from: Option<String>,
    /// The game's organiser (`--gm`), who hears of its trouble, resignations and `PRESS TO
    /// gm`; `mail.gm_address` when not given.
    pub gm: Option<String>,
    /// A battle of a host's campaign (`despatch campaign`): the link the game journals and
    /// the note its scenario gains. With `carry_from`, the carry uses the plan's terms.
    pub campaign: Option<CampaignStart>,
}

/// What makes a new game a campaign's battle (`engine::campaign_plan::battle_scenario`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CampaignStart {
    /// Its `base` is replaced by the scenario file as read when the game is planned.
    pub link: CampaignLink,
    pub note: String,
}

/// What a new game will be, all checked: its first event and its private seats file.
pub(super) struct Planned {
    pub event: Event,
    pub seats: SeatsFile,
}

/// Everything `despatch new` would do, checked without writing: refuses a bad game id, an
/// unknown ruleset or scenario, seats the scenario does not have, an address that cannot be
/// mailed, a bad `--gm` or `--league`, a `--carry-from` game that is not a finished game of
/// the ruleset, and an id already taken.
pub fn check_new_game(
    cfg: &Config,
    registry: &Registry,
    id: &str,
    ruleset: &str,
    scenario: &str,
    seats: &[(String, String)],
    extras: &NewGame,
) -> Result<()> {
    // Throw-away secrets: only the checks matter here. A short onion keeps this cheap.
    let secrets = GameSecrets::pinned(id, [0; 32], [0; 32], 1);
    let tokens = vec![String::new(); seats.len()];
    let data = DataDir::new(&cfg.data_dir);
    let req = Request {
        id,
        ruleset,
        scenario,
        seats,
        tokens: &tokens,
        extras,
        pace: None,
    };
    plan(cfg, &data, registry, &req, Utc::now(), &secrets).map(|_| ())
}

/// A new game as asked for.
pub(super) struct Request<'a> {
    pub id: &'a str,
    pub ruleset: &'a str,
    pub scenario: &'a str,
    pub seats: &'a [(String, String)],
    pub tokens: &'a [String],
    pub extras: &'a NewGame,
    /// Hours every step lasts, as the lobby's `OPEN … PACE` asked (lobby ruling G3); the
    /// club's policy when None.
    pub pace: Option<u32>,
}

/// The checks of `check_new_game`, giving what `create_game_full` stores. Reads the games
/// folder and, for a campaign, the finished game; writes nothing.
pub(super) fn plan(
    cfg: &Config,
    data: &DataDir,
    registry: &Registry,
    req: &Request<'_>,
    now: DateTime<Utc>,
    secrets: &GameSecrets,
) -> Result<Planned> {
    let (id, ruleset, scenario, extras) = (req.id, req.ruleset, req.scenario, req.extras);
    if req.tokens.len() != req.seats.len() {
        bail!("{} seats but {} secrets", req.seats.len(), req.tokens.len());
    }
    if !crate::engine::valid_game_id(id) {
        bail!(
            "game id `{id}`: use 1–40 characters a–z, 0–9 and `-`, starting with a letter \
             (it appears in subjects and reply addresses)"
        );
    }
    let (entry, dir, ruleset_toml, scenario_toml) = rulebook(cfg, registry, ruleset, scenario)?;
    not_taken(data, id, extras)?;
    let gm = match &extras.gm {
        Some(gm) => Some(
            gm.parse::<Mailbox>()
                .map_err(|e| anyhow!("--gm: {e}"))?
                .address,
        ),
        None => None,
    };
    // Campaigns: the scenario as the finished game left the sides is what is journaled.
    let mut link = None;
    let scenario_toml = match &extras.campaign {
        None => carried_scenario(data, registry, extras, ruleset, scenario_toml)?,
        Some(start) => {
            let before = finished_battle(data, registry, extras, ruleset)?;
            let plan =
                Plan::parse(&start.link.plan).map_err(|e| anyhow!("the campaign's plan: {e}"))?;
            let l = CampaignLink {
                base: scenario_toml,
                ..start.link.clone()
            };
            let text = campaign_plan::battle_scenario(&l, &plan, before.as_deref(), &start.note)
                .map_err(|e| anyhow!("campaign {}, battle {}: {e}", l.name, l.key))?;
            link = Some(Box::new(l));
            text
        }
    };
    let mut policy = cfg.games.policy.clone();
    policy.club.league = extras.league.clone();
    policy.club.campaign = link;
    if let Some(h) = req.pace {
        // One pace for every step: the opener asked for it, and the per-kind hours of the
        // club's policy would otherwise stretch or cut it unseen.
        policy.step_hours = h;
        policy.hours_by_kind.clear();
    }
    let seat_ids: Vec<String> = req.seats.iter().map(|(s, _)| s.clone()).collect();
    let event = entry
        .create(&Creation {
            game: id,
            scenario,
            ruleset_toml: &ruleset_toml,
            scenario_toml: &scenario_toml,
            seats: &seat_ids,
            protocol: secrets.protocol(),
            anchor: secrets.onion.anchor(),
            onion_len: secrets.onion.len(),
            salt_commitment: secrets.salt_commitment(id),
            mail_key: secrets.mail_key.map(|k| k.public()),
            policy,
            now,
        })
        // Name the folder read: with an installed copy of another version beside the
        // checkout, "missing field" alone does not say which ruleset.toml is wrong.
        .map_err(|e| anyhow!("{ruleset} `{scenario}`, read from {}: {e}", dir.display()))?;
    if let Some(league) = &extras.league {
        // The league's file is read (not made) here: a broken one stops `new` before any write.
        super::league_file(data, league)?;
    }
    // Every address is checked before anything is stored, so a stored one can be mailed.
    let file = seats_file(cfg, req, gm)?;
    Ok(Planned { event, seats: file })
}

/// The ruleset's entry, its folder, and the texts of its `ruleset.toml` and of the scenario.
fn rulebook<'r>(
    cfg: &Config,
    registry: &'r Registry,
    ruleset: &str,
    scenario: &str,
) -> Result<(&'r Entry, PathBuf, String, String)> {
    let entry = registry.get(ruleset)?;
    let dir = cfg.ruleset_dir(ruleset).map_err(|e| anyhow!(e))?;
    let ruleset_toml = std::fs::read_to_string(dir.join("ruleset.toml")).with_context(|| {
        format!(
            "ruleset `{ruleset}`: {}",
            dir.join("ruleset.toml").display()
        )
    })?;
    let scen_path = dir.join("scenarios").join(format!("{scenario}.toml"));
    let scenario_toml = std::fs::read_to_string(&scen_path).with_context(|| {
        format!(
            "scenario `{scenario}`: {} (available: {})",
            scen_path.display(),
            list_scenarios(&dir).join(", ")
        )
    })?;
    Ok((entry, dir, ruleset_toml, scenario_toml))
}

/// The id is free: no game has it, and `<campaign>-<n>` belongs to the campaign's battles.
fn not_taken(data: &DataDir, id: &str, extras: &NewGame) -> Result<()> {
    let store = data.game(id);
    if store.exists() {
        bail!("game `{id}` already exists in {}", store.dir.display());
    }
    if extras.campaign.is_none()
        && let Some((c, n)) = id.rsplit_once('-')
        && n.parse::<u32>().is_ok()
        && data.campaign(c).ok().flatten().is_some()
    {
        bail!("game id `{id}` is kept for the battles of campaign `{c}`: choose another");
    }
    Ok(())
}

/// The private seats file of the new game: each seat's address checked, its secret, the
/// house's time zone and notices; the organiser's address, if any.
fn seats_file(cfg: &Config, req: &Request<'_>, gm: Option<String>) -> Result<SeatsFile> {
    let mut file = SeatsFile {
        gm,
        ..SeatsFile::default()
    };
    for ((seat, address), token) in req.seats.iter().zip(req.tokens) {
        let mailbox: Mailbox = address.parse().map_err(|e| anyhow!("seat {seat}: {e}"))?;
        file.seats.insert(
            seat.clone(),
            SeatPrivate {
                address: mailbox.address,
                name: mailbox.name,
                token: token.clone(),
                time_zone: cfg.games.time_zone.clone(),
                also_from: vec![],
                notify: cfg.games.notify,
            },
        );
    }
    Ok(file)
}

/// The scenario the new game is set up from: `scenario_toml` itself, or for a campaign the
/// same scenario as the finished game `extras.carry_from` leaves the sides.
fn carried_scenario(
    data: &DataDir,
    registry: &Registry,
    extras: &NewGame,
    ruleset: &str,
    scenario_toml: String,
) -> Result<String> {
    let Some(finished) = finished_battle(data, registry, extras, ruleset)? else {
        return Ok(scenario_toml);
    };
    finished
        .carry_into(&scenario_toml, &toml::Table::new())
        .map_err(|e| anyhow!("--carry-from {}: {e}", finished.book().id))
}

/// The finished game `extras.carry_from` names, checked: a game of the same ruleset, over, not
/// abandoned, and one whose ruleset carries. `None` when the new game carries from nothing.
fn finished_battle(
    data: &DataDir,
    registry: &Registry,
    extras: &NewGame,
    ruleset: &str,
) -> Result<Option<Box<dyn Play>>> {
    let Some(from) = &extras.carry_from else {
        return Ok(None);
    };
    let store = data.game(from);
    if !crate::engine::valid_game_id(from) || !store.exists() {
        bail!(
            "--carry-from {from}: no game `{from}` in {}",
            data.root.display()
        );
    }
    let finished = store.open(registry)?;
    if finished.ruleset() != ruleset {
        bail!(
            "--carry-from {from}: that game is {}, not {ruleset}; a campaign stays in one ruleset",
            finished.ruleset()
        );
    }
    // Asked first, so a ruleset without campaigns says so whatever the game's state.
    if let Err(e @ CarryRefused::NotCarried(_)) = finished.carry_into("", &toml::Table::new()) {
        bail!("--carry-from {from}: {e}");
    }
    if !finished.is_over() {
        bail!(
            "--carry-from {from}: that game is still running (step {}); a campaign carries \
             what a finished battle left",
            finished.book().step
        );
    }
    if let Some(a) = &finished.book().club.abandoned {
        // No result, so nothing to carry: the campaign stops at an abandoned battle (club
        // ruling O1).
        bail!(
            "--carry-from {from}: that game was abandoned by the organiser at step {} with no \
             result ({}); a campaign carries what a finished battle left, and an abandoned \
             battle left none, so the campaign stops there",
            a.step,
            a.reason
        );
    }
    Ok(Some(finished))
}

fn list_scenarios(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir.join("scenarios"))
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| {
                    let p = e.path();
                    if p.extension()? != "toml" {
                        return None;
                    }
                    Some(p.file_stem()?.to_string_lossy().into_owned())
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}
