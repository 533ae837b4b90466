//! Tank Commander in the client: a 3D hex table with every rule made visible (reachable
//! hexes with their cost, arcs, lines of sight, exact odds), the unit card, the action
//! bar, and the shots, hits, fires and explosions played out.
//!
//! The session gives this scene [`FactsPlayed`]; [`tell_facts`] turns them into the
//! scene's own messages ([`UnitMoved`], [`ShotResolved`], [`UnitDisabled`] …), which the
//! models and effects animate; turns glide from the mirrored facings, and wounds show on
//! the unit card and in the log. Only this folder converts between hexes and the world.

pub(crate) mod table;
pub mod build_card;
pub mod campaign;
mod anims;
pub mod guide;
pub mod highlights;
mod input;
pub mod mirror;
mod objectives;
mod overlay;
pub mod panels;
mod picking;
pub(crate) mod units;

use bevy::prelude::*;
use bevy_egui::egui;
use hexx::Hex;

use crate::client::core::ClientSystems;
use crate::client::core::GameScreen;
use crate::client::core::session::{FactsPlayed, GameClient, LogClicked, Session};
use crate::framework::{Game, PlayerId};
use crate::rules::tank_commander::{Action, Fact, FireTarget, TankCommander, UnitId};

pub use crate::client::table::hex::{HEX_SIZE, facing_rotation, hex_to_world, world_to_hex};
pub use input::{AskEnd, EndTurn, Ending, KeyCursor};

impl GameClient for TankCommander {
    const SCREEN: GameScreen = GameScreen::TankCommander;
    /// The action bar and clicks on the table.
    const OWN_CONTROLS: bool = true;

    fn logic(app: &mut App) {
        app.add_message::<Rewound>()
            .add_message::<UnitMoved>()
            .add_message::<ShotResolved>()
            .add_message::<UnitDisabled>()
            .add_message::<CookedOff>()
            .add_message::<FireStarted>()
            .add_message::<SmokeLaid>()
            .add_message::<BuildingDestroyed>()
            .add_message::<Blasted>()
            .add_systems(
                Update,
                (tell_facts, focus_log_line)
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

/// The state was replaced wholesale (a new game, undo, a replay step): presentation snaps
/// to it instead of animating.
#[derive(Message, Clone, Copy, Debug)]
pub struct Rewound;

/// A unit drove from one hex to another.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitMoved {
    pub unit: UnitId,
    pub from: Hex,
    pub to: Hex,
}

/// A shot (or a cook-off's blast) was resolved.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShotResolved {
    pub shooter: UnitId,
    pub from: Hex,
    pub at: Hex,
    pub hit: bool,
    pub penetrating: bool,
}

/// A unit was knocked out.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct UnitDisabled {
    pub unit: UnitId,
    pub reason: String,
}

/// A tank's ammunition exploded; its hex is rubble now.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CookedOff {
    pub unit: UnitId,
    pub hex: Hex,
}

/// A unit caught fire.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct FireStarted {
    pub unit: UnitId,
}

/// Smoke was laid on a hex.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmokeLaid {
    pub hex: Hex,
}

/// A building was shot to rubble.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildingDestroyed {
    pub hex: Hex,
}

/// A mine went off, or an air strike hit a hex.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blasted {
    pub hex: Hex,
}

/// The scene's messages, one writer each.
#[derive(bevy::ecs::system::SystemParam)]
struct Tell<'w> {
    rewound: MessageWriter<'w, Rewound>,
    moved: MessageWriter<'w, UnitMoved>,
    shots: MessageWriter<'w, ShotResolved>,
    disabled: MessageWriter<'w, UnitDisabled>,
    cooked: MessageWriter<'w, CookedOff>,
    fires: MessageWriter<'w, FireStarted>,
    smoke: MessageWriter<'w, SmokeLaid>,
    buildings: MessageWriter<'w, BuildingDestroyed>,
    blasts: MessageWriter<'w, Blasted>,
}

/// Turns the rules' facts into the scene's messages.
fn tell_facts(
    session: Res<Session<TankCommander>>,
    mut played: MessageReader<FactsPlayed<TankCommander>>,
    mut tell: Tell,
) {
    let state = session.state();
    for p in played.read() {
        if p.jumped {
            tell.rewound.write(Rewound);
            continue;
        }
        for fact in &p.facts {
            match fact {
                Fact::UnitMoved { unit, from, to, .. } => {
                    tell.moved.write(UnitMoved {
                        unit: *unit,
                        from: *from,
                        to: *to,
                    });
                }
                Fact::ShotResolved {
                    shooter,
                    target,
                    hit,
                    penetration,
                    ..
                } => {
                    let at = match target {
                        FireTarget::Unit(t) => state.unit(*t).at,
                        FireTarget::Building(h) => *h,
                    };
                    tell.shots.write(ShotResolved {
                        shooter: *shooter,
                        from: state.unit(*shooter).at,
                        at,
                        hit: *hit,
                        penetrating: penetration.as_ref().is_some_and(|p| p.penetrating),
                    });
                }
                Fact::InfantryMoved { unit, from, to, .. } => {
                    tell.moved.write(UnitMoved {
                        unit: *unit,
                        from: *from,
                        to: *to,
                    });
                }
                Fact::AntiInfantryFired {
                    shooter,
                    target,
                    hit,
                    ..
                } => {
                    tell.shots.write(ShotResolved {
                        shooter: *shooter,
                        from: state.unit(*shooter).at,
                        at: state.unit(*target).at,
                        hit: *hit,
                        penetrating: *hit,
                    });
                }
                Fact::UnitDestroyed { unit, reason } => {
                    tell.disabled.write(UnitDisabled {
                        unit: *unit,
                        reason: reason.clone(),
                    });
                }
                Fact::BlastHit {
                    source,
                    target,
                    penetration,
                } => {
                    tell.shots.write(ShotResolved {
                        shooter: *source,
                        from: state.unit(*source).at,
                        at: state.unit(*target).at,
                        hit: true,
                        penetrating: penetration.penetrating,
                    });
                }
                Fact::UnitDisabled { unit, reason } => {
                    tell.disabled.write(UnitDisabled {
                        unit: *unit,
                        reason: reason.clone(),
                    });
                }
                Fact::CookedOff { unit, hex, .. } => {
                    tell.cooked.write(CookedOff {
                        unit: *unit,
                        hex: *hex,
                    });
                }
                Fact::FireRolled { unit, check } if check.success => {
                    tell.fires.write(FireStarted { unit: *unit });
                }
                Fact::SmokeDeployed { hex, .. } => {
                    tell.smoke.write(SmokeLaid { hex: *hex });
                }
                Fact::BuildingDestroyed { hex } => {
                    tell.buildings.write(BuildingDestroyed { hex: *hex });
                }
                Fact::MineExploded { hex, .. } => {
                    tell.blasts.write(Blasted { hex: *hex });
                }
                Fact::AirStrikeLanded { hexes, .. } => {
                    for hex in hexes {
                        tell.blasts.write(Blasted { hex: *hex });
                    }
                }
                _ => {}
            }
        }
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
