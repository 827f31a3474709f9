//! A campaign's plan and ledger (issue 34; docs/campaigns.md): the battles in order or by
//! result, the points rule and the carry terms, read from the campaign file; the standing
//! computed from the battles' results alone; the link each battle journals; and the scenario
//! a battle is set up from, re-derivable from the journals. Pure: text and values in, values
//! out. Reads no file and no clock, and knows no ruleset (the carrying is `Play::carry_into`).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::Play;

/// `next` / `after` value that ends the campaign.
pub const END: &str = "end";
/// `after` key for a battle nobody won.
pub const DRAW: &str = "draw";
/// A campaign name leaves room for `-NN` in its battles' game ids (40 characters at most).
pub const MAX_NAME: usize = 36;
const MAX_BATTLES: usize = 60;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PlanError(pub String);

fn err<T>(s: impl Into<String>) -> Result<T, PlanError> {
    Err(PlanError(s.into()))
}

/// Campaign points a side earns for one battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Points {
    pub win: i64,
    pub draw: i64,
    pub loss: i64,
}

impl Default for Points {
    fn default() -> Self {
        Self {
            win: 3,
            draw: 1,
            loss: 0,
        }
    }
}

/// One battle of the plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Battle {
    pub key: String,
    pub scenario: String,
    /// The battle that follows whatever the result; `end` or absent: the campaign ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
    /// The battle that follows by result: the winning side's id, or `draw`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub after: BTreeMap<String, String>,
}

/// A campaign file, checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    pub title: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    #[serde(default)]
    pub points: Points,
    /// The ruleset's carry terms (`Ruleset::carry`).
    #[serde(default)]
    pub carry: toml::Table,
    pub battle: Vec<Battle>,
}

impl Plan {
    /// Reads and checks a campaign file: keys, links, reachability, no loop.
    pub fn parse(text: &str) -> Result<Self, PlanError> {
        let plan: Plan = toml::from_str(text).map_err(|e| PlanError(format!("{e}")))?;
        plan.check()?;
        Ok(plan)
    }

    /// A plain chain of scenarios (`--scenarios A,B,C`), as a campaign file's text. A
    /// scenario played twice gets keys `a`, `a-2`.
    pub fn linear(
        title: &str,
        scenarios: &[String],
        carry: toml::Table,
    ) -> Result<String, PlanError> {
        let mut keys: Vec<String> = vec![];
        for s in scenarios {
            let n = keys
                .iter()
                .filter(|k| *k == s || k.starts_with(&format!("{s}-")))
                .count();
            keys.push(if n == 0 {
                s.clone()
            } else {
                format!("{s}-{}", n + 1)
            });
        }
        let battle = scenarios
            .iter()
            .zip(&keys)
            .enumerate()
            .map(|(i, (s, k))| Battle {
                key: k.clone(),
                scenario: s.clone(),
                next: keys.get(i + 1).cloned(),
                after: BTreeMap::new(),
            })
            .collect();
        let plan = Plan {
            title: title.to_string(),
            description: String::new(),
            first: None,
            points: Points::default(),
            carry,
            battle,
        };
        plan.check()?;
        toml::to_string(&plan).map_err(|e| PlanError(format!("writing the plan: {e}")))
    }

    fn check(&self) -> Result<(), PlanError> {
        if self.title.trim().is_empty() {
            return err("the campaign has no title");
        }
        if self.battle.is_empty() {
            return err("the campaign has no [[battle]]");
        }
        if self.battle.len() > MAX_BATTLES {
            return err(format!(
                "{} battles: at most {MAX_BATTLES}",
                self.battle.len()
            ));
        }
        let mut seen = BTreeSet::new();
        for b in &self.battle {
            if !super::valid_game_id(&b.key) || b.key == END || b.key == DRAW {
                return err(format!(
                    "battle key `{}`: use a–z, 0–9 and `-`, starting with a letter (not `end` or `draw`)",
                    b.key
                ));
            }
            if !seen.insert(b.key.as_str()) {
                return err(format!("battle `{}` is declared twice", b.key));
            }
            if b.next.is_some() && !b.after.is_empty() {
                return err(format!(
                    "battle `{}` has both `next` and `after`: give one",
                    b.key
                ));
            }
        }
        for b in &self.battle {
            for to in b.next.iter().chain(b.after.values()) {
                if to != END && !seen.contains(to.as_str()) {
                    return err(format!(
                        "battle `{}` is followed by `{to}`, which is not a battle of the campaign",
                        b.key
                    ));
                }
            }
        }
        let first = self.first_key();
        if !seen.contains(first) {
            return err(format!("first = `{first}`: not a battle of the campaign"));
        }
        // Every battle reachable, and no loop: a campaign always ends.
        let mut reached = BTreeSet::new();
        let mut path = vec![];
        self.walk(first, &mut path, &mut reached)?;
        if let Some(b) = self
            .battle
            .iter()
            .find(|b| !reached.contains(b.key.as_str()))
        {
            return err(format!(
                "battle `{}` can never be played: nothing leads to it",
                b.key
            ));
        }
        Ok(())
    }

    fn walk<'a>(
        &'a self,
        key: &'a str,
        path: &mut Vec<&'a str>,
        reached: &mut BTreeSet<&'a str>,
    ) -> Result<(), PlanError> {
        if path.contains(&key) {
            return err(format!(
                "the campaign loops: {} → {key}; every chain of battles must end",
                path.join(" → ")
            ));
        }
        // A battle already walked from is not walked again: each battle once, so a plan that
        // branches at every battle costs what its size does (a loop through it was seen then).
        if !reached.insert(key) {
            return Ok(());
        }
        path.push(key);
        for s in self.successors(key) {
            self.walk(s, path, reached)?;
        }
        path.pop();
        Ok(())
    }

    pub fn first_key(&self) -> &str {
        self.first.as_deref().unwrap_or(&self.battle[0].key)
    }

    pub fn battle(&self, key: &str) -> Option<&Battle> {
        self.battle.iter().find(|b| b.key == key)
    }

    /// The battles that may follow `key`, each once, in the file's order.
    pub fn successors(&self, key: &str) -> Vec<&str> {
        let Some(b) = self.battle(key) else {
            return vec![];
        };
        let mut v: Vec<&str> = b
            .next
            .iter()
            .chain(b.after.values())
            .map(String::as_str)
            .filter(|k| *k != END)
            .collect();
        v.sort_by_key(|k| self.battle.iter().position(|b| b.key == *k));
        v.dedup();
        v
    }

    /// The battle that follows `key` when `winners` won it (empty: a draw); `None` when the
    /// campaign ends. With several winners, the first that `after` names decides.
    pub fn follows(&self, key: &str, winners: &[String]) -> Option<&Battle> {
        let b = self.battle(key)?;
        let to = if b.after.is_empty() {
            b.next.as_deref()
        } else if winners.is_empty() {
            b.after.get(DRAW).map(String::as_str)
        } else {
            winners
                .iter()
                .find_map(|w| b.after.get(w))
                .map(String::as_str)
        };
        to.filter(|t| *t != END).and_then(|t| self.battle(t))
    }

    /// The `after` keys must be the sides' ids or `draw`.
    pub fn check_sides(&self, sides: &[String]) -> Result<(), PlanError> {
        for b in &self.battle {
            if let Some(k) = b.after.keys().find(|k| *k != DRAW && !sides.contains(k)) {
                return err(format!(
                    "battle `{}`: `after.{k}` names no side (the sides are {}, or `draw`)",
                    b.key,
                    sides.join(", ")
                ));
            }
        }
        Ok(())
    }

    /// The most battles any chain through the campaign has.
    pub fn longest(&self) -> usize {
        // Memoised per battle: each battle's depth is counted once (the plan has no loop).
        fn depth<'a>(p: &'a Plan, k: &'a str, memo: &mut BTreeMap<&'a str, usize>) -> usize {
            if let Some(d) = memo.get(k) {
                return *d;
            }
            let d = 1 + p
                .successors(k)
                .into_iter()
                .map(|s| depth(p, s, memo))
                .max()
                .unwrap_or(0);
            memo.insert(k, d);
            d
        }
        depth(self, self.first_key(), &mut BTreeMap::new())
    }
}

/// The link a battle journals in its policy (`policy.club.campaign`): with it, the battles'
/// journals alone say what the campaign is, where each battle stands in it, and what it was
/// set up from, so the ledger and every carry can be re-derived (`despatch campaign --derive`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignLink {
    pub name: String,
    /// 1 for the first battle.
    pub battle: u32,
    pub key: String,
    /// The campaign file as declared.
    pub plan: String,
    /// The battle's scenario as shipped, before the carry and the campaign's note.
    pub base: String,
    /// The battle this one carries from (none for the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
}

/// One battle as far as it has gone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fought {
    pub game: String,
    pub key: String,
    /// The winners once it is over (empty: a draw); `None` while it is fought.
    pub winners: Option<Vec<String>>,
    pub summary: String,
    /// Abandoned by the organiser with no result: no points, and the campaign stops there
    /// (club ruling O1, campaigns C5).
    pub abandoned: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// The battle being fought.
    Fighting(String),
    /// The battle that starts next.
    Battle(String),
    /// The campaign is over.
    Over,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub game: String,
    pub key: String,
    pub scenario: String,
    pub summary: String,
    /// Points each side earned here (empty while fought).
    pub points: Vec<(String, i64)>,
}

/// Where a campaign stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ledger {
    pub title: String,
    pub sides: Vec<String>,
    pub rows: Vec<Row>,
    pub totals: Vec<(String, i64)>,
    pub next: Next,
    /// Once over: the sides with the most points (all sides level: empty, a drawn campaign).
    pub winners: Option<Vec<String>>,
}

/// The standing from the battles fought, in order; refuses a chain the plan does not allow.
pub fn ledger(plan: &Plan, sides: &[String], fought: &[Fought]) -> Result<Ledger, PlanError> {
    let mut expected = Some(plan.first_key().to_string());
    let mut totals: Vec<(String, i64)> = sides.iter().map(|s| (s.clone(), 0)).collect();
    let mut rows = vec![];
    let mut next = Next::Battle(plan.first_key().to_string());
    for (i, f) in fought.iter().enumerate() {
        let Some(want) = expected.take() else {
            return err(format!(
                "game {} is a battle after the campaign ended",
                f.game
            ));
        };
        if f.key != want {
            return err(format!(
                "game {} is battle `{}`, but the plan has `{want}` in its place",
                f.game, f.key
            ));
        }
        let b = plan
            .battle(&f.key)
            .ok_or_else(|| PlanError(format!("no battle `{}`", f.key)))?;
        let Some(winners) = &f.winners else {
            if i + 1 != fought.len() {
                return err(format!(
                    "game {} is still fought, yet a later battle exists",
                    f.game
                ));
            }
            rows.push(Row {
                game: f.game.clone(),
                key: f.key.clone(),
                scenario: b.scenario.clone(),
                summary: "being fought".into(),
                points: vec![],
            });
            next = Next::Fighting(f.key.clone());
            break;
        };
        if f.abandoned {
            rows.push(Row {
                game: f.game.clone(),
                key: f.key.clone(),
                scenario: b.scenario.clone(),
                summary: "abandoned by the organiser with no result; the campaign stops here"
                    .into(),
                points: vec![],
            });
            next = Next::Over;
            continue;
        }
        let points = battle_points(plan, sides, winners);
        for (t, (_, p)) in totals.iter_mut().zip(&points) {
            t.1 += p;
        }
        rows.push(Row {
            game: f.game.clone(),
            key: f.key.clone(),
            scenario: b.scenario.clone(),
            summary: f.summary.clone(),
            points,
        });
        expected = plan.follows(&f.key, winners).map(|b| b.key.clone());
        next = match &expected {
            Some(k) => Next::Battle(k.clone()),
            None => Next::Over,
        };
    }
    let winners = (next == Next::Over).then(|| campaign_winners(&totals));
    Ok(Ledger {
        title: plan.title.clone(),
        sides: sides.to_vec(),
        rows,
        totals,
        next,
        winners,
    })
}

/// Each side's points for one battle: a draw when nobody won, else a win or a loss.
fn battle_points(plan: &Plan, sides: &[String], winners: &[String]) -> Vec<(String, i64)> {
    sides
        .iter()
        .map(|s| {
            let p = if winners.is_empty() {
                plan.points.draw
            } else if winners.contains(s) {
                plan.points.win
            } else {
                plan.points.loss
            };
            (s.clone(), p)
        })
        .collect()
}

/// The sides with the most points once the campaign is over; none when every side has as
/// many (a drawn campaign).
fn campaign_winners(totals: &[(String, i64)]) -> Vec<String> {
    let best = totals.iter().map(|(_, p)| *p).max().unwrap_or(0);
    let top: Vec<String> = totals
        .iter()
        .filter(|(_, p)| *p == best)
        .map(|(s, _)| s.clone())
        .collect();
    if top.len() == totals.len() {
        vec![]
    } else {
        top
    }
}

/// A side's id as words (`allies` → `Allies`, `us` → `US`).
pub fn side_words(id: &str) -> String {
    if id.len() <= 4 {
        return id.to_uppercase();
    }
    let words = id.replace(['-', '_'], " ");
    let mut c = words.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

fn score(points: &[(String, i64)]) -> String {
    points
        .iter()
        .map(|(s, p)| format!("{} {p}", side_words(s)))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Ledger {
    /// The standing as mail text (unwrapped lines; the mail wraps them).
    pub fn text(&self, name: &str) -> String {
        let mut out = format!("Campaign {name}, \"{}\"\n", self.title);
        for (i, r) in self.rows.iter().enumerate() {
            let pts = if r.points.is_empty() {
                String::new()
            } else {
                format!(" ({})", score(&r.points))
            };
            out.push_str(&format!(
                "  {}. {} (game {}): {}{pts}\n",
                i + 1,
                r.key,
                r.game,
                r.summary
            ));
        }
        out.push_str(&format!("Standing: {}\n", score(&self.totals)));
        match (&self.next, &self.winners) {
            (Next::Fighting(k), _) => out.push_str(&format!("Now: {k} is being fought.\n")),
            (Next::Battle(k), _) => out.push_str(&format!(
                "Next: {k}, which starts now; its welcome follows.\n"
            )),
            (Next::Over, Some(w)) if w.is_empty() => {
                out.push_str("The campaign is over: drawn, the sides level on points.\n")
            }
            (Next::Over, Some(w)) => out.push_str(&format!(
                "The campaign is over: {} {} it.\n",
                w.iter()
                    .map(|s| side_words(s))
                    .collect::<Vec<_>>()
                    .join(" and "),
                if w.len() == 1 { "wins" } else { "share" }
            )),
            (Next::Over, None) => {}
        }
        out
    }
}

/// The words a battle's scenario gains (its welcome's "The scenario"): which battle of the
/// campaign this is and the standing before it.
pub fn welcome_note(name: &str, plan: &Plan, battle: u32, key: &str, before: &Ledger) -> String {
    let mut s = format!(
        "Campaign {name}, \"{}\": battle {battle} ({key}) of at most {}.",
        plan.title,
        plan.longest().max(battle as usize)
    );
    if battle == 1 {
        if !plan.description.trim().is_empty() {
            s.push(' ');
            s.push_str(
                &plan
                    .description
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
    } else {
        let done: Vec<String> = before
            .rows
            .iter()
            .map(|r| format!("{}: {}", r.key, r.summary.trim_end_matches('.')))
            .collect();
        s.push_str(&format!(
            " Before it: {}. Standing: {}.",
            done.join("; "),
            score(&before.totals)
        ));
    }
    s
}

/// The scenario a battle is set up from: its shipped text (`link.base`), carried from the
/// finished battle before it (if any) under the plan's terms, with the campaign's note as the
/// description's last paragraph. The host sets battles up with it and `--derive` checks the
/// journaled scenario against it.
pub fn battle_scenario(
    link: &CampaignLink,
    plan: &Plan,
    before: Option<&dyn Play>,
    note: &str,
) -> Result<String, PlanError> {
    let carried = match before {
        Some(p) => p
            .carry_into(&link.base, &plan.carry)
            .map_err(|e| PlanError(e.to_string()))?,
        None => link.base.clone(),
    };
    let mut t: toml::Table = carried
        .parse()
        .map_err(|e| PlanError(format!("scenario {}: {e}", link.key)))?;
    let d = t
        .get("description")
        .and_then(toml::Value::as_str)
        .unwrap_or_default()
        .trim_end()
        .to_string();
    let d = if d.is_empty() {
        note.to_string()
    } else {
        format!("{d}\n\n{note}")
    };
    t.insert("description".into(), toml::Value::String(format!("{d}\n")));
    toml::to_string(&t).map_err(|e| PlanError(format!("writing scenario {}: {e}", link.key)))
}

#[cfg(test)]
#[path = "campaign_plan_tests.rs"]
mod tests;
