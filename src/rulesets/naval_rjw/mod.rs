//! Naval Wargame Rules for the Russo-Japanese War (Mike Adams, 2003): grammar, state, resolution, views.
//! This file wires the modules into `engine::Ruleset`; the rules themselves live in the modules.

pub mod campaign;
pub mod checks;
pub mod command;
pub mod damage;
pub mod data;
pub mod gunnery;
pub mod movement;
pub mod numbers;
pub mod orders;
pub mod sample;
pub mod setup;
pub mod state;
pub mod stats;
pub mod view;

use std::collections::BTreeMap;

use crate::dice::Dice;
use crate::engine::{
    LogLine, Outcome, Prompt, Rejected, Ruleset, SeatId, Silence, StandingRead, StepSpec,
    Submitted, View, Viewer,
};
use crate::rulesets::kit::grammar::num;

use state::{FireOrder, NavalState, Order, Orders, Phase};

/// The naval ruleset as the engine sees it.
pub struct NavalRjw;

fn fleet_name(state: &NavalState, side: &str) -> String {
    stats::fleet(state, side).map_or_else(|| side.to_string(), |f| f.name.clone())
}

fn has_standing(state: &NavalState, side: &str) -> bool {
    stats::fleet(state, side).is_some_and(|f| f.standing_fire.is_some())
}

/// The fire plan a side follows this phase (R23, R24): explicit FIRE lines, else the plan given
/// with the manoeuvre orders, else standing orders (on silence or when set in this email).
fn fire_plan(
    state: &NavalState,
    side: &str,
    sub: Option<&Submitted<Orders>>,
    pending: Option<&Vec<FireOrder>>,
) -> (Vec<FireOrder>, &'static str) {
    let standing = |state: &NavalState| {
        stats::fleet(state, side)
            .and_then(|f| f.standing_fire)
            .map(|m| gunnery::standing_plan(state, side, m))
    };
    match sub {
        Some(Submitted::Orders(o)) => {
            let fires: Vec<FireOrder> = o
                .iter()
                .filter_map(|x| match x {
                    Order::Fire(f) => Some(f.clone()),
                    _ => None,
                })
                .collect();
            if !fires.is_empty() {
                return (fires, "fire plan");
            }
            if let Some(p) = pending {
                return (p.clone(), "fire plan given with the manoeuvre orders");
            }
            if o.iter().any(|x| matches!(x, Order::Standing(Some(_)))) {
                return (standing(state).unwrap_or_default(), "standing fire orders");
            }
            (vec![], "holds fire")
        }
        Some(Submitted::Nmr(Silence::StandingOrders)) | None => {
            if let Some(p) = pending {
                return (p.clone(), "fire plan given with the manoeuvre orders");
            }
            match standing(state) {
                Some(p) => (p, "standing fire orders"),
                None => (vec![], "no orders: holds fire"),
            }
        }
        Some(Submitted::Nmr(_)) => match pending {
            Some(p) => (p.clone(), "fire plan given with the manoeuvre orders"),
            None => (vec![], "no orders: holds fire"),
        },
    }
}

fn resolve_manoeuvre_step(
    state: &mut NavalState,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
    dice: &mut Dice,
) {
    let side = state.active.clone();
    let name = fleet_name(state, &side);
    // A silent non-active seat may still have sent standing orders.
    for (seat, sub) in subs {
        if *seat != side
            && let Submitted::Orders(o) = sub
        {
            for x in o {
                if let Order::Standing(s) = x
                    && let Some(f) = stats::fleet_mut(state, seat)
                {
                    f.standing_fire = *s;
                }
            }
        }
    }
    let orders: Orders = match subs.get(&side) {
        Some(Submitted::Orders(o)) => o.clone(),
        _ => {
            state.log.push(LogLine::public(format!(
                "{name} sent no orders: compulsory moves only."
            )));
            vec![]
        }
    };
    state.log.push(LogLine::public(format!(
        "Turn {}: {name} manoeuvres with {} CP.",
        state.turn, state.cp_left
    )));
    movement::resolve_manoeuvre(state, &side, &orders, dice);
    let fires: Vec<FireOrder> = orders
        .iter()
        .filter_map(|o| match o {
            Order::Fire(f) => Some(f.clone()),
            _ => None,
        })
        .collect();
    if !fires.is_empty() {
        state.log.push(LogLine::private(
            &side,
            format!(
                "Your fire plan ({} order(s)) is sealed until the fire step.",
                fires.len()
            ),
        ));
    }
    state.pending_fire = if fires.is_empty() { None } else { Some(fires) };
    state.phase = Phase::Fire;
}

fn resolve_fire_step(
    state: &mut NavalState,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
    dice: &mut Dice,
) {
    let a = state.active.clone();
    let Some(n) = stats::enemy_of(state, &a).map(str::to_string) else {
        return;
    };
    // Smoke and standing orders first: every declaration precedes any firing (R19, R23).
    for seat in [&n, &a] {
        if let Some(Submitted::Orders(o)) = subs.get(seat) {
            for x in o {
                match x {
                    Order::Smoke(s) => {
                        if let Some(ship) = stats::find_ship_mut(state, s) {
                            ship.smoke = true;
                        }
                        state.log.push(LogLine::public(format!("{s} lays smoke.")));
                    }
                    Order::Standing(sf) => {
                        if let Some(f) = stats::fleet_mut(state, seat) {
                            f.standing_fire = *sf;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    let pending = state.pending_fire.take();
    let (plan_n, how_n) = fire_plan(state, &n, subs.get(&n), None);
    let (plan_a, how_a) = fire_plan(state, &a, subs.get(&a), pending.as_ref());
    let (nn, an) = (fleet_name(state, &n), fleet_name(state, &a));
    state
        .log
        .push(LogLine::public(format!("{nn} fires first ({how_n}).")));
    gunnery::resolve_fire_phase(state, &n, &plan_n, dice);
    state
        .log
        .push(LogLine::public(format!("{an} fires ({how_a}).")));
    gunnery::resolve_fire_phase(state, &a, &plan_a, dice);
    // Step 7: the active player's own hit markers come off, free (R12).
    let mut cleared = 0;
    for s in state.ships.iter_mut().filter(|s| s.side == a) {
        cleared += s.hit_markers;
        s.hit_markers = 0;
        s.critical_marker = false;
    }
    if cleared > 0 {
        state.log.push(LogLine::public(format!(
            "{an} removes {cleared} hit marker(s) from her own ships."
        )));
    }
    movement::rescue_countdown(state, &a);
    if let Some(o) = checks::victory(state) {
        end_game(state, o);
    } else if state.turn >= state.max_turns {
        let o = checks::turn_limit_outcome(state);
        end_game(state, o);
    } else {
        state.active = n;
        state.turn += 1;
        state.phase = Phase::Manoeuvre;
        command::roll_cp(state, dice);
    }
}

fn end_game(state: &mut NavalState, o: Outcome) {
    state
        .log
        .push(LogLine::public(format!("The battle ends. {}", o.summary)));
    state.outcome = Some(o);
    state.phase = Phase::GameOver;
    state.pending_fire = None;
}

/// Until this ruleset's sequence of play moves onto the table (issue 33 point 1), its own
/// `step` and `resolve` drive it and the table is empty.
static UNTABLED: crate::engine::procedure::Procedure<NavalRjw> =
    crate::engine::procedure::Procedure {
        steps: &[],
        end_of_turn: None,
        phase: |s| s.phase.clone(),
        name: |_| "",
        enter: |s, p| s.phase = p,
        begin: |_| {},
        game_over: |_, _| {},
    };

impl Ruleset for NavalRjw {
    const NAME: &'static str = "naval-rjw";
    type State = NavalState;
    type Orders = Orders;
    type Phase = Phase;

    fn procedure() -> &'static crate::engine::procedure::Procedure<Self> {
        &UNTABLED
    }

    fn setup(
        ruleset_toml: &str,
        scenario_toml: &str,
        seats: &[SeatId],
    ) -> Result<NavalState, String> {
        setup::new_state(ruleset_toml, scenario_toml, seats)
    }

    fn carry(
        finished: &NavalState,
        next_scenario_toml: &str,
        terms: &toml::Table,
    ) -> Result<String, String> {
        campaign::carry(finished, next_scenario_toml, terms)
    }

    fn seats(state: &NavalState) -> Vec<(SeatId, String)> {
        state
            .seat_order
            .iter()
            .map(|s| (s.clone(), s.clone()))
            .collect()
    }

    fn step(state: &NavalState) -> StepSpec {
        match state.phase {
            Phase::Setup => StepSpec {
                title: format!("{}: set-up", state.scenario_name),
                prompts: state
                    .seat_order
                    .iter()
                    .map(|s| Prompt {
                        seat: s.clone(),
                        kind: "setup".into(),
                        question: format!(
                            "Set-up: {} nominates a flagship and a second-in-command (silence keeps {} and {}), \
                             and may place up to {} genuine minefield(s) with up to {} dummies each.",
                            fleet_name(state, s),
                            stats::fleet(state, s).and_then(|f| f.flagship.clone()).unwrap_or_default(),
                            stats::fleet(state, s).and_then(|f| f.second.clone()).unwrap_or_default(),
                            num(state.data.rules.pregame_genuine_max.get()),
                            num(state.data.rules.dummies_per_genuine.get()),
                        ),
                        required: true,
                    })
                    .collect(),
                sealed: true,
            },
            Phase::Manoeuvre => {
                let a = &state.active;
                let mut q = format!(
                    "Turn {}: {} has {} CP. Orders for repair, manoeuvre and halts; you may add your fire plan.",
                    state.turn,
                    fleet_name(state, a),
                    state.cp_left
                );
                if let Some(f) = stats::fleet(state, a)
                    && !f.rescue_owed.is_empty()
                {
                    q.push_str(&format!(
                        " Survivors of {} wait for rescue (RESCUE wreck WITH ship).",
                        f.rescue_owed.join(", ")
                    ));
                }
                StepSpec {
                    title: format!("Turn {} — {} manoeuvres", state.turn, fleet_name(state, a)),
                    prompts: vec![Prompt {
                        seat: a.clone(),
                        kind: "manoeuvre".into(),
                        question: q,
                        required: true,
                    }],
                    sealed: true,
                }
            }
            Phase::Fire => {
                let a = state.active.clone();
                let n = stats::enemy_of(state, &a).unwrap_or_default().to_string();
                let mut prompts = vec![Prompt {
                    seat: n.clone(),
                    kind: "fire".into(),
                    question: format!(
                        "Turn {}: {} fires first. Declare your fire plan (targets, supports, smoke){}.",
                        state.turn,
                        fleet_name(state, &n),
                        if has_standing(state, &n) { "; silence applies your standing fire orders" } else { "" }
                    ),
                    required: !has_standing(state, &n),
                }];
                if state.pending_fire.is_none() {
                    prompts.push(Prompt {
                        seat: a.clone(),
                        kind: "fire".into(),
                        question: format!(
                            "Turn {}: {} fires second. Declare your fire plan (targets, supports, smoke){}.",
                            state.turn,
                            fleet_name(state, &a),
                            if has_standing(state, &a) { "; silence applies your standing fire orders" } else { "" }
                        ),
                        required: !has_standing(state, &a),
                    });
                }
                StepSpec {
                    title: format!("Turn {} — gunnery", state.turn),
                    prompts,
                    sealed: true,
                }
            }
            Phase::GameOver => StepSpec {
                title: "The battle is over".into(),
                prompts: vec![],
                sealed: false,
            },
        }
    }

    fn parse(state: &NavalState, seat: &str, text: &str) -> Result<Orders, Vec<Rejected>> {
        orders::parse(state, seat, text)
    }

    fn canonical(orders: &Orders) -> String {
        orders::print(orders)
    }

    fn standing_keywords() -> &'static [&'static str] {
        &["STANDING"]
    }

    fn standing(
        state: &NavalState,
        seat: &str,
        text: &str,
    ) -> Result<StandingRead<NavalState>, Vec<Rejected>> {
        orders::standing(state, seat, text)
    }

    fn resolve(
        state: &NavalState,
        submissions: &BTreeMap<SeatId, Submitted<Orders>>,
        dice: &mut Dice,
    ) -> NavalState {
        let mut s = state.clone();
        s.log.clear();
        match s.phase {
            Phase::Setup => setup::resolve_setup(&mut s, submissions, dice),
            Phase::Manoeuvre => resolve_manoeuvre_step(&mut s, submissions, dice),
            Phase::Fire => resolve_fire_step(&mut s, submissions, dice),
            Phase::GameOver => {}
        }
        s
    }

    fn view(state: &NavalState, viewer: &Viewer) -> View {
        view::view(state, viewer)
    }

    fn outcome(state: &NavalState) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn victory_figures(state: &NavalState) -> Vec<String> {
        checks::victory_figures(state)
    }

    fn order_keywords() -> Vec<&'static str> {
        orders::keywords()
    }

    fn unit_numbers(state: &NavalState, seat: &str) -> Vec<(String, Vec<String>)> {
        numbers::unit_numbers(state, seat)
    }

    fn looks_like_an_order(state: &Self::State, line: &str) -> bool {
        crate::rulesets::kit::grammar::looks_like_an_order(
            line,
            &orders::keywords(),
            state.ships.iter().map(|x| x.name.as_str()),
        )
    }

    fn sample_orders(state: &NavalState, seat: &str, choice: u64) -> String {
        sample::sample_orders(state, seat, choice)
    }
}
