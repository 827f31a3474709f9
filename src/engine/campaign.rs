//! Campaigns: the shared part of carrying a finished game's losses into the next scenario's
//! set-up. A ruleset says which of its pieces are lost (`Ruleset::carry`); this edits the next
//! scenario's TOML — sides matched by id, lost pieces struck from the side's list — and writes
//! it back as the text the next game is set up from and journaled with. Pure.

use toml::{Table, Value};

/// One piece a side lost in the finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lost {
    pub side: String,
    pub name: String,
}

/// The `[[sides]]` ids of a scenario table, in order.
fn side_ids(t: &Table) -> Vec<String> {
    sides(t)
        .map(|v| {
            v.iter()
                .filter_map(|s| s.get("id").and_then(Value::as_str).map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn sides(t: &Table) -> Option<&Vec<Value>> {
    t.get("sides").and_then(Value::as_array)
}

/// Why a battle's result could not be carried into the next scenario: nothing is written and
/// the organiser is told exactly this.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CarryRefused {
    #[error("next scenario: {0}")]
    NextScenario(String),
    #[error("the sides do not match: the finished game has {finished}, the next scenario {next}")]
    SidesDiffer { finished: String, next: String },
    #[error("next scenario: side {side} has no {list}")]
    NoList { side: String, list: String },
    #[error("side {0} has nothing left to bring into the next scenario")]
    NothingLeft(String),
    #[error("carry term `{0}`: this ruleset takes no carry terms")]
    NoTermsTaken(String),
    #[error("carry term `{term}`: this ruleset knows {known}")]
    UnknownTerm { term: String, known: String },
    #[error("carry term `{key}` = {value}: write true or false")]
    NotAFlag { key: String, value: String },
    #[error("writing the carried scenario: {0}")]
    Writing(String),
    /// The ruleset has no Campaigns section: it carries nothing (`Ruleset::carry`'s default).
    #[error(
        "the {0} ruleset does not carry forces from one game into the next (its README has no \
         Campaigns section)"
    )]
    NotCarried(&'static str),
    /// The finished game was set up from ruleset data older than the ruleset's campaigns: it
    /// has no campaign numbers to carry by (the ruleset's words).
    #[error("{0}")]
    NoCampaignNumbers(&'static str),
    /// A carry term the ruleset knows, with a value it does not take (the ruleset's words:
    /// each says which values it takes).
    #[error("{0}")]
    TermValue(String),
    /// One of the ruleset's written rulings refuses the carry (a side with nothing to field
    /// and no levies, a fleet with no flagship left, sides that differ, in its own words).
    #[error("{0}")]
    Ruling(String),
}

/// The next scenario with every lost piece struck from its side's `list` (`ships`, `units`).
/// The finished game's sides and the scenario's must be the same ids; each side must keep at
/// least one piece. A piece the next scenario does not field is simply not there to strike.
/// `note` (if any) is added as a last paragraph of the scenario's description.
pub fn strike_lost(
    next_scenario_toml: &str,
    list: &str,
    finished_sides: &[String],
    lost: &[Lost],
    note: &str,
) -> Result<Table, CarryRefused> {
    let mut t: Table = next_scenario_toml
        .parse()
        .map_err(|e| CarryRefused::NextScenario(format!("{e}")))?;
    let ids = side_ids(&t);
    let mut theirs = finished_sides.to_vec();
    let mut ours = ids.clone();
    theirs.sort();
    ours.sort();
    if theirs != ours {
        return Err(CarryRefused::SidesDiffer {
            finished: finished_sides.join(", "),
            next: ids.join(", "),
        });
    }
    let Some(Value::Array(sides)) = t.get_mut("sides") else {
        return Err(CarryRefused::NextScenario("no [[sides]]".into()));
    };
    for side in sides.iter_mut() {
        let id = side
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let Some(Value::Array(pieces)) = side.get_mut(list) else {
            return Err(CarryRefused::NoList {
                side: id,
                list: list.to_string(),
            });
        };
        pieces.retain(|p| {
            let name = p.get("name").and_then(Value::as_str).unwrap_or_default();
            !lost.iter().any(|l| l.side == id && l.name == name)
        });
        if pieces.is_empty() {
            return Err(CarryRefused::NothingLeft(id));
        }
    }
    if !note.is_empty() {
        let d = t
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .trim_end()
            .to_string();
        t.insert(
            "description".into(),
            Value::String(format!("{d}\n\n{note}\n")),
        );
    }
    Ok(t)
}

/// Refuses a `[carry]` term the ruleset does not know (a typo must not silently carry
/// something else than the organiser meant).
pub fn known_terms(terms: &Table, known: &[&str]) -> Result<(), CarryRefused> {
    match terms.keys().find(|k| !known.contains(&k.as_str())) {
        None => Ok(()),
        Some(k) if known.is_empty() => Err(CarryRefused::NoTermsTaken(k.clone())),
        Some(k) => Err(CarryRefused::UnknownTerm {
            term: k.clone(),
            known: known.join(", "),
        }),
    }
}

/// A yes/no carry term (`repair = false`), `default` when absent.
pub fn flag(terms: &Table, key: &str, default: bool) -> Result<bool, CarryRefused> {
    match terms.get(key) {
        None => Ok(default),
        Some(Value::Boolean(b)) => Ok(*b),
        Some(v) => Err(CarryRefused::NotAFlag {
            key: key.to_string(),
            value: v.to_string(),
        }),
    }
}

/// The scenario table as TOML text again.
pub fn to_text(t: &Table) -> Result<String, CarryRefused> {
    toml::to_string(t).map_err(|e| CarryRefused::Writing(format!("{e}")))
}

/// How many pieces each side lost, for the description note (`japan 1, russia 0`).
pub fn losses_note(what: &str, finished_sides: &[String], lost: &[Lost]) -> String {
    let counts: Vec<String> = finished_sides
        .iter()
        .map(|s| format!("{s} {}", lost.iter().filter(|l| &l.side == s).count()))
        .collect();
    format!(
        "Campaign: this battle follows the last one; each side brings only what it had \
         left ({what} lost before it: {}).",
        counts.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCEN: &str = r#"
name = "x"
description = "d"
[[sides]]
id = "a"
[[sides.units]]
name = "A1"
[[sides.units]]
name = "A2"
[[sides]]
id = "b"
[[sides.units]]
name = "B1"
"#;

    #[test]
    fn lost_pieces_are_struck_and_mismatched_sides_refused() {
        let lost = [Lost {
            side: "a".into(),
            name: "A1".into(),
        }];
        let sides = ["a".to_string(), "b".to_string()];
        let t = strike_lost(SCEN, "units", &sides, &lost, "n").unwrap();
        let text = to_text(&t).unwrap();
        assert!(!text.contains("A1") && text.contains("A2"), "{text}");
        let e = strike_lost(SCEN, "units", &["a".into(), "c".into()], &lost, "").unwrap_err();
        assert!(matches!(e, CarryRefused::SidesDiffer { .. }), "{e}");
        assert!(e.to_string().contains("do not match"), "{e}");
        let all = [Lost {
            side: "b".into(),
            name: "B1".into(),
        }];
        let e = strike_lost(SCEN, "units", &sides, &all, "").unwrap_err();
        assert_eq!(e, CarryRefused::NothingLeft("b".into()));
        assert!(e.to_string().contains("side b has nothing left"), "{e}");
    }
}
