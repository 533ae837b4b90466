//! The main menu: a page for each of the five games, all alike. Pick a shipped setup and
//! who sits in each seat (people, bots, or bots only to watch), then Play; Continue the
//! autosave; load or replay a saved game; open any file. Tank Commander's page also
//! offers its upgrade builder, Tank Chess's a chess clock, the Range Duel's any two tank
//! designs saved from the builder.

use std::path::PathBuf;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::client::core::Screen;
use crate::client::core::open::BuilderPlan;
use crate::client::core::open::OpenCampaign;
use crate::client::core::remote::is_seat_copy;
use crate::client::core::saves::{builds_dir, files_of, ron_files};
use crate::client::core::session::{AnySetup, OpenGame, OpenProblem, SaveFolder};
use crate::client::games::tank_chess::ClockWanted;
use crate::client::table::theme::{self, WARN};
use crate::dispatch_game;
use crate::framework::Seat;
use crate::framework::playable::{self, Playable};
use crate::net::copy::SeatCopy;
use crate::rules::GameKind;
use crate::rules::range_duel::RangeDuel;
use crate::rules::tank_commander::campaign::{Campaign, CampaignState, default_state_path};
use crate::rules::tank_commander::setup::{Rules as TankRules, TankDesign, UnitKind};

pub fn plugin(app: &mut App) {
    app.init_resource::<Menu>()
        .add_systems(OnEnter(Screen::Menu), rescan)
        .add_systems(
            EguiPrimaryContextPass,
            draw_menu.run_if(in_state(Screen::Menu)),
        );
}

/// What the menu lists on each game's page, in the menu's order: the setups (with their
/// titles or problems) and, for Tank Commander, the campaigns. Empty before the menu
/// was first shown.
#[must_use]
pub fn listed(world: &World) -> Vec<(GameKind, Vec<ListedSetup>, Vec<ListedCampaign>)> {
    world.get_resource::<Menu>().map_or_else(Vec::new, |menu| {
        menu.pages
            .iter()
            .map(|p| (p.game, p.setups.clone(), p.campaigns.clone()))
            .collect()
    })
}

/// The page the menu opens on.
#[derive(Resource, Clone, Copy, Debug)]
pub struct MenuPage(pub GameKind);

/// Open a game's "How to play" card over the menu (the menu's button does the same).
#[derive(Resource, Clone, Copy, Debug)]
pub struct HowToPlay(pub GameKind);

/// A shipped setup: its path, and its name and description or its problems.
#[derive(Clone, Debug)]
pub struct ListedSetup {
    pub path: PathBuf,
    pub title: Result<(String, String), String>,
    /// Seats in the setup.
    pub seats: usize,
    /// Made by the player (saved from the editor into the data folder's `scenarios/`),
    /// not shipped.
    pub mine: bool,
    /// A lab variant (`LabVariant` file, shipped in `scenarios/lab/` or saved from the
    /// lab): its setup with the variant's rules changes made, played as it is.
    pub variant: Option<AnySetup>,
}

/// What the page of one game remembers.
pub struct GamePage {
    pub game: GameKind,
    pub setups: Vec<ListedSetup>,
    pub chosen: usize,
    pub seats: Vec<Seat>,
    pub bots: &'static [&'static str],
    /// What each bot does ([`Playable::bot_about`]), for the seat picker's tooltips.
    pub bot_about: fn(&str) -> &'static str,
    /// Saved games, newest first, each with what it is: its setup, when it was saved,
    /// how far it went.
    pub saves: Vec<(PathBuf, String)>,
    /// An autosave (or its backup) of the game is there to continue.
    pub can_continue: bool,
    /// The autosaved game is over: Continue offers a rematch (this opens it: the same
    /// setup and seats, new dice) and its replay instead.
    pub last_over: Option<OpenGame>,
    /// Range Duel: the designs found in the builds folder, and the two picked (`None`:
    /// the setup's own tank).
    pub designs: Vec<(PathBuf, Result<TankDesign, String>)>,
    pub picked: [Option<usize>; 2],
    /// Tank Commander: the shipped campaigns, each with where it stands.
    pub campaigns: Vec<ListedCampaign>,
}

/// A shipped campaign and its saved state.
#[derive(Clone, Debug)]
pub struct ListedCampaign {
    pub path: PathBuf,
    /// Its name, description and battles' names; or its problems.
    pub campaign: Result<(String, String, Vec<String>), String>,
    /// Its saved state, if it has been begun (or why that cannot be read).
    pub state: Option<Result<CampaignState, String>>,
    /// Veterans in its roster.
    pub veterans: usize,
}

/// The campaigns in `scenarios/campaigns/`, each with its saved state.
fn scan_campaigns() -> Vec<ListedCampaign> {
    let Some(dir) = crate::data::find_project_file("scenarios/campaigns") else {
        return Vec::new();
    };
    let rules = TankRules::load(None).unwrap_or_else(|_| TankRules::builtin());
    ron_files(&dir)
        .into_iter()
        .map(|path| {
            let campaign = Campaign::load(&path, &rules)
                .map(|c| {
                    let battles = c.scenarios.iter().map(|s| s.setup.name.clone()).collect();
                    (c.setup.name, c.setup.description, battles)
                })
                .map_err(|d| d.to_string());
            let save = default_state_path(&path);
            let state = save
                .exists()
                .then(|| CampaignState::load(&save).map_err(|d| d.to_string()));
            let veterans = match &state {
                Some(Ok(s)) => s.veterans(&rules.campaign),
                _ => 0,
            };
            ListedCampaign {
                path,
                campaign,
                state,
                veterans,
            }
        })
        .collect()
}

#[derive(Resource, Default)]
struct Menu {
    tab: usize,
    pages: Vec<GamePage>,
    /// A file to open, typed in.
    path: String,
    /// The campaign whose Start over was clicked once (a second click confirms).
    restart: Option<usize>,
    clock: bool,
    /// The game whose "How to play" card is open.
    how_to: Option<GameKind>,
}

/// Reads the page of game `G` afresh: its shipped setups, saves and autosave.
fn scan<G: Playable>(folder: &SaveFolder) -> GamePage {
    let rules = G::load_rules(None);
    let setups = scan_setups::<G>(folder, &rules);
    let chosen = setups
        .iter()
        .position(|s| {
            s.path
                .ends_with(G::KIND.default_setup().rsplit('/').next().unwrap_or(""))
        })
        .unwrap_or(0);
    let designs = if G::KIND == GameKind::RangeDuel {
        scan_designs()
    } else {
        Vec::new()
    };
    let seats = me_against_bots(setups.get(chosen).map_or(2, |s| s.seats), G::bot_names());
    let campaigns = if G::KIND == GameKind::TankCommander {
        scan_campaigns()
    } else {
        Vec::new()
    };
    GamePage {
        game: G::KIND,
        setups,
        chosen,
        seats,
        bots: G::bot_names(),
        bot_about: G::bot_about,
        saves: folder
            .saves_of::<G>()
            .into_iter()
            .map(|path| {
                let about = describe_save::<G>(&path, rules.as_ref().ok());
                (path, about)
            })
            .collect(),
        can_continue: folder.can_continue::<G>(),
        last_over: last_over::<G>(folder, &rules),
        designs,
        picked: [None, None],
        campaigns,
    }
}

/// The setups of game `G`: the shipped ones, the lab variants, then the player's own
/// (the editor saves into the data folder), each with its title or problems.
fn scan_setups<G: Playable>(
    folder: &SaveFolder,
    rules: &Result<G::Rules, crate::data::Diagnostics>,
) -> Vec<ListedSetup> {
    // The shipped setups, then the player's own: the editor saves into the data folder.
    let shipped = crate::data::find_project_file(G::KIND.folder())
        .map(|d| files_of(&d, G::KIND, crate::rules::FileKind::Setup))
        .unwrap_or_default();
    let mine = files_of(
        &folder.0.join("scenarios"),
        G::KIND,
        crate::rules::FileKind::Setup,
    );
    let mut setups: Vec<ListedSetup> = shipped
        .into_iter()
        .map(|path| (path, false))
        .chain(mine.into_iter().map(|path| (path, true)))
        .map(|(path, mine)| {
            let parsed = rules
                .as_ref()
                .map_err(ToString::to_string)
                .and_then(|r| playable::load_setup::<G>(&path, r).map_err(|d| d.to_string()));
            let seats = parsed
                .as_ref()
                .ok()
                .and_then(|s| G::from_setup(s).ok())
                .map_or(2, |g| g.player_count());
            ListedSetup {
                title: parsed.map(|s| G::setup_title(&s)),
                path,
                seats,
                mine,
                variant: None,
            }
        })
        .collect();
    // The lab variants after the shipped setups, before the player's own.
    let at = setups.iter().position(|s| s.mine).unwrap_or(setups.len());
    setups.splice(at..at, variants::<G>(&folder.0.join("lab")));
    setups
}

/// The tank designs saved from the builder, for the Range Duel: each read, or why not.
fn scan_designs() -> Vec<(PathBuf, Result<TankDesign, String>)> {
    ron_files(&builds_dir())
        .into_iter()
        .map(|p| {
            let d = crate::data::load_ron_file::<TankDesign>(&p)
                .map(|(d, _, _)| d)
                .map_err(|d| d.to_string());
            (p, d)
        })
        .collect()
}

/// The autosaved game of `G` when it is over: the rematch that opens its setup in its
/// seats again.
fn last_over<G: Playable>(
    folder: &SaveFolder,
    rules: &Result<G::Rules, crate::data::Diagnostics>,
) -> Option<OpenGame> {
    rules
        .as_ref()
        .ok()
        .and_then(|r| playable::load_record::<G>(&folder.autosave::<G>(), r).ok())
        .filter(|record| playable::replay(record).is_ok_and(|m| m.state().outcome().is_some()))
        .map(|record| {
            let (title, _) = G::setup_title(&record.setup);
            OpenGame {
                seats: Some(record.seats.clone()),
                ..OpenGame::setup(
                    crate::client::frame::reload::any_setup::<G>(record.setup),
                    title,
                )
            }
        })
}

/// The lab variants of game `G`, shipped (`scenarios/lab/`) and saved from the lab (in
/// `saved`, the data folder's `lab/`), each as its setup with the changes made; one whose changes the
/// rules refuse is listed with its problems.
fn variants<G: Playable>(saved: &std::path::Path) -> Vec<ListedSetup> {
    crate::client::core::saves::variant_files(G::KIND, saved)
        .into_iter()
        .map(|path| {
            let checked = std::fs::read_to_string(&path)
                .map_err(|e| e.to_string())
                .and_then(|text| {
                    crate::lab::variant::check::<G>(&path, &text).map_err(|d| d.to_string())
                });
            let seats = checked
                .as_ref()
                .ok()
                .and_then(|(_, s)| G::from_setup(s).ok())
                .map_or(2, |g| g.player_count());
            let title = checked.as_ref().map_err(Clone::clone).map(|(v, setup)| {
                let (base, _) = G::setup_title(setup);
                let changes: Vec<String> = v
                    .changes
                    .iter()
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect();
                (
                    format!("{base}: {}", v.name),
                    format!("Lab variant: {}", changes.join(", ")),
                )
            });
            ListedSetup {
                variant: checked
                    .ok()
                    .map(|(_, setup)| crate::client::frame::reload::any_setup::<G>(setup)),
                title,
                path,
                seats,
                mine: false,
            }
        })
        .collect()
}

/// Continue the autosaved game, where there is one.
fn continue_button(
    ui: &mut egui::Ui,
    page: &GamePage,
    folder: &SaveFolder,
    opens: &mut MessageWriter<OpenGame>,
) {
    let game = page.game;
    let cont = ui.add_enabled(
        page.can_continue,
        egui::Button::new(egui::RichText::new("Continue the last game").size(16.0)),
    );
    if cont
        .on_hover_text("The game is autosaved after every action")
        .on_disabled_hover_text(format!(
            "No autosave of {} yet: it is written after every action",
            game.title()
        ))
        .clicked()
    {
        opens.write(crate::dispatch_game!(game, OpenGame::autosave(folder)));
    }
}

/// A saved game as the menu lists it: its setup's title, when it was saved (UTC) and how
/// many actions it holds; the file's name where it does not read.
fn describe_save<G: Playable>(path: &std::path::Path, rules: Option<&G::Rules>) -> String {
    let when = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or_else(String::new, |d| utc_minute(d.as_secs()));
    let name = path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    if is_seat_copy(path) {
        let copy = std::fs::read_to_string(path)
            .ok()
            .and_then(|text| SeatCopy::read::<G>(path, &text).ok());
        return match copy {
            Some(copy) => {
                let n = copy
                    .frames
                    .last()
                    .map_or(0, crate::net::copy::Frame::actions);
                let whose = copy
                    .seat
                    .and_then(|s| copy.holders.get(usize::from(s)))
                    .map_or_else(|| "a spectator".to_string(), Clone::clone);
                format!(
                    "{} · seat's copy for {whose} · {when} · {n} action{}",
                    copy.title,
                    if n == 1 { "" } else { "s" }
                )
            }
            None => format!("{name} · {when} (does not read)"),
        };
    }
    match rules.map(|r| playable::load_record::<G>(path, r)) {
        Some(Ok(record)) => {
            let (title, _) = G::setup_title(&record.setup);
            let n = record.actions.len();
            format!(
                "{title} · {when} · {n} action{}",
                if n == 1 { "" } else { "s" }
            )
        }
        _ => format!("{name} · {when} (does not read)"),
    }
}

/// Seconds since 1970 as `YYYY-MM-DD HH:MM UTC` (the civil calendar from a day count,
/// after Howard Hinnant's algorithm).
fn utc_minute(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rest = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rest / 3_600,
        rest % 3_600 / 60
    )
}

/// A game on one card, built from its rules map: the overview in plain words, then the
/// sections of its rulebook with how many rules each holds, and the way to all of them.
fn how_to_play(
    ui: &mut egui::Ui,
    game: GameKind,
    reference: &mut crate::client::frame::rules_ref::RulesReference,
) {
    ui.label(egui::RichText::new(game.tagline()).italics());
    ui.add_space(4.0);
    for paragraph in crate::rules::map::overview(game)
        .unwrap_or_default()
        .split("\n\n")
    {
        ui.label(paragraph);
        ui.add_space(4.0);
    }
    if let Ok(map) = crate::rules::map::map(game) {
        ui.separator();
        ui.label(egui::RichText::new("The rules, section by section").strong());
        let sections = crate::rules::map::sections(&map);
        ui.horizontal_wrapped(|ui| {
            for (section, n) in sections {
                ui.label(
                    egui::RichText::new(format!("{section} ({n})"))
                        .small()
                        .color(theme::RULE_SECTIONS),
                );
                ui.label(egui::RichText::new("·").weak());
            }
        });
    }
    ui.separator();
    ui.label(egui::RichText::new("Keys").strong());
    for line in keys(game) {
        ui.label(egui::RichText::new(*line).small());
    }
    ui.add_space(4.0);
    if ui
        .button("All the rules, with the readings we play (F1)")
        .clicked()
    {
        reference.show(game, None);
    }
}

/// How a game is played from the keyboard, for its "How to play" card
/// (`docs/accessibility.md` has the whole list).
const fn keys(game: GameKind) -> &'static [&'static str] {
    const PANELS: &str = "F6 takes the keys into the panels (Tab moves, Enter presses, Escape gives them back) · F1 opens the rules · Escape the menu";
    const CAMERA: &str = "WASD pans, Q/E orbit, Z/X zoom, R resets the view, T looks straight down";
    match game {
        GameKind::TankCommander => &[
            "Arrows step a gold ring over the board; Enter picks under it, as a click would (select, aim, drive)",
            "Tab: next unit · Enter: Activate · the action bar shows each button's key ([M] move, [F] fire …)",
            PANELS,
            CAMERA,
        ],
        GameKind::TankChess => &[
            "Arrows step a gold frame over the board; Enter picks the piece or square under it",
            "1–9 play the moves listed under Moves to …",
            PANELS,
            CAMERA,
        ],
        GameKind::BattleTanks | GameKind::TankCombat | GameKind::RangeDuel => &[
            "Tab (or F6) moves between the buttons, Enter or Space presses one, Escape leaves them",
            "Arrows and WASD pan, Q/E orbit, Z/X zoom, R resets the view · F1 opens the rules",
        ],
    }
}

/// A person in the first seat, the game's default bot in the others.
fn me_against_bots(n: usize, bots: &[&str]) -> Vec<Seat> {
    (0..n)
        .map(|i| {
            if i == 0 {
                Seat::Person
            } else {
                Seat::Bot(bots[0].to_string())
            }
        })
        .collect()
}

fn rescan(mut menu: ResMut<Menu>, folder: Res<SaveFolder>, page: Option<Res<MenuPage>>) {
    let keep = menu.pages.get(menu.tab).map(|p| p.game);
    menu.pages = GameKind::ALL
        .into_iter()
        .map(|g| dispatch_game!(g, scan(&folder)))
        .collect();
    let want = page.filter(|p| p.is_added()).map(|p| p.0).or(keep);
    if let Some(game) = want {
        menu.tab = GameKind::ALL.iter().position(|g| *g == game).unwrap_or(0);
    }
}

/// What the menu's buttons act on: the games and screens they open, the windows they
/// show, and the app they quit.
#[derive(SystemParam)]
struct MenuOut<'w, 's> {
    commands: Commands<'w, 's>,
    opens: MessageWriter<'w, OpenGame>,
    next: ResMut<'w, NextState<Screen>>,
    exit: MessageWriter<'w, AppExit>,
    clock: ResMut<'w, ClockWanted>,
    campaigns: MessageWriter<'w, OpenCampaign>,
    labs: MessageWriter<'w, crate::client::core::open::OpenLab>,
    editors: MessageWriter<'w, crate::client::core::open::OpenEditor>,
    reference: ResMut<'w, crate::client::frame::rules_ref::RulesReference>,
    graphics: ResMut<'w, crate::client::table::graphics::GraphicsWindow>,
    network: ResMut<'w, crate::client::core::remote::NetForm>,
}

fn draw_menu(
    mut contexts: EguiContexts,
    mut menu: ResMut<Menu>,
    problem: Res<OpenProblem>,
    folder: Res<SaveFolder>,
    mut out: MenuOut,
    asked: Option<Res<HowToPlay>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let menu = &mut *menu;
    if let Some(HowToPlay(game)) = asked.as_deref().copied() {
        menu.how_to = Some(game);
        out.commands.remove_resource::<HowToPlay>();
    }
    if let Some(game) = menu.how_to {
        let mut open = true;
        egui::Window::new(format!("How to play {}", game.title()))
            .id(egui::Id::new("how to play"))
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .order(egui::Order::Foreground)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .min_width(600.0)
            .max_width(640.0)
            .show(ctx, |ui| how_to_play(ui, game, &mut out.reference));
        if !open {
            menu.how_to = None;
        }
    }
    egui::Window::new("Tanktable")
        .title_bar(false)
        .resizable(false)
        .collapsible(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .fixed_size([1000.0, 620.0])
        .show(ctx, |ui| menu_window(ui, menu, &problem, &folder, &mut out));
    Ok(())
}

/// The menu's window: the title, the games' tabs, the chosen game's page and the tools.
fn menu_window(
    ui: &mut egui::Ui,
    menu: &mut Menu,
    problem: &OpenProblem,
    folder: &SaveFolder,
    out: &mut MenuOut,
) {
    ui.vertical_centered(|ui| {
        ui.add_space(12.0);
        ui.heading(
            egui::RichText::new("TANKTABLE")
                .size(44.0)
                .strong()
                .color(theme::TITLE),
        );
        ui.label("Five tank games on a 3D table, every rule enforced and explained. Play at one computer, against bots, or watch the bots.");
        ui.add_space(8.0);
    });
    if let Some(p) = &problem.0 {
        ui.colored_label(WARN, p);
    }
    ui.horizontal(|ui| {
        for (i, page) in menu.pages.iter().enumerate() {
            ui.selectable_value(
                &mut menu.tab,
                i,
                egui::RichText::new(page.game.title()).size(17.0),
            )
            .on_hover_text(page.game.tagline());
        }
    });
    ui.separator();
    let Some(page) = menu.pages.get_mut(menu.tab) else {
        return;
    };
    ui.label(egui::RichText::new(page.game.tagline()).italics());
    ui.add_space(4.0);
    ui.columns(2, |cols| {
        new_game(&mut cols[0], page, &mut menu.clock, out);
        if page.game == GameKind::TankCommander {
            campaign_list(&mut cols[1], page, &mut menu.restart, &mut out.campaigns);
        }
        saved_games(&mut cols[1], page, folder, &mut menu.path, &mut out.opens);
    });
    ui.separator();
    ui.horizontal(|ui| tool_bar(ui, menu, out));
}

/// The tools under the page: build a tank, the guided game, the game's card, rules and
/// lab, its scenario editor, the graphics settings, and Quit.
fn tool_bar(ui: &mut egui::Ui, menu: &mut Menu, out: &mut MenuOut) {
    if ui
        .button("Build a tank…")
        .on_hover_text(
            "Design a tank with the upgrade rules and save it to RON (the Range Duel can use it)",
        )
        .clicked()
    {
        out.commands.insert_resource(BuilderPlan::Standalone);
        out.next.set(Screen::Builder);
    }
    guided_game_button(ui, menu, out);
    if ui
        .button("Join a game…")
        .on_hover_text(
            "Play a game hosted on another machine: its address and the room code its lobby shows",
        )
        .clicked()
    {
        out.network.host = None;
        out.network.open = true;
    }
    page_buttons(ui, menu, out);
    if let Some(page) = menu.pages.get(menu.tab)
        && matches!(page.game, GameKind::TankCommander | GameKind::TankChess)
    {
        scenario_buttons(ui, page, &mut out.editors);
    }
    if ui
        .button("Graphics and settings…")
        .on_hover_text(
            "Edge smoothing and shadows: trade the look for frame time on a slower graphics card",
        )
        .clicked()
    {
        out.graphics.open = !out.graphics.open;
    }
    if ui.button("Quit").clicked() {
        out.exit.write(AppExit::Success);
    }
}

/// Tank Commander's "Guided first game": Basic Training with each step explained.
fn guided_game_button(ui: &mut egui::Ui, menu: &Menu, out: &mut MenuOut) {
    if menu.pages.get(menu.tab).is_some_and(|p| p.game == GameKind::TankCommander)
        && let Some(path) = crate::data::find_project_file(crate::client::games::tank_commander::guide::SETUP)
        && ui
            .button("Guided first game")
            .on_hover_text("Basic Training with each step of an activation asked for, checked and explained: select, activate, drive, turn, aim, fire, end")
            .clicked()
    {
        out.commands.insert_resource(crate::client::games::tank_commander::guide::Guide::default());
        out.opens.write(OpenGame {
            seats: Some(vec![
                Seat::Person,
                Seat::Bot(crate::rules::tank_commander::TankCommander::bot_names()[0].into()),
            ]),
            ..OpenGame::file(path)
        });
    }
}

/// The chosen game's "How to play" card, its rules, and its playtest lab.
fn page_buttons(ui: &mut egui::Ui, menu: &mut Menu, out: &mut MenuOut) {
    if let Some(page) = menu.pages.get(menu.tab)
        && ui
            .button("How to play")
            .on_hover_text("The game on one card: what you do on a turn, how it is won, and the sections of its rules")
            .clicked()
    {
        menu.how_to = Some(page.game);
    }
    if let Some(page) = menu.pages.get(menu.tab)
        && ui
            .button("Rules (F1)")
            .on_hover_text("This game's rules in our words: the reading played where the rulebook leaves a gap, the switch that changes each rule, searchable")
            .clicked()
    {
        out.reference.show(page.game, None);
    }
    if let Some(page) = menu.pages.get(menu.tab)
        && ui
            .button("Playtest lab…")
            .on_hover_text("Change this game's rules and see their effect over thousands of bot games, with plots: win rates, intervals, verdicts, sweeps")
            .clicked()
    {
        out.labs.write(crate::client::core::open::OpenLab {
            game: Some(page.game),
            setup: page
                .setups
                .get(page.chosen)
                .filter(|s| s.title.is_ok())
                .map(|s| s.path.clone()),
            ..crate::client::core::open::OpenLab::default()
        });
    }
}

/// The scenario editor's buttons, for the games it edits: a new scenario, or the
/// chosen one.
fn scenario_buttons(
    ui: &mut egui::Ui,
    page: &GamePage,
    editors: &mut MessageWriter<crate::client::core::open::OpenEditor>,
) {
    let chess = page.game == GameKind::TankChess;
    if ui
        .button("New scenario…")
        .on_hover_text(if chess {
            "Design a setup on the 3D table: obstacles, pieces, mode; checked live (pieces at risk on the first move included), saved as RON"
        } else {
            "Design a battle on the 3D table: terrain, units, mission; checked live, saved as RON"
        })
        .clicked()
    {
        editors.write(crate::client::core::open::OpenEditor {
            chess,
            ..Default::default()
        });
    }
    let chosen = page
        .setups
        .get(page.chosen)
        .filter(|s| s.title.is_ok() && s.variant.is_none())
        .map(|s| s.path.clone());
    let name = chosen
        .as_deref()
        .and_then(std::path::Path::file_name)
        .map(|n| n.to_string_lossy().into_owned());
    if ui
        .add_enabled(chosen.is_some(), egui::Button::new("Edit scenario…"))
        .on_hover_text(format!(
            "Open {} in the scenario editor",
            name.as_deref().unwrap_or("the chosen scenario")
        ))
        .on_disabled_hover_text("Disabled: choose a scenario that reads (on the left) first; a lab variant is changed in the playtest lab")
        .clicked()
    {
        editors.write(crate::client::core::open::OpenEditor {
            path: chosen,
            size: None,
            ..Default::default()
        });
    }
}

/// The left column: a setup, the seats, and Play.
fn new_game(ui: &mut egui::Ui, page: &mut GamePage, chess_clock: &mut bool, out: &mut MenuOut) {
    let game = page.game;
    ui.heading(format!("New game of {}", game.title()));
    egui::ScrollArea::vertical()
        .id_salt(("setups", game.name()))
        .max_height(210.0)
        .show(ui, |ui| setup_list(ui, page));
    ui.add_space(4.0);
    ui.horizontal(|ui| seat_presets(ui, page));
    seat_pickers(ui, page);
    if game == GameKind::TankChess {
        ui.checkbox(chess_clock, "chess clock").on_hover_text(
            "30 minutes each on a board up to 16 squares, 45 on larger ones; running out of time loses",
        );
    }
    if game == GameKind::RangeDuel {
        duel_designs(ui, page);
    }
    ui.add_space(6.0);
    let chosen = page.setups.get(page.chosen).filter(|s| s.title.is_ok());
    ui.horizontal(|ui| {
        play_button(ui, page, chosen, *chess_clock, out);
        host_button(ui, page, chosen, out);
        if game == GameKind::TankCommander {
            customise_button(ui, page, chosen, out);
        }
    });
}

/// The game's setups, shipped, lab variants and the player's own, each with its first
/// line: clicking one picks it and seats a person against bots.
fn setup_list(ui: &mut egui::Ui, page: &mut GamePage) {
    for (i, s) in page.setups.iter().enumerate() {
        setup_group_heading(ui, &page.setups, i);
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
        if r.clicked() && page.chosen != i {
            page.chosen = i;
            page.seats = me_against_bots(s.seats, page.bots);
        }
        ui.label(egui::RichText::new(line).weak());
    }
    if page.setups.is_empty() {
        ui.label(format!("No setups found in {}/.", page.game.folder()));
    }
}

/// The heading above the first lab variant and above the first of the player's own.
fn setup_group_heading(ui: &mut egui::Ui, setups: &[ListedSetup], i: usize) {
    let s = &setups[i];
    if s.variant.is_some() && (i == 0 || setups[i - 1].variant.is_none()) {
        ui.add_space(4.0);
        ui.label(egui::RichText::new("Lab variants").strong())
            .on_hover_text(
                "A setup played with changed rules numbers: shipped in scenarios/lab/, or saved from the playtest lab",
            );
    }
    if s.mine && (i == 0 || !setups[i - 1].mine) {
        ui.add_space(4.0);
        ui.label(egui::RichText::new("My scenarios").strong())
            .on_hover_text("Saved from the scenario editor, in the data folder's scenarios/");
    }
}

/// "Seats" with its presets: hot seat, me vs bots, watch bots.
fn seat_presets(ui: &mut egui::Ui, page: &mut GamePage) {
    ui.label(egui::RichText::new("Seats").strong());
    if ui
        .small_button("hot seat")
        .on_hover_text("Everyone at one computer, taking turns")
        .clicked()
    {
        page.seats.iter_mut().for_each(|s| *s = Seat::Person);
    }
    if ui
        .small_button("me vs bots")
        .on_hover_text("You in the first seat, bots in the others")
        .clicked()
    {
        page.seats = me_against_bots(page.seats.len(), page.bots);
    }
    if ui
        .small_button("watch bots")
        .on_hover_text("Bots in every seat; you see everything")
        .clicked()
    {
        let bot = Seat::Bot(page.bots[0].to_string());
        page.seats.iter_mut().for_each(|s| *s = bot.clone());
    }
}

/// A row per seat: a person or one of the game's bots.
fn seat_pickers(ui: &mut egui::Ui, page: &mut GamePage) {
    let game = page.game;
    for (i, seat) in page.seats.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            ui.label(format!("Seat {}", i + 1));
            egui::ComboBox::from_id_salt(("menu seat", game.name(), i))
                .selected_text(seat.to_string())
                .show_ui(ui, |ui| {
                    if ui.selectable_label(seat.is_person(), "person").clicked() {
                        *seat = Seat::Person;
                    }
                    for name in page.bots {
                        let on = matches!(seat, Seat::Bot(n) if n == name);
                        if ui
                            .selectable_label(on, format!("{name} bot"))
                            .on_hover_text((page.bot_about)(name))
                            .clicked()
                        {
                            *seat = Seat::Bot((*name).to_string());
                        }
                    }
                });
        });
    }
}

/// "▶ Play": opens the chosen setup in the seats picked (the duel with its designs, a lab
/// variant as its setup), with the chess clock where asked.
fn play_button(
    ui: &mut egui::Ui,
    page: &GamePage,
    chosen: Option<&ListedSetup>,
    chess_clock: bool,
    out: &mut MenuOut,
) {
    let game = page.game;
    let play = ui.add_enabled(
        chosen.is_some(),
        egui::Button::new(egui::RichText::new("▶ Play").size(20.0)),
    );
    if play.clicked()
        && let Some(s) = chosen
    {
        out.clock.0 = chess_clock && game == GameKind::TankChess;
        let open = if game == GameKind::RangeDuel && page.picked.iter().any(Option::is_some) {
            match duel_with_designs(&s.path, page) {
                Ok(setup) => OpenGame {
                    seats: Some(page.seats.clone()),
                    ..OpenGame::setup(
                        AnySetup::RangeDuel(setup),
                        crate::data::portable_path(&s.path),
                    )
                },
                Err(e) => {
                    warn!("{e}");
                    return;
                }
            }
        } else if let (Some(setup), Ok((title, _))) = (&s.variant, &s.title) {
            OpenGame {
                seats: Some(page.seats.clone()),
                title: Some(title.clone()),
                ..OpenGame::setup(setup.clone(), title.clone())
            }
        } else {
            OpenGame {
                seats: Some(page.seats.clone()),
                ..OpenGame::file(s.path.clone())
            }
        };
        out.opens.write(open);
    }
}

/// "Host…": the chosen setup played across machines, from this window.
fn host_button(
    ui: &mut egui::Ui,
    page: &GamePage,
    chosen: Option<&ListedSetup>,
    out: &mut MenuOut,
) {
    let file = chosen.filter(|s| s.variant.is_none() && s.path.is_file());
    if ui
        .add_enabled(file.is_some(), egui::Button::new("Host…"))
        .on_hover_text("Play this setup with people on other machines: you host it, the first person's seat is yours, the others join with the room code")
        .on_disabled_hover_text("Choose a setup that is a file (a lab variant or a duel of designs is hosted from its saved file)")
        .clicked()
        && let Some(s) = file
    {
        out.network.host = Some((s.path.clone(), page.seats.clone()));
        out.network.open = true;
    }
}

/// Tank Commander's "Customise tanks…": the chosen scenario into the upgrade builder.
fn customise_button(
    ui: &mut egui::Ui,
    page: &GamePage,
    chosen: Option<&ListedSetup>,
    out: &mut MenuOut,
) {
    let build = ui.add_enabled(
        chosen.is_some_and(|s| s.variant.is_none()),
        egui::Button::new(egui::RichText::new("Customise tanks…").size(16.0)),
    );
    if build
        .on_hover_text("Spend each tank's upgrade points in the builder, then start")
        .on_disabled_hover_text("A lab variant is played with its setup's tanks")
        .clicked()
        && let Some(s) = chosen
    {
        match TankRules::load(None)
            .map_err(|d| d.to_string())
            .and_then(|r| {
                crate::rules::tank_commander::Scenario::load(&s.path, &r).map_err(|d| d.to_string())
            }) {
            Ok(scenario) => {
                out.commands.insert_resource(BuilderPlan::Scenario {
                    setup: scenario.setup,
                    source: crate::data::portable_path(&s.path),
                    seats: page.seats.clone(),
                });
                out.next.set(Screen::Builder);
            }
            Err(e) => warn!("{e}"),
        }
    }
}

/// Tank Commander's campaigns: where each stands, and its next battle.
fn campaign_list(
    ui: &mut egui::Ui,
    page: &GamePage,
    restart: &mut Option<usize>,
    asks: &mut MessageWriter<OpenCampaign>,
) {
    ui.heading("Campaigns");
    if page.campaigns.is_empty() {
        ui.label(egui::RichText::new("None in scenarios/campaigns/.").weak());
    }
    for (i, c) in page.campaigns.iter().enumerate() {
        let (name, description, battles) = match &c.campaign {
            Ok(c) => c.clone(),
            Err(e) => {
                ui.add_enabled(false, egui::Button::new(c.path.display().to_string()))
                    .on_disabled_hover_text(e);
                continue;
            }
        };
        let (status, next) = campaign_status(c, battles.len());
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(&name).strong().size(15.0))
                .on_hover_text(format!("{description}\nBattles: {}", battles.join(", ")));
            ui.label(egui::RichText::new(&status).weak());
        });
        ui.horizontal(|ui| {
            campaign_play_button(ui, page, c, next, &battles, asks);
            if c.state.is_none() {
                return;
            }
            start_over_buttons(ui, page, c, i, restart, asks);
        });
    }
    ui.add_space(6.0);
}

/// Where a campaign of `total` battles stands, in words, and the battle it plays next.
fn campaign_status(c: &ListedCampaign, total: usize) -> (String, Option<usize>) {
    match &c.state {
        None => (format!("not begun · {total} battles"), Some(0)),
        Some(Err(e)) => (format!("its saved state cannot be read: {e}"), None),
        Some(Ok(s)) if s.next >= total => {
            (format!("over: {} of {total} battles won", s.won()), None)
        }
        Some(Ok(s)) => (
            format!(
                "battle {} of {total} next · {} tank(s), {} veteran(s), {} won",
                s.next + 1,
                s.roster.len(),
                c.veterans,
                s.won()
            ),
            Some(s.next),
        ),
    }
}

/// The campaign's play button: Start, its next battle, or (when every battle is fought)
/// disabled.
fn campaign_play_button(
    ui: &mut egui::Ui,
    page: &GamePage,
    c: &ListedCampaign,
    next: Option<usize>,
    battles: &[String],
    asks: &mut MessageWriter<OpenCampaign>,
) {
    let play_label = match next {
        Some(0) if c.state.is_none() => "▶ Start".to_string(),
        Some(k) => format!(
            "▶ Battle {}: {}",
            k + 1,
            battles.get(k).map_or("", String::as_str)
        ),
        None => "▶ Play".to_string(),
    };
    let play = ui.add_enabled(next.is_some(), egui::Button::new(play_label));
    if play
        .on_hover_text(
            "Open the next battle with your company as it stands, in the seats on the left",
        )
        .on_disabled_hover_text("Every battle is fought: start it over to play again")
        .clicked()
    {
        asks.write(OpenCampaign {
            file: c.path.clone(),
            seats: page.seats.clone(),
            start_over: false,
        });
    }
}

/// "Start over" for a begun campaign, confirmed by a second click.
fn start_over_buttons(
    ui: &mut egui::Ui,
    page: &GamePage,
    c: &ListedCampaign,
    i: usize,
    restart: &mut Option<usize>,
    asks: &mut MessageWriter<OpenCampaign>,
) {
    if *restart == Some(i) {
        // Asked once already: the roster and results go only on a second click.
        if ui
            .small_button(egui::RichText::new("Really forget it all?").color(WARN))
            .on_hover_text("The roster, the veterans and every result are lost")
            .clicked()
        {
            *restart = None;
            asks.write(OpenCampaign {
                file: c.path.clone(),
                seats: page.seats.clone(),
                start_over: true,
            });
        }
        if ui.small_button("Keep it").clicked() {
            *restart = None;
        }
    } else if ui
        .small_button("Start over")
        .on_hover_text("Forget this campaign's roster and results and begin with battle 1")
        .clicked()
    {
        *restart = Some(i);
    }
}

/// The right column: Continue, saved games, any file.
fn saved_games(
    ui: &mut egui::Ui,
    page: &GamePage,
    folder: &SaveFolder,
    path: &mut String,
    opens: &mut MessageWriter<OpenGame>,
) {
    let game = page.game;
    ui.heading("Continue");
    continue_section(ui, page, folder, opens);
    ui.add_space(8.0);
    ui.heading("Saved games");
    ui.label(
        egui::RichText::new(format!("in {}", folder.saves().display()))
            .weak()
            .small(),
    );
    egui::ScrollArea::vertical()
        .id_salt(("saves", game.name()))
        .max_height(200.0)
        .show(ui, |ui| save_list(ui, page, opens));
    ui.add_space(6.0);
    any_file(ui, path, opens);
}

/// Rematch and Replay when the last game is over, else Continue it.
fn continue_section(
    ui: &mut egui::Ui,
    page: &GamePage,
    folder: &SaveFolder,
    opens: &mut MessageWriter<OpenGame>,
) {
    let game = page.game;
    if let Some(rematch) = &page.last_over {
        ui.label("The last game is over.");
        ui.horizontal(|ui| {
            if ui
                .button(egui::RichText::new("Rematch").size(16.0))
                .on_hover_text("The same setup and seats, with new dice")
                .clicked()
            {
                opens.write(rematch.clone());
            }
            if ui
                .button(egui::RichText::new("Replay").size(16.0))
                .on_hover_text("Step through the last game from its start")
                .clicked()
            {
                opens.write(OpenGame {
                    replay: true,
                    ..crate::dispatch_game!(game, OpenGame::autosave(folder))
                });
            }
        });
    } else {
        continue_button(ui, page, folder, opens);
    }
}

/// The saved games, each with Load and Replay.
fn save_list(ui: &mut egui::Ui, page: &GamePage, opens: &mut MessageWriter<OpenGame>) {
    if page.saves.is_empty() {
        ui.label("None yet: press Save during a game.");
    }
    for (save, about) in &page.saves {
        ui.horizontal(|ui| {
            ui.label(about).on_hover_text(save.display().to_string());
            let copy = is_seat_copy(save);
            if !copy
                && ui
                    .small_button("Load")
                    .on_hover_text("Play on from where it was saved")
                    .clicked()
            {
                opens.write(OpenGame::file(save.clone()));
            }
            if ui
                .small_button("Replay")
                .on_hover_text(if copy {
                    "Step through what your seat was shown of a game played across machines"
                } else {
                    "Step through it from the start"
                })
                .clicked()
            {
                opens.write(OpenGame {
                    replay: true,
                    ..OpenGame::file(save.clone())
                });
            }
        });
    }
}

/// Any file by its path, to open or replay.
fn any_file(ui: &mut egui::Ui, path: &mut String, opens: &mut MessageWriter<OpenGame>) {
    ui.label("Or any file: a setup, a scenario, a match record or a seat's copy of any game");
    ui.text_edit_singleline(path);
    ui.horizontal(|ui| {
        let p = PathBuf::from(path.trim());
        let ok = !path.trim().is_empty();
        if ui.add_enabled(ok, egui::Button::new("Open")).clicked() {
            opens.write(OpenGame::file(p.clone()));
        }
        if ui
            .add_enabled(ok, egui::Button::new("Replay"))
            .on_hover_text("A match record, stepped through from the start")
            .clicked()
        {
            opens.write(OpenGame {
                replay: true,
                ..OpenGame::file(p)
            });
        }
    });
}

fn duel_designs(ui: &mut egui::Ui, page: &mut GamePage) {
    ui.label(egui::RichText::new("Tanks").strong())
        .on_hover_text("Any design saved from the upgrade builder (Build a tank…) can duel");
    let rules = TankRules::load(None).unwrap_or_else(|_| TankRules::builtin());
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
                                let mut problems: Vec<String> = d
                                    .build
                                    .problems(UnitKind::Tank, &rules, d.painted, d.named)
                                    .into_iter()
                                    .map(|p| p.message)
                                    .collect();
                                let idle = crate::rules::range_duel::setup::idle_upgrades(&d.build);
                                // The rule that refuses the design: a duel's own, or the
                                // Tank Commander build rules it borrows.
                                let rule = if idle.is_empty() {
                                    "rd.turn.tanks"
                                } else {
                                    "rd.turn.idle-upgrades"
                                };
                                problems.extend(idle.into_iter().map(|(_, why)| why.to_string()));
                                let r = ui.add_enabled(
                                    problems.is_empty(),
                                    egui::Button::selectable(*pick == Some(k), &d.name),
                                );
                                let r = if problems.is_empty() {
                                    r
                                } else {
                                    let link = crate::client::frame::rules_ref::refusal_link(
                                        ui,
                                        &r,
                                        crate::rules::GameKind::RangeDuel,
                                        rule,
                                    );
                                    r.on_disabled_hover_text(format!(
                                        "{}\n{link}",
                                        problems.join("\n")
                                    ))
                                };
                                if r.clicked() {
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

/// The duel setup at `path` with the picked designs in the tanks' places.
fn duel_with_designs(
    path: &std::path::Path,
    page: &GamePage,
) -> Result<<RangeDuel as Playable>::Setup, String> {
    let rules = RangeDuel::load_rules(None).map_err(|d| d.to_string())?;
    let mut setup = playable::load_setup::<RangeDuel>(path, &rules).map_err(|d| d.to_string())?;
    for (i, pick) in page.picked.iter().enumerate() {
        if let Some((_, Ok(design))) = pick.and_then(|k| page.designs.get(k)) {
            setup.tanks[i] = design.clone();
        }
    }
    Ok(setup)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::range_duel::DuelSetup;

    #[test]
    fn scenarios_saved_from_the_editor_are_listed_after_the_shipped_ones() {
        let dir = std::env::temp_dir().join(format!("tt-menu-mine-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("scenarios")).unwrap();
        let shipped = crate::data::find_project_file("scenarios/skirmish.ron").unwrap();
        let text =
            std::fs::read_to_string(&shipped)
                .unwrap()
                .replacen("Skirmish", "My Own Skirmish", 1);
        std::fs::write(dir.join("scenarios/my-own.ron"), text).unwrap();
        // A Tank Chess setup in the same folder belongs to the other game's page.
        let chess = crate::data::find_project_file("scenarios/tank-chess/basic-16.ron").unwrap();
        std::fs::copy(chess, dir.join("scenarios/my-chess.ron")).unwrap();
        let page = scan::<crate::rules::tank_commander::TankCommander>(&SaveFolder(dir.clone()));
        let mine: Vec<&ListedSetup> = page.setups.iter().filter(|s| s.mine).collect();
        assert_eq!(mine.len(), 1);
        assert!(mine[0].path.ends_with("my-own.ron"));
        assert!(
            mine[0]
                .title
                .as_ref()
                .is_ok_and(|(t, _)| t.contains("My Own Skirmish"))
        );
        assert!(
            page.setups.last().is_some_and(|s| s.mine),
            "after the shipped ones"
        );
        assert!(page.setups.iter().filter(|s| !s.mine).count() > 10);
        let chess = scan::<crate::rules::tank_chess::TankChess>(&SaveFolder(dir.clone()));
        assert_eq!(chess.setups.iter().filter(|s| s.mine).count(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn lab_variants_are_listed_with_their_changes_made() {
        use crate::rules::tank_commander::TankCommander;
        let dir = std::env::temp_dir().join(format!("tt-menu-lab-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("lab")).unwrap();
        // Named as the project's file, from a folder elsewhere.
        std::fs::write(
            dir.join("lab/no-forest.ron"),
            "LabVariant(game: \"tank-commander\", setup: \"scenarios/battle.ron\", name: \"Bare woods\", changes: {\"firing.forest_penalty\": \"0\"})",
        )
        .unwrap();
        let page = scan::<TankCommander>(&SaveFolder(dir.clone()));
        let variants: Vec<&ListedSetup> =
            page.setups.iter().filter(|s| s.variant.is_some()).collect();
        let titles: Vec<String> = variants
            .iter()
            .map(|s| s.title.as_ref().unwrap().0.clone())
            .collect();
        assert!(
            titles.contains(&"River Town: Thick woods".to_string()),
            "{titles:?}"
        );
        assert_eq!(
            variants.len(),
            3,
            "two shipped, one saved from the lab: {titles:?}"
        );
        // The variant is played with its change made.
        let thick = variants
            .iter()
            .find(|s| s.path.ends_with("river-town-thick-woods.ron"))
            .unwrap();
        let Some(super::AnySetup::TankCommander(battle)) = &thick.variant else {
            panic!("a Tank Commander setup");
        };
        let base = TankCommander::load_rules(None).unwrap();
        assert_ne!(
            battle.rules.firing.forest_penalty, base.firing.forest_penalty,
            "the variant's change is made"
        );
        assert!(
            thick
                .title
                .as_ref()
                .unwrap()
                .1
                .starts_with("Lab variant: firing.")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn continue_on_a_finished_game_offers_a_rematch_and_saves_say_what_they_are() {
        use crate::framework::SeatedMatch;
        use crate::rules::range_duel::RangeDuel;
        let dir = std::env::temp_dir().join(format!("tt-menu-over-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let folder = SaveFolder(dir.clone());
        let path = crate::data::find_project_file("scenarios/range-duel/default.ron").unwrap();
        let rules = RangeDuel::load_rules(None).unwrap();
        let setup = playable::load_setup::<RangeDuel>(&path, &rules).unwrap();
        let seats = vec![Seat::Bot("heuristic".into()), Seat::Bot("random".into())];
        let mut seated =
            SeatedMatch::<RangeDuel>::new(setup, "test".into(), 3, seats.clone()).unwrap();
        seated.autoplay(2).unwrap();
        playable::save_record(&seated.record(), &folder.autosave::<RangeDuel>()).unwrap();
        let page = scan::<RangeDuel>(&folder);
        assert!(
            page.can_continue && page.last_over.is_none(),
            "a game under way"
        );
        seated.autoplay(100_000).unwrap();
        assert!(crate::framework::Game::outcome(seated.state()).is_some());
        playable::save_record(&seated.record(), &folder.autosave::<RangeDuel>()).unwrap();
        std::fs::create_dir_all(folder.saves()).unwrap();
        let save = folder.saves().join("range-duel-1.ron");
        playable::save_record(&seated.record(), &save).unwrap();
        let page = scan::<RangeDuel>(&folder);
        let rematch = page
            .last_over
            .expect("the game is over: a rematch is offered");
        assert_eq!(rematch.seats, Some(seats));
        assert!(matches!(
            rematch.source,
            crate::client::core::session::GameSource::Setup(..)
        ));
        let (_, about) = page.saves.first().expect("the save is listed");
        assert!(
            about.contains(" UTC · ") && about.contains(" actions"),
            "{about}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn dates_are_told_in_the_civil_calendar() {
        assert_eq!(utc_minute(0), "1970-01-01 00:00 UTC");
        // 2026-11-28 18:40 UTC, and a leap day.
        assert_eq!(
            utc_minute(1_795_824_000 + 18 * 3_600 + 40 * 60),
            "2026-11-28 18:40 UTC"
        );
        assert_eq!(utc_minute(951_782_400), "2000-02-29 00:00 UTC");
    }

    #[test]
    fn a_saved_design_takes_a_duel_seat() {
        // A design as the builder saves it: the default duel's second tank, renamed.
        let mut hammer = DuelSetup::builtin_default().tanks[1].clone();
        hammer.name = "Hammer".into();
        assert!(
            hammer
                .build
                .problems(
                    UnitKind::Tank,
                    &TankRules::builtin(),
                    hammer.painted,
                    hammer.named
                )
                .is_empty()
        );
        let text = crate::data::to_ron_pretty(&hammer).unwrap();
        let hammer: TankDesign = ron::from_str(&text).unwrap();
        let page = GamePage {
            game: GameKind::RangeDuel,
            setups: Vec::new(),
            chosen: 0,
            seats: vec![Seat::Person, Seat::Person],
            bots: RangeDuel::bot_names(),
            bot_about: RangeDuel::bot_about,
            saves: Vec::new(),
            can_continue: false,
            last_over: None,
            designs: vec![(PathBuf::from("hammer.ron"), Ok(hammer))],
            picked: [Some(0), None],
            campaigns: Vec::new(),
        };
        let path = crate::data::find_project_file("scenarios/range-duel/default.ron").unwrap();
        let setup = duel_with_designs(&path, &page).unwrap();
        let duel = RangeDuel::from_setup(&setup).unwrap();
        let tanks = duel.tanks();
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
