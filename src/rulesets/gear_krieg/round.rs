//! The round's sequence (p.3): set-up, Step 1 declarations, Step 2 initiative and Command
//! Points, the alternation of Step 3 with interrupts, Step 4 clean-up, and victory (R28–R30).
//! Every state change of the sequence lives here; the acts themselves are in `activation`.
//! It never sets the phase: each step says what comes next as a `Next`, and only the sequence
//! of play (`procedure`) enters it.

use std::collections::BTreeMap;

use crate::board::tabletop::Pt;
use crate::dice::Dice;
use crate::engine::procedure::Next;
use crate::engine::{LogLine, Outcome, SeatId, Submitted};
use crate::rulesets::kit::grammar::{normalise, tenths};
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::activation::{self, Ctx, Flow};
use super::data::{self, InitialSpeed, MoveMode, TomlData};
use super::in_force::orders_of;
use super::orders::{self, blocks};
use super::roll;
use super::state::{Block, GkState, Order, Orders, Phase, Side, Trooper, Unit, UnitKind};
use super::stats;

// Where it always was for the tests and tools that apply standing orders to a state.
pub use super::in_force::apply_standing;

/// Builds the opening state.
pub fn new_state(ruleset: &str, scenario: &str, seats: &[SeatId]) -> Result<GkState, String> {
    let data = data::RulesetData::from_toml(ruleset)?;
    let sc = data::Scenario::from_toml(scenario)?;
    if sc.sides.len() != 2 {
        return Err("scenario: Gear Krieg is for two sides".into());
    }
    let ids: Vec<String> = sc.sides.iter().map(|s| s.id.clone()).collect();
    if seats.len() != 2 || !seats.iter().all(|s| ids.contains(s)) {
        return Err(format!("seats must be exactly {}", ids.join(" and ")));
    }
    let mut units = Vec::new();
    let mut names = std::collections::BTreeSet::new();
    for side in &sc.sides {
        for su in &side.units {
            if su.name.is_empty() || su.name.contains(char::is_whitespace) {
                return Err(format!("unit name `{}`: one word, no spaces", su.name));
            }
            if !names.insert(normalise(&su.name)) {
                return Err(format!("unit name `{}` used twice", su.name));
            }
            if su.x < 0.0 || su.y < 0.0 || su.x > sc.width || su.y > sc.height {
                return Err(format!("{} is off the map", su.name));
            }
            let (kind, threat, ammo, troopers) = if let Some(v) = data.vehicles.get(&su.class) {
                let ammo = v
                    .weapons
                    .iter()
                    .filter_map(|w| {
                        w.ammo
                            .as_ref()
                            .map(|a| (w.key.clone(), a.int().max(0) as u32))
                    })
                    .collect();
                (UnitKind::Vehicle, v.threat_value.int(), ammo, vec![])
            } else if let Some(i) = data.infantry.get(&su.class) {
                let mut t = Vec::new();
                for g in &i.troopers {
                    if !i.weapons.iter().any(|w| w.key == g.weapon) {
                        return Err(format!(
                            "{}: troopers carry unknown weapon {}",
                            i.name, g.weapon
                        ));
                    }
                    for _ in 0..g.count.int().max(0) {
                        t.push(Trooper {
                            weapon: g.weapon.clone(),
                            circles: i.circles.int().max(1) as u32,
                            hits: 0,
                        });
                    }
                }
                (UnitKind::Infantry, i.threat_value.int(), vec![], t)
            } else {
                return Err(format!("{}: unknown class `{}`", su.name, su.class));
            };
            units.push(Unit {
                name: su.name.clone(),
                side: side.id.clone(),
                class: su.class.clone(),
                kind,
                pos: Pt::new(su.x, su.y),
                heading: su.heading,
                mode: if kind == UnitKind::Infantry {
                    MoveMode::Walker
                } else {
                    su.mode
                },
                top: false,
                initial: InitialSpeed::Stationary,
                moved: None,
                last_move: 0.0,
                activated: false,
                actions: 1,
                actions_used: 0,
                extra_declared: 0,
                defensive: false,
                cp_used: false,
                cp_defend: false,
                mode_switched: false,
                light: su.light,
                heavy: su.heavy,
                destroyed: false,
                ammo,
                troopers: with_casualties(troopers, su.casualties),
                pinned: 0,
                walked: vec![],
                overwatch: None,
                overwatch_fired: 0,
                threat: threat.max(0) as u32,
            });
        }
    }
    Ok(GkState {
        data,
        scenario_name: sc.name,
        description: sc.description,
        width: sc.width,
        height: sc.height,
        night: sc.night,
        max_rounds: sc.max_rounds.max(1),
        winning_margin: sc.winning_margin,
        objectives: sc.objectives,
        terrain: sc.terrain,
        seat_order: seats.to_vec(),
        sides: sc
            .sides
            .iter()
            .map(|s| Side {
                id: s.id.clone(),
                name: s.name.clone(),
                edge: s.edge.clone(),
                cp: 0,
                ask_interrupts: true,
                ask_declarations: true,
                choose_first: true,
                queued: vec![],
                vp: 0,
                initiative: None,
            })
            .collect(),
        units,
        round: 1,
        phase: Phase::Declare,
        to_play: seats[0].clone(),
        zones: vec![],
        paused: None,
        log: vec![],
        outcome: None,
    })
}

/// Step 1 declarations (sealed), then Step 2 initiative and the choice of who starts.
pub fn resolve_declare(
    state: &mut GkState,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
    dice: &mut Dice,
) -> Next<Phase> {
    let seats = state.seat_order.clone();
    for seat in &seats {
        let o = orders_of(subs, seat).to_vec();
        apply_standing(state, seat, &o);
        let mut said = Vec::new();
        for x in &o {
            match x {
                Order::Speed { unit, speed } => {
                    let data = state.data.clone();
                    if let Some(u) = state.unit_mut(unit) {
                        u.initial = *speed;
                        u.top = *speed == InitialSpeed::Top;
                        // Attacked before moving in round 1: the maximum of its speed (p.3).
                        u.last_move = match speed {
                            InitialSpeed::Stationary => 0.0,
                            InitialSpeed::Combat => stats::mp(&data, u, u.mode, false),
                            InitialSpeed::Top => stats::mp(&data, u, u.mode, true),
                        };
                    }
                    said.push(format!("{unit} {}", format!("{speed:?}").to_lowercase()));
                }
                Order::Extra { unit, n } => {
                    if let Some(u) = state.unit_mut(unit) {
                        u.extra_declared = *n;
                        u.actions = 1 + n;
                    }
                    said.push(format!("{unit} +{n} action(s)"));
                }
                Order::Defend(unit) => {
                    if let Some(u) = state.unit_mut(unit)
                        && !u.top
                    {
                        u.defensive = true;
                        u.actions = 0;
                        u.extra_declared = 0;
                    }
                    said.push(format!("{unit} defensive maneuvers"));
                }
                _ => {}
            }
        }
        let name = state.side_name(seat);
        state.log.push(LogLine::public(if said.is_empty() {
            format!("{name} declares nothing.")
        } else {
            format!("{name} declares: {}.", said.join("; "))
        }));
    }
    initiative(state, dice)
}

/// Step 2 (p.3): two dice each, draws re-rolled; winner's CP = MoS, loser's 1.
pub fn initiative(state: &mut GkState, dice: &mut Dice) -> Next<Phase> {
    let seats = state.seat_order.clone();
    let n = state.data.rules.initiative_dice.int().max(1) as u32;
    let mut attempt = 0;
    let (a, b) = loop {
        attempt += 1;
        let suffix = if attempt == 1 {
            String::new()
        } else {
            format!(" re-roll {}", attempt - 1)
        };
        let ra = roll::roll(
            dice,
            format!("initiative round {} {}{suffix}", state.round, seats[0]),
            n,
            0,
        );
        let rb = roll::roll(
            dice,
            format!("initiative round {} {}{suffix}", state.round, seats[1]),
            n,
            0,
        );
        state.log.push(LogLine::public(format!(
            "Initiative: {} {}, {} {}.",
            state.side_name(&seats[0]),
            roll::show(&ra),
            state.side_name(&seats[1]),
            roll::show(&rb)
        )));
        // A run of draws this long is (1/6)^20-rare; the first seat then wins by 1 (R26).
        if ra.total != rb.total || attempt >= 20 {
            break (ra.total, rb.total);
        }
    };
    let (winner, loser, mos) = if a >= b {
        (&seats[0], &seats[1], (a - b).max(1))
    } else {
        (&seats[1], &seats[0], b - a)
    };
    let loser_cp = state.data.rules.loser_cp.int().max(0) as u32;
    for s in &seats {
        let cp = if s == winner { mos as u32 } else { loser_cp };
        let total = if s == winner { a.max(b) } else { a.min(b) };
        if let Some(side) = state.side_mut(s) {
            side.cp = cp;
            side.initiative = Some(total);
        }
    }
    let (w, l) = (state.side_name(winner), state.side_name(loser));
    state.log.push(LogLine::public(format!(
        "{w} wins the initiative by {mos}: {w} {mos} CP, {l} {loser_cp} CP."
    )));
    // The side with fewer units chooses; equal numbers: the winner (p.3; choice given in advance, R25).
    let na = state.alive(&seats[0]).len();
    let nb = state.alive(&seats[1]).len();
    let chooser = if na < nb {
        seats[0].clone()
    } else if nb < na {
        seats[1].clone()
    } else {
        winner.clone()
    };
    let first = if state.side(&chooser).is_some_and(|s| s.choose_first) {
        chooser.clone()
    } else {
        state.enemy_of(&chooser).unwrap_or_default().to_string()
    };
    state.log.push(LogLine::public(format!(
        "{} chooses: {} activates first.",
        state.side_name(&chooser),
        state.side_name(&first)
    )));
    state.to_play = first;
    next_activation(state)
}

/// After an activation (or at the round's start): whose turn, or Step 4 (the round's end).
pub fn next_activation(state: &mut GkState) -> Next<Phase> {
    let me = state.to_play.clone();
    let other = state.enemy_of(&me).unwrap_or_default().to_string();
    if !state.unactivated(&me).is_empty() {
        Next::To(Phase::Activate { side: me })
    } else if !state.unactivated(&other).is_empty() {
        state.to_play = other.clone();
        Next::To(Phase::Activate { side: other })
    } else {
        Next::EndOfTurn
    }
}

/// The side has just played: the turn passes to the other side if it has units left to
/// activate (p.3), else stays.
fn pass_turn(state: &mut GkState, played: &str) -> Next<Phase> {
    let other = state.enemy_of(played).unwrap_or_default().to_string();
    state.to_play = if state.unactivated(&other).is_empty() {
        played.to_string()
    } else {
        other
    };
    next_activation(state)
}

/// How a block ran: to its end, or to a point of its move where the enemy is asked
/// "interrupt now?" (the step that asks it).
enum Ran {
    Done,
    Asks(Phase),
}

/// Runs a block to the end or to an interrupt pause; finishing it when done.
fn run_block(state: &mut GkState, block: &Block, dice: &mut Dice, ask: bool) -> Ran {
    let mut p = activation::start(state, block);
    state.log.push(LogLine::public(format!(
        "{} activates {}{}.",
        state.side_name(
            &state
                .unit(&block.unit)
                .map(|u| u.side.clone())
                .unwrap_or_default()
        ),
        block.unit,
        if block.cp {
            " out of sequence (1 CP)"
        } else {
            ""
        }
    )));
    if block.cp
        && let Err(e) = activation::spend_cp_activation(state, &block.unit)
    {
        state.log.push(LogLine::public(format!(
            "{}: {e}; no activation.",
            block.unit
        )));
        return Ran::Done;
    }
    continue_block(state, &mut p, dice, ask)
}

fn continue_block(
    state: &mut GkState,
    p: &mut super::state::Paused,
    dice: &mut Dice,
    ask: bool,
) -> Ran {
    let mut ctx = Ctx {
        dice: Some(dice),
        targets: true,
        ask,
        errors: vec![],
    };
    match activation::run(state, p, &mut ctx) {
        Flow::Paused => {
            let mover = p.block.unit.clone();
            let side = state
                .unit(&mover)
                .map(|u| u.side.clone())
                .unwrap_or_default();
            let enemy = state.enemy_of(&side).unwrap_or_default().to_string();
            let at = state.unit(&mover).map_or(Pt::new(0.0, 0.0), |u| u.pos);
            state.log.push(LogLine::public(format!(
                "{mover} is at {},{}: {} may interrupt.",
                tenths(at.x),
                tenths(at.y),
                state.side_name(&enemy)
            )));
            state.paused = Some(p.clone());
            Ran::Asks(Phase::Interrupt { side: enemy, mover })
        }
        Flow::Done => {
            activation::finish(state, p);
            Ran::Done
        }
    }
}

fn queue_blocks(state: &mut GkState, seat: &str, bs: Vec<Block>) {
    if bs.is_empty() {
        return;
    }
    let n = bs.len();
    let mut replaced = vec![];
    if let Some(s) = state.side_mut(seat) {
        replaced = std::mem::replace(&mut s.queued, bs);
    }
    // A new queue replaces the old one whole: say so, or the player believes both will play.
    let replacing = if replaced.is_empty() {
        String::new()
    } else {
        format!(
            ", replacing the activation(s) queued before ({})",
            replaced
                .iter()
                .map(|b| format!("ACTIVATE {}", b.unit))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    state.log.push(LogLine::private(
        seat,
        format!(
            "{n} activation(s) queued for your next turn(s){replacing}; they are hidden from the enemy."
        ),
    ));
}

/// Queued blocks that can no longer be played (their unit activated, destroyed, or the ground
/// changed) are dropped when their turn comes, each with the reason, in the owner's log only.
fn drop_illegal_queued(state: &mut GkState, seat: &str) {
    while let Some(Err((unit, why))) = state.side(seat).and_then(|s| orders::queued_head(state, s))
    {
        if let Some(s) = state.side_mut(seat) {
            s.queued.remove(0);
        }
        state.log.push(LogLine::private(
            seat,
            format!("Your queued activation of {unit} is dropped: {why}."),
        ));
    }
}

/// Step 3: `side` activates a unit (its email, else a queued block, else HOLD).
pub fn resolve_activate(
    state: &mut GkState,
    side: String,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
    dice: &mut Dice,
) -> Next<Phase> {
    let other = state.enemy_of(&side).unwrap_or_default().to_string();
    // The waiting side's email: standing orders and activations queued for later.
    let o_other = orders_of(subs, &other).to_vec();
    apply_standing(state, &other, &o_other);
    queue_blocks(state, &other, blocks(&o_other));
    let o = orders_of(subs, &side).to_vec();
    apply_standing(state, &side, &o);
    drop_illegal_queued(state, &side);
    let mut bs = blocks(&o);
    let cp_block = bs.iter().position(|b| b.cp).map(|i| bs.remove(i));
    let main = if bs.is_empty() {
        let q = state
            .side(&side)
            .and_then(|s| orders::valid_queued(state, s));
        if q.is_some()
            && let Some(s) = state.side_mut(&side)
        {
            s.queued.remove(0);
            state.log.push(LogLine::private(
                &side,
                format!(
                    "Your queued activation of {} is played.",
                    q.as_ref().map_or("", |b| b.unit.as_str())
                ),
            ));
        }
        q
    } else {
        let rest = bs.split_off(1);
        queue_blocks(state, &side, rest);
        bs.pop()
    };
    if let Some(b) = cp_block
        && let Ran::Asks(interrupt) = run_block(state, &b, dice, true)
    {
        // The CP activation was interrupted: the regular one waits in the queue.
        if let Some(m) = main
            && let Some(s) = state.side_mut(&side)
        {
            s.queued.insert(0, m);
        }
        state.to_play = side.clone();
        return Next::To(interrupt);
    }
    if let Some(o) = outcome_now(state) {
        return Next::GameOver(o);
    }
    let main = main.or_else(|| {
        let u = state.unactivated(&side).first().map(|u| u.name.clone())?;
        state.log.push(LogLine::public(format!(
            "{} sends no activation: {u} holds.",
            state.side_name(&side)
        )));
        Some(Block {
            unit: u,
            cp: false,
            acts: vec![super::state::Act::Hold],
        })
    });
    let Some(main) = main else {
        return next_activation(state);
    };
    if state
        .unit(&main.unit)
        .is_none_or(|u| u.activated || !u.alive())
    {
        return next_activation(state);
    }
    match run_block(state, &main, dice, true) {
        Ran::Done => after_activation(state, &side),
        Ran::Asks(interrupt) => {
            state.to_play = side;
            Next::To(interrupt)
        }
    }
}

/// A side wiped out ends the game (R28); else the turn passes.
fn after_activation(state: &mut GkState, side: &str) -> Next<Phase> {
    if let Some(o) = outcome_now(state) {
        return Next::GameOver(o);
    }
    pass_turn(state, side)
}

/// The "interrupt now?" answer: CP orders, an out-of-sequence activation, interrupt fire at the
/// present point, standing orders for the rest of the move; then the mover goes on (R24).
pub fn resolve_interrupt(
    state: &mut GkState,
    side: String,
    mover: String,
    subs: &BTreeMap<SeatId, Submitted<Orders>>,
    dice: &mut Dice,
) -> Next<Phase> {
    let o = orders_of(subs, &side).to_vec();
    apply_standing(state, &side, &o);
    let mut bs = blocks(&o);
    if let Some(i) = bs.iter().position(|b| b.cp) {
        let b = bs.remove(i);
        // No question is asked inside an answer: the mover's side relies on its overwatch
        // (a block run without asking never stops for one, so it always runs to its end).
        run_block(state, &b, dice, false);
    }
    queue_blocks(state, &side, bs);
    let mut fired = false;
    for x in &o {
        if let Order::Interrupt { unit, fire } = x {
            fired = true;
            interrupt_fire(state, dice, unit, &mover, fire);
        }
    }
    if !fired {
        state.log.push(LogLine::public(format!(
            "{} does not interrupt.",
            state.side_name(&side)
        )));
    }
    let Some(mut p) = state.paused.take() else {
        return next_activation(state);
    };
    let mover_side = state.enemy_of(&side).unwrap_or_default().to_string();
    if let Ran::Asks(interrupt) = continue_block(state, &mut p, dice, false) {
        return Next::To(interrupt);
    }
    // A queued regular activation behind an interrupted CP activation plays now.
    if p.block.cp {
        drop_illegal_queued(state, &mover_side);
        let q = state
            .side(&mover_side)
            .and_then(|s| orders::valid_queued(state, s));
        let Some(b) = q else {
            state.to_play = mover_side;
            return next_activation(state);
        };
        if let Some(s) = state.side_mut(&mover_side) {
            s.queued.remove(0);
        }
        if let Ran::Asks(interrupt) = run_block(state, &b, dice, true) {
            return Next::To(interrupt);
        }
    }
    after_activation(state, &mover_side)
}

fn interrupt_fire(
    state: &mut GkState,
    dice: &mut Dice,
    unit: &str,
    mover: &str,
    fire: &super::state::Fire,
) {
    let Some(u) = state.unit(unit).cloned() else {
        return;
    };
    if !state.unit(mover).is_some_and(Unit::alive) {
        return;
    }
    if u.defensive || u.actions_left() == 0 || !u.alive() {
        state.log.push(LogLine::public(format!(
            "{unit} has no Action left to interrupt with."
        )));
        return;
    }
    let need = match activation::check_fire(state, &u, fire, true) {
        Ok(n) => n,
        Err(e) => {
            state
                .log
                .push(LogLine::public(format!("{unit} cannot interrupt: {e}.")));
            return;
        }
    };
    if let Some(x) = state.unit_mut(unit) {
        x.actions_used += 1;
    }
    super::combat::spend_ammo(state, unit, &fire.weapon, need);
    super::combat::ranged_attack(
        state,
        dice,
        unit,
        mover,
        &fire.weapon,
        fire.rof,
        "Interrupt: ",
    );
}

/// Step 4 (p.3): CP back to zero, unspent Actions lost, zones gone; victory or the next round.
pub fn end_round(state: &mut GkState) -> Next<Phase> {
    state
        .log
        .push(LogLine::public(format!("End of round {}.", state.round)));
    for s in &mut state.sides {
        s.cp = 0;
        s.initiative = None;
    }
    state.zones.clear();
    for u in &mut state.units {
        u.activated = false;
        u.actions = 1;
        u.actions_used = 0;
        u.extra_declared = 0;
        u.defensive = false;
        u.cp_used = false;
        u.cp_defend = false;
        u.mode_switched = false;
        u.walked.clear();
        u.overwatch_fired = 0;
        u.moved = None;
    }
    if let Some(o) = outcome_now(state) {
        return Next::GameOver(o);
    }
    if state.round >= state.max_rounds {
        return Next::GameOver(round_limit_outcome(state));
    }
    state.round += 1;
    Next::To(Phase::Declare)
}

/// The battle ends: said in the log both sides read, recorded, and no move left paused.
pub fn game_over(state: &mut GkState, o: Outcome) {
    state
        .log
        .push(LogLine::public(format!("The battle ends. {}", o.summary)));
    state.outcome = Some(o);
    state.phase = Phase::GameOver;
    state.paused = None;
}

/// A side with no unit left loses at once (R28): the outcome, if one has none.
fn outcome_now(state: &GkState) -> Option<Outcome> {
    let seats = &state.seat_order;
    let gone: Vec<&String> = seats.iter().filter(|s| state.alive(s).is_empty()).collect();
    if gone.is_empty() {
        return None;
    }
    let o = if gone.len() == 2 {
        Outcome {
            winners: vec![],
            summary: "Both forces are destroyed: a draw.".into(),
        }
    } else {
        let w = state.enemy_of(gone[0]).unwrap_or_default().to_string();
        Outcome {
            summary: format!(
                "{} has no unit left: {} wins.",
                state.side_name(gone[0]),
                state.side_name(&w)
            ),
            winners: vec![w],
        }
    };
    Some(o)
}

/// Victory points (R29): the Threat Value of every destroyed enemy unit, half of it for an
/// enemy vehicle with Heavy Damage, and each objective held by one side alone.
pub fn victory_points(state: &GkState, side: &str) -> u32 {
    let mut vp = 0;
    for u in state.units.iter().filter(|u| u.side != side) {
        if u.destroyed {
            vp += u.threat;
        } else if u.heavy > 0 {
            vp += u.threat / 2;
        }
    }
    for o in &state.objectives {
        let near = |s: &str| {
            state.units.iter().any(|u| {
                u.side == s
                    && u.alive()
                    && crate::board::tabletop::dist(u.pos, Pt::new(o.x, o.y)) <= o.radius + 1e-9
            })
        };
        if near(side) && !near(state.enemy_of(side).unwrap_or_default()) {
            vp += o.points;
        }
    }
    vp
}

/// R28's figures for the game-over mail: each side's victory points and units still fighting.
pub fn victory_figures(state: &GkState) -> Vec<String> {
    let mut out: Vec<String> = state
        .seat_order
        .iter()
        .map(|seat| {
            let units = state.units.iter().filter(|u| &u.side == seat);
            let (alive, all) = units.fold((0, 0), |(a, n), u| (a + u.alive() as u32, n + 1));
            format!(
                "{}: {} VP; {alive} of {all} units still fighting.",
                state.side_name(seat),
                victory_points(state, seat)
            )
        })
        .collect();
    out.push(format!(
        "A side with no unit left loses at once; at the round limit ({} rounds) the side ahead \
         by at least {} VP wins, else a draw (R28).",
        state.max_rounds,
        state.winning_margin.max(1)
    ));
    out
}

fn round_limit_outcome(state: &mut GkState) -> Outcome {
    let seats = state.seat_order.clone();
    let a = victory_points(state, &seats[0]);
    let b = victory_points(state, &seats[1]);
    for (s, v) in [(&seats[0], a), (&seats[1], b)] {
        if let Some(side) = state.side_mut(s) {
            side.vp = v;
        }
    }
    let margin = state.winning_margin;
    let (na, nb) = (state.side_name(&seats[0]), state.side_name(&seats[1]));
    let score = format!("{na} {a} VP, {nb} {b} VP");
    if a >= b + margin.max(1) {
        Outcome {
            winners: vec![seats[0].clone()],
            summary: format!("Round limit: {score}: {na} wins."),
        }
    } else if b >= a + margin.max(1) {
        Outcome {
            winners: vec![seats[1].clone()],
            summary: format!("Round limit: {score}: {nb} wins."),
        }
    } else {
        Outcome {
            winners: vec![],
            summary: format!("Round limit: {score}: a draw."),
        }
    }
}

/// R37: a squad brings the troopers it lost in the last battle of a campaign (the last ones of
/// its list fall first, so the squad leader's weapon is the last to go).
fn with_casualties(mut troopers: Vec<Trooper>, lost: u32) -> Vec<Trooper> {
    for t in troopers.iter_mut().rev().take(lost as usize) {
        t.hits = t.circles;
    }
    troopers
}
