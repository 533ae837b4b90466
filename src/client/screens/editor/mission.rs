//! The right panel's mission section: the kind of mission, its sides, edges and targets,
//! and the turn limit.

use bevy_egui::egui;

use super::EditorOrder;
use super::panels::Out;
use crate::client::table::theme::TITLE;
use crate::editor::Edit;
use crate::rules::tank_commander::ScenarioSetup;
use crate::rules::tank_commander::UnitKind;
use crate::rules::tank_commander::setup::{Edge, Mission, TurnLimitResult, VictorySetup};

/// The scenario's mission and turn limit; an edit when they changed.
pub(super) fn mission(ui: &mut egui::Ui, s: &ScenarioSetup, sides: &[String], out: &mut Out) {
    ui.label(egui::RichText::new("Mission").strong().color(TITLE));
    let mut v: VictorySetup = s.victory.clone();
    let kinds = kinds(s, sides);
    let same = |a: &Mission, b: &Mission| std::mem::discriminant(a) == std::mem::discriminant(b);
    let current = kinds
        .iter()
        .find(|(_, m)| same(m, &v.mission))
        .map_or("(other: edit the file)", |(n, _)| n);
    egui::ComboBox::from_id_salt("editor-mission")
        .selected_text(current)
        .width(200.0)
        .show_ui(ui, |ui| {
            for (name, m) in &kinds {
                if ui.selectable_label(same(m, &v.mission), *name).clicked() && !same(m, &v.mission)
                {
                    v.mission = m.clone();
                }
            }
        });
    parties(ui, &mut v.mission, s, sides);
    details(ui, &mut v.mission, s);
    turn_limit(ui, &mut v);
    if v != s.victory {
        out.orders.push(EditorOrder::Edit(Edit::Victory(v)));
    }
}

/// Every kind of mission the editor offers, with its name, as a new one starts: the first
/// side attacks, the first infantry squad is escorted, the last unit is the target.
fn kinds(s: &ScenarioSetup, sides: &[String]) -> [(&'static str, Mission); 9] {
    let first = sides.first().cloned().unwrap_or_default();
    let infantry = s
        .units
        .iter()
        .find(|u| u.kind == UnitKind::Infantry)
        .map(|u| u.name.clone())
        .unwrap_or_default();
    [
        ("Destroy all", Mission::DestroyAll),
        (
            "Training",
            Mission::Training {
                waypoints: Vec::new(),
            },
        ),
        (
            "Take area",
            Mission::TakeArea {
                attacker: first.clone(),
                area: Vec::new(),
            },
        ),
        (
            "Breakthrough",
            Mission::Breakthrough {
                attacker: first.clone(),
                edge: Edge::North,
            },
        ),
        (
            "Capture objectives",
            Mission::CaptureObjectives { count: 2 },
        ),
        (
            "Disable AA guns",
            Mission::DisableAaGuns {
                attacker: first.clone(),
            },
        ),
        (
            "Cross minefield",
            Mission::CrossMinefield {
                attacker: first.clone(),
                edge: Edge::North,
                tanks: 1,
            },
        ),
        (
            "Escort",
            Mission::Escort {
                escort: first.clone(),
                squad: infantry,
                edge: Edge::North,
            },
        ),
        (
            "Destroy target",
            Mission::DestroyTarget {
                attacker: first,
                unit: s.units.last().map(|u| u.name.clone()),
                building: None,
            },
        ),
    ]
}

/// Who the mission is for: the attacking (or escorting) side, the squad escorted, the
/// edge to reach.
fn parties(ui: &mut egui::Ui, mission: &mut Mission, s: &ScenarioSetup, sides: &[String]) {
    match mission {
        Mission::Breakthrough { attacker, edge }
        | Mission::CrossMinefield { attacker, edge, .. } => {
            side_row(ui, "Attacker", attacker, sides);
            edge_row(ui, edge);
        }
        Mission::Escort {
            escort,
            squad,
            edge,
        } => {
            side_row(ui, "Escort", escort, sides);
            ui.horizontal(|ui| squad_row(ui, squad, s));
            edge_row(ui, edge);
        }
        Mission::DisableAaGuns { attacker }
        | Mission::DestroyTarget { attacker, .. }
        | Mission::TakeArea { attacker, .. } => side_row(ui, "Attacker", attacker, sides),
        _ => {}
    }
}

/// The infantry squad an escort must bring off the edge, picked from the scenario's.
fn squad_row(ui: &mut egui::Ui, squad: &mut String, s: &ScenarioSetup) {
    ui.label("Squad");
    let shown = if squad.is_empty() {
        "(place an infantry squad)".to_string()
    } else {
        squad.clone()
    };
    egui::ComboBox::from_id_salt("editor-escort-squad")
        .selected_text(shown)
        .show_ui(ui, |ui| {
            for u in s.units.iter().filter(|u| u.kind == UnitKind::Infantry) {
                ui.selectable_value(squad, u.name.clone(), &u.name);
            }
        })
        .response
        .on_hover_text("The infantry squad the escort must bring off the edge");
}

/// The mission's own numbers and pieces: objectives to hold, tanks to cross, the target,
/// the waypoints, the area.
fn details(ui: &mut egui::Ui, mission: &mut Mission, s: &ScenarioSetup) {
    match mission {
        Mission::CaptureObjectives { count } => {
            ui.add(
                egui::DragValue::new(count)
                    .range(1..=20)
                    .prefix("objectives to hold: "),
            );
        }
        Mission::CrossMinefield { tanks, .. } => {
            ui.add(
                egui::DragValue::new(tanks)
                    .range(1..=20)
                    .prefix("tanks to cross: "),
            );
        }
        Mission::DestroyTarget { unit, building, .. } => target(ui, unit, building, s),
        Mission::Training { waypoints } => {
            ui.label(
                egui::RichText::new(format!(
                    "{} waypoint(s): add them in order with the Mission hex tool",
                    waypoints.len()
                ))
                .weak(),
            );
        }
        Mission::TakeArea { area, .. } => {
            ui.label(
                egui::RichText::new(format!(
                    "{} hex(es) in the area: mark them with the Mission hex tool",
                    area.len()
                ))
                .weak(),
            );
        }
        _ => {}
    }
}

/// The target to destroy: a unit picked here, or a building picked on the table.
fn target(
    ui: &mut egui::Ui,
    unit: &mut Option<String>,
    building: &mut Option<String>,
    s: &ScenarioSetup,
) {
    let shown = match (&unit, &building) {
        (Some(u), _) => u.clone(),
        (None, Some(b)) => format!("the building at {b}"),
        _ => "(a unit, or a building with Mission hex)".into(),
    };
    egui::ComboBox::from_id_salt("editor-target")
        .selected_text(shown)
        .show_ui(ui, |ui| {
            for u in &s.units {
                if ui
                    .selectable_label(unit.as_deref() == Some(u.name.as_str()), &u.name)
                    .clicked()
                {
                    *unit = Some(u.name.clone());
                    *building = None;
                }
            }
        });
    ui.label(
        egui::RichText::new("Or pick a building with the Mission hex tool.")
            .weak()
            .small(),
    );
}

/// The turn limit, and what it gives: a draw, or a win on points.
fn turn_limit(ui: &mut egui::Ui, v: &mut VictorySetup) {
    ui.horizontal(|ui| {
        let mut limit = v.turn_limit.unwrap_or(10);
        ui.add(
            egui::DragValue::new(&mut limit)
                .range(1..=99)
                .prefix("turn limit: "),
        );
        v.turn_limit = Some(limit);
        ui.label("then");
        ui.selectable_value(&mut v.at_turn_limit, TurnLimitResult::Draw, "draw")
            .on_hover_text("The battle is drawn at the limit");
        ui.selectable_value(&mut v.at_turn_limit, TurnLimitResult::Points, "points")
            .on_hover_text("More working units wins, then more hull points");
    });
}

/// A row of the scenario's sides to pick one from.
fn side_row(ui: &mut egui::Ui, label: &str, picked: &mut String, sides: &[String]) {
    ui.horizontal(|ui| {
        ui.label(label);
        for side in sides {
            ui.selectable_value(picked, side.clone(), side);
        }
    });
}

/// A row of the board's four edges to pick one from.
fn edge_row(ui: &mut egui::Ui, picked: &mut Edge) {
    ui.horizontal(|ui| {
        ui.label("Edge");
        for e in [Edge::North, Edge::South, Edge::East, Edge::West] {
            ui.selectable_value(picked, e, format!("{e:?}"));
        }
    });
}
