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
pub mod engine;
mod mirror;
pub mod notation;
mod playable;
pub mod setup;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use board::{Dir8, NotAFacing, Square};
pub use playable::ChessSetup;
pub use setup::{Kind, Mode, Rules, Scenario, Setup, Weapon};

use crate::framework::{Game, MatchRng, Outcome, PlayerId, Refusal};

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

/// A game of Tank Chess. It holds no secrets: the whole board is in view of both sides,
/// and there is no chance.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TankChess {
    /// Carried beside the state in a mirror, with the name
    /// ([`crate::framework::Playable::to_mirror`]).
    #[serde(skip, default = "mirror::unset_rules")]
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

/// What a search of a piece's end positions found.
struct Reach {
    /// The piece can drive off the board (known only when the visitor did not stop the
    /// search).
    exit: bool,
}

/// Buffers reused by the move searches.
#[derive(Default)]
struct Search {
    /// One bit per (square, facing) reached.
    seen: Vec<u64>,
    frontier: Vec<(Square, Dir8)>,
    next: Vec<(Square, Dir8)>,
    /// The end positions of the piece whose moves are being listed.
    ends: Vec<(Square, Dir8)>,
    /// One bit per square the last search looked at (all of them only when the search
    /// ran to its end).
    touched: Vec<u64>,
}

/// Where a forward step leads.
enum Step {
    To(Square),
    Exit,
    Blocked,
}

/// A Take as the move it is (without fire), and the flag it takes; any other action
/// as it is.
#[inline]
fn without_flag(action: Action) -> (Action, Option<u8>) {
    match action {
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
    }
}

/// Marks position (`sq`, `d`) seen in `seen` (a bit per square and facing of a board
/// `w` squares wide); true when it was not seen before.
#[inline]
fn mark_seen(seen: &mut [u64], w: usize, sq: Square, d: Dir8) -> bool {
    let k = (usize::from(sq.row) * w + usize::from(sq.col)) * 8 + usize::from(d.index());
    let bit = 1u64 << (k % 64);
    let new = seen[k / 64] & bit == 0;
    seen[k / 64] |= bit;
    new
}

/// Tells `$facts` (an `Option<&mut Vec<Fact>>`) the fact `$fact`, built only when
/// someone listens.
macro_rules! tell {
    ($facts:ident, $fact:expr) => {
        if let Some(out) = $facts.as_deref_mut() {
            out.push($fact);
        }
    };
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

    /// How many of `side`'s pieces have driven off the far edge.
    #[must_use]
    pub fn escaped(&self, side: PlayerId) -> u8 {
        self.escaped.get(usize::from(side.0)).copied().unwrap_or(0)
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
        let mut out = Vec::new();
        let reach = self.reach(idx, &mut Search::default(), |sq, d| {
            out.push((sq, d));
            false
        });
        (out, reach.exit)
    }

    /// Marks in `touched` the squares a step from `from` towards `d` looks at.
    #[inline]
    fn note_step(&self, touched: &mut [u64], from: Square, d: Dir8) {
        let (dx, dy) = d.delta();
        let (c, r) = (i16::from(from.col) + dx, i16::from(from.row) + dy);
        let squeeze = d.is_diagonal() && !self.rules.diagonal_squeeze;
        let looked = [
            Some((c, r)),
            squeeze.then_some((c, i16::from(from.row))),
            squeeze.then_some((i16::from(from.col), r)),
        ];
        for (c, r) in looked.into_iter().flatten() {
            if let Some(sq) = self.square(c, r) {
                let i = self.index(sq);
                touched[i / 64] |= 1 << (i % 64);
            }
        }
    }

    /// Visits the end positions of piece `idx` in the order [`Self::destinations`] lists
    /// them, stopping when `visit` returns true. The search keeps its buffers in `search`,
    /// so that generating moves allocates nothing after the first.
    fn reach(
        &self,
        idx: usize,
        search: &mut Search,
        mut visit: impl FnMut(Square, Dir8) -> bool,
    ) -> Reach {
        let p = self.pieces[idx];
        let speed = self.rules.stats(p.kind).speed;
        let w = usize::from(self.width);
        search.seen.clear();
        search
            .seen
            .resize((w * usize::from(self.height) * 8).div_ceil(64), 0);
        search.touched.clear();
        search
            .touched
            .resize((w * usize::from(self.height)).div_ceil(64), 0);
        let mut exit = false;
        search.frontier.clear();
        search.frontier.push((p.at, p.facing));
        mark_seen(&mut search.seen, w, p.at, p.facing);
        for _ in 1..=speed {
            search.next.clear();
            for i in 0..search.frontier.len() {
                let (sq, d) = search.frontier[i];
                self.note_step(&mut search.touched, sq, d);
                let ahead = match self.step(&p, sq, d) {
                    Step::To(s) => Some(s),
                    Step::Exit => {
                        exit = true;
                        None
                    }
                    Step::Blocked => None,
                };
                let turns = [(sq, d.turned(1)), (sq, d.turned(-1))];
                for (s, f) in turns.into_iter().chain(ahead.map(|s| (s, d))) {
                    if mark_seen(&mut search.seen, w, s, f) {
                        search.next.push((s, f));
                        if visit(s, f) {
                            return Reach { exit };
                        }
                    }
                }
            }
            std::mem::swap(&mut search.frontier, &mut search.next);
        }
        // Reverse: straight back, no turning.
        let mut at = p.at;
        for _ in 0..self.rules.reverse_squares {
            self.note_step(&mut search.touched, at, p.facing.opposite());
            let Step::To(s) = self.step(&p, at, p.facing.opposite()) else {
                break;
            };
            at = s;
            if mark_seen(&mut search.seen, w, s, p.facing) && visit(s, p.facing) {
                return Reach { exit };
            }
        }
        Reach { exit }
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
        let mut search = Search::default();
        for (idx, p) in self.pieces.iter().enumerate() {
            if p.side == side.0 && p.state == PieceState::Active {
                self.piece_moves(idx, &mut scratch, &mut search, &mut out);
            }
        }
        out
    }

    /// Adds the moves piece `idx` allows to `out`; `scratch` is a copy of the game whose
    /// board is left as it was found.
    fn piece_moves(
        &self,
        idx: usize,
        scratch: &mut Self,
        search: &mut Search,
        out: &mut Vec<Action>,
    ) {
        let p = self.pieces[idx];
        let mut ends = std::mem::take(&mut search.ends);
        ends.clear();
        let reach = self.reach(idx, search, |sq, d| {
            ends.push((sq, d));
            false
        });
        if reach.exit {
            out.push(Action::Escape { from: p.at });
        }
        if self.rules.fire_without_move {
            ends.push((p.at, p.facing));
        }
        #[allow(clippy::cast_possible_truncation, reason = "piece indexes fit a u8")]
        let id = idx as u8;
        let home = scratch.index(p.at);
        scratch.cells[home] = Cell::Empty;
        for &(to, facing) in &ends {
            let moved = (to, facing) != (p.at, p.facing);
            let i = scratch.index(to);
            let before = scratch.cells[i];
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
        scratch.cells[home] = Cell::Piece(id);
        search.ends = ends;
    }

    /// Whether `side` could win with its next move: destroy the enemy Command tank, or
    /// drive its own off the board (the standard modes).
    #[must_use]
    pub fn threatens(&self, side: PlayerId) -> Option<Announcement> {
        self.threat(side, &mut Search::default())
    }

    /// [`Self::threatens`] with reused buffers. Pieces that cannot reach a firing line on
    /// the Command tank, or whose gun cannot beat its thinnest armor, are not searched.
    fn threat(&self, side: PlayerId, search: &mut Search) -> Option<Announcement> {
        if !self.has_commands() {
            return None;
        }
        let enemy_cmd = *self
            .pieces
            .iter()
            .find(|p| p.command && p.side != side.0 && p.state == PieceState::Active)?;
        let armor = self.rules.stats(enemy_cmd.kind).armor;
        let thinnest = armor.front.min(armor.side).min(armor.rear);
        let (cc, cr) = (i16::from(enemy_cmd.at.col), i16::from(enemy_cmd.at.row));
        for (idx, p) in self.pieces.iter().enumerate() {
            if p.side != side.0 || p.state != PieceState::Active {
                continue;
            }
            let stats = self.rules.stats(p.kind);
            // Each step moves a piece one square at most, so it ends within `range`
            // squares (king moves) of where it stands.
            let range = u16::from(stats.speed.max(self.rules.reverse_squares));
            let (dx, dy) = (i16::from(p.at.col) - cc, i16::from(p.at.row) - cr);
            let to_line = dx
                .unsigned_abs()
                .min(dy.unsigned_abs())
                .min((dx - dy).unsigned_abs().div_ceil(2))
                .min((dx + dy).unsigned_abs().div_ceil(2));
            let can_hit = stats.firepower > thinnest && to_line <= range;
            let to_edge = if p.white {
                i16::from(self.height) - i16::from(p.at.row)
            } else {
                i16::from(p.at.row) + 1
            };
            let can_escape = p.command && self.may_escape(p) && to_edge <= i16::from(stats.speed);
            if !can_hit && !can_escape {
                continue;
            }
            let hits = |to: Square, facing: Dir8| {
                let Some((dir, dist)) = Dir8::between(to, enemy_cmd.at) else {
                    return false;
                };
                let aims = match stats.weapon {
                    Weapon::Turret => [0, -1, 1].iter().any(|t| facing.turned(*t) == dir),
                    Weapon::Fixed => facing == dir,
                    Weapon::Mortar { min, max } => facing == dir && (min..=max).contains(&dist),
                };
                if !aims || stats.firepower <= self.armor_hit(&enemy_cmd, to).1 {
                    return false;
                }
                if matches!(stats.weapon, Weapon::Mortar { .. }) {
                    return true;
                }
                // The line must be clear, the square the piece leaves counting as empty.
                dist >= 2
                    && (1..i16::from(dist)).all(|k| {
                        to.step(dir, k)
                            .and_then(|(c, r)| self.square(c, r))
                            .is_some_and(|sq| self.empty(sq) || sq == p.at || sq == to)
                    })
            };
            let mut found = can_hit && self.rules.fire_without_move && hits(p.at, p.facing);
            let reach = self.reach(idx, search, |to, facing| {
                found = found || (can_hit && hits(to, facing));
                // An escape is announced before a shot, so a Command tank that might
                // escape is searched to the end.
                found && !can_escape
            });
            if can_escape && reach.exit {
                return Some(Announcement::Escape);
            }
            if found {
                return Some(Announcement::Check);
            }
        }
        None
    }

    /// Plays `action` for the side to move without checking it; returns the facts.
    fn play_unchecked(&mut self, action: Action) -> Vec<Fact> {
        let mut facts = Vec::new();
        self.advance(action, Some(&mut facts));
        facts
    }

    /// Plays `action` for the side to move without checking it, telling `facts` what
    /// happened (no words are made when there is no one to tell).
    fn advance(&mut self, action: Action, mut facts: Option<&mut Vec<Fact>>) {
        let mover = self.to_move();
        // Taking a flag is a move without fire, then the flag changes hands.
        let (action, take) = without_flag(action);
        match action {
            // Turned into a move above.
            Action::Take { .. } => {}
            Action::Resign => {
                tell!(facts, Fact::Resigned { side: mover });
                let winner = opponent(mover);
                let why = format!("{} resigned", side_name(mover));
                self.result = Some(if self.seats > 2 {
                    self.by_points(&why)
                } else {
                    Outcome::win(winner, why)
                });
            }
            Action::OutOfTime => {
                let winner = opponent(mover);
                self.result = Some(Outcome::win(
                    winner,
                    format!("{} ran out of time", side_name(mover)),
                ));
            }
            Action::Escape { from } => {
                if let Cell::Piece(i) = self.cell(from) {
                    let i = usize::from(i);
                    self.pieces[i].state = PieceState::Escaped;
                    let at = self.index(from);
                    self.cells[at] = Cell::Empty;
                    self.escaped[usize::from(mover.0)] += 1;
                    tell!(
                        facts,
                        Fact::Escaped {
                            piece: self.pieces[i].label(),
                            from
                        }
                    );
                }
            }
            Action::Move {
                from,
                to,
                facing,
                fire,
            } => self.play_move(mover, (from, to, facing), fire, facts.as_deref_mut()),
        }
        self.move_flags(mover, take, action, facts);
        self.plies += 1;
        self.turn = self.next_seat(self.turn);
        if self.result.is_none() {
            self.result = self.decided(mover);
        }
    }

    /// Moves the piece on `from` to `to`, turned to `facing`, and fires at `fire` if it
    /// holds a piece, telling `facts`.
    #[inline]
    fn play_move(
        &mut self,
        mover: PlayerId,
        (from, to, facing): (Square, Square, Dir8),
        fire: Option<Square>,
        mut facts: Option<&mut Vec<Fact>>,
    ) {
        if let Cell::Piece(i) = self.cell(from) {
            let from_i = self.index(from);
            self.cells[from_i] = Cell::Empty;
            let to_i = self.index(to);
            self.cells[to_i] = Cell::Piece(i);
            let p = &mut self.pieces[usize::from(i)];
            p.at = to;
            p.facing = facing;
            let shooter = *p;
            tell!(
                facts,
                Fact::Moved {
                    piece: shooter.label(),
                    from,
                    to,
                    facing,
                }
            );
            if let Some(target_sq) = fire
                && let Cell::Piece(t) = self.cell(target_sq)
            {
                let target = self.pieces[usize::from(t)];
                let (armor, value) = self.armor_hit(&target, to);
                self.pieces[usize::from(t)].state = PieceState::Wrecked;
                self.kills[usize::from(mover.0.min(3))] += if target.command { 2 } else { 1 };
                tell!(
                    facts,
                    Fact::Destroyed {
                        target: target.label(),
                        at: target_sq,
                        by: shooter.label(),
                        armor,
                        armor_value: value,
                        firepower: self.rules.stats(shooter.kind).firepower,
                    }
                );
            }
        }
    }

    /// The flags after `mover`'s move: the flag taken (`take`) goes to the piece that
    /// took it, and a carrier on its own starting edge brings its flag home.
    #[inline]
    fn move_flags(
        &mut self,
        mover: PlayerId,
        take: Option<u8>,
        action: Action,
        mut facts: Option<&mut Vec<Fact>>,
    ) {
        if let (Some(flag), Action::Move { to, .. }) = (take, action)
            && let Cell::Piece(i) = self.cell(to)
            && let Some(f) = self.flags.get_mut(usize::from(flag))
        {
            *f = Flag::Carried(i);
            tell!(
                facts,
                Fact::FlagTaken {
                    piece: self.pieces[usize::from(i)].label(),
                    at: to,
                    flag,
                }
            );
        }
        // A carrier on its own starting edge brings its flag home.
        let home_row = if mover == WHITE { 0 } else { self.height - 1 };
        for (n, f) in self.flags.iter_mut().enumerate() {
            if let Flag::Carried(c) = *f {
                let p = &self.pieces[usize::from(c)];
                if p.state == PieceState::Active && p.side() == mover && p.at.row == home_row {
                    *f = Flag::Home(mover);
                    tell!(
                        facts,
                        Fact::FlagHome {
                            piece: p.label(),
                            flag: u8::try_from(n).unwrap_or(0),
                        }
                    );
                }
            }
        }
    }

    /// The result right after `mover`'s move, if the game is decided by it.
    fn decided(&self, mover: PlayerId) -> Option<Outcome> {
        let decided = match self.mode {
            Mode::FourPlayers { move_limit } => return self.four_players_decided(move_limit),
            Mode::Standard | Mode::SingleType(_) => self.command_tank_decided(mover),
            Mode::LastTankStanding { move_limit } => self.last_tank_decided(mover, move_limit),
            Mode::CaptureTheFlag => self.flags_decided(mover),
            Mode::EscapeOfThree => self.escape_decided(mover),
        };
        if decided.is_some() {
            return decided;
        }
        if self.plies >= 2 * u32::from(self.rules.move_limit) {
            return Some(self.move_limit_outcome());
        }
        None
    }

    /// Four Players: decided once one player alone has pieces, or every player has
    /// played the move limit.
    fn four_players_decided(&self, move_limit: u16) -> Option<Outcome> {
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
            return Some(self.by_points(&format!("each player has played {move_limit} moves")));
        }
        None
    }

    /// Standard play: decided when the enemy Command tank is destroyed or `mover`'s
    /// escapes.
    fn command_tank_decided(&self, mover: PlayerId) -> Option<Outcome> {
        let other = opponent(mover);
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
        None
    }

    /// Last Tank Standing: decided when the enemy has no piece left, or at the move limit
    /// by the pieces left.
    fn last_tank_decided(&self, mover: PlayerId, move_limit: u16) -> Option<Outcome> {
        let other = opponent(mover);
        let alive = |side: PlayerId| {
            self.pieces
                .iter()
                .filter(|p| p.side() == side && p.state == PieceState::Active)
                .count()
        };
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
        None
    }

    /// Capture the Flag: decided when `mover` has brought home most of the flags.
    fn flags_decided(&self, mover: PlayerId) -> Option<Outcome> {
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
        None
    }

    /// Escape of Three: decided when `mover` has escaped with three pieces.
    fn escape_decided(&self, mover: PlayerId) -> Option<Outcome> {
        if self.escaped[usize::from(mover.0)] >= 3 {
            return Some(Outcome::win(
                mover,
                format!("{} escaped with three pieces", side_name(mover)),
            ));
        }
        None
    }

    /// The result at the game's move limit: by escapes in Escape of Three, else a draw.
    fn move_limit_outcome(&self) -> Outcome {
        match self.mode {
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
        }
    }

    /// Every legal move of the side to move: in announced play, no move may leave the
    /// opponent a winning reply.
    #[must_use]
    pub fn legal(&self) -> Vec<Action> {
        if self.result.is_some() {
            return Vec::new();
        }
        let mut moves = self.pseudo_moves(self.to_move());
        if self.filtered() {
            let mut probe = Probe::new(self);
            moves.retain(|m| probe.allows(self, *m));
        }
        moves
    }

    /// Perft: the number of move sequences `depth` moves long from this position, each
    /// move legal where it is played (a game that ends has no moves after). Depth 0 is 1.
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.after(*m).perft(depth - 1)).sum()
    }

    /// Perft split by first move: each legal move with the count below it, in
    /// [`Self::legal`]'s order.
    #[must_use]
    pub fn perft_divide(&self, depth: u32) -> Vec<(Action, u64)> {
        self.legal()
            .into_iter()
            .map(|m| (m, self.after(m).perft(depth.saturating_sub(1))))
            .collect()
    }

    /// The position after the legal move `m`, played as the game plays it (announcements
    /// and mates included).
    fn after(&self, m: Action) -> Self {
        let mut next = self.clone();
        let side = next.to_move();
        // `m` comes from `legal`, so it plays.
        let _ = next.apply(side, &m, &mut MatchRng::new(0));
        next
    }

    /// Whether the side to move has a legal move (stopping at the first found).
    pub(crate) fn has_legal_move(&self) -> bool {
        if self.result.is_some() {
            return false;
        }
        let moves = self.pseudo_moves(self.to_move());
        if !self.filtered() {
            return !moves.is_empty();
        }
        let mut probe = Probe::new(self);
        moves.into_iter().any(|m| probe.allows(self, m))
    }

    /// Whether `action` is among [`Self::legal`], searching only the piece it moves.
    fn is_legal(&self, action: &Action) -> bool {
        let (Action::Move { from, .. } | Action::Escape { from } | Action::Take { from, .. }) =
            *action
        else {
            return false;
        };
        let Some(idx) = self.mover_on(from) else {
            return false;
        };
        let mut moves = Vec::new();
        self.piece_moves(idx, &mut self.clone(), &mut Search::default(), &mut moves);
        moves.contains(action) && (!self.filtered() || Probe::new(self).allows(self, *action))
    }

    /// The legal moves of the piece on `from`, in [`Self::legal`]'s order (none when it
    /// is not an active piece of the side to move).
    pub(crate) fn moves_from(&self, from: Square) -> Vec<Action> {
        let Some(idx) = self.mover_on(from) else {
            return Vec::new();
        };
        let mut moves = Vec::new();
        self.piece_moves(idx, &mut self.clone(), &mut Search::default(), &mut moves);
        if self.filtered() {
            let mut probe = Probe::new(self);
            moves.retain(|m| probe.allows(self, *m));
        }
        moves
    }

    /// The index of the piece on `from` when the game goes on and it is an active piece
    /// of the side to move.
    fn mover_on(&self, from: Square) -> Option<usize> {
        if self.result.is_some() || from.col >= self.width || from.row >= self.height {
            return None;
        }
        let Cell::Piece(i) = self.cell(from) else {
            return None;
        };
        let p = self.pieces.get(usize::from(i))?;
        (p.side == self.turn && p.state == PieceState::Active).then_some(usize::from(i))
    }

    /// Whether announced play filters the moves: only with Command tanks.
    fn filtered(&self) -> bool {
        self.announced && self.has_commands()
    }

    /// Copies `src` into `self`, reusing its buffers.
    fn refresh_from(&mut self, src: &Self) {
        let Self {
            rules,
            name,
            width,
            height,
            cells,
            pieces,
            turn,
            seats,
            plies,
            mode,
            announced,
            result,
            escaped,
            kills,
            last,
            flags,
        } = src;
        self.rules.clone_from(rules);
        self.name.clone_from(name);
        self.width = *width;
        self.height = *height;
        self.cells.clone_from(cells);
        self.pieces.clone_from(pieces);
        self.turn = *turn;
        self.seats = *seats;
        self.plies = *plies;
        self.mode = *mode;
        self.announced = *announced;
        self.result.clone_from(result);
        self.escaped = *escaped;
        self.kills = *kills;
        self.last = *last;
        self.flags.clone_from(flags);
    }
}

/// What one opponent piece could do with its next move, searched on the board before
/// the move being tried.
#[derive(Default)]
struct Shooter {
    idx: usize,
    /// Per square, one bit per facing the piece can end its move in.
    facings: Vec<u8>,
    /// One bit per square its search looked at: a move that changes none of them leaves
    /// its reach as it was.
    touched: Vec<u64>,
    exit: bool,
    can_hit: bool,
    can_escape: bool,
}

impl Shooter {
    /// Searches where piece `idx` of `game` can end its move.
    fn survey(&mut self, game: &TankChess, idx: usize, search: &mut Search) {
        let p = game.pieces[idx];
        self.idx = idx;
        self.facings.clear();
        self.facings
            .resize(usize::from(game.width) * usize::from(game.height), 0);
        let facings = &mut self.facings;
        let reach = game.reach(idx, search, |sq, d| {
            facings[game.index(sq)] |= 1 << d.index();
            false
        });
        if game.rules.fire_without_move {
            facings[game.index(p.at)] |= 1 << p.facing.index();
        }
        self.exit = reach.exit;
        self.touched.clone_from(&search.touched);
    }

    /// Whether the piece, reaching what `self.facings` holds, could destroy `cmd` in
    /// `game` (the board after the move tried); `lines` are `cmd`'s [`FiringLine`]s.
    fn hits(&self, game: &TankChess, cmd: &Piece, lines: &[FiringLine]) -> bool {
        let p = game.pieces[self.idx];
        let stats = game.rules.stats(p.kind);
        let home = game.index(p.at);
        let turret = match stats.weapon {
            Weapon::Turret => true,
            Weapon::Fixed => false,
            // The mortar fires over whatever stands between, at its own distances.
            Weapon::Mortar { min, max } => {
                return Dir8::ALL.into_iter().any(|d| {
                    let aim = 1u8 << d.opposite().index();
                    (min..=max).any(|k| {
                        cmd.at
                            .step(d, i16::from(k))
                            .and_then(|(c, r)| game.square(c, r))
                            .is_some_and(|sq| {
                                self.facings[game.index(sq)] & aim != 0
                                    && stats.firepower > game.armor_hit(cmd, sq).1
                            })
                    })
                });
            }
        };
        lines.iter().any(|l| {
            let aim = if turret { l.turret } else { l.fixed };
            self.facings[l.at] & aim != 0
                && stats.firepower > l.armor
                && l.past.is_none_or(|b| b == home)
        })
    }
}

/// A square from which a gun (not a mortar) could hit a Command tank.
#[derive(Clone, Copy, Debug)]
struct FiringLine {
    /// The square's index.
    at: usize,
    /// The facings, one bit each, from which a turret or a fixed gun aims at the tank.
    turret: u8,
    fixed: u8,
    /// The armor a shot from there strikes.
    armor: u8,
    /// The piece standing between, if any: the line is open only to that piece itself,
    /// whose square is empty once it moves.
    past: Option<usize>,
}

/// Every [`FiringLine`] on `cmd` in `game`: out along the eight lines from two squares
/// on, up to the second piece or obstacle (the first only when it is not `other`'s).
fn firing_lines(game: &TankChess, cmd: &Piece, other: PlayerId, out: &mut Vec<FiringLine>) {
    out.clear();
    let bit = |d: Dir8| 1u8 << d.index();
    for d in Dir8::ALL {
        let back = d.opposite();
        let mut past = None;
        for k in 1.. {
            let Some(sq) = cmd.at.step(d, k).and_then(|(c, r)| game.square(c, r)) else {
                break;
            };
            let at = game.index(sq);
            if k >= 2 {
                out.push(FiringLine {
                    at,
                    turret: bit(back) | bit(back.turned(1)) | bit(back.turned(-1)),
                    fixed: bit(back),
                    armor: game.armor_hit(cmd, sq).1,
                    past,
                });
            }
            if !game.empty(sq) {
                let theirs = game
                    .piece_at(sq)
                    .is_some_and(|p| p.side == other.0 && p.state == PieceState::Active);
                if past.is_some() || !theirs {
                    break;
                }
                past = Some(at);
            }
        }
    }
}

/// Tries moves on one reused copy of a game, for announced play's filter. The opponent's
/// pieces are searched once on the board before the move; a piece is searched again only
/// when the move changes a square its search looked at.
struct Probe {
    next: TankChess,
    search: Search,
    /// The side that replies.
    other: PlayerId,
    shooters: Vec<Shooter>,
    /// A shooter searched again after the move.
    spare: Shooter,
    /// Where the mover's Command tank stands before the move.
    cmd_at: Option<Square>,
    /// One bit per square on the eight lines through it.
    on_lines: Vec<u64>,
    /// Whether the opponent threatens it before the move.
    threatened: bool,
    lines: Vec<FiringLine>,
}

impl Probe {
    fn new(game: &TankChess) -> Self {
        let other = opponent(game.to_move());
        let mut search = Search::default();
        let mut shooters = Vec::new();
        let own_cmd = game
            .pieces
            .iter()
            .find(|p| p.command && p.side != other.0 && p.state == PieceState::Active);
        if let Some(cmd) = own_cmd {
            let armor = game.rules.stats(cmd.kind).armor;
            let thinnest = armor.front.min(armor.side).min(armor.rear);
            for (idx, p) in game.pieces.iter().enumerate() {
                if p.side != other.0 || p.state != PieceState::Active {
                    continue;
                }
                let stats = game.rules.stats(p.kind);
                let to_edge = if p.white {
                    u16::from(game.height - p.at.row)
                } else {
                    u16::from(p.at.row) + 1
                };
                let mut s = Shooter {
                    can_hit: stats.firepower > thinnest,
                    can_escape: p.command
                        && game.may_escape(p)
                        && to_edge <= u16::from(stats.speed),
                    ..Shooter::default()
                };
                if s.can_hit || s.can_escape {
                    s.survey(game, idx, &mut search);
                    shooters.push(s);
                }
            }
        }
        let mut on_lines =
            vec![0u64; (usize::from(game.width) * usize::from(game.height)).div_ceil(64)];
        if let Some(cmd) = own_cmd {
            for d in Dir8::ALL {
                for k in 1.. {
                    let Some(sq) = cmd.at.step(d, k).and_then(|(c, r)| game.square(c, r)) else {
                        break;
                    };
                    let i = game.index(sq);
                    on_lines[i / 64] |= 1 << (i % 64);
                }
            }
        }
        let mut lines = Vec::new();
        let threatened = own_cmd.is_some_and(|cmd| {
            firing_lines(game, cmd, other, &mut lines);
            shooters
                .iter()
                .any(|s| (s.can_escape && s.exit) || (s.can_hit && s.hits(game, cmd, &lines)))
        });
        Self {
            next: game.clone(),
            search,
            other,
            shooters,
            spare: Shooter::default(),
            cmd_at: own_cmd.map(|p| p.at),
            on_lines,
            threatened,
            lines,
        }
    }

    /// Whether announced play allows `m` in `game`: it must not leave the opponent a
    /// winning reply (a move that ends the game is always allowed).
    fn allows(&mut self, game: &TankChess, m: Action) -> bool {
        let Some(cmd_at) = self.cmd_at else {
            // No Command tank of the mover's to threaten.
            return true;
        };
        // The squares the move empties or fills.
        let changed = match m {
            Action::Move { from, to, .. } | Action::Take { from, to, .. } if from != to => {
                [Some(from), Some(to)]
            }
            Action::Escape { from } => [Some(from), None],
            _ => [None, None],
        };
        let bit = |bits: &[u64], sq: Square| {
            let i = self.next.index(sq);
            bits[i / 64] & (1 << (i % 64)) != 0
        };
        // Unthreatened before, and the move neither moves the Command tank, nor opens or
        // blocks a line to it, nor changes where an opponent piece can go: still safe.
        let from = match m {
            Action::Move { from, .. } | Action::Take { from, .. } | Action::Escape { from } => {
                Some(from)
            }
            Action::Resign | Action::OutOfTime => None,
        };
        let quiet = !self.threatened
            && from != Some(cmd_at)
            && changed.into_iter().flatten().all(|sq| {
                !bit(&self.on_lines, sq) && self.shooters.iter().all(|s| !bit(&s.touched, sq))
            });
        if quiet {
            return true;
        }
        let Self {
            next,
            search,
            other,
            shooters,
            spare,
            lines,
            ..
        } = self;
        next.refresh_from(game);
        next.advance(m, None);
        if next.result.is_some() {
            return true;
        }
        let Some(cmd) = next
            .pieces
            .iter()
            .find(|p| p.command && p.side != other.0 && p.state == PieceState::Active)
        else {
            return true;
        };
        firing_lines(next, cmd, *other, lines);
        for shooter in shooters.iter() {
            if next.pieces[shooter.idx].state != PieceState::Active {
                continue;
            }
            let stale = changed.into_iter().flatten().any(|sq| {
                let i = next.index(sq);
                shooter.touched[i / 64] & (1 << (i % 64)) != 0
            });
            let now = if stale {
                spare.survey(next, shooter.idx, search);
                &*spare
            } else {
                shooter
            };
            if (shooter.can_escape && now.exit) || (shooter.can_hit && now.hits(next, cmd, lines)) {
                return false;
            }
        }
        true
    }
}

/// The other side of a two-sided game: Black for White, White for Black.
#[must_use]
pub fn opponent(side: PlayerId) -> PlayerId {
    if side == WHITE { BLACK } else { WHITE }
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
    ) -> Result<Vec<Fact>, Refusal> {
        if self.result.is_some() {
            return Err(Refusal::new(self.end_rule(), "the game is over"));
        }
        if player != self.to_move() {
            return Err(Refusal::new(
                "chess.basic.turns",
                format!("it is {}'s move", side_name(self.to_move())),
            ));
        }
        if !matches!(action, Action::Resign | Action::OutOfTime) && !self.is_legal(action) {
            return Err(Refusal::new(
                self.illegal_rule(action),
                self.why_illegal(action),
            ));
        }
        let mut facts = self.play_unchecked(*action);
        self.last = None;
        if self.result.is_none() {
            self.after_move(player, &mut facts);
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
    /// What `player`'s move leaves the side to move, in a game it did not end: mate or a
    /// stalemate where it has no legal move, else the threat announced, told in `facts`.
    fn after_move(&mut self, player: PlayerId, facts: &mut Vec<Fact>) {
        let other = self.to_move();
        // Without announced play nothing is announced: the threat is the players' to see.
        let threat = if self.announced {
            self.threatens(player)
        } else {
            None
        };
        if self.filtered() && !self.has_legal_move() {
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
        } else if self.seats == 2 && !self.filtered() && !self.has_legal_move() {
            // Without announced play (or Command tanks) nothing above decides a side
            // left without a move: wiped out, it loses; stuck, it is a stalemate.
            let left = self
                .pieces
                .iter()
                .any(|p| p.side() == other && p.state == PieceState::Active);
            self.result = Some(if left {
                Outcome::draw(format!("{} has no legal move", side_name(other)))
            } else {
                Outcome::win(
                    player,
                    format!("{} has no piece left to move", side_name(other)),
                )
            });
            self.last = threat;
        } else {
            self.last = threat;
        }
        if let Some(a) = self.last {
            facts.push(Fact::Announced(a));
        }
    }

    /// The rule of the rules map that ends a game of this mode.
    #[must_use]
    pub fn end_rule(&self) -> &'static str {
        match self.mode {
            Mode::LastTankStanding { .. } => "chess.last.goal",
            Mode::EscapeOfThree => "chess.three.goal",
            Mode::CaptureTheFlag => "chess.flag.goal",
            Mode::FourPlayers { .. } => "chess.four.points",
            Mode::Standard | Mode::SingleType(_) => "chess.goal.first",
        }
    }

    /// The rule of the rules map that forbids `action`, an illegal action of the side to
    /// move.
    fn illegal_rule(&self, action: &Action) -> &'static str {
        match *action {
            Action::Move { from, to, fire, .. } => match self.why_not_to(from, to) {
                Some((_, rule)) => rule,
                // Some move ends there, not this one: its end facing, or its shot.
                None if fire.is_some() => "chess.basic.fire",
                None => "chess.speed.steps",
            },
            Action::Take { from, to, .. } => self
                .why_not_to(from, to)
                .map_or("chess.flag.take", |(_, rule)| rule),
            Action::Escape { from } => match self.mover_on(from) {
                None => "chess.basic.turns",
                Some(i) if !self.may_escape(&self.pieces[i]) => "chess.goal.escape",
                Some(_) if self.pseudo_moves(self.to_move()).contains(action) => {
                    "chess.check.escape-open"
                }
                Some(_) => "chess.goal.corner",
            },
            // Never illegal while the game is on and the side is to move.
            Action::Resign | Action::OutOfTime => "chess.goal.first",
        }
    }

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

    /// Why the piece on `from` cannot end its move on `to` now, in words, with the id of
    /// the rule of the rules map that says so; `None` when some legal move ends there.
    #[must_use]
    pub fn why_not_to(&self, from: Square, to: Square) -> Option<(String, &'static str)> {
        let Some(idx) = self.mover_on(from) else {
            return Some((
                format!(
                    "the piece on {from} is not one of {}'s active pieces",
                    side_name(self.to_move())
                ),
                "chess.basic.turns",
            ));
        };
        let ends_on = |a: &Action| matches!(a, Action::Move { to: t, .. } | Action::Take { to: t, .. } if *t == to);
        if self.moves_from(from).iter().any(ends_on) {
            return None;
        }
        if to != from && !self.empty(to) {
            let what = self.occupant(to);
            return Some((
                format!("{to} holds {what}: a piece ends its move only on an empty square"),
                "chess.speed.empty",
            ));
        }
        let mut reachable = Vec::new();
        self.piece_moves(
            idx,
            &mut self.clone(),
            &mut Search::default(),
            &mut reachable,
        );
        if let Some(m) = reachable.iter().find(|a| ends_on(a)) {
            // The piece can get there, but announced play forbids every way of doing so.
            let (text, rule) = self.announced_refusal(m);
            return Some((format!("{to}: {text}"), rule));
        }
        // Out of reach, or in reach on an empty board: then something is in the way.
        Some(self.out_of_reach(idx, from, to))
    }

    /// What stands on the square `to`, in words: a wreck, a piece or an obstacle.
    fn occupant(&self, to: Square) -> String {
        match self.cell(to) {
            Cell::Piece(i) => match self.pieces.get(usize::from(i)) {
                Some(q) if q.state == PieceState::Wrecked => "a wreck".to_string(),
                Some(q) => format!("the {}", q.label()),
                None => "a piece".to_string(),
            },
            _ => "an obstacle".to_string(),
        }
    }

    /// Why announced play forbids move `m`, and its rule: it leaves the Command tank in
    /// check, lets the enemy's escape, or opens the way for it.
    fn announced_refusal(&self, m: &Action) -> (&'static str, &'static str) {
        match self.last {
            Some(Announcement::Check) => (
                "your Command tank is in check, and no move there saves it",
                "chess.check.answer",
            ),
            Some(Announcement::Escape) => (
                "the enemy Command tank can leave the board next move, and no move there stops it",
                "chess.check.escape",
            ),
            _ => {
                let mut next = self.clone();
                next.play_unchecked(*m);
                if next.threatens(opponent(self.to_move())) == Some(Announcement::Escape) {
                    (
                        "that would open the way for the enemy Command tank to leave the board",
                        "chess.check.escape-open",
                    )
                } else {
                    (
                        "that would leave your Command tank open to destruction next move",
                        "chess.check.self",
                    )
                }
            }
        }
    }

    /// Why piece `idx` on `from` cannot reach `to`, with its rule: blocked (it could on an
    /// empty board), or out of its reach.
    fn out_of_reach(&self, idx: usize, from: Square, to: Square) -> (String, &'static str) {
        let p = self.pieces[idx];
        let own = self.cell(from);
        let mut ghost = self.clone();
        for c in &mut ghost.cells {
            if *c != own {
                *c = Cell::Empty;
            }
        }
        let stats = self.rules.stats(p.kind);
        if ghost.destinations(idx).0.iter().any(|(s, _)| *s == to) {
            (
                format!(
                    "the way to {to} is blocked: the {} passes only over empty squares",
                    p.label()
                ),
                "chess.speed.empty",
            )
        } else {
            (
                format!(
                    "{to} is out of the {}'s reach: {} steps a move, each square ahead and each 45° turn one step, and backing up only {} straight back",
                    p.label(),
                    stats.speed,
                    match self.rules.reverse_squares {
                        1 => "1 square".to_string(),
                        n => format!("{n} squares"),
                    }
                ),
                "chess.speed.chart",
            )
        }
    }
}
