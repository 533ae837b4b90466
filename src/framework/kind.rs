//! The five games Tanktable ships, by name: what the framework's [`Playable`](super::Playable)
//! and everything above it call a game by. The registry that tells a file's game and kind
//! is [`crate::rules::detect`].

use std::fmt;

use serde::{Deserialize, Serialize};

/// One of the five games Tanktable ships.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum GameKind {
    TankCommander,
    TankChess,
    BattleTanks,
    TankCombat,
    RangeDuel,
}

impl GameKind {
    /// Every game, in menu order.
    pub const ALL: [GameKind; 5] = [
        GameKind::TankCommander,
        GameKind::TankChess,
        GameKind::BattleTanks,
        GameKind::TankCombat,
        GameKind::RangeDuel,
    ];

    /// The game's name in match records and file names (`"range-duel"`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::TankCommander => "tank-commander",
            GameKind::TankChess => "tank-chess",
            GameKind::BattleTanks => "battle-tanks",
            GameKind::TankCombat => "tank-combat",
            GameKind::RangeDuel => "range-duel",
        }
    }

    /// The game's name for people.
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            GameKind::TankCommander => "Tank Commander",
            GameKind::TankChess => "Tank Chess",
            GameKind::BattleTanks => "Battle Tanks",
            GameKind::TankCombat => "Tank Combat",
            GameKind::RangeDuel => "Range Duel",
        }
    }

    /// One line on what the game is, for the menu.
    #[must_use]
    pub const fn tagline(self) -> &'static str {
        match self {
            GameKind::TankCommander => {
                "Hex-grid tank battles: crews, upgrades, terrain, line of sight and exact odds."
            }
            GameKind::TankChess => {
                "A square board, facing-based armor, check, checkmate and escapemate."
            }
            GameKind::BattleTanks => "A dice game for 2 to 8 commanders: Tanks, Nukes, War.",
            GameKind::TankCombat => "A card game: a 100-card deck, hidden hands, interrupts.",
            GameKind::RangeDuel => "Two tanks, no map: secret maneuvers and the range matrix.",
        }
    }

    /// The game of a record's `game` field.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The folder of its shipped setups, relative to the project.
    #[must_use]
    pub const fn folder(self) -> &'static str {
        match self {
            GameKind::TankCommander => "scenarios",
            GameKind::TankChess => "scenarios/tank-chess",
            GameKind::BattleTanks => "scenarios/battle-tanks",
            GameKind::TankCombat => "scenarios/tank-combat",
            GameKind::RangeDuel => "scenarios/range-duel",
        }
    }

    /// The setup a new game opens on when none is named, relative to the project.
    #[must_use]
    pub const fn default_setup(self) -> &'static str {
        match self {
            GameKind::TankCommander => "scenarios/skirmish.ron",
            GameKind::TankChess => "scenarios/tank-chess/basic-16.ron",
            GameKind::BattleTanks => "scenarios/battle-tanks/default.ron",
            GameKind::TankCombat => "scenarios/tank-combat/default.ron",
            GameKind::RangeDuel => "scenarios/range-duel/default.ron",
        }
    }

    /// The rules tables the game is played with, relative to the project: edit one and
    /// the game picks it up. Battle Tanks and Tank Combat keep their numbers in each
    /// setup's `rules` section.
    #[must_use]
    pub const fn rules_tables(self) -> &'static [&'static str] {
        match self {
            GameKind::TankCommander => &["assets/rules/tank-commander.ron"],
            GameKind::TankChess => &["assets/rules/tank-chess.ron"],
            GameKind::BattleTanks | GameKind::TankCombat => &[],
            GameKind::RangeDuel => &[
                "assets/rules/range-duel.ron",
                "assets/rules/tank-commander.ron",
            ],
        }
    }
}

impl GameKind {
    /// The games whose rules tables this game is played with: its own, and for the Range
    /// Duel also Tank Commander's (the tanks are built and fought with them).
    #[must_use]
    pub const fn rules_tables_of(self) -> &'static [GameKind] {
        match self {
            GameKind::TankCommander => &[GameKind::TankCommander],
            GameKind::TankChess => &[GameKind::TankChess],
            GameKind::BattleTanks | GameKind::TankCombat => &[],
            GameKind::RangeDuel => &[GameKind::RangeDuel, GameKind::TankCommander],
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}
