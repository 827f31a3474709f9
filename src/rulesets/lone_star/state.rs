//! The state of a Lone Star game: units with their record cards and hit tracks, the turn-order
//! cards, the phase, smoke and blasts, and the terrain; plus the geometry every phase shares
//! (where a unit's stands stand, ranges, sight, cover). It rolls no dice and takes no orders.

use serde::{Deserialize, Serialize};

use crate::board::tabletop::{Pt, bearing, dist, heading_diff, normalize, segments_intersect};
use crate::board::terrain::Area;
use crate::rulesets::kit::roster::{SideCard, TwoSides};

use super::data::{Arm, GunCard, Heavy, Objective, RulesetData, Wind};

/// One figure of a unit's roster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fig {
    Trooper,
    Leader,
    Heavy(Heavy),
    Grenadier,
    RedCross,
    Colors,
}

impl Fig {
    pub fn word(self) -> &'static str {
        match self {
            Fig::Trooper => "trooper",
            Fig::Leader => "leader",
            Fig::Heavy(Heavy::Lmg) => "LMG",
            Fig::Heavy(Heavy::Hmg) => "HMG",
            Fig::Heavy(Heavy::Flamethrower) => "flamethrower",
            Fig::Heavy(Heavy::Mortar) => "mortar",
            Fig::Grenadier => "grenadier",
            Fig::RedCross => "Red Cross man",
            Fig::Colors => "Colors",
        }
    }
}

/// How a unit stands (the map draws it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Form {
    Line,
    Column,
    Square,
    Entrenched,
    /// In a building, facing all ways.
    Occupying,
}

impl Form {
    pub fn word(self) -> &'static str {
        match self {
            Form::Line => "line",
            Form::Column => "column",
            Form::Square => "square",
            Form::Entrenched => "entrenched",
            Form::Occupying => "occupying",
        }
    }

    /// Facing all ways: cannot be flanked (L7, L12).
    pub fn all_round(self) -> bool {
        matches!(self, Form::Square | Form::Entrenched | Form::Occupying)
    }
}

/// What a rule says when no order covers a case (R-numbers in the README).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// `Some(true)`: fire at the nearest enemy in arc; `Some(false)`: hold fire.
    pub target_nearest: Option<bool>,
    /// `Some(true)`: stay in melee; `Some(false)`: leave.
    pub stay: Option<bool>,
    /// Take prisoners in every melee.
    pub prisoners: Option<bool>,
    /// A hidden unit's ambush: reveal and fire at any enemy within this many inches.
    pub ambush: Option<f64>,
    /// Extra half move toward a point; `Some(None)`: no extra move.
    #[serde(with = "plan")]
    pub extra: Option<Option<Pt>>,
    /// Movement: `Some(None)` holds; `Some(Some(p))` advances toward p.
    #[serde(with = "plan")]
    pub advance: Option<Option<Pt>>,
}

impl Standing {
    pub fn is_empty(&self) -> bool {
        *self == Standing::default()
    }
}

/// `Option<Option<Pt>>` as JSON keeps "not given" and "none" apart (a bare `Option` of an
/// `Option` writes both as `null`, and a snapshot would turn "no extra move" into "ask").
mod plan {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::board::tabletop::Pt;

    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Plan {
        Ask,
        Nothing,
        Toward(Pt),
    }

    pub fn serialize<S: Serializer>(v: &Option<Option<Pt>>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            None => Plan::Ask,
            Some(None) => Plan::Nothing,
            Some(Some(p)) => Plan::Toward(*p),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<Pt>>, D::Error> {
        Ok(match Plan::deserialize(d)? {
            Plan::Ask => None,
            Plan::Nothing => Some(None),
            Plan::Toward(p) => Some(Some(p)),
        })
    }
}

/// A unit on the table (or hidden off it, its position secretly mapped).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    pub name: String,
    pub seat: String,
    pub side: String,
    pub arm: Arm,
    pub figures: Vec<Fig>,
    pub start_figures: u32,
    /// Hits crossed off the track.
    pub hits: u32,
    pub leadership: i32,
    pub zeal: i32,
    pub esprit: i32,
    pub move_rate: f64,
    pub mounted_move: Option<f64>,
    pub mounted: bool,
    pub short: f64,
    pub long: f64,
    pub pos: Pt,
    pub facing: f64,
    pub form: Form,
    pub hidden: bool,
    pub gas_masks: bool,
    pub armored: bool,
    pub smoke: u32,
    pub gas: u32,
    pub flame_shots: u32,
    /// A mortar team's rounds left (R50); at 0 the tube is abandoned.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub mortar_rounds: u32,
    pub disengage: bool,
    pub regulars: bool,
    pub british: bool,
    pub gun: Option<GunCard>,
    pub routing: bool,
    /// Gone from the game: destroyed, surrendered or routed off the table.
    pub gone: Option<String>,
    /// 0 dry; 1 in the river (stopped on entering); see R9.
    pub river: u8,
    /// Enemy units it is in melee with.
    pub melee: Vec<String>,
    /// This melee began this turn (cavalry's first-turn bonus).
    pub melee_new: bool,
    /// It charged into its current melee (the other holds the position, R13).
    pub charged: bool,
    /// Fired or was fired on this turn: no extra move (L6).
    pub in_combat: bool,
    /// Figures lost this turn (retreat criterion 3).
    pub lost_this_turn: u32,
    /// The ambushers that fire at this unit this turn: its fire back at them is "ambushed".
    pub ambushed_by: Vec<String>,
    /// The turn this unit was placed from hiding to fire (an ambush, L7), 0 never.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ambush_turn: u32,
    pub prisoners: u32,
    pub guards: u32,
    pub standing: Standing,
    /// This turn's extra-move plan given in an earlier mail (`Some(None)`: none).
    #[serde(with = "plan")]
    pub extra_plan: Option<Option<Pt>>,
    /// Windwagon: declared stopping, moved a third last turn.
    pub stopping: bool,
    pub last_third: bool,
    /// The windwagon or zeppelin this unit rides in (R35), if any; it stands where that does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aboard: Option<String>,
    /// A British ramp-style windwagon (R37, R38).
    #[serde(default, skip_serializing_if = "is_false")]
    pub ramp: bool,
    /// A windwagon or zeppelin standing still at the end of its last move (R36).
    #[serde(default, skip_serializing_if = "is_false")]
    pub halted: bool,
    /// The turn a windwagon or air machine last moved (0: never), for disembarking (R36).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub moved_turn: u32,
    /// A panjandrum's, zeppelin's or aeroplane's own state (R41–R45).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<Machine>,
    /// An escort's prisoners (R40): its figures are guards marching them off.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub escorting: u32,
    /// Campaigns (R55): came shaken from the last battle, its Esprit lowered at set-up.
    #[serde(default, skip_serializing_if = "is_false")]
    pub shaken: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Unit {
    pub fn alive(&self) -> bool {
        self.gone.is_none() && !self.figures.is_empty()
    }

    pub fn count(&self, f: Fig) -> usize {
        self.figures.iter().filter(|x| **x == f).count()
    }

    pub fn heavy(&self) -> Option<Heavy> {
        self.figures.iter().find_map(|f| match f {
            Fig::Heavy(h) => Some(*h),
            _ => None,
        })
    }

    /// A unit on foot that may take the extra half move (infantry, or dismounted cavalry).
    pub fn on_foot(&self) -> bool {
        matches!(self.arm, Arm::Infantry) || (self.arm == Arm::Cavalry && !self.mounted)
    }

    pub fn may_move(&self) -> bool {
        !matches!(self.arm, Arm::Artillery) && self.escorting == 0
    }

    /// A panjandrum, zeppelin or aeroplane: no target, no firer, no blocker (R45).
    pub fn machine_arm(&self) -> bool {
        self.arm.is_machine()
    }

    /// Takes part in ground combat: neither a machine nor a passenger of one in the air.
    pub fn on_ground(&self) -> bool {
        !self.machine_arm() && self.aboard.is_none() && self.escorting == 0
    }

    /// Counts for the battle's end (R21): no machine, no escort (R40, R45).
    pub fn fights(&self) -> bool {
        !self.machine_arm() && self.escorting == 0
    }
}

/// A terrain piece as the rules read it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ground {
    pub kind: String,
    pub name: Option<String>,
    pub area: Area,
}

impl Ground {
    pub fn is(&self, kind: &str) -> bool {
        self.kind == kind
    }

    /// The centre line of a line feature (river, wall, road).
    pub fn line(&self) -> &[Pt] {
        match &self.area {
            Area::Band { points, .. } => points,
            _ => &[],
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Smoke {
    pub at: Pt,
    pub turn: u32,
    pub side: String,
}

/// Where a shell landed this turn (the map draws the blast circle).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Blast {
    pub at: Pt,
    pub radius: f64,
    pub gun: String,
}

/// Where the turn stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The turn-order cards are drawn (at once, no one asked).
    Cards,
    /// The seat holding card `card` (index into `cards`) moves its units.
    Move { card: usize },
    /// Sealed: targets, aim points, prisoners, grenades or gas, ambushes.
    Combat,
    /// Sealed: stay in melee or leave.
    MeleeEnd,
    /// Extra half moves, in card order.
    Extra,
    /// The battle is over (the state's journals spell it `over`).
    #[serde(rename = "over")]
    GameOver,
}

/// A seat and its side, in the fixed seat order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Seat {
    pub id: String,
    pub side: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub data: RulesetData,
    pub scenario: String,
    pub turn: u32,
    pub turns: u32,
    pub width: f64,
    pub height: f64,
    pub sides: Vec<(String, String, String)>,
    pub seats: Vec<Seat>,
    /// Seat ids in turn-order card order (drawn once per game, R1).
    pub cards: Vec<String>,
    pub phase: Phase,
    pub units: Vec<Unit>,
    pub ground: Vec<Ground>,
    pub objectives: Vec<Objective>,
    pub wind: Option<Wind>,
    pub smoke: Vec<Smoke>,
    pub blasts: Vec<Blast>,
    /// The last resolution's log: (text, seats that may read it; empty = everyone).
    pub log: Vec<(String, Vec<String>)>,
    pub outcome: Option<crate::engine::Outcome>,
    /// Campaigns (R53, R56): what each side brings from earlier battles, by side id; only
    /// sides that bring something, and left out when empty so older games keep their digests.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub carried: std::collections::BTreeMap<String, Carried>,
}

/// A side's record from earlier battles of a campaign, read from its side card and added to
/// by the next carry (so battle 3 knows what battle 1 cost).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Carried {
    /// R56: prisoners taken from the enemy in earlier battles.
    pub prisoners_held: u32,
    /// R53: units lost in earlier battles.
    pub lost_units: Vec<String>,
}

/// A side as the scenario gives it: (id, name, goal).
impl SideCard for (String, String, String) {
    fn id(&self) -> &str {
        &self.0
    }
    fn name(&self) -> &str {
        &self.1
    }
}

impl TwoSides for State {
    type Side = (String, String, String);
    fn sides(&self) -> &[Self::Side] {
        &self.sides
    }
    fn sides_mut(&mut self) -> &mut [Self::Side] {
        &mut self.sides
    }
}

impl State {
    pub fn unit(&self, name: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.name == name)
    }

    pub fn unit_mut(&mut self, name: &str) -> &mut Unit {
        self.units
            .iter_mut()
            .find(|u| u.name == name)
            .expect("a unit of the game")
    }

    pub fn side_of(&self, seat: &str) -> String {
        self.seats
            .iter()
            .find(|s| s.id == seat)
            .map(|s| s.side.clone())
            .unwrap_or_default()
    }

    pub fn seat_units(&self, seat: &str) -> Vec<&Unit> {
        self.units
            .iter()
            .filter(|u| u.seat == seat && u.alive())
            .collect()
    }

    pub fn say(&mut self, text: impl Into<String>) {
        self.log.push((text.into(), vec![]));
    }

    pub fn tell(&mut self, seat: &str, text: impl Into<String>) {
        self.log.push((text.into(), vec![seat.to_string()]));
    }

    /// Where a unit's stands stand, 1" apart: line 2 deep (1 if ≤ 4 figures) across the front,
    /// column 2 wide along it, square a ring; centred on `pos`, front towards `facing`.
    pub fn stands(&self, u: &Unit) -> Vec<Pt> {
        stands_at(u, u.pos, u.facing, u.form)
    }

    /// Distance between the closest stands' edges (L6: closest points of the closest stands).
    pub fn gap(&self, a: &Unit, b: &Unit) -> f64 {
        gap_between(
            &self.stands(a),
            &self.stands(b),
            self.data.rules.stand_size.get(),
        )
    }

    /// Is `p` in terrain of `kind`? Ground a panjandrum blasted (a crater) is no longer woods,
    /// a building or a wall (R43): only rough ground remains.
    pub fn in_area(&self, kind: &str, p: Pt) -> bool {
        let blasted = matches!(kind, "woods" | "farm" | "wall")
            && self
                .ground
                .iter()
                .any(|g| g.is("crater") && g.area.contains(p));
        !blasted && self.ground.iter().any(|g| g.is(kind) && g.area.contains(p))
    }

    /// Area cover for a unit: its centre of mass in woods or a farm (L7).
    pub fn area_cover(&self, u: &Unit) -> bool {
        self.in_area("woods", u.pos) || self.in_area("farm", u.pos)
    }

    /// Linear cover: a wall within a stand of the unit, lying between it and `from` (L7).
    pub fn wall_between(&self, u: &Unit, from: Pt) -> bool {
        let reach = self.data.rules.stand_size.get();
        let blasted = self
            .ground
            .iter()
            .any(|g| g.is("crater") && g.area.distance_to(u.pos) <= reach);
        !blasted
            && self.ground.iter().filter(|g| g.is("wall")).any(|g| {
                g.area.distance_to(u.pos) <= reach
                    && g.line()
                        .windows(2)
                        .any(|w| segments_intersect(w[0], w[1], from, u.pos))
            })
    }

    /// Is the sight line from `a` to `b` open? Smoke blocks it; more than `sight_depth` inches
    /// of woods block it, and so do two woods (L7: never through two).
    pub fn sight(&self, a: Pt, b: Pt) -> bool {
        let r = self.data.rules.smoke_diameter.get() / 2.0;
        if self.smoke.iter().any(|s| {
            Area::Circle {
                centre: s.at,
                radius: r,
            }
            .segment_intersects(a, b)
        }) {
            return false;
        }
        let depth = self.data.rules.sight_depth.get();
        let mut crossed = 0;
        for g in self.ground.iter().filter(|g| g.is("woods") || g.is("farm")) {
            // The area the looker or the target stands in does not count against the line.
            if g.area.contains(a) || g.area.contains(b) {
                continue;
            }
            let inside = g.area.length_inside(a, b);
            if inside > depth {
                return false;
            }
            if inside > 0.0 {
                crossed += 1;
            }
        }
        crossed <= 1
    }

    /// Is `target` in the 180° front arc of `u` (from its centre of mass)?
    pub fn in_front(&self, u: &Unit, target: Pt) -> bool {
        u.form.all_round() || heading_diff(u.facing, bearing(u.pos, target)).abs() <= 90.0
    }

    /// Can `seer` see `u`? Hidden units are seen by no enemy.
    pub fn visible_to_side(&self, u: &Unit, side: &str) -> bool {
        u.side == side || !u.hidden
    }

    pub fn enemies_of<'a>(&'a self, u: &'a Unit) -> impl Iterator<Item = &'a Unit> + 'a {
        self.units
            .iter()
            .filter(move |e| e.side != u.side && e.alive())
    }

    /// The figures a unit's track allows: figures lost to hits are `hits / per`.
    pub fn track_of(&self, u: &Unit) -> (u32, u32) {
        let per = self.data.rules.hits_per_figure.get() as u32;
        (u.hits, u.start_figures * per)
    }
}

/// The stands of `u` if it stood at `pos` facing `facing` in `form`.
pub fn stands_at(u: &Unit, pos: Pt, facing: f64, form: Form) -> Vec<Pt> {
    let n = u.figures.len().max(1);
    let mut out = Vec::with_capacity(n);
    let (wide, deep) = match form {
        Form::Line => {
            let deep = if n <= 4 { 1 } else { 2 };
            (n.div_ceil(deep), deep)
        }
        Form::Column | Form::Occupying => {
            let wide = if n <= 4 { 1 } else { 2 };
            (wide, n.div_ceil(wide))
        }
        Form::Square | Form::Entrenched => {
            // A ring: stands on a circle of radius ~ n/2π inches.
            let r = (n as f64 / std::f64::consts::TAU).max(0.75);
            for i in 0..n {
                let h = facing + 360.0 * i as f64 / n as f64;
                out.push(pos.offset(normalize(h), r));
            }
            return out;
        }
    };
    for i in 0..n {
        let (col, row) = (i % wide, i / wide);
        let across = col as f64 - (wide as f64 - 1.0) / 2.0;
        let back = row as f64 - (deep as f64 - 1.0) / 2.0;
        out.push(
            pos.offset(normalize(facing + 90.0), across)
                .offset(normalize(facing + 180.0), back),
        );
    }
    out
}

/// Edge-to-edge distance of the closest stands (each `size` inches across), never below 0.
pub fn gap_between(a: &[Pt], b: &[Pt], size: f64) -> f64 {
    let mut best = f64::INFINITY;
    for p in a {
        for q in b {
            best = best.min(dist(*p, *q));
        }
    }
    (best - size).max(0.0)
}

/// What a machine keeps from turn to turn.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// Panjandrum: turns it has rolled (0: not launched yet).
    #[serde(default)]
    pub run: u32,
    /// Panjandrum: stopped; its charge goes off at its mover's card on this turn (R42).
    #[serde(default)]
    pub fuse: Option<u32>,
    /// Zeppelin: on the ground (R44).
    #[serde(default)]
    pub landed: bool,
}
