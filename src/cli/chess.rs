//! Tank Chess's own commands: perft.

use std::process::ExitCode;
use std::time::Instant;

use super::commands::{Input, open};
use crate::framework::{Game as _, Playable};
use crate::rules::GameKind;
use crate::rules::tank_chess::{TankChess, notation};

/// Counts the move sequences from the position of `input`, depth by depth.
pub(super) fn perft(input: &Input, depth: u32, divide: bool) -> Result<ExitCode, String> {
    if input.found.game != GameKind::TankChess {
        return Err(format!(
            "{}: perft counts Tank Chess positions, and this is {}",
            input.name(),
            input.found.describe()
        ));
    }
    let rules = TankChess::load_rules(None).map_err(|d| d.to_string())?;
    let (game, _) = open::<TankChess>(input, &rules, None)?;
    let position = game.state();
    if let Some(o) = position.outcome() {
        say!("The game is over: {}", o.reason);
        return Ok(ExitCode::SUCCESS);
    }
    let (w, h) = position.size();
    say!(
        "{} · {w}×{h} · {} to move",
        position.name(),
        crate::rules::tank_chess::side_name(position.to_move())
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
