//! Measuring the client (the `dev` feature): the frame benchmark and the startup
//! measurement. Above the app: it builds the app to measure it.

pub mod bench;
pub mod measure;
