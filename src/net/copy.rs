//! A seat's own copy of a game played across machines: every state the host showed the
//! seat, in order, with the seat's log as it was told.
//!
//! The host keeps the whole record (its seed, its dice, every seat's secrets); a joining
//! machine keeps only what reached it, so its copy can never hold more than its seat was
//! shown. The client steps through a copy as it steps through a replay
//! ([`crate::framework::SeatedMatch::seat_copy`]).

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::wire::{Line, Patch};
use crate::data::{Diagnostic, Diagnostics};
use crate::framework::{Playable, PlayerId};

/// A state the seat was shown, after `actions` actions: the whole mirror (the first one,
/// and after an undo, a rejoin or a resync), or the patch from the state before it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Frame {
    Whole { actions: u32, mirror: String },
    Step { actions: u32, patch: Patch },
}

impl Frame {
    /// How many actions had been played when the seat was shown this state.
    #[must_use]
    pub fn actions(&self) -> u32 {
        match self {
            Frame::Whole { actions, .. } | Frame::Step { actions, .. } => *actions,
        }
    }
}

/// Keeps `frame` as the newest of `frames`, dropping first any state it comes back to or
/// before (an undo, a rematch): the frames always count actions upwards, each patch
/// applying to the frame before it.
pub fn keep(frames: &mut Vec<Frame>, frame: Frame) {
    let actions = frame.actions();
    let patched = matches!(frame, Frame::Step { .. });
    if patched && frames.last().is_none_or(|f| f.actions() >= actions) {
        // A patch only follows the state it was made from; the caller sends a whole one.
        return;
    }
    while frames.last().is_some_and(|f| f.actions() >= actions) {
        frames.pop();
    }
    frames.push(frame);
}

/// A seat's copy, as saved (`saves/<game>-<setup>-<time>.seat.ron`). See the
/// [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "SeatCopy")]
pub struct SeatCopy {
    /// The game (`"range-duel"`).
    pub game: String,
    /// The setup as the host named it (a file this machine must have to open the copy).
    pub setup: String,
    /// The setup's title, for lists.
    pub title: String,
    /// The seat this copy was kept for, from 0; `None` for a spectator.
    pub seat: Option<u8>,
    /// Who held each seat, as the lobby last told it ("Ann", "a bot").
    pub holders: Vec<String>,
    /// Where the host was.
    pub host: String,
    /// The seat's log, each line with the rule it applies.
    pub log: Vec<Line>,
    pub frames: Vec<Frame>,
}

impl SeatCopy {
    /// Writes the copy as RON, after a comment that says what it is (`about`: the game, the
    /// setup and the seat).
    ///
    /// # Errors
    /// A sentence when it cannot be written.
    pub fn to_text(&self, about: &str) -> Result<String, String> {
        let body = crate::data::to_ron_pretty(self)?;
        Ok(format!(
            "// {about}: a seat's own copy of a game played across machines.\n\
             // It holds only what this seat was shown; the host keeps the whole record.\n\
             // Open it from the menu's saved games (Replay) to step through it.\n{body}\n"
        ))
    }

    /// Reads a copy of game `G` from `text` (read from `path`).
    ///
    /// # Errors
    /// Every problem, as `file:line:col: what is wrong`.
    pub fn read<G: Playable>(path: &Path, text: &str) -> Result<Self, Diagnostics> {
        let name = path.display().to_string();
        let (copy, _): (Self, _) = crate::data::load_ron(&name, text)?;
        if copy.game != G::NAME {
            return Err(Diagnostics::whole_file(
                &name,
                format!(
                    "a seat's copy of `{}`, read as one of `{}`",
                    copy.game,
                    G::NAME
                ),
            ));
        }
        Ok(copy)
    }

    /// The states the seat was shown, each after how many actions, in order.
    ///
    /// # Errors
    /// The first frame that does not read (a patch that does not fit, a state that fails
    /// the game's checks), placed at the file's start with the action it follows.
    pub fn states<G: Playable>(&self, path: &Path) -> Result<Vec<(usize, G)>, Diagnostics> {
        let name = path.display().to_string();
        let wrong = |actions: u32, why: String| {
            Diagnostics(vec![Diagnostic {
                file: name.clone(),
                line: 1,
                col: 1,
                message: format!("the state after action {actions} does not read: {why}"),
            }])
        };
        if self.frames.is_empty() {
            return Err(Diagnostics::whole_file(
                &name,
                "the copy holds no state: the seat was never shown the game".to_string(),
            ));
        }
        let mut text = String::new();
        let mut out = Vec::with_capacity(self.frames.len());
        let mut last = None;
        for frame in &self.frames {
            let actions = frame.actions();
            if last.is_some_and(|l| actions <= l) {
                return Err(wrong(
                    actions,
                    "the frames must count actions upwards".to_string(),
                ));
            }
            last = Some(actions);
            text = match frame {
                Frame::Whole { mirror, .. } => mirror.clone(),
                Frame::Step { patch, .. } => patch
                    .apply(&text)
                    .map_err(|e| wrong(actions, e.to_string()))?,
            };
            let state =
                G::from_mirror(text.as_bytes()).map_err(|e| wrong(actions, e.to_string()))?;
            out.push((actions as usize, state));
        }
        Ok(out)
    }

    /// The seat, as the game counts players.
    #[must_use]
    pub fn player(&self) -> Option<PlayerId> {
        self.seat.map(PlayerId)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(actions: u32) -> Frame {
        Frame::Whole {
            actions,
            mirror: actions.to_string(),
        }
    }

    fn step(actions: u32) -> Frame {
        Frame::Step {
            actions,
            patch: Patch { edits: Vec::new() },
        }
    }

    #[test]
    fn an_undo_drops_the_states_it_takes_back_and_a_stray_patch_is_not_kept() {
        let mut frames = Vec::new();
        keep(&mut frames, step(1));
        assert!(frames.is_empty(), "a patch needs a state before it");
        keep(&mut frames, whole(0));
        keep(&mut frames, step(1));
        keep(&mut frames, step(2));
        keep(&mut frames, step(3));
        keep(&mut frames, whole(2));
        let counts: Vec<u32> = frames.iter().map(Frame::actions).collect();
        assert_eq!(counts, [0, 1, 2]);
        assert!(matches!(frames[2], Frame::Whole { .. }));
        keep(&mut frames, step(2));
        assert_eq!(frames.len(), 3, "a patch that does not count on is dropped");
        keep(&mut frames, whole(0));
        assert_eq!(frames, [whole(0)], "a rematch starts the copy again");
    }
}
