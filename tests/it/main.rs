//! Integration tests, in one binary so that Bevy links once.

mod chess;
mod cli;
#[cfg(feature = "client")]
mod client;
mod games;
mod lab;
mod playthroughs;
#[cfg(feature = "client")]
mod render;
mod validation;

use std::path::{Path, PathBuf};

/// A path inside the project.
pub fn project(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// The games won and the games without a winner in a `sim --json` report.
pub fn wins_and_no_winner(report: &serde_json::Value) -> (u64, u64) {
    let wins = report["wins"]
        .as_array()
        .expect("wins by seat")
        .iter()
        .map(|w| w.as_u64().expect("a count"))
        .sum();
    let none = report["no_winner"].as_u64().expect("no_winner");
    (wins, none)
}
