//! The screens beside the table: the main menu, the upgrade builder, the playtest lab and
//! the scenario editor. Each stands alone: a screen opens another through a message of
//! `core`, never by naming it.

pub mod builder;
pub mod editor;
pub mod lab;
pub mod lobby;
pub mod menu;
