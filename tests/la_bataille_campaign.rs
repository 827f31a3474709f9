//! La Bataille campaigns (issue 34 point 2; rulings R39–R43): what a finished battle carries
//! into the next scenario's set-up, each ruling on both sides of its threshold; the chain of
//! three battles; the shipped campaign's files; unknown terms refused; an untouched battle
//! carrying nothing; and a battle played to its end by the sample players carried into the
//! next. Losses are applied with the ruleset's own loss function, as play applies them.

use std::time::Instant;

use despatch::dice::Dice;
use despatch::engine::{Ruleset, Silence, Submitted};
use despatch::rulesets::kit::roster::{Roster, TwoSides};
use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::la_bataille::campaign::TERMS;
use despatch::rulesets::la_bataille::combat::{eliminated, take_losses};
use despatch::rulesets::la_bataille::state::{Cohesion, Fatigue, LbState, Unit};

use crate::lbt::{RULESET, seats};

fn shipped(path: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/games/la-bataille/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn scenario(name: &str) -> String {
    shipped(&format!("scenarios/{name}.toml"))
}

fn battle(text: &str) -> LbState {
    LaBataille::setup(RULESET, text, &seats()).unwrap_or_else(|e| panic!("set-up: {e}\n{text}"))
}

fn terms(text: &str) -> toml::Table {
    text.parse().unwrap()
}

/// The next battle as `finished` leaves it, set up.
fn carried(finished: &LbState, next: &str, t: &str) -> LbState {
    let text = LaBataille::carry(finished, next, &terms(t)).unwrap_or_else(|e| panic!("{e}"));
    battle(&text)
}

fn unit<'a>(st: &'a LbState, name: &str) -> &'a Unit {
    st.unit(name)
        .unwrap_or_else(|| panic!("{name} is not in the battle"))
}

/// `n` increments off `name`, as fire and routs take them.
fn lose(st: &mut LbState, name: &str, n: u32) {
    take_losses(st, &[name.to_string()], n);
}

fn strength(st: &LbState, name: &str) -> (u32, u32) {
    let u = unit(st, name);
    (u.increments, u.full)
}

#[test]
fn r39_eliminated_units_are_gone_and_lost_increments_stay_lost() {
    let teaching = scenario("teaching");
    let mut st = battle(&teaching);
    lose(&mut st, "1/45e", 4);
    lose(&mut st, "2/45e", 1);
    assert!(!unit(&st, "1/45e").alive());
    let next = carried(&st, &teaching, "");
    assert!(next.unit("1/45e").is_none(), "an eliminated unit is gone");
    assert_eq!(strength(&next, "2/45e"), (3, 4), "one lost stays lost");
    assert_eq!(strength(&next, "1er-Cuirassiers"), (3, 3), "untouched");
    // Half strength counts against the full strength: 2 of 4 is at half from the first turn.
    let text = LaBataille::carry(&st, &teaching, &terms("")).unwrap();
    assert!(text.contains("Campaign: this battle follows the last one"));
    assert!(text.contains("france 1, allies 0"), "{text}");
    assert!(text.contains("2/45e 1 increment(s) short"), "{text}");
    // The next scenario fields the unit with its own strength, less what it is short: gone
    // when that leaves nothing, one increment when it leaves one.
    let mut st = battle(&teaching);
    lose(&mut st, "5th-KGL", 3); // 1 of 4 left, 3 lost: one straggler back, 2 short.
    let weak = |n: u32| {
        teaching.replacen(
            "hex = \"0804\"\nfacing = \"S\"\nformation = \"line\"\nincrements = 4",
            &format!("hex = \"0804\"\nfacing = \"S\"\nformation = \"line\"\nincrements = {n}"),
            1,
        )
    };
    assert_ne!(weak(2), teaching);
    assert!(carried(&st, &weak(2), "").unit("5th-KGL").is_none());
    assert_eq!(strength(&carried(&st, &weak(3), ""), "5th-KGL"), (1, 3));
    assert_eq!(strength(&carried(&st, &teaching, ""), "5th-KGL"), (2, 4));
}

#[test]
fn r40_a_share_of_stragglers_comes_back_overnight() {
    let teaching = scenario("teaching");
    let after = |lost: u32, t: &str| {
        let mut st = battle(&teaching);
        lose(&mut st, "28th-Foot", lost);
        strength(&carried(&st, &teaching, t), "28th-Foot").0
    };
    // One in two (stragglers_per = 2), rounded down.
    assert_eq!(after(1, ""), 3, "one lost: none back");
    assert_eq!(after(2, ""), 3, "two lost: one back");
    assert_eq!(after(3, ""), 2, "three lost: one back");
    assert_eq!(after(2, "stragglers_return = true"), 3);
    assert_eq!(
        after(2, "stragglers_return = false"),
        2,
        "the term off: none back"
    );
    assert_eq!(after(3, "stragglers_return = false"), 1);
    // Counted on this battle's losses only: a unit brought in at 2 of 4 that loses nothing
    // more gets nothing back the next night.
    let mut st = battle(&teaching);
    lose(&mut st, "28th-Foot", 3);
    let day2 = carried(&st, &teaching, "stragglers_return = false");
    assert_eq!(strength(&day2, "28th-Foot"), (1, 4));
    let mut st = battle(&teaching);
    lose(&mut st, "28th-Foot", 2);
    let day2 = carried(&st, &teaching, "stragglers_return = false");
    assert_eq!(strength(&day2, "28th-Foot"), (2, 4));
    assert_eq!(unit(&day2, "28th-Foot").began(), 2);
    assert_eq!(
        strength(&carried(&day2, &teaching, ""), "28th-Foot"),
        (2, 4)
    );
}

#[test]
fn r41_fatigue_carries_less_a_nights_rest() {
    let teaching = scenario("teaching");
    let mut st = battle(&teaching);
    st.unit_mut("1er-Cuirassiers").unwrap().fatigue = Fatigue::Exhausted;
    let next = carried(&st, &teaching, "");
    assert_eq!(unit(&next, "1er-Cuirassiers").fatigue, Fatigue::Tired);
    let next = carried(&next, &teaching, "");
    assert_eq!(unit(&next, "1er-Cuirassiers").fatigue, Fatigue::Fresh);
    let mut st = battle(&teaching);
    st.unit_mut("1er-Cuirassiers").unwrap().fatigue = Fatigue::Tired;
    let next = carried(&st, &teaching, "");
    assert_eq!(unit(&next, "1er-Cuirassiers").fatigue, Fatigue::Fresh);
    assert_eq!(unit(&next, "1/45e").fatigue, Fatigue::Fresh);
}

#[test]
fn r42_routed_units_rally_overnight_unless_the_campaign_says_not() {
    let teaching = scenario("teaching");
    let mut st = battle(&teaching);
    st.unit_mut("28th-Foot").unwrap().cohesion = Cohesion::Routed;
    st.unit_mut("5th-KGL").unwrap().cohesion = Cohesion::Disordered;
    for t in ["", "rally_routed = true"] {
        let next = carried(&st, &teaching, t);
        assert_eq!(
            unit(&next, "28th-Foot").cohesion,
            Cohesion::GoodOrder,
            "{t}"
        );
        assert_eq!(unit(&next, "5th-KGL").cohesion, Cohesion::GoodOrder, "{t}");
    }
    let next = carried(&st, &teaching, "rally_routed = false");
    assert_eq!(unit(&next, "28th-Foot").cohesion, Cohesion::Routed);
    assert_eq!(unit(&next, "5th-KGL").cohesion, Cohesion::GoodOrder);
    assert_eq!(unit(&next, "Sandham").cohesion, Cohesion::GoodOrder);
    // Still routed chains: a unit that stays routed through battle 2 starts battle 3 routed.
    let third = carried(&next, &teaching, "rally_routed = false");
    assert_eq!(unit(&third, "28th-Foot").cohesion, Cohesion::Routed);
}

#[test]
fn r43_lost_leaders_are_gone_and_one_without_his_unit_rides_on() {
    let teaching = scenario("teaching");
    let mut st = battle(&teaching);
    // Ney's 1/45e is eliminated while others stand: he rides on, and comes to the next
    // battle with 1/45e gone, so with the first French unit the scenario still fields.
    lose(&mut st, "1/45e", 4);
    assert!(!st.leaders.iter().find(|l| l.name == "Ney").unwrap().gone);
    // Picton is killed.
    st.leaders
        .iter_mut()
        .find(|l| l.name == "Picton")
        .unwrap()
        .gone = true;
    let next = carried(&st, &teaching, "");
    assert!(!next.leaders.iter().any(|l| l.name == "Picton"));
    let ney = next.leaders.iter().find(|l| l.name == "Ney").unwrap();
    assert_eq!(ney.with, "2/45e");
    // A leader whose unit survives stays with it.
    let mut st = battle(&teaching);
    eliminated(&mut st, "2/45e");
    let next = carried(&st, &teaching, "");
    assert_eq!(
        next.leaders.iter().find(|l| l.name == "Ney").unwrap().with,
        "1/45e"
    );
    assert!(next.leaders.iter().any(|l| l.name == "Picton"));
}

/// Battle 1 → 2 → 3 on the teaching field: each carries what the last left, including what it
/// inherited.
#[test]
fn three_battles_chain_what_each_left() {
    let teaching = scenario("teaching");
    let mut one = battle(&teaching);
    lose(&mut one, "28th-Foot", 3); // 1 left, one straggler back: 2 of 4.
    lose(&mut one, "6e-Batterie", 2); // eliminated
    one.unit_mut("1er-Cuirassiers").unwrap().fatigue = Fatigue::Exhausted;
    one.leaders
        .iter_mut()
        .find(|l| l.name == "Picton")
        .unwrap()
        .gone = true;
    let mut two = carried(&one, &teaching, "");
    assert!(!two.leaders.iter().any(|l| l.name == "Picton"));
    assert_eq!(strength(&two, "28th-Foot"), (2, 4));
    assert!(two.unit("6e-Batterie").is_none());
    assert_eq!(unit(&two, "1er-Cuirassiers").fatigue, Fatigue::Tired);
    lose(&mut two, "28th-Foot", 1); // 1 left, 1 lost today: none back.
    lose(&mut two, "2/45e", 2); // 2 left, one back: 3 of 4.
    two.unit_mut("1er-Cuirassiers").unwrap().fatigue = Fatigue::Exhausted;
    let three = carried(&two, &teaching, "");
    assert_eq!(strength(&three, "28th-Foot"), (1, 4));
    assert_eq!(strength(&three, "2/45e"), (3, 4));
    // Gone in battle 1, never in battle 2, listed again by battle 3's scenario: still gone.
    assert!(three.unit("6e-Batterie").is_none());
    assert!(!three.leaders.iter().any(|l| l.name == "Picton"));
    assert_eq!(
        three.side("france").unwrap().gone,
        vec!["6e-Batterie".to_string()]
    );
    assert_eq!(
        three.side("allies").unwrap().gone,
        vec!["Picton".to_string()]
    );
    assert_eq!(unit(&three, "1er-Cuirassiers").fatigue, Fatigue::Tired);
    assert_eq!(strength(&three, "Sandham"), (2, 2));
}

#[test]
fn an_untouched_battle_carries_nothing_changed() {
    for name in ["teaching", "quatre-bras-1815"] {
        let text = scenario(name);
        let fresh = battle(&text);
        let next = carried(&fresh, &text, "");
        assert_eq!(next.units, fresh.units, "{name}");
        assert_eq!(next.leaders, fresh.leaders, "{name}");
        assert!(next.description.contains("france 0, allies 0"));
        assert!(!next.description.contains("Worn"), "{}", next.description);
    }
    // Deterministic: the same input gives the same bytes.
    let text = scenario("teaching");
    let mut st = battle(&text);
    lose(&mut st, "5th-KGL", 2);
    let a = LaBataille::carry(&st, &text, &terms("")).unwrap();
    let b = LaBataille::carry(&st, &text, &terms("")).unwrap();
    assert_eq!(a, b);
}

#[test]
fn unknown_and_ill_typed_terms_are_refused_by_name() {
    let text = scenario("teaching");
    let st = battle(&text);
    let e = LaBataille::carry(&st, &text, &terms("rally = true"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("`rally`") && e.contains("rally_routed, stragglers_return"),
        "{e}"
    );
    let e = LaBataille::carry(&st, &text, &terms("rally_routed = \"yes\""))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("rally_routed") && e.contains("true or false"),
        "{e}"
    );
    assert_eq!(TERMS, ["rally_routed", "stragglers_return"]);
    // Sides that do not match are refused, a hand-edited carried scenario is refused with a
    // reason, never a panic.
    let other = text.replace("\"allies\"", "\"prussians\"");
    assert!(LaBataille::carry(&st, &other, &terms("")).is_err());
    let bad = text.replacen("morale = 8\n", "morale = 8\nfatigue = \"sleepy\"\n", 1);
    let e = LaBataille::setup(RULESET, &bad, &seats())
        .unwrap_err()
        .to_string();
    assert!(e.contains("sleepy"), "{e}");
    let bad = text.replacen("morale = 8\n", "morale = 8\nfull = 2\n", 1);
    let e = LaBataille::setup(RULESET, &bad, &seats())
        .unwrap_err()
        .to_string();
    assert!(e.contains("full = 2"), "{e}");
}

#[test]
fn the_shipped_campaign_names_its_scenarios_and_each_pair_carries() {
    let dir = format!("{}/games/la-bataille/campaigns", env!("CARGO_MANIFEST_DIR"));
    let mut files = 0;
    for f in std::fs::read_dir(dir).unwrap() {
        let path = f.unwrap().path();
        files += 1;
        let c: toml::Table = std::fs::read_to_string(&path).unwrap().parse().unwrap();
        let t = c
            .get("carry")
            .and_then(|v| v.as_table())
            .cloned()
            .unwrap_or_default();
        let battles = c["battle"].as_array().unwrap();
        assert!((2..=3).contains(&battles.len()), "{path:?}");
        let scen = |key: &str| {
            let b = battles.iter().find(|b| b["key"].as_str() == Some(key));
            let b = b.unwrap_or_else(|| panic!("{path:?}: no battle {key}"));
            scenario(b["scenario"].as_str().unwrap())
        };
        for b in battles {
            let from = scen(b["key"].as_str().unwrap());
            let st = battle(&from);
            let nexts: Vec<&str> = b
                .get("next")
                .and_then(|v| v.as_str())
                .into_iter()
                .chain(
                    b.get("after")
                        .and_then(|v| v.as_table())
                        .into_iter()
                        .flat_map(|a| a.values().filter_map(|v| v.as_str())),
                )
                .filter(|k| *k != "end")
                .collect();
            for n in nexts {
                let text = LaBataille::carry(&st, &scen(n), &t).unwrap();
                battle(&text);
            }
        }
    }
    assert!(files >= 1);
}

/// Plays `text` to its end with the sample players and real dice, as the balance test does.
fn play(text: &str, game: u64) -> (LbState, u64) {
    let mut st = battle(text);
    let mut k = 0;
    while k < 1000 && LaBataille::outcome(&st).is_none() {
        k += 1;
        let spec = LaBataille::step(&st);
        let mut subs = std::collections::BTreeMap::new();
        for p in spec.prompts.iter().filter(|p| p.required) {
            let o = LaBataille::sample_orders(&st, &p.seat, game * 1000 + k);
            subs.insert(
                p.seat.clone(),
                Submitted::Orders(LaBataille::parse(&st, &p.seat, &o).unwrap()),
            );
        }
        for p in &spec.prompts {
            subs.entry(p.seat.clone())
                .or_insert(Submitted::Nmr(Silence::StandingOrders));
        }
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&k.to_be_bytes());
        seed[8..16].copy_from_slice(&game.to_be_bytes());
        st = LaBataille::resolve(&st, &subs, &mut Dice::new(seed));
    }
    (st, k)
}

/// The shipped campaign played through by the sample players: Quatre-Bras to its end, carried
/// into Waterloo (every survivor as Quatre-Bras left it), Waterloo to its end.
#[test]
fn a_played_quatre_bras_carries_into_waterloo() {
    let campaign = terms(&shipped("campaigns/quatre-bras-to-waterloo.toml"));
    let t = campaign["carry"].as_table().unwrap().clone();
    for game in 0..3 {
        let clock = Instant::now();
        let (qb, steps) = play(&scenario("quatre-bras-1815"), game);
        assert!(qb.outcome.is_some(), "game {game}: Quatre-Bras did not end");
        let text = LaBataille::carry(&qb, &scenario("waterloo-1815"), &t).unwrap();
        let w = battle(&text);
        for name in ["30th-Foot", "73rd-Foot", "1st-Guards", "Sandham"] {
            let before = unit(&qb, name);
            match w.unit(name) {
                None => assert!(!before.alive(), "game {game}: {name} vanished"),
                Some(after) => {
                    assert!(before.alive());
                    assert!(after.increments >= before.increments, "{name}");
                    assert!(after.increments <= after.full);
                    assert_eq!(after.full, before.full, "{name}: same strength both days");
                }
            }
        }
        for fresh in ["4e-Grenadiers", "2nd-Light-KGL", "10th-Hussars"] {
            assert_eq!(unit(&w, fresh).increments, unit(&w, fresh).full);
        }
        let ney_lost = qb.leaders.iter().any(|l| l.name == "Ney" && l.gone);
        assert_eq!(w.leaders.iter().any(|l| l.name == "Ney"), !ney_lost);
        let (end, more) = play(&text, game);
        assert!(end.outcome.is_some(), "game {game}: Waterloo did not end");
        eprintln!(
            "campaign game {game}: Quatre-Bras {steps} steps ({}), Waterloo {more} steps ({}), \
             {:?} in all",
            qb.outcome.as_ref().unwrap().summary,
            end.outcome.as_ref().unwrap().summary,
            clock.elapsed()
        );
    }
}

/// How random play ends the Quatre-Bras day (README, "Campaigns"): a smoke of 6 games, the
/// 50 the README quotes with `DESPATCH_BALANCE_FULL=1` and `--nocapture`; each battle of the
/// campaign must end well inside the steps the host's campaign test allows.
#[test]
fn quatre_bras_random_play_ends_and_both_sides_win() {
    let full = std::env::var("DESPATCH_BALANCE_FULL").is_ok_and(|v| v == "1");
    let games = if full { 50 } else { 6 };
    let mut wins = std::collections::BTreeMap::<String, u32>::new();
    let (mut most, mut total, mut wiped) = (0, 0, 0);
    for game in 0..games {
        let (st, steps) = play(&scenario("quatre-bras-1815"), 100 + game);
        let out = st.outcome.expect("ended");
        if out.summary.contains("no unit left") {
            wiped += 1;
        }
        let who = out.winners.first().cloned().unwrap_or("draw".into());
        *wins.entry(who).or_default() += 1;
        most = most.max(steps);
        total += steps;
    }
    eprintln!(
        "quatre-bras-1815, {games} games: {wins:?}; {wiped} ended by a side with no unit left; \
         {:.1} steps a game, at most {most}",
        total as f64 / games as f64
    );
    assert!(most < 100, "a Quatre-Bras game took {most} steps");
    if full {
        // Each side wins at least 30 % (issue 28's target for the shipped scenarios).
        for side in ["france", "allies"] {
            let w = wins.get(side).copied().unwrap_or(0);
            assert!(10 * w >= 3 * games as u32, "{side} won {w} of {games}");
        }
    }
}
