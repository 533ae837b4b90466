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
