//! Golden tests of two steps of La Bataille's infantry assault, in the players' own order
//! syntax with the dice chosen in advance: the declaration's Pas de Charge (p.1: own
//! skirmishers displaced into the hex the assaulting unit came from, Disordered, with no
//! opportunity reactions) and T-8's second half, the impetus after a DS result (any path,
//! asked of the attacker by mail, or answered by the IMPETUS AUTO standing order, R25).

use crate::lbt;

use despatch::engine::Ruleset;
use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::la_bataille::orders;
use despatch::rulesets::la_bataille::state::Cohesion;
use lbt::*;

/// A French column in 0507 behind its own skirmishers in 0506, next to a Prussian line in
/// 0505; `extra` more French in 0506. British riflemen in 0708 face north-west: 0507 is two
/// hexes in their front, 0506 three, beyond their opportunity fire (R17).
fn skirmish_screen(extra: &[Piece]) -> Table {
    let mut pieces: Vec<Piece> = vec![
        (
            "france",
            "1/45e",
            "line_infantry",
            "French",
            "0507",
            "N",
            "column",
            4,
            8,
        ),
        (
            "france",
            "Tirailleurs",
            "light_infantry",
            "French",
            "0506",
            "N",
            "skirmish",
            2,
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
        (
            "allies",
            "Rifles",
            "light_infantry",
            "British",
            "0708",
            "NW",
            "line",
            2,
            8,
        ),
    ];
    pieces.extend_from_slice(extra);
    Table::new(&field(&pieces, ""))
}

#[test]
fn p1_pas_de_charge_displaces_own_skirmishers_back_disordered_without_opportunity_fire() {
    let mut t = skirmish_screen(&[]);
    let log = t.play_on(
        &[("france", "ASSAULT 1/45e AT 0505 VIA 0506 PAS DE CHARGE\n")],
        &[],
    );
    assert_has(
        &log,
        "Pas de Charge: Tirailleurs displaced to 0507 and Disordered (no opportunity reactions).",
    );
    assert_has(
        &log,
        "1/45e (French) declares an assault A1 on 0505 from 0506 (Number 2).",
    );
    assert_eq!(t.st.label(t.unit("Tirailleurs").hex), "0507");
    // Involuntary Maneuver: the riflemen, who cover 0507, do not fire at the skirmishers.
    assert!(!has(&log, "Opportunity fire by Rifles"), "{log:?}");
    // Disordered by the displacement: out of enemy zones they recover at the end of the
    // player turn (R20).
    assert_has(&log, "Tirailleurs recover good order.");

    // Positive control: the same skirmishers walking into 0507 draw the riflemen's fire.
    let mut t = skirmish_screen(&[]);
    let log = t.play_on(&[("france", "MOVE Tirailleurs 0507\n")], &[]);
    assert_has(&log, "Opportunity fire by Rifles at Tirailleurs in 0507");
}

#[test]
fn p1_without_pas_de_charge_the_skirmishers_stay_and_a_full_hex_refuses_the_assault() {
    // Room for the column: without the Pas de Charge the skirmishers stay with it.
    let mut t = skirmish_screen(&[]);
    let log = t.play_on(
        &[
            ("france", "ASSAULT 1/45e AT 0505 VIA 0506\n"),
            ("allies", "OPPORTUNITY FIRE OFF\n"),
        ],
        &[],
    );
    assert!(!has(&log, "Pas de Charge"), "{log:?}");
    assert!(
        !has(&log, "Tirailleurs recover"),
        "never Disordered: {log:?}"
    );
    assert_eq!(t.st.label(t.unit("Tirailleurs").hex), "0506");
    assert_eq!(t.unit("Tirailleurs").cohesion, Cohesion::GoodOrder);

    // A hex of three: only the Pas de Charge makes room, by sending both skirmish screens back.
    let full: [Piece; 2] = [
        (
            "france",
            "Voltigeurs",
            "light_infantry",
            "French",
            "0506",
            "N",
            "skirmish",
            2,
            8,
        ),
        (
            "france",
            "2/45e",
            "line_infantry",
            "French",
            "0506",
            "N",
            "line",
            4,
            8,
        ),
    ];
    let t = skirmish_screen(&full);
    let e = orders::parse(&t.st, "france", "ASSAULT 1/45e AT 0505 VIA 0506\n").unwrap_err();
    assert!(e[0].reason.contains("no room for 1/45e"), "{e:?}");
    let mut t = skirmish_screen(&full);
    let log = t.play_on(
        &[
            ("france", "ASSAULT 1/45e AT 0505 VIA 0506 PAS DE CHARGE\n"),
            ("allies", "OPPORTUNITY FIRE OFF\n"),
        ],
        &[],
    );
    assert_has(
        &log,
        "Pas de Charge: Tirailleurs, Voltigeurs displaced to 0507 and Disordered",
    );
    assert_has(
        &log,
        "1/45e (French) declares an assault A1 on 0505 from 0506 (Number 2).",
    );
    // The line battalion is no skirmisher: it stays.
    assert_eq!(t.st.label(t.unit("2/45e").hex), "0506");
}

#[test]
fn p1_pas_de_charge_needs_an_approach_to_send_the_skirmishers_back_along() {
    // The column already stands with its skirmishers next to the target: it came from no
    // hex this turn, so the Pas de Charge has nowhere to send them; the mail says so.
    let t = Table::new(&field(
        &[
            (
                "france",
                "1/45e",
                "line_infantry",
                "French",
                "0506",
                "N",
                "column",
                4,
                8,
            ),
            (
                "france",
                "Tirailleurs",
                "light_infantry",
                "French",
                "0506",
                "N",
                "skirmish",
                2,
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
        "",
    ));
    let e = orders::parse(&t.st, "france", "ASSAULT 1/45e AT 0505 PAS DE CHARGE\n").unwrap_err();
    assert!(e[0].reason.contains("VIA"), "{e:?}");
    assert!(
        orders::parse(&t.st, "france", "ASSAULT 1/45e AT 0505\n").is_ok(),
        "the same assault without it is accepted"
    );
}

/// A French column two hexes from a Prussian line of one increment, a Prussian reserve in 0502
/// facing south (its Zone of Influence: 0503, 0403, 0603). The assault ends DS3: morale 3+3
/// and 2+2 pass, no shift, both fires miss, the mêlée roll 6+6 on 6:1 (12 to 2).
fn surrender(french_mail: &str) -> Table {
    let mut t = Table::new(&field(
        &[
            (
                "france",
                "1/45e",
                "line_infantry",
                "French",
                "0507",
                "N",
                "column",
                4,
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
                1,
                8,
            ),
            (
                "allies",
                "Reserve",
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
    let log = t.play_on(
        &[("france", french_mail), QUIET],
        &[3, 3, 2, 2, 1, 1, 1, 6, 6],
    );
    assert_has(&log, "= 12: DS3");
    assert_has(&log, "A1: the defenders surrender.");
    assert_has(&log, "A1: 1/45e advance into 0505 and is Disordered.");
    assert!(t.unit("28th-Foot").eliminated);
    t
}

const ASSAULT: &str = "ASSAULT 1/45e AT 0505 VIA 0506\n";

#[test]
fn r25_t8_after_a_ds_the_impetus_takes_any_path_asked_of_the_attacker_by_mail() {
    let mut t = surrender(ASSAULT);
    let (seat, text) = t.asked().expect("the impetus is asked");
    assert_eq!(seat, "france", "the attacker chooses the path");
    assert!(
        text.contains("must advance 3 more hex(es) by any path"),
        "{text}"
    );
    // The mail's prompt: a required answer for the French, nothing but the optional standing
    // orders for the Allies.
    let spec = LaBataille::step(&t.st);
    let fr = spec.prompts.iter().find(|p| p.seat == "france").unwrap();
    assert!(fr.required && fr.kind == "question", "{fr:?}");
    assert!(fr.question.contains("answer IMPETUS"), "{}", fr.question);
    let al = spec.prompts.iter().find(|p| p.seat == "allies").unwrap();
    assert!(!al.required, "{al:?}");
    // The Allies may not answer it; PASS is no answer either.
    assert!(orders::parse(&t.st, "allies", "IMPETUS 0504\n").is_err());
    let e = orders::parse(&t.st, "france", "PASS\n").unwrap_err();
    assert!(
        e[0].hint.as_deref().unwrap_or("").contains("IMPETUS"),
        "{e:?}"
    );
    // Any path (the defenders are gone): north-east, then north into the reserve's zone,
    // where it stops (its third hex; R25).
    let log = t.play_on(&[("france", "IMPETUS 0605 0604 0603\n")], &[]);
    assert_has(&log, "A1: impetus: 1/45e advance to 0605 0604 0603.");
    assert_eq!(t.st.label(t.unit("1/45e").hex), "0603");
}

#[test]
fn r25_t8_an_impetus_stops_on_entering_an_enemy_zone_before_its_number() {
    let mut t = surrender(ASSAULT);
    // The second hex, 0503, is in the reserve's zone: the third is never walked.
    let log = t.play_on(&[("france", "IMPETUS 0504 0503 0403\n")], &[]);
    assert_has(&log, "A1: impetus: 1/45e advance to 0504 0503.");
    assert_eq!(t.st.label(t.unit("1/45e").hex), "0503");
}

#[test]
fn r25_t8_impetus_auto_answers_in_advance_or_as_the_answer_and_heads_for_the_nearest_enemy() {
    // Standing, sent with the orders: nobody is asked.
    let t = surrender(&format!("IMPETUS AUTO\n{ASSAULT}"));
    assert_eq!(t.asked(), None);
    assert_has(&t.log, "A1: impetus: 1/45e advance to 0504 0503.");
    assert!(!has(&t.log, "is asked"), "{:?}", t.log);
    // Sent as the answer to the question: it answers it, and stands for next time.
    let mut t = surrender(ASSAULT);
    assert_eq!(t.asked().map(|q| q.0).as_deref(), Some("france"));
    let log = t.play_on(&[("france", "IMPETUS AUTO\n")], &[]);
    assert_has(&log, "A1: impetus: 1/45e advance to 0504 0503.");
    assert_eq!(
        t.st.standing("france").impetus,
        despatch::rulesets::la_bataille::state::Choice::Auto
    );
}

#[test]
fn r25_t8_a_path_shorter_than_the_impetus_is_walked_on_towards_the_nearest_enemy() {
    // "must advance the number of hexes": a one-hex answer to a three-hex impetus is carried
    // on by the AUTO choice from where it ends.
    let mut t = surrender(ASSAULT);
    let log = t.play_on(&[("france", "IMPETUS 0605\n")], &[]);
    // 0605 as written, then two more hexes straight for the reserve, the last in its zone.
    assert_has(&log, "A1: impetus: 1/45e advance to 0605 0604 0503.");
    assert_eq!(t.st.label(t.unit("1/45e").hex), "0503");
    // The impetus is over: nothing more is asked about it.
    assert!(
        !matches!(t.asked(), Some((_, ref q)) if q.contains("IMPETUS")),
        "{:?}",
        t.asked()
    );
}
