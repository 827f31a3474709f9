//! Render timings (printed figures, no assertions): one snapshot to SVG and to PNG for each
//! shipped naval scenario (opening and after seven steps, both seats) and for a synthetic 60×40
//! hex map with 200 counters. Run with `cargo bench --bench render`.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use despatch::board::hex::{Address, HexGrid, MapBounds, Orientation, Shifted};
use despatch::dice::Dice;
use despatch::engine::scene::{
    At, Condition, LegendEntry, Marker, Pattern, Scene, Shape, SideInfo, Style, Surface, Symbol,
    TerrainArea, Unit, UnitKind, UnitSymbol,
};
use despatch::engine::{Ruleset, Submitted, Viewer};
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
    }
}

fn report(name: &str, scene: &Scene, n: usize) {
    let (svg_t, svg) = time(n, || render::svg(scene));
    let (png_t, png) = time(n, || render::png(scene, MAIL_WIDTH_PX).unwrap());
    println!(
        "{name:<42} {:>6} units  svg {:>8.2} ms ({:>7} B)  png {:>8.2} ms ({:>7} B)",
        scene.units.len(),
        svg_t.as_secs_f64() * 1000.0,
        svg.len(),
        png_t.as_secs_f64() * 1000.0,
        png.len()
    );
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
}
