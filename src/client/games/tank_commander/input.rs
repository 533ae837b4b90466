//! Tank Commander's input: a click on the table selects a unit, aims at an enemy, or
//! drives to a reachable hex; the keys press the action bar's buttons; End turn passes
//! with every unit still to act.
//!
//! Clicks come from the pointer's observers on every entity with a [`HexPos`] (tiles and
//! units), so that tests can click a hex the way the pointer does. A click whose press
//! began on a panel is the panel's, never the table's ([`PressOrigin`]).

use bevy::picking::events::{Click, Out, Over, Pointer};
use bevy::picking::pointer::PointerButton;
use bevy::prelude::*;
use hexx::Hex;

use super::highlights::{Highlights, Hovered, Selection};
use super::mirror::HexPos;
use super::panels::bar_items;
use crate::client::core::ClientSystems;
use crate::client::core::keyboard::typing;
use crate::client::core::session::{Busy, Order, OrderRefused, Session, SkipAnimations};
use crate::client::frame::cursor::{CursorAt, CursorStep, step_towards};
use crate::client::frame::input::{PanelOutlines, PressOrigin};
use crate::framework::{Game, PlayerId};
use crate::rules::tank_commander::{Action, TankCommander, UnitId};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Clicked>()
        .init_resource::<KeyCursor>()
        .init_resource::<EndTurn>()
        .init_resource::<AskEnd>()
        .add_observer(hover)
        .add_observer(leave)
        .add_observer(click)
        .add_systems(
            Update,
            (
                follow_activation,
                steer_cursor
                    .after(crate::client::frame::cursor::CursorSystems)
                    .run_if(not(typing)),
                take_clicks,
                take_keys.run_if(not(typing)),
                end_turn,
            )
                .chain()
                .in_set(ClientSystems::Input)
                .run_if(resource_exists::<Session<TankCommander>>),
        )
        .add_systems(
            PreUpdate,
            keep_tab_from_panels
                .after(bevy_egui::EguiPreUpdateSet::ProcessInput)
                .before(crate::client::frame::cursor::panel_focus_keys)
                .before(bevy_egui::EguiPreUpdateSet::BeginPass)
                .run_if(in_state(crate::client::core::GameScreen::TankCommander)),
        );
}

/// Tab is the table's (the next unit), not the panels': egui would move its keyboard
/// focus to the banner's first button, and the next Enter would press that button (Menu)
/// instead of activating the unit. A text field being typed in keeps it, and so do the
/// panels once F6 has taken the keyboard into them (see `cursor`).
fn keep_tab_from_panels(
    mut contexts: Query<(&mut bevy_egui::EguiInput, &mut bevy_egui::EguiContext)>,
    panels: Res<crate::client::core::keyboard::PanelKeyboard>,
) {
    for (mut input, mut context) in &mut contexts {
        if panels.on || context.get_mut().text_edit_focused() {
            continue;
        }
        input.0.events.retain(|e| {
            !matches!(
                e,
                bevy_egui::egui::Event::Key {
                    key: bevy_egui::egui::Key::Tab,
                    ..
                }
            )
        });
    }
}

/// The keyboard's cursor on the board: shown from the first arrow key until the pointer
/// moves. It stands for the pointer meanwhile (the hovered hex), and Enter clicks it.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyCursor(pub Option<Hex>);

/// A hex the player clicked, waiting to be turned into an order.
#[derive(Resource, Default, Debug)]
pub struct Clicked(pub Option<Hex>);

/// An end asked for with actions left, waiting for the player's yes (Y) or no (N,
/// Escape): ending an activation with action points unused, or a turn with units that
/// have not acted, is asked once.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct AskEnd(pub Option<Ending>);

/// An end waiting to be confirmed.
#[derive(Debug, Clone, PartialEq)]
pub struct Ending {
    pub player: PlayerId,
    /// The action that ends (the activation), or `None` for End turn.
    pub action: Option<Action>,
    /// What would be left unused, as the question says it.
    pub question: String,
}

/// What ending now would leave unused: `None` when nothing (no question to ask).
#[must_use]
pub fn left_unused(battle: &TankCommander, player: PlayerId, turn: bool) -> Option<String> {
    let active = battle
        .activation()
        .filter(|a| a.action_points > 0)
        .map(|a| {
            let n = a.action_points;
            format!(
                "{} has {n} action point{} left",
                battle.unit(a.unit).name,
                if n == 1 { "" } else { "s" }
            )
        });
    if !turn {
        return active.map(|a| format!("End the activation? {a}."));
    }
    let current = battle.activation().map(|a| a.unit);
    let waiting: Vec<String> = battle
        .pending_units(player)
        .filter(|u| Some(*u) != current)
        .map(|u| battle.unit(u).name.clone())
        .collect();
    let waiting = match waiting.len() {
        0 => None,
        1 => Some(format!("{} has not acted", waiting[0])),
        _ => Some(format!("{} have not acted", waiting.join(", "))),
    };
    match (active, waiting) {
        (None, None) => None,
        (Some(a), None) | (None, Some(a)) => Some(format!("End the turn? {a}.")),
        (Some(a), Some(w)) => Some(format!("End the turn? {a}, and {w}.")),
    }
}

/// Ending the activation (`action` `EndActivation`) or the turn (`None`) for `player`:
/// played at once when nothing is left unused or the player turned the question off;
/// otherwise asked first.
pub fn end_or_ask(
    battle: &TankCommander,
    player: PlayerId,
    action: Option<Action>,
    ask_first: bool,
    ask: &mut AskEnd,
) -> bool {
    if !ask_first {
        return true;
    }
    match left_unused(battle, player, action.is_none()) {
        Some(question) => {
            ask.0 = Some(Ending {
                player,
                action,
                question,
            });
            false
        }
        None => true,
    }
}

/// Whether ending with actions left asks first: the player's setting, on by default.
#[must_use]
pub fn asks_before_ending(graphics: Option<&crate::client::table::graphics::Graphics>) -> bool {
    graphics.is_none_or(|g| g.confirm_ends)
}

/// End turn was asked for this side: its active unit ends its activation, and each of its
/// units still to act passes, for as long as the choice stays with this side.
#[derive(Resource, Default, Debug)]
pub struct EndTurn(pub Option<PlayerId>);

fn hover(
    over: On<Pointer<Over>>,
    at: Query<&HexPos>,
    outlines: Res<PanelOutlines>,
    cursor: Res<KeyCursor>,
    mut hovered: ResMut<Hovered>,
) {
    // The keyboard's cursor stands for the pointer until the pointer moves.
    if cursor.0.is_some() {
        return;
    }
    if let Ok(at) = at.get(over.entity) {
        // A hex under a panel is not pointed at.
        hovered.0 = (!outlines.at(over.pointer_location.position)).then_some(at.0);
    }
}

fn leave(
    out: On<Pointer<Out>>,
    at: Query<&HexPos>,
    cursor: Res<KeyCursor>,
    mut hovered: ResMut<Hovered>,
) {
    if cursor.0.is_none() && at.get(out.entity).is_ok_and(|at| Some(at.0) == hovered.0) {
        hovered.0 = None;
    }
}

fn click(
    click: On<Pointer<Click>>,
    at: Query<&HexPos>,
    origin: Res<PressOrigin>,
    mut clicked: ResMut<Clicked>,
) {
    if click.button == PointerButton::Primary
        && !origin.on_panel
        && let Ok(at) = at.get(click.entity)
    {
        clicked.0 = Some(at.0);
    }
}

/// Selects the unit that was just activated, and when a person comes to choose, one of
/// their own units still to act (not the bot's unit that acted last); an aim does not
/// outlive its activation.
fn follow_activation(
    session: Res<Session<TankCommander>>,
    mut selection: ResMut<Selection>,
    mut ask: ResMut<AskEnd>,
    mut last: Local<Option<(u64, Option<UnitId>, Option<PlayerId>)>>,
) {
    let battle = session.state();
    let active = battle.activation().map(|a| a.unit);
    let deciding = session.deciding();
    let key = (session.generation, active, deciding);
    if *last == Some(key) {
        return;
    }
    *last = Some(key);
    // A question about an activation or a turn that has ended is not asked any more.
    if ask.0.is_some() {
        ask.0 = None;
    }
    selection.aim = None;
    if let Some(unit) = active {
        selection.unit = Some(unit);
        return;
    }
    if let Some(player) = deciding {
        let mine = selection.unit.is_some_and(|u| {
            battle.unit(u).side == player && battle.pending_units(player).any(|p| p == u)
        });
        if !mine {
            selection.unit = battle.pending_units(player).next();
        }
    }
}

/// The arrows step the keyboard's cursor from hex to hex (the first one shows it on the
/// selected unit); Enter clicks the hex under it, except on the selected unit before its
/// activation, where Enter is the action bar's Activate. A move of the pointer hides it.
#[allow(clippy::too_many_arguments, reason = "a system's parameters")]
fn steer_cursor(
    mut steps: MessageReader<CursorStep>,
    motion: Option<Res<bevy::input::mouse::AccumulatedMouseMotion>>,
    mut keys: ResMut<ButtonInput<KeyCode>>,
    session: Res<Session<TankCommander>>,
    selection: Res<Selection>,
    mut cursor: ResMut<KeyCursor>,
    (mut hovered, mut cursor_at): (ResMut<Hovered>, ResMut<CursorAt>),
    mut clicked: ResMut<Clicked>,
) {
    if cursor.0.is_some() && motion.is_some_and(|m| m.delta != Vec2::ZERO) {
        cursor.0 = None;
        hovered.0 = None;
        steps.clear();
        return;
    }
    let battle = session.state();
    let board = battle.board();
    for CursorStep(direction) in steps.read() {
        let Some(from) = cursor.0 else {
            let start = selection
                .unit
                .map(|u| battle.unit(u).at)
                .or(hovered.0)
                .unwrap_or_else(|| {
                    let (w, h) = (i32::from(board.width), i32::from(board.height));
                    board.hex_at(w / 2, h / 2)
                });
            cursor.0 = Some(start);
            continue;
        };
        let at = |h: Hex| {
            let w = super::hex_to_world(h);
            Vec2::new(w.x, w.z)
        };
        // Ties (a step across the hexes' columns) keep to the board's row: listed last,
        // the neighbour on the same row wins.
        let row = board.offset_of(from)[1];
        let mut around: Vec<Hex> = from
            .all_neighbors()
            .into_iter()
            .filter(|n| board.contains(*n))
            .collect();
        around.sort_by_key(|n| std::cmp::Reverse((board.offset_of(*n)[1] - row).abs()));
        if let Some(next) = step_towards(*direction, around.iter().map(|n| (*n, at(*n) - at(from))))
        {
            cursor.0 = Some(next);
        }
    }
    if cursor.is_changed() && cursor.0.is_some() {
        if hovered.0 != cursor.0 {
            hovered.0 = cursor.0;
        }
        cursor_at.0 = cursor.0.map(super::hex_to_world);
    }
    let Some(hex) = cursor.0 else { return };
    if !keys.just_pressed(KeyCode::Enter) {
        return;
    }
    let activates =
        battle.activation().is_none() && selection.unit.is_some_and(|u| battle.unit(u).at == hex);
    if !activates {
        clicked.0 = Some(hex);
        keys.clear_just_pressed(KeyCode::Enter);
    }
}

/// A click on the table: select a unit, aim at an enemy, or drive to a highlighted hex
/// (at once: a drive asked for while animations play skips them).
fn take_clicks(
    mut clicked: ResMut<Clicked>,
    session: Res<Session<TankCommander>>,
    busy: Res<Busy>,
    time: Res<Time>,
    highlights: Res<Highlights>,
    mut selection: ResMut<Selection>,
    mut orders: MessageWriter<Order<TankCommander>>,
    mut skip: MessageWriter<SkipAnimations>,
) {
    let Some(hex) = clicked.0 else { return };
    clicked.0 = None;
    let battle = session.state();
    selection.focus.clear();
    let player = battle.current_side();
    match battle.unit_at(hex) {
        Some(u) if u.side == player || battle.activation().is_none() => {
            selection.unit = Some(u.id);
        }
        Some(u) => selection.aim = Some(u.id),
        None => {
            if session.deciding() != Some(player) || !session.interactive {
                return;
            }
            if busy.busy(time.elapsed_secs()) {
                // A click while the last action still plays ends its animation and drives
                // as soon as the table shows the present.
                skip.write(SkipAnimations);
                clicked.0 = Some(hex);
                return;
            }
            if let Some(route) = highlights.routes.iter().find(|r| r.to == hex) {
                orders.write(Order::PlaySequence(player, route.actions.clone()));
            }
        }
    }
}

/// The action bar's shortcuts, Tab to pick the next unit, Escape to drop the aim.
fn take_keys(
    mut keys: ResMut<ButtonInput<KeyCode>>,
    session: Res<Session<TankCommander>>,
    busy: Res<Busy>,
    time: Res<Time>,
    (mut hovered, mut cursor): (ResMut<Hovered>, ResMut<KeyCursor>),
    mut selection: ResMut<Selection>,
    mut orders: MessageWriter<Order<TankCommander>>,
    mut end_turn: ResMut<EndTurn>,
    mut ask: ResMut<AskEnd>,
    graphics: Option<Res<crate::client::table::graphics::Graphics>>,
) {
    // A question on screen takes only its answers.
    if ask.0.is_some() {
        answer(&mut keys, &mut ask, &mut orders, &mut end_turn);
        return;
    }
    if keys.just_pressed(KeyCode::Escape)
        && (selection.aim.is_some() || !selection.focus.is_empty())
    {
        selection.aim = None;
        selection.focus.clear();
        keys.clear_just_pressed(KeyCode::Escape);
    }
    if busy.busy(time.elapsed_secs())
        || !session.interactive
        || keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight])
    {
        return;
    }
    let battle = session.state();
    let Some(player) = session.deciding() else {
        return;
    };
    if keys.just_pressed(KeyCode::Tab) && battle.activation().is_none() {
        next_unit(battle, player, &mut selection, &mut cursor, &mut hovered);
        return;
    }
    let ask_first = asks_before_ending(graphics.as_deref());
    for it in bar_items(battle, player, &selection, hovered.0) {
        if let Some(key) = it.key
            && keys.just_pressed(key)
            && it.why_not.is_none()
        {
            let ending = matches!(it.action, None | Some(Action::EndActivation));
            if ending && !end_or_ask(battle, player, it.action, ask_first, &mut ask) {
                return;
            }
            match it.action {
                Some(action) => {
                    orders.write(Order::Play(player, action));
                }
                None => end_turn.0 = Some(player),
            }
            return;
        }
    }
}

/// Y answers the question on screen (end the activation or the turn), N or Escape
/// dismisses it; Escape closes nothing else.
fn answer(
    keys: &mut ButtonInput<KeyCode>,
    ask: &mut AskEnd,
    orders: &mut MessageWriter<Order<TankCommander>>,
    end_turn: &mut EndTurn,
) {
    let Some(ending) = ask.0.clone() else {
        return;
    };
    if keys.just_pressed(KeyCode::KeyY) {
        ask.0 = None;
        match ending.action {
            Some(action) => {
                orders.write(Order::Play(ending.player, action));
            }
            None => end_turn.0 = Some(ending.player),
        }
    } else if keys.any_just_pressed([KeyCode::KeyN, KeyCode::Escape]) {
        ask.0 = None;
    }
    // Taken: Escape closes nothing else.
    keys.clear_just_pressed(KeyCode::Escape);
}

/// Tab: the next of `player`'s units still to activate is selected, and the keyboard's
/// cursor, if shown, goes along.
fn next_unit(
    battle: &TankCommander,
    player: PlayerId,
    selection: &mut Selection,
    cursor: &mut KeyCursor,
    hovered: &mut Hovered,
) {
    let pending: Vec<_> = battle.pending_units(player).collect();
    let next = pending
        .iter()
        .position(|&u| Some(u) == selection.unit)
        .map_or(0, |i| (i + 1) % pending.len().max(1));
    selection.unit = pending.get(next).copied();
    if cursor.0.is_some()
        && let Some(u) = selection.unit
    {
        cursor.0 = Some(battle.unit(u).at);
        hovered.0 = cursor.0;
    }
}

/// Plays End turn one action at a time, each after the last one's animation; a refused
/// order ([`OrderRefused`]) stops it.
fn end_turn(
    mut end_turn: ResMut<EndTurn>,
    session: Res<Session<TankCommander>>,
    busy: Res<Busy>,
    time: Res<Time>,
    mut orders: MessageWriter<Order<TankCommander>>,
    mut refused: MessageReader<OrderRefused<TankCommander>>,
    mut asked: Local<Option<(u64, usize)>>,
) {
    let refusal = refused
        .read()
        .fold(false, |any, r| any | (Some(r.player) == end_turn.0));
    let Some(player) = end_turn.0 else {
        *asked = None;
        return;
    };
    let battle = session.state();
    if refusal
        || battle.outcome().is_some()
        || battle.current_side() != player
        || session.replay.is_some()
    {
        end_turn.0 = None;
        return;
    }
    if busy.busy(time.elapsed_secs()) || !session.queued.is_empty() {
        return;
    }
    // One order at a time: wait for the last one to be played.
    let now = (session.generation, session.game.history().len());
    if *asked == Some(now) {
        return;
    }
    let next = if battle.activation().is_some() {
        Some(Action::EndActivation)
    } else {
        battle.pending_units(player).next().map(Action::Activate)
    };
    match next {
        Some(action) => {
            *asked = Some(now);
            orders.write(Order::Play(player, action));
        }
        None => end_turn.0 = None,
    }
}
