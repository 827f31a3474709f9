//! One mail a step (issue 30): which mails wait for a seat's next mail that asks something of it
//! (receipts, "has sent orders" notices, results that ask nothing of it), what each says in the
//! list at the top of that mail, and the list itself. Pure: the seat's choice (`NOTIFY`) and the
//! mails already waiting come in as values; the shell keeps the waiting mails and attaches them
//! whole to the mail that brings them, so every die and digest they carry still reaches the seat.

use crate::engine::{Play, Viewer};

use super::toolkit::{only_invited, prompt_text};
use super::{MailCtx, Recipient};

/// A mail waiting for its seat's next mail, as the shell hands it back to composition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gathered {
    pub seat: String,
    /// The waiting draft's queue name (`000123-results-hays`): attached as `<name>.eml`.
    pub name: String,
    /// What it said, in a line or a few, for the list at the top of the mail that brings it.
    pub note: Vec<String>,
    /// The waiting mail's own `Mail-Digest` (hex), which the bringing mail's sealed Parts block
    /// lists for it (docs/dice-protocol.md, "The seal of a mail").
    pub digest: String,
}

impl Gathered {
    /// The name of the attachment that carries it.
    pub fn file_name(&self) -> String {
        format!("{}.eml", self.name)
    }
}

/// When this many mails wait for one seat, its next results mail goes at once (asking it or not)
/// and brings them, so a seat the game does not ask for a long time still hears of it, and no
/// mail grows without bound. Receipts and notices always wait: a step's results follow them,
/// so the pile overshoots by at most one step's receipt and notices.
pub const GATHER_MAX: usize = 24;

/// The mails waiting for `seat`, oldest first.
pub fn waiting_for<'a>(ctx: &'a MailCtx, seat: &str) -> Vec<&'a Gathered> {
    ctx.gathered.iter().filter(|g| g.seat == seat).collect()
}

/// Whether fewer than `GATHER_MAX` mails wait for `to`, so its next results may wait too.
fn room(ctx: &MailCtx, to: &Recipient) -> bool {
    waiting_for(ctx, &to.seat).len() < GATHER_MAX
}

/// The note of a receipt that waits, or `None` when the receipt goes at once: the seat asked for
/// receipts on their own, or orders it sent were not applied (standing orders that no longer
/// fit: it may want to send again).
pub(super) fn receipt_waits(
    to: &Recipient,
    step: u64,
    digest: &str,
    all_applied: bool,
) -> Option<Vec<String>> {
    (!to.private.notify.receipts && all_applied).then(|| {
        vec![format!(
            "Receipt: your orders for step {step} were received and applied (digest {}…).",
            short(digest)
        )]
    })
}

/// The note of a "has sent orders" notice that waits, or `None` when it goes at once.
pub(super) fn notice_waits(to: &Recipient, submitter: &str, step: u64) -> Option<Vec<String>> {
    (!to.private.notify.orders).then(|| vec![format!("{submitter} sent orders for step {step}.")])
}

/// The longest log a waiting results mail's note repeats; the attached mail has all of it.
const NOTE_LOG_LINES: usize = 12;

/// The note of a results mail that waits, or `None` when it goes at once: it asks something of
/// the seat (or the game is over), or the seat asked for such results on their own.
pub(super) fn results_wait(
    game: &dyn Play,
    to: &Recipient,
    step: u64,
    ctx: &MailCtx,
) -> Option<Vec<String>> {
    if game.is_over() || !room(ctx, to) {
        return None;
    }
    let wants = match prompt_text(game, &to.seat) {
        None => to.private.notify.results,
        Some(_) if only_invited(game, &to.seat) => to.private.notify.optional,
        Some(_) => return None,
    };
    if wants {
        return None;
    }
    let view = game.view(&Viewer::Seat(to.seat.clone()));
    let mut note = vec![format!(
        "Results of step {step} ({}):",
        game.book().last_step_title
    )];
    let shown = view.log.len().min(NOTE_LOG_LINES);
    note.extend(view.log[..shown].iter().cloned());
    if view.log.len() > shown {
        note.push(format!(
            "… {} more lines in the attached mail.",
            view.log.len() - shown
        ));
    }
    if view.log.is_empty() {
        note.push("(nothing you could see happened)".to_string());
    }
    Some(note)
}

/// The list at the top of the mail that brings `waiting`: one entry per mail, its note, for the
/// text (`SINCE YOUR LAST MAIL`) and the HTML alike.
pub(super) fn since_lines(waiting: &[&Gathered]) -> Vec<Vec<String>> {
    waiting.iter().map(|g| g.note.clone()).collect()
}

/// The sentence under the list's heading.
pub(super) fn since_intro(n: usize) -> String {
    format!(
        "{} waited for this one, as your settings ask (NOTIFY ALL ON sends each at once). \
         {} attached whole, with {} dice and digests for despatch verify:",
        if n == 1 {
            "One mail".to_string()
        } else {
            format!("{n} mails")
        },
        if n == 1 { "It is" } else { "Each is" },
        if n == 1 { "its" } else { "their" },
    )
}

/// The text section: heading, intro, then each note (its first line as a bullet).
pub(super) fn since_text(waiting: &[&Gathered]) -> String {
    if waiting.is_empty() {
        return String::new();
    }
    let mut s = format!("SINCE YOUR LAST MAIL\n{}\n", since_intro(waiting.len()));
    for g in waiting {
        for (i, line) in g.note.iter().enumerate() {
            let lead = if i == 0 { "- " } else { "  " };
            s.push_str(&format!("{lead}{line}\n"));
        }
    }
    s.push('\n');
    s
}

fn short(digest: &str) -> &str {
    &digest[..digest.floor_char_boundary(12.min(digest.len()))]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Notify, SeatPrivate};

    fn seat(notify: Notify) -> Recipient {
        Recipient {
            seat: "japan".into(),
            private: SeatPrivate {
                address: "togo@mikasa.example".into(),
                name: String::new(),
                token: "t".into(),
                time_zone: "UTC".into(),
                also_from: vec![],
                notify,
            },
        }
    }

    fn ctx<'a>(to: &'a [Recipient], gathered: &'a [Gathered]) -> MailCtx<'a> {
        MailCtx {
            game_address: "despatch@localhost",
            recipients: to,
            reference: None,
            salt_key: None,
            journal: None,
            press: None,
            gm_known: false,
            mail_key: None,
            unsubscribe_url: None,
            site_url: None,
            gathered,
            campaign: None,
            now: chrono::DateTime::UNIX_EPOCH,
        }
    }

    fn waiting(seat: &str, n: usize) -> Vec<Gathered> {
        (0..n)
            .map(|i| Gathered {
                seat: seat.into(),
                name: format!("{i:06}-submission-{seat}"),
                note: vec![format!("note {i}")],
                digest: "00".into(),
            })
            .collect()
    }

    #[test]
    fn a_receipt_waits_unless_the_seat_asked_for_receipts_or_orders_were_not_applied() {
        let off = [seat(Notify::default())];
        let on = [seat(Notify {
            receipts: true,
            ..Notify::default()
        })];
        assert!(receipt_waits(&off[0], 3, "ab12", true).is_some());
        assert!(receipt_waits(&on[0], 3, "ab12", true).is_none());
        assert!(receipt_waits(&off[0], 3, "ab12", false).is_none());
        // A notice follows its own switch, not the receipts'.
        assert!(notice_waits(&on[0], "russia", 3).is_some());
        let orders_on = [seat(Notify {
            orders: true,
            ..Notify::default()
        })];
        assert!(notice_waits(&orders_on[0], "russia", 3).is_none());
    }

    #[test]
    fn results_wait_while_fewer_than_gather_max_wait_and_only_the_seats_own_count() {
        let to = [seat(Notify::default())];
        let below = waiting("japan", GATHER_MAX - 1);
        assert!(room(&ctx(&to, &below), &to[0]), "23 waiting: one more may");
        let full = waiting("japan", GATHER_MAX);
        assert!(
            !room(&ctx(&to, &full), &to[0]),
            "24 waiting: the next results go and bring them"
        );
        let others = waiting("russia", GATHER_MAX * 2);
        assert!(room(&ctx(&to, &others), &to[0]), "another seat's pile");
        // Receipts and notices wait whatever the pile: the step's results bring them.
        assert!(notice_waits(&to[0], "russia", 3).is_some());
        assert!(receipt_waits(&to[0], 3, "ab12", true).is_some());
    }

    #[test]
    fn the_list_names_each_mail_with_its_lines_under_a_heading() {
        let w = waiting("japan", 2);
        let refs: Vec<&Gathered> = w.iter().collect();
        let text = since_text(&refs);
        assert!(
            text.starts_with("SINCE YOUR LAST MAIL\n2 mails waited"),
            "{text}"
        );
        assert!(text.contains("- note 0\n- note 1\n"), "{text}");
        assert_eq!(since_text(&[]), "");
        assert!(since_intro(1).starts_with("One mail waited"));
    }
}
