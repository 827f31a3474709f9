//! Sealed orders stay sealed (despatch-dice/v2): a fire plan sent with manoeuvre orders outlives
//! its step, and an opponent holding every mail it received tries to open its digest by brute
//! force over every plan it could be. Under v1 the salt came from `v_k`, published with the
//! step's results, and the same attack opens it (the positive control); under v2 the salt comes
//! from the salt key, and nothing the opponent holds opens it.

use crate::world;

use despatch::dice::{self, Hash, Protocol};
use despatch::engine::Ruleset;
use despatch::rulesets::naval_rjw::NavalRjw;
use world::*;

/// Every 64-hex-digit value in a text: all the public hashes a mail carries.
fn hashes_in(text: &str) -> Vec<Hash> {
    let mut out = Vec::new();
    for word in text.split(|c: char| !c.is_ascii_hexdigit()) {
        if word.len() == 64
            && let Some(h) = dice::from_hex(word)
        {
            out.push(h);
        }
    }
    out
}

#[test]
fn a_sealed_fire_plan_cannot_be_brute_forced_from_the_mails() {
    let mut w = world("training");
    w.send("japan", "FLAGSHIP Mikasa\n");
    w.send("russia", "FLAGSHIP Tsesarevich\n");
    let g = w.game();
    let active = g.state.active.clone();
    let other = if active == "japan" { "russia" } else { "japan" };
    let mine: Vec<String> = g
        .state
        .ships
        .iter()
        .filter(|s| s.side == active)
        .map(|s| s.name.clone())
        .collect();
    let theirs: Vec<String> = g
        .state
        .ships
        .iter()
        .filter(|s| s.side == other)
        .map(|s| s.name.clone())
        .collect();
    // The active side's manoeuvre mail carries only its sealed fire plan: one line of a small set.
    let plan = format!("FIRE {} AT {}\n", mine[0], theirs[theirs.len() - 1]);
    let step = g.step;
    // Every plan the opponent can imagine, in canonical form as of the step it was sent in.
    let canonical =
        |text: &str| NavalRjw::canonical(&NavalRjw::parse(&g.state, &active, text).unwrap());
    let candidates: Vec<String> = mine
        .iter()
        .flat_map(|a| theirs.iter().map(move |b| format!("FIRE {a} AT {b}\n")))
        .map(|t| canonical(&t))
        .collect();
    let sent = canonical(&plan);
    assert!(matches!(
        w.send(&active, &plan),
        despatch::daemon::Intake::Accepted { .. }
    ));
    let journaled = w
        .daemon
        .data
        .game(GAME)
        .read_journal()
        .unwrap()
        .lines
        .iter()
        .rev()
        .find_map(|l| match serde_json::from_str(l).unwrap() {
            despatch::engine::Event::Submission { orders, seat, .. } if seat == active => {
                Some(orders)
            }
            _ => None,
        })
        .unwrap();
    assert_eq!(
        journaled, sent,
        "the search covers the very text that was sealed"
    );
    assert!(candidates.contains(&sent));
    // What the opponent holds: the sealed plan's digest, and every hash of every mail it received
    // (anchor, Z, v_k, L_k, S_k, lock inputs, log heads…), the step's results included.
    let theirs_mails: Vec<String> = w
        .delivered()
        .into_iter()
        .filter(|d| d.1 == if other == "japan" { JAPAN } else { RUSSIA })
        .map(|d| d.3)
        .collect();
    let all = theirs_mails.join("\n");
    // The digest as the step's results mail lists it among the lock inputs (the step had only
    // the active seat to answer, so it locked at once and no notice came before it).
    let section = all
        .split(&format!(
            "DICE (despatch-dice/v2, game {GAME}, step {step})"
        ))
        .nth(1)
        .expect("the step's results mail");
    let section = despatch::report::unfold(section);
    let digest_line = section
        .lines()
        .find(|l| l.starts_with(&format!("lock input {active} = ")))
        .expect("the results mail shows the digest");
    let d = dice::from_hex(digest_line.rsplit(' ').next().unwrap()).unwrap();
    let public = hashes_in(&all);
    assert!(public.len() > 10, "the opponent holds many public values");
    let game_id = GAME;
    let opens = |proto: Protocol, digest: &Hash| -> Option<String> {
        for text in &candidates {
            for v in &public {
                for salt in [
                    dice::salt_v1(v, &active),
                    dice::salt(game_id, v, step, &active),
                ] {
                    if &dice::orders_digest(proto, game_id, step, &active, &salt, text) == digest {
                        return Some(text.clone());
                    }
                }
            }
        }
        None
    };
    // v2: nothing the opponent holds opens the digest.
    assert_eq!(
        opens(Protocol::V2, &d),
        None,
        "a v2 digest was opened by brute force"
    );
    // Positive control: the same plan sealed as v1 did it (salt from v_k, which the results
    // mail publishes) is opened by the very same search.
    let v_k = public
        .iter()
        .copied()
        .find(|v| all.contains(&format!("v_{step} = {}", dice::to_hex(v))))
        .expect("the results mail reveals v_k");
    let v1_digest = dice::orders_digest(
        Protocol::V1,
        game_id,
        step,
        &active,
        &dice::salt_v1(&v_k, &active),
        &sent,
    );
    assert_eq!(
        opens(Protocol::V1, &v1_digest),
        Some(sent.clone()),
        "the v1 attack opens it"
    );
    // And the true salt key (published at the end of the game) opens the v2 digest.
    let z = [0x5a; 32];
    assert_eq!(
        dice::orders_digest(
            Protocol::V2,
            game_id,
            step,
            &active,
            &dice::salt(game_id, &z, step, &active),
            &sent
        ),
        d
    );
    assert!(w.game().step > step, "the step resolved before the search");
}
