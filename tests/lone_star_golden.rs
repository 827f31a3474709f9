//! Lone Star's worked examples (inventory §8) and its numbered rulings as golden tests: orders
//! in the players' own syntax, dice from fixed seeds, and every roll checked against the roll
//! table the dice handle keeps, so a test reads as the table would play it.

use std::collections::BTreeMap;

use despatch::board::tabletop::{Pt, dist};
use despatch::dice::Dice;
use despatch::engine::{Ruleset, Silence, Submitted, Viewer};
use despatch::rulesets::lone_star::LoneStar;
use despatch::rulesets::lone_star::combat::{self, Band, Morale};
use despatch::rulesets::lone_star::movement;
use despatch::rulesets::lone_star::state::{Fig, Form, Phase, Smoke, State};
use despatch::rulesets::lone_star::turn;

const RULESET: &str = include_str!("../games/lone-star/ruleset.toml");

fn teaching() -> State {
    LoneStar::setup(
        RULESET,
        include_str!("../games/lone-star/scenarios/teaching.toml"),
        &["hays".to_string(), "von-arnim".to_string()],
    )
    .unwrap()
}

fn patrol() -> State {
    LoneStar::setup(
        RULESET,
        include_str!("../games/lone-star/scenarios/patrol.toml"),
        &["hays", "bowie", "von-arnim", "enver"].map(String::from),
    )
    .unwrap()
}

/// Resolves the open step with these mails (other prompted seats silent), dice from `seed`.
fn step(st: &State, mails: &[(&str, &str)], seed: u8) -> State {
    let spec = LoneStar::step(st);
    let subs: BTreeMap<String, Submitted<_>> = spec
        .prompts
        .iter()
        .map(|p| {
            let sub = match mails.iter().find(|(s, _)| *s == p.seat) {
                Some((s, text)) => Submitted::Orders(
                    LoneStar::parse(st, s, text).unwrap_or_else(|e| panic!("{text}: {e:?}")),
                ),
                None => Submitted::Nmr(Silence::StandingOrders),
            };
            (p.seat.clone(), sub)
        })
        .collect();
    LoneStar::resolve(st, &subs, &mut Dice::new([seed; 32]))
}

/// Puts a unit somewhere, for a set piece.
fn place(st: &mut State, name: &str, x: f64, y: f64, facing: f64, form: Form) {
    let u = st.unit_mut(name);
    u.pos = Pt::new(x, y);
    u.facing = facing;
    u.form = form;
}

/// Gives the card to `seat`: the movement step of that seat.
fn card_to(st: &mut State, seat: &str) {
    if !st.cards.contains(&seat.to_string()) {
        st.cards = st.seats.iter().map(|s| s.id.clone()).collect();
    }
    let i = st.cards.iter().position(|s| s == seat).unwrap();
    st.phase = Phase::Move { card: i };
}

fn log(st: &State) -> String {
    st.log
        .iter()
        .map(|l| l.0.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

// ---------------------------------------------------------------- §8 worked examples

#[test]
fn ex3_combat_dice_score_half_pips_and_paired_ones() {
    assert_eq!(combat::standard_hits(&[5, 3, 1, 1]), 4);
    assert_eq!(combat::standard_hits(&[5, 3, 1]), 3);
    assert_eq!(
        combat::standard_hits(&[1, 1, 1]),
        1,
        "a third 1 pairs with nothing"
    );
}

#[test]
fn dt2_strength_to_dice() {
    assert_eq!(combat::dice_for(23 + 7, 10), 3);
    assert_eq!(combat::dice_for(23 - 10, 10), 2);
    assert_eq!(combat::dice_for(-2, 10), 0);
    assert_eq!(combat::dice_for(0, 10), 0);
}

#[test]
fn dt1_and_ex7_morale() {
    let st = teaching();
    assert_eq!(combat::morale_result(&st, 5, 9, 9), Morale::Pass);
    assert_eq!(combat::morale_result(&st, 4, 4, 5), Morale::NoMove);
    assert_eq!(combat::morale_result(&st, 4, 4, 8), Morale::Rout);
    assert_eq!(combat::morale_result(&st, 4, 4, 0), Morale::Pass);
    // EX-7: two figures, target 5: 9 routs, 6-8 no move, 0-5 pass.
    assert_eq!(combat::morale_result(&st, 2, 5, 9), Morale::Rout);
    for r in 6..=8 {
        assert_eq!(combat::morale_result(&st, 2, 5, r), Morale::NoMove);
    }
    for r in 0..=5 {
        assert_eq!(combat::morale_result(&st, 2, 5, r), Morale::Pass);
    }
    // The target itself: 5 figures + L1 + Z2 + E1 (DT-1).
    let mut g = st.unit("Grenzer").unwrap().clone();
    g.figures = vec![
        Fig::Trooper,
        Fig::Trooper,
        Fig::Trooper,
        Fig::Leader,
        Fig::Heavy(despatch::rulesets::lone_star::data::Heavy::Hmg),
    ];
    g.form = Form::Line;
    assert_eq!(combat::morale_target(&st, &g), 5 + 1 + 2 + 1);
}

#[test]
fn ex1_saving_a_leader_follows_the_dice() {
    // Over many seeds: whenever the die picks the leader, the save roll decides, as in EX-1.
    let mut saw_save = false;
    let mut saw_loss = false;
    for seed in 0..=255u8 {
        let mut st = teaching();
        st.unit_mut("Rangers").figures = vec![
            Fig::Leader,
            Fig::Heavy(despatch::rulesets::lone_star::data::Heavy::Lmg),
            Fig::Grenadier,
            Fig::Trooper,
            Fig::Trooper,
        ];
        let mut dice = Dice::new([seed; 32]);
        let lost = combat::casualty(&mut st, "Rangers", false, &mut dice);
        let rolls = dice.table().to_vec();
        assert_eq!(lost.len(), 1);
        if rolls[0].results[0] == 1 {
            assert!(rolls[1].label.contains("save roll"));
            if rolls[1].results[0] == 1 {
                assert_eq!(lost[0], Fig::Leader);
                saw_loss = true;
            } else {
                assert_eq!(lost[0], Fig::Trooper, "a trooper dies instead");
                saw_save = true;
            }
        }
    }
    assert!(saw_save && saw_loss);
}

#[test]
fn dt5_smoke_laid_on_turn_5_lifts_at_the_end_of_turn_6() {
    let mut st = teaching();
    st.cards = vec!["hays".into(), "von-arnim".into()];
    st.turn = 5;
    st.smoke.push(Smoke {
        at: Pt::new(18.0, 12.0),
        turn: 5,
        side: "texas".into(),
    });
    assert!(
        !st.sight(Pt::new(10.0, 12.0), Pt::new(28.0, 12.0)),
        "smoke blocks sight"
    );
    turn::end_turn(&mut st);
    assert_eq!(st.smoke.len(), 1, "still there in turn 6");
    turn::end_turn(&mut st);
    assert!(st.smoke.is_empty());
}

#[test]
fn ex4_double_cover_from_woods_and_a_wall() {
    let mut st = patrol();
    // Grenzer inside the walled farm enclosure's woods? Use the farm (area cover) behind the wall.
    place(&mut st, "Grenzer", 36.0, 9.5, 90.0, Form::Line);
    place(&mut st, "Rangers", 36.0, 2.0, 0.0, Form::Line);
    let g = st.unit("Grenzer").unwrap().clone();
    let r = st.unit("Rangers").unwrap().clone();
    let m = combat::modifiers(&st, &r, &g, Band::Short);
    assert!(m.iter().any(|x| x.0 == "cover"), "{m:?}");
    // Against the wall stand: put the Grenzer against the wall's inside at y = 7.
    place(&mut st, "Grenzer", 36.0, 6.6, 0.0, Form::Line);
    let g = st.unit("Grenzer").unwrap().clone();
    let m = combat::modifiers(&st, &r, &g, Band::Short);
    assert!(m.iter().any(|x| x.0 == "cover"), "the wall between: {m:?}");
}

// ---------------------------------------------------------------- rulings

#[test]
fn r1_cards_are_drawn_once_per_game_with_the_dice() {
    let st = step(&teaching(), &[], 7);
    assert_eq!(st.cards.len(), 2);
    assert!(log(&st).contains("Turn-order cards"));
    let cards = st.cards.clone();
    let mut s = st;
    for _ in 0..12 {
        if s.turn > 2 {
            break;
        }
        s = step(&s, &[], 9);
    }
    assert_eq!(s.cards, cards, "the same cards in turn 2");
}

#[test]
fn r2_rout_is_twice_the_adjusted_target() {
    let st = teaching();
    // Target 3 (adjusted): 6 routs, 5 only fails.
    assert_eq!(combat::morale_result(&st, 5, 3, 6), Morale::Rout);
    assert_eq!(combat::morale_result(&st, 5, 3, 5), Morale::NoMove);
}

#[test]
fn r3_smoke_and_column_under_fire_cost_one_in_all() {
    let mut st = teaching();
    let base = combat::morale_target(&st, st.unit("Rangers").unwrap());
    let r = st.unit_mut("Rangers");
    r.form = Form::Column;
    r.in_combat = true;
    let pos = r.pos;
    st.smoke.push(Smoke {
        at: pos,
        turn: 1,
        side: "prussia".into(),
    });
    assert_eq!(
        combat::morale_target(&st, st.unit("Rangers").unwrap()),
        base - 1
    );
}

#[test]
fn r4_a_seat_moves_all_its_units_in_one_mail_on_its_card() {
    let mut st = patrol();
    card_to(&mut st, "hays");
    let before = st.unit("Comanche Scouts").unwrap().pos;
    let st2 = step(
        &st,
        &[("hays", "MOVE Rangers 2 ON 0\nMOVE comanche 2 ON 180")],
        3,
    );
    assert!(st2.unit("Rangers").unwrap().pos.y > 16.5, "{}", log(&st2));
    assert!(
        st2.unit("Comanche Scouts").unwrap().pos.y < before.y,
        "{}",
        log(&st2)
    );
    assert!(matches!(st2.phase, Phase::Move { .. } | Phase::Combat));
}

#[test]
fn r5_the_casualty_die_runs_over_the_figures() {
    let mut st = teaching();
    let mut dice = Dice::new([3; 32]);
    combat::casualty(&mut st, "Grenzer", false, &mut dice);
    let first = &dice.table()[0];
    assert!(
        first.label.contains("(d8 over its figures)"),
        "{}",
        first.label
    );
}

#[test]
fn r6_colors_in_melee_take_up_to_three_rolls() {
    let mut seen = false;
    for seed in 0..=255u8 {
        let mut st = teaching();
        st.unit_mut("Rangers").figures = vec![
            Fig::Colors,
            Fig::Trooper,
            Fig::Trooper,
            Fig::Trooper,
            Fig::Trooper,
        ];
        let mut dice = Dice::new([seed; 32]);
        let lost = combat::casualty(&mut st, "Rangers", true, &mut dice);
        if dice.table()[0].results[0] == 1 {
            seen = true;
            assert!((1..=3).contains(&lost.len()), "{lost:?}");
            let saves = dice
                .table()
                .iter()
                .filter(|r| r.label.contains("saving the Colors"))
                .count();
            assert!((1..=3).contains(&saves));
            if lost.contains(&Fig::Colors) {
                assert_eq!(saves, 3, "the Colors fall only on the third failure");
            }
        }
    }
    assert!(seen);
}

#[test]
fn r7_a_flamethrower_hit_may_burst_its_tank() {
    let mut burst = false;
    for seed in 0..=255u8 {
        let mut st = patrol();
        let mut dice = Dice::new([seed; 32]);
        let figs = st.unit("Jaeger").unwrap().figures.clone();
        combat::casualty(&mut st, "Jaeger", false, &mut dice);
        let t = dice.table().to_vec();
        let picked = figs[(t[0].results[0] - 1) as usize];
        if picked == Fig::Heavy(despatch::rulesets::lone_star::data::Heavy::Flamethrower) {
            let acc = t
                .iter()
                .find(|r| r.label.contains("flamethrower accident"))
                .expect("always rolled");
            if acc.results[0] <= 3 {
                burst = true;
                assert!(
                    st.unit("Jaeger").unwrap().heavy().is_none(),
                    "lost after all"
                );
                assert!(t.iter().any(|r| r.label.contains("blast (3d6)")));
            }
        }
    }
    assert!(burst);
}

#[test]
fn r8_a_rout_runs_straight_away_from_the_nearest_enemy() {
    let mut st = teaching();
    let e = st.unit("Grenzer").unwrap().pos;
    let before = dist(st.unit("Rangers").unwrap().pos, e);
    movement::flee(&mut st, "Rangers", "routs");
    let after = dist(st.unit("Rangers").unwrap().pos, e);
    assert!(after > before + 5.0, "{before} -> {after}: {}", log(&st));
    // Near the edge it runs off the table.
    place(&mut st, "Rangers", 1.0, 12.0, 90.0, Form::Line);
    movement::flee(&mut st, "Rangers", "routs");
    assert_eq!(
        st.unit("Rangers").unwrap().gone.as_deref(),
        Some("routed off the table")
    );
}

#[test]
fn r9_rivers_are_crossed_at_fords_with_a_stop_in_the_water() {
    let mut st = patrol();
    card_to(&mut st, "von-arnim");
    place(&mut st, "Comanche Scouts", 46.0, 30.0, 270.0, Form::Line);
    place(&mut st, "Grenzer", 18.0, 24.0, 90.0, Form::Column);
    let st2 = step(&st, &[("von-arnim", "MOVE Grenzer 7 ON 90")], 1);
    assert!(log(&st2).contains("has no ford"), "{}", log(&st2));
    place(&mut st, "Grenzer", 18.0, 16.0, 90.0, Form::Column);
    let st3 = step(&st, &[("von-arnim", "MOVE Grenzer 7 ON 90")], 1);
    let g = st3.unit("Grenzer").unwrap();
    assert_eq!(g.river, 1, "{}", log(&st3));
    assert!(g.pos.x < 23.0);
}

#[test]
fn r10_a_hidden_unit_is_revealed_where_the_mover_comes_in_range() {
    let mut st = patrol();
    card_to(&mut st, "hays");
    place(&mut st, "Rangers", 36.0, 3.0, 270.0, Form::Column);
    // Jaeger hide at 16,6 in the open: spotted at 12" edge to edge.
    let st2 = step(&st, &[("hays", "MOVE Rangers 8 ON 270")], 1);
    let j = st2.unit("Jaeger").unwrap();
    assert!(!j.hidden, "{}", log(&st2));
    let l = log(&st2);
    let line = l
        .lines()
        .find(|x| x.starts_with("Jaeger is revealed at 16,6 as Rangers comes within "))
        .expect(&l);
    let gap: f64 = line
        .split("within ")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        gap <= 12.0 && gap > 11.7,
        "revealed at the exact point: {line}"
    );
    let r = st2.unit("Rangers").unwrap();
    assert!(
        r.pos.x > 29.0 && r.pos.x < 36.0,
        "the mover halts where it sighted them: {:?}",
        r.pos
    );
}

#[test]
fn r11_no_unit_ends_on_another() {
    let mut st = patrol();
    card_to(&mut st, "hays");
    place(&mut st, "Comanche Scouts", 30.0, 12.0, 90.0, Form::Line);
    st.unit_mut("Comanche Scouts").hidden = false;
    let st2 = step(&st, &[("hays", "MOVE Rangers 30,12")], 1);
    let a = st2.unit("Rangers").unwrap();
    let b = st2.unit("Comanche Scouts").unwrap();
    let near = st2
        .stands(a)
        .iter()
        .flat_map(|p| st2.stands(b).into_iter().map(move |q| dist(*p, q)))
        .fold(f64::INFINITY, f64::min);
    assert!(near >= 0.99, "{near}");
}

#[test]
fn r12_disengage_is_seven_inches_once_a_game() {
    let mut st = teaching();
    place(&mut st, "Grenzer", 13.0, 12.0, 270.0, Form::Column);
    st.unit_mut("Rangers").melee = vec!["Grenzer".into()];
    st.unit_mut("Grenzer").melee = vec!["Rangers".into()];
    card_to(&mut st, "hays");
    let st2 = step(&st, &[("hays", "DISENGAGE Rangers")], 1);
    let r = st2.unit("Rangers").unwrap();
    assert!(!r.disengage && r.melee.is_empty());
    assert!(
        (dist(r.pos, Pt::new(10.0, 12.0)) - 7.0).abs() < 0.3,
        "{:?} {}",
        r.pos,
        log(&st2)
    );
    let mut st3 = st2.clone();
    card_to(&mut st3, "hays");
    assert!(LoneStar::parse(&st3, "hays", "DISENGAGE Rangers").is_err());
}

#[test]
fn r13_the_charged_unit_gives_way_on_a_tie() {
    let st = teaching();
    let mut a = st.unit("Rangers").unwrap().clone();
    let mut b = st.unit("Grenzer").unwrap().clone();
    a.figures.truncate(6);
    b.figures.truncate(6);
    a.charged = true;
    assert_eq!(turn::who_retreats(&a, &b), "Grenzer");
}

#[test]
fn r14_a_charge_within_two_inches_is_melee() {
    let mut st = teaching();
    place(&mut st, "Grenzer", 17.0, 12.0, 270.0, Form::Column);
    card_to(&mut st, "hays");
    let st2 = step(&st, &[("hays", "CHARGE Rangers Grenzer")], 4);
    if log(&st2).contains("may not move") || log(&st2).contains("ROUTS") {
        return;
    }
    assert_eq!(
        st2.unit("Rangers").unwrap().melee,
        vec!["Grenzer".to_string()],
        "{}",
        log(&st2)
    );
    assert!(st2.unit("Grenzer").unwrap().melee_new);
}

#[test]
fn r15_ex6_windwagon_wind_tiers_and_ground_table() {
    let mut st = patrol();
    st.wind = Some(despatch::rulesets::lone_star::data::Wind {
        speed: 2,
        from: 0.0,
    });
    // Sailing into the wind (worst orientation) at speed 2 of 3: the fourth tier, 12".
    assert_eq!(movement::wagon_base(&st, 0.0), 12.0);
    assert_eq!(movement::wagon_base(&st, 180.0), 16.0);
    assert_eq!(movement::ground_table(5), (-6.0, true, true));
    assert_eq!(movement::ground_table(7), (-2.0, false, false));
    assert_eq!(movement::ground_table(17), (4.0, false, false));
    assert_eq!(movement::ground_table(3), (-8.0, true, true));
}

#[test]
fn r16_nobody_shoots_into_a_melee() {
    let mut st = patrol();
    place(&mut st, "Grenzer", 20.0, 16.0, 90.0, Form::Line);
    st.unit_mut("Grenzer").melee = vec!["Rangers".into()];
    let r = st.unit("Alamo Battery").unwrap().clone();
    let g = st.unit("Grenzer").unwrap().clone();
    assert!(!turn::may_shoot(&st, &r, &g));
}

#[test]
fn r17_dt6_drift_direction_is_a_second_d10() {
    let mut st = patrol();
    st.cards = st.seats.iter().map(|s| s.id.clone()).collect();
    st.phase = Phase::Combat;
    let mut found = false;
    for seed in 0..40u8 {
        let mut dice = Dice::new([seed; 32]);
        let subs: BTreeMap<String, Submitted<_>> = LoneStar::step(&st)
            .prompts
            .iter()
            .map(|p| {
                let text = if p.seat == "bowie" {
                    "FIRE Alamo AT 10,16"
                } else {
                    ""
                };
                (
                    p.seat.clone(),
                    Submitted::Orders(LoneStar::parse(&st, &p.seat, text).unwrap()),
                )
            })
            .collect();
        let after = turn_resolve(&st, &subs, &mut dice);
        let t = dice.table();
        let drift = t
            .iter()
            .find(|r| r.label.contains("Alamo Battery drift (d10"))
            .unwrap()
            .results[0];
        let blast = after
            .blasts
            .iter()
            .find(|b| b.gun == "Alamo Battery")
            .unwrap();
        if drift == 0 {
            assert_eq!((blast.at.x, blast.at.y), (10.0, 16.0));
        } else {
            found = true;
            let dir = t
                .iter()
                .find(|r| r.label.contains("drift direction"))
                .unwrap()
                .results[0];
            assert!((dist(blast.at, Pt::new(10.0, 16.0)) - drift as f64 * 0.5).abs() < 1e-9);
            let b = despatch::board::tabletop::bearing(Pt::new(10.0, 16.0), blast.at);
            assert!((b - 36.0 * dir as f64).abs() < 1e-6 || (b - 36.0 * dir as f64).abs() > 359.99);
        }
    }
    assert!(found);
}

fn turn_resolve(
    st: &State,
    subs: &BTreeMap<String, Submitted<Vec<despatch::rulesets::lone_star::orders::Order>>>,
    dice: &mut Dice,
) -> State {
    LoneStar::resolve(st, subs, dice)
}

/// Sets Grenzer and Rangers in melee, in the combat step.
fn melee_set(st: &mut State) {
    place(st, "Rangers", 18.0, 12.0, 90.0, Form::Line);
    place(st, "Grenzer", 20.0, 12.0, 270.0, Form::Line);
    st.unit_mut("Rangers").melee = vec!["Grenzer".into()];
    st.unit_mut("Grenzer").melee = vec!["Rangers".into()];
    st.cards = vec!["hays".into(), "von-arnim".into()];
    st.phase = Phase::Combat;
}

#[test]
fn r18_dt3_red_cross_takes_one_hit_off_a_grenade_volley() {
    let mut st = teaching();
    melee_set(&mut st);
    {
        let g = st.unit_mut("Grenzer");
        g.armored = true;
        g.figures.push(Fig::RedCross);
        g.start_figures += 1;
    }
    let st2 = step(&st, &[("hays", "GRENADES Rangers")], 5);
    let l = log(&st2);
    let line = l
        .lines()
        .find(|x| x.starts_with("Rangers throws grenades at Grenzer"))
        .expect(&l);
    // "[p] = h hits (armoured −1, Red Cross −1)"
    let pips: u32 = line
        .split('[')
        .nth(1)
        .unwrap()
        .split(']')
        .next()
        .unwrap()
        .split(", ")
        .map(|p| p.parse::<u32>().unwrap())
        .sum();
    let hits: u32 = line
        .split("= ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(hits, pips.saturating_sub(2), "{line}");
    assert!(line.contains("armoured −1, Red Cross −1"), "{line}");
}

#[test]
fn r19_silence_in_melee_stays() {
    let mut st = teaching();
    melee_set(&mut st);
    st.phase = Phase::MeleeEnd;
    let st2 = step(&st, &[], 1);
    assert!(log(&st2).contains("stay locked in melee"), "{}", log(&st2));
}

#[test]
fn r20_a_routing_unit_retreats_first() {
    let st = teaching();
    let mut a = st.unit("Rangers").unwrap().clone();
    let b = st.unit("Grenzer").unwrap().clone();
    a.routing = true;
    assert_eq!(turn::who_retreats(&a, &b), "Rangers");
    a.routing = false;
    // DT-4 criterion 2: 8 stands against 4.
    let mut small = b.clone();
    small.figures.truncate(4);
    assert_eq!(turn::who_retreats(&a, &small), "Grenzer");
}

#[test]
fn r21_objectives_held_at_the_turn_limit_win() {
    let mut st = teaching();
    st.turn = 7;
    place(&mut st, "Grenzer", 18.5, 10.0, 0.0, Form::Line);
    let o = turn::judge(&st).unwrap();
    assert_eq!(o.winners, vec!["prussia".to_string()], "{}", o.summary);
    place(&mut st, "Rangers", 18.5, 5.0, 0.0, Form::Line);
    assert!(
        turn::judge(&st).unwrap().winners.is_empty(),
        "both there: a draw"
    );
}

#[test]
fn r22_the_enemy_sees_the_table_not_the_card() {
    let mut st = patrol();
    st.unit_mut("Rangers").standing.target_nearest = Some(true);
    let text = |seat: &str| {
        let v = LoneStar::view(&st, &Viewer::Seat(seat.into()));
        format!("{:?}", v.sections)
    };
    assert!(
        text("hays").contains("Rangers (infantry): 9 figures") && text("hays").contains("L2 Z1 E1")
    );
    assert!(text("hays").contains("STANDING Rangers TARGET NEAREST"));
    // The side-mate sees the card, not the standing orders nor the hidden scouts.
    assert!(text("bowie").contains("L2 Z1 E1"));
    assert!(!text("bowie").contains("STANDING Rangers"));
    assert!(!text("bowie").contains("Comanche"));
    // The enemy sees figures and hits only.
    let e = text("enver");
    assert!(
        e.contains("Rangers (infantry): 9 figures, hits 0/36"),
        "{e}"
    );
    assert!(!e.contains("L2 Z1 E1") && !e.contains("smoke 2") && !e.contains("Comanche"));
}

#[test]
fn r23_four_hits_cross_off_a_figure() {
    let mut st = teaching();
    let mut dice = Dice::new([1; 32]);
    assert!(combat::take_hits(&mut st, "Grenzer", 3, false, &mut dice).is_empty());
    assert_eq!(
        combat::take_hits(&mut st, "Grenzer", 1, false, &mut dice).len(),
        1
    );
    assert_eq!(
        combat::take_hits(&mut st, "Grenzer", 8, false, &mut dice).len(),
        2
    );
}

#[test]
fn r24_cavalry_on_a_road_gains_a_quarter() {
    let mut st = patrol();
    place(&mut st, "Grenzer", 10.0, 30.0, 90.0, Form::Column);
    place(&mut st, "Sipahi", 2.0, 16.0, 90.0, Form::Column);
    let w = movement::walk(
        &mut st,
        "Sipahi",
        &[Pt::new(20.0, 16.0)],
        12.0,
        false,
        None,
        None,
    );
    assert!((w.moved - 15.0).abs() < 0.3, "{w:?}");
}

#[test]
fn r25_gas_reaches_every_unmasked_unit_of_the_melee() {
    let mut st = teaching();
    melee_set(&mut st);
    let st2 = step(&st, &[("von-arnim", "GAS Grenzer")], 2);
    let l = log(&st2);
    assert!(l.contains("Grenzer throws 1 gas grenade(s)."), "{l}");
    assert!(
        l.contains("Rangers is gassed") || l.contains("Rangers escapes the gas"),
        "{l}"
    );
    assert_eq!(st2.unit("Grenzer").unwrap().gas, 0);
}

#[test]
fn r26_the_lost_strengths_are_marked_stand_ins() {
    let s = despatch::rulesets::kit::data::stand_ins(RULESET).unwrap();
    for key in [
        "figures.trooper.short",
        "figures.hmg.long",
        "rules.cover",
        "rules.spotting_open",
        "rules.disengage_distance",
    ] {
        assert!(
            s.iter().any(|x| x.key == key && !x.reason.is_empty()),
            "{key}"
        );
    }
}

#[test]
fn r27_cover_by_centre_of_mass_in_woods() {
    let mut st = teaching();
    place(&mut st, "Grenzer", 17.0, 17.5, 270.0, Form::Line);
    let r = st.unit("Rangers").unwrap().clone();
    let g = st.unit("Grenzer").unwrap().clone();
    assert!(
        combat::modifiers(&st, &r, &g, Band::Short)
            .iter()
            .any(|m| m == &("cover".to_string(), -5))
    );
    place(&mut st, "Grenzer", 22.0, 17.5, 270.0, Form::Line);
    let g = st.unit("Grenzer").unwrap().clone();
    assert!(
        !combat::modifiers(&st, &r, &g, Band::Short)
            .iter()
            .any(|m| m.0 == "cover")
    );
}

#[test]
fn r28_a_still_hidden_unit_stays_hidden_and_unseen() {
    let mut st = patrol();
    card_to(&mut st, "von-arnim");
    let st2 = step(&st, &[("von-arnim", "MOVE Grenzer 2 ON 90")], 1);
    assert!(st2.unit("Jaeger").unwrap().hidden);
    let v = LoneStar::view(&st2, &Viewer::Seat("hays".into()));
    assert!(!format!("{v:?}").contains("Jaeger"));
    let own = LoneStar::view(&st2, &Viewer::Seat("von-arnim".into()));
    assert!(format!("{:?}", own.sections).contains("HIDDEN at 16,6"));
}

#[test]
fn r29_silence_in_combat_fires_at_the_nearest() {
    let mut st = teaching();
    place(&mut st, "Grenzer", 20.0, 12.0, 270.0, Form::Line);
    st.cards = vec!["hays".into(), "von-arnim".into()];
    st.phase = Phase::Combat;
    let st2 = step(&st, &[], 3);
    let l = log(&st2);
    assert!(
        l.contains("Rangers fires at Grenzer") && l.contains("Grenzer fires at Rangers"),
        "{l}"
    );
}

#[test]
fn r30_a_gun_fires_within_the_range_on_its_card() {
    let mut st = patrol();
    st.cards = st.seats.iter().map(|s| s.id.clone()).collect();
    st.phase = Phase::Combat;
    let e = LoneStar::parse(&st, "bowie", "FIRE Alamo Battery AT 40,16").unwrap_err();
    assert!(e[0].reason.contains("fires from 15\" to 60\""), "{e:?}");
    assert!(LoneStar::parse(&st, "bowie", "FIRE Alamo Battery AT 20,16").is_ok());
}

#[test]
fn r31_pre_measuring_the_server_names_the_distance() {
    let mut st = patrol();
    st.cards = st.seats.iter().map(|s| s.id.clone()).collect();
    st.phase = Phase::Combat;
    let e = LoneStar::parse(&st, "bowie", "FIRE Alamo Battery AT 40,16").unwrap_err();
    assert!(e[0].reason.contains("that point is 6\" away"), "{e:?}");
}

#[test]
fn r32_armour_counts_only_against_grenades() {
    let mut st = patrol();
    place(&mut st, "Grenzer", 20.0, 16.0, 90.0, Form::Line);
    let r = st.unit("Rangers").unwrap().clone();
    let mut g = st.unit("Grenzer").unwrap().clone();
    let plain = combat::modifiers(&st, &r, &g, Band::Short);
    g.armored = true;
    assert_eq!(combat::modifiers(&st, &r, &g, Band::Short), plain);
}

#[test]
fn r33_dt9_four_prisoners_take_two_guards() {
    for seed in 0..=255u8 {
        let mut st = teaching();
        melee_set(&mut st);
        {
            let r = st.unit_mut("Rangers");
            r.figures.retain(|f| *f != Fig::Grenadier);
            r.figures.extend([Fig::Trooper; 5]);
            r.start_figures = r.figures.len() as u32;
        }
        // Fourteen hits already: the Rangers' melee attack decides how many more figures fall.
        st.unit_mut("Grenzer").hits = 14;
        let st2 = step(&st, &[("hays", "PRISONERS Rangers")], seed);
        let r = st2.unit("Rangers").unwrap();
        if r.prisoners == 4 {
            assert_eq!(r.guards, 2, "{}", log(&st2));
            assert!(log(&st2).contains("takes 4 prisoner(s); 2 guard(s)"));
            return;
        }
    }
    panic!("no seed took exactly four prisoners");
}

#[test]
fn bad_orders_are_every_line_reported_with_hints() {
    let mut st = teaching();
    card_to(&mut st, "hays");
    let e = LoneStar::parse(&st, "hays", "MOVE Rangrs 5 ON 90\nFIRE Rangers AT Grenzer\nCHARGE Grenzer Rangers\nMOVE Rangers 99,99\n").unwrap_err();
    assert_eq!(
        e.iter().map(|r| r.line).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    assert!(
        e[0].hint.as_deref().unwrap_or("").contains("Rangers"),
        "{e:?}"
    );
    assert!(e[1].reason.contains("not an order of the movement step"));
    assert!(
        e[2].reason.contains("not one of your units") || e[2].reason.contains("called"),
        "{e:?}"
    );
    assert!(e[3].reason.contains("off the table"));
}

#[test]
fn orders_name_units_by_prefix_in_any_case() {
    let mut st = patrol();
    card_to(&mut st, "hays");
    let o = LoneStar::parse(&st, "hays", "move comanche 5 on 90\nform RANG column").unwrap();
    assert_eq!(
        LoneStar::canonical(&o),
        "MOVE Comanche Scouts 5 ON 90\nFORM Rangers COLUMN\n"
    );
}

fn tidal() -> State {
    LoneStar::setup(
        RULESET,
        include_str!("../games/lone-star/scenarios/tidal.toml"),
        &[
            "hays",
            "travis",
            "smythe",
            "bowie",
            "von-arnim",
            "von-moltke",
            "enver",
            "krupp",
        ]
        .map(String::from),
    )
    .unwrap()
}

#[test]
fn the_map_shows_bases_terrain_and_only_ones_own_hidden_units() {
    let mut st = tidal();
    st.smoke.push(Smoke {
        at: Pt::new(44.0, 30.0),
        turn: 1,
        side: "alliance".into(),
    });
    let scene = LoneStar::view(&st, &Viewer::Seat("hays".into()))
        .map
        .unwrap();
    let labels: Vec<&str> = scene.units.iter().map(|u| u.label.as_str()).collect();
    assert!(
        labels.contains(&"Comanche Scouts"),
        "Hays sees his own hidden scouts"
    );
    assert!(!labels.contains(&"Jaeger"), "but not the enemy's");
    let styles: Vec<&str> = scene.terrain.iter().map(|t| t.style.as_str()).collect();
    for s in ["woods", "river", "ford", "farm", "wall", "hill", "road"] {
        assert!(styles.contains(&s), "{s}");
    }
    assert!(
        scene
            .zones
            .iter()
            .any(|z| z.kind == despatch::engine::scene::ZoneKind::Smoke)
    );
    let other = LoneStar::view(&st, &Viewer::Seat("travis".into()))
        .map
        .unwrap();
    assert!(
        !other.units.iter().any(|u| u.label == "Comanche Scouts"),
        "not even the side-mate"
    );
    let png = despatch::render::png(&scene, 900).unwrap();
    assert!(png.len() > 1000);
    if let Ok(dir) = std::env::var("LONE_STAR_PNG") {
        std::fs::write(format!("{dir}/tidal-hays.png"), png).unwrap();
    }
}

#[test]
fn a_state_survives_its_snapshot() {
    // "No extra move" and "ask me" must stay apart through JSON (a snapshot, a journal replay).
    let mut st = patrol();
    st.unit_mut("Rangers").extra_plan = Some(None);
    st.unit_mut("Rangers").standing.extra = Some(None);
    st.unit_mut("Grenzer").standing.advance = Some(Some(Pt::new(20.0, 16.0)));
    let back: State = serde_json::from_value(serde_json::to_value(&st).unwrap()).unwrap();
    assert_eq!(back, st);
}
