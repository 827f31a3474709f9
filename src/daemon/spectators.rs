//! Observers (issue 16, point 5): the organiser (`despatch gm spectator`) or, when the club
//! policy says `players`, a seat by mail (`SPECTATOR ADD|REMOVE`) adds or removes an address
//! that receives the spectator view. The address lives in the private seats file; the journal
//! gets an opaque id. Each change is decided by a pure function over what was read
//! (`change_spectators`, `decide_spectator_line`); the daemon's methods here read and carry
//! out. The observers' mails themselves are `spectator_mail.rs`.

use anyhow::{Result, anyhow};
use chrono::{DateTime, Utc};

use crate::config::address::{Mailbox, Unfit, unfit_address};
use crate::engine::club::Spectators;
use crate::engine::guard::Activity;
use crate::engine::{Event, Play};
use crate::mail::compose::{self, Draft, Recipient, SpectatorRefused};
use crate::mail::inbound::{Inbound, SeatCommand};
use crate::store::{PendingSpectator, SeatsFile, Spectator};

use super::Daemon;
use super::decision::{Decision, Intake};
use super::open_game::{OpenGame, reload};
use super::unasked::Unasked;

/// Observers one game may have: enough for a club night, few enough that one seat cannot
/// turn the game into a mailing list.
pub const MAX_SPECTATORS: usize = 20;

/// Who asks for a change: the organiser, or a seat by mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By<'a> {
    Gm,
    Seat(&'a str),
}

impl By<'_> {
    fn word(&self) -> String {
        match self {
            By::Gm => "gm".into(),
            By::Seat(s) => s.to_string(),
        }
    }
}

/// What a change of observers needs of the game: its club policy on spectators, whether it is
/// over, and its step (for the journal line of one who leaves).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Watched {
    pub policy: Spectators,
    pub over: bool,
    pub step: u64,
}

impl Watched {
    pub fn of(game: &dyn Play) -> Self {
        let book = game.book();
        Self {
            policy: book.policy.club.spectators,
            over: game.is_over(),
            step: book.step,
        }
    }
}

/// Adds or removes observer `address`: the seats file as it is to be and the event to journal
/// (none for a request not yet confirmed, W5), or why not (said to whoever asked; nothing
/// changes). An address added is only asked: it is kept with `code` until it confirms, and
/// counts toward the cap but not as watching. Requests that have lapsed are dropped first.
/// Pure: the new observer's id and code, the time and whether the address is unfit
/// (`address::unfit_address`, ruling E1) come in as values.
#[allow(clippy::too_many_arguments)]
pub fn change_spectators(
    game: &Watched,
    seats: &SeatsFile,
    by: By,
    add: bool,
    address: &str,
    unfit: Option<Unfit>,
    (new_id, code, stop): (&str, &str, &str),
    now: DateTime<Utc>,
) -> Result<(SeatsFile, Option<Event>), SpectatorRefused> {
    match (game.policy, by) {
        (Spectators::None, _) => {
            return Err(SpectatorRefused::Private);
        }
        (Spectators::Gm, By::Seat(_)) => {
            return Err(SpectatorRefused::OrganiserOnly);
        }
        _ => {}
    }
    if game.over {
        return Err(SpectatorRefused::GameOver);
    }
    let mut next = seats.clone();
    drop_lapsed(&mut next, now);
    let found = next
        .spectators
        .iter()
        .position(|s| s.address.eq_ignore_ascii_case(address));
    let event = if add {
        if let Some(why) = unfit {
            return Err(SpectatorRefused::Unfit {
                address: address.to_string(),
                why: why.words().to_string(),
            });
        }
        if next.seats.values().any(|p| p.writes_from(address)) {
            return Err(SpectatorRefused::PlaysASeat(address.to_string()));
        }
        match found.map(|i| next.spectators[i].watching()) {
            Some(true) => return Err(SpectatorRefused::WatchesAlready(address.to_string())),
            Some(false) => return Err(SpectatorRefused::AskedAlready(address.to_string())),
            None => {}
        }
        if next.spectators.len() >= MAX_SPECTATORS {
            return Err(SpectatorRefused::Full(MAX_SPECTATORS));
        }
        next.spectators.push(Spectator {
            id: new_id.to_string(),
            address: address.to_string(),
            added_by: by.word(),
            since: now,
            pending: Some(PendingSpectator {
                code: code.to_string(),
                until: crate::mail::consent::pending_until(now),
            }),
            stop: Some(stop.to_string()),
        });
        None
    } else {
        let Some(i) = found else {
            return Err(SpectatorRefused::NotWatching(address.to_string()));
        };
        if let By::Seat(seat) = by
            && next.spectators[i].added_by != seat
        {
            return Err(SpectatorRefused::AddedByAnother(address.to_string()));
        }
        let gone = next.spectators.remove(i);
        gone.watching().then(|| Event::SpectatorLeft {
            step: game.step,
            spectator: gone.id,
            by: by.word(),
            watching: watching(&next),
            at: now,
        })
    };
    Ok((next, event))
}

/// A spectator's own STOP (W7), by mail or one-click (L1), pure: the seats file without them
/// and, when they were watching and the game still runs, the event that tells the seats.
pub(super) fn spectator_stop(
    seats: &SeatsFile,
    id: &str,
    step: u64,
    over: bool,
    now: DateTime<Utc>,
) -> (SeatsFile, Option<Event>) {
    let mut next = seats.clone();
    let was = next.spectators.iter().any(|s| s.id == id && s.watching());
    next.spectators.retain(|s| s.id != id);
    let ev = (was && !over).then(|| Event::SpectatorLeft {
        step,
        spectator: id.to_string(),
        by: "spectator".into(),
        watching: watching(&next),
        at: now,
    });
    (next, ev)
}

/// How many confirmed observers the game has (what W1's notices count).
pub(super) fn watching(seats: &SeatsFile) -> u32 {
    seats.spectators.iter().filter(|s| s.watching()).count() as u32
}

/// Drops the requests that lapsed unconfirmed (W5): they never watched, so no event.
pub(super) fn drop_lapsed(seats: &mut SeatsFile, now: DateTime<Utc>) {
    seats
        .spectators
        .retain(|s| s.pending.as_ref().is_none_or(|p| p.until > now));
}

/// A change of observers asked for (a seat's `SPECTATOR ADD|REMOVE` line as intake read it,
/// or the organiser's `despatch gm spectator`), with what deciding it needs read beforehand: whether the address may not be a recipient (E1), a new observer's id,
/// confirmation code and STOP code, the address's record of unasked answers (F1), the time.
pub(super) struct SpectatorLine<'a> {
    pub(super) by: By<'a>,
    pub(super) add: bool,
    pub(super) address: &'a str,
    pub(super) unfit: Option<Unfit>,
    pub(super) fresh: (String, String, String),
    pub(super) unasked: Unasked,
    pub(super) now: DateTime<Utc>,
}

/// What a change of observers comes to: who asked what, and its outcome.
#[derive(Debug)]
pub(super) struct SpectatorDecision<'a> {
    pub(super) by: By<'a>,
    pub(super) add: bool,
    pub(super) address: &'a str,
    pub(super) outcome: Outcome,
}

/// A SPECTATOR line's outcome.
#[derive(Debug)]
pub(super) enum Outcome {
    /// Nothing changes; the seat is told why.
    Refused(SpectatorRefused),
    /// The address is asked to confirm (W5): the seats file with it pending, and the record
    /// of the one mail that asks it (F1).
    Asked {
        seats: SeatsFile,
        asked: Spectator,
        answered: Vec<(String, Activity)>,
    },
    /// An observer the seat added is removed: the seats file without it, and the event that
    /// tells the seats when it was watching.
    Removed {
        seats: SeatsFile,
        event: Option<Event>,
    },
}

/// Decides a change of observers, pure: the change (`change_spectators`), then, for an
/// address added, the one request to confirm within the per-address cap (F1); over it,
/// nothing is added, so no request is left pending that was never sent.
pub(super) fn decide_spectator_line<'a>(
    game: &Watched,
    seats: &SeatsFile,
    line: SpectatorLine<'a>,
) -> SpectatorDecision<'a> {
    let SpectatorLine {
        by,
        add,
        address,
        unfit,
        fresh: (id, code, stop),
        mut unasked,
        now,
    } = line;
    let decided = |outcome| SpectatorDecision {
        by,
        add,
        address,
        outcome,
    };
    let (next, event) = match change_spectators(
        game,
        seats,
        by,
        add,
        address,
        unfit,
        (&id, &code, &stop),
        now,
    ) {
        Ok(changed) => changed,
        Err(why) => return decided(Outcome::Refused(why)),
    };
    if !add {
        return decided(Outcome::Removed { seats: next, event });
    }
    let asked = next.spectators.iter().find(|s| s.id == id).cloned();
    match asked {
        Some(asked) if unasked.admit(&asked.address, &format!("consent-{id}"), now) => {
            decided(Outcome::Asked {
                seats: next,
                asked,
                answered: unasked.records,
            })
        }
        _ => decided(Outcome::Refused(SpectatorRefused::OverHourlyCap(
            address.to_string(),
        ))),
    }
}

/// The seat's answer to its SPECTATOR line, pure: what happened, then the observers it added
/// (as the seats file is to be, or unchanged when refused) and how many others did.
pub(super) fn spectator_answer(
    game: &dyn Play,
    to: &Recipient,
    before: &SeatsFile,
    decided: &SpectatorDecision,
    message_id: &str,
) -> Draft {
    let (done, after) = match &decided.outcome {
        Outcome::Refused(why) => (Err(why), before),
        Outcome::Asked { seats, .. } | Outcome::Removed { seats, .. } => (Ok(()), seats),
    };
    let said = compose::spectator_said(
        decided.add,
        decided.address,
        done,
        crate::mail::consent::PENDING_DAYS,
    );
    let mine: Vec<(&str, bool)> = after
        .spectators
        .iter()
        .filter(|s| s.added_by == decided.by.word())
        .map(|s| (s.address.as_str(), s.watching()))
        .collect();
    let others = after.spectators.len() - mine.len();
    compose::spectator_reply(game, to, &said, &mine, others, message_id)
}

impl Daemon {
    /// Whether `address` may not be a recipient in game `g` (ruling E1): the house address,
    /// this game's organiser or the configured one, a role address.
    pub(super) fn unfit(&self, g: &OpenGame, address: &str) -> Option<Unfit> {
        let organisers: Vec<&str> = g
            .seats
            .gm
            .iter()
            .chain(self.cfg.mail.gm_address.iter())
            .map(String::as_str)
            .collect();
        unfit_address(address, &self.cfg.mail.address, &organisers)
    }

    /// `despatch gm spectator <game> add|remove <address>`. Returns what was done, in words.
    /// An address added is sent one mail asking it to confirm (W5), and nothing else until it
    /// does.
    pub fn gm_spectator(
        &self,
        game_id: &str,
        add: bool,
        address: &str,
        now: DateTime<Utc>,
    ) -> Result<String> {
        let _lock = self.data.lock()?;
        let mailbox: Mailbox = address.parse().map_err(|e| anyhow!("address: {e}"))?;
        let mut g = self.open_game(game_id)?;
        let address = mailbox.address.as_str();
        let line = SpectatorLine {
            by: By::Gm,
            add,
            address,
            unfit: self.unfit(&g, address),
            fresh: (new_id()?, new_code()?, new_code()?),
            unasked: self.unasked([address]),
            now,
        };
        let decided = decide_spectator_line(&Watched::of(g.game.as_ref()), &g.seats, line);
        let (seats, ev, answered, letters) = match decided.outcome {
            Outcome::Refused(e) => anyhow::bail!("{game_id}: {e}; nothing changed"),
            Outcome::Asked {
                seats,
                asked,
                answered,
            } => {
                let letter = self.consent_letter(&g, &asked, None, now);
                (seats, None, answered, letter.into_iter().collect())
            }
            Outcome::Removed { seats, event } => (seats, event, vec![], vec![]),
        };
        for (address, a) in &answered {
            self.data.write_answered(address, a)?;
        }
        g.store.write_seats(&seats)?;
        reload(&mut g)?;
        if let Some(ev) = &ev {
            self.append(&mut g, ev, now)?;
        }
        if !letters.is_empty() {
            self.data.mark_pending(&g.store.id)?;
            self.queue_letters(&g.store, &letters)?;
        }
        self.close(&g)?;
        self.deliver_at(now)?;
        Ok(compose::gm_spectator_said(
            game_id,
            add,
            address,
            watching(&g.seats),
            crate::mail::consent::PENDING_DAYS,
        ))
    }

    /// `SPECTATOR ADD|REMOVE <address>` from an authenticated seat: allowed only under the
    /// `players` policy; answered either way with what happened. Reads what deciding needs
    /// (E1's unfit addresses, fresh codes, the address's F1 record), decides
    /// (`decide_spectator_line`), and returns the decision to carry out.
    pub(super) fn spectator_command(
        &self,
        cmd: &SeatCommand,
        g: OpenGame,
        seat: &str,
        mut activity: Activity,
        inb: &Inbound,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        let (add, address) = match cmd {
            SeatCommand::SpectatorAdd(a) => (true, a.as_str()),
            SeatCommand::SpectatorRemove(a) => (false, a.as_str()),
            _ => anyhow::bail!("not a spectator command: {cmd:?}"),
        };
        let line = SpectatorLine {
            by: By::Seat(seat),
            add,
            address,
            unfit: self.unfit(&g, address),
            fresh: (new_id()?, new_code()?, new_code()?),
            unasked: self.unasked([address]),
            now,
        };
        let decided = decide_spectator_line(&Watched::of(g.game.as_ref()), &g.seats, line);
        let to = g.recipient(seat).expect("an authenticated seat").clone();
        let draft = spectator_answer(g.game.as_ref(), &to, &g.seats, &decided, &inb.message_id);
        let letters = match &decided.outcome {
            Outcome::Asked { asked, .. } => self.consent_letter(&g, asked, Some(inb), now),
            _ => None,
        };
        activity.outcome(now, None);
        let intake = Intake::Settings {
            game: g.store.id.clone(),
            seat: seat.to_string(),
        };
        let mut d = Decision::for_seat(intake, g, seat, activity);
        d.drafts = vec![draft];
        d.letters = letters.into_iter().collect();
        match decided.outcome {
            Outcome::Refused(_) => {}
            Outcome::Asked {
                seats, answered, ..
            } => {
                d.seats = Some(seats);
                d.answered = answered;
            }
            Outcome::Removed { seats, event } => {
                d.seats = Some(seats);
                d.events = event.into_iter().collect();
            }
        }
        Ok(d)
    }
}

/// An observer's opaque id: 10 characters from the OS RNG, so the journal says nothing of who.
fn new_id() -> Result<String> {
    Ok(crate::store::new_token()?[..10].to_string())
}

/// The code a confirmation must carry: a fresh seat-strength secret (24 characters, ~124
/// bits), so only the mailbox that received it can confirm.
pub(super) fn new_code() -> Result<String> {
    Ok(crate::store::new_token()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        DateTime::<Utc>::UNIX_EPOCH + chrono::Duration::days(20_000)
    }

    fn game(policy: Spectators) -> Watched {
        Watched {
            policy,
            over: false,
            step: 4,
        }
    }

    fn line<'a>(seat: &'a str, add: bool, address: &'a str, unasked: Unasked) -> SpectatorLine<'a> {
        SpectatorLine {
            by: By::Seat(seat),
            add,
            address,
            unfit: None,
            fresh: ("id1".into(), "code1".into(), "stop1".into()),
            unasked,
            now: now(),
        }
    }

    fn watcher(added_by: &str) -> Spectator {
        Spectator {
            id: "w1".into(),
            address: "w@x.org".into(),
            added_by: added_by.into(),
            since: now(),
            pending: None,
            stop: None,
        }
    }

    #[test]
    fn an_address_a_seat_adds_is_asked_once_and_the_answer_counted() {
        let seats = SeatsFile::default();
        let d = decide_spectator_line(
            &game(Spectators::Players),
            &seats,
            line("north", true, "w@x.org", Unasked::default()),
        );
        let Outcome::Asked {
            seats,
            asked,
            answered,
        } = d.outcome
        else {
            panic!("{:?}", d.outcome)
        };
        assert_eq!(
            (asked.id.as_str(), asked.added_by.as_str()),
            ("id1", "north")
        );
        assert!(!asked.watching());
        assert_eq!(seats.spectators, vec![asked]);
        assert_eq!(answered.len(), 1);
        assert_eq!(answered[0].0, "w@x.org");
    }

    #[test]
    fn over_the_cap_on_unasked_answers_nothing_is_added() {
        let full = Activity {
            mails: vec![now(); 3],
            ..Default::default()
        };
        let unasked = Unasked::read([("w@x.org".to_string(), full)]);
        let d = decide_spectator_line(
            &game(Spectators::Players),
            &SeatsFile::default(),
            line("north", true, "w@x.org", unasked),
        );
        assert!(
            matches!(&d.outcome, Outcome::Refused(SpectatorRefused::OverHourlyCap(a)) if a == "w@x.org"),
            "{:?}",
            d.outcome
        );
    }

    #[test]
    fn a_seat_is_refused_where_only_the_organiser_adds_observers() {
        let d = decide_spectator_line(
            &game(Spectators::Gm),
            &SeatsFile::default(),
            line("north", true, "w@x.org", Unasked::default()),
        );
        assert!(matches!(
            d.outcome,
            Outcome::Refused(SpectatorRefused::OrganiserOnly)
        ));
        // The organiser may, and what it adds is the organiser's.
        let gm = SpectatorLine {
            by: By::Gm,
            ..line("north", true, "w@x.org", Unasked::default())
        };
        let d = decide_spectator_line(&game(Spectators::Gm), &SeatsFile::default(), gm);
        assert!(
            matches!(&d.outcome, Outcome::Asked { asked, .. } if asked.added_by == "gm"),
            "{:?}",
            d.outcome
        );
    }

    #[test]
    fn a_seat_removes_its_own_watcher_and_the_seats_are_told_but_not_another_seats() {
        let seats = SeatsFile {
            spectators: vec![watcher("north")],
            ..Default::default()
        };
        let d = decide_spectator_line(
            &game(Spectators::Players),
            &seats,
            line("north", false, "W@x.org", Unasked::default()),
        );
        let Outcome::Removed {
            seats: after,
            event,
        } = d.outcome
        else {
            panic!("{:?}", d.outcome)
        };
        assert!(after.spectators.is_empty());
        assert!(
            matches!(&event, Some(Event::SpectatorLeft { step: 4, spectator, watching: 0, .. }) if spectator == "w1"),
            "{event:?}"
        );
        let d = decide_spectator_line(
            &game(Spectators::Players),
            &seats,
            line("south", false, "w@x.org", Unasked::default()),
        );
        assert!(matches!(
            d.outcome,
            Outcome::Refused(SpectatorRefused::AddedByAnother(_))
        ));
    }
}
