//! The engine at the table: an evaluation bar (who is better, by how much, and the line the
//! engine expects, in notation) and a Hint that picks the engine's move on the board. The
//! engine thinks on a worker thread, on a fixed node budget, so the table stays live.

use std::thread::JoinHandle;

use bevy::prelude::*;
use bevy_egui::egui;

use super::ChessPick;
use crate::client::core::session::Session;
use crate::client::table::theme;
use crate::framework::{Game, PlayerId};
use crate::rules::tank_chess::engine::{Analysis, Engine, Limits};
use crate::rules::tank_chess::{Action, BLACK, TankChess, WHITE, notation, opponent, side_name};

/// The engine's budget at the table: a fraction of a second.
const NODES: u64 = 40_000;

/// A position: the session's generation and revision.
type Key = (u64, u64);

/// The engine's view of the game on the table.
#[derive(Resource, Default)]
pub struct ChessAnalysis {
    /// The bar is shown, and kept up to date after every move.
    pub bar: bool,
    /// A hint was asked for (for the position on the table when it was).
    hint: Option<Option<Key>>,
    /// The last analysis and the position it is of.
    result: Option<(Key, Analysis)>,
    job: Option<(Key, JoinHandle<Analysis>)>,
}

impl ChessAnalysis {
    /// Asks for the engine's move in the position on the table: when it is found, its
    /// piece and square are picked on the board.
    pub fn ask_hint(&mut self) {
        self.hint = Some(None);
    }

    /// The last analysis, if it is of the position `key`.
    #[must_use]
    pub fn of(&self, key: Key) -> Option<&Analysis> {
        self.result.as_ref().filter(|r| r.0 == key).map(|r| &r.1)
    }

    /// Whether a hint is waited for.
    #[must_use]
    pub fn asked(&self) -> bool {
        self.hint.is_some()
    }

    /// Whether the engine is thinking.
    #[must_use]
    pub fn thinking(&self) -> bool {
        self.job.is_some()
    }
}

/// Whether the engine can judge the game: two sides, not over.
fn judged(game: &TankChess) -> bool {
    game.player_count() == 2 && game.outcome().is_none()
}

/// Starts the engine when the bar or a hint wants the position on the table, takes its
/// answer, and picks a hint's move.
pub(super) fn think(
    session: Res<Session<TankChess>>,
    mut analysis: ResMut<ChessAnalysis>,
    mut pick: ResMut<ChessPick>,
) {
    let key = (session.generation, session.revision);
    let game = session.state();
    if analysis.hint == Some(None) {
        analysis.hint = Some(Some(key));
    }
    if analysis
        .job
        .as_ref()
        .is_some_and(|(_, job)| job.is_finished())
        && let Some((at, job)) = analysis.job.take()
        && let Ok(found) = job.join()
    {
        analysis.result = Some((at, found));
    }
    let wanted = analysis.bar || analysis.hint == Some(Some(key));
    if wanted && judged(game) && analysis.of(key).is_none() && analysis.job.is_none() {
        let position = game.clone();
        analysis.job = Some((
            key,
            std::thread::spawn(move || {
                Engine::new(Limits::nodes(12, NODES)).analyse(&position, None)
            }),
        ));
    }
    if analysis.hint == Some(Some(key))
        && let Some(best) = analysis.of(key).and_then(|a| a.best)
    {
        analysis.hint = None;
        *pick = match best {
            Action::Move { from, to, .. } | Action::Take { from, to, .. } => ChessPick {
                piece: Some(from),
                dest: Some(to),
                refused: None,
                ..*pick
            },
            Action::Escape { from } => ChessPick {
                piece: Some(from),
                dest: None,
                refused: None,
                ..*pick
            },
            Action::Resign | Action::OutOfTime => pick.clone(),
        };
    } else if analysis.hint.is_some_and(|h| h != Some(key)) || !judged(game) {
        // The position moved on (or the game ended) before the hint was found.
        if analysis.hint.is_some() {
            analysis.hint = None;
        }
    }
}

/// The bar, the line and the Hint button, at the foot of the status window.
pub(super) fn draw(ui: &mut egui::Ui, session: &Session<TankChess>, analysis: &mut ChessAnalysis) {
    let game = session.state();
    if !judged(game) {
        return;
    }
    ui.separator();
    let key = (session.generation, session.revision);
    draw_controls(ui, session, analysis);
    if !analysis.bar {
        return;
    }
    let Some(a) = analysis
        .of(key)
        .or_else(|| analysis.result.as_ref().map(|r| &r.1))
    else {
        ui.label(egui::RichText::new("thinking…").weak());
        return;
    };
    let stale = analysis.of(key).is_none();
    // The score is the side to move's; the bar shows White's share.
    let to_move = game.to_move();
    draw_bar(ui, a, to_move);
    if !stale && !a.line.is_empty() {
        draw_line(ui, a, to_move);
    }
}

/// The Evaluation checkbox, the Hint button and the spinner while the engine thinks.
fn draw_controls(ui: &mut egui::Ui, session: &Session<TankChess>, analysis: &mut ChessAnalysis) {
    let mut bar = analysis.bar;
    ui.horizontal(|ui| {
        if ui
            .checkbox(&mut bar, "Evaluation")
            .on_hover_text("The engine's view after every move: who is better, and the line it expects")
            .changed()
        {
            analysis.bar = bar;
        }
        let asked = analysis.hint.is_some();
        let deciding = session.deciding().is_some() && session.interactive;
        if ui
            .add_enabled(!asked && deciding, egui::Button::new("💡 Hint"))
            .on_hover_text("The engine picks the move it would play: its piece and square light up, then choose it below")
            .on_disabled_hover_text(if asked {
                "The engine is thinking"
            } else {
                "It is not a person's move"
            })
            .clicked()
        {
            analysis.ask_hint();
        }
        if analysis.thinking() {
            ui.spinner();
        }
    });
}

/// The evaluation bar: White's share of it, and who is better by how much in words.
fn draw_bar(ui: &mut egui::Ui, a: &Analysis, to_move: PlayerId) {
    let white = if to_move == WHITE { a.score } else { -a.score };
    let share = 1.0 / (1.0 + (-f64::from(white) / 400.0).exp());
    let words = match a.mate_in() {
        Some(n) => {
            let winner = if n > 0 { to_move } else { opponent(to_move) };
            format!("{} mates in {}", side_name(winner), (n.abs() + 1) / 2)
        }
        None if white.abs() < 30 => "about even".to_string(),
        None => format!(
            "{} {:+.1}",
            side_name(if white > 0 { WHITE } else { BLACK }),
            f64::from(white.abs()) / 100.0
        ),
    };
    #[allow(clippy::cast_possible_truncation, reason = "a share of one")]
    ui.add(
        egui::ProgressBar::new(share as f32)
            .desired_width(240.0)
            .fill(theme::EVAL_BAR)
            .text(
                egui::RichText::new(words)
                    .color(theme::EVAL_BAR_TEXT)
                    .strong(),
            ),
    )
    .on_hover_text("White's share of the bar: the engine's score, a light tank counting 3.0");
}

/// The line the engine expects, in notation, with its depth and positions on hover.
fn draw_line(ui: &mut egui::Ui, a: &Analysis, to_move: PlayerId) {
    let line: Vec<String> = a
        .line
        .iter()
        .map(|m| notation::move_text(m, None))
        .collect();
    ui.label(
        egui::RichText::new(format!("Line: {}", line.join(" , ")))
            .monospace()
            .small(),
    )
    .on_hover_text(format!(
        "The moves the engine expects, {} first (depth {}, {} positions)",
        side_name(to_move),
        a.depth,
        a.nodes
    ));
}
