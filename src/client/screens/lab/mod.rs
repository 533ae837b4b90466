//! The playtest lab screen: pick a setup of any game and the bots, edit variants of its
//! rules in a form (every number and switch, with its meaning and the values the rules
//! accept), run N games a variant on the worker threads with a live progress bar, and
//! read the answer as plots: win rates with 95% intervals, the verdict on each variant,
//! first-move advantage, game lengths, and each game's own pictures. A sweep varies one
//! number. Results export as CSV, JSON and PNG.
//!
//! The numbers come from [`crate::lab`], exactly as `tanktable lab` computes them.

mod plots;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Instant;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::client::core::Screen;
pub use crate::client::core::open::{OpenLab, PlotTab};
use crate::client::core::saves::{lab_dir, variant_files};
use crate::client::table::theme::{TITLE, WARN, arm_color};
use crate::lab::any::{self, AnyLab, Running};
use crate::lab::doc::LeafKind;
use crate::lab::{Ask, Field, LabReport, VariantFile};
use crate::rules::GameKind;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<LabScreen>()
        .add_message::<OpenLab>()
        .add_systems(Update, (open_lab, poll_run).chain())
        .add_systems(
            EguiPrimaryContextPass,
            draw_lab.run_if(in_state(Screen::Lab)),
        );
}

/// A variant being edited.
#[derive(Clone, Debug, Default)]
struct Draft {
    name: String,
    changes: BTreeMap<String, String>,
    problems: Vec<String>,
}

/// A field of the form, with what the rules accept.
struct FormField {
    field: Field,
    accepts: Option<(i64, i64)>,
    settings: Vec<String>,
}

/// The Lab screen's state.
#[derive(Resource)]
pub struct LabScreen {
    game: GameKind,
    setups: Vec<PathBuf>,
    chosen: usize,
    backend: Option<Box<dyn AnyLab>>,
    problem: Option<String>,
    form: Vec<FormField>,
    filter: String,
    only_changed: bool,
    variants: Vec<Draft>,
    editing: usize,
    bots: Vec<String>,
    games: u32,
    seed: u64,
    threads: usize,
    /// Draw each game's choices before play at random, where the game has any.
    random_builds: bool,
    /// Pair the games by seed (and swap the seats on a seed's twin).
    paired: bool,
    /// Stop when the sequential test answers, with its δ in points and seat.
    sprt_on: bool,
    sprt_delta: f64,
    sprt_seat: usize,
    sweep_on: bool,
    sweep_field: String,
    sweep_from: i64,
    sweep_to: i64,
    sweep_step: i64,
    run: Option<Run>,
    /// The answer so far, and how many games it holds.
    pub report: Option<LabReport>,
    counted: u64,
    pub tab: PlotTab,
    status: String,
    /// Mean frame time of the screen during the last second, in ms (shown while a run
    /// uses the workers: the screen must stay responsive).
    pub frame_ms: f64,
    frames: Vec<f64>,
    variant_files: Vec<PathBuf>,
    /// A picture of the screen asked for and not yet on disk.
    png: Option<PathBuf>,
    /// The game the lab was opened from, at the table: "Back to the game" reopens it.
    pub back_to: Option<GameKind>,
    /// A folder of shard files to read, and what reading it found missing or unreadable.
    shards_dir: String,
    pub shards_notes: Vec<String>,
}

struct Run {
    running: Running,
    started: Instant,
    total: u64,
    finished: Option<f64>,
    last_build: Instant,
    /// The report being built from the results so far, off the frame: the sort and sums
    /// over every finished game grow with the run, and the screen must not wait for them.
    /// The thread hands back the report and how many games it counted.
    building: Option<std::thread::JoinHandle<(u64, LabReport)>>,
    error: Option<String>,
}

impl Default for LabScreen {
    fn default() -> Self {
        let cores = crate::lab::run::all_cores();
        Self {
            game: GameKind::TankCommander,
            setups: Vec::new(),
            chosen: 0,
            backend: None,
            problem: None,
            form: Vec::new(),
            filter: String::new(),
            only_changed: false,
            variants: vec![Draft {
                name: "B".into(),
                ..Draft::default()
            }],
            editing: 0,
            bots: Vec::new(),
            games: 1000,
            seed: 1,
            // One core's share is left to the screen.
            threads: cores.saturating_sub(1).max(1),
            random_builds: false,
            paired: true,
            sprt_on: false,
            sprt_delta: 5.0,
            sprt_seat: 0,
            sweep_on: false,
            sweep_field: String::new(),
            sweep_from: 0,
            sweep_to: 0,
            sweep_step: 1,
            run: None,
            report: None,
            counted: 0,
            tab: PlotTab::WinRates,
            status: String::new(),
            frame_ms: 0.0,
            frames: Vec::new(),
            variant_files: Vec::new(),
            png: None,
            shards_dir: lab_dir().join("shards").display().to_string(),
            shards_notes: Vec::new(),
            back_to: None,
        }
    }
}

impl LabScreen {
    /// Whether a run is going on.
    #[must_use]
    pub fn running(&self) -> bool {
        self.run.as_ref().is_some_and(|r| r.finished.is_none())
    }

    /// The worker threads a run uses.
    #[must_use]
    pub fn workers(&self) -> usize {
        self.threads
    }

    /// Games finished in the current or last run.
    #[must_use]
    pub fn finished_games(&self) -> u64 {
        self.run.as_ref().map_or(0, |r| r.running.live.finished())
    }

    fn list_setups(&mut self) {
        let folder = crate::data::find_project_file(self.game.folder())
            .unwrap_or_else(|| PathBuf::from(self.game.folder()));
        let setups =
            crate::client::core::saves::files_of(&folder, self.game, crate::rules::FileKind::Setup);
        self.setups = setups;
        self.variant_files = variant_files(self.game, &lab_dir());
    }

    /// Loads the setup at `path` and its form; keeps the variants' changes.
    fn load(&mut self, path: &std::path::Path) {
        self.cancel();
        self.report = None;
        self.run = None;
        match any::load(self.game, path) {
            Ok(backend) => {
                self.form = backend
                    .fields()
                    .unwrap_or_default()
                    .into_iter()
                    .map(|field| FormField {
                        accepts: backend.accepted(&field),
                        settings: if field.kind == LeafKind::Word {
                            backend.settings(&field.path)
                        } else {
                            Vec::new()
                        },
                        field,
                    })
                    .collect();
                let seats = backend.seats().len();
                let default = backend.bot_names()[0].to_string();
                self.bots = vec![default; seats];
                self.problem = None;
                self.backend = Some(backend);
                if !self.form.iter().any(|f| f.field.path == self.sweep_field) {
                    self.sweep_field = self
                        .form
                        .iter()
                        .find(|f| f.field.kind == LeafKind::Int)
                        .map(|f| f.field.path.clone())
                        .unwrap_or_default();
                    self.sweep_defaults();
                }
                self.recheck();
            }
            Err(e) => {
                self.problem = Some(e);
                self.backend = None;
                self.form.clear();
            }
        }
    }

    fn sweep_defaults(&mut self) {
        if let Some(f) = self.form.iter().find(|f| f.field.path == self.sweep_field) {
            let base: i64 = f.field.value.parse().unwrap_or(0);
            let (lo, hi) = f.accepts.unwrap_or((base - 2, base + 2));
            self.sweep_from = (base - 2).max(lo);
            self.sweep_to = (base + 2).min(hi);
            self.sweep_step = 1;
        }
    }

    fn recheck(&mut self) {
        let Some(backend) = &self.backend else { return };
        for v in &mut self.variants {
            v.problems = backend.check(&v.changes).err().unwrap_or_default();
        }
    }

    fn cancel(&mut self) {
        if let Some(run) = &self.run {
            run.running.live.cancel.store(true, Ordering::Relaxed);
        }
    }

    fn sweep_spec(&self) -> Option<String> {
        self.sweep_on.then(|| {
            format!(
                "{}={}..{}:{}",
                self.sweep_field, self.sweep_from, self.sweep_to, self.sweep_step
            )
        })
    }

    /// Starts the run of the variants (or the sweep) against the base.
    fn start(&mut self) {
        let Some(backend) = &self.backend else { return };
        let mut variants: Vec<(String, BTreeMap<String, String>)> = Vec::new();
        let mut sweep = None;
        if let Some(spec) = self.sweep_spec() {
            match crate::lab::parse_sweep(&spec) {
                Ok((path, values)) => {
                    variants = crate::lab::sweep_variants(&path, &values);
                    sweep = Some(path);
                }
                Err(e) => {
                    self.status = e;
                    return;
                }
            }
        } else {
            variants.extend(
                self.variants
                    .iter()
                    .filter(|v| !v.changes.is_empty())
                    .map(|v| (v.name.clone(), v.changes.clone())),
            );
        }
        let ask = Ask {
            games: self.games,
            seed: self.seed,
            bots: self.bots.clone(),
            threads: self.threads,
            draft: self.random_builds && self.backend.as_ref().is_some_and(|b| b.draws().is_some()),
            background: true,
            paired: self.paired && !variants.is_empty(),
            sprt: self.sprt_asked(variants.len()),
        };
        match backend.start(&variants, &ask, sweep) {
            Ok(running) => {
                let total = u64::from(running.question.games) * running.question.arms.len() as u64;
                self.run = Some(Run {
                    running,
                    started: Instant::now(),
                    total,
                    finished: None,
                    last_build: Instant::now(),
                    building: None,
                    error: None,
                });
                self.report = None;
                self.counted = 0;
                self.status.clear();
                self.shards_notes.clear();
                self.tab = if self.sweep_on {
                    PlotTab::Sweep
                } else {
                    PlotTab::WinRates
                };
            }
            Err(e) => self.status = e,
        }
    }

    /// Shows the merged report of the shard files in `shards_dir`, with the parts
    /// missing: a run played elsewhere, read as its shards come in.
    pub fn read_shards(&mut self) {
        if self.running() {
            return;
        }
        let dir = PathBuf::from(self.shards_dir.trim());
        match crate::lab::shard::read_folder(&dir) {
            Ok((question, merged, missing, notes)) => {
                // The shards' game, with its own setups beside them.
                if let Some(game) = GameKind::ALL
                    .into_iter()
                    .find(|g| g.title() == question.game)
                    && game != self.game
                {
                    self.game = game;
                    self.list_setups();
                    self.chosen = 0;
                    if let Some(p) = self.setups.first().cloned() {
                        self.load(&p);
                    }
                }
                let report = merged.report(question);
                let per_arm = merged.games() / report.arms.len().max(1) as u64;
                self.status = format!(
                    "Read {} from {}: {per_arm} of the {} games a variant the run asks for",
                    if missing.is_empty() {
                        "every shard".to_string()
                    } else {
                        "the shards there".to_string()
                    },
                    dir.display(),
                    report.question.games
                );
                self.counted = merged.games();
                self.report = Some(report);
                self.run = None;
                self.shards_notes = notes;
            }
            Err(e) => {
                self.shards_notes = vec![e];
            }
        }
    }

    /// The sequential test the run asks for, when it is on and the question is an A/B one
    /// (one variant, no sweep).
    fn sprt_asked(&self, variants: usize) -> Option<crate::lab::Sprt> {
        if !self.sprt_on || !self.paired || variants != 1 || self.sweep_on {
            return None;
        }
        let seats = self.backend.as_ref()?.seats();
        let seat = seats.get(self.sprt_seat).or(seats.first())?;
        Some(crate::lab::Sprt::new(seat, self.sprt_delta))
    }

    /// The report from the results so far, built here and now (when the run ends).
    fn rebuild(&mut self) {
        let Some(run) = &mut self.run else { return };
        run.building = None;
        let results = run.running.live.snapshot();
        self.counted = results.len() as u64;
        self.report = Some(LabReport::build(run.running.question.clone(), &results));
        run.last_build = Instant::now();
    }

    /// Starts building the report from the results so far on a thread of its own, unless
    /// a build is under way; `take_built` collects it.
    fn rebuild_off_frame(&mut self) {
        let Some(run) = &mut self.run else { return };
        if run.building.is_some() {
            return;
        }
        let live = run.running.live.clone();
        let question = run.running.question.clone();
        let spawned = std::thread::Builder::new()
            .name("lab report".into())
            .spawn(move || {
                crate::lab::run::run_in_background();
                // A sequential test that has answered stops the run here.
                crate::lab::watch(&question, &live);
                let results = live.snapshot();
                (results.len() as u64, LabReport::build(question, &results))
            });
        match spawned {
            Ok(thread) => {
                run.building = Some(thread);
                run.last_build = Instant::now();
            }
            Err(_) => self.rebuild(),
        }
    }

    /// Takes the report a thread finished building, if one did.
    fn take_built(&mut self) {
        let Some(run) = &mut self.run else { return };
        if !run.building.as_ref().is_some_and(|b| b.is_finished()) {
            return;
        }
        // A build that panicked leaves the last report standing; the next one is due.
        if let Some(Ok((counted, report))) = run.building.take().map(|b| b.join()) {
            self.counted = counted;
            self.report = Some(report);
        }
    }
}

fn open_lab(
    mut opens: MessageReader<OpenLab>,
    mut lab: ResMut<LabScreen>,
    mut next: ResMut<NextState<Screen>>,
) {
    for open in opens.read() {
        let lab = &mut *lab;
        if let Some(game) = open.game {
            lab.game = game;
        }
        lab.list_setups();
        let path = open
            .setup
            .clone()
            .or_else(|| crate::data::find_project_file(lab.game.default_setup()))
            .unwrap_or_else(|| PathBuf::from(lab.game.default_setup()));
        lab.chosen = lab
            .setups
            .iter()
            .position(|p| same_file(p, &path))
            .unwrap_or_else(|| {
                lab.setups.push(path.clone());
                lab.setups.len() - 1
            });
        if !open.variants.is_empty() {
            lab.variants = open
                .variants
                .iter()
                .map(|(name, changes)| Draft {
                    name: name.clone(),
                    changes: changes.clone(),
                    problems: Vec::new(),
                })
                .collect();
            lab.editing = 0;
        }
        if let Some(games) = open.games {
            lab.games = games;
        }
        lab.random_builds = open.random_builds;
        lab.sprt_on = open.sprt.is_some();
        if let Some(delta) = open.sprt {
            lab.sprt_delta = delta;
            lab.sprt_seat = 0;
            lab.paired = true;
        }
        lab.load(&path);
        if let Some(spec) = &open.sweep
            && let Ok((field, values)) = crate::lab::parse_sweep(spec)
        {
            lab.sweep_on = true;
            lab.sweep_field = field;
            lab.sweep_from = values.first().and_then(|v| v.parse().ok()).unwrap_or(0);
            lab.sweep_to = values.last().and_then(|v| v.parse().ok()).unwrap_or(0);
            lab.sweep_step = match values.as_slice() {
                [a, b, ..] => b.parse::<i64>().unwrap_or(1) - a.parse::<i64>().unwrap_or(0),
                _ => 1,
            };
        }
        lab.back_to = open.from_table.then_some(lab.game);
        if open.run {
            lab.start();
        }
        if let Some(dir) = &open.shards {
            lab.shards_dir = dir.display().to_string();
            lab.read_shards();
        }
        if let Some(tab) = open.tab {
            lab.tab = tab;
        }
        next.set(Screen::Lab);
    }
}

fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Follows the run: the report is rebuilt from the results four times a second, off the
/// frame, and once more, at once, when the run ends.
fn poll_run(mut lab: ResMut<LabScreen>, time: Res<Time>) {
    let lab = &mut *lab;
    if lab.frames.len() >= 60 {
        lab.frames.remove(0);
    }
    lab.frames.push(f64::from(time.delta_secs()) * 1000.0);
    lab.frame_ms = lab.frames.iter().sum::<f64>() / lab.frames.len().max(1) as f64;
    if lab.run.as_ref().is_none_or(|run| run.finished.is_some()) {
        return;
    }
    lab.take_built();
    let Some(run) = &mut lab.run else { return };
    let done = run.running.is_done();
    let due = run.last_build.elapsed().as_secs_f64() > 0.25;
    let more = run.running.live.finished() != lab.counted;
    if done {
        run.finished = Some(run.started.elapsed().as_secs_f64());
        if let Err(e) = run.running.join() {
            run.error = Some(e);
        }
        lab.rebuild();
    } else if due && more {
        lab.rebuild_off_frame();
    }
}

fn draw_lab(
    mut contexts: EguiContexts,
    mut lab: ResMut<LabScreen>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
    folder: Res<crate::client::core::session::SaveFolder>,
    mut opens: MessageWriter<crate::client::core::session::OpenGame>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lab = &mut *lab;
    if lab.running() {
        // Keep drawing while the plots fill in.
        ctx.request_repaint();
    }
    let mut screen = egui::Ui::new(
        ctx.clone(),
        "lab".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let mut back = false;
    egui::Panel::top("lab-header").show(&mut screen, |ui| {
        back = header(ui, lab, &mut next);
    });
    if back && let Some(game) = lab.back_to.take() {
        // The game left the table for the lab and was autosaved: Continue it.
        opens.write(crate::dispatch_game!(
            game,
            crate::client::core::session::OpenGame::autosave(&folder)
        ));
    }
    egui::Panel::left("lab-variants")
        .resizable(false)
        .exact_size(430.0)
        .show(&mut screen, |ui| variants_panel(ui, lab));
    egui::CentralPanel::default().show(&mut screen, |ui| {
        run_panel(ui, lab, &mut commands);
        ui.separator();
        plots::show(ui, lab);
    });
    Ok(())
}

/// The lab's title bar: the way out, the games, the setup. True when "Back to the game"
/// was clicked.
fn header(ui: &mut egui::Ui, lab: &mut LabScreen, next: &mut NextState<Screen>) -> bool {
    ui.add_space(4.0);
    let back = ui.horizontal(|ui| title_row(ui, lab, next)).inner;
    ui.horizontal(|ui| {
        setup_picker(ui, lab);
        bot_pickers(ui, lab);
    });
    if let Some(p) = &lab.problem {
        ui.colored_label(WARN, p);
    }
    ui.add_space(2.0);
    back
}

/// The title row: the way back to the game, the menu, the title and the games' tabs.
/// True when "Back to the game" was clicked.
fn title_row(ui: &mut egui::Ui, lab: &mut LabScreen, next: &mut NextState<Screen>) -> bool {
    let mut back = false;
    if let Some(game) = lab.back_to {
        back = ui
            .button("◀ Back to the game")
            .on_hover_text(format!(
                "Back to the {} game this lab was opened from, where it was (a run goes on until it ends or you cancel it)",
                game.title()
            ))
            .clicked();
    }
    if ui
        .button("☰ Menu")
        .on_hover_text("Back to the main menu (a run goes on until it ends or you cancel it)")
        .clicked()
    {
        next.set(Screen::Menu);
    }
    ui.heading(egui::RichText::new("PLAYTEST LAB").strong().color(TITLE));
    ui.separator();
    game_tabs(ui, lab);
    back
}

/// A tab per game: picking another loads its first setup with one fresh variant.
fn game_tabs(ui: &mut egui::Ui, lab: &mut LabScreen) {
    let before = lab.game;
    for game in GameKind::ALL {
        ui.selectable_value(&mut lab.game, game, game.title());
    }
    if lab.game != before {
        lab.list_setups();
        lab.chosen = 0;
        lab.variants = vec![Draft {
            name: "B".into(),
            ..Draft::default()
        }];
        lab.editing = 0;
        lab.sweep_field.clear();
        if let Some(p) = lab.setups.first().cloned() {
            lab.load(&p);
        }
    }
}

/// The setup's list of files: picking one loads it.
fn setup_picker(ui: &mut egui::Ui, lab: &mut LabScreen) {
    ui.label("Setup:");
    let names: Vec<String> = lab
        .setups
        .iter()
        .map(|p| {
            p.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        })
        .collect();
    let mut chosen = lab.chosen;
    egui::ComboBox::from_id_salt("lab-setup")
        .selected_text(names.get(chosen).cloned().unwrap_or_default())
        .width(220.0)
        .show_ui(ui, |ui| {
            for (i, n) in names.iter().enumerate() {
                ui.selectable_value(&mut chosen, i, n);
            }
        });
    if chosen != lab.chosen {
        lab.chosen = chosen;
        if let Some(p) = lab.setups.get(chosen).cloned() {
            lab.load(&p);
        }
    }
}

/// A bot picker for each seat of the loaded setup.
fn bot_pickers(ui: &mut egui::Ui, lab: &mut LabScreen) {
    if let Some(backend) = &lab.backend {
        let seats = backend.seats();
        let names = backend.bot_names();
        ui.separator();
        ui.label("Bots:");
        for (i, seat) in seats.iter().enumerate() {
            if let Some(bot) = lab.bots.get_mut(i) {
                egui::ComboBox::from_id_salt(("lab-bot", i))
                    .selected_text(format!("{seat}: {bot}"))
                    .show_ui(ui, |ui| {
                        for n in names {
                            ui.selectable_value(bot, (*n).to_string(), *n);
                        }
                    })
                    .response
                    .on_hover_text(format!("The bot that plays {seat} in every game"));
            }
        }
    }
}

/// The left panel: the variants' tabs, the edited one's name and files, and its form.
fn variants_panel(ui: &mut egui::Ui, lab: &mut LabScreen) {
    ui.add_space(4.0);
    ui.heading("Variants");
    ui.label(
        egui::RichText::new("A is the setup as it is. Each variant changes some numbers or switches; the same seeds play every variant, so a difference is the rules', not the dice's.")
            .weak(),
    );
    ui.horizontal_wrapped(|ui| variant_tabs(ui, lab));
    edited_variant(ui, lab);
    ui.separator();
    ui.horizontal(|ui| {
        ui.label("Find:");
        ui.add(
            egui::TextEdit::singleline(&mut lab.filter)
                .hint_text("forest, armor, hp…")
                .desired_width(170.0),
        );
        ui.checkbox(&mut lab.only_changed, "changed only");
    });
    form(ui, lab);
}

/// The base's name, a tab per variant to edit, and "+ Variant".
fn variant_tabs(ui: &mut egui::Ui, lab: &mut LabScreen) {
    ui.label(egui::RichText::new("A (base)").color(arm_color(0)));
    for (i, v) in lab.variants.iter().enumerate() {
        let text = egui::RichText::new(format!("{} ({})", v.name, v.changes.len()))
            .color(arm_color(i + 1));
        if ui
            .selectable_label(lab.editing == i, text)
            .on_hover_text("Edit this variant")
            .clicked()
        {
            lab.editing = i;
        }
    }
    if ui
        .small_button("+ Variant")
        .on_hover_text("A new variant to compare with the base")
        .clicked()
    {
        let name = ["B", "C", "D", "E", "F"]
            .into_iter()
            .find(|n| !lab.variants.iter().any(|v| v.name == *n))
            .unwrap_or("G");
        lab.variants.push(Draft {
            name: name.into(),
            ..Draft::default()
        });
        lab.editing = lab.variants.len() - 1;
    }
}

/// The edited variant's name, Save and Remove, the saved variants to load, and what
/// its changes break.
fn edited_variant(ui: &mut egui::Ui, lab: &mut LabScreen) {
    let editing = lab.editing.min(lab.variants.len().saturating_sub(1));
    lab.editing = editing;
    let can_remove = lab.variants.len() > 1;
    let mut remove = false;
    let mut save = false;
    let mut load: Option<PathBuf> = None;
    if let Some(v) = lab.variants.get_mut(editing) {
        (save, remove) = ui.horizontal(|ui| name_row(ui, v, can_remove)).inner;
    }
    if !lab.variant_files.is_empty() {
        load = ui
            .horizontal(|ui| load_picker(ui, &lab.variant_files))
            .inner;
    }
    if remove {
        lab.variants.remove(editing);
        lab.editing = 0;
    }
    if save {
        save_variant(lab, editing);
    }
    if let Some(path) = load {
        load_variant(lab, &path);
    }
    if let Some(v) = lab.variants.get(lab.editing) {
        for p in &v.problems {
            ui.colored_label(WARN, p);
        }
    }
}

/// The variant's name with its Save and Remove buttons: whether each was clicked, as
/// (save, remove).
fn name_row(ui: &mut egui::Ui, v: &mut Draft, can_remove: bool) -> (bool, bool) {
    let mut save = false;
    let mut remove = false;
    ui.label("Name:");
    ui.add(egui::TextEdit::singleline(&mut v.name).desired_width(120.0));
    if ui
        .add_enabled(!v.changes.is_empty(), egui::Button::new("Save"))
        .on_hover_text(
            "Save this variant as a small RON file of its changes, in the data folder's lab/",
        )
        .on_disabled_hover_text("Change a field first: a variant is its changes")
        .clicked()
    {
        save = true;
    }
    if ui
        .add_enabled(can_remove, egui::Button::new("Remove"))
        .on_disabled_hover_text("There must be one variant to edit")
        .clicked()
    {
        remove = true;
    }
    (save, remove)
}

/// The saved variants' list: the file picked to load, if any.
fn load_picker(ui: &mut egui::Ui, files: &[PathBuf]) -> Option<PathBuf> {
    let mut load = None;
    ui.label("Load:");
    egui::ComboBox::from_id_salt("lab-load")
        .selected_text("a saved variant…")
        .width(260.0)
        .show_ui(ui, |ui| {
            for f in files {
                let n = f
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                if ui.selectable_label(false, n).clicked() {
                    load = Some(f.clone());
                }
            }
        });
    load
}

fn save_variant(lab: &mut LabScreen, i: usize) {
    let (Some(v), Some(setup)) = (lab.variants.get(i), lab.setups.get(lab.chosen)) else {
        return;
    };
    let dir = lab_dir();
    let file = VariantFile {
        game: lab.game.name().to_string(),
        // A shipped setup by its name in the project (`scenarios/battle.ron`), found
        // from anywhere; another by its full path.
        setup: Some(crate::data::portable_path(setup)),
        name: v.name.clone(),
        changes: v.changes.clone(),
    };
    let slug = crate::client::core::session::slug(&v.name);
    let path = dir.join(format!("{}-{slug}.ron", lab.game.name()));
    let _ = std::fs::create_dir_all(&dir);
    lab.status = match file.save(&path) {
        Ok(()) => format!("Saved {}", path.display()),
        Err(e) => e,
    };
    lab.variant_files = variant_files(lab.game, &lab_dir());
}

fn load_variant(lab: &mut LabScreen, path: &std::path::Path) {
    let read = std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|t| VariantFile::parse(path, &t).map_err(|d| d.to_string()));
    match read {
        Ok(v) => {
            lab.variants.push(Draft {
                name: v.name,
                changes: v.changes,
                problems: Vec::new(),
            });
            lab.editing = lab.variants.len() - 1;
            lab.recheck();
            lab.status = format!("Loaded {}", path.display());
        }
        Err(e) => lab.status = e,
    }
}

/// The form: every field of the tuning, grouped as in the rules file, with the base
/// value and the edited variant's.
fn form(ui: &mut egui::Ui, lab: &mut LabScreen) {
    let filter = lab.filter.to_lowercase();
    let editing = lab.editing;
    let mut changed = false;
    let Some(draft) = lab.variants.get_mut(editing) else {
        return;
    };
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let mut group: Option<&str> = None;
            let mut open = true;
            for f in &lab.form {
                let field = &f.field;
                let edited = draft.changes.get(&field.path).cloned();
                if lab.only_changed && edited.is_none() {
                    continue;
                }
                if !filter.is_empty()
                    && !field.path.to_lowercase().contains(&filter)
                    && !field.meaning.to_lowercase().contains(&filter)
                {
                    continue;
                }
                if group != Some(field.group.as_str()) {
                    group = Some(field.group.as_str());
                    let title = if field.group.is_empty() {
                        "general"
                    } else {
                        field.group.as_str()
                    };
                    ui.add_space(3.0);
                    open = true;
                    ui.label(egui::RichText::new(title).strong().color(TITLE));
                }
                if !open {
                    continue;
                }
                ui.horizontal(|ui| {
                    if field_row(ui, f, draft, edited.as_ref(), editing) {
                        changed = true;
                    }
                });
            }
        });
    if changed {
        lab.recheck();
    }
}

/// One field's row of the form: its name (its meaning on hover), its editor, and the
/// way back to the base value. True when the draft changed.
fn field_row(
    ui: &mut egui::Ui,
    f: &FormField,
    draft: &mut Draft,
    edited: Option<&String>,
    editing: usize,
) -> bool {
    let field = &f.field;
    let mut changed = false;
    let name = field
        .path
        .strip_prefix(&format!("{}.", field.group))
        .unwrap_or(&field.path);
    let color = if edited.is_some() {
        arm_color(editing + 1)
    } else {
        ui.visuals().text_color()
    };
    let hover = field_hover(f);
    ui.add_sized(
        [200.0, 18.0],
        egui::Label::new(egui::RichText::new(name).color(color)).truncate(),
    )
    .on_hover_text(hover);
    let value = edited.cloned().unwrap_or_else(|| field.value.clone());
    let new_value = field_editor(ui, f, &value);
    if edited.is_some() {
        ui.label(
            egui::RichText::new(format!("was {}", field.value))
                .weak()
                .small(),
        );
        if ui
            .small_button("↺")
            .on_hover_text("Back to the base value")
            .clicked()
        {
            draft.changes.remove(&field.path);
            changed = true;
        }
    }
    if let Some(v) = new_value {
        if v == field.value {
            draft.changes.remove(&field.path);
        } else {
            draft.changes.insert(field.path.clone(), v);
        }
        changed = true;
    }
    changed
}

/// A field's hover text: its path, its meaning, what the rules accept and the base value.
fn field_hover(f: &FormField) -> String {
    let field = &f.field;
    let accepts = match (f.field.kind, f.accepts) {
        (LeafKind::Int, Some((lo, hi))) => {
            format!("\nThe rules accept {lo} to {hi} here.")
        }
        (LeafKind::Word, _) if !f.settings.is_empty() => {
            format!("\nSettings: {}.", f.settings.join(", "))
        }
        _ => String::new(),
    };
    format!(
        "{}\n{}{}\nBase value: {}",
        field.path,
        if field.meaning.is_empty() {
            "(no comment in the rules file)"
        } else {
            &field.meaning
        },
        accepts,
        field.value
    )
}

/// The editor of a field's value, by its kind: the new value when it was changed.
fn field_editor(ui: &mut egui::Ui, f: &FormField, value: &str) -> Option<String> {
    let field = &f.field;
    let mut new_value: Option<String> = None;
    match field.kind {
        LeafKind::Int => {
            let mut v: i64 = value.parse().unwrap_or(0);
            let (lo, hi) = f.accepts.unwrap_or((v.min(-1000), v.max(1000)));
            if ui
                .add(egui::DragValue::new(&mut v).range(lo..=hi).speed(0.1))
                .changed()
            {
                new_value = Some(v.to_string());
            }
        }
        LeafKind::Float => {
            let mut v: f64 = value.parse().unwrap_or(0.0);
            if ui.add(egui::DragValue::new(&mut v).speed(0.05)).changed() {
                new_value = Some(format!("{v:?}"));
            }
        }
        LeafKind::Bool => {
            let mut v = value == "true";
            if ui.checkbox(&mut v, "").changed() {
                new_value = Some(v.to_string());
            }
        }
        LeafKind::Word => {
            let mut v = value.to_string();
            egui::ComboBox::from_id_salt(("lab-field", &field.path))
                .selected_text(&v)
                .width(110.0)
                .show_ui(ui, |ui| {
                    for s in &f.settings {
                        ui.selectable_value(&mut v, s.clone(), s);
                    }
                });
            if v != value {
                new_value = Some(v);
            }
        }
        LeafKind::Text => {}
    }
    new_value
}

/// The run's panel: its settings, the sequential test, the sweep, Run with its
/// progress, the exports and shards, and the status line.
fn run_panel(ui: &mut egui::Ui, lab: &mut LabScreen, commands: &mut Commands) {
    ui.add_space(4.0);
    let running = lab.running();
    ui.horizontal(|ui| run_settings(ui, lab, running));
    // The sequential test: for an A/B question (one variant, no sweep).
    let variants = lab
        .variants
        .iter()
        .filter(|v| !v.changes.is_empty())
        .count();
    if !lab.sweep_on && variants == 1 {
        ui.horizontal(|ui| sprt_row(ui, lab, running));
    }
    if lab.sweep_on {
        ui.horizontal(|ui| sweep_row(ui, lab));
    }
    ui.horizontal(|ui| {
        run_button(ui, lab, running);
        run_progress(ui, lab);
    });
    if let Some(e) = lab.run.as_ref().and_then(|r| r.error.clone()) {
        ui.colored_label(WARN, e);
    }
    ui.horizontal(|ui| {
        if let Some(report) = lab.report.clone() {
            ui.label("Export:");
            export_buttons(ui, lab, &report, commands);
            ui.separator();
        }
        shards_row(ui, lab, running);
    });
    for note in &lab.shards_notes {
        ui.colored_label(WARN, note);
    }
    // The screenshot is written a few frames later: then say so.
    if let Some(path) = lab.png.take_if(|p| p.is_file()) {
        lab.status = format!("Wrote {}", path.display());
    }
    if !lab.status.is_empty() {
        ui.label(egui::RichText::new(&lab.status).weak());
    }
}

/// The run's numbers and switches: games, seed, workers, sweep, random builds, pairing.
fn run_settings(ui: &mut egui::Ui, lab: &mut LabScreen, running: bool) {
    ui.label("Games per variant:");
    ui.add_enabled(
        !running,
        egui::DragValue::new(&mut lab.games)
            .range(10..=200_000)
            .speed(10.0),
    );
    ui.label("Seed:");
    ui.add_enabled(!running, egui::DragValue::new(&mut lab.seed));
    ui.label("Workers:");
    let cores = crate::lab::run::all_cores();
    ui.add_enabled(!running, egui::DragValue::new(&mut lab.threads).range(1..=cores.max(1)))
        .on_hover_text(format!("Worker threads for the games ({cores} cores here; by default one core's share is left to the screen)"));
    ui.separator();
    ui.add_enabled(!running, egui::Checkbox::new(&mut lab.sweep_on, "Sweep one number"))
        .on_hover_text("Run the base and one variant for each value of one field, and plot the win rate against it");
    let draws = lab.backend.as_ref().and_then(|b| b.draws());
    ui.add_enabled(
        !running && draws.is_some(),
        egui::Checkbox::new(&mut lab.random_builds, "Random builds"),
    )
    .on_hover_text(match draws {
        Some(what) => format!("Draw {what}, and plot each upgrade's worth: its side's win rate when taken against without (Value when taken)"),
        None => "Disabled: this game has no choices made before play to draw".to_string(),
    })
    .on_disabled_hover_text(match draws {
        Some(_) => "Disabled while a run is going on".to_string(),
        None => format!("Disabled: {} has no choices made before play to draw", lab.game.title()),
    });
    ui.add_enabled(!running, egui::Checkbox::new(&mut lab.paired, "Paired games"))
        .on_hover_text("Compare each variant with the base seed by seed and, where chance decides who moves first, play every seed a second time with the first move given to the other seat: the first move and a lucky seed no longer blur the verdict, and its interval narrows");
}

/// The sequential test's switch, with its δ and seat when on.
fn sprt_row(ui: &mut egui::Ui, lab: &mut LabScreen, running: bool) {
    let why_not = if !lab.paired {
        Some("Disabled: the sequential test reads paired games")
    } else {
        None
    };
    ui.add_enabled(
        !running && why_not.is_none(),
        egui::Checkbox::new(&mut lab.sprt_on, "Stop when the answer is known"),
    )
    .on_hover_text("A sequential test (SPRT): stop as soon as the games say, at 5% error each way, whether the variant moves the seat's win rate by at least δ points; Games per variant is then the most it plays")
    .on_disabled_hover_text(why_not.unwrap_or("Disabled while a run is going on"));
    if lab.sprt_on && why_not.is_none() {
        ui.label("δ");
        ui.add_enabled(
            !running,
            egui::DragValue::new(&mut lab.sprt_delta)
                .range(0.5..=50.0)
                .speed(0.5)
                .suffix(" points"),
        )
        .on_hover_text("The smallest change of the win rate worth knowing");
        let seats = lab.backend.as_ref().map(|b| b.seats()).unwrap_or_default();
        let shown = seats.get(lab.sprt_seat).cloned().unwrap_or_default();
        ui.add_enabled_ui(!running, |ui| {
            egui::ComboBox::from_id_salt("lab-sprt-seat")
                .selected_text(format!("for {shown}"))
                .show_ui(ui, |ui| {
                    for (i, s) in seats.iter().enumerate() {
                        ui.selectable_value(&mut lab.sprt_seat, i, s);
                    }
                });
        });
    }
}

/// The sweep's field and its range of values.
fn sweep_row(ui: &mut egui::Ui, lab: &mut LabScreen) {
    ui.label("Field:");
    let before = lab.sweep_field.clone();
    egui::ComboBox::from_id_salt("lab-sweep")
        .selected_text(&lab.sweep_field)
        .width(260.0)
        .show_ui(ui, |ui| {
            for f in lab.form.iter().filter(|f| f.field.kind == LeafKind::Int) {
                ui.selectable_value(&mut lab.sweep_field, f.field.path.clone(), &f.field.path);
            }
        });
    if lab.sweep_field != before {
        lab.sweep_defaults();
    }
    let (lo, hi) = lab
        .form
        .iter()
        .find(|f| f.field.path == lab.sweep_field)
        .and_then(|f| f.accepts)
        .unwrap_or((-1000, 1000));
    ui.label("from");
    ui.add(egui::DragValue::new(&mut lab.sweep_from).range(lo..=hi));
    ui.label("to");
    ui.add(egui::DragValue::new(&mut lab.sweep_to).range(lo..=hi));
    ui.label("step");
    ui.add(egui::DragValue::new(&mut lab.sweep_step).range(1..=100));
}

/// Cancel while a run goes on, else Run (disabled, and why, when it cannot).
fn run_button(ui: &mut egui::Ui, lab: &mut LabScreen, running: bool) {
    let problems: Vec<String> = lab
        .variants
        .iter()
        .flat_map(|v| v.problems.iter().map(move |p| format!("{}: {p}", v.name)))
        .collect();
    let nothing = !lab.sweep_on && lab.variants.iter().all(|v| v.changes.is_empty());
    let why = if lab.backend.is_none() {
        Some("No setup is loaded".to_string())
    } else if !problems.is_empty() && !lab.sweep_on {
        Some(format!(
            "A variant breaks the rules: {}",
            problems.join("; ")
        ))
    } else if lab.sweep_on && lab.sweep_from > lab.sweep_to {
        Some("The sweep must run upwards".to_string())
    } else {
        None
    };
    if running {
        if ui
            .button("Cancel")
            .on_hover_text("Stop now: the games finished so far are kept")
            .clicked()
        {
            lab.cancel();
        }
    } else if ui
        .add_enabled(
            why.is_none(),
            egui::Button::new(egui::RichText::new("▶ Run").strong()),
        )
        .on_hover_text(if nothing {
            "Play the base alone (change a field to compare a variant)"
        } else {
            "Play every variant's games on the workers"
        })
        .on_disabled_hover_text(why.clone().unwrap_or_default())
        .clicked()
    {
        lab.start();
    }
}

/// The run's progress bar, its speed and the screen's frame time.
fn run_progress(ui: &mut egui::Ui, lab: &LabScreen) {
    if let Some(run) = &lab.run {
        let done = run.running.live.finished();
        let elapsed = run
            .finished
            .unwrap_or_else(|| run.started.elapsed().as_secs_f64());
        // A sequential test that answered stopped the run: the bar says so.
        let answered = lab
            .report
            .as_ref()
            .filter(|r| r.sprt.as_ref().is_some_and(|t| t.reading.answer.is_some()))
            .and_then(|r| r.arms.get(1))
            .filter(|_| run.finished.is_some());
        let (fraction, words) = match answered {
            Some(arm) => (
                1.0,
                format!("answered: {} games a variant, {done} played", arm.games),
            ),
            None => (
                done as f32 / run.total.max(1) as f32,
                format!("{done} / {} games", run.total),
            ),
        };
        ui.add(
            egui::ProgressBar::new(fraction)
                .desired_width(300.0)
                .text(words),
        )
        .on_hover_text("Games played over every variant; a sequential test that answers stops the run, and its report holds the seeds the test read");
        ui.label(format!(
            "{:.0} games/s · {elapsed:.1} s · screen {:.0} ms/frame",
            done as f64 / elapsed.max(1e-6),
            lab.frame_ms
        ));
    }
}

/// The report's exports: CSV, the games' CSV, JSON and a PNG of the screen.
fn export_buttons(
    ui: &mut egui::Ui,
    lab: &mut LabScreen,
    report: &LabReport,
    commands: &mut Commands,
) {
    if ui
        .button("CSV")
        .on_hover_text("A line per variant and seat")
        .clicked()
    {
        let csv = report.to_csv();
        lab.status = export(lab, "csv", &csv);
    }
    if ui
        .button("Games CSV")
        .on_hover_text("A line per game")
        .clicked()
    {
        let results = lab
            .run
            .as_ref()
            .map(|r| r.running.live.snapshot())
            .unwrap_or_default();
        let csv = crate::lab::report::games_csv(&report.question, &results);
        lab.status = export(lab, "games.csv", &csv);
    }
    if ui
        .button("JSON")
        .on_hover_text("The whole report, as `tanktable lab --json` prints it")
        .clicked()
    {
        lab.status = match report.to_json() {
            Ok(json) => export(lab, "json", &json),
            Err(e) => e,
        };
    }
    if ui
        .button("PNG")
        .on_hover_text("A picture of this screen, plots and all")
        .clicked()
    {
        save_png(lab, commands);
    }
}

/// Asks for a picture of the window, written to the lab's folder a few frames later.
fn save_png(lab: &mut LabScreen, commands: &mut Commands) {
    let path = export_path(lab, "png");
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(path.clone()));
    lab.status = format!("Saving {}…", path.display());
    lab.png = Some(path);
}

/// The shards' folder and the button that reads it.
fn shards_row(ui: &mut egui::Ui, lab: &mut LabScreen, running: bool) {
    ui.label("Shards:");
    ui.add(egui::TextEdit::singleline(&mut lab.shards_dir).desired_width(300.0))
        .on_hover_text("A folder of shard files, written by `tanktable lab … --shard I/N --out FILE` on this or other machines");
    if ui
        .add_enabled(!running, egui::Button::new("Read"))
        .on_hover_text("Show the report of the shards in the folder, merged, with the parts still missing (read again as more come in)")
        .on_disabled_hover_text("Disabled while a run is going on")
        .clicked()
    {
        lab.read_shards();
    }
}

fn export_path(lab: &LabScreen, extension: &str) -> PathBuf {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let setup = lab
        .setups
        .get(lab.chosen)
        .and_then(|p| p.file_stem())
        .map_or_else(|| "lab".to_string(), |s| s.to_string_lossy().into_owned());
    lab_dir().join(format!("{}-{setup}-{stamp}.{extension}", lab.game.name()))
}

fn export(lab: &LabScreen, extension: &str, text: &str) -> String {
    let path = export_path(lab, extension);
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    match crate::data::write_atomic(&path, text) {
        Ok(()) => format!("Wrote {}", path.display()),
        Err(e) => format!("cannot write {}: {e}", path.display()),
    }
}
