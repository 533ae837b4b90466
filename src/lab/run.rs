//! Running a lab question: N bot games per variant, on a pool of worker threads, with
//! live progress, partial results as games finish, and cancel.
//!
//! Game `i` of every variant is played with the same seed (common random numbers), so
//! two variants meet the same dice as far as their games run alike, and a difference
//! between them is the rules' and not the dice's. Results are sorted before they are
//! summed, so a seed gives the same report on any number of threads, from the command
//! line or the client.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::Tally;
use crate::framework::bot::play_on;
use crate::framework::playable;
use crate::framework::rng::derive_seed;
use crate::framework::{MatchRng, Playable, PlayerId};

/// The most actions one lab game may take before it is counted unfinished.
pub const MAX_ACTIONS: usize = 200_000;

/// One variant to run: its name, its changes (for the report) and its validated setup.
#[derive(Clone, Debug)]
pub struct Arm<S> {
    pub name: String,
    pub changes: BTreeMap<String, String>,
    pub setup: S,
}

/// A lab question: the variants, how many games each, the seed and the bots.
#[derive(Clone, Debug)]
pub struct Plan<S> {
    pub arms: Vec<Arm<S>>,
    pub games: u32,
    pub seed: u64,
    /// Bots by seat; fewer names than seats repeat in turn; none: the game's default.
    pub bots: Vec<String>,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Draw each game's pre-game choices at random (the same for game `i` of every
    /// variant).
    pub draft: bool,
    /// Run the workers below normal priority (`Ask::background`).
    pub background: bool,
    /// Play only this part `(I, N)` of the games ([`super::shard`]); none: all of them.
    pub shard: Option<(u32, u32)>,
    /// How the games are paired; none: every game on a seed of its own, compared unpaired.
    pub pairing: Option<Pairing>,
}

/// Paired games: the statistics compare a variant with the base seed by seed (game `i`
/// of every variant meets the same dice), and with `twins` (where chance decides who
/// moves first) every seed is played twice, the first move going to the other seat in
/// the second game, so that neither the first move nor a lucky seed favours one seat.
/// The bots keep their seats: a seat's win rate stays that of the bot the question put
/// there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    pub twins: bool,
}

impl Pairing {
    /// Games played on one seed: 2 with twins, else 1.
    #[must_use]
    pub fn per_seed(pairing: Option<Self>) -> u32 {
        if pairing.is_some_and(|p| p.twins) {
            2
        } else {
            1
        }
    }
}

/// The seed number game `index` plays, and whether it is the twin with the first move
/// swapped.
#[must_use]
pub fn seed_of(index: u32, pairing: Option<Pairing>) -> (u32, bool) {
    match Pairing::per_seed(pairing) {
        2 => (index / 2, index % 2 == 1),
        _ => (index, false),
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// The variant, by its place in the plan.
    pub arm: u16,
    /// The game's number within its variant; its seed follows from it.
    pub index: u32,
    pub seed: u64,
    /// Winning seats; empty for a draw or a game nobody won.
    pub winners: Vec<u8>,
    /// The seat that moved first, when chance decided it.
    pub first: Option<u8>,
    /// Whether this is the twin of a paired seed, played with the first move swapped.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub swapped: bool,
    pub rounds: u32,
    pub actions: u32,
    /// What each seat is (a Tank Combat class, else the seat's name).
    pub labels: Vec<String>,
    pub tally: Tally,
    /// How the game ended, its numbers written `N` so that alike endings count together
    /// ("move limit: N pieces left each"); empty when the action cap stopped it.
    pub ending: String,
}

/// An outcome's reason with every number written `N`.
#[must_use]
pub fn ending_kind(reason: &str) -> String {
    let mut out = String::with_capacity(reason.len());
    let mut in_number = false;
    for c in reason.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('N');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
    }
    out
}

/// What a run shares with whoever watches it: progress, results so far, cancel.
#[derive(Debug, Default)]
pub struct Live {
    /// Games finished, by variant.
    pub done: Vec<AtomicU32>,
    /// Set to stop: games not yet started are skipped.
    pub cancel: AtomicBool,
    /// Finished games, in the order they finished; shared, so that a snapshot taken
    /// while the workers go on copies pointers, not every game's names and tallies.
    pub results: Mutex<Vec<Arc<GameResult>>>,
}

impl Live {
    /// Progress counters for `arms` variants.
    #[must_use]
    pub fn new(arms: usize) -> Self {
        Self {
            done: (0..arms).map(|_| AtomicU32::new(0)).collect(),
            ..Self::default()
        }
    }

    /// Games finished, over all variants.
    #[must_use]
    pub fn finished(&self) -> u64 {
        self.done
            .iter()
            .map(|d| u64::from(d.load(Ordering::Relaxed)))
            .sum()
    }

    /// The results so far, sorted by variant and game.
    #[must_use]
    pub fn snapshot(&self) -> Vec<Arc<GameResult>> {
        let mut all = self.results.lock().map(|r| r.clone()).unwrap_or_default();
        all.sort_by_key(|r| (r.arm, r.index));
        all
    }
}

fn seat(i: usize) -> PlayerId {
    PlayerId(u8::try_from(i).unwrap_or(u8::MAX))
}

/// Plays game `index` of a variant with the plan's seeding; with `draft`, its pre-game
/// choices are first drawn from a stream of the game's seed of their own, so game `i`
/// of every variant draws the same ones.
///
/// # Errors
/// A sentence when a bot or the rules fail.
pub fn play_one<G: Playable>(
    setup: &G::Setup,
    bots: &[String],
    base_seed: u64,
    (arm, index): (u16, u32),
    draft: bool,
) -> Result<GameResult, String> {
    play_paired::<G>(setup, bots, base_seed, (arm, index), draft, None)
}

/// [`play_one`] under a pairing: game `index` plays the seed [`seed_of`] gives it, with
/// the first move swapped when it is a twin.
///
/// # Errors
/// A sentence when a bot or the rules fail.
pub fn play_paired<G: Playable>(
    setup: &G::Setup,
    bots: &[String],
    base_seed: u64,
    (arm, index): (u16, u32),
    draft: bool,
    pairing: Option<Pairing>,
) -> Result<GameResult, String> {
    let (seed_index, swapped) = seed_of(index, pairing);
    let seed = derive_seed(base_seed, u64::from(seed_index));
    let drawn = if draft {
        G::lab_draft(setup, &mut MatchRng::new(derive_seed(seed, u64::MAX - 1)))
    } else {
        None
    };
    let mut game = G::from_setup(drawn.as_ref().unwrap_or(setup)).map_err(|e| e.to_string())?;
    let n = game.player_count();
    let labels: Vec<String> = (0..n).map(|i| game.seat_label(seat(i))).collect();
    let mut players = playable::bots_for::<G>(bots, n).map_err(|e| e.to_string())?;
    let mut rng = MatchRng::new(seed);
    let mut tally = Tally::default();
    let mut rules: BTreeMap<&'static str, u32> = BTreeMap::new();
    let mut note = |g: &G, facts: &[G::Fact], tally: &mut Tally| {
        g.lab_note(facts, tally);
        for fact in facts {
            g.fact_rules(fact, &mut |id| *rules.entry(id).or_default() += 1);
        }
    };
    let opening = if swapped {
        game.begin_swapped(&mut rng)
    } else {
        game.begin(&mut rng)
    };
    note(&game, &opening, &mut tally);
    let played = play_on(
        game,
        &mut players,
        &mut rng,
        &mut MatchRng::new(derive_seed(seed, u64::MAX)),
        MAX_ACTIONS,
        |g, facts| note(g, facts, &mut tally),
    )
    .map_err(|e| e.to_string())?;
    played.state.lab_finish(&mut tally);
    tally.rules = rules
        .into_iter()
        .map(|(id, n)| (id.to_string(), n))
        .collect();
    let mut actions: BTreeMap<&'static str, u32> = BTreeMap::new();
    for (_, action) in &played.actions {
        *actions.entry(G::action_kind(action)).or_default() += 1;
    }
    tally.actions = actions
        .into_iter()
        .map(|(kind, n)| (kind.to_string(), n))
        .collect();
    Ok(GameResult {
        arm,
        index,
        seed,
        ending: played
            .outcome
            .as_ref()
            .map(|o| ending_kind(&o.reason))
            .unwrap_or_default(),
        winners: played
            .outcome
            .map(|o| o.winners.into_iter().map(|w| w.0).collect())
            .unwrap_or_default(),
        first: played.state.first_mover().map(|p| p.0),
        swapped,
        rounds: played.state.rounds(),
        actions: u32::try_from(played.actions.len()).unwrap_or(u32::MAX),
        labels,
        tally,
    })
}

/// Runs every game of `plan`, adding each result to `live` as it finishes; returns when
/// all are done or the run is cancelled.
///
/// # Errors
/// The first failure (a bug in a bot or the rules), naming the variant, game and seed.
pub fn run<G: Playable>(plan: &Plan<G::Setup>, live: &Live) -> Result<(), String> {
    let arms = plan.arms.len();
    if arms == 0 || plan.games == 0 {
        return Ok(());
    }
    // Check the bots once, before any thread starts.
    let first = G::from_setup(&plan.arms[0].setup).map_err(|e| e.to_string())?;
    playable::bots_for::<G>(&plan.bots, first.player_count()).map_err(|e| e.to_string())?;
    let background = plan.background;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads.clamp(1, 256))
        .start_handler(move |_| {
            if background {
                run_in_background();
            }
        })
        .build()
        .map_err(|e| format!("cannot start {} worker threads: {e}", plan.threads))?;
    let games: Vec<u32> =
        super::shard::indices(plan.games, plan.shard.unwrap_or((1, 1)), plan.pairing).collect();
    let total = games.len() as u64 * arms as u64;
    // Variants take turns, so every variant's plot fills in at the same pace.
    pool.install(|| {
        (0..total).into_par_iter().try_for_each(|task| {
            if live.cancel.load(Ordering::Relaxed) {
                return Ok(());
            }
            let arm = (task % arms as u64) as usize;
            let index = games[(task / arms as u64) as usize];
            let a = &plan.arms[arm];
            let result = play_paired::<G>(
                &a.setup,
                &plan.bots,
                plan.seed,
                (u16::try_from(arm).unwrap_or(u16::MAX), index),
                plan.draft,
                plan.pairing,
            )
            .map_err(|e| {
                let (seed_index, swapped) = seed_of(index, plan.pairing);
                format!(
                    "{}, game {index} (seed {}{}): {e}",
                    a.name,
                    derive_seed(plan.seed, u64::from(seed_index)),
                    if swapped { ", first move swapped" } else { "" }
                )
            })?;
            if let Ok(mut results) = live.results.lock() {
                results.push(Arc::new(result));
            }
            if let Some(done) = live.done.get(arm) {
                done.fetch_add(1, Ordering::Relaxed);
            }
            Ok(())
        })
    })
}

/// How far below normal the priority of background work is (Linux's nice, 0 to 19): the
/// scheduler then gives a busy thread of normal priority about ten times its share.
pub const BACKGROUND_NICENESS: i32 = 10;

/// Lowers the calling thread's priority to `BACKGROUND_NICENESS`, where the system lets
/// one thread's priority differ from its process's (Linux); elsewhere it does nothing.
/// A thread may always lower its own priority, so this cannot fail for want of rights.
#[allow(unsafe_code, reason = "calls into the C library with no pointers")]
pub fn run_in_background() {
    #[cfg(target_os = "linux")]
    // SAFETY: `gettid` and `setpriority` read and set the calling thread's scheduling
    // priority only; no memory is passed.
    unsafe {
        let thread = libc::gettid();
        libc::setpriority(
            libc::PRIO_PROCESS,
            libc::id_t::try_from(thread).unwrap_or(0),
            BACKGROUND_NICENESS,
        );
    }
}

/// The default number of lab workers: every core.
#[must_use]
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}
