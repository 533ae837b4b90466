//! The pointer finds squares by geometry: a ray from the camera meets the obstacles' tops,
//! then the pieces', then the board, and the square there is the one under the pointer.
//! The board and the pieces are drawn as a few merged meshes (see `board`), so there is no
//! mesh per square or piece to ray-cast.

use bevy::picking::PickingSystems;
use bevy::picking::backend::PointerHits;
use bevy::picking::backend::ray::RayMap;
use bevy::prelude::*;

use super::table::{SquareIndex, top_of};
use crate::client::core::session::Session;
use crate::rules::tank_chess::TankChess;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        pick_squares
            .in_set(PickingSystems::Backend)
            .run_if(resource_exists::<Session<TankChess>>),
    );
}

/// The square under each pointer, reported as a picking hit.
fn pick_squares(
    rays: Res<RayMap>,
    cameras: Query<&Camera>,
    index: Res<SquareIndex>,
    session: Res<Session<TankChess>>,
    mut hits: MessageWriter<PointerHits>,
) {
    let game = session.state();
    crate::client::frame::input::report_board_hits(&rays, &cameras, &mut hits, |ray| {
        index.under(ray, |sq| top_of(game.cell(sq)))
    });
}
