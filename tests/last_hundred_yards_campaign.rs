//! Last Hundred Yards campaigns (issue 34 point 2): rulings R39–R43, each named by a test
//! below and each tested on both sides of its threshold; the chain patrol → patrol →
//! bridgehead, losses applied as play applies them (`resolution::casualty`); the shipped
//! campaign file; the carry terms; a positive control that an untouched mission carries
//! nothing changed; and a patrol played to its end with the sample players, then carried.

use std::collections::BTreeMap;

use crate::lhy;

use despatch::dice::Dice;
use despatch::engine::{Outcome, Ruleset, Silence, Submitted};
use despatch::rulesets::kit::roster::Roster;
use despatch::rulesets::last_hundred_yards::LastHundredYards as Lhy;
use despatch::rulesets::last_hundred_yards::campaign::{self, Left};
use despatch::rulesets::last_hundred_yards::resolution;
use despatch::rulesets::last_hundred_yards::state::{LhyState, Phase, Place, Status};

fn terms(text: &str) -> toml::Table {
    text.parse().unwrap()
}

fn carry(st: &LhyState, next: &str, t: &str) -> LhyState {
    let text = Lhy::carry(st, next, &terms(t)).unwrap_or_else(|e| panic!("carry: {e}"));
    Lhy::setup(lhy::RULESET, &text, &lhy::seats()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// A casualty as Phase III gives it (R38: a squad becomes a section of its platoon).
fn hit(st: &mut LhyState, name: &str) {
    let mut dice = Dice::new(lhy::seed(7, name.len() as u64));
    resolution::casualty(st, name, &mut dice);
}

/// The mission over, won by `winner` (as R25's victory level says).
fn over(st: &mut LhyState, winner: &str, words: &str) {
    st.phase = Phase::GameOver;
    st.outcome = Some(Outcome {
        winners: vec![winner.into()],
        summary: words.into(),
    });
    st.result = Some(words.into());
}

fn place(st: &LhyState, name: &str) -> Place {
    st.unit(name).unwrap_or_else(|| panic!("{name}")).place
}

fn quality(st: &LhyState, name: &str) -> Option<String> {
    st.unit(name).unwrap().quality.clone()
}

/// What a side fields: (name, place, hex, quality, stands for), for comparing missions.
fn fielded(st: &LhyState) -> Vec<String> {
    st.units
        .iter()
        .map(|u| {
            format!(
                "{} {:?} {} {:?} {:?} {:?}",
                u.name,
                u.place,
                st.name_of(u.at),
                u.quality,
                u.stands_for,
                u.status
            )
        })
        .collect()
}

#[test]
fn r39_eliminated_units_stay_lost_exited_ones_return_and_a_fallen_leader_is_replaced() {
    let mut st = lhy::game(lhy::PATROL);
    hit(&mut st, "MG-30");
    hit(&mut st, "A1-L");
    st.unit_mut("A1-3").unwrap().place = Place::Exited;
    hit(&mut st, "MG-42");
    let next = carry(&st, lhy::BRIDGEHEAD, "");
    assert_eq!(place(&next, "MG-30"), Place::Eliminated);
    assert!(next.unit("MG-30").unwrap().lost);
    assert_eq!(place(&next, "MG-42"), Place::Eliminated);
    // Exited by an edge: back, in the next mission's own place.
    assert_eq!(place(&next, "A1-3"), Place::Map);
    assert_eq!(st.name_of(next.unit("A1-3").unwrap().at), "0718");
    // A new leader, green (R42): Cohesion one below the printed 6.
    assert_eq!(place(&next, "A1-L"), Place::Map);
    assert_eq!(quality(&next, "A1-L").as_deref(), Some("green"));
    assert_eq!(next.cohesion(next.unit("A1-L").unwrap()), 5);
    // Units the last mission did not field come fresh; conditions do not carry.
    assert_eq!(place(&next, "A2-1"), Place::Map);
    assert!(next.units.iter().all(|u| u.status == Status::Good));
    // The chain: lost in battle 1, still lost in battle 3 though battle 2 did not field it
    // in play (it is listed lost, so the state keeps it).
    let third = carry(&next, lhy::BRIDGEHEAD, "");
    assert_eq!(place(&third, "MG-30"), Place::Eliminated);
    assert_eq!(place(&third, "MG-42"), Place::Eliminated);
    // The leader who took over is no longer new: he stays green, not green again by a new fall.
    assert_eq!(quality(&third, "A1-L").as_deref(), Some("green"));
}

#[test]
fn r40_reduced_squads_fight_as_their_section_and_half_of_them_heal() {
    // The share: one of one heals (0.5 rounds up), none at a share just under a half, two of
    // three, one of two.
    assert_eq!(campaign::healed(1, 0.5), 1);
    assert_eq!(campaign::healed(1, 0.49), 0);
    assert_eq!(campaign::healed(2, 0.5), 1);
    assert_eq!(campaign::healed(3, 0.5), 2);
    assert_eq!(campaign::healed(0, 0.5), 0);
    let mut st = lhy::game(lhy::BRIDGEHEAD);
    hit(&mut st, "A1-1");
    hit(&mut st, "A1-2");
    assert_eq!(place(&st, "A1-1"), Place::Eliminated);
    let f = campaign::fates(&st);
    assert_eq!(f["A1-1"], Left::Reduced(None));
    assert_eq!(f["A1-2"], Left::Reduced(None));
    // Two reduced: the first in the mission's order heals, the second fights as a section.
    let next = carry(&st, lhy::BRIDGEHEAD, "replacements = false");
    assert_eq!(place(&next, "A1-1"), Place::Map);
    assert_eq!(place(&next, "A1-2"), Place::Eliminated);
    let sec = next
        .units
        .iter()
        .find(|u| u.stands_for.as_deref() == Some("A1-2"))
        .expect("a section stands for A1-2");
    assert_eq!((sec.place, st.name_of(sec.at)), (Place::Map, "0518".into()));
    // Without healing both stay reduced.
    let raw = carry(&st, lhy::BRIDGEHEAD, "replacements = false\nheal = false");
    assert_eq!(place(&raw, "A1-1"), Place::Eliminated);
    assert_eq!(place(&raw, "A1-2"), Place::Eliminated);
    assert_eq!(
        raw.units.iter().filter(|u| u.stands_for.is_some()).count(),
        2
    );
    // The chain: the section that stands for A1-2 keeps it reduced in battle 3 ...
    let third = carry(&raw, lhy::BRIDGEHEAD, "replacements = false\nheal = false");
    assert_eq!(
        third
            .units
            .iter()
            .filter(|u| u.stands_for.is_some())
            .count(),
        2
    );
    // ... and when it falls in battle 2, A1-2 is gone.
    let mut raw2 = raw.clone();
    let s = raw2
        .units
        .iter()
        .find(|u| u.stands_for.as_deref() == Some("A1-2"))
        .unwrap()
        .name
        .clone();
    hit(&mut raw2, &s);
    let third = carry(&raw2, lhy::BRIDGEHEAD, "replacements = false\nheal = false");
    assert_eq!(campaign::fates(&raw2)["A1-2"], Left::Gone);
    assert!(
        third
            .units
            .iter()
            .all(|u| u.stands_for.as_deref() != Some("A1-2"))
    );
    assert!(third.unit("A1-2").unwrap().lost);
    // A deployed squad whose two sections both live is whole; one section left: reduced.
    let mut d = lhy::game(lhy::BRIDGEHEAD);
    let mut dice = Dice::new(lhy::seed(3, 3));
    despatch::rulesets::last_hundred_yards::platoon::do_deploy(&mut d, "A1-3", &mut dice);
    assert_eq!(campaign::fates(&d)["A1-3"], Left::Whole(None));
    hit(&mut d, "A1-a");
    assert_eq!(campaign::fates(&d)["A1-3"], Left::Reduced(None));
}

#[test]
fn r41_replacements_by_nation_and_one_more_for_the_side_the_victory_level_names() {
    let mut st = lhy::game(lhy::PATROL);
    // Patrol Germans have no sections: a hit squad is gone at once.
    hit(&mut st, "G1-1");
    hit(&mut st, "G1-2");
    assert_eq!(place(&st, "G1-2"), Place::Eliminated);
    // Not over: Germany's one replacement brings G1-1 back, green; G1-2 stays lost.
    let next = carry(&st, lhy::PATROL, "");
    assert_eq!(place(&next, "G1-1"), Place::Map);
    assert_eq!(quality(&next, "G1-1").as_deref(), Some("green"));
    assert_eq!(next.cohesion(next.unit("G1-1").unwrap()), 4);
    assert_eq!(place(&next, "G1-2"), Place::Eliminated);
    // Germany won (its victory level): one more, so both come back.
    let mut won = st.clone();
    over(&mut won, "germany", "German victory: the village holds");
    let next = carry(&won, lhy::PATROL, "experience = false");
    assert_eq!(place(&next, "G1-2"), Place::Map);
    assert_eq!(
        quality(&next, "G1-2"),
        None,
        "experience = false: no quality changes"
    );
    // The US won instead: Germany gets only its one.
    let mut lost = st.clone();
    over(&mut lost, "us", "US victory");
    let next = carry(&lost, lhy::PATROL, "");
    assert_eq!(place(&next, "G1-2"), Place::Eliminated);
    // The US's two: three squads gone, two come back.
    let mut us = lhy::game(lhy::PATROL);
    for n in ["A1-1", "A1-2", "A1-3", "A1-a", "A1-b"] {
        us.unit_mut(n).unwrap().place = Place::Eliminated;
    }
    let next = carry(&us, lhy::PATROL, "");
    let back: Vec<Place> = ["A1-1", "A1-2", "A1-3"]
        .iter()
        .map(|n| place(&next, n))
        .collect();
    assert_eq!(back, [Place::Map, Place::Map, Place::Eliminated]);
    let none = carry(&us, lhy::PATROL, "replacements = false");
    assert_eq!(place(&none, "A1-1"), Place::Eliminated);
    // Replacements make a reduced squad whole before they bring a gone one back.
    let mut b = lhy::game(lhy::BRIDGEHEAD);
    hit(&mut b, "A1-1");
    b.unit_mut("A2-1").unwrap().place = Place::Eliminated;
    let next = carry(&b, lhy::BRIDGEHEAD, "heal = false");
    assert_eq!(place(&next, "A1-1"), Place::Map);
    assert_eq!(
        quality(&next, "A1-1"),
        None,
        "made up, not new: keeps its quality"
    );
    assert_eq!(place(&next, "A2-1"), Place::Map);
    assert_eq!(quality(&next, "A2-1").as_deref(), Some("green"));
}

#[test]
fn r42_units_holding_an_objective_in_good_order_step_up_green_line_veteran() {
    let mut st = lhy::game(lhy::PATROL);
    let cross = lhy::hex(&st, "0705");
    st.unit_mut("G1-1").unwrap().at = cross;
    st.unit_mut("G1-L").unwrap().at = cross;
    st.unit_mut("G1-2").unwrap().at = cross;
    st.unit_mut("G1-2").unwrap().status = Status::Disrupted;
    // Not over yet: nobody steps up.
    let next = carry(&st, lhy::PATROL, "");
    assert_eq!(quality(&next, "G1-1"), None);
    over(&mut st, "germany", "German victory: the village holds");
    let next = carry(&st, lhy::PATROL, "");
    assert_eq!(quality(&next, "G1-1").as_deref(), Some("veteran"));
    assert_eq!(next.cohesion(next.unit("G1-1").unwrap()), 6);
    // §1.1: the leader's 6 + 1 is the cap of 7.
    assert_eq!(next.cohesion(next.unit("G1-L").unwrap()), 7);
    // Disrupted at the end: no step up; elsewhere than an objective: none either.
    assert_eq!(quality(&next, "G1-2"), None);
    assert_eq!(quality(&next, "MG-42"), None);
    // An objective the enemy holds teaches nothing.
    let mut theirs = st.clone();
    theirs.objectives[0].held_by = Some("us".into());
    assert_eq!(quality(&carry(&theirs, lhy::PATROL, ""), "G1-1"), None);
    // Veteran stays veteran; green steps up to line (the counter as printed).
    let mut again = next.clone();
    again.unit_mut("G1-1").unwrap().at = cross;
    again.unit_mut("G1-2").unwrap().quality = Some("green".into());
    again.unit_mut("G1-2").unwrap().at = cross;
    over(&mut again, "germany", "German victory: the village holds");
    let third = carry(&again, lhy::PATROL, "");
    assert_eq!(quality(&third, "G1-1").as_deref(), Some("veteran"));
    assert_eq!(quality(&third, "G1-2"), None);
    assert_eq!(third.cohesion(third.unit("G1-2").unwrap()), 5);
    // experience = false: nobody steps up.
    assert_eq!(
        quality(&carry(&st, lhy::PATROL, "experience = false"), "G1-1"),
        None
    );
}

#[test]
fn r43_the_next_mission_says_how_the_last_ended_and_what_each_side_brings() {
    let mut st = lhy::game(lhy::PATROL);
    hit(&mut st, "MG-30");
    over(&mut st, "germany", "German victory: the village holds");
    let text = Lhy::carry(&st, lhy::BRIDGEHEAD, &terms("")).unwrap();
    let next = Lhy::setup(lhy::RULESET, &text, &lhy::seats()).unwrap();
    let d = &next.description;
    assert!(d.starts_with("November 1944."), "{d}");
    assert!(
        d.contains("follows \"Patrol: the village (teaching)\", which ended: German victory: the village holds."),
        "{d}"
    );
    assert!(d.contains("US 1st Platoon: MG-30 is gone."), "{d}");
    assert!(d.contains("German 1st Platoon: as it was."), "{d}");
    let fresh = lhy::game(lhy::PATROL);
    let d = carry(&fresh, lhy::PATROL, "").description;
    assert!(d.contains("which was not played to its end"), "{d}");
}

#[test]
fn carry_terms_unknown_or_mistyped_are_refused_and_the_sides_must_match() {
    let st = lhy::game(lhy::PATROL);
    let e = Lhy::carry(&st, lhy::PATROL, &terms("rally_routed = true"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("carry term `rally_routed`") && e.contains("heal"),
        "{e}"
    );
    let e = Lhy::carry(&st, lhy::PATROL, &terms("heal = 1"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("carry term `heal`: write true or false"), "{e}");
    let other = lhy::PATROL.replace("id = \"germany\"", "id = \"axis\"");
    let e = Lhy::carry(&st, &other, &terms("")).unwrap_err().to_string();
    assert!(e.contains("the sides do not match"), "{e}");
    // A game set up before campaigns (no [campaign] in its ruleset.toml) is refused clearly.
    let old = lhy::RULESET.split("\n[campaign]").next().unwrap();
    let st = Lhy::setup(old, lhy::PATROL, &lhy::seats()).unwrap();
    let e = Lhy::carry(&st, lhy::PATROL, &terms(""))
        .unwrap_err()
        .to_string();
    assert!(e.contains("no [campaign] numbers"), "{e}");
}

#[test]
fn an_untouched_mission_carries_nothing_changed_and_old_states_keep_their_bytes() {
    for scen in [lhy::PATROL, lhy::BRIDGEHEAD] {
        let fresh = lhy::game(scen);
        let same = carry(&fresh, scen, "");
        assert_eq!(fielded(&same), fielded(&fresh));
        // The campaign fields are not written when unset: a state without them serialises
        // as before (no key `quality`, `lost` or `stands_for` appears).
        let json = serde_json::to_string(&fresh.units).unwrap();
        assert!(
            !json.contains("quality") && !json.contains("\"lost\"") && !json.contains("stands_for")
        );
        // And a state from a ruleset.toml without [campaign] has no `campaign` key at all.
        let old = lhy::RULESET.split("\n[campaign]").next().unwrap();
        let st = Lhy::setup(old, scen, &lhy::seats()).unwrap();
        assert!(!serde_json::to_string(&st).unwrap().contains("\"campaign\""));
    }
}

#[test]
fn the_shipped_campaign_names_shipped_scenarios_and_every_pair_carries() {
    let dir = format!("{}/games/last-hundred-yards", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(format!("{dir}/campaigns/mill-village.toml")).unwrap();
    let c: toml::Table = text.parse().unwrap();
    let battles = c["battle"].as_array().unwrap();
    let scen = |key: &str| {
        let b = battles
            .iter()
            .find(|b| b["key"].as_str() == Some(key))
            .unwrap();
        let s = b["scenario"].as_str().unwrap();
        std::fs::read_to_string(format!("{dir}/scenarios/{s}.toml")).unwrap()
    };
    let t = c["carry"].as_table().unwrap().clone();
    for b in battles {
        let from = scen(b["key"].as_str().unwrap());
        let mut nexts: Vec<String> = b
            .get("next")
            .and_then(|v| v.as_str())
            .map(str::to_string)
            .into_iter()
            .collect();
        if let Some(after) = b.get("after").and_then(|v| v.as_table()) {
            nexts.extend(
                after
                    .values()
                    .filter_map(|v| v.as_str())
                    .map(str::to_string),
            );
        }
        for n in nexts.into_iter().filter(|n| n != "end") {
            let st = lhy::game(&from);
            let text = Lhy::carry(&st, &scen(&n), &t).unwrap();
            Lhy::setup(lhy::RULESET, &text, &lhy::seats()).unwrap();
        }
    }
}

/// Plays `st` to its end with the ruleset's sample players, in process.
fn play_out(mut st: LhyState, seed: u64) -> LhyState {
    for i in 0..600u64 {
        if st.phase == Phase::GameOver {
            return st;
        }
        let spec = Lhy::step(&st);
        let mut subs = BTreeMap::new();
        for p in &spec.prompts {
            let sub = if p.required {
                let text = Lhy::sample_orders(&st, &p.seat, seed * 1000 + i);
                Submitted::Orders(Lhy::parse(&st, &p.seat, &text).expect("sample orders parse"))
            } else {
                Submitted::Nmr(Silence::StandingOrders)
            };
            subs.entry(p.seat.clone()).or_insert(sub);
        }
        let mut dice = Dice::new(lhy::seed(seed, i));
        st = Lhy::resolve(&st, &subs, &mut dice);
    }
    panic!("the patrol did not end in 600 steps");
}

#[test]
fn a_patrol_played_to_its_end_carries_into_the_bridgehead_and_the_chain_goes_on() {
    for seed in [1, 2] {
        let first = play_out(lhy::game(lhy::PATROL), seed);
        let second = carry(&first, lhy::PATROL, "");
        let second = play_out(second, seed + 10);
        let third = carry(&second, lhy::BRIDGEHEAD, "");
        // What the first patrol took stays taken, unless replacements made it up: every unit
        // lost in the second patrol's set-up is lost or back green in the bridgehead.
        let held = |n: &str| {
            second
                .units
                .iter()
                .any(|s| s.stands_for.as_deref() == Some(n))
        };
        for u in second.units.iter().filter(|u| u.lost && !held(&u.name)) {
            let now = third.unit(&u.name).unwrap();
            assert!(
                now.lost || now.quality.as_deref() == Some("green"),
                "{}",
                u.name
            );
        }
        // Same bytes from the same input: the ledger re-derives the carry.
        let a = Lhy::carry(&second, lhy::BRIDGEHEAD, &terms("")).unwrap();
        let b = Lhy::carry(&second, lhy::BRIDGEHEAD, &terms("")).unwrap();
        assert_eq!(a, b);
    }
}
