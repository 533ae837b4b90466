//! A search bot for Tank Chess: minimax over its own legal moves and every reply, with an
//! evaluation of material, Command-tank danger, the pieces' advance and each mode's plan
//! (the escape race, the flags, the hunt). Two strengths:
//! `Cadet` looks one move ahead, `Commander` two (its move and the best reply), and checks
//! its six best candidates for a reply that mates it.

use super::{Action, Cell, Kind, Piece, PieceState, Square, TankChess};
use crate::framework::bot::Bot;
use crate::framework::{Game, MatchRng, PlayerId};

/// How far the bot looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// Its own move only.
    Cadet,
    /// Its move and the opponent's best reply.
    Commander,
}

/// The Tank Chess search bot.
#[derive(Clone, Copy, Debug)]
pub struct ChessBot(pub Strength);

const WIN: i32 = 1_000_000;
/// With a Command tank: a row nearer the far edge for the Command tank, and a row forward
/// (to the middle) for each other piece. The pieces go first: when the Command tank
/// alone gained by moving, both drove it out at once, White's came into reach first and
/// Black won three games in four on the basic boards (docs/balance.md).
const RUSH: i32 = 1;
const DEVELOP: i32 = 2;
/// Capture the Flag: what shooting a flag's carrier gains beyond the piece.
const CARRIER: i32 = 80;
/// Escape of Three: a row nearer the far edge for each of the three leading pieces.
const RACE: i32 = 8;
/// Escape of Three: an escape, beyond the rows it took.
const ESCAPE: i32 = 100;

/// What a piece is worth: the engine's values, on this bot's tenfold smaller scale.
fn value(kind: Kind) -> i32 {
    super::engine::value(kind) / 10
}

/// The position from `side`'s point of view: material, the escape race (rows still to
/// cover by each Command tank), and who threatens what.
fn evaluate(game: &TankChess, side: PlayerId) -> i32 {
    if let Some(o) = game.outcome() {
        return match o.winners.first() {
            Some(w) if *w == side => WIN,
            Some(_) => -WIN,
            None => 0,
        };
    }
    let (_, h) = game.size();
    let hunt = matches!(game.mode, super::Mode::LastTankStanding { .. });
    let mut score = 0;
    for p in game.pieces() {
        let mine = p.side() == side;
        let sign = if mine { 1 } else { -1 };
        if p.state == PieceState::Active {
            // In Last Tank Standing the survivors are counted, not weighed.
            score += sign * if hunt { 40 } else { value(p.kind) };
            if p.command {
                // Rows still to cover, the step off the board included.
                let to_go = i32::from(h) - rows_out(p, h);
                score += sign * (20 - to_go) * RUSH;
            } else if game.has_commands() {
                // The other pieces go forward to the middle of the board.
                score += sign * rows_out(p, h).min(i32::from(h) / 2) * DEVELOP;
            }
        }
    }
    // Capture the Flag: a flag carried is worth a piece and more the nearer home it is.
    for f in game.flags() {
        if let super::Flag::Carried(c) = *f {
            let p = game.pieces()[usize::from(c)];
            if p.state == PieceState::Active {
                let sign = if p.side() == side { 1 } else { -1 };
                // Its rows out are the rows still to carry it home.
                score += sign * (60 + (20 - rows_out(&p, h)) * 3);
            }
        }
    }
    score += plan(game, side);
    // The hunt counts one's own closing in alone: the enemy's is much the same distance.
    if !hunt {
        score -= plan(game, super::opponent(side));
    }
    let other = super::opponent(side);
    if game.threatens(side).is_some() {
        score += 25;
    }
    if game.threatens(other).is_some() {
        score -= 60;
    }
    score
}

/// Rows `p` has come from its own starting edge.
fn rows_out(p: &Piece, h: u8) -> i32 {
    if p.white {
        i32::from(p.at.row)
    } else {
        i32::from(h) - 1 - i32::from(p.at.row)
    }
}

/// How far `side` has got with its mode's plan, beyond material: the pieces to escape
/// in Escape of Three, the flags in Capture the Flag, the hunt in Last Tank Standing.
/// Without it the Commander saw nothing to gain in moving towards the far edge, a flag
/// or the enemy, and most of these games reached the move limit (docs/balance.md).
fn plan(game: &TankChess, side: PlayerId) -> i32 {
    let (w, rows) = game.size();
    let (w, h) = (i32::from(w), i32::from(rows));
    let mine = || {
        game.pieces()
            .iter()
            .filter(move |p| p.side() == side && p.state == PieceState::Active)
    };
    // Both of a flag's rows in `side`'s half of the board.
    let own_half = |row: u8| {
        if side == super::WHITE {
            2 * (i32::from(row) + 1) < h
        } else {
            2 * i32::from(row) >= h
        }
    };
    match game.mode {
        super::Mode::EscapeOfThree => {
            let escaped = i32::from(game.escaped(side));
            // Rows each piece has covered, its own first row counting one; the race counts
            // the leading pieces, as many as are still to escape.
            let mut out: Vec<i32> = mine().map(|p| rows_out(p, rows) + 1).collect();
            out.sort_unstable_by(|a, b| b.cmp(a));
            let still = usize::try_from(3 - escaped.min(3)).unwrap_or(0);
            let race: i32 = out.iter().take(still).sum();
            let all: i32 = out.iter().sum();
            // An escape is worth more than the far row it left from, or the bot would
            // sit there.
            escaped * (h * (RACE + 1) + ESCAPE) + race * RACE + all
        }
        super::Mode::CaptureTheFlag => {
            let mut score = 0;
            for f in game.flags() {
                match *f {
                    super::Flag::Home(s) if s == side => score += 250,
                    // A flag in its own half: the nearest piece to its four squares.
                    // The middle one is not raced for (the side that moves first would
                    // always win that race) but taken when it comes within reach.
                    super::Flag::Standing(sw) if own_half(sw.row) => {
                        let four = [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(c, r)| Square {
                            col: sw.col + c,
                            row: sw.row + r,
                        });
                        let d = mine()
                            .flat_map(|p| four.map(|sq| p.at.king_distance(sq)))
                            .min()
                            .map_or(w, i32::from);
                        score += (w - d) * 2;
                    }
                    _ => {}
                }
            }
            score
        }
        super::Mode::LastTankStanding { .. } => {
            // Each piece's distance to the nearest enemy: the hunt closes in.
            let theirs: Vec<_> = game
                .pieces()
                .iter()
                .filter(|p| p.side() != side && p.state == PieceState::Active)
                .map(|p| p.at)
                .collect();
            let mut score = 0;
            for p in mine() {
                let d = theirs
                    .iter()
                    .map(|t| p.at.king_distance(*t))
                    .min()
                    .map_or(0, i32::from);
                score += (w - d).max(0);
            }
            score
        }
        _ => 0,
    }
}

/// The most `mover` can gain with one move: a win, or the piece it destroys.
fn best_reply(game: &TankChess, mover: PlayerId) -> i32 {
    if game.outcome().is_some() {
        return 0;
    }
    let mut best = 0;
    for m in game.pseudo_moves(mover) {
        match m {
            Action::Escape { .. } if game.has_commands() => return WIN,
            Action::Escape { .. } if game.mode == super::Mode::EscapeOfThree => {
                if game.escaped(mover) >= 2 {
                    return WIN;
                }
                best = best.max(ESCAPE);
            }
            Action::Escape { .. } => best = best.max(40),
            Action::Move { fire: Some(sq), .. } => {
                if let Cell::Piece(i) = game.cell(sq) {
                    let t = game.pieces()[usize::from(i)];
                    if t.command
                        && matches!(
                            game.mode,
                            super::Mode::Standard | super::Mode::SingleType(_)
                        )
                    {
                        return WIN;
                    }
                    // A carrier's flag falls with it.
                    let carries = game.flags().contains(&super::Flag::Carried(i));
                    best = best.max(value(t.kind) + if carries { CARRIER } else { 0 });
                }
            }
            _ => {}
        }
    }
    best
}

/// Four Players, from `side`'s point of view: its points against the best of the others'
/// (points decide the game: survivors, and kills, a Command tank two); looking ahead, a
/// quarter of its own best shot next move, less a quarter of the best shot any other team
/// has at it before it moves again.
///
/// Every other team moves before `side` does, so each one's shots count, not only the
/// next seat's: when only the next seat's counted, White and Flag White (whose next seats
/// sit across the board) never watched the neighbours actually in reach, and the last seat
/// won about three games in four. Counted in full, the shots froze every team behind its
/// walls (nearly every game a four-way tie); a quarter keeps the teams moving towards one
/// another and each seat near a quarter of the points (docs/balance.md).
fn evaluate_four(game: &TankChess, side: PlayerId, look_ahead: bool) -> i32 {
    if let Some(o) = game.outcome() {
        return if o.winners.contains(&side) {
            WIN / i32::try_from(o.winners.len()).unwrap_or(1)
        } else {
            -WIN
        };
    }
    let points = game.points();
    let mine = i32::from(points.get(usize::from(side.0)).copied().unwrap_or(0));
    let best_other = points
        .iter()
        .enumerate()
        .filter(|(s, _)| *s != usize::from(side.0))
        .map(|(_, p)| i32::from(*p))
        .max()
        .unwrap_or(0);
    let mut score = 100 * (mine - best_other);
    if look_ahead {
        // A shot's worth: the victim's survivor point and the killer's kill (two for a
        // Command tank).
        let best_shot = |shooter: PlayerId, at_side: bool| {
            let mut best = 0;
            for m in game.pseudo_moves(shooter) {
                if let Action::Move { fire: Some(sq), .. } = m
                    && let Cell::Piece(i) = game.cell(sq)
                {
                    let t = game.pieces()[usize::from(i)];
                    if (t.side() == side) == at_side {
                        best = best.max(if t.command { 300 } else { 200 });
                    }
                }
            }
            best
        };
        let seats = u8::try_from(points.len()).unwrap_or(0);
        let threat = (0..seats)
            .filter(|s| *s != side.0)
            .map(|s| best_shot(PlayerId(s), true))
            .max()
            .unwrap_or(0);
        score += (best_shot(side, false) - threat) / 4;
    }
    score
}

/// Whether the player to move in `after` has a reply that leaves `me` threatened with no
/// legal move (a mate in announced play).
fn mated_next(after: &TankChess, me: PlayerId) -> bool {
    if after.outcome().is_some() || !after.has_commands() || !after.announced {
        return false;
    }
    let them = after.to_move();
    // Each check costs a full legal-move generation: bound them so a move stays well
    // under the two-second budget (6 candidates × 20 × ~7 ms on 20×20).
    let mut budget = 20;
    for r in after.pseudo_moves(them) {
        let mut next = after.clone();
        next.play_unchecked(r);
        if next.outcome().is_some() || next.to_move() != me || next.threatens(them).is_none() {
            continue;
        }
        if !next.has_legal_move() {
            return true;
        }
        budget -= 1;
        if budget == 0 {
            break;
        }
    }
    false
}

impl Bot<TankChess> for ChessBot {
    fn name(&self) -> &str {
        match self.0 {
            Strength::Cadet => "cadet",
            Strength::Commander => "commander",
        }
    }

    fn choose(&mut self, game: &TankChess, player: PlayerId, rng: &mut MatchRng) -> Option<Action> {
        let moves = game.legal_actions(player);
        if moves.is_empty() {
            return None;
        }
        let mut scored: Vec<(i32, Action, TankChess)> = Vec::new();
        let four = matches!(game.mode, super::Mode::FourPlayers { .. });
        for m in &moves {
            let mut next = game.clone();
            next.play_unchecked(*m);
            if four {
                let score = evaluate_four(&next, player, self.0 == Strength::Commander);
                scored.push((score, *m, next));
                continue;
            }
            let mut score = evaluate(&next, player);
            if score < WIN && self.0 == Strength::Commander {
                // The next player's best reply.
                score -= best_reply(&next, next.to_move());
            }
            scored.push((score, *m, next));
        }
        scored.sort_by_key(|e| std::cmp::Reverse(e.0));
        if self.0 == Strength::Commander {
            // Look one ply deeper on the best few: a reply that leaves us threatened with
            // no legal answer is a mate against us.
            for entry in scored.iter_mut().take(6) {
                if entry.0 < WIN && mated_next(&entry.2, player) {
                    entry.0 = -WIN / 2;
                }
            }
            scored.sort_by_key(|e| std::cmp::Reverse(e.0));
        }
        let best_score = scored.first().map_or(0, |e| e.0);
        let best: Vec<Action> = scored
            .iter()
            .take_while(|e| e.0 == best_score)
            .map(|e| e.1)
            .collect();
        let i = rng.pick(best.len());
        best.get(i).copied()
    }
}
