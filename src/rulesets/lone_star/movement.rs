//! Moving a unit across the table: the allowance with its modifiers (line, rough, road,
//! sidestep, walls, fords), the walk along the ordered path with hidden enemies revealed at
//! the exact point where the mover comes within spotting range, charges into melee, routs,
//! disengaging and windwagons under sail. It reads no orders and tests no morale.

use crate::board::tabletop::{Pt, bearing, dist, heading_diff, normalize, segments_intersect};
use crate::board::terrain::Area;

use crate::rulesets::kit::grammar::tenths;

use super::data::{Arm, Rules};
use super::state::{Form, State, Unit, gap_between, stands_at};

pub(super) const STEP: f64 = 0.25;

fn at(p: Pt) -> String {
    format!("{},{}", tenths(p.x), tenths(p.y))
}

/// The unit's allowance this move: its rate (mounted rate when mounted), −3" in line (−4"
/// mounted), 2" in square; a charge or rout always uses the full column allowance (L6, L12).
pub fn allowance(state: &State, u: &Unit, full_column: bool) -> f64 {
    let r = &state.data.rules;
    let base = if u.mounted {
        u.mounted_move.unwrap_or(u.move_rate)
    } else {
        u.move_rate
    };
    if full_column {
        return base;
    }
    match u.form {
        Form::Line if u.mounted => base - r.cavalry_line_penalty.get(),
        Form::Line => base - r.line_penalty.get(),
        Form::Square => r.square_move.get(),
        _ => base,
    }
}

/// How a walk ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Walked {
    pub moved: f64,
    /// Hidden enemies revealed on the way, with where the mover stood.
    pub revealed: Vec<String>,
    /// Why it stopped short, if it did.
    pub stopped: Option<String>,
}

/// Whether the whole path runs on a road (L6: +⅓, cavalry +¼).
fn all_on_road(state: &State, from: Pt, path: &[Pt]) -> bool {
    let roads: Vec<&Area> = state
        .ground
        .iter()
        .filter(|g| g.is("road"))
        .map(|g| &g.area)
        .collect();
    if roads.is_empty() {
        return false;
    }
    let mut a = from;
    for b in path {
        let n = (dist(a, *b) / STEP).ceil().max(1.0) as usize;
        for k in 0..=n {
            let t = k as f64 / n as f64;
            let p = Pt::new(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
            if !roads.iter().any(|r| r.contains(p)) {
                return false;
            }
        }
        a = *b;
    }
    true
}

/// Walks `name` along `path` with `budget` inches, paying terrain as it goes. `sidestep`
/// halves the rate on every leg that runs more than 45° off the kept facing (R46: each leg is
/// judged, not only the first); `target` (a charge) ends the walk in contact with that enemy. Hidden
/// enemies are revealed the moment the mover comes within spotting range, and the mover halts
/// there (R10). A unit may pass through friends but never end on one, nor enter an enemy.
pub fn walk(
    state: &mut State,
    name: &str,
    path: &[Pt],
    mut budget: f64,
    sidestep: bool,
    target: Option<&str>,
    keep_facing: Option<f64>,
) -> Walked {
    let r = state.data.rules.clone();
    let u0 = state.unit(name).expect("unit").clone();
    if all_on_road(state, u0.pos, path) {
        let bonus = if u0.arm == Arm::Cavalry {
            r.cavalry_road_bonus.get()
        } else {
            r.road_bonus.get()
        };
        budget *= 1.0 + bonus;
    }
    let mover = Mover {
        name,
        target,
        r: &r,
        u0: &u0,
        leaving_river: u0.river > 0,
    };
    let mut walked = Walked {
        moved: 0.0,
        revealed: vec![],
        stopped: None,
    };
    let mut pace = Pace {
        pos: u0.pos,
        facing: u0.facing,
        budget,
    };
    'legs: for &goal in path {
        let heading = bearing(pace.pos, goal);
        pace.facing = keep_facing.unwrap_or(heading);
        let sidestep_leg =
            sidestep && keep_facing.is_some_and(|f| heading_diff(f, heading).abs() > 45.0);
        loop {
            let left = dist(pace.pos, goal);
            if left < 1e-6 {
                break;
            }
            let step = left.min(STEP);
            let next = pace.pos.offset(heading, step);
            if !one_step(
                state,
                &mover,
                &mut pace,
                &mut walked,
                next,
                step,
                sidestep_leg,
            ) {
                break 'legs;
            }
        }
    }
    let u = state.unit_mut(name);
    u.pos = pace.pos;
    u.facing = normalize(pace.facing);
    // Said, or the log names one spot ("stops in the ford at …") and the table another.
    if let Some(other) = settle(state, name, target) {
        let p = at(state.unit(name).expect("unit").pos);
        let set_back = format!("set back to {p}, clear of {other}, R11");
        walked.stopped = Some(match walked.stopped.take() {
            Some(why) => format!("{why}; {set_back}"),
            None => set_back,
        });
    }
    walked
}

/// Who walks, and what holds for the whole walk.
struct Mover<'a> {
    name: &'a str,
    /// The enemy a charge ends in contact with.
    target: Option<&'a str>,
    r: &'a Rules,
    /// The mover as it stood before the walk.
    u0: &'a Unit,
    /// It began the walk in a river (it stops on leaving it).
    leaving_river: bool,
}

/// A walk under way: where the mover stands and faces, and the inches it has left.
struct Pace {
    pos: Pt,
    facing: f64,
    budget: f64,
}

/// One step of a walk to `next`, `step` inches on: whether the walk goes on. A stop says
/// why in `walked`, in the order the rules check them: the table edge, the allowance spent,
/// a river, an enemy or smoke in the way; after the step, leaving a river, sighting a hidden
/// enemy, or contact with the charge's target.
fn one_step(
    state: &mut State,
    m: &Mover,
    pace: &mut Pace,
    walked: &mut Walked,
    next: Pt,
    step: f64,
    sidestep_leg: bool,
) -> bool {
    let name = m.name;
    if next.x < 0.0 || next.y < 0.0 || next.x > state.width || next.y > state.height {
        walked.stopped = Some("the table edge".into());
        return false;
    }
    let cost = step_cost(state, m.r, pace.pos, next, step, sidestep_leg);
    if cost > pace.budget + 1e-9 {
        walked
            .stopped
            .get_or_insert_with(|| "its movement is spent".into());
        return false;
    }
    if stops_at_river(state, m, pace, walked, next, step) {
        return false;
    }
    if let Some(why) = barred(state, m, pace, next) {
        walked.stopped = Some(why);
        return false;
    }
    pace.pos = next;
    pace.budget -= cost;
    walked.moved += step;
    {
        let u = state.unit_mut(name);
        u.pos = pace.pos;
        u.facing = pace.facing;
    }
    if m.leaving_river
        && !state
            .ground
            .iter()
            .any(|g| g.is("river") && g.area.contains(pace.pos))
    {
        state.unit_mut(name).river = 0;
        walked.stopped = Some(format!("it stops on leaving the river at {}", at(pace.pos)));
        return false;
    }
    let seen = reveal_near(state, name);
    if !seen.is_empty() {
        walked.revealed.extend(seen);
        walked.stopped = Some(format!(
            "it halts at {} on sighting the enemy",
            at(pace.pos)
        ));
        return false;
    }
    if let Some(t) = m.target {
        let me = state.unit(name).expect("unit");
        let them = state.unit(t).expect("target");
        if state.gap(me, them) <= 0.01 {
            return false;
        }
    }
    true
}

/// The inches a step from `pos` to `next` costs: rough going, a sidestep, walls crossed.
fn step_cost(state: &State, r: &Rules, pos: Pt, next: Pt, step: f64, sidestep_leg: bool) -> f64 {
    let mut cost = step;
    if state.in_area("woods", next)
        || state.in_area("rough", next)
        || state.in_area("crater", next)
        || state.in_area("farm", next)
    {
        cost /= r.rough_factor.get();
    }
    if sidestep_leg {
        cost /= r.sidestep_factor.get();
    }
    for g in state.ground.iter().filter(|g| g.is("wall")) {
        if g.line()
            .windows(2)
            .any(|w| segments_intersect(w[0], w[1], pos, next))
            && !state.in_area("crater", next)
        {
            cost += r.obstacle_cost.get();
        }
    }
    cost
}

/// Rivers: only at a ford; the unit stops in the river, and stops again on leaving. Whether
/// the walk stops here (mounted cavalry rides through a ford).
fn stops_at_river(
    state: &mut State,
    m: &Mover,
    pace: &mut Pace,
    walked: &mut Walked,
    next: Pt,
    step: f64,
) -> bool {
    let river_crossed = state.ground.iter().filter(|g| g.is("river")).any(|g| {
        g.line()
            .windows(2)
            .any(|w| segments_intersect(w[0], w[1], pace.pos, next))
    });
    if !river_crossed {
        return false;
    }
    if !state.in_area("ford", next) {
        walked.stopped = Some(format!("the river at {} has no ford there", at(next)));
        return true;
    }
    if m.u0.arm != Arm::Cavalry || !m.u0.mounted {
        pace.pos = next;
        walked.moved += step;
        state.unit_mut(m.name).river = 1;
        walked.stopped = Some(format!("it stops in the ford at {}", at(next)));
        return true;
    }
    false
}

/// Never into an enemy (other than the charge target) nor through smoke on a charge: why the
/// step to `next` is barred, if it is.
fn barred(state: &State, m: &Mover, pace: &Pace, next: Pt) -> Option<String> {
    let me = state.unit(m.name).expect("unit");
    let here = stands_at(me, next, pace.facing, me.form);
    let size = m.r.stand_size.get();
    let now_here = stands_at(me, pace.pos, pace.facing, me.form);
    let blocked = state.units.iter().find(|o| {
        let theirs = state.stands(o);
        o.alive()
            && o.name != m.name
            && o.side != me.side
            && !o.hidden
            && o.on_ground()
            && Some(o.name.as_str()) != m.target
            && gap_between(&here, &theirs, size) < 0.01
            // Stepping away from an enemy in contact is never barred.
            && gap_between(&here, &theirs, 0.0) <= gap_between(&now_here, &theirs, 0.0)
    });
    if let Some(b) = blocked {
        return Some(format!("{} bars the way", b.name));
    }
    if m.target.is_some() {
        let smoke_r = m.r.smoke_diameter.get() / 2.0;
        if state.smoke.iter().any(|s| dist(s.at, next) <= smoke_r) {
            return Some("no charge into smoke (L12)".into());
        }
    }
    None
}

/// L6: no unit may end its move overlapping another. Backs the unit off along its facing
/// until clear (the "reasonable action" of R11).
/// Returns the unit it had to clear, if any.
fn settle(state: &mut State, name: &str, target: Option<&str>) -> Option<String> {
    let size = state.data.rules.stand_size.get();
    let mut cleared = None;
    for _ in 0..40 {
        let me = state.unit(name).expect("unit");
        let mine = state.stands(me);
        // Bases overlap when two stands' centres are closer than a stand's width.
        let overlap = state.units.iter().find(|o| {
            o.alive()
                && o.on_ground()
                && me.on_ground()
                && o.name != name
                && Some(o.name.as_str()) != target
                && gap_between(&mine, &state.stands(o), 0.0) < size * 0.99
        });
        let Some(other) = overlap else {
            return cleared;
        };
        cleared = Some(other.name.clone());
        // Straight away from the unit it overlaps.
        let away = if dist(other.pos, me.pos) < 1e-9 {
            normalize(me.facing + 180.0)
        } else {
            bearing(other.pos, me.pos)
        };
        let p = me.pos.offset(away, STEP);
        state.unit_mut(name).pos =
            Pt::new(p.x.clamp(0.0, state.width), p.y.clamp(0.0, state.height));
    }
    cleared
}

/// Hidden enemies of `mover` now within spotting range and sight are revealed (L8, R10).
pub fn reveal_near(state: &mut State, mover: &str) -> Vec<String> {
    let m = state.unit(mover).expect("unit").clone();
    let mut out = Vec::new();
    let mine = state.stands(&m);
    let size = state.data.rules.stand_size.get();
    let names: Vec<String> = state
        .units
        .iter()
        .filter(|h| h.hidden && h.alive() && h.side != m.side)
        .map(|h| h.name.clone())
        .collect();
    for h in names {
        let hu = state.unit(&h).expect("unit").clone();
        let range = if state.area_cover(&hu) {
            state.data.rules.spotting_cover.get()
        } else {
            state.data.rules.spotting_open.get()
        };
        let gap = gap_between(&mine, &state.stands(&hu), size);
        if gap <= range && state.sight(m.pos, hu.pos) {
            state.unit_mut(&h).hidden = false;
            state.say(format!(
                "{h} is revealed at {} as {mover} comes within {}\" of it (at {}).",
                at(hu.pos),
                tenths(gap),
                at(m.pos)
            ));
            out.push(h);
        }
    }
    out
}

/// The point `inches` straight away from the nearest visible enemy (routs, disengaging,
/// retreats: R8).
pub fn away_from_enemy(state: &State, u: &Unit, inches: f64) -> (Pt, f64) {
    let nearest = state
        .enemies_of(u)
        .filter(|e| !e.hidden)
        .min_by(|a, b| dist(a.pos, u.pos).total_cmp(&dist(b.pos, u.pos)));
    let heading = match nearest {
        Some(e) => bearing(e.pos, u.pos),
        None => normalize(u.facing + 180.0),
    };
    (u.pos.offset(heading, inches), heading)
}

/// A full column move away from the enemy; off the table, the unit is gone (routed off).
pub fn flee(state: &mut State, name: &str, why: &str) {
    let u = state.unit(name).expect("unit").clone();
    let inches = allowance(state, &u, true);
    let (to, heading) = away_from_enemy(state, &u, inches);
    {
        let m = state.unit_mut(name);
        m.form = Form::Column;
        m.melee.clear();
    }
    if to.x < 0.0 || to.y < 0.0 || to.x > state.width || to.y > state.height {
        state.unit_mut(name).gone = Some("routed off the table".into());
        state.say(format!("{name} {why} and runs off the table."));
        return;
    }
    let w = walk(state, name, &[to], inches * 2.0, false, None, Some(heading));
    let pos = state.unit(name).expect("unit").pos;
    state.say(format!(
        "{name} {why}: {}\" away from the enemy, now at {}{}.",
        tenths(w.moved),
        at(pos),
        w.stopped.map(|s| format!(" ({s})")).unwrap_or_default()
    ));
}
