//! The table's round shapes, with as many sides as a piece a few dozen pixels wide shows.
//!
//! Bevy's defaults are made for close-ups: cylinders and cones of 32 sides (130 and 65
//! vertices), a torus of 825 vertices, a capsule of 592. Every vertex is shaded for the
//! frame and again for the shadow map: a 30 × 30 board of forests and 40 tanks drew 89,000
//! vertices a frame with them and 49,000 with these (`tanktable bench-frames --passes`,
//! docs/performance.md).

use bevy::prelude::*;

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

/// `mesh` with every vertex coloured `color`. Parts of several colours painted so and
/// [`merged`] are drawn as one entity with one white material: Bevy's standard material
/// multiplies its base colour by the vertex colour, so a part looks as it did under a
/// material of its own colour (and the same roughness).
#[must_use]
pub fn painted(mut mesh: Mesh, color: Color) -> Mesh {
    let linear = LinearRgba::from(color).to_f32_array();
    mesh.insert_attribute(Mesh::ATTRIBUTE_COLOR, vec![linear; mesh.count_vertices()]);
    mesh
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
}
