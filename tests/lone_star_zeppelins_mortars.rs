//! Lone Star, issue 28 round three: troops boarding or leaving the seat's own zeppelin are
//! judged when the mail is read on the state the zeppelin's own lines leave it in (R35, R36,
//! R44); a mortar card that does not say its rounds starts with the stand-in count (R50);
//! only a mortar shoots over enemy units in the line of fire (L7, R51); no flamethrower
//! shoots through friendly units (L7, R52). Orders in the players' own syntax, dice from
//! fixed seeds.

use crate::lone_star_common;

use despatch::board::tabletop::Pt;
use despatch::engine::{Ruleset, Viewer};
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::aim;
use despatch::rulesets::lone_star::data::Heavy;
use despatch::rulesets::lone_star::state::{Fig, Form, State};
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

/// The patrol at the combat step with the Sipahi (the Empire's) standing so that its
/// nearest stand is `off` inches from the Rangers' line of fire to the Grenzer (30,16 to
/// 10,16) and the Rangers' heavy weapon a mortar of `rounds` (`None`: their machine gun).
fn screened(off: f64, rounds: Option<u32>) -> State {
    let mut st = patrol();
    place(&mut st, "Sipahi", 20.0, 26.0, 90.0, Form::Column);
    let sipahi = st.unit("Sipahi").unwrap().clone();
    let low = st
        .stands(&sipahi)
        .iter()
        .map(|p| p.y)
        .fold(f64::INFINITY, f64::min);
    place(
        &mut st,
        "Sipahi",
        20.0,
        26.0 - (low - 16.0) + off,
        90.0,
        Form::Column,
    );
    if let Some(n) = rounds {
        let r = st.unit_mut("Rangers");
        for f in r.figures.iter_mut() {
            if matches!(f, Fig::Heavy(_)) {
                *f = Fig::Heavy(Heavy::Mortar);
            }
        }
        r.mortar_rounds = n;
    }
    to_combat(&mut st);
    st
}

fn attack_line(st: &State) -> String {
    log(st)
        .lines()
        .find(|l| l.starts_with("Rangers fires at"))
        .unwrap_or_else(|| panic!("Rangers fires: {}", log(st)))
        .to_string()
}

/// R51 (L7: "Units, except mortars and indirect fire artillery, may not shoot through enemy
/// units"): an enemy unit with a stand within half a stand of the line of fire is in the
/// way, and the Rangers' FIRE at the Grenzer beyond it is refused when the mail is read; a
/// stand just beyond half a stand leaves the line open. Before the fix nothing was in the
/// way of anyone.
#[test]
fn r51_an_enemy_unit_in_the_line_of_fire_stops_small_arms() {
    let half = patrol().data.rules.stand_size.get() / 2.0;
    let fire = "FIRE Rangers AT Grenzer";
    let blocked = screened(half - 0.05, None);
    let (r, g) = (
        blocked.unit("Rangers").unwrap(),
        blocked.unit("Grenzer").unwrap(),
    );
    assert_eq!(
        aim::screen(&blocked, r, g)
            .map(|u| u.name.clone())
            .as_deref(),
        Some("Sipahi")
    );
    let e = refused(&blocked, "hays", fire);
    assert!(e.contains("Sipahi is in the line of fire"), "{e}");
    let open = screened(half + 0.05, None);
    let (r, g) = (open.unit("Rangers").unwrap(), open.unit("Grenzer").unwrap());
    assert!(aim::screen(&open, r, g).is_none());
    let after = step(&open, &[("hays", fire)], 4);
    assert!(
        attack_line(&after).starts_with("Rangers fires at Grenzer"),
        "{}",
        attack_line(&after)
    );
}

/// R51: a unit whose mortar has rounds shoots over the Sipahi — the mortar alone, not the
/// whole unit (the rest may not shoot through) — and spends a round; out of rounds, the
/// tube abandoned, it is refused like any other.
#[test]
fn r51_a_mortar_alone_shoots_over_enemy_units() {
    let half = patrol().data.rules.stand_size.get() / 2.0;
    let fire = [("hays", "FIRE Rangers AT Grenzer")];
    let st = screened(half - 0.05, Some(2));
    let after = step(&st, &fire, 4);
    let line = attack_line(&after);
    assert!(
        line.starts_with("Rangers fires at Grenzer (long range)"),
        "{line}"
    );
    let m = st.data.figures.mortar.long.int();
    assert!(
        line.contains(&format!(
            "strength {m} (the mortar alone, over Sipahi, R51)"
        )),
        "{line}"
    );
    assert_eq!(after.unit("Rangers").unwrap().mortar_rounds, 1);
    // Not the whole unit: the Rangers' own strength is more than the mortar's.
    let whole = despatch::rulesets::lone_star::combat::strength(
        &st,
        st.unit("Rangers").unwrap(),
        despatch::rulesets::lone_star::combat::Band::Long,
    );
    assert!(whole > m, "{whole} {m}");
    let e = refused(
        &screened(half - 0.05, Some(0)),
        "hays",
        "FIRE Rangers AT Grenzer",
    );
    assert!(e.contains("only a mortar shoots over enemy units"), "{e}");
}

/// The patrol at the combat step with the Jaeger (flamethrower, `shots` left) at 20,16 facing
/// the Rangers at 30,16 (10": short range), and the Sipahi — another seat's unit of the
/// Jaeger's side — with its nearest stand `off` inches from that line of fire.
fn through_friends(off: f64, shots: u32) -> State {
    let mut st = patrol();
    place(&mut st, "Jaeger", 20.0, 16.0, 90.0, Form::Line);
    let j = st.unit_mut("Jaeger");
    j.hidden = false;
    j.flame_shots = shots;
    place(&mut st, "Sipahi", 25.0, 26.0, 90.0, Form::Column);
    let sipahi = st.unit("Sipahi").unwrap().clone();
    let low = st
        .stands(&sipahi)
        .iter()
        .map(|p| p.y)
        .fold(f64::INFINITY, f64::min);
    place(
        &mut st,
        "Sipahi",
        25.0,
        26.0 - (low - 16.0) + off,
        90.0,
        Form::Column,
    );
    to_combat(&mut st);
    st
}

fn jaeger_line(st: &State) -> String {
    log(st)
        .lines()
        .find(|l| l.starts_with("Jaeger fires at"))
        .unwrap_or_else(|| panic!("Jaeger fires: {}", log(st)))
        .to_string()
}

/// R52 (L7: units "may not use certain weapons, like flame throwers or shotguns", through
/// friendly units): with the Sipahi's stand 0.05" inside half a stand of the line the Jaeger
/// still fire — the line is legal when the mail is read and the Rangers stay a target of the
/// nearest-target rule — but without the flamethrower (its short strength off, no shot
/// spent); 0.05" outside, the whole unit fires and spends a shot. Out of shots the figure is
/// a trooper and nothing is held. Before the fix the flamethrower fired through friends.
#[test]
fn r52_a_flamethrower_does_not_fire_through_friendly_units() {
    use despatch::rulesets::lone_star::combat::{self, Band};
    let half = patrol().data.rules.stand_size.get() / 2.0;
    let fire = [("von-arnim", "FIRE Jaeger AT Rangers")];
    let st = through_friends(half - 0.05, 2);
    let (j, r) = (st.unit("Jaeger").unwrap(), st.unit("Rangers").unwrap());
    assert_eq!(
        aim::flame_held(&st, j, r)
            .map(|u| u.name.clone())
            .as_deref(),
        Some("Sipahi")
    );
    assert!(
        aim::may_shoot(&st, j, r),
        "{:?}",
        aim::shot_refusal(&st, j, r)
    );
    LoneStar::parse(&st, "von-arnim", "FIRE Jaeger AT Rangers").expect("legal through friends");
    let whole = combat::strength(&st, j, Band::Short);
    let flame = st.data.figures.flamethrower.short.int();
    assert!(flame > 0);
    assert_eq!(combat::flame_strength(&st, j, Band::Short), flame);
    let after = step(&st, &fire, 4);
    let line = jaeger_line(&after);
    assert!(
        line.starts_with(&format!(
            "Jaeger fires at Rangers (short range): strength {} (without the flamethrower, \
             through Sipahi, R52)",
            whole - flame
        )),
        "{line}"
    );
    assert_eq!(after.unit("Jaeger").unwrap().flame_shots, 2);

    let open = through_friends(half + 0.05, 2);
    let (j, r) = (open.unit("Jaeger").unwrap(), open.unit("Rangers").unwrap());
    assert!(aim::flame_held(&open, j, r).is_none());
    let after = step(&open, &fire, 4);
    let line = jaeger_line(&after);
    assert!(
        line.starts_with(&format!(
            "Jaeger fires at Rangers (short range): strength {whole} "
        )),
        "{line}"
    );
    assert!(!line.contains("R52"), "{line}");
    assert_eq!(after.unit("Jaeger").unwrap().flame_shots, 1);

    let empty = through_friends(half - 0.05, 0);
    let (j, r) = (
        empty.unit("Jaeger").unwrap(),
        empty.unit("Rangers").unwrap(),
    );
    assert!(aim::flame_held(&empty, j, r).is_none());
    assert_eq!(combat::flame_strength(&empty, j, Band::Short), 0);
}
