//! `tanktable odds`: the exact odds of one Tank Commander shot, as fractions.

use std::path::Path;
use std::process::ExitCode;

use super::RoundArg;
use super::commands::{Input, rules_for};
use crate::framework::Playable;
use crate::rules::tank_commander::action::Weapon;
use crate::rules::tank_commander::{FireTarget, Odds, Round, ShotProfile, TankCommander, Unit};

pub(super) fn run(
    input: &Input,
    shooter: &str,
    target: &str,
    round: Option<RoundArg>,
    rules: Option<&Path>,
) -> Result<ExitCode, String> {
    let rules = rules_for::<TankCommander>(rules)?;
    let battle =
        TankCommander::parse_setup(&input.path, &input.text, &rules).map_err(|d| d.to_string())?;
    let game = TankCommander::from_setup(&battle).map_err(|e| e.to_string())?;
    let names = || {
        game.units()
            .iter()
            .map(|u| u.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let s = game
        .unit_named(shooter)
        .ok_or_else(|| format!("no unit called `{shooter}` (units: {})", names()))?;
    let t = game
        .unit_named(target)
        .ok_or_else(|| format!("no unit called `{target}` (units: {})", names()))?;
    let round = match round {
        Some(RoundArg::At) => Round::At,
        Some(RoundArg::He) => Round::He,
        None => s.loaded.unwrap_or(Round::At),
    };
    let target_ref = FireTarget::Unit(t.id);
    let weapon = game.weapon_for(s, t);
    // Odds "as if it could be taken" only for a shot that some position would allow.
    if let Some(why) = game.why_never_aimable(s.id, target_ref, weapon) {
        return Err(why.to_string());
    }
    // An anti-infantry weapon fires no rounds; the gun and the missiles need the round.
    if weapon != Weapon::AntiInfantry && !s.rounds().contains(&round) {
        return Err(format!("{} carries no {round} rounds", s.name));
    }
    let why_not = game.why_not_aimable(s.id, target_ref, weapon);
    let profile = game.shot_profile_anyway(s.id, target_ref, weapon, round, false);
    let o = game.odds(&profile);
    let what = match weapon {
        Weapon::MainGun => format!("fires {round}"),
        Weapon::Missile => format!("fires a missile ({round})"),
        Weapon::AntiInfantry => "fires its anti-infantry weapon".to_string(),
    };
    say_shot(&game, s, t, &what);
    if let Some(why) = &why_not {
        say!("Not possible from here: {why}.");
        say!(
            "The odds below are for the same shot as if it could be taken (cover along the line counted)."
        );
    }
    say_odds(&profile, t, o);
    Ok(ExitCode::SUCCESS)
}

/// Says the shot asked about: who fires what at whom, from where, and how far.
fn say_shot(game: &TankCommander, s: &Unit, t: &Unit, what: &str) {
    say!(
        "{} ({}, {}) {what} at {} ({}, facing {}), {} spaces",
        s.name,
        game.label(s.at),
        if s.is_infantry() {
            "infantry".to_string()
        } else {
            format!("turret {}", s.turret)
        },
        t.name,
        game.label(t.at),
        t.facing,
        s.at.unsigned_distance_to(t.at)
    );
}

/// Says the shot's odds: its to-hit roll, the armor it must beat, and each result's
/// chance as a fraction and a decimal.
fn say_odds(profile: &ShotProfile, t: &Unit, o: Odds) {
    say!("To hit: {}", profile.to_hit.explain());
    if let Some((facing, armor, why)) = &profile.armor {
        say!(
            "Armor: {facing} {armor} ({why}); strength {} + d6 must beat it",
            profile.strength
        );
    } else if t.is_infantry() {
        say!("Any hit destroys an infantry squad.");
    }
    let rows = [
        ("hit", o.hit),
        ("penetrating hit", o.penetrating),
        ("glancing hit", o.glancing),
        ("crew wound", o.crew_wound),
        ("fire", o.fire),
        ("disabled outright", o.disable),
        ("expected hull points lost", o.expected_hull_loss),
    ];
    for (name, p) in rows {
        say!("  {name:<27} {:>7}  {:.4}", p.to_string(), p.to_f64());
    }
}
