//! Mail composition, pure: (game, event, recipients) → drafts, each of a typed kind. Headers
//! and threading follow from the kind; bodies come from `report/` templates filled from each
//! seat's View; maps from `render/`. It reads no file, clock or secret store: the shell hands in
//! everything as values (`MailCtx`) and queues what comes back.

mod calendar;
mod desk;
mod desk_answer;
mod events;
mod gather;
mod held;
mod league;
mod lobby;
mod organiser;
mod press;
mod replies;
mod results;
mod rich;
mod seat_acts;
mod settings;
mod spectator;
mod status;
mod step_mail;
mod strict;
mod toolkit;
mod units;

pub use calendar::{SeatOnCalendar, calendar_of};
pub use desk::broadcast_text;
pub use desk_answer::{
    CLOSED_BY_THE_ORGANISER, DeskDone, DeskRefused, THE_PREVIOUS_PLAYER_LEFT, desk_answer_subject,
    desk_answer_text, desk_done, desk_refused_note, game_line, game_unreadable_line,
    league_message_about, league_message_subject, league_reached_nobody, skipped_not_yours,
    skipped_over,
};
pub use events::drafts_for_event;
pub use gather::{GATHER_MAX, Gathered};
pub use held::{ReadAt, held_failed_letter, held_notice, held_reason};
pub use league::{league_standings_subject, league_standings_text};
pub use lobby::{
    LOBBY_FOOT, LOBBY_HELP, LineDone, campaign_offer_title, lobby_answer, lobby_confirm,
    lobby_lines_unread, lobby_refused, lobby_site_line, lobby_subject, table_not_started,
};
pub use organiser::OrganiserReport;
pub use press::{press_gm_subject, press_gm_text};
pub use replies::{
    auth_notice, away_question, help, hint_retired_forms, nothing_readable, rejection,
    subject_refused,
};
pub use rich::Rich;
pub use rich::{JOURNAL_PART, JOURNAL_TYPE, VERIFIER_HTML, VERIFIER_PART};
pub use seat_acts::{
    ActDone, Irreversible, act_line, act_reply, resigned_subject, resigned_text, unconfirmed,
};
pub use settings::{
    ListedGame, SettingDone, games_list_text, passed_on_subject, passed_on_text, settings_reply,
    unregistered_notice,
};
pub use spectator::{
    SPECTATOR_MARK, SpectatorRefused, gm_spectator_said, observer_outgoing, observer_refusal,
    spectator_over, spectator_reply, spectator_results, spectator_said, spectator_welcome,
    unsubscribed,
};
pub use status::{
    HistoryStep, TalkRefused, calendar_reply, history_list, history_resent_subject, status_reply,
    talk_refusal,
};
pub use strict::{
    LOCK_HEADING, LockAsk, RevealAnswers, read_lock_mail, reveal_refused, spectator_opened,
};
pub use toolkit::{game_over_subject, only_invited, prompt_text, receipt_subject, results_subject};
pub use units::{UNITS_SUBJECT, units_reply};

use chrono::{DateTime, Utc};

use crate::dice::Hash;
use crate::store::SeatPrivate;

use super::outbound::{self, BuildError, Outgoing, Part};

/// What a mail is, which fixes its threading and how automatic it says it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DraftKind {
    /// The first mail of a seat's thread: seat, secret reply address, reference, dice anchor.
    Welcome,
    /// A new player's welcome to a seat taken over mid-game.
    Takeover,
    /// The submitter's echo of accepted orders.
    Receipt,
    /// Another seat has sent orders (digest only).
    Notice,
    /// A mail's orders were not applied, with every bad line.
    Rejection,
    /// A step's results, with the next prompt when there is one.
    Results,
    Reminder,
    DeadlineChange,
    GameOver,
    /// The order reference, asked for with HELP.
    Help,
    /// A mail claiming the seat arrived without its secret, or with it from another address.
    AuthNotice,
    /// The answer to a seat command (ADDRESS, TIMEZONE, NOTIFY): the seat's settings.
    Settings,
    /// A new dice anchor (onion renewal).
    Anchor,
    /// Something the organiser did.
    GmNotice,
}

impl DraftKind {
    /// Answers to a player's own mail thread under it (In-Reply-To that mail).
    pub fn answers_a_mail(self) -> bool {
        matches!(
            self,
            DraftKind::Receipt | DraftKind::Rejection | DraftKind::Help | DraftKind::Settings
        )
    }

    /// Starts the seat's thread in the game (its Message-ID is the thread's root).
    pub fn starts_thread(self) -> bool {
        matches!(self, DraftKind::Welcome)
    }
}

/// One seat's contact as the shell knows it (from the store's private seats file).
#[derive(Debug, Clone)]
pub struct Recipient {
    pub seat: String,
    pub private: SeatPrivate,
}

/// Everything a draft needs besides the game and the event, handed in by the shell.
#[derive(Debug, Clone)]
pub struct MailCtx<'a> {
    /// The game mailbox (`despatch@club.example`).
    pub game_address: &'a str,
    /// Every seat's contact, in seat order.
    pub recipients: &'a [Recipient],
    /// The ruleset's order reference (its README, read from the games folder), if readable.
    pub reference: Option<&'a str>,
    /// The game's salt key, for the submitter's receipt and the game-over mail (v2).
    pub salt_key: Option<Hash>,
    /// The journal up to and including the event being mailed, handed in only for the event
    /// that ends a game: the game-over mail carries it, so a player's folder alone replays
    /// the whole game (`despatch verify`).
    pub journal: Option<&'a [String]>,
    /// The text and salt of the press message being mailed, as the host keeps them privately
    /// (handed in only for a press event: the journal has the text only under
    /// `press_record = "text"`).
    pub press: Option<&'a crate::engine::press::PressCopy>,
    /// Whether the game has an organiser address (its own or `mail.gm_address`): mails say
    /// "the organiser has been told" only when someone was.
    pub gm_known: bool,
    /// The game's mail key: every sealed text is signed with it on its way into a mail
    /// (`Draft::outgoing`). `None` for games made before mails were signed.
    pub mail_key: Option<crate::dice::MailKey>,
    /// `web.unsubscribe_url`: the one-click URI's base (club-rules L1), when configured.
    pub unsubscribe_url: Option<&'a str>,
    /// `site.base_url` without its trailing slash: game mails link to the game's page and a
    /// seat's mails to its own (`pages_for`), when configured.
    pub site_url: Option<&'a str>,
    /// The mails waiting for each seat's next mail (`gather`), oldest first: handed in for
    /// the events that mail the seats, empty for answers (which bring nothing).
    pub gathered: &'a [Gathered],
    /// The campaign's standing after this battle (with what follows), handed in only for the
    /// event that ends a campaign battle: the game-over mail shows it.
    pub campaign: Option<&'a str>,
    pub now: DateTime<Utc>,
}

impl MailCtx<'_> {
    pub fn recipient(&self, seat: &str) -> Option<&Recipient> {
        self.recipients.iter().find(|r| r.seat == seat)
    }

    /// (local part, domain) of the game address.
    pub fn address_parts(&self) -> (&str, &str) {
        self.game_address
            .split_once('@')
            .unwrap_or((self.game_address, "localhost"))
    }
}

/// The pages of the live site a mail links to (issue 31 point 2).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Pages {
    /// The game's public page.
    pub public: String,
    /// The recipient seat's own page; never for an observer.
    pub private: Option<String>,
}

/// The pages a mail to `to` links to, when `site.base_url` is set: the game's page, and the
/// seat's own page behind the code derived from its secret — for a seat only: an observer's
/// stand-in recipient carries no secret of its own, so gets no private link.
pub fn pages_for(ctx: &MailCtx, game: &str, to: &Recipient) -> Option<Pages> {
    let base = ctx.site_url?;
    let seat = !to.private.token.is_empty() && !spectator::is_stand_in(to);
    Some(Pages {
        public: format!("{base}/{game}/"),
        private: seat.then(|| {
            format!(
                "{base}/{game}/s/{}/",
                crate::report::codes::seat_code(game, &to.seat, &to.private.token)
            )
        }),
    })
}

/// The pages as the last lines of a mail's text, after the seal: where they are is the
/// club's web server's, not the game's record.
fn pages_text(p: &Pages) -> String {
    let mut s = format!("\nThe game's page: {}\n", p.public);
    if let Some(mine) = &p.private {
        s.push_str(&format!(
            "Your own page (yours alone: keep its address to yourself):\n  {mine}\n"
        ));
    }
    s
}

/// One composed mail, not yet built into bytes.
#[derive(Debug, Clone)]
pub struct Draft {
    /// Deterministic queue name: re-deriving a draft after a crash gives the same name.
    pub name: String,
    pub kind: DraftKind,
    pub game: String,
    pub seat: String,
    pub subject: String,
    /// The complete plain text (sealed where the kind carries game content).
    pub text: String,
    pub rich: Option<Rich>,
    /// An updated calendar entry (`deadline.ics`) for a mail without a turn page (a moved
    /// deadline); sealed in the text's Parts line.
    pub calendar: Option<String>,
    /// The player's mail this answers (its Message-ID), for `answers_a_mail` kinds.
    pub answers: Option<String>,
    /// The step this mail asks about (the open step when it was composed; None once the game
    /// is over). Carried in the reply address, the subject tag and the Message-ID, so that a
    /// reply to it is applied to that step or refused, never to a later one.
    pub step: Option<u64>,
    /// This mail waits for the seat's next mail that asks something of it (issue 30, `gather`):
    /// the lines say what it was, in that mail's list. `None`: it goes at once.
    pub waits: Option<Vec<String>>,
    /// The waiting mails this one brings (their queue names), to be attached whole.
    pub brings: Vec<String>,
}

/// The longest subject, tag included (issue 30): an 80-column index (neomutt, a phone's list)
/// shows it whole beside the date and the sender.
pub const SUBJECT_MAX: usize = 60;

/// The longest From display name: a client's author column (mutt's `%-15.15L`, a phone's
/// list) shows it whole.
pub const FROM_NAME_MAX: usize = 15;

/// `tag rest`, at most `SUBJECT_MAX` characters: every subject is written with what matters
/// first (the kind of mail, the due time), so only its tail (a step's title) gives way, at a
/// word where one is near, with `…`. The tag is never cut: replies are routed by it.
pub fn fit_subject(tag: &str, rest: &str) -> String {
    let whole = format!("{tag} {rest}");
    if whole.chars().count() <= SUBJECT_MAX {
        return whole;
    }
    let room = SUBJECT_MAX.saturating_sub(tag.chars().count() + 2).max(12);
    if rest.chars().count() <= room {
        // A tag so long that the subject cannot fit anyway: nothing is cut, so no `…`.
        return whole;
    }
    let cut: String = rest.chars().take(room).collect();
    // Back to the last space if it loses little; a word cut in half reads worse than a short tail.
    let cut = match cut.rfind(' ') {
        Some(i) if cut[..i].chars().count() + 10 >= room => cut[..i].to_string(),
        _ => cut,
    };
    let cut = cut.trim_end_matches([' ', ',', ':', ';', '—', '-', '(']);
    format!("{tag} {cut}…")
}

/// The From display name of the house's own mails (league standings, consent, the
/// organiser's letters): `mail.from_name`, without the characters a display name cannot
/// carry unquoted, cut to `FROM_NAME_MAX` characters.
pub fn house_display_name(from_name: &str) -> String {
    from_display_name(&from_name.replace(['<', '>', '"', '\\'], ""))
}

/// The From display name of a game's mails: the game's id, which tells a player's games apart
/// in an inbox list (the address says Despatch), cut to `FROM_NAME_MAX` characters.
pub fn from_display_name(game: &str) -> String {
    if game.chars().count() <= FROM_NAME_MAX {
        return game.to_string();
    }
    let cut: String = game.chars().take(FROM_NAME_MAX - 1).collect();
    format!("{cut}…")
}

/// The step a mail composed now asks about: the open one, unless the game is over.
pub fn asked_step(game: &dyn crate::engine::Play) -> Option<u64> {
    (!game.is_over()).then(|| game.book().step)
}

impl Draft {
    /// The subject as sent: the game's tag (`[club-1 #4]`) and the mail's own kind first
    /// (`Receipt`, `Rejected`, `Your orders — due …`), never the player's subject echoed: an
    /// answer threads under the player's mail by In-Reply-To, and its subject says what it is,
    /// so a rejection is told from a receipt in the index (issue 30).
    pub fn full_subject(&self) -> String {
        fit_subject(&outbound::subject_tag(&self.game, self.step), &self.subject)
    }

    /// The mail, addressed and threaded: every mail to a seat hangs under that seat's welcome.
    pub fn outgoing(&self, ctx: &MailCtx) -> Result<Outgoing, BuildError> {
        let (local, domain) = ctx.address_parts();
        let to = ctx
            .recipient(&self.seat)
            .ok_or_else(|| BuildError::Address {
                field: "To",
                value: format!("(no address for seat {})", self.seat),
            })?;
        let (message_id, in_reply_to, references) = self.threading(domain);
        let reply = outbound::reply_address(
            local,
            &self.game,
            &self.seat,
            &to.private.token,
            self.step,
            domain,
        )?;
        let mut out = Outgoing {
            to: to.private.address.clone(),
            to_name: None,
            // The display name names the game, so an inbox list says which game wrote.
            from: format!("\"{}\" <{local}@{domain}>", from_display_name(&self.game)),
            reply_to: Some(reply.clone()),
            subject: self.full_subject(),
            // Sealed texts were wrapped and folded before sealing (`report::seal`): their bytes
            // stay as sealed. Every other text is laid out here, the one way into the text
            // part.
            text: self.text_part(ctx),
            message_id,
            in_reply_to,
            references,
            date: ctx.now,
            sealed: self.text.contains(crate::report::DIGEST_PREFIX),
            auto_generated: !self.kind.answers_a_mail(),
            list_id: Some(outbound::list_id(&self.game, domain)),
            ..Default::default()
        };
        // STOP by the seat's own reply address (it carries the seat's secret, like the
        // Reply-To beside it), so the one-word answer is authenticated (club-rules S1); and
        // one-click, when configured, with a code derived from that secret (L1).
        let code = outbound::unsubscribe_code(&["seat", &self.game, &self.seat, &to.private.token]);
        let (uris, one_click) = outbound::unsubscribe_uris(
            ctx.unsubscribe_url,
            Some(&code),
            outbound::unsubscribe_mailto(&reply),
        );
        out.list_unsubscribe = Some(uris);
        out.one_click = one_click;
        let pages = pages_for(ctx, &self.game, to);
        if let Some(p) = &pages {
            if !out.text.ends_with('\n') {
                out.text.push('\n');
            }
            out.text.push_str(&pages_text(p));
        }
        if self.rich.is_none() {
            // Most players read HTML only: a mail without a turn page gets its whole text as
            // HTML too (the text stays the sealed record), so nothing in it is missed.
            out.html = crate::report::render(
                "plain.html",
                serde_json::json!({
                    "game": self.game, "seat": self.seat, "subject": out.subject,
                    "pages": pages,
                    // The reader's window wraps the prose; orders and tables keep their lines.
                    "text": crate::report::unwrap_text(&self.text),
                }),
            )
            .ok();
        }
        self.attach_parts(&mut out);
        Ok(out)
    }

    /// The mail's Message-ID and its place in the seat's thread: the thread's root keeps its
    /// step-less id, every later mail refers to it, and an answer hangs under the player's
    /// own mail too.
    fn threading(&self, domain: &str) -> (String, Option<String>, Vec<String>) {
        let root = outbound::message_id(&[&self.game, &self.seat, "thread"], domain);
        let message_id = match self.step {
            _ if self.kind.starts_thread() => root.clone(),
            Some(k) => outbound::step_message_id(&[&self.game, &self.seat, &self.name], k, domain),
            None => outbound::message_id(&[&self.game, &self.seat, &self.name], domain),
        };
        let mut references = Vec::new();
        let mut in_reply_to = None;
        if !self.kind.starts_thread() {
            references.push(root.clone());
            in_reply_to = Some(root);
        }
        // A player's id is echoed only when it is a valid msg-id (a missing one is journaled
        // as `sha256:…`, and anything may come in): otherwise the answer hangs under the
        // seat's thread alone, rather than never being built.
        if let Some(theirs) = self
            .answers
            .as_deref()
            .filter(|_| self.kind.answers_a_mail())
            .and_then(outbound::echoable_id)
        {
            references.push(theirs.to_string());
            in_reply_to = Some(theirs.to_string());
        }
        (message_id, in_reply_to, references)
    }

    /// The text part. Sealed texts were wrapped and folded before sealing (`report::seal`):
    /// their bytes stay as sealed. Every other text is laid out here, the one way into the
    /// text part.
    fn text_part(&self, ctx: &MailCtx) -> String {
        if self.text.contains(crate::report::DIGEST_PREFIX) {
            // The one place a sealed text becomes a mail, so no sealed mail goes unsigned.
            match &ctx.mail_key {
                Some(k) => crate::report::sign_seal(&self.text, &self.game, k),
                None => self.text.clone(),
            }
        } else {
            // Within 72 columns like sealed texts (issue 30 point 8): a digest a STATUS
            // answer quotes folds, a rejection's indented why and hint lines wrap.
            crate::report::fit_text(&crate::report::wrap_text(&self.text))
        }
    }

    /// The calendar entry and the rich parts: the turn page, its map (PNG inline, SVG
    /// attached), the deadline, and the game-over mail's journal with the verifier.
    fn attach_parts(&self, out: &mut Outgoing) {
        if let Some(ics) = &self.calendar {
            out.attachments.push(Part {
                name: "deadline.ics".into(),
                content_type: "text/calendar; charset=utf-8; method=PUBLISH".into(),
                bytes: ics.clone().into_bytes(),
            });
        }
        if let Some(r) = &self.rich {
            out.html = Some(r.html.clone());
            if let Some(png) = &r.png {
                out.inline.push(Part {
                    name: r.map_cid.clone(),
                    content_type: "image/png".into(),
                    bytes: png.clone(),
                });
            }
            if let Some(svg) = &r.svg {
                out.attachments.push(Part {
                    name: r.svg_name.clone(),
                    content_type: "image/svg+xml".into(),
                    bytes: svg.clone().into_bytes(),
                });
            }
            if let Some(ics) = &r.ics {
                out.attachments.push(Part {
                    name: "deadline.ics".into(),
                    content_type: "text/calendar; charset=utf-8; method=PUBLISH".into(),
                    bytes: ics.clone().into_bytes(),
                });
            }
            if let Some(journal) = &r.journal {
                out.attachments.push(Part {
                    name: rich::JOURNAL_PART.into(),
                    content_type: rich::JOURNAL_TYPE.into(),
                    bytes: journal.clone().into_bytes(),
                });
                // Not in the sealed Parts line: it is a tool, the same page as in the repo,
                // and it checks the sealed mails rather than being part of the game.
                out.attachments.push(Part {
                    name: rich::VERIFIER_PART.into(),
                    content_type: "text/html; charset=utf-8".into(),
                    bytes: rich::VERIFIER_HTML.as_bytes().to_vec(),
                });
            }
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ComposeError {
    #[error(transparent)]
    Template(#[from] crate::report::ReportError),
    #[error(transparent)]
    Render(#[from] crate::render::RenderError),
}

/// Every seat's deadline text in its own time zone.
pub fn fmt_time(t: DateTime<Utc>, tz: &str) -> String {
    crate::report::fmt_time(t, tz)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subject_of_sixty_characters_stays_whole_and_one_more_is_cut_at_a_word() {
        let tag = "[yellow-sea #10]"; // 16 characters, then a space: 43 left
        let sixty = format!("{tag} Results: {}", "x".repeat(43 - 9));
        assert_eq!(sixty.chars().count(), SUBJECT_MAX);
        let rest = &sixty[tag.len() + 1..];
        assert_eq!(fit_subject(tag, rest), sixty);
        // One more character: cut to sixty with the mark, never the tag; a word is cut when
        // backing up to the last space would lose more than ten characters.
        let cut = fit_subject(tag, &format!("{rest}y"));
        assert_eq!(cut, format!("{tag} Results: {}…", "x".repeat(42 - 9)));
        assert_eq!(cut.chars().count(), SUBJECT_MAX);
        let long = fit_subject(
            tag,
            "Results: Turn 5 — Imperial Russian Navy, First Pacific",
        );
        assert!(long.chars().count() <= SUBJECT_MAX, "{long}");
        assert_eq!(
            long,
            "[yellow-sea #10] Results: Turn 5 — Imperial Russian Navy…"
        );
        // A tag too long for anything: the subject is whole and says nothing was cut.
        let huge = format!("[{} #3]", "g".repeat(50));
        assert_eq!(
            fit_subject(&huge, "Your orders"),
            format!("{huge} Your orders")
        );
    }

    #[test]
    fn a_from_name_of_fifteen_characters_stays_whole_and_sixteen_are_cut() {
        assert_eq!(from_display_name("abcdefghijklmno"), "abcdefghijklmno");
        assert_eq!(from_display_name("abcdefghijklmnop"), "abcdefghijklmn…");
        assert_eq!(
            from_display_name("abcdefghijklmnop").chars().count(),
            FROM_NAME_MAX
        );
        assert_eq!(
            house_display_name("Club \"Despatch\" <x>"),
            "Club Despatch x"
        );
    }
}
