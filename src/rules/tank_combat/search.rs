//! The planning tank commander: an information-set search over what its seat cannot
//! see, the other players' hands and the draw pile's order.
//!
//! It deals the cards it cannot see at random into worlds it cannot tell from the real one
//! ([`TankCombat::with_unseen_dealt`]), and in every world plays the match out from each of
//! its legal actions, the heuristic bot playing every seat after it. The action with the
//! best mean result over the worlds is played. The real hands and pile order are never
//! read: only which cards are unseen, which follows from the view.

use super::action::Action;
use super::bot::HeuristicBot;
use super::{Phase, TankCombat};
use crate::framework::bot::Bot;
use crate::framework::rng::derive_seed;
use crate::framework::{Game, MatchRng, PlayerId};

/// A playout that has not ended after this many actions is scored as it stands.
const PLAYOUT_CAP: u32 = 1_000;

/// A planning tank commander (`planner`).
#[derive(Clone, Copy, Debug)]
pub struct PlannerBot {
    /// Worlds dealt at each decision, at most; every action is played out once in each.
    pub worlds: u32,
    /// Actions played out at each decision, summed over every playout: once a world's
    /// playouts take the sum past it, no further world is dealt. It keeps the long
    /// decisions (many actions to weigh, long matches ahead) under half a second.
    pub budget: u64,
}

impl Default for PlannerBot {
    fn default() -> Self {
        Self {
            worlds: 48,
            budget: 200_000,
        }
    }
}

/// What the match is worth to `me`: its share of the win (1 alone, ½ shared, 0 lost),
/// or, for a playout cut short, its share of the hit points left.
fn result(game: &TankCombat, me: PlayerId) -> f64 {
    if let Some(outcome) = game.outcome() {
        if outcome.winners.is_empty() {
            return 1.0 / game.tanks.len() as f64;
        }
        return if outcome.winners.contains(&me) {
            1.0 / outcome.winners.len() as f64
        } else {
            0.0
        };
    }
    let hp = |t: &super::Tank| f64::from(t.hp) + 20.0 * f64::from(t.kills);
    let all: f64 = game.tanks.iter().map(hp).sum();
    if all <= 0.0 {
        return 0.0;
    }
    hp(game.tank(me)) / all
}

/// Plays `game` on with the heuristic bot at every seat, to its end or the cap; returns
/// the actions played.
fn play_on(game: &mut TankCombat, dice: &mut MatchRng) -> u64 {
    let mut heuristic = HeuristicBot;
    for played in 0..PLAYOUT_CAP {
        let Some(&seat) = game.to_act().first() else {
            return u64::from(played);
        };
        let Some(action) = heuristic.choose(game, seat, dice) else {
            return u64::from(played);
        };
        if game.apply(seat, &action, dice).is_err() {
            return u64::from(played);
        }
    }
    u64::from(PLAYOUT_CAP)
}

impl PlannerBot {
    /// The action with the best mean result over the worlds drawn from `seed`. The
    /// heuristic bot's own choice wins ties.
    fn plan(&self, game: &TankCombat, player: PlayerId, seed: u64) -> Option<Action> {
        let mut actions = game.legal_actions(player);
        actions.dedup();
        let preferred = HeuristicBot.choose(game, player, &mut MatchRng::new(seed))?;
        if actions.len() <= 1 || matches!(game.phase, Phase::NotStarted | Phase::Over) {
            return Some(preferred);
        }
        let mut totals: Vec<f64> = actions
            .iter()
            .map(|&a| if a == preferred { 1e-6 } else { 0.0 })
            .collect();
        let mut spent = 0;
        // World by world, every action in each: a difference between two actions is
        // theirs, not the deal's or the dice's.
        for w in 0..u64::from(self.worlds) {
            if spent >= self.budget {
                break;
            }
            let mut deal = MatchRng::new(derive_seed(seed, w));
            let world = game.with_unseen_dealt(player, &mut deal);
            let dice = deal.next_u64();
            for (action, total) in actions.iter().zip(&mut totals) {
                let mut g = world.clone();
                let mut dice = MatchRng::new(dice);
                if g.apply(player, action, &mut dice).is_err() {
                    *total = f64::NEG_INFINITY;
                    continue;
                }
                spent += 1 + play_on(&mut g, &mut dice);
                *total += result(&g, player);
            }
        }
        let mut best: Option<(f64, Action)> = None;
        for (&action, &total) in actions.iter().zip(&totals) {
            if best.is_none_or(|(b, _)| total > b) {
                best = Some((total, action));
            }
        }
        best.map(|(_, a)| a)
    }
}

impl Bot<TankCombat> for PlannerBot {
    fn name(&self) -> &str {
        "planner"
    }

    fn choose(
        &mut self,
        game: &TankCombat,
        player: PlayerId,
        rng: &mut MatchRng,
    ) -> Option<Action> {
        if !game.to_act().contains(&player) {
            return None;
        }
        self.plan(game, player, rng.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tank_combat::CombatSetup;
    use crate::rules::tank_combat::tests::{assert_blind_to_the_unseen, unseen_dealt_anew};

    #[test]
    fn a_dealt_world_depends_only_on_what_the_seat_sees() {
        let mut game = TankCombat::new(&CombatSetup::builtin_default());
        game.begin(&mut MatchRng::new(3));
        let other = unseen_dealt_anew(&game, PlayerId(0), &mut MatchRng::new(4));
        assert!(other.tanks != game.tanks || other.deck != game.deck);
        let a = game.with_unseen_dealt(PlayerId(0), &mut MatchRng::new(7));
        let b = other.with_unseen_dealt(PlayerId(0), &mut MatchRng::new(7));
        assert_eq!(a.card_count(), game.card_count());
        assert_eq!((a.tanks, a.deck), (b.tanks, b.deck));
    }

    #[test]
    fn the_planner_chooses_the_same_whatever_it_cannot_see() {
        let mut bot = PlannerBot {
            worlds: 4,
            ..PlannerBot::default()
        };
        let four = crate::framework::playable::load_setup::<TankCombat>(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("scenarios/tank-combat/deathmatch-4.ron"),
            &(),
        )
        .expect("the shipped four-player setup");
        for setup in [CombatSetup::builtin_default(), four] {
            let choices = assert_blind_to_the_unseen(&mut bot, &setup, 0..3, 30);
            assert!(choices > 15, "only {choices} real choices compared");
        }
    }

    /// A measurement: the planner against the heuristic bot on every shipped setup, every
    /// seat, with the time of each decision.
    #[test]
    #[ignore = "a measurement: TANKTABLE_GAMES=200 cargo test --release --no-default-features --lib tank_combat::search -- --ignored --nocapture"]
    fn planner_strength_against_the_heuristic_bot() {
        use crate::framework::strength::{measure, shipped_setups};
        let games = std::env::var("TANKTABLE_GAMES")
            .ok()
            .and_then(|g| g.parse().ok())
            .unwrap_or(4);
        let setups = shipped_setups("tank-combat").expect("the shipped setups");
        let strength =
            measure::<TankCombat>(&setups, &(), ("planner", "heuristic"), games, 2).expect("plays");
        println!("{}", strength.table("planner", "heuristic"));
    }
}
