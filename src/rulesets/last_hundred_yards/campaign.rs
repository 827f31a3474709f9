//! Campaigns (rulings R39–R43, a reconstruction of the lost campaign pages): what a finished
//! mission leaves each side for the next — losses, reduced squads, replacements, experience —
//! written into the next mission's TOML by unit name. Pure: state and TOML in, TOML out; it
//! decides nothing about play, and every number comes from `ruleset.toml`'s `[campaign]`.

use std::collections::BTreeMap;

use toml::{Table, Value};

use crate::engine::campaign::{self, CarryRefused};
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::data::{CampaignData, Kind};
use super::state::{LhyState, Phase, Place, Status, Unit};

/// The `[carry]` terms this ruleset knows (README "Campaigns"), each `true` unless given.
pub const TERMS: &[&str] = &["heal", "replacements", "experience"];

#[derive(Debug, Clone, Copy)]
struct Terms {
    heal: bool,
    replacements: bool,
    experience: bool,
}

fn read_terms(t: &Table) -> Result<Terms, CarryRefused> {
    campaign::known_terms(t, TERMS)?;
    let flag = |k: &str| match t.get(k) {
        None => Ok(true),
        Some(Value::Boolean(b)) => Ok(*b),
        Some(v) => Err(CarryRefused::TermValue(format!(
            "carry term `{k}`: write true or false, not {v}"
        ))),
    };
    Ok(Terms {
        heal: flag("heal")?,
        replacements: flag("replacements")?,
        experience: flag("experience")?,
    })
}

/// What the finished mission leaves one unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Left {
    /// Comes back with all its steps, of this quality (`None`: as printed).
    Whole(Option<String>),
    /// R40: a squad down to one step: one of its platoon's sections stands for it.
    Reduced(Option<String>),
    /// R39: eliminated, or lost before.
    Gone,
}

/// R39/R40: every unit's fate by name, before healing and replacements. A platoon's sections
/// are its squads' halves: the steps its sections on the map (or off by an edge) hold go first
/// to the squads they stand for, then to the deployed squads (in the pool, two steps each),
/// then to the squads hit in this mission (one step each: the section that replaced it).
pub fn fates(st: &LhyState) -> BTreeMap<String, Left> {
    let alive = |u: &Unit| matches!(u.place, Place::Map | Place::Exited | Place::Away);
    let mut out = BTreeMap::new();
    for u in st.units.iter().filter(|u| !u.dummy()) {
        let q = u.quality.clone();
        let left = match u.kind {
            _ if u.lost => Left::Gone,
            // R39: a fallen platoon leader's place is taken by a new one (R42: green).
            Kind::Leader if u.place == Place::Eliminated => Left::Whole(Some(String::new())),
            Kind::Section => continue,
            _ if alive(u) => Left::Whole(q),
            // A squad out of play is gone unless its platoon's sections hold its steps (below).
            _ => Left::Gone,
        };
        out.insert(u.name.clone(), left);
    }
    let platoons: Vec<String> = st.platoons.iter().map(|p| p.id.clone()).collect();
    for p in platoons {
        let mine = |u: &&Unit| u.platoon.as_deref() == Some(p.as_str());
        let sections: Vec<&Unit> = st
            .units
            .iter()
            .filter(mine)
            .filter(|u| u.kind == Kind::Section && alive(u))
            .collect();
        let mut spare = 0;
        let mut held: BTreeMap<&str, u32> = BTreeMap::new();
        for s in &sections {
            match s.stands_for.as_deref() {
                Some(f) => *held.entry(f).or_default() += 1,
                None => spare += 1,
            }
        }
        let squads = st
            .units
            .iter()
            .filter(mine)
            .filter(|u| u.kind == Kind::Squad && !alive(u));
        let (earlier, now): (Vec<&Unit>, Vec<&Unit>) = squads.partition(|u| u.lost);
        let mut claimants: Vec<&Unit> = now
            .iter()
            .copied()
            .filter(|u| u.place == Place::Pool)
            .collect();
        claimants.extend(now.iter().copied().filter(|u| u.place != Place::Pool));
        for u in earlier {
            let steps = held.get(u.name.as_str()).copied().unwrap_or(0).min(2);
            out.insert(u.name.clone(), by_steps(steps, u.quality.clone()));
        }
        for u in claimants {
            let own = held.get(u.name.as_str()).copied().unwrap_or(0);
            // A deployed squad is its two sections; a squad hit here left at most the one
            // section that replaced it (R38).
            let most = if u.place == Place::Pool { 2 } else { 1 };
            let take = (most - own.min(most)).min(spare);
            spare -= take;
            out.insert(
                u.name.clone(),
                by_steps((own + take).min(2), u.quality.clone()),
            );
        }
    }
    out
}

fn by_steps(steps: u32, q: Option<String>) -> Left {
    match steps {
        0 => Left::Gone,
        1 => Left::Reduced(q),
        _ => Left::Whole(q),
    }
}

/// R42: did this unit do well? On the map at the end of a finished mission, in good order,
/// in the hex of an objective its side holds.
pub fn did_well(st: &LhyState, u: &Unit) -> bool {
    st.phase == Phase::GameOver
        && u.place == Place::Map
        && u.status == Status::Good
        && st
            .objectives
            .iter()
            .any(|o| o.hex == u.at && o.held_by.as_deref() == Some(u.side.as_str()))
}

/// R40: how many of `n` reduced squads heal: the share, rounded to the nearest (halves up).
pub fn healed(n: usize, share: f64) -> usize {
    ((n as f64) * share + 0.5).floor().max(0.0).min(n as f64) as usize
}

/// R41: the squads `side` has made up before the next mission.
pub fn replacements(st: &LhyState, c: &CampaignData, side: &str) -> u32 {
    let nation = st.side(side).map(|s| s.nation.clone()).unwrap_or_default();
    let base = c.replacements.get().get(&nation).copied().unwrap_or(0);
    let won = st.phase == Phase::GameOver
        && st
            .outcome
            .as_ref()
            .is_some_and(|o| o.winners.iter().any(|w| w == side));
    base + if won {
        c.replacements_won.int().max(0) as u32
    } else {
        0
    }
}

/// R39–R43: the next mission as the finished one `st` leaves the sides.
pub fn carry(st: &LhyState, next: &str, terms: &Table) -> Result<String, CarryRefused> {
    let terms = read_terms(terms)?;
    let c = st
        .data
        .campaign
        .as_ref()
        .ok_or(CarryRefused::NoCampaignNumbers(
            "this game's ruleset.toml has no [campaign] numbers (it is older than campaigns)",
        ))?;
    let mut t: Table = next
        .parse()
        .map_err(|e: toml::de::Error| CarryRefused::NextScenario(e.to_string()))?;
    check_sides(st, &t)?;
    let side_of = |n: &str| st.unit(n).map(|u| u.side.clone()).unwrap_or_default();
    let listed: Vec<String> = units(&t).iter().filter_map(|u| str_of(u, "name")).collect();
    let kind_of = |u: &Table| {
        str_of(u, "class")
            .and_then(|k| st.data.class(&k).map(|c| c.kind))
            .unwrap_or(Kind::Dummy)
    };
    let squads: Vec<String> = units(&t)
        .iter()
        .filter(|u| kind_of(u) == Kind::Squad)
        .filter_map(|u| str_of(u, "name"))
        .collect();
    let mut ledger = Ledger {
        st,
        c,
        terms,
        fate: fates(st),
        words: BTreeMap::new(),
    };
    // R42: experience first, on what the mission showed; new leaders come green.
    ledger.experience(&listed);
    // R40 healing, then R41 replacements, side by side, in the next mission's order.
    for side in st.sides.iter().map(|s| s.id.clone()) {
        ledger.heal_and_replace(&side, &listed, &squads);
    }
    let Ledger {
        fate, mut words, ..
    } = ledger;
    write_units(
        &mut t,
        &fate,
        &kind_of,
        &mut |side, w| say(&mut words, side, w),
        &side_of,
    )?;
    let note = note(st, &words);
    let d = str_of(&t, "description").unwrap_or_default();
    t.insert(
        "description".into(),
        Value::String(format!("{}\n\n{note}\n", d.trim_end())),
    );
    campaign::to_text(&t)
}

/// What is carried while the next mission is written: each unit's fate, and the words each
/// side is told of it.
struct Ledger<'a> {
    st: &'a LhyState,
    c: &'a CampaignData,
    terms: Terms,
    fate: BTreeMap<String, Left>,
    words: BTreeMap<String, Vec<String>>,
}

/// One line for `side`'s note of what its units became.
fn say(words: &mut BTreeMap<String, Vec<String>>, side: &str, w: String) {
    words.entry(side.to_string()).or_default().push(w);
}

impl Ledger<'_> {
    fn side_of(&self, n: &str) -> String {
        self.st.unit(n).map(|u| u.side.clone()).unwrap_or_default()
    }

    /// R42: each whole unit the next mission lists steps up a quality if it did well; a
    /// fallen leader's replacement comes green.
    fn experience(&mut self, listed: &[String]) {
        let (st, c, terms) = (self.st, self.c, self.terms);
        for (name, left) in self.fate.iter_mut().filter(|(n, _)| listed.contains(n)) {
            let Left::Whole(q) = left else { continue };
            let Some(u) = st.unit(name) else { continue };
            let side = u.side.clone();
            if q.as_deref() == Some("") {
                *q = if terms.experience { c.lowest() } else { None };
                say(
                    &mut self.words,
                    &side,
                    format!("{name} has a new leader{}", quality_words(q)),
                );
            } else if terms.experience && did_well(st, u) {
                let up = c.step_up(q.as_deref());
                if up != *q {
                    say(
                        &mut self.words,
                        &side,
                        format!("{name} steps up{}", quality_words(&up)),
                    );
                }
                *q = up;
            }
        }
    }

    /// R40, R41 for one side: its share of reduced units healed, then replacements make up
    /// the rest of the reduced and bring back squads lost whole, in the next mission's order.
    fn heal_and_replace(&mut self, side: &str, listed: &[String], squads: &[String]) {
        let (st, c, terms) = (self.st, self.c, self.terms);
        let reduced: Vec<String> = listed
            .iter()
            .filter(|n| self.side_of(n) == side)
            .filter(|n| matches!(self.fate.get(*n), Some(Left::Reduced(_))))
            .cloned()
            .collect();
        let heal = if terms.heal {
            healed(reduced.len(), c.heal_share.get())
        } else {
            0
        };
        for n in reduced.iter().take(heal) {
            if let Some(Left::Reduced(q)) = self.fate.get(n).cloned() {
                self.fate.insert(n.clone(), Left::Whole(q));
                say(&mut self.words, side, format!("{n} is made whole again"));
            }
        }
        let mut made_up = if terms.replacements {
            replacements(st, c, side)
        } else {
            0
        };
        for n in reduced.iter().skip(heal) {
            if made_up == 0 {
                break;
            }
            if let Some(Left::Reduced(q)) = self.fate.get(n).cloned() {
                self.fate.insert(n.clone(), Left::Whole(q));
                made_up -= 1;
                say(
                    &mut self.words,
                    side,
                    format!("{n} is made up by replacements"),
                );
            }
        }
        let gone_squads: Vec<String> = squads
            .iter()
            .filter(|n| self.side_of(n) == side && self.fate.get(*n) == Some(&Left::Gone))
            .cloned()
            .collect();
        for n in gone_squads.into_iter().take(made_up as usize) {
            let q = if terms.experience { c.lowest() } else { None };
            say(
                &mut self.words,
                side,
                format!("{n} comes back as replacements{}", quality_words(&q)),
            );
            self.fate.insert(n, Left::Whole(q));
        }
    }
}

fn quality_words(q: &Option<String>) -> String {
    q.as_deref().map_or(String::new(), |q| format!(" ({q})"))
}

fn str_of(t: &Table, k: &str) -> Option<String> {
    t.get(k).and_then(Value::as_str).map(str::to_string)
}

fn units(t: &Table) -> Vec<Table> {
    t.get("units")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_table).cloned().collect())
        .unwrap_or_default()
}

/// The finished mission's sides and the next one's must be the same ids.
fn check_sides(st: &LhyState, t: &Table) -> Result<(), CarryRefused> {
    let mut next: Vec<String> = t
        .get("sides")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|s| s.get("id").and_then(Value::as_str))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let mut ours: Vec<String> = st.sides.iter().map(|s| s.id.clone()).collect();
    let (a, b) = (ours.join(", "), next.join(", "));
    ours.sort();
    next.sort();
    if ours != next {
        return Err(CarryRefused::Ruling(format!(
            "the sides do not match: the finished mission has {a}, the next one {b}"
        )));
    }
    Ok(())
}

/// Writes each unit's fate into the next mission's `[[units]]`: gone units `lost = true`, a
/// reduced squad lost and one of its platoon's pool sections in its place (R40), qualities.
fn write_units(
    t: &mut Table,
    fate: &BTreeMap<String, Left>,
    kind_of: &dyn Fn(&Table) -> Kind,
    say: &mut dyn FnMut(&str, String),
    side_of: &dyn Fn(&str) -> String,
) -> Result<(), CarryRefused> {
    let Some(Value::Array(list)) = t.get_mut("units") else {
        return Err(CarryRefused::NextScenario("no [[units]]".into()));
    };
    let mut taken: Vec<usize> = Vec::new();
    for i in 0..list.len() {
        let Some(u) = list[i].as_table().cloned() else {
            continue;
        };
        let Some(name) = str_of(&u, "name") else {
            continue;
        };
        let Some(left) = fate.get(&name) else {
            continue;
        };
        let mut stand_in = None;
        if let Left::Reduced(_) = left {
            let platoon = str_of(&u, "platoon");
            stand_in = (0..list.len()).find(|j| {
                let Some(x) = list[*j].as_table() else {
                    return false;
                };
                !taken.contains(j)
                    && platoon.is_some()
                    && str_of(x, "platoon") == platoon
                    && kind_of(x) == Kind::Section
                    && x.get("pool").and_then(Value::as_bool) == Some(true)
            });
        }
        let (quality, lose) = match left {
            Left::Whole(q) => (q.clone(), false),
            // No section left to stand for it: it fights whole (README, R40).
            Left::Reduced(q) if stand_in.is_none() || u.get("at").is_none() => (q.clone(), false),
            Left::Reduced(q) => (q.clone(), true),
            Left::Gone => (None, true),
        };
        let Some(row) = list[i].as_table_mut() else {
            continue;
        };
        set_quality(row, &quality);
        if lose {
            let at = row.remove("at");
            let hidden = row.remove("hidden");
            row.remove("pool");
            row.remove("facing");
            row.remove("quality");
            row.insert("lost".into(), Value::Boolean(true));
            if let (Some(j), Some(at)) = (stand_in, at) {
                taken.push(j);
                if let Some(x) = list[j].as_table_mut() {
                    x.remove("pool");
                    x.insert("at".into(), at);
                    if let Some(h) = hidden {
                        x.insert("hidden".into(), h);
                    }
                    x.insert("stands_for".into(), Value::String(name.clone()));
                    set_quality(x, &quality);
                    let sec = str_of(x, "name").unwrap_or_default();
                    say(
                        &side_of(&name),
                        format!("{name} is reduced: {sec} stands for it"),
                    );
                }
            } else if fate.get(&name) == Some(&Left::Gone) {
                say(&side_of(&name), format!("{name} is gone"));
            }
        } else {
            row.remove("lost");
        }
    }
    Ok(())
}

fn set_quality(row: &mut Table, q: &Option<String>) {
    match q {
        Some(q) => {
            row.insert("quality".into(), Value::String(q.clone()));
        }
        None => {
            row.remove("quality");
        }
    }
}

/// R43: the players' words: how the last mission ended and what each side brings.
fn note(st: &LhyState, words: &BTreeMap<String, Vec<String>>) -> String {
    let ended = match (&st.phase, &st.result) {
        (Phase::GameOver, Some(r)) => format!("ended: {r}"),
        (Phase::GameOver, None) => "is over".to_string(),
        _ => "was not played to its end".to_string(),
    };
    let mut out = format!(
        "Campaign: this mission follows \"{}\", which {ended}.",
        st.scenario
    );
    for s in &st.sides {
        let w = words.get(&s.id).cloned().unwrap_or_default();
        let w = if w.is_empty() {
            "as it was".to_string()
        } else {
            w.join("; ")
        };
        out.push_str(&format!(" {}: {w}.", s.name));
    }
    out
}
