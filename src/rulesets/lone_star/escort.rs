//! Prisoners on the table (seed L7, rulings R33 and R40): the guards leave their unit with the
//! prisoners as an escort, set 4" to the captor's rear at once; in the turn's "prisoners moved"
//! step every escort marches on to the rear at its foot rate and leaves the table. An escort
//! is out of the battle: it is no target and fights no one, and its prisoners never escape.

use crate::board::tabletop::{Pt, normalize};
use crate::rulesets::kit::grammar::tenths;

use super::state::{Fig, Form, Standing, State, Unit};

fn at(p: Pt) -> String {
    format!("{},{}", tenths(p.x), tenths(p.y))
}

/// The escort's name for the captor `by`.
pub fn escort_name(by: &str) -> String {
    format!("Escort of {by}")
}

/// R40: `guards` figures of `by` take `prisoners` 4" to its rear at once (L7).
pub fn set_out(state: &mut State, by: &str, guards: u32, prisoners: u32) {
    let c = state.unit(by).expect("captor").clone();
    let rear = normalize(c.facing + 180.0);
    let first = state.data.rules.prisoner_first_move.get();
    let name = escort_name(by);
    let spot = c.pos.offset(rear, first);
    let spot = Pt::new(
        spot.x.clamp(0.0, state.width),
        spot.y.clamp(0.0, state.height),
    );
    if let Some(e) = state.units.iter_mut().find(|u| u.name == name && u.alive()) {
        e.figures
            .extend(std::iter::repeat_n(Fig::Trooper, guards as usize));
        e.start_figures += guards;
        e.escorting += prisoners;
        return;
    }
    state.units.retain(|u| u.name != name);
    let escort = Unit {
        name: name.clone(),
        arm: super::data::Arm::Infantry,
        figures: vec![Fig::Trooper; guards as usize],
        start_figures: guards,
        hits: 0,
        pos: spot,
        facing: rear,
        form: Form::Column,
        hidden: false,
        mounted: false,
        // An escort marches at its captor's foot rate.
        move_rate: c.move_rate,
        mounted_move: None,
        gun: None,
        routing: false,
        gone: None,
        river: 0,
        melee: vec![],
        melee_new: false,
        charged: false,
        in_combat: false,
        lost_this_turn: 0,
        ambushed_by: vec![],
        ambush_turn: 0,
        prisoners: 0,
        guards: 0,
        standing: Standing::default(),
        extra_plan: None,
        stopping: false,
        last_third: false,
        aboard: None,
        ramp: false,
        halted: false,
        moved_turn: 0,
        machine: None,
        escorting: prisoners,
        smoke: 0,
        gas: 0,
        flame_shots: 0,
        mortar_rounds: 0,
        disengage: false,
        ..c
    };
    state.units.push(escort);
}

/// R40, the turn's "prisoners moved" step: each escort marches its foot rate to the rear,
/// over any ground; one that reaches the table edge leaves with its prisoners.
pub fn march(state: &mut State) {
    let names: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.alive() && u.escorting > 0)
        .map(|u| u.name.clone())
        .collect();
    for n in names {
        let e = state.unit(&n).expect("escort").clone();
        let to = e.pos.offset(e.facing, e.move_rate);
        if to.x <= 0.0 || to.y <= 0.0 || to.x >= state.width || to.y >= state.height {
            state.unit_mut(&n).gone = Some(format!(
                "marched off the table with {} prisoner(s)",
                e.escorting
            ));
            state.say(format!(
                "{n} marches {} prisoner(s) off the table.",
                e.escorting
            ));
        } else {
            state.unit_mut(&n).pos = to;
            state.say(format!(
                "{n} marches {} prisoner(s) {}\" to the rear, to {}.",
                e.escorting,
                tenths(e.move_rate),
                at(to)
            ));
        }
    }
}
