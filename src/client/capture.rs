//! Scripted capture: save a screenshot once the table is drawn, then exit.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

/// Where to save the screenshot.
#[derive(Resource)]
pub struct CaptureTo {
    pub path: PathBuf,
    /// The frame to take it at (software rendering runs at a few frames a second).
    pub frame: u32,
}

#[derive(Resource, Default)]
struct Frames(u32);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Frames>().add_systems(Update, capture);
}

/// Frames to wait after the screenshot for it to be written.
const WRITE_FRAMES: u32 = 30;

fn capture(
    mut commands: Commands,
    mut frames: ResMut<Frames>,
    to: Res<CaptureTo>,
    mut exit: MessageWriter<AppExit>,
) {
    frames.0 += 1;
    if frames.0 == to.frame {
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(to.path.clone()));
    }
    let done = to.frame + WRITE_FRAMES;
    if frames.0 >= done && (to.path.exists() || frames.0 > done * 4) {
        exit.write(AppExit::Success);
    }
}

/// Startup measurement: when the process started.
#[derive(Resource)]
pub struct Measure {
    pub started: std::time::Instant,
}

/// Prints the time to the first rendered frame, and the resident memory once the table
/// has settled, then exits.
pub fn measure_plugin(app: &mut App) {
    app.add_systems(Last, measure);
}

/// Resident memory of this process in KiB, from `/proc/self/status`.
#[must_use]
pub fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn measure(
    frames: Res<bevy::diagnostic::FrameCount>,
    measure: Res<Measure>,
    mut exit: MessageWriter<AppExit>,
) {
    // Rendering is pipelined: frame 1's image is drawn while frame 2 runs.
    if frames.0 == 2 {
        println!(
            "first frame: {:.0} ms after start",
            measure.started.elapsed().as_secs_f64() * 1000.0
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
