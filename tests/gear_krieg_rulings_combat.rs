//! The Gear Krieg rulings on ranged fire (R1 arcs, R3 fumbles, R5 Pinned, R6 infantry damage,
//! R7 infantry skill, R15 weapon strings, R32 friendly fire), one `fn r<N>_…` test each, in the
//! players' order syntax through the public `Ruleset` API on Crossroads with fixed dice. Every
//! expectation is derived from the dice the resolution drew, never written down in advance.

use despatch::engine::Ruleset;
use despatch::rulesets::gear_krieg::state::GkState;
use despatch::rulesets::gear_krieg::{GearKrieg, combat, roll, stats};
use despatch::rulesets::kit::roster::{Roster, TwoSides};

use crate::gear_krieg as gk;
use gk::*;

/// The attack and defence totals a combat line shows ("… = 5 (…) vs defence […] = 3 (…)").
fn totals(line: &str) -> (i32, i32) {
    let total = |part: &str| {
        let after = &part[part.find("] ").or(part.find("]")).unwrap()..];
        let t = after.split(" = ").nth(1).unwrap();
        if t.starts_with("fumble") {
            0
        } else {
            t.split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap()
                .parse()
                .unwrap()
        }
    };
    let (a, d) = line.split_once(" vs ").unwrap();
    (total(&a[a.find("attack [").unwrap()..]), total(d))
}

/// R1: "The p.1 'Attack is from Front -0 / Flank -1 / Rear -2' modifiers are applied to the
/// defence roll … Front = within 60 degrees of the target's facing, Rear = within 60 of its back,
/// Flank = the rest. Infantry have no arc."
#[test]
fn r1_arc_of_attack_is_a_defence_modifier_and_infantry_have_none() {
    // General-1 fires from the west; the Valkurie's facing decides the arc. Standing still it
    // also has the Defender's Movement modifier (-2); Front adds 0 and so is not listed.
    for (facing, arc, m) in [
        (270.0, "", -2),
        (330.0, "", -2),
        (335.0, ", flank -1", -3),
        (0.0, ", flank -1", -3),
        (155.0, ", flank -1", -3),
        (150.0, ", rear -2", -4),
        (90.0, ", rear -2", -4),
    ] {
        let mut st = activating("us");
        place(&mut st, "General-1", 10.0, 34.0, 90.0);
        place(&mut st, "Valkurie-1", 16.0, 34.0, facing);
        let order = "ACTIVATE General-1\nFIRE Cannon AT Valkurie-1\n";
        let (st, rolls) = play(&st, &[("us", order)], 1);
        let d = roll::read(&faces(&rolls, "attack General-1->Valkurie-1 defender"), m);
        let l = line(&st, "General-1 fires Cannon at Valkurie-1");
        assert!(
            l.contains(&format!("vs defence {} (movement -2{arc})", roll::show(&d))),
            "facing {facing}: {l}"
        );
    }
    // A squad with its back to the firer: no arc, no other defence modifier.
    let mut st = activating("us");
    place(&mut st, "General-1", 10.0, 34.0, 90.0);
    place(&mut st, "Squad-1", 13.0, 34.0, 90.0);
    let (st, rolls) = play(
        &st,
        &[("us", "ACTIVATE General-1\nFIRE LMG AT Squad-1\n")],
        1,
    );
    let d = roll::read(&faces(&rolls, "attack General-1->Squad-1 defender"), 0);
    let l = line(&st, "General-1 fires LMG at Squad-1");
    assert!(
        l.contains(&format!("vs defence {} ()", roll::show(&d))),
        "{l}"
    );
}

/// R3: "A fumbling attacker misses whatever the totals; a fumbling defender counts as a total
/// of 0. A fumbled initiative roll is 0."
#[test]
fn r3_fumbles_miss_count_as_zero_and_lose_the_initiative() {
    // The opposed test with given rolls.
    assert!(!roll::opposed(&roll::read(&[1, 1], 9), &roll::read(&[2, 1], 0)).success);
    let o = roll::opposed(&roll::read(&[2, 2], 0), &roll::read(&[1, 1], 6));
    assert!(o.success && o.mos == 2, "{o:?}");
    // In play: point blank from behind a stationary Valkurie (attack +3, defence -4), so an
    // unfumbled [1,1] would hit; and, with Defensive Maneuvers and a fast last move (defence
    // +6), a fumbled defence that would otherwise stand still counts 0.
    let (mut attacker_fumbled, mut defender_fumbled) = (false, false);
    for k in 0..3000 {
        let mut st = activating("us");
        place(&mut st, "General-1", 10.0, 34.0, 90.0);
        place(&mut st, "Valkurie-1", 11.0, 34.0, 90.0);
        let order = "ACTIVATE General-1\nFIRE Cannon AT Valkurie-1\n";
        let (after, rolls) = play(&st, &[("us", order)], k);
        let a = faces(&rolls, "attack General-1->Valkurie-1 attacker");
        let l = line(&after, "General-1 fires Cannon at Valkurie-1");
        if a == [1, 1] {
            attacker_fumbled = true;
            assert!(
                l.contains("attack [1,1] +3 = fumble") && l.ends_with(": miss."),
                "{l}"
            );
        }
        let v = st.unit_mut("Valkurie-1").unwrap();
        (v.defensive, v.last_move, v.heading) = (true, 20.0, 270.0);
        let (after, rolls) = play(&st, &[("us", order)], k);
        let a = roll::read(&faces(&rolls, "attack General-1->Valkurie-1 attacker"), 3);
        let d = faces(&rolls, "attack General-1->Valkurie-1 defender");
        if d == [1, 1] && !a.fumble {
            defender_fumbled = true;
            let l = line(&after, "General-1 fires Cannon at Valkurie-1");
            assert!(l.contains("defence [1,1] +6 = fumble"), "{l}");
            assert!(l.contains(&format!(": hit, MoS {},", a.total)), "{l}");
        }
        if attacker_fumbled && defender_fumbled {
            break;
        }
    }
    assert!(attacker_fumbled && defender_fumbled, "no seed fumbled");
    // Initiative: a fumbling side totals 0, so the other wins by its whole total.
    for k in 0..3000 {
        let st = GearKrieg::setup(RULESET, SCENARIO, &["us".into(), "germany".into()]).unwrap();
        let (after, rolls) = play(&st, &[], k);
        let us = faces(&rolls, "initiative round 1 us");
        let de = roll::read(&faces(&rolls, "initiative round 1 germany"), 0);
        if us != [1, 1] || de.fumble {
            continue;
        }
        let t = de.total;
        line(
            &after,
            "Initiative: US task force [1,1] = fumble, German Kampfgruppe",
        );
        line(
            &after,
            &format!("German Kampfgruppe wins the initiative by {t}: German Kampfgruppe {t} CP"),
        );
        assert_eq!(after.side("germany").unwrap().cp, t as u32);
        return;
    }
    panic!("no seed fumbled the initiative");
}

/// R5: "Every attack on infantry that crosses out no circle (a miss, a draw or 0 damage) gives
/// 1 Pinned counter; one that wounds gives 2. There is no upper limit."
#[test]
fn r5_a_miss_or_draw_pins_once_a_wound_twice_without_limit() {
    let (mut miss, mut draw, mut wound) = (false, false, false);
    for k in 0..500 {
        let mut st = activating("germany");
        place(&mut st, "Valkurie-1", 8.0, 18.0, 270.0);
        st.unit_mut("US-Squad").unwrap().pinned = 5;
        let order = "ACTIVATE Valkurie-1\nFIRE LMG AT US-Squad\n";
        let (after, _) = play(&st, &[("germany", order)], k);
        let l = line(&after, "Valkurie-1 fires LMG at US-Squad");
        let (a, d) = totals(&l);
        let pinned = after.unit("US-Squad").unwrap().pinned;
        if a > d {
            wound = true;
            assert!(
                l.contains("circle(s) crossed") && !l.contains(" 0 circle"),
                "{l}"
            );
            assert_eq!(pinned, 7, "{l}");
        } else {
            if a == d {
                draw = true;
            } else {
                miss = true;
            }
            assert!(l.ends_with(": miss; Pinned 6."), "{l}");
            assert_eq!(pinned, 6, "{l}");
        }
        if miss && draw && wound {
            break;
        }
    }
    assert!(miss && draw && wound, "{miss} {draw} {wound}");
    // A hit that does 0 damage (a DM of 0) crosses out nothing: one counter.
    let mut st = activating("us");
    st.unit_mut("Squad-1").unwrap().pinned = 9;
    let (dmg, _, text) =
        combat::apply_hit(&mut st, "Squad-1", 3, 0, 0, false, stats::AttackArc::Front);
    assert_eq!(dmg, 0);
    assert_eq!(st.unit("Squad-1").unwrap().pinned, 10, "{text}");
}

/// The circles crossed on each trooper.
fn hits(st: &GkState, squad: &str) -> Vec<u32> {
    st.unit(squad)
        .unwrap()
        .troopers
        .iter()
        .map(|t| t.hits)
        .collect()
}

/// The damage a hit line reports ("hit, MoS 2, 6 damage: …").
fn damage(l: &str) -> u32 {
    let (_, rest) = l.split_once(", MoS ").unwrap();
    let rest = rest.split_once(", ").unwrap().1;
    rest.split(' ').next().unwrap().parse().unwrap()
}

/// R6: "Damage to infantry crosses out circles of a wounded trooper first, then troopers in card
/// order. An AI + Area Effect weapon puts its full damage on every trooper of the squad."
#[test]
fn r6_infantry_damage_goes_to_the_wounded_first_or_to_everyone_by_area_effect() {
    // The US squad: five riflemen then the BAR gunner, 3 circles each; the gunner, last on the
    // card, is wounded, so wounded-first and card order put the damage on different troopers.
    let area = RULESET.replace(
        "name = \"7.92mm LMG\"",
        "name = \"7.92mm LMG\"\narea_effect = true",
    );
    assert_ne!(area, RULESET);
    for (ruleset, each) in [(RULESET, false), (area.as_str(), true)] {
        let mut hit_seen = false;
        for k in 0..200 {
            let mut st = activating_with(ruleset, "germany");
            place(&mut st, "Valkurie-1", 8.0, 18.0, 270.0);
            st.unit_mut("US-Squad").unwrap().troopers[5].hits = 1;
            let order = "ACTIVATE Valkurie-1\nFIRE LMG AT US-Squad\n";
            let (after, _) = play(&st, &[("germany", order)], k);
            let l = line(&after, "Valkurie-1 fires LMG at US-Squad");
            if !l.contains(": hit") {
                continue;
            }
            hit_seen = true;
            let d = damage(&l);
            if d >= 17 {
                continue; // the whole squad falls either way
            }
            let mut expect = [0, 0, 0, 0, 0, 1];
            if each {
                for e in &mut expect {
                    *e += d.min(3 - *e);
                }
            } else {
                let mut left = d;
                for i in [5, 0, 1, 2, 3, 4] {
                    let n = left.min(3 - expect[i]);
                    expect[i] += n;
                    left -= n;
                }
            }
            assert_eq!(hits(&after, "US-Squad"), expect, "area {each}: {l}");
            break;
        }
        assert!(hit_seen, "no seed hit (area {each})");
    }
}

/// R7: "Infantry use their Infantry Skill dice for attacks, defence and tests, and get the +1
/// Perception on ranged attacks." Shown with the squads' Skill raised to 3 dice.
#[test]
fn r7_infantry_roll_their_infantry_skill_with_perception() {
    let skill =
        "skill = { value = 2, stand_in = true, reason = \"card lost; as the standard crews\" }";
    let three = RULESET.replace(skill, &skill.replace("value = 2", "value = 3"));
    assert_eq!(
        three.matches("skill = { value = 3").count(),
        2,
        "both squads"
    );
    let mut st = activating_with(&three, "us");
    place(&mut st, "Squad-1", 4.0, 21.0, 270.0);
    st.unit_mut("US-Squad").unwrap().pinned = 1;
    let order = "ACTIVATE US-Squad\nFIRE Rifle AT Squad-1\nFIRE LMG AT Squad-1\n";
    let mut st2 = st.clone();
    st2.unit_mut("US-Squad").unwrap().actions = 2;
    let (after, rolls) = play(&st2, &[("us", &format!("{order}RALLY\n"))], 4);
    for label in [
        "attack US-Squad->Squad-1 attacker",
        "attack US-Squad->Squad-1 defender",
        "rally US-Squad",
    ] {
        assert_eq!(faces(&rolls, label).len(), 3, "{label}");
    }
    let l = line(&after, "US-Squad fires Rifle at Squad-1");
    assert!(
        l.contains("(perception +1, movement +2, pinned -1) vs"),
        "{l}"
    );
    // A walker firing at the same squad still rolls its crew's 2 dice.
    place(&mut st, "General-1", 4.0, 19.0, 0.0);
    let (_, rolls) = play(
        &st,
        &[("us", "ACTIVATE General-1\nFIRE LMG AT Squad-1\n")],
        4,
    );
    assert_eq!(faces(&rolls, "attack General-1->Squad-1 attacker").len(), 2);
    assert_eq!(faces(&rolls, "attack General-1->Squad-1 defender").len(), 3);
}

/// R15: "'x5', 'x8', 'x9' are DMs; 'RO1/RO2' are ROF; the grenades' '-3' is read as Accuracy;
/// '30' after the cannon's ROF as its rounds."
#[test]
fn r15_weapon_strings_are_read_as_dm_rof_accuracy_and_rounds() {
    let st = activating("us");
    let weapon = |unit: &str, key: &str| {
        let u = st.unit(unit).unwrap();
        stats::weapon(&st.data, u, key).unwrap().clone()
    };
    let cannon = weapon("General-1", "Cannon");
    assert_eq!(
        (cannon.dm.int(), cannon.rof.int()),
        (5, 1),
        "M4B Cannon x5 RO1.30"
    );
    assert_eq!(st.unit("General-1").unwrap().ammo_left("Cannon"), Some(30));
    assert_eq!(weapon("General-1", "LMG").rof.int(), 2, "LMG x RO2");
    assert_eq!(weapon("Valkurie-1", "KwK").rof.int(), 1, "KwK x RO1");
    let g8 = weapon("General-1", "Grenades");
    let g9 = weapon("Valkurie-1", "Grenades");
    assert_eq!((g8.dm.int(), g8.accuracy.int()), (8, -3), "x8-3");
    assert_eq!((g9.dm.int(), g9.accuracy.int()), (9, -3), "x9-3");
    // In orders: the ROF is the limit of a burst, the -3 is on the throw's attack roll.
    let mut st = st;
    place(&mut st, "General-1", 10.0, 34.0, 90.0);
    place(&mut st, "Valkurie-1", 11.0, 34.0, 270.0);
    let e = GearKrieg::parse(
        &st,
        "us",
        "ACTIVATE General-1\nFIRE Cannon AT Valkurie-1 ROF 2\n",
    )
    .unwrap_err();
    assert!(
        e.iter().any(|r| r.reason.contains("the Cannon has ROF 1")),
        "{e:?}"
    );
    assert!(
        GearKrieg::parse(
            &st,
            "us",
            "ACTIVATE General-1\nFIRE LMG AT Valkurie-1 ROF 2\n"
        )
        .is_ok()
    );
    let (after, _) = play(
        &st,
        &[("us", "ACTIVATE General-1\nFIRE Grenades AT Valkurie-1\n")],
        2,
    );
    let l = line(&after, "General-1 fires Grenades at Valkurie-1");
    assert!(l.contains("accuracy -3"), "{l}");
    if l.contains(": hit") {
        let (a, d) = totals(&l);
        assert!(
            l.contains(&format!("{} damage vs Armor", 8 * (a - d))),
            "{l}"
        );
    }
}

/// R32: "No friendly fire by aimed fire; saturation zones hit every unit in them, friend or foe
/// (the firer excepted)."
#[test]
fn r32_aimed_fire_spares_friends_saturation_spares_only_the_firer() {
    let mut st = activating("us");
    place(&mut st, "General-1", 20.0, 33.6, 0.0);
    place(&mut st, "General-2", 20.3, 34.2, 0.0);
    place(&mut st, "Valkurie-1", 19.7, 34.3, 180.0);
    for aimed in [
        "ACTIVATE General-1\nFIRE Cannon AT General-2\n",
        "ACTIVATE General-1\nFIRE LMG WALK Valkurie-1 General-2 ROF 1\n",
    ] {
        let e = GearKrieg::parse(&st, "us", aimed).unwrap_err();
        assert!(e.iter().any(|r| r.line == 2), "{aimed}: {e:?}");
    }
    // The 1 x 1 cm square at 20,34 holds the firer, its friend and the enemy.
    let order = "ACTIVATE General-1\nFIRE LMG SATURATE 20,34 ROF 1\n";
    let (after, _) = play(&st, &[("us", order)], 3);
    line(&after, "General-1 saturates the square at 20,34");
    line(&after, "General-2 is in General-1's saturation zone");
    line(&after, "Valkurie-1 is in General-1's saturation zone");
    assert!(
        !after
            .log
            .iter()
            .any(|l| l.text.starts_with("General-1 is in")),
        "{:?}",
        after.log
    );
}

/// The MoS and the damage a hit line reports ("hit, MoS 2, 6 damage: …").
fn mos_and_damage(l: &str) -> (u32, u32) {
    let (_, rest) = l.split_once(", MoS ").unwrap();
    let mos = rest.split(',').next().unwrap().parse().unwrap();
    (mos, damage(l))
}

/// R17: "Heavy Damage halves each weapon's (and punch, kick, impact) DM, rounding up." The LMG's
/// DM is 3: an aimed burst with no ROF bonus does 3 × MoS from a sound Valkurie and
/// halve_up(3) = 2 × MoS from one with Heavy Damage — each side of the rule shown by a hit.
#[test]
fn r17_heavy_damage_halves_a_weapons_dm_rounding_up() {
    assert_eq!(stats::halve_up(3), 2);
    for (heavy, dm) in [(0, 3), (1, 2)] {
        let mut hit_seen = false;
        for k in 0..200 {
            let mut st = activating_with(RULESET, "germany");
            place(&mut st, "Valkurie-1", 8.0, 18.0, 270.0);
            st.unit_mut("Valkurie-1").unwrap().heavy = heavy;
            let order = "ACTIVATE Valkurie-1\nFIRE LMG AT US-Squad\n";
            let (after, _) = play(&st, &[("germany", order)], k);
            let l = line(&after, "Valkurie-1 fires LMG at US-Squad");
            if !l.contains(": hit") {
                continue;
            }
            hit_seen = true;
            let (mos, d) = mos_and_damage(&l);
            assert!(mos > 0, "{l}");
            assert_eq!(d, dm * mos, "heavy {heavy}: DM {dm} × MoS {mos}: {l}");
            break;
        }
        assert!(hit_seen, "no seed hit (heavy {heavy})");
    }
}
