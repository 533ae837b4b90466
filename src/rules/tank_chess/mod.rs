//! Tank Chess: a square board, pieces with facing-based armor, one move and one shot a
//! turn, the Command tank to destroy or to drive off the far edge, and (in announced play)
//! check, escape, checkmate and escapemate.
//!
//! ```
//! use tanktable::framework::{Game, Match};
//! use tanktable::rules::tank_chess::{Rules, Scenario, TankChess};
//!
//! let rules = Rules::builtin();
//! let scenario = Scenario::builtin_default(&rules);
//! let mut game = Match::new(TankChess::new(&scenario, &rules), 1);
//! let white = game.state().to_act()[0];
//! let first = game.state().legal_actions(white)[0];
//! game.play(white, &first).unwrap();
//! ```

pub mod board;
pub mod bot;
pub mod notation;
mod playable;
pub mod setup;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use board::{Dir8, Square};
pub use playable::ChessSetup;
pub use setup::{Kind, Mode, Rules, Scenario, Setup, Weapon};

use crate::framework::{Game, MatchRng, Outcome, PlayerId};

/// The default setup, compiled in as a fallback.
pub const BUILTIN_SCENARIO: &str = include_str!("../../../scenarios/tank-chess/basic-16.ron");

impl Scenario {
    /// The default 16×16 setup.
    ///
    /// # Panics
    /// Never: the shipped file is checked by the tests.
    #[must_use]
    pub fn builtin_default(rules: &Rules) -> Self {
        Self::parse("scenarios/tank-chess/basic-16.ron", BUILTIN_SCENARIO, rules)
            .expect("the shipped setup is valid")
    }
}

/// White and Black.
pub const WHITE: PlayerId = PlayerId(0);
pub const BLACK: PlayerId = PlayerId(1);

/// Whether a piece is still in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PieceState {
    Active,
    /// Destroyed: tipped over where it stood, an obstacle now.
    Wrecked,
    /// Left the board across the far edge.
    Escaped,
}

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    /// White's colour (White and Flag White).
    pub white: bool,
    /// The seat: 0 White, 1 Black, 2 Flag White, 3 Flag Black.
    pub side: u8,
    pub kind: Kind,
    pub at: Square,
    pub facing: Dir8,
    pub command: bool,
    pub state: PieceState,
}

impl Piece {
    #[must_use]
    pub fn side(&self) -> PlayerId {
        PlayerId(self.side)
    }

    /// "white CLT", "black HM".
    #[must_use]
    pub fn label(&self) -> String {
        format!(
            "{} {}{}",
            ["white", "black", "flag-white", "flag-black"][usize::from(self.side.min(3))],
            if self.command { "C" } else { "" },
            self.kind
        )
    }
}

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cell {
    Empty,
    Obstacle,
    /// A piece (active or wrecked), by index.
    Piece(u8),
}

/// A move: a piece goes from `from` to `to` (the same square for a turn in place), ends
/// facing `facing`, then may fire at the enemy piece on `fire`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    Move {
        from: Square,
        to: Square,
        facing: Dir8,
        fire: Option<Square>,
    },
    /// The piece on `from` drives off the far edge.
    Escape { from: Square },
    /// Capture the Flag: the piece moves and takes flag `flag` (from its place, from an
    /// adjacent wreck or an adjacent ally); it does not fire this move.
    Take {
        from: Square,
        to: Square,
        facing: Dir8,
        flag: u8,
    },
    /// Give up the game.
    Resign,
    /// The side to move ran out of time on the chess clock.
    OutOfTime,
}

/// Which armor a shot struck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArmorSide {
    Front,
    Side,
    Rear,
}

impl std::fmt::Display for ArmorSide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ArmorSide::Front => "front",
            ArmorSide::Side => "side",
            ArmorSide::Rear => "rear",
        })
    }
}

/// An announcement after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Announcement {
    /// The mover could destroy the enemy Command tank next move (`+`).
    Check,
    /// The mover's Command tank could escape next move (`-`).
    Escape,
    /// The threat cannot be answered (`#`): the game is won.
    Checkmate,
    /// The escape cannot be prevented (`=`): the game is won.
    Escapemate,
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    Moved {
        piece: String,
        from: Square,
        to: Square,
        facing: Dir8,
    },
    Destroyed {
        target: String,
        at: Square,
        by: String,
        armor: ArmorSide,
        armor_value: u8,
        firepower: u8,
    },
    Escaped {
        piece: String,
        from: Square,
    },
    FlagTaken {
        piece: String,
        at: Square,
        flag: u8,
    },
    FlagHome {
        piece: String,
        flag: u8,
    },
    Announced(Announcement),
    Resigned {
        side: PlayerId,
    },
    GameEnded {
        outcome: Outcome,
    },
}

/// Where a Capture the Flag flag is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Flag {
    /// In its place: where four squares meet (the south-west one is named).
    Standing(Square),
    /// Carried by the piece with this index (or lying on its wreck).
    Carried(u8),
    /// Brought home by this side.
    Home(PlayerId),
}

/// A game of Tank Chess.
#[derive(Clone, Debug, Serialize)]
pub struct TankChess {
    #[serde(skip)]
    rules: Arc<Rules>,
    #[serde(skip)]
    name: Arc<str>,
    width: u8,
    height: u8,
    cells: Vec<Cell>,
    pieces: Vec<Piece>,
    /// The seat to move.
    turn: u8,
    /// Seats at the table: 2, or 4 in Four Players.
    seats: u8,
    plies: u32,
    mode: Mode,
    announced: bool,
    result: Option<Outcome>,
    escaped: [u8; 2],
    /// Points for destroyed enemy pieces: 1 each, 2 for a Command tank (Four Players).
    kills: [u16; 4],
    last: Option<Announcement>,
    flags: Vec<Flag>,
}

/// Where a forward step leads.
enum Step {
    To(Square),
    Exit,
    Blocked,
}

impl TankChess {
    /// Sets up a game.
    #[must_use]
    pub fn new(scenario: &Scenario, rules: &Rules) -> Self {
        let (w, h) = (scenario.width, scenario.height);
        let mut cells = vec![Cell::Empty; usize::from(w) * usize::from(h)];
        for o in &scenario.obstacles {
            cells[usize::from(o.row) * usize::from(w) + usize::from(o.col)] = Cell::Obstacle;
        }
        let mut pieces = Vec::new();
        for (i, p) in scenario.pieces.iter().enumerate() {
            #[allow(
                clippy::cast_possible_truncation,
                reason = "at most 400 squares, checked"
            )]
            let id = i as u8;
            cells[usize::from(p.at.row) * usize::from(w) + usize::from(p.at.col)] = Cell::Piece(id);
            pieces.push(Piece {
                white: p.side % 2 == 0,
                side: p.side,
                kind: p.kind,
                at: p.at,
                facing: p.facing,
                command: p.command,
                state: PieceState::Active,
            });
        }
        Self {
            rules: Arc::new(rules.clone()),
            name: scenario.setup.name.as_str().into(),
            width: w,
            height: h,
            cells,
            pieces,
            turn: 0,
            seats: if matches!(scenario.setup.mode, Mode::FourPlayers { .. }) {
                4
            } else {
                2
            },
            plies: 0,
            mode: scenario.setup.mode,
            announced: scenario.setup.announced.unwrap_or(rules.announced),
            result: None,
            escaped: [0; 2],
            kills: [0; 4],
            last: None,
            flags: scenario.flags.iter().map(|f| Flag::Standing(*f)).collect(),
        }
    }

    /// The seat after `seat`: in Four Players, skipping seats with no piece left.
    fn next_seat(&self, seat: u8) -> u8 {
        for k in 1..=self.seats {
            let s = (seat + k) % self.seats;
            if self.seats == 2
                || self
                    .pieces
                    .iter()
                    .any(|p| p.side == s && p.state == PieceState::Active)
            {
                return s;
            }
        }
        (seat + 1) % self.seats
    }

    /// Four Players points per seat: 1 per own piece left, 1 per enemy piece destroyed,
    /// 2 per Command tank destroyed.
    #[must_use]
    pub fn points(&self) -> Vec<u16> {
        (0..self.seats)
            .map(|s| {
                let alive = self
                    .pieces
                    .iter()
                    .filter(|p| p.side == s && p.state == PieceState::Active)
                    .count();
                u16::try_from(alive).unwrap_or(0) + self.kills[usize::from(s.min(3))]
            })
            .collect()
    }

    /// The Four Players result: the most points win (ties share the win).
    fn by_points(&self, why: &str) -> Outcome {
        let points = self.points();
        let best = points.iter().copied().max().unwrap_or(0);
        let winners: Vec<PlayerId> = (0..self.seats)
            .filter(|s| points[usize::from(*s)] == best)
            .map(PlayerId)
            .collect();
        let table: Vec<String> = (0..self.seats)
            .map(|s| format!("{} {}", side_name(PlayerId(s)), points[usize::from(s)]))
            .collect();
        Outcome {
            winners,
            reason: format!("{why}; points: {}", table.join(", ")),
        }
    }

    /// Capture the Flag's flags.
    #[must_use]
    pub fn flags(&self) -> &[Flag] {
        &self.flags
    }

    /// The flags a piece of `white` could take by ending its move on `to`: a standing flag
    /// whose four squares include `to`, or one carried by an adjacent wreck or ally.
    fn takeable(&self, side: u8, mover: usize, to: Square) -> Vec<u8> {
        let near = |a: Square, b: Square| {
            a.col.abs_diff(b.col) <= 1 && a.row.abs_diff(b.row) <= 1 && a != b
        };
        let mut out = Vec::new();
        for (i, f) in self.flags.iter().enumerate() {
            let ok = match *f {
                Flag::Standing(sw) => {
                    (sw.col..=sw.col + 1).contains(&to.col)
                        && (sw.row..=sw.row + 1).contains(&to.row)
                }
                Flag::Carried(c) => {
                    let c = usize::from(c);
                    let p = &self.pieces[c];
                    c != mover
                        && near(p.at, to)
                        && (p.state == PieceState::Wrecked
                            || (p.side == side && p.state == PieceState::Active))
                }
                Flag::Home(_) => false,
            };
            if ok && let Ok(i) = u8::try_from(i) {
                out.push(i);
            }
        }
        out
    }

    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    #[must_use]
    pub fn size(&self) -> (u8, u8) {
        (self.width, self.height)
    }

    #[must_use]
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// Whether announced play (check and escape) is on.
    #[must_use]
    pub fn announced(&self) -> bool {
        self.announced
    }

    /// The announcement made after the last move.
    #[must_use]
    pub fn last_announcement(&self) -> Option<Announcement> {
        self.last
    }

    /// The side to move.
    #[must_use]
    pub fn to_move(&self) -> PlayerId {
        PlayerId(self.turn)
    }

    /// Moves played so far by both sides.
    #[must_use]
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// What stands on `sq`.
    #[must_use]
    pub fn cell(&self, sq: Square) -> Cell {
        self.cells[self.index(sq)]
    }

    /// The piece on `sq`, active or wrecked.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<&Piece> {
        match self.cell(sq) {
            Cell::Piece(i) => self.pieces.get(usize::from(i)),
            _ => None,
        }
    }

    fn index(&self, sq: Square) -> usize {
        usize::from(sq.row) * usize::from(self.width) + usize::from(sq.col)
    }

    fn square(&self, col: i16, row: i16) -> Option<Square> {
        let col = u8::try_from(col).ok()?;
        let row = u8::try_from(row).ok()?;
        (col < self.width && row < self.height).then_some(Square { col, row })
    }

    fn empty(&self, sq: Square) -> bool {
        self.cell(sq) == Cell::Empty
    }

    fn has_commands(&self) -> bool {
        matches!(self.mode, Mode::Standard | Mode::SingleType(_))
    }

    /// Whether piece `p` may leave the board: Command tanks in the standard modes, any
    /// piece in Escape of Three.
    fn may_escape(&self, p: &Piece) -> bool {
        match self.mode {
            Mode::Standard | Mode::SingleType(_) => p.command,
            Mode::EscapeOfThree => true,
            Mode::LastTankStanding { .. } | Mode::CaptureTheFlag | Mode::FourPlayers { .. } => {
                false
            }
        }
    }

    /// One step forward (or back) from `from` in `dir` for piece `p`.
    fn step(&self, p: &Piece, from: Square, dir: Dir8) -> Step {
        let (dx, dy) = dir.delta();
        let (c, r) = (i16::from(from.col) + dx, i16::from(from.row) + dy);
        if let Some(sq) = self.square(c, r) {
            if !self.empty(sq) {
                return Step::Blocked;
            }
            if dir.is_diagonal() && !self.rules.diagonal_squeeze {
                let a = self.square(c, i16::from(from.row));
                let b = self.square(i16::from(from.col), r);
                if a.is_some_and(|a| !self.empty(a)) && b.is_some_and(|b| !self.empty(b)) {
                    return Step::Blocked;
                }
            }
            return Step::To(sq);
        }
        // Off the board: an escape only across the far edge, never through a corner.
        let far_row = if p.white { i16::from(self.height) } else { -1 };
        let col_on = c >= 0 && c < i16::from(self.width);
        if r == far_row
            && col_on
            && (!dir.is_diagonal() || self.rules.diagonal_escape)
            && self.may_escape(p)
        {
            Step::Exit
        } else {
            Step::Blocked
        }
    }

    /// Every end position of piece `idx` this move (square, facing), and whether it can
    /// drive off the board. The start position is left out: turning back to where it
    /// began is not a move.
    #[must_use]
    pub fn destinations(&self, idx: usize) -> (Vec<(Square, Dir8)>, bool) {
        let p = self.pieces[idx];
        let speed = self.rules.stats(p.kind).speed;
        let w = usize::from(self.width);
        let mut best = vec![u8::MAX; usize::from(self.width) * usize::from(self.height) * 8];
        let key = |sq: Square, d: Dir8| {
            (usize::from(sq.row) * w + usize::from(sq.col)) * 8 + usize::from(d.index())
        };
        let mut out = Vec::new();
        let mut exit = false;
        let mut frontier = vec![(p.at, p.facing)];
        best[key(p.at, p.facing)] = 0;
        for steps in 1..=speed {
            let mut next = Vec::new();
            for (sq, d) in frontier {
                let mut visit = |s: Square, f: Dir8, next: &mut Vec<(Square, Dir8)>| {
                    let k = key(s, f);
                    if best[k] == u8::MAX {
                        best[k] = steps;
                        next.push((s, f));
                    }
                };
                visit(sq, d.turned(1), &mut next);
                visit(sq, d.turned(-1), &mut next);
                match self.step(&p, sq, d) {
                    Step::To(s) => visit(s, d, &mut next),
                    Step::Exit => exit = true,
                    Step::Blocked => {}
                }
            }
            out.extend(next.iter().copied());
            frontier = next;
        }
        // Reverse: straight back, no turning.
        let mut at = p.at;
        for _ in 0..self.rules.reverse_squares {
            match self.step(&p, at, p.facing.opposite()) {
                Step::To(s) => {
                    at = s;
                    if best[key(s, p.facing)] == u8::MAX {
                        best[key(s, p.facing)] = 1;
                        out.push((s, p.facing));
                    }
                }
                _ => break,
            }
        }
        (out, exit)
    }

    /// The armor a shot from `from` strikes on `target`: front only from directly ahead of
    /// it, rear only from directly behind, side from anywhere else.
    #[must_use]
    pub fn armor_hit(&self, target: &Piece, from: Square) -> (ArmorSide, u8) {
        let a = self.rules.stats(target.kind).armor;
        match Dir8::between(target.at, from) {
            Some((d, _)) if d == target.facing => (ArmorSide::Front, a.front),
            Some((d, _)) if d == target.facing.opposite() => (ArmorSide::Rear, a.rear),
            _ => (ArmorSide::Side, a.side),
        }
    }

    /// The enemy pieces piece `p` would destroy firing from `at` facing `facing` (with the
    /// board as it is: move the piece first).
    fn targets(&self, p: &Piece, at: Square, facing: Dir8) -> Vec<Square> {
        let stats = self.rules.stats(p.kind);
        let dirs: &[i8] = match stats.weapon {
            Weapon::Turret => &[0, -1, 1],
            Weapon::Fixed | Weapon::Mortar { .. } => &[0],
        };
        let mut out = Vec::new();
        for &t in dirs {
            let dir = facing.turned(t);
            let mut found = Vec::new();
            match stats.weapon {
                // The mortar may pick any enemy piece at its distances.
                Weapon::Mortar { min, max } => {
                    for d in min..=max {
                        if let Some((c, r)) = at.step(dir, i16::from(d))
                            && let Some(sq) = self.square(c, r)
                            && self.enemy_at(p, sq)
                        {
                            found.push(sq);
                        }
                    }
                }
                _ => {
                    let mut dist = 0;
                    loop {
                        dist += 1;
                        let Some((c, r)) = at.step(dir, dist) else {
                            break;
                        };
                        let Some(sq) = self.square(c, r) else { break };
                        if self.empty(sq) {
                            continue;
                        }
                        if dist >= 2 && self.enemy_at(p, sq) {
                            found.push(sq);
                        }
                        break;
                    }
                }
            }
            for sq in found {
                if let Some(target) = self.piece_at(sq)
                    && stats.firepower > self.armor_hit(target, at).1
                    && !out.contains(&sq)
                {
                    out.push(sq);
                }
            }
        }
        out
    }

    fn enemy_at(&self, p: &Piece, sq: Square) -> bool {
        self.piece_at(sq)
            .is_some_and(|t| t.state == PieceState::Active && t.side != p.side)
    }

    /// Every move of `side` the pieces allow, before announced play's filter.
    #[must_use]
    pub fn pseudo_moves(&self, side: PlayerId) -> Vec<Action> {
        let mut out = Vec::new();
        let mut scratch = self.clone();
        for idx in 0..self.pieces.len() {
            let p = self.pieces[idx];
            if p.side != side.0 || p.state != PieceState::Active {
                continue;
            }
            let (dests, exit) = self.destinations(idx);
            if exit {
                out.push(Action::Escape { from: p.at });
            }
            let mut ends = dests;
            if self.rules.fire_without_move {
                ends.push((p.at, p.facing));
            }
            let home = scratch.index(p.at);
            scratch.cells[home] = Cell::Empty;
            for (to, facing) in ends {
                let moved = (to, facing) != (p.at, p.facing);
                let i = scratch.index(to);
                let before = scratch.cells[i];
                #[allow(clippy::cast_possible_truncation, reason = "piece indexes fit a u8")]
                let id = idx as u8;
                scratch.cells[i] = Cell::Piece(id);
                if moved {
                    out.push(Action::Move {
                        from: p.at,
                        to,
                        facing,
                        fire: None,
                    });
                    if self.mode == Mode::CaptureTheFlag {
                        for flag in self.takeable(p.side, idx, to) {
                            out.push(Action::Take {
                                from: p.at,
                                to,
                                facing,
                                flag,
                            });
                        }
                    }
                }
                for target in scratch.targets(&p, to, facing) {
                    out.push(Action::Move {
                        from: p.at,
                        to,
                        facing,
                        fire: Some(target),
                    });
                }
                scratch.cells[i] = before;
            }
            #[allow(clippy::cast_possible_truncation, reason = "piece indexes fit a u8")]
            let id = idx as u8;
            scratch.cells[home] = Cell::Piece(id);
        }
        out
    }

    /// Whether `side` could win with its next move: destroy the enemy Command tank, or
    /// drive its own off the board (the standard modes).
    #[must_use]
    pub fn threatens(&self, side: PlayerId) -> Option<Announcement> {
        if !self.has_commands() {
            return None;
        }
        let enemy_cmd = self
            .pieces
            .iter()
            .find(|p| p.command && p.side != side.0 && p.state == PieceState::Active)?;
        let mut scratch = self.clone();
        for idx in 0..self.pieces.len() {
            let p = self.pieces[idx];
            if p.side != side.0 || p.state != PieceState::Active {
                continue;
            }
            let (mut ends, exit) = self.destinations(idx);
            if exit && p.command {
                return Some(Announcement::Escape);
            }
            if self.rules.fire_without_move {
                ends.push((p.at, p.facing));
            }
            let stats = self.rules.stats(p.kind);
            let home = scratch.index(p.at);
            scratch.cells[home] = Cell::Empty;
            let mut found = false;
            for (to, facing) in ends {
                // Cheap test first: the Command tank must lie on a firing line.
                let Some((dir, dist)) = Dir8::between(to, enemy_cmd.at) else {
                    continue;
                };
                let aims = match stats.weapon {
                    Weapon::Turret => [0, -1, 1].iter().any(|t| facing.turned(*t) == dir),
                    Weapon::Fixed => facing == dir,
                    Weapon::Mortar { min, max } => facing == dir && (min..=max).contains(&dist),
                };
                if !aims || stats.firepower <= self.armor_hit(enemy_cmd, to).1 {
                    continue;
                }
                if matches!(stats.weapon, Weapon::Mortar { .. }) {
                    found = true;
                    break;
                }
                if dist < 2 {
                    continue;
                }
                let clear = (1..i16::from(dist)).all(|k| {
                    to.step(dir, k)
                        .and_then(|(c, r)| scratch.square(c, r))
                        .is_some_and(|sq| scratch.empty(sq) || sq == to)
                });
                if clear {
                    found = true;
                    break;
                }
            }
            #[allow(clippy::cast_possible_truncation, reason = "piece indexes fit a u8")]
            let id = idx as u8;
            scratch.cells[home] = Cell::Piece(id);
            if found {
                return Some(Announcement::Check);
            }
        }
        None
    }

    /// Plays `action` for the side to move without checking it; returns the facts.
    fn play_unchecked(&mut self, action: Action) -> Vec<Fact> {
        let mut facts = Vec::new();
        let mover = self.to_move();
        // Taking a flag is a move without fire, then the flag changes hands.
        let (action, take) = match action {
            Action::Take {
                from,
                to,
                facing,
                flag,
            } => (
                Action::Move {
                    from,
                    to,
                    facing,
                    fire: None,
                },
                Some(flag),
            ),
            other => (other, None),
        };
        match action {
            // Turned into a move above.
            Action::Take { .. } => {}
            Action::Resign => {
                facts.push(Fact::Resigned { side: mover });
                let winner = if mover == WHITE { BLACK } else { WHITE };
                let why = format!("{} resigned", side_name(mover));
                self.result = Some(if self.seats > 2 {
                    self.by_points(&why)
                } else {
                    Outcome::win(winner, why)
                });
            }
            Action::OutOfTime => {
                let winner = if mover == WHITE { BLACK } else { WHITE };
                self.result = Some(Outcome::win(
                    winner,
                    format!("{} ran out of time", side_name(mover)),
                ));
            }
            Action::Escape { from } => {
                if let Cell::Piece(i) = self.cell(from) {
                    let i = usize::from(i);
                    let label = self.pieces[i].label();
                    self.pieces[i].state = PieceState::Escaped;
                    let at = self.index(from);
                    self.cells[at] = Cell::Empty;
                    self.escaped[usize::from(mover.0)] += 1;
                    facts.push(Fact::Escaped { piece: label, from });
                }
            }
            Action::Move {
                from,
                to,
                facing,
                fire,
            } => {
                if let Cell::Piece(i) = self.cell(from) {
                    let from_i = self.index(from);
                    self.cells[from_i] = Cell::Empty;
                    let to_i = self.index(to);
                    self.cells[to_i] = Cell::Piece(i);
                    let p = &mut self.pieces[usize::from(i)];
                    p.at = to;
                    p.facing = facing;
                    let shooter = *p;
                    facts.push(Fact::Moved {
                        piece: shooter.label(),
                        from,
                        to,
                        facing,
                    });
                    if let Some(target_sq) = fire
                        && let Cell::Piece(t) = self.cell(target_sq)
                    {
                        let target = self.pieces[usize::from(t)];
                        let (armor, value) = self.armor_hit(&target, to);
                        self.pieces[usize::from(t)].state = PieceState::Wrecked;
                        self.kills[usize::from(mover.0.min(3))] +=
                            if target.command { 2 } else { 1 };
                        facts.push(Fact::Destroyed {
                            target: target.label(),
                            at: target_sq,
                            by: shooter.label(),
                            armor,
                            armor_value: value,
                            firepower: self.rules.stats(shooter.kind).firepower,
                        });
                    }
                }
            }
        }
        if let (Some(flag), Action::Move { to, .. }) = (take, action)
            && let Cell::Piece(i) = self.cell(to)
            && let Some(f) = self.flags.get_mut(usize::from(flag))
        {
            *f = Flag::Carried(i);
            facts.push(Fact::FlagTaken {
                piece: self.pieces[usize::from(i)].label(),
                at: to,
                flag,
            });
        }
        // A carrier on its own starting edge brings its flag home.
        let home_row = if mover == WHITE { 0 } else { self.height - 1 };
        for (n, f) in self.flags.iter_mut().enumerate() {
            if let Flag::Carried(c) = *f {
                let p = &self.pieces[usize::from(c)];
                if p.state == PieceState::Active && p.side() == mover && p.at.row == home_row {
                    *f = Flag::Home(mover);
                    facts.push(Fact::FlagHome {
                        piece: p.label(),
                        flag: u8::try_from(n).unwrap_or(0),
                    });
                }
            }
        }
        self.plies += 1;
        self.turn = self.next_seat(self.turn);
        if self.result.is_none() {
            self.result = self.decided(mover);
        }
        facts
    }

    /// The result right after `mover`'s move, if the game is decided by it.
    fn decided(&self, mover: PlayerId) -> Option<Outcome> {
        let other = if mover == WHITE { BLACK } else { WHITE };
        let alive = |side: PlayerId| {
            self.pieces
                .iter()
                .filter(|p| p.side() == side && p.state == PieceState::Active)
                .count()
        };
        match self.mode {
            Mode::FourPlayers { move_limit } => {
                let left = (0..self.seats)
                    .filter(|s| {
                        self.pieces
                            .iter()
                            .any(|p| p.side == *s && p.state == PieceState::Active)
                    })
                    .count();
                if left <= 1 {
                    return Some(self.by_points("only one player has pieces left"));
                }
                if self.plies >= u32::from(self.seats) * u32::from(move_limit) {
                    return Some(
                        self.by_points(&format!("each player has played {move_limit} moves")),
                    );
                }
                return None;
            }
            Mode::Standard | Mode::SingleType(_) => {
                let cmd = |side: PlayerId| {
                    self.pieces
                        .iter()
                        .find(|p| p.command && p.side() == side)
                        .map(|p| p.state)
                };
                if cmd(other) == Some(PieceState::Wrecked) {
                    return Some(Outcome::win(
                        mover,
                        format!("{} destroyed the enemy Command tank", side_name(mover)),
                    ));
                }
                if cmd(mover) == Some(PieceState::Escaped) {
                    return Some(Outcome::win(
                        mover,
                        format!("{}'s Command tank escaped", side_name(mover)),
                    ));
                }
            }
            Mode::LastTankStanding { move_limit } => {
                if alive(other) == 0 {
                    return Some(Outcome::win(
                        mover,
                        format!("{} destroyed every enemy piece", side_name(mover)),
                    ));
                }
                if self.plies >= 2 * u32::from(move_limit) {
                    let (w, b) = (alive(WHITE), alive(BLACK));
                    return Some(match w.cmp(&b) {
                        std::cmp::Ordering::Greater => Outcome::win(
                            WHITE,
                            format!("move limit: White has {w} pieces left, Black {b}"),
                        ),
                        std::cmp::Ordering::Less => Outcome::win(
                            BLACK,
                            format!("move limit: Black has {b} pieces left, White {w}"),
                        ),
                        std::cmp::Ordering::Equal => {
                            Outcome::draw(format!("move limit: {w} pieces left each"))
                        }
                    });
                }
            }
            Mode::CaptureTheFlag => {
                let home = self
                    .flags
                    .iter()
                    .filter(|f| **f == Flag::Home(mover))
                    .count();
                if home * 2 > self.flags.len() {
                    return Some(Outcome::win(
                        mover,
                        format!(
                            "{} brought home {home} of {} flag(s)",
                            side_name(mover),
                            self.flags.len()
                        ),
                    ));
                }
            }
            Mode::EscapeOfThree => {
                if self.escaped[usize::from(mover.0)] >= 3 {
                    return Some(Outcome::win(
                        mover,
                        format!("{} escaped with three pieces", side_name(mover)),
                    ));
                }
            }
        }
        if self.plies >= 2 * u32::from(self.rules.move_limit) {
            return Some(match self.mode {
                Mode::EscapeOfThree => {
                    let (w, b) = (self.escaped[0], self.escaped[1]);
                    match w.cmp(&b) {
                        std::cmp::Ordering::Greater => {
                            Outcome::win(WHITE, format!("move limit: White escaped {w}, Black {b}"))
                        }
                        std::cmp::Ordering::Less => {
                            Outcome::win(BLACK, format!("move limit: Black escaped {b}, White {w}"))
                        }
                        std::cmp::Ordering::Equal => Outcome::draw("move limit with equal escapes"),
                    }
                }
                _ => Outcome::draw(format!(
                    "the move limit ({} moves each) was reached",
                    self.rules.move_limit
                )),
            });
        }
        None
    }

    /// Every legal move of the side to move: in announced play, no move may leave the
    /// opponent a winning reply.
    #[must_use]
    pub fn legal(&self) -> Vec<Action> {
        if self.result.is_some() {
            return Vec::new();
        }
        let side = self.to_move();
        let moves = self.pseudo_moves(side);
        if !self.announced || !self.has_commands() {
            return moves;
        }
        let other = if side == WHITE { BLACK } else { WHITE };
        moves
            .into_iter()
            .filter(|m| {
                let mut next = self.clone();
                next.play_unchecked(*m);
                next.result.is_some() || next.threatens(other).is_none()
            })
            .collect()
    }
}

/// "White" or "Black".
#[must_use]
pub fn side_name(side: PlayerId) -> &'static str {
    ["White", "Black", "Flag White", "Flag Black"][usize::from(side.0.min(3))]
}

/// A piece open to a shot on the first move of the game.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct FirstMoveVictim {
    /// The victim's seat.
    pub owner: u8,
    pub at: Square,
    pub kind: Kind,
    /// The shooter's kind and the move, in notation.
    pub by: Kind,
    pub shot: String,
}

/// Pieces of the other side that `white` (or black) could destroy on its very first move
/// from the setup, each with one move that does it.
#[must_use]
pub fn first_move_victims(scenario: &Scenario, rules: &Rules, side: u8) -> Vec<FirstMoveVictim> {
    let mut game = TankChess::new(scenario, rules);
    game.turn = side;
    let mut out: Vec<FirstMoveVictim> = Vec::new();
    for m in game.pseudo_moves(game.to_move()) {
        if let Action::Move {
            from,
            fire: Some(sq),
            ..
        } = m
            && let (Some(t), Some(s)) = (game.piece_at(sq), game.piece_at(from))
            && !out.iter().any(|o| o.at == sq)
        {
            out.push(FirstMoveVictim {
                owner: t.side,
                at: sq,
                kind: t.kind,
                by: s.kind,
                shot: notation::move_text(&m, None),
            });
        }
    }
    out.sort();
    out
}

impl Game for TankChess {
    type Action = Action;
    type Fact = Fact;
    type View = TankChess;

    const NAME: &'static str = "tank-chess";

    fn player_count(&self) -> usize {
        usize::from(self.seats)
    }

    fn player_name(&self, player: PlayerId) -> String {
        side_name(player).into()
    }

    fn to_act(&self) -> Vec<PlayerId> {
        if self.result.is_some() {
            Vec::new()
        } else {
            vec![self.to_move()]
        }
    }

    fn legal_actions(&self, player: PlayerId) -> Vec<Action> {
        if player == self.to_move() {
            self.legal()
        } else {
            Vec::new()
        }
    }

    fn apply(
        &mut self,
        player: PlayerId,
        action: &Action,
        _rng: &mut MatchRng,
    ) -> Result<Vec<Fact>, String> {
        if self.result.is_some() {
            return Err("the game is over".into());
        }
        if player != self.to_move() {
            return Err(format!("it is {}'s move", side_name(self.to_move())));
        }
        if !matches!(action, Action::Resign | Action::OutOfTime) && !self.legal().contains(action) {
            return Err(self.why_illegal(action));
        }
        let mut facts = self.play_unchecked(*action);
        self.last = None;
        if self.result.is_none() {
            let other = self.to_move();
            // Without announced play nothing is announced: the threat is the players' to see.
            let threat = if self.announced {
                self.threatens(player)
            } else {
                None
            };
            if self.announced && self.has_commands() && self.legal().is_empty() {
                let outcome = match threat {
                    Some(Announcement::Check) => {
                        self.last = Some(Announcement::Checkmate);
                        Outcome::win(
                            player,
                            format!(
                                "checkmate: {} cannot save its Command tank",
                                side_name(other)
                            ),
                        )
                    }
                    Some(_) => {
                        self.last = Some(Announcement::Escapemate);
                        Outcome::win(
                            player,
                            format!("escapemate: {} cannot stop the escape", side_name(other)),
                        )
                    }
                    None => Outcome::draw(format!(
                        "{} has no legal move and is not threatened",
                        side_name(other)
                    )),
                };
                self.result = Some(outcome);
            } else {
                self.last = threat;
            }
            if let Some(a) = self.last {
                facts.push(Fact::Announced(a));
            }
        }
        if let Some(outcome) = &self.result {
            facts.push(Fact::GameEnded {
                outcome: outcome.clone(),
            });
        }
        Ok(facts)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result.clone()
    }

    fn view(&self, _player: PlayerId) -> TankChess {
        self.clone()
    }

    fn describe_action(&self, action: &Action) -> String {
        notation::move_text(action, None)
    }

    fn describe_fact(&self, fact: &Fact) -> String {
        match fact {
            Fact::FlagTaken { piece, at, flag } => {
                format!("The {piece} takes flag {} on {at}.", flag + 1)
            }
            Fact::FlagHome { piece, flag } => {
                format!("The {piece} brings flag {} home.", flag + 1)
            }
            Fact::Moved {
                piece,
                from,
                to,
                facing,
            } if from == to => format!("The {piece} turns to face {facing} on {to}."),
            Fact::Moved {
                piece,
                from,
                to,
                facing,
            } => format!("The {piece} moves {from} to {to}, facing {facing}."),
            Fact::Destroyed {
                target,
                at,
                by,
                armor,
                armor_value,
                firepower,
            } => format!(
                "The {by} fires at the {target} on {at}: firepower {firepower} beats {armor} armor {armor_value}, destroyed."
            ),
            Fact::Escaped { piece, from } => {
                format!("The {piece} drives off the board from {from}.")
            }
            Fact::Announced(a) => match a {
                Announcement::Check => "CHECK: the Command tank can be destroyed next move.".into(),
                Announcement::Escape => {
                    "ESCAPE: the Command tank can leave the board next move.".into()
                }
                Announcement::Checkmate => "CHECKMATE.".into(),
                Announcement::Escapemate => "ESCAPEMATE.".into(),
            },
            Fact::Resigned { side } => format!("{} resigns.", side_name(*side)),
            Fact::GameEnded { outcome } => match outcome.winners.first() {
                Some(w) => format!("Game over: {} wins — {}.", side_name(*w), outcome.reason),
                None => format!("Game over: a draw — {}.", outcome.reason),
            },
        }
    }
}

impl TankChess {
    /// Why `action` is not legal now, in words.
    #[must_use]
    pub fn why_illegal(&self, action: &Action) -> String {
        let (Action::Move { from, .. } | Action::Escape { from } | Action::Take { from, .. }) =
            *action
        else {
            return "that is not a move".into();
        };
        let Some(p) = self.piece_at(from) else {
            return format!("there is no piece on {from}");
        };
        if p.side() != self.to_move() || p.state != PieceState::Active {
            return format!(
                "the piece on {from} is not one of {}'s active pieces",
                side_name(self.to_move())
            );
        }
        if self.pseudo_moves(self.to_move()).contains(action) {
            return if self.threatens(PlayerId(1 - self.turn.min(1))).is_some() {
                "that leaves the Command tank in check or the enemy free to escape: answer the threat".into()
            } else {
                "that would let the opponent destroy your Command tank or escape with theirs next move".into()
            };
        }
        format!("the {} on {from} cannot make that move", p.label())
    }
}
