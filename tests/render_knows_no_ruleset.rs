//! The renderer knows no ruleset: no file under `src/render/` names a ruleset, a ruleset's
//! own terms, or any ship or unit of a shipped scenario. What a map shows comes from the scene
//! a ruleset fills (its styles from the ruleset's data), never from the drawing code. The
//! same check run over `src/rulesets/` must find plenty, so the check itself can fail.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                out.push((p, text));
            }
        }
    }
    out.sort();
    out
}

/// Names of ships and units in every shipped scenario (`[[sides.ships]]`, `[[sides.units]]`,
/// or top-level `[[unit]]`).
fn piece_names() -> Vec<String> {
    let mut names = Vec::new();
    for ruleset in std::fs::read_dir(root().join("games")).unwrap() {
        let dir = ruleset.unwrap().path().join("scenarios");
        for f in std::fs::read_dir(dir).unwrap() {
            let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
            let doc: toml::Value = toml::from_str(&text).unwrap();
            // Pieces listed under their sides, or at the top level as `[[unit]]` (Lone Star).
            let sides = doc.get("sides").and_then(|v| v.as_array()).cloned();
            for holder in sides.into_iter().flatten().chain([doc.clone()]) {
                for key in ["ships", "units", "unit"] {
                    for piece in holder
                        .get(key)
                        .and_then(|v| v.as_array())
                        .into_iter()
                        .flatten()
                    {
                        names.push(piece["name"].as_str().unwrap().to_string());
                    }
                }
            }
        }
    }
    assert!(names.len() > 30, "{names:?}");
    names
}

/// Ruleset names and terms only a ruleset has a word for.
fn terms() -> Vec<String> {
    let mut t: Vec<String> = std::fs::read_dir(root().join("games"))
        .unwrap()
        .flat_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            [name.clone(), name.replace('-', "_")]
        })
        .collect();
    t.extend(
        [
            "Gear Krieg",
            "Lone Star",
            "Last Hundred Yards",
            "La Bataille",
            "Russo-Japanese",
            "jungle",
            "woodland",
            "saturation",
            "Kampfgruppe",
            "crossroads",
            "Hill 112",
            "Togo",
            "Vitgeft",
        ]
        .map(String::from),
    );
    t.extend(piece_names());
    t
}

/// Does `word` occur in `text` as a whole word (not inside a longer one)?
fn mentions(text: &str, word: &str) -> bool {
    let lower = text.to_lowercase();
    let w = word.to_lowercase();
    lower.match_indices(&w).any(|(i, _)| {
        let before = lower[..i].chars().next_back();
        let after = lower[i + w.len()..].chars().next();
        let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric() && c != '_');
        edge(before) && edge(after)
    })
}

/// Every (file, term) where a file under `dir` mentions a term.
fn findings(dir: &Path, terms: &[String]) -> Vec<(String, String)> {
    sources(dir)
        .iter()
        .flat_map(|(p, text)| {
            terms
                .iter()
                .filter(|t| mentions(text, t))
                .map(move |t| (p.display().to_string(), t.clone()))
        })
        .collect()
}

#[test]
fn no_file_of_the_renderer_names_a_ruleset_or_its_pieces() {
    let terms = terms();
    let found = findings(&root().join("src/render"), &terms);
    assert!(found.is_empty(), "the renderer knows a ruleset: {found:?}");
    assert!(sources(&root().join("src/render")).len() >= 8);
}

#[test]
fn the_check_finds_what_is_there() {
    // Positive control: the rulesets themselves are full of these words.
    let terms = terms();
    let found = findings(&root().join("src/rulesets"), &terms);
    for t in ["Mikasa", "jungle", "Valkurie-1", "gear-krieg", "naval_rjw"] {
        assert!(
            found.iter().any(|(_, f)| f == t),
            "{t} not found in {found:?}"
        );
    }
    assert!(mentions("a // Mikasa's hull", "Mikasa"));
    assert!(!mentions("Mikasan", "Mikasa") && !mentions("jungles_x", "jungle"));
}
