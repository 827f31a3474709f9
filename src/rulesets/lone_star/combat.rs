//! The dice of Lone Star: strength ÷ 10 rounded up → d6, ⌊pips/2⌋ hits and paired 1s; the hit
//! track and random casualties with the leader/heavy-weapon save, the Colors and the
//! flamethrower accident; the d10 morale test. Every die is rolled through the dice handle
//! with a label in the game's words. It decides no targets and moves nothing.

use crate::dice::{Dice, Faces};

use super::data::{Arm, Heavy, Strength};
use super::state::{Fig, Form, State, Unit};

/// The range band of an attack (L6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Band {
    Melee,
    Short,
    Long,
}

impl Band {
    pub fn word(self) -> &'static str {
        match self {
            Band::Melee => "melee",
            Band::Short => "short range",
            Band::Long => "long range",
        }
    }
}

/// Dice for a total strength: ÷ divisor rounded up; nothing at 0 or below (L6).
pub fn dice_for(total: i32, divisor: i32) -> u32 {
    if total <= 0 {
        0
    } else {
        (total as u32).div_ceil(divisor as u32)
    }
}

/// Hits of a standard attack: ⌊pips/2⌋ a die, and two 1s pair up for one hit (L6).
pub fn standard_hits(pips: &[u32]) -> u32 {
    let ones = pips.iter().filter(|p| **p == 1).count() as u32;
    pips.iter().map(|p| p / 2).sum::<u32>() + ones / 2
}

fn card(state: &State, f: Fig) -> &Strength {
    let s = &state.data.figures;
    match f {
        Fig::Trooper => &s.trooper,
        Fig::Leader => &s.leader,
        Fig::Grenadier => &s.grenadier,
        Fig::Heavy(Heavy::Lmg) => &s.lmg,
        Fig::Heavy(Heavy::Hmg) => &s.hmg,
        Fig::Heavy(Heavy::Flamethrower) => &s.flamethrower,
        Fig::Heavy(Heavy::Mortar) => &s.mortar,
        Fig::Colors => &s.colors,
        Fig::RedCross => &s.red_cross,
    }
}

/// The unit's summed strength in a band: every stand with a strength there takes part.
/// Mounted cavalry's heavy weapons do not shoot, and fight in melee as troopers −1 (L12); a
/// flamethrower without shots has abandoned the weapon and fights "like standard troops, but
/// with one less strength point at all ranges" (L12): a trooper's strength −1, not its own.
/// A mortar out of rounds likewise (the same L12 sentence names "flame throwers or mortars";
/// R50).
pub fn strength(state: &State, u: &Unit, band: Band) -> i32 {
    u.figures
        .iter()
        .map(|f| {
            let s = card(state, *f);
            let v = match band {
                Band::Melee => s.melee.int(),
                Band::Short => s.short.int(),
                Band::Long => s.long.int(),
            };
            match f {
                Fig::Heavy(_) if u.mounted && band != Band::Melee => 0,
                Fig::Heavy(_) if u.mounted => state.data.figures.trooper.melee.int() - 1,
                Fig::Heavy(Heavy::Flamethrower) if u.flame_shots == 0 => out_of_ammo(state, band),
                Fig::Heavy(Heavy::Mortar) if u.mortar_rounds == 0 => out_of_ammo(state, band),
                _ => v,
            }
        })
        .sum()
}

/// R51: the strength that shoots over enemy units in the line of fire: the mortar team's
/// alone (`aim::fires_over`), the rest of the unit not shooting through them (L7).
pub fn over_strength(state: &State, u: &Unit, band: Band) -> i32 {
    let m = &state.data.figures.mortar;
    let v = match band {
        Band::Melee => 0,
        Band::Short => m.short.int(),
        Band::Long => m.long.int(),
    };
    v * u.count(Fig::Heavy(Heavy::Mortar)) as i32
}

/// R52: what the unit's flamethrowers add to `strength` in `band` — what a friendly unit in
/// the line of fire takes away (L7: no flamethrower shoots through friends). Nothing when
/// out of shots (the figure shoots as a trooper, L12), mounted (it does not shoot) or in
/// melee (no line of fire).
pub fn flame_strength(state: &State, u: &Unit, band: Band) -> i32 {
    let f = &state.data.figures.flamethrower;
    let v = match band {
        Band::Melee => return 0,
        Band::Short => f.short.int(),
        Band::Long => f.long.int(),
    };
    if u.flame_shots == 0 || u.mounted {
        return 0;
    }
    v * u.count(Fig::Heavy(Heavy::Flamethrower)) as i32
}

/// A heavy-weapon figure that abandoned its empty weapon: a trooper's strength −1 (L12).
fn out_of_ammo(state: &State, band: Band) -> i32 {
    let t = &state.data.figures.trooper;
    let trooper = match band {
        Band::Melee => t.melee.int(),
        Band::Short => t.short.int(),
        Band::Long => t.long.int(),
    };
    trooper + state.data.rules.hw_no_ammo.int()
}

/// The modifiers of an attack, each with its name for the log, all added to the total (L6–L12).
pub fn modifiers(state: &State, firer: &Unit, target: &Unit, band: Band) -> Vec<(String, i32)> {
    let r = &state.data.rules;
    let mut m = Vec::new();
    // L12: meleeing a halted windwagon, neither side gets any advantage or disadvantage (R38).
    if band == Band::Melee && (firer.arm == Arm::Windwagon || target.arm == Arm::Windwagon) {
        return m;
    }
    if firer.form == Form::Column && band != Band::Melee {
        m.push(("firer in column".into(), r.firer_column.int()));
    }
    // L6: "Shooting at a column gives a +7 modifier" — shooting only, like the firer's −10.
    if target.form == Form::Column && band != Band::Melee {
        m.push(("target in column".into(), r.target_column.int()));
    }
    if firer.river > 0 && band != Band::Melee {
        m.push(("firer in the river".into(), r.firer_in_river.int()));
    }
    if target.form == Form::Entrenched {
        let v = if state.area_cover(target) {
            // L12: "10 points total" entrenched in area cover (the cover is part of it).
            -10
        } else {
            r.target_entrenched.int()
        };
        m.push(("target entrenched".into(), v));
    }
    if target.form == Form::Occupying {
        m.push(("target in a building".into(), r.target_in_building.int()));
    }
    let inside = super::wagon_cover::inside_cover(state, target, firer.pos);
    if band != Band::Melee
        && let Some((w, v)) = inside
    {
        // R38: crew and passengers of a windwagon: its cover (ramp-types' front: double).
        m.push((w.into(), v));
    } else if band != Band::Melee
        && target.form != Form::Entrenched
        && target.form != Form::Occupying
    {
        let area = state.area_cover(target) || target.river > 0;
        let wall = state.wall_between(target, firer.pos)
            || super::wagon_cover::wagon_between(state, target, firer.pos);
        match (area, wall) {
            (true, true) => m.push(("double cover".into(), r.double_cover.int())),
            (true, false) | (false, true) => m.push(("cover".into(), r.cover.int())),
            _ => {}
        }
    }
    if band == Band::Melee && firer.arm == Arm::Cavalry && firer.mounted && firer.melee_new {
        m.push((
            "cavalry's first turn of melee".into(),
            r.cavalry_charge_bonus.int(),
        ));
    }
    if band == Band::Melee && target.arm == Arm::Cavalry && target.mounted && target.melee_new {
        m.push((
            "against charging cavalry".into(),
            r.cavalry_charge_enemy.int(),
        ));
    }
    if band != Band::Melee && firer.mounted {
        m.push(("shooting mounted".into(), r.mounted_shooting.int()));
    }
    if band != Band::Melee && target.mounted {
        m.push(("at mounted cavalry".into(), r.shooting_at_mounted.int()));
    }
    if band != Band::Melee && firer.ambushed_by.contains(&target.name) {
        m.push(("ambushed".into(), r.ambushed.int()));
    }
    if !target.form.all_round() && !state.in_front(target, firer.pos) {
        m.push(("flanking".into(), r.flanking.int()));
    }
    m
}

/// Rolls `n` d6 of a standard attack; returns the pips and the hits.
pub fn roll_standard(dice: &mut Dice, label: String, n: u32) -> (Vec<u32>, u32) {
    if n == 0 {
        return (vec![], 0);
    }
    let pips = dice.roll(label, Faces::d(6), n as usize);
    let hits = standard_hits(&pips);
    (pips, hits)
}

/// Crosses `hits` off the unit's track and removes the figures the track requires (L3, L6).
/// Returns the figures lost, in order.
pub fn take_hits(
    state: &mut State,
    name: &str,
    hits: u32,
    melee: bool,
    dice: &mut Dice,
) -> Vec<Fig> {
    let per = state.data.rules.hits_per_figure.get() as u32;
    let mut lost = Vec::new();
    {
        let u = state.unit_mut(name);
        u.hits += hits;
    }
    loop {
        let u = state.unit(name).expect("unit");
        // Guards walked off with prisoners: they are not casualties of the track.
        let lost_so_far = (u.start_figures - u.guards).saturating_sub(u.figures.len() as u32);
        if u.figures.is_empty() || u.hits < (lost_so_far + 1) * per {
            break;
        }
        let before = u.figures.len();
        lost.extend(casualty(state, name, melee, dice));
        if state.unit(name).expect("unit").figures.len() == before {
            break;
        }
    }
    lost
}

/// Figures lost without hits (gas, extra Colors casualties): the track is crossed down to
/// the new figure count (L6).
pub fn lose_without_hits(state: &mut State, name: &str, n: u32, dice: &mut Dice) -> Vec<Fig> {
    let per = state.data.rules.hits_per_figure.get() as u32;
    let mut lost = Vec::new();
    for _ in 0..n {
        if state.unit(name).expect("unit").figures.is_empty() {
            break;
        }
        lost.extend(casualty(state, name, false, dice));
    }
    let u = state.unit_mut(name);
    let gone = (u.start_figures - u.guards).saturating_sub(u.figures.len() as u32);
    u.hits = u.hits.max(gone * per);
    lost
}

fn remove(u: &mut Unit, f: Fig) -> Fig {
    let i = u.figures.iter().position(|x| *x == f).expect("present");
    u.figures.remove(i);
    u.lost_this_turn += 1;
    f
}

/// One casualty: a die over the figures picks one; a leader or heavy weapon saves unless the
/// save roll repeats its number (then a trooper dies instead); Colors are saved by troopers,
/// in melee up to three rolls; a flamethrower hit rolls for its accident (L6, L12, R5–R7).
pub fn casualty(state: &mut State, name: &str, melee: bool, dice: &mut Dice) -> Vec<Fig> {
    let u = state.unit(name).expect("unit").clone();
    let n = u.figures.len() as u32;
    if n == 0 {
        return vec![];
    }
    let turn = state.turn;
    let label =
        |what: &str| format!("turn {turn} casualty of {name}: {what} (d{n} over its figures)");
    let pick = dice.roll_one(label("which figure"), Faces::d(n));
    let fig = u.figures[(pick - 1) as usize];
    let troopers = u.count(Fig::Trooper);
    let mut lost = Vec::new();
    match fig {
        Fig::Leader | Fig::Heavy(_) if troopers > 0 => {
            let again = dice.roll_one(label("save roll"), Faces::d(n));
            let who = if again == pick { fig } else { Fig::Trooper };
            lost.push(remove(state.unit_mut(name), who));
            state.say(format!(
                "{name}: the die picked the {} ({pick}); save roll {again}: {}.",
                fig.word(),
                if again == pick {
                    format!("the {} is lost", fig.word())
                } else {
                    "a trooper dies instead".into()
                }
            ));
        }
        Fig::Colors if u.figures.len() > 1 => {
            let stand_in = |u: &Unit| {
                if u.count(Fig::Trooper) > 0 {
                    Some(Fig::Trooper)
                } else {
                    u.figures.iter().copied().find(|f| *f != Fig::Colors)
                }
            };
            if !melee {
                // Ranged: the Colors save automatically; a trooper (or, none left, another
                // figure) dies instead.
                let s = stand_in(&u).expect("more than the Colors");
                lost.push(remove(state.unit_mut(name), s));
                state.say(format!(
                    "{name}: the Colors are saved; a {} dies instead.",
                    s.word()
                ));
            } else {
                // R6: up to three saving rolls; each failure costs a figure; the third loses
                // the Colors.
                for k in 1..=3 {
                    let m = state.unit(name).expect("unit").figures.len() as u32;
                    let roll = dice.roll_one(
                        format!("turn {turn} {name} saving the Colors, roll {k} (d{m})"),
                        Faces::d(m),
                    );
                    let cur = state.unit(name).expect("unit").clone();
                    let colors_at = cur.figures.iter().position(|f| *f == Fig::Colors);
                    let failed = colors_at == Some((roll - 1) as usize);
                    if !failed {
                        state.say(format!("{name}: Colors save roll {k} is {roll}: saved."));
                        if k == 1 {
                            let s = stand_in(&cur).expect("more than the Colors");
                            lost.push(remove(state.unit_mut(name), s));
                        }
                        break;
                    }
                    if k == 3 {
                        lost.push(remove(state.unit_mut(name), Fig::Colors));
                        state.say(format!(
                            "{name}: Colors save roll 3 fails: the Colors are lost."
                        ));
                    } else if let Some(s) = stand_in(&cur) {
                        lost.push(remove(state.unit_mut(name), s));
                        state.say(format!(
                            "{name}: Colors save roll {k} is {roll}, the Colors' number: a {} falls.",
                            s.word()
                        ));
                    }
                }
            }
        }
        _ => {
            lost.push(remove(state.unit_mut(name), fig));
            state.say(format!("{name}: a {} falls (die {pick}).", fig.word()));
        }
    }
    if fig == Fig::Heavy(Heavy::Flamethrower) {
        lost.extend(flamethrower_accident(state, name, dice));
    }
    lost
}

/// L12: whenever the flamethrower figure is picked as a casualty, even if it saves, 1d6: on
/// 1–3 a 3d6 standard attack hits its own unit, ignoring cover, and the figure is lost.
fn flamethrower_accident(state: &mut State, name: &str, dice: &mut Dice) -> Vec<Fig> {
    let r = &state.data.rules;
    let (max, n) = (
        r.flamethrower_accident_max.get() as u32,
        r.flamethrower_accident_dice.get() as u32,
    );
    let roll = dice.roll_one(
        format!("turn {} {name} flamethrower accident (d6)", state.turn),
        Faces::d(6),
    );
    if roll > max {
        state.say(format!(
            "{name}: flamethrower accident roll {roll}: no accident."
        ));
        return vec![];
    }
    let mut lost = Vec::new();
    let mut figure = "";
    if state.unit(name).expect("unit").heavy() == Some(Heavy::Flamethrower) {
        // R7: lost even if it saved; the log says so (it vanished unsaid).
        lost.push(remove(
            state.unit_mut(name),
            Fig::Heavy(Heavy::Flamethrower),
        ));
        figure = " the flamethrower figure is lost (R7), and";
    }
    let (pips, hits) = roll_standard(
        dice,
        format!("turn {} {name} flamethrower blast (3d6)", state.turn),
        n,
    );
    state.say(format!(
        "{name}: flamethrower accident ({roll}): the tank bursts:{figure} {pips:?} = {hits} hits on its own unit."
    ));
    lost.extend(take_hits(state, name, hits, false, dice));
    lost
}

/// What a morale test says (L6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Morale {
    Pass,
    NoMove,
    Rout,
}

/// The morale target: figures, + Leadership with a leader alive, + Zeal with the heavy weapon
/// alive, + Esprit with a trooper alive, −1 (once, R3) in smoke without masks or in column just
/// under fire.
pub fn morale_target(state: &State, u: &Unit) -> i32 {
    let mut t = u.figures.len() as i32;
    if u.count(Fig::Leader) > 0 {
        t += u.leadership;
    }
    if u.heavy().is_some() {
        t += u.zeal;
    }
    if u.count(Fig::Trooper) > 0 {
        t += u.esprit;
    }
    let r = state.data.rules.smoke_diameter.get() / 2.0;
    let in_smoke = state
        .smoke
        .iter()
        .any(|s| crate::board::tabletop::dist(s.at, u.pos) <= r);
    if (in_smoke && !u.gas_masks) || (u.form == Form::Column && u.in_combat) {
        t -= 1;
    }
    t
}

/// Reads a morale roll (d10 read 0–9) against the target (R2: twice the adjusted target routs).
pub fn morale_result(state: &State, figures: usize, target: i32, roll: u32) -> Morale {
    let roll = roll as i32;
    if figures == 2 && roll == state.data.rules.rout_two_figure_roll.int() {
        Morale::Rout
    } else if roll <= target {
        Morale::Pass
    } else if roll >= 2 * target.max(0) {
        Morale::Rout
    } else {
        Morale::NoMove
    }
}

/// Rolls a unit's morale test.
pub fn morale(state: &mut State, name: &str, dice: &mut Dice) -> Morale {
    let u = state.unit(name).expect("unit").clone();
    let target = morale_target(state, &u);
    let roll = dice.roll_one(
        format!("turn {} morale of {name} (d10 read 0-9)", state.turn),
        Faces::ZeroBased { sides: 10 },
    );
    let res = morale_result(state, u.figures.len(), target, roll);
    state.say(format!(
        "{name} tests morale: {roll} against {target}: {}.",
        match res {
            Morale::Pass => "passes",
            Morale::NoMove => "fails, may not move",
            Morale::Rout => "ROUTS",
        }
    ));
    res
}
