//! Editing a Tank Commander scenario: the design (a scenario as written, its terrain one
//! full row of characters per board row), the edits, the symmetry tools, live checks
//! with the places to mark, and the RON it saves.

use std::fmt::Write as _;

use super::{Check, Design, Marker};
use crate::data::Problems;
use crate::grid::{Facing, HexBoard};
use crate::rules::tank_commander::setup::{
    AirSupportSetup, BoardSetup, Edge, MineField, MinesSetup, Mission, ScenarioSetup, SideSetup,
    TerrainSetup, TurnLimitResult, UnitSetup, VictorySetup,
};
use crate::rules::tank_commander::{Rules, Scenario, Terrain};

/// A board cell by offset column and row, from zero (`[2, 4]` is `C5`).
pub type Cell = [i32; 2];

/// A scenario being designed. Its terrain is always written out whole: `default` is
/// open, `rows` has one character per hex, there are no patches, and smoke is a list
/// of spaces; so every edit is a change of characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HexDesign {
    pub setup: ScenarioSetup,
}

/// A symmetry of the rectangular board. Each maps the board onto itself and undoes
/// itself. On the odd-q layout the half-turn is exact when the board is an even number
/// of columns wide, the west-east mirror when it is odd; otherwise alternate columns
/// land half a hex off their mirror image (the map is still one to one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// A half turn about the centre.
    Rotate180,
    /// West and east trade places.
    MirrorWestEast,
    /// North and south trade places.
    MirrorNorthSouth,
}

impl Symmetry {
    pub const ALL: [Symmetry; 3] = [
        Symmetry::Rotate180,
        Symmetry::MirrorWestEast,
        Symmetry::MirrorNorthSouth,
    ];

    /// The symmetry in a few words.
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            Symmetry::Rotate180 => "half turn",
            Symmetry::MirrorWestEast => "west ↔ east",
            Symmetry::MirrorNorthSouth => "north ↔ south",
        }
    }

    /// Where `cell` goes on a `width` × `height` board.
    #[must_use]
    pub fn cell(self, [c, r]: Cell, width: i32, height: i32) -> Cell {
        match self {
            Symmetry::Rotate180 => [width - 1 - c, height - 1 - r],
            Symmetry::MirrorWestEast => [width - 1 - c, r],
            Symmetry::MirrorNorthSouth => [c, height - 1 - r],
        }
    }

    /// Where a hull or turret facing points afterwards.
    #[must_use]
    pub fn facing(self, f: Facing) -> Facing {
        let i = f.index();
        Facing::from_index(match self {
            Symmetry::Rotate180 => i + 3,
            Symmetry::MirrorWestEast => 6 - i,
            Symmetry::MirrorNorthSouth => 9 - i,
        })
    }

    /// Where a board edge goes.
    #[must_use]
    pub fn edge(self, e: Edge) -> Edge {
        let ns = |e| match e {
            Edge::North => Edge::South,
            Edge::South => Edge::North,
            other => other,
        };
        let we = |e| match e {
            Edge::West => Edge::East,
            Edge::East => Edge::West,
            other => other,
        };
        match self {
            Symmetry::Rotate180 => ns(we(e)),
            Symmetry::MirrorWestEast => we(e),
            Symmetry::MirrorNorthSouth => ns(e),
        }
    }

    /// Whether `cell` lies in the half the mirror copies from: the south half (half
    /// turn, north-south) or the west half (west-east). Cells the symmetry leaves in
    /// place belong to neither half.
    #[must_use]
    pub fn is_source(self, cell: Cell, width: i32, height: i32) -> bool {
        let [c, r] = cell;
        let [mc, mr] = self.cell(cell, width, height);
        match self {
            Symmetry::Rotate180 => (r, c) > (mr, mc),
            Symmetry::MirrorWestEast => c < mc,
            Symmetry::MirrorNorthSouth => r > mr,
        }
    }
}

/// One edit of a design. Every change the editor makes is one of these, so that each can
/// be undone, replayed and tested.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// A new board size; terrain beyond it is cut off, new space is open. Units and
    /// marks off the new board stay, and the check lists them.
    Resize {
        width: u16,
        height: u16,
    },
    /// Terrain on each cell (the eraser paints open ground).
    Paint {
        cells: Vec<Cell>,
        terrain: Terrain,
    },
    /// Terrain on every cell reached from `at` through cells of `at`'s terrain.
    Fill {
        at: Cell,
        terrain: Terrain,
    },
    /// Smoke on or off over each cell.
    Smoke {
        cells: Vec<Cell>,
        on: bool,
    },
    AddUnit(Box<UnitSetup>),
    /// Unit `index` as given (moved, turned, renamed, rebuilt …).
    SetUnit(usize, Box<UnitSetup>),
    RemoveUnit(usize),
    /// An objective space on or off.
    Objective {
        at: Cell,
        on: bool,
    },
    /// The mission's own hexes: a Training waypoint or a Take Area hex on or off (a
    /// waypoint added goes last), or the building a Destroy Target mission must bring
    /// down.
    MissionHex {
        at: Cell,
    },
    /// A mine of `side` at the cell, or none.
    Mine {
        at: Cell,
        side: Option<String>,
    },
    Title {
        name: String,
        description: String,
    },
    Victory(VictorySetup),
    /// The Weather and Night Fighting options, and whether mines are hidden.
    Options {
        weather: bool,
        night: bool,
        hidden_mines: bool,
    },
    /// Free air strikes for a side (0 removes them).
    AirSupport {
        side: String,
        strikes: u8,
    },
    Seed(Option<u64>),
    /// The whole board, its units and marks, turned over by the symmetry.
    Flip(Symmetry),
    /// The source half (and its units, objectives and mines) copied onto the other half
    /// by the symmetry, the copies given to the other side: a fair map in one click.
    Mirror(Symmetry),
}

impl HexDesign {
    /// An empty open board with two sides, Blue and Red, fighting to the last tank over
    /// ten turns.
    #[must_use]
    pub fn blank(width: u16, height: u16) -> Self {
        Self {
            setup: ScenarioSetup {
                name: "New scenario".into(),
                description: String::new(),
                board: BoardSetup { width, height },
                terrain: TerrainSetup {
                    default: Terrain::Open,
                    rows: vec![".".repeat(usize::from(width)); usize::from(height)],
                    patches: Vec::new(),
                    smoke: Vec::new(),
                },
                sides: vec![
                    SideSetup {
                        name: "Blue".into(),
                    },
                    SideSetup { name: "Red".into() },
                ],
                units: Vec::new(),
                victory: VictorySetup {
                    mission: Mission::DestroyAll,
                    turn_limit: Some(10),
                    at_turn_limit: TurnLimitResult::Draw,
                },
                mines: MinesSetup::default(),
                objectives: Vec::new(),
                seed: None,
                weather: false,
                night: false,
                air_support: Vec::new(),
            },
        }
    }

    /// A scenario as written, its terrain written out whole (the default, then the rows,
    /// then the patches; characters that name no terrain stay open, and the check of
    /// the file reports them).
    #[must_use]
    pub fn from_setup(mut setup: ScenarioSetup) -> Self {
        let (w, h) = (setup.board.width, setup.board.height);
        let board = HexBoard::new(w, h);
        let mut cells = vec![setup.terrain.default; usize::from(w) * usize::from(h)];
        let mut smoke: Vec<String> = setup.terrain.smoke.clone();
        for (r, row) in setup.terrain.rows.iter().enumerate().take(usize::from(h)) {
            let chars = row.chars().filter(|c| !c.is_whitespace());
            for (c, ch) in chars.enumerate().take(usize::from(w)) {
                if let Some((t, smoky)) = Terrain::from_symbol(ch) {
                    cells[r * usize::from(w) + c] = t;
                    if smoky {
                        smoke.push(board.label(board.hex_at(c as i32, r as i32)));
                    }
                }
            }
        }
        for patch in &setup.terrain.patches {
            for label in &patch.at {
                if let Ok(hex) = board.parse(label)
                    && let Some(i) = board.index(hex)
                {
                    cells[i] = patch.terrain;
                }
            }
        }
        smoke.sort();
        smoke.dedup();
        setup.terrain = TerrainSetup {
            default: Terrain::Open,
            rows: cells
                .chunks(usize::from(w).max(1))
                .map(|row| row.iter().map(|t| t.symbol()).collect())
                .collect(),
            patches: Vec::new(),
            smoke,
        };
        Self { setup }
    }

    /// The board the design's cells lie on.
    #[must_use]
    pub fn board(&self) -> HexBoard {
        HexBoard::new(self.setup.board.width, self.setup.board.height)
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

    /// The label of a cell (`C5`).
    #[must_use]
    pub fn label(&self, [c, r]: Cell) -> String {
        let board = self.board();
        board.label(board.hex_at(c, r))
    }

    /// The cell a label names, when it is on the board.
    #[must_use]
    pub fn cell_of(&self, label: &str) -> Option<Cell> {
        let board = self.board();
        let hex = board.parse(label).ok()?;
        board.contains(hex).then(|| board.offset_of(hex))
    }

    /// The terrain of an on-board cell.
    #[must_use]
    pub fn terrain(&self, [c, r]: Cell) -> Terrain {
        let row = usize::try_from(r).ok();
        let col = usize::try_from(c).ok();
        row.zip(col)
            .and_then(|(r, c)| self.setup.terrain.rows.get(r)?.as_bytes().get(c).copied())
            .and_then(|b| Terrain::from_symbol(char::from(b)))
            .map_or(Terrain::Open, |(t, _)| t)
    }

    fn set_terrain(&mut self, cell: Cell, terrain: Terrain) {
        if !self.contains(cell) {
            return;
        }
        let [c, r] = cell.map(|v| usize::try_from(v).unwrap_or(0));
        if let Some(row) = self.setup.terrain.rows.get_mut(r)
            && c < row.len()
        {
            let mut buf = [0u8; 4];
            row.replace_range(c..=c, terrain.symbol().encode_utf8(&mut buf));
        }
    }

    /// Whether smoke hangs over the cell.
    #[must_use]
    pub fn smoke(&self, cell: Cell) -> bool {
        let label = self.label(cell);
        self.setup.terrain.smoke.contains(&label)
    }

    /// The unit standing on the cell, by index.
    #[must_use]
    pub fn unit_at(&self, cell: Cell) -> Option<usize> {
        self.setup
            .units
            .iter()
            .position(|u| self.cell_of(&u.at) == Some(cell))
    }

    /// The side that laid a mine on the cell.
    #[must_use]
    pub fn mine_at(&self, cell: Cell) -> Option<&str> {
        let label = self.label(cell);
        self.setup
            .mines
            .fields
            .iter()
            .find(|f| f.at.contains(&label))
            .map(|f| f.side.as_str())
    }

    /// The mission's own hexes (waypoints in order, the area, the target building).
    #[must_use]
    pub fn mission_hexes(&self) -> Vec<Cell> {
        let labels: Vec<&String> = match &self.setup.victory.mission {
            Mission::Training { waypoints } => waypoints.iter().collect(),
            Mission::TakeArea { area, .. } => area.iter().collect(),
            Mission::DestroyTarget {
                building: Some(b), ..
            } => vec![b],
            _ => Vec::new(),
        };
        labels.into_iter().filter_map(|l| self.cell_of(l)).collect()
    }

    /// Whether the cell is an objective.
    #[must_use]
    pub fn objective(&self, cell: Cell) -> bool {
        let label = self.label(cell);
        self.setup.objectives.contains(&label)
    }

    fn apply(&mut self, edit: &Edit) {
        match edit {
            Edit::Resize { width, height } => self.resize(*width, *height),
            Edit::Paint { cells, terrain } => {
                for &cell in cells {
                    self.set_terrain(cell, *terrain);
                }
            }
            Edit::Fill { at, terrain } => self.fill(*at, *terrain),
            Edit::Smoke { cells, on } => self.set_smoke(cells, *on),
            Edit::AddUnit(unit) => self.setup.units.push((**unit).clone()),
            Edit::SetUnit(i, unit) => self.set_unit(*i, unit),
            Edit::RemoveUnit(i) => {
                if *i < self.setup.units.len() {
                    self.setup.units.remove(*i);
                }
            }
            Edit::Objective { at, on } => self.set_objective(*at, *on),
            Edit::Mine { at, side } => self.set_mine(*at, side.as_deref()),
            Edit::Title { name, description } => {
                self.setup.name.clone_from(name);
                self.setup.description.clone_from(description);
            }
            Edit::Victory(v) => self.setup.victory = v.clone(),
            Edit::MissionHex { at } => self.toggle_mission_hex(*at),
            Edit::Options {
                weather,
                night,
                hidden_mines,
            } => {
                self.setup.weather = *weather;
                self.setup.night = *night;
                self.setup.mines.hidden = *hidden_mines;
            }
            Edit::AirSupport { side, strikes } => self.set_air_support(side, *strikes),
            Edit::Seed(seed) => self.setup.seed = *seed,
            Edit::Flip(sym) => self.flip(*sym),
            Edit::Mirror(sym) => self.mirror(*sym),
        }
    }

    /// Smoke on or off over each of the cells on the board.
    fn set_smoke(&mut self, cells: &[Cell], on: bool) {
        let labels: Vec<String> = cells
            .iter()
            .filter(|c| self.contains(**c))
            .map(|c| self.label(*c))
            .collect();
        let smoke = &mut self.setup.terrain.smoke;
        smoke.retain(|s| !labels.contains(s));
        if on {
            smoke.extend(labels);
        }
        smoke.sort();
        smoke.dedup();
    }

    /// Unit `i` replaced by `unit`; a new name carries over to the mission.
    fn set_unit(&mut self, i: usize, unit: &UnitSetup) {
        if let Some(u) = self.setup.units.get_mut(i) {
            let old = std::mem::replace(u, unit.clone()).name;
            if old != unit.name {
                self.rename(&old, &unit.name);
            }
        }
    }

    /// An objective at the cell on or off (only a cell on the board is turned on).
    fn set_objective(&mut self, at: Cell, on: bool) {
        let label = self.label(at);
        self.setup.objectives.retain(|o| *o != label);
        if on && self.contains(at) {
            self.setup.objectives.push(label);
        }
    }

    /// A mine of `side` at the cell (only on the board), or none; empty fields go.
    fn set_mine(&mut self, at: Cell, side: Option<&str>) {
        let label = self.label(at);
        let on_board = self.contains(at);
        let fields = &mut self.setup.mines.fields;
        for f in fields.iter_mut() {
            f.at.retain(|a| *a != label);
        }
        if let Some(side) = side
            && on_board
        {
            match fields.iter_mut().find(|f| f.side == side) {
                Some(f) => f.at.push(label),
                None => fields.push(MineField {
                    side: side.to_string(),
                    at: vec![label],
                }),
            }
        }
        fields.retain(|f| !f.at.is_empty());
    }

    /// The cell (on the board) toggled as a Training waypoint or a Take Area hex, or
    /// made the building a Destroy Target mission must bring down.
    fn toggle_mission_hex(&mut self, at: Cell) {
        if !self.contains(at) {
            return;
        }
        let label = self.label(at);
        let toggle = |list: &mut Vec<String>| {
            if let Some(i) = list.iter().position(|l| *l == label) {
                list.remove(i);
            } else {
                list.push(label.clone());
            }
        };
        match &mut self.setup.victory.mission {
            Mission::Training { waypoints } => toggle(waypoints),
            Mission::TakeArea { area, .. } => toggle(area),
            Mission::DestroyTarget { unit, building, .. } => {
                *unit = None;
                *building = Some(label.clone());
            }
            _ => {}
        }
    }

    /// Free air strikes for a side (0 removes them).
    fn set_air_support(&mut self, side: &str, strikes: u8) {
        let air = &mut self.setup.air_support;
        air.retain(|a| a.side != side);
        if strikes > 0 {
            air.push(AirSupportSetup {
                side: side.to_string(),
                strikes,
            });
        }
    }

    fn resize(&mut self, width: u16, height: u16) {
        let (w, h) = (usize::from(width), usize::from(height));
        let rows = &mut self.setup.terrain.rows;
        rows.resize(h, String::new());
        for row in rows.iter_mut() {
            row.truncate(w);
            while row.len() < w {
                row.push('.');
            }
        }
        self.setup.board = BoardSetup { width, height };
        let board = self.board();
        let on = |l: &String| board.parse(l).is_ok_and(|h| board.contains(h));
        self.setup.terrain.smoke.retain(on);
    }

    /// A unit renamed: the mission's references to it (the escorted squad, the target)
    /// follow the new name.
    fn rename(&mut self, old: &str, new: &str) {
        match &mut self.setup.victory.mission {
            Mission::Escort { squad, .. } if squad == old => new.clone_into(squad),
            Mission::DestroyTarget {
                unit: Some(unit), ..
            } if unit == old => new.clone_into(unit),
            _ => {}
        }
    }

    fn fill(&mut self, at: Cell, terrain: Terrain) {
        if !self.contains(at) {
            return;
        }
        let from = self.terrain(at);
        if from == terrain {
            return;
        }
        let board = self.board();
        let mut todo = vec![at];
        while let Some(cell) = todo.pop() {
            if !self.contains(cell) || self.terrain(cell) != from {
                continue;
            }
            self.set_terrain(cell, terrain);
            let hex = board.hex_at(cell[0], cell[1]);
            for f in Facing::ALL {
                todo.push(board.offset_of(hex + f.offset()));
            }
        }
    }

    /// `label` moved by the symmetry (left alone when it names no board space).
    fn moved(&self, sym: Symmetry, label: &str) -> String {
        let (w, h) = self.size();
        self.cell_of(label)
            .map_or_else(|| label.to_string(), |c| self.label(sym.cell(c, w, h)))
    }

    fn flip(&mut self, sym: Symmetry) {
        let (w, h) = self.size();
        let before = self.clone();
        for r in 0..h {
            for c in 0..w {
                self.set_terrain(sym.cell([c, r], w, h), before.terrain([c, r]));
            }
        }
        let moved = |l: &String| before.moved(sym, l);
        let s = &mut self.setup;
        s.terrain.smoke = s.terrain.smoke.iter().map(moved).collect();
        s.terrain.smoke.sort();
        for u in &mut s.units {
            u.at = moved(&u.at);
            u.facing = sym.facing(u.facing);
            u.turret = u.turret.map(|t| sym.facing(t));
        }
        s.objectives = s.objectives.iter().map(moved).collect();
        for f in &mut s.mines.fields {
            f.at = f.at.iter().map(moved).collect();
        }
        match &mut s.victory.mission {
            Mission::Breakthrough { edge, .. }
            | Mission::Escort { edge, .. }
            | Mission::CrossMinefield { edge, .. } => *edge = sym.edge(*edge),
            Mission::Training { waypoints } => *waypoints = waypoints.iter().map(moved).collect(),
            Mission::TakeArea { area, .. } => *area = area.iter().map(moved).collect(),
            Mission::DestroyTarget {
                building: Some(b), ..
            } => *b = moved(b),
            _ => {}
        }
    }

    fn mirror(&mut self, sym: Symmetry) {
        let (w, h) = self.size();
        let before = self.clone();
        let side_of = |cell: Cell| {
            if sym.is_source(cell, w, h) {
                Some(true)
            } else if sym.is_source(sym.cell(cell, w, h), w, h) {
                Some(false)
            } else {
                None
            }
        };
        let source = |label: &str| {
            before
                .cell_of(label)
                .is_some_and(|c| side_of(c) == Some(true))
        };
        let kept = |label: &str| {
            before
                .cell_of(label)
                .is_none_or(|c| side_of(c) != Some(false))
        };
        for r in 0..h {
            for c in 0..w {
                if side_of([c, r]) == Some(true) {
                    self.set_terrain(sym.cell([c, r], w, h), before.terrain([c, r]));
                }
            }
        }
        let moved = |l: &String| before.moved(sym, l);
        let names: Vec<String> = self.setup.sides.iter().map(|s| s.name.clone()).collect();
        let other = |side: &str| match names.as_slice() {
            [a, b, ..] if side == a => b.clone(),
            [a, b, ..] if side == b => a.clone(),
            _ => side.to_string(),
        };
        let s = &mut self.setup;
        let mut smoke = mirrored_labels(&s.terrain.smoke, &kept, &source, &moved);
        smoke.sort();
        smoke.dedup();
        s.terrain.smoke = smoke;
        mirror_units(&mut s.units, sym, &kept, &source, &moved, &other);
        s.objectives = mirrored_labels(&s.objectives, &kept, &source, &moved);
        s.mines.fields = mirrored_mines(&s.mines.fields, &kept, &source, &moved, &other);
    }

    /// The scenario as RON, in a stable, readable form: the terrain as a picture with
    /// column letters and row numbers, a unit a line, and only what differs from the
    /// defaults.
    fn write_ron(&self) -> String {
        let s = &self.setup;
        let mut out = String::from(
            "// A Tank Commander scenario, written by the Tanktable scenario editor.\n",
        );
        out.push_str("Scenario(\n");
        let _ = writeln!(out, "    name: {},", ron_value(&s.name));
        if !s.description.is_empty() {
            let _ = writeln!(out, "    description: {},", ron_value(&s.description));
        }
        let _ = writeln!(
            out,
            "    board: (width: {}, height: {}),",
            s.board.width, s.board.height
        );
        out.push_str("    terrain: (\n        default: Open,\n");
        let letters: String = (0..i32::from(s.board.width))
            .map(crate::grid::hex::column_letters)
            .map(|l| l.chars().last().unwrap_or(' '))
            .collect();
        let _ = writeln!(out, "        //      {letters}");
        out.push_str("        rows: [\n");
        for (i, row) in s.terrain.rows.iter().enumerate() {
            let _ = writeln!(out, "            {}, // {}", ron_value(row), i + 1);
        }
        out.push_str("        ],\n");
        if !s.terrain.smoke.is_empty() {
            let _ = writeln!(out, "        smoke: {},", ron_value(&s.terrain.smoke));
        }
        out.push_str("    ),\n");
        let _ = writeln!(out, "    sides: {},", ron_value(&s.sides));
        out.push_str("    units: [\n");
        for u in &s.units {
            let _ = writeln!(out, "        {},", unit_line(u));
        }
        out.push_str("    ],\n");
        let _ = writeln!(out, "    victory: {},", ron_value(&s.victory));
        if s.mines != MinesSetup::default() {
            let _ = writeln!(out, "    mines: {},", ron_value(&s.mines));
        }
        if !s.objectives.is_empty() {
            let _ = writeln!(out, "    objectives: {},", ron_value(&s.objectives));
        }
        if let Some(seed) = s.seed {
            let _ = writeln!(out, "    seed: {seed},");
        }
        if s.weather {
            out.push_str("    weather: true,\n");
        }
        if s.night {
            out.push_str("    night: true,\n");
        }
        if !s.air_support.is_empty() {
            let _ = writeln!(out, "    air_support: {},", ron_value(&s.air_support));
        }
        out.push_str(")\n");
        out
    }

    /// Every problem the scenario validator finds, as the file would report it, with the
    /// places to mark on the table.
    fn check_with(&self, rules: &Rules) -> Check {
        let problems = match Scenario::validate(self.setup.clone(), rules) {
            Ok(_) => Problems::default(),
            Err(p) => p,
        };
        let markers = problems
            .0
            .iter()
            .map(|(path, _)| self.marker(path))
            .collect();
        Check {
            problems: problems.0,
            markers,
        }
    }

    /// What a problem's path points at on the table.
    fn marker(&self, path: &str) -> Option<Marker> {
        let index = |rest: &str| -> Option<(usize, String)> {
            let (i, tail) = rest.split_once(']')?;
            Some((i.parse().ok()?, tail.to_string()))
        };
        let hex = |label: Option<&String>| label.and_then(|l| self.cell_of(l)).map(Marker::Cell);
        if let Some(rest) = path.strip_prefix("units[") {
            let (i, _) = index(rest)?;
            return (i < self.setup.units.len()).then_some(Marker::Unit(i));
        }
        if let Some(rest) = path.strip_prefix("objectives[") {
            return hex(self.setup.objectives.get(index(rest)?.0));
        }
        if let Some(rest) = path.strip_prefix("terrain.smoke[") {
            return hex(self.setup.terrain.smoke.get(index(rest)?.0));
        }
        if let Some(rest) = path.strip_prefix("terrain.rows[") {
            return Some(Marker::Row(index(rest)?.0));
        }
        if let Some(rest) = path.strip_prefix("mines.fields[") {
            let (f, tail) = index(rest)?;
            let (j, _) = index(tail.strip_prefix(".at[")?)?;
            return hex(self.setup.mines.fields.get(f)?.at.get(j));
        }
        let list = match &self.setup.victory.mission {
            Mission::Training { waypoints } => Some(("victory.mission.waypoints[", waypoints)),
            Mission::TakeArea { area, .. } => Some(("victory.mission.area[", area)),
            _ => None,
        };
        if let Some((prefix, list)) = list
            && let Some(rest) = path.strip_prefix(prefix)
        {
            return hex(list.get(index(rest)?.0));
        }
        None
    }
}

/// A value as compact RON on one line.
pub(super) fn ron_value<T: serde::Serialize + ?Sized>(value: &T) -> String {
    let config = ron::ser::PrettyConfig::new()
        .compact_structs(true)
        .compact_arrays(true)
        .compact_maps(true)
        .separator(" ")
        .new_line("")
        .indentor("");
    crate::data::ron_options()
        .to_string_pretty(value, config)
        .unwrap_or_default()
}

/// A unit on one line, with only the fields that differ from their defaults.
fn unit_line(u: &UnitSetup) -> String {
    let mut fields = vec![
        format!("side: {}", ron_value(&u.side)),
        format!("name: {}", ron_value(&u.name)),
    ];
    if u.kind != crate::rules::tank_commander::UnitKind::Tank {
        fields.insert(1, format!("kind: {}", ron_value(&u.kind)));
    }
    fields.push(format!("at: {}", ron_value(&u.at)));
    fields.push(format!("facing: {}", ron_value(&u.facing)));
    if let Some(t) = u.turret {
        fields.push(format!("turret: {}", ron_value(&t)));
    }
    if let Some(t) = &u.unit_type {
        fields.push(format!("type: {}", ron_value(t)));
    }
    if u.painted {
        fields.push("painted: true".into());
    }
    if u.named {
        fields.push("named: true".into());
    }
    let b = &u.build;
    let mut build = Vec::new();
    let armor: Vec<String> = [
        ("front", b.armor.front),
        ("side", b.armor.side),
        ("rear", b.armor.rear),
    ]
    .into_iter()
    .filter(|(_, v)| *v > 0)
    .map(|(k, v)| format!("{k}: {v}"))
    .collect();
    if !armor.is_empty() {
        build.push(format!("armor: ({})", armor.join(", ")));
    }
    for (field, on) in b.flags() {
        if on {
            build.push(format!("{field}: true"));
        }
    }
    if b.mines > 0 {
        build.push(format!("mines: {}", b.mines));
    }
    if !build.is_empty() {
        fields.push(format!("build: ({})", build.join(", ")));
    }
    let crew: Vec<String> = [
        ("commander", &u.crew.commander),
        ("driver", &u.crew.driver),
        ("gunner", &u.crew.gunner),
        ("loader", &u.crew.loader),
        ("lieutenant", &u.crew.lieutenant),
    ]
    .into_iter()
    .filter(|(_, n)| !n.is_empty())
    .map(|(k, n)| format!("{k}: {}", ron_value(n)))
    .collect();
    if !crew.is_empty() {
        fields.push(format!("crew: ({})", crew.join(", ")));
    }
    if let Some(round) = u.loaded {
        fields.push(format!("loaded: Some({})", ron_value(&round)));
    }
    if !u.veterans.is_empty() {
        fields.push(format!("veterans: {}", ron_value(&u.veterans)));
    }
    format!("({})", fields.join(", "))
}

impl Design for HexDesign {
    type Edit = Edit;
    type Rules = Rules;

    fn edited(&self, edit: &Edit) -> Self {
        let mut next = self.clone();
        next.apply(edit);
        next
    }

    fn to_ron(&self) -> String {
        self.write_ron()
    }

    fn check(&self, rules: &Rules) -> Check {
        self.check_with(rules)
    }

    fn read(file: &str, text: &str) -> Result<Self, String> {
        let (setup, _) =
            crate::data::load_ron::<ScenarioSetup>(file, text).map_err(|d| d.to_string())?;
        Ok(Self::from_setup(setup))
    }
}

/// A Tank Commander scenario being edited.
pub type HexEditor = super::Editor<HexDesign>;

impl super::Editor<HexDesign> {
    /// A new blank board.
    #[must_use]
    pub fn new(rules: Rules, width: u16, height: u16) -> Self {
        Self::with(rules, HexDesign::blank(width, height), None, None)
    }
}

/// The labels a mirror keeps (those not on the copied-over half), then the source half's
/// labels moved across.
fn mirrored_labels(
    labels: &[String],
    kept: &dyn Fn(&str) -> bool,
    source: &dyn Fn(&str) -> bool,
    moved: &dyn Fn(&String) -> String,
) -> Vec<String> {
    let mut out: Vec<String> = labels.iter().filter(|l| kept(l)).cloned().collect();
    out.extend(labels.iter().filter(|l| source(l)).map(moved));
    out
}

/// The units a mirror keeps, then a copy of each source-half unit moved across to the
/// other side, renamed for it.
fn mirror_units(
    units: &mut Vec<UnitSetup>,
    sym: Symmetry,
    kept: &dyn Fn(&str) -> bool,
    source: &dyn Fn(&str) -> bool,
    moved: &dyn Fn(&String) -> String,
    other: &dyn Fn(&str) -> String,
) {
    units.retain(|u| kept(&u.at));
    let copies: Vec<UnitSetup> = units
        .iter()
        .filter(|u| source(&u.at))
        .map(|u| UnitSetup {
            side: other(&u.side),
            name: mirrored_name(&u.name, &u.side, &other(&u.side)),
            at: moved(&u.at),
            facing: sym.facing(u.facing),
            turret: u.turret.map(|t| sym.facing(t)),
            ..u.clone()
        })
        .collect();
    units.extend(copies);
}

/// The mine fields after a mirror: each side's kept mines, and the source half's mines
/// moved across to the other side's field; empty fields go.
fn mirrored_mines(
    old: &[MineField],
    kept: &dyn Fn(&str) -> bool,
    source: &dyn Fn(&str) -> bool,
    moved: &dyn Fn(&String) -> String,
    other: &dyn Fn(&str) -> String,
) -> Vec<MineField> {
    let mut fields: Vec<MineField> = old
        .iter()
        .map(|f| MineField {
            side: f.side.clone(),
            at: f.at.iter().filter(|l| kept(l)).cloned().collect(),
        })
        .collect();
    for f in old {
        let copied: Vec<String> = f.at.iter().filter(|l| source(l)).map(moved).collect();
        if copied.is_empty() {
            continue;
        }
        let side = other(&f.side);
        match fields.iter_mut().find(|g| g.side == side) {
            Some(g) => g.at.extend(copied),
            None => fields.push(MineField { side, at: copied }),
        }
    }
    fields.retain(|f| !f.at.is_empty());
    fields
}

/// The name of a unit's mirror, named for the side it joins: the side's name put in place
/// of the old side's ("Blue Anvil" becomes "Red Anvil"), or before the name ("Anvil"
/// becomes "Red Anvil").
fn mirrored_name(name: &str, side: &str, other: &str) -> String {
    if side != other && name.contains(side) {
        name.replacen(side, other, 1)
    } else if side == other {
        format!("{name} (mirror)")
    } else {
        format!("{other} {name}")
    }
}
