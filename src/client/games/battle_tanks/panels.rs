//! The Battle Tanks panel: the battle and War under way, the Battlefield's dice and the
//! destroyed ones, the free-die bag, and the damage of the Final Battle.

use bevy_egui::egui;

use crate::client::table::theme::{self, seat_color};
use crate::framework::Game;
use crate::rules::battle_tanks::{BattleTanks, Ending, Phase};

/// The panel in the corner: `game` is the table as shown, `live` the rules' state now.
pub(super) fn battle_window(ctx: &egui::Context, game: &BattleTanks, live: &BattleTanks) {
    egui::Window::new("Battle Tanks")
        .id(egui::Id::new("battle"))
        .collapsible(true)
        .resizable(false)
        .anchor(egui::Align2::LEFT_TOP, [6.0, 6.0])
        .show(ctx, |ui| {
            ui.label(
                egui::RichText::new(match live.phase() {
                    Phase::FinalBattle { .. } => "The Final Battle".to_string(),
                    Phase::Over(_) => "Game over".to_string(),
                    Phase::NotStarted => "Before the first battle".to_string(),
                    _ if live.war() > 0 => format!("Battle {} · War {}", live.battle(), live.war()),
                    _ => format!("Battle {}", live.battle()),
                })
                .size(20.0)
                .strong(),
            );
            ui.label(format!(
                "Battlefield: {} dice{} · destroyed: {}",
                game.battlefield().len(),
                if game.battlefield().iter().any(|d| d.at_war) {
                    " (gold: at War; the rest is loot)"
                } else {
                    ""
                },
                game.destroyed().total()
            ));
            ui.label(format!(
                "Free-die bag: {} of {} left",
                game.bag(),
                game.rules().bag
            ))
            .on_hover_text(
                "A Tanktable addition, not in the rulebook: a commander at War with an empty \
                 arsenal rolls a free die from the bag at -1; whoever wins it keeps it. \
                 The bag's size is `bag` in the setup's rules.",
            );
            for v in game.final_battle() {
                ui.colored_label(
                    seat_color(v.player),
                    format!("{}: {} damage", game.player_name(v.player), v.damage),
                );
            }
            if let Phase::Over(Ending::WorldDestroyed) = live.phase() {
                ui.colored_label(theme::DESTRUCTION, "The world is destroyed.");
            }
        });
}
