//! Actions and facts in plain words.

use super::action::{
    Ability, Action, DamageCause, DieCheck, Fact, FireTarget, PenetrationRoll, Weapon,
};
use super::state::{TankCommander, Unit, UnitId};

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
        match action {
            Action::Activate(..)
            | Action::Move
            | Action::Step(..)
            | Action::Turn { .. }
            | Action::RotateTurret(..) => self.move_action_words(action, active, &who),
            Action::Load(..)
            | Action::Fire(..)
            | Action::FireMissile(..)
            | Action::FireAntiInfantry(..)
            | Action::DeploySmoke(..)
            | Action::LayMine(..)
            | Action::CallAirStrike(..)
            | Action::FireFlare(..) => self.weapon_action_words(action, active, &who),
            Action::TakeCover
            | Action::Capture
            | Action::Disarm(..)
            | Action::Mount(..)
            | Action::Dismount(..)
            | Action::Extinguish
            | Action::TakeOver(..)
            | Action::UseAbility(..)
            | Action::EndActivation
            | Action::Concede => self.other_action_words(action, active, &who),
        }
    }

    /// The words for activating a unit and for moving or turning it.
    fn move_action_words(&self, action: &Action, active: Option<&Unit>, who: &str) -> String {
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
                    cost_in_ap(self.move_cost(u))
                ),
                None => "move".into(),
            },
            Action::Step(facing) => match active {
                Some(u) => format!(
                    "{who}step {facing} from {} to {} {}",
                    self.label(u.at),
                    self.label(u.at + facing.offset()),
                    cost_in_ap(self.move_cost(u))
                ),
                None => format!("step {facing}"),
            },
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
                    cost_in_ap(self.turn_cost(u))
                ),
                None => format!("turn {rotation}"),
            },
            Action::RotateTurret(rotation) => match active {
                Some(u) => format!(
                    "{who}rotate turret {rotation} to {} {}",
                    u.turret.rotated(rotation),
                    cost_in_ap(costs.turret)
                ),
                None => format!("rotate turret {rotation}"),
            },
            _ => unreachable!("action_words sends move_action_words only its own actions"),
        }
    }

    /// The words for loading, firing, and laying smoke, mines, flares or an air strike.
    fn weapon_action_words(&self, action: &Action, active: Option<&Unit>, who: &str) -> String {
        let costs = &self.rules.costs;
        match *action {
            Action::Load(round) => {
                let cost = active.and_then(|u| {
                    u.load_cost(
                        &self.rules,
                        self.active.as_ref().is_some_and(|a| a.quick_load),
                    )
                });
                format!(
                    "{who}load {round} {}",
                    cost_in_ap(cost.unwrap_or(costs.load))
                )
            }
            Action::Fire(target) => {
                let round = active
                    .and_then(|u| u.loaded)
                    .map_or("the empty gun".to_string(), |r| r.to_string());
                format!(
                    "{who}fire {round} at {} {}",
                    self.target_words(target),
                    cost_in_ap(costs.fire)
                )
            }
            Action::FireMissile(t, round) => format!(
                "{who}fire a missile ({round}) at {} {}",
                self.target_words(FireTarget::Unit(t)),
                cost_in_ap(costs.fire)
            ),
            Action::FireAntiInfantry(t) => format!(
                "{who}fire the anti-infantry weapon at {} {}",
                self.target_words(FireTarget::Unit(t)),
                cost_in_ap(costs.fire)
            ),
            Action::DeploySmoke(h) => {
                format!(
                    "{who}deploy smoke at {} {}",
                    self.label(h),
                    cost_in_ap(costs.smoke)
                )
            }
            Action::LayMine(h) => {
                format!(
                    "{who}lay a mine at {} {}",
                    self.label(h),
                    cost_in_ap(costs.lay_mine)
                )
            }
            Action::CallAirStrike(h) => format!(
                "{who}call the air strike on {} {}",
                self.label(h),
                cost_in_ap(costs.air_strike)
            ),
            Action::FireFlare(h) => {
                format!(
                    "{who}fire a flare over {} {}",
                    self.label(h),
                    cost_in_ap(costs.flare)
                )
            }
            _ => unreachable!("action_words sends weapon_action_words only its own actions"),
        }
    }

    /// The words for the orders that neither move nor fire: a squad's, a crew's, ending an
    /// activation and conceding.
    fn other_action_words(&self, action: &Action, active: Option<&Unit>, who: &str) -> String {
        let costs = &self.rules.costs;
        match *action {
            Action::TakeCover => format!("{who}take cover {}", cost_in_ap(costs.take_cover)),
            Action::Capture => match active {
                Some(u) => format!(
                    "{who}capture the objective at {} {}",
                    self.label(u.at),
                    cost_in_ap(costs.capture)
                ),
                None => "capture".into(),
            },
            Action::Disarm(h) => {
                let verb = if self.hidden_mines { "sweep" } else { "disarm" };
                format!(
                    "{who}{verb} {} for mines {}",
                    self.label(h),
                    cost_in_ap(costs.disarm)
                )
            }
            Action::Mount(c) => format!(
                "{who}mount {} {}",
                self.target_words(FireTarget::Unit(c)),
                cost_in_ap(costs.mount)
            ),
            Action::Dismount(h) => {
                format!(
                    "{who}dismount to {} {}",
                    self.label(h),
                    cost_in_ap(costs.mount)
                )
            }
            Action::Extinguish => {
                format!("{who}extinguish the fire {}", cost_in_ap(costs.extinguish))
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
                        cost_in_ap(costs.move_forward)
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
            _ => unreachable!("action_words sends other_action_words only its own actions"),
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
        match fact {
            Fact::FirstPlayerRolled { .. }
            | Fact::TurnStarted { .. }
            | Fact::WeatherRolled { .. }
            | Fact::UnitActivated { .. }
            | Fact::ActivationEnded { .. }
            | Fact::TurnEnded { .. }
            | Fact::Conceded { .. }
            | Fact::BattleEnded { .. } => self.turn_fact_words(fact),
            Fact::UnitMoved { .. }
            | Fact::UnitTurned { .. }
            | Fact::TurretRotated { .. }
            | Fact::InfantryMoved { .. }
            | Fact::WaypointReached { .. } => self.move_fact_words(fact),
            Fact::Mounted { .. } | Fact::Dismounted { .. } | Fact::BailedOut { .. } => {
                self.rider_fact_words(fact)
            }
            Fact::GunLoaded { .. }
            | Fact::AbilityUsed { .. }
            | Fact::TookCover { .. }
            | Fact::ObjectiveCaptured { .. }
            | Fact::MineDisarmed { .. }
            | Fact::SmokeDeployed { .. }
            | Fact::FireExtinguished { .. }
            | Fact::MineLaid { .. }
            | Fact::FlareFired { .. } => self.order_fact_words(fact),
            Fact::ShotResolved { .. }
            | Fact::AntiInfantryFired { .. }
            | Fact::BlastHit { .. }
            | Fact::MineExploded { .. } => self.hit_fact_words(fact),
            Fact::WoundRolled { .. }
            | Fact::CrewWounded { .. }
            | Fact::LieutenantTookOver { .. } => self.crew_fact_words(fact),
            Fact::UnitDestroyed { .. }
            | Fact::BuildingDestroyed { .. }
            | Fact::HullDamaged { .. }
            | Fact::FireRolled { .. }
            | Fact::UnitDisabled { .. }
            | Fact::CookOffRolled { .. }
            | Fact::CookedOff { .. } => self.damage_fact_words(fact),
            Fact::AirStrikeCalled { .. }
            | Fact::AirStrikeRolled { .. }
            | Fact::AntiAircraftFired { .. }
            | Fact::AirStrikeLanded { .. }
            | Fact::StrikeHit { .. } => self.air_strike_fact_words(fact),
        }
    }

    /// The words for a fact of the turn's course: who goes first, the weather, activations
    /// and the battle's end.
    fn turn_fact_words(&self, fact: &Fact) -> String {
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
            _ => unreachable!("fact_words sends turn_fact_words only its own facts"),
        }
    }

    /// The words for a unit moving or turning.
    fn move_fact_words(&self, fact: &Fact) -> String {
        match fact {
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
            Fact::WaypointReached { unit, hex } => format!(
                "{} reaches the waypoint at {}.",
                self.name(*unit),
                self.label(*hex)
            ),
            _ => unreachable!("fact_words sends move_fact_words only its own facts"),
        }
    }

    /// The words for a squad climbing onto, off or out of a vehicle.
    fn rider_fact_words(&self, fact: &Fact) -> String {
        match fact {
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
            _ => unreachable!("fact_words sends rider_fact_words only its own facts"),
        }
    }

    /// The words for an order carried out that is neither a move nor a shot.
    fn order_fact_words(&self, fact: &Fact) -> String {
        match fact {
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
            Fact::SmokeDeployed { unit, hex, cost } => format!(
                "{} fires smoke onto {} ({cost} AP).",
                self.name(*unit),
                self.label(*hex)
            ),
            Fact::FireExtinguished { unit, cost } => {
                format!("{} puts out the fire ({cost} AP).", self.name(*unit))
            }
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
            Fact::FlareFired { unit, hex, cost } => format!(
                "{} fires a flare over {} ({cost} AP): it lights the spaces within {} of it \
                 until the turn ends.",
                self.name(*unit),
                self.label(*hex),
                self.rules.night.flare_radius
            ),
            _ => unreachable!("fact_words sends order_fact_words only its own facts"),
        }
    }

    /// The words for a shot, a blast or a mine hitting, with its dice.
    fn hit_fact_words(&self, fact: &Fact) -> String {
        match fact {
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
                    s.push_str(&penetration_words(p));
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
            Fact::BlastHit {
                source,
                target,
                penetration,
            } => {
                format!(
                    "The blast from {} hits {}. {}.",
                    self.name(*source),
                    self.name(*target),
                    penetration_words(penetration)
                )
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
                penetration_words(penetration)
            ),
            _ => unreachable!("fact_words sends hit_fact_words only its own facts"),
        }
    }

    /// The words for a hit's toll on the crew: the wound roll, who is hit, who takes over.
    fn crew_fact_words(&self, fact: &Fact) -> String {
        match fact {
            Fact::WoundRolled { unit, check: c } => format!(
                "Glancing hit on {}: {}: {}.",
                self.name(*unit),
                check_words(c),
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
            _ => unreachable!("fact_words sends crew_fact_words only its own facts"),
        }
    }

    /// The words for what a hit does to a unit or a building: hull damage, fire, cook-offs
    /// and losses.
    fn damage_fact_words(&self, fact: &Fact) -> String {
        match fact {
            Fact::UnitDestroyed { unit, reason } => {
                format!("{} is wiped out: {reason}.", self.name(*unit))
            }
            Fact::BuildingDestroyed { hex } => format!(
                "The building at {} collapses into rubble.",
                self.label(*hex)
            ),
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
                check_words(c),
                if c.success {
                    "the tank is on fire"
                } else {
                    "no fire"
                }
            ),
            Fact::UnitDisabled { unit, reason } => {
                format!("{} is disabled: {reason}.", self.name(*unit))
            }
            Fact::CookOffRolled { unit, check: c } => format!(
                "Cook-off roll for {}: {}: {}.",
                self.name(*unit),
                check_words(c),
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
            _ => unreachable!("fact_words sends damage_fact_words only its own facts"),
        }
    }

    /// The words for an air strike called, waited for, fired on by AA guns, landing and
    /// hitting.
    fn air_strike_fact_words(&self, fact: &Fact) -> String {
        match fact {
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
                check_words(c),
                if c.success {
                    "the planes come in"
                } else {
                    "not yet"
                }
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
                check_words(c),
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
                penetration_words(penetration)
            ),
            _ => unreachable!("fact_words sends air_strike_fact_words only its own facts"),
        }
    }
}

/// A die check in words: "rolls 4 (needs 5+)".
fn check_words(c: &DieCheck) -> String {
    format!("rolls {} (needs {}+)", c.roll, c.need)
}

/// A penetration roll in words, with the armor it met and why that facing.
fn penetration_words(p: &PenetrationRoll) -> String {
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
}

/// An action point cost in words: "(2 AP)".
fn cost_in_ap(n: u8) -> String {
    format!("({n} AP)")
}
