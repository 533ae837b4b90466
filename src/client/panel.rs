//! The egui panels: the scenario and its units, whose turn it is, the legal actions as
//! buttons, and the combat log.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::Table;
use super::board::{Clicked, Hovered};
use crate::framework::Game;
use crate::rules::tank_commander::{Action, FireTarget, Terrain};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (draw_units, draw_play, draw_hover).chain(),
    )
    .add_systems(Update, act_on_click);
}

/// What is under the pointer: the hex, its terrain, and any unit's stats.
fn draw_hover(mut contexts: EguiContexts, table: Res<Table>, hovered: Res<Hovered>) -> Result {
    let Some(hex) = hovered.0 else { return Ok(()) };
    let battle = table.battle();
    if !battle.board().contains(hex) {
        return Ok(());
    }
    egui::Window::new("Under the pointer")
        .anchor(egui::Align2::LEFT_BOTTOM, [8.0, -8.0])
        .resizable(false)
        .title_bar(false)
        .show(contexts.ctx_mut()?, |ui| {
            let terrain = battle.terrain(hex);
            let effect = match terrain {
                Terrain::Mud | Terrain::Rubble => " (2 AP to leave)",
                Terrain::Forest => " (−1 to hit units in or behind it)",
                Terrain::Building => " (impassable, blocks sight)",
                Terrain::Hill => " (−1 behind it; units on it are hit on the rear)",
                Terrain::Open => "",
            };
            let smoke = if battle.smoke(hex) {
                ", smoke (blocks sight)"
            } else {
                ""
            };
            ui.strong(format!("{} · {terrain}{effect}{smoke}", battle.label(hex)));
            if let Some(u) = battle.unit_at(hex) {
                let a = u.armor;
                ui.label(format!(
                    "{} ({}) · armor {}/{}/{} · {} hull · to hit {}+ · range {} · loaded {}",
                    u.name,
                    battle.side_name(u.side),
                    a.front,
                    a.side,
                    a.rear,
                    u.hull,
                    u.base.accuracy,
                    u.gun_range(battle.rules()),
                    u.loaded.map_or("nothing".to_string(), |r| r.to_string())
                ));
            }
        });
    Ok(())
}

/// A click on a unit: activate it if it is yours and may act, or fire at it if the active
/// tank can.
fn act_on_click(mut clicked: ResMut<Clicked>, mut table: ResMut<Table>) {
    let Some(hex) = clicked.0.take() else { return };
    if !table.interactive {
        return;
    }
    let battle = table.battle();
    let Some(unit) = battle.unit_at(hex).map(|u| u.id) else {
        return;
    };
    let Some(&player) = battle.to_act().first() else {
        return;
    };
    let legal = battle.legal_actions(player);
    let wanted = [Action::Activate(unit), Action::Fire(FireTarget::Unit(unit))]
        .into_iter()
        .find(|a| legal.contains(a));
    let result = match wanted {
        Some(action) => table.play(player, &action),
        None => {
            let why = match battle.activation() {
                Some(_) => battle
                    .check(player, &Action::Fire(FireTarget::Unit(unit)))
                    .err()
                    .unwrap_or_default(),
                None => battle
                    .check(player, &Action::Activate(unit))
                    .err()
                    .unwrap_or_default(),
            };
            Err(why)
        }
    };
    if let Err(why) = result
        && !why.is_empty()
    {
        table.log.push(format!("Refused: {why}"));
        table.revision += 1;
    }
}

fn draw_units(mut contexts: EguiContexts, table: Res<Table>) -> Result {
    let battle = table.battle();
    let rules = battle.rules();
    egui::Window::new(battle.scenario_name())
        .anchor(egui::Align2::LEFT_TOP, [8.0, 8.0])
        .resizable(false)
        .default_width(330.0)
        .show(contexts.ctx_mut()?, |ui| {
            ui.label(format!(
                "Turn {} of {} · seed {} · {}",
                battle.turn().min(battle.turn_limit()),
                battle.turn_limit(),
                table.seed,
                table.source
            ));
            ui.separator();
            for u in battle.units() {
                let a = u.armor;
                let state = match (u.status, u.on_fire) {
                    (crate::rules::tank_commander::state::Status::Destroyed, _) => {
                        "destroyed".to_string()
                    }
                    (crate::rules::tank_commander::state::Status::Disabled, _) => {
                        "disabled".to_string()
                    }
                    (_, true) => format!("{} hull, ON FIRE", u.hull),
                    _ => format!("{} hull", u.hull),
                };
                let crew: Vec<String> = u
                    .crew
                    .iter()
                    .filter(|m| m.wounds > 0)
                    .map(|m| format!("{} {}", m.role, m.condition()))
                    .collect();
                ui.label(format!(
                    "{} ({}) {} facing {}, turret {} · armor {}/{}/{} · {state}{}",
                    u.name,
                    battle.side_name(u.side),
                    battle.label(u.at),
                    u.facing,
                    u.turret,
                    a.front,
                    a.side,
                    a.rear,
                    if crew.is_empty() {
                        String::new()
                    } else {
                        format!(" · {}", crew.join(", "))
                    }
                ))
                .on_hover_text(format!(
                    "Loaded: {} · range {} · moves {} · actions {}",
                    u.loaded.map_or("nothing".to_string(), |r| r.to_string()),
                    u.gun_range(rules),
                    u.move_cap(rules),
                    u.action_points(rules)
                ));
            }
        });
    Ok(())
}

fn draw_play(mut contexts: EguiContexts, mut table: ResMut<Table>) -> Result {
    if !table.interactive {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut chosen: Option<(crate::framework::PlayerId, Action)> = None;
    let mut rematch = false;
    let mut undo = false;
    let mut playtest = table.playtest;
    {
        let battle_history_empty = table.game.history().is_empty();
        let battle = table.battle();
        egui::Window::new("Orders")
            .anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0])
            .resizable(false)
            .default_width(340.0)
            .show(ctx, |ui| {
                if let Some(outcome) = battle.outcome() {
                    let head = match outcome.winners.first() {
                        Some(w) => format!("{} wins!", battle.side_name(*w)),
                        None => "A draw.".to_string(),
                    };
                    ui.heading(head);
                    ui.label(&outcome.reason);
                    if ui.button("Rematch").clicked() {
                        rematch = true;
                    }
                    return;
                }
                for player in battle.to_act() {
                    ui.heading(battle.who_acts(player));
                    egui::ScrollArea::vertical()
                        .id_salt("actions")
                        .max_height(300.0)
                        .show(ui, |ui| {
                            for action in battle.legal_actions(player) {
                                let mut label = battle.describe_action(&action);
                                let mut tip = None;
                                // Shots carry their exact odds, from the same code as `tanktable odds`.
                                if let (Action::Fire(target), Some(act)) = (action, battle.activation()) {
                                    let shooter = battle.unit(act.unit);
                                    if let Some(round) = shooter.loaded
                                        && let Ok(p) = battle.shot_profile(act.unit, target, round, act.bring_it_down)
                                    {
                                        let o = battle.odds(&p);
                                        if p.armor.is_some() {
                                            label.push_str(&format!(
                                                " — hit {}, pen {}, hull −{:.2}",
                                                o.hit,
                                                o.penetrating,
                                                o.expected_hull_loss.to_f64()
                                            ));
                                        } else {
                                            label.push_str(&format!(" — hit {}", o.hit));
                                        }
                                        let armor = p.armor.map_or(String::new(), |(f, v, why)| {
                                            format!("\n{f} armor {v} ({why}); strength {} + d6 must beat it", p.strength)
                                        });
                                        tip = Some(format!(
                                            "To hit: {}{armor}\nCrew wound {}, fire {}, knocked out {}",
                                            p.to_hit.explain(),
                                            o.crew_wound,
                                            o.fire,
                                            o.disable
                                        ));
                                    }
                                }
                                let mut button = ui.button(label);
                                if let Some(tip) = tip {
                                    button = button.on_hover_text(tip);
                                }
                                if button.clicked() {
                                    chosen = Some((player, action));
                                }
                            }
                        });
                    ui.separator();
                    if ui
                        .button("Concede")
                        .on_hover_text("Give up the battle")
                        .clicked()
                    {
                        chosen = Some((player, Action::Concede));
                    }
                }
                ui.separator();
                ui.checkbox(&mut playtest, "Playtest mode")
                    .on_hover_text("Allows taking actions back, rolls included. Normal play forbids it.");
                let can_undo = !battle_history_empty;
                let undo_button = ui.add_enabled(playtest && can_undo, egui::Button::new("Undo last action"));
                let undo_button = if playtest {
                    undo_button.on_disabled_hover_text("Nothing to take back yet")
                } else {
                    undo_button.on_disabled_hover_text("Turn on playtest mode to take actions back")
                };
                if undo_button.clicked() {
                    undo = true;
                }
            });
        egui::Window::new("Combat log")
            .anchor(egui::Align2::RIGHT_BOTTOM, [-8.0, -8.0])
            .resizable(false)
            .default_width(520.0)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .max_height(180.0)
                    .stick_to_bottom(true)
                    .show(ui, |ui| {
                        for line in &table.log {
                            ui.label(line);
                        }
                    });
            });
    }
    if rematch {
        table.rematch();
    }
    table.playtest = playtest;
    if undo {
        table.undo();
    }
    if let Some((player, action)) = chosen
        && let Err(why) = table.play(player, &action)
    {
        table.log.push(format!("Refused: {why}"));
    }
    Ok(())
}
