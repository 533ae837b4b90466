//! The main menu: a new game on any scenario in `scenarios/` (straight to battle, or via
//! the upgrade builder), continue the autosave, load a saved match or a replay, build a
//! tank, quit.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::builder::BuilderPlan;
use super::chess_session::ChessTable;
use super::session::{NewBattle, Notice, OpenRecord, SaveFolder, Table};
use super::table_session::OpenTable;
use super::{LoadedRules, Screen};
use crate::rules::tank_chess::bot::Strength;
use crate::rules::tank_commander::Scenario;
use crate::rules::tank_commander::setup::find_project_file;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MenuState>()
        .add_systems(OnEnter(Screen::Menu), (leave_battle, rescan))
        .add_systems(
            EguiPrimaryContextPass,
            draw_menu.run_if(in_state(Screen::Menu)),
        );
}

/// A scenario file found in `scenarios/`.
#[derive(Clone, Debug)]
pub struct Listed {
    pub path: PathBuf,
    /// The scenario, or every problem in the file.
    pub scenario: Result<Scenario, String>,
}

/// The page the menu opens on.
#[derive(Resource, Default, Clone, Copy)]
pub struct MenuPage(pub usize);

#[derive(Resource, Default)]
struct MenuState {
    /// The page shown: 0 for Tank Commander and Tank Chess, then one per setup-file game.
    tab: usize,
    tables: Vec<(crate::rules::TableGame, super::table_menu::GamePage)>,
    table_error: Option<String>,
    /// Tank Chess setups: path and name, or the problems.
    chess: Vec<(PathBuf, Result<String, String>)>,
    /// Saved Tank Chess games (notation).
    chess_saves: Vec<PathBuf>,
    chess_error: Option<String>,
    chess_clock: bool,
    scenarios: Vec<Listed>,
    saves: Vec<PathBuf>,
    chosen: usize,
    path: String,
}

/// Every `.ron` file in `dir`, sorted by name.
#[must_use]
pub fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The scenarios shipped in `scenarios/`, each validated against `rules`.
#[must_use]
pub fn scenario_list(rules: &crate::rules::tank_commander::Rules) -> Vec<Listed> {
    let Some(dir) = find_project_file("scenarios") else {
        return Vec::new();
    };
    ron_files(&dir)
        .into_iter()
        .map(|path| Listed {
            scenario: Scenario::load(&path, rules).map_err(|d| d.to_string()),
            path,
        })
        .collect()
}

fn leave_battle(mut commands: Commands) {
    commands.remove_resource::<Table>();
}

fn rescan(
    mut state: ResMut<MenuState>,
    rules: Res<LoadedRules>,
    folder: Res<SaveFolder>,
    page: Option<Res<MenuPage>>,
) {
    state.tables = super::table_menu::scan_all(&folder);
    if let Some(page) = page
        && page.is_added()
    {
        state.tab = page.0.min(state.tables.len());
    }
    state.scenarios = scenario_list(&rules.0);
    let chess_rules = super::chess_session::chess_rules();
    state.chess = find_project_file("scenarios/tank-chess")
        .map(|d| ron_files(&d))
        .unwrap_or_default()
        .into_iter()
        .map(|p| {
            let named = match &chess_rules {
                Ok(r) => crate::rules::tank_chess::Scenario::load(&p, r)
                    .map(|s| s.setup.name.clone())
                    .map_err(|d| d.to_string()),
                Err(e) => Err(e.clone()),
            };
            (p, named)
        })
        .collect();
    state.chess_saves = std::fs::read_dir(folder.saves())
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                .collect()
        })
        .unwrap_or_default();
    state.chess_saves.sort();
    state.chess_saves.reverse();
    let mut saves: Vec<PathBuf> = ron_files(&folder.saves())
        .into_iter()
        .filter(|p| {
            let name = p
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned());
            !crate::rules::TableGame::ALL
                .iter()
                .any(|g| name.starts_with(&format!("{}-", g.name())))
        })
        .collect();
    saves.reverse();
    state.saves = saves;
    // Start on the default scenario.
    state.chosen = state
        .scenarios
        .iter()
        .position(|l| l.path.ends_with("skirmish.ron"))
        .unwrap_or(0);
}

fn draw_menu(
    mut contexts: EguiContexts,
    mut state: ResMut<MenuState>,
    notice: Res<Notice>,
    folder: Res<SaveFolder>,
    mut commands: Commands,
    mut battles: MessageWriter<NewBattle>,
    mut opens: MessageWriter<OpenRecord>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    mut table_opens: MessageWriter<OpenTable>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let state = &mut *state;
    let mut chess_error = None;
    let state_error = state.chess_error.clone();
    egui::Window::new("Tanktable")
        .title_bar(false)
        .resizable(false)
        .collapsible(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .fixed_size([980.0, 600.0])
        .show(ctx, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(20.0);
            ui.heading(egui::RichText::new("TANKTABLE").size(44.0).strong().color(egui::Color32::from_rgb(230, 200, 120)));
            ui.label("Five tank games on a 3D table, every rule enforced and explained. Play at one computer, against bots, or watch the bots.");
            ui.add_space(12.0);
        });
        if let Some(n) = &notice.0 {
            ui.colored_label(egui::Color32::from_rgb(255, 150, 120), n);
        }
        ui.horizontal(|ui| {
            let mut tab = state.tab;
            ui.selectable_value(&mut tab, 0, egui::RichText::new("Tank Commander · Tank Chess").size(16.0));
            for (i, (game, _)) in state.tables.iter().enumerate() {
                ui.selectable_value(&mut tab, i + 1, egui::RichText::new(game.title()).size(16.0));
            }
            state.tab = tab;
        });
        ui.separator();
        if state.tab > 0 {
            let mut error = None;
            if let Some((game, page)) = state.tables.get_mut(state.tab - 1) {
                super::table_menu::page(ui, *game, page, &mut commands, &mut table_opens, &mut next, &mut error);
            }
            if error.is_some() {
                state.table_error = error;
            }
            if let Some(e) = &state.table_error {
                ui.colored_label(egui::Color32::from_rgb(255, 150, 120), e);
            }
            ui.add_space(12.0);
            if ui.button(egui::RichText::new("Quit").size(16.0)).clicked() {
                exit.write(AppExit::Success);
            }
            return;
        }
        ui.columns(2, |cols| {
            let ui = &mut cols[0];
            ui.heading("New game");
            for (i, listed) in state.scenarios.iter().enumerate() {
                let (title, line) = match &listed.scenario {
                    Ok(s) => (s.setup.name.clone(), s.setup.description.lines().next().unwrap_or("").to_string()),
                    Err(_) => (
                        listed.path.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned()),
                        "this file has problems (hover to see them)".to_string(),
                    ),
                };
                let r = ui.add_enabled(
                    listed.scenario.is_ok(),
                    egui::Button::selectable(state.chosen == i, egui::RichText::new(title).strong().size(16.0)),
                );
                let r = match &listed.scenario {
                    Err(e) => r.on_disabled_hover_text(e),
                    Ok(_) => r.on_hover_text(listed.path.display().to_string()),
                };
                if r.clicked() {
                    state.chosen = i;
                }
                ui.label(egui::RichText::new(line).weak());
                ui.add_space(4.0);
            }
            if state.scenarios.is_empty() {
                ui.label("No scenarios found in scenarios/.");
            }
            ui.add_space(8.0);
            let chosen = state.scenarios.get(state.chosen).and_then(|l| l.scenario.as_ref().ok().map(|s| (s, &l.path)));
            ui.horizontal(|ui| {
                let play = ui.add_enabled(chosen.is_some(), egui::Button::new(egui::RichText::new("▶ Play").size(20.0)));
                if play.on_hover_text("Start the battle with the scenario's tanks as built").clicked()
                    && let Some((s, path)) = chosen
                {
                    battles.write(NewBattle {
                        scenario: s.clone(),
                        source: path.display().to_string(),
                        path: Some(path.clone()),
                    });
                }
                let build = ui.add_enabled(chosen.is_some(), egui::Button::new(egui::RichText::new("Customise tanks…").size(16.0)));
                if build.on_hover_text("Spend each tank's upgrade points in the builder, then start").clicked()
                    && let Some((s, path)) = chosen
                {
                    commands.insert_resource(BuilderPlan::Scenario {
                        setup: s.setup.clone(),
                        source: path.display().to_string(),
                        path: Some(path.clone()),
                    });
                    next.set(Screen::Builder);
                }
            });
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                ui.heading("Tank Chess");
                ui.checkbox(&mut state.chess_clock, "chess clock")
                    .on_hover_text("30 minutes each on a 16×16 board, 45 on 20×20; running out of time loses");
            });
            let clock = state.chess_clock;
            for (path, named) in &state.chess {
                ui.horizontal(|ui| {
                    match named {
                        Ok(name) => {
                            ui.label(egui::RichText::new(name).strong());
                        }
                        Err(e) => {
                            ui.label(egui::RichText::new("(a setup with problems)").weak()).on_hover_text(e);
                            return;
                        }
                    }
                    for (label, bot, tip) in [
                        ("Hot seat", None, "Two players at one computer"),
                        ("vs Cadet", Some(Strength::Cadet), "You play White against the bot that looks one move ahead"),
                        ("vs Commander", Some(Strength::Commander), "You play White against the bot that also weighs your best reply"),
                    ] {
                        if ui.small_button(label).on_hover_text(tip).clicked() {
                            match ChessTable::open(path) {
                                Ok(mut t) => {
                                    t.bot = bot.map(|s| (crate::rules::tank_chess::BLACK, s));
                                    if clock {
                                        t.start_clock();
                                    }
                                    commands.insert_resource(t);
                                    next.set(Screen::Chess);
                                }
                                Err(e) => chess_error = Some(e),
                            }
                        }
                    }
                });
            }
            for save in state.chess_saves.iter().take(5) {
                ui.horizontal(|ui| {
                    ui.label(save.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned()));
                    if ui.small_button("Replay").clicked() {
                        match ChessTable::open(save) {
                            Ok(t) => {
                                commands.insert_resource(t);
                                next.set(Screen::Chess);
                            }
                            Err(e) => chess_error = Some(e),
                        }
                    }
                });
            }
            if let Some(e) = &state_error {
                ui.colored_label(egui::Color32::from_rgb(255, 150, 120), e);
            }
            ui.add_space(8.0);
            if ui.button("Build a tank…").on_hover_text("Design a tank with the upgrade rules and save it to RON").clicked() {
                commands.insert_resource(BuilderPlan::Standalone);
                next.set(Screen::Builder);
            }
            let ui = &mut cols[1];
            ui.heading("Continue");
            let autosave = folder.autosave();
            let cont = ui.add_enabled(autosave.is_file(), egui::Button::new(egui::RichText::new("Continue the last battle").size(16.0)));
            if cont
                .on_hover_text(format!("Autosaved after every activation to {}", autosave.display()))
                .on_disabled_hover_text("No autosave yet: it is written after every activation")
                .clicked()
            {
                opens.write(OpenRecord { path: autosave.clone(), replay: false });
            }
            ui.add_space(8.0);
            ui.heading("Saved matches");
            ui.label(egui::RichText::new(format!("in {}", folder.saves().display())).weak());
            egui::ScrollArea::vertical().max_height(220.0).show(ui, |ui| {
                if state.saves.is_empty() {
                    ui.label("None yet: Save (Ctrl+S) during a battle.");
                }
                for save in &state.saves {
                    ui.horizontal(|ui| {
                        ui.label(save.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned()));
                        if ui.small_button("Load").on_hover_text("Play on from where it was saved").clicked() {
                            opens.write(OpenRecord { path: save.clone(), replay: false });
                        }
                        if ui.small_button("Replay").on_hover_text("Step through it from the start").clicked() {
                            opens.write(OpenRecord { path: save.clone(), replay: true });
                        }
                    });
                }
            });
            ui.add_space(6.0);
            ui.label("Or a match record file (from `tanktable record` or a save):");
            ui.text_edit_singleline(&mut state.path);
            ui.horizontal(|ui| {
                let path = PathBuf::from(state.path.trim());
                let ok = !state.path.trim().is_empty();
                let table_game = std::fs::read_to_string(&path).ok().and_then(|t| crate::rules::TableGame::of_text(&t));
                if ui.add_enabled(ok, egui::Button::new("Load match")).clicked() {
                    if table_game.is_some() {
                        table_opens.write(OpenTable { path: path.clone(), replay: false, seats: Vec::new() });
                    } else {
                        opens.write(OpenRecord { path: path.clone(), replay: false });
                    }
                }
                if ui.add_enabled(ok, egui::Button::new("Load replay")).clicked() {
                    // A Tank Chess game in notation opens on the chess board.
                    let chess = std::fs::read_to_string(&path).is_ok_and(|t| crate::rules::tank_chess::notation::is_record(&t));
                    if table_game.is_some() {
                        table_opens.write(OpenTable { path: path.clone(), replay: true, seats: Vec::new() });
                    } else if chess {
                        match ChessTable::open(&path) {
                            Ok(t) => {
                                commands.insert_resource(t);
                                next.set(Screen::Chess);
                            }
                            Err(e) => chess_error = Some(e),
                        }
                    } else {
                        opens.write(OpenRecord { path, replay: true });
                    }
                }
            });
            ui.add_space(16.0);
            if ui.button(egui::RichText::new("Quit").size(16.0)).clicked() {
                exit.write(AppExit::Success);
            }
        });
    });
    if chess_error.is_some() {
        state.chess_error = chess_error;
    }
    Ok(())
}
