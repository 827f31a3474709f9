//! Issue 16 point 7 (campaigns): a finished game's losses carried into the next scenario's
//! set-up — Naval RJW rulings R64–R66, Gear Krieg R35–R36 (each named by a test below) — and
//! end to end: a Naval battle played by mail (orders in the players' own syntax, the
//! ruleset's sample orders) until a ship is sunk, then a second game `--carry-from` it whose
//! journal, state and welcome mail lack her. A ruleset without campaigns refuses clearly.

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake, NewGame};
use despatch::dice::GameSecrets;
use despatch::engine::{Game, Play, Ruleset, Silence};
use despatch::rulesets::gear_krieg::GearKrieg;
use despatch::rulesets::naval_rjw::NavalRjw;
use despatch::rulesets::naval_rjw::state::{Fate, NavalState};

fn shipped(ruleset: &str, file: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/games/{ruleset}/{file}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn naval(scenario: &str) -> NavalState {
    NavalRjw::setup(
        &shipped("naval-rjw", "ruleset.toml"),
        scenario,
        &["japan".into(), "russia".into()],
    )
    .unwrap()
}

fn ship<'a>(
    st: &'a mut NavalState,
    name: &str,
) -> &'a mut despatch::rulesets::naval_rjw::state::Ship {
    st.ships.iter_mut().find(|s| s.name == name).unwrap()
}

fn names(st: &NavalState, side: &str) -> Vec<String> {
    st.ships
        .iter()
        .filter(|s| s.side == side)
        .map(|s| s.name.clone())
        .collect()
}

#[test]
fn r64_sunk_and_struck_ships_are_gone_and_escaped_ones_come_back() {
    let training = shipped("naval-rjw", "scenarios/training.toml");
    let mut st = naval(&training);
    ship(&mut st, "Asahi").fate = Fate::Sunk;
    ship(&mut st, "Burny").fate = Fate::Struck;
    ship(&mut st, "Akatsuki").fate = Fate::Escaped;
    let next = naval(&NavalRjw::carry(&st, &training, &toml::Table::new()).unwrap());
    assert_eq!(names(&next, "japan"), ["Mikasa", "Chitose", "Akatsuki"]);
    assert_eq!(names(&next, "russia"), ["Tsesarevich", "Retvizan", "Amur"]);
    // Positive control: carrying an untouched battle changes no fleet.
    let fresh = naval(&training);
    let same = naval(&NavalRjw::carry(&fresh, &training, &toml::Table::new()).unwrap());
    assert_eq!(names(&same, "japan"), names(&fresh, "japan"));
}

#[test]
fn r65_damage_is_repaired_between_battles() {
    let training = shipped("naval-rjw", "scenarios/training.toml");
    let mut st = naval(&training);
    let m = ship(&mut st, "Mikasa");
    m.hit_markers = 3;
    m.criticals = vec![despatch::rulesets::naval_rjw::state::Critical::Gunnery];
    m.mine_crippled = true;
    let mut next = naval(&NavalRjw::carry(&st, &training, &toml::Table::new()).unwrap());
    let m = ship(&mut next, "Mikasa");
    assert_eq!(
        (m.hit_markers, m.criticals.len(), m.mine_crippled),
        (0, 0, false)
    );
}

#[test]
fn r66_the_flag_passes_on_and_a_fleet_without_two_capital_ships_cannot_sail() {
    let training = shipped("naval-rjw", "scenarios/training.toml");
    let mut st = naval(&training);
    ship(&mut st, "Mikasa").fate = Fate::Sunk;
    let next = naval(&NavalRjw::carry(&st, &training, &toml::Table::new()).unwrap());
    let japan = next.fleets.iter().find(|f| f.side == "japan").unwrap();
    assert_eq!(japan.flagship.as_deref(), Some("Asahi"));
    assert_eq!(japan.second.as_deref(), Some("Chitose"));
    let line = next
        .groups
        .iter()
        .find(|g| g.side == "japan" && !g.flotilla)
        .unwrap();
    assert_eq!(line.ships, ["Asahi"], "the battle line keeps its survivor");
    ship(&mut st, "Chitose").fate = Fate::Sunk;
    let e = NavalRjw::carry(&st, &training, &toml::Table::new())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("japan has fewer than two capital ships left") && e.contains("R66"),
        "{e}"
    );
}

fn gear_krieg() -> (String, despatch::rulesets::gear_krieg::state::GkState) {
    let scenario = shipped("gear-krieg", "scenarios/crossroads.toml");
    let st = GearKrieg::setup(
        &shipped("gear-krieg", "ruleset.toml"),
        &scenario,
        &["us".into(), "germany".into()],
    )
    .unwrap();
    (scenario, st)
}

#[test]
fn r35_a_destroyed_unit_is_gone_from_the_next_battle_and_its_briefing() {
    let (scenario, mut st) = gear_krieg();
    let unit = |st: &mut despatch::rulesets::gear_krieg::state::GkState, n: &str| {
        st.units.iter_mut().position(|u| u.name == n).unwrap()
    };
    let i = unit(&mut st, "Valkurie-1");
    st.units[i].destroyed = true;
    let carried = GearKrieg::carry(&st, &scenario, &toml::Table::new()).unwrap();
    let next = GearKrieg::setup(
        &shipped("gear-krieg", "ruleset.toml"),
        &carried,
        &["us".into(), "germany".into()],
    )
    .unwrap();
    let germans: Vec<_> = next
        .units
        .iter()
        .filter(|u| u.side == "germany")
        .map(|u| u.name.as_str())
        .collect();
    assert_eq!(germans, ["Valkurie-2", "Squad-1", "Squad-2"]);
    // What the welcome mail tells the German seat of its forces (its briefing sections).
    let brief = |st: &despatch::rulesets::gear_krieg::state::GkState| {
        GearKrieg::briefing(st, "germany")
            .into_iter()
            .flat_map(|(t, lines)| std::iter::once(t).chain(lines))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(brief(&st).contains("Valkurie-1"), "positive control");
    assert!(!brief(&next).contains("Valkurie-1"), "{}", brief(&next));
}

#[test]
fn r36_damage_is_repaired_and_victory_points_are_not_carried() {
    let (scenario, mut st) = gear_krieg();
    for u in st.units.iter_mut().filter(|u| u.name == "General-1") {
        u.light = 2;
        u.heavy = 1;
    }
    for s in st.sides.iter_mut() {
        s.vp = 12;
    }
    let next = GearKrieg::setup(
        &shipped("gear-krieg", "ruleset.toml"),
        &GearKrieg::carry(&st, &scenario, &toml::Table::new()).unwrap(),
        &["us".into(), "germany".into()],
    )
    .unwrap();
    let g = next.units.iter().find(|u| u.name == "General-1").unwrap();
    assert_eq!((g.light, g.heavy), (0, 0));
    assert!(next.sides.iter().all(|s| s.vp == 0));
}

fn terms(text: &str) -> toml::Table {
    text.parse().unwrap()
}

#[test]
fn r67_without_repair_damage_stays_with_the_ship() {
    let training = shipped("naval-rjw", "scenarios/training.toml");
    let mut st = naval(&training);
    let m = ship(&mut st, "Mikasa");
    m.hit_markers = 2;
    m.critical_marker = true;
    m.criticals = vec![despatch::rulesets::naval_rjw::state::Critical::Gunnery];
    m.mine_crippled = true;
    ship(&mut st, "Retvizan").hit_markers = 1;
    let kept = naval(&NavalRjw::carry(&st, &training, &terms("repair = false")).unwrap());
    let mut kept = kept;
    let m = ship(&mut kept, "Mikasa");
    assert_eq!(
        (
            m.hit_markers,
            m.criticals.clone(),
            m.mine_crippled,
            m.critical_marker
        ),
        (
            2,
            vec![despatch::rulesets::naval_rjw::state::Critical::Gunnery],
            true,
            false
        )
    );
    assert_eq!(ship(&mut kept, "Retvizan").hit_markers, 1);
    assert_eq!(
        ship(&mut kept, "Asahi").hit_markers,
        0,
        "an undamaged ship stays undamaged"
    );
    // The other side of the term: `repair = true` (the default) repairs.
    let mut fixed = naval(&NavalRjw::carry(&st, &training, &terms("repair = true")).unwrap());
    assert_eq!(ship(&mut fixed, "Mikasa").hit_markers, 0);
    assert!(ship(&mut fixed, "Mikasa").criticals.is_empty());
    // A term the ruleset does not know, or a value that is not yes/no, is refused.
    let e = NavalRjw::carry(&st, &training, &terms("repairs = false"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("carry term `repairs`") && e.contains("repair"),
        "{e}"
    );
    let e = NavalRjw::carry(&st, &training, &terms("repair = \"no\""))
        .unwrap_err()
        .to_string();
    assert!(e.contains("write true or false"), "{e}");
    // A scenario naming a critical that does not exist is refused, not read as none.
    let bad = NavalRjw::carry(&st, &training, &terms("repair = false"))
        .unwrap()
        .replace("\"Gunnery\"", "\"Boilers\"");
    let e = NavalRjw::setup(
        &shipped("naval-rjw", "ruleset.toml"),
        &bad,
        &["japan".into(), "russia".into()],
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("critical `Boilers`"), "{e}");
}

#[test]
fn r37_without_repair_damage_and_lost_troopers_stay() {
    let (scenario, mut st) = gear_krieg();
    for u in st.units.iter_mut() {
        if u.name == "General-1" {
            u.light = 2;
            u.heavy = 1;
        }
        if u.name == "Squad-1" {
            let n = u.troopers.len();
            for t in u.troopers.iter_mut().take(2) {
                t.hits = t.circles;
            }
            assert!(n > 2);
        }
    }
    let setup = |text: &str| {
        GearKrieg::setup(
            &shipped("gear-krieg", "ruleset.toml"),
            text,
            &["us".into(), "germany".into()],
        )
        .unwrap()
    };
    let kept = setup(&GearKrieg::carry(&st, &scenario, &terms("repair = false")).unwrap());
    let g = kept.units.iter().find(|u| u.name == "General-1").unwrap();
    assert_eq!((g.light, g.heavy), (2, 1));
    let squad = kept.units.iter().find(|u| u.name == "Squad-1").unwrap();
    assert_eq!(squad.troopers.iter().filter(|t| !t.alive()).count(), 2);
    let fresh = kept.units.iter().find(|u| u.name == "Squad-2").unwrap();
    assert!(
        fresh.troopers.iter().all(|t| t.alive()),
        "an untouched squad is whole"
    );
    let fixed = setup(&GearKrieg::carry(&st, &scenario, &terms("repair = true")).unwrap());
    let g = fixed.units.iter().find(|u| u.name == "General-1").unwrap();
    assert_eq!((g.light, g.heavy), (0, 0));
    let squad = fixed.units.iter().find(|u| u.name == "Squad-1").unwrap();
    assert!(squad.troopers.iter().all(|t| t.alive()));
    let e = GearKrieg::carry(&st, &scenario, &terms("fatigue = 1"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("carry term `fatigue`"), "{e}");
}

// ---- end to end, through the daemon ----

const SEATS: [(&str, &str); 2] = [
    ("japan", "togo@fleet.example"),
    ("russia", "rozh@fleet.example"),
];

fn daemon(tmp: &std::path::Path, on_silence: Silence) -> Daemon {
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.join("config.toml")).unwrap();
    cfg.games.games_dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games");
    cfg.games.policy.on_silence = on_silence;
    Daemon::new(cfg).unwrap()
}

fn create(
    d: &Daemon,
    id: &str,
    ruleset: &str,
    scenario: &str,
    seats: &[(&str, &str)],
    extras: &NewGame,
) -> anyhow::Result<()> {
    let pairs: Vec<(String, String)> = seats
        .iter()
        .map(|(s, a)| (s.to_string(), a.to_string()))
        .collect();
    let tokens: Vec<String> = seats
        .iter()
        .map(|(s, _)| format!("{id}{s}xxxxxxxxxxxxxxxxxxxxxxx")[..24].to_string())
        .collect();
    d.create_game_full(
        id,
        ruleset,
        scenario,
        &pairs,
        t0(),
        GameSecrets::pinned(id, [7; 32], [8; 32], 500),
        &tokens,
        extras,
    )?;
    d.deliver()?;
    Ok(())
}

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 10, 1, 9, 0, 0).unwrap()
}

/// Plays `id` by mail with the ruleset's sample orders until a ship is sunk, then lets every
/// seat fall silent past the deadline: under `forfeit` that ends it. `None` when the battle
/// ended with no ship sunk (the dice decide: another game id, other dice).
fn play_until_a_ship_sinks(d: &Daemon, id: &str) -> Option<String> {
    let store = d.data.game(id);
    let mut now = t0();
    let mut n = 0u64;
    loop {
        let g: Game<NavalRjw> = store.load().unwrap();
        if let Some(s) = g.state.ships.iter().find(|s| s.fate == Fate::Sunk) {
            let sunk = s.name.clone();
            if !g.is_over() {
                now = g.deadline.unwrap() + Duration::hours(1);
                d.run_once(now).unwrap();
            }
            let g: Game<NavalRjw> = store.load().unwrap();
            assert!(g.is_over(), "the silent seats forfeited");
            return Some(sunk);
        }
        if g.is_over() {
            return None;
        }
        assert!(g.step < 300, "no ship sank (step {})", g.step);
        for seat in g.waiting_for() {
            n += 1;
            let orders = NavalRjw::sample_orders(&g.state, &seat, n.wrapping_mul(7919));
            let token = format!("{id}{seat}xxxxxxxxxxxxxxxxxxxxxxx")[..24].to_string();
            let raw = format!(
                "From: <{}>\r\nTo: despatch+{id}.{seat}.{token}@localhost\r\nSubject: orders\r\nMessage-ID: <o{n}.{id}@fleet.example>\r\n\r\n{}\r\n",
                SEATS.iter().find(|s| s.0 == seat).unwrap().1,
                orders.replace('\n', "\r\n")
            );
            now += Duration::minutes(5);
            let out = d.ingest(raw.as_bytes(), now).unwrap();
            assert!(matches!(out, Intake::Accepted { .. }), "{out:?}\n{orders}");
        }
    }
}

/// The seat's own fleet as its welcome mail lists it (the mail's order reference names
/// ships of its own in examples, so the whole text is not the fleet).
fn own_fleet(welcome: &str) -> String {
    let from = welcome.find("YOUR FLEET").expect("a fleet section");
    let to = welcome[from..]
        .find("ENEMY FLEET")
        .expect("then the enemy's")
        + from;
    welcome[from..to].to_string()
}

/// The text of the welcome mail `game` sent `address`.
fn welcome(d: &Daemon, game: &str, address: &str) -> String {
    d.deliver().unwrap();
    let mut files: Vec<_> = std::fs::read_dir(d.cfg.mail.outbox.join("new"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .into_iter()
        .filter_map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            let m = mail_parser::MessageParser::default().parse(&bytes).unwrap();
            let to = m.to()?.first()?.address()?.to_string();
            let subject = m.subject()?.to_string();
            (to == address && subject.contains(&format!("[{game}")) && subject.contains("elcome"))
                .then(|| m.body_text(0).unwrap().into_owned())
        })
        .next()
        .unwrap_or_else(|| panic!("no welcome from {game} to {address}"))
}

#[test]
fn a_naval_campaign_carries_a_sunk_ship_out_of_the_next_battle() {
    let tmp = tempfile::tempdir().unwrap();
    let d = daemon(tmp.path(), Silence::Forfeit);
    // The first battle that ends with a ship sunk: each game id rolls other dice.
    let (first, sunk) = ["g1", "g1b", "g1c", "g1d", "g1e"]
        .iter()
        .find_map(|id| {
            create(&d, id, "naval-rjw", "training", &SEATS, &NewGame::default()).unwrap();
            play_until_a_ship_sinks(&d, id).map(|s| (id.to_string(), s))
        })
        .expect("a ship sank in one of five battles");
    let side = {
        let g: Game<NavalRjw> = d.data.game(&first).load().unwrap();
        g.state
            .ships
            .iter()
            .find(|s| s.name == sunk)
            .unwrap()
            .side
            .clone()
    };
    let address = SEATS.iter().find(|s| s.0 == side).unwrap().1;
    // Positive control: the first battle's welcome names her.
    assert!(own_fleet(&welcome(&d, &first, address)).contains(&sunk));
    // The second battle, seats taken by other players (allowed: sides match by id).
    let next_seats = [
        ("japan", "kamimura@fleet.example"),
        ("russia", "jessen@fleet.example"),
    ];
    let extras = NewGame {
        league: None,
        carry_from: Some(first.clone()),
        gm: None,
        campaign: None,
    };
    create(&d, "g2", "naval-rjw", "training", &next_seats, &extras).unwrap();
    let g2: Game<NavalRjw> = d.data.game("g2").load().unwrap();
    assert!(!names(&g2.state, &side).contains(&sunk), "{sunk} is gone");
    assert!(!names(&g2.state, &side).is_empty());
    // The journal alone replays the carried set-up: its first line holds the scenario.
    let journal = std::fs::read_to_string(d.data.game("g2").journal_path()).unwrap();
    let first: serde_json::Value = serde_json::from_str(journal.lines().next().unwrap()).unwrap();
    let scen = first["scenario_toml"].as_str().unwrap();
    assert!(!scen.contains(&format!("\"{sunk}\"")), "{scen}");
    assert!(
        scen.contains("Campaign: this battle follows the last one"),
        "{scen}"
    );
    let (_, findings) = despatch::verify::verify_store(&d.data.game("g2"), &d.registry);
    assert!(findings.is_empty(), "{findings:?}");
    let next_address = next_seats.iter().find(|s| s.0 == side).unwrap().1;
    let fleet = own_fleet(&welcome(&d, "g2", next_address));
    assert!(!fleet.contains(&sunk), "{fleet}");
    assert!(fleet.contains(&names(&g2.state, &side)[0]), "{fleet}");
}

#[test]
fn a_running_game_and_another_ruleset_are_refused_clearly() {
    let tmp = tempfile::tempdir().unwrap();
    let d = daemon(tmp.path(), Silence::StandingOrders);
    create(
        &d,
        "n1",
        "naval-rjw",
        "training",
        &SEATS,
        &NewGame::default(),
    )
    .unwrap();
    let extras = NewGame {
        league: None,
        carry_from: Some("n1".into()),
        gm: None,
        campaign: None,
    };
    let e = create(&d, "n2", "naval-rjw", "training", &SEATS, &extras).unwrap_err();
    assert!(
        format!("{e:#}").contains("that game is still running"),
        "{e:#}"
    );
    let e = create(
        &d,
        "n3",
        "gear-krieg",
        "crossroads",
        &[("us", "a@x.example"), ("germany", "b@x.example")],
        &extras,
    )
    .unwrap_err();
    assert!(
        format!("{e:#}").contains("a campaign stays in one ruleset"),
        "{e:#}"
    );
}
