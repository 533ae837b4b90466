//! The editor's panels: the file and its commands along the top (`top_bar.rs`); tools,
//! terrain and the picked unit's card (`unit_card.rs`) on the left; the scenario's mission
//! (`mission.rs`), options and symmetry tools, and the live problems, on the right.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::top_bar::top_bar;
use super::{BALANCE_GAMES, BackToGame, EditorOrder, EditorScreen, OpenEditor, Tool, WaitingGame};
use crate::client::core::Screen;
use crate::client::core::session::OpenGame;
use crate::client::table::theme::{self, TITLE, WARN};
use crate::editor::{Edit, Marker, Symmetry, Terrain};
use crate::rules::tank_commander::setup::UnitSetup;
use crate::rules::tank_commander::{ScenarioSetup, UnitKind};

const TERRAINS: [Terrain; 7] = [
    Terrain::Open,
    Terrain::Forest,
    Terrain::Hill,
    Terrain::Building,
    Terrain::Mud,
    Terrain::Rubble,
    Terrain::Water,
];

pub(super) const KINDS: [UnitKind; 5] = [
    UnitKind::Tank,
    UnitKind::Apc,
    UnitKind::Infantry,
    UnitKind::AaGun,
    UnitKind::Target,
];

/// A unit kind's name on the panels.
pub(super) fn kind_name(k: UnitKind) -> &'static str {
    match k {
        UnitKind::Tank => "Tank",
        UnitKind::Apc => "APC",
        UnitKind::Infantry => "Infantry",
        UnitKind::AaGun => "AA gun",
        UnitKind::Target => "Target",
    }
}

/// Draws the editor's panels and windows, then sends what they asked for.
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
    let rects = side_panels(ctx, screen, waiting.as_deref(), &mut out);
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

/// The four panels that frame the table (top bar, status line, tools, scenario); where
/// they are on the window.
fn side_panels(
    ctx: &egui::Context,
    screen: &mut EditorScreen,
    waiting: Option<&str>,
    out: &mut Out,
) -> Vec<egui::Rect> {
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
                top_bar(ui, screen, waiting, out);
            })
            .response
            .rect,
    );
    rects.push(
        egui::Panel::bottom("editor-status")
            .show(&mut root, |ui| {
                ui.horizontal(|ui| status_line(ui, screen));
            })
            .response
            .rect,
    );
    rects.push(
        egui::Panel::left("editor-tools")
            .resizable(false)
            .exact_size(290.0)
            .show(&mut root, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| tools(ui, screen, out));
            })
            .response
            .rect,
    );
    rects.push(
        egui::Panel::right("editor-scenario")
            .resizable(false)
            .exact_size(330.0)
            .show(&mut root, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| scenario(ui, screen, out));
            })
            .response
            .rect,
    );
    rects
}

/// The status line: the last message, and the cell under the pointer.
fn status_line(ui: &mut egui::Ui, screen: &EditorScreen) {
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
    /// Leaves: to the menu, or back to the game.
    pub(super) fn go(self, out: &mut Out) {
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

/// What the panels asked for this frame, sent once they are drawn.
#[derive(Default)]
pub(super) struct Out {
    pub(super) orders: Vec<EditorOrder>,
    pub(super) opens: Vec<OpenGame>,
    pub(super) editors: Vec<OpenEditor>,
    pub(super) next: Option<Screen>,
    /// Back to the game that waits.
    pub(super) back: bool,
}

/// The left panel: tools, terrain and brush, new units and mines, the picked unit.
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
    terrain_palette(ui, screen);
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
    super::unit_card::unit_card(ui, screen, out);
}

/// The terrains in their colours, two a row; a click picks one (and the Terrain tool,
/// unless Fill is on).
fn terrain_palette(ui: &mut egui::Ui, screen: &mut EditorScreen) {
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
}

/// The right panel: the scenario's title, board, mission, options and symmetry tools,
/// the quick balance and the problems (or the Tank Chess setup's own).
fn scenario(ui: &mut egui::Ui, screen: &mut EditorScreen, out: &mut Out) {
    if screen.is_chess() {
        chess_setup(ui, screen, out);
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
    ui.horizontal(|ui| board_size(ui, &mut screen.new_size, s, out));
    ui.separator();
    super::mission::mission(ui, s, &sides, out);
    ui.separator();
    options(ui, s, &sides, out);
    ui.separator();
    symmetry(ui, s, out);
    ui.separator();
    balance_panel(ui, screen);
    problems(ui, screen);
}

/// The right panel of a Tank Chess setup.
fn chess_setup(ui: &mut egui::Ui, screen: &mut EditorScreen, out: &mut Out) {
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
}

/// The board's size, and Resize to the size asked for (`new_size`).
fn board_size(ui: &mut egui::Ui, new_size: &mut (u16, u16), s: &ScenarioSetup, out: &mut Out) {
    ui.label("Board");
    ui.add(
        egui::DragValue::new(&mut new_size.0)
            .range(2..=60)
            .suffix(" wide"),
    );
    ui.add(
        egui::DragValue::new(&mut new_size.1)
            .range(2..=60)
            .suffix(" high"),
    );
    let (w, h) = *new_size;
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
}

/// Weather, night, hidden mines, and each side's free air strikes.
fn options(ui: &mut egui::Ui, s: &ScenarioSetup, sides: &[String], out: &mut Out) {
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
        for side in sides {
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
}

/// The symmetry tools: each symmetry's Mirror and Flip, with how exact it is here.
fn symmetry(ui: &mut egui::Ui, s: &ScenarioSetup, out: &mut Out) {
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

/// The quick balance run: its progress, or each side's win rate.
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

/// The live problems; a click on one picks its unit or piece.
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
