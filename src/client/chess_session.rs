//! A game of Tank Chess in the client: the match and its move list in notation, an
//! optional bot opponent, imported records stepped through as replays. Input writes
//! [`ChessOrder`] messages; this plugin plays them through the rules.

use std::path::Path;

use bevy::prelude::*;

use super::Screen;
use crate::framework::bot::Bot;
use crate::framework::{Game, Match, MatchRng, PlayerId};
use crate::rules::tank_chess::bot::{ChessBot, Strength};
use crate::rules::tank_chess::{Action, Fact, Rules, Scenario, TankChess, notation};
use crate::rules::tank_commander::resolve_path;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<ChessOrder>()
        .init_resource::<ChessPick>()
        .add_systems(OnExit(Screen::Chess), leave)
        .add_systems(
            Update,
            (take_orders, bot_moves, run_clock)
                .chain()
                .run_if(resource_exists::<ChessTable>),
        );
}

/// The Tank Chess rules in use: the project's file, else the built-in copy.
///
/// # Errors
/// Every problem in the rules file.
pub fn chess_rules() -> Result<Rules, String> {
    Rules::load(None).map_err(|d| d.to_string())
}

/// The game on the board.
#[derive(Resource)]
pub struct ChessTable {
    pub game: Match<TankChess>,
    /// The position before the first move.
    pub start: TankChess,
    /// The setup file, as named in records.
    pub setup: String,
    /// Every move so far with its facts, for the move list.
    pub moves: Vec<(Action, Vec<Fact>)>,
    /// The side the bot plays, and how well.
    pub bot: Option<(PlayerId, Strength)>,
    /// An imported record: its moves, stepped through.
    pub replay: Option<Vec<Action>>,
    /// Bumped on every change.
    pub revision: u64,
    /// The last refusal or save.
    pub notice: Option<String>,
    /// The legal moves of the position, worked out once per change.
    legal: Vec<Action>,
    /// Seconds left on the chess clock for each seat, when it is on.
    pub clock: Option<[f32; 4]>,
}

impl ChessTable {
    /// A new game on `scenario`.
    #[must_use]
    pub fn new(scenario: &Scenario, rules: &Rules, setup: String) -> Self {
        let start = TankChess::new(scenario, rules);
        Self {
            game: Match::new(start.clone(), 0),
            start,
            setup,
            moves: Vec::new(),
            bot: None,
            replay: None,
            revision: 0,
            notice: None,
            legal: Vec::new(),
            clock: None,
        }
        .refreshed()
    }

    fn refreshed(mut self) -> Self {
        self.refresh();
        self
    }

    fn refresh(&mut self) {
        self.legal = self.game.state().legal();
    }

    /// The legal moves of the side to move.
    #[must_use]
    pub fn legal(&self) -> &[Action] {
        &self.legal
    }

    /// Opens a setup (a new game) or a game record in notation (a replay at its start).
    ///
    /// # Errors
    /// Every problem in the file, or the first move that does not play.
    pub fn open(path: &Path) -> Result<Self, String> {
        let rules = chess_rules()?;
        let name = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
        if !notation::is_record(&text) {
            let scenario = Scenario::parse(&name, &text, &rules).map_err(|d| d.to_string())?;
            return Ok(Self::new(&scenario, &rules, name));
        }
        let parsed = notation::parse_record(&text).map_err(|e| format!("{name}: {e}"))?;
        let setup = resolve_path(&parsed.setup, path.parent());
        let scenario = Scenario::load(&setup, &rules).map_err(|d| d.to_string())?;
        let mut table = Self::new(&scenario, &rules, parsed.setup.clone());
        let mut game = table.start.clone();
        let mut actions = Vec::new();
        for (i, mv) in parsed.moves.iter().enumerate() {
            let a = notation::parse_move(&game, mv)
                .map_err(|e| format!("{name}: move {}: {e}", i / 2 + 1))?;
            let side = game.to_move();
            game.apply(side, &a, &mut MatchRng::new(0))?;
            actions.push(a);
        }
        table.replay = Some(actions);
        Ok(table)
    }

    /// The current position.
    #[must_use]
    pub fn board(&self) -> &TankChess {
        self.game.state()
    }

    /// Plays a move for the side to move.
    ///
    /// # Errors
    /// Why the move is not legal.
    pub fn play(&mut self, action: Action) -> Result<(), String> {
        let side = self.board().to_move();
        let facts = self
            .game
            .play(side, &action)
            .map_err(|e| e.to_string())?
            .to_vec();
        self.moves.push((action, facts));
        self.revision += 1;
        self.refresh();
        Ok(())
    }

    /// Takes back moves until `len` are left.
    pub fn undo_to(&mut self, len: usize) {
        if len < self.moves.len() {
            self.game.undo_to(len);
            self.moves.truncate(len);
            self.revision += 1;
            self.refresh();
        }
    }

    /// Moves a replay to the position after `len` moves.
    pub fn seek(&mut self, len: usize) {
        let Some(actions) = self.replay.clone() else {
            return;
        };
        let len = len.min(actions.len());
        self.undo_to(len);
        while self.moves.len() < len {
            let a = actions[self.moves.len()];
            if self.play(a).is_err() {
                break;
            }
        }
        self.revision += 1;
    }

    /// Turns the chess clock on with the rulebook's advice: 30 minutes each on boards up
    /// to 16 squares, 45 on larger ones.
    pub fn start_clock(&mut self) {
        let (w, h) = self.start.size();
        let minutes = if w.max(h) > 16 { 45.0 } else { 30.0 };
        self.clock = Some([minutes * 60.0; 4]);
    }

    /// The game so far in the rulebook's notation.
    #[must_use]
    pub fn record(&self) -> String {
        notation::record_text(&self.setup, self.start.name(), &self.moves)
    }
}

/// What the player has picked on the board.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct ChessPick {
    /// The square under the pointer.
    pub hover: Option<crate::rules::tank_chess::Square>,
    /// The selected piece's square.
    pub piece: Option<crate::rules::tank_chess::Square>,
    /// The chosen destination, whose moves are offered.
    pub dest: Option<crate::rules::tank_chess::Square>,
}

/// A player's order on the chess board.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum ChessOrder {
    Play(Action),
    /// Take back the last move (and the bot's answer, against a bot).
    Undo,
    /// Replay: go to the position after this many moves.
    Seek(usize),
    /// Save the game in notation to the saves folder.
    Save,
}

fn take_orders(
    mut orders: MessageReader<ChessOrder>,
    mut table: ResMut<ChessTable>,
    mut pick: ResMut<ChessPick>,
) {
    for order in orders.read() {
        pick.piece = None;
        pick.dest = None;
        match order {
            ChessOrder::Play(a) => {
                if table.replay.is_some() {
                    table.notice =
                        Some("This is a replay: step through it with the move list".into());
                } else {
                    table.notice = table.play(*a).err();
                }
            }
            ChessOrder::Undo => {
                let back = if table.bot.is_some() { 2 } else { 1 };
                let len = table.moves.len().saturating_sub(back);
                table.undo_to(len);
            }
            ChessOrder::Seek(n) => table.seek(*n),
            ChessOrder::Save => {
                let dir = super::data_dir().join("saves");
                let path = dir.join(format!("tank-chess-{}.txt", super::session::clock_seed()));
                let written = std::fs::create_dir_all(&dir)
                    .map_err(|e| e.to_string())
                    .and_then(|()| {
                        crate::data::write_atomic(&path, &table.record()).map_err(|e| e.to_string())
                    });
                table.notice = Some(match written {
                    Ok(()) => format!("Saved to {}", path.display()),
                    Err(e) => format!("Cannot save: {e}"),
                });
            }
        }
    }
}

/// The bot answers when it is its move (a moment later, so the move can be seen).
fn bot_moves(
    mut table: ResMut<ChessTable>,
    time: Res<Time>,
    mut wait: Local<f32>,
    mut rng: Local<Option<MatchRng>>,
) {
    let Some((side, strength)) = table.bot else {
        return;
    };
    if table.replay.is_some() || table.board().to_act().first() != Some(&side) {
        *wait = 0.0;
        return;
    }
    *wait += time.delta_secs();
    if *wait < 0.4 {
        return;
    }
    *wait = 0.0;
    let rng = rng.get_or_insert_with(|| MatchRng::new(super::session::clock_seed()));
    if let Some(a) = ChessBot(strength).choose(table.board(), side, rng) {
        table.notice = table.play(a).err();
    }
}

/// Runs the side to move's clock; when it reaches zero, that side loses on time.
fn run_clock(mut table: ResMut<ChessTable>, time: Res<Time>) {
    if table.replay.is_some() || table.board().outcome().is_some() {
        return;
    }
    let side = usize::from(table.board().to_move().0.min(3));
    let Some(clock) = table.clock.as_mut() else {
        return;
    };
    clock[side] = (clock[side] - time.delta_secs()).max(0.0);
    if clock[side] <= 0.0 {
        let _ = table.play(Action::OutOfTime);
    }
}

/// Leaves the chess screen: the game is dropped.
fn leave(mut commands: Commands) {
    commands.remove_resource::<ChessTable>();
}
