//! Actions and facts in plain words.

use super::action::{
    Ability, Action, DamageCause, DieCheck, Fact, FireTarget, PenetrationRoll, Weapon,
};
use super::state::{TankCommander, UnitId};

impl TankCommander {
    fn name(&self, id: UnitId) -> String {
        self.units
            .get(id.index())
            .map_or_else(|| format!("unit {}", id.0), |u| u.name.clone())
    }

    fn target_words(&self, target: FireTarget) -> String {
        match target {
            // An action read from a file may name a unit that does not exist: it is
            // described (and then refused), never indexed blindly.
            FireTarget::Unit(t) => match self.units.get(t.index()) {
                Some(u) => format!("{} ({})", u.name, self.label(u.at)),
                None => format!("unit {} (there is no such unit)", t.0),
            },
            FireTarget::Building(h) => format!("the building at {}", self.label(h)),
        }
    }

    /// An action in readable notation, from the acting unit's point of view.
    #[must_use]
    pub fn action_words(&self, action: &Action) -> String {
        let active = self.active.as_ref().map(|a| &self.units[a.unit.index()]);
        let who = active.map_or(String::new(), |u| format!("{}: ", u.name));
        let ap = |n: u8| format!("({n} AP)");
        let costs = &self.rules.costs;
        match *action {
            Action::Activate(id) => match self.units.get(id.index()) {
                Some(u) => format!("activate {} at {}", u.name, self.label(u.at)),
                None => format!("activate unit {} (there is no such unit)", id.0),
            },
            Action::Move => match active {
                Some(u) => format!(
                    "{who}move {} to {} {}",
                    self.label(u.at),
                    self.label(self.ahead(u)),
                    ap(self.move_cost(u))
                ),
                None => "move".into(),
            },
            Action::Step(facing) => match active {
                Some(u) => format!(
                    "{who}step {facing} from {} to {} {}",
                    self.label(u.at),
                    self.label(u.at + facing.offset()),
                    ap(self.move_cost(u))
                ),
                None => format!("step {facing}"),
            },
            Action::FireMissile(t, round) => format!(
                "{who}fire a missile ({round}) at {} {}",
                self.target_words(FireTarget::Unit(t)),
                ap(costs.fire)
            ),
            Action::FireAntiInfantry(t) => format!(
                "{who}fire the anti-infantry weapon at {} {}",
                self.target_words(FireTarget::Unit(t)),
                ap(costs.fire)
            ),
            Action::TakeCover => format!("{who}take cover {}", ap(costs.take_cover)),
            Action::Capture => match active {
                Some(u) => format!(
                    "{who}capture the objective at {} {}",
                    self.label(u.at),
                    ap(costs.capture)
                ),
                None => "capture".into(),
            },
            Action::Disarm(h) => {
                let verb = if self.hidden_mines { "sweep" } else { "disarm" };
                format!(
                    "{who}{verb} {} for mines {}",
                    self.label(h),
                    ap(costs.disarm)
                )
            }
            Action::Mount(c) => format!(
                "{who}mount {} {}",
                self.target_words(FireTarget::Unit(c)),
                ap(costs.mount)
            ),
            Action::Dismount(h) => {
                format!("{who}dismount to {} {}", self.label(h), ap(costs.mount))
            }
            Action::Turn {
                rotation,
                turret_follows,
            } => match active {
                Some(u) => format!(
                    "{who}turn {rotation} to {}, turret {} {}",
                    u.facing.rotated(rotation),
                    if turret_follows {
                        format!("follows to {}", u.turret.rotated(rotation))
                    } else {
                        format!("stays {}", u.turret)
                    },
                    ap(self.turn_cost(u))
                ),
                None => format!("turn {rotation}"),
            },
            Action::RotateTurret(rotation) => match active {
                Some(u) => format!(
                    "{who}rotate turret {rotation} to {} {}",
                    u.turret.rotated(rotation),
                    ap(costs.turret)
                ),
                None => format!("rotate turret {rotation}"),
            },
            Action::Load(round) => {
                let cost = active.and_then(|u| {
                    u.load_cost(
                        &self.rules,
                        self.active.as_ref().is_some_and(|a| a.quick_load),
                    )
                });
                format!("{who}load {round} {}", ap(cost.unwrap_or(costs.load)))
            }
            Action::Fire(target) => {
                let round = active
                    .and_then(|u| u.loaded)
                    .map_or("the empty gun".to_string(), |r| r.to_string());
                format!(
                    "{who}fire {round} at {} {}",
                    self.target_words(target),
                    ap(costs.fire)
                )
            }
            Action::DeploySmoke(h) => {
                format!("{who}deploy smoke at {} {}", self.label(h), ap(costs.smoke))
            }
            Action::Extinguish => format!("{who}extinguish the fire {}", ap(costs.extinguish)),
            Action::LayMine(h) => {
                format!(
                    "{who}lay a mine at {} {}",
                    self.label(h),
                    ap(costs.lay_mine)
                )
            }
            Action::CallAirStrike(h) => format!(
                "{who}call the air strike on {} {}",
                self.label(h),
                ap(costs.air_strike)
            ),
            Action::FireFlare(h) => {
                format!(
                    "{who}fire a flare over {} {}",
                    self.label(h),
                    ap(costs.flare)
                )
            }
            Action::TakeOver(role) => {
                format!("{who}the Lieutenant Commander takes over as {role} (0 AP)")
            }
            Action::UseAbility(ability) => {
                let effect = match ability {
                    Ability::BoomingVoice => format!(
                        "+{} actions this turn",
                        self.rules.crew.booming_voice_actions
                    ),
                    Ability::MoveMoveMove { spaces } => format!(
                        "{spaces} space{} straight ahead {}",
                        if spaces == 1 { "" } else { "s" },
                        ap(costs.move_forward)
                    ),
                    Ability::BringItDown => format!(
                        "hit on {}+ this turn",
                        self.rules.firing.bring_it_down_target
                    ),
                    Ability::QuickLoad => "loading is free this turn".into(),
                };
                format!(
                    "{who}{} uses {} ({effect})",
                    ability.role(),
                    ability.title()
                )
            }
            Action::EndActivation => format!("{who}end activation"),
            Action::Concede => format!("{} concedes", self.side_name(self.current)),
        }
    }

    /// Who must act and on what: "Blue (Iron Duke, 4 AP left)".
    #[must_use]
    pub fn who_acts(&self, player: crate::framework::PlayerId) -> String {
        match &self.active {
            Some(a) => format!(
                "{} ({}, {} AP left)",
                self.side_name(player),
                self.units[a.unit.index()].name,
                a.action_points
            ),
            None => format!("{} (choose a unit to activate)", self.side_name(player)),
        }
    }

    /// A fact in plain words, with its dice and reasons.
    #[must_use]
    pub fn fact_words(&self, fact: &Fact) -> String {
        let check = |c: &DieCheck| format!("rolls {} (needs {}+)", c.roll, c.need);
        let pen = |p: &PenetrationRoll| {
            format!(
                "Penetration {}+{}={} vs {} armor {} ({}): {}",
                p.roll,
                p.strength,
                p.roll + p.strength,
                p.armor_facing,
                p.armor,
                p.facing_reason,
                if p.penetrating {
                    "penetrating"
                } else {
                    "glancing"
                }
            )
        };
        match fact {
            Fact::FirstPlayerRolled { rounds, first } => {
                let rolls: Vec<String> = rounds
                    .iter()
                    .map(|r| {
                        r.iter()
                            .enumerate()
                            .map(|(i, v)| format!("{} {v}", self.sides[i]))
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .collect();
                format!(
                    "Roll for first turn: {}. {} goes first.",
                    rolls.join("; tie, re-roll: "),
                    self.sides[first.index()]
                )
            }
            Fact::TurnStarted { turn } => format!("— Turn {turn} of {} —", self.turn_limit),
            Fact::WeatherRolled { roll, storm: true } => {
                let w = &self.rules.weather;
                format!(
                    "Weather: rolls {roll} (a storm on {} or less): a storm blows this turn; \
                     tanks and APCs need {} more to hit, squads move {} less.",
                    w.storm_on, w.storm_vehicle_accuracy, w.storm_infantry_moves
                )
            }
            Fact::WeatherRolled { roll, storm: false } => {
                format!("Weather: rolls {roll}: clear skies this turn.")
            }
            Fact::UnitActivated {
                unit,
                action_points,
                reasons,
            } => {
                format!(
                    "{} activates with {action_points} action points ({}).",
                    self.name(*unit),
                    reasons.join(", ")
                )
            }
            Fact::UnitMoved {
                unit,
                from,
                to,
                cost,
                dash,
            } => {
                if *dash {
                    format!(
                        "{} dashes {} to {}.",
                        self.name(*unit),
                        self.label(*from),
                        self.label(*to)
                    )
                } else {
                    format!(
                        "{} moves {} to {} ({cost} AP).",
                        self.name(*unit),
                        self.label(*from),
                        self.label(*to)
                    )
                }
            }
            Fact::UnitTurned {
                unit,
                from,
                to,
                turret,
                cost,
            } => {
                format!(
                    "{} turns {from} to {to}, turret {turret} ({cost} AP).",
                    self.name(*unit)
                )
            }
            Fact::TurretRotated {
                unit,
                from,
                to,
                cost,
            } => format!(
                "{} turns its turret {from} to {to} ({cost} AP).",
                self.name(*unit)
            ),
            Fact::GunLoaded { unit, round, cost } => {
                format!("{} loads {round} ({cost} AP).", self.name(*unit))
            }
            Fact::AbilityUsed {
                unit,
                role,
                ability,
            } => format!(
                "{}'s {role} calls \"{}\"",
                self.name(*unit),
                ability.title()
            ),
            Fact::ShotResolved {
                shooter,
                target,
                weapon,
                round,
                to_hit,
                roll,
                hit,
                penetration,
            } => {
                let target = match target {
                    FireTarget::Unit(t) => self.name(*t),
                    FireTarget::Building(h) => format!("the building at {}", self.label(*h)),
                };
                let (what, who) = match weapon {
                    Weapon::Missile => (format!("a missile ({round})"), "The squad"),
                    _ => (round.to_string(), "Gunner"),
                };
                let mut s = format!(
                    "{} fires {what} at {target}. {who} rolls {roll} ({}): {}.",
                    self.name(*shooter),
                    to_hit.explain(),
                    if *hit { "hit" } else { "miss" }
                );
                if let Some(p) = penetration {
                    s.push(' ');
                    s.push_str(&pen(p));
                    s.push('.');
                }
                s
            }
            Fact::AntiInfantryFired {
                shooter,
                target,
                to_hit,
                roll,
                hit,
            } => format!(
                "{} fires its anti-infantry weapon at {}. Rolls {roll} ({}): {}.",
                self.name(*shooter),
                self.name(*target),
                to_hit.explain(),
                if *hit { "hit" } else { "miss" }
            ),
            Fact::UnitDestroyed { unit, reason } => {
                format!("{} is wiped out: {reason}.", self.name(*unit))
            }
            Fact::InfantryMoved {
                unit,
                from,
                to,
                cost,
            } => format!(
                "{} moves {} to {} ({cost} AP).",
                self.name(*unit),
                self.label(*from),
                self.label(*to)
            ),
            Fact::TookCover { unit, cost } => format!(
                "{} takes cover ({cost} AP): enemies need {} more to hit it until the next turn.",
                self.name(*unit),
                self.rules.infantry.cover_penalty
            ),
            Fact::ObjectiveCaptured {
                unit,
                hex,
                from,
                cost,
            } => format!(
                "{} captures the objective at {}{} ({cost} AP).",
                self.name(*unit),
                self.label(*hex),
                from.map_or(String::new(), |s| format!(" from {}", self.side_name(s)))
            ),
            Fact::MineDisarmed {
                unit,
                hex,
                found,
                cost,
            } => match found {
                0 => format!(
                    "{} sweeps {} and finds no mine ({cost} AP).",
                    self.name(*unit),
                    self.label(*hex)
                ),
                _ => format!(
                    "{} disarms the mine at {} ({cost} AP).",
                    self.name(*unit),
                    self.label(*hex)
                ),
            },
            Fact::Mounted {
                unit,
                carrier,
                cost,
            } => format!(
                "{} climbs {} {} ({cost} AP).",
                self.name(*unit),
                if self.unit(*carrier).carries_inside() {
                    "into"
                } else {
                    "onto"
                },
                self.name(*carrier)
            ),
            Fact::Dismounted {
                unit,
                carrier,
                to,
                cost,
            } => format!(
                "{} climbs {} {} to {} ({cost} AP).",
                self.name(*unit),
                if self.unit(*carrier).carries_inside() {
                    "out of"
                } else {
                    "down from"
                },
                self.name(*carrier),
                self.label(*to)
            ),
            Fact::BailedOut { unit, carrier, to } => format!(
                "{} bails out of {} to {}.",
                self.name(*unit),
                self.name(*carrier),
                self.label(*to)
            ),
            Fact::BlastHit {
                source,
                target,
                penetration,
            } => {
                format!(
                    "The blast from {} hits {}. {}.",
                    self.name(*source),
                    self.name(*target),
                    pen(penetration)
                )
            }
            Fact::BuildingDestroyed { hex } => format!(
                "The building at {} collapses into rubble.",
                self.label(*hex)
            ),
            Fact::WoundRolled { unit, check: c } => format!(
                "Glancing hit on {}: {}: {}.",
                self.name(*unit),
                check(c),
                if c.success {
                    "a crew member is wounded"
                } else {
                    "no wound"
                }
            ),
            Fact::CrewWounded {
                unit,
                role,
                name,
                pick,
                of,
                killed,
                treated,
            } => {
                let who = if name.is_empty() {
                    role.to_string()
                } else {
                    format!("{role} {name}")
                };
                let what = if *killed {
                    "is killed".to_string()
                } else if *treated {
                    "is wounded; the medkit stops the penalty".to_string()
                } else {
                    "is wounded".to_string()
                };
                format!(
                    "{}: random crew pick {pick} of {of}: {who} {what}.",
                    self.name(*unit)
                )
            }
            Fact::LieutenantTookOver { unit, role } => {
                format!(
                    "{}'s Lieutenant Commander takes over as {role} (works as if wounded).",
                    self.name(*unit)
                )
            }
            Fact::HullDamaged {
                unit,
                amount,
                remaining,
                cause,
            } => format!(
                "{} loses {amount} hull point{} to {} ({remaining} left).",
                self.name(*unit),
                if *amount == 1 { "" } else { "s" },
                match cause {
                    DamageCause::Penetration => "the penetrating hit",
                    DamageCause::Fire => "fire",
                }
            ),
            Fact::FireRolled { unit, check: c } => format!(
                "HE fire roll on {}: {}: {}.",
                self.name(*unit),
                check(c),
                if c.success {
                    "the tank is on fire"
                } else {
                    "no fire"
                }
            ),
            Fact::FireExtinguished { unit, cost } => {
                format!("{} puts out the fire ({cost} AP).", self.name(*unit))
            }
            Fact::SmokeDeployed { unit, hex, cost } => format!(
                "{} fires smoke onto {} ({cost} AP).",
                self.name(*unit),
                self.label(*hex)
            ),
            Fact::MineLaid { unit, hex, cost } => {
                if self.hidden_mines {
                    format!("{} lays a hidden mine ({cost} AP).", self.name(*unit))
                } else {
                    format!(
                        "{} lays a mine at {} ({cost} AP).",
                        self.name(*unit),
                        self.label(*hex)
                    )
                }
            }
            Fact::MineExploded {
                unit,
                hex,
                owner,
                penetration,
            } => format!(
                "{} drives onto a mine of {} at {}! {}.",
                self.name(*unit),
                self.side_name(*owner),
                self.label(*hex),
                pen(penetration)
            ),
            Fact::AirStrikeCalled { unit, hex, cost } => {
                let aa = self
                    .units
                    .get(unit.index())
                    .and_then(|u| self.anti_aircraft_words(u.side))
                    .map_or(String::new(), |words| format!("; {words}"));
                format!(
                    "{} calls in an air strike on {} ({cost} AP): it comes on a {}+ next turn{aa}.",
                    self.name(*unit),
                    self.label(*hex),
                    self.rules.air_strike.need(1)
                )
            }
            Fact::AirStrikeRolled {
                side,
                hex,
                waited,
                check: c,
            } => format!(
                "{}'s air strike on {} (turn {waited} of waiting): {}: {}.",
                self.side_name(*side),
                self.label(*hex),
                check(c),
                if c.success {
                    "the planes come in"
                } else {
                    "not yet"
                }
            ),
            Fact::FlareFired { unit, hex, cost } => format!(
                "{} fires a flare over {} ({cost} AP): it lights the spaces within {} of it \
                 until the turn ends.",
                self.name(*unit),
                self.label(*hex),
                self.rules.night.flare_radius
            ),
            Fact::AntiAircraftFired {
                side,
                hex,
                guns,
                check: c,
            } => format!(
                "{} AA gun{} fire{} at {}'s planes over {}: {}: {}.",
                guns,
                if *guns == 1 { "" } else { "s" },
                if *guns == 1 { "s" } else { "" },
                self.side_name(*side),
                self.label(*hex),
                check(c),
                if c.success {
                    "driven off, the strike is lost"
                } else {
                    "they get through"
                }
            ),
            Fact::AirStrikeLanded { hex, scatter, .. } => match scatter {
                Some(s) => format!(
                    "The air strike hits {}, then scatters {} (direction die {}) for {} space{} (distance die).",
                    self.label(*hex),
                    s.direction,
                    s.direction_roll,
                    s.distance,
                    if s.distance == 1 { "" } else { "s" }
                ),
                None => format!("The air strike hits {}.", self.label(*hex)),
            },
            Fact::StrikeHit {
                target,
                hex,
                penetration,
            } => format!(
                "The air strike hits {} at {}. {}.",
                self.name(*target),
                self.label(*hex),
                pen(penetration)
            ),
            Fact::UnitDisabled { unit, reason } => {
                format!("{} is disabled: {reason}.", self.name(*unit))
            }
            Fact::CookOffRolled { unit, check: c } => format!(
                "Cook-off roll for {}: {}: {}.",
                self.name(*unit),
                check(c),
                if c.success {
                    "the ammunition cooks off"
                } else {
                    "it holds"
                }
            ),
            Fact::CookedOff {
                unit,
                hex,
                immediate,
            } => format!(
                "{} explodes{}! Everything within {} spaces is hit by a strength {} blast; {} is now rubble.",
                self.name(*unit),
                if *immediate {
                    " at once (fire took its last hull point)"
                } else {
                    ""
                },
                self.rules.damage.cook_off_radius,
                self.rules.damage.cook_off_strength,
                self.label(*hex)
            ),
            Fact::WaypointReached { unit, hex } => format!(
                "{} reaches the waypoint at {}.",
                self.name(*unit),
                self.label(*hex)
            ),
            Fact::ActivationEnded { unit, unused } => {
                format!(
                    "{} ends its activation ({unused} AP unused).",
                    self.name(*unit)
                )
            }
            Fact::TurnEnded { turn } => format!("End of turn {turn}."),
            Fact::Conceded { side } => format!("{} concedes.", self.side_name(*side)),
            Fact::BattleEnded { outcome } => match outcome.winners.first() {
                Some(w) => format!(
                    "Battle over: {} wins — {}.",
                    self.side_name(*w),
                    outcome.reason
                ),
                None => format!("Battle over: a draw — {}.", outcome.reason),
            },
        }
    }
}
