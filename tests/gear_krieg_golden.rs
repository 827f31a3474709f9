//! Golden tests for the Gear Krieg demo: dice convention, damage table, worked cases in order
//! syntax, a random game, and a round played through mail-sized steps.

use std::collections::BTreeMap;

use despatch::board::tabletop::Pt;
use despatch::dice::Dice;
use despatch::engine::{Ruleset, Silence, Submitted, Viewer};
use despatch::rulesets::gear_krieg::state::{GkState, Phase};
use despatch::rulesets::gear_krieg::stats::{self, Band, DamageResult};
use despatch::rulesets::gear_krieg::{GearKrieg, combat, roll};
use despatch::rulesets::kit::roster::{Roster, TwoSides};

const RULESET: &str = include_str!("../games/gear-krieg/ruleset.toml");
const SCENARIO: &str = include_str!("../games/gear-krieg/scenarios/crossroads.toml");

fn seats() -> Vec<String> {
    vec!["us".into(), "germany".into()]
}

fn new_game() -> GkState {
    GearKrieg::setup(RULESET, SCENARIO, &seats()).expect("setup")
}

fn seed(k: u64, salt: u64) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&k.to_be_bytes());
    s[8..16].copy_from_slice(&salt.to_be_bytes());
    s
}

/// Plays `steps` steps with the sample players; returns the final state.
fn random_play(game: u64, steps: u64) -> (GkState, u64) {
    let mut st = new_game();
    let mut k = 0;
    while k < steps && GearKrieg::outcome(&st).is_none() {
        k += 1;
        let spec = GearKrieg::step(&st);
        assert!(!spec.prompts.is_empty(), "dead end at step {k}: {spec:?}");
        let mut subs = BTreeMap::new();
        for p in &spec.prompts {
            if !p.required && !(k + game).is_multiple_of(3) {
                continue;
            }
            let text = GearKrieg::sample_orders(&st, &p.seat, game * 1000 + k);
            let o = GearKrieg::parse(&st, &p.seat, &text)
                .unwrap_or_else(|e| panic!("sample rejected at step {k}: {text}\n{e:?}"));
            let canon = GearKrieg::canonical(&o);
            let again = GearKrieg::parse(&st, &p.seat, &canon).expect("canonical parses");
            assert_eq!(again, o, "canonical round trip");
            subs.insert(p.seat.clone(), Submitted::Orders(o));
        }
        for p in &spec.prompts {
            subs.entry(p.seat.clone())
                .or_insert(Submitted::Nmr(Silence::StandingOrders));
        }
        let mut dice = Dice::new(seed(k, game));
        let next = GearKrieg::resolve(&st, &subs, &mut dice);
        let mut dice2 = Dice::new(seed(k, game));
        let replay = GearKrieg::resolve(&st, &subs, &mut dice2);
        assert_eq!(next, replay, "replay differs at step {k}");
        for v in [
            Viewer::Seat("us".into()),
            Viewer::Seat("germany".into()),
            Viewer::Spectator,
        ] {
            let _ = GearKrieg::view(&next, &v);
        }
        st = next;
    }
    (st, k)
}

#[test]
fn random_play_many_rounds_no_panic_no_dead_end_replays() {
    for g in 0..8 {
        let (st, k) = random_play(g, 600);
        assert!(
            GearKrieg::outcome(&st).is_some(),
            "game {g} did not finish in {k} steps"
        );
        eprintln!(
            "game {g}: {k} steps, round {}, {:?}",
            st.round,
            GearKrieg::outcome(&st)
        );
    }
}

#[test]
fn r4_dt1_highest_die_convention() {
    assert_eq!(roll::read(&[3, 5], 0).total, 5);
    assert_eq!(roll::read(&[6, 2], 0).total, 6);
    assert_eq!(roll::read(&[6, 6], 0).total, 7);
    assert_eq!(roll::read(&[6, 6, 6], 0).total, 8);
    let f = roll::read(&[1, 1], 5);
    assert!(f.fumble && f.total == 0);
    assert_eq!(roll::read(&[2, 1], -4).total, 0);
    assert!(
        !roll::passes(&roll::read(&[1, 1], 9), 4),
        "a fumble fails any test"
    );
    assert!(roll::passes(&roll::read(&[4, 2], 0), 4), "R4: equal passes");
}

#[test]
fn r2_dt2_dt3_opposed_and_damage_table() {
    let st = new_game();
    let d = &st.data;
    // General, stationary, cannon at Medium through 1 cm of wood (Concealment 1).
    let mut g = st.unit("General-1").unwrap().clone();
    g.moved = Some(0.0);
    let cannon = stats::weapon(d, &g, "Cannon").unwrap();
    let (m, _) = combat::attack_modifiers(d, &g, false, Some(cannon), Band::Medium, 1, false);
    assert_eq!(
        m, 0,
        "+1 perception -1 FC +0 accuracy -1 medium +2 stationary -1 obscurement"
    );
    let atk = roll::read(&[4, 5], m);
    assert_eq!(atk.total, 5);
    let def = roll::read(&[2, 4], 0);
    let o = roll::opposed(&atk, &def);
    assert!(o.success && o.mos == 1);
    let dmg = 5 * o.mos;
    let r = |armor| stats::damage_vs_armor(d, dmg, armor);
    assert_eq!(r(6), DamageResult::NoEffect);
    assert_eq!(r(5), DamageResult::Light);
    assert_eq!(r(3), DamageResult::Light);
    assert_eq!(r(2), DamageResult::Heavy);
    assert_eq!(r(1), DamageResult::Overkill);
    // DT-3: a draw goes to the defender.
    let o = roll::opposed(&roll::read(&[6], 0), &roll::read(&[6], 0));
    assert!(!o.success);
}

#[test]
fn r17_ex2_dt10_damage_counters_and_heavy_halving() {
    let st = new_game();
    let mut g = st.unit("General-1").unwrap().clone();
    stats::apply_vehicle_damage(&mut g, DamageResult::Heavy);
    assert_eq!(
        (g.light, g.heavy),
        (0, 1),
        "EX-2: Heavy gives no Light as well"
    );
    assert_eq!(
        stats::mp(
            &st.data,
            &g,
            despatch::rulesets::gear_krieg::data::MoveMode::Ground,
            false
        ),
        2.0,
        "3 -> 2"
    );
    assert_eq!(
        stats::mp(
            &st.data,
            &g,
            despatch::rulesets::gear_krieg::data::MoveMode::Ground,
            true
        ),
        3.0,
        "5 -> 3"
    );
    assert_eq!(
        stats::melee_dm(
            &st.data,
            &g,
            &despatch::rulesets::gear_krieg::state::Melee::Punch
        ),
        2,
        "x4 -> x2"
    );
    stats::apply_vehicle_damage(&mut g, DamageResult::Heavy);
    assert!(g.destroyed, "two Heavies destroy");
    let mut v = st.unit("Valkurie-1").unwrap().clone();
    stats::apply_vehicle_damage(&mut v, DamageResult::Light);
    stats::apply_vehicle_damage(&mut v, DamageResult::Light);
    assert_eq!(
        (v.light, v.heavy, v.destroyed),
        (0, 1, false),
        "two Lights make one Heavy"
    );
}

#[test]
fn r20_dt4_range_bands_and_dt12_ex1_ammunition() {
    let c = 1.0;
    assert_eq!(stats::band(8.0, 8.0, c), Some(Band::Short));
    assert_eq!(stats::band(9.0, 8.0, c), Some(Band::Medium));
    assert_eq!(stats::band(16.0, 8.0, c), Some(Band::Medium));
    assert_eq!(stats::band(17.0, 8.0, c), Some(Band::Long));
    assert_eq!(stats::band(33.0, 8.0, c), Some(Band::Extreme));
    assert_eq!(stats::band(65.0, 8.0, c), None);
    assert_eq!(stats::band(1.0, 8.0, c), Some(Band::PointBlank));
    let st = new_game();
    let g = st.unit("General-1").unwrap();
    let lmg = stats::weapon(&st.data, g, "LMG").unwrap();
    assert_eq!(stats::saturation_ammo(&st.data, lmg, 2), 60);
    assert_eq!(stats::saturation_min(&st.data, lmg), 10);
    assert_eq!(
        stats::burst_ammo(&st.data, lmg, 2),
        20,
        "DT-11: 2 ROF points = 20 rounds"
    );
    assert_eq!([1, 2, 3, 4].map(stats::missiles), [2, 4, 8, 16]);
}

#[test]
fn dt14_infantry_target_penalty_and_dt5_extra_actions() {
    let st = new_game();
    let d = &st.data;
    let mut v = st.unit("Valkurie-1").unwrap().clone();
    v.moved = Some(3.0);
    let lmg = stats::weapon(d, &v, "LMG").unwrap();
    let kwk = stats::weapon(d, &v, "KwK").unwrap();
    let (a, _) = combat::attack_modifiers(d, &v, true, Some(lmg), Band::Short, 0, false);
    let (b, _) = combat::attack_modifiers(d, &v, true, Some(kwk), Band::Short, 0, false);
    assert_eq!(a - b, 2, "AI LMG avoids the -2, the KwK does not");
    v.extra_declared = 1;
    let (c, _) = combat::attack_modifiers(d, &v, true, Some(lmg), Band::Short, 0, false);
    assert_eq!(a - c, 1, "one declared extra Action: -1 on every attack");
}

fn place(st: &mut GkState, name: &str, x: f64, y: f64, heading: f64) {
    let u = st.unit_mut(name).unwrap();
    u.pos = Pt::new(x, y);
    u.heading = heading;
}

fn activating(side: &str) -> GkState {
    let mut st = new_game();
    st.phase = Phase::Activate { side: side.into() };
    st.to_play = side.into();
    st
}

/// `text` is refused, first at line `line`, for a reason containing `part`.
fn rejected_at(st: &GkState, seat: &str, text: &str, line: usize, part: &str) {
    let why = rejects(st, seat, text);
    assert!(
        why.starts_with(&format!("{line}: ")) && why.contains(part),
        "{text:?}: {why}"
    );
}

fn rejects(st: &GkState, seat: &str, text: &str) -> String {
    match GearKrieg::parse(st, seat, text) {
        Ok(o) => panic!("accepted: {o:?}"),
        Err(e) => e
            .iter()
            .map(|r| format!("{}: {}", r.line, r.reason))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

#[test]
fn dt8_turning_in_order_syntax() {
    let mut st = activating("us");
    place(&mut st, "General-1", 10.0, 30.0, 90.0);
    let why = rejects(
        &st,
        "us",
        "ACTIVATE General-1\nTURN RIGHT 60\nTURN RIGHT 60\n",
    );
    assert!(
        why.contains("3: each turn must follow at least 1 cm"),
        "{why}"
    );
    assert!(
        GearKrieg::parse(
            &st,
            "us",
            "ACTIVATE General-1\nTURN RIGHT 60\nMOVE 1\nTURN RIGHT 60\nMOVE 1\n"
        )
        .is_ok()
    );
    // 90 degrees costs 1 MP: with Walker Combat 2 only 1 cm is left.
    assert!(GearKrieg::parse(&st, "us", "ACTIVATE General-1\nTURN RIGHT 90\nMOVE 1\n").is_ok());
    let why = rejects(&st, "us", "ACTIVATE General-1\nTURN RIGHT 90\nMOVE 2\n");
    assert!(why.contains("not enough MP"), "{why}");
    st.unit_mut("General-1").unwrap().top = true;
    let why = rejects(&st, "us", "ACTIVATE General-1\nTURN RIGHT 150\nMOVE 3\n");
    assert!(why.contains("no turn over 120"), "{why}");
}

#[test]
fn r21_dt9_top_speed_in_order_syntax() {
    let mut st = activating("us");
    place(&mut st, "General-1", 10.0, 30.0, 90.0);
    let why = rejects(&st, "us", "ACTIVATE General-1\nMOVE 1\nSPEED TOP\n");
    assert!(why.contains("full Combat Speed"), "{why}");
    assert!(GearKrieg::parse(&st, "us", "ACTIVATE General-1\nMOVE 2\nSPEED TOP\n").is_ok());
    st.unit_mut("General-1").unwrap().top = true;
    let why = rejects(&st, "us", "ACTIVATE General-1\nMOVE 2\n");
    assert!(
        why.contains("must spend more than its Combat Speed"),
        "{why}"
    );
    assert!(GearKrieg::parse(&st, "us", "ACTIVATE General-1\nMOVE 3\n").is_ok());
    assert!(GearKrieg::parse(&st, "us", "ACTIVATE General-1\nMOVE 4\n").is_ok());
}

#[test]
fn dt7_roads_in_order_syntax() {
    let mut st = activating("us");
    place(&mut st, "General-1", 2.0, 18.0, 90.0);
    st.unit_mut("General-1").unwrap().mode = despatch::rulesets::gear_krieg::data::MoveMode::Ground;
    assert!(
        GearKrieg::parse(&st, "us", "ACTIVATE General-1\nMOVE 4\n").is_ok(),
        "3 MP + 1 road"
    );
    let why = rejects(&st, "us", "ACTIVATE General-1\nMOVE 5\n");
    assert!(why.contains("not enough MP"), "{why}");
    st.unit_mut("General-1").unwrap().top = true;
    assert!(
        GearKrieg::parse(&st, "us", "ACTIVATE General-1\nMOVE 7\n").is_ok(),
        "5 MP + 2 road"
    );
}

#[test]
fn dt15_defensive_maneuvers_not_at_top() {
    let mut st = new_game();
    st.unit_mut("General-1").unwrap().top = true;
    let why = rejects(&st, "us", "DEFEND General-1\n");
    assert!(why.contains("Top Speed"), "{why}");
    assert!(GearKrieg::parse(&st, "us", "DEFEND General-2\nEXTRA US-Squad\n").is_ok());
}

#[test]
fn bad_lines_are_all_reported_with_hints() {
    let st = activating("us");
    let e = GearKrieg::parse(
        &st,
        "us",
        "ACTIVATE Generl-1\nFLY 3\nFIRE Cannon AT Valkurie-9\n",
    )
    .unwrap_err();
    assert_eq!(e.len(), 3, "{e:?}");
    assert_eq!(e[0].hint.as_deref(), Some("did you mean General-1?"));
}

#[test]
fn dt13_pinned_and_rally_penalty() {
    let mut st = new_game();
    let (_, _, text) =
        combat::apply_hit(&mut st, "US-Squad", 1, 2, 0, false, stats::AttackArc::Front);
    assert!(text.contains("Pinned 2"), "{text}");
    let u = st.unit("US-Squad").unwrap();
    assert_eq!(u.troopers.iter().map(|t| t.hits).sum::<u32>(), 2);
    // Burst against infantry adds ROF to MoS: DM 3 x (1 + 2) = 9 circles.
    let (dmg, _, _) =
        combat::apply_hit(&mut st, "Squad-1", 1, 3, 2, false, stats::AttackArc::Front);
    assert_eq!(dmg, 9);
    // Pinned units cannot move.
    let mut st = activating("us");
    st.unit_mut("US-Squad").unwrap().pinned = 2;
    let why = rejects(&st, "us", "ACTIVATE US-Squad\nMOVE 1\n");
    assert!(why.contains("Pinned"), "{why}");
    let r = roll::read(&[3, 4], -2);
    assert!(!roll::passes(&r, 4), "[3,4] -2 = 2 fails against 4");
}

/// Plays round 1 of the demo with scripted mails; returns the number of mails each seat sent.
fn play_round(standing: bool) -> (usize, usize, Vec<String>) {
    let mut st = new_game();
    let mut sent: BTreeMap<String, usize> = BTreeMap::new();
    let mut transcript = Vec::new();
    let mut k = 0;
    let start_round = st.round;
    while st.round == start_round && GearKrieg::outcome(&st).is_none() {
        k += 1;
        let spec = GearKrieg::step(&st);
        let mut subs = BTreeMap::new();
        for p in &spec.prompts {
            let text = match (&st.phase, p.kind.as_str()) {
                (Phase::Declare, _) if standing && p.seat == "us" => {
                    "SPEED General-1 COMBAT\nSPEED General-2 COMBAT\nDECLARATIONS SKIP\nINTERRUPTS NEVER\nOVERWATCH General-1 WITH Cannon AT VEHICLES ACTIONS 1\nOVERWATCH General-2 WITH Cannon AT VEHICLES ACTIONS 1\n".to_string()
                }
                (Phase::Declare, _) if standing => {
                    "DECLARATIONS SKIP\nINTERRUPTS NEVER\nOVERWATCH Valkurie-1 WITH KwK AT ANY ACTIONS 1\nOVERWATCH Valkurie-2 WITH KwK AT ANY ACTIONS 1\n".to_string()
                }
                (_, "standing") => continue,
                _ if !p.required => continue,
                _ => GearKrieg::sample_orders(&st, &p.seat, k),
            };
            let o =
                GearKrieg::parse(&st, &p.seat, &text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            *sent.entry(p.seat.clone()).or_default() += 1;
            transcript.push(format!(
                "mail {k} from {} ({}):\n{}",
                p.seat,
                p.kind,
                GearKrieg::canonical(&o)
            ));
            subs.insert(p.seat.clone(), Submitted::Orders(o));
        }
        for p in &spec.prompts {
            subs.entry(p.seat.clone())
                .or_insert(Submitted::Nmr(Silence::StandingOrders));
        }
        st = GearKrieg::resolve(&st, &subs, &mut Dice::new(seed(k, 5)));
        for l in &st.log {
            transcript.push(format!("  {}", l.text));
        }
        assert!(k < 40, "round 1 does not end");
    }
    (sent["us"], sent["germany"], transcript)
}

#[test]
fn mails_per_round_with_and_without_standing_orders() {
    let (us, de, t) = play_round(false);
    println!(
        "WITHOUT standing orders: us {us} mails, germany {de} mails\n{}",
        t.join("\n")
    );
    let (us2, de2, t2) = play_round(true);
    println!(
        "WITH standing orders: us {us2} mails, germany {de2} mails\n{}",
        t2.join("\n")
    );
    // Without: a declaration each + one per unit (3 + 4) + interrupt answers.
    assert!(us >= 4 && de >= 5, "{us} {de}");
    // With: the declaration mail of round 1 and one per unit, no interrupt questions.
    assert_eq!((us2, de2), (4, 5));
    assert!(us2 + de2 < us + de);
    assert!(t2.iter().all(|l| !l.contains("may interrupt")));
}

#[test]
fn overwatch_is_hidden_from_the_enemy() {
    let mut st = new_game();
    let text = "OVERWATCH Valkurie-1 WITH KwK AT VEHICLES WITHIN 20 ACTIONS 1\nPASS\n";
    let o = GearKrieg::parse(&st, "germany", text).unwrap();
    despatch::rulesets::gear_krieg::round::apply_standing(&mut st, "germany", &o);
    let leak = serde_json::to_string(&GearKrieg::view(&st, &Viewer::Seat("us".into()))).unwrap();
    assert!(!leak.contains("OVERWATCH"), "overwatch leaked to the enemy");
    let own =
        serde_json::to_string(&GearKrieg::view(&st, &Viewer::Seat("germany".into()))).unwrap();
    assert!(own.contains("OVERWATCH Valkurie-1"));
}

#[test]
fn interrupt_answer_carries_next_activation() {
    // Play until the first interrupt question, answer it with a shot and a queued activation.
    let mut st = new_game();
    for k in 1..200u64 {
        if let Phase::Interrupt { side, mover } = st.phase.clone() {
            let me = st.alive(&side)[0].name.clone();
            let text = format!("NO INTERRUPT\nACTIVATE {me}\nHOLD\n");
            let o = GearKrieg::parse(&st, &side, &text).unwrap();
            let mut subs = BTreeMap::new();
            subs.insert(side.clone(), Submitted::Orders(o));
            st = GearKrieg::resolve(&st, &subs, &mut Dice::new(seed(k, 1)));
            assert!(st.unit(&mover).unwrap().activated || !st.unit(&mover).unwrap().alive());
            if let Phase::Activate { side: s2 } = &st.phase
                && *s2 == side
            {
                let spec = GearKrieg::step(&st);
                assert!(
                    spec.prompts.iter().all(|p| !p.required),
                    "queued activation needs no mail"
                );
                let st2 = GearKrieg::resolve(&st, &BTreeMap::new(), &mut Dice::new(seed(k + 1, 1)));
                assert!(st2.unit(&me).unwrap().activated);
            }
            return;
        }
        let spec = GearKrieg::step(&st);
        let mut subs = BTreeMap::new();
        for p in spec.prompts.iter().filter(|p| p.required) {
            let text = GearKrieg::sample_orders(&st, &p.seat, k);
            subs.insert(
                p.seat.clone(),
                Submitted::Orders(GearKrieg::parse(&st, &p.seat, &text).unwrap()),
            );
        }
        st = GearKrieg::resolve(&st, &subs, &mut Dice::new(seed(k, 1)));
    }
    panic!("no interrupt question came up");
}

/// Play-test: DEFEND was checked against Top Speed only as the state stood, so in one mail
/// `DEFEND General-1` then `SPEED General-1 TOP` left the unit defending at Top Speed, and the
/// other order of lines dropped the DEFEND silently. Now either order is refused at its line.
#[test]
fn defensive_maneuvers_at_top_speed_are_refused_whatever_the_line_order() {
    let st = new_game();
    assert_eq!((st.round, &st.phase), (1, &Phase::Declare));
    let text = "SPEED General-1 TOP\nDEFEND General-1\n";
    rejected_at(&st, "us", text, 2, "Top Speed on line 1");
    let text = "# speeds last\nDEFEND General-1\nSPEED General-1 TOP\n";
    rejected_at(&st, "us", text, 3, "Defensive Maneuvers on line 2");
    for text in [
        "DEFEND General-1\nSPEED General-1 COMBAT\nSPEED General-2 TOP\n",
        "SPEED General-2 TOP\nSPEED General-1 STATIONARY\nDEFEND General-1\n",
    ] {
        let o = GearKrieg::parse(&st, "us", text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        let mut subs = BTreeMap::new();
        subs.insert("us".to_string(), Submitted::Orders(o));
        subs.insert(
            "germany".to_string(),
            Submitted::Nmr(Silence::StandingOrders),
        );
        let next = GearKrieg::resolve(&st, &subs, &mut Dice::new(seed(1, 15)));
        let g1 = next.unit("General-1").unwrap();
        assert!(g1.defensive && !g1.top, "{text}");
        assert!(next.unit("General-2").unwrap().top, "{text}");
    }
}

/// Play-test: `CP DEFEND` and `CP EXTRA` for one unit in a round spent one point and silently
/// dropped the other. A unit has one Command Point a round: a second use is refused at its
/// line, in the same mail or in a later one.
#[test]
fn a_second_command_point_for_one_unit_in_a_round_is_refused() {
    let mut st = activating("us");
    st.side_mut("us").unwrap().cp = 3;
    place(&mut st, "General-1", 10.0, 30.0, 90.0);
    let text = "CP DEFEND General-1\nACTIVATE General-1\nCP EXTRA\nMOVE 1\n";
    rejected_at(&st, "us", text, 3, "line 1 (CP DEFEND)");
    let text = "ACTIVATE General-1\nCP EXTRA\nMOVE 1\nCP ABOUTFACE General-1 RIGHT 90\n";
    rejected_at(&st, "us", text, 4, "line 2 (CP EXTRA)");
    // One point each for two units is fine; later mails see them spent or set aside.
    let text = "CP DEFEND General-2\nACTIVATE General-1\nCP EXTRA\nMOVE 1\n";
    let o = GearKrieg::parse(&st, "us", text).unwrap_or_else(|e| panic!("{e:?}"));
    let mut subs = BTreeMap::new();
    subs.insert("us".to_string(), Submitted::Orders(o));
    let next = GearKrieg::resolve(&st, &subs, &mut Dice::new(seed(2, 15)));
    assert_eq!(next.round, 1, "still the same round");
    assert!(next.unit("General-1").unwrap().cp_used);
    for again in ["CP DEFEND General-2\n", "CP ABOUTFACE General-1 RIGHT 90\n"] {
        rejected_at(&next, "us", again, 1, "Command Point");
    }
}

/// The kit reads unit names as Naval reads ship names: any case, any unambiguous start.
#[test]
fn unit_names_may_be_shortened_to_an_unambiguous_start() {
    let st = activating("us");
    let o = GearKrieg::parse(&st, "us", "activate us\nhold\n").unwrap();
    assert_eq!(GearKrieg::canonical(&o), "ACTIVATE US-Squad\nHOLD\n");
    let e = GearKrieg::parse(&st, "us", "ACTIVATE General\nHOLD\n").unwrap_err();
    assert_eq!(e[0].reason, "`General` is ambiguous");
    assert_eq!(e[0].hint.as_deref(), Some("one of: General-1, General-2"));
    rejected_at(&st, "us", "ACTIVATE Valkurie-1\nHOLD\n", 1, "is not yours");
}
