//! Issue 28, point 5: the mutation runs over `src/rulesets/` are recorded (`mutants/runs.toml`)
//! and their survivors listed (`mutants/survivors.toml`): equivalent ones with the reason, open
//! ones with the test they are owed, in files a run examined, naming functions that still
//! exist; the open ones only grow fewer.

use crate::kit;

#[test]
fn the_mutation_runs_add_up_and_the_open_survivors_only_grow_fewer() {
    kit::mutants::check_all();
    assert!(!kit::mutants::runs().is_empty(), "no mutation run recorded");
}
