//! The camera: looking at the table from the south, north at the top of the screen.

use bevy::prelude::*;

use super::Table;

/// How the camera looks at the table.
#[derive(Resource, Default)]
pub struct View {
    pub top_down: bool,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<View>()
        .add_systems(Startup, spawn_camera);
}

fn spawn_camera(mut commands: Commands, table: Res<Table>, view: Res<View>) {
    let board = table.battle().board();
    let centre = Vec3::new(
        f32::from(board.width) * 0.75 - 0.75,
        0.0,
        f32::from(board.height) * 0.87 - 0.4,
    );
    // Fit the longer side of the board; look a little left of centre so the board sits to
    // the right of the panel.
    let span = (f32::from(board.width) * 1.5).max(f32::from(board.height) * 1.73);
    let aim = centre + Vec3::new(-span * 0.12, 0.0, span * 0.07);
    let eye = if view.top_down {
        // Straight down with north at the top of the image: screen "up" is −Z.
        let aim = centre + Vec3::new(-span * 0.16, 0.0, 0.0);
        Transform::from_translation(aim + Vec3::Y * span * 1.4).looking_at(aim, -Vec3::Z)
    } else {
        Transform::from_translation(aim + Vec3::new(0.0, span * 1.05, span * 0.62))
            .looking_at(aim, Vec3::Y)
    };
    commands.spawn((Camera3d::default(), eye));
}
