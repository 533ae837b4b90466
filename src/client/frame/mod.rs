//! The frame round every game: the panels every game shares, input, redraws, hot reload,
//! the rules reference, screenshots and the what-if window.

pub mod capture;
pub mod cursor;
pub mod hud;
pub mod input;
pub mod redraw;
pub mod reload;
pub mod rules_ref;
pub mod talk;
pub mod whatif;
