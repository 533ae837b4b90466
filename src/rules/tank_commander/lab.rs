//! What the playtest lab counts in a Tank Commander battle: every unit and every upgrade
//! a side fielded, whether it lasted, and where tanks were lost; and the lab's random
//! builds, which give each side's tanks upgrades drawn at random so that the report can
//! say what each upgrade is worth when it is taken.

use super::setup::{Build, UnitKind};
use super::state::Status;
use super::{Battle, TankCommander};
use crate::framework::MatchRng;
use crate::lab::{Piece, Tally};

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
                    .problems_on(s.kind, base, rules, s.painted, s.named)
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
