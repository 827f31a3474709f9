//! Every test file in `tests/*.rs` is a module of exactly one suite (`tests/suites/*.rs`), and
//! every suite is a `[[test]]` in Cargo.toml. With `autotests = false` (one binary per suite, not
//! per file) a file no suite names would never be compiled nor run, and nothing else would say so.

use std::collections::BTreeMap;
use std::path::Path;

/// What is wrong with the grouping: files in no suite or in several, suites Cargo.toml does not
/// build, and suites naming a file that does not exist.
fn membership_problems(
    files: &[String],
    suites: &[(String, String)],
    cargo_toml: &str,
) -> Vec<String> {
    let mut problems = Vec::new();
    if !cargo_toml.lines().any(|l| l.trim() == "autotests = false") {
        problems.push("Cargo.toml does not say `autotests = false`".to_string());
    }
    let mut owners: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (suite, text) in suites {
        let root = format!("path = \"tests/suites/{suite}.rs\"");
        if !cargo_toml.lines().any(|l| l.trim() == root) {
            problems.push(format!("suite {suite} is not a [[test]] in Cargo.toml"));
        }
        for line in text.lines() {
            // A member is `#[path = "../<file>.rs"]`; shared helpers live in sub-folders.
            let Some(file) = line
                .trim()
                .strip_prefix("#[path = \"../")
                .and_then(|r| r.strip_suffix(".rs\"]"))
            else {
                continue;
            };
            if file.contains('/') {
                continue;
            }
            if !files.iter().any(|f| f == file) {
                problems.push(format!(
                    "suite {suite} names tests/{file}.rs, which does not exist"
                ));
            }
            owners.entry(file).or_default().push(suite);
        }
    }
    for f in files {
        match owners.get(f.as_str()).map(Vec::len).unwrap_or(0) {
            1 => {}
            0 => problems.push(format!("tests/{f}.rs is in no suite: it would never run")),
            _ => problems.push(format!(
                "tests/{f}.rs is in several suites: {:?}",
                owners[f.as_str()]
            )),
        }
    }
    problems
}

fn read_tree() -> (Vec<String>, Vec<(String, String)>, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for e in std::fs::read_dir(root.join("tests")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "rs") {
            files.push(p.file_stem().unwrap().to_string_lossy().into_owned());
        }
    }
    let mut suites = Vec::new();
    for e in std::fs::read_dir(root.join("tests/suites")).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        suites.push((name, std::fs::read_to_string(&p).unwrap()));
    }
    files.sort();
    suites.sort();
    let cargo = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    (files, suites, cargo)
}

#[test]
fn every_test_file_is_in_exactly_one_suite_and_every_suite_is_built() {
    let (files, suites, cargo) = read_tree();
    assert!(
        files.len() > 50 && suites.len() > 5,
        "{} files, {} suites",
        files.len(),
        suites.len()
    );
    assert_eq!(
        membership_problems(&files, &suites, &cargo),
        Vec::<String>::new()
    );
}

/// Control: the same check on the real tree with one member left out, one named twice and one
/// suite dropped from Cargo.toml reports each of them.
#[test]
fn control_a_forgotten_file_a_doubled_one_and_an_unbuilt_suite_are_reported() {
    let (files, mut suites, cargo) = read_tree();
    let (first, text) = suites[0].clone();
    let member = text
        .lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("#[path = \"../")
                .and_then(|r| r.strip_suffix(".rs\"]"))
        })
        .find(|f| !f.contains('/'))
        .expect("a suite with a member")
        .to_string();
    suites[0].1 = text.replace(&format!("#[path = \"../{member}.rs\"]"), "");
    suites[1].1.push_str("#[path = \"../pipeline.rs\"]\n");
    let cargo = cargo.replace(&format!("path = \"tests/suites/{first}.rs\""), "");
    let problems = membership_problems(&files, &suites, &cargo);
    assert!(
        problems
            .iter()
            .any(|p| p.contains(&format!("tests/{member}.rs is in no suite"))),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("tests/pipeline.rs is in several suites")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains(&format!("suite {first} is not a [[test]]"))),
        "{problems:?}"
    );
}
