//! TankCombat in the client: its scene and panels. Each tank stands at its seat round the
//! table with its tableau beside it (HP, breech, Ablative Armor, safeties, hazards, kills,
//! Adrenaline, Spawn Shield), the deck and the face-up discard pile in the middle, and the
//! hand of the seat at the screen as readable cards. Attacks fly as tracers, Smoke rises
//! in a cloud, damage floats up with its arithmetic, a destroyed tank burns and comes back
//! with its Spawn Shield.

mod anims;
mod input;
mod panels;
mod table;

use bevy::prelude::*;
use bevy_egui::{EguiPrimaryContextPass, egui};

use crate::client::core::session::{GameClient, Session};
use crate::client::core::{ClientSystems, GameScreen, HudSystems};
use crate::client::table::effects::{Shown, Timeline, forget_shown};
use crate::client::table::theme::{card_color, seat_color};
use crate::framework::{Game, PlayerId};
use crate::rules::tank_combat::{Action, Card, Fact, Phase, TankCombat};

fn plugin(app: &mut App) {
    app.init_resource::<Timeline<anims::Anim>>()
        .add_systems(OnExit(GameScreen::TankCombat), forget_shown::<TankCombat>)
        .add_systems(
            Update,
            (table::redraw, anims::play_anims, anims::animate)
                .chain()
                .in_set(ClientSystems::Scene)
                .run_if(
                    in_state(GameScreen::TankCombat)
                        .and_then(resource_exists::<Session<TankCombat>>),
                ),
        )
        .add_systems(
            EguiPrimaryContextPass,
            panels::draw_table_panels
                .in_set(HudSystems::Game)
                .run_if(
                    in_state(GameScreen::TankCombat).and_then(resource_exists::<Shown<TankCombat>>),
                )
                .run_if(resource_exists::<Session<TankCombat>>),
        );
}

impl GameClient for TankCombat {
    const SCREEN: GameScreen = GameScreen::TankCombat;

    fn scene(app: &mut App) {
        plugin(app);
    }

    fn offered(&self, player: PlayerId) -> Vec<Action> {
        match self.phase() {
            // Everyone asked sees the same two buttons, whether or not they hold Smoke.
            Phase::Window(_) => vec![Action::Smoke, Action::Pass],
            _ => self.legal_actions(player),
        }
    }

    fn action_group(&self, action: &Action) -> String {
        match action {
            Action::Load { .. } => "Load",
            Action::Fire { .. } | Action::LoadAndFire { .. } => "Fire",
            Action::CoaxialMg { .. } => "Coaxial MG",
            Action::Sabotage { .. } => "Sabotage",
            Action::Repair { .. } => "Repair",
            Action::Equip { .. } => "Equip",
            Action::Discard { .. } => "Discard",
            Action::Swap { .. } => "Swap (free)",
            Action::Smoke | Action::Pass => "Interrupt",
        }
        .to_string()
    }

    fn action_hint(&self, action: &Action) -> Option<String> {
        let card = match action {
            Action::Load { card }
            | Action::LoadAndFire { card, .. }
            | Action::Equip { card }
            | Action::Discard { card }
            | Action::Swap { card } => *card,
            Action::Sabotage { hazard, .. } => *hazard,
            Action::Repair { remedy, .. } => *remedy,
            Action::Fire { .. } => Card::Fire,
            Action::CoaxialMg { .. } => Card::CoaxialMg,
            Action::Smoke => Card::SmokeLaunchers,
            Action::Pass => return Some("Let the attack through".into()),
        };
        Some(format!("{}: {}", card.name(), card.text()))
    }

    fn fact_seconds(&self, fact: &Fact) -> f32 {
        anims::anim_seconds(fact)
    }

    /// The hand of the seat at the screen (every hand for a spectator or a replay).
    fn seat_panel(&self, ui: &mut egui::Ui, viewer: Option<PlayerId>) {
        ui.set_min_width(720.0);
        let n = self.player_count();
        let hands: Vec<(PlayerId, Vec<Card>)> = match viewer {
            Some(v) => vec![(v, self.view(v).hand)],
            None => (0..n)
                .filter_map(|i| u8::try_from(i).ok())
                .map(|i| (PlayerId(i), self.view(PlayerId(i)).hand))
                .collect(),
        };
        egui::ScrollArea::vertical()
            .id_salt("hands")
            .max_height(300.0)
            .show(ui, |ui| {
                for (p, hand) in &hands {
                    ui.label(
                        egui::RichText::new(format!(
                            "{}'s hand ({} cards)",
                            self.player_name(*p),
                            hand.len()
                        ))
                        .strong()
                        .color(seat_color(*p)),
                    );
                    if viewer.is_some() {
                        // Wrapped, so that every card of a full hand shows (a sixth on a
                        // second row).
                        ui.horizontal_wrapped(|ui| {
                            for c in hand {
                                panels::card_widget(ui, *c);
                            }
                        });
                    } else {
                        // Every hand at once (bots only, or a replay): names, to keep the
                        // table in sight; the card text is in each name's tooltip.
                        ui.horizontal_wrapped(|ui| {
                            for c in hand {
                                panels::chip(ui, c.name(), card_color(*c)).on_hover_text(c.text());
                            }
                        });
                    }
                }
            });
        ui.separator();
    }
}
