//! A pass does only the work that is due (issue 15 points 3 and 6): an idle game whose journal
//! is unchanged is left closed until the engine's `next_due`, yet its reminder and deadline come
//! on time, a game changed behind the daemon's back is settled, and a lost or damaged index
//! costs one pass that opens everything; a restart trusts the stored index with the change
//! marks, and a crash between a journal append and the index write loses nothing (issue 32
//! point 4). Observed through a game whose secrets are made unreadable: opening it fails
//! loudly, so "not opened" is visible.

use crate::world;

use chrono::Duration;
use despatch::daemon::Daemon;
use despatch::store::StoredIndex;
use world::*;

/// Makes the game fail if it is opened (its host secret unreadable), and returns a restorer.
fn booby_trap(w: &World) -> impl FnOnce() {
    let p = w.daemon.data.game(GAME).dir.join("host.secret");
    let kept = std::fs::read(&p).unwrap();
    std::fs::write(&p, b"not a secret").unwrap();
    move || std::fs::write(&p, kept).unwrap()
}

fn opened_and_failed(d: &Daemon, at: chrono::DateTime<chrono::Utc>) -> bool {
    !d.run_once(at).unwrap().failed_games.is_empty()
}

/// Another daemon process on the same data (a restart, or a command such as `ingest`).
fn another_process(w: &World) -> Daemon {
    Daemon::new(w.daemon.cfg.clone()).unwrap()
}

#[test]
fn an_idle_game_is_not_opened_and_a_lost_index_opens_it_again() {
    let w = world("training");
    w.daemon.run_once(w.now).unwrap(); // settles and writes the index
    let restore = booby_trap(&w);
    assert!(
        !opened_and_failed(&w.daemon, w.now + Duration::minutes(1)),
        "an idle game was opened"
    );
    // A restart checks the index against the journals once: still idle, still closed.
    assert!(!opened_and_failed(
        &another_process(&w),
        w.now + Duration::minutes(2)
    ));
    // Positive control: a restart without the index opens it, and the trap springs.
    std::fs::remove_file(w.daemon.data.root.join("due.index")).unwrap();
    assert!(opened_and_failed(
        &another_process(&w),
        w.now + Duration::minutes(3)
    ));
    // A damaged index is as good as none.
    std::fs::write(w.daemon.data.root.join("due.index"), b"garbage\n").unwrap();
    assert!(opened_and_failed(
        &another_process(&w),
        w.now + Duration::minutes(4)
    ));
    restore();
}

#[test]
fn the_game_is_opened_exactly_when_its_reminder_falls_due() {
    let w = world("training");
    w.daemon.run_once(w.now).unwrap();
    let g = w.daemon.open_game(GAME).unwrap();
    let due = g.game.next_due().expect("the set-up step has a deadline");
    drop(g);
    let restore = booby_trap(&w);
    assert!(!opened_and_failed(&w.daemon, due - Duration::seconds(1)));
    assert!(opened_and_failed(&w.daemon, due), "not opened when due");
    restore();
    let before: Vec<String> = w.delivered().into_iter().map(|d| d.0).collect();
    w.daemon.run_once(due).unwrap();
    let fresh: Vec<_> = w
        .delivered()
        .into_iter()
        .filter(|d| !before.contains(&d.0))
        .collect();
    let mut reminders: Vec<_> = fresh
        .iter()
        .filter(|(_, _, subject, _)| subject.contains("Reminder"))
        .map(|(_, to, ..)| to.clone())
        .collect();
    reminders.sort();
    assert_eq!(reminders, [JAPAN, RUSSIA], "{fresh:?}");
}

#[test]
fn a_game_changed_behind_the_daemons_back_is_settled_next_pass() {
    let w = world("training");
    w.daemon.run_once(w.now).unwrap();
    // Another process (the `ingest` command) takes Japan's set-up orders: the journal grows
    // while the running daemon's index still has the old length; the change mark tells it.
    let raw = mail(
        JAPAN,
        &reply_to("japan"),
        "behind@x",
        "",
        "FLAGSHIP Mikasa\n",
    );
    assert!(matches!(
        another_process(&w).ingest(&raw, w.now).unwrap(),
        despatch::daemon::Intake::Accepted { .. }
    ));
    assert!(w.daemon.data.root.join("dirty").join(GAME).exists());
    let restore = booby_trap(&w);
    assert!(
        opened_and_failed(&w.daemon, w.now),
        "a changed game was left closed"
    );
    restore();
    // Settled now (the trap gone) and left alone, but the mark stays until the stored index
    // records the game (written at most every few minutes): a restart still opens it.
    let dirty = w.daemon.data.root.join("dirty").join(GAME);
    w.daemon.run_once(w.now).unwrap();
    assert!(dirty.exists(), "a mark cleared before the index write");
    let restore = booby_trap(&w);
    assert!(!opened_and_failed(&w.daemon, w.now));
    assert!(opened_and_failed(&another_process(&w), w.now));
    restore();
    // Once written, the mark goes and a restart leaves the game closed.
    w.daemon.run_once(w.now + Duration::minutes(6)).unwrap();
    assert!(!dirty.exists(), "the mark outlived the index write");
    let restore = booby_trap(&w);
    assert!(!opened_and_failed(
        &another_process(&w),
        w.now + Duration::minutes(7)
    ));
    restore();
}

/// A restart trusts the stored index and looks at no journal (issue 32 point 4), so a crash
/// between a journal append and the index write must leave something that makes the next
/// process open the game: the change mark, made before the append and cleared only after the
/// write. Here the stored index says the game waits for nothing from the clock (as a paused
/// game would) at its old length, the daemon "dies" after an order, and the next process,
/// restarted at the deadline, resolves the step.
#[test]
fn a_due_step_the_stored_index_does_not_know_of_is_resolved_after_a_restart() {
    let mut w = world("training");
    w.daemon.run_once(w.now).unwrap();
    let StoredIndex::Trusted(mut stored) = w.daemon.data.due_index() else {
        panic!("the first pass writes a trusted index");
    };
    stored.games.get_mut(GAME).unwrap().next_due = None;
    w.daemon.data.write_due_index(&stored).unwrap();
    w.send("japan", "FLAGSHIP Mikasa\n");
    let deadline = w
        .daemon
        .open_game(GAME)
        .unwrap()
        .game
        .book()
        .deadline
        .unwrap();
    // The running daemon is never heard of again: only the disk goes on.
    let pass = another_process(&w)
        .run_once(deadline + Duration::minutes(1))
        .unwrap();
    assert!(pass.steps_resolved >= 1, "{pass:?}");
}

/// A pending marker is made without an fsync while the game's change mark stands, so a crash
/// of the machine may lose it and keep the queued mail; the next process, which delivers only
/// what the markers name, visits the outbox of every marked game once.
#[test]
fn unsent_mail_whose_pending_marker_a_crash_lost_is_delivered_after_a_restart() {
    let mut w = world("training");
    w.daemon.run_once(w.now).unwrap();
    w.send("japan", "FLAGSHIP Mikasa\n");
    let data = &w.daemon.data;
    assert!(data.root.join("dirty").join(GAME).exists());
    let store = data.game(GAME);
    let sent = store.sent().unwrap();
    std::fs::copy(&sent[0], store.outbox_dir().join("999999-lost.eml")).unwrap();
    let _ = std::fs::remove_file(data.root.join("pending").join(GAME));
    let before = w.delivered().len();
    let pass = another_process(&w)
        .run_once(w.now + Duration::minutes(1))
        .unwrap();
    assert_eq!(pass.delivered, 1, "{pass:?}");
    assert_eq!(w.delivered().len(), before + 1);
}

/// A damaged index that still reads line by line (a due time moved ten years on, which would
/// leave the game asleep) is caught by its checksum: every game is opened, the index is
/// rebuilt with the same entry, and the next restart trusts it again.
#[test]
fn a_damaged_index_that_still_parses_is_noticed_and_rebuilt_as_it_was() {
    let w = world("training");
    w.daemon.run_once(w.now).unwrap();
    let StoredIndex::Trusted(before) = w.daemon.data.due_index() else {
        panic!("the first pass writes a trusted index");
    };
    let path = w.daemon.data.root.join("due.index");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\t2026-"), "{text}");
    std::fs::write(&path, text.replace("\t2026-", "\t2036-")).unwrap();
    let restore = booby_trap(&w);
    assert!(
        opened_and_failed(&another_process(&w), w.now + Duration::minutes(1)),
        "a damaged index was trusted"
    );
    restore();
    another_process(&w)
        .run_once(w.now + Duration::minutes(2))
        .unwrap();
    assert_eq!(w.daemon.data.due_index(), StoredIndex::Trusted(before));
    let restore = booby_trap(&w);
    assert!(!opened_and_failed(
        &another_process(&w),
        w.now + Duration::minutes(3)
    ));
    restore();
}

#[test]
fn queued_mail_is_delivered_through_its_pending_marker_and_the_marker_cleared() {
    let mut w = world("training");
    w.daemon.run_once(w.now).unwrap();
    let pending = w.daemon.data.root.join("pending").join(GAME);
    assert!(!pending.exists(), "cleared once the outbox emptied");
    let before = w.delivered().len();
    w.send("japan", "FLAGSHIP Mikasa\n");
    assert!(w.delivered().len() > before, "the receipt went out");
    assert!(!pending.exists());
    assert!(w.daemon.data.game(GAME).outbox().unwrap().is_empty());
}

/// `mark_sent` fsyncs only `sent/`: if a crash brings a sent mail's outbox entry back, the
/// next delivery finds it in `sent/` and drops it instead of sending it twice.
#[test]
fn a_sent_mail_back_in_the_outbox_after_a_crash_is_not_sent_twice() {
    let w = world("training");
    w.daemon.run_once(w.now).unwrap();
    let store = w.daemon.data.game(GAME);
    let sent = store.sent().unwrap();
    let first = sent.first().expect("the welcomes were sent");
    let back = store.outbox_dir().join(first.file_name().unwrap());
    std::fs::create_dir_all(store.outbox_dir()).unwrap();
    std::fs::copy(first, &back).unwrap();
    w.daemon.data.mark_pending(GAME).unwrap();
    let before = w.delivered().len();
    let pass = w.daemon.run_once(w.now + Duration::minutes(1)).unwrap();
    assert_eq!(pass.delivered, 0);
    assert_eq!(w.delivered().len(), before, "delivered twice");
    assert!(!back.exists(), "the outbox copy stays");
    // The control: the same file not yet in sent/ is delivered.
    let fresh = store.outbox_dir().join("999999-control.eml");
    std::fs::copy(first, &fresh).unwrap();
    w.daemon.data.mark_pending(GAME).unwrap();
    let pass = w.daemon.run_once(w.now + Duration::minutes(2)).unwrap();
    assert_eq!(pass.delivered, 1);
}

/// The stored index serves only a restart, so a running daemon writes it at most every few
/// minutes: a restart before then opens the game changed since (once), one after does not.
#[test]
fn the_stored_index_is_written_every_few_minutes_and_a_restart_copes_with_an_old_one() {
    let mut w = world("training");
    // Written at its first pass (8 minutes in); the mail comes 2 minutes later (`send` moves
    // the clock 10 minutes), the next pass 3 minutes after the write: not written again.
    w.daemon.run_once(w.now + Duration::minutes(8)).unwrap();
    w.send("japan", "FLAGSHIP Mikasa\n");
    w.daemon.run_once(w.now + Duration::minutes(1)).unwrap();
    let restore = booby_trap(&w);
    assert!(
        opened_and_failed(&another_process(&w), w.now + Duration::minutes(2)),
        "a restart trusted an index older than the game"
    );
    restore();
    w.daemon.run_once(w.now + Duration::minutes(30)).unwrap();
    let restore = booby_trap(&w);
    assert!(!opened_and_failed(
        &another_process(&w),
        w.now + Duration::minutes(31)
    ));
    restore();
}

/// Sets the games folder's modification time, as if its last change had been `at`.
fn games_folder_changed(w: &World, at: std::time::SystemTime) {
    std::fs::File::open(w.daemon.data.games_dir())
        .unwrap()
        .set_modified(at)
        .unwrap();
}

/// The moment a stamp names (`<seconds>.<nanoseconds>` since the epoch).
fn stamp_time(stamp: &str) -> std::time::SystemTime {
    let (s, n) = stamp.split_once('.').unwrap();
    std::time::UNIX_EPOCH + std::time::Duration::new(s.parse().unwrap(), n.parse().unwrap())
}

/// A game folder copied in by hand, without a change mark, that fails when opened.
fn copied_in_by_hand(w: &World, id: &str) {
    let from = w.daemon.data.game(GAME).dir;
    let to = w.daemon.data.games_dir().join(id);
    std::fs::create_dir_all(&to).unwrap();
    for e in std::fs::read_dir(&from).unwrap().flatten() {
        if e.path().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
    std::fs::write(to.join("host.secret"), b"not a secret").unwrap();
}

/// A restart lists the games folder only when it changed since the index was written (issue
/// 32 point 4: the listing alone cost 18 first passes of one game at 10,000 games): with the
/// folder's time as the index recorded it, a game copied in is not seen; with the folder
/// changed, it is found and opened.
#[test]
fn a_restart_lists_the_games_folder_only_when_it_changed() {
    let w = world("training");
    let long_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
    games_folder_changed(&w, long_ago);
    // The first pass stamps the index with the folder's time.
    w.daemon.run_once(w.now).unwrap();
    let StoredIndex::Trusted(stored) = w.daemon.data.due_index() else {
        panic!("a trusted index");
    };
    let stamp = stored
        .games_folder
        .clone()
        .expect("a settled folder is stamped");
    assert_eq!(stamp_time(&stamp), long_ago);
    // A game copied in, the folder's time put back: the restart does not list the folder.
    copied_in_by_hand(&w, "zz");
    games_folder_changed(&w, long_ago);
    assert!(
        !opened_and_failed(&another_process(&w), w.now + Duration::minutes(1)),
        "the folder was listed though its stamp had not changed"
    );
    // Control: the folder's time as the copy left it: listed, the copy found and opened.
    games_folder_changed(&w, long_ago + std::time::Duration::from_secs(30));
    let p = another_process(&w)
        .run_once(w.now + Duration::minutes(2))
        .unwrap();
    assert_eq!(p.failed_games, ["zz"], "{p:?}");
}

/// A running daemon brings the stamp up to date when it writes the index: a game made by
/// another process (`despatch new`) changes the folder, and the next index write lists it
/// again, so the next restart need not.
#[test]
fn a_running_daemon_restamps_the_index_after_a_game_is_made() {
    let w = world("training");
    w.daemon.run_once(w.now).unwrap();
    let seats: Vec<(String, String)> = ["japan", "russia"]
        .iter()
        .map(|s| (s.to_string(), format!("{s}-player@other.example")))
        .collect();
    another_process(&w)
        .create_game("later", "naval-rjw", "training", &seats, w.now)
        .unwrap();
    let long_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
    games_folder_changed(&w, long_ago);
    w.daemon.run_once(w.now + Duration::minutes(30)).unwrap();
    let StoredIndex::Trusted(stored) = w.daemon.data.due_index() else {
        panic!("a trusted index");
    };
    assert!(stored.games.contains_key("later"), "{stored:?}");
    assert_eq!(stored.games_folder, w.daemon.data.games_folder_stamp());
    assert_eq!(
        stamp_time(stored.games_folder.as_deref().unwrap()),
        long_ago
    );
}
