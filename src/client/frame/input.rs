//! Clicks and keys become orders, here and in each game's input module, never in the
//! panels' drawing code.
//!
//! A click belongs either to a panel or to the table, decided once, where the press
//! began: on a panel only if a panel was on screen under the pointer in both of the last
//! two frames drawn. A panel that has just grown or slid under the pointer (a label that
//! changed with the hovered hex, say) therefore never takes a click meant for the table
//! behind it: the player clicks what they saw. Panels write [`PanelOrder`]s, which reach
//! the session only when the press began on a panel; the table's click observers
//! check [`PressOrigin`] the same way.

use bevy::picking::events::{Pointer, Press};
use bevy::prelude::*;

use crate::client::core::ClientSystems;
use crate::client::core::keyboard::{TextFocus, typing};
use crate::client::core::session::{GameClient, Order, Session};
use crate::client::table::framing::in_pixels;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PanelOutlines>()
        .init_resource::<PressOrigin>()
        .add_observer(note_press)
        .add_systems(
            PreUpdate,
            note_bare_press.before(bevy::picking::PickingSystems::ProcessInput),
        );
}

/// The panels' side of the arbitration, in the windowed client: egui's own capture of
/// the pointer is turned off (it decides from the pointer's position one frame late, and
/// so drops clicks on the table just after the pointer leaves a panel), and the outline of
/// every panel drawn is recorded after each frame.
pub(crate) fn panels_plugin(app: &mut App) {
    app.add_systems(
        PostUpdate,
        record_outlines.after(bevy_egui::EguiPostUpdateSet::EndPass),
    )
    .add_observer(no_egui_capture);
}

fn no_egui_capture(
    added: On<Add, bevy_egui::EguiContextSettings>,
    mut settings: Query<&mut bevy_egui::EguiContextSettings>,
) {
    if let Ok(mut s) = settings.get_mut(added.entity) {
        s.capture_pointer_input = false;
    }
}

fn record_outlines(
    mut contexts: Query<&mut bevy_egui::EguiContext, With<bevy_egui::PrimaryEguiContext>>,
    mut outlines: ResMut<PanelOutlines>,
) {
    let Some(mut ctx) = contexts.iter_mut().next() else {
        return;
    };
    // Panels are laid out in points; the pointer moves in the window's pixels.
    let zoom = ctx.get_mut().zoom_factor();
    let rects = ctx.get_mut().memory(|mem| {
        mem.areas()
            .visible_layer_ids()
            .into_iter()
            .filter(|layer| layer.order != bevy_egui::egui::Order::Background)
            .filter_map(|layer| mem.area_rect(layer.id))
            .map(|r| in_pixels(r, zoom))
            .collect()
    });
    outlines.drawn(rects);
}

/// The input of game `G`: panel orders forwarded, and the keys every game shares.
pub(crate) fn game_plugin<G: GameClient>(app: &mut App) {
    app.add_message::<PanelOrder<G>>()
        .init_resource::<crate::client::frame::hud::Panels>()
        .add_systems(
            Update,
            (
                forward_panel_orders::<G>,
                shared_keys::<G>.run_if(not(typing)),
            )
                .in_set(ClientSystems::Input)
                .run_if(resource_exists::<Session<G>>),
        )
        .add_systems(
            Update,
            escape::<G>
                .after(ClientSystems::Input)
                .before(ClientSystems::Session)
                .run_if(resource_exists::<Session<G>>),
        );
}

/// Escape closes the topmost window the table has open: a settings or rules window
/// first, then the what-if, the history, the end of the game; with none open (and behind
/// the privacy screen too) it opens the menu. A game's own use of Escape (dropping an
/// aim, answering a question) comes first and takes the key.
#[allow(clippy::too_many_arguments, reason = "a system's parameters")]
fn escape<G: GameClient>(
    keys: Res<ButtonInput<KeyCode>>,
    session: Res<Session<G>>,
    mut panels: ResMut<crate::client::frame::hud::Panels>,
    graphics: Option<ResMut<crate::client::table::graphics::GraphicsWindow>>,
    reference: Option<ResMut<crate::client::frame::rules_ref::RulesReference>>,
    screen: Option<Res<State<crate::client::core::Screen>>>,
    mut next: Option<ResMut<NextState<crate::client::core::Screen>>>,
    keyboard: Option<Res<crate::client::core::keyboard::PanelKeyboard>>,
) {
    if !keys.just_pressed(KeyCode::Escape) || keyboard.is_some_and(|p| p.on) {
        // In the panels, Escape gives the keyboard back to the table (egui drops its focus).
        return;
    }
    if let Some(mut g) = graphics.filter(|g| g.open) {
        g.open = false;
        return;
    }
    if let Some(mut r) = reference.filter(|r| r.open) {
        r.open = false;
        return;
    }
    if panels.whatif {
        panels.whatif = false;
        return;
    }
    if panels.history {
        panels.history = false;
        return;
    }
    if session.state().outcome().is_some() && !panels.hide_end {
        panels.hide_end = true;
        return;
    }
    if screen.is_some_and(|s| *s.get() == crate::client::core::Screen::Playing)
        && let Some(next) = next.as_mut()
    {
        next.set(crate::client::core::Screen::Menu);
    }
}

/// An order from a panel's button: played only if the click began on the panel.
#[derive(Message, Clone, Debug)]
pub struct PanelOrder<G: crate::client::core::session::GameClient>(pub Order<G>);

/// The outlines of the panels (logical pixels) in the last frame drawn and the one
/// before it.
#[derive(Resource, Default, Debug, Clone)]
pub struct PanelOutlines {
    pub now: Vec<Rect>,
    pub before: Vec<Rect>,
}

impl PanelOutlines {
    /// Whether a panel stood under `at` in both frames.
    #[must_use]
    pub fn steady_at(&self, at: Vec2) -> bool {
        self.now.iter().any(|r| r.contains(at)) && self.before.iter().any(|r| r.contains(at))
    }

    /// Whether a panel stands under `at` now.
    #[must_use]
    pub fn at(&self, at: Vec2) -> bool {
        self.now.iter().any(|r| r.contains(at))
    }

    /// Records the panels of a newly drawn frame.
    pub fn drawn(&mut self, rects: Vec<Rect>) {
        self.before = std::mem::replace(&mut self.now, rects);
    }
}

/// Where the last press of the pointer began.
#[derive(Resource, Debug, Clone, Copy)]
pub struct PressOrigin {
    /// On a panel (true) or on the table.
    pub on_panel: bool,
}

impl Default for PressOrigin {
    /// Before any click, panel buttons work (by keyboard, say).
    fn default() -> Self {
        Self { on_panel: true }
    }
}

/// Every press of a pointer, on whatever it hit: on a panel or on the table?
fn note_press(
    press: On<Pointer<Press>>,
    outlines: Res<PanelOutlines>,
    mut origin: ResMut<PressOrigin>,
) {
    origin.on_panel = outlines.steady_at(press.pointer_location.position);
}

/// Notes a press that hit nothing pickable (the empty space around the table).
pub fn note_bare_press(
    buttons: Res<ButtonInput<MouseButton>>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    outlines: Res<PanelOutlines>,
    mut origin: ResMut<PressOrigin>,
) {
    if !buttons.get_just_pressed().any(|_| true) {
        return;
    }
    if let Some(at) = windows.iter().next().and_then(Window::cursor_position) {
        origin.on_panel = outlines.steady_at(at);
    }
}

fn forward_panel_orders<G: GameClient>(
    mut asked: MessageReader<PanelOrder<G>>,
    origin: Res<PressOrigin>,
    mut orders: MessageWriter<Order<G>>,
) {
    for PanelOrder(order) in asked.read() {
        if origin.on_panel {
            orders.write(order.clone());
        } else {
            debug!("a panel button took a click that began on the table: ignored");
        }
    }
}

/// Keeps [`TextFocus`] up to date (the client with its panels).
pub(crate) fn text_focus_plugin(app: &mut App) {
    app.init_resource::<TextFocus>()
        .add_systems(bevy_egui::EguiPrimaryContextPass, note_text_focus);
}

fn note_text_focus(mut contexts: bevy_egui::EguiContexts, mut focus: ResMut<TextFocus>) {
    if let Ok(ctx) = contexts.ctx_mut() {
        let now = ctx.text_edit_focused();
        if focus.0 != now {
            focus.0 = now;
        }
    }
}

/// The keys every game shares: Ctrl+S saves, U takes back, `,` and `.` step a replay,
/// Enter plays an opening held for a person.
fn shared_keys<G: GameClient>(
    keys: Res<ButtonInput<KeyCode>>,
    session: Res<Session<G>>,
    mut orders: MessageWriter<Order<G>>,
) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    if ctrl && keys.just_pressed(KeyCode::KeyS) {
        orders.write(Order::Save(None));
        return;
    }
    if ctrl {
        return;
    }
    if let Some(replay) = &session.replay {
        let at = session.shown();
        if keys.just_pressed(KeyCode::Period) {
            orders.write(Order::Seek((at + 1).min(replay.len())));
        }
        if keys.just_pressed(KeyCode::Comma) {
            orders.write(Order::Seek(at.saturating_sub(1)));
        }
        return;
    }
    if keys.just_pressed(KeyCode::KeyU) {
        orders.write(Order::Undo);
    }
    if session.held.is_some() && session.interactive && keys.just_pressed(KeyCode::Enter) {
        orders.write(Order::Begin);
    }
}

/// A board's picking backend: for each pointer's ray, the entity `under` finds (a tile or
/// square met by geometry, with the ray's distance to it and the point), reported as a
/// picking hit. Boards drawn as a few merged meshes have no mesh per tile to ray-cast, and
/// a plane is cheaper to meet than hundreds of meshes.
pub fn report_board_hits(
    rays: &bevy::picking::backend::ray::RayMap,
    cameras: &Query<&Camera>,
    hits: &mut MessageWriter<bevy::picking::backend::PointerHits>,
    under: impl Fn(&Ray3d) -> Option<(Entity, f32, Vec3)>,
) {
    use bevy::picking::backend::{HitData, PointerHits};
    for (id, ray) in rays.iter() {
        let Ok(camera) = cameras.get(id.camera) else {
            continue;
        };
        if let Some((entity, depth, point)) = under(ray) {
            let hit = HitData::new(id.camera, depth, Some(point), Some(Vec3::Y));
            #[allow(clippy::cast_precision_loss, reason = "camera orders are small")]
            let order = camera.order as f32;
            hits.write(PointerHits::new(id.pointer, vec![(entity, hit)], order));
        }
    }
}
