//! The table: what is drawn in 3D and how it is looked at. The camera, the shapes and
//! strokes every game draws with, the effects queue, the player's graphics settings, the
//! table's framing beside the panels, and the theme: every colour the client draws.

pub mod camera;
pub mod effects;
pub mod framing;
pub mod graphics;
pub mod hex;
pub mod shapes;
pub mod square;
pub mod strokes;
pub mod theme;
