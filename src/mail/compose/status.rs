//! Answers to a seat's questions about its game (issue 16 point 1): `STATUS` (where the game
//! stands, as that seat may know it), the list of steps `HISTORY` can send again, and the
//! refusal of a `STATUS`, `HISTORY`/`RESEND` or `PRESS` line that cannot be carried out (the
//! line, why, and what to write instead). Pure text from values; the daemon decides.

use chrono::{DateTime, Utc};

use crate::engine::Play;
use crate::engine::club::{Press, PressRecord};
use crate::report;

use super::replies::{answer_draft, short};
use super::toolkit::{prompt_text, silence_words};
use super::{Draft, DraftKind, Recipient};

/// Where the game stands for seat `to`: the open step and what it asks of the seat, which
/// seats are awaited (as every "waiting for" line says; never what anyone ordered), the
/// deadline in the seat's zone with UTC beside it, whether the seat's own orders are in (with
/// their digest), the mails waiting for the seat's next mail (`mails_waiting`: each one's note, as
/// the bringing mail will list it), and the policy a player needs: silence, press, absences.
pub fn status_reply(
    game: &dyn Play,
    to: &Recipient,
    mails_waiting: &[Vec<String>],
    message_id: &str,
) -> Draft {
    let book = game.book();
    let zone = &to.private.time_zone;
    let mut b = format!("STATUS OF GAME {} (seat {})\n\n", book.id, to.seat);
    if let Some(o) = game.outcome() {
        b.push_str(&format!("The game is over: {}\n", o.summary.trim_end()));
        b.push_str(&format!(
            "Its last step was step {}. Write HISTORY to list the steps whose results\n\
             can be sent to you again.\n",
            book.step.saturating_sub(1)
        ));
        return answer_draft(
            game,
            to,
            format!("status-{}", short(message_id)),
            DraftKind::Settings,
            "Status: the game is over",
            &b,
            message_id,
        );
    }
    let spec = game.spec();
    b.push_str(&format!("Open step:     {} ({})\n", book.step, spec.title));
    let waiting = game.waiting_for();
    b.push_str(&format!(
        "Awaited:       {}\n",
        if waiting.is_empty() {
            "nobody (the step resolves at the next pass)".to_string()
        } else {
            waiting.join(", ")
        }
    ));
    match book.deadline {
        Some(d) => b.push_str(&format!("Deadline:      {}\n", report::fmt_time(d, zone))),
        None => b.push_str("Deadline:      none (the step waits for its orders)\n"),
    }
    match book.pending.get(&to.seat) {
        Some(p) => b.push_str(&format!(
            "Your orders:   in, received {}\n               digest D = {}\n",
            report::fmt_time(p.at, zone),
            crate::dice::to_hex(&p.digest)
        )),
        None if prompt_text(game, &to.seat).is_some() => {
            b.push_str("Your orders:   not in yet for this step\n")
        }
        None => b.push_str("Your orders:   none asked of you in this step\n"),
    }
    b.push_str(&waiting_section(mails_waiting));
    b.push_str(&format!(
        "\nWHAT IS ASKED OF YOU\n{}\n",
        prompt_text(game, &to.seat).unwrap_or_else(|| "Nothing in this step.".to_string())
    ));
    let club = &book.policy.club;
    let press = match club.press {
        Press::Open => "open: any seat, side, all, or the organiser (PRESS TO …)",
        Press::Side => "within your own side, and to the organiser (PRESS TO …)",
        Press::None => "none between players; the organiser can be reached (PRESS TO gm)",
    };
    let record = match club.press_record {
        PressRecord::Digest => "the journal keeps only each message's digest",
        PressRecord::Text => "the journal keeps each message's text, for an auditor",
    };
    b.push_str(&format!(
        "\nTHE GAME'S RULES FOR PLAYERS\nIf you send nothing by a deadline: {}.\nPress: {press}; {record}.\n",
        silence_words(book.policy.on_silence)
    ));
    if club.absence_days_per_year > 0 {
        b.push_str(&format!(
            "Absences: up to {} days a calendar year.\n",
            club.absence_days_per_year
        ));
    } else {
        b.push_str("Absences: none in this game.\n");
    }
    b.push_str("\nSend HELP for the order reference and every command.\n");
    answer_draft(
        game,
        to,
        format!("status-{}", short(message_id)),
        DraftKind::Settings,
        &format!("Status: step {}", book.step),
        &b,
        message_id,
    )
}

/// The mails that wait for the seat's next mail (issue 30 point 2), so a player who wonders
/// where a receipt went is told, and how to have each mail at once.
fn waiting_section(waiting: &[Vec<String>]) -> String {
    if waiting.is_empty() {
        return "Mails waiting: none (each mail of this game has reached you)\n".to_string();
    }
    let mut s = format!(
        "Mails waiting: {} for your next mail that asks something of you, which\n\
         brings them attached (NOTIFY ALL ON sends each at once):\n",
        waiting.len()
    );
    for note in waiting {
        if let Some(first) = note.first() {
            s.push_str(&format!("  - {first}\n"));
        }
    }
    s
}

/// One resolved step for [`history_list`]: its number, when it resolved, and whether its
/// results mail to this seat is kept (a seat that turned results of optional steps off got
/// none).
pub struct HistoryStep {
    pub step: u64,
    pub at: DateTime<Utc>,
    pub kept: bool,
}

/// `HISTORY` without a number: the steps resolved so far, and how to have one sent again.
pub fn history_list(
    game: &dyn Play,
    to: &Recipient,
    steps: &[HistoryStep],
    message_id: &str,
) -> Draft {
    let zone = &to.private.time_zone;
    let mut b = if steps.is_empty() {
        "No step of this game has been resolved yet, so there are no results to send\n\
         again. Write STATUS to see where the game stands.\n"
            .to_string()
    } else {
        format!("The steps of game {} resolved so far:\n\n", game.book().id)
    };
    for s in steps {
        b.push_str(&format!(
            "  step {:<4} resolved {}{}\n",
            s.step,
            report::fmt_short(s.at, zone),
            if s.kept { "" } else { " (not sent to you)" }
        ));
    }
    if !steps.is_empty() {
        b.push_str(
            "\nWrite HISTORY <step> (or RESEND <step>) to have that step's results mail sent\n\
             to you again, with its map and dice, exactly as you received it.\n",
        );
    }
    answer_draft(
        game,
        to,
        format!("history-{}", short(message_id)),
        DraftKind::Settings,
        "History: the steps so far",
        &b,
        message_id,
    )
}

/// The subject (before its tag) of a results mail sent again at the seat's request: its own
/// kind, so the copy is not taken for a new result. Shared with `verify`.
pub fn history_resent_subject(step: u64) -> String {
    format!("History: step {step} — resent")
}

/// Why a talk command (STATUS, HISTORY, PRESS…) was not carried out, as the daemon decided
/// it (daemon/talk.rs); `talk_refusal` says it in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TalkRefused {
    /// In words made where the line was judged (the command's grammar, the press rules).
    Said { why: String, hint: String },
    /// HISTORY 0.
    StepZero,
    /// HISTORY of the open step.
    StepOpen { step: u64 },
    /// HISTORY before any step was resolved.
    NothingResolved,
    /// HISTORY of a step after `last`, the last resolved one.
    NoSuchStep { step: u64, last: u64 },
    /// The journal holds no results of the step.
    NoResults { step: u64 },
    /// No results mail of the step was kept for the seat (a game from before one mail a step
    /// dropped the results of steps that only invited a seat whose NOTIFY OPTIONAL was off).
    NotKept { step: u64 },
    /// The step's results mail is still queued.
    OnItsWay { step: u64 },
    /// The kept copy cannot be read.
    CopyUnreadable { step: u64 },
    /// PRESS after the game's end.
    PressClosed,
}

impl TalkRefused {
    /// Why, and what to write instead.
    fn words(&self) -> (String, String) {
        const LIST: &str = "write HISTORY alone for the list of steps you can have again";
        const WHERE: &str =
            "write STATUS for where the game stands, or HISTORY alone for the list of steps";
        let (why, hint) = match self {
            TalkRefused::Said { why, hint } => (why.clone(), hint.as_str()),
            TalkRefused::StepZero => ("steps are numbered from 1".to_string(), LIST),
            TalkRefused::StepOpen { step } => {
                (format!("step {step} is open: it has no results yet"), WHERE)
            }
            TalkRefused::NothingResolved => (
                "no step of this game has been resolved yet".to_string(),
                WHERE,
            ),
            TalkRefused::NoSuchStep { step, last } => (
                format!("this game has no step {step}: it has been resolved up to step {last}"),
                WHERE,
            ),
            TalkRefused::NoResults { step } => {
                (format!("the journal holds no results of step {step}"), LIST)
            }
            TalkRefused::NotKept { step } => (
                format!(
                    "no results mail of step {step} was kept for you: that step only invited you, and such results were not sent to you then"
                ),
                "the next results mail you received shows the game as it stood after it",
            ),
            TalkRefused::OnItsWay { step } => (
                format!("the results mail of step {step} is still on its way to you"),
                "wait a few minutes; if it does not come, write HISTORY again",
            ),
            TalkRefused::CopyUnreadable { step } => (
                format!("the kept copy of step {step}'s results mail cannot be read"),
                "ask the organiser",
            ),
            TalkRefused::PressClosed => (
                "the game is over, so press is closed".to_string(),
                "write to the other players or the organiser directly",
            ),
        };
        (why, hint.to_string())
    }
}

/// A command line that was not carried out: the line as the player wrote it (shortened, on
/// one line), why (`refused`), and what to write instead. Nothing was changed, sent or
/// relayed.
pub fn talk_refusal(
    game: &dyn Play,
    to: &Recipient,
    line: usize,
    text: &str,
    refused: &TalkRefused,
    message_id: &str,
) -> Draft {
    let (why, hint) = refused.words();
    let mut shown: String = text.chars().filter(|c| !c.is_control()).take(60).collect();
    if text.chars().count() > 60 {
        shown.push('…');
    }
    let place = if line > 0 {
        format!("  line {line}: {}\n", shown.trim())
    } else {
        format!("  subject: {}\n", shown.trim())
    };
    let (why, hint) = (
        report::code_marks_to_quotes(&why),
        report::code_marks_to_quotes(&hint),
    );
    let body = format!(
        "Your mail was read, but nothing in it was carried out:\n\n{place}    why:  {why}\n    \
         hint: {hint}\n\nNothing was changed, sent or relayed. Send HELP for every command.\n"
    );
    answer_draft(
        game,
        to,
        format!("refused-{}", short(message_id)),
        DraftKind::Rejection,
        "Rejected: command not carried out",
        &body,
        message_id,
    )
}

/// The answer to `CALENDAR` (issue 31 point 5): the player's deadlines in every game they
/// play, listed in the seat's zone, with the whole calendar attached (`deadline.ics`; same
/// UIDs as each step's own entry, so importing it again moves entries rather than adding).
pub fn calendar_reply(
    game: &dyn Play,
    to: &Recipient,
    lines: &[String],
    ics: &str,
    message_id: &str,
) -> Draft {
    let mut b = format!(
        "YOUR CALENDAR ({})\n\nEvery deadline of every game you play, as it stands now; the \
         attached deadline.ics holds them all (times in {}):\n\n",
        to.private.address, to.private.time_zone
    );
    if lines.is_empty() {
        b.push_str("    none\n");
    }
    for l in lines {
        b.push_str(&format!("    {l}\n"));
    }
    b.push_str(
        "\nImport it again whenever you like: entries moved since replace the old ones. Each \
         step's own mail brings its entry too.\n",
    );
    let mut d = answer_draft(
        game,
        to,
        format!("calendar-{}", short(message_id)),
        DraftKind::Settings,
        "Your calendar: every deadline",
        &b,
        message_id,
    );
    d.calendar = Some(ics.to_string());
    d
}
