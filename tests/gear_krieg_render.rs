//! Gear Krieg maps drawn from a seat's View: SVG snapshots of the Crossroads opening for both
//! seats, PNGs that decode, have the mail width and are not blank (at the opening and after a
//! few resolved steps), and the leak hunt: every hidden fact of the full state (overwatch,
//! queued activations, standing settings, CP requests) is looked for in every output of every
//! seat that may not know it.
//!
//! Set DESPATCH_RENDER_OUT=<dir> to also write the SVGs and PNGs there for a person to look at.

use std::collections::BTreeMap;

use despatch::board::tabletop::Pt;
use despatch::dice::Dice;
use despatch::engine::scene::{
    Condition, Form, Marker, Scene, Shape, Surface, Tone, UnitKind, UnitSymbol, ZoneKind,
};
use despatch::engine::{Ruleset, Silence, Submitted, View, Viewer};
use despatch::render::{self, Format, MAIL_WIDTH_PX};
use despatch::rulesets::gear_krieg::GearKrieg;
use despatch::rulesets::gear_krieg::round::apply_standing;
use despatch::rulesets::gear_krieg::state::{Act, Block, GkState, Phase};
use despatch::rulesets::kit::roster::{Roster, TwoSides};
use resvg::tiny_skia::Pixmap;

const RULESET: &str = include_str!("../games/gear-krieg/ruleset.toml");
const SCENARIO: &str = include_str!("../games/gear-krieg/scenarios/crossroads.toml");
const SEATS: [&str; 2] = ["us", "germany"];

fn opening() -> GkState {
    let seats: Vec<String> = SEATS.iter().map(|s| s.to_string()).collect();
    GearKrieg::setup(RULESET, SCENARIO, &seats).unwrap()
}

fn seed(k: u64, salt: u64) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&k.to_be_bytes());
    s[8..16].copy_from_slice(&salt.to_be_bytes());
    s
}

/// Plays `steps` steps with the scripted players' orders (required prompts only) and fixed dice.
fn play(mut st: GkState, steps: u64, salt: u64) -> GkState {
    for k in 1..=steps {
        if st.phase == Phase::GameOver {
            break;
        }
        let spec = GearKrieg::step(&st);
        let mut subs = BTreeMap::new();
        for p in spec.prompts.iter().filter(|p| p.required) {
            let text = GearKrieg::sample_orders(&st, &p.seat, k * 31 + salt);
            let orders = GearKrieg::parse(&st, &p.seat, &text).unwrap();
            subs.insert(p.seat.clone(), Submitted::Orders(orders));
        }
        for p in &spec.prompts {
            subs.entry(p.seat.clone())
                .or_insert(Submitted::Nmr(Silence::StandingOrders));
        }
        st = GearKrieg::resolve(&st, &subs, &mut Dice::new(seed(k, salt)));
    }
    st
}

fn view(st: &GkState, seat: &str) -> View {
    GearKrieg::view(st, &Viewer::Seat(seat.into()))
}

fn scene(st: &GkState, seat: &str) -> Scene {
    view(st, seat).map.expect("every Gear Krieg view has a map")
}

fn svg(st: &GkState, seat: &str) -> String {
    render::svg(&scene(st, seat))
}

fn png(st: &GkState, seat: &str) -> Vec<u8> {
    render::show(&view(st, seat), Format::Png(MAIL_WIDTH_PX)).unwrap()
}

fn keep(name: &str, bytes: &[u8]) {
    if let Ok(dir) = std::env::var("DESPATCH_RENDER_OUT") {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(format!("{dir}/{name}"), bytes).unwrap();
    }
}

/// DESPATCH_RENDER_ZOOM="x y w h" (with DESPATCH_RENDER_OUT): also a close-up of that part.
fn zoom(name: &str, s: &str) {
    if let (Ok(_), Ok(z)) = (
        std::env::var("DESPATCH_RENDER_OUT"),
        std::env::var("DESPATCH_RENDER_ZOOM"),
    ) {
        let head_end = s.find('>').unwrap();
        let mut it = z.split(' ').skip(2);
        let (w, h) = (it.next().unwrap(), it.next().unwrap());
        let zoomed = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="{z}" font-family="DejaVu Sans"{}"#,
            &s[head_end..]
        );
        keep(
            &format!("{name}-zoom.png"),
            &render::png_from_svg(&zoomed, 1200).unwrap(),
        );
    }
}

#[test]
fn svg_snapshots_of_the_opening_for_both_seats() {
    let st = opening();
    for seat in SEATS {
        let s = svg(&st, seat);
        keep(&format!("crossroads-opening-{seat}.svg"), s.as_bytes());
        keep(
            &format!("crossroads-opening-{seat}.png"),
            &render::png_from_svg(&s, MAIL_WIDTH_PX).unwrap(),
        );
        zoom(&format!("crossroads-opening-{seat}"), &s);
        insta::assert_snapshot!(format!("crossroads-opening-{seat}"), s);
    }
}

/// The scene itself: the centimetre table, every scenario area, every unit as a counter.
#[test]
fn the_scene_holds_the_table_terrain_and_every_unit() {
    let st = opening();
    for seat in SEATS {
        let sc = scene(&st, seat);
        assert_eq!(
            sc.surface,
            Surface::Table {
                width: 48.0,
                height: 36.0,
                unit: despatch::engine::scene::Measure::Cm
            }
        );
        // Four areas and two roads (one line each).
        assert_eq!(sc.terrain.len(), 6, "{:?}", sc.terrain);
        assert!(
            sc.terrain
                .iter()
                .any(|t| t.label.as_deref() == Some("Hill 112"))
        );
        assert_eq!(sc.units.len(), 7);
        for u in &sc.units {
            assert!(matches!(u.kind, UnitKind::Counter { .. }));
            assert_eq!(u.condition, Condition::Active);
            let infantry = u.label.contains("Squad");
            assert_eq!(u.facing.is_none(), infantry, "{}", u.label);
        }
        let general = sc.units.iter().find(|u| u.label == "General-1").unwrap();
        assert_eq!(general.facing, Some(90.0));
        assert!(matches!(
            general.kind,
            UnitKind::Counter {
                symbol: UnitSymbol::Walker,
                ..
            }
        ));
        let legend: Vec<&str> = sc.legend.iter().map(|e| e.text.as_str()).collect();
        for word in ["clear", "rough", "woodland", "jungle", "road", "hill"] {
            assert!(legend.contains(&word), "{word} in {legend:?}");
        }
        assert!(legend.iter().any(|t| t.ends_with("(you)")));
    }
}

fn pixels(bytes: &[u8]) -> (Pixmap, Vec<[u8; 3]>) {
    let pm = Pixmap::decode_png(bytes).unwrap();
    let px = pm
        .pixels()
        .iter()
        .map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue()]
        })
        .collect();
    (pm, px)
}

#[test]
fn png_decodes_has_mail_width_and_is_not_blank() {
    let played = play(opening(), 9, 3);
    assert!(played.units.iter().any(|u| u.activated));
    // Later in the battle: damage, pins and losses on the map.
    let later = play(opening(), 40, 3);
    assert!(later.round > 1);
    for (name, st) in [("opening", opening()), ("played", played), ("later", later)] {
        for seat in SEATS {
            let bytes = png(&st, seat);
            keep(&format!("crossroads-{name}-{seat}.png"), &bytes);
            let (pm, px) = pixels(&bytes);
            assert_eq!(pm.width(), MAIL_WIDTH_PX);
            assert!((400..1200).contains(&pm.height()), "{}", pm.height());
            let count = |f: &dyn Fn(&[u8; 3]) -> bool| px.iter().filter(|p| f(p)).count();
            // Not blank: clear ground, both sides' counter colours and dark ink are all there.
            let clear = count(&|p| p == &[0xee, 0xf0, 0xd8]);
            let red = count(&|p| p[0] > 150 && p[1] < 70 && p[2] < 70);
            let blue = count(&|p| p[2] > 120 && p[0] < 60 && p[1] < 90);
            let ink = count(&|p| p[0] < 60 && p[1] < 60 && p[2] < 60);
            assert!(clear > px.len() / 4, "clear {clear} of {}", px.len());
            assert!(red > 200 && blue > 200 && ink > 1000, "{red} {blue} {ink}");
        }
    }
}

#[test]
fn pictures_are_the_same_every_time() {
    let st = play(opening(), 6, 9);
    assert!(png(&st, "us") == png(&st, "us"));
    assert_eq!(svg(&st, "germany"), svg(&st, "germany"));
}

/// A state in round 1's activations with something hidden from each seat: Germany's overwatch
/// on both Valkuries, a queued activation, its standing settings and a CP request; the US's
/// own queued activation and settings.
fn secret_state() -> GkState {
    let mut st = play(opening(), 1, 5);
    assert!(matches!(st.phase, Phase::Activate { .. }), "{:?}", st.phase);
    for u in &mut st.units {
        u.overwatch = None;
    }
    let de = "OVERWATCH Valkurie-1 WITH KwK AT VEHICLES WITHIN 20 ACTIONS 1\nOVERWATCH Valkurie-2 AT ANY\nINTERRUPTS NEVER\nDECLARATIONS SKIP\nCHOOSE SECOND\nCP DEFEND Squad-2\n";
    let o = GearKrieg::parse(&st, "germany", de).unwrap();
    apply_standing(&mut st, "germany", &o);
    st.side_mut("germany").unwrap().queued = vec![Block {
        unit: "Squad-1".into(),
        cp: false,
        acts: vec![Act::Hold],
    }];
    st.side_mut("us").unwrap().queued = vec![Block {
        unit: "US-Squad".into(),
        cp: false,
        acts: vec![Act::Hold],
    }];
    st
}

/// Every fact of the full state that `seat` may not know, as text an output could carry.
fn hidden_facts(st: &GkState, seat: &str) -> Vec<String> {
    let mut facts = Vec::new();
    let enemy = st.enemy_of(seat).unwrap_or_default().to_string();
    for u in st.units.iter().filter(|u| u.side == enemy) {
        if let Some(o) = &u.overwatch {
            facts.push(format!("OVERWATCH {}", o.unit));
            if let Some(w) = o.within {
                facts.push(format!("WITHIN {w}"));
            }
        }
    }
    if st
        .units
        .iter()
        .any(|u| u.side == enemy && u.overwatch.is_some())
        && !st
            .units
            .iter()
            .any(|u| u.side == seat && u.overwatch.is_some())
    {
        // A seat with no overwatch of its own never has a reason to read the word.
        facts.push("overwatch".into());
        facts.push("OVERWATCH".into());
    }
    let side = st.side(&enemy).unwrap();
    for b in &side.queued {
        facts.push(format!("ACTIVATE {}", b.unit));
    }
    if !side.ask_interrupts {
        facts.push("INTERRUPTS NEVER".into());
    }
    if !side.ask_declarations {
        facts.push("DECLARATIONS SKIP".into());
    }
    if !side.choose_first {
        facts.push("CHOOSE SECOND".into());
    }
    for u in st.units.iter().filter(|u| u.side == enemy && u.cp_defend) {
        facts.push(format!("CP DEFEND {}", u.name));
    }
    if st.units.iter().any(|u| u.side == enemy && u.cp_defend)
        && !st.units.iter().any(|u| u.side == seat && u.cp_defend)
    {
        // The map's badge for it: a seat with no CP request of its own never reads it.
        facts.push("CP defend".into());
    }
    facts
}

#[test]
fn no_seat_sees_what_it_may_not_know() {
    let st = secret_state();
    for (seat, viewer) in [
        ("us", Viewer::Seat("us".into())),
        ("germany", Viewer::Seat("germany".into())),
        ("spectator", Viewer::Spectator),
    ] {
        let v = GearKrieg::view(&st, &viewer);
        let svg = render::svg(v.map.as_ref().unwrap());
        let text = String::from_utf8(render::show(&v, Format::Text).unwrap()).unwrap();
        let json = serde_json::to_string(&v).unwrap();
        let facts = if seat == "spectator" {
            let mut f = hidden_facts(&st, "us");
            f.extend(hidden_facts(&st, "germany"));
            f.push("overwatch".into());
            f.push("queued".into());
            f.push("CP DEFEND".into());
            f.push("CP defend".into());
            f
        } else {
            hidden_facts(&st, seat)
        };
        if seat == "us" {
            assert!(
                facts.len() >= 6,
                "the US has much hidden from it: {facts:?}"
            );
        }
        for fact in &facts {
            for (what, out) in [("SVG", &svg), ("text", &text), ("View JSON", &json)] {
                assert!(
                    !out.contains(fact.as_str()),
                    "{seat}'s {what} leaks `{fact}`"
                );
            }
        }
    }
    // The owners do see their own secrets (so the facts above are real ones).
    let own = render::text(&view(&st, "germany"));
    for fact in [
        "OVERWATCH Valkurie-1",
        "WITHIN 20",
        "INTERRUPTS NEVER",
        "DECLARATIONS SKIP",
        "CHOOSE SECOND",
        "ACTIVATE Squad-1",
        "CP DEFEND Squad-2",
    ] {
        assert!(own.contains(fact), "Germany's own text lacks `{fact}`");
    }
    assert!(render::text(&view(&st, "us")).contains("ACTIVATE US-Squad"));
    let own_map = scene(&st, "germany");
    let valkurie = own_map
        .units
        .iter()
        .find(|u| u.label == "Valkurie-1")
        .unwrap();
    assert!(
        valkurie
            .markers
            .contains(&Marker::status("overwatch", Tone::Order))
    );
    assert!(svg(&st, "germany").contains("overwatch"));
}

#[test]
fn opponents_pictures_do_not_change_with_hidden_facts() {
    let st = secret_state();
    // Germany's secrets gone (no overwatch, nothing queued, default settings, no CP request)…
    let mut bare_de = st.clone();
    for u in bare_de.units.iter_mut().filter(|u| u.side == "germany") {
        u.overwatch = None;
        u.cp_defend = false;
    }
    let side = bare_de.side_mut("germany").unwrap();
    side.queued.clear();
    side.ask_interrupts = true;
    side.ask_declarations = true;
    side.choose_first = true;
    // …and the US's: its queued block gone, overwatch added to General-2.
    let mut other_us = st.clone();
    other_us.side_mut("us").unwrap().queued.clear();
    let o = GearKrieg::parse(&st, "us", "OVERWATCH General-2 AT VEHICLES\n").unwrap();
    apply_standing(&mut other_us, "us", &o);
    for (other, hidden_from) in [(&bare_de, "us"), (&other_us, "germany")] {
        assert!(
            png(&st, hidden_from) == png(other, hidden_from),
            "{hidden_from}'s PNG"
        );
        assert_eq!(
            svg(&st, hidden_from),
            svg(other, hidden_from),
            "{hidden_from}"
        );
        assert_eq!(
            view(&st, hidden_from),
            view(other, hidden_from),
            "{hidden_from}"
        );
    }
    let spectator = |s: &GkState| {
        render::show(
            &GearKrieg::view(s, &Viewer::Spectator),
            Format::Png(MAIL_WIDTH_PX),
        )
        .unwrap()
    };
    assert!(spectator(&st) == spectator(&bare_de));
    assert!(spectator(&st) == spectator(&other_us));
    // …while the owners' pictures do change: the comparison can fail.
    assert!(png(&st, "germany") != png(&bare_de, "germany"));
    assert!(png(&st, "us") != png(&other_us, "us"));
}

/// Detection limits targeting, not knowledge (p.4): every unit on the table is drawn for
/// every seat, and an enemy unit that none of the seat's units can detect is marked
/// `concealed`, from open facts only (positions and terrain).
#[test]
fn concealed_enemies_are_marked_from_open_facts() {
    let mut st = opening();
    // Deep in the jungle: 2 Obscurement per cm, well over Detection 4 from anywhere outside.
    let squad = st.unit_mut("Squad-1").unwrap();
    squad.pos = Pt::new(34.0, 7.5);
    let concealed = |st: &GkState, seat: &str| -> Vec<String> {
        scene(st, seat)
            .units
            .into_iter()
            .filter(|u| {
                u.markers
                    .contains(&Marker::status("concealed", Tone::Hidden))
            })
            .map(|u| u.label)
            .collect()
    };
    assert_eq!(concealed(&st, "us"), vec!["Squad-1".to_string()]);
    assert!(concealed(&st, "germany").is_empty());
    // The text says the same as the picture.
    assert!(render::text(&view(&st, "us")).contains("concealed from all your units"));
    assert!(!render::text(&view(&st, "germany")).contains("concealed"));
    let spectator = GearKrieg::view(&st, &Viewer::Spectator).map.unwrap();
    assert!(spectator.units.iter().all(|u| u.markers.is_empty()));
    for seat in SEATS {
        let s = svg(&st, seat);
        for u in &st.units {
            assert!(
                s.contains(&format!(">{}", u.name)),
                "{seat} sees {}",
                u.name
            );
        }
    }
    // A US walker at the jungle's edge detects it: the mark goes.
    st.unit_mut("General-1").unwrap().pos = Pt::new(33.0, 6.0);
    assert!(concealed(&st, "us").is_empty());
    keep("crossroads-concealed-us.png", &png(&st, "us"));
}

/// Play-test finding (issue 10): a CP held for a unit's next defence roll (`CP DEFEND`) was
/// shown nowhere, so its owner could not tell it was armed. The owner sees it in the standing
/// orders and on the unit's map badge; the opponent and spectators see neither.
#[test]
fn an_armed_cp_defend_shows_in_its_owners_view_only() {
    let mut st = opening();
    let o = GearKrieg::parse(&st, "germany", "CP DEFEND Squad-2\n").unwrap();
    apply_standing(&mut st, "germany", &o);
    assert!(st.unit("Squad-2").unwrap().cp_defend);
    let badge = Marker::status("CP defend", Tone::Order);
    let squad = |sc: &Scene| {
        sc.units
            .iter()
            .find(|u| u.label == "Squad-2")
            .unwrap()
            .clone()
    };
    let own = view(&st, "germany");
    let standing = &own
        .sections
        .iter()
        .find(|(t, _)| t.starts_with("Your standing orders"))
        .unwrap()
        .1;
    assert!(
        standing.contains(&"CP DEFEND Squad-2".to_string()),
        "{standing:?}"
    );
    assert!(squad(own.map.as_ref().unwrap()).markers.contains(&badge));
    assert!(render::svg(own.map.as_ref().unwrap()).contains(">CP defend</text>"));
    for v in [view(&st, "us"), GearKrieg::view(&st, &Viewer::Spectator)] {
        let text = render::text(&v);
        assert!(!text.contains("CP DEFEND"), "{text}");
        assert!(!squad(v.map.as_ref().unwrap()).markers.contains(&badge));
        assert!(!render::svg(v.map.as_ref().unwrap()).contains("CP defend"));
    }
    // Once the CP is spent (or the unit is not armed), the owner's badge goes too.
    st.unit_mut("Squad-2").unwrap().cp_defend = false;
    assert!(!squad(&scene(&st, "germany")).markers.contains(&badge));
    assert!(!render::text(&view(&st, "germany")).contains("CP DEFEND"));
}

/// The map draws the scenario as itself: roads as lines of the road style, each terrain kind
/// in its own style from the data, the objective with its name, saturation zones in theirs.
#[test]
fn terrain_roads_objective_and_zones_are_drawn_as_themselves() {
    let mut st = play(opening(), 2, 5);
    st.zones.push(despatch::rulesets::gear_krieg::state::Zone {
        centre: Pt::new(30.0, 20.0),
        total: 9,
        dm: 3,
        by: "Valkurie-1".into(),
        weapon: "Rockets".into(),
        struck: vec![],
    });
    let sc = scene(&st, "us");
    let roads: Vec<_> = sc.terrain.iter().filter(|t| t.style == "road").collect();
    assert_eq!(roads.len(), 2);
    assert!(
        roads
            .iter()
            .all(|t| matches!(t.shape, Shape::Line { width, .. } if width == 1.0))
    );
    for kind in ["rough", "woodland", "jungle", "hill", "road"] {
        let style = &sc.styles[kind];
        assert!(sc.terrain.iter().any(|t| t.style == kind), "{kind}");
        assert_eq!(style.form == Form::Line, kind == "road", "{kind}");
    }
    assert_ne!(sc.styles["jungle"], sc.styles["woodland"]);
    assert_eq!(sc.ground.as_deref(), Some("clear"));
    let objective = sc
        .zones
        .iter()
        .find(|z| z.kind == ZoneKind::Objective)
        .unwrap();
    assert_eq!(objective.label.as_deref(), Some("the crossroads (40 VP)"));
    assert!(matches!(objective.shape, Shape::Circle { radius, .. } if radius == 4.0));
    let saturation = ZoneKind::Styled {
        style: "saturation".into(),
    };
    assert!(sc.zones.iter().any(|z| z.kind == saturation));
    assert!(sc.styles.contains_key("saturation"));
    let legend: Vec<&str> = sc.legend.iter().map(|e| e.text.as_str()).collect();
    assert!(legend.contains(&"saturation zone"), "{legend:?}");
    let s = render::svg(&sc);
    for name in [
        "the crossroads (40 VP)",
        "valley road",
        "hill track",
        "Hill 112",
    ] {
        assert!(s.contains(&format!(">{name}</text>")), "{name}");
    }
    // Without zones the saturation style is neither carried nor listed.
    st.zones.clear();
    let sc = scene(&st, "us");
    assert!(!sc.styles.contains_key("saturation"));
    assert!(!sc.legend.iter().any(|e| e.text == "saturation zone"));
}

/// Every legend entry stands for something the picture shows, for every seat, from the
/// opening to late in the battle.
#[test]
fn the_legend_lists_only_what_the_map_shows() {
    for st in [opening(), play(opening(), 9, 3), play(opening(), 40, 3)] {
        for viewer in [
            Viewer::Seat("us".into()),
            Viewer::Seat("germany".into()),
            Viewer::Spectator,
        ] {
            let sc = GearKrieg::view(&st, &viewer).map.unwrap();
            for e in &sc.legend {
                assert!(sc.uses(&e.symbol), "{viewer:?}: {e:?}");
            }
        }
    }
}

/// A game begun before maps were data has no `[map]` in its state: it is drawn with the
/// shipped file's styles, exactly as a new game, and its state serialises without the field.
#[test]
fn a_game_without_map_data_is_drawn_with_the_shipped_styles() {
    let st = opening();
    assert!(st.data.map.is_some());
    let mut old = st.clone();
    old.data.map = None;
    assert_eq!(scene(&old, "us"), scene(&st, "us"));
    assert!(!serde_json::to_string(&old).unwrap().contains("\"map\""));
    assert!(serde_json::to_string(&st).unwrap().contains("\"map\""));
}
