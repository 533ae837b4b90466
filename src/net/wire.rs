//! The messages between a host and the machines that join it, and their one decoder.
//!
//! Every message is one JSON object. A message to the host is small (an order, a line of
//! chat) and is refused whole when it is larger than [`MAX_TO_HOST`] bytes, before any
//! parsing; nothing in it is trusted. Messages to a client carry the seat's mirror of the
//! state: whole once ([`ToClient::State`]), then as a [`Patch`] of its text per action.

use serde::{Deserialize, Serialize};

/// The version of this protocol. A client of another version is refused with a sentence
/// that says so, by the transport's check and again by [`ToHost::Join`].
pub const PROTOCOL: u32 = 1;

/// The largest message a client may send, in bytes: an order or a line of chat fits many
/// times over.
pub const MAX_TO_HOST: usize = 8 * 1024;

/// The largest line of chat, in characters.
pub const MAX_CHAT: usize = 200;

/// The longest name a player may give, in characters.
pub const MAX_NAME: usize = 32;

/// The longest room code, in characters.
pub const MAX_CODE: usize = 16;

/// The largest message the host sends, in bytes: a whole mirror of the largest battle
/// with its log is well under it.
pub const MAX_TO_CLIENT: usize = 8 << 20;

/// What a client sends the host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ToHost {
    /// The first message: who this is and which room they mean.
    Join(Join),
    /// Ready to start (or not), in the lobby.
    Ready(bool),
    /// An order for the seat this connection holds. `seen` is how many actions the
    /// client had seen: an order made on an older state is refused, not played.
    Order { seen: u32, action: String },
    /// A line of chat.
    Chat(String),
    /// Send me the whole mirror again (my copy did not match its hash).
    Resync,
    /// Ask the others to take back the last action of mine.
    AskUndo,
    /// Consent (or not) to another player's request to take back.
    AnswerUndo(bool),
}

/// Who joins, and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Join {
    pub protocol: u32,
    /// The game the client expects (`"tank-combat"`).
    pub game: String,
    /// The room code the host shows.
    pub code: String,
    /// The player's name.
    pub name: String,
    /// The seat token from an earlier join: take back that seat.
    pub token: Option<String>,
    /// The seat wished for; `None` takes the first open one.
    pub seat: Option<u8>,
    /// Watch instead of playing.
    pub watch: bool,
}

/// What the host sends a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ToClient {
    /// The first message on a connection: what the host plays, so that a client that
    /// does not know yet can open the right game.
    Hello { protocol: u32, game: String },
    /// The join is accepted: the seat (none for a spectator) and its token, kept to
    /// rejoin.
    Welcome(Welcome),
    /// The join is refused, with the reason; the host disconnects next.
    Refused(String),
    /// The seats as they stand.
    Lobby(Vec<SeatInfo>),
    /// The whole mirror of the state and the seat's log so far.
    State(Snapshot),
    /// One action's change: the mirror's patch, the hash of the new mirror and the new
    /// lines of the seat's log.
    Step(StepUpdate),
    /// An order of this client was refused, with the rule that refuses it.
    Refusal(RefusalNote),
    /// A line of chat.
    Chat { from: String, text: String },
    /// A notice for everyone ("waiting for Ann to reconnect").
    Notice(String),
    /// Someone asks to take back their last action: answer with [`ToHost::AnswerUndo`].
    UndoAsked { by: String },
}

/// An accepted join.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Welcome {
    pub game: String,
    /// The setup's name.
    pub setup: String,
    pub seat: Option<u8>,
    pub token: String,
    /// The host's room code, shown again in the lobby.
    pub code: String,
}

/// A seat, as the lobby shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    pub seat: u8,
    /// The seat's name in the game (a side, a tank).
    pub name: String,
    pub holder: Holder,
    pub ready: bool,
}

/// Who holds a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Holder {
    /// A person at the host's machine.
    Host,
    /// A remote person, by name; `connected` is false while they are away.
    Remote { player: String, connected: bool },
    /// A remote seat no one has taken yet.
    Open,
    /// A bot, by name.
    Bot(String),
}

/// A whole mirror.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Actions played so far.
    pub actions: u32,
    /// The mirror's text ([`crate::framework::Playable::to_mirror`]).
    pub mirror: String,
    pub log: Vec<Line>,
    /// Whether the game has started (it is in the lobby until then).
    pub started: bool,
}

/// One action's change to a mirror.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepUpdate {
    pub actions: u32,
    pub patch: Patch,
    /// The hash of the mirror's text after the patch ([`mirror_hash`]).
    pub hash: u64,
    pub log: Vec<Line>,
}

/// A refused order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefusalNote {
    /// The order, as the client sent it.
    pub action: String,
    pub reason: String,
    /// The id of the rule that refuses it, in the game's rules map.
    pub rule: Option<String>,
}

/// A line of a seat's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// The action it belongs to, from 0; `None` for the opening.
    pub step: Option<u32>,
    pub text: String,
    /// The rule it applies (the log links to it).
    pub rule: Option<String>,
}

/// A text changed in its middle: keep `keep` bytes of the old text's start and `tail`
/// bytes of its end, with `middle` between them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Patch {
    pub keep: u32,
    pub tail: u32,
    pub middle: String,
}

impl Patch {
    /// The patch from `old` to `new`: their common start and end are kept (cut at
    /// character boundaries).
    #[must_use]
    pub fn between(old: &str, new: &str) -> Self {
        let (a, b) = (old.as_bytes(), new.as_bytes());
        let mut keep = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        while !new.is_char_boundary(keep) || !old.is_char_boundary(keep) {
            keep -= 1;
        }
        let room = a.len().min(b.len()) - keep;
        let mut tail = a
            .iter()
            .rev()
            .zip(b.iter().rev())
            .take(room)
            .take_while(|(x, y)| x == y)
            .count();
        while !new.is_char_boundary(b.len() - tail) || !old.is_char_boundary(a.len() - tail) {
            tail -= 1;
        }
        Self {
            keep: u32::try_from(keep).unwrap_or(u32::MAX),
            tail: u32::try_from(tail).unwrap_or(u32::MAX),
            middle: new[keep..b.len() - tail].to_string(),
        }
    }

    /// The new text.
    ///
    /// # Errors
    /// When the patch does not fit `old` (a copy out of step: ask for the whole mirror).
    pub fn apply(&self, old: &str) -> Result<String, WireError> {
        let (keep, tail) = (self.keep as usize, self.tail as usize);
        if keep.saturating_add(tail) > old.len()
            || !old.is_char_boundary(keep)
            || !old.is_char_boundary(old.len() - tail)
        {
            return Err(WireError::PatchMisfit);
        }
        let mut out = String::with_capacity(keep + self.middle.len() + tail);
        out.push_str(&old[..keep]);
        out.push_str(&self.middle);
        out.push_str(&old[old.len() - tail..]);
        Ok(out)
    }
}

/// The hash a mirror's text is checked by.
#[must_use]
pub fn mirror_hash(text: &str) -> u64 {
    crate::framework::stable_hash(text)
}

/// Why a message could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    #[error("message of {size} bytes is larger than the {most} allowed")]
    TooLarge { size: usize, most: usize },
    #[error("malformed message: {0}")]
    Malformed(String),
    #[error("{what} is longer than the {most} characters allowed")]
    TooLong { what: &'static str, most: usize },
    #[error("a patch that does not fit the mirror it was made for")]
    PatchMisfit,
    #[error(transparent)]
    Mirror(#[from] crate::framework::MirrorError),
}

/// Writes a message.
#[must_use]
pub fn encode<T: Serialize>(message: &T) -> Vec<u8> {
    // Our own plain message types always serialize.
    serde_json::to_vec(message).unwrap_or_default()
}

/// Reads a message from a client: size first, then shape, then every text's length.
///
/// # Errors
/// [`WireError`] saying what is wrong; the host disconnects the sender.
pub fn decode_to_host(bytes: &[u8]) -> Result<ToHost, WireError> {
    if bytes.len() > MAX_TO_HOST {
        return Err(WireError::TooLarge {
            size: bytes.len(),
            most: MAX_TO_HOST,
        });
    }
    let message: ToHost =
        serde_json::from_slice(bytes).map_err(|e| WireError::Malformed(e.to_string()))?;
    let long = |what, text: &str, most| {
        if text.chars().count() > most {
            Err(WireError::TooLong { what, most })
        } else {
            Ok(())
        }
    };
    match &message {
        ToHost::Join(j) => {
            long("the name", &j.name, MAX_NAME)?;
            long("the room code", &j.code, MAX_CODE)?;
            long("the game", &j.game, MAX_NAME)?;
            long("the seat token", j.token.as_deref().unwrap_or(""), 64)?;
        }
        ToHost::Chat(text) => long("a line of chat", text, MAX_CHAT)?,
        _ => {}
    }
    Ok(message)
}

/// The game a host plays, from the first message it sends ([`ToClient::Hello`]).
///
/// # Errors
/// Anything else, or another protocol, in a sentence.
pub fn hello_game(bytes: &[u8]) -> Result<crate::rules::GameKind, String> {
    match decode_to_client(bytes) {
        Ok(ToClient::Hello { protocol, .. }) if protocol != PROTOCOL => Err(format!(
            "the host speaks version {protocol} of Tanktable's network protocol and this program version {PROTOCOL}: use the same version of Tanktable"
        )),
        Ok(ToClient::Hello { game, .. }) => crate::rules::GameKind::from_name(&game)
            .ok_or_else(|| format!("the host plays a game this program does not know: {game}")),
        Ok(_) => Err("the host did not say which game it plays".into()),
        Err(e) => Err(format!("the host sent {e}")),
    }
}

/// Reads a message from the host.
///
/// # Errors
/// [`WireError`] saying what is wrong.
pub fn decode_to_client(bytes: &[u8]) -> Result<ToClient, WireError> {
    if bytes.len() > MAX_TO_CLIENT {
        return Err(WireError::TooLarge {
            size: bytes.len(),
            most: MAX_TO_CLIENT,
        });
    }
    serde_json::from_slice(bytes).map_err(|e| WireError::Malformed(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_patch_rebuilds_the_new_text_and_keeps_what_did_not_change() {
        for (old, new) in [
            ("", ""),
            ("abc", "abc"),
            ("abcdef", "abXYef"),
            ("abc", ""),
            ("", "xyz"),
            ("aaaa", "aa"),
            ("aa", "aaaa"),
            ("été", "éta"),
            ("{\"x\":1,\"y\":2}", "{\"x\":1,\"y\":3}"),
        ] {
            let p = Patch::between(old, new);
            assert_eq!(p.apply(old).unwrap(), new, "{old:?} -> {new:?}");
            assert!(p.middle.len() <= new.len());
        }
        let p = Patch::between("{\"x\":1,\"y\":2}", "{\"x\":1,\"y\":3}");
        assert_eq!(p.middle, "3");
    }

    #[test]
    fn a_patch_that_does_not_fit_is_an_error_not_a_panic() {
        let p = Patch {
            keep: 10,
            tail: 10,
            middle: String::new(),
        };
        assert_eq!(p.apply("short"), Err(WireError::PatchMisfit));
        let p = Patch {
            keep: 1,
            tail: 0,
            middle: String::new(),
        };
        assert_eq!(p.apply("é"), Err(WireError::PatchMisfit));
    }

    #[test]
    fn the_decoder_refuses_large_malformed_and_long_messages() {
        let big = vec![b' '; MAX_TO_HOST + 1];
        assert!(matches!(
            decode_to_host(&big),
            Err(WireError::TooLarge { .. })
        ));
        assert!(matches!(
            decode_to_host(b"{\"Order\":"),
            Err(WireError::Malformed(_))
        ));
        assert!(matches!(
            decode_to_host(b"{\"Launch\":1}"),
            Err(WireError::Malformed(_))
        ));
        let chat = encode(&ToHost::Chat("x".repeat(MAX_CHAT + 1)));
        assert!(matches!(
            decode_to_host(&chat),
            Err(WireError::TooLong { .. })
        ));
        let ok = encode(&ToHost::Order {
            seen: 3,
            action: "\"HullDown\"".into(),
        });
        assert!(decode_to_host(&ok).is_ok());
    }
}
