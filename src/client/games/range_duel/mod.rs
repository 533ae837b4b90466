//! RangeDuel in the client: its scene and panels.

mod scene;
