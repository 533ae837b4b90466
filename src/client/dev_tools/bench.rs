//! The frame benchmark (`tanktable bench-frames`, a command of the `dev` feature): the
//! real client, or an empty Bevy app with one camera, rendered offscreen as fast as it
//! goes.
//!
//! Every camera draws into an image of the asked size instead of a window, and the app
//! runs without winit, so no window surface is ever made: it runs under Xvfb with any
//! driver, on a GPU machine with no display, and with no display at all. Before a frame
//! ends, the GPU must have finished the frame before it, as a window's swapchain (two
//! frames deep) demands, so a GPU slower than the CPU slows the frames; `--in-flight 1`
//! waits for the frame's own GPU work instead, adding the two up.
//!
//! Each scene runs in a process of its own, so that its resident memory is its own: the
//! command starts itself once per scene and gathers what each run prints.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use bevy::app::PluginsState;
use bevy::camera::RenderTarget;
use bevy::prelude::*;
use bevy::render::mesh::{RenderMesh, RenderMeshBufferInfo};
use bevy::render::render_asset::RenderAssets;
use bevy::render::render_resource::{PipelineCache, PollType, TextureFormat, TextureUsages};
use bevy::render::renderer::RenderDevice;
use bevy::render::{Render, RenderApp, RenderSystems};
use bevy::window::{ExitCondition, WindowResolution};
use serde::{Deserialize, Serialize};

use crate::client::core::Screen;
use crate::client::core::launch::{BuildApp, Launch};
use crate::client::core::memory::status_kib;
use crate::client::core::session::OpenGame;
use crate::rules::GameKind;

/// `tanktable bench-frames`: frame times and resident memory of scenes of the client.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The scenes, measured in this order: `menu` (the main menu), `empty` (an empty Bevy
    /// app with one camera), `lab` or `lab@GAME` (the playtest lab's screen while a run
    /// of the game's default setup keeps its workers busy; default: tank-commander), or a
    /// scenario or setup of any game, opened as a new game. `FILE@SEATS` seats bots or
    /// people as `play --seats` does, e.g.
    /// `scenarios/battle-tanks/eight-players.ron@heuristic`.
    #[arg(required = true)]
    pub scenes: Vec<String>,
    /// Frames timed in each scene.
    #[arg(long, default_value_t = 2000)]
    pub frames: u32,
    /// Frames run before timing starts, once every render pipeline has compiled.
    #[arg(long, default_value_t = 240)]
    pub warmup: u32,
    /// The size of the image every camera renders to.
    #[arg(long, default_value = "1920x1080", value_parser = parse_size)]
    pub size: UVec2,
    /// Measure an empty Bevy app (one camera) before the scenes, as the scene `empty`.
    #[arg(long)]
    pub empty_app: bool,
    /// What-if, for profiling: no light casts shadows (the Graphics window's Shadows off).
    #[arg(long)]
    pub no_shadows: bool,
    /// The edge smoothing to draw with, as the Graphics window offers it: auto (the
    /// default: SMAA on a software renderer, 2× multisampling on a GPU), msaa4, msaa2,
    /// smaa, fxaa or off. The player's own settings are not read; the empty app keeps
    /// Bevy's default (4× multisampling).
    #[arg(long, default_value = "auto", value_parser = clap::builder::PossibleValuesParser::new(["auto", "msaa4", "msaa2", "smaa", "fxaa", "off"]))]
    pub antialiasing: String,
    /// What-if, for profiling: every camera's multisampling (1 is off; default: the
    /// client's own).
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(["1", "2", "4", "8"]))]
    pub msaa: Option<String>,
    /// What-if, for profiling: egui paints nothing (its panels are still laid out).
    #[arg(long)]
    pub no_egui: bool,
    /// What-if, for profiling: every camera draws a depth prepass first.
    #[arg(long)]
    pub prepass: bool,
    /// Frames the GPU may run behind: 2 (the default) lets the CPU prepare a frame while
    /// the GPU draws the one before, as a window's swapchain does (wgpu's default frame
    /// latency); 1 waits for each frame's GPU work before the next frame is prepared, so
    /// that a frame's time is its CPU and GPU work added up.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub in_flight: u8,
    /// Profile: Bevy's render diagnostics. The table then gives, per scene, each render
    /// pass's GPU time and the fragments it shaded per pixel (means of the last 120
    /// frames), and each scene's run lists the render pipelines it compiled.
    #[arg(long)]
    pub passes: bool,
    /// Save what each scene's last frame showed as a PNG in this folder (to look at).
    #[arg(long, value_name = "DIR")]
    pub screenshots: Option<PathBuf>,
    /// Print each scene's measurement as a line of JSON too.
    #[arg(long)]
    pub json: bool,
    /// Measure the one scene given in this process (what each scene's run does).
    #[arg(long, hide = true)]
    pub one: bool,
}

fn parse_size(text: &str) -> Result<UVec2, String> {
    let (w, h) = text
        .split_once(['x', 'X', '×'])
        .ok_or_else(|| format!("`{text}` is not a size: write WIDTHxHEIGHT, e.g. 1920x1080"))?;
    let number = |s: &str| {
        s.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (16..=8192).contains(n))
            .ok_or_else(|| format!("`{s}` in `{text}`: a side is a number from 16 to 8192"))
    };
    Ok(UVec2::new(number(w)?, number(h)?))
}

/// One scene's measurement.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FrameStats {
    pub scene: String,
    pub frames: u32,
    pub mean_ms: f64,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub fps: f64,
    /// Frames over three times the median.
    pub spikes: u32,
    /// Resident memory after the timed frames.
    pub rss_mib: f64,
    /// The most resident memory the process had.
    pub peak_mib: f64,
    /// Frames spent waiting for the scene to open and its pipelines to compile.
    pub settle_frames: u32,
    /// The main world's schedule, per timed frame (mean): the game's own systems, input,
    /// egui's layout, picking.
    #[serde(default)]
    pub main_ms: f64,
    /// The render world's CPU work per frame (mean): preparing, queueing and encoding.
    #[serde(default)]
    pub render_ms: f64,
    /// The render world's wait for the GPU to finish the frame (mean).
    #[serde(default)]
    pub gpu_wait_ms: f64,
    /// Timed frames on which egui laid the panels out (the others reuse the last
    /// frame's triangles), and what made them due most often.
    #[serde(default)]
    pub egui_frames: u32,
    #[serde(default)]
    pub egui_why: String,
    /// The slowest frames over three times the median, and those whose main world took
    /// over three times its median (at most three of each), each with its main world,
    /// render world and GPU wait, and why egui laid out on it.
    #[serde(default)]
    pub slowest: Vec<String>,
    /// What the scene drew on its last frame: the entities with a 3D mesh that some
    /// camera saw, their vertices, and every entity of the main world. Extraction,
    /// visibility and transforms cost per entity, the GPU per vertex.
    #[serde(default)]
    pub meshes: u32,
    #[serde(default)]
    pub vertices: u64,
    #[serde(default)]
    pub entities: u32,
    /// The meshes the renderer holds and the bytes of their vertices and indices, and the
    /// bytes of the copies of them that the main world keeps.
    #[serde(default)]
    pub mesh_assets: u32,
    #[serde(default)]
    pub mesh_bytes: u64,
    #[serde(default)]
    pub mesh_copy_bytes: u64,
    /// Timed frames that drew a blended (transparent) pass after the opaque one, and the
    /// items in it on the last frame.
    #[serde(default)]
    pub transparent_frames: u32,
    #[serde(default)]
    pub transparent_items: u32,
    /// What else went on during the timed frames (the lab's workers and their games).
    #[serde(default)]
    pub note: String,
    /// With `--passes`: each render pass the GPU timed, the slowest first.
    #[serde(default)]
    pub passes: Vec<PassStats>,
    /// The edge smoothing the scene was drawn with, and why where the renderer chose it.
    #[serde(default)]
    pub smoothing: String,
}

/// One render pass as Bevy's render diagnostics saw it (means of the last 120 frames).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PassStats {
    /// The pass as Bevy names it: `main_opaque_pass_3d`, `fxaa`, `upscaling` …
    pub name: String,
    /// The GPU's time in it, ms.
    pub gpu_ms: f64,
    /// Fragments shaded in it per pixel of the image: how often the pass shades a pixel
    /// (1 covers the image once; multisampling shades a pixel once however many samples
    /// it stores). Absent for a compute pass, or where the GPU counts no statistics.
    pub fragments_per_pixel: Option<f64>,
}

impl FrameStats {
    fn from_times(scene: &str, mut times_ms: Vec<f64>, settle_frames: u32) -> Self {
        let n = times_ms.len().max(1);
        let mean_ms = times_ms.iter().sum::<f64>() / n as f64;
        times_ms.sort_by(f64::total_cmp);
        let at = |q: f64| {
            let i = ((times_ms.len() as f64 - 1.0) * q).round() as usize;
            times_ms.get(i).copied().unwrap_or(0.0)
        };
        let p50_ms = at(0.5);
        Self {
            scene: scene.to_string(),
            frames: times_ms.len() as u32,
            mean_ms,
            p50_ms,
            p95_ms: at(0.95),
            p99_ms: at(0.99),
            max_ms: times_ms.last().copied().unwrap_or(0.0),
            fps: if mean_ms > 0.0 { 1000.0 / mean_ms } else { 0.0 },
            spikes: times_ms.iter().filter(|&&t| t > 3.0 * p50_ms).count() as u32,
            rss_mib: status_kib("VmRSS:").unwrap_or(0) as f64 / 1024.0,
            peak_mib: status_kib("VmHWM:").unwrap_or(0) as f64 / 1024.0,
            settle_frames,
            main_ms: 0.0,
            render_ms: 0.0,
            gpu_wait_ms: 0.0,
            egui_frames: 0,
            egui_why: String::new(),
            slowest: Vec::new(),
            note: String::new(),
            meshes: 0,
            vertices: 0,
            entities: 0,
            mesh_assets: 0,
            mesh_bytes: 0,
            mesh_copy_bytes: 0,
            transparent_frames: 0,
            transparent_items: 0,
            passes: Vec::new(),
            smoothing: String::new(),
        }
    }
}

/// Where the frames' time went: the main world's schedule, the render world's CPU work
/// and its wait for the GPU, one entry per frame of each.
#[derive(Resource, Clone, Default)]
struct Clock(Arc<Mutex<Stages>>);

#[derive(Default)]
struct Stages {
    main_start: Option<Instant>,
    render_start: Option<Instant>,
    main: Vec<f64>,
    render: Vec<f64>,
    wait: Vec<f64>,
    /// The meshes the renderer holds: each one's vertices, and the bytes of all their
    /// vertices and indices.
    meshes: bevy::platform::collections::HashMap<AssetId<Mesh>, u32>,
    mesh_bytes: u64,
    /// Per frame, the items of the blended (transparent) phase of every view: when there
    /// are any, the frame draws a second pass over the view's image, which with
    /// multisampling loads, stores and resolves every sample again.
    transparent: Vec<u32>,
}

impl Clock {
    fn stages(&self) -> std::sync::MutexGuard<'_, Stages> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The mean of the last `n` entries.
    fn mean_of_last(entries: &[f64], n: usize) -> f64 {
        let tail = &entries[entries.len().saturating_sub(n)..];
        if tail.is_empty() {
            0.0
        } else {
            tail.iter().sum::<f64>() / tail.len() as f64
        }
    }
}

fn since_ms(start: Option<Instant>) -> Option<f64> {
    start.map(|s| s.elapsed().as_secs_f64() * 1000.0)
}

fn main_started(clock: Res<Clock>) {
    clock.stages().main_start = Some(Instant::now());
}

fn main_ended(clock: Res<Clock>) {
    let mut stages = clock.stages();
    if let Some(ms) = since_ms(stages.main_start.take()) {
        stages.main.push(ms);
    }
}

/// Notes the meshes the renderer holds, when they change.
fn count_render_meshes(clock: Res<Clock>, meshes: Res<RenderAssets<RenderMesh>>) {
    if !meshes.is_changed() {
        return;
    }
    let mut stages = clock.stages();
    stages.meshes.clear();
    stages.mesh_bytes = 0;
    for (id, mesh) in meshes.iter() {
        stages.meshes.insert(id, mesh.vertex_count);
        stages.mesh_bytes += u64::from(mesh.vertex_count) * mesh.layout.0.layout().array_stride;
        if let RenderMeshBufferInfo::Indexed {
            count,
            index_format,
        } = mesh.buffer_info
        {
            stages.mesh_bytes += u64::from(count)
                * match index_format {
                    bevy::render::render_resource::IndexFormat::Uint16 => 2,
                    bevy::render::render_resource::IndexFormat::Uint32 => 4,
                };
        }
    }
}

/// Notes the items of the views' blended phases.
fn count_transparent(
    clock: Res<Clock>,
    phases: Res<
        bevy::render::render_phase::ViewSortedRenderPhases<
            bevy::core_pipeline::core_3d::Transparent3d,
        >,
    >,
) {
    let items = phases.values().map(|phase| phase.items.len() as u32).sum();
    clock.stages().transparent.push(items);
}

fn render_started(clock: Res<Clock>) {
    clock.stages().render_start = Some(Instant::now());
}

fn render_ended(clock: Res<Clock>) {
    let mut stages = clock.stages();
    if let Some(ms) = since_ms(stages.render_start.take()) {
        stages.render.push(ms);
    }
}

/// The line a scene's run prints its measurement on.
const RESULT: &str = "BENCH-FRAMES ";

/// The lines a scene's run prints its compiled pipelines on (`--passes`).
const PASS: &str = "BENCH-PASS ";

/// Runs the benchmark: each scene in a process of its own, then the table.
///
/// # Errors
/// A bad argument, or a scene that could not be measured (the others still are).
pub fn run(args: &BenchArgs, build: BuildApp) -> Result<(), String> {
    if args.one {
        return run_one(args, build);
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let mut scenes: Vec<&str> = Vec::new();
    if args.empty_app {
        scenes.push("empty");
    }
    scenes.extend(args.scenes.iter().map(String::as_str));
    for scene in &scenes {
        scene_launch(scene)?;
    }
    println!(
        "{} frames a scene after {} of warm-up, {}x{}, offscreen\n\
         main: the main world's schedule; render: the render world's CPU work; gpu: its wait \
         for the GPU (means, ms; the two worlds overlap when rendering is pipelined)",
        args.frames, args.warmup, args.size.x, args.size.y
    );
    let mut done = Vec::new();
    let mut failed = Vec::new();
    for (i, scene) in scenes.iter().enumerate() {
        eprintln!("[{}/{}] {scene} …", i + 1, scenes.len());
        let output = scene_command(&exe, args, scene)
            .output()
            .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
        match scene_result(scene, &output) {
            Some(stats) => {
                if args.json {
                    println!("{}", serde_json::to_string(&stats).unwrap_or_default());
                }
                done.push(stats);
            }
            None => {
                eprintln!(
                    "{scene}: no measurement ({}):\n{}",
                    output.status,
                    String::from_utf8_lossy(&output.stderr)
                );
                failed.push(*scene);
            }
        }
    }
    print!("{}", table(&done));
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("not measured: {}", failed.join(", ")))
    }
}

/// Measures the one scene named (`--one`) and prints its measurement.
fn run_one(args: &BenchArgs, build: BuildApp) -> Result<(), String> {
    let scene = args
        .scenes
        .first()
        .ok_or("--one measures one scene: name it")?;
    let stats = measure(scene, args, build)?;
    let line = serde_json::to_string(&stats).map_err(|e| e.to_string())?;
    println!("{RESULT}{line}");
    Ok(())
}

/// The command that runs this program to measure one scene with the same arguments.
fn scene_command(exe: &std::path::Path, args: &BenchArgs, scene: &str) -> std::process::Command {
    let mut command = std::process::Command::new(exe);
    command
        .args(["bench-frames", "--one", "--frames"])
        .arg(args.frames.to_string())
        .arg("--warmup")
        .arg(args.warmup.to_string())
        .arg("--size")
        .arg(format!("{}x{}", args.size.x, args.size.y))
        .args(args.no_shadows.then_some("--no-shadows"))
        .args(["--antialiasing", args.antialiasing.as_str()])
        .args(args.no_egui.then_some("--no-egui"))
        .args(args.prepass.then_some("--prepass"))
        .arg("--in-flight")
        .arg(args.in_flight.to_string())
        .args(args.passes.then_some("--passes"))
        .args(
            args.screenshots
                .iter()
                .flat_map(|d| [std::ffi::OsStr::new("--screenshots"), d.as_os_str()]),
        )
        .args(args.msaa.iter().flat_map(|m| ["--msaa", m.as_str()]))
        .arg("--")
        .arg(scene)
        .env(
            "RUST_LOG",
            std::env::var("RUST_LOG").unwrap_or_else(|_| "error".into()),
        );
    command
}

/// A scene's run's measurement, if it printed one; prints the passes it listed.
fn scene_result(scene: &str, output: &std::process::Output) -> Option<FrameStats> {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stats = stdout
        .lines()
        .find_map(|l| l.strip_prefix(RESULT))
        .and_then(|l| serde_json::from_str::<FrameStats>(l).ok());
    for line in stdout.lines().filter(|l| l.starts_with(PASS)) {
        println!("{scene}: {}", &line[PASS.len()..]);
    }
    stats
}

/// The median of the empty app's runs, if any.
fn empty_baseline(done: &[FrameStats]) -> Option<(f64, f64)> {
    let mut empty: Vec<&FrameStats> = done.iter().filter(|s| s.scene == "empty").collect();
    if empty.is_empty() {
        return None;
    }
    empty.sort_by(|a, b| a.mean_ms.total_cmp(&b.mean_ms));
    let time = empty[empty.len() / 2].mean_ms;
    empty.sort_by(|a, b| a.rss_mib.total_cmp(&b.rss_mib));
    Some((time, empty[empty.len() / 2].rss_mib))
}

/// The measurements as a table, with each scene's ratio to the median empty run.
#[must_use]
pub fn table(done: &[FrameStats]) -> String {
    let mut out = String::new();
    table_times(&mut out, done);
    table_drawn(&mut out, done);
    table_frames_that(&mut out, done);
    table_passes(&mut out, done);
    table_notes(&mut out, done);
    out
}

/// The table's heading and its rows of times and memory, and the edge smoothings drawn.
fn table_times(out: &mut String, done: &[FrameStats]) {
    use std::fmt::Write as _;
    let base = empty_baseline(done);
    let _ = writeln!(
        out,
        "{:<48} {:>8} {:>7} {:>7} {:>7} {:>8} {:>6} {:>6} {:>6} {:>7} {:>6} {:>8} {:>7} {:>7}",
        "scene",
        "mean ms",
        "p50",
        "p95",
        "p99",
        "max",
        "main",
        "render",
        "gpu",
        "fps",
        ">3×p50",
        "RSS MiB",
        "× time",
        "× RSS"
    );
    for s in done {
        let (time, rss) = base.map_or((String::from("-"), String::from("-")), |(t, r)| {
            (
                format!("{:.2}", s.mean_ms / t),
                format!("{:.2}", s.rss_mib / r),
            )
        });
        let _ = writeln!(
            out,
            "{:<48} {:>8.2} {:>7.2} {:>7.2} {:>7.2} {:>8.2} {:>6.2} {:>6.2} {:>6.2} {:>7.1} {:>6} {:>8.0} {:>7} {:>7}",
            shorten(&label(&s.scene), 48),
            s.mean_ms,
            s.p50_ms,
            s.p95_ms,
            s.p99_ms,
            s.max_ms,
            s.main_ms,
            s.render_ms,
            s.gpu_wait_ms,
            s.fps,
            s.spikes,
            s.rss_mib,
            time,
            rss
        );
    }
    let mut smoothings: Vec<&str> = Vec::new();
    for s in done.iter().filter(|s| !s.smoothing.is_empty()) {
        if !smoothings.contains(&s.smoothing.as_str()) {
            smoothings.push(&s.smoothing);
        }
    }
    if !smoothings.is_empty() {
        let _ = writeln!(
            out,
            "edge smoothing (the empty app's: msaa4): {}",
            smoothings.join(", ")
        );
    }
}

/// What each scene drew on its last frame, and the meshes the renderer held.
fn table_drawn(out: &mut String, done: &[FrameStats]) {
    use std::fmt::Write as _;
    let _ = writeln!(
        out,
        "drawn on the last frame (mesh entities seen by a camera, their vertices; entities; \
         the meshes the renderer holds, their vertices' and indices' KiB, and the KiB of the \
         main world's copies):"
    );
    for s in done {
        let _ = writeln!(
            out,
            "  {:<46} {:>5} meshes {:>8} vertices {:>6} entities {:>4} meshes {:>6} KiB {:>6} KiB",
            shorten(&label(&s.scene), 46),
            s.meshes,
            s.vertices,
            s.entities,
            s.mesh_assets,
            s.mesh_bytes / 1024,
            s.mesh_copy_bytes / 1024
        );
    }
}

/// The timed frames that drew a blended pass, and those egui laid out on.
fn table_frames_that(out: &mut String, done: &[FrameStats]) {
    use std::fmt::Write as _;
    // Timed frames of each scene (but the empty app) that did something, and what.
    let mut frames_that = |heading: &str, row: fn(&FrameStats) -> (u32, String)| {
        let _ = writeln!(out, "{heading}");
        for s in done.iter().filter(|s| s.scene != "empty") {
            let (n, what) = row(s);
            let _ = writeln!(
                out,
                "  {:<46} {n:>5} of {:<5} {what}",
                shorten(&label(&s.scene), 46),
                s.frames
            );
        }
    };
    frames_that(
        "blended pass (timed frames that drew one after the opaque pass, loading and \
         resolving the multisampled image again; its items on the last frame):",
        |s| {
            (
                s.transparent_frames,
                format!("{:>4} items", s.transparent_items),
            )
        },
    );
    frames_that(
        "egui's layout (frames laid out of those timed, and why):",
        |s| (s.egui_frames, s.egui_why.clone()),
    );
}

/// The GPU's passes of each scene (`--passes`), the slowest first.
fn table_passes(out: &mut String, done: &[FrameStats]) {
    use std::fmt::Write as _;
    if done.iter().any(|s| !s.passes.is_empty()) {
        let _ = writeln!(
            out,
            "the GPU's passes (--passes: ms a frame, and fragments shaded per pixel, the \
             slowest first; the shadow maps and egui are not timed by Bevy):"
        );
        for s in done.iter().filter(|s| !s.passes.is_empty()) {
            let passes: Vec<String> = s
                .passes
                .iter()
                .map(|p| match p.fragments_per_pixel {
                    Some(f) => format!("{} {:.2} ms, {f:.2}/px", p.name, p.gpu_ms),
                    None => format!("{} {:.2} ms", p.name, p.gpu_ms),
                })
                .collect();
            let _ = writeln!(
                out,
                "  {:<46} {}",
                shorten(&label(&s.scene), 46),
                passes.join(" · ")
            );
        }
    }
}

/// Each scene's note, then its slowest frames.
fn table_notes(out: &mut String, done: &[FrameStats]) {
    use std::fmt::Write as _;
    for s in done.iter().filter(|s| !s.note.is_empty()) {
        let _ = writeln!(out, "{}: {}", label(&s.scene), s.note);
    }
    if done.iter().any(|s| !s.slowest.is_empty()) {
        let _ = writeln!(
            out,
            "frames over 3× the median, then main worlds over 3× theirs, the slowest first:"
        );
        for s in done.iter().filter(|s| !s.slowest.is_empty()) {
            let _ = writeln!(out, "  {}", label(&s.scene));
            for line in &s.slowest {
                let _ = writeln!(out, "    {line}");
            }
        }
    }
}

/// A scene as the table names it: seats all alike are written once, with their count.
fn label(scene: &str) -> String {
    let Some((file, seats)) = scene.rsplit_once('@') else {
        return scene.to_string();
    };
    let seats: Vec<&str> = seats.split(',').collect();
    if seats.len() > 1 && seats.iter().all(|s| *s == seats[0]) {
        format!("{file}@{}×{}", seats[0], seats.len())
    } else {
        scene.to_string()
    }
}

fn shorten(text: &str, width: usize) -> String {
    let count = text.chars().count();
    if count <= width {
        text.to_string()
    } else {
        let tail: String = text.chars().skip(count + 1 - width).collect();
        format!("…{tail}")
    }
}

/// The game of a lab scene (`lab`, `lab@GAME`); `None` for any other scene.
fn lab_scene(scene: &str) -> Option<Result<GameKind, String>> {
    let game = match scene.split_once('@') {
        Some(("lab", name)) => name,
        None if scene == "lab" => GameKind::TankCommander.name(),
        _ => return None,
    };
    Some(GameKind::from_name(game).ok_or_else(|| {
        let names: Vec<&str> = GameKind::ALL.iter().map(|g| g.name()).collect();
        format!("`{scene}`: no game `{game}` (one of {})", names.join(", "))
    }))
}

/// Games a lab scene's run asks for: more than its workers finish while it is measured.
const LAB_GAMES: u32 = 1_000_000;

/// What a scene opens: `None` for the empty app.
fn scene_launch(scene: &str) -> Result<Option<Launch>, String> {
    if let Some(game) = lab_scene(scene) {
        game?;
        return Ok(Some(Launch::default()));
    }
    match scene {
        "empty" => Ok(None),
        "menu" => Ok(Some(Launch::default())),
        file => {
            let (path, seats) = match file.rsplit_once('@') {
                Some((path, seats)) => (path, Some(seats)),
                None => (file, None),
            };
            let path = PathBuf::from(path);
            if !path.is_file() {
                return Err(format!(
                    "{}: no such file (a scene is `menu`, `empty`, or a scenario or setup)",
                    path.display()
                ));
            }
            let mut open = OpenGame::file(path);
            open.seed = Some(1);
            open.seats = seats.map(|s| s.split(',').map(crate::framework::Seat::parse).collect());
            Ok(Some(Launch {
                open: Some(open),
                ..Launch::default()
            }))
        }
    }
}

/// The image every camera renders to.
#[derive(Resource)]
struct Target(Handle<Image>);

/// Whether the render world has compiled every pipeline asked for.
#[derive(Resource, Clone, Default)]
struct PipelinesReady(Arc<AtomicBool>);

/// Frames the GPU may run behind, and the marker submitted after the frame before.
#[derive(Resource)]
struct InFlight {
    frames: u8,
    /// wgpu's submission index (a type Bevy does not re-export, hence `Any`).
    previous: Option<Box<dyn std::any::Any + Send + Sync>>,
}

/// Keeps `now` and hands back the index kept before it.
fn swap_index<T: Send + Sync + 'static>(
    slot: &mut Option<Box<dyn std::any::Any + Send + Sync>>,
    now: T,
) -> Option<T> {
    slot.replace(Box::new(now))
        .and_then(|previous| previous.downcast::<T>().ok())
        .map(|previous| *previous)
}

/// Renders every camera into one image of `size` and waits for the GPU each frame (or for
/// the frame before, with `in_flight` 2).
fn offscreen(app: &mut App, size: UVec2, in_flight: u8) {
    let mut image = Image::new_target_texture(size.x, size.y, TextureFormat::Rgba8UnormSrgb, None);
    // The screenshot copies from it.
    image.texture_descriptor.usage |= TextureUsages::COPY_SRC;
    let image = app.world_mut().resource_mut::<Assets<Image>>().add(image);
    app.insert_resource(Target(image.clone()));
    app.add_observer(move |add: On<Add, Camera>, mut commands: Commands| {
        commands
            .entity(add.entity)
            .insert(RenderTarget::Image(image.clone().into()));
    });
    let ready = PipelinesReady::default();
    let clock = Clock::default();
    app.insert_resource(ready.clone())
        .insert_resource(clock.clone())
        .add_systems(First, main_started)
        .add_systems(Last, main_ended);
    if let Some(render) = app.get_sub_app_mut(RenderApp) {
        render
            .insert_resource(ready)
            .insert_resource(clock)
            .insert_resource(InFlight {
                frames: in_flight,
                previous: None,
            })
            .add_systems(
                Render,
                (
                    render_started.in_set(RenderSystems::ExtractCommands),
                    (render_ended, wait_for_gpu)
                        .chain()
                        .in_set(RenderSystems::Cleanup),
                    count_render_meshes.in_set(RenderSystems::Cleanup),
                    count_transparent.in_set(RenderSystems::Prepare),
                ),
            );
    }
}

fn wait_for_gpu(
    device: Res<RenderDevice>,
    queue: Res<bevy::render::renderer::RenderQueue>,
    cache: Res<PipelineCache>,
    ready: Res<PipelinesReady>,
    clock: Res<Clock>,
    mut in_flight: ResMut<InFlight>,
) {
    let start = Instant::now();
    if in_flight.frames > 1 {
        // An empty submission marks the end of this frame's work; wait for the last one's.
        let now = queue.submit(std::iter::empty());
        if let Some(previous) = swap_index(&mut in_flight.previous, now) {
            let _ = device.poll(PollType::Wait {
                submission_index: Some(previous),
                timeout: None,
            });
        }
    } else {
        let _ = device.poll(PollType::wait_indefinitely());
    }
    clock
        .stages()
        .wait
        .push(start.elapsed().as_secs_f64() * 1000.0);
    ready.0.store(
        cache.waiting_pipelines().next().is_none(),
        Ordering::Relaxed,
    );
}

/// The profiling switches: egui painting nothing, a depth prepass, another multisampling.
fn what_if(app: &mut App, args: &BenchArgs) {
    if args.no_egui {
        app.add_systems(
            PostUpdate,
            (|mut outputs: Query<&mut bevy_egui::EguiRenderOutput>| {
                for mut output in &mut outputs {
                    output.paint_jobs.clear();
                }
            })
            .after(bevy_egui::EguiPostUpdateSet::ProcessOutput),
        );
    }
    if args.prepass {
        app.add_observer(|add: On<Add, Camera3d>, mut commands: Commands| {
            commands
                .entity(add.entity)
                .insert(bevy::core_pipeline::prepass::DepthPrepass);
        });
    }
    if let Some(samples) = &args.msaa {
        let msaa = match samples.as_str() {
            "1" => Msaa::Off,
            "2" => Msaa::Sample2,
            "8" => Msaa::Sample8,
            _ => Msaa::Sample4,
        };
        // Set every frame, after the client's own choice by the frame's size.
        app.add_systems(Last, move |mut cameras: Query<&mut Msaa>| {
            for mut current in &mut cameras {
                if *current != msaa {
                    *current = msaa;
                }
            }
        });
    }
}

/// Bevy's plugins for an offscreen app of `size`: no winit, and a window that never gets
/// a surface (systems that ask for the primary window still find one).
pub(crate) fn offscreen_plugins(
    plugins: bevy::app::PluginGroupBuilder,
    size: UVec2,
) -> bevy::app::PluginGroupBuilder {
    plugins
        .disable::<bevy::winit::WinitPlugin>()
        .set(WindowPlugin {
            primary_window: Some(Window {
                title: "Tanktable".into(),
                resolution: WindowResolution::new(size.x, size.y),
                ..default()
            }),
            exit_condition: ExitCondition::DontExit,
            close_when_requested: false,
            ..default()
        })
}

/// Frames in a row with every pipeline compiled before warm-up starts.
const SETTLED: u32 = 10;

/// Frames at most spent waiting for a scene to open and compile.
const MOST_SETTLE: u32 = 20_000;

/// Measures one scene in this process.
fn measure(scene: &str, args: &BenchArgs, build: BuildApp) -> Result<FrameStats, String> {
    let (size, warmup, frames) = (args.size, args.warmup, args.frames);
    let mut app = scene_app(scene, args, build)?;
    let lab = lab_scene(scene).transpose()?;
    if let Some(game) = lab {
        app.world_mut()
            .write_message(crate::client::core::open::OpenLab {
                game: Some(game),
                games: Some(LAB_GAMES),
                run: true,
                ..default()
            });
    }
    let settle_frames = settle(&mut app, scene, lab)?;
    for _ in 0..warmup {
        app.update();
    }
    let games_before = lab_games(&app);
    let timed = time_frames(&mut app, frames);
    let passes = if args.passes {
        print_pipelines(&app.world().resource::<PipelineList>().0.lock().unwrap());
        app.world()
            .get_resource::<bevy::diagnostic::DiagnosticsStore>()
            .map(|store| {
                pass_stats(
                    store
                        .iter()
                        .filter_map(|d| Some((d.path().as_str(), d.average()?))),
                    size,
                )
            })
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    // Resident memory as a player's table holds it: after the client has handed back
    // what opening the screen freed (a short run may end before it would have).
    crate::client::core::memory::trim_if_pending(app.world_mut());
    let mut stats = FrameStats::from_times(scene, timed.times.clone(), settle_frames);
    if lab.is_some() {
        stats.note = lab_note(&app, scene, games_before)?;
    }
    stage_stats(&mut stats, &app, frames, &timed);
    (stats.meshes, stats.vertices, stats.entities) = drawn(app.world_mut());
    (stats.mesh_assets, stats.mesh_bytes, stats.mesh_copy_bytes) = mesh_memory(app.world());
    stats.egui_frames = timed.laid_out;
    stats.passes = passes;
    stats.smoothing = smoothing_drawn(app.world());
    stats.egui_why = timed.egui_why();
    if let Some(dir) = &args.screenshots {
        save_image(&mut app, dir, scene)?;
    }
    Ok(stats)
}

/// Builds the app of a scene (the empty app or the client), rendering offscreen with the
/// profiling switches, its plugins finished.
fn scene_app(scene: &str, args: &BenchArgs, build: BuildApp) -> Result<App, String> {
    let size = args.size;
    let mut app = match scene_launch(scene)? {
        None => {
            let mut app = App::new();
            app.add_plugins(offscreen_plugins(DefaultPlugins.build(), size))
                .add_systems(Startup, |mut commands: Commands| {
                    commands.spawn(Camera3d::default());
                });
            app
        }
        Some(mut launch) => {
            launch.offscreen = Some(size);
            launch.graphics = Some(crate::client::table::graphics::Graphics {
                antialiasing: crate::client::table::graphics::Antialiasing::from_key(
                    &args.antialiasing,
                )
                .unwrap_or_default(),
                shadows: !args.no_shadows,
                ..Default::default()
            });
            build(launch)?
        }
    };
    offscreen(&mut app, size, args.in_flight);
    what_if(&mut app, args);
    if args.passes {
        app.add_plugins(bevy::render::diagnostic::RenderDiagnosticsPlugin);
        let list = PipelineList::default();
        app.insert_resource(list.clone());
        if let Some(render) = app.get_sub_app_mut(RenderApp) {
            render
                .insert_resource(list)
                .add_systems(Render, list_pipelines.in_set(RenderSystems::Cleanup));
        }
    }
    while app.plugins_state() == PluginsState::Adding {
        bevy::tasks::tick_global_task_pools_on_main_thread();
    }
    app.finish();
    app.cleanup();
    Ok(app)
}

/// Runs frames until the scene is open and every pipeline compiled, `SETTLED` frames in a
/// row; the frames it took.
fn settle(app: &mut App, scene: &str, lab: Option<GameKind>) -> Result<u32, String> {
    let ready = app.world().resource::<PipelinesReady>().clone();
    let wants_game = scene != "empty" && scene != "menu" && lab.is_none();
    let mut settled = 0;
    let mut settle_frames = 0;
    while settled < SETTLED {
        app.update();
        settle_frames += 1;
        if settle_frames > MOST_SETTLE {
            return Err(format!(
                "{scene}: not ready after {MOST_SETTLE} frames (the game did not open, or pipelines never compiled)"
            ));
        }
        let playing = if lab.is_some() {
            app.world()
                .get_resource::<crate::client::screens::lab::LabScreen>()
                .is_some_and(crate::client::screens::lab::LabScreen::running)
        } else {
            !wants_game
                || app
                    .world()
                    .get_resource::<State<Screen>>()
                    .is_some_and(|s| *s.get() == Screen::Playing)
        };
        if playing && ready.0.load(Ordering::Relaxed) {
            settled += 1;
        } else {
            settled = 0;
        }
    }
    Ok(settle_frames)
}

/// The games the lab's run has finished (0 off the lab).
fn lab_games(app: &App) -> u64 {
    app.world()
        .get_resource::<crate::client::screens::lab::LabScreen>()
        .map_or(0, crate::client::screens::lab::LabScreen::finished_games)
}

/// The timed frames: their times, and the frames on which egui laid out, and why.
struct TimedFrames {
    times: Vec<f64>,
    laid_out: u32,
    whys: Vec<(&'static str, u32)>,
    frame_why: Vec<Option<&'static str>>,
}

impl TimedFrames {
    /// The two reasons egui laid out most often, with their counts.
    fn egui_why(mut self) -> String {
        self.whys.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
        self.whys
            .iter()
            .take(2)
            .map(|(why, n)| format!("{why} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Runs and times `frames` frames, noting why egui laid out on each.
fn time_frames(app: &mut App, frames: u32) -> TimedFrames {
    let mut times = Vec::with_capacity(frames as usize);
    let mut laid_out = 0;
    let mut whys: Vec<(&'static str, u32)> = Vec::new();
    let mut frame_why: Vec<Option<&'static str>> = Vec::with_capacity(frames as usize);
    let mut last = Instant::now();
    for _ in 0..frames {
        app.update();
        let now = Instant::now();
        times.push((now - last).as_secs_f64() * 1000.0);
        last = now;
        let due = app
            .world()
            .get_resource::<crate::client::frame::redraw::Redraw>()
            .filter(|redraw| redraw.due)
            .map(|redraw| redraw.why.unwrap_or("settling or the safety net"));
        frame_why.push(due);
        if let Some(why) = due {
            laid_out += 1;
            match whys.iter_mut().find(|(w, _)| *w == why) {
                Some((_, n)) => *n += 1,
                None => whys.push((why, 1)),
            }
        }
    }
    TimedFrames {
        times,
        laid_out,
        whys,
        frame_why,
    }
}

/// The note on a lab scene: its workers and the games they finished while timed; an error
/// if its run ended before the timed frames did.
fn lab_note(app: &App, scene: &str, games_before: u64) -> Result<String, String> {
    let screen = app
        .world()
        .resource::<crate::client::screens::lab::LabScreen>();
    if !screen.running() {
        return Err(format!(
            "{scene}: the lab's run ended before the timed frames did"
        ));
    }
    let workers = screen.workers();
    Ok(format!(
        "the lab's run: {workers} worker{}, {} games during the timed frames",
        if workers == 1 { "" } else { "s" },
        lab_games(app) - games_before
    ))
}

/// Fills in the stages' means, the slowest frames and the blended pass's frames.
fn stage_stats(stats: &mut FrameStats, app: &App, frames: u32, timed: &TimedFrames) {
    let clock = app.world().resource::<Clock>().stages();
    let n = frames as usize;
    stats.main_ms = Clock::mean_of_last(&clock.main, n);
    stats.render_ms = Clock::mean_of_last(&clock.render, n);
    stats.gpu_wait_ms = Clock::mean_of_last(&clock.wait, n);
    stats.slowest = slowest_frames(&timed.times, &clock, &timed.frame_why, stats.p50_ms);
    let blended = &clock.transparent[clock.transparent.len().saturating_sub(n)..];
    stats.transparent_frames = blended.iter().filter(|&&items| items > 0).count() as u32;
    stats.transparent_items = blended.last().copied().unwrap_or(0);
}

/// The edge smoothing a scene was drawn with: the key of the choice, and for the
/// automatic one what it stood for on this renderer.
fn smoothing_drawn(world: &World) -> String {
    use crate::client::table::graphics::{Antialiasing, Graphics, software_renderer};
    let Some(graphics) = world.get_resource::<Graphics>() else {
        return String::new();
    };
    let software =
        software_renderer(world.get_resource::<bevy::render::renderer::RenderAdapterInfo>());
    let drawn = graphics.antialiasing.resolve(software);
    if graphics.antialiasing == Antialiasing::Auto {
        let renderer = if software {
            "a software renderer"
        } else {
            "a GPU"
        };
        format!("{} (auto, on {renderer})", drawn.key())
    } else {
        drawn.key().to_string()
    }
}

/// The mesh entities some camera saw on the last frame, their vertices (as the renderer
/// holds them: a mesh that is only drawn keeps no copy in the main world), and the main
/// world's entities.
fn drawn(world: &mut World) -> (u32, u64, u32) {
    let entities = world.entities().count_spawned();
    let mut seen = world.query::<(&Mesh3d, &ViewVisibility)>();
    let seen: Vec<AssetId<Mesh>> = seen
        .iter(world)
        .filter(|(_, visibility)| visibility.get())
        .map(|(mesh, _)| mesh.0.id())
        .collect();
    let clock = world.resource::<Clock>().stages();
    let vertices = seen
        .iter()
        .filter_map(|id| clock.meshes.get(id))
        .map(|&n| u64::from(n))
        .sum();
    (seen.len() as u32, vertices, entities)
}

/// The meshes the renderer holds, the bytes of their vertices and indices there, and the
/// bytes of the copies the main world keeps.
fn mesh_memory(world: &World) -> (u32, u64, u64) {
    let copies = world
        .resource::<Assets<Mesh>>()
        .iter()
        .filter_map(|(_, mesh)| {
            // A mesh that is only drawn has handed its data to the renderer.
            let indices = match mesh.try_indices_option().ok()? {
                Some(bevy::mesh::Indices::U16(v)) => 2 * v.len() as u64,
                Some(bevy::mesh::Indices::U32(v)) => 4 * v.len() as u64,
                None => 0,
            };
            Some(mesh.count_vertices() as u64 * mesh.get_vertex_size() + indices)
        })
        .sum();
    let clock = world.resource::<Clock>().stages();
    (clock.meshes.len() as u32, clock.mesh_bytes, copies)
}

/// The three slowest frames over three times the median, and the three whose main world
/// took over three times its median, each with where its time went.
/// The render world's entries are those of the same frame's number; with pipelined
/// rendering it works on the frame before, so a spike may show in the next entry.
fn slowest_frames(
    times: &[f64],
    clock: &Stages,
    why: &[Option<&'static str>],
    p50: f64,
) -> Vec<String> {
    let tail = |entries: &[f64]| entries[entries.len().saturating_sub(times.len())..].to_vec();
    let (main, render, wait) = (tail(&clock.main), tail(&clock.render), tail(&clock.wait));
    let mut slow: Vec<usize> = (0..times.len()).filter(|&i| times[i] > 3.0 * p50).collect();
    slow.sort_by(|&a, &b| times[b].total_cmp(&times[a]));
    slow.truncate(3);
    // The main world's own spikes, which software rendering's long frames would hide.
    let mut sorted = main.clone();
    sorted.sort_by(f64::total_cmp);
    let main_p50 = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
    let mut main_slow: Vec<usize> = (0..main.len())
        .filter(|&i| main[i] > 3.0 * main_p50 && !slow.contains(&i))
        .collect();
    main_slow.sort_by(|&a, &b| main[b].total_cmp(&main[a]));
    slow.extend(main_slow.into_iter().take(3));
    slow.iter()
        .map(|&i| {
            let at = |v: &[f64], j: usize| v.get(j).copied().unwrap_or(f64::NAN);
            // The last timed frame has no next render entry.
            let next = render
                .get(i + 1)
                .map(|ms| format!(" then {ms:.2}"))
                .unwrap_or_default();
            format!(
                "frame {i}: {:.2} ms (main {:.2}, render {:.2}{next}, gpu wait {:.2}){}",
                times[i],
                at(&main, i),
                at(&render, i),
                at(&wait, i),
                why.get(i)
                    .copied()
                    .flatten()
                    .map(|w| format!("; egui laid out: {w}"))
                    .unwrap_or_default()
            )
        })
        .collect()
}

/// Saves the image the cameras render to as `DIR/<scene>.png`.
fn save_image(app: &mut App, dir: &std::path::Path, scene: &str) -> Result<(), String> {
    use bevy::render::view::screenshot::{Screenshot, save_to_disk};
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let name: String = label(scene)
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let path = dir.join(format!("{name}.png"));
    let _ = std::fs::remove_file(&path);
    let image = app.world().resource::<Target>().0.clone();
    app.world_mut()
        .spawn(Screenshot::image(image))
        .observe(save_to_disk(path.clone()));
    for _ in 0..600 {
        app.update();
        if path.is_file() {
            // Let the writer finish the file.
            for _ in 0..10 {
                app.update();
            }
            return Ok(());
        }
    }
    Err(format!(
        "{}: the screenshot was not written",
        path.display()
    ))
}

/// The render passes among Bevy's render diagnostics (`render/PASS/elapsed_gpu` and
/// `render/PASS/fragment_shader_invocations`), the slowest on the GPU first; passes that
/// took under a microsecond and shaded nothing are left out, and a span nested in a pass
/// is counted as the pass.
fn pass_stats<'a>(
    diagnostics: impl Iterator<Item = (&'a str, f64)>,
    size: UVec2,
) -> Vec<PassStats> {
    let pixels = f64::from(size.x) * f64::from(size.y);
    let mut passes: Vec<PassStats> = Vec::new();
    for (path, mean) in diagnostics {
        let Some((name, what)) = path
            .strip_prefix("render/")
            .and_then(|rest| rest.rsplit_once('/'))
        else {
            continue;
        };
        let at = match passes.iter().position(|p| p.name == name) {
            Some(at) => at,
            None => {
                passes.push(PassStats {
                    name: name.to_string(),
                    gpu_ms: 0.0,
                    fragments_per_pixel: None,
                });
                passes.len() - 1
            }
        };
        match what {
            "elapsed_gpu" => passes[at].gpu_ms = mean,
            "fragment_shader_invocations" if pixels > 0.0 => {
                passes[at].fragments_per_pixel = Some(mean / pixels);
            }
            _ => {}
        }
    }
    // A span inside a pass (FXAA's `fxaa/fxaa`) times the same work again: its counts go
    // to the pass, and it is not listed twice.
    let nested: Vec<(usize, Option<f64>)> = passes
        .iter()
        .filter_map(|p| {
            let (parent, _) = p.name.rsplit_once('/')?;
            let at = passes.iter().position(|q| q.name == parent)?;
            Some((at, p.fragments_per_pixel))
        })
        .collect();
    for (at, fragments) in nested {
        let parent = &mut passes[at];
        parent.fragments_per_pixel = parent.fragments_per_pixel.or(fragments);
    }
    let names: Vec<String> = passes.iter().map(|p| p.name.clone()).collect();
    passes.retain(|p| {
        p.name
            .rsplit_once('/')
            .is_none_or(|(parent, _)| !names.iter().any(|n| n == parent))
    });
    passes.retain(|p| p.gpu_ms >= 0.001 || p.fragments_per_pixel.is_some_and(|f| f > 0.0));
    passes.sort_by(|a, b| b.gpu_ms.total_cmp(&a.gpu_ms));
    passes
}

/// The render pipelines compiled, as lines (`--passes`), shared by the two worlds.
#[derive(Resource, Clone, Default)]
struct PipelineList(Arc<Mutex<Vec<String>>>);

/// Lists the compiled pipelines by label, multisampling and shader variant, whenever
/// their number changes: under software rendering each is machine code in RAM.
fn list_pipelines(cache: Res<PipelineCache>, list: Res<PipelineList>) {
    use bevy::render::render_resource::{CachedPipelineState, PipelineDescriptor};
    let ok = || {
        cache
            .pipelines()
            .filter(|p| matches!(p.state, CachedPipelineState::Ok(_)))
    };
    let mut rows = list.0.lock().unwrap();
    if ok().count() == rows.len() {
        return;
    }
    *rows = ok()
        .map(|p| match &p.descriptor {
            PipelineDescriptor::RenderPipelineDescriptor(d) => {
                let defs: Vec<String> = d
                    .fragment
                    .as_ref()
                    .map(|f| f.shader_defs.iter().map(|d| format!("{d:?}")).collect())
                    .unwrap_or_default();
                format!(
                    "render {} ×{} {}",
                    d.label.as_deref().unwrap_or("?"),
                    d.multisample.count,
                    defs.join(" ")
                )
            }
            PipelineDescriptor::ComputePipelineDescriptor(d) => {
                format!("compute {}", d.label.as_deref().unwrap_or("?"))
            }
        })
        .collect();
    rows.sort();
}

fn print_pipelines(rows: &[String]) {
    println!("{PASS}pipelines compiled: {}", rows.len());
    for row in rows {
        println!("{PASS}  {row}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lab_scene_names_its_game_and_a_bad_game_is_refused() {
        assert_eq!(lab_scene("lab"), Some(Ok(GameKind::TankCommander)));
        assert_eq!(
            lab_scene("lab@battle-tanks"),
            Some(Ok(GameKind::BattleTanks))
        );
        let bad = lab_scene("lab@chess").unwrap().unwrap_err();
        assert!(
            bad.contains("no game `chess`") && bad.contains("tank-chess"),
            "{bad}"
        );
        assert_eq!(lab_scene("menu"), None);
        assert_eq!(lab_scene("scenarios/battle.ron@greedy"), None);
        assert!(scene_launch("lab@range-duel").unwrap().is_some());
        assert!(scene_launch("lab@nothing").is_err());
    }

    #[test]
    fn sizes_are_read_and_bad_ones_refused() {
        assert_eq!(parse_size("1920x1080"), Ok(UVec2::new(1920, 1080)));
        assert_eq!(parse_size("640×480"), Ok(UVec2::new(640, 480)));
        assert!(parse_size("1920").unwrap_err().contains("WIDTHxHEIGHT"));
        assert!(parse_size("0x10").unwrap_err().contains("from 16"));
    }

    #[test]
    fn the_table_divides_by_the_median_empty_run() {
        let stats = |scene: &str, mean_ms: f64, rss_mib: f64| FrameStats {
            scene: scene.into(),
            frames: 10,
            mean_ms,
            p50_ms: mean_ms,
            p95_ms: mean_ms,
            p99_ms: mean_ms,
            max_ms: mean_ms,
            fps: 1000.0 / mean_ms,
            spikes: 0,
            rss_mib,
            peak_mib: rss_mib,
            settle_frames: 1,
            main_ms: 0.0,
            render_ms: 0.0,
            gpu_wait_ms: 0.0,
            egui_frames: 0,
            egui_why: String::new(),
            slowest: Vec::new(),
            meshes: 0,
            vertices: 0,
            entities: 0,
            mesh_assets: 0,
            mesh_bytes: 0,
            mesh_copy_bytes: 0,
            transparent_frames: 0,
            transparent_items: 0,
            note: String::new(),
            passes: Vec::new(),
            smoothing: String::new(),
        };
        let done = [
            stats("empty", 2.0, 300.0),
            stats("menu", 3.0, 330.0),
            stats("empty", 4.0, 100.0),
            stats("empty", 3.0, 200.0),
        ];
        assert_eq!(empty_baseline(&done), Some((3.0, 200.0)));
        let table = table(&done);
        let menu = table.lines().find(|l| l.starts_with("menu")).unwrap();
        assert!(menu.ends_with("1.00    1.65"), "{menu}");
    }

    #[test]
    fn a_main_world_spike_is_named_even_when_the_frames_hide_it() {
        let times = vec![50.0; 10];
        let clock = Stages {
            main: vec![1.0, 1.0, 1.0, 9.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
            render: vec![49.0; 10],
            wait: vec![0.5; 10],
            ..Stages::default()
        };
        let mut why = vec![None; 10];
        why[3] = Some("the session");
        let slow = slowest_frames(&times, &clock, &why, 50.0);
        assert_eq!(slow.len(), 1, "{slow:?}");
        assert!(
            slow[0].starts_with("frame 3: 50.00 ms (main 9.00"),
            "{slow:?}"
        );
        assert!(slow[0].ends_with("egui laid out: the session"), "{slow:?}");
        // A frame over three times the median comes first.
        let mut times = times;
        times[7] = 200.0;
        let slow = slowest_frames(&times, &clock, &why, 50.0);
        assert!(slow[0].starts_with("frame 7: 200.00 ms"), "{slow:?}");
        assert!(slow[1].starts_with("frame 3:"), "{slow:?}");
        // The last timed frame has no render entry after it to name.
        times[9] = 300.0;
        let slow = slowest_frames(&times, &clock, &why, 50.0);
        assert_eq!(
            slow[0], "frame 9: 300.00 ms (main 1.00, render 49.00, gpu wait 0.50)",
            "{slow:?}"
        );
    }

    #[test]
    fn passes_are_read_from_the_render_diagnostics_per_pixel_and_slowest_first() {
        let diagnostics = [
            ("render/main_opaque_pass_3d/elapsed_gpu", 2.5),
            (
                "render/main_opaque_pass_3d/fragment_shader_invocations",
                4_000.0,
            ),
            ("render/main_opaque_pass_3d/elapsed_cpu", 0.1),
            ("render/fxaa/elapsed_gpu", 0.4),
            ("render/fxaa/fxaa/elapsed_gpu", 0.39),
            ("render/fxaa/fxaa/fragment_shader_invocations", 2_000.0),
            ("render/clustering/elapsed_gpu", 0.0001),
            ("render/bin_unpacking/elapsed_gpu", 0.02),
            ("render/bin_unpacking/compute_shader_invocations", 90.0),
            ("fps", 60.0),
        ];
        let passes = pass_stats(diagnostics.into_iter(), UVec2::new(50, 40));
        let pass = |name: &str, gpu_ms, fragments_per_pixel| PassStats {
            name: name.into(),
            gpu_ms,
            fragments_per_pixel,
        };
        assert_eq!(
            passes,
            [
                pass("main_opaque_pass_3d", 2.5, Some(2.0)),
                pass("fxaa", 0.4, Some(1.0)),
                pass("bin_unpacking", 0.02, None),
            ]
        );
    }

    #[test]
    fn percentiles_and_spikes_come_from_the_times() {
        let mut times: Vec<f64> = (1..=100).map(f64::from).collect();
        times.push(1000.0);
        let s = FrameStats::from_times("x", times, 0);
        assert_eq!(s.p50_ms, 51.0);
        assert_eq!(s.max_ms, 1000.0);
        assert_eq!(s.spikes, 1);
    }
}
