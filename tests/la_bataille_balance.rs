//! The balance figures of La Bataille's scenarios: random games with the sample players (the
//! kit's random player) and real dice on fixed seeds, printed per side with where the victory
//! points came from, how the infantry mêlées and the cavalry charges ended (run it with
//! `--nocapture` to read the tables the README quotes). The default run is a smoke of a few
//! games a scenario; with `DESPATCH_BALANCE_FULL=1` it plays the full 50 and asserts issue
//! 28's target (each side of each scenario wins at least 30 %, a firefight is the likeliest
//! infantry mêlée result and surrenders are under half). It changes no rule and reads the
//! shipped ruleset from disk.

use std::collections::BTreeMap;

use despatch::dice::Dice;
use despatch::engine::{Ruleset, Silence, Submitted};
use despatch::rulesets::kit::roster::{Roster, TwoSides};
use despatch::rulesets::la_bataille::LaBataille;
use despatch::rulesets::la_bataille::segment::victory_points;
use despatch::rulesets::la_bataille::state::LbState;

/// The shipped ruleset, read when the test runs (not compiled in), so a retuned stand-in chart
/// is measured by running the built test again.
fn ruleset() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/la-bataille/ruleset.toml"
    ))
    .unwrap()
}

/// Games per scenario: the full 50 (enough that one side winning every game is not luck) with
/// `DESPATCH_BALANCE_FULL=1`, else a smoke of 4 that keeps CI short.
fn games() -> u64 {
    if full() { 50 } else { 4 }
}

fn full() -> bool {
    std::env::var("DESPATCH_BALANCE_FULL").is_ok_and(|v| v == "1")
}

/// How an infantry mêlée (an Assault or Old Guard Charge on the Assaut et Mêlée Chart, first
/// roll or Firefight column) ended, from its log line `A<n>: mêlée values … = <roll>: <code>.`;
/// `None` for any other line (cavalry charges are `C<n>:` and bounce, not fire).
fn melee_outcome(line: &str) -> Option<&'static str> {
    let rest = line.strip_prefix('A')?;
    let (id, rest) = rest.split_once(": mêlée values ")?;
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let code = rest.rsplit(": ").next()?.trim_end_matches('.');
    Some(match code {
        "AS" => "attacker surrenders",
        "AR" => "attacker routs",
        "blank" => "firefight",
        c if c.starts_with("DR") => "defender routs",
        c if c.starts_with("DS") => "defender surrenders",
        _ => return None,
    })
}

/// What kind of charge a `C<n>` line belongs to, from the lines that open its mêlée: a
/// Reaction Charge's new marker, or the procedure the charge is resolved by (p.6 step 6).
fn charge_kind(line: &str, kinds: &mut BTreeMap<u32, &'static str>) {
    if let Some(i) = line.find("become the attacker: Charge marker C") {
        let id = &line[i + "become the attacker: Charge marker C".len()..];
        if let Ok(n) = id.trim_end_matches('.').parse() {
            kinds.insert(n, "reaction charge");
        }
        return;
    }
    let Some((id, rest)) = line.strip_prefix('C').and_then(|r| r.split_once(": ")) else {
        return;
    };
    let Ok(n) = id.parse::<u32>() else {
        return;
    };
    let kind = if rest.starts_with("Cavalry Charge vs. Cavalry") {
        "cavalry vs cavalry"
    } else if rest.starts_with("Cavalry Charge vs. Infantry") {
        "cavalry vs infantry/artillery"
    } else if rest.starts_with("Cavalry Charge vs. PGD") {
        "cavalry vs routed (PGD)"
    } else {
        return;
    };
    kinds.entry(n).or_insert(kind);
}

/// How a charge's mêlée ended, by its kind: `C<n>: mêlée values … = <roll>: <code>.` on the
/// Assaut et Mêlée Chart (a blank is a bounce), or every target routing at the Roll to Stand
/// before any roll on the chart.
fn charge_outcome(
    line: &str,
    kinds: &BTreeMap<u32, &'static str>,
) -> Option<(&'static str, &'static str)> {
    let (id, rest) = line.strip_prefix('C')?.split_once(": ")?;
    let kind = kinds.get(&id.parse::<u32>().ok()?).copied()?;
    if rest == "every target routs." {
        return Some((kind, "routed at the Roll to Stand"));
    }
    let rest = rest.strip_prefix("mêlée values ")?;
    let code = rest.rsplit(": ").next()?.trim_end_matches('.');
    Some((
        kind,
        match code {
            "AS" => "attacker surrenders",
            "AR" => "attacker routs",
            "blank" => "bounce",
            c if c.starts_with("DR") => "defender routs",
            c if c.starts_with("DS") => "defender surrenders",
            _ => return None,
        },
    ))
}

/// Charge outcomes by kind of charge: `(kind, outcome) -> count`.
type Charges = BTreeMap<(&'static str, &'static str), u32>;

/// The outcome names in the table's order.
const OUTCOMES: [&str; 5] = [
    "attacker surrenders",
    "attacker routs",
    "firefight",
    "defender routs",
    "defender surrenders",
];

/// Increments lost, by the side that inflicted them and how: `(side, cause) -> increments`.
type Causes = BTreeMap<(String, String), u32>;

/// Reads who caused which losses from one resolution's log: fire of every kind (the firer's
/// side), rout losses leaving enemy zones and pursuit (the other side). Losses the log does not
/// name (mêlée results, surrenders) are the rest of `increments_taken`.
fn tally(st: &LbState, lines: &[String], causes: &mut Causes) {
    let side_of = |names: &str| {
        let first = names.split(", ").next().unwrap_or("").trim();
        st.unit(first).map(|u| u.side.clone())
    };
    for l in lines {
        if let (Some(at), Some(end)) = (l.find(": strength "), l.find(" casualt")) {
            let label = &l[..at];
            let n: u32 = l[..end]
                .rsplit(' ')
                .next()
                .and_then(|x| x.parse().ok())
                .unwrap_or(0);
            let (kind, rest) = match (label.find(" of "), label.find(" by ")) {
                (Some(i), _) => (&label[..i], &label[i + 4..]),
                (None, Some(i)) => (&label[..i], &label[i + 4..]),
                _ => continue,
            };
            let kind =
                kind.trim_start_matches(|c: char| c == 'A' || c == 'C' || c.is_ascii_digit());
            let firers = rest.split(" at ").next().unwrap_or("");
            if let Some(side) = side_of(firers) {
                *causes.entry((side, kind.trim().to_string())).or_default() += n;
            }
        } else if let (Some(r), Some(k)) = (l.find(" routs "), l.find(", losing ")) {
            let n: u32 = l[k + 9..]
                .split(' ')
                .next()
                .and_then(|x| x.parse().ok())
                .unwrap_or(0);
            if let Some(side) = side_of(&l[..r]) {
                *causes
                    .entry((
                        st.enemy_of(&side).unwrap_or_default().to_string(),
                        "rout through zones".into(),
                    ))
                    .or_default() += n;
            }
        } else if let Some(p) = l.find("pursuit: ") {
            let rest = &l[p + 9..];
            if let (Some(k), Some(side)) = (rest.find(" lose "), side_of(&l[p + 9..])) {
                let n: u32 = rest[k + 6..]
                    .split(' ')
                    .next()
                    .and_then(|x| x.parse().ok())
                    .unwrap_or(0);
                *causes
                    .entry((
                        st.enemy_of(&side).unwrap_or_default().to_string(),
                        "pursuit".into(),
                    ))
                    .or_default() += n;
            }
        }
    }
}

/// Each objective's hex and the side holding it at the start of `scenario`.
fn start_holders(scenario: &str) -> Vec<(despatch::board::hex::Hex, String)> {
    let text = std::fs::read_to_string(format!(
        "{}/games/la-bataille/scenarios/{scenario}.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let seats = vec!["france".to_string(), "allies".to_string()];
    let st = LaBataille::setup(&ruleset(), &text, &seats).unwrap();
    st.objectives
        .iter()
        .map(|o| (o.hex, o.holder.clone()))
        .collect()
}

/// One random game of `scenario` on seed `game`, to its end (or `steps`), tallying the losses'
/// causes and the infantry mêlées' outcomes.
fn play(
    scenario: &str,
    game: u64,
    steps: u64,
    causes: &mut Causes,
    outcomes: &mut BTreeMap<&'static str, u32>,
    charges: &mut Charges,
) -> LbState {
    let text = std::fs::read_to_string(format!(
        "{}/games/la-bataille/scenarios/{scenario}.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let seats = vec!["france".to_string(), "allies".to_string()];
    let mut st = LaBataille::setup(&ruleset(), &text, &seats).unwrap();
    let mut k = 0;
    let mut kinds = BTreeMap::new();
    while k < steps && LaBataille::outcome(&st).is_none() {
        k += 1;
        let spec = LaBataille::step(&st);
        let mut subs = BTreeMap::new();
        for p in &spec.prompts {
            // Optional mails (standing orders) now and then, as players send them.
            if !p.required && !(k + game).is_multiple_of(4) {
                continue;
            }
            let text = LaBataille::sample_orders(&st, &p.seat, game * 1000 + k);
            let o = LaBataille::parse(&st, &p.seat, &text).unwrap();
            subs.insert(p.seat.clone(), Submitted::Orders(o));
        }
        for p in &spec.prompts {
            subs.entry(p.seat.clone())
                .or_insert(Submitted::Nmr(Silence::StandingOrders));
        }
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&k.to_be_bytes());
        seed[8..16].copy_from_slice(&game.to_be_bytes());
        st = LaBataille::resolve(&st, &subs, &mut Dice::new(seed));
        let lines: Vec<String> = st.log.iter().map(|l| l.text.clone()).collect();
        tally(&st, &lines, causes);
        for o in lines.iter().filter_map(|l| melee_outcome(l)) {
            *outcomes.entry(o).or_default() += 1;
        }
        for l in &lines {
            charge_kind(l, &mut kinds);
            if let Some(o) = charge_outcome(l, &kinds) {
                *charges.entry(o).or_default() += 1;
            }
        }
    }
    st
}

#[test]
fn the_outcome_tally_reads_each_chart_code_and_only_infantry_melees() {
    let line = |who: &str, code: &str| {
        format!(
            "{who}: mêlée values 6 to 4, column 3:2; rolled 3+4 +3 fire +0 leaders = 10: {code}."
        )
    };
    assert_eq!(
        melee_outcome(&line("A1", "AS")),
        Some("attacker surrenders")
    );
    assert_eq!(melee_outcome(&line("A12", "AR")), Some("attacker routs"));
    assert_eq!(melee_outcome(&line("A2", "blank")), Some("firefight"));
    assert_eq!(melee_outcome(&line("A3", "DR2")), Some("defender routs"));
    assert_eq!(
        melee_outcome(&line("A3", "DS3")),
        Some("defender surrenders")
    );
    assert_eq!(melee_outcome(&line("C1", "DR1")), None, "a cavalry charge");
    assert_eq!(melee_outcome("A1: the attackers surrender."), None);
}

#[test]
fn the_charge_tally_names_each_kind_of_charge_and_its_outcome() {
    let mut kinds = BTreeMap::new();
    let lines = [
        "C1: Cavalry Charge vs. Infantry and Artillery Mêlée Procedure.",
        "C2: Reaction Charge! 10th-Hussars and 5e-Cuirassiers meet face to face at 0905 and \
         0906; 10th-Hussars (Allies) become the attacker: Charge marker C3.",
        "C3: Cavalry Charge vs. Cavalry Mêlée Procedure.",
        "C4: Cavalry Charge vs. Cavalry Mêlée Procedure.",
        "C5: Cavalry Charge vs. PGD against 1/45e.",
    ];
    for l in lines {
        charge_kind(l, &mut kinds);
    }
    let roll = |id: u32, code: &str| {
        format!(
            "C{id}: mêlée values 12 to 8, column 3:2; rolled 3+4 +0 fire +0 leaders = 7: {code}."
        )
    };
    assert_eq!(
        charge_outcome(&roll(1, "blank"), &kinds),
        Some(("cavalry vs infantry/artillery", "bounce"))
    );
    assert_eq!(
        charge_outcome(&roll(3, "DR1"), &kinds),
        Some(("reaction charge", "defender routs"))
    );
    assert_eq!(
        charge_outcome(&roll(4, "AS"), &kinds),
        Some(("cavalry vs cavalry", "attacker surrenders"))
    );
    assert_eq!(
        charge_outcome("C1: every target routs.", &kinds),
        Some((
            "cavalry vs infantry/artillery",
            "routed at the Roll to Stand"
        ))
    );
    assert_eq!(
        charge_outcome(&roll(9, "DS2"), &kinds),
        None,
        "no kind known"
    );
    assert_eq!(
        charge_outcome(&roll(1, "DR1").replacen('C', "A", 1), &kinds),
        None
    );
}

#[test]
fn random_games_per_scenario_print_wins_per_side_and_where_the_points_came_from() {
    let games = games();
    let mut misses = Vec::new();
    for scenario in ["teaching", "waterloo-1815"] {
        let mut wins: BTreeMap<String, u32> = BTreeMap::new();
        let mut taken: BTreeMap<String, u32> = BTreeMap::new();
        let mut objective_vp: BTreeMap<String, u32> = BTreeMap::new();
        let mut wiped = 0;
        let mut causes = Causes::new();
        let mut outcomes: BTreeMap<&'static str, u32> = BTreeMap::new();
        let mut charges = Charges::new();
        // Games won by each side, split by whether the French held an objective at the end.
        let mut by_objective: BTreeMap<(bool, String), u32> = BTreeMap::new();
        for g in 0..games {
            let st = play(scenario, g, 600, &mut causes, &mut outcomes, &mut charges);
            let out = LaBataille::outcome(&st)
                .unwrap_or_else(|| panic!("{scenario} game {g} did not end"));
            let who = out.winners.first().cloned().unwrap_or("draw".into());
            // An objective the Allies held at the start (R34: its holder is the last side to
            // stand in it at the end of a player turn).
            let french_hold = st.objectives.iter().any(|o| {
                o.holder == "france"
                    && start_holders(scenario)
                        .iter()
                        .any(|(h, s)| *h == o.hex && s == "allies")
            });
            *by_objective.entry((french_hold, who.clone())).or_default() += 1;
            *wins.entry(who).or_default() += 1;
            if out.summary.contains("no unit left") {
                wiped += 1;
            }
            let per = st.data.rules.vp_per_increment.int().max(0) as u32;
            for (side, vp) in victory_points(&st) {
                let s = st.sides.iter().find(|s| s.id == side).unwrap();
                *taken.entry(side.clone()).or_default() += s.increments_taken;
                *objective_vp.entry(side).or_default() +=
                    vp.saturating_sub(s.increments_taken * per);
            }
            eprintln!("{scenario} game {g}: {}", out.summary);
        }
        let played: u32 = wins.values().sum();
        assert_eq!(played as u64, games, "every game ended and was counted");
        eprintln!("== {scenario}: {games} games");
        for side in ["france", "allies", "draw"] {
            eprintln!("   {side}: {} wins", wins.get(side).copied().unwrap_or(0));
        }
        for side in ["france", "allies"] {
            eprintln!(
                "   {side}: {:.1} enemy increments eliminated and {:.1} VP from objectives a game",
                taken.get(side).copied().unwrap_or(0) as f64 / games as f64,
                objective_vp.get(side).copied().unwrap_or(0) as f64 / games as f64
            );
        }
        eprintln!("   games ended by a side with no unit left: {wiped}");
        let melees: u32 = outcomes.values().sum();
        eprintln!("   infantry mêlée results: {melees}");
        for o in OUTCOMES {
            let n = outcomes.get(o).copied().unwrap_or(0);
            eprintln!(
                "      {o}: {n} ({:.1} %)",
                100.0 * n as f64 / melees.max(1) as f64
            );
        }
        for ((held, who), n) in &by_objective {
            eprintln!(
                "   French {} of the Allies' objectives at the end: {who} {n}",
                if *held { "held one" } else { "held none" }
            );
        }
        let charged: u32 = charges.values().sum();
        eprintln!("   cavalry charge results: {charged}");
        for ((kind, o), n) in &charges {
            eprintln!("      {kind}: {o}: {n}");
        }
        // Issue 28 point 4, checked on the full run only (the smoke's few games prove nothing).
        let firefights = outcomes.get("firefight").copied().unwrap_or(0);
        let surrenders = outcomes.get("attacker surrenders").copied().unwrap_or(0)
            + outcomes.get("defender surrenders").copied().unwrap_or(0);
        // The seed's three outcomes: attacker retreat, firefight, defender retreat (a
        // surrender counted with its side's retreat), "the chance of a firefight … higher".
        let count = |o: &str| outcomes.get(o).copied().unwrap_or(0);
        let attacker_off = count("attacker surrenders") + count("attacker routs");
        let defender_off = count("defender surrenders") + count("defender routs");
        if firefights <= attacker_off || firefights <= defender_off {
            misses.push(format!(
                "{scenario}: firefights {firefights}, attacker off {attacker_off}, defender off {defender_off}"
            ));
        }
        if 2 * surrenders >= melees {
            misses.push(format!(
                "{scenario}: {surrenders} of {melees} mêlées surrendered"
            ));
        }
        for side in ["france", "allies"] {
            let w = wins.get(side).copied().unwrap_or(0);
            if 10 * w < 3 * played {
                misses.push(format!("{scenario}: {side} won {w} of {played}"));
            }
        }
        for ((side, cause), n) in &causes {
            eprintln!(
                "   {side} inflicted {:.2} increments a game by {cause}",
                *n as f64 / games as f64
            );
        }
    }
    eprintln!("== target misses: {misses:?}");
    if full() {
        assert!(misses.is_empty(), "balance target missed: {misses:#?}");
    }
}
