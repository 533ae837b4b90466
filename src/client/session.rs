//! The battle in play: the match with its history, saves, autosave and replays.
//!
//! Input systems write [`Order`] messages; this plugin plays them through the rules and
//! writes what happened as fact messages ([`UnitMoved`], [`ShotResolved`],
//! [`CrewWounded`], [`UnitDisabled`], [`CookedOff`] …) and log lines ([`LogUpdate`]).
//! Nothing here knows about meshes or transforms.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use hexx::Hex;

use super::{Launch, LoadedRules, Screen};
use crate::data;
use crate::framework::bot::Bot;
use crate::framework::hash::format_hash;
use crate::framework::record::{MatchRecord, RecordedAction};
use crate::framework::{Game, Match, MatchRng, PlayerId};
use crate::grid::Facing;
use crate::rules::tank_commander::{
    Action, Fact, FireTarget, GreedyBot, Record, Role, Rules, Scenario, ScenarioSource,
    TankCommander, Told, UnitId, replay_record, resolve_path,
};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Order>()
        .add_message::<NewBattle>()
        .add_message::<OpenRecord>()
        .add_message::<LogUpdate>()
        .add_message::<Rewound>()
        .add_message::<UnitMoved>()
        .add_message::<UnitTurned>()
        .add_message::<ShotResolved>()
        .add_message::<CrewWounded>()
        .add_message::<UnitDisabled>()
        .add_message::<CookedOff>()
        .add_message::<FireStarted>()
        .add_message::<SmokeLaid>()
        .add_message::<BuildingDestroyed>()
        .init_resource::<Queued>()
        .init_resource::<Busy>()
        .init_resource::<Autoplay>()
        .init_resource::<Notice>()
        .init_resource::<SaveFolder>()
        .init_resource::<CombatLog>()
        .add_systems(
            Update,
            (
                start_battles,
                open_records,
                (tell_new_table, take_orders, play_queued, autoplay)
                    .chain()
                    .run_if(resource_exists::<Table>),
                keep_log,
            )
                .chain()
                .in_set(SessionSet),
        );
}

/// The systems that play orders; presentation runs after them.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SessionSet;

/// A match being replayed: the recorded actions, and every fact told in advance so the
/// whole log can be shown and clicked.
#[derive(Clone, Debug)]
pub struct Replay {
    pub actions: Vec<RecordedAction<Action>>,
    pub told: Vec<Told>,
}

/// The battle on the table.
#[derive(Resource)]
pub struct Table {
    pub game: Match<TankCommander>,
    pub scenario: Scenario,
    /// What to call the scenario's source (a path, or "built-in").
    pub source: String,
    /// The scenario file, when there is one (hot reload, rematch).
    pub path: Option<PathBuf>,
    pub seed: u64,
    /// Scripted dice of a loaded record.
    pub dice: Vec<u32>,
    /// Bumped on every change.
    pub revision: u64,
    /// Different for every battle opened in this run.
    pub generation: u64,
    /// Whether players may act (false for previews).
    pub interactive: bool,
    /// Playtest mode: actions (and their rolls) may be taken back.
    pub playtest: bool,
    /// Set when this is a replay.
    pub replay: Option<Replay>,
}

impl Table {
    /// A new battle on `scenario`.
    ///
    /// # Errors
    /// When the scenario cannot be set up.
    pub fn new(
        scenario: Scenario,
        rules: &Rules,
        source: String,
        path: Option<PathBuf>,
        seed: u64,
    ) -> Result<Self, String> {
        let battle = TankCommander::new(&scenario, rules)?;
        Ok(Self {
            game: Match::new(battle, seed),
            scenario,
            source,
            path,
            seed,
            dice: Vec::new(),
            revision: 0,
            generation: next_generation(),
            interactive: true,
            playtest: false,
            replay: None,
        })
    }

    /// Opens a match record: to play on from its end, or to replay from its start.
    ///
    /// # Errors
    /// A sentence when the record does not load or replay.
    pub fn from_record(path: &Path, rules: &Rules, replay: bool) -> Result<Self, String> {
        let name = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
        let (record, _): (Record, _) = data::load_ron(&name, &text).map_err(|d| d.to_string())?;
        let scenario = record
            .scenario
            .load(path.parent(), rules)
            .map_err(|d| d.to_string())?;
        let (mut game, told) =
            replay_record(&record, &scenario, rules).map_err(|e| format!("{name}: {e}"))?;
        let scenario_path = match &record.scenario {
            ScenarioSource::Path(p) => Some(resolve_path(p.as_str(), path.parent())),
            ScenarioSource::Inline(_) => None,
        };
        let replay = replay.then(|| {
            game.undo_to(0);
            Replay {
                actions: record.actions.clone(),
                told,
            }
        });
        Ok(Self {
            game,
            scenario,
            source: name,
            path: scenario_path,
            seed: record.seed,
            dice: record.dice,
            revision: 0,
            generation: next_generation(),
            interactive: true,
            playtest: false,
            replay,
        })
    }

    /// The current state.
    #[must_use]
    pub fn battle(&self) -> &TankCommander {
        self.game.state()
    }

    /// Plays an action for `player`.
    ///
    /// # Errors
    /// The rule that forbids it.
    pub fn play(&mut self, player: PlayerId, action: &Action) -> Result<Vec<Fact>, String> {
        let facts = self
            .game
            .play(player, action)
            .map_err(|e| e.to_string())?
            .to_vec();
        self.revision += 1;
        Ok(facts)
    }

    /// Goes back to the state after the first `len` actions (playtest undo); the dice
    /// rewind with it.
    pub fn undo_to(&mut self, len: usize) {
        if len < self.game.history().len() {
            self.game.undo_to(len);
            self.revision += 1;
        }
    }

    /// Moves a replay to the state after `len` recorded actions.
    ///
    /// # Errors
    /// When a recorded action no longer plays (the rules changed).
    pub fn seek(&mut self, len: usize) -> Result<(), String> {
        let Some(replay) = &self.replay else {
            return Ok(());
        };
        let len = len.min(replay.actions.len());
        let actions: Vec<_> = replay.actions[..len].to_vec();
        if len < self.game.history().len() {
            self.game.undo_to(len);
        }
        for step in &actions[self.game.history().len()..] {
            self.game
                .play(step.player, &step.action)
                .map_err(|e| e.to_string())?;
        }
        self.revision += 1;
        Ok(())
    }

    /// The match so far as a record (the scenario inline, so the save survives edits).
    #[must_use]
    pub fn record(&self) -> Record {
        MatchRecord {
            game: TankCommander::NAME.into(),
            scenario: ScenarioSource::Inline(Box::new(self.scenario.setup.clone())),
            seed: self.seed,
            dice: self.dice.clone(),
            actions: self
                .game
                .history()
                .iter()
                .map(|s| RecordedAction {
                    player: s.player,
                    action: s.action,
                })
                .collect(),
            final_hash: Some(format_hash(self.game.state_hash())),
        }
    }

    /// Writes the match record to `path`, atomically.
    ///
    /// # Errors
    /// A sentence when the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let text = data::to_ron_pretty(&self.record())?;
        data::write_atomic(path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Every fact so far, as log entries.
    #[must_use]
    pub fn log_entries(&self) -> Vec<LogEntry> {
        if let Some(replay) = &self.replay {
            return replay
                .told
                .iter()
                .map(|t| LogEntry {
                    text: t.text.clone(),
                    units: units_of(&t.fact),
                    step: t.action,
                })
                .collect();
        }
        let state = self.battle();
        let mut out: Vec<LogEntry> = self
            .game
            .opening_facts()
            .iter()
            .map(|f| LogEntry::of(state, f, None))
            .collect();
        for (i, step) in self.game.history().iter().enumerate() {
            out.extend(step.facts.iter().map(|f| LogEntry::of(state, f, Some(i))));
        }
        out
    }
}

fn next_generation() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The folder for the autosave and saved matches: the user's data folder, or a
/// scratch folder in tests.
#[derive(Resource, Clone, Debug)]
pub struct SaveFolder(pub PathBuf);

impl Default for SaveFolder {
    fn default() -> Self {
        Self(super::data_dir())
    }
}

impl SaveFolder {
    /// Where the autosave lives.
    #[must_use]
    pub fn autosave(&self) -> PathBuf {
        self.0.join("autosave.ron")
    }

    /// Where saved matches live.
    #[must_use]
    pub fn saves(&self) -> PathBuf {
        self.0.join("saves")
    }
}

/// Opens a scenario file for `tanktable play`.
///
/// # Errors
/// Every problem in the scenario.
pub fn open_scenario(path: &Path, rules: &Rules, launch: &Launch) -> Result<Table, String> {
    let scenario = Scenario::load(path, rules).map_err(|d| d.to_string())?;
    let seed = launch
        .seed
        .or(scenario.setup.seed)
        .unwrap_or_else(clock_seed);
    let mut table = Table::new(
        scenario,
        rules,
        path.display().to_string(),
        Some(path.to_path_buf()),
        seed,
    )?;
    // Previews only show the table; played games take orders, screenshot or not.
    table.interactive = !launch.top_down;
    Ok(table)
}

/// A fresh seed from the clock; shown in the panel so a game can be reproduced.
#[must_use]
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A player's order.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum Order {
    /// Play one action.
    Play(PlayerId, Action),
    /// Play these actions one after another, animating each (a planned route).
    Drive(PlayerId, Vec<Action>),
    /// End the active unit's activation and pass with every unit not yet activated.
    EndTurn(PlayerId),
    /// Playtest: go back to the state after this many actions.
    UndoTo(usize),
    /// Replay: go to the state after this many actions.
    Seek(usize),
    /// The same scenario again with a new seed.
    Rematch,
    /// Save the match; to the saves folder when no path is given.
    Save(Option<PathBuf>),
}

/// Starts a new battle and shows it.
#[derive(Message, Clone, Debug)]
pub struct NewBattle {
    pub scenario: Scenario,
    pub source: String,
    pub path: Option<PathBuf>,
}

/// Opens a match record: to play on, or as a replay.
#[derive(Message, Clone, Debug)]
pub struct OpenRecord {
    pub path: PathBuf,
    pub replay: bool,
}

/// One line of the combat log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    pub text: String,
    /// The units it involves (clicking the line highlights them).
    pub units: Vec<UnitId>,
    /// The action that caused it; `None` for the opening roll and notices.
    pub step: Option<usize>,
}

impl LogEntry {
    fn of(state: &TankCommander, fact: &Fact, step: Option<usize>) -> Self {
        Self {
            text: state.describe_fact(fact),
            units: units_of(fact),
            step,
        }
    }

    fn notice(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            units: Vec::new(),
            step: None,
        }
    }
}

/// The units a fact involves.
fn units_of(fact: &Fact) -> Vec<UnitId> {
    match fact {
        Fact::ShotResolved {
            shooter, target, ..
        } => match target {
            FireTarget::Unit(t) => vec![*shooter, *t],
            FireTarget::Building(_) => vec![*shooter],
        },
        Fact::BlastHit { source, target, .. } => vec![*source, *target],
        Fact::UnitActivated { unit, .. }
        | Fact::UnitMoved { unit, .. }
        | Fact::UnitTurned { unit, .. }
        | Fact::TurretRotated { unit, .. }
        | Fact::GunLoaded { unit, .. }
        | Fact::AbilityUsed { unit, .. }
        | Fact::WoundRolled { unit, .. }
        | Fact::CrewWounded { unit, .. }
        | Fact::LieutenantTookOver { unit, .. }
        | Fact::HullDamaged { unit, .. }
        | Fact::FireRolled { unit, .. }
        | Fact::FireExtinguished { unit, .. }
        | Fact::SmokeDeployed { unit, .. }
        | Fact::UnitDisabled { unit, .. }
        | Fact::CookOffRolled { unit, .. }
        | Fact::CookedOff { unit, .. }
        | Fact::WaypointReached { unit, .. }
        | Fact::ActivationEnded { unit, .. } => vec![*unit],
        _ => Vec::new(),
    }
}

/// A change to the combat log.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum LogUpdate {
    /// The log is told again from the start (undo, replay seek, new battle).
    Cleared,
    Line(LogEntry),
}

/// The combat log, kept from [`LogUpdate`] messages.
#[derive(Resource, Default, Debug)]
pub struct CombatLog {
    pub entries: Vec<LogEntry>,
}

fn keep_log(mut updates: MessageReader<LogUpdate>, mut log: ResMut<CombatLog>) {
    for update in updates.read() {
        match update {
            LogUpdate::Cleared => log.entries.clear(),
            LogUpdate::Line(entry) => log.entries.push(entry.clone()),
        }
    }
}

/// The state was replaced wholesale (new battle, undo, replay seek): presentation snaps
/// to it instead of animating.
#[derive(Message, Clone, Copy, Debug)]
pub struct Rewound;

/// A unit drove from one hex to another.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitMoved {
    pub unit: UnitId,
    pub from: Hex,
    pub to: Hex,
}

/// A unit's hull or turret turned.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitTurned {
    pub unit: UnitId,
    pub hull: Facing,
    pub turret: Facing,
}

/// A shot (or a cook-off's blast) was resolved.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShotResolved {
    pub shooter: UnitId,
    pub from: Hex,
    pub at: Hex,
    pub hit: bool,
    pub penetrating: bool,
}

/// A crew member was wounded or killed.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct CrewWounded {
    pub unit: UnitId,
    pub role: Role,
    pub name: String,
    pub killed: bool,
}

/// A unit was knocked out.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct UnitDisabled {
    pub unit: UnitId,
    pub reason: String,
}

/// A tank's ammunition exploded; its hex is rubble now.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CookedOff {
    pub unit: UnitId,
    pub hex: Hex,
}

/// A unit caught fire.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct FireStarted {
    pub unit: UnitId,
}

/// Smoke was laid on a hex.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmokeLaid {
    pub hex: Hex,
}

/// A building was shot to rubble.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildingDestroyed {
    pub hex: Hex,
}

/// The fact message writers.
#[derive(SystemParam)]
pub struct FactWriters<'w> {
    log: MessageWriter<'w, LogUpdate>,
    rewound: MessageWriter<'w, Rewound>,
    moved: MessageWriter<'w, UnitMoved>,
    turned: MessageWriter<'w, UnitTurned>,
    shots: MessageWriter<'w, ShotResolved>,
    wounds: MessageWriter<'w, CrewWounded>,
    disabled: MessageWriter<'w, UnitDisabled>,
    cooked: MessageWriter<'w, CookedOff>,
    fires: MessageWriter<'w, FireStarted>,
    smoke: MessageWriter<'w, SmokeLaid>,
    buildings: MessageWriter<'w, BuildingDestroyed>,
}

impl FactWriters<'_> {
    /// Tells the facts of one action.
    fn tell(&mut self, table: &Table, facts: &[Fact]) {
        let state = table.battle();
        let step = table.game.history().len().checked_sub(1);
        for fact in facts {
            self.log
                .write(LogUpdate::Line(LogEntry::of(state, fact, step)));
            match fact {
                Fact::UnitMoved { unit, from, to, .. } => {
                    self.moved.write(UnitMoved {
                        unit: *unit,
                        from: *from,
                        to: *to,
                    });
                }
                Fact::UnitTurned {
                    unit, to, turret, ..
                } => {
                    self.turned.write(UnitTurned {
                        unit: *unit,
                        hull: *to,
                        turret: *turret,
                    });
                }
                Fact::TurretRotated { unit, to, .. } => {
                    self.turned.write(UnitTurned {
                        unit: *unit,
                        hull: state.unit(*unit).facing,
                        turret: *to,
                    });
                }
                Fact::ShotResolved {
                    shooter,
                    target,
                    hit,
                    penetration,
                    ..
                } => {
                    let at = match target {
                        FireTarget::Unit(t) => state.unit(*t).at,
                        FireTarget::Building(h) => *h,
                    };
                    self.shots.write(ShotResolved {
                        shooter: *shooter,
                        from: state.unit(*shooter).at,
                        at,
                        hit: *hit,
                        penetrating: penetration.as_ref().is_some_and(|p| p.penetrating),
                    });
                }
                Fact::BlastHit {
                    source,
                    target,
                    penetration,
                } => {
                    self.shots.write(ShotResolved {
                        shooter: *source,
                        from: state.unit(*source).at,
                        at: state.unit(*target).at,
                        hit: true,
                        penetrating: penetration.penetrating,
                    });
                }
                Fact::CrewWounded {
                    unit,
                    role,
                    name,
                    killed,
                    ..
                } => {
                    self.wounds.write(CrewWounded {
                        unit: *unit,
                        role: *role,
                        name: name.clone(),
                        killed: *killed,
                    });
                }
                Fact::UnitDisabled { unit, reason } => {
                    self.disabled.write(UnitDisabled {
                        unit: *unit,
                        reason: reason.clone(),
                    });
                }
                Fact::CookedOff { unit, hex, .. } => {
                    self.cooked.write(CookedOff {
                        unit: *unit,
                        hex: *hex,
                    });
                }
                Fact::FireRolled { unit, check } if check.success => {
                    self.fires.write(FireStarted { unit: *unit });
                }
                Fact::SmokeDeployed { hex, .. } => {
                    self.smoke.write(SmokeLaid { hex: *hex });
                }
                Fact::BuildingDestroyed { hex } => {
                    self.buildings.write(BuildingDestroyed { hex: *hex });
                }
                _ => {}
            }
        }
    }

    /// Tells the whole log again after the state was replaced.
    fn retell(&mut self, table: &Table) {
        self.rewound.write(Rewound);
        self.log.write(LogUpdate::Cleared);
        for entry in table.log_entries() {
            self.log.write(LogUpdate::Line(entry));
        }
    }

    fn notice(&mut self, text: impl Into<String>) {
        self.log.write(LogUpdate::Line(LogEntry::notice(text)));
    }
}

/// Actions waiting to be played one by one, each after the last one's animation.
#[derive(Resource, Default, Debug)]
pub struct Queued(pub VecDeque<Queue>);

/// A queued order.
#[derive(Clone, Debug, PartialEq)]
pub enum Queue {
    Action(PlayerId, Action),
    /// Pass with every remaining unit of this side.
    EndTurn(PlayerId),
}

/// Whether an animation is playing; input and queued orders wait for it.
#[derive(Resource, Default, Debug)]
pub struct Busy(pub bool);

/// Bot actions still to play (scripted runs).
#[derive(Resource, Default, Debug)]
pub struct Autoplay(pub u32);

/// The last message for the player: a refusal, a save, a load error.
#[derive(Resource, Default, Debug)]
pub struct Notice(pub Option<String>);

fn start_battles(
    mut commands: Commands,
    mut battles: MessageReader<NewBattle>,
    rules: Option<Res<LoadedRules>>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    mut notice: ResMut<Notice>,
) {
    let Some(new) = battles.read().last() else {
        return;
    };
    let rules = rules.map_or_else(Rules::builtin, |r| r.0.clone());
    let seed = new.scenario.setup.seed.unwrap_or_else(clock_seed);
    match Table::new(
        new.scenario.clone(),
        &rules,
        new.source.clone(),
        new.path.clone(),
        seed,
    ) {
        Ok(table) => {
            commands.insert_resource(table);
            // Re-entering the battle screen would despawn the new table's entities.
            if *screen.get() != Screen::Battle {
                next.set(Screen::Battle);
            }
        }
        Err(e) => notice.0 = Some(e),
    }
}

fn open_records(
    mut commands: Commands,
    mut opens: MessageReader<OpenRecord>,
    rules: Option<Res<LoadedRules>>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    mut notice: ResMut<Notice>,
) {
    let Some(open) = opens.read().last() else {
        return;
    };
    let rules = rules.map_or_else(Rules::builtin, |r| r.0.clone());
    match Table::from_record(&open.path, &rules, open.replay) {
        Ok(table) => {
            commands.insert_resource(table);
            // Re-entering the battle screen would despawn the new table's entities.
            if *screen.get() != Screen::Battle {
                next.set(Screen::Battle);
            }
            notice.0 = None;
        }
        Err(e) => notice.0 = Some(e),
    }
}

/// Tells a newly opened battle from the start.
fn tell_new_table(table: Res<Table>, mut last: Local<Option<u64>>, mut tell: FactWriters) {
    if *last != Some(table.generation) {
        *last = Some(table.generation);
        tell.retell(&table);
    }
}

/// Plays the orders given this frame.
fn take_orders(
    folder: Res<SaveFolder>,
    mut orders: MessageReader<Order>,
    mut table: ResMut<Table>,
    mut queued: ResMut<Queued>,
    mut notice: ResMut<Notice>,
    rules: Option<Res<LoadedRules>>,
    mut tell: FactWriters,
) {
    for order in orders.read() {
        match order {
            Order::Play(player, action) => {
                queued.0.clear();
                play_one(&folder, &mut table, *player, action, &mut tell, &mut notice);
            }
            Order::Drive(player, actions) => {
                queued.0 = actions.iter().map(|a| Queue::Action(*player, *a)).collect();
            }
            Order::EndTurn(player) => {
                queued.0 = VecDeque::from([Queue::EndTurn(*player)]);
            }
            Order::UndoTo(len) => {
                if table.playtest {
                    queued.0.clear();
                    table.undo_to(*len);
                    tell.retell(&table);
                    tell.notice(format!("(taken back to action {len})"));
                } else {
                    notice.0 = Some("Turn on playtest mode to take actions back".into());
                }
            }
            Order::Seek(len) => {
                queued.0.clear();
                if let Err(e) = table.seek(*len) {
                    notice.0 = Some(e);
                }
                tell.retell(&table);
            }
            Order::Rematch => {
                queued.0.clear();
                let rules = rules.as_ref().map_or_else(Rules::builtin, |r| r.0.clone());
                let seed = table.seed.wrapping_add(1);
                match Table::new(
                    table.scenario.clone(),
                    &rules,
                    table.source.clone(),
                    table.path.clone(),
                    seed,
                ) {
                    Ok(fresh) => {
                        *table = fresh;
                        tell.retell(&table);
                    }
                    Err(e) => notice.0 = Some(e),
                }
            }
            Order::Save(path) => {
                let path = path.clone().unwrap_or_else(|| {
                    let name: String = table
                        .battle()
                        .scenario_name()
                        .chars()
                        .map(|c| {
                            if c.is_alphanumeric() {
                                c.to_ascii_lowercase()
                            } else {
                                '-'
                            }
                        })
                        .collect();
                    folder.saves().join(format!("{name}-{}.ron", clock_seed()))
                });
                notice.0 = Some(match table.save(&path) {
                    Ok(()) => format!("Saved to {}", path.display()),
                    Err(e) => e,
                });
            }
        }
    }
}

fn play_one(
    folder: &SaveFolder,
    table: &mut Table,
    player: PlayerId,
    action: &Action,
    tell: &mut FactWriters,
    notice: &mut Notice,
) -> bool {
    if table.replay.is_some() {
        notice.0 = Some("This is a replay: step through it with the timeline".into());
        return false;
    }
    match table.play(player, action) {
        Ok(facts) => {
            tell.tell(table, &facts);
            notice.0 = None;
            let ended = facts.iter().any(|f| {
                matches!(
                    f,
                    Fact::ActivationEnded { .. } | Fact::BattleEnded { .. } | Fact::Conceded { .. }
                )
            });
            if ended && table.interactive {
                // Autosave after every activation; a failure must not stop the game.
                if let Err(e) = table.save(&folder.autosave()) {
                    notice.0 = Some(format!("Autosave failed: {e}"));
                }
            }
            true
        }
        Err(why) => {
            tell.notice(format!("Refused: {why}"));
            notice.0 = Some(why);
            false
        }
    }
}

/// Plays the next queued action once the last one's animation is over.
fn play_queued(
    folder: Res<SaveFolder>,
    mut table: ResMut<Table>,
    mut queued: ResMut<Queued>,
    busy: Res<Busy>,
    mut notice: ResMut<Notice>,
    mut tell: FactWriters,
) {
    if busy.0 {
        return;
    }
    let Some(front) = queued.0.front().cloned() else {
        return;
    };
    match front {
        Queue::Action(player, action) => {
            queued.0.pop_front();
            if !play_one(&folder, &mut table, player, &action, &mut tell, &mut notice) {
                queued.0.clear();
            }
        }
        Queue::EndTurn(player) => {
            let battle = table.battle();
            if battle.outcome().is_some() || battle.current_side() != player {
                queued.0.pop_front();
                return;
            }
            let next = if battle.activation().is_some() {
                Some(Action::EndActivation)
            } else {
                battle.pending_units(player).next().map(Action::Activate)
            };
            match next {
                Some(action) => {
                    if !play_one(&folder, &mut table, player, &action, &mut tell, &mut notice) {
                        queued.0.clear();
                    }
                }
                None => {
                    queued.0.pop_front();
                }
            }
        }
    }
}

/// Lets the greedy bot play (scripted runs and tests).
fn autoplay(
    folder: Res<SaveFolder>,
    mut table: ResMut<Table>,
    mut left: ResMut<Autoplay>,
    queued: Res<Queued>,
    mut notice: ResMut<Notice>,
    mut rng: Local<Option<MatchRng>>,
    mut tell: FactWriters,
) {
    if left.0 == 0 || !queued.0.is_empty() {
        return;
    }
    let rng = rng.get_or_insert_with(|| MatchRng::new(table.seed));
    let Some(&player) = table.battle().to_act().first() else {
        left.0 = 0;
        return;
    };
    let Some(action) = GreedyBot.choose(table.battle(), player, rng) else {
        left.0 = 0;
        return;
    };
    left.0 -= 1;
    play_one(&folder, &mut table, player, &action, &mut tell, &mut notice);
}
