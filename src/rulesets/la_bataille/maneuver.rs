//! The Maneuver Segment's orders carried out one by one, in the order written: a move or an
//! assault's approach becomes a task on the agenda (it may stop for a question), a charge is
//! declared, fire is planned for the Fire Segment, a leader joins a unit. Whether an order may
//! be carried out is asked of `movement`, `assault` and `charge`; the rolls are theirs.

use crate::board::hex::{Hex, HexDir};
use crate::rulesets::kit::roster::Roster;

use super::combat::join;
use super::state::{AssaultDecl, LbState, MoveRun, Order, Task};
use super::{assault, charge, movement};

/// Carries out one maneuver order; a move or an approach becomes a task of its own.
pub fn order(st: &mut LbState, o: &Order) {
    match o {
        Order::Move { unit, path, facing } => move_order(st, unit, path, *facing),
        Order::Face { unit, facing } => match movement::face(st, unit, *facing) {
            Ok(()) => st.say(format!("{unit} faces {}.", st.grid.compass(*facing))),
            Err(e) => st.say(format!("FACE {unit}: not carried out: {e}.")),
        },
        Order::Form { unit, formation } => match movement::form(st, unit, *formation) {
            Ok(()) => st.say(format!("{unit} forms {}.", formation.word())),
            Err(e) => st.say(format!("FORM {unit}: not carried out: {e}.")),
        },
        Order::Assault {
            unit,
            targets,
            via,
            pas_de_charge,
            guard,
        } => {
            let check = assault::check_assault(st, unit, targets, via, *pas_de_charge, *guard);
            match check {
                Err(e) => st.say(format!("ASSAULT {unit}: not carried out: {e}.")),
                Ok(number) => st.agenda.insert(
                    0,
                    Task::Move(MoveRun {
                        unit: unit.clone(),
                        path: via.clone(),
                        at: 0,
                        facing: None,
                        triggers: false,
                        squares_tried: vec![],
                        then: Some(AssaultDecl {
                            targets: targets.clone(),
                            number,
                            guard: *guard,
                            pas_de_charge: *pas_de_charge,
                        }),
                    }),
                ),
            }
        }
        Order::Charge {
            units,
            target,
            via,
            recall_at,
        } => charge_order(st, units, *target, via, *recall_at),
        Order::Fire { unit, target } => st.fire_plan.push((unit.clone(), *target)),
        Order::Attach { leader, unit } => {
            let side = st.unit(unit).map(|u| u.side.clone());
            if let Some(l) = st.leaders.iter_mut().find(|l| &l.name == leader && !l.gone)
                && side.as_deref() == Some(l.side.as_str())
            {
                l.with = unit.clone();
                st.say(format!("{leader} joins {unit}."));
            }
        }
        Order::Standing(_) | Order::Answer(_) | Order::Pass => {}
    }
}

/// MOVE: checked now (the path and where it ends), then walked as a task of its own.
fn move_order(st: &mut LbState, unit: &str, path: &[Hex], facing: Option<HexDir>) {
    if let Err(e) = movement::check_move(st, unit, path, false).and_then(|_| match path.last() {
        Some(end) => movement::check_end(st, unit, *end, false),
        None => Ok(()),
    }) {
        st.say(format!("MOVE {unit}: not carried out: {e}."));
        return;
    }
    st.agenda.insert(
        0,
        Task::Move(MoveRun {
            unit: unit.to_string(),
            path: path.to_vec(),
            at: 0,
            facing,
            triggers: false,
            squares_tried: vec![],
            then: None,
        }),
    );
}

/// CHARGE: checked now, declared (p.6), and its Charge marker's trigger put first on the
/// agenda; a refusal is told to the charging side alone.
fn charge_order(
    st: &mut LbState,
    units: &[String],
    target: Hex,
    via: &[Hex],
    recall_at: Option<Hex>,
) {
    if let Err(e) =
        charge::check_charge(st, units).and_then(|h| charge::check_path(st, h, via, target))
    {
        // The reason may name the target, which the enemy may not know yet (p.6).
        let side = st.phasing.clone();
        st.say_to(
            &side,
            format!("CHARGE {}: not carried out: {e}.", join(units)),
        );
        return;
    }
    if let Some(id) = charge::declare(st, units, target, via.to_vec(), recall_at) {
        st.agenda.insert(
            0,
            Task::StartTrigger {
                unit: units[0].clone(),
                event: format!("C{id}"),
            },
        );
    }
}
