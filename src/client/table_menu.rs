//! The main menu's page for each setup-file game: its shipped setups, who sits in each
//! seat (people or bots), continuing the autosave, saved matches and replays, and for the
//! Range Duel any two tank designs from the upgrade builder.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::egui;

use super::Screen;
use super::session::SaveFolder;
use super::table_session::{OnTable, OpenTable, Seat, TableClient, TableMatch, autosave_path};
use crate::framework::Tabletop;
use crate::rules::TableGame;
use crate::rules::range_duel::{DuelSetup, RangeDuel};
use crate::rules::tank_commander::setup::{Rules as TankRules, TankDesign};

/// A shipped setup: its path, and its name and description or its problems.
#[derive(Clone, Debug)]
pub struct ListedSetup {
    pub path: PathBuf,
    pub title: Result<(String, String), String>,
    /// Seats in the setup.
    pub seats: usize,
}

/// What the page of one game remembers.
#[derive(Default)]
pub struct GamePage {
    pub setups: Vec<ListedSetup>,
    pub chosen: usize,
    pub seats: Vec<Seat>,
    pub saves: Vec<PathBuf>,
    pub autosave: Option<PathBuf>,
    /// Range Duel: the designs found in the builds folder, and the two picked (`None`:
    /// the setup's own tank).
    pub designs: Vec<(PathBuf, Result<TankDesign, String>)>,
    pub picked: [Option<usize>; 2],
}

fn scan<G: TableClient>(folder: &SaveFolder, which: TableGame) -> GamePage {
    let setups = crate::data::find_project_file(which.folder())
        .map(|d| super::menu::ron_files(&d))
        .unwrap_or_default()
        .into_iter()
        .map(|path| {
            let parsed = crate::framework::tabletop::load_setup::<G>(&path);
            let seats = parsed
                .as_ref()
                .ok()
                .and_then(|s| G::from_setup(s).ok())
                .map_or(2, |g| crate::framework::Game::player_count(&g));
            ListedSetup {
                title: parsed
                    .map(|s| G::setup_title(&s))
                    .map_err(|d| d.to_string()),
                path,
                seats,
            }
        })
        .collect::<Vec<_>>();
    let chosen = setups
        .iter()
        .position(|s| s.path.ends_with("default.ron"))
        .unwrap_or(0);
    let mut saves: Vec<PathBuf> = super::menu::ron_files(&folder.saves())
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(&format!("{}-", G::NAME)))
        })
        .collect();
    saves.reverse();
    let autosave = Some(autosave_path::<G>(folder)).filter(|p| p.is_file());
    let designs = if which == TableGame::RangeDuel {
        super::menu::ron_files(&super::builder::builds_dir())
            .into_iter()
            .map(|p| {
                let d = crate::data::load_ron_file::<TankDesign>(&p)
                    .map(|(d, _, _)| d)
                    .map_err(|d| d.to_string());
                (p, d)
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut seats = vec![Seat::Human];
    seats.resize(
        setups.get(chosen).map_or(2, |s| s.seats),
        Seat::Bot(G::bot_names()[0].to_string()),
    );
    GamePage {
        setups,
        chosen,
        seats,
        saves,
        autosave,
        designs,
        picked: [None, None],
    }
}

/// Reads every game's page afresh (on entering the menu).
#[must_use]
pub fn scan_all(folder: &SaveFolder) -> Vec<(TableGame, GamePage)> {
    TableGame::ALL
        .into_iter()
        .map(|g| (g, crate::dispatch_table_game!(g, scan(folder, g))))
        .collect()
}

/// Draws a game's page.
pub fn page(
    ui: &mut egui::Ui,
    which: TableGame,
    page: &mut GamePage,
    commands: &mut Commands,
    opens: &mut MessageWriter<OpenTable>,
    next: &mut NextState<Screen>,
    error: &mut Option<String>,
) {
    let bot = |name: &str| Seat::Bot(name.to_string());
    let bots: &[&str] = crate::dispatch_table_game!(which, bot_names());
    ui.columns(2, |cols| {
        let ui = &mut cols[0];
        ui.heading(format!("New game of {}", which.title()));
        for (i, s) in page.setups.iter().enumerate() {
            let (title, line) = match &s.title {
                Ok((t, d)) => (t.clone(), d.lines().next().unwrap_or("").to_string()),
                Err(_) => (
                    s.path
                        .file_name()
                        .map_or(String::new(), |n| n.to_string_lossy().into_owned()),
                    "this file has problems (hover to see them)".to_string(),
                ),
            };
            let r = ui.add_enabled(
                s.title.is_ok(),
                egui::Button::selectable(
                    page.chosen == i,
                    egui::RichText::new(format!("{title} ({} seats)", s.seats))
                        .strong()
                        .size(15.0),
                ),
            );
            let r = match &s.title {
                Err(e) => r.on_disabled_hover_text(e),
                Ok(_) => r.on_hover_text(s.path.display().to_string()),
            };
            if r.clicked() {
                page.chosen = i;
                let mut seats = vec![Seat::Human];
                seats.resize(s.seats, bot(bots[0]));
                page.seats = seats;
            }
            ui.label(egui::RichText::new(line).weak());
        }
        if page.setups.is_empty() {
            ui.label(format!("No setups found in {}/.", which.folder()));
        }
        ui.add_space(6.0);
        ui.label(egui::RichText::new("Seats").strong());
        for (i, seat) in page.seats.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                ui.label(format!("Seat {}", i + 1));
                egui::ComboBox::from_id_salt(("menu seat", which.name(), i))
                    .selected_text(match seat {
                        Seat::Human => "person".to_string(),
                        Seat::Bot(n) => format!("{n} bot"),
                    })
                    .show_ui(ui, |ui| {
                        if ui.selectable_label(seat.is_human(), "person").clicked() {
                            *seat = Seat::Human;
                        }
                        for name in bots {
                            if ui.selectable_label(false, format!("{name} bot")).clicked() {
                                *seat = bot(name);
                            }
                        }
                    });
            });
        }
        ui.horizontal(|ui| {
            if ui
                .small_button("all people")
                .on_hover_text("Hot seat: everyone at one computer")
                .clicked()
            {
                page.seats.iter_mut().for_each(|s| *s = Seat::Human);
            }
            if ui.small_button("me vs bots").clicked() {
                for (i, s) in page.seats.iter_mut().enumerate() {
                    *s = if i == 0 { Seat::Human } else { bot(bots[0]) };
                }
            }
            if ui
                .small_button("watch bots")
                .on_hover_text("Bots in every seat; you see everything")
                .clicked()
            {
                page.seats.iter_mut().for_each(|s| *s = bot(bots[0]));
            }
        });
        if which == TableGame::RangeDuel {
            duel_designs(ui, page);
        }
        ui.add_space(6.0);
        let chosen = page.setups.get(page.chosen).filter(|s| s.title.is_ok());
        let play = ui.add_enabled(
            chosen.is_some(),
            egui::Button::new(egui::RichText::new("▶ Play").size(20.0)),
        );
        if play.clicked()
            && let Some(s) = chosen
        {
            if which == TableGame::RangeDuel && page.picked.iter().any(Option::is_some) {
                match duel_with_designs(&s.path, page) {
                    Ok(table) => {
                        commands.insert_resource(table);
                        commands.insert_resource(OnTable(TableGame::RangeDuel));
                        next.set(Screen::Table);
                    }
                    Err(e) => *error = Some(e),
                }
            } else {
                opens.write(OpenTable {
                    path: s.path.clone(),
                    replay: false,
                    seats: page.seats.clone(),
                });
            }
        }

        let ui = &mut cols[1];
        ui.heading("Continue");
        let cont = ui.add_enabled(
            page.autosave.is_some(),
            egui::Button::new(egui::RichText::new("Continue the last game").size(16.0)),
        );
        if cont
            .on_hover_text("Autosaved after every action")
            .on_disabled_hover_text(
                "No autosave of this game yet: it is written after every action",
            )
            .clicked()
            && let Some(path) = &page.autosave
        {
            opens.write(OpenTable {
                path: path.clone(),
                replay: false,
                seats: Vec::new(),
            });
        }
        ui.add_space(8.0);
        ui.heading("Saved games");
        egui::ScrollArea::vertical()
            .id_salt(("saves", which.name()))
            .max_height(260.0)
            .show(ui, |ui| {
                if page.saves.is_empty() {
                    ui.label("None yet: press Save during a game.");
                }
                for save in &page.saves {
                    ui.horizontal(|ui| {
                        ui.label(
                            save.file_name()
                                .map_or(String::new(), |n| n.to_string_lossy().into_owned()),
                        );
                        if ui
                            .small_button("Load")
                            .on_hover_text("Play on from where it was saved")
                            .clicked()
                        {
                            opens.write(OpenTable {
                                path: save.clone(),
                                replay: false,
                                seats: Vec::new(),
                            });
                        }
                        if ui
                            .small_button("Replay")
                            .on_hover_text("Step through it from the start")
                            .clicked()
                        {
                            opens.write(OpenTable {
                                path: save.clone(),
                                replay: true,
                                seats: Vec::new(),
                            });
                        }
                    });
                }
            });
    });
}

fn bot_names<G: Tabletop>() -> &'static [&'static str] {
    G::bot_names()
}

fn duel_designs(ui: &mut egui::Ui, page: &mut GamePage) {
    ui.add_space(6.0);
    ui.label(egui::RichText::new("Tanks").strong())
        .on_hover_text(
            "Any design saved from the upgrade builder (Build a tank… on the first page) can duel",
        );
    let rules = TankRules::builtin();
    for (i, pick) in page.picked.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            ui.label(format!("Tank {}", i + 1));
            let current = match pick.and_then(|k| page.designs.get(k)) {
                Some((_, Ok(d))) => d.name.clone(),
                _ => "the setup's tank".to_string(),
            };
            egui::ComboBox::from_id_salt(("duel design", i))
                .selected_text(current)
                .show_ui(ui, |ui| {
                    if ui
                        .selectable_label(pick.is_none(), "the setup's tank")
                        .clicked()
                    {
                        *pick = None;
                    }
                    for (k, (path, design)) in page.designs.iter().enumerate() {
                        match design {
                            Ok(d) => {
                                let problems = d.build.problems(&rules, d.painted, d.named);
                                let r = ui.add_enabled(
                                    problems.is_empty(),
                                    egui::Button::selectable(*pick == Some(k), &d.name),
                                );
                                if r.on_disabled_hover_text(
                                    problems
                                        .iter()
                                        .map(|p| p.message.clone())
                                        .collect::<Vec<_>>()
                                        .join("\n"),
                                )
                                .clicked()
                                {
                                    *pick = Some(k);
                                }
                            }
                            Err(e) => {
                                ui.add_enabled(
                                    false,
                                    egui::Button::new(path.display().to_string()),
                                )
                                .on_disabled_hover_text(e);
                            }
                        }
                    }
                });
        });
    }
    if page.designs.is_empty() {
        ui.label(egui::RichText::new("No saved designs yet: Build a tank… saves them.").weak());
    }
}

fn duel_with_designs(
    path: &std::path::Path,
    page: &GamePage,
) -> Result<TableMatch<RangeDuel>, String> {
    let mut setup: DuelSetup =
        crate::framework::tabletop::load_setup::<RangeDuel>(path).map_err(|d| d.to_string())?;
    for (i, pick) in page.picked.iter().enumerate() {
        if let Some((_, Ok(design))) = pick.and_then(|k| page.designs.get(k)) {
            setup.tanks[i] = design.clone();
        }
    }
    TableMatch::new(
        setup,
        path.display().to_string(),
        super::session::clock_seed(),
        page.seats.clone(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_design_takes_a_duel_seat() {
        // A design as the builder saves it: the default duel's second tank, renamed.
        let mut hammer = DuelSetup::builtin_default().tanks[1].clone();
        hammer.name = "Hammer".into();
        assert!(
            hammer
                .build
                .problems(&TankRules::builtin(), hammer.painted, hammer.named)
                .is_empty()
        );
        let text = crate::data::to_ron_pretty(&hammer).unwrap();
        let hammer: TankDesign = ron::from_str(&text).unwrap();
        let page = GamePage {
            designs: vec![(PathBuf::from("hammer.ron"), Ok(hammer))],
            picked: [Some(0), None],
            seats: vec![Seat::Human, Seat::Human],
            ..GamePage::default()
        };
        let path = crate::data::find_project_file("scenarios/range-duel/default.ron").unwrap();
        let table = duel_with_designs(&path, &page).unwrap();
        let tanks = table.state().tanks();
        assert_eq!(tanks[0].name, "Hammer");
        assert_eq!(
            tanks[0].build, tanks[1].build,
            "the design's build came along"
        );
        assert_ne!(
            tanks[1].name, "Hammer",
            "the other seat keeps the setup's tank"
        );
    }
}
