//! The planning duellist: an information-set search over the one thing its seat cannot
//! see, the enemy's order this turn.
//!
//! It draws the enemy's order many times from a model built from what the seat sees
//! (what the heuristic bot would order in the enemy's seat, worked out on the duel with
//! both orders wiped, or any order the enemy may give), plays the turn out against each
//! draw with dice of its own, and takes the order whose turns end best on the heuristic
//! bot's measure of a position. The enemy's real order, given or not, is never read.
//!
//! Searching deeper measured weaker: playing every turn on to the duel's end, the
//! heuristic bot driving both tanks, scored about 47% against the heuristic bot on the
//! default setup (64 playouts an order), as the luck of whole duels drowned the
//! difference between two orders; one turn scored by the position scores about 60%.

use super::RangeDuel;
use super::action::Action;
use super::bot::HeuristicBot;
use crate::framework::bot::Bot;
use crate::framework::rng::derive_seed;
use crate::framework::{Game, MatchRng, PlayerId};

/// A planning duellist (`planner`).
#[derive(Clone, Copy, Debug)]
pub struct PlannerBot {
    /// Turns played from each of its orders, each against an enemy order drawn from the
    /// model and with dice of its own (turn `j` of every order draws the same).
    pub samples: u32,
    /// The weight of the model's order among the enemy's orders; the rest is spread evenly
    /// over every order the enemy may give.
    pub model_weight: f64,
}

impl Default for PlannerBot {
    fn default() -> Self {
        Self {
            samples: 600,
            model_weight: 0.75,
        }
    }
}

/// What the duel after a turn is worth to `me`, from 0 to 1: 1 for a win, ½ for a draw
/// and 0 for a loss once it is over; otherwise the heuristic bot's score of the position
/// (hull, crew and how the range suits each gun) squashed into (0, 1).
fn result(game: &RangeDuel, me: PlayerId) -> f64 {
    let foe = PlayerId(1 - me.0);
    if game.is_over() {
        return match (game.tank(me).knocked_out, game.tank(foe).knocked_out) {
            (false, true) => 1.0,
            (true, false) => 0.0,
            _ => 0.5,
        };
    }
    let s = f64::from(super::bot::score(game, me, foe));
    1.0 / (1.0 + (-s / 2.0).exp())
}

/// Orders `player` may give now, among those worth offering.
fn orders_of(game: &RangeDuel, player: PlayerId) -> Vec<Action> {
    Action::offered()
        .into_iter()
        .filter(|a| game.order_problem(player, *a).is_none())
        .collect()
}

impl PlannerBot {
    /// The chance the bot gives each of the enemy's `orders`, from what the seat sees of
    /// `blank` (the duel with both orders wiped).
    fn enemy_weights(&self, blank: &RangeDuel, foe: PlayerId, orders: &[Action]) -> Vec<f64> {
        let modelled = HeuristicBot.choose(blank, foe, &mut MatchRng::new(0));
        let even = (1.0 - self.model_weight) / orders.len().max(1) as f64;
        orders
            .iter()
            .map(|&o| {
                if Some(o) == modelled {
                    even + self.model_weight
                } else {
                    even
                }
            })
            .collect()
    }

    /// The order whose sampled turns end best, the samples drawn from `seed`.
    fn plan(&self, game: &RangeDuel, player: PlayerId, seed: u64) -> Option<Action> {
        let foe = PlayerId(1 - player.0);
        let mut blank = game.clone();
        blank.orders = [None, None];
        let mine = orders_of(&blank, player);
        let theirs = orders_of(&blank, foe);
        if theirs.is_empty() {
            return mine.first().copied();
        }
        let weights = self.enemy_weights(&blank, foe, &theirs);
        // Turn `j` of every order meets the same enemy order, drawn by the weights, and
        // the same dice: a difference between two orders is theirs, not luck's.
        let replies: Vec<(Action, u64)> = (0..self.samples)
            .map(|j| {
                let mut draw = MatchRng::new(derive_seed(seed, u64::from(j)));
                let mut x = f64::from(draw.roll(1 << 30) - 1) / f64::from(1u32 << 30);
                let mut reply = theirs[0];
                for (&o, &w) in theirs.iter().zip(&weights) {
                    reply = o;
                    if x < w {
                        break;
                    }
                    x -= w;
                }
                (reply, draw.next_u64())
            })
            .collect();
        let mut g = blank.clone();
        let mut best: Option<(f64, Action)> = None;
        for &order in &mine {
            let mut total = 0.0;
            for &(reply, dice) in &replies {
                let mut orders = [reply; 2];
                orders[player.index()] = order;
                g.copy_play_from(&blank);
                let mut dice = MatchRng::new(dice);
                if g.play_quietly(orders, &mut dice) {
                    total += result(&g, player);
                }
            }
            if best.is_none_or(|(b, _)| total > b) {
                best = Some((total, order));
            }
        }
        best.map(|(_, a)| a)
    }
}

impl Bot<RangeDuel> for PlannerBot {
    fn name(&self) -> &str {
        "planner"
    }

    fn choose(&mut self, game: &RangeDuel, player: PlayerId, rng: &mut MatchRng) -> Option<Action> {
        if !game.to_act().contains(&player) {
            return None;
        }
        self.plan(game, player, rng.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::range_duel::DuelSetup;

    #[test]
    fn the_planner_chooses_the_same_whatever_order_the_enemy_gave() {
        let setup = DuelSetup::builtin_default();
        let mut bot = PlannerBot {
            samples: 20,
            ..PlannerBot::default()
        };
        for seed in 0..6u64 {
            let mut game = RangeDuel::new(&setup);
            let mut dice = MatchRng::new(seed);
            game.begin(&mut dice);
            for turn in 0..4u64 {
                if game.outcome().is_some() {
                    break;
                }
                let me = PlayerId(u8::try_from(turn % 2).expect("a seat"));
                let foe = PlayerId(1 - me.0);
                let unseen = game.clone();
                let mut choices = Vec::new();
                // The enemy has not chosen, or has chosen one of several orders.
                for theirs in [None, Some(Action::HullDown), Some(Action::ALL[0])] {
                    let mut g = unseen.clone();
                    if let Some(o) = theirs {
                        g.apply(foe, &o, &mut MatchRng::new(9)).expect("an order");
                    }
                    choices.push(bot.choose(&g, me, &mut MatchRng::new(seed * 10 + turn)));
                }
                assert!(choices[0].is_some());
                assert!(
                    choices.iter().all(|c| *c == choices[0]),
                    "seed {seed} turn {turn}: {choices:?}"
                );
                let mine = choices[0].expect("an order");
                let reply = HeuristicBot
                    .choose(&game, foe, &mut dice)
                    .expect("an order");
                game.apply(me, &mine, &mut dice).expect("legal");
                game.apply(foe, &reply, &mut dice).expect("legal");
            }
        }
    }

    /// A measurement: the planner against the heuristic bot on every shipped setup, both
    /// seats, with the time of each decision.
    #[test]
    #[ignore = "a measurement: TANKTABLE_GAMES=400 cargo test --release --no-default-features --lib range_duel::search -- --ignored --nocapture"]
    fn planner_strength_against_the_heuristic_bot() {
        use crate::framework::strength::{measure, shipped_setups};
        let games = std::env::var("TANKTABLE_GAMES")
            .ok()
            .and_then(|g| g.parse().ok())
            .unwrap_or(20);
        let rules = <RangeDuel as crate::framework::Playable>::load_rules(None).expect("rules");
        let setups = shipped_setups("range-duel").expect("the shipped setups");
        let strength = measure::<RangeDuel>(&setups, &rules, ("planner", "heuristic"), games, 2)
            .expect("plays");
        println!("{}", strength.table("planner", "heuristic"));
    }
}
