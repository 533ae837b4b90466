//! Hot reload: the rules table and the open scenario are watched on disk. A changed file
//! that is valid is picked up (new games at once; a running battle asks first); an
//! invalid one shows every problem in a panel and changes nothing.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::session::Table;
use super::{LoadedRules, Screen};
use crate::rules::tank_commander::setup::{RULES_PATH, find_project_file};
use crate::rules::tank_commander::{Rules, Scenario};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Watch>()
        .add_systems(Update, watch_files)
        .add_systems(EguiPrimaryContextPass, draw_reload);
}

/// A valid new version waiting for the players' yes.
struct Pending {
    scenario: Scenario,
    rules: Rules,
    what: String,
}

#[derive(Resource, Default)]
struct Watch {
    stamps: HashMap<PathBuf, SystemTime>,
    since: Duration,
    errors: Vec<String>,
    pending: Option<Pending>,
}

fn stamp(path: &PathBuf) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

fn watch_files(
    mut commands: Commands,
    time: Res<Time>,
    mut watch: ResMut<Watch>,
    mut rules: ResMut<LoadedRules>,
    table: Option<Res<Table>>,
    screen: Res<State<Screen>>,
) {
    watch.since += time.delta();
    if watch.since < Duration::from_millis(700) {
        return;
    }
    watch.since = Duration::ZERO;
    let rules_path = find_project_file(RULES_PATH);
    let scenario_path = table.as_ref().and_then(|t| t.path.clone());
    let mut changed = Vec::new();
    for path in rules_path.iter().chain(scenario_path.iter()) {
        let Some(now) = stamp(path) else { continue };
        match watch.stamps.insert(path.clone(), now) {
            Some(before) if before != now => changed.push(path.clone()),
            _ => {}
        }
    }
    if changed.is_empty() {
        return;
    }
    let mut errors = Vec::new();
    let new_rules = match Rules::load(rules_path.as_deref()) {
        Ok(r) => Some(r),
        Err(d) => {
            errors.push(d.to_string());
            None
        }
    };
    let what = changed
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    if let Some(r) = &new_rules {
        rules.0 = r.clone();
        info!("reloaded after a change to {what}");
    }
    if let (Some(table), Some(path), Some(r), Screen::Battle) =
        (&table, &scenario_path, &new_rules, screen.get())
    {
        match Scenario::load(path, r) {
            Err(d) => errors.push(d.to_string()),
            Ok(scenario) if table.game.history().is_empty() && table.replay.is_none() => {
                // Nothing played yet: take the new version at once.
                if let Ok(fresh) = Table::new(
                    scenario,
                    r,
                    table.source.clone(),
                    table.path.clone(),
                    table.seed,
                ) {
                    commands.insert_resource(fresh);
                }
            }
            Ok(scenario) if table.replay.is_none() => {
                watch.pending = Some(Pending {
                    scenario,
                    rules: r.clone(),
                    what: what.clone(),
                });
            }
            Ok(_) => {}
        }
    }
    watch.errors = errors;
}

fn draw_reload(
    mut contexts: EguiContexts,
    mut watch: ResMut<Watch>,
    table: Option<Res<Table>>,
    mut commands: Commands,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if !watch.errors.is_empty() {
        let mut dismiss = false;
        egui::Window::new("Problems in a changed file")
            .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -60.0])
            .default_width(640.0)
            .show(ctx, |ui| {
                ui.label("The file was not reloaded; the game goes on with the last good version. Fix it and save again.");
                egui::ScrollArea::vertical().max_height(200.0).show(ui, |ui| {
                    for e in &watch.errors {
                        ui.label(egui::RichText::new(e).monospace().color(egui::Color32::from_rgb(255, 140, 120)));
                    }
                });
                dismiss = ui.button("Dismiss").clicked();
            });
        if dismiss {
            watch.errors.clear();
        }
    }
    let mut answer = None;
    if let Some(p) = &watch.pending {
        egui::Window::new("A file changed on disk")
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .collapsible(false)
            .show(ctx, |ui| {
                ui.label(format!("{} changed. Restart this battle with the new version? The moves made so far will be lost (the autosave keeps them).", p.what));
                ui.horizontal(|ui| {
                    if ui.button("Restart with the change").clicked() {
                        answer = Some(true);
                    }
                    if ui.button("Keep playing").clicked() {
                        answer = Some(false);
                    }
                });
            });
    }
    if let Some(yes) = answer
        && let Some(p) = watch.pending.take()
        && yes
        && let Some(table) = table
        && let Ok(fresh) = Table::new(
            p.scenario,
            &p.rules,
            table.source.clone(),
            table.path.clone(),
            table.seed,
        )
    {
        commands.insert_resource(fresh);
    }
    Ok(())
}
