//! Integration tests, in one binary so that Bevy links once.

mod architecture;
mod chess;
mod cli;
#[cfg(feature = "client")]
mod client;
mod games;
mod lab;
#[cfg(feature = "client")]
mod network;
mod playthroughs;
#[cfg(feature = "client")]
mod reload;
#[cfg(feature = "client")]
mod render;
mod validation;

use std::path::{Path, PathBuf};

/// Runs the binary with `args` in the project's folder, as a user would.
pub fn tanktable(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_tanktable"))
        .args(args)
        .current_dir(project("."))
        .output()
        .expect("the binary runs")
}

/// Runs the ignored test `test` of this binary alone in a child process, in `dir`, with
/// `envs` (a test that needs a working directory or a process of its own).
pub fn child_test(
    test: &str,
    dir: &Path,
    envs: &[(&str, &std::ffi::OsStr)],
) -> std::process::Output {
    std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            test,
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .current_dir(dir)
        .envs(envs.iter().copied())
        .output()
        .expect("the test binary runs")
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

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
