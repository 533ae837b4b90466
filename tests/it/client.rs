//! Headless ECS tests of the client's logic: orders injected as messages change the rules
//! state and the mirrored components, and fact messages reach the combat log.

use bevy::ecs::message::Messages;
use bevy::prelude::*;
use tanktable::client::highlights::{Highlights, Hovered, Selection};
use tanktable::client::mirror::{Condition, HexPos, Unit};
use tanktable::client::session::{
    CombatLog, Notice, OpenRecord, Order, ShotResolved, Table, UnitMoved,
};
use tanktable::client::{Screen, headless_app};
use tanktable::framework::{Match, MatchRng, PlayerId};
use tanktable::rules::tank_commander::{
    Action, FireTarget, Rules, Scenario, TankCommander, UnitId,
};

use crate::project;

fn table(scenario: &str, dice: &[u32]) -> Table {
    let rules = Rules::builtin();
    let scenario = Scenario::load(&project(scenario), &rules).unwrap();
    let mut table = Table::new(scenario, &rules, "test".into(), None, 5).unwrap();
    let battle = TankCommander::new(&table.scenario, &rules).unwrap();
    table.game = Match::with_rng(battle, MatchRng::scripted(5, dice.iter().copied()));
    table.dice = dice.to_vec();
    table
}

/// A scratch save folder per test.
fn scratch() -> std::path::PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    std::env::temp_dir().join(format!(
        "tanktable-it-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}

fn app_with(table: Table) -> App {
    headless_app(table, scratch())
}

fn order(app: &mut App, order: Order) {
    app.world_mut().write_message(order);
    app.update();
}

fn unit_pos(app: &mut App, id: UnitId) -> hexx::Hex {
    let mut q = app.world_mut().query::<(&Unit, &HexPos)>();
    q.iter(app.world()).find(|(u, _)| u.0 == id).unwrap().1.0
}

fn log_text(app: &App) -> Vec<String> {
    app.world()
        .resource::<CombatLog>()
        .entries
        .iter()
        .map(|e| e.text.clone())
        .collect()
}

/// Blue wins the first-player roll (6 against 1).
const BLUE_FIRST: [u32; 2] = [6, 1];

#[test]
fn a_move_order_moves_the_rules_unit_and_its_mirror() {
    let mut app = app_with(table("tests/scenarios/close-duel.ron", &BLUE_FIRST));
    app.update();
    let striker = UnitId(0);
    let start = unit_pos(&mut app, striker);
    assert_eq!(
        app.world().resource::<Table>().battle().current_side(),
        PlayerId(0)
    );
    order(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(striker)),
    );
    order(&mut app, Order::Play(PlayerId(0), Action::Move));
    let rules_at = app.world().resource::<Table>().battle().unit(striker).at;
    assert_ne!(rules_at, start);
    assert_eq!(
        unit_pos(&mut app, striker),
        rules_at,
        "the mirror follows the rules"
    );
    let moved = app.world().resource::<Messages<UnitMoved>>();
    let mut cursor = moved.get_cursor();
    let seen: Vec<_> = cursor.read(moved).copied().collect();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].to, rules_at);
    assert!(
        log_text(&app).iter().any(|l| l.contains("Striker moves")),
        "{:?}",
        log_text(&app)
    );
}

#[test]
fn a_shot_reaches_the_log_with_its_roll_and_changes_the_target() {
    // Blue first; the striker hits on a 6 and penetrates on a 6.
    let mut app = app_with(table("tests/scenarios/close-duel.ron", &[6, 1, 6, 6]));
    let (striker, bulwark) = (UnitId(0), UnitId(1));
    order(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(striker)),
    );
    order(
        &mut app,
        Order::Play(PlayerId(0), Action::Fire(FireTarget::Unit(bulwark))),
    );
    let shots = app.world().resource::<Messages<ShotResolved>>();
    let mut cursor = shots.get_cursor();
    let shot = *cursor.read(shots).next().expect("a ShotResolved message");
    assert!(shot.hit && shot.penetrating);
    let log = log_text(&app);
    assert!(log.iter().any(|l| l.contains("rolls 6")), "{log:?}");
    let hull = app.world().resource::<Table>().battle().unit(bulwark).hull;
    let mut q = app.world_mut().query::<(&Unit, &Condition)>();
    let mirrored = q
        .iter(app.world())
        .find(|(u, _)| u.0 == bulwark)
        .unwrap()
        .1
        .hull;
    assert_eq!(mirrored, hull);
    assert!(
        hull < app
            .world()
            .resource::<Table>()
            .battle()
            .unit(bulwark)
            .base
            .hull
    );
}

#[test]
fn a_refused_order_is_explained_and_changes_nothing() {
    let mut app = app_with(table("tests/scenarios/close-duel.ron", &BLUE_FIRST));
    let before = app.world().resource::<Table>().game.state_hash();
    order(&mut app, Order::Play(PlayerId(0), Action::Move));
    assert_eq!(app.world().resource::<Table>().game.state_hash(), before);
    let notice = app.world().resource::<Notice>().0.clone().unwrap();
    assert!(notice.contains("activate a unit first"), "{notice}");
    assert!(log_text(&app).iter().any(|l| l.starts_with("Refused")));
}

#[test]
fn playtest_undo_rewinds_state_mirror_and_log() {
    let mut app = app_with(table("tests/scenarios/close-duel.ron", &BLUE_FIRST));
    let striker = UnitId(0);
    let start = unit_pos(&mut app, striker);
    order(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(striker)),
    );
    order(&mut app, Order::Play(PlayerId(0), Action::Move));
    // Normal play forbids taking back.
    order(&mut app, Order::UndoTo(1));
    assert_eq!(app.world().resource::<Table>().game.history().len(), 2);
    app.world_mut().resource_mut::<Table>().playtest = true;
    order(&mut app, Order::UndoTo(1));
    assert_eq!(app.world().resource::<Table>().game.history().len(), 1);
    assert_eq!(unit_pos(&mut app, striker), start);
    assert!(!log_text(&app).iter().any(|l| l.contains("Striker moves")));
}

#[test]
fn driving_a_route_plays_its_orders_one_by_one() {
    let mut app = app_with(table("tests/scenarios/close-duel.ron", &BLUE_FIRST));
    let striker = UnitId(0);
    order(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(striker)),
    );
    app.world_mut().resource_mut::<Selection>().unit = Some(striker);
    app.update();
    let routes = app.world().resource::<Highlights>().routes.clone();
    let route = routes
        .iter()
        .max_by_key(|r| r.actions.len())
        .unwrap()
        .clone();
    assert!(route.actions.len() > 1, "{route:?}");
    order(&mut app, Order::Drive(PlayerId(0), route.actions.clone()));
    for _ in 0..route.actions.len() + 2 {
        app.update();
    }
    let table = app.world().resource::<Table>();
    assert_eq!(table.battle().unit(striker).at, route.to);
    let spent =
        table.battle().rules().tank.actions - table.battle().activation().unwrap().action_points;
    assert_eq!(spent, route.cost);
}

#[test]
fn highlights_list_targets_with_the_odds_command_s_numbers() {
    let mut app = app_with(table("tests/scenarios/close-duel.ron", &BLUE_FIRST));
    order(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(UnitId(0))),
    );
    app.world_mut().resource_mut::<Hovered>().0 =
        Some(app.world().resource::<Table>().battle().unit(UnitId(1)).at);
    app.update();
    let h = app.world().resource::<Highlights>().clone();
    let target = h
        .targets
        .iter()
        .find(|t| t.unit == UnitId(1))
        .expect("Bulwark is a target");
    let battle = app.world().resource::<Table>().battle().clone();
    let p = battle
        .shot_profile(
            UnitId(0),
            FireTarget::Unit(UnitId(1)),
            tanktable::rules::tank_commander::Round::At,
            false,
        )
        .unwrap();
    let o = battle.odds(&p);
    assert!(
        target.label.contains(&format!("hit {}", o.hit)),
        "{}",
        target.label
    );
    assert!(h.sight.is_some_and(|s| s.blocked.is_none()));
    assert!(!h.arc.is_empty() && !h.routes.is_empty());
}

#[test]
fn saves_load_back_as_a_match_and_as_a_replay() {
    let dir = scratch();
    let path = dir.join("match.ron");
    let mut app = app_with(table("tests/scenarios/close-duel.ron", &BLUE_FIRST));
    order(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(UnitId(0))),
    );
    order(&mut app, Order::Play(PlayerId(0), Action::Move));
    order(&mut app, Order::Save(Some(path.clone())));
    let hash = app.world().resource::<Table>().game.state_hash();
    assert!(path.is_file(), "{:?}", app.world().resource::<Notice>().0);

    let generation = app.world().resource::<Table>().generation;
    app.world_mut().write_message(OpenRecord {
        path: path.clone(),
        replay: false,
    });
    app.update();
    app.update();
    let loaded = app.world().resource::<Table>();
    assert_ne!(
        loaded.generation,
        generation,
        "{:?}",
        app.world().resource::<Notice>().0
    );
    assert_eq!(loaded.game.state_hash(), hash);
    assert_eq!(loaded.game.history().len(), 2);

    app.world_mut().write_message(OpenRecord {
        path: path.clone(),
        replay: true,
    });
    app.update();
    app.update();
    assert_eq!(
        app.world().resource::<Table>().game.history().len(),
        0,
        "{:?}",
        app.world().resource::<Notice>().0
    );
    order(&mut app, Order::Seek(2));
    assert_eq!(app.world().resource::<Table>().game.state_hash(), hash);
    order(&mut app, Order::Seek(1));
    assert_eq!(app.world().resource::<Table>().game.history().len(), 1);
    // A replay takes no new orders.
    order(&mut app, Order::Play(PlayerId(0), Action::Move));
    assert_eq!(app.world().resource::<Table>().game.history().len(), 1);
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Battle
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn every_finished_activation_is_autosaved() {
    let dir = scratch();
    let mut app = headless_app(
        table("tests/scenarios/close-duel.ron", &BLUE_FIRST),
        dir.clone(),
    );
    let autosave = dir.join("autosave.ron");
    order(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(UnitId(0))),
    );
    order(&mut app, Order::Play(PlayerId(0), Action::Move));
    assert!(
        !autosave.exists(),
        "no autosave in the middle of an activation"
    );
    order(&mut app, Order::Play(PlayerId(0), Action::EndActivation));
    assert!(autosave.is_file());
    let rules = Rules::builtin();
    let reopened = Table::from_record(&autosave, &rules, false).unwrap();
    assert_eq!(
        reopened.game.state_hash(),
        app.world().resource::<Table>().game.state_hash()
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_new_battle_message_opens_a_fresh_table() {
    let mut app = app_with(table("tests/scenarios/close-duel.ron", &BLUE_FIRST));
    let old = app.world().resource::<Table>().generation;
    let rules = Rules::builtin();
    let scenario = Scenario::load(&project("scenarios/battle.ron"), &rules).unwrap();
    app.world_mut()
        .write_message(tanktable::client::session::NewBattle {
            scenario,
            source: "battle".into(),
            path: None,
        });
    app.update();
    app.update();
    let table = app.world().resource::<Table>();
    assert_ne!(table.generation, old);
    assert_eq!(table.battle().scenario_name(), "River Town");
    let units = table.battle().units().len();
    let mut q = app.world_mut().query::<&Unit>();
    assert_eq!(q.iter(app.world()).count(), units, "the mirror is rebuilt");
    let log = log_text(&app);
    assert!(
        log.iter().any(|l| l.contains("Roll for first turn")),
        "{log:?}"
    );
}

#[test]
fn the_chess_bot_answers_a_move_in_the_client() {
    use tanktable::client::chess_session::{ChessOrder, ChessTable};
    use tanktable::rules::tank_chess::bot::Strength;
    let mut table = ChessTable::open(&project("scenarios/tank-chess/basic-16.ron")).unwrap();
    table.bot = Some((tanktable::rules::tank_chess::BLACK, Strength::Cadet));
    let first = table.legal()[0];
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(bevy::state::app::StatesPlugin)
        .insert_state(Screen::Chess)
        .add_plugins(tanktable::client::logic_plugin)
        .insert_resource(table);
    app.update();
    app.world_mut().write_message(ChessOrder::Play(first));
    let start = std::time::Instant::now();
    while app.world().resource::<ChessTable>().moves.len() < 2 && start.elapsed().as_secs() < 10 {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let table = app.world().resource::<ChessTable>();
    assert_eq!(table.moves.len(), 2, "the bot answered");
    assert!(table.record().contains("1. "), "{}", table.record());
}

/// A windowless app on a setup-file game's table (no Tank Commander battle).
fn table_app<G: tanktable::client::table_session::TableClient>(
    table: tanktable::client::table_session::TableMatch<G>,
) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(bevy::state::app::StatesPlugin)
        .insert_resource(tanktable::client::session::SaveFolder(scratch()))
        .insert_resource(tanktable::client::LoadedRules(Rules::builtin()))
        .insert_state(Screen::Table)
        .add_plugins(tanktable::client::logic_plugin)
        .insert_resource(table);
    app.update();
    app
}

#[test]
fn table_orders_play_through_the_rules_and_bots_answer() {
    use tanktable::client::table_session::{FactsPlayed, Seat, TableMatch, TableOrder};
    use tanktable::rules::range_duel::{Action as Order, DuelSetup, RangeDuel};
    let table = TableMatch::<RangeDuel>::new(
        DuelSetup::builtin_default(),
        "test".into(),
        4,
        vec![Seat::Human, Seat::Bot("heuristic".into())],
    )
    .unwrap();
    let mut app = table_app(table);
    app.world_mut()
        .write_message(TableOrder::<RangeDuel>::Play(PlayerId(0), Order::HullDown));
    app.update();
    let played = app.world().resource::<Messages<FactsPlayed<RangeDuel>>>();
    assert!(
        played.iter_current_update_messages().any(|m| !m.jumped),
        "the order's facts were sent to the scene"
    );
    // The bot answers once the animations (none here: no scene) and its pause are over.
    let started = std::time::Instant::now();
    loop {
        app.update();
        let t = app.world().resource::<TableMatch<RangeDuel>>();
        if t.game.history().len() >= 2 {
            assert_eq!(t.state().turn(), 1, "both orders in: the turn resolved");
            break;
        }
        assert!(started.elapsed().as_secs() < 10, "the bot never answered");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // A refused order is explained and changes nothing.
    let (before, len) = {
        let t = app.world().resource::<TableMatch<RangeDuel>>();
        (t.game.state_hash(), t.game.history().len())
    };
    let illegal = Order::Maneuver {
        drift: Some(tanktable::rules::range_duel::Direction::Opening),
        ram: true,
    };
    app.world_mut()
        .write_message(TableOrder::<RangeDuel>::Play(PlayerId(0), illegal));
    app.update();
    let t = app.world().resource::<TableMatch<RangeDuel>>();
    let notice = t.notice.clone().unwrap_or_default();
    assert!(notice.contains("ram"), "the refusal says why: {notice}");
    if t.game.history().len() == len {
        assert_eq!(t.game.state_hash(), before);
    }
}
