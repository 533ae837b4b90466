//! The scenario editor screen: a Tank Commander scenario on the 3D table, painted with
//! terrain brushes, peopled with units and mission pieces, made fair with the symmetry
//! tools, checked live (every problem listed and marked on the table), with undo and
//! redo, saved as RON, and played or balanced in one click.
//!
//! Clicks and keys become [`EditorOrder`]s; [`crate::editor::HexEditor`] makes the
//! edits and checks them; the table and the panels show the design.

mod chess;
mod game;
mod input;
mod mission;
mod opening;
mod panels;
mod table;
mod top_bar;
mod unit_card;

use std::path::{Path, PathBuf};
use std::time::Instant;

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;

pub use crate::client::core::open::{BackToGame, EditTheGame, OpenEditor};
pub use game::{WaitingGame, carry_over};
pub(crate) use input::brush_buttons;
pub use input::{brush_cells, turned};
use input::{keys, pointer};
use opening::open_editor;

use crate::client::core::Screen;
use crate::editor::{Check, Design, Edit, Editor, HexEditor, SquareEdit, SquareEditor, Terrain};
use crate::lab::any::Running;
use crate::rules::GameKind;
use crate::rules::tank_commander::UnitKind;
use crate::rules::tank_commander::setup::UnitSetup;

/// The editor's logic: its state, its orders, saving and autosaving, balance runs. It
/// needs no window (headless tests run it).
pub(crate) fn logic(app: &mut App) {
    app.add_plugins(game::plugin)
        .init_resource::<EditorScreen>()
        .add_message::<OpenEditor>()
        .add_message::<EditorOrder>()
        .add_systems(
            Update,
            (
                game::suspend,
                open_editor,
                obey,
                autosave,
                poll_balance,
                game::resume,
            )
                .chain()
                .in_set(EditorSystems),
        );
}

/// The editor on screen: clicks and keys, the table, the panels.
pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (pointer, keys)
            .before(EditorSystems)
            .run_if(in_state(Screen::Editor))
            .run_if(not(crate::client::core::keyboard::typing)),
    )
    .add_systems(
        EguiPrimaryContextPass,
        panels::draw.run_if(in_state(Screen::Editor)),
    )
    .add_plugins((table::plugin, chess::plugin));
}

/// The editor's logic systems: orders are carried out here.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EditorSystems;

/// What the designer asks of the editor.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum EditorOrder {
    /// One edit, one undo step.
    Edit(Edit),
    /// Part of a brush stroke: the stroke is one undo step.
    Stroke(Edit),
    /// An edit of a Tank Chess setup.
    Square(SquareEdit),
    /// Part of a stroke on a Tank Chess board.
    SquareStroke(SquareEdit),
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
    /// Mark the mission's own hexes: Training waypoints, Take Area's area, the building
    /// to destroy.
    MissionHex,
    /// Tank Chess: put obstacles under the brush (right button lifts them).
    Obstacle,
    /// Tank Chess: place a piece of the chosen kind and team.
    Piece,
    /// Tank Chess: set or lift a flag where four squares meet (north-east of the square).
    Flag,
}

impl Tool {
    /// The tools of a Tank Chess setup.
    pub const CHESS: [Tool; 4] = [Tool::Select, Tool::Obstacle, Tool::Piece, Tool::Flag];

    pub const ALL: [Tool; 9] = [
        Tool::Select,
        Tool::Terrain,
        Tool::Fill,
        Tool::Erase,
        Tool::Smoke,
        Tool::Unit,
        Tool::Objective,
        Tool::Mine,
        Tool::MissionHex,
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
            Tool::MissionHex => "Mission hex",
            Tool::Obstacle => "Obstacle",
            Tool::Piece => "Piece",
            Tool::Flag => "Flag",
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
            Tool::MissionHex => {
                "Training: click hexes to add waypoints in order (again to remove); Take Area: click hexes in or out of the area; Destroy Target: click the building to bring down"
            }
            Tool::Obstacle => {
                "Click or drag to put obstacles on squares; the right button lifts them"
            }
            Tool::Piece => {
                "Click an empty square to place a piece of the chosen kind and team; click a piece to pick it"
            }
            Tool::Flag => {
                "Click a square to set or lift a flag at its north-east corner, where four squares meet (Capture the Flag)"
            }
        }
    }

    /// Whether the tool paints under a brush, hex by hex while the button is held.
    #[must_use]
    pub fn brushes(self) -> bool {
        matches!(
            self,
            Tool::Terrain | Tool::Erase | Tool::Smoke | Tool::Obstacle
        )
    }
}

/// The editor's state: the design, the tools, and what is going on.
#[derive(Resource)]
pub struct EditorScreen {
    /// The Tank Commander scenario being edited.
    pub editor: Option<HexEditor>,
    /// The Tank Chess setup being edited (only one of the two is open).
    pub square: Option<SquareEditor>,
    /// The kind, team, facing and Command mark of new Tank Chess pieces.
    pub piece: chess::NewPiece,
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
    /// Leaving with unsaved changes (for the menu, or back to the game): asking first.
    confirm: Option<panels::Leaving>,
    /// A quick balance run under way or done.
    pub balance: Option<Balance>,
    /// Where the panels are on the window (logical pixels): the pointer there is theirs.
    pub panels: Vec<Rect>,
    /// The cell a brush stroke was last at, to paint the cells between.
    stroke_from: Option<[i32; 2]>,
    /// Text being typed (the picked unit's name, the title, the description), committed
    /// as one edit when its field is left; refreshed from the design after each change.
    pub(crate) texts: Texts,
    /// The upgrade builder open on a unit, in its own window.
    pub(crate) build: Option<crate::client::games::tank_commander::build_card::BuildCard>,
    /// The folder the editor writes to: the data folder (tests give their own).
    pub folder: PathBuf,
    /// The open file is saved into itself even if it ships ([`OpenEditor::in_place`]).
    pub in_place: bool,
    /// The generation last autosaved, and when the design last changed.
    autosaved: u64,
    changed_at: Option<Instant>,
}

impl Default for EditorScreen {
    fn default() -> Self {
        Self {
            editor: None,
            square: None,
            piece: chess::NewPiece::default(),
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
            confirm: None,
            balance: None,
            panels: Vec::new(),
            stroke_from: None,
            texts: Texts::default(),
            build: None,
            folder: crate::client::core::session::data_dir(),
            in_place: false,
            autosaved: 0,
            changed_at: None,
        }
    }
}

/// Text fields' contents while they are typed in.
#[derive(Default)]
pub(crate) struct Texts {
    pub unit_name: String,
    pub title: String,
    pub description: String,
    /// The generation and picked unit they were filled from.
    pub from: Option<(u64, Option<usize>)>,
}

impl EditorScreen {
    /// Fills the text fields from the design when it changed or another unit is picked.
    pub(crate) fn sync_texts(&mut self) {
        let now = (self.generation, self.selected);
        if self.texts.from == Some(now) {
            return;
        }
        if let Some((title, description)) = self.titles() {
            self.texts.title = title;
            self.texts.description = description;
        }
        self.texts.unit_name = self
            .editor
            .as_ref()
            .and_then(|e| self.selected.and_then(|i| e.design().setup.units.get(i)))
            .map(|u| u.name.clone())
            .unwrap_or_default();
        self.texts.from = Some(now);
    }

    /// The title and description of the design open.
    #[must_use]
    pub fn titles(&self) -> Option<(String, String)> {
        match (&self.editor, &self.square) {
            (Some(e), _) => {
                let s = &e.design().setup;
                Some((s.name.clone(), s.description.clone()))
            }
            (_, Some(e)) => {
                let s = &e.design().setup;
                Some((s.name.clone(), s.description.clone()))
            }
            _ => None,
        }
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

    /// Where the editor keeps its autosave (one for each game).
    #[must_use]
    pub fn autosave_path(&self) -> PathBuf {
        let name = if self.is_chess() {
            "editor-chess.ron"
        } else {
            "editor.ron"
        };
        self.folder.join("autosave").join(name)
    }

    /// A working file of the editor's (the design written for a game, a balance run or a
    /// preview).
    /// Opens the upgrade builder on unit `index` of the scenario (a tank or an APC); false
    /// when there is no such vehicle.
    pub fn open_builder(&mut self, index: usize) -> bool {
        let unit = self
            .editor
            .as_ref()
            .and_then(|e| e.design().setup.units.get(index))
            .filter(|u| u.kind.is_vehicle())
            .cloned();
        self.build = unit.map(|unit| {
            crate::client::games::tank_commander::build_card::BuildCard::new(
                index,
                unit,
                self.folder.join("builds"),
            )
        });
        self.build.is_some()
    }

    /// Whether the upgrade builder is open on a unit.
    #[must_use]
    pub fn builder_open(&self) -> bool {
        self.build.is_some()
    }

    #[must_use]
    pub fn work_file(&self, name: &str) -> PathBuf {
        self.folder.join("editor").join(name)
    }
}

impl EditorScreen {
    /// Whether a Tank Chess setup is open.
    #[must_use]
    pub fn is_chess(&self) -> bool {
        self.square.is_some()
    }

    /// The game of the design open.
    #[must_use]
    pub fn game(&self) -> GameKind {
        if self.is_chess() {
            GameKind::TankChess
        } else {
            GameKind::TankCommander
        }
    }

    /// The live check of the design open.
    #[must_use]
    pub fn check(&self) -> Option<&Check> {
        match (&self.editor, &self.square) {
            (Some(e), _) => Some(e.check()),
            (_, Some(e)) => Some(e.check()),
            _ => None,
        }
    }

    /// The file, undo and redo state of the design open: (path, modified, can undo, can
    /// redo).
    #[must_use]
    pub fn file_state(&self) -> Option<(Option<PathBuf>, bool, bool, bool)> {
        fn of<D: Design>(e: &Editor<D>) -> (Option<PathBuf>, bool, bool, bool) {
            (e.path.clone(), e.modified(), e.can_undo(), e.can_redo())
        }
        match (&self.editor, &self.square) {
            (Some(e), _) => Some(of(e)),
            (_, Some(e)) => Some(of(e)),
            _ => None,
        }
    }

    /// The design open as the RON it saves.
    #[must_use]
    pub fn design_text(&self) -> Option<String> {
        match (&self.editor, &self.square) {
            (Some(e), _) => Some(e.design().to_ron()),
            (_, Some(e)) => Some(e.design().to_ron()),
            _ => None,
        }
    }
}

/// Carries out the orders: edits, undo and redo, saves.
fn obey(mut orders: MessageReader<EditorOrder>, mut screen: ResMut<EditorScreen>) {
    let screen = &mut *screen;
    let files = SaveFiles {
        new: screen.folder.join("scenarios").join(format!(
            "{}.ron",
            crate::client::core::session::slug(&screen.file_name)
        )),
        own: screen.folder.join("scenarios"),
        in_place: screen.in_place,
    };
    let mut changed = false;
    for order in orders.read() {
        let said = match (order, &mut screen.editor, &mut screen.square) {
            (EditorOrder::Edit(edit), Some(e), _) => {
                changed |= e.apply(edit.clone());
                None
            }
            (EditorOrder::Stroke(edit), Some(e), _) => {
                changed |= e.apply_stroke(edit.clone());
                None
            }
            (EditorOrder::Square(edit), _, Some(e)) => {
                changed |= e.apply(edit.clone());
                None
            }
            (EditorOrder::SquareStroke(edit), _, Some(e)) => {
                changed |= e.apply_stroke(edit.clone());
                None
            }
            (order, Some(e), _) => common(e, order, &files, &mut changed),
            (order, _, Some(e)) => common(e, order, &files, &mut changed),
            _ => None,
        };
        if let Some(said) = said {
            screen.status = said;
        }
    }
    if changed {
        screen.generation += 1;
        screen.changed_at = Some(Instant::now());
        if let Some(e) = &screen.editor {
            let units = e.design().setup.units.len();
            if screen.selected.is_some_and(|i| i >= units) {
                screen.selected = None;
            }
        }
        if let Some(e) = &screen.square
            && let Some((team, i)) = screen.piece.picked
            && i >= e.design().team(team).len()
        {
            screen.piece.picked = None;
        }
    }
}

/// Where saves go: a new design's file, the folder of the player's own files, and
/// whether a shipped file is saved into itself.
struct SaveFiles {
    new: PathBuf,
    own: PathBuf,
    in_place: bool,
}

impl SaveFiles {
    /// The file a save writes, and whether it is the player's copy of a shipped one. A
    /// built-in file (the copy the binary unpacked) is never written; a project's shipped
    /// file only when opened to be edited in place.
    fn target(&self, asked: Option<&Path>, open: Option<&Path>) -> (PathBuf, bool) {
        let target = asked.or(open).unwrap_or(&self.new).to_path_buf();
        let ships = crate::data::shipped::is_shipped_copy(&target)
            || (!self.in_place && asked.is_none() && crate::data::shipped::is_shipped(&target));
        match target.file_name() {
            Some(name) if ships => (self.own.join(name), true),
            _ => (target, false),
        }
    }
}

/// The orders every kind of design takes alike: strokes' end, undo, redo, save. Returns
/// what to tell the designer.
fn common<D: Design>(
    editor: &mut Editor<D>,
    order: &EditorOrder,
    files: &SaveFiles,
    changed: &mut bool,
) -> Option<String> {
    match order {
        EditorOrder::EndStroke => {
            editor.end_stroke();
            None
        }
        EditorOrder::Undo => Some(if editor.undo() {
            *changed = true;
            "Undone".into()
        } else {
            "Nothing to undo".into()
        }),
        EditorOrder::Redo => Some(if editor.redo() {
            *changed = true;
            "Redone".into()
        } else {
            "Nothing to redo".into()
        }),
        EditorOrder::Save(to) => {
            let (target, own) = files.target(to.as_deref(), editor.path.as_deref());
            if let Some(dir) = target.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            Some(match editor.save(&target) {
                Ok(()) if own => format!(
                    "Saved as your own scenario, {} (the shipped one stays as it is)",
                    target.display()
                ),
                Ok(()) => format!("Saved {}", crate::data::portable_path(&target)),
                Err(e) => e,
            })
        }
        // An edit for the other kind of design: nothing to do.
        _ => None,
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
    let Some(text) = screen.design_text() else {
        return;
    };
    let path = screen.autosave_path();
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if crate::data::write_atomic(&path, &text).is_ok() {
        screen.autosaved = screen.generation;
    }
}

impl EditorScreen {
    /// Starts the quick balance: the design written to the data folder, then
    /// [`BALANCE_GAMES`] bot games through the lab.
    pub fn start_balance(&mut self) {
        let Some(text) = self.design_text() else {
            return;
        };
        let path = self.work_file(if self.is_chess() {
            "balance-chess.ron"
        } else {
            "balance.ron"
        });
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Err(e) = crate::data::write_atomic(&path, &text) {
            self.status = format!("cannot write {}: {e}", path.display());
            return;
        }
        let game = if self.is_chess() {
            crate::rules::GameKind::TankChess
        } else {
            crate::rules::GameKind::TankCommander
        };
        let started = crate::lab::any::load(game, &path).and_then(|lab| {
            lab.start(
                &[],
                &crate::lab::Ask {
                    games: BALANCE_GAMES,
                    seed: 1,
                    threads: crate::lab::run::all_cores().saturating_sub(1).max(1),
                    background: true,
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
        let (path, modified, ..) = self.file_state().ok_or("no scenario is open")?;
        if let Some(path) = path
            && !modified
        {
            return Ok(path);
        }
        let text = self.design_text().unwrap_or_default();
        let path = self.work_file(if self.is_chess() {
            "play-chess.ron"
        } else {
            "play.ron"
        });
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        crate::data::write_atomic(&path, &text)
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
