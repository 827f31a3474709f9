//! The players' order syntax (games/naval-rjw/README.md): the keyword table, one small parser
//! per order (in `setup`, `manoeuvre`, `fire`), the whole-email checks (CP, dummy minefields,
//! nominations) and the canonical form. It never changes the state.

mod fire;
mod manoeuvre;
mod setup;
mod sim;

use crate::engine::{Rejected, StandingRead};
pub use crate::rulesets::kit::grammar::num;
use crate::rulesets::kit::grammar::{END, Grammar, Keyword, LineErr, Parsed, refuse};

use super::command;
use super::state::{NavalState, Order, Orders, Phase, StandingFire, TurnBy};
use sim::Sim;

/// One entry per order: its keyword, the line a player can copy, its parser.
const GRAMMAR: Grammar<NavalState, Sim, Order> = Grammar {
    keywords: &[
        Keyword::new("FLAGSHIP", "FLAGSHIP Mikasa", setup::flagship),
        Keyword::new("SECOND", "SECOND Asahi", setup::second),
        Keyword::new(
            "MINEFIELD",
            "MINEFIELD GENUINE AT 30,24 HEADING 90",
            setup::minefield,
        ),
        Keyword::new("REPAIR", "REPAIR Mikasa 2", manoeuvre::repair),
        Keyword::new("TURN", "TURN Mikasa PORT 45", manoeuvre::turn),
        Keyword::new("MOVE", "MOVE Mikasa 4", manoeuvre::move_ship),
        Keyword::new("HALT", "HALT Askold", manoeuvre::halt),
        Keyword::new("LEAVE", "LEAVE Fuji", manoeuvre::leave),
        Keyword::new("SPLIT", "SPLIT Fuji", manoeuvre::split),
        Keyword::new("JOIN", "JOIN Nisshin TO Mikasa", manoeuvre::join),
        Keyword::new("ABREAST", "ABREAST Mikasa", manoeuvre::abreast),
        Keyword::new("ASTERN", "ASTERN Mikasa", manoeuvre::astern),
        Keyword::new("WITHDRAW", "WITHDRAW", manoeuvre::withdraw),
        Keyword::new("CHASE", "CHASE", manoeuvre::chase),
        Keyword::new("LAY", "LAY Amur", manoeuvre::lay),
        Keyword::new("SWEEP", "SWEEP Amur M3", manoeuvre::sweep),
        Keyword::new("RESCUE", "RESCUE Retvizan WITH Askold", manoeuvre::rescue),
        Keyword::new("CAPTURE", "CAPTURE Novik WITH Chitose", manoeuvre::capture),
        Keyword::new("SMOKE", "SMOKE Akatsuki", fire::smoke),
        Keyword::new(
            "FIRE",
            "FIRE Mikasa AT Tsesarevich ELSE Retvizan SUPPORT Asahi Fuji",
            fire::fire,
        ),
        Keyword::new("STANDING", "STANDING FIRE NEAREST", fire::standing),
        Keyword::new("PASS", "PASS", fire::pass).ending(),
    ],
    allowed: step_allows,
};

/// Every word a line of orders may start with (for telling orders from a sign-off).
pub fn keywords() -> Vec<&'static str> {
    GRAMMAR.keywords()
}

/// The orders each step takes: the sequence of play's `keywords` (`procedure`) and
/// `step_allows` below read these, so HELP, the README and the parser cannot disagree. PASS is
/// in every step; STANDING FIRE goes in any mail.
pub const SETUP_WORDS: &[&str] = &["FLAGSHIP", "SECOND", "MINEFIELD", "PASS"];
/// Steps 2–4, and the fire plan and smoke that may come with them (R23).
pub const MANOEUVRE_WORDS: &[&str] = &[
    "REPAIR", "TURN", "MOVE", "HALT", "LEAVE", "SPLIT", "JOIN", "ABREAST", "ASTERN", "WITHDRAW",
    "CHASE", "LAY", "SWEEP", "RESCUE", "CAPTURE", "FIRE", "SMOKE", "PASS",
];
pub const FIRE_WORDS: &[&str] = &["FIRE", "SMOKE", "PASS"];

/// Which orders the current step takes from `sim.side`. PASS and STANDING FIRE go anywhere.
fn step_allows(state: &NavalState, sim: &Sim, kw: &'static str) -> Result<(), LineErr> {
    let seat = sim.side.as_str();
    if kw == "PASS" {
        return Ok(());
    }
    match state.phase {
        Phase::GameOver => refuse("the game is over"),
        _ if kw == "STANDING" => Ok(()),
        Phase::Setup if SETUP_WORDS.contains(&kw) => Ok(()),
        Phase::Setup => Err(LineErr::new(format!("`{kw}` is not a set-up order"))
            .hint("set-up orders are FLAGSHIP, SECOND, MINEFIELD, STANDING FIRE")),
        Phase::Manoeuvre if seat != state.active => Err(LineErr::new(format!(
            "it is {}'s turn to manoeuvre; you are not asked now",
            state.active
        ))
        .hint("only STANDING FIRE … may be sent now")),
        Phase::Manoeuvre if MANOEUVRE_WORDS.contains(&kw) => Ok(()),
        Phase::Manoeuvre => refuse(format!("`{kw}` is not a manoeuvre or fire order")),
        Phase::Fire if FIRE_WORDS.contains(&kw) => Ok(()),
        // A word of the manoeuvre step only (the fire step's are all its too).
        Phase::Fire if MANOEUVRE_WORDS.contains(&kw) => Err(LineErr::new(format!(
            "`{kw}` belongs in the manoeuvre orders; this is the fire step"
        ))
        .hint("for example: FIRE Mikasa AT Tsesarevich")),
        Phase::Fire => refuse(format!("`{kw}` is not a fire order")),
    }
}

/// Parses `text` as `seat`'s orders for the current step. Every bad line is reported.
pub fn parse(state: &NavalState, seat: &str, text: &str) -> Result<Orders, Vec<Rejected>> {
    let Some(mut sim) = Sim::new(state, seat) else {
        return Err(vec![
            LineErr::new(format!("`{seat}` is not a side in this game"))
                .at(1, text.lines().next().unwrap_or("")),
        ]);
    };
    let read = GRAMMAR.read(state, &mut sim, text);
    let mut bad = read.rejected;
    bad.extend(cp_run_out(state, seat, &read.orders));
    bad.extend(too_many_dummies(state, &sim, &read.orders));
    bad.sort_by_key(|r| r.line);
    if state.phase == Phase::Setup
        && bad.is_empty()
        && let (Some(f), Some(s)) = (&sim.flagship, &sim.second)
        && f == s
    {
        let at = read
            .orders
            .iter()
            .find(|p| matches!(p.order, Order::Flagship(_) | Order::Second(_)));
        bad.push(
            LineErr::new(format!("{f} cannot be both flagship and second-in-command"))
                .hint("name another capital ship with SECOND")
                .at(
                    at.map_or(1, |p| p.line),
                    at.map_or(text.lines().next().unwrap_or(""), |p| p.text.as_str()),
                ),
        );
    }
    if !bad.is_empty() {
        return Err(bad);
    }
    let mut orders: Orders = read.orders.into_iter().map(|p| p.order).collect();
    if read.end.is_some() {
        // Echoed as written: the receipt shows the END the player sent.
        orders.push(Order::End);
    }
    Ok(orders)
}

/// `STANDING FIRE …` from a mail that does not answer the open step (ruling SO1): the state
/// with the fleet's standing fire orders set at once (the last line wins).
pub fn standing(
    state: &NavalState,
    seat: &str,
    text: &str,
) -> Result<StandingRead<NavalState>, Vec<Rejected>> {
    let Some(mut sim) = Sim::new(state, seat) else {
        return Err(vec![
            LineErr::new(format!("`{seat}` is not a side in this game")).at(1, ""),
        ]);
    };
    let read = GRAMMAR.read(state, &mut sim, text);
    let (standing, other) =
        crate::rulesets::kit::standing::sort(read, |o| matches!(o, Order::Standing(_)))?;
    if standing.is_empty() {
        return Ok(StandingRead {
            applied: None,
            other,
        });
    }
    let mut next = state.clone();
    for o in &standing {
        if let Order::Standing(mode) = o
            && let Some(f) = super::stats::fleet_mut(&mut next, seat)
        {
            f.standing_fire = *mode;
        }
    }
    Ok(StandingRead {
        applied: Some((next, print(&standing))),
        other,
    })
}

/// The line where the manoeuvre orders' CP run out, if they do (the order still counts, so
/// later lines are checked as if it stood).
fn cp_run_out(state: &NavalState, seat: &str, orders: &[Parsed<Order>]) -> Option<Rejected> {
    if state.phase != Phase::Manoeuvre {
        return None;
    }
    let mut spent = 0;
    for p in orders {
        let cost = command::order_cost(state, seat, &p.order);
        if cost > 0 && spent + cost > state.cp_left {
            return Some(
                LineErr::new(format!(
                    "CP run out here: this order costs {cost} CP and {} of your {} CP are left",
                    (state.cp_left - spent).max(0),
                    state.cp_left
                ))
                .hint("drop an order or halt fewer ships")
                .at(p.line, &p.text),
            );
        }
        spent += cost;
    }
    None
}

/// The first dummy minefield beyond what the genuine ones allow (dummies may come first).
fn too_many_dummies(state: &NavalState, sim: &Sim, orders: &[Parsed<Order>]) -> Option<Rejected> {
    let per = state.data.rules.dummies_per_genuine.get().round() as u32;
    let p = orders
        .iter()
        .filter(|p| matches!(p.order, Order::Minefield { genuine: false, .. }))
        .nth((per * sim.genuine) as usize)?;
    Some(
        LineErr::new(format!(
            "at most {per} dummy minefields per genuine one ({} genuine ordered)",
            sim.genuine
        ))
        .at(p.line, &p.text),
    )
}

fn print_turn(by: &TurnBy) -> String {
    match by {
        TurnBy::Port(d) => format!("PORT {}", num(*d)),
        TurnBy::Starboard(d) => format!("STARBOARD {}", num(*d)),
        TurnBy::To(h) => format!("TO {}", num(*h)),
    }
}

/// One order as its canonical line (without the newline).
pub fn print_order(order: &Order) -> String {
    match order {
        Order::Flagship(s) => format!("FLAGSHIP {s}"),
        Order::Second(s) => format!("SECOND {s}"),
        Order::Minefield {
            genuine,
            at,
            heading,
        } => format!(
            "MINEFIELD {} AT {},{} HEADING {}",
            if *genuine { "GENUINE" } else { "DUMMY" },
            num(at.x),
            num(at.y),
            num(*heading)
        ),
        Order::Repair { ship, markers } => {
            if *markers == 1 {
                format!("REPAIR {ship}")
            } else {
                format!("REPAIR {ship} {markers}")
            }
        }
        Order::Turn { ship, by } => format!("TURN {ship} {}", print_turn(by)),
        Order::Move { ship, distance } => match distance {
            None => format!("MOVE {ship}"),
            Some(d) => format!("MOVE {ship} {}", num(*d)),
        },
        Order::Halt(s) => format!("HALT {s}"),
        Order::Leave(s) => format!("LEAVE {s}"),
        Order::Join { ship, group_of } => format!("JOIN {ship} TO {group_of}"),
        Order::Split { at } => format!("SPLIT {at}"),
        Order::FormAbreast(s) => format!("ABREAST {s}"),
        Order::FormAstern(s) => format!("ASTERN {s}"),
        Order::Withdraw => "WITHDRAW".to_string(),
        Order::Chase => "CHASE".to_string(),
        Order::Lay(s) => format!("LAY {s}"),
        Order::Sweep { ship, field } => format!("SWEEP {ship} {field}"),
        Order::Rescue { wreck, with } => format!("RESCUE {wreck} WITH {}", with.join(" ")),
        Order::Capture { prize, with } => format!("CAPTURE {prize} WITH {with}"),
        Order::Smoke(s) => format!("SMOKE {s}"),
        Order::Fire(f) => {
            let mut line = format!("FIRE {}", f.ship);
            if f.secondary {
                line.push_str(" SECONDARY");
            }
            line.push_str(" AT ");
            line.push_str(&f.targets.join(" ELSE "));
            if !f.support.is_empty() {
                line.push_str(" SUPPORT ");
                line.push_str(&f.support.join(" "));
            }
            line
        }
        Order::Standing(None) => "STANDING FIRE OFF".to_string(),
        Order::Standing(Some(StandingFire::Nearest)) => "STANDING FIRE NEAREST".to_string(),
        Order::Standing(Some(StandingFire::Flagship)) => "STANDING FIRE FLAGSHIP".to_string(),
        Order::Pass => "PASS".to_string(),
        Order::End => END.to_string(),
    }
}

/// The canonical text: one order per line, each ending in `\n`, in the order given.
pub fn print(orders: &Orders) -> String {
    orders.iter().map(|o| print_order(o) + "\n").collect()
}
