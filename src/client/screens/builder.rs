//! The upgrade builder: spend each tank's upgrade points before a battle, or design a
//! tank on its own ("Build a tank") and save it to RON.
//!
//! Every rule comes from the rules layer. A control that would break a rule is disabled,
//! and its tooltip is the validator's own sentence: `blocked` applies the change to a
//! copy of the tank and asks [`Scenario::validate`] (which calls [`Build::problems`])
//! what the copy would newly break. Nothing here re-states a rule.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::client::core::Screen;
use crate::client::core::session::{AnySetup, OpenGame};
use crate::client::games::tank_commander::build_card::{
    design_files, designs_section, summary_card, tank_controls, unit_problems,
};
use crate::framework::Seat;
use crate::rules::tank_commander::Battle;
use crate::rules::tank_commander::setup::{Rules, Scenario, ScenarioSetup, UnitKind, UnitSetup};

pub use crate::client::core::open::BuilderPlan;
use crate::client::core::saves::builds_dir;
use crate::client::table::theme::BUILD_PROBLEM;
pub use crate::rules::tank_commander::setup::TankDesign;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<BuilderState>()
        .add_systems(OnEnter(Screen::Builder), rescan_designs)
        .add_systems(Update, load_plan.run_if(in_state(Screen::Builder)))
        .add_systems(
            EguiPrimaryContextPass,
            draw_builder.run_if(in_state(Screen::Builder)),
        );
}

/// The builder's working copy, taken from [`BuilderPlan`] whenever the plan changes.
#[derive(Resource)]
struct BuilderState {
    working: Option<Working>,
    /// Index into the scenario's units of the tank being edited.
    selected: usize,
    /// `.ron` files in [`builds_dir`].
    designs: Vec<PathBuf>,
    /// The last save or load: what happened, or what went wrong.
    notice: Option<Result<String, String>>,
    /// Why the scenario could not start, as the validator put it.
    start_problems: Vec<String>,
    /// The rules the tanks are built with (the project's table, read on entering).
    rules: Rules,
}

enum Working {
    Scenario {
        setup: ScenarioSetup,
        source: String,
        seats: Vec<Seat>,
    },
    Standalone(UnitSetup),
}

impl Working {
    /// The tank being edited, if it is one.
    fn unit_mut(&mut self, selected: usize) -> Option<&mut UnitSetup> {
        match self {
            Working::Scenario { setup, .. } => setup
                .units
                .get_mut(selected)
                .filter(|u| u.kind.is_vehicle()),
            Working::Standalone(unit) => Some(unit),
        }
    }
}

impl BuilderState {
    fn start(&mut self, plan: &BuilderPlan) {
        self.selected = 0;
        self.notice = None;
        self.start_problems.clear();
        self.working = Some(match plan {
            BuilderPlan::Scenario {
                setup,
                source,
                seats,
            } => {
                self.selected = setup
                    .units
                    .iter()
                    .position(|u| u.kind.is_vehicle())
                    .unwrap_or(0);
                Working::Scenario {
                    setup: setup.clone(),
                    source: source.clone(),
                    seats: seats.clone(),
                }
            }
            BuilderPlan::Standalone => Working::Standalone(TankDesign::default().unit()),
        });
    }
}

fn load_plan(plan: Option<Res<BuilderPlan>>, mut state: ResMut<BuilderState>) {
    match plan {
        Some(plan) if plan.is_changed() || state.working.is_none() => state.start(&plan),
        None if state.working.is_none() => state.start(&BuilderPlan::Standalone),
        _ => {}
    }
}

impl Default for BuilderState {
    fn default() -> Self {
        Self {
            working: None,
            selected: 0,
            designs: Vec::new(),
            notice: None,
            start_problems: Vec::new(),
            rules: Rules::builtin(),
        }
    }
}

fn rescan_designs(mut state: ResMut<BuilderState>) {
    state.designs = design_files(&builds_dir());
    match Rules::load(None) {
        Ok(rules) => state.rules = rules,
        Err(e) => state.notice = Some(Err(e.to_string())),
    }
}

// ---------------------------------------------------------------------------------------
// The screen

fn draw_builder(
    mut contexts: EguiContexts,
    mut state: ResMut<BuilderState>,
    mut opens: MessageWriter<OpenGame>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let BuilderState {
        working,
        selected,
        designs,
        notice,
        start_problems,
        rules,
    } = &mut *state;
    let rules = &*rules;
    let Some(working) = working.as_mut() else {
        return Ok(());
    };
    let mut screen = egui::Ui::new(
        ctx.clone(),
        "builder".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );

    egui::Panel::top("builder-header").show(&mut screen, |ui| {
        builder_header(ui, working, selected, rules);
    });

    egui::Panel::bottom("builder-actions").show(&mut screen, |ui| {
        builder_actions(ui, working, start_problems, rules, &mut opens, &mut next);
    });

    egui::CentralPanel::default().show(&mut screen, |ui| {
        builder_body(ui, working, *selected, designs, notice, rules);
    });
    Ok(())
}

/// The title: the scenario's name and its tank picker, or "Build a tank".
fn builder_header(ui: &mut egui::Ui, working: &Working, selected: &mut usize, rules: &Rules) {
    ui.add_space(8.0);
    match working {
        Working::Scenario { setup, .. } => {
            ui.heading(
                egui::RichText::new(format!("Upgrade builder — {}", setup.name))
                    .size(26.0)
                    .strong(),
            );
            ui.label(
                egui::RichText::new(
                    "Spend each tank's and APC's upgrade points, then start the battle. Pick one:",
                )
                .weak(),
            );
            ui.add_space(4.0);
            tank_picker(ui, setup, selected, rules);
        }
        Working::Standalone(_) => {
            ui.heading(egui::RichText::new("Build a tank").size(26.0).strong());
            ui.label(
                egui::RichText::new(
                    "Design a tank with the upgrade rules and save it to RON; load it onto a scenario's tank in the builder.",
                )
                .weak(),
            );
        }
    }
    ui.add_space(8.0);
}

/// The bottom bar: Start battle (for a scenario), Back to menu, and why the battle
/// cannot start.
fn builder_actions(
    ui: &mut egui::Ui,
    working: &Working,
    start_problems: &mut Vec<String>,
    rules: &Rules,
    opens: &mut MessageWriter<OpenGame>,
    next: &mut NextState<Screen>,
) {
    ui.add_space(8.0);
    ui.horizontal(|ui| {
        if let Working::Scenario {
            setup,
            source,
            seats,
        } = working
        {
            let start = ui
                .button(egui::RichText::new("▶ Start battle").size(20.0))
                .on_hover_text("Check every tank against the rules, then start the battle");
            if start.clicked() {
                match Scenario::validate(setup.clone(), rules) {
                    Ok(scenario) => {
                        start_problems.clear();
                        let battle = Battle {
                            scenario,
                            rules: rules.clone(),
                        };
                        opens.write(OpenGame {
                            seats: Some(seats.clone()),
                            ..OpenGame::setup(AnySetup::TankCommander(battle), source.clone())
                        });
                    }
                    Err(problems) => {
                        *start_problems = problems
                            .0
                            .into_iter()
                            .map(|(at, message)| {
                                if at.is_empty() {
                                    message
                                } else {
                                    format!("{message} (at {at})")
                                }
                            })
                            .collect();
                    }
                }
            }
        }
        if ui
            .button(egui::RichText::new("Back to menu").size(16.0))
            .on_hover_text("Leave the builder; changes not saved as designs are lost")
            .clicked()
        {
            next.set(Screen::Menu);
        }
    });
    if !start_problems.is_empty() {
        ui.colored_label(BUILD_PROBLEM, "The battle cannot start:");
        for problem in start_problems.iter() {
            ui.colored_label(BUILD_PROBLEM, format!("• {problem}"));
        }
    }
    ui.add_space(8.0);
}

/// The selected tank's controls, its summary card, and the saved designs.
fn builder_body(
    ui: &mut egui::Ui,
    working: &mut Working,
    selected: usize,
    designs: &mut Vec<PathBuf>,
    notice: &mut Option<Result<String, String>>,
    rules: &Rules,
) {
    let standalone = matches!(working, Working::Standalone(_));
    let Some(unit) = working.unit_mut(selected) else {
        ui.label("This scenario has no tanks or APCs to upgrade: start the battle as it is.");
        return;
    };
    egui::ScrollArea::vertical()
        .id_salt("builder-scroll")
        .auto_shrink(false)
        .show(ui, |ui| {
            ui.columns(2, |cols| {
                tank_controls(&mut cols[0], unit, rules, !standalone);
                summary_card(&mut cols[1], unit, rules);
                cols[1].add_space(16.0);
                if unit.kind == UnitKind::Tank {
                    designs_section(
                        &mut cols[1],
                        unit,
                        rules,
                        (&builds_dir(), designs),
                        notice,
                        standalone,
                    );
                } else {
                    cols[1].label(
                        egui::RichText::new("Saved designs are for tanks; an APC is built here.")
                            .weak(),
                    );
                }
            });
        });
}

/// The scenario's units, one row per side; only tanks can be picked.
fn tank_picker(ui: &mut egui::Ui, setup: &ScenarioSetup, selected: &mut usize, rules: &Rules) {
    let mut rows: Vec<(String, Vec<usize>)> = setup
        .sides
        .iter()
        .map(|side| {
            let units = (0..setup.units.len())
                .filter(|&k| setup.units[k].side == side.name)
                .collect();
            (side.name.clone(), units)
        })
        .collect();
    let strays: Vec<usize> = (0..setup.units.len())
        .filter(|&k| !setup.sides.iter().any(|s| s.name == setup.units[k].side))
        .collect();
    if !strays.is_empty() {
        rows.push(("No side".into(), strays));
    }
    egui::Grid::new("builder-picker")
        .num_columns(2)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            for (side, units) in rows {
                ui.label(egui::RichText::new(side).strong().size(16.0));
                ui.horizontal_wrapped(|ui| {
                    for k in units {
                        unit_button(ui, k, &setup.units[k], selected, rules);
                    }
                });
                ui.end_row();
            }
        });
}

fn unit_button(ui: &mut egui::Ui, k: usize, unit: &UnitSetup, selected: &mut usize, rules: &Rules) {
    let problems = unit_problems(unit, rules);
    if !unit.kind.is_vehicle() {
        let why = problems.first().map_or_else(
            || format!("{:?} units take no upgrades", unit.kind),
            |(_, message)| message.clone(),
        );
        ui.add_enabled(false, egui::Button::new(unit.name.as_str()))
            .on_disabled_hover_text(why);
        return;
    }
    let left = i64::from(unit.budget(rules)) - i64::from(unit.build.cost(&rules.upgrades));
    let mut text = egui::RichText::new(format!("{} · {left} left", unit.name)).size(15.0);
    if !problems.is_empty() {
        text = egui::RichText::new(format!("⚠ {} · {left} left", unit.name))
            .size(15.0)
            .color(BUILD_PROBLEM);
    }
    let hover = if problems.is_empty() {
        format!("{} at {}: keeps every rule", unit.name, unit.at)
    } else {
        problems
            .iter()
            .map(|(_, m)| m.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    };
    if ui
        .add(egui::Button::selectable(*selected == k, text))
        .on_hover_text(hover)
        .clicked()
    {
        *selected = k;
    }
}
