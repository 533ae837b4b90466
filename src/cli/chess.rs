//! Tank Chess on the command line: check setups and records, list legal moves, replay a
//! game written in the rulebook's notation.

use std::path::Path;
use std::process::ExitCode;

use crate::data::Diagnostics;
use crate::framework::{Game, MatchRng};
use crate::rules::tank_chess::{self as chess, Rules, Scenario, TankChess, notation};

/// Whether `text` is a Tank Chess game record (notation with a `[Setup …]` header).
pub(super) fn is_record(text: &str) -> bool {
    notation::is_record(text)
}

/// The rules table of Tank Chess.
pub(super) fn rules() -> Result<Rules, String> {
    Rules::load(None).map_err(|d| d.to_string())
}

/// Checks one Tank Chess file; `Ok` names its kind.
pub(super) fn check(file: &Path, text: &str) -> Result<&'static str, Diagnostics> {
    let name = file.display().to_string();
    let head = text.trim_start();
    if head.contains("TankChessRules") {
        return Rules::parse(&name, text).map(|_| "Tank Chess rules");
    }
    let rules = rules().map_err(|e| Diagnostics::whole_file(&name, e))?;
    if is_record(text) {
        return replay_game(file, text, &rules)
            .map(|_| "Tank Chess game record")
            .map_err(|e| Diagnostics::whole_file(&name, e));
    }
    Scenario::parse(&name, text, &rules).map(|_| "Tank Chess setup")
}

/// Plays a game record through the rules; returns the game and each move's facts in words.
fn replay_game(file: &Path, text: &str, rules: &Rules) -> Result<(TankChess, Vec<String>), String> {
    let parsed = notation::parse_record(text)?;
    let setup = crate::rules::tank_commander::resolve_path(&parsed.setup, file.parent());
    let scenario = Scenario::load(&setup, rules).map_err(|d| d.to_string())?;
    let mut game = TankChess::new(&scenario, rules);
    let mut lines = Vec::new();
    let mut rng = MatchRng::new(0);
    for (i, mv) in parsed.moves.iter().enumerate() {
        let action = notation::parse_move(&game, mv)
            .map_err(|e| format!("move {} ({}): {e}", i / 2 + 1, mv))?;
        let side = game.to_move();
        let facts = game.apply(side, &action, &mut rng)?;
        lines.push(format!(
            "{}{} {}",
            i / 2 + 1,
            if i % 2 == 0 { "." } else { "..." },
            notation::move_text(&action, Some(&facts))
        ));
        lines.extend(
            facts
                .iter()
                .map(|f| format!("    {}", game.describe_fact(f))),
        );
    }
    Ok((game, lines))
}

/// `tanktable replay` for a Tank Chess record.
pub(super) fn replay(file: &Path, text: &str) -> Result<ExitCode, String> {
    let rules = rules()?;
    let (game, lines) = replay_game(file, text, &rules)?;
    for l in lines {
        say!("{l}");
    }
    if let Some(o) = game.outcome() {
        say!("Result: {}", o.reason);
    }
    Ok(ExitCode::SUCCESS)
}

/// `tanktable legal` for a Tank Chess setup or record.
pub(super) fn legal(file: &Path, text: &str) -> Result<ExitCode, String> {
    let rules = rules()?;
    let game = if is_record(text) {
        replay_game(file, text, &rules)?.0
    } else {
        let scenario = Scenario::parse(&file.display().to_string(), text, &rules)
            .map_err(|d| d.to_string())?;
        TankChess::new(&scenario, &rules)
    };
    if let Some(o) = game.outcome() {
        say!("The game is over: {}", o.reason);
        return Ok(ExitCode::SUCCESS);
    }
    let moves = game.legal();
    say!(
        "{} to move; {} legal moves{}:",
        chess::side_name(game.to_move()),
        moves.len(),
        if game.announced() {
            " (announced play)"
        } else {
            ""
        }
    );
    for m in &moves {
        say!("  {}", notation::move_text(m, None));
    }
    Ok(ExitCode::SUCCESS)
}

/// `tanktable record` for a Tank Chess setup: one bot game, written in notation. `random`
/// plays at random; `greedy` is the Commander-strength search bot.
pub(super) fn record(
    setup: &Path,
    output: &Path,
    seed: u64,
    bots: &[super::BotKind],
) -> Result<ExitCode, String> {
    use crate::framework::bot::{Bot, RandomBot, play_out};
    use crate::rules::tank_chess::bot::{ChessBot, Strength};
    let rules = rules()?;
    let scenario = Scenario::load(setup, &rules).map_err(|d| d.to_string())?;
    let make = |k: super::BotKind| -> Box<dyn Bot<TankChess>> {
        match k {
            super::BotKind::Random => Box::new(RandomBot),
            super::BotKind::Greedy => Box::new(ChessBot(Strength::Commander)),
        }
    };
    let mut players: Vec<Box<dyn Bot<TankChess>>> = match bots {
        [one] => vec![make(*one), make(*one)],
        [a, b] => vec![make(*a), make(*b)],
        _ => return Err("give one bot for both sides or one per side".into()),
    };
    let start = TankChess::new(&scenario, &rules);
    let mut moves = Vec::new();
    let played = play_out(
        start.clone(),
        &mut players,
        &mut MatchRng::new(seed),
        &mut MatchRng::new(crate::framework::rng::derive_seed(seed, u64::MAX)),
        2_000,
        |_, _| {},
    )?;
    // Replay to collect each move's facts for the announcement symbols.
    let mut game = start.clone();
    for (side, action) in &played.actions {
        let facts = game.apply(*side, action, &mut MatchRng::new(0))?;
        moves.push((*action, facts));
    }
    let text = notation::record_text(
        &setup.display().to_string(),
        scenario.setup.name.as_str(),
        &moves,
    );
    crate::data::write_atomic(output, &text)
        .map_err(|e| format!("cannot write {}: {e}", output.display()))?;
    say!(
        "Wrote {} ({} moves; {}).",
        output.display(),
        moves.len(),
        game.outcome()
            .map_or("unfinished".to_string(), |o| o.reason)
    );
    Ok(ExitCode::SUCCESS)
}
