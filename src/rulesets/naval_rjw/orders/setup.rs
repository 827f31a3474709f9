//! Parsers of the set-up orders: FLAGSHIP, SECOND and MINEFIELD. They never change the state.

use crate::board::tabletop::Pt;
use crate::rulesets::kit::grammar::{Cursor, LineErr, num, refuse};
use crate::rulesets::naval_rjw::state::{NavalState, Order};

use super::sim::{Sim, Whose, own_afloat, ship, ship_of};

/// `FLAGSHIP Mikasa`: the flag moves; the old flagship becomes second unless the email names one.
pub fn flagship(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    let name = capital(state, sim, c)?;
    if sim.flagship_line {
        return refuse("FLAGSHIP given twice");
    }
    sim.flagship_line = true;
    if sim.second.as_deref() == Some(name.as_str()) && !sim.second_line {
        sim.second = sim.flagship.clone();
    }
    sim.flagship = Some(name.clone());
    Ok(Order::Flagship(name))
}

/// `SECOND Asahi`: the second-in-command.
pub fn second(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    let name = capital(state, sim, c)?;
    if sim.second_line {
        return refuse("SECOND given twice");
    }
    sim.second_line = true;
    sim.second = Some(name.clone());
    Ok(Order::Second(name))
}

/// One of your capital ships still afloat, alone on the rest of the line.
fn capital(state: &NavalState, sim: &Sim, c: &mut Cursor) -> Result<String, LineErr> {
    let name = ship(state, sim, Whose::Own, c)?;
    c.end()?;
    own_afloat(state, sim, &name)?;
    if !ship_of(state, &name).class.is_capital() {
        return refuse(format!("{name} is not a capital ship"));
    }
    Ok(name)
}

/// `MINEFIELD GENUINE AT 30,24 HEADING 90`. Dummies are counted against the genuine fields
/// once the whole email is read, since they may come first.
pub fn minefield(state: &NavalState, sim: &mut Sim, c: &mut Cursor) -> Result<Order, LineErr> {
    let genuine = c.one_of(&[("GENUINE", true), ("DUMMY", false)])?;
    c.expect("AT")?;
    let at = c.point(&["HEADING"])?;
    c.expect("HEADING")?;
    let heading = c.bearing("the heading")?;
    c.end()?;
    if !(0.0..=state.width).contains(&at.x) || !(0.0..=state.height).contains(&at.y) {
        return refuse(format!(
            "{},{} is off the table ({} x {})",
            num(at.x),
            num(at.y),
            num(state.width),
            num(state.height)
        ));
    }
    if genuine {
        let max = state.data.rules.pregame_genuine_max.get().round() as u32;
        if sim.genuine + 1 > max {
            return refuse(format!("at most {max} genuine minefields before the game"));
        }
        sim.genuine += 1;
    }
    Ok(Order::Minefield {
        genuine,
        at: Pt { x: at.x, y: at.y },
        heading,
    })
}
