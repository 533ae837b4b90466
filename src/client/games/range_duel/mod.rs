//! RangeDuel in the client: its scene and panels. A range track with its bands marked,
//! the two tanks on it at the current band, each hull turned to show the enemy the side
//! the matrix gave it (turrets always on the enemy), an earth berm in front of a hull-down
//! tank. Orders are chosen in secret (the privacy screen hides them in hot seat); the
//! reveal shows both orders and the matrix row that applied, then the tanks drive, ram and
//! fire one fact at a time.

mod anims;
mod input;
mod panels;
mod table;

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;

use crate::client::core::session::{GameClient, Session};
use crate::client::core::{ClientSystems, GameScreen, HudSystems};
use crate::client::table::effects::{Shown, Timeline, forget_shown};
use crate::framework::{Game, PlayerId};
use crate::rules::range_duel::{Action, Direction, Fact, RangeDuel};
use crate::rules::tank_commander::setup::ArmorFacing;

fn plugin(app: &mut App) {
    app.init_resource::<Timeline<anims::Anim>>()
        .add_systems(OnExit(GameScreen::RangeDuel), forget_shown::<RangeDuel>)
        .init_resource::<panels::LastReveal>()
        .add_systems(
            Update,
            (table::redraw, anims::play_anims, anims::move_tanks)
                .chain()
                .in_set(ClientSystems::Scene)
                .run_if(
                    in_state(GameScreen::RangeDuel).and_then(resource_exists::<Session<RangeDuel>>),
                ),
        )
        .add_systems(
            EguiPrimaryContextPass,
            table::draw_labels
                .in_set(HudSystems::Game)
                .run_if(
                    in_state(GameScreen::RangeDuel).and_then(resource_exists::<Shown<RangeDuel>>),
                )
                .run_if(resource_exists::<Session<RangeDuel>>),
        );
    crate::client::frame::redraw::watch::<panels::LastReveal>(app);
}

impl GameClient for RangeDuel {
    const SCREEN: GameScreen = GameScreen::RangeDuel;

    fn scene(app: &mut App) {
        plugin(app);
    }

    fn action_group(&self, action: &Action) -> String {
        match action {
            Action::ChangeRange { .. } => "Change Range",
            Action::Maneuver { .. } => "Maneuver",
            Action::HullDown => "Hold",
        }
        .to_string()
    }

    fn offered(&self, player: PlayerId) -> Vec<Action> {
        // Orders the tank cannot give now stay on show, greyed out with the rule.
        if self.to_act().contains(&player) {
            Action::offered()
        } else {
            Vec::new()
        }
    }

    fn action_hint(&self, action: &Action) -> Option<String> {
        let facings = action.facings();
        let choice = if facings.is_usual() {
            String::new()
        } else if action.rams() {
            format!(
                ". Where the matrix lets you choose the facings, the enemy shows its {} ({}), \
                 not its rear (a Sideswipe: 2d6 × your Drive Effect to it, 2d6 - 2 to you)",
                facings.enemy,
                match facings.enemy.armor() {
                    ArmorFacing::Front => "a Head-On: your speed + its, against the armor",
                    _ => "a T-Bone: the lesser of your speed and its armor, to both",
                }
            )
        } else {
            format!(
                ". Where the matrix lets you choose and the enemy rams you, you show it your {} instead of \
                 your front (the side makes a T-Bone of a frontal ram: the lesser of its \
                 speed and your armor to both, instead of a Head-On)",
                facings.own
            )
        };
        let base = order_hint(action)?;
        Some(format!("{base}{choice}"))
    }

    fn fact_seconds(&self, fact: &Fact) -> f32 {
        anims::anim_seconds(fact)
    }
}

/// The tooltip of an order without its facing choice.
fn order_hint(action: &Action) -> Option<String> {
    Some(
            match action {
                Action::ChangeRange {
                    direction: Direction::Closing,
                    ram: false,
                    most: None,
                    ..
                } => "Drive at the enemy: the range closes as far as the matrix lets you (stopping at Adjacent); you show your front",
                Action::ChangeRange {
                    direction: Direction::Closing,
                    ram: false,
                    most: Some(_),
                    ..
                } => "Drive at the enemy, but close at most this many bands (the matrix moves the range \"up to\" its number): stop where your gun is best",
                Action::ChangeRange {
                    direction: Direction::Closing,
                    ram: true,
                    ..
                } => "Drive through Adjacent and ram if your Driving test passes; if it fails you overshoot to Close",
                Action::ChangeRange {
                    direction: Direction::Opening,
                    most: None,
                    ..
                } => "Open the range as far as the matrix lets you: you show your rear while you pull away",
                Action::ChangeRange {
                    direction: Direction::Opening,
                    ..
                } => "Open the range, but at most this many bands (the matrix moves it \"up to\" its number): a long gun need not pull away out of its own reach",
                Action::Maneuver { drift: None, .. } => {
                    "Jockey for position: the Driving winner picks the facings; the range stays"
                }
                Action::Maneuver {
                    drift: Some(Direction::Closing),
                    ram: false,
                    ..
                } => "Maneuver, drifting one band closer where the matrix allows it",
                Action::Maneuver {
                    drift: Some(Direction::Closing),
                    ram: true,
                    ..
                } => "Maneuver, drifting closer, and ram if the matrix brings you to Adjacent",
                Action::Maneuver {
                    drift: Some(Direction::Opening),
                    ..
                } => "Maneuver, backing off one band where the matrix allows it",
                Action::HullDown => {
                    "Go hull down: if your Driving test passes, hits that are not on the turret are negated"
                }
            }
            .to_string(),
        )
}
