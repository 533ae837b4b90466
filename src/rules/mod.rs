//! The games' rules: pure, deterministic Rust with no engine dependency.
//!
//! Each game is a folder with the same inner shape: `setup` (data files and validation),
//! `state`, `action`, `legal`, `resolve`, `outcome`, `notation`, `bot`. [`GameKind`]
//! names the five, and [`detect`] tells which game and kind of file a text is.

pub mod battle_tanks;
pub mod catalogue;
mod games;
pub mod map;
#[cfg(test)]
mod mirror_tests;
pub mod range_duel;
#[cfg(test)]
mod record_tests;
pub mod tank_chess;
pub mod tank_combat;
pub mod tank_commander;

pub use games::{Detected, FileKind, GameKind, detect, detect_placed, strip_comments};
