//! Golden playthroughs of all five games, through one runner: a setup, a seed and
//! scripted dice, the actions, and what they must produce in words (each action as
//! "who: action", then its facts), with the final state hash. Each file is a test of its
//! own, so that one failure does not hide the others.
//!
//! After a deliberate rules change, regenerate with `TANKTABLE_BLESS=1 cargo test
//! playthrough` and review the diff of `tests/playthroughs/`. A file with no actions is
//! filled in by the game's default bots when blessed.

use std::path::Path;

use serde::{Deserialize, Serialize};
use tanktable::data::{load_ron, load_ron_lenient};
use tanktable::dispatch_game;
use tanktable::framework::bot::play_out;
use tanktable::framework::hash::format_hash;
use tanktable::framework::playable::{self, Recorded};
use tanktable::framework::rng::derive_seed;
use tanktable::framework::{MatchRng, Playable, PlayerId, RecordedAction};
use tanktable::rules::GameKind;

use crate::project;

/// One action; `refused: true` marks one the rules must refuse (the expected lines then
/// hold the refusal's sentence).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Step<A> {
    player: PlayerId,
    action: A,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    refused: bool,
}

#[derive(Debug, Serialize, Deserialize)]
struct Playthrough<A> {
    game: String,
    description: String,
    /// The setup file, relative to the project.
    setup: String,
    seed: u64,
    #[serde(default)]
    dice: Vec<u32>,
    /// When blessing a file with no actions: how many the bots play (all, if left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    length: Option<usize>,
    actions: Vec<Step<A>>,
    #[serde(default)]
    expected: Vec<String>,
    #[serde(default)]
    final_hash: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename = "Playthrough")]
struct Header {
    game: String,
}

/// Plays the golden file `name` in `tests/playthroughs/` and compares (or, with
/// `TANKTABLE_BLESS`, rewrites) what it says.
fn golden(name: &str) {
    let path = project("tests/playthroughs").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (header, _): (Header, _) = load_ron_lenient(name, &text).unwrap_or_else(|e| panic!("{e}"));
    let game = GameKind::from_name(&header.game)
        .unwrap_or_else(|| panic!("{name}: unknown game `{}`", header.game));
    let bless = std::env::var_os("TANKTABLE_BLESS").is_some();
    dispatch_game!(game, check(&path, &text, bless));
}

fn check<G: Playable>(path: &Path, text: &str, bless: bool) {
    let name = path.display().to_string();
    let (mut p, _): (Playthrough<G::Action>, _) =
        load_ron(&name, text).unwrap_or_else(|e| panic!("{e}"));
    let rules = G::load_rules(None).unwrap_or_else(|e| panic!("{e}"));
    let setup = playable::load_setup::<G>(&project(&p.setup), &rules)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let generated = bless && p.actions.is_empty();
    if generated {
        let game = G::from_setup(&setup).unwrap();
        let mut bots =
            playable::bots_for::<G>(&[], tanktable::framework::Game::player_count(&game)).unwrap();
        let played = play_out(
            game,
            &mut bots,
            &mut MatchRng::scripted(p.seed, p.dice.iter().copied()),
            &mut MatchRng::new(derive_seed(p.seed, 1)),
            p.length.unwrap_or(10_000),
            |_, _| {},
        )
        .unwrap();
        p.actions = played
            .actions
            .into_iter()
            .map(|(player, action)| Step {
                player,
                action,
                refused: false,
            })
            .collect();
    }
    let mut m = playable::start::<G>(&setup, p.seed, &p.dice).unwrap();
    let mut said: Vec<String> = m
        .opening_facts()
        .iter()
        .map(|f| m.state().describe_fact(f))
        .collect();
    for (i, step) in p.actions.iter().enumerate() {
        let who = m.state().player_name(step.player);
        let words = m.state().describe_action(&step.action);
        match m.play(step.player, &step.action) {
            Ok(facts) => {
                assert!(
                    !step.refused,
                    "{name}: action {} ({words}) should have been refused",
                    i + 1
                );
                let facts = facts.to_vec();
                said.push(format!("{who}: {words}"));
                said.extend(facts.iter().map(|f| m.state().describe_fact(f)));
            }
            Err(why) => {
                assert!(
                    step.refused,
                    "{name}: action {} ({words}) was refused: {why}",
                    i + 1
                );
                said.push(format!("Refused: {who}: {words}: {why}"));
            }
        }
    }
    assert_eq!(
        m.rng_mut().script_left(),
        0,
        "{name}: not every scripted die was used"
    );
    let hash = format_hash(m.state_hash());
    // The accepted actions, as a match record written and read back the game's own way,
    // replay to the same state.
    let record = Recorded::<G> {
        setup: setup.clone(),
        seed: p.seed,
        dice: p.dice.clone(),
        seats: Vec::new(),
        actions: p
            .actions
            .iter()
            .filter(|s| !s.refused)
            .map(|s| RecordedAction {
                player: s.player,
                action: s.action.clone(),
            })
            .collect(),
        final_hash: Some(hash.clone()),
        own_rules: false,
    };
    let written = G::write_record(&record).unwrap();
    let read = G::read_record(&project("tests/playthroughs/record"), &written, &rules)
        .unwrap_or_else(|e| panic!("{name}: the record does not read back: {e}\n{written}"));
    let replayed = playable::replay(&read).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        format_hash(replayed.state_hash()),
        hash,
        "{name}: record replay"
    );
    if bless {
        write_blessed(path, text, &p, &said, &hash, generated);
        return;
    }
    for (i, (got, want)) in said.iter().zip(&p.expected).enumerate() {
        assert_eq!(got, want, "{name}: line {} of the expected lines", i + 1);
    }
    assert_eq!(said.len(), p.expected.len(), "{name}: number of lines");
    assert_eq!(Some(hash), p.final_hash, "{name}: final state hash");
}

/// Keeps the hand-written head of the file (comments included) and rewrites what
/// follows; a file whose actions the bots made is written whole.
fn write_blessed<A: Serialize>(
    path: &Path,
    text: &str,
    p: &Playthrough<A>,
    said: &[String],
    hash: &str,
    generated: bool,
) {
    let head = if generated {
        let mut whole = Playthrough {
            game: p.game.clone(),
            description: p.description.clone(),
            setup: p.setup.clone(),
            seed: p.seed,
            dice: p.dice.clone(),
            length: p.length,
            actions: Vec::new(),
            expected: Vec::new(),
            final_hash: None,
        };
        whole.actions = p
            .actions
            .iter()
            .map(|s| Step {
                player: s.player,
                action: &s.action,
                refused: s.refused,
            })
            .collect();
        let full = tanktable::data::to_ron_pretty(&whole).unwrap();
        full[..full.find("    expected:").unwrap()].to_string()
    } else {
        let end = text
            .find("    expected:")
            .or_else(|| text.rfind(')'))
            .unwrap();
        text[..end].to_string()
    };
    let mut out = head.trim_end().to_string();
    if !out.ends_with(',') {
        out.push(',');
    }
    out.push_str("\n    expected: [\n");
    for line in said {
        out.push_str(&format!(
            "        {},\n",
            serde_json::to_string(line).unwrap()
        ));
    }
    out.push_str(&format!("    ],\n    final_hash: \"{hash}\",\n)\n"));
    tanktable::data::write_atomic(path, &out).unwrap();
}

/// One test per golden file; [`every_golden_file_has_its_test`] keeps this list and the
/// folder in step.
macro_rules! goldens {
    ($($test:ident => $file:literal,)*) => {
        $(
            #[test]
            fn $test() {
                golden($file);
            }
        )*
        const GOLDEN_FILES: &[&str] = &[$($file),*];
    };
}

goldens! {
    playthrough_tank_commander_crew_kills => "tank-commander-crew-kills.ron",
    playthrough_tank_commander_crew_wounds => "tank-commander-crew-wounds.ron",
    playthrough_tank_commander_fire_and_cook_off => "tank-commander-fire-and-cook-off.ron",
    playthrough_tank_commander_firing_outcomes => "tank-commander-firing-outcomes.ron",
    playthrough_tank_commander_turn_limit => "tank-commander-turn-limit.ron",
    playthrough_tank_commander_mines_and_air_strikes => "tank-commander-mines-and-air-strikes.ron",
    playthrough_tank_commander_lieutenant_takes_over => "tank-commander-lieutenant-takes-over.ron",
    playthrough_tank_commander_capture_objectives => "tank-commander-capture-objectives.ron",
    playthrough_tank_commander_infantry => "tank-commander-infantry.ron",
    playthrough_tank_commander_escort => "tank-commander-escort.ron",
    playthrough_tank_commander_apc_bail_out => "tank-commander-apc-bail-out.ron",
    playthrough_tank_commander_destroy_target => "tank-commander-destroy-target.ron",
    playthrough_tank_commander_breakthrough => "tank-commander-breakthrough.ron",
    playthrough_tank_commander_disable_aa_guns => "tank-commander-disable-aa-guns.ron",
    playthrough_tank_commander_night_raid => "tank-commander-night-raid.ron",
    playthrough_tank_commander_urban_warfare => "tank-commander-urban-warfare.ron",
    playthrough_tank_commander_beach_landing => "tank-commander-beach-landing.ron",
    playthrough_tank_commander_river_crossing => "tank-commander-river-crossing.ron",
    playthrough_tank_commander_cross_minefield => "tank-commander-cross-minefield.ron",
    playthrough_tank_commander_command_tank => "tank-commander-command-tank.ron",
    playthrough_tank_commander_spotters => "tank-commander-spotters.ron",
    playthrough_tank_commander_crossroads => "tank-commander-crossroads.ron",
    playthrough_tank_commander_three_flags => "tank-commander-three-flags.ron",
    playthrough_tank_chess_announced_check => "tank-chess-announced-check.ron",
    playthrough_tank_chess_four_players => "tank-chess-four-players.ron",
    playthrough_battle_tanks_two => "battle-tanks-two.ron",
    playthrough_battle_tanks_final_battle => "battle-tanks-final-battle.ron",
    playthrough_battle_tanks_war => "battle-tanks-war.ron",
    playthrough_tank_combat_deathmatch => "tank-combat-deathmatch.ron",
    playthrough_tank_combat_duel => "tank-combat-duel.ron",
    playthrough_tank_combat_scripted_shuffle => "tank-combat-scripted-shuffle.ron",
    playthrough_range_duel_bots => "range-duel-bots.ron",
    playthrough_range_duel_knife_fight => "range-duel-knife-fight.ron",
}

#[test]
fn every_golden_file_has_its_test() {
    let dir = project("tests/playthroughs");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ron"))
        .collect();
    files.sort();
    let mut listed: Vec<String> = GOLDEN_FILES.iter().map(|s| (*s).to_string()).collect();
    listed.sort();
    assert_eq!(
        files,
        listed,
        "add a line to `goldens!` for each file in {}",
        dir.display()
    );
    for game in GameKind::ALL {
        assert!(
            files.iter().any(|f| f.starts_with(game.name())),
            "no golden playthrough of {game}"
        );
    }
}
