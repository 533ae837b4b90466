//! The Bevy desktop client (cargo feature `client`).
//!
//! For now it shows a scenario's table in 3D: terrain, tanks with their hull and turret
//! facings, and a panel listing the units. The playable hot-seat client builds on these
//! plugins. Only this module converts between grid and world coordinates.

mod board;
mod camera;
mod capture;
mod panel;
mod units;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;

use crate::grid::Facing;
use crate::rules::tank_commander::{Rules, Scenario, TankCommander, setup::find_project_file};

/// How the client starts.
#[derive(Clone, Debug, Default)]
pub struct Launch {
    /// The scenario to open; the default scenario when `None`.
    pub scenario: Option<PathBuf>,
    /// Save a screenshot here after the table is drawn, then exit (for tests and previews).
    pub screenshot: Option<PathBuf>,
    /// Look straight down on the table (scenario previews).
    pub top_down: bool,
}

/// The battle on the table.
#[derive(Resource)]
pub struct Table {
    pub battle: TankCommander,
    pub source: String,
}

/// Size of a hex in world units (centre to corner).
pub const HEX_SIZE: f32 = 1.0;

/// World position of a hex centre on the table surface.
#[must_use]
pub fn hex_to_world(hex: hexx::Hex) -> Vec3 {
    let (x, z) = crate::grid::hex::center(hex);
    #[allow(
        clippy::cast_possible_truncation,
        reason = "table coordinates are small"
    )]
    Vec3::new(x as f32 * HEX_SIZE, 0.0, z as f32 * HEX_SIZE)
}

/// Rotation that turns a model built facing north (−Z) to `facing`.
#[must_use]
pub fn facing_rotation(facing: Facing) -> Quat {
    #[allow(clippy::cast_possible_truncation, reason = "angles are small")]
    Quat::from_rotation_y(-(facing.degrees() as f32).to_radians())
}

/// Loads the scenario to show.
///
/// # Errors
/// Every problem in the rules or the scenario.
pub fn load_table(launch: &Launch) -> Result<Table, String> {
    let rules = Rules::load(None).map_err(|d| d.to_string())?;
    let path = launch
        .scenario
        .clone()
        .or_else(|| find_project_file("scenarios/skirmish.ron"));
    let (scenario, source) = match path {
        Some(p) => (
            Scenario::load(&p, &rules).map_err(|d| d.to_string())?,
            p.display().to_string(),
        ),
        None => (Scenario::builtin_default(), "built-in skirmish".to_string()),
    };
    let battle = TankCommander::new(&scenario, &rules)?;
    Ok(Table { battle, source })
}

/// Opens the client window.
///
/// # Errors
/// The scenario's or the rules' problems, before any window opens.
pub fn run(launch: Launch) -> Result<(), String> {
    let table = load_table(&launch)?;
    if cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none()
    {
        return Err("no display to open a window on: DISPLAY is not set (on a machine without a screen, run under `xvfb-run -a`)".into());
    }
    let title = format!("Tanktable — {}", table.battle.scenario_name());
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title,
            resolution: WindowResolution::new(1280, 720),
            ..default()
        }),
        ..default()
    }))
    .add_plugins(EguiPlugin::default())
    .insert_resource(ClearColor(Color::srgb(0.16, 0.17, 0.19)))
    .insert_resource(table)
    .insert_resource(camera::View {
        top_down: launch.top_down,
    })
    .add_plugins((board::plugin, units::plugin, camera::plugin, panel::plugin));
    if let Some(path) = launch.screenshot {
        app.insert_resource(capture::CaptureTo(path))
            .add_plugins(capture::plugin);
    }
    app.run();
    Ok(())
}
