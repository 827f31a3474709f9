//! The layers of `src/`, as the README's "How it is built" writes them (its ```layers block, one
//! line per layer, lowest first): a top-level module may use only modules on lines above its own.
//! This test reads every source file's paths (`crate::x`, `use crate::{x, …}`, `super::` out of
//! the module) and fails on any arrow the block does not allow, on a module the block does not
//! name, and on a name the block keeps for a module that is gone. Its controls run the same
//! check on small made-up trees, so a checker that sees nothing fails. It also finds lines that
//! only silence an unused warning (`let _ = x;`): what they hide is dead code.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers block of a README: each module and the number of its line (0 = lowest).
fn layers_of(readme: &str) -> Result<BTreeMap<String, usize>, String> {
    let start = readme
        .find("```layers\n")
        .ok_or("the README has no ```layers block")?
        + "```layers\n".len();
    let len = readme[start..]
        .find("```")
        .ok_or("the ```layers block is not closed")?;
    let mut layers = BTreeMap::new();
    for (n, line) in readme[start..start + len].lines().enumerate() {
        let names = line.split('#').next().unwrap_or("");
        for m in names.split_whitespace() {
            if layers.insert(m.to_string(), n).is_some() {
                return Err(format!("{m} is named twice in the layers block"));
            }
        }
    }
    Ok(layers)
}

/// The module path of a source file under `src/` (`daemon/intake.rs` → [daemon, intake];
/// `config/mod.rs` → [config]); `lib.rs` is the root (empty).
pub(crate) fn module_path(rel: &str) -> Vec<String> {
    let rel = rel.strip_suffix(".rs").unwrap_or(rel);
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

pub(crate) fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The top-level modules one line of code names: `crate::x`, each `x` at the head of a
/// `crate::{x, y::z}` group, and `super::…::x` that climbs out of the file's top module.
fn names_in(line: &str, path: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while let Some(at) = line[i..].find("crate::") {
        let at = i + at;
        i = at + "crate::".len();
        if at > 0 && (bytes[at - 1] == b'$' || bytes[at - 1].is_ascii_alphanumeric()) {
            continue;
        }
        let rest = &line[i..];
        if let Some(group) = rest.strip_prefix('{') {
            // Heads of the group: after `{` or a comma at depth one.
            let (mut depth, mut head) = (1, true);
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => head = true,
                    c if head && (c.is_ascii_alphabetic() || c == '_') => {
                        out.push(ident_at(&group[k..]).to_string());
                        head = false;
                    }
                    _ => {}
                }
            }
        } else {
            out.push(ident_at(rest).to_string());
        }
    }
    // `super::` from a module `path` deep reaches the crate root after `path.len()` steps.
    let mut i = 0;
    while let Some(at) = line[i..].find("super::") {
        let at = i + at;
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b':') {
            i = at + 1;
            continue;
        }
        let mut rest = &line[at..];
        let mut ups = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            ups += 1;
            rest = r;
        }
        if ups >= path.len() {
            out.push(ident_at(rest).to_string());
        }
        i = at + ups * "super::".len();
    }
    out.retain(|n| !n.is_empty() && n != "self");
    out
}

/// Every arrow between top-level modules in `files` (path under `src/`, text) that `layers`
/// does not allow, and every module `layers` does not name or names in vain.
fn violations(layers: &BTreeMap<String, usize>, files: &[(String, String)]) -> Vec<String> {
    let mut found = BTreeSet::new();
    let mut tops = BTreeSet::new();
    for (rel, text) in files {
        let path = module_path(rel);
        let Some(top) = path.first() else { continue };
        tops.insert(top.clone());
        for line in text.lines() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            let code = code.split(" // ").next().unwrap_or(code);
            for to in names_in(code, &path) {
                if &to != top {
                    found.insert((top.clone(), to, rel.clone()));
                }
            }
        }
    }
    let mut problems = Vec::new();
    for top in &tops {
        if !layers.contains_key(top) {
            problems.push(format!("src/{top} is in no layer of the README's block"));
        }
    }
    for m in layers.keys() {
        if !tops.contains(m) {
            problems.push(format!(
                "the layers block names {m}, which src/ does not have"
            ));
        }
    }
    for (from, to, rel) in found {
        let (Some(f), Some(t)) = (layers.get(&from), layers.get(&to)) else {
            continue;
        };
        if t >= f {
            problems.push(format!(
                "src/{rel}: {from} uses {to}, which is not on a layer below it"
            ));
        }
    }
    problems
}

pub(crate) fn sources(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            sources(&p, root, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().to_string();
            out.push((rel, std::fs::read_to_string(&p).unwrap()));
        }
    }
}

pub(crate) fn tree(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect()
}

const SMALL: &str = "```layers\ndice\nengine   # pure\nmail\n```\n";

#[test]
fn src_keeps_the_layers_the_readme_writes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let layers = layers_of(&readme).unwrap();
    let mut files = Vec::new();
    sources(&root.join("src"), &root.join("src"), &mut files);
    let problems = violations(&layers, &files);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The scan sees the arrows that are there: the daemon uses the engine, the store and mail;
    // a checker that found no arrow at all would pass any tree.
    let daemon: Vec<_> = files
        .iter()
        .filter(|(p, _)| p.starts_with("daemon/"))
        .collect();
    for to in ["engine", "store", "mail"] {
        assert!(
            daemon.iter().any(|(p, t)| t
                .lines()
                .any(|l| names_in(l, &module_path(p)).iter().any(|n| n == to))),
            "no arrow daemon → {to} seen"
        );
    }
}

#[test]
fn an_arrow_up_the_layers_is_caught_however_it_is_written() {
    let layers = layers_of(SMALL).unwrap();
    let fine = tree(&[
        ("dice/mod.rs", "pub fn roll() {}"),
        (
            "engine/mod.rs",
            "use crate::dice::roll;\n// crate::mail in a comment\n",
        ),
        ("mail/mod.rs", "use crate::{dice, engine::x};"),
    ]);
    assert_eq!(violations(&layers, &fine), Vec::<String>::new());
    for up in [
        "use crate::mail::Mailbox;",
        "let x = crate::mail::DIGEST;",
        "use crate::{dice::roll, mail::{a, b}};",
        "use super::super::super::mail::x;",
    ] {
        let mut t = fine.clone();
        t.push(("engine/deep/more.rs".into(), up.into()));
        let problems = violations(&layers, &t);
        assert!(
            problems.len() == 1 && problems[0].contains("engine uses mail"),
            "{up}: {problems:?}"
        );
    }
    // A module on the same line as another may not use it either.
    let same = layers_of("```layers\ndice engine\nmail\n```").unwrap();
    assert_eq!(violations(&same, &fine).len(), 1);
    // `super::` inside its own top module is no arrow.
    let mut inside = fine.clone();
    inside.push((
        "engine/a/b.rs".into(),
        "use super::super::dice_helpers;".into(),
    ));
    assert_eq!(violations(&layers, &inside), Vec::<String>::new());
}

#[test]
fn the_block_must_name_every_module_and_no_other() {
    let layers = layers_of(SMALL).unwrap();
    let mut t = tree(&[
        ("dice/mod.rs", ""),
        ("engine/mod.rs", ""),
        ("mail/mod.rs", ""),
        ("lib.rs", "pub mod anything;"),
    ]);
    assert_eq!(violations(&layers, &t), Vec::<String>::new());
    t.push(("store.rs".into(), String::new()));
    assert_eq!(
        violations(&layers, &t),
        ["src/store is in no layer of the README's block"]
    );
    t.retain(|(p, _)| !p.starts_with("mail"));
    assert!(
        violations(&layers, &t)
            .iter()
            .any(|p| p.contains("names mail"))
    );
    assert!(layers_of("no block here").is_err());
    assert!(layers_of("```layers\ndice\ndice\n```").is_err());
}

/// A line that only names a binding or calls a function to throw the answer away, there to
/// silence an unused warning (`let _ = i;`, `let _ = roll::show(&[]);`): what it hides is dead.
fn dummy_use(line: &str) -> bool {
    let Some(rest) = line.trim().strip_prefix("let _ = ") else {
        return false;
    };
    let Some(what) = rest.strip_suffix(';') else {
        return false;
    };
    let path = |s: &str| {
        !s.is_empty()
            && s.split("::")
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    };
    path(what.trim_start_matches('&'))
        || what
            .strip_suffix("(&[])")
            .or_else(|| what.strip_suffix("()"))
            .is_some_and(path)
}

#[test]
fn src_has_no_dummy_uses() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &root.join("src"), &mut files);
    let found: Vec<String> = files
        .iter()
        .flat_map(|(p, t)| {
            t.lines()
                .enumerate()
                .filter(|(_, l)| dummy_use(l))
                .map(move |(n, l)| format!("src/{p}:{}: {}", n + 1, l.trim()))
        })
        .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
    // Controls: each shape the rulesets once had is seen; a real discard is not.
    for dummy in [
        "let _ = i;",
        "    let _ = def_units;",
        "let _ = roll::show_modifiers(&[]);",
    ] {
        assert!(dummy_use(dummy), "{dummy}");
    }
    for kept in [
        "let _ = fs::remove_file(&path);",
        "let _ = tx.send(x);",
        "let _guard = lock;",
    ] {
        assert!(!dummy_use(kept), "{kept}");
    }
}
