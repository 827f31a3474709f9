//! The pieces every mail about a game is made of: a journal event's plain draft, the
//! subjects (shared with `verify`), what the open step asks of a seat, the dice section, the
//! mail-key clause, the words for silence. Pure toolkit: it decides which mail goes to whom
//! for nothing (that is `events`, the dispatcher) and calls back into no sibling.

use crate::dice;
use crate::engine::{LockInfo, Play, Silence};
use crate::report::{DiceSection, RollRow};

use super::{Draft, DraftKind, Recipient};

/// A plain mail journal event `index` sends `to`, named `<index>-<word>-<seat>` so that
/// re-deriving it after a crash gives the same queue name.
pub(super) fn event_draft(
    game: &dyn Play,
    index: u64,
    kind: DraftKind,
    to: &Recipient,
    word: &str,
    subject: String,
    text: String,
) -> Draft {
    Draft {
        waits: None,
        brings: Vec::new(),
        name: format!("{index:06}-{word}-{}", to.seat),
        kind,
        game: game.book().id.clone(),
        seat: to.seat.clone(),
        subject,
        text,
        rich: None,
        calendar: None,
        answers: None,
        step: super::asked_step(game),
    }
}

/// How long is left before a deadline, as a reminder says it: "2 h 49 min", "1 h", "35 min",
/// rounded down to the minute (a reminder never promises more time than there is).
pub(super) fn time_left_words(left: chrono::Duration) -> String {
    let minutes = left.num_minutes().max(0);
    match (minutes / 60, minutes % 60) {
        (0, m) => format!("{m} min"),
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m} min"),
    }
}

/// The subject (before its tag) of a receipt for a mail that had no subject to answer (one
/// with a subject is answered `Re: <it>`). Shared with `verify`, which checks a player's mails
/// against a replay of the game.
pub fn receipt_subject(step_title: &str) -> String {
    format!("Receipt: orders for {step_title}")
}

/// The subject of the receipt for standing orders sent outside a step (ruling SO1).
pub fn standing_subject(step_title: &str) -> String {
    format!("Receipt: standing orders (open step: {step_title})")
}

/// The subject (before its tag) of a results mail or of the game-over mail, what matters
/// first: "Your orders — due <when>" only when `seat` must answer (the step's long title is in
/// the body; the tag names the step); otherwise the results, then the step's title, which a
/// long tag may cut. `due`: the deadline as the seat reads it. Shared with `verify` (which has
/// no time zone, so no `due`).
pub fn results_subject(game: &dyn Play, seat: &str, due: Option<&str>) -> String {
    if let Some(o) = game.outcome() {
        return game_over_subject(game, &o);
    }
    let asked = prompt_text(game, seat).is_some();
    if asked && !only_invited(game, seat) {
        match due {
            Some(d) => format!("Your orders — due {d}"),
            None => "Your orders".to_string(),
        }
    } else if asked {
        format!("Results, orders optional: {}", game.book().last_step_title)
    } else {
        format!("Results: {}", game.book().last_step_title)
    }
}

/// Does the open step only invite `seat` (an optional prompt, its standing orders answering
/// for it) rather than ask it?
pub fn only_invited(game: &dyn Play, seat: &str) -> bool {
    game.spec()
        .prompts
        .iter()
        .find(|p| p.seat == seat)
        .is_some_and(|p| !p.required)
}

/// `Game over: Japan wins`, `Game over: a draw`; or, when the rules ended the game and the
/// ruleset words its result, `Game over: German victory: the village holds` — the words the
/// body carries, so subject and body (and the league points, from the same outcome) agree.
pub fn game_over_subject(game: &dyn Play, o: &crate::engine::Outcome) -> String {
    if game.book().club.abandoned.is_some() {
        return "Game over: abandoned by the organiser, no result".to_string();
    }
    if let Some(w) = game.result_words().filter(|w| !w.trim().is_empty()) {
        return format!("Game over: {}", w.trim());
    }
    let side = |id: &String| {
        // Short ids are abbreviations (`us`, `ussr`); longer ones are names (`japan`).
        if id.len() <= 4 {
            id.to_uppercase()
        } else {
            let words = id.replace(['-', '_'], " ");
            let mut c = words.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        }
    };
    match o.winners.as_slice() {
        [] => "Game over: a draw".to_string(),
        [one] => format!("Game over: {} wins", side(one)),
        many => format!(
            "Game over: {} win",
            many.iter().map(side).collect::<Vec<_>>().join(" and ")
        ),
    }
}

/// `, mail key K = <hex>` inside the anchor line's brackets, in games whose mails are signed:
/// on the line players compare, so one comparison covers the onion and the key.
pub(super) fn mail_key_clause(book: &crate::engine::Book) -> String {
    book.mail_key
        .as_ref()
        .map(|k| format!(", mail key K = {}", dice::to_hex(k)))
        .unwrap_or_default()
}

/// What the open step asks of `seat`, in the game's words, with how sealed and how optional.
/// None when nothing is asked — including an optional prompt in a step that no required
/// prompt holds open: that step locks at once, so inviting orders for it would be a lie (see
/// [`standing_note`]).
pub fn prompt_text(game: &dyn Play, seat: &str) -> Option<String> {
    if game.is_over() {
        return None;
    }
    let spec = game.spec();
    let p = spec.prompts.iter().find(|p| p.seat == seat)?;
    let mut text = p.question.clone();
    if !p.required {
        let holders = game.waiting_for();
        if holders.is_empty() {
            return None;
        }
        text.push_str(&format!(
            "\n(Optional: the step resolves the moment {} {} answered, whatever the deadline; \
             send your orders before that if you want them used, otherwise your standing orders \
             apply.)",
            holders.join(" and "),
            if holders.len() == 1 { "has" } else { "have" }
        ));
    }
    if spec.sealed && spec.prompts.len() > 1 {
        text.push_str(
            "\nOrders in this step are sealed: nobody sees them before everyone has answered.",
        );
    }
    // One example that holds here and now, from the seat's own units (issue 30 point 5).
    if let Some(example) = game.example_orders(seat) {
        text.push_str("\nFor example:");
        for line in example.lines() {
            text.push_str(&format!("\n    {line}"));
        }
    }
    Some(text)
}

/// For a seat whose prompt is optional in a step nothing holds open: the step resolves at
/// once on its standing orders, and the mail says so instead of inviting orders.
pub(super) fn standing_note(game: &dyn Play, seat: &str) -> Option<String> {
    if game.is_over() || !game.waiting_for().is_empty() {
        return None;
    }
    let spec = game.spec();
    spec.prompts
        .iter()
        .find(|p| p.seat == seat && !p.required)?;
    Some(format!(
        "Nothing is asked of you in this step ({}): the orders you have already given \
         (standing or queued) are used, and it resolves at once.",
        spec.title
    ))
}

pub(super) fn dice_section(info: &LockInfo, rolls: &[dice::Roll]) -> DiceSection {
    DiceSection {
        lock: info.lock.clone(),
        reveal: info.reveal.clone(),
        seed: info.seed.clone(),
        log_head: info.log_head.clone(),
        log_head_index: info.log_head_index,
        seats: info.seats.clone(),
        rolls: rolls.iter().map(RollRow::from_roll).collect(),
        strict: info.strict.clone(),
    }
}

pub(super) fn silence_words(s: Silence) -> &'static str {
    match s {
        Silence::StandingOrders => {
            "your standing orders apply (or nothing is ordered), recorded as no move received"
        }
        Silence::Pass => "you pass this step",
        Silence::WaitForGm => "the game waits for the organiser",
        Silence::Forfeit => "you forfeit the game",
    }
}

/// The last step's lock, or an empty one for `step` when none was ever made.
pub(super) fn last_lock(game: &dyn Play, step: u64) -> LockInfo {
    game.book().last_lock.clone().unwrap_or(LockInfo {
        step,
        log_head: String::new(),
        log_head_index: None,
        seats: vec![],
        lock: String::new(),
        reveal: String::new(),
        seed: String::new(),
        strict: Vec::new(),
    })
}
