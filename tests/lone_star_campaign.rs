//! Lone Star campaigns (README "Campaigns", R53–R58): what a finished battle carries into the
//! next scenario — figures lost, walking wounded, routed units shaken, prisoners held,
//! ammunition, fresh levies — each ruling on both sides of its threshold; the chain of the
//! shipped "Colorado War" (battle 1 → 2 → 3); the campaign file; unknown terms refused; an
//! untouched battle carrying nothing; and a battle played to its end by the sample players.

use std::collections::BTreeMap;

use crate::lone_star_common::{PATROL, RULESET, patrol};

use despatch::dice::Dice;
use despatch::engine::{Ruleset, Silence, Submitted};
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::campaign::struck;
use despatch::rulesets::lone_star::machines::Machine;
use despatch::rulesets::lone_star::state::{Fig, State};

const SAN_FELIPE: &str = include_str!("../games/lone-star/scenarios/san-felipe.toml");
const HEART: &str = include_str!("../games/lone-star/scenarios/heart-of-tidal.toml");
const CAMPAIGN: &str = include_str!("../games/lone-star/campaigns/colorado-war.toml");
const SEATS: [&str; 4] = ["hays", "bowie", "von-arnim", "enver"];

fn terms(text: &str) -> toml::Table {
    text.parse().unwrap()
}

fn setup(text: &str) -> State {
    LoneStar::setup(RULESET, text, &SEATS.map(String::from))
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Carries `st` into `next` with these terms and sets the result up.
fn carried(st: &State, next: &str, t: &str) -> (String, State) {
    let text = LoneStar::carry(st, next, &terms(t)).unwrap_or_else(|e| panic!("{e}"));
    let again = LoneStar::carry(st, next, &terms(t)).unwrap();
    assert_eq!(text, again, "carrying is deterministic");
    let next = setup(&text);
    (text, next)
}

/// A unit's card in carried TOML.
fn card(text: &str, name: &str) -> Option<toml::Table> {
    let t: toml::Table = text.parse().unwrap();
    t["unit"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|u| u.as_table())
        .find(|u| u["name"].as_str() == Some(name))
        .cloned()
}

fn side(text: &str, id: &str) -> toml::Table {
    let t: toml::Table = text.parse().unwrap();
    t["side"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|u| u.as_table())
        .find(|u| u["id"].as_str() == Some(id))
        .cloned()
        .unwrap()
}

/// Takes `n` figures of kind `f` off a unit, as casualties would.
fn lose(st: &mut State, name: &str, f: Fig, n: usize) {
    let u = st.unit_mut(name);
    for _ in 0..n {
        let i = u.figures.iter().position(|x| *x == f).expect("figure");
        u.figures.remove(i);
    }
}

fn count(st: &State, name: &str, f: Fig) -> usize {
    st.unit(name).unwrap().count(f)
}

#[test]
fn r53_figures_lost_stay_lost_type_by_type_and_hits_heal() {
    let mut st = patrol();
    lose(&mut st, "Rangers", Fig::Trooper, 2);
    lose(&mut st, "Rangers", Fig::Leader, 1);
    lose(
        &mut st,
        "Rangers",
        Fig::Heavy(despatch::rulesets::lone_star::data::Heavy::Lmg),
        1,
    );
    st.unit_mut("Rangers").hits = 18;
    // Grenzer are down to their last figure (a grenadier): they come back as one figure.
    let g = st.unit_mut("Grenzer");
    g.figures = vec![Fig::Grenadier];
    let (text, next) = carried(&st, SAN_FELIPE, "");
    let r = next.unit("Rangers").unwrap();
    assert_eq!(
        (count(&next, "Rangers", Fig::Trooper), r.figures.len()),
        (3, 5)
    );
    assert_eq!(count(&next, "Rangers", Fig::Leader), 0);
    assert_eq!(r.heavy(), None);
    assert_eq!(
        (r.hits, r.start_figures),
        (0, 5),
        "hits short of a figure heal"
    );
    assert!(card(&text, "Rangers").unwrap().get("heavy").is_none());
    assert_eq!(next.unit("Grenzer").unwrap().figures, vec![Fig::Grenadier]);
    // One figure fewer: none left, the unit is struck, now and in every later battle.
    st.unit_mut("Grenzer").figures.clear();
    st.unit_mut("Grenzer").gone = Some("destroyed".into());
    let (text, next) = carried(&st, SAN_FELIPE, "");
    assert!(next.unit("Grenzer").is_none() && card(&text, "Grenzer").is_none());
    assert_eq!(
        next.carried["empire"].lost_units,
        vec!["Grenzer".to_string()]
    );
    let (_, third) = carried(&next, HEART, "");
    assert!(third.unit("Grenzer").is_none(), "struck from battle 3 too");
    // Figures the unit did not lose are not added: at most the next card's own count.
    let fresh = patrol();
    let (_, same) = carried(&fresh, SAN_FELIPE, "");
    assert_eq!(same.unit("Grenzer").unwrap().figures.len(), 11);
}

#[test]
fn r53_guards_rejoin_and_wrecks_and_spent_spools_are_struck() {
    let mut st = patrol();
    // Two Jaeger troopers left as guards with prisoners (R40): they rejoin as troopers.
    lose(&mut st, "Jaeger", Fig::Trooper, 3);
    st.unit_mut("Jaeger").guards = 2;
    let (_, next) = carried(&st, SAN_FELIPE, "");
    assert_eq!(count(&next, "Jaeger", Fig::Trooper), 4);
    st.unit_mut("Jaeger").guards = 1;
    let (_, next) = carried(&st, SAN_FELIPE, "");
    assert_eq!(count(&next, "Jaeger", Fig::Trooper), 3);
    // A windwagon wrecked with its crew alive is struck; one that has not is not.
    let mut w = st.unit("Prairie Schooner").unwrap().clone();
    assert!(!struck(&w));
    w.gone = Some("destroyed by a direct hit".into());
    assert!(struck(&w));
    w.arm = despatch::rulesets::lone_star::data::Arm::Zeppelin;
    w.gone = Some("flown off the table".into());
    assert!(!struck(&w), "a zeppelin that flew off comes back");
    w.gone = Some("blown up by a panjandrum".into());
    assert!(struck(&w));
    let mut spool = st.unit("Rangers").unwrap().clone();
    spool.arm = despatch::rulesets::lone_star::data::Arm::Panjandrum;
    spool.machine = Some(Machine::default());
    assert!(!struck(&spool), "a spool never launched comes back");
    spool.machine = Some(Machine {
        run: 1,
        ..Machine::default()
    });
    assert!(struck(&spool), "a launched spool is spent");
    let (text, next) = {
        let mut st = st.clone();
        st.unit_mut("Prairie Schooner").gone = Some("destroyed by a direct hit".into());
        carried(&st, SAN_FELIPE, "")
    };
    assert!(card(&text, "Prairie Schooner").is_none());
    assert_eq!(
        next.carried["alliance"].lost_units,
        vec!["Prairie Schooner"]
    );
}

#[test]
fn r54_a_third_of_the_losses_to_hits_come_back_as_walking_wounded() {
    let mut st = patrol();
    lose(&mut st, "Rangers", Fig::Trooper, 3);
    lose(&mut st, "Comanche Scouts", Fig::Trooper, 2);
    let ww = "walking_wounded = true";
    // Five lost: one comes back (to the first unit in the card order with room).
    let (_, next) = carried(&st, SAN_FELIPE, ww);
    assert_eq!(count(&next, "Rangers", Fig::Trooper), 3);
    assert_eq!(count(&next, "Comanche Scouts", Fig::Trooper), 2);
    // Six lost: two come back, one to each.
    lose(&mut st, "Comanche Scouts", Fig::Trooper, 1);
    let (_, next) = carried(&st, SAN_FELIPE, ww);
    assert_eq!(count(&next, "Rangers", Fig::Trooper), 3);
    assert_eq!(count(&next, "Comanche Scouts", Fig::Trooper), 2);
    // One of the six is the enemy's prisoner: five count, one comes back.
    st.unit_mut("Grenzer").prisoners = 1;
    let (_, next) = carried(&st, SAN_FELIPE, ww);
    assert_eq!(count(&next, "Rangers", Fig::Trooper), 3);
    assert_eq!(count(&next, "Comanche Scouts", Fig::Trooper), 1);
    // Without the term nobody comes back.
    let (_, next) = carried(&st, SAN_FELIPE, "");
    assert_eq!(count(&next, "Rangers", Fig::Trooper), 2);
    assert_eq!(count(&next, "Comanche Scouts", Fig::Trooper), 1);
    // Never above the card: a side whose only losses are in a destroyed unit gets no one
    // back into full units.
    let mut st = patrol();
    st.unit_mut("Sipahi").figures.clear();
    let (_, next) = carried(&st, SAN_FELIPE, ww);
    assert!(next.unit("Sipahi").is_none());
    assert_eq!(count(&next, "Grenzer", Fig::Trooper), 6);
}

#[test]
fn r55_a_unit_that_ended_routing_comes_shaken_and_rallies_after() {
    let mut st = patrol();
    st.unit_mut("Rangers").routing = true;
    let (text, next) = carried(&st, SAN_FELIPE, "");
    let r = next.unit("Rangers").unwrap();
    assert!(r.shaken && r.esprit == 0, "Esprit 1 less one");
    assert_eq!(
        card(&text, "Rangers").unwrap()["esprit"].as_integer(),
        Some(1)
    );
    let c = next.unit("Comanche Scouts").unwrap();
    assert!(!c.shaken && c.esprit == 1, "not routing: not shaken");
    let view = despatch::rulesets::lone_star::view::unit_numbers(&next, "hays");
    assert!(format!("{view:?}").contains("shaken (R55)"), "{view:?}");
    // routed = "rallied": no one is shaken.
    let (_, next) = carried(&st, SAN_FELIPE, "routed = \"rallied\"");
    assert!(!next.unit("Rangers").unwrap().shaken);
    assert_eq!(next.unit("Rangers").unwrap().esprit, 1);
    // Esprit never goes below L3's −1.
    let low = SAN_FELIPE.replacen("esprit = 1", "esprit = 0", 1);
    let (_, next) = carried(&st, &low, "");
    assert_eq!(next.unit("Rangers").unwrap().esprit, -1);
    let lower = SAN_FELIPE.replacen("esprit = 1", "esprit = -1", 1);
    let (_, next) = carried(&st, &lower, "");
    assert_eq!(next.unit("Rangers").unwrap().esprit, -1);
    // Shaken in battle 2, not routing at its end: rallied for battle 3.
    let (_, third) = carried(&next, HEART, "");
    assert!(!third.unit("Rangers").unwrap().shaken);
}

#[test]
fn r56_prisoners_are_held_by_the_captors_and_score_nothing_later() {
    let mut st = patrol();
    st.unit_mut("Grenzer").prisoners = 2;
    st.unit_mut("Sipahi").prisoners = 1;
    let (text, next) = carried(&st, SAN_FELIPE, "");
    assert_eq!(
        side(&text, "empire")["prisoners_held"].as_integer(),
        Some(3)
    );
    assert!(side(&text, "alliance").get("prisoners_held").is_none());
    assert_eq!(next.carried["empire"].prisoners_held, 3);
    assert!(!next.carried.contains_key("alliance"));
    let brief = format!("{:?}", LoneStar::briefing(&next, "von-arnim"));
    assert!(brief.contains("holds 3 prisoner(s)"), "{brief}");
    let theirs = format!("{:?}", LoneStar::briefing(&next, "hays"));
    assert!(!theirs.contains("prisoner(s) taken"), "{theirs}");
    let figures = LoneStar::victory_figures(&next).join(" ");
    assert!(
        figures.contains("Empire: 3 of 3 units standing; 0 points"),
        "held prisoners score nothing: {figures}"
    );
    // Battle 2 adds its own prisoners to those held.
    let mut two = next.clone();
    two.unit_mut("Jaeger").prisoners = 1;
    let (_, third) = carried(&two, HEART, "");
    assert_eq!(third.carried["empire"].prisoners_held, 4);
}

#[test]
fn r57_ammunition_is_resupplied_unless_the_term_says_otherwise() {
    let mut st = patrol();
    st.unit_mut("Rangers").smoke = 0;
    st.unit_mut("Grenzer").gas = 1;
    st.unit_mut("Alamo Battery").gun.as_mut().unwrap().ammo = 2;
    st.unit_mut("Rangers").disengage = false;
    let (_, next) = carried(&st, SAN_FELIPE, "");
    let r = next.unit("Rangers").unwrap();
    assert_eq!((r.smoke, r.disengage), (2, true));
    assert_eq!(next.unit("Grenzer").unwrap().gas, 2);
    assert_eq!(
        next.unit("Alamo Battery")
            .unwrap()
            .gun
            .as_ref()
            .unwrap()
            .ammo,
        6
    );
    let (_, next) = carried(&st, SAN_FELIPE, "resupply = false");
    let r = next.unit("Rangers").unwrap();
    assert_eq!(
        (r.smoke, r.disengage),
        (0, true),
        "the Disengage box is per battle"
    );
    assert_eq!(next.unit("Grenzer").unwrap().gas, 1);
    assert_eq!(
        next.unit("Alamo Battery")
            .unwrap()
            .gun
            .as_ref()
            .unwrap()
            .ammo,
        2
    );
    // At most what is left: a unit with all its rounds keeps the card's.
    assert_eq!(next.unit("Jaeger").unwrap().flame_shots, 2);
}

#[test]
fn r58_a_side_with_nothing_left_fields_fresh_levies_unless_refused() {
    let mut st = patrol();
    for n in ["Grenzer", "Jaeger"] {
        st.unit_mut(n).figures.clear();
    }
    // One unit left: the empire brings only it.
    let (_, next) = carried(&st, SAN_FELIPE, "");
    assert!(next.unit("Grenzer").is_none() && next.unit("Sipahi").is_some());
    // None left: levies, its cards as written, and the names no longer lost.
    st.unit_mut("Sipahi").figures.clear();
    let (_, next) = carried(&st, SAN_FELIPE, "");
    for n in ["Grenzer", "Jaeger", "Sipahi"] {
        assert_eq!(
            next.unit(n).unwrap().figures,
            setup(SAN_FELIPE).unit(n).unwrap().figures,
            "{n}"
        );
    }
    assert!(!next.carried.contains_key("empire"), "{:?}", next.carried);
    let e = LoneStar::carry(&st, SAN_FELIPE, &terms("levies = false"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("side empire has no unit left") && e.contains("levies"),
        "{e}"
    );
}

#[test]
fn unknown_and_ill_typed_terms_and_other_sides_are_refused() {
    let st = patrol();
    let e = LoneStar::carry(&st, SAN_FELIPE, &terms("rally_routed = true"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("carry term `rally_routed`") && e.contains("walking_wounded"),
        "{e}"
    );
    let e = LoneStar::carry(&st, SAN_FELIPE, &terms("routed = \"fled\""))
        .unwrap_err()
        .to_string();
    assert!(e.contains("\"shaken\" or \"rallied\""), "{e}");
    let e = LoneStar::carry(&st, SAN_FELIPE, &terms("resupply = 1"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("true or false"), "{e}");
    let teaching = include_str!("../games/lone-star/scenarios/teaching.toml");
    let e = LoneStar::carry(&st, teaching, &terms(""))
        .unwrap_err()
        .to_string();
    assert!(e.contains("sides do not match"), "{e}");
    let mut old = st.clone();
    old.data.campaign = None;
    let e = LoneStar::carry(&old, SAN_FELIPE, &terms(""))
        .unwrap_err()
        .to_string();
    assert!(e.contains("[campaign]"), "{e}");
}

/// Positive control: a battle in which nothing happened carries nothing changed.
#[test]
fn an_untouched_battle_carries_nothing_changed() {
    for (next, alone) in [
        (PATROL, patrol()),
        (SAN_FELIPE, setup(SAN_FELIPE)),
        (HEART, setup(HEART)),
    ] {
        let (_, n) = carried(&patrol(), next, CAMPAIGN_TERMS);
        assert_eq!(n.units, alone.units);
        assert!(n.carried.is_empty());
    }
}

const CAMPAIGN_TERMS: &str = "walking_wounded = true\nrouted = \"shaken\"";

#[test]
fn the_shipped_campaign_names_its_scenarios_and_each_pair_carries() {
    let c: toml::Table = CAMPAIGN.parse().unwrap();
    let battles = c["battle"].as_array().unwrap();
    assert_eq!(battles.len(), 3);
    let dir = format!("{}/games/lone-star/scenarios", env!("CARGO_MANIFEST_DIR"));
    let carry = c["carry"].as_table().unwrap();
    let mut texts = Vec::new();
    for b in battles {
        let s = b["scenario"].as_str().unwrap();
        let text = std::fs::read_to_string(format!("{dir}/{s}.toml")).unwrap();
        let st = setup(&text);
        let seats: Vec<&str> = st.seats.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(seats, SEATS, "{s}: the same seats in every battle");
        texts.push((b.clone(), text, st));
    }
    for w in texts.windows(2) {
        assert_eq!(w[0].0["next"].as_str(), w[1].0["key"].as_str());
        let text = LoneStar::carry(&w[0].2, &w[1].1, carry).unwrap();
        setup(&text);
    }
    assert!(texts[2].0.get("next").is_none());
}

/// The chain: what battle 1 cost is still missing in battle 3 (via battle 2's state).
#[test]
fn the_chain_carries_battle_one_through_battle_two_into_three() {
    let carry = "walking_wounded = true";
    let mut one = patrol();
    lose(&mut one, "Rangers", Fig::Trooper, 2);
    one.unit_mut("Rangers").routing = true;
    one.unit_mut("Sipahi").figures.clear();
    one.unit_mut("Grenzer").prisoners = 2;
    let (_, mut two) = carried(&one, SAN_FELIPE, carry);
    // Lost 2, 2 of them prisoners: none back.
    assert_eq!(count(&two, "Rangers", Fig::Trooper), 3);
    assert!(two.unit("Rangers").unwrap().shaken);
    assert!(two.unit("Sipahi").is_none());
    lose(&mut two, "Grenzer", Fig::Trooper, 3);
    lose(&mut two, "Rangers", Fig::Trooper, 1);
    two.unit_mut("Rangers").prisoners = 1;
    let (text, three) = carried(&two, HEART, carry);
    // Grenzer lost 3 (one the Alliance's prisoner): (3 − 1) / 3 = 0 back.
    assert_eq!(count(&three, "Grenzer", Fig::Trooper), 3);
    assert_eq!(
        count(&three, "Rangers", Fig::Trooper),
        2,
        "battle 1's loss stays"
    );
    assert!(
        !three.unit("Rangers").unwrap().shaken,
        "rallied: not routing at the end"
    );
    assert!(
        three.unit("Sipahi").is_none(),
        "battle 1's loss stays struck"
    );
    assert_eq!(three.carried["empire"].prisoners_held, 2);
    assert_eq!(three.carried["alliance"].prisoners_held, 1);
    assert_eq!(
        side(&text, "empire")["lost_units"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

/// A battle played to its end by the sample players (in process, real dice on a fixed seed),
/// then carried into battle 2 and set up: what stood at the end is what comes.
#[test]
fn a_played_battle_carries_into_the_next() {
    let mut st = patrol();
    let mut k = 0u64;
    while LoneStar::outcome(&st).is_none() && k < 400 {
        k += 1;
        let spec = LoneStar::step(&st);
        let mut subs = BTreeMap::new();
        for (i, p) in spec.prompts.iter().enumerate() {
            let text = LoneStar::sample_orders(&st, &p.seat, k * 17 + i as u64);
            let sub = match LoneStar::parse(&st, &p.seat, &text) {
                Ok(o) => Submitted::Orders(o),
                Err(_) => Submitted::Nmr(Silence::StandingOrders),
            };
            subs.insert(p.seat.clone(), sub);
        }
        let mut seed = [7u8; 32];
        seed[..8].copy_from_slice(&k.to_be_bytes());
        st = LoneStar::resolve(&st, &subs, &mut Dice::new(seed));
    }
    assert!(
        LoneStar::outcome(&st).is_some(),
        "the battle ended in {k} steps"
    );
    let (_, two) = carried(&st, SAN_FELIPE, CAMPAIGN_TERMS);
    let fresh = setup(SAN_FELIPE);
    let mut lost = 0;
    for u in &fresh.units {
        let was = st.unit(&u.name).unwrap();
        match two.unit(&u.name) {
            None => assert!(struck(was), "{} struck", u.name),
            Some(n) => {
                assert!(n.figures.len() <= u.figures.len(), "{}", u.name);
                assert_eq!(n.shaken, was.routing, "{}", u.name);
                lost += u.figures.len() - n.figures.len();
            }
        }
    }
    let (_, three) = carried(&two, HEART, CAMPAIGN_TERMS);
    assert!(!three.units.is_empty());
    eprintln!("played {k} steps; {lost} figures fewer in battle 2");
}
