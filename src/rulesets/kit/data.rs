//! Ruleset data as every ruleset reads it: numbers that may be stand-ins for what the seed
//! lost, rule tables typed so that a misspelt rule name does not compile, and one loader that
//! names a missing or unknown key when a file is read, never in the middle of a resolution.
//! Pure: it reads text handed in; no disk.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::engine::SetupRefused;

/// A value from the data files: bare when printed in the seed, or a table
/// `{ value = …, stand_in = true, reason = "…" }` for one the seed lost or garbled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Marked<T> {
    Seed(T),
    Marked {
        value: T,
        #[serde(default)]
        stand_in: bool,
        #[serde(default)]
        reason: String,
    },
}

/// A number of the rules (TOML may write `2` or `2.0`).
pub type Num = Marked<f64>;

impl<T: Clone> Marked<T> {
    pub fn get(&self) -> T {
        match self {
            Marked::Seed(v) => v.clone(),
            Marked::Marked { value, .. } => value.clone(),
        }
    }

    pub fn is_stand_in(&self) -> bool {
        matches!(self, Marked::Marked { stand_in: true, .. })
    }

    /// Why a stand-in has the value it has; `None` for a value printed in the seed.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Marked::Marked {
                stand_in: true,
                reason,
                ..
            } => Some(reason),
            _ => None,
        }
    }
}

impl Marked<f64> {
    /// The value rounded to a whole number (counts, modifiers, costs).
    pub fn int(&self) -> i32 {
        self.get().round() as i32
    }
}

/// A ruleset's data file, read from TOML text: `RulesetData::from_toml(text)`.
pub trait TomlData: DeserializeOwned {
    /// How messages name the file (`ruleset.toml`).
    const FILE: &'static str;

    /// Reads the file; a missing, unknown or ill-typed key fails here with its name.
    fn from_toml(text: &str) -> Result<Self, SetupRefused> {
        toml::from_str(text).map_err(|e| SetupRefused::Unreadable {
            file: Self::FILE,
            reason: e.to_string(),
        })
    }
}

/// Declares a ruleset's `[rules]` table as a struct with one `Num` field per rule, so code
/// reads `data.rules.cruise.get()` and a misspelt name does not compile; the TOML must give
/// every field and no other key (`deny_unknown_fields`), so a typo in the file fails at load,
/// naming the key. It serialises as a map sorted by name, the layout states had when the
/// rules were a map, so old games' state digests still match. A rule added later needs
/// `#[serde(default = …)]`, because old journals embed the old file.
macro_rules! rule_numbers {
    ($(#[$meta:meta])* pub struct $name:ident { $($(#[$fmeta:meta])* $field:ident,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            $($(#[$fmeta])* pub $field: $crate::rulesets::kit::data::Num,)*
        }

        impl $name {
            /// Every rule with its key in the file, in declaration order.
            pub fn entries(&self) -> Vec<(&'static str, &$crate::rulesets::kit::data::Num)> {
                vec![$((stringify!($field), &self.$field),)*]
            }

            /// The rule with key `name`, for listings and tests (code uses the fields).
            pub fn find(&self, name: &str) -> Option<&$crate::rulesets::kit::data::Num> {
                self.entries().into_iter().find(|e| e.0 == name).map(|e| e.1)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let map: std::collections::BTreeMap<&str, &$crate::rulesets::kit::data::Num> =
                    self.entries().into_iter().collect();
                map.serialize(s)
            }
        }
    };
}
pub(crate) use rule_numbers;

/// One stand-in of a data file: where it is, its value as written, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandIn {
    /// The key's path, e.g. `classes.DD.cf` or `vehicles.general.weapons[1].dm`.
    pub key: String,
    pub value: String,
    pub reason: String,
}

/// Every `stand_in = true` value of a data file with its reason, in file order, for the
/// players' documentation and the conformance kit. Works on any ruleset's file.
pub fn stand_ins(toml_text: &str) -> Result<Vec<StandIn>, String> {
    let v: toml::Table = toml::from_str(toml_text).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    walk("", &toml::Value::Table(v), &mut out);
    Ok(out)
}

fn walk(path: &str, v: &toml::Value, out: &mut Vec<StandIn>) {
    match v {
        toml::Value::Table(t) if t.get("stand_in").and_then(toml::Value::as_bool) == Some(true) => {
            out.push(StandIn {
                key: path.to_string(),
                value: t.get("value").map(ToString::to_string).unwrap_or_default(),
                reason: t
                    .get("reason")
                    .and_then(toml::Value::as_str)
                    .unwrap_or("")
                    .to_string(),
            });
        }
        toml::Value::Table(t) => {
            for (k, x) in t {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                walk(&p, x, out);
            }
        }
        toml::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                walk(&format!("{path}[{i}]"), x, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::{gear_krieg, naval_rjw};

    const NAVAL: &str = include_str!("../../../games/naval-rjw/ruleset.toml");
    const GEAR_KRIEG: &str = include_str!("../../../games/gear-krieg/ruleset.toml");

    rule_numbers! {
        /// A two-rule table for the tests.
        pub struct Toy {
            /// Inches.
            reach,
            cost,
        }
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct ToyFile {
        rules: Toy,
    }

    impl TomlData for ToyFile {
        const FILE: &'static str = "toy.toml";
    }

    #[test]
    fn a_bare_value_is_printed_and_a_table_may_be_a_stand_in() {
        let f = ToyFile::from_toml(
            "[rules]\nreach = { value = 2, stand_in = true, reason = \"lost\" }\ncost = 1\n",
        )
        .unwrap();
        assert_eq!(f.rules.reach.get(), 2.0);
        assert!(f.rules.reach.is_stand_in());
        assert_eq!(f.rules.reach.reason(), Some("lost"));
        assert_eq!(f.rules.cost.int(), 1);
        assert!(!f.rules.cost.is_stand_in());
        assert_eq!(f.rules.cost.reason(), None);
        assert_eq!(f.rules.find("cost"), Some(&Marked::Seed(1.0)));
        assert_eq!(f.rules.find("costs"), None);
    }

    #[test]
    fn a_missing_or_unknown_rule_fails_at_load_naming_it() {
        let e = ToyFile::from_toml("[rules]\nreach = 2\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("toy.toml: ") && e.contains("missing field `cost`"),
            "{e}"
        );
        let e = ToyFile::from_toml("[rules]\nreach = 2\ncost = 1\ncots = 1\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown field `cots`"), "{e}");
    }

    #[test]
    fn rules_serialise_as_the_map_they_used_to_be() {
        let text = "[rules]\nreach = { value = 2, stand_in = true, reason = \"lost\" }\ncost = 1\n";
        let typed = ToyFile::from_toml(text).unwrap().rules;
        let map: toml::Table = toml::from_str(text).unwrap();
        let map: std::collections::BTreeMap<String, Num> = map["rules"].clone().try_into().unwrap();
        assert_eq!(
            serde_json::to_string(&typed).unwrap(),
            serde_json::to_string(&map).unwrap()
        );
        assert!(
            serde_json::to_string(&typed)
                .unwrap()
                .starts_with("{\"cost\":1.0,")
        );
    }

    /// The shipped files, through each ruleset's own typed struct: every rule the code reads
    /// is in the file and every key of the file is read, and they serialise as the old map.
    #[test]
    fn shipped_rulesets_load_typed_and_keep_their_state_layout() {
        let n = naval_rjw::data::RulesetData::from_toml(NAVAL).unwrap();
        let g = gear_krieg::data::RulesetData::from_toml(GEAR_KRIEG).unwrap();
        for (text, json) in [
            (NAVAL, serde_json::to_string(&n.rules).unwrap()),
            (GEAR_KRIEG, serde_json::to_string(&g.rules).unwrap()),
        ] {
            let t: toml::Table = toml::from_str(text).unwrap();
            let map: std::collections::BTreeMap<String, Num> =
                t["rules"].clone().try_into().unwrap();
            assert_eq!(json, serde_json::to_string(&map).unwrap());
        }
        assert_eq!(n.rules.entries().len(), 51);
        assert_eq!(g.rules.entries().len(), 50);
    }

    #[test]
    fn a_misspelt_or_missing_key_in_a_shipped_file_is_named_at_load() {
        let bad = NAVAL.replace("\ncruise = 3", "\ncrusie = 3");
        let e = naval_rjw::data::RulesetData::from_toml(&bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains("crusie"), "{e}");
        let bad = NAVAL.replace("\ncruise = 3", "\n");
        let e = naval_rjw::data::RulesetData::from_toml(&bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing field `cruise`"), "{e}");
        let bad = GEAR_KRIEG.replace("\ncp_defense =", "\ncp_defence =");
        let e = gear_krieg::data::RulesetData::from_toml(&bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains("cp_defence"), "{e}");
    }

    #[test]
    fn every_stand_in_of_both_shipped_files_gives_its_reason() {
        for (file, text, at_least) in [("naval", NAVAL, 22), ("gear krieg", GEAR_KRIEG, 60)] {
            let list = stand_ins(text).unwrap();
            assert!(
                list.len() >= at_least,
                "{file}: only {} stand-ins",
                list.len()
            );
            for s in &list {
                assert!(!s.reason.trim().is_empty(), "{file} {}: no reason", s.key);
                assert!(!s.value.is_empty(), "{file} {}: no value", s.key);
            }
        }
        let naval = stand_ins(NAVAL).unwrap();
        let join = naval.iter().find(|s| s.key == "rules.join_reach").unwrap();
        assert_eq!(join.value, "2");
        assert!(join.reason.contains("R25"));
        assert!(naval.iter().any(|s| s.key == "classes.DD.cf"));
        let gk = stand_ins(GEAR_KRIEG).unwrap();
        assert!(
            gk.iter()
                .any(|s| s.key.starts_with("vehicles.general.weapons["))
        );
    }

    #[test]
    fn stand_ins_without_a_reason_are_listed_so_the_check_can_fail() {
        let list = stand_ins("[a]\nx = { value = 1, stand_in = true }\ny = 2\n").unwrap();
        assert_eq!(
            list,
            vec![StandIn {
                key: "a.x".into(),
                value: "1".into(),
                reason: String::new()
            }]
        );
    }
}
