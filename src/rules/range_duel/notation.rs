//! Orders and facts in words.

use super::action::{Action, Direction, Presented};
use super::resolve::{FacingReason, Fact, Modifier};
use super::{RangeDuel, side_name};
use crate::framework::PlayerId;

/// An order in short: `Close`, `Close + ram`, `Open (1 band at most)`, `Maneuver`,
/// `Maneuver, drift closer + ram`, `Hull Down`, with a facing choice other than the usual
/// after it (`Close + ram; if I choose: aim at their left side`).
#[must_use]
pub fn action_text(action: Action) -> String {
    let text = order_text(action);
    let f = action.facings();
    let mut choice = Vec::new();
    if f.own != Presented::Front {
        choice.push(format!("show my {}", f.own));
    }
    if f.enemy != Presented::Rear {
        choice.push(format!("aim at their {}", f.enemy));
    }
    if choice.is_empty() {
        text
    } else {
        format!("{text}; if I choose: {}", choice.join(", "))
    }
}

fn order_text(action: Action) -> String {
    let ram = if action.rams() { " + ram" } else { "" };
    let most = match action.most() {
        Some(1) => " (1 band at most)".to_string(),
        Some(n) => format!(" ({n} bands at most)"),
        None => String::new(),
    };
    match action {
        Action::ChangeRange {
            direction: Direction::Closing,
            ..
        } => format!("Close{most}{ram}"),
        Action::ChangeRange {
            direction: Direction::Opening,
            ..
        } => format!("Open{most}{ram}"),
        Action::Maneuver { drift: None, .. } => "Maneuver".into(),
        Action::Maneuver {
            drift: Some(Direction::Closing),
            ..
        } => format!("Maneuver, drift closer{ram}"),
        Action::Maneuver {
            drift: Some(Direction::Opening),
            ..
        } => format!("Maneuver, back off{ram}"),
        Action::HullDown => "Hull Down".into(),
    }
}

fn mods_text(mods: &[Modifier]) -> String {
    mods.iter()
        .map(|m| format!("{:+} {}", m.value, m.label))
        .collect::<Vec<_>>()
        .join(", ")
}

fn dice_text(dice: &[u8]) -> String {
    dice.iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" + ")
}

/// A fact in plain words, with its reasons.
#[must_use]
pub fn fact_text(duel: &RangeDuel, fact: &Fact) -> String {
    match fact {
        Fact::Began { .. } | Fact::Chosen { .. } | Fact::Revealed { .. } | Fact::Ended { .. } => {
            turn_text(duel, fact)
        }
        Fact::DrivingTest { .. } | Fact::DrivingWinner { .. } | Fact::RamAttempt { .. } => {
            driving_text(duel, fact)
        }
        Fact::Overshoot { .. }
        | Fact::RangeChanged { .. }
        | Fact::Facing { .. }
        | Fact::HullDown { .. } => position_text(duel, fact),
        Fact::Collision { .. } | Fact::CollisionDamage { .. } => collision_text(duel, fact),
        Fact::CannotFire { .. } | Fact::Shot { .. } => fire_text(duel, fact),
        Fact::Wounded { .. } | Fact::HullLost { .. } | Fact::KnockedOut { .. } => {
            damage_text(duel, fact)
        }
    }
}

/// A side and its tank: `Red (Panther)`.
fn side_and_tank(duel: &RangeDuel, p: PlayerId) -> String {
    format!("{} ({})", side_name(p), duel.tank(p).name)
}

/// [`fact_text`] for the duel's beginning, the orders and the end.
fn turn_text(duel: &RangeDuel, fact: &Fact) -> String {
    let who = |p: PlayerId| side_and_tank(duel, p);
    match fact {
        Fact::Began {
            tanks,
            range_name,
            turn_limit,
            ..
        } => format!(
            "{} faces {} at {range_name} range; the duel lasts at most {turn_limit} combat turns.",
            tanks[0], tanks[1]
        ),
        Fact::Chosen { player } => format!("{} has given its order.", who(*player)),
        Fact::Revealed { turn, orders, row } => format!(
            "Turn {turn}: {} orders {}, {} orders {}. Matrix row {} ({}, with {} as Tank 1): {}.",
            side_name(PlayerId(0)),
            action_text(orders[0]),
            side_name(PlayerId(1)),
            action_text(orders[1]),
            row.row.number(),
            row.row.title(),
            side_name(row.tank1),
            row.row.summary()
        ),
        Fact::Ended { outcome } => format!("The duel is over: {}.", outcome.reason),
        _ => unreachable!("fact_text sends turn_text only its own facts"),
    }
}

/// [`fact_text`] for the Driving tests and the rams they decide.
fn driving_text(duel: &RangeDuel, fact: &Fact) -> String {
    let who = |p: PlayerId| side_and_tank(duel, p);
    match fact {
        Fact::DrivingTest {
            player,
            dice,
            modifiers,
            total,
            target,
            passed,
            reroll,
        } => {
            let mods = if modifiers.is_empty() {
                String::new()
            } else {
                format!(" {}", mods_text(modifiers))
            };
            format!(
                "{} {}: {}{mods} = {total} against {target}: {}.",
                who(*player),
                if *reroll {
                    "re-rolls Driving to break the tie"
                } else {
                    "tests Driving"
                },
                dice_text(dice),
                if *passed { "passed" } else { "failed" }
            )
        }
        Fact::DrivingWinner { winner, totals } => match winner {
            Some(w) => format!(
                "{} wins Driving ({} against {}).",
                who(*w),
                totals[w.index()],
                totals[1 - w.index()]
            ),
            None => format!("Nobody wins Driving: both totals are {}.", totals[0]),
        },
        Fact::RamAttempt {
            rammer,
            passed,
            succeeded,
        } => format!(
            "{} tries to ram ({} its Driving test): {}.",
            who(*rammer),
            if *passed { "passed" } else { "failed" },
            if *succeeded { "contact" } else { "it misses" }
        ),
        _ => unreachable!("fact_text sends driving_text only its own facts"),
    }
}

/// [`fact_text`] for where the tanks end up: the range, their facings and hull down.
fn position_text(duel: &RangeDuel, fact: &Fact) -> String {
    let who = |p: PlayerId| side_and_tank(duel, p);
    match fact {
        Fact::Overshoot { to_name, .. } => format!(
            "The tanks would pass closer than Adjacent: they overshoot and end at {to_name} range."
        ),
        Fact::RangeChanged {
            from_name,
            to_name,
            shift,
            reason,
            ..
        } => {
            if from_name == to_name {
                format!("The range stays {to_name} ({reason}).")
            } else {
                format!("The range goes from {from_name} to {to_name} (shift {shift:+}: {reason}).")
            }
        }
        Fact::Facing {
            player,
            facing,
            reason,
        } => {
            let why = match reason {
                FacingReason::Closing => "it closed in".to_string(),
                FacingReason::Opening => "it drove away".to_string(),
                FacingReason::BothOpening => "both tanks opened the range".to_string(),
                FacingReason::Choice { by } if by == player => {
                    "its own choice as Driving winner".to_string()
                }
                FacingReason::Choice { by } => format!("{}'s choice as Driving winner", who(*by)),
                FacingReason::OwnChoice => "nobody won Driving, so its own choice".to_string(),
                FacingReason::Random { roll } => format!("random, d4 rolled {roll}"),
            };
            format!("{} shows its {facing} ({why}).", who(*player))
        }
        Fact::HullDown { player, protected } => {
            if *protected {
                format!(
                    "{} is hull down: hits other than on the turret are negated.",
                    who(*player)
                )
            } else {
                format!(
                    "{} tried to go hull down but failed its Driving test: no protection.",
                    who(*player)
                )
            }
        }
        _ => unreachable!("fact_text sends position_text only its own facts"),
    }
}

/// [`fact_text`] for a ram's contact and its damage.
fn collision_text(duel: &RangeDuel, fact: &Fact) -> String {
    let who = |p: PlayerId| side_and_tank(duel, p);
    match fact {
        Fact::Collision {
            rammer,
            target,
            rammer_facing,
            target_facing,
            kind,
        } => format!(
            "{} rams {}: its {rammer_facing} meets the {target_facing}, a {kind}.",
            who(*rammer),
            who(*target)
        ),
        Fact::CollisionDamage {
            player,
            attacker,
            formula,
            points,
            hull_lost,
            glancing_roll,
            ..
        } => {
            let effect = if *hull_lost > 0 {
                format!("{hull_lost} hull point(s) lost")
            } else if let Some(g) = glancing_roll {
                format!("a knock: d6 rolled {g} for a crew wound")
            } else {
                "no damage".to_string()
            };
            format!(
                "{} ({}) takes {formula} = {points} damage: {effect}.",
                who(*player),
                if *attacker { "rammer" } else { "rammed" }
            )
        }
        _ => unreachable!("fact_text sends collision_text only its own facts"),
    }
}

/// [`fact_text`] for the shots.
fn fire_text(duel: &RangeDuel, fact: &Fact) -> String {
    let who = |p: PlayerId| side_and_tank(duel, p);
    match fact {
        Fact::CannotFire { player, why } => format!("{} cannot fire: {why}.", who(*player)),
        Fact::Shot {
            shooter,
            target,
            band_name,
            needed,
            modifiers,
            roll,
            hit,
            location_roll,
            location,
            armor_facing,
            armor,
            negated,
            penetration_roll,
            strength,
            penetrating,
            glancing_roll,
            ..
        } => {
            let mut s = format!(
                "{} fires at {} at {band_name} range: needs {needed}+ ({}), rolls {roll}: ",
                who(*shooter),
                who(*target),
                mods_text(modifiers)
            );
            if !hit {
                s.push_str("miss.");
                return s;
            }
            s.push_str(&format!(
                "hit on the {} (d6 {}), {} armor {armor}",
                location.as_deref().unwrap_or("hull"),
                location_roll.unwrap_or(0),
                armor_facing.map_or("front".to_string(), |f| f.to_string()),
            ));
            if *negated {
                s.push_str(": negated, the target is hull down.");
                return s;
            }
            let pen = penetration_roll.unwrap_or(0);
            if *penetrating {
                s.push_str(&format!(
                    "; penetration {pen} + {strength} = {} beats {armor}: penetrating hit.",
                    pen + strength
                ));
            } else {
                s.push_str(&format!(
                    "; penetration {pen} + {strength} = {} does not beat {armor}: glancing hit, wound roll {}.",
                    pen + strength,
                    glancing_roll.unwrap_or(0)
                ));
            }
            s
        }
        _ => unreachable!("fact_text sends fire_text only its own facts"),
    }
}

/// [`fact_text`] for wounds, lost hull points and knock-outs.
fn damage_text(duel: &RangeDuel, fact: &Fact) -> String {
    let who = |p: PlayerId| side_and_tank(duel, p);
    match fact {
        Fact::Wounded { player, wound } => {
            let name = if wound.name.is_empty() {
                String::new()
            } else {
                format!(" {}", wound.name)
            };
            let mut s = format!(
                "{}: the {}{name} (pick {} of {}) is {}",
                who(*player),
                wound.role,
                wound.pick,
                wound.of,
                if wound.killed { "killed" } else { "wounded" }
            );
            if wound.treated {
                s.push_str(", treated with the medkit");
            }
            if wound.lieutenant_takes_over {
                s.push_str("; the Lieutenant Commander takes over");
            }
            s.push('.');
            s
        }
        Fact::HullLost { player, lost, left } => {
            format!("{} loses {lost} hull point(s), {left} left.", who(*player))
        }
        Fact::KnockedOut { player, why } => {
            format!("{} is knocked out: {why}.", who(*player))
        }
        _ => unreachable!("fact_text sends damage_text only its own facts"),
    }
}
