//! Golden tests of how La Bataille's cavalry mêlées end, in the players' own order syntax:
//! the Bounce (R31: one hex back along the charge path, and what happens when that hex is
//! taken or there is none), and Cavalry Charge vs. Cavalry won by either side, with the
//! seed's advance, regroup and no pursuit (p.8), each played from mails with chosen dice.

use crate::lbt;

use despatch::rulesets::kit::data::Marked;
use despatch::rulesets::la_bataille::state::{Cohesion, Fatigue};
use lbt::*;

/// Cuirassiers four hexes south of a strong Prussian line, which stands and whose doubled
/// fire takes one increment: 16 against 16 is 1:1, where 6 or 7 after the fire's −3 is blank
/// (a bounce). Two cuirassier regiments when `two`.
fn bounce_field(two: bool) -> Table {
    let mut pieces: Vec<Piece> = vec![(
        "france",
        "Cuir1",
        "heavy_cavalry",
        "French",
        "0509",
        "N",
        "line",
        3,
        9,
    )];
    if two {
        pieces.push((
            "france",
            "Cuir2",
            "heavy_cavalry",
            "French",
            "0509",
            "N",
            "line",
            3,
            9,
        ));
    }
    pieces.push((
        "allies",
        "Target",
        "line_infantry",
        "Prussian",
        "0505",
        "S",
        "line",
        8,
        8,
    ));
    Table::new(&field(&pieces, ""))
}

/// The target stands (1+1), no shift (1), its doubled fire hits once (1); the mêlée roll 4+5.
const STANDS_THEN_BLANK: [u32; 6] = [1, 1, 1, 1, 4, 5];

#[test]
fn r31_a_bounce_goes_one_hex_back_along_the_charge_path_disordered_and_exhausted() {
    let mut t = bounce_field(false);
    let log = t.play_on(
        &[("france", "CHARGE Cuir1 AT 0505\n"), NO_SQUARE],
        &STANDS_THEN_BLANK,
    );
    assert_has(&log, "C1: Cuir1 reach 0505.");
    assert_has(
        &log,
        "mêlée values 16 to 16, column 1:1; rolled 4+5 -3 fire +0 leaders = 6: blank.",
    );
    assert_has(&log, "C1: the charge bounces.");
    // The path 0509 0508 0507 0506: one hex back from 0506 is 0507 (not the Regroup's two).
    assert_has(&log, "C1: Cuir1 fall back to 0507.");
    assert!(!has(&log, "advance into 0505"), "{log:?}");
    assert_has(
        &log,
        "C1: Cuir1 marked Exhausted, with an inverted Charge marker.",
    );
    let u = t.unit("Cuir1");
    assert_eq!(t.st.label(u.hex), "0507");
    assert_eq!(u.fatigue, Fatigue::Exhausted);
    assert!(u.charged);
    // Bounced Disordered; out of the enemy's zone it recovers at the end of the player turn.
    assert_has(&log, "Cuir1 recover good order.");
    // The target held its ground.
    assert_eq!(t.st.label(t.unit("Target").hex), "0505");
    assert_eq!(t.unit("Target").cohesion, Cohesion::GoodOrder);
}

#[test]
fn r31_a_bounce_into_a_taken_hex_pushes_its_occupant_on_along_the_charge_path() {
    // Cuir2 charges the same line by the same hexes and falls short in 0507 (T-11): it stands
    // in the hex Cuir1 bounces into, and is pushed one hex further back along the path.
    let mut t = bounce_field(true);
    let log = t.play_on(
        &[
            (
                "france",
                "CHARGE Cuir1 AT 0505\nCHARGE Cuir2 AT 0505 VIA 0508 0507 0506\n",
            ),
            NO_SQUARE,
        ],
        &STANDS_THEN_BLANK,
    );
    assert_has(
        &log,
        "C2: Cuir2 cannot reach 0505 with the charge's MP: Disordered, the charge is over.",
    );
    assert_has(&log, "C1: the charge bounces.");
    assert_has(&log, "Cuir2 displaced to 0508.");
    assert_has(&log, "C1: Cuir1 fall back to 0507.");
    assert_eq!(t.st.label(t.unit("Cuir1").hex), "0507");
    assert_eq!(t.st.label(t.unit("Cuir2").hex), "0508");
    // Nobody shares a hex with a unit pushed out of it.
    assert_eq!(t.st.at(t.unit("Cuir1").hex).len(), 1);
}

#[test]
fn r31_a_charge_from_next_to_its_target_has_no_hex_back_and_bounces_in_place() {
    // The charge starts adjacent: its path is its start hex alone, so there is no hex one
    // back along it and the bounced cavalry stays where it charged from.
    let mut t = Table::new(&field(
        &[
            (
                "france",
                "Cuir1",
                "heavy_cavalry",
                "French",
                "0506",
                "N",
                "line",
                3,
                9,
            ),
            (
                "allies",
                "Target",
                "line_infantry",
                "Prussian",
                "0505",
                "S",
                "line",
                8,
                8,
            ),
        ],
        "",
    ));
    let log = t.play_on(
        &[("france", "CHARGE Cuir1 AT 0505\n"), NO_SQUARE],
        &STANDS_THEN_BLANK,
    );
    assert_has(&log, "C1: the charge bounces.");
    assert_has(
        &log,
        "C1: Cuir1 stay in 0506: the charge path has no hex behind it.",
    );
    assert_eq!(t.st.label(t.unit("Cuir1").hex), "0506");
    assert_eq!(t.unit("Cuir1").fatigue, Fatigue::Exhausted);
}

/// Cuirassiers four hexes south of dragoons twice their size: 18 (with the heavy horse's
/// ×1.5 against lighter cavalry) to 18, the 1:1 column.
fn horse_against_horse() -> Table {
    Table::new(&field(
        &[
            (
                "france",
                "Cuir",
                "heavy_cavalry",
                "French",
                "0509",
                "N",
                "line",
                3,
                9,
            ),
            (
                "allies",
                "Dragoons",
                "line_cavalry",
                "British",
                "0505",
                "S",
                "line",
                6,
                8,
            ),
        ],
        "",
    ))
}

#[test]
fn p8_cavalry_against_cavalry_won_by_the_attacker_routs_without_pursuit_then_advance_and_regroup() {
    let mut t = horse_against_horse();
    let log = t.play_on(&[("france", "CHARGE Cuir AT 0505\n"), NO_SQUARE], &[6, 6]);
    assert_has(&log, "C1: Cavalry Charge vs. Cavalry Mêlée Procedure.");
    // No Roll to Stand and no fire against horse: the mêlée roll is the first die.
    assert!(!has(&log, "Roll to Stand"), "{log:?}");
    assert!(!has(&log, "Defensive Fire"), "{log:?}");
    assert_has(
        &log,
        "mêlée values 18 to 18, column 1:1; rolled 6+6 +0 fire +0 leaders = 12: DR1",
    );
    // p.8 step 3d: "There is no Pursuit of cavalry after Mêlée"; the # is ignored.
    assert!(!has(&log, "pursuit"), "{log:?}");
    assert!(!has(&log, "impetus"), "{log:?}");
    // The rout costs the one increment of the zone it leaves (R13), and nothing more.
    assert_has(
        &log,
        "Dragoons routs 0504 0503 0502 to 0502, losing 1 increment(s) leaving enemy Zones of Influence.",
    );
    assert_eq!(t.unit("Dragoons").increments, 5, "no pursuit losses");
    assert_has(&log, "C1: Cuir advance into 0505 and is Disordered.");
    // Regroup: two hexes back along 0509 0508 0507 0506 + the advance hex 0505.
    assert_has(&log, "C1: Cuir fall back to 0507.");
    assert_has(
        &log,
        "C1: Cuir marked Exhausted, with an inverted Charge marker.",
    );
    assert_eq!(t.st.label(t.unit("Cuir").hex), "0507");
}

#[test]
fn p8_cavalry_against_cavalry_won_by_the_defender_routs_or_takes_the_attackers_and_nobody_advances()
{
    // AR: the attackers rout; the defenders do not advance; no Regroup for routers.
    let mut t = horse_against_horse();
    let log = t.play_on(&[("france", "CHARGE Cuir AT 0505\n"), NO_SQUARE], &[1, 1]);
    assert_has(&log, "= 2: AR");
    assert_has(&log, "Cuir routs 0607 0707 0808 to 0808");
    assert!(!has(&log, "fall back"), "{log:?}");
    assert!(!has(&log, "advance into"), "{log:?}");
    assert!(t.unit("Cuir").charged);
    // Out of the enemy's zone at the end of its player turn it rallies to Disordered (R20).
    assert_has(&log, "Rally of Cuir: rolled 1+1 = 2 against 9: passes.");
    assert_eq!(t.unit("Cuir").cohesion, Cohesion::Disordered);
    assert_eq!(t.st.label(t.unit("Dragoons").hex), "0505");
    assert_eq!(t.unit("Dragoons").cohesion, Cohesion::GoodOrder);

    // AS: the attackers are removed from play. The shipped stand-in charge rows have no AS
    // between horse (no fire, so no casualty DRM, and AS lies at -2 and under on 1:1, R38); a club's
    // chart with AS on a 2 at 1:1 runs the same procedure.
    let mut t = horse_against_horse();
    if let Marked::Marked { value, .. } = &mut t.st.data.assaut_et_melee.charge {
        value[2][6] = "AS".into();
    }
    let log = t.play_on(&[("france", "CHARGE Cuir AT 0505\n"), NO_SQUARE], &[1, 1]);
    assert_has(&log, "= 2: AS");
    assert!(t.unit("Cuir").eliminated);
    assert!(!has(&log, "advance into"), "{log:?}");
    assert_eq!(t.st.label(t.unit("Dragoons").hex), "0505");
}

#[test]
fn r38_a_charge_reads_the_charge_rows_not_the_assault_rows() {
    // 5 and 9 at 1:1 are blanks (a firefight) on the infantry rows; on a charge's, the last
    // AR and the first DR1 (one less is a bounce on each side: `p8_a_blank_…` rolls 6).
    let mut t = horse_against_horse();
    let log = t.play_on(&[("france", "CHARGE Cuir AT 0505\n"), NO_SQUARE], &[2, 3]);
    assert_has(&log, "column 1:1; rolled 2+3 +0 fire +0 leaders = 5: AR.");
    let mut t = horse_against_horse();
    let log = t.play_on(&[("france", "CHARGE Cuir AT 0505\n"), NO_SQUARE], &[4, 5]);
    assert_has(&log, "column 1:1; rolled 4+5 +0 fire +0 leaders = 9: DR1.");
    let mut t = horse_against_horse();
    let log = t.play_on(&[("france", "CHARGE Cuir AT 0505\n"), NO_SQUARE], &[4, 4]);
    assert_has(
        &log,
        "column 1:1; rolled 4+4 +0 fire +0 leaders = 8: blank.",
    );
}

#[test]
fn p8_a_blank_between_horse_bounces_both_sides() {
    let mut t = horse_against_horse();
    let log = t.play_on(&[("france", "CHARGE Cuir AT 0505\n"), NO_SQUARE], &[3, 3]);
    assert_has(&log, "= 6: blank.");
    assert_has(&log, "C1: the charge bounces.");
    assert_has(&log, "C1: Cuir fall back to 0507.");
    // The defenders bounce too: one hex straight away from the attackers (R31).
    assert_has(&log, "Dragoons bounce back to 0504.");
    assert_eq!(t.st.label(t.unit("Dragoons").hex), "0504");
    assert_eq!(t.unit("Cuir").fatigue, Fatigue::Exhausted);
    // The defenders did not charge: no Charge marker, no fatigue.
    assert!(!t.unit("Dragoons").charged);
    assert_eq!(t.unit("Dragoons").fatigue, Fatigue::Fresh);
}

/// The reaction set-up of T-10 with dice: light horse react against cuirassiers and become
/// the attacker of a Cavalry vs. Cavalry mêlée.
fn reaction(dice: &[u32]) -> (Table, Vec<String>) {
    let mut t = Table::new(&field(
        &[
            (
                "france",
                "Cuir",
                "heavy_cavalry",
                "French",
                "0509",
                "N",
                "line",
                3,
                9,
            ),
            (
                "allies",
                "Hussars",
                "light_cavalry",
                "British",
                "0505",
                "S",
                "line",
                6,
                8,
            ),
        ],
        "",
    ));
    t.play_on(&[("france", "CHARGE Cuir AT 0505\n"), QUIET], &[]);
    let log = t.play_on(&[("allies", "REACT Hussars\n")], dice);
    (t, log)
}

#[test]
fn r29_p8_a_reactor_that_wins_advances_into_the_chargers_hex_and_regroups_along_its_own_path() {
    // Reaction passes (2+2); Hussars 6×2 = 12 against the Cuirassiers' 12: 1:1; 6+6 = DR1.
    let (t, log) = reaction(&[2, 2, 6, 6]);
    assert_has(
        &log,
        "Hussars (Allies) become the attacker: Charge marker C2",
    );
    assert_has(&log, "C2: mêlée values 12 to 12, column 1:1");
    assert_has(&log, "= 12: DR1");
    assert_has(&log, "Cuir routs");
    assert!(!has(&log, "pursuit"), "{log:?}");
    // The Hussars rode 0505 → 0506 to meet; they advance into 0507; two back is 0505.
    assert_has(&log, "C2: Hussars advance into 0507 and is Disordered.");
    assert_has(&log, "C2: Hussars fall back to 0505.");
    assert_eq!(t.st.label(t.unit("Hussars").hex), "0505");
    assert_eq!(t.unit("Hussars").fatigue, Fatigue::Exhausted);
    assert!(t.unit("Hussars").charged);
}

#[test]
fn r29_p8_a_reactor_that_loses_routs_and_the_original_charger_stays_exhausted() {
    let (t, log) = reaction(&[2, 2, 1, 1]);
    assert_has(&log, "= 2: AR");
    assert_has(&log, "Hussars routs");
    assert!(!has(&log, "advance into"), "{log:?}");
    assert_eq!(t.unit("Hussars").cohesion, Cohesion::Routed);
    // The Cuirassiers fought their mêlée as defenders: charged and Exhausted (R29).
    let c = t.unit("Cuir");
    assert!(c.charged);
    assert_eq!(c.fatigue, Fatigue::Exhausted);
    assert_eq!(t.st.label(c.hex), "0507");
}

/// A map one hex wide (0504 to 0506): cuirassiers in 0505 that charged from 0506 next to the
/// Prussians in 0504, and `blocker` of the French in 0506 with nowhere to be pushed.
fn narrow(blocker: (&str, &str)) -> Table {
    let scenario = field(
        &[
            (
                "france",
                "Cuir1",
                "heavy_cavalry",
                "French",
                "0505",
                "N",
                "line",
                3,
                9,
            ),
            (
                "france", blocker.0, blocker.1, "French", "0506", "N", "column", 3, 8,
            ),
            (
                "allies",
                "Target",
                "line_infantry",
                "Prussian",
                "0504",
                "S",
                "line",
                8,
                8,
            ),
        ],
        "",
    )
    .replace(
        "columns = [1, 10]\nrows = [1, 10]",
        "columns = [5, 5]\nrows = [4, 6]",
    );
    Table::new(&scenario)
}

/// Falls Cuir1 back one hex along the charge path 0506 → 0505.
fn bounce_on_narrow(t: &mut Table) {
    use despatch::rulesets::la_bataille::{cavalry, charge};
    let target = t.unit("Target").hex;
    let id =
        charge::declare(&mut t.st, &["Cuir1".to_string()], target, vec![], None).expect("declared");
    let from = t.unit("Cuir1").hex;
    let behind =
        t.st.units
            .iter()
            .find(|u| u.name != "Cuir1" && u.side == "france")
            .expect("the blocker")
            .hex;
    let mut c = t.st.charge(id).unwrap().clone();
    c.path = vec![behind, from];
    cavalry::fall_back(&mut t.st, &c, 1);
}

#[test]
fn r31_a_bounce_whose_hex_back_is_held_by_a_unit_that_cannot_be_pushed_on() {
    // Infantry in the hex behind, with no hex further back: cavalry may not stack with it
    // (R7), so the bounced cavalry stays where it is.
    let mut t = narrow(("Line", "line_infantry"));
    bounce_on_narrow(&mut t);
    assert_has(
        &t.st.log.iter().map(|l| l.text.clone()).collect::<Vec<_>>(),
        "C1: Cuir1 cannot fall back to 0506 (Line there cannot be pushed on) and stay in 0505.",
    );
    assert_eq!(t.st.label(t.unit("Cuir1").hex), "0505");
    assert_eq!(t.st.label(t.unit("Line").hex), "0506");
    // Positive control: cavalry behind, also with nowhere to go, may share the hex (R7), so
    // the bounce is made and both stand in 0506.
    let mut t = narrow(("Cuir2", "heavy_cavalry"));
    bounce_on_narrow(&mut t);
    assert_eq!(t.st.label(t.unit("Cuir1").hex), "0506");
    assert_eq!(t.st.label(t.unit("Cuir2").hex), "0506");
}
