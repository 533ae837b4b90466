use std::collections::BTreeMap;

use super::*;
use crate::framework::{Game, Playable};
use crate::rules::battle_tanks::{BattleSetup, BattleTanks};
use crate::rules::range_duel::{DuelSetup, RangeDuel};
use crate::rules::tank_chess::{ChessSetup, TankChess};
use crate::rules::tank_combat::{CombatSetup, TankCombat};
use crate::rules::tank_commander::{Battle, TankCommander};

fn changes(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect()
}

/// The leaves of a setup's tuning, path → value.
fn values<G: Playable>(setup: &G::Setup) -> BTreeMap<String, String> {
    doc::leaves(&variant::tuning_text::<G>(setup).unwrap())
        .into_iter()
        .map(|l| (l.path, l.text))
        .collect()
}

/// Applying a variant changes exactly its fields: every other value of the tuning is
/// the base's, and the changed ones read back as written.
fn exactly<G: Playable>(setup: &G::Setup, change: &[(&str, &str)]) {
    let change = changes(change);
    let tuned = variant::apply::<G>(setup, &change).unwrap_or_else(|e| panic!("{e:?}"));
    let (before, after) = (values::<G>(setup), values::<G>(&tuned));
    assert_eq!(before.len(), after.len());
    for (path, value) in &after {
        match change.get(path) {
            Some(want) => assert_eq!(value, want, "{path}"),
            None => assert_eq!(Some(value), before.get(path), "{path} changed"),
        }
    }
}

#[test]
fn a_variant_changes_exactly_its_fields_in_every_game() {
    exactly::<TankCommander>(
        &Battle::builtin_default(),
        &[
            ("firing.forest_penalty", "2"),
            ("crew.lieutenant", "FirstDeath"),
            ("firing.natural_six_hits", "true"),
        ],
    );
    exactly::<TankChess>(
        &ChessSetup::builtin_default(),
        &[(&first_int::<TankChess>(&ChessSetup::builtin_default()), "2")],
    );
    exactly::<BattleTanks>(
        &BattleSetup::builtin_default(),
        &[("nukes", "2"), ("first_roll_no_nuke", "false")],
    );
    exactly::<TankCombat>(
        &CombatSetup::builtin_default(),
        &[("max_hp", "120"), ("bystanders_smoke", "false")],
    );
    exactly::<RangeDuel>(
        &DuelSetup::builtin_default(),
        &[("rules.turn_limit", "8"), ("rules.driving_tie", "Reroll")],
    );
}

fn first_int<G: Playable>(setup: &G::Setup) -> String {
    variant::fields::<G>(setup)
        .unwrap()
        .into_iter()
        .find(|f| f.kind == doc::LeafKind::Int && f.value != "2")
        .map(|f| f.path)
        .unwrap()
}

#[test]
fn the_changed_rules_are_the_ones_played() {
    let base = Battle::builtin_default();
    let tuned = variant::apply::<TankCommander>(&base, &changes(&[("firing.forest_penalty", "3")]))
        .unwrap();
    assert_eq!(tuned.rules.firing.forest_penalty, 3);
    assert_eq!(base.rules.firing.forest_penalty, 1);
}

#[test]
fn every_game_offers_its_fields_with_meanings() {
    fn check<G: Playable>(setup: &G::Setup, min: usize) {
        let fields = variant::fields::<G>(setup).unwrap();
        assert!(
            fields.len() >= min,
            "{}: {} fields",
            G::KIND.title(),
            fields.len()
        );
        let explained = fields.iter().filter(|f| !f.meaning.is_empty()).count();
        assert!(
            explained * 2 >= fields.len(),
            "{}: {explained} of {} explained",
            G::KIND.title(),
            fields.len()
        );
    }
    check::<TankCommander>(&Battle::builtin_default(), 80);
    check::<TankChess>(&ChessSetup::builtin_default(), 5);
    check::<BattleTanks>(&BattleSetup::builtin_default(), 12);
    check::<TankCombat>(&CombatSetup::builtin_default(), 15);
    check::<RangeDuel>(&DuelSetup::builtin_default(), 12);
}

#[test]
fn a_bad_variant_lists_every_problem_by_name() {
    let err = plan::<BattleTanks>(
        &BattleSetup::builtin_default(),
        "default",
        &[
            ("B".into(), changes(&[("tanks", "0")])),
            ("C".into(), changes(&[("no_such", "1"), ("nukes", "many")])),
        ],
        &Ask {
            games: 1,
            seed: 1,
            bots: Vec::new(),
            threads: 1,
            ..Ask::default()
        },
    )
    .unwrap_err();
    assert_eq!(err.lines().count(), 3, "{err}");
    assert!(
        err.contains("variant B: tanks")
            && err.contains("variant C: no_such")
            && err.contains("variant C: nukes"),
        "{err}"
    );
}

fn report_of<G: Playable>(
    setup: &G::Setup,
    variants: &[(String, BTreeMap<String, String>)],
    threads: usize,
    games: u32,
) -> LabReport {
    let ask = Ask {
        games,
        seed: 9,
        bots: Vec::new(),
        threads,
        ..Ask::default()
    };
    let (plan, question) = plan::<G>(setup, "t", variants, &ask).unwrap();
    let live = Live::new(plan.arms.len());
    run::<G>(&plan, &live).unwrap();
    LabReport::build(question, &live.snapshot())
}

#[test]
fn a_seed_gives_the_same_report_on_one_thread_and_two() {
    let v = vec![("short".to_string(), changes(&[("rules.turn_limit", "6")]))];
    let a = report_of::<RangeDuel>(&DuelSetup::builtin_default(), &v, 1, 40);
    let b = report_of::<RangeDuel>(&DuelSetup::builtin_default(), &v, 2, 40);
    assert_eq!(a, b);
    assert_eq!(a.arms.len(), 2);
    assert_eq!(a.arms[1].games, 40);
    assert!(a.arms[1].verdict.is_some());
    // The duel counts its matrix rows: every turn of every game reveals two orders.
    assert!(!a.arms[0].counts.is_empty());
}

#[test]
fn every_game_runs_in_the_lab() {
    let tc = report_of::<TankCommander>(&Battle::builtin_default(), &[], 2, 6);
    assert_eq!(tc.arms[0].games, 6);
    assert!(tc.arms[0].board.is_some() && !tc.arms[0].pieces.is_empty());
    assert!(
        tc.arms[0]
            .pieces
            .iter()
            .any(|p| p.name.starts_with("upgrade: "))
    );
    let chess = report_of::<TankChess>(&ChessSetup::builtin_default(), &[], 2, 2);
    assert_eq!(chess.arms[0].games, 2);
    let bt = report_of::<BattleTanks>(&BattleSetup::builtin_default(), &[], 2, 10);
    assert!(
        !bt.arms[0].matchups.is_empty(),
        "four seats: seat against seat"
    );
    let combat = report_of::<TankCombat>(&CombatSetup::builtin_default(), &[], 2, 10);
    assert_eq!(combat.arms[0].games, 10);
}

#[test]
fn cancel_stops_before_the_next_game() {
    let setup = DuelSetup::builtin_default();
    let ask = Ask {
        games: 1000,
        seed: 1,
        bots: Vec::new(),
        threads: 1,
        ..Ask::default()
    };
    let (plan, _) = plan::<RangeDuel>(&setup, "t", &[], &ask).unwrap();
    let live = Live::new(1);
    live.cancel
        .store(true, std::sync::atomic::Ordering::Relaxed);
    run::<RangeDuel>(&plan, &live).unwrap();
    assert_eq!(live.finished(), 0);
}

#[test]
fn sweeps_read_ranges_and_lists() {
    assert_eq!(
        parse_sweep("a.b=-2..0").unwrap(),
        (
            "a.b".to_string(),
            vec!["-2".into(), "-1".into(), "0".into()]
        )
    );
    assert_eq!(parse_sweep("x=60..90:15").unwrap().1, ["60", "75", "90"]);
    assert_eq!(parse_sweep("s=Front,Rear").unwrap().1, ["Front", "Rear"]);
    assert!(parse_sweep("x=5..1").is_err());
    assert!(parse_sweep("x").is_err());
    assert!(parse_sweep("x=1..1000").is_err());
}

#[test]
fn simulate_from_here_and_per_candidate() {
    let game = TankCommander::from_setup(&Battle::builtin_default()).unwrap();
    let mut m = crate::framework::Match::new(game, 3);
    // A few greedy moves in, the position is under way.
    let mut bots = crate::framework::playable::bots_for::<TankCommander>(&[], 2).unwrap();
    for _ in 0..6 {
        let p = m.state().to_act()[0];
        let a = bots[p.index()]
            .choose(m.state(), p, &mut crate::framework::MatchRng::new(1))
            .unwrap();
        m.play(p, &a).unwrap();
    }
    let opts = whatif::Continue {
        games: 40,
        seed: 5,
        bots: &[],
        threads: 2,
        cancel: None,
        done: None,
    };
    let now = whatif::simulate_from(m.state(), &opts).unwrap();
    assert_eq!(now.games, 40);
    assert_eq!(
        now.rates.iter().map(|r| r.wins).sum::<u32>() + now.no_winner,
        40
    );
    let again = whatif::simulate_from(
        m.state(),
        &whatif::Continue {
            threads: 1,
            ..opts.clone()
        },
    )
    .unwrap();
    assert_eq!(now, again, "the same seed on one thread and two");
    let cands = whatif::candidates(m.state(), 4, 1);
    assert!(!cands.is_empty() && cands.len() <= 4);
    let each =
        whatif::per_candidate(m.state(), &cands, &whatif::Continue { games: 10, ..opts }).unwrap();
    assert_eq!(each.len(), cands.len());
    assert!(
        each.iter()
            .all(|c| c.chances.games == 10 && !c.action.is_empty())
    );
}

/// A finished game for the report's sums: `winners`, and what each seat took.
fn game_with(index: u32, winners: &[u8], taken: &[(u8, &str)]) -> GameResult {
    GameResult {
        arm: 0,
        index,
        seed: 0,
        winners: winners.to_vec(),
        first: None,
        swapped: false,
        rounds: 1,
        actions: 1,
        labels: vec!["Blue".into(), "Red".into()],
        tally: Tally {
            taken: taken.iter().map(|(s, n)| (*s, (*n).to_string())).collect(),
            ..Tally::default()
        },
        ending: String::new(),
    }
}

#[test]
fn a_choice_is_valued_by_its_seats_wins_with_it_and_without() {
    let question = Question {
        game: "t".into(),
        setup: "t".into(),
        seed: 0,
        games: 6,
        bots: Vec::new(),
        seats: vec!["Blue".into(), "Red".into()],
        arms: vec![(BASE.into(), BTreeMap::new())],
        sweep: None,
        same_as_base: Vec::new(),
        draws: Some("upgrades".into()),
        field_rules: BTreeMap::new(),
        pairing: None,
        sprt: None,
    };
    // Blue takes the engine in games 0-3 and wins three of them; without it, it wins
    // neither of games 4-5. Red takes optics in every game: nothing to compare with.
    let games = [
        game_with(0, &[0], &[(0, "engine"), (1, "optics")]),
        game_with(1, &[0], &[(0, "engine"), (1, "optics")]),
        game_with(2, &[0], &[(0, "engine"), (1, "optics")]),
        game_with(3, &[1], &[(0, "engine"), (1, "optics")]),
        game_with(4, &[1], &[(1, "optics")]),
        game_with(5, &[], &[(1, "optics")]),
    ];
    let report = LabReport::build(question, &games);
    let taken = &report.arms[0].taken;
    assert_eq!(taken.len(), 1, "{taken:?}");
    let engine = &taken[0];
    assert_eq!((engine.seat, engine.name.as_str()), (0, "engine"));
    assert_eq!((engine.taken.wins, engine.taken.games), (3, 4));
    assert_eq!((engine.without.wins, engine.without.games), (0, 2));
    assert!((engine.difference.0 - 0.75).abs() < 1e-9);
    assert!(engine.difference.1 < engine.difference.0 && engine.difference.0 < engine.difference.2);
    assert!(report.to_text().contains("engine"));
}

#[test]
fn random_builds_are_asked_only_of_a_game_with_choices() {
    let ask = Ask {
        games: 1,
        seed: 1,
        threads: 1,
        draft: true,
        ..Ask::default()
    };
    let err = plan::<TankChess>(&ChessSetup::builtin_default(), "t", &[], &ask).unwrap_err();
    assert!(err.contains("no choices made before play"), "{err}");
    let (plan, question) =
        plan::<TankCommander>(&Battle::builtin_default(), "t", &[], &ask).unwrap();
    assert!(plan.draft);
    assert!(question.draws.is_some());
}

#[test]
fn random_builds_value_the_upgrades_and_agree_across_threads() {
    let setup = Battle::builtin_default();
    let ask = |threads| Ask {
        games: 200,
        seed: 3,
        threads,
        draft: true,
        ..Ask::default()
    };
    let report = |threads| {
        let (plan, question) = plan::<TankCommander>(&setup, "t", &[], &ask(threads)).unwrap();
        let live = Live::new(plan.arms.len());
        run::<TankCommander>(&plan, &live).unwrap();
        LabReport::build(question, &live.snapshot())
    };
    let (one, two) = (report(1), report(2));
    assert_eq!(one, two);
    let taken = &one.arms[0].taken;
    // Every upgrade of each side is taken in some games and not in others.
    for seat in 0..2u8 {
        let rows = taken.iter().filter(|t| t.seat == seat).count();
        assert!(rows >= 9, "seat {seat}: {rows} upgrades valued: {taken:?}");
    }
    for t in taken {
        assert_eq!(t.taken.games + t.without.games, 200, "{t:?}");
        assert!((40..=160).contains(&t.taken.games), "{t:?}");
    }
}

/// The calling thread's nice value, from `/proc/thread-self/stat` (field 19).
#[cfg(target_os = "linux")]
fn this_threads_niceness() -> i32 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
    // The command name, in brackets, may hold spaces: count fields after it.
    let (_, after) = stat.rsplit_once(')').unwrap();
    after.split_whitespace().nth(16).unwrap().parse().unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn background_work_runs_below_normal_priority_and_only_on_its_own_thread() {
    let before = this_threads_niceness();
    let inside = std::thread::spawn(|| {
        super::run::run_in_background();
        this_threads_niceness()
    })
    .join()
    .unwrap();
    assert_eq!(inside, super::run::BACKGROUND_NICENESS.max(before));
    assert_eq!(
        this_threads_niceness(),
        before,
        "the caller's thread keeps its priority"
    );
}

/// A run asked to stay in the background plays the same games as one that is not.
#[test]
fn a_background_run_gives_the_same_report() {
    let setup = DuelSetup::builtin_default();
    let report = |background| {
        let ask = Ask {
            games: 12,
            seed: 5,
            threads: 2,
            background,
            ..Ask::default()
        };
        let (plan, question) = plan::<RangeDuel>(&setup, "t", &[], &ask).unwrap();
        let live = Live::new(plan.arms.len());
        run::<RangeDuel>(&plan, &live).unwrap();
        LabReport::build(question, &live.snapshot())
    };
    assert_eq!(report(true), report(false));
}

/// A Range Duel A/B question (a shorter duel) with paired games and, with `delta`, a
/// sequential test of Duelist 1's win rate; run on `threads` workers, read while it runs.
fn paired_duel(threads: usize, games: u32, delta: Option<f64>, watching: bool) -> LabReport {
    let setup = DuelSetup::builtin_default();
    let game = RangeDuel::from_setup(&setup).unwrap();
    let seat = game.player_name(crate::framework::PlayerId(0));
    let ask = Ask {
        games,
        seed: 5,
        threads,
        paired: true,
        sprt: delta.map(|d| Sprt::new(&seat, d)),
        ..Ask::default()
    };
    let short = BTreeMap::from([("rules.turn_limit".to_string(), "3".to_string())]);
    let (plan, question) =
        plan::<RangeDuel>(&setup, "t", &[("short".into(), short)], &ask).unwrap();
    let live = Live::new(plan.arms.len());
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| run::<RangeDuel>(&plan, &live));
        while watching && !worker.is_finished() {
            watch(&question, &live);
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        worker.join().unwrap().unwrap();
    });
    LabReport::build(question, &live.snapshot())
}

#[test]
fn paired_games_read_the_verdict_seed_by_seed_and_say_how_much_narrower() {
    let report = paired_duel(2, 400, None, true);
    assert_eq!(report.question.pairing, Some(Pairing { twins: false }));
    let b = &report.arms[1];
    let p = b.paired.as_ref().expect("a paired verdict");
    assert_eq!((p.seeds, p.per_seed), (400, 1));
    // Common seeds make the variant's games follow the base's: the paired interval is
    // the narrower, and the verdict's bounds are the paired ones.
    assert!(p.narrower() > 0.0, "{}", p.words());
    let v = b.verdict.as_ref().unwrap();
    assert!(((v.hi - v.lo) / 2.0 - p.half_width).abs() < 1e-9);
    assert!(
        report.to_text().contains("narrower than unpaired"),
        "{}",
        report.to_text()
    );
}

#[test]
fn twins_give_the_first_move_to_the_other_side_on_the_same_seed() {
    let setup = Battle::builtin_default();
    let ask = Ask {
        games: 7,
        seed: 3,
        threads: 1,
        paired: true,
        ..Ask::default()
    };
    let hull = BTreeMap::from([("tank.hull".to_string(), "5".to_string())]);
    let (plan, question) = plan::<TankCommander>(&setup, "t", &[("B".into(), hull)], &ask).unwrap();
    // Tank Commander rolls for the first move, so each seed is played twice: 7 → 8 games.
    assert_eq!(question.pairing, Some(Pairing { twins: true }));
    assert_eq!((plan.games, question.games), (8, 8));
    let live = Live::new(2);
    run::<TankCommander>(&plan, &live).unwrap();
    let games = live.snapshot();
    for pair in games.chunks(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert_eq!((a.arm, a.seed, a.swapped), (b.arm, b.seed, !b.swapped));
        assert!(a.first.is_some() && a.first != b.first, "{a:?} {b:?}");
    }
}

#[test]
fn a_sequential_run_stops_at_the_same_seed_on_any_number_of_threads() {
    let one = paired_duel(1, 4000, Some(5.0), true);
    let four = paired_duel(4, 4000, Some(5.0), true);
    let t = one.sprt.as_ref().expect("a reading");
    assert!(t.reading.answer.is_some(), "{}", t.words);
    assert!(t.reading.seeds < 4000, "{}", t.words);
    assert_eq!(one.arms[1].games, t.reading.seeds);
    assert_eq!(one.to_json().unwrap(), four.to_json().unwrap());
    // The whole run, read afterwards, gives the same report.
    let whole = paired_duel(2, 4000, Some(5.0), false);
    assert_eq!(whole.to_json().unwrap(), one.to_json().unwrap());
}
