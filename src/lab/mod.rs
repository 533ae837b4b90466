//! The playtest lab: rules variants played against each other over many bot games, with
//! the answers a designer asks for (who wins, by how much, is it chance), sweeps of one
//! number, and what-if continuations from any position. Pure rules code: the command
//! line and the client both drive it, and give the same numbers for the same seed.
//!
//! ```
//! use std::collections::BTreeMap;
//! use tanktable::lab;
//! use tanktable::rules::range_duel::{DuelSetup, RangeDuel};
//!
//! let setup = DuelSetup::builtin_default();
//! let variant = BTreeMap::from([("rules.turn_limit".to_string(), "6".to_string())]);
//! let ask = lab::Ask { games: 20, seed: 1, threads: 1, ..lab::Ask::default() };
//! let (plan, question) =
//!     lab::plan::<RangeDuel>(&setup, "default", &[("short".into(), variant)], &ask).unwrap();
//! let live = lab::Live::new(plan.arms.len());
//! lab::run::<RangeDuel>(&plan, &live).unwrap();
//! let report = lab::LabReport::build(question, &live.snapshot());
//! assert_eq!(report.arms[1].games, 20);
//! ```

pub mod any;
pub mod coverage;
pub mod doc;
pub mod report;
pub mod run;
pub mod shard;
pub mod sprt;
pub mod stats;
pub mod sums;
pub mod variant;
pub mod whatif;

use std::collections::BTreeMap;

pub use report::{ArmReport, LabReport, Question};
pub use run::{Arm, GameResult, Live, Pairing, Plan, run};
pub use sprt::Sprt;
pub use stats::{Rate, Verdict};
pub use variant::{Field, VariantFile};

pub use crate::framework::tally::{Piece, Tally};

use crate::framework::{Playable, PlayerId};

/// How to run a question: games per variant, seed, bots by seat, worker threads, and
/// whether each game's pre-game choices are drawn at random.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ask {
    pub games: u32,
    pub seed: u64,
    pub bots: Vec<String>,
    pub threads: usize,
    /// Draw the choices made before play (Tank Commander's upgrades) at random for every
    /// game, the same for game `i` of every variant.
    pub draft: bool,
    /// Run the workers below normal priority, so that a screen drawn beside them (the
    /// client's lab) keeps its frame rate while they use every core.
    pub background: bool,
    /// Pair the games ([`Pairing`]): compare each variant with the base seed by seed and,
    /// where chance decides who moves first, play each seed twice with the first move
    /// swapped.
    pub paired: bool,
    /// Stop as soon as this sequential test answers (an A/B question only).
    pub sprt: Option<Sprt>,
}

/// The name the base gets in every report.
pub const BASE: &str = "A (base)";

/// A plan and its question: the base setup as "A (base)", then each named variant,
/// applied and validated.
///
/// # Errors
/// Every problem of every variant, each line naming its variant and field.
pub fn plan<G: Playable>(
    setup: &G::Setup,
    setup_name: &str,
    variants: &[(String, BTreeMap<String, String>)],
    ask: &Ask,
) -> Result<(Plan<G::Setup>, Question), String> {
    if ask.draft && G::lab_draws().is_none() {
        return Err(format!(
            "{} has no choices made before play to draw at random",
            G::KIND.title()
        ));
    }
    let (arms, same_as_base) = arms_of::<G>(setup, variants)?;
    let game = G::from_setup(setup).map_err(|e| e.to_string())?;
    let seats: Vec<String> = (0..game.player_count())
        .map(|i| game.player_name(PlayerId(u8::try_from(i).unwrap_or(u8::MAX))))
        .collect();
    // Twins only where chance decides the first move, so that a twin changes the game.
    let pairing = ask.paired.then_some(Pairing {
        twins: G::SWAPS_FIRST,
    });
    // Twins come two to a seed: an odd number of games is rounded up.
    let games = if pairing.is_some_and(|p| p.twins) {
        ask.games.saturating_add(ask.games % 2)
    } else {
        ask.games
    };
    if let Some(test) = &ask.sprt {
        check_sprt(test, arms.len(), pairing, &seats)?;
    }
    let question = Question {
        game: G::KIND.title().to_string(),
        setup: setup_name.to_string(),
        seed: ask.seed,
        games,
        bots: ask.bots.clone(),
        seats,
        pairing,
        sprt: ask.sprt.clone(),
        arms: arms
            .iter()
            .map(|a| (a.name.clone(), a.changes.clone()))
            .collect(),
        sweep: None,
        same_as_base,
        draws: ask
            .draft
            .then(|| G::lab_draws().unwrap_or_default().to_string()),
        field_rules: arms
            .iter()
            .flat_map(|a| a.changes.keys())
            .map(|field| (field.clone(), coverage::rules_of_field::<G>(field)))
            .collect(),
    };
    let plan = Plan {
        arms,
        games,
        seed: ask.seed,
        bots: ask.bots.clone(),
        threads: ask.threads.max(1),
        draft: ask.draft,
        background: ask.background,
        shard: None,
        pairing,
    };
    Ok((plan, question))
}

/// The base as "A (base)" and each named variant applied to it, with the names of the
/// variants that leave the rules as the base has them.
///
/// # Errors
/// Every problem of every variant, each line naming its variant and field.
fn arms_of<G: Playable>(
    setup: &G::Setup,
    variants: &[(String, BTreeMap<String, String>)],
) -> Result<(Vec<Arm<G::Setup>>, Vec<String>), String> {
    let mut arms = vec![Arm {
        name: BASE.to_string(),
        changes: BTreeMap::new(),
        setup: setup.clone(),
    }];
    let mut problems = Vec::new();
    let base_tuning = variant::tuning_text::<G>(setup).ok();
    let mut same_as_base = Vec::new();
    for (name, changes) in variants {
        match variant::apply::<G>(setup, changes) {
            Ok(s) => arms.push(Arm {
                name: {
                    if base_tuning.is_some() && variant::tuning_text::<G>(&s).ok() == base_tuning {
                        same_as_base.push(name.clone());
                    }
                    name.clone()
                },
                changes: changes.clone(),
                setup: s,
            }),
            Err(list) => problems.extend(list.into_iter().map(|p| format!("variant {name}: {p}"))),
        }
    }
    if !problems.is_empty() {
        return Err(problems.join("\n"));
    }
    Ok((arms, same_as_base))
}

/// Checks that a sequential test fits its question: one variant against the base, paired
/// games, and a seat the game has.
fn check_sprt(
    test: &Sprt,
    arms: usize,
    pairing: Option<Pairing>,
    seats: &[String],
) -> Result<(), String> {
    if arms != 2 {
        return Err(format!(
            "the sequential test answers an A/B question: one variant against the base, not {}",
            arms - 1
        ));
    }
    if pairing.is_none() {
        return Err("the sequential test reads paired games: leave pairing on".into());
    }
    test.check(seats)
}

/// Reads a running question's sequential test over the games finished so far and, once
/// it has answered, stops the run (the games still playing are left out of the report,
/// which holds the seeds the test needed). True once answered; false without a test.
pub fn watch(question: &Question, live: &Live) -> bool {
    if question.sprt.is_none() {
        return false;
    }
    let answered =
        report::sprt_reading(question, &live.snapshot()).is_some_and(|r| r.answer.is_some());
    if answered {
        live.cancel
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }
    answered
}

/// A sweep as variants: `path` set to each of `values`, named `path = value`.
#[must_use]
pub fn sweep_variants(path: &str, values: &[String]) -> Vec<(String, BTreeMap<String, String>)> {
    values
        .iter()
        .map(|v| {
            (
                format!("{path} = {v}"),
                BTreeMap::from([(path.to_string(), v.clone())]),
            )
        })
        .collect()
}

/// Reads a sweep: `path=from..to` (whole numbers, both ends in), `path=from..to:step`,
/// or `path=a,b,c` (any values).
///
/// # Errors
/// A sentence saying what is wrong with the text.
pub fn parse_sweep(spec: &str) -> Result<(String, Vec<String>), String> {
    let (path, values) = spec
        .split_once('=')
        .ok_or_else(|| format!("a sweep is `field=from..to` or `field=a,b,c`, not `{spec}`"))?;
    let path = path.trim().to_string();
    if let Some((from, rest)) = values.split_once("..") {
        let (to, step) = rest.split_once(':').unwrap_or((rest, "1"));
        let num = |s: &str| {
            s.trim()
                .parse::<i64>()
                .map_err(|_| format!("`{}` in the sweep `{spec}` is not a whole number", s.trim()))
        };
        let (from, to, step) = (num(from)?, num(to)?, num(step)?);
        if step <= 0 || from > to {
            return Err(format!(
                "the sweep `{spec}` must run upwards with a step of at least 1"
            ));
        }
        let values: Vec<String> = (0..)
            .map(|i| from + i * step)
            .take_while(|v| *v <= to)
            .map(|v| v.to_string())
            .collect();
        if values.len() > 50 {
            return Err(format!(
                "the sweep `{spec}` has {} values; 50 at most",
                values.len()
            ));
        }
        return Ok((path, values));
    }
    let values: Vec<String> = values
        .split(',')
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .collect();
    if values.is_empty() {
        return Err(format!("the sweep `{spec}` names no values"));
    }
    Ok((path, values))
}

#[cfg(test)]
mod tests;
