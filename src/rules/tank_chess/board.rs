//! The square board: squares named like `H1` (columns from White's left, rows from
//! White's side) and the eight facings, every 45°.

use serde::{Deserialize, Serialize};

/// A square: `col` 0 is column A (west), `row` 0 is row 1 (White's edge, south).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Square {
    pub col: u8,
    pub row: u8,
}

impl Square {
    /// Reads `H1`, `K15` (letters A–Z, then a row number from 1).
    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim();
        let letter = s.chars().next()?.to_ascii_uppercase();
        if !letter.is_ascii_uppercase() {
            return None;
        }
        let row: u8 = s[1..].parse().ok()?;
        if row == 0 {
            return None;
        }
        Some(Square {
            col: letter as u8 - b'A',
            row: row - 1,
        })
    }

    /// How many king's steps apart two squares are (the larger of the column and row gaps).
    #[must_use]
    pub fn king_distance(self, other: Square) -> u8 {
        self.col
            .abs_diff(other.col)
            .max(self.row.abs_diff(other.row))
    }

    /// The square `d` steps away in direction `dir`, if it has non-negative coordinates.
    #[must_use]
    pub fn step(self, dir: Dir8, d: i16) -> Option<(i16, i16)> {
        let (dx, dy) = dir.delta();
        Some((i16::from(self.col) + dx * d, i16::from(self.row) + dy * d))
    }
}

impl std::fmt::Display for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", char::from(b'A' + self.col), self.row + 1)
    }
}

/// One of the eight facings; north is towards Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Dir8 {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Dir8 {
    pub const ALL: [Dir8; 8] = [
        Dir8::N,
        Dir8::NE,
        Dir8::E,
        Dir8::SE,
        Dir8::S,
        Dir8::SW,
        Dir8::W,
        Dir8::NW,
    ];

    /// Index clockwise from north.
    #[must_use]
    pub const fn index(self) -> u8 {
        self as u8
    }

    #[must_use]
    pub const fn from_index(i: u8) -> Self {
        Self::ALL[(i % 8) as usize]
    }

    /// Turned 45° clockwise (`steps` > 0) or counter-clockwise.
    #[must_use]
    pub const fn turned(self, steps: i8) -> Self {
        Self::from_index(((self as i8 + steps).rem_euclid(8)) as u8)
    }

    #[must_use]
    pub const fn opposite(self) -> Self {
        self.turned(4)
    }

    /// Whether the facing is diagonal.
    #[must_use]
    pub const fn is_diagonal(self) -> bool {
        (self as u8) % 2 == 1
    }

    /// Column and row change of one step.
    #[must_use]
    pub const fn delta(self) -> (i16, i16) {
        match self {
            Dir8::N => (0, 1),
            Dir8::NE => (1, 1),
            Dir8::E => (1, 0),
            Dir8::SE => (1, -1),
            Dir8::S => (0, -1),
            Dir8::SW => (-1, -1),
            Dir8::W => (-1, 0),
            Dir8::NW => (-1, 1),
        }
    }

    /// The direction and distance from `a` to `b` when `b` lies on one of the eight lines
    /// through `a`.
    #[must_use]
    pub fn between(a: Square, b: Square) -> Option<(Dir8, u8)> {
        let dx = i16::from(b.col) - i16::from(a.col);
        let dy = i16::from(b.row) - i16::from(a.row);
        if (dx, dy) == (0, 0) || !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) {
            return None;
        }
        let unit = (dx.signum(), dy.signum());
        let dir = Dir8::ALL.into_iter().find(|d| d.delta() == unit)?;
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "boards are at most 20 squares"
        )]
        let dist = dx.abs().max(dy.abs()) as u8;
        Some((dir, dist))
    }
}

impl std::fmt::Display for Dir8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

/// A text that names none of the eight facings.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a facing (N, NE, E, SE, S, SW, W, NW)")]
pub struct NotAFacing(pub String);

impl std::str::FromStr for Dir8 {
    type Err = NotAFacing;
    fn from_str(s: &str) -> Result<Self, NotAFacing> {
        Dir8::ALL
            .into_iter()
            .find(|d| d.to_string().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| NotAFacing(s.to_string()))
    }
}
