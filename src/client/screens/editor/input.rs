//! The editor's clicks and keys on the hex table: the hex under the pointer, brush
//! strokes and clicks of each tool, and the keys on the picked unit, all made orders.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::{EditorOrder, EditorScreen, Tool, chess};
use crate::editor::{Edit, Terrain};
use crate::rules::tank_commander::setup::UnitSetup;

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
    let hex = crate::client::table::hex::world_to_hex(point);
    let board = design.board();
    let cell = board.offset_of(hex);
    design.contains(cell).then_some(cell)
}

/// The cells a brush of `radius` covers around `cell`, on the board.
#[must_use]
pub fn brush_cells(design: &crate::editor::HexDesign, cell: [i32; 2], radius: u8) -> Vec<[i32; 2]> {
    let board = design.board();
    let centre = board.hex_at(cell[0], cell[1]);
    centre
        .range(u32::from(radius))
        .map(|h| board.offset_of(h))
        .filter(|c| design.contains(*c))
        .collect()
}

/// The two buttons as a brush reads them this frame: held, where a click shorter than
/// a frame (pressed and released between two frames, as a quick click is at a few frames
/// a second) counts as held, and whether such a click came (its stroke ends once it is
/// painted). A release ends the stroke; with no button down the next starts afresh.
pub(crate) fn brush_buttons(
    buttons: &ButtonInput<MouseButton>,
    stroke_from: &mut Option<[i32; 2]>,
    orders: &mut MessageWriter<EditorOrder>,
) -> ([bool; 2], bool) {
    let both = [MouseButton::Left, MouseButton::Right];
    let taps = both.map(|b| buttons.just_pressed(b) && buttons.just_released(b));
    if both
        .iter()
        .zip(taps)
        .any(|(b, tap)| buttons.just_released(*b) && !tap)
    {
        orders.write(EditorOrder::EndStroke);
    }
    let tapped = taps.contains(&true);
    if !buttons.any_pressed(both) && !tapped {
        *stroke_from = None;
    }
    (
        [
            buttons.pressed(MouseButton::Left) || taps[0],
            buttons.pressed(MouseButton::Right) || taps[1],
        ],
        tapped,
    )
}

/// Clicks and drags on the table become orders.
pub(super) fn pointer(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera3d>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut screen: ResMut<EditorScreen>,
    mut orders: MessageWriter<EditorOrder>,
) {
    let screen = &mut *screen;
    if screen.is_chess() {
        chess::pointer(
            &buttons,
            &window,
            (camera.0, camera.1),
            egui.as_deref(),
            screen,
            &mut orders,
        );
        return;
    }
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
    let ([left, right], tapped) = brush_buttons(&buttons, &mut screen.stroke_from, &mut orders);
    let Some(cell) = hover else { return };
    let clicked = buttons.just_pressed(MouseButton::Left);
    match screen.tool {
        Tool::Terrain | Tool::Erase | Tool::Smoke
            if left || (right && screen.tool == Tool::Smoke) =>
        {
            brush_stroke(screen, cell, left, &mut orders);
        }
        _ if clicked => click(screen, cell, &mut orders),
        _ => {}
    }
    if tapped {
        orders.write(EditorOrder::EndStroke);
    }
}

/// A brush tool's stroke reaching `cell`: paint, erase, or lay (`left`) or clear smoke on
/// every hex the pointer crossed since the last frame, so a quick drag leaves no gaps.
fn brush_stroke(
    screen: &mut EditorScreen,
    cell: [i32; 2],
    left: bool,
    orders: &mut MessageWriter<EditorOrder>,
) {
    let Some(editor) = &screen.editor else { return };
    let design = editor.design();
    let board = design.board();
    let from = screen.stroke_from.unwrap_or(cell);
    let mut cells: Vec<[i32; 2]> = board
        .hex_at(from[0], from[1])
        .line_to(board.hex_at(cell[0], cell[1]))
        .flat_map(|h| brush_cells(design, board.offset_of(h), screen.brush))
        .collect();
    cells.sort_unstable();
    cells.dedup();
    screen.stroke_from = Some(cell);
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

/// A click on `cell` with a tool that acts on clicks: fill, objective, mission hex,
/// mine, unit, select.
fn click(screen: &mut EditorScreen, cell: [i32; 2], orders: &mut MessageWriter<EditorOrder>) {
    let Some(editor) = &screen.editor else { return };
    let design = editor.design();
    match screen.tool {
        Tool::Fill => {
            orders.write(EditorOrder::Edit(Edit::Fill {
                at: cell,
                terrain: screen.terrain,
            }));
        }
        Tool::Objective => {
            orders.write(EditorOrder::Edit(Edit::Objective {
                at: cell,
                on: !design.objective(cell),
            }));
        }
        Tool::MissionHex => {
            orders.write(EditorOrder::Edit(Edit::MissionHex { at: cell }));
        }
        Tool::Mine => {
            let side = match design.mine_at(cell) {
                Some(_) => None,
                None => screen.sides().get(screen.side).cloned(),
            };
            orders.write(EditorOrder::Edit(Edit::Mine { at: cell, side }));
        }
        Tool::Unit => match design.unit_at(cell) {
            Some(i) => screen.selected = Some(i),
            None => {
                let unit = screen.new_unit(editor, cell);
                screen.selected = Some(design.setup.units.len());
                orders.write(EditorOrder::Edit(Edit::AddUnit(Box::new(unit))));
            }
        },
        Tool::Select => match (design.unit_at(cell), screen.selected) {
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
pub(super) fn keys(
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
        screen.piece.picked = None;
    }
    if screen.is_chess() {
        chess::keys(&keys, &mut screen, &mut orders);
        return;
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
