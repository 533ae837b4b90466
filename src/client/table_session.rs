//! A setup-file game in the client (Battle Tanks, Tank Combat, the Range Duel), written
//! once, generic over [`Tabletop`].
//!
//! [`TableMatch`] holds the match, who sits in each seat (a person or a bot), and whose
//! eyes the screen is for. Input writes [`TableOrder`] messages; this plugin plays them
//! through the rules and writes [`FactsPlayed`], which the game's scene animates and the
//! panels log. Bots answer only once the animations have played ([`TableBusy`]). In hot
//! seat with secrets (hands, secret orders) a privacy screen goes up whenever the screen
//! passes from one person to another, so each sees only what their seat may see.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use super::Screen;
use super::session::{SaveFolder, clock_seed};
use crate::framework::hash::format_hash;
use crate::framework::tabletop::{self, TabletopRecord};
use crate::framework::{Match, MatchRng, PlayerId, RecordedAction, Tabletop};
use crate::rules::TableGame;

/// What the client needs of a setup-file game beyond [`Tabletop`]; every method has a
/// sensible default.
pub trait TableClient: Tabletop {
    /// A setup's name and one-line description, for the menu.
    fn setup_title(setup: &Self::Setup) -> (String, String);

    /// Actions to offer `player` as buttons: the legal ones, and any others a player might
    /// look for, which are shown disabled with the rules' reason.
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

    /// What the game shows above the orders: a hand of cards, say. `viewer` is the seat at
    /// the screen; `None` may see everything.
    fn seat_panel(&self, _ui: &mut bevy_egui::egui::Ui, _viewer: Option<PlayerId>) {}

    /// Seconds the scene needs to show `fact`; bots and the privacy screen wait for it.
    fn fact_seconds(&self, _fact: &Self::Fact) -> f32 {
        0.0
    }
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    /// A bot, by its name in [`Tabletop::bot_names`].
    Bot(String),
}

impl Seat {
    /// A person's seat.
    #[must_use]
    pub fn is_human(&self) -> bool {
        matches!(self, Seat::Human)
    }
}

/// A setup-file game on the table.
#[derive(Resource)]
pub struct TableMatch<G: TableClient> {
    pub game: Match<G>,
    pub setup: G::Setup,
    /// The setup file, for titles and rematches.
    pub source: String,
    pub seed: u64,
    pub seats: Vec<Seat>,
    /// A record being stepped through: its actions (the match holds those shown so far).
    pub replay: Option<Vec<RecordedAction<G::Action>>>,
    /// The seat whose eyes the screen is for; `None` shows everything (replays, bots only).
    pub viewer: Option<PlayerId>,
    /// The privacy screen is up: the screen waits for this seat's player.
    pub pass_to: Option<PlayerId>,
    /// The last refusal or save.
    pub notice: Option<String>,
    /// Bumped on every change.
    pub revision: u64,
    bot_rng: MatchRng,
}

impl<G: TableClient> TableMatch<G> {
    /// A new match on `setup`, with `seats` (missing seats are people).
    ///
    /// # Errors
    /// A sentence when the setup cannot start a match, or a bot name is unknown.
    pub fn new(
        setup: G::Setup,
        source: String,
        seed: u64,
        seats: Vec<Seat>,
    ) -> Result<Self, String> {
        let game = tabletop::start::<G>(&setup, seed, &[])?;
        Self::around(game, setup, source, seed, seats, None)
    }

    fn around(
        game: Match<G>,
        setup: G::Setup,
        source: String,
        seed: u64,
        mut seats: Vec<Seat>,
        replay: Option<Vec<RecordedAction<G::Action>>>,
    ) -> Result<Self, String> {
        let n = game.state().player_count();
        seats.resize(n, Seat::Human);
        seats.truncate(n);
        if let Some(Seat::Bot(name)) = seats
            .iter()
            .find(|s| matches!(s, Seat::Bot(name) if G::bot(name).is_none()))
        {
            return Err(format!("{} has no bot called `{name}`", G::TITLE));
        }
        let mut table = Self {
            game,
            setup,
            source,
            seed,
            seats,
            replay,
            viewer: None,
            pass_to: None,
            notice: None,
            revision: 0,
            bot_rng: MatchRng::new(seed ^ 0x5EA7),
        };
        table.viewer = table.settled_viewer();
        // People sharing a screen with secrets start behind the privacy screen too, so
        // that nobody sees the first player's hand by accident.
        if G::SECRETS && table.humans() > 1 {
            table.pass_to = table.viewer;
        }
        Ok(table)
    }

    /// Opens a match record: to play on from its end, or as a replay from its start.
    ///
    /// # Errors
    /// The file's problems, or the first action that does not play.
    pub fn open_record(path: &Path, as_replay: bool) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        let record: TabletopRecord<G> =
            tabletop::parse_record::<G>(path, &text).map_err(|d| d.to_string())?;
        let source = path.display().to_string();
        if as_replay {
            let game = tabletop::start::<G>(&record.scenario, record.seed, &record.dice)?;
            return Self::around(
                game,
                record.scenario.clone(),
                source,
                record.seed,
                Vec::new(),
                Some(record.actions),
            );
        }
        let game = tabletop::replay(&record).map_err(|e| format!("{source}: {e}"))?;
        Self::around(
            game,
            record.scenario.clone(),
            source,
            record.seed,
            Vec::new(),
            None,
        )
    }

    /// The current state.
    #[must_use]
    pub fn state(&self) -> &G {
        self.game.state()
    }

    /// People at the table.
    #[must_use]
    pub fn humans(&self) -> usize {
        self.seats.iter().filter(|s| s.is_human()).count()
    }

    /// The person who must decide now, if any (the first of several asked at once).
    #[must_use]
    pub fn deciding(&self) -> Option<PlayerId> {
        if self.replay.is_some() {
            return None;
        }
        self.state()
            .to_act()
            .into_iter()
            .find(|p| self.seats.get(p.index()).is_some_and(Seat::is_human))
    }

    /// The seat the screen should show once nothing is pending: the person deciding, else
    /// the only person, else the last one shown; everything when no one plays.
    fn settled_viewer(&self) -> Option<PlayerId> {
        if self.replay.is_some() || self.humans() == 0 {
            return None;
        }
        if let Some(p) = self.deciding() {
            return Some(p);
        }
        if self.humans() == 1 {
            return self
                .seats
                .iter()
                .position(Seat::is_human)
                .and_then(|i| u8::try_from(i).ok())
                .map(PlayerId);
        }
        if self.state().outcome().is_some() {
            return None;
        }
        // Several people and nobody deciding (the bots play): keep the last person's eyes,
        // or the first person's before anyone has looked. Never everything: that would
        // show every hand.
        self.viewer.or_else(|| {
            self.seats
                .iter()
                .position(Seat::is_human)
                .and_then(|i| u8::try_from(i).ok())
                .map(PlayerId)
        })
    }

    /// After a change: whose screen comes next, behind the privacy screen when secrets
    /// would pass from one person to another.
    fn hand_over(&mut self) {
        let next = self.settled_viewer();
        if next == self.viewer {
            return;
        }
        if G::SECRETS && self.humans() > 1 && next.is_some() {
            self.pass_to = next;
        } else {
            self.viewer = next;
        }
    }

    /// The person at the screen is ready: drop the privacy screen.
    pub fn reveal(&mut self) {
        if let Some(p) = self.pass_to.take() {
            self.viewer = Some(p);
            self.revision += 1;
        }
    }

    /// Plays `action` for `player`.
    ///
    /// # Errors
    /// Why the rules refuse it.
    pub fn play(&mut self, player: PlayerId, action: &G::Action) -> Result<Vec<G::Fact>, String> {
        let facts = self
            .game
            .play(player, action)
            .map_err(|e| e.to_string())?
            .to_vec();
        self.revision += 1;
        Ok(facts)
    }

    /// Lets the heuristic bot play `n` actions for whoever must act (scripted runs).
    ///
    /// # Errors
    /// A bot without an action, or an illegal one.
    pub fn autoplay(&mut self, n: u32) -> Result<(), String> {
        let Some(mut bot) = G::bot(G::bot_names()[0]) else {
            return Ok(());
        };
        for _ in 0..n {
            if self.state().outcome().is_some() {
                break;
            }
            let Some(&player) = self.state().to_act().first() else {
                break;
            };
            let action = bot
                .choose(self.game.state(), player, &mut self.bot_rng)
                .ok_or("the bot has no action")?;
            self.play(player, &action)?;
        }
        self.viewer = self.settled_viewer();
        if G::SECRETS && self.humans() > 1 {
            self.pass_to = self.viewer;
        }
        Ok(())
    }

    /// Why `action` would be refused for `player` now, if it would.
    #[must_use]
    pub fn refusal(&self, player: PlayerId, action: &G::Action) -> Option<String> {
        let mut probe = self.game.clone();
        probe.play(player, action).err().map(|e| e.to_string())
    }

    /// Whether the person at the screen may take back the last person's action; why not,
    /// if not. With secrets in hot seat, only your own action: taking back another's
    /// would let you see their choice and have them choose again.
    ///
    /// # Errors
    /// Why not.
    pub fn can_undo(&self) -> Result<(), String> {
        if self.replay.is_some() {
            return Err("This is a replay".into());
        }
        let last = self
            .game
            .history()
            .iter()
            .rev()
            .find(|s| self.seats.get(s.player.index()).is_some_and(Seat::is_human))
            .ok_or("No action of a person to take back")?;
        if G::SECRETS && self.humans() > 1 && Some(last.player) != self.viewer {
            return Err(format!(
                "Only {} may take back their own action",
                self.state().player_name(last.player)
            ));
        }
        Ok(())
    }

    /// Takes back the last person's action and the bots' answers after it.
    pub fn undo(&mut self) {
        if self.can_undo().is_err() {
            return;
        }
        let history = self.game.history();
        let last_human = history
            .iter()
            .rposition(|s| self.seats.get(s.player.index()).is_some_and(Seat::is_human));
        if let Some(i) = last_human {
            self.game.undo_to(i);
            self.revision += 1;
            self.pass_to = None;
            self.hand_over();
        }
    }

    /// Replay: shows the match after `len` actions.
    pub fn seek(&mut self, len: usize) {
        let Some(actions) = self.replay.clone() else {
            return;
        };
        let len = len.min(actions.len());
        self.game.undo_to(len);
        while self.game.history().len() < len {
            let step = &actions[self.game.history().len()];
            if self.game.play(step.player, &step.action).is_err() {
                break;
            }
        }
        self.revision += 1;
    }

    /// The match as a record that replays exactly.
    #[must_use]
    pub fn record(&self) -> TabletopRecord<G> {
        tabletop::record_of(&self.setup, self.seed, &[], &self.game)
    }

    /// Writes the record to `path` atomically.
    ///
    /// # Errors
    /// The file system's complaint.
    pub fn save_to(&self, path: &Path) -> Result<(), String> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        let text = crate::data::to_ron_pretty(&self.record())?;
        crate::data::write_atomic(path, &text).map_err(|e| e.to_string())
    }

    /// A new match on the same setup and seats, with a new seed.
    ///
    /// # Errors
    /// As [`TableMatch::new`].
    pub fn rematch(&self) -> Result<Self, String> {
        Self::new(
            self.setup.clone(),
            self.source.clone(),
            clock_seed(),
            self.seats.clone(),
        )
    }

    /// Puts a person or a bot in `player`'s seat.
    ///
    /// # Errors
    /// An unknown bot name.
    pub fn set_seat(&mut self, player: PlayerId, seat: Seat) -> Result<(), String> {
        if let Seat::Bot(name) = &seat
            && G::bot(name).is_none()
        {
            return Err(format!("{} has no bot called `{name}`", G::TITLE));
        }
        if let Some(s) = self.seats.get_mut(player.index()) {
            *s = seat;
        }
        self.pass_to = None;
        self.hand_over();
        self.revision += 1;
        Ok(())
    }

    /// The combat log as `viewer` may read it, with the action number each line follows
    /// (`None` for the opening).
    #[must_use]
    pub fn log(&self) -> Vec<(Option<usize>, String)> {
        let state = self.state();
        let mut out: Vec<(Option<usize>, String)> = self
            .game
            .opening_facts()
            .iter()
            .filter_map(|f| state.describe_fact_for(f, self.viewer).map(|t| (None, t)))
            .collect();
        for (i, step) in self.game.history().iter().enumerate() {
            let who = state.player_name(step.player);
            let said = if !G::SECRETS || self.viewer.is_none() || self.viewer == Some(step.player) {
                format!("{who}: {}", state.describe_action(&step.action))
            } else {
                format!("{who} acts")
            };
            out.push((Some(i), said));
            out.extend(
                step.facts
                    .iter()
                    .filter_map(|f| state.describe_fact_for(f, self.viewer))
                    .map(|t| (Some(i), format!("    {t}"))),
            );
        }
        out
    }

    /// The final state hash, for the victory screen and bug reports.
    #[must_use]
    pub fn hash_text(&self) -> String {
        format_hash(self.game.state_hash())
    }
}

/// An order from the panels or the scene.
#[derive(Message, Clone, Debug)]
pub enum TableOrder<G: TableClient> {
    Play(PlayerId, G::Action),
    /// Take back the last person's action.
    Undo,
    /// Replay: show the match after this many actions.
    Seek(usize),
    /// Save the match to the saves folder.
    Save,
    /// Drop the privacy screen.
    Reveal,
    /// Start again on the same setup.
    Rematch,
    /// Change who sits in a seat.
    Sit(PlayerId, Seat),
}

/// What the rules said after an order: the scene animates these, the panels log them.
#[derive(Message, Clone, Debug)]
pub struct FactsPlayed<G: TableClient> {
    pub facts: Vec<G::Fact>,
    /// The match jumped (undo, a replay step, a new match): redraw from the state.
    pub jumped: bool,
}

/// The time until the scene's animations have played; bots and the privacy screen wait.
#[derive(Resource, Default, Debug)]
pub struct TableBusy {
    pub until: f32,
}

impl TableBusy {
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
}

/// Skip the animations that are playing (Space or the Skip button).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct SkipAnimations;

/// Opens a setup file or match record of any setup-file game (the menu writes it).
#[derive(Message, Clone, Debug)]
pub struct OpenTable {
    pub path: PathBuf,
    /// For a record: step through it from the start instead of playing on.
    pub replay: bool,
    /// For a setup: who sits where (missing seats are people).
    pub seats: Vec<Seat>,
}

/// The game on the table now, whichever it is.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct OnTable(pub TableGame);

/// The plugin shared by every setup-file game.
pub(super) fn common_plugin(app: &mut App) {
    app.init_resource::<TableBusy>()
        .add_message::<SkipAnimations>()
        .add_message::<OpenTable>()
        .add_systems(Update, (open_tables, skip_animations));
}

/// The plugin of one game.
pub(super) fn plugin<G: TableClient>(app: &mut App) {
    app.add_message::<TableOrder<G>>()
        .add_message::<FactsPlayed<G>>()
        .add_systems(OnExit(Screen::Table), leave::<G>)
        .add_systems(
            Update,
            (announce_new::<G>, take_orders::<G>, bots_play::<G>)
                .chain()
                .run_if(resource_exists::<TableMatch<G>>),
        );
}

/// Opens a file of game `G` as a table, ready to insert. A setup starts a new match with
/// `seats`, on `seed` (else the clock); a record plays on, or is replayed.
///
/// # Errors
/// Every problem in the file.
pub fn open_file<G: TableClient>(
    path: &Path,
    replay: bool,
    seats: Vec<Seat>,
    seed: Option<u64>,
) -> Result<TableMatch<G>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    if crate::rules::strip_comments(&text).starts_with(G::SETUP_TAG) {
        let setup = G::parse_setup(path, &text).map_err(|d| d.to_string())?;
        let seed = seed.unwrap_or_else(clock_seed);
        return TableMatch::new(setup, path.display().to_string(), seed, seats);
    }
    TableMatch::<G>::open_record(path, replay)
}

fn open_one<G: TableClient>(
    commands: &mut Commands,
    open: &OpenTable,
    which: TableGame,
) -> Result<(), String> {
    let table = open_file::<G>(&open.path, open.replay, open.seats.clone(), None)?;
    commands.insert_resource(table);
    commands.insert_resource(OnTable(which));
    Ok(())
}

fn open_tables(
    mut commands: Commands,
    mut opens: MessageReader<OpenTable>,
    mut next: ResMut<NextState<Screen>>,
    mut notice: ResMut<super::session::Notice>,
) {
    for open in opens.read() {
        let which = std::fs::read_to_string(&open.path)
            .ok()
            .and_then(|t| TableGame::of_text(&t));
        let Some(which) = which else {
            notice.0 = Some(format!(
                "{} is not a Battle Tanks, Tank Combat or Range Duel file",
                open.path.display()
            ));
            continue;
        };
        match crate::dispatch_table_game!(which, open_one(&mut commands, open, which)) {
            Ok(()) => next.set(Screen::Table),
            Err(e) => notice.0 = Some(e),
        }
    }
}

/// Space, or the Skip button: the animations end at once.
fn skip_animations(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    mut skips: ParamSet<(MessageReader<SkipAnimations>, MessageWriter<SkipAnimations>)>,
    mut busy: ResMut<TableBusy>,
    time: Res<Time>,
) {
    let asked = skips.p0().read().count() > 0;
    let space = keys.is_some_and(|k| k.just_pressed(KeyCode::Space));
    if busy.busy(time.elapsed_secs()) && (asked || space) {
        busy.until = time.elapsed_secs();
        if space {
            skips.p1().write(SkipAnimations);
        }
    }
}

/// A new match on the table: the scene redraws it from scratch.
fn announce_new<G: TableClient>(
    table: Res<TableMatch<G>>,
    mut played: MessageWriter<FactsPlayed<G>>,
    mut busy: ResMut<TableBusy>,
    time: Res<Time>,
) {
    if table.is_added() {
        busy.until = time.elapsed_secs();
        played.write(FactsPlayed {
            facts: table.game.opening_facts().to_vec(),
            jumped: true,
        });
    }
}

fn take_orders<G: TableClient>(
    mut orders: MessageReader<TableOrder<G>>,
    mut table: ResMut<TableMatch<G>>,
    mut played: MessageWriter<FactsPlayed<G>>,
    mut commands: Commands,
    folder: Res<SaveFolder>,
    mut busy: ResMut<TableBusy>,
    time: Res<Time>,
) {
    for order in orders.read() {
        match order {
            TableOrder::Play(player, action) => {
                if table.replay.is_some() {
                    table.notice = Some("This is a replay: step through it below".into());
                    continue;
                }
                match table.play(*player, action) {
                    Ok(facts) => {
                        table.notice = None;
                        queue_facts(&table, &facts, &mut busy, time.elapsed_secs());
                        played.write(FactsPlayed {
                            facts,
                            jumped: false,
                        });
                        autosave(&table, &folder);
                    }
                    Err(why) => table.notice = Some(why),
                }
            }
            TableOrder::Undo => {
                table.undo();
                busy.until = time.elapsed_secs();
                played.write(FactsPlayed {
                    facts: Vec::new(),
                    jumped: true,
                });
            }
            TableOrder::Seek(n) => {
                table.seek(*n);
                busy.until = time.elapsed_secs();
                played.write(FactsPlayed {
                    facts: Vec::new(),
                    jumped: true,
                });
            }
            TableOrder::Save => {
                let path = folder
                    .saves()
                    .join(format!("{}-{}.ron", G::NAME, clock_seed()));
                table.notice = Some(match table.save_to(&path) {
                    Ok(()) => format!("Saved to {}", path.display()),
                    Err(e) => format!("Cannot save: {e}"),
                });
            }
            TableOrder::Reveal => table.reveal(),
            TableOrder::Rematch => match table.rematch() {
                Ok(t) => commands.insert_resource(t),
                Err(e) => table.notice = Some(e),
            },
            TableOrder::Sit(player, seat) => {
                if let Err(e) = table.set_seat(*player, seat.clone()) {
                    table.notice = Some(e);
                }
            }
        }
    }
    if !busy.busy(time.elapsed_secs()) && table.pass_to.is_none() {
        let before = (table.viewer, table.pass_to);
        table.hand_over();
        if (table.viewer, table.pass_to) != before {
            table.revision += 1;
        }
    }
}

fn queue_facts<G: TableClient>(
    table: &TableMatch<G>,
    facts: &[G::Fact],
    busy: &mut TableBusy,
    now: f32,
) {
    let seconds: f32 = facts.iter().map(|f| table.state().fact_seconds(f)).sum();
    busy.queue(now, seconds);
}

/// The autosave of game `G` in the data folder.
#[must_use]
pub fn autosave_path<G: Tabletop>(folder: &SaveFolder) -> PathBuf {
    folder.0.join(format!("autosave-{}.ron", G::NAME))
}

fn autosave<G: TableClient>(table: &TableMatch<G>, folder: &SaveFolder) {
    if let Err(e) = table.save_to(&autosave_path::<G>(folder)) {
        warn!("autosave failed: {e}");
    }
}

/// Bots answer, one action at a time, once the animations have played.
fn bots_play<G: TableClient>(
    mut table: ResMut<TableMatch<G>>,
    mut played: MessageWriter<FactsPlayed<G>>,
    folder: Res<SaveFolder>,
    mut busy: ResMut<TableBusy>,
    time: Res<Time>,
    mut pause: Local<f32>,
) {
    let now = time.elapsed_secs();
    if table.replay.is_some() || table.state().outcome().is_some() || busy.busy(now) {
        *pause = 0.0;
        return;
    }
    let bot_seat =
        table
            .state()
            .to_act()
            .into_iter()
            .find_map(|p| match table.seats.get(p.index()) {
                Some(Seat::Bot(name)) => G::bot(name).map(|b| (p, b)),
                _ => None,
            });
    let Some((player, mut bot)) = bot_seat else {
        return;
    };
    // A short pause so that a person can follow the bots' moves.
    *pause += time.delta_secs();
    if *pause < 0.35 {
        return;
    }
    *pause = 0.0;
    let table = &mut *table;
    let Some(action) = bot.choose(table.game.state(), player, &mut table.bot_rng) else {
        table.notice = Some(format!("the bot in seat {} has no action", player.0 + 1));
        return;
    };
    match table.play(player, &action) {
        Ok(facts) => {
            queue_facts(table, &facts, &mut busy, now);
            played.write(FactsPlayed {
                facts,
                jumped: false,
            });
            autosave(table, &folder);
        }
        Err(e) => table.notice = Some(format!("the bot chose an illegal action: {e}")),
    }
}

fn leave<G: TableClient>(mut commands: Commands) {
    commands.remove_resource::<TableMatch<G>>();
    commands.remove_resource::<Shown<G>>();
    commands.remove_resource::<OnTable>();
}

/// A scene's animations, each at its start time, played one after another.
#[derive(Resource)]
pub struct Timeline<A: Send + Sync + 'static> {
    cursor: f32,
    queue: std::collections::VecDeque<(f32, A)>,
}

impl<A: Send + Sync + 'static> Default for Timeline<A> {
    fn default() -> Self {
        Self {
            cursor: 0.0,
            queue: std::collections::VecDeque::new(),
        }
    }
}

impl<A: Send + Sync + 'static> Timeline<A> {
    /// Queues `item` to start once what is queued has played; it lasts `seconds`.
    /// Returns its start time.
    pub fn push(&mut self, now: f32, seconds: f32, item: A) -> f32 {
        let start = self.cursor.max(now);
        self.cursor = start + seconds;
        self.queue.push_back((start, item));
        start
    }

    /// The items whose time has come, in order.
    pub fn due(&mut self, now: f32) -> Vec<(f32, A)> {
        let mut out = Vec::new();
        while self.queue.front().is_some_and(|(t, _)| *t <= now) {
            out.extend(self.queue.pop_front());
        }
        out
    }

    /// Everything still queued (to snap to the end when skipping), leaving it empty.
    pub fn drain(&mut self, now: f32) -> Vec<A> {
        self.cursor = now;
        self.queue.drain(..).map(|(_, a)| a).collect()
    }

    /// When the last queued animation ends.
    #[must_use]
    pub fn end(&self) -> f32 {
        self.cursor
    }
}

/// What a scene does with the orders' results each frame: queues the animation of every
/// fact (`anim_of`) with the time the game gives it, then `settle` with the state after
/// the action, so the scene shows that state once the animations have played. Returns
/// true when the scene must instead redraw from the state now: the match jumped (undo, a
/// replay step, a new match) or the animations were skipped.
pub fn queue_played<G: TableClient, A: Send + Sync + 'static>(
    played: &mut MessageReader<FactsPlayed<G>>,
    skips: &mut MessageReader<SkipAnimations>,
    timeline: &mut Timeline<A>,
    game: &G,
    now: f32,
    anim_of: impl Fn(&G, &G::Fact) -> Option<A>,
    settle: impl Fn(G) -> A,
) -> bool {
    let mut redraw = false;
    for p in played.read() {
        if p.jumped {
            redraw = true;
            continue;
        }
        for f in &p.facts {
            if let Some(anim) = anim_of(game, f) {
                timeline.push(now, game.fact_seconds(f), anim);
            }
        }
        timeline.push(now, 0.0, settle(game.clone()));
    }
    if skips.read().count() > 0 && !timeline.drain(now).is_empty() {
        redraw = true;
    }
    if redraw {
        timeline.drain(now);
    }
    redraw
}

/// The state as the table shows it: it lags the rules until the animations have played,
/// so that labels do not tell the result before the dice land.
#[derive(Resource, Clone)]
pub struct Shown<G: TableClient>(pub G);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::range_duel::{Action, DuelSetup, RangeDuel};

    fn duel(seats: Vec<Seat>) -> TableMatch<RangeDuel> {
        TableMatch::new(DuelSetup::builtin_default(), "test".into(), 3, seats).unwrap()
    }

    #[test]
    fn hot_seat_hides_the_screen_between_people() {
        let mut t = duel(vec![Seat::Human, Seat::Human]);
        assert_eq!(
            t.pass_to,
            Some(PlayerId(0)),
            "hot seat starts behind the screen"
        );
        t.reveal();
        assert_eq!(t.viewer, Some(PlayerId(0)));
        t.play(PlayerId(0), &Action::HullDown).unwrap();
        t.hand_over();
        // Player 2 must choose, but the screen still shows player 1's eyes behind the
        // privacy screen until player 2 says they are at the computer.
        assert_eq!(t.pass_to, Some(PlayerId(1)));
        assert_eq!(t.viewer, Some(PlayerId(0)));
        t.reveal();
        assert_eq!((t.viewer, t.pass_to), (Some(PlayerId(1)), None));
        // Player 2 reads that player 1 has chosen, never what.
        let log = t
            .log()
            .into_iter()
            .map(|(_, l)| l)
            .collect::<Vec<_>>()
            .join("\n");
        assert!(!log.contains("Hull Down"), "{log}");
    }

    #[test]
    fn against_a_bot_the_screen_stays_with_the_person() {
        let mut t = duel(vec![Seat::Bot("heuristic".into()), Seat::Human]);
        assert_eq!(t.viewer, Some(PlayerId(1)));
        assert_eq!(t.deciding(), Some(PlayerId(1)));
        t.play(PlayerId(1), &Action::HullDown).unwrap();
        t.hand_over();
        assert_eq!((t.viewer, t.pass_to), (Some(PlayerId(1)), None));
        assert_eq!(t.deciding(), None);
    }

    #[test]
    fn undo_takes_back_the_last_persons_action() {
        let mut t = duel(vec![Seat::Human, Seat::Bot("random".into())]);
        t.play(PlayerId(0), &Action::HullDown).unwrap();
        t.play(PlayerId(1), &Action::HullDown).unwrap();
        assert_eq!(t.game.history().len(), 2);
        t.undo();
        assert_eq!(t.game.history().len(), 0);
    }

    #[test]
    fn a_replay_steps_through_its_record() {
        let mut t = duel(vec![Seat::Human, Seat::Human]);
        t.autoplay(6).unwrap();
        let dir = std::env::temp_dir().join(format!("tt-table-{}", std::process::id()));
        let path = dir.join("duel.ron");
        t.save_to(&path).unwrap();
        let mut r = TableMatch::<RangeDuel>::open_record(&path, true).unwrap();
        assert_eq!(r.game.history().len(), 0);
        assert_eq!(r.viewer, None);
        r.seek(6);
        assert_eq!(r.game.state_hash(), t.game.state_hash());
        let on = TableMatch::<RangeDuel>::open_record(&path, false).unwrap();
        assert_eq!(on.game.state_hash(), t.game.state_hash());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn an_unknown_bot_is_refused() {
        let t = TableMatch::<RangeDuel>::new(
            DuelSetup::builtin_default(),
            "test".into(),
            1,
            vec![Seat::Bot("genius".into())],
        );
        assert!(t.is_err());
    }
}
