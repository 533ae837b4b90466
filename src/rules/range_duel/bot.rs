//! The heuristic duellist: it weighs each order against every order the enemy might
//! give, playing the turn out on copies of the duel with the enemy's hidden order wiped.

use super::action::Action;
use super::{DuelTank, RangeDuel};
use crate::framework::bot::Bot;
use crate::framework::rng::derive_seed;
use crate::framework::{Game, MatchRng, PlayerId};
use crate::rules::tank_commander::setup::ArmorFacing;

/// Samples of each (own order, enemy order) pair.
const SAMPLES: u64 = 2;

/// A sensible duellist. For each of its orders it plays the coming turn on copies of the
/// duel against each enemy order (the enemy's real order, if already given, is wiped
/// from the copy: the bot sees only what its seat may see), with the same dice for every
/// candidate, and scores the result: hull, crew and knock-outs on both sides, plus how
/// well the new range band suits its gun against the enemy's.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicBot;

/// Chance that one shot from `shooter` at band `band` penetrates or wounds `target`.
fn threat(game: &RangeDuel, shooter: PlayerId, target: PlayerId, band: u8) -> f32 {
    let Ok((needed, _)) = game.to_hit(shooter, band) else {
        return 0.0;
    };
    let strength = game.setup().tank_rules.firing.at_strength;
    let armor = game.tank(target).armor.facing(ArmorFacing::Front);
    let pen = (1..=6u8).filter(|d| d + strength > armor).count();
    let hit = f32::from(7 - needed.clamp(2, 6)) / 6.0;
    hit * (pen as f32 / 6.0 + 0.2)
}

fn value(tank: &DuelTank) -> f32 {
    if tank.knocked_out {
        return -6.0;
    }
    let crew: f32 = tank
        .crew
        .iter()
        .map(|m| match m.wounds {
            0 => 0.35,
            1 => 0.2,
            _ => 0.0,
        })
        .sum();
    f32::from(tank.hull) + crew
}

fn score(game: &RangeDuel, me: PlayerId, foe: PlayerId) -> f32 {
    let position = threat(game, me, foe, game.range()) - threat(game, foe, me, game.range());
    value(game.tank(me)) - value(game.tank(foe)) + 0.5 * position
}

impl Bot<RangeDuel> for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn choose(&mut self, game: &RangeDuel, player: PlayerId, rng: &mut MatchRng) -> Option<Action> {
        if !game.to_act().contains(&player) {
            return None;
        }
        let foe = PlayerId(1 - player.0);
        let base = rng.next_u64();
        let mut blank = game.clone();
        blank.orders = [None, None];
        let mut best: Option<(f32, Action)> = None;
        for mine in Action::offered()
            .into_iter()
            .filter(|a| game.order_problem(player, *a).is_none())
        {
            let mut total = 0.0;
            for (k, theirs) in Action::ALL.into_iter().enumerate() {
                for s in 0..SAMPLES {
                    let mut g = blank.clone();
                    let mut dice = MatchRng::new(derive_seed(base, k as u64 * SAMPLES + s));
                    if g.apply(foe, &theirs, &mut dice).is_err()
                        || g.apply(player, &mine, &mut dice).is_err()
                    {
                        continue;
                    }
                    total += score(&g, player, foe);
                }
            }
            if best.is_none_or(|(b, _)| total > b) {
                best = Some((total, mine));
            }
        }
        best.map(|(_, a)| a)
    }
}
