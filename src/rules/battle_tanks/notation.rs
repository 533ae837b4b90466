//! Battle Tanks in words: actions and facts as the combat log shows them.

use super::resolve::{Ending, Fact, Forced, WinReason};
use super::{Action, BattleDie, BattleTanks, DieCounts, DieKind};
use crate::framework::PlayerId;

/// An action's short form.
#[must_use]
pub fn action_text(action: Action) -> &'static str {
    match action {
        Action::Tank => "Tank",
        Action::Nuke => "Nuke",
        Action::Keep => "Keep",
        Action::SwitchToNuke => "Switch to Nuke",
        Action::Launch => "Launch",
    }
}

/// A die kind's name.
#[must_use]
pub fn kind_name(kind: DieKind) -> &'static str {
    match kind {
        DieKind::Tank => "Tank",
        DieKind::Nuke => "Nuke",
        DieKind::Free => "free die",
    }
}

/// "Ann", "Ann and Bob", "Ann, Bob and Cat".
fn names(game: &BattleTanks, players: &[PlayerId]) -> String {
    let list: Vec<String> = players.iter().map(|&p| name(game, p)).collect();
    match list.split_last() {
        None => "nobody".into(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

fn name(game: &BattleTanks, p: PlayerId) -> String {
    game.players
        .get(p.index())
        .map_or_else(|| p.to_string(), |c| c.name.clone())
}

fn plural(n: u32, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

fn counts(c: DieCounts) -> String {
    match (c.tanks, c.nukes) {
        (t, 0) => plural(t, "Tank"),
        (0, n) => plural(n, "Nuke"),
        (t, n) => format!("{} and {}", plural(t, "Tank"), plural(n, "Nuke")),
    }
}

/// One rolled die: "Ann rolls a Nuke: 4 +1 = 5".
#[must_use]
pub fn die_text(game: &BattleTanks, d: &BattleDie) -> String {
    let who = name(game, d.owner);
    let what = match d.kind {
        DieKind::Tank => "a Tank",
        DieKind::Nuke => "a Nuke",
        DieKind::Free => "a free die",
    };
    let roll = if d.misfire {
        format!("{}, misfire", d.face)
    } else if d.meganuke {
        format!("{}, MEGANUKE", d.face)
    } else {
        match d.kind {
            DieKind::Tank => d.face.to_string(),
            DieKind::Nuke => format!("{} +{} = {}", d.face, d.value - d.face, d.value),
            DieKind::Free => format!("{} -{} = {}", d.face, d.face - d.value, d.value),
        }
    };
    format!("{who} rolls {what}: {roll}")
}

fn forced_text(forced: Forced) -> &'static str {
    match forced {
        Forced::FirstRoll => "no Nukes on the first roll",
        Forced::NoNuke => "no Nuke left",
        Forced::NukeBarred => "Nuke last time",
        Forced::OnlyNukes => "only Nukes left",
        Forced::EmptyArsenal => "empty arsenal: a free die at -1",
        Forced::BagEmpty => "no dice and the bag is empty",
    }
}

/// A fact in a short sentence.
#[must_use]
pub fn fact_text(game: &BattleTanks, fact: &Fact) -> String {
    match fact {
        Fact::Began { .. }
        | Fact::BattleBegins { .. }
        | Fact::Declared { .. }
        | Fact::AnswerWindow { .. }
        | Fact::Answered { .. }
        | Fact::Rolled { .. } => battle_text(game, fact),
        Fact::Misfires { .. }
        | Fact::AllMisfired { .. }
        | Fact::War { .. }
        | Fact::BattleWon { .. }
        | Fact::DoubleMeganuke { .. }
        | Fact::WorldEnds { .. }
        | Fact::CalledOff { .. } => result_text(game, fact),
        Fact::Eliminated { .. }
        | Fact::FinalBattleBegins { .. }
        | Fact::Launched { .. }
        | Fact::Volley(_)
        | Fact::GameOver { .. } => final_text(game, fact),
    }
}

/// [`fact_text`] for a battle's start, its declarations and its dice.
fn battle_text(game: &BattleTanks, fact: &Fact) -> String {
    match fact {
        Fact::Began {
            players,
            tanks,
            nukes,
            ..
        } => format!(
            "{} commanders, each with {} and {}.",
            players.len(),
            plural(u32::from(*tanks), "Tank"),
            plural(u32::from(*nukes), "Nuke")
        ),
        Fact::BattleBegins { battle, rollers } => format!(
            "Battle {battle}: {} declares first.",
            name(game, rollers.first().copied().unwrap_or_default())
        ),
        Fact::Declared {
            player,
            kind,
            forced,
        } => {
            let who = name(game, *player);
            match (kind, forced) {
                (None, _) => format!("{who} has no dice and the bag is empty: out of the War."),
                (Some(DieKind::Free), _) => {
                    format!("{who} has no dice: a free die from the bag (-1).")
                }
                (Some(k), None) => format!("{who} declares a {}.", kind_name(*k)),
                (Some(k), Some(f)) => {
                    format!("{who} rolls a {} ({}).", kind_name(*k), forced_text(*f))
                }
            }
        }
        Fact::AnswerWindow { players } => {
            format!("Nuke announced: {} may answer.", names(game, players))
        }
        Fact::Answered { player, switched } => {
            if *switched {
                format!("{} answers with a Nuke!", name(game, *player))
            } else {
                format!("{} keeps the Tank.", name(game, *player))
            }
        }
        Fact::Rolled { dice, .. } => {
            let parts: Vec<String> = dice.iter().map(|d| die_text(game, d)).collect();
            format!("{}.", parts.join("; "))
        }
        _ => unreachable!("fact_text sends battle_text only its own facts"),
    }
}

/// [`fact_text`] for misfires, Wars and how a battle ends.
fn result_text(game: &BattleTanks, fact: &Fact) -> String {
    match fact {
        Fact::Misfires { players } => {
            format!("{} misfire: loot, no War.", names(game, players))
        }
        Fact::AllMisfired { players } => {
            format!("Every die misfired: {} roll again.", names(game, players))
        }
        Fact::War {
            players,
            matched,
            loot,
            ..
        } => {
            let loot_text = match loot.len() {
                0 => String::new(),
                1 => "; 1 die stays as loot".into(),
                n => format!("; {n} dice stay as loot"),
            };
            format!(
                "WAR! {} (match at {matched}){loot_text}.",
                names(game, players)
            )
        }
        Fact::BattleWon {
            winner,
            reason,
            gained,
            ..
        } => {
            let how = match reason {
                WinReason::Highest { value } => format!("with a {value}"),
                WinReason::Meganuke => "with a Meganuke".into(),
                WinReason::Unopposed => "unopposed".into(),
            };
            format!(
                "{} wins {how} and takes {}.",
                name(game, *winner),
                counts(*gained)
            )
        }
        Fact::DoubleMeganuke {
            players, destroyed, ..
        } => format!(
            "DOUBLE MEGANUKE by {}: {} destroyed.",
            names(game, players),
            counts(*destroyed)
        ),
        Fact::WorldEnds { players } => format!(
            "{} Meganukes ({}): THE WORLD IS DESTROYED.",
            players.len(),
            names(game, players)
        ),
        Fact::CalledOff { dice } => format!(
            "Nobody can fight on: {} go back to their owners.",
            plural(u32::try_from(dice.len()).unwrap_or(u32::MAX), "die")
        ),
        _ => unreachable!("fact_text sends result_text only its own facts"),
    }
}

/// [`fact_text`] for eliminations, the Final Battle and the game's end.
fn final_text(game: &BattleTanks, fact: &Fact) -> String {
    match fact {
        Fact::Eliminated { player } => format!("{} is out of dice and out.", name(game, *player)),
        Fact::FinalBattleBegins { players } => {
            format!("FINAL BATTLE: {}!", names(game, players))
        }
        Fact::Launched { player } => format!("{} launches everything.", name(game, *player)),
        Fact::Volley(v) => {
            let sixes = v
                .dice
                .iter()
                .filter(|d| d.damage > 0 && !d.meganuke)
                .count();
            let megas = v.dice.iter().filter(|d| d.meganuke).count();
            format!(
                "{} rolls {} dice: {sixes} hits, {megas} Meganukes, {} damage.",
                name(game, v.player),
                v.dice.len(),
                v.damage
            )
        }
        Fact::GameOver { ending } => {
            let outcome = ending_text(game, *ending);
            format!("Game over: {outcome}.")
        }
        _ => unreachable!("fact_text sends final_text only its own facts"),
    }
}

fn ending_text(game: &BattleTanks, ending: Ending) -> String {
    ending.outcome(game).reason
}
