//! The editor on a Tank Chess setup: the square board with its obstacles, pieces and
//! flags on the table; the pointer and keys for squares; the panels' Tank Chess parts.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::egui;

use super::table::glow;
use super::{EditorOrder, EditorScreen, Tool};
use crate::client::core::Screen;
use crate::client::table::square::dir_rotation;
use crate::client::table::theme;
use crate::editor::{Marker, SquareDesign, SquareEdit, Symmetry, TEAMS};
use crate::rules::tank_chess::setup::{PieceSetup, Setup as ChessSetup};
use crate::rules::tank_chess::{Dir8, Kind, Mode};

/// The kind, team and Command mark new pieces get, and the piece picked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPiece {
    pub kind: Kind,
    /// An index of [`TEAMS`].
    pub team: usize,
    pub command: bool,
    /// The piece picked: its team and index.
    pub picked: Option<(usize, usize)>,
}

impl Default for NewPiece {
    fn default() -> Self {
        Self {
            kind: Kind::LT,
            team: 0,
            command: false,
            picked: None,
        }
    }
}

const KINDS: [(Kind, &str); 5] = [
    (Kind::LT, "Light"),
    (Kind::MT, "Medium"),
    (Kind::HT, "Heavy"),
    (Kind::TD, "Destroyer"),
    (Kind::HM, "Mortar"),
];

const TEAM_NAMES: [&str; 4] = ["White", "Black", "Flag White", "Flag Black"];

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_board
            .run_if(in_state(Screen::Editor))
            .after(super::EditorSystems),
    );
}

/// Centre of a square on the table: the game's own placement.
fn world(design: &SquareDesign, [c, r]: [i32; 2]) -> Vec3 {
    let b = design.setup.board;
    let sq = crate::rules::tank_chess::Square {
        col: u8::try_from(c).unwrap_or(0),
        row: u8::try_from(r).unwrap_or(0),
    };
    crate::client::table::square::square_centre((b.width, b.height), sq)
}

/// The square under a point of the table.
fn cell_at(design: &SquareDesign, p: Vec3) -> Option<[i32; 2]> {
    let b = design.setup.board;
    let cell = crate::client::table::square::world_to_cell((b.width, b.height), p);
    design.contains(cell).then_some(cell)
}

/// The piece's facing as played: its own, else towards the enemy.
fn shown_facing(team: usize, p: &PieceSetup) -> Dir8 {
    p.facing
        .unwrap_or([Dir8::N, Dir8::S, Dir8::E, Dir8::W][team.min(3)])
}

/// Clicks and drags on a square board become orders.
pub(super) fn pointer(
    buttons: &ButtonInput<MouseButton>,
    window: &Single<&Window, With<PrimaryWindow>>,
    camera: (&Camera, &GlobalTransform),
    egui: Option<&bevy_egui::input::EguiWantsInput>,
    screen: &mut EditorScreen,
    orders: &mut MessageWriter<EditorOrder>,
) {
    let Some(editor) = &screen.square else { return };
    let design = editor.design();
    let hover = hovered_square(window, camera, egui, &screen.panels, design);
    if screen.hover != hover {
        screen.hover = hover;
    }
    let ([left, right], tapped) = super::brush_buttons(buttons, &mut screen.stroke_from, orders);
    let Some(cell) = hover else { return };
    let clicked = buttons.just_pressed(MouseButton::Left);
    match screen.tool {
        Tool::Obstacle if left || right => {
            let cells = stroke_squares(
                design,
                screen.stroke_from.unwrap_or(cell),
                cell,
                screen.brush,
            );
            screen.stroke_from = Some(cell);
            orders.write(EditorOrder::SquareStroke(SquareEdit::Obstacles {
                cells,
                on: left,
            }));
        }
        Tool::Flag if clicked => {
            let label = design.label(cell);
            orders.write(EditorOrder::Square(SquareEdit::Flag {
                at: cell,
                on: !design.setup.flags.contains(&label),
            }));
        }
        Tool::Piece if clicked => match design.piece_at(cell) {
            Some(found) => screen.piece.picked = Some(found),
            None => {
                let team = screen.piece.team;
                screen.piece.picked = Some((team, design.team(team).len()));
                orders.write(EditorOrder::Square(SquareEdit::AddPiece {
                    team,
                    piece: PieceSetup {
                        kind: screen.piece.kind,
                        at: design.label(cell),
                        facing: None,
                        command: screen.piece.command,
                    },
                }));
            }
        },
        Tool::Select if clicked => match (design.piece_at(cell), screen.piece.picked) {
            (Some(found), _) => screen.piece.picked = Some(found),
            (None, Some((team, i))) => {
                if let Some(p) = design.team(team).get(i) {
                    orders.write(EditorOrder::Square(SquareEdit::SetPiece {
                        team,
                        index: i,
                        piece: PieceSetup {
                            at: design.label(cell),
                            ..p.clone()
                        },
                    }));
                }
            }
            (None, None) => {}
        },
        _ => {}
    }
    if tapped {
        orders.write(EditorOrder::EndStroke);
    }
}

/// The square under the pointer, unless the pointer is over a panel.
fn hovered_square(
    window: &Window,
    camera: (&Camera, &GlobalTransform),
    egui: Option<&bevy_egui::input::EguiWantsInput>,
    panels: &[Rect],
    design: &SquareDesign,
) -> Option<[i32; 2]> {
    let cursor = window.cursor_position();
    let on_panel = cursor.is_some_and(|p| panels.iter().any(|r| r.contains(p)));
    let over =
        on_panel || egui.is_some_and(bevy_egui::input::EguiWantsInput::wants_any_pointer_input);
    if over {
        None
    } else {
        cursor
            .and_then(|c| camera.0.viewport_to_world(camera.1, c).ok())
            .and_then(|ray| {
                let d = ray.intersect_plane(Vec3::Y * 0.1, InfinitePlane3d::new(Vec3::Y))?;
                cell_at(design, ray.get_point(d))
            })
    }
}

/// The squares a brush stroke covers from `[fc, fr]` (last frame's square) to `cell`:
/// every square between, so a quick drag leaves no gaps.
fn stroke_squares(
    design: &SquareDesign,
    [fc, fr]: [i32; 2],
    cell: [i32; 2],
    brush: u8,
) -> Vec<[i32; 2]> {
    let steps = (cell[0] - fc).abs().max((cell[1] - fr).abs()).max(1);
    let mut cells: Vec<[i32; 2]> = (0..=steps)
        .flat_map(|i| {
            let t = i as f32 / steps as f32;
            let at = [
                fc + ((cell[0] - fc) as f32 * t).round() as i32,
                fr + ((cell[1] - fr) as f32 * t).round() as i32,
            ];
            square_brush(design, at, brush)
        })
        .collect();
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// The squares a brush of `radius` covers: a square block around `cell`.
#[must_use]
pub fn square_brush(design: &SquareDesign, [c, r]: [i32; 2], radius: u8) -> Vec<[i32; 2]> {
    let k = i32::from(radius);
    (-k..=k)
        .flat_map(|dc| (-k..=k).map(move |dr| [c + dc, r + dr]))
        .filter(|cell| design.contains(*cell))
        .collect()
}

/// Keys on a picked piece: `[` and `]` turn it 45°, Delete removes it.
pub(super) fn keys(
    keys: &ButtonInput<KeyCode>,
    screen: &mut EditorScreen,
    orders: &mut MessageWriter<EditorOrder>,
) {
    let Some((team, i)) = screen.piece.picked else {
        return;
    };
    let Some(piece) = screen
        .square
        .as_ref()
        .and_then(|e| e.design().team(team).get(i).cloned())
    else {
        return;
    };
    if keys.just_pressed(KeyCode::Delete) || keys.just_pressed(KeyCode::Backspace) {
        screen.piece.picked = None;
        orders.write(EditorOrder::Square(SquareEdit::RemovePiece {
            team,
            index: i,
        }));
        return;
    }
    let steps = if keys.just_pressed(KeyCode::BracketLeft) {
        -1
    } else if keys.just_pressed(KeyCode::BracketRight) {
        1
    } else {
        return;
    };
    let turned = PieceSetup {
        facing: Some(shown_facing(team, &piece).turned(steps)),
        ..piece
    };
    orders.write(EditorOrder::Square(SquareEdit::SetPiece {
        team,
        index: i,
        piece: turned,
    }));
}

/// What the square board shows, rebuilt on each change.
#[derive(Component)]
struct Drawn;

#[derive(Resource)]
struct ChessAssets {
    tile: Handle<Mesh>,
    block: Handle<Mesh>,
    hull: Handle<Mesh>,
    turret: Handle<Mesh>,
    barrel: Handle<Mesh>,
    ring: Handle<Mesh>,
    pole: Handle<Mesh>,
    light: Handle<StandardMaterial>,
    dark: Handle<StandardMaterial>,
    stone: Handle<StandardMaterial>,
    teams: [Handle<StandardMaterial>; 4],
    gold: Handle<StandardMaterial>,
    red: Handle<StandardMaterial>,
    brush: Handle<StandardMaterial>,
}

/// Draws the Tank Chess board on the table, rebuilt when the setup, the picked piece,
/// the hover or the brush changed.
#[allow(
    clippy::too_many_arguments,
    reason = "one system draws the whole board"
)]
fn draw_board(
    mut commands: Commands,
    screen: Res<EditorScreen>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut rig: ResMut<crate::client::table::camera::Rig>,
    assets: Option<Res<ChessAssets>>,
    old: Query<Entity, With<Drawn>>,
    mut shown: Local<Option<(u64, Option<(usize, usize)>, Option<[i32; 2]>, u8, (u8, u8))>>,
) {
    let Some(editor) = &screen.square else {
        for e in &old {
            commands.entity(e).despawn();
        }
        *shown = None;
        return;
    };
    let Some(a) = assets else {
        commands.insert_resource(chess_assets(&mut meshes, &mut materials));
        return;
    };
    let design = editor.design();
    let b = design.setup.board;
    let now = (
        screen.generation,
        screen.piece.picked,
        screen.hover,
        screen.brush,
        (b.width, b.height),
    );
    if *shown == Some(now) && !old.is_empty() {
        return;
    }
    if shown.is_none_or(|s| s.4 != now.4) {
        let span = f32::from(b.width.max(b.height));
        rig.frame_view(Vec3::Z * span * 0.05, span * 1.7, false);
    }
    *shown = Some(now);
    for e in &old {
        commands.entity(e).despawn();
    }
    let mut board = Board {
        commands: &mut commands,
        a: &a,
        design,
    };
    board.squares();
    board.flags();
    board.pieces(screen.piece.picked);
    board.problems(editor.check());
    if let Some(cell) = screen.hover {
        let radius = if screen.tool.brushes() {
            screen.brush
        } else {
            0
        };
        board.brush(cell, radius);
    }
}

/// The square board's meshes and materials.
fn chess_assets(
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
) -> ChessAssets {
    ChessAssets {
        tile: meshes.add(Cuboid::new(0.96, 0.2, 0.96)),
        block: meshes.add(Cuboid::new(0.9, 0.7, 0.9)),
        hull: meshes.add(Cuboid::new(0.5, 0.22, 0.7)),
        turret: meshes.add(crate::client::table::shapes::cylinder(0.17, 0.16)),
        barrel: meshes.add(crate::client::table::shapes::cylinder(0.04, 0.55)),
        ring: meshes.add(crate::client::table::shapes::torus(0.36, 0.46)),
        pole: meshes.add(crate::client::table::shapes::cylinder(0.05, 1.0)),
        light: materials.add(theme::CHESS_LIGHT_SQUARE),
        dark: materials.add(theme::EDITOR_DARK_SQUARE),
        stone: materials.add(theme::EDITOR_OBSTACLE),
        teams: [
            materials.add(theme::EDITOR_TEAMS[0]),
            materials.add(theme::EDITOR_TEAMS[1]),
            materials.add(theme::EDITOR_TEAMS[2]),
            materials.add(theme::EDITOR_TEAMS[3]),
        ],
        gold: glow(materials, theme::EDITOR_GOLD, theme::EDITOR_GOLD_GLOW),
        red: glow(materials, theme::PROBLEM_MARK, theme::PROBLEM_MARK_GLOW),
        brush: materials.add(StandardMaterial {
            base_color: theme::BRUSH,
            alpha_mode: AlphaMode::Blend,
            unlit: true,
            ..default()
        }),
    }
}

/// What the square board is drawn with: the commands, the assets, the design.
struct Board<'a, 'w, 's> {
    commands: &'a mut Commands<'w, 's>,
    a: &'a ChessAssets,
    design: &'a SquareDesign,
}

impl Board<'_, '_, '_> {
    /// One piece of the board's drawing.
    fn spawn(&mut self, mesh: &Handle<Mesh>, mat: &Handle<StandardMaterial>, t: Transform) {
        self.commands.spawn((
            Drawn,
            DespawnOnExit(Screen::Editor),
            Mesh3d(mesh.clone()),
            MeshMaterial3d(mat.clone()),
            t,
        ));
    }

    /// The chequered squares and the obstacles on them.
    fn squares(&mut self) {
        let (a, design) = (self.a, self.design);
        let b = design.setup.board;
        for r in 0..i32::from(b.height) {
            for c in 0..i32::from(b.width) {
                let at = world(design, [c, r]);
                let mat = if (c + r) % 2 == 0 { &a.dark } else { &a.light };
                self.spawn(
                    &a.tile,
                    mat,
                    Transform::from_translation(at - Vec3::Y * 0.1),
                );
                if design.obstacle([c, r]) {
                    self.spawn(
                        &a.block,
                        &a.stone,
                        Transform::from_translation(at + Vec3::Y * 0.35),
                    );
                }
            }
        }
    }

    /// The flags' poles.
    fn flags(&mut self) {
        let (a, design) = (self.a, self.design);
        for label in &design.setup.flags {
            if let Some(cell) = design.cell_of(label) {
                // The flag stands where the square's north-east corner meets three others.
                let at = world(design, cell) + Vec3::new(0.5, 0.5, -0.5);
                self.spawn(&a.pole, &a.gold, Transform::from_translation(at));
            }
        }
    }

    /// Every team's pieces, the Command tanks and the picked piece ringed in gold.
    fn pieces(&mut self, picked: Option<(usize, usize)>) {
        let (a, design) = (self.a, self.design);
        for team in 0..TEAMS.len() {
            for (i, p) in design.team(team).iter().enumerate() {
                let Some(cell) = design.cell_of(&p.at) else {
                    continue;
                };
                let at = world(design, cell);
                let turn = dir_rotation(shown_facing(team, p));
                self.tank(at, turn, &a.teams[team]);
                if p.command {
                    self.spawn(
                        &a.ring,
                        &a.gold,
                        Transform::from_translation(at + Vec3::Y * 0.02)
                            .with_scale(Vec3::splat(0.8)),
                    );
                }
                if picked == Some((team, i)) {
                    self.spawn(
                        &a.ring,
                        &a.gold,
                        Transform::from_translation(at + Vec3::Y * 0.04),
                    );
                }
            }
        }
    }

    /// One tank: hull, turret and barrel at `at`, turned by `turn`.
    fn tank(&mut self, at: Vec3, turn: Quat, paint: &Handle<StandardMaterial>) {
        let a = self.a;
        self.spawn(
            &a.hull,
            paint,
            Transform::from_translation(at + Vec3::Y * 0.11).with_rotation(turn),
        );
        self.spawn(
            &a.turret,
            paint,
            Transform::from_translation(at + Vec3::Y * 0.3).with_rotation(turn),
        );
        self.spawn(
            &a.barrel,
            paint,
            Transform::from_translation(at + Vec3::Y * 0.3 + turn * Vec3::new(0.0, 0.0, -0.32))
                .with_rotation(turn * Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
        );
    }

    /// The problems' squares, ringed in red.
    fn problems(&mut self, check: &crate::editor::Check) {
        let (a, design) = (self.a, self.design);
        for marker in check.markers.iter().flatten() {
            if let Marker::Cell(cell) = *marker {
                self.spawn(
                    &a.ring,
                    &a.red,
                    Transform::from_translation(world(design, cell) + Vec3::Y * 0.06)
                        .with_scale(Vec3::new(1.1, 1.6, 1.1)),
                );
            }
        }
    }

    /// The brush's squares around `cell`, outlined.
    fn brush(&mut self, cell: [i32; 2], radius: u8) {
        let (a, design) = (self.a, self.design);
        for c in square_brush(design, cell, radius) {
            self.spawn(
                &a.ring,
                &a.brush,
                Transform::from_translation(world(design, c) + Vec3::Y * 0.08)
                    .with_scale(Vec3::new(1.0, 0.5, 1.0)),
            );
        }
    }
}

/// The left panel's Tank Chess part: tools, new pieces, the picked piece.
pub(super) fn tools(ui: &mut egui::Ui, screen: &mut EditorScreen, orders: &mut Vec<EditorOrder>) {
    tool_choice(ui, screen);
    ui.separator();
    new_pieces(ui, &mut screen.piece);
    ui.separator();
    piece_card(ui, screen, orders);
}

/// The tools, the chosen one's hint, and the brush.
fn tool_choice(ui: &mut egui::Ui, screen: &mut EditorScreen) {
    ui.add_space(4.0);
    ui.label(egui::RichText::new("Tools").strong().color(theme::TITLE));
    ui.horizontal_wrapped(|ui| {
        for tool in Tool::CHESS {
            ui.selectable_value(&mut screen.tool, tool, tool.title());
        }
    });
    let hint = if screen.tool == Tool::Select {
        "Click a piece to pick it (its card opens below); with a piece picked, click an empty square to move it there. [ and ] turn it 45°, Delete removes it"
    } else {
        screen.tool.hint()
    };
    ui.label(egui::RichText::new(hint).weak().small());
    ui.horizontal(|ui| {
        ui.label("Brush:");
        for (r, name) in [(0u8, "1 square"), (1, "3 × 3"), (2, "5 × 5")] {
            ui.selectable_value(&mut screen.brush, r, name);
        }
    });
}

/// The kind, team and Command mark of new pieces.
fn new_pieces(ui: &mut egui::Ui, piece: &mut NewPiece) {
    ui.label(
        egui::RichText::new("New pieces")
            .strong()
            .color(theme::TITLE),
    );
    ui.horizontal_wrapped(|ui| {
        for (k, name) in KINDS {
            ui.selectable_value(&mut piece.kind, k, name);
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("Team:");
        for (t, name) in TEAM_NAMES.iter().enumerate() {
            ui.selectable_value(&mut piece.team, t, *name);
        }
    });
    ui.checkbox(&mut piece.command, "Command tank")
        .on_hover_text("The piece whose loss (or escape) decides the Standard game: one a side");
    if piece.team == 1 {
        ui.label(
            egui::RichText::new("While Black is left out of the file it is White turned through the centre; a piece placed for Black writes Black out.")
                .weak()
                .small(),
        );
    }
}

/// The picked piece: its kind, Command mark and facing, and its removal.
fn piece_card(ui: &mut egui::Ui, screen: &mut EditorScreen, orders: &mut Vec<EditorOrder>) {
    let Some(editor) = &screen.square else { return };
    let Some((team, i)) = screen.piece.picked else {
        ui.label(
            egui::RichText::new("Pick a piece with Select (or Piece) to edit it here.").weak(),
        );
        return;
    };
    let Some(piece) = editor.design().team(team).get(i).cloned() else {
        return;
    };
    ui.label(
        egui::RichText::new(format!(
            "{} {} on {}",
            TEAM_NAMES[team], piece.kind, piece.at
        ))
        .strong()
        .color(theme::TITLE),
    );
    let mut next = piece.clone();
    ui.horizontal_wrapped(|ui| {
        for (k, name) in KINDS {
            ui.selectable_value(&mut next.kind, k, name);
        }
    });
    ui.checkbox(&mut next.command, "Command tank");
    ui.horizontal(|ui| facing_row(ui, team, &piece, &mut next));
    if next != piece {
        orders.push(EditorOrder::Square(SquareEdit::SetPiece {
            team,
            index: i,
            piece: next,
        }));
    }
    if ui.button("Remove piece").on_hover_text("Delete").clicked() {
        screen.piece.picked = None;
        orders.push(EditorOrder::Square(SquareEdit::RemovePiece {
            team,
            index: i,
        }));
    }
}

/// The picked piece's facing and the buttons that turn it (into `next`).
fn facing_row(ui: &mut egui::Ui, team: usize, piece: &PieceSetup, next: &mut PieceSetup) {
    ui.label(format!("Facing {:?}", shown_facing(team, piece)));
    if ui
        .small_button("⟲")
        .on_hover_text("Turn 45° left ([)")
        .clicked()
    {
        next.facing = Some(shown_facing(team, piece).turned(-1));
    }
    if ui
        .small_button("⟳")
        .on_hover_text("Turn 45° right (])")
        .clicked()
    {
        next.facing = Some(shown_facing(team, piece).turned(1));
    }
    if ui
        .add_enabled(
            piece.facing.is_some(),
            egui::Button::new("towards the enemy"),
        )
        .on_disabled_hover_text("It faces the enemy already (the default)")
        .clicked()
    {
        next.facing = None;
    }
}

/// The right panel's Tank Chess part: the mode, announced play, position, symmetry.
pub(super) fn setup(ui: &mut egui::Ui, screen: &mut EditorScreen, orders: &mut Vec<EditorOrder>) {
    let Some(editor) = &screen.square else { return };
    let s = editor.design().setup.clone();
    ui.horizontal(|ui| board_size(ui, &mut screen.new_size, &s, orders));
    ui.separator();
    mode(ui, &s, orders);
    play_options(ui, &s, orders);
    ui.separator();
    symmetry(ui, orders);
}

/// The board's size, and Resize to the size asked for (`new_size`).
fn board_size(
    ui: &mut egui::Ui,
    new_size: &mut (u16, u16),
    s: &ChessSetup,
    orders: &mut Vec<EditorOrder>,
) {
    ui.label("Board");
    ui.add(
        egui::DragValue::new(&mut new_size.0)
            .range(4..=20)
            .suffix(" wide"),
    );
    ui.add(
        egui::DragValue::new(&mut new_size.1)
            .range(4..=20)
            .suffix(" high"),
    );
    let (w, h) = *new_size;
    let (w, h) = (u8::try_from(w).unwrap_or(20), u8::try_from(h).unwrap_or(20));
    if ui
        .add_enabled(
            (w, h) != (s.board.width, s.board.height),
            egui::Button::new("Resize"),
        )
        .on_disabled_hover_text("The board is this size already")
        .clicked()
    {
        orders.push(EditorOrder::Square(SquareEdit::Resize {
            width: w,
            height: h,
        }));
    }
}

/// The game mode and its own settings (the single type, the move limit).
fn mode(ui: &mut egui::Ui, s: &ChessSetup, orders: &mut Vec<EditorOrder>) {
    ui.label(egui::RichText::new("Mode").strong().color(theme::TITLE));
    let modes: [(&str, Mode); 6] = [
        ("Standard", Mode::Standard),
        ("Single type", Mode::SingleType(Kind::MT)),
        (
            "Last tank standing",
            Mode::LastTankStanding { move_limit: 50 },
        ),
        ("Escape of three", Mode::EscapeOfThree),
        ("Four players", Mode::FourPlayers { move_limit: 50 }),
        ("Capture the flag", Mode::CaptureTheFlag),
    ];
    let same = |a: &Mode, b: &Mode| std::mem::discriminant(a) == std::mem::discriminant(b);
    let mut mode = s.mode;
    egui::ComboBox::from_id_salt("editor-chess-mode")
        .selected_text(
            modes
                .iter()
                .find(|(_, m)| same(m, &mode))
                .map_or("?", |(n, _)| n),
        )
        .show_ui(ui, |ui| {
            for (name, m) in &modes {
                if ui.selectable_label(same(m, &mode), *name).clicked() && !same(m, &mode) {
                    mode = *m;
                }
            }
        });
    match &mut mode {
        Mode::SingleType(kind) => {
            ui.horizontal(|ui| {
                for (k, name) in KINDS {
                    ui.selectable_value(kind, k, name);
                }
            });
        }
        Mode::LastTankStanding { move_limit } | Mode::FourPlayers { move_limit } => {
            ui.add(
                egui::DragValue::new(move_limit)
                    .range(1..=999)
                    .prefix("move limit: "),
            );
        }
        _ => {}
    }
    if mode != s.mode {
        orders.push(EditorOrder::Square(SquareEdit::Mode(mode)));
    }
}

/// Announced play, and whether the setup is a position rather than a start.
fn play_options(ui: &mut egui::Ui, s: &ChessSetup, orders: &mut Vec<EditorOrder>) {
    ui.horizontal(|ui| {
        ui.label("Announced play:");
        let mut announced = s.announced;
        ui.selectable_value(&mut announced, None, "rules' default");
        ui.selectable_value(&mut announced, Some(true), "on");
        ui.selectable_value(&mut announced, Some(false), "off");
        if announced != s.announced {
            orders.push(EditorOrder::Square(SquareEdit::Announced(announced)));
        }
    });
    let mut position = s.position;
    if ui
        .checkbox(&mut position, "A position, not a starting setup")
        .on_hover_text("A puzzle or a test: pieces at risk on the first move are allowed")
        .changed()
    {
        orders.push(EditorOrder::Square(SquareEdit::Position(position)));
    }
}

/// The symmetry tools: Mirror, and the flips.
fn symmetry(ui: &mut egui::Ui, orders: &mut Vec<EditorOrder>) {
    ui.label(egui::RichText::new("Symmetry").strong().color(theme::TITLE));
    if ui
        .button("Mirror: Black is White turned through the centre")
        .on_hover_text("Black becomes White's image through the centre (written as Black left out), and the south half's obstacles and flags are copied onto the north half: a fair setup in one click")
        .clicked()
    {
        orders.push(EditorOrder::Square(SquareEdit::Mirror));
    }
    ui.horizontal(|ui| {
        ui.label("Flip:");
        for sym in Symmetry::ALL {
            if ui
                .button(sym.title())
                .on_hover_text(format!(
                    "Turn the whole board over by the {}; twice gives it back",
                    sym.title()
                ))
                .clicked()
            {
                orders.push(EditorOrder::Square(SquareEdit::Flip(sym)));
            }
        }
    });
}
