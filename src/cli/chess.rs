//! Tank Chess's own commands: perft and analyse.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::commands::{Input, open};
use crate::framework::{Game as _, Playable};
use crate::rules::GameKind;
use crate::rules::tank_chess::engine::{Analysis, Engine, GENERAL, Limits};
use crate::rules::tank_chess::{TankChess, notation, side_name};

/// The position at the end of `input`, a Tank Chess setup or game.
fn position(input: &Input, command: &str) -> Result<TankChess, String> {
    if input.found.game != GameKind::TankChess {
        return Err(format!(
            "{}: {command} works on Tank Chess positions, and this is {}",
            input.name(),
            input.found.describe()
        ));
    }
    let rules = TankChess::load_rules(None).map_err(|d| d.to_string())?;
    let (game, _) = open::<TankChess>(input, &rules, None)?;
    Ok(game.state().clone())
}

/// The engine's best move, score and line for the side to move.
pub(super) fn analyse(
    input: &Input,
    depth: u8,
    nodes: Option<u64>,
    seconds: Option<f64>,
) -> Result<ExitCode, String> {
    let position = position(input, "analyse")?;
    if let Some(o) = position.outcome() {
        say!("The game is over: {}", o.reason);
        return Ok(ExitCode::SUCCESS);
    }
    let limits = match seconds {
        Some(s) if s.is_finite() && s > 0.0 => Limits {
            depth,
            ..Limits::time(Duration::from_secs_f64(s))
        },
        Some(s) => return Err(format!("--seconds {s}: a time budget is a positive number")),
        None => Limits::nodes(depth, nodes.unwrap_or(GENERAL.nodes)),
    };
    let side = position.to_move();
    let a = Engine::new(limits).analyse(&position, None);
    let (w, h) = position.size();
    say!(
        "{} · {w}×{h} · {} to move",
        position.name(),
        side_name(side)
    );
    let Some(best) = a.best else {
        say!("No legal move.");
        return Ok(ExitCode::SUCCESS);
    };
    say!("best move: {}", notation::move_text(&best, None));
    say!("score: {}", describe_score(&a, side));
    say!(
        "line: {}",
        a.line
            .iter()
            .map(|m| notation::move_text(m, None))
            .collect::<Vec<_>>()
            .join(" , ")
    );
    let seconds = a.elapsed.as_secs_f64();
    say!(
        "depth {} · {} nodes in {seconds:.2} s ({:.0} nodes/s)",
        a.depth,
        a.nodes,
        a.nodes as f64 / seconds.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}

/// The score in words, for the side to move.
#[must_use]
pub fn describe_score(a: &Analysis, side: crate::framework::PlayerId) -> String {
    match a.mate_in() {
        Some(n) if n > 0 => format!("{} wins in {} move(s)", side_name(side), (n + 1) / 2),
        Some(n) => format!("{} loses in {} move(s)", side_name(side), (-n + 1) / 2),
        None => format!(
            "{:+.2} for {} (a light tank is 3.00)",
            f64::from(a.score) / 100.0,
            side_name(side)
        ),
    }
}

/// Counts the move sequences from the position of `input`, depth by depth.
pub(super) fn perft(input: &Input, depth: u32, divide: bool) -> Result<ExitCode, String> {
    let position = &position(input, "perft")?;
    if let Some(o) = position.outcome() {
        say!("The game is over: {}", o.reason);
        return Ok(ExitCode::SUCCESS);
    }
    let (w, h) = position.size();
    say!(
        "{} · {w}×{h} · {} to move",
        position.name(),
        side_name(position.to_move())
    );
    let mut total_nodes = 0u64;
    let started = Instant::now();
    for d in 1..=depth {
        let t = Instant::now();
        let nodes = position.perft(d);
        let seconds = t.elapsed().as_secs_f64();
        total_nodes += nodes;
        say!(
            "depth {d}: {nodes} nodes in {seconds:.3} s ({:.0} nodes/s)",
            nodes as f64 / seconds.max(1e-9)
        );
    }
    if divide {
        say!("below each first move at depth {depth}:");
        for (m, n) in position.perft_divide(depth) {
            say!("  {:<16} {n}", notation::move_text(&m, None));
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    say!(
        "{total_nodes} nodes in all in {seconds:.3} s: {:.0} nodes/s",
        total_nodes as f64 / seconds.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}
