//! Headless tests of the client's logic, one session for all five games: orders injected
//! as messages change the rules state, the mirrored components and the log; real pointer
//! and key events become orders; saves, Continue, replays and rematches work in every
//! game; bots sit in any seat.

use std::path::{Path, PathBuf};

use bevy::camera::NormalizedRenderTarget;
use bevy::ecs::message::Messages;
use bevy::picking::backend::HitData;
use bevy::picking::events::{Click, Pointer, Press};
use bevy::picking::pointer::{Location, PointerButton, PointerId};
use bevy::prelude::*;
use tanktable::client::core::session::{
    AutosaveWriter, Busy, FactsPlayed, GameClient, OpenGame, OpenProblem, Order, SaveFolder,
    Session, insert_session,
};
use tanktable::client::core::{GameScreen, Screen};
use tanktable::client::frame::input::{PanelOrder, PanelOutlines};
use tanktable::client::frame::redraw::Redraw;
use tanktable::client::games::tank_commander::highlights::{Highlights, Hovered, Selection};
use tanktable::client::games::tank_commander::mirror::{Condition, HexPos, Unit};
use tanktable::client::headless_app;
use tanktable::framework::playable::{self, Recorded};
use tanktable::framework::{PlayerId, Seat, SeatedMatch};
use tanktable::rules::GameKind;
use tanktable::rules::tank_commander::{Action, Fact, FireTarget, TankCommander, UnitId};

use crate::project;

/// A scratch save folder per test.
fn scratch() -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "tanktable-it-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A windowless app with game `G` open on `setup` (relative to the project), its dice
/// scripted, every seat a person unless `seats` says otherwise.
fn app_on<G: GameClient>(setup: &str, dice: &[u32], seats: Vec<Seat>) -> App {
    let mut app = headless_app(None, scratch());
    insert_session(
        app.world_mut(),
        Session::new(seated_on::<G>(setup, dice, seats), None),
    );
    app.update();
    app.update();
    app
}

/// A new match of game `G` on `setup`, its dice scripted.
fn seated_on<G: GameClient>(setup: &str, dice: &[u32], seats: Vec<Seat>) -> SeatedMatch<G> {
    let rules = G::load_rules(None).unwrap();
    let setup = playable::load_setup::<G>(&project(setup), &rules).unwrap();
    let record = Recorded::<G> {
        setup,
        seed: 5,
        dice: dice.to_vec(),
        seats,
        actions: Vec::new(),
        final_hash: None,
        own_rules: false,
    };
    SeatedMatch::from_record(record, "test".into(), false, None).unwrap()
}

fn session<G: GameClient>(app: &App) -> &Session<G> {
    app.world().resource::<Session<G>>()
}

fn order<G: GameClient>(app: &mut App, order: Order<G>) {
    app.world_mut().write_message(order);
    app.update();
}

fn unit_pos(app: &mut App, id: UnitId) -> hexx::Hex {
    let mut q = app.world_mut().query::<(&Unit, &HexPos)>();
    q.iter(app.world()).find(|(u, _)| u.0 == id).unwrap().1.0
}

fn log_text<G: GameClient>(app: &App) -> Vec<String> {
    session::<G>(app)
        .log()
        .into_iter()
        .map(|l| l.text)
        .collect()
}

/// Blue wins the first-player roll (6 against 1).
const BLUE_FIRST: [u32; 2] = [6, 1];
const CLOSE_DUEL: &str = "tests/scenarios/close-duel.ron";

fn tc(dice: &[u32]) -> App {
    app_on::<TankCommander>(CLOSE_DUEL, dice, Vec::new())
}

/// The odds plates and the banner follow the action points left: short of a shot's cost,
/// the odds are greyed with what is missing; at none, the banner says to end.
#[test]
fn the_odds_and_the_banner_follow_the_action_points_left() {
    use tanktable::client::games::tank_commander::highlights::highlights_for;
    use tanktable::grid::Rotation;
    let mut app = tc(&BLUE_FIRST);
    order::<TankCommander>(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(UnitId(0))),
    );
    let odds = |app: &App| {
        let battle = session::<TankCommander>(app).state();
        highlights_for(battle, &Selection::default(), None).targets
    };
    let fresh = odds(&app);
    assert!(!fresh.is_empty(), "the striker aims at Red");
    assert!(fresh.iter().all(|t| t.short_of.is_none()), "{fresh:?}");
    let cost = session::<TankCommander>(&app).state().rules().costs.fire;
    let mut turn = Rotation::Right;
    loop {
        let battle = session::<TankCommander>(&app).state();
        let left = battle.activation().unwrap().action_points;
        if left == 0 {
            break;
        }
        let targets = odds(&app);
        for t in &targets {
            assert_eq!(
                t.short_of.clone(),
                (left < cost).then(|| format!("needs {cost} AP, {left} left")),
            );
        }
        order::<TankCommander>(
            &mut app,
            Order::Play(PlayerId(0), Action::RotateTurret(turn)),
        );
        turn = if turn == Rotation::Right {
            Rotation::Left
        } else {
            Rotation::Right
        };
    }
    let banner = session::<TankCommander>(&app)
        .state()
        .prompt(PlayerId(0))
        .unwrap();
    assert!(
        banner.contains("no action points left: ") && banner.contains("End activation"),
        "{banner}"
    );
}

#[test]
fn a_move_order_moves_the_rules_unit_and_its_mirror() {
    let mut app = tc(&BLUE_FIRST);
    assert_eq!(
        *app.world().resource::<State<GameScreen>>().get(),
        GameScreen::TankCommander
    );
    let striker = UnitId(0);
    let start = unit_pos(&mut app, striker);
    order::<TankCommander>(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(striker)),
    );
    order::<TankCommander>(&mut app, Order::Play(PlayerId(0), Action::Move));
    let rules_at = session::<TankCommander>(&app).state().unit(striker).at;
    assert_ne!(rules_at, start);
    assert_eq!(
        unit_pos(&mut app, striker),
        rules_at,
        "the mirror follows the rules"
    );
    let played = app
        .world()
        .resource::<Messages<FactsPlayed<TankCommander>>>();
    let mut cursor = played.get_cursor();
    let moves: Vec<_> = cursor
        .read(played)
        .flat_map(|p| &p.facts)
        .filter_map(|f| match f {
            Fact::UnitMoved { to, .. } => Some(*to),
            _ => None,
        })
        .collect();
    assert_eq!(moves, [rules_at], "the scene is told the move");
    let now = app.world().resource::<Time>().elapsed_secs();
    assert!(
        app.world().resource::<Busy>().busy(now),
        "the session waits for the glide"
    );
    let log = log_text::<TankCommander>(&app);
    assert!(log.iter().any(|l| l.contains("Striker moves")), "{log:?}");
}

#[test]
fn a_shot_reaches_the_log_with_its_roll_and_changes_the_target() {
    // Blue first; the striker hits on a 6 and penetrates on a 6.
    let mut app = tc(&[6, 1, 6, 6]);
    let (striker, bulwark) = (UnitId(0), UnitId(1));
    order::<TankCommander>(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(striker)),
    );
    order::<TankCommander>(
        &mut app,
        Order::Play(PlayerId(0), Action::Fire(FireTarget::Unit(bulwark))),
    );
    let played = app
        .world()
        .resource::<Messages<FactsPlayed<TankCommander>>>();
    let mut cursor = played.get_cursor();
    let shot = cursor
        .read(played)
        .flat_map(|p| &p.facts)
        .find_map(|f| match f {
            Fact::ShotResolved {
                hit, penetration, ..
            } => Some((*hit, penetration.as_ref().is_some_and(|p| p.penetrating))),
            _ => None,
        })
        .expect("the shot is told");
    assert_eq!(shot, (true, true));
    let log = log_text::<TankCommander>(&app);
    assert!(log.iter().any(|l| l.contains("rolls 6")), "{log:?}");
    let hull = session::<TankCommander>(&app).state().unit(bulwark).hull;
    let mut q = app.world_mut().query::<(&Unit, &Condition)>();
    let mirrored = q
        .iter(app.world())
        .find(|(u, _)| u.0 == bulwark)
        .unwrap()
        .1
        .hull;
    assert_eq!(mirrored, hull);
    assert!(
        hull < session::<TankCommander>(&app)
            .state()
            .unit(bulwark)
            .base
            .hull
    );
}

#[test]
fn a_refused_order_is_explained_and_changes_nothing() {
    let mut app = tc(&BLUE_FIRST);
    let before = session::<TankCommander>(&app).game.state_hash();
    order::<TankCommander>(&mut app, Order::Play(PlayerId(0), Action::Move));
    let s = session::<TankCommander>(&app);
    assert_eq!(s.game.state_hash(), before);
    let notice = s.notice.clone().unwrap();
    assert!(notice.contains("activate a unit first"), "{notice}");
}

/// A move drew no die: it is taken back in any mode (undo of a move outside
/// Playtest). A shot rolled dice: taking it back needs playtest mode, and says so.
#[test]
fn a_move_is_taken_back_in_any_mode_and_a_shot_only_in_playtest() {
    let mut app = tc(&[6, 1, 6, 6]);
    let (striker, bulwark) = (UnitId(0), UnitId(1));
    let start = unit_pos(&mut app, striker);
    order::<TankCommander>(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(striker)),
    );
    order::<TankCommander>(&mut app, Order::Play(PlayerId(0), Action::Move));
    assert_ne!(unit_pos(&mut app, striker), start);
    assert!(!session::<TankCommander>(&app).seated.playtest);
    assert!(session::<TankCommander>(&app).seated.can_undo().is_ok());
    order::<TankCommander>(&mut app, Order::Undo);
    assert_eq!(session::<TankCommander>(&app).game.history().len(), 1);
    assert_eq!(unit_pos(&mut app, striker), start);
    let log = log_text::<TankCommander>(&app);
    assert!(!log.iter().any(|l| l.contains("Striker moves")), "{log:?}");

    order::<TankCommander>(
        &mut app,
        Order::Play(PlayerId(0), Action::Fire(FireTarget::Unit(bulwark))),
    );
    assert_eq!(session::<TankCommander>(&app).game.history().len(), 2);
    order::<TankCommander>(&mut app, Order::Undo);
    assert_eq!(session::<TankCommander>(&app).game.history().len(), 2);
    assert!(
        session::<TankCommander>(&app)
            .notice
            .as_deref()
            .is_some_and(|n| n.contains("playtest mode") && n.contains("dice")),
        "the refusal says why"
    );
    order::<TankCommander>(&mut app, Order::Playtest(true));
    order::<TankCommander>(&mut app, Order::GoBack(1));
    assert_eq!(session::<TankCommander>(&app).game.history().len(), 1);
}

#[test]
fn driving_a_route_plays_its_orders_one_by_one() {
    let mut app = tc(&BLUE_FIRST);
    let striker = UnitId(0);
    order::<TankCommander>(
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
    // Each order waits for the last one's glide: a tenth of a second a frame.
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_millis(100),
    ));
    let played = |app: &App| session::<TankCommander>(app).game.history().len();
    let before = played(&app);
    order::<TankCommander>(
        &mut app,
        Order::PlaySequence(PlayerId(0), route.actions.clone()),
    );
    assert_eq!(played(&app), before + 1, "the first order plays at once");
    assert!(
        !session::<TankCommander>(&app).queued.is_empty(),
        "the next waits for the glide"
    );
    for _ in 0..20 * route.actions.len() {
        app.update();
    }
    assert_eq!(played(&app), before + route.actions.len());
    let battle = session::<TankCommander>(&app).state();
    assert_eq!(battle.unit(striker).at, route.to);
    let spent = battle.rules().tank.actions - battle.activation().unwrap().action_points;
    assert_eq!(spent, route.cost);
}

#[test]
fn highlights_list_targets_with_the_odds_command_s_numbers() {
    let mut app = tc(&BLUE_FIRST);
    order::<TankCommander>(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(UnitId(0))),
    );
    let at = session::<TankCommander>(&app).state().unit(UnitId(1)).at;
    app.world_mut().resource_mut::<Hovered>().0 = Some(at);
    app.update();
    let h = app.world().resource::<Highlights>().clone();
    let target = h
        .targets
        .iter()
        .find(|t| t.unit == UnitId(1))
        .expect("Bulwark is a target");
    let battle = session::<TankCommander>(&app).state().clone();
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

/// The entity mirroring hex `at` (a tile, or the unit standing on it).
fn entity_at(app: &mut App, at: hexx::Hex) -> Entity {
    let mut q = app.world_mut().query::<(Entity, &HexPos)>();
    q.iter(app.world())
        .find(|(_, p)| p.0 == at)
        .map(|(e, _)| e)
        .expect("an entity on that hex")
}

/// The pointer pressing and clicking `entity` at screen position `at`, as the picking
/// backend reports it.
fn click_entity(app: &mut App, entity: Entity, at: Vec2) {
    let location = Location {
        target: NormalizedRenderTarget::None {
            width: 1280,
            height: 720,
        },
        position: at,
    };
    let hit = HitData::new(Entity::PLACEHOLDER, 0.0, None, None);
    app.world_mut().trigger(Pointer::new(
        PointerId::Mouse,
        location.clone(),
        Press {
            button: PointerButton::Primary,
            hit: hit.clone(),
            count: 1,
        },
        entity,
    ));
    app.world_mut().trigger(Pointer::new(
        PointerId::Mouse,
        location,
        Click {
            button: PointerButton::Primary,
            hit,
            duration: std::time::Duration::from_millis(120),
            count: 1,
        },
        entity,
    ));
}

/// A click on a reachable hex drives there, through the pointer's own events.
#[test]
fn clicking_a_blue_hex_drives_there() {
    let mut app = tc(&BLUE_FIRST);
    let striker = UnitId(0);
    order::<TankCommander>(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(striker)),
    );
    app.update();
    let route = app.world().resource::<Highlights>().routes[0].clone();
    let tile = entity_at(&mut app, route.to);
    click_entity(&mut app, tile, Vec2::new(600.0, 300.0));
    for _ in 0..route.actions.len() + 3 {
        app.update();
    }
    assert_eq!(
        session::<TankCommander>(&app).state().unit(striker).at,
        route.to
    );
}

/// A click on a blue hex while the last action still plays (slow frames make that
/// likely) is not lost: it ends the animation and drives.
#[test]
fn a_click_during_an_animation_skips_it_and_drives() {
    let mut app = tc(&BLUE_FIRST);
    let striker = UnitId(0);
    order::<TankCommander>(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(striker)),
    );
    app.update();
    let route = app.world().resource::<Highlights>().routes[0].clone();
    let now = app.world().resource::<Time>().elapsed_secs();
    app.world_mut().resource_mut::<Busy>().queue(now, 1000.0);
    let tile = entity_at(&mut app, route.to);
    click_entity(&mut app, tile, Vec2::new(600.0, 300.0));
    for _ in 0..route.actions.len() + 4 {
        app.update();
    }
    assert_eq!(
        session::<TankCommander>(&app).state().unit(striker).at,
        route.to
    );
}

/// The defect found as a new user would: a click on a blue hex ended the turn instead
/// of driving there, because a panel had grown under the pointer in the frame before the
/// press (the action bar's labels followed the hovered hex). The press began on the
/// table as the player saw it, so the table takes the click and the panel's button does
/// not, whatever egui made of it.
#[test]
fn a_click_on_the_table_never_triggers_a_panel_button() {
    let mut app = tc(&BLUE_FIRST);
    let striker = UnitId(0);
    order::<TankCommander>(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(striker)),
    );
    app.update();
    let route = app.world().resource::<Highlights>().routes[0].clone();
    let tile = entity_at(&mut app, route.to);
    let pointer = Vec2::new(600.0, 620.0);
    // The action bar was drawn under the pointer in the last frame only.
    let bar = Rect::new(300.0, 600.0, 980.0, 716.0);
    app.world_mut()
        .resource_mut::<PanelOutlines>()
        .drawn(vec![]);
    app.world_mut()
        .resource_mut::<PanelOutlines>()
        .drawn(vec![bar]);
    click_entity(&mut app, tile, pointer);
    // egui saw its End activation button under the press and wrote its order.
    app.world_mut()
        .write_message(PanelOrder(Order::<TankCommander>::Play(
            PlayerId(0),
            Action::EndActivation,
        )));
    for _ in 0..route.actions.len() + 3 {
        app.update();
    }
    let s = session::<TankCommander>(&app);
    assert!(
        s.state().activation().is_some(),
        "the activation must not have ended"
    );
    assert_eq!(s.state().unit(striker).at, route.to, "the tank drove there");

    // The other way round: with the bar steady under the pointer, the press is the
    // panel's: its button works and the table behind it takes no click.
    app.world_mut()
        .resource_mut::<PanelOutlines>()
        .drawn(vec![bar]);
    let there = session::<TankCommander>(&app).state().unit(striker).at;
    let other = app
        .world()
        .resource::<Highlights>()
        .routes
        .iter()
        .find(|r| r.to != there)
        .cloned()
        .expect("somewhere else to go");
    let tile = entity_at(&mut app, other.to);
    click_entity(&mut app, tile, pointer);
    app.world_mut()
        .write_message(PanelOrder(Order::<TankCommander>::Play(
            PlayerId(0),
            Action::EndActivation,
        )));
    for _ in 0..6 {
        app.update();
    }
    let s = session::<TankCommander>(&app);
    assert!(
        s.state().activation().is_none(),
        "the panel's button was pressed"
    );
    assert_eq!(s.state().unit(striker).at, there, "the table took no click");
}

/// Presses and releases `key`, one frame each.
fn press(app: &mut App, key: KeyCode) {
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(key);
    app.update();
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    keys.release(key);
    keys.clear();
    app.update();
}

/// Keys press the action bar's buttons: Enter activates the selected tank, M moves it.
#[test]
fn keys_become_orders() {
    let mut app = tc(&BLUE_FIRST);
    let striker = UnitId(0);
    app.world_mut().resource_mut::<Selection>().unit = Some(striker);
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        session::<TankCommander>(&app)
            .state()
            .activation()
            .map(|a| a.unit),
        Some(striker)
    );
    let start = session::<TankCommander>(&app).state().unit(striker).at;
    press(&mut app, KeyCode::KeyM);
    assert_ne!(
        session::<TankCommander>(&app).state().unit(striker).at,
        start
    );
}

/// No key both starts and ends an activation: Enter pressed twice activates once and
/// leaves every action point.
#[test]
fn a_double_enter_keeps_the_activation() {
    let mut app = tc(&BLUE_FIRST);
    let striker = UnitId(0);
    app.world_mut().resource_mut::<Selection>().unit = Some(striker);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    let battle = session::<TankCommander>(&app).state();
    let act = battle.activation().expect("still active");
    assert_eq!(act.unit, striker);
    assert_eq!(act.action_points, battle.unit(striker).base.actions);
    assert_eq!(session::<TankCommander>(&app).game.history().len(), 1);
}

/// Keyboard-only play on the hex board: the arrows show and step a cursor that stands
/// for the pointer, Enter on the selected unit activates it, Enter on a blue hex drives
/// there, and Enter on the active unit ends nothing.
#[test]
fn the_arrows_and_enter_play_tank_commander_without_a_pointer() {
    use tanktable::client::games::tank_commander::KeyCursor;
    let mut app = tc(&BLUE_FIRST);
    let striker = UnitId(0);
    app.world_mut().resource_mut::<Selection>().unit = Some(striker);
    let home = session::<TankCommander>(&app).state().unit(striker).at;
    // The first arrow shows the cursor on the selected unit, and it stands for the pointer.
    press(&mut app, KeyCode::ArrowUp);
    assert_eq!(app.world().resource::<KeyCursor>().0, Some(home));
    assert_eq!(app.world().resource::<Hovered>().0, Some(home));
    press(&mut app, KeyCode::Enter);
    let battle = session::<TankCommander>(&app).state();
    assert_eq!(battle.activation().map(|a| a.unit), Some(striker));
    let full = battle.activation().unwrap().action_points;
    // Find the arrow that steps onto a blue hex next to the tank; each arrow goes to a
    // neighbour or stays.
    let routes: Vec<_> = app.world().resource::<Highlights>().routes.clone();
    let mut target = None;
    for arrow in [
        KeyCode::ArrowUp,
        KeyCode::ArrowDown,
        KeyCode::ArrowLeft,
        KeyCode::ArrowRight,
    ] {
        app.world_mut().resource_mut::<KeyCursor>().0 = Some(home);
        press(&mut app, arrow);
        let at = app.world().resource::<KeyCursor>().0.unwrap();
        assert!(
            at == home || at.distance_to(home) == 1,
            "{arrow:?} went to {at:?}"
        );
        if at != home && routes.iter().any(|r| r.to == at) {
            target = Some(at);
            break;
        }
    }
    let target = target.expect("an arrow onto a blue hex");
    assert_eq!(app.world().resource::<Hovered>().0, Some(target));
    // The camera is told where the cursor stands, to keep it in view.
    assert_eq!(
        app.world()
            .resource::<tanktable::client::frame::cursor::CursorAt>()
            .0,
        Some(tanktable::client::games::tank_commander::hex_to_world(
            target
        ))
    );
    press(&mut app, KeyCode::Enter);
    for _ in 0..4 {
        app.update();
    }
    let battle = session::<TankCommander>(&app).state();
    assert_eq!(
        battle.unit(striker).at,
        target,
        "Enter drove to the cursor's hex"
    );
    let left = battle.activation().expect("still active").action_points;
    assert!(left < full);
    // Back onto the tank, and Enter twice: the activation stays, every point kept.
    app.world_mut().resource_mut::<KeyCursor>().0 = Some(target);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    let battle = session::<TankCommander>(&app).state();
    assert_eq!(battle.activation().map(|a| a.action_points), Some(left));
}

/// Keyboard-only play on the square board: the arrows walk the cursor to a piece, Enter
/// picks it, the arrows walk to one of its squares, Enter offers the moves there, and a
/// digit plays the move the panel lists under it.
#[test]
fn the_arrows_enter_and_a_digit_play_a_tank_chess_move_without_a_pointer() {
    use tanktable::client::games::tank_chess::{ChessCursor, ChessPick, MOVE_KEYS, moves_to};
    use tanktable::rules::tank_chess::{Action as Chess, Square, TankChess};
    let mut app = app_on::<TankChess>(
        "scenarios/tank-chess/basic-16.ron",
        &[],
        vec![Seat::Person, Seat::Person],
    );
    let legal = session::<TankChess>(&app).state().legal();
    let (from, to) = legal
        .iter()
        .find_map(|a| match a {
            Chess::Move { from, to, .. } if from != to => Some((*from, *to)),
            _ => None,
        })
        .expect("a move");
    press(&mut app, KeyCode::ArrowUp);
    let walk = |app: &mut App, goal: Square| {
        for _ in 0..64 {
            let at = app.world().resource::<ChessCursor>().0.expect("shown");
            let key = if at.col < goal.col {
                KeyCode::ArrowRight
            } else if at.col > goal.col {
                KeyCode::ArrowLeft
            } else if at.row < goal.row {
                KeyCode::ArrowUp
            } else if at.row > goal.row {
                KeyCode::ArrowDown
            } else {
                return;
            };
            press(app, key);
        }
        panic!("the cursor never reached {goal}");
    };
    walk(&mut app, from);
    assert_eq!(app.world().resource::<ChessPick>().hover, Some(from));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.world().resource::<ChessPick>().piece, Some(from));
    walk(&mut app, to);
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.world().resource::<ChessPick>().dest, Some(to));
    let offered: Vec<_> = moves_to(&legal, Some(from), to).collect();
    // The panel numbers its moves from 1, and each number is its digit key.
    assert_eq!(MOVE_KEYS[0], KeyCode::Digit1);
    let last = offered.len().min(MOVE_KEYS.len()) - 1;
    press(&mut app, MOVE_KEYS[last]);
    let history = session::<TankChess>(&app).game.history();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].action, offered[last]);
}

/// Ending an activation or a turn with actions left asks once: N (or Escape) keeps
/// playing, Y ends it.
#[test]
fn ending_with_actions_left_asks_first() {
    use tanktable::client::games::tank_commander::AskEnd;
    let mut app = tc(&BLUE_FIRST);
    let striker = UnitId(0);
    app.world_mut().resource_mut::<Selection>().unit = Some(striker);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Backspace);
    let asked = app.world().resource::<AskEnd>().0.clone().expect("asked");
    assert!(
        asked.question.contains("action points left"),
        "{}",
        asked.question
    );
    assert!(
        session::<TankCommander>(&app)
            .state()
            .activation()
            .is_some()
    );
    press(&mut app, KeyCode::KeyN);
    assert!(app.world().resource::<AskEnd>().0.is_none());
    assert!(
        session::<TankCommander>(&app)
            .state()
            .activation()
            .is_some()
    );
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Escape);
    assert!(app.world().resource::<AskEnd>().0.is_none());
    assert!(
        session::<TankCommander>(&app)
            .state()
            .activation()
            .is_some()
    );
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::KeyY);
    assert!(
        session::<TankCommander>(&app)
            .state()
            .activation()
            .is_none()
    );
    // End turn with a unit still to act: asked, then played.
    let battle = session::<TankCommander>(&app).state();
    let side = battle.current_side();
    if battle.pending_units(side).next().is_some()
        && session::<TankCommander>(&app).deciding() == Some(side)
    {
        press(&mut app, KeyCode::KeyN);
        let asked = app.world().resource::<AskEnd>().0.clone().expect("asked");
        assert!(
            asked.question.starts_with("End the turn?"),
            "{}",
            asked.question
        );
        assert_eq!(session::<TankCommander>(&app).state().current_side(), side);
    }
}

/// Escape closes the topmost window first (the what-if, then the history), and with
/// none open it opens the menu.
#[test]
fn escape_closes_the_topmost_window_then_opens_the_menu() {
    use tanktable::client::core::Screen;
    use tanktable::client::frame::hud::Panels;
    let mut app = tc(&BLUE_FIRST);
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Playing
    );
    {
        let mut panels = app.world_mut().resource_mut::<Panels>();
        panels.history = true;
        panels.whatif = true;
    }
    press(&mut app, KeyCode::Escape);
    let panels = app.world().resource::<Panels>();
    assert!(!panels.whatif && panels.history);
    press(&mut app, KeyCode::Escape);
    assert!(!app.world().resource::<Panels>().history);
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Playing
    );
    press(&mut app, KeyCode::Escape);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Menu);
}

/// The guided first game, played through to its end: each step is asked for in turn and
/// moves on when the player does it (select, activate, drive, turn, aim, fire, end).
#[test]
fn the_guided_first_game_is_played_through_to_its_end() {
    use tanktable::client::games::tank_commander::guide::{Guide, SETUP, STEPS};
    use tanktable::framework::Game;
    use tanktable::framework::playable::Playable;
    use tanktable::grid::Rotation;
    let mut app =
        app_on::<TankCommander>(SETUP, &[], vec![Seat::Person, Seat::Bot("greedy".into())]);
    app.insert_resource(Guide::default());
    app.update();
    let step = |app: &App| app.world().resource::<Guide>().step;
    assert_eq!(step(&app), 0);
    let rookie = UnitId(0);
    app.world_mut().resource_mut::<Selection>().unit = Some(rookie);
    app.update();
    assert_eq!(step(&app), 1, "selected");
    press(&mut app, KeyCode::Enter);
    assert_eq!(step(&app), 2, "activated");
    order::<TankCommander>(&mut app, Order::Play(PlayerId(0), Action::Move));
    assert_eq!(step(&app), 3, "drove");
    order::<TankCommander>(
        &mut app,
        Order::Play(PlayerId(0), Action::RotateTurret(Rotation::Right)),
    );
    assert_eq!(step(&app), 4, "turned");
    order::<TankCommander>(&mut app, Order::Play(PlayerId(0), Action::EndActivation));
    assert_eq!(step(&app), 5, "the activation ended");
    // Drive on, as the tactical bot would, until a target can be fired at; aim, fire.
    let mut bot = TankCommander::bot("tactical").unwrap();
    let mut rng = tanktable::framework::MatchRng::new(1);
    for _ in 0..200 {
        let s = session::<TankCommander>(&app);
        if s.state().outcome().is_some() || step(&app) == STEPS.len() {
            break;
        }
        if s.deciding() != Some(PlayerId(0)) {
            app.update();
            continue;
        }
        let legal = s.state().legal_actions(PlayerId(0));
        let action = match legal.iter().find(|a| matches!(a, Action::Fire(_))) {
            Some(shot @ Action::Fire(FireTarget::Unit(target))) => {
                app.world_mut().resource_mut::<Selection>().aim = Some(*target);
                app.update();
                assert_eq!(step(&app), 6, "aimed");
                *shot
            }
            _ => bot.choose(s.state(), PlayerId(0), &mut rng).unwrap(),
        };
        order::<TankCommander>(&mut app, Order::Play(PlayerId(0), action));
    }
    assert_eq!(step(&app), STEPS.len(), "fired: the guide is done");
    assert!(app.world().resource::<Guide>().done());
}

/// An infantry squad gets its own action bar: Enter activates it, C takes cover, and its
/// blue hexes are reached by steps in any direction.
#[test]
fn a_squad_is_ordered_with_its_own_bar_and_steps_to_a_blue_hex() {
    let mut app = app_on::<TankCommander>(
        "tests/scenarios/infantry-mounts.ron",
        &BLUE_FIRST,
        Vec::new(),
    );
    let squad = UnitId(1);
    app.world_mut().resource_mut::<Selection>().unit = Some(squad);
    press(&mut app, KeyCode::Enter);
    app.update();
    let routes = app.world().resource::<Highlights>().routes.clone();
    assert!(!routes.is_empty());
    assert!(
        routes
            .iter()
            .all(|r| r.actions.iter().all(|a| matches!(a, Action::Step(_)))),
        "a squad moves by steps: {routes:?}"
    );
    assert!(
        routes.iter().any(|r| r.actions.len() == 2),
        "two steps a turn"
    );
    press(&mut app, KeyCode::KeyC);
    let battle = session::<TankCommander>(&app).state();
    assert!(battle.unit(squad).in_cover, "C took cover");
    let log = log_text::<TankCommander>(&app);
    assert!(
        log.iter().any(|l| l.contains("Sappers takes cover")),
        "{log:?}"
    );
}

/// Save, Load, Continue (the autosave), Replay and Rematch, the same for every game.
fn saves_and_replays<G: GameClient>() {
    let dir = scratch();
    let mut app = app_on::<G>(G::KIND.default_setup(), &[], Vec::new());
    app.world_mut().insert_resource(SaveFolder(dir.clone()));
    if session::<G>(&app).held.is_some() {
        order::<G>(&mut app, Order::Begin);
    }
    // A few actions, each played by the game's own bot for whoever must act.
    for _ in 0..3 {
        let (player, action) = {
            let mut m = session::<G>(&app).seated.clone();
            m.seats
                .iter_mut()
                .for_each(|s| *s = Seat::Bot(G::bot_names()[0].into()));
            m.bot_choice().unwrap().unwrap()
        };
        order::<G>(&mut app, Order::Play(player, action));
    }
    let played = session::<G>(&app).game.history().len();
    assert_eq!(played, 3, "{:?}", session::<G>(&app).notice);
    let hash = session::<G>(&app).game.state_hash();
    let path = dir.join(format!("saved.{}", G::RECORD_EXTENSION));
    order::<G>(&mut app, Order::Save(Some(path.clone())));
    assert!(path.is_file(), "{:?}", session::<G>(&app).notice);

    // Continue: the autosave after the last action opens on the same state.
    let autosave = SaveFolder(dir.clone()).autosave::<G>();
    AutosaveWriter::get().flush();
    assert!(autosave.is_file(), "autosaved after every action");
    let open = |app: &mut App, open: OpenGame| {
        app.world_mut().write_message(open);
        app.update();
        app.update();
        assert_eq!(app.world().resource::<OpenProblem>().0, None);
    };
    let generation = session::<G>(&app).generation;
    open(&mut app, OpenGame::file(autosave.clone()));
    assert_ne!(session::<G>(&app).generation, generation);
    assert_eq!(session::<G>(&app).game.state_hash(), hash);

    // A damaged autosave: Continue falls back to its backup, one action back, and says so.
    std::fs::write(&autosave, "MatchRecord(game: \"").unwrap();
    open(&mut app, OpenGame::autosave::<G>(&SaveFolder(dir.clone())));
    assert_eq!(session::<G>(&app).game.history().len(), played - 1);
    let notice = session::<G>(&app).notice.clone().unwrap_or_default();
    assert!(
        notice.contains("from its backup, one action earlier"),
        "{notice}"
    );

    // Load: the save plays on from where it was saved.
    open(&mut app, OpenGame::file(path.clone()));
    assert_eq!(session::<G>(&app).game.history().len(), played);
    assert_eq!(session::<G>(&app).game.state_hash(), hash);

    // Replay: from the start, stepped through with the timeline; no new actions.
    open(
        &mut app,
        OpenGame {
            replay: true,
            ..OpenGame::file(path.clone())
        },
    );
    assert_eq!(session::<G>(&app).game.history().len(), 0);
    order::<G>(&mut app, Order::Seek(played));
    assert_eq!(session::<G>(&app).game.state_hash(), hash);
    order::<G>(&mut app, Order::Seek(1));
    assert_eq!(session::<G>(&app).game.history().len(), 1);
    let (player, action) = {
        let step = &session::<G>(&app).game.history()[0];
        (step.player, step.action.clone())
    };
    order::<G>(&mut app, Order::Play(player, action));
    assert_eq!(
        session::<G>(&app).game.history().len(),
        1,
        "a replay takes no orders"
    );
    // Play on from the moment shown.
    order::<G>(&mut app, Order::TakeOver);
    assert!(session::<G>(&app).replay.is_none());

    // Rematch: the same setup and seats, from the start, new dice.
    let generation = session::<G>(&app).generation;
    order::<G>(&mut app, Order::Rematch);
    app.update();
    let s = session::<G>(&app);
    assert_ne!(s.generation, generation);
    assert_eq!(s.game.history().len(), 0);
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Playing
    );
    assert_eq!(
        *app.world().resource::<State<GameScreen>>().get(),
        G::SCREEN
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn saves_and_replays_tank_commander() {
    saves_and_replays::<TankCommander>();
}

#[test]
fn saves_and_replays_tank_chess() {
    saves_and_replays::<tanktable::rules::tank_chess::TankChess>();
}

#[test]
fn saves_and_replays_battle_tanks() {
    saves_and_replays::<tanktable::rules::battle_tanks::BattleTanks>();
}

#[test]
fn saves_and_replays_tank_combat() {
    saves_and_replays::<tanktable::rules::tank_combat::TankCombat>();
}

#[test]
fn saves_and_replays_range_duel() {
    saves_and_replays::<tanktable::rules::range_duel::RangeDuel>();
}

/// Runs `app` until `done` or `seconds` pass (bots think off the main thread).
fn run_until(app: &mut App, seconds: u64, mut done: impl FnMut(&App) -> bool) -> bool {
    let started = std::time::Instant::now();
    while started.elapsed().as_secs() < seconds {
        app.update();
        if done(app) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    false
}

/// With bots in every seat, every game plays on by itself, and the seats are kept in the
/// record.
fn bots_play<G: GameClient>(bots: &str, actions: usize) {
    let dir = scratch();
    let seats = vec![Seat::Bot(bots.into()); 8];
    let mut app = app_on::<G>(G::KIND.default_setup(), &[], seats);
    app.world_mut().insert_resource(SaveFolder(dir.clone()));
    let went = run_until(&mut app, 60, |app| {
        let s = session::<G>(app);
        s.game.history().len() >= actions || s.state().outcome().is_some()
    });
    assert!(went, "the bots of {} did not play", G::KIND.title());
    AutosaveWriter::get().flush();
    let record = playable::load_record::<G>(
        &SaveFolder(dir.clone()).autosave::<G>(),
        &G::load_rules(None).unwrap(),
    )
    .unwrap();
    assert!(
        record.seats.iter().all(|s| *s == Seat::Bot(bots.into())),
        "{:?}",
        record.seats
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bots_play_every_game_in_every_seat() {
    bots_play::<TankCommander>("greedy", 6);
    bots_play::<tanktable::rules::tank_chess::TankChess>("random", 4);
    bots_play::<tanktable::rules::battle_tanks::BattleTanks>("heuristic", 6);
    bots_play::<tanktable::rules::tank_combat::TankCombat>("heuristic", 6);
    bots_play::<tanktable::rules::range_duel::RangeDuel>("heuristic", 6);
}

#[test]
fn a_person_plays_against_a_bot_in_tank_commander_and_tank_chess() {
    // Tank Commander: Red is the greedy bot; Blue's End turn hands it the table.
    let mut app = app_on::<TankCommander>(
        CLOSE_DUEL,
        &BLUE_FIRST,
        vec![Seat::Person, Seat::Bot("greedy".into())],
    );
    order::<TankCommander>(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(UnitId(0))),
    );
    order::<TankCommander>(&mut app, Order::Play(PlayerId(0), Action::EndActivation));
    let answered = run_until(&mut app, 20, |app| {
        session::<TankCommander>(app)
            .game
            .history()
            .iter()
            .any(|s| s.player == PlayerId(1))
    });
    assert!(answered, "the Tank Commander bot never acted");

    // Tank Chess: the Commander bot plays Black.
    use tanktable::rules::tank_chess::TankChess;
    let mut app = app_on::<TankChess>(
        "scenarios/tank-chess/basic-16.ron",
        &[],
        vec![Seat::Person, Seat::Bot("cadet".into())],
    );
    let first = session::<TankChess>(&app).state().legal()[0];
    order::<TankChess>(&mut app, Order::Play(PlayerId(0), first));
    let answered = run_until(&mut app, 20, |app| {
        session::<TankChess>(app).game.history().len() >= 2
    });
    assert!(answered, "the chess bot never answered");
}

#[test]
fn a_bot_handed_a_seat_mid_game_takes_over_and_hot_seat_hides_secrets() {
    use tanktable::rules::range_duel::{Action as Duel, RangeDuel};
    let mut app = app_on::<RangeDuel>(
        "scenarios/range-duel/default.ron",
        &[],
        vec![Seat::Person, Seat::Person],
    );
    // Two people with secret orders: the privacy screen is up from the start.
    assert_eq!(session::<RangeDuel>(&app).pass_to, Some(PlayerId(0)));
    order::<RangeDuel>(&mut app, Order::Reveal);
    order::<RangeDuel>(&mut app, Order::Play(PlayerId(0), Duel::HullDown));
    let played = app.world().resource::<Messages<FactsPlayed<RangeDuel>>>();
    assert!(played.iter_current_update_messages().any(|m| !m.jumped));
    // Player 2's turn waits behind the screen, with player 1's choice hidden.
    app.update();
    assert_eq!(session::<RangeDuel>(&app).pass_to, Some(PlayerId(1)));
    order::<RangeDuel>(&mut app, Order::Reveal);
    assert!(
        !log_text::<RangeDuel>(&app)
            .iter()
            .any(|l| l.contains("Hull Down")),
        "player 2 reads that player 1 chose, never what"
    );
    // Player 2 leaves: a bot takes the seat and answers.
    order::<RangeDuel>(
        &mut app,
        Order::Sit(PlayerId(1), Seat::Bot("heuristic".into())),
    );
    let answered = run_until(&mut app, 20, |app| {
        session::<RangeDuel>(app).game.history().len() >= 2
    });
    assert!(answered, "the bot never answered");
    assert_eq!(
        session::<RangeDuel>(&app).state().turn(),
        1,
        "the turn resolved"
    );
}

/// With no Nukes on the first roll, the rules roll the first battle as the game begins:
/// the table shows the full arsenals, the log and the bots wait, and the roll plays when
/// a person asks for it (Enter or the button).
#[test]
fn the_battle_tanks_table_waits_for_a_person_to_roll_the_first_battle() {
    use tanktable::framework::Game;
    use tanktable::rules::battle_tanks::{BattleTanks, Fact};
    let seats = vec![
        Seat::Person,
        Seat::Bot("heuristic".into()),
        Seat::Bot("heuristic".into()),
        Seat::Bot("heuristic".into()),
    ];
    let mut app = app_on::<BattleTanks>("scenarios/battle-tanks/default.ron", &[], seats);
    let opening = session::<BattleTanks>(&app).game.opening_facts().to_vec();
    assert!(
        opening.iter().any(|f| matches!(f, Fact::Rolled { .. })),
        "the first battle is rolled as the game begins: {opening:?}"
    );
    // Held: the table shows every die at home, the log tells no roll, bots wait.
    for _ in 0..40 {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let s = session::<BattleTanks>(&app);
    let held = s.held.as_ref().expect("the opening waits for the person");
    assert!(s.game.history().is_empty(), "a bot played before the roll");
    let before = s.table_state();
    assert!(before.battlefield().is_empty());
    assert!(
        before
            .players()
            .iter()
            .all(|c| c.tanks == 5 && c.nukes == 1)
    );
    assert_eq!(held.told, 1, "only the game's start is told");
    assert!(
        log_text::<BattleTanks>(&app).len() <= 1,
        "the log tells no roll"
    );
    // Declaring before the roll is refused with the reason.
    let first = s.state().to_act()[0];
    let action = s.state().legal_actions(first)[0];
    order::<BattleTanks>(&mut app, Order::Play(first, action));
    let s = session::<BattleTanks>(&app);
    assert!(s.game.history().is_empty());
    assert!(s.notice.as_deref().unwrap_or("").contains("first roll"));
    // Enter rolls it; the animation plays, then the game goes on.
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(KeyCode::Enter);
    app.update();
    let s = session::<BattleTanks>(&app);
    assert!(s.held.is_none());
    assert!(log_text::<BattleTanks>(&app).len() > 1, "the roll is told");
    let now = app.world().resource::<Time>().elapsed_secs();
    assert!(
        app.world().resource::<Busy>().busy(now),
        "the roll animates before anyone acts"
    );
    let went = run_until(&mut app, 60, |app| {
        let s = session::<BattleTanks>(app);
        !s.game.history().is_empty() || s.deciding().is_some()
    });
    assert!(went, "the game did not go on after the roll");
}

#[test]
fn a_file_opens_the_right_game_and_a_bad_one_says_why() {
    let mut app = headless_app(
        Some(OpenGame::file(project(
            "scenarios/battle-tanks/default.ron",
        ))),
        scratch(),
    );
    assert!(
        app.world()
            .contains_resource::<Session<tanktable::rules::battle_tanks::BattleTanks>>()
    );
    assert_eq!(
        *app.world().resource::<State<GameScreen>>().get(),
        GameScreen::BattleTanks
    );
    app.world_mut()
        .write_message(OpenGame::file(project("assets/rules/tank-chess.ron")));
    app.update();
    let problem = app.world().resource::<OpenProblem>().0.clone().unwrap();
    assert!(problem.contains("is a Tank Chess rules table"), "{problem}");
    // Another game replaces the first on the table.
    app.world_mut()
        .write_message(OpenGame::file(project("scenarios/tank-chess/basic-16.ron")));
    app.update();
    app.update();
    assert!(
        !app.world()
            .contains_resource::<Session<tanktable::rules::battle_tanks::BattleTanks>>()
    );
    assert_eq!(
        *app.world().resource::<State<GameScreen>>().get(),
        GameScreen::TankChess
    );
    for game in GameKind::ALL {
        assert!(Path::new(&project(game.default_setup())).is_file());
    }
}

/// The whole client without a GPU, on the close duel with a unit selected.
fn windowless_duel() -> App {
    let seated = seated_on::<TankCommander>(CLOSE_DUEL, &BLUE_FIRST, Vec::new());
    let mut app = tanktable::client::windowless_app(scratch());
    insert_session(app.world_mut(), Session::new(seated, None));
    app.world_mut().resource_mut::<Redraw>().max_wait = 3600.0;
    // Frames a 60th of a second apart, as on screen.
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_secs_f64(1.0 / 60.0),
    ));
    app.update();
    app.update();
    order::<TankCommander>(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(UnitId(0))),
    );
    app.world_mut().resource_mut::<Selection>().unit = Some(UnitId(0));
    app
}

/// The frames laid out and reused during `frames` updates.
fn redraws(app: &mut App, frames: usize) -> (u64, u64) {
    let before = app.world().resource::<Redraw>().counts;
    for _ in 0..frames {
        app.update();
    }
    let after = app.world().resource::<Redraw>().counts;
    (after.0 - before.0, after.1 - before.1)
}

/// Runs frames until one reuses the panels; the frames it took.
fn settle(app: &mut App) -> usize {
    for frame in 1..=120 {
        if redraws(app, 1) == (0, 1) {
            return frame;
        }
    }
    panic!(
        "the panels never settle: {:?}",
        app.world().resource::<Redraw>().why
    );
}

fn triangles(app: &mut App) -> usize {
    let mut q = app
        .world_mut()
        .query_filtered::<&bevy_egui::EguiRenderOutput, With<bevy_egui::PrimaryEguiContext>>();
    q.single(app.world())
        .unwrap()
        .paint_jobs
        .iter()
        .map(|job| match &job.primitive {
            bevy_egui::egui::epaint::Primitive::Mesh(m) => m.indices.len() / 3,
            bevy_egui::egui::epaint::Primitive::Callback(_) => 0,
        })
        .sum()
}

#[test]
fn panels_are_laid_out_again_only_when_something_they_show_changed() {
    let mut app = windowless_duel();
    // Let the panels settle (windows size themselves and fade in over a few frames).
    settle(&mut app);
    let drawn = triangles(&mut app);
    assert!(drawn > 100, "the panels are drawn ({drawn} triangles)");
    // Idle: nothing is laid out, the last frame's triangles are drawn again.
    assert_eq!(
        redraws(&mut app, 10),
        (0, 10),
        "idle frames reuse the panels"
    );
    assert_eq!(triangles(&mut app), drawn, "and show the same triangles");
    // A new hovered hex is shown by the hover card: laid out again, then idle again.
    let hex = session::<TankCommander>(&app).state().unit(UnitId(1)).at;
    app.world_mut().resource_mut::<Hovered>().0 = Some(hex);
    let (laid_out, _) = redraws(&mut app, 1);
    assert_eq!(
        laid_out, 1,
        "a change of the hovered hex lays the panels out"
    );
    // (The hover card fades in over a few frames.)
    settle(&mut app);
    assert_eq!(redraws(&mut app, 5), (0, 5));
    // An order played changes the session: laid out again.
    order::<TankCommander>(&mut app, Order::Play(PlayerId(0), Action::Move));
    let (laid_out, _) = redraws(&mut app, 1);
    assert_eq!(laid_out, 1, "the session's change is shown");
    // Laid out every frame while the tank glides (its label follows it), then idle.
    let mut frames = 0;
    while frames < 5000 && {
        let now = app.world().resource::<Time>().elapsed_secs();
        app.world().resource::<Busy>().busy(now)
    } {
        assert_eq!(
            redraws(&mut app, 1),
            (1, 0),
            "laid out while the tank glides"
        );
        frames += 1;
    }
    assert!(
        frames > 0 && frames < 5000,
        "the move animates ({frames} frames)"
    );
    settle(&mut app);
    assert_eq!(
        redraws(&mut app, 5),
        (0, 5),
        "and then the table is idle again"
    );
    // The safety net lays the panels out however quiet the table.
    app.world_mut().resource_mut::<Redraw>().max_wait = 0.0;
    assert_eq!(redraws(&mut app, 3), (3, 0));
}

/// The Lab screen's cost per frame, windowless (the client's own CPU work, no drawing),
/// while a run keeps the workers busy and when it is idle. A report, not a check (run it
/// with `cargo test lab_frame -- --ignored --nocapture`).
/// The Lab's plots fill in while a long run goes on: the report is built by a thread of
/// its own, and the screen takes it when it is ready, without waiting for the run.
#[test]
fn the_lab_report_fills_in_while_the_run_goes_on() {
    use std::time::{Duration, Instant};
    use tanktable::client::screens::lab::{LabScreen, OpenLab};
    let mut app = tanktable::client::windowless_app(scratch());
    app.world_mut().write_message(OpenLab {
        game: Some(GameKind::BattleTanks),
        games: Some(1_000_000),
        run: true,
        ..OpenLab::default()
    });
    let started = Instant::now();
    let mut reports = 0;
    let mut last = 0;
    while reports < 2 {
        app.update();
        let lab = app.world().resource::<LabScreen>();
        assert!(lab.running(), "a million games cannot be over yet");
        let games = lab.report.as_ref().map_or(0, |r| r.arms[0].games);
        if games > last {
            // A newer report, from more games than the last, while the run goes on.
            assert!(u64::from(games) <= lab.finished_games());
            reports += 1;
            last = games;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no report came while the run went on ({reports} so far)"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Opening the Lab again cancels the run.
    app.world_mut().write_message(OpenLab {
        game: Some(GameKind::BattleTanks),
        ..OpenLab::default()
    });
    app.update();
    assert!(!app.world().resource::<LabScreen>().running());
}

#[test]
#[ignore = "a measurement: cargo test lab_frame -- --ignored --nocapture"]
fn lab_frame_time_during_a_run() {
    use std::time::Instant;
    use tanktable::client::screens::lab::{LabScreen, OpenLab};
    let mut app = tanktable::client::windowless_app(scratch());
    let frame_ms = |app: &mut App, frames: usize| {
        let started = Instant::now();
        for _ in 0..frames {
            app.update();
        }
        started.elapsed().as_secs_f64() * 1000.0 / frames as f64
    };
    app.world_mut().write_message(OpenLab {
        game: Some(tanktable::rules::GameKind::TankCommander),
        games: Some(50_000),
        run: true,
        ..OpenLab::default()
    });
    app.update();
    app.update();
    assert!(app.world().resource::<LabScreen>().running());
    let busy = frame_ms(&mut app, 120);
    let done = app.world().resource::<LabScreen>().finished_games();
    app.world_mut().write_message(OpenLab {
        game: Some(tanktable::rules::GameKind::TankCommander),
        ..OpenLab::default()
    });
    app.update();
    let idle = frame_ms(&mut app, 120);
    println!(
        "Lab screen, windowless: {busy:.2} ms a frame during a run ({done} games played meanwhile), {idle:.2} ms idle"
    );
}

#[test]
fn branching_a_playtest_game_keeps_the_original_and_plays_on_from_there() {
    let mut app = tc(&BLUE_FIRST);
    let striker = UnitId(0);
    order::<TankCommander>(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(striker)),
    );
    order::<TankCommander>(&mut app, Order::Play(PlayerId(0), Action::Move));
    order::<TankCommander>(&mut app, Order::Play(PlayerId(0), Action::Move));
    order::<TankCommander>(&mut app, Order::Playtest(true));
    let whole = session::<TankCommander>(&app).record();
    order::<TankCommander>(&mut app, Order::Branch(1));
    let s = session::<TankCommander>(&app);
    assert_eq!(s.game.history().len(), 1, "{:?}", s.notice);
    let notice = s.notice.clone().unwrap();
    let kept = notice
        .split_once("is kept in ")
        .map(|(_, p)| PathBuf::from(p.trim_end_matches('.')))
        .unwrap_or_else(|| panic!("{notice}"));
    // The game as it was replays whole from the kept file.
    use tanktable::framework::Playable as _;
    let rules = TankCommander::load_rules(None).unwrap();
    let text = std::fs::read_to_string(&kept).unwrap();
    let back = TankCommander::read_record(&kept, &text, &rules).unwrap();
    assert_eq!(back.actions, whole.actions);
    // The branch plays on differently.
    order::<TankCommander>(&mut app, Order::Play(PlayerId(0), Action::Move));
    assert_eq!(session::<TankCommander>(&app).game.history().len(), 2);
}

/// The editor's Quick balance plays its games through the lab, for a Tank Commander
/// scenario and for a Tank Chess setup alike; the time it takes is printed (run with
/// `--nocapture`).
#[test]
fn the_editors_quick_balance_runs_through_the_lab() {
    use std::sync::atomic::Ordering;
    use std::time::{Duration, Instant};
    use tanktable::client::screens::editor::{BALANCE_GAMES, EditorScreen, OpenEditor};
    let dir = scratch();
    let mut app = headless_app(None, dir.join("saves"));
    app.world_mut().resource_mut::<EditorScreen>().folder = dir.clone();
    let open = |app: &mut App, file: &str| {
        app.world_mut().write_message(OpenEditor {
            path: Some(project(file)),
            ..Default::default()
        });
        app.update();
        app.update();
    };
    open(&mut app, "scenarios/skirmish.ron");
    let started = Instant::now();
    app.world_mut()
        .resource_mut::<EditorScreen>()
        .start_balance();
    loop {
        app.update();
        let screen = app.world().resource::<EditorScreen>();
        let balance = screen.balance.as_ref().expect("a balance run");
        assert_eq!(balance.error, None);
        if let Some(report) = &balance.report {
            assert_eq!(report.arms[0].games, BALANCE_GAMES);
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the quick balance did not finish"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    println!(
        "quick balance, skirmish: {BALANCE_GAMES} games in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    // A Tank Chess setup is balanced as Tank Chess: the run starts and plays.
    open(&mut app, "scenarios/tank-chess/basic-16.ron");
    let mut screen = app.world_mut().resource_mut::<EditorScreen>();
    screen.start_balance();
    let balance = screen.balance.as_ref().expect("a chess balance run");
    assert_eq!(
        balance.running.question.game, "Tank Chess",
        "{}",
        screen.status
    );
    balance.running.live.cancel.store(true, Ordering::Relaxed);
    let _ = std::fs::remove_dir_all(dir);
}

/// The scenario editor from its orders to a game: a board painted and peopled, made fair
/// by a mirror, undone and redone, saved, read back valid, and played in one click.
#[test]
fn the_editor_builds_saves_and_plays_a_scenario() {
    use tanktable::client::screens::editor::{EditorOrder, EditorScreen, OpenEditor};
    use tanktable::editor::{Design as _, Edit, Symmetry, Terrain};
    use tanktable::rules::tank_commander::{Rules, Scenario};
    let dir = scratch();
    let mut app = headless_app(None, dir.join("saves"));
    app.world_mut().resource_mut::<EditorScreen>().folder = dir.clone();
    app.world_mut().write_message(OpenEditor {
        path: None,
        size: Some((10, 10)),
        ..Default::default()
    });
    app.update();
    app.update();
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Editor
    );
    let orders = [
        EditorOrder::Stroke(Edit::Paint {
            cells: vec![[4, 6]],
            terrain: Terrain::Forest,
        }),
        EditorOrder::Stroke(Edit::Paint {
            cells: vec![[4, 6], [5, 6], [5, 7]],
            terrain: Terrain::Forest,
        }),
        EditorOrder::EndStroke,
        EditorOrder::Edit(Edit::AddUnit(Box::new(
            ron::from_str(r#"(side: "Blue", name: "Anvil", at: "C9", facing: N)"#).unwrap(),
        ))),
        EditorOrder::Edit(Edit::Mirror(Symmetry::Rotate180)),
    ];
    for order in orders {
        app.world_mut().write_message(order);
    }
    app.update();
    let hash = {
        let screen = app.world().resource::<EditorScreen>();
        let editor = screen.editor.as_ref().unwrap();
        let design = editor.design();
        assert_eq!(design.terrain([5, 7]), Terrain::Forest);
        assert_eq!(design.terrain([4, 2]), Terrain::Forest, "mirrored");
        assert_eq!(design.setup.units.len(), 2);
        assert!(
            editor.check().problems.is_empty(),
            "{:?}",
            editor.check().lines()
        );
        assert!(editor.modified());
        design.hash()
    };
    // Undo takes the mirror back, then the unit, then the whole stroke; redo returns.
    for _ in 0..3 {
        app.world_mut().write_message(EditorOrder::Undo);
        app.update();
    }
    {
        let screen = app.world().resource::<EditorScreen>();
        let design = screen.editor.as_ref().unwrap().design();
        assert_eq!(design.terrain([5, 7]), Terrain::Open);
        assert!(design.setup.units.is_empty());
    }
    for _ in 0..3 {
        app.world_mut().write_message(EditorOrder::Redo);
    }
    app.update();
    let file = dir.join("two-tanks.ron");
    app.world_mut()
        .write_message(EditorOrder::Save(Some(file.clone())));
    app.update();
    {
        let screen = app.world().resource::<EditorScreen>();
        let editor = screen.editor.as_ref().unwrap();
        assert_eq!(editor.design().hash(), hash);
        assert!(!editor.modified(), "{}", screen.status);
    }
    let scenario = Scenario::load(&file, &Rules::builtin()).unwrap();
    assert_eq!(scenario.units.len(), 2);
    // A file that is not a scenario is refused in words, with its place; the design
    // open stays as it was.
    let broken = dir.join("broken.ron");
    std::fs::write(&broken, "Scenario(name: 3)").unwrap();
    app.world_mut().write_message(OpenEditor {
        path: Some(broken),
        ..Default::default()
    });
    app.update();
    {
        let said = app
            .world()
            .resource::<OpenProblem>()
            .0
            .clone()
            .unwrap_or_default();
        assert!(said.contains("broken.ron:1:"), "{said}");
        let screen = app.world().resource::<EditorScreen>();
        assert_eq!(screen.editor.as_ref().unwrap().design().hash(), hash);
    }
    // Play it: the editor's file opens as a game at the table.
    let path = app
        .world()
        .resource::<EditorScreen>()
        .playable_file()
        .unwrap();
    assert_eq!(path, file);
    app.world_mut().write_message(OpenGame::file(path));
    app.update();
    app.update();
    assert!(app.world().contains_resource::<Session<TankCommander>>());
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Playing
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The editor on a Tank Chess setup: a shipped setup opens clean, flips twice back to
/// itself (nothing to save), saves byte for byte, and plays.
#[test]
fn the_editor_opens_flips_saves_and_plays_a_tank_chess_setup() {
    use tanktable::client::screens::editor::{EditorOrder, EditorScreen, OpenEditor};
    use tanktable::editor::{SquareEdit, Symmetry};
    use tanktable::rules::tank_chess::TankChess;
    let dir = scratch();
    let mut app = headless_app(None, dir.join("saves"));
    app.world_mut().resource_mut::<EditorScreen>().folder = dir.clone();
    let shipped = project("scenarios/tank-chess/basic-16.ron");
    app.world_mut().write_message(OpenEditor {
        path: Some(shipped.clone()),
        ..Default::default()
    });
    app.update();
    app.update();
    assert!(app.world().resource::<EditorScreen>().is_chess());
    for _ in 0..2 {
        app.world_mut()
            .write_message(EditorOrder::Square(SquareEdit::Flip(Symmetry::Rotate180)));
        app.update();
        let screen = app.world().resource::<EditorScreen>();
        assert!(screen.check().unwrap().problems.is_empty());
    }
    let copy = dir.join("basic.ron");
    app.world_mut()
        .write_message(EditorOrder::Save(Some(copy.clone())));
    app.update();
    let state = app.world().resource::<EditorScreen>().file_state().unwrap();
    assert!(!state.1, "flipped twice is the same setup");
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        std::fs::read(&shipped).unwrap()
    );
    let path = app
        .world()
        .resource::<EditorScreen>()
        .playable_file()
        .unwrap();
    app.world_mut().write_message(OpenGame::file(path));
    app.update();
    app.update();
    assert!(app.world().contains_resource::<Session<TankChess>>());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_waits_while_its_scenario_is_edited_and_takes_up_the_change() {
    use tanktable::client::screens::editor::{
        BackToGame, EditTheGame, EditorOrder, EditorScreen, WaitingGame,
    };
    use tanktable::editor::{Edit, HexDesign, Terrain};
    let dir = scratch();
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("close-duel.ron");
    std::fs::copy(project(CLOSE_DUEL), &file).unwrap();
    let mut app = headless_app(None, dir.join("saves"));
    app.world_mut().resource_mut::<EditorScreen>().folder = dir.clone();
    let seated = seated_on::<TankCommander>(CLOSE_DUEL, &BLUE_FIRST, Vec::new());
    insert_session(app.world_mut(), Session::new(seated, Some(file.clone())));
    app.update();
    app.update();
    let striker = UnitId(0);
    order::<TankCommander>(
        &mut app,
        Order::Play(PlayerId(0), Action::Activate(striker)),
    );
    order::<TankCommander>(&mut app, Order::Play(PlayerId(0), Action::Move));
    let moved_to = session::<TankCommander>(&app).state().unit(striker).at;

    // ✎ Edit: the game is put aside and the editor opens on its file.
    app.world_mut().write_message(EditTheGame);
    app.update();
    app.update();
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Editor
    );
    assert!(
        app.world()
            .get_resource::<Session<TankCommander>>()
            .is_none()
    );
    assert_eq!(
        app.world().resource::<WaitingGame>().title(),
        "Close duel (test)"
    );
    {
        let screen = app.world().resource::<EditorScreen>();
        let editor = screen.editor.as_ref().expect("the editor is open");
        assert_eq!(editor.path.as_deref(), Some(file.as_path()));
    }
    // A wood in the far corner, saved; then back to the game.
    app.world_mut()
        .write_message(EditorOrder::Edit(Edit::Paint {
            cells: vec![[0, 0]],
            terrain: Terrain::Forest,
        }));
    app.world_mut().write_message(EditorOrder::Save(None));
    app.world_mut().write_message(BackToGame);
    app.update();
    app.update();
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Playing
    );
    assert!(app.world().get_resource::<WaitingGame>().is_none());
    let back = session::<TankCommander>(&app);
    assert_eq!(back.game.history().len(), 2, "both actions carried over");
    assert_eq!(back.state().unit(striker).at, moved_to);
    assert_eq!(back.path.as_deref(), Some(file.as_path()));
    let design = HexDesign::from_setup(back.setup.scenario.setup.clone());
    assert_eq!(
        design.terrain([0, 0]),
        Terrain::Forest,
        "the change is taken up"
    );
    assert!(
        back.notice
            .as_deref()
            .is_some_and(|n| n.contains("all 2 action(s)")),
        "{:?}",
        back.notice
    );

    // Edited again but not saved: the game comes back as it was, on the file on disk.
    app.world_mut().write_message(EditTheGame);
    app.update();
    app.update();
    app.world_mut()
        .write_message(EditorOrder::Edit(Edit::Paint {
            cells: vec![[1, 0]],
            terrain: Terrain::Water,
        }));
    app.world_mut().write_message(BackToGame);
    app.update();
    app.update();
    let back = session::<TankCommander>(&app);
    assert_eq!(back.game.history().len(), 2);
    assert_eq!(back.notice, None);
    let design = HexDesign::from_setup(back.setup.scenario.setup.clone());
    assert_eq!(design.terrain([1, 0]), Terrain::Open);
}

#[test]
fn a_hint_picks_the_engines_legal_move_and_the_bar_judges_the_position() {
    use tanktable::client::games::tank_chess::ChessPick;
    use tanktable::client::games::tank_chess::analysis::ChessAnalysis;
    use tanktable::rules::tank_chess::{Action as Chess, TankChess};
    let mut app = app_on::<TankChess>("scenarios/tank-chess/basic-16.ron", &[], Vec::new());
    app.world_mut().resource_mut::<ChessAnalysis>().ask_hint();
    app.world_mut().resource_mut::<ChessAnalysis>().bar = true;
    let found = run_until(&mut app, 120, |app| {
        app.world().resource::<ChessPick>().piece.is_some()
    });
    assert!(found, "the hint never came");
    let pick = app.world().resource::<ChessPick>().clone();
    let s = session::<TankChess>(&app);
    let key = (s.generation, s.revision);
    let legal = s.state().legal();
    let analysis = app.world().resource::<ChessAnalysis>();
    let best = analysis.of(key).and_then(|a| a.best).unwrap();
    assert!(legal.contains(&best));
    match best {
        Chess::Move { from, to, .. } | Chess::Take { from, to, .. } => {
            assert_eq!((pick.piece, pick.dest), (Some(from), Some(to)));
        }
        Chess::Escape { from } => assert_eq!(pick.piece, Some(from)),
        other => panic!("{other:?}"),
    }
    assert!(!analysis.of(key).unwrap().line.is_empty());
}

#[test]
fn graphics_settings_are_read_at_start_and_reach_the_camera_and_the_lights() {
    // The smoothing passes after drawing (FXAA, SMAA) need a renderer: the render test
    // `smoothing_and_shadows_chosen_in_graphics_draw_the_table` draws them.
    use tanktable::client::table::graphics::{self, Antialiasing, Graphics, GraphicsWindow};
    let saves = scratch();
    let kept = Graphics {
        antialiasing: Antialiasing::Msaa2,
        shadows: true,
        ..Default::default()
    };
    graphics::write(&saves.join("graphics.ron"), &kept).unwrap();
    let mut app = tanktable::client::windowless_app(saves.clone());
    assert_eq!(*app.world().resource::<Graphics>(), kept);
    assert!(!app.world().resource::<GraphicsWindow>().open);
    let seated = seated_on::<TankCommander>(CLOSE_DUEL, &BLUE_FIRST, Vec::new());
    insert_session(app.world_mut(), Session::new(seated, None));
    app.update();
    app.update();
    let camera = |app: &mut App| {
        let mut q = app.world_mut().query_filtered::<&Msaa, With<Camera3d>>();
        *q.single(app.world()).unwrap()
    };
    let shadows = |app: &mut App| {
        let mut q = app.world_mut().query::<&DirectionalLight>();
        q.iter(app.world())
            .map(|l| l.shadow_maps_enabled)
            .collect::<Vec<_>>()
    };
    assert_eq!(camera(&mut app), Msaa::Sample2);
    let table_made = shadows(&mut app);
    assert!(table_made.contains(&true), "the table's sun casts shadows");

    *app.world_mut().resource_mut::<Graphics>() = Graphics {
        antialiasing: Antialiasing::Fxaa,
        shadows: false,
        ..Default::default()
    };
    app.update();
    app.update();
    assert_eq!(camera(&mut app), Msaa::Off);
    assert!(shadows(&mut app).iter().all(|on| !on));

    *app.world_mut().resource_mut::<Graphics>() = Graphics {
        antialiasing: Antialiasing::Msaa4,
        shadows: true,
        ..Default::default()
    };
    app.update();
    app.update();
    assert_eq!(camera(&mut app), Msaa::Sample4);
    assert_eq!(
        shadows(&mut app),
        table_made,
        "each light as its table made it"
    );
}

#[test]
fn a_graphics_file_that_does_not_read_opens_the_window_with_where_and_why() {
    use tanktable::client::table::graphics::{Graphics, GraphicsWindow};
    let saves = scratch();
    std::fs::create_dir_all(&saves).unwrap();
    std::fs::write(saves.join("graphics.ron"), "(antialiasing: Blurry)").unwrap();
    let app = tanktable::client::windowless_app(saves.clone());
    assert_eq!(*app.world().resource::<Graphics>(), Graphics::default());
    let window = app.world().resource::<GraphicsWindow>();
    assert!(window.open);
    let problem = window.problem.as_deref().unwrap();
    assert!(problem.contains("graphics.ron:1:"), "{problem}");
    assert!(problem.contains("Blurry"), "{problem}");
}

/// The menu of a binary started away from the project (no `scenarios/` or `assets/`
/// within reach, a new data folder) lists every setup built into it, on every game's
/// page, with its title, and the campaigns: the copy that ships inside the binary is used.
#[test]
fn the_menu_lists_every_shipped_setup_from_any_folder() {
    use tanktable::data::shipped;
    use tanktable::rules::{FileKind, detect};
    let away = scratch();
    std::fs::create_dir_all(&away).unwrap();
    let data = away.join("data");
    let output = crate::child_test(
        "client::menu_child",
        &away,
        &[
            ("TANKTABLE_DATA", data.as_os_str()),
            ("TANKTABLE_MENU_CHILD", "1".as_ref()),
        ],
    );
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // `MENU <game> <path> <title>`, the path as a record would name it.
    let mut listed: Vec<(String, String, String)> = out
        .lines()
        .filter_map(|l| l.split("MENU\t").nth(1))
        .map(|l| {
            let mut parts = l.splitn(3, '\t');
            let mut next = || parts.next().unwrap_or_default().to_string();
            (next(), next(), next())
        })
        .collect();
    listed.sort();
    // The setups in their game's folder, and the campaigns in theirs, each with the name
    // it gives itself.
    let mut shipped_setups: Vec<(String, String, String)> = Vec::new();
    for (relative, bytes) in shipped::FILES {
        let Some(name) = relative.strip_suffix(".ron") else {
            continue;
        };
        let text = std::str::from_utf8(bytes).unwrap();
        let Ok(found) = detect(Path::new(relative), text) else {
            continue;
        };
        let folder = name.rsplit_once('/').map(|(dir, _)| dir);
        let listed = match found.kind {
            FileKind::Setup => folder == Some(found.game.folder()),
            FileKind::Campaign => folder == Some("scenarios/campaigns"),
            _ => false,
        };
        if listed {
            let title = text
                .split("name: \"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            shipped_setups.push((
                found.game.name().to_string(),
                relative.to_string(),
                title.to_string(),
            ));
        }
    }
    shipped_setups.sort();
    assert_eq!(listed, shipped_setups, "{out}");
    // The lab variants that ship, each on its game's page, played with its changes.
    let mut variants: Vec<String> = out
        .lines()
        .filter_map(|l| l.split("VARIANT\t").nth(1))
        .map(|l| l.split('\t').nth(1).unwrap_or_default().to_string())
        .collect();
    variants.sort();
    let mut lab: Vec<String> = shipped::FILES
        .iter()
        .map(|(relative, _)| (*relative).to_string())
        .filter(|r| r.starts_with("scenarios/lab/"))
        .collect();
    lab.sort();
    assert!(!lab.is_empty());
    assert_eq!(variants, lab, "{out}");
    for game in GameKind::ALL {
        assert!(
            listed.iter().filter(|l| l.0 == game.name()).count() >= 4,
            "{game:?}: {listed:?}"
        );
    }
    assert!(
        out.contains(&format!("FROM\t{}", away.join("data/shipped").display())),
        "the setups come from the copy of the built-in files: {out}"
    );
    let _ = std::fs::remove_dir_all(&away);
}

/// The child's side of [`the_menu_lists_every_shipped_setup_from_any_folder`]: the
/// menu's scan in a windowless app, each listed setup and campaign printed.
#[test]
#[ignore = "the menu test runs it in a child process away from the project"]
fn menu_child() {
    if std::env::var_os("TANKTABLE_MENU_CHILD").is_none() {
        return;
    }
    let data = PathBuf::from(std::env::var_os("TANKTABLE_DATA").unwrap());
    let mut app = headless_app(None, data);
    app.add_plugins(tanktable::client::screens::menu::plugin);
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Menu);
    app.update();
    app.update();
    let pages = tanktable::client::screens::menu::listed(app.world());
    assert_eq!(pages.len(), GameKind::ALL.len());
    for (game, setups, campaigns) in pages {
        for setup in setups {
            let (title, _) = setup.title.expect("every shipped setup reads");
            if setup.variant.is_some() {
                println!(
                    "VARIANT\t{}\t{}\t{title}",
                    game.name(),
                    tanktable::data::portable_path(&setup.path)
                );
                continue;
            }
            assert!(!setup.mine);
            println!(
                "MENU\t{}\t{}\t{title}",
                game.name(),
                tanktable::data::portable_path(&setup.path)
            );
            let root = setup.path.canonicalize().unwrap();
            let root = root
                .ancestors()
                .find(|a| a.join("assets").is_dir())
                .unwrap();
            println!("FROM\t{}", root.parent().unwrap().display());
        }
        for campaign in campaigns {
            let (title, _, _) = campaign.campaign.expect("every shipped campaign reads");
            println!(
                "MENU\t{}\t{}\t{title}",
                game.name(),
                tanktable::data::portable_path(&campaign.path)
            );
        }
    }
}

/// A shipped scenario opened from the menu is saved as the player's own copy in the data
/// folder (the shipped file stays as it is, and later saves go to the copy); opened with
/// `tanktable edit FILE`, the file itself is saved.
#[test]
fn the_editor_saves_a_shipped_scenario_as_the_players_own() {
    use tanktable::client::screens::editor::{EditorOrder, EditorScreen, OpenEditor};
    use tanktable::editor::{Edit, Terrain};
    let dir = scratch();
    let mut app = headless_app(None, dir.join("saves"));
    app.world_mut().resource_mut::<EditorScreen>().folder = dir.clone();
    let shipped = project("scenarios/skirmish.ron");
    let before = std::fs::read_to_string(&shipped).unwrap();
    app.world_mut().write_message(OpenEditor {
        path: Some(shipped.clone()),
        ..Default::default()
    });
    app.update();
    let own = dir.join("scenarios/skirmish.ron");
    for (cells, said) in [([0, 0], "Saved as your own scenario, "), ([1, 0], "Saved ")] {
        app.world_mut()
            .write_message(EditorOrder::Edit(Edit::Paint {
                cells: vec![cells],
                terrain: Terrain::Forest,
            }));
        app.world_mut().write_message(EditorOrder::Save(None));
        app.update();
        let status = &app.world().resource::<EditorScreen>().status;
        assert!(status.starts_with(said), "{status}");
        assert!(status.contains(&own.display().to_string()), "{status}");
    }
    let screen = app.world().resource::<EditorScreen>();
    assert_eq!(
        screen.editor.as_ref().unwrap().path.as_deref(),
        Some(own.as_path())
    );
    assert_eq!(std::fs::read_to_string(&shipped).unwrap(), before);
    let saved = tanktable::rules::tank_commander::Scenario::load(
        &own,
        &tanktable::rules::tank_commander::Rules::builtin(),
    )
    .unwrap();
    let design = tanktable::editor::HexDesign::from_setup(saved.setup);
    assert_eq!(
        design.terrain([1, 0]),
        Terrain::Forest,
        "the second save went to the copy too"
    );

    // In place: a file of the designer's, opened as `tanktable edit` opens it.
    let mine = dir.join("in-place.ron");
    std::fs::copy(&shipped, &mine).unwrap();
    app.world_mut().write_message(OpenEditor {
        path: Some(mine.clone()),
        in_place: true,
        ..Default::default()
    });
    app.update();
    app.world_mut().write_message(EditorOrder::Save(None));
    app.update();
    let screen = app.world().resource::<EditorScreen>();
    assert!(screen.status.starts_with("Saved "), "{}", screen.status);
    assert_eq!(
        screen.editor.as_ref().unwrap().path.as_deref(),
        Some(mine.as_path())
    );
    let _ = std::fs::remove_dir_all(&dir);
}
