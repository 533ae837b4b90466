//! A match of a setup-file game (Battle Tanks, Tank Combat, the Range Duel) in the
//! client, written once for every such game.
//!
//! Input writes [`TableOrder`] messages; this plugin plays them through the rules and
//! writes each action's facts as a [`FactsPlayed`] message, which the game's own view
//! (dice, cards, the range track) animates and the panels list. Seats are people or bots;
//! in hot seat a game with secrets shows a privacy screen ("Pass to Ann") before a
//! different person's decision, so a player only ever sees their own hand or choice.

use std::path::{Path, PathBuf};

use bevy::ecs::message::Message;
use bevy::prelude::*;

use crate::framework::bot::Bot;
use crate::framework::record::RecordedAction;
use crate::framework::tabletop::{self, TabletopRecord};
use crate::framework::{Game, Match, MatchRng, PlayerId, Tabletop};

/// The plugin for game `G`, shown on `screen`.
pub(super) fn plugin<G: Tabletop>(app: &mut App, screen: super::Screen) {
    app.add_message::<TableOrder<G>>()
        .add_message::<FactsPlayed<G>>()
        .init_resource::<TableBusy>()
        .add_systems(OnExit(screen), leave::<G>)
        .add_systems(
            Update,
            (take_orders::<G>, bot_moves::<G>, hand_over::<G>)
                .chain()
                .run_if(resource_exists::<TableMatch<G>>),
        );
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Person,
    /// A bot, by its name in [`Tabletop::bot`].
    Bot(&'static str),
}

impl Seat {
    /// Whether a bot plays this seat.
    #[must_use]
    pub fn is_bot(&self) -> bool {
        matches!(self, Self::Bot(_))
    }
}

/// The match on the table.
#[derive(Resource)]
pub struct TableMatch<G: Tabletop> {
    pub game: Match<G>,
    pub setup: G::Setup,
    /// Where the setup came from, for the title bar.
    pub setup_name: String,
    pub seed: u64,
    pub seats: Vec<Seat>,
    /// A replay: the record's actions, stepped through.
    pub replay: Option<Vec<RecordedAction<G::Action>>>,
    /// Bumped on every change.
    pub revision: u64,
    /// The last refusal or save.
    pub notice: Option<String>,
    /// Whose eyes are on the screen: their hand and choices are shown. `None` in a replay
    /// (everything is shown) and behind the privacy screen.
    pub viewer: Option<PlayerId>,
    /// The privacy screen: the screen is hidden until this person takes the seat.
    pub pass_to: Option<PlayerId>,
}

impl<G: Tabletop> TableMatch<G> {
    /// A new match on `setup`.
    ///
    /// # Errors
    /// A sentence when the setup cannot start a match.
    pub fn new(
        setup: G::Setup,
        setup_name: String,
        seed: u64,
        seats: Vec<Seat>,
    ) -> Result<Self, String> {
        let game = tabletop::start::<G>(&setup, seed, &[])?;
        let mut seats = seats;
        seats.resize(game.state().player_count(), Seat::Person);
        let mut table = Self {
            game,
            setup,
            setup_name,
            seed,
            seats,
            replay: None,
            revision: 0,
            notice: None,
            viewer: None,
            pass_to: None,
        };
        table.hand_over();
        Ok(table)
    }

    /// Opens a setup file (a new match with `seats`) or a match record: a replay at its
    /// start when `replay`, else the match as saved, to play on.
    ///
    /// # Errors
    /// Every problem in the file.
    pub fn open(path: &Path, seats: Vec<Seat>, seed: u64, replay: bool) -> Result<Self, String> {
        let name = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
        if !text.contains("MatchRecord") {
            let setup = G::parse_setup(path, &text).map_err(|d| d.to_string())?;
            return Self::new(setup, name, seed, seats);
        }
        let record = tabletop::parse_record::<G>(path, &text).map_err(|d| d.to_string())?;
        let played = tabletop::replay(&record).map_err(|e| format!("{name}: {e}"))?;
        let mut table = Self::new(record.scenario.clone(), name, record.seed, seats)?;
        if replay {
            table.replay = Some(record.actions);
            table.viewer = None;
            table.pass_to = None;
        } else {
            table.game = played;
            table.hand_over();
        }
        Ok(table)
    }

    /// The state of the match.
    #[must_use]
    pub fn state(&self) -> &G {
        self.game.state()
    }

    /// The people (not bots) who must decide now.
    #[must_use]
    pub fn people_to_act(&self) -> Vec<PlayerId> {
        self.state()
            .to_act()
            .into_iter()
            .filter(|p| !self.seats.get(p.index()).is_some_and(Seat::is_bot))
            .collect()
    }

    /// The person whose decision the screen shows: the viewer when they must decide, else
    /// the first person who must.
    #[must_use]
    pub fn deciding(&self) -> Option<PlayerId> {
        let people = self.people_to_act();
        if self.replay.is_some() {
            return None;
        }
        match self.viewer {
            Some(v) if people.contains(&v) => Some(v),
            _ => people.first().copied(),
        }
    }

    /// Decides who looks at the screen next. Without secrets the screen simply follows
    /// whoever must decide. With secrets a different person must first take the seat.
    fn hand_over(&mut self) {
        if self.replay.is_some() || self.state().outcome().is_some() {
            self.pass_to = None;
            if self.state().outcome().is_some() {
                // The match is over: every secret may be shown.
                self.viewer = None;
            }
            return;
        }
        let Some(next) = self.deciding() else {
            return;
        };
        if Some(next) == self.viewer {
            return;
        }
        let people = self.seats.iter().filter(|s| !s.is_bot()).count();
        if G::SECRETS && people > 1 {
            self.viewer = None;
            self.pass_to = Some(next);
        } else {
            self.viewer = Some(next);
        }
    }

    /// The person at the screen takes the seat: the privacy screen lifts.
    pub fn take_seat(&mut self) {
        if let Some(p) = self.pass_to.take() {
            self.viewer = Some(p);
            self.revision += 1;
        }
    }

    /// Plays `action` for `player`.
    ///
    /// # Errors
    /// Why the action is not legal now.
    pub fn play(&mut self, player: PlayerId, action: &G::Action) -> Result<Vec<G::Fact>, String> {
        let facts = self
            .game
            .play(player, action)
            .map_err(|e| e.to_string())?
            .to_vec();
        self.revision += 1;
        self.hand_over();
        Ok(facts)
    }

    /// Takes back the last action by a person, and every bot action after it.
    pub fn undo(&mut self) {
        let history = self.game.history();
        let Some(last_person) = history
            .iter()
            .rposition(|s| !self.seats.get(s.player.index()).is_some_and(Seat::is_bot))
        else {
            return;
        };
        self.game.undo_to(last_person);
        self.revision += 1;
        self.viewer = None;
        self.hand_over();
    }

    /// A replay: goes to the state after `len` actions.
    pub fn seek(&mut self, len: usize) -> Vec<G::Fact> {
        let Some(actions) = self.replay.clone() else {
            return Vec::new();
        };
        let len = len.min(actions.len());
        let mut facts = Vec::new();
        if len < self.game.history().len() {
            self.game.undo_to(len);
        }
        while self.game.history().len() < len {
            let step = &actions[self.game.history().len()];
            match self.game.play(step.player, &step.action) {
                Ok(f) => facts = f.to_vec(),
                Err(_) => break,
            }
        }
        self.revision += 1;
        facts
    }

    /// The match as a record.
    #[must_use]
    pub fn record(&self) -> TabletopRecord<G> {
        tabletop::record_of(&self.setup, self.seed, &[], &self.game)
    }

    /// Every fact so far as `viewer` may read it, with the action it came from (0 for the
    /// opening).
    #[must_use]
    pub fn log(&self, viewer: Option<PlayerId>) -> Vec<(usize, String)> {
        let state = self.state();
        let mut lines: Vec<(usize, String)> = self
            .game
            .opening_facts()
            .iter()
            .filter_map(|f| state.describe_fact_for(f, viewer).map(|t| (0, t)))
            .collect();
        for (i, step) in self.game.history().iter().enumerate() {
            lines.extend(
                step.facts
                    .iter()
                    .filter_map(|f| state.describe_fact_for(f, viewer).map(|t| (i + 1, t))),
            );
        }
        lines
    }

    /// Writes the match to `path` as a match record, atomically.
    ///
    /// # Errors
    /// The I/O error.
    pub fn save_to(&self, path: &Path) -> Result<(), String> {
        let text = crate::data::to_ron_pretty(&self.record())?;
        crate::data::write_atomic(path, &text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Where a game's saves and autosave go.
#[must_use]
pub fn saves_dir() -> PathBuf {
    super::data_dir().join("saves")
}

/// The autosave of game `G`.
#[must_use]
pub fn autosave_path<G: Tabletop>() -> PathBuf {
    super::data_dir().join(format!("autosave-{}.ron", G::NAME))
}

/// An order at the table.
#[derive(Clone, Debug)]
pub enum TableOrder<G: Tabletop> {
    Play(PlayerId, G::Action),
    /// Take back the last action by a person (and the bots' answers).
    Undo,
    /// Replay: go to the state after this many actions.
    Seek(usize),
    /// Save the match to the saves folder.
    Save,
    /// The person at the screen takes the seat the privacy screen asked for.
    TakeSeat,
}

impl<G: Tabletop> Message for TableOrder<G> {}

/// What one action caused, for the views to animate and list.
#[derive(Clone, Debug)]
pub struct FactsPlayed<G: Tabletop> {
    pub player: PlayerId,
    pub facts: Vec<G::Fact>,
}

impl<G: Tabletop> Message for FactsPlayed<G> {}

/// Seconds of animation still to play: bots wait for it, so each move can be seen.
#[derive(Resource, Default, Debug)]
pub struct TableBusy(pub f32);

fn take_orders<G: Tabletop>(
    mut orders: MessageReader<TableOrder<G>>,
    mut table: ResMut<TableMatch<G>>,
    mut played: MessageWriter<FactsPlayed<G>>,
) {
    for order in orders.read() {
        match order {
            TableOrder::Play(player, action) => {
                if table.replay.is_some() {
                    table.notice = Some("This is a replay: step through it with ◀ ▶".into());
                    continue;
                }
                match table.play(*player, action) {
                    Ok(facts) => {
                        table.notice = None;
                        played.write(FactsPlayed {
                            player: *player,
                            facts,
                        });
                        autosave(&table);
                    }
                    Err(e) => table.notice = Some(e),
                }
            }
            TableOrder::Undo => table.undo(),
            TableOrder::Seek(n) => {
                let facts = table.seek(*n);
                if let Some(step) = table.game.history().last() {
                    played.write(FactsPlayed {
                        player: step.player,
                        facts,
                    });
                }
            }
            TableOrder::Save => {
                let dir = saves_dir();
                let path = dir.join(format!("{}-{}.ron", G::NAME, super::session::clock_seed()));
                table.notice = Some(match table.save_to(&path) {
                    Ok(()) => format!("Saved to {}", path.display()),
                    Err(e) => format!("Cannot save: {e}"),
                });
            }
            TableOrder::TakeSeat => table.take_seat(),
        }
    }
}

/// Autosaves after every action, so nothing is lost if the window closes.
fn autosave<G: Tabletop>(table: &TableMatch<G>) {
    if table.replay.is_none() {
        let _ = table.save_to(&autosave_path::<G>());
    }
}

/// Bots answer when they must decide, a moment later, after the animation.
fn bot_moves<G: Tabletop>(
    mut table: ResMut<TableMatch<G>>,
    busy: Res<TableBusy>,
    time: Res<Time>,
    mut wait: Local<f32>,
    mut bots: Local<Vec<Option<Box<dyn Bot<G>>>>>,
    mut rng: Local<Option<MatchRng>>,
    mut played: MessageWriter<FactsPlayed<G>>,
) {
    if table.replay.is_some() || table.state().outcome().is_some() {
        return;
    }
    let Some(player) = table
        .state()
        .to_act()
        .into_iter()
        .find(|p| table.seats.get(p.index()).is_some_and(Seat::is_bot))
    else {
        *wait = 0.0;
        return;
    };
    // While a person decides in a simultaneous choice, the bot answers at once.
    let person_waiting = !table.people_to_act().is_empty();
    *wait += time.delta_secs();
    if busy.0 > 0.0 || (*wait < 0.5 && !person_waiting) {
        return;
    }
    *wait = 0.0;
    if bots.len() != table.seats.len() {
        *bots = table
            .seats
            .iter()
            .map(|s| match s {
                Seat::Bot(name) => G::bot(name),
                Seat::Person => None,
            })
            .collect();
    }
    let rng = rng.get_or_insert_with(|| MatchRng::new(super::session::clock_seed()));
    let Some(bot) = bots.get_mut(player.index()).and_then(Option::as_mut) else {
        return;
    };
    match bot.choose(table.state(), player, rng) {
        Some(action) => match table.play(player, &action) {
            Ok(facts) => {
                played.write(FactsPlayed { player, facts });
                autosave(&table);
            }
            Err(e) => table.notice = Some(format!("the bot erred: {e}")),
        },
        None => table.notice = Some("the bot has nothing to play".into()),
    }
}

/// Lets the animation clock run down.
fn hand_over<G: Tabletop>(mut busy: ResMut<TableBusy>, time: Res<Time>) {
    busy.0 = (busy.0 - time.delta_secs()).max(0.0);
}

/// Leaves the table: the match is dropped (it is autosaved).
fn leave<G: Tabletop>(mut commands: Commands) {
    commands.remove_resource::<TableMatch<G>>();
}

