//! One lab for all five games behind one object: a loaded setup of any game, with its
//! fields, checks and runs. The client's Lab screen holds one of these; the numbers are
//! those of [`super::run`], so the command line and the client agree for a seed.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::thread::JoinHandle;

use super::variant::{self, Field};
use super::{Ask, Live, Question};
use crate::dispatch_game;
use crate::framework::PlayerId;
use crate::framework::playable::{self, Playable};
use crate::rules::GameKind;

/// A run under way: what it shares, what it asks, and its worker.
pub struct Running {
    pub live: Arc<Live>,
    pub question: Question,
    /// Taken when the run ends, to read its result.
    pub worker: Option<JoinHandle<Result<(), String>>>,
}

impl Running {
    /// Whether the worker has stopped (all games played, cancelled, or failed).
    #[must_use]
    pub fn is_done(&self) -> bool {
        self.worker.as_ref().is_none_or(JoinHandle::is_finished)
    }

    /// Waits for the worker and gives its result.
    ///
    /// # Errors
    /// The run's failure.
    pub fn join(&mut self) -> Result<(), String> {
        match self.worker.take() {
            Some(w) => w
                .join()
                .unwrap_or_else(|_| Err("the lab's worker stopped".into())),
            None => Ok(()),
        }
    }
}

/// A setup of some game, ready for lab questions.
pub trait AnyLab: Send + Sync {
    fn game(&self) -> GameKind;
    /// The setup's file, as reports name it.
    fn setup_name(&self) -> &str;
    fn seats(&self) -> Vec<String>;
    fn bot_names(&self) -> &'static [&'static str];
    /// What "draw choices at random" draws in this game, when it has choices before play.
    fn draws(&self) -> Option<&'static str>;
    /// Every number and switch of the tuning.
    ///
    /// # Errors
    /// A sentence when the tuning cannot be written (a bug).
    fn fields(&self) -> Result<Vec<Field>, String>;
    /// The whole numbers the rules accept for `field`, around its base value.
    fn accepted(&self, field: &Field) -> Option<(i64, i64)>;
    /// The settings a switch may take.
    fn settings(&self, path: &str) -> Vec<String>;
    /// Whether `changes` make a setup the rules accept.
    ///
    /// # Errors
    /// Every problem, naming its field.
    fn check(&self, changes: &BTreeMap<String, String>) -> Result<(), Vec<String>>;
    /// Starts a run on a thread of its own.
    ///
    /// # Errors
    /// Every problem of the variants, or a bot the game does not know.
    fn start(
        &self,
        variants: &[(String, BTreeMap<String, String>)],
        ask: &Ask,
        sweep: Option<String>,
    ) -> Result<Running, String>;
}

struct Loaded<G: Playable> {
    setup: G::Setup,
    name: String,
}

impl<G: Playable> AnyLab for Loaded<G> {
    fn game(&self) -> GameKind {
        G::KIND
    }

    fn setup_name(&self) -> &str {
        &self.name
    }

    fn seats(&self) -> Vec<String> {
        G::from_setup(&self.setup).map_or_else(
            |_| Vec::new(),
            |g| {
                (0..g.player_count())
                    .map(|i| g.player_name(PlayerId(u8::try_from(i).unwrap_or(u8::MAX))))
                    .collect()
            },
        )
    }

    fn bot_names(&self) -> &'static [&'static str] {
        G::bot_names()
    }

    fn draws(&self) -> Option<&'static str> {
        G::lab_draws()
    }

    fn fields(&self) -> Result<Vec<Field>, String> {
        variant::fields::<G>(&self.setup)
    }

    fn accepted(&self, field: &Field) -> Option<(i64, i64)> {
        variant::accepted_range::<G>(&self.setup, field, 20)
    }

    fn settings(&self, path: &str) -> Vec<String> {
        variant::settings::<G>(&self.setup, path)
    }

    fn check(&self, changes: &BTreeMap<String, String>) -> Result<(), Vec<String>> {
        variant::apply::<G>(&self.setup, changes).map(|_| ())
    }

    fn start(
        &self,
        variants: &[(String, BTreeMap<String, String>)],
        ask: &Ask,
        sweep: Option<String>,
    ) -> Result<Running, String> {
        let (plan, mut question) = super::plan::<G>(&self.setup, &self.name, variants, ask)?;
        question.sweep = sweep;
        let live = Arc::new(Live::new(plan.arms.len()));
        let shared = Arc::clone(&live);
        let worker = std::thread::Builder::new()
            .name("lab".into())
            .spawn(move || super::run::<G>(&plan, &shared))
            .map_err(|e| format!("cannot start the lab's worker: {e}"))?;
        Ok(Running {
            live,
            question,
            worker: Some(worker),
        })
    }
}

/// The setup at `path` of `game`, for the lab.
///
/// # Errors
/// Every problem of the setup, placed in its file.
pub fn load(game: GameKind, path: &Path) -> Result<Box<dyn AnyLab>, String> {
    dispatch_game!(game, load_game(path))
}

fn load_game<G: Playable>(path: &Path) -> Result<Box<dyn AnyLab>, String> {
    let rules = G::load_rules(None).map_err(|d| d.to_string())?;
    let setup = playable::load_setup::<G>(path, &rules).map_err(|d| d.to_string())?;
    Ok(Box::new(Loaded::<G> {
        setup,
        name: crate::data::portable_path(path),
    }))
}
