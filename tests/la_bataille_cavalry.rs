//! Golden tests of La Bataille's cavalry charges in the players' own order syntax: the
//! inventory's worked cases T-9 … T-13 and the charge rulings (PGD, recall, reactions,
//! regroup, falling short, pursuit, stacking and terrain for horse), each played from mails
//! with the dice chosen in advance.

use crate::lbt;

use despatch::rulesets::la_bataille::orders;
use despatch::rulesets::la_bataille::state::{Cohesion, Fatigue};
use lbt::*;

#[test]
fn r3_a_charge_on_routed_units_is_the_pgd_procedure_with_pursuit_and_tired() {
    let mut t = charge_field("line_infantry", "line");
    t.st.units[1].cohesion = despatch::rulesets::la_bataille::state::Cohesion::Routed;
    let log = t.play_on(&[("france", "CHARGE Cuir AT 0505\n"), NO_SQUARE], &[]);
    assert_has(&log, "C1: within 2 hexes, Cuir declare 0505 the target");
    assert_has(&log, "Cavalry Charge vs. PGD against Target");
    // Printed MP 8, 3 charge MP spent: (8 − 3) / 3 = 1.
    assert_has(&log, "C1: pursuit: Target lose 1 increment.");
    assert_has(&log, "Cuir marked Tired");
    assert!(t.unit("Cuir").charged);
}

#[test]
fn r33_t9_pursuit_costs_printed_mp_less_charge_mp_over_three_with_the_fastest_charger() {
    use despatch::rulesets::kit::data::Marked;
    let mut t = charge_field("line_infantry", "line");
    let target = t.unit("Target").hex;
    let id = despatch::rulesets::la_bataille::charge::declare(
        &mut t.st,
        &["Cuir".to_string()],
        target,
        vec![],
        None,
    )
    .expect("declared");
    let mut c = t.st.charge(id).unwrap().clone();
    c.mp = 5;
    for (mp, loss) in [(12.0, 2), (8.0, 1), (6.0, 0)] {
        t.st.data.classes.get_mut("heavy_cavalry").unwrap().mp = Marked::Seed(mp);
        assert_eq!(
            despatch::rulesets::la_bataille::cavalry::pursuit_loss(&t.st, &c),
            loss,
            "MP {mp}"
        );
    }
}

#[test]
fn r29_t10_a_reaction_charge_meets_midway_and_the_reactor_becomes_the_attacker() {
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
                3,
                8,
            ),
        ],
        "",
    ));
    t.play_on(&[("france", "CHARGE Cuir AT 0505\n"), QUIET], &[]);
    let (seat, text) = t.asked().expect("the reaction is asked");
    assert_eq!(seat, "allies");
    assert!(text.contains("in the Reaction Zone of Hussars"), "{text}");
    // Two hexes between them (0507, 0506): one each.
    let log = t.play_on(&[("allies", "REACT Hussars\n")], &[2, 2]);
    assert_has(
        &log,
        "C1 Reaction Charge of Hussars: rolled 2+2 = 4 against 8: passes",
    );
    assert_has(&log, "Hussars and Cuir meet face to face at 0506 and 0507");
    assert_has(
        &log,
        "Hussars (Allies) become the attacker: Charge marker C2",
    );
    assert_has(&log, "C2: Cavalry Charge vs. Cavalry Mêlée Procedure");
}

#[test]
fn r29_a_failed_reaction_leaves_the_reactor_in_place_and_in_good_order() {
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
                3,
                8,
            ),
        ],
        "",
    ));
    t.play_on(
        &[
            ("france", "CHARGE Cuir AT 0505\n"),
            ("allies", "OPPORTUNITY FIRE OFF\nREACTION ALWAYS\n"),
        ],
        &[6, 6],
    );
    assert_has(&t.log, "C1 Reaction Charge of Hussars: rolled 6+6 = 12");
    assert_eq!(t.st.label(t.unit("Hussars").hex), "0505");
    assert_ne!(
        t.unit("Hussars").cohesion,
        despatch::rulesets::la_bataille::state::Cohesion::Disordered
    );
}

#[test]
fn r31_t12_after_the_melee_the_cavalry_regroups_two_hexes_back_along_its_path_exhausted() {
    let mut t = charge_field("line_infantry", "line");
    // Stands (1+1), no shift, fire misses, mêlée 5+5 at 4:1: DR1 on the charge rows (R38).
    let log = t.play_on(
        &[("france", "CHARGE Cuir AT 0505\n"), NO_SQUARE],
        &[1, 1, 1, 1, 5, 5],
    );
    assert_has(
        &log,
        "C1 Roll to Stand of Target in 0505: rolled 1+1 = 2, +2 = 4 against 8: passes",
    );
    assert_has(
        &log,
        "mêlée values 24 to 6, column 4:1; rolled 5+5 +0 fire +0 leaders = 10: DR1",
    );
    // The DR's number is ignored in a charge: no impetus; pursuit before the rout.
    assert!(!has(&log, "impetus"));
    assert_has(&log, "C1: pursuit: Target lose 1 increment.");
    assert_has(&log, "C1: Cuir advance into 0505 and is Disordered.");
    // The path 0509 0508 0507 0506, and the advance into 0505: two hexes back is 0507.
    assert_has(&log, "C1: Cuir fall back to 0507.");
    assert_has(
        &log,
        "C1: Cuir marked Exhausted, with an inverted Charge marker.",
    );
}

#[test]
fn r26_cavalry_that_charged_this_turn_or_is_disordered_may_not_charge() {
    let mut t = charge_field("line_infantry", "line");
    t.st.units[0].charged = true;
    assert!(orders::parse(&t.st, "france", "CHARGE Cuir AT 0505\n").is_err());
    let mut t = charge_field("line_infantry", "line");
    t.st.units[0].cohesion = despatch::rulesets::la_bataille::state::Cohesion::Disordered;
    assert!(orders::parse(&t.st, "france", "CHARGE Cuir AT 0505\n").is_err());
    let t = charge_field("line_infantry", "line");
    assert!(orders::parse(&t.st, "france", "CHARGE Cuir AT 0505\n").is_ok());
}

/// Cuirassiers five hexes from a line battalion, a hill in between hiding them until the
/// charge is two hexes away: the square is tried after the target is declared (T-13).
fn hidden_charge() -> Table {
    Table::new(&field(
        &[
            (
                "france",
                "Cuir",
                "heavy_cavalry",
                "French",
                "0510",
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
                3,
                8,
            ),
        ],
        "[[terrain]]\nkind = \"hill\"\nhexes = [\"0507\"]\n",
    ))
}

#[test]
fn r28_t13_a_square_on_the_declared_target_lets_the_cavalry_try_to_recall_and_a_failure_charges_it()
{
    let mut t = hidden_charge();
    t.play_on(
        &[
            ("france", "CHARGE Cuir AT 0505\n"),
            ("allies", "OPPORTUNITY FIRE OFF\nREACTION NEVER\n"),
        ],
        &[],
    );
    assert_has(&t.log, "C1: within 2 hexes, Cuir declare 0505 the target.");
    let (seat, text) = t.asked().expect("square question");
    assert_eq!(seat, "allies");
    assert!(
        text.contains("Cuir (French) is at 0507, within 4 hexes of Target. Form square?"),
        "{text}"
    );
    let log = t.play_on(&[("allies", "SQUARE Target\n")], &[1, 1]);
    assert_has(
        &log,
        "Square attempt of Target in 0505 (+1 from line, +1 cavalry 2 hexes away): rolled 1+1 = 2, +2 = 4 against 8: passes — square formed.",
    );
    let (seat, text) = t.asked().expect("recall question");
    assert_eq!(seat, "france");
    assert!(
        text.contains("your target 0505 has formed square"),
        "{text}"
    );
    let log = t.play_on(&[("france", "RECALL\n")], &[6, 6]);
    assert_has(
        &log,
        "C1 Recall of Cuir: rolled 6+6 = 12, -1 = 11 against 9: fails",
    );
    assert_has(&log, "the cavalry must charge the square");
    assert_has(&log, "-3 square");
}

#[test]
fn r28_recall_if_square_recalls_by_standing_order_and_the_charge_ends() {
    let mut t = hidden_charge();
    let log = t.play_on(
        &[
            ("france", "RECALL IF SQUARE\nCHARGE Cuir AT 0505\n"),
            (
                "allies",
                "OPPORTUNITY FIRE OFF\nREACTION NEVER\nSQUARE ALWAYS\n",
            ),
        ],
        &[1, 1, 2, 2],
    );
    assert!(!has(&log, "is asked"), "{log:?}");
    assert_has(&log, "square formed");
    assert_has(
        &log,
        "C1 Recall of Cuir: rolled 2+2 = 4, -1 = 3 against 9: passes",
    );
    assert!(!has(&log, "Mêlée Procedure"), "{log:?}");
    assert_eq!(
        t.unit("Target").formation,
        despatch::rulesets::la_bataille::state::Formation::Square
    );
}

#[test]
fn r7_cavalry_never_stacks_with_infantry() {
    let t = Table::new(&field(
        &[
            (
                "france",
                "1/45e",
                "line_infantry",
                "French",
                "0508",
                "N",
                "column",
                4,
                8,
            ),
            (
                "france",
                "Hussards",
                "light_cavalry",
                "French",
                "0509",
                "N",
                "line",
                3,
                8,
            ),
            (
                "allies",
                "28th-Foot",
                "line_infantry",
                "Prussian",
                "0502",
                "S",
                "line",
                4,
                8,
            ),
        ],
        "",
    ));
    let e = orders::parse(&t.st, "france", "MOVE Hussards 0508\n").unwrap_err();
    assert!(e[0].reason.contains("stacking"), "{e:?}");
}

#[test]
fn r8_cavalry_may_not_charge_into_woods() {
    let t = Table::new(&field(
        &[
            (
                "france",
                "Hussards",
                "light_cavalry",
                "French",
                "0508",
                "N",
                "line",
                3,
                8,
            ),
            (
                "allies",
                "28th-Foot",
                "line_infantry",
                "Prussian",
                "0505",
                "S",
                "line",
                4,
                8,
            ),
        ],
        "[[terrain]]\nkind = \"woods\"\nhexes = [\"0507\"]\n",
    ));
    // The charge path through the wood is refused; around it, the charge goes.
    let e = orders::parse(&t.st, "france", "CHARGE Hussards AT 0505 VIA 0507 0506\n").unwrap_err();
    assert!(e[0].reason.contains("0507"), "{e:?}");
    let around = orders::parse(&t.st, "france", "CHARGE Hussards AT 0505 VIA 0608 0607\n");
    assert!(around.is_ok(), "{around:?}");
}

#[test]
fn r27_t11_a_charge_that_falls_short_is_disordered_and_tired_with_no_regroup() {
    // Two cuirassier regiments charge the same line from one hex. Both paths were clear when
    // the orders were carried out; the first charge reaches 0506 and stands there, so the
    // second, already within two hexes of its declared target, finds its last hex taken.
    let mut t = Table::new(&field(
        &[
            (
                "france",
                "Cuir1",
                "heavy_cavalry",
                "French",
                "0509",
                "N",
                "line",
                3,
                9,
            ),
            (
                "france",
                "Cuir2",
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
                "Target",
                "line_infantry",
                "Prussian",
                "0505",
                "S",
                "line",
                3,
                8,
            ),
        ],
        "",
    ));
    let log = t.play_on(
        &[
            (
                "france",
                "CHARGE Cuir1 AT 0505\nCHARGE Cuir2 AT 0505 VIA 0508 0507 0506\n",
            ),
            NO_SQUARE,
        ],
        &[],
    );
    assert_has(&log, "C1: Cuir1 reach 0505.");
    assert_has(&log, "C2: within 2 hexes, Cuir2 declare 0505 the target");
    assert_has(
        &log,
        "C2: Cuir2 cannot reach 0505 with the charge's MP: Disordered, the charge is over.",
    );
    assert_has(&log, "C2: no mêlée; Cuir2 Tired.");
    let u = t.unit("Cuir2");
    assert_eq!(u.fatigue, Fatigue::Tired);
    assert!(u.charged);
    // No Regroup of its own: it stood where the charge stopped (0507) until the first
    // charge's Regroup came back along its path and pushed it on (R31); at the end of the
    // player turn, out of enemy zones, it recovers good order (R20).
    assert!(!has(&log, "Cuir2 fall back"), "{log:?}");
    assert!(!has(&log, "C2: Cuir2 marked"), "{log:?}");
    assert_has(&log, "Cuir2 displaced to 0508.");
    assert_has(&log, "Cuir1, Cuir2 recover good order.");
    assert_eq!(u.cohesion, Cohesion::GoodOrder);
}

/// Cuirassiers four hexes south of light cavalry that may Retreat Before Charge, with dragoons
/// in the hex it retreats through: a failed Recall leaves two units to pursue.
fn retreat_through_friends() -> Table {
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
                "Hussars",
                "light_cavalry",
                "British",
                "0505",
                "S",
                "line",
                3,
                8,
            ),
            (
                "allies",
                "Dragoons",
                "heavy_cavalry",
                "British",
                "0504",
                "S",
                "line",
                3,
                8,
            ),
        ],
        "",
    ))
}

const RETREATING: (&str, &str) = (
    "allies",
    "OPPORTUNITY FIRE OFF\nREACTION NEVER\nRETREAT BEFORE CHARGE ALWAYS\n",
);

#[test]
fn r32_after_a_failed_recall_the_charges_owner_picks_whom_to_pursue_and_auto_takes_the_nearest() {
    let mut t = retreat_through_friends();
    t.play_on(&[("france", "CHARGE Cuir AT 0505\n"), RETREATING], &[]);
    assert_has(&t.log, "Hussars retreats to 0503.");
    let (seat, text) = t.asked().expect("the recall is asked");
    assert_eq!(seat, "france");
    assert!(text.contains("RECALL"), "{text}");
    // The Recall fails (6+6): the cavalry must pursue, and two hexes hold a unit to charge.
    let log = t.play_on(&[("france", "RECALL\n")], &[6, 6]);
    assert_has(&log, "C1: the Recall fails.");
    let (seat, text) = t.asked().expect("the pursuit is asked");
    assert_eq!(seat, "france");
    assert!(text.contains("0504 or 0503"), "{text}");
    let log = t.play_on(&[("france", "PURSUE 0503\n")], &[]);
    assert_has(&log, "C1: the cavalry pursues and charges 0503.");

    // PURSUE AUTO: nobody is asked; the nearest, the first hex of the retreat.
    let mut t = retreat_through_friends();
    t.play_on(
        &[("france", "PURSUE AUTO\nCHARGE Cuir AT 0505\n"), RETREATING],
        &[],
    );
    let log = t.play_on(&[("france", "RECALL\n")], &[6, 6]);
    assert!(!has(&log, "Answer PURSUE"), "{log:?}");
    assert_has(&log, "C1: the cavalry pursues and charges 0504.");
}
