//! The editor's top bar: the way out, the file and its commands, Open, and the buttons
//! that play, balance and preview the design.

use std::path::{Path, PathBuf};

use bevy_egui::egui;

use super::panels::{Leaving, Out};
use super::{BALANCE_GAMES, EditorOrder, EditorScreen, OpenEditor};
use crate::client::core::session::OpenGame;
use crate::client::table::theme::{TITLE, WARN};
use crate::framework::Seat;

/// The top bar, wrapped: a narrow window puts the last buttons on a second row, never off
/// screen.
pub(super) fn top_bar(
    ui: &mut egui::Ui,
    screen: &mut EditorScreen,
    waiting: Option<&str>,
    out: &mut Out,
) {
    ui.add_space(4.0);
    ui.horizontal_wrapped(|ui| bar(ui, screen, waiting, out));
    ui.add_space(2.0);
}

/// The top bar's row: the way out, the title, then (with a design open) the file, undo
/// and redo, saving, Open, and play.
fn bar(ui: &mut egui::Ui, screen: &mut EditorScreen, waiting: Option<&str>, out: &mut Out) {
    let modified = screen.file_state().is_some_and(|f| f.1);
    ways_out(ui, screen, waiting, modified, out);
    ui.heading(egui::RichText::new("SCENARIO EDITOR").strong().color(TITLE));
    let Some((path, _, can_undo, can_redo)) = screen.file_state() else {
        return;
    };
    let problems = screen.check().map_or(0, |c| c.problems.len());
    file_name(ui, path.as_deref(), modified);
    ui.separator();
    undo_redo(ui, can_undo, can_redo, out);
    ui.separator();
    save_buttons(ui, screen, path, out);
    ui.separator();
    open_menu(ui, screen, out);
    ui.separator();
    play_buttons(ui, screen, problems, out);
}

/// Menu, and Back to the game that waits: both ask first when there are unsaved changes.
fn ways_out(
    ui: &mut egui::Ui,
    screen: &mut EditorScreen,
    waiting: Option<&str>,
    modified: bool,
    out: &mut Out,
) {
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
}

/// The file's name, its whole path on hover (a file in the data folder has a long one,
/// which would push Save, Play and Preview off the bar), and whether it is modified.
fn file_name(ui: &mut egui::Ui, path: Option<&Path>, modified: bool) {
    let (name, whole) = match path {
        Some(p) => (
            p.file_name().map_or_else(
                || crate::data::portable_path(p),
                |n| n.to_string_lossy().into_owned(),
            ),
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
}

/// Undo and Redo.
fn undo_redo(ui: &mut egui::Ui, can_undo: bool, can_redo: bool, out: &mut Out) {
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
}

/// Save (to the design's file, `path`), the name to save as, and Save as.
fn save_buttons(
    ui: &mut egui::Ui,
    screen: &mut EditorScreen,
    path: Option<PathBuf>,
    out: &mut Out,
) {
    let to = path.map_or_else(
        || {
            format!(
                "the data folder's scenarios/{}.ron",
                crate::client::core::session::slug(&screen.file_name)
            )
        },
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
}

/// Opens the design in a game with these seats (none: people at this computer).
fn play(seats: Option<Vec<Seat>>, screen: &mut EditorScreen, out: &mut Out) {
    match screen.playable_file() {
        Ok(path) => {
            out.opens.push(OpenGame {
                seats,
                ..OpenGame::file(path)
            });
        }
        Err(e) => screen.status = e,
    }
}

/// Play, play against the bot, Quick balance and Preview: disabled while the design has
/// problems.
fn play_buttons(ui: &mut egui::Ui, screen: &mut EditorScreen, problems: usize, out: &mut Out) {
    let clean = problems == 0;
    let why = (!clean)
        .then(|| format!("Disabled: the scenario has {problems} problem(s), listed on the right"));
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
                Seat::Bot(
                    if screen.is_chess() {
                        "commander"
                    } else {
                        "tactical"
                    }
                    .into(),
                ),
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
        ui.horizontal(|ui| new_board(ui, screen, out));
        ui.separator();
        let files = design_files(screen);
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

/// The new board's size, and a new board of either game.
fn new_board(ui: &mut egui::Ui, screen: &mut EditorScreen, out: &mut Out) {
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
}

/// The designs Open offers: both games' shipped setups and the player's own, then the
/// autosaves.
fn design_files(screen: &EditorScreen) -> Vec<PathBuf> {
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
    files
}
