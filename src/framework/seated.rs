//! A match at a table: who sits in each seat (a person or a bot), whose eyes the screen
//! is for, what may be taken back, and a record being stepped through as a replay.
//!
//! [`SeatedMatch`] is the whole logic of a game session, for every game, with no engine:
//! the client wraps it in a resource, and tests drive it directly.
//!
//! ```
//! use tanktable::framework::{PlayerId, Seat, SeatedMatch};
//! use tanktable::rules::range_duel::{Action, DuelSetup, RangeDuel};
//!
//! let seats = vec![Seat::Person, Seat::Bot("heuristic".into())];
//! let mut m = SeatedMatch::<RangeDuel>::new(DuelSetup::builtin_default(), "duel".into(), 3, seats)
//!     .unwrap();
//! m.play(PlayerId(0), &Action::HullDown).unwrap();
//! let (bot, action) = m.bot_choice().unwrap().unwrap();
//! assert_eq!(bot, PlayerId(1));
//! m.play(bot, &action).unwrap();
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

use super::hash::format_hash;
use super::kind::GameKind;
use super::playable::{self, Playable, Recorded, ReplayError, StartError, UnknownBot};
use super::{Match, MatchRng, PlayError, PlayerId};

mod replay;

pub use replay::{Replay, Seen};

/// Who sits in a seat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seat {
    /// A person at this computer.
    #[default]
    Person,
    /// A bot, by its name in [`Playable::bot_names`].
    Bot(String),
    /// A person at another machine, by name: the seat of a game played across machines,
    /// as a joined seat's copy of it shows the others. Nothing here plays it.
    Remote(String),
}

impl Seat {
    /// A person's seat.
    #[must_use]
    pub fn is_person(&self) -> bool {
        matches!(self, Seat::Person)
    }

    /// Reads a seat as written on the command line: `person` (or `human`), else a bot's
    /// name (checked against the game later).
    #[must_use]
    pub fn parse(text: &str) -> Self {
        match text.trim() {
            "person" | "human" => Seat::Person,
            name => Seat::Bot(name.to_string()),
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Person => f.write_str("person"),
            Seat::Bot(name) => write!(f, "{name} bot"),
            Seat::Remote(name) => write!(f, "{name} (remote)"),
        }
    }
}

/// Why a seated match refuses what was asked of it. Each says so in the sentence the
/// screen shows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeatError {
    /// What an action would meet in a replay: it is stepped through, not played.
    #[error("this is a replay")]
    Replay,
    /// An action played in a replay.
    #[error("this is a replay: step through it with the timeline")]
    PlayInReplay,
    /// Undo or going back in a replay (a notice of its own, so capitalised).
    #[error("This is a replay: step through it with the timeline")]
    TakeBackInReplay,
    /// Playing on from a seat's own copy of a game played across machines.
    #[error(
        "A seat's copy cannot be played on: it holds only what the seat was shown, and the dice stayed with the host"
    )]
    SeatCopy,
    /// Undo before any person has acted.
    #[error("No action of a person to take back yet")]
    NothingToUndo,
    /// Undo after dice were rolled (or cards drawn), outside playtest mode.
    #[error(
        "Turn on playtest mode to take this back: dice were rolled (or cards drawn) since, and in {game} they are known once played"
    )]
    DiceKnown { game: GameKind },
    /// Undo in a game with secrets, outside playtest mode.
    #[error(
        "Turn on playtest mode to take this back: in a game with secrets an action may have shown something hidden"
    )]
    HiddenShown,
    /// Undo of another person's action while hands are hidden in hot seat.
    #[error("Only {player} may take back their own action")]
    NotYourAction { player: String },
    /// Going back to an earlier action outside playtest mode, in a game of chance.
    #[error("Turn on playtest mode to go back to an earlier action")]
    PlaytestOff,
    /// Going back to an earlier action while hands are hidden in hot seat.
    #[error("With hidden hands in hot seat each person may take back only their own action")]
    HiddenHands,
    /// The game has no bot at all to play for the people (autoplay).
    #[error("the game has no bot")]
    NoBot,
    /// The bot of a seat has nothing to offer: a bug in the bot or the rules.
    #[error("the {bot} bot of {player} has no action")]
    BotHasNoAction { bot: String, player: String },
    /// A bot playing on has nothing to offer (autoplay): a bug in the bot or the rules.
    #[error("the bot has no action")]
    AutoplayHasNoAction,
    /// A seat names a bot the game does not have.
    #[error(transparent)]
    UnknownBot(#[from] UnknownBot),
    /// The match refuses the action: over, not this player's turn, or the rules say no.
    #[error(transparent)]
    Play(#[from] PlayError),
    /// The match cannot start.
    #[error(transparent)]
    Start(#[from] StartError),
    /// A record that does not replay.
    #[error(transparent)]
    Record(#[from] ReplayError),
}

impl SeatError {
    /// The id of the rule of the game's rules map that refuses the action, where one does
    /// (the screen links the refusal to it).
    #[must_use]
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            Self::Play(e) => e.rule(),
            _ => None,
        }
    }
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// The action the line belongs to; `None` for the opening (and notices).
    pub step: Option<usize>,
    /// Which of that action's facts it tells; `None` for the line naming the action.
    pub fact: Option<usize>,
    pub text: String,
}

/// A match with its seats. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct SeatedMatch<G: Playable> {
    pub game: Match<G>,
    pub setup: G::Setup,
    /// Where the setup came from, for titles ("scenarios/skirmish.ron").
    pub source: String,
    pub seed: u64,
    /// Scripted dice of a loaded record.
    pub dice: Vec<u32>,
    pub seats: Vec<Seat>,
    /// A record being stepped through (the match holds the actions shown so far).
    pub replay: Option<Replay<G>>,
    /// The seat whose eyes the screen is for; `None` shows everything (replays, bots
    /// only, games without secrets).
    pub viewer: Option<PlayerId>,
    /// The privacy screen is up: the screen waits for this seat's person.
    pub pass_to: Option<PlayerId>,
    /// Playtest mode: any action may be taken back, dice included.
    pub playtest: bool,
    bot_rng: MatchRng,
}

impl<G: Playable> SeatedMatch<G> {
    /// A new match on `setup`, with `seats` (missing seats are people).
    ///
    /// # Errors
    /// [`SeatError::Start`] when the setup cannot start a match,
    /// [`SeatError::UnknownBot`] when a bot name is unknown.
    pub fn new(
        setup: G::Setup,
        source: String,
        seed: u64,
        seats: Vec<Seat>,
    ) -> Result<Self, SeatError> {
        let game = playable::start::<G>(&setup, seed, &[])?;
        Self::around(game, setup, source, seed, Vec::new(), seats, None)
    }

    /// Opens a record: to play on from its end, or as a replay from its start. The seats
    /// are the record's unless `seats` names them.
    ///
    /// # Errors
    /// [`SeatError::Record`]: the first action that does not play, or a final state that
    /// differs; [`SeatError::Start`] or [`SeatError::UnknownBot`] as [`SeatedMatch::new`].
    pub fn from_record(
        record: Recorded<G>,
        source: String,
        as_replay: bool,
        seats: Option<Vec<Seat>>,
    ) -> Result<Self, SeatError> {
        let seats = seats.unwrap_or_else(|| record.seats.clone());
        if as_replay {
            let full = playable::replay(&record)?;
            let log = log_of(&full, None);
            let game = playable::start::<G>(&record.setup, record.seed, &record.dice)?;
            return Self::around(
                game,
                record.setup,
                source,
                record.seed,
                record.dice,
                seats,
                Some(Replay {
                    actions: record.actions,
                    log,
                    seen: None,
                }),
            );
        }
        let game = playable::replay(&record)?;
        Self::around(
            game,
            record.setup,
            source,
            record.seed,
            record.dice,
            seats,
            None,
        )
    }

    fn around(
        game: Match<G>,
        setup: G::Setup,
        source: String,
        seed: u64,
        dice: Vec<u32>,
        mut seats: Vec<Seat>,
        replay: Option<Replay<G>>,
    ) -> Result<Self, SeatError> {
        let n = game.state().player_count();
        seats.resize(n, Seat::Person);
        seats.truncate(n);
        for seat in &seats {
            if let Seat::Bot(name) = seat
                && G::bot(name).is_none()
            {
                return Err(UnknownBot::of::<G>(name).into());
            }
        }
        let mut m = Self {
            game,
            setup,
            source,
            seed,
            dice,
            seats,
            replay,
            viewer: None,
            pass_to: None,
            playtest: false,
            bot_rng: MatchRng::new(seed ^ 0x5EA7),
        };
        m.viewer = m.settled_viewer();
        // People sharing a screen with secrets start behind the privacy screen too, so
        // that nobody sees the first player's hand by accident.
        if m.privacy_matters() {
            m.pass_to = m.viewer;
        }
        Ok(m)
    }

    /// A seat's copy of a game held by a host on another machine: `state` as the host
    /// showed it to this seat, with no history and no dice of its own (they stay on the
    /// host). `seats` are this machine's person and the others' remote seats.
    #[must_use]
    pub fn mirrored(state: G, setup: G::Setup, source: String, seats: Vec<Seat>) -> Self {
        let mut m = Self {
            game: Match::mirrored(state),
            setup,
            source,
            seed: 0,
            dice: Vec::new(),
            seats,
            replay: None,
            viewer: None,
            pass_to: None,
            playtest: false,
            bot_rng: MatchRng::new(0),
        };
        m.viewer = m.settled_viewer();
        m
    }

    /// Puts the host's newer copy in place of a mirrored match's state.
    pub fn mirror_to(&mut self, state: G) {
        self.game = Match::mirrored(state);
        self.viewer = self.settled_viewer();
    }

    /// The current state.
    #[must_use]
    pub fn state(&self) -> &G {
        self.game.state()
    }

    /// People at the table.
    #[must_use]
    pub fn people(&self) -> usize {
        self.seats.iter().filter(|s| s.is_person()).count()
    }

    /// Whether the screen passes between people who hold secrets.
    fn privacy_matters(&self) -> bool {
        self.state().holds_secrets() && self.people() > 1 && self.replay.is_none()
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
            .find(|p| self.seats.get(p.index()).is_some_and(Seat::is_person))
    }

    /// The first seat, if it is a person's.
    fn first_person(&self) -> Option<PlayerId> {
        self.seats
            .iter()
            .position(Seat::is_person)
            .and_then(|i| u8::try_from(i).ok())
            .map(PlayerId)
    }

    /// The seat the screen should show once nothing is pending: everything in games with
    /// no secrets; else the person deciding, the only person, or the last one shown.
    fn settled_viewer(&self) -> Option<PlayerId> {
        if let Some(seen) = self.replay.as_ref().and_then(|r| r.seen.as_ref()) {
            // The copy was kept for one seat: its stand-ins for others' secrets stay hidden.
            return seen.seat;
        }
        if !self.state().holds_secrets() || self.replay.is_some() || self.people() == 0 {
            return None;
        }
        if let Some(p) = self.deciding() {
            return Some(p);
        }
        if self.people() == 1 {
            return self.first_person();
        }
        if self.state().outcome().is_some() {
            return None;
        }
        // Several people and nobody deciding (the bots play): keep the last person's eyes,
        // or the first person's before anyone has looked. Never everything: that would
        // show every hand.
        self.viewer.or_else(|| self.first_person())
    }

    /// After a change: whose screen comes next, behind the privacy screen when secrets
    /// would pass from one person to another. Returns whether anything changed.
    pub fn hand_over(&mut self) -> bool {
        if self.pass_to.is_some() {
            return false;
        }
        let next = self.settled_viewer();
        if next == self.viewer {
            return false;
        }
        if self.privacy_matters() && next.is_some() {
            self.pass_to = next;
        } else {
            self.viewer = next;
        }
        true
    }

    /// The person at the screen is ready: drop the privacy screen.
    pub fn reveal(&mut self) {
        if let Some(p) = self.pass_to.take() {
            self.viewer = Some(p);
        }
    }

    /// Plays `action` for `player`.
    ///
    /// # Errors
    /// [`SeatError::Play`]: why the match or its rules refuse it (with the rule, see
    /// [`SeatError::rule`]); a replay refuses every action
    /// ([`SeatError::PlayInReplay`]).
    pub fn play(
        &mut self,
        player: PlayerId,
        action: &G::Action,
    ) -> Result<Vec<G::Fact>, SeatError> {
        if self.replay.is_some() {
            return Err(SeatError::PlayInReplay);
        }
        self.game
            .play(player, action)
            .map(<[G::Fact]>::to_vec)
            .map_err(SeatError::Play)
    }

    /// Why `action` would be refused for `player` now, if it would: [`SeatError::Play`]
    /// (its rule in [`SeatError::rule`]), or [`SeatError::Replay`]. Clones the state
    /// (never the history), or less where the game can check without playing.
    #[must_use]
    pub fn refusal(&self, player: PlayerId, action: &G::Action) -> Option<SeatError> {
        if self.replay.is_some() {
            return Some(SeatError::Replay);
        }
        self.game.refusal(player, action).map(SeatError::Play)
    }

    /// The seat of the bot that must act now, with its name.
    #[must_use]
    pub fn bot_to_act(&self) -> Option<(PlayerId, &str)> {
        if self.replay.is_some() || self.state().outcome().is_some() {
            return None;
        }
        self.state()
            .to_act()
            .into_iter()
            .find_map(|p| match self.seats.get(p.index()) {
                Some(Seat::Bot(name)) => Some((p, name.as_str())),
                _ => None,
            })
    }

    /// The bots' generator (the client lends it to a bot thinking off the main thread).
    pub fn bot_rng_mut(&mut self) -> &mut MatchRng {
        &mut self.bot_rng
    }

    /// What the bot that must act now would play, with its own generator.
    ///
    /// # Errors
    /// `Some(Err(SeatError::BotHasNoAction))` when the bot has nothing to offer: a bug in
    /// the bot or the rules.
    pub fn bot_choice(&mut self) -> Option<Result<(PlayerId, G::Action), SeatError>> {
        let (player, name) = self.bot_to_act()?;
        let mut bot = G::bot(name)?;
        let name = name.to_string();
        let choice = bot.choose(self.game.state(), player, &mut self.bot_rng);
        Some(
            choice
                .map(|a| (player, a))
                .ok_or_else(|| SeatError::BotHasNoAction {
                    bot: name,
                    player: self.state().player_name(player),
                }),
        )
    }

    /// Lets the bots play up to `n` actions, a seat's own bot for bot seats and the game's
    /// default bot for people's (scripted runs and tests). Stops at the end of the match.
    ///
    /// # Errors
    /// A bot without an action ([`SeatError::AutoplayHasNoAction`]), or an illegal one
    /// ([`SeatError::Play`]).
    pub fn autoplay(&mut self, n: usize) -> Result<(), SeatError> {
        let mut default = G::bot(G::bot_names()[0]).ok_or(SeatError::NoBot)?;
        for _ in 0..n {
            if self.state().outcome().is_some() {
                break;
            }
            let Some(&player) = self.state().to_act().first() else {
                break;
            };
            let action = match self.seats.get(player.index()) {
                Some(Seat::Bot(name)) => G::bot(name)
                    .and_then(|mut b| b.choose(self.game.state(), player, &mut self.bot_rng)),
                _ => default.choose(self.game.state(), player, &mut self.bot_rng),
            }
            .ok_or(SeatError::AutoplayHasNoAction)?;
            self.play(player, &action)?;
        }
        self.viewer = self.settled_viewer();
        if self.privacy_matters() {
            self.pass_to = self.viewer;
        }
        Ok(())
    }

    /// The number of actions to go back to for Undo: the last person's action and the
    /// bots' answers after it.
    ///
    /// # Errors
    /// Why the person at the screen may not take anything back now.
    pub fn can_undo(&self) -> Result<usize, SeatError> {
        if self.replay.is_some() {
            return Err(SeatError::TakeBackInReplay);
        }
        let history = self.game.history();
        let last = history
            .iter()
            .rposition(|s| {
                self.seats
                    .get(s.player.index())
                    .is_some_and(Seat::is_person)
            })
            .ok_or(SeatError::NothingToUndo)?;
        // An action that drew nothing random (a move, a turn, an activation ended) is
        // taken back in any mode, where the game holds no secrets a step could have shown.
        let drawn = self.game.draws_since(last) > 0;
        let secrets = self.state().holds_secrets();
        if G::CHANCE && !self.playtest && (drawn || secrets) {
            return Err(if drawn {
                SeatError::DiceKnown { game: G::KIND }
            } else {
                SeatError::HiddenShown
            });
        }
        let player = history[last].player;
        if self.privacy_matters() && Some(player) != self.viewer {
            return Err(SeatError::NotYourAction {
                player: self.state().player_name(player),
            });
        }
        Ok(last)
    }

    /// Takes back the last person's action and the bots' answers after it.
    ///
    /// # Errors
    /// Why not, as [`SeatedMatch::can_undo`].
    pub fn undo(&mut self) -> Result<(), SeatError> {
        let len = self.can_undo()?;
        self.rewind(len);
        Ok(())
    }

    /// Whether the person at the screen may go back to any earlier action.
    ///
    /// # Errors
    /// Why not: [`SeatError::TakeBackInReplay`], [`SeatError::PlaytestOff`] or
    /// [`SeatError::HiddenHands`].
    pub fn can_go_back(&self) -> Result<(), SeatError> {
        if self.replay.is_some() {
            return Err(SeatError::TakeBackInReplay);
        }
        if G::CHANCE && !self.playtest {
            return Err(SeatError::PlaytestOff);
        }
        if self.privacy_matters() {
            return Err(SeatError::HiddenHands);
        }
        Ok(())
    }

    /// Goes back to the state after `len` actions, dice included.
    ///
    /// # Errors
    /// Why not, as [`SeatedMatch::can_go_back`].
    pub fn go_back(&mut self, len: usize) -> Result<(), SeatError> {
        self.can_go_back()?;
        self.rewind(len);
        Ok(())
    }

    fn rewind(&mut self, len: usize) {
        self.game.undo_to(len);
        self.pass_to = None;
        self.hand_over();
    }

    /// The match so far as a record that replays exactly.
    #[must_use]
    pub fn record(&self) -> Recorded<G> {
        Recorded::of(&self.setup, self.seed, &self.dice, &self.seats, &self.game)
    }

    /// A new match on the same setup and seats, with `seed`.
    ///
    /// # Errors
    /// As [`SeatedMatch::new`].
    pub fn rematch(&self, seed: u64) -> Result<Self, SeatError> {
        let mut m = Self::new(
            self.setup.clone(),
            self.source.clone(),
            seed,
            self.seats.clone(),
        )?;
        m.playtest = self.playtest;
        Ok(m)
    }

    /// The match started again on `setup` (an edited version of its own), with its seats,
    /// seed and scripted dice, and its actions played again in order for as long as they
    /// play; with how many did.
    ///
    /// # Errors
    /// A game that cannot start on `setup` ([`SeatError::Record`], placed at the setup).
    pub fn replayed_on(&self, setup: G::Setup) -> Result<(Self, usize), SeatError> {
        let mut record = self.record();
        record.setup = setup;
        record.actions.clear();
        record.final_hash = None;
        let mut seated = Self::from_record(record, self.source.clone(), false, None)?;
        seated.playtest = self.playtest;
        let mut carried = 0;
        for step in self.game.history() {
            if seated.play(step.player, &step.action).is_err() {
                break;
            }
            carried += 1;
        }
        Ok((seated, carried))
    }

    /// Puts a person or a bot in `player`'s seat.
    ///
    /// # Errors
    /// [`SeatError::UnknownBot`]: an unknown bot name.
    pub fn set_seat(&mut self, player: PlayerId, seat: Seat) -> Result<(), SeatError> {
        if let Seat::Bot(name) = &seat
            && G::bot(name).is_none()
        {
            return Err(UnknownBot::of::<G>(name).into());
        }
        if let Some(s) = self.seats.get_mut(player.index()) {
            *s = seat;
        }
        self.pass_to = None;
        self.hand_over();
        Ok(())
    }

    /// The log as the screen's seat may read it: in a replay the whole record's (lines
    /// after the current action are still to come).
    #[must_use]
    pub fn log(&self) -> Vec<LogLine> {
        match &self.replay {
            Some(r) => r.log.clone(),
            None => log_of(&self.game, self.viewer),
        }
    }

    /// The final state hash, for the end screen and bug reports.
    #[must_use]
    pub fn hash_text(&self) -> String {
        format_hash(self.game.state_hash())
    }
}

/// The log of `game` as `viewer` may read it.
fn log_of<G: Playable>(game: &Match<G>, viewer: Option<PlayerId>) -> Vec<LogLine> {
    let mut out = opening_log(game, viewer);
    for i in 0..game.history().len() {
        out.extend(step_log(game, i, viewer));
    }
    out
}

/// The opening's lines of the log as `viewer` may read them.
pub(crate) fn opening_log<G: Playable>(game: &Match<G>, viewer: Option<PlayerId>) -> Vec<LogLine> {
    let state = game.state();
    game.opening_facts()
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            state.describe_fact_for(f, viewer).map(|text| LogLine {
                step: None,
                fact: Some(i),
                text,
            })
        })
        .collect()
}

/// Action `i`'s lines of the log as `viewer` may read them: the action, then its facts.
pub(crate) fn step_log<G: Playable>(
    game: &Match<G>,
    i: usize,
    viewer: Option<PlayerId>,
) -> Vec<LogLine> {
    let state = game.state();
    let Some(step) = game.history().get(i) else {
        return Vec::new();
    };
    let who = state.player_name(step.player);
    let own = viewer.is_none() || viewer == Some(step.player);
    let text = match step
        .state_before()
        .describe_action_for(&step.action, viewer)
    {
        _ if own => format!("{who}: {}", step.describe()),
        Some(seen) => format!("{who}: {seen}"),
        None => format!("{who} acts"),
    };
    let mut out = vec![LogLine {
        step: Some(i),
        fact: None,
        text,
    }];
    out.extend(step.facts.iter().enumerate().filter_map(|(k, f)| {
        state.describe_fact_for(f, viewer).map(|text| LogLine {
            step: Some(i),
            fact: Some(k),
            text,
        })
    }));
    out
}
