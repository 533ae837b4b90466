//! Editing a Tank Chess setup: the board and its obstacles, the pieces of every team, the
//! flags, the mode; the symmetry tools; the live check with the validator's "piece at
//! risk on the first move" warnings marked on their squares; and the RON it saves.

use std::fmt::Write as _;

use super::{Cell, Check, Design, Marker, Symmetry};
use crate::rules::tank_chess::setup::{BoardSize, PieceSetup};
use crate::rules::tank_chess::{Dir8, Mode, Rules, Scenario, Setup, Square};

/// The teams of a setup, in file order: White (south), Black (north), and Four Players'
/// Flag White (west) and Flag Black (east).
pub const TEAMS: [&str; 4] = ["white", "black", "flag_white", "flag_black"];

/// A Tank Chess setup being designed. Black may stay implicit (`black` left out: White's
/// pieces turned through the centre), which is how a fair setup is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareDesign {
    pub setup: Setup,
}

/// One edit of a setup.
#[derive(Clone, Debug, PartialEq)]
pub enum SquareEdit {
    Resize {
        width: u8,
        height: u8,
    },
    /// Obstacles on or off.
    Obstacles {
        cells: Vec<Cell>,
        on: bool,
    },
    /// A piece for a team (an index of [`TEAMS`]); Black's implicit pieces are written
    /// out first.
    AddPiece {
        team: usize,
        piece: PieceSetup,
    },
    SetPiece {
        team: usize,
        index: usize,
        piece: PieceSetup,
    },
    RemovePiece {
        team: usize,
        index: usize,
    },
    /// A Capture the Flag flag at the four squares whose south-west one is `at`.
    Flag {
        at: Cell,
        on: bool,
    },
    Title {
        name: String,
        description: String,
    },
    Mode(Mode),
    Announced(Option<bool>),
    /// A position (a puzzle or a test) rather than a starting setup.
    Position(bool),
    /// The whole board turned over by the symmetry (every team's pieces and facings,
    /// obstacles, flags).
    Flip(Symmetry),
    /// Black made White's image through the centre (written as the implicit Black), and
    /// the south half's obstacles and flags copied onto the north half: a fair setup.
    Mirror,
}

fn square(cell: Cell) -> Option<Square> {
    let [c, r] = cell;
    Some(Square {
        col: u8::try_from(c).ok()?,
        row: u8::try_from(r).ok()?,
    })
}

fn cell(sq: Square) -> Cell {
    [i32::from(sq.col), i32::from(sq.row)]
}

/// A facing after the symmetry.
fn facing(sym: Symmetry, d: Dir8) -> Dir8 {
    let i = d.index();
    Dir8::from_index(match sym {
        Symmetry::Rotate180 => i + 4,
        Symmetry::MirrorWestEast => 8 - i,
        Symmetry::MirrorNorthSouth => 12 - i,
    })
}

impl SquareDesign {
    /// An empty board of the standard mode.
    #[must_use]
    pub fn blank(width: u8, height: u8) -> Self {
        Self {
            setup: Setup {
                name: "New setup".into(),
                description: String::new(),
                board: BoardSize { width, height },
                obstacles: Vec::new(),
                white: Vec::new(),
                black: None,
                flag_white: Vec::new(),
                flag_black: Vec::new(),
                mode: Mode::Standard,
                announced: None,
                position: false,
                flags: Vec::new(),
            },
        }
    }

    fn size(&self) -> (i32, i32) {
        (
            i32::from(self.setup.board.width),
            i32::from(self.setup.board.height),
        )
    }

    /// Whether `cell` is on the board.
    #[must_use]
    pub fn contains(&self, [c, r]: Cell) -> bool {
        let (w, h) = self.size();
        (0..w).contains(&c) && (0..h).contains(&r)
    }

    /// The square a label names, when it is on the board.
    #[must_use]
    pub fn cell_of(&self, label: &str) -> Option<Cell> {
        Square::parse(label).map(cell).filter(|c| self.contains(*c))
    }

    /// The label of a cell (`H1`).
    #[must_use]
    pub fn label(&self, c: Cell) -> String {
        square(c).map_or_else(String::new, |s| s.to_string())
    }

    /// Black's pieces as played: its own, or White's turned through the centre.
    #[must_use]
    pub fn black(&self) -> Vec<PieceSetup> {
        self.setup.black.clone().unwrap_or_else(|| {
            let (w, h) = self.size();
            self.setup
                .white
                .iter()
                .map(|p| self.moved_piece(p, Symmetry::Rotate180, w, h))
                .collect()
        })
    }

    /// A team's pieces as played.
    #[must_use]
    pub fn team(&self, team: usize) -> Vec<PieceSetup> {
        match team {
            0 => self.setup.white.clone(),
            1 => self.black(),
            2 => self.setup.flag_white.clone(),
            _ => self.setup.flag_black.clone(),
        }
    }

    fn team_mut(&mut self, team: usize) -> &mut Vec<PieceSetup> {
        match team {
            0 => &mut self.setup.white,
            1 => {
                let black = self.black();
                self.setup.black.get_or_insert(black)
            }
            2 => &mut self.setup.flag_white,
            _ => &mut self.setup.flag_black,
        }
    }

    /// The team and index of the piece on `cell`.
    #[must_use]
    pub fn piece_at(&self, at: Cell) -> Option<(usize, usize)> {
        (0..TEAMS.len()).find_map(|t| {
            self.team(t)
                .iter()
                .position(|p| self.cell_of(&p.at) == Some(at))
                .map(|i| (t, i))
        })
    }

    /// Whether an obstacle stands on `cell`.
    #[must_use]
    pub fn obstacle(&self, at: Cell) -> bool {
        let label = self.label(at);
        self.setup.obstacles.contains(&label)
    }

    fn moved(&self, sym: Symmetry, label: &str, w: i32, h: i32) -> String {
        self.cell_of(label)
            .map_or_else(|| label.to_string(), |c| self.label(sym.cell(c, w, h)))
    }

    fn moved_piece(&self, p: &PieceSetup, sym: Symmetry, w: i32, h: i32) -> PieceSetup {
        PieceSetup {
            at: self.moved(sym, &p.at, w, h),
            facing: p.facing.map(|f| facing(sym, f)),
            ..p.clone()
        }
    }

    /// A flag's south-west square after the symmetry (its 2 × 2 block moves whole).
    fn moved_flag(&self, sym: Symmetry, label: &str, w: i32, h: i32) -> String {
        self.cell_of(label).map_or_else(
            || label.to_string(),
            |at| {
                let [mc, mr] = sym.cell(at, w, h);
                let (cols, rows) = match sym {
                    Symmetry::Rotate180 => (true, true),
                    Symmetry::MirrorWestEast => (true, false),
                    Symmetry::MirrorNorthSouth => (false, true),
                };
                self.label([mc - i32::from(cols), mr - i32::from(rows)])
            },
        )
    }

    fn apply(&mut self, edit: &SquareEdit) {
        match edit {
            SquareEdit::Resize { width, height } => {
                self.setup.board = BoardSize {
                    width: *width,
                    height: *height,
                };
            }
            SquareEdit::Obstacles { cells, on } => {
                let labels: Vec<String> = cells
                    .iter()
                    .filter(|c| self.contains(**c))
                    .map(|c| self.label(*c))
                    .collect();
                let list = &mut self.setup.obstacles;
                list.retain(|o| !labels.contains(o));
                if *on {
                    list.extend(labels);
                }
            }
            SquareEdit::AddPiece { team, piece } => self.team_mut(*team).push(piece.clone()),
            SquareEdit::SetPiece { team, index, piece } => {
                if let Some(p) = self.team_mut(*team).get_mut(*index) {
                    *p = piece.clone();
                }
            }
            SquareEdit::RemovePiece { team, index } => {
                let list = self.team_mut(*team);
                if *index < list.len() {
                    list.remove(*index);
                }
            }
            SquareEdit::Flag { at, on } => {
                let label = self.label(*at);
                self.setup.flags.retain(|f| *f != label);
                if *on && self.contains(*at) {
                    self.setup.flags.push(label);
                }
            }
            SquareEdit::Title { name, description } => {
                self.setup.name.clone_from(name);
                self.setup.description.clone_from(description);
            }
            SquareEdit::Mode(mode) => self.setup.mode = *mode,
            SquareEdit::Announced(a) => self.setup.announced = *a,
            SquareEdit::Position(p) => self.setup.position = *p,
            SquareEdit::Flip(sym) => self.flip(*sym),
            SquareEdit::Mirror => self.mirror(),
        }
    }

    /// The whole board, its pieces, obstacles and flags, turned over by the symmetry.
    fn flip(&mut self, sym: Symmetry) {
        let (w, h) = self.size();
        let before = self.clone();
        let s = &mut self.setup;
        s.obstacles = s
            .obstacles
            .iter()
            .map(|o| before.moved(sym, o, w, h))
            .collect();
        s.flags = s
            .flags
            .iter()
            .map(|f| before.moved_flag(sym, f, w, h))
            .collect();
        for list in [&mut s.white, &mut s.flag_white, &mut s.flag_black] {
            *list = list
                .iter()
                .map(|p| before.moved_piece(p, sym, w, h))
                .collect();
        }
        if let Some(black) = &mut s.black {
            *black = black
                .iter()
                .map(|p| before.moved_piece(p, sym, w, h))
                .collect();
        }
    }

    /// Black made White's image through the centre, and the south half's obstacles and
    /// flags copied onto the north half.
    fn mirror(&mut self) {
        let (w, h) = self.size();
        let before = self.clone();
        let sym = Symmetry::Rotate180;
        // Row 0 is White's edge, in the south.
        let south = |label: &String| before.cell_of(label).is_some_and(|[_, r]| r < h - 1 - r);
        let north = |label: &String| before.cell_of(label).is_some_and(|[_, r]| r > h - 1 - r);
        let s = &mut self.setup;
        let mut obstacles: Vec<String> =
            s.obstacles.iter().filter(|o| !north(o)).cloned().collect();
        obstacles.extend(
            s.obstacles
                .iter()
                .filter(|o| south(o))
                .map(|o| before.moved(sym, o, w, h)),
        );
        obstacles.sort();
        obstacles.dedup();
        s.obstacles = obstacles;
        // A flag's block reaches a row north of its south-west square.
        let flag_south = |label: &String| {
            before
                .cell_of(label)
                .is_some_and(|[_, r]| r + 1 < h - 1 - r)
        };
        let flag_north = |label: &String| before.cell_of(label).is_some_and(|[_, r]| r > h - 2 - r);
        let mut flags: Vec<String> = s.flags.iter().filter(|f| !flag_north(f)).cloned().collect();
        flags.extend(
            s.flags
                .iter()
                .filter(|f| flag_south(f))
                .map(|f| before.moved_flag(sym, f, w, h)),
        );
        s.flags = flags;
        s.black = None;
    }

    fn write_ron(&self) -> String {
        let s = &self.setup;
        let mut out =
            String::from("// A Tank Chess setup, written by the Tanktable scenario editor.\n");
        out.push_str("TankChessSetup(\n");
        let _ = writeln!(out, "    name: {},", super::hex::ron_value(&s.name));
        if !s.description.is_empty() {
            let _ = writeln!(
                out,
                "    description: {},",
                super::hex::ron_value(&s.description)
            );
        }
        let _ = writeln!(
            out,
            "    board: (width: {}, height: {}),",
            s.board.width, s.board.height
        );
        if !s.obstacles.is_empty() {
            let _ = writeln!(
                out,
                "    obstacles: {},",
                super::hex::ron_value(&s.obstacles)
            );
        }
        let mut team = |name: &str, pieces: &[PieceSetup], always: bool| {
            if pieces.is_empty() && !always {
                return;
            }
            let _ = writeln!(out, "    {name}: [");
            for p in pieces {
                let mut line = format!(
                    "(kind: {}, at: {}",
                    super::hex::ron_value(&p.kind),
                    super::hex::ron_value(&p.at)
                );
                if let Some(f) = p.facing {
                    let _ = write!(line, ", facing: {}", super::hex::ron_value(&f));
                }
                if p.command {
                    line.push_str(", command: true");
                }
                let _ = writeln!(out, "        {line}),");
            }
            out.push_str("    ],\n");
        };
        team("white", &s.white, true);
        if let Some(black) = &s.black {
            team("black", black, true);
        }
        team("flag_white", &s.flag_white, false);
        team("flag_black", &s.flag_black, false);
        if s.mode != Mode::Standard {
            let _ = writeln!(out, "    mode: {},", super::hex::ron_value(&s.mode));
        }
        if let Some(a) = s.announced {
            let _ = writeln!(out, "    announced: {a},");
        }
        if s.position {
            out.push_str("    position: true,\n");
        }
        if !s.flags.is_empty() {
            let _ = writeln!(out, "    flags: {},", super::hex::ron_value(&s.flags));
        }
        out.push_str(")\n");
        out
    }

    /// What a problem marks: the square its path or its words name.
    fn marker(&self, path: &str, message: &str) -> Option<Marker> {
        let index = |rest: &str| -> Option<usize> { rest.split_once(']')?.0.parse().ok() };
        let on = |label: Option<&String>| label.and_then(|l| self.cell_of(l)).map(Marker::Cell);
        if let Some(rest) = path.strip_prefix("obstacles[") {
            return on(self.setup.obstacles.get(index(rest)?));
        }
        if let Some(rest) = path.strip_prefix("flags[") {
            return on(self.setup.flags.get(index(rest)?));
        }
        for (t, name) in TEAMS.iter().enumerate() {
            if let Some(rest) = path.strip_prefix(&format!("{name}[")) {
                return on(self.team(t).get(index(rest)?).map(|p| &p.at));
            }
        }
        // "the white LT on D4 can be destroyed …": the square in the words.
        let (_, after) = message.split_once(" on ")?;
        let word = after.split_whitespace().next()?;
        self.cell_of(word).map(Marker::Cell)
    }
}

impl Design for SquareDesign {
    type Edit = SquareEdit;
    type Rules = Rules;

    fn edited(&self, edit: &SquareEdit) -> Self {
        let mut next = self.clone();
        next.apply(edit);
        next
    }

    fn to_ron(&self) -> String {
        self.write_ron()
    }

    fn check(&self, rules: &Rules) -> Check {
        let problems = match Scenario::validate(self.setup.clone(), rules) {
            Ok(_) => Vec::new(),
            Err(p) => p.0,
        };
        let markers = problems
            .iter()
            .map(|(path, message)| self.marker(path, message))
            .collect();
        Check { problems, markers }
    }

    fn read(file: &str, text: &str) -> Result<Self, String> {
        let (setup, _) = crate::data::load_ron::<Setup>(file, text).map_err(|d| d.to_string())?;
        Ok(Self { setup })
    }
}

/// A Tank Chess setup being edited.
pub type SquareEditor = super::Editor<SquareDesign>;

impl super::Editor<SquareDesign> {
    /// A new empty board.
    #[must_use]
    pub fn new_board(rules: Rules, width: u8, height: u8) -> Self {
        Self::with(rules, SquareDesign::blank(width, height), None, None)
    }
}
