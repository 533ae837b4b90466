//! Range Duel data: the duel's rules table (`assets/rules/range-duel.ron`) and setups
//! (`scenarios/range-duel/*.ron`), read and validated.
//!
//! A setup names two Tank Commander tanks (inline [`TankDesign`]s or paths to design
//! files), the starting range band, and any rule switches. Validation resolves the design
//! files, checks each build against the Tank Commander rules, and copies both rules tables
//! into the validated [`DuelSetup`], so a match record that carries it replays exactly.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::data::{self, Diagnostics, Problems, SourceMap};
use crate::rules::tank_commander::setup::{self as tc, TankDesign, find_project_file};

/// The duel's rules table shipped with the game, compiled in as a fallback.
pub const BUILTIN_TABLE: &str = include_str!("../../../assets/rules/range-duel.ron");
/// Where the duel's rules table lives, relative to the project root.
pub const TABLE_PATH: &str = "assets/rules/range-duel.ron";
/// The default setup, compiled in.
pub const BUILTIN_SETUP: &str = include_str!("../../../scenarios/range-duel/default.ron");

/// One range band.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Band {
    pub name: String,
    /// The Tank Commander distance this band stands for, compared with gun range.
    pub hexes: u8,
    /// Added to the shooter's to-hit target number at this band.
    pub to_hit: i8,
}

/// The Driving test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrivingTable {
    /// Number of d6 rolled.
    pub dice: u8,
    /// The total needed to pass.
    pub target: u8,
    /// Added by the Engine upgrade.
    pub engine_bonus: i8,
    /// Added while the driver is wounded (or replaced by the lieutenant).
    pub driver_impaired: i8,
    /// Added while nobody drives.
    pub driver_out: i8,
    /// Added while the commander is wounded (or replaced).
    pub commander_impaired: i8,
    /// Added while nobody commands.
    pub commander_out: i8,
}

/// Which armor a hit location strikes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LocationArmor {
    /// Always the front armor (a turret turned towards the enemy).
    Front,
    /// The facing the tank presents to the enemy this turn.
    Presented,
}

/// One row of the hit location table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    pub name: String,
    /// Lowest d6 face of this location.
    pub from: u8,
    /// Highest d6 face of this location.
    pub to: u8,
    /// A turret hit: Hull Down never negates it.
    pub turret: bool,
    pub armor: LocationArmor,
}

/// The duel's own numbers, read from `assets/rules/range-duel.ron`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "RangeDuelRules")]
pub struct DuelTable {
    /// Range bands, nearest (Adjacent) first.
    pub bands: Vec<Band>,
    pub driving: DrivingTable,
    /// Drive Effect by Top Speed; the last entry serves any higher speed.
    pub drive_effect: Vec<u8>,
    /// Collision damage points per hull point lost.
    pub ram_damage_per_hull: u8,
    /// Hit locations by one d6.
    pub locations: Vec<Location>,
}

impl DuelTable {
    /// The table compiled into the binary.
    ///
    /// # Panics
    /// Never in a release: a unit test checks the shipped file.
    #[must_use]
    pub fn builtin() -> Self {
        Self::parse(TABLE_PATH, BUILTIN_TABLE).expect("the shipped range duel table is valid")
    }

    /// Reads and checks a table.
    ///
    /// # Errors
    /// Every problem, placed in the file.
    pub fn parse(file: &str, text: &str) -> Result<Self, Diagnostics> {
        let (table, map, mut problems): (DuelTable, SourceMap, _) =
            data::load_ron_collecting(file, text)?;
        problems.extend(table.problems());
        if problems.is_empty() {
            Ok(table)
        } else {
            Err(problems.locate(file, &map))
        }
    }

    /// Loads the table: `path` if given, else the project's file if present, else the
    /// compiled-in copy.
    ///
    /// # Errors
    /// Every problem in the file.
    pub fn load(path: Option<&Path>) -> Result<Self, Diagnostics> {
        data::load_table(path, TABLE_PATH, Self::builtin, Self::parse)
    }

    /// The band at `index`, clamped to the table.
    #[must_use]
    pub fn band(&self, index: u8) -> &Band {
        &self.bands[usize::from(index).min(self.bands.len() - 1)]
    }

    /// The farthest band's index.
    #[must_use]
    pub fn farthest(&self) -> u8 {
        u8::try_from(self.bands.len() - 1).unwrap_or(u8::MAX)
    }

    /// The band index named `name`.
    #[must_use]
    pub fn band_named(&self, name: &str) -> Option<u8> {
        self.bands
            .iter()
            .position(|b| b.name.eq_ignore_ascii_case(name))
            .and_then(|i| u8::try_from(i).ok())
    }

    /// Drive Effect at `top_speed`.
    #[must_use]
    pub fn drive_effect(&self, top_speed: u8) -> u8 {
        let i = usize::from(top_speed).min(self.drive_effect.len().saturating_sub(1));
        self.drive_effect.get(i).copied().unwrap_or(1)
    }

    /// The location for a d6 face.
    #[must_use]
    pub fn location(&self, face: u8) -> &Location {
        self.locations
            .iter()
            .find(|l| (l.from..=l.to).contains(&face))
            .unwrap_or(&self.locations[self.locations.len() - 1])
    }

    pub(crate) fn problems(&self) -> Problems {
        let mut p = Problems::default();
        self.band_problems(&mut p);
        self.driving_problems(&mut p);
        if self.drive_effect.is_empty() {
            p.push("drive_effect", "give at least one Drive Effect value");
        }
        for (i, effect) in self.drive_effect.iter().enumerate() {
            // It multiplies 2d6 of sideswipe damage.
            p.range(
                format!("drive_effect[{i}]"),
                *effect,
                0..=6,
                "a Drive Effect",
            );
        }
        if self.ram_damage_per_hull == 0 {
            p.push(
                "ram_damage_per_hull",
                "collision damage per hull point must be at least 1",
            );
        }
        self.location_problems(&mut p);
        p
    }

    /// The range bands' problems: their count and names, and each band's distance and
    /// to-hit modifier.
    fn band_problems(&self, p: &mut Problems) {
        if !(2..=20).contains(&self.bands.len()) {
            p.push(
                "bands",
                "the duel needs 2 to 20 range bands (Adjacent and Close first)",
            );
        }
        data::check_names(
            p,
            ("a band", "bands"),
            self.bands
                .iter()
                .enumerate()
                .map(|(i, b)| (format!("bands[{i}].name"), b.name.as_str())),
        );
        for (i, b) in self.bands.iter().enumerate() {
            if i > 0 && b.hexes < self.bands[i - 1].hexes {
                p.push(
                    format!("bands[{i}].hexes"),
                    "bands run from nearest to farthest: hexes must not decrease",
                );
            }
            // No gun reaches past 40 hexes (gun range and barrel are 20 at most each).
            p.range(
                format!("bands[{i}].hexes"),
                b.hexes,
                1..=40,
                "a band's distance in hexes",
            );
            // Added to a d6 target number: beyond ±6 every shot is sure or impossible.
            p.range(
                format!("bands[{i}].to_hit"),
                b.to_hit,
                -6..=6,
                "a band's to-hit modifier",
            );
        }
    }

    /// The Driving test's problems: its dice, its target and its modifiers.
    fn driving_problems(&self, p: &mut Problems) {
        let d = &self.driving;
        if !(1..=4).contains(&d.dice) {
            p.push("driving.dice", "the Driving test rolls 1 to 4 dice");
        } else {
            // A total the dice can make; each modifier at most the dice's whole spread.
            let most = 6 * d.dice;
            p.range(
                "driving.target",
                d.target,
                d.dice..=most,
                &format!("the Driving target on {}d6", d.dice),
            );
            let most = i8::try_from(most).unwrap_or(i8::MAX);
            p.range(
                "driving.engine_bonus",
                d.engine_bonus,
                0..=most,
                "the Engine's Driving bonus",
            );
            for (field, value) in [
                ("driving.driver_impaired", d.driver_impaired),
                ("driving.driver_out", d.driver_out),
                ("driving.commander_impaired", d.commander_impaired),
                ("driving.commander_out", d.commander_out),
            ] {
                p.range(
                    field,
                    value,
                    -most..=0,
                    "a crew penalty to the Driving test",
                );
            }
        }
    }

    /// The hit locations' problems: each must cover d6 faces, and together every face
    /// exactly once.
    fn location_problems(&self, p: &mut Problems) {
        let mut covered = [0usize; 6];
        for (i, l) in self.locations.iter().enumerate() {
            if l.from < 1 || l.to > 6 || l.from > l.to {
                p.push(
                    format!("locations[{i}]"),
                    format!("`{}` must cover d6 faces with 1 <= from <= to <= 6", l.name),
                );
                continue;
            }
            for f in l.from..=l.to {
                covered[usize::from(f - 1)] += 1;
            }
        }
        if covered.iter().any(|&c| c != 1) {
            p.push(
                "locations",
                "the hit locations must cover every d6 face from 1 to 6 exactly once",
            );
        }
    }
}

/// The design of tank entry `i` and the field it was given in (`tanks[i].design` or
/// `tanks[i].file`); none, with its problem, when it gives both, neither, or a file that
/// does not read.
fn entry_design(
    entry: &TankEntry,
    i: usize,
    base: &Path,
    p: &mut Problems,
) -> Option<(TankDesign, String)> {
    let path = format!("tanks[{i}]");
    match (&entry.design, &entry.file) {
        (Some(d), None) => Some((d.clone(), format!("{path}.design"))),
        (None, Some(f)) => match read_design(base, f) {
            Ok(d) => Some((d, format!("{path}.file"))),
            Err(why) => {
                p.push(format!("{path}.file"), why.to_string());
                None
            }
        },
        (Some(_), Some(_)) => {
            p.push(
                path.clone(),
                "give a tank either `design` or `file`, not both",
            );
            None
        }
        (None, None) => {
            p.push(path.clone(), "a tank needs a `design` or a `file`");
            None
        }
    }
}

/// A design's build problems under the Tank Commander rules, and the upgrades it may not
/// take into a duel when `idle` refuses them, at `at`.
fn build_problems(
    design: &TankDesign,
    at: &str,
    idle: IdleUpgrades,
    tank_rules: &tc::Rules,
    p: &mut Problems,
) {
    let inline = at.ends_with(".design");
    for problem in design.build.problems(
        crate::rules::tank_commander::UnitKind::Tank,
        tank_rules,
        design.painted,
        design.named,
    ) {
        let field = if !inline {
            at.to_string()
        } else if problem.field.is_empty() {
            format!("{at}.build")
        } else {
            format!("{at}.build.{}", problem.field)
        };
        p.push(field, format!("`{}`: {}", design.name, problem.message));
    }
    if idle == IdleUpgrades::Refuse {
        for (field, why) in idle_upgrades(&design.build) {
            p.push(
                if inline {
                    format!("{at}.build.{field}")
                } else {
                    at.to_string()
                },
                format!(
                    "`{}`: {why} (take it off, or set `rules: (idle_upgrades: Allow)`)",
                    design.name
                ),
            );
        }
    }
}

/// The crew members a design that claims the named bonus leaves without a name.
fn named_crew_problems(design: &TankDesign, at: &str, p: &mut Problems) {
    let inline = at.ends_with(".design");
    let c = &design.crew;
    let mut missing: Vec<&str> = [
        ("commander", &c.commander),
        ("driver", &c.driver),
        ("gunner", &c.gunner),
        ("loader", &c.loader),
    ]
    .into_iter()
    .filter(|(_, n)| n.trim().is_empty())
    .map(|(r, _)| r)
    .collect();
    if design.build.lieutenant && c.lieutenant.trim().is_empty() {
        missing.push("lieutenant");
    }
    if !missing.is_empty() {
        p.push(
            if inline {
                format!("{at}.named")
            } else {
                at.to_string()
            },
            format!(
                "`{}` claims the named bonus but its {} has no name",
                design.name,
                missing.join(", ")
            ),
        );
    }
}

/// The duel rules' problems: the turn limit, the overshoot band and every shift in range
/// bands, against `table`'s bands.
fn rules_problems(r: &DuelRules, table: &DuelTable, p: &mut Problems) {
    if r.turn_limit == 0 {
        p.push("rules.turn_limit", "the turn limit must be at least 1");
    }
    if r.overshoot_band > table.farthest() {
        p.push(
            "rules.overshoot_band",
            format!(
                "there is no band {} (bands run 0 to {})",
                r.overshoot_band,
                table.farthest()
            ),
        );
    }
    let farthest = table.farthest();
    let shift = format!("a shift in range bands (the bands run 0 to {farthest})");
    for (field, value) in [
        ("rules.change_vs_change", r.change_vs_change),
        ("rules.change_vs_change_same", r.change_vs_change_same),
        ("rules.maneuver_back_off", r.maneuver_back_off),
    ] {
        p.range(field, value, 0..=farthest, &shift);
    }
    for (field, s) in [
        ("rules.change_vs_maneuver", r.change_vs_maneuver),
        ("rules.change_vs_hull_down", r.change_vs_hull_down),
        ("rules.maneuver_vs_hull_down", r.maneuver_vs_hull_down),
    ] {
        p.range(format!("{field}.success"), s.success, 0..=farthest, &shift);
        if s.failure > s.success {
            p.push(
                format!("{field}.failure"),
                "a failed test cannot shift the range more than a passed one",
            );
        }
    }
}

/// A tank of the duel: a design written inline, or the path of a design file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct TankEntry {
    /// The design itself, in the builder's format.
    pub design: Option<TankDesign>,
    /// A `TankDesign` file (e.g. `builds/brawler.ron`), relative to the setup file or the
    /// project root.
    pub file: Option<String>,
}

/// Who wins Driving when both totals are equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum DrivingTie {
    /// Nobody wins Driving.
    #[default]
    NoWinner,
    /// Both drivers roll again until the totals differ (at most ten times, then nobody).
    Reroll,
}

/// The facing of a tank that opens the range while its enemy opens the range too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum BothOpening {
    /// "Front if the enemy is increasing range" wins.
    #[default]
    Front,
    /// "Rear if increasing range" wins.
    Rear,
}

/// The upgrades of `build` that do nothing in a duel, each with its field and why: the
/// duel has no map, no infantry, no APCs and no turn of its own for smoke or aircraft.
#[must_use]
pub fn idle_upgrades(build: &tc::Build) -> Vec<(&'static str, &'static str)> {
    [
        (
            build.he_rounds,
            "he_rounds",
            "HE rounds do nothing in a Range Duel: they are for infantry and APCs, and a duel has neither",
        ),
        (
            build.anti_infantry,
            "anti_infantry",
            "anti-infantry does nothing in a Range Duel: a duel has no infantry",
        ),
        (
            build.smoke_launcher,
            "smoke_launcher",
            "a smoke launcher does nothing in a Range Duel: the matrix has no smoke (Hull Down is the duel's cover)",
        ),
        (
            build.air_support,
            "air_support",
            "air support does nothing in a Range Duel: a duel has no map for the aircraft",
        ),
        (
            build.mines > 0,
            "mines",
            "mines do nothing in a Range Duel: a duel has no hexes to lay them in",
        ),
    ]
    .into_iter()
    .filter_map(|(on, field, why)| on.then_some((field, why)))
    .collect()
}

/// Whether a duel build may pay for upgrades that do nothing in a duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum IdleUpgrades {
    /// Refused, with the reason: a point spent on them buys nothing.
    #[default]
    Refuse,
    /// Allowed (they cost points and do nothing), as Tank Commander's builder allows them.
    Allow,
}

/// Who fires first after movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum FireOrder {
    /// The Driving winner fires first; a tank it knocks out does not fire back. With no
    /// Driving winner both fire together.
    #[default]
    DrivingWinnerFirst,
    /// Both guns fire together: a tank knocked out by the other's shot still fires.
    Simultaneous,
}

/// Whose armor a collision formula's "facing armor" is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum CollisionArmor {
    /// The rammed tank's armor on the side it shows, in every formula: the one reading
    /// that fits the T-Bone's written "Defender's Facing Armor" and the rule that the
    /// armor affected is the facing that set the collision type.
    #[default]
    Defender,
    /// Each tank's own armor on the side it shows, for the damage it takes.
    Own,
}

/// A range change with and without a passed Driving test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shift {
    pub success: u8,
    pub failure: u8,
}

/// The rulebook's numbers and our readings of its ambiguous rules. Every field has the
/// rulebook's value (or our reading) by default; a setup may override any of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DuelRules {
    /// Combat turns before the duel is drawn.
    pub turn_limit: u16,
    /// Change Range vs Change Range, opposite directions: the Driving winner's shift.
    pub change_vs_change: u8,
    /// Change Range vs Change Range, same direction: the shift.
    pub change_vs_change_same: u8,
    /// Change Range vs Maneuver: the changer's shift.
    pub change_vs_maneuver: Shift,
    /// Change Range vs Hull Down: the changer's shift.
    pub change_vs_hull_down: Shift,
    /// Maneuver vs Hull Down: the maneuvering tank's shift.
    pub maneuver_vs_hull_down: Shift,
    /// Maneuver vs Maneuver: the range increase either driver may declare.
    pub maneuver_back_off: u8,
    /// The band (index) tanks land on when they overshoot: Close.
    pub overshoot_band: u8,
    pub driving_tie: DrivingTie,
    pub both_opening: BothOpening,
    /// Whose armor the ram formulas read.
    pub collision_armor: CollisionArmor,
    /// Builds with upgrades that do nothing in a duel.
    pub idle_upgrades: IdleUpgrades,
    /// Who fires first.
    pub fire_order: FireOrder,
    /// Whether a tank with no driver (Top Speed 0) may still order a range change. Tank
    /// Commander's rule, the default: a tank without its driver cannot move.
    pub driverless_moves: bool,
    /// A ram needs the rammer to have passed this turn's Driving test.
    pub ram_needs_pass: bool,
}

impl Default for DuelRules {
    fn default() -> Self {
        Self {
            turn_limit: 12,
            change_vs_change: 1,
            change_vs_change_same: 2,
            change_vs_maneuver: Shift {
                success: 2,
                failure: 1,
            },
            change_vs_hull_down: Shift {
                success: 3,
                failure: 2,
            },
            maneuver_vs_hull_down: Shift {
                success: 1,
                failure: 0,
            },
            maneuver_back_off: 1,
            overshoot_band: 1,
            driving_tie: DrivingTie::NoWinner,
            both_opening: BothOpening::Front,
            collision_armor: CollisionArmor::Defender,
            idle_upgrades: IdleUpgrades::Refuse,
            fire_order: FireOrder::DrivingWinnerFirst,
            driverless_moves: false,
            ram_needs_pass: true,
        }
    }
}

/// A Range Duel setup file as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "RangeDuelSetup")]
pub struct RangeDuelSetup {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// The two tanks: tank 1 (player 1) first.
    pub tanks: Vec<TankEntry>,
    /// The starting band, by name (`"Medium"`).
    pub start_range: String,
    #[serde(default)]
    pub rules: DuelRules,
}

/// A validated setup: both designs resolved, both rules tables copied in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DuelSetup {
    pub name: String,
    pub description: String,
    pub tanks: [TankDesign; 2],
    /// The starting band's index.
    pub start_range: u8,
    pub rules: DuelRules,
    pub table: DuelTable,
    /// The Tank Commander rules the tanks are built and fought with.
    pub tank_rules: tc::Rules,
}

impl DuelSetup {
    /// The default setup with the shipped tables.
    ///
    /// # Panics
    /// Never in a release: a unit test checks the shipped file.
    #[must_use]
    pub fn builtin_default() -> Self {
        Self::parse_with(
            Path::new("scenarios/range-duel/default.ron"),
            BUILTIN_SETUP,
            &DuelTable::builtin(),
            &tc::Rules::builtin(),
        )
        .expect("the shipped default duel is valid")
    }

    /// Reads and validates a setup with the project's rules tables.
    ///
    /// # Errors
    /// Every problem, placed in its file.
    pub fn parse(path: &Path, text: &str) -> Result<Self, Diagnostics> {
        let table = DuelTable::load(None)?;
        let tank_rules = tc::Rules::load(None)?;
        Self::parse_with(path, text, &table, &tank_rules)
    }

    /// Reads and validates a setup with the given tables. Design files are looked up
    /// beside `path`, then in the project.
    ///
    /// # Errors
    /// Every problem, placed in its file.
    pub fn parse_with(
        path: &Path,
        text: &str,
        table: &DuelTable,
        tank_rules: &tc::Rules,
    ) -> Result<Self, Diagnostics> {
        let base = path.parent().unwrap_or(Path::new(""));
        data::parse_validated(
            &path.display().to_string(),
            text,
            |setup: RangeDuelSetup| Self::validate(setup, base, table, tank_rules),
        )
    }

    /// Checks a setup read back from a record as its files would be checked: the
    /// embedded tables, then the setup against them.
    ///
    /// # Errors
    /// Every problem found, by field of the setup.
    pub fn revalidate(setup: DuelSetup, base: &Path) -> Result<Self, Problems> {
        let mut p = setup.table.problems().within("table");
        p.extend(setup.tank_rules.problems().within("tank_rules"));
        if !p.is_empty() {
            return Err(p);
        }
        let start_range = match setup.table.bands.get(usize::from(setup.start_range)) {
            Some(band) => band.name.clone(),
            None => {
                p.push(
                    "start_range",
                    format!(
                        "there is no band {} (bands run 0 to {})",
                        setup.start_range,
                        setup.table.farthest()
                    ),
                );
                return Err(p);
            }
        };
        let raw = RangeDuelSetup {
            name: setup.name,
            description: setup.description,
            tanks: setup
                .tanks
                .into_iter()
                .map(|design| TankEntry {
                    design: Some(design),
                    file: None,
                })
                .collect(),
            start_range,
            rules: setup.rules,
        };
        Self::validate(raw, base, &setup.table, &setup.tank_rules)
    }

    /// Validates a setup: two tanks, each one design that the Tank Commander build rules
    /// allow, a known starting band, sane rules.
    ///
    /// # Errors
    /// Every problem found, by field.
    pub fn validate(
        setup: RangeDuelSetup,
        base: &Path,
        table: &DuelTable,
        tank_rules: &tc::Rules,
    ) -> Result<Self, Problems> {
        let mut p = Problems::default();
        if setup.name.trim().is_empty() {
            p.push("name", "a duel needs a name");
        }
        if setup.tanks.len() != 2 {
            p.push(
                "tanks",
                format!("a duel is fought by 2 tanks, not {}", setup.tanks.len()),
            );
        }
        let mut designs = Vec::new();
        let mut names = Vec::new();
        for (i, entry) in setup.tanks.iter().enumerate() {
            let Some((design, at)) = entry_design(entry, i, base, &mut p) else {
                continue;
            };
            let inline = at.ends_with(".design");
            design.crew.check(
                &if inline {
                    format!("{at}.crew")
                } else {
                    at.clone()
                },
                &mut p,
            );
            names.push((
                if inline {
                    format!("{at}.name")
                } else {
                    at.clone()
                },
                design.name.clone(),
            ));
            build_problems(&design, &at, setup.rules.idle_upgrades, tank_rules, &mut p);
            if design.named {
                named_crew_problems(&design, &at, &mut p);
            }
            designs.push(design);
        }
        data::check_names(
            &mut p,
            ("a tank", "tanks"),
            names.iter().map(|(at, name)| (at.clone(), name.as_str())),
        );
        let start = table.band_named(&setup.start_range);
        if start.is_none() {
            let names: Vec<&str> = table.bands.iter().map(|b| b.name.as_str()).collect();
            p.push(
                "start_range",
                format!(
                    "`{}` is not a range band (bands: {})",
                    setup.start_range,
                    names.join(", ")
                ),
            );
        }
        rules_problems(&setup.rules, table, &mut p);
        if !p.is_empty() {
            return Err(p);
        }
        let [a, b]: [TankDesign; 2] = designs
            .try_into()
            .map_err(|_| Problems(vec![("tanks".into(), "a duel needs 2 tanks".into())]))?;
        Ok(Self {
            name: setup.name,
            description: setup.description,
            tanks: [a, b],
            start_range: start.unwrap_or(0),
            rules: setup.rules,
            table: table.clone(),
            tank_rules: tank_rules.clone(),
        })
    }
}

/// Why a tank's design file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DesignFileError {
    /// Neither beside the setup nor in the project.
    #[error("no design file `{0}`")]
    Missing(String),
    /// The file is there but does not read.
    #[error("cannot read the design file `{name}`: {source}")]
    Unreadable {
        name: String,
        source: std::io::Error,
    },
    /// The file reads but is not a `TankDesign`.
    #[error("the design file is not valid: {0}")]
    Invalid(#[from] Diagnostics),
}

/// Reads a `TankDesign` file relative to `base`, else the project.
///
/// # Errors
/// The file is missing, unreadable or not a design.
fn read_design(base: &Path, file: &str) -> Result<TankDesign, DesignFileError> {
    let beside = base.join(file);
    let path = if beside.exists() {
        beside
    } else {
        find_project_file(file).ok_or_else(|| DesignFileError::Missing(file.to_string()))?
    };
    let name = path.display().to_string();
    let text = std::fs::read_to_string(&path).map_err(|source| DesignFileError::Unreadable {
        name: name.clone(),
        source,
    })?;
    let (design, _) = data::load_ron::<TankDesign>(&name, &text)?;
    Ok(design)
}
