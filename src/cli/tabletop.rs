//! The setup-file games on the command line: Battle Tanks, Tank Combat and the Range
//! Duel. Every command is written once, generic over [`Tabletop`], and [`dispatch!`]
//! picks the game from the file.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use super::BotKind;
pub(super) use crate::dispatch_table_game as dispatch;
pub(super) use crate::rules::TableGame as Which;

/// The game of a setup file or match record, if it is a setup-file game.
pub(super) fn which(text: &str) -> Option<Which> {
    Which::of_text(text)
}

use super::sim::{in_parallel, wilson95};
use crate::data::Diagnostics;
use crate::framework::bot::{Bot, play_out};
use crate::framework::rng::derive_seed;
use crate::framework::tabletop::{self, TabletopRecord};
use crate::framework::{MatchRng, PlayerId, Tabletop};

fn is_record(text: &str) -> bool {
    let head = crate::rules::strip_comments(text);
    head.starts_with("MatchRecord") || (head.contains("actions:") && head.contains("game:"))
}

/// A setup file or record, read: the match at its end (a fresh match for a setup).
fn open<G: Tabletop>(
    path: &Path,
    text: &str,
    seed: u64,
) -> Result<(crate::framework::Match<G>, Option<TabletopRecord<G>>), String> {
    if is_record(text) {
        let record = tabletop::parse_record::<G>(path, text).map_err(|d| d.to_string())?;
        let game = tabletop::replay(&record).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok((game, Some(record)))
    } else {
        let setup = G::parse_setup(path, text).map_err(|d| d.to_string())?;
        Ok((tabletop::start::<G>(&setup, seed, &[])?, None))
    }
}

/// `check`: a setup or a record; `Ok` names what it is.
pub(super) fn check<G: Tabletop>(path: &Path, text: &str) -> Result<String, Diagnostics> {
    if is_record(text) {
        let record = tabletop::parse_record::<G>(path, text)?;
        tabletop::replay::<G>(&record)
            .map_err(|e| Diagnostics::whole_file(&path.display().to_string(), e))?;
        Ok(format!("{} match record", G::TITLE))
    } else {
        G::parse_setup(path, text)?;
        Ok(format!("{} setup", G::TITLE))
    }
}

/// The bots for every seat: one name for all, or one per seat.
pub(super) fn bots<G: Tabletop>(
    kinds: &[BotKind],
    seats: usize,
) -> Result<Vec<Box<dyn Bot<G>>>, String> {
    let make = |k: BotKind| {
        let name = match k {
            BotKind::Random => "random",
            BotKind::Greedy => "heuristic",
        };
        G::bot(name).ok_or_else(|| format!("{} has no `{name}` bot", G::TITLE))
    };
    // Fewer names than seats repeat in turn: `heuristic,random` at four seats is
    // heuristic, random, heuristic, random.
    if kinds.is_empty() || kinds.len() > seats {
        return Err(format!(
            "give one bot for every seat, or up to one per seat ({seats} seats)"
        ));
    }
    (0..seats).map(|i| make(kinds[i % kinds.len()])).collect()
}

/// `record`: one bot match from a setup, written as a match record.
pub(super) fn record<G: Tabletop>(
    setup_path: &Path,
    output: &Path,
    seed: u64,
    kinds: &[BotKind],
) -> Result<ExitCode, String> {
    let setup = tabletop::load_setup::<G>(setup_path).map_err(|d| d.to_string())?;
    let mut game = tabletop::start::<G>(&setup, seed, &[])?;
    let mut players = bots::<G>(kinds, game.state().player_count())?;
    let mut bot_rng = MatchRng::new(derive_seed(seed, u64::MAX));
    while game.state().outcome().is_none() && game.history().len() < 100_000 {
        let Some(&player) = game.state().to_act().first() else {
            return Err("the match is not over but nobody may act".into());
        };
        let action = players[player.index()]
            .choose(game.state(), player, &mut bot_rng)
            .ok_or("a bot had no action")?;
        game.play(player, &action).map_err(|e| e.to_string())?;
    }
    let record = tabletop::record_of(&setup, seed, &[], &game);
    let text = crate::data::to_ron_pretty(&record)?;
    crate::data::write_atomic(output, &text)
        .map_err(|e| format!("cannot write {}: {e}", output.display()))?;
    say!(
        "Wrote {} ({} actions; {}).",
        output.display(),
        game.history().len(),
        game.state()
            .outcome()
            .map_or("unfinished".to_string(), |o| o.reason)
    );
    Ok(ExitCode::SUCCESS)
}

/// `replay`: every fact of a record, one a line (or one JSON object a line).
pub(super) fn replay<G: Tabletop>(path: &Path, text: &str, json: bool) -> Result<ExitCode, String> {
    let record = tabletop::parse_record::<G>(path, text).map_err(|d| d.to_string())?;
    let mut game = tabletop::start::<G>(&record.scenario, record.seed, &record.dice)?;
    let print = |game: &G, facts: &[G::Fact]| -> Result<(), String> {
        for f in facts {
            if json {
                say!("{}", serde_json::to_string(f).map_err(|e| e.to_string())?);
            } else {
                say!("{}", game.describe_fact(f));
            }
        }
        Ok(())
    };
    print(game.state(), game.opening_facts())?;
    for (i, step) in record.actions.iter().enumerate() {
        if !json {
            say!(
                "{:>4}. {}: {}",
                i + 1,
                game.state().player_name(step.player),
                game.state().describe_action(&step.action)
            );
        }
        let facts = game
            .play(step.player, &step.action)
            .map_err(|e| format!("action {}: {e}", i + 1))?
            .to_vec();
        print(game.state(), &facts)?;
    }
    if let Some(o) = game.state().outcome()
        && !json
    {
        say!("Result: {}", o.reason);
    }
    if let Some(expected) = &record.final_hash {
        let got = crate::framework::hash::format_hash(game.state_hash());
        if &got != expected {
            return Err(format!(
                "the replay ends in state {got}, but the record says {expected}"
            ));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `legal`: who must act now and what each may do.
pub(super) fn legal<G: Tabletop>(
    path: &Path,
    text: &str,
    seed: Option<u64>,
) -> Result<ExitCode, String> {
    let (game, _) = open::<G>(path, text, seed.unwrap_or(0))?;
    let state = game.state();
    if let Some(o) = state.outcome() {
        say!("The match is over: {}", o.reason);
        return Ok(ExitCode::SUCCESS);
    }
    for player in state.to_act() {
        let actions = state.legal_actions(player);
        say!(
            "{} may play {} action{}:",
            state.player_name(player),
            actions.len(),
            if actions.len() == 1 { "" } else { "s" }
        );
        for a in &actions {
            say!("  {}", state.describe_action(a));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One simulated match.
#[derive(Clone, Debug)]
struct Played {
    winners: Vec<PlayerId>,
    labels: Vec<String>,
    rounds: u32,
    actions: u32,
}

/// The balance report of a setup-file game.
#[derive(Debug, Serialize)]
pub struct TabletopReport {
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
    /// Matches nobody won.
    pub no_winner: u32,
    /// Each seat's win rate with its 95% Wilson interval.
    pub seat_rates: Vec<(f64, (f64, f64))>,
    /// Wins and games by label, when seats have labels of their own.
    pub by_label: BTreeMap<String, (u32, u32)>,
    pub mean_rounds: f64,
    pub mean_actions: f64,
    pub seconds: f64,
}

fn play_one<G: Tabletop>(setup: &G::Setup, kinds: &[BotKind], seed: u64) -> Result<Played, String> {
    let game = G::from_setup(setup)?;
    let labels = (0..game.player_count())
        .map(|i| game.seat_label(PlayerId(u8::try_from(i).unwrap_or(u8::MAX))))
        .collect();
    let mut players = bots::<G>(kinds, game.player_count())?;
    let played = play_out(
        game,
        &mut players,
        &mut MatchRng::new(seed),
        &mut MatchRng::new(derive_seed(seed, u64::MAX)),
        200_000,
        |_, _| {},
    )?;
    Ok(Played {
        winners: played.outcome.map(|o| o.winners).unwrap_or_default(),
        labels,
        rounds: played.state.rounds(),
        actions: u32::try_from(played.actions.len()).unwrap_or(u32::MAX),
    })
}

/// Plays `games` bot matches on every core and reports the balance.
///
/// # Errors
/// A sentence when a bot or the rules fail.
pub fn simulate<G: Tabletop>(
    setup: &G::Setup,
    setup_name: &str,
    games: u32,
    seed: u64,
    kinds: &[BotKind],
    threads: Option<usize>,
    progress: &ProgressBar,
) -> Result<TabletopReport, String> {
    let started = std::time::Instant::now();
    let first = G::from_setup(setup)?;
    let seats_n = first.player_count();
    bots::<G>(kinds, seats_n)?;
    let results = in_parallel(games, seed, threads, progress, |s| {
        play_one::<G>(setup, kinds, s)
    })?;
    let n = f64::from(games.max(1));
    let mut wins = vec![0u32; seats_n];
    let mut no_winner = 0;
    let mut by_label: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    for r in &results {
        if r.winners.is_empty() {
            no_winner += 1;
        }
        for w in &r.winners {
            wins[w.index()] += 1;
        }
        for (i, label) in r.labels.iter().enumerate() {
            let e = by_label.entry(label.clone()).or_default();
            e.1 += 1;
            if r.winners.iter().any(|w| w.index() == i) {
                e.0 += 1;
            }
        }
    }
    let seats: Vec<String> = (0..seats_n)
        .map(|i| first.player_name(PlayerId(u8::try_from(i).unwrap_or(u8::MAX))))
        .collect();
    let labels: Vec<String> = (0..seats_n)
        .map(|i| first.seat_label(PlayerId(u8::try_from(i).unwrap_or(u8::MAX))))
        .collect();
    if labels
        .iter()
        .zip(&seats)
        .all(|(l, s)| s.contains(l.as_str()))
    {
        by_label.clear();
    }
    Ok(TabletopReport {
        game: G::TITLE.to_string(),
        setup: setup_name.to_string(),
        games,
        seed,
        bots: kinds
            .iter()
            .map(|k| match k {
                BotKind::Random => "random".to_string(),
                BotKind::Greedy => "heuristic".to_string(),
            })
            .collect(),
        seat_rates: wins
            .iter()
            .map(|&w| (f64::from(w) / n, wilson95(f64::from(w), n)))
            .collect(),
        seats,
        labels,
        wins,
        no_winner,
        by_label,
        mean_rounds: results.iter().map(|r| f64::from(r.rounds)).sum::<f64>() / n,
        mean_actions: results.iter().map(|r| f64::from(r.actions)).sum::<f64>() / n,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// `sim` for a setup-file game.
pub(super) fn sim<G: Tabletop>(
    setup_path: &Path,
    games: u32,
    seed: u64,
    kinds: &[BotKind],
    json: bool,
    threads: Option<usize>,
) -> Result<ExitCode, String> {
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    let setup = tabletop::load_setup::<G>(setup_path).map_err(|d| d.to_string())?;
    let bar = ProgressBar::new(u64::from(games));
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {bar:40} {pos}/{len} matches  {per_sec}  eta {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let report = simulate::<G>(
        &setup,
        &setup_path.display().to_string(),
        games,
        seed,
        kinds,
        threads,
        &bar,
    )?;
    bar.finish_and_clear();
    if json {
        say!(
            "{}",
            serde_json::to_string(&report).map_err(|e| e.to_string())?
        );
        return Ok(ExitCode::SUCCESS);
    }
    say!(
        "{} ({}): {} matches, bots {}, seed {}",
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
        "  {:<width$} wins {:>6}  {:>5.1}%",
        "no winner",
        report.no_winner,
        100.0 * f64::from(report.no_winner) / f64::from(report.games)
    );
    for (label, (w, g)) in &report.by_label {
        say!(
            "  {label:<10} won {w} of {g} seats played ({:.1}%)",
            100.0 * f64::from(*w) / f64::from((*g).max(1))
        );
    }
    say!(
        "  mean length {:.2} rounds, {:.1} actions",
        report.mean_rounds,
        report.mean_actions
    );
    say!(
        "  {:.2} s, {:.0} matches/s",
        report.seconds,
        f64::from(report.games) / report.seconds.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}
