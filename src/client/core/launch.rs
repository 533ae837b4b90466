//! How the client starts: the game, screen or preview to open, and the development
//! switches.

use std::path::PathBuf;

use super::session::OpenGame;
use crate::rules::GameKind;

/// How the client starts.
#[derive(Clone, Debug, Default)]
pub struct Launch {
    /// The game to open straight away; the main menu when `None`.
    pub open: Option<OpenGame>,
    /// Render the opened game straight down (`true`) or at an angle to this PNG, with no
    /// panels, then exit: a design preview.
    pub preview: Option<(PathBuf, bool)>,
    /// The menu page (a game) to open on.
    pub menu_page: Option<GameKind>,
    /// Join a game hosted on another machine (`tanktable play --join`).
    pub join: Option<super::remote::JoinHost>,
    /// Open the scenario editor on this file, or on a new board (square when true).
    pub edit: Option<(Option<PathBuf>, bool)>,
    /// Print the time to the first rendered frame and the resident memory, then exit.
    #[cfg(feature = "dev")]
    pub measure_startup: bool,
    /// With `measure_startup`: an empty Bevy app instead of ours.
    #[cfg(feature = "dev")]
    pub empty_app: bool,
    /// Render offscreen at this size, with no winit and no window surface (the frame
    /// benchmark).
    #[cfg(feature = "dev")]
    pub offscreen: Option<bevy::math::UVec2>,
    /// Draw with these graphics settings instead of the player's (the frame benchmark).
    pub graphics: Option<super::settings::Graphics>,
}

/// Builds the client's app for a launch: handed to the development tools, which stand
/// above the app and so cannot name it.
pub type BuildApp = fn(Launch) -> Result<bevy::app::App, String>;
