//! Opening a design in the editor: a Tank Commander scenario or a Tank Chess setup, from
//! its file or as a new board.

use std::path::Path;

use bevy::prelude::*;

use super::{EditorScreen, OpenEditor, Tool};
use crate::client::core::Screen;
use crate::editor::{HexEditor, SquareEditor};
use crate::rules::GameKind;
use crate::rules::tank_commander::Rules;

/// Opens the design asked for (a file, or a new board of either game).
pub(super) fn open_editor(
    mut opens: MessageReader<OpenEditor>,
    mut screen: ResMut<EditorScreen>,
    mut next: ResMut<NextState<Screen>>,
    problem: Option<ResMut<crate::client::core::session::OpenProblem>>,
) {
    let Some(open) = opens.read().last().cloned() else {
        return;
    };
    let chess = match &open.path {
        Some(path) => std::fs::read_to_string(path)
            .ok()
            .and_then(|t| crate::rules::detect(path, &t).ok())
            .is_some_and(|d| d.game == GameKind::TankChess),
        None => open.chess,
    };
    let opened = if chess {
        open_square(&open, &mut screen)
    } else {
        open_hex(&open, &mut screen)
    };
    match opened {
        Ok(()) => {
            settle(&mut screen, &open, chess);
            next.set(Screen::Editor);
        }
        Err(e) => {
            // Shown where the designer is: the editor's status line, or the menu.
            if let Some(mut problem) = problem {
                problem.0 = Some(e.clone());
            }
            screen.status = e;
        }
    }
}

/// Opens a Tank Chess setup (its file, or a new board) in the editor.
fn open_square(open: &OpenEditor, screen: &mut EditorScreen) -> Result<(), String> {
    let rules = crate::rules::tank_chess::Rules::builtin();
    match &open.path {
        Some(path) => SquareEditor::open(path, rules),
        None => {
            let (w, h) = open.size.unwrap_or((16, 16));
            Ok(SquareEditor::new_board(
                rules,
                u8::try_from(w).unwrap_or(16),
                u8::try_from(h).unwrap_or(16),
            ))
        }
    }
    .map(|e| {
        let b = e.design().setup.board;
        screen.new_size = (u16::from(b.width), u16::from(b.height));
        screen.square = Some(e);
        screen.editor = None;
    })
}

/// Opens a Tank Commander scenario (its file, or a new board) in the editor.
fn open_hex(open: &OpenEditor, screen: &mut EditorScreen) -> Result<(), String> {
    let rules = Rules::builtin();
    match &open.path {
        Some(path) => HexEditor::open(path, rules),
        None => {
            let (w, h) = open.size.unwrap_or((12, 12));
            Ok(HexEditor::new(rules, w, h))
        }
    }
    .map(|e| {
        let b = e.design().setup.board;
        screen.new_size = (b.width, b.height);
        screen.editor = Some(e);
        screen.square = None;
    })
}

/// The editor's state around a design just opened: its file name, the status line, a
/// tool of its game, nothing picked, no balance run.
fn settle(screen: &mut EditorScreen, open: &OpenEditor, chess: bool) {
    screen.in_place = open.in_place;
    screen.file_name = open.path.as_deref().and_then(Path::file_stem).map_or_else(
        || if chess { "my-setup" } else { "my-scenario" }.to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    screen.status = match &open.path {
        Some(p) => format!("Opened {}", crate::data::portable_path(p)),
        None if chess => "A new board: put obstacles, place pieces, then Save".to_string(),
        None => "A new board: paint terrain, place units, then Save".to_string(),
    };
    let tools: &[Tool] = if chess { &Tool::CHESS } else { &Tool::ALL };
    if !tools.contains(&screen.tool) {
        screen.tool = Tool::Select;
    }
    screen.selected = None;
    screen.balance = None;
    screen.generation += 1;
    screen.autosaved = screen.generation;
}
