//! Legal orders for the scripted players and random play: chosen by `choice` among what the
//! seat may do now, and always checked by the same parser and checks a mail goes through, so a
//! sample is never rejected. It knows only what the seat may see.

use crate::rulesets::kit::roster::Roster;

use super::action;
use super::checks;
use super::orders::{print, print_action, read};
use super::reaction;
use super::sight;
use super::state::{Action, LhyState, Order, Phase, Target};

fn pick<T: Clone>(v: &[T], choice: u64, salt: u64) -> Option<T> {
    if v.is_empty() {
        return None;
    }
    let i = (choice
        .wrapping_mul(6364136223846793005)
        .wrapping_add(salt.wrapping_mul(1442695040888963407))
        >> 33) as usize
        % v.len();
    Some(v[i].clone())
}

fn valid(s: &LhyState, seat: &str, text: &str) -> bool {
    match read(s, seat, text) {
        Ok(lines) => checks::check_mail(s, seat, &lines).is_empty(),
        Err(_) => false,
    }
}

/// Candidate actions for one unit (activated or reacting).
fn candidates(s: &LhyState, seat: &str, name: &str, reacting: bool) -> Vec<Action> {
    let Some(u) = s.unit(name) else { return vec![] };
    let mut out = Vec::new();
    let mut targets: Vec<Target> = sight::named_enemies(s, seat)
        .filter(|e| e.at.distance(u.at) <= 8)
        .map(|e| Target::Unit(e.name.clone()))
        .collect();
    targets.extend(
        s.on_map()
            .filter(|e| e.side != seat && !e.hidden && e.concealed && e.at.distance(u.at) <= 8)
            .map(|e| Target::Hex(e.at)),
    );
    for t in targets {
        out.push(Action::Fire {
            unit: name.into(),
            target: t,
            mode: None,
            from: vec![],
        });
    }
    out.push(Action::Recover { unit: name.into() });
    for n in s.map.grid().neighbours(u.at) {
        if s.map.on_map(n) {
            out.push(Action::Move {
                units: vec![name.into()],
                path: vec![n],
                reverse: false,
                deploy: false,
                overrun: None,
                stop: false,
                exit: false,
            });
        }
    }
    if u.kind.foot() {
        out.push(Action::Withdraw {
            units: vec![name.into()],
            path: vec![],
            exit: false,
        });
    }
    out.retain(|a| {
        action::check(s, seat, a, reacting).is_ok()
            && (!reacting || reaction::eligible(s, u, a).is_ok())
            && !matches!(a, Action::Recover { .. } if u.status == super::state::Status::Good && !u.heroic)
    });
    out
}

fn activation(s: &LhyState, seat: &str, choice: u64) -> String {
    let legal: Vec<String> = checks::waiting_platoons(s, seat)
        .into_iter()
        .filter(|p| checks::check_activate(s, seat, p, None).is_ok())
        .collect();
    let Some(p) = pick(&legal, choice, 1) else {
        return String::new();
    };
    let head = print(&vec![Order::Activate {
        platoon: p.clone(),
        with: None,
    }]);
    let members = checks::members(s, seat, std::slice::from_ref(&p), &[]);
    let mut text = head.clone();
    for (i, n) in members.iter().enumerate() {
        if (choice >> (i % 16)) & 3 == 0 {
            continue;
        }
        if let Some(a) = pick(&candidates(s, seat, n, false), choice, i as u64 + 7) {
            let line = print_action(&a) + "\n";
            if valid(s, seat, &(text.clone() + &line)) {
                text.push_str(&line);
            }
        }
    }
    if valid(s, seat, &text) { text } else { head }
}

fn reaction_mail(s: &LhyState, seat: &str, choice: u64) -> String {
    let mut text = String::new();
    for (i, n) in reaction::triggered(s, seat).iter().enumerate() {
        if choice.is_multiple_of(3) {
            break;
        }
        if let Some(a) = pick(&candidates(s, seat, n, true), choice, i as u64 + 3) {
            let line = print_action(&a) + "\n";
            if valid(s, seat, &(text.clone() + &line)) {
                text.push_str(&line);
            }
        }
    }
    if text.is_empty() {
        "PASS\n".into()
    } else {
        text
    }
}

pub fn sample_orders(s: &LhyState, seat: &str, choice: u64) -> String {
    match &s.phase {
        Phase::Setup => {
            let zone = s
                .zones
                .iter()
                .find(|(z, _)| z == seat)
                .map(|(_, h)| h.clone())
                .unwrap_or_default();
            if choice.is_multiple_of(2)
                && super::setup::dummies_left(s, seat) > 0
                && let Some(h) = pick(&zone, choice, 2)
            {
                let t = print(&vec![Order::Dummy { hex: h }]);
                if valid(s, seat, &t) {
                    return t;
                }
            }
            "PASS\n".into()
        }
        Phase::Activate { side } if side == seat => activation(s, seat, choice),
        Phase::React { side } if side == seat => reaction_mail(s, seat, choice),
        Phase::Stacking { side } if side == seat => "PASS\n".into(),
        _ => String::new(),
    }
}
