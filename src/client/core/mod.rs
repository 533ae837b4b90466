//! The client's lowest layer: the words every other layer uses. The screens and the
//! frame's system sets, the session that plays orders through the rules and sends out
//! their facts, the messages that open each screen, saves and the data folder.

pub mod keyboard;
pub mod launch;
pub mod memory;
pub mod open;
pub mod remote;
pub mod saves;
pub mod session;
pub mod settings;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;

use crate::rules::GameKind;

/// The screens of the client.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Menu,
    /// The upgrade builder, before a battle or standalone.
    Builder,
    /// A game on the table: played, watched, or replayed.
    Playing,
    /// The playtest lab: rules variants over many bot games, with plots.
    Lab,
    /// The scenario editor.
    Editor,
}

/// The game on the table, under [`Screen::Playing`].
#[derive(SubStates, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[source(Screen = Screen::Playing)]
pub enum GameScreen {
    #[default]
    TankCommander,
    TankChess,
    BattleTanks,
    TankCombat,
    RangeDuel,
}

impl From<GameKind> for GameScreen {
    fn from(game: GameKind) -> Self {
        match game {
            GameKind::TankCommander => GameScreen::TankCommander,
            GameKind::TankChess => GameScreen::TankChess,
            GameKind::BattleTanks => GameScreen::BattleTanks,
            GameKind::TankCombat => GameScreen::TankCombat,
            GameKind::RangeDuel => GameScreen::RangeDuel,
        }
    }
}

/// The frame's systems, in order: input becomes orders, the session plays them, the
/// scenes show what happened. Configured once, here.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClientSystems {
    /// Clicks and keys become orders.
    Input,
    /// Orders are played through the rules; facts come out.
    Session,
    /// Components mirror the rules state.
    Mirror,
    /// Scenes animate the facts and follow the state.
    Scene,
}

/// The panels' systems, in order: the shared frame, then each game's own panels.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HudSystems {
    Frame,
    Game,
}

/// Panels and highlights are hidden (previews).
#[derive(Resource)]
pub struct Clean;

/// Registers the states, the message types and the system order every app needs.
pub(crate) fn plugin(app: &mut App) {
    open::plugin(app);
    remote::plugin(app);
    if !app.is_plugin_added::<StatesPlugin>() {
        app.add_plugins(StatesPlugin);
    }
    if !app.world().contains_resource::<State<Screen>>() {
        app.init_state::<Screen>();
    }
    app.add_sub_state::<GameScreen>().configure_sets(
        Update,
        (
            ClientSystems::Input,
            ClientSystems::Session,
            ClientSystems::Mirror,
            ClientSystems::Scene,
        )
            .chain(),
    );
}
