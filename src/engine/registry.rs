//! The rulesets a build knows, by name. Each registers with one line (`.with::<R>()`), and the
//! shell gets a `Box<dyn Play>` for a journal or a snapshot without being generic over a
//! ruleset. Also the replay of journal lines, which every loader and `verify` share. Pure.

use super::event::{Event, ReplayError};
use super::game::{Book, Creation, CreationRefused, Game};
use super::play::Play;
use super::ruleset::Ruleset;

/// A game opened from its first journal line.
type Opened = Result<Box<dyn Play>, ReplayError>;

/// One ruleset's entry points, as plain function pointers.
#[derive(Clone, Copy)]
pub struct Entry {
    pub name: &'static str,
    create: fn(&Creation) -> Result<Event, CreationRefused>,
    open: fn(&Event, &str) -> Opened,
    restore: fn(Book, serde_json::Value) -> Result<Box<dyn Play>, serde_json::Error>,
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entry").field("name", &self.name).finish()
    }
}

impl Entry {
    pub fn of<R: Ruleset>() -> Self {
        Entry {
            name: R::NAME,
            create: |c| Game::<R>::creation_event(c),
            open: |ev, line| Ok(Box::new(Game::<R>::from_creation(ev, line)?)),
            restore: |book, state| {
                let state: R::State = serde_json::from_value(state)?;
                Ok(Box::new(Game::<R> { book, state }))
            },
        }
    }

    /// The first event of a new game of this ruleset, after checking its data and seats.
    pub fn create(&self, c: &Creation) -> Result<Event, CreationRefused> {
        (self.create)(c)
    }

    /// The game as its first journal line makes it.
    pub fn open(&self, first: &Event, line: &str) -> Result<Box<dyn Play>, ReplayError> {
        (self.open)(first, line)
    }

    /// The game from a snapshot's book and state (the caller checks they belong together);
    /// `Err` when the state is not this ruleset's.
    pub fn restore(
        &self,
        book: Book,
        state: serde_json::Value,
    ) -> Result<Box<dyn Play>, serde_json::Error> {
        (self.restore)(book, state)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown ruleset `{name}` (this build knows: {known})")]
pub struct UnknownRuleset {
    pub name: String,
    pub known: String,
}

/// The rulesets a daemon, a verifier or a test can play.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    entries: Vec<Entry>,
}

impl Registry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds ruleset `R`. A second ruleset with the same name is a programming error.
    pub fn with<R: Ruleset>(mut self) -> Self {
        assert!(
            self.entries.iter().all(|e| e.name != R::NAME),
            "ruleset `{}` registered twice",
            R::NAME
        );
        self.entries.push(Entry::of::<R>());
        self
    }

    pub fn get(&self, name: &str) -> Result<&Entry, UnknownRuleset> {
        self.entries
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| UnknownRuleset {
                name: name.to_string(),
                known: self.names().join(", "),
            })
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.entries.iter().map(|e| e.name).collect()
    }

    /// Replays a whole journal: the first line picks the ruleset, every later line is checked
    /// to be in canonical form and applied. The first failure names the event and field.
    pub fn replay(&self, lines: &[String]) -> Result<Box<dyn Play>, ReplayError> {
        self.replay_opened(lines, None)
    }

    /// `replay`, with the game's salt key handed in first (an auditor holding the store), so
    /// every orders digest of a v2 game is opened and checked as it is replayed.
    pub fn replay_opened(
        &self,
        lines: &[String],
        salt_key: Option<crate::dice::Hash>,
    ) -> Result<Box<dyn Play>, ReplayError> {
        let first = lines.first().ok_or_else(empty_journal)?;
        let ev = parse_line(0, first)?;
        let Event::GameCreated { ruleset, .. } = &ev else {
            return Err(ReplayError {
                index: 0,
                kind: ev.kind().into(),
                field: "type".into(),
                detail: "the journal must begin with game_created".into(),
            });
        };
        let entry = self.get(ruleset).map_err(|e| ReplayError {
            index: 0,
            kind: "game_created".into(),
            field: "ruleset".into(),
            detail: e.to_string(),
        })?;
        let mut game = entry.open(&ev, first)?;
        if let Some(z) = salt_key {
            game.open_digests(z).map_err(|e| ReplayError {
                index: 0,
                kind: "game_created".into(),
                field: "salt_commitment".into(),
                detail: e.to_string(),
            })?;
        }
        apply_lines(game.as_mut(), lines.iter().skip(1).map(String::as_str), 1)?;
        Ok(game)
    }
}

fn empty_journal() -> ReplayError {
    ReplayError {
        index: 0,
        kind: "?".into(),
        field: "journal".into(),
        detail: "empty journal".into(),
    }
}

/// Parses one journal line.
pub fn parse_line(index: u64, line: &str) -> Result<Event, ReplayError> {
    serde_json::from_str(line).map_err(|e| ReplayError {
        index,
        kind: "?".into(),
        field: format!("json (column {})", e.column()),
        detail: e.to_string(),
    })
}

/// Applies journal lines numbered from `first_index` on.
pub fn apply_lines<'a>(
    game: &mut dyn Play,
    lines: impl IntoIterator<Item = &'a str>,
    first_index: u64,
) -> Result<(), ReplayError> {
    for (i, line) in lines.into_iter().enumerate() {
        let index = first_index + i as u64;
        let ev = parse_line(index, line)?;
        // A line that re-serialises differently was edited by hand: the chain hashes the bytes,
        // so say which event, rather than fail later on an innocent-looking field.
        if ev.to_line() != line {
            return Err(ReplayError {
                index,
                kind: ev.kind().into(),
                field: "bytes".into(),
                detail: "the line is not in canonical form (edited?)".into(),
            });
        }
        game.apply(&ev, line, index)?;
    }
    Ok(())
}

/// A typed replay, for tests and tools that know their ruleset.
pub fn replay<R: Ruleset>(lines: &[String]) -> Result<Game<R>, ReplayError> {
    let first = lines.first().ok_or_else(empty_journal)?;
    let mut game = Game::<R>::from_creation(&parse_line(0, first)?, first)?;
    apply_lines(&mut game, lines.iter().skip(1).map(String::as_str), 1)?;
    Ok(game)
}
