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
use crate::store::SeatPrivate;

use super::Daemon;
use super::decision::{Decision, Intake};
use super::intake::ct_eq;
use super::open_game::OpenGame;

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

    /// A mail to a game from an address that is no seat's: the seat's secret from an unknown
    /// address is reported to the seat's registered player; a replaced player is told once
    /// that the seat passed on; anyone else gets nothing.
    pub(super) fn not_a_seat_address(
        &self,
        inb: &Inbound,
        route: &Route,
        g: OpenGame,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        let game_id = g.store.id.clone();
        let token = route.token.clone().unwrap_or_default();
        let owner = g
            .recipients()
            .iter()
            .find(|r| {
                !token.is_empty()
                    && ct_eq(r.private.token.as_bytes(), token.as_bytes())
                    && route.seat.as_deref().is_none_or(|s| s == r.seat)
            })
            .cloned();
        if let Some(owner) = owner {
            let (over, stranger) = self.stranger_over_budget(inb, now);
            let mut d = Decision::only(if over {
                Intake::RateLimited
            } else {
                Intake::Unregistered {
                    game: game_id.clone(),
                    seat: owner.seat.clone(),
                }
            });
            d.stranger = Some((inb.from.clone(), stranger));
            let mut activity = g.store.activity(&owner.seat);
            if !over
                && activity.may_warn(now)
                && self.may_answer(&owner.private.address, "unregistered", now, &mut d.answered)
            {
                d.drafts = vec![compose::unregistered_notice(
                    &game_id,
                    &owner,
                    &inb.from,
                    &inb.message_id,
                )];
                d.seat_activity = Some((owner.seat.clone(), activity));
            }
            d.game = Some(g);
            return Ok(d);
        }
        let former = g
            .seats
            .former
            .iter()
            .rposition(|f| f.address.eq_ignore_ascii_case(&inb.from))
            .filter(|&i| !g.seats.former[i].told);
        if let Some(i) = former {
            let (over, stranger) = self.stranger_over_budget(inb, now);
            let f = g.seats.former[i].clone();
            let mut d = Decision::only(if over {
                Intake::RateLimited
            } else {
                Intake::PassedOn {
                    game: game_id.clone(),
                    seat: f.seat.clone(),
                }
            });
            d.stranger = Some((inb.from.clone(), stranger));
            if !over {
                let mut seats = g.seats.clone();
                seats.former[i].told = true;
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
            d.game = Some(g);
            return Ok(d);
        }
        Ok(Decision::only(Intake::Unknown(format!(
            "sender not registered in `{game_id}`"
        ))))
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
