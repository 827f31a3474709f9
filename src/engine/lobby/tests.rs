//! The lobby's rulings (docs/club-rules.md G1–G6), each on both sides of its threshold.

use super::open::fresh_id;
use super::*;
use chrono::{Duration, TimeZone};

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 9, 0, 0).unwrap()
}

fn offers() -> Vec<Offer> {
    vec![Offer {
        ruleset: "naval-rjw".into(),
        scenario: "training".into(),
        title: "Gunnery School".into(),
        seats: vec![
            ("japan".into(), "Japanese squadron".into()),
            ("russia".into(), "Russian squadron".into()),
        ],
    }]
}

const MEMBERS: [&str; 2] = ["Ann <ann@club.example>", "bob@club.example"];

fn rules<'a>(who: Who, offers: &'a [Offer], members: &'a [String]) -> Rules<'a> {
    Rules {
        who,
        members,
        organiser: Some("gm@club.example"),
        expire_hours: 48,
        pace_hours: [12, 96],
        open_per_member: 2,
        offers,
        games: &[],
        leagues: &[],
    }
}

fn open_act(pace: Option<u32>) -> Act {
    Act::Open {
        ruleset: "naval-rjw".into(),
        scenario: "training".into(),
        seat: None,
        pace,
        league: None,
    }
}

fn members() -> Vec<String> {
    MEMBERS.iter().map(|s| s.to_string()).collect()
}

#[test]
fn g1_who_may_play_members_anyone_none() {
    let (o, m) = (offers(), members());
    let r = rules(Who::Members, &o, &m);
    assert!(
        may_play(&r, "ann@club.example").is_ok(),
        "a member by Name <addr>"
    );
    assert!(
        may_play(&r, "BOB@club.example").is_ok(),
        "case does not matter"
    );
    assert!(
        may_play(&r, "gm@club.example").is_ok(),
        "the organiser always"
    );
    assert_eq!(
        may_play(&r, "eve@club.example"),
        Err(LobbyRefused::NotAMember)
    );
    assert!(may_play(&rules(Who::Anyone, &o, &m), "eve@club.example").is_ok());
    assert_eq!(
        may_play(&rules(Who::None, &o, &m), "gm@club.example"),
        Err(LobbyRefused::DeskOnly)
    );
}

#[test]
fn g2_open_then_join_makes_the_game_ready() {
    let (o, m) = (offers(), members());
    let r = rules(Who::Members, &o, &m);
    let mut tables = vec![];
    let d = act(
        &mut tables,
        &r,
        "ann@club.example",
        Some("Ann"),
        &open_act(None),
        t0(),
    )
    .unwrap();
    assert!(d.ready.is_empty());
    assert!(d.answer.contains("Game training-1 is open"), "{}", d.answer);
    assert_eq!(
        tables[0].chairs[0].taker.as_ref().unwrap().address,
        "ann@club.example"
    );
    let j = Act::Join {
        game: "training-1".into(),
        seat: None,
    };
    let d = act(&mut tables, &r, "ann@club.example", None, &j, t0()).unwrap_err();
    assert!(matches!(d, LobbyRefused::SeatedAlready { .. }), "{d}");
    assert_eq!(d.to_string(), "you hold japan in training-1 already");
    let d = act(&mut tables, &r, "bob@club.example", Some("Bob"), &j, t0()).unwrap();
    assert_eq!(d.ready, vec!["training-1".to_string()]);
    assert_eq!(d.notes.len(), 1, "the opener is told");
    assert!(d.notes[0].1.contains("Bob took russia"), "{:?}", d.notes);
    assert!(
        !d.notes[0].1.contains("bob@"),
        "lists show names, never addresses"
    );
    // A second open gets the next number.
    act(
        &mut tables,
        &r,
        "bob@club.example",
        None,
        &open_act(None),
        t0(),
    )
    .unwrap();
    assert_eq!(tables[1].id, "training-2");
}

#[test]
fn g3_pace_bounds_both_sides() {
    let (o, m) = (offers(), members());
    let r = rules(Who::Members, &o, &m);
    for (p, ok) in [(11, false), (12, true), (96, true), (97, false)] {
        let mut tables = vec![];
        let got = act(
            &mut tables,
            &r,
            "ann@club.example",
            None,
            &open_act(Some(p)),
            t0(),
        );
        assert_eq!(got.is_ok(), ok, "PACE {p}: {got:?}");
    }
}

#[test]
fn g4_open_games_per_member_limit() {
    let (o, m) = (offers(), members());
    let r = rules(Who::Members, &o, &m);
    let mut tables = vec![];
    for _ in 0..2 {
        act(
            &mut tables,
            &r,
            "ann@club.example",
            None,
            &open_act(None),
            t0(),
        )
        .unwrap();
    }
    let third = act(
        &mut tables,
        &r,
        "ann@club.example",
        None,
        &open_act(None),
        t0(),
    );
    let third = third.unwrap_err();
    assert_eq!(third, LobbyRefused::TooManyOpen(2));
    assert!(third.to_string().contains("most one member"), "{third}");
    // Another member is not counted against Ann.
    assert!(
        act(
            &mut tables,
            &r,
            "bob@club.example",
            None,
            &open_act(None),
            t0()
        )
        .is_ok()
    );
}

#[test]
fn g5_a_table_lapses_at_its_time_not_before() {
    let (o, m) = (offers(), members());
    let r = rules(Who::Members, &o, &m);
    let mut tables = vec![];
    act(
        &mut tables,
        &r,
        "ann@club.example",
        None,
        &open_act(None),
        t0(),
    )
    .unwrap();
    let end = t0() + Duration::hours(48);
    assert!(lapse(&mut tables, end - Duration::seconds(1)).is_empty());
    assert_eq!(tables.len(), 1);
    let notes = lapse(&mut tables, end);
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].0, "ann@club.example");
    assert!(notes[0].1.contains("lapsed"));
    assert!(tables.is_empty());
}

#[test]
fn g6_under_approval_a_full_table_waits_for_the_organiser() {
    let (o, m) = (offers(), members());
    let r = rules(Who::Approval, &o, &m);
    let mut tables = vec![];
    let d = act(
        &mut tables,
        &r,
        "eve@x.example",
        None,
        &open_act(None),
        t0(),
    )
    .unwrap();
    assert!(
        d.notes
            .iter()
            .any(|(to, t)| to == "gm@club.example" && t.contains("APPROVE training-1 japan"))
    );
    let j = Act::Join {
        game: "training-1".into(),
        seat: Some("russia".into()),
    };
    let d = act(&mut tables, &r, "fay@x.example", None, &j, t0()).unwrap();
    assert!(d.ready.is_empty(), "not ready before approval");
    let ap = Act::Approve {
        game: "training-1".into(),
        seat: None,
    };
    assert!(
        act(&mut tables, &r, "eve@x.example", None, &ap, t0()).is_err(),
        "only the organiser approves"
    );
    let d = act(&mut tables, &r, "gm@club.example", None, &ap, t0()).unwrap();
    assert_eq!(d.ready, vec!["training-1".to_string()]);
    assert_eq!(d.notes.len(), 2, "both players told");
    // The organiser's own seat needs no approval.
    let mut t2 = vec![];
    act(&mut t2, &r, "gm@club.example", None, &open_act(None), t0()).unwrap();
    assert!(t2[0].chairs[0].taker.as_ref().unwrap().approved);
}

#[test]
fn refusals_change_nothing() {
    let (o, m) = (offers(), members());
    let r = rules(Who::Members, &o, &m);
    let mut tables = vec![];
    act(
        &mut tables,
        &r,
        "ann@club.example",
        None,
        &open_act(None),
        t0(),
    )
    .unwrap();
    let before = tables.clone();
    for a in [
        Act::Join {
            game: "nope-1".into(),
            seat: None,
        },
        Act::Join {
            game: "training-1".into(),
            seat: Some("japan".into()),
        },
        Act::Join {
            game: "training-1".into(),
            seat: Some("france".into()),
        },
        Act::Leave {
            game: "training-1".into(),
        },
        Act::Open {
            ruleset: "naval-rjw".into(),
            scenario: "nowhere".into(),
            seat: None,
            pace: None,
            league: None,
        },
        Act::Open {
            ruleset: "naval-rjw".into(),
            scenario: "training".into(),
            seat: None,
            pace: None,
            league: Some("autumn".into()),
        },
    ] {
        assert!(
            act(&mut tables, &r, "bob@club.example", None, &a, t0()).is_err(),
            "{a:?}"
        );
        assert_eq!(tables, before, "{a:?}");
    }
}

#[test]
fn leaving_frees_the_seat_and_the_last_one_out_closes_the_table() {
    let (o, m) = (offers(), members());
    let r = rules(Who::Members, &o, &m);
    let mut tables = vec![];
    act(
        &mut tables,
        &r,
        "ann@club.example",
        None,
        &open_act(None),
        t0(),
    )
    .unwrap();
    let j = Act::Join {
        game: "training-1".into(),
        seat: None,
    };
    act(&mut tables, &r, "bob@club.example", None, &j, t0()).unwrap();
    let l = Act::Leave {
        game: "training-1".into(),
    };
    let d = act(&mut tables, &r, "bob@club.example", None, &l, t0()).unwrap();
    assert_eq!(d.notes.len(), 1);
    assert!(tables[0].chairs[1].taker.is_none());
    act(&mut tables, &r, "ann@club.example", None, &l, t0()).unwrap();
    assert!(tables.is_empty());
}

#[test]
fn ids_skip_games_that_exist() {
    let games = vec!["training-1".to_string()];
    assert_eq!(fresh_id("training", &[], &games), "training-2");
    assert_eq!(fresh_id("9lives", &[], &[]), "g9lives-1");
    assert!(crate::engine::valid_game_id(&fresh_id(
        &"x".repeat(60),
        &[],
        &[]
    )));
}
