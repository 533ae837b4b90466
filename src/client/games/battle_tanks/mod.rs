//! BattleTanks in the client: its scene and panels. A round felt table with each
//! commander's arsenal in front of their seat (Tanks as dice in the seat's colour, Nukes
//! larger and black with red pips), the Battlefield in the middle. Declared dice fly from
//! the seats and tumble onto the Battlefield, landing on exactly the faces the rules
//! rolled; War, loot, misfires and Meganukes are called out in a banner; won dice fly to
//! the winner's arsenal.

mod anims;
mod input;
mod panels;
mod table;

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;

use crate::client::core::session::{GameClient, HeldOpening, Session};
use crate::client::core::{ClientSystems, GameScreen, HudSystems};
use crate::client::table::effects::{Shown, Timeline, forget_shown};
use crate::framework::{Game, PlayerId};
use crate::rules::battle_tanks::{Action, BattleTanks, Fact, Phase};

fn plugin(app: &mut App) {
    app.init_resource::<Timeline<anims::Anim>>()
        .add_systems(OnExit(GameScreen::BattleTanks), forget_shown::<BattleTanks>)
        .add_systems(
            Update,
            (table::redraw, anims::play_anims, anims::fly)
                .chain()
                .in_set(ClientSystems::Scene)
                .run_if(
                    in_state(GameScreen::BattleTanks)
                        .and_then(resource_exists::<Session<BattleTanks>>),
                ),
        )
        .add_systems(
            EguiPrimaryContextPass,
            table::draw_labels
                .in_set(HudSystems::Game)
                .run_if(
                    in_state(GameScreen::BattleTanks)
                        .and_then(resource_exists::<Shown<BattleTanks>>),
                )
                .run_if(resource_exists::<Session<BattleTanks>>),
        );
}

impl GameClient for BattleTanks {
    const SCREEN: GameScreen = GameScreen::BattleTanks;

    fn scene(app: &mut App) {
        plugin(app);
    }

    fn offered(&self, player: PlayerId) -> Vec<Action> {
        match self.phase() {
            Phase::Declaring(round) if round.answering.is_empty() => {
                vec![Action::Tank, Action::Nuke]
            }
            _ => self.legal_actions(player),
        }
    }

    fn action_hint(&self, action: &Action) -> Option<String> {
        Some(
            match action {
                Action::Tank => "Roll a Tank: its face is its value",
                Action::Nuke => {
                    "Announce a Nuke: +1 to its roll (a 1 still misfires), and a 6 is a Meganuke that wins outright. Everyone who declared a Tank before you may answer with their own Nuke"
                }
                Action::Keep => "Keep the Tank you declared",
                Action::SwitchToNuke => "Answer the Nuke announcement: roll your Nuke instead",
                Action::Launch => {
                    "Roll your whole arsenal: each Tank 6, each Nuke 5 does 1 damage; a Meganuke does 3"
                }
            }
            .to_string(),
        )
    }

    fn fact_seconds(&self, fact: &Fact) -> f32 {
        anims::anim_seconds(fact)
    }

    /// With no Nukes on the first roll every die of the first battle is forced, so the
    /// rules roll it as the game begins: the table shows the full arsenals until a person
    /// asks for the roll.
    fn held_opening(&self, opening: &[Fact]) -> Option<HeldOpening<Self>> {
        if !opening.iter().any(|f| matches!(f, Fact::Rolled { .. })) {
            return None;
        }
        Some(HeldOpening {
            before: BattleTanks::new(self.setup()),
            told: opening
                .iter()
                .take_while(|f| matches!(f, Fact::Began { .. }))
                .count(),
            button: "🎲 Roll the first battle".into(),
            why: "The first roll allows no Nukes: everyone rolls a Tank. Press Enter to roll"
                .into(),
        })
    }
}
