//! Tank Commander in the client: a 3D hex table with every rule made visible (reachable
//! hexes with their cost, arcs, lines of sight, exact odds), the unit card, the action
//! bar, and the shots, hits, fires and explosions played out.
//!
//! Its parts are those of every game's folder: this file (the [`GameClient`] impl and the
//! plugins), `table` (the board), `anims` (the facts on the shared timeline, each with
//! the seconds the session waits for), `panels` and `input`; and beyond them the unit
//! models (`units`, gliding to the state the `mirror` copies), the overlays, the
//! highlights, the guide, campaigns and the build card. Only the client's `table` layer
//! and this folder convert between hexes and the world.

mod anims;
pub mod build_card;
pub mod campaign;
pub mod guide;
pub mod highlights;
mod input;
pub mod mirror;
mod objectives;
mod overlay;
pub mod panels;
mod picking;
pub(crate) mod table;
pub(crate) mod units;

use bevy::prelude::*;
use bevy_egui::egui;
use hexx::Hex;

use crate::client::core::ClientSystems;
use crate::client::core::GameScreen;
use crate::client::core::session::{GameClient, LogClicked, Session};
use crate::framework::{Game, PlayerId};
use crate::rules::tank_commander::{Action, Fact, FireTarget, TankCommander, UnitId};

pub use crate::client::table::hex::{HEX_SIZE, facing_rotation, hex_to_world, world_to_hex};
pub use input::{AskEnd, EndTurn, Ending, KeyCursor};

impl GameClient for TankCommander {
    const SCREEN: GameScreen = GameScreen::TankCommander;
    /// The action bar and clicks on the table.
    const OWN_CONTROLS: bool = true;

    fn logic(app: &mut App) {
        app.add_systems(
            Update,
            focus_log_line
                .in_set(ClientSystems::Mirror)
                .before(mirror::MirrorSystems)
                .run_if(resource_exists::<Session<TankCommander>>),
        )
        .add_plugins((
            mirror::plugin,
            highlights::plugin,
            input::plugin,
            campaign::plugin,
            guide::logic,
        ));
    }

    fn scene(app: &mut App) {
        app.add_plugins((
            table::plugin,
            objectives::plugin,
            units::plugin,
            anims::plugin,
            overlay::plugin,
            panels::plugin,
            picking::plugin,
            guide::scene,
        ));
        use crate::client::frame::redraw::watch;
        watch::<highlights::Hovered>(app);
        watch::<input::KeyCursor>(app);
        watch::<highlights::Selection>(app);
        watch::<highlights::Highlights>(app);
        watch::<input::Clicked>(app);
        watch::<input::EndTurn>(app);
    }

    fn fact_seconds(&self, fact: &Fact) -> f32 {
        anims::fact_seconds(self, fact)
    }

    fn prompt(&self, player: PlayerId) -> Option<String> {
        let what = match self.activation() {
            Some(a) if a.action_points == 0 => {
                // A crew ability may still be played (some give action points).
                let more = self
                    .legal_actions(player)
                    .iter()
                    .any(|x| !matches!(x, Action::EndActivation | Action::Concede));
                format!(
                    "{} has no action points left: {}End activation (Backspace)",
                    self.unit(a.unit).name,
                    if more {
                        "a ready crew ability below, or "
                    } else {
                        ""
                    }
                )
            }
            Some(a) => format!(
                "{} has {} action point{} left: pick an action below, or click a blue hex to move there",
                self.unit(a.unit).name,
                a.action_points,
                if a.action_points == 1 { "" } else { "s" }
            ),
            None if self.pending_units(player).next().is_some() => {
                "click one of your units, then Activate (Enter)".into()
            }
            None => "no unit left to activate: End turn (N)".into(),
        };
        let night = if self.night() {
            let n = &self.rules().night;
            format!(
                "NIGHT (unlit targets: seen within {}, +{} to hit; flares light them) · ",
                n.sight_range, n.accuracy_penalty
            )
        } else {
            String::new()
        };
        Some(if self.storm() {
            let w = &self.rules().weather;
            format!(
                "{night}STORM (vehicles +{} to hit, squads −{} move) · {what}",
                w.storm_vehicle_accuracy, w.storm_infantry_moves
            )
        } else {
            format!("{night}{what}")
        })
    }

    fn end_summary(session: &Session<Self>, ui: &mut egui::Ui) {
        panels::end_summary(session, ui);
    }
}

/// The mines the table may show: with hidden mines in hot seat, only those of the seat
/// whose eyes are on the screen; with nobody's eyes to keep (a replay, bots only, or mines
/// in the open), every one.
#[must_use]
pub fn shown_mines(
    session: &Session<TankCommander>,
) -> Vec<crate::rules::tank_commander::state::Mine> {
    let battle = session.state();
    match session.seated.viewer {
        Some(v) => battle.mines_seen_by(v).copied().collect(),
        None => battle.mines().to_vec(),
    }
}

/// Height of the ground a model stands on at `hex`: the tile's top, higher on a hill.
#[must_use]
pub fn ground_height(battle: &TankCommander, hex: Hex) -> f32 {
    if battle.terrain(hex) == crate::rules::tank_commander::Terrain::Hill {
        0.4
    } else {
        0.1
    }
}

/// The units a fact involves.
#[must_use]
pub fn units_of(fact: &Fact) -> Vec<UnitId> {
    match fact {
        Fact::ShotResolved {
            shooter, target, ..
        } => match target {
            FireTarget::Unit(t) => vec![*shooter, *t],
            FireTarget::Building(_) => vec![*shooter],
        },
        Fact::BlastHit { source, target, .. } => vec![*source, *target],
        Fact::AntiInfantryFired {
            shooter, target, ..
        } => vec![*shooter, *target],
        Fact::Mounted { unit, carrier, .. }
        | Fact::Dismounted { unit, carrier, .. }
        | Fact::BailedOut { unit, carrier, .. } => {
            vec![*unit, *carrier]
        }
        Fact::UnitActivated { unit, .. }
        | Fact::UnitMoved { unit, .. }
        | Fact::UnitTurned { unit, .. }
        | Fact::TurretRotated { unit, .. }
        | Fact::GunLoaded { unit, .. }
        | Fact::AbilityUsed { unit, .. }
        | Fact::WoundRolled { unit, .. }
        | Fact::CrewWounded { unit, .. }
        | Fact::LieutenantTookOver { unit, .. }
        | Fact::HullDamaged { unit, .. }
        | Fact::FireRolled { unit, .. }
        | Fact::FireExtinguished { unit, .. }
        | Fact::SmokeDeployed { unit, .. }
        | Fact::UnitDisabled { unit, .. }
        | Fact::CookOffRolled { unit, .. }
        | Fact::CookedOff { unit, .. }
        | Fact::WaypointReached { unit, .. }
        | Fact::MineLaid { unit, .. }
        | Fact::MineExploded { unit, .. }
        | Fact::AirStrikeCalled { unit, .. }
        | Fact::StrikeHit { target: unit, .. }
        | Fact::UnitDestroyed { unit, .. }
        | Fact::InfantryMoved { unit, .. }
        | Fact::TookCover { unit, .. }
        | Fact::ObjectiveCaptured { unit, .. }
        | Fact::MineDisarmed { unit, .. }
        | Fact::ActivationEnded { unit, .. } => vec![*unit],
        _ => Vec::new(),
    }
}

/// A clicked line of the log picks out the units it is about.
fn focus_log_line(
    session: Res<Session<TankCommander>>,
    mut clicked: MessageReader<LogClicked>,
    mut selection: ResMut<highlights::Selection>,
) {
    for c in clicked.read() {
        let game = &session.game;
        let fact = match (c.step, c.fact) {
            (None, Some(k)) => game.opening_facts().get(k),
            (Some(s), Some(k)) => game.history().get(s).and_then(|s| s.facts.get(k)),
            (Some(s), None) => game.history().get(s).and_then(|s| s.facts.first()),
            (None, None) => None,
        };
        selection.focus = fact.map(units_of).unwrap_or_default();
    }
}
