//! Board geometry shared by the games: hex grids (Tank Commander) and, later, square boards.
//!
//! Geometry here knows nothing about rules. Algorithms take the rules as closures, in the
//! style of `hexx`.

pub mod hex;

pub use hex::{Facing, HexBoard, Rotation, Sector};
