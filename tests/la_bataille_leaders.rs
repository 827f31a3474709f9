//! Leaders and pursuit by the numbers (issue 28): a leader's morale modifier counts each rating
//! point, the best leader of a stack is the one that counts when there are two (R16, both
//! orders of the two), and a charge from the next hex still spends MP before its pursuit (R33).

use crate::lbt;

use despatch::rulesets::kit::data::Marked;
use despatch::rulesets::la_bataille::state::Leader;
use despatch::rulesets::la_bataille::{cavalry, charge, combat};
use lbt::*;

fn leader(name: &str, with: &str, rating: u32) -> Leader {
    Leader {
        name: name.into(),
        side: "france".into(),
        with: with.into(),
        rating,
        gone: false,
    }
}

/// The leader entry of a list of morale modifiers.
fn leader_mod(mods: &[(i32, String)]) -> Option<(i32, String)> {
    mods.iter().find(|(_, w)| w.contains("leader")).cloned()
}

#[test]
fn r2_a_leaders_morale_modifier_counts_each_rating_point() {
    for rating in [1, 2, 3] {
        let mut t = duel("column", "British");
        t.st.leaders = vec![leader("Ney", "1/45e", rating)];
        let me = t.unit("1/45e").clone();
        let them = t.unit("28th-Foot").clone();
        let want = Some((-(rating as i32), format!("leader rated {rating}")));
        let atk = combat::attacker_mods(&t.st, &[&me], Some(2), &[them.hex]);
        assert_eq!(leader_mod(&atk), want, "attacker, rating {rating}");
        let def = combat::defender_mods(&t.st, &[&me], &[&them]);
        assert_eq!(leader_mod(&def), want, "defender, rating {rating}");
        let stand = combat::stand_mods(&t.st, &[&me], &[&them]);
        assert_eq!(leader_mod(&stand), want, "roll to stand, rating {rating}");
    }
    // No leader, no modifier.
    let t = duel("column", "British");
    let me = t.unit("1/45e").clone();
    let them = t.unit("28th-Foot").clone();
    assert_eq!(
        leader_mod(&combat::attacker_mods(&t.st, &[&me], Some(2), &[them.hex])),
        None
    );
}

#[test]
fn r16_of_two_leaders_in_a_stack_the_better_rated_gives_the_modifiers_in_either_order() {
    // Melee modifiers by rating 1-5 are [1, 1, 2, 2, 3]: rating 1 gives +1, rating 5 gives +3.
    for ratings in [[1, 5], [5, 1]] {
        let mut t = duel("column", "British");
        t.st.leaders = vec![
            leader("First", "1/45e", ratings[0]),
            leader("Second", "1/45e", ratings[1]),
        ];
        let me = t.unit("1/45e").clone();
        let them = t.unit("28th-Foot").clone();
        assert_eq!(combat::leader_rating(&t.st, &[&me]), Some(5), "{ratings:?}");
        assert_eq!(combat::leader_drm(&t.st, &[&me]), 3, "{ratings:?}");
        let atk = combat::attacker_mods(&t.st, &[&me], Some(2), &[them.hex]);
        assert_eq!(
            leader_mod(&atk),
            Some((-5, "leader rated 5".to_string())),
            "{ratings:?}"
        );
    }
    // Two leaders in one assault, one with each of two stacks: the best counts, once.
    let mut t = two_on_one("British");
    t.st.leaders = vec![leader("Low", "A", 1), leader("High", "B", 4)];
    let a = t.unit("A").clone();
    let b = t.unit("B").clone();
    assert_eq!(combat::leader_drm(&t.st, &[&a, &b]), 2);
    assert_eq!(combat::leader_drm(&t.st, &[&b, &a]), 2);
    assert_eq!(combat::leader_drm(&t.st, &[&a]), 1);
}

#[test]
fn r33_a_charge_from_the_next_hex_spends_the_target_hex_before_pursuit() {
    let mut t = charge_field("line_infantry", "line");
    let target = t.unit("Target").hex;
    let id =
        charge::declare(&mut t.st, &["Cuir".to_string()], target, vec![], None).expect("declared");
    let mut c = t.st.charge(id).unwrap().clone();
    // (printed MP, charge MP spent on the way, pursuit loss): riding into the clear target hex
    // costs 1, so a charge from the next hex (0 on the way) counts 1, like a charge of 1.
    for (mp, spent, loss) in [
        (12.0, 0, 3),
        (12.0, 1, 3),
        (12.0, 2, 3),
        (12.0, 3, 3),
        (12.0, 4, 2),
        (10.0, 0, 3),
        (9.0, 0, 2),
    ] {
        t.st.data.classes.get_mut("heavy_cavalry").unwrap().mp = Marked::Seed(mp);
        c.mp = spent;
        assert_eq!(
            cavalry::pursuit_loss(&t.st, &c),
            loss,
            "printed {mp}, {spent} spent"
        );
    }
}
