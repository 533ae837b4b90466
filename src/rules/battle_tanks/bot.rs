//! The heuristic commander.
//!
//! It reads only public things (arsenals, the Battlefield, the declarations), which is
//! everything in this game. It saves its Nuke for a War, where the pot is richest, and
//! otherwise keeps it for the Final Battle, where a Nuke does four times a Tank's damage.

use super::{Action, BattleTanks, DieKind, Phase};
use crate::framework::bot::Bot;
use crate::framework::{Game, MatchRng, PlayerId};

/// A sensible commander.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicBot;

/// When the bot rolls its Nuke (kept apart so tests can compare policies).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Policy {
    /// Roll the Nuke in any War.
    pub war: bool,
    /// Roll the Nuke when at least this many dice are at stake.
    pub stake: usize,
    /// Answer another's Nuke when at least this many dice are at stake.
    pub answer_stake: usize,
    /// Roll the Nuke rather than the last Tank.
    pub last_tank: bool,
}

/// The heuristic's policy: the Nuke only in a War. Measured over 2,000 four-player games
/// against three random bots (`compare_policies`), this did best (29% of the decided
/// games against a fair 25%); rolling the Nuke whenever allowed did worst (23%), and
/// answering every announcement also lost ground: a Nuke is worth four Tanks in the Final
/// Battle (2/3 of a point of damage against 1/6), so it is spent only on a War's pot.
pub(crate) const POLICY: Policy = Policy {
    war: true,
    stake: usize::MAX,
    answer_stake: usize::MAX,
    last_tank: false,
};

pub(crate) fn choose_with(policy: Policy, game: &BattleTanks, player: PlayerId) -> Option<Action> {
    let actions = game.legal_actions(player);
    let me = game.player(player);
    let rich = (policy.war && game.at_war()) || stake(game) >= policy.stake;
    let worth = rich || (nuke_announced(game, player) && stake(game) >= policy.answer_stake);
    let last_tank = policy.last_tank && me.tanks == 1 && me.nukes > 0;
    let want_nuke = worth || last_tank;
    let pick = |yes: Action, no: Action| {
        if want_nuke && actions.contains(&yes) {
            yes
        } else if actions.contains(&no) {
            no
        } else {
            yes
        }
    };
    let choice = if actions.contains(&Action::Launch) {
        Action::Launch
    } else if actions.contains(&Action::Keep) {
        pick(Action::SwitchToNuke, Action::Keep)
    } else {
        pick(Action::Nuke, Action::Tank)
    };
    actions.contains(&choice).then_some(choice)
}

impl Bot<BattleTanks> for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn choose(
        &mut self,
        game: &BattleTanks,
        player: PlayerId,
        _rng: &mut MatchRng,
    ) -> Option<Action> {
        choose_with(POLICY, game, player)
    }
}

/// A bot with a given policy, for comparing policies in tests.
#[cfg(test)]
pub(crate) struct PolicyBot(pub Policy);

#[cfg(test)]
impl Bot<BattleTanks> for PolicyBot {
    fn name(&self) -> &str {
        "policy"
    }

    fn choose(&mut self, game: &BattleTanks, player: PlayerId, _: &mut MatchRng) -> Option<Action> {
        choose_with(self.0, game, player)
    }
}

/// Dice at stake in the coming roll: the Battlefield plus one per roller.
fn stake(game: &BattleTanks) -> usize {
    let rollers = match game.phase() {
        Phase::Declaring(round) => round.rollers.len(),
        _ => 0,
    };
    game.battlefield().len() + rollers
}

/// Whether a Nuke has been declared by someone else for the coming roll.
fn nuke_announced(game: &BattleTanks, me: PlayerId) -> bool {
    match game.phase() {
        Phase::Declaring(round) => round
            .declarations
            .iter()
            .any(|d| d.player != me && d.kind == Some(DieKind::Nuke)),
        _ => false,
    }
}
