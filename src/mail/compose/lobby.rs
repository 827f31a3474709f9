//! The lobby's answers: each lobby line quoted with what became of it, the confirmation asked
//! of a mail without its sender's lobby secret, the lobby's help and foot, and the subject that
//! tells its letters apart. Pure: the daemon carries the lines out (engine/lobby) and hands in
//! what they did; nothing here acts or reads the lobby's book.

/// To each player of a full table that could not start (`why`, the error's words): told once,
/// since the table is taken out.
pub fn table_not_started(table: &str, why: &str) -> String {
    format!(
        "{table} could not start: {why}.\nNothing was played; OPEN it again, or ask the \
         organiser.\n"
    )
}

/// A campaign as the lobby offers it: its title and its length at most.
pub fn campaign_offer_title(title: &str, battles: usize) -> String {
    format!("{title} (a campaign of {battles} battles at most)")
}

/// The answer of one lobby line carried out: the engine's words, then the games it filled.
pub struct LineDone<'a> {
    pub answer: &'a str,
    pub ready: &'a [String],
}

/// Each line quoted, then what became of it (a refusal says why).
pub fn lobby_answer(lines: &[(&str, Result<LineDone<'_>, String>)]) -> String {
    let mut text = String::new();
    for (line, done) in lines {
        text.push_str(&format!("> {line}\n"));
        match done {
            Ok(done) => {
                text.push_str(done.answer);
                for id in done.ready {
                    text.push_str(&format!(
                        "\nEvery seat of {id} is taken: the game starts now; its welcome \
                         follows.\n"
                    ));
                }
            }
            Err(why) => text.push_str(&format!("Not done: {why}.\n")),
        }
        text.push('\n');
    }
    text
}

/// Lines past the most one mail may carry are said, never silently dropped.
pub fn lobby_lines_unread(read: usize, more: usize) -> String {
    format!(
        "Only the first {read} lobby lines of a mail are read: {more} more were not. \
         Send them again in another mail.\n"
    )
}

/// A mail asking to act that may not play here at all.
pub fn lobby_refused(why: &str) -> String {
    format!("Nothing was done: {why}.\n")
}

/// A mail without its sender's lobby secret that asks to act: nothing is done until the
/// reply from the member's own address, within `pending_hours`.
pub fn lobby_confirm(lines: &[&str], pending_hours: i64) -> String {
    let mut s = String::from(
        "To make sure this mail came from you, nothing was done yet.\n\
         Reply to this mail (its reply address is yours alone); an\n\
         empty reply will do. Then these lines are carried out:\n\n",
    );
    for l in lines {
        s.push_str(&format!("    {l}\n"));
    }
    s.push_str(&format!(
        "\nThey wait {pending_hours} hours. If you did not write them, do nothing.\n"
    ));
    s
}

/// Where the club's site lists the games wanting players (issue 31 point 1).
pub fn lobby_site_line(url: &str) -> String {
    format!(
        "\nThe games wanting players are on {url}/#wanting; a game's own page is \
         {url}/<game>/ from the moment it starts.\n"
    )
}

/// The answer to a mail with no lobby line in it.
pub const LOBBY_HELP: &str = "Nothing to do in that mail. The lobby's lines:\n\n\
    GAMES                      the games wanting players\n\
    OPEN <ruleset> <scenario> [AS <seat>] [PACE <hours>] [LEAGUE <name>]\n\
    JOIN <game> [AS <seat>]    take a seat\n\
    LEAVE <game>               give it up before the game starts\n";

/// The foot of every lobby letter.
pub const LOBBY_FOOT: &str = "\n-- \nThe lobby's lines: GAMES, OPEN <ruleset> <scenario> [AS <seat>]\n\
    [PACE <hours>] [LEAGUE <name>], JOIN <game> [AS <seat>], LEAVE <game>.\n\
    Reply to this mail to reach the lobby as yourself.\n";

/// `Lobby: ` and what the letter says first (its first line that is not a quoted line of
/// the mail it answers), cut at a word to stay within the subject's 60 characters, so an
/// inbox list tells the lobby's letters apart.
pub fn lobby_subject(paras: &[String]) -> String {
    let first = paras
        .iter()
        .flat_map(|p| p.lines())
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('>'))
        .unwrap_or("games wanting players")
        .trim_end_matches(['.', ':']);
    let mut s = String::from("Lobby: ");
    for w in first.split_whitespace() {
        if s.chars().count() + w.chars().count() + 1 > super::SUBJECT_MAX {
            s.push('…');
            break;
        }
        if !s.ends_with(' ') {
            s.push(' ');
        }
        s.push_str(w);
    }
    s
}
