//! A Tank Chess engine: negamax alpha-beta with iterative deepening, a transposition table
//! keyed by a Zobrist hash, move ordering (the table's move, winning moves, shots by the
//! value of the piece hit, killer moves), quiescence over shots and escapes, and a budget
//! per move in nodes (deterministic) or in time.
//!
//! Inside the search a move is any pseudo-legal move: in announced play a move that leaves
//! the opponent a winning reply is met by that reply one ply down and scores as a loss, so
//! the rule needs no filter there. At the root the moves are the legal list itself, and a
//! side whose every move loses at once while it is not threatened is stalemated (a draw),
//! as the rules say.
//!
//! Four Players is not a two-sided game: there the engine searches "paranoid" (every other
//! player plays against the one to move at the root), with the points as its evaluation.

use std::time::{Duration, Instant};

use super::{Action, Cell, Flag, Kind, Mode, PieceState, TankChess, opponent};
use crate::framework::bot::Bot;
use crate::framework::{MatchRng, PlayerId};

/// A win, less the plies it takes.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses found by the search.
const DECIDED: i32 = WIN - 1_000;
const MAX_PLY: usize = 64;
/// Shots and escapes searched past the horizon.
const QUIESCENCE_PLIES: usize = 6;
/// Of those, the first plies where a check is answered with every move (a mate seen).
const CHECK_PLIES: usize = 2;

/// The General's budget: deterministic, about 1.5 s a move on the 16×16 board on one core
/// of a laptop.
pub const GENERAL: Limits = Limits::nodes(12, 80_000);
/// The Major: the same engine on an eighth of the General's nodes (a fifth of a second).
pub const MAJOR: Limits = Limits::nodes(12, 10_000);

/// How long the engine may think about one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration, in plies.
    pub depth: u8,
    /// Nodes searched (positions visited, quiescence included): the deterministic budget.
    pub nodes: u64,
    /// Wall-clock time, when asked for (the move then depends on the machine's speed).
    pub time: Option<Duration>,
}

impl Limits {
    /// A budget in nodes only.
    #[must_use]
    pub const fn nodes(depth: u8, nodes: u64) -> Self {
        Self {
            depth,
            nodes,
            time: None,
        }
    }

    /// A budget in time only (to depth 32).
    #[must_use]
    pub const fn time(time: Duration) -> Self {
        Self {
            depth: 32,
            nodes: u64::MAX,
            time: Some(time),
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The move to play.
    pub best: Option<Action>,
    /// The score for the side to move, in hundredths of a light tank's worth … roughly:
    /// material is 300 to 500 a piece; beyond ±[`WIN`]` - 1000` a forced result.
    pub score: i32,
    /// The deepest iteration finished.
    pub depth: u8,
    pub nodes: u64,
    /// The expected line, the best move first.
    pub line: Vec<Action>,
    /// The moves that scored as well as the best in the last iteration, the best among
    /// them (a bot picks one of them at random).
    pub ties: Vec<Action>,
    pub elapsed: Duration,
}

impl Analysis {
    /// Plies to a forced win (positive) or loss (negative), if the search found one.
    #[must_use]
    pub fn mate_in(&self) -> Option<i32> {
        (self.score.abs() > DECIDED).then(|| self.score.signum() * (WIN - self.score.abs()))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    depth: i8,
    score: i32,
    bound: Bound,
    best: Option<Action>,
}

/// The engine and what it keeps between moves (its transposition table).
pub struct Engine {
    pub limits: Limits,
    table: Vec<Option<Entry>>,
    killers: [[Option<Action>; 2]; MAX_PLY],
    /// One position per ply, reused.
    stack: Vec<Option<TankChess>>,
    nodes: u64,
    started: Instant,
    stopped: bool,
    /// Depth 1 is being searched (the budget does not stop it).
    first_iteration: bool,
}

const TABLE_BITS: u32 = 18;

/// The score a table entry gives a search to `depth` in the window (`alpha`, `beta`)
/// without searching: an entry as deep, not a decided score, and a bound that settles it.
#[inline]
fn table_cutoff(e: Entry, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
    if i32::from(e.depth) < depth || e.score.abs() >= DECIDED {
        return None;
    }
    match e.bound {
        Bound::Exact => Some(e.score),
        Bound::Lower if e.score >= beta => Some(e.score),
        Bound::Upper if e.score <= alpha => Some(e.score),
        _ => None,
    }
}

/// What a search's `best` score is, against the window it started with: an upper bound
/// when nothing beat `start_alpha`, a lower bound at or past `beta`, else exact.
#[inline]
const fn bound_of(best: i32, start_alpha: i32, beta: i32) -> Bound {
    if best <= start_alpha {
        Bound::Upper
    } else if best >= beta {
        Bound::Lower
    } else {
        Bound::Exact
    }
}

impl Engine {
    #[must_use]
    pub fn new(limits: Limits) -> Self {
        Self {
            limits,
            table: vec![None; 1 << TABLE_BITS],
            killers: [[None; 2]; MAX_PLY],
            stack: Vec::new(),
            nodes: 0,
            started: Instant::now(),
            stopped: false,
            first_iteration: false,
        }
    }

    /// Searches `game` for its side to move. `rng` breaks ties between equal best moves
    /// at the root (so that games between the same engines differ); `None` takes the first.
    pub fn analyse(&mut self, game: &TankChess, mut rng: Option<&mut MatchRng>) -> Analysis {
        self.started = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.killers = [[None; 2]; MAX_PLY];
        let mut root: Vec<(Action, i32)> = game.legal().into_iter().map(|m| (m, 0)).collect();
        let mut result = Analysis {
            best: root.first().map(|r| r.0),
            score: 0,
            depth: 0,
            nodes: 0,
            line: Vec::new(),
            ties: Vec::new(),
            elapsed: Duration::ZERO,
        };
        if root.len() <= 1 || game.result.is_some() {
            result.line = result.best.into_iter().collect();
            return result;
        }
        if self.stack.is_empty() {
            self.stack = vec![None; MAX_PLY + QUIESCENCE_PLIES + 2];
        }
        // Shots and escapes first, the best targets first.
        root.sort_by_key(|(m, _)| std::cmp::Reverse(gain(game, *m).unwrap_or(-1)));
        for depth in 1..=self.limits.depth.max(1) {
            self.first_iteration = depth == 1;
            let scored = self.score_root(game, &root, depth);
            if self.stopped && scored.is_empty() {
                break;
            }
            // Searched first, the moves not reached keep their place behind.
            let done = scored.len();
            let mut next: Vec<(Action, i32)> = scored;
            next.sort_by_key(|e| std::cmp::Reverse(e.1));
            next.extend(root[done..].iter().map(|&(m, _)| (m, -WIN - 1)));
            root = next;
            let best = root[0].1;
            let ties: Vec<Action> = root
                .iter()
                .take_while(|e| e.1 == best)
                .map(|e| e.0)
                .collect();
            let pick = match rng.as_deref_mut() {
                Some(r) if ties.len() > 1 => ties[r.pick(ties.len())],
                _ => ties[0],
            };
            result.best = Some(pick);
            result.score = best;
            result.ties = ties;
            result.depth = if self.stopped { depth - 1 } else { depth };
            self.store(game, depth as i8, best, Bound::Exact, Some(pick));
            if self.stopped || best.abs() > DECIDED {
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = self.started.elapsed();
        result.line = self.line(game, result.best);
        result
    }

    /// The root moves searched to `depth`, in `root`'s order, each with its score; cut
    /// short where the search stops.
    fn score_root(
        &mut self,
        game: &TankChess,
        root: &[(Action, i32)],
        depth: u8,
    ) -> Vec<(Action, i32)> {
        let mut alpha = -WIN - 1;
        let mut scored = Vec::with_capacity(root.len());
        let four = matches!(game.mode, Mode::FourPlayers { .. });
        for &(m, _) in root {
            // A window one below the best so far: a move that only fails low returns
            // less than the best, so equal scores are real ties (fail-soft bounds at
            // the best itself would tie a worse move with it).
            let score = if four {
                let next = self.play(game, m, 0);
                let score = self.paranoid(
                    &next,
                    1,
                    i32::from(depth) - 1,
                    (alpha - 1, WIN + 1),
                    game.to_move(),
                );
                self.stack[1] = Some(next);
                score
            } else {
                -self.child(game, m, 0, i32::from(depth) - 1, -WIN - 1, -(alpha - 1))
            };
            if self.stopped {
                break;
            }
            scored.push((m, score));
            alpha = alpha.max(score);
        }
        scored
    }

    /// The expected line from the table, after `first`.
    fn line(&self, game: &TankChess, first: Option<Action>) -> Vec<Action> {
        let mut line = Vec::new();
        let mut pos = game.clone();
        let mut next = first;
        while let Some(m) = next {
            if line.len() >= 12
                || pos.result.is_some()
                || !pos.pseudo_moves(pos.to_move()).contains(&m)
            {
                break;
            }
            line.push(m);
            pos.advance(m, None);
            next = self.probe(&pos).and_then(|e| e.best);
        }
        line
    }

    fn out_of_budget(&mut self) -> bool {
        // The first iteration finishes (every legal move gets looked at) unless it runs
        // to eight times the budget.
        if self.first_iteration && self.nodes < self.limits.nodes.saturating_mul(8) {
            return false;
        }
        if self.nodes >= self.limits.nodes {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(256)
            && self
                .limits
                .time
                .is_some_and(|t| self.started.elapsed() >= t)
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Plays `m` on the position at `ply + 1` of the stack and searches it.
    fn child(
        &mut self,
        pos: &TankChess,
        m: Action,
        ply: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let next = self.play(pos, m, ply);
        let score = self.search(&next, ply + 1, depth, alpha, beta);
        self.stack[ply + 1] = Some(next);
        score
    }

    /// The position after `m`, in the stack's buffer for `ply + 1` (to be put back).
    fn play(&mut self, pos: &TankChess, m: Action, ply: usize) -> TankChess {
        let next = match self.stack[ply + 1].take() {
            Some(mut next) => {
                next.refresh_from(pos);
                next
            }
            None => pos.clone(),
        };
        let mut next = next;
        next.advance(m, None);
        next
    }

    fn search(
        &mut self,
        pos: &TankChess,
        ply: usize,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if let Some(score) = terminal(pos, ply) {
            return score;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(pos, ply, alpha, beta, 0);
        }
        if self.out_of_budget() {
            return 0;
        }
        let entry = self.probe(pos);
        if let Some(score) = entry.and_then(|e| table_cutoff(e, depth, alpha, beta)) {
            return score;
        }
        let side = pos.to_move();
        let mut moves = pos.pseudo_moves(side);
        if moves.is_empty() {
            return if pos.filtered() {
                -(WIN - ply as i32)
            } else {
                0
            };
        }
        self.order(pos, &mut moves, entry.and_then(|e| e.best), ply);
        let start_alpha = alpha;
        let mut best = -WIN - 1;
        let mut best_move = None;
        let mut all_lose_at_once = true;
        for m in moves {
            let score = -self.child(pos, m, ply, depth - 1, -beta, -alpha);
            if self.stopped {
                return 0;
            }
            // Lost to the very next reply: an illegal move in announced play.
            if score != -(WIN - ply as i32 - 2) {
                all_lose_at_once = false;
            }
            if score > best {
                best = score;
                best_move = Some(m);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if !is_shot(m) {
                    self.remember_killer(ply, m);
                }
                break;
            }
        }
        // No legal move: a stalemate unless the opponent threatens (then it is mate).
        if all_lose_at_once && pos.filtered() && alpha < beta {
            let other = opponent(side);
            if pos.threatens(other).is_none() {
                best = 0;
            }
        }
        let bound = bound_of(best, start_alpha, beta);
        self.store(pos, depth as i8, best, bound, best_move);
        best
    }

    /// Keeps `m`, a quiet move that cut the search off at `ply`, as that ply's first
    /// killer move.
    #[inline]
    fn remember_killer(&mut self, ply: usize, m: Action) {
        let k = &mut self.killers[ply.min(MAX_PLY - 1)];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
    }

    /// Four Players: the score for `root`, every other player choosing the move that is
    /// worst for it (the "paranoid" reading of a game of four); at the horizon, the points.
    fn paranoid(
        &mut self,
        pos: &TankChess,
        ply: usize,
        depth: i32,
        (mut alpha, mut beta): (i32, i32),
        root: PlayerId,
    ) -> i32 {
        self.nodes += 1;
        if let Some(o) = pos.result.as_ref() {
            let ply = ply as i32;
            return if o.winners.is_empty() {
                0
            } else if o.winners.contains(&root) {
                // A shared win is worth less than a win alone.
                (WIN - ply) / i32::try_from(o.winners.len()).unwrap_or(1)
            } else {
                -(WIN - ply)
            };
        }
        if depth <= 0 || ply + 1 >= self.stack.len() {
            return evaluate_four(pos, root);
        }
        if self.out_of_budget() {
            return 0;
        }
        let side = pos.to_move();
        let mut moves = pos.pseudo_moves(side);
        if moves.is_empty() {
            return evaluate_four(pos, root);
        }
        self.order(pos, &mut moves, None, ply);
        let maximizing = side == root;
        let mut best = if maximizing { -WIN - 1 } else { WIN + 1 };
        for m in moves {
            let next = self.play(pos, m, ply);
            let score = self.paranoid(&next, ply + 1, depth - 1, (alpha, beta), root);
            self.stack[ply + 1] = Some(next);
            if self.stopped {
                return 0;
            }
            if maximizing {
                best = best.max(score);
                alpha = alpha.max(score);
            } else {
                best = best.min(score);
                beta = beta.min(score);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Shots and escapes only, until the position is quiet.
    fn quiesce(&mut self, pos: &TankChess, ply: usize, mut alpha: i32, beta: i32, q: usize) -> i32 {
        self.nodes += 1;
        if let Some(score) = terminal(pos, ply) {
            return score;
        }
        if self.out_of_budget() {
            return 0;
        }
        let side = pos.to_move();
        let mut shots: Vec<(i32, Action)> = pos
            .pseudo_moves(side)
            .into_iter()
            .filter_map(|m| gain(pos, m).map(|g| (g, m)))
            .collect();
        // A winning shot or escape wins whatever the rest of the position says.
        if shots.iter().any(|s| s.0 >= WIN / 2) {
            return WIN - ply as i32 - 1;
        }
        // In check there is no standing pat: every answer is searched, and none is mate.
        let in_check = pos.filtered()
            && q < CHECK_PLIES
            && ply + 1 < self.stack.len()
            && pos.threatens(opponent(side)).is_some();
        if in_check {
            return self.evade(pos, ply, alpha, beta, q);
        }
        let stand = evaluate(pos, side);
        if stand >= beta || q >= QUIESCENCE_PLIES || ply + 1 >= self.stack.len() {
            return stand;
        }
        alpha = alpha.max(stand);
        shots.sort_by_key(|e| std::cmp::Reverse(e.0));
        let mut best = stand;
        for (_, m) in shots {
            let score = -self.child_q(pos, m, ply, -beta, -alpha, q);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Every answer to a check, past the horizon: a mate when each loses at once.
    fn evade(&mut self, pos: &TankChess, ply: usize, mut alpha: i32, beta: i32, q: usize) -> i32 {
        let mut moves = pos.pseudo_moves(pos.to_move());
        self.order(pos, &mut moves, None, ply);
        let mut best = -(WIN - ply as i32 - 2);
        for m in moves {
            let score = -self.child_q(pos, m, ply, -beta, -alpha, q);
            if self.stopped {
                return 0;
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    fn child_q(
        &mut self,
        pos: &TankChess,
        m: Action,
        ply: usize,
        alpha: i32,
        beta: i32,
        q: usize,
    ) -> i32 {
        let next = self.play(pos, m, ply);
        let score = self.quiesce(&next, ply + 1, alpha, beta, q + 1);
        self.stack[ply + 1] = Some(next);
        score
    }

    /// The table's move first, then wins, shots by what they hit, checks, killers, the
    /// rest.
    fn order(&self, pos: &TankChess, moves: &mut [Action], first: Option<Action>, ply: usize) {
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        let target = pos.has_commands().then(|| {
            let side = pos.to_move().0;
            pos.pieces
                .iter()
                .find(|p| p.command && p.side != side && p.state == PieceState::Active)
                .copied()
        });
        moves.sort_by_cached_key(|m| {
            let key = if Some(*m) == first {
                3_000_000
            } else if let Some(g) = gain(pos, *m) {
                1_000_000 + g
            } else if target.flatten().is_some_and(|c| checks(pos, *m, &c)) {
                750_000
            } else if killers.contains(&Some(*m)) {
                500_000
            } else {
                0
            };
            std::cmp::Reverse(key)
        });
    }

    fn slot(&self, key: u64) -> usize {
        (key >> (64 - TABLE_BITS)) as usize
    }

    fn probe(&self, pos: &TankChess) -> Option<Entry> {
        let key = zobrist(pos);
        self.table[self.slot(key)].filter(|e| e.key == key)
    }

    fn store(
        &mut self,
        pos: &TankChess,
        depth: i8,
        score: i32,
        bound: Bound,
        best: Option<Action>,
    ) {
        let key = zobrist(pos);
        let slot = self.slot(key);
        if self.table[slot].is_none_or(|e| e.key != key || e.depth <= depth) {
            self.table[slot] = Some(Entry {
                key,
                depth,
                score,
                bound,
                best,
            });
        }
    }
}

fn is_shot(m: Action) -> bool {
    matches!(
        m,
        Action::Move { fire: Some(_), .. } | Action::Escape { .. } | Action::Take { .. }
    )
}

/// Whether quiet move `m` brings its piece onto a line to the enemy Command tank `cmd`
/// with a gun that beats the armor it would strike there: a check, for move ordering
/// (squares between are not looked at).
fn checks(pos: &TankChess, m: Action, cmd: &super::Piece) -> bool {
    let Action::Move { from, to, .. } = m else {
        return false;
    };
    let Some(mover) = pos.piece_at(from) else {
        return false;
    };
    super::Dir8::between(cmd.at, to).is_some()
        && pos.rules.stats(mover.kind).firepower > pos.armor_hit(cmd, to).1
}

/// The score of a finished game for its side to move at `ply`.
fn terminal(pos: &TankChess, ply: usize) -> Option<i32> {
    let o = pos.result.as_ref()?;
    let side = pos.to_move();
    Some(if o.winners.is_empty() {
        0
    } else if o.winners.contains(&side) {
        WIN - ply as i32
    } else {
        -(WIN - ply as i32)
    })
}

/// What a shot, an escape or a flag taken is worth to the mover, or `None` for a quiet move.
fn gain(pos: &TankChess, m: Action) -> Option<i32> {
    match m {
        Action::Escape { .. } => Some(if pos.has_commands() { WIN / 2 } else { 800 }),
        Action::Take { .. } => Some(700),
        Action::Move { fire: Some(sq), .. } => match pos.cell(sq) {
            Cell::Piece(i) => {
                let t = pos.pieces[usize::from(i)];
                Some(if t.command && pos.has_commands() {
                    WIN / 2
                } else {
                    value(t.kind)
                })
            }
            _ => Some(0),
        },
        _ => None,
    }
}

/// In Last Tank Standing, what each survivor is worth beyond its value: the move limit
/// counts pieces, not their worth.
const LAST_TANK_PIECE: i32 = 200;

/// What a piece is worth.
#[must_use]
pub fn value(kind: Kind) -> i32 {
    match kind {
        Kind::LT => 300,
        Kind::MT => 400,
        Kind::HT => 500,
        Kind::TD => 450,
        Kind::HM => 450,
    }
}

/// The position for `side`: material; the Command tank's safety (enemy guns on open lines
/// to it that beat the armor they would strike) and its escape distance; mobility (free
/// squares around each piece); in Capture the Flag the flags, in Escape of Three the race.
#[must_use]
pub fn evaluate(pos: &TankChess, side: PlayerId) -> i32 {
    let (_, h) = pos.size();
    let h = i32::from(h);
    let mut score = 0;
    for p in &pos.pieces {
        let sign = if p.side() == side { 1 } else { -1 };
        match p.state {
            PieceState::Escaped => {
                if matches!(pos.mode, Mode::EscapeOfThree) {
                    score += sign * 1_500;
                }
                continue;
            }
            PieceState::Wrecked => continue,
            PieceState::Active => {}
        }
        score += sign * value(p.kind);
        let to_go = if p.white {
            h - i32::from(p.at.row)
        } else {
            i32::from(p.at.row) + 1
        };
        // Free squares around: room to move and turn.
        let free = super::Dir8::ALL
            .into_iter()
            .filter(|d| {
                p.at.step(*d, 1)
                    .and_then(|(c, r)| pos.square(c, r))
                    .is_some_and(|sq| pos.empty(sq))
            })
            .count() as i32;
        // Room for the fighting pieces; the Command tank is better kept close among its own.
        if !p.command {
            score += sign * free * 3;
        }
        if p.command && pos.has_commands() {
            // The escape race counts most near the far edge.
            let gone = h - to_go;
            score += sign * (gone * 4 + if to_go <= 3 { (4 - to_go) * 60 } else { 0 });
            score -= sign * exposure(pos, p);
        }
        match pos.mode {
            Mode::EscapeOfThree => score += sign * (h - to_go) * 10,
            // Survivors are counted at the move limit, whatever they are worth.
            Mode::LastTankStanding { .. } => score += sign * LAST_TANK_PIECE,
            _ => {}
        }
    }
    for f in pos.flags() {
        match *f {
            Flag::Carried(c) => {
                let p = pos.pieces[usize::from(c)];
                if p.state == PieceState::Active {
                    let sign = if p.side() == side { 1 } else { -1 };
                    let home = if p.white {
                        i32::from(p.at.row)
                    } else {
                        h - 1 - i32::from(p.at.row)
                    };
                    score += sign * (600 + (h - home) * 25);
                }
            }
            Flag::Home(s) => score += if s == side { 3_000 } else { -3_000 },
            Flag::Standing(_) => {}
        }
    }
    score
}

/// Four Players, for `root`: its points against the best of the others' (a point is worth
/// more than a light tank: the most points win), its pieces' worth against the others'
/// average, and how open its Command tank is.
#[must_use]
pub fn evaluate_four(pos: &TankChess, root: PlayerId) -> i32 {
    const POINT: i32 = 450;
    let points = pos.points();
    let of = |s: u8| i32::from(points.get(usize::from(s)).copied().unwrap_or(0));
    let material = |s: u8| -> i32 {
        pos.pieces
            .iter()
            .filter(|p| p.side == s && p.state == PieceState::Active)
            .map(|p| value(p.kind))
            .sum()
    };
    let others: Vec<u8> = (0..pos.seats).filter(|&s| s != root.0).collect();
    let best_other = others.iter().map(|&s| of(s)).max().unwrap_or(0);
    let their_material = others.iter().map(|&s| material(s)).sum::<i32>()
        / i32::try_from(others.len().max(1)).unwrap_or(1);
    let exposed = pos
        .pieces
        .iter()
        .find(|p| p.command && p.side == root.0 && p.state == PieceState::Active)
        .map_or(0, |cmd| exposure(pos, cmd));
    POINT * (of(root.0) - best_other) + material(root.0) - their_material - exposed
}

/// How open the Command tank `cmd` is: for each of the eight lines out from it, an enemy
/// piece first on the line whose gun beats the armor it would strike; and every enemy gun
/// that could beat its thinnest armor and is near enough to drive onto a line to it next
/// move.
fn exposure(pos: &TankChess, cmd: &super::Piece) -> i32 {
    let armor = pos.rules.stats(cmd.kind).armor;
    let thinnest = armor.front.min(armor.side).min(armor.rear);
    let mut danger: i32 = pos
        .pieces
        .iter()
        .filter(|p| p.state == PieceState::Active && p.side != cmd.side)
        .filter(|p| {
            let stats = pos.rules.stats(p.kind);
            stats.firepower > thinnest && p.at.king_distance(cmd.at) <= stats.speed + 6
        })
        .map(|p| {
            if p.at.king_distance(cmd.at) <= pos.rules.stats(p.kind).speed + 2 {
                60
            } else {
                25
            }
        })
        .sum::<i32>();
    // Its own pieces around it shield it.
    danger -= 12
        * super::Dir8::ALL
            .into_iter()
            .filter(|d| {
                cmd.at
                    .step(*d, 1)
                    .and_then(|(c, r)| pos.square(c, r))
                    .and_then(|sq| pos.piece_at(sq))
                    .is_some_and(|q| q.side == cmd.side && q.state == PieceState::Active)
            })
            .count() as i32;
    for d in super::Dir8::ALL {
        for k in 1..=12 {
            let Some(sq) = cmd.at.step(d, k).and_then(|(c, r)| pos.square(c, r)) else {
                break;
            };
            if pos.empty(sq) {
                continue;
            }
            if let Some(p) = pos.piece_at(sq)
                && p.state == PieceState::Active
                && p.side != cmd.side
                && pos.rules.stats(p.kind).firepower > pos.armor_hit(cmd, sq).1
            {
                danger += if k >= 2 { 60 } else { 25 };
            }
            break;
        }
    }
    danger
}

/// The Zobrist hash of a position: one random key per (square, piece kind, side, facing,
/// Command mark, wreck) present, per flag state and per side to move, XORed.
#[must_use]
pub fn zobrist(pos: &TankChess) -> u64 {
    let mut h = mix(0x5eed ^ u64::from(pos.turn));
    for p in &pos.pieces {
        let state = match p.state {
            PieceState::Active => 1u64,
            PieceState::Wrecked => 2,
            PieceState::Escaped => 3,
        };
        let at = if p.state == PieceState::Escaped {
            0xffff
        } else {
            u64::from(p.at.col) | u64::from(p.at.row) << 8
        };
        h ^= mix(at
            | (p.kind as u64) << 16
            | u64::from(p.side) << 20
            | (p.facing.index() as u64) << 24
            | u64::from(p.command) << 28
            | state << 32);
    }
    for (n, f) in pos.flags().iter().enumerate() {
        let code = match *f {
            Flag::Standing(sq) => u64::from(sq.col) | u64::from(sq.row) << 8,
            Flag::Carried(c) => 1 << 16 | u64::from(c),
            Flag::Home(s) => 2 << 16 | u64::from(s.0),
        };
        h ^= mix(code | (n as u64) << 24 | 1 << 40);
    }
    h
}

/// SplitMix64's finaliser: a fixed random-looking key for each feature.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The engine as a bot: `General` strength at a node budget, or a time per move.
pub struct EngineBot {
    engine: Engine,
    name: String,
}

impl EngineBot {
    /// The engine at `limits`, called `name`.
    #[must_use]
    pub fn new(name: &str, limits: Limits) -> Self {
        Self {
            engine: Engine::new(limits),
            name: name.to_string(),
        }
    }
}

impl Bot<TankChess> for EngineBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, game: &TankChess, player: PlayerId, rng: &mut MatchRng) -> Option<Action> {
        if player != game.to_move() || game.result.is_some() {
            return None;
        }
        self.engine.analyse(game, Some(rng)).best
    }
}
