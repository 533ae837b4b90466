//! Tank Chess in the client: the board and pieces in 3D, picking a piece and a square,
//! the moves to that square as buttons in the rulebook's notation, CHECK and ESCAPE in
//! the banner, and the chess clock. Bots, undo, saves in notation and replays come from
//! the one session.

pub mod analysis;
pub(crate) mod board;
mod panels;

use bevy::prelude::*;

use crate::client::session::{GameClient, Order, Session};
use crate::client::{ClientSystems, GameScreen};
use crate::framework::{Game, PlayerId};
use crate::rules::tank_chess::{Action, Square, TankChess};

impl GameClient for TankChess {
    const SCREEN: GameScreen = GameScreen::TankChess;
    /// Pieces are picked on the board, and the moves to a square offered beside it.
    const OWN_CONTROLS: bool = true;

    fn logic(app: &mut App) {
        app.init_resource::<ChessPick>()
            .init_resource::<ChessClock>()
            .init_resource::<ClockWanted>()
            .init_resource::<analysis::ChessAnalysis>()
            .add_systems(
                Update,
                (forget_pick, run_clock, analysis::think)
                    .chain()
                    .in_set(ClientSystems::Input)
                    .run_if(resource_exists::<Session<TankChess>>),
            );
    }

    fn scene(app: &mut App) {
        board::plugin(app);
        panels::plugin(app);
        crate::client::redraw::watch::<ChessPick>(app);
        crate::client::redraw::watch::<ChessClock>(app);
        crate::client::redraw::watch::<analysis::ChessAnalysis>(app);
    }

    fn prompt(&self, _player: PlayerId) -> Option<String> {
        Some("click a piece, then a blue square".into())
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
    let Some(left) = clock.0.as_mut() else {
        return;
    };
    let t = &mut left[side.index().min(3)];
    if *t <= 0.0 {
        return;
    }
    *t = (*t - time.delta_secs()).max(0.0);
    if *t <= 0.0 {
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
/// destinations; anything else clears the pick.
pub fn pick_square(pick: &mut ChessPick, game: &TankChess, legal: &[Action], sq: Square) {
    let mine = game.piece_at(sq).is_some_and(|p| {
        p.state == crate::rules::tank_chess::PieceState::Active && p.side() == game.to_move()
    });
    if mine && pick.piece != Some(sq) && pick.dest.is_none() {
        pick.piece = Some(sq);
        pick.dest = None;
    } else if pick.piece.is_some() && moves_to(legal, pick.piece, sq).next().is_some() {
        pick.dest = Some(sq);
    } else if mine {
        pick.piece = Some(sq);
        pick.dest = None;
    } else {
        pick.piece = None;
        pick.dest = None;
    }
}
