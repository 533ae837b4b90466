//! Play across machines: one host holds the match and its dice, and every other machine
//! holds a mirror of what its seat may see.
//!
//! - [`wire`]: the messages and their one decoder, which trusts nothing;
//! - [`room`]: the host's side, which checks every order against the seat that sent it
//!   and tells each connection only what its seat may see;
//! - [`mirror`]: a joining machine's side, a real game state redacted for its seat;
//! - [`copy`]: the seat's own copy of the game, every state it was shown, to step through;
//! - `transport` (feature `client`): the messages over `bevy_replicon` and
//!   `bevy_replicon_renet` (UDP with netcode), and `session`: a room or a mirror driven
//!   by a transport, for `tanktable serve`, `tanktable play --join` and the tests.
//!
//! The layers below know nothing of this: a game only says what a seat may see
//! ([`crate::framework::Playable::redacted`]) and how its state travels
//! ([`crate::framework::Playable::to_mirror`]).

pub mod copy;
pub mod mirror;
pub mod plan;
pub mod room;
#[cfg(feature = "client")]
pub mod session;
#[cfg(feature = "client")]
pub mod transport;
pub mod wire;

#[cfg(test)]
mod tests;

pub use mirror::{Heard, Mirror};
pub use room::{ConnId, FloodLimit, Outgoing, Room, SavedSeat, SeatPlan};
