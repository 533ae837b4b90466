//! A match record is a file a user can edit: the setup inside it is validated exactly as
//! a setup file is, and its problems are placed in the record.

use std::path::Path;

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

/// The line of `needle` in `text`, from 1.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn a_battle_tanks_record_with_too_few_or_many_commanders_is_refused() {
    let setup = "scenarios/battle-tanks/two-players.ron";
    let text = fresh_record::<BattleTanks>(setup);
    let at = line_of(&text, "players: [");
    let none = refused::<BattleTanks>(setup, |t| {
        let start = t.find("players: [").unwrap();
        let end = start + t[start..].find(']').unwrap();
        format!("{}players: [{}", &t[..start], &t[end..])
    });
    assert!(
        none.starts_with(&format!("saves/edited.ron:{at}:9: ")),
        "{none}"
    );
    assert!(none.contains("2 to 8 commanders, not 0"), "{none}");
    let many = refused::<BattleTanks>(setup, |t| {
        let names: Vec<String> = (0..300).map(|i| format!("\"P{i}\"")).collect();
        let start = t.find("players: [").unwrap();
        let end = start + t[start..].find(']').unwrap();
        format!("{}players: [{}{}", &t[..start], names.join(", "), &t[end..])
    });
    assert!(many.contains("not 300"), "{many}");
}

#[test]
fn a_tank_combat_record_with_no_players_or_no_hand_is_refused() {
    let setup = "scenarios/tank-combat/default.ron";
    let none = refused::<TankCombat>(setup, |t| {
        let start = t.find("players: [").unwrap();
        let end = start + t[start..].find("],").unwrap();
        format!("{}players: [{}", &t[..start], &t[end..])
    });
    assert!(none.contains("2 to 8 players, not 0"), "{none}");
    let no_hand = refused::<TankCombat>(setup, |t| t.replacen("hand_size: 5", "hand_size: 0", 1));
    assert!(
        no_hand.contains("hand size must be at least 1"),
        "{no_hand}"
    );
    // Placed at the class, the nearest thing the message names.
    assert!(no_hand.starts_with("saves/edited.ron:"), "{no_hand}");
    assert!(!no_hand.starts_with("saves/edited.ron:1:1"), "{no_hand}");
    let empty_deck = refused::<TankCombat>(setup, |t| {
        let start = t.find("deck: [").unwrap();
        let end = start + t[start..].find("],").unwrap();
        format!("{}deck: [{}", &t[..start], &t[end..])
    });
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
    let no_bands = refused::<RangeDuel>(setup, |t| {
        let start = t.find("bands: [").unwrap();
        let end = start + t[start..].find("],").unwrap();
        format!("{}bands: [{}", &t[..start], &t[end..])
    });
    assert!(no_bands.contains("2 to 20 range bands"), "{no_bands}");
    let no_locations = refused::<RangeDuel>(setup, |t| {
        let start = t.find("locations: [").unwrap();
        let end = start + t[start..].find("],").unwrap();
        format!("{}locations: [{}", &t[..start], &t[end..])
    });
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
