//! Scripted capture: save a screenshot once the table is drawn, then exit.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

/// Where to save the screenshot.
#[derive(Resource)]
pub struct CaptureTo(pub PathBuf);

#[derive(Resource, Default)]
struct Frames(u32);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Frames>().add_systems(Update, capture);
}

/// Frames to wait so that shadows and egui have settled under a software renderer.
const SHOOT_AT: u32 = 20;
const EXIT_AT: u32 = 50;

fn capture(
    mut commands: Commands,
    mut frames: ResMut<Frames>,
    to: Res<CaptureTo>,
    mut exit: MessageWriter<AppExit>,
) {
    frames.0 += 1;
    if frames.0 == SHOOT_AT {
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(to.0.clone()));
    }
    if frames.0 >= EXIT_AT && (to.0.exists() || frames.0 > EXIT_AT * 4) {
        exit.write(AppExit::Success);
    }
}
