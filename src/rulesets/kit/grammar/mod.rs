//! One order grammar for every ruleset: the loop over an email's lines, the keyword table
//! (one entry per order: its keyword, a copyable example and the small parser for it, in the
//! spirit of Rally the Troops' one handler per prompt), and the rejections a bad line becomes.
//! A ruleset writes its parsers and its table; the loop, the hints and the numbers are here.
//! Pure: text and values in, orders and rejections out; it knows no ruleset's words.

pub mod cursor;
pub mod hint;
pub mod number;

pub use cursor::{Cursor, Names};
pub use hint::{did_you_mean, edit_distance, looks_like_an_order, nearest, normalise};
pub use number::{num, read_number, round_to, tenths};

use crate::engine::Rejected;

/// The word that ends an email's orders in every ruleset: nothing below it is read (a
/// signature, a quoted mail).
pub const END: &str = "END";

/// First words of the mail layer's control lines (`GAME <id>`, `TOKEN <secret>`, `HELP`);
/// intake blanks them, and the grammar never reads them as orders either.
const CONTROL: &[&str] = &["GAME", "TOKEN", "HELP"];

/// Why one line is refused, and what the player probably meant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineErr {
    pub reason: String,
    pub hint: Option<String>,
}

impl LineErr {
    pub fn new(reason: impl Into<String>) -> Self {
        Self {
            reason: reason.into(),
            hint: None,
        }
    }

    pub fn hint(self, hint: impl Into<String>) -> Self {
        self.maybe_hint(Some(hint.into()))
    }

    pub fn maybe_hint(mut self, hint: Option<String>) -> Self {
        self.hint = hint;
        self
    }

    /// The rejection for the player's line `line` (1-based) reading `text`.
    pub fn at(self, line: usize, text: &str) -> Rejected {
        Rejected {
            line,
            text: text.to_string(),
            reason: self.reason,
            hint: self.hint,
        }
    }
}

/// `Err` with a reason and no hint, for the refusals a ruleset's parsers make.
pub fn refuse<T>(reason: impl Into<String>) -> Result<T, LineErr> {
    Err(LineErr::new(reason))
}

/// A rejection that belongs to no single line (line 0): the email as a whole is refused.
pub fn whole_mail(reason: impl Into<String>, hint: Option<String>) -> Rejected {
    LineErr::new(reason).maybe_hint(hint).at(0, "")
}

/// The parser of one order: the game state, what earlier lines of the same email did, and the
/// words after the keyword.
pub type OrderParser<S, C, O> = fn(&S, &mut C, &mut Cursor<'_>) -> Result<O, LineErr>;

/// One entry of a ruleset's keyword table.
pub struct Keyword<S: 'static, C: 'static, O: 'static> {
    /// What the line starts with, in capitals.
    pub word: &'static str,
    /// One line a player can copy; it is the hint of every syntax error in this order.
    pub example: &'static str,
    pub parse: OrderParser<S, C, O>,
    /// Reading stops after this order (Naval's `PASS`, written alone on its line).
    pub ends: bool,
}

impl<S, C, O> Keyword<S, C, O> {
    pub const fn new(
        word: &'static str,
        example: &'static str,
        parse: OrderParser<S, C, O>,
    ) -> Self {
        Self {
            word,
            example,
            parse,
            ends: false,
        }
    }

    /// The same order, after which reading stops.
    pub const fn ending(self) -> Self {
        Self { ends: true, ..self }
    }
}

/// A ruleset's grammar: its keyword table and when each order may be given.
pub struct Grammar<S: 'static, C: 'static, O: 'static> {
    pub keywords: &'static [Keyword<S, C, O>],
    /// Asked before an order's parser runs: may this keyword be given now (this step, this
    /// seat)? The step's own refusal beats any complaint about the line's words.
    pub allowed: fn(&S, &C, &'static str) -> Result<(), LineErr>,
}

/// An order read from the player's line `line`, which read `text`.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed<O> {
    pub line: usize,
    pub text: String,
    pub order: O,
}

/// What one email held: its orders in line order and every bad line.
#[derive(Debug, Clone, PartialEq)]
pub struct Read<O> {
    pub orders: Vec<Parsed<O>>,
    pub rejected: Vec<Rejected>,
    /// The line of the `END` that stopped reading, if one did.
    pub end: Option<usize>,
}

/// Anything goes: for a grammar whose parsers check the step themselves.
pub fn always<S, C>(_: &S, _: &C, _: &'static str) -> Result<(), LineErr> {
    Ok(())
}

impl<S, C, O> Grammar<S, C, O> {
    /// Every keyword a line may start with, `END` included, in table order.
    pub fn keywords(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = self.keywords.iter().map(|k| k.word).collect();
        if !out.contains(&END) {
            out.push(END);
        }
        out
    }

    /// The table entry for a line's first word, or the refusal with a "did you mean" hint.
    pub fn keyword(&self, first: &str) -> Result<&Keyword<S, C, O>, LineErr> {
        self.keywords
            .iter()
            .find(|k| k.word.eq_ignore_ascii_case(first))
            .ok_or_else(|| {
                let words = self.keywords().into_iter();
                // No near keyword: most often a line of prose among the orders.
                let prose = "a line that is not an order starts with `#`; a greeting or a \
                             signature needs a blank line between it and the orders";
                LineErr::new(format!("unknown order `{first}`")).hint(
                    did_you_mean(&first.to_ascii_uppercase(), words)
                        .unwrap_or_else(|| prose.to_string()),
                )
            })
    }

    /// Reads every line of `text` (blank lines and `#` comments skipped, up to an `END`),
    /// parsing each with its keyword's parser against `state` and `cx`. Every bad line is
    /// reported, numbered as the player numbers the lines of `text`.
    pub fn read(&self, state: &S, cx: &mut C, text: &str) -> Read<O> {
        let mut read = Read {
            orders: Vec::new(),
            rejected: Vec::new(),
            end: None,
        };
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let first = words[0].to_ascii_uppercase();
            if CONTROL.contains(&first.as_str()) {
                continue;
            }
            if first == END {
                read.end = Some(i + 1);
                break;
            }
            match self.line(state, cx, &words, i + 1) {
                Ok((order, ends)) => {
                    read.orders.push(Parsed {
                        line: i + 1,
                        text: raw.to_string(),
                        order,
                    });
                    if ends {
                        break;
                    }
                }
                Err(e) => read.rejected.push(e.at(i + 1, raw)),
            }
        }
        read
    }

    fn line(&self, state: &S, cx: &mut C, words: &[&str], n: usize) -> Result<(O, bool), LineErr> {
        let kw = self.keyword(words[0])?;
        (self.allowed)(state, cx, kw.word)?;
        let mut c = Cursor::new(&words[1..], n, kw.example);
        let order = (kw.parse)(state, cx, &mut c)?;
        // A parser that stopped short leaves words the player meant for something.
        c.end()?;
        Ok((order, kw.ends))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy grammar: `ADD n` sums, `SAY word…` echoes, `STOP` ends; `ADD` is refused once
    /// the running sum passes 10, to show that later lines see what earlier lines did.
    #[derive(Debug, PartialEq)]
    enum Toy {
        Add(f64),
        Say(String),
        Stop,
    }

    fn add(_: &(), sum: &mut f64, c: &mut Cursor) -> Result<Toy, LineErr> {
        let n = c.number("the number")?;
        if *sum + n > 10.0 {
            return refuse(format!("the sum would pass 10 (it is {})", num(*sum)));
        }
        *sum += n;
        Ok(Toy::Add(n))
    }

    fn say(_: &(), _: &mut f64, c: &mut Cursor) -> Result<Toy, LineErr> {
        Ok(Toy::Say(c.rest().join(" ")))
    }

    fn stop(_: &(), _: &mut f64, _: &mut Cursor) -> Result<Toy, LineErr> {
        Ok(Toy::Stop)
    }

    fn not_on_sunday(_: &(), sum: &f64, kw: &'static str) -> Result<(), LineErr> {
        if kw == "SAY" && *sum < 0.0 {
            return refuse("no speeches while in debt");
        }
        Ok(())
    }

    const TOY: Grammar<(), f64, Toy> = Grammar {
        keywords: &[
            Keyword::new("ADD", "ADD 2", add),
            Keyword::new("SAY", "SAY hello", say),
            Keyword::new("STOP", "STOP", stop).ending(),
        ],
        allowed: not_on_sunday,
    };

    #[test]
    fn every_bad_line_is_reported_with_the_players_line_numbers() {
        let text = "\n# my orders\nADD 4\nAD 1\nADD four\n  \nADD 7\nSAY hi there\nADD 1 2\n";
        let r = TOY.read(&(), &mut 0.0, text);
        let got: Vec<Toy> = r.orders.into_iter().map(|p| p.order).collect();
        assert_eq!(got, vec![Toy::Add(4.0), Toy::Say("hi there".into())]);
        let lines: Vec<usize> = r.rejected.iter().map(|x| x.line).collect();
        assert_eq!(lines, vec![4, 5, 7, 9]);
        assert_eq!(r.rejected[0].reason, "unknown order `AD`");
        assert_eq!(r.rejected[0].hint.as_deref(), Some("did you mean ADD?"));
        assert_eq!(r.rejected[0].text, "AD 1");
        assert_eq!(r.rejected[1].hint.as_deref(), Some("for example: ADD 2"));
        assert_eq!(r.rejected[2].reason, "the sum would pass 10 (it is 4)");
        assert_eq!(r.rejected[3].reason, "unexpected `2`");
        assert_eq!(r.end, None);
    }

    #[test]
    fn end_and_ending_orders_stop_reading_and_control_lines_are_skipped() {
        let r = TOY.read(
            &(),
            &mut 0.0,
            "GAME g-1\nTOKEN x\nADD 1\nEND\nRegards,\nTogo\n",
        );
        assert_eq!(r.orders.len(), 1);
        assert!(r.rejected.is_empty());
        assert_eq!(r.end, Some(4));
        let r = TOY.read(&(), &mut 0.0, "STOP\nRegards\n");
        assert_eq!(r.orders[0].order, Toy::Stop);
        assert!(r.rejected.is_empty());
        assert_eq!(r.end, None);
        // A plain word that is no plausible typo is taken for prose glued to the orders: the
        // hint says how to write prose (a blank line before a sign-off sets it aside).
        let r = TOY.read(&(), &mut 0.0, "ADD 1\nRegards,\n");
        let hint = r.rejected[0].hint.as_deref().unwrap();
        assert!(
            hint.starts_with("a line that is not an order starts with `#`"),
            "{hint}"
        );
    }

    #[test]
    fn the_step_is_asked_before_the_parser() {
        let r = TOY.read(&(), &mut -1.0, "SAY hello\n");
        assert_eq!(r.rejected[0].reason, "no speeches while in debt");
        assert_eq!(TOY.keywords(), vec!["ADD", "SAY", "STOP", "END"]);
    }
}
