//! Intake's answers about players rather than orders: seat commands (ADDRESS, TIMEZONE,
//! NOTIFY, LIST), the seat's secret from an address not registered, a replaced player writing
//! again, and a registered player's mail that names no game. Decides what to change in the
//! private seats file and whom to tell; writes nothing itself (intake's `carry_out` does).
//!
//! Unknown senders still get nothing: every answer here goes to an address already registered
//! for a seat (or registered before `gm replace`), and counts against the strangers' hourly
//! budget when the sender has not proved the seat's secret.

use anyhow::Result;
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use crate::config::address::Unfit;
use crate::engine::guard::Activity;
use crate::mail::compose::{self, ListedGame, Recipient, SettingDone};
use crate::mail::inbound::{Inbound, NotifyKind, Route, SeatCommand};
use crate::mail::outbound::{self, Outgoing};
use crate::report;
use crate::store::{FormerPlayer, SeatPrivate, SeatsFile};

use super::Daemon;
use super::decision::{Decision, Intake};
use super::intake::ct_eq;
use super::open_game::OpenGame;
use super::unasked::{Unasked, stranger_admit};

/// A short, stable tag of an inbound Message-ID for queue names.
fn short(message_id: &str) -> String {
    hex::encode(&Sha256::digest(message_id.as_bytes())[..8])
}

/// Extra addresses a seat may add: enough for home, work and phone.
const MAX_EXTRA_ADDRESSES: usize = 4;

/// What a seat command does to the seat's private record `p` (changed in place) and what the
/// answer says: a pure decision over the record as read, whether the mail came from the seat's
/// registered address, and, for an address to add, whether it is unfit or another player's.
fn change_setting(
    cmd: &SeatCommand,
    p: &mut SeatPrivate,
    from_main: bool,
    unfit: Option<Unfit>,
    taken: bool,
) -> SettingDone {
    match cmd {
        SeatCommand::AddressAdd(_) | SeatCommand::AddressRemove(_) if !from_main => {
            SettingDone::OnlyFromMain {
                main: p.address.clone(),
            }
        }
        SeatCommand::AddressAdd(a) => add_address(p, a, unfit, taken),
        SeatCommand::AddressRemove(a) => remove_address(p, a),
        SeatCommand::Addresses => SettingDone::AddressesShown,
        SeatCommand::Name(None) => SettingDone::NameShown,
        SeatCommand::Name(Some(n)) => {
            p.name = n.clone();
            SettingDone::NameSet { name: n.clone() }
        }
        SeatCommand::TimeZone(z) => {
            p.time_zone = z.clone();
            SettingDone::TimeZoneSet { zone: z.clone() }
        }
        SeatCommand::Notify(None) => SettingDone::NotifyShown,
        SeatCommand::Notify(Some((kind, on))) => {
            notify(p, *kind, *on);
            SettingDone::NotifySet {
                kind: *kind,
                on: *on,
            }
        }
        SeatCommand::Stop => {
            p.notify.stop();
            SettingDone::Stopped
        }
        SeatCommand::Invalid { command, why } => SettingDone::NotUnderstood {
            command: command.clone(),
            why: why.clone(),
        },
        SeatCommand::List | SeatCommand::Act(_) => unreachable!("answered above"),
        SeatCommand::Status
        | SeatCommand::Units
        | SeatCommand::Calendar
        | SeatCommand::History(_)
        | SeatCommand::Press(_)
        | SeatCommand::TalkInvalid { .. } => unreachable!("answered by talk above"),
        SeatCommand::SpectatorAdd(_) | SeatCommand::SpectatorRemove(_) => {
            unreachable!("intake routes these to spectator_command")
        }
    }
}

/// ADDRESS ADD from the seat's registered address: one more address its mails are read
/// from, unless it is one already, unfit, another player's (ruling E2), or one too many.
fn add_address(p: &mut SeatPrivate, a: &str, unfit: Option<Unfit>, taken: bool) -> SettingDone {
    let address = a.to_string();
    if p.writes_from(a) {
        return SettingDone::AlreadyYours { address };
    }
    if let Some(why) = unfit {
        return SettingDone::Unfit { address, why };
    }
    if taken {
        return SettingDone::TakenElsewhere { address };
    }
    if p.also_from.len() >= MAX_EXTRA_ADDRESSES {
        return SettingDone::TooManyAddresses {
            max: MAX_EXTRA_ADDRESSES,
        };
    }
    p.also_from.push(address.clone());
    SettingDone::AddressAdded {
        address,
        main: p.address.clone(),
    }
}

/// ADDRESS REMOVE from the seat's registered address: an extra address no longer read; the
/// address the game mails stays (only the organiser changes it).
fn remove_address(p: &mut SeatPrivate, a: &str) -> SettingDone {
    let address = a.to_string();
    if a.eq_ignore_ascii_case(&p.address) {
        return SettingDone::MainNotRemovable { address };
    }
    let n = p.also_from.len();
    p.also_from.retain(|x| !x.eq_ignore_ascii_case(a));
    if p.also_from.len() < n {
        SettingDone::AddressRemoved { address }
    } else {
        SettingDone::NotYours { address }
    }
}

/// NOTIFY <kind> ON or OFF, in the seat's record.
fn notify(p: &mut SeatPrivate, kind: NotifyKind, on: bool) {
    match kind {
        NotifyKind::Orders => p.notify.orders = on,
        NotifyKind::Optional => p.notify.optional = on,
        NotifyKind::Receipts => p.notify.receipts = on,
        NotifyKind::Results => p.notify.results = on,
        NotifyKind::Both => {
            p.notify = if on {
                crate::store::Notify::all()
            } else {
                crate::store::Notify::default()
            }
        }
    }
}

/// The seat whose secret the mail's address carries (and whose name, when the address gave
/// one), whoever sent it.
fn token_owner(g: &OpenGame, route: &Route) -> Option<Recipient> {
    let token = route.token.as_deref().unwrap_or_default();
    g.recipients()
        .iter()
        .find(|r| {
            !token.is_empty()
                && ct_eq(r.private.token.as_bytes(), token.as_bytes())
                && route.seat.as_deref().is_none_or(|s| s == r.seat)
        })
        .cloned()
}

/// A mail to a game from an address that is neither a seat's nor an observer's, as intake
/// read it, with what deciding it needs read beforehand: the seat whose secret the address
/// carried (with the guard's record of warnings to it), the seats file, the sender's record
/// as a stranger and the budget (`max_per_sender_per_hour`), the cap's records of unasked
/// answers (F1), the time.
pub(super) struct Outsider<'a> {
    pub(super) from: &'a str,
    pub(super) owner: Option<(Recipient, Activity)>,
    pub(super) seats: &'a SeatsFile,
    pub(super) stranger: Activity,
    pub(super) per_hour: u32,
    pub(super) unasked: Unasked,
    pub(super) now: DateTime<Utc>,
}

/// What such a mail comes to. Either way it counts against the strangers' budget
/// (`stranger`, the record as it is to be), and over it no one is told.
#[derive(Debug)]
pub(super) enum OutsiderDecision {
    /// The seat's secret from an address not registered for it: nothing applied; the seat's
    /// registered player is told, at most once per the guard's hours (`notice`, the guard's
    /// record as it is to be) and within the cap (F1).
    Unregistered {
        owner: Recipient,
        over_budget: bool,
        stranger: Activity,
        notice: Option<Activity>,
        answered: Vec<(String, Activity)>,
    },
    /// A player whose seat was handed on writes again: told once that it passed on (`told`,
    /// the seats file that marks them told).
    PassedOn {
        former: FormerPlayer,
        over_budget: bool,
        stranger: Activity,
        told: Option<SeatsFile>,
    },
    /// Anyone else, or a former player told already: nothing.
    Unknown,
}

/// Decides a mail from an address that is no seat's, pure: the seat's secret from an unknown
/// address is reported to the seat's registered player; a replaced player is told once that
/// the seat passed on; anyone else gets nothing.
pub(super) fn decide_outsider(m: Outsider) -> OutsiderDecision {
    let Outsider {
        from,
        owner,
        seats,
        stranger,
        per_hour,
        mut unasked,
        now,
    } = m;
    if let Some((owner, mut warned)) = owner {
        let (over_budget, stranger) = stranger_admit(stranger, per_hour, now);
        let notice = !over_budget
            && warned.may_warn(now)
            && unasked.admit(&owner.private.address, "unregistered", now);
        return OutsiderDecision::Unregistered {
            owner,
            over_budget,
            stranger,
            notice: notice.then_some(warned),
            answered: unasked.records,
        };
    }
    let Some(i) = seats
        .former
        .iter()
        .rposition(|f| f.address.eq_ignore_ascii_case(from))
        .filter(|&i| !seats.former[i].told)
    else {
        return OutsiderDecision::Unknown;
    };
    let (over_budget, stranger) = stranger_admit(stranger, per_hour, now);
    let told = (!over_budget).then(|| {
        let mut next = seats.clone();
        next.former[i].told = true;
        next
    });
    OutsiderDecision::PassedOn {
        former: seats.former[i].clone(),
        over_budget,
        stranger,
        told,
    }
}

impl Daemon {
    /// A seat command from the seat's authenticated player: change what it says in the seat's
    /// private record (if anything) and answer with the settings as they now stand.
    pub(super) fn seat_command(
        &self,
        cmd: &SeatCommand,
        g: OpenGame,
        seat: &str,
        mut activity: Activity,
        inb: &Inbound,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        if cmd.is_talk() {
            return self.talk(cmd, g, seat, activity, inb, now);
        }
        if let SeatCommand::Act(act) = cmd {
            return self.seat_act(act, g, seat, activity, inb, now);
        }
        if *cmd == SeatCommand::List {
            activity.outcome(now, None);
            let mut d = self.list_games(inb, now, true)?;
            d.seat_activity = Some((seat.to_string(), activity));
            d.game = Some(g);
            d.processed = true;
            return Ok(d);
        }
        self.setting(cmd, g, seat, activity, inb, now)
    }

    /// A command on the seat's own settings: changed in a copy of the private seats file
    /// (`change_setting`), and answered with the settings as they now stand.
    fn setting(
        &self,
        cmd: &SeatCommand,
        g: OpenGame,
        seat: &str,
        mut activity: Activity,
        inb: &Inbound,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        let (unfit, taken) = match cmd {
            SeatCommand::AddressAdd(a) => (self.unfit(&g, a), self.taken_elsewhere(&g, seat, a)?),
            _ => (None, false),
        };
        let mut seats = g.seats.clone();
        let Some(p) = seats.seats.get_mut(seat) else {
            anyhow::bail!("seat `{seat}` has no private record in {}", g.store.id);
        };
        let from_main = p.address.eq_ignore_ascii_case(&inb.from);
        let before = p.clone();
        let done = change_setting(cmd, p, from_main, unfit, taken);
        let after = p.clone();
        let to = Recipient {
            seat: seat.to_string(),
            private: after.clone(),
        };
        let draft = compose::settings_reply(g.game.as_ref(), &to, &done, &inb.message_id);
        activity.outcome(now, None);
        let mut d = Decision::for_seat(
            Intake::Settings {
                game: g.store.id.clone(),
                seat: seat.to_string(),
            },
            g,
            seat,
            activity,
        );
        if after != before {
            d.seats = Some(seats);
        }
        d.drafts = vec![draft];
        Ok(d)
    }

    /// Whether `address` is registered (as a seat's address or an extra one) for a seat of
    /// another player than `seat`'s, in this game or any other of this host (ruling E2). The
    /// player is known by the address the game mails (the seat's main one): a seat whose main
    /// address is the asker's is the asker's own, so a player may add in one game an address
    /// they already use in another. Every game's LIST answers each address it writes from,
    /// so an address shared with another player would carry this seat's secret to them.
    fn taken_elsewhere(&self, g: &OpenGame, seat: &str, address: &str) -> Result<bool> {
        let Some(mine) = g.seats.seats.get(seat).map(|p| p.address.clone()) else {
            return Ok(false);
        };
        // The asker's own seats (this one included) are those mailed at the asker's address.
        let other = |seats: &crate::store::SeatsFile| {
            seats
                .seats
                .values()
                .any(|p| !p.address.eq_ignore_ascii_case(&mine) && p.writes_from(address))
        };
        if other(&g.seats) {
            return Ok(true);
        }
        for id in self.data.game_ids()? {
            if id == g.store.id {
                continue;
            }
            // A game whose seats cannot be read names no one (it fails on its own).
            if let Ok(seats) = self.data.game(&id).seats()
                && other(&seats)
            {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// A mail to a game from an address that is no seat's, decided by `decide_outsider` on
    /// what is read here (the seat whose secret it carried and its guard record, the sender's
    /// record as a stranger, the cap's records); the mails are built for what it decided.
    pub(super) fn not_a_seat_address(
        &self,
        inb: &Inbound,
        route: &Route,
        g: OpenGame,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        let game_id = g.store.id.clone();
        let owner = token_owner(&g, route).map(|r| {
            let warned = g.store.activity(&r.seat);
            (r, warned)
        });
        let unasked = self.unasked(owner.iter().map(|(r, _)| r.private.address.as_str()));
        let m = Outsider {
            from: &inb.from,
            owner,
            seats: &g.seats,
            stranger: self.data.stranger(&inb.from),
            per_hour: self.cfg.mail.max_per_sender_per_hour,
            unasked,
            now,
        };
        let mut d = match decide_outsider(m) {
            OutsiderDecision::Unknown => {
                return Ok(Decision::only(Intake::Unknown(format!(
                    "sender not registered in `{game_id}`"
                ))));
            }
            OutsiderDecision::Unregistered {
                owner,
                over_budget,
                stranger,
                notice,
                answered,
            } => {
                let mut d = Decision::only(if over_budget {
                    Intake::RateLimited
                } else {
                    Intake::Unregistered {
                        game: game_id.clone(),
                        seat: owner.seat.clone(),
                    }
                });
                d.stranger = Some((inb.from.clone(), stranger));
                d.answered = answered;
                if let Some(warned) = notice {
                    d.drafts = vec![compose::unregistered_notice(
                        &game_id,
                        &owner,
                        &inb.from,
                        &inb.message_id,
                    )];
                    d.seat_activity = Some((owner.seat.clone(), warned));
                }
                d
            }
            OutsiderDecision::PassedOn {
                former: f,
                over_budget,
                stranger,
                told,
            } => {
                let mut d = Decision::only(if over_budget {
                    Intake::RateLimited
                } else {
                    Intake::PassedOn {
                        game: game_id.clone(),
                        seat: f.seat.clone(),
                    }
                });
                d.stranger = Some((inb.from.clone(), stranger));
                if let Some(seats) = told {
                    d.seats = Some(seats);
                    d.letters = vec![(
                        format!("passed-on-{}", short(&inb.message_id)),
                        self.letter(
                            &f.address,
                            &compose::passed_on_subject(&game_id, &f.seat),
                            &compose::passed_on_text(&game_id, &f.seat, f.until),
                            inb,
                            now,
                        ),
                    )];
                }
                d
            }
        };
        d.game = Some(g);
        Ok(d)
    }

    /// The sender's games, mailed to the sender, when the sender is registered in any: as the
    /// answer to `LIST` (`asked`) or to a mail that named no game. Nothing for anyone else.
    pub(super) fn list_games(
        &self,
        inb: &Inbound,
        now: DateTime<Utc>,
        asked: bool,
    ) -> Result<Decision> {
        let (over, stranger) = self.stranger_over_budget(inb, now);
        // The address wrote STOP to the house (ruling L2): nothing unasked goes to it.
        if !asked && self.data.is_quiet(&inb.from) {
            return Ok(Decision::only(Intake::Unknown(
                "the address wrote STOP: no games list unasked".into(),
            )));
        }
        if over && !asked {
            let mut d = Decision::only(Intake::RateLimited);
            d.stranger = Some((inb.from.clone(), stranger));
            return Ok(d);
        }
        let games = self.games_of(&inb.from, now)?;
        if games.is_empty() {
            return Ok(Decision::only(Intake::Unknown("no game named".into())));
        }
        let mut d = Decision::only(Intake::Listed { games: games.len() });
        if !asked {
            d.stranger = Some((inb.from.clone(), stranger));
            // Tokenless: the From may be forged, so this is an answer to someone who did not
            // provably ask (ruling F1).
            if !self.may_answer(&inb.from, "games-list", now, &mut d.answered) {
                d.intake = Intake::RateLimited;
                return Ok(d);
            }
        }
        d.letters = vec![(
            format!("list-{}", short(&inb.message_id)),
            self.letter(
                &inb.from,
                "Your games",
                &compose::games_list_text(&inb.from, &games, asked),
                inb,
                now,
            ),
        )];
        Ok(d)
    }

    /// Every seat the address writes for, in every game (reads each game's private seats file;
    /// the games it plays in are opened to say where they stand).
    fn games_of(&self, address: &str, now: DateTime<Utc>) -> Result<Vec<ListedGame>> {
        let (local, domain) = self.cfg.address_parts();
        let mut out = Vec::new();
        for id in self.data.game_ids()? {
            let Ok(seats) = self.data.game(&id).seats() else {
                continue;
            };
            let mine: Vec<_> = seats
                .seats
                .iter()
                .filter(|(_, p)| p.writes_from(address))
                .collect();
            if mine.is_empty() {
                continue;
            }
            let Ok(g) = self.open_game(&id) else {
                continue;
            };
            for (seat, p) in mine {
                let book = g.game.book();
                let state = if g.game.is_over() {
                    "over".to_string()
                } else {
                    let due = book
                        .deadline
                        .filter(|d| *d > now)
                        .map(|d| format!(", due {}", report::fmt_short(d, &p.time_zone)))
                        .unwrap_or_default();
                    format!("{} open{due}", g.game.spec().title)
                };
                let step = (!g.game.is_over()).then_some(book.step);
                let reply_to = outbound::reply_address(&local, &id, seat, &p.token, step, &domain)?;
                out.push(ListedGame {
                    game: id.clone(),
                    seat: seat.clone(),
                    ruleset: g.game.ruleset().to_string(),
                    reply_to,
                    state,
                });
            }
        }
        Ok(out)
    }

    /// A mail to one address outside any seat's thread (a list of games, a word to a former
    /// player), answering the mail it is about.
    pub(super) fn letter(
        &self,
        to: &str,
        subject: &str,
        text: &str,
        inb: &Inbound,
        now: DateTime<Utc>,
    ) -> Outgoing {
        let (local, domain) = self.cfg.address_parts();
        let html = report::render(
            "plain.html",
            serde_json::json!({"game": "", "seat": "", "subject": subject, "text": text}),
        )
        .ok();
        Outgoing {
            to: to.to_string(),
            from: format!(
                "{} <{local}@{domain}>",
                crate::mail::compose::house_display_name(&self.cfg.mail.from_name)
            ),
            subject: subject.to_string(),
            text: text.to_string(),
            html,
            message_id: outbound::message_id(&[&inb.message_id, subject], &domain),
            // Echoed only when a valid msg-id (see `outbound::echoable_id`).
            in_reply_to: outbound::echoable_id(&inb.message_id).map(str::to_string),
            references: outbound::echoable_id(&inb.message_id)
                .map(str::to_string)
                .into_iter()
                .collect(),
            date: now,
            auto_generated: false,
            // STOP to the house: no games list unasked any more (ruling L2). No one-click
            // URI: the address holds no secret of its own to derive a code from.
            list_unsubscribe: Some(outbound::unsubscribe_mailto(&format!("{local}@{domain}"))),
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;

    fn now() -> DateTime<Utc> {
        DateTime::<Utc>::UNIX_EPOCH + Duration::days(20_000)
    }

    fn north() -> Recipient {
        Recipient {
            seat: "north".into(),
            private: serde_json::from_value(
                serde_json::json!({"address": "n@x.org", "token": "tok"}),
            )
            .unwrap(),
        }
    }

    fn former(told: bool) -> SeatsFile {
        SeatsFile {
            former: vec![FormerPlayer {
                seat: "south".into(),
                address: "old@x.org".into(),
                until: now() - Duration::days(2),
                told,
            }],
            ..Default::default()
        }
    }

    fn decide(
        from: &str,
        owner: Option<(Recipient, Activity)>,
        seats: &SeatsFile,
    ) -> OutsiderDecision {
        decide_outsider(Outsider {
            from,
            owner,
            seats,
            stranger: Activity::default(),
            per_hour: 5,
            unasked: Unasked::default(),
            now: now(),
        })
    }

    #[test]
    fn a_seats_secret_from_elsewhere_is_told_to_its_player_once_in_a_while() {
        let seats = SeatsFile::default();
        let d = decide("thief@y.org", Some((north(), Activity::default())), &seats);
        let OutsiderDecision::Unregistered {
            owner,
            over_budget: false,
            notice: Some(warned),
            answered,
            ..
        } = d
        else {
            panic!("{d:?}")
        };
        assert_eq!(owner.seat, "north");
        assert_eq!(answered[0].0, "n@x.org");
        // Warned just now: not again.
        let again = decide("thief@y.org", Some((north(), warned)), &seats);
        assert!(matches!(
            again,
            OutsiderDecision::Unregistered { notice: None, .. }
        ));
    }

    #[test]
    fn a_former_player_is_told_once_and_anyone_else_nothing() {
        let d = decide("OLD@x.org", None, &former(false));
        let OutsiderDecision::PassedOn {
            former: f,
            over_budget: false,
            told: Some(seats),
            ..
        } = d
        else {
            panic!("{d:?}")
        };
        assert_eq!(f.seat, "south");
        assert!(seats.former[0].told);
        assert!(matches!(
            decide("old@x.org", None, &former(true)),
            OutsiderDecision::Unknown
        ));
        assert!(matches!(
            decide("who@y.org", None, &former(false)),
            OutsiderDecision::Unknown
        ));
    }

    #[test]
    fn over_the_strangers_budget_a_former_player_is_not_told() {
        let d = decide_outsider(Outsider {
            from: "old@x.org",
            owner: None,
            seats: &former(false),
            stranger: Activity {
                mails: vec![now(); 5],
                ..Default::default()
            },
            per_hour: 5,
            unasked: Unasked::default(),
            now: now(),
        });
        assert!(matches!(
            d,
            OutsiderDecision::PassedOn {
                over_budget: true,
                told: None,
                ..
            }
        ));
    }
}
