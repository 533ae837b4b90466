//! Tank Chess data: the rules table (`assets/rules/tank-chess.ron`) and setups
//! (`scenarios/tank-chess/*.ron`), read and validated.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::board::{Dir8, Square};
use crate::data::{self, Diagnostics, Problems, SourceMap};

/// The rules table shipped with the game, compiled in as a fallback.
pub const BUILTIN_RULES: &str = include_str!("../../../assets/rules/tank-chess.ron");
/// Where the rules file lives, relative to the project root.
pub const RULES_PATH: &str = "assets/rules/tank-chess.ron";

/// The five piece types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub enum Kind {
    /// Light Tank.
    LT,
    /// Medium Tank.
    MT,
    /// Heavy Tank.
    HT,
    /// Tank Destroyer.
    TD,
    /// Heavy Mortar.
    HM,
}

impl Kind {
    pub const ALL: [Kind; 5] = [Kind::LT, Kind::MT, Kind::HT, Kind::TD, Kind::HM];

    /// The piece's full name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Kind::LT => "Light Tank",
            Kind::MT => "Medium Tank",
            Kind::HT => "Heavy Tank",
            Kind::TD => "Tank Destroyer",
            Kind::HM => "Heavy Mortar",
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

/// Armor of the three facings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Armor {
    pub front: u8,
    pub side: u8,
    pub rear: u8,
}

/// How a piece fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Weapon {
    /// A gun in a turret: straight ahead or diagonally ahead-left or ahead-right.
    Turret,
    /// A gun without a turret: straight ahead only.
    Fixed,
    /// Fires straight ahead over anything, at a distance from `min` to `max` squares.
    Mortar { min: u8, max: u8 },
}

/// One piece type's characteristics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    pub speed: u8,
    pub firepower: u8,
    pub armor: Armor,
    pub weapon: Weapon,
}

/// The rules table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "TankChessRules")]
pub struct Rules {
    pub light: Stats,
    pub medium: Stats,
    pub heavy: Stats,
    pub destroyer: Stats,
    pub mortar: Stats,
    pub reverse_squares: u8,
    pub announced: bool,
    pub fire_without_move: bool,
    pub diagonal_squeeze: bool,
    pub diagonal_escape: bool,
    pub move_limit: u16,
}

impl Rules {
    /// The characteristics of `kind`.
    #[must_use]
    pub fn stats(&self, kind: Kind) -> &Stats {
        match kind {
            Kind::LT => &self.light,
            Kind::MT => &self.medium,
            Kind::HT => &self.heavy,
            Kind::TD => &self.destroyer,
            Kind::HM => &self.mortar,
        }
    }

    /// The shipped rules.
    ///
    /// # Panics
    /// Never: the shipped file is checked by the tests.
    #[must_use]
    pub fn builtin() -> Self {
        Self::parse(RULES_PATH, BUILTIN_RULES).expect("the shipped rules file is valid")
    }

    /// Loads the rules: `path` if given, else the project's rules file if present, else
    /// the compiled-in copy.
    ///
    /// # Errors
    /// Every problem in the file.
    pub fn load(path: Option<&Path>) -> Result<Self, Diagnostics> {
        data::load_table(path, RULES_PATH, Self::builtin, Self::parse)
    }

    /// Reads and checks a rules table.
    ///
    /// # Errors
    /// Every problem, placed in the file.
    pub fn parse(file: &str, text: &str) -> Result<Self, Diagnostics> {
        let (rules, map, mut problems): (Rules, SourceMap, _) =
            data::load_ron_collecting(file, text)?;
        problems.extend(rules.problems());
        if problems.is_empty() {
            Ok(rules)
        } else {
            Err(problems.locate(file, &map))
        }
    }

    /// Every number out of its range, by field.
    #[must_use]
    pub fn problems(&self) -> Problems {
        let (rules, mut problems) = (self, Problems::default());
        for (kind, field) in
            Kind::ALL
                .iter()
                .zip(["light", "medium", "heavy", "destroyer", "mortar"])
        {
            let s = rules.stats(*kind);
            if !(1..=12).contains(&s.speed) {
                problems.push(format!("{field}.speed"), "speed is 1 to 12 steps");
            }
            if let Weapon::Mortar { min, max } = s.weapon {
                if min < 1 || min > max {
                    problems.push(format!("{field}.weapon"), "a mortar needs 1 <= min <= max");
                }
                // The largest board is 20 squares: no shot is longer than 19.
                problems.range(
                    format!("{field}.weapon"),
                    max,
                    1..=19,
                    "a mortar's longest range",
                );
            }
            // A shot destroys when firepower beats armor: both on the rulebook's scale.
            problems.range(
                format!("{field}.firepower"),
                s.firepower,
                1..=10,
                "firepower",
            );
            for (facing, armor) in [
                ("front", s.armor.front),
                ("side", s.armor.side),
                ("rear", s.armor.rear),
            ] {
                problems.range(format!("{field}.armor.{facing}"), armor, 0..=10, "armor");
            }
        }
        // Each square back is a step, as speed counts them.
        problems.range(
            "reverse_squares",
            rules.reverse_squares,
            0..=12,
            "a reverse move",
        );
        if rules.move_limit == 0 {
            problems.push(
                "move_limit",
                "a move limit of 0 would draw every game before its first move: it is 1 or more",
            );
        }
        problems
    }
}

/// One piece as written in a setup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceSetup {
    pub kind: Kind,
    /// A square like `H1`.
    pub at: String,
    /// The facing; towards the opponent when left out.
    #[serde(default)]
    pub facing: Option<Dir8>,
    /// The Command tank (one per side in the modes that have one).
    #[serde(default)]
    pub command: bool,
}

/// How the game is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Mode {
    /// Destroy the enemy Command tank or escape with your own.
    #[default]
    Standard,
    /// Every piece has the characteristics of one type.
    SingleType(Kind),
    /// No Command tank: destroy every enemy piece; after the move limit, more survivors win.
    LastTankStanding { move_limit: u16 },
    /// No Command tank: the first side to escape with three pieces wins.
    EscapeOfThree,
    /// Four players, everyone against everyone: White (south), Black (north), Flag White
    /// (west) and Flag Black (east). Points after `move_limit` moves each, or when one
    /// player is left: 1 per own piece left, 1 per kill, 2 per Command tank killed.
    FourPlayers { move_limit: u16 },
    /// No Command tank: take a flag and carry it to your own starting edge. With several
    /// flags (an odd number), the side that brings home more wins.
    CaptureTheFlag,
}

/// The board's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardSize {
    pub width: u8,
    pub height: u8,
}

/// A Tank Chess setup file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "TankChessSetup")]
pub struct Setup {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub board: BoardSize,
    /// Obstacle squares.
    #[serde(default)]
    pub obstacles: Vec<String>,
    /// White's pieces, in the south.
    pub white: Vec<PieceSetup>,
    /// Black's pieces, in the north; white's turned through the centre when left out.
    #[serde(default)]
    pub black: Option<Vec<PieceSetup>>,
    /// Four Players: the Flag White team, in the west.
    #[serde(default)]
    pub flag_white: Vec<PieceSetup>,
    /// Four Players: the Flag Black team, in the east.
    #[serde(default)]
    pub flag_black: Vec<PieceSetup>,
    #[serde(default)]
    pub mode: Mode,
    /// Announced play; the rules table's default when left out.
    #[serde(default)]
    pub announced: Option<bool>,
    /// A position (a puzzle or a test), not a starting setup: the rule that no piece may
    /// be destroyable on the first move is not checked.
    #[serde(default)]
    pub position: bool,
    /// Capture the Flag: each flag stands where four squares meet, named by the
    /// south-west one of the four. One flag in the middle of the board when left out.
    #[serde(default)]
    pub flags: Vec<String>,
}

/// A piece placed on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub white: bool,
    /// The seat: 0 White, 1 Black, 2 Flag White, 3 Flag Black.
    pub side: u8,
    pub kind: Kind,
    pub at: Square,
    pub facing: Dir8,
    pub command: bool,
}

/// A validated setup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub setup: Setup,
    pub width: u8,
    pub height: u8,
    pub obstacles: Vec<Square>,
    pub pieces: Vec<Placed>,
    /// Capture the Flag: the south-west square of each flag's four squares.
    pub flags: Vec<Square>,
}

impl Scenario {
    /// Checks a setup: board size, squares, one Command tank a side where the mode has
    /// them, no two things on a square, and no piece that can be destroyed on the very
    /// first move.
    ///
    /// # Errors
    /// Every problem found, by field.
    pub fn validate(setup: Setup, rules: &Rules) -> Result<Self, Problems> {
        let mut p = Problems::default();
        let BoardSize { width, height } = setup.board;
        if !(4..=20).contains(&width) || !(4..=20).contains(&height) {
            p.push(
                "board",
                format!("boards are 4 to 20 squares a side, not {width}×{height}"),
            );
            return Err(p);
        }
        let mut taken: Vec<(Square, String)> = Vec::new();
        let mut obstacles = Vec::new();
        for (i, o) in setup.obstacles.iter().enumerate() {
            if let Some(sq) = parse_square(&mut p, format!("obstacles[{i}]"), o, (width, height)) {
                obstacles.push(sq);
                taken.push((sq, "an obstacle".into()));
            }
        }
        let black = setup
            .black
            .clone()
            .unwrap_or_else(|| mirrored_black(&setup.white, width, height));
        let mut pieces = Vec::new();
        mode_problems(&setup, &mut p);
        let four = matches!(setup.mode, Mode::FourPlayers { .. });
        let seats: [(u8, &Vec<PieceSetup>, &str); 4] = [
            (0, &setup.white, "white"),
            (1, &black, "black"),
            (2, &setup.flag_white, "flag_white"),
            (3, &setup.flag_black, "flag_black"),
        ];
        for (side, list, field) in seats {
            if side >= 2 && !four {
                continue;
            }
            command_problems(&setup, list, field, &mut p);
            place_side(&setup, side, list, field, &mut taken, &mut pieces, &mut p);
        }
        let flags = if setup.mode == Mode::CaptureTheFlag {
            place_flags(&setup, &taken, &mut p)
        } else {
            Vec::new()
        };
        if !p.is_empty() {
            return Err(p);
        }
        let scenario = Scenario {
            width,
            height,
            obstacles,
            pieces,
            flags,
            setup,
        };
        // No piece may be destroyable on any side's first move.
        first_move_problems(&scenario, rules, four, &mut p);
        if p.is_empty() { Ok(scenario) } else { Err(p) }
    }

    /// Reads and validates a setup.
    ///
    /// # Errors
    /// Every problem, placed in the file.
    pub fn parse(file: &str, text: &str, rules: &Rules) -> Result<Self, Diagnostics> {
        data::parse_validated(file, text, |setup: Setup| Self::validate(setup, rules))
    }

    /// Reads and validates a setup file.
    ///
    /// # Errors
    /// Every problem, placed in the file.
    pub fn load(path: &Path, rules: &Rules) -> Result<Self, Diagnostics> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Diagnostics::whole_file(&name, format!("cannot read the file: {e}")))?;
        Self::parse(&name, &text, rules)
    }
}

/// The square `s` names at `path`, if it is one on a `width`×`height` board; else its
/// problem.
fn parse_square(
    p: &mut Problems,
    path: String,
    s: &str,
    (width, height): (u8, u8),
) -> Option<Square> {
    match Square::parse(s) {
        Some(sq) if sq.col < width && sq.row < height => Some(sq),
        Some(_) => {
            p.push(path, format!("{s} is off the {width}×{height} board"));
            None
        }
        None => {
            p.push(
                path,
                format!("`{s}` is not a square (a column letter and a row number, like H1)"),
            );
            None
        }
    }
}

/// Black's pieces when the setup leaves them out: White's turned through the centre.
fn mirrored_black(white: &[PieceSetup], width: u8, height: u8) -> Vec<PieceSetup> {
    white
        .iter()
        .map(|w| PieceSetup {
            kind: w.kind,
            at: Square::parse(&w.at).map_or_else(
                || w.at.clone(),
                |s| {
                    Square {
                        col: width - 1 - s.col.min(width - 1),
                        row: height - 1 - s.row.min(height - 1),
                    }
                    .to_string()
                },
            ),
            facing: w.facing.map(Dir8::opposite),
            command: w.command,
        })
        .collect()
}

/// The mode's problems: a move limit of 0, and flag teams where the mode has them or
/// not.
fn mode_problems(setup: &Setup, p: &mut Problems) {
    if let Mode::FourPlayers { move_limit: 0 } | Mode::LastTankStanding { move_limit: 0 } =
        setup.mode
    {
        p.push(
            "mode",
            "a move limit of 0 would end the game before its first move: it is 1 or more",
        );
    }
    let four = matches!(setup.mode, Mode::FourPlayers { .. });
    if four && (setup.flag_white.is_empty() || setup.flag_black.is_empty()) {
        p.push(
            "flag_white",
            "Four Players needs pieces for all four teams: white, black, flag_white and flag_black",
        );
    }
    if !four && (!setup.flag_white.is_empty() || !setup.flag_black.is_empty()) {
        p.push("flag_white", "flag teams play only in the FourPlayers mode");
    }
}

/// A side's Command tanks: exactly one where the mode has them, else none.
fn command_problems(setup: &Setup, list: &[PieceSetup], field: &str, p: &mut Problems) {
    let commands = list.iter().filter(|x| x.command).count();
    let wants = matches!(
        setup.mode,
        Mode::Standard | Mode::SingleType(_) | Mode::FourPlayers { .. }
    );
    if wants && commands != 1 {
        p.push(
            field,
            format!("each side needs exactly one Command tank in this mode, not {commands}"),
        );
    }
    if !wants && commands != 0 {
        p.push(field, "this mode has no Command tank");
    }
}

/// Places side `side`'s pieces (`list`, written at `field`) on free squares of the
/// board, adding each to `taken` and `pieces`.
fn place_side(
    setup: &Setup,
    side: u8,
    list: &[PieceSetup],
    field: &str,
    taken: &mut Vec<(Square, String)>,
    pieces: &mut Vec<Placed>,
    p: &mut Problems,
) {
    let BoardSize { width, height } = setup.board;
    let white = side.is_multiple_of(2);
    // Black left out is white turned through the centre: its problems are placed
    // at the white piece each one mirrors.
    let mirrored = side == 1 && setup.black.is_none();
    for (i, piece) in list.iter().enumerate() {
        if mirrored
            && !Square::parse(&setup.white[i].at).is_some_and(|s| s.col < width && s.row < height)
        {
            // The white piece's own problem says what is wrong.
            continue;
        }
        let path = if mirrored {
            format!("white[{i}].at")
        } else {
            format!("{field}[{i}].at")
        };
        let Some(sq) = parse_square(p, path.clone(), &piece.at, (width, height)) else {
            continue;
        };
        if let Some((_, what)) = taken.iter().find(|(s, _)| *s == sq) {
            let message = if mirrored {
                format!("black's mirror of this piece stands on {sq}, already taken by {what}")
            } else {
                format!("{sq} is already taken by {what}")
            };
            p.push(path, message);
            continue;
        }
        taken.push((sq, format!("{field} {}", piece.kind)));
        let kind = match setup.mode {
            Mode::SingleType(k) => k,
            _ => piece.kind,
        };
        pieces.push(Placed {
            white,
            side,
            kind,
            at: sq,
            facing: piece
                .facing
                .unwrap_or([Dir8::N, Dir8::S, Dir8::E, Dir8::W][usize::from(side)]),
            command: piece.command,
        });
    }
}

/// Capture the Flag's flags: the south-west square of each, its four squares on the
/// board and free (one flag in the centre when the setup names none).
fn place_flags(setup: &Setup, taken: &[(Square, String)], p: &mut Problems) -> Vec<Square> {
    let BoardSize { width, height } = setup.board;
    let mut flags = Vec::new();
    let named: Vec<String> = if setup.flags.is_empty() {
        vec![
            Square {
                col: width / 2 - 1,
                row: height / 2 - 1,
            }
            .to_string(),
        ]
    } else {
        setup.flags.clone()
    };
    if named.len().is_multiple_of(2) {
        p.push(
            "flags",
            format!(
                "play with an odd number of flags (1, 3, …), not {}",
                named.len()
            ),
        );
    }
    for (i, f) in named.iter().enumerate() {
        let path = format!("flags[{i}]");
        let Some(sq) = parse_square(p, path.clone(), f, (width, height)) else {
            continue;
        };
        if sq.col + 1 >= width || sq.row + 1 >= height {
            p.push(
                path,
                format!("the flag's four squares from {sq} run off the board"),
            );
            continue;
        }
        let four = [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(dc, dr)| Square {
            col: sq.col + dc,
            row: sq.row + dr,
        });
        if let Some((s2, what)) = taken.iter().find(|(t, _)| four.contains(t)) {
            p.push(
                path,
                format!("the flag's squares must be free, but {s2} holds {what}"),
            );
        }
        flags.push(sq);
    }
    flags
}

/// The pieces that could be destroyed on some side's first move (none checked for a
/// position).
fn first_move_problems(scenario: &Scenario, rules: &Rules, four: bool, p: &mut Problems) {
    let seats: u8 = if four { 4 } else { 2 };
    for side in (0..seats).filter(|_| !scenario.setup.position) {
        for v in super::first_move_victims(scenario, rules, side) {
            let field = ["white", "black", "flag_white", "flag_black"][usize::from(v.owner.min(3))];
            p.push(
                field,
                format!(
                    "the {} {} on {} can be destroyed on {}'s first move: the {} plays {}",
                    field.replace('_', "-"),
                    v.kind,
                    v.at,
                    super::side_name(crate::framework::PlayerId(side)),
                    v.by,
                    v.shot
                ),
            );
        }
    }
}
