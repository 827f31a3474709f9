//! Issue 27: one game's broken outbox is that game's trouble, never every game's. A queued mail
//! that cannot be read (here a directory where a mail file should be: unreadable even for root)
//! used to make the whole delivery fail at every pass, so no game's mail went out again. Now
//! the other games' mail is delivered and the broken game's organiser is told.

use despatch::dice::GameSecrets;

use crate::world::*;

#[test]
fn a_broken_outbox_stops_only_its_own_game() {
    let w = world_with("training", 1000, |c| {
        c.mail.gm_address = Some("organiser@club.example".into());
    });
    // A second game, its welcomes queued but not yet delivered.
    w.daemon
        .create_game_with(
            "other",
            "naval-rjw",
            "training",
            &[
                ("japan".into(), "kamimura@izumo.example".into()),
                ("russia".into(), "jessen@rossia.example".into()),
            ],
            t0(),
            GameSecrets::pinned("other", [0x22; 32], [0x6b; 32], 1000),
            &[
                "othertokenjapan000000000".into(),
                "othertokenrussia00000000".into(),
            ],
        )
        .unwrap();
    let broken = w
        .daemon
        .data
        .game(GAME)
        .outbox_dir()
        .join("000000-zz-broken.eml");
    std::fs::create_dir_all(&broken).unwrap();
    // As when a mail is queued: the game is marked as having mail to deliver.
    w.daemon.data.mark_pending(GAME).unwrap();
    let n = w
        .daemon
        .deliver_at(t0())
        .expect("one game's broken outbox does not fail the delivery");
    assert!(n >= 2, "the other game's welcomes went out ({n} delivered)");
    let delivered: Vec<(String, String, String)> = w
        .delivered()
        .into_iter()
        .map(|(name, to, subject, _)| (name, to, subject))
        .collect();
    assert!(
        delivered
            .iter()
            .any(|(_, to, _)| to.contains("kamimura@izumo.example")),
        "{delivered:?}"
    );
    // The organiser hears of the broken game, once.
    let report = delivered
        .iter()
        .filter(|(_, to, subject)| to.contains("organiser@club.example") && subject.contains(GAME))
        .count();
    let queued = w.daemon.data.house().outbox().unwrap().len();
    assert_eq!(
        report + queued,
        1,
        "one report of the broken game, delivered or queued: {delivered:?}"
    );
    // Again at the next pass: nothing new goes to the organiser.
    w.daemon.deliver_at(t0()).unwrap();
    let again = w
        .delivered()
        .iter()
        .filter(|(_, to, _, _)| to.contains("organiser@club.example"))
        .count();
    assert_eq!(again + w.daemon.data.house().outbox().unwrap().len(), 1);
}
