//! The egui panel: the scenario and its units.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::Table;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, draw_panel);
}

fn draw_panel(mut contexts: EguiContexts, table: Res<Table>) -> Result {
    let battle = &table.battle;
    let rules = battle.rules();
    egui::Window::new(battle.scenario_name())
        .anchor(egui::Align2::LEFT_TOP, [8.0, 8.0])
        .resizable(false)
        .show(contexts.ctx_mut()?, |ui| {
            ui.label(format!(
                "{} turns · from {}",
                battle.turn_limit(),
                table.source
            ));
            ui.separator();
            for u in battle.units() {
                let a = u.armor;
                ui.label(format!(
                    "{} ({}) at {} facing {}, turret {} — armor {}/{}/{}, {} hull, range {}",
                    u.name,
                    battle.side_name(u.side),
                    battle.label(u.at),
                    u.facing,
                    u.turret,
                    a.front,
                    a.side,
                    a.rear,
                    u.hull,
                    u.gun_range(rules)
                ));
            }
            ui.separator();
            ui.label("Hot-seat play comes with the client issue. Headless now:");
            ui.monospace("tanktable legal | odds | sim | replay | check");
        });
    Ok(())
}
