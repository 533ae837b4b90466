//! A joining machine's side: the state as its seat may see it, kept up to date from what
//! the host sends.
//!
//! A [`Mirror`] reads the host's messages ([`Mirror::receive`]) and writes this seat's
//! ([`Mirror::order`] and the rest). Its state is a real game state (the host's,
//! [`Playable::redacted`] for this seat), so everything the table computes from a state
//! (legal actions, odds, the what-if, a bot's choice) works on it unchanged, from what
//! this seat may see.

use super::copy::{self, Frame, SeatCopy};
use super::wire::{self, Join, Line, SeatInfo, Snapshot, StepUpdate, ToClient, ToHost, WireError};
use crate::framework::{LogLine, Match, Playable, PlayerId};

/// What a message from the host changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    /// The join was accepted.
    Welcomed,
    /// The join was refused: the reason.
    Refused(String),
    /// The lobby changed.
    Lobby,
    /// The state changed: a whole mirror, or an action's patch with its new log lines.
    State,
    /// An order of ours was refused: the reason and the rule.
    Refusal {
        reason: String,
        rule: Option<String>,
    },
    /// A line of chat.
    Chat { from: String, text: String },
    /// A notice.
    Notice(String),
    /// Someone asks to take back their last action.
    UndoAsked(String),
    /// Our copy did not match the host's: a [`ToHost::Resync`] was queued.
    OutOfStep,
}

/// The seat's copy of a game held by a host. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Mirror<G: Playable> {
    /// The seat this machine plays; `None` for a spectator (or before the welcome).
    pub seat: Option<PlayerId>,
    /// The token that takes the seat back after a disconnect.
    pub token: Option<String>,
    /// The room code and the setup, from the welcome.
    pub code: String,
    pub setup: String,
    pub lobby: Vec<SeatInfo>,
    /// The seat's log, as the host tells it.
    pub log: Vec<Line>,
    pub started: bool,
    /// Actions played so far.
    pub actions: u32,
    /// Actions of this seat played so far, as the steps told them: an order in flight is
    /// answered by one more of these, or by a refusal.
    pub own_actions: u32,
    /// Every state this seat was shown, for its own copy ([`Mirror::copy`]).
    pub frames: Vec<Frame>,
    text: String,
    state: Option<G>,
    /// Messages for the host, in order ([`Mirror::drain`]).
    out: Vec<Vec<u8>>,
}

impl<G: Playable> Default for Mirror<G> {
    fn default() -> Self {
        Self {
            seat: None,
            token: None,
            code: String::new(),
            setup: String::new(),
            lobby: Vec::new(),
            log: Vec::new(),
            started: false,
            actions: 0,
            own_actions: 0,
            frames: Vec::new(),
            text: String::new(),
            state: None,
            out: Vec::new(),
        }
    }
}

impl<G: Playable> Mirror<G> {
    /// A mirror that asks to join with `code` as `name`, taking back the seat of `token`
    /// if given, or seat `seat` if given, or watching.
    #[must_use]
    pub fn joining(
        code: &str,
        name: &str,
        token: Option<String>,
        seat: Option<u8>,
        watch: bool,
    ) -> Self {
        let mut m = Self::default();
        m.say(&ToHost::Join(Join {
            protocol: wire::PROTOCOL,
            game: G::NAME.to_string(),
            code: code.to_string(),
            name: name.to_string(),
            token,
            seat,
            watch,
        }));
        m
    }

    /// The state as this seat sees it, once the host has sent it.
    #[must_use]
    pub fn state(&self) -> Option<&G> {
        self.state.as_ref()
    }

    /// The mirror's text, as the host sent it.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether this seat must act now.
    #[must_use]
    pub fn to_act(&self) -> bool {
        match (&self.state, self.seat) {
            (Some(s), Some(seat)) => self.started && s.to_act().contains(&seat),
            _ => false,
        }
    }

    /// This seat's own copy of the game so far: every state it was shown and its log.
    /// `host` is where the host was, `title` the setup's title.
    #[must_use]
    pub fn copy(&self, host: &str, title: &str) -> SeatCopy {
        SeatCopy {
            game: G::NAME.to_string(),
            setup: self.setup.clone(),
            title: title.to_string(),
            seat: self.seat.map(|p| p.0),
            holders: (0..self.lobby.iter().map(|s| s.seat + 1).max().unwrap_or(0))
                .map(|seat| wire::holder_name(&self.lobby, seat))
                .collect(),
            host: host.to_string(),
            log: self.log.clone(),
            frames: self.frames.clone(),
        }
    }

    /// Messages for the host, in order.
    pub fn drain(&mut self) -> Vec<Vec<u8>> {
        std::mem::take(&mut self.out)
    }

    /// Orders `action` for this seat.
    pub fn order(&mut self, action: &G::Action) {
        let action = serde_json::to_string(action).unwrap_or_default();
        let seen = self.actions;
        self.say(&ToHost::Order { seen, action });
    }

    /// Says we are ready (or not) in the lobby.
    pub fn ready(&mut self, ready: bool) {
        self.say(&ToHost::Ready(ready));
    }

    /// Sends a line of chat.
    pub fn chat(&mut self, text: &str) {
        self.say(&ToHost::Chat(text.to_string()));
    }

    /// Asks the others to take back our last action.
    pub fn ask_undo(&mut self) {
        self.say(&ToHost::AskUndo);
    }

    /// Answers another player's request to take back.
    pub fn answer_undo(&mut self, yes: bool) {
        self.say(&ToHost::AnswerUndo(yes));
    }

    /// Asks for a rematch (once the game is over).
    pub fn rematch(&mut self) {
        self.say(&ToHost::Rematch);
    }

    /// Any message for the host (tests send hostile ones through this).
    pub fn say(&mut self, message: &ToHost) {
        self.out.push(wire::encode(message));
    }

    /// Reads a message from the host.
    ///
    /// # Errors
    /// A message that does not read, or a state that does not rebuild: the host or the
    /// network is broken, and the caller disconnects.
    pub fn receive(&mut self, bytes: &[u8]) -> Result<Heard, WireError> {
        Ok(match wire::decode_to_client(bytes)? {
            ToClient::Hello { .. } => Heard::Lobby,
            ToClient::Welcome(w) => {
                self.seat = w.seat.map(PlayerId);
                if !w.token.is_empty() {
                    self.token = Some(w.token);
                }
                self.code = w.code;
                self.setup = w.setup;
                Heard::Welcomed
            }
            ToClient::Refused(why) => Heard::Refused(why),
            ToClient::Lobby(seats) => {
                self.lobby = seats;
                Heard::Lobby
            }
            ToClient::State(snapshot) => self.whole(snapshot)?,
            ToClient::Step(step) => self.step(step)?,
            ToClient::Refusal(r) => Heard::Refusal {
                reason: r.reason,
                rule: r.rule,
            },
            ToClient::Chat { from, text } => Heard::Chat { from, text },
            ToClient::Notice(text) => Heard::Notice(text),
            ToClient::UndoAsked { by } => Heard::UndoAsked(by),
        })
    }

    fn whole(&mut self, snapshot: Snapshot) -> Result<Heard, WireError> {
        let state = G::from_mirror(snapshot.mirror.as_bytes())?;
        self.state = Some(state);
        copy::keep(
            &mut self.frames,
            Frame::Whole {
                actions: snapshot.actions,
                mirror: snapshot.mirror.clone(),
            },
        );
        self.text = snapshot.mirror;
        self.log = snapshot.log;
        self.actions = snapshot.actions;
        self.own_actions = snapshot.own_actions;
        self.started = snapshot.started;
        Ok(Heard::State)
    }

    fn step(&mut self, step: StepUpdate) -> Result<Heard, WireError> {
        let text = match step.patch.apply(&self.text) {
            Ok(text) if wire::mirror_hash(&text) == step.hash => text,
            _ => {
                self.say(&ToHost::Resync);
                return Ok(Heard::OutOfStep);
            }
        };
        let state = G::from_mirror(text.as_bytes())?;
        self.state = Some(state);
        let frame = if self
            .frames
            .last()
            .is_some_and(|f| f.actions() < step.actions)
        {
            Frame::Step {
                actions: step.actions,
                patch: step.patch,
            }
        } else {
            Frame::Whole {
                actions: step.actions,
                mirror: text.clone(),
            }
        };
        copy::keep(&mut self.frames, frame);
        self.text = text;
        self.log.extend(step.log);
        self.actions = step.actions;
        if self.seat == Some(PlayerId(step.by)) {
            self.own_actions += 1;
        }
        self.started = true;
        Ok(Heard::State)
    }
}

/// The mirror of `state` for `viewer`, as sent.
#[must_use]
pub fn mirror_text<G: Playable>(state: &G, viewer: Option<PlayerId>) -> String {
    String::from_utf8(state.redacted(viewer).to_mirror()).unwrap_or_default()
}

/// Log lines as the wire carries them, each with the rule its fact applies.
pub(crate) fn lines<G: Playable>(game: &Match<G>, log: &[LogLine]) -> Vec<Line> {
    let state = game.state();
    log.iter()
        .map(|l| {
            let fact = match (l.step, l.fact) {
                (None, Some(k)) => game.opening_facts().get(k),
                (Some(i), Some(k)) => game.history().get(i).and_then(|s| s.facts.get(k)),
                _ => None,
            };
            Line {
                step: l.step.and_then(|s| u32::try_from(s).ok()),
                fact: l.fact.and_then(|f| u32::try_from(f).ok()),
                text: l.text.clone(),
                rule: fact.and_then(|f| state.fact_rule(f)).map(str::to_string),
            }
        })
        .collect()
}
