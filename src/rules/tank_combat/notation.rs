//! Actions and facts in plain words.

use super::TankCombat;
use super::action::{Action, ArmorStep, DiscardReason, Fact};
use super::setup::Mode;
use crate::framework::{Game, PlayerId};

fn name(g: &TankCombat, p: PlayerId) -> String {
    g.player_name(p)
}

/// An action as a short button label ("Fire High Explosive at Ann (25)").
#[must_use]
pub fn action_text(g: &TankCombat, action: &Action) -> String {
    let preview = |card, target| {
        let steps = g.damage_steps(g.current(), target, card);
        format!("{} ({})", name(g, target), steps.final_damage)
    };
    match *action {
        Action::Load { card } => format!("Load {}", card.name()),
        Action::Fire { target } => match g.tank(g.current()).breech {
            Some(card) => format!("Fire {} at {}", card.name(), preview(card, target)),
            None => format!("Fire at {}", name(g, target)),
        },
        Action::CoaxialMg { target } => {
            format!("Coaxial MG at {}", preview(super::Card::CoaxialMg, target))
        }
        Action::LoadAndFire { card, target } => {
            format!("Load and fire {} at {}", card.name(), preview(card, target))
        }
        Action::Sabotage { hazard, target } => {
            format!("Play {} on {}", hazard.name(), name(g, target))
        }
        Action::Repair { remedy, .. } => format!("Repair with {}", remedy.name()),
        Action::Equip { card } => format!("Equip {}", card.name()),
        Action::Discard { card } => format!("Discard {}", card.name()),
        Action::Swap { card } => format!("Swap {} for a new card", card.name()),
        Action::Smoke => "Play Smoke".into(),
        Action::Pass => "Pass".into(),
    }
}

/// A fact in plain words, as `viewer` may read it (`None`: the whole truth).
#[must_use]
pub fn fact_text(g: &TankCombat, fact: &Fact, viewer: Option<PlayerId>) -> String {
    match fact {
        Fact::Began { .. }
        | Fact::TurnStarted { .. }
        | Fact::ShieldDropped { .. }
        | Fact::PassedTurn { .. }
        | Fact::Ended { .. } => turn_text(g, fact),
        Fact::Shuffled { .. }
        | Fact::Reshuffled { .. }
        | Fact::Drew { .. }
        | Fact::NoCards { .. }
        | Fact::Discarded { .. }
        | Fact::Loaded { .. } => card_text(g, fact, viewer),
        Fact::Attacked { .. }
        | Fact::WindowOpened { .. }
        | Fact::Passed { .. }
        | Fact::Smoked { .. }
        | Fact::Cancelled { .. }
        | Fact::Damage { .. } => attack_text(g, fact),
        Fact::Adrenaline { .. }
        | Fact::Destroyed { .. }
        | Fact::Kill { .. }
        | Fact::Respawned { .. } => aftermath_text(g, fact),
        Fact::Hazard { .. }
        | Fact::Override { .. }
        | Fact::Repaired { .. }
        | Fact::Equipped { .. } => hazard_text(g, fact),
    }
}

/// [`fact_text`] for the match's beginning, its turns and its end.
fn turn_text(g: &TankCombat, fact: &Fact) -> String {
    let n = |p: PlayerId| name(g, p);
    match fact {
        Fact::Began {
            players,
            mode,
            kills_to_win,
            deck,
        } => {
            let list: Vec<String> = players
                .iter()
                .map(|(p, c)| format!("{p} ({})", c.name()))
                .collect();
            match mode {
                Mode::Duel => format!("Duel: {} with a {deck}-card deck.", list.join(" vs ")),
                Mode::Deathmatch => format!(
                    "Deathmatch to {kills_to_win} kills: {} with a {deck}-card deck.",
                    list.join(", ")
                ),
            }
        }
        Fact::TurnStarted {
            player,
            turn,
            round,
            bonus,
        } => {
            if *bonus {
                format!("Turn {turn}: {}'s bonus turn.", n(*player))
            } else {
                format!("Turn {turn} (round {round}): {}.", n(*player))
            }
        }
        Fact::ShieldDropped { player } => format!("{}'s Spawn Shield drops.", n(*player)),
        Fact::PassedTurn { player } => format!("{} has no cards and passes.", n(*player)),
        Fact::Ended { outcome } => match outcome.winners.first() {
            Some(&w) => format!("{} wins: {}.", n(w), outcome.reason),
            None => format!("Draw: {}.", outcome.reason),
        },
        _ => unreachable!("fact_text sends turn_text only its own facts"),
    }
}

/// [`fact_text`] for drawing, discarding and loading cards.
fn card_text(g: &TankCombat, fact: &Fact, viewer: Option<PlayerId>) -> String {
    let n = |p: PlayerId| name(g, p);
    match fact {
        Fact::Shuffled { cards } => format!("The deck of {cards} cards is shuffled."),
        Fact::Reshuffled { cards } => {
            format!(
                "The deck is empty: the discard pile ({cards} cards) is shuffled into a new deck."
            )
        }
        Fact::Drew { player, card } => match viewer {
            Some(v) if v != *player => format!("{} draws a card.", n(*player)),
            Some(_) => format!("You draw {}.", card.name()),
            None => format!("{} draws {}.", n(*player), card.name()),
        },
        Fact::NoCards { player } => {
            format!(
                "{} cannot draw: deck and discard pile are empty.",
                n(*player)
            )
        }
        Fact::Discarded {
            player,
            card,
            reason,
        } => {
            let why = match reason {
                DiscardReason::Action => " (nothing else was possible)",
                DiscardReason::HandSize => " (down to hand size)",
                DiscardReason::Toll => " to attack a Light under Adrenaline",
                DiscardReason::Swap => " and draws a new card (Medium)",
            };
            format!("{} discards {}{why}.", n(*player), card.name())
        }
        Fact::Loaded {
            player,
            card,
            replaced,
        } => match replaced {
            Some(old) => format!(
                "{} loads {}, discarding the {} in the breech.",
                n(*player),
                card.name(),
                old.name()
            ),
            None => format!("{} loads {}.", n(*player), card.name()),
        },
        _ => unreachable!("fact_text sends card_text only its own facts"),
    }
}

/// [`fact_text`] for attacks, Smoke and damage.
fn attack_text(g: &TankCombat, fact: &Fact) -> String {
    let n = |p: PlayerId| name(g, p);
    match fact {
        Fact::Attacked {
            attacker,
            target,
            card,
            base,
            ignores_smoke,
            ..
        } => {
            let verb = if *card == super::Card::CoaxialMg {
                "opens up with the Coaxial MG on".to_string()
            } else {
                format!("fires {} at", card.name())
            };
            let smoke = if *ignores_smoke {
                " Adrenaline: Smoke cannot stop it."
            } else {
                ""
            };
            format!("{} {verb} {} ({base}).{smoke}", n(*attacker), n(*target))
        }
        Fact::WindowOpened { asked } => {
            let list: Vec<String> = asked.iter().map(|&p| n(p)).collect();
            format!("Smoke? Asking {}.", list.join(", "))
        }
        Fact::Passed { player } => format!("{} lets it through.", n(*player)),
        Fact::Smoked { player } => format!("{} plays Smoke Launchers!", n(*player)),
        Fact::Cancelled {
            attacker, target, ..
        } => format!(
            "{}'s attack on {} is lost in the smoke.",
            n(*attacker),
            n(*target)
        ),
        Fact::Damage {
            target,
            card,
            steps,
            ..
        } => {
            let mut parts = vec![format!("{} {}", card.name(), steps.base)];
            match steps.armor {
                ArmorStep::None => {}
                ArmorStep::Absorbed(a) => parts.push(format!("armor -{a}")),
                ArmorStep::Destroyed => parts.push("armor destroyed (HEAT)".into()),
                ArmorStep::Ignored => parts.push("armor ignored (Adrenaline)".into()),
            }
            if steps.heavy > 0 {
                parts.push(format!("Heavy -{}", steps.heavy));
            }
            format!(
                "{}: {} = {} damage. HP {} -> {}.",
                n(*target),
                parts.join(", "),
                steps.final_damage,
                steps.hp_before,
                steps.hp_after
            )
        }
        _ => unreachable!("fact_text sends attack_text only its own facts"),
    }
}

/// [`fact_text`] for Adrenaline, kills and respawns.
fn aftermath_text(g: &TankCombat, fact: &Fact) -> String {
    let n = |p: PlayerId| name(g, p);
    match fact {
        Fact::Adrenaline {
            player,
            class,
            cleared,
        } => {
            let cleared = if cleared.is_empty() {
                String::new()
            } else {
                let list: Vec<&str> = cleared.iter().map(|c| c.name()).collect();
                format!(" Cleared: {}.", list.join(", "))
            };
            format!(
                "{} gets Adrenaline: {}.{cleared}",
                n(*player),
                class.adrenaline()
            )
        }
        Fact::Destroyed { player, by } => {
            format!("{} is destroyed by {}!", n(*player), n(*by))
        }
        Fact::Kill { player, kills } => format!("{} scores a kill ({kills}).", n(*player)),
        Fact::Respawned { player, hp, .. } => format!(
            "{} respawns with {hp} HP, a fresh hand and a Spawn Shield.",
            n(*player)
        ),
        _ => unreachable!("fact_text sends aftermath_text only its own facts"),
    }
}

/// [`fact_text`] for hazards, overrides, repairs and equipment.
fn hazard_text(g: &TankCombat, fact: &Fact) -> String {
    let n = |p: PlayerId| name(g, p);
    match fact {
        Fact::Hazard {
            player,
            target,
            hazard,
        } => format!("{} plays {} on {}.", n(*player), hazard.name(), n(*target)),
        Fact::Override {
            target,
            attacker,
            hazard,
            safety,
            lost,
        } => {
            let lost = match lost {
                Some(c) => format!("{} loses {} at random", n(*attacker), c.name()),
                None => format!("{} has no card to lose", n(*attacker)),
            };
            format!(
                "Tactical Override! {} reveals {}: {} is cancelled, {lost}; {} draws and takes a bonus turn.",
                n(*target),
                safety.name(),
                hazard.name(),
                n(*target)
            )
        }
        Fact::Repaired {
            player,
            remedy,
            hazard,
            ..
        } => format!(
            "{} plays {}: no longer {}.",
            n(*player),
            remedy.name(),
            hazard.name()
        ),
        Fact::Equipped {
            player,
            card,
            removed,
        } => match removed {
            Some(h) => format!(
                "{} equips {}, clearing {}.",
                n(*player),
                card.name(),
                h.name()
            ),
            None => format!("{} equips {}.", n(*player), card.name()),
        },
        _ => unreachable!("fact_text sends hazard_text only its own facts"),
    }
}
