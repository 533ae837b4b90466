//! Tank Combat has no input of its own: its orders (the cards to play, Smoke or Pass)
//! come through the shared order panel, `crate::client::frame::input`.
