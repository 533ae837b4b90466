//! A match record is a file a user can edit: the setup inside it is validated exactly as
//! a setup file is, and its problems are placed in the record.

use std::path::Path;

use crate::framework::Game;
use crate::framework::playable::{self, Playable, Recorded};
use crate::rules::battle_tanks::BattleTanks;
use crate::rules::range_duel::RangeDuel;
use crate::rules::tank_combat::TankCombat;
use crate::rules::tank_commander::TankCommander;

fn project(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The record, as text, of a match on `setup` before anyone has acted.
fn fresh_record<G: Playable>(setup: &str) -> String {
    let rules = G::load_rules(None).unwrap();
    let setup = playable::load_setup::<G>(&project(setup), &rules).unwrap();
    let game = playable::start::<G>(&setup, 1, &[]).unwrap();
    G::write_record(&Recorded::of(&setup, 1, &[], &[], &game)).unwrap()
}

/// `edit` applied to a fresh record's text, which must change it, then read back: the
/// error's text.
fn refused<G: Playable>(setup: &str, edit: impl Fn(&str) -> String) -> String {
    let text = fresh_record::<G>(setup);
    let edited = edit(&text);
    assert_ne!(edited, text, "the edit changed nothing");
    let rules = G::load_rules(None).unwrap();
    match G::read_record(Path::new("saves/edited.ron"), &edited, &rules) {
        Ok(_) => panic!("the edited record was accepted:\n{edited}"),
        Err(e) => e.to_string(),
    }
}

/// `text` with the list that opens at `open` (`players: [`) emptied; `close` ends it.
fn emptied(text: &str, open: &str, close: &str) -> String {
    let start = text.find(open).unwrap();
    let end = start + text[start..].find(close).unwrap();
    format!("{}{open}{}", &text[..start], &text[end..])
}

/// The line of `needle` in `text`, from 1.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn a_battle_tanks_record_with_too_few_or_many_commanders_is_refused() {
    let setup = "scenarios/battle-tanks/two-players.ron";
    let text = fresh_record::<BattleTanks>(setup);
    let at = line_of(&text, "players: [");
    let none = refused::<BattleTanks>(setup, |t| emptied(t, "players: [", "]"));
    assert!(
        none.starts_with(&format!("saves/edited.ron:{at}:9: ")),
        "{none}"
    );
    assert!(none.contains("2 to 8 commanders, not 0"), "{none}");
    let many = refused::<BattleTanks>(setup, |t| {
        let names: Vec<String> = (0..300).map(|i| format!("\"P{i}\"")).collect();
        emptied(t, "players: [", "]").replacen(
            "players: [",
            &format!("players: [{}", names.join(", ")),
            1,
        )
    });
    assert!(many.contains("not 300"), "{many}");
}

#[test]
fn a_tank_combat_record_with_no_players_or_no_hand_is_refused() {
    let setup = "scenarios/tank-combat/default.ron";
    let none = refused::<TankCombat>(setup, |t| emptied(t, "players: [", "],"));
    assert!(none.contains("2 to 8 players, not 0"), "{none}");
    let no_hand = refused::<TankCombat>(setup, |t| t.replacen("hand_size: 5", "hand_size: 0", 1));
    assert!(
        no_hand.contains("a hand size is 1 to 20, not 0"),
        "{no_hand}"
    );
    // Placed at the hand size itself.
    assert!(no_hand.starts_with("saves/edited.ron:"), "{no_hand}");
    assert!(!no_hand.starts_with("saves/edited.ron:1:1"), "{no_hand}");
    let empty_deck = refused::<TankCombat>(setup, |t| emptied(t, "deck: [", "],"));
    assert!(
        empty_deck.contains("the deck holds 0 cards"),
        "{empty_deck}"
    );
}

#[test]
fn a_range_duel_record_with_a_broken_table_or_start_is_refused() {
    let setup = "scenarios/range-duel/default.ron";
    let text = fresh_record::<RangeDuel>(setup);
    let far = refused::<RangeDuel>(setup, |t| {
        t.replacen("start_range: 3,", "start_range: 200,", 1)
    });
    let at = line_of(&text, "start_range: 3,");
    assert!(
        far.starts_with(&format!("saves/edited.ron:{at}:9: there is no band 200")),
        "{far}"
    );
    let no_bands = refused::<RangeDuel>(setup, |t| emptied(t, "bands: [", "],"));
    assert!(no_bands.contains("2 to 20 range bands"), "{no_bands}");
    let no_locations = refused::<RangeDuel>(setup, |t| emptied(t, "locations: [", "],"));
    assert!(
        no_locations.contains("cover every d6 face"),
        "{no_locations}"
    );
    let fat = refused::<RangeDuel>(setup, |t| t.replacen("front: 3,", "front: 250,", 1));
    assert!(fat.contains("at most 3 upgrade points, not 250"), "{fat}");
}

#[test]
fn a_tank_commander_record_places_its_scenario_problems() {
    let setup = "scenarios/skirmish.ron";
    let text = fresh_record::<TankCommander>(setup);
    let at = line_of(&text, "\"Red Baron\"");
    let twin = refused::<TankCommander>(setup, |t| t.replacen("\"Red Baron\"", "\"iron duke\"", 1));
    assert!(
        twin.starts_with(&format!("saves/edited.ron:{at}:")),
        "{twin}"
    );
    assert!(twin.contains("differ in more than case"), "{twin}");
    assert!(!twin.contains("<inline scenario>"), "{twin}");
}

/// The error of replaying `text` (a record that reads), placed in it.
fn replay_error<G: Playable>(text: &str) -> String {
    let rules = G::load_rules(None).unwrap();
    let record = G::read_record(Path::new("saves/edited.ron"), text, &rules).unwrap();
    playable::replay(&record)
        .map(|_| ())
        .unwrap_err()
        .locate("saves/edited.ron", text)
        .to_string()
}

#[test]
fn replay_errors_name_the_file_and_their_place_in_words() {
    let setup = "scenarios/skirmish.ron";
    let rules = TankCommander::load_rules(None).unwrap();
    let setup = playable::load_setup::<TankCommander>(&project(setup), &rules).unwrap();
    let mut game = playable::start::<TankCommander>(&setup, 1, &[]).unwrap();
    let first = game.state().to_act()[0];
    let activate = game.state().legal_actions(first)[0];
    game.play(first, &activate).unwrap();
    let text = TankCommander::write_record(&Recorded::of(&setup, 1, &[], &[], &game)).unwrap();

    let illegal = text.replacen("Activate(0)", "Fire(Unit(1))", 1);
    let err = replay_error::<TankCommander>(&illegal);
    let at = line_of(&illegal, "RecordedAction(");
    assert!(
        err.starts_with(&format!("saves/edited.ron:{at}:9: action 1 (fire")),
        "{err}"
    );
    assert!(!err.contains("UnitId"), "Debug output leaked: {err}");
    assert!(err.contains("by Blue) cannot be played"), "{err}");

    let hash: String = text
        .lines()
        .map(|l| match l.find("final_hash") {
            Some(i) => format!("{}final_hash: \"0x0000000000000000\",\n", &l[..i]),
            None => format!("{l}\n"),
        })
        .collect();
    let err = replay_error::<TankCommander>(&hash);
    let at = line_of(&hash, "final_hash");
    assert!(
        err.starts_with(&format!(
            "saves/edited.ron:{at}:5: the replay ends in state"
        )),
        "{err}"
    );

    let dice = text.replacen("    seed: 1,\n", "    seed: 1,\n    dice: [3, 9],\n", 1);
    let err = replay_error::<TankCommander>(&dice);
    let at = line_of(&dice, "dice: [");
    assert!(
        err.starts_with(&format!(
            "saves/edited.ron:{at}:15: the match cannot start: scripted die dice[1] is 9"
        )),
        "{err}"
    );
}

/// A Tank Commander record of a finished bot game on the skirmish, as text.
fn finished_skirmish() -> String {
    let rules = TankCommander::load_rules(None).unwrap();
    let setup =
        playable::load_setup::<TankCommander>(&project("scenarios/skirmish.ron"), &rules).unwrap();
    let mut game = playable::start::<TankCommander>(&setup, 5, &[]).unwrap();
    let mut bots = playable::bots_for::<TankCommander>(&[], 2).unwrap();
    let mut rng = crate::framework::MatchRng::new(9);
    while game.state().outcome().is_none() && game.history().len() < 400 {
        let player = game.state().to_act()[0];
        let action = bots[usize::from(player.0)]
            .choose(game.state(), player, &mut rng)
            .unwrap();
        game.play(player, &action).unwrap();
    }
    TankCommander::write_record(&Recorded::of(&setup, 5, &[], &[], &game)).unwrap()
}

#[test]
fn a_record_replays_under_the_rules_it_was_played_with() {
    use crate::rules::tank_commander::setup::{BUILTIN_RULES, Rules};
    let text = finished_skirmish();
    assert!(
        text.contains("    rules: Rules("),
        "the record carries its rules"
    );
    // The project's rules change: the tanks are tougher now.
    let changed = Rules::parse("x.ron", &BUILTIN_RULES.replacen("hull: 4", "hull: 6", 1)).unwrap();
    let path = Path::new("saves/old.ron");
    let record = TankCommander::read_record(path, &text, &changed).unwrap();
    assert!(record.own_rules);
    assert!(
        record
            .rules_notice()
            .unwrap()
            .contains("differ from the project's")
    );
    playable::replay(&record).expect("it replays under its own rules");
    // Under the same rules nothing is said.
    let same = TankCommander::read_record(path, &text, &Rules::builtin()).unwrap();
    assert!(!same.own_rules && same.rules_notice().is_none());
    // A record from before rules were kept replays under the current ones, and says
    // why it no longer matches.
    let start = text.find("    rules: Rules(").unwrap();
    let old = format!("{})\n", &text[..start]);
    let record = TankCommander::read_record(path, &old, &changed).unwrap();
    let err = playable::replay(&record).map(|_| ()).unwrap_err();
    assert!(
        err.message.contains("the rules or the setup changed"),
        "{err}"
    );
    // The carried rules are checked as the rules file is, and placed in the record.
    let broken = text.replacen("accuracy: 4,", "accuracy: 9,", 1);
    let at = broken
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("accuracy: 9"))
        .last()
        .unwrap()
        .0
        + 1;
    let err = TankCommander::read_record(path, &broken, &changed)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&format!(
            "saves/old.ron:{at}:13: accuracy is a d6 target number"
        )),
        "{err}"
    );
}

#[test]
fn a_chess_record_carries_its_rules_in_a_tag() {
    use crate::rules::tank_chess::{Rules, TankChess};
    let rules = Rules::builtin();
    let path = project("scenarios/tank-chess/basic-16.ron");
    let setup = playable::load_setup::<TankChess>(&path, &rules).unwrap();
    let mut game = playable::start::<TankChess>(&setup, 0, &[]).unwrap();
    for _ in 0..4 {
        let player = game.state().to_act()[0];
        let action = game.state().legal_actions(player)[0];
        game.play(player, &action).unwrap();
    }
    let text = TankChess::write_record(&Recorded::of(&setup, 0, &[], &[], &game)).unwrap();
    assert!(text.contains("[Rules \"(light:"), "{text}");
    let mut faster = rules.clone();
    faster.light.speed += 2;
    let read = TankChess::read_record(Path::new("old.tcn"), &text, &faster).unwrap();
    assert!(read.own_rules);
    assert_eq!(read.setup.rules, rules);
    assert_eq!(read.actions.len(), 4);
}
