//! The player's graphics settings: how the table's edges are smoothed and whether its
//! lights cast shadows. Chosen in the Graphics window (from the main menu), applied at
//! once, and kept in `graphics.ron` in the data folder.
//!
//! Smoothing is the one cost of the GPU's frame that a player may want to trade: on an
//! NVIDIA H200 at 1920 × 1080, four samples a pixel were the difference between a lit
//! table drawn in about the empty app's time and 1.3 times it (`docs/performance.md`).
//! The default, Automatic, draws 2× multisampling on a GPU, the cheapest smoothing there,
//! and SMAA on a software renderer, where SMAA is the cheapest.

use std::path::PathBuf;

use bevy::anti_alias::fxaa::Fxaa;
use bevy::anti_alias::smaa::Smaa;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::client::core::session::SaveFolder;
use crate::client::core::settings::FILE;
pub use crate::client::core::settings::{Antialiasing, Graphics, read, write};
use crate::client::table::theme;

/// The Graphics window: open or not, and what went wrong reading or writing the file.
#[derive(Resource, Default)]
pub struct GraphicsWindow {
    pub open: bool,
    pub problem: Option<String>,
}

/// Whether smoothing passes after drawing (FXAA, SMAA) can be put on cameras: there is a
/// renderer (not in the windowless app of tests and benches, where taking such a pass off
/// a camera would look for the renderer's bookkeeping).
#[derive(Resource, Clone, Copy)]
pub struct SmoothingPasses(pub bool);

/// Whether the renderer is a software rasterizer (Mesa's llvmpipe, WARP, SwiftShader)
/// rather than a GPU, as its adapter says; `None` (no renderer yet) counts as a GPU.
#[must_use]
pub fn software_renderer(adapter: Option<&bevy::render::renderer::RenderAdapterInfo>) -> bool {
    adapter.is_some_and(|info| info.device_type == wgpu_types::DeviceType::Cpu)
}

/// A light's shadows as its table made it, so that turning shadows back on restores
/// them.
#[derive(Component, Clone, Copy)]
struct TableShadows(bool);

pub(crate) fn plugin(app: &mut App) {
    let renderer = app.get_sub_app(bevy::render::RenderApp).is_some();
    app.init_resource::<GraphicsWindow>()
        .insert_resource(SmoothingPasses(renderer))
        .add_systems(PreStartup, load)
        .add_systems(
            PostUpdate,
            (
                note_shadows,
                apply_shadows.run_if(resource_exists::<Graphics>),
            )
                .chain(),
        )
        .add_systems(
            Update,
            scale_keys
                .run_if(resource_exists::<Graphics>)
                .run_if(not(crate::client::core::keyboard::typing)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                apply_ui_scale
                    .run_if(resource_exists::<Graphics>)
                    .before(crate::client::core::HudSystems::Frame),
                draw_window
                    .after(crate::client::core::HudSystems::Frame)
                    .after(crate::client::core::HudSystems::Game),
            ),
        );
}

/// Ctrl+plus and Ctrl+minus make the interface larger and smaller by a tenth, Ctrl+0
/// puts it back; the choice is kept with the settings.
fn scale_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut graphics: ResMut<Graphics>,
    mut window: ResMut<GraphicsWindow>,
    folder: Option<Res<SaveFolder>>,
) {
    if !keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]) {
        return;
    }
    let now = graphics.ui_scale;
    let scale = if keys.any_just_pressed([KeyCode::Equal, KeyCode::NumpadAdd]) {
        now.saturating_add(10)
    } else if keys.any_just_pressed([KeyCode::Minus, KeyCode::NumpadSubtract]) {
        now.saturating_sub(10)
    } else if keys.any_just_pressed([KeyCode::Digit0, KeyCode::Numpad0]) {
        100
    } else {
        return;
    };
    let scale = scale.clamp(*Graphics::UI_SCALES.start(), *Graphics::UI_SCALES.end());
    if scale != now {
        graphics.ui_scale = scale;
        let folder = folder.map(|f| f.clone()).unwrap_or_default();
        window.problem = write(&file(&folder), &graphics).err();
    }
}

/// The interface drawn at the chosen scale (egui's own zoom keys are off: these are
/// ours, and kept).
fn apply_ui_scale(mut contexts: EguiContexts, graphics: Res<Graphics>) -> Result {
    let ctx = contexts.ctx_mut()?;
    if ctx.options(|o| o.zoom_with_keyboard) {
        ctx.options_mut(|o| o.zoom_with_keyboard = false);
    }
    let zoom = graphics.ui_zoom();
    if (ctx.zoom_factor() - zoom).abs() > 1e-3 {
        ctx.set_zoom_factor(zoom);
    }
    Ok(())
}

/// Where the settings are kept.
fn file(folder: &SaveFolder) -> PathBuf {
    folder.0.join(FILE)
}

/// Reads the settings unless the app was given them (the frame benchmark). A file that
/// does not read leaves the defaults in force and says why in the window.
fn load(world: &mut World) {
    if world.contains_resource::<Graphics>() {
        return;
    }
    let folder = world
        .get_resource::<SaveFolder>()
        .cloned()
        .unwrap_or_default();
    let (graphics, problem) = read(&file(&folder));
    world.insert_resource(graphics);
    if let Some(problem) = problem {
        warn!("{problem}");
        // Opened, so that the player learns why their settings are not in force.
        let mut window = world.resource_mut::<GraphicsWindow>();
        window.problem = Some(problem);
        window.open = true;
    }
}

fn note_shadows(
    lights: Query<(Entity, &DirectionalLight), Added<DirectionalLight>>,
    mut commands: Commands,
) {
    for (entity, light) in &lights {
        commands
            .entity(entity)
            .insert(TableShadows(light.shadow_maps_enabled));
    }
}

fn apply_shadows(
    graphics: Res<Graphics>,
    mut lights: Query<(&mut DirectionalLight, &TableShadows)>,
) {
    for (mut light, table) in &mut lights {
        let on = table.0 && graphics.shadows;
        if light.shadow_maps_enabled != on {
            light.shadow_maps_enabled = on;
        }
    }
}

/// Puts a camera's smoothing in place: its multisampling (`msaa`, already chosen by the
/// caller for the frame's size and what it shows) and the post-process, if any.
pub(crate) fn smoothing_components(
    antialiasing: Option<Antialiasing>,
    camera: Entity,
    has: (bool, bool),
    passes: SmoothingPasses,
    commands: &mut Commands,
) {
    if !passes.0 {
        return;
    }
    let (fxaa, smaa) = has;
    let want = (
        antialiasing == Some(Antialiasing::Fxaa),
        antialiasing == Some(Antialiasing::Smaa),
    );
    if want.0 != fxaa {
        if want.0 {
            commands.entity(camera).insert(Fxaa::default());
        } else {
            commands.entity(camera).remove::<Fxaa>();
        }
    }
    if want.1 != smaa {
        if want.1 {
            commands.entity(camera).insert(Smaa::default());
        } else {
            commands.entity(camera).remove::<Smaa>();
        }
    }
}

fn draw_window(
    mut contexts: EguiContexts,
    mut window: ResMut<GraphicsWindow>,
    graphics: Option<ResMut<Graphics>>,
    folder: Option<Res<SaveFolder>>,
    adapter: Option<Res<bevy::render::renderer::RenderAdapterInfo>>,
) -> Result {
    if !window.open {
        return Ok(());
    }
    let Some(mut graphics) = graphics else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut chosen = *graphics;
    egui::Window::new("Graphics and settings")
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            smoothing_section(ui, &mut chosen, adapter.as_deref());
            settings_section(ui, &mut chosen);
            if let Some(problem) = &window.problem {
                ui.colored_label(theme::SETTING_PROBLEM, problem);
            }
            if let Some(folder) = &folder {
                ui.label(
                    egui::RichText::new(format!("Kept in {}", file(folder).display()))
                        .small()
                        .weak(),
                );
            }
        });
    if chosen != *graphics {
        *graphics = chosen;
        let folder = folder.map(|f| f.clone()).unwrap_or_default();
        window.problem = write(&file(&folder), &chosen).err();
    }
    window.open = open;
    Ok(())
}

/// The edge smoothing's choices, what the automatic one stands for here, and its limit.
fn smoothing_section(
    ui: &mut egui::Ui,
    chosen: &mut Graphics,
    adapter: Option<&bevy::render::renderer::RenderAdapterInfo>,
) {
    ui.label(egui::RichText::new("Edge smoothing").strong());
    for choice in Antialiasing::ALL {
        ui.radio_value(&mut chosen.antialiasing, choice, choice.label())
            .on_hover_text(choice.about());
    }
    if chosen.antialiasing == Antialiasing::Auto {
        let software = software_renderer(adapter);
        ui.label(
            egui::RichText::new(format!(
                "Automatic draws with {} here ({}).",
                Antialiasing::Auto.resolve(software).label(),
                if software {
                    "software rendering, no GPU"
                } else {
                    "a graphics card"
                }
            ))
            .small()
            .weak(),
        );
    }
    ui.label(
        egui::RichText::new(
            "Above 2560 × 1440 pixels no smoothing is used: the pixels are small enough that edges show no steps.",
        )
        .small()
        .weak(),
    );
    ui.add_space(6.0);
}

/// Shadows, the interface's scale, and the play settings.
fn settings_section(ui: &mut egui::Ui, chosen: &mut Graphics) {
    ui.checkbox(&mut chosen.shadows, "Shadows").on_hover_text(
        "Tanks, trees and buildings cast shadows on the table; off saves the GPU a pass",
    );
    ui.add_space(6.0);
    ui.label(egui::RichText::new("Interface").strong());
    ui.add(
        egui::Slider::new(&mut chosen.ui_scale, Graphics::UI_SCALES)
            .step_by(10.0)
            .suffix(" %")
            .text("Scale"),
    )
    .on_hover_text(
        "The size of the panels and of the labels on the table (Ctrl+plus, Ctrl+minus, Ctrl+0)",
    );
    ui.add_space(6.0);
    ui.label(egui::RichText::new("Play").strong());
    ui.checkbox(
        &mut chosen.confirm_ends,
        "Ask before ending an activation or a turn with actions left",
    )
    .on_hover_text("Tank Commander: End activation (Backspace) with action points unused, or End turn (N) with units that have not acted, asks once first");
    ui.add_space(6.0);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tt-graphics-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn settings_are_kept_and_read_back() {
        let dir = temp("kept");
        let path = dir.join(FILE);
        assert_eq!(
            read(&path),
            (Graphics::default(), None),
            "no file: the defaults"
        );
        let chosen = Graphics {
            antialiasing: Antialiasing::Fxaa,
            shadows: false,
            confirm_ends: false,
            ui_scale: 150,
        };
        write(&path, &chosen).unwrap();
        assert_eq!(read(&path), (chosen, None));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A settings file of `text` in a folder of its own.
    fn file_of(name: &str, text: &str) -> (PathBuf, PathBuf) {
        let dir = temp(name);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(FILE);
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    #[test]
    fn a_file_that_does_not_read_gives_the_defaults_and_says_where() {
        let (dir, path) = file_of("bad", "Graphics(\n  antialiasing: Blurry,\n)");
        let (graphics, problem) = read(&path);
        assert_eq!(graphics, Graphics::default());
        let problem = problem.unwrap();
        assert!(
            problem.contains(&format!("{}:2:", path.display())),
            "{problem}"
        );
        assert!(problem.contains("Blurry"), "{problem}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_of_older_settings_keeps_the_defaults_it_does_not_name() {
        let (dir, path) = file_of("older", "(shadows: false)");
        let (graphics, problem) = read(&path);
        assert_eq!(problem, None);
        assert_eq!(graphics.antialiasing, Antialiasing::Auto);
        assert!(!graphics.shadows);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn automatic_smoothing_is_smaa_on_software_rendering_and_multisampling_on_a_gpu() {
        assert_eq!(Graphics::default().antialiasing, Antialiasing::Auto);
        assert_eq!(Antialiasing::Auto.resolve(true), Antialiasing::Smaa);
        assert_eq!(Antialiasing::Auto.resolve(false), Antialiasing::Msaa2);
        assert_eq!(Antialiasing::Auto.resolve(false).msaa(), Msaa::Sample2);
        assert_eq!(Antialiasing::Auto.resolve(true).msaa(), Msaa::Off);
        // A player's own choice is kept whatever the renderer.
        for choice in Antialiasing::ALL.into_iter().skip(1) {
            assert_eq!(choice.resolve(true), choice);
            assert_eq!(choice.resolve(false), choice);
        }
        // A settings file from before `Auto` keeps the choice it names.
        let (dir, path) = file_of("named", "(antialiasing: Msaa4)");
        assert_eq!(read(&path).0.antialiasing, Antialiasing::Msaa4);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn every_choice_has_a_key_that_names_it_back() {
        for choice in Antialiasing::ALL {
            assert_eq!(Antialiasing::from_key(choice.key()), Some(choice));
        }
        assert_eq!(Antialiasing::from_key("blurry"), None);
    }
}
