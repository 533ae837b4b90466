//! Battle Tanks has no input of its own: its orders (a Tank or a Nuke, Keep, Switch,
//! Launch) come through the shared order panel, `crate::client::frame::input`.
