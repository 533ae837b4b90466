//! The Bevy desktop client (cargo feature `client`).
//!
//! One shape for all five games. The screens are states: the [`Screen::Menu`], the upgrade
//! [`Screen::Builder`], and [`Screen::Playing`] with the game as a sub-state
//! ([`GameScreen`]). Every game is played through one [`session::Session<G>`]: input
//! becomes [`session::Order<G>`] messages, the session plays them through the rules, and
//! the resulting [`session::FactsPlayed<G>`] messages drive the game's scene (which makes
//! its own 3D messages from them), the log and the panels. Only this module converts
//! between grid and world coordinates.
//!
//! ```text
//! client/
//!   mod.rs       screens, system sets, the app        camera.rs  the orbit rig
//!   framing.rs   the table fitted beside the panels   cursor.rs  the arrows' board cursor, F6
//!   session.rs   Session<G>: orders in, facts out      input.rs   clicks and keys to orders
//!   hud.rs       the panels every game shares          menu.rs    the main menu, a page a game
//!   effects.rs   callouts, flashes, tank models        reload.rs  data files as assets, hot reload
//!   capture.rs   screenshots, previews, measurement    builder.rs the upgrade builder screen
//!   graphics.rs  the player's smoothing and shadows    memory.rs  allocator and mesh buffers
//!   games/       one folder a game: its scene and its own panels
//! ```

pub mod core;
#[cfg(feature = "dev")]
pub mod dev_tools;
pub mod frame;
pub mod games;
pub mod screens;
pub mod table;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;

pub use self::core::launch::Launch;
pub use self::core::open::BuilderPlan;
pub use self::core::saves::builds_dir;
pub use self::core::session::{OpenGame, Session, data_dir};
pub use self::core::{ClientSystems, GameScreen, HudSystems, Screen};
pub use screens::menu::HowToPlay;

use self::core::{Clean, memory, session};

use frame::{capture, cursor, input, redraw, reload, rules_ref};
use screens::{builder, editor, lab, lobby, menu};
use table::{camera, effects, framing, graphics, strokes};

/// The logic of the client: sessions of all five games, input mapping, the rules-side of
/// each scene. It needs no window and runs under `MinimalPlugins` (headless tests and
/// benches).
pub fn logic_plugin(app: &mut App) {
    self::core::plugin(app);
    app.add_plugins((
        session::plugin,
        input::plugin,
        cursor::plugin,
        games::logic_plugin,
        editor::logic,
    ));
}

/// A windowless app with the logic plugins, saving to `saves`, with `open` opened, if
/// given (tests and benches). Orders, facts and the session's resources work as in the
/// client.
pub fn headless_app(open: Option<OpenGame>, saves: PathBuf) -> App {
    headless(open, saves, false)
}

/// [`headless_app`] that also reads data files as assets and follows the open game's
/// files on disk as the client does ([`reload::logic`], without its panels): the hot
/// reload tests. The folders watched are those of the working directory's project.
pub fn headless_watching_app(open: Option<OpenGame>, saves: PathBuf) -> App {
    headless(open, saves, true)
}

fn headless(open: Option<OpenGame>, saves: PathBuf, watching: bool) -> App {
    let mut app = App::new();
    if watching {
        reload::sources(&mut app, opened_file(open.as_ref()).as_deref());
    }
    app.add_plugins(MinimalPlugins)
        .add_plugins(StatesPlugin)
        .init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<ButtonInput<MouseButton>>()
        .insert_resource(session::SaveFolder(saves))
        .add_plugins(logic_plugin);
    if watching {
        app.add_plugins(reload::asset_plugin())
            .add_plugins(reload::logic);
    }
    pick_executor(&mut app);
    if let Some(open) = open {
        app.world_mut().write_message(open);
    }
    app.update();
    app.update();
    app
}

/// The file `open` opens, if it opens one.
fn opened_file(open: Option<&OpenGame>) -> Option<PathBuf> {
    open.and_then(|o| match &o.source {
        session::GameSource::File(p) => Some(p.clone()),
        session::GameSource::Setup(..) => None,
    })
}

/// Runs the main world's and the render world's schedules each on one thread. The
/// client's systems are many and small: Bevy's multi-threaded executor spends more time
/// handing them to threads, waking and parking those, than they take to run. Measured in
/// the frame benchmark at 1920x1080 on 4 cores of a GPU machine (docs/performance.md):
/// the main world took 0.5-1.1 ms a frame on one thread against 1.3-1.8 ms on four, the
/// render world 1.6-1.9 ms against 2.5-2.9 ms. `TANKTABLE_EXECUTOR` and
/// `TANKTABLE_RENDER_EXECUTOR` (`single` or `multi`) choose otherwise.
pub fn pick_executor(app: &mut App) {
    if executor_is_single("TANKTABLE_EXECUTOR") {
        one_thread(app.world_mut());
    }
    if executor_is_single("TANKTABLE_RENDER_EXECUTOR")
        && let Some(render) = app.get_sub_app_mut(bevy::render::RenderApp)
    {
        one_thread(render.world_mut());
    }
}

/// Whether the variable `name` asks for (or leaves) the single-threaded executor.
fn executor_is_single(name: &str) -> bool {
    std::env::var(name).as_deref() != Ok("multi")
}

/// Every schedule of `world` on the single-threaded executor.
fn one_thread(world: &mut World) {
    let mut schedules = world.resource_mut::<Schedules>();
    for (_, schedule) in schedules.iter_mut() {
        schedule.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
    }
}

/// Builds the client app for `launch`, ready to run; tests add their own plugins to it.
///
/// # Errors
/// No display to open a window on.
pub fn app(launch: Launch) -> Result<App, String> {
    #[cfg(feature = "dev")]
    let offscreen = launch.offscreen;
    #[cfg(not(feature = "dev"))]
    let offscreen: Option<UVec2> = None;
    if offscreen.is_none()
        && cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none()
    {
        return Err("no display to open a window on: DISPLAY is not set (on a machine without a screen, run under `xvfb-run -a`)".into());
    }
    memory::limit_arenas();
    let mut app = App::new();
    reload::sources(&mut app, opened_file(launch.open.as_ref()).as_deref());
    let plugins = DefaultPlugins
        .set(WindowPlugin {
            primary_window: Some(Window {
                title: "Tanktable".into(),
                // The X11 class and Wayland app id the desktop entry names.
                name: Some("tanktable".into()),
                resolution: WindowResolution::new(1280, 720),
                ..default()
            }),
            ..default()
        })
        .set(bevy::winit::WinitPlugin {
            // Tests run the client on a thread of their own.
            run_on_any_thread: true,
        })
        .set(reload::asset_plugin());
    #[cfg(feature = "dev")]
    let plugins = match offscreen {
        Some(size) => dev_tools::bench::offscreen_plugins(plugins, size),
        None => plugins,
    };
    if let Some(graphics) = launch.graphics {
        app.insert_resource(graphics);
    }
    app.add_plugins(plugins).add_plugins(client_plugins);
    if let Some(page) = launch.menu_page {
        app.insert_resource(menu::MenuPage(page));
    }
    if let Some((path, top_down)) = launch.preview {
        app.insert_resource(Clean)
            .insert_resource(camera::View { top_down })
            .insert_resource(capture::CaptureTo {
                path,
                frame: 20,
                exit: true,
            });
    }
    if let Some(open) = launch.open {
        app.world_mut().write_message(open);
    }
    if let Some(join) = launch.join {
        app.world_mut().write_message(join);
    }
    if let Some((path, chess)) = launch.edit {
        app.world_mut().write_message(self::core::open::OpenEditor {
            path,
            size: None,
            chess,
            in_place: true,
        });
    }
    pick_executor(&mut app);
    Ok(app)
}

/// Everything of the client on top of Bevy's own plugins.
fn client_plugins(app: &mut App) {
    app.add_plugins(EguiPlugin::default())
        .add_plugins(redraw::plugin)
        .add_plugins(input::text_focus_plugin)
        .add_plugins(bevy::picking::mesh_picking::MeshPickingPlugin)
        .insert_resource(ClearColor(table::theme::CLEAR))
        .add_plugins(logic_plugin)
        .add_plugins((
            camera::plugin,
            cursor::panels_plugin,
            framing::plugin,
            effects::plugin,
            (menu::plugin, lobby::plugin),
            builder::plugin,
            lab::plugin,
            editor::plugin,
            reload::plugin,
            games::scene_plugin,
            capture::plugin,
            memory::plugin,
            rules_ref::plugin,
            graphics::plugin,
            strokes::plugin,
        ));
}

/// The whole client with no window system and no GPU: every plugin (scenes, panels,
/// picking, egui) runs on `app.update()`, nothing is drawn. For measuring the client's
/// own CPU time per frame; saves go to `saves`.
pub fn windowless_app(saves: PathBuf) -> App {
    let mut app = windowless_bevy();
    app.insert_resource(session::SaveFolder(saves))
        .add_plugins(client_plugins);
    app.finish();
    app.cleanup();
    pick_executor(&mut app);
    app.update();
    app
}

/// Bevy's plugins as [`windowless_app`] has them, and one camera: the baseline that the
/// client's cost per frame is measured against.
pub fn windowless_baseline() -> App {
    let mut app = windowless_bevy();
    app.add_systems(Startup, |mut commands: Commands| {
        commands.spawn(Camera3d::default());
    });
    app.finish();
    app.cleanup();
    pick_executor(&mut app);
    app.update();
    app
}

fn windowless_bevy() -> App {
    let mut app = App::new();
    reload::sources(&mut app, None);
    app.add_plugins(
        DefaultPlugins
            .build()
            .disable::<bevy::winit::WinitPlugin>()
            .disable::<bevy::log::LogPlugin>()
            .set(WindowPlugin {
                primary_window: Some(Window {
                    resolution: WindowResolution::new(1280, 720),
                    ..default()
                }),
                ..default()
            })
            .set(bevy::render::RenderPlugin {
                render_creation: bevy::render::settings::WgpuSettings {
                    backends: None,
                    ..default()
                }
                .into(),
                ..default()
            })
            .set(reload::asset_plugin()),
    );
    app
}

/// Opens the client window and runs it until it is closed.
///
/// # Errors
/// No display, or (for `--measure-startup`) nothing to measure.
pub fn run(launch: Launch) -> Result<(), String> {
    #[cfg(feature = "dev")]
    if launch.measure_startup {
        return dev_tools::measure::measure(launch, app);
    }
    let mut app = app(launch)?;
    app.run();
    Ok(())
}

/// The frame benchmark (`tanktable bench-frames`): each scene measured offscreen beside an
/// empty Bevy app.
///
/// # Errors
/// A bad argument, or a scene that could not be measured.
#[cfg(feature = "dev")]
pub fn bench_frames(args: &dev_tools::bench::BenchArgs) -> Result<(), String> {
    dev_tools::bench::run(args, app)
}
