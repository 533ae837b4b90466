//! The Bevy desktop client (cargo feature `client`).
//!
//! It shows a scenario's table in 3D (terrain, tanks with their hull and turret facings,
//! wrecks and fires) and plays it hot seat: the panel lists the legal actions of whoever
//! must act, in the rules' own words, and the combat log tells every roll. Only this module
//! converts between grid and world coordinates.

mod board;
mod camera;
mod capture;
mod panel;
mod units;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;

use crate::framework::bot::Bot;
use crate::framework::{Game, Match, PlayerId};
use crate::grid::Facing;
use crate::rules::tank_commander::{
    Action, GreedyBot, Rules, Scenario, TankCommander, setup::find_project_file,
};

/// How the client starts.
#[derive(Clone, Debug, Default)]
pub struct Launch {
    /// The scenario to open; the default scenario when `None`.
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
}

/// The battle on the table, with its history and log.
#[derive(Resource)]
pub struct Table {
    pub game: Match<TankCommander>,
    pub scenario: Scenario,
    pub rules: Rules,
    pub source: String,
    pub seed: u64,
    /// Every fact so far, in words.
    pub log: Vec<String>,
    /// Bumped on every change, so the 3D table is drawn again.
    pub revision: u64,
    /// Whether players may act (false for previews).
    pub interactive: bool,
    /// Playtest mode: actions (and their rolls) may be taken back.
    pub playtest: bool,
}

impl Table {
    /// The current state.
    pub fn battle(&self) -> &TankCommander {
        self.game.state()
    }

    /// Plays an action for `player` and logs what happened.
    ///
    /// # Errors
    /// The rule that forbids it.
    pub fn play(&mut self, player: PlayerId, action: &Action) -> Result<(), String> {
        let facts = self
            .game
            .play(player, action)
            .map_err(|e| e.to_string())?
            .to_vec();
        let state = self.game.state();
        self.log
            .extend(facts.iter().map(|f| state.describe_fact(f)));
        self.revision += 1;
        Ok(())
    }

    /// Takes back the last action (playtest mode); the dice rewind with it.
    pub fn undo(&mut self) {
        let len = self.game.history().len();
        if len == 0 {
            return;
        }
        self.game.undo_to(len - 1);
        let state = self.game.state();
        self.log = self
            .game
            .all_facts()
            .map(|f| state.describe_fact(f))
            .collect();
        self.log.push("(last action taken back)".into());
        self.revision += 1;
    }

    /// Starts the same scenario again with a new seed.
    pub fn rematch(&mut self) {
        self.seed = self.seed.wrapping_add(1);
        if let Ok(battle) = TankCommander::new(&self.scenario, &self.rules) {
            self.game = Match::new(battle, self.seed);
            let state = self.game.state();
            self.log = self
                .game
                .opening_facts()
                .iter()
                .map(|f| state.describe_fact(f))
                .collect();
            self.revision += 1;
        }
    }
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
    // A fresh seed per game unless the scenario fixes one; shown in the panel so a game can
    // be reproduced.
    let seed = launch.seed.or(scenario.setup.seed).unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    let game = Match::new(battle, seed);
    let state = game.state();
    let log = game
        .opening_facts()
        .iter()
        .map(|f| state.describe_fact(f))
        .collect();
    let mut table = Table {
        game,
        scenario,
        rules,
        source,
        seed,
        log,
        revision: 0,
        // Previews only show the table; played games take orders, screenshot or not.
        interactive: !launch.top_down,
        playtest: false,
    };
    let mut bot_rng = crate::framework::MatchRng::new(seed);
    for _ in 0..launch.autoplay {
        let Some(&player) = table.battle().to_act().first() else {
            break;
        };
        let Some(action) = GreedyBot.choose(table.battle(), player, &mut bot_rng) else {
            break;
        };
        table.play(player, &action)?;
    }
    Ok(table)
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
    let title = format!("Tanktable — {}", table.battle().scenario_name());
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
    .add_plugins(bevy::picking::mesh_picking::MeshPickingPlugin)
    .insert_resource(ClearColor(Color::srgb(0.16, 0.17, 0.19)))
    .insert_resource(table)
    .insert_resource(camera::View {
        top_down: launch.top_down,
    })
    .add_plugins((board::plugin, units::plugin, camera::plugin, panel::plugin));
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
