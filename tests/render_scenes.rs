//! The scenes the renderer's own tests draw (`src/render/raster_tests.rs`, which may not name a
//! ruleset) are kept as JSON in `tests/fixtures/scenes/`: every ruleset's largest scenario as
//! its first seat sees it at the start. This test sets each up again and fails when a fixture
//! is no longer what the ruleset draws; `DESPATCH_BLESS=1` writes them anew.

use despatch::engine::scene::Scene;
use despatch::engine::{Ruleset, Viewer};
use despatch::rulesets::{
    gear_krieg::GearKrieg, la_bataille::LaBataille, last_hundred_yards::LastHundredYards,
    lone_star::LoneStar, naval_rjw::NavalRjw,
};

fn scene<R: Ruleset>(ruleset: &str, scenario: &str, seats: &[&str]) -> Scene {
    let read = |p: &str| {
        std::fs::read_to_string(format!(
            "{}/games/{ruleset}/{p}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    };
    let seats: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
    let st = R::setup(
        &read("ruleset.toml"),
        &read(&format!("scenarios/{scenario}.toml")),
        &seats,
    )
    .unwrap();
    R::view(&st, &Viewer::Seat(seats[0].clone())).map.unwrap()
}

fn scenes() -> Vec<(&'static str, Scene)> {
    vec![
        (
            "naval-rjw-yellow-sea-1904",
            scene::<NavalRjw>("naval-rjw", "yellow-sea-1904", &["japan", "russia"]),
        ),
        (
            "gear-krieg-crossroads",
            scene::<GearKrieg>("gear-krieg", "crossroads", &["us", "germany"]),
        ),
        (
            "la-bataille-waterloo-1815",
            scene::<LaBataille>("la-bataille", "waterloo-1815", &["france", "allies"]),
        ),
        (
            "last-hundred-yards-bridgehead",
            scene::<LastHundredYards>("last-hundred-yards", "bridgehead", &["us", "germany"]),
        ),
        (
            "lone-star-tidal",
            scene::<LoneStar>(
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
        ),
    ]
}

#[test]
fn the_renderers_scene_fixtures_are_what_the_rulesets_draw() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scenes");
    let bless = std::env::var_os("DESPATCH_BLESS").is_some();
    std::fs::create_dir_all(&dir).unwrap();
    for (name, s) in scenes() {
        let path = dir.join(format!("{name}.json"));
        let want = serde_json::to_string(&s).unwrap() + "\n";
        if bless {
            std::fs::write(&path, &want).unwrap();
        }
        let kept = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            kept == want,
            "{}: not what the ruleset draws now (DESPATCH_BLESS=1 writes it anew)",
            path.display()
        );
        let back: Scene = serde_json::from_str(&kept).unwrap();
        assert_eq!(back, s, "{name}: the JSON does not read back as the scene");
    }
}
