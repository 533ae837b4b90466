//! The editor's panels: the file and its commands along the top; tools, terrain and the
//! picked unit's card on the left; the scenario's mission, options and symmetry tools,
//! and the live problems, on the right.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::{
    BALANCE_GAMES, BackToGame, EditorOrder, EditorScreen, OpenEditor, Tool, WaitingGame, turned,
};
use crate::client::core::Screen;
use crate::client::core::session::OpenGame;
use crate::client::table::theme::{self, TITLE, WARN};
use crate::editor::{Edit, Marker, Symmetry, Terrain};
use crate::framework::Seat;
use crate::rules::tank_commander::UnitKind;
use crate::rules::tank_commander::setup::{
    Edge, Mission, TurnLimitResult, UnitSetup, VictorySetup,
};

const TERRAINS: [Terrain; 7] = [
    Terrain::Open,
    Terrain::Forest,
    Terrain::Hill,
    Terrain::Building,
    Terrain::Mud,
    Terrain::Rubble,
    Terrain::Water,
];

const KINDS: [UnitKind; 5] = [
    UnitKind::Tank,
    UnitKind::Apc,
    UnitKind::Infantry,
    UnitKind::AaGun,
    UnitKind::Target,
];

fn kind_name(k: UnitKind) -> &'static str {
    match k {
        UnitKind::Tank => "Tank",
        UnitKind::Apc => "APC",
        UnitKind::Infantry => "Infantry",
        UnitKind::AaGun => "AA gun",
        UnitKind::Target => "Target",
    }
}

pub(super) fn draw(
    mut contexts: EguiContexts,
    mut screen: ResMut<EditorScreen>,
    mut orders: MessageWriter<EditorOrder>,
    mut opens: MessageWriter<OpenGame>,
    mut editors: MessageWriter<OpenEditor>,
    mut backs: MessageWriter<BackToGame>,
    waiting: Option<Res<WaitingGame>>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let screen = &mut *screen;
    let waiting = waiting.map(|w| w.title());
    if screen.balance.as_ref().is_some_and(|b| b.report.is_none()) {
        ctx.request_repaint();
    }
    let mut out = Out::default();
    screen.sync_texts();
    // The panels frame the table; where they are, the pointer is theirs, not the
    // table's (they sit on egui's background layer, which egui does not count as its own).
    let mut root = egui::Ui::new(
        ctx.clone(),
        "editor".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let mut rects = Vec::new();
    rects.push(
        egui::Panel::top("editor-top")
            .show(&mut root, |ui| {
                top_bar(ui, screen, waiting.as_deref(), &mut out);
            })
            .response
            .rect,
    );
    rects.push(
        egui::Panel::bottom("editor-status")
            .show(&mut root, |ui| {
                ui.horizontal(|ui| {
                    ui.label(egui::RichText::new(&screen.status).weak());
                    if let Some(cell) = screen.hover {
                        ui.separator();
                        if let Some(editor) = &screen.editor {
                            let d = editor.design();
                            ui.label(format!("{} · {:?}", d.label(cell), d.terrain(cell)));
                        } else if let Some(editor) = &screen.square {
                            ui.label(editor.design().label(cell));
                        }
                    }
                });
            })
            .response
            .rect,
    );
    rects.push(
        egui::Panel::left("editor-tools")
            .resizable(false)
            .exact_size(290.0)
            .show(&mut root, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| tools(ui, screen, &mut out));
            })
            .response
            .rect,
    );
    rects.push(
        egui::Panel::right("editor-scenario")
            .resizable(false)
            .exact_size(330.0)
            .show(&mut root, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| scenario(ui, screen, &mut out));
            })
            .response
            .rect,
    );
    screen.panels = rects
        .into_iter()
        .map(|r| Rect::new(r.min.x, r.min.y, r.max.x, r.max.y))
        .collect();
    build_window(ctx, screen, &mut out);
    if let Some(leaving) = screen.confirm {
        unsaved_dialog(ctx, screen, leaving, &mut out);
    }
    if out.back {
        backs.write(BackToGame);
    }
    orders.write_batch(out.orders);
    opens.write_batch(out.opens);
    editors.write_batch(out.editors);
    if let Some(screen) = out.next {
        next.set(screen);
    }
    Ok(())
}

/// The upgrade builder on the picked unit: Apply hands the working copy back as one edit
/// (where the unit stands and faces is kept as it is on the table now).
fn build_window(ctx: &egui::Context, screen: &mut EditorScreen, out: &mut Out) {
    let Some(editor) = &screen.editor else {
        screen.build = None;
        return;
    };
    let Some(card) = &mut screen.build else {
        return;
    };
    let Some(current) = editor.design().setup.units.get(card.index).cloned() else {
        screen.build = None;
        return;
    };
    let rules = editor.rules.clone();
    let mut open = true;
    let mut done = false;
    let shown = egui::Window::new(format!("Upgrade builder — {}", current.name))
        .id(egui::Id::new("editor-builder"))
        .open(&mut open)
        .collapsible(false)
        .default_size([760.0, 560.0])
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .max_height(ctx.viewport_rect().height() * 0.7)
                .show(ui, |ui| card.ui(ui, &rules));
            ui.separator();
            let problems = card.problems(&rules);
            for problem in &problems {
                ui.colored_label(WARN, format!("• {problem}"));
            }
            ui.horizontal(|ui| {
                let changed = UnitSetup {
                    side: current.side.clone(),
                    at: current.at.clone(),
                    facing: current.facing,
                    turret: current.turret,
                    ..card.unit.clone()
                };
                let apply = ui
                    .add_enabled(changed != current, egui::Button::new("✔ Apply"))
                    .on_hover_text("Give the unit this build (one edit: Ctrl+Z takes it back)")
                    .on_disabled_hover_text("Nothing changed yet");
                if apply.clicked() {
                    out.orders.push(EditorOrder::Edit(Edit::SetUnit(
                        card.index,
                        Box::new(changed),
                    )));
                    done = true;
                }
                if ui
                    .button("Cancel")
                    .on_hover_text("Close the builder and keep the unit as it was")
                    .clicked()
                {
                    done = true;
                }
                if !problems.is_empty() {
                    ui.label(
                        egui::RichText::new(
                            "A build that breaks a rule can be applied; the check lists it.",
                        )
                        .weak(),
                    );
                }
            });
        });
    if let Some(shown) = shown {
        let r = shown.response.rect;
        screen
            .panels
            .push(Rect::new(r.min.x, r.min.y, r.max.x, r.max.y));
    }
    if done || !open {
        screen.build = None;
    }
}

/// Where the designer is going with unsaved changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Leaving {
    /// To the main menu.
    Menu,
    /// Back to the game that waits (which takes the file as it is on disk).
    Game,
}

impl Leaving {
    fn go(self, out: &mut Out) {
        match self {
            Leaving::Menu => out.next = Some(Screen::Menu),
            Leaving::Game => out.back = true,
        }
    }
}

/// Leaving with unsaved changes: save first, leave without them, or keep editing.
fn unsaved_dialog(ctx: &egui::Context, screen: &mut EditorScreen, leaving: Leaving, out: &mut Out) {
    let (title, question, save, drop) = match leaving {
        Leaving::Menu => (
            "Unsaved changes",
            "This scenario has changes that are not saved. Leave the editor? (The autosave keeps a copy in the data folder either way.)",
            "Save and leave",
            "Leave without saving",
        ),
        Leaving::Game => (
            "Back to the game",
            "This scenario has changes that are not saved. The game takes up the file as it is on disk.",
            "Save and go back",
            "Go back without them",
        ),
    };
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(question);
            ui.horizontal(|ui| {
                if ui.button(save).clicked() {
                    out.orders.push(EditorOrder::Save(None));
                    screen.confirm = None;
                    leaving.go(out);
                }
                if ui.button(drop).clicked() {
                    screen.confirm = None;
                    leaving.go(out);
                }
                if ui.button("Keep editing").clicked() {
                    screen.confirm = None;
                }
            });
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

/// What the panels asked for this frame, sent once they are drawn.
#[derive(Default)]
struct Out {
    orders: Vec<EditorOrder>,
    opens: Vec<OpenGame>,
    editors: Vec<OpenEditor>,
    next: Option<Screen>,
    /// Back to the game that waits.
    back: bool,
}

fn top_bar(ui: &mut egui::Ui, screen: &mut EditorScreen, waiting: Option<&str>, out: &mut Out) {
    ui.add_space(4.0);
    // Wrapped: a narrow window puts the last buttons on a second row, never off screen.
    ui.horizontal_wrapped(|ui| {
        let modified = screen.file_state().is_some_and(|f| f.1);
        if ui
            .button("☰ Menu")
            .on_hover_text(if waiting.is_some() {
                "Back to the main menu; the game that waits is left (its autosave keeps it)"
            } else {
                "Back to the main menu (asks first when there are unsaved changes)"
            })
            .clicked()
        {
            if modified {
                screen.confirm = Some(Leaving::Menu);
            } else {
                Leaving::Menu.go(out);
            }
        }
        if let Some(title) = waiting
            && ui
                .button(egui::RichText::new("◀ Back to the game").strong())
                .on_hover_text(format!(
                    "Back to {title}: the game takes up the saved change, and the actions played so far that still play on it"
                ))
                .clicked()
        {
            if modified {
                screen.confirm = Some(Leaving::Game);
            } else {
                Leaving::Game.go(out);
            }
        }
        ui.heading(egui::RichText::new("SCENARIO EDITOR").strong().color(TITLE));
        let Some((path, _, can_undo, can_redo)) = screen.file_state() else {
            return;
        };
        let problems = screen.check().map_or(0, |c| c.problems.len());
        // The file's name, its whole path on hover: a file in the data folder has a long
        // one, which would push Save, Play and Preview off the bar.
        let (name, whole) = match path.as_deref() {
            Some(p) => (
                p.file_name()
                    .map_or_else(|| crate::data::portable_path(p), |n| n.to_string_lossy().into_owned()),
                crate::data::portable_path(p),
            ),
            None => ("not saved yet".to_string(), "not saved yet".to_string()),
        };
        let name = if name.chars().count() > 32 {
            format!("{}…", name.chars().take(31).collect::<String>())
        } else {
            name
        };
        ui.label(egui::RichText::new(name).monospace())
            .on_hover_text(whole);
        if modified {
            ui.label(egui::RichText::new("* modified").color(WARN))
                .on_hover_text("Changes since the last save (Ctrl+S saves)");
        }
        ui.separator();
        if ui
            .add_enabled(can_undo, egui::Button::new("Undo"))
            .on_hover_text("Undo the last edit (Ctrl+Z)")
            .on_disabled_hover_text("Nothing to undo")
            .clicked()
        {
            out.orders.push(EditorOrder::Undo);
        }
        if ui
            .add_enabled(can_redo, egui::Button::new("Redo"))
            .on_hover_text("Redo the edit undone (Ctrl+Y)")
            .on_disabled_hover_text("Nothing to redo")
            .clicked()
        {
            out.orders.push(EditorOrder::Redo);
        }
        ui.separator();
        let to = path.map_or_else(
            || format!("the data folder's scenarios/{}.ron", crate::client::core::session::slug(&screen.file_name)),
            |p| crate::data::portable_path(&p),
        );
        if ui
            .button("💾 Save")
            .on_hover_text(format!("Save to {to}, atomically (Ctrl+S)"))
            .clicked()
        {
            out.orders.push(EditorOrder::Save(None));
        }
        ui.add(egui::TextEdit::singleline(&mut screen.file_name).desired_width(120.0))
            .on_hover_text("The name Save as gives the file");
        if ui
            .button("Save as")
            .on_hover_text("Save a copy under this name in the data folder's scenarios/")
            .clicked()
        {
            let name = crate::client::core::session::slug(&screen.file_name);
            out.orders.push(EditorOrder::Save(Some(
                screen.scenarios_dir().join(format!("{name}.ron")),
            )));
        }
        ui.separator();
        open_menu(ui, screen, out);
        ui.separator();
        let clean = problems == 0;
        let why = (!clean).then(|| {
            format!("Disabled: the scenario has {problems} problem(s), listed on the right")
        });
        let play = |seats: Option<Vec<Seat>>, screen: &mut EditorScreen, out: &mut Out| {
            match screen.playable_file() {
                Ok(path) => {
                    out.opens.push(OpenGame {
                        seats,
                        ..OpenGame::file(path)
                    });
                }
                Err(e) => screen.status = e,
            }
        };
        if ui
            .add_enabled(clean, egui::Button::new("▶ Play"))
            .on_hover_text("Play this scenario at this computer, two players taking turns")
            .on_disabled_hover_text(why.clone().unwrap_or_default())
            .clicked()
        {
            play(None, screen, out);
        }
        if ui
            .add_enabled(clean, egui::Button::new("▶ vs bot"))
            .on_hover_text("Play this scenario as the first side against the game's best bot")
            .on_disabled_hover_text(why.clone().unwrap_or_default())
            .clicked()
        {
            play(
                Some(vec![
                    Seat::Person,
                    Seat::Bot(if screen.is_chess() { "commander" } else { "tactical" }.into()),
                ]),
                screen,
                out,
            );
        }
        let running = screen
            .balance
            .as_ref()
            .is_some_and(|b| b.report.is_none() && b.error.is_none());
        if ui
            .add_enabled(clean && !running, egui::Button::new("⚖ Quick balance"))
            .on_hover_text(format!(
                "{BALANCE_GAMES} games between the default bots: each side's win rate with its 95% interval"
            ))
            .on_disabled_hover_text(if running {
                "Disabled: a balance run is under way".to_string()
            } else {
                why.clone().unwrap_or_default()
            })
            .clicked()
        {
            screen.start_balance();
        }
        if ui
            .add_enabled(clean, egui::Button::new("🖼 Preview PNG"))
            .on_hover_text("Render the board straight down to a PNG in the data folder's editor/ (the same picture as `tanktable preview`)")
            .on_disabled_hover_text(why.unwrap_or_default())
            .clicked()
        {
            preview(screen);
        }
    });
    ui.add_space(2.0);
}

/// Renders the design top-down to a PNG with `tanktable preview`, in the background.
fn preview(screen: &mut EditorScreen) {
    let file = match screen.playable_file() {
        Ok(f) => f,
        Err(e) => {
            screen.status = e;
            return;
        }
    };
    let png = screen.work_file(&format!(
        "{}-preview.png",
        crate::client::core::session::slug(&screen.file_name)
    ));
    let started = std::env::current_exe().and_then(|exe| {
        std::process::Command::new(exe)
            .arg("preview")
            .arg(&file)
            .arg("--output")
            .arg(&png)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
    });
    screen.status = match started {
        Ok(_) => format!("Rendering the preview to {} …", png.display()),
        Err(e) => format!("cannot start the preview: {e}"),
    };
}

/// New board, shipped and user scenarios, and the autosave.
fn open_menu(ui: &mut egui::Ui, screen: &mut EditorScreen, out: &mut Out) {
    ui.menu_button("📂 Open", |ui| {
        ui.label(egui::RichText::new("New board").strong());
        ui.horizontal(|ui| {
            ui.add(
                egui::DragValue::new(&mut screen.new_size.0)
                    .range(2..=60)
                    .suffix(" wide"),
            );
            ui.add(
                egui::DragValue::new(&mut screen.new_size.1)
                    .range(2..=60)
                    .suffix(" high"),
            );
            if ui
                .button("New Tank Commander")
                .on_hover_text("A hex board for a Tank Commander scenario")
                .clicked()
            {
                out.editors.push(OpenEditor {
                    path: None,
                    size: Some(screen.new_size),
                    ..Default::default()
                });
                ui.close();
            }
            if ui
                .button("New Tank Chess")
                .on_hover_text("A square board (4 to 20 a side) for a Tank Chess setup")
                .clicked()
            {
                let (w, h) = screen.new_size;
                out.editors.push(OpenEditor {
                    path: None,
                    size: Some((w.clamp(4, 20), h.clamp(4, 20))),
                    chess: true,
                    ..Default::default()
                });
                ui.close();
            }
        });
        ui.separator();
        let mut files = Vec::new();
        for game in [
            crate::rules::GameKind::TankCommander,
            crate::rules::GameKind::TankChess,
        ] {
            if let Some(dir) = crate::data::find_project_file(game.folder()) {
                files.extend(crate::client::core::saves::files_of(
                    &dir,
                    game,
                    crate::rules::FileKind::Setup,
                ));
            }
            files.extend(crate::client::core::saves::files_of(
                &screen.scenarios_dir(),
                game,
                crate::rules::FileKind::Setup,
            ));
        }
        for name in ["editor.ron", "editor-chess.ron"] {
            let autosave = screen.folder.join("autosave").join(name);
            if autosave.is_file() {
                files.push(autosave);
            }
        }
        egui::ScrollArea::vertical()
            .max_height(400.0)
            .show(ui, |ui| {
                for path in files {
                    if ui.button(crate::data::portable_path(&path)).clicked() {
                        out.editors.push(OpenEditor {
                            path: Some(path),
                            size: None,
                            ..Default::default()
                        });
                        ui.close();
                    }
                }
            });
    });
}

fn tools(ui: &mut egui::Ui, screen: &mut EditorScreen, out: &mut Out) {
    if screen.is_chess() {
        super::chess::tools(ui, screen, &mut out.orders);
        return;
    }
    ui.add_space(4.0);
    ui.label(egui::RichText::new("Tools").strong().color(TITLE));
    egui::Grid::new("editor-tool-grid")
        .num_columns(4)
        .show(ui, |ui| {
            for (i, tool) in Tool::ALL.into_iter().enumerate() {
                ui.selectable_value(&mut screen.tool, tool, tool.title())
                    .on_hover_text(tool.hint());
                if i % 4 == 3 {
                    ui.end_row();
                }
            }
        });
    ui.label(egui::RichText::new(screen.tool.hint()).weak().small());
    ui.separator();
    ui.label(egui::RichText::new("Terrain").strong().color(TITLE));
    egui::Grid::new("editor-terrain")
        .num_columns(2)
        .show(ui, |ui| {
            for (i, t) in TERRAINS.into_iter().enumerate() {
                let chosen = screen.terrain == t;
                let text = egui::RichText::new(format!("{t:?}")).color(if chosen {
                    theme::TERRAIN_CHOSEN
                } else {
                    theme::TERRAIN_OTHER
                });
                let button = egui::Button::new(text)
                    .fill(theme::terrain_swatch(t))
                    .stroke(if chosen {
                        egui::Stroke::new(2.0, TITLE)
                    } else {
                        egui::Stroke::NONE
                    })
                    .min_size(egui::vec2(120.0, 22.0));
                if ui.add(button).clicked() {
                    screen.terrain = t;
                    if !matches!(screen.tool, Tool::Terrain | Tool::Fill) {
                        screen.tool = Tool::Terrain;
                    }
                }
                if i % 2 == 1 {
                    ui.end_row();
                }
            }
        });
    ui.horizontal(|ui| {
        ui.label("Brush:");
        for (r, name) in [(0u8, "1 hex"), (1, "7"), (2, "19"), (3, "37")] {
            ui.selectable_value(&mut screen.brush, r, name)
                .on_hover_text(format!("A brush of radius {r}: {name} hexes"));
        }
    });
    ui.separator();
    ui.label(
        egui::RichText::new("New units and mines")
            .strong()
            .color(TITLE),
    );
    ui.horizontal_wrapped(|ui| {
        for k in KINDS {
            ui.selectable_value(&mut screen.kind, k, kind_name(k));
        }
    });
    let sides = screen.sides();
    ui.horizontal(|ui| {
        ui.label("Side:");
        for (i, s) in sides.iter().enumerate() {
            ui.selectable_value(&mut screen.side, i, s);
        }
    });
    ui.separator();
    unit_card(ui, screen, out);
}

/// The picked unit: its name, side, kind, facings and build.
fn unit_card(ui: &mut egui::Ui, screen: &mut EditorScreen, out: &mut Out) {
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
    ui.horizontal(|ui| {
        ui.label(format!("Hull {:?}", unit.facing));
        if ui
            .small_button("⟲")
            .on_hover_text("Turn the hull left ([)")
            .clicked()
        {
            next = turned(&next, 5, false);
        }
        if ui
            .small_button("⟳")
            .on_hover_text("Turn the hull right (])")
            .clicked()
        {
            next = turned(&next, 1, false);
        }
        ui.label(format!("Turret {:?}", unit.turret.unwrap_or(unit.facing)));
        if ui
            .small_button("⟲")
            .on_hover_text("Turn the turret left (Shift+[)")
            .clicked()
        {
            next = turned(&next, 5, true);
        }
        if ui
            .small_button("⟳")
            .on_hover_text("Turn the turret right (Shift+])")
            .clicked()
        {
            next = turned(&next, 1, true);
        }
    });
    if next.kind.is_vehicle() {
        ui.horizontal(|ui| {
            ui.checkbox(&mut next.painted, "painted")
                .on_hover_text("A painted tank gets an extra upgrade point");
            ui.checkbox(&mut next.named, "named").on_hover_text(
                "A tank with an epic name and a named crew gets an extra upgrade point",
            );
        });
        let budget = next.budget(&rules);
        ui.label(format!(
            "Build: {} of {budget} upgrade points",
            next.build.cost(&rules.upgrades)
        ));
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

fn scenario(ui: &mut egui::Ui, screen: &mut EditorScreen, out: &mut Out) {
    if screen.is_chess() {
        ui.add_space(4.0);
        ui.label(egui::RichText::new("Setup").strong().color(TITLE));
        if let Some((name, description)) = titles(ui, screen) {
            out.orders
                .push(EditorOrder::Square(crate::editor::SquareEdit::Title {
                    name,
                    description,
                }));
        }
        super::chess::setup(ui, screen, &mut out.orders);
        ui.separator();
        balance_panel(ui, screen);
        problems(ui, screen);
        return;
    }
    let Some(editor) = &screen.editor else { return };
    let design = editor.design().clone();
    let s = &design.setup;
    let sides = screen.sides();
    ui.add_space(4.0);
    ui.label(egui::RichText::new("Scenario").strong().color(TITLE));
    if let Some((name, description)) = titles(ui, screen) {
        out.orders
            .push(EditorOrder::Edit(Edit::Title { name, description }));
    }
    ui.horizontal(|ui| {
        ui.label("Board");
        ui.add(
            egui::DragValue::new(&mut screen.new_size.0)
                .range(2..=60)
                .suffix(" wide"),
        );
        ui.add(
            egui::DragValue::new(&mut screen.new_size.1)
                .range(2..=60)
                .suffix(" high"),
        );
        let (w, h) = screen.new_size;
        if ui
            .add_enabled(
                (w, h) != (s.board.width, s.board.height),
                egui::Button::new("Resize"),
            )
            .on_hover_text("Cut or grow the board at its east and south edges; new hexes are open")
            .on_disabled_hover_text("The board is this size already")
            .clicked()
        {
            out.orders.push(EditorOrder::Edit(Edit::Resize {
                width: w,
                height: h,
            }));
        }
    });
    ui.separator();
    mission(ui, s, &sides, out);
    ui.separator();
    ui.label(egui::RichText::new("Options").strong().color(TITLE));
    let (mut weather, mut night, mut hidden) = (s.weather, s.night, s.mines.hidden);
    ui.horizontal(|ui| {
        ui.checkbox(&mut weather, "Weather")
            .on_hover_text("A storm may blow in at the start of each turn");
        ui.checkbox(&mut night, "Night")
            .on_hover_text("Night fighting: shots see less far, flares light spaces");
        ui.checkbox(&mut hidden, "Hidden mines")
            .on_hover_text("Each side sees only its own mines");
    });
    if (weather, night, hidden) != (s.weather, s.night, s.mines.hidden) {
        out.orders.push(EditorOrder::Edit(Edit::Options {
            weather,
            night,
            hidden_mines: hidden,
        }));
    }
    ui.horizontal(|ui| {
        ui.label("Free air strikes:");
        for side in &sides {
            let had = s
                .air_support
                .iter()
                .find(|a| a.side == *side)
                .map_or(0, |a| a.strikes);
            let mut strikes = had;
            ui.add(
                egui::DragValue::new(&mut strikes)
                    .range(0..=9)
                    .prefix(format!("{side} ")),
            );
            if strikes != had {
                out.orders.push(EditorOrder::Edit(Edit::AirSupport {
                    side: side.clone(),
                    strikes,
                }));
            }
        }
    });
    ui.separator();
    ui.label(egui::RichText::new("Symmetry").strong().color(TITLE));
    for sym in Symmetry::ALL {
        let (w, h) = (i32::from(s.board.width), i32::from(s.board.height));
        let exact = match sym {
            Symmetry::Rotate180 => w % 2 == 0,
            Symmetry::MirrorWestEast => w % 2 == 1,
            Symmetry::MirrorNorthSouth => false,
        };
        let note = if exact {
            "exact on this board".to_string()
        } else {
            "on this board alternate columns land half a hex off their image".to_string()
        };
        let _ = h;
        ui.horizontal(|ui| {
            ui.label(sym.title());
            let source = if sym == Symmetry::MirrorWestEast {
                "west"
            } else {
                "south"
            };
            if ui
                .button("Mirror")
                .on_hover_text(format!(
                    "Copy the {source} half (terrain, units, objectives, mines) onto the other half by the {}, the copies going to the other side: a fair map in one click ({note})",
                    sym.title()
                ))
                .clicked()
            {
                out.orders.push(EditorOrder::Edit(Edit::Mirror(sym)));
            }
            if ui
                .button("Flip")
                .on_hover_text(format!(
                    "Turn the whole board over by the {}; twice gives it back ({note})",
                    sym.title()
                ))
                .clicked()
            {
                out.orders.push(EditorOrder::Edit(Edit::Flip(sym)));
            }
        });
    }
    ui.separator();
    balance_panel(ui, screen);
    problems(ui, screen);
}

/// The title and description fields; the new pair when a field was left changed.
fn titles(ui: &mut egui::Ui, screen: &mut EditorScreen) -> Option<(String, String)> {
    let a = ui.add(egui::TextEdit::singleline(&mut screen.texts.title).hint_text("Title"));
    let b = ui.add(
        egui::TextEdit::multiline(&mut screen.texts.description)
            .hint_text("A one-line description")
            .desired_rows(2),
    );
    let now = screen.titles();
    let typed = (screen.texts.title.clone(), screen.texts.description.clone());
    ((a.lost_focus() || b.lost_focus()) && Some(&typed) != now.as_ref()).then_some(typed)
}

fn mission(
    ui: &mut egui::Ui,
    s: &crate::rules::tank_commander::ScenarioSetup,
    sides: &[String],
    out: &mut Out,
) {
    ui.label(egui::RichText::new("Mission").strong().color(TITLE));
    let mut v: VictorySetup = s.victory.clone();
    let first = sides.first().cloned().unwrap_or_default();
    let infantry = s
        .units
        .iter()
        .find(|u| u.kind == UnitKind::Infantry)
        .map(|u| u.name.clone())
        .unwrap_or_default();
    let kinds: [(&str, Mission); 9] = [
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
    ];
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
    match &mut v.mission {
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
            ui.horizontal(|ui| {
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
            });
            edge_row(ui, edge);
        }
        Mission::DisableAaGuns { attacker }
        | Mission::DestroyTarget { attacker, .. }
        | Mission::TakeArea { attacker, .. } => side_row(ui, "Attacker", attacker, sides),
        _ => {}
    }
    match &mut v.mission {
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
        Mission::DestroyTarget { unit, building, .. } => {
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
    if v != s.victory {
        out.orders.push(EditorOrder::Edit(Edit::Victory(v)));
    }
}

fn balance_panel(ui: &mut egui::Ui, screen: &EditorScreen) {
    let Some(balance) = &screen.balance else {
        return;
    };
    ui.label(egui::RichText::new("Quick balance").strong().color(TITLE));
    if let Some(e) = &balance.error {
        ui.colored_label(WARN, e);
        return;
    }
    match &balance.report {
        None => {
            let done = balance.running.live.finished();
            ui.add(
                egui::ProgressBar::new(done as f32 / BALANCE_GAMES as f32)
                    .text(format!("{done} / {BALANCE_GAMES} games")),
            );
        }
        Some(report) => {
            let Some(arm) = report.arms.first() else {
                return;
            };
            ui.label(format!(
                "{} games between the default bots in {:.1} s:",
                arm.games,
                balance.started.elapsed().as_secs_f64().min(9999.0)
            ));
            for (seat, r) in report.question.seats.iter().zip(&arm.rates) {
                ui.label(format!(
                    "  {seat}: {:.1}% wins, 95% CI [{:.1}, {:.1}]",
                    100.0 * r.rate,
                    100.0 * r.lo,
                    100.0 * r.hi
                ));
            }
            if arm.no_winner > 0 {
                ui.label(format!("  no winner: {}", arm.no_winner));
            }
        }
    }
    ui.separator();
}

fn problems(ui: &mut egui::Ui, screen: &mut EditorScreen) {
    let Some(check) = screen.check().cloned() else {
        return;
    };
    if check.problems.is_empty() {
        ui.label(
            egui::RichText::new("✔ No problems: the scenario is ready to play")
                .color(theme::NO_PROBLEMS),
        );
        return;
    }
    ui.label(
        egui::RichText::new(format!("⚠ {} problem(s)", check.problems.len()))
            .strong()
            .color(WARN),
    );
    ui.label(
        egui::RichText::new("Marked in red on the table; click one on a unit to pick it.")
            .weak()
            .small(),
    );
    for (line, marker) in check.lines().iter().zip(&check.markers) {
        let response = ui.add(
            egui::Label::new(egui::RichText::new(line).color(WARN)).sense(egui::Sense::click()),
        );
        if response.clicked() {
            match marker {
                Some(Marker::Unit(i)) => screen.selected = Some(*i),
                Some(Marker::Cell(cell)) => {
                    if let Some(found) = screen
                        .square
                        .as_ref()
                        .and_then(|e| e.design().piece_at(*cell))
                    {
                        screen.piece.picked = Some(found);
                    }
                }
                _ => {}
            }
        }
    }
}
