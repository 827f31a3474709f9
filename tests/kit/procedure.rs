//! The sequence of play checked as data: every `then` names a step that exists; pure random
//! play from the opening reaches every step and makes no move the table does not declare; each
//! step's order words are the ruleset's and begin every sample line for it; and the README
//! prints the sequence exactly as the table does (`DESPATCH_BLESS=1` writes it there).

use std::collections::{BTreeMap, BTreeSet};

use despatch::dice::Dice;
use despatch::engine::procedure::Procedure;
use despatch::engine::{Ruleset, Silence, Submitted};

use super::Subject;

/// Where a README holds the printed sequence.
pub const OPEN: &str = "<!-- the sequence of play, printed from the ruleset's table -->";
pub const CLOSE: &str = "<!-- end of the sequence of play -->";

/// The README block the table prints: one paragraph per step, then the end of the turn,
/// hard-wrapped at a plain-text mail's 72 columns (HELP sends the README as it is).
pub fn readme_block<R: Ruleset>() -> String {
    format!("{OPEN}\n{}\n{CLOSE}", R::procedure().sequence_markdown(72))
}

/// What a walk saw.
#[derive(Default)]
pub struct Walked {
    pub reached: BTreeSet<&'static str>,
    /// Moves made that the table does not declare, as `from → to (game, step)`.
    pub undeclared: Vec<String>,
    /// Sample lines whose first word the step does not take.
    pub stray_words: Vec<String>,
}

/// Random play on the ruleset alone (no mail): `games` games of at most `max_steps` steps,
/// every prompted seat answering with its sample orders, or silent one time in five.
pub fn walk<R: Ruleset>(s: &Subject<R>, games: u64, max_steps: u64) -> Walked {
    let dir = s.games_dir.join(R::NAME);
    let read = |p: std::path::PathBuf| {
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    };
    let data = read(dir.join("ruleset.toml"));
    let scenario = read(dir.join("scenarios").join(format!("{}.toml", s.scenario)));
    let seats: Vec<String> = s.seats.iter().map(|(id, _)| id.to_string()).collect();
    let p = R::procedure();
    let standing = R::standing_keywords();
    let mut out = Walked::default();
    for game in 0..games {
        let mut st = R::setup(&data, &scenario, &seats)
            .unwrap_or_else(|e| panic!("{}: setting up {}: {e}", R::NAME, s.scenario));
        for i in 0..max_steps {
            let name = p.current(&st);
            out.reached.insert(name);
            if R::outcome(&st).is_some() {
                break;
            }
            let words = p.step_named(name).map(|x| x.keywords).unwrap_or(&[]);
            let mut subs = BTreeMap::new();
            for (k, pr) in R::step(&st).prompts.iter().enumerate() {
                if (game + i + k as u64).is_multiple_of(5) {
                    subs.insert(pr.seat.clone(), Submitted::Nmr(Silence::StandingOrders));
                    continue;
                }
                let choice = game * 7919 + i * 31 + k as u64;
                let text = R::sample_orders(&st, &pr.seat, choice);
                for line in text.lines() {
                    let first = line.split_whitespace().next().unwrap_or("");
                    let first = first.to_ascii_uppercase();
                    if !first.is_empty()
                        && !words.contains(&first.as_str())
                        && !standing.contains(&first.as_str())
                    {
                        out.stray_words.push(format!("{name}: {line}"));
                    }
                }
                let orders = R::parse(&st, &pr.seat, &text).unwrap_or_else(|e| {
                    panic!(
                        "{}: {name}: its own sample is refused: {e:?}\n{text}",
                        R::NAME
                    )
                });
                subs.insert(pr.seat.clone(), Submitted::Orders(orders));
            }
            let mut seed = [0u8; 32];
            seed[..8].copy_from_slice(&game.to_be_bytes());
            seed[8..16].copy_from_slice(&i.to_be_bytes());
            let (next, trace) = p.resolve_traced(&st, &subs, &mut Dice::new(seed));
            for w in trace.windows(2) {
                if !p.declares(w[0], w[1]) {
                    out.undeclared
                        .push(format!("{} → {} (game {game}, step {i})", w[0], w[1]));
                }
            }
            st = next;
        }
    }
    out
}

/// Everything above, failing on the first fault.
pub fn check<R: Ruleset>(s: &Subject<R>, games: u64, max_steps: u64) {
    let p = R::procedure();
    assert!(
        !p.steps.is_empty(),
        "{}: the sequence of play lists no step",
        R::NAME
    );
    let undeclared = p.undeclared();
    assert!(
        undeclared.is_empty(),
        "{}: the table names steps it does not have: {undeclared:?}",
        R::NAME
    );
    let known: BTreeSet<&str> = R::order_keywords().into_iter().collect();
    for step in p.steps {
        let unknown: Vec<&&str> = step
            .keywords
            .iter()
            .filter(|k| !known.contains(*k))
            .collect();
        assert!(
            unknown.is_empty(),
            "{}: step {} takes words that are no order: {unknown:?}",
            R::NAME,
            step.name
        );
    }
    let walked = walk(s, games, max_steps);
    let missed: Vec<&str> = p
        .steps
        .iter()
        .map(|x| x.name)
        .filter(|n| !walked.reached.contains(n))
        .collect();
    let excused: Vec<&str> = s.unreached_steps.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        missed,
        excused,
        "{}: the steps random play never reached ({games} games of up to {max_steps} steps, \
         left) must be exactly those the subject says it cannot reach (right)",
        R::NAME
    );
    assert!(
        walked.undeclared.is_empty(),
        "{}: moves the table does not declare: {:?}",
        R::NAME,
        walked.undeclared
    );
    assert!(
        walked.stray_words.is_empty(),
        "{}: sample lines a step does not take: {:?}",
        R::NAME,
        &walked.stray_words[..walked.stray_words.len().min(5)]
    );
    readme::<R>(s);
}

/// The README's copy of the sequence is the table's (blessed in place when asked).
fn readme<R: Ruleset>(s: &Subject<R>) {
    let path = s.games_dir.join(R::NAME).join("README.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let want = readme_block::<R>();
    let have = match (text.find(OPEN), text.find(CLOSE)) {
        (Some(a), Some(b)) if a < b => Some(&text[a..b + CLOSE.len()]),
        _ => None,
    };
    if have == Some(want.as_str()) {
        return;
    }
    if std::env::var("DESPATCH_BLESS").is_ok_and(|v| v == "1") {
        let new = match have {
            Some(old) => text.replacen(old, &want, 1),
            None => {
                // Before the rulings (`## Rulings`, `## Numbered rulings`), else at the end.
                let at = text
                    .match_indices("\n## ")
                    .map(|(i, _)| i)
                    .find(|i| {
                        text[i + 4..]
                            .split('\n')
                            .next()
                            .is_some_and(|h| h.to_ascii_lowercase().contains("rulings"))
                    })
                    .unwrap_or(text.len());
                let section = format!("\n## The sequence of play\n\n{want}\n");
                format!("{}{section}{}", &text[..at], &text[at..])
            }
        };
        std::fs::write(&path, new).unwrap();
        return;
    }
    panic!(
        "{}: the README's sequence of play is not the table's; DESPATCH_BLESS=1 writes it. \
         The table prints:\n{want}",
        R::NAME
    );
}
