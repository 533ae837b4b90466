//! The heuristic commander.
//!
//! It reads only public things (arsenals, the Battlefield, the declarations), which is
//! everything in this game. It saves its Nuke for a rich Battlefield: a War, a crowded
//! opening roll, or an announced Nuke that it must answer.

use super::{Action, BattleTanks, DieKind, Phase};
use crate::framework::bot::Bot;
use crate::framework::{Game, MatchRng, PlayerId};

/// A sensible commander.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicBot;

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
        let actions = game.legal_actions(player);
        let me = game.player(player);
        // Worth a Nuke: a War (a pot already on the table), a big pot, or an answer to
        // someone else's Nuke when there is something to win.
        let rich = game.at_war() || stake(game) >= 5;
        let worth = rich || (nuke_announced(game, player) && stake(game) >= 3);
        // The last Tank: keep it and roll the Nuke instead, so the arsenal lasts.
        let last_tank = me.tanks == 1 && me.nukes > 0;
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
}
