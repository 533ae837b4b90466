//! A game that waits while its scenario is edited.
//!
//! The game's Edit scenario… button takes the open game off the table and keeps it, and opens the
//! editor on its setup file. "Back to the game" puts it back: unchanged when the file is
//! as it was, else started again on the saved file with the same seats and seed, and the
//! actions played so far carried over for as long as they still play. This is the hot
//! reload of [`crate::client::frame::reload`] for a game whose file the editor itself changed:
//! nothing is lost without being said.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use crate::client::core::Screen;
use crate::client::core::open::OpenEditor;
use crate::client::core::open::{BackToGame, EditTheGame};
use crate::client::core::session::{GameClient, Session, insert_session};
use crate::dispatch_game;
use crate::framework::SeatedMatch;
use crate::rules::{FileKind, GameKind};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<EditTheGame>()
        .add_message::<BackToGame>()
        .add_systems(OnEnter(Screen::Menu), |mut commands: Commands| {
            commands.remove_resource::<WaitingGame>();
        });
}

/// The game off the table while its setup is edited.
#[derive(Resource)]
pub struct WaitingGame(Box<dyn Waiting>);

impl WaitingGame {
    /// The game's title, for the button that goes back to it.
    #[must_use]
    pub fn title(&self) -> String {
        self.0.title()
    }
}

trait Waiting: Send + Sync {
    fn title(&self) -> String;
    /// Back on the table, with the setup as saved at `saved` (the file the game was
    /// opened from, or the player's copy of it when it ships).
    fn resume(self: Box<Self>, world: &mut World, saved: Option<PathBuf>);
}

struct Kept<G: GameClient> {
    session: Session<G>,
    /// The setup file's text when the game was put aside.
    text: String,
    path: PathBuf,
}

/// Puts the open game aside and opens its setup in the editor.
pub(super) fn suspend(world: &mut World) {
    if world
        .resource_mut::<Messages<EditTheGame>>()
        .drain()
        .count()
        == 0
    {
        return;
    }
    for game in GameKind::ALL {
        if let Some(path) = dispatch_game!(game, take(world)) {
            world.write_message(OpenEditor {
                path: Some(path),
                ..OpenEditor::default()
            });
            return;
        }
    }
}

/// Takes game `G` off the table if it is open and was opened from a setup file; the
/// file's path. Otherwise says why on the game's banner.
fn take<G: GameClient>(world: &mut World) -> Option<PathBuf> {
    let mut session = world.get_resource_mut::<Session<G>>()?;
    let found = session.path.clone().and_then(|path| {
        let text = std::fs::read_to_string(&path).ok()?;
        let found = crate::rules::detect(&path, &text).ok()?;
        (found.kind == FileKind::Setup
            && matches!(G::KIND, GameKind::TankCommander | GameKind::TankChess))
        .then_some((path, text))
    });
    let Some((path, text)) = found else {
        session.notice = Some(
            "Only a Tank Commander scenario or a Tank Chess setup opened from its file can be edited while it is played".into(),
        );
        return None;
    };
    let session = world.remove_resource::<Session<G>>()?;
    world.insert_resource(WaitingGame(Box::new(Kept {
        session,
        text,
        path: path.clone(),
    })));
    Some(path)
}

/// Puts the waiting game back on the table, with the saved change.
pub(super) fn resume(world: &mut World) {
    if world.resource_mut::<Messages<BackToGame>>().drain().count() == 0 {
        return;
    }
    let saved = world.get_resource::<super::EditorScreen>().and_then(|s| {
        s.editor
            .as_ref()
            .and_then(|e| e.path.clone())
            .or_else(|| s.square.as_ref().and_then(|e| e.path.clone()))
    });
    if let Some(WaitingGame(game)) = world.remove_resource::<WaitingGame>() {
        game.resume(world, saved);
    }
}

impl<G: GameClient> Waiting for Kept<G> {
    fn title(&self) -> String {
        G::setup_title(&self.session.setup).0
    }

    fn resume(self: Box<Self>, world: &mut World, saved: Option<PathBuf>) {
        let Kept {
            session,
            text,
            path,
        } = *self;
        // Saved as the player's own copy: the game goes on from the copy.
        let path = saved.filter(|p| p.is_file()).unwrap_or(path);
        let now = std::fs::read_to_string(&path).unwrap_or_else(|_| text.clone());
        let (seated, notice) = if now == text {
            (session.seated, None)
        } else {
            match carry_over(&session.seated, &path, &now) {
                Ok((seated, carried)) => {
                    let total = session.game.history().len();
                    let notice = if carried == total {
                        format!(
                            "The scenario changed in the editor: the game goes on with all {total} action(s) played so far"
                        )
                    } else {
                        format!(
                            "The scenario changed in the editor: {carried} of the {total} action(s) played so far still play on it, and the game goes on from there"
                        )
                    };
                    (seated, Some(notice))
                }
                Err(why) => (
                    session.seated,
                    Some(format!(
                        "The saved file cannot be played ({}); the game goes on as it was",
                        why.lines().next().unwrap_or_default()
                    )),
                ),
            }
        };
        let mut back = Session::new(seated, Some(path));
        back.notice = notice;
        insert_session(world, back);
    }
}

/// The match `old` started again on the setup in `text` (see
/// [`SeatedMatch::replayed_on`]); how many of its actions still played.
///
/// # Errors
/// The setup's problems, or a game that cannot start.
pub fn carry_over<G: GameClient>(
    old: &SeatedMatch<G>,
    path: &Path,
    text: &str,
) -> Result<(SeatedMatch<G>, usize), String> {
    let rules = G::load_rules(None).map_err(|d| d.to_string())?;
    let setup = G::parse_setup(path, text, &rules).map_err(|d| d.to_string())?;
    old.replayed_on(setup).map_err(|e| e.to_string())
}
