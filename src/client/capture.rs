//! Screenshots: F12 saves one to the screenshots folder; a preview (and a test) saves one
//! at a given frame, then exits. With the `dev` feature, startup time and resident
//! memory can be measured beside an empty Bevy app.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bevy::prelude::*;
use bevy::render::render_resource::PipelineCache;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::render::{Render, RenderApp, RenderSystems};

/// Save a screenshot here at `frame`, then exit if `exit`.
#[derive(Resource, Clone, Debug)]
pub struct CaptureTo {
    pub path: PathBuf,
    /// The first frame to take it at, once every render pipeline has compiled (software
    /// rendering runs at a few frames a second).
    pub frame: u32,
    pub exit: bool,
}

#[derive(Resource, Default)]
struct Frames {
    count: u32,
    /// The frame the screenshot was asked at.
    taken: Option<u32>,
    /// Frames in a row with every render pipeline compiled.
    settled: u32,
}

/// Whether the render world has compiled every pipeline asked for: pipelines compile in
/// the background, and a mesh whose pipeline is not ready is not drawn (under software
/// rendering on a busy machine that can take many frames).
#[derive(Resource, Clone, Default)]
struct PipelinesReady(Arc<AtomicBool>);

pub(super) fn plugin(app: &mut App) {
    let ready = PipelinesReady::default();
    app.init_resource::<Frames>()
        .insert_resource(ready.clone())
        .add_systems(Update, (capture, screenshot_key));
    if let Some(render) = app.get_sub_app_mut(RenderApp) {
        render
            .insert_resource(ready)
            .add_systems(Render, note_pipelines.in_set(RenderSystems::Cleanup));
    } else {
        ready.0.store(true, Ordering::Relaxed);
    }
}

fn note_pipelines(cache: Res<PipelineCache>, ready: Res<PipelinesReady>) {
    ready.0.store(
        cache.waiting_pipelines().next().is_none(),
        Ordering::Relaxed,
    );
}

/// Frames to wait after the screenshot for it to be written.
const WRITE_FRAMES: u32 = 30;

/// Frames in a row with every pipeline ready before a screenshot is taken.
const SETTLED_FRAMES: u32 = 3;

/// At most this many frames past the one asked for are spent waiting for pipelines.
const MAX_WAIT_FRAMES: u32 = 600;

fn capture(
    mut commands: Commands,
    mut frames: ResMut<Frames>,
    ready: Res<PipelinesReady>,
    to: Option<Res<CaptureTo>>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(to) = to else { return };
    frames.count += 1;
    if ready.0.load(Ordering::Relaxed) {
        frames.settled += 1;
    } else {
        frames.settled = 0;
    }
    let now = frames.count;
    if frames.taken.is_none()
        && now >= to.frame
        && (frames.settled >= SETTLED_FRAMES || now >= to.frame + MAX_WAIT_FRAMES)
    {
        frames.taken = Some(now);
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(to.path.clone()));
    }
    let Some(taken) = frames.taken else { return };
    let done = taken + WRITE_FRAMES;
    if to.exit && now >= done && (to.path.exists() || now > done * 4) {
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
    status_kib("VmRSS:")
}

/// A line of `/proc/self/status` in KiB (`VmRSS:`, `VmHWM:` …).
#[must_use]
pub fn status_kib(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
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
