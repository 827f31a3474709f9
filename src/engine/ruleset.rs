//! The contract every ruleset implements: pure functions from (state, locked submissions, dice)
//! to a new state. Nothing here touches the clock, disk, network or ambient randomness.

use std::collections::BTreeMap;
use std::fmt::Debug;

use serde::{Serialize, de::DeserializeOwned};

use crate::dice::Dice;

pub use super::campaign::CarryRefused;
use super::procedure::Procedure;
pub use super::step::{Outcome, Prompt, SeatId, Silence, StepSpec, Submitted};

/// A bad order is data, not an error: it becomes the rejection mail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Rejected {
    /// 1-based line number in the text the player sent (after quotes and signature are cut).
    pub line: usize,
    /// The line as the player wrote it.
    pub text: String,
    pub reason: String,
    /// What the player probably meant, e.g. the nearest ship name or a valid example.
    pub hint: Option<String>,
}

/// Why a game could not be set up from its ruleset data, scenario and seats (`Ruleset::setup`):
/// nothing is created and the organiser is told exactly this. The kinds say what to fix; the
/// words are the ruleset's own, as organisers have always read them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupRefused {
    /// A data file that does not read as the ruleset declares it: bad TOML, or a key missing,
    /// unknown or of the wrong type. `file` is how messages name it (`ruleset.toml`).
    #[error("{file}: {reason}")]
    Unreadable { file: &'static str, reason: String },
    /// The seats handed in are not the scenario's: their number, names or order.
    #[error("{0}")]
    Seats(String),
    /// The ruleset's data reads but is not whole: a class, table or sheet it needs is missing
    /// or contradicts another.
    #[error("{0}")]
    RulesetData(String),
    /// The scenario reads but cannot be played as written: a name used twice or reading as an
    /// order word, a hex off the map, an unknown class, formation or terrain, a value out of
    /// its range.
    #[error("{0}")]
    Scenario(String),
}

/// Who is looking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum Viewer {
    Seat(SeatId),
    /// A spectator sees what every seat may see.
    Spectator,
}

/// One line of a turn log with who may read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct LogLine {
    pub text: String,
    /// `None`: everybody. `Some(seats)`: only those seats (a spectator only if `spectators`).
    pub only: Option<Vec<SeatId>>,
    /// A seat line a spectator may read too: a ruleset sets it on the version of an event that
    /// every seat may see (e.g. a move as the side not making it saw it), never on more. Absent
    /// in logs saved before it existed, and left out when false, so those states load and save
    /// unchanged.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub spectators: bool,
}

impl LogLine {
    pub fn public(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            only: None,
            spectators: false,
        }
    }

    pub fn private(seat: &str, text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            only: Some(vec![seat.to_string()]),
            spectators: false,
        }
    }

    /// This seat's line, which spectators read too (see `spectators`).
    pub fn and_spectators(mut self) -> Self {
        self.spectators = true;
        self
    }

    pub fn visible_to(&self, viewer: &Viewer) -> bool {
        match (&self.only, viewer) {
            (None, _) => true,
            (Some(seats), Viewer::Seat(s)) => seats.contains(s),
            (Some(_), Viewer::Spectator) => self.spectators,
        }
    }
}

/// Everything that leaves the process for one viewer is built from this, never from the state.
/// Rulesets fill it; report/ and render/ only read it.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct View {
    pub viewer: Viewer,
    /// e.g. `Battle of the Yellow Sea, 10 August 1904`.
    pub scenario: String,
    /// e.g. `Turn 3 (Japan active)`.
    pub turn: String,
    /// The last resolution's log, already filtered for this viewer.
    pub log: Vec<String>,
    /// Fixed-width text picture of the board (positions, headings, markers as this viewer knows them).
    pub board: Vec<String>,
    /// Named sections for the mail (e.g. `Your fleet`, `Enemy fleet`, `Minefields`), each a list of lines.
    pub sections: Vec<(String, Vec<String>)>,
    /// Structured, viewer-safe data for maps and templates.
    pub data: serde_json::Value,
    /// The map as this viewer may see it, for `render/` (`None`: the game has no map to draw).
    #[serde(default)]
    pub map: Option<crate::engine::scene::Scene>,
}

/// Standing orders read from a mail that does not answer the open step (`Ruleset::standing`).
#[derive(Debug, Clone)]
pub struct StandingRead<S> {
    /// The state with the mail's standing orders in force, and their canonical form; `None`
    /// when none of the lines offered is one.
    pub applied: Option<(S, String)>,
    /// 1-based numbers of the offered lines that are orders for a step after all (an answer
    /// that shares its first word with a standing order): the mail's step took them with it.
    pub other: Vec<usize>,
}

impl<S> StandingRead<S> {
    pub fn none() -> Self {
        Self {
            applied: None,
            other: Vec::new(),
        }
    }
}

/// What a resolution returns.
#[derive(Debug, Clone)]
pub struct Resolution<S> {
    pub state: S,
}

/// One ruleset. All functions are pure.
pub trait Ruleset: 'static {
    /// Folder name under `games/` and `src/rulesets/` (`naval-rjw`).
    const NAME: &'static str;
    type State: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    type Orders: Clone + Debug + 'static;
    /// Where a state stands in the sequence of play (the state's own `phase`; its serialised
    /// form is the state's, so renaming a variant must keep its serde name).
    type Phase: Clone + Debug + PartialEq + 'static;

    /// The sequence of play as data (`engine::procedure`): the steps, what each asks and takes,
    /// what may follow. `step` and `resolve` drive it.
    fn procedure() -> &'static Procedure<Self::State, Self::Orders, Self::Phase>;

    /// Builds the opening state from the ruleset data and scenario texts (TOML) and the seat ids
    /// in the game's fixed seat order. Errors are bad data, reported to the organiser.
    fn setup(
        ruleset_toml: &str,
        scenario_toml: &str,
        seats: &[SeatId],
    ) -> Result<Self::State, SetupRefused>;

    /// Seat ids and their sides, in the fixed seat order the dice protocol uses.
    fn seats(state: &Self::State) -> Vec<(SeatId, String)>;

    /// The current step. An empty prompt list (or no required prompt) locks at once.
    fn step(state: &Self::State) -> StepSpec {
        Self::procedure().ask(state)
    }

    /// Parses one seat's orders for the current step. Returns every bad line, not just the first.
    fn parse(state: &Self::State, seat: &str, text: &str) -> Result<Self::Orders, Vec<Rejected>>;

    /// The canonical form (one order per line, `\n`-terminated). `parse(canonical(o)) == o`.
    fn canonical(orders: &Self::Orders) -> String;

    /// Resolves the current step. `submissions` holds every prompted seat.
    fn resolve(
        state: &Self::State,
        submissions: &BTreeMap<SeatId, Submitted<Self::Orders>>,
        dice: &mut Dice,
    ) -> Self::State {
        Self::procedure().resolve(state, submissions, dice)
    }

    /// What `viewer` may see now.
    fn view(state: &Self::State, viewer: &Viewer) -> View;

    /// `Some` once the game is over.
    fn outcome(state: &Self::State) -> Option<Outcome>;

    /// Once the rules have ended the game: its result in the ruleset's own words, the words
    /// its outcome's summary (the game-over mail's body) says (`German victory: the village
    /// holds`), naming the side the outcome's `winners` name. The game-over subject is
    /// `Game over: <these words>`. `None` (the default): the subject names the winners by side.
    fn result_words(_state: &Self::State) -> Option<String> {
        None
    }

    /// The victory test's figures as they stand (each side's losses against the threshold,
    /// points, objectives held), one line each, so the game-over mail says how the result was
    /// reached. Empty by default.
    fn victory_figures(_state: &Self::State) -> Vec<String> {
        Vec::new()
    }

    /// Words that begin an order (the grammar kit's keyword table), so a closing line that
    /// starts with one is never mistaken for a sign-off.
    fn order_keywords() -> Vec<&'static str> {
        Vec::new()
    }

    /// What `seat` plays for and with — victory conditions, its forces' data — as titled
    /// sections for the welcome and HELP mails. Empty by default.
    fn briefing(_state: &Self::State, _seat: &str) -> Vec<(String, Vec<String>)> {
        Vec::new()
    }

    /// The numbers `seat` writes its orders with — ranges, firepower, strength, cohesion or
    /// morale, movement, armour, its datacards' lines — as titled sections, one line per unit,
    /// for the `UNITS` answer and the welcome (issue 30 point 6). Only the seat's own units,
    /// from the ruleset's own data tables: never an enemy fact the seat may not see. Empty by
    /// default.
    fn unit_numbers(_state: &Self::State, _seat: &str) -> Vec<(String, Vec<String>)> {
        Vec::new()
    }

    /// Whether a line looks like an order gone wrong — it names a piece (a ship, a unit) or
    /// starts with a near-miss of a keyword — so such a closing line is reported as a bad
    /// order, never skipped as a sign-off.
    fn looks_like_an_order(_state: &Self::State, _line: &str) -> bool {
        false
    }

    /// Campaigns: the next scenario (TOML) with what `finished`, a game of this ruleset that
    /// is over, leaves each side — its losses gone, the rest per the ruleset's written rulings —
    /// returned as the TOML the next game is set up from (and journaled with). Sides match by
    /// id. `terms` is the campaign's `[carry]` table: the ruleset's own options (damage repaired
    /// or not, …), each documented in its README; a key it does not know is refused. The
    /// default refuses: a ruleset carries nothing unless it says how.
    fn carry(
        _finished: &Self::State,
        _next_scenario_toml: &str,
        _terms: &toml::Table,
    ) -> Result<String, CarryRefused> {
        Err(CarryRefused::NotCarried(Self::NAME))
    }

    /// The words that may begin a standing order or a setting: a line that holds from now on
    /// rather than answering one step (`STANDING …`, `INTERRUPTS NEVER`). Only lines starting
    /// with one of them are offered to `standing`. Empty (the default): no standing orders.
    fn standing_keywords() -> &'static [&'static str] {
        &[]
    }

    /// Standing orders and settings in a mail that does not answer the open step (it answers
    /// a step already resolved, or the open step asks nothing of `seat`): `text` holds only the
    /// lines that begin with a `standing_keywords` word, the others blanked so line numbers
    /// stay the player's. Returns the state with them in force at once, or every standing line
    /// gone wrong (then nothing applies). Replay calls it again on the canonical form, so it
    /// must be pure and `standing(canonical)` must give the same state.
    fn standing(
        _state: &Self::State,
        _seat: &str,
        _text: &str,
    ) -> Result<StandingRead<Self::State>, Vec<Rejected>> {
        Ok(StandingRead::none())
    }

    /// A legal set of orders for `seat` in the current step, chosen by `choice` (deterministic).
    /// Used by the demo's scripted players and by random-play tests; must never be rejected by `parse`.
    fn sample_orders(state: &Self::State, seat: &str, choice: u64) -> String;
}
