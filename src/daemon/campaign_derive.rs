//! Re-deriving a campaign from its battles' journals alone (issue 34 point 3, ruling C8):
//! `despatch campaign derive`. Reads only the folders it is given (never the data folder), so
//! anyone holding the battles' archives can run it; decides nothing the engine does not.

use anyhow::{Context, Result, anyhow, bail};

use crate::engine::campaign_plan::{self, CampaignLink, Fought, Ledger, Plan};
use crate::engine::{Event, Play, Registry};

use super::campaigns::{fought_of, sides_of};

/// What `despatch campaign NAME --derive` found: the ledger and one line per check.
#[derive(Debug)]
pub struct Derived {
    pub ledger: Ledger,
    pub checks: Vec<String>,
}

/// Re-derives campaign `name` from its battles' journals alone (each `dir` a game's store or
/// archive folder holding `journal.jsonl`): every battle replays, names the campaign, follows
/// the one before as the plan says, and was set up from exactly the scenario its base,
/// the finished battle before it and the plan's carry terms give; the ledger follows.
pub fn derive_campaign(
    registry: &Registry,
    name: &str,
    dirs: &[std::path::PathBuf],
) -> Result<Derived> {
    let mut battles: Vec<(CampaignLink, Box<dyn Play>, String)> = vec![];
    for dir in dirs {
        battles.push(read_battle(registry, name, dir)?);
    }
    if battles.is_empty() {
        bail!("no battle given");
    }
    battles.sort_by_key(|(l, _, _)| l.battle);
    let plan_text = battles[0].0.plan.clone();
    let plan = Plan::parse(&plan_text).map_err(|e| anyhow!("the plan journaled: {e}"))?;
    let sides = sides_of(battles[0].1.as_ref());
    let mut checks = vec![];
    let mut fought: Vec<Fought> = vec![];
    for (i, (link, play, scenario)) in battles.iter().enumerate() {
        let id = &play.book().id;
        if link.battle as usize != i + 1 {
            return Err(differs(format!(
                "battle {} is missing (game {id} is battle {})",
                i + 1,
                link.battle
            )));
        }
        if link.plan != plan_text {
            return Err(differs(format!(
                "game {id} journals another plan than battle 1"
            )));
        }
        let before = campaign_plan::ledger(&plan, &sides, &fought).map_err(|e| differs(e.0))?;
        let prev = if i == 0 {
            None
        } else {
            Some(battles[i - 1].1.as_ref())
        };
        if link.after.as_deref() != prev.map(|p| p.book().id.as_str()) {
            return Err(differs(format!(
                "game {id} says it follows {:?}, but battle {i} is another game",
                link.after
            )));
        }
        let note = campaign_plan::welcome_note(name, &plan, link.battle, &link.key, &before);
        let expected =
            campaign_plan::battle_scenario(link, &plan, prev, &note).map_err(|e| anyhow!("{e}"))?;
        if expected != *scenario {
            return Err(differs(format!(
                "game {id}: the scenario it was set up from is not what battle {} and the plan's \
                 carry terms give",
                i
            )));
        }
        checks.push(match prev {
            Some(p) => format!(
                "battle {} ({}, game {id}): set up from exactly what game {} left under the \
                 plan's carry terms",
                link.battle,
                link.key,
                p.book().id
            ),
            None => format!(
                "battle {} ({}, game {id}): set up from the shipped scenario and the \
                 campaign's note",
                link.battle, link.key
            ),
        });
        fought.push(fought_of(play.as_ref())?);
    }
    let ledger = campaign_plan::ledger(&plan, &sides, &fought).map_err(|e| differs(e.0))?;
    Ok(Derived { ledger, checks })
}

/// One battle's game folder: its campaign link, the game its journal replays to, and the
/// scenario it was set up from (its creation line's).
fn read_battle(
    registry: &Registry,
    name: &str,
    dir: &std::path::Path,
) -> Result<(CampaignLink, Box<dyn Play>, String)> {
    let p = dir.join("journal.jsonl");
    let text = std::fs::read_to_string(&p).with_context(|| p.display().to_string())?;
    let lines: Vec<String> = text
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    let play = registry
        .replay(&lines)
        .map_err(|e| differs(format!("{}: the journal does not replay: {e}", p.display())))?;
    let Some(link) = play.book().policy.club.campaign.clone() else {
        bail!(
            "{}: game {} is not a campaign battle",
            p.display(),
            play.book().id
        );
    };
    if link.name != name {
        bail!(
            "{}: game {} is a battle of campaign {}, not {name}",
            p.display(),
            play.book().id,
            link.name
        );
    }
    let scenario = match crate::engine::registry::parse_line(0, &lines[0]) {
        Ok(Event::GameCreated { scenario_toml, .. }) => scenario_toml,
        _ => bail!("{}: the first line is not the game's creation", p.display()),
    };
    Ok((*link, play, scenario))
}

/// A battle that does not re-derive (as opposed to a folder that cannot be read): `despatch
/// campaign derive` exits 1 on it and 2 on anything else.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Differs(pub String);

fn differs(s: String) -> anyhow::Error {
    Differs(s).into()
}
