//! Battle Tanks tests: the rulebook's examples, each rule and edge case with scripted
//! dice, refusals, setups, determinism, random play, and the heuristic bot.

use std::path::Path;

use proptest::prelude::*;

use super::*;
use crate::framework::bot::play_out;
use crate::framework::{Game, Match, MatchRng, PlayerId};

const ANN: PlayerId = PlayerId(0);
const BOB: PlayerId = PlayerId(1);
const CAT: PlayerId = PlayerId(2);
const DAN: PlayerId = PlayerId(3);

fn parse(text: &str) -> Result<BattleSetup, crate::data::Diagnostics> {
    BattleSetup::parse(Path::new("test.ron"), text)
}

/// `n` commanders (Ann, Bob, Cat...) with `rules` overrides.
fn game(n: usize, rules: &str) -> BattleTanks {
    let names: Vec<String> = BattleSetup::with_players(n)
        .players
        .iter()
        .map(|p| format!("\"{p}\""))
        .collect();
    let text = format!(
        "BattleTanksSetup(name: \"t\", players: [{}], rules: ({rules}))",
        names.join(", ")
    );
    BattleTanks::new(&parse(&text).expect("valid test setup"))
}

/// `n` commanders who may roll Nukes from the first roll (two of them fight battles).
fn nukes_allowed(n: usize) -> BattleTanks {
    game(n, "first_roll_no_nuke: false, two_player_start: Battles")
}

fn play(g: &mut BattleTanks, p: PlayerId, a: Action, script: &[u32]) -> Vec<Fact> {
    let mut rng = MatchRng::scripted(0, script.iter().copied());
    let facts = g.apply(p, &a, &mut rng).expect("legal action");
    assert_eq!(rng.script_left(), 0, "unused dice in the script");
    facts
}

fn begin(g: &mut BattleTanks, script: &[u32]) -> Vec<Fact> {
    let mut rng = MatchRng::scripted(0, script.iter().copied());
    let facts = g.begin(&mut rng);
    assert_eq!(rng.script_left(), 0, "unused dice in the script");
    facts
}

fn won(facts: &[Fact]) -> Option<(PlayerId, WinReason, DieCounts)> {
    facts.iter().find_map(|f| match f {
        Fact::BattleWon {
            winner,
            reason,
            gained,
            ..
        } => Some((*winner, *reason, *gained)),
        _ => None,
    })
}

fn war(facts: &[Fact]) -> Option<Vec<PlayerId>> {
    facts.iter().find_map(|f| match f {
        Fact::War { players, .. } => Some(players.clone()),
        _ => None,
    })
}

fn check_census(g: &BattleTanks) {
    let c = g.census();
    let r = g.rules();
    let n = u32::try_from(g.players().len()).unwrap();
    assert_eq!(
        c.total(),
        n * (u32::from(r.tanks) + u32::from(r.nukes)) + u32::from(r.bag),
        "{c:?}"
    );
    assert_eq!(c.nukes(), n * u32::from(r.nukes), "{c:?}");
}

#[test]
fn shipped_scenarios_are_valid() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/battle-tanks");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        count += 1;
    }
    assert!(count >= 4);
    assert_eq!(BattleSetup::builtin_default().players.len(), 4);
}

#[test]
fn rulebook_a_nuke_2_matches_a_tank_3() {
    let mut g = nukes_allowed(2);
    begin(&mut g, &[]);
    play(&mut g, ANN, Action::Nuke, &[]);
    // Bob declared after Ann's announcement: no answer window; both dice roll.
    let f = play(&mut g, BOB, Action::Tank, &[2, 3]);
    assert_eq!(war(&f), Some(vec![ANN, BOB]));
    assert!(g.at_war());
    // Ann may not roll her (only) Nuke twice in a row: her Tank is declared for her.
    assert_eq!(g.to_act(), vec![BOB]);
    assert_eq!(g.legal_actions(BOB), vec![Action::Tank, Action::Nuke]);
}

#[test]
fn rulebook_a_nuke_3_beats_a_tank_3() {
    let mut g = nukes_allowed(2);
    begin(&mut g, &[]);
    play(&mut g, ANN, Action::Nuke, &[]);
    let f = play(&mut g, BOB, Action::Tank, &[3, 3]);
    let (winner, reason, gained) = won(&f).unwrap();
    assert_eq!(winner, ANN);
    assert_eq!(reason, WinReason::Highest { value: 4 });
    assert_eq!((gained.tanks, gained.nukes), (1, 1));
    assert_eq!((g.player(ANN).tanks, g.player(ANN).nukes), (6, 1));
    assert_eq!((g.player(BOB).tanks, g.player(BOB).nukes), (4, 1));
    check_census(&g);
}

#[test]
fn no_nuke_on_the_first_roll_of_the_game() {
    let mut g = game(3, "");
    let f = begin(&mut g, &[6, 3, 2]);
    assert!(f.iter().any(|x| matches!(
        x,
        Fact::Declared {
            forced: Some(Forced::FirstRoll),
            ..
        }
    )));
    assert_eq!(won(&f).unwrap().0, ANN);
    assert_eq!(g.player(ANN).tanks, 7);
    // Battle 2: Bob declares first, and Nukes are allowed.
    assert_eq!(g.battle(), 2);
    assert_eq!(g.to_act(), vec![BOB]);
    assert_eq!(g.legal_actions(BOB), vec![Action::Tank, Action::Nuke]);
}

#[test]
fn no_nuke_twice_in_a_row_unless_only_nukes_are_left() {
    let mut g = nukes_allowed(3);
    begin(&mut g, &[]);
    play(&mut g, ANN, Action::Nuke, &[]);
    play(&mut g, BOB, Action::Tank, &[]);
    let f = play(&mut g, CAT, Action::Tank, &[5, 3, 2]);
    // Bob and Cat declared after Ann's announcement: no answer window.
    assert!(!f.iter().any(|x| matches!(x, Fact::AnswerWindow { .. })));
    assert_eq!(won(&f).unwrap().0, ANN);
    assert!(g.player(ANN).rolled_nuke_last);
    assert_eq!(
        g.weapon_choices(ANN),
        (vec![DieKind::Tank], Some(Forced::NukeBarred))
    );
    g.players[0].tanks = 0;
    assert_eq!(
        g.weapon_choices(ANN),
        (vec![DieKind::Nuke], Some(Forced::OnlyNukes))
    );
}

#[test]
fn tank_declarers_before_a_nuke_may_answer() {
    let mut g = nukes_allowed(3);
    begin(&mut g, &[]);
    play(&mut g, ANN, Action::Tank, &[]);
    play(&mut g, BOB, Action::Nuke, &[]);
    let f = play(&mut g, CAT, Action::Tank, &[]);
    assert!(f.contains(&Fact::AnswerWindow { players: vec![ANN] }));
    assert_eq!(g.to_act(), vec![ANN]);
    assert_eq!(
        g.legal_actions(ANN),
        vec![Action::Keep, Action::SwitchToNuke]
    );
    let f = play(&mut g, ANN, Action::SwitchToNuke, &[4, 4, 6]);
    let Some(Fact::Rolled { dice, .. }) = f.iter().find(|x| matches!(x, Fact::Rolled { .. }))
    else {
        panic!("no roll: {f:?}")
    };
    assert_eq!(dice[0].kind, DieKind::Nuke);
    assert_eq!(dice[0].value, 5);
    assert_eq!(dice[1].value, 5);
    // A match at 5 and Cat's higher 6: all three go to War.
    assert_eq!(war(&f), Some(vec![ANN, BOB, CAT]));
    check_census(&g);
}

#[test]
fn every_matching_pair_goes_to_war_not_only_the_highest() {
    // The rulebook: any matching dice, and any dice above the highest match.
    let mut g = game(4, "");
    let f = begin(&mut g, &[5, 5, 3, 3]);
    assert_eq!(war(&f), Some(vec![ANN, BOB, CAT, DAN]));
    let mut g = game(5, "");
    let f = begin(&mut g, &[2, 2, 4, 5, 5]);
    assert_eq!(war(&f), Some(vec![ANN, BOB, DAN, PlayerId(4)]));
    let loot = f.iter().find_map(|x| match x {
        Fact::War { loot, .. } => Some(loot.len()),
        _ => None,
    });
    assert_eq!(loot, Some(1), "only the unmatched 4 waits as loot");
    // The other reading: only the highest pair (and anything above it) fights.
    let mut g = game(4, "war_matches: Highest");
    let f = begin(&mut g, &[5, 5, 3, 3]);
    assert_eq!(war(&f), Some(vec![ANN, BOB]));
    let mut g = game(5, "war_matches: Highest");
    let f = begin(&mut g, &[2, 2, 4, 5, 5]);
    assert_eq!(war(&f), Some(vec![DAN, PlayerId(4)]));
}

#[test]
fn a_match_and_anything_higher_go_to_war_the_rest_is_loot() {
    let mut g = game(4, "");
    let f = begin(&mut g, &[3, 3, 5, 2]);
    assert_eq!(war(&f), Some(vec![ANN, BOB, CAT]));
    let view = g.view(PlayerId(3));
    let at_war: Vec<bool> = view.players.iter().map(|p| p.at_war).collect();
    assert_eq!(at_war, vec![true, true, true, false]);
    assert_eq!((view.war, g.rounds()), (1, 1));
    let Some(Fact::War {
        matched,
        war_dice,
        loot,
        ..
    }) = f.iter().find(|x| matches!(x, Fact::War { .. }))
    else {
        panic!()
    };
    assert_eq!((*matched, war_dice.len(), loot.clone()), (3, 3, vec![3]));
    assert_eq!(g.contenders(), &[ANN, BOB, CAT]);
    assert_eq!(g.battlefield().iter().filter(|d| d.at_war).count(), 3);
    // The War: Ann, Bob and Cat each declare again (Dan sits it out).
    assert_eq!(g.to_act(), vec![ANN]);
    play(&mut g, ANN, Action::Tank, &[]);
    play(&mut g, BOB, Action::Tank, &[]);
    let f = play(&mut g, CAT, Action::Tank, &[2, 6, 4]);
    let (winner, _, gained) = won(&f).unwrap();
    assert_eq!((winner, gained.tanks), (BOB, 7));
    assert_eq!(g.player(BOB).tanks, 3 + 7);
    check_census(&g);
}

#[test]
fn double_misfires_stay_as_loot() {
    let mut g = game(3, "");
    let f = begin(&mut g, &[1, 1, 4]);
    assert!(f.contains(&Fact::Misfires {
        players: vec![ANN, BOB]
    }));
    assert_eq!(won(&f).unwrap().0, CAT);
    assert_eq!(g.player(CAT).tanks, 7);
}

#[test]
fn a_single_misfire_loses() {
    let mut g = game(2, "two_player_start: Battles");
    let f = begin(&mut g, &[1, 2]);
    assert_eq!(won(&f).unwrap().0, BOB);
}

#[test]
fn when_every_die_misfires_the_same_commanders_roll_again() {
    let mut g = game(2, "two_player_start: Battles");
    let f = begin(&mut g, &[1, 1]);
    assert!(f.contains(&Fact::AllMisfired {
        players: vec![ANN, BOB]
    }));
    assert_eq!(g.battlefield().len(), 2);
    play(&mut g, ANN, Action::Tank, &[]);
    let f = play(&mut g, BOB, Action::Tank, &[2, 5]);
    let (winner, _, gained) = won(&f).unwrap();
    assert_eq!((winner, gained.tanks), (BOB, 4));
}

#[test]
fn a_meganuke_wins_whatever_else_happens() {
    let mut g = nukes_allowed(3);
    begin(&mut g, &[]);
    play(&mut g, ANN, Action::Nuke, &[]);
    play(&mut g, BOB, Action::Tank, &[]);
    let f = play(&mut g, CAT, Action::Tank, &[6, 4, 4]);
    let (winner, reason, _) = won(&f).unwrap();
    assert_eq!((winner, reason), (ANN, WinReason::Meganuke));
    assert!(war(&f).is_none());
}

#[test]
fn a_double_meganuke_destroys_the_battlefield() {
    let mut g = nukes_allowed(3);
    begin(&mut g, &[]);
    play(&mut g, ANN, Action::Nuke, &[]);
    play(&mut g, BOB, Action::Nuke, &[]);
    let f = play(&mut g, CAT, Action::Tank, &[6, 6, 5]);
    let destroyed = f.iter().find_map(|x| match x {
        Fact::DoubleMeganuke { destroyed, .. } => Some(*destroyed),
        _ => None,
    });
    assert_eq!(destroyed, Some(DieCounts { tanks: 1, nukes: 2 }));
    assert!(won(&f).is_none());
    assert!(g.battlefield().is_empty());
    assert_eq!(g.destroyed().total(), 3);
    assert_eq!(g.player(ANN).nukes, 0);
    check_census(&g);
    assert_eq!(g.battle(), 2);
}

#[test]
fn three_meganukes_end_the_world() {
    let mut g = nukes_allowed(3);
    begin(&mut g, &[]);
    play(&mut g, ANN, Action::Nuke, &[]);
    play(&mut g, BOB, Action::Nuke, &[]);
    let f = play(&mut g, CAT, Action::Nuke, &[6, 6, 6]);
    assert!(f.contains(&Fact::WorldEnds {
        players: vec![ANN, BOB, CAT]
    }));
    let outcome = g.outcome().unwrap();
    assert!(outcome.is_draw());
    assert!(g.to_act().is_empty());
}

#[test]
fn a_double_meganuke_can_leave_nobody() {
    let mut g = nukes_allowed(2);
    for p in &mut g.players {
        p.tanks = 0;
    }
    let f = begin(&mut g, &[6, 6]);
    assert!(f.iter().any(|x| matches!(x, Fact::DoubleMeganuke { .. })));
    assert_eq!(
        f.iter()
            .filter(|x| matches!(x, Fact::Eliminated { .. }))
            .count(),
        2
    );
    assert_eq!(g.phase(), &Phase::Over(Ending::NobodyLeft));
    assert!(g.outcome().unwrap().is_draw());
}

#[test]
fn a_last_roll_that_goes_to_war_gets_a_free_die_at_minus_one() {
    let mut g = game(2, "two_player_start: Battles");
    g.players[0].tanks = 1;
    g.players[0].nukes = 0;
    let total = g.census().total();
    let f = begin(&mut g, &[4, 4]);
    assert!(war(&f).is_some());
    assert!(f.contains(&Fact::Declared {
        player: ANN,
        kind: Some(DieKind::Free),
        forced: Some(Forced::EmptyArsenal),
    }));
    let f = play(&mut g, BOB, Action::Tank, &[6, 4]);
    let Some(Fact::Rolled { dice, .. }) = f.iter().find(|x| matches!(x, Fact::Rolled { .. }))
    else {
        panic!()
    };
    assert_eq!(
        (dice[0].kind, dice[0].face, dice[0].value),
        (DieKind::Free, 6, 5)
    );
    let (winner, _, gained) = won(&f).unwrap();
    assert_eq!((winner, gained.tanks), (ANN, 4));
    // The free die stays in the game as one of Ann's Tanks.
    assert_eq!(g.player(ANN).tanks, 4);
    assert_eq!(g.bag(), 7);
    assert_eq!(g.census().total(), total);
}

#[test]
fn a_free_die_still_misfires_on_a_1() {
    let rules = BattleRules::default();
    assert_eq!(
        BattleTanks::die_value(&rules, DieKind::Free, 1),
        (0, true, false)
    );
    assert_eq!(
        BattleTanks::die_value(&rules, DieKind::Free, 2),
        (1, false, false)
    );
    assert_eq!(
        BattleTanks::die_value(&rules, DieKind::Nuke, 1),
        (0, true, false)
    );
    assert_eq!(
        BattleTanks::die_value(&rules, DieKind::Nuke, 6),
        (7, false, true)
    );
}

#[test]
fn an_empty_bag_leaves_the_war_to_the_others() {
    let mut g = game(2, "bag: 0, two_player_start: Battles");
    g.players[0].tanks = 1;
    g.players[0].nukes = 0;
    let f = begin(&mut g, &[4, 4]);
    assert!(f.contains(&Fact::Declared {
        player: ANN,
        kind: None,
        forced: Some(Forced::BagEmpty),
    }));
    // Bob is the only one left to roll: he takes the Battlefield unopposed.
    let f = play(&mut g, BOB, Action::Tank, &[]);
    let (winner, reason, _) = won(&f).unwrap();
    assert_eq!((winner, reason), (BOB, WinReason::Unopposed));
    assert_eq!(g.outcome().unwrap().winners, vec![BOB]);
}

#[test]
fn a_commander_with_no_dice_after_a_battle_is_out_and_two_left_fight_the_final_battle() {
    let mut g = game(3, "");
    g.players[2].tanks = 1;
    g.players[2].nukes = 0;
    let f = begin(&mut g, &[6, 3, 2]);
    assert!(f.contains(&Fact::Eliminated { player: CAT }));
    assert!(f.contains(&Fact::FinalBattleBegins {
        players: [ANN, BOB]
    }));
    assert_eq!(g.to_act(), vec![ANN]);
    assert_eq!(g.legal_actions(ANN), vec![Action::Launch]);
}

#[test]
fn final_battle_damage_tank_6_nuke_5_meganuke_3() {
    let mut g = game(3, "");
    g.players[2].tanks = 1;
    g.players[2].nukes = 0;
    begin(&mut g, &[6, 3, 2]);
    // Ann: 7 Tanks and 1 Nuke; Bob: 4 Tanks and 1 Nuke.
    play(&mut g, ANN, Action::Launch, &[]);
    let f = play(
        &mut g,
        BOB,
        Action::Launch,
        &[6, 6, 5, 1, 2, 3, 4, 5, /* Bob */ 6, 2, 2, 2, 6],
    );
    let volleys: Vec<&Volley> = f
        .iter()
        .filter_map(|x| match x {
            Fact::Volley(v) => Some(v),
            _ => None,
        })
        .collect();
    // Ann: two Tank 6s and a Nuke 5 (value 6); Bob: a Tank 6 and a Meganuke.
    assert_eq!((volleys[0].damage, volleys[1].damage), (3, 4));
    assert_eq!(g.outcome().unwrap().winners, vec![BOB]);
    assert_eq!(g.final_battle().len(), 2);
}

#[test]
fn a_tied_final_battle_kills_everyone() {
    let mut g = game(2, "two_player_start: FinalBattle");
    let f = begin(&mut g, &[]);
    assert!(f.contains(&Fact::FinalBattleBegins {
        players: [ANN, BOB]
    }));
    play(&mut g, ANN, Action::Launch, &[]);
    play(
        &mut g,
        BOB,
        Action::Launch,
        &[6, 2, 2, 2, 2, 2, 2, 6, 2, 2, 2, 2],
    );
    assert_eq!(g.phase(), &Phase::Over(Ending::FinalTie { damage: 1 }));
    assert!(g.outcome().unwrap().is_draw());
}

#[test]
fn the_nuke_damage_face_is_a_switch() {
    let rules = BattleRules {
        nuke_damage_face: 4,
        ..BattleRules::default()
    };
    assert_eq!(resolve::final_damage(&rules, DieKind::Nuke, 4), 1);
    assert_eq!(resolve::final_damage(&rules, DieKind::Nuke, 5), 0);
    let rules = BattleRules::default();
    assert_eq!(resolve::final_damage(&rules, DieKind::Nuke, 5), 1);
    assert_eq!(resolve::final_damage(&rules, DieKind::Nuke, 6), 3);
    assert_eq!(resolve::final_damage(&rules, DieKind::Tank, 6), 1);
    assert_eq!(resolve::final_damage(&rules, DieKind::Tank, 5), 0);
}

#[test]
fn two_players_play_battles_until_one_is_out() {
    let mut g = game(2, "two_player_start: Battles");
    g.players[1].tanks = 1;
    g.players[1].nukes = 0;
    let f = begin(&mut g, &[5, 2]);
    assert!(f.contains(&Fact::Eliminated { player: BOB }));
    assert_eq!(g.phase(), &Phase::Over(Ending::LastStanding(ANN)));
    assert_eq!(g.outcome().unwrap().winners, vec![ANN]);
}

#[test]
fn the_battle_limit_draws() {
    let mut g = game(3, "battle_limit: 1");
    begin(&mut g, &[6, 3, 2]);
    assert_eq!(g.phase(), &Phase::Over(Ending::BattleLimit));
    assert!(g.outcome().unwrap().is_draw());
}

#[test]
fn the_first_declarer_rotates_past_eliminated_seats() {
    let mut g = game(4, "");
    g.players[1].tanks = 1;
    g.players[1].nukes = 0;
    let f = begin(&mut g, &[6, 2, 3, 4]);
    assert!(f.contains(&Fact::Eliminated { player: BOB }));
    assert!(f.contains(&Fact::BattleBegins {
        battle: 2,
        rollers: vec![CAT, PlayerId(3), ANN]
    }));
}

#[test]
fn refusals_leave_the_state_unchanged() {
    let mut g = game(3, "");
    let mut rng = MatchRng::new(1);
    assert!(g.apply(ANN, &Action::Tank, &mut rng).is_err());
    begin(&mut g, &[6, 3, 2]);
    let before = g.state_hash();
    for (p, a, why, rule) in [
        (
            ANN,
            Action::Tank,
            "declares first",
            "bt.basic.declare-order",
        ),
        (BOB, Action::Launch, "Tank or a Nuke", "bt.basic.announce"),
        (BOB, Action::Keep, "Tank or a Nuke", "bt.basic.announce"),
        (PlayerId(7), Action::Tank, "no seat", "bt.equipment.players"),
    ] {
        let err = g.apply(p, &a, &mut rng).unwrap_err();
        assert!(err.why.contains(why), "{err}");
        assert_eq!(err.rule, rule, "{err}");
    }
    play(&mut g, BOB, Action::Nuke, &[]);
    play(&mut g, CAT, Action::Tank, &[]);
    // Ann rolled a Tank last time; Bob's Nuke is next... Ann may still choose.
    let mid = g.state_hash();
    assert!(g.apply(BOB, &Action::Tank, &mut rng).is_err());
    assert_eq!(g.state_hash(), mid);
    assert_ne!(before, mid);
    let mut barred = nukes_allowed(2);
    begin(&mut barred, &[]);
    play(&mut barred, ANN, Action::Nuke, &[]);
    play(&mut barred, BOB, Action::Tank, &[2, 3]);
    play(&mut barred, BOB, Action::Tank, &[3, 5]);
    // Bob won battle 1; battle 2 opens with Bob, then Ann, who rolled a Tank in the War.
    assert_eq!(barred.to_act(), vec![BOB]);
    let mut over = game(3, "battle_limit: 1");
    begin(&mut over, &[6, 3, 2]);
    assert!(
        over.apply(ANN, &Action::Tank, &mut rng)
            .unwrap_err()
            .why
            .contains("over")
    );
}

#[test]
fn a_barred_nuke_is_refused_with_the_reason() {
    let mut g = nukes_allowed(3);
    begin(&mut g, &[]);
    play(&mut g, ANN, Action::Nuke, &[]);
    play(&mut g, BOB, Action::Tank, &[]);
    play(&mut g, CAT, Action::Tank, &[3, 5, 6]);
    // Cat won; battle 2 opens with Bob, Cat, then Ann (barred: her Tank is declared for her).
    play(&mut g, BOB, Action::Tank, &[]);
    assert_eq!(g.to_act(), vec![CAT]);
    g.players[0].tanks = 4;
    g.players[0].nukes = 1;
    let before = g.state_hash();
    let err = g
        .apply(ANN, &Action::Nuke, &mut MatchRng::new(1))
        .unwrap_err();
    assert!(err.why.contains("declares first"), "{err}");
    assert_eq!(err.rule, "bt.basic.declare-order");
    assert_eq!(before, g.state_hash());
    // Asked out of turn order, Ann's own Nuke would still be barred:
    assert_eq!(g.weapon_choices(ANN).1, Some(Forced::NukeBarred));
}

#[test]
fn a_bad_setup_lists_every_problem_with_its_place() {
    let text = "BattleTanksSetup(\n  name: \"\",\n  players: [\"Ann\", \"ann\", \"\"],\n  rules: (tanks: 0, world_end_meganukes: 2, colour: 3, battle_limit: 0),\n)";
    let err = parse(text).unwrap_err().to_string();
    for want in [
        "test.ron:2:",
        "a setup needs a name",
        "test.ron:3:",
        "two commanders are called `Ann` and `ann`",
        "a commander needs a name",
        "at least 1 Tank",
        "3 or more Meganukes",
        "unknown field `colour`",
        "battle limit",
    ] {
        assert!(err.contains(want), "missing {want}: {err}");
    }
    // An unknown top-level field is listed with the other problems, not alone.
    let err = parse("BattleTanksSetup(name: \"x\", players: [\"Ann\"], colour: 3)")
        .unwrap_err()
        .to_string();
    assert!(err.contains("2 to 8 commanders, not 1"), "{err}");
    assert!(err.contains("unknown field `colour`"), "{err}");
}

#[test]
fn same_setup_seed_and_actions_give_the_same_hash() {
    let setup = BattleSetup::builtin_default();
    let run = || {
        let mut m = Match::new(BattleTanks::new(&setup), 11);
        let mut pick = MatchRng::new(5);
        for _ in 0..40 {
            let Some(&p) = m.state().to_act().first() else {
                break;
            };
            let actions = m.state().legal_actions(p);
            let a = actions[pick.pick(actions.len())];
            m.play(p, &a).unwrap();
        }
        m.state().state_hash()
    };
    assert_eq!(run(), run());
}

#[test]
fn the_view_shows_the_whole_table() {
    let mut g = nukes_allowed(3);
    begin(&mut g, &[]);
    play(&mut g, ANN, Action::Tank, &[]);
    play(&mut g, BOB, Action::Nuke, &[]);
    let v = g.view(CAT);
    assert_eq!(v.players.len(), 3);
    assert!(v.players[2].to_act);
    let PhaseView::Declaring {
        answering,
        declarations,
        rollers,
    } = &v.phase
    else {
        panic!()
    };
    assert!(!answering);
    assert_eq!(rollers.len(), 3);
    assert_eq!(declarations[1].kind, Some(DieKind::Nuke));
    assert_eq!(v.battle, 1);
    assert!(v.first_roll);
    assert!(v.outcome.is_none());
}

#[test]
fn facts_describe_themselves() {
    let mut g = nukes_allowed(2);
    let mut facts = begin(&mut g, &[]);
    facts.extend(play(&mut g, ANN, Action::Nuke, &[]));
    facts.extend(play(&mut g, BOB, Action::Tank, &[4, 3]));
    let text: Vec<String> = facts.iter().map(|f| g.describe_fact(f)).collect();
    assert!(
        text.contains(&"Ann rolls a Nuke: 4 +1 = 5; Bob rolls a Tank: 3.".to_string()),
        "{text:?}"
    );
    assert!(text.iter().all(|t| !t.is_empty()));
    assert_eq!(g.describe_action(&Action::SwitchToNuke), "Switch to Nuke");
}

fn check_invariants(g: &BattleTanks) {
    check_census(g);
    match g.outcome() {
        Some(_) => assert!(g.to_act().is_empty()),
        None => {
            let to_act = g.to_act();
            assert_eq!(to_act.len(), 1);
            assert!(!g.legal_actions(to_act[0]).is_empty());
            assert!(!g.player(to_act[0]).out);
        }
    }
    for c in g.players() {
        if c.out {
            assert_eq!(c.arsenal(), 0);
        }
    }
    assert!(g.battle() <= g.rules().battle_limit);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_play_keeps_every_die_and_ends(seed in any::<u64>(), n in 2usize..=8, mode in 0u8..3) {
        let rules = match mode {
            0 => "",
            1 => "two_player_start: FinalBattle, battle_limit: 50",
            _ => "tanks: 2, nukes: 2, bag: 1, first_roll_no_nuke: false",
        };
        let mut g = game(n, rules);
        let mut rng = MatchRng::new(seed);
        let mut pick = MatchRng::new(seed ^ 0xABCD);
        g.begin(&mut rng);
        check_invariants(&g);
        let mut steps = 0;
        while g.outcome().is_none() {
            let p = g.to_act()[0];
            let actions = g.legal_actions(p);
            let a = actions[pick.pick(actions.len())];
            g.apply(p, &a, &mut rng).unwrap();
            check_invariants(&g);
            steps += 1;
            prop_assert!(steps <= 100_000);
        }
    }
}

#[test]
fn heuristic_beats_random() {
    let setup = BattleSetup::builtin_default();
    let (mut wins, mut decided, mut battles, mut longest) = (0u32, 0u32, 0u64, 0u32);
    let games = 2000u64;
    for seed in 0..games {
        let seat = usize::try_from(seed % 4).unwrap();
        let mut bots: Vec<Box<dyn Bot<BattleTanks>>> = (0..4)
            .map(|i| -> Box<dyn Bot<BattleTanks>> {
                if i == seat {
                    Box::new(bot::HeuristicBot)
                } else {
                    Box::new(RandomBot)
                }
            })
            .collect();
        let played = play_out(
            BattleTanks::new(&setup),
            &mut bots,
            &mut MatchRng::new(seed),
            &mut MatchRng::new(seed + 1000),
            100_000,
            |_, _| {},
        )
        .unwrap();
        let outcome = played.outcome.unwrap();
        battles += u64::from(played.state.rounds());
        longest = longest.max(played.state.rounds());
        if !outcome.winners.is_empty() {
            decided += 1;
        }
        if outcome
            .winners
            .contains(&PlayerId(u8::try_from(seat).unwrap()))
        {
            wins += 1;
        }
    }
    eprintln!(
        "heuristic vs 3 random: {wins} wins of {decided} decided, {games} games, {} battles on average, {longest} at most",
        battles / games
    );
    // A fair seat wins a quarter of the decided games; the game is mostly dice, so the
    // margin is modest (27.6% measured: 488 of 1,767; the seeds are fixed).
    assert!(100 * wins > 26 * decided, "{wins} wins of {decided}");
}

#[test]
#[ignore = "a tuning aid: cargo test -- --ignored --nocapture"]
fn compare_policies() {
    use bot::{Policy, PolicyBot};
    let setup = BattleSetup::builtin_default();
    let never = Policy {
        war: false,
        stake: 99,
        answer_stake: 99,
        last_tank: false,
    };
    for (label, policy) in [
        ("never", never),
        ("war only", Policy { war: true, ..never }),
        (
            "answer only",
            Policy {
                answer_stake: 0,
                ..never
            },
        ),
        (
            "last tank only",
            Policy {
                last_tank: true,
                ..never
            },
        ),
        (
            "always",
            Policy {
                war: true,
                stake: 0,
                answer_stake: 0,
                last_tank: true,
            },
        ),
        ("stake 6", Policy { stake: 6, ..never }),
        ("current", bot::POLICY),
    ] {
        let (mut wins, mut decided) = (0, 0);
        for seed in 0..2000u64 {
            let seat = usize::try_from(seed % 4).unwrap();
            let mut bots: Vec<Box<dyn Bot<BattleTanks>>> = (0..4)
                .map(|i| -> Box<dyn Bot<BattleTanks>> {
                    if i == seat {
                        Box::new(PolicyBot(policy))
                    } else {
                        Box::new(RandomBot)
                    }
                })
                .collect();
            let played = play_out(
                BattleTanks::new(&setup),
                &mut bots,
                &mut MatchRng::new(seed),
                &mut MatchRng::new(seed + 1000),
                100_000,
                |_, _| {},
            )
            .unwrap();
            let o = played.outcome.unwrap();
            if !o.winners.is_empty() {
                decided += 1;
            }
            if o.winners.contains(&PlayerId(u8::try_from(seat).unwrap())) {
                wins += 1;
            }
        }
        eprintln!("{label}: {wins} of {decided}");
    }
}

#[test]
fn an_answer_may_keep_the_tank_and_answers_come_in_order() {
    let mut g = nukes_allowed(4);
    begin(&mut g, &[]);
    play(&mut g, ANN, Action::Tank, &[]);
    play(&mut g, BOB, Action::Tank, &[]);
    play(&mut g, CAT, Action::Nuke, &[]);
    let f = play(&mut g, PlayerId(3), Action::Tank, &[]);
    assert!(f.contains(&Fact::AnswerWindow {
        players: vec![ANN, BOB]
    }));
    let before = g.state_hash();
    let err = g
        .apply(BOB, &Action::Keep, &mut MatchRng::new(1))
        .unwrap_err();
    assert!(err.why.contains("Ann answers first"), "{err}");
    let err = g
        .apply(ANN, &Action::Nuke, &mut MatchRng::new(1))
        .unwrap_err();
    assert!(err.why.contains("Keep or Switch"), "{err}");
    assert_eq!(g.state_hash(), before);
    play(&mut g, ANN, Action::Keep, &[]);
    let f = play(&mut g, BOB, Action::SwitchToNuke, &[2, 3, 4, 6]);
    let Some(Fact::Rolled { dice, .. }) = f.iter().find(|x| matches!(x, Fact::Rolled { .. }))
    else {
        panic!()
    };
    let kinds: Vec<DieKind> = dice.iter().map(|d| d.kind).collect();
    assert_eq!(
        kinds,
        vec![DieKind::Tank, DieKind::Nuke, DieKind::Nuke, DieKind::Tank]
    );
    // Bob's Nuke 3 (4) and Cat's Nuke 4 (5); Dan's 6 wins.
    assert_eq!(won(&f).unwrap().0, PlayerId(3));
}

#[test]
fn two_commanders_go_straight_to_the_final_battle_as_the_rulebook_says() {
    use crate::framework::Playable;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/battle-tanks");
    let load = |name: &str| {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        BattleTanks::parse_setup(&path, &text, &()).unwrap()
    };
    // The rulebook's game, and the default of any two-commander setup.
    assert_eq!(
        BattleRules::default().two_player_start,
        TwoPlayerStart::FinalBattle
    );
    let mut g = BattleTanks::new(&load("two-players.ron"));
    let f = begin(&mut g, &[]);
    assert!(f.contains(&Fact::FinalBattleBegins {
        players: [ANN, BOB]
    }));
    assert_eq!(g.to_act(), vec![ANN]);
    // The variant plays battles, and says it is one.
    let variant = load("two-players-battles.ron");
    assert!(BattleTanks::setup_title(&variant).0.contains("variant"));
    let mut g = BattleTanks::new(&variant);
    let f = begin(&mut g, &[]);
    assert!(
        !f.iter()
            .any(|x| matches!(x, Fact::FinalBattleBegins { .. }))
    );
    // Every shipped setup reads the Nuke's damaging face one way; menus name the free-die
    // bag as a Tanktable addition.
    for name in [
        "default.ron",
        "two-players.ron",
        "eight-players.ron",
        "heavy-arsenals.ron",
    ] {
        let setup = load(name);
        assert_eq!(setup.rules.nuke_damage_face, 5, "{name}");
        assert!(
            BattleTanks::setup_title(&setup)
                .1
                .contains("a Tanktable addition, not in the rulebook"),
            "{name}"
        );
    }
}

#[test]
fn the_playable_api_plays_every_shipped_setup_quickly() {
    use crate::framework::Playable;
    assert_eq!(BattleTanks::bot_names(), &["heuristic", "random"]);
    assert!(BattleTanks::bot("nobody").is_none());
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/battle-tanks");
    let started = std::time::Instant::now();
    let mut games = 0u32;
    for name in [
        "default.ron",
        "two-players.ron",
        "two-players-battles.ron",
        "eight-players.ron",
        "heavy-arsenals.ron",
    ] {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let setup = BattleTanks::parse_setup(&path, &text, &()).unwrap();
        for seed in 0..50 {
            let n = setup.players.len();
            let mut bots: Vec<_> = (0..n)
                .map(|i| BattleTanks::bot(BattleTanks::bot_names()[i % 2]).unwrap())
                .collect();
            let played = play_out(
                BattleTanks::from_setup(&setup).unwrap(),
                &mut bots,
                &mut MatchRng::new(seed),
                &mut MatchRng::new(seed + 7),
                100_000,
                |g, facts| {
                    for f in facts {
                        assert!(!g.describe_fact(f).is_empty());
                    }
                },
            )
            .unwrap();
            assert!(played.outcome.is_some());
            games += 1;
        }
    }
    let per_game = started.elapsed() / games;
    eprintln!("{games} games, {per_game:?} per game with fact descriptions");
}

/// The long run: random legal play for 10⁶ actions over 2 to 8 commanders.
#[test]
#[ignore = "long: run with --release -- --ignored"]
fn long_random_play_keeps_every_die() {
    let setups: Vec<BattleSetup> = (2..=8).map(BattleSetup::with_players).collect();
    crate::framework::long_run::play::<BattleTanks>(
        &setups,
        crate::framework::long_run::actions_wanted(),
        100_000,
        check_invariants,
    );
}

// Rules map: tests for rules that had none.

#[test]
fn each_commander_starts_with_five_tanks_and_one_nuke() {
    let rules = BattleRules::default();
    assert_eq!((rules.tanks, rules.nukes), (5, 1));
    let g = game(4, "");
    for c in g.players() {
        assert_eq!((c.tanks, c.nukes, c.out), (5, 1, false));
    }
    // A setup may change the arsenal (a variant).
    let g = game(3, "tanks: 7, nukes: 2");
    assert!(g.players().iter().all(|c| (c.tanks, c.nukes) == (7, 2)));
}

#[test]
fn a_nuke_may_be_rolled_every_other_roll_even_with_two_nukes() {
    let mut g = nukes_allowed(3);
    g.players[0].nukes = 2;
    begin(&mut g, &[]);
    play(&mut g, ANN, Action::Nuke, &[]);
    play(&mut g, BOB, Action::Tank, &[]);
    let f = play(&mut g, CAT, Action::Tank, &[5, 3, 2]);
    assert_eq!(won(&f).unwrap().0, ANN);
    // Two Nukes in her arsenal, but her last roll was a Nuke: no Nuke now.
    assert_eq!(g.player(ANN).nukes, 2);
    assert_eq!(
        g.weapon_choices(ANN),
        (vec![DieKind::Tank], Some(Forced::NukeBarred))
    );
    // Battle 2 (Bob, Cat, Ann): her Tank is declared for her; after it, a Nuke is allowed.
    play(&mut g, BOB, Action::Tank, &[]);
    let f = play(&mut g, CAT, Action::Tank, &[2, 3, 6]);
    assert!(f.contains(&Fact::Declared {
        player: ANN,
        kind: Some(DieKind::Tank),
        forced: Some(Forced::NukeBarred),
    }));
    assert_eq!(won(&f).unwrap().0, ANN);
    assert_eq!(
        g.weapon_choices(ANN),
        (vec![DieKind::Tank, DieKind::Nuke], None)
    );
}

#[test]
fn a_war_compares_only_the_new_roll() {
    let mut g = game(4, "");
    begin(&mut g, &[3, 3, 5, 2]);
    play(&mut g, ANN, Action::Tank, &[]);
    play(&mut g, BOB, Action::Tank, &[]);
    let f = play(&mut g, CAT, Action::Tank, &[2, 4, 3]);
    // Cat's 5 from the opening roll is loot now: Bob's 4 is the War's highest, and he
    // takes the whole Battlefield.
    assert_eq!(
        won(&f).unwrap(),
        (
            BOB,
            WinReason::Highest { value: 4 },
            DieCounts { tanks: 7, nukes: 0 }
        )
    );
    assert!(g.battlefield().is_empty());
}

#[test]
fn final_battle_meganukes_only_do_damage() {
    // Three Meganukes in one Final Battle volley neither end the world nor destroy dice.
    let mut g = game(2, "nukes: 3");
    begin(&mut g, &[]);
    play(&mut g, ANN, Action::Launch, &[]);
    play(
        &mut g,
        BOB,
        Action::Launch,
        &[
            2, 2, 2, 2, 2, 6, 6, 6, /* Bob */ 2, 2, 2, 2, 2, 2, 2, 2,
        ],
    );
    assert_eq!(
        g.phase(),
        &Phase::Over(Ending::FinalBattle {
            winner: ANN,
            damage: [9, 0]
        })
    );
    assert_eq!(g.destroyed().total(), 0);
}

/// Every number of a setup's rules section has its range checked, each refused at its
/// own line.
#[test]
fn every_number_of_the_setup_rules_is_kept_in_its_range() {
    use crate::data::testing::assert_refused_at;
    let setup = "BattleTanksSetup(\n    name: \"Ranges\",\n    players: [\"Ann\", \"Bob\"],\n    rules: (\n        RULES\n    ),\n)\n";
    let parse = |t: &str| BattleSetup::parse(std::path::Path::new("bt.ron"), t);
    assert_refused_at(
        "bt.ron",
        &setup.replace("RULES", "battle_limit: 100,"),
        parse,
        &[
            (
                "battle_limit: 100,",
                "tanks: 0,",
                "each arsenal needs at least 1 Tank",
            ),
            (
                "battle_limit: 100,",
                "tanks: 51,",
                "an arsenal holds at most 50 Tanks",
            ),
            (
                "battle_limit: 100,",
                "nukes: 51,",
                "an arsenal's Nukes is 0 to 50, not 51",
            ),
            (
                "battle_limit: 100,",
                "bag: 51,",
                "the free-die bag is 0 to 50, not 51",
            ),
            (
                "battle_limit: 100,",
                "nuke_bonus: 6,",
                "the Nuke bonus must be 0 to 5",
            ),
            (
                "battle_limit: 100,",
                "free_die_penalty: 5,",
                "the free die penalty must be 0 to 4",
            ),
            (
                "battle_limit: 100,",
                "world_end_meganukes: 2,",
                "3 or more Meganukes",
            ),
            (
                "battle_limit: 100,",
                "tank_damage_face: 7,",
                "a damaging face must be 2 to 6",
            ),
            (
                "battle_limit: 100,",
                "nuke_damage_face: 1,",
                "a damaging face must be 2 to 6",
            ),
            (
                "battle_limit: 100,",
                "hit_damage: 0,",
                "the damage of a damaging face is 1 to 20, not 0",
            ),
            (
                "battle_limit: 100,",
                "hit_damage: 21,",
                "the damage of a damaging face is 1 to 20, not 21",
            ),
            (
                "battle_limit: 100,",
                "meganuke_damage: 0,",
                "a Meganuke's damage is 1 to 20, not 0",
            ),
            (
                "battle_limit: 100,",
                "battle_limit: 0,",
                "the battle limit must be at least 1",
            ),
        ],
    );
}
