//! Stub until the builder lands.
use std::path::PathBuf;

use bevy::prelude::*;

use crate::rules::tank_commander::ScenarioSetup;

#[derive(Resource)]
pub enum BuilderPlan {
    Scenario {
        setup: ScenarioSetup,
        source: String,
        path: Option<PathBuf>,
    },
    Standalone,
}

pub(super) fn plugin(_app: &mut App) {}
