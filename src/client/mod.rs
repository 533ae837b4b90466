//! The Bevy desktop client (cargo feature `client`).
//!
//! A main menu, the upgrade builder, and the battle itself: a 3D hex table played hot seat,
//! with every rule made visible (reachable hexes, arcs, lines of sight, exact odds, every
//! roll in the log). Data flows one way: input becomes [`session::Order`] messages, the
//! session plays them through the rules, and the resulting fact messages drive the
//! mirrored components, animation and panels. Only this module converts between grid and
//! world coordinates.

mod board;
pub mod builder;
mod camera;
mod capture;
mod card_table;
mod chess_board;
mod chess_hud;
pub mod chess_session;
mod dice_table;
mod effects;
pub mod highlights;
mod hud;
mod menu;
pub mod mirror;
mod overlay;
mod range_track;
mod reload;
pub mod session;
mod table_effects;
mod table_hud;
mod table_menu;
pub mod table_session;
mod units;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;

use crate::grid::Facing;
use crate::rules::tank_commander::Rules;

pub use session::Table;

/// The screens of the client.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Menu,
    /// The upgrade builder, before a battle or standalone.
    Builder,
    /// A battle on the table (played, or a replay).
    Battle,
    /// A game of Tank Chess.
    Chess,
    /// A setup-file game: Battle Tanks, Tank Combat or the Range Duel.
    Table,
}

/// The rules table in use; reloaded when its file changes.
#[derive(Resource, Clone)]
pub struct LoadedRules(pub Rules);

/// The user's data folder: autosave, saves, builds. `$XDG_DATA_HOME/tanktable`, else
/// `~/.local/share/tanktable`; `TANKTABLE_DATA` overrides it (tests).
#[must_use]
pub fn data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("TANKTABLE_DATA") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_DATA_HOME") {
        return PathBuf::from(dir).join("tanktable");
    }
    if let Some(home) = std::env::var_os("HOME") {
        return PathBuf::from(home).join(".local/share/tanktable");
    }
    PathBuf::from(".tanktable")
}

/// How the client starts.
#[derive(Clone, Debug, Default)]
pub struct Launch {
    /// The scenario to open straight away; the main menu when `None`.
    pub scenario: Option<PathBuf>,
    /// Save a screenshot here after the table is drawn, then exit (for tests and previews).
    pub screenshot: Option<PathBuf>,
    /// Look straight down on the table (scenario previews).
    pub top_down: bool,
    /// Let the greedy bot play this many actions first (scripted runs and tests).
    pub autoplay: u32,
    /// Dice seed; the scenario's, else the clock, when `None`.
    pub seed: Option<u64>,
    /// The frame at which the screenshot is taken.
    pub screenshot_frame: u32,
    /// Hide panels and highlights (image comparisons, previews).
    pub clean: bool,
    /// Print the time to the first rendered frame and the resident memory, then exit.
    pub measure_startup: bool,
    /// With `measure_startup`: an empty Bevy app instead of ours.
    pub empty_app: bool,
    /// A match record to open in the replay viewer.
    pub replay: Option<PathBuf>,
    /// Who sits in each seat of a setup-file game (missing seats are people).
    pub seats: Vec<table_session::Seat>,
    /// The menu page to open on (scripted screenshots).
    pub menu_page: usize,
}

/// Panels and highlights are hidden.
#[derive(Resource)]
pub struct Clean;

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

/// The rules and logic plugins: they need no window and run under `MinimalPlugins`
/// (headless tests and benches).
pub fn logic_plugin(app: &mut App) {
    if !app.is_plugin_added::<StatesPlugin>() {
        app.add_plugins(StatesPlugin);
    }
    if !app.world().contains_resource::<State<Screen>>() {
        app.init_state::<Screen>();
    }
    app.add_plugins((session::plugin, mirror::plugin, highlights::plugin))
        .add_plugins(chess_session::plugin)
        .add_plugins(table_session::common_plugin)
        .add_plugins(table_session::plugin::<crate::rules::range_duel::RangeDuel>)
        .add_plugins(table_session::plugin::<crate::rules::battle_tanks::BattleTanks>)
        .add_plugins(table_session::plugin::<crate::rules::tank_combat::TankCombat>);
}

/// A windowless app running the rules and logic plugins on `table` (tests, benches);
/// saves go to `saves`.
pub fn headless_app(table: Table, saves: PathBuf) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(session::SaveFolder(saves))
        .insert_resource(LoadedRules(Rules::builtin()))
        .add_plugins(StatesPlugin)
        .insert_state(Screen::Battle)
        .add_plugins(logic_plugin)
        .insert_resource(table);
    app.update();
    app
}

/// Opens the client window.
///
/// # Errors
/// The scenario's or the rules' problems, before any window opens.
pub fn run(launch: Launch) -> Result<(), String> {
    let started = std::time::Instant::now();
    if launch.measure_startup && launch.empty_app {
        let mut app = App::new();
        app.add_plugins(DefaultPlugins)
            .add_systems(Startup, |mut commands: Commands| {
                commands.spawn(Camera3d::default());
            })
            .insert_resource(capture::Measure { started })
            .add_plugins(capture::measure_plugin);
        app.run();
        return Ok(());
    }
    let rules = Rules::load(None).map_err(|d| d.to_string())?;
    // Tank Chess setups and game records open the chess board.
    let chess_file = launch
        .replay
        .as_ref()
        .or(launch.scenario.as_ref())
        .and_then(|p| std::fs::read_to_string(p).ok())
        .is_some_and(|t| {
            t.contains("TankChessSetup") || crate::rules::tank_chess::notation::is_record(&t)
        });
    let chess = if chess_file {
        let path = launch.replay.as_ref().or(launch.scenario.as_ref());
        path.map(|p| chess_session::ChessTable::open(p))
            .transpose()?
    } else {
        None
    };
    let table_file = launch
        .replay
        .as_ref()
        .or(launch.scenario.as_ref())
        .and_then(|p| {
            std::fs::read_to_string(p)
                .ok()
                .and_then(|t| crate::rules::TableGame::of_text(&t))
                .map(|g| (g, p.clone()))
        });
    let mut table_opening: Option<Box<dyn FnOnce(&mut App) + Send>> = None;
    if let Some((which, path)) = &table_file {
        table_opening = Some(crate::dispatch_table_game!(
            *which,
            table_opener(
                path,
                launch.replay.is_some(),
                launch.seats.clone(),
                launch.autoplay,
                launch.seed,
                *which
            )
        )?);
    }
    let opening = match (&launch.replay, &launch.scenario) {
        _ if chess.is_some() || table_file.is_some() => None,
        (Some(record), _) => Some(Table::from_record(record, &rules, true)?),
        (None, Some(path)) => Some(session::open_scenario(path, &rules, &launch)?),
        (None, None) => None,
    };
    if cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none()
    {
        return Err("no display to open a window on: DISPLAY is not set (on a machine without a screen, run under `xvfb-run -a`)".into());
    }
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "Tanktable".into(),
            resolution: WindowResolution::new(1280, 720),
            ..default()
        }),
        ..default()
    }))
    .add_plugins(EguiPlugin::default())
    .add_plugins(bevy::picking::mesh_picking::MeshPickingPlugin)
    .insert_resource(ClearColor(Color::srgb(0.16, 0.17, 0.19)))
    .insert_resource(LoadedRules(rules))
    .insert_resource(camera::View {
        top_down: launch.top_down,
    })
    .insert_state(if opening.is_some() {
        Screen::Battle
    } else if table_file.is_some() {
        Screen::Table
    } else if chess.is_some() {
        Screen::Chess
    } else {
        Screen::Menu
    })
    .add_plugins(logic_plugin)
    .add_plugins((
        board::plugin,
        units::plugin,
        overlay::plugin,
        effects::plugin,
        camera::plugin,
        hud::plugin,
        menu::plugin,
        builder::plugin,
        reload::plugin,
        chess_board::plugin,
        chess_hud::plugin,
    ))
    .add_plugins((
        table_hud::plugin::<crate::rules::range_duel::RangeDuel>,
        table_hud::plugin::<crate::rules::battle_tanks::BattleTanks>,
        table_hud::plugin::<crate::rules::tank_combat::TankCombat>,
        table_effects::plugin,
        range_track::plugin,
        dice_table::plugin,
        card_table::plugin,
    ));
    if let Some(open) = table_opening {
        open(&mut app);
    }
    if let Some(chess) = chess {
        app.insert_resource(chess);
    }
    if let Some(table) = opening {
        app.insert_resource(table)
            .insert_resource(session::Autoplay(launch.autoplay));
    }
    if launch.clean {
        app.insert_resource(Clean);
    }
    app.insert_resource(menu::MenuPage(launch.menu_page));
    if launch.measure_startup {
        app.insert_resource(capture::Measure { started })
            .add_plugins(capture::measure_plugin);
    }
    if let Some(path) = launch.screenshot {
        app.insert_resource(capture::CaptureTo {
            path,
            frame: launch.screenshot_frame.max(5),
        })
        .add_plugins(capture::plugin);
    }
    app.run();
    Ok(())
}

/// Opens a setup-file game's file for [`run`]: the match, after `autoplay` bot actions.
fn table_opener<G: table_session::TableClient>(
    path: &std::path::Path,
    replay: bool,
    seats: Vec<table_session::Seat>,
    autoplay: u32,
    seed: Option<u64>,
    which: crate::rules::TableGame,
) -> Result<Box<dyn FnOnce(&mut App) + Send>, String> {
    let mut table = table_session::open_file::<G>(path, replay, seats, seed)?;
    table.autoplay(autoplay)?;
    Ok(Box::new(move |app: &mut App| {
        app.insert_resource(table)
            .insert_resource(table_session::OnTable(which));
    }))
}
