//! The Battle Tanks table in 3D: the felt table, the Battlefield and a plate at each seat,
//! the dice in the arsenals and on the Battlefield, and the labels drawn over it (each
//! commander's arsenal and declaration, each die's value).

use std::f32::consts::{PI, TAU};

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::anims::{Anim, Flight, anim_of};
use super::panels::battle_window;
use crate::client::core::GameScreen;
use crate::client::core::session::{FactsPlayed, Session, SkipAnimations};
use crate::client::frame::hud::label_box;
use crate::client::table::effects::{Callout, Shown, Timeline, queue_played};
use crate::client::table::theme::{self, seat_color, seat_color_3d};
use crate::framework::{Game, PlayerId};
use crate::rules::battle_tanks::{BattleTanks, Commander, Declaration, DieKind, Phase};

#[derive(Component)]
pub(super) struct Fixture;

/// A die drawn from the shown state: in an arsenal, or on the Battlefield.
#[derive(Component)]
pub(super) struct ShownDie {
    pub(super) owner: Option<PlayerId>,
    pub(super) kind: DieKind,
    pub(super) on_battlefield: bool,
}

/// Meshes and materials for dice, made once per table.
#[derive(Resource, Clone)]
pub(super) struct DiceAssets {
    /// Every die as one mesh, its cube and its 21 pips painted in their colours
    /// (`shapes::Palette`) and drawn with `tinted`: a Tank die of each seat's colour,
    /// then a Free die, then a Nuke die (its red pips glow). A die is one entity.
    dice: Vec<Handle<Mesh>>,
    tinted: Handle<StandardMaterial>,
    ring: Handle<Mesh>,
    gold: Handle<StandardMaterial>,
    /// The table's fixtures, made once: a redraw after every action reuses them.
    table: Handle<Mesh>,
    felt: Handle<StandardMaterial>,
    battlefield: Handle<Mesh>,
    battlefield_wood: Handle<StandardMaterial>,
    plate: Handle<Mesh>,
    plates: Vec<Handle<StandardMaterial>>,
    pub(super) blast: Handle<Mesh>,
    pub(super) blast_fire: Handle<StandardMaterial>,
}

/// The pips of every face of a unit die, one mesh.
fn pips_mesh() -> Mesh {
    let pip = crate::client::table::shapes::cylinder(0.09, 0.04);
    let mut all: Option<Mesh> = None;
    for face in 1..=6u8 {
        let n = face_normal(face);
        let (u, v) = n.any_orthonormal_pair();
        for (a, b) in pips(face) {
            let one = pip.clone().transformed_by(
                Transform::from_translation(n * 0.5 + u * *a + v * *b)
                    .with_rotation(Quat::from_rotation_arc(Vec3::Y, n)),
            );
            match &mut all {
                None => all = Some(one),
                // The same shape, so the same attributes: merging cannot fail.
                Some(mesh) => mesh.merge(&one).expect("pips share their attributes"),
            }
        }
    }
    all.unwrap_or(pip)
}

const TABLE_RADIUS: f32 = 7.0;
pub(super) const SEAT_RADIUS: f32 = 5.6;

/// The angle of a seat around the table: seat 1 nearest the camera.
fn seat_angle(player: PlayerId, seats: usize) -> f32 {
    TAU * f32::from(player.0) / seats.max(1) as f32
}

/// A point at `radius` from the middle of the table, towards `player`'s seat.
pub(super) fn seat_point(player: PlayerId, seats: usize, radius: f32) -> Vec3 {
    let a = seat_angle(player, seats);
    Vec3::new(a.sin(), 0.0, a.cos()) * radius
}

/// Size of a die of `kind`.
pub(super) fn die_size(kind: DieKind) -> f32 {
    match kind {
        DieKind::Nuke => 0.5,
        DieKind::Tank | DieKind::Free => 0.34,
    }
}

/// Where the `i`th die of an arsenal sits: rows in front of the seat, tangent to the table.
fn arsenal_spot(player: PlayerId, seats: usize, i: usize) -> Vec3 {
    let a = seat_angle(player, seats);
    let out = Vec3::new(a.sin(), 0.0, a.cos());
    let along = Vec3::new(a.cos(), 0.0, -a.sin());
    let per_row = 10;
    let (row, col) = (i / per_row, i % per_row);
    let x = (col as f32 - (per_row as f32 - 1.0) / 2.0) * 0.42;
    SEAT_RADIUS * out + along * x - out * (row as f32 * 0.45)
}

/// Where the `i`th die of the Battlefield lands.
pub(super) fn battlefield_spot(i: usize) -> Vec3 {
    // A sunflower spiral: evenly spread, however many dice.
    let golden = PI * (3.0 - 5f32.sqrt());
    let r = 0.55 * (i as f32 + 0.6).sqrt();
    let a = i as f32 * golden;
    Vec3::new(r * a.cos(), 0.0, r * a.sin())
}

/// The outward normal of a die face: opposite faces add up to seven.
fn face_normal(face: u8) -> Vec3 {
    match face {
        1 => Vec3::Y,
        6 => Vec3::NEG_Y,
        2 => Vec3::X,
        5 => Vec3::NEG_X,
        3 => Vec3::Z,
        _ => Vec3::NEG_Z,
    }
}

/// Pip offsets on a face, in the face's own two axes (units of the die's size).
fn pips(face: u8) -> &'static [(f32, f32)] {
    const Q: f32 = 0.25;
    match face {
        1 => &[(0.0, 0.0)],
        2 => &[(-Q, -Q), (Q, Q)],
        3 => &[(-Q, -Q), (0.0, 0.0), (Q, Q)],
        4 => &[(-Q, -Q), (Q, Q), (-Q, Q), (Q, -Q)],
        5 => &[(-Q, -Q), (Q, Q), (-Q, Q), (Q, -Q), (0.0, 0.0)],
        _ => &[(-Q, -Q), (Q, Q), (-Q, Q), (Q, -Q), (-Q, 0.0), (Q, 0.0)],
    }
}

/// The rotation that puts `face` on top, turned by a yaw of its own.
pub(super) fn showing(face: u8, yaw: f32) -> Quat {
    Quat::from_rotation_y(yaw) * Quat::from_rotation_arc(face_normal(face), Vec3::Y)
}

/// Spawns a die of `kind` owned by `owner`, as one entity.
pub(super) fn spawn_die(
    commands: &mut Commands,
    assets: &DiceAssets,
    owner: Option<PlayerId>,
    kind: DieKind,
    at: Transform,
    extra: impl Bundle,
) -> Entity {
    commands
        .spawn((
            DespawnOnExit(GameScreen::BattleTanks),
            Mesh3d(assets.die(owner, kind).clone()),
            MeshMaterial3d(assets.tinted.clone()),
            at.with_scale(Vec3::splat(die_size(kind))),
            extra,
        ))
        .id()
}

impl DiceAssets {
    /// The mesh of a die of `kind` owned by `owner`.
    fn die(&self, owner: Option<PlayerId>, kind: DieKind) -> &Handle<Mesh> {
        let seats = self.dice.len() - 2;
        match (kind, owner) {
            (DieKind::Nuke, _) => &self.dice[seats + 1],
            (DieKind::Tank, Some(p)) => &self.dice[p.index() % seats],
            (DieKind::Free, _) | (DieKind::Tank, None) => &self.dice[seats],
        }
    }
}

/// A yaw for a die that stays the same between redraws.
pub(super) fn die_yaw(seed: u32) -> f32 {
    (seed.wrapping_mul(2_654_435_761) % 628) as f32 / 100.0
}

/// Spawns the dice of `game`: each arsenal's in front of its seat, and the Battlefield's
/// with a gold ring under each die at War.
pub(super) fn draw_dice(commands: &mut Commands, assets: &DiceAssets, game: &BattleTanks) {
    let n = game.player_count();
    for (i, c) in game.players().iter().enumerate() {
        let Ok(seat) = u8::try_from(i) else { continue };
        let p = PlayerId(seat);
        let kinds = std::iter::repeat_n(DieKind::Nuke, c.nukes as usize)
            .chain(std::iter::repeat_n(DieKind::Tank, c.tanks as usize));
        for (k, kind) in kinds.enumerate() {
            let at = arsenal_spot(p, n, k) + Vec3::Y * die_size(kind) / 2.0;
            let yaw = seat_angle(p, n);
            spawn_die(
                commands,
                assets,
                Some(p),
                kind,
                Transform::from_translation(at).with_rotation(showing(6, yaw)),
                ShownDie {
                    owner: Some(p),
                    kind,
                    on_battlefield: false,
                },
            );
        }
    }
    for (i, d) in game.battlefield().iter().enumerate() {
        let at = battlefield_spot(i) + Vec3::Y * die_size(d.kind) / 2.0;
        spawn_die(
            commands,
            assets,
            Some(d.owner),
            d.kind,
            Transform::from_translation(at).with_rotation(showing(d.face, die_yaw(d.id))),
            ShownDie {
                owner: Some(d.owner),
                kind: d.kind,
                on_battlefield: true,
            },
        );
        if d.at_war {
            commands.spawn((
                DespawnOnExit(GameScreen::BattleTanks),
                ShownDie {
                    owner: None,
                    kind: d.kind,
                    on_battlefield: true,
                },
                Mesh3d(assets.ring.clone()),
                MeshMaterial3d(assets.gold.clone()),
                Transform::from_translation(battlefield_spot(i) + Vec3::Y * 0.01)
                    .with_rotation(Quat::from_rotation_x(-PI / 2.0)),
            ));
        }
    }
}

/// The dice's and the table's meshes and materials.
fn dice_assets(
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    images: &mut Assets<Image>,
) -> DiceAssets {
    let (cube, pips) = (Mesh::from(Cuboid::new(1.0, 1.0, 1.0)), pips_mesh());
    // Lighter than the seat colour so the black pips read.
    let seats: Vec<Color> = (0..8u8)
        .map(|i| {
            let c = seat_color_3d(PlayerId(i)).to_srgba();
            Color::srgb(
                0.45 + c.red * 0.55,
                0.45 + c.green * 0.55,
                0.45 + c.blue * 0.55,
            )
        })
        .collect();
    let (free, black) = (theme::DIE_FREE, theme::DIE_PIPS);
    let (nuke, red) = (theme::DIE_NUKE, theme::NUKE_PIPS);
    let palette = crate::client::table::shapes::Palette::new(
        seats.iter().copied().chain([free, black, nuke]),
    )
    .glowing(red, theme::NUKE_PIPS_GLOW);
    let dice = seats
        .iter()
        .map(|body| (*body, black))
        .chain([(free, black), (nuke, red)])
        .map(|(body, pip)| {
            meshes.add(crate::client::table::shapes::merged([
                palette.paint(cube.clone(), body),
                palette.paint(pips.clone(), pip),
            ]))
        })
        .collect();
    let tinted = materials.add(palette.material(images));
    DiceAssets {
        dice,
        tinted,
        ring: meshes.add(Annulus::new(0.24, 0.3)),
        gold: materials.add(StandardMaterial {
            base_color: theme::WAR_RING,
            emissive: theme::WAR_RING_GLOW,
            ..default()
        }),
        table: meshes.add(Cylinder::new(TABLE_RADIUS, 0.2)),
        felt: materials.add(StandardMaterial {
            base_color: theme::FELT,
            perceptual_roughness: 0.95,
            ..default()
        }),
        battlefield: meshes.add(Circle::new(2.9)),
        battlefield_wood: materials.add(StandardMaterial {
            base_color: theme::BATTLEFIELD_WOOD,
            perceptual_roughness: 0.9,
            ..default()
        }),
        plate: meshes.add(Cuboid::new(4.4, 0.02, 1.5)),
        plates: (0..8u8)
            .map(|i| {
                materials.add(StandardMaterial {
                    base_color: seat_color_3d(PlayerId(i)).darker(0.25),
                    perceptual_roughness: 0.9,
                    ..default()
                })
            })
            .collect(),
        blast: meshes.add(crate::client::table::shapes::sphere(1.0)),
        blast_fire: materials.add(StandardMaterial {
            base_color: theme::BLAST,
            emissive: theme::BLAST_GLOW,
            ..default()
        }),
    }
}

/// Queues the facts just played as animations; when the state was replaced instead
/// (a new game, undo, a replay step), draws the table afresh from it.
pub(super) fn redraw(
    mut commands: Commands,
    mut played: MessageReader<FactsPlayed<BattleTanks>>,
    mut skips: MessageReader<SkipAnimations>,
    table: Res<Session<BattleTanks>>,
    mut timeline: ResMut<Timeline<Anim>>,
    mut callout: ResMut<Callout>,
    fixtures: Query<Entity, Or<(With<Fixture>, With<ShownDie>, With<Flight>)>>,
    assets: Option<Res<DiceAssets>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
    mut framing: ResMut<crate::client::table::framing::Framing>,
    time: Res<Time>,
) {
    let now = time.elapsed_secs();
    let game = table.state();
    if !queue_played(
        &mut played,
        &mut skips,
        &mut timeline,
        game,
        now,
        anim_of,
        |g| Anim::Settle(Box::new(g)),
    ) {
        return;
    }
    callout.text = None;
    for e in &fixtures {
        commands.entity(e).despawn();
    }
    let assets = match assets {
        Some(a) => a.clone(),
        None => {
            let a = dice_assets(&mut meshes, &mut materials, &mut images);
            commands.insert_resource(a.clone());
            a
        }
    };
    // Before a held opening, the table as it was before it.
    let game = table.table_state();
    commands.insert_resource(Shown(game.clone()));
    spawn_fixtures(&mut commands, &assets, game.player_count());
    draw_dice(&mut commands, &assets, game);
    // The table's rim, and the dice standing on it.
    framing.show(
        crate::client::table::framing::disc_outline(Vec3::ZERO, TABLE_RADIUS, 0.6),
        false,
    );
}

/// Spawns the table, the Battlefield, a plate at each of the `n` seats, and the light.
fn spawn_fixtures(commands: &mut Commands, assets: &DiceAssets, n: usize) {
    commands.spawn((
        Fixture,
        DespawnOnExit(GameScreen::BattleTanks),
        Mesh3d(assets.table.clone()),
        MeshMaterial3d(assets.felt.clone()),
        Transform::from_xyz(0.0, -0.1, 0.0),
    ));
    commands.spawn((
        Fixture,
        DespawnOnExit(GameScreen::BattleTanks),
        Mesh3d(assets.battlefield.clone()),
        MeshMaterial3d(assets.battlefield_wood.clone()),
        Transform::from_xyz(0.0, 0.005, 0.0).with_rotation(Quat::from_rotation_x(-PI / 2.0)),
    ));
    for i in 0..n {
        let Ok(seat) = u8::try_from(i) else { continue };
        let p = PlayerId(seat);
        // With many seats neighbouring plates overlap at their corners: each a little
        // above the one before, so that the corner does not flicker between them.
        let above = Vec3::Y * 0.002 * f32::from(seat);
        commands.spawn((
            Fixture,
            DespawnOnExit(GameScreen::BattleTanks),
            Mesh3d(assets.plate.clone()),
            MeshMaterial3d(assets.plates[p.index() % assets.plates.len()].clone()),
            Transform::from_translation(seat_point(p, n, SEAT_RADIUS - 0.3) + above)
                .with_rotation(Quat::from_rotation_y(seat_angle(p, n))),
        ));
    }
    commands.spawn((
        Fixture,
        DespawnOnExit(GameScreen::BattleTanks),
        crate::client::table::effects::table_light(8_000.0),
        Transform::from_xyz(-5.0, 14.0, 6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// Draws the labels over the table and the panel in the corner.
pub(super) fn draw_labels(
    mut contexts: EguiContexts,
    shown: Res<Shown<BattleTanks>>,
    table: Res<Session<BattleTanks>>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera3d>>,
    flights: Query<(), With<Flight>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // The camera's pixels in the panels' points (the interface may be scaled).
    let zoom = ctx.zoom_factor();
    let (camera, eye) = *camera;
    let game = &shown.0;
    // The rules' state now, except before an opening held for a person.
    let live = table.table_state();
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("dice labels"),
    ));
    let screen = |p: Vec3| camera.world_to_viewport(eye, p).map(|p| p / zoom).ok();
    seat_labels(&painter, &screen, game, live);
    if flights.is_empty() {
        die_labels(&painter, &screen, game);
    }
    if let Some(at) = screen(Vec3::new(-2.3, 0.0, 2.3)) {
        label_box(
            &painter,
            egui::pos2(at.x, at.y),
            egui::Align2::CENTER_BOTTOM,
            "BATTLEFIELD",
            14.0,
            theme::BATTLEFIELD_LABEL,
        );
    }
    battle_window(ctx, game, live);
    Ok(())
}

/// Draws each commander's label before their seat, moved off its neighbours'.
fn seat_labels(
    painter: &egui::Painter,
    screen: &impl Fn(Vec3) -> Option<Vec2>,
    game: &BattleTanks,
    live: &BattleTanks,
) {
    let n = game.player_count();
    // Declarations as they stand now: they are public, and said before any die rolls.
    let declared = match live.phase() {
        Phase::Declaring(round) => round.declarations.clone(),
        _ => Vec::new(),
    };
    let mut placer = crate::client::frame::hud::Placer::default();
    for (i, c) in game.players().iter().enumerate() {
        let Ok(seat) = u8::try_from(i) else { continue };
        let p = PlayerId(seat);
        let Some(at) = screen(seat_point(p, n, SEAT_RADIUS - 1.9)) else {
            continue;
        };
        // Moved off a neighbour's label where seats stand close (many seats, a small
        // window).
        let text = seat_lines(p, c, &declared, live).join("\n");
        let size = crate::client::frame::hud::label_size(painter, &text, 14.0);
        let at = egui::pos2(at.x, at.y)
            + placer.place(egui::Rect::from_center_size(egui::pos2(at.x, at.y), size));
        label_box(
            painter,
            at,
            egui::Align2::CENTER_CENTER,
            text,
            14.0,
            seat_color(p),
        );
    }
}

/// The lines of commander `c`'s label: name, arsenal, declaration, and whether they are
/// to decide.
fn seat_lines(
    p: PlayerId,
    c: &Commander,
    declared: &[Declaration],
    live: &BattleTanks,
) -> Vec<String> {
    let mut lines = vec![format!(
        "{} {}",
        crate::client::frame::hud::seat_mark(p),
        c.name
    )];
    if c.out {
        lines.push("OUT".into());
    } else {
        lines.push(format!(
            "{} Tank{} · {} Nuke{}",
            c.tanks,
            if c.tanks == 1 { "" } else { "s" },
            c.nukes,
            if c.nukes == 1 { "" } else { "s" }
        ));
        if c.nuke_barred() {
            lines.push("no Nuke next roll".into());
        }
    }
    if let Some(d) = declared.iter().find(|d| d.player == p) {
        lines.push(match d.kind {
            Some(DieKind::Nuke) => "declared NUKE".into(),
            Some(DieKind::Tank) => "declared Tank".into(),
            Some(DieKind::Free) => "free die (-1)".into(),
            None => "leaves the War".into(),
        });
    }
    if live.to_act().contains(&p) {
        lines.push("▶ to decide".into());
    }
    lines
}

/// Draws each Battlefield die's value over it (a misfire, a Meganuke, a modified roll).
fn die_labels(painter: &egui::Painter, screen: &impl Fn(Vec3) -> Option<Vec2>, game: &BattleTanks) {
    for (i, d) in game.battlefield().iter().enumerate() {
        let Some(at) = screen(battlefield_spot(i) + Vec3::Y * 0.55) else {
            continue;
        };
        let text = if d.misfire {
            "misfire".to_string()
        } else if d.meganuke {
            "MEGANUKE".to_string()
        } else if d.value != d.face {
            format!("{} is {}", d.face, d.value)
        } else {
            d.value.to_string()
        };
        label_box(
            painter,
            egui::pos2(at.x, at.y),
            egui::Align2::CENTER_BOTTOM,
            text,
            if d.at_war { 15.0 } else { 12.0 },
            if d.at_war {
                theme::EMPHASIS
            } else {
                theme::DIE_LABEL
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_die_is_one_entity_with_its_pips_painted_on() {
        let mut meshes = Assets::<Mesh>::default();
        let mut materials = Assets::<StandardMaterial>::default();
        let mut images = Assets::<Image>::default();
        let assets = dice_assets(&mut meshes, &mut materials, &mut images);
        let mut world = World::new();
        let mut spawn = |owner: Option<PlayerId>, kind: DieKind| {
            let mut commands = world.commands();
            let die = spawn_die(&mut commands, &assets, owner, kind, Transform::IDENTITY, ());
            world.flush();
            assert!(world.get::<Children>(die).is_none(), "one entity");
            assert_eq!(
                world
                    .get::<MeshMaterial3d<StandardMaterial>>(die)
                    .unwrap()
                    .0,
                assets.tinted
            );
            world.get::<Mesh3d>(die).unwrap().0.clone()
        };
        // A Tank die in the third seat's colour, a Free die and a Nuke die.
        let seat = spawn(Some(PlayerId(2)), DieKind::Tank);
        let free = spawn(Some(PlayerId(2)), DieKind::Free);
        let nuke = spawn(Some(PlayerId(2)), DieKind::Nuke);
        assert_eq!(seat, assets.dice[2]);
        assert_eq!(free, assets.dice[8]);
        assert_eq!(nuke, assets.dice[9]);
        assert_eq!(
            spawn(None, DieKind::Tank),
            free,
            "an unowned Tank die is grey"
        );
        // Each die holds the cube and every pip, each part on a texel of its own; a
        // Nuke's pips on the one texel that glows.
        let (cube, pips) = (
            Mesh::from(Cuboid::new(1.0, 1.0, 1.0)).count_vertices(),
            pips_mesh().count_vertices(),
        );
        let texels = |die: &Handle<Mesh>| {
            let mesh = meshes.get(die).unwrap();
            assert_eq!(mesh.count_vertices(), cube + pips);
            let Some(bevy::mesh::VertexAttributeValues::Float32x2(uvs)) =
                mesh.attribute(Mesh::ATTRIBUTE_UV_0)
            else {
                panic!("a painted die has UVs");
            };
            let (body, dots) = uvs.split_at(cube);
            assert!(body.iter().all(|uv| *uv == body[0]));
            assert!(dots.iter().all(|uv| *uv == dots[0]));
            (body[0][0], dots[0][0])
        };
        let material = materials.get(&assets.tinted).unwrap();
        let glow = images
            .get(material.emissive_texture.as_ref().unwrap())
            .unwrap();
        let glows = |u: f32| {
            let width = glow.width();
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "in 0..1"
            )]
            #[allow(clippy::cast_precision_loss, reason = "a few texels")]
            let x = (u * width as f32) as u32;
            LinearRgba::from(glow.get_color_at(x, 0).unwrap()) != LinearRgba::BLACK
        };
        for die in &assets.dice[..9] {
            let (body, dots) = texels(die);
            assert_ne!(body, dots);
            assert!(!glows(body) && !glows(dots));
        }
        let (body, dots) = texels(&assets.dice[9]);
        assert!(!glows(body) && glows(dots), "a Nuke's pips glow");
    }
}
