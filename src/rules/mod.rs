//! The games' rules: pure, deterministic Rust with no engine dependency.
//!
//! Each game is a folder with the same inner shape: `setup` (data files and validation),
//! `state`, `action`, `legal`, `resolve`, `outcome`, `notation`.

pub mod battle_tanks;
pub mod range_duel;
pub mod tank_chess;
pub mod tank_combat;
pub mod tank_commander;

use crate::framework::record::RecordHeader;
use crate::framework::{Game, Tabletop};

/// The games played from one setup file with no scenario map (the [`Tabletop`] games).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableGame {
    BattleTanks,
    TankCombat,
    RangeDuel,
}

impl TableGame {
    /// Every one, in menu order.
    pub const ALL: [TableGame; 3] = [
        TableGame::BattleTanks,
        TableGame::TankCombat,
        TableGame::RangeDuel,
    ];

    /// The game a setup file or match record belongs to, if it is one of these.
    #[must_use]
    pub fn of_text(text: &str) -> Option<Self> {
        let head = strip_comments(text);
        let game_of_record = crate::data::load_ron_lenient::<RecordHeader>("", text)
            .ok()
            .map(|(h, _)| h.game);
        let is = |tag: &str, name: &str| {
            head.starts_with(tag) || game_of_record.as_deref() == Some(name)
        };
        Self::ALL.into_iter().find(|g| is(g.setup_tag(), g.name()))
    }

    /// The game's name in match records (`"range-duel"`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TableGame::BattleTanks => <battle_tanks::BattleTanks as Game>::NAME,
            TableGame::TankCombat => <tank_combat::TankCombat as Game>::NAME,
            TableGame::RangeDuel => <range_duel::RangeDuel as Game>::NAME,
        }
    }

    /// The RON struct name of its setup files.
    #[must_use]
    pub const fn setup_tag(self) -> &'static str {
        match self {
            TableGame::BattleTanks => <battle_tanks::BattleTanks as Tabletop>::SETUP_TAG,
            TableGame::TankCombat => <tank_combat::TankCombat as Tabletop>::SETUP_TAG,
            TableGame::RangeDuel => <range_duel::RangeDuel as Tabletop>::SETUP_TAG,
        }
    }

    /// The game's name for people.
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            TableGame::BattleTanks => <battle_tanks::BattleTanks as Tabletop>::TITLE,
            TableGame::TankCombat => <tank_combat::TankCombat as Tabletop>::TITLE,
            TableGame::RangeDuel => <range_duel::RangeDuel as Tabletop>::TITLE,
        }
    }

    /// The folder of its shipped setups, relative to the project root.
    #[must_use]
    pub const fn folder(self) -> &'static str {
        match self {
            TableGame::BattleTanks => "scenarios/battle-tanks",
            TableGame::TankCombat => "scenarios/tank-combat",
            TableGame::RangeDuel => "scenarios/range-duel",
        }
    }
}

/// Calls the generic function `$f::<G>(args…)` for the [`TableGame`] `$which`.
#[macro_export]
macro_rules! dispatch_table_game {
    ($which:expr, $($f:ident)::+ ( $($arg:expr),* $(,)? )) => {
        match $which {
            $crate::rules::TableGame::BattleTanks => {
                $($f)::+::<$crate::rules::battle_tanks::BattleTanks>($($arg),*)
            }
            $crate::rules::TableGame::TankCombat => {
                $($f)::+::<$crate::rules::tank_combat::TankCombat>($($arg),*)
            }
            $crate::rules::TableGame::RangeDuel => {
                $($f)::+::<$crate::rules::range_duel::RangeDuel>($($arg),*)
            }
        }
    };
}

/// The text from its first line that is neither blank nor a comment.
#[must_use]
pub fn strip_comments(text: &str) -> &str {
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start();
        if let Some(after) = trimmed.strip_prefix("//") {
            rest = after.split_once('\n').map_or("", |(_, r)| r);
        } else if trimmed.starts_with("#![") {
            rest = trimmed.split_once('\n').map_or("", |(_, r)| r);
        } else {
            return trimmed;
        }
    }
}
