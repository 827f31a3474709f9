//! Lone Star, issue 28 round three: troops boarding or leaving the seat's own zeppelin are
//! judged when the mail is read on the state the zeppelin's own lines leave it in (R35, R36,
//! R44); a mortar card that does not say its rounds starts with the stand-in count (R50).
//! Orders in the players' own syntax, dice from fixed seeds.

use crate::lone_star_common;

use despatch::board::tabletop::Pt;
use despatch::engine::{Ruleset, Viewer};
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::data::Heavy;
use despatch::rulesets::lone_star::state::State;
use lone_star_common::*;

/// The patrol with the zeppelin Adler at 10,28 and von Arnim's card. `aboard`: the
/// Zeptruppen ride in it; otherwise they stand on the ground beside it. `landed`, `halted`:
/// the zeppelin's state (hovering: halted and not landed; flying: neither).
fn zeppelin(aboard: bool, landed: bool, halted: bool) -> State {
    let mut st = patrol_with(crate::lone_star_machines::AIR);
    let z = st.unit_mut("Adler");
    z.halted = halted;
    z.machine.as_mut().expect("a machine").landed = landed;
    if !aboard {
        let t = st.unit_mut("Zeptruppen");
        t.aboard = None;
        t.pos = Pt::new(10.0, 30.0);
    }
    card_to(&mut st, "von-arnim");
    st
}

fn aboard(st: &State) -> bool {
    st.unit("Zeptruppen").unwrap().aboard.as_deref() == Some("Adler")
}

/// EMBARK onto the seat's own zeppelin: legal when it is landed and no FLY lifts it off, or
/// hovering with a DESCEND in the same mail (the zeppelin moves first); refused with its
/// reason when hovering without the DESCEND, when flying, and when a FLY lifts it off. Before
/// the fix the hovering zeppelin was refused even with the DESCEND ("must be landed"), and a
/// landed one was accepted with a FLY, the troops then left behind at resolution.
#[test]
fn r44_boarding_own_zeppelin_judged_on_the_mail() {
    let hovering = zeppelin(false, false, true);
    let e = refused(&hovering, "von-arnim", "EMBARK Zeptruppen Adler");
    assert!(e.contains("no DESCEND in this mail"), "{e}");
    assert!(e.contains("add the line DESCEND Adler"), "{e}");
    let down = step(
        &hovering,
        &[("von-arnim", "DESCEND Adler\nEMBARK Zeptruppen Adler")],
        3,
    );
    assert!(
        down.unit("Adler").unwrap().machine.as_ref().unwrap().landed,
        "{}",
        log(&down)
    );
    assert!(aboard(&down), "{}", log(&down));

    let flying = zeppelin(false, false, false);
    let e = refused(&flying, "von-arnim", "EMBARK Zeptruppen Adler");
    assert!(e.contains("Adler is flying"), "{e}");

    let landed = zeppelin(false, true, true);
    let e = refused(&landed, "von-arnim", "FLY Adler 6\nEMBARK Zeptruppen Adler");
    assert!(e.contains("lifts off in this mail"), "{e}");
    let on = step(&landed, &[("von-arnim", "EMBARK Zeptruppen Adler")], 3);
    assert!(aboard(&on), "{}", log(&on));
}

/// DISEMBARK from the seat's own zeppelin: refused when a FLY of the same mail carries the
/// flying zeppelin on (before the fix it was accepted, then "cannot get out" at resolution);
/// legal without it, as the silent zeppelin hovers and the troops rappel; legal from a landed
/// zeppelin that a FLY lifts off (it hovers that turn).
#[test]
fn r44_leaving_own_zeppelin_judged_on_the_mail() {
    let flying = zeppelin(true, false, false);
    let e = refused(
        &flying,
        "von-arnim",
        "FLY Adler 10\nDISEMBARK Zeptruppen 20,20",
    );
    assert!(e.contains("flies on in this mail"), "{e}");
    assert!(e.contains("leave out the line FLY Adler"), "{e}");
    let out = step(&flying, &[("von-arnim", "DISEMBARK Zeptruppen 20,20")], 5);
    assert!(!aboard(&out), "{}", log(&out));
    assert!(out.unit("Adler").unwrap().halted, "it hovered");

    let landed = zeppelin(true, true, true);
    let out = step(
        &landed,
        &[("von-arnim", "FLY Adler 10\nDISEMBARK Zeptruppen 20,20")],
        5,
    );
    assert!(!aboard(&out), "{}", log(&out));
    assert!(log(&out).contains("Adler lifts off"), "{}", log(&out));
}

const MORTAR_CARD: &str = "[[unit]]\nname = \"Mortar Section\"\nseat = \"hays\"\n\
    arm = \"infantry\"\ntroopers = 3\nheavy = \"mortar\"\nleadership = 1\nzeal = 1\n\
    esprit = 1\nmove = 7\nshort = 8\nlong = 30\nat = [34, 20]\nfacing = 270\n";

/// R50: a mortar card that does not give its rounds starts with the stand-in count of
/// `ruleset.toml` (marked stand_in, with its reason), its card saying `mortar 3`; before the
/// fix it started with 0, "mortar out", its tube abandoned before a shot. A card that gives
/// its rounds keeps them, and a unit without a mortar has none.
#[test]
fn r50_a_mortar_card_without_rounds_starts_with_the_stand_in_count() {
    let st = patrol_with(MORTAR_CARD);
    let rule = &st.data.rules.mortar_rounds;
    assert!(rule.is_stand_in() && rule.reason().is_some());
    assert_eq!(rule.int(), 3);
    let u = st.unit("Mortar Section").unwrap();
    assert_eq!(u.heavy(), Some(Heavy::Mortar));
    assert_eq!(u.mortar_rounds, 3);
    let card: String = LoneStar::view(&st, &Viewer::Seat("hays".into()))
        .sections
        .iter()
        .flat_map(|(_, l)| l.clone())
        .filter(|l| l.contains("Mortar Section"))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(card.contains("mortar 3"), "{card}");
    assert!(!card.contains("mortar out"), "{card}");
    let given = patrol_with(&MORTAR_CARD.replace(
        "heavy = \"mortar\"\n",
        "heavy = \"mortar\"\nmortar_rounds = 1\n",
    ));
    assert_eq!(given.unit("Mortar Section").unwrap().mortar_rounds, 1);
    assert_eq!(given.unit("Rangers").unwrap().mortar_rounds, 0);
}
