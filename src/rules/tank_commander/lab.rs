//! What the playtest lab counts in a Tank Commander battle: every unit and every upgrade
//! a side fielded, whether it lasted, and where tanks were lost; and the lab's random
//! builds, which give each side's tanks upgrades drawn at random so that the report can
//! say what each upgrade is worth when it is taken.

use super::action::{Ability, Action, Fact, FireTarget, PenetrationRoll, Weapon};
use super::setup::{Build, Round, UnitKind};
use super::state::Status;
use super::{Battle, TankCommander};
use super::{odds, resolve};
use crate::framework::tally::{Piece, Tally};
use crate::framework::{MatchRng, Playable};

/// What random builds draw, in the lab's words.
pub(super) const DRAWS: &str = "each side's tank upgrades, drawn at random for every game";

/// The upgrades random builds choose among, by the names the lab reports, each with how
/// it is put on a build. Armor is one point on every facing; mines are one mine.
const OPTIONS: [(&str, fn(&mut Build)); 11] = [
    ("engine", |b| b.engine = true),
    ("long barrel", |b| b.barrel = true),
    ("optics", |b| b.optics = true),
    ("HE rounds", |b| b.he_rounds = true),
    ("smoke launcher", |b| b.smoke_launcher = true),
    ("medkit", |b| b.medkit = true),
    ("lieutenant", |b| b.lieutenant = true),
    ("anti-infantry", |b| b.anti_infantry = true),
    ("air support", |b| b.air_support = true),
    ("armor", |b| {
        b.armor.front += 1;
        b.armor.side += 1;
        b.armor.rear += 1;
    }),
    ("mines", |b| b.mines += 1),
];

/// `battle` with every tank's build drawn anew: each side draws its own list of
/// upgrades (each one with an even chance, in a random order), and each of its tanks
/// takes them in that order while its points last and the build stays legal. A side's
/// tanks so carry the same upgrades, and each upgrade is taken in about half the games.
pub(super) fn draft(battle: &Battle, rng: &mut MatchRng) -> Battle {
    let mut out = battle.clone();
    let rules = &battle.rules;
    let sides = out
        .scenario
        .units
        .iter()
        .map(|u| u.side)
        .max()
        .map_or(0, |s| s + 1);
    for side in 0..sides {
        let mut order: Vec<usize> = (0..OPTIONS.len()).filter(|_| rng.roll(2) == 1).collect();
        rng.shuffle(&mut order);
        for (i, unit) in out.scenario.units.iter_mut().enumerate() {
            let s = &mut unit.setup;
            if unit.side != side || s.kind != UnitKind::Tank {
                continue;
            }
            let base = rules.profile(s.kind, s.unit_type.as_deref()).armor;
            let mut build = Build::default();
            for &o in &order {
                let mut next = build;
                (OPTIONS[o].1)(&mut next);
                if next
                    .problems_on(s.kind, base, rules, (s.painted, s.named, s.earned))
                    .is_empty()
                {
                    build = next;
                }
            }
            s.build = build;
            if let Some(written) = out.scenario.setup.units.get_mut(i)
                && written.name == s.name
            {
                written.build = build;
            }
        }
    }
    out
}

/// The upgrades of a build by name: its on/off upgrades, and armor and mines once each
/// whatever their points.
pub(super) fn upgrades(build: &Build) -> Vec<&'static str> {
    let mut names = build.switched_on();
    if build.armor.front + build.armor.side + build.armor.rear > 0 {
        names.push("armor");
    }
    if build.mines > 0 {
        names.push("mines");
    }
    names
}

/// Counts a finished battle: each unit (by name) and each upgrade on a tank (as
/// "upgrade: engine"), with whether it lasted to the end; the spaces where tanks fell.
pub(super) fn finish(game: &TankCommander, tally: &mut Tally) {
    let board = game.board;
    tally.board = Some([i32::from(board.width), i32::from(board.height)]);
    for unit in &game.units {
        if unit.kind == UnitKind::Target {
            continue;
        }
        let lasted = unit.status == Status::Active;
        tally.pieces.push(Piece {
            seat: unit.side.0,
            name: unit.name.clone(),
            lasted,
        });
        if unit.kind == UnitKind::Tank {
            for upgrade in upgrades(&unit.build) {
                let taken = (unit.side.0, upgrade.to_string());
                if !tally.taken.contains(&taken) {
                    tally.taken.push(taken);
                }
                tally.pieces.push(Piece {
                    seat: unit.side.0,
                    name: format!("upgrade: {upgrade}"),
                    lasted,
                });
            }
            if !lasted {
                tally.losses.push(board.offset_of(unit.at));
            }
        }
    }
}

/// Every kind of action, as the coverage table lists them ([`action_kind`]).
pub(super) const ACTION_KINDS: &[&str] = &[
    "activate",
    "move",
    "turn (turret with the hull)",
    "turn (turret stays)",
    "rotate turret",
    "load AT",
    "load HE",
    "fire main gun",
    "fire at a building",
    "step (infantry)",
    "fire missile AT",
    "fire missile HE",
    "fire anti-infantry weapon",
    "take cover",
    "capture",
    "disarm",
    "mount",
    "dismount",
    "deploy smoke",
    "extinguish",
    "lay mine",
    "call air strike",
    "fire flare",
    "lieutenant takes over",
    "Booming Voice",
    "Move move move!",
    "Bring it down!",
    "Quick Load",
    "end activation",
    "concede",
];

/// The kind of an action, one of [`ACTION_KINDS`]: a crew ability is a kind of its own.
pub(super) fn action_kind(action: &Action) -> &'static str {
    match action {
        Action::Activate(_) => "activate",
        Action::Move => "move",
        Action::Turn {
            turret_follows: true,
            ..
        } => "turn (turret with the hull)",
        Action::Turn { .. } => "turn (turret stays)",
        Action::RotateTurret(_) => "rotate turret",
        Action::Load(Round::At) => "load AT",
        Action::Load(Round::He) => "load HE",
        Action::Fire(FireTarget::Unit(_)) => "fire main gun",
        Action::Fire(FireTarget::Building(_)) => "fire at a building",
        Action::Step(_) => "step (infantry)",
        Action::FireMissile(_, Round::At) => "fire missile AT",
        Action::FireMissile(_, Round::He) => "fire missile HE",
        Action::FireAntiInfantry(_) => "fire anti-infantry weapon",
        Action::TakeCover => "take cover",
        Action::Capture => "capture",
        Action::Disarm(_) => "disarm",
        Action::Mount(_) => "mount",
        Action::Dismount(_) => "dismount",
        Action::DeploySmoke(_) => "deploy smoke",
        Action::Extinguish => "extinguish",
        Action::LayMine(_) => "lay mine",
        Action::CallAirStrike(_) => "call air strike",
        Action::FireFlare(_) => "fire flare",
        Action::TakeOver(_) => "lieutenant takes over",
        Action::UseAbility(a) => a.title(),
        Action::EndActivation => "end activation",
        Action::Concede => "concede",
    }
}

/// The rule of the map behind each to-hit modifier the odds write ([`Modifier::reason`]),
/// and behind the base of "Bring it down!".
fn modifier_rule(reason: &str) -> Option<&'static str> {
    Some(match reason {
        odds::reason::OPTICS => "tc.build.optics",
        odds::reason::WOUNDED_GUNNER | odds::reason::LIEUTENANT_GUNNER => "tc.wounds.gunner",
        odds::reason::IN_FOREST | odds::reason::FOREST_BETWEEN => "tc.terrain.forest",
        odds::reason::BEHIND_HILL => "tc.terrain.hill-behind",
        odds::reason::TAKING_COVER => "tc.infantry.take-cover",
        odds::reason::STORM => "tc.ideas.weather",
        odds::reason::NIGHT => "tc.ideas.night",
        odds::reason::BRING_IT_DOWN => "tc.crew.bring-it-down",
        _ => return None,
    })
}

/// The rules a hit's penetration roll applied: the roll itself, and the rule that chose
/// the armor facing struck: a hill under the target, else the arc the hit came from.
fn penetration_rules(p: &PenetrationRoll, out: &mut dyn FnMut(&'static str)) {
    out("tc.hit.penetration");
    out(if p.facing_reason == odds::reason::ON_HILL {
        "tc.terrain.hill-on"
    } else {
        "tc.target.armor-facing"
    });
}

/// Every rule of the map a fact applied: its own, and for a shot the rules of its to-hit
/// modifiers, its round and its penetration roll; for an ability, the ability's.
pub(super) fn fact_rules(game: &TankCommander, fact: &Fact, out: &mut dyn FnMut(&'static str)) {
    if let Some(rule) = game.fact_rule(fact) {
        out(rule);
    }
    match fact {
        Fact::ShotResolved {
            weapon,
            round,
            to_hit,
            penetration,
            ..
        } => {
            for m in &to_hit.modifiers {
                modifier_rule(&m.reason).into_iter().for_each(&mut *out);
            }
            modifier_rule(&to_hit.base_reason)
                .into_iter()
                .for_each(&mut *out);
            // The shooter's accuracy, and the armor struck, are its base stats.
            if to_hit.base_reason == odds::reason::BASE || penetration.is_some() {
                out("tc.build.base-stats");
            }
            if *round == Round::He {
                out("tc.build.he-rounds");
                out("tc.hit.strengths");
            }
            if *weapon == Weapon::Missile {
                out("tc.infantry.fire-missile");
            }
            if let Some(p) = penetration {
                penetration_rules(p, out);
            }
        }
        Fact::AntiInfantryFired { to_hit, .. } => {
            for m in &to_hit.modifiers {
                modifier_rule(&m.reason).into_iter().for_each(&mut *out);
            }
        }
        Fact::AbilityUsed { ability, .. } => out(match ability {
            Ability::BoomingVoice => "tc.crew.booming-voice",
            Ability::MoveMoveMove { .. } => "tc.crew.move-move-move",
            Ability::BringItDown => "tc.crew.bring-it-down",
            Ability::QuickLoad => "tc.crew.quick-load",
        }),
        // Hull points lost come off the unit's base stats.
        Fact::HullDamaged { .. } => out("tc.build.base-stats"),
        Fact::MineExploded { penetration, .. }
        | Fact::StrikeHit { penetration, .. }
        | Fact::BlastHit { penetration, .. } => penetration_rules(penetration, out),
        Fact::UnitDestroyed { reason, .. } if reason.starts_with(resolve::RIDER_LOST) => {
            out("tc.infantry.riders");
        }
        Fact::UnitMoved { cost, .. } if *cost > game.rules.costs.move_forward => {
            out("tc.terrain.rough");
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tank_commander::setup::Scenario;

    #[test]
    fn drawn_builds_are_legal_shared_by_a_side_and_even_handed() {
        let battle = Battle::builtin_default();
        let mut taken = [0u32; OPTIONS.len()];
        let draws = 400;
        for seed in 0..draws {
            let drawn = draft(&battle, &mut MatchRng::new(seed));
            // The drawn scenario passes the validator, as a file would.
            Scenario::validate(drawn.scenario.setup.clone(), &battle.rules)
                .unwrap_or_else(|p| panic!("seed {seed}: {p:?}"));
            assert_eq!(
                drawn.scenario,
                draft(&battle, &mut MatchRng::new(seed)).scenario,
                "a seed draws the same builds"
            );
            let tanks: Vec<_> = drawn
                .scenario
                .units
                .iter()
                .filter(|u| u.setup.kind == UnitKind::Tank)
                .collect();
            for side in [0, 1] {
                let mut builds = tanks
                    .iter()
                    .filter(|u| u.side == side)
                    .map(|u| u.setup.build);
                let first = builds.next().expect("a tank a side");
                assert!(
                    builds.all(|b| b == first),
                    "seed {seed}: a side's tanks differ"
                );
                let names = upgrades(&first);
                for (i, (name, _)) in OPTIONS.iter().enumerate() {
                    taken[i] += u32::from(names.contains(name));
                }
            }
        }
        // Each upgrade is taken by about half the sides (two sides a draw).
        for (i, (name, _)) in OPTIONS.iter().enumerate() {
            let share = f64::from(taken[i]) / f64::from(2 * draws as u32);
            assert!((0.35..=0.65).contains(&share), "{name}: taken {share:.2}");
        }
    }
}
