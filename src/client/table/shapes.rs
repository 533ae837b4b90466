//! The table's round shapes, with as many sides as a piece a few dozen pixels wide shows.
//!
//! Bevy's defaults are made for close-ups: cylinders and cones of 32 sides (130 and 65
//! vertices), a torus of 825 vertices, a capsule of 592. Every vertex is shaded for the
//! frame and again for the shadow map: a 30 × 30 board of forests and 40 tanks drew 89,000
//! vertices a frame with them and 49,000 with these (`tanktable bench-frames --passes`,
//! docs/performance.md).

use bevy::prelude::*;

use crate::client::table::theme;

/// Sides of a cylinder: a turret or a barrel still looks round at full zoom.
const SIDES: u32 = 16;

/// A sphere of 14 × 9 faces.
#[must_use]
pub fn sphere(radius: f32) -> Mesh {
    Sphere::new(radius).mesh().uv(14, 9)
}

/// A cylinder of [`SIDES`] sides.
#[must_use]
pub fn cylinder(radius: f32, height: f32) -> Mesh {
    cylinder_of(radius, height, SIDES)
}

/// A cylinder of `sides` sides (a tree's trunk needs few).
#[must_use]
pub fn cylinder_of(radius: f32, height: f32, sides: u32) -> Mesh {
    Cylinder::new(radius, height)
        .mesh()
        .resolution(sides)
        .build()
}

/// A cone of `sides` sides.
#[must_use]
pub fn cone(radius: f32, height: f32, sides: u32) -> Mesh {
    Cone { radius, height }.mesh().resolution(sides).build()
}

/// A ring between `inner` and `outer` radius.
#[must_use]
pub fn torus(inner: f32, outer: f32) -> Mesh {
    Torus::new(inner, outer)
        .mesh()
        .major_resolution(24)
        .minor_resolution(8)
        .build()
}

/// A capsule (an infantry figure).
#[must_use]
pub fn capsule(radius: f32, length: f32) -> Mesh {
    Capsule3d::new(radius, length)
        .mesh()
        .longitudes(12)
        .latitudes(6)
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_painted_part_samples_its_own_colour_from_the_palette_texture() {
        let (red, grey) = (Color::srgb(0.85, 0.22, 0.18), Color::srgb(0.12, 0.12, 0.12));
        let palette = Palette::new([grey, red, Color::WHITE]);
        let part = palette.paint(Cuboid::new(1.0, 1.0, 1.0).into(), red);
        let Some(bevy::mesh::VertexAttributeValues::Float32x2(uvs)) =
            part.attribute(Mesh::ATTRIBUTE_UV_0)
        else {
            panic!("a painted part has UVs");
        };
        assert!(uvs.iter().all(|uv| palette.colour_at(*uv) == red));
        // The texture holds each colour at the texel its parts' UVs point to, to the
        // 8 bits of an sRGB pixel.
        let mut images = Assets::<Image>::default();
        let material = palette.material(&mut images);
        assert_eq!(material.base_color, Color::WHITE);
        let image = images.get(&material.base_color_texture.unwrap()).unwrap();
        let texel = u32::try_from(palette.texel_at(uvs[0])).unwrap();
        let shown = image.get_color_at(texel, 0).unwrap().to_srgba();
        let meant = red.to_srgba();
        let step = 0.5 / 255.0 + 1e-6;
        assert!(
            (shown.red - meant.red).abs() < step
                && (shown.green - meant.green).abs() < step
                && (shown.blue - meant.blue).abs() < step,
            "{shown:?} for {meant:?}"
        );
    }

    #[test]
    fn shapes_have_fewer_vertices_than_bevys_defaults() {
        let count = |m: Mesh| m.count_vertices();
        let ours_and_default = [
            (count(sphere(1.0)), count(Sphere::new(1.0).into())),
            (
                count(cylinder(1.0, 1.0)),
                count(Cylinder::new(1.0, 1.0).into()),
            ),
            (count(torus(0.4, 0.5)), count(Torus::new(0.4, 0.5).into())),
            (
                count(capsule(0.1, 0.3)),
                count(Capsule3d::new(0.1, 0.3).into()),
            ),
            (
                count(cone(0.3, 0.8, 10)),
                count(
                    Cone {
                        radius: 0.3,
                        height: 0.8,
                    }
                    .into(),
                ),
            ),
        ];
        for (ours, default) in ours_and_default {
            assert!(ours * 2 <= default + 10, "{ours} against {default}");
        }
        assert!(count(cylinder_of(0.05, 0.2, 6)) < 30);
    }
}

/// One mesh of several parts that share their attributes (every part built from Bevy's
/// primitives does).
///
/// # Panics
/// If there are no parts, or a part's attributes differ from the first's.
#[must_use]
pub fn merged(parts: impl IntoIterator<Item = Mesh>) -> Mesh {
    let mut parts = parts.into_iter();
    let mut mesh = parts.next().expect("at least one part");
    for part in parts {
        mesh.merge(&part)
            .expect("parts built from Bevy's primitives share their attributes");
    }
    mesh
}

/// A few colours as the texels of one small texture, for models merged from parts of
/// several colours: each part's UVs are put on its colour's texel ([`Palette::paint`]),
/// and the merged mesh is drawn with one material ([`Palette::material`]) that shows each
/// part as a material of its own colour (and the default roughness) would.
///
/// Vertex colours would do the same, but a mesh with them needs render pipelines of its
/// own (for the frame and for the shadows): under software Vulkan each costs several MiB
/// of compiled code. A texture is only a binding of the pipelines every mesh uses.
///
/// A colour may glow ([`Palette::glowing`]): the glow of each colour is a second texture,
/// the material's emissive one, so a lit pip or a Nuke's red pips merge with the rest.
#[derive(Clone, Debug)]
pub struct Palette {
    colours: Vec<Color>,
    /// Each colour's glow, black for most.
    glows: Vec<LinearRgba>,
}

impl Palette {
    #[must_use]
    pub fn new(colours: impl IntoIterator<Item = Color>) -> Self {
        let colours: Vec<Color> = colours.into_iter().collect();
        let glows = vec![theme::NO_GLOW; colours.len()];
        Self { colours, glows }
    }

    /// The palette with `colour` added, glowing `glow` as a material with that emissive
    /// colour would.
    #[must_use]
    pub fn glowing(mut self, colour: Color, glow: LinearRgba) -> Self {
        self.colours.push(colour);
        self.glows.push(glow);
        self
    }

    /// `mesh` painted `colour`, which must be one of the palette's.
    ///
    /// # Panics
    /// If `colour` is not in the palette.
    #[must_use]
    pub fn paint(&self, mut mesh: Mesh, colour: Color) -> Mesh {
        let texel = self
            .colours
            .iter()
            .position(|c| *c == colour)
            .expect("a model is painted in its palette's colours");
        #[allow(clippy::cast_precision_loss, reason = "a palette of a few colours")]
        let u = (texel as f32 + 0.5) / self.width() as f32;
        mesh.insert_attribute(Mesh::ATTRIBUTE_UV_0, vec![[u, 0.5]; mesh.count_vertices()]);
        mesh
    }

    /// The texture's width in texels: the colours, then black up to a power of two (a
    /// texture of any other width is sampled by shaders of its own under lavapipe).
    fn width(&self) -> usize {
        self.colours.len().next_power_of_two()
    }

    /// The palette's colours, in the order of their texels.
    #[cfg(test)]
    pub fn colours(&self) -> &[Color] {
        &self.colours
    }

    /// The texel a painted vertex with these UVs samples.
    #[cfg(test)]
    #[allow(clippy::cast_precision_loss, reason = "a palette of a few colours")]
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "in 0..1"
    )]
    pub fn texel_at(&self, [u, _]: [f32; 2]) -> usize {
        (u * self.width() as f32) as usize
    }

    /// The colour a painted vertex with these UVs shows.
    #[cfg(test)]
    pub fn colour_at(&self, uv: [f32; 2]) -> Color {
        self.colours[self.texel_at(uv)]
    }

    /// The material of the meshes painted from this palette: white, with the palette as
    /// its texture, and the glows as its emissive texture if any colour glows.
    ///
    /// Both textures are 8-bit sRGB, sampled as Bevy samples any texture, as its own
    /// white stand-in for a material without one is: under software Vulkan a texture of
    /// another format or sampler, or of a width not a power of two, would compile the
    /// shaders again for it. A part's UVs sit on its texel's centre, so the filter never
    /// blends two colours. The glows, some brighter than white, are kept scaled down to
    /// the brightest and scaled up again by the material's emissive colour.
    #[must_use]
    pub fn material(&self, images: &mut Assets<Image>) -> StandardMaterial {
        let brightest = self
            .glows
            .iter()
            .flat_map(|g| [g.red, g.green, g.blue])
            .fold(0.0, f32::max);
        let width = self.width();
        let colours = self.colours.iter().map(|c| LinearRgba::from(*c));
        StandardMaterial {
            base_color_texture: Some(images.add(texels(colours, width))),
            emissive: LinearRgba::rgb(brightest, brightest, brightest),
            emissive_texture: (brightest > 0.0).then(|| {
                let scaled = self.glows.iter().map(|g| {
                    LinearRgba::rgb(g.red / brightest, g.green / brightest, g.blue / brightest)
                });
                images.add(texels(scaled, width))
            }),
            ..default()
        }
    }
}

/// A row of `width` texels, these colours (none brighter than white) and black after
/// them, each channel rounded to the nearest of its 256 steps.
fn texels(colours: impl Iterator<Item = LinearRgba>, width: usize) -> Image {
    use bevy::asset::RenderAssetUsages;
    use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "in 0..=255"
    )]
    let byte = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    let data = colours
        .chain(std::iter::repeat(LinearRgba::BLACK))
        .take(width)
        .flat_map(|c| {
            let c = Srgba::from(c);
            [c.red, c.green, c.blue, c.alpha].map(byte)
        })
        .collect();
    Image::new(
        Extent3d {
            width: u32::try_from(width).unwrap_or(u32::MAX),
            height: 1,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    )
}

/// Parts gathered by material, each material's parts merged into one mesh: a board of
/// hundreds of tiles is drawn as a few entities, for visibility, shadows, extraction and
/// transforms, instead of one per tile.
#[derive(Default)]
pub struct ByMaterial(Vec<(Handle<StandardMaterial>, Mesh)>);

impl ByMaterial {
    /// Adds `mesh`, already placed on the table, to the parts drawn with `material`.
    pub fn add(&mut self, material: &Handle<StandardMaterial>, mesh: Mesh) {
        match self.0.iter_mut().find(|(m, _)| m == material) {
            Some((_, merged)) => {
                if let Err(e) = merged.merge(&mesh) {
                    warn!("a part of a merged model was left out: {e}");
                }
            }
            None => self.0.push((material.clone(), mesh)),
        }
    }

    /// Each material with its merged mesh.
    pub fn into_parts(self) -> impl Iterator<Item = (Handle<StandardMaterial>, Mesh)> {
        self.0.into_iter()
    }

    /// Each material with its merged mesh, for parts that are only drawn (never picked
    /// by their mesh nor read back): once the renderer has a mesh, the main world keeps
    /// no copy of it.
    pub fn into_drawn_parts(self) -> impl Iterator<Item = (Handle<StandardMaterial>, Mesh)> {
        self.0.into_iter().map(|(material, mut mesh)| {
            mesh.asset_usage = bevy::asset::RenderAssetUsages::RENDER_WORLD;
            (material, mesh)
        })
    }
}
