//! What the three table scenes share: short-lived effects (tracers, flashes, smoke) that
//! grow and fade, the banner that calls out a moment of the game, and the tank model.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::Screen;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Callout>()
        .add_systems(OnEnter(Screen::Table), |mut c: ResMut<Callout>| {
            c.text = None;
        })
        .add_systems(Update, fade.run_if(in_state(Screen::Table)))
        .add_systems(
            EguiPrimaryContextPass,
            draw_callout
                .run_if(in_state(Screen::Table))
                .run_if(not(resource_exists::<super::Clean>)),
        );
}

/// A short-lived effect: it appears at `born`, grows to `grow` times its size (when
/// growing), rises `rise` units a second, and is gone after `life` seconds.
#[derive(Component, Clone, Copy, Debug)]
pub struct Effect {
    pub born: f32,
    pub life: f32,
    pub grow: f32,
    pub rise: f32,
}

impl Effect {
    /// An effect that only lasts.
    #[must_use]
    pub fn lasting(born: f32, life: f32) -> Self {
        Self {
            born,
            life,
            grow: 0.0,
            rise: 0.0,
        }
    }

    /// An effect that grows to `grow` times its size.
    #[must_use]
    pub fn growing(born: f32, life: f32, grow: f32) -> Self {
        Self {
            born,
            life,
            grow,
            rise: 0.0,
        }
    }
}

fn fade(
    mut commands: Commands,
    mut effects: Query<(Entity, &Effect, &mut Transform)>,
    time: Res<Time>,
) {
    let now = time.elapsed_secs();
    for (e, fx, mut tf) in &mut effects {
        let age = now - fx.born;
        if age > fx.life {
            commands.entity(e).despawn();
        } else if age >= 0.0 && fx.grow > 0.0 {
            tf.scale = Vec3::splat((age / fx.life * fx.grow).max(0.01));
            tf.translation.y += fx.rise * time.delta_secs();
        }
    }
}

/// The banner that calls out a moment: WAR!, a Meganuke, Adrenaline, the reveal.
#[derive(Resource, Default, Debug)]
pub struct Callout {
    pub text: Option<(String, egui::Color32)>,
    pub until: f32,
}

impl Callout {
    /// Shows `text` from `start` for `seconds`.
    pub fn show(
        &mut self,
        text: impl Into<String>,
        color: egui::Color32,
        start: f32,
        seconds: f32,
    ) {
        self.text = Some((text.into(), color));
        self.until = start + seconds;
    }
}

fn draw_callout(mut contexts: EguiContexts, callout: Res<Callout>, time: Res<Time>) -> Result {
    let Some((text, color)) = &callout.text else {
        return Ok(());
    };
    if time.elapsed_secs() >= callout.until {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("callout")
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [-150.0, 90.0])
        .frame(egui::Frame::window(&ctx.global_style()).fill(egui::Color32::from_rgb(32, 28, 20)))
        .show(ctx, |ui| {
            for (i, line) in text.lines().enumerate() {
                let size = if i == 0 { 22.0 } else { 15.0 };
                ui.label(egui::RichText::new(line).size(size).strong().color(*color));
            }
        });
    Ok(())
}

/// Meshes for the tank model of the table scenes.
pub struct TankMeshes {
    pub hull: Handle<Mesh>,
    pub track: Handle<Mesh>,
    pub turret: Handle<Mesh>,
    pub barrel: Handle<Mesh>,
}

impl TankMeshes {
    /// Makes the meshes.
    pub fn new(meshes: &mut Assets<Mesh>) -> Self {
        Self {
            hull: meshes.add(Cuboid::new(0.78, 0.31, 1.12)),
            track: meshes.add(Cuboid::new(0.17, 0.27, 1.22)),
            turret: meshes.add(Cylinder::new(0.27, 0.23)),
            barrel: meshes.add(Cylinder::new(0.05, 0.9)),
        }
    }
}

/// Spawns a tank facing −Z as children of `parent`: hull, tracks, and a turret pivot
/// carrying `turret_marker`, with the turret and its gun.
pub fn spawn_tank(
    parent: &mut ChildSpawnerCommands,
    meshes: &TankMeshes,
    paint: &Handle<StandardMaterial>,
    dark: &Handle<StandardMaterial>,
    turret_marker: impl Bundle,
) {
    parent.spawn((
        Mesh3d(meshes.hull.clone()),
        MeshMaterial3d(paint.clone()),
        Transform::from_xyz(0.0, 0.31, 0.0),
    ));
    for side in [-0.44, 0.44] {
        parent.spawn((
            Mesh3d(meshes.track.clone()),
            MeshMaterial3d(dark.clone()),
            Transform::from_xyz(side, 0.16, 0.0),
        ));
    }
    parent
        .spawn((
            turret_marker,
            Transform::from_xyz(0.0, 0.57, 0.05),
            Visibility::default(),
        ))
        .with_children(|t| {
            t.spawn((Mesh3d(meshes.turret.clone()), MeshMaterial3d(paint.clone())));
            t.spawn((
                Mesh3d(meshes.barrel.clone()),
                MeshMaterial3d(dark.clone()),
                Transform::from_xyz(0.0, 0.02, -0.6)
                    .with_rotation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)),
            ));
        });
}
