//! The heuristic tank commander. It reads only its seat's [`CombatView`] (its own hand
//! and the public table) and its own legal actions, and scores each action.

use super::action::Action;
use super::card::{Card, CardKind};
use super::{CombatView, TankCombat, TankView};
use crate::framework::bot::Bot;
use crate::framework::{Game, MatchRng, PlayerId};

/// A sensible player: it smokes big or lethal shots at itself, fires when its breech is
/// ready (at the tank it can hurt most, preferring kills), loads its biggest munition,
/// repairs hazards that block its plan, equips safeties and armor, sabotages the
/// opponent where it hurts, and uses the Coaxial MG when nothing better is at hand.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicBot;

fn munition_rank(card: Card) -> i32 {
    match card {
        Card::ArmorPiercing => 3,
        Card::AntiTank => 2,
        Card::HighExplosive => 1,
        _ => 0,
    }
}

/// How much a card is worth keeping: the lowest is discarded first.
fn keep_value(view: &CombatView, me: &TankView, card: Card) -> i32 {
    let copies = view.hand.iter().filter(|&&c| c == card).count();
    let base = match card.kind() {
        CardKind::Munition => 20 + 10 * munition_rank(card),
        CardKind::Fire => 45,
        CardKind::Smoke => 50,
        CardKind::Armor => 35,
        CardKind::Safety => 40,
        CardKind::CoaxialMg => 15,
        CardKind::Hazard => 18,
        CardKind::Remedy => {
            if card.answers().is_some_and(|h| me.hazards.contains(&h)) {
                55
            } else {
                8
            }
        }
    };
    base - 6 * i32::try_from(copies.saturating_sub(1)).unwrap_or(0)
}

/// A threat score for an opponent: low HP and many kills make a better target.
fn target_value(view: &CombatView, target: PlayerId, damage: u16) -> i32 {
    let t = &view.tanks[target.index()];
    let lethal = if damage >= t.hp { 1000 } else { 0 };
    lethal
        + i32::from(damage) * 2
        + (i32::from(t.max_hp) - i32::from(t.hp)) / 2
        + 20 * i32::from(t.kills)
}

fn score(game: &TankCombat, view: &CombatView, action: Action) -> i32 {
    let me = &view.tanks[view.you.index()];
    let opponent_damage = |card: Card, target: PlayerId| {
        // The public preview: the same steps the resolver uses.
        game.damage_steps(view.you, target, card).final_damage
    };
    match action {
        Action::Smoke => {
            let Some(a) = &view.attack else { return -100 };
            if a.target != view.you {
                return -50;
            }
            let d = a.preview.final_damage;
            if d >= me.hp || d >= 25 { 100 } else { -10 }
        }
        Action::Pass => 0,
        Action::Fire { target } => me.breech.map_or(0, |card| {
            300 + target_value(view, target, opponent_damage(card, target))
        }),
        Action::LoadAndFire { card, target } => {
            310 + target_value(view, target, opponent_damage(card, target))
        }
        Action::Load { card } => {
            let have = me.breech.map_or(0, munition_rank);
            if munition_rank(card) > have {
                200 + 10 * munition_rank(card)
            } else {
                -20
            }
        }
        Action::Repair { remedy, .. } => {
            let blocks = match remedy.answers() {
                Some(Card::Tracked) => me.breech.is_some() || view.hand.contains(&Card::CoaxialMg),
                Some(Card::JammedBreech) => me.breech.is_none(),
                _ => false,
            };
            if blocks { 260 } else { 120 }
        }
        Action::Equip { card } => {
            if card.kind() == CardKind::Safety {
                180
            } else {
                150 - 20 * i32::from(me.armor)
            }
        }
        Action::Sabotage { hazard, target } => {
            let t = &view.tanks[target.index()];
            let hurts = match hazard {
                Card::Tracked => t.breech.is_some(),
                Card::JammedBreech => t.breech.is_none(),
                _ => false,
            };
            (if hurts { 170 } else { 110 }) + 20 * i32::from(t.kills) - i32::from(t.hp) / 10
        }
        Action::CoaxialMg { target } => {
            let d = opponent_damage(Card::CoaxialMg, target);
            if d == 0 {
                30
            } else {
                100 + target_value(view, target, d) / 4
            }
        }
        Action::Discard { card } => 50 - keep_value(view, me, card),
        Action::Swap { card } => {
            // Worth it only for a card it has no use for.
            if keep_value(view, me, card) <= 10 {
                400
            } else {
                -1000
            }
        }
    }
}

impl Bot<TankCombat> for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn choose(
        &mut self,
        game: &TankCombat,
        player: PlayerId,
        rng: &mut MatchRng,
    ) -> Option<Action> {
        let view = game.view(player);
        let scored: Vec<(i32, Action)> = game
            .legal_actions(player)
            .into_iter()
            .map(|a| (score(game, &view, a), a))
            .collect();
        let top = scored.iter().map(|&(s, _)| s).max()?;
        // Ties are broken at random, so no seat is everyone's default target.
        let best: Vec<Action> = scored
            .into_iter()
            .filter(|&(s, _)| s == top)
            .map(|(_, a)| a)
            .collect();
        best.get(rng.pick(best.len())).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tank_combat::CombatSetup;
    use crate::rules::tank_combat::tests::assert_blind_to_the_unseen;

    #[test]
    fn the_bot_chooses_the_same_whatever_it_cannot_see() {
        let choices = assert_blind_to_the_unseen(
            &mut HeuristicBot,
            &CombatSetup::builtin_default(),
            0..40,
            30,
        );
        assert!(choices > 200, "only {choices} real choices compared");
    }
}
