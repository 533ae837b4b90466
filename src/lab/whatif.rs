//! What-if from any moment: N bot continuations from a position give each seat's chance
//! to win with an interval, as a whole and after each candidate action of the player to
//! act ("Fire at Viper: Blue wins 62% [59, 65]"); and branching a record at a move, so a
//! new game goes on from there while the original stays as it was.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use rayon::prelude::*;
use serde::Serialize;

use super::stats::Rate;
use crate::framework::bot::play_on;
use crate::framework::playable::{self, Recorded};
use crate::framework::rng::derive_seed;
use crate::framework::{MatchRng, Playable, PlayerId};

/// Each seat's chance to win from a position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Chances {
    pub games: u32,
    /// By seat.
    pub rates: Vec<Rate>,
    pub no_winner: u32,
}

/// The chances after one candidate action.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// The action in the game's notation.
    pub action: String,
    pub chances: Chances,
}

/// How to run continuations.
#[derive(Clone, Debug)]
pub struct Continue<'a> {
    pub games: u32,
    pub seed: u64,
    pub bots: &'a [String],
    pub threads: usize,
    /// Set to stop early (what has finished is counted).
    pub cancel: Option<&'a AtomicBool>,
    /// Counts finished continuations.
    pub done: Option<&'a AtomicU32>,
}

/// Plays `opts.games` bot continuations from `game` (a match under way), continuation `i`
/// with dice from `derive_seed(seed, i)`, optionally opening with `first` by the player
/// to act.
fn continuations<G: Playable>(
    game: &G,
    first: Option<&G::Action>,
    opts: &Continue<'_>,
) -> Result<Chances, String> {
    let n = game.player_count();
    playable::bots_for::<G>(opts.bots, n).map_err(|e| e.to_string())?;
    let actor = game.to_act().first().copied();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.clamp(1, 256))
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let outcomes: Vec<Option<Vec<u8>>> = pool.install(|| {
        (0..opts.games)
            .into_par_iter()
            .map(|i| {
                if opts.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                    return Ok(None);
                }
                let seed = derive_seed(opts.seed, u64::from(i));
                let mut rng = MatchRng::new(seed);
                let mut state = game.clone();
                if let (Some(action), Some(player)) = (first, actor) {
                    state
                        .apply(player, action, &mut rng)
                        .map_err(|e| e.to_string())?;
                }
                let mut bots = playable::bots_for::<G>(opts.bots, n).map_err(|e| e.to_string())?;
                let played = play_on(
                    state,
                    &mut bots,
                    &mut rng,
                    &mut MatchRng::new(derive_seed(seed, u64::MAX)),
                    super::run::MAX_ACTIONS,
                    |_, _| {},
                )
                .map_err(|e| e.to_string())?;
                if let Some(done) = opts.done {
                    done.fetch_add(1, Ordering::Relaxed);
                }
                Ok(Some(
                    played
                        .outcome
                        .map(|o| o.winners.into_iter().map(|w| w.0).collect())
                        .unwrap_or_default(),
                ))
            })
            .collect::<Result<Vec<_>, String>>()
    })?;
    let finished: Vec<Vec<u8>> = outcomes.into_iter().flatten().collect();
    let games = u32::try_from(finished.len()).unwrap_or(u32::MAX);
    let mut wins = vec![0u32; n];
    let mut no_winner = 0;
    for winners in &finished {
        if winners.is_empty() {
            no_winner += 1;
        }
        for &w in winners {
            if let Some(c) = wins.get_mut(usize::from(w)) {
                *c += 1;
            }
        }
    }
    Ok(Chances {
        games,
        rates: wins.iter().map(|&w| Rate::of(w, games)).collect(),
        no_winner,
    })
}

/// Each seat's chance to win from `game`, over `opts.games` bot continuations.
///
/// # Errors
/// A sentence when the match is over, or a bot or the rules fail.
pub fn simulate_from<G: Playable>(game: &G, opts: &Continue<'_>) -> Result<Chances, String> {
    if game.outcome().is_some() {
        return Err("the match is over: there is nothing to simulate".into());
    }
    continuations(game, None, opts)
}

/// The candidate actions of the player to act, at most `limit`: the default bot's choice
/// first, then the others spread evenly over the game's list.
#[must_use]
pub fn candidates<G: Playable>(game: &G, limit: usize, seed: u64) -> Vec<G::Action> {
    let Some(&player) = game.to_act().first() else {
        return Vec::new();
    };
    let legal = game.lab_candidates(player);
    let mut picked: Vec<G::Action> = Vec::new();
    if let Some(mut bot) = G::bot(G::bot_names()[0])
        && let Some(choice) = bot.choose(game, player, &mut MatchRng::new(seed))
    {
        picked.push(choice);
    }
    let rest: Vec<&G::Action> = legal.iter().filter(|a| !picked.contains(a)).collect();
    let room = limit.saturating_sub(picked.len());
    if rest.len() <= room {
        picked.extend(rest.into_iter().cloned());
    } else if room > 0 {
        for k in 0..room {
            picked.push(rest[k * rest.len() / room].clone());
        }
    }
    picked.truncate(limit);
    picked
}

/// The chances after each of `actions` by the player to act, `opts.games` continuations
/// each (the action's own dice differ from one continuation to the next).
///
/// # Errors
/// A sentence when a candidate is refused or a bot fails.
pub fn per_candidate<G: Playable>(
    game: &G,
    actions: &[G::Action],
    opts: &Continue<'_>,
) -> Result<Vec<Candidate>, String> {
    actions
        .iter()
        .map(|action| {
            Ok(Candidate {
                action: game.describe_action(action),
                chances: continuations(game, Some(action), opts)?,
            })
        })
        .collect()
}

/// The seat to act, for the words "Blue to act".
#[must_use]
pub fn to_act<G: Playable>(game: &G) -> Option<PlayerId> {
    game.to_act().first().copied()
}

/// A new record that starts as `record` and stops after its first `at` actions, to be
/// played on by people or bots. The original is not touched.
#[must_use]
pub fn branch<G: Playable>(record: &Recorded<G>, at: usize) -> Recorded<G> {
    let mut branched = record.clone();
    branched.actions.truncate(at);
    branched.final_hash = None;
    branched
}
