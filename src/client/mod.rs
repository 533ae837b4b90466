//! The Bevy desktop client (feature `client`).

use bevy::prelude::*;

/// How the client starts.
#[derive(Clone, Debug, Default)]
pub struct Launch {
    pub scenario: Option<std::path::PathBuf>,
}

/// Opens the client window.
pub fn run(_launch: Launch) {
    App::new().add_plugins(DefaultPlugins).run();
}
