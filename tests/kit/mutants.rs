//! The mutation run's survivors (issue 28, point 5): `mutants/survivors.toml` lists each mutant
//! of `src/rulesets/` that `cargo mutants` left alive, with why no test kills it, and
//! `mutants/runs.toml` records what each run examined. The kit holds a ruleset's entries to
//! its sources: each is an equivalent mutant (with why no program tells it apart) or an open
//! one (with the test it is owed), in a file a recorded run examined, naming a function that
//! still exists; and the open ones may only grow fewer (`OPEN_AT_MOST`).

use std::path::{Path, PathBuf};

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Survivors {
    #[serde(default)]
    survivor: Vec<Survivor>,
}

/// One mutant no test kills.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Survivor {
    /// The line of `cargo mutants`' missed.txt: `src/…/x.rs:12:5: replace …`.
    pub mutant: String,
    /// `equivalent`: no program behaves differently (the reason says why); `open`: a test is
    /// owed (the reason says which).
    pub kind: String,
    pub reason: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Runs {
    #[serde(default)]
    run: Vec<Run>,
}

/// One recorded run: the files it examined and what became of their mutants.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    pub date: String,
    pub commit: String,
    pub command: String,
    pub files: Vec<String>,
    pub mutants: u32,
    pub caught: u32,
    pub missed: u32,
    pub unviable: u32,
    pub timeouts: u32,
    /// Whether, with this run, every mutant of its files has been run once (by it alone, or
    /// with the earlier runs its note names). A run stopped before its end says `false`, and
    /// `mutants/queue.sh make` keeps its files in the queue; required, so no stopped run can
    /// pass for a finished one by leaving it out.
    pub complete: bool,
    /// What else a reader must know (a run stopped before its end, say).
    #[serde(default)]
    pub note: String,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read<T: for<'de> Deserialize<'de>>(name: &str) -> T {
    let p = root().join("mutants").join(name);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Every listed survivor.
pub fn survivors() -> Vec<Survivor> {
    read::<Survivors>("survivors.toml").survivor
}

/// Every recorded run.
pub fn runs() -> Vec<Run> {
    read::<Runs>("runs.toml").run
}

/// The function a mutant's name points into: `replace <f> -> …` or `… in <f>`.
pub fn function_of(mutant: &str) -> Option<String> {
    let words = mutant.split_once(": ")?.1;
    let name = match words.rsplit_once(" in ") {
        Some((_, f)) => f.to_string(),
        None => words
            .strip_prefix("replace ")?
            .split(" -> ")
            .next()?
            .to_string(),
    };
    // `Type::method` or `<impl Trait for Type>::method`: the method's own name.
    Some(name.rsplit("::").next()?.trim().to_string())
}

/// Checks the survivors of the files under `src/rulesets/<dir>/` and returns how many there are.
pub fn check(dir: &str) -> usize {
    let prefix = format!("src/rulesets/{dir}/");
    let runs = runs();
    let mine: Vec<Survivor> = survivors()
        .into_iter()
        .filter(|s| s.mutant.starts_with(&prefix))
        .collect();
    for s in &mine {
        let (place, _) = s
            .mutant
            .split_once(": ")
            .unwrap_or_else(|| panic!("`{}`: no `file:line:column: mutation`", s.mutant));
        let file = place.split(':').next().unwrap_or(place);
        assert!(
            s.kind == "equivalent" || s.kind == "open",
            "{}: kind is `equivalent` or `open`, not `{}`",
            s.mutant,
            s.kind
        );
        assert!(
            s.reason.split_whitespace().count() >= 6,
            "{}: say why no program tells it from the original, or which test it is owed",
            s.mutant
        );
        assert!(
            runs.iter().any(|r| r.files.iter().any(|f| f == file)),
            "{}: no recorded run examined {file}",
            s.mutant
        );
        let source = std::fs::read_to_string(root().join(file))
            .unwrap_or_else(|e| panic!("{}: {file}: {e}", s.mutant));
        let f = function_of(&s.mutant).unwrap_or_else(|| panic!("{}: no function", s.mutant));
        assert!(
            source.contains(&format!("fn {f}")),
            "{}: {file} has no `fn {f}` any more: run the file again and update the list",
            s.mutant
        );
    }
    mine.len()
}

/// Open survivors (owed a test) listed today: the number may only go down. Killing one lowers
/// it; a new one can only be listed by raising it, in plain sight.
pub const OPEN_AT_MOST: usize = 0;

/// The run records add up, and every survivor of every folder of `src/rulesets/` passes
/// `check` (the rulesets' own conformance tests check theirs again; the kit's folder only
/// here).
pub fn check_all() {
    for r in runs() {
        assert_eq!(
            r.caught + r.missed + r.unviable + r.timeouts,
            r.mutants,
            "run of {}: the outcomes must add up to the mutants",
            r.date
        );
        assert!(
            r.complete || r.note.split_whitespace().count() >= 6,
            "run of {} at {}: a run that is not complete says in its note what it did not reach",
            r.date,
            r.commit
        );
        for f in &r.files {
            assert!(
                Path::new(&root().join(f)).exists(),
                "run of {}: {f} does not exist",
                r.date
            );
        }
    }
    let dirs = std::fs::read_dir(root().join("src/rulesets")).unwrap();
    let mut listed = 0;
    for d in dirs.flatten().filter(|d| d.path().is_dir()) {
        listed += check(&d.file_name().to_string_lossy());
    }
    assert_eq!(
        listed,
        survivors().len(),
        "a survivor outside src/rulesets/"
    );
    let open = survivors().iter().filter(|s| s.kind == "open").count();
    // `open <= OPEN_AT_MOST` reads as absurd to clippy while the ratchet stands at 0.
    assert!(
        open.saturating_sub(OPEN_AT_MOST) == 0,
        "{open} open survivors, more than the {OPEN_AT_MOST} listed before: kill them with tests"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_function_is_read_from_either_form_of_a_mutant_name() {
        assert_eq!(
            function_of("src/a.rs:15:19: replace <= with > in band").as_deref(),
            Some("band")
        );
        assert_eq!(
            function_of("src/a.rs: replace may_shoot -> bool with true").as_deref(),
            Some("may_shoot")
        );
        assert_eq!(
            function_of(
                "src/a.rs: replace <impl Ruleset for X>::step -> StepSpec with Default::default()"
            )
            .as_deref(),
            Some("step")
        );
        assert_eq!(function_of("no colon here"), None);
    }
}
