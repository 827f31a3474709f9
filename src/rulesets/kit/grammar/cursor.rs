//! A cursor over the words of one order line: keywords, numbers, `x,y` points, bearings, names
//! that may contain spaces, and the rest of the line. Every syntax error it raises carries the
//! order's copyable example as its hint. Pure; it knows no ruleset's words.

use crate::board::tabletop::Pt;

use super::LineErr;
use super::hint::{did_you_mean, normalise};
use super::number::read_number;

/// The words after an order's keyword, read left to right.
#[derive(Debug, Clone)]
pub struct Cursor<'t> {
    words: Vec<&'t str>,
    at: usize,
    line: usize,
    example: &'static str,
}

/// The names a position in a line may mean, for `Cursor::name`.
#[derive(Debug, Clone)]
pub struct Names<'n> {
    /// Every name on the table, each with whether it is the kind this position expects (your
    /// own ship, an enemy unit). A name of the other kind is still read, so the ruleset can say
    /// "Mikasa is one of your own ships" rather than "no such ship".
    pub all: Vec<(&'n str, bool)>,
    /// What a name is, for messages: `ship`, `unit of yours`.
    pub what: &'static str,
    /// Words that end a name written with spaces (`AT`, `WITH`), in capitals.
    pub stop: &'static [&'static str],
    /// The most words one name may take.
    pub max_words: usize,
}

impl<'t> Cursor<'t> {
    /// `words` follow the keyword on the player's line `line`; `example` is the order's
    /// copyable example from the keyword table.
    pub fn new(words: &[&'t str], line: usize, example: &'static str) -> Self {
        Self {
            words: words.to_vec(),
            at: 0,
            line,
            example,
        }
    }

    /// The player's own 1-based line number.
    pub fn line(&self) -> usize {
        self.line
    }

    /// A syntax error: `reason`, with the order's example as the hint.
    pub fn wrong(&self, reason: impl Into<String>) -> LineErr {
        LineErr::new(reason).hint(format!("for example: {}", self.example))
    }

    pub fn done(&self) -> bool {
        self.at >= self.words.len()
    }

    /// How many words are left.
    pub fn left(&self) -> usize {
        self.words.len().saturating_sub(self.at)
    }

    pub fn peek(&self) -> Option<&'t str> {
        self.words.get(self.at).copied()
    }

    /// Is the next word `word` (any case)?
    pub fn is(&self, word: &str) -> bool {
        self.peek().is_some_and(|w| w.eq_ignore_ascii_case(word))
    }

    /// Takes the next word if it is `word` (any case).
    pub fn eat(&mut self, word: &str) -> bool {
        let yes = self.is(word);
        if yes {
            self.at += 1;
        }
        yes
    }

    /// Takes the next word, whatever it is.
    pub fn next_word(&mut self) -> Option<&'t str> {
        let w = self.peek();
        if w.is_some() {
            self.at += 1;
        }
        w
    }

    /// Takes the next word; `what` names it when it is missing (`the minefield`).
    pub fn word(&mut self, what: &str) -> Result<&'t str, LineErr> {
        self.next_word()
            .ok_or_else(|| self.wrong(format!("{what} is missing")))
    }

    /// Takes the keyword `word` (any case) or says what stands there instead.
    pub fn expect(&mut self, word: &str) -> Result<(), LineErr> {
        match self.peek() {
            _ if self.eat(word) => Ok(()),
            Some(found) => Err(self.wrong(format!("expected `{word}` but found `{found}`"))),
            None => Err(self.wrong(format!("`{word}` is missing"))),
        }
    }

    /// Takes one of the `options` (any case): `say GENUINE or DUMMY` otherwise.
    pub fn one_of<T: Copy>(&mut self, options: &[(&str, T)]) -> Result<T, LineErr> {
        if let Some(w) = self.peek()
            && let Some((_, v)) = options.iter().find(|(o, _)| o.eq_ignore_ascii_case(w))
        {
            self.at += 1;
            return Ok(*v);
        }
        let words: Vec<&str> = options.iter().map(|o| o.0).collect();
        let say = match words.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => words.concat(),
        };
        Err(self.wrong(format!("say {say}")))
    }

    /// Takes a number; `what` says which (`the distance`).
    pub fn number(&mut self, what: &str) -> Result<f64, LineErr> {
        let w = self.word(what)?;
        read_number(w).ok_or_else(|| self.wrong(format!("`{w}` is not a number ({what})")))
    }

    /// Takes a whole number from 0 to `max`.
    pub fn count(&mut self, what: &str, max: u32) -> Result<u32, LineErr> {
        let w = self.word(what)?;
        match w.parse::<u32>() {
            Ok(v) if v <= max => Ok(v),
            _ => Err(self.wrong(format!("`{w}` is not a whole number of {what}"))),
        }
    }

    /// Takes a compass bearing, 0 up to (not including) 360.
    pub fn bearing(&mut self, what: &str) -> Result<f64, LineErr> {
        let v = self.number(what)?;
        if (0.0..360.0).contains(&v) {
            Ok(v)
        } else {
            Err(self.wrong("a heading is 0 to 359"))
        }
    }

    /// Takes a point `x,y`, also written `x, y` or `x y`, up to a word of `stop` or the end.
    pub fn point(&mut self, stop: &[&str]) -> Result<Pt, LineErr> {
        let mut text = String::new();
        while let Some(w) = self.peek() {
            if stop.iter().any(|s| s.eq_ignore_ascii_case(w)) {
                break;
            }
            text.push_str(w);
            text.push(',');
            self.at += 1;
        }
        let text = text.trim_end_matches(',');
        if text.is_empty() {
            return Err(self.wrong("a position x,y is missing"));
        }
        let parts: Vec<&str> = text.split(',').filter(|p| !p.is_empty()).collect();
        let xy: Vec<f64> = parts.iter().filter_map(|p| read_number(p)).collect();
        if parts.len() != 2 || xy.len() != 2 {
            return Err(self.wrong(format!("`{text}` is not a position x,y")));
        }
        Ok(Pt::new(xy[0], xy[1]))
    }

    /// Takes the rest of the line.
    pub fn rest(&mut self) -> Vec<&'t str> {
        let rest = self.words[self.at.min(self.words.len())..].to_vec();
        self.at = self.words.len();
        rest
    }

    /// Nothing may follow.
    pub fn end(&self) -> Result<(), LineErr> {
        if self.done() {
            Ok(())
        } else {
            Err(self.wrong(format!("unexpected `{}`", self.words[self.at..].join(" "))))
        }
    }

    /// Takes a name from `names`: exact (case, spaces, `-` and `_` ignored), else an
    /// unambiguous start of one, preferring names of the expected kind. A name may run over
    /// several words up to a stop word; the longest that matches wins.
    pub fn name(&mut self, names: &Names) -> Result<String, LineErr> {
        let what = names.what;
        let Some(first) = self.peek() else {
            return Err(self.wrong(format!("a {what} name is missing")));
        };
        let mut span = 0;
        while span < names.max_words
            && let Some(w) = self.words.get(self.at + span)
            && !names.stop.iter().any(|s| s.eq_ignore_ascii_case(w))
        {
            span += 1;
        }
        if span == 0 {
            return Err(self.wrong(format!("a {what} name is missing before `{first}`")));
        }
        let rest: Vec<&'t str> = self.words[self.at..].to_vec();
        let key = |k: usize| normalise(&rest[..k].concat());
        for k in (1..=span).rev() {
            let w = key(k);
            if let Some((n, _)) = names.all.iter().find(|(n, _)| normalise(n) == w) {
                self.at += k;
                return Ok(n.to_string());
            }
        }
        for k in (1..=span).rev() {
            let w = key(k);
            let all: Vec<(&str, bool)> = names
                .all
                .iter()
                .copied()
                .filter(|(n, _)| normalise(n).starts_with(&w))
                .collect();
            let mine: Vec<&str> = all.iter().filter(|x| x.1).map(|x| x.0).collect();
            let pick = match (mine.as_slice(), all.as_slice()) {
                ([one], _) => Some(*one),
                ([], [(one, _)]) => Some(*one),
                _ => None,
            };
            if let Some(n) = pick {
                self.at += k;
                return Ok(n.to_string());
            }
            if k == 1 && all.len() > 1 {
                let pool: Vec<&str> = if mine.len() > 1 {
                    mine
                } else {
                    all.iter().map(|x| x.0).collect()
                };
                return Err(LineErr::new(format!("`{first}` is ambiguous"))
                    .hint(format!("one of: {}", pool.join(", "))));
            }
        }
        // What the player meant as the name: trailing numbers are the order's own
        // (`MOVE Akaatsuki 8` misspells `Akaatsuki`, not `Akaatsuki 8`).
        let mut words = &rest[..span];
        while let [head @ .., last] = words
            && !head.is_empty()
            && read_number(last).is_some()
        {
            words = head;
        }
        let word = words.join(" ");
        let expected = names.all.iter().filter(|x| x.1).map(|x| x.0);
        Err(LineErr::new(format!("no {what} called `{word}`"))
            .maybe_hint(did_you_mean(&word, expected)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cursor<'t>(line: &'t str) -> Cursor<'t> {
        let words: Vec<&str> = line.split_whitespace().collect();
        Cursor::new(&words, 3, "MOVE Mikasa 4")
    }

    fn ships() -> Names<'static> {
        Names {
            all: vec![
                ("Mikasa", true),
                ("Chin Yen", true),
                ("Asahi", true),
                ("Akatsuki", true),
                ("Askold", false),
            ],
            what: "ship",
            stop: &["AT", "WITH"],
            max_words: 4,
        }
    }

    #[test]
    fn words_keywords_and_the_end() {
        let mut c = cursor("genuine at 30,24");
        assert_eq!(c.line(), 3);
        assert_eq!(c.one_of(&[("GENUINE", true), ("DUMMY", false)]), Ok(true));
        c.expect("AT").unwrap();
        assert!(!c.done());
        assert_eq!(c.point(&["HEADING"]).unwrap(), Pt::new(30.0, 24.0));
        assert!(c.done());
        let mut c = cursor("x y");
        assert_eq!(
            c.expect("AT").unwrap_err().reason,
            "expected `AT` but found `x`"
        );
        c.next_word();
        let e = c.end().unwrap_err();
        assert_eq!(e.reason, "unexpected `y`");
        assert_eq!(e.hint.as_deref(), Some("for example: MOVE Mikasa 4"));
        assert_eq!(
            cursor("maybe")
                .one_of(&[("NEAREST", 1), ("FLAGSHIP", 2), ("OFF", 3)])
                .unwrap_err()
                .reason,
            "say NEAREST, FLAGSHIP or OFF"
        );
    }

    #[test]
    fn numbers_counts_bearings_and_points() {
        assert_eq!(cursor("4\"").number("the distance"), Ok(4.0));
        assert_eq!(
            cursor("far").number("the distance").unwrap_err().reason,
            "`far` is not a number (the distance)"
        );
        assert_eq!(
            cursor("").number("the distance").unwrap_err().reason,
            "the distance is missing"
        );
        assert_eq!(cursor("3").count("actions", 3), Ok(3));
        assert!(cursor("4").count("actions", 3).is_err());
        assert!(cursor("2.5").count("actions", 3).is_err());
        assert_eq!(cursor("359.5").bearing("the heading"), Ok(359.5));
        assert!(cursor("360").bearing("the heading").is_err());
        for text in ["30,24 HEADING 9", "30, 24 HEADING 9", "30 24 heading 9"] {
            let mut c = cursor(text);
            assert_eq!(
                c.point(&["HEADING"]).unwrap(),
                Pt::new(30.0, 24.0),
                "{text}"
            );
            assert!(c.is("heading"));
        }
        assert_eq!(
            cursor("30,x").point(&[]).unwrap_err().reason,
            "`30,x` is not a position x,y"
        );
        assert_eq!(
            cursor("HEADING").point(&["HEADING"]).unwrap_err().reason,
            "a position x,y is missing"
        );
    }

    #[test]
    fn names_with_spaces_prefixes_and_stop_words() {
        let n = ships();
        let mut c = cursor("chin yen at mik");
        assert_eq!(c.name(&n).unwrap(), "Chin Yen");
        c.expect("AT").unwrap();
        assert_eq!(c.name(&n).unwrap(), "Mikasa");
        assert_eq!(cursor("Chin_Yen").name(&n).unwrap(), "Chin Yen");
        // A name of the other kind is still read; one of your own that starts so is meant.
        assert_eq!(cursor("askold").name(&n).unwrap(), "Askold");
        assert_eq!(cursor("as").name(&n).unwrap(), "Asahi");
        // A start shared by two of the expected kind is ambiguous...
        let e = cursor("a").name(&n).unwrap_err();
        assert_eq!(e.reason, "`a` is ambiguous");
        assert_eq!(e.hint.as_deref(), Some("one of: Asahi, Akatsuki"));
        // ...and so is one shared by two of the other kind when none is expected.
        let theirs = Names {
            all: vec![("Asahi", false), ("Askold", false)],
            ..ships()
        };
        let e = cursor("as").name(&theirs).unwrap_err();
        assert_eq!(e.hint.as_deref(), Some("one of: Asahi, Askold"));
        assert_eq!(
            cursor("AT Mikasa").name(&n).unwrap_err().reason,
            "a ship name is missing before `AT`"
        );
    }

    #[test]
    fn a_misspelt_name_before_a_number_names_only_the_name() {
        let e = cursor("Akaatsuki 8").name(&ships()).unwrap_err();
        assert_eq!(e.reason, "no ship called `Akaatsuki`");
        assert_eq!(e.hint.as_deref(), Some("did you mean Akatsuki?"));
        let e = cursor("Mikaza Fuji").name(&ships()).unwrap_err();
        assert_eq!(e.reason, "no ship called `Mikaza Fuji`");
        // Hints come from the expected kind only.
        let e = cursor("Askolt").name(&ships()).unwrap_err();
        assert_eq!(e.hint, None);
    }

    #[test]
    fn the_rest_of_the_line() {
        let mut c = cursor("Regards from the bridge");
        c.next_word();
        assert_eq!(c.rest(), vec!["from", "the", "bridge"]);
        assert!(c.done());
        assert_eq!(c.left(), 0);
    }
}
