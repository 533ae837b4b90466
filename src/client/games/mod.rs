//! The five games in the client, one folder each, every folder of the same five parts:
//! `mod.rs` (the [`GameClient`] impl and the plugins), `table` (the 3D table), `anims` (the
//! facts on the shared timeline), `panels` and `input`. Everything else (orders, saves,
//! seats, bots, the shared panels) comes from the one session. A game imports the layers
//! below it and never another game (`docs/architecture.md`).

pub mod battle_tanks;
pub mod range_duel;
pub mod tank_chess;
pub mod tank_combat;
pub mod tank_commander;

use bevy::prelude::*;

use crate::client::core::session::GameClient;
use crate::rules::battle_tanks::BattleTanks;
use crate::rules::range_duel::RangeDuel;
use crate::rules::tank_chess::TankChess;
use crate::rules::tank_combat::TankCombat;
use crate::rules::tank_commander::TankCommander;

fn logic_of<G: GameClient>(app: &mut App) {
    crate::client::core::session::game_plugin::<G>(app);
    crate::client::core::remote::game_plugin::<G>(app);
    crate::client::frame::input::game_plugin::<G>(app);
    G::logic(app);
}

fn scene_of<G: GameClient>(app: &mut App) {
    crate::client::frame::hud::plugin::<G>(app);
    crate::client::frame::talk::plugin::<G>(app);
    crate::client::frame::redraw::watch::<crate::client::core::session::Session<G>>(app);
    crate::client::frame::redraw::watch::<crate::client::core::session::Legal<G>>(app);
    crate::client::frame::redraw::watch::<crate::client::table::effects::Shown<G>>(app);
    G::scene(app);
}

/// Every game's session, input and rules-side logic (runs headless).
pub(super) fn logic_plugin(app: &mut App) {
    logic_of::<TankCommander>(app);
    logic_of::<TankChess>(app);
    logic_of::<BattleTanks>(app);
    logic_of::<TankCombat>(app);
    logic_of::<RangeDuel>(app);
}

/// Every game's scene and panels (the windowed client).
pub(super) fn scene_plugin(app: &mut App) {
    app.configure_sets(
        bevy_egui::EguiPrimaryContextPass,
        (
            crate::client::core::HudSystems::Frame,
            crate::client::core::HudSystems::Game,
        )
            .chain(),
    );
    crate::client::frame::input::panels_plugin(app);
    // The panels each game keeps on screen beside its table.
    crate::client::table::framing::frame_panels(
        app,
        &[
            "Unit card",
            "action bar",
            "chess status",
            "chess moves",
            "battle",
            "attack",
            "range",
            "guide",
        ],
    );
    scene_of::<TankCommander>(app);
    scene_of::<TankChess>(app);
    scene_of::<BattleTanks>(app);
    scene_of::<TankCombat>(app);
    scene_of::<RangeDuel>(app);
}
