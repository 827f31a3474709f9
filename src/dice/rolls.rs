//! Dice from a step's seed: one ChaCha20 stream per roll request, faces by rejection sampling in
//! integers (never floats, `gen_range` or `StdRng`, whose outputs are not stable across versions).
//! Pure: a function of the seed and the requests.

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use super::Hash;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Faces {
    /// `s` faces valued 1..=s.
    Numbered { sides: u32 },
    /// `s` faces valued 0..s (a d10 read 0–9).
    ZeroBased { sides: u32 },
    /// Named faces, e.g. the Average Die `[2,3,3,4,4,5]`.
    List { values: Vec<u32> },
}

impl Faces {
    pub fn d(sides: u32) -> Self {
        Faces::Numbered { sides }
    }

    pub fn average_die() -> Self {
        Faces::List {
            values: vec![2, 3, 3, 4, 4, 5],
        }
    }

    pub fn sides(&self) -> u32 {
        match self {
            Faces::Numbered { sides } | Faces::ZeroBased { sides } => *sides,
            Faces::List { values } => values.len() as u32,
        }
    }

    fn value(&self, index: u32) -> u32 {
        match self {
            Faces::Numbered { .. } => index + 1,
            Faces::ZeroBased { .. } => index,
            Faces::List { values } => values[index as usize],
        }
    }

    /// How the roll table prints the die: `d6`, `d10(0-9)`, `avg[2,3,3,4,4,5]`.
    pub fn label(&self) -> String {
        match self {
            Faces::Numbered { sides } => format!("d{sides}"),
            Faces::ZeroBased { sides } => format!("d{sides}(0-{})", sides - 1),
            Faces::List { values } => {
                let v: Vec<String> = values.iter().map(|x| x.to_string()).collect();
                format!("[{}]", v.join(","))
            }
        }
    }
}

/// One face index from a stream: rejection sampling in u64, never floats or `gen_range`.
fn draw_index(rng: &mut ChaCha20Rng, sides: u32) -> u32 {
    let s = sides as u64;
    let lim = (1u64 << 32) - ((1u64 << 32) % s);
    loop {
        let x = rng.next_u32() as u64;
        if x < lim {
            return (x % s) as u32;
        }
    }
}

/// The stream for roll request `j` of seed `s_k`.
pub fn stream(s_k: &Hash, j: u64) -> ChaCha20Rng {
    let mut rng = ChaCha20Rng::from_seed(*s_k);
    rng.set_stream(j);
    rng
}

/// Rolls `count` dice of `faces` from stream `j`.
pub fn roll_stream(s_k: &Hash, j: u64, faces: &Faces, count: usize) -> Vec<u32> {
    let mut rng = stream(s_k, j);
    let sides = faces.sides().max(1);
    (0..count)
        .map(|_| faces.value(draw_index(&mut rng, sides)))
        .collect()
}

/// One line of the roll table that every results mail carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    pub j: u64,
    pub label: String,
    pub faces: Faces,
    pub results: Vec<u32>,
}

/// The dice handle a ruleset resolves with: each request gets the next stream.
#[derive(Debug, Clone)]
pub struct Dice {
    seed: Hash,
    table: Vec<Roll>,
}

impl Dice {
    pub fn new(seed: Hash) -> Self {
        Self {
            seed,
            table: Vec::new(),
        }
    }

    /// Rolls `count` dice as request `j` = the number of requests so far.
    pub fn roll(&mut self, label: impl Into<String>, faces: Faces, count: usize) -> Vec<u32> {
        let j = self.table.len() as u64;
        let results = roll_stream(&self.seed, j, &faces, count);
        self.table.push(Roll {
            j,
            label: label.into(),
            faces,
            results: results.clone(),
        });
        results
    }

    pub fn roll_one(&mut self, label: impl Into<String>, faces: Faces) -> u32 {
        self.roll(label, faces, 1)[0]
    }

    pub fn table(&self) -> &[Roll] {
        &self.table
    }

    pub fn into_table(self) -> Vec<Roll> {
        self.table
    }
}

/// Re-derives every roll of a table from its seed; `Err` names the first mismatching `j`.
pub fn check_table(s_k: &Hash, table: &[Roll]) -> Result<(), (u64, String)> {
    for (i, r) in table.iter().enumerate() {
        if r.j != i as u64 {
            return Err((
                r.j,
                format!("request index {} out of order (expected {i})", r.j),
            ));
        }
        let again = roll_stream(s_k, r.j, &r.faces, r.results.len());
        if again != r.results {
            return Err((
                r.j,
                format!("results {:?} but the seed gives {:?}", r.results, again),
            ));
        }
    }
    Ok(())
}
