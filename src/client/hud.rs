//! The battle's panels: the turn banner and top bar, the unit card, the action bar with
//! its shortcuts, the combat log, the hover card, the replay timeline, the playtest
//! history, and the victory screen. Clicks on the table and key presses become orders.

use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::Screen;
use super::board::Clicked;
use super::highlights::{Highlights, Hovered, Selection};
use super::session::{Busy, CombatLog, Notice, Order, Table};
use super::units::{SkipAnimation, side_color};
use crate::framework::{Game, PlayerId};
use crate::grid::Rotation;
use crate::rules::tank_commander::state::{RoleState, Status};
use crate::rules::tank_commander::{
    Ability, Action, Fact, FireTarget, Role, Round, TankCommander, Terrain,
};

pub(super) fn plugin(app: &mut App) {
    let in_battle = in_state(Screen::Battle).and_then(resource_exists::<Table>);
    app.init_resource::<Panels>()
        .add_systems(
            EguiPrimaryContextPass,
            (
                draw_top_bar,
                draw_unit_card,
                draw_bottom_bar,
                draw_log,
                draw_hover,
                draw_history,
                draw_outcome,
            )
                .chain()
                .run_if(in_battle.clone())
                .run_if(not(resource_exists::<super::Clean>)),
        )
        .add_systems(
            Update,
            (
                follow_activation,
                take_clicks,
                take_keys.run_if(not(egui_wants_any_keyboard_input)),
            )
                .chain()
                .before(super::session::SessionSet)
                .run_if(in_battle),
        );
}

/// Which optional panels are open.
#[derive(Resource, Default)]
struct Panels {
    history: bool,
    confirm_concede: bool,
    hide_outcome: bool,
}

fn color32(c: Color) -> egui::Color32 {
    let [r, g, b, _] = c.to_srgba().to_u8_array();
    egui::Color32::from_rgb(r, g, b)
}

/// One button of the action bar.
#[derive(Clone, Debug)]
pub struct BarItem {
    pub label: String,
    /// The key that presses it.
    pub key: Option<KeyCode>,
    pub key_name: &'static str,
    /// Action points it costs, when it has a cost.
    pub cost: Option<u8>,
    pub order: Order,
    /// The rule that forbids it now, if any.
    pub why_not: Option<String>,
    /// What it does.
    pub help: String,
}

fn item(
    battle: &TankCommander,
    player: PlayerId,
    label: impl Into<String>,
    key: Option<(KeyCode, &'static str)>,
    cost: Option<u8>,
    action: Action,
    help: impl Into<String>,
) -> BarItem {
    BarItem {
        label: label.into(),
        key: key.map(|k| k.0),
        key_name: key.map_or("", |k| k.1),
        cost,
        order: Order::Play(player, action),
        why_not: battle.check(player, &action).err(),
        help: help.into(),
    }
}

/// The action bar for `player`: every kind of action, legal or not, with its cost and,
/// when it is not allowed now, the rule that forbids it.
#[must_use]
pub fn bar_items(
    battle: &TankCommander,
    player: PlayerId,
    selection: &Selection,
    hovered: Option<hexx::Hex>,
) -> Vec<BarItem> {
    let rules = battle.rules();
    let c = &rules.costs;
    let mut items = Vec::new();
    let end_turn = BarItem {
        label: "End turn".into(),
        key: Some(KeyCode::KeyN),
        key_name: "N",
        cost: None,
        order: Order::EndTurn(player),
        why_not: None,
        help: "End this activation and pass with every unit that has not acted this turn".into(),
    };
    let Some(act) = battle.activation() else {
        let activate = match selection.unit {
            Some(id) => item(
                battle,
                player,
                format!("Activate {}", battle.unit(id).name),
                Some((KeyCode::Enter, "Enter")),
                None,
                Action::Activate(id),
                "Start this unit's activation: it gets its action points to spend",
            ),
            None => BarItem {
                label: "Activate".into(),
                key: Some(KeyCode::Enter),
                key_name: "Enter",
                cost: None,
                order: Order::Play(player, Action::EndActivation),
                why_not: Some("Click one of your tanks first (Tab picks the next one)".into()),
                help: "Start a unit's activation".into(),
            },
        };
        items.push(activate);
        items.push(end_turn);
        return items;
    };
    let u = battle.unit(act.unit);
    let turn = |rotation, follows| Action::Turn {
        rotation,
        turret_follows: follows,
    };
    items.push(item(
        battle,
        player,
        "Move",
        Some((KeyCode::KeyM, "M")),
        Some(battle.move_cost(u)),
        Action::Move,
        "Drive one hex straight ahead (or click a blue hex to drive there)",
    ));
    items.push(item(
        battle,
        player,
        "Turn left",
        Some((KeyCode::Comma, ",")),
        Some(c.turn),
        turn(Rotation::Left, true),
        "Turn the hull 60° left; the turret turns with it",
    ));
    items.push(item(
        battle,
        player,
        "Turn right",
        Some((KeyCode::Period, ".")),
        Some(c.turn),
        turn(Rotation::Right, true),
        "Turn the hull 60° right; the turret turns with it",
    ));
    items.push(item(
        battle,
        player,
        "Hull left only",
        None,
        Some(c.turn),
        turn(Rotation::Left, false),
        "Turn the hull 60° left; the turret keeps its direction",
    ));
    items.push(item(
        battle,
        player,
        "Hull right only",
        None,
        Some(c.turn),
        turn(Rotation::Right, false),
        "Turn the hull 60° right; the turret keeps its direction",
    ));
    items.push(item(
        battle,
        player,
        "Turret left",
        Some((KeyCode::BracketLeft, "[")),
        Some(c.turret),
        Action::RotateTurret(Rotation::Left),
        "Turn the turret 60° left",
    ));
    items.push(item(
        battle,
        player,
        "Turret right",
        Some((KeyCode::BracketRight, "]")),
        Some(c.turret),
        Action::RotateTurret(Rotation::Right),
        "Turn the turret 60° right",
    ));
    let load_cost = u.load_cost(rules, act.quick_load);
    items.push(item(
        battle,
        player,
        "Load AT",
        Some((KeyCode::KeyL, "L")),
        load_cost,
        Action::Load(Round::At),
        "Load an anti-tank round",
    ));
    items.push(item(
        battle,
        player,
        "Load HE",
        Some((KeyCode::KeyH, "H")),
        load_cost,
        Action::Load(Round::He),
        "Load a high-explosive round (needs the HE Rounds upgrade)",
    ));
    let fire = match selection.aim {
        Some(t) => {
            let mut it = item(
                battle,
                player,
                format!("Fire at {}", battle.unit(t).name),
                Some((KeyCode::KeyF, "F")),
                Some(c.fire),
                Action::Fire(FireTarget::Unit(t)),
                "Fire the loaded round at the aimed unit",
            );
            if let Some(odds) = super::highlights::target_odds(battle, act.unit, t) {
                it.help = format!("{}\n{}", odds.label, odds.why);
            }
            it
        }
        None => BarItem {
            label: "Fire".into(),
            key: Some(KeyCode::KeyF),
            key_name: "F",
            cost: Some(c.fire),
            order: Order::Play(player, Action::EndActivation),
            why_not: Some("Click an enemy unit to aim at it first".into()),
            help: "Fire the loaded round".into(),
        },
    };
    items.push(fire);
    let smoke = match hovered {
        Some(h) => item(
            battle,
            player,
            format!("Smoke on {}", battle.label(h)),
            Some((KeyCode::KeyG, "G")),
            Some(c.smoke),
            Action::DeploySmoke(h),
            "Fire the smoke launcher at the hex under the pointer",
        ),
        None => BarItem {
            label: "Smoke".into(),
            key: Some(KeyCode::KeyG),
            key_name: "G",
            cost: Some(c.smoke),
            order: Order::Play(player, Action::EndActivation),
            why_not: Some(if u.build.smoke_launcher {
                format!("Point at a hex within {} and press G", rules.smoke.range)
            } else {
                format!("{} has no smoke launcher (an upgrade)", u.name)
            }),
            help: "Fire the smoke launcher".into(),
        },
    };
    items.push(smoke);
    items.push(item(
        battle,
        player,
        "Extinguish",
        Some((KeyCode::KeyV, "V")),
        Some(c.extinguish),
        Action::Extinguish,
        "Put out the fire on this tank",
    ));
    let dash = (1..=rules.crew.dash_spaces)
        .rev()
        .map(|spaces| Action::UseAbility(Ability::MoveMoveMove { spaces }))
        .find(|a| battle.check(player, a).is_ok())
        .unwrap_or(Action::UseAbility(Ability::MoveMoveMove { spaces: 1 }));
    for (n, (ability, key)) in [
        (
            Action::UseAbility(Ability::BoomingVoice),
            (KeyCode::Digit1, "1"),
        ),
        (dash, (KeyCode::Digit2, "2")),
        (
            Action::UseAbility(Ability::BringItDown),
            (KeyCode::Digit3, "3"),
        ),
        (
            Action::UseAbility(Ability::QuickLoad),
            (KeyCode::Digit4, "4"),
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let Action::UseAbility(a) = ability else {
            continue;
        };
        let help = match n {
            0 => "Commander: extra action points this turn",
            1 => "Driver: one action carries the tank several hexes straight ahead",
            2 => "Gunner: hit on 2+ this turn",
            _ => "Loader: loading costs nothing this turn",
        };
        let label = match a {
            Ability::MoveMoveMove { spaces } => format!("{} ({spaces})", a.title()),
            _ => a.title().to_string(),
        };
        items.push(item(
            battle,
            player,
            label,
            Some(key),
            None,
            ability,
            format!("{help} (once per battle)"),
        ));
    }
    items.push(item(
        battle,
        player,
        "End activation",
        Some((KeyCode::Enter, "Enter")),
        None,
        Action::EndActivation,
        "Finish this unit's activation; unspent action points are lost",
    ));
    items.push(end_turn);
    items
}

/// Selects the unit that was just activated.
fn follow_activation(
    table: Res<Table>,
    mut selection: ResMut<Selection>,
    mut last: Local<Option<(u64, Option<crate::rules::tank_commander::UnitId>)>>,
) {
    let active = table.battle().activation().map(|a| a.unit);
    let key = (table.generation, active);
    if *last == Some(key) {
        return;
    }
    *last = Some(key);
    if let Some(unit) = active {
        selection.unit = Some(unit);
    }
    // An aim does not outlive the activation it was made in.
    selection.aim = None;
}

/// A click on the table: select a unit, aim at an enemy, or drive to a highlighted hex.
fn take_clicks(
    mut clicked: ResMut<Clicked>,
    table: Res<Table>,
    busy: Res<Busy>,
    highlights: Res<Highlights>,
    mut selection: ResMut<Selection>,
    mut orders: MessageWriter<Order>,
) {
    let Some(hex) = clicked.0.take() else { return };
    let battle = table.battle();
    selection.focus.clear();
    let player = battle.current_side();
    match battle.unit_at(hex) {
        Some(u) if u.side == player || battle.activation().is_none() => {
            selection.unit = Some(u.id);
        }
        Some(u) => selection.aim = Some(u.id),
        None => {
            if !table.interactive || table.replay.is_some() || busy.0 {
                return;
            }
            if let Some(route) = highlights.routes.iter().find(|r| r.to == hex) {
                orders.write(Order::Drive(player, route.actions.clone()));
            }
        }
    }
}

fn take_keys(
    keys: Res<ButtonInput<KeyCode>>,
    table: Res<Table>,
    busy: Res<Busy>,
    hovered: Res<Hovered>,
    mut selection: ResMut<Selection>,
    mut orders: MessageWriter<Order>,
    mut skip: MessageWriter<SkipAnimation>,
) {
    if busy.0 {
        if keys.any_just_pressed([KeyCode::Space, KeyCode::Escape]) {
            skip.write(SkipAnimation);
        }
        return;
    }
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    if ctrl && keys.just_pressed(KeyCode::KeyS) {
        orders.write(Order::Save(None));
        return;
    }
    if keys.just_pressed(KeyCode::Escape) {
        selection.aim = None;
        selection.focus.clear();
    }
    let battle = table.battle();
    if let Some(replay) = &table.replay {
        let at = table.game.history().len();
        if keys.just_pressed(KeyCode::Period) || keys.just_pressed(KeyCode::Space) {
            orders.write(Order::Seek((at + 1).min(replay.actions.len())));
        }
        if keys.just_pressed(KeyCode::Comma) {
            orders.write(Order::Seek(at.saturating_sub(1)));
        }
        return;
    }
    if keys.just_pressed(KeyCode::KeyU) && table.playtest {
        orders.write(Order::UndoTo(table.game.history().len().saturating_sub(1)));
        return;
    }
    if !table.interactive || ctrl {
        return;
    }
    let Some(&player) = battle.to_act().first() else {
        return;
    };
    if keys.just_pressed(KeyCode::Tab) && battle.activation().is_none() {
        let pending: Vec<_> = battle.pending_units(player).collect();
        let next = pending
            .iter()
            .position(|&u| Some(u) == selection.unit)
            .map_or(0, |i| (i + 1) % pending.len().max(1));
        selection.unit = pending.get(next).copied();
        return;
    }
    for it in bar_items(battle, player, &selection, hovered.0) {
        if let Some(key) = it.key
            && keys.just_pressed(key)
            && it.why_not.is_none()
        {
            orders.write(it.order);
            return;
        }
    }
}

fn draw_top_bar(
    mut contexts: EguiContexts,
    mut table: ResMut<Table>,
    notice: Res<Notice>,
    mut panels: ResMut<Panels>,
    mut orders: MessageWriter<Order>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let battle = table.battle();
    let mut playtest = table.playtest;
    egui::Window::new("top bar")
        .title_bar(false)
        .resizable(false)
        .min_width(900.0)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 4.0])
        .show(ctx, |ui| {
        ui.horizontal(|ui| {
            if ui.button("☰ Menu").on_hover_text("Back to the main menu (the battle is autosaved after every activation)").clicked() {
                next.set(Screen::Menu);
            }
            if ui.button("Save").on_hover_text("Save the match to your saves folder (Ctrl+S)").clicked() {
                orders.write(Order::Save(None));
            }
            ui.separator();
            if table.replay.is_none() {
                ui.checkbox(&mut playtest, "Playtest mode")
                    .on_hover_text("Allows taking actions back, dice included. Normal play forbids it.");
                let can = playtest && !table.game.history().is_empty();
                let undo = ui
                    .add_enabled(can, egui::Button::new("Undo (U)"))
                    .on_hover_text("Take the last action back")
                    .on_disabled_hover_text(if playtest {
                        "Nothing to take back yet"
                    } else {
                        "Turn on playtest mode to take actions back"
                    });
                if undo.clicked() {
                    orders.write(Order::UndoTo(table.game.history().len() - 1));
                }
                let history = ui
                    .add_enabled(playtest, egui::Button::new("History…"))
                    .on_hover_text("Go back to any earlier action")
                    .on_disabled_hover_text("Turn on playtest mode to go back to any action");
                if history.clicked() {
                    panels.history = !panels.history;
                }
                ui.separator();
                if table.interactive && battle.outcome().is_none() {
                    if panels.confirm_concede {
                        ui.label("Really concede?");
                        if ui.button("Yes, concede").clicked() {
                            orders.write(Order::Play(battle.current_side(), Action::Concede));
                            panels.confirm_concede = false;
                        }
                        if ui.button("No").clicked() {
                            panels.confirm_concede = false;
                        }
                    } else if ui.button("Concede").on_hover_text(format!("{} gives up the battle", battle.side_name(battle.current_side()))).clicked() {
                        panels.confirm_concede = true;
                    }
                }
            } else {
                ui.label(egui::RichText::new("REPLAY").strong().color(egui::Color32::LIGHT_BLUE));
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                ui.label(format!("{} · seed {}", battle.scenario_name(), table.seed))
                    .on_hover_text(&table.source);
            });
        });
        // The turn banner.
        let turn = format!("Turn {} of {}", battle.turn().min(battle.turn_limit()), battle.turn_limit());
        let (text, color) = match (battle.outcome(), battle.to_act().first()) {
            _ if table.replay.is_some() => (
                format!(
                    "{turn} · replay at action {} of {}: use the timeline below, or click a log line",
                    table.game.history().len(),
                    table.replay.as_ref().map_or(0, |r| r.actions.len())
                ),
                egui::Color32::LIGHT_BLUE,
            ),
            (Some(o), _) => (
                match o.winners.first() {
                    Some(w) => format!("{} wins: {}", battle.side_name(*w), o.reason),
                    None => format!("Draw: {}", o.reason),
                },
                egui::Color32::GOLD,
            ),
            (None, Some(&p)) => {
                let what = match battle.activation() {
                    Some(a) => format!(
                        "{} has {} action point{} left: pick an action below, or click a blue hex to drive there",
                        battle.unit(a.unit).name,
                        a.action_points,
                        if a.action_points == 1 { "" } else { "s" }
                    ),
                    None => "click one of your tanks, then Activate (Enter)".to_string(),
                };
                (
                    format!("{turn} · {} to act: {what}", battle.side_name(p)),
                    color32(side_color(p.0)),
                )
            }
            (None, None) => (turn, egui::Color32::WHITE),
        };
        ui.vertical_centered(|ui| {
            ui.label(egui::RichText::new(text).size(18.0).strong().color(color));
            if let Some(n) = &notice.0 {
                ui.label(egui::RichText::new(n).color(egui::Color32::from_rgb(255, 190, 90)));
            }
        });
    });
    table.playtest = playtest;
    Ok(())
}

fn draw_unit_card(
    mut contexts: EguiContexts,
    table: Res<Table>,
    selection: Res<Selection>,
) -> Result {
    let battle = table.battle();
    let Some(id) = selection.unit else {
        return Ok(());
    };
    let u = battle.unit(id);
    let rules = battle.rules();
    let act = battle.activation().filter(|a| a.unit == id);
    egui::Window::new("Unit card")
        .anchor(egui::Align2::LEFT_TOP, [8.0, 80.0])
        .resizable(false)
        .collapsible(true)
        .default_width(280.0)
        .max_width(300.0)
        .show(contexts.ctx_mut()?, |ui| {
            ui.label(
                egui::RichText::new(&u.name)
                    .size(17.0)
                    .strong()
                    .color(color32(side_color(u.side.0))),
            );
            ui.label(format!(
                "{} · at {} · hull facing {} · turret {}",
                battle.side_name(u.side),
                battle.label(u.at),
                u.facing,
                u.turret
            ));
            let status = match u.status {
                Status::Active if battle.has_activated(id) && act.is_none() => {
                    "has acted this turn"
                }
                Status::Active if act.is_some() => "ACTIVE",
                Status::Active => "ready",
                Status::Disabled => "knocked out",
                Status::Destroyed => "destroyed",
            };
            ui.label(format!("Status: {status}"));
            egui::Grid::new("card stats").num_columns(2).show(ui, |ui| {
                let a = u.armor;
                ui.label("Armor");
                ui.label(format!(
                    "front {} · side {} · rear {}",
                    a.front, a.side, a.rear
                ));
                ui.end_row();
                ui.label("Accuracy");
                ui.label(format!(
                    "hits on {}+",
                    u.base.accuracy.saturating_sub(if u.build.optics {
                        rules.upgrades.optics_accuracy
                    } else {
                        0
                    })
                ));
                ui.end_row();
                ui.label("Hull");
                ui.label(format!("{} of {}", u.hull, u.base.hull));
                ui.end_row();
                ui.label("Action points");
                ui.label(match act {
                    Some(a) => format!(
                        "{} left · moved {} of {}",
                        a.action_points,
                        a.moves,
                        u.move_cap(rules)
                    ),
                    None => format!("{} per activation", u.action_points(rules)),
                });
                ui.end_row();
                ui.label("Gun");
                ui.label(format!(
                    "range {} · loaded {}",
                    u.gun_range(rules),
                    u.loaded.map_or("nothing".to_string(), |r| r.to_string())
                ));
                ui.end_row();
                ui.label("Fire");
                ui.label(if u.on_fire {
                    egui::RichText::new("ON FIRE").color(egui::Color32::from_rgb(255, 120, 40))
                } else {
                    egui::RichText::new("none")
                });
                ui.end_row();
            });
            if !u.crew.is_empty() {
                ui.separator();
                ui.label(egui::RichText::new("Crew").strong());
                egui::Grid::new("card crew").num_columns(3).show(ui, |ui| {
                    for m in &u.crew {
                        let color = match m.wounds {
                            0 => egui::Color32::from_rgb(140, 220, 140),
                            1 => egui::Color32::from_rgb(240, 200, 80),
                            _ => egui::Color32::from_rgb(240, 90, 80),
                        };
                        ui.label(format!(
                            "{}: {}",
                            m.role,
                            if m.name.is_empty() { "—" } else { &m.name }
                        ));
                        ui.label(egui::RichText::new(m.condition()).color(color));
                        let ability = match m.role {
                            Role::Commander => Some(Ability::BoomingVoice),
                            Role::Driver => Some(Ability::MoveMoveMove { spaces: 1 }),
                            Role::Gunner => Some(Ability::BringItDown),
                            Role::Loader => Some(Ability::QuickLoad),
                            Role::Lieutenant => None,
                        };
                        match ability {
                            Some(a) if m.ability_used => {
                                ui.label(egui::RichText::new(format!("{} used", a.title())).weak())
                            }
                            Some(a) => ui.label(format!("{} ready", a.title())),
                            None => ui.label(""),
                        };
                        ui.end_row();
                    }
                });
                let impaired: Vec<String> =
                    [Role::Commander, Role::Driver, Role::Gunner, Role::Loader]
                        .into_iter()
                        .filter(|r| u.role_state(*r) != RoleState::Healthy)
                        .map(|r| {
                            format!(
                                "{r} {}",
                                if u.role_state(r) == RoleState::Out {
                                    "out"
                                } else {
                                    "impaired"
                                }
                            )
                        })
                        .collect();
                if !impaired.is_empty() {
                    ui.label(
                        egui::RichText::new(impaired.join(" · "))
                            .color(egui::Color32::from_rgb(240, 170, 80)),
                    );
                }
            }
            let b = u.build;
            let ups: Vec<&str> = [
                (b.engine, "engine"),
                (b.barrel, "long barrel"),
                (b.optics, "optics"),
                (b.he_rounds, "HE rounds"),
                (b.smoke_launcher, "smoke launcher"),
                (b.medkit, "medkit"),
                (b.lieutenant, "lieutenant"),
                (b.anti_infantry, "anti-infantry"),
            ]
            .into_iter()
            .filter_map(|(on, n)| on.then_some(n))
            .collect();
            if !ups.is_empty() {
                ui.separator();
                ui.add(egui::Label::new(format!("Upgrades: {}", ups.join(", "))).wrap());
            }
        });
    Ok(())
}

fn draw_bottom_bar(
    mut contexts: EguiContexts,
    table: Res<Table>,
    selection: Res<Selection>,
    hovered: Res<Hovered>,
    busy: Res<Busy>,
    mut orders: MessageWriter<Order>,
    mut skip: MessageWriter<SkipAnimation>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let battle = table.battle();
    egui::Window::new("action bar")
        .title_bar(false)
        .resizable(false)
        .min_width(700.0)
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -4.0])
        .show(ctx, |ui| {
            if let Some(replay) = &table.replay {
                let at = table.game.history().len();
                let total = replay.actions.len();
                ui.horizontal(|ui| {
                    if ui.button("|◀").on_hover_text("Start").clicked() {
                        orders.write(Order::Seek(0));
                    }
                    if ui
                        .button("◀ (,)")
                        .on_hover_text("One action back")
                        .clicked()
                    {
                        orders.write(Order::Seek(at.saturating_sub(1)));
                    }
                    if ui
                        .button("(.) ▶")
                        .on_hover_text("One action forward")
                        .clicked()
                    {
                        orders.write(Order::Seek((at + 1).min(total)));
                    }
                    if ui.button("▶|").on_hover_text("End").clicked() {
                        orders.write(Order::Seek(total));
                    }
                    let mut pos = at;
                    ui.spacing_mut().slider_width = 480.0;
                    if ui
                        .add(egui::Slider::new(&mut pos, 0..=total).text("actions"))
                        .changed()
                    {
                        orders.write(Order::Seek(pos));
                    }
                    ui.label(
                        match at.checked_sub(1).and_then(|i| replay.actions.get(i)) {
                            Some(step) => format!("last: {}", battle.describe_action(&step.action)),
                            None => "start".into(),
                        },
                    );
                });
                return;
            }
            if busy.0 {
                ui.horizontal(|ui| {
                    ui.label("…");
                    if ui.button("Skip animation (Space)").clicked() {
                        skip.write(SkipAnimation);
                    }
                });
                return;
            }
            if !table.interactive {
                return;
            }
            let Some(&player) = battle.to_act().first() else {
                ui.label("The battle is over.");
                return;
            };
            ui.horizontal_wrapped(|ui| {
                for it in bar_items(battle, player, &selection, hovered.0) {
                    let mut text = it.label.clone();
                    if let Some(cost) = it.cost {
                        text.push_str(&format!(" · {cost} AP"));
                    }
                    if !it.key_name.is_empty() {
                        text.push_str(&format!(" [{}]", it.key_name));
                    }
                    let button = ui.add_enabled(it.why_not.is_none(), egui::Button::new(text));
                    let button = match &it.why_not {
                        Some(why) => {
                            button.on_disabled_hover_text(format!("{}\nNot now: {why}", it.help))
                        }
                        None => button.on_hover_text(&it.help),
                    };
                    if button.clicked() {
                        orders.write(it.order.clone());
                    }
                }
            });
        });
    Ok(())
}

fn draw_log(
    mut contexts: EguiContexts,
    table: Res<Table>,
    log: Res<CombatLog>,
    mut selection: ResMut<Selection>,
    mut orders: MessageWriter<Order>,
) -> Result {
    let at = table.game.history().len();
    egui::Window::new("Combat log")
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 80.0])
        .resizable(true)
        .default_width(400.0)
        .default_height(260.0)
        .show(contexts.ctx_mut()?, |ui| {
            ui.label(
                egui::RichText::new(if table.replay.is_some() {
                    "Click a line to jump there."
                } else {
                    "Click a line to pick out its units."
                })
                .weak(),
            );
            egui::ScrollArea::vertical()
                .max_height(260.0)
                .stick_to_bottom(table.replay.is_none())
                .show(ui, |ui| {
                    for entry in &log.entries {
                        let future = table.replay.is_some() && entry.step.is_some_and(|s| s >= at);
                        let mut text = egui::RichText::new(&entry.text);
                        if entry.text.starts_with("Refused") {
                            text = text.color(egui::Color32::from_rgb(255, 140, 120));
                        } else if entry.text.starts_with("Turn ") || entry.text.contains("wins") {
                            text = text.strong();
                        }
                        if future {
                            text = text.weak();
                        }
                        let picked = !entry.units.is_empty() && selection.focus == entry.units;
                        let line = ui.add(egui::Button::selectable(picked, text).wrap());
                        if line.clicked() {
                            selection.focus = entry.units.clone();
                            if table.replay.is_some() {
                                orders.write(Order::Seek(entry.step.map_or(0, |s| s + 1)));
                            }
                        }
                    }
                });
        });
    Ok(())
}

/// What is under the pointer: the hex, its terrain and effect, and any unit's stats.
fn draw_hover(
    mut contexts: EguiContexts,
    table: Res<Table>,
    hovered: Res<Hovered>,
    highlights: Res<Highlights>,
) -> Result {
    let Some(hex) = hovered.0 else { return Ok(()) };
    let battle = table.battle();
    if !battle.board().contains(hex) {
        return Ok(());
    }
    egui::Window::new("Under the pointer")
        .anchor(egui::Align2::LEFT_BOTTOM, [8.0, -120.0])
        .resizable(false)
        .title_bar(false)
        .show(contexts.ctx_mut()?, |ui| {
            let terrain = battle.terrain(hex);
            let effect = match terrain {
                Terrain::Mud | Terrain::Rubble => " (2 AP to leave)",
                Terrain::Forest => " (−1 to hit units in or behind it)",
                Terrain::Building => " (impassable, blocks sight; can be shot to rubble)",
                Terrain::Hill => " (−1 to hit units behind it; units on it are hit on the rear)",
                Terrain::Open => "",
            };
            let smoke = if battle.smoke(hex) {
                " · smoke (blocks sight)"
            } else {
                ""
            };
            ui.strong(format!("{} · {terrain}{effect}{smoke}", battle.label(hex)));
            if let Some(route) = highlights.routes.iter().find(|r| r.to == hex) {
                ui.label(format!(
                    "Click to drive here: {} AP ({} orders)",
                    route.cost,
                    route.actions.len()
                ));
            }
            if let Some(u) = battle.unit_at(hex) {
                let a = u.armor;
                ui.label(format!(
                    "{} ({}) · armor {}/{}/{} · hull {}/{} · hits on {}+ · range {} · loaded {}",
                    u.name,
                    battle.side_name(u.side),
                    a.front,
                    a.side,
                    a.rear,
                    u.hull,
                    u.base.hull,
                    u.base.accuracy,
                    u.gun_range(battle.rules()),
                    u.loaded.map_or("nothing".to_string(), |r| r.to_string())
                ));
                if let Some(t) = highlights.targets.iter().find(|t| t.unit == u.id) {
                    ui.label(
                        egui::RichText::new(format!("Target: {}", t.label))
                            .color(egui::Color32::from_rgb(255, 150, 130)),
                    );
                    ui.label(egui::RichText::new(&t.why).small());
                }
            }
            if let Some(s) = highlights.sight.as_ref().filter(|s| s.to == hex) {
                match &s.blocked {
                    None => ui.label(
                        egui::RichText::new("Line of sight: clear")
                            .color(egui::Color32::LIGHT_GREEN),
                    ),
                    Some((h, why)) => ui.label(
                        egui::RichText::new(format!(
                            "Line of sight blocked at {}: {why}",
                            battle.label(*h)
                        ))
                        .color(egui::Color32::from_rgb(255, 110, 100)),
                    ),
                };
            }
        });
    Ok(())
}

fn draw_history(
    mut contexts: EguiContexts,
    table: Res<Table>,
    mut panels: ResMut<Panels>,
    mut orders: MessageWriter<Order>,
) -> Result {
    if !panels.history || !table.playtest || table.replay.is_some() {
        return Ok(());
    }
    let battle = table.battle();
    let mut open = true;
    egui::Window::new("History (playtest)")
        .open(&mut open)
        .default_width(320.0)
        .show(contexts.ctx_mut()?, |ui| {
            ui.label("Go back to just before any action; its dice are taken back too.");
            egui::ScrollArea::vertical()
                .max_height(360.0)
                .show(ui, |ui| {
                    for (i, step) in table.game.history().iter().enumerate().rev() {
                        ui.horizontal(|ui| {
                            if ui.small_button("back to here").clicked() {
                                orders.write(Order::UndoTo(i));
                            }
                            ui.label(format!(
                                "{}. {}: {}",
                                i + 1,
                                battle.side_name(step.player),
                                battle.describe_action(&step.action)
                            ));
                        });
                    }
                });
        });
    panels.history = open;
    Ok(())
}

/// Per-side figures of a battle, from its facts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideSummary {
    pub shots: u32,
    pub hits: u32,
    pub penetrations: u32,
    pub knocked_out: u32,
    pub units_left: u32,
    pub hull_left: u32,
}

/// The battle summary shown on the victory screen.
#[must_use]
pub fn summary(table: &Table) -> Vec<SideSummary> {
    let battle = table.battle();
    let sides = battle.player_count();
    let mut out = vec![SideSummary::default(); sides];
    for fact in table.game.all_facts() {
        match fact {
            Fact::ShotResolved {
                shooter,
                hit,
                penetration,
                ..
            } => {
                let s = &mut out[usize::from(battle.unit(*shooter).side.0)];
                s.shots += 1;
                s.hits += u32::from(*hit);
                s.penetrations += u32::from(penetration.as_ref().is_some_and(|p| p.penetrating));
            }
            Fact::UnitDisabled { unit, .. } => {
                let loser = battle.unit(*unit).side.0;
                for (i, s) in out.iter_mut().enumerate() {
                    if i != usize::from(loser) {
                        s.knocked_out += 1;
                    }
                }
            }
            _ => {}
        }
    }
    for u in battle.units() {
        if u.status == Status::Active {
            let s = &mut out[usize::from(u.side.0)];
            s.units_left += 1;
            s.hull_left += u32::from(u.hull);
        }
    }
    out
}

fn draw_outcome(
    mut contexts: EguiContexts,
    table: Res<Table>,
    busy: Res<Busy>,
    mut panels: ResMut<Panels>,
    mut orders: MessageWriter<Order>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let battle = table.battle();
    let Some(outcome) = battle.outcome() else {
        panels.hide_outcome = false;
        return Ok(());
    };
    // The last shot's effects play first.
    if panels.hide_outcome || table.replay.is_some() || busy.0 {
        return Ok(());
    }
    egui::Window::new("Battle over")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .resizable(false)
        .collapsible(false)
        .show(contexts.ctx_mut()?, |ui| {
            let head = match outcome.winners.first() {
                Some(w) => format!("{} wins!", battle.side_name(*w)),
                None => "A draw.".to_string(),
            };
            ui.vertical_centered(|ui| {
                ui.heading(
                    egui::RichText::new(head)
                        .size(28.0)
                        .color(egui::Color32::GOLD),
                );
                ui.label(&outcome.reason);
                ui.label(format!(
                    "{} actions over {} turn(s)",
                    table.game.history().len(),
                    battle.turn().min(battle.turn_limit())
                ));
            });
            ui.separator();
            egui::Grid::new("summary")
                .num_columns(7)
                .striped(true)
                .show(ui, |ui| {
                    for h in [
                        "Side",
                        "Shots",
                        "Hits",
                        "Penetrating",
                        "Knocked out",
                        "Units left",
                        "Hull left",
                    ] {
                        ui.strong(h);
                    }
                    ui.end_row();
                    for (i, s) in summary(&table).iter().enumerate() {
                        let p = PlayerId(u8::try_from(i).unwrap_or(0));
                        ui.label(
                            egui::RichText::new(battle.side_name(p))
                                .color(color32(side_color(p.0))),
                        );
                        for v in [
                            s.shots,
                            s.hits,
                            s.penetrations,
                            s.knocked_out,
                            s.units_left,
                            s.hull_left,
                        ] {
                            ui.label(v.to_string());
                        }
                        ui.end_row();
                    }
                });
            ui.separator();
            ui.horizontal(|ui| {
                if ui
                    .button("Rematch")
                    .on_hover_text("The same scenario again, new dice")
                    .clicked()
                {
                    orders.write(Order::Rematch);
                }
                if ui
                    .button("Save replay")
                    .on_hover_text("Save the match record; open it later from the menu as a replay")
                    .clicked()
                {
                    orders.write(Order::Save(None));
                }
                if ui.button("Look at the table").clicked() {
                    panels.hide_outcome = true;
                }
                if ui.button("Main menu").clicked() {
                    next.set(Screen::Menu);
                }
            });
        });
    Ok(())
}
