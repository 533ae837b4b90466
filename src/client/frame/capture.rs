//! Screenshots: F12 saves one to the screenshots folder; a preview (and a test) saves one
//! at a given frame, then exits.

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

pub(crate) fn plugin(app: &mut App) {
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
    let path = crate::client::core::session::data_dir()
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
