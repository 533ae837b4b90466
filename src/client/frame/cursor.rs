//! The keyboard's way around the table, for play without a pointer.
//!
//! - On the two boards (Tank Commander's hexes, Tank Chess's squares) the arrow keys step
//!   a cursor, in the direction they point on screen whichever way the camera is turned,
//!   and Enter picks what is under it as a click would. The games move their own cursors
//!   from the [`CursorStep`]s written here; the arrows pan the camera only where there is
//!   no board (WASD always pans).
//! - F6 (Shift+F6 back) takes the keyboard into the panels: egui's focus goes to the next
//!   button, Tab and the arrows move it on, Enter or Space presses it, and Escape gives the
//!   keys back to the table. While the keyboard is in the panels the table's shortcuts
//!   are off ([`PanelKeyboard`]), so that Enter presses the focused button and nothing
//!   else.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::client::core::ClientSystems;
use crate::client::core::keyboard::{PanelKeyboard, arrows_move_a_cursor, typing};
use crate::client::frame::input::PressOrigin;
use crate::client::table::camera::Rig;

/// The arrows' steps: in every app that plays (headless tests too).
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PanelKeyboard>()
        .init_resource::<Held>()
        .init_resource::<CursorAt>()
        .add_message::<CursorStep>()
        .add_systems(
            Update,
            arrow_steps
                .in_set(ClientSystems::Input)
                .in_set(CursorSystems)
                .run_if(arrows_move_a_cursor.and_then(not(typing))),
        );
}

/// The keyboard into and out of the panels, and the camera kept on the cursor: the
/// windowed client.
pub(crate) fn panels_plugin(app: &mut App) {
    app.add_systems(
        Update,
        keep_cursor_in_view
            .after(ClientSystems::Input)
            .run_if(resource_changed::<CursorAt>),
    )
    .add_systems(
        PreUpdate,
        panel_focus_keys
            .after(bevy_egui::EguiPreUpdateSet::ProcessInput)
            .before(bevy_egui::EguiPreUpdateSet::BeginPass),
    )
    .add_systems(
        PostUpdate,
        note_panel_keyboard.after(bevy_egui::EguiPostUpdateSet::EndPass),
    );
}

/// Where the arrows become [`CursorStep`]s: the games' cursors move after it.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CursorSystems;

/// One step of a board's cursor, asked for with an arrow key: the direction on the table
/// (x east, y south, as the world's x and z) that the key points to on screen.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct CursorStep(pub Vec2);

/// Where the board's cursor stands on the table (its world point), set by the game whose
/// cursor moved: the camera pans to keep it in view.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct CursorAt(pub Option<Vec3>);

/// A cursor stepped out of the middle of the view (or off it) brings the camera round:
/// the view is centred on it, as a pan with WASD would.
fn keep_cursor_in_view(
    at: Res<CursorAt>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    mut rig: ResMut<Rig>,
    mut framing: ResMut<crate::client::table::framing::Framing>,
) {
    let Some(point) = at.0 else { return };
    let Some((camera, eye)) = cameras.iter().next() else {
        return;
    };
    let Some(view) = camera.logical_viewport_size() else {
        return;
    };
    let inside = camera.world_to_viewport(eye, point).is_ok_and(|p| {
        let margin = view * 0.15;
        p.cmpge(margin).all() && p.cmple(view - margin).all()
    });
    if !inside {
        rig.focus = Vec3::new(point.x, rig.focus.y, point.z);
        framing.steered();
    }
}

/// The board cursor's step for the arrows held: one on the press, then, held past
/// [`REPEAT_AFTER`], one every [`REPEAT_EVERY`].
#[derive(Resource, Default, Debug)]
struct Held {
    key: Option<KeyCode>,
    next: f32,
}

const REPEAT_AFTER: f32 = 0.4;
const REPEAT_EVERY: f32 = 0.12;

const ARROWS: [(KeyCode, Vec2); 4] = [
    (KeyCode::ArrowUp, Vec2::new(0.0, 1.0)),
    (KeyCode::ArrowDown, Vec2::new(0.0, -1.0)),
    (KeyCode::ArrowRight, Vec2::new(1.0, 0.0)),
    (KeyCode::ArrowLeft, Vec2::new(-1.0, 0.0)),
];

fn arrow_steps(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    rig: Option<Res<Rig>>,
    mut held: ResMut<Held>,
    mut steps: MessageWriter<CursorStep>,
) {
    if keys.any_pressed([
        KeyCode::ControlLeft,
        KeyCode::ControlRight,
        KeyCode::AltLeft,
        KeyCode::AltRight,
    ]) {
        return;
    }
    let now = time.elapsed_secs();
    let pressed = ARROWS.iter().find(|(k, _)| keys.just_pressed(*k)).copied();
    let step = if let Some((key, on_screen)) = pressed {
        *held = Held {
            key: Some(key),
            next: now + REPEAT_AFTER,
        };
        Some(on_screen)
    } else if let Some(key) = held.key.filter(|k| keys.pressed(*k)) {
        let due = now >= held.next;
        if due {
            held.next = now + REPEAT_EVERY;
        }
        ARROWS
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, d)| *d)
            .filter(|_| due)
    } else {
        held.key = None;
        None
    };
    if let Some(on_screen) = step {
        let yaw = rig.map_or(0.0, |r| r.yaw);
        steps.write(CursorStep(on_table(on_screen, yaw)));
    }
}

/// The direction on the table (world x, z) that a direction on screen (x right, y up)
/// points to, for a camera turned by `yaw`.
#[must_use]
pub fn on_table(on_screen: Vec2, yaw: f32) -> Vec2 {
    let turn = Quat::from_rotation_y(yaw);
    let up = turn * -Vec3::Z;
    let right = turn * Vec3::X;
    let d = up * on_screen.y + right * on_screen.x;
    Vec2::new(d.x, d.z).normalize_or_zero()
}

/// Of the `neighbours` (each with its offset on the table), the one lying most nearly in
/// `direction`, within 60° of it; of two equally near, the one listed last.
#[must_use]
pub fn step_towards<T: Copy>(
    direction: Vec2,
    neighbours: impl IntoIterator<Item = (T, Vec2)>,
) -> Option<T> {
    neighbours
        .into_iter()
        .filter_map(|(n, offset)| {
            let along = offset.normalize_or_zero().dot(direction);
            // Rounded, so that two neighbours equally near the direction tie (the last
            // listed wins).
            (along > 0.5).then_some((n, (along * 1e4).round()))
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(n, _)| n)
}

/// F6 and Shift+F6 move egui's focus as Tab and Shift+Tab do; a focus key arms
/// [`PanelKeyboard`], a press of the pointer disarms it.
pub fn panel_focus_keys(
    mut contexts: Query<&mut bevy_egui::EguiInput>,
    mut panel: ResMut<PanelKeyboard>,
) {
    for mut input in &mut contexts {
        for event in &mut input.0.events {
            match event {
                egui::Event::Key {
                    key: key @ egui::Key::F6,
                    pressed: true,
                    ..
                } => {
                    *key = egui::Key::Tab;
                    panel.armed = true;
                }
                egui::Event::Key {
                    key: egui::Key::Tab,
                    pressed: true,
                    ..
                } => panel.armed = true,
                egui::Event::PointerButton { pressed: true, .. } => panel.armed = false,
                _ => {}
            }
        }
    }
}

/// After the panels are drawn: is the keyboard in them? Panel buttons pressed from the
/// keyboard then count as the panels' own (see [`PressOrigin`]).
fn note_panel_keyboard(
    mut contexts: Query<&mut bevy_egui::EguiContext, With<bevy_egui::PrimaryEguiContext>>,
    mut panel: ResMut<PanelKeyboard>,
    mut origin: ResMut<PressOrigin>,
) {
    let Some(mut ctx) = contexts.iter_mut().next() else {
        return;
    };
    let ctx = ctx.get_mut();
    let focused = ctx.memory(|m| m.focused().is_some()) && !ctx.text_edit_focused();
    let now = PanelKeyboard {
        on: panel.armed && focused,
        armed: panel.armed && focused,
    };
    panel.set_if_neq(now);
    if now.on && !origin.on_panel {
        origin.on_panel = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn up_on_screen_is_north_on_the_table_until_the_camera_turns() {
        let north = on_table(Vec2::Y, 0.0);
        assert!(north.abs_diff_eq(Vec2::new(0.0, -1.0), 1e-5), "{north}");
        let east = on_table(Vec2::X, 0.0);
        assert!(east.abs_diff_eq(Vec2::new(1.0, 0.0), 1e-5), "{east}");
        // The camera turned a quarter to the left: up on screen points west.
        let turned = on_table(Vec2::Y, std::f32::consts::FRAC_PI_2);
        assert!(turned.abs_diff_eq(Vec2::new(-1.0, 0.0), 1e-5), "{turned}");
    }

    #[test]
    fn a_step_goes_to_the_neighbour_nearest_the_direction_and_never_sideways() {
        let around = [
            ('n', Vec2::new(0.0, -1.0)),
            ('e', Vec2::new(1.0, 0.0)),
            ('s', Vec2::new(0.0, 1.0)),
        ];
        assert_eq!(
            step_towards(Vec2::new(0.2, -1.0).normalize(), around),
            Some('n')
        );
        assert_eq!(
            step_towards(Vec2::new(1.0, 0.1).normalize(), around),
            Some('e')
        );
        // Nothing lies west: no step.
        assert_eq!(step_towards(Vec2::new(-1.0, 0.0), around), None);
    }
}
