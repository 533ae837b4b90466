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
    /// The game is over: play it again, the same setup and seats, new dice.
    Rematch,
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
    /// Actions of the receiving seat so far (what it may ask to take back).
    #[serde(default)]
    pub own_actions: u32,
}

/// One action's change to a mirror.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepUpdate {
    pub actions: u32,
    /// The seat whose action it was.
    pub by: u8,
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
    /// Which of its action's facts it tells (from 0); `None` for the action itself.
    #[serde(default)]
    pub fact: Option<u32>,
    pub text: String,
    /// The rule it applies (the log links to it).
    pub rule: Option<String>,
}

impl Line {
    /// The line as the table's log holds it (the rule aside).
    #[must_use]
    pub fn log_line(&self) -> crate::framework::LogLine {
        crate::framework::LogLine {
            step: self.step.map(|s| s as usize),
            fact: self.fact.map(|f| f as usize),
            text: self.text.clone(),
        }
    }
}

/// Who holds seat `seat`, as `lobby` says: a person's name, "the host", "heuristic bot"
/// or "open".
#[must_use]
pub fn holder_name(lobby: &[SeatInfo], seat: u8) -> String {
    match lobby.iter().find(|s| s.seat == seat).map(|s| &s.holder) {
        Some(Holder::Remote { player, .. }) => player.clone(),
        Some(Holder::Bot(name)) => format!("{name} bot"),
        Some(Holder::Host) => "the host".into(),
        Some(Holder::Open) | None => "open".into(),
    }
}

/// How a mirror's text changed: edits in order, each keeping some of the old text, then
/// dropping some, then inserting new text; the rest of the old text follows the last.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Patch {
    pub edits: Vec<Edit>,
}

/// One edit of a [`Patch`]: `keep` bytes of the old text, then `drop` bytes left out,
/// then `insert`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    pub keep: u32,
    pub drop: u32,
    pub insert: String,
}

/// How many token edits the diff looks for before it settles for one replacement of
/// everything between the common start and end.
const MOST_EDITS: usize = 128;

impl Patch {
    /// The patch from `old` to `new`: a shortest edit script over their JSON tokens
    /// (Myers' diff), so that an action that changes a few numbers here and there sends
    /// only those.
    #[must_use]
    pub fn between(old: &str, new: &str) -> Self {
        let (a, b) = (tokens(old), tokens(new));
        let pairs = matched(&a, &b, MOST_EDITS).unwrap_or_else(|| ends(&a, &b));
        let mut edits = Vec::new();
        let (mut ai, mut bj, mut keep) = (0, 0, 0);
        let gap = |keep: usize, a: &[&str], b: &[&str]| Edit {
            keep: u32::try_from(keep).unwrap_or(u32::MAX),
            drop: u32::try_from(a.iter().map(|t| t.len()).sum::<usize>()).unwrap_or(u32::MAX),
            insert: b.concat(),
        };
        for (x, y) in pairs {
            if x > ai || y > bj {
                edits.push(gap(keep, &a[ai..x], &b[bj..y]));
                keep = 0;
            }
            keep += a[x].len();
            (ai, bj) = (x + 1, y + 1);
        }
        if ai < a.len() || bj < b.len() {
            edits.push(gap(keep, &a[ai..], &b[bj..]));
        }
        Self { edits }
    }

    /// The new text.
    ///
    /// # Errors
    /// When the patch does not fit `old` (a copy out of step: ask for the whole mirror).
    pub fn apply(&self, old: &str) -> Result<String, WireError> {
        let mut out = String::with_capacity(old.len());
        let mut at = 0usize;
        for e in &self.edits {
            let kept = at
                .checked_add(e.keep as usize)
                .ok_or(WireError::PatchMisfit)?;
            out.push_str(old.get(at..kept).ok_or(WireError::PatchMisfit)?);
            at = kept
                .checked_add(e.drop as usize)
                .ok_or(WireError::PatchMisfit)?;
            old.get(kept..at).ok_or(WireError::PatchMisfit)?;
            out.push_str(&e.insert);
        }
        out.push_str(old.get(at..).ok_or(WireError::PatchMisfit)?);
        Ok(out)
    }
}

/// The text cut after every JSON delimiter (all ASCII, so every cut is a character
/// boundary).
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        if matches!(b, b',' | b'[' | b']' | b'{' | b'}' | b':') {
            out.push(&text[start..=i]);
            start = i + 1;
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// The tokens `a` and `b` share, as index pairs in order: their common start and end only
/// (when the full diff would take too long).
fn ends(a: &[&str], b: &[&str]) -> Vec<(usize, usize)> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let room = a.len().min(b.len()) - head;
    let tail = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    let mut pairs: Vec<(usize, usize)> = (0..head).map(|i| (i, i)).collect();
    pairs.extend((0..tail).rev().map(|i| (a.len() - 1 - i, b.len() - 1 - i)));
    pairs
}

/// The longest common subsequence of `a` and `b` as index pairs in order, by Myers' O(ND)
/// diff; `None` when more than `most` insertions and deletions separate them.
#[allow(
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    reason = "indices of token lists far below isize::MAX; every index read is checked non-negative"
)]
fn matched(a: &[&str], b: &[&str], most: usize) -> Option<Vec<(usize, usize)>> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max = (a.len() + b.len()).min(most) as isize;
    let off = max + 1;
    let mut v = vec![0isize; 2 * max as usize + 3];
    let mut trace: Vec<Vec<isize>> = Vec::new();
    let mut found = None;
    'search: for d in 0..=max {
        trace.push(v.clone());
        let mut k = -d;
        while k <= d {
            let i = (k + off) as usize;
            let mut x = if k == -d || (k != d && v[i - 1] < v[i + 1]) {
                v[i + 1]
            } else {
                v[i - 1] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[i] = x;
            if x >= n && y >= m {
                found = Some(d);
                break 'search;
            }
            k += 2;
        }
    }
    let depth = found?;
    let (mut x, mut y) = (n, m);
    let mut pairs = Vec::new();
    for d in (0..=depth).rev() {
        let v = &trace[d as usize];
        let k = x - y;
        let prev_k = if k == -d || (k != d && v[(k - 1 + off) as usize] < v[(k + 1 + off) as usize])
        {
            k + 1
        } else {
            k - 1
        };
        let prev_x = v[(prev_k + off) as usize];
        let prev_y = prev_x - prev_k;
        while x > prev_x && y > prev_y && x > 0 && y > 0 {
            x -= 1;
            y -= 1;
            pairs.push((x as usize, y as usize));
        }
        if d > 0 {
            (x, y) = (prev_x, prev_y);
        }
    }
    pairs.reverse();
    Some(pairs)
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
            ("[1,2,3,4,5,6]", "[1,3,4,5,6,7]"),
            ("[1,2,3]", "[3,2,1]"),
            ("{\"a\":[1,2],\"b\":\"é,x\"}", "{\"b\":\"é,y\",\"a\":[2]}"),
        ] {
            let p = Patch::between(old, new);
            assert_eq!(p.apply(old).unwrap(), new, "{old:?} -> {new:?}");
        }
        // Two numbers changed far apart: two small edits, not the text between them.
        let old = format!(
            "{{\"turn\":3,\"pieces\":[{}],\"last\":9}}",
            "[1,2],".repeat(200)
        );
        let new = old
            .replace("\"turn\":3", "\"turn\":4")
            .replace("\"last\":9", "\"last\":10");
        let p = Patch::between(&old, &new);
        assert_eq!(p.apply(&old).unwrap(), new);
        assert_eq!(p.edits.len(), 2);
        assert!(p.edits.iter().all(|e| e.insert.len() <= 3), "{p:?}");
    }

    #[test]
    fn a_patch_of_random_changes_rebuilds_the_text() {
        let mut rng = crate::framework::MatchRng::new(5);
        let words = ["1,", "2,", "[", "]", "{", "}", "\"a\":", "é,", "x"];
        for _ in 0..300 {
            let text = |rng: &mut crate::framework::MatchRng| -> String {
                (0..rng.roll(40))
                    .map(|_| words[rng.pick(words.len())])
                    .collect()
            };
            let old = text(&mut rng);
            let new = text(&mut rng);
            assert_eq!(Patch::between(&old, &new).apply(&old).unwrap(), new);
        }
    }

    #[test]
    fn a_patch_that_does_not_fit_is_an_error_not_a_panic() {
        let edit = |keep, drop| Patch {
            edits: vec![Edit {
                keep,
                drop,
                insert: String::new(),
            }],
        };
        assert_eq!(edit(10, 10).apply("short"), Err(WireError::PatchMisfit));
        assert_eq!(edit(1, 0).apply("é"), Err(WireError::PatchMisfit));
        assert_eq!(
            edit(u32::MAX, u32::MAX).apply("x"),
            Err(WireError::PatchMisfit)
        );
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
