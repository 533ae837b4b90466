//! Tanktable: a tabletop simulator for tank wargames that enforces and explains the rules
//! of every game it ships.
//!
//! The crate has four layers, and data flows one way through them: input → command →
//! rules → fact events → presentation.
//!
//! - [`rules`] and [`framework`]: pure, deterministic rules with no engine dependency;
//! - [`data`]: RON rules tables and scenarios, validated with `file:line:col` errors;
//! - [`cli`]: the headless subcommands (`check`, `sim`, `replay`, `odds`, `legal`);
//! - `client` (cargo feature `client`): the Bevy desktop client.
//!
//! ```
//! use tanktable::framework::{Game, Match};
//! use tanktable::rules::tank_commander::{Rules, Scenario, TankCommander};
//!
//! let battle = TankCommander::new(&Scenario::builtin_default(), &Rules::builtin()).unwrap();
//! let m = Match::new(battle, 42);
//! assert_eq!(m.state().to_act().len(), 1);
//! ```

pub mod cli;
pub mod data;
pub mod editor;
pub mod framework;
#[cfg(test)]
mod fuzz;
pub mod grid;
pub mod lab;
pub mod net;
pub mod rules;

#[cfg(feature = "client")]
pub mod client;
