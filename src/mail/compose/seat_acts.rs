//! The mails of a seat's acts on the game (docs/club-rules.md): what the other seats are told
//! of an absence, its withdrawal or refusal, a concession, a resignation and an agreed draw
//! (each composed from its journal event, so a crash re-derives them), and the answer to the
//! seat that acted. Draw votes are never mentioned before the draw is agreed (ruling D1).

use chrono::{DateTime, NaiveDate, Utc};

use crate::dice;
use crate::engine::{Event, Outcome, Play, Rejected, club::OnResign};
use crate::mail::inbound::SeatAct;
use crate::report;

use super::replies::{answer_draft, plain, short};
use super::rich::EventMails;
use super::{ComposeError, Draft, DraftKind, MailCtx, Recipient};

/// The commands, as every answer to one ends with them.
pub const COMMANDS: &str = "Absences, concession, resignation and draws, one command as the first
line of a mail to this game (like orders):

    ABSENT 2026-12-20 TO 2027-01-03   away those days (your time zone)
    ABSENT                            your absences and days left
    ABSENT CANCEL                     withdraw absences not yet begun
    PROPOSE DRAW <game>               a secret vote for a draw
    ACCEPT DRAW <game>                the same vote
    DECLINE DRAW                      take your vote back
    CONCEDE <game>                    your side gives up the game
    RESIGN <game>                     you leave the game
";

/// The drafts of a seat-act event (line `index`), from the game right after it.
pub(super) fn drafts(
    game: &dyn Play,
    ev: &Event,
    index: u64,
    ctx: &MailCtx,
) -> Result<Vec<Draft>, ComposeError> {
    let at = EventMails { game, index, ctx };
    match ev {
        Event::Absent {
            seat,
            first_day,
            last_day,
            from,
            until,
            ..
        } => at.absent(seat, (*first_day, *last_day), (*from, *until)),
        Event::AbsenceCancelled {
            seat,
            from,
            refused,
            reason,
            ..
        } => at.absence_cancelled(seat, *from, *refused, reason),
        Event::Conceded { seat, side, .. } => at.conceded(seat, side),
        Event::Resigned {
            seat, on_resign, ..
        } => at.resigned(seat, *on_resign),
        Event::DrawAgreed { .. } => at.draw_agreed(),
        _ => Ok(vec![]),
    }
}

/// The seat acts' mails, made where the event is.
impl EventMails<'_> {
    /// The game's outcome when the event ended it and the game-over mail is this event's
    /// (v1); None when it goes on. `Err(())`: it ended, and the game-ended event that follows
    /// (v2) mails it, saying why.
    fn over(&self) -> Result<Option<Outcome>, ()> {
        let over = self.game.outcome();
        if over.is_some() && self.game.book().protocol == dice::Protocol::V2 {
            return Err(());
        }
        Ok(over)
    }

    /// An absence declared: the seat itself was answered when it declared; the others are
    /// told, each in their own zone.
    fn absent(
        &self,
        seat: &str,
        (first_day, last_day): (NaiveDate, NaiveDate),
        (from, until): (DateTime<Utc>, DateTime<Utc>),
    ) -> Result<Vec<Draft>, ComposeError> {
        let mut out = Vec::new();
        for to in self.ctx.recipients.iter().filter(|r| r.seat != seat) {
            let zone = &to.private.time_zone;
            let body = format!(
                "{seat} will be away from {first_day} to {last_day} (its own days):\n\
                 from {}\nuntil {}.\n\
                 A deadline of a step that waits for {seat} and falls in that time\n\
                 (or less than one step's length after it) is moved past it; you are\n\
                 told each new deadline. Standing orders still answer for {seat} when\n\
                 it stays silent.\n",
                report::fmt_time(from, zone),
                report::fmt_time(until, zone),
            );
            out.push(self.draft(
                DraftKind::GmNotice,
                to,
                "absent",
                format!("{seat} will be away {first_day} to {last_day}"),
                &body,
            )?);
        }
        Ok(out)
    }

    /// An absence withdrawn by its seat (the others are told) or refused by the organiser
    /// (every seat is told, the seat itself in its own words).
    fn absence_cancelled(
        &self,
        seat: &str,
        from: DateTime<Utc>,
        refused: bool,
        reason: &str,
    ) -> Result<Vec<Draft>, ComposeError> {
        let mut out = Vec::new();
        for to in self.ctx.recipients {
            if !refused && to.seat == seat {
                continue;
            }
            let when = report::fmt_time(from, &to.private.time_zone);
            let (subject, mut body) = match (refused, to.seat == seat) {
                (true, true) => (
                    "The organiser refused your absence".to_string(),
                    format!(
                        "The organiser refused your absence beginning {when}.\n\
                         Deadlines are no longer moved for it.\n"
                    ),
                ),
                (true, false) => (
                    format!("{seat}'s absence is refused"),
                    format!(
                        "The organiser refused {seat}'s absence beginning {when}.\n\
                         Deadlines are no longer moved for it.\n"
                    ),
                ),
                (false, _) => (
                    format!("{seat}'s absence is withdrawn"),
                    format!(
                        "{seat} withdrew its absence beginning {when}.\n\
                         Deadlines are no longer moved for it.\n"
                    ),
                ),
            };
            if !reason.is_empty() {
                body.push_str(&format!("Reason: {reason}\n"));
            }
            out.push(self.draft(DraftKind::GmNotice, to, "absence", subject, &body)?);
        }
        Ok(out)
    }

    /// A concession: every seat is told, with the game-over mail when it ended the game.
    fn conceded(&self, seat: &str, side: &str) -> Result<Vec<Draft>, ComposeError> {
        let Ok(over) = self.over() else {
            return Ok(vec![]);
        };
        let mut out = Vec::new();
        for to in self.ctx.recipients {
            let (kind, subject, body) = match &over {
                Some(o) => (
                    DraftKind::GameOver,
                    super::game_over_subject(self.game, o),
                    format!("{seat} conceded for {side}.\n\n{}\n", o.summary),
                ),
                None => (
                    DraftKind::GmNotice,
                    format!("{side} concedes"),
                    format!(
                        "{seat} conceded for {side}: every seat of {side} is out of the\n\
                         game. The game goes on between the sides still playing.\n"
                    ),
                ),
            };
            out.push(self.draft(kind, to, "conceded", subject, &body)?);
        }
        Ok(out)
    }

    /// A resignation: the other seats are told what becomes of the seat (the resigned player
    /// is answered at the address it wrote from, not here).
    fn resigned(&self, seat: &str, on_resign: OnResign) -> Result<Vec<Draft>, ComposeError> {
        let Ok(over) = self.over() else {
            return Ok(vec![]);
        };
        let mut out = Vec::new();
        for to in self.ctx.recipients.iter().filter(|r| r.seat != seat) {
            let what = match (on_resign, &over) {
                (_, Some(o)) => format!("\n{}\n", o.summary),
                (OnResign::ReplacementWanted, None) if self.ctx.gm_known => format!(
                    "The seat waits for a new player; the organiser has been told.\n\
                     Until then {seat}'s standing orders answer for it and no step\n\
                     waits for it.\n"
                ),
                // Nobody is told when no organiser address is set: say so, not a promise.
                (OnResign::ReplacementWanted, None) => format!(
                    "The seat waits for a new player, but this game has no organiser\n\
                     address, so nobody has been told: whoever runs the game can hand\n\
                     the seat on. Until then {seat}'s standing orders answer for it and\n\
                     no step waits for it.\n"
                ),
                (OnResign::StandingOrders, None) => format!(
                    "Until the end of the game {seat}'s standing orders answer for it\n\
                     and no step waits for it.\n"
                ),
                (OnResign::Forfeit, None) => {
                    format!("{seat} is out of the game, as if it had forfeited.\n")
                }
            };
            let (kind, subject) = match &over {
                Some(o) => (DraftKind::GameOver, super::game_over_subject(self.game, o)),
                None => (DraftKind::GmNotice, format!("{seat}'s player resigned")),
            };
            let body = format!("The player of {seat} has resigned from the game.\n{what}");
            out.push(self.draft(kind, to, "resigned", subject, &body)?);
        }
        Ok(out)
    }

    /// A draw agreed: the game-over mail (v1; in v2 it follows with the game-ended event,
    /// saying "drawn").
    fn draw_agreed(&self) -> Result<Vec<Draft>, ComposeError> {
        let Some(o) = self
            .game
            .outcome()
            .filter(|_| self.game.book().protocol == dice::Protocol::V1)
        else {
            return Ok(vec![]);
        };
        let mut out = Vec::new();
        for to in self.ctx.recipients {
            let subject = super::game_over_subject(self.game, &o);
            out.push(self.draft(
                DraftKind::GameOver,
                to,
                "draw",
                subject,
                &format!("{}\n", o.summary),
            )?);
        }
        Ok(out)
    }
}

/// What a seat's act came to, as the daemon decided it (daemon/seat_acts.rs): the figures its
/// answer gives (`act_reply` says it in words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActDone {
    /// `ABSENT` alone: the absences are listed below the answer.
    AbsencesShown,
    /// An absence recorded, in the seat's time zone `zone`; `deadlines`: where the open step's
    /// deadline moved for it, if it did.
    AbsenceRecorded {
        first: NaiveDate,
        last: NaiveDate,
        zone: String,
        deadlines: Vec<DateTime<Utc>>,
    },
    /// `ABSENT CANCEL`: `count` absences not yet begun withdrawn.
    AbsencesWithdrawn { count: usize },
    /// The seat conceded for `side`.
    Conceded { side: String },
    /// A secret vote for a draw recorded (said the same whether or not anyone else voted:
    /// ruling D1).
    DrawVoted,
    /// `DECLINE DRAW`: no vote stands any more.
    DrawWithdrawn,
}

/// The first words of the answer: what the act did.
fn act_said(done: &ActDone) -> String {
    match done {
        ActDone::AbsencesShown => "Your absences are below.".into(),
        ActDone::AbsenceRecorded {
            first,
            last,
            zone,
            deadlines,
        } => {
            let days = (*last - *first).num_days() + 1;
            let mut s = format!(
                "Your absence from {first} to {last} ({days} days, {zone}) is recorded;\n\
                 every other seat is told."
            );
            for deadline in deadlines {
                s.push_str(&format!(
                    "\nThe open step's deadline moves to {}.",
                    report::fmt_time(*deadline, zone)
                ));
            }
            s
        }
        ActDone::AbsencesWithdrawn { count } => {
            format!("Withdrawn: {count} absence(s) not yet begun.")
        }
        ActDone::Conceded { side } => format!("You conceded for {side}. Every seat is told."),
        ActDone::DrawVoted => "Your vote for a draw is recorded. Nobody is told of it: the \
                               game ends as a draw, and every seat is told, only when every \
                               seat still playing has voted for one. DECLINE DRAW takes \
                               your vote back."
            .into(),
        ActDone::DrawWithdrawn => {
            "You have no vote for a draw standing (any you had is withdrawn).".into()
        }
    }
}

/// The answer to a seat's act: what happened, then the seat's absences as they now stand and
/// the commands.
pub fn act_reply(
    game: &dyn Play,
    to: &Recipient,
    done: &ActDone,
    year: i32,
    message_id: &str,
) -> Draft {
    let said = act_said(done);
    let mut body = format!("{}\n\n", report::code_marks_to_quotes(said.trim_end()));
    body.push_str(&absences_text(game, &to.seat, year));
    body.push('\n');
    body.push_str(COMMANDS);
    answer_draft(
        game,
        to,
        format!("act-{}", short(message_id)),
        DraftKind::Settings,
        "Done: your request is recorded",
        &body,
        message_id,
    )
}

/// The acts that cannot be undone, which name the game on their own line (ruling C2): a
/// subject or a stray word cannot end a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Irreversible {
    Concede,
    Resign,
    DrawVote,
}

impl Irreversible {
    fn word(self) -> &'static str {
        match self {
            Irreversible::Concede => "CONCEDE",
            Irreversible::Resign => "RESIGN",
            Irreversible::DrawVote => "ACCEPT DRAW",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Irreversible::Concede => "gives the game up for your side",
            Irreversible::Resign => "gives your seat up",
            Irreversible::DrawVote => "may end the game",
        }
    }
}

/// The refusal of an irreversible act whose confirming word (`confirm`, empty when missing)
/// is not the game's id.
pub fn unconfirmed(act: Irreversible, confirm: &str, game_id: &str) -> Rejected {
    let word = act.word();
    let reason = if confirm.is_empty() {
        format!(
            "{word} {} and cannot be undone, so it must name the game",
            act.what()
        )
    } else {
        format!("`{confirm}` is not this game's id, so nothing was done")
    };
    Rejected {
        line: 1,
        text: String::new(),
        reason,
        hint: Some(format!(
            "write {word} {game_id} alone on the first line of a mail to this game"
        )),
    }
}

/// The act's line as the seat wrote it, near enough, quoted in its refusal.
pub fn act_line(act: &SeatAct) -> String {
    match act {
        SeatAct::AbsentShow => "ABSENT".into(),
        SeatAct::AbsentCancel => "ABSENT CANCEL".into(),
        SeatAct::Absent { first, last } => format!("ABSENT {first} TO {last}"),
        SeatAct::Concede { confirm } => format!("CONCEDE {confirm}"),
        SeatAct::Resign { confirm } => format!("RESIGN {confirm}"),
        SeatAct::DrawVote { confirm } => format!("DRAW {confirm}"),
        SeatAct::DrawWithdraw => "DECLINE DRAW".into(),
        SeatAct::Bad { text, .. } => text.clone(),
    }
    .trim()
    .to_string()
}

/// The seat's absences and the days it has left in `year`.
pub fn absences_text(game: &dyn Play, seat: &str, year: i32) -> String {
    let book = game.book();
    let limit = book.policy.club.absence_days_per_year;
    let mine: Vec<_> = book.club.absences_of(seat).collect();
    let mut s = format!("YOUR ABSENCES ({limit} days a year in this game)\n");
    if mine.is_empty() {
        s.push_str("    none declared\n");
    }
    for a in &mine {
        s.push_str(&format!(
            "    {} to {}  ({} days)\n",
            a.first_day,
            a.last_day,
            (a.last_day - a.first_day).num_days() + 1
        ));
    }
    s.push_str(&format!(
        "Days left in {year}: {}\n",
        book.club.days_left(seat, year, limit)
    ));
    s
}

/// The whole text of the letter to a player who resigned (sent to the address they wrote
/// from: the seat is no longer theirs).
/// `gm_known`: whether the game has an organiser address, who was told (when it has none, no
/// one was, and the player is not promised otherwise).
pub fn resigned_text(game_id: &str, seat: &str, on_resign: OnResign, gm_known: bool) -> String {
    let after = match on_resign {
        OnResign::ReplacementWanted if gm_known => {
            "The organiser has been told, to find a new player for it."
        }
        OnResign::ReplacementWanted => {
            "It waits for a new player; this game has no organiser address, so nobody has been \
             told by mail: let whoever runs the game know if you can."
        }
        OnResign::StandingOrders => "Its standing orders answer for it until the end.",
        OnResign::Forfeit => "It is out of the game.",
    };
    let body = format!(
        "You have resigned from game {game_id}: seat {seat} is no longer yours,\n\
         and its secret no longer works. {after}\n\
         Every other seat has been told. Thank you for playing.\n"
    );
    report::wrap_text(&plain(game_id, &body))
}

/// The subject of the letter to a player who resigned.
pub fn resigned_subject(game_id: &str, seat: &str) -> String {
    format!("[{game_id}] You have resigned (seat {seat})")
}

/// The organiser's report that a seat wants a new player (its player resigned at `step`):
/// the subject and the text.
pub(super) fn replacement_wanted(game_id: &str, step: u64, seat: &str) -> (String, String) {
    (
        format!("Seat {seat} wants a new player"),
        format!(
            "The player of {seat} resigned at step {step}. Until a new player takes\n\
             the seat its standing orders answer for it. To hand it on:\n\
             despatch gm replace {game_id} --seat {seat} --address <new player>\n"
        ),
    )
}
