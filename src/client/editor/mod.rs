//! The scenario editor screen: a Tank Commander scenario on the 3D table, painted with
//! terrain brushes, peopled with units and mission pieces, made fair with the symmetry
//! tools, checked live (every problem listed and marked on the table), with undo and
//! redo, saved as RON, and played or balanced in one click.
//!
//! Clicks and keys become [`EditorOrder`]s; [`crate::editor::HexEditor`] makes the
//! edits and checks them; the table and the panels show the design.

mod panels;
mod table;

use std::path::{Path, PathBuf};
use std::time::Instant;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::EguiPrimaryContextPass;

use super::Screen;
use crate::editor::{Edit, HexEditor, Terrain};
use crate::lab::any::Running;
use crate::rules::tank_commander::setup::UnitSetup;
use crate::rules::tank_commander::{Rules, UnitKind};

/// The editor's logic: its state, its orders, saving and autosaving, balance runs. It
/// needs no window (headless tests run it).
pub(super) fn logic(app: &mut App) {
    app.init_resource::<EditorScreen>()
        .add_message::<OpenEditor>()
        .add_message::<EditorOrder>()
        .add_systems(
            Update,
            (open_editor, obey, autosave, poll_balance)
                .chain()
                .in_set(EditorSystems),
        );
}

/// The editor on screen: clicks and keys, the table, the panels.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (pointer, keys)
            .before(EditorSystems)
            .run_if(in_state(Screen::Editor))
            .run_if(not(super::input::typing)),
    )
    .add_systems(
        EguiPrimaryContextPass,
        panels::draw.run_if(in_state(Screen::Editor)),
    )
    .add_plugins(table::plugin);
}

/// The editor's logic systems: orders are carried out here.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EditorSystems;

/// Opens the editor on a scenario file, or on a new blank board.
#[derive(Message, Clone, Debug, Default)]
pub struct OpenEditor {
    /// The scenario to edit; a new board when `None`.
    pub path: Option<PathBuf>,
    /// The new board's size (default 12 × 12).
    pub size: Option<(u16, u16)>,
}

/// What the designer asks of the editor.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum EditorOrder {
    /// One edit, one undo step.
    Edit(Edit),
    /// Part of a brush stroke: the stroke is one undo step.
    Stroke(Edit),
    /// The mouse button is up: the stroke is over.
    EndStroke,
    Undo,
    Redo,
    /// Save to the design's file, or to this one.
    Save(Option<PathBuf>),
}

/// What a click on the table does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Tool {
    /// Pick a unit; with one picked, click a hex to move it there.
    #[default]
    Select,
    /// Paint the chosen terrain under the brush.
    Terrain,
    /// Fill the area of one terrain with the chosen one.
    Fill,
    /// Paint open ground and clear smoke under the brush.
    Erase,
    /// Lay smoke under the brush (right button clears it).
    Smoke,
    /// Place a unit of the chosen kind and side.
    Unit,
    /// Mark or unmark an objective.
    Objective,
    /// Lay or lift a mine of the chosen side.
    Mine,
}

impl Tool {
    pub const ALL: [Tool; 8] = [
        Tool::Select,
        Tool::Terrain,
        Tool::Fill,
        Tool::Erase,
        Tool::Smoke,
        Tool::Unit,
        Tool::Objective,
        Tool::Mine,
    ];

    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            Tool::Select => "Select",
            Tool::Terrain => "Terrain",
            Tool::Fill => "Fill",
            Tool::Erase => "Erase",
            Tool::Smoke => "Smoke",
            Tool::Unit => "Unit",
            Tool::Objective => "Objective",
            Tool::Mine => "Mine",
        }
    }

    #[must_use]
    pub fn hint(self) -> &'static str {
        match self {
            Tool::Select => {
                "Click a unit to pick it (its card opens on the left); with a unit picked, click an empty hex to move it there. [ and ] turn its hull, Shift+[ and ] its turret, Delete removes it"
            }
            Tool::Terrain => "Click or drag to paint the chosen terrain under the brush",
            Tool::Fill => {
                "Click a hex: every hex of its terrain joined to it takes the chosen terrain"
            }
            Tool::Erase => "Click or drag to clear hexes back to open ground, smoke included",
            Tool::Smoke => "Drag to lay smoke; the right button clears it",
            Tool::Unit => {
                "Click an empty hex to place a unit of the chosen kind and side; click a unit to pick it"
            }
            Tool::Objective => "Click a hex to mark or unmark it as an objective",
            Tool::Mine => "Click a hex to lay a mine of the chosen side, or lift the one there",
        }
    }

    /// Whether the tool paints under a brush, hex by hex while the button is held.
    #[must_use]
    pub fn brushes(self) -> bool {
        matches!(self, Tool::Terrain | Tool::Erase | Tool::Smoke)
    }
}

/// The editor's state: the design, the tools, and what is going on.
#[derive(Resource)]
pub struct EditorScreen {
    pub editor: Option<HexEditor>,
    pub tool: Tool,
    pub terrain: Terrain,
    /// Brush radius in hexes: 0 is one hex, 1 seven.
    pub brush: u8,
    pub kind: UnitKind,
    /// The side new units and mines belong to, by index.
    pub side: usize,
    /// The unit picked, by index.
    pub selected: Option<usize>,
    /// The hex under the pointer.
    pub hover: Option<[i32; 2]>,
    /// Counts changes of the design, for the table to follow.
    pub generation: u64,
    pub status: String,
    /// The name a save-as gives the file (in the data folder's `scenarios/`).
    pub file_name: String,
    /// The size a resize asks for.
    pub new_size: (u16, u16),
    /// Leaving with unsaved changes: asking first.
    pub confirm_leave: bool,
    /// A quick balance run under way or done.
    pub balance: Option<Balance>,
    /// Where the panels are on the window (logical pixels): the pointer there is theirs.
    pub panels: Vec<Rect>,
    /// Text being typed (the picked unit's name, the title, the description), committed
    /// as one edit when its field is left; refreshed from the design after each change.
    pub(super) texts: Texts,
    /// The folder the editor writes to: the data folder (tests give their own).
    pub folder: PathBuf,
    /// The generation last autosaved, and when the design last changed.
    autosaved: u64,
    changed_at: Option<Instant>,
}

impl Default for EditorScreen {
    fn default() -> Self {
        Self {
            editor: None,
            tool: Tool::Select,
            terrain: Terrain::Forest,
            brush: 0,
            kind: UnitKind::Tank,
            side: 0,
            selected: None,
            hover: None,
            generation: 0,
            status: String::new(),
            file_name: String::new(),
            new_size: (12, 12),
            confirm_leave: false,
            balance: None,
            panels: Vec::new(),
            texts: Texts::default(),
            folder: super::data_dir(),
            autosaved: 0,
            changed_at: None,
        }
    }
}

/// Text fields' contents while they are typed in.
#[derive(Default)]
pub(super) struct Texts {
    pub unit_name: String,
    pub title: String,
    pub description: String,
    /// The generation and picked unit they were filled from.
    pub from: Option<(u64, Option<usize>)>,
}

impl EditorScreen {
    /// Fills the text fields from the design when it changed or another unit is picked.
    pub(super) fn sync_texts(&mut self) {
        let now = (self.generation, self.selected);
        if self.texts.from == Some(now) {
            return;
        }
        let Some(editor) = &self.editor else { return };
        let s = &editor.design().setup;
        self.texts.title.clone_from(&s.name);
        self.texts.description.clone_from(&s.description);
        self.texts.unit_name = self
            .selected
            .and_then(|i| s.units.get(i))
            .map(|u| u.name.clone())
            .unwrap_or_default();
        self.texts.from = Some(now);
    }
}

/// 500 bot games of the design: the lab's run, and its answer once done.
pub struct Balance {
    pub running: Running,
    pub started: Instant,
    pub report: Option<crate::lab::LabReport>,
    pub error: Option<String>,
}

/// Games a quick balance plays.
pub const BALANCE_GAMES: u32 = 500;

impl EditorScreen {
    /// The sides' names.
    #[must_use]
    pub fn sides(&self) -> Vec<String> {
        self.editor.as_ref().map_or_else(Vec::new, |e| {
            e.design()
                .setup
                .sides
                .iter()
                .map(|s| s.name.clone())
                .collect()
        })
    }

    /// A new unit of the chosen kind and side at `cell`, named after its side and facing
    /// the enemy's edge.
    fn new_unit(&self, editor: &HexEditor, cell: [i32; 2]) -> UnitSetup {
        let design = editor.design();
        let side = self.sides().get(self.side).cloned().unwrap_or_default();
        let noun = match self.kind {
            UnitKind::Tank => side.clone(),
            UnitKind::Apc => format!("{side} APC"),
            UnitKind::Infantry => format!("{side} squad"),
            UnitKind::AaGun => format!("{side} AA"),
            UnitKind::Target => "Target".to_string(),
        };
        let taken = |n: &str| design.setup.units.iter().any(|u| u.name == n);
        let name = (1..)
            .map(|i| format!("{noun} {i}"))
            .find(|n| !taken(n))
            .unwrap_or(noun);
        let mut unit: UnitSetup = ron::from_str(&format!(
            "(side: {side:?}, name: {name:?}, at: {:?}, facing: {})",
            design.label(cell),
            if self.side == 0 { "N" } else { "S" }
        ))
        .expect("a unit written here reads back");
        unit.kind = self.kind;
        unit
    }
}

impl EditorScreen {
    /// The home of scenarios made in the editor: the data folder's `scenarios/`.
    #[must_use]
    pub fn scenarios_dir(&self) -> PathBuf {
        self.folder.join("scenarios")
    }

    /// Where the editor keeps its autosave.
    #[must_use]
    pub fn autosave_path(&self) -> PathBuf {
        self.folder.join("autosave").join("editor.ron")
    }

    /// A working file of the editor's (the design written for a game, a balance run or a
    /// preview).
    #[must_use]
    pub fn work_file(&self, name: &str) -> PathBuf {
        self.folder.join("editor").join(name)
    }
}

fn open_editor(
    mut opens: MessageReader<OpenEditor>,
    mut screen: ResMut<EditorScreen>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(open) = opens.read().last().cloned() else {
        return;
    };
    let rules = Rules::builtin();
    let editor = match &open.path {
        Some(path) => HexEditor::open(path, rules),
        None => {
            let (w, h) = open.size.unwrap_or((12, 12));
            Ok(HexEditor::new(rules, w, h))
        }
    };
    match editor {
        Ok(editor) => {
            let design = &editor.design().setup;
            screen.new_size = (design.board.width, design.board.height);
            screen.file_name = open.path.as_deref().and_then(Path::file_stem).map_or_else(
                || "my-scenario".to_string(),
                |s| s.to_string_lossy().into_owned(),
            );
            screen.status = match &open.path {
                Some(p) => format!("Opened {}", crate::data::portable_path(p)),
                None => "A new board: paint terrain, place units, then Save".to_string(),
            };
            screen.editor = Some(editor);
            screen.selected = None;
            screen.balance = None;
            screen.generation += 1;
            screen.autosaved = screen.generation;
            next.set(Screen::Editor);
        }
        Err(e) => screen.status = e,
    }
}

/// The hex under the pointer, on the table's plane.
fn hovered(
    window: &Window,
    camera: (&Camera, &GlobalTransform),
    design: &crate::editor::HexDesign,
) -> Option<[i32; 2]> {
    let cursor = window.cursor_position()?;
    let ray = camera.0.viewport_to_world(camera.1, cursor).ok()?;
    let distance = ray.intersect_plane(Vec3::Y * 0.1, InfinitePlane3d::new(Vec3::Y))?;
    let point = ray.get_point(distance);
    let hex = super::games::tank_commander::world_to_hex(point);
    let board = crate::grid::HexBoard::new(design.setup.board.width, design.setup.board.height);
    let cell = board.offset_of(hex);
    design.contains(cell).then_some(cell)
}

/// The cells a brush of `radius` covers around `cell`, on the board.
#[must_use]
pub fn brush_cells(design: &crate::editor::HexDesign, cell: [i32; 2], radius: u8) -> Vec<[i32; 2]> {
    let board = crate::grid::HexBoard::new(design.setup.board.width, design.setup.board.height);
    let centre = board.hex_at(cell[0], cell[1]);
    centre
        .range(u32::from(radius))
        .map(|h| board.offset_of(h))
        .filter(|c| design.contains(*c))
        .collect()
}

/// Clicks and drags on the table become orders.
fn pointer(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera3d>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut screen: ResMut<EditorScreen>,
    mut orders: MessageWriter<EditorOrder>,
) {
    let screen = &mut *screen;
    let Some(editor) = &screen.editor else { return };
    let on_panel = window
        .cursor_position()
        .is_some_and(|p| screen.panels.iter().any(|r| r.contains(p)));
    let over_panel = on_panel || egui.is_some_and(|e| e.wants_any_pointer_input());
    let hover = if over_panel {
        None
    } else {
        hovered(&window, (camera.0, camera.1), editor.design())
    };
    if screen.hover != hover {
        screen.hover = hover;
    }
    if buttons.just_released(MouseButton::Left) || buttons.just_released(MouseButton::Right) {
        orders.write(EditorOrder::EndStroke);
    }
    let Some(cell) = hover else { return };
    let (left, right) = (
        buttons.pressed(MouseButton::Left),
        buttons.pressed(MouseButton::Right),
    );
    let clicked = buttons.just_pressed(MouseButton::Left);
    let design = editor.design();
    match screen.tool {
        Tool::Terrain | Tool::Erase | Tool::Smoke
            if left || (right && screen.tool == Tool::Smoke) =>
        {
            let cells = brush_cells(design, cell, screen.brush);
            let edit = match screen.tool {
                Tool::Terrain => Edit::Paint {
                    cells,
                    terrain: screen.terrain,
                },
                Tool::Erase => {
                    orders.write(EditorOrder::Stroke(Edit::Smoke {
                        cells: cells.clone(),
                        on: false,
                    }));
                    Edit::Paint {
                        cells,
                        terrain: Terrain::Open,
                    }
                }
                _ => Edit::Smoke { cells, on: left },
            };
            orders.write(EditorOrder::Stroke(edit));
        }
        Tool::Fill if clicked => {
            orders.write(EditorOrder::Edit(Edit::Fill {
                at: cell,
                terrain: screen.terrain,
            }));
        }
        Tool::Objective if clicked => {
            orders.write(EditorOrder::Edit(Edit::Objective {
                at: cell,
                on: !design.objective(cell),
            }));
        }
        Tool::Mine if clicked => {
            let side = match design.mine_at(cell) {
                Some(_) => None,
                None => screen.sides().get(screen.side).cloned(),
            };
            orders.write(EditorOrder::Edit(Edit::Mine { at: cell, side }));
        }
        Tool::Unit if clicked => match design.unit_at(cell) {
            Some(i) => screen.selected = Some(i),
            None => {
                let unit = screen.new_unit(editor, cell);
                screen.selected = Some(design.setup.units.len());
                orders.write(EditorOrder::Edit(Edit::AddUnit(Box::new(unit))));
            }
        },
        Tool::Select if clicked => match (design.unit_at(cell), screen.selected) {
            (Some(i), _) => screen.selected = Some(i),
            (None, Some(i)) => {
                if let Some(unit) = design.setup.units.get(i) {
                    let mut moved = unit.clone();
                    moved.at = design.label(cell);
                    orders.write(EditorOrder::Edit(Edit::SetUnit(i, Box::new(moved))));
                }
            }
            (None, None) => {}
        },
        _ => {}
    }
}

/// Keys: Ctrl+Z undoes, Ctrl+Y (or Ctrl+Shift+Z) redoes, Ctrl+S saves; [ and ] turn the
/// picked unit's hull (with Shift its turret); Delete removes it; Escape lets it go.
fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut screen: ResMut<EditorScreen>,
    mut orders: MessageWriter<EditorOrder>,
) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if ctrl {
        if keys.just_pressed(KeyCode::KeyZ) {
            orders.write(if shift {
                EditorOrder::Redo
            } else {
                EditorOrder::Undo
            });
        }
        if keys.just_pressed(KeyCode::KeyY) {
            orders.write(EditorOrder::Redo);
        }
        if keys.just_pressed(KeyCode::KeyS) {
            orders.write(EditorOrder::Save(None));
        }
        return;
    }
    if keys.just_pressed(KeyCode::Escape) {
        screen.selected = None;
    }
    let Some(i) = screen.selected else { return };
    let Some(unit) = screen
        .editor
        .as_ref()
        .and_then(|e| e.design().setup.units.get(i))
        .cloned()
    else {
        return;
    };
    if keys.just_pressed(KeyCode::Delete) || keys.just_pressed(KeyCode::Backspace) {
        screen.selected = None;
        orders.write(EditorOrder::Edit(Edit::RemoveUnit(i)));
        return;
    }
    let turn = if keys.just_pressed(KeyCode::BracketLeft) {
        5
    } else if keys.just_pressed(KeyCode::BracketRight) {
        1
    } else {
        return;
    };
    orders.write(EditorOrder::Edit(Edit::SetUnit(
        i,
        Box::new(turned(&unit, turn, shift)),
    )));
}

/// `unit` with its hull (or, with `turret`, its turret) turned `steps` sixths clockwise;
/// a hull turn takes the turret along.
#[must_use]
pub fn turned(unit: &UnitSetup, steps: u8, turret: bool) -> UnitSetup {
    let turn = |f: crate::grid::Facing| crate::grid::Facing::from_index(f.index() + steps);
    let mut u = unit.clone();
    if turret {
        u.turret = Some(turn(unit.turret.unwrap_or(unit.facing)));
    } else {
        u.facing = turn(unit.facing);
        u.turret = unit.turret.map(turn);
    }
    u
}

/// Carries out the orders: edits, undo and redo, saves.
fn obey(mut orders: MessageReader<EditorOrder>, mut screen: ResMut<EditorScreen>) {
    let screen = &mut *screen;
    let Some(editor) = &mut screen.editor else {
        orders.clear();
        return;
    };
    let mut changed = false;
    for order in orders.read() {
        match order {
            EditorOrder::Edit(edit) => changed |= editor.apply(edit.clone()),
            EditorOrder::Stroke(edit) => changed |= editor.apply_stroke(edit.clone()),
            EditorOrder::EndStroke => editor.end_stroke(),
            EditorOrder::Undo => {
                if editor.undo() {
                    changed = true;
                    screen.status = "Undone".into();
                } else {
                    screen.status = "Nothing to undo".into();
                }
            }
            EditorOrder::Redo => {
                if editor.redo() {
                    changed = true;
                    screen.status = "Redone".into();
                } else {
                    screen.status = "Nothing to redo".into();
                }
            }
            EditorOrder::Save(to) => {
                let target = to
                    .clone()
                    .or_else(|| editor.path.clone())
                    .unwrap_or_else(|| {
                        screen
                            .folder
                            .join("scenarios")
                            .join(format!("{}.ron", super::session::slug(&screen.file_name)))
                    });
                if let Some(dir) = target.parent() {
                    let _ = std::fs::create_dir_all(dir);
                }
                screen.status = match editor.save(&target) {
                    Ok(()) => format!("Saved {}", crate::data::portable_path(&target)),
                    Err(e) => e,
                };
            }
        }
    }
    if changed {
        screen.generation += 1;
        screen.changed_at = Some(Instant::now());
        let units = editor.design().setup.units.len();
        if screen.selected.is_some_and(|i| i >= units) {
            screen.selected = None;
        }
    }
}

/// Writes the design to the autosave a second after the last change, so that a crash
/// or a closed window loses nothing.
fn autosave(mut screen: ResMut<EditorScreen>) {
    let due = screen
        .changed_at
        .is_some_and(|t| t.elapsed().as_secs_f64() > 1.0);
    if !due || screen.autosaved == screen.generation {
        return;
    }
    let Some(editor) = &screen.editor else { return };
    let path = screen.autosave_path();
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if crate::data::write_atomic(&path, &editor.design().to_ron()).is_ok() {
        screen.autosaved = screen.generation;
    }
}

impl EditorScreen {
    /// Starts the quick balance: the design written to the data folder, then
    /// [`BALANCE_GAMES`] bot games through the lab.
    pub fn start_balance(&mut self) {
        let Some(editor) = &self.editor else { return };
        let path = self.work_file("balance.ron");
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Err(e) = crate::data::write_atomic(&path, &editor.design().to_ron()) {
            self.status = format!("cannot write {}: {e}", path.display());
            return;
        }
        let started =
            crate::lab::any::load(crate::rules::GameKind::TankCommander, &path).and_then(|lab| {
                lab.start(
                    &[],
                    &crate::lab::Ask {
                        games: BALANCE_GAMES,
                        seed: 1,
                        threads: crate::lab::run::all_cores().saturating_sub(1).max(1),
                        ..crate::lab::Ask::default()
                    },
                    None,
                )
            });
        match started {
            Ok(running) => {
                self.balance = Some(Balance {
                    running,
                    started: Instant::now(),
                    report: None,
                    error: None,
                });
            }
            Err(e) => self.status = e,
        }
    }

    /// Writes the design where a game can open it: its own file when it is saved and
    /// unchanged, else the data folder's `editor/play.ron`.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn playable_file(&self) -> Result<PathBuf, String> {
        let editor = self.editor.as_ref().ok_or("no scenario is open")?;
        if let Some(path) = &editor.path
            && !editor.modified()
        {
            return Ok(path.clone());
        }
        let path = self.work_file("play.ron");
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        crate::data::write_atomic(&path, &editor.design().to_ron())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(path)
    }
}

fn poll_balance(mut screen: ResMut<EditorScreen>) {
    let Some(balance) = &mut screen.balance else {
        return;
    };
    if balance.report.is_some() || balance.error.is_some() || !balance.running.is_done() {
        return;
    }
    if let Err(e) = balance.running.join() {
        balance.error = Some(e);
        return;
    }
    balance.report = Some(crate::lab::LabReport::build(
        balance.running.question.clone(),
        &balance.running.live.snapshot(),
    ));
}
