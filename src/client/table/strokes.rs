//! Lines on the table (the outlines of hexes and squares, rings, arrows, lines of sight,
//! tracers), drawn as thin meshes in the same pass as the table.
//!
//! Bevy's gizmo lines are always drawn in the blended phase, so a table with a single line
//! on it drew a second pass over the view's image after the opaque one. With
//! multisampling that pass loads, stores and resolves every sample of the image again,
//! and on a GPU that draws in tiles the whole multisampled image goes out to memory and
//! back. Strokes are asked for like gizmos, anew each frame by the systems that show
//! something, and the meshes are rebuilt only on frames where what was asked changes.
//! Each colour is one mesh with a material that draws the colour as it is, neither lit nor
//! tone-mapped (as gizmo lines were, so that a highlight shows the colour it names); a
//! translucent colour is drawn with alpha to coverage while the view is multisampled
//! ([`translucent_mode`]), which keeps it in the opaque pass too.
//!
//! A stroke is a square bar along its segment, two pixels wide where the camera looks
//! (its focus), so that lines keep their weight as the table is zoomed and the window
//! resized, as gizmo lines did; nearer the camera they are a little wider, farther a
//! little narrower, as painted lines on a table would be.

use bevy::asset::AssetPath;
use bevy::light::{NotShadowCaster, NotShadowReceiver};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy::render::render_resource::AsBindGroup;
use bevy::shader::ShaderRef;

use crate::client::table::camera::Rig;

pub(crate) fn plugin(app: &mut App) {
    bevy::asset::embedded_asset!(app, "strokes.wgsl");
    app.add_plugins(MaterialPlugin::<StrokeMaterial>::default())
        .init_resource::<Strokes>()
        .init_resource::<Drawn>()
        .add_systems(
            PostUpdate,
            draw_strokes.after(crate::client::table::camera::configure_camera),
        );
}

/// A stroke's colour, drawn as it is.
#[derive(Asset, TypePath, AsBindGroup, Clone, Debug)]
pub struct StrokeMaterial {
    #[uniform(0)]
    color: LinearRgba,
    alpha_mode: AlphaMode,
}

impl Material for StrokeMaterial {
    fn fragment_shader() -> ShaderRef {
        ShaderRef::Path(
            AssetPath::from_path_buf(bevy::asset::embedded_path!("strokes.wgsl"))
                .with_source("embedded"),
        )
    }

    fn alpha_mode(&self) -> AlphaMode {
        self.alpha_mode
    }

    fn enable_prepass() -> bool {
        false
    }

    fn enable_shadows() -> bool {
        false
    }
}

/// The lines asked for this frame. Systems that show lines add to it in `Update`; what
/// nobody asks for again is gone on the next frame.
#[derive(Resource, Default)]
pub struct Strokes {
    asked: Vec<Segment>,
}

/// One straight piece of a stroke.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Segment {
    a: Vec3,
    b: Vec3,
    /// The colour as 8-bit sRGB with alpha: the key of its mesh and material.
    rgba: [u8; 4],
}

/// Segments of a full circle.
const CIRCLE_SEGMENTS: usize = 32;

impl Strokes {
    /// A straight line from `a` to `b`.
    pub fn line(&mut self, a: Vec3, b: Vec3, color: Color) {
        self.asked.push(Segment {
            a,
            b,
            rgba: color.to_srgba().to_u8_array(),
        });
    }

    /// Lines through `points`, in order.
    pub fn linestrip(&mut self, points: impl IntoIterator<Item = Vec3>, color: Color) {
        let mut points = points.into_iter();
        let Some(mut from) = points.next() else {
            return;
        };
        for to in points {
            self.line(from, to, color);
            from = to;
        }
    }

    /// A level circle of `radius` around `centre`.
    pub fn circle(&mut self, centre: Vec3, radius: f32, color: Color) {
        self.linestrip(
            (0..=CIRCLE_SEGMENTS).map(|i| {
                let a = std::f32::consts::TAU * i as f32 / CIRCLE_SEGMENTS as f32;
                centre + Vec3::new(radius * a.cos(), 0.0, radius * a.sin())
            }),
            color,
        );
    }

    /// An arrow from `from` to `to`, its head level with the table.
    pub fn arrow(&mut self, from: Vec3, to: Vec3, color: Color) {
        self.line(from, to, color);
        let back = (from - to).with_y(0.0);
        let length = back.length();
        if length <= f32::EPSILON {
            return;
        }
        let back = back / length * (length * 0.2).min(0.3);
        let side = Vec3::new(-back.z, 0.0, back.x) * 0.6;
        self.line(to, to + back + side, color);
        self.line(to, to + back - side, color);
    }
}

/// How a translucent stroke is drawn by a camera with `msaa`: with alpha to coverage while
/// there are samples to cover (a pixel covers about as many of its samples as its alpha
/// asks, how many exactly is the GPU's choice), in the opaque pass; blended without.
///
/// Only thin lines are drawn so. On a large surface (smoke, a goal tile) alpha to coverage
/// shows as a screen door on some GPUs, and Bevy's own materials turn it into a smoothed
/// cut-out, so those stay blended.
fn translucent_mode(msaa: Msaa) -> AlphaMode {
    if msaa.samples() > 1 {
        AlphaMode::AlphaToCoverage
    } else {
        AlphaMode::Blend
    }
}

/// What is drawn now: the segments, the width they were built at, each colour's entity
/// and mesh, each colour's material (kept, for the colours come back), and how the
/// translucent ones are drawn.
#[derive(Resource, Default)]
struct Drawn {
    segments: Vec<Segment>,
    width: f32,
    parts: HashMap<[u8; 4], (Entity, Handle<Mesh>)>,
    materials: HashMap<[u8; 4], Handle<StrokeMaterial>>,
    translucent: Option<AlphaMode>,
}

/// A stroke's width in pixels at the camera's focus, as Bevy's gizmo lines have it.
const PIXELS: f32 = 2.0;

/// The camera's distance when there is no rig (windowless tests).
const DEFAULT_DISTANCE: f32 = 20.0;

/// The view's height in pixels when there is no camera with a size (windowless tests).
const DEFAULT_HEIGHT: f32 = 1080.0;

/// The width in world units of [`PIXELS`] pixels at `distance` from a camera whose view
/// is `height` pixels high with a vertical field of view of `fov` radians.
fn width_at(distance: f32, fov: f32, height: f32) -> f32 {
    PIXELS * 2.0 * distance * (fov / 2.0).tan() / height.max(1.0)
}

/// Rebuilds the strokes' meshes when what was asked changed, or the camera's zoom did.
fn draw_strokes(
    mut strokes: ResMut<Strokes>,
    mut drawn: ResMut<Drawn>,
    rig: Option<Res<Rig>>,
    cameras: Query<(&Camera, &Projection, &Msaa), With<Camera3d>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StrokeMaterial>>,
    mut commands: Commands,
) {
    let camera = cameras.iter().next();
    let translucent = translucent_mode(camera.map_or(Msaa::Sample4, |(_, _, &msaa)| msaa));
    if drawn.translucent != Some(translucent) {
        retint(&mut drawn, &mut materials, translucent);
    }
    let width = stroke_width(camera, rig);
    let asked = std::mem::take(&mut strokes.bypass_change_detection().asked);
    if asked == drawn.segments && (width - drawn.width).abs() <= drawn.width * 0.01 {
        return;
    }
    let mut by_colour: HashMap<[u8; 4], Vec<(Vec3, Vec3)>> = HashMap::default();
    for s in &asked {
        by_colour.entry(s.rgba).or_default().push((s.a, s.b));
    }
    rebuild(
        &mut drawn,
        by_colour,
        width,
        translucent,
        &mut meshes,
        &mut materials,
        &mut commands,
    );
    drawn.segments = asked;
    drawn.width = width;
}

/// Draws the translucent colours' materials the way `translucent` says.
fn retint(
    drawn: &mut ResMut<Drawn>,
    materials: &mut ResMut<Assets<StrokeMaterial>>,
    translucent: AlphaMode,
) {
    drawn.translucent = Some(translucent);
    for handle in drawn.materials.values() {
        if let Some(material) = materials.get(handle)
            && material.alpha_mode != AlphaMode::Opaque
            && let Some(mut material) = materials.get_mut(handle)
        {
            material.alpha_mode = translucent;
        }
    }
}

/// A stroke's width in world units at the camera's focus (see [`width_at`]).
fn stroke_width(camera: Option<(&Camera, &Projection, &Msaa)>, rig: Option<Res<Rig>>) -> f32 {
    let (fov, height) = camera.map_or(
        (std::f32::consts::FRAC_PI_4, DEFAULT_HEIGHT),
        |(camera, projection, _)| {
            let fov = match projection {
                Projection::Perspective(p) => p.fov,
                _ => std::f32::consts::FRAC_PI_4,
            };
            let height = camera
                .physical_viewport_size()
                .map_or(DEFAULT_HEIGHT, |size| size.y as f32);
            (fov, height)
        },
    );
    width_at(
        rig.map_or(DEFAULT_DISTANCE, |rig| rig.distance),
        fov,
        height,
    )
}

/// Removes the colours no longer asked for, and builds each asked colour's mesh again
/// (a new colour gets its entity, and its material if it has none yet).
fn rebuild(
    drawn: &mut ResMut<Drawn>,
    by_colour: HashMap<[u8; 4], Vec<(Vec3, Vec3)>>,
    width: f32,
    translucent: AlphaMode,
    meshes: &mut ResMut<Assets<Mesh>>,
    materials: &mut ResMut<Assets<StrokeMaterial>>,
    commands: &mut Commands,
) {
    let gone: Vec<[u8; 4]> = drawn
        .parts
        .keys()
        .filter(|rgba| !by_colour.contains_key(*rgba))
        .copied()
        .collect();
    for rgba in gone {
        if let Some((entity, mesh)) = drawn.parts.remove(&rgba) {
            commands.entity(entity).despawn();
            meshes.remove(&mesh);
        }
    }
    for (rgba, segments) in by_colour {
        let mesh = bars(&segments, width);
        if let Some((_, handle)) = drawn.parts.get(&rgba) {
            if let Some(mut old) = meshes.get_mut(handle) {
                *old = mesh;
            }
            continue;
        }
        let material = drawn
            .materials
            .entry(rgba)
            .or_insert_with(|| {
                let [r, g, b, a] = rgba;
                materials.add(StrokeMaterial {
                    color: Color::srgba_u8(r, g, b, a).to_linear(),
                    alpha_mode: if a == u8::MAX {
                        AlphaMode::Opaque
                    } else {
                        translucent
                    },
                })
            })
            .clone();
        let handle = meshes.add(mesh);
        let entity = commands
            .spawn((
                Name::new("Strokes"),
                Mesh3d(handle.clone()),
                MeshMaterial3d(material),
                Transform::default(),
                Pickable::IGNORE,
                NotShadowCaster,
                NotShadowReceiver,
            ))
            .id();
        drawn.parts.insert(rgba, (entity, handle));
    }
}

/// A square bar of side `width` along each segment, reaching half a width past each end
/// so that the bars of a strip meet at its corners.
fn bars(segments: &[(Vec3, Vec3)], width: f32) -> Mesh {
    let mut positions: Vec<[f32; 3]> = Vec::with_capacity(segments.len() * 8);
    let mut indices: Vec<u32> = Vec::with_capacity(segments.len() * 24);
    let half = width / 2.0;
    for &(a, b) in segments {
        let along = b - a;
        let Some(dir) = along.try_normalize() else {
            continue;
        };
        // Two directions across the bar: level and up where the bar is level.
        let across = dir.cross(Vec3::Y).try_normalize().unwrap_or(Vec3::X);
        let up = across.cross(dir);
        let (start, end) = (a - dir * half, b + dir * half);
        let base = positions.len() as u32;
        for end in [start, end] {
            for (s, t) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                positions.push((end + (across * s + up * t) * half).to_array());
            }
        }
        // The four long sides, each two triangles facing out, and the two ends.
        for side in 0..4u32 {
            let (p, q) = (side, (side + 1) % 4);
            indices.extend([p, 4 + q, q, p, 4 + p, 4 + q].map(|i| base + i));
        }
        indices.extend([0, 1, 2, 0, 2, 3, 4, 7, 6, 4, 6, 5].map(|i| base + i));
    }
    // Unlit: the normal is there for the mesh pipeline's vertex layout.
    let normals = vec![[0.0, 1.0, 0.0]; positions.len()];
    Mesh::new(
        bevy::mesh::PrimitiveTopology::TriangleList,
        bevy::asset::RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
    .with_inserted_indices(bevy::mesh::Indices::U32(indices))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_pixels_at_the_focus() {
        // 20 units away at 45°, a 1080-pixel view shows 16.57 units: 2 px is 0.0307.
        let w = width_at(20.0, std::f32::consts::FRAC_PI_4, 1080.0);
        assert!((w - 0.030_68).abs() < 1e-4, "{w}");
        assert!((width_at(40.0, std::f32::consts::FRAC_PI_4, 540.0) - 4.0 * w).abs() < 1e-5);
    }

    #[test]
    fn a_strip_and_a_circle_are_their_segments_end_to_end() {
        let mut strokes = Strokes::default();
        strokes.linestrip(
            [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0)],
            Color::WHITE,
        );
        assert_eq!(strokes.asked.len(), 2);
        assert_eq!(strokes.asked[0].b, strokes.asked[1].a);
        strokes.asked.clear();
        strokes.circle(Vec3::Y, 2.0, Color::WHITE);
        assert_eq!(strokes.asked.len(), CIRCLE_SEGMENTS);
        for s in &strokes.asked {
            assert!((s.a.distance(Vec3::Y) - 2.0).abs() < 1e-5);
            assert!((s.a.y - 1.0).abs() < 1e-6);
        }
        let (first, last) = (strokes.asked[0].a, strokes.asked[CIRCLE_SEGMENTS - 1].b);
        assert!(first.distance(last) < 1e-5, "the circle closes");
    }

    #[test]
    fn a_bar_is_as_wide_as_asked_and_reaches_past_its_ends() {
        let mesh = bars(&[(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0))], 0.1);
        let Some(bevy::mesh::VertexAttributeValues::Float32x3(p)) =
            mesh.attribute(Mesh::ATTRIBUTE_POSITION)
        else {
            panic!("positions");
        };
        assert_eq!(p.len(), 8);
        let (min, max) = p.iter().fold(
            (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
            |(lo, hi), &q| (lo.min(Vec3::from(q)), hi.max(Vec3::from(q))),
        );
        assert!((min - Vec3::new(-0.05, -0.05, -0.05)).abs().max_element() < 1e-6);
        assert!((max - Vec3::new(2.05, 0.05, 0.05)).abs().max_element() < 1e-6);
        assert_eq!(mesh.indices().map(bevy::mesh::Indices::len), Some(36));
        // Every triangle faces away from the bar's axis (counter-clockwise seen from
        // outside), so none is culled from the outside.
        let idx: Vec<usize> = mesh.indices().unwrap().iter().collect();
        for tri in idx.chunks(3) {
            let [a, b, c] = [tri[0], tri[1], tri[2]].map(|i| Vec3::from(p[i]));
            let normal = (b - a).cross(c - a);
            let centre = (a + b + c) / 3.0;
            let axis_point = Vec3::new(centre.x.clamp(0.0, 2.0), 0.0, 0.0);
            assert!(normal.dot(centre - axis_point) > 0.0, "{tri:?} faces in");
        }
        // A vertical segment and a point make no trouble.
        let mesh = bars(&[(Vec3::ZERO, Vec3::Y), (Vec3::ONE, Vec3::ONE)], 0.1);
        assert_eq!(mesh.count_vertices(), 8);
    }

    #[test]
    fn meshes_follow_what_is_asked_one_per_colour() {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, AssetPlugin::default()))
            .init_asset::<Mesh>()
            .init_asset::<StrokeMaterial>()
            .init_resource::<Strokes>()
            .init_resource::<Drawn>()
            .add_systems(Update, draw_strokes);
        let camera = app
            .world_mut()
            .spawn((Camera3d::default(), Msaa::Sample4))
            .id();
        let ask = |app: &mut App, colours: &[Color]| {
            let mut strokes = app.world_mut().resource_mut::<Strokes>();
            for (i, c) in colours.iter().enumerate() {
                strokes.line(Vec3::ZERO, Vec3::X * (i + 1) as f32, *c);
            }
            app.update();
            let mut q = app.world_mut().query::<(&Mesh3d, &Name)>();
            q.iter(app.world()).count()
        };
        let modes = |app: &App| {
            let mut modes: Vec<AlphaMode> = app
                .world()
                .resource::<Assets<StrokeMaterial>>()
                .iter()
                .map(|(_, m)| m.alpha_mode)
                .collect();
            modes.sort_by_key(|m| format!("{m:?}"));
            modes
        };
        let faint = Color::srgba(1.0, 0.0, 0.0, 0.3);
        assert_eq!(ask(&mut app, &[Color::WHITE, faint, Color::WHITE]), 2);
        assert_eq!(modes(&app), [AlphaMode::AlphaToCoverage, AlphaMode::Opaque]);
        assert_eq!(ask(&mut app, &[Color::WHITE]), 1);
        assert_eq!(ask(&mut app, &[]), 0);
        assert_eq!(app.world().resource::<Assets<Mesh>>().len(), 0);
        // The faint colour's material is kept, and blended once the view has no samples
        // to cover.
        *app.world_mut().get_mut::<Msaa>(camera).unwrap() = Msaa::Off;
        assert_eq!(ask(&mut app, &[faint]), 1);
        assert_eq!(modes(&app), [AlphaMode::Blend, AlphaMode::Opaque]);
        assert_eq!(app.world().resource::<Assets<StrokeMaterial>>().len(), 2);
    }
}
