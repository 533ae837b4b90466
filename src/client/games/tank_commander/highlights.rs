//! What the table should highlight, worked out from the rules: the hexes the active tank
//! can reach with their action-point cost, its turret arc within gun range, the line of
//! sight to the hovered unit, and every valid target with its exact odds (the same code
//! as `tanktable odds`). Drawing is the overlay's job; this part runs headless.

use bevy::prelude::*;
use hexx::Hex;

use crate::client::core::session::Session;
use crate::framework::Game;
use crate::rules::tank_commander::action::Weapon;
use crate::rules::tank_commander::{FireTarget, Round, Route, TankCommander, UnitId};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Hovered>()
        .init_resource::<Selection>()
        .init_resource::<Highlights>()
        .add_systems(
            Update,
            work_out
                .in_set(crate::client::core::ClientSystems::Mirror)
                .after(super::mirror::MirrorSystems)
                .run_if(resource_exists::<Session<TankCommander>>),
        );
}

/// The hex under the pointer.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hovered(pub Option<Hex>);

/// What the player has picked out.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// The unit whose card is shown.
    pub unit: Option<UnitId>,
    /// The enemy the active tank aims at (fire with the button or F).
    pub aim: Option<UnitId>,
    /// Units picked out by clicking a log line.
    pub focus: Vec<UnitId>,
}

/// A unit that can be shot at now, with its odds in words.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    pub unit: UnitId,
    pub at: Hex,
    /// "hit 2/3 · pen 1/2 · −0.83 hull".
    pub label: String,
    /// How the numbers were reached.
    pub why: String,
    /// The rule of the rules map the odds apply (F1 or the plate's § opens it).
    pub rule: &'static str,
    /// Why the active shooter cannot fire now for want of action points ("needs 2 AP,
    /// 1 left"): the odds stay, greyed, for the next activation.
    pub short_of: Option<String>,
}

/// The line of sight from the shooter to the hovered unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sight {
    pub from: Hex,
    pub to: Hex,
    /// The first blocking hex and why, if the line is blocked.
    pub blocked: Option<(Hex, String)>,
}

/// Everything to highlight now.
#[derive(Resource, Default, Debug, Clone)]
pub struct Highlights {
    /// The unit the highlights are for: the active unit, else the selected one.
    pub shooter: Option<UnitId>,
    pub routes: Vec<Route>,
    /// Hexes within the turret arc and gun range.
    pub arc: Vec<Hex>,
    pub targets: Vec<Target>,
    pub sight: Option<Sight>,
}

/// The odds of `shooter` firing at `target` with its loaded round (AT if empty; a squad
/// with an AT missile or its anti-infantry weapon; a tank whose gun cannot reach a squad
/// with its anti-infantry weapon), as a short label and an explanation; `None` if it
/// cannot aim at it.
#[must_use]
pub fn target_odds(battle: &TankCommander, shooter: UnitId, target: UnitId) -> Option<Target> {
    let s = battle.unit(shooter);
    let t = battle.unit(target);
    let round = s.loaded.unwrap_or(Round::At);
    let bring_it_down = battle
        .activation()
        .is_some_and(|a| a.unit == shooter && a.bring_it_down);
    let weapons = if s.is_infantry() {
        vec![battle.weapon_for(s, t)]
    } else if t.is_infantry() {
        vec![Weapon::MainGun, Weapon::AntiInfantry]
    } else {
        vec![Weapon::MainGun]
    };
    let profile = weapons.into_iter().find_map(|w| {
        battle
            .weapon_profile(shooter, FireTarget::Unit(target), w, round, bring_it_down)
            .ok()
    })?;
    let o = battle.odds(&profile);
    let label = if t.is_infantry() {
        format!("hit {} · wipes out the squad", o.hit)
    } else if profile.armor.is_some() {
        format!(
            "hit {} · pen {} · −{:.2} hull",
            o.hit,
            o.penetrating,
            o.expected_hull_loss.to_f64()
        )
    } else {
        format!("hit {}", o.hit)
    };
    let armor = profile.armor.map_or(String::new(), |(f, v, why)| {
        format!(
            "\n{f} armor {v} ({why}); {round} strength {} + d6 must beat it",
            profile.strength
        )
    });
    let why = if t.is_infantry() {
        format!(
            "{}: to hit: {}\nAny hit wipes out an infantry squad",
            profile.weapon.title(),
            profile.to_hit.explain()
        )
    } else {
        format!(
            "{}: to hit: {}{armor}\nCrew wound {}, fire {}, knocked out {}",
            profile.weapon.title(),
            profile.to_hit.explain(),
            o.crew_wound,
            o.fire,
            o.disable
        )
    };
    // Every shot costs the same action points; only the active unit spends them now.
    let cost = battle.rules().costs.fire;
    let short_of = battle
        .activation()
        .filter(|a| a.unit == shooter && a.action_points < cost)
        .map(|a| format!("needs {cost} AP, {} left", a.action_points));
    Some(Target {
        unit: target,
        at: battle.unit(target).at,
        label,
        why,
        short_of,
        rule: if t.is_infantry() {
            "tc.infantry.any-hit"
        } else {
            "tc.hit.roll"
        },
    })
}

/// Works the highlights out for a state, a selection and a hovered hex.
#[must_use]
pub fn highlights_for(
    battle: &TankCommander,
    selection: &Selection,
    hovered: Option<Hex>,
) -> Highlights {
    if battle.outcome().is_some() {
        return Highlights::default();
    }
    let shooter = battle
        .activation()
        .map(|a| a.unit)
        .or(selection.unit)
        .filter(|&id| battle.unit(id).acts());
    let Some(shooter) = shooter else {
        return Highlights::default();
    };
    let s = battle.unit(shooter);
    let routes = if battle.activation().is_some_and(|a| a.unit == shooter) {
        battle.routes()
    } else {
        Vec::new()
    };
    let arc = battle
        .board()
        .hexes()
        .filter(|&h| battle.covers(s, h))
        .collect();
    let targets = battle
        .units()
        .iter()
        .filter(|t| t.side != s.side && t.is_active())
        .filter_map(|t| target_odds(battle, shooter, t.id))
        .collect();
    Highlights {
        shooter: Some(shooter),
        routes,
        arc,
        targets,
        sight: sight_for(battle, Some(shooter), hovered),
    }
}

/// The line of sight from `shooter` to the unit on the hovered hex, if there is one.
#[must_use]
pub fn sight_for(
    battle: &TankCommander,
    shooter: Option<UnitId>,
    hovered: Option<Hex>,
) -> Option<Sight> {
    let s = battle.unit(shooter?);
    hovered
        .and_then(|h| battle.unit_at(h))
        .filter(|t| t.id != s.id)
        .map(|t| {
            let line = battle.sight_line(s.at, t.at);
            Sight {
                from: s.at,
                to: t.at,
                blocked: line.blocked,
            }
        })
}

fn work_out(
    table: Res<Session<TankCommander>>,
    selection: Res<Selection>,
    hovered: Res<Hovered>,
    mut highlights: ResMut<Highlights>,
    mut last: Local<Option<(u64, u64, Option<UnitId>, Option<Hex>)>>,
) {
    // Routes, arc and targets follow the state and the selected unit; only the line of
    // sight follows the pointer, so a new hovered hex costs one sight line.
    let key = (table.generation, table.revision, selection.unit, hovered.0);
    if *last == Some(key) {
        return;
    }
    let moved_only = last.is_some_and(|(g, r, u, _)| (g, r, u) == (key.0, key.1, key.2));
    *last = Some(key);
    if moved_only {
        let sight = sight_for(table.state(), highlights.shooter, hovered.0);
        if highlights.sight != sight {
            highlights.sight = sight;
        }
        return;
    }
    *highlights = highlights_for(table.state(), &selection, hovered.0);
}
