//! Tank Chess in the client: the board and pieces in 3D, picking a piece and a square,
//! the moves to that square as buttons in the rulebook's notation, CHECK and ESCAPE in
//! the banner, and the chess clock. Bots, undo, saves in notation and replays come from
//! the one session.

pub mod analysis;
mod anims;
mod input;
mod panels;
pub mod table;

use bevy::prelude::*;

use crate::client::core::session::{GameClient, Order, Session};
use crate::client::core::{ClientSystems, GameScreen};
use crate::framework::{Game, PlayerId};
use crate::rules::tank_chess::{Action, Square, TankChess};

impl GameClient for TankChess {
    const SCREEN: GameScreen = GameScreen::TankChess;
    /// Pieces are picked on the board, and the moves to a square offered beside it.
    const OWN_CONTROLS: bool = true;

    fn logic(app: &mut App) {
        app.init_resource::<ChessPick>()
            .init_resource::<ChessCursor>()
            .init_resource::<ChessClock>()
            .init_resource::<ClockWanted>()
            .init_resource::<analysis::ChessAnalysis>()
            .add_systems(
                Update,
                (
                    forget_pick,
                    steer_cursor
                        .after(crate::client::frame::cursor::CursorSystems)
                        .run_if(not(crate::client::core::keyboard::typing)),
                    run_clock,
                    analysis::think,
                )
                    .chain()
                    .in_set(ClientSystems::Input)
                    .run_if(resource_exists::<Session<TankChess>>),
            );
    }

    fn scene(app: &mut App) {
        table::plugin(app);
        input::plugin(app);
        panels::plugin(app);
        crate::client::frame::redraw::watch::<ChessPick>(app);
        crate::client::frame::redraw::watch::<ChessCursor>(app);
        crate::client::frame::redraw::watch::<ChessClock>(app);
        crate::client::frame::redraw::watch::<analysis::ChessAnalysis>(app);
    }

    fn prompt(&self, _player: PlayerId) -> Option<String> {
        Some("click a piece, then a blue square (or the arrows and Enter)".into())
    }
}

/// What the player has picked on the board.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct ChessPick {
    /// The square under the pointer.
    pub hover: Option<Square>,
    /// The selected piece's square.
    pub piece: Option<Square>,
    /// The chosen destination, whose moves are offered.
    pub dest: Option<Square>,
    /// A square clicked that the selected piece cannot end on: the panel says why.
    pub refused: Option<Square>,
}

/// The keyboard's cursor on the board: shown from the first arrow key until the pointer
/// moves. It stands for the pointer meanwhile (the hovered square), and Enter clicks it.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChessCursor(pub Option<Square>);

/// The move keys: with a destination chosen, 1 to 9 play the moves offered for it, in the
/// order the panel lists them.
pub const MOVE_KEYS: [KeyCode; 9] = [
    KeyCode::Digit1,
    KeyCode::Digit2,
    KeyCode::Digit3,
    KeyCode::Digit4,
    KeyCode::Digit5,
    KeyCode::Digit6,
    KeyCode::Digit7,
    KeyCode::Digit8,
    KeyCode::Digit9,
];

/// The arrows step the keyboard's cursor from square to square (the first one shows it on
/// the picked piece, or on a piece that can move); Enter picks the square under it as a
/// click would; 1 to 9 play the moves offered to the chosen square. A move of the pointer
/// hides the cursor.
#[allow(clippy::too_many_arguments, reason = "a system's parameters")]
fn steer_cursor(
    mut steps: MessageReader<crate::client::frame::cursor::CursorStep>,
    motion: Option<Res<bevy::input::mouse::AccumulatedMouseMotion>>,
    mut keys: ResMut<ButtonInput<KeyCode>>,
    session: Res<Session<TankChess>>,
    legal: Option<Res<crate::client::core::session::Legal<TankChess>>>,
    mut cursor: ResMut<ChessCursor>,
    (mut pick, mut cursor_at): (
        ResMut<ChessPick>,
        ResMut<crate::client::frame::cursor::CursorAt>,
    ),
    mut orders: MessageWriter<Order<TankChess>>,
) {
    if cursor.0.is_some() && motion.is_some_and(|m| m.delta != Vec2::ZERO) {
        cursor.0 = None;
        pick.hover = None;
        steps.clear();
        return;
    }
    let game = session.state();
    let (w, h) = game.size();
    let moves = legal.as_ref().map_or(&[][..], |l| l.of(game.to_move()));
    for crate::client::frame::cursor::CursorStep(direction) in steps.read() {
        let Some(from) = cursor.0 else {
            // Shown on the picked piece, else on the first piece that can move.
            let movable = moves.iter().find_map(|a| match a {
                Action::Move { from, .. } | Action::Take { from, .. } => Some(*from),
                _ => None,
            });
            cursor.0 = Some(pick.piece.or(movable).or(pick.hover).unwrap_or(Square {
                col: w / 2,
                row: h / 2,
            }));
            continue;
        };
        let at = |sq: Square| {
            let p = table::square_centre((w, h), sq);
            Vec2::new(p.x, p.z)
        };
        let around = [(0i16, 1i16), (1, 0), (0, -1), (-1, 0)]
            .into_iter()
            .filter_map(|(dc, dr)| {
                let col = u8::try_from(i16::from(from.col) + dc).ok()?;
                let row = u8::try_from(i16::from(from.row) + dr).ok()?;
                (col < w && row < h).then_some(Square { col, row })
            })
            .map(|sq| (sq, at(sq) - at(from)));
        if let Some(next) = crate::client::frame::cursor::step_towards(*direction, around) {
            cursor.0 = Some(next);
        }
    }
    if cursor.0.is_some() && pick.hover != cursor.0 {
        pick.hover = cursor.0;
    }
    if cursor.is_changed() && cursor.0.is_some() {
        cursor_at.0 = cursor.0.map(|sq| table::square_centre((w, h), sq));
    }
    if let Some(sq) = cursor.0
        && keys.just_pressed(KeyCode::Enter)
    {
        pick_square(&mut pick, game, moves, sq);
        keys.clear_just_pressed(KeyCode::Enter);
    }
    let Some(dest) = pick.dest else { return };
    let Some(player) = session.deciding().filter(|_| session.interactive) else {
        return;
    };
    if let Some(n) = MOVE_KEYS.iter().position(|k| keys.just_pressed(*k))
        && let Some(action) = moves_to(moves, pick.piece, dest).nth(n)
    {
        orders.write(Order::Play(player, action));
    }
}

/// Seconds left for each seat on the chess clock, when it runs.
#[derive(Resource, Default, Debug, Clone)]
pub struct ChessClock(pub Option<[f32; 4]>);

/// The menu's choice: games opened from now on run the chess clock.
#[derive(Resource, Default, Debug, Clone, Copy)]
pub struct ClockWanted(pub bool);

/// A change of position drops the pick; a new game sets the clock.
fn forget_pick(
    session: Res<Session<TankChess>>,
    mut pick: ResMut<ChessPick>,
    mut clock: ResMut<ChessClock>,
    wanted: Res<ClockWanted>,
    mut last: Local<(u64, usize)>,
) {
    let now = (session.generation, session.game.history().len());
    if *last == now {
        return;
    }
    if last.0 != now.0 {
        // The rulebook's advice: 30 minutes each on boards up to 16 squares, 45 on larger.
        let (w, h) = session.state().size();
        let minutes = if w.max(h) > 16 { 45.0 } else { 30.0 };
        clock.0 = wanted.0.then_some([minutes * 60.0; 4]);
    }
    *last = now;
    *pick = ChessPick {
        hover: pick.hover,
        ..ChessPick::default()
    };
}

/// Runs the clock of the seat to move; at zero that seat loses on time.
fn run_clock(
    session: Res<Session<TankChess>>,
    mut clock: ResMut<ChessClock>,
    time: Res<Time>,
    mut orders: MessageWriter<Order<TankChess>>,
) {
    let game = session.state();
    if session.replay.is_some() || game.outcome().is_some() {
        return;
    }
    let side = game.to_move();
    // Through the resource, marked changed only when the shown second changes: the
    // panels are laid out again for that, not on every frame.
    let Some(left) = clock.bypass_change_detection().0.as_mut() else {
        return;
    };
    let t = &mut left[side.index().min(3)];
    if *t <= 0.0 {
        return;
    }
    let before = t.ceil();
    *t = (*t - time.delta_secs()).max(0.0);
    let out = *t <= 0.0;
    if t.ceil() != before {
        clock.set_changed();
    }
    if out {
        orders.write(Order::Play(side, Action::OutOfTime));
    }
}

/// The legal moves of the piece on `from` that end on `to`.
pub fn moves_to(
    legal: &[Action],
    from: Option<Square>,
    to: Square,
) -> impl Iterator<Item = Action> + '_ {
    legal.iter().copied().filter(move |a| {
        matches!(a, Action::Move { from: f, to: t, .. } | Action::Take { from: f, to: t, .. }
                if Some(*f) == from && *t == to)
    })
}

/// What a click on square `sq` picks: a piece of the side to move, then one of its
/// destinations. A square the picked piece cannot end on keeps the pick and is marked
/// refused, so that the panel says why; a second click there, or a click with nothing
/// picked, clears the pick.
pub fn pick_square(pick: &mut ChessPick, game: &TankChess, legal: &[Action], sq: Square) {
    let mine = game.piece_at(sq).is_some_and(|p| {
        p.state == crate::rules::tank_chess::PieceState::Active && p.side() == game.to_move()
    });
    let hover = pick.hover;
    if mine && pick.piece != Some(sq) && pick.dest.is_none() {
        *pick = ChessPick {
            hover,
            piece: Some(sq),
            ..ChessPick::default()
        };
    } else if pick.piece.is_some() && moves_to(legal, pick.piece, sq).next().is_some() {
        pick.dest = Some(sq);
        pick.refused = None;
    } else if mine {
        *pick = ChessPick {
            hover,
            piece: Some(sq),
            ..ChessPick::default()
        };
    } else if pick.piece.is_some() && pick.dest.is_none() && pick.refused != Some(sq) {
        pick.refused = Some(sq);
    } else {
        *pick = ChessPick {
            hover,
            ..ChessPick::default()
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tank_chess::ChessSetup;

    fn at(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn a_square_the_piece_cannot_reach_keeps_the_pick_and_is_marked_refused() {
        let setup = ChessSetup::builtin_default();
        let game = TankChess::new(&setup.scenario, &setup.rules);
        let legal = game.legal();
        // A white piece that has a move, and a square far out of its reach.
        let from = legal
            .iter()
            .find_map(|a| match a {
                Action::Move { from, .. } => Some(*from),
                _ => None,
            })
            .unwrap();
        let far = at("H9");
        assert!(game.why_not_to(from, far).is_some());
        let mut pick = ChessPick::default();
        pick_square(&mut pick, &game, &legal, from);
        assert_eq!(pick.piece, Some(from));
        pick_square(&mut pick, &game, &legal, far);
        assert_eq!((pick.piece, pick.refused), (Some(from), Some(far)));
        // A second click there lets go of the piece.
        pick_square(&mut pick, &game, &legal, far);
        assert_eq!(pick, ChessPick::default());
        // A destination clears the refusal and offers its moves.
        pick_square(&mut pick, &game, &legal, from);
        pick_square(&mut pick, &game, &legal, far);
        let to = legal
            .iter()
            .find_map(|a| match a {
                Action::Move { from: f, to, .. } if *f == from && *to != from => Some(*to),
                _ => None,
            })
            .unwrap();
        pick_square(&mut pick, &game, &legal, to);
        assert_eq!((pick.dest, pick.refused), (Some(to), None));
    }
}
