//! The games' rules: pure, deterministic Rust with no engine dependency.
//!
//! Each game is a folder with the same inner shape: `setup` (data files and validation),
//! `state`, `action`, `legal`, `resolve`, `outcome`, `notation`.

pub mod range_duel;
pub mod tank_chess;
pub mod tank_combat;
pub mod tank_commander;
