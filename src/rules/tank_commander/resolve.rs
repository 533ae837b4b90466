//! Playing actions: what happens, die by die.

use hexx::Hex;

use super::action::{
    Ability, Action, DamageCause, DieCheck, Fact, FireTarget, PenetrationRoll, Scatter, Weapon,
};
use super::setup::{ArmorFacing, LieutenantRule, MissionRules, Round, Terrain, UnitKind};
use super::state::{Activation, AirStrike, Mine, Role, RoleState, Status, TankCommander, UnitId};
use crate::framework::{MatchRng, PlayerId};
use crate::grid::{Facing, Rotation};

/// How a squad riding outside a tank that was hit is said to be lost (the lab counts the
/// riders rule by it).
pub(super) const RIDER_LOST: &str = "riding on";

impl TankCommander {
    /// Rolls for the first player and starts turn 1.
    pub(crate) fn begin_battle(&mut self, rng: &mut MatchRng) -> Vec<Fact> {
        self.begin_battle_with(rng, false)
    }

    /// Rolls for the first player, with `swapped` each side taking the die the other
    /// rolled (the lab's paired games: the same dice, the first move to the other side),
    /// and starts turn 1.
    pub(crate) fn begin_battle_with(&mut self, rng: &mut MatchRng, swapped: bool) -> Vec<Fact> {
        let mut rounds = Vec::new();
        let first = loop {
            let mut rolls: Vec<u8> = (0..self.sides.len()).map(|_| rng.d6()).collect();
            if swapped {
                rolls.reverse();
            }
            rounds.push(rolls.clone());
            let best = rolls.iter().copied().max().unwrap_or(0);
            let top: Vec<usize> = (0..rolls.len()).filter(|&i| rolls[i] == best).collect();
            if top.len() == 1 {
                #[allow(clippy::cast_possible_truncation, reason = "two sides")]
                break PlayerId(top[0] as u8);
            }
        };
        self.first_player = Some(first);
        let mut facts = vec![
            Fact::FirstPlayerRolled { rounds, first },
            Fact::TurnStarted { turn: 1 },
        ];
        self.current = first;
        self.roll_weather(rng, &mut facts);
        self.pass_if_idle(rng, &mut facts);
        self.note_outcome(&mut facts);
        facts
    }

    /// Plays a checked action.
    pub(crate) fn resolve(
        &mut self,
        player: PlayerId,
        action: Action,
        rng: &mut MatchRng,
    ) -> Vec<Fact> {
        let mut facts = Vec::new();
        match action {
            Action::Concede => {
                self.conceded = Some(player);
                facts.push(Fact::Conceded { side: player });
            }
            Action::Activate(id) => {
                let u = &self.units[id.index()];
                let action_points = u.action_points(&self.rules);
                let mut reasons = vec![format!("base {}", u.base.actions)];
                match u.role_state(Role::Commander) {
                    RoleState::Healthy => {}
                    RoleState::Impaired => {
                        let who = if u.lieutenant_covers == Some(Role::Commander) {
                            "lieutenant as commander"
                        } else {
                            "commander wounded"
                        };
                        reasons.push(format!(
                            "{who} −{}",
                            self.rules.crew.commander_wounded_actions
                        ));
                    }
                    RoleState::Out => reasons.push(format!(
                        "commander killed −{}",
                        self.rules.crew.commander_killed_actions
                    )),
                }
                self.active = Some(Activation::begin(id, action_points));
                facts.push(Fact::UnitActivated {
                    unit: id,
                    action_points,
                    reasons,
                });
            }
            Action::EndActivation => self.end_activation(rng, &mut facts),
            _ => self.resolve_unit_action(action, rng, &mut facts),
        }
        self.note_outcome(&mut facts);
        facts
    }

    /// Plays a checked action of the active unit: everything but activating, ending an
    /// activation and conceding.
    fn resolve_unit_action(&mut self, action: Action, rng: &mut MatchRng, facts: &mut Vec<Fact>) {
        let Some(act) = self.active.clone() else {
            return;
        };
        let id = act.unit;
        let costs = self.rules.costs;
        match action {
            Action::Move => self.resolve_move(id, rng, facts),
            Action::Step(facing) => self.resolve_step(id, facing, rng, facts),
            Action::FireMissile(target, round) => {
                self.spend(costs.fire);
                if let Some(a) = self.active.as_mut() {
                    a.free_shots += 1;
                }
                self.fire_weapon(
                    id,
                    FireTarget::Unit(target),
                    Weapon::Missile,
                    round,
                    false,
                    rng,
                    facts,
                );
            }
            Action::FireAntiInfantry(target) => {
                self.spend(costs.fire);
                if let Some(a) = self.active.as_mut() {
                    a.free_shots += 1;
                }
                self.fire_anti_infantry(id, target, act.bring_it_down, rng, facts);
            }
            Action::TakeCover => {
                self.units[id.index()].in_cover = true;
                self.spend(costs.take_cover);
                facts.push(Fact::TookCover {
                    unit: id,
                    cost: costs.take_cover,
                });
            }
            Action::Capture => self.resolve_capture(id, facts),
            Action::Disarm(hex) => self.resolve_disarm(id, hex, facts),
            Action::Mount(carrier) => self.resolve_mount(id, carrier, facts),
            Action::Dismount(to) => self.resolve_dismount(id, to, rng, facts),
            Action::Turn {
                rotation,
                turret_follows,
            } => self.resolve_turn(id, rotation, turret_follows, facts),
            Action::RotateTurret(rotation) => self.resolve_rotate_turret(id, rotation, facts),
            Action::Load(round) => self.resolve_load(id, round, act.quick_load, facts),
            Action::Fire(target) => {
                self.spend(costs.fire);
                if let Some(round) = self.units[id.index()].loaded.take() {
                    let bid = act.bring_it_down;
                    self.fire_weapon(id, target, Weapon::MainGun, round, bid, rng, facts);
                }
            }
            Action::DeploySmoke(hex) => self.resolve_smoke(id, hex, facts),
            Action::Extinguish => {
                self.units[id.index()].on_fire = false;
                self.spend(costs.extinguish);
                facts.push(Fact::FireExtinguished {
                    unit: id,
                    cost: costs.extinguish,
                });
            }
            Action::LayMine(hex) => self.resolve_lay_mine(id, hex, facts),
            Action::CallAirStrike(hex) => self.resolve_air_strike_call(id, hex, facts),
            Action::FireFlare(hex) => self.resolve_flare(id, hex, facts),
            Action::TakeOver(role) => self.resolve_take_over(id, role, facts),
            Action::UseAbility(ability) => self.resolve_ability(id, ability, rng, facts),
            Action::Activate(_) | Action::EndActivation | Action::Concede => {}
        }
    }

    /// Charges `cost` action points to the activation under way.
    #[inline]
    fn spend(&mut self, cost: u8) {
        if let Some(a) = self.active.as_mut() {
            debug_assert!(
                a.action_points >= cost,
                "an action cost {cost} AP with {} left",
                a.action_points
            );
            a.action_points = a.action_points.saturating_sub(cost);
        }
    }

    /// Drives vehicle `id` one space forward, with its riders, into any mine there.
    fn resolve_move(&mut self, id: UnitId, rng: &mut MatchRng, facts: &mut Vec<Fact>) {
        let cost = self.move_cost(&self.units[id.index()]);
        let from = self.units[id.index()].at;
        let to = self.ahead(&self.units[id.index()]);
        self.place(id, to);
        self.count_move(cost);
        facts.push(Fact::UnitMoved {
            unit: id,
            from,
            to,
            cost,
            dash: false,
        });
        self.note_waypoint(id, facts);
        self.trip_mines(id, rng, facts);
    }

    /// Steps squad `id` one space towards `facing`, into any mine there if squads trip
    /// them.
    fn resolve_step(
        &mut self,
        id: UnitId,
        facing: Facing,
        rng: &mut MatchRng,
        facts: &mut Vec<Fact>,
    ) {
        let cost = self.move_cost(&self.units[id.index()]);
        let u = &mut self.units[id.index()];
        let from = u.at;
        let to = from + facing.offset();
        u.at = to;
        u.facing = facing;
        u.turret = facing;
        self.count_move(cost);
        facts.push(Fact::InfantryMoved {
            unit: id,
            from,
            to,
            cost,
        });
        if self.rules.infantry.trips_mines {
            self.trip_mines(id, rng, facts);
        }
    }

    /// Squad `id` takes the objective it stands on for its side.
    fn resolve_capture(&mut self, id: UnitId, facts: &mut Vec<Fact>) {
        let cost = self.rules.costs.capture;
        let (at, side) = (self.units[id.index()].at, self.units[id.index()].side);
        if let Some(o) = self.objectives.iter_mut().find(|o| o.at == at) {
            let from = o.holder.replace(side);
            self.spend(cost);
            facts.push(Fact::ObjectiveCaptured {
                unit: id,
                hex: at,
                from,
                cost,
            });
        }
    }

    /// Squad `id` clears every mine at `hex` (none, when it sweeps a clear space).
    fn resolve_disarm(&mut self, id: UnitId, hex: Hex, facts: &mut Vec<Fact>) {
        let cost = self.rules.costs.disarm;
        let before = self.mines.len();
        self.mines.retain(|m| m.at != hex);
        #[allow(clippy::cast_possible_truncation, reason = "a hex holds few mines")]
        let found = (before - self.mines.len()) as u8;
        self.spend(cost);
        facts.push(Fact::MineDisarmed {
            unit: id,
            hex,
            found,
            cost,
        });
    }

    /// Squad `id` climbs onto or into `carrier`.
    fn resolve_mount(&mut self, id: UnitId, carrier: UnitId, facts: &mut Vec<Fact>) {
        let cost = self.rules.costs.mount;
        let (to, turn) = (self.units[carrier.index()].at, self.turn);
        let u = &mut self.units[id.index()];
        u.at = to;
        u.riding = Some(carrier);
        u.boarded_on = turn;
        self.spend(cost);
        facts.push(Fact::Mounted {
            unit: id,
            carrier,
            cost,
        });
    }

    /// Squad `id` climbs down from its carrier to `to`, into any mine there if squads
    /// trip them.
    fn resolve_dismount(&mut self, id: UnitId, to: Hex, rng: &mut MatchRng, facts: &mut Vec<Fact>) {
        let cost = self.rules.costs.mount;
        let turn = self.turn;
        let u = &mut self.units[id.index()];
        let Some(carrier) = u.riding.take() else {
            return;
        };
        u.at = to;
        u.boarded_on = turn;
        self.spend(cost);
        facts.push(Fact::Dismounted {
            unit: id,
            carrier,
            to,
            cost,
        });
        if self.rules.infantry.trips_mines {
            self.trip_mines(id, rng, facts);
        }
    }

    /// Turns the hull of `id` by `rotation`, the turret with it when it follows (always,
    /// for a vehicle with no turret of its own to keep).
    fn resolve_turn(
        &mut self,
        id: UnitId,
        rotation: Rotation,
        turret_follows: bool,
        facts: &mut Vec<Fact>,
    ) {
        let u = &mut self.units[id.index()];
        let from = u.facing;
        u.facing = from.rotated(rotation);
        // Only a tank has a turret that can stay where it points.
        if turret_follows || u.kind != UnitKind::Tank {
            u.turret = u.turret.rotated(rotation);
        }
        let (to, turret) = (u.facing, u.turret);
        let cost = self.turn_cost(&self.units[id.index()]);
        self.spend(cost);
        facts.push(Fact::UnitTurned {
            unit: id,
            from,
            to,
            turret,
            cost,
        });
    }

    /// Turns the turret of tank `id` by `rotation`.
    fn resolve_rotate_turret(&mut self, id: UnitId, rotation: Rotation, facts: &mut Vec<Fact>) {
        let cost = self.rules.costs.turret;
        let u = &mut self.units[id.index()];
        let from = u.turret;
        u.turret = from.rotated(rotation);
        let to = u.turret;
        self.spend(cost);
        facts.push(Fact::TurretRotated {
            unit: id,
            from,
            to,
            cost,
        });
    }

    /// Loads `round` into the gun of tank `id`, free under "Quick load!".
    fn resolve_load(&mut self, id: UnitId, round: Round, quick_load: bool, facts: &mut Vec<Fact>) {
        let cost = self.units[id.index()]
            .load_cost(&self.rules, quick_load)
            .unwrap_or(0);
        self.units[id.index()].loaded = Some(round);
        self.spend(cost);
        facts.push(Fact::GunLoaded {
            unit: id,
            round,
            cost,
        });
    }

    /// Unit `id` fires its smoke launcher onto `hex`.
    fn resolve_smoke(&mut self, id: UnitId, hex: Hex, facts: &mut Vec<Fact>) {
        let cost = self.rules.costs.smoke;
        if let Some(i) = self.board.index(hex) {
            self.smoke[i] = true;
        }
        self.spend(cost);
        if let Some(a) = self.active.as_mut() {
            a.smoke_deployed += 1;
        }
        facts.push(Fact::SmokeDeployed {
            unit: id,
            hex,
            cost,
        });
    }

    /// Tank `id` lays one of its mines at `hex`.
    fn resolve_lay_mine(&mut self, id: UnitId, hex: Hex, facts: &mut Vec<Fact>) {
        let cost = self.rules.costs.lay_mine;
        let u = &mut self.units[id.index()];
        u.mines_left = u.mines_left.saturating_sub(1);
        let owner = u.side;
        self.mines.push(Mine { at: hex, owner });
        self.spend(cost);
        facts.push(Fact::MineLaid {
            unit: id,
            hex,
            cost,
        });
    }

    /// Tank `id` calls an air strike on `hex`: its own first, else one of its side's
    /// free ones.
    fn resolve_air_strike_call(&mut self, id: UnitId, hex: Hex, facts: &mut Vec<Fact>) {
        let cost = self.rules.costs.air_strike;
        let u = &mut self.units[id.index()];
        let side = u.side;
        // The tank's own strike goes first; then the side's free ones.
        if u.air_strike_ready {
            u.air_strike_ready = false;
        } else if let Some(n) = self.strike_pool.get_mut(side.index()) {
            *n = n.saturating_sub(1);
        }
        self.strikes.push(AirStrike {
            at: hex,
            side,
            caller: id,
            called_on: self.turn,
        });
        self.spend(cost);
        facts.push(Fact::AirStrikeCalled {
            unit: id,
            hex,
            cost,
        });
    }

    /// Tank `id` fires one of its flares over `hex`.
    fn resolve_flare(&mut self, id: UnitId, hex: Hex, facts: &mut Vec<Fact>) {
        let cost = self.rules.costs.flare;
        let u = &mut self.units[id.index()];
        u.flares_left = u.flares_left.saturating_sub(1);
        self.flares.push(hex);
        self.spend(cost);
        facts.push(Fact::FlareFired {
            unit: id,
            hex,
            cost,
        });
    }

    /// The Lieutenant Commander of tank `id` takes over `role`.
    fn resolve_take_over(&mut self, id: UnitId, role: Role, facts: &mut Vec<Fact>) {
        self.units[id.index()].lieutenant_covers = Some(role);
        // Taking over a dead commander mid-activation gives back what his death
        // cost beyond a wound, as if the lieutenant had been there from the start.
        if role == Role::Commander {
            let c = self.rules.crew;
            let back = c
                .commander_killed_actions
                .saturating_sub(c.commander_wounded_actions);
            if let Some(a) = self.active.as_mut() {
                a.action_points = a.action_points.saturating_add(back);
            }
        }
        facts.push(Fact::LieutenantTookOver { unit: id, role });
    }

    /// A crew member of tank `id` uses `ability`: spent for the battle (or one of a
    /// veteran's spare uses), and for the turn.
    fn resolve_ability(
        &mut self,
        id: UnitId,
        ability: Ability,
        rng: &mut MatchRng,
        facts: &mut Vec<Fact>,
    ) {
        let role = ability.role();
        let u = &mut self.units[id.index()];
        // A lieutenant covering the role uses the role's ability.
        if let Some(m) = u.crew.iter_mut().find(|m| m.role == role) {
            if m.spare_uses > 0 {
                m.spare_uses -= 1;
            } else {
                m.ability_used = true;
            }
        }
        if let Some(a) = self.active.as_mut() {
            a.ability_used = true;
        }
        facts.push(Fact::AbilityUsed {
            unit: id,
            role,
            ability,
        });
        match ability {
            Ability::BoomingVoice => {
                let extra = self.rules.crew.booming_voice_actions;
                if let Some(a) = self.active.as_mut() {
                    a.action_points += extra;
                }
            }
            Ability::BringItDown => {
                if let Some(a) = self.active.as_mut() {
                    a.bring_it_down = true;
                }
            }
            Ability::QuickLoad => {
                if let Some(a) = self.active.as_mut() {
                    a.quick_load = true;
                }
            }
            Ability::MoveMoveMove { spaces } => self.resolve_dash(id, spaces, rng, facts),
        }
    }

    /// "Move move move!": tank `id` drives `spaces` straight ahead, stopping where a mine
    /// goes off.
    fn resolve_dash(&mut self, id: UnitId, spaces: u8, rng: &mut MatchRng, facts: &mut Vec<Fact>) {
        let cost = self.dash_cost(&self.units[id.index()], spaces);
        self.spend(cost);
        for _ in 0..spaces {
            let from = self.units[id.index()].at;
            let to = self.ahead(&self.units[id.index()]);
            self.place(id, to);
            if self.rules.crew.dash_within_cap
                && let Some(a) = self.active.as_mut()
            {
                a.moves += 1;
            }
            facts.push(Fact::UnitMoved {
                unit: id,
                from,
                to,
                cost: 0,
                dash: true,
            });
            self.note_waypoint(id, facts);
            // A mine stops the dash where it goes off.
            if self.trip_mines(id, rng, facts) {
                break;
            }
        }
    }

    fn note_waypoint(&mut self, id: UnitId, facts: &mut Vec<Fact>) {
        let MissionRules::Training { waypoints } = &self.mission else {
            return;
        };
        let at = self.units[id.index()].at;
        for (i, w) in waypoints.iter().enumerate() {
            if *w == at && !self.waypoints_reached[i] {
                self.waypoints_reached[i] = true;
                facts.push(Fact::WaypointReached { unit: id, hex: at });
            }
        }
    }

    /// Charges a move's action points and counts it towards the turn's move cap.
    fn count_move(&mut self, cost: u8) {
        if let Some(a) = self.active.as_mut() {
            a.action_points = a.action_points.saturating_sub(cost);
            a.moves += 1;
        }
    }

    /// Moves `id` to `to`, with the infantry riding on it.
    fn place(&mut self, id: UnitId, to: hexx::Hex) {
        self.units[id.index()].at = to;
        for u in &mut self.units {
            if u.riding == Some(id) {
                u.at = to;
            }
        }
    }

    /// A shot from the main gun (its round already taken out of the gun) or a missile.
    #[allow(clippy::too_many_arguments, reason = "one shot's every input")]
    fn fire_weapon(
        &mut self,
        id: UnitId,
        target: FireTarget,
        weapon: Weapon,
        round: Round,
        bring_it_down: bool,
        rng: &mut MatchRng,
        facts: &mut Vec<Fact>,
    ) {
        let Ok(profile) = self.weapon_profile(id, target, weapon, round, bring_it_down) else {
            return;
        };
        let roll = rng.d6();
        let hit = profile.to_hit.hits(roll);
        let penetration = match (hit, profile.armor) {
            (true, Some((armor_facing, armor, facing_reason))) => {
                let pen = rng.d6();
                Some(PenetrationRoll {
                    roll: pen,
                    strength: profile.strength,
                    armor_facing,
                    armor,
                    facing_reason,
                    penetrating: pen + profile.strength > armor,
                })
            }
            _ => None,
        };
        facts.push(Fact::ShotResolved {
            shooter: id,
            target,
            weapon,
            round,
            to_hit: profile.to_hit,
            roll,
            hit,
            penetration: penetration.clone(),
        });
        if !hit {
            return;
        }
        match target {
            FireTarget::Building(hex) => {
                if let Some(i) = self.board.index(hex) {
                    self.wreck_ground(i);
                }
                facts.push(Fact::BuildingDestroyed { hex });
            }
            FireTarget::Unit(t) => {
                if self.units[t.index()].is_infantry() {
                    let why = format!(
                        "hit by {}'s {}",
                        self.units[id.index()].name,
                        weapon.title()
                    );
                    self.destroy_squad(t, why, facts);
                } else if let Some(p) = penetration {
                    self.damage(t, p.penetrating, round == Round::He, rng, facts);
                }
            }
        }
    }

    /// An anti-infantry weapon's shot: a hit destroys the squad.
    fn fire_anti_infantry(
        &mut self,
        id: UnitId,
        target: UnitId,
        bring_it_down: bool,
        rng: &mut MatchRng,
        facts: &mut Vec<Fact>,
    ) {
        let Ok(profile) = self.weapon_profile(
            id,
            FireTarget::Unit(target),
            Weapon::AntiInfantry,
            Round::At,
            bring_it_down,
        ) else {
            return;
        };
        let roll = rng.d6();
        let hit = profile.to_hit.hits(roll);
        facts.push(Fact::AntiInfantryFired {
            shooter: id,
            target,
            to_hit: profile.to_hit,
            roll,
            hit,
        });
        if hit {
            let why = format!(
                "hit by {}'s anti-infantry weapon",
                self.units[id.index()].name
            );
            self.destroy_squad(target, why, facts);
        }
    }

    /// Takes an infantry squad off the table (it leaves no wreck).
    fn destroy_squad(&mut self, t: UnitId, reason: String, facts: &mut Vec<Fact>) {
        let u = &mut self.units[t.index()];
        if !u.on_table() {
            return;
        }
        u.hull = 0;
        u.status = Status::Destroyed;
        u.riding = None;
        u.in_cover = false;
        facts.push(Fact::UnitDestroyed { unit: t, reason });
    }

    /// Applies a hit's effects: wounds, hull, fire, and disabling.
    pub(crate) fn damage(
        &mut self,
        t: UnitId,
        penetrating: bool,
        he: bool,
        rng: &mut MatchRng,
        facts: &mut Vec<Fact>,
    ) {
        let d = self.rules.damage;
        // Any hit on a tank kills the infantry riding on its outside (inside an APC they
        // are safe until it is knocked out).
        let outside = !self.units[t.index()].carries_inside();
        let riders: Vec<UnitId> = self.riders(t).filter(|_| outside).map(|r| r.id).collect();
        for r in riders {
            let why = format!(
                "{RIDER_LOST} {} when it was hit",
                self.units[t.index()].name
            );
            self.destroy_squad(r, why, facts);
        }
        if self.units[t.index()].is_infantry() {
            if penetrating {
                self.destroy_squad(t, "a penetrating hit".into(), facts);
            }
            return;
        }
        let has_crew = self.units[t.index()].living_crew().next().is_some();
        if penetrating {
            self.wound(t, rng, facts);
            let u = &mut self.units[t.index()];
            u.hull = u.hull.saturating_sub(1);
            facts.push(Fact::HullDamaged {
                unit: t,
                amount: 1,
                remaining: u.hull,
                cause: DamageCause::Penetration,
            });
        } else if has_crew {
            let check = roll_check(rng, d.glancing_wound_on);
            facts.push(Fact::WoundRolled { unit: t, check });
            if check.success {
                self.wound(t, rng, facts);
            }
        }
        // Sandbagged AA emplacements have nothing to burn.
        if he
            && !self.units[t.index()].on_fire
            && self.units[t.index()].is_active()
            && !self.units[t.index()].is_aa_gun()
        {
            let check = roll_check(rng, d.fire_on);
            facts.push(Fact::FireRolled { unit: t, check });
            if check.success {
                self.units[t.index()].on_fire = true;
            }
        }
        self.check_disabled(t, facts);
    }

    fn check_disabled(&mut self, t: UnitId, facts: &mut Vec<Fact>) {
        let u = &self.units[t.index()];
        if u.status != Status::Active {
            return;
        }
        let reason = if u.hull == 0 {
            "no hull points left"
        } else if self.rules.damage.crewless_disabled
            && !u.crew.is_empty()
            && u.living_crew().next().is_none()
        {
            "the whole crew is dead"
        } else {
            return;
        };
        let u = &mut self.units[t.index()];
        u.status = Status::Disabled;
        u.on_fire = false;
        facts.push(Fact::UnitDisabled {
            unit: t,
            reason: reason.into(),
        });
        if self.units[t.index()].carries_inside() {
            self.bail_out(t, facts);
        }
    }

    /// The squads inside a knocked-out APC get out into the free spaces around it: rear
    /// first, then the rear corners (clockwise first), the sides and the front; with no space left, or when the rules say passengers are lost, they die
    /// with it. Bailing out counts as the turn's dismount and sets off no mine.
    fn bail_out(&mut self, carrier: UnitId, facts: &mut Vec<Fact>) {
        let (at, facing) = {
            let c = &self.units[carrier.index()];
            (c.at, c.facing)
        };
        let name = self.units[carrier.index()].name.clone();
        let passengers: Vec<UnitId> = self.riders(carrier).map(|r| r.id).collect();
        let rear = facing.opposite().index();
        for p in passengers {
            let free = [0, 1, 5, 2, 4, 3]
                .into_iter()
                .map(|k| at + Facing::from_index(rear + k).offset())
                .find(|&h| {
                    self.board.contains(h)
                        && !self.terrain(h).is_impassable()
                        && self.unit_at(h).is_none()
                });
            match free {
                Some(to) if self.rules.apc.bail_out => {
                    let turn = self.turn;
                    let u = &mut self.units[p.index()];
                    u.riding = None;
                    u.at = to;
                    u.boarded_on = turn;
                    facts.push(Fact::BailedOut {
                        unit: p,
                        carrier,
                        to,
                    });
                }
                Some(_) => {
                    let why = format!("inside {name} when it was knocked out");
                    self.destroy_squad(p, why, facts);
                }
                None => {
                    let why = format!("trapped inside {name}: no free space to bail out into");
                    self.destroy_squad(p, why, facts);
                }
            }
        }
    }

    /// Wounds a random living crew member.
    pub(crate) fn wound(&mut self, t: UnitId, rng: &mut MatchRng, facts: &mut Vec<Fact>) {
        let u = &mut self.units[t.index()];
        let living: Vec<usize> = (0..u.crew.len())
            .filter(|&i| u.crew[i].is_alive())
            .collect();
        if living.is_empty() {
            return;
        }
        let pick = rng.pick(living.len());
        let m = &mut u.crew[living[pick]];
        m.wounds += 1;
        let killed = m.wounds >= 2;
        let mut treated = false;
        if !killed && u.medkit_unused {
            m.treated = true;
            treated = true;
            u.medkit_unused = false;
        }
        let (role, name) = (m.role, m.name.clone());
        #[allow(clippy::cast_possible_truncation, reason = "at most five crew")]
        facts.push(Fact::CrewWounded {
            unit: t,
            role,
            name,
            pick: pick as u8 + 1,
            of: living.len() as u8,
            killed,
            treated,
        });
        if killed
            && self.rules.crew.lieutenant == LieutenantRule::FirstDeath
            && role != Role::Lieutenant
            && u.lieutenant_covers.is_none()
            && u.member(Role::Lieutenant).is_some_and(|l| l.is_alive())
        {
            u.lieutenant_covers = Some(role);
            facts.push(Fact::LieutenantTookOver { unit: t, role });
        }
    }

    fn end_activation(&mut self, rng: &mut MatchRng, facts: &mut Vec<Fact>) {
        let Some(act) = self.active.take() else {
            return;
        };
        self.activated[act.unit.index()] = true;
        facts.push(Fact::ActivationEnded {
            unit: act.unit,
            unused: act.action_points,
        });
        self.current = self.other(self.current);
        self.pass_if_idle(rng, facts);
    }

    fn other(&self, side: PlayerId) -> PlayerId {
        PlayerId(((side.0 as usize + 1) % self.sides.len()) as u8)
    }

    /// Hands the choice to a side that still has units to activate; ends turns while
    /// neither has.
    fn pass_if_idle(&mut self, rng: &mut MatchRng, facts: &mut Vec<Fact>) {
        loop {
            if self.outcome_now().is_some() {
                return;
            }
            if self.pending_units(self.current).next().is_some() {
                return;
            }
            let other = self.other(self.current);
            if self.pending_units(other).next().is_some() {
                self.current = other;
                return;
            }
            self.end_turn(rng, facts);
            if self.outcome_now().is_some() {
                return;
            }
            self.turn += 1;
            self.activated.iter_mut().for_each(|a| *a = false);
            if self.outcome_now().is_some() {
                return;
            }
            facts.push(Fact::TurnStarted { turn: self.turn });
            // Cover lasts until the next turn.
            for u in &mut self.units {
                u.in_cover = false;
            }
            self.roll_weather(rng, facts);
            self.roll_air_strikes(rng, facts);
            // If nobody can act, the loop ends turns until the limit ends the battle.
            self.current = self.first_player.unwrap_or_default();
        }
    }

    /// Fires burn, then disabled tanks roll to cook off.
    pub(crate) fn end_turn(&mut self, rng: &mut MatchRng, facts: &mut Vec<Fact>) {
        let d = self.rules.damage;
        // Only fires burning when the turn ends do damage; one started by a blast during
        // this end phase first burns at the end of the next turn.
        let burning: Vec<bool> = self.units.iter().map(|u| u.on_fire).collect();
        for (i, was_burning) in burning.into_iter().enumerate() {
            let u = &mut self.units[i];
            if !(was_burning && u.on_fire && u.is_active()) {
                continue;
            }
            u.hull = u.hull.saturating_sub(d.fire_damage);
            let id = u.id;
            facts.push(Fact::HullDamaged {
                unit: id,
                amount: d.fire_damage,
                remaining: u.hull,
                cause: DamageCause::Fire,
            });
            if u.hull == 0 {
                self.check_disabled(id, facts);
                self.cook_off(id, true, rng, facts);
            }
        }
        let mut rolled = vec![false; self.units.len()];
        // Training targets carry no ammunition to cook off, and an AA gun's is dug in
        // apart from the gun.
        let next_unrolled = |s: &Self, rolled: &[bool]| {
            (0..s.units.len()).find(|&i| {
                !rolled[i]
                    && s.units[i].status == Status::Disabled
                    && !matches!(s.units[i].kind, UnitKind::Target | UnitKind::AaGun)
            })
        };
        while let Some(i) = next_unrolled(self, &rolled) {
            rolled[i] = true;
            let id = self.units[i].id;
            let check = roll_check(rng, d.cook_off_on);
            facts.push(Fact::CookOffRolled { unit: id, check });
            if check.success {
                self.cook_off(id, false, rng, facts);
            }
        }
        if !self.objectives.is_empty() {
            self.held_at_turn_end = (0..self.sides.len())
                .map(|side| {
                    #[allow(clippy::cast_possible_truncation, reason = "two sides")]
                    let side = PlayerId(side as u8);
                    u8::try_from(self.objectives_held(side)).unwrap_or(u8::MAX)
                })
                .collect();
        }
        if self.area_held_by_attacker() {
            self.area_taken_on = Some(self.turn);
        }
        // Flares burn out with the turn.
        self.flares.clear();
        facts.push(Fact::TurnEnded { turn: self.turn });
    }

    /// The ammunition explodes: the tank is destroyed, a blast hits every unit within the
    /// radius, and the wreck becomes rubble.
    fn cook_off(&mut self, id: UnitId, immediate: bool, rng: &mut MatchRng, facts: &mut Vec<Fact>) {
        let d = self.rules.damage;
        let at = self.units[id.index()].at;
        {
            let u = &mut self.units[id.index()];
            u.status = Status::Destroyed;
            u.on_fire = false;
        }
        // The wreck becomes rubble; a hover tank's sinks in the water.
        if let Some(i) = self.board.index(at)
            && self.terrain[i] != Terrain::Water
        {
            self.wreck_ground(i);
        }
        facts.push(Fact::CookedOff {
            unit: id,
            hex: at,
            immediate,
        });
        let riders: Vec<UnitId> = self.riders(id).map(|r| r.id).collect();
        for r in riders {
            let why = format!("riding on {} when it exploded", self.units[id.index()].name);
            self.destroy_squad(r, why, facts);
        }
        let victims: Vec<UnitId> = self
            .units
            .iter()
            .filter(|u| {
                u.on_table()
                    && u.id != id
                    && !self.is_inside(u)
                    && u.at.unsigned_distance_to(at) <= u32::from(d.cook_off_radius)
            })
            .map(|u| u.id)
            .collect();
        for t in victims {
            let target = &self.units[t.index()];
            // A squad riding on a tank the blast already hit is gone.
            if !target.on_table() {
                continue;
            }
            let (armor_facing, facing_reason) = self.armor_facing_hit(target, at);
            let armor = target.armor.facing(armor_facing);
            let roll = rng.d6();
            let penetrating = roll + d.cook_off_strength > armor;
            facts.push(Fact::BlastHit {
                source: id,
                target: t,
                penetration: PenetrationRoll {
                    roll,
                    strength: d.cook_off_strength,
                    armor_facing,
                    armor,
                    facing_reason,
                    penetrating,
                },
            });
            self.damage(t, penetrating, true, rng, facts);
        }
    }

    /// Sets off every mine where `id` now stands: each is an AT hit, then it is gone.
    /// True if one went off.
    fn trip_mines(&mut self, id: UnitId, rng: &mut MatchRng, facts: &mut Vec<Fact>) -> bool {
        let at = self.units[id.index()].at;
        if !self.mined(at) {
            return false;
        }
        let m = self.rules.mines;
        let (tripped, kept): (Vec<Mine>, Vec<Mine>) =
            self.mines.iter().partition(|mine| mine.at == at);
        self.mines = kept;
        for mine in tripped {
            if !self.units[id.index()].on_table() {
                break;
            }
            let penetration = self.hit_from_outside(
                id,
                m.strength,
                m.armor_facing,
                "a mine strikes from below",
                rng,
            );
            let penetrating = penetration.penetrating;
            facts.push(Fact::MineExploded {
                unit: id,
                hex: at,
                owner: mine.owner,
                penetration,
            });
            self.damage(id, penetrating, false, rng, facts);
        }
        true
    }

    /// The penetration roll of a hit that comes from no shooter (a mine, an air strike):
    /// it strikes `facing`'s armor.
    fn hit_from_outside(
        &self,
        id: UnitId,
        strength: u8,
        facing: ArmorFacing,
        why: &str,
        rng: &mut MatchRng,
    ) -> PenetrationRoll {
        let armor = self.units[id.index()].armor.facing(facing);
        let roll = rng.d6();
        PenetrationRoll {
            roll,
            strength,
            armor_facing: facing,
            armor,
            facing_reason: why.into(),
            penetrating: roll + strength > armor,
        }
    }

    /// At the start of a turn, every strike called on an earlier turn rolls to come in.
    /// The Weather option: a storm blows this turn on a low roll.
    fn roll_weather(&mut self, rng: &mut MatchRng, facts: &mut Vec<Fact>) {
        if !self.weather {
            return;
        }
        let roll = rng.d6();
        self.storm = roll <= self.rules.weather.storm_on;
        facts.push(Fact::WeatherRolled {
            roll,
            storm: self.storm,
        });
    }

    fn roll_air_strikes(&mut self, rng: &mut MatchRng, facts: &mut Vec<Fact>) {
        let pending = std::mem::take(&mut self.strikes);
        for strike in pending {
            let waited = strike.waited(self.turn);
            if waited == 0 {
                self.strikes.push(strike);
                continue;
            }
            let check = roll_check(rng, self.rules.air_strike.need(waited));
            facts.push(Fact::AirStrikeRolled {
                side: strike.side,
                hex: strike.at,
                waited,
                check,
            });
            if !check.success {
                self.strikes.push(strike);
                continue;
            }
            if let Some((need, guns)) = self.anti_aircraft_need(strike.side) {
                let check = roll_check(rng, need);
                facts.push(Fact::AntiAircraftFired {
                    side: strike.side,
                    hex: strike.at,
                    guns: u8::try_from(guns).unwrap_or(u8::MAX),
                    check,
                });
                if check.success {
                    continue;
                }
            }
            self.air_strike_lands(strike, rng, facts);
        }
    }

    /// The marked space is hit, then (with scatter) a rolled line of spaces from it.
    pub(crate) fn air_strike_lands(
        &mut self,
        strike: AirStrike,
        rng: &mut MatchRng,
        facts: &mut Vec<Fact>,
    ) {
        let a = self.rules.air_strike;
        let mut hexes = vec![strike.at];
        let scatter = a.scatter.then(|| {
            let direction_roll = rng.d6();
            let distance = rng.d6();
            let direction = Facing::ALL[usize::from(direction_roll - 1)];
            Scatter {
                direction_roll,
                direction,
                distance,
            }
        });
        if let Some(s) = scatter {
            hexes.extend(
                (1..=i32::from(s.distance))
                    .map(|k| strike.at + s.direction.offset() * k)
                    .filter(|h| self.board.contains(*h)),
            );
        }
        facts.push(Fact::AirStrikeLanded {
            side: strike.side,
            hex: strike.at,
            scatter,
            hexes: hexes.clone(),
        });
        for hex in hexes {
            if self.terrain(hex) == Terrain::Building {
                if let Some(i) = self.board.index(hex) {
                    self.wreck_ground(i);
                }
                facts.push(Fact::BuildingDestroyed { hex });
                continue;
            }
            let Some(target) = self.unit_at(hex).map(|u| u.id) else {
                continue;
            };
            let penetration = self.hit_from_outside(
                target,
                a.strength,
                a.armor_facing,
                "an air strike hits from above",
                rng,
            );
            let penetrating = penetration.penetrating;
            facts.push(Fact::StrikeHit {
                target,
                hex,
                penetration,
            });
            self.damage(target, penetrating, false, rng, facts);
        }
    }

    fn note_outcome(&self, facts: &mut Vec<Fact>) {
        if let Some(outcome) = self.outcome_now()
            && !facts.iter().any(|f| matches!(f, Fact::BattleEnded { .. }))
        {
            facts.push(Fact::BattleEnded { outcome });
        }
    }
}

fn roll_check(rng: &mut MatchRng, need: u8) -> DieCheck {
    let roll = rng.d6();
    DieCheck {
        roll,
        need,
        success: roll >= need,
    }
}
