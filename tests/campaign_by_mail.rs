//! Issue 34: campaigns played by mail from the first battle to the last. Each campaign a ruleset
//! ships (`games/<ruleset>/campaigns/*.toml`) is declared as `despatch campaign new` does, and
//! the rulesets' sample players answer every prompt by mail (through `Daemon::ingest`, to the
//! seat's tokened reply address) until the campaign is over; the next battle must start by
//! itself, its welcome must carry the campaign's note and each game-over mail the standing;
//! then the campaign is re-derived from its battles' journals alone, and a journal whose
//! set-up was edited must fail that. The mails each player got per battle are printed (the
//! figures in each ruleset's README).

use chrono::{DateTime, Duration, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{CampaignNew, Daemon, Intake, PlanSource, derive_campaign};
use despatch::engine::campaign_plan::Next;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap()
}

fn daemon(dir: &std::path::Path) -> Daemon {
    let mut cfg = Config::parse(DEFAULT_CONFIG, &dir.join("config.toml")).unwrap();
    cfg.games.games_dir = format!("{}/games", env!("CARGO_MANIFEST_DIR")).into();
    cfg.games.games_dir_set = true;
    Daemon::new(cfg).unwrap()
}

/// Every seat any battle of the plan names.
fn seats_of_plan(ruleset: &str, plan_text: &str) -> Vec<(String, String)> {
    let plan = despatch::engine::campaign_plan::Plan::parse(plan_text).unwrap();
    let mut seats: Vec<(String, String)> = vec![];
    for b in &plan.battle {
        let text = std::fs::read_to_string(format!(
            "{}/games/{ruleset}/scenarios/{}.toml",
            env!("CARGO_MANIFEST_DIR"),
            b.scenario
        ))
        .unwrap();
        let offer = despatch::engine::lobby::offer_from_toml(ruleset, &b.scenario, &text).unwrap();
        for (s, _) in offer.seats {
            if !seats.iter().any(|(x, _)| *x == s) {
                seats.push((s.clone(), format!("{s}@players.example")));
            }
        }
    }
    seats
}

/// What one campaign left: per battle, the mails each address got.
struct Played {
    battles: Vec<String>,
    mails: Vec<(String, Vec<(String, usize)>)>,
}

/// Plays campaign `name` (already created on `d`) to its end by mail.
fn play_out(d: &Daemon, name: &str, seed: u64, max_steps: u64) -> Played {
    play_until(d, name, seed, max_steps, usize::MAX)
}

/// `play_out`, stopping once the campaign has `battles` battles.
fn play_until(d: &Daemon, name: &str, seed: u64, max_steps: u64, battles: usize) -> Played {
    let mut now = t0();
    let mut n = 0u64;
    let mut last_game = String::new();
    let mut steps_here = 0u64;
    loop {
        let (rec, ledger) = d.campaign_ledger(name).unwrap();
        if ledger.next == Next::Over || rec.games.len() >= battles {
            break;
        }
        let id = rec.games.last().unwrap().clone();
        if id != last_game {
            last_game = id.clone();
            steps_here = 0;
        }
        let store = d.data.game(&id);
        let g = store.open(&d.registry).unwrap();
        assert!(
            !g.is_over(),
            "{name}: battle {id} is over but the campaign did not go on: {ledger:?}"
        );
        steps_here += 1;
        assert!(
            steps_here < max_steps,
            "{name}: battle {id} did not end in {max_steps} rounds"
        );
        let seats = store.seats().unwrap();
        let waiting = g.waiting_for();
        let mut sent = false;
        for seat in &waiting {
            n += 1;
            let orders = g.sample_orders(seat, seed.wrapping_mul(7919).wrapping_add(n));
            let p = &seats.seats[seat];
            let raw = format!(
                "From: <{}>\r\nTo: despatch+{id}.{seat}.{}@localhost\r\nSubject: orders\r\nMessage-ID: <c{n}.{seed}@x>\r\n\r\n{}\r\n",
                p.address,
                p.token,
                orders.replace('\n', "\r\n")
            );
            now += Duration::minutes(7);
            let out = d.ingest(raw.as_bytes(), now).unwrap();
            assert!(
                matches!(out, Intake::Accepted { .. }),
                "{name}: {id} step {}: {out:?}\n{orders}",
                g.book().step
            );
            sent = true;
        }
        if !sent {
            // Nobody is asked (a step the host resolves) or a deadline decides: let the clock run.
            let g = store.open(&d.registry).unwrap();
            now = g.book().deadline.map_or(now + Duration::hours(1), |dl| {
                dl + Duration::hours(g.book().policy.grace_hours as i64) + Duration::minutes(1)
            });
            d.run_once(now).unwrap();
        }
    }
    d.deliver().unwrap();
    let (rec, _) = d.campaign_ledger(name).unwrap();
    let mut mails = vec![];
    for id in &rec.games {
        let mut per: Vec<(String, usize)> = rec
            .seats
            .iter()
            .map(|(_, a)| (a.clone(), count_mails(&d.cfg.mail.outbox, a, id)))
            .collect();
        per.sort();
        mails.push((id.clone(), per));
    }
    Played {
        battles: rec.games,
        mails,
    }
}

/// Mails in the outbox to `address` about game `id` (its tag in the subject).
fn count_mails(outbox: &std::path::Path, address: &str, id: &str) -> usize {
    bodies(outbox, address, id).len()
}

fn bodies(outbox: &std::path::Path, address: &str, id: &str) -> Vec<(String, String)> {
    // The tag is `[<game>]` or `[<game> #<step>]`.
    all_mail(outbox, address)
        .into_iter()
        .filter(|(subject, _)| {
            subject.contains(&format!("[{id}]")) || subject.contains(&format!("[{id} #"))
        })
        .collect()
}

/// Declares `plan` of `ruleset` as campaign `name`, plays it out and checks everything.
fn campaign_played_and_derived(
    ruleset: &str,
    plan: PlanSource,
    plan_text: &str,
    seed: u64,
    league: Option<&str>,
) -> Played {
    let tmp = tempfile::tempdir().unwrap();
    let d = daemon(tmp.path());
    let name = "camp";
    let seats = seats_of_plan(ruleset, plan_text);
    d.create_campaign(
        &CampaignNew {
            name: name.into(),
            ruleset: ruleset.into(),
            plan,
            seats: seats.clone(),
            league: league.map(str::to_string),
            gm: None,
        },
        t0(),
    )
    .unwrap_or_else(|e| panic!("{ruleset}: {e:#}"));
    let played = play_out(&d, name, seed, 600);
    if let Some(l) = league {
        // C7: every battle is a game of the league and counts there.
        let st = despatch::daemon::league_standings(&d.data, &d.registry, l).unwrap();
        assert_eq!(
            st.finished.len(),
            played.battles.len(),
            "{ruleset}: {:?}",
            st.finished
        );
        assert!(st.running.is_empty());
        let games: u32 = st.rows.iter().map(|r| r.played).sum();
        assert_eq!(
            games as usize,
            2 * played.battles.len(),
            "two players a battle"
        );
    }
    // The live site's campaigns page: every battle linked, the standing, the end.
    let page = std::fs::read_to_string(d.site_root().join("campaigns.html")).unwrap();
    for id in &played.battles {
        assert!(
            page.contains(&format!("href=\"{id}/index.html\"")),
            "{ruleset}: {id} linked:\n{page}"
        );
    }
    assert!(
        page.contains("Standing") && page.contains("The campaign is over"),
        "{page}"
    );
    let index = std::fs::read_to_string(d.site_root().join("index.html")).unwrap();
    assert!(index.contains("campaigns.html#campaign-camp"), "{index}");
    let (rec, ledger) = d.campaign_ledger(name).unwrap();
    assert_eq!(ledger.next, Next::Over);
    assert!(ledger.winners.is_some());
    let (_, first_address) = &seats[0];
    for (i, id) in rec.games.iter().enumerate() {
        let got = bodies(&d.cfg.mail.outbox, first_address, id);
        let welcome = got
            .iter()
            .find(|(s, _)| s.contains("Welcome"))
            .unwrap_or_else(|| {
                panic!(
                    "{ruleset}: no welcome for {id}: {:?}",
                    got.iter().map(|g| &g.0).collect::<Vec<_>>()
                )
            });
        assert!(
            welcome.1.contains(&format!("Campaign {name},"))
                && welcome.1.contains(&format!("battle {}", i + 1)),
            "{ruleset}: the welcome of {id} says which battle of the campaign it is:\n{}",
            welcome.1
        );
        let over = got
            .iter()
            .find(|(s, _)| s.contains("Game over"))
            .unwrap_or_else(|| panic!("{ruleset}: no game-over mail for {id}"));
        assert!(
            over.1.contains("THE CAMPAIGN") && over.1.contains("Standing:"),
            "{ruleset}: {id}:\n{}",
            over.1
        );
        let last = i + 1 == rec.games.len();
        assert_eq!(
            over.1.contains("The campaign is over"),
            last,
            "{ruleset}: {id}: only the last battle's game-over mail ends the campaign:\n{}",
            over.1
        );
        if !last {
            assert!(
                over.1.contains("which starts now"),
                "{ruleset}: {id}:\n{}",
                over.1
            );
        }
    }
    // Re-derived from the journals alone: the same standing.
    let dirs: Vec<std::path::PathBuf> = rec.games.iter().map(|g| d.data.game(g).dir).collect();
    let derived =
        derive_campaign(&d.registry, name, &dirs).unwrap_or_else(|e| panic!("{ruleset}: {e:#}"));
    assert_eq!(derived.ledger, ledger);
    assert_eq!(derived.checks.len(), rec.games.len());
    // Positive control: a battle whose journaled set-up was edited is found out.
    let copy = tmp.path().join("edited");
    std::fs::create_dir_all(&copy).unwrap();
    let last_dir = dirs.last().unwrap();
    let journal = std::fs::read_to_string(last_dir.join("journal.jsonl")).unwrap();
    let (first, rest) = journal.split_once('\n').unwrap();
    let mut ev: serde_json::Value = serde_json::from_str(first).unwrap();
    let created = ev
        .get_mut("scenario_toml")
        .expect("scenario_toml in the first line");
    *created = serde_json::Value::String(format!("{}\n# edited\n", created.as_str().unwrap()));
    std::fs::write(
        copy.join("journal.jsonl"),
        format!("{}\n{rest}", serde_json::to_string(&ev).unwrap()),
    )
    .unwrap();
    let mut edited = dirs.clone();
    *edited.last_mut().unwrap() = copy;
    let e = derive_campaign(&d.registry, name, &edited).unwrap_err();
    assert!(
        format!("{e:#}").contains("does not replay"),
        "{ruleset}: {e:#}"
    );
    assert!(
        e.downcast_ref::<despatch::daemon::CampaignDiffers>()
            .is_some(),
        "a tampered battle is a difference (exit 1), not a read error"
    );
    // The carry check itself, both sides: battle 2's journaled set-up is what battle 1 left
    // under the plan's terms, and not what the scenario as shipped would give.
    let b1 = d.data.game(&rec.games[0]).open(&d.registry).unwrap();
    let b2 = d.data.game(&rec.games[1]).open(&d.registry).unwrap();
    let link = b2.book().policy.club.campaign.clone().unwrap();
    let plan = despatch::engine::campaign_plan::Plan::parse(&link.plan).unwrap();
    let journal = std::fs::read_to_string(dirs[1].join("journal.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(journal.lines().next().unwrap()).unwrap();
    let journaled = first["scenario_toml"].as_str().unwrap();
    let before = despatch::engine::campaign_plan::ledger(
        &plan,
        &derived.ledger.sides,
        &[despatch::engine::campaign_plan::Fought {
            game: rec.games[0].clone(),
            key: derived.ledger.rows[0].key.clone(),
            winners: b1.outcome().map(|o| o.winners),
            summary: b1.outcome().unwrap().summary,
            abandoned: false,
        }],
    )
    .unwrap();
    let note = despatch::engine::campaign_plan::welcome_note(name, &plan, 2, &link.key, &before);
    let carried =
        despatch::engine::campaign_plan::battle_scenario(&link, &plan, Some(b1.as_ref()), &note)
            .unwrap();
    assert_eq!(carried, journaled, "{ruleset}");
    let uncarried =
        despatch::engine::campaign_plan::battle_scenario(&link, &plan, None, &note).unwrap();
    assert_ne!(
        uncarried, journaled,
        "{ruleset}: carrying must change the set-up"
    );
    played
}

fn report(ruleset: &str, plan: &str, p: &Played) {
    println!("{ruleset} campaign {plan}: {} battle(s)", p.battles.len());
    for (id, per) in &p.mails {
        println!("  {id}: {per:?}");
    }
}

#[test]
fn the_battles_of_a_campaign_count_in_its_league() {
    let terms = toml::Table::new();
    let text = despatch::engine::campaign_plan::Plan::linear(
        "camp",
        &["training".into(), "training".into()],
        terms.clone(),
    )
    .unwrap();
    let p = campaign_played_and_derived(
        "naval-rjw",
        PlanSource::Scenarios(vec!["training".into(), "training".into()], terms),
        &text,
        7,
        Some("summer"),
    );
    assert_eq!(p.battles, ["camp-1", "camp-2"]);
    report("naval-rjw", "training,training", &p);
}

/// Plays every campaign `ruleset` ships; at least one must exist.
fn shipped_campaigns(ruleset: &str) {
    let dir = std::path::PathBuf::from(format!(
        "{}/games/{ruleset}/campaigns",
        env!("CARGO_MANIFEST_DIR")
    ));
    let mut plans: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{ruleset} ships no campaign: {e}"))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    plans.sort();
    assert!(!plans.is_empty(), "{ruleset} ships no campaign");
    for p in plans {
        let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&p).unwrap();
        let played = campaign_played_and_derived(
            ruleset,
            PlanSource::Shipped(stem.clone()),
            &text,
            11,
            None,
        );
        assert!(
            played.battles.len() >= 2,
            "{ruleset} {stem}: a campaign links battles"
        );
        report(ruleset, &stem, &played);
    }
}

#[test]
fn naval_rjw_campaigns_by_mail() {
    shipped_campaigns("naval-rjw");
}

#[test]
fn gear_krieg_campaigns_by_mail() {
    shipped_campaigns("gear-krieg");
}

#[test]
fn lone_star_campaigns_by_mail() {
    shipped_campaigns("lone-star");
}

#[test]
fn last_hundred_yards_campaigns_by_mail() {
    shipped_campaigns("last-hundred-yards");
}

#[test]
fn la_bataille_campaigns_by_mail() {
    shipped_campaigns("la-bataille");
}

#[test]
fn every_ruleset_ships_a_campaign() {
    let root = format!("{}/games", env!("CARGO_MANIFEST_DIR"));
    for e in std::fs::read_dir(&root).unwrap().flatten() {
        let r = e.file_name().to_string_lossy().into_owned();
        if e.path().join("ruleset.toml").exists() {
            assert!(
                [
                    "naval-rjw",
                    "gear-krieg",
                    "lone-star",
                    "last-hundred-yards",
                    "la-bataille"
                ]
                .contains(&r.as_str()),
                "a new ruleset {r}: add its campaigns test above"
            );
        }
    }
}

/// A battle's game id is the campaign's: a campaign is refused while a game holds an id one
/// of its battles may take, and a plain game may not take one once the campaign exists.
#[test]
fn a_campaigns_game_ids_are_its_own() {
    let tmp = tempfile::tempdir().unwrap();
    let d = daemon(tmp.path());
    let seats = vec![
        ("japan".to_string(), "togo@fleet.example".to_string()),
        ("russia".to_string(), "rozh@fleet.example".to_string()),
    ];
    d.create_game_as(
        "duel-2",
        "naval-rjw",
        "training",
        &seats,
        t0(),
        &Default::default(),
    )
    .unwrap();
    let req = |name: &str| naval_duel(name, None);
    let e = d.create_campaign(&req("duel"), t0()).unwrap_err();
    assert!(
        format!("{e:#}").contains("game `duel-2` already exists"),
        "{e:#}"
    );
    assert!(d.data.campaign("duel").unwrap().is_none(), "nothing made");
    assert!(!d.data.game("duel-1").exists());
    // Another name is free; then its battles' ids are kept from plain games.
    d.create_campaign(&req("bout"), t0()).unwrap();
    let e = d
        .create_game_as(
            "bout-2",
            "naval-rjw",
            "training",
            &seats,
            t0(),
            &Default::default(),
        )
        .unwrap_err();
    assert!(
        format!("{e:#}").contains("kept for the battles of campaign `bout`"),
        "{e:#}"
    );
    d.create_game_as(
        "bout-x",
        "naval-rjw",
        "training",
        &seats,
        t0(),
        &Default::default(),
    )
    .unwrap();
}

/// C6: a player of the campaign who sat out the battle that ended hears the standing from the
/// house; those who played read it in their game-over mail and get no letter.
#[test]
fn players_who_sat_out_a_battle_hear_the_standing() {
    let tmp = tempfile::tempdir().unwrap();
    let d = daemon(tmp.path());
    let plan = vec!["patrol".to_string(), "tidal".to_string()];
    let text =
        despatch::engine::campaign_plan::Plan::linear("camp", &plan, toml::Table::new()).unwrap();
    let seats = seats_of_plan("lone-star", &text);
    assert_eq!(seats.len(), 8, "tidal seats eight, the patrol four");
    d.create_campaign(
        &CampaignNew {
            name: "camp".into(),
            ruleset: "lone-star".into(),
            plan: PlanSource::Scenarios(plan, toml::Table::new()),
            seats: seats.clone(),
            league: None,
            gm: None,
        },
        t0(),
    )
    .unwrap();
    play_until(&d, "camp", 5, 600, 2);
    d.deliver().unwrap();
    let (rec, _) = d.campaign_ledger("camp").unwrap();
    assert_eq!(rec.games, ["camp-1", "camp-2"]);
    let patrol = d.data.game("camp-1").seats().unwrap();
    for (seat, address) in &seats {
        let letters: Vec<(String, String)> = all_mail(&d.cfg.mail.outbox, address)
            .into_iter()
            .filter(|(s, _)| s.contains("[campaign camp] Standing after camp-1"))
            .collect();
        if patrol.seats.contains_key(seat) {
            assert!(letters.is_empty(), "{seat} played the patrol: no letter");
        } else {
            assert_eq!(letters.len(), 1, "{seat} sat out the patrol");
            assert!(
                letters[0].1.contains("Standing:") && letters[0].1.contains("Next: tidal"),
                "{}",
                letters[0].1
            );
        }
    }
}

/// Every mail in the outbox to `address`: (subject, text).
fn all_mail(outbox: &std::path::Path, address: &str) -> Vec<(String, String)> {
    let mut out = vec![];
    for sub in ["new", "cur"] {
        let Ok(rd) = std::fs::read_dir(outbox.join(sub)) else {
            continue;
        };
        for e in rd.flatten() {
            let raw = std::fs::read(e.path()).unwrap();
            let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
            let to = m
                .to()
                .and_then(|t| t.first())
                .and_then(|a| a.address())
                .unwrap_or_default()
                .to_string();
            if to == address {
                out.push((
                    m.subject().unwrap_or_default().to_string(),
                    m.body_text(0).unwrap_or_default().into_owned(),
                ));
            }
        }
    }
    out
}

/// C5 through the daemon: the organiser abandons the first battle; the campaign ends there with
/// no points and no next battle, and says so.
#[test]
fn an_abandoned_battle_ends_the_campaign_there() {
    let tmp = tempfile::tempdir().unwrap();
    let d = daemon(tmp.path());
    d.create_campaign(&naval_duel("cut", Some("gm@club.example")), t0())
        .unwrap();
    d.gm_abandon(
        "cut-1",
        "the Russian player vanished",
        t0() + Duration::days(2),
    )
    .unwrap();
    d.run_once(t0() + Duration::days(2) + Duration::minutes(1))
        .unwrap();
    let (rec, ledger) = d.campaign_ledger("cut").unwrap();
    assert_eq!(rec.games, ["cut-1"], "no second battle");
    assert!(!d.data.game("cut-2").exists());
    assert_eq!(ledger.next, Next::Over);
    assert_eq!(
        ledger.totals,
        [("japan".to_string(), 0), ("russia".to_string(), 0)]
    );
    assert!(ledger.text("cut").contains("the campaign stops here"));
    let page = std::fs::read_to_string(d.site_root().join("campaigns.html")).unwrap();
    assert!(page.contains("the campaign stops here"), "{page}");
}

/// C6, a crash between a battle's end and the next battle's start: the end left the campaign
/// marked due, and the daemon's next pass starts the battle (here the crash is made by taking
/// the second battle away again and marking the campaign due, as the end had left it).
#[test]
fn a_campaign_left_due_by_a_crash_goes_on_at_the_next_pass() {
    let tmp = tempfile::tempdir().unwrap();
    let d = daemon(tmp.path());
    d.create_campaign(&naval_duel("camp", None), t0()).unwrap();
    play_until(&d, "camp", 3, 600, 2);
    let (mut rec, _) = d.campaign_ledger("camp").unwrap();
    assert_eq!(rec.games, ["camp-1", "camp-2"]);
    std::fs::remove_dir_all(d.data.game("camp-2").dir).unwrap();
    rec.games.truncate(1);
    d.data.write_campaign(&rec).unwrap();
    assert_eq!(
        d.campaign_ledger("camp").unwrap().1.next,
        Next::Battle("training-2".into())
    );
    // Without the mark, a pass leaves it (the clock looks only at campaigns marked due).
    d.run_once(t0() + Duration::days(30)).unwrap();
    assert!(!d.data.game("camp-2").exists());
    d.data.mark_campaign_due("camp", "camp-1").unwrap();
    d.run_once(t0() + Duration::days(30) + Duration::minutes(1))
        .unwrap();
    let (rec, ledger) = d.campaign_ledger("camp").unwrap();
    assert_eq!(rec.games, ["camp-1", "camp-2"], "the second battle started");
    assert_eq!(ledger.next, Next::Fighting("training-2".into()));
    assert!(d.data.campaigns_due().is_empty(), "the mark is cleared");
}

/// Two Gunnery Schools in a row for Togo and Rozhestvensky: the campaign the daemon-level
/// tests below declare.
fn naval_duel(name: &str, gm: Option<&str>) -> CampaignNew {
    CampaignNew {
        name: name.into(),
        ruleset: "naval-rjw".into(),
        plan: PlanSource::Scenarios(
            vec!["training".into(), "training".into()],
            toml::Table::new(),
        ),
        seats: vec![
            ("japan".to_string(), "togo@fleet.example".to_string()),
            ("russia".to_string(), "rozh@fleet.example".to_string()),
        ],
        league: None,
        gm: gm.map(str::to_string),
    }
}
