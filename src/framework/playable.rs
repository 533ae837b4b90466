//! What every game offers beyond its rules, so that one command line, one client session,
//! one simulator and one golden-playthrough runner serve all five.
//!
//! [`Playable`] reads a game's rules tables and setup files, starts a match from a setup,
//! names the game's bots, and reads and writes its match records. A validated setup is
//! self-contained (the rules it was checked against travel with it), so a match started
//! from it needs nothing else.
//!
//! ```
//! use tanktable::framework::{Game, playable};
//! use tanktable::framework::playable::Playable;
//! use tanktable::rules::range_duel::RangeDuel;
//!
//! let rules = RangeDuel::load_rules(None).unwrap();
//! let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
//!     .join("scenarios/range-duel/default.ron");
//! let setup = playable::load_setup::<RangeDuel>(&path, &rules).unwrap();
//! let m = playable::start::<RangeDuel>(&setup, 7, &[]).unwrap();
//! assert_eq!(m.state().player_count(), 2);
//! ```

use std::fmt::Debug;
use std::path::{Path, PathBuf};

use serde::{Serialize, de::DeserializeOwned};

use super::bot::Bot;
use super::hash::format_hash;
use super::kind::GameKind;
use super::{
    Game, Match, MatchRecord, MatchRng, Misscript, PlayerId, RecordedAction, Seat, SetupError,
};
use crate::data::{Diagnostics, Problems, SourceMap};

/// A game the project can open, play, record and simulate.
pub trait Playable: Game + Sized {
    /// The rules tables a setup is checked against and played with (`()` for a game
    /// whose numbers all live in its setups).
    type Rules: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// A validated setup: everything a new match needs, rules included.
    type Setup: Clone + Debug + Send + Sync + 'static;
    /// How a match record writes its setup: the setup itself, or where to find it.
    type SavedSetup: Clone + Debug + Serialize + DeserializeOwned + Send + Sync;

    /// Which game this is.
    const KIND: GameKind;

    /// Whether players hold secrets (hands, unrevealed choices): hot seat then hides the
    /// screen between people.
    const SECRETS: bool = false;

    /// Whether chance decides anything (dice, a shuffled deck). Taking back an action
    /// whose dice are known needs playtest mode then.
    const CHANCE: bool = true;

    /// What the playtest lab may change: [`Playable::tuning`].
    type Tuning: Clone + Debug + Serialize + DeserializeOwned + Send + Sync + 'static;

    /// The file extension of the game's match records.
    const RECORD_EXTENSION: &'static str = "ron";

    /// The rules tables: the file at `path` if given, else the project's files, else the
    /// built-in copies.
    ///
    /// # Errors
    /// Every problem in the file, placed in it.
    fn load_rules(path: Option<&Path>) -> Result<Self::Rules, Diagnostics>;

    /// Reads and validates a setup file's text. `path` names the file in diagnostics and
    /// is the base for any file the setup refers to.
    ///
    /// # Errors
    /// Every problem found, each as `file:line:col: what is wrong`.
    fn parse_setup(
        path: &Path,
        text: &str,
        rules: &Self::Rules,
    ) -> Result<Self::Setup, Diagnostics>;

    /// The rules tables a record of `setup` carries: those of a game whose tables live
    /// outside its setups (Tank Commander, Tank Chess). `None` where the setup holds them.
    fn setup_rules(_setup: &Self::Setup) -> Option<&Self::Rules> {
        None
    }

    /// Every problem in rules tables read back from a record, by field (as the tables'
    /// file would be checked).
    fn rules_problems(_rules: &Self::Rules) -> Problems {
        Problems::default()
    }

    /// The setup as a record writes it.
    fn save_setup(setup: &Self::Setup) -> Self::SavedSetup;

    /// A setup read back from a record, validated exactly as a setup file is: a record
    /// is a file a user can edit, so nothing in it is trusted.
    ///
    /// # Errors
    /// Every problem in the setup, placed in the record (see [`InRecord::locate`]).
    fn restore_setup(
        saved: Self::SavedSetup,
        record: &InRecord<'_>,
        rules: &Self::Rules,
    ) -> Result<Self::Setup, Diagnostics>;

    /// A fresh match from a validated setup.
    ///
    /// # Errors
    /// Why the setup cannot start a match.
    fn from_setup(setup: &Self::Setup) -> Result<Self, SetupError>;

    /// A setup's name and one-line description, for menus.
    fn setup_title(setup: &Self::Setup) -> (String, String);

    /// The seed a setup asks for, if any.
    fn setup_seed(_setup: &Self::Setup) -> Option<u64> {
        None
    }

    /// The game's bots, by name; each game also accepts the other games' names for its
    /// default bot (`heuristic`, `greedy`).
    fn bot(name: &str) -> Option<Box<dyn Bot<Self>>>;

    /// The names [`Playable::bot`] knows, the default first.
    fn bot_names() -> &'static [&'static str];

    /// What bot `name` does and how strong it is, in a sentence for the seat pickers.
    fn bot_about(name: &str) -> &'static str {
        match name {
            "random" => "Plays any legal action at random: for testing, not for a game",
            _ => "The game's own bot: it weighs every legal action by the rules and takes the best",
        }
    }

    /// Rounds played so far: the game's measure of length for balance reports.
    fn rounds(&self) -> u32;

    /// The seat that moved first, when chance decided it (balance reports).
    fn first_mover(&self) -> Option<PlayerId> {
        None
    }

    /// Whether chance decides who moves first in a way [`Playable::begin_swapped`] can
    /// turn round: the lab's paired games then play each seed a second time with the
    /// first move given to the other seat.
    const SWAPS_FIRST: bool = false;

    /// [`Game::begin`] with the chance that decides who moves first read the other way
    /// round, for the twin of a lab game (Tank Commander: each side rolls the die the
    /// other side rolled). Games whose first move chance does not decide just begin.
    fn begin_swapped(&mut self, rng: &mut MatchRng) -> Vec<Self::Fact> {
        self.begin(rng)
    }

    /// Whether this match holds secrets: by default the game's [`Playable::SECRETS`]; a
    /// setup may bring some of its own (Tank Commander's hidden mines). Hot seat hides the
    /// screen between people when it does.
    fn holds_secrets(&self) -> bool {
        Self::SECRETS
    }

    /// An action as `viewer` may read it in the log (`None` as the viewer is the whole
    /// truth); `None` hides it behind "Ann acts". By default a game with secrets hides the
    /// other players' actions whole, and a game without shows them.
    fn describe_action_for(
        &self,
        action: &Self::Action,
        viewer: Option<PlayerId>,
    ) -> Option<String> {
        (!Self::SECRETS || viewer.is_none()).then(|| self.describe_action(action))
    }

    /// A fact as `viewer` may read it: `None` hides it from them, and a fact about a
    /// secret may read differently to its owner ("you draw High Explosive") than to the
    /// others ("Ann draws a card"). `None` as the viewer is the whole truth (replays).
    fn describe_fact_for(&self, fact: &Self::Fact, viewer: Option<PlayerId>) -> Option<String> {
        let _ = viewer;
        Some(self.describe_fact(fact))
    }

    /// The id, in the game's rules map ([`crate::rules::map`]), of the rule `fact`
    /// applies: the log links each line to it.
    fn fact_rule(&self, _fact: &Self::Fact) -> Option<&'static str> {
        None
    }

    /// Every rule of the game's rules map that `fact` applied, by id: the fact's own rule
    /// ([`Playable::fact_rule`]) and those it carries inside (a to-hit modifier's, an
    /// ability's). The lab counts them to say which rules its games exercised.
    fn fact_rules(&self, fact: &Self::Fact, out: &mut dyn FnMut(&'static str)) {
        if let Some(rule) = self.fact_rule(fact) {
            out(rule);
        }
    }

    /// Every rule id [`Playable::fact_rules`] can name: the rules whose use the lab can
    /// count. A rule of the map outside it (a limit that refuses, a number every roll
    /// reads) is reported as not counted, never as unused.
    fn counted_rules() -> &'static [&'static str] {
        &[]
    }

    /// What kind of action `action` is, in a few words the coverage table lists ("fire",
    /// "deploy smoke", "Booming Voice"): one of [`Playable::action_kinds`].
    fn action_kind(action: &Self::Action) -> &'static str;

    /// Every kind of action the game has ([`Playable::action_kind`]), in the order the
    /// coverage table lists them.
    fn action_kinds() -> &'static [&'static str];

    /// Who must act and what they are deciding, in a few words ("Blue (choose a unit to
    /// activate)"); by default the seat's name.
    fn waiting_for(&self, player: PlayerId) -> String {
        self.player_name(player)
    }

    /// What a seat is, for balance reports that group seats (a Tank Combat class). By
    /// default the seat's name.
    fn seat_label(&self, player: PlayerId) -> String {
        self.player_name(player)
    }

    /// The state as `viewer` may hold it on another machine (`None`: a spectator, who
    /// sees what is public). What the viewer may not see (another seat's hand, the order
    /// of the deck, an order not yet revealed, the other side's hidden mines) is replaced
    /// by a stand-in computed only from what the viewer may see, so that two states that
    /// differ only in the viewer's secrets give equal redactions. By default the state
    /// holds no secrets (the dice to come live in the match's generator, never in it).
    fn redacted(&self, viewer: Option<PlayerId>) -> Self {
        let _ = viewer;
        self.clone()
    }

    /// The state as a mirror on another machine holds it: self-contained (with the public
    /// setup and rules it plays by), as compact JSON. Written only for
    /// [`Playable::redacted`] states; read back by [`Playable::from_mirror`].
    fn to_mirror(&self) -> Vec<u8>;

    /// A state read back from [`Playable::to_mirror`]'s bytes: equal to the one written
    /// (the same state hash, the same legal actions for every seat).
    ///
    /// # Errors
    /// What is wrong with the bytes: they come from the network, so nothing in them is
    /// trusted.
    fn from_mirror(bytes: &[u8]) -> Result<Self, super::MirrorError>;

    /// The numbers and switches the playtest lab may change: the rules tables, or a
    /// setup's `rules` section (Battle Tanks, Tank Combat).
    fn tuning(setup: &Self::Setup) -> Self::Tuning;

    /// `setup` played under changed `tuning`, validated as the files would be (problems
    /// by the tuning's paths, or the setup's under `scenario`).
    ///
    /// # Errors
    /// Every problem found.
    fn retune(setup: &Self::Setup, tuning: Self::Tuning) -> Result<Self::Setup, Problems>;

    /// Commented RON texts that explain the tuning's fields, each with the path it sits
    /// under (`""` for the whole tuning): the lab shows a field's comment as its meaning.
    fn tuning_notes() -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }

    /// The actions of `player` the lab's what-if compares (by default every legal
    /// action; a game with very many may offer the distinct ones).
    fn lab_candidates(&self, player: PlayerId) -> Vec<Self::Action> {
        self.legal_actions(player)
    }

    /// Counts what the playtest lab reports beyond wins and length, as facts happen.
    fn lab_note(&self, facts: &[Self::Fact], tally: &mut super::tally::Tally) {
        let _ = (facts, tally);
    }

    /// Counts what the lab reports from the final state of a game.
    fn lab_finish(&self, tally: &mut super::tally::Tally) {
        let _ = tally;
    }

    /// What the lab's "draw choices at random" option draws for each game, in a few
    /// words, when the game has choices made before play (Tank Commander's upgrades);
    /// `None` for a game without.
    fn lab_draws() -> Option<&'static str> {
        None
    }

    /// `setup` with its pre-game choices drawn at random from `rng`, every draw legal
    /// under the setup's rules; the choices a seat took go into the tally's `taken` at the
    /// end of the game. `None` when the game has no such choices.
    fn lab_draft(setup: &Self::Setup, rng: &mut MatchRng) -> Option<Self::Setup> {
        let _ = (setup, rng);
        None
    }

    /// A record as text, the way the game writes them (RON by default).
    ///
    /// # Errors
    /// [`RecordError`] when the record cannot be written.
    fn write_record(record: &Recorded<Self>) -> Result<String, RecordError> {
        let saved: MatchRecord<Self::SavedSetup, Self::Action, Self::Rules> = MatchRecord {
            game: Self::NAME.to_string(),
            scenario: Self::save_setup(&record.setup),
            seed: record.seed,
            dice: record.dice.clone(),
            seats: record.seats.clone(),
            actions: record.actions.clone(),
            final_hash: record.final_hash.clone(),
            rules: Self::setup_rules(&record.setup).cloned(),
        };
        crate::data::to_ron_pretty(&saved).map_err(RecordError::Write)
    }

    /// Reads a record written by [`Playable::write_record`]. A record that carries its
    /// rules tables is read under them (see [`Recorded::own_rules`]), else under `rules`.
    ///
    /// # Errors
    /// Every problem, placed in the file; a record of another game says so.
    fn read_record(
        path: &Path,
        text: &str,
        rules: &Self::Rules,
    ) -> Result<Recorded<Self>, Diagnostics> {
        let name = path.display().to_string();
        let (saved, map): (MatchRecord<Self::SavedSetup, Self::Action, Self::Rules>, _) =
            crate::data::load_ron(&name, text)?;
        if saved.game != Self::NAME {
            return Err(Diagnostics::whole_file(
                &name,
                format!(
                    "this is a record of `{}`, not of `{}`",
                    saved.game,
                    Self::NAME
                ),
            ));
        }
        let (rules, own_rules) = own_rules::<Self>(saved.rules, rules, |p| {
            p.within("rules").locate(&name, &map)
        })?;
        Ok(Recorded {
            setup: Self::restore_setup(saved.scenario, &InRecord { path, map: &map }, &rules)?,
            seed: saved.seed,
            dice: saved.dice,
            seats: saved.seats,
            actions: saved.actions,
            final_hash: saved.final_hash,
            own_rules,
        })
    }
}

/// The rules a record is read under: its own copy when it carries one (checked as the
/// tables' file would be; `place` places its problems), else the project's `current`.
/// The flag says whether the record's own differ from the current ones.
///
/// # Errors
/// Every problem in the record's copy.
pub fn own_rules<'a, G: Playable>(
    carried: Option<G::Rules>,
    current: &'a G::Rules,
    place: impl FnOnce(Problems) -> Diagnostics,
) -> Result<(std::borrow::Cow<'a, G::Rules>, bool), Diagnostics> {
    match carried {
        None => Ok((std::borrow::Cow::Borrowed(current), false)),
        Some(own) => {
            let problems = G::rules_problems(&own);
            if !problems.is_empty() {
                return Err(place(problems));
            }
            let differ = own != *current;
            Ok((std::borrow::Cow::Owned(own), differ))
        }
    }
}

/// The record a setup is read back from: its file, and where its values are.
pub struct InRecord<'a> {
    /// The record file; files the setup names are looked up beside it.
    pub path: &'a Path,
    /// Where the record's values are (empty for a record that is not RON).
    pub map: &'a SourceMap,
}

impl InRecord<'_> {
    /// The record's folder.
    #[must_use]
    pub fn folder(&self) -> Option<&Path> {
        self.path.parent()
    }

    /// A setup's problems placed in the record: a record keeps its setup under
    /// `scenario`, so `players[2]` of the setup is `scenario.players[2]` of the record.
    #[must_use]
    pub fn locate(&self, problems: Problems) -> Diagnostics {
        problems
            .within("scenario")
            .locate(&self.path.display().to_string(), self.map)
    }
}

/// A match record read into its validated setup.
#[derive(Clone, Debug)]
pub struct Recorded<G: Playable> {
    pub setup: G::Setup,
    pub seed: u64,
    /// Scripted dice used before the seeded stream.
    pub dice: Vec<u32>,
    /// Who sat where; empty in records from before seats were kept (all people).
    pub seats: Vec<Seat>,
    pub actions: Vec<RecordedAction<G::Action>>,
    /// The state hash the replay must reach, as `0x` and 16 hex digits.
    pub final_hash: Option<String>,
    /// The record carries the rules tables it was played under and they differ from the
    /// project's: it is read and replayed under its own (a save survives a rules edit).
    pub own_rules: bool,
}

impl<G: Playable> Recorded<G> {
    /// A sentence for players when the record is played under its own rules, else `None`.
    #[must_use]
    pub fn rules_notice(&self) -> Option<String> {
        self.own_rules.then(|| {
            format!(
                "This game was played under rules tables that differ from the project's ({}): it replays and goes on under its own, which the record keeps.",
                G::KIND.rules_tables().join(", ")
            )
        })
    }
}

impl<G: Playable> Recorded<G> {
    /// The record of `game`, played from `setup` with `seed` and `dice`.
    #[must_use]
    pub fn of(setup: &G::Setup, seed: u64, dice: &[u32], seats: &[Seat], game: &Match<G>) -> Self {
        Self {
            setup: setup.clone(),
            seed,
            dice: dice.to_vec(),
            seats: seats.to_vec(),
            actions: game
                .history()
                .iter()
                .map(|s| RecordedAction {
                    player: s.player,
                    action: s.action.clone(),
                })
                .collect(),
            final_hash: Some(format_hash(game.state_hash())),
            own_rules: false,
        }
    }
}

/// Reads a file's text, naming the file when it cannot be read.
///
/// # Errors
/// The file cannot be read.
pub fn read_text(path: &Path) -> Result<String, Diagnostics> {
    let name = path.display().to_string();
    std::fs::read_to_string(path)
        .map_err(|e| Diagnostics::whole_file(&name, format!("cannot read the file: {e}")))
}

/// Reads and validates a setup file.
///
/// # Errors
/// Every problem, each as `file:line:col: what is wrong`.
pub fn load_setup<G: Playable>(path: &Path, rules: &G::Rules) -> Result<G::Setup, Diagnostics> {
    G::parse_setup(path, &read_text(path)?, rules)
}

/// Reads a match record file.
///
/// # Errors
/// Every problem, placed in the file.
pub fn load_record<G: Playable>(path: &Path, rules: &G::Rules) -> Result<Recorded<G>, Diagnostics> {
    G::read_record(path, &read_text(path)?, rules)
}

/// Why a record cannot be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The writer refused a value, in its words.
    #[error("{0}")]
    Write(String),
    /// A record written as moves (Tank Chess's notation) is replayed to be written, and
    /// this one does not replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// Why a record was not saved.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The record cannot be written as text.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The file cannot be written.
    #[error("cannot write {}: {source}", .path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Writes a record to `path` atomically.
///
/// # Errors
/// [`SaveError`]: the record cannot be written, or the file (named) cannot.
pub fn save_record<G: Playable>(record: &Recorded<G>, path: &Path) -> Result<(), SaveError> {
    let text = G::write_record(record)?;
    crate::data::write_atomic(path, &text).map_err(|source| SaveError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Why a match cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// The setup cannot start a match.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A scripted die drawn by the opening does not fit its roll.
    #[error("the match cannot start: {0}")]
    Dice(Misscript),
}

impl StartError {
    /// Where in a record the start went wrong: the setup, or a scripted die.
    #[must_use]
    pub fn place(&self) -> RecordPlace {
        match self {
            Self::Setup(_) => RecordPlace::Setup,
            Self::Dice(bad) => RecordPlace::Dice(bad.position),
        }
    }
}

impl From<StartError> for ReplayError {
    fn from(e: StartError) -> Self {
        Self {
            at: e.place(),
            message: e.to_string(),
        }
    }
}

/// A new match on `setup` with the seeded generator, after `dice` scripted values.
///
/// # Errors
/// [`StartError`] when the setup cannot start a match, or a scripted die drawn at the
/// start does not fit its roll.
pub fn start<G: Playable>(
    setup: &G::Setup,
    seed: u64,
    dice: &[u32],
) -> Result<Match<G>, StartError> {
    let game = G::from_setup(setup)?;
    let m = Match::with_rng(game, MatchRng::scripted(seed, dice.iter().copied()));
    match m.rng().misscript() {
        Some(bad) => Err(StartError::Dice(bad)),
        None => Ok(m),
    }
}

/// Plays a record's actions from its setup, checking the final hash when it has one.
///
/// # Errors
/// The first action that does not play, or a final state that differs from the record's,
/// with its place in the record.
pub fn replay<G: Playable>(record: &Recorded<G>) -> Result<Match<G>, ReplayError> {
    replay_each(record, |_, _| {})
}

/// What [`replay_each`] reports as it goes.
pub enum Replayed<'a, G: Game> {
    /// The facts of the setup itself, before any action.
    Opening(&'a [G::Fact]),
    /// Action `index` (from 0) is about to be played.
    Action(usize, &'a RecordedAction<G::Action>),
    /// What the action just played caused.
    Facts(&'a RecordedAction<G::Action>, &'a [G::Fact]),
}

/// [`replay`], telling `each` about every action and its facts as it plays them (the
/// state passed is the one the action is played in, then the one it left).
///
/// # Errors
/// As [`replay`].
pub fn replay_each<G: Playable>(
    record: &Recorded<G>,
    mut each: impl FnMut(&G, Replayed<'_, G>),
) -> Result<Match<G>, ReplayError> {
    let mut game = start::<G>(&record.setup, record.seed, &record.dice)?;
    each(game.state(), Replayed::Opening(game.opening_facts()));
    for (i, step) in record.actions.iter().enumerate() {
        each(game.state(), Replayed::Action(i, step));
        let (said, who) = (
            game.state().describe_action(&step.action),
            game.state().player_name(step.player),
        );
        let facts = match game.play(step.player, &step.action) {
            Ok(facts) => facts.to_vec(),
            Err(e) => {
                let at = match &e {
                    super::PlayError::Dice(m) => RecordPlace::Dice(m.position),
                    _ => RecordPlace::Action(i),
                };
                return Err(ReplayError {
                    at,
                    message: format!("action {} ({said} by {who}) cannot be played: {e}", i + 1),
                });
            }
        };
        each(game.state(), Replayed::Facts(step, &facts));
    }
    if let Some(expected) = &record.final_hash {
        let got = format_hash(game.state_hash());
        if &got != expected {
            return Err(ReplayError {
                at: RecordPlace::FinalHash,
                message: format!(
                    "the replay ends in state {got}, but the record says {expected}: the rules or the setup changed since it was written"
                ),
            });
        }
    }
    Ok(game)
}

/// Where in a record a replay went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordPlace {
    /// The setup cannot start a match.
    Setup,
    /// A scripted die, by its place in `dice` (from 0).
    Dice(usize),
    /// An action, by its place in `actions` (from 0).
    Action(usize),
    /// The final state differs from the record's hash.
    FinalHash,
}

impl RecordPlace {
    /// The place's path in a RON record (`actions[3]`).
    #[must_use]
    pub fn path(self) -> String {
        match self {
            RecordPlace::Setup => "scenario".to_string(),
            RecordPlace::Dice(i) => format!("dice[{i}]"),
            RecordPlace::Action(i) => format!("actions[{i}]"),
            RecordPlace::FinalHash => "final_hash".to_string(),
        }
    }
}

/// A record that does not replay: where, and why in the rules' words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ReplayError {
    pub at: RecordPlace,
    pub message: String,
}

impl ReplayError {
    /// The error as `file:line:col: message`, placed in the record's `text` (a record
    /// that is not RON, such as chess notation, places it at 1:1; its message still
    /// names the action).
    #[must_use]
    pub fn locate(&self, file: &str, text: &str) -> Diagnostics {
        let mut p = Problems::default();
        p.push(self.at.path(), self.message.clone());
        p.locate(file, &SourceMap::new(text))
    }
}

/// Why bots cannot take the seats they are named for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotsError {
    /// More names than seats.
    #[error("{game} names {names} bots but a game here has {seats} seats")]
    TooMany {
        game: GameKind,
        names: usize,
        seats: usize,
    },
    /// A name the game has no bot for.
    #[error(transparent)]
    Unknown(#[from] UnknownBot),
}

/// Bots for every seat from a list of names: one name for all, or fewer names than seats
/// repeating in turn (`heuristic,random` at four seats is heuristic, random, heuristic,
/// random). An empty list gives every seat the game's default bot.
///
/// # Errors
/// [`BotsError`]: an unknown bot name, or more names than seats.
pub fn bots_for<G: Playable>(
    names: &[String],
    seats: usize,
) -> Result<Vec<Box<dyn Bot<G>>>, BotsError> {
    if names.len() > seats {
        return Err(BotsError::TooMany {
            game: G::KIND,
            names: names.len(),
            seats,
        });
    }
    let default = [G::bot_names()[0].to_string()];
    let names = if names.is_empty() {
        &default[..]
    } else {
        names
    };
    (0..seats)
        .map(|i| {
            let name = &names[i % names.len()];
            G::bot(name).ok_or_else(|| BotsError::from(UnknownBot::of::<G>(name)))
        })
        .collect()
}

/// A bot name the game does not know, with the names it does.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{game} has no bot called `{name}`; its bots are {}", .known.join(", "))]
pub struct UnknownBot {
    /// The game asked.
    pub game: GameKind,
    /// The name it does not know.
    pub name: String,
    /// The names it knows ([`Playable::bot_names`]), the default first.
    pub known: &'static [&'static str],
}

impl UnknownBot {
    /// `name`, unknown to game `G`.
    #[must_use]
    pub fn of<G: Playable>(name: &str) -> Self {
        Self {
            game: G::KIND,
            name: name.to_string(),
            known: G::bot_names(),
        }
    }
}
