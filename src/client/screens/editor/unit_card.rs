//! The left panel's card of the picked unit: its name, side, kind, facings and build.

use bevy_egui::egui;

use super::panels::{KINDS, Out, kind_name};
use super::{EditorOrder, EditorScreen, turned};
use crate::client::table::theme::TITLE;
use crate::editor::Edit;
use crate::rules::tank_commander::Rules;
use crate::rules::tank_commander::setup::UnitSetup;

/// The picked unit: its name, side, kind, facings and build.
pub(super) fn unit_card(ui: &mut egui::Ui, screen: &mut EditorScreen, out: &mut Out) {
    let Some(editor) = &screen.editor else { return };
    let Some(i) = screen.selected else {
        ui.label(egui::RichText::new("Pick a unit with Select (or Unit) to edit it here.").weak());
        return;
    };
    let Some(unit) = editor.design().setup.units.get(i).cloned() else {
        return;
    };
    let rules = editor.rules.clone();
    let sides = screen.sides();
    ui.label(
        egui::RichText::new(format!("Unit: {}", unit.name))
            .strong()
            .color(TITLE),
    );
    let mut next = unit.clone();
    ui.horizontal(|ui| {
        ui.label("Name");
        // Committed when the field is left, as one edit.
        if ui
            .text_edit_singleline(&mut screen.texts.unit_name)
            .lost_focus()
        {
            next.name.clone_from(&screen.texts.unit_name);
        }
    });
    ui.horizontal(|ui| {
        ui.label("Side");
        for s in &sides {
            ui.selectable_value(&mut next.side, s.clone(), s);
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("Kind");
        for k in KINDS {
            ui.selectable_value(&mut next.kind, k, kind_name(k));
        }
    });
    ui.horizontal(|ui| facings(ui, &unit, &mut next));
    if next.kind.is_vehicle() {
        build(ui, &mut next, &rules);
    }
    if next.kind.is_vehicle()
        && ui
            .button("🔧 Upgrade builder…")
            .on_hover_text(
                "Open the upgrade builder on this unit: crew names, every upgrade with the \
                 rule that blocks it, and saved designs",
            )
            .clicked()
    {
        screen.open_builder(i);
    }
    if next != unit {
        out.orders
            .push(EditorOrder::Edit(Edit::SetUnit(i, Box::new(next))));
    }
    if ui
        .button("🗑 Remove unit")
        .on_hover_text("Remove this unit (Delete)")
        .clicked()
    {
        screen.selected = None;
        out.orders.push(EditorOrder::Edit(Edit::RemoveUnit(i)));
    }
}

/// The unit's hull and turret facings, and the buttons that turn them (into `next`).
fn facings(ui: &mut egui::Ui, unit: &UnitSetup, next: &mut UnitSetup) {
    ui.label(format!("Hull {:?}", unit.facing));
    if ui
        .small_button("⟲")
        .on_hover_text("Turn the hull left ([)")
        .clicked()
    {
        *next = turned(next, 5, false);
    }
    if ui
        .small_button("⟳")
        .on_hover_text("Turn the hull right (])")
        .clicked()
    {
        *next = turned(next, 1, false);
    }
    ui.label(format!("Turret {:?}", unit.turret.unwrap_or(unit.facing)));
    if ui
        .small_button("⟲")
        .on_hover_text("Turn the turret left (Shift+[)")
        .clicked()
    {
        *next = turned(next, 5, true);
    }
    if ui
        .small_button("⟳")
        .on_hover_text("Turn the turret right (Shift+])")
        .clicked()
    {
        *next = turned(next, 1, true);
    }
}

/// A vehicle's build: painted and named, its points, its upgrades, armor and mines.
fn build(ui: &mut egui::Ui, next: &mut UnitSetup, rules: &Rules) {
    ui.horizontal(|ui| {
        ui.checkbox(&mut next.painted, "painted")
            .on_hover_text("A painted tank gets an extra upgrade point");
        ui.checkbox(&mut next.named, "named")
            .on_hover_text("A tank with an epic name and a named crew gets an extra upgrade point");
    });
    let budget = next.budget(rules);
    ui.label(format!(
        "Build: {} of {budget} upgrade points",
        next.build.cost(&rules.upgrades)
    ));
    upgrades(ui, next);
    let b = &mut next.build;
    ui.horizontal(|ui| {
        ui.label("Armor +");
        ui.add(
            egui::DragValue::new(&mut b.armor.front)
                .range(0..=9)
                .prefix("front "),
        );
        ui.add(
            egui::DragValue::new(&mut b.armor.side)
                .range(0..=9)
                .prefix("side "),
        );
        ui.add(
            egui::DragValue::new(&mut b.armor.rear)
                .range(0..=9)
                .prefix("rear "),
        );
    });
    ui.horizontal(|ui| {
        ui.label("Mines");
        ui.add(egui::DragValue::new(&mut b.mines).range(0..=9));
    });
}

/// The upgrades' checkboxes, three a row, those the kind cannot take disabled.
fn upgrades(ui: &mut egui::Ui, next: &mut UnitSetup) {
    let mut flags = next.build.flags();
    egui::Grid::new("editor-build")
        .num_columns(3)
        .show(ui, |ui| {
            for (j, (field, on)) in flags.iter_mut().enumerate() {
                let allowed = crate::rules::tank_commander::Build::allows(next.kind, field);
                ui.add_enabled(allowed, egui::Checkbox::new(on, field.replace('_', " ")))
                    .on_disabled_hover_text(format!(
                        "Disabled: {} cannot take it",
                        kind_name(next.kind)
                    ));
                if j % 3 == 2 {
                    ui.end_row();
                }
            }
        });
    let b = &mut next.build;
    for (field, on) in flags {
        match field {
            "engine" => b.engine = on,
            "barrel" => b.barrel = on,
            "optics" => b.optics = on,
            "he_rounds" => b.he_rounds = on,
            "anti_infantry" => b.anti_infantry = on,
            "smoke_launcher" => b.smoke_launcher = on,
            "medkit" => b.medkit = on,
            "lieutenant" => b.lieutenant = on,
            "air_support" => b.air_support = on,
            _ => {}
        }
    }
}
