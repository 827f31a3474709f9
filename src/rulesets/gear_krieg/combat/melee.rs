//! Melee (p.4; R18, R19): punches, kicks and infantry assaults on Driving or Infantry Skill
//! at Point Blank with no Perception, and rams, where both vehicles take damage.

use crate::board::tabletop::{Pt, dist};
use crate::dice::Dice;
use crate::engine::LogLine;
use crate::rulesets::kit::grammar::tenths;
use crate::rulesets::kit::roster::Roster;

use super::super::data::MoveMode;
use super::super::roll;
use super::super::state::{GkState, Melee, Unit};
use super::super::stats::{self, AttackArc, Band, Task};
use super::Hit;
use super::defence::{apply_hit, defence_roll, missed};
use super::modifiers::attack_modifiers;

/// Can `attacker` (at `from`) make this melee attack on `target`?
pub fn can_melee(
    state: &GkState,
    attacker: &Unit,
    from: Pt,
    target: &Unit,
    kind: &Melee,
) -> Result<(), String> {
    let contact = state.data.rules.contact_distance.get();
    match kind {
        Melee::Punch | Melee::Kick => {
            if attacker.is_infantry() {
                return Err("infantry assault with ASSAULT, not punches or kicks".into());
            }
            if *kind == Melee::Kick && attacker.mode == MoveMode::Ground {
                return Err("a walker cannot kick in Ground mode (R19)".into());
            }
        }
        Melee::Ram => {
            if attacker.is_infantry() || target.is_infantry() {
                return Err("infantry can neither ram nor be rammed".into());
            }
            return Ok(());
        }
        Melee::Assault => {
            if !attacker.is_infantry() {
                return Err("only infantry assault; vehicles PUNCH, KICK or RAM".into());
            }
        }
    }
    let d = dist(from, target.pos);
    if d > contact + 1e-9 {
        return Err(format!(
            "not in contact ({} cm apart; contact is {} cm)",
            tenths(d),
            tenths(contact)
        ));
    }
    Ok(())
}

fn melee_word(kind: &Melee) -> &'static str {
    match kind {
        Melee::Punch => "punches",
        Melee::Kick => "kicks",
        Melee::Ram => "rams",
        Melee::Assault => "assaults",
    }
}

/// Punch, kick or assault (p.4): Driving/Infantry Skill, Point Blank, no Perception (R18).
pub fn melee_attack(
    state: &mut GkState,
    dice: &mut Dice,
    attacker: &str,
    target: &str,
    kind: &Melee,
) -> Option<Hit> {
    let a = state.unit(attacker)?.clone();
    let t = state.unit(target)?.clone();
    if let Err(why) = can_melee(state, &a, a.pos, &t, kind) {
        state.log.push(LogLine::public(format!(
            "{attacker} cannot attack {target} in melee: {why}."
        )));
        return None;
    }
    if *kind == Melee::Ram {
        return Some(ram(state, dice, attacker, target));
    }
    let label = format!("melee {attacker}->{target}");
    let (m, why) = attack_modifiers(
        &state.data,
        &a,
        t.is_infantry(),
        None,
        Band::PointBlank,
        0,
        true,
    );
    let n = stats::skill(&state.data, &a, Task::Driving);
    let ar = roll::roll(dice, format!("{label} attacker"), n, m);
    let (dr, arc, dwhy) = defence_roll(state, dice, &label, target, a.pos, Task::Piloting);
    let o = roll::opposed(&ar, &dr);
    let dm = stats::melee_dm(&state.data, &a, kind);
    let mut line = format!(
        "{attacker} {} {target}: attack {} ({}) vs defence {} ({})",
        melee_word(kind),
        roll::show(&ar),
        why.join(", "),
        roll::show(&dr),
        dwhy.join(", ")
    );
    let mut hit = Hit::rolled(ar, dr, o.mos);
    if o.success {
        let (dmg, r, text) = apply_hit(state, target, o.mos, dm, 0, false, arc);
        hit.damage = dmg;
        hit.result = r;
        line.push_str(&format!(": hit, MoS {}, {text}.", o.mos));
    } else {
        missed(state, target, "miss", &mut line);
    }
    state.log.push(LogLine::public(line));
    Some(hit)
}

/// Ramming (p.4): opposed Driving; on success each vehicle takes MoS × the other's Impact DM.
fn ram(state: &mut GkState, dice: &mut Dice, attacker: &str, target: &str) -> Hit {
    let a = state
        .unit(attacker)
        .cloned()
        .expect("checked by the caller");
    let label = format!("ram {attacker}->{target}");
    let (m, why) = attack_modifiers(&state.data, &a, false, None, Band::PointBlank, 0, true);
    let n = stats::skill(&state.data, &a, Task::Driving);
    let ar = roll::roll(dice, format!("{label} attacker"), n, m);
    let (dr, arc, dwhy) = defence_roll(state, dice, &label, target, a.pos, Task::Driving);
    let o = roll::opposed(&ar, &dr);
    let mut line = format!(
        "{attacker} rams {target}: Driving {} ({}) vs {} ({})",
        roll::show(&ar),
        why.join(", "),
        roll::show(&dr),
        dwhy.join(", ")
    );
    let mut hit = Hit::rolled(ar, dr, o.mos);
    if o.success {
        let t = state.unit(target).cloned().expect("exists");
        let a_dm = stats::melee_dm(&state.data, &a, &Melee::Ram);
        let t_dm = stats::melee_dm(&state.data, &t, &Melee::Ram);
        let (dmg, r, text) = apply_hit(state, target, o.mos, a_dm, 0, false, arc);
        let (_, _, self_text) = apply_hit(state, attacker, o.mos, t_dm, 0, false, AttackArc::Front);
        hit.damage = dmg;
        hit.result = r;
        line.push_str(&format!(
            ": collision, MoS {}; {target}: {text}; {attacker}: {self_text}.",
            o.mos
        ));
    } else {
        line.push_str(": the ram misses.");
    }
    state.log.push(LogLine::public(line));
    hit
}
