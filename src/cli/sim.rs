//! `tanktable sim`: many bot games of any game on every core, with a progress bar.
//!
//! Results are folded into running totals as the games finish, so memory stays the same
//! whatever the number of games; the totals do not depend on the order the games finish
//! in, so a seed gives the same report on any number of threads.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::Serialize;

use super::commands::{Input, progress, rules_for};
use crate::framework::playable;
use crate::framework::rng::derive_seed;
use crate::framework::{Playable, PlayerId};
use crate::lab::coverage::{Count, Coverage};
use crate::lab::stats::wilson95;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct Options {
    pub games: u32,
    pub seed: u64,
    /// Bots by seat; fewer names than seats repeat in turn; none: the game's default.
    pub bots: Vec<String>,
    /// Worker threads; every core when `None`.
    pub threads: Option<usize>,
    /// Count every rule applied and action taken, and report the coverage table.
    pub coverage: bool,
}

/// The balance report of a setup.
#[derive(Clone, Debug, Serialize)]
pub struct SimReport {
    pub game: String,
    pub setup: String,
    pub games: u32,
    pub seed: u64,
    pub bots: Vec<String>,
    /// Seat names, in seat order.
    pub seats: Vec<String>,
    /// What each seat is (a Tank Combat class; else the seat's name).
    pub labels: Vec<String>,
    /// Wins by seat (a shared win counts for every winner).
    pub wins: Vec<u32>,
    /// Games nobody won (draws, and games ended by the turn or round limit).
    pub no_winner: u32,
    /// Each seat's share of the points, a game's one point split among its winners (or
    /// among every seat when nobody won), per game: the seats' shares sum to 1, and a fair
    /// setup gives each of N seats 1/N.
    pub scores: Vec<f64>,
    /// Those games by how they ended (the outcome's words, numbers written `N`).
    pub no_winner_endings: BTreeMap<String, u32>,
    /// Each seat's win rate with its 95% Wilson interval.
    pub seat_rates: Vec<(f64, (f64, f64))>,
    /// Wins and seats played by label, when seats have labels of their own.
    pub by_label: BTreeMap<String, (u32, u32)>,
    /// Games won by the seat that moved first, when chance decides who does.
    pub first_mover_wins: Option<u32>,
    pub mean_rounds: f64,
    pub mean_actions: f64,
    pub seconds: f64,
    /// Every action kind and counted rule of the game with how often the games used it
    /// (with `--coverage`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coverage: Option<Coverage>,
}

/// One game's point in whole units: divisible by every number of winners up to ten.
const SHARE: u64 = 2520;

/// Running totals of finished games.
#[derive(Clone, Debug, Default)]
struct Totals {
    games: u32,
    wins: Vec<u32>,
    no_winner: u32,
    /// Points by seat, as in [`SimReport::scores`], in [`SHARE`]ths of a game, so that
    /// the sum is exact in any order.
    points: Vec<u64>,
    no_winner_endings: BTreeMap<String, u32>,
    by_label: BTreeMap<String, (u32, u32)>,
    first_mover_wins: u32,
    rounds: u64,
    actions: u64,
    count: Count,
}

impl Totals {
    fn merge(mut self, other: Totals) -> Totals {
        self.games += other.games;
        if self.wins.len() < other.wins.len() {
            self.wins.resize(other.wins.len(), 0);
        }
        for (w, o) in self.wins.iter_mut().zip(&other.wins) {
            *w += o;
        }
        self.no_winner += other.no_winner;
        if self.points.len() < other.points.len() {
            self.points.resize(other.points.len(), 0);
        }
        for (p, o) in self.points.iter_mut().zip(&other.points) {
            *p += o;
        }
        for (ending, n) in other.no_winner_endings {
            *self.no_winner_endings.entry(ending).or_default() += n;
        }
        for (label, (w, n)) in other.by_label {
            let e = self.by_label.entry(label).or_default();
            e.0 += w;
            e.1 += n;
        }
        self.first_mover_wins += other.first_mover_wins;
        self.rounds += other.rounds;
        self.actions += other.actions;
        self.count = self.count.merge(other.count);
        self
    }
}

fn seat(i: usize) -> PlayerId {
    PlayerId(u8::try_from(i).unwrap_or(u8::MAX))
}

/// Plays game `index` (the lab's game and seeding) and counts it.
fn play_one<G: Playable>(
    setup: &G::Setup,
    bots: &[String],
    base_seed: u64,
    index: u32,
) -> Result<Totals, String> {
    let game = crate::lab::run::play_one::<G>(setup, bots, base_seed, (0, index), false)?;
    let won = |i: usize| game.winners.contains(&u8::try_from(i).unwrap_or(u8::MAX));
    let seats = game.labels.len();
    let share = |i: usize| match game.winners.len() {
        0 => SHARE / seats.max(1) as u64,
        k if won(i) => SHARE / k as u64,
        _ => 0,
    };
    let mut totals = Totals {
        games: 1,
        wins: (0..seats).map(|i| u32::from(won(i))).collect(),
        points: (0..seats).map(share).collect(),
        no_winner: u32::from(game.winners.is_empty()),
        first_mover_wins: u32::from(game.first.is_some_and(|f| game.winners.contains(&f))),
        rounds: u64::from(game.rounds),
        actions: u64::from(game.actions),
        ..Totals::default()
    };
    totals.count.add(&game.tally);
    if game.winners.is_empty() {
        let ending = if game.ending.is_empty() {
            "stopped at the action cap".to_string()
        } else {
            game.ending
        };
        totals.no_winner_endings.insert(ending, 1);
    }
    for (i, label) in game.labels.into_iter().enumerate() {
        let e = totals.by_label.entry(label).or_default();
        e.1 += 1;
        e.0 += u32::from(won(i));
    }
    Ok(totals)
}

/// Plays `options.games` bot games of `setup` on every core (or `options.threads`),
/// ticking `bar`.
///
/// # Errors
/// A sentence when a bot or the rules fail, naming the game and its seed.
pub fn simulate<G: Playable>(
    setup: &G::Setup,
    setup_name: &str,
    options: &Options,
    bar: &ProgressBar,
) -> Result<SimReport, String> {
    let started = std::time::Instant::now();
    let first = G::from_setup(setup).map_err(|e| e.to_string())?;
    let n = first.player_count();
    let bots = playable::bots_for::<G>(&options.bots, n).map_err(|e| e.to_string())?;
    let threads = options
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
        .clamp(1, 256);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} worker threads: {e}"))?;
    let totals = pool.install(|| {
        (0..options.games)
            .into_par_iter()
            .map(|i| {
                let t = play_one::<G>(setup, &options.bots, options.seed, i).map_err(|e| {
                    let s = derive_seed(options.seed, u64::from(i));
                    format!("game {i} (seed {s}): {e}")
                });
                bar.inc(1);
                t
            })
            .try_reduce(Totals::default, |a, b| Ok(a.merge(b)))
    })?;
    let games = f64::from(totals.games.max(1));
    let seats: Vec<String> = (0..n).map(|i| first.player_name(seat(i))).collect();
    let labels: Vec<String> = (0..n).map(|i| first.seat_label(seat(i))).collect();
    let mut by_label = totals.by_label;
    if labels
        .iter()
        .zip(&seats)
        .all(|(l, s)| s.contains(l.as_str()))
    {
        by_label.clear();
    }
    let mut wins = totals.wins;
    wins.resize(n, 0);
    let mut points = totals.points;
    points.resize(n, 0);
    Ok(SimReport {
        game: G::KIND.title().to_string(),
        setup: setup_name.to_string(),
        games: totals.games,
        seed: options.seed,
        bots: bots.iter().map(|b| b.name().to_string()).collect(),
        seat_rates: wins
            .iter()
            .map(|&w| (f64::from(w) / games, wilson95(f64::from(w), games)))
            .collect(),
        seats,
        labels,
        wins,
        no_winner: totals.no_winner,
        scores: points
            .iter()
            .map(|&p| p as f64 / SHARE as f64 / games)
            .collect(),
        no_winner_endings: totals.no_winner_endings,
        by_label,
        first_mover_wins: G::CHANCE
            .then_some(totals.first_mover_wins)
            .filter(|_| first_mover_decided::<G>(setup)),
        mean_rounds: totals.rounds as f64 / games,
        mean_actions: totals.actions as f64 / games,
        seconds: started.elapsed().as_secs_f64(),
        coverage: options.coverage.then(|| Coverage::of::<G>(&totals.count)),
    })
}

/// Whether chance decides who moves first in this game.
fn first_mover_decided<G: Playable>(setup: &G::Setup) -> bool {
    playable::start::<G>(setup, 0, &[]).is_ok_and(|m| m.state().first_mover().is_some())
}

/// `sim` for a setup of game `G`.
pub(super) fn run<G: Playable>(
    input: &Input,
    options: &Options,
    json: bool,
    rules: Option<&Path>,
) -> Result<ExitCode, String> {
    if options.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let rules = rules_for::<G>(rules)?;
    let setup = G::parse_setup(&input.path, &input.text, &rules).map_err(|d| d.to_string())?;
    let bar = progress(options.games);
    let report = simulate::<G>(&setup, &input.name(), options, &bar)?;
    bar.finish_and_clear();
    if json {
        say!(
            "{}",
            serde_json::to_string(&report).map_err(|e| e.to_string())?
        );
        return Ok(ExitCode::SUCCESS);
    }
    print_report(&report);
    Ok(ExitCode::SUCCESS)
}

fn print_report(report: &SimReport) {
    say!(
        "{} ({}): {} games, bots {}, seed {}",
        report.game,
        report.setup,
        report.games,
        report.bots.join(" vs "),
        report.seed
    );
    let names: Vec<String> = report
        .seats
        .iter()
        .enumerate()
        .map(|(i, seat)| {
            if seat.contains(report.labels[i].as_str()) {
                format!("seat {} {seat}", i + 1)
            } else {
                format!("seat {} {seat} ({})", i + 1, report.labels[i])
            }
        })
        .collect();
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(15);
    for (i, name) in names.iter().enumerate() {
        let (rate, (lo, hi)) = report.seat_rates[i];
        say!(
            "  {name:<width$} wins {:>6}  {:>5.1}%  95% CI [{:.1}%, {:.1}%]",
            report.wins[i],
            100.0 * rate,
            100.0 * lo,
            100.0 * hi
        );
    }
    say!(
        "  {:<width$}      {:>6}  {:>5.1}%",
        "no winner",
        report.no_winner,
        100.0 * f64::from(report.no_winner) / f64::from(report.games.max(1))
    );
    let mut endings: Vec<(&String, &u32)> = report.no_winner_endings.iter().collect();
    endings.sort_by_key(|(e, n)| (std::cmp::Reverse(**n), (*e).clone()));
    for (ending, n) in endings {
        say!(
            "    {n:>6} {:>5.1}%  {ending}",
            100.0 * f64::from(*n) / f64::from(report.games.max(1))
        );
    }
    for (label, (w, g)) in &report.by_label {
        say!(
            "  {label:<10} won {w} of {g} seats played ({:.1}%)",
            100.0 * f64::from(*w) / f64::from((*g).max(1))
        );
    }
    if let Some(first) = report.first_mover_wins {
        say!(
            "  the seat that moved first won {first} of {} games won",
            report.games - report.no_winner
        );
    }
    say!(
        "  mean length {:.2} rounds, {:.1} actions",
        report.mean_rounds,
        report.mean_actions
    );
    say!(
        "  {:.2} s, {:.0} games/s",
        report.seconds,
        f64::from(report.games) / report.seconds.max(1e-9)
    );
    if let Some(coverage) = &report.coverage {
        say!("{}", coverage.to_text().trim_end());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_is_the_same_on_one_thread_and_two() {
        use crate::rules::range_duel::{DuelSetup, RangeDuel};
        let setup = DuelSetup::builtin_default();
        let run = |threads| {
            let options = Options {
                games: 30,
                seed: 5,
                bots: Vec::new(),
                threads: Some(threads),
                coverage: true,
            };
            simulate::<RangeDuel>(&setup, "duel", &options, &ProgressBar::hidden()).unwrap()
        };
        let (a, b) = (run(1), run(2));
        assert_eq!((&a.wins, a.no_winner), (&b.wins, b.no_winner));
        assert_eq!(a.mean_actions.to_bits(), b.mean_actions.to_bits());
        assert_eq!(a.wins.iter().sum::<u32>() + a.no_winner, 30);
        assert_eq!(a.scores, b.scores);
    }

    #[test]
    fn a_shared_win_splits_the_games_point_among_its_winners() {
        use crate::rules::battle_tanks::{BattleSetup, BattleTanks};
        let setup = BattleSetup::builtin_default();
        let options = Options {
            games: 200,
            seed: 3,
            bots: Vec::new(),
            threads: Some(1),
            coverage: false,
        };
        let r = simulate::<BattleTanks>(&setup, "bt", &options, &ProgressBar::hidden()).unwrap();
        assert!(
            (r.scores.iter().sum::<f64>() - 1.0).abs() < 1e-9,
            "{:?}",
            r.scores
        );
        assert!(r.no_winner > 0, "four commanders sometimes all die");
        let seats = r.seats.len() as f64;
        for (score, &wins) in r.scores.iter().zip(&r.wins) {
            // At most a whole point for every win, and a quarter for every game nobody won.
            let most = (f64::from(wins) + f64::from(r.no_winner) / seats) / 200.0;
            assert!(*score > 0.0 && *score <= most + 1e-9, "{score} > {most}");
        }
    }
}
