//! What a movement prompt offers (issue 30 point 5): the order words the card holder's asked
//! units can take now, so a seat whose units cannot move is never told "MOVE, CHARGE, FORM…".
//! Mirrors the refusals of `orders/march.rs` and `orders/ride.rs` with cheap tests of the unit
//! (the prompt is built on every look at the step); it decides nothing and changes nothing.

use super::data::Arm;
use super::state::{Fig, Form, State, Unit};

/// The words, in the order the reference lists them, that at least one of `units` may be
/// given on its card.
pub fn move_words(state: &State, units: &[&Unit]) -> Vec<&'static str> {
    const ORDER: [&str; 11] = [
        "MOVE", "CHARGE", "FORM", "SMOKE", "ENTRENCH", "MOUNT", "DISMOUNT", "SAIL", "STOP", "FLY",
        "HOLD",
    ];
    ORDER
        .into_iter()
        .filter(|w| units.iter().any(|u| may_take(state, u, w)))
        .collect()
}

fn may_take(state: &State, u: &Unit, word: &str) -> bool {
    let machine = matches!(
        u.arm,
        Arm::Windwagon | Arm::Panjandrum | Arm::Zeppelin | Arm::Aeroplane
    );
    match word {
        "MOVE" | "FORM" => u.may_move() && !machine,
        "CHARGE" => {
            matches!(u.form, Form::Line | Form::Column)
                && matches!(u.arm, Arm::Infantry | Arm::Cavalry)
                && state.enemies_of(u).any(|e| !e.hidden && e.aboard.is_none())
        }
        "SMOKE" => u.smoke > 0 && u.count(Fig::Grenadier) > 0,
        "ENTRENCH" => !(machine || u.mounted || (u.british && u.figures.len() >= 4)),
        "MOUNT" => u.arm == Arm::Cavalry && !u.mounted,
        "DISMOUNT" => u.arm == Arm::Cavalry && u.mounted,
        "SAIL" => u.arm == Arm::Windwagon,
        "STOP" => u.arm == Arm::Windwagon && !u.halted,
        "FLY" => matches!(u.arm, Arm::Zeppelin | Arm::Aeroplane),
        // An aeroplane cannot hover; a windwagon under way cannot stay put (R36, R44).
        "HOLD" => (u.arm != Arm::Windwagon || u.halted) && u.arm != Arm::Aeroplane,
        _ => false,
    }
}

/// The words as the prompt writes them: `MOVE, FORM or HOLD`.
pub fn listed(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}
