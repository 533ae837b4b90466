//! Who sits where in a room, and what the host tells its transport to do: the plain
//! values a [`super::Room`] is planned, saved and driven with.

/// A connection, as the transport numbers it.
pub type ConnId = u64;

/// How many messages a connection may send before it counts as flooding: `burst` at
/// once, then `per_second` on average. A bot playing a seat from another machine orders
/// far faster than a person, and a legitimate client can order no faster than the host
/// answers; a flood is many times that.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloodLimit {
    pub burst: f64,
    pub per_second: f64,
}

impl Default for FloodLimit {
    fn default() -> Self {
        Self {
            burst: 500.0,
            per_second: 250.0,
        }
    }
}

/// Who a seat is for, as the host plans it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatPlan {
    /// A person at the host's own machine.
    Host,
    /// A person on another machine.
    Remote,
    /// A bot, by name.
    Bot(String),
}

impl SeatPlan {
    /// Reads a seat as written on the command line: `remote`, `host`, or a bot's name.
    #[must_use]
    pub fn parse(text: &str) -> Self {
        match text.trim() {
            "remote" | "person" | "human" => Self::Remote,
            "host" | "local" => Self::Host,
            name => Self::Bot(name.to_string()),
        }
    }
}

/// What the transport must do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outgoing {
    /// Send these bytes to that connection.
    Send(ConnId, Vec<u8>),
    /// Disconnect that connection, for this reason (already in the host's log).
    Kick(ConnId, String),
}

/// A seat's saved part: what a restarted host needs to let people take their seats back.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedSeat {
    pub plan: String,
    pub token: Option<String>,
    pub player: Option<String>,
}
