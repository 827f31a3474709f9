//! Issue 28, point 5: the mutation runs over `src/rulesets/` are recorded (`mutants/runs.toml`)
//! and their survivors listed (`mutants/survivors.toml`): only equivalent mutants, each with
//! its reason, in files a run examined, naming functions that still exist.

use crate::kit;

#[test]
fn the_mutation_runs_add_up_and_every_survivor_is_an_equivalent_with_its_reason() {
    kit::mutants::check_all();
    assert!(!kit::mutants::runs().is_empty(), "no mutation run recorded");
}
