//! Which actions are legal, and a sentence for each one that is not.

use hexx::Hex;

use super::action::{Ability, Action, FireTarget, Weapon};
use super::setup::{LieutenantRule, Round, Terrain};
use super::state::{Activation, Role, RoleState, TankCommander, Unit, UnitId};
use crate::framework::PlayerId;
use crate::grid::{Facing, Rotation};

impl TankCommander {
    /// The hex `unit` would move into going forward.
    #[must_use]
    pub fn ahead(&self, unit: &Unit) -> Hex {
        unit.at + unit.facing.offset()
    }

    /// Why `unit` cannot enter `hex`, if it cannot.
    fn entry_problem(&self, unit: &Unit, hex: Hex) -> Option<String> {
        if !self.board.contains(hex) {
            return Some("that would drive off the board".into());
        }
        if !unit.may_enter(self.terrain(hex)) {
            return Some(format!(
                "{} is {}",
                self.label(hex),
                self.terrain(hex).a_noun()
            ));
        }
        self.unit_at(hex)
            .map(|u| format!("{} is occupied by {}", self.label(hex), u.name))
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
    fn mine_problem(&self, unit: &Unit, hex: Hex) -> Option<String> {
        if unit.build.mines == 0 {
            return Some(format!(
                "{} carries no mines (the Anti-Tank Mines upgrade)",
                unit.name
            ));
        }
        if unit.mines_left == 0 {
            return Some(format!("{} has laid all its mines", unit.name));
        }
        if !self.board.contains(hex) {
            return Some("a mine must be laid on the board".into());
        }
        let range = self.rules.mines.lay_range;
        let d = unit.at.unsigned_distance_to(hex);
        if d == 0 || d > u32::from(range) {
            return Some(format!(
                "a mine is laid 1{} space{} from the tank; {} is {d}",
                if range > 1 {
                    format!(" to {range}")
                } else {
                    String::new()
                },
                if range == 1 { "" } else { "s" },
                self.label(hex)
            ));
        }
        if self.terrain(hex).is_impassable() {
            return Some(format!(
                "{} is {}",
                self.label(hex),
                self.terrain(hex).a_noun()
            ));
        }
        if let Some(other) = self.unit_at(hex) {
            return Some(format!("{} stands on {}", other.name, self.label(hex)));
        }
        // Only mines the side knows of: a refusal must not give away a hidden one.
        if self.mines_seen_by(unit.side).any(|m| m.at == hex) {
            return Some(format!("{} is already mined", self.label(hex)));
        }
        None
    }

    /// Why `unit`'s Lieutenant Commander cannot take over `role` (ignoring whose turn
    /// it is), if he cannot.
    #[must_use]
    pub fn take_over_problem(&self, unit: &Unit, role: Role) -> Option<String> {
        if self.rules.crew.lieutenant != LieutenantRule::Choice {
            return Some(
                "under these rules the Lieutenant Commander takes over the first killed role \
                 on his own"
                    .into(),
            );
        }
        let Some(lieutenant) = unit.member(Role::Lieutenant) else {
            return Some(format!("{} has no Lieutenant Commander", unit.name));
        };
        if !lieutenant.is_alive() {
            return Some("the Lieutenant Commander is dead".into());
        }
        if let Some(covered) = unit.lieutenant_covers {
            return Some(format!(
                "the Lieutenant Commander already does the {covered}'s job"
            ));
        }
        match unit.member(role) {
            _ if role == Role::Lieutenant => {
                Some("the Lieutenant Commander cannot take over his own job".into())
            }
            Some(m) if m.is_alive() => Some(format!(
                "the {role} is alive: he takes over only a killed crew member's job"
            )),
            _ => None,
        }
    }

    /// Why `unit` cannot take `action` because of what it is (a tank, a squad, a squad
    /// riding on a tank or taking cover), if it cannot.
    fn kind_problem(&self, unit: &Unit, act: &Activation, action: &Action) -> Option<String> {
        if unit.is_apc() {
            let name = &unit.name;
            return match action {
                a if a.is_infantry_only() => {
                    Some(format!("{name} is an APC: only infantry can do that"))
                }
                Action::RotateTurret(_) => Some(format!("{name} is an APC: it has no turret")),
                Action::Load(_) | Action::Fire(_) => Some(format!(
                    "{name} is an APC: it has no main gun, only its anti-infantry weapon"
                )),
                Action::UseAbility(_) | Action::TakeOver(_) => Some(format!(
                    "{name} is an APC: it has no named crew, so no crew abilities"
                )),
                _ => None,
            };
        }
        if !unit.is_infantry() {
            return action.is_infantry_only().then(|| {
                format!(
                    "{} is {}: only infantry can do that",
                    unit.name,
                    unit.kind.a_noun()
                )
            });
        }
        let name = &unit.name;
        match action {
            Action::EndActivation | Action::Activate(_) | Action::Concede => return None,
            Action::Dismount(_) => return None,
            _ => {}
        }
        if let Some(carrier) = unit.riding {
            return Some(format!(
                "{name} rides on {}: it must dismount first",
                self.units[carrier.index()].name
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
            return Some(format!(
                "{name} has taken cover: it cannot move or fire until the next turn"
            ));
        }
        if matches!(action, Action::TakeCover) && act.free_shots > 0 {
            return Some(format!(
                "{name} has fired this turn: a squad in cover does not fire"
            ));
        }
        match action {
            Action::Move => Some(format!(
                "{name} is infantry: it steps one space in any direction"
            )),
            Action::Turn { .. } | Action::RotateTurret(_) => Some(format!(
                "{name} is infantry: it has no hull or turret to turn"
            )),
            Action::Load(_) => Some(format!("{name} is infantry: its missiles need no loading")),
            Action::Fire(_) => Some(format!(
                "{name} is infantry: it fires its missile launcher or anti-infantry weapon"
            )),
            Action::UseAbility(_) | Action::TakeOver(_) => Some(format!(
                "{name} is infantry: crew abilities belong to tanks"
            )),
            _ => None,
        }
    }

    /// Why `unit` may not move another space this turn, if it may not.
    fn move_cap_problem(&self, unit: &Unit, act: &Activation) -> Option<String> {
        (act.moves >= self.moves_allowed(unit)).then(|| {
            format!(
                "{} has already moved {} space{} this turn, its limit{}",
                unit.name,
                act.moves,
                if act.moves == 1 { "" } else { "s" },
                if self.storm && unit.is_infantry() {
                    " in the storm"
                } else {
                    ""
                }
            )
        })
    }

    /// Why a squad cannot fire another shot this activation, if it cannot.
    fn free_shot_problem(&self, unit: &Unit, act: &Activation) -> Option<String> {
        let limit = unit.free_shots(&self.rules);
        (act.free_shots >= limit).then(|| {
            format!(
                "{} has fired {limit} shot{} this activation, its limit",
                unit.name,
                if limit == 1 { "" } else { "s" }
            )
        })
    }

    /// Why `unit` (infantry) cannot mount `carrier`, if it cannot.
    fn mount_problem(&self, unit: &Unit, carrier: UnitId) -> Option<String> {
        let Some(c) = self.units.get(carrier.index()) else {
            return Some("there is no such unit".into());
        };
        if !c.kind.is_carrier() {
            return Some(format!(
                "{} is {}: infantry ride on tanks and inside APCs",
                c.name,
                c.kind.a_noun()
            ));
        }
        if c.side != unit.side {
            return Some(format!("{} is an enemy vehicle", c.name));
        }
        if !c.is_active() {
            return Some(format!("{} is knocked out", c.name));
        }
        if unit.at.unsigned_distance_to(c.at) != 1 {
            return Some(format!("{} is not next to {}", c.name, unit.name));
        }
        let room = if c.carries_inside() {
            self.rules.apc.capacity
        } else {
            self.rules.infantry.riders_per_tank
        };
        if self.riders(carrier).count() >= usize::from(room) {
            return Some(format!(
                "{} already carries {room} squad{}",
                c.name,
                if room == 1 { "" } else { "s" }
            ));
        }
        self.boarding_problem(unit)
    }

    /// Why `unit` cannot mount or dismount again this turn, if it cannot.
    fn boarding_problem(&self, unit: &Unit) -> Option<String> {
        (unit.boarded_on == self.turn).then(|| {
            format!(
                "{} has already mounted or dismounted this turn (once per turn)",
                unit.name
            )
        })
    }

    /// Why `unit` cannot disarm `hex`, if it cannot. With hidden mines a squad may sweep
    /// any adjacent space; otherwise only a mine its side can see.
    fn disarm_problem(&self, unit: &Unit, hex: Hex) -> Option<String> {
        if unit.at.unsigned_distance_to(hex) != 1 || !self.board.contains(hex) {
            return Some(format!(
                "a squad disarms a mine in an adjacent space; {} is not next to {}",
                self.label(hex),
                unit.name
            ));
        }
        if self.hidden_mines {
            if self.terrain(hex).is_impassable() {
                return Some(format!(
                    "{} is {}",
                    self.label(hex),
                    self.terrain(hex).a_noun()
                ));
            }
            return None;
        }
        (!self.mines.iter().any(|m| m.at == hex))
            .then(|| format!("there is no mine at {}", self.label(hex)))
    }

    /// Checks that `player` may play `action` now.
    ///
    /// # Errors
    /// A sentence giving the rule that forbids it.
    pub fn check(&self, player: PlayerId, action: &Action) -> Result<(), String> {
        if self.outcome_now().is_some() {
            return Err("the battle is over".into());
        }
        if player != self.current {
            return Err(format!("it is {}'s turn", self.side_name(self.current)));
        }
        self.check_in_turn(player, action)
    }

    /// [`Self::check`] once the battle is known to go on and `player` to be the side
    /// to act: what [`Self::legal`] asks of each candidate.
    fn check_in_turn(&self, player: PlayerId, action: &Action) -> Result<(), String> {
        match *action {
            Action::Concede => return Ok(()),
            Action::Activate(id) => {
                if self.active.is_some() {
                    return Err("finish the current unit's activation first".into());
                }
                let u = self.units.get(id.index()).ok_or("there is no such unit")?;
                if u.side != player {
                    return Err(format!("{} belongs to {}", u.name, self.side_name(u.side)));
                }
                if !u.acts() {
                    if u.is_active() {
                        return Err(format!("{} is {}: it never acts", u.name, u.kind.a_noun()));
                    }
                    return Err(format!("{} cannot act: it is knocked out", u.name));
                }
                if self.activated[id.index()] {
                    return Err(format!("{} has already been activated this turn", u.name));
                }
                return Ok(());
            }
            _ => {}
        }
        let act = self.active.as_ref().ok_or("activate a unit first")?;
        let u = &self.units[act.unit.index()];
        // Knocked out during its own activation (a mine under it): it does nothing more.
        if !u.acts() && *action != Action::EndActivation {
            return Err(format!(
                "{} was knocked out: it can only end its activation",
                u.name
            ));
        }
        let ap = act.action_points;
        let need_ap = |cost: u8, what: &str| -> Result<(), String> {
            if cost > ap {
                Err(format!(
                    "{what} costs {cost} action point{}, {} has {ap} left",
                    if cost == 1 { "" } else { "s" },
                    u.name
                ))
            } else {
                Ok(())
            }
        };
        let rules = &self.rules;
        if let Some(why) = self.kind_problem(u, act, action) {
            return Err(why);
        }
        match *action {
            Action::Activate(_) | Action::Concede => Ok(()),
            Action::EndActivation => Ok(()),
            Action::Step(facing) => {
                if let Some(why) = self.move_cap_problem(u, act) {
                    return Err(why);
                }
                if let Some(why) = self.entry_problem(u, u.at + facing.offset()) {
                    return Err(why);
                }
                need_ap(self.move_cost(u), "moving out of this space")
            }
            Action::FireMissile(target, round) => {
                if let Some(why) = self.free_shot_problem(u, act) {
                    return Err(why);
                }
                need_ap(rules.costs.fire, "firing")?;
                self.weapon_profile(
                    act.unit,
                    FireTarget::Unit(target),
                    Weapon::Missile,
                    round,
                    false,
                )
                .map(|_| ())
            }
            Action::FireAntiInfantry(target) => {
                if u.role_state(Role::Gunner) == RoleState::Out {
                    return Err(format!("{}'s gunner is dead: the tank cannot fire", u.name));
                }
                if let Some(why) = self.free_shot_problem(u, act) {
                    return Err(why);
                }
                need_ap(rules.costs.fire, "firing")?;
                self.weapon_profile(
                    act.unit,
                    FireTarget::Unit(target),
                    Weapon::AntiInfantry,
                    Round::At,
                    act.bring_it_down,
                )
                .map(|_| ())
            }
            Action::TakeCover => {
                if u.in_cover {
                    return Err(format!("{} is already in cover", u.name));
                }
                need_ap(rules.costs.take_cover, "taking cover")
            }
            Action::Capture => {
                let Some(o) = self.objectives.iter().find(|o| o.at == u.at) else {
                    return Err(format!(
                        "there is no objective at {}: a squad captures one by standing on it",
                        self.label(u.at)
                    ));
                };
                if o.holder == Some(u.side) {
                    return Err(format!(
                        "{} already holds the objective at {}",
                        self.side_name(u.side),
                        self.label(u.at)
                    ));
                }
                need_ap(rules.costs.capture, "capturing")
            }
            Action::Disarm(hex) => {
                if let Some(why) = self.disarm_problem(u, hex) {
                    return Err(why);
                }
                need_ap(rules.costs.disarm, "disarming")
            }
            Action::Mount(carrier) => {
                if let Some(why) = self.mount_problem(u, carrier) {
                    return Err(why);
                }
                need_ap(rules.costs.mount, "mounting")
            }
            Action::Dismount(hex) => {
                let Some(carrier) = u.riding else {
                    return Err(format!("{} is not riding on a vehicle", u.name));
                };
                if let Some(why) = self.boarding_problem(u) {
                    return Err(why);
                }
                let from = self.units[carrier.index()].at;
                if from.unsigned_distance_to(hex) != 1 {
                    return Err(format!(
                        "a squad dismounts into a space next to its carrier; {} is not",
                        self.label(hex)
                    ));
                }
                if let Some(why) = self.entry_problem(u, hex) {
                    return Err(why);
                }
                need_ap(rules.costs.mount, "dismounting")
            }
            Action::Move => {
                if u.role_state(Role::Driver) == RoleState::Out {
                    return Err("the driver is dead: the tank cannot move or turn".into());
                }
                if let Some(why) = self.move_cap_problem(u, act) {
                    return Err(why);
                }
                if let Some(why) = self.entry_problem(u, self.ahead(u)) {
                    return Err(why);
                }
                need_ap(self.move_cost(u), "moving out of this space")
            }
            Action::Turn { .. } => {
                if u.role_state(Role::Driver) == RoleState::Out {
                    return Err("the driver is dead: the tank cannot move or turn".into());
                }
                need_ap(self.turn_cost(u), "turning")
            }
            Action::RotateTurret(_) => need_ap(rules.costs.turret, "rotating the turret"),
            Action::Load(round) => {
                if !u.rounds().contains(&round) {
                    return Err(format!(
                        "{} has no {round} rounds (that needs the HE Rounds upgrade)",
                        u.name
                    ));
                }
                if u.loaded == Some(round) {
                    return Err(format!("the gun is already loaded with {round}"));
                }
                let cost = u
                    .load_cost(rules, act.quick_load)
                    .ok_or("the loader is dead: the gun cannot be loaded")?;
                need_ap(cost, "loading")
            }
            Action::Fire(target) => {
                // The most basic reason first: with a dead gunner, loading does not matter.
                if u.role_state(Role::Gunner) == RoleState::Out {
                    return Err(format!("{}'s gunner is dead: the tank cannot fire", u.name));
                }
                let round = u.loaded.ok_or("the gun is not loaded")?;
                need_ap(rules.costs.fire, "firing")?;
                self.shot_profile(act.unit, target, round, act.bring_it_down)
                    .map(|_| ())
            }
            Action::DeploySmoke(hex) => {
                if !u.build.smoke_launcher {
                    return Err(format!("{} has no smoke launcher", u.name));
                }
                if act.smoke_deployed >= rules.smoke.per_turn {
                    return Err(format!(
                        "the smoke launcher fires {} time{} a turn",
                        rules.smoke.per_turn,
                        if rules.smoke.per_turn == 1 { "" } else { "s" }
                    ));
                }
                if !self.board.contains(hex) {
                    return Err("smoke must land on the board".into());
                }
                let d = u.at.unsigned_distance_to(hex);
                if d == 0 || d > u32::from(rules.smoke.range) {
                    return Err(format!(
                        "smoke lands 1 to {} spaces away; {} is {d}",
                        rules.smoke.range,
                        self.label(hex)
                    ));
                }
                if self.smoke(hex) {
                    return Err(format!("{} is already under smoke", self.label(hex)));
                }
                need_ap(rules.costs.smoke, "deploying smoke")
            }
            Action::Extinguish => {
                if !u.on_fire {
                    return Err(format!("{} is not on fire", u.name));
                }
                need_ap(rules.costs.extinguish, "extinguishing")
            }
            Action::LayMine(hex) => {
                if let Some(why) = self.mine_problem(u, hex) {
                    return Err(why);
                }
                need_ap(rules.costs.lay_mine, "laying a mine")
            }
            Action::CallAirStrike(hex) => {
                let pool = self.free_strikes(u.side);
                if !u.air_strike_ready {
                    if pool > 0 && !u.kind.has_crew() {
                        return Err(format!(
                            "{} is {}: only tanks call in air strikes",
                            u.name,
                            u.kind.a_noun()
                        ));
                    }
                    if pool == 0 {
                        return Err(if u.build.air_support {
                            format!("{} has already called its air strike this battle", u.name)
                        } else if self.strikes_given(u.side) > 0 {
                            format!("{} has no free air strikes left", self.side_name(u.side))
                        } else {
                            format!("{} has no Air Support (an upgrade)", u.name)
                        });
                    }
                    if self.called_strike_this_turn(u.id) {
                        return Err(format!(
                            "{} has already called an air strike this turn",
                            u.name
                        ));
                    }
                }
                if !self.board.contains(hex) {
                    return Err("mark a space on the board".into());
                }
                need_ap(rules.costs.air_strike, "calling an air strike")
            }
            Action::FireFlare(hex) => {
                if !self.night {
                    return Err("flares are fired only in night battles".into());
                }
                if !u.kind.has_crew() {
                    return Err(format!("only tanks fire flares, and {} is not one", u.name));
                }
                if u.flares_left == 0 {
                    return Err(format!("{} has fired all its flares", u.name));
                }
                if !self.board.contains(hex) {
                    return Err("a flare must burn over the board".into());
                }
                let d = u.at.unsigned_distance_to(hex);
                if d > u32::from(rules.night.flare_range) {
                    return Err(format!(
                        "a flare reaches {} spaces; {} is {d}",
                        rules.night.flare_range,
                        self.label(hex)
                    ));
                }
                if self.flares.contains(&hex) {
                    return Err(format!("a flare already burns over {}", self.label(hex)));
                }
                need_ap(rules.costs.flare, "firing a flare")
            }
            Action::TakeOver(role) => self.take_over_problem(u, role).map_or(Ok(()), Err),
            Action::UseAbility(ability) => {
                let role = ability.role();
                if u.member(role).is_none() {
                    return Err(format!("{} has no {role}", u.name));
                }
                if act.ability_used {
                    return Err("only one crew ability may be used each turn".into());
                }
                if u.role_state(role) == RoleState::Out {
                    return Err(format!("the {role} is dead"));
                }
                if let Some(m) = u.member(role).filter(|m| m.ability_used) {
                    return Err(if m.veteran {
                        format!(
                            "{} has been used {} times this battle, as often as a veteran may",
                            ability.title(),
                            rules.campaign.veteran_ability_uses
                        )
                    } else {
                        format!("{} has already been used this battle", ability.title())
                    });
                }
                match ability {
                    Ability::MoveMoveMove { spaces } => {
                        if spaces == 0 || spaces > rules.crew.dash_spaces {
                            return Err(format!(
                                "Move move move! carries the tank 1 to {} spaces",
                                rules.crew.dash_spaces
                            ));
                        }
                        if rules.crew.dash_within_cap {
                            let left = u.move_cap(rules).saturating_sub(act.moves);
                            if spaces > left {
                                return Err(format!(
                                    "Move move move! counts towards the move limit: {} may \
                                     move {left} more space{} this turn",
                                    u.name,
                                    if left == 1 { "" } else { "s" }
                                ));
                            }
                        }
                        let mut hex = u.at;
                        for _ in 0..spaces {
                            hex += u.facing.offset();
                            if let Some(why) = self.entry_problem(u, hex) {
                                return Err(why);
                            }
                        }
                        need_ap(self.dash_cost(u, spaces), "Move move move!")
                    }
                    Ability::BringItDown | Ability::BoomingVoice | Ability::QuickLoad => Ok(()),
                }
            }
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
                candidates.push(Action::Move);
                for rotation in Rotation::ALL {
                    candidates.push(Action::Turn {
                        rotation,
                        turret_follows: true,
                    });
                    candidates.push(Action::Turn {
                        rotation,
                        turret_follows: false,
                    });
                }
                for rotation in Rotation::ALL {
                    candidates.push(Action::RotateTurret(rotation));
                }
                for round in [Round::At, Round::He] {
                    candidates.push(Action::Load(round));
                }
                for t in &self.units {
                    if t.side != u.side && t.is_active() {
                        candidates.push(Action::Fire(FireTarget::Unit(t.id)));
                        if t.is_infantry() && u.build.anti_infantry {
                            candidates.push(Action::FireAntiInfantry(t.id));
                        }
                    }
                }
                let reach = u32::from(u.gun_range(&self.rules));
                for h in u.at.range(reach) {
                    if self.board.contains(h) && self.terrain(h) == Terrain::Building {
                        candidates.push(Action::Fire(FireTarget::Building(h)));
                    }
                }
                if u.build.smoke_launcher {
                    for h in u.at.range(u32::from(self.rules.smoke.range)) {
                        candidates.push(Action::DeploySmoke(h));
                    }
                }
                candidates.push(Action::Extinguish);
                if u.mines_left > 0 {
                    for h in u.at.range(u32::from(self.rules.mines.lay_range)) {
                        candidates.push(Action::LayMine(h));
                    }
                }
                if u.air_strike_ready || self.free_strikes(u.side) > 0 {
                    candidates.extend(self.board.hexes().map(Action::CallAirStrike));
                }
                if u.flares_left > 0 {
                    for h in u.at.range(u32::from(self.rules.night.flare_range)) {
                        candidates.push(Action::FireFlare(h));
                    }
                }
                if u.lieutenant_covers.is_none() {
                    for role in Role::CORE {
                        candidates.push(Action::TakeOver(role));
                    }
                }
                candidates.push(Action::UseAbility(Ability::BoomingVoice));
                for spaces in 1..=self.rules.crew.dash_spaces {
                    candidates.push(Action::UseAbility(Ability::MoveMoveMove { spaces }));
                }
                candidates.push(Action::UseAbility(Ability::BringItDown));
                candidates.push(Action::UseAbility(Ability::QuickLoad));
                candidates.push(Action::EndActivation);
            }
        }
        candidates.retain(|a| self.check_in_turn(player, a).is_ok());
        candidates
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
