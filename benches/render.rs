//! Render timings (printed figures, no assertions): one snapshot to SVG and to PNG for each
//! shipped naval scenario (opening and after seven steps, both seats) and for a synthetic 60×40
//! hex map with 200 counters; then the pictures' cost per results mail, beside one PNG alone and
//! the whole results mail build, in the same run; the PNG memo is emptied before each timed
//! run, so every figure is a first rasterisation. Run with `cargo bench --bench render`.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use despatch::board::hex::{Address, HexGrid, MapBounds, Orientation, Shifted};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::{Daemon, Intake};
use despatch::dice::Dice;
use despatch::dice::GameSecrets;
use despatch::engine::registry::parse_line;
use despatch::engine::scene::{
    At, Condition, LegendEntry, Marker, Pattern, Scene, Shape, SideInfo, Style, Surface, Symbol,
    TerrainArea, Unit, UnitKind, UnitSymbol,
};
use despatch::engine::{Event, Play, Ruleset, Submitted, Viewer};
use despatch::mail::compose::{MailCtx, drafts_for_event};
use despatch::mail::outbound;
use despatch::render::{self, MAIL_WIDTH_PX};
use despatch::rulesets::naval_rjw::NavalRjw;
use despatch::rulesets::naval_rjw::state::{NavalState, Phase};

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn time<T>(n: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut out = f(); // warm-up (fonts, allocations)
    let runs = (0..n)
        .map(|_| {
            let t = Instant::now();
            out = f();
            t.elapsed()
        })
        .collect();
    (median(runs), out)
}

fn games(path: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/games/naval-rjw/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn naval(scenario: &str, steps: u64) -> NavalState {
    let seats = vec!["japan".to_string(), "russia".to_string()];
    let mut st = NavalRjw::setup(
        &games("ruleset.toml"),
        &games(&format!("scenarios/{scenario}.toml")),
        &seats,
    )
    .unwrap();
    for k in 0..steps {
        if st.phase == Phase::GameOver {
            break;
        }
        let mut subs = BTreeMap::new();
        for p in NavalRjw::step(&st).prompts {
            let text = NavalRjw::sample_orders(&st, &p.seat, k * 31 + 3);
            let orders = NavalRjw::parse(&st, &p.seat, &text).unwrap();
            subs.insert(p.seat.clone(), Submitted::Orders(orders));
        }
        st = NavalRjw::resolve(&st, &subs, &mut Dice::new([3u8.wrapping_add(k as u8); 32]));
    }
    st
}

/// A 60×40 flat-top hex sheet with woods, hills and a town, and 200 counters of two sides.
fn synthetic_hex() -> Scene {
    let grid = HexGrid::new(Orientation::FlatTop, Shifted::Odd);
    let bounds = MapBounds {
        first_column: 1,
        last_column: 60,
        first_row: 1,
        last_row: 40,
    };
    let grid = grid.with_bounds(bounds);
    // A fixed linear congruential sequence: the same map every run.
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % n
    };
    let mut terrain = Vec::new();
    for i in 0..500 {
        let address = Address {
            column: 1 + next(60) as u16,
            row: 1 + next(40) as u16,
        };
        terrain.push(TerrainArea {
            style: ["woods", "hill", "rough", "town"][i % 4].into(),
            shape: Shape::Hex { address },
            label: None,
        });
    }
    let mut taken = std::collections::BTreeSet::new();
    let mut units = Vec::new();
    while units.len() < 200 {
        let address = Address {
            column: 1 + next(60) as u16,
            row: 1 + next(40) as u16,
        };
        if !taken.insert(address) {
            continue;
        }
        let c = grid.centre(grid.hex(address), 1.0);
        let n = units.len();
        let side = if address.column <= 30 { "west" } else { "east" };
        units.push(Unit {
            label: format!("{}/{} Bn", n % 9 + 1, n / 9 + 1),
            side: side.into(),
            kind: UnitKind::Counter {
                symbol: [
                    UnitSymbol::Infantry,
                    UnitSymbol::Armour,
                    UnitSymbol::Artillery,
                    UnitSymbol::Headquarters,
                ][n % 4]
                    .clone(),
                value: None,
                size: None,
            },
            at: At::new(c.x, c.y),
            facing: None,
            condition: if n % 17 == 0 {
                Condition::Wreck
            } else {
                Condition::Active
            },
            markers: if n % 5 == 0 {
                vec![Marker::Hits(1 + (n % 3) as u32)]
            } else {
                vec![]
            },
            track: vec![],
        });
    }
    Scene {
        title: "Synthetic hex benchmark".into(),
        turn: "Turn 7".into(),
        time: "06:40".into(),
        viewer: "As seen by West".into(),
        surface: Surface::Hex { grid, bounds },
        ground: Some("open".into()),
        styles: [
            ("open", "#eef0d8", Pattern::None),
            ("woods", "#9cc49a", Pattern::Trees),
            ("hill", "#d9c49a", Pattern::Contours),
            ("rough", "#cfc7a8", Pattern::Dots),
            ("town", "#c9b8a8", Pattern::Crosshatch),
        ]
        .into_iter()
        .map(|(name, fill, pattern)| {
            let mut s = Style::area(fill).unwrap();
            s.pattern = pattern;
            (name.to_string(), s)
        })
        .collect(),
        terrain,
        sides: vec![
            SideInfo {
                id: "west".into(),
                name: "West".into(),
            },
            SideInfo {
                id: "east".into(),
                name: "East".into(),
            },
        ],
        units,
        zones: vec![],
        arrows: vec![],
        legend: vec![
            LegendEntry {
                symbol: Symbol::Side("west".into()),
                text: "West".into(),
            },
            LegendEntry {
                symbol: Symbol::Side("east".into()),
                text: "East".into(),
            },
            LegendEntry {
                symbol: Symbol::Style("woods".into()),
                text: "woods".into(),
            },
        ],
        compass: false,
        own_side: None,
    }
}

fn report(name: &str, scene: &Scene, n: usize) {
    let (svg_t, svg) = time(n, || render::svg(scene));
    // The PNG memo emptied each time: what a first rasterisation costs.
    let (png_t, png) = time(n, || {
        render::clear_cache();
        render::png(scene, MAIL_WIDTH_PX).unwrap()
    });
    println!(
        "{name:<42} {:>6} units  svg {:>8.2} ms ({:>7} B)  png {:>8.2} ms ({:>7} B)",
        scene.units.len(),
        svg_t.as_secs_f64() * 1000.0,
        svg.len(),
        png_t.as_secs_f64() * 1000.0,
        png.len()
    );
}

/// A naval game played by mail through a Maildir daemon for `steps` results, and the game as
/// it stood right after its last results event, with that event and its journal line.
struct Played {
    _tmp: tempfile::TempDir,
    daemon: Daemon,
    game: Box<dyn Play>,
    event: Event,
    index: u64,
}

fn played(steps: usize) -> Played {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = Config::parse(DEFAULT_CONFIG, &tmp.path().join("config.toml")).unwrap();
    cfg.games.games_dir = format!("{}/games", env!("CARGO_MANIFEST_DIR")).into();
    cfg.games.games_dir_set = true;
    cfg.mail.max_per_sender_per_hour = 1_000_000;
    let d = Daemon::new(cfg).unwrap();
    let seats = [
        ("japan", "togo@example.org"),
        ("russia", "vitgeft@example.org"),
    ];
    let tokens = ["tokenjapanxxxxxxxxxxxxxx", "tokenrussiaxxxxxxxxxxxxx"];
    let mut now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    d.create_game_with(
        "bench",
        "naval-rjw",
        "training",
        &seats.map(|(s, a)| (s.to_string(), a.to_string())),
        now,
        GameSecrets::pinned("bench", [1; 32], [2; 32], 200),
        &tokens.map(String::from),
    )
    .unwrap();
    let mut mails = 0;
    let results = |d: &Daemon| {
        let j = d.data.game("bench").read_journal().unwrap();
        (j.lines.iter().enumerate())
            .filter(|(i, l)| matches!(parse_line(*i as u64, l), Ok(Event::Results { .. })))
            .count()
    };
    while results(&d) < steps {
        let g = d.open_game("bench").unwrap();
        assert!(!g.game.is_over(), "the game ended before {steps} results");
        for seat in g.game.waiting_for() {
            let k = seats.iter().position(|(s, _)| *s == seat).unwrap();
            mails += 1;
            now += chrono::Duration::minutes(1);
            let raw = format!(
                "From: <{}>\r\nTo: despatch+bench.{seat}.{}@localhost\r\nSubject: orders\r\n\
                 Message-ID: <o{mails}@example.org>\r\n\r\n{}\r\n",
                seats[k].1,
                tokens[k],
                g.game.sample_orders(&seat, mails * 7 + 1)
            );
            let out = d.ingest(raw.as_bytes(), now).unwrap();
            assert!(matches!(out, Intake::Accepted { .. }), "{out:?}");
        }
        d.run_once(now).unwrap();
    }
    // The game as it stood right after its last results event, replayed from the journal.
    let journal = d.data.game("bench").read_journal().unwrap();
    let registry = despatch::rulesets::registry();
    let mut game: Option<Box<dyn Play>> = None;
    let mut last = None;
    for (i, line) in journal.lines.iter().enumerate() {
        let ev = parse_line(i as u64, line).unwrap();
        match game.as_mut() {
            None => game = Some(registry.get("naval-rjw").unwrap().open(&ev, line).unwrap()),
            Some(g) => g.apply(&ev, line, i as u64).unwrap(),
        }
        if matches!(ev, Event::Results { .. }) {
            last = Some((game.as_ref().unwrap().boxed_clone(), ev, i as u64));
        }
    }
    let (game, event, index) = last.expect("a results event");
    Played {
        _tmp: tmp,
        daemon: d,
        game,
        event,
        index,
    }
}

/// What one results mail costs: its pictures (one SVG and one PNG per seat, as
/// `mail::compose` builds them), one PNG alone, and the whole mail build, in the same run.
fn results_mail(n: usize) {
    let p = played(3);
    let g = p.daemon.open_game("bench").unwrap();
    // Every seat's results mail goes on its own with its pictures: by default a results mail
    // that asks nothing of a seat waits for its next one as text alone (issue 30 point 2),
    // which would leave the pictures out of the whole mail measured below.
    let mut recipients = g.recipients().to_vec();
    for r in &mut recipients {
        r.private.notify = despatch::store::Notify::all();
    }
    let ctx = MailCtx {
        game_address: &p.daemon.cfg.mail.address,
        recipients: &recipients,
        reference: None,
        salt_key: None,
        journal: None,
        press: None,
        gm_known: false,
        unsubscribe_url: None,
        site_url: None,
        mail_key: None,
        gathered: &[],
        campaign: None,
        now: Utc::now(),
    };
    let scenes: Vec<Scene> = g
        .recipients()
        .iter()
        .map(|r| p.game.view(&Viewer::Seat(r.seat.clone())).map.unwrap())
        .collect();
    let seats = scenes.len();
    // What `mail::compose::rich` does for each seat: the SVG once, the PNG rasterised from it.
    let (pictures, bytes) = time(n, || {
        render::clear_cache();
        scenes
            .iter()
            .map(|scene| {
                let svg = render::svg(scene);
                let png = render::png_from_svg(&svg, MAIL_WIDTH_PX).unwrap();
                svg.len() + png.len()
            })
            .sum::<usize>()
    });
    let first_svg = render::svg(&scenes[0]);
    let (one_png, _) = time(n, || {
        render::clear_cache();
        render::png_from_svg(&first_svg, MAIL_WIDTH_PX).unwrap()
    });
    let (one_svg, _) = time(n, || render::svg(&scenes[0]));
    // The whole results event: every seat's mail composed (pictures included) and built.
    let (whole, built) = time(n, || {
        render::clear_cache();
        let drafts = drafts_for_event(p.game.as_ref(), &p.event, p.index, &ctx).unwrap();
        drafts
            .iter()
            .map(|d| outbound::build(&d.outgoing(&ctx).unwrap()).unwrap().len())
            .collect::<Vec<_>>()
    });
    assert_eq!(built.len(), seats, "one results mail per seat");
    let per_mail = |d: Duration| ms(d) / seats as f64;
    println!(
        "results mail (naval-rjw training, step 3 results, {seats} seats; {bytes} B of pictures):"
    );
    println!(
        "  pictures per results mail (1 SVG + 1 PNG)   {:>8.2} ms",
        per_mail(pictures)
    );
    println!(
        "  whole results mail built                    {:>8.2} ms   (pictures {:.0}%)",
        per_mail(whole),
        100.0 * ms(pictures) / ms(whole)
    );
    println!(
        "  yardsticks: one PNG rasterised alone       {:>8.2} ms",
        ms(one_png)
    );
    println!(
        "              one SVG built alone            {:>8.2} ms",
        ms(one_svg)
    );
    // Issue 32 point 3: the templates are compiled once per process; before, every render (a
    // results mail makes several) compiled all of them again.
    let (compile, _) = time(n, despatch::report::compile);
    println!(
        "  templates compiled once per process         {:>8.2} ms   (what each render paid \
         before they were kept)",
        ms(compile)
    );
}

/// What rewriting one game's live pages costs (issue 31 point 2: after every step), beside
/// what resolving the step's mails costs: the journal replayed, every page and SVG map built
/// (no PNG), compared with what is on disk and the changed files written.
fn live_pages(n: usize) {
    println!("live pages of one game (naval-rjw training, 2 seats; public, seat pages, index):");
    for steps in [1, 3] {
        let p = played(steps);
        let g = p.daemon.open_game("bench").unwrap();
        let mut recipients = g.recipients().to_vec();
        for r in &mut recipients {
            r.private.notify = despatch::store::Notify::all();
        }
        let ctx = MailCtx {
            game_address: &p.daemon.cfg.mail.address,
            recipients: &recipients,
            reference: None,
            salt_key: None,
            journal: None,
            press: None,
            gm_known: false,
            unsubscribe_url: None,
            site_url: None,
            mail_key: None,
            gathered: &[],
            campaign: None,
            now: Utc::now(),
        };
        let (mails, _) = time(n, || {
            render::clear_cache();
            let drafts = drafts_for_event(p.game.as_ref(), &p.event, p.index, &ctx).unwrap();
            drafts
                .iter()
                .map(|d| outbound::build(&d.outgoing(&ctx).unwrap()).unwrap().len())
                .sum::<usize>()
        });
        let (same, files) = time(n, || p.daemon.write_archive("bench", None, None).unwrap().1);
        let dir = p.daemon.archive_dir("bench");
        let (fresh, _) = time(n, || {
            std::fs::remove_dir_all(&dir).unwrap();
            p.daemon.write_archive("bench", None, None).unwrap()
        });
        println!("  after {steps} steps ({files} files):");
        println!(
            "    the step's results mails, composed and built   {:>8.2} ms",
            ms(mails)
        );
        println!(
            "    pages rewritten, nothing changed on disk       {:>8.2} ms   ({:.1}x the mails)",
            ms(same),
            ms(same) / ms(mails)
        );
        println!(
            "    pages rewritten, every file written            {:>8.2} ms",
            ms(fresh)
        );
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    // `cargo test --benches` runs this too: keep that quick.
    let n = if std::env::args().any(|a| a == "--bench") {
        21
    } else {
        1
    };
    println!("median of {n} runs; PNG {MAIL_WIDTH_PX} px wide");
    for scenario in ["training", "yellow-sea-1904"] {
        for (label, steps) in [("opening", 0), ("after 7 steps", 7)] {
            let st = naval(scenario, steps);
            for seat in ["japan", "russia"] {
                let v = NavalRjw::view(&st, &Viewer::Seat(seat.into()));
                report(
                    &format!("{scenario} {label}, {seat}"),
                    v.map.as_ref().unwrap(),
                    n,
                );
            }
        }
    }
    let hex = synthetic_hex();
    report("synthetic 60x40 hex map", &hex, n.clamp(1, 5));
    if let Ok(dir) = std::env::var("DESPATCH_RENDER_OUT") {
        std::fs::create_dir_all(&dir).unwrap();
        let png = render::png(&hex, MAIL_WIDTH_PX).unwrap();
        std::fs::write(format!("{dir}/synthetic-hex.png"), png).unwrap();
        std::fs::write(format!("{dir}/synthetic-hex.svg"), render::svg(&hex)).unwrap();
    }
    results_mail(n);
    live_pages(n);
}
