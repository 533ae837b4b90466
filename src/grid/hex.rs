//! Flat-topped hex grid with north at the top of the table.
//!
//! Coordinates are axial [`hexx::Hex`] values (`x` = q, `y` = r, as on
//! [Red Blob Games](https://www.redblobgames.com/grids/hexagons/)), with screen `y` growing
//! towards the south. Players see offset coordinates: a column letter and a row number,
//! `A1` in the north-west corner, odd columns shoved half a hex south ("odd-q").
//!
//! ```txt
//!            N (0)
//!           _____
//!   NW (5) /     \ NE (1)
//!         /       \
//!         \       /
//!   SW (4) \_____/ SE (2)
//!            S (3)
//! ```
//!
//! ```
//! use tanktable::grid::{Facing, HexBoard};
//! let board = HexBoard::new(10, 10);
//! let c5 = board.parse("C5").unwrap();
//! assert_eq!(board.label(c5), "C5");
//! assert_eq!(board.label(c5 + Facing::N.offset()), "C4");
//! ```

use std::fmt;

use hexx::{Hex, HexOrientation, OffsetHexMode};
use serde::{Deserialize, Serialize};

/// One of the six hull or turret directions, clockwise from north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Facing {
    N,
    NE,
    SE,
    S,
    SW,
    NW,
}

/// A 60° turn to the left (counter-clockwise) or to the right (clockwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rotation {
    Left,
    Right,
}

impl Rotation {
    /// Both rotations, left first.
    pub const ALL: [Rotation; 2] = [Rotation::Left, Rotation::Right];
}

impl fmt::Display for Rotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rotation::Left => "left",
            Rotation::Right => "right",
        })
    }
}

impl Facing {
    /// The six facings, clockwise from north; the index is the die face minus one where a
    /// rule rolls for a direction (1 is north, 2 is north-east …).
    pub const ALL: [Facing; 6] = [
        Facing::N,
        Facing::NE,
        Facing::SE,
        Facing::S,
        Facing::SW,
        Facing::NW,
    ];

    /// Position in [`Facing::ALL`].
    #[must_use]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The facing at `index` (taken modulo 6).
    #[must_use]
    pub const fn from_index(index: u8) -> Facing {
        Facing::ALL[(index % 6) as usize]
    }

    /// The axial step to the neighbouring hex in this direction.
    #[must_use]
    pub const fn offset(self) -> Hex {
        match self {
            Facing::N => Hex::new(0, -1),
            Facing::NE => Hex::new(1, -1),
            Facing::SE => Hex::new(1, 0),
            Facing::S => Hex::new(0, 1),
            Facing::SW => Hex::new(-1, 1),
            Facing::NW => Hex::new(-1, 0),
        }
    }

    /// This facing turned 60° in `rotation`.
    #[must_use]
    pub const fn rotated(self, rotation: Rotation) -> Facing {
        match rotation {
            Rotation::Left => Facing::from_index(self.index() + 5),
            Rotation::Right => Facing::from_index(self.index() + 1),
        }
    }

    /// The opposite direction.
    #[must_use]
    pub const fn opposite(self) -> Facing {
        Facing::from_index(self.index() + 3)
    }

    /// Compass angle in degrees, clockwise from north.
    #[must_use]
    pub fn degrees(self) -> f64 {
        f64::from(self.index()) * 60.0
    }

    /// Number of 60° steps from `self` to `other` the short way (0 to 3).
    #[must_use]
    pub const fn steps_to(self, other: Facing) -> u8 {
        let d = (other.index() + 6 - self.index()) % 6;
        if d > 3 { 6 - d } else { d }
    }
}

impl fmt::Display for Facing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Where a point lies relative to a facing, by angle: a sector test used for gun arcs and
/// armor facings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sector {
    /// Angle off the facing in degrees, 0 to 180 (left and right are symmetric).
    pub off_axis: f64,
}

impl Sector {
    /// Tolerance for "exactly on a boundary" comparisons of angles in degrees.
    pub const EPSILON: f64 = 1e-6;

    /// True when the angle is within `half_width` degrees of the facing, boundary included.
    #[must_use]
    pub fn within(self, half_width: f64) -> bool {
        self.off_axis <= half_width + Self::EPSILON
    }

    /// True when the angle lies exactly on `boundary` degrees.
    #[must_use]
    pub fn on(self, boundary: f64) -> bool {
        (self.off_axis - boundary).abs() <= Self::EPSILON
    }
}

/// Centre of a hex in table units (hex size 1, flat-topped, `y` towards the south).
#[must_use]
pub fn center(hex: Hex) -> (f64, f64) {
    let q = f64::from(hex.x);
    let r = f64::from(hex.y);
    (1.5 * q, 3f64.sqrt() * (r + q / 2.0))
}

/// The angle between `facing` and the direction from `from` to `to`, in degrees (0 to 180).
/// `from == to` gives 0.
#[must_use]
pub fn sector_of(from: Hex, facing: Facing, to: Hex) -> Sector {
    let (x0, y0) = center(from);
    let (x1, y1) = center(to);
    let (dx, dy) = (x1 - x0, y1 - y0);
    if dx == 0.0 && dy == 0.0 {
        return Sector { off_axis: 0.0 };
    }
    // Compass bearing: 0 is north (negative y), clockwise positive.
    let bearing = dx.atan2(-dy).to_degrees();
    let mut diff = (bearing - facing.degrees()).rem_euclid(360.0);
    if diff > 180.0 {
        diff = 360.0 - diff;
    }
    Sector { off_axis: diff }
}

/// The hexes a centre-to-centre line passes through, excluding both ends.
///
/// Each entry is one hex, or two hexes when the line runs exactly along the edge between
/// them. The line is traced twice, nudged a hair to either side, which is the method from
/// Red Blob Games; where the two traces disagree the line is on a hexside.
#[must_use]
pub fn line_between(from: Hex, to: Hex) -> Vec<LineStep> {
    let n = from.unsigned_distance_to(to);
    if n <= 1 {
        return Vec::new();
    }
    const NUDGE: f64 = 1e-6;
    let (q0, r0) = (f64::from(from.x), f64::from(from.y));
    let (q1, r1) = (f64::from(to.x), f64::from(to.y));
    let mut steps = Vec::with_capacity(n as usize - 1);
    for i in 1..n {
        let t = f64::from(i) / f64::from(n);
        let q = q0 + (q1 - q0) * t;
        let r = r0 + (r1 - r0) * t;
        let a = cube_round(q + NUDGE, r + NUDGE, -q - r - 2.0 * NUDGE);
        let b = cube_round(q - NUDGE, r - NUDGE, -q - r + 2.0 * NUDGE);
        steps.push(if a == b {
            LineStep::Through(a)
        } else {
            LineStep::Hexside(a, b)
        });
    }
    steps
}

/// One step of a line between hex centres.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LineStep {
    /// The line crosses the inside of this hex.
    Through(Hex),
    /// The line runs exactly along the edge between these two hexes.
    Hexside(Hex, Hex),
}

impl LineStep {
    /// The hexes touched at this step (one or two).
    pub fn hexes(self) -> impl Iterator<Item = Hex> {
        let (a, b) = match self {
            LineStep::Through(h) => (h, None),
            LineStep::Hexside(a, b) => (a, Some(b)),
        };
        std::iter::once(a).chain(b)
    }
}

fn cube_round(x: f64, y: f64, z: f64) -> Hex {
    let (mut rx, mut ry, rz) = (x.round(), y.round(), z.round());
    let (dx, dy, dz) = ((rx - x).abs(), (ry - y).abs(), (rz - z).abs());
    if dx > dy && dx > dz {
        rx = -ry - rz;
    } else if dy > dz {
        ry = -rx - rz;
    }
    #[allow(
        clippy::cast_possible_truncation,
        reason = "board coordinates are small"
    )]
    Hex::new(rx as i32, ry as i32)
}

/// A rectangular board of hexes, `width` columns by `height` rows, in odd-q offset layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexBoard {
    pub width: u16,
    pub height: u16,
}

impl HexBoard {
    #[must_use]
    pub const fn new(width: u16, height: u16) -> Self {
        Self { width, height }
    }

    /// The hex at offset column `col` and row `row` (both from zero).
    #[must_use]
    pub fn hex_at(self, col: i32, row: i32) -> Hex {
        Hex::from_offset_coordinates([col, row], OffsetHexMode::Odd, HexOrientation::Flat)
    }

    /// Offset `[column, row]` of a hex, from zero.
    #[must_use]
    pub fn offset_of(self, hex: Hex) -> [i32; 2] {
        hex.to_offset_coordinates(OffsetHexMode::Odd, HexOrientation::Flat)
    }

    /// True when the hex lies on the board.
    #[must_use]
    pub fn contains(self, hex: Hex) -> bool {
        let [c, r] = self.offset_of(hex);
        c >= 0 && r >= 0 && c < i32::from(self.width) && r < i32::from(self.height)
    }

    /// Dense index of an on-board hex (row-major), for terrain arrays.
    #[must_use]
    pub fn index(self, hex: Hex) -> Option<usize> {
        self.contains(hex).then(|| {
            let [c, r] = self.offset_of(hex);
            #[allow(clippy::cast_sign_loss, reason = "contains() checked both are >= 0")]
            {
                r as usize * usize::from(self.width) + c as usize
            }
        })
    }

    /// Every hex of the board, row by row.
    pub fn hexes(self) -> impl Iterator<Item = Hex> {
        (0..i32::from(self.height))
            .flat_map(move |r| (0..i32::from(self.width)).map(move |c| self.hex_at(c, r)))
    }

    /// Number of hexes.
    #[must_use]
    pub fn len(self) -> usize {
        usize::from(self.width) * usize::from(self.height)
    }

    /// True for a board with no hexes.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The player-facing name of a hex: column letters then row number, e.g. `C5`, `AB12`.
    #[must_use]
    pub fn label(self, hex: Hex) -> String {
        let [c, r] = self.offset_of(hex);
        format!("{}{}", column_letters(c), r + 1)
    }

    /// Parses a label such as `C5` into a hex. The hex may lie off the board; check with
    /// [`HexBoard::contains`].
    ///
    /// # Errors
    /// A sentence saying why the label is not a coordinate.
    pub fn parse(self, label: &str) -> Result<Hex, String> {
        parse_label(label).map(|(c, r)| self.hex_at(c, r))
    }
}

/// Spreadsheet-style column letters: 0 → A, 25 → Z, 26 → AA.
#[must_use]
pub fn column_letters(mut col: i32) -> String {
    if col < 0 {
        return format!("?{col}");
    }
    let mut letters = Vec::new();
    loop {
        #[allow(
            clippy::cast_sign_loss,
            clippy::cast_possible_truncation,
            reason = "0..26"
        )]
        letters.push(b'A' + (col % 26) as u8);
        col = col / 26 - 1;
        if col < 0 {
            break;
        }
    }
    letters.reverse();
    String::from_utf8(letters).unwrap_or_default()
}

fn parse_label(label: &str) -> Result<(i32, i32), String> {
    let label = label.trim();
    let split = label
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(label.len());
    let (letters, digits) = label.split_at(split);
    if letters.is_empty() || digits.is_empty() || letters.len() > 3 {
        return Err(format!(
            "`{label}` is not a hex coordinate: write a column letter and a row number, like `C5`"
        ));
    }
    let mut col: i32 = 0;
    for ch in letters.chars() {
        col = col * 26 + i32::from(ch.to_ascii_uppercase() as u8 - b'A') + 1;
    }
    let row: i32 = digits.parse().map_err(|_| {
        format!("`{label}` is not a hex coordinate: `{digits}` is not a row number")
    })?;
    if row < 1 {
        return Err(format!(
            "`{label}` is not a hex coordinate: rows start at 1"
        ));
    }
    Ok((col - 1, row - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_round_trip() {
        let board = HexBoard::new(30, 30);
        for hex in board.hexes() {
            assert_eq!(board.parse(&board.label(hex)), Ok(hex));
        }
        assert_eq!(column_letters(26), "AA");
        assert!(board.parse("5C").is_err());
        assert!(board.parse("C0").is_err());
    }

    #[test]
    fn neighbours_are_adjacent_and_rotations_cycle() {
        for f in Facing::ALL {
            assert_eq!(Hex::ZERO.unsigned_distance_to(f.offset()), 1);
            assert_eq!(f.rotated(Rotation::Left).rotated(Rotation::Right), f);
            assert_eq!(f.opposite().opposite(), f);
            let s = sector_of(Hex::ZERO, f, f.offset());
            assert!(s.off_axis < 1e-9, "{f:?} points at its own neighbour");
        }
        assert_eq!(Facing::N.steps_to(Facing::S), 3);
        assert_eq!(Facing::N.steps_to(Facing::NW), 1);
    }

    #[test]
    fn north_is_up_in_offset_rows() {
        let board = HexBoard::new(10, 10);
        let c5 = board.parse("C5").unwrap();
        assert_eq!(board.label(c5 + Facing::N.offset()), "C4");
        assert_eq!(board.label(c5 + Facing::S.offset()), "C6");
    }

    #[test]
    fn straight_lines_pass_through_and_diagonals_run_along_hexsides() {
        let a = Hex::ZERO;
        let b = Facing::N.offset() * 3;
        let line = line_between(a, b);
        assert_eq!(line.len(), 2);
        assert!(line.iter().all(|s| matches!(s, LineStep::Through(_))));
        // Two hexes N then one NE... the "vertex" direction (1,-2) runs along a hexside.
        let c = Hex::new(1, -2);
        let line = line_between(a, c);
        assert_eq!(line.len(), 1);
        assert!(matches!(line[0], LineStep::Hexside(_, _)));
    }
}
