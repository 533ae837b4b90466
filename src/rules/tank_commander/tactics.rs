//! The tactical bot: the greedy bot's steps, weighed so that the whole rulebook comes
//! into play. It fears the enemy's guns as well as seeking its own shots, so it takes
//! cover in forest, turns its front armor to the threat while its turret stays on target,
//! and pulls out of a gun's sight or reach; it lays smoke between itself and the guns
//! that would fire next, chooses each crew ability for the shots it buys, values the
//! fires HE rounds start, covers ground with "Move move move!", and lets squads ride on
//! tanks as well as in APCs. The veteran ([`Style::VETERAN`]) is the tactical bot that,
//! with no shot to be had this activation, waits out of the enemy's reach instead of
//! walking into its first volley ([`TankCommander::standoff_choice`]).
//!
//! One decision procedure serves every bot ([`super::bot::decide`]); a [`Style`] holds
//! the weights and switches that tell them apart, so that the greedy bot plays exactly
//! as it always has.

use super::action::{Ability, Action, FireTarget};
#[cfg(test)]
use super::bot::decide;
use super::bot::family_bot;
use super::odds::Odds;
use super::setup::{MissionRules, Round, Terrain, UnitKind};
use super::state::{Activation, Role, RoleState, TankCommander, Unit};
use crate::framework::{Game, MatchRng, PlayerId};

/// How a bot of the greedy family weighs what it sees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// What a shot's chance to start a fire is worth, in the units of a shot's value (a
    /// hull point lost is 10).
    pub fire_worth: f64,
    /// What the chance to start a fire is worth against a target that has already acted
    /// this turn: its fire burns at the turn's end, before its crew can put it out.
    pub burn_worth: f64,
    /// How much the enemy's shots at a unit where it stands count against the place, for
    /// each point its own best shot counts for it. 0: the enemy's guns are not looked at.
    pub threat_weight: f64,
    /// Lay smoke between a unit and the enemy guns when that cuts what they threaten.
    pub smoke: bool,
    /// Cover ground with "Move move move!".
    pub dash: bool,
    /// Squads ride on tanks' hulls as well as inside APCs.
    pub ride_tanks: bool,
    /// Load HE wherever it is worth at least as much as AT (a squad, a building, a tank
    /// it may set alight).
    pub prefer_he: bool,
    /// What standing on cover is worth while the enemy's guns are near, in
    /// [`TankCommander::position_value`]'s units (a space nearer the goal is worth 1 to
    /// 3): forest counts for, a hill (every hit strikes the rear) against.
    pub cover_worth: f64,
    /// Choose a crew ability for a shooting activation by the hits it buys (see
    /// [`TankCommander::ability_plan`]), rather than use each as soon as it helps.
    pub plan_abilities: bool,
    /// Booming Voice also to close on a near enemy when no shot is on offer yet.
    pub rush: bool,
    /// How much more a shot at an enemy that has still to act this turn is worth: hurting
    /// it first spares the shots it was about to fire.
    pub unacted_bonus: f64,
    /// With no shot to be had this activation, how much what the enemy could fire at a
    /// tank next (its guns' reach plus their moves) counts against a place, for each
    /// space nearer the goal: the tank waits out of reach instead of walking into the
    /// enemy's first volley. 0: it drives on (see [`TankCommander::standoff_choice`]).
    pub standoff: f64,
}

impl Style {
    /// The greedy bot: its own shots only, fire as a tie-breaker.
    pub const GREEDY: Style = Style {
        fire_worth: 1.0,
        burn_worth: 1.0,
        threat_weight: 0.0,
        smoke: false,
        dash: false,
        ride_tanks: false,
        prefer_he: false,
        unacted_bonus: 0.0,
        cover_worth: 0.0,
        plan_abilities: false,
        rush: false,
        standoff: 0.0,
    };

    /// The tactical bot.
    pub const TACTICAL: Style = Style {
        fire_worth: 5.0,
        burn_worth: 10.0,
        threat_weight: 0.3,
        smoke: true,
        dash: true,
        ride_tanks: true,
        prefer_he: true,
        unacted_bonus: 0.5,
        cover_worth: 3.0,
        plan_abilities: true,
        rush: true,
        standoff: 0.0,
    };

    /// The veteran bot: the tactical bot that, with no shot to be had, keeps out of the
    /// enemy's next reach rather than hand it the first volley
    /// ([`TankCommander::standoff_choice`]).
    pub const VETERAN: Style = Style {
        standoff: 0.2,
        ..Style::TACTICAL
    };

    /// The style for choosing where to drive: the same, less the fear of the enemy's
    /// guns, which is weighed only once the unit has settled (see
    /// [`TankCommander::safety_choice`]): a place's threat is no reason to spend action
    /// points that could take the unit to its goal or a shot.
    #[must_use]
    pub const fn moving(&self) -> Style {
        Style {
            threat_weight: 0.0,
            ..*self
        }
    }

    /// One number for how good a shot is: expected hull points, then the chance to knock
    /// the target out, then wounds, and fire at [`Style::fire_worth`].
    #[must_use]
    pub fn shot_value(&self, o: &Odds) -> f64 {
        o.expected_hull_loss.to_f64() * 10.0
            + o.disable.to_f64() * 10.0
            + o.crew_wound.to_f64() * 2.0
            + o.fire.to_f64() * self.fire_worth
    }

    /// [`Style::shot_value`] against a target that has acted this turn or not: a fire
    /// started on one that has acted is worth [`Style::burn_worth`].
    #[must_use]
    pub fn shot_value_on(&self, o: &Odds, acted: bool) -> f64 {
        let burn = if acted {
            o.fire.to_f64() * (self.burn_worth - self.fire_worth)
        } else {
            0.0
        };
        self.shot_value(o) + burn
    }
}

/// Cover counts while an enemy gun is within this many spaces of its reach: near enough
/// that the next moves may bring it into play.
const COVER_REACH: u32 = 4;

/// A settled unit moves or turns for safety only when that improves its place by at
/// least this much (in [`TankCommander::position_value`]'s units, where a hull point of
/// expected damage is 1,000).
const SAFETY_GAIN: f64 = 5.0;

/// Smoke, which lasts the battle and may block the unit's own shots, is laid only for a
/// gain of at least this much.
const SMOKE_GAIN: f64 = 40.0;

/// Plays the greedy bot's steps in the [`Style::TACTICAL`] style: see the module's guide.
#[derive(Clone, Copy, Debug, Default)]
pub struct TacticalBot;

family_bot!(TacticalBot, "tactical", Style::TACTICAL);

/// Plays the greedy bot's steps in the [`Style::VETERAN`] style.
#[derive(Clone, Copy, Debug, Default)]
pub struct VeteranBot;

family_bot!(VeteranBot, "veteran", Style::VETERAN);

/// For tuning (tests only): the tactical bot with the knobs `TANKTABLE_STYLE` turns
/// (`standoff=0.2,threat=1,smoke=0`: see [`Style`]), under the name `tuned`. The search's
/// strength measurement plays it against the greedy bot:
/// `TANKTABLE_BOT=tuned TANKTABLE_STYLE=standoff=0.2 TANKTABLE_GAMES=200 cargo test --release
/// --no-default-features --lib search_strength -- --ignored --nocapture`.
#[cfg(test)]
pub struct TunedBot(pub Style);

#[cfg(test)]
impl TunedBot {
    /// The tactical style with `TANKTABLE_STYLE`'s knobs turned.
    ///
    /// # Panics
    /// On a knob it does not know or a value that is not a number: a tuning run's typo.
    #[must_use]
    pub fn from_env() -> Self {
        let mut s = Style::TACTICAL;
        let knobs = std::env::var("TANKTABLE_STYLE").unwrap_or_default();
        for (knob, value) in knobs.split(',').filter_map(|kv| kv.split_once('=')) {
            let v: f64 = value.parse().expect("a knob's value is a number");
            match knob {
                "fire" => s.fire_worth = v,
                "burn" => s.burn_worth = v,
                "threat" => s.threat_weight = v,
                "cover" => s.cover_worth = v,
                "unacted" => s.unacted_bonus = v,
                "standoff" => s.standoff = v,
                "smoke" => s.smoke = v > 0.0,
                "dash" => s.dash = v > 0.0,
                "ride" => s.ride_tanks = v > 0.0,
                "he" => s.prefer_he = v > 0.0,
                "plan" => s.plan_abilities = v > 0.0,
                "rush" => s.rush = v > 0.0,
                _ => panic!("no knob {knob}"),
            }
        }
        Self(s)
    }
}

#[cfg(test)]
impl crate::framework::bot::Bot<TankCommander> for TunedBot {
    fn name(&self) -> &str {
        "tuned"
    }

    fn choose(
        &mut self,
        game: &TankCommander,
        player: PlayerId,
        _rng: &mut MatchRng,
    ) -> Option<Action> {
        decide(game, player, &self.0)
    }
}

/// An enemy weapon that could fire at a unit next: where it stands, its reach, its
/// moves, and what its shot is worth.
#[derive(Clone, Copy, Debug)]
struct Menace {
    at: hexx::Hex,
    reach: u32,
    moves: u32,
    shot: f64,
}

/// A place a tank can drive to this activation, the cheapest way: its facing there, the
/// points and moves it costs, and the first order (none for staying put).
#[derive(Clone, Copy, Debug)]
struct Drive {
    to: hexx::Hex,
    facing: crate::grid::Facing,
    cost: u8,
    moved: u8,
    first: Option<Action>,
}

impl TankCommander {
    /// What each enemy could fire at `unit` in its next activations, each driving first:
    /// every enemy weapon that could fire at it, with how far it reaches counting its
    /// moves and what its shot at the unit where it stands is worth.
    fn enemy_reach(&self, unit: &Unit, style: &Style) -> Vec<Menace> {
        self.units
            .iter()
            .filter(|e| e.side != unit.side && e.is_active() && e.riding.is_none())
            .filter_map(|e| {
                let (weapon, round) = self.threat_weapon(e, unit)?;
                let profile =
                    self.shot_profile_anyway(e.id, FireTarget::Unit(unit.id), weapon, round, false);
                Some(Menace {
                    at: e.at,
                    reach: u32::from(self.weapon_range(e, weapon)),
                    moves: u32::from(self.moves_allowed(e)),
                    shot: style.shot_value(&self.odds(&profile)),
                })
            })
            .collect()
    }

    /// Where a tank can drive with `ap` action points: every hex it can reach by moves
    /// and hull turns (the turret turning with the hull), the cheapest way, with the
    /// hull's facing there and the first order. Worked out on the board alone, with the
    /// rules' costs, so that a bot can afford it at every step; hexes with a mine the
    /// side knows of are avoided.
    fn drives(&self, player: PlayerId, unit: &Unit, ap: u8, moved: u8) -> Vec<Drive> {
        use crate::grid::{Facing, Rotation};
        let moves_allowed = self.moves_allowed(unit);
        let turn = self.turn_cost(unit);
        let mines: Vec<hexx::Hex> = self.mines_seen_by(player).map(|m| m.at).collect();
        // (cost, moves made) for each hex and facing.
        let mut best: foldhash::HashMap<(hexx::Hex, Facing), (u8, u8)> =
            foldhash::HashMap::default();
        let mut open = vec![Drive {
            to: unit.at,
            facing: unit.facing,
            cost: 0,
            moved,
            first: None,
        }];
        let mut found: foldhash::HashMap<hexx::Hex, Drive> = foldhash::HashMap::default();
        while let Some(d) = open.pop() {
            if best
                .get(&(d.to, d.facing))
                .is_some_and(|&(c, m)| (c, m) <= (d.cost, d.moved))
            {
                continue;
            }
            best.insert((d.to, d.facing), (d.cost, d.moved));
            if found.get(&d.to).is_none_or(|f| d.cost < f.cost) {
                found.insert(d.to, d);
            }
            for rotation in [Rotation::Left, Rotation::Right] {
                if d.cost + turn <= ap {
                    open.push(Drive {
                        facing: d.facing.rotated(rotation),
                        cost: d.cost + turn,
                        first: d.first.or(Some(Action::Turn {
                            rotation,
                            turret_follows: true,
                        })),
                        ..d
                    });
                }
            }
            let ahead = d.to + d.facing.offset();
            let step = if self.terrain(d.to).is_rough() && !unit.movement.ignores_rough {
                self.rules.costs.leave_rough
            } else {
                self.rules.costs.move_forward
            };
            if d.moved < moves_allowed
                && d.cost + step <= ap
                && self.board.contains(ahead)
                && unit.may_enter(self.terrain(ahead))
                && self.unit_at(ahead).is_none_or(|u| u.id == unit.id)
                && !mines.contains(&ahead)
            {
                open.push(Drive {
                    to: ahead,
                    cost: d.cost + step,
                    moved: d.moved + 1,
                    first: d.first.or(Some(Action::Move)),
                    ..d
                });
            }
        }
        // In a fixed order, so that ties fall the same way every time.
        let mut drives: Vec<Drive> = found.into_values().collect();
        drives.sort_by_key(|d| (d.cost, d.to.x, d.to.y));
        drives
    }

    /// A tank that can get no shot this activation, wherever it drives, keeps out of the
    /// enemy's next reach: of the places it can reach (staying put included), the one
    /// nearest its goal less [`Style::standoff`] times what the enemy could fire at it
    /// there next (each enemy weapon whose reach plus its moves covers the place, twice
    /// for one already in reach, which spends its points on shots rather than moves).
    /// Walking into the enemy's reach with no shot of its own hands the enemy the first
    /// volley. `None` when a shot is to be had (the usual steps take it), at night, and
    /// where the mission asks the unit to hold or take ground whatever the guns.
    pub(super) fn standoff_choice(
        &self,
        player: PlayerId,
        unit: &Unit,
        legal: &[Action],
        style: &Style,
    ) -> Option<Action> {
        if style.standoff == 0.0
            || unit.kind != UnitKind::Tank
            || unit.role_state(Role::Driver) == RoleState::Out
        {
            return None;
        }
        // At night the dark, not the guns' reach, decides who shoots first.
        if self.ground_matters(unit) || self.night() {
            return None;
        }
        let act = self.activation()?;
        let (ap, moved) = (act.action_points, act.moves);
        let range = unit.gun_range(&self.rules);
        let menaces = self.enemy_reach(unit, style);
        // No enemy's next reach touches a place the unit can get to: nothing to keep out of.
        let moves = u32::from(ap.min(self.moves_allowed(unit).saturating_sub(moved)));
        if !menaces
            .iter()
            .any(|m| self.board_distance(unit.at, m.at) <= m.reach + m.moves + moves)
        {
            return None;
        }
        let turret_offset = unit.facing.steps_to(unit.turret);
        let drives = self.drives(player, unit, ap, moved);
        if drives
            .iter()
            .any(|d| self.shot_after_drive(unit, d, ap, range, turret_offset))
        {
            return None;
        }
        let value = |d: &Drive| {
            let exposed = exposure(self, d.to, &menaces);
            -self.goal_distance(unit, d.to) - style.standoff * exposed
        };
        let best = drives
            .iter()
            .map(|d| (d, value(d)))
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cost.cmp(&a.0.cost)))?
            .0;
        match best.first {
            Some(a) => legal.contains(&a).then_some(a),
            // Here is best: spend what is left on safety, then stop.
            None => Some(
                self.safety_choice(player, unit, legal, style)
                    .unwrap_or(Action::EndActivation),
            ),
        }
    }

    /// Whether the mission asks `unit` to get somewhere or destroy something whatever the
    /// guns: an attacker who must come on, or a minefield's defender holding its rows.
    fn ground_matters(&self, unit: &Unit) -> bool {
        match &self.mission {
            MissionRules::Breakthrough { attacker, .. }
            | MissionRules::DestroyTarget { attacker, .. }
            | MissionRules::DisableAaGuns { attacker } => *attacker == unit.side.0,
            MissionRules::CrossMinefield { .. } => true,
            _ => false,
        }
    }

    /// Whether `unit`, with `ap` action points, gun `range` and its turret `turret_offset`
    /// steps from its hull, could still shoot an enemy after drive `d`.
    #[inline]
    fn shot_after_drive(
        &self,
        unit: &Unit,
        d: &Drive,
        ap: u8,
        range: u8,
        turret_offset: u8,
    ) -> bool {
        // A shot needs a point for the gun, and one more to turn the turret when the
        // target is out of its arc.
        let left = ap - d.cost;
        let turret = crate::grid::Facing::from_index((d.facing.index() + turret_offset) % 6);
        left >= 1
            && self.units.iter().any(|e| {
                e.side != unit.side
                    && e.is_active()
                    && e.kind != UnitKind::Target
                    && self.board_distance(d.to, e.at) <= u32::from(range)
                    && self.aim_block(d.to, None, e.at, range).is_none()
                    && (left >= 2 || self.aim_block(d.to, Some(turret), e.at, range).is_none())
            })
    }

    /// What the enemy could do to `unit` where it stands: for every active enemy that
    /// could fire at it (in range and in sight, whatever its turret's facing: turning a
    /// turret costs little), the value of that shot; summed.
    pub(super) fn threat(&self, unit: &Unit, style: &Style) -> f64 {
        if !unit.is_active() || unit.riding.is_some() || unit.kind == UnitKind::Target {
            return 0.0;
        }
        if unit.is_infantry() && self.untargetable(unit).is_some() {
            return 0.0;
        }
        let mut total = 0.0;
        for e in &self.units {
            if e.side == unit.side || !e.is_active() || e.riding.is_some() {
                continue;
            }
            let Some((weapon, round)) = self.threat_weapon(e, unit) else {
                continue;
            };
            // Whatever its turret's facing: turning a turret costs little.
            let reach = self.weapon_range(e, weapon);
            if self.aim_block(e.at, None, unit.at, reach).is_some() {
                continue;
            }
            let profile =
                self.shot_profile_anyway(e.id, FireTarget::Unit(unit.id), weapon, round, false);
            total += style.shot_value(&self.odds(&profile));
        }
        total
    }

    /// How well the ground where `unit` stands covers it while an enemy that could fire
    /// at it is within [`COVER_REACH`] spaces of its reach: 1 in forest (shots at it are 1 harder),
    /// −1 on a hill (every hit strikes its rear armor), else 0.
    pub(super) fn cover_at(&self, unit: &Unit) -> f64 {
        let ground = match self.terrain(unit.at) {
            Terrain::Forest => 1.0,
            Terrain::Hill if unit.kind.is_vehicle() => -1.0,
            _ => return 0.0,
        };
        let near = self.units.iter().any(|e| {
            e.side != unit.side
                && e.is_active()
                && self.threat_weapon(e, unit).is_some_and(|(weapon, _)| {
                    self.board_distance(e.at, unit.at)
                        <= u32::from(self.weapon_range(e, weapon)) + COVER_REACH
                })
        });
        if near { ground } else { 0.0 }
    }

    /// The weapon and round enemy `e` would fire at `unit`, if it has one that can.
    fn threat_weapon(&self, e: &Unit, unit: &Unit) -> Option<(super::action::Weapon, Round)> {
        use super::action::Weapon;
        match e.kind {
            UnitKind::Target | UnitKind::AaGun => None,
            UnitKind::Apc => unit
                .is_infantry()
                .then_some((Weapon::AntiInfantry, Round::At)),
            UnitKind::Infantry if unit.is_infantry() => Some((Weapon::AntiInfantry, Round::At)),
            UnitKind::Infantry => Some((Weapon::Missile, Round::At)),
            UnitKind::Tank => (e.role_state(Role::Gunner) != RoleState::Out)
                .then(|| (Weapon::MainGun, e.loaded.unwrap_or(Round::At))),
        }
    }

    /// What a unit that has settled does with the action points it has left, which are
    /// otherwise lost: the move, turn, turret turn or smoke that most improves its place
    /// once the enemy's shots at it count ([`Style::threat_weight`]): into forest or
    /// behind a hill, out of a gun's sight or reach, front armor to the guns, smoke on
    /// their line. Smoke is laid only for a gain of [`SMOKE_GAIN`].
    pub(super) fn safety_choice(
        &self,
        player: PlayerId,
        unit: &Unit,
        legal: &[Action],
        style: &Style,
    ) -> Option<Action> {
        if style.threat_weight == 0.0 || self.threat(unit, style) == 0.0 {
            return None;
        }
        let here = self.position_value(unit.id, style);
        let ahead = unit.at + unit.facing.offset();
        let mined_ahead = self.mines_seen_by(player).any(|m| m.at == ahead);
        let mut options: Vec<(Action, f64, TankCommander)> = Vec::new();
        for &a in legal {
            let least = match a {
                Action::Move if !mined_ahead => SAFETY_GAIN,
                Action::Turn { .. } | Action::RotateTurret(_) => SAFETY_GAIN,
                Action::DeploySmoke(hex) if style.smoke && hex != unit.at => SMOKE_GAIN,
                _ => continue,
            };
            let mut next = self.clone();
            if next.apply(player, &a, &mut MatchRng::new(0)).is_err() {
                continue;
            }
            let gain = next.position_value(unit.id, style) - here;
            if gain > least {
                options.push((a, gain, next));
            }
        }
        options.sort_by(|a, b| b.1.total_cmp(&a.1));
        // A step for safety that the next decision's drive would undo (a turn back
        // towards the goal) is no step: the two would alternate while points last.
        let moving = style.moving();
        options
            .into_iter()
            .take(3)
            .find(|(_, _, next)| {
                let legal = next.legal(player);
                next.drive_choice(player, next.unit(unit.id), &legal, &moving)
                    .is_none()
            })
            .map(|(a, _, _)| a)
    }

    /// The crew ability that buys the most this activation, when the unit has a shot
    /// from where it stands: "Bring it down!" makes each shot likelier, Quick Load makes
    /// reloading free (more shots for the same points), Booming Voice adds points (more
    /// shots). Each is weighed as the shots the activation's points pay for, times the
    /// value of the best shot; the best is used when it beats using none. Only one
    /// ability may be used a turn, and each once a battle, so the choice matters.
    pub(super) fn ability_plan(
        &self,
        unit: &Unit,
        act: &Activation,
        legal: &[Action],
        style: &Style,
    ) -> Option<Action> {
        if !style.plan_abilities || act.ability_used {
            return None;
        }
        let round = unit.loaded.unwrap_or(Round::At);
        let plain = self.best_shot(unit, round, act.bring_it_down, style)?.1;
        if plain <= 0.0 {
            return None;
        }
        let rules = &self.rules;
        let shots = |points: u8, load: Option<u8>| {
            shots_paid(points, unit.loaded.is_some(), load, rules.costs.fire)
        };
        let load = unit.load_cost(rules, act.quick_load);
        let none = shots(act.action_points, load) * plain;
        let has = |a: Ability| legal.contains(&Action::UseAbility(a));
        let mut options: Vec<(Ability, f64)> = Vec::new();
        if has(Ability::BringItDown) {
            let sure = self
                .best_shot(unit, round, true, style)
                .map_or(0.0, |b| b.1);
            options.push((Ability::BringItDown, shots(act.action_points, load) * sure));
        }
        if has(Ability::QuickLoad) && load.is_some() {
            options.push((
                Ability::QuickLoad,
                shots(act.action_points, Some(0)) * plain,
            ));
        }
        if has(Ability::BoomingVoice) {
            let more = act
                .action_points
                .saturating_add(rules.crew.booming_voice_actions);
            options.push((Ability::BoomingVoice, shots(more, load) * plain));
        }
        options
            .into_iter()
            .filter(|(_, v)| *v > none * 1.05)
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(a, _)| Action::UseAbility(a))
    }

    /// Whether `action` is a "Move move move!" dash that `style` lets the bot weigh as a
    /// way to drive.
    pub(super) fn is_dash(action: &Action, style: &Style) -> bool {
        style.dash && matches!(action, Action::UseAbility(Ability::MoveMoveMove { .. }))
    }

    /// Whether a dash of `spaces` straight ahead would cross a mine `player` knows of.
    pub(super) fn dash_meets_mine(&self, player: PlayerId, unit: &Unit, spaces: u8) -> bool {
        let mut hex = unit.at;
        (0..spaces).any(|_| {
            hex += unit.facing.offset();
            self.mines_seen_by(player).any(|m| m.at == hex)
        })
    }
}

/// Shots `points` action points pay for, firing at `fire` each and reloading at `load`
/// (`None`: the loader is dead, so only a loaded round is fired); capped at ten.
fn shots_paid(points: u8, loaded: bool, load: Option<u8>, fire: u8) -> f64 {
    let (mut points, mut loaded, mut shots) = (points, loaded, 0u8);
    while shots < 10 {
        if !loaded {
            match load {
                Some(cost) if points >= cost => points -= cost,
                _ => break,
            }
        }
        if points < fire {
            break;
        }
        points -= fire;
        loaded = false;
        shots += 1;
    }
    f64::from(shots)
}

/// What the `menaces` could fire at a unit at `to` next: each one's shot, twice for one
/// already in reach, once for one that must drive first, nothing beyond.
#[inline]
fn exposure(game: &TankCommander, to: hexx::Hex, menaces: &[Menace]) -> f64 {
    menaces
        .iter()
        .map(|m| {
            let far = game.board_distance(to, m.at);
            if far <= m.reach {
                2.0 * m.shot
            } else if far <= m.reach + m.moves {
                m.shot
            } else {
                0.0
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use hexx::Hex;

    use super::*;
    use crate::grid::Facing;
    use crate::rules::tank_commander::Battle;
    use crate::rules::tank_commander::action::Weapon;
    use crate::rules::tank_commander::setup::{ArmorPoints, Build, Terrain};
    use crate::rules::tank_commander::state::Activation;
    use crate::rules::tank_commander::tests::{BLUE, Field, id};

    /// `game` with `name` activated: `points` left, `moves` made, the turn's ability
    /// spent or not.
    fn activate(game: &mut TankCommander, name: &str, points: u8, moves: u8, ability: bool) {
        let unit = id(game, name);
        game.current = game.unit(unit).side;
        let mut act = Activation::begin(unit, points);
        act.moves = moves;
        act.ability_used = ability;
        game.active = Some(act);
    }

    #[test]
    fn the_greedy_style_values_shots_as_the_greedy_bot_always_has() {
        let game =
            <TankCommander as crate::framework::Playable>::from_setup(&Battle::builtin_default())
                .expect("battle");
        let (a, b) = (&game.units[0], &game.units[1]);
        let p = game.shot_profile_anyway(
            a.id,
            FireTarget::Unit(b.id),
            Weapon::MainGun,
            Round::He,
            false,
        );
        let o = game.odds(&p);
        assert_eq!(
            Style::GREEDY.shot_value(&o),
            super::super::bot::shot_value(&o)
        );
        assert!(Style::TACTICAL.shot_value(&o) > Style::GREEDY.shot_value(&o));
    }

    #[test]
    fn a_settled_tank_lays_smoke_on_the_line_of_the_gun_that_threatens_it() {
        // T has driven its three spaces and spent its ability; its turret looks away, so
        // it has no shot; Red's gun, four spaces ahead, has T in its sights.
        let smoke = Build {
            smoke_launcher: true,
            ..Build::default()
        };
        let (mut game, _) = Field::new()
            .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::S)
            .with_build(smoke)
            .loaded(Round::At)
            .tank("Red", "R", Hex::new(0, -4), Facing::S, Facing::S)
            .loaded(Round::At)
            .rules();
        activate(&mut game, "T", 2, 3, true);
        let t = game.unit_named("T").expect("T").clone();
        assert!(game.threat(&t, &Style::TACTICAL) > 0.0);
        let choice = decide(&game, BLUE, &Style::TACTICAL).expect("a choice");
        let Action::DeploySmoke(hex) = choice else {
            panic!("expected smoke, got {choice:?}");
        };
        let mut smoked = game.clone();
        smoked
            .apply(BLUE, &choice, &mut MatchRng::new(0))
            .expect("legal");
        let r = game.unit_named("R").expect("R");
        assert!(
            smoked.sight_line(r.at, t.at).blocked.is_some(),
            "smoke at {hex:?} blocks R's line to T"
        );
        assert_eq!(smoked.threat(smoked.unit(t.id), &Style::TACTICAL), 0.0);
        // The greedy bot does not look at the enemy's guns: it ends the activation.
        assert_eq!(
            decide(&game, BLUE, &Style::GREEDY),
            Some(Action::EndActivation)
        );
    }

    #[test]
    fn forest_and_front_armor_lower_the_threat() {
        let field = || {
            Field::new()
                .tank("Red", "R", Hex::new(0, -4), Facing::S, Facing::S)
                .loaded(Round::At)
        };
        let threat = |(game, _): (TankCommander, MatchRng)| {
            let t = game.unit_named("T").expect("T");
            game.threat(t, &Style::TACTICAL)
        };
        // Two more points of front armor.
        let thick = Build {
            armor: ArmorPoints {
                front: 2,
                ..ArmorPoints::default()
            },
            ..Build::default()
        };
        let tank = |facing| {
            field()
                .tank("Blue", "T", Hex::ZERO, facing, facing)
                .with_build(thick)
        };
        let front = threat(tank(Facing::N).rules());
        let rear = threat(tank(Facing::S).rules());
        let forest = threat(tank(Facing::N).terrain(Hex::ZERO, Terrain::Forest).rules());
        assert!(front < rear, "front {front} rear {rear}");
        assert!(forest < front, "forest {forest} front {front}");
    }

    #[test]
    fn crew_abilities_are_chosen_by_the_shots_they_buy() {
        // A loaded tank with five points and a target in its sights: Quick Load buys five
        // shots where "Bring it down!" makes three surer; the greedy bot takes the first
        // that helps.
        let (mut game, _) = Field::new()
            .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
            .loaded(Round::At)
            .tank("Red", "R", Hex::new(0, -3), Facing::S, Facing::S)
            .rules();
        activate(&mut game, "T", 5, 0, false);
        assert_eq!(
            decide(&game, BLUE, &Style::TACTICAL),
            Some(Action::UseAbility(Ability::QuickLoad))
        );
        assert_eq!(
            decide(&game, BLUE, &Style::GREEDY),
            Some(Action::UseAbility(Ability::BringItDown))
        );
        // With one point left, Booming Voice's two more buy a second shot.
        activate(&mut game, "T", 1, 0, false);
        assert_eq!(
            decide(&game, BLUE, &Style::TACTICAL),
            Some(Action::UseAbility(Ability::BoomingVoice))
        );
        assert_eq!(shots_paid(5, true, Some(1), 1), 3.0);
        assert_eq!(shots_paid(5, true, Some(0), 1), 5.0);
        assert_eq!(shots_paid(5, false, None, 1), 0.0);
    }

    #[test]
    fn he_is_loaded_against_a_squad_where_at_does_no_more() {
        let he = Build {
            he_rounds: true,
            ..Build::default()
        };
        let (mut game, _) = Field::new()
            .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
            .with_build(he)
            .squad("Red", "S", Hex::new(0, -3))
            .rules();
        let t = id(&game, "T");
        game.units[t.index()].loaded = None;
        activate(&mut game, "T", 5, 0, true);
        assert_eq!(
            decide(&game, BLUE, &Style::TACTICAL),
            Some(Action::Load(Round::He))
        );
        assert_eq!(
            decide(&game, BLUE, &Style::GREEDY),
            Some(Action::Load(Round::At))
        );
    }

    #[test]
    fn a_squad_fires_an_he_missile_at_thin_armor_that_at_does_no_more_against() {
        // Against a bare APC's armor 4 both missiles always go through; HE may set it
        // alight too.
        let (mut game, _) = Field::new()
            .squad("Blue", "S", Hex::ZERO)
            .apc("Red", "A", Hex::new(0, -2), Facing::S)
            .rules();
        activate(&mut game, "S", 3, 0, true);
        let apc = id(&game, "A");
        assert_eq!(
            decide(&game, BLUE, &Style::TACTICAL),
            Some(Action::FireMissile(apc, Round::He))
        );
    }

    /// Plays `style`'s choices for `name` until its activation ends: where it stands then.
    fn drive_out(game: &TankCommander, name: &str, style: &Style) -> Hex {
        let mut game = game.clone();
        let unit = id(&game, name);
        let mut dice = MatchRng::new(0);
        while game.activation().is_some_and(|a| a.unit == unit) {
            let action = decide(&game, BLUE, style).expect("a choice");
            game.apply(BLUE, &action, &mut dice).expect("legal");
        }
        game.unit(unit).at
    }

    #[test]
    fn a_veteran_with_no_shot_to_be_had_waits_out_of_the_enemys_reach() {
        // Eleven spaces from three Red tanks: T can drive three, so it has no shot this
        // activation; their guns reach six and their tracks three, so from ten spaces out
        // T is safe.
        let (mut game, _) = Field::new()
            .tank("Blue", "T", Hex::new(0, 5), Facing::N, Facing::N)
            .loaded(Round::At)
            .tank("Red", "R", Hex::new(0, -6), Facing::S, Facing::S)
            .loaded(Round::At)
            .tank("Red", "R2", Hex::new(1, -6), Facing::S, Facing::S)
            .loaded(Round::At)
            .tank("Red", "R3", Hex::new(-1, -5), Facing::S, Facing::S)
            .loaded(Round::At)
            .rules();
        activate(&mut game, "T", 5, 0, false);
        let r = game.unit_named("R").expect("R").at;
        let veteran = drive_out(&game, "T", &Style::VETERAN);
        assert_eq!(veteran.unsigned_distance_to(r), 10, "one space, no nearer");
        // The tactical and greedy bots walk into the enemy's reach, handing it the first
        // volley.
        for style in [Style::TACTICAL, Style::GREEDY] {
            assert_eq!(drive_out(&game, "T", &style).unsigned_distance_to(r), 8);
        }
        // Two spaces nearer there is a shot to be had: the veteran goes for it.
        let t = id(&game, "T");
        game.units[t.index()].at += Hex::new(0, -2);
        let closing = drive_out(&game, "T", &Style::VETERAN);
        assert!(closing.unsigned_distance_to(r) <= 6, "{closing:?}");
    }
}
