//! Legal orders for random play and the demo players: a mail built line by line, each
//! candidate kept only if the whole mail still parses, so every sample is legal by the same
//! grammar players use. It decides nothing for the game; `choice` picks among candidates.

use crate::board::hex::Hex;
use crate::rulesets::kit::roster::Roster;

use super::data::Arm;
use super::orders::{self, Role};
use super::state::{Cohesion, Formation, LbState, QKind, Question, Unit};

/// A small deterministic mixer of `choice` (the kit's scripted players pass any u64).
fn mix(choice: u64, salt: u64) -> u64 {
    let mut x = choice ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x
}

fn nearest_enemy(st: &LbState, side: &str, from: Hex) -> Option<Hex> {
    st.units
        .iter()
        .filter(|e| e.side != side && e.fighting())
        .min_by_key(|e| (e.hex.distance(from), e.name.clone()))
        .map(|e| e.hex)
}

/// The nearest objective `side` does not hold (R34): a fighting unit in it, else its holder.
/// Players go for objectives, not only for the nearest enemy; without this the sample players
/// never contest one, and every objective scores for the side that starts holding it.
fn objective_to_take(st: &LbState, side: &str, from: Hex) -> Option<Hex> {
    st.objectives
        .iter()
        .filter(|o| {
            let here = st.at(o.hex);
            let held = here
                .iter()
                .find(|u| u.fighting())
                .map_or(o.holder.as_str(), |u| u.side.as_str());
            held != side
        })
        .map(|o| o.hex)
        .min_by_key(|h| (h.distance(from), st.label(*h)))
}

/// One hex step from `from` towards `to` (the neighbour nearest to it).
fn step_towards(st: &LbState, from: Hex, to: Hex) -> Option<Hex> {
    st.grid
        .neighbours(from)
        .into_iter()
        .filter(|h| st.grid.on_map(*h))
        .min_by_key(|h| (h.distance(to), st.label(*h)))
}

/// A path of up to `hexes` steps from `from` towards `to`, stopping short of any enemy
/// (a march on an objective, not into the enemy).
fn march(st: &LbState, side: &str, from: Hex, to: Hex, hexes: usize) -> Vec<Hex> {
    let mut path = Vec::new();
    let mut at = from;
    for _ in 0..hexes {
        match step_towards(st, at, to) {
            Some(h)
                if h.distance(to) < at.distance(to) && st.at(h).iter().all(|e| e.side == side) =>
            {
                path.push(h);
                at = h;
            }
            _ => break,
        }
    }
    path
}

/// Whether `side` has a fighting unit in `hex`, the objective's holder by R34.
fn enemy_holds(st: &LbState, side: &str, hex: Hex) -> bool {
    st.at(hex).iter().any(|e| e.side != side && e.fighting())
}

fn keep(st: &LbState, seat: &str, mail: &mut Vec<String>, line: String) {
    mail.push(line);
    if orders::parse(st, seat, &mail.join("\n")).is_err() {
        mail.pop();
    }
}

/// The standing orders a scripted seat may send with anything else (one in four mails).
const STANDING_SAMPLES: [&str; 9] = [
    "HUZZAH ALWAYS",
    "SQUARE ALWAYS",
    "RETREAT BEFORE ASSAULT IF 3:1",
    "PICK AUTO",
    "DISPLACE AUTO",
    "IMPETUS AUTO",
    "PURSUE AUTO",
    "REACTION NEVER",
    "RECALL IF SQUARE",
];

/// A legal order email for `seat` now, chosen by `choice`: sometimes a standing order, then
/// the answer to its open question or its units' maneuver orders; `PASS` when nothing else.
pub fn sample_orders(st: &LbState, seat: &str, choice: u64) -> String {
    let mut mail: Vec<String> = Vec::new();
    if mix(choice, 1).is_multiple_of(4) {
        let s = STANDING_SAMPLES[(mix(choice, 2) % STANDING_SAMPLES.len() as u64) as usize];
        keep(st, seat, &mut mail, s.to_string());
    }
    match orders::role(st, seat) {
        Role::Over | Role::Waiting | Role::Standing => {}
        Role::Asked(q) => {
            keep(st, seat, &mut mail, answer(st, seat, &q, choice));
            if orders::parse(st, seat, &mail.join("\n")).is_err()
                || !mail.iter().any(|l| !STANDING_SAMPLES.contains(&l.as_str()))
            {
                // Fall back to the answers a silent seat would give.
                keep(st, seat, &mut mail, fallback_line(&q.kind).to_string());
            }
        }
        Role::Maneuver => {
            let units: Vec<_> = st
                .units
                .iter()
                .filter(|u| u.side == seat && u.fighting())
                .cloned()
                .collect();
            for (i, u) in units.iter().enumerate() {
                let k = mix(choice, 100 + i as u64) % 6;
                if let Some(line) = maneuver_line(st, seat, u, k, &mail) {
                    keep(st, seat, &mut mail, line);
                }
            }
        }
    }
    if mail.is_empty() {
        mail.push("PASS".into());
    }
    let mut out = mail.join("\n");
    out.push('\n');
    out
}

/// An answer to the open question, one of its options where it has some.
fn answer(st: &LbState, seat: &str, q: &Question, choice: u64) -> String {
    let pick =
        |k: u64| q.options[(mix(choice, k) % q.options.len().max(1) as u64) as usize].clone();
    let yes = mix(choice, 3).is_multiple_of(2);
    match q.kind {
        QKind::Pick => format!("PICK {}", pick(4)),
        QKind::RetreatBeforeAssault | QKind::RetreatBeforeCharge => {
            if yes {
                "RETREAT".into()
            } else {
                "STAND".into()
            }
        }
        QKind::NewAssault if yes && !q.options.is_empty() => {
            format!("REASSAULT {}", pick(5))
        }
        QKind::NewAssault => "NO REASSAULT".into(),
        QKind::Huzzah => {
            if yes {
                "HUZZAH".into()
            } else {
                "NO HUZZAH".into()
            }
        }
        QKind::Square if yes && !q.options.is_empty() => {
            format!("SQUARE {}", q.options.join(" "))
        }
        QKind::Square => "NO SQUARE".into(),
        QKind::Recall => {
            if yes {
                "RECALL".into()
            } else {
                "NO RECALL".into()
            }
        }
        QKind::Reaction if yes && !q.options.is_empty() => format!("REACT {}", pick(6)),
        QKind::Reaction => "NO REACTION".into(),
        QKind::Displace => {
            let n = q.count as usize;
            format!(
                "DISPLACE {}",
                q.options[q.options.len().saturating_sub(n)..].join(" ")
            )
        }
        QKind::Impetus => format!("IMPETUS {}", pick(7)),
        QKind::Pursue => format!("PURSUE {}", pick(8)),
        QKind::Exploit => {
            let u = pick(9);
            let near = st
                .unit(&u)
                .and_then(|x| nearest_enemy(st, seat, x.hex).filter(|e| e.distance(x.hex) == 1));
            match near {
                Some(e) if yes => format!("ASSAULT {u} AT {}", st.label(e)),
                _ => "NO EXPLOITATION".into(),
            }
        }
    }
}

/// The answer a silent seat would give.
fn fallback_line(kind: &QKind) -> &'static str {
    match kind {
        QKind::Square => "NO SQUARE",
        QKind::Reaction => "NO REACTION",
        QKind::Recall => "NO RECALL",
        QKind::Huzzah => "NO HUZZAH",
        QKind::NewAssault => "NO REASSAULT",
        QKind::RetreatBeforeAssault | QKind::RetreatBeforeCharge => "STAND",
        QKind::Pick => "PICK AUTO",
        QKind::Displace => "DISPLACE AUTO",
        QKind::Impetus => "IMPETUS AUTO",
        QKind::Pursue => "PURSUE AUTO",
        QKind::Exploit => "NO EXPLOITATION",
    }
}

/// One unit's maneuver order, by its arm and the draw `k` (0: none): hold or take an
/// objective, assault, charge, fire, change formation or close in. `mail`: the lines so far.
fn maneuver_line(st: &LbState, seat: &str, u: &Unit, k: u64, mail: &[String]) -> Option<String> {
    let enemy = nearest_enemy(st, seat, u.hex)?;
    let goal = objective_to_take(st, seat, u.hex);
    // Formed troops (good order, line or column) carry the attack on an objective;
    // a unit standing on an objective holds it, as a defender would.
    let formed = u.cohesion == Cohesion::GoodOrder
        && matches!(u.formation, Formation::Line | Formation::Column);
    let on_objective = st.objectives.iter().any(|o| o.hex == u.hex);
    Some(match (u.arm, k) {
        (_, 0) => return None,
        (Arm::Infantry | Arm::Cavalry, _) if on_objective => {
            if u.arm == Arm::Infantry && u.formation == Formation::Column {
                format!("FORM {} LINE", u.name)
            } else {
                return None;
            }
        }
        (Arm::Infantry, 1..=3)
            if formed
                && goal.is_some_and(|g| g.distance(u.hex) <= 2 && enemy_holds(st, seat, g)) =>
        {
            let g = goal.unwrap_or(enemy);
            let via = if g.distance(u.hex) == 2 {
                step_towards(st, u.hex, g)
                    .map(|h| format!(" VIA {}", st.label(h)))
                    .unwrap_or_default()
            } else {
                String::new()
            };
            format!("ASSAULT {} AT {}{via}", u.name, st.label(g))
        }
        (Arm::Infantry, 3 | 4) if formed && goal.is_some() => {
            let path = goal.map_or(Vec::new(), |g| march(st, seat, u.hex, g, 2));
            if path.is_empty() {
                return None;
            }
            let hexes: Vec<String> = path.iter().map(|h| st.label(*h)).collect();
            let two = format!("MOVE {} {}", u.name, hexes.join(" "));
            // A two-hex march the grammar refuses (MP, a zone) falls back to one.
            let mut probe = mail.to_vec();
            probe.push(two.clone());
            if orders::parse(st, seat, &probe.join("\n")).is_ok() {
                two
            } else {
                format!("MOVE {} {}", u.name, hexes[0])
            }
        }
        (Arm::Infantry, 1 | 2) if u.hex.distance(enemy) <= 2 => {
            let via = if u.hex.distance(enemy) == 2 {
                step_towards(st, u.hex, enemy)
                    .map(|h| format!(" VIA {}", st.label(h)))
                    .unwrap_or_default()
            } else {
                String::new()
            };
            format!("ASSAULT {} AT {}{via}", u.name, st.label(enemy))
        }
        (Arm::Cavalry, 1..=3) if u.hex.distance(enemy) <= 5 => {
            format!("CHARGE {} AT {}", u.name, st.label(enemy))
        }
        (Arm::Artillery, _) => format!("FIRE {} AT {}", u.name, st.label(enemy)),
        (Arm::Infantry, 5) => format!(
            "FORM {} {}",
            u.name,
            if u.formation == super::state::Formation::Column {
                "LINE"
            } else {
                "COLUMN"
            }
        ),
        (Arm::Cavalry, 4) if goal.is_some() => {
            match goal.and_then(|g| step_towards(st, u.hex, g)) {
                Some(h) => format!("MOVE {} {}", u.name, st.label(h)),
                None => return None,
            }
        }
        _ => match step_towards(st, u.hex, enemy) {
            Some(h) if h != enemy => format!("MOVE {} {}", u.name, st.label(h)),
            _ => return None,
        },
    })
}
