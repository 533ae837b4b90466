//! `tanktable sim`: many bot battles on every core, with a progress bar.

use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use super::BotKind;
use super::commands::bots_for;
use crate::framework::bot::play_out;
use crate::framework::rng::derive_seed;
use crate::framework::{Game, MatchRng, PlayerId};
use crate::rules::tank_commander::{Rules, Scenario, TankCommander};

/// One battle's result.
#[derive(Clone, Copy, Debug)]
struct BattleResult {
    winner: Option<PlayerId>,
    first: Option<PlayerId>,
    turns: u32,
    actions: u32,
}

/// The balance report.
#[derive(Debug, Serialize)]
pub struct SimReport {
    pub scenario: String,
    pub games: u32,
    pub seed: u64,
    pub bots: Vec<String>,
    pub sides: Vec<String>,
    pub wins: Vec<u32>,
    pub draws: u32,
    /// Win rate of the first side, draws counted as half a win.
    pub first_side_score: f64,
    /// 95% Wilson interval of the first side's win rate (draws as half).
    pub first_side_ci95: (f64, f64),
    /// Wins by the side that won the roll to go first.
    pub first_mover_wins: u32,
    pub mean_turns: f64,
    pub mean_actions: f64,
    pub seconds: f64,
}

/// Wilson score interval for `successes` of `n` at 95%.
#[must_use]
pub fn wilson95(successes: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964f64;
    let p = successes / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn play_one(
    scenario: &Scenario,
    rules: &Rules,
    kinds: &[BotKind],
    seed: u64,
) -> Result<BattleResult, String> {
    let game = TankCommander::new(scenario, rules)?;
    let mut bots = bots_for(kinds, game.player_count())?;
    let mut rng = MatchRng::new(seed);
    let mut bot_rng = MatchRng::new(derive_seed(seed, u64::MAX));
    let played = play_out(game, &mut bots, &mut rng, &mut bot_rng, 200_000, |_, _| {})?;
    let winner = played
        .outcome
        .as_ref()
        .and_then(|o| o.winners.first().copied());
    Ok(BattleResult {
        winner,
        first: played.state.first_player(),
        turns: u32::from(played.state.turn().min(played.state.turn_limit())),
        actions: u32::try_from(played.actions.len()).unwrap_or(u32::MAX),
    })
}

/// Plays match `i` of `games` with seed `derive_seed(seed, i)` on every core (or
/// `threads`), ticking `progress`; the results come back in match order.
///
/// # Errors
/// The first failure, naming the match and its seed.
pub fn in_parallel<T: Send>(
    games: u32,
    seed: u64,
    threads: Option<usize>,
    progress: &ProgressBar,
    play: impl Fn(u64) -> Result<T, String> + Sync,
) -> Result<Vec<T>, String> {
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
        .clamp(1, 64);
    let next = AtomicU32::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..games).map(|_| None).collect());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games || failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                        break;
                    }
                    let s = derive_seed(seed, u64::from(i));
                    match play(s) {
                        Ok(r) => {
                            if let Ok(mut all) = results.lock() {
                                all[i as usize] = Some(r);
                            }
                        }
                        Err(e) => {
                            if let Ok(mut f) = failure.lock() {
                                *f = Some(format!("match {i} (seed {s}): {e}"));
                            }
                        }
                    }
                    progress.inc(1);
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    Ok(results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect())
}

/// Plays `games` battles and reports.
///
/// # Errors
/// A sentence if a bot or the rules fail during a battle.
pub fn simulate(
    scenario: &Scenario,
    rules: &Rules,
    games: u32,
    seed: u64,
    kinds: &[BotKind],
    threads: Option<usize>,
    progress: &ProgressBar,
) -> Result<SimReport, String> {
    let started = std::time::Instant::now();
    let results = in_parallel(games, seed, threads, progress, |s| {
        play_one(scenario, rules, kinds, s)
    })?;
    let sides: Vec<String> = scenario
        .setup
        .sides
        .iter()
        .map(|s| s.name.clone())
        .collect();
    let mut wins = vec![0u32; sides.len()];
    let mut draws = 0;
    let mut first_mover_wins = 0;
    for r in &results {
        match r.winner {
            Some(w) => {
                wins[w.index()] += 1;
                if r.first == Some(w) {
                    first_mover_wins += 1;
                }
            }
            None => draws += 1,
        }
    }
    let n = f64::from(games.max(1));
    let score = f64::from(wins[0]) + f64::from(draws) / 2.0;
    Ok(SimReport {
        scenario: scenario.setup.name.clone(),
        games,
        seed,
        bots: kinds
            .iter()
            .map(|k| format!("{k:?}").to_lowercase())
            .collect(),
        sides,
        wins,
        draws,
        first_side_score: score / n,
        first_side_ci95: wilson95(score, n),
        first_mover_wins,
        mean_turns: results.iter().map(|r| f64::from(r.turns)).sum::<f64>() / n,
        mean_actions: results.iter().map(|r| f64::from(r.actions)).sum::<f64>() / n,
        seconds: started.elapsed().as_secs_f64(),
    })
}

pub(super) fn run(
    scenario: &Scenario,
    rules: &Rules,
    games: u32,
    seed: u64,
    kinds: &[BotKind],
    json: bool,
    threads: Option<usize>,
) -> Result<ExitCode, String> {
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    bots_for(kinds, scenario.setup.sides.len())?;
    let bar = ProgressBar::new(u64::from(games));
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {bar:40} {pos}/{len} battles  {per_sec}  eta {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let report = simulate(scenario, rules, games, seed, kinds, threads, &bar)?;
    bar.finish_and_clear();
    if json {
        say!(
            "{}",
            serde_json::to_string(&report).map_err(|e| e.to_string())?
        );
        return Ok(ExitCode::SUCCESS);
    }
    say!(
        "{}: {} battles, bots {}, seed {}",
        report.scenario,
        report.games,
        report.bots.join(" vs "),
        report.seed
    );
    for (side, w) in report.sides.iter().zip(&report.wins) {
        say!(
            "  {side:<12} wins {w:>6}  ({:.1}%)",
            100.0 * f64::from(*w) / f64::from(report.games)
        );
    }
    say!(
        "  {:<12}      {:>6}  ({:.1}%)",
        "draws",
        report.draws,
        100.0 * f64::from(report.draws) / f64::from(report.games)
    );
    say!(
        "  {} score {:.3} (draws half), 95% CI [{:.3}, {:.3}]",
        report.sides[0],
        report.first_side_score,
        report.first_side_ci95.0,
        report.first_side_ci95.1
    );
    say!(
        "  side that won the first-turn roll won {} of {} decided battles",
        report.first_mover_wins,
        report.games - report.draws
    );
    say!(
        "  mean turns {:.2}, mean actions {:.1}",
        report.mean_turns,
        report.mean_actions
    );
    say!(
        "  {:.2} s, {:.0} battles/s",
        report.seconds,
        f64::from(report.games) / report.seconds.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_brackets_the_rate() {
        let (lo, hi) = wilson95(50.0, 100.0);
        assert!(
            (lo - 0.404).abs() < 0.01 && (hi - 0.596).abs() < 0.01,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson95(0.0, 10.0);
        assert!(lo == 0.0 && hi > 0.2);
    }
}
