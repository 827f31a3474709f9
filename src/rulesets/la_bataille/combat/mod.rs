//! The charts at work: morale modifiers of the three morale charts, the Roll to Stand, mêlée
//! values with both mêlée modifier charts, odds and the Assaut et Mêlée Chart, the Fire Chart,
//! and casualties (the last two in `fire`). Everything reads its numbers from the data; no
//! procedure lives here.

use crate::board::hex::Hex;
use crate::rulesets::kit::roster::Roster;

use super::data::{Arm, MeleeResult, RulesetData};
use super::field;
use super::roll::{self, Check, Roller};
use super::state::{Cohesion, Fatigue, Formation, LbState, Unit};

mod fire;

pub use fire::*;

pub type Mods = Vec<(i32, String)>;

fn add(m: &mut Mods, v: i32, why: impl Into<String>) {
    if v != 0 {
        m.push((v, why.into()));
    }
}

/// A stack checks on its worst morale rating (R2).
pub fn stack_morale(units: &[&Unit]) -> i32 {
    units.iter().map(|u| u.morale as i32).min().unwrap_or(0)
}

fn half_strength(units: &[&Unit]) -> bool {
    let (now, full): (u32, u32) = units
        .iter()
        .fold((0, 0), |a, u| (a.0 + u.increments, a.1 + u.full));
    now * 2 <= full
}

fn old_guard(st: &LbState, units: &[&Unit]) -> bool {
    units
        .iter()
        .any(|u| st.data.class(&u.class).is_some_and(|c| c.old_guard))
}

/// The best leader rating with these units.
pub fn leader_rating(st: &LbState, units: &[&Unit]) -> Option<u32> {
    units
        .iter()
        .flat_map(|u| st.leaders_with(&u.name))
        .map(|l| l.rating)
        .max()
}

/// A leader's morale modifier: `per_point` for each rating point of the best leader with these
/// units (ruleset.toml: "per leader rating point"), with the words for the log (R16).
pub fn leader_morale(st: &LbState, units: &[&Unit], per_point: i32) -> Option<(i32, String)> {
    leader_rating(st, units).map(|r| (per_point * r as i32, format!("leader rated {r}")))
}

/// The leader mêlée modifier of the best leader with these units (R16).
pub fn leader_drm(st: &LbState, units: &[&Unit]) -> i32 {
    leader_rating(st, units).map_or(0, |r| {
        let t = st.data.leaders.melee.get();
        t[(r.max(1) as usize - 1).min(t.len() - 1)]
    })
}

/// The formation that speaks for a stack on the charts: the first unit's (R2).
fn formation(units: &[&Unit]) -> Formation {
    units.first().map_or(Formation::Line, |u| u.formation)
}

fn disordered(units: &[&Unit]) -> bool {
    units.iter().any(|u| u.cohesion == Cohesion::Disordered)
}

/// Attacker Morale Check modifiers of an assaulting stack. `distance`: the Number Marker that
/// counts (none for units locked in a firefight, p.2 NOTE).
pub fn attacker_mods(
    st: &LbState,
    stack: &[&Unit],
    distance: Option<u32>,
    targets: &[Hex],
) -> Mods {
    let c = &st.data.attacker_morale;
    let mut m = Mods::new();
    if let Some(d) = distance {
        let v = match d {
            0 | 1 => c.distance_1.int(),
            2 => c.distance_2.int(),
            3 => c.distance_3.int(),
            _ => c.distance_4_plus.int(),
        };
        add(&mut m, v, format!("distance {d}"));
    }
    match formation(stack) {
        Formation::Column => add(&mut m, c.column.int(), "column"),
        Formation::Line => add(&mut m, c.line.int(), "line"),
        Formation::Skirmish => add(&mut m, c.skirmish.int(), "skirmish order"),
        _ => {}
    }
    if disordered(stack) {
        add(&mut m, c.disordered.int(), "disordered");
    }
    if old_guard(st, stack) {
        add(&mut m, c.old_guard.int(), "Old Guard");
    }
    if let Some((v, why)) = leader_morale(st, stack, c.leader.int()) {
        add(&mut m, v, why);
    }
    if half_strength(stack) {
        add(&mut m, c.half_strength.int(), "half strength");
    }
    let from = stack.first().map(|u| u.hex);
    let defenders: Vec<&Unit> = targets
        .iter()
        .flat_map(|h| st.at(*h))
        .filter(|u| u.fighting())
        .collect();
    if let Some(from) = from
        && !defenders.is_empty()
        && defenders.iter().all(|d| field::flank_or_rear(st, d, from))
    {
        add(&mut m, c.flank_rear.int(), "against flank or rear");
    }
    for h in targets {
        match st.terrain_at(*h) {
            "village" => add(&mut m, c.into_village.int(), "into a village"),
            "woods" => add(&mut m, c.into_woods.int(), "into woods"),
            _ => {}
        }
    }
    m
}

/// Defender Morale Check modifiers of a defending stack attacked by `attackers` (also the
/// Huzzah's second check of the former attackers, p.2 step 5a).
pub fn defender_mods(st: &LbState, stack: &[&Unit], attackers: &[&Unit]) -> Mods {
    let c = &st.data.defender_morale;
    let mut m = Mods::new();
    match formation(stack) {
        Formation::Line => add(&mut m, c.line.int(), "line"),
        Formation::Column => add(&mut m, c.column.int(), "column"),
        Formation::Square | Formation::RallyingSquare => add(&mut m, c.square.int(), "square"),
        Formation::Skirmish => add(&mut m, c.skirmish.int(), "skirmish order"),
        _ => {}
    }
    if disordered(stack) {
        add(&mut m, c.disordered.int(), "disordered");
    }
    if old_guard(st, stack) {
        add(&mut m, c.old_guard.int(), "Old Guard");
    }
    if let Some((v, why)) = leader_morale(st, stack, c.leader.int()) {
        add(&mut m, v, why);
    }
    if half_strength(stack) {
        add(&mut m, c.half_strength.int(), "half strength");
    }
    if let Some(h) = stack.first().map(|u| u.hex) {
        match st.terrain_at(h) {
            "village" => add(&mut m, c.village.int(), "in a village"),
            "woods" => add(&mut m, c.woods.int(), "in woods"),
            "hill" => add(&mut m, c.hill.int(), "on a hill"),
            _ => {}
        }
        if attackers
            .iter()
            .filter(|a| a.hex.distance(h) == 1)
            .any(|a| stack.iter().all(|d| field::flank_or_rear(st, d, a.hex)))
        {
            add(&mut m, c.flank_rear.int(), "attacked in flank or rear");
        }
    }
    if old_guard(st, attackers) {
        add(&mut m, c.old_guard_attacker.int(), "the Old Guard attacks");
    }
    let mine: u32 = stack.iter().map(|u| u.increments).sum();
    let theirs: u32 = attackers.iter().map(|u| u.increments).sum();
    if theirs >= 2 * mine.max(1) {
        add(&mut m, c.outnumbered.int(), "outnumbered 2 to 1");
    }
    m
}

/// Roll to Stand vs. Cavalry modifiers of a target stack charged by `chargers`.
pub fn stand_mods(st: &LbState, stack: &[&Unit], chargers: &[&Unit]) -> Mods {
    let c = &st.data.roll_to_stand;
    let mut m = Mods::new();
    match formation(stack) {
        Formation::Line => add(&mut m, c.line.int(), "line"),
        Formation::Column => add(&mut m, c.column.int(), "column"),
        Formation::Square => add(&mut m, c.square.int(), "square"),
        Formation::RallyingSquare => add(&mut m, c.rallying_square.int(), "rallying square"),
        Formation::Skirmish => add(&mut m, c.skirmish.int(), "skirmish order"),
        Formation::Limbered | Formation::Unlimbered => {}
    }
    if stack.iter().all(|u| u.arm == Arm::Artillery) {
        add(&mut m, c.artillery.int(), "artillery alone");
    }
    if disordered(stack) {
        add(&mut m, c.disordered.int(), "disordered");
    }
    if old_guard(st, stack) {
        add(&mut m, c.old_guard.int(), "Old Guard");
    }
    if let Some((v, why)) = leader_morale(st, stack, c.leader.int()) {
        add(&mut m, v, why);
    }
    if half_strength(stack) {
        add(&mut m, c.half_strength.int(), "half strength");
    }
    if let Some(h) = stack.first().map(|u| u.hex) {
        match st.terrain_at(h) {
            "village" => add(&mut m, c.village.int(), "in a village"),
            "woods" => add(&mut m, c.woods.int(), "in woods"),
            _ => {}
        }
        if chargers
            .iter()
            .any(|a| stack.iter().all(|d| field::flank_or_rear(st, d, a.hex)))
        {
            add(&mut m, c.flank_rear.int(), "charged in flank or rear");
        }
    }
    if chargers
        .iter()
        .any(|u| st.data.class(&u.class).is_some_and(|c| c.heavy))
    {
        add(&mut m, c.heavy_cavalry.int(), "heavy cavalry");
    }
    m
}

/// A morale check of one stack, logged in the game's words.
pub fn morale_check(
    st: &mut LbState,
    r: &mut dyn Roller,
    label: String,
    stack: &[String],
    mods: &Mods,
) -> Check {
    let units: Vec<Unit> = stack.iter().filter_map(|n| st.unit(n).cloned()).collect();
    let refs: Vec<&Unit> = units.iter().collect();
    let rating = stack_morale(&refs);
    let n = st.data.rules.morale_dice.int().max(1) as u32;
    let c = roll::check(r, label.clone(), n, rating, roll::sum(mods));
    st.say(format!(
        "{label}: {} ({})",
        c.show(),
        roll::show_modifiers(mods)
    ));
    c
}

/// A failed check: Good Order units Disorder, Disordered ones Rout (p.1). Returns the units
/// that routed (their rout movement is the caller's).
pub fn fail(st: &mut LbState, units: &[String]) -> Vec<String> {
    let mut routed = Vec::new();
    for n in units {
        let Some(u) = st.unit_mut(n) else { continue };
        if !u.fighting() {
            continue;
        }
        match u.cohesion {
            Cohesion::GoodOrder => {
                u.cohesion = Cohesion::Disordered;
            }
            _ => {
                u.cohesion = Cohesion::Routed;
                routed.push(n.clone());
            }
        }
    }
    let (dis, rout): (Vec<&String>, Vec<&String>) = units.iter().partition(|n| !routed.contains(n));
    if !dis.is_empty() {
        st.say(format!(
            "{} {} Disordered.",
            join(&dis),
            if dis.len() == 1 { "is" } else { "are" }
        ));
    }
    if !rout.is_empty() {
        st.say(format!("{} rout.", join(&rout)));
    }
    routed
}

pub fn join<S: AsRef<str>>(v: &[S]) -> String {
    v.iter().map(|s| s.as_ref()).collect::<Vec<_>>().join(", ")
}

/// The mêlée value of one unit in an infantry assault (Mêlée Modifiers for Infantry and
/// Artillery). `attacking`: on the assaulting side; `flank`: its stack attacks through the
/// defenders' flank or rear.
pub fn infantry_melee_value(st: &LbState, u: &Unit, attacking: bool, flank: bool) -> f64 {
    let c = &st.data.melee_infantry;
    let Some(class) = st.data.class(&u.class) else {
        return 0.0;
    };
    if u.routed() {
        return 0.0;
    }
    let mut v = class.melee.get() * f64::from(u.increments);
    if attacking {
        match u.formation {
            Formation::Column => v *= c.attacker_column.get(),
            Formation::Line => v *= c.attacker_line.get(),
            _ => {}
        }
        if flank {
            v *= c.flank_rear.get();
        }
    } else {
        if u.formation.is_square() {
            v *= c.square_defending.get();
        }
        if u.arm == Arm::Cavalry {
            v *= c.cavalry_defending.get();
        }
        v *= st.data.terrain(st.terrain_at(u.hex)).melee.get();
    }
    if u.formation == Formation::Skirmish {
        v *= c.skirmish.get();
    }
    if u.cohesion == Cohesion::Disordered {
        v *= c.disordered.get();
    }
    if class.old_guard {
        v *= c.old_guard.get();
    }
    if u.arm == Arm::Artillery {
        v *= c.artillery.get();
    }
    v
}

/// The mêlée value of a charging unit against `targets` (Mêlée Modifiers for Cavalry).
pub fn cavalry_melee_value(st: &LbState, u: &Unit, targets: &[&Unit]) -> f64 {
    let c = &st.data.melee_cavalry;
    let Some(class) = st.data.class(&u.class) else {
        return 0.0;
    };
    if u.routed() {
        return 0.0;
    }
    let mut v = class.melee.get() * f64::from(u.increments);
    // The target that protects the stack best sets the formation multiplier (R2).
    let vs = targets
        .iter()
        .map(|t| match (t.arm, t.formation) {
            (Arm::Artillery, _) => c.vs_artillery.get(),
            (_, Formation::Square) => c.vs_square.get(),
            (_, Formation::RallyingSquare) => c.vs_rallying_square.get(),
            (_, Formation::Line) if t.arm == Arm::Infantry => c.vs_line.get(),
            (_, Formation::Skirmish) => c.vs_skirmish.get(),
            (Arm::Infantry, _) => c.vs_column.get(),
            _ => 1.0,
        })
        .fold(f64::INFINITY, f64::min);
    if vs.is_finite() {
        v *= vs;
    }
    if class.heavy
        && targets
            .iter()
            .any(|t| t.arm == Arm::Cavalry && st.data.class(&t.class).is_some_and(|k| !k.heavy))
    {
        v *= c.heavy_vs_light.get();
    }
    if u.cohesion == Cohesion::Disordered {
        v *= c.disordered.get();
    }
    match u.fatigue {
        Fatigue::Tired => v *= c.tired.get(),
        Fatigue::Exhausted => v *= c.exhausted.get(),
        Fatigue::Fresh => {}
    }
    if !targets.is_empty() && targets.iter().all(|t| field::flank_or_rear(st, t, u.hex)) {
        v *= c.flank_rear.get();
    }
    if let Some(t) = targets.first() {
        match st.terrain_at(t.hex) {
            "village" => v *= c.defender_village.get(),
            "woods" => v *= c.defender_woods.get(),
            _ => {}
        }
    }
    v
}

/// The defending value of units charged by cavalry: printed value, disorder and terrain.
pub fn charged_value(st: &LbState, u: &Unit) -> f64 {
    let Some(class) = st.data.class(&u.class) else {
        return 0.0;
    };
    if u.routed() {
        return 0.0;
    }
    let mut v = class.melee.get() * f64::from(u.increments);
    if u.cohesion == Cohesion::Disordered {
        v *= st.data.melee_infantry.disordered.get();
    }
    if u.arm == Arm::Cavalry {
        match u.fatigue {
            Fatigue::Tired => v *= st.data.melee_cavalry.tired.get(),
            Fatigue::Exhausted => v *= st.data.melee_cavalry.exhausted.get(),
            Fatigue::Fresh => {}
        }
    }
    v
}

/// The odds column for attacker and defender mêlée values (R15: below the first column reads
/// as the first; a defender of no value as the last).
pub fn odds_column(data: &RulesetData, atk: f64, def: f64) -> usize {
    let ratios = data.assaut_et_melee.ratios.get();
    if def <= 0.0 {
        return ratios.len() - 1;
    }
    let r = atk / def;
    ratios.iter().rposition(|q| r >= *q - 1e-9).unwrap_or(0)
}

/// `3:2`, `1:1`, the column's printed label.
pub fn column_label(data: &RulesetData, col: Option<usize>) -> String {
    match col {
        Some(c) => data.assaut_et_melee.columns.get()[c].clone(),
        None => "Firefight".into(),
    }
}

/// The column after `left` and `right` shifts, kept on the chart.
pub fn shifted(data: &RulesetData, col: usize, left: u32, right: u32) -> usize {
    let last = data.assaut_et_melee.columns.get().len() as i64 - 1;
    (col as i64 - i64::from(left) + i64::from(right)).clamp(0, last) as usize
}

/// The chart's result for a column (`None`: the Firefight column) and a modified roll.
pub fn melee_result(data: &RulesetData, col: Option<usize>, roll: i32) -> MeleeResult {
    let chart = &data.assaut_et_melee;
    let (lo, hi) = (chart.lowest.int(), chart.highest.int());
    let row = (roll.clamp(lo, hi) - lo) as usize;
    let text = match col {
        Some(c) => chart.results.get()[c][row].clone(),
        None => chart.firefight.get()[row].clone(),
    };
    MeleeResult::read(&text).unwrap_or(MeleeResult::Blank)
}

/// A cavalry charge's result (R38): the chart's charge rows for the column and modified roll.
pub fn charge_result(data: &RulesetData, col: usize, roll: i32) -> MeleeResult {
    let chart = &data.assaut_et_melee;
    let (lo, hi) = (chart.lowest.int(), chart.highest.int());
    let row = (roll.clamp(lo, hi) - lo) as usize;
    let text = chart.charge.get()[col][row].clone();
    MeleeResult::read(&text).unwrap_or(MeleeResult::Blank)
}
