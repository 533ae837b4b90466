//! What the games' scenes share: short-lived effects (tracers, flashes, smoke) that grow
//! and fade, the banner that calls out a moment of the game, the tank model, and the
//! timeline that plays a game's facts one after another while the table shows the state
//! as it was before them.

use bevy::light::PointLightShadowMap;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::client::core::session::{FactsPlayed, GameClient, SkipAnimations};
use crate::client::core::{ClientSystems, HudSystems, Screen};
use crate::client::table::theme;

pub(crate) fn plugin(app: &mut App) {
    // One shadow cascade of 1024² texels covers a tabletop: the default four of 2048² cost
    // 64 MiB of memory (in RAM, under software rendering) for detail nobody sees.
    app.insert_resource(bevy::light::DirectionalLightShadowMap { size: 1024 })
        .insert_resource(PointLightShadowMap {
            size: UNUSED_POINT_SHADOWS,
        })
        .init_resource::<Callout>()
        .add_systems(OnEnter(Screen::Playing), |mut c: ResMut<Callout>| {
            c.text = None;
        })
        .add_systems(
            Update,
            fade.in_set(ClientSystems::Scene)
                .run_if(in_state(Screen::Playing)),
        )
        .add_systems(PostUpdate, size_point_shadows)
        .add_systems(
            EguiPrimaryContextPass,
            draw_callout
                .in_set(HudSystems::Game)
                .run_if(in_state(Screen::Playing))
                .run_if(not(resource_exists::<crate::client::core::Clean>)),
        );
}

/// The light over every table: a sun with one shadow cascade, far enough to cover the
/// largest board seen from the camera.
pub fn table_light(illuminance: f32) -> impl Bundle {
    (
        DirectionalLight {
            illuminance,
            shadow_maps_enabled: true,
            ..default()
        },
        bevy::light::CascadeShadowConfigBuilder {
            num_cascades: 1,
            minimum_distance: 0.1,
            maximum_distance: 150.0,
            ..default()
        }
        .build(),
    )
}

/// The side of each face of the point lights' shadow cube map while no point light casts
/// shadows. Bevy makes that map, six faces of `PointLightShadowMap::size`² depth texels,
/// for every lit view whether a light uses it or not, binds it to every lit mesh, and so
/// clears it on the first frame: at its default of 1024 it is 24 MiB, which software
/// rendering keeps in RAM. The night tables' lamps light without shadows.
const UNUSED_POINT_SHADOWS: usize = 1;

/// The side of each face when a point light does cast shadows: Bevy's default.
const POINT_SHADOWS: usize = 1024;

/// Gives the point lights' shadow map its full size only while some point light casts
/// shadows.
fn size_point_shadows(lights: Query<&PointLight>, mut map: ResMut<PointLightShadowMap>) {
    let size = if lights.iter().any(|light| light.shadow_maps_enabled) {
        POINT_SHADOWS
    } else {
        UNUSED_POINT_SHADOWS
    };
    if map.size != size {
        map.size = size;
    }
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
    let left = callout.until - time.elapsed_secs();
    if left <= 0.0 {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    ctx.request_repaint_after_secs(left);
    // Under the banner, never over it.
    let below = ctx
        .memory(|m| m.area_rect(crate::client::table::framing::window_id("banner")))
        .map_or(120.0, |r| r.bottom() + 10.0);
    egui::Window::new("callout")
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [-20.0, below])
        .frame(egui::Frame::window(&ctx.global_style()).fill(theme::CALLOUT_FILL))
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
            turret: meshes.add(crate::client::table::shapes::cylinder(0.27, 0.23)),
            barrel: meshes.add(crate::client::table::shapes::cylinder(0.05, 0.9)),
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

/// A scene's animations, each at its start time, played one after another.
#[derive(Resource)]
pub struct Timeline<A: Send + Sync + 'static> {
    cursor: f32,
    queue: std::collections::VecDeque<(f32, A)>,
}

impl<A: Send + Sync + 'static> Default for Timeline<A> {
    fn default() -> Self {
        Self {
            cursor: 0.0,
            queue: std::collections::VecDeque::new(),
        }
    }
}

impl<A: Send + Sync + 'static> Timeline<A> {
    /// Queues `item` to start once what is queued has played; it lasts `seconds`.
    /// Returns its start time.
    pub fn push(&mut self, now: f32, seconds: f32, item: A) -> f32 {
        let start = self.cursor.max(now);
        self.cursor = start + seconds;
        self.queue.push_back((start, item));
        start
    }

    /// The items whose time has come, in order.
    pub fn due(&mut self, now: f32) -> Vec<(f32, A)> {
        let mut out = Vec::new();
        while self.queue.front().is_some_and(|(t, _)| *t <= now) {
            out.extend(self.queue.pop_front());
        }
        out
    }

    /// Everything still queued (to snap to the end when skipping), leaving it empty.
    pub fn drain(&mut self, now: f32) -> Vec<A> {
        self.cursor = now;
        self.queue.drain(..).map(|(_, a)| a).collect()
    }
}

/// What a scene does with the orders' results each frame: queues the animation of every
/// fact (`anim_of`) with the time the game gives it, then `settle` with the state after
/// the action, so the scene shows that state once the animations have played. Returns
/// true when the scene must instead redraw from the state now: the match jumped (undo, a
/// replay step, a new match) or the animations were skipped.
pub fn queue_played<G: GameClient, A: Send + Sync + 'static>(
    played: &mut MessageReader<FactsPlayed<G>>,
    skips: &mut MessageReader<SkipAnimations>,
    timeline: &mut Timeline<A>,
    game: &G,
    now: f32,
    anim_of: impl Fn(&G, &G::Fact) -> Option<A>,
    settle: impl Fn(G) -> A,
) -> bool {
    let mut redraw = false;
    for p in played.read() {
        if p.jumped {
            redraw = true;
            continue;
        }
        for f in &p.facts {
            if let Some(anim) = anim_of(game, f) {
                timeline.push(now, game.fact_seconds(f), anim);
            }
        }
        timeline.push(now, 0.0, settle(game.clone()));
    }
    if skips.read().count() > 0 && !timeline.drain(now).is_empty() {
        redraw = true;
    }
    if redraw {
        timeline.drain(now);
    }
    redraw
}

/// The state as the table shows it: it lags the rules until the animations have played,
/// so that labels do not tell the result before the dice land.
#[derive(Resource, Clone)]
pub struct Shown<G: GameClient>(pub G);

/// Forgets what the table showed of game `G` (leaving it).
pub fn forget_shown<G: GameClient>(mut commands: Commands) {
    commands.remove_resource::<Shown<G>>();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_point_shadow_map_is_full_size_only_while_a_point_light_casts_shadows() {
        let mut app = App::new();
        app.insert_resource(PointLightShadowMap {
            size: UNUSED_POINT_SHADOWS,
        })
        .add_systems(Update, size_point_shadows);
        let size = |app: &App| app.world().resource::<PointLightShadowMap>().size;

        let lamp = app
            .world_mut()
            .spawn(PointLight {
                shadow_maps_enabled: false,
                ..default()
            })
            .id();
        app.update();
        assert_eq!(size(&app), UNUSED_POINT_SHADOWS);

        app.world_mut()
            .get_mut::<PointLight>(lamp)
            .unwrap()
            .shadow_maps_enabled = true;
        app.update();
        assert_eq!(size(&app), POINT_SHADOWS);

        app.world_mut().despawn(lamp);
        app.update();
        assert_eq!(size(&app), UNUSED_POINT_SHADOWS);
    }
}
