//! Render tests: the real client under Xvfb with Mesa's software Vulkan, checked by what a
//! player would see. Screenshots are kept in `artifacts/render/`.
//!
//! Each test runs [`render_child`], a test of this binary, in a child process under
//! `xvfb-run`: the child builds the client app with the library's own `client::app`, opens
//! a game set up for the picture (a setup, seats, bots' first actions), takes the
//! screenshot at a given frame and exits. Scripting the client is test code, not a switch
//! of the shipped binary.
//!
//! Needs `xvfb-run`; without it the test is skipped, unless `TANKTABLE_REQUIRE_RENDER` is
//! set (CI sets it), when a missing Xvfb is a failure.

use std::path::{Path, PathBuf};
use std::process::Command;

use bevy::prelude::*;
use tanktable::client::Launch;
use tanktable::client::core::session::{GameClient, Session, insert_session};
use tanktable::client::core::{Clean, Screen};
use tanktable::client::frame::capture::CaptureTo;
use tanktable::client::frame::redraw::Redraw;
use tanktable::client::screens::builder::BuilderPlan;
use tanktable::client::table::graphics::{Antialiasing, Graphics};
use tanktable::framework::playable::{self, Playable};
use tanktable::framework::{Seat, SeatedMatch};
use tanktable::rules::{GameKind, detect};

use crate::project;

fn xvfb_available() -> bool {
    Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Pixels of a PNG as RGB triples.
fn pixels(path: &Path) -> (u32, u32, Vec<[u8; 3]>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let px = buf[..info.buffer_size()]
        .chunks(channels)
        .map(|c| [c[0], c[1], c.get(2).copied().unwrap_or(c[0])])
        .collect();
    (info.width, info.height, px)
}

/// The first side's paint (Okabe and Ito's sky blue) as the table's light shows it.
fn blue_side([r, g, b]: [i32; 3]) -> bool {
    b > 180 && b > r + 60 && b > g + 20
}

/// The second side's paint (vermillion) as the table's light shows it.
fn red_side([r, g, b]: [i32; 3]) -> bool {
    r > 180 && r > g + 70 && r > b + 120
}

fn count(px: &[[u8; 3]], pred: impl Fn([i32; 3]) -> bool) -> usize {
    px.iter()
        .filter(|p| pred([i32::from(p[0]), i32::from(p[1]), i32::from(p[2])]))
        .count()
}

/// Whether render tests can run here; a missing Xvfb fails when `TANKTABLE_REQUIRE_RENDER`
/// is set.
fn can_render() -> bool {
    if xvfb_available() {
        return true;
    }
    assert!(
        std::env::var_os("TANKTABLE_REQUIRE_RENDER").is_none(),
        "xvfb-run is required but missing"
    );
    eprintln!("skipped: xvfb-run is not installed");
    false
}

/// What a child draws: a game opened on `setup` with `seats`, the bots' first `autoplay`
/// actions played, screenshot at `frame`; or the menu on a game's page.
#[derive(Clone, Debug, Default)]
struct Scene {
    setup: Option<String>,
    seats: Vec<String>,
    seed: u64,
    autoplay: usize,
    frame: u32,
    clean: bool,
    menu: Option<GameKind>,
    /// Print the resident memory after `frame` frames instead of taking a screenshot;
    /// with `setup` "empty", of an empty Bevy app with one camera.
    measure: bool,
    /// Open the upgrade builder on the Tank Commander `setup` instead of playing it.
    builder: bool,
    /// `setup` is a campaign: play its next battle, as the menu opens it.
    campaign: bool,
    /// Open the what-if window at frame 10 and simulate from there (Tank Commander).
    whatif: bool,
    /// Open the playtest lab on this question (a lab variant file, or `sweep:SETUP:SPEC`)
    /// with `autoplay` games a variant, and run it.
    lab: Option<String>,
    /// The scenario editor on a script of edits (see [`editor_script`]).
    editor: Option<String>,
    /// Tank Chess: click a White piece through the pointer, as a player would, and print
    /// what was picked and how many meshes the table draws (see [`click_a_piece`]).
    click_piece: bool,
    /// Draw with these graphics settings: `KEY,SHADOWS` ([`Antialiasing::key`], `true`
    /// or `false`) instead of the data folder's.
    graphics: Option<String>,
    /// After `autoplay`, people take every seat, so the table holds still at that action.
    hold: bool,
    /// Check the table's framing: at 1280×720 and at 1920×1080, at an angle and (for the
    /// boards) straight down, print how much of the table's outline each panel covers
    /// and take a screenshot of each (see [`framing_script`]).
    framing: bool,
    /// With `menu`: that game's "How to play" card open over the menu.
    how_to: bool,
    /// Tank Commander: the guided first game's panel asks for its first step.
    guide: bool,
    /// Print the panels as a screen reader gets them (egui's AccessKit tree) at `frame`.
    accessible: bool,
}

impl Scene {
    fn on(setup: &str) -> Self {
        Self {
            setup: Some(setup.into()),
            frame: 25,
            ..Self::default()
        }
    }

    fn encode(&self) -> String {
        format!(
            "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}",
            self.setup.clone().unwrap_or_default(),
            self.seats.join(","),
            self.seed,
            self.autoplay,
            self.frame,
            self.clean,
            self.menu.map_or("", GameKind::name),
            self.measure,
            self.builder,
            self.campaign,
            self.lab.clone().unwrap_or_default(),
            self.whatif,
            self.editor.clone().unwrap_or_default(),
            self.click_piece,
            self.graphics.clone().unwrap_or_default(),
            self.hold,
            self.framing,
            self.how_to,
            self.guide,
            self.accessible,
        )
    }

    fn decode(text: &str) -> Self {
        let f: Vec<&str> = text.split('|').collect();
        Self {
            setup: Some(f[0].to_string()).filter(|s| !s.is_empty()),
            seats: f[1]
                .split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
            seed: f[2].parse().unwrap(),
            autoplay: f[3].parse().unwrap(),
            frame: f[4].parse().unwrap(),
            clean: f[5] == "true",
            menu: GameKind::from_name(f[6]),
            measure: f[7] == "true",
            builder: f[8] == "true",
            campaign: f[9] == "true",
            lab: Some(f[10].to_string()).filter(|s| !s.is_empty()),
            whatif: f[11] == "true",
            editor: Some(f[12].to_string()).filter(|s| !s.is_empty()),
            click_piece: f[13] == "true",
            graphics: Some(f[14].to_string()).filter(|s| !s.is_empty()),
            hold: f[15] == "true",
            framing: f[16] == "true",
            how_to: f[17] == "true",
            guide: f[18] == "true",
            accessible: f[19] == "true",
        }
    }
}

/// Draws `scene` in a child process under Xvfb, writing `name` into `artifacts/render/`.
fn render(scene: &Scene, name: &str) -> PathBuf {
    render_quiet(scene, name, false).0
}

/// [`render`], and the child's output; `quiet`: the panels are never laid out again
/// for want of time alone ([`Redraw::max_wait`]), and each of the last frames prints
/// whether they were.
fn render_quiet(scene: &Scene, name: &str, quiet: bool) -> (PathBuf, String) {
    let dir: PathBuf = project("artifacts/render");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join(name);
    let _ = std::fs::remove_file(&out);
    let mut command = child(scene, &dir.join("data"), &out);
    if quiet {
        command.env("TANKTABLE_RENDER_QUIET", "1");
    }
    let status = command.output().expect("xvfb-run starts");
    assert!(
        status.status.success(),
        "the client failed under Xvfb: {scene:?}\n{}\n{}",
        String::from_utf8_lossy(&status.stdout),
        String::from_utf8_lossy(&status.stderr)
    );
    assert!(out.is_file(), "no screenshot was written: {scene:?}");
    (out, String::from_utf8_lossy(&status.stdout).into_owned())
}

/// The command that runs [`render_child`] on `scene` under Xvfb, saving into `data` and
/// writing its screenshot to `out`.
fn child(scene: &Scene, data: &Path, out: &Path) -> Command {
    let mut command = Command::new("xvfb-run");
    let screen = if scene.framing {
        "-screen 0 1920x1080x24"
    } else {
        "-screen 0 1280x720x24"
    };
    command
        .args(["-a", "-s", screen])
        .arg(std::env::current_exe().unwrap())
        .args([
            "render::render_child",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .current_dir(project("."))
        .env("RUST_LOG", "error")
        .env("TANKTABLE_DATA", data)
        .env("TANKTABLE_RENDER_SCENE", scene.encode())
        .env("TANKTABLE_RENDER_OUT", out);
    command
}

/// The child's side of [`render`]: the client, set up as the scene says.
#[test]
#[ignore = "the render tests run it in a child process under Xvfb"]
fn render_child() {
    let (Ok(scene), Ok(out)) = (
        std::env::var("TANKTABLE_RENDER_SCENE"),
        std::env::var("TANKTABLE_RENDER_OUT"),
    ) else {
        return;
    };
    let scene = Scene::decode(&scene);
    if scene.measure
        && let Some(reference @ ("empty" | "one-cube")) = scene.setup.as_deref()
    {
        let cube = reference == "one-cube";
        let mut app = App::new();
        app.add_plugins(DefaultPlugins.set(bevy::winit::WinitPlugin {
            run_on_any_thread: true,
        }))
        .add_systems(
            Startup,
            move |mut commands: Commands,
                  mut meshes: ResMut<Assets<Mesh>>,
                  mut materials: ResMut<Assets<StandardMaterial>>| {
                commands.spawn((
                    Camera3d::default(),
                    Transform::from_xyz(0.0, 4.0, 6.0).looking_at(Vec3::ZERO, Vec3::Y),
                ));
                if cube {
                    commands.spawn(DirectionalLight::default());
                    commands.spawn((
                        Mesh3d(meshes.add(Cuboid::default())),
                        MeshMaterial3d(materials.add(Color::WHITE)),
                    ));
                }
            },
        );
        measure_after(&mut app, scene.frame);
        app.run();
        return;
    }
    let graphics = scene.graphics.as_deref().map(|g| {
        let (key, shadows) = g.split_once(',').unwrap();
        Graphics {
            antialiasing: Antialiasing::from_key(key).unwrap(),
            shadows: shadows == "true",
            ..Default::default()
        }
    });
    let mut app = tanktable::client::app(Launch {
        menu_page: scene.menu,
        graphics,
        ..Launch::default()
    })
    .unwrap();
    if scene.measure {
        measure_after(&mut app, scene.frame);
    } else {
        app.insert_resource(CaptureTo {
            path: out.clone().into(),
            frame: scene.frame,
            exit: true,
        });
    }
    if scene.clean {
        app.insert_resource(Clean);
    }
    if scene.guide {
        app.insert_resource(tanktable::client::games::tank_commander::guide::Guide::default());
    }
    if let Some(game) = scene.menu.filter(|_| scene.how_to) {
        app.insert_resource(tanktable::client::screens::menu::HowToPlay(game));
    }
    {
        // What the camera smooths edges with, and on what renderer, just before the
        // screenshot.
        use bevy::anti_alias::{fxaa::Fxaa, smaa::Smaa};
        use bevy::render::renderer::RenderAdapterInfo;
        let last = scene.frame;
        app.add_systems(
            Last,
            move |count: Res<bevy::diagnostic::FrameCount>,
                  adapter: Option<Res<RenderAdapterInfo>>,
                  cameras: Query<(&Msaa, Has<Smaa>, Has<Fxaa>), With<Camera3d>>| {
                if count.0 + 1 == last {
                    let software =
                        tanktable::client::table::graphics::software_renderer(adapter.as_deref());
                    for (msaa, smaa, fxaa) in &cameras {
                        println!(
                            "SMOOTHING software {software} msaa {msaa:?} smaa {smaa} fxaa {fxaa}"
                        );
                    }
                }
            },
        );
    }
    if std::env::var_os("TANKTABLE_RENDER_QUIET").is_some() {
        app.world_mut().resource_mut::<Redraw>().max_wait = f64::INFINITY;
        let last = scene.frame;
        app.add_systems(
            Last,
            move |count: Res<bevy::diagnostic::FrameCount>, redraw: Res<Redraw>| {
                if count.0 + 3 >= last && count.0 <= last {
                    println!("PANELS laid out {}", redraw.due);
                }
            },
        );
    }
    if scene.whatif {
        use tanktable::client::frame::hud::Panels;
        use tanktable::client::frame::whatif::WhatIf;
        use tanktable::rules::tank_commander::TankCommander;
        app.add_systems(
            Update,
            |count: Res<bevy::diagnostic::FrameCount>,
             session: Option<Res<Session<TankCommander>>>,
             mut panels: ResMut<Panels>,
             mut what: ResMut<WhatIf>| {
                if count.0 == 10
                    && let Some(s) = session
                {
                    panels.whatif = true;
                    what.games = 400;
                    what.candidates = 4;
                    what.ask(s.state().clone(), (s.generation, s.revision));
                }
            },
        );
    }
    if scene.click_piece {
        app.add_systems(Update, click_a_piece);
    }
    if scene.accessible {
        let last = scene.frame;
        app.add_systems(
            Last,
            move |count: Res<bevy::diagnostic::FrameCount>,
                  outputs: Query<&bevy_egui::EguiOutput>| {
                if count.0 + 2 == last {
                    print_accessible(outputs);
                }
            },
        );
    }
    if scene.framing {
        app.world_mut().remove_resource::<CaptureTo>();
        let boards = scene.setup.as_deref().is_some_and(|s| {
            let path = project(s);
            let text = std::fs::read_to_string(&path).unwrap();
            matches!(
                detect(&path, &text).unwrap().game,
                GameKind::TankCommander | GameKind::TankChess
            )
        });
        // Each size at an angle, straight down for the boards, then the interface at
        // one and a half times its size.
        let sizes = [UVec2::new(1280, 720), UVec2::new(1920, 1080)];
        let steps: Vec<(UVec2, bool, u16)> = sizes
            .into_iter()
            .flat_map(|size| {
                std::iter::once((size, false, 100)).chain(boards.then_some((size, true, 100)))
            })
            .chain(sizes.map(|size| (size, false, 150)))
            .collect();
        let out = PathBuf::from(&out);
        app.add_systems(
            Last,
            move |count: Res<bevy::diagnostic::FrameCount>,
                  mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
                  mut framing: ResMut<tanktable::client::table::framing::Framing>,
                  mut graphics: ResMut<Graphics>,
                  outlines: Res<tanktable::client::frame::input::PanelOutlines>,
                  cameras: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
                  mut commands: Commands,
                  mut exit: MessageWriter<AppExit>| {
                framing_script(
                    count.0,
                    &steps,
                    &out,
                    (
                        &mut windows,
                        &mut framing,
                        &mut graphics,
                        &outlines,
                        &cameras,
                    ),
                    &mut commands,
                    &mut exit,
                );
            },
        );
    }
    if let Some(script) = &scene.editor {
        use tanktable::client::screens::editor::OpenEditor;
        let chess = script.starts_with("chess");
        app.world_mut().write_message(OpenEditor {
            path: None,
            size: Some(if chess { (10, 10) } else { (12, 12) }),
            chess,
            ..Default::default()
        });
        for order in editor_script(script) {
            app.world_mut().write_message(order);
        }
        if script == "tap" {
            app.add_systems(Update, tap_the_editor);
        }
        if script == "builder" {
            // The upgrade builder opened on the first tank once the edits are in.
            app.add_systems(
                Update,
                |count: Res<bevy::diagnostic::FrameCount>,
                 mut screen: ResMut<tanktable::client::screens::editor::EditorScreen>| {
                    if count.0 == 10 {
                        assert!(screen.open_builder(0));
                    }
                },
            );
        }
    } else if let Some(question) = &scene.lab {
        app.world_mut()
            .write_message(lab_question(question, scene.autoplay));
        // The frame time while the workers run, and after: the screen stays live.
        let last = scene.frame;
        app.add_systems(
            Last,
            move |lab: Res<tanktable::client::screens::lab::LabScreen>,
                  time: Res<Time>,
                  count: Res<bevy::diagnostic::FrameCount>,
                  mut sums: Local<[(f64, u32); 2]>| {
                if count.0 > 5 {
                    let i = usize::from(!lab.running());
                    sums[i].0 += f64::from(time.delta_secs()) * 1000.0;
                    sums[i].1 += 1;
                }
                if count.0 == last {
                    let mean = |(t, n): (f64, u32)| t / f64::from(n.max(1));
                    println!(
                        "LAB frame ms: {:.1} over {} frames during the run, {:.1} over {} after",
                        mean(sums[0]),
                        sums[0].1,
                        mean(sums[1]),
                        sums[1].1
                    );
                }
            },
        );
    } else if let Some(setup) = scene.setup.as_deref().filter(|_| scene.builder) {
        let path = project(setup);
        use tanktable::rules::tank_commander::{Rules, Scenario};
        let setup = Scenario::load(&path, &Rules::builtin()).unwrap().setup;
        app.insert_resource(BuilderPlan::Scenario {
            setup,
            source: path.display().to_string(),
            seats: Vec::new(),
        });
        app.world_mut()
            .resource_mut::<NextState<Screen>>()
            .set(Screen::Builder);
    } else if let Some(setup) = scene.setup.as_deref().filter(|_| scene.campaign) {
        stage_campaign(&mut app, &project(setup), &scene);
    } else if let Some(setup) = &scene.setup {
        let path = project(setup);
        let text = std::fs::read_to_string(&path).unwrap();
        let game = detect(&path, &text).unwrap().game;
        tanktable::dispatch_game!(game, stage(&mut app, &path, &scene));
    }
    app.run();
}

/// The panels as a screen reader gets them: each node of the last frame's AccessKit
/// tree that has words, as `A11Y role: label = value`.
fn print_accessible(outputs: Query<&bevy_egui::EguiOutput>) {
    let mut any = false;
    for output in &outputs {
        let Some(update) = &output.platform_output.accesskit_update else {
            continue;
        };
        any = true;
        for (_, node) in &update.nodes {
            let (label, value) = (node.label(), node.value());
            if label.is_some() || value.is_some() {
                println!(
                    "A11Y {:?}: {} = {}",
                    node.role(),
                    label.unwrap_or_default(),
                    value.unwrap_or_default()
                );
            }
        }
    }
    println!("A11Y tree {any}");
}

/// The frame the framing script starts at (pipelines compiled), and the frames each of
/// its steps takes: set, settle, screenshot.
const FRAMING_START: u32 = 30;
const FRAMING_STEP: u32 = 26;
const FRAMING_SHOT: u32 = 16;

/// One step of the framing check each [`FRAMING_STEP`] frames: the window resized and the
/// view reset (at an angle or straight down); once settled, the table's outline projected
/// by the real camera, the area of it each panel on screen covers (panels under 40
/// pixels a side, the § links on the table, aside) printed as `FRAMING` lines, and a
/// screenshot, the first to `out`, the others beside it.
#[allow(clippy::type_complexity, reason = "a system's queries, passed on")]
fn framing_script(
    frame: u32,
    steps: &[(UVec2, bool, u16)],
    out: &Path,
    (windows, framing, graphics, outlines, cameras): (
        &mut Query<&mut Window, With<bevy::window::PrimaryWindow>>,
        &mut tanktable::client::table::framing::Framing,
        &mut Graphics,
        &tanktable::client::frame::input::PanelOutlines,
        &Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    ),
    commands: &mut Commands,
    exit: &mut MessageWriter<AppExit>,
) {
    use bevy::render::view::screenshot::{Screenshot, save_to_disk};
    use tanktable::client::table::framing::{covered, hull};
    let Some(since) = frame.checked_sub(FRAMING_START) else {
        return;
    };
    let (k, at) = ((since / FRAMING_STEP) as usize, since % FRAMING_STEP);
    let Some(&(size, top_down, scale)) = steps.get(k) else {
        if since == FRAMING_STEP * steps.len() as u32 + 30 {
            exit.write(AppExit::Success);
        }
        return;
    };
    let label = format!(
        "{}x{}{}{}",
        size.x,
        size.y,
        if top_down { "-top" } else { "" },
        if scale == 100 {
            String::new()
        } else {
            format!("-ui{scale}")
        }
    );
    if at == 0 {
        if let Ok(mut window) = windows.single_mut() {
            window.resolution.set(size.x as f32, size.y as f32);
        }
        graphics.ui_scale = scale;
        framing.reset(top_down);
    }
    if at != FRAMING_SHOT {
        return;
    }
    let (Ok(window), Ok((camera, eye))) = (windows.single(), cameras.single()) else {
        return;
    };
    let points: Vec<Vec2> = framing
        .outline()
        .iter()
        .filter_map(|p| camera.world_to_viewport(eye, *p).ok())
        .collect();
    let shape = hull(&points);
    let (lo, hi) = points.iter().fold((Vec2::MAX, Vec2::MIN), |(lo, hi), p| {
        (lo.min(*p), hi.max(*p))
    });
    let inside = points.len() == framing.outline().len()
        && lo.x >= 0.0
        && lo.y >= 0.0
        && hi.x <= window.width()
        && hi.y <= window.height();
    let panels: Vec<String> = outlines
        .now
        .iter()
        .filter(|r| r.width() >= 40.0 && r.height() >= 40.0)
        .map(|r| {
            format!(
                "[{:.0},{:.0} {:.0}x{:.0}: {:.0}]",
                r.min.x,
                r.min.y,
                r.width(),
                r.height(),
                covered(&shape, *r)
            )
        })
        .collect();
    let total: f32 = outlines
        .now
        .iter()
        .filter(|r| r.width() >= 40.0 && r.height() >= 40.0)
        .map(|r| covered(&shape, *r))
        .sum();
    println!(
        "FRAMING {label} window {}x{} outline {:.0},{:.0} to {:.0},{:.0} inside {inside} covered {total:.0} px panels {}",
        window.width(),
        window.height(),
        lo.x,
        lo.y,
        hi.x,
        hi.y,
        panels.join(" ")
    );
    let path = if k == 0 {
        out.to_path_buf()
    } else {
        out.with_file_name(format!(
            "{}-{label}.png",
            out.file_stem().unwrap().to_string_lossy()
        ))
    };
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(path));
}

/// Frames of [`tap_the_editor`]: the pointer put over the middle of the window, one
/// press and release of the left button within a single frame, the board read back.
const TAP_AT: [u32; 3] = [30, 34, 44];

/// A click shorter than a frame in the editor, as a quick click is at a few frames a
/// second under software rendering: the button's press and release reach Bevy in the
/// same frame (a 16 ms click at 60 frames a second does the same when it falls between
/// two frames). Prints how many cells became forest.
#[allow(clippy::needless_pass_by_value, reason = "a system's parameters")]
fn tap_the_editor(
    count: Res<bevy::diagnostic::FrameCount>,
    mut windows: Query<(Entity, &mut Window), With<bevy::window::PrimaryWindow>>,
    mut screen: ResMut<tanktable::client::screens::editor::EditorScreen>,
    mut buttons: MessageWriter<bevy::input::mouse::MouseButtonInput>,
) {
    use bevy::input::ButtonState;
    use tanktable::editor::Terrain;
    let Ok((window_entity, mut window)) = windows.single_mut() else {
        return;
    };
    if count.0 == TAP_AT[0] {
        screen.tool = tanktable::client::screens::editor::Tool::Terrain;
        screen.terrain = Terrain::Forest;
        let middle = window.size() / 2.0;
        window.set_cursor_position(Some(middle));
    } else if count.0 == TAP_AT[1] {
        for state in [ButtonState::Pressed, ButtonState::Released] {
            buttons.write(bevy::input::mouse::MouseButtonInput {
                button: MouseButton::Left,
                state,
                window: window_entity,
            });
        }
    } else if count.0 == TAP_AT[2]
        && let Some(editor) = &screen.editor
    {
        let design = editor.design();
        let forest = (0..12)
            .flat_map(|c| (0..12).map(move |r| [c, r]))
            .filter(|cell| design.terrain(*cell) == Terrain::Forest)
            .count();
        println!("TAPPED forest {forest}");
    }
}

/// Frames at which [`click_a_piece`] moves the pointer onto a piece, presses, releases,
/// and prints what it picked: once the camera has settled.
const CLICK_AT: [u32; 4] = [40, 42, 44, 48];

/// The real pointer's path to a Tank Chess piece: moved onto the first White piece not
/// under a panel, pressed and released there, through Bevy's picking (the rays, the
/// board's backend, the square's observers). Prints the square aimed at, the pick that
/// followed, and the number of meshes the table draws.
#[allow(clippy::needless_pass_by_value, reason = "a system's parameters")]
fn click_a_piece(
    count: Res<bevy::diagnostic::FrameCount>,
    session: Option<Res<Session<tanktable::rules::tank_chess::TankChess>>>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    windows: Query<Entity, With<bevy::window::PrimaryWindow>>,
    outlines: Res<tanktable::client::frame::input::PanelOutlines>,
    pick: Res<tanktable::client::games::tank_chess::ChessPick>,
    meshes: Query<(), With<Mesh3d>>,
    mut inputs: MessageWriter<bevy::picking::pointer::PointerInput>,
    mut aim: Local<Option<(tanktable::rules::tank_chess::Square, Vec2)>>,
) {
    use bevy::picking::pointer::{Location, PointerAction, PointerButton, PointerId, PointerInput};
    use tanktable::client::games::tank_chess::table::square_to_world;
    use tanktable::rules::tank_chess::PieceState;
    let (Some(session), Ok((camera, at)), Ok(window)) =
        (session, cameras.single(), windows.single())
    else {
        return;
    };
    let game = session.state();
    if count.0 == CLICK_AT[0] {
        *aim = game
            .pieces()
            .iter()
            .filter(|p| p.white && p.state == PieceState::Active)
            .find_map(|p| {
                let top = square_to_world(game, p.at) + Vec3::Y * 0.2;
                let screen = camera.world_to_viewport(at, top).ok()?;
                (!outlines.at(screen)).then_some((p.at, screen))
            });
    }
    let Some((square, screen)) = *aim else {
        return;
    };
    let location = Location {
        target: bevy::camera::NormalizedRenderTarget::Window(
            bevy::window::WindowRef::Entity(window)
                .normalize(None)
                .expect("a window entity"),
        ),
        position: screen,
    };
    let action = match count.0 {
        n if n == CLICK_AT[0] => PointerAction::Move { delta: Vec2::ONE },
        n if n == CLICK_AT[1] => PointerAction::Press(PointerButton::Primary),
        n if n == CLICK_AT[2] => PointerAction::Release(PointerButton::Primary),
        n if n == CLICK_AT[3] => {
            println!(
                "AIMED {square} PICKED {} MESHES {}",
                pick.piece.map_or("none".into(), |s| s.to_string()),
                meshes.iter().count()
            );
            return;
        }
        _ => return,
    };
    inputs.write(PointerInput::new(PointerId::Mouse, location, action));
}

/// Prints `RSS <KiB>` after `frames` frames, then exits.
fn measure_after(app: &mut App, frames: u32) {
    app.add_systems(
        Last,
        move |count: Res<bevy::diagnostic::FrameCount>, mut exit: MessageWriter<AppExit>| {
            if count.0 == frames {
                let kib = tanktable::client::core::memory::resident_kib().unwrap_or(0);
                println!("RSS {kib}");
                exit.write(AppExit::Success);
            }
        },
    );
}

/// The resident memory of `scene` after its frames, in MiB, in a child under Xvfb.
fn resident_mib(scene: &Scene) -> f64 {
    let data = std::env::temp_dir().join("tanktable-measure");
    let out = child(scene, &data, Path::new("unused"))
        .output()
        .expect("xvfb-run starts");
    let text = String::from_utf8_lossy(&out.stdout);
    let kib: f64 = text
        .lines()
        .find_map(|l| l.split_once("RSS ").map(|(_, k)| k))
        .and_then(|k| k.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no measurement from {scene:?}: {text}"));
    kib / 1024.0
}

/// Resident memory of the client beside an empty Bevy app with one camera, measured the
/// same way under Xvfb after 120 frames: the menu and the largest scenario of each game.
/// A second reference, a Bevy app that draws one lit cube, shows the fixed price of
/// drawing any mesh (under software Vulkan, GPU memory and shader compilation are RAM).
/// A report, not a check (run it with `cargo test memory -- --ignored --nocapture`).
#[test]
#[ignore = "a measurement: cargo test memory -- --ignored --nocapture"]
fn memory_beside_an_empty_app() {
    let measure = |setup: Option<&str>, menu: Option<GameKind>| Scene {
        setup: setup.map(str::to_string),
        frame: 120,
        measure: true,
        menu,
        ..Scene::default()
    };
    let median = |reference: &str| {
        let mut runs: Vec<f64> = (0..3)
            .map(|_| resident_mib(&measure(Some(reference), None)))
            .collect();
        runs.sort_by(f64::total_cmp);
        println!("{reference:<30} {runs:.0?} MiB, median {:.0}", runs[1]);
        runs[1]
    };
    let base = median("empty");
    let cube = median("one-cube");
    println!(
        "{:<30} {:>6} {:>9} {:>10}",
        "", "MiB", "÷ empty", "÷ one cube"
    );
    let scenes = [
        ("menu", None, Some(GameKind::TankCommander)),
        (
            "Tank Commander, River Town",
            Some("scenarios/battle.ron"),
            None,
        ),
        (
            "Tank Chess, 20x20",
            Some("scenarios/tank-chess/basic-20.ron"),
            None,
        ),
        (
            "Battle Tanks, eight",
            Some("scenarios/battle-tanks/eight-players.ron"),
            None,
        ),
        (
            "Tank Combat, four",
            Some("scenarios/tank-combat/deathmatch-4.ron"),
            None,
        ),
        ("Range Duel", Some("scenarios/range-duel/default.ron"), None),
    ];
    for (name, setup, menu) in scenes {
        let mib = resident_mib(&measure(setup, menu));
        println!(
            "{name:<30} {mib:>6.0} {:>8.2}x {:>9.2}x",
            mib / base,
            mib / cube
        );
    }
}

/// Puts game `G` on the table as `scene` says, once the app starts.
fn stage<G: GameClient>(app: &mut App, path: &Path, scene: &Scene) {
    let rules = G::load_rules(None).unwrap();
    let setup = playable::load_setup::<G>(path, &rules).unwrap();
    let seats = scene.seats.iter().map(|s| Seat::parse(s)).collect();
    let mut seated =
        SeatedMatch::<G>::new(setup, path.display().to_string(), scene.seed, seats).unwrap();
    seated.autoplay(scene.autoplay).unwrap();
    if scene.hold {
        seated.seats = vec![Seat::Person; seated.seats.len()];
    }
    let mut staged = Some(Session::new(seated, Some(path.to_path_buf())));
    app.add_systems(Startup, move |world: &mut World| {
        if let Some(session) = staged.take() {
            insert_session(world, session);
        }
    });
}

/// The next battle of the campaign at `path`, opened as the menu opens it, with
/// `scene.autoplay` actions played.
fn stage_campaign(app: &mut App, path: &Path, scene: &Scene) {
    use tanktable::client::games::tank_commander::campaign::CampaignPlay;
    use tanktable::rules::tank_commander::TankCommander;
    let seats: Vec<Seat> = scene.seats.iter().map(|s| Seat::parse(s)).collect();
    let play = CampaignPlay::next_battle(path, false, seats).unwrap();
    let mut seated = SeatedMatch::<TankCommander>::new(
        play.prepared.battle.clone(),
        "campaign".into(),
        scene.seed,
        play.seats.clone(),
    )
    .unwrap();
    seated.autoplay(scene.autoplay).unwrap();
    let mut staged = Some((Session::new(seated, None), play));
    app.add_systems(Startup, move |world: &mut World| {
        if let Some((session, play)) = staged.take() {
            insert_session(world, session);
            world.insert_resource(play);
        }
    });
}

#[test]
fn a_campaign_is_listed_in_the_menu_and_the_client_records_its_battle() {
    use tanktable::rules::tank_commander::Rules;
    use tanktable::rules::tank_commander::campaign::{Campaign, CampaignState, knock_outs_in};
    if !can_render() {
        return;
    }
    // The first battle, fought headless; the state kept where the client looks.
    let file = project("scenarios/campaigns/iron-road.ron");
    let save = project("artifacts/render/data/campaigns/iron-road.ron");
    let rules = Rules::builtin();
    let campaign = Campaign::load(&file, &rules).unwrap();
    let prepared = CampaignState::new(&campaign)
        .prepare(&campaign, &rules)
        .unwrap();
    let m = prepared.play_with_bots(&["greedy".into()], 3).unwrap();
    let after_one = prepared.record(m.state(), &knock_outs_in(&m));
    after_one.save(&save).unwrap();
    let _ = render(
        &Scene {
            menu: Some(GameKind::TankCommander),
            frame: 20,
            ..Scene::default()
        },
        "campaign-menu.png",
    );
    // The second battle in the client, played to its end by the bots: the client records
    // it in the campaign and saves it.
    let px = pixels(&render(
        &Scene {
            seats: vec!["greedy".into(), "greedy".into()],
            seed: 5,
            autoplay: 5000,
            campaign: true,
            frame: 30,
            ..Scene::on("scenarios/campaigns/iron-road.ron")
        },
        "campaign-battle-report-ui.png",
    ))
    .2;
    let after_two = CampaignState::load(&save).unwrap();
    assert_eq!(after_two.reports.len(), 2, "the client recorded the battle");
    assert_eq!(after_two.reports[0], after_one.reports[0]);
    assert_eq!(after_two.next, 2);
    assert_eq!(after_two.reports[1].battle, "Cross Minefield");
    // The report's gold title line is on screen beside the end window's.
    let gold = count(&px, |[r, g, b]| r > 230 && g > 190 && b < 60);
    assert!(gold > 200, "the titles in gold ({gold} px)");

    // The third battle opened another way (as Continue opens the autosave: the scenario
    // with the company in place, from a file) is known for the campaign's, and recorded
    // when it ends.
    use tanktable::rules::tank_commander::TankCommander;
    let prepared = after_two.prepare(&campaign, &rules).unwrap();
    let third = project("artifacts/render/data/campaign-battle-3.ron");
    std::fs::write(
        &third,
        tanktable::data::to_ron_pretty(prepared.scenario()).unwrap(),
    )
    .unwrap();
    let seats = vec![Seat::Bot("greedy".into()), Seat::Bot("greedy".into())];
    let setup = playable::load_setup::<TankCommander>(&third, &rules).unwrap();
    let mut whole = SeatedMatch::<TankCommander>::new(setup, "third".into(), 7, seats).unwrap();
    whole.autoplay(10_000).unwrap();
    let actions = whole.game.history().len();
    let _ = render(
        &Scene {
            seats: vec!["greedy".into(), "greedy".into()],
            seed: 7,
            autoplay: actions - 1,
            frame: 120,
            ..Scene::on("artifacts/render/data/campaign-battle-3.ron")
        },
        "campaign-battle-3-continued-ui.png",
    );
    let after_three = CampaignState::load(&save).unwrap();
    assert_eq!(
        after_three.reports.len(),
        3,
        "the client took the battle back"
    );
    assert_eq!(after_three.reports[2].battle, "Urban Warfare");
}

#[test]
fn the_table_shows_terrain_and_both_sides() {
    if !can_render() {
        return;
    }
    let out = render(&Scene::on("scenarios/skirmish.ron"), "skirmish.png");
    let (w, h, px) = pixels(&out);
    assert_eq!((w, h), (1280, 720));
    let total = px.len();
    // Not blank: many distinct colours.
    let mut distinct: Vec<[u8; 3]> = px.iter().step_by(37).copied().collect();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(
        distinct.len() > 200,
        "the image looks blank ({} colours)",
        distinct.len()
    );
    // The board: open ground is green and covers a good part of the screen.
    let green = count(&px, |[r, g, b]| g > r + 15 && g > b + 30);
    assert!(
        green > total / 8,
        "too little green board: {green} of {total}"
    );
    // Both sides' tanks: saturated blue and saturated red.
    let blue = count(&px, blue_side);
    let red = count(&px, red_side);
    assert!(blue > 150, "no blue tank on screen ({blue} px)");
    assert!(red > 100, "no red tank on screen ({red} px)");
}

/// Each smoothing of the Graphics window, and shadows off, draw the same table with
/// other edges: as much of the board shows, and the pictures differ. The automatic
/// choice, the default, draws SMAA on a software renderer (as here) and 4× multisampling
/// on a GPU.
#[test]
fn smoothing_and_shadows_chosen_in_graphics_draw_the_table() {
    if !can_render() {
        return;
    }
    let clean = Scene {
        clean: true,
        ..Scene::on("scenarios/skirmish.ron")
    };
    let with = |key: &str, shadows: bool| Scene {
        graphics: Some(format!("{key},{shadows}")),
        ..clean.clone()
    };
    let green = |px: &[[u8; 3]]| count(px, |[r, g, b]| g > r + 15 && g > b + 30);
    let (_, _, msaa) = pixels(&render(&with("msaa4", true), "graphics-msaa4.png"));
    let board = green(&msaa);
    assert!(board > msaa.len() / 8, "the board shows ({board} px)");
    let mut drawn = Vec::new();
    for (key, shadows) in [("fxaa", false), ("smaa", true)] {
        let (_, _, px) = pixels(&render(&with(key, shadows), &format!("graphics-{key}.png")));
        let shown = green(&px);
        assert!(
            shown.abs_diff(board) * 10 < board,
            "{key}: as much board as with multisampling ({shown} against {board} px)"
        );
        let differ = px.iter().zip(&msaa).filter(|(a, b)| a != b).count();
        assert!(
            differ > 1000,
            "{key}, shadows {shadows}: the edges are drawn otherwise ({differ} px differ)"
        );
        drawn.push(px);
    }
    // No settings file: the automatic choice.
    let (auto, log) = render_quiet(&clean, "graphics-auto.png", false);
    let (_, _, auto) = pixels(&auto);
    // The harness's "test render_child ... " may begin the line.
    let said = log
        .lines()
        .find_map(|l| l.find("SMOOTHING").map(|at| &l[at..]))
        .unwrap_or_else(|| panic!("the child said nothing of its smoothing:\n{log}"));
    let (expected, like) = if said.contains("software true") {
        ("msaa Off smaa true fxaa false", &drawn[1])
    } else {
        ("msaa Sample4 smaa false fxaa false", &msaa)
    };
    assert!(said.ends_with(expected), "{said}");
    let differ = |a: &[[u8; 3]], b: &[[u8; 3]]| a.iter().zip(b).filter(|(a, b)| a != b).count();
    let (from_like, from_other) = if said.contains("software true") {
        (differ(&auto, like), differ(&auto, &msaa))
    } else {
        (differ(&auto, like), differ(&auto, &drawn[1]))
    };
    assert!(
        from_like * 10 < from_other,
        "{said}: the picture is that smoothing's ({from_like} px differ from it, {from_other} from the other)"
    );
}

/// On quiet frames the panels are not laid out again, and the last frame's triangles
/// are drawn instead: the screen shows the same panels.
#[test]
fn quiet_frames_still_show_the_panels() {
    if !can_render() {
        return;
    }
    let panel =
        |[r, g, b]: [i32; 3]| (r - g).abs() < 4 && (g - b).abs() < 4 && (20..=40).contains(&r);
    let text = |[r, g, b]: [i32; 3]| r > 200 && g > 200 && b > 200;
    let busy = Scene {
        frame: 30,
        ..Scene::on("scenarios/skirmish.ron")
    };
    let (_, _, drawn) = pixels(&render(&busy, "panels-laid-out.png"));
    let quiet = Scene {
        frame: 90,
        ..Scene::on("scenarios/skirmish.ron")
    };
    let (out, log) = render_quiet(&quiet, "panels-reused.png", true);
    let frames: Vec<&str> = log.lines().filter(|l| l.starts_with("PANELS")).collect();
    assert!(
        !frames.is_empty() && frames.iter().all(|l| l.ends_with("false")),
        "the last frames before the screenshot were quiet: {frames:?}"
    );
    let (_, _, reused) = pixels(&out);
    for (what, is) in [
        ("panel", &panel as &dyn Fn([i32; 3]) -> bool),
        ("text", &text),
    ] {
        let (a, b) = (count(&drawn, is), count(&reused, is));
        // Bright text is the table's unit labels and the panels' headings; a hover card
        // shows too when the pointer happens to start over a hex, so the floor is low.
        let floor = if what == "text" { 150 } else { 500 };
        assert!(a > floor, "the panels are drawn ({what}: {a} px)");
        assert!(
            a.abs_diff(b) * 10 < a,
            "the same panels on a quiet frame ({what}: {a} px laid out, {b} px reused)"
        );
    }
}

#[test]
fn preview_renders_a_scenario_to_png() {
    if !can_render() {
        return;
    }
    let dir: PathBuf = project("artifacts/render");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("preview-training-range.png");
    let _ = std::fs::remove_file(&out);
    let status = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_tanktable"))
        .args(["preview", "scenarios/training-range.ron", "-o"])
        .arg(&out)
        .current_dir(project("."))
        .env("RUST_LOG", "error")
        .env("TANKTABLE_DATA", dir.join("data"))
        .status()
        .expect("xvfb-run starts");
    assert!(status.success(), "tanktable preview failed");
    let (_, _, px) = pixels(&out);
    // The gold waypoint rings are on the table.
    let gold = count(&px, |[r, g, b]| r > 180 && g > 140 && b < 90);
    assert!(gold > 100, "no waypoint rings visible ({gold} px)");
    let blue = count(&px, blue_side);
    assert!(blue > 100, "the trainee's tank is missing ({blue} px)");
}

/// The pixels of `setup`'s game between the default bots (seed `seed`) after its first `actions` actions,
/// saved as `name`; `clean` leaves the panels and table marks out.
fn bot_shot(setup: &str, seed: u64, actions: usize, name: &str, clean: bool) -> Vec<[u8; 3]> {
    let scene = Scene {
        seed,
        autoplay: actions,
        clean,
        frame: 40,
        ..Scene::on(setup)
    };
    pixels(&render(&scene, name)).2
}

/// The first action of a bot game of Skirmish (with the seat's bots as the client's
/// session plays them) that knocks a unit out: its index and the victim's side.
fn first_knockout(seed: u64) -> Option<(usize, u8)> {
    use tanktable::rules::tank_commander::Fact;
    first_fact("scenarios/skirmish.ron", seed, |game, f| match f {
        Fact::UnitDisabled { unit, .. } => Some(game.unit(*unit).side.0),
        _ => None,
    })
}

#[test]
fn a_scripted_game_shows_a_knocked_out_tank() {
    if !can_render() {
        return;
    }
    // The seed whose bot game knocks a tank out soonest.
    let (seed, (k, victim)) = (1..40)
        .filter_map(|s| first_knockout(s).map(|f| (s, f)))
        .min_by_key(|(_, (k, _))| *k)
        .expect("some bot game knocks a tank out");
    let side_px = |px: &[[u8; 3]]| match victim {
        0 => count(px, blue_side),
        _ => count(px, red_side),
    };
    let shot = |actions: usize, name: &str, clean: bool| {
        bot_shot("scenarios/skirmish.ron", seed, actions, name, clean)
    };
    let before = shot(k, "e2e-before-knockout.png", true);
    let after = shot(k + 1, "e2e-after-knockout.png", true);
    // A player's view of the same moment, panels and all, kept for people to look at.
    let _ = shot(k + 1, "e2e-after-knockout-ui.png", false);
    let (b, a) = (side_px(&before), side_px(&after));
    assert!(
        b > 400,
        "the victim's colour is on the table before the knockout ({b} px)"
    );
    assert!(
        a * 3 < b * 2,
        "the knocked-out tank lost its paint: {b} px before, {a} after"
    );
    let green = count(&after, |[r, g, bl]| g > r + 15 && g > bl + 30);
    assert!(
        green > after.len() / 8,
        "the board is still drawn ({green} px)"
    );
    let changed = before.iter().zip(&after).filter(|(x, y)| x != y).count();
    assert!(changed > 500, "the image changed ({changed} px)");
}

#[test]
fn the_tank_chess_board_shows_squares_obstacles_and_both_colours() {
    if !can_render() {
        return;
    }
    let scene = Scene {
        clean: true,
        ..Scene::on("scenarios/tank-chess/basic-16.ron")
    };
    let (_, _, px) = pixels(&render(&scene, "tank-chess-basic-16.png"));
    // Light and dark squares of the board.
    let light = count(&px, |[r, g, b]| {
        r > 170 && g > 160 && b > 120 && r - b > 20 && r - b < 70
    });
    assert!(
        light > px.len() / 20,
        "the board's light squares ({light} px)"
    );
    // Grey obstacle blocks, ivory white pieces and charcoal black pieces.
    let grey = count(&px, |[r, g, b]| {
        (r - b).abs() < 8 && (r - g).abs() < 8 && (90..140).contains(&r)
    });
    assert!(grey > 2000, "obstacle blocks ({grey} px)");
    let ivory = count(&px, |[r, g, b]| r > 215 && g > 210 && b > 190);
    // Darker than the window's background (41, 43, 48).
    let charcoal = count(&px, |[r, g, b]| r < 30 && g < 30 && b < 34);
    assert!(ivory > 300, "white pieces ({ivory} px)");
    assert!(charcoal > 300, "black pieces ({charcoal} px)");
    // The start as a player sees it: the panels, a letter plate over every piece, and the
    // Command tanks ringed in gold in both colours.
    let scene = Scene {
        clean: false,
        ..scene
    };
    let (_, h, px) = pixels(&render(&scene, "tank-chess-start-readable.png"));
    let gold = |[r, g, b]: [i32; 3]| r > 200 && (130..215).contains(&g) && b < 90;
    let w = px.len() / h as usize;
    let (top, bottom): (Vec<[u8; 3]>, Vec<[u8; 3]>) =
        (px[..px.len() / 2].to_vec(), px[px.len() / 2..].to_vec());
    let _ = w;
    assert!(
        count(&top, gold) > 20,
        "Black's Command tank is not ringed in gold"
    );
    assert!(
        count(&bottom, gold) > 20,
        "White's Command tank is not ringed in gold"
    );
}

/// A 20 × 20 Tank Chess board is drawn as a handful of meshes (its 400 squares, 60
/// obstacles and 32 pieces merged by material), and a player's click still finds the
/// piece: the pointer moved onto a White piece, pressed and released, through Bevy's
/// picking and the board's own backend, picks that piece's square.
#[test]
fn a_merged_chess_board_still_answers_the_pointer() {
    if !can_render() {
        return;
    }
    let scene = Scene {
        frame: 52,
        click_piece: true,
        ..Scene::on("scenarios/tank-chess/basic-20.ron")
    };
    let (_, out) = render_quiet(&scene, "tank-chess-basic-20-clicked.png", false);
    // The harness may print its "test …" on the same line.
    let line = out
        .lines()
        .find_map(|l| l.find("AIMED ").map(|at| &l[at..]))
        .unwrap_or_else(|| panic!("the probe printed nothing:\n{out}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        words[1], words[3],
        "the click picked another square: {line}"
    );
    let meshes: usize = words[5].parse().unwrap();
    // The frame, two colours of square, the obstacles, and the pieces' four materials
    // (White, Black, trim is one of those, the Command ring), plus the panels' few.
    assert!(meshes <= 16, "the table draws {meshes} meshes: {line}");
}

/// Battle Tanks: the felt table, the Battlefield, and the commanders' dice at their seats.
#[test]
fn the_dice_table_shows_the_felt_the_battlefield_and_the_arsenals() {
    if !can_render() {
        return;
    }
    let scene = Scene {
        seats: vec![
            "person".into(),
            "heuristic".into(),
            "heuristic".into(),
            "heuristic".into(),
        ],
        seed: 7,
        autoplay: 5,
        frame: 40,
        ..Scene::on("scenarios/battle-tanks/default.ron")
    };
    let (_, _, px) = pixels(&render(&scene, "battle-tanks.png"));
    let total = px.len();
    // The whole table fits beside the panels: an eighth of the window at least.
    let felt = count(&px, |[r, g, b]| g > r + 40 && g > b + 25);
    assert!(felt > total / 8, "too little green felt: {felt} of {total}");
    let battlefield = count(&px, |[r, g, b]| r > g + 20 && g > b + 10 && r < 140);
    assert!(battlefield > total / 40, "no Battlefield: {battlefield}");
    // Ann's dice and plate are blue; the Nukes' pips glow red.
    let blue = count(&px, |[r, _, b]| b > 150 && b > r + 50);
    assert!(blue > 500, "no blue seat ({blue} px)");
    let pips = count(&px, |[r, g, b]| r > 200 && g < 110 && b < 100);
    assert!(pips > 20, "no red Nuke pips ({pips} px)");
}

/// Tank Combat against a bot: the person's hand as readable cards, both tanks.
#[test]
fn the_card_table_shows_the_hand_and_both_tanks() {
    if !can_render() {
        return;
    }
    let scene = Scene {
        seats: vec!["person".into(), "heuristic".into()],
        seed: 3,
        autoplay: 6,
        frame: 40,
        ..Scene::on("scenarios/tank-combat/default.ron")
    };
    let (_, _, px) = pixels(&render(&scene, "tank-combat.png"));
    // Card faces are cream.
    let cards = count(&px, |[r, g, b]| r > 230 && g > 225 && b > 205 && b < 228);
    assert!(cards > 20_000, "no cards in hand ({cards} px)");
    let blue = count(&px, |[r, g, b]| b > 180 && b > r + 60 && b > g + 30);
    let red = count(&px, |[r, g, b]| r > 180 && r > g + 80 && r > b + 80);
    assert!(blue > 300, "no blue tank ({blue} px)");
    assert!(red > 300, "no red tank ({red} px)");
}

/// Tank Combat hot seat: before the first player looks, the privacy screen hides all.
#[test]
fn hot_seat_with_hidden_hands_starts_behind_the_privacy_screen() {
    if !can_render() {
        return;
    }
    let scene = Scene {
        seats: vec!["person".into(), "person".into()],
        ..Scene::on("scenarios/tank-combat/default.ron")
    };
    let (_, _, px) = pixels(&render(&scene, "tank-combat-privacy.png"));
    let dark = count(&px, |[r, g, b]| r < 30 && g < 30 && b < 35);
    assert!(
        dark > px.len() * 9 / 10,
        "the privacy screen does not cover the table ({dark} of {} px dark)",
        px.len()
    );
    let cards = count(&px, |[r, g, b]| r > 230 && g > 225 && b > 205 && b < 228);
    assert!(
        cards < 200,
        "cards show through the privacy screen ({cards} px)"
    );
}

/// The Range Duel: the track with both tanks on it.
#[test]
fn the_range_track_shows_both_tanks() {
    if !can_render() {
        return;
    }
    let scene = Scene {
        seats: vec!["person".into(), "heuristic".into()],
        seed: 5,
        autoplay: 2,
        frame: 40,
        ..Scene::on("scenarios/range-duel/default.ron")
    };
    let (_, _, px) = pixels(&render(&scene, "range-duel.png"));
    let track = count(&px, |[r, g, b]| {
        r > 150 && r > b + 40 && g > b + 20 && r < 220
    });
    assert!(track > px.len() / 30, "no range track ({track} px)");
    let blue = count(&px, |[r, g, b]| b > 180 && b > r + 60 && b > g + 30);
    let red = count(&px, |[r, g, b]| r > 180 && r > g + 80 && r > b + 80);
    assert!(blue > 300, "no blue tank ({blue} px)");
    assert!(red > 300, "no red tank ({red} px)");
}

/// The main menu: one page a game, all alike.
/// Every game's largest setup, its table framed at 1280×720 and 1920×1080 (and straight
/// down, for the two boards), and with the interface at 150 % at both sizes: no panel
/// covers any of the table's outline, which lies inside the window. The screenshots show
/// the sides in the colour-blind-safe palette, each with its mark.
#[test]
fn the_whole_table_is_in_view_beside_the_panels() {
    if !can_render() {
        return;
    }
    let mut failures = Vec::new();
    // A person at the first seat; where hands or orders are secret, bots at the others,
    // so that no privacy screen hides the table.
    for (setup, name, players, others) in [
        ("scenarios/battle.ron", "tank-commander", 2, "person"),
        (
            "scenarios/tank-chess/basic-20.ron",
            "tank-chess",
            2,
            "person",
        ),
        (
            "scenarios/battle-tanks/eight-players.ron",
            "battle-tanks",
            8,
            "person",
        ),
        (
            "scenarios/tank-combat/deathmatch-4.ron",
            "tank-combat",
            4,
            "heuristic",
        ),
        (
            "scenarios/range-duel/marathon.ron",
            "range-duel",
            2,
            "heuristic",
        ),
    ] {
        let scene = Scene {
            framing: true,
            frame: 1,
            seats: (0..players)
                .map(|i| if i == 0 { "person" } else { others }.to_string())
                .collect(),
            ..Scene::on(setup)
        };
        let (_, stdout) = render_quiet(&scene, &format!("framing-{name}.png"), false);
        let lines: Vec<&str> = stdout
            .lines()
            .filter(|l| l.starts_with("FRAMING"))
            .collect();
        let expected = if matches!(name, "tank-commander" | "tank-chess") {
            6
        } else {
            4
        };
        assert_eq!(lines.len(), expected, "{name}: {stdout}");
        for line in lines {
            println!("{name}: {line}");
            let covered: f32 = line
                .split(" covered ")
                .nth(1)
                .and_then(|t| t.split(' ').next())
                .unwrap()
                .parse()
                .unwrap();
            if covered > 0.0 || !line.contains("inside true") {
                failures.push(format!("{name}: {line}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "panels cover the table:\n{}",
        failures.join("\n")
    );
}

/// The guided first game on Basic Training: its panel under the banner asks for the
/// first step, and the board is framed clear of it.
/// A screen reader gets the panels: egui's AccessKit tree holds the banner's prompt and
/// buttons and the log's lines, with their words.
#[test]
fn the_panels_are_exposed_to_screen_readers() {
    if !can_render() {
        return;
    }
    let scene = Scene {
        accessible: true,
        seats: vec!["person".into(), "person".into()],
        frame: 30,
        ..Scene::on("scenarios/skirmish.ron")
    };
    let (_, out) = render_quiet(&scene, "accessible.png", false);
    let nodes: Vec<&str> = out.lines().filter(|l| l.starts_with("A11Y ")).collect();
    assert!(out.contains("A11Y tree true"), "no AccessKit tree:\n{out}");
    for words in [
        "Menu",
        "click one of your units",
        "End turn",
        // The log's first line, and the fold button and § links by what they do.
        "Roll for first turn",
        "Fold the banner",
        "Rule ",
    ] {
        assert!(
            nodes.iter().any(|n| n.contains(words)),
            "{words:?} is not read out:\n{}",
            nodes.join("\n")
        );
    }
    assert!(
        nodes.iter().any(|n| n.starts_with("A11Y Button")),
        "no buttons:\n{}",
        nodes.join("\n")
    );
}

#[test]
fn the_guided_first_game_asks_for_its_first_step() {
    if !can_render() {
        return;
    }
    let scene = Scene {
        guide: true,
        seats: vec!["person".into(), "greedy".into()],
        frame: 40,
        ..Scene::on(tanktable::client::games::tank_commander::guide::SETUP)
    };
    let (_, _, px) = pixels(&render(&scene, "guided-first-game.png"));
    // The current step's name is in gold.
    let gold = count(&px, |[r, g, b]| r > 230 && g > 190 && b < 60);
    assert!(gold > 20, "the guide's step is not shown ({gold} px)");
}

#[test]
fn the_menu_has_a_page_for_every_game() {
    if !can_render() {
        return;
    }
    let scene = Scene {
        menu: Some(GameKind::RangeDuel),
        frame: 20,
        ..Scene::default()
    };
    let (_, _, px) = pixels(&render(&scene, "menu-range-duel.png"));
    // The title's gold and the window's panels are drawn.
    let gold = count(&px, |[r, g, b]| r > 200 && g > 170 && b < 140 && r > b + 60);
    assert!(gold > 300, "the menu's title is missing ({gold} px)");
    // Tank Chess's "How to play" card over its page: a window of text in front.
    let scene = Scene {
        menu: Some(GameKind::TankChess),
        how_to: true,
        ..scene
    };
    let (_, _, card) = pixels(&render(&scene, "menu-how-to-play-tank-chess.png"));
    let changed = px.iter().zip(&card).filter(|(a, b)| a != b).count();
    assert!(
        changed > 20_000,
        "no card over the menu ({changed} px changed)"
    );
}

/// The edits of a render test of the editor, as the designer's clicks give them:
/// `scratch` builds a fair two-tank battle on a new 12 × 12 board (brush strokes of
/// forest, hills, a building and mud, two tanks, mirrored by a half turn); `problem`
/// then drowns one of the mirrored tanks with a stroke of water.
fn editor_script(script: &str) -> Vec<tanktable::client::screens::editor::EditorOrder> {
    if script.starts_with("chess") {
        return chess_script();
    }
    if script == "tap" {
        // A bare board: the click paints it (see [`tap_the_editor`]).
        return Vec::new();
    }
    use tanktable::client::screens::editor::EditorOrder::Edit as Do;
    use tanktable::client::screens::editor::EditorOrder::{EndStroke, Stroke};
    use tanktable::editor::{Edit, Symmetry, Terrain};
    let stroke = |cells: &[[i32; 2]], terrain| {
        vec![
            Stroke(Edit::Paint {
                cells: cells[..1].to_vec(),
                terrain,
            }),
            Stroke(Edit::Paint {
                cells: cells.to_vec(),
                terrain,
            }),
            EndStroke,
        ]
    };
    let tank = |name: &str, at: &str| {
        Do(Edit::AddUnit(Box::new(
            ron::from_str(&format!(
                "(side: \"Blue\", name: {name:?}, at: {at:?}, facing: N, build: (engine: true, optics: true))"
            ))
            .unwrap(),
        )))
    };
    let mut orders = Vec::new();
    orders.extend(stroke(
        &[[2, 7], [3, 7], [3, 8], [2, 8], [1, 8]],
        Terrain::Forest,
    ));
    orders.extend(stroke(&[[8, 8], [9, 8], [9, 9]], Terrain::Hill));
    orders.extend(stroke(&[[5, 6], [6, 6]], Terrain::Building));
    orders.extend(stroke(&[[0, 6], [1, 6], [10, 7]], Terrain::Mud));
    orders.extend(stroke(&[[5, 9], [6, 9], [5, 10]], Terrain::Forest));
    orders.push(tank("Anvil", "D11"));
    orders.push(tank("Bolt", "I11"));
    orders.push(Do(Edit::Mirror(Symmetry::Rotate180)));
    orders.push(Do(Edit::Title {
        name: "Two Woods".into(),
        description: "Two tanks a side between two woods and a farm.".into(),
    }));
    if script == "problem" {
        // The mirror of Anvil stands on I2: a stroke of water over it.
        orders.extend(stroke(&[[8, 1], [7, 1], [8, 2]], Terrain::Water));
    }
    orders
}

/// A Tank Chess setup built in the editor on a 10 × 10 board: a stroke of obstacles, a
/// Command tank, a heavy and a medium tank for White, mirrored for Black; the Command
/// tanks face each other down the open long diagonal, so the check marks both as at risk
/// on the first move.
fn chess_script() -> Vec<tanktable::client::screens::editor::EditorOrder> {
    use tanktable::client::screens::editor::EditorOrder::{EndStroke, Square, SquareStroke};
    use tanktable::editor::SquareEdit;
    use tanktable::rules::tank_chess::Kind;
    use tanktable::rules::tank_chess::setup::PieceSetup;
    let piece = |kind, at: &str, command| {
        Square(SquareEdit::AddPiece {
            team: 0,
            piece: PieceSetup {
                kind,
                at: at.into(),
                facing: None,
                command,
            },
        })
    };
    vec![
        SquareStroke(SquareEdit::Obstacles {
            cells: vec![[1, 3], [2, 3]],
            on: true,
        }),
        SquareStroke(SquareEdit::Obstacles {
            cells: vec![[1, 3], [2, 3], [7, 3], [8, 3]],
            on: true,
        }),
        EndStroke,
        piece(Kind::LT, "A1", true),
        piece(Kind::HT, "C2", false),
        piece(Kind::MT, "E1", false),
        Square(SquareEdit::Mirror),
        Square(SquareEdit::Title {
            name: "Open file".into(),
            description: "Two short walls; the long diagonal is open.".into(),
        }),
    ]
}

/// The Lab opened on `question` (a variant file, `sweep:SETUP:SPEC`, `builds:SETUP`, or
/// `sprt:QUESTION` with a sequential test), run at once; or on `shards:FOLDER`.
fn lab_question(question: &str, games: usize) -> tanktable::client::screens::lab::OpenLab {
    use tanktable::client::screens::lab::{OpenLab, PlotTab};
    let (question, tab) = match question.split_once('#') {
        Some((q, t)) => (q, PlotTab::ALL.into_iter().find(|p| p.title() == t)),
        None => (question, None),
    };
    if let Some(rest) = question.strip_prefix("sprt:") {
        return OpenLab {
            sprt: Some(5.0),
            ..lab_question(rest, games)
        };
    }
    let games = Some(u32::try_from(games).unwrap());
    if let Some(dir) = question.strip_prefix("shards:") {
        return OpenLab {
            game: Some(GameKind::TankCommander),
            shards: Some(PathBuf::from(dir)),
            tab,
            ..OpenLab::default()
        };
    }
    if let Some(setup) = question.strip_prefix("builds:") {
        let path = project(setup);
        let text = std::fs::read_to_string(&path).unwrap();
        return OpenLab {
            game: Some(detect(&path, &text).unwrap().game),
            setup: Some(path),
            random_builds: true,
            games,
            run: true,
            tab,
            ..OpenLab::default()
        };
    }
    if let Some(rest) = question.strip_prefix("sweep:") {
        let (setup, spec) = rest.split_once(':').unwrap();
        let path = project(setup);
        let text = std::fs::read_to_string(&path).unwrap();
        return OpenLab {
            game: Some(detect(&path, &text).unwrap().game),
            setup: Some(path),
            sweep: Some(spec.to_string()),
            games,
            run: true,
            tab,
            ..OpenLab::default()
        };
    }
    let path = project(question);
    let text = std::fs::read_to_string(&path).unwrap();
    let variant = tanktable::lab::VariantFile::parse(&path, &text).unwrap();
    OpenLab {
        game: tanktable::rules::GameKind::from_name(&variant.game),
        setup: variant.setup_path(&path),
        variants: vec![(variant.name, variant.changes)],
        games,
        run: true,
        tab,
        ..OpenLab::default()
    }
}

/// Pixels of the variants' colours in the Lab's plots: the base's blue and B's orange.
fn plot_pixels(px: &[[u8; 3]]) -> (usize, usize) {
    let near = |p: [i32; 3], q: [i32; 3]| (0..3).all(|i| (p[i] - q[i]).abs() <= 12);
    (
        count(px, |p| near(p, [120, 150, 200])),
        count(px, |p| near(p, [240, 150, 60])),
    )
}

#[test]
fn the_lab_answers_an_ab_question_with_plots() {
    if !can_render() {
        return;
    }
    let scene = Scene {
        lab: Some("scenarios/lab/skirmish-tougher-hulls.ron".into()),
        autoplay: 1500,
        frame: 120,
        ..Scene::default()
    };
    let (path, said) = render_quiet(&scene, "lab-skirmish-tougher-hulls.png", false);
    if let Some(line) = said.lines().find(|l| l.starts_with("LAB frame ms")) {
        eprintln!("{line}");
    }
    let (_, _, px) = pixels(&path);
    let (base, variant) = plot_pixels(&px);
    assert!(
        base > 2000 && variant > 2000,
        "the win-rate bars are missing: base {base} px, variant {variant} px"
    );
    // The other pictures of the same question, each drawn.
    for (tab, file, min) in [
        ("Difference", "lab-skirmish-difference.png", 300),
        ("First move", "lab-skirmish-first-move.png", 2000),
        ("Game length", "lab-skirmish-lengths.png", 2000),
    ] {
        let scene = Scene {
            lab: Some(format!("scenarios/lab/skirmish-tougher-hulls.ron#{tab}")),
            ..scene.clone()
        };
        let (_, _, px) = pixels(&render(&scene, file));
        let (_, variant) = plot_pixels(&px);
        assert!(
            variant > min,
            "{tab}: the variant's marks are missing ({variant} px)"
        );
    }
    // Tank Commander's own pictures, on River Town (four tanks a side): units and
    // upgrades, where tanks fall.
    let scene = Scene {
        lab: Some("sweep:scenarios/battle.ron:tank.hull=4..5#Units & upgrades".into()),
        autoplay: 300,
        ..scene.clone()
    };
    let (_, _, px) = pixels(&render(&scene, "lab-river-town-pieces.png"));
    let green = count(&px, |p| {
        (0..3).all(|i| (p[i] - [110, 200, 120][i]).abs() <= 12)
    });
    assert!(green > 1000, "the units' bars are missing ({green} px)");
    let scene = Scene {
        lab: Some("sweep:scenarios/battle.ron:tank.hull=4..5#Where tanks fall".into()),
        ..scene
    };
    let (_, _, px) = pixels(&render(&scene, "lab-river-town-losses.png"));
    let hot = count(&px, |[r, g, b]| r > 150 && b < 110 && r > b + 60 && g > 60);
    assert!(hot > 500, "the heat map is missing ({hot} px)");
    // Random builds on Skirmish: each upgrade's worth when taken, as a row with its
    // interval; the upgrades that matter are drawn in gold.
    let scene = Scene {
        lab: Some("builds:scenarios/skirmish.ron#Value when taken".into()),
        autoplay: 1500,
        ..scene
    };
    let (_, _, px) = pixels(&render(&scene, "lab-skirmish-value-when-taken.png"));
    let gold = count(&px, |p| {
        (0..3).all(|i| (p[i] - [250, 200, 80][i]).abs() <= 12)
    });
    assert!(
        gold > 300,
        "the upgrades that matter are missing ({gold} px)"
    );
}

#[test]
fn the_lab_stops_a_sequential_question_and_reads_a_folder_of_shards() {
    if !can_render() {
        return;
    }
    // Tougher hulls with "Stop when the answer is known": the test answers long before
    // the 20,000 games a variant the run may play.
    let scene = Scene {
        lab: Some("sprt:scenarios/lab/skirmish-tougher-hulls.ron".into()),
        autoplay: 20_000,
        frame: 150,
        ..Scene::default()
    };
    let (_, _, px) = pixels(&render(&scene, "lab-skirmish-sprt.png"));
    let (base, variant) = plot_pixels(&px);
    assert!(base > 2000 && variant > 2000, "bars: {base}, {variant} px");
    let answered = count(&px, |p| {
        (0..3).all(|i| (p[i] - [150, 230, 170][i]).abs() <= 12)
    });
    assert!(
        answered > 100,
        "the test's answer is not shown ({answered} px)"
    );
    // Three of four shards of a run played on the command line: the merged report, and
    // the missing part named.
    let dir = std::env::temp_dir().join(format!("tanktable-screen-shards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for part in [1, 2, 4] {
        let out = crate::tanktable(&[
            "lab",
            project("scenarios/lab/skirmish-tougher-hulls.ron")
                .to_str()
                .unwrap(),
            "-n",
            "800",
            "--shard",
            &format!("{part}/4"),
            "--out",
            dir.join(format!("part{part}.json")).to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let scene = Scene {
        lab: Some(format!("shards:{}", dir.display())),
        frame: 40,
        ..Scene::default()
    };
    let (_, _, px) = pixels(&render(&scene, "lab-shards-folder.png"));
    let _ = std::fs::remove_dir_all(&dir);
    let (base, variant) = plot_pixels(&px);
    assert!(base > 2000 && variant > 2000, "bars: {base}, {variant} px");
    let warned = count(&px, |p| {
        (0..3).all(|i| (p[i] - [255, 170, 110][i]).abs() <= 12)
    });
    assert!(warned > 100, "the missing shard is not named ({warned} px)");
}

#[test]
fn the_editor_shows_a_brush_stroke_and_marks_a_problem() {
    if !can_render() {
        return;
    }
    let scene = Scene {
        editor: Some("scratch".into()),
        frame: 40,
        ..Scene::default()
    };
    let (_, _, px) = pixels(&render(&scene, "editor-two-woods.png"));
    // The strokes: forest tiles and their trees, hills.
    let forest = count(&px, |[r, g, b]| {
        g > r + 20 && g > b + 20 && g < 130 && r < 90
    });
    assert!(
        forest > 1500,
        "the forest strokes are missing ({forest} px)"
    );
    let red = |[r, g, b]: [i32; 3]| r > 200 && g < 70 && b < 70;
    assert!(count(&px, red) < 50, "a clean scenario has no red marks");
    let scene = Scene {
        editor: Some("problem".into()),
        ..scene
    };
    let (_, _, px) = pixels(&render(&scene, "editor-problem-marked.png"));
    let marks = count(&px, red);
    assert!(marks > 150, "the drowned tank is not marked ({marks} px)");
    let water = count(&px, |[r, g, b]| b > r + 60 && b > 110 && g > 60);
    assert!(water > 300, "the water stroke is missing ({water} px)");
    // A Tank Chess setup: obstacles, pieces, and the piece at risk marked.
    let scene = Scene {
        editor: Some("chess".into()),
        ..scene
    };
    let (_, _, px) = pixels(&render(&scene, "editor-chess-at-risk.png"));
    let marks = count(&px, red);
    assert!(marks > 100, "the piece at risk is not marked ({marks} px)");
    // The upgrade builder on a unit of the scenario, in its window over the table.
    let scene = Scene {
        editor: Some("builder".into()),
        ..scene
    };
    let (w, h, px) = pixels(&render(&scene, "editor-upgrade-builder.png"));
    // The window's body covers the middle of the screen: egui's dark panel grey.
    let panel = count(&px, |[r, g, b]| {
        (20..=40).contains(&r) && (r - g).abs() < 4 && (r - b).abs() < 4
    });
    assert!(
        panel > (w * h) as usize / 6,
        "the builder window is missing ({panel} px of panel)"
    );
}

/// The editor paints with one click shorter than a frame (pressed and released between
/// two frames), as it does with a click held longer.
#[test]
fn the_editor_paints_with_a_click_shorter_than_a_frame() {
    if !can_render() {
        return;
    }
    let scene = Scene {
        editor: Some("tap".into()),
        frame: 50,
        ..Scene::default()
    };
    let (_, stdout) = render_quiet(&scene, "editor-tap.png", false);
    let forest: usize = stdout
        .lines()
        .find_map(|l| l.split("TAPPED forest ").nth(1))
        .unwrap_or_else(|| panic!("no tap was read back: {stdout}"))
        .trim()
        .parse()
        .unwrap();
    assert!(forest >= 1, "the click painted nothing");
}

#[test]
fn the_lab_flags_a_change_the_bots_seldom_met() {
    if !can_render() {
        return;
    }
    // River Town's woods lie off the line between the forces: the bots seldom fire into
    // them, and the lab says so under the verdict, in orange.
    let scene = Scene {
        lab: Some("scenarios/lab/river-town-thick-woods.ron".into()),
        autoplay: 400,
        frame: 120,
        ..Scene::default()
    };
    let (_, _, px) = pixels(&render(&scene, "lab-river-town-thick-woods.png"));
    let orange = count(&px, |p| {
        (0..3).all(|i| (p[i] - [255, 170, 90][i]).abs() <= 20)
    });
    assert!(
        orange > 150,
        "the flag under the verdict is missing ({orange} px)"
    );
}

/// The first action of the searching bot `bot` (seat 1, the tactical bot in seat 2) in a
/// game of `setup` that its fast choice, the veteran's, would not have been (with
/// `smoke`, the first smoke it lays): its index and both choices in words.
fn first_planned(
    setup: &str,
    seed: u64,
    bot: &str,
    smoke: bool,
) -> Option<(usize, String, String)> {
    use tanktable::framework::bot::Bot;
    use tanktable::framework::{Game, MatchRng};
    use tanktable::rules::tank_commander::TankCommander;
    use tanktable::rules::tank_commander::action::Action;
    use tanktable::rules::tank_commander::tactics::VeteranBot;
    let rules = TankCommander::load_rules(None).unwrap();
    let setup = playable::load_setup::<TankCommander>(&project(setup), &rules).unwrap();
    let seats = vec![Seat::Bot(bot.into()), Seat::Bot("tactical".into())];
    let mut m = SeatedMatch::<TankCommander>::new(setup, "s".into(), seed, seats).unwrap();
    let mut first = None;
    for i in 0..600 {
        let state = m.state().clone();
        let before = m.game.history().len();
        m.autoplay(1).ok()?;
        let Some(step) = m.game.history().get(before) else {
            break;
        };
        if step.player.0 != 0 {
            continue;
        }
        let fast = VeteranBot.choose(&state, step.player, &mut MatchRng::new(0))?;
        // With `smoke`, the first smoke it lays, whether or not the veteran would have.
        let smoked = smoke && matches!(step.action, Action::DeploySmoke(_));
        if fast == step.action && !smoked {
            continue;
        }
        let planned = (
            i,
            state.describe_action(&step.action),
            state.describe_action(&fast),
        );
        if matches!(step.action, Action::DeploySmoke(_)) {
            return Some(planned);
        }
        // Ending an activation shows on the table as little as a highlight moving: the
        // first planned action that moves, turns or fires is the one drawn.
        if !smoke && !matches!(step.action, Action::EndActivation) {
            first.get_or_insert(planned);
        }
    }
    first
}

/// The first turn `major` plans in a game of `setup` against the tactical bot (see
/// [`first_planned`]), drawn just before and just after into `NAME-before-ui.png` and
/// `NAME-after-ui.png`, with the pixels that changed between the two. With `hold`, people
/// take the seats once the bots have played up to the picture, so the table holds still;
/// without, the bots play on while the client draws its first frames, and each picture
/// stands a few actions later. The game is the first of seeds 1 to 20 in which `major`
/// plans (or lays smoke, with `smoke`). Returns the planned action in words and the changed
/// pixels.
fn planned_turn_drawn(setup: &str, smoke: bool, name: &str, hold: bool) -> (String, usize) {
    let (seed, (k, planned, instead)) = (1..=20)
        .find_map(|seed| first_planned(setup, seed, "major", smoke).map(|p| (seed, p)))
        .expect("the searching bot departs from its fast choice");
    println!(
        "seed {seed}, action {k}: the searching bot chose {planned}; the veteran would have chosen {instead}"
    );
    let shot = |actions: usize, picture: &str| {
        let scene = Scene {
            seats: vec!["major".into(), "tactical".into()],
            seed,
            autoplay: actions,
            frame: 40,
            hold,
            ..Scene::on(setup)
        };
        pixels(&render(&scene, &format!("{name}-{picture}-ui.png"))).2
    };
    let before = shot(k, "before");
    let after = shot(k + 1, "after");
    let changed = before.iter().zip(&after).filter(|(x, y)| x != y).count();
    (planned, changed)
}

/// A game against the searching bot `major` at a turn where it plans: the first action
/// it chose against the tactical bot's choice, before and after, panels and all, kept for
/// people to look at.
#[test]
fn a_turn_the_searching_bot_plans_is_played_on_the_table() {
    if !can_render() {
        return;
    }
    // The table held still: without, the bots play on while the client draws its first
    // frames, and how far they get depends on the machine's load.
    let (_, changed) = planned_turn_drawn("scenarios/battle.ron", false, "search-plans", true);
    assert!(
        changed > 500,
        "the planned action shows on the table ({changed} px)"
    );
}

/// The searching bot lays smoke: Beach Landing, just before and just after (the table
/// held still), kept for people to look at.
#[test]
fn the_searching_bot_lays_smoke_on_the_table() {
    if !can_render() {
        return;
    }
    let (planned, changed) =
        planned_turn_drawn("scenarios/beach-landing.ron", true, "search-smoke", true);
    assert!(planned.contains("deploy smoke"), "{planned}");
    assert!(changed > 500, "the smoke shows on the table ({changed} px)");
}

#[test]
fn the_lab_shows_a_duels_matrix_rows_and_card_class_matchups() {
    if !can_render() {
        return;
    }
    let scene = Scene {
        lab: Some(
            "sweep:scenarios/range-duel/default.ron:rules.turn_limit=8,12#Matrix rows".into(),
        ),
        autoplay: 300,
        frame: 120,
        ..Scene::default()
    };
    let (_, _, px) = pixels(&render(&scene, "lab-range-duel-rows.png"));
    let (base, _) = plot_pixels(&px);
    assert!(base > 1000, "the matrix rows' bars are missing ({base} px)");
    let scene = Scene {
        lab: Some("sweep:scenarios/tank-combat/deathmatch-4.ron:max_hp=80,100#Matchups".into()),
        autoplay: 100,
        frame: 120,
        ..Scene::default()
    };
    let (_, _, px) = pixels(&render(&scene, "lab-tank-combat-matchups.png"));
    let cells = count(&px, |[r, g, b]| {
        r > 80 && b > 40 && r > g && (r - b).abs() < 200 && g < 235
    });
    assert!(cells > 500, "the matchup grid is missing ({cells} px)");
}

#[test]
fn what_if_gives_each_side_its_chance_at_the_table() {
    if !can_render() {
        return;
    }
    // River Town after 40 greedy actions; the window asks for its continuations at
    // frame 10, as its button does. People then hold the seats, so that the bots do not
    // play on while it draws (its answer would then be for an earlier moment, in grey).
    let scene = Scene {
        seats: vec!["greedy".into(), "greedy".into()],
        autoplay: 40,
        hold: true,
        frame: 90,
        whatif: true,
        ..Scene::on("scenarios/battle.ron")
    };
    let (_, _, px) = pixels(&render(&scene, "what-if-river-town-ui.png"));
    let text = count(&px, |[r, g, b]| r > 200 && g > 200 && b > 200);
    assert!(text > 2000, "the window's text is missing ({text} px)");
}

#[test]
fn the_lab_sweeps_a_number_of_any_game() {
    if !can_render() {
        return;
    }
    let scene = Scene {
        lab: Some("sweep:scenarios/battle-tanks/two-players.ron:nukes=0..3".into()),
        autoplay: 300,
        frame: 120,
        ..Scene::default()
    };
    let (_, _, px) = pixels(&render(&scene, "lab-battle-tanks-sweep.png"));
    // The seats' lines: the first seat's colour, drawn over the plot.
    let seat = [86, 180, 233];
    let near = |p: [i32; 3]| (0..3).all(|i| (p[i] - seat[i]).abs() <= 12);
    let lines = count(&px, near);
    assert!(lines > 300, "the sweep's lines are missing ({lines} px)");
}

/// The first action of a bot game of `setup` (with the seat's bots as the client's
/// session plays them) with a fact that `wanted` picks: its index and what it picked.
fn first_fact<T>(
    setup: &str,
    seed: u64,
    wanted: impl Fn(
        &tanktable::rules::tank_commander::TankCommander,
        &tanktable::rules::tank_commander::Fact,
    ) -> Option<T>,
) -> Option<(usize, T)> {
    use tanktable::rules::tank_commander::TankCommander;
    let rules = TankCommander::load_rules(None).unwrap();
    let setup = playable::load_setup::<TankCommander>(&project(setup), &rules).unwrap();
    let mut m = SeatedMatch::<TankCommander>::new(setup, "s".into(), seed, Vec::new()).unwrap();
    for i in 0..600 {
        let before = m.game.history().len();
        m.autoplay(1).ok()?;
        let step = m.game.history().get(before)?;
        if let Some(t) = step.facts.iter().find_map(|f| wanted(m.state(), f)) {
            return Some((i, t));
        }
    }
    None
}

#[test]
fn mines_and_an_air_strike_mark_are_drawn_on_the_table() {
    use tanktable::rules::tank_commander::Fact;
    if !can_render() {
        return;
    }
    let setup = "scenarios/minefield-pass.ron";
    let seed = 1;
    let is = |wanted: fn(&Fact) -> bool| move |_: &_, f: &Fact| wanted(f).then_some(());
    let (called, ()) = first_fact(
        setup,
        seed,
        is(|f| matches!(f, Fact::AirStrikeCalled { .. })),
    )
    .expect("a bot calls its air strike");
    let shot =
        |actions: usize, name: &str, clean: bool| bot_shot(setup, seed, actions, name, clean);
    // Marks on the table are drawn with the panels (a clean picture leaves them out).
    let before = shot(called, "minefield-before-the-call.png", false);
    let after = shot(called + 1, "minefield-air-strike-marked.png", false);
    // The mine rings are orange; the strike's target and reach are a strong red.
    let orange = count(&before, |[r, g, b]| {
        r > 200 && (90..180).contains(&g) && b < 70
    });
    assert!(orange > 60, "the three mines are drawn ({orange} px)");
    let red = |px: &[[u8; 3]]| count(px, |[r, g, b]| r > 180 && g < 70 && b < 70);
    let (b, a) = (red(&before), red(&after));
    assert!(
        a > b + 60,
        "the strike mark is drawn: {b} red px before, {a} after"
    );
    if let Some((landed, ())) = first_fact(
        setup,
        seed,
        is(|f| matches!(f, Fact::AirStrikeLanded { .. })),
    ) {
        let _ = shot(landed + 1, "minefield-air-strike-landed-ui.png", false);
    }
}

#[test]
fn infantry_squads_and_objective_flags_are_drawn() {
    use tanktable::rules::tank_commander::Fact;
    if !can_render() {
        return;
    }
    let setup = "scenarios/capture-objectives.ron";
    let seed = 1;
    // The three objectives' white flags stand on the table (the squads are looked at in
    // the screenshot; their models are checked headless in the client tests).
    let start = bot_shot(setup, seed, 0, "capture-objectives-start.png", true);
    let white = count(&start, |[r, g, b]| r > 215 && g > 215 && b > 205);
    assert!(white > 100, "the three flags are drawn ({white} px)");
    let (captured, ()) = first_fact(setup, seed, |_, f| {
        matches!(f, Fact::ObjectiveCaptured { .. }).then_some(())
    })
    .expect("a bot squad captures a flag");
    // A squad mid-activation, with its own action bar (looked at, not measured).
    if let Some((stepped, ())) = first_fact(setup, seed, |_, f| {
        matches!(f, Fact::InfantryMoved { .. }).then_some(())
    }) {
        let _ = bot_shot(
            setup,
            seed,
            stepped + 1,
            "capture-objectives-squad.png",
            false,
        );
    }
    let after = bot_shot(
        setup,
        seed,
        captured + 1,
        "capture-objectives-captured.png",
        true,
    );
    let white_after = count(&after, |[r, g, b]| r > 215 && g > 215 && b > 205);
    assert!(
        white_after < white * 9 / 10,
        "a captured flag takes its side's colour: {white} white px before, {white_after} after"
    );
}

#[test]
fn the_escort_edge_the_courier_and_the_apc_are_drawn() {
    use tanktable::rules::tank_commander::Fact;
    if !can_render() {
        return;
    }
    let setup = "scenarios/escort.ron";
    let seed = 10;
    // The goal edge's hexes glow gold.
    let start = bot_shot(setup, seed, 0, "escort-start.png", true);
    let gold = count(&start, |[r, g, b]| {
        r > 170 && g > 140 && b < 100 && r > b + 90
    });
    assert!(gold > 1500, "the goal edge is drawn ({gold} px)");
    let blue = |px: &[[u8; 3]]| count(px, blue_side);
    let (boarded, ()) = first_fact(setup, seed, |_, f| {
        matches!(f, Fact::Mounted { .. }).then_some(())
    })
    .expect("the courier boards the APC");
    // Inside the APC the Courier (a blue stand) is out of sight.
    let inside = bot_shot(setup, seed, boarded + 1, "escort-courier-inside.png", true);
    let (b0, bi) = (blue(&start), blue(&inside));
    assert!(
        bi + 100 < b0,
        "the courier is hidden inside: {b0} blue px before, {bi} after"
    );
    // The APC's own action bar, mid-drive (looked at, not measured).
    if let Some((drove, ())) = first_fact(setup, seed, |game, f| match f {
        Fact::UnitMoved { unit, .. } if game.unit(*unit).is_apc() => Some(()),
        _ => None,
    }) {
        let _ = bot_shot(setup, seed, drove + 1, "escort-apc-drives-ui.png", false);
    }
    if let Some((bailed, ())) = first_fact(setup, seed, |_, f| {
        matches!(f, Fact::BailedOut { .. }).then_some(())
    }) {
        let before = bot_shot(setup, seed, bailed, "escort-before-bail-out.png", true);
        let out = bot_shot(setup, seed, bailed + 1, "escort-bailed-out.png", true);
        let _ = bot_shot(setup, seed, bailed + 1, "escort-bailed-out-ui.png", false);
        // The wreck loses its paint (the Courier's small stand comes back into sight beside
        // it, looked at in the picture).
        let (bb, bo) = (blue(&before), blue(&out));
        assert!(
            bo < bb,
            "the APC is a wreck: {bb} blue px before, {bo} after"
        );
    }
}

#[test]
fn the_builder_gives_an_apc_its_own_budget_and_upgrades() {
    if !can_render() {
        return;
    }
    // Escort's first vehicle is the APC, so the builder opens on it.
    let scene = Scene {
        builder: true,
        frame: 30,
        ..Scene::on("scenarios/escort.ron")
    };
    let (w, h, px) = pixels(&render(&scene, "builder-apc.png"));
    assert_eq!((w, h), (1280, 720));
    // The panels are drawn: egui's dark grey fills most of the screen.
    let panel = count(&px, |[r, g, b]| {
        (20..60).contains(&r) && (r - g).abs() < 6 && (r - b).abs() < 8
    });
    assert!(
        panel > px.len() / 3,
        "the builder's panels are drawn ({panel} px)"
    );
}

#[test]
fn the_depot_of_destroy_target_is_marked_and_falls_to_rubble() {
    use tanktable::rules::tank_commander::Fact;
    if !can_render() {
        return;
    }
    let setup = "scenarios/destroy-target.ron";
    let seed = 3;
    // The target's plate and the HUD's goal, looked at.
    let _ = bot_shot(setup, seed, 0, "destroy-target-start-ui.png", false);
    let (fell, ()) = first_fact(setup, seed, |_, f| {
        matches!(f, Fact::BuildingDestroyed { .. }).then_some(())
    })
    .expect("the attackers bring the depot down");
    let roof = |px: &[[u8; 3]]| {
        count(px, |[r, g, b]| {
            (110..210).contains(&r) && r > g + 45 && r > b + 50 && g > 40
        })
    };
    let before = bot_shot(setup, seed, fell, "destroy-target-before.png", true);
    let after = bot_shot(setup, seed, fell + 1, "destroy-target-rubble.png", true);
    let (b, a) = (roof(&before), roof(&after));
    assert!(
        a + 40 < b,
        "the depot's roof is gone: {b} roof px before, {a} after"
    );
}

#[test]
fn the_mission_variants_show_their_targets_and_flags() {
    if !can_render() {
        return;
    }
    // Looked at: each variant's opening, with its goal in the top bar.
    for (setup, seed, name) in [
        ("scenarios/command-tank.ron", 4, "command-tank-start-ui.png"),
        ("scenarios/spotters.ron", 4, "spotters-start-ui.png"),
        ("scenarios/crossroads.ron", 4, "crossroads-start-ui.png"),
        ("scenarios/three-flags.ron", 1, "three-flags-start-ui.png"),
    ] {
        let px = bot_shot(setup, seed, 0, name, false);
        let blue = count(&px, blue_side);
        let red = count(&px, red_side);
        assert!(
            blue > 100 && red > 100,
            "{setup}: both sides ({blue}, {red} px)"
        );
    }
}

/// The colour of a goal tile (an edge or area the mission sends a side to): translucent
/// gold over the grass.
fn goal_gold([r, g, b]: [i32; 3]) -> bool {
    (r - 195).abs() < 18 && (g - 165).abs() < 18 && (b - 81).abs() < 18
}

/// The mean brightness of an image's pixels (0 to 255).
fn brightness(px: &[[u8; 3]]) -> f64 {
    let sum: u64 = px
        .iter()
        .map(|[r, g, b]| u64::from(*r) + u64::from(*g) + u64::from(*b))
        .sum();
    sum as f64 / (3.0 * px.len().max(1) as f64)
}

#[test]
fn aa_guns_stand_in_sandbags_and_an_air_strike_against_them_is_marked() {
    use tanktable::rules::tank_commander::Fact;
    if !can_render() {
        return;
    }
    let setup = "scenarios/disable-aa-guns.ron";
    let seed = 6;
    let start = bot_shot(setup, seed, 0, "disable-aa-guns-start-ui.png", false);
    let sand = |px: &[[u8; 3]]| {
        count(px, |[r, g, b]| {
            (130..200).contains(&r)
                && (115..175).contains(&g)
                && (60..120).contains(&b)
                && r > b + 45
        })
    };
    assert!(
        sand(&start) > 60,
        "the three sandbag rings ({} px)",
        sand(&start)
    );
    let (called, ()) = first_fact(setup, seed, |_, f| {
        matches!(f, Fact::AirStrikeCalled { .. }).then_some(())
    })
    .expect("Blue calls a strike once a gun is down");
    let _ = bot_shot(
        setup,
        seed,
        called + 1,
        "disable-aa-guns-strike-marked-ui.png",
        false,
    );
    if let Some((fired, ())) = first_fact(setup, seed, |_, f| {
        matches!(f, Fact::AntiAircraftFired { .. }).then_some(())
    }) {
        let _ = bot_shot(
            setup,
            seed,
            fired + 1,
            "disable-aa-guns-aa-fire-ui.png",
            false,
        );
    }
}

#[test]
fn night_darkens_the_table_and_a_flare_lights_it() {
    use tanktable::rules::tank_commander::Fact;
    if !can_render() {
        return;
    }
    let setup = "scenarios/night-raid.ron";
    let seed = 1;
    let day = bot_shot("scenarios/skirmish.ron", seed, 0, "skirmish-day.png", true);
    let night = bot_shot(setup, seed, 0, "night-raid-start.png", true);
    let (b_day, b_night) = (brightness(&day), brightness(&night));
    assert!(
        b_night < b_day * 0.75,
        "the night is darker: {b_night:.1} against {b_day:.1} by day"
    );
    let (flare, ()) = first_fact(setup, seed, |_, f| {
        matches!(f, Fact::FlareFired { .. }).then_some(())
    })
    .expect("a bot fires a flare");
    let before = bot_shot(setup, seed, flare, "night-raid-before-flare.png", true);
    let lit = bot_shot(setup, seed, flare + 1, "night-raid-flare.png", true);
    // Moonlit grass is blue-green and dim; under the flare it turns a warm yellow-green.
    let warm = |px: &[[u8; 3]]| count(px, |[r, g, b]| r > 120 && g > 120 && r > b + 20);
    assert!(
        warm(&lit) > warm(&before) + 1000,
        "the flare's light: {} bright px before, {} after",
        warm(&before),
        warm(&lit)
    );
    let _ = bot_shot(setup, seed, flare + 1, "night-raid-flare-ui.png", false);
}

#[test]
fn urban_warfare_marks_the_plaza_in_gold() {
    if !can_render() {
        return;
    }
    let px = bot_shot(
        "scenarios/urban-warfare.ron",
        1,
        0,
        "urban-warfare-start-ui.png",
        false,
    );
    let gold = count(&px, goal_gold);
    assert!(gold > 1500, "the plaza's gold tiles ({gold} px)");
}

#[test]
fn cross_minefield_shows_the_mines_and_the_lane_the_sappers_clear() {
    use tanktable::rules::tank_commander::Fact;
    if !can_render() {
        return;
    }
    let setup = "scenarios/cross-minefield.ron";
    let seed = 2;
    let shot =
        |actions: usize, name: &str, clean: bool| bot_shot(setup, seed, actions, name, clean);
    let orange =
        |px: &[[u8; 3]]| count(px, |[r, g, b]| r > 200 && (90..180).contains(&g) && b < 70);
    let start = shot(0, "cross-minefield-start-ui.png", false);
    // The goal tiles' gold, dimmed by the night.
    let gold = count(&start, |[r, g, b]| {
        (140..=200).contains(&r) && (105..=150).contains(&g) && (35..=70).contains(&b) && r > g + 25
    });
    assert!(gold > 3000, "the north edge's gold tiles ({gold} px)");
    let (k, ()) = first_fact(setup, seed, |_, f| {
        matches!(f, Fact::MineDisarmed { found: 1.., .. }).then_some(())
    })
    .expect("the sappers clear a mine");
    let (before, after) = (
        orange(&shot(k, "cross-minefield-before-the-sweep.png", false)),
        orange(&shot(k + 1, "cross-minefield-swept-ui.png", false)),
    );
    assert!(before > 300, "the sixteen mines are drawn ({before} px)");
    assert!(
        after + 10 < before,
        "a cleared mine leaves the table: {before} orange px before, {after} after"
    );
    if let Some((won, ())) = first_fact(setup, seed, |_, f| {
        matches!(f, Fact::BattleEnded { .. }).then_some(())
    }) {
        let _ = shot(won + 1, "cross-minefield-crossed-ui.png", false);
    }
}

#[test]
fn the_beach_landing_has_a_sea_its_mines_and_the_gaps_in_gold() {
    if !can_render() {
        return;
    }
    let px = bot_shot(
        "scenarios/beach-landing.ron",
        15,
        0,
        "beach-landing-start-ui.png",
        false,
    );
    let sea = count(&px, |[r, g, b]| {
        b > 110 && b > r + 50 && g > r + 15 && g < 150
    });
    assert!(sea > 2000, "the sea along the south edge ({sea} px)");
    let gold = count(&px, goal_gold);
    assert!(gold > 1000, "the gaps' gold tiles ({gold} px)");
}

#[test]
fn the_hover_tank_and_the_walker_of_the_rules_table_are_drawn_and_the_hover_tank_crosses() {
    use tanktable::rules::tank_commander::Fact;
    if !can_render() {
        return;
    }
    let setup = "scenarios/river-crossing.ron";
    // A seed whose game sends the hover tank over the water.
    let seed = 11;
    let start = bot_shot(setup, seed, 0, "river-crossing-start-ui.png", false);
    let river = count(&start, |[r, g, b]| {
        b > 110 && b > r + 50 && g > r + 15 && g < 150
    });
    assert!(river > 2000, "the river ({river} px)");
    // The hover tank's skirt glows pale blue under it.
    let glow = |px: &[[u8; 3]]| count(px, |[r, g, b]| b > 200 && g > 190 && r < 200 && b > r + 40);
    assert!(
        glow(&start) > 10,
        "the hover skirt's glow ({} px)",
        glow(&start)
    );
    let (afloat, ()) = first_fact(setup, seed, |game, f| match f {
        Fact::UnitMoved { to, .. }
            if game.terrain(*to) == tanktable::rules::tank_commander::Terrain::Water =>
        {
            Some(())
        }
        _ => None,
    })
    .expect("the hover tank crosses the river");
    let _ = bot_shot(
        setup,
        seed,
        afloat + 1,
        "river-crossing-afloat-ui.png",
        false,
    );
}
