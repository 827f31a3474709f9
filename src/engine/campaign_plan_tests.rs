//! The campaign plan's checks, branching and ledger (rulings C1–C4 in docs/campaigns.md).

use super::*;

const BRANCHING: &str = r#"
title = "Two days"
description = "A test."
[points]
win = 3
draw = 1
loss = 0
[[battle]]
key = "first-day"
scenario = "a"
[battle.after]
north = "pursuit"
south = "stand"
draw = "stand"
[[battle]]
key = "pursuit"
scenario = "b"
[[battle]]
key = "stand"
scenario = "c"
next = "end"
"#;

fn sides() -> Vec<String> {
    vec!["north".into(), "south".into()]
}

fn fought(game: &str, key: &str, winners: Option<&[&str]>) -> Fought {
    Fought {
        game: game.into(),
        key: key.into(),
        winners: winners.map(|w| w.iter().map(|s| s.to_string()).collect()),
        summary: "done".into(),
        abandoned: false,
    }
}

#[test]
fn c1_a_plan_that_cannot_end_or_names_what_is_not_there_is_refused() {
    let p = Plan::parse(BRANCHING).unwrap();
    assert_eq!(p.first_key(), "first-day");
    assert_eq!(p.longest(), 2);
    let looped = BRANCHING.replace("next = \"end\"", "next = \"first-day\"");
    let e = Plan::parse(&looped).unwrap_err().0;
    assert!(e.contains("loops"), "{e}");
    let unknown = BRANCHING.replace("south = \"stand\"", "south = \"retreat\"");
    let e = Plan::parse(&unknown).unwrap_err().0;
    assert!(e.contains("`retreat`, which is not a battle"), "{e}");
    let orphan = BRANCHING
        .replace("draw = \"stand\"", "draw = \"pursuit\"")
        .replace("south = \"stand\"", "south = \"pursuit\"");
    let e = Plan::parse(&orphan).unwrap_err().0;
    assert!(e.contains("`stand` can never be played"), "{e}");
    let both = BRANCHING.replace(
        "[battle.after]\nnorth",
        "next = \"stand\"\n[battle.after]\nnorth",
    );
    assert!(
        Plan::parse(&both)
            .unwrap_err()
            .0
            .contains("both `next` and `after`")
    );
    let twice = BRANCHING.replace("key = \"pursuit\"", "key = \"stand\"");
    assert!(
        Plan::parse(&twice)
            .unwrap_err()
            .0
            .contains("declared twice")
    );
    assert!(
        Plan::parse("title = \"x\"\nbattle = []")
            .unwrap_err()
            .0
            .contains("no [[battle]]")
    );
    assert!(
        Plan::parse(&format!("{BRANCHING}\nextra = 1")).is_err(),
        "unknown keys refused"
    );
    // The sides: `after` must name them.
    assert!(p.check_sides(&sides()).is_ok());
    let e = p
        .check_sides(&["north".into(), "west".into()])
        .unwrap_err()
        .0;
    assert!(e.contains("`after.south` names no side"), "{e}");
}

#[test]
fn c2_the_next_battle_follows_the_result() {
    let p = Plan::parse(BRANCHING).unwrap();
    let w = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        p.follows("first-day", &w(&["north"])).unwrap().key,
        "pursuit"
    );
    assert_eq!(p.follows("first-day", &w(&["south"])).unwrap().key, "stand");
    assert_eq!(p.follows("first-day", &[]).unwrap().key, "stand");
    // Several winners: the first that `after` names.
    assert_eq!(
        p.follows("first-day", &w(&["west", "south"])).unwrap().key,
        "stand"
    );
    assert!(p.follows("stand", &w(&["north"])).is_none(), "`end`");
    assert!(p.follows("pursuit", &[]).is_none(), "no next: the end");
    let lin = Plan::parse(
        &Plan::linear(
            "Chain",
            &["a".into(), "b".into(), "a".into()],
            toml::Table::new(),
        )
        .unwrap(),
    )
    .unwrap();
    let keys: Vec<&str> = lin.battle.iter().map(|b| b.key.as_str()).collect();
    assert_eq!(keys, ["a", "b", "a-2"]);
    assert_eq!(lin.follows("b", &[]).unwrap().key, "a-2");
    assert_eq!(lin.longest(), 3);
}

#[test]
fn c3_points_count_each_battle_and_the_most_points_win_the_campaign() {
    let p = Plan::parse(BRANCHING).unwrap();
    let l = ledger(
        &p,
        &sides(),
        &[fought("g-1", "first-day", Some(&["south"]))],
    )
    .unwrap();
    assert_eq!(
        l.totals,
        [("north".to_string(), 0), ("south".to_string(), 3)]
    );
    assert_eq!(l.next, Next::Battle("stand".into()));
    assert_eq!(l.winners, None);
    let l = ledger(
        &p,
        &sides(),
        &[
            fought("g-1", "first-day", Some(&["south"])),
            fought("g-2", "stand", Some(&[])),
        ],
    )
    .unwrap();
    assert_eq!(
        l.totals,
        [("north".to_string(), 1), ("south".to_string(), 4)]
    );
    assert_eq!(l.next, Next::Over);
    assert_eq!(l.winners, Some(vec!["south".to_string()]));
    let text = l.text("june");
    assert!(text.contains("Standing: North 1, South 4"), "{text}");
    assert!(text.contains("South wins it"), "{text}");
    // Level on points: a drawn campaign.
    let l = ledger(
        &p,
        &sides(),
        &[
            fought("g-1", "first-day", Some(&[])),
            fought("g-2", "stand", Some(&[])),
        ],
    )
    .unwrap();
    assert_eq!(l.winners, Some(vec![]));
    assert!(l.text("june").contains("drawn"));
    // A battle still fought.
    let l = ledger(&p, &sides(), &[fought("g-1", "first-day", None)]).unwrap();
    assert_eq!(l.next, Next::Fighting("first-day".into()));
    assert_eq!(
        l.totals,
        [("north".to_string(), 0), ("south".to_string(), 0)]
    );
}

#[test]
fn c4_a_chain_the_plan_does_not_allow_is_refused() {
    let p = Plan::parse(BRANCHING).unwrap();
    // South won the first day, so `stand` follows, not `pursuit`.
    let e = ledger(
        &p,
        &sides(),
        &[
            fought("g-1", "first-day", Some(&["south"])),
            fought("g-2", "pursuit", None),
        ],
    )
    .unwrap_err()
    .0;
    assert!(e.contains("the plan has `stand`"), "{e}");
    let e = ledger(&p, &sides(), &[fought("g-1", "stand", None)])
        .unwrap_err()
        .0;
    assert!(e.contains("the plan has `first-day`"), "{e}");
    let e = ledger(
        &p,
        &sides(),
        &[
            fought("g-1", "first-day", Some(&["north"])),
            fought("g-2", "pursuit", Some(&[])),
            fought("g-3", "stand", None),
        ],
    )
    .unwrap_err()
    .0;
    assert!(e.contains("after the campaign ended"), "{e}");
    let e = ledger(
        &p,
        &sides(),
        &[
            fought("g-1", "first-day", None),
            fought("g-2", "stand", None),
        ],
    )
    .unwrap_err()
    .0;
    assert!(e.contains("still fought"), "{e}");
}

#[test]
fn c5_an_abandoned_battle_ends_the_campaign_without_points() {
    let p = Plan::parse(BRANCHING).unwrap();
    let mut f = fought("g-1", "first-day", Some(&[]));
    f.abandoned = true;
    let l = ledger(&p, &sides(), &[f.clone()]).unwrap();
    assert_eq!(l.next, Next::Over);
    assert_eq!(
        l.totals,
        [("north".to_string(), 0), ("south".to_string(), 0)]
    );
    assert!(l.text("june").contains("the campaign stops here"));
    // Not abandoned, the same result is a draw worth a point each and `stand` follows.
    f.abandoned = false;
    let l = ledger(&p, &sides(), &[f]).unwrap();
    assert_eq!(l.next, Next::Battle("stand".into()));
    assert_eq!(
        l.totals,
        [("north".to_string(), 1), ("south".to_string(), 1)]
    );
}

#[test]
fn the_welcome_note_says_which_battle_and_the_standing() {
    let p = Plan::parse(BRANCHING).unwrap();
    let none = ledger(&p, &sides(), &[]).unwrap();
    let n1 = welcome_note("june", &p, 1, "first-day", &none);
    assert!(
        n1.contains("battle 1 (first-day) of at most 2") && n1.contains("A test."),
        "{n1}"
    );
    let after = ledger(
        &p,
        &sides(),
        &[fought("g-1", "first-day", Some(&["north"]))],
    )
    .unwrap();
    let n2 = welcome_note("june", &p, 2, "pursuit", &after);
    assert!(
        n2.contains("Before it: first-day: done. Standing: North 3, South 0."),
        "{n2}"
    );
}

#[test]
fn a_plan_that_branches_at_every_battle_is_read_in_time_its_size_allows() {
    // 60 battles, each followed by either of the next two: 2^59 chains, 60 battles to read.
    let mut text = String::from("title = \"Ladder\"\n");
    for i in 0..60 {
        text.push_str(&format!("[[battle]]\nkey = \"b{i}\"\nscenario = \"s\"\n"));
        if i + 2 < 60 {
            text.push_str(&format!(
                "[battle.after]\nnorth = \"b{}\"\nsouth = \"b{}\"\n",
                i + 1,
                i + 2
            ));
        } else if i + 1 < 60 {
            text.push_str(&format!("next = \"b{}\"\n", i + 1));
        }
    }
    let p = Plan::parse(&text).unwrap();
    assert_eq!(p.longest(), 60);
    // A loop at the far end is still found.
    let looped = text.replace(
        "key = \"b59\"\nscenario = \"s\"\n",
        "key = \"b59\"\nscenario = \"s\"\nnext = \"b0\"\n",
    );
    assert!(Plan::parse(&looped).unwrap_err().0.contains("loops"));
}
