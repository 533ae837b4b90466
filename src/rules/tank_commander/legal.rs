//! Which actions are legal, and for each one that is not, a [`Refusal`]: the rule of the
//! rules map that forbids it and a sentence saying why.

use hexx::Hex;

use super::action::{Ability, Action, FireTarget, Weapon};
use super::setup::{LieutenantRule, Round, Terrain};
use super::state::{Activation, Role, RoleState, TankCommander, Unit, UnitId};
use crate::framework::{PlayerId, Refusal};
use crate::grid::{Facing, Rotation};

impl TankCommander {
    /// The hex `unit` would move into going forward.
    #[must_use]
    pub fn ahead(&self, unit: &Unit) -> Hex {
        unit.at + unit.facing.offset()
    }

    /// Why `unit` cannot enter `hex`, if it cannot.
    fn entry_problem(&self, unit: &Unit, hex: Hex) -> Option<Refusal> {
        if !self.board.contains(hex) {
            return Some(Refusal::new(
                "tc.play.move",
                "that would drive off the board",
            ));
        }
        if !unit.may_enter(self.terrain(hex)) {
            return Some(self.impassable(hex, "tc.play.move"));
        }
        self.unit_at(hex).map(|u| {
            Refusal::new(
                "tc.play.move",
                format!("{} is occupied by {}", self.label(hex), u.name),
            )
        })
    }

    /// Why nothing goes onto `hex`, a building or water: a building by the buildings'
    /// rule, water by `water_rule`, the rule of what was tried there (the rulebook has no
    /// water, so each action's own reading keeps it off).
    fn impassable(&self, hex: Hex, water_rule: &'static str) -> Refusal {
        let terrain = self.terrain(hex);
        let rule = if terrain == Terrain::Building {
            "tc.terrain.building-impassable"
        } else {
            water_rule
        };
        Refusal::new(rule, format!("{} is {}", self.label(hex), terrain.a_noun()))
    }

    /// Action point cost of moving `unit` one space forward from where it stands.
    #[must_use]
    pub fn move_cost(&self, unit: &Unit) -> u8 {
        if self.terrain(unit.at).is_rough() && !unit.movement.ignores_rough {
            self.rules.costs.leave_rough
        } else {
            self.rules.costs.move_forward
        }
    }

    /// Action points a 60° hull turn costs `unit` (nothing for a unit type that turns
    /// for free).
    #[must_use]
    pub fn turn_cost(&self, unit: &Unit) -> u8 {
        if unit.movement.free_turns {
            0
        } else {
            self.rules.costs.turn
        }
    }

    /// Action points "Move move move!" costs for `spaces` straight ahead of `unit`: one
    /// action, plus (when the rules say so) the extra a move out of rough ground costs.
    #[must_use]
    pub fn dash_cost(&self, unit: &Unit, spaces: u8) -> u8 {
        let c = &self.rules.costs;
        let mut cost = c.move_forward;
        if self.rules.crew.dash_pays_rough && !unit.movement.ignores_rough {
            let mut hex = unit.at;
            for _ in 0..spaces {
                if self.terrain(hex).is_rough() {
                    cost = cost.saturating_add(c.leave_rough.saturating_sub(c.move_forward));
                }
                hex += unit.facing.offset();
            }
        }
        cost
    }

    /// Why `unit` cannot lay a mine at `hex` (ignoring action points), if it cannot.
    fn mine_problem(&self, unit: &Unit, hex: Hex) -> Option<Refusal> {
        const RULE: &str = "tc.build.mines";
        if unit.build.mines == 0 {
            return Some(Refusal::new(
                RULE,
                format!(
                    "{} carries no mines (the Anti-Tank Mines upgrade)",
                    unit.name
                ),
            ));
        }
        if unit.mines_left == 0 {
            return Some(Refusal::new(
                RULE,
                format!("{} has laid all its mines", unit.name),
            ));
        }
        if !self.board.contains(hex) {
            return Some(Refusal::new(RULE, "a mine must be laid on the board"));
        }
        let range = self.rules.mines.lay_range;
        let d = unit.at.unsigned_distance_to(hex);
        if d == 0 || d > u32::from(range) {
            let why = format!(
                "a mine is laid 1{} space{} from the tank; {} is {d}",
                if range > 1 {
                    format!(" to {range}")
                } else {
                    String::new()
                },
                if range == 1 { "" } else { "s" },
                self.label(hex)
            );
            return Some(Refusal::new(RULE, why));
        }
        if self.terrain(hex).is_impassable() {
            return Some(self.impassable(hex, RULE));
        }
        if let Some(other) = self.unit_at(hex) {
            return Some(Refusal::new(
                RULE,
                format!("{} stands on {}", other.name, self.label(hex)),
            ));
        }
        // Only mines the side knows of: a refusal must not give away a hidden one.
        if self.mines_seen_by(unit.side).any(|m| m.at == hex) {
            return Some(Refusal::new(
                RULE,
                format!("{} is already mined", self.label(hex)),
            ));
        }
        None
    }

    /// Why `unit`'s Lieutenant Commander cannot take over `role` (ignoring whose turn
    /// it is), if he cannot.
    #[must_use]
    pub fn take_over_problem(&self, unit: &Unit, role: Role) -> Option<Refusal> {
        const RULE: &str = "tc.crew.lieutenant";
        if self.rules.crew.lieutenant != LieutenantRule::Choice {
            return Some(Refusal::new(
                RULE,
                "under these rules the Lieutenant Commander takes over the first killed role \
                 on his own",
            ));
        }
        let Some(lieutenant) = unit.member(Role::Lieutenant) else {
            return Some(Refusal::new(
                RULE,
                format!("{} has no Lieutenant Commander", unit.name),
            ));
        };
        if !lieutenant.is_alive() {
            return Some(Refusal::new(RULE, "the Lieutenant Commander is dead"));
        }
        if let Some(covered) = unit.lieutenant_covers {
            return Some(Refusal::new(
                RULE,
                format!("the Lieutenant Commander already does the {covered}'s job"),
            ));
        }
        match unit.member(role) {
            _ if role == Role::Lieutenant => Some(Refusal::new(
                RULE,
                "the Lieutenant Commander cannot take over his own job",
            )),
            Some(m) if m.is_alive() => Some(Refusal::new(
                RULE,
                format!("the {role} is alive: he takes over only a killed crew member's job"),
            )),
            _ => None,
        }
    }

    /// Why `unit` cannot take `action` because of what it is (a tank, a squad, a squad
    /// riding on a tank or taking cover), if it cannot.
    fn kind_problem(&self, unit: &Unit, act: &Activation, action: &Action) -> Option<Refusal> {
        if unit.is_apc() {
            return apc_problem(unit, action);
        }
        if !unit.is_infantry() {
            return action.is_infantry_only().then(|| {
                Refusal::new(
                    infantry_rule(action),
                    format!(
                        "{} is {}: only infantry can do that",
                        unit.name,
                        unit.kind.a_noun()
                    ),
                )
            });
        }
        self.squad_problem(unit, act, action)
    }

    /// Why squad `unit` cannot take `action`, riding, in cover or being infantry, if it
    /// cannot.
    fn squad_problem(&self, unit: &Unit, act: &Activation, action: &Action) -> Option<Refusal> {
        let name = &unit.name;
        match action {
            Action::EndActivation | Action::Activate(_) | Action::Concede => return None,
            Action::Dismount(_) => return None,
            _ => {}
        }
        if let Some(carrier) = unit.riding {
            return Some(Refusal::new(
                "tc.infantry.mount",
                format!(
                    "{name} rides on {}: it must dismount first",
                    self.units[carrier.index()].name
                ),
            ));
        }
        let moves_or_fires = matches!(
            action,
            Action::Step(_)
                | Action::FireMissile(..)
                | Action::FireAntiInfantry(_)
                | Action::Mount(_)
        );
        if unit.in_cover && moves_or_fires {
            return Some(Refusal::new(
                "tc.infantry.take-cover",
                format!("{name} has taken cover: it cannot move or fire until the next turn"),
            ));
        }
        if matches!(action, Action::TakeCover) && act.free_shots > 0 {
            return Some(Refusal::new(
                "tc.infantry.take-cover",
                format!("{name} has fired this turn: a squad in cover does not fire"),
            ));
        }
        let (rule, why) = match action {
            Action::Move => (
                "tc.infantry.move",
                format!("{name} is infantry: it steps one space in any direction"),
            ),
            Action::Turn { .. } | Action::RotateTurret(_) => (
                "tc.infantry.profile",
                format!("{name} is infantry: it has no hull or turret to turn"),
            ),
            Action::Load(_) => (
                "tc.infantry.fire-missile",
                format!("{name} is infantry: its missiles need no loading"),
            ),
            Action::Fire(_) => (
                "tc.infantry.weapons",
                format!(
                    "{name} is infantry: it fires its missile launcher or anti-infantry weapon"
                ),
            ),
            Action::UseAbility(_) | Action::TakeOver(_) => (
                "tc.infantry.profile",
                format!("{name} is infantry: crew abilities belong to tanks"),
            ),
            _ => return None,
        };
        Some(Refusal::new(rule, why))
    }

    /// Why `unit` may not move another space this turn, if it may not.
    fn move_cap_problem(&self, unit: &Unit, act: &Activation) -> Option<Refusal> {
        let storm = self.storm && unit.is_infantry();
        let rule = if storm {
            "tc.ideas.weather"
        } else if unit.is_infantry() {
            "tc.infantry.move"
        } else if unit.is_apc() {
            "tc.apc.move-turn"
        } else {
            "tc.play.move"
        };
        (act.moves >= self.moves_allowed(unit)).then(|| {
            Refusal::new(
                rule,
                format!(
                    "{} has already moved {} space{} this turn, its limit{}",
                    unit.name,
                    act.moves,
                    if act.moves == 1 { "" } else { "s" },
                    if storm { " in the storm" } else { "" }
                ),
            )
        })
    }

    /// Why a squad cannot fire another shot this activation, if it cannot (a vehicle:
    /// another shot of its anti-infantry weapon).
    fn free_shot_problem(&self, unit: &Unit, act: &Activation) -> Option<Refusal> {
        let limit = unit.free_shots(&self.rules);
        let rule = if unit.is_infantry() {
            "tc.infantry.fire-missile"
        } else if unit.is_apc() {
            "tc.apc.fire-anti-infantry"
        } else {
            "tc.build.anti-infantry"
        };
        (act.free_shots >= limit).then(|| {
            Refusal::new(
                rule,
                format!(
                    "{} has fired {limit} shot{} this activation, its limit",
                    unit.name,
                    if limit == 1 { "" } else { "s" }
                ),
            )
        })
    }

    /// Why `unit` (infantry) cannot mount `carrier`, if it cannot.
    fn mount_problem(&self, unit: &Unit, carrier: UnitId) -> Option<Refusal> {
        const RULE: &str = "tc.infantry.mount";
        let Some(c) = self.units.get(carrier.index()) else {
            return Some(Refusal::new(RULE, "there is no such unit"));
        };
        if !c.kind.is_carrier() {
            return Some(Refusal::new(
                RULE,
                format!(
                    "{} is {}: infantry ride on tanks and inside APCs",
                    c.name,
                    c.kind.a_noun()
                ),
            ));
        }
        if c.side != unit.side {
            return Some(Refusal::new(
                RULE,
                format!("{} is an enemy vehicle", c.name),
            ));
        }
        if !c.is_active() {
            return Some(Refusal::new(
                "tc.damage.disabled",
                format!("{} is knocked out", c.name),
            ));
        }
        if unit.at.unsigned_distance_to(c.at) != 1 {
            return Some(Refusal::new(
                RULE,
                format!("{} is not next to {}", c.name, unit.name),
            ));
        }
        let (room, rule) = if c.carries_inside() {
            (self.rules.apc.capacity, "tc.apc.capacity")
        } else {
            (self.rules.infantry.riders_per_tank, "tc.infantry.riders")
        };
        if self.riders(carrier).count() >= usize::from(room) {
            return Some(Refusal::new(
                rule,
                format!(
                    "{} already carries {room} squad{}",
                    c.name,
                    if room == 1 { "" } else { "s" }
                ),
            ));
        }
        self.boarding_problem(unit)
    }

    /// Why `unit` cannot mount or dismount again this turn, if it cannot.
    fn boarding_problem(&self, unit: &Unit) -> Option<Refusal> {
        (unit.boarded_on == self.turn).then(|| {
            Refusal::new(
                "tc.infantry.mount",
                format!(
                    "{} has already mounted or dismounted this turn (once per turn)",
                    unit.name
                ),
            )
        })
    }

    /// Why `unit` cannot disarm `hex`, if it cannot. With hidden mines a squad may sweep
    /// any adjacent space; otherwise only a mine its side can see.
    fn disarm_problem(&self, unit: &Unit, hex: Hex) -> Option<Refusal> {
        const RULE: &str = "tc.infantry.disarm";
        if unit.at.unsigned_distance_to(hex) != 1 || !self.board.contains(hex) {
            return Some(Refusal::new(
                RULE,
                format!(
                    "a squad disarms a mine in an adjacent space; {} is not next to {}",
                    self.label(hex),
                    unit.name
                ),
            ));
        }
        if self.hidden_mines {
            if self.terrain(hex).is_impassable() {
                return Some(self.impassable(hex, RULE));
            }
            return None;
        }
        (!self.mines.iter().any(|m| m.at == hex))
            .then(|| Refusal::new(RULE, format!("there is no mine at {}", self.label(hex))))
    }

    /// Checks that `player` may play `action` now.
    ///
    /// # Errors
    /// Why not: the rule of the rules map that forbids it, and a sentence.
    pub fn check(&self, player: PlayerId, action: &Action) -> Result<(), Refusal> {
        if self.outcome_now().is_some() {
            return Err(Refusal::new("tc.intro.battle-end", "the battle is over"));
        }
        if player != self.current {
            return Err(Refusal::new(
                "tc.intro.activations",
                format!("it is {}'s turn", self.side_name(self.current)),
            ));
        }
        self.check_in_turn(player, action)
    }

    /// [`Self::check`] once the battle is known to go on and `player` to be the side
    /// to act: what [`Self::legal`] asks of each candidate.
    fn check_in_turn(&self, player: PlayerId, action: &Action) -> Result<(), Refusal> {
        match *action {
            Action::Concede => return Ok(()),
            Action::Activate(id) => return self.check_activation(player, id),
            _ => {}
        }
        let (act, u) = self.acting_unit(action)?;
        if let Some(refusal) = self.kind_problem(u, act, action) {
            return Err(refusal);
        }
        let costs = &self.rules.costs;
        match *action {
            Action::Activate(_) | Action::Concede => Ok(()),
            Action::EndActivation => Ok(()),
            Action::Step(facing) => self.check_step(u, act, facing),
            Action::FireMissile(target, round) => self.check_missile(u, act, target, round),
            Action::FireAntiInfantry(target) => self.check_anti_infantry(u, act, target),
            Action::TakeCover => {
                if u.in_cover {
                    return Err(Refusal::new(
                        "tc.infantry.take-cover",
                        format!("{} is already in cover", u.name),
                    ));
                }
                need_ap(u, act, costs.take_cover, "taking cover")
            }
            Action::Capture => self.check_capture(u, act),
            Action::Disarm(hex) => {
                if let Some(refusal) = self.disarm_problem(u, hex) {
                    return Err(refusal);
                }
                need_ap(u, act, costs.disarm, "disarming")
            }
            Action::Mount(carrier) => {
                if let Some(refusal) = self.mount_problem(u, carrier) {
                    return Err(refusal);
                }
                need_ap(u, act, costs.mount, "mounting")
            }
            Action::Dismount(hex) => self.check_dismount(u, act, hex),
            Action::Move => self.check_move(u, act),
            Action::Turn { .. } => {
                if u.role_state(Role::Driver) == RoleState::Out {
                    return Err(driver_dead());
                }
                need_ap(u, act, self.turn_cost(u), "turning")
            }
            Action::RotateTurret(_) => need_ap(u, act, costs.turret, "rotating the turret"),
            Action::Load(round) => self.check_load(u, act, round),
            Action::Fire(target) => self.check_fire(u, act, target),
            Action::DeploySmoke(hex) => self.check_smoke(u, act, hex),
            Action::Extinguish => {
                if !u.on_fire {
                    return Err(Refusal::new(
                        "tc.play.extinguish",
                        format!("{} is not on fire", u.name),
                    ));
                }
                need_ap(u, act, costs.extinguish, "extinguishing")
            }
            Action::LayMine(hex) => {
                if let Some(refusal) = self.mine_problem(u, hex) {
                    return Err(refusal);
                }
                need_ap(u, act, costs.lay_mine, "laying a mine")
            }
            Action::CallAirStrike(hex) => self.check_air_strike(u, act, hex),
            Action::FireFlare(hex) => self.check_flare(u, act, hex),
            Action::TakeOver(role) => self.take_over_problem(u, role).map_or(Ok(()), Err),
            Action::UseAbility(ability) => {
                self.ability_problem(u, act, ability, |cost, what| need_ap(u, act, cost, what))
            }
        }
    }

    /// The activation under way and its unit, if one is active and may still take
    /// `action`.
    fn acting_unit(&self, action: &Action) -> Result<(&Activation, &Unit), Refusal> {
        let act = self
            .active
            .as_ref()
            .ok_or_else(|| Refusal::new("tc.intro.activations", "activate a unit first"))?;
        let u = &self.units[act.unit.index()];
        // Knocked out during its own activation (a mine under it): it does nothing more.
        if !u.acts() && *action != Action::EndActivation {
            return Err(Refusal::new(
                "tc.damage.disabled",
                format!("{} was knocked out: it can only end its activation", u.name),
            ));
        }
        Ok((act, u))
    }

    /// Checks that `player` may activate unit `id` now.
    fn check_activation(&self, player: PlayerId, id: UnitId) -> Result<(), Refusal> {
        const ACTIVATIONS: &str = "tc.intro.activations";
        if self.active.is_some() {
            return Err(Refusal::new(
                ACTIVATIONS,
                "finish the current unit's activation first",
            ));
        }
        let u = self
            .units
            .get(id.index())
            .ok_or_else(|| Refusal::new(ACTIVATIONS, "there is no such unit"))?;
        if u.side != player {
            return Err(Refusal::new(
                ACTIVATIONS,
                format!("{} belongs to {}", u.name, self.side_name(u.side)),
            ));
        }
        if !u.acts() {
            if u.is_active() {
                // Only training targets and AA guns never act.
                let rule = if u.is_aa_gun() {
                    "tc.missions.aa-guns"
                } else {
                    "tc.missions.basic-training"
                };
                return Err(Refusal::new(
                    rule,
                    format!("{} is {}: it never acts", u.name, u.kind.a_noun()),
                ));
            }
            return Err(Refusal::new(
                "tc.damage.disabled",
                format!("{} cannot act: it is knocked out", u.name),
            ));
        }
        if self.activated[id.index()] {
            return Err(Refusal::new(
                ACTIVATIONS,
                format!("{} has already been activated this turn", u.name),
            ));
        }
        Ok(())
    }

    /// Checks that the active squad may step one space towards `facing` now.
    fn check_step(&self, u: &Unit, act: &Activation, facing: Facing) -> Result<(), Refusal> {
        if let Some(refusal) = self.move_cap_problem(u, act) {
            return Err(refusal);
        }
        if let Some(refusal) = self.entry_problem(u, u.at + facing.offset()) {
            return Err(refusal);
        }
        need_ap(u, act, self.move_cost(u), "moving out of this space")
    }

    /// Checks that the active squad may fire a missile of `round` at `target` now.
    fn check_missile(
        &self,
        u: &Unit,
        act: &Activation,
        target: UnitId,
        round: Round,
    ) -> Result<(), Refusal> {
        if let Some(refusal) = self.free_shot_problem(u, act) {
            return Err(refusal);
        }
        need_ap(u, act, self.rules.costs.fire, "firing")?;
        self.weapon_profile(
            act.unit,
            FireTarget::Unit(target),
            Weapon::Missile,
            round,
            false,
        )
        .map(|_| ())
    }

    /// Checks that the active unit may fire its anti-infantry weapon at `target` now.
    fn check_anti_infantry(
        &self,
        u: &Unit,
        act: &Activation,
        target: UnitId,
    ) -> Result<(), Refusal> {
        if u.role_state(Role::Gunner) == RoleState::Out {
            return Err(gunner_dead(u));
        }
        if let Some(refusal) = self.free_shot_problem(u, act) {
            return Err(refusal);
        }
        need_ap(u, act, self.rules.costs.fire, "firing")?;
        self.weapon_profile(
            act.unit,
            FireTarget::Unit(target),
            Weapon::AntiInfantry,
            Round::At,
            act.bring_it_down,
        )
        .map(|_| ())
    }

    /// Checks that the active squad may capture the objective it stands on now.
    fn check_capture(&self, u: &Unit, act: &Activation) -> Result<(), Refusal> {
        let Some(o) = self.objectives.iter().find(|o| o.at == u.at) else {
            return Err(Refusal::new(
                "tc.infantry.capture",
                format!(
                    "there is no objective at {}: a squad captures one by standing on it",
                    self.label(u.at)
                ),
            ));
        };
        if o.holder == Some(u.side) {
            return Err(Refusal::new(
                "tc.infantry.capture",
                format!(
                    "{} already holds the objective at {}",
                    self.side_name(u.side),
                    self.label(u.at)
                ),
            ));
        }
        need_ap(u, act, self.rules.costs.capture, "capturing")
    }

    /// Checks that the active squad may climb down from its carrier to `hex` now.
    fn check_dismount(&self, u: &Unit, act: &Activation, hex: Hex) -> Result<(), Refusal> {
        let Some(carrier) = u.riding else {
            return Err(Refusal::new(
                "tc.infantry.mount",
                format!("{} is not riding on a vehicle", u.name),
            ));
        };
        if let Some(refusal) = self.boarding_problem(u) {
            return Err(refusal);
        }
        let from = self.units[carrier.index()].at;
        if from.unsigned_distance_to(hex) != 1 {
            return Err(Refusal::new(
                "tc.infantry.mount",
                format!(
                    "a squad dismounts into a space next to its carrier; {} is not",
                    self.label(hex)
                ),
            ));
        }
        if let Some(refusal) = self.entry_problem(u, hex) {
            return Err(refusal);
        }
        need_ap(u, act, self.rules.costs.mount, "dismounting")
    }

    /// Checks that the active vehicle may move a space forward now.
    fn check_move(&self, u: &Unit, act: &Activation) -> Result<(), Refusal> {
        if u.role_state(Role::Driver) == RoleState::Out {
            return Err(driver_dead());
        }
        if let Some(refusal) = self.move_cap_problem(u, act) {
            return Err(refusal);
        }
        if let Some(refusal) = self.entry_problem(u, self.ahead(u)) {
            return Err(refusal);
        }
        need_ap(u, act, self.move_cost(u), "moving out of this space")
    }

    /// Checks that the active tank may load `round` now.
    fn check_load(&self, u: &Unit, act: &Activation, round: Round) -> Result<(), Refusal> {
        if !u.rounds().contains(&round) {
            return Err(Refusal::new(
                "tc.build.he-rounds",
                format!(
                    "{} has no {round} rounds (that needs the HE Rounds upgrade)",
                    u.name
                ),
            ));
        }
        if u.loaded == Some(round) {
            return Err(Refusal::new(
                "tc.play.load",
                format!("the gun is already loaded with {round}"),
            ));
        }
        let cost = u.load_cost(&self.rules, act.quick_load).ok_or_else(|| {
            Refusal::new(
                "tc.wounds.loader",
                "the loader is dead: the gun cannot be loaded",
            )
        })?;
        need_ap(u, act, cost, "loading")
    }

    /// Checks that the active tank may fire its loaded round at `target` now.
    fn check_fire(&self, u: &Unit, act: &Activation, target: FireTarget) -> Result<(), Refusal> {
        // The most basic reason first: with a dead gunner, loading does not matter.
        if u.role_state(Role::Gunner) == RoleState::Out {
            return Err(gunner_dead(u));
        }
        let round = u
            .loaded
            .ok_or_else(|| Refusal::new("tc.play.load", "the gun is not loaded"))?;
        need_ap(u, act, self.rules.costs.fire, "firing")?;
        self.shot_profile(act.unit, target, round, act.bring_it_down)
            .map(|_| ())
    }

    /// Checks that the active unit may fire smoke onto `hex` now.
    fn check_smoke(&self, u: &Unit, act: &Activation, hex: Hex) -> Result<(), Refusal> {
        const RULE: &str = "tc.play.deploy-smoke";
        if !u.build.smoke_launcher {
            return Err(Refusal::new(
                RULE,
                format!("{} has no smoke launcher", u.name),
            ));
        }
        if act.smoke_deployed >= self.rules.smoke.per_turn {
            return Err(Refusal::new(
                RULE,
                format!(
                    "the smoke launcher fires {} time{} a turn",
                    self.rules.smoke.per_turn,
                    if self.rules.smoke.per_turn == 1 {
                        ""
                    } else {
                        "s"
                    }
                ),
            ));
        }
        if !self.board.contains(hex) {
            return Err(Refusal::new(RULE, "smoke must land on the board"));
        }
        let d = u.at.unsigned_distance_to(hex);
        if d == 0 || d > u32::from(self.rules.smoke.range) {
            return Err(Refusal::new(
                RULE,
                format!(
                    "smoke lands 1 to {} spaces away; {} is {d}",
                    self.rules.smoke.range,
                    self.label(hex)
                ),
            ));
        }
        if self.smoke(hex) {
            return Err(Refusal::new(
                RULE,
                format!("{} is already under smoke", self.label(hex)),
            ));
        }
        need_ap(u, act, self.rules.costs.smoke, "deploying smoke")
    }

    /// Checks that the active unit may call an air strike on `hex` now.
    fn check_air_strike(&self, u: &Unit, act: &Activation, hex: Hex) -> Result<(), Refusal> {
        const RULE: &str = "tc.play.air-strike";
        let pool = self.free_strikes(u.side);
        if !u.air_strike_ready {
            if pool > 0 && !u.kind.has_crew() {
                return Err(Refusal::new(
                    RULE,
                    format!(
                        "{} is {}: only tanks call in air strikes",
                        u.name,
                        u.kind.a_noun()
                    ),
                ));
            }
            if pool == 0 {
                return Err(if u.build.air_support {
                    Refusal::new(
                        RULE,
                        format!("{} has already called its air strike this battle", u.name),
                    )
                } else if self.strikes_given(u.side) > 0 {
                    Refusal::new(
                        RULE,
                        format!("{} has no free air strikes left", self.side_name(u.side)),
                    )
                } else {
                    Refusal::new(
                        "tc.build.air-support",
                        format!("{} has no Air Support (an upgrade)", u.name),
                    )
                });
            }
            if self.called_strike_this_turn(u.id) {
                return Err(Refusal::new(
                    RULE,
                    format!("{} has already called an air strike this turn", u.name),
                ));
            }
        }
        if !self.board.contains(hex) {
            return Err(Refusal::new("tc.air.mark", "mark a space on the board"));
        }
        need_ap(u, act, self.rules.costs.air_strike, "calling an air strike")
    }

    /// Checks that the active tank may fire a flare over `hex` now.
    fn check_flare(&self, u: &Unit, act: &Activation, hex: Hex) -> Result<(), Refusal> {
        const RULE: &str = "tc.ideas.flares";
        if !self.night {
            return Err(Refusal::new(RULE, "flares are fired only in night battles"));
        }
        if !u.kind.has_crew() {
            return Err(Refusal::new(
                RULE,
                format!("only tanks fire flares, and {} is not one", u.name),
            ));
        }
        if u.flares_left == 0 {
            return Err(Refusal::new(
                RULE,
                format!("{} has fired all its flares", u.name),
            ));
        }
        if !self.board.contains(hex) {
            return Err(Refusal::new(RULE, "a flare must burn over the board"));
        }
        let d = u.at.unsigned_distance_to(hex);
        if d > u32::from(self.rules.night.flare_range) {
            return Err(Refusal::new(
                RULE,
                format!(
                    "a flare reaches {} spaces; {} is {d}",
                    self.rules.night.flare_range,
                    self.label(hex)
                ),
            ));
        }
        if self.flares.contains(&hex) {
            return Err(Refusal::new(
                RULE,
                format!("a flare already burns over {}", self.label(hex)),
            ));
        }
        need_ap(u, act, self.rules.costs.flare, "firing a flare")
    }

    /// Checks that `u`, active as `act`, may use `ability` now; `need_ap` checks that its
    /// action points last.
    fn ability_problem(
        &self,
        u: &Unit,
        act: &Activation,
        ability: Ability,
        need_ap: impl Fn(u8, &str) -> Result<(), Refusal>,
    ) -> Result<(), Refusal> {
        const ROLES: &str = "tc.crew.roles";
        let rules = &self.rules;
        let role = ability.role();
        if u.member(role).is_none() {
            return Err(Refusal::new(ROLES, format!("{} has no {role}", u.name)));
        }
        if act.ability_used {
            return Err(Refusal::new(
                ROLES,
                "only one crew ability may be used each turn",
            ));
        }
        if u.role_state(role) == RoleState::Out {
            return Err(Refusal::new(ROLES, format!("the {role} is dead")));
        }
        if let Some(m) = u.member(role).filter(|m| m.ability_used) {
            return Err(if m.veteran {
                Refusal::new(
                    "tc.ideas.campaign",
                    format!(
                        "{} has been used {} times this battle, as often as a veteran may",
                        ability.title(),
                        rules.campaign.veteran_ability_uses
                    ),
                )
            } else {
                Refusal::new(
                    ROLES,
                    format!("{} has already been used this battle", ability.title()),
                )
            });
        }
        match ability {
            Ability::MoveMoveMove { spaces } => {
                const DASH: &str = "tc.crew.move-move-move";
                if spaces == 0 || spaces > rules.crew.dash_spaces {
                    return Err(Refusal::new(
                        DASH,
                        format!(
                            "Move move move! carries the tank 1 to {} spaces",
                            rules.crew.dash_spaces
                        ),
                    ));
                }
                if rules.crew.dash_within_cap {
                    let left = u.move_cap(rules).saturating_sub(act.moves);
                    if spaces > left {
                        return Err(Refusal::new(
                            DASH,
                            format!(
                                "Move move move! counts towards the move limit: {} may \
                                 move {left} more space{} this turn",
                                u.name,
                                if left == 1 { "" } else { "s" }
                            ),
                        ));
                    }
                }
                let mut hex = u.at;
                for _ in 0..spaces {
                    hex += u.facing.offset();
                    if let Some(refusal) = self.entry_problem(u, hex) {
                        return Err(refusal);
                    }
                }
                need_ap(self.dash_cost(u, spaces), "Move move move!")
            }
            Ability::BringItDown | Ability::BoomingVoice | Ability::QuickLoad => Ok(()),
        }
    }

    /// Every action `player` may take now, except conceding (always allowed, never listed).
    #[must_use]
    pub fn legal(&self, player: PlayerId) -> Vec<Action> {
        if self.outcome_now().is_some() || player != self.current {
            return Vec::new();
        }
        let mut candidates = Vec::new();
        match &self.active {
            None => {
                for u in &self.units {
                    candidates.push(Action::Activate(u.id));
                }
            }
            Some(act) => {
                let u = &self.units[act.unit.index()];
                if u.is_infantry() {
                    self.infantry_candidates(u, &mut candidates);
                    candidates.retain(|a| self.check_in_turn(player, a).is_ok());
                    return candidates;
                }
                if u.is_apc() {
                    self.apc_candidates(u, &mut candidates);
                    candidates.retain(|a| self.check_in_turn(player, a).is_ok());
                    return candidates;
                }
                self.tank_candidates(u, &mut candidates);
            }
        }
        candidates.retain(|a| self.check_in_turn(player, a).is_ok());
        candidates
    }

    /// Every action a tank might take, before the rules check them.
    fn tank_candidates(&self, u: &Unit, out: &mut Vec<Action>) {
        out.push(Action::Move);
        for rotation in Rotation::ALL {
            out.push(Action::Turn {
                rotation,
                turret_follows: true,
            });
            out.push(Action::Turn {
                rotation,
                turret_follows: false,
            });
        }
        for rotation in Rotation::ALL {
            out.push(Action::RotateTurret(rotation));
        }
        for round in [Round::At, Round::He] {
            out.push(Action::Load(round));
        }
        for t in &self.units {
            if t.side != u.side && t.is_active() {
                out.push(Action::Fire(FireTarget::Unit(t.id)));
                if t.is_infantry() && u.build.anti_infantry {
                    out.push(Action::FireAntiInfantry(t.id));
                }
            }
        }
        let reach = u32::from(u.gun_range(&self.rules));
        for h in u.at.range(reach) {
            if self.board.contains(h) && self.terrain(h) == Terrain::Building {
                out.push(Action::Fire(FireTarget::Building(h)));
            }
        }
        if u.build.smoke_launcher {
            for h in u.at.range(u32::from(self.rules.smoke.range)) {
                out.push(Action::DeploySmoke(h));
            }
        }
        out.push(Action::Extinguish);
        if u.mines_left > 0 {
            for h in u.at.range(u32::from(self.rules.mines.lay_range)) {
                out.push(Action::LayMine(h));
            }
        }
        if u.air_strike_ready || self.free_strikes(u.side) > 0 {
            out.extend(self.board.hexes().map(Action::CallAirStrike));
        }
        if u.flares_left > 0 {
            for h in u.at.range(u32::from(self.rules.night.flare_range)) {
                out.push(Action::FireFlare(h));
            }
        }
        if u.lieutenant_covers.is_none() {
            for role in Role::CORE {
                out.push(Action::TakeOver(role));
            }
        }
        out.push(Action::UseAbility(Ability::BoomingVoice));
        for spaces in 1..=self.rules.crew.dash_spaces {
            out.push(Action::UseAbility(Ability::MoveMoveMove { spaces }));
        }
        out.push(Action::UseAbility(Ability::BringItDown));
        out.push(Action::UseAbility(Ability::QuickLoad));
        out.push(Action::EndActivation);
    }

    /// Every action an infantry squad might take, before the rules check them.
    fn infantry_candidates(&self, u: &Unit, out: &mut Vec<Action>) {
        for facing in Facing::ALL {
            out.push(Action::Step(facing));
        }
        for t in &self.units {
            if t.side != u.side && t.is_active() {
                if t.is_infantry() {
                    out.push(Action::FireAntiInfantry(t.id));
                } else {
                    out.push(Action::FireMissile(t.id, Round::At));
                    out.push(Action::FireMissile(t.id, Round::He));
                }
            }
            if t.side == u.side && t.kind.is_carrier() {
                out.push(Action::Mount(t.id));
            }
        }
        out.push(Action::TakeCover);
        out.push(Action::Capture);
        let around = u.riding.map_or(u.at, |c| self.units[c.index()].at);
        for facing in Facing::ALL {
            out.push(Action::Disarm(u.at + facing.offset()));
            out.push(Action::Dismount(around + facing.offset()));
        }
        out.push(Action::EndActivation);
    }

    /// Every action an APC might take, before the rules check them.
    fn apc_candidates(&self, u: &Unit, out: &mut Vec<Action>) {
        out.push(Action::Move);
        for rotation in Rotation::ALL {
            out.push(Action::Turn {
                rotation,
                turret_follows: true,
            });
        }
        for t in &self.units {
            if t.side != u.side && t.is_active() && t.is_infantry() {
                out.push(Action::FireAntiInfantry(t.id));
            }
        }
        if u.build.smoke_launcher {
            for h in u.at.range(u32::from(self.rules.smoke.range)) {
                out.push(Action::DeploySmoke(h));
            }
        }
        out.push(Action::Extinguish);
        out.push(Action::EndActivation);
    }

    /// Units of `side` that may still be activated this turn.
    pub fn pending_units(&self, side: PlayerId) -> impl Iterator<Item = UnitId> + '_ {
        self.units
            .iter()
            .filter(move |u| u.side == side && u.acts() && !self.activated[u.id.index()])
            .map(|u| u.id)
    }
}

/// The rule of an action only infantry take.
fn infantry_rule(action: &Action) -> &'static str {
    match action {
        Action::Step(_) => "tc.infantry.move",
        Action::FireMissile(..) => "tc.infantry.fire-missile",
        Action::TakeCover => "tc.infantry.take-cover",
        Action::Capture => "tc.infantry.capture",
        Action::Disarm(_) => "tc.infantry.disarm",
        _ => "tc.infantry.mount",
    }
}

/// `unit` fires no weapon: its gunner is dead.
pub(super) fn gunner_dead(unit: &Unit) -> Refusal {
    Refusal::new(
        "tc.wounds.gunner",
        format!("{}'s gunner is dead: the tank cannot fire", unit.name),
    )
}

/// The active tank neither moves nor turns: its driver is dead.
fn driver_dead() -> Refusal {
    Refusal::new(
        "tc.wounds.driver",
        "the driver is dead: the tank cannot move or turn",
    )
}

/// Checks that `u`, active as `act`, has the `cost` in action points that `what` costs.
#[inline]
fn need_ap(u: &Unit, act: &Activation, cost: u8, what: &str) -> Result<(), Refusal> {
    let ap = act.action_points;
    if cost > ap {
        Err(Refusal::new(
            "tc.play.action-points",
            format!(
                "{what} costs {cost} action point{}, {} has {ap} left",
                if cost == 1 { "" } else { "s" },
                u.name
            ),
        ))
    } else {
        Ok(())
    }
}

/// Why APC `unit` cannot take `action`, having no turret, main gun or named crew, if it
/// cannot.
fn apc_problem(unit: &Unit, action: &Action) -> Option<Refusal> {
    let name = &unit.name;
    let why = match action {
        a if a.is_infantry_only() => format!("{name} is an APC: only infantry can do that"),
        Action::RotateTurret(_) => format!("{name} is an APC: it has no turret"),
        Action::Load(_) | Action::Fire(_) => {
            format!("{name} is an APC: it has no main gun, only its anti-infantry weapon")
        }
        Action::UseAbility(_) | Action::TakeOver(_) => {
            format!("{name} is an APC: it has no named crew, so no crew abilities")
        }
        _ => return None,
    };
    Some(Refusal::new("tc.apc.profile", why))
}
