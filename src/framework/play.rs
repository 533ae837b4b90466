//! A match in progress: the state, its generator, and its history with undo.

use super::{Game, MatchRng, PlayerId};

/// Why an action could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("the match is over")]
    Over,
    #[error("it is not {0}'s decision now")]
    NotYourTurn(String),
    /// The game's rules refuse the action.
    #[error("{0}")]
    Illegal(super::Refusal),
    /// A scripted die (a record's `dice`) did not fit the roll it was drawn for.
    #[error("{0}")]
    Dice(super::Misscript),
}

impl PlayError {
    /// The id of the rule of the game's rules map that refuses the action, where one does.
    #[must_use]
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            Self::Illegal(refusal) => Some(refusal.rule),
            Self::Over | Self::NotYourTurn(_) | Self::Dice(_) => None,
        }
    }
}

/// One played action with what it caused, and the state before it (for undo).
#[derive(Clone, Debug)]
pub struct Step<G: Game> {
    pub player: PlayerId,
    pub action: G::Action,
    pub facts: Vec<G::Fact>,
    before: (G, MatchRng),
}

impl<G: Game> Step<G> {
    /// The state the action was played in (to describe it as it was then).
    pub fn state_before(&self) -> &G {
        &self.before.0
    }

    /// The action in the game's notation, as of the state it was played in.
    pub fn describe(&self) -> String {
        self.before.0.describe_action(&self.action)
    }
}

/// A game in progress.
///
/// ```
/// use tanktable::framework::{Game, Match};
/// use tanktable::rules::tank_commander::{TankCommander, Scenario, Rules};
/// let scenario = Scenario::builtin_default();
/// let game = TankCommander::new(&scenario, &Rules::builtin()).unwrap();
/// let mut m = Match::new(game, 7);
/// let player = m.state().to_act()[0];
/// let action = m.state().legal_actions(player)[0].clone();
/// m.play(player, &action).unwrap();
/// m.undo_to(0);
/// assert_eq!(m.history().len(), 0);
/// ```
#[derive(Clone, Debug)]
pub struct Match<G: Game> {
    state: G,
    rng: MatchRng,
    opening: Vec<G::Fact>,
    history: Vec<Step<G>>,
}

impl<G: Game> Match<G> {
    /// Starts a match with a seeded generator.
    #[must_use]
    pub fn new(state: G, seed: u64) -> Self {
        Self::with_rng(state, MatchRng::new(seed))
    }

    /// Starts a match with a given generator (scripted dice, for tests).
    #[must_use]
    pub fn with_rng(mut state: G, mut rng: MatchRng) -> Self {
        let opening = state.begin(&mut rng);
        Self {
            state,
            rng,
            opening,
            history: Vec::new(),
        }
    }

    /// A match that stands at `state` with no opening and no history of its own, and
    /// no dice: a seat's copy of a game whose dice are held by a host elsewhere.
    #[must_use]
    pub fn mirrored(state: G) -> Self {
        Self {
            state,
            rng: MatchRng::new(0),
            opening: Vec::new(),
            history: Vec::new(),
        }
    }

    /// The current state.
    pub fn state(&self) -> &G {
        &self.state
    }

    /// The generator.
    pub fn rng(&self) -> &MatchRng {
        &self.rng
    }

    /// The generator (to inspect how many draws were made, or push scripted values).
    pub fn rng_mut(&mut self) -> &mut MatchRng {
        &mut self.rng
    }

    /// Facts from [`Game::begin`].
    pub fn opening_facts(&self) -> &[G::Fact] {
        &self.opening
    }

    /// The actions played so far.
    pub fn history(&self) -> &[Step<G>] {
        &self.history
    }

    /// Every fact so far, in order.
    pub fn all_facts(&self) -> impl Iterator<Item = &G::Fact> {
        self.opening
            .iter()
            .chain(self.history.iter().flat_map(|s| s.facts.iter()))
    }

    /// Plays `action` for `player`.
    ///
    /// # Errors
    /// [`PlayError`] when the match is over, `player` need not act, or the action is
    /// illegal; the match is unchanged.
    pub fn play(&mut self, player: PlayerId, action: &G::Action) -> Result<&[G::Fact], PlayError> {
        if self.state.outcome().is_some() {
            return Err(PlayError::Over);
        }
        if !self.state.to_act().contains(&player) {
            return Err(PlayError::NotYourTurn(self.state.player_name(player)));
        }
        let before = (self.state.clone(), self.rng.clone());
        match self.state.apply(player, action, &mut self.rng) {
            Ok(_) if let Some(bad) = self.rng.misscript() => {
                (self.state, self.rng) = before;
                Err(PlayError::Dice(bad))
            }
            Ok(facts) => {
                self.history.push(Step {
                    player,
                    action: action.clone(),
                    facts,
                    before,
                });
                Ok(self.history.last().map_or(&[][..], |s| &s.facts[..]))
            }
            Err(why) => {
                (self.state, self.rng) = before;
                Err(PlayError::Illegal(why))
            }
        }
    }

    /// Takes back every action from index `len` on, leaving `len` actions played.
    /// The generator rewinds too, so replaying the same actions gives the same rolls.
    pub fn undo_to(&mut self, len: usize) {
        if len >= self.history.len() {
            return;
        }
        let (state, rng) = self.history[len].before.clone();
        self.state = state;
        self.rng = rng;
        self.history.truncate(len);
    }

    /// How many random draws (dice, shuffles) were made since `len` actions were played:
    /// none means every action since revealed nothing of the generator.
    #[must_use]
    pub fn draws_since(&self, len: usize) -> u64 {
        self.history
            .get(len)
            .map_or(0, |s| self.rng.draws() - s.before.1.draws())
    }

    /// The current state's hash.
    pub fn state_hash(&self) -> u64 {
        self.state.state_hash()
    }

    /// Why `action` would be refused for `player` now, if it would; the match is not
    /// changed, and only the state (never the history) is cloned to find out.
    #[must_use]
    pub fn refusal(&self, player: PlayerId, action: &G::Action) -> Option<PlayError> {
        if self.state.outcome().is_some() {
            return Some(PlayError::Over);
        }
        if !self.state.to_act().contains(&player) {
            return Some(PlayError::NotYourTurn(self.state.player_name(player)));
        }
        self.state
            .refusal(player, action, &self.rng)
            .map(PlayError::Illegal)
    }
}
