//! A side's fire plan resolved (p.6–7; R4, R5, R10, R24): order by order, each judged at the
//! moment of firing — the firer, her first legal target, her supports, the opposed roll — and
//! striking colours checked after. Bad or impossible orders are logged and skipped.

use std::collections::BTreeSet;

use crate::dice::{Dice, Faces};
use crate::engine::LogLine;

use super::super::checks::striking_colours;
use super::super::damage::apply_hits;
use super::super::state::{FireOrder, NavalState, Ship};
use super::super::stats::{find_ship, has_secondary, main_cf, secondary_cf};
use super::legality::{cannot_fire_reason, support_legal, target_legal};
use super::modifiers::modifiers;
use super::{Band, Shot, attack_total, battery, defence_total, inches, resolve_attack};

fn log(state: &mut NavalState, text: String) {
    state.log.push(LogLine::public(text));
}

/// Who has used what this phase.
#[derive(Default)]
struct Book {
    engaged: BTreeSet<String>,
    main_used: BTreeSet<String>,
    secondary_used: BTreeSet<String>,
}

impl Book {
    /// An attack is made: its target is engaged, and the firer's battery and each supporter's
    /// are used for the phase.
    fn mark(&mut self, o: &FireOrder, firer: &Ship, target: &Ship, supporters: &[(Ship, bool)]) {
        self.engaged.insert(target.name.clone());
        if o.secondary {
            self.secondary_used.insert(firer.name.clone());
        } else {
            self.main_used.insert(firer.name.clone());
        }
        for (s, sec) in supporters {
            if *sec {
                self.secondary_used.insert(s.name.clone());
            } else {
                self.main_used.insert(s.name.clone());
            }
        }
    }
}

/// Resolves `side`'s fire plan, order by order, judging each at the moment of firing, then
/// checks striking colours (R10). Bad or impossible orders are logged and skipped, never fatal.
pub fn resolve_fire_phase(state: &mut NavalState, side: &str, plan: &[FireOrder], dice: &mut Dice) {
    let mut book = Book::default();
    for o in plan {
        resolve_order(state, side, o, &mut book, dice);
    }
    striking_colours(state);
}

/// One FIRE order: the firer, her target, her supports, then the roll. Each step logs why the
/// order stops there, if it does.
fn resolve_order(
    state: &mut NavalState,
    side: &str,
    o: &FireOrder,
    book: &mut Book,
    dice: &mut Dice,
) {
    let Some(firer) = ready_firer(state, side, o, book) else {
        return;
    };
    let Some((target, shot)) = choose_target(state, side, o, &firer, book) else {
        return;
    };
    let supporters = supports(state, o, &firer, &target, shot, book);
    book.mark(o, &firer, &target, &supporters);
    opposed_roll(state, o, &firer, &target, shot, &supporters, dice);
}

/// The firer, if she may fire now: a ship of this side, able to fire, with the battery the
/// order names, not yet used this phase.
fn ready_firer(state: &mut NavalState, side: &str, o: &FireOrder, book: &Book) -> Option<Ship> {
    let Some(firer) = find_ship(state, &o.ship).cloned() else {
        log(state, format!("No ship named {} fires.", o.ship));
        return None;
    };
    let who = battery(&firer.name, o.secondary);
    if firer.side != side {
        log(
            state,
            format!(
                "{} is not a ship of this side and does not fire.",
                firer.name
            ),
        );
        return None;
    }
    if let Some(why) = cannot_fire_reason(&firer) {
        log(state, format!("{why}."));
        return None;
    }
    if o.secondary {
        if !has_secondary(&firer) {
            log(state, format!("{} has no secondary battery.", firer.name));
            return None;
        }
        if book.secondary_used.contains(&firer.name) {
            log(
                state,
                format!("{who} has already fired or supported this phase."),
            );
            return None;
        }
    } else if book.main_used.contains(&firer.name) {
        log(
            state,
            format!("{} has already fired or supported this phase.", firer.name),
        );
        return None;
    }
    Some(firer)
}

/// First legal target in the ELSE list (R24); the ones passed over are logged with their
/// reasons, as a shift of fire or, when none is left, as holding fire.
fn choose_target(
    state: &mut NavalState,
    side: &str,
    o: &FireOrder,
    firer: &Ship,
    book: &Book,
) -> Option<(Ship, Shot)> {
    let who = battery(&firer.name, o.secondary);
    let mut reasons = Vec::new();
    let mut chosen = None;
    for t in &o.targets {
        let Some(target) = find_ship(state, t) else {
            reasons.push(format!("no ship named {t}"));
            continue;
        };
        if book.engaged.contains(&target.name) {
            reasons.push(format!(
                "{} has already been fired on this phase",
                target.name
            ));
            continue;
        }
        match target_legal(state, side, firer, target, o.secondary) {
            Ok(s) => {
                chosen = Some((target.clone(), s));
                break;
            }
            Err(e) => reasons.push(e),
        }
    }
    let Some((target, shot)) = chosen else {
        log(state, format!("{who} holds fire: {}.", reasons.join("; ")));
        return None;
    };
    if !reasons.is_empty() {
        log(
            state,
            format!(
                "{who} shifts fire to {} ({}).",
                target.name,
                reasons.join("; ")
            ),
        );
    }
    Some((target, shot))
}

/// Supports (R4, R5): up to `max_supporters` legal ones, none at extreme range, each refused
/// one logged. Each comes with whether she supports with her secondary battery.
fn supports(
    state: &mut NavalState,
    o: &FireOrder,
    firer: &Ship,
    target: &Ship,
    shot: Shot,
    book: &Book,
) -> Vec<(Ship, bool)> {
    let max = state.data.rules.max_supporters.get().round().max(0.0) as usize;
    let mut supporters: Vec<(Ship, bool)> = Vec::new();
    for s in &o.support {
        let Some(sup) = find_ship(state, s).cloned() else {
            log(state, format!("No ship named {s} can support."));
            continue;
        };
        if shot.band == Band::Extreme {
            log(
                state,
                format!("{} cannot support at extreme range.", sup.name),
            );
            continue;
        }
        if supporters.len() >= max {
            log(
                state,
                format!(
                    "{} cannot support: at most {max} ships may support.",
                    sup.name
                ),
            );
            continue;
        }
        if supporters.iter().any(|(x, _)| x.name == sup.name) {
            continue;
        }
        match support_legal(state, &sup, firer, target, o.secondary) {
            Ok(uses_secondary) => {
                let used = if uses_secondary {
                    &book.secondary_used
                } else {
                    &book.main_used
                };
                if used.contains(&sup.name) {
                    log(
                        state,
                        format!(
                            "{} has already fired or supported this phase.",
                            battery(&sup.name, uses_secondary)
                        ),
                    );
                } else {
                    supporters.push((sup, uses_secondary));
                }
            }
            Err(e) => log(state, format!("{} cannot support: {e}.", sup.name)),
        }
    }
    supporters
}

/// The opposed roll (p.6): the attacker's die then the defender's, die + CF + modifiers against
/// die + CF; the line logged with the modifiers' labels, and any hits applied (damage.rs).
fn opposed_roll(
    state: &mut NavalState,
    o: &FireOrder,
    firer: &Ship,
    target: &Ship,
    shot: Shot,
    supporters: &[(Ship, bool)],
    dice: &mut Dice,
) {
    let who = battery(&firer.name, o.secondary);
    let sup_refs: Vec<&Ship> = supporters.iter().map(|(s, _)| s).collect();
    let mods = modifiers(state, firer, target, o.secondary, &sup_refs);
    let modifier: i32 = mods.iter().map(|(_, v)| v).sum();
    let att_cf = if o.secondary {
        secondary_cf(state, firer).unwrap_or(0)
    } else {
        main_cf(state, firer)
    };
    let def_cf = main_cf(state, target);
    let faces = Faces::d(state.data.gunnery_die);
    let ad = dice.roll_one(
        format!("gunnery {}->{} attacker", firer.name, target.name),
        faces.clone(),
    );
    let dd = dice.roll_one(
        format!("gunnery {}->{} defender", firer.name, target.name),
        faces,
    );
    let at = attack_total(ad, att_cf, modifier);
    let dt = defence_total(dd, def_cf);
    let hits = resolve_attack(at, dt);
    let att_sum = match modifier {
        0 => format!("{ad}+{att_cf}={at}"),
        m if m > 0 => format!("{ad}+{att_cf}+{m}={at}"),
        m => format!("{ad}+{att_cf}{m}={at}"),
    };
    let result = match hits {
        0 => "no hits".to_string(),
        1 => "1 hit".to_string(),
        n => format!("{n} hits"),
    };
    let detail = if mods.is_empty() {
        String::new()
    } else {
        let parts: Vec<String> = mods.iter().map(|(l, v)| format!("{l} {v:+}")).collect();
        format!(" [{}]", parts.join(", "))
    };
    let extreme = if shot.band == Band::Extreme {
        ", extreme range"
    } else {
        ""
    };
    log(
        state,
        format!(
            "{who} ({att_sum}) fires on {} ({dd}+{def_cf}={dt}) at {}{extreme}: {result}.{detail}",
            target.name,
            inches(shot.range),
        ),
    );
    if hits > 0 {
        apply_hits(state, &target.name, hits, dice);
    }
}
