//! Stepping through a match: a record's actions played again one by one, or a seat's own
//! copy of a game played across machines, state by state.

use super::{LogLine, Seat, SeatError, SeatedMatch};
use crate::framework::playable::Playable;
use crate::framework::{Match, PlayerId, RecordedAction};

/// A record stepped through as a replay: its actions, and the whole log told in advance
/// so that any line can be clicked to jump there.
#[derive(Clone, Debug)]
pub struct Replay<G: Playable> {
    pub actions: Vec<RecordedAction<G::Action>>,
    pub log: Vec<LogLine>,
    /// A seat's own copy of a game played across machines, stepped through in place of a
    /// record: it has no actions to play again, only the states the seat was shown.
    pub seen: Option<Seen<G>>,
}

impl<G: Playable> Replay<G> {
    /// How many actions the replay runs to.
    #[must_use]
    pub fn len(&self) -> usize {
        match &self.seen {
            Some(seen) => seen.frames.last().map_or(0, |(n, _)| *n),
            None => self.actions.len(),
        }
    }

    /// True when it has no actions.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What a seat was shown of a game played across machines: each state after how many
/// actions, and the rule each line of the log applies.
#[derive(Clone, Debug)]
pub struct Seen<G: Playable> {
    pub frames: Vec<(usize, G)>,
    /// The seat the copy was kept for; `None` for a spectator's.
    pub seat: Option<PlayerId>,
    /// The rule id of each line of the replay's log, where it names one.
    pub rules: Vec<Option<String>>,
    /// The state shown: how many actions it follows.
    pub at: usize,
}

impl<G: Playable> SeatedMatch<G> {
    /// A seat's own copy of a game played across machines, to step through as a replay:
    /// `frames` are the states the seat was shown (each after how many actions, at least
    /// one), `log` its log with the rule of each line. It opens at its first state.
    #[must_use]
    pub fn seat_copy(
        frames: Vec<(usize, G)>,
        log: Vec<(LogLine, Option<String>)>,
        setup: G::Setup,
        source: String,
        seats: Vec<Seat>,
        seat: Option<PlayerId>,
    ) -> Option<Self> {
        let (at, first) = frames.first().cloned()?;
        let (log, rules) = log.into_iter().unzip();
        let mut m = Self::mirrored(first, setup, source, seats);
        m.replay = Some(Replay {
            actions: Vec::new(),
            log,
            seen: Some(Seen {
                frames,
                seat,
                rules,
                at,
            }),
        });
        m.viewer = seat;
        m.pass_to = None;
        Some(m)
    }

    /// How many actions the state shown follows: the history's length, or in a seat's
    /// copy the state it shows.
    #[must_use]
    pub fn shown(&self) -> usize {
        match self.replay.as_ref().and_then(|r| r.seen.as_ref()) {
            Some(seen) => seen.at,
            None => self.game.history().len(),
        }
    }

    /// Whether this is a seat's own copy of a game played across machines, which can be
    /// stepped through but not played on (the dice stayed with the host).
    #[must_use]
    pub fn is_seat_copy(&self) -> bool {
        self.replay.as_ref().is_some_and(|r| r.seen.is_some())
    }

    /// Replay: shows the match after `len` recorded actions.
    ///
    /// # Errors
    /// [`SeatError::Play`] when a recorded action no longer plays.
    pub fn seek(&mut self, len: usize) -> Result<(), SeatError> {
        let Some(replay) = &mut self.replay else {
            return Ok(());
        };
        if let Some(seen) = &mut replay.seen {
            // The last state shown at or before `len` (the first, before the copy begins).
            let i = seen
                .frames
                .partition_point(|(n, _)| *n <= len)
                .saturating_sub(1);
            if let Some((n, state)) = seen.frames.get(i) {
                seen.at = *n;
                self.game = Match::mirrored(state.clone());
            }
            return Ok(());
        }
        let len = len.min(replay.actions.len());
        let actions = replay.actions[..len].to_vec();
        if len < self.game.history().len() {
            self.game.undo_to(len);
        }
        for step in &actions[self.game.history().len()..] {
            self.game.play(step.player, &step.action)?;
        }
        Ok(())
    }

    /// Leaves a replay where it stands and plays on from there (the record is untouched).
    /// A seat's copy cannot be played on ([`SeatError::SeatCopy`]): its hidden things are
    /// stand-ins, and the dice stayed with the host.
    ///
    /// # Errors
    /// [`SeatError::SeatCopy`].
    pub fn take_over(&mut self) -> Result<(), SeatError> {
        if self.is_seat_copy() {
            return Err(SeatError::SeatCopy);
        }
        if self.replay.take().is_some() {
            self.viewer = self.settled_viewer();
            if self.privacy_matters() {
                self.pass_to = self.viewer;
            }
        }
        Ok(())
    }
}
