//! Screenshots: F12 saves one to the screenshots folder; a preview (and a test) saves one
//! at a given frame, then exits. With the `dev` feature, startup time and resident
//! memory can be measured beside an empty Bevy app.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

/// Save a screenshot here at `frame`, then exit if `exit`.
#[derive(Resource, Clone, Debug)]
pub struct CaptureTo {
    pub path: PathBuf,
    /// The frame to take it at (software rendering runs at a few frames a second).
    pub frame: u32,
    pub exit: bool,
}

#[derive(Resource, Default)]
struct Frames(u32);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Frames>()
        .add_systems(Update, (capture, screenshot_key));
}

/// Frames to wait after the screenshot for it to be written.
const WRITE_FRAMES: u32 = 30;

fn capture(
    mut commands: Commands,
    mut frames: ResMut<Frames>,
    to: Option<Res<CaptureTo>>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(to) = to else { return };
    frames.0 += 1;
    if frames.0 == to.frame {
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(to.path.clone()));
    }
    let done = to.frame + WRITE_FRAMES;
    if to.exit && frames.0 >= done && (to.path.exists() || frames.0 > done * 4) {
        exit.write(AppExit::Success);
    }
}

/// F12 saves a screenshot in the data folder's `screenshots/`.
fn screenshot_key(keys: Option<Res<ButtonInput<KeyCode>>>, mut commands: Commands) {
    if !keys.is_some_and(|k| k.just_pressed(KeyCode::F12)) {
        return;
    }
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let path = super::session::data_dir()
        .join("screenshots")
        .join(format!("tanktable-{stamp}.png"));
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    info!("screenshot saved to {}", path.display());
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(path));
}

/// Resident memory of this process in KiB, from `/proc/self/status`.
#[must_use]
pub fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// When the process started, for the startup measurement.
#[cfg(feature = "dev")]
#[derive(Resource)]
struct Started(std::time::Instant);

/// Opens `launch` (or, with `empty_app`, an app with nothing but a camera), prints the
/// time to the first rendered frame and the resident memory after 120 frames, and exits.
///
/// # Errors
/// No display to open a window on.
#[cfg(feature = "dev")]
pub(super) fn measure(launch: super::Launch) -> Result<(), String> {
    let started = Started(std::time::Instant::now());
    let mut app = if launch.empty_app {
        let mut app = App::new();
        app.add_plugins(DefaultPlugins)
            .add_systems(Startup, |mut commands: Commands| {
                commands.spawn(Camera3d::default());
            });
        app
    } else {
        super::app(launch)?
    };
    app.insert_resource(started)
        .add_systems(Last, measure_frames);
    app.run();
    Ok(())
}

#[cfg(feature = "dev")]
fn measure_frames(
    frames: Res<bevy::diagnostic::FrameCount>,
    started: Res<Started>,
    mut exit: MessageWriter<AppExit>,
) {
    // Rendering is pipelined: frame 1's image is drawn while frame 2 runs.
    if frames.0 == 2 {
        println!(
            "first frame: {:.0} ms after start",
            started.0.elapsed().as_secs_f64() * 1000.0
        );
    }
    if frames.0 == 120 {
        println!(
            "resident memory after 120 frames: {} MiB",
            resident_kib().map_or("?".to_string(), |k| (k / 1024).to_string())
        );
        exit.write(AppExit::Success);
    }
}
