//! Battle Tanks setups (`scenarios/battle-tanks/*.ron`), read and validated.
//!
//! A setup names the commanders (2 to 8, in seat order) and may override any rules
//! number or reading in its `rules` block. The validated [`BattleSetup`] carries
//! everything a match needs, so a match record that holds it replays exactly.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::data::{self, Diagnostics, Problems};

/// The default setup (four commanders), compiled in.
pub const BUILTIN_SETUP: &str = include_str!("../../../scenarios/battle-tanks/default.ron");

/// How a game that starts with exactly two commanders is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum TwoPlayerStart {
    /// Ordinary battles until one commander has no dice left (the other wins): a variant.
    Battles,
    /// Straight to the Final Battle: the rulebook's "the last 2 players have a Final
    /// Battle", as written.
    #[default]
    FinalBattle,
}

/// Which matched dice go to War.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum WarMatches {
    /// Every die that matches another (any pair, not only the highest) and every die
    /// above the highest match: the rulebook's "any matching dice AND any dice that are
    /// higher than the highest match".
    #[default]
    All,
    /// Only the highest match and the dice above it; a lower pair stays as loot.
    Highest,
}

/// The rulebook's numbers and our readings of its gaps. Every field defaults to the
/// rulebook's value (or our reading); a setup may override any of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BattleRules {
    /// Tanks in each starting arsenal.
    pub tanks: u8,
    /// Nukes in each starting arsenal.
    pub nukes: u8,
    /// Free dice in the bag at the start (each is handed out once and stays in the game).
    pub bag: u8,
    /// Added to a Nuke's roll (not to a misfire).
    pub nuke_bonus: u8,
    /// Taken from a free die's roll.
    pub free_die_penalty: u8,
    /// Nobody may roll a Nuke on the very first roll of the game.
    pub first_roll_no_nuke: bool,
    /// What a two-commander game plays.
    pub two_player_start: TwoPlayerStart,
    /// Which matched dice go to War.
    pub war_matches: WarMatches,
    /// Meganukes in one roll that destroy the world (fewer, from two, destroy the
    /// Battlefield).
    pub world_end_meganukes: u8,
    /// Final Battle: the Tank face that does damage.
    pub tank_damage_face: u8,
    /// Final Battle: the Nuke face (before the bonus) that does damage.
    pub nuke_damage_face: u8,
    /// Final Battle: damage of a Tank's or a Nuke's damaging face.
    pub hit_damage: u8,
    /// Final Battle: damage of a Meganuke.
    pub meganuke_damage: u8,
    /// Battles before the game is drawn.
    pub battle_limit: u32,
}

impl Default for BattleRules {
    fn default() -> Self {
        Self {
            tanks: 5,
            nukes: 1,
            bag: 8,
            nuke_bonus: 1,
            free_die_penalty: 1,
            first_roll_no_nuke: true,
            two_player_start: TwoPlayerStart::FinalBattle,
            war_matches: WarMatches::All,
            world_end_meganukes: 3,
            tank_damage_face: 6,
            nuke_damage_face: 5,
            hit_damage: 1,
            meganuke_damage: 3,
            battle_limit: 200,
        }
    }
}

/// A Battle Tanks setup file as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "BattleTanksSetup")]
pub struct BattleTanksSetup {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// The commanders' names, in seat order.
    pub players: Vec<String>,
    #[serde(default)]
    pub rules: BattleRules,
}

/// A validated setup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleSetup {
    pub name: String,
    pub description: String,
    /// The commanders' names, in seat order (2 to 8).
    pub players: Vec<String>,
    pub rules: BattleRules,
}

impl From<BattleSetup> for BattleTanksSetup {
    /// The setup as a file would write it, to be validated again.
    fn from(setup: BattleSetup) -> Self {
        Self {
            name: setup.name,
            description: setup.description,
            players: setup.players,
            rules: setup.rules,
        }
    }
}

impl BattleSetup {
    /// The shipped default setup.
    ///
    /// # Panics
    /// Never in a release: a unit test checks the shipped file.
    #[must_use]
    pub fn builtin_default() -> Self {
        Self::parse(
            Path::new("scenarios/battle-tanks/default.ron"),
            BUILTIN_SETUP,
        )
        .expect("the shipped default Battle Tanks setup is valid")
    }

    /// A setup of `n` commanders named Ann, Bob, Cat... with the rulebook's rules.
    #[must_use]
    pub fn with_players(n: usize) -> Self {
        const NAMES: [&str; 8] = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"];
        Self {
            name: format!("{n} commanders"),
            description: String::new(),
            players: NAMES
                .iter()
                .take(n.clamp(2, 8))
                .map(ToString::to_string)
                .collect(),
            rules: BattleRules::default(),
        }
    }

    /// Reads and validates a setup's text; `path` names the file in diagnostics.
    ///
    /// # Errors
    /// Every problem, each placed in the file.
    pub fn parse(path: &Path, text: &str) -> Result<Self, Diagnostics> {
        data::parse_validated(&path.display().to_string(), text, Self::validate)
    }

    /// Validates a setup: 2 to 8 named commanders, sane rules numbers.
    ///
    /// # Errors
    /// Every problem found, by field.
    pub fn validate(setup: BattleTanksSetup) -> Result<Self, Problems> {
        let mut p = Problems::default();
        if setup.name.trim().is_empty() {
            p.push("name", "a setup needs a name");
        }
        if !(2..=8).contains(&setup.players.len()) {
            p.push(
                "players",
                format!(
                    "Battle Tanks is played by 2 to 8 commanders, not {}",
                    setup.players.len()
                ),
            );
        }
        data::check_names(
            &mut p,
            ("a commander", "commanders"),
            setup
                .players
                .iter()
                .enumerate()
                .map(|(i, name)| (format!("players[{i}]"), name.as_str())),
        );
        let r = &setup.rules;
        if r.tanks == 0 {
            p.push("rules.tanks", "each arsenal needs at least 1 Tank");
        }
        if r.tanks > 50 {
            p.push("rules.tanks", "an arsenal holds at most 50 Tanks");
        }
        p.range("rules.nukes", r.nukes, 0..=50, "an arsenal's Nukes");
        p.range("rules.bag", r.bag, 0..=50, "the free-die bag");
        p.range(
            "rules.hit_damage",
            r.hit_damage,
            1..=20,
            "the damage of a damaging face",
        );
        p.range(
            "rules.meganuke_damage",
            r.meganuke_damage,
            1..=20,
            "a Meganuke's damage",
        );
        if r.nuke_bonus > 5 {
            p.push("rules.nuke_bonus", "the Nuke bonus must be 0 to 5");
        }
        if r.free_die_penalty > 4 {
            p.push(
                "rules.free_die_penalty",
                "the free die penalty must be 0 to 4",
            );
        }
        if r.world_end_meganukes < 3 {
            p.push(
                "rules.world_end_meganukes",
                "the world ends with 3 or more Meganukes (2 are a Double Meganuke)",
            );
        }
        for (field, face) in [
            ("rules.tank_damage_face", r.tank_damage_face),
            ("rules.nuke_damage_face", r.nuke_damage_face),
        ] {
            if !(2..=6).contains(&face) {
                p.push(field, "a damaging face must be 2 to 6");
            }
        }
        if r.battle_limit == 0 {
            p.push("rules.battle_limit", "the battle limit must be at least 1");
        }
        if !p.is_empty() {
            return Err(p);
        }
        Ok(Self {
            name: setup.name,
            description: setup.description,
            players: setup.players,
            rules: setup.rules,
        })
    }
}
