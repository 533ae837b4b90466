//! The panels are laid out again only when something they show may have changed.
//!
//! Laying out and tessellating egui's windows is most of the client's CPU time on a
//! frame where nothing happens. So egui's pass runs only on a frame when
//! - the player did something egui sees (pointer, keys, wheel, files) or the window
//!   changed size;
//! - egui asked for it (a tooltip's delay, a text cursor's blink, a window settling);
//! - a resource the panels show changed (the session, the selection, the hovered hex,
//!   the screen, the panels' switches …; each plugin registers its own with [`watch`]);
//! - something on the table moved (the camera, a model gliding), which moves labels;
//! - animations are playing;
//! - or a quarter of a second has passed ([`Redraw::max_wait`]), a safety net for
//!   anything else.
//!
//! On the other frames the last frame's triangles are drawn again.

use bevy::ecs::change_detection::Tick;
use bevy::ecs::component::ComponentId;
use bevy::prelude::*;
use bevy_egui::egui;
use bevy_egui::{
    EguiFullOutput, EguiInput, EguiPostUpdateSet, EguiPreUpdateSet, EguiRenderOutput,
    PrimaryEguiContext,
};

use crate::client::core::session::{Busy, OpenProblem};
use crate::client::core::{GameScreen, Screen};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Redraw>()
        .init_resource::<Watched>()
        .configure_sets(PreUpdate, EguiPreUpdateSet::BeginPass.run_if(panels_due))
        .configure_sets(
            PostUpdate,
            (EguiPostUpdateSet::EndPass, EguiPostUpdateSet::ProcessOutput).run_if(panels_due),
        )
        .add_systems(
            PreUpdate,
            (watch_resources, decide)
                .chain()
                .after(EguiPreUpdateSet::ProcessInput)
                .before(EguiPreUpdateSet::BeginPass),
        )
        .add_systems(
            PostUpdate,
            (
                note_repaint
                    .after(EguiPostUpdateSet::EndPass)
                    .before(EguiPostUpdateSet::ProcessOutput)
                    .run_if(panels_due),
                keep_or_reuse
                    .after(EguiPostUpdateSet::ProcessOutput)
                    .before(EguiPostUpdateSet::PostProcessOutput),
            ),
        );
    watch::<State<Screen>>(app);
    watch::<State<GameScreen>>(app);
    watch::<crate::client::frame::hud::Panels>(app);
    watch::<crate::client::table::effects::Callout>(app);
    watch::<crate::client::table::camera::Rig>(app);
    watch::<OpenProblem>(app);
}

/// Whether egui's pass runs this frame, and what decides the next.
#[derive(Resource)]
pub struct Redraw {
    /// The panels are laid out this frame.
    pub due: bool,
    /// Frames still to draw whatever happens (the first frames, and after a change so
    /// that windows that size themselves settle).
    settle: u8,
    /// When egui asked to be drawn again (seconds of real time).
    asked_at: Option<f64>,
    /// When the panels were last laid out (seconds of real time).
    drawn_at: f64,
    /// A watched resource that changed since the last frame.
    resource_changed: Option<&'static str>,
    /// The window's size as egui last saw it.
    screen: Option<egui::Rect>,
    /// The modifier keys as egui last saw them.
    modifiers: egui::Modifiers,
    /// The last triangles egui made, drawn again on frames without a pass.
    kept: Vec<egui::ClippedPrimitive>,
    /// This frame's triangles are kept (the panels may be quiet next frame).
    keep: bool,
    /// The longest the panels go without being laid out again, in seconds: a safety net
    /// for a change nothing registered.
    pub max_wait: f64,
    /// Frames laid out and frames reused, for tests and the bench.
    pub counts: (u64, u64),
    /// What made the panels due this frame, if anything did.
    pub why: Option<&'static str>,
}

impl Default for Redraw {
    fn default() -> Self {
        Self {
            due: true,
            settle: 3,
            asked_at: None,
            drawn_at: 0.0,
            resource_changed: None,
            screen: None,
            modifiers: egui::Modifiers::NONE,
            kept: Vec::new(),
            keep: false,
            max_wait: 0.25,
            counts: (0, 0),
            why: None,
        }
    }
}

impl Redraw {
    /// Frames drawn after anything that made the panels due.
    const SETTLE: u8 = 2;
}

fn panels_due(redraw: Res<Redraw>) -> bool {
    redraw.due
}

/// The resources the panels show, by id: a change to any of them makes the panels due.
#[derive(Resource, Default)]
struct Watched {
    ids: Vec<(ComponentId, &'static str)>,
    last_run: Option<Tick>,
}

/// Makes a change to resource `R` lay the panels out again. Every resource a panel reads
/// (beside time and input) is registered this way by the plugin that owns it.
pub fn watch<R: Resource>(app: &mut App) {
    let world = app.world_mut();
    let id = world.register_component::<R>();
    let mut watched = world.get_resource_or_init::<Watched>();
    if !watched.ids.iter().any(|(known, _)| *known == id) {
        watched.ids.push((id, std::any::type_name::<R>()));
    }
}

fn watch_resources(world: &mut World) {
    let now = world.change_tick();
    let changed = world.get_resource::<Watched>().and_then(|w| {
        let last = w.last_run.unwrap_or_default();
        w.ids.iter().find_map(|&(id, name)| {
            world
                .get_resource_change_ticks_by_id(id)
                .is_some_and(|ticks| ticks.is_changed(last, now))
                .then_some(name)
        })
    });
    if let Some(mut w) = world.get_resource_mut::<Watched>() {
        w.bypass_change_detection().last_run = Some(now);
    }
    let mut redraw = world.resource_mut::<Redraw>();
    let redraw = redraw.bypass_change_detection();
    redraw.resource_changed = redraw.resource_changed.or(changed);
}

fn decide(
    mut redraw: ResMut<Redraw>,
    time: Res<Time<Real>>,
    virtual_time: Res<Time>,
    mut inputs: Query<&mut EguiInput, With<PrimaryEguiContext>>,
    moved: Query<(), Changed<GlobalTransform>>,
    busy: Option<Res<Busy>>,
    screens: Option<Res<State<Screen>>>,
) {
    let now = time.elapsed_secs_f64();
    let r = &mut *redraw;
    let mut input = inputs.iter_mut().next();
    let screen = input.as_ref().and_then(|i| i.screen_rect);
    // bevy_egui repeats the modifier keys' state every frame, which egui takes for input
    // and answers with another pass: only a change is kept.
    let mut acted = false;
    if let Some(i) = input.as_mut() {
        let modifiers = &mut r.modifiers;
        i.events.retain(|event| match event {
            egui::Event::ModifiersChanged(m) if m == modifiers => false,
            egui::Event::ModifiersChanged(m) => {
                *modifiers = *m;
                true
            }
            _ => true,
        });
        acted = !i.events.is_empty() || !i.dropped_files.is_empty() || !i.hovered_files.is_empty();
    }
    let resized = screen != r.screen;
    let asked = r.asked_at.is_some_and(|at| now >= at);
    let animating = busy.is_some_and(|b| b.busy(virtual_time.elapsed_secs()));
    // The menu and the builder are light and wholly input-driven: always laid out.
    let off_table = screens.is_none_or(|s| *s.get() != Screen::Playing);
    let changed = std::mem::take(&mut r.resource_changed);
    let reasons = [
        (off_table, "off the table"),
        (acted, "input"),
        (resized, "window"),
        (asked, "egui asked"),
        (changed.is_some(), changed.unwrap_or_default()),
        (animating, "animations"),
        (!moved.is_empty(), "something moved"),
    ];
    r.why = reasons.iter().find(|(yes, _)| *yes).map(|(_, why)| *why);
    let trigger = r.why.is_some();
    if trigger {
        r.settle = r.settle.max(Redraw::SETTLE);
    }
    r.due = r.settle > 0 || now - r.drawn_at >= r.max_wait;
    r.keep = false;
    if r.due {
        r.settle = r.settle.saturating_sub(1);
        // Only the last frame laid out before the panels may go quiet keeps its triangles
        // (a copy of them all): a run of busy frames copies nothing.
        r.keep = r.settle == 0;
        r.drawn_at = now;
        r.asked_at = None;
        r.screen = screen;
    }
}

/// Notes when egui wants its next pass.
fn note_repaint(
    mut redraw: ResMut<Redraw>,
    time: Res<Time<Real>>,
    outputs: Query<&EguiFullOutput, With<PrimaryEguiContext>>,
) {
    let Some(output) = outputs.iter().next().and_then(|o| o.0.as_ref()) else {
        return;
    };
    if let Some(viewport) = output.viewport_output.get(&egui::ViewportId::ROOT)
        && viewport.repaint_delay < std::time::Duration::from_secs(3600)
    {
        redraw.asked_at = Some(time.elapsed_secs_f64() + viewport.repaint_delay.as_secs_f64());
    }
}

/// After a pass, keeps its triangles; on a frame without one, hands them to the renderer
/// again (it takes them each frame).
fn keep_or_reuse(
    mut redraw: ResMut<Redraw>,
    mut outputs: Query<&mut EguiRenderOutput, With<PrimaryEguiContext>>,
) {
    let Some(mut output) = outputs.iter_mut().next() else {
        return;
    };
    let r = redraw.bypass_change_detection();
    if r.due {
        if r.keep {
            r.kept.clone_from(&output.paint_jobs);
        }
        r.counts.0 += 1;
    } else {
        output.paint_jobs.clone_from(&r.kept);
        r.counts.1 += 1;
    }
}
