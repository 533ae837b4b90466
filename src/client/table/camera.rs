//! The camera: an orbit rig around the table, north at the top by default.
//!
//! Mouse: right-drag orbits, middle-drag pans, the wheel zooms. Keys: WASD pans (the
//! arrows too, where there is no board cursor for them to step), Q and E orbit, Z and X
//! zoom, R resets the view, T toggles top-down.

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_pointer_input;

use crate::client::table::graphics::{Antialiasing, Graphics};

/// How the camera looks at the table at start.
#[derive(Resource, Default)]
pub struct View {
    pub top_down: bool,
}

/// The orbit rig: the camera looks at `focus` from `distance`, turned by `yaw` around the
/// vertical and raised by `pitch`.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Rig {
    pub focus: Vec3,
    pub yaw: f32,
    pub pitch: f32,
    pub distance: f32,
    home: (Vec3, f32),
}

const MIN_PITCH: f32 = 0.35;
const MAX_PITCH: f32 = std::f32::consts::FRAC_PI_2;

impl Rig {
    /// The pitch of the opening view, at an angle.
    pub const ANGLED: f32 = 1.03;
    /// The pitch of the top-down view.
    pub const TOP_DOWN: f32 = MAX_PITCH;

    /// A rig looking at `focus` from `distance`, turned by `yaw` and raised by `pitch`.
    #[must_use]
    pub fn looking(focus: Vec3, yaw: f32, pitch: f32, distance: f32) -> Self {
        Self {
            focus,
            yaw,
            pitch,
            distance,
            home: (focus, distance),
        }
    }

    /// Where the camera stands and looks.
    #[must_use]
    pub fn transform(&self) -> Transform {
        let offset = Quat::from_rotation_y(self.yaw)
            * Quat::from_rotation_x(-self.pitch)
            * Vec3::new(0.0, 0.0, self.distance);
        // Looking straight down, keep north (−Z) at the top of the screen.
        let up = if self.pitch > 1.55 {
            Quat::from_rotation_y(self.yaw) * -Vec3::Z
        } else {
            Vec3::Y
        };
        Transform::from_translation(self.focus + offset).looking_at(self.focus, up)
    }

    /// Frames a board: looks at `focus` from `distance` (straight down when `top_down`),
    /// and makes that the reset view.
    pub fn frame_view(&mut self, focus: Vec3, distance: f32, top_down: bool) {
        self.home = (focus, distance);
        self.reset(top_down);
    }

    fn reset(&mut self, top_down: bool) {
        (self.focus, self.distance) = self.home;
        self.yaw = 0.0;
        self.pitch = if top_down {
            Self::TOP_DOWN
        } else {
            Self::ANGLED
        };
    }
}

/// Nothing of the table is drawn (behind the privacy screen): the camera renders no
/// layer, so only the panels cost anything. The menu and the lab hide it too.
#[derive(Resource, Default, Clone, Copy, PartialEq, Eq)]
pub struct TableHidden(pub bool);

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<View>()
        .init_resource::<TableHidden>()
        .add_systems(Startup, spawn_camera)
        .add_systems(
            OnExit(crate::client::core::Screen::Playing),
            |mut hidden: ResMut<TableHidden>| {
                hidden.set_if_neq(TableHidden(false));
            },
        )
        .add_systems(PostUpdate, configure_camera)
        .add_systems(
            Update,
            (
                steer_with_keys.run_if(not(crate::client::core::keyboard::typing)),
                steer_with_mouse.run_if(not(egui_wants_any_pointer_input)),
                apply_rig,
            )
                .chain(),
        );
}

fn spawn_camera(mut commands: Commands) {
    let rig = Rig {
        focus: Vec3::ZERO,
        yaw: 0.0,
        pitch: 1.03,
        distance: 20.0,
        home: (Vec3::ZERO, 20.0),
    };
    commands.spawn((Camera3d::default(), Msaa::Sample4, rig.transform()));
    commands.insert_resource(rig);
}

/// Frames larger than this many pixels are drawn without smoothing.
const MOST_MSAA_PIXELS: u32 = 2560 * 1440;

/// Draws no layer behind the privacy screen and on the screens that are panels only (the
/// menu, the lab), and smooths edges as the player chose ([`Graphics`]; the automatic
/// choice by the renderer, [`Antialiasing::resolve`]) up to 2560 × 1440; above it pixels
/// are small enough that edges show no steps, while 4× multisampling would keep four
/// samples of every one of 3.7 million or more pixels through every pass.
pub(crate) fn configure_camera(
    hidden: Res<TableHidden>,
    screen: Res<State<crate::client::core::Screen>>,
    graphics: Res<Graphics>,
    passes: Res<crate::client::table::graphics::SmoothingPasses>,
    adapter: Option<Res<bevy::render::renderer::RenderAdapterInfo>>,
    mut cameras: Query<
        (
            Entity,
            &Camera,
            &mut Msaa,
            Has<bevy::camera::visibility::RenderLayers>,
            Has<bevy::anti_alias::fxaa::Fxaa>,
            Has<bevy::anti_alias::smaa::Smaa>,
        ),
        With<Camera3d>,
    >,
    mut commands: Commands,
) {
    use crate::client::core::Screen;
    let hide = hidden.0 || matches!(screen.get(), Screen::Menu | Screen::Lab);
    let software = crate::client::table::graphics::software_renderer(adapter.as_deref());
    for (camera, view, mut msaa, layered, fxaa, smaa) in &mut cameras {
        let large = view
            .physical_target_size()
            .is_some_and(|s| s.x.saturating_mul(s.y) > MOST_MSAA_PIXELS);
        let smoothing = (!hide && !large).then_some(graphics.antialiasing.resolve(software));
        msaa.set_if_neq(smoothing.map_or(Msaa::Off, Antialiasing::msaa));
        crate::client::table::graphics::smoothing_components(
            smoothing,
            camera,
            (fxaa, smaa),
            *passes,
            &mut commands,
        );
        if hide && !layered {
            commands
                .entity(camera)
                .insert(bevy::camera::visibility::RenderLayers::none());
        } else if !hide && layered {
            commands
                .entity(camera)
                .remove::<bevy::camera::visibility::RenderLayers>();
        }
    }
}

fn steer_with_keys(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    mut shared: ResMut<Rig>,
    mut framing: ResMut<crate::client::table::framing::Framing>,
    board: Option<Res<State<crate::client::core::GameScreen>>>,
) {
    // A key held for a shortcut (Ctrl+S, Ctrl+Z) never also steers.
    if keys.any_pressed([
        KeyCode::ControlLeft,
        KeyCode::ControlRight,
        KeyCode::SuperLeft,
        KeyCode::SuperRight,
        KeyCode::AltLeft,
        KeyCode::AltRight,
    ]) {
        return;
    }
    // Steered on a copy: the rig changes (and the panels follow) only when a key moved it.
    let mut rig = *shared;
    let dt = time.delta_secs().min(0.1);
    let pan = rig.distance * dt;
    let (fwd, right) = (
        Quat::from_rotation_y(rig.yaw) * -Vec3::Z,
        Quat::from_rotation_y(rig.yaw) * Vec3::X,
    );
    // On a board the arrows step its cursor (see `cursor`); WASD pans everywhere.
    let arrows = !crate::client::core::keyboard::arrows_move_a_cursor(board);
    let pressed = |a: KeyCode, b: KeyCode| keys.pressed(a) || (arrows && keys.pressed(b));
    let mut focus = rig.focus;
    if pressed(KeyCode::KeyW, KeyCode::ArrowUp) {
        focus += fwd * pan;
    }
    if pressed(KeyCode::KeyS, KeyCode::ArrowDown) {
        focus -= fwd * pan;
    }
    if pressed(KeyCode::KeyD, KeyCode::ArrowRight) {
        focus += right * pan;
    }
    if pressed(KeyCode::KeyA, KeyCode::ArrowLeft) {
        focus -= right * pan;
    }
    rig.focus = focus;
    if keys.pressed(KeyCode::KeyQ) {
        rig.yaw += 1.5 * dt;
    }
    if keys.pressed(KeyCode::KeyE) {
        rig.yaw -= 1.5 * dt;
    }
    if keys.pressed(KeyCode::KeyZ) {
        rig.distance *= 1.0 - dt;
    }
    if keys.pressed(KeyCode::KeyX) {
        rig.distance *= 1.0 + dt;
    }
    if rig != *shared {
        framing.steered();
    }
    if keys.just_pressed(KeyCode::KeyR) {
        rig.reset(false);
        framing.reset(false);
    }
    if keys.just_pressed(KeyCode::KeyT) {
        let down = rig.pitch <= 1.5;
        rig.pitch = if down { MAX_PITCH } else { Rig::ANGLED };
        framing.reset(down);
    }
    shared.set_if_neq(rig);
}

fn steer_with_mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    mut rig: ResMut<Rig>,
    mut framing: ResMut<crate::client::table::framing::Framing>,
) {
    let steered = (buttons.any_pressed([MouseButton::Right, MouseButton::Middle])
        && motion.delta != Vec2::ZERO)
        || scroll.delta.y != 0.0;
    if steered {
        framing.steered();
    }
    let d = motion.delta;
    if buttons.pressed(MouseButton::Right) {
        rig.yaw -= d.x * 0.005;
        rig.pitch += d.y * 0.005;
    }
    if buttons.pressed(MouseButton::Middle) {
        let scale = rig.distance * 0.0015;
        let (fwd, right) = (
            Quat::from_rotation_y(rig.yaw) * -Vec3::Z,
            Quat::from_rotation_y(rig.yaw) * Vec3::X,
        );
        rig.focus += (fwd * d.y - right * d.x) * scale;
    }
    if scroll.delta.y != 0.0 {
        rig.distance *= 1.0 - scroll.delta.y.clamp(-3.0, 3.0) * 0.08;
    }
}

/// Keeps the rig within sensible limits and moves the camera.
fn apply_rig(mut shared: ResMut<Rig>, mut camera: Single<&mut Transform, With<Camera3d>>) {
    let mut rig = *shared;
    let home = rig.home;
    rig.pitch = rig.pitch.clamp(MIN_PITCH, MAX_PITCH);
    rig.distance = rig.distance.clamp(home.1 * 0.15, home.1 * 2.5);
    let reach = home.1 * 0.8;
    rig.focus = home.0 + (rig.focus - home.0).clamp_length_max(reach);
    rig.focus.y = 0.0;
    shared.set_if_neq(rig);
    camera.set_if_neq(rig.transform());
}
