//! Vehicle maneuver actions beyond plain motion: Shoot & Scoot (§10.4.2), Halt & Fire
//! (§10.4.3) and Overrun (§10.4.5) with its restrictions a–e and procedure steps 1–4 (step 5 is
//! cut off in the seed, R16). Checks never change the state; the `do_` functions place the
//! markers the procedure calls for.

use crate::board::hex::Hex;
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::data::{Ground, Kind};
use super::fire::{self, Shot};
use super::sight;
use super::state::{Done, FireKind, LhyState, Motion, Target, Unit};

/// The unit a fire order aims at, as its side sees the map (None: a hex for small arms).
pub fn aim<'a>(s: &'a LhyState, side: &str, t: &Target) -> Result<Option<&'a Unit>, String> {
    match t {
        Target::Hex(_) => Ok(None),
        Target::Unit(n) => s
            .unit(n)
            .filter(|u| u.on_map() && u.side != side && sight::shown(u, side))
            .map(Some)
            .ok_or_else(|| format!("you see no enemy unit {n}")),
        Target::Hidden(h, kind) => {
            if !sight::marker_at(s, side, *h) {
                return Err(format!(
                    "there is no Concealment marker in {}",
                    s.name_of(*h)
                ));
            }
            // The top-most unit of that kind under the marker; the check cannot know if
            // there is one (R9), so a missing one is found when the fire is carried out.
            Ok(s.stack(*h, s.enemy_of(side).unwrap_or_default())
                .into_iter()
                .find(|u| u.kind == *kind && u.concealed && !u.hidden))
        }
    }
}

/// The shot a unit makes at a target from `from` (small arms or anti-tank, R11).
pub fn shot(
    s: &LhyState,
    u: &Unit,
    from: Hex,
    t: &Target,
    mode: Option<super::state::Mode>,
    extra: i32,
) -> Result<Option<Shot>, String> {
    use super::state::Mode;
    let target = aim(s, &u.side, t)?;
    let hex = match t {
        Target::Hex(h) | Target::Hidden(h, _) => *h,
        Target::Unit(_) => target.map(|x| x.at).unwrap_or(from),
    };
    let hard_target = match t {
        Target::Hidden(..) => true,
        _ => target.is_some_and(|x| x.kind.hard()),
    };
    let at = match mode {
        Some(Mode::AntiTank) => true,
        Some(Mode::SmallArms) => false,
        None => hard_target && s.values(u).atv_range > 0,
    };
    if at {
        match (t, target) {
            (Target::Hex(_), _) => Err("name the vehicle, gun or FP for anti-tank fire".into()),
            (_, Some(x)) => fire::anti_tank(s, u, from, x, extra).map(Some),
            // Under a marker with no such unit: the check passes, the fire finds nothing.
            (_, None) => Ok(None),
        }
    } else {
        fire::small_arms(s, u, from, hex, extra).map(Some)
    }
}

/// §10.4.2: a stationary vehicle fires, goes into motion, and may move one adjacent hex.
pub fn check_scoot(s: &LhyState, u: &Unit, t: &Target, to: Option<Hex>) -> Result<(), String> {
    if !u.vehicle() {
        return Err("Shoot & Scoot is for vehicles".into());
    }
    if u.motion != Motion::Stationary || u.stopped {
        return Err(format!(
            "{} must be stationary (and not stopped this turn)",
            u.name
        ));
    }
    fire::can_fire(s, u, u.at, true)?;
    shot(s, u, u.at, t, None, s.data.rules.moving_fire_drm.int())?;
    if let Some(h) = to {
        step_ok(s, u, h)?;
    }
    Ok(())
}

/// §10.4.3: a vehicle in motion stops and fires, in its hex or after one adjacent hex. A
/// reacting vehicle needs LOS only when it fires, at a penalty when it had none at the start.
pub fn check_halt(
    s: &LhyState,
    u: &Unit,
    to: Option<Hex>,
    t: &Target,
    reacting: bool,
) -> Result<(), String> {
    if !u.vehicle() {
        return Err("Halt & Fire is for vehicles".into());
    }
    if u.motion != Motion::Green || u.started {
        return Err(format!(
            "{} must be in motion since an earlier turn (§10.4.1)",
            u.name
        ));
    }
    let from = to.unwrap_or(u.at);
    if let Some(h) = to {
        step_ok(s, u, h)?;
    }
    let extra = halt_drm(s, u, t, reacting);
    fire::can_fire(s, u, u.at, true)?;
    shot(s, u, from, t, None, extra)?;
    Ok(())
}

/// The Halt & Fire DRM (§11.3.3g/h lost; R12).
pub fn halt_drm(s: &LhyState, u: &Unit, t: &Target, reacting: bool) -> i32 {
    let r = &s.data.rules;
    let hex = match t {
        Target::Hex(h) | Target::Hidden(h, _) => *h,
        Target::Unit(n) => s.unit(n).map_or(u.at, |x| x.at),
    };
    let blind_start = reacting && !sight::sees(s, u, hex);
    r.moving_fire_drm.int()
        + if blind_start {
            r.halt_no_los_drm.int()
        } else {
            0
        }
}

/// One adjacent hex a vehicle may enter for S&S or H&F.
fn step_ok(s: &LhyState, u: &Unit, h: Hex) -> Result<(), String> {
    if !u.at.is_adjacent(h) {
        return Err(format!("{} is not adjacent", s.name_of(h)));
    }
    s.map
        .enter_cost(&s.data, u.at, h, true)
        .ok_or_else(|| format!("{} may not enter {}", u.name, s.name_of(h)))?;
    if sight::enemy_known_at(s, &u.side, h) {
        return Err(format!("{} holds the enemy", s.name_of(h)));
    }
    Ok(())
}

/// §10.4.5 restrictions a–e, as the overrunning side can know them.
pub fn check_overrun(s: &LhyState, u: &Unit, h: Hex, path: &[Hex]) -> Result<(), String> {
    let label = s.name_of(h);
    if !matches!(u.kind, Kind::Afv | Kind::Halftrack) {
        return Err("only AFVs and halftracks overrun".into());
    }
    if u.overran {
        return Err(format!("{} has overrun once this turn (§10.4.5c)", u.name));
    }
    if path.last() == Some(&h) || !path.contains(&h) {
        return Err(format!(
            "the overrun hex {label} must be on the path and not its end (§10.4.5c)"
        ));
    }
    let g = s.map.ground(h);
    let fx = s.data.fx(g);
    if fx.cover || fx.blocking || fx.building || matches!(g, Ground::River) {
        return Err(format!("{label} is not open terrain (§10.4.5a)"));
    }
    if s.on_map().any(|f| f.side == u.side && f.at == h) {
        return Err(format!("{label} holds your own units (§10.4.5b)"));
    }
    if !sight::enemy_known_at(s, &u.side, h) {
        return Err(format!("you know of no enemy unit in {label}"));
    }
    let shown: Vec<&Unit> = sight::named_enemies(s, &u.side)
        .filter(|e| e.at == h)
        .collect();
    if shown
        .iter()
        .any(|e| e.kind == Kind::Afv || e.kind == Kind::Fp)
    {
        return Err("only hexes of non-vehicular units and carriers are overrun".into());
    }
    if u.kind == Kind::Halftrack && shown.iter().any(|e| e.kind == Kind::Gun) {
        return Err("halftracks cannot overrun towed guns (§10.4.5d)".into());
    }
    let aboard: Vec<&Unit> = s
        .units
        .iter()
        .filter(|x| x.aboard.as_deref() == Some(u.name.as_str()) && x.on_map())
        .collect();
    if u.kind == Kind::Afv && !aboard.is_empty() {
        return Err("AFVs carrying riders may not overrun (§10.4.5e)".into());
    }
    if u.kind == Kind::Halftrack && aboard.iter().any(|x| x.kind == Kind::Gun) {
        return Err("halftracks towing guns may not overrun (§10.4.5e)".into());
    }
    Ok(())
}

/// §10.4.5 procedure steps 1–4 as the overrunners pause in `h` (entered from `from`).
pub fn overrun(s: &mut LhyState, side: &str, names: &[String], h: Hex, from: Hex) {
    let enemy = s.enemy_of(side).unwrap_or_default().to_string();
    let label = s.name_of(h);
    // What the hex really holds: an AFV or FP (or a gun, for a halftrack) stops the overrun
    // short (R16), as the owner would say so on the table.
    let there: Vec<Unit> = s
        .on_map()
        .filter(|e| e.side == enemy && e.at == h && !e.dummy())
        .cloned()
        .collect();
    let movers: Vec<Unit> = names.iter().filter_map(|n| s.unit(n)).cloned().collect();
    for d in s
        .on_map()
        .filter(|e| e.side == enemy && e.at == h && e.dummy())
        .map(|e| e.name.clone())
        .collect::<Vec<_>>()
    {
        super::concealment::reveal(s, &d);
    }
    for e in &there {
        super::concealment::reveal(s, &e.name);
    }
    let tem = fire::tem(s, h, from, side);
    let targets: Vec<String> = there
        .iter()
        .filter(|e| !e.kind.hard())
        .map(|e| e.name.clone())
        .collect();
    s.public(format!("{label}: overrun by {}.", names.join(", ")));
    overrunners_fire(s, side, &movers, &targets, h, tem);
    // Step 2: towed guns and LATWs that have not acted must fire at the overrunners.
    guns_fire_back(s, &enemy, &there, &movers, h);
    // Step 3: close defence against an AFV, the unit's one action (R16: taken when allowed
    // unless the side switched it off).
    let afv = movers
        .iter()
        .find(|m| m.kind == Kind::Afv)
        .map(|m| m.name.clone());
    let on = s.side(&enemy).is_some_and(|x| x.close_defence);
    if let (Some(afv), true) = (afv, on) {
        close_with(s, &enemy, &there, &afv, h);
    }
}

/// Step 1: each overrunner is marked as having overrun and places its SADRM (a halftrack
/// carrying infantry the overrun's own) on the soft targets in the hex, if any.
fn overrunners_fire(
    s: &mut LhyState,
    side: &str,
    movers: &[Unit],
    targets: &[String],
    h: Hex,
    tem: i32,
) {
    let label = s.name_of(h);
    for m in movers {
        if let Some(x) = s.unit_mut(&m.name) {
            x.overran = true;
        }
        let carrying_infantry = m.kind == Kind::Halftrack
            && s.units
                .iter()
                .any(|x| x.aboard.as_deref() == Some(m.name.as_str()) && x.kind.infantry());
        let base = if carrying_infantry {
            s.data.rules.overrun_halftrack_sadrm.int()
        } else {
            s.values(m).sav
        };
        if targets.is_empty() {
            continue;
        }
        let drm = base + tem;
        fire::place(
            s,
            Shot {
                kind: FireKind::SmallArms,
                hex: h,
                drm,
                targets: targets.to_vec(),
            },
            &m.name,
            side,
            false,
        );
        s.public(format!(
            "{label}: SADRM {} from {}'s overrun.",
            fire::signed(drm),
            m.name
        ));
    }
}

/// Step 2: each towed gun and LATW in the hex that has not acted fires at the first
/// overrunner, against the armour it shows.
fn guns_fire_back(s: &mut LhyState, enemy: &str, there: &[Unit], movers: &[Unit], h: Hex) {
    let label = s.name_of(h);
    let first = movers.first().map(|m| m.name.clone());
    for e in there
        .iter()
        .filter(|e| matches!(e.kind, Kind::Gun | Kind::Latw) && e.done.is_none())
    {
        let Some(target) = first.as_ref().and_then(|n| s.unit(n)).cloned() else {
            break;
        };
        let v = s.values(e);
        let tv = s.values(&target);
        let armour = if fire::in_front(s, &target, h) {
            tv.av
        } else {
            tv.aev
        };
        let drm = v.atv - armour;
        fire::place(
            s,
            Shot {
                kind: FireKind::AntiTank,
                hex: h,
                drm,
                targets: vec![target.name.clone()],
            },
            &e.name,
            enemy,
            false,
        );
        if let Some(x) = s.unit_mut(&e.name) {
            x.done = Some(Done::Fire);
        }
        s.public(format!(
            "{label}: {} fires at {} as it overruns: ATDRM {}.",
            e.name,
            target.name,
            fire::signed(drm)
        ));
    }
}

/// Step 3: the defender best at close defence that may still act closes with the AFV.
fn close_with(s: &mut LhyState, enemy: &str, there: &[Unit], afv: &str, h: Hex) {
    let label = s.name_of(h);
    let best = there
        .iter()
        .filter(|e| e.done.is_none() && !e.disrupted())
        .filter_map(|e| close_defence(s, e).map(|v| (v, e.name.clone())))
        .max_by_key(|(v, _)| *v);
    if let Some((v, by)) = best {
        fire::place(
            s,
            Shot {
                kind: FireKind::AntiTank,
                hex: h,
                drm: v,
                targets: vec![afv.to_string()],
            },
            &by,
            enemy,
            false,
        );
        if let Some(x) = s.unit_mut(&by) {
            x.done = Some(Done::Fire);
        }
        s.public(format!(
            "{label}: {by} closes with {afv}: ATDRM {} (close defence).",
            fire::signed(v)
        ));
    }
}

/// §10.4.5 step 3: the unmodified ATDRM a defender may place, if it may.
pub fn close_defence(s: &LhyState, e: &Unit) -> Option<i32> {
    let nation = s.side(&e.side).map(|x| x.nation.as_str()).unwrap_or("");
    let r = &s.data.rules;
    let late = s.date > r.close_defence_german_after.int() as u32;
    match (nation, e.kind) {
        ("germany", Kind::Squad) if late => Some(r.close_defence_german_squad.int()),
        ("germany", Kind::Section | Kind::Mg) if late => Some(r.close_defence_other.int()),
        ("germany", _) => None,
        (_, Kind::Squad) => Some(r.close_defence_other.int()),
        _ => None,
    }
}
