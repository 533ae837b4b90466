//! Integration tests, in one binary so that Bevy links once.

mod chess;
mod cli;
#[cfg(feature = "client")]
mod client;
mod games;
mod playthroughs;
mod properties;
#[cfg(feature = "client")]
mod render;
mod validation;

use std::path::{Path, PathBuf};

/// A path inside the project.
pub fn project(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}
