//! How strong one bot is against another, and how long it takes to decide: the figures
//! behind `docs/bots.md`.
//!
//! The tested bot takes every seat in turn, the reference bot all the others, on every
//! setup given. A game scores the tested bot's standing against each other seat, averaged:
//! 1 where it won and the other did not, ½ where both or neither won, 0 where the other
//! won alone. In a two-seat game that is the usual 1 for a win, ½ for a draw and 0 for a
//! loss; in a four-seat game a bot as strong as the reference scores 50%, like in a duel.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::bot::{Bot, PlayOutError, Played, play_out};
use super::playable::{self, Playable};
use super::rng::derive_seed;
use super::{Game, MatchRng, PlayerId, SetupError};
use crate::data::Diagnostics;

/// A bot whose decisions are timed.
pub struct Timed<G: Game> {
    pub bot: Box<dyn Bot<G>>,
    pub times: Arc<Mutex<Vec<Duration>>>,
}

impl<G: Game> Bot<G> for Timed<G> {
    fn name(&self) -> &str {
        self.bot.name()
    }

    fn choose(&mut self, game: &G, player: PlayerId, rng: &mut MatchRng) -> Option<G::Action> {
        let started = Instant::now();
        let choice = self.bot.choose(game, player, rng);
        if let Ok(mut times) = self.times.lock() {
            times.push(started.elapsed());
        }
        choice
    }
}

/// The measured strength.
#[derive(Clone, Debug, Default)]
pub struct Strength {
    /// Per setup (its file name), the tested bot's mean score in each seat.
    pub setups: Vec<(String, Vec<f64>)>,
    /// Games played.
    pub games: u64,
    /// The mean score over every game.
    pub score: f64,
    /// Every decision of the tested bot.
    pub times: Vec<Duration>,
}

impl Strength {
    /// The mean, 99th percentile and longest decision.
    #[must_use]
    pub fn decision_times(&self) -> [Duration; 3] {
        let mut sorted = self.times.clone();
        sorted.sort_unstable();
        let n = u32::try_from(sorted.len().max(1)).unwrap_or(u32::MAX);
        [
            sorted.iter().sum::<Duration>() / n,
            sorted
                .get(sorted.len() * 99 / 100)
                .copied()
                .unwrap_or_default(),
            sorted.last().copied().unwrap_or_default(),
        ]
    }

    /// A Markdown table: the score per setup and seat, then over all.
    #[must_use]
    pub fn table(&self, tested: &str, reference: &str) -> String {
        let seats = self.setups.iter().map(|(_, s)| s.len()).max().unwrap_or(0);
        let mut out = format!(
            "| Setup |{}\n|---|{}\n",
            (1..=seats)
                .map(|i| format!(" {tested} in seat {i} |"))
                .collect::<String>(),
            "---|".repeat(seats)
        );
        for (name, scores) in &self.setups {
            out += &format!(
                "| {name} |{}\n",
                scores
                    .iter()
                    .map(|s| format!(" {:.1}% |", 100.0 * s))
                    .collect::<String>()
            );
        }
        let [mean, p99, most] = self.decision_times();
        // A score's 95% interval, as if each game were a coin: wide enough for ½ scores.
        let half = 1.96 * (self.score * (1.0 - self.score) / self.games.max(1) as f64).sqrt();
        out += &format!(
            "\n{tested} scores {:.1}% (95% CI about [{:.1}, {:.1}]) against {reference} over {} \
             games; {:.4} s a decision on the mean, {:.3} s at the 99th percentile, {:.3} s at most\n",
            100.0 * self.score,
            100.0 * (self.score - half),
            100.0 * (self.score + half),
            self.games,
            mean.as_secs_f64(),
            p99.as_secs_f64(),
            most.as_secs_f64(),
        );
        out
    }
}

/// The tested bot's standing against each other seat of a finished game, averaged.
fn standing(winners: &[PlayerId], me: PlayerId, seats: usize) -> f64 {
    let won = |p: PlayerId| winners.contains(&p);
    let others = (0..seats)
        .map(|i| PlayerId(u8::try_from(i).unwrap_or(u8::MAX)))
        .filter(|&p| p != me);
    let (mut sum, mut n) = (0.0, 0.0);
    for other in others {
        sum += match (won(me), won(other)) {
            (true, false) => 1.0,
            (false, true) => 0.0,
            _ => 0.5,
        };
        n += 1.0;
    }
    if n > 0.0 { sum / n } else { 0.5 }
}

/// Why a strength measurement failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StrengthError {
    /// A setup file does not load.
    #[error(transparent)]
    Load(#[from] Diagnostics),
    /// A setup cannot start a match.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A bot name the game does not know.
    #[error("no bot named {0}")]
    UnknownBot(String),
    /// The bots could not play a game on (a bug in a bot or the rules).
    #[error(transparent)]
    PlayOut(#[from] PlayOutError),
    /// Game `game` of setup `setup` failed.
    #[error("{setup}, game {game}: {why}")]
    Game {
        setup: String,
        game: u64,
        why: Box<StrengthError>,
    },
}

/// Plays `games` games of `tested` against `reference` per setup and seat, on `threads`
/// threads; game `g` of every setup and seat draws the same seeds.
///
/// # Errors
/// [`StrengthError`] when a setup does not load, a bot is unknown or a game fails.
pub fn measure<G: Playable>(
    setups: &[PathBuf],
    rules: &G::Rules,
    (tested, reference): (&str, &str),
    games: u64,
    threads: usize,
) -> Result<Strength, StrengthError>
where
    G::Rules: Sync,
{
    let loaded: Vec<(String, G::Setup, usize)> = setups
        .iter()
        .map(|path| -> Result<_, StrengthError> {
            let setup = playable::load_setup::<G>(path, rules)?;
            let seats = G::from_setup(&setup)?.player_count();
            Ok((name_of(path), setup, seats))
        })
        .collect::<Result<_, _>>()?;
    for name in [tested, reference] {
        G::bot(name).ok_or_else(|| StrengthError::UnknownBot(name.to_string()))?;
    }
    let jobs: Vec<(usize, usize, u64)> = loaded
        .iter()
        .enumerate()
        .flat_map(|(s, (_, _, seats))| {
            (0..*seats).flat_map(move |seat| (0..games).map(move |g| (s, seat, g)))
        })
        .collect();
    let next = AtomicUsize::new(0);
    let times = Arc::new(Mutex::new(Vec::new()));
    let scores: Mutex<Vec<Vec<f64>>> = Mutex::new(
        loaded
            .iter()
            .map(|(_, _, seats)| vec![0.0; *seats])
            .collect(),
    );
    let failure: Mutex<Option<StrengthError>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                play_jobs::<G>(
                    &loaded,
                    &jobs,
                    &next,
                    (tested, reference),
                    &times,
                    &scores,
                    &failure,
                );
            });
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let scores = scores.into_inner().unwrap_or_default();
    let total: f64 = scores.iter().flatten().sum();
    let played = jobs.len() as u64;
    let times = Arc::try_unwrap(times)
        .ok()
        .and_then(|m| m.into_inner().ok())
        .unwrap_or_default();
    Ok(Strength {
        setups: loaded
            .iter()
            .zip(scores)
            .map(|((name, _, _), s)| (name.clone(), s.iter().map(|x| x / games as f64).collect()))
            .collect(),
        games: played,
        score: total / played.max(1) as f64,
        times,
    })
}

/// One worker's share of [`measure`]: plays the jobs `next` hands out (setup, seat,
/// game) until none are left, adding each game's standing to `scores` and keeping the
/// first failure.
fn play_jobs<G: Playable>(
    loaded: &[(String, G::Setup, usize)],
    jobs: &[(usize, usize, u64)],
    next: &AtomicUsize,
    (tested, reference): (&str, &str),
    times: &Arc<Mutex<Vec<Duration>>>,
    scores: &Mutex<Vec<Vec<f64>>>,
    failure: &Mutex<Option<StrengthError>>,
) {
    while let Some(&(s, seat, g)) = jobs.get(next.fetch_add(1, Ordering::SeqCst)) {
        let (_, setup, seats) = &loaded[s];
        let played = play_game::<G>(setup, (*seats, seat), g, (tested, reference), times);
        match played {
            Ok(played) => {
                let winners = played.outcome.map(|o| o.winners).unwrap_or_default();
                let me = PlayerId(u8::try_from(seat).unwrap_or(u8::MAX));
                if let Ok(mut scores) = scores.lock() {
                    scores[s][seat] += standing(&winners, me, *seats);
                }
            }
            Err(e) => {
                if let Ok(mut f) = failure.lock() {
                    f.get_or_insert(StrengthError::Game {
                        setup: loaded[s].0.clone(),
                        game: g,
                        why: Box::new(e),
                    });
                }
            }
        }
    }
}

/// Game `g` of `setup`, the tested bot (its decisions timed into `times`) in `seat` and
/// the reference bot in the others.
fn play_game<G: Playable>(
    setup: &G::Setup,
    (seats, seat): (usize, usize),
    g: u64,
    (tested, reference): (&str, &str),
    times: &Arc<Mutex<Vec<Duration>>>,
) -> Result<Played<G>, StrengthError> {
    let game = G::from_setup(setup)?;
    let mut bots: Vec<Box<dyn Bot<G>>> = (0..seats)
        .map(|i| {
            let name = if i == seat { tested } else { reference };
            let bot = G::bot(name).expect("checked above");
            if i == seat {
                Box::new(Timed {
                    bot,
                    times: Arc::clone(times),
                }) as Box<dyn Bot<G>>
            } else {
                bot
            }
        })
        .collect();
    play_out(
        game,
        &mut bots,
        &mut MatchRng::new(derive_seed(1, g)),
        &mut MatchRng::new(derive_seed(2, g)),
        100_000,
        |_, _| {},
    )
    .map_err(StrengthError::from)
}

fn name_of(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A folder that cannot be read, named.
#[cfg(test)]
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", .path.display())]
pub(crate) struct FolderError {
    path: PathBuf,
    source: std::io::Error,
}

/// The `.ron` files of a folder of the project's `scenarios/`, sorted (for measurements
/// run from the source tree).
///
/// # Errors
/// [`FolderError`] when the folder cannot be read.
#[cfg(test)]
pub(crate) fn shipped_setups(folder: &str) -> Result<Vec<PathBuf>, FolderError> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(folder);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&root)
        .map_err(|source| FolderError {
            path: root.clone(),
            source,
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    paths.sort();
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_standing_is_against_each_other_seat() {
        let p = |i| PlayerId(i);
        assert_eq!(standing(&[p(0)], p(0), 2), 1.0);
        assert_eq!(standing(&[p(1)], p(0), 2), 0.0);
        assert_eq!(standing(&[], p(0), 2), 0.5);
        // Four seats: a win beats all three; another's win loses to one and ties two.
        assert_eq!(standing(&[p(2)], p(2), 4), 1.0);
        assert!((standing(&[p(1)], p(2), 4) - 1.0 / 3.0).abs() < 1e-12);
    }
}
