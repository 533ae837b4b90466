//! Bots that play any game through the [`Game`] trait.

use super::{Game, MatchRng, Outcome, PlayerId, Refusal};

/// Something that picks an action for a seat.
pub trait Bot<G: Game>: Send {
    /// A short name for reports.
    fn name(&self) -> &str;

    /// Picks one of `player`'s legal actions. `rng` is the bot's own generator, never the
    /// match's, so a bot's choices do not change the match's dice.
    fn choose(&mut self, game: &G, player: PlayerId, rng: &mut MatchRng) -> Option<G::Action>;
}

/// Picks uniformly among the legal actions.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl<G: Game> Bot<G> for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, game: &G, player: PlayerId, rng: &mut MatchRng) -> Option<G::Action> {
        let actions = game.legal_actions(player);
        if actions.is_empty() {
            return None;
        }
        let i = rng.pick(actions.len());
        actions.into_iter().nth(i)
    }
}

/// The result of a bot-played match.
#[derive(Clone, Debug)]
pub struct Played<G: Game> {
    pub outcome: Option<Outcome>,
    pub actions: Vec<(PlayerId, G::Action)>,
    pub state: G,
}

/// Why bots could not play a match on: a bug in a bot or the rules, reported rather than
/// looping forever.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayOutError {
    /// The match goes on, yet nobody is asked to act.
    #[error("the match is not over but nobody may act")]
    NobodyToAct,
    /// The seat asked to act has no bot.
    #[error("no bot for {0}")]
    NoBot(PlayerId),
    /// The bot asked to act offers nothing.
    #[error("bot `{bot}` had no action for {player}")]
    NoAction { bot: String, player: PlayerId },
    /// The bot chose an action the rules refuse.
    #[error("bot `{bot}` chose an illegal action: {refusal}")]
    Illegal { bot: String, refusal: Refusal },
}

impl PlayOutError {
    /// The id of the rule of the game's rules map that refused a bot's action, if one did.
    #[must_use]
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            Self::Illegal { refusal, .. } => Some(refusal.rule),
            Self::NobodyToAct | Self::NoBot(_) | Self::NoAction { .. } => None,
        }
    }
}

/// Plays a match to the end (or `max_actions`) with one bot per seat.
///
/// # Errors
/// [`PlayOutError`] when a bot offers an illegal action or has nothing to offer while
/// asked to act, or nobody is asked to act before the end.
pub fn play_out<G: Game>(
    mut game: G,
    bots: &mut [Box<dyn Bot<G>>],
    rng: &mut MatchRng,
    bot_rng: &mut MatchRng,
    max_actions: usize,
    mut on_facts: impl FnMut(&G, &[G::Fact]),
) -> Result<Played<G>, PlayOutError> {
    let opening = game.begin(rng);
    on_facts(&game, &opening);
    play_on(game, bots, rng, bot_rng, max_actions, on_facts)
}

/// Plays a match already under way (begun, perhaps part played) to the end or
/// `max_actions` more actions, with one bot per seat.
///
/// # Errors
/// As [`play_out`].
pub fn play_on<G: Game>(
    mut game: G,
    bots: &mut [Box<dyn Bot<G>>],
    rng: &mut MatchRng,
    bot_rng: &mut MatchRng,
    max_actions: usize,
    mut on_facts: impl FnMut(&G, &[G::Fact]),
) -> Result<Played<G>, PlayOutError> {
    let mut actions = Vec::new();
    while game.outcome().is_none() && actions.len() < max_actions {
        let Some(&player) = game.to_act().first() else {
            return Err(PlayOutError::NobodyToAct);
        };
        let bot = bots
            .get_mut(player.index())
            .ok_or(PlayOutError::NoBot(player))?;
        let action = bot
            .choose(&game, player, bot_rng)
            .ok_or_else(|| PlayOutError::NoAction {
                bot: bot.name().to_string(),
                player,
            })?;
        let facts = game
            .apply(player, &action, rng)
            .map_err(|refusal| PlayOutError::Illegal {
                bot: bot.name().to_string(),
                refusal,
            })?;
        on_facts(&game, &facts);
        actions.push((player, action));
    }
    Ok(Played {
        outcome: game.outcome(),
        actions,
        state: game,
    })
}
