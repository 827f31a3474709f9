//! Last Hundred Yards: what a game costs in mail (issue point 3, R18, R36). The Bridgehead demo
//! is played by the scripted players; every mail a player is asked for is counted and divided
//! by the Platoon Activation Cycles played, with and without standing reactions, and with the
//! active player's reaction mails carrying his next `ACTIVATE` block. The figures are printed
//! for the README (`cargo test --test last_hundred_yards last_hundred_yards_figures -- --nocapture`).

use crate::lhy;

use std::collections::BTreeMap;

use despatch::dice::Dice;
use despatch::engine::{Ruleset, Silence, Submitted};
use despatch::rulesets::last_hundred_yards::LastHundredYards as Lhy;
use despatch::rulesets::last_hundred_yards::state::{LhyState, Phase};

/// One way of playing the demo and what it cost.
#[derive(Debug, Default)]
struct Figures {
    /// Mails the players were asked for after set-up.
    mails: u32,
    turns: u32,
    /// Platoon Activation Cycles played.
    cycles: u32,
    /// Mails by the prompt's kind (`activate`, `react`, `stacking`).
    kinds: BTreeMap<String, u32>,
    /// Reaction mails asked of the active player and of the other.
    react_active: u32,
    react_other: u32,
}

impl Figures {
    fn per_activation(&self) -> f64 {
        f64::from(self.mails) / f64::from(self.cycles.max(1))
    }
    fn per_turn(&self) -> f64 {
        f64::from(self.mails) / f64::from(self.turns.max(1))
    }
}

/// The scripted player's next activation, written as if he were asked for it now.
fn next_activation(st: &LhyState, seat: &str, choice: u64) -> String {
    let mut a = st.clone();
    a.phase = Phase::Activate { side: seat.into() };
    Lhy::sample_orders(&a, seat, choice)
}

/// Plays `turns` game turns of the Bridgehead mission.
fn play(standing: bool, carry: bool, turns: u32) -> Figures {
    let mut st = lhy::game(lhy::BRIDGEHEAD);
    let rules = "STANDING ALL FIRE WITHIN 6\nSTANDING ALL WITHDRAW IF ASSAULTED\n";
    let setup = if standing { rules } else { "PASS" };
    st = lhy::step(&st, &[("us", setup), ("germany", setup)], 0);
    let mut f = Figures::default();
    let activations = |st: &LhyState| {
        st.log
            .iter()
            .filter(|l| l.text.contains(" activates platoon "))
            .count() as u32
    };
    // Counted from the log each resolution writes (it survives turn changes).
    f.cycles = activations(&st);
    let mut k = 0u64;
    while Lhy::outcome(&st).is_none() && st.turn.number <= turns && k < 2000 {
        k += 1;
        let spec = Lhy::step(&st);
        let mut subs = BTreeMap::new();
        for p in spec.prompts.iter().filter(|p| p.required) {
            f.mails += 1;
            *f.kinds.entry(p.kind.clone()).or_default() += 1;
            let mut text = Lhy::sample_orders(&st, &p.seat, k * 7 + 1);
            if p.kind == "react" {
                if p.seat == st.turn.active {
                    f.react_active += 1;
                    // §8 by mail (README step 4): the answer may carry the next activation.
                    let more = next_activation(&st, &p.seat, k * 7 + 3);
                    if carry
                        && !more.is_empty()
                        && Lhy::parse(&st, &p.seat, &(text.clone() + &more)).is_ok()
                    {
                        text += &more;
                    }
                } else {
                    f.react_other += 1;
                }
            }
            let o = Lhy::parse(&st, &p.seat, &text).unwrap_or_else(|e| panic!("{text}\n{e:?}"));
            subs.insert(p.seat.clone(), Submitted::Orders(o));
        }
        for p in &spec.prompts {
            subs.entry(p.seat.clone())
                .or_insert(Submitted::Nmr(Silence::StandingOrders));
        }
        let mut dice = Dice::new(lhy::seed(k, 77));
        st = Lhy::resolve(&st, &subs, &mut dice);
        f.cycles += activations(&st);
    }
    f.turns = (st.turn.number - 1).max(1);
    f
}

/// R18/R36 and issue point 3: the figures for the README. Standing reactions bring the demo to
/// one mail per Platoon Activation Cycle; without them, the active player's reaction mails
/// that carry his next activation save the activation mail they replace.
#[test]
fn r36_emails_per_platoon_activation_with_and_without_standing_reactions() {
    let rows = [
        ("no standing reactions", play(false, false, 4)),
        (
            "no standing reactions, reaction mails carry the next ACTIVATE",
            play(false, true, 4),
        ),
        ("standing reactions", play(true, false, 4)),
        (
            "standing reactions, reaction mails carry the next ACTIVATE",
            play(true, true, 4),
        ),
    ];
    for (name, f) in &rows {
        eprintln!(
            "{name}: {} mails in {} game turns = {:.1} a turn; {} activations = {:.2} mails an activation; by kind {:?}; reaction mails asked of the active player {}, of the other {}",
            f.mails,
            f.turns,
            f.per_turn(),
            f.cycles,
            f.per_activation(),
            f.kinds,
            f.react_active,
            f.react_other
        );
    }
    let [(_, none), (_, none_carry), (_, with), (_, with_carry)] = &rows;
    assert!(
        with.per_activation() < none.per_activation(),
        "standing reactions save mails"
    );
    assert!(
        with.per_activation() <= 1.2 && with_carry.per_activation() <= 1.2,
        "close to one mail per activation: {:.2}",
        with.per_activation()
    );
    assert!(
        none.react_active > 0,
        "the active player was asked to react"
    );
    assert!(
        none_carry.per_activation() < none.per_activation(),
        "carrying the next ACTIVATE saves mails: {:.2} vs {:.2}",
        none_carry.per_activation(),
        none.per_activation()
    );
}
