//! The numbers of Last Hundred Yards as `games/last-hundred-yards/ruleset.toml` gives them: the
//! seed's own (§1–10), and the stand-ins for what it lost (the counter sheets, the Terrain
//! Effects, Blind Hex, Coordination, Random Event, Time Lapse and fire tables, and the bridge
//! rules for §11–19), each marked `stand_in = true` with its reason. Typed, so a misspelt key
//! fails at load, naming it. It holds no rule logic and reads no file.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::SetupRefused;
use crate::rulesets::kit::data::{Marked, Num, TomlData, rule_numbers};

rule_numbers! {
    /// `[rules]`: single numbers, printed in the seed unless marked.
    pub struct Rules {
        /// §1.1: no Cohesion above this unless Heroic.
        cohesion_max,
        /// §10.1.1: activated non-vehicular units: MPs, and hexes they may always move.
        activation_mp_foot,
        activation_hexes_foot,
        /// §10.1.1: AFVs and halftracks; trucks.
        activation_mp_tracked,
        activation_mp_truck,
        /// §10.1.2: reacting units.
        reaction_mp_foot,
        reaction_hexes_foot,
        reaction_mp_vehicle,
        /// §10.1: in Reverse, at most this many MPs.
        reverse_mp,
        /// §10.4.1: cost of going into motion.
        motion_start_mp,
        /// §4.1.8: road bonus.
        road_bonus_mp,
        /// §10.3.1: withdraw one to this many hexes.
        withdraw_hexes,
        /// §10.3.1: the platoon leader's help on the withdrawal check (number lost).
        withdraw_leader_drm,
        /// §10.2a: exit roll above this costs casualties.
        exit_casualty_above,
        /// §4.1.10: the platoon leader's help on the river exit roll.
        river_leader_drm,
        /// §4.3.1: concealment loss distances.
        conceal_open_foot,
        conceal_cover_foot,
        conceal_cover_latw,
        conceal_vehicle_enemy_moves,
        conceal_vehicle_cover,
        /// §8.3b: platoon leaders' optional reactions per Platoon Activation Cycle.
        optional_leaders,
        /// §10.4.5: a halftrack carrying infantry overruns with this SADRM.
        overrun_halftrack_sadrm,
        /// §10.4.5 step 3: close defence markers.
        close_defence_german_squad,
        close_defence_other,
        /// §10.4.5 step 3: "after 9/43", as year * 100 + month.
        close_defence_german_after,
        /// §2.4 stacking limits per player per hex.
        stack_squads,
        stack_mgs,
        stack_vehicles,
        stack_vehicles_urban_road,
        stack_guns,
        stack_fps,
        stack_non_combat,
        /// §4.1.14: an FP counts as this many squads for stacking.
        fp_squads,
        /// §5.0 I: unmodified Initiative rolls that call for a Random Event.
        random_event_low,
        random_event_high,
        /// Stand-in (§7.1 Coordination Table lost): success at or above.
        coordination_at_least,
        /// Stand-in (§4.2.4 values lost): DRM per hindrance.
        hindrance_drm,
        /// Stand-in (§11 lost): DRM against a concealed target.
        concealed_target_drm,
        /// Stand-in (§11.3.3 lost): Shoot & Scoot and Halt & Fire fire.
        moving_fire_drm,
        /// Stand-in (§11.3.3g/h lost): a reacting Halt & Fire without LOS at its start.
        halt_no_los_drm,
        /// Stand-in (§11.4 lost): secondary impact hexes against the primary's MV.
        mortar_secondary_drm,
        /// Stand-in (§14 lost): the platoon leader's help on recovery rolls.
        recovery_leader_drm,
        /// Stand-in (§14.6 lost): an unmodified recovery roll of this makes a unit Heroic.
        heroic_roll,
        /// Stand-in (§14.6 lost): a Heroic unit's Cohesion bonus.
        heroic_cohesion,
        /// Stand-in (§13 lost): assault bonus of an undisrupted platoon leader in the hex.
        assault_leader,
        /// Stand-in (§13 lost): one more casualty to the loser per this much difference.
        assault_casualty_step,
        /// Stand-in (§13.3.2 lost): withdrawing from under assault succeeds at or below
        /// Cohesion plus this.
        assault_withdraw_drm,
        /// Stand-in (§10.2a): steps lost by each unit on a failed exit roll.
        exit_casualties,
        /// Stand-in (§11.5.2 lost): hexes a LATW may maneuver before it fires.
        latw_hexes,
    }
}

/// Every kind of counter the seed names (§2.1–2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Squad,
    Section,
    Leader,
    Mg,
    Mortar,
    Latw,
    Gun,
    Fp,
    Afv,
    Halftrack,
    Truck,
    /// §17 Dummies: a concealment marker with nothing under it.
    Dummy,
}

impl Kind {
    /// §2.1: vehicular units.
    pub fn vehicle(self) -> bool {
        matches!(self, Kind::Afv | Kind::Halftrack | Kind::Truck)
    }

    pub fn carrier(self) -> bool {
        matches!(self, Kind::Halftrack | Kind::Truck)
    }

    /// §2.1: combat units (infantry, MGs, guns, AFVs, halftracks, FPs).
    pub fn combat(self) -> bool {
        matches!(
            self,
            Kind::Squad
                | Kind::Section
                | Kind::Mg
                | Kind::Mortar
                | Kind::Gun
                | Kind::Fp
                | Kind::Afv
                | Kind::Halftrack
        )
    }

    /// Infantry proper: squads and sections.
    pub fn infantry(self) -> bool {
        matches!(self, Kind::Squad | Kind::Section)
    }

    /// §4.3: rules for non-vehicular units (dummies move and hide as infantry).
    pub fn foot(self) -> bool {
        !self.vehicle()
    }

    /// Targets of anti-tank fire (§1.7: vehicles, towed guns, FPs); the rest have Cohesion
    /// against small arms (R11).
    pub fn hard(self) -> bool {
        matches!(self, Kind::Afv | Kind::Halftrack | Kind::Gun | Kind::Fp)
    }

    pub fn word(self) -> &'static str {
        match self {
            Kind::Squad => "squad",
            Kind::Section => "section",
            Kind::Leader => "platoon leader",
            Kind::Mg => "MG section",
            Kind::Mortar => "mortar section",
            Kind::Latw => "LATW section",
            Kind::Gun => "towed gun",
            Kind::Fp => "fortified position",
            Kind::Afv => "AFV",
            Kind::Halftrack => "halftrack",
            Kind::Truck => "truck",
            Kind::Dummy => "dummy",
        }
    }
}

/// The printed values of one counter (§1). Zero where the counter has none.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Values {
    pub cohesion: i32,
    pub sav: i32,
    pub sav_range: i32,
    /// §1.8: the underscored SAV range of assault guns and towed guns (no range DRM).
    pub sav_flat: bool,
    pub atv: i32,
    pub atv_range: i32,
    pub assault: i32,
    pub av: i32,
    pub aev: i32,
    pub mv: i32,
    pub mv_range: i32,
    /// Riders or passengers a vehicle carries (R22).
    pub capacity: i32,
}

/// One counter type of the counter sheets (all values are stand-ins: the sheets are lost).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Class {
    pub name: String,
    /// `us` or `germany`.
    pub nation: String,
    pub kind: Kind,
    /// Steps (§2.2): a squad has two.
    #[serde(default = "one")]
    pub steps: u32,
    pub values: Marked<Values>,
}

fn one() -> u32 {
    1
}

/// The terrain types of §4.1, as a map cell names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ground {
    /// §4.1.1 rural: meadows, fields.
    Open,
    /// §4.1.2 urban without buildings: plazas, market places.
    Plaza,
    Woods,
    Forest,
    /// §4.1.6a: rural stone and wooden buildings.
    Stone,
    Wooden,
    /// §4.1.6b: urban buildings; with a road through them, an urban road (§4.1.9).
    Urban,
    UrbanRoad,
    River,
    Bridge,
    Ford,
}

impl Ground {
    pub const ALL: [Ground; 11] = [
        Ground::Open,
        Ground::Plaza,
        Ground::Woods,
        Ground::Forest,
        Ground::Stone,
        Ground::Wooden,
        Ground::Urban,
        Ground::UrbanRoad,
        Ground::River,
        Ground::Bridge,
        Ground::Ford,
    ];

    /// The letter a map cell writes.
    pub fn letter(self) -> char {
        match self {
            Ground::Open => '.',
            Ground::Plaza => 'p',
            Ground::Woods => 'w',
            Ground::Forest => 'f',
            Ground::Stone => 's',
            Ground::Wooden => 'b',
            Ground::Urban => 'u',
            Ground::UrbanRoad => 'U',
            Ground::River => '~',
            Ground::Bridge => '=',
            Ground::Ford => 'F',
        }
    }

    pub fn from_letter(c: char) -> Option<Ground> {
        Ground::ALL.into_iter().find(|g| g.letter() == c)
    }

    /// The style name the map section uses for it.
    pub fn key(self) -> &'static str {
        match self {
            Ground::Open => "open",
            Ground::Plaza => "plaza",
            Ground::Woods => "woods",
            Ground::Forest => "forest",
            Ground::Stone => "stone",
            Ground::Wooden => "wooden",
            Ground::Urban => "urban",
            Ground::UrbanRoad => "urban_road",
            Ground::River => "river",
            Ground::Bridge => "bridge",
            Ground::Ford => "ford",
        }
    }
}

/// One Terrain Effects Table row (the table is lost; R7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainFx {
    /// The legend's word.
    pub name: String,
    /// MPs to enter on foot and by vehicle; a negative cost: vehicles may not enter.
    pub mp_foot: Num,
    pub mp_vehicle: Num,
    /// Small-arms and mortar TEM for non-vehicular defenders (negative helps the defender).
    pub tem: Num,
    /// Levels the terrain adds to a hill for LOS (§4.1.4).
    pub height: Num,
    /// §4.0c: blocking terrain hex (woods, forest) or feature (buildings).
    #[serde(default)]
    pub blocking: bool,
    /// §4.0b: cover terrain (for concealment also for vehicles in woods and forest).
    #[serde(default)]
    pub cover: bool,
    /// §4.1.6: a building (blocks LOS through its image, R5).
    #[serde(default)]
    pub building: bool,
}

/// Features that are not a hex's terrain: roads, hills, walls, positions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Features {
    /// §4.1.8: entering a road hex along the road.
    pub road_mp: Num,
    /// §4.1.4: extra MP per level climbed.
    pub uphill_mp: Num,
    /// §4.1.4: TEM on a hill against fire from a lower level.
    pub hill_tem: Num,
    /// §4.1.7: crossing a wall hexside, and its TEM.
    pub wall_mp: Num,
    pub wall_tem: Num,
    /// §4.1.13 and §4.1.14.
    pub ip_tem: Num,
    pub fp_tem: Num,
}

/// A fire result (§12 lost; R12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FireResult {
    None,
    /// One status worse (good → disrupted → shocked → a casualty).
    Disrupt,
    /// Straight to Shocked.
    Shock,
    /// One step lost; the rest disrupted.
    Casualty,
    /// Vehicles, guns, FPs: destroyed.
    Destroyed,
}

/// A row of a stand-in fire table: from this modified d10 up, this result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub at_least: i32,
    pub result: FireResult,
}

/// Range DRM segment: up to this many hexes, this DRM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeBand {
    pub up_to: u32,
    pub drm: i32,
}

/// The stand-in Random Event Table's events (§15 lost; R27).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    Quiet,
    /// The clock runs: minutes added to the Time Lapse track.
    TimePasses,
    /// One disrupted, regrouping or shocked unit of the player recovers.
    SecondWind,
    /// The player may not attempt Coordination this game turn.
    Confusion,
    /// One platoon leader of the player leaves the map until the Clean Up Phase.
    LeaderDown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventRow {
    pub up_to: u32,
    pub event: Event,
}

/// Every table the seed names and lost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tables {
    /// §4.2.3: rows = level difference 1, 2, …; columns = hexes to the obstacle 1, 2, …
    pub blind_hexes: Marked<Vec<Vec<u32>>>,
    /// Range DRM segments (§1.8).
    pub small_arms_range: Marked<Vec<RangeBand>>,
    pub anti_tank_range: Marked<Vec<RangeBand>>,
    /// Fire resolution by modified d10 (§12 lost).
    pub small_arms: Marked<Vec<Row>>,
    pub mortar: Marked<Vec<Row>>,
    pub anti_tank: Marked<Vec<Row>>,
    /// §5.0 VI: minutes by d10 (index 0 = a roll of 1).
    pub time_lapse: Marked<Vec<u32>>,
    /// §15: by d10.
    pub random_events: Marked<Vec<EventRow>>,
    /// Minutes a TimePasses event adds.
    pub time_passes_minutes: Num,
}

/// One printed sheet as `ruleset.toml` writes it: one line per printed row, one cell per
/// column: the terrain letter, the contour (0–9) and `r` for a road, e.g. `.0`, `w2`, `.1r`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sector {
    pub name: String,
    pub hexes: Marked<String>,
    /// Wall hexsides, `0405/0406`.
    #[serde(default)]
    pub walls: Vec<String>,
    /// Hexes with an Improved Position.
    #[serde(default)]
    pub ips: Vec<String>,
}

/// `games/last-hundred-yards/ruleset.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetData {
    pub rules: Rules,
    pub terrain: BTreeMap<Ground, TerrainFx>,
    pub features: Features,
    pub tables: Tables,
    pub classes: BTreeMap<String, Class>,
    /// The geomorphic map sectors (§ Maps and Sectors), stand-ins for the printed sheets.
    /// Only set-up reads them (the map is then in the state), so states do not carry them.
    #[serde(default, skip_serializing)]
    pub sectors: BTreeMap<String, Sector>,
    /// How the map is drawn (`[map]`: the renderer's open vocabulary; no rule here).
    pub map: crate::engine::scene::MapStyles,
    /// `[campaign]`: the carry-over numbers (R39–R42). Absent from files older than
    /// campaigns, and then not written into the state, so old games' digests still match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign: Option<CampaignData>,
}

/// A unit's quality between battles (campaigns, R42): its Cohesion DRM.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quality {
    pub name: String,
    pub cohesion: i32,
}

/// `[campaign]`: what a finished mission leaves for the next (the campaign pages are lost;
/// every number a stand-in, R39–R42).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignData {
    /// R40: the share of a side's reduced squads made whole again between missions.
    pub heal_share: Num,
    /// R41: squads made up between missions, by nation.
    pub replacements: Marked<BTreeMap<String, u32>>,
    /// R41: more for the side the victory level gives the mission to.
    pub replacements_won: Num,
    /// R42: the qualities, lowest first; the one with Cohesion DRM 0 is the counter as printed.
    pub qualities: Marked<Vec<Quality>>,
}

impl CampaignData {
    fn check(&self) -> Result<(), SetupRefused> {
        let q = self.qualities.get();
        if q.windows(2).any(|w| w[0].cohesion >= w[1].cohesion)
            || q.iter().filter(|x| x.cohesion == 0).count() != 1
        {
            return Err(SetupRefused::RulesetData(
                "ruleset.toml: campaign.qualities needs rising cohesion, one of them 0 \
                        (the counter as printed)"
                    .into(),
            ));
        }
        Ok(())
    }

    /// The Cohesion DRM of a quality (`None`: the counter as printed).
    pub fn drm(&self, quality: Option<&str>) -> i32 {
        quality
            .and_then(|n| self.qualities.get().into_iter().find(|q| q.name == n))
            .map_or(0, |q| q.cohesion)
    }

    /// Is `name` a quality of the file?
    pub fn knows(&self, name: &str) -> bool {
        self.qualities.get().iter().any(|q| q.name == name)
    }

    /// The quality one above `quality` (the top one stays); `None` is the printed counter.
    pub fn step_up(&self, quality: Option<&str>) -> Option<String> {
        let q = self.qualities.get();
        let at = q
            .iter()
            .position(|x| Some(x.name.as_str()) == quality)
            .or_else(|| q.iter().position(|x| x.cohesion == 0))
            .unwrap_or(0);
        q.get((at + 1).min(q.len().saturating_sub(1)))
            .filter(|x| x.cohesion != 0)
            .map(|x| x.name.clone())
    }

    /// The lowest quality: replacements and new leaders (R41, R39).
    pub fn lowest(&self) -> Option<String> {
        self.qualities
            .get()
            .first()
            .filter(|x| x.cohesion != 0)
            .map(|x| x.name.clone())
    }
}

impl TomlData for RulesetData {
    const FILE: &'static str = "ruleset.toml";
}

impl RulesetData {
    /// Reads and checks the file: every table non-empty and in order.
    pub fn load(text: &str) -> Result<Self, SetupRefused> {
        let d = Self::from_toml(text)?;
        for (name, rows) in [
            ("small_arms", &d.tables.small_arms),
            ("mortar", &d.tables.mortar),
            ("anti_tank", &d.tables.anti_tank),
        ] {
            let r = rows.get();
            if r.is_empty() || r.windows(2).any(|w| w[0].at_least >= w[1].at_least) {
                return Err(SetupRefused::RulesetData(format!(
                    "ruleset.toml: tables.{name} needs rows in rising at_least order"
                )));
            }
        }
        if d.tables.time_lapse.get().len() != 10 {
            return Err(SetupRefused::RulesetData(
                "ruleset.toml: tables.time_lapse needs ten entries (d10)".into(),
            ));
        }
        if d.tables.blind_hexes.get().iter().any(Vec::is_empty) {
            return Err(SetupRefused::RulesetData(
                "ruleset.toml: tables.blind_hexes has an empty row".into(),
            ));
        }
        for g in Ground::ALL {
            if !d.terrain.contains_key(&g) {
                return Err(SetupRefused::RulesetData(format!(
                    "ruleset.toml: terrain.{} is missing",
                    g.key()
                )));
            }
        }
        if let Some(c) = &d.campaign {
            c.check()?;
        }
        for (name, sector) in &d.sectors {
            sector.check().map_err(|e| {
                SetupRefused::RulesetData(format!("ruleset.toml: sectors.{name}: {e}"))
            })?;
        }
        Ok(d)
    }

    pub fn fx(&self, g: Ground) -> &TerrainFx {
        &self.terrain[&g]
    }

    pub fn class(&self, key: &str) -> Option<&Class> {
        self.classes.get(key)
    }

    /// The result a fire table gives a modified d10.
    pub fn result(rows: &[Row], modified: i32) -> FireResult {
        rows.iter()
            .rev()
            .find(|r| modified >= r.at_least)
            .map_or(FireResult::None, |r| r.result)
    }

    /// Range DRM for `hexes`, or `None` beyond the last band.
    pub fn range_drm(bands: &[RangeBand], hexes: u32) -> Option<i32> {
        bands.iter().find(|b| hexes <= b.up_to).map(|b| b.drm)
    }

    /// §4.2.3 Blind Hex Table: blind hexes behind an obstacle `diff` levels below the higher
    /// end and `hexes` away from it (beyond the table: its last row or column).
    pub fn blind_hexes(&self, diff: i32, hexes: u32) -> u32 {
        let t = self.tables.blind_hexes.get();
        if diff < 1 || t.is_empty() {
            return 0;
        }
        let row = &t[(diff as usize - 1).min(t.len() - 1)];
        row[(hexes.max(1) as usize - 1).min(row.len() - 1)]
    }
}
