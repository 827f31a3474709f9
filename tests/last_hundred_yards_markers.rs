//! Last Hundred Yards: the Feint declared at Marker Adjustment (R33), the active player's
//! order of Assault Resolution (R34), Smoke markers as hindrances removed in Phase V (R35),
//! and each seat's map shaded by its own units' LOS — in the players' order syntax where
//! orders are involved, each with a control that shows the check can fail.

use crate::lhy;

use despatch::dice::Dice;
use despatch::engine::scene::ZoneKind;
use despatch::engine::{Ruleset, Viewer};
use despatch::rulesets::kit::roster::Roster;
use despatch::rulesets::last_hundred_yards::LastHundredYards as Lhy;
use despatch::rulesets::last_hundred_yards::state::{Action, LhyState, Order, Phase, Place};
use despatch::rulesets::last_hundred_yards::{action, assault, orders, sight};
use lhy::hex;

/// The patrol after set-up, the US active, with A1-1 and A1-L next to the German G1-1 and
/// G1-L (0704), and G1-2 two hexes off at 0603 for a second assault.
fn before_the_assault() -> LhyState {
    let st = lhy::game(lhy::PATROL);
    let mut st = lhy::step(&st, &[("us", "PASS"), ("germany", "PASS")], 1);
    let at = hex(&st, "0705");
    for n in ["A1-1", "A1-L"] {
        st.unit_mut(n).unwrap().at = at;
    }
    st.turn.active = "us".into();
    st.turn.holder = "us".into();
    st.phase = Phase::Activate { side: "us".into() };
    st
}

/// Plays the assault cycle; `us_reply` is the US answer to the call for Reaction that the
/// German fire opens. Returns the state after Marker Adjustment, and the German view and the
/// US view while the US was asked.
fn assault_cycle(us_reply: &str) -> (LhyState, String, String) {
    let st = before_the_assault();
    let st = lhy::step(&st, &[("us", "ACTIVATE 1PLT\nASSAULT A1-1 AT 0704")], 2);
    assert_eq!(
        st.phase,
        Phase::React {
            side: "germany".into()
        },
        "{}",
        lhy::log(&st, "us")
    );
    assert!(lhy::log(&st, "germany").contains("Assault Arrow from 0705 into 0704"));
    let st = lhy::step(&st, &[("germany", "FIRE G1-1 AT 0705")], 3);
    assert_eq!(
        st.phase,
        Phase::React { side: "us".into() },
        "{}",
        lhy::log(&st, "us")
    );
    let st = lhy::step(&st, &[("us", us_reply)], 4);
    let (german, us) = (lhy::seen(&st, "germany"), lhy::seen(&st, "us"));
    (st, german, us)
}

/// R33: a Feint is declared at Marker Adjustment step b (§6.0 II.3b), after the reactions to
/// the Assault Arrow: by mail, a `FEINT hex` line in any mail before then (here the US answer
/// to the German reaction). The enemy learns of it only at Marker Adjustment; the units stay
/// (their action spent, R33). Without the line, the same cycle sends them in.
#[test]
fn r33_a_feint_is_declared_after_the_reactions_and_kept_from_the_enemy() {
    let (st, german, us) = assault_cycle("FEINT 0704");
    assert_eq!(
        st.unit("A1-1").unwrap().at,
        hex(&st, "0705"),
        "a feint stays put"
    );
    assert!(
        st.assaults.is_empty() && st.arrows.is_empty(),
        "{:?}",
        st.assaults
    );
    assert!(
        us.contains("Feint on 0704 declared"),
        "the owner is told: {us}"
    );
    assert!(
        german.contains("was a feint"),
        "told at Marker Adjustment: {german}"
    );
    assert!(!german.contains("Feint on 0704 declared"), "{german}");
    // Control: the same cycle without the declaration goes in.
    let (_, german, _) = assault_cycle("PASS");
    assert!(
        german.contains("0704: the assaulting units go in"),
        "{german}"
    );
    assert!(!german.contains("feint"), "{german}");
}

/// R33: until Marker Adjustment nothing the enemy may read tells a feint from an assault: a
/// feint given with the arrow (`ASSAULT … FEINT`) leaves the German view of the open call for
/// Reaction byte for byte what a real assault leaves, while the US view differs (control).
#[test]
fn r33_a_feint_given_with_the_arrow_is_hidden_until_marker_adjustment() {
    let st = before_the_assault();
    let feint = lhy::step(
        &st,
        &[("us", "ACTIVATE 1PLT\nASSAULT A1-1 AT 0704 FEINT")],
        2,
    );
    let real = lhy::step(&st, &[("us", "ACTIVATE 1PLT\nASSAULT A1-1 AT 0704")], 2);
    assert_eq!(feint.phase, real.phase);
    let same = |seat| lhy::seen(&feint, seat) == lhy::seen(&real, seat);
    assert!(same("germany"), "the German view tells the feint");
    assert!(!same("us"), "the US view tells its own feint (control)");
    // Taken back in a later mail, it goes in after all.
    let st = lhy::step(&feint, &[("germany", "FIRE G1-1 AT 0705")], 3);
    let st = lhy::step(&st, &[("us", "FEINT 0704 OFF")], 4);
    assert_eq!(
        st.unit("A1-1").unwrap().at,
        hex(&st, "0704"),
        "{}",
        lhy::log(&st, "us")
    );
}

/// R33: a FEINT names the hex of one's own arrow; any other hex is refused with what to write.
#[test]
fn r33_a_feint_needs_an_arrow_into_the_hex() {
    let st = before_the_assault();
    let why = match lhy::parse(&st, "us", "ACTIVATE 1PLT\nMOVE A1-2 TO 0809\nFEINT 0704") {
        Ok(o) => panic!("accepted {o:?}"),
        Err(e) => e[0].reason.clone(),
    };
    assert!(
        why.contains("no Assault Arrow into 0704") && why.contains("FEINT"),
        "{why}"
    );
    lhy::parse(&st, "us", "ACTIVATE 1PLT\nASSAULT A1-1 AT 0704\nFEINT 0704").expect("same mail");
}

/// R34: §5.0 IV lets the active player order the assaults: `ASSAULT ORDER hex hex …` in any
/// of his mails of the turn; unnamed hexes follow in the order their assaults began (the
/// default). The order is his alone: the other seat is refused.
#[test]
fn r34_the_active_player_orders_the_assaults() {
    let st = before_the_assault();
    let (a, b) = (hex(&st, "0704"), hex(&st, "0603"));
    let o = lhy::parse(&st, "us", "assault order 0603 0704").expect("an order");
    assert_eq!(o, vec![Order::AssaultOrder { hexes: vec![b, a] }]);
    assert_eq!(Lhy::canonical(&o), "ASSAULT ORDER 0603 0704\n");
    let why = match lhy::parse(&st, "germany", "ASSAULT ORDER 0603") {
        Ok(o) => panic!("accepted {o:?}"),
        Err(e) => e[0].reason.clone(),
    };
    assert!(why.contains("only the active player"), "{why}");
    // Given with the activation, kept for Phase IV and told to him alone.
    let next = lhy::step(
        &st,
        &[(
            "us",
            "ASSAULT ORDER 0603 0704\nACTIVATE 1PLT\nASSAULT A1-1 AT 0704",
        )],
        2,
    );
    assert_eq!(next.turn.assault_order, vec![b, a]);
    assert!(!lhy::log(&next, "germany").contains("Assault Resolution order"));
    // Two assaults under way, resolved in Phase IV in his order, else in the order begun.
    let order_of = |order: Vec<_>| {
        let mut st = before_the_assault();
        st.unit_mut("A1-1").unwrap().at = a;
        st.unit_mut("A1-2").unwrap().at = b;
        st.assaults = vec![(a, "us".into()), (b, "us".into())];
        st.turn.assault_order = order;
        st.log.clear();
        assault::phase(&mut st, &mut Dice::new(lhy::seed(34, 34)));
        lhy::log(&st, "us")
            .lines()
            .filter_map(|l| l.strip_prefix("Assault at ").map(|x| x[..4].to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(order_of(vec![]), ["0704", "0603"]);
    assert_eq!(order_of(vec![b]), ["0603", "0704"]);
    assert_eq!(
        assault::ordered(&[(a, "us".into()), (b, "us".into())], &[b, b, a]),
        vec![(b, "us".to_string()), (a, "us".to_string())]
    );
}

/// R35: `MORTAR … SMOKE` places a Smoke marker on the impact hex and no attack; it hinders
/// (§4.2.4) every line through it, one more hindrance than before, and the Mortar Fire
/// Adjustment Phase removes it (§5.0 V.1).
#[test]
fn r35_smoke_hinders_until_the_mortar_fire_adjustment_phase() {
    let mut st = lhy::game(lhy::BRIDGEHEAD);
    st = lhy::step(&st, &[("us", "PASS"), ("germany", "PASS")], 1);
    // A hex the mortar may smoke (range and an observer), found on the map itself.
    let smoke_at = |h| Action::Mortar {
        unit: "Mtr-60".into(),
        hex: h,
        smoke: true,
    };
    let h = st
        .map
        .hexes()
        .into_iter()
        .find(|h| action::check(&st, "us", &smoke_at(*h), false).is_ok())
        .expect("somewhere to smoke");
    let text = format!("MORTAR Mtr-60 AT {} SMOKE", st.name_of(h));
    let read = orders::read(&st, "us", &text).unwrap();
    let Order::Act(a) = &read[0].2 else {
        panic!("an action")
    };
    assert_eq!(*a, smoke_at(h));
    assert_eq!(Lhy::canonical(&vec![Order::Act(a.clone())]), text + "\n");
    // Lines across the hex between two of its neighbours.
    let g = st.map.grid();
    let pairs: Vec<_> = g
        .neighbours(h)
        .into_iter()
        .flat_map(|x| g.neighbours(h).into_iter().map(move |y| (x, y)))
        .filter(|(x, y)| x.distance(*y) == 2 && st.map.on_map(*x) && st.map.on_map(*y))
        .collect();
    let before: Vec<u32> = pairs
        .iter()
        .map(|(x, y)| sight::hindrances(&st, *x, *y))
        .collect();
    let markers = st.markers.len();
    action::perform(&mut st, "us", a, &mut Dice::new(lhy::seed(35, 35)));
    assert_eq!(st.smoke.iter().map(|x| x.0).collect::<Vec<_>>(), vec![h]);
    assert_eq!(st.markers.len(), markers, "smoke is no attack");
    let after: Vec<u32> = pairs
        .iter()
        .map(|(x, y)| sight::hindrances(&st, *x, *y))
        .collect();
    assert!(
        before.iter().zip(&after).any(|(b, a)| *a == b + 1),
        "{before:?} -> {after:?}"
    );
    assert!(
        lhy::seen(&st, "germany").contains("Smoke on"),
        "both sides see smoke"
    );
    // Play on silently to the next game turn: Phase V takes it off.
    let (turn, mut k, mut removed) = (st.turn.number, 0, false);
    while st.turn.number == turn && k < 200 {
        k += 1;
        st = lhy::step(&st, &[], 100 + k);
        removed |= lhy::log(&st, "us").contains("Smoke markers are removed");
    }
    assert!(st.turn.number > turn && st.smoke.is_empty() && removed);
}

/// The hexes the seat's map shades: those no unit of its own sees.
fn shaded(st: &LhyState, seat: &str) -> Vec<String> {
    let v = Lhy::view(st, &Viewer::Seat(seat.into()));
    let scene = v.map.expect("a map");
    let mut out: Vec<String> = scene
        .zones
        .iter()
        .filter(|z| matches!(&z.kind, ZoneKind::Styled { style } if style == "unseen"))
        .map(|z| format!("{:?}", z.shape))
        .collect();
    out.sort();
    out
}

/// Issue point 7: each seat's map shades the hexes its units cannot see, by the LOS code that
/// decides fire and reactions. It depends on the seat's own units and the terrain only: the
/// enemy moving, hiding or leaving changes nothing (no leak), while one of its own units
/// moving changes it (the control); spectators get no shading.
#[test]
fn each_seats_map_is_shaded_by_its_own_units_sight_only() {
    let st = lhy::game(lhy::PATROL);
    let base = shaded(&st, "us");
    let all = st.map.hexes().len();
    assert!(
        !base.is_empty() && base.len() < all,
        "{} of {all}",
        base.len()
    );
    let unseen = sight::unseen_by(&st, "us");
    assert_eq!(unseen.len(), base.len());
    for h in &unseen {
        assert!(
            !st.on_map()
                .any(|u| u.side == "us" && sight::sees(&st, u, *h)),
            "{h:?} is seen"
        );
    }
    // The enemy moves, hides, leaves: the US shading does not move.
    let mut other = st.clone();
    let far = hex(&other, "0909");
    for u in other.units.iter_mut().filter(|u| u.side == "germany") {
        u.at = far;
        u.hidden = !u.hidden;
    }
    other.unit_mut("G1-2").unwrap().place = Place::Eliminated;
    assert_eq!(shaded(&other, "us"), base);
    assert_ne!(
        shaded(&other, "germany"),
        shaded(&st, "germany"),
        "theirs does move"
    );
    // Control: one US unit moves and the US shading changes.
    let mut moved = st.clone();
    moved.unit_mut("A1-3").unwrap().at = hex(&moved, "0705");
    assert_ne!(shaded(&moved, "us"), base);
    let spectator = Lhy::view(&st, &Viewer::Spectator).map.expect("a map");
    assert!(
        !spectator
            .zones
            .iter()
            .any(|z| matches!(&z.kind, ZoneKind::Styled { style } if style == "unseen"))
    );
}

/// The Assault Arrow is on both seats' maps, from the unit's hex (0705) into the hex it
/// assaults (0704), with its legend entry, and drawn in the SVG; before the ASSAULT line there
/// is neither arrow nor entry (the control).
#[test]
fn the_assault_arrow_is_drawn_on_both_maps() {
    use despatch::engine::scene::{ArrowKind, Symbol};
    let st = before_the_assault();
    let after = lhy::step(&st, &[("us", "ACTIVATE 1PLT\nASSAULT A1-1 AT 0704")], 2);
    let centre = |st: &LhyState, h: &str| {
        let p = st.map.grid().centre(hex(st, h), 1.0);
        (p.x, p.y)
    };
    for seat in ["us", "germany"] {
        let scene = Lhy::view(&after, &Viewer::Seat(seat.into()))
            .map
            .expect("a map");
        assert_eq!(scene.arrows.len(), 1, "{seat}: {:?}", scene.arrows);
        let a = &scene.arrows[0];
        assert_eq!((a.kind, a.side.as_str()), (ArrowKind::Move, "us"));
        // Across the hexside, from the 0705 side into 0704, along the line of their centres.
        let (f, t) = (centre(&after, "0705"), centre(&after, "0704"));
        let d = |p: (f64, f64), q: (f64, f64)| ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2)).sqrt();
        let (from, to) = ((a.from.x, a.from.y), (a.to.x, a.to.y));
        assert!(d(from, f) < d(from, t) && d(to, t) < d(to, f), "{a:?}");
        assert!(
            (d(f, from) + d(from, to) + d(to, t) - d(f, t)).abs() < 1e-9,
            "{a:?}"
        );
        assert!(
            scene
                .legend
                .iter()
                .any(|l| l.symbol == Symbol::Move && l.text == "Assault Arrow"),
            "{seat}: {:?}",
            scene.legend
        );
        let svg = despatch::render::svg(&scene);
        assert!(svg.contains("marker-end="), "{seat}: no arrow drawn");
        // Control: the map before the ASSAULT line has none.
        let before = Lhy::view(&st, &Viewer::Seat(seat.into())).map.unwrap();
        assert!(before.arrows.is_empty());
        assert!(!before.legend.iter().any(|l| l.symbol == Symbol::Move));
        assert!(!despatch::render::svg(&before).contains("marker-end="));
    }
}
