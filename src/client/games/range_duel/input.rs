//! Range Duel has no input of its own: its secret orders come through the shared order
//! panel, `crate::client::frame::input`.
