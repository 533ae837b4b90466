//! The guided first game: Basic Training (the training range) with each step asked for in
//! a panel under the banner, checked as the player does it, and explained with the rule it
//! applies (select, activate, drive, turn, end the activation, aim, fire).
//! The player may leave the guide at any step; the game goes on.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::highlights::Selection;
use crate::client::core::session::Session;
use crate::client::core::{Clean, ClientSystems, GameScreen, HudSystems};
use crate::client::table::theme;
use crate::framework::PlayerId;
use crate::rules::tank_commander::{Action, TankCommander};

/// The guide's checks (they run headless too).
pub(super) fn logic(app: &mut App) {
    app.add_systems(
        Update,
        follow
            .after(ClientSystems::Session)
            .run_if(resource_exists::<Guide>.and_then(resource_exists::<Session<TankCommander>>)),
    )
    .add_systems(
        OnExit(crate::client::core::Screen::Playing),
        |mut commands: Commands| commands.remove_resource::<Guide>(),
    );
}

/// The guide's panel under the banner.
pub(super) fn scene(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        draw.in_set(HudSystems::Game)
            .run_if(in_state(GameScreen::TankCommander))
            .run_if(resource_exists::<Guide>.and_then(resource_exists::<Session<TankCommander>>))
            .run_if(not(resource_exists::<Clean>)),
    );
    crate::client::frame::redraw::watch::<Guide>(app);
}

/// The setup the guided game is played on.
pub const SETUP: &str = "scenarios/training-range.ron";

/// One step of the guide: what to do, how (the key or the click), and the rule it plays.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    pub name: &'static str,
    pub ask: &'static str,
    pub why: &'static str,
    pub rule: &'static str,
}

/// The steps, in order. The targets stand beyond the gun's reach at the start, so the
/// first activation ends before the first shot: aim and fire come when a target is in
/// reach, a turn or two later.
pub const STEPS: [Step; 7] = [
    Step {
        name: "Select",
        ask: "Click your tank, Rookie (bottom left), to select it. Tab picks your next unit too.",
        why: "Its card opens on the left: armour on each side, accuracy, hull, crew.",
        rule: "tc.intro.activations",
    },
    Step {
        name: "Activate",
        ask: "Press Activate [Enter] on the action bar.",
        why: "A side acts with one unit at a time; the unit gets its action points to spend.",
        rule: "tc.play.action-points",
    },
    Step {
        name: "Drive",
        ask: "Click a blue hex to drive there, or walk the gold ring to it with the arrows and press Enter (Move [M] goes one hex forward).",
        why: "Each blue hex shows what it costs in action points; tanks move forward only.",
        rule: "tc.play.move",
    },
    Step {
        name: "Turn",
        ask: "Turn the hull [, or .] or the turret [[ or ]] towards a target.",
        why: "A tank fires along its turret; the side of the target it strikes decides the armour.",
        rule: "tc.play.turn",
    },
    Step {
        name: "End",
        ask: "End the activation [Backspace] (it asks first if points are left).",
        why: "Unspent points are lost, and the turn passes: next turn, activate Rookie again.",
        rule: "tc.intro.activations",
    },
    Step {
        name: "Aim",
        ask: "Drive on until a target stands on a red hex, labelled with its odds; click it (or ring it with the arrows, then Enter) to aim.",
        why: "The plate gives the exact chance to hit and to penetrate; the line shows the sight.",
        rule: "tc.target.line-of-sight",
    },
    Step {
        name: "Fire",
        ask: "Press Fire [F]. The log explains the roll.",
        why: "A hit needs the to-hit number or more on a die, then penetration against the armour.",
        rule: "tc.hit.roll",
    },
];

/// A guided game in progress: the step asked for now (`STEPS.len()` when done).
#[derive(Resource, Debug, Clone, Default)]
pub struct Guide {
    pub step: usize,
    /// The game it guides (a new game leaves the guide) and the history's length when the
    /// guide began.
    began: Option<(u64, usize)>,
}

impl Guide {
    /// Whether every step is done.
    #[must_use]
    pub fn done(&self) -> bool {
        self.step >= STEPS.len()
    }
}

/// Moves the guide on when the step asked for is done: the selection and the aim as the
/// table holds them, the rest from the actions played since the guide began.
fn follow(
    mut guide: ResMut<Guide>,
    session: Res<Session<TankCommander>>,
    selection: Res<Selection>,
    mut commands: Commands,
) {
    let Some((generation, from)) = guide.began else {
        let began = Some((session.generation, session.game.history().len()));
        guide.bypass_change_detection().began = began;
        return;
    };
    if generation != session.generation {
        if guide.step == 0 {
            // The guided game has just replaced the one on the table.
            guide.began = Some((session.generation, session.game.history().len()));
        } else {
            // Another game is on the table: the guide has nothing to ask.
            commands.remove_resource::<Guide>();
        }
        return;
    }
    let me = PlayerId(0);
    let battle = session.state();
    let played: Vec<&Action> = session
        .game
        .history()
        .iter()
        .skip(from)
        .filter(|s| s.player == me)
        .map(|s| &s.action)
        .collect();
    let did = |f: fn(&Action) -> bool| played.iter().any(|a| f(a));
    let mut step = guide.step;
    while step < STEPS.len() {
        let done = match step {
            0 => {
                selection.unit.is_some_and(|u| battle.unit(u).side == me)
                    || did(|a| matches!(a, Action::Activate(_)))
            }
            1 => did(|a| matches!(a, Action::Activate(_))),
            2 => did(|a| matches!(a, Action::Move | Action::Step(_))),
            3 => did(|a| matches!(a, Action::Turn { .. } | Action::RotateTurret(_))),
            4 => did(|a| matches!(a, Action::EndActivation)),
            5 => selection.aim.is_some() || did(|a| matches!(a, Action::Fire(_))),
            _ => did(|a| matches!(a, Action::Fire(_))),
        };
        if !done {
            break;
        }
        step += 1;
    }
    if step != guide.step {
        guide.step = step;
    }
}

fn draw(
    mut contexts: EguiContexts,
    guide: Res<Guide>,
    mut reference: ResMut<crate::client::frame::rules_ref::RulesReference>,
    mut commands: Commands,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let below = ctx
        .memory(|m| m.area_rect(crate::client::table::framing::window_id("banner")))
        .map_or(130.0, |r| r.bottom() + 6.0);
    egui::Window::new("Guided first game")
        .id(egui::Id::new("guide"))
        .collapsible(true)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [20.0, below])
        .max_width(520.0)
        .show(ctx, |ui| {
            ui.horizontal_wrapped(|ui| {
                for (i, s) in STEPS.iter().enumerate() {
                    let text = egui::RichText::new(s.name).small();
                    ui.label(match i.cmp(&guide.step) {
                        std::cmp::Ordering::Less => text.color(theme::GUIDE_STEP_DONE),
                        std::cmp::Ordering::Equal => text.strong().color(theme::EMPHASIS),
                        std::cmp::Ordering::Greater => text.weak(),
                    });
                }
            });
            match STEPS.get(guide.step) {
                Some(step) => {
                    ui.label(
                        egui::RichText::new(format!(
                            "Step {} of {}: {}",
                            guide.step + 1,
                            STEPS.len(),
                            step.ask
                        ))
                        .strong(),
                    );
                    ui.horizontal_wrapped(|ui| {
                        ui.label(egui::RichText::new(step.why).weak());
                        crate::client::frame::rules_ref::rule_link(
                            ui,
                            &mut reference,
                            crate::rules::GameKind::TankCommander,
                            step.rule,
                        );
                    });
                }
                None => {
                    ui.label(
                        egui::RichText::new(
                            "That is the whole of a turn. Play on: drive through the three waypoints and knock out the three targets before turn 8.",
                        )
                        .strong(),
                    );
                }
            }
            let label = if guide.done() { "Close the guide" } else { "Leave the guide" };
            if ui
                .small_button(label)
                .on_hover_text("The game goes on without it")
                .clicked()
            {
                commands.remove_resource::<Guide>();
            }
        });
    Ok(())
}
