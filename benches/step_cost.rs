//! What resolving one step costs, beside what a `status` of the same game costs (issue 32
//! point 2: pictures at the cost of text), for every ruleset's largest shipped scenario; then
//! each seat's inline map PNG (the mail's picture) in ms and KB. Printed figures, no
//! assertions. Run with `cargo bench --bench step_cost` (`cargo test --benches` runs one
//! short round). `DESPATCH_RENDER_OUT=<dir>` writes each seat's inline PNG there to look at.
//!
//! A step is resolved through the daemon as a deadline passing with no orders does it
//! (`Daemon::tick`: the results journaled, every seat's mails composed with their pictures and
//! queued, the pages rewritten). Two yardsticks: what `despatch status <game>` does in process
//! (read the game from disk, describe it in a line), and the `despatch status <game>` command
//! itself, run as a process (what an organiser runs; what issue 32's ratios were taken
//! against). Rounds interleave them, each step on a fresh game. The PNG memo is emptied before
//! the "cold" step and kept for the "warm" one (the same scenario's opening, as a daemon that
//! kept a picture from another game of it would); then the cold game's second step, with the
//! PNG memo emptied but what render keeps per game (a map's static layer) kept, and the
//! fsyncs the cold step asked for. `DESPATCH_STEP_COST_ONLY=naval-rjw,lone-star` picks rulesets.

use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};
use despatch::config::{Config, DEFAULT_CONFIG};
use despatch::daemon::Daemon;
use despatch::dice::GameSecrets;
use despatch::engine::Viewer;
use despatch::engine::registry::parse_line;
use despatch::render;

/// Every ruleset's largest shipped scenario and its seats.
const GAMES: [(&str, &str, &[&str]); 5] = [
    ("naval-rjw", "yellow-sea-1904", &["japan", "russia"]),
    ("gear-krieg", "crossroads", &["us", "germany"]),
    ("la-bataille", "waterloo-1815", &["france", "allies"]),
    ("last-hundred-yards", "bridgehead", &["us", "germany"]),
    (
        "lone-star",
        "tidal",
        &[
            "hays",
            "travis",
            "smythe",
            "bowie",
            "von-arnim",
            "von-moltke",
            "enver",
            "krupp",
        ],
    ),
];

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Median and range of `v` (sorted here).
fn spread(v: &mut [f64]) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

/// A daemon on `tmp`, and its configuration file (for `despatch --config`).
fn daemon(tmp: &std::path::Path) -> (Daemon, std::path::PathBuf) {
    let text = DEFAULT_CONFIG
        .replace(
            "data_dir = \"var\"",
            &format!("data_dir = \"{}/var\"", tmp.display()),
        )
        .replace(
            "# games_dir = \"games\"",
            &format!("games_dir = \"{}/games\"", env!("CARGO_MANIFEST_DIR")),
        );
    let path = tmp.join("config.toml");
    std::fs::write(&path, &text).unwrap();
    let cfg = Config::parse(&text, &path).unwrap();
    (Daemon::new(cfg).unwrap(), path)
}

/// `despatch status <id>` run as a process.
fn status_process(config: &std::path::Path, id: &str) -> Duration {
    let t = Instant::now();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_despatch"))
        .arg("--config")
        .arg(config)
        .args(["status", id])
        .output()
        .unwrap();
    let e = t.elapsed();
    assert!(
        out.status.success() && String::from_utf8_lossy(&out.stdout).contains(id),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    e
}

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 1, 5, 9, 0, 0).unwrap()
}

/// Makes game `id`; returns when its first deadline has passed for sure.
fn create(d: &Daemon, id: &str, ruleset: &str, scenario: &str, seats: &[&str]) -> DateTime<Utc> {
    let seats: Vec<(String, String)> = seats
        .iter()
        .map(|s| (s.to_string(), format!("{s}@example.org")))
        .collect();
    let tokens: Vec<String> = (0..seats.len()).map(|k| format!("token{k:0>19}")).collect();
    d.create_game_with(
        id,
        ruleset,
        scenario,
        &seats,
        start(),
        GameSecrets::pinned(id, [1; 32], [2; 32], 200),
        &tokens,
    )
    .unwrap();
    let g = d.open_game(id).unwrap();
    let deadline = g.game.book().deadline.expect("a deadline");
    // Past the deadline and any grace after it.
    deadline + chrono::Duration::days(3)
}

fn results(d: &Daemon, id: &str) -> usize {
    let j = d.data.game(id).read_journal().unwrap();
    (j.lines.iter().enumerate())
        .filter(|(i, l)| {
            matches!(
                parse_line(*i as u64, l),
                Ok(despatch::engine::Event::Results { .. })
            )
        })
        .count()
}

/// What `despatch status <game>` does: read the game, describe it in a line.
fn status(d: &Daemon, id: &str) -> String {
    let registry = despatch::rulesets::registry();
    let g = d.data.game(id).open(&registry).unwrap();
    let b = g.book();
    format!(
        "{}  [{}]  step {}: {} — waiting for {}{:?}",
        b.id,
        g.ruleset(),
        b.step,
        g.spec().title,
        g.waiting_for().join(", "),
        b.deadline
    )
}

fn step_cost(ruleset: &str, scenario: &str, seats: &[&str], rounds: usize) {
    let tmp = tempfile::tempdir().unwrap();
    let (d, config) = daemon(tmp.path());
    // One fresh game per round and kind (made before any timing), plus one to warm up.
    let n = 2 * rounds + 1;
    let mut due = Vec::new();
    for k in 0..n {
        due.push(create(&d, &format!("g{k}"), ruleset, scenario, seats));
    }
    let mails = |d: &Daemon, k: usize| {
        let dir = d.data.game(&format!("g{k}")).dir.join("outbox");
        std::fs::read_dir(dir).map(|r| r.count()).unwrap_or(0)
    };
    let step = |k: usize| {
        let id = format!("g{k}");
        let t = Instant::now();
        d.tick(&id, due[k]).unwrap();
        let e = t.elapsed();
        assert!(results(&d, &id) >= 1, "{id}: the deadline resolved no step");
        e
    };
    // The same game's next step: its deadline passed for sure.
    let next_due = |k: usize| {
        let g = d.open_game(&format!("g{k}")).unwrap();
        g.game.book().deadline.expect("a second deadline") + chrono::Duration::days(3)
    };
    let step_again = |k: usize, due: DateTime<Utc>| {
        let id = format!("g{k}");
        let t = Instant::now();
        d.tick(&id, due).unwrap();
        let e = t.elapsed();
        assert!(
            results(&d, &id) >= 2,
            "{id}: the second deadline resolved no step"
        );
        e
    };
    let stat = |k: usize| {
        let id = format!("g{k}");
        let t = Instant::now();
        std::hint::black_box(status(&d, &id));
        t.elapsed()
    };
    let before = mails(&d, 0);
    step(0);
    let queued = mails(&d, 0) - before;
    stat(0);
    status_process(&config, "g0");
    let mut v: [Vec<f64>; 10] = Default::default();
    for r in 0..rounds {
        let (a, b) = (1 + 2 * r, 2 + 2 * r);
        let s = ms(stat(a));
        let p = ms(status_process(&config, &format!("g{a}")));
        render::clear_cache();
        let f = despatch::store::fsyncs();
        let c = ms(step(a));
        let f = (despatch::store::fsyncs() - f) as f64;
        let w = ms(step(b));
        // The second step of game a: no whole PNG kept, what render keeps per game kept.
        let due = next_due(a);
        render::clear_png_memo();
        let t = ms(step_again(a, due));
        let s = (s + ms(stat(b))) / 2.0;
        let p = (p + ms(status_process(&config, &format!("g{b}")))) / 2.0;
        for (k, x) in [c, w, s, p, c / s, c / p, w / p, t, t / p, f]
            .into_iter()
            .enumerate()
        {
            v[k].push(x);
        }
    }
    let [c, w, s, p, rcs, rcp, rwp, t, rtp, f] = v.map(|mut x| spread(&mut x));
    let fmt = |(m, lo, hi): (f64, f64, f64)| format!("{m:>8.2} [{lo:.2}–{hi:.2}]");
    let fx = |(m, lo, hi): (f64, f64, f64)| format!("{m:>6.1}x [{lo:.1}–{hi:.1}]");
    println!(
        "{ruleset} {scenario} ({} seats, {queued} files queued by the step):",
        seats.len()
    );
    println!(
        "  step, PNG memo cold      {} ms  {} the status process, {} status in process",
        fmt(c),
        fx(rcp),
        fx(rcs)
    );
    println!(
        "  step, PNG memo warm      {} ms  {} the status process",
        fmt(w),
        fx(rwp)
    );
    println!(
        "  step 2 of the same game  {} ms  {} the status process (PNG memo emptied first)",
        fmt(t),
        fx(rtp)
    );
    println!(
        "  fsyncs, cold step        {:>8.0} [{:.0}–{:.0}]",
        f.0, f.1, f.2
    );
    println!("  status, process          {} ms  (yardstick)", fmt(p));
    println!("  status, in process       {} ms  (yardstick)", fmt(s));
    pictures(&d, "g0", ruleset, scenario, seats, rounds);
}

/// Each seat's inline map PNG as the results mail builds it: ms (median of `rounds`, cache
/// cold; then over its kept static layer, the whole PNG not kept) and KB; and what drawing its
/// SVG costs (once per seat and step, kept or not).
fn pictures(d: &Daemon, id: &str, ruleset: &str, scenario: &str, seats: &[&str], rounds: usize) {
    let g = d.open_game(id).unwrap();
    let out = std::env::var("DESPATCH_RENDER_OUT").ok();
    for seat in seats {
        let view = g.game.view(&Viewer::Seat(seat.to_string()));
        let Some(scene) = view.map.as_ref() else {
            continue;
        };
        // Drawing the SVG (placing labels and numbers) is paid per seat and step whether or not
        // the PNG is kept: timed on its own.
        let mut draw: Vec<f64> = (0..rounds.max(1))
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(render::svg_and_inline(scene));
                ms(t.elapsed())
            })
            .collect();
        let (draw, dlo, dhi) = spread(&mut draw);
        let (_, inline, _) = render::svg_and_inline(scene);
        let mut runs: Vec<f64> = (0..rounds.max(1))
            .map(|_| {
                render::clear_cache();
                let t = Instant::now();
                std::hint::black_box(render::inline_png(&inline).unwrap());
                ms(t.elapsed())
            })
            .collect();
        let (cold, lo, hi) = spread(&mut runs);
        // A new picture of the same frame: the whole PNG not kept, its static layer kept.
        let mut runs: Vec<f64> = (0..rounds.max(1))
            .map(|_| {
                render::clear_png_memo();
                let t = Instant::now();
                std::hint::black_box(render::inline_png(&inline).unwrap());
                ms(t.elapsed())
            })
            .collect();
        let (layer, llo, lhi) = spread(&mut runs);
        let t = Instant::now();
        let png = render::inline_png(&inline).unwrap();
        let warm = ms(t.elapsed());
        println!(
            "  {seat:<11} inline PNG {:>7.2} ms cold [{lo:.2}–{hi:.2}], {layer:>6.2} ms over its kept layer [{llo:.2}–{lhi:.2}], {warm:>6.2} ms kept whole, {:>6.1} KB, {}; its SVG drawn {draw:.2} ms [{dlo:.2}–{dhi:.2}]",
            cold,
            png.len() as f64 / 1024.0,
            dims(&png)
        );
        if std::env::var("DESPATCH_STEP_PHASES").is_ok() {
            phases::print(&inline, render::INLINE_PNG_PX);
        }
        if let Some(dir) = &out {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(format!("{dir}/{ruleset}-{scenario}-{seat}.png"), &png).unwrap();
        }
    }
}

/// A PNG's width × height, from its header.
fn dims(png: &[u8]) -> String {
    let be = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    format!("{}x{}", be(16), be(20))
}

fn main() {
    // `cargo test --benches` runs this too: keep that quick (one short round, one ruleset).
    let full = std::env::args().any(|a| a == "--bench");
    let rounds = if full { 7 } else { 1 };
    let only = std::env::var("DESPATCH_STEP_COST_ONLY").ok();
    println!("step cost beside `status`, median [min–max] of {rounds} interleaved rounds");
    for (ruleset, scenario, seats) in GAMES {
        let skip = only
            .as_deref()
            .is_some_and(|o| !o.split(',').any(|o| o == ruleset));
        if skip || (!full && ruleset != "naval-rjw") {
            continue;
        }
        step_cost(ruleset, scenario, seats, rounds);
    }
}

/// Where a picture's time goes (parse with text layout, render, encode), and what each PNG
/// encoding option costs and weighs, on one inline SVG: the figures the encoder was chosen by.
mod phases {
    use super::ms;
    use resvg::{tiny_skia, usvg};
    use std::sync::Arc;
    use std::time::Instant;

    fn opt() -> usvg::Options<'static> {
        let mut db = usvg::fontdb::Database::new();
        for f in [
            include_bytes!("../src/render/fonts/DejaVuSans.ttf").as_slice(),
            include_bytes!("../src/render/fonts/DejaVuSans-Bold.ttf").as_slice(),
            include_bytes!("../src/render/fonts/DejaVuSansCondensed.ttf").as_slice(),
        ] {
            db.load_font_data(f.to_vec());
        }
        db.set_sans_serif_family("DejaVu Sans");
        usvg::Options {
            font_family: "DejaVu Sans".into(),
            fontdb: Arc::new(db),
            ..usvg::Options::default()
        }
    }

    /// Parses and draws `svg` `px` wide: the parse's and the drawing's ms, and the picture.
    fn render_ms(o: &usvg::Options, svg: &str, px: u32) -> (f64, f64, tiny_skia::Pixmap) {
        let t = Instant::now();
        let tree = usvg::Tree::from_str(svg, o).unwrap();
        let parse = ms(t.elapsed());
        let s = px as f32 / tree.size().width();
        let h = (tree.size().height() * s).round() as u32;
        let t = Instant::now();
        let mut pm = tiny_skia::Pixmap::new(px, h).unwrap();
        resvg::render(
            &tree,
            tiny_skia::Transform::from_scale(s, s),
            &mut pm.as_mut(),
        );
        (parse, ms(t.elapsed()), pm)
    }

    pub fn print(svg: &str, px: u32) {
        let o = opt();
        let (parse, render, pm) = render_ms(&o, svg, px);
        let h = pm.height();
        let t = Instant::now();
        let today = pm.encode_png().unwrap();
        let enc = ms(t.elapsed());
        println!(
            "    one pass, uncut: parse+text {parse:.1} ms, render {render:.1} ms, RGBA PNG \
             (tiny-skia's encoder) {enc:.1} ms {} KB",
            today.len() / 1024
        );
        let rgba = pm.clone().take_demultiplied();
        for (name, c) in [
            ("rgba fast", png::Compression::Fast),
            ("rgba balanced", png::Compression::Balanced),
        ] {
            let t = Instant::now();
            let mut out = Vec::new();
            let mut e = png::Encoder::new(&mut out, px, h);
            e.set_color(png::ColorType::Rgba);
            e.set_compression(c);
            e.write_header().unwrap().write_image_data(&rgba).unwrap();
            println!(
                "    {name:<22} {:>6.1} ms {:>5} KB",
                ms(t.elapsed()),
                out.len() / 1024
            );
        }
        let mut distinct = std::collections::HashSet::new();
        for p in rgba.chunks_exact(4) {
            distinct.insert([p[0], p[1], p[2], p[3]]);
        }
        for samplefac in [10, 30] {
            for (name, c) in [
                ("fast", png::Compression::Fast),
                ("balanced", png::Compression::Balanced),
            ] {
                let t = Instant::now();
                let nq = color_quant::NeuQuant::new(samplefac, 256, &rgba);
                let train = ms(t.elapsed());
                let mut memo = std::collections::HashMap::new();
                let idx: Vec<u8> = rgba
                    .chunks_exact(4)
                    .map(|p| {
                        *memo
                            .entry([p[0], p[1], p[2], p[3]])
                            .or_insert_with(|| nq.index_of(p) as u8)
                    })
                    .collect();
                let map = ms(t.elapsed()) - train;
                let mut out = Vec::new();
                let mut e = png::Encoder::new(&mut out, px, h);
                e.set_color(png::ColorType::Indexed);
                e.set_palette(nq.color_map_rgb());
                e.set_trns(nq.color_map_alpha());
                e.set_compression(c);
                e.write_header().unwrap().write_image_data(&idx).unwrap();
                println!(
                    "    palette nq{samplefac} {name:<9} {:>6.1} ms {:>5} KB (train {train:.1}, map {map:.1}; {} colours before)",
                    ms(t.elapsed()),
                    out.len() / 1024,
                    distinct.len()
                );
            }
        }
    }
}
