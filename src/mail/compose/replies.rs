//! Answers to one inbound mail that change nothing in the game (so no journal event carries
//! them): a rejection, the order reference, a warning to a seat that a mail without its secret
//! arrived. Named after the inbound Message-ID, so a re-read mail re-derives the same draft.
//! Nothing a sender wrote is echoed into a mail to anybody else.

use sha2::{Digest, Sha256};

use crate::engine::{Play, Rejected};
use crate::mail::inbound::{NothingReadable, retired_form};
use crate::report;

use super::toolkit::prompt_text;
use super::{ComposeError, Draft, DraftKind, Recipient};

/// A short, stable tag of an inbound Message-ID for queue names.
pub(super) fn short(message_id: &str) -> String {
    hex::encode(Sha256::digest(message_id.as_bytes()))[..16].to_string()
}

pub(super) fn plain(game: &str, body: &str) -> String {
    format!("{}\n\n-- \nDespatch · game {game}\n", body.trim_end())
}

/// Every bad line of a mail and why; nothing was applied.
pub fn rejection(
    game: &dyn Play,
    to: &Recipient,
    problems: &[Rejected],
    message_id: &str,
) -> Result<Draft, ComposeError> {
    let problems: Vec<serde_json::Value> = problems
        .iter()
        .map(|r| {
            serde_json::json!({
                "line": r.line, "text": r.text,
                "reason": report::code_marks_to_quotes(&r.reason),
                "hint": r.hint.as_deref().map(report::code_marks_to_quotes),
            })
        })
        .collect();
    let body = report::render(
        "rejection",
        serde_json::json!({"problems": problems, "prompt": prompt_text(game, &to.seat)}),
    )?;
    Ok(answer_draft(
        game,
        to,
        format!("reject-{}", short(message_id)),
        DraftKind::Rejection,
        "Rejected: nothing in your mail was applied",
        &body,
        message_id,
    ))
}

/// The order reference, as the games folder has it now. Without it, the player is told the
/// truth about who knows: `gm_told` says whether the daemon has just told an organiser.
pub fn help(
    game: &dyn Play,
    to: &Recipient,
    reference: Option<&str>,
    gm_told: bool,
    message_id: &str,
) -> Result<Draft, ComposeError> {
    let reference = reference.unwrap_or(if gm_told {
        "The order reference could not be read on the host just now; the organiser has been told."
    } else {
        "The order reference could not be read on the host just now, and this game has no \
         organiser's address: please tell whoever runs it."
    });
    let body = report::render(
        "help",
        serde_json::json!({
            "ruleset": game.ruleset(), "game": game.book().id,
            // One line per paragraph and list item: the mail's 72-column layout then fills
            // them, so a README line of any width never leaves a ragged stub behind it.
            "reference": report::markdown_to_paragraphs(reference),
            "briefing": game.briefing(&to.seat),
        }),
    )?;
    Ok(answer_draft(
        game,
        to,
        format!("help-{}", short(message_id)),
        DraftKind::Help,
        "Help: the order reference",
        &body,
        message_id,
    ))
}

/// To the seat's registered player (never to the sender, who may be a forger): a mail
/// claiming to be theirs came without the seat's secret. It quotes nothing of that mail.
pub fn auth_notice(game_id: &str, to: &Recipient, message_id: &str) -> Draft {
    let body = format!(
        "A mail claiming to come from you for seat {seat} arrived without the seat's secret.\n\
         Nothing in it was applied, and nothing of it is repeated here.\n\n\
         If you sent it, reply to a Despatch mail instead of writing a new one, or add the line\n\
         TOKEN <secret> from the Reply-To address of your welcome mail.\n",
        seat = to.seat
    );
    warning(
        &format!("auth-{}", short(message_id)),
        game_id,
        to,
        "A mail without your seat's secret",
        &body,
    )
}

/// A warning to a seat's registered player about a mail that was not theirs to apply: in no
/// step's thread, answering nothing (the mail it is about may be a forger's).
pub(super) fn warning(
    name: &str,
    game_id: &str,
    to: &Recipient,
    subject: &str,
    body: &str,
) -> Draft {
    Draft {
        waits: None,
        brings: Vec::new(),
        name: name.to_string(),
        kind: DraftKind::AuthNotice,
        game: game_id.to_string(),
        seat: to.seat.clone(),
        subject: subject.into(),
        text: plain(game_id, body),
        rich: None,
        calendar: None,
        answers: None,
        step: None,
    }
}

/// An answer to a seat's mail: a plain text with the footer, in reply to `message_id`, about
/// the step the game asks now. Every settings, request and refusal answer is one of these.
pub(super) fn answer_draft(
    game: &dyn Play,
    to: &Recipient,
    name: String,
    kind: DraftKind,
    subject: &str,
    body: &str,
    message_id: &str,
) -> Draft {
    Draft {
        waits: None,
        brings: Vec::new(),
        name,
        kind,
        game: game.book().id.clone(),
        seat: to.seat.clone(),
        subject: subject.into(),
        text: plain(&game.book().id, body),
        rich: None,
        calendar: None,
        answers: Some(message_id.to_string()),
        step: super::asked_step(game),
    }
}

/// The refusal of a mail with nothing that could be read as orders (`why`): not a
/// submission, so the player's earlier orders stand, and the hint says how to send nothing on
/// purpose.
pub fn nothing_readable(why: NothingReadable) -> Rejected {
    Rejected {
        line: 0,
        text: String::new(),
        reason: format!(
            "nothing in this mail could be read as orders: {}; so nothing changed, and \
             your earlier orders (if any) stand",
            why.words()
        ),
        hint: Some(
            "write your orders as plain text in the mail; to send no orders on purpose, write PASS"
                .into(),
        ),
    }
}

/// Why a subject that would act over an empty body was not carried out (ruling M2).
pub fn subject_refused(word: &str) -> Rejected {
    Rejected {
        line: 0,
        text: String::new(),
        reason: format!(
            "the subject asks for {word}, but nothing that acts (a concession, a resignation, \
             a draw vote, a setting, press) is ever taken from a subject line, so nothing was \
             done"
        ),
        hint: Some(format!(
            "write the {word} line as the first line of the mail's text (not the subject)"
        )),
    }
}

/// The hint for each line written in a retired command form (`WITHDRAW DRAW`), which was
/// read as orders and refused with them (ruling M3): on that line's own refusal, or as a
/// refusal of its own when the mail was refused as a whole.
pub fn hint_retired_forms(problems: &mut Vec<Rejected>, text: &str) {
    for (i, line) in text.lines().enumerate() {
        let Some(hint) = retired_form(line) else {
            continue;
        };
        match problems.iter_mut().find(|p| p.line == i + 1) {
            Some(p) => p.hint = Some(hint.into()),
            None => problems.push(Rejected {
                line: i + 1,
                text: line.trim().to_string(),
                reason: "WITHDRAW DRAW is not a command any more".into(),
                hint: Some(hint.into()),
            }),
        }
    }
}
/// To a seat whose mail system answered with an out-of-office: the ABSENT line that would
/// move its deadlines past the days it names (`days`, first and last, when they can be read),
/// and that nothing changes unless the player sends it. Subject and text.
pub fn away_question(
    id: &str,
    seat: &str,
    days: Option<(chrono::NaiveDate, chrono::NaiveDate)>,
) -> (String, String) {
    let line = match days {
        Some((a, b)) if a == b => format!("ABSENT {a}"),
        Some((a, b)) => format!("ABSENT {a} TO {b}"),
        None => "ABSENT <first day away> TO <last day away>".to_string(),
    };
    let read = match days {
        Some(_) => "says you are away; if so, reply to this mail with the line",
        None => {
            "says you are away, but names no dates Despatch can read; if so, reply to \
             this mail with the line"
        }
    };
    let text = format!(
        "Your mail system answered a mail of game {id} ({seat}): it {read}\n\n    \
         {line}\n\nand the deadlines of {id} that fall inside move past your \
         absence; your opponents are told only that you are away. Nothing has \
         changed yet: an absence is never taken from an automatic reply. If you \
         are not away, ignore this mail; you will not be asked again about these \
         days.\n"
    );
    let subject = format!("[{id}] Away? Reply ABSENT to move your deadlines");
    (subject, text)
}
