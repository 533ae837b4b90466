//! The Range Duel panel: the range, the combat turn, whose secret order is given, and the
//! last reveal.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::client::table::theme::seat_color;
use crate::framework::{Game, PlayerId};
use crate::rules::range_duel::{RangeDuel, side_name};

/// The last reveal: both orders and the matrix row, kept in the range panel.
#[derive(Resource, Default)]
pub(super) struct LastReveal(pub(super) Option<String>);

/// The panel in the corner: `game` is the table as shown, `live` the rules' state now.
pub(super) fn range_window(
    ctx: &egui::Context,
    game: &RangeDuel,
    live: &RangeDuel,
    last: &LastReveal,
) {
    egui::Window::new("Range Duel")
        .id(egui::Id::new("range"))
        .collapsible(true)
        .resizable(false)
        .anchor(egui::Align2::LEFT_TOP, [6.0, 6.0])
        .show(ctx, |ui| {
            ui.label(
                egui::RichText::new(format!("Range: {}", game.range_name()))
                    .size(20.0)
                    .strong(),
            );
            ui.label(format!(
                "Combat turn {} of {}",
                game.turn() + 1,
                game.setup().rules.turn_limit
            ));
            for p in [PlayerId(0), PlayerId(1)] {
                if live.outcome().is_some() {
                    break;
                }
                let chosen = live.has_chosen(p);
                ui.colored_label(
                    seat_color(p),
                    format!(
                        "{}: {}",
                        side_name(p),
                        if chosen {
                            "order given (secret)"
                        } else {
                            "choosing…"
                        }
                    ),
                );
            }
            if let Some(last) = &last.0 {
                egui::CollapsingHeader::new("Last reveal")
                    .default_open(false)
                    .show(ui, |ui| {
                        ui.set_max_width(320.0);
                        ui.label(last);
                    });
            }
        });
}
