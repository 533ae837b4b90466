//! One session for all five games.
//!
//! [`Session<G>`] holds the match at the table (a [`SeatedMatch`]: seats, undo, replays,
//! the privacy screen), the file it came from, and what the panels need worked out once
//! per change ([`Legal`]). Input writes [`Order<G>`] messages; this plugin plays them
//! through the rules and writes [`FactsPlayed<G>`], which the game's scene animates (and
//! turns into its own 3D messages) and the panels log. Bots answer off the main thread
//! once the animations have played ([`Busy`]); every action is autosaved.
//!
//! A game opens one way only: an [`OpenGame`] message, with a file or a setup made in the
//! client (the builder's tanks, a duel of saved designs).

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, mpsc};

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, block_on, poll_once};
use bevy_egui::egui;

use crate::client::core::{ClientSystems, GameScreen, Screen};
use crate::dispatch_game;
use crate::framework::playable::{self, Recorded};
use crate::framework::{LogLine, MatchRng, Playable, PlayerId, Seat, SeatError, SeatedMatch};
use crate::net::copy::SeatCopy;
use crate::rules::battle_tanks::BattleTanks;
use crate::rules::range_duel::RangeDuel;
use crate::rules::tank_chess::TankChess;
use crate::rules::tank_combat::TankCombat;
use crate::rules::tank_commander::TankCommander;
use crate::rules::{FileKind, GameKind, detect};

/// What the client needs of a game beyond [`Playable`]: its scene, and how the shared
/// panels should offer its actions. Every method but [`GameClient::scene`] has a default.
pub trait GameClient: Playable {
    /// The game's screen under [`Screen::Playing`].
    const SCREEN: GameScreen;

    /// The game's scene and panels (the windowed client).
    fn scene(app: &mut App);

    /// The game's logic beyond the session: input mapping, mirrored components, anything
    /// a headless test should exercise.
    fn logic(_app: &mut App) {}

    /// Seconds the scene needs to show `fact`; bots and the privacy screen wait for it.
    fn fact_seconds(&self, _fact: &Self::Fact) -> f32 {
        0.0
    }

    /// Whether the game draws its own controls (an action bar, moves on the board)
    /// instead of the shared panel's buttons.
    const OWN_CONTROLS: bool = false;

    /// The actions the shared order panel offers `player` as buttons: the legal ones,
    /// and any others a player might look for (shown disabled with the rules' reason).
    fn offered(&self, player: PlayerId) -> Vec<Self::Action> {
        self.legal_actions(player)
    }

    /// The heading an action's button stands under.
    fn action_group(&self, _action: &Self::Action) -> String {
        String::new()
    }

    /// A tooltip for an action's button.
    fn action_hint(&self, _action: &Self::Action) -> Option<String> {
        None
    }

    /// What the game shows above the orders (a hand of cards, say). `viewer` is the seat at
    /// the screen; `None` may see everything.
    fn seat_panel(&self, _ui: &mut egui::Ui, _viewer: Option<PlayerId>) {}

    /// What the person deciding should do next, for the banner.
    fn prompt(&self, _player: PlayerId) -> Option<String> {
        None
    }

    /// The game's own figures on the end screen.
    fn end_summary(_session: &Session<Self>, _ui: &mut egui::Ui) {}

    /// Where the opening plays out chance before anyone at the table has decided (a
    /// first battle whose every die is forced): what to show until a person asks for it.
    /// `self` is the state after the opening, `opening` its facts.
    fn held_opening(&self, _opening: &[Self::Fact]) -> Option<HeldOpening<Self>> {
        None
    }
}

/// An opening that waits for a person at the table ([`GameClient::held_opening`]).
#[derive(Clone, Debug)]
pub struct HeldOpening<G> {
    /// The state to show until then (as it was before the opening).
    pub before: G,
    /// How many of the opening facts `before` already tells (the log shows these).
    pub told: usize,
    /// The button that plays the rest.
    pub button: String,
    /// Why the table waits, for the banner.
    pub why: String,
}

/// A game on the table. See the [module docs](self).
#[derive(Resource, Deref, DerefMut)]
pub struct Session<G: GameClient> {
    #[deref]
    pub seated: SeatedMatch<G>,
    /// The file the game was opened from: a setup (hot reload, titles) or a record.
    pub path: Option<PathBuf>,
    /// Bumped on every change of the match, its seats or the screen's viewer.
    pub revision: u64,
    /// Different for every game opened in this run.
    pub generation: u64,
    /// Actions waiting to be played one by one, each after the last one's animation.
    pub queued: VecDeque<(PlayerId, G::Action)>,
    /// The last refusal, save or problem, for the banner.
    pub notice: Option<String>,
    /// Whether people may act here (a preview only shows the table).
    pub interactive: bool,
    /// The opening's chance, waiting for a person to ask for it (bots wait too).
    pub held: Option<HeldOpening<G>>,
    /// The name the table shows, where it is not the setup's own (a lab variant's).
    pub title: Option<String>,
    /// The host that holds the match, for a game played across machines: the state is
    /// this seat's mirror, and orders go to the host ([`super::remote`]).
    pub link: Option<Box<super::remote::Link<G>>>,
    bot: Option<BotThinking<G>>,
}

/// A bot choosing off the main thread, with the generator it borrowed.
struct BotThinking<G: Playable> {
    revision: u64,
    task: Task<(Option<G::Action>, MatchRng)>,
}

impl<G: GameClient> Session<G> {
    /// Wraps a match for the table.
    #[must_use]
    pub fn new(seated: SeatedMatch<G>, path: Option<PathBuf>) -> Self {
        Self {
            seated,
            path,
            revision: 0,
            generation: next_generation(),
            queued: VecDeque::new(),
            notice: None,
            interactive: true,
            held: None,
            title: None,
            link: None,
            bot: None,
        }
    }

    /// The state the table shows as it stands (before an opening held for a person).
    #[must_use]
    pub fn table_state(&self) -> &G {
        self.held
            .as_ref()
            .map_or_else(|| self.state(), |h| &h.before)
    }

    /// The log as the screen's seat may read it; an opening held for a person is not
    /// told before it is played out.
    #[must_use]
    pub fn log(&self) -> Vec<LogLine> {
        if let Some(link) = &self.link {
            return link.log();
        }
        let mut lines = self.seated.log();
        if let Some(held) = &self.held {
            lines.retain(|l| l.step.is_some() || l.fact.is_none_or(|f| f < held.told));
        }
        lines
    }

    /// Marks a change.
    pub fn changed(&mut self) {
        self.revision += 1;
    }

    /// The match as a record.
    #[must_use]
    pub fn recorded(&self) -> Recorded<G> {
        self.seated.record()
    }

    /// Writes the match to `path` atomically, as the game writes its records.
    ///
    /// # Errors
    /// A sentence naming the file.
    pub fn save_to(&self, path: &Path) -> Result<(), String> {
        playable::save_record(&self.recorded(), path).map_err(|e| e.to_string())
    }
}

fn next_generation() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// An order from the panels, the keys or the scene.
#[derive(Message, Clone, Debug)]
pub enum Order<G: Playable> {
    /// Play one action.
    Play(PlayerId, G::Action),
    /// Play these actions one after another, each after the last one's animation (a
    /// planned route in Tank Commander).
    PlaySequence(PlayerId, Vec<G::Action>),
    /// Take back the last person's action (and the bots' answers after it).
    Undo,
    /// Playtest: go back to the state after this many actions.
    GoBack(usize),
    /// Playtest: keep the game so far in the saves folder as it is, then play on from
    /// the state after this many actions (a branch).
    Branch(usize),
    /// Replay: show the match after this many actions.
    Seek(usize),
    /// Replay: play on from the position shown (the record itself is kept).
    TakeOver,
    /// Save the match: to this file, else to the saves folder.
    Save(Option<PathBuf>),
    /// The same setup and seats again, with new dice.
    Rematch,
    /// Put a person or a bot in a seat.
    Sit(PlayerId, Seat),
    /// The person at the screen is ready: drop the privacy screen.
    Reveal,
    /// Turn playtest mode on or off.
    Playtest(bool),
    /// Play out the opening held for a person ([`GameClient::held_opening`]).
    Begin,
    /// A line of chat to the others (a game played across machines).
    Say(String),
    /// Let another player take back their last action, or not (across machines).
    AnswerUndo(bool),
}

/// What the rules said after an order: the scene animates these, the panels log them.
#[derive(Message, Clone, Debug)]
pub struct FactsPlayed<G: Playable> {
    pub facts: Vec<G::Fact>,
    /// The action they follow (its index in the history); `None` for the opening.
    pub step: Option<usize>,
    /// The match jumped (a new game, undo, a replay step): redraw from the state.
    pub jumped: bool,
}

/// A line of the log was clicked: the scene may pick out what it is about.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogClicked {
    pub step: Option<usize>,
    pub fact: Option<usize>,
}

/// Whether the scene is still showing what happened; bots, queued actions and the
/// privacy screen wait for it.
#[derive(Resource, Default, Debug)]
pub struct Busy {
    /// When the queued animations end (seconds of [`Time`]): each fact played adds the
    /// seconds its game gives it ([`GameClient::fact_seconds`]). Only the session sets it.
    pub until: f32,
}

impl Busy {
    /// Adds `seconds` of animation after what is already playing.
    pub fn queue(&mut self, now: f32, seconds: f32) -> f32 {
        let start = self.until.max(now);
        self.until = start + seconds;
        start
    }

    /// True while animations play.
    #[must_use]
    pub fn busy(&self, now: f32) -> bool {
        self.until > now
    }

    /// Ends the animations now.
    pub fn clear(&mut self, now: f32) {
        self.until = now;
    }
}

/// Skip the animations that are playing (Space, or the Skip button).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct SkipAnimations;

/// An order to play was refused: the action, and why, typed (the rule that refuses it in
/// [`SeatError::rule`]). Whoever plays orders on a person's behalf (End turn, say) stops
/// at it.
#[derive(Message, Debug)]
pub struct OrderRefused<G: GameClient> {
    pub player: PlayerId,
    pub action: G::Action,
    pub error: SeatError,
}

/// A setup made in the client rather than read from a file.
#[derive(Clone, Debug)]
pub enum AnySetup {
    TankCommander(<TankCommander as Playable>::Setup),
    TankChess(<TankChess as Playable>::Setup),
    BattleTanks(<BattleTanks as Playable>::Setup),
    TankCombat(<TankCombat as Playable>::Setup),
    RangeDuel(<RangeDuel as Playable>::Setup),
}

/// Where a game comes from.
#[derive(Clone, Debug)]
pub enum GameSource {
    /// A setup (a new game) or a match record (played on, or replayed).
    File(PathBuf),
    /// A setup made in the client, with a name for titles.
    Setup(Box<AnySetup>, String),
}

/// Opens a game: the one way a game reaches the table.
#[derive(Message, Clone, Debug)]
pub struct OpenGame {
    pub source: GameSource,
    /// For a record: step through it from the start instead of playing on.
    pub replay: bool,
    /// Who sits where; a setup's missing seats are people, a record keeps its own.
    pub seats: Option<Vec<Seat>>,
    /// The dice seed of a new game (default: the setup's own, else the clock).
    pub seed: Option<u64>,
    /// For a setup made in the client: the file it was made from (hot reload, rematch).
    pub path: Option<PathBuf>,
    /// A file to open instead when the file cannot be (the autosave's backup).
    pub backup: Option<PathBuf>,
    /// The name the table shows for the game, where it is not the setup's own (a lab
    /// variant's).
    pub title: Option<String>,
}

impl OpenGame {
    /// Opens a file, with its own seats and seed.
    #[must_use]
    pub fn file(path: impl Into<PathBuf>) -> Self {
        Self {
            source: GameSource::File(path.into()),
            replay: false,
            seats: None,
            seed: None,
            path: None,
            backup: None,
            title: None,
        }
    }

    /// Continues the last game of `G`: its autosave, else the autosave's backup (one
    /// action older) when the autosave is missing or cannot be read.
    #[must_use]
    pub fn autosave<G: Playable>(folder: &SaveFolder) -> Self {
        Self {
            backup: Some(folder.autosave_backup::<G>()),
            ..Self::file(folder.autosave::<G>())
        }
    }

    /// A setup made in the client, called `name` in titles.
    #[must_use]
    pub fn setup(setup: AnySetup, name: impl Into<String>) -> Self {
        Self {
            source: GameSource::Setup(Box::new(setup), name.into()),
            replay: false,
            seats: None,
            seed: None,
            path: None,
            backup: None,
            title: None,
        }
    }

    /// Names the file a setup made in the client came from.
    #[must_use]
    pub fn with_path(mut self, path: Option<PathBuf>) -> Self {
        self.path = path;
        self
    }
}

/// Why the last game could not be opened; the menu shows it.
#[derive(Resource, Default, Debug)]
pub struct OpenProblem(pub Option<String>);

/// The folder for autosaves, saves and tank designs: the platform's data folder for
/// Tanktable (`$XDG_DATA_HOME/tanktable`, else `~/.local/share/tanktable` on Linux), or
/// `$TANKTABLE_DATA` (tests).
#[derive(Resource, Clone, Debug)]
pub struct SaveFolder(pub PathBuf);

impl Default for SaveFolder {
    fn default() -> Self {
        Self(data_dir())
    }
}

/// The user's data folder; see [`SaveFolder`].
#[must_use]
pub fn data_dir() -> PathBuf {
    crate::data::data_dir()
}

impl SaveFolder {
    /// Where game `G` is autosaved.
    #[must_use]
    pub fn autosave<G: Playable>(&self) -> PathBuf {
        self.0
            .join(format!("autosave-{}.{}", G::NAME, G::RECORD_EXTENSION))
    }

    /// The autosave before the last: written over by nothing but the next autosave, so a
    /// damaged autosave still leaves the game one action back.
    #[must_use]
    pub fn autosave_backup<G: Playable>(&self) -> PathBuf {
        self.0.join(format!(
            "autosave-{}.backup.{}",
            G::NAME,
            G::RECORD_EXTENSION
        ))
    }

    /// Whether there is a last game of `G` to continue.
    #[must_use]
    pub fn can_continue<G: Playable>(&self) -> bool {
        self.autosave::<G>().is_file() || self.autosave_backup::<G>().is_file()
    }

    /// Where saved games live.
    #[must_use]
    pub fn saves(&self) -> PathBuf {
        self.0.join("saves")
    }

    /// The saved games of `G`, newest first.
    #[must_use]
    pub fn saves_of<G: Playable>(&self) -> Vec<PathBuf> {
        let prefix = format!("{}-", G::NAME);
        let mut out: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(self.saves())
            .map(|rd| {
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| {
                        (p.extension().is_some_and(|x| x == G::RECORD_EXTENSION)
                            || super::remote::is_seat_copy(p))
                            && p.file_name()
                                .is_some_and(|n| n.to_string_lossy().starts_with(&prefix))
                    })
                    .map(|p| {
                        let t = std::fs::metadata(&p)
                            .and_then(|m| m.modified())
                            .unwrap_or(std::time::UNIX_EPOCH);
                        (t, p)
                    })
                    .collect()
            })
            .unwrap_or_default();
        out.sort_by(|a, b| b.cmp(a));
        out.into_iter().map(|(_, p)| p).collect()
    }
}

/// A fresh seed from the clock; shown in the banner so a game can be reproduced.
#[must_use]
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() ^ u64::from(d.subsec_nanos()))
}

/// The legal actions of the seats that must act, and the offered buttons with the rules'
/// reason for each refused one: worked out once per change, never per frame.
#[derive(Resource)]
pub struct Legal<G: Playable> {
    /// The session revision these are for.
    pub revision: u64,
    pub generation: u64,
    pub by_player: Vec<(PlayerId, Vec<G::Action>)>,
    /// The buttons of the person deciding: each action with why it is refused, if it is.
    pub buttons: Vec<(G::Action, Option<Refused>)>,
}

/// Why an offered action is refused: the sentence, and the rule of the game's rules map
/// that refuses it, carried from the rules (never guessed from the sentence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub why: String,
    pub rule: Option<&'static str>,
}

impl<G: Playable> Default for Legal<G> {
    fn default() -> Self {
        Self {
            revision: u64::MAX,
            generation: 0,
            by_player: Vec::new(),
            buttons: Vec::new(),
        }
    }
}

impl<G: Playable> Legal<G> {
    /// `player`'s legal actions now.
    #[must_use]
    pub fn of(&self, player: PlayerId) -> &[G::Action] {
        self.by_player
            .iter()
            .find(|(p, _)| *p == player)
            .map_or(&[], |(_, a)| a.as_slice())
    }
}

/// The plugin shared by every game: opening games, the animation clock, skipping.
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Busy>()
        .init_resource::<SaveFolder>()
        .init_resource::<OpenProblem>()
        .add_message::<SkipAnimations>()
        .add_message::<OpenGame>()
        .add_message::<LogClicked>()
        .add_systems(
            Update,
            (open_games, skip_animations).in_set(ClientSystems::Session),
        )
        .add_systems(Last, flush_on_exit);
}

/// The plugin of game `G`: its orders and facts, and its scene.
pub(crate) fn game_plugin<G: GameClient>(app: &mut App) {
    app.add_message::<Order<G>>()
        .add_message::<FactsPlayed<G>>()
        .add_message::<OrderRefused<G>>()
        .init_resource::<Legal<G>>()
        .add_systems(OnExit(Screen::Playing), leave::<G>)
        .add_systems(
            Update,
            (
                announce_new::<G>,
                take_orders::<G>,
                play_queued::<G>,
                bots_play::<G>,
                hand_over::<G>,
                work_out_legal::<G>,
            )
                .chain()
                .in_set(ClientSystems::Session)
                .after(open_games)
                .run_if(resource_exists::<Session<G>>),
        );
}

/// Opens the games asked for: the file's game is told by [`detect`].
fn open_games(world: &mut World) {
    let opens: Vec<OpenGame> = world.resource_mut::<Messages<OpenGame>>().drain().collect();
    if !opens.is_empty() {
        // The file may be an autosave still being written.
        AutosaveWriter::get().flush();
    }
    for open in opens {
        let opened = match &open.source {
            GameSource::File(path) => match open_file(world, path, &open) {
                Err(why) if open.backup.as_ref().is_some_and(|b| b.is_file()) => {
                    let backup = open.backup.clone().unwrap_or_default();
                    open_backup(world, &backup, &open, &why)
                }
                opened => opened,
            },
            GameSource::Setup(setup, name) => match (**setup).clone() {
                AnySetup::TankCommander(s) => open_setup::<TankCommander>(world, s, name, &open),
                AnySetup::TankChess(s) => open_setup::<TankChess>(world, s, name, &open),
                AnySetup::BattleTanks(s) => open_setup::<BattleTanks>(world, s, name, &open),
                AnySetup::TankCombat(s) => open_setup::<TankCombat>(world, s, name, &open),
                AnySetup::RangeDuel(s) => open_setup::<RangeDuel>(world, s, name, &open),
            },
        };
        match opened {
            Ok(()) => world.resource_mut::<OpenProblem>().0 = None,
            Err(e) => {
                warn!("{e}");
                world.resource_mut::<OpenProblem>().0 = Some(e);
            }
        }
    }
}

/// Opens the autosave's backup in place of an autosave that failed with `why`, and tells
/// the players so.
fn open_backup(world: &mut World, backup: &Path, open: &OpenGame, why: &str) -> Result<(), String> {
    warn!("{why}; opening the backup {}", backup.display());
    open_file(world, backup, open).map_err(|e| format!("{why}\nThe backup failed too: {e}"))?;
    for game in GameKind::ALL {
        dispatch_game!(game, tell_backup(world, why));
    }
    Ok(())
}

/// Sets the notice of the session of `G`, if that is the game on the table.
fn tell_backup<G: GameClient>(world: &mut World, why: &str) {
    if let Some(mut session) = world.get_resource_mut::<Session<G>>() {
        session.notice = Some(format!(
            "The autosave could not be read, so the game goes on from its backup, one action earlier. ({why})"
        ));
    }
}

fn open_file(world: &mut World, path: &Path, open: &OpenGame) -> Result<(), String> {
    let text = playable::read_text(path).map_err(|d| d.to_string())?;
    let found = detect(path, &text).map_err(|e| e.to_string())?;
    if found.kind == FileKind::Campaign {
        // A campaign opens at its next battle, you against the bot unless told.
        world.write_message(crate::client::core::open::OpenCampaign {
            file: path.to_path_buf(),
            seats: open
                .seats
                .clone()
                .unwrap_or_else(|| vec![Seat::Person, Seat::Bot("tactical".into())]),
            start_over: false,
        });
        return Ok(());
    }
    if found.kind == FileKind::SeatCopy {
        return dispatch_game!(found.game, open_seat_copy(world, path, &text));
    }
    if !matches!(found.kind, FileKind::Setup | FileKind::Record) {
        return Err(format!(
            "{} is {}: open a scenario, a setup, a campaign, a match record or a seat's copy",
            path.display(),
            found.describe()
        ));
    }
    dispatch_game!(found.game, open_text(world, path, &text, found.kind, open))
}

fn open_text<G: GameClient>(
    world: &mut World,
    path: &Path,
    text: &str,
    kind: FileKind,
    open: &OpenGame,
) -> Result<(), String> {
    let rules = G::load_rules(None).map_err(|d| d.to_string())?;
    let source = crate::data::portable_path(path);
    let (seated, notice) = if kind == FileKind::Record {
        let record = G::read_record(path, text, &rules).map_err(|d| d.to_string())?;
        let notice = record.rules_notice();
        let seated = SeatedMatch::from_record(record, source, open.replay, open.seats.clone())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        (seated, notice)
    } else {
        let setup = G::parse_setup(path, text, &rules).map_err(|d| d.to_string())?;
        let seed = open
            .seed
            .or_else(|| G::setup_seed(&setup))
            .unwrap_or_else(clock_seed);
        let seats = open.seats.clone().unwrap_or_default();
        (
            SeatedMatch::new(setup, source, seed, seats).map_err(|e| e.to_string())?,
            None,
        )
    };
    let setup_path = (kind == FileKind::Setup).then(|| path.to_path_buf());
    let mut session = Session::new(seated, setup_path);
    session.notice = notice;
    insert_session(world, session);
    Ok(())
}

/// Opens a seat's own copy of a game played across machines, to step through from its
/// first state. The setup it names must be on this machine, as when joining.
fn open_seat_copy<G: GameClient>(world: &mut World, path: &Path, text: &str) -> Result<(), String> {
    let copy = SeatCopy::read::<G>(path, text).map_err(|d| d.to_string())?;
    let frames = copy.states::<G>(path).map_err(|d| d.to_string())?;
    let setup = super::remote::local_setup::<G>(&copy.setup)?;
    let players = frames.first().map_or(0, |(_, s)| s.player_count());
    let seats = (0..players)
        .map(|i| match copy.seat {
            Some(seat) if usize::from(seat) == i => Seat::Person,
            _ => Seat::Remote(
                copy.holders
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| "open".into()),
            ),
        })
        .collect();
    let log = copy
        .log
        .iter()
        .map(|l| (l.log_line(), l.rule.clone()))
        .collect();
    let source = crate::data::portable_path(path);
    let seated = SeatedMatch::seat_copy(frames, log, setup, source, seats, copy.player())
        .ok_or_else(|| format!("{}: the copy holds no state", path.display()))?;
    let mut session = Session::new(seated, None);
    session.notice = Some(format!(
        "Your seat's own copy, kept from a game hosted at {}: it holds only what your seat was shown",
        copy.host
    ));
    insert_session(world, session);
    Ok(())
}

fn open_setup<G: GameClient>(
    world: &mut World,
    setup: G::Setup,
    name: &str,
    open: &OpenGame,
) -> Result<(), String> {
    let seed = open
        .seed
        .or_else(|| G::setup_seed(&setup))
        .unwrap_or_else(clock_seed);
    let seated = SeatedMatch::<G>::new(
        setup,
        name.to_string(),
        seed,
        open.seats.clone().unwrap_or_default(),
    )
    .map_err(|e| e.to_string())?;
    let mut session = Session::new(seated, open.path.clone());
    session.title.clone_from(&open.title);
    insert_session(world, session);
    Ok(())
}

/// Puts `session` on the table in place of any other game, and shows it.
pub fn insert_session<G: GameClient>(world: &mut World, session: Session<G>) {
    for game in GameKind::ALL {
        dispatch_game!(game, remove_session(world));
    }
    world.insert_resource(session);
    // Setting the state it is already in would run its exit and enter schedules, which
    // would take the new session away again.
    NextState::set_if_neq(
        &mut world.resource_mut::<NextState<Screen>>(),
        Screen::Playing,
    );
    NextState::set_if_neq(
        &mut world.resource_mut::<NextState<GameScreen>>(),
        G::SCREEN,
    );
}

fn remove_session<G: GameClient>(world: &mut World) {
    world.remove_resource::<Session<G>>();
}

/// Space, or the Skip button: the animations end at once.
fn skip_animations(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    mut skips: ParamSet<(MessageReader<SkipAnimations>, MessageWriter<SkipAnimations>)>,
    mut busy: ResMut<Busy>,
    time: Res<Time>,
) {
    let asked = skips.p0().read().count() > 0;
    let space = keys.is_some_and(|k| k.just_pressed(KeyCode::Space));
    if busy.busy(time.elapsed_secs()) && (asked || space) {
        busy.clear(time.elapsed_secs());
        if space {
            skips.p1().write(SkipAnimations);
        }
    }
}

/// A new game on the table: the scene draws it from scratch, as it was before its
/// opening where that waits for a person ([`GameClient::held_opening`]).
fn announce_new<G: GameClient>(
    mut session: ResMut<Session<G>>,
    mut played: MessageWriter<FactsPlayed<G>>,
    mut busy: ResMut<Busy>,
    time: Res<Time>,
    mut last: Local<u64>,
) {
    if *last != session.generation {
        *last = session.generation;
        busy.clear(time.elapsed_secs());
        let waits = session.interactive
            && session.link.is_none()
            && session.replay.is_none()
            && session.game.history().is_empty()
            && session.people() > 0;
        session.held = if waits {
            session.state().held_opening(session.game.opening_facts())
        } else {
            None
        };
        if session.held.is_some() {
            session.changed();
        }
        played.write(FactsPlayed {
            facts: session.game.opening_facts().to_vec(),
            step: None,
            jumped: true,
        });
    }
}

/// What playing an order touches besides the session: the facts told to the scene, the
/// refusals told to whoever gave the order, the animations' clock and the saves folder.
#[derive(SystemParam)]
pub struct Tell<'w, G: GameClient> {
    played: MessageWriter<'w, FactsPlayed<G>>,
    refused: MessageWriter<'w, OrderRefused<G>>,
    busy: ResMut<'w, Busy>,
    folder: Res<'w, SaveFolder>,
    time: Res<'w, Time>,
}

impl<G: GameClient> Tell<'_, G> {
    fn now(&self) -> f32 {
        self.time.elapsed_secs()
    }

    /// `facts` are played: the scene animates them and the session waits the seconds
    /// they take.
    fn facts(&mut self, session: &Session<G>, facts: Vec<G::Fact>, step: Option<usize>) {
        let seconds: f32 = facts.iter().map(|f| session.state().fact_seconds(f)).sum();
        let now = self.now();
        self.busy.queue(now, seconds);
        self.played.write(FactsPlayed {
            facts,
            step,
            jumped: false,
        });
    }

    /// The match jumped (an undo, a step of a replay): the scene redraws it at once.
    fn jumped(&mut self, session: &mut Session<G>) {
        session.queued.clear();
        let now = self.now();
        self.busy.clear(now);
        session.changed();
        self.played.write(FactsPlayed {
            facts: Vec::new(),
            step: None,
            jumped: true,
        });
    }
}

/// The opening held for a person is played out: its facts animate as an action's would.
fn begin_held<G: GameClient>(session: &mut Session<G>, tell: &mut Tell<G>) {
    let Some(held) = session.held.take() else {
        return;
    };
    let facts =
        session.game.opening_facts()[held.told.min(session.game.opening_facts().len())..].to_vec();
    tell.facts(session, facts, None);
    session.changed();
}

/// Plays `action` for `player`: facts out, animation queued, autosaved. `false` when
/// refused: the notice says why, and [`OrderRefused`] tells it with its rule.
fn play_one<G: GameClient>(
    session: &mut Session<G>,
    player: PlayerId,
    action: &G::Action,
    tell: &mut Tell<G>,
) -> bool {
    match session.seated.play(player, action) {
        Ok(facts) => {
            session.notice = None;
            let step = session.game.history().len().checked_sub(1);
            tell.facts(session, facts, step);
            session.changed();
            autosave(session, &tell.folder);
            true
        }
        Err(error) => {
            session.notice = Some(error.to_string());
            session.changed();
            tell.refused.write(OrderRefused {
                player,
                action: action.clone(),
                error,
            });
            false
        }
    }
}

/// Writes the autosave of a game in play; a failure is told to the players, and the game
/// goes on. The record is written on the autosave thread, so that the disk (two
/// `fsync`s) never holds up a frame; a failure shows at the next autosave.
fn autosave<G: GameClient>(session: &mut Session<G>, folder: &SaveFolder) {
    if !session.interactive || session.replay.is_some() || session.link.is_some() {
        return;
    }
    let (path, backup) = (folder.autosave::<G>(), folder.autosave_backup::<G>());
    let writer = AutosaveWriter::get();
    if let Some(failure) = writer.failure(&path) {
        session.notice = Some(failure);
    }
    match G::write_record(&session.recorded()) {
        Ok(text) => writer.write(path, backup, text),
        Err(e) => session.notice = Some(format!("Autosave failed: {e}")),
    }
}

/// The thread that writes autosaves, in the order asked, off the frame.
pub struct AutosaveWriter {
    /// `None` when no thread could be started: autosaves are then written on the spot.
    jobs: Option<mpsc::Sender<AutosaveJob>>,
    pending: Arc<AtomicUsize>,
    failures: Arc<Mutex<std::collections::HashMap<PathBuf, String>>>,
}

struct AutosaveJob {
    path: PathBuf,
    backup: PathBuf,
    text: String,
}

impl AutosaveJob {
    /// The last autosave becomes the backup; the new one is written atomically beside
    /// it, even when the backup could not be kept. A failure is kept for the next
    /// autosave to tell.
    fn run(self, failures: &Mutex<std::collections::HashMap<PathBuf, String>>) {
        let mut problems = Vec::new();
        if self.path.is_file()
            && let Err(e) = std::fs::rename(&self.path, &self.backup)
        {
            problems.push(format!(
                "Autosave: cannot keep a backup at {}: {e}",
                self.backup.display()
            ));
        }
        if let Err(e) = crate::data::write_atomic(&self.path, &self.text) {
            problems.push(format!(
                "Autosave failed: cannot write {}: {e}",
                self.path.display()
            ));
        }
        if !problems.is_empty() {
            failures
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(self.path, problems.join(" "));
        }
    }
}

impl AutosaveWriter {
    /// The process's one writer (started on first use).
    pub fn get() -> &'static Self {
        static WRITER: std::sync::OnceLock<AutosaveWriter> = std::sync::OnceLock::new();
        WRITER.get_or_init(Self::start)
    }

    fn start() -> Self {
        let (send, receive) = mpsc::channel::<AutosaveJob>();
        let pending = Arc::new(AtomicUsize::new(0));
        let failures = Arc::new(Mutex::new(std::collections::HashMap::new()));
        let (left, failed) = (pending.clone(), failures.clone());
        let started = std::thread::Builder::new()
            .name("autosave".into())
            .spawn(move || {
                for job in receive {
                    job.run(&failed);
                    left.fetch_sub(1, Ordering::AcqRel);
                }
            });
        Self {
            jobs: started.ok().map(|_| send),
            pending,
            failures,
        }
    }

    fn write(&self, path: PathBuf, backup: PathBuf, text: String) {
        let job = AutosaveJob { path, backup, text };
        self.pending.fetch_add(1, Ordering::AcqRel);
        let unsent = match &self.jobs {
            Some(send) => send.send(job).err().map(|e| e.0),
            None => Some(job),
        };
        if let Some(job) = unsent {
            job.run(&self.failures);
            self.pending.fetch_sub(1, Ordering::AcqRel);
        }
    }

    /// Why the last autosave to `path` failed, once.
    fn failure(&self, path: &Path) -> Option<String> {
        self.failures
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(path)
    }

    /// Waits until every autosave asked for is on disk (at most ten seconds): before an
    /// autosave is read, and before the program ends.
    pub fn flush(&self) {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while self.pending.load(Ordering::Acquire) > 0 && std::time::Instant::now() < until {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}

/// The autosaves are on disk before the program ends.
fn flush_on_exit(mut exits: MessageReader<AppExit>) {
    if exits.read().count() > 0 {
        AutosaveWriter::get().flush();
    }
}

pub(crate) fn take_orders<G: GameClient>(
    mut orders: MessageReader<Order<G>>,
    mut session: ResMut<Session<G>>,
    mut tell: Tell<G>,
) {
    if orders.is_empty() {
        // The session changes (and the panels follow) only when an order came.
        return;
    }
    let session = &mut *session;
    if session.link.is_some() {
        for order in orders.read() {
            super::remote::send_order(session, order, &tell.folder);
        }
        return;
    }
    for order in orders.read() {
        match order {
            Order::Play(..) | Order::PlaySequence(..) if session.held.is_some() => {
                session.notice = session.held.as_ref().map(|h| h.why.clone());
                session.changed();
            }
            Order::Play(player, action) => {
                session.queued.clear();
                play_one(session, *player, action, &mut tell);
            }
            Order::PlaySequence(player, actions) => {
                session.queued = actions.iter().map(|a| (*player, a.clone())).collect();
            }
            Order::Undo | Order::GoBack(_) | Order::Branch(_) | Order::Seek(_) => {
                travel(session, order, &mut tell);
            }
            Order::Begin => begin_held(session, &mut tell),
            _ => manage(session, order, &mut tell),
        }
    }
}

/// An order that moves the match through its history: undo, back to an action, a branch
/// from one (the game as it was kept in a file), a step of a replay.
fn travel<G: GameClient>(session: &mut Session<G>, order: &Order<G>, tell: &mut Tell<G>) {
    let done = match order {
        Order::Undo => session
            .seated
            .undo()
            .map(|()| "Taken back.".to_string())
            .map_err(|e| e.to_string()),
        Order::GoBack(len) => session
            .seated
            .go_back(*len)
            .map(|()| format!("Back to action {len}."))
            .map_err(|e| e.to_string()),
        Order::Branch(len) => branch(session, *len, &tell.folder),
        Order::Seek(len) => {
            if let Err(e) = session.seated.seek(*len) {
                session.notice = Some(e.to_string());
            }
            tell.jumped(session);
            return;
        }
        _ => return,
    };
    match done {
        Ok(notice) => {
            session.notice = Some(notice);
            tell.jumped(session);
            autosave(session, &tell.folder);
        }
        Err(e) => session.notice = Some(e),
    }
}

/// Keeps the game as it is in a new file, then goes back to action `len` to play on from
/// there. Returns the notice, or why it could not.
fn branch<G: GameClient>(
    session: &mut Session<G>,
    len: usize,
    folder: &SaveFolder,
) -> Result<String, String> {
    let original = save_path::<G>(session, folder);
    let kept = session.save_to(&original);
    kept.and_then(|()| session.seated.go_back(len).map_err(|e| e.to_string()))
        .map(|()| {
            format!(
                "A branch from action {len}: the game as it was is kept in {}.",
                original.display()
            )
        })
        .map_err(|e| format!("Cannot branch: {e}"))
}

/// The orders about the table rather than the match's play: take over a replay, save,
/// rematch, seats, reveal, playtest.
fn manage<G: GameClient>(session: &mut Session<G>, order: &Order<G>, tell: &mut Tell<G>) {
    match order {
        Order::TakeOver => match session.seated.take_over() {
            Ok(()) => {
                session.notice = Some("Playing on from here; the record is unchanged.".into());
                session.changed();
                autosave(session, &tell.folder);
            }
            Err(e) => session.notice = Some(e.to_string()),
        },
        Order::Save(_) if session.seated.is_seat_copy() => {
            session.notice = Some(format!(
                "This is already a seat's own copy, kept in {}",
                session.seated.source
            ));
        }
        Order::Save(path) => {
            let path = path
                .clone()
                .unwrap_or_else(|| save_path::<G>(session, &tell.folder));
            session.notice = Some(match session.save_to(&path) {
                Ok(()) => format!("Saved to {}", path.display()),
                Err(e) => format!("Cannot save: {e}"),
            });
            session.changed();
        }
        Order::Rematch if session.seated.is_seat_copy() => {
            session.notice =
                Some("A seat's copy is stepped through; start a new game from the menu".into());
        }
        Order::Rematch => match session.seated.rematch(clock_seed()) {
            Ok(fresh) => {
                let path = session.path.clone();
                let (interactive, title) = (session.interactive, session.title.take());
                *session = Session::new(fresh, path);
                session.interactive = interactive;
                session.title = title;
                let now = tell.now();
                tell.busy.clear(now);
            }
            Err(e) => session.notice = Some(e.to_string()),
        },
        Order::Sit(player, seat) => {
            if let Err(e) = session.seated.set_seat(*player, seat.clone()) {
                session.notice = Some(e.to_string());
            }
            session.bot = None;
            session.changed();
        }
        Order::Reveal => {
            session.seated.reveal();
            session.changed();
        }
        Order::Playtest(on) => {
            session.seated.playtest = *on;
            session.changed();
        }
        _ => {}
    }
}

/// `text` as part of a file name: letters and digits in lower case, anything else `-`.
#[must_use]
pub fn slug(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// A new file in the saves folder: the game, the setup's name and the time.
pub(crate) fn save_path<G: GameClient>(session: &Session<G>, folder: &SaveFolder) -> PathBuf {
    let (title, _) = G::setup_title(&session.setup);
    let slug = slug(&title);
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    folder.saves().join(format!(
        "{}-{}-{stamp}.{}",
        G::NAME,
        slug.trim_matches('-'),
        G::RECORD_EXTENSION
    ))
}

/// Plays the next queued action once the last one's animation is over.
fn play_queued<G: GameClient>(mut session: ResMut<Session<G>>, mut tell: Tell<G>) {
    if tell.busy.busy(tell.now()) || session.queued.is_empty() {
        return;
    }
    let Some((player, action)) = session.queued.pop_front() else {
        return;
    };
    if !play_one(&mut session, player, &action, &mut tell) {
        session.queued.clear();
    }
}

/// Seconds between a bot's moves, so that a person can follow them.
const BOT_PAUSE: f32 = 0.35;

/// Bots answer, one action at a time, once the animations have played. A bot thinks off
/// the main thread on a copy of the state; an answer to a state that has changed since
/// (an undo, a seat handed to a person) is dropped.
fn bots_play<G: GameClient>(
    mut session: ResMut<Session<G>>,
    mut tell: Tell<G>,
    mut waited: Local<f32>,
) {
    let now = tell.now();
    if session.bot.is_none() {
        // Nothing to change in the session until a bot is asked: waiting leaves it as it
        // is (and the panels with it).
        if tell.busy.busy(now)
            || session.pass_to.is_some()
            || session.held.is_some()
            || !session.queued.is_empty()
            || session.bot_to_act().is_none()
        {
            *waited = 0.0;
            return;
        }
        *waited += tell.time.delta_secs();
        if *waited < BOT_PAUSE {
            return;
        }
    }
    let session = &mut *session;
    if session.bot.is_some() {
        play_bot_answer(session, &mut tell);
        return;
    }
    let Some((player, name)) = session.bot_to_act() else {
        return;
    };
    *waited = 0.0;
    let Some(mut bot) = G::bot(name) else {
        return;
    };
    let state = session.state().clone();
    let mut rng = session.seated.bot_rng_mut().clone();
    let task = AsyncComputeTaskPool::get().spawn(async move {
        let choice = bot.choose(&state, player, &mut rng);
        (choice, rng)
    });
    session.bot = Some(BotThinking {
        revision: session.revision,
        task,
    });
}

/// Plays the thinking bot's answer once it has one, unless the state changed meanwhile.
fn play_bot_answer<G: GameClient>(session: &mut Session<G>, tell: &mut Tell<G>) {
    let Some(thinking) = &mut session.bot else {
        return;
    };
    let Some((choice, rng)) = block_on(poll_once(&mut thinking.task)) else {
        return;
    };
    let revision = thinking.revision;
    session.bot = None;
    if revision != session.revision {
        return;
    }
    *session.seated.bot_rng_mut() = rng;
    let Some((player, _)) = session.bot_to_act() else {
        return;
    };
    match choice {
        Some(action) => {
            play_one(session, player, &action, tell);
        }
        None => {
            session.notice = Some(format!(
                "The bot in {}'s seat has no action",
                session.state().player_name(player)
            ));
        }
    }
}

/// Once the animations have played: whose eyes the screen is for next.
fn hand_over<G: GameClient>(mut session: ResMut<Session<G>>, busy: Res<Busy>, time: Res<Time>) {
    if busy.busy(time.elapsed_secs()) || session.pass_to.is_some() {
        return;
    }
    if session.bypass_change_detection().seated.hand_over() {
        session.changed();
    }
}

/// Works out the legal actions and the buttons' refusals after every change.
fn work_out_legal<G: GameClient>(session: Res<Session<G>>, mut legal: ResMut<Legal<G>>) {
    if legal.revision == session.revision && legal.generation == session.generation {
        return;
    }
    let state = session.state();
    legal.by_player = state
        .to_act()
        .into_iter()
        .map(|p| (p, state.legal_actions(p)))
        .collect();
    legal.buttons = match session.deciding() {
        Some(player) => {
            let allowed = legal.of(player).to_vec();
            let offered = if G::OWN_CONTROLS {
                Vec::new()
            } else {
                state.offered(player)
            };
            offered
                .into_iter()
                .map(|a| {
                    let why = if allowed.contains(&a) {
                        None
                    } else {
                        Some(session.refusal(player, &a).map_or_else(
                            || Refused {
                                why: "not allowed now".into(),
                                rule: None,
                            },
                            |e| Refused {
                                why: e.to_string(),
                                rule: e.rule(),
                            },
                        ))
                    };
                    (a, why)
                })
                .collect()
        }
        None => Vec::new(),
    };
    legal.revision = session.revision;
    legal.generation = session.generation;
}

fn leave<G: GameClient>(
    mut commands: Commands,
    session: Option<ResMut<Session<G>>>,
    folder: Res<SaveFolder>,
) {
    // The menu that comes next offers to continue from the autosave, and the lab goes
    // back to the table through it: it holds the game as it is left, played or not.
    if let Some(mut session) = session {
        autosave(&mut session, &folder);
    }
    AutosaveWriter::get().flush();
    commands.remove_resource::<Session<G>>();
    commands.insert_resource(Legal::<G>::default());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn autosaves_are_written_in_order_off_the_frame_and_the_last_becomes_the_backup() {
        let dir = std::env::temp_dir().join(format!("tanktable-autosave-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (path, backup) = (dir.join("autosave.ron"), dir.join("autosave.backup.ron"));
        let writer = AutosaveWriter::get();
        for n in 1..=5 {
            writer.write(path.clone(), backup.clone(), format!("save {n}"));
        }
        writer.flush();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "save 5");
        assert_eq!(std::fs::read_to_string(&backup).unwrap(), "save 4");
        assert_eq!(writer.failure(&path), None);
        // A write that fails is told once, at the next autosave.
        let blocked = dir.join("a folder");
        std::fs::create_dir_all(&blocked).unwrap();
        writer.write(blocked.clone(), dir.join("b"), "x".into());
        writer.flush();
        let failure = writer.failure(&blocked).unwrap_or_default();
        assert!(failure.starts_with("Autosave"), "{failure}");
        assert_eq!(writer.failure(&blocked), None);
        // A backup that cannot be kept still leaves the new autosave written.
        let stuck = dir.join("stuck backup");
        std::fs::create_dir_all(stuck.join("inside")).unwrap();
        writer.write(path.clone(), stuck, "save 6".into());
        writer.flush();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "save 6");
        let failure = writer.failure(&path).unwrap_or_default();
        assert!(failure.contains("cannot keep a backup"), "{failure}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
