//! The greedy bot: shoots for the best exact expected damage, otherwise closes in.

use super::action::{Ability, Action, FireTarget, Weapon};
use super::odds::Odds;
use super::setup::{Edge, MissionRules, MissionTarget, Movement, Round, UnitKind};
use super::state::{Activation, Role, TankCommander, Unit, UnitId};
pub use super::tactics::Style;
use crate::framework::{Game, MatchRng, PlayerId};

/// Spaces a known enemy mine counts for when a Cross Minefield tank plans its way.
const MINE_DETOUR: u32 = 8;

/// Rows in front of its edge that a Cross Minefield defender holds.
const HOLD_DEPTH: u32 = 2;

/// Distance fields kept per thread. A searching bot's playouts move a mission's target
/// about a handful of spaces, each its own field: with four kept, Command Tank's fields
/// were worked out again and again, and a decision took up to 1.5 s.
const FIELDS_KEPT: usize = 32;

/// Picks, among the legal actions, the shot with the highest exact expected damage; when
/// no shot is worth taking it loads, turns its turret onto a target, or drives towards the
/// nearest enemy.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyBot;

/// One number for how good a shot is: expected hull points, then knock-out chance, then
/// wounds and fire as tie-breakers.
#[must_use]
pub fn shot_value(o: &Odds) -> f64 {
    o.expected_hull_loss.to_f64() * 10.0
        + o.disable.to_f64() * 10.0
        + o.crew_wound.to_f64() * 2.0
        + o.fire.to_f64()
}

impl TankCommander {
    /// The best shot `unit` could take from where it stands with `round`, by [`shot_value`].
    pub(super) fn best_shot(
        &self,
        unit: &Unit,
        round: Round,
        bring_it_down: bool,
        style: &Style,
    ) -> Option<(FireTarget, f64)> {
        if unit.is_apc() {
            return self
                .best_anti_infantry_shot(unit, false, style)
                .map(|(a, v)| match a {
                    Action::FireAntiInfantry(t) => (FireTarget::Unit(t), v),
                    _ => unreachable!("an APC fires only its anti-infantry weapon"),
                });
        }
        if unit.is_infantry() {
            return self.best_squad_shot(unit, style).map(|(a, v)| match a {
                Action::FireMissile(t, _) | Action::FireAntiInfantry(t) => (FireTarget::Unit(t), v),
                _ => unreachable!("a squad's shot is a missile or anti-infantry fire"),
            });
        }
        let mission = self.mission_target(unit.side);
        let building = match mission {
            Some(MissionTarget::Building(h)) => self
                .shot_profile(unit.id, FireTarget::Building(h), round, bring_it_down)
                .ok()
                // Bringing the building down wins the battle.
                .map(|p| (FireTarget::Building(h), 30.0 * self.odds(&p).hit.to_f64())),
            _ => None,
        };
        self.units
            .iter()
            .filter(|t| t.side != unit.side && t.is_active())
            .filter_map(|t| {
                let p = self
                    .shot_profile(unit.id, FireTarget::Unit(t.id), round, bring_it_down)
                    .ok()?;
                let acted = self.has_activated(t.id);
                let mut v = style.shot_value_on(&self.odds(&p), acted);
                if style.unacted_bonus > 0.0 && !acted {
                    v *= 1.0 + style.unacted_bonus;
                }
                // The mission's target is worth three of anything else.
                if mission == Some(MissionTarget::Unit(t.id)) || self.is_mission_gun(unit.side, t) {
                    v *= 3.0;
                }
                Some((FireTarget::Unit(t.id), v))
            })
            .chain(building)
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// Spaces `unit` must go from `at` to the nearest space with a clear line (past
    /// buildings and smoke) to `target` within its gun's reach: a target walled in by
    /// houses is shot from the gaps, not from where it is merely nearest.
    ///
    /// The spaces' distances are worked out once per target, reach and ground, and kept
    /// per thread: the lookahead asks this for every candidate move.
    fn firing_position_distance(
        &self,
        unit: &Unit,
        at: hexx::Hex,
        targets: &[hexx::Hex],
    ) -> Option<u32> {
        let range = u32::from(unit.gun_range(&self.rules));
        let key = (
            "firing positions",
            targets,
            range,
            unit.movement,
            &self.smoke,
        );
        self.cached_distance(at, key, || {
            let spots: Vec<hexx::Hex> = self
                .board
                .hexes()
                .filter(|&h| {
                    unit.may_enter(self.terrain(h))
                        && targets.iter().any(|&target| {
                            h != target
                                && h.unsigned_distance_to(target) <= range
                                && self.ground_sight_clear(h, target)
                        })
                })
                .collect();
            self.distance_field(&spots, unit.movement)
        })
    }

    /// The distance at `at` in a field of distances over the board that `make` works out
    /// once per `key` (with the ground and the board's size) and keeps per thread: the
    /// lookahead asks for every candidate move. A few fields are kept, so that missions
    /// asking for two do not work them out again in turn.
    fn cached_distance(
        &self,
        at: hexx::Hex,
        key: impl std::hash::Hash,
        make: impl FnOnce() -> Vec<Option<u32>>,
    ) -> Option<u32> {
        let i = self.board.index(at)?;
        self.with_cached_field(key, make, |field| field.get(i).copied().flatten())
    }

    /// Runs `read` on the field of distances that `make` works out once per `key` (with
    /// the ground and the board's size) and keeps per thread ([`FIELDS_KEPT`] of them,
    /// the latest used first).
    fn with_cached_field<T>(
        &self,
        key: impl std::hash::Hash,
        make: impl FnOnce() -> Vec<Option<u32>>,
        read: impl FnOnce(&[Option<u32>]) -> T,
    ) -> T {
        use std::hash::BuildHasher;
        thread_local! {
            static FIELDS: std::cell::RefCell<Vec<(u64, Vec<Option<u32>>)>> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        let key = foldhash::fast::FixedState::default().hash_one((
            key,
            self.terrain_key,
            self.board.width,
            self.board.height,
        ));
        FIELDS.with_borrow_mut(|fields| {
            if let Some(k) = fields.iter().position(|(k, _)| *k == key) {
                let hit = fields.remove(k);
                fields.insert(0, hit);
            } else {
                fields.insert(0, (key, make()));
                fields.truncate(FIELDS_KEPT);
            }
            read(&fields[0].1)
        })
    }

    /// Spaces to walk from every hex of the board to the nearest of `goals`, for a unit
    /// moving as `movement` (round buildings, and water unless it crosses); `None` where
    /// none can be reached.
    fn distance_field(&self, goals: &[hexx::Hex], movement: Movement) -> Vec<Option<u32>> {
        let mut field = vec![None; self.board.len()];
        let mut frontier: Vec<hexx::Hex> = Vec::new();
        for &g in goals {
            if let Some(i) = self.board.index(g) {
                field[i] = Some(0);
                frontier.push(g);
            }
        }
        let mut d = 0;
        while !frontier.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for h in frontier {
                for n in h.all_neighbors() {
                    if let Some(i) = self.board.index(n)
                        && field[i].is_none()
                        && movement.may_enter(self.terrain(n))
                    {
                        field[i] = Some(d);
                        next.push(n);
                    }
                }
            }
            frontier = next;
        }
        field
    }

    /// What `side` must destroy, in a Destroy Target mission where it attacks.
    fn mission_target(&self, side: PlayerId) -> Option<MissionTarget> {
        match &self.mission {
            MissionRules::DestroyTarget { attacker, target } if side.0 == *attacker => {
                Some(*target)
            }
            _ => None,
        }
    }

    /// The best shot an infantry squad could fire from where it stands: a missile (AT or
    /// HE) at a vehicle, or its anti-infantry weapon at a squad.
    fn best_squad_shot(&self, unit: &Unit, style: &Style) -> Option<(Action, f64)> {
        let mut best: Option<(Action, f64)> = None;
        for t in self
            .units
            .iter()
            .filter(|t| t.side != unit.side && t.is_active())
        {
            let options: &[(Action, Round)] = if t.is_infantry() {
                &[(Action::FireAntiInfantry(t.id), Round::At)]
            } else {
                &[
                    (Action::FireMissile(t.id, Round::At), Round::At),
                    (Action::FireMissile(t.id, Round::He), Round::He),
                ]
            };
            for &(action, round) in options {
                let weapon = self.weapon_for(unit, t);
                let Ok(p) =
                    self.weapon_profile(unit.id, FireTarget::Unit(t.id), weapon, round, false)
                else {
                    continue;
                };
                let mut v = style.shot_value_on(&self.odds(&p), self.has_activated(t.id));
                if self.is_mission_gun(unit.side, t) {
                    v *= 3.0;
                }
                if best.is_none_or(|b| v > b.1) {
                    best = Some((action, v));
                }
            }
        }
        best
    }

    /// True when `t` is an AA gun that `side` must knock out to win (Disable AA Guns).
    fn is_mission_gun(&self, side: PlayerId, t: &Unit) -> bool {
        t.is_aa_gun()
            && matches!(self.mission, MissionRules::DisableAaGuns { attacker } if attacker == side.0)
    }

    /// The attacker of a Destroy Target or Disable AA Guns mission, and what it must still
    /// knock out: the target while it stands, or the AA guns still standing.
    fn attack_targets(&self) -> Option<(PlayerId, Vec<hexx::Hex>)> {
        match &self.mission {
            MissionRules::DestroyTarget { attacker, .. } => Some((
                PlayerId(*attacker),
                self.target_standing().into_iter().collect(),
            )),
            MissionRules::DisableAaGuns { attacker } => {
                let side = PlayerId(*attacker);
                Some((side, self.mission_guns(side)))
            }
            _ => None,
        }
    }

    /// The AA guns still standing that `side` must knock out (Disable AA Guns).
    fn mission_guns(&self, side: PlayerId) -> Vec<hexx::Hex> {
        self.units
            .iter()
            .filter(|t| t.side != side && t.is_active() && self.is_mission_gun(side, t))
            .map(|t| t.at)
            .collect()
    }

    /// The best anti-infantry shot a tank with the upgrade, or an APC, could fire now.
    pub(super) fn best_anti_infantry_shot(
        &self,
        unit: &Unit,
        bring_it_down: bool,
        style: &Style,
    ) -> Option<(Action, f64)> {
        unit.anti_infantry_range(&self.rules)?;
        self.units
            .iter()
            .filter(|t| t.side != unit.side && t.is_active() && t.is_infantry())
            .filter_map(|t| {
                let p = self
                    .weapon_profile(
                        unit.id,
                        FireTarget::Unit(t.id),
                        Weapon::AntiInfantry,
                        Round::At,
                        bring_it_down,
                    )
                    .ok()?;
                Some((
                    Action::FireAntiInfantry(t.id),
                    style.shot_value(&self.odds(&p)),
                ))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// What an infantry squad does: capture, disarm, shoot, move towards its goal, take
    /// cover, or stop.
    fn squad_choice(
        &self,
        player: PlayerId,
        unit: &Unit,
        legal: &[Action],
        style: &Style,
    ) -> Action {
        let has = |a: Action| legal.contains(&a);
        if let Some(carrier) = unit.riding {
            return self.riding_choice(unit, carrier, legal, style);
        }
        if has(Action::Capture) {
            return Action::Capture;
        }
        // Far from its goal, board an APC next to it that has still to drive this turn.
        if self
            .squad_goal_distance(unit, unit.at)
            .is_some_and(|d| d > 3)
            && let Some(&a) = legal.iter().find(|a| match a {
                Action::Mount(c) => {
                    self.carries(self.unit(*c), unit, style) && !self.has_activated(*c)
                }
                _ => false,
            })
        {
            return a;
        }
        // Clear an enemy mine it knows of next to it: in a Cross Minefield attack, one in
        // the tanks' lane.
        let lane = match &self.mission {
            MissionRules::CrossMinefield { attacker, edge, .. } if player.0 == *attacker => {
                Some(self.lane_mines(player, *edge))
            }
            _ => None,
        };
        if let Some(&a) = legal.iter().find(|a| match a {
            Action::Disarm(h) => {
                self.mines_seen_by(player)
                    .any(|m| m.at == *h && m.owner != player)
                    && lane.as_ref().is_none_or(|l| l.contains(h))
            }
            _ => false,
        }) {
            return a;
        }
        if let Some((a, v)) = self.best_squad_shot(unit, style)
            && v > 0.0
            && has(a)
        {
            return a;
        }
        if let Some(a) = self.squad_step_choice(player, unit, legal, style) {
            return a;
        }
        // Nothing better to do: take cover if an enemy is near enough to matter.
        if has(Action::TakeCover) && self.nearest_enemy_distance(unit) <= 7 {
            return Action::TakeCover;
        }
        Action::EndActivation
    }

    /// What a squad riding on `carrier` does: ride on while the carrier has its drive
    /// ahead or the goal is far, else dismount towards its goal.
    fn riding_choice(
        &self,
        unit: &Unit,
        carrier: UnitId,
        legal: &[Action],
        style: &Style,
    ) -> Action {
        // Inside an APC a squad rides on while the APC still has its turn's drive
        // ahead of it, and while the goal is far.
        let c = self.unit(carrier);
        let escorted = self.escorted_squad() == Some(unit.id);
        if self.carries(c, unit, style)
            && c.is_active()
            && (escorted
                || !self.has_activated(carrier)
                || self.squad_goal_distance(unit, c.at).is_some_and(|d| d > 3))
        {
            return Action::EndActivation;
        }
        legal
            .iter()
            .filter(|a| matches!(a, Action::Dismount(_)))
            .min_by(|a, b| {
                let d = |a: &Action| match a {
                    Action::Dismount(h) => self.goal_distance(unit, *h),
                    _ => f64::MAX,
                };
                d(a).total_cmp(&d(b))
            })
            .copied()
            .unwrap_or(Action::EndActivation)
    }

    /// The step that most improves the squad's position, if one does.
    fn squad_step_choice(
        &self,
        player: PlayerId,
        unit: &Unit,
        legal: &[Action],
        style: &Style,
    ) -> Option<Action> {
        let moving = style.moving();
        let here = self.position_value(unit.id, &moving);
        let mut best: Option<(Action, f64)> = None;
        for &a in legal.iter().filter(|a| matches!(a, Action::Step(_))) {
            let mut next = self.clone();
            if next.apply(player, &a, &mut MatchRng::new(0)).is_err() {
                continue;
            }
            let v = next.position_value(unit.id, &moving);
            if best.is_none_or(|b| v > b.1) {
                best = Some((a, v));
            }
        }
        best.filter(|&(_, v)| v > here).map(|(a, _)| a)
    }

    fn nearest_enemy_distance(&self, unit: &Unit) -> u32 {
        self.enemy_distance(unit, unit.at)
    }

    /// How far `at` is from the nearest active enemy of `unit`.
    fn enemy_distance(&self, unit: &Unit, at: hexx::Hex) -> u32 {
        self.units
            .iter()
            .filter(|t| t.side != unit.side && t.is_active())
            .map(|t| at.unsigned_distance_to(t.at))
            .min()
            .unwrap_or(0)
    }

    /// Where `side` would mark its air strike: on the active enemy with the most enemies
    /// within one space, with no friend within two spaces of it; none if every enemy
    /// stands near a friend.
    fn air_strike_mark(&self, side: PlayerId) -> Option<hexx::Hex> {
        // The AA guns a mission sends the side against stand still: the surest mark,
        // away from friends.
        let friends_near = |h: hexx::Hex, within: u32| {
            self.units
                .iter()
                .filter(|f| f.side == side && f.is_active())
                .any(|f| f.at.unsigned_distance_to(h) <= within)
        };
        let marked = |h: hexx::Hex| self.strikes.iter().any(|s| s.side == side && s.at == h);
        if let Some(gun) = self
            .mission_guns(side)
            .into_iter()
            .find(|g| !friends_near(*g, 2) && !marked(*g))
        {
            return Some(gun);
        }
        let active = |s: bool| {
            self.units
                .iter()
                .filter(move |u| u.is_active() && (u.side == side) == s)
        };
        active(false)
            .filter(|e| !marked(e.at) && active(true).all(|f| f.at.unsigned_distance_to(e.at) > 2))
            .max_by_key(|e| {
                (
                    active(false)
                        .filter(|o| o.at.unsigned_distance_to(e.at) <= 1)
                        .count(),
                    std::cmp::Reverse(e.id),
                )
            })
            .map(|e| e.at)
    }

    /// Spaces a squad must walk from `at` to the nearest of `goals`, around buildings
    /// (units are ignored: they move); `None` if no goal can be reached.
    fn walking_distance(
        &self,
        at: hexx::Hex,
        goals: &[hexx::Hex],
        movement: Movement,
    ) -> Option<u32> {
        let mut seen = vec![false; self.board.len()];
        let mut frontier: Vec<hexx::Hex> = goals.to_vec();
        for g in goals {
            seen[self.board.index(*g)?] = true;
        }
        let mut d = 0;
        while !frontier.is_empty() {
            if frontier.contains(&at) {
                return Some(d);
            }
            let mut next = Vec::new();
            for h in frontier {
                for n in h.all_neighbors() {
                    if let Some(i) = self.board.index(n)
                        && !seen[i]
                        && movement.may_enter(self.terrain(n))
                    {
                        seen[i] = true;
                        next.push(n);
                    }
                }
            }
            frontier = next;
            d += 1;
        }
        None
    }

    /// How good a position is for `id`: a shot on offer, then closeness to its goals; in
    /// a style that looks at them, less the enemy's shots at it
    /// ([`Style::threat_weight`]) and with the cover it stands in ([`Style::cover_worth`]).
    pub(super) fn position_value(&self, id: UnitId, style: &Style) -> f64 {
        let u = &self.units[id.index()];
        let round = u.loaded.unwrap_or(Round::At);
        let shot = self.best_shot(u, round, false, style).map_or(0.0, |s| s.1);
        let reached = self.waypoints_reached.iter().filter(|r| **r).count() as f64;
        let threat = if style.threat_weight > 0.0 {
            style.threat_weight * self.threat(u, style)
        } else {
            0.0
        };
        let cover = if style.cover_worth > 0.0 {
            style.cover_worth * self.cover_at(u)
        } else {
            0.0
        };
        (shot - threat) * 100.0 + reached * 50.0 - self.goal_distance(u, u.at) + cover
    }

    /// The facing whose next hex brings `unit` closest to its goals, if any helps.
    fn best_heading(&self, unit: &Unit) -> Option<crate::grid::Facing> {
        let here = self.goal_distance(unit, unit.at);
        crate::grid::Facing::ALL
            .into_iter()
            .filter_map(|f| {
                let next = unit.at + f.offset();
                let open = self.board.contains(next)
                    && unit.may_enter(self.terrain(next))
                    && self.unit_at(next).is_none();
                open.then(|| (f, self.goal_distance(unit, next)))
            })
            .filter(|(_, d)| *d < here)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(f, _)| f)
    }

    /// Spaces a squad must walk from `at` to its mission goal (an objective it does not
    /// hold), if the mission gives squads one.
    fn squad_goal_distance(&self, unit: &Unit, at: hexx::Hex) -> Option<u32> {
        match &self.mission {
            MissionRules::CaptureObjectives { .. } => {
                let goals: Vec<hexx::Hex> = self
                    .objectives
                    .iter()
                    .filter(|o| o.holder != Some(unit.side))
                    .map(|o| o.at)
                    .collect();
                self.walking_distance(at, &goals, unit.movement)
            }
            MissionRules::Escort { squad, edge, .. } if unit.id == *squad => {
                self.walking_distance(at, &self.edge_hexes(*edge), unit.movement)
            }
            MissionRules::TakeArea { attacker, area } if unit.side.0 == *attacker => {
                self.area_distance(at, area, unit.movement)
            }
            // The attacker's squads clear the mines in the tanks' way, then follow them.
            MissionRules::CrossMinefield { attacker, edge, .. } if unit.side.0 == *attacker => {
                let mines = self.lane_mines(unit.side, *edge);
                if mines.is_empty() {
                    return self.area_distance(at, &self.edge_hexes(*edge), unit.movement);
                }
                let beside: Vec<hexx::Hex> = mines
                    .iter()
                    .flat_map(|m| m.all_neighbors())
                    .filter(|h| self.board.contains(*h) && unit.may_enter(self.terrain(*h)))
                    .collect();
                self.area_distance(at, &beside, unit.movement)
            }
            _ => None,
        }
    }

    /// Rows (or columns) between `at` and `edge`.
    fn rows_from_edge(&self, at: hexx::Hex, edge: Edge) -> u32 {
        let [c, r] = self.board.offset_of(at);
        let rows = match edge {
            Edge::North => r,
            Edge::South => i32::from(self.board.height) - 1 - r,
            Edge::West => c,
            Edge::East => i32::from(self.board.width) - 1 - c,
        };
        rows.unsigned_abs()
    }

    /// The enemy mines `side` knows of, in a fixed order.
    fn enemy_mines(&self, side: PlayerId) -> Vec<hexx::Hex> {
        let mut mines: Vec<hexx::Hex> = self
            .mines_seen_by(side)
            .filter(|m| m.owner != side)
            .map(|m| m.at)
            .collect();
        mines.sort_unstable_by_key(|h| (h.y, h.x));
        mines.dedup();
        mines
    }

    /// Cross Minefield: the first enemy mine on each working tank's straight way to the
    /// edge (the shortest, as if there were no mines): the mines the squads clear. Each
    /// tank gets a lane where it stands, so that the tanks cross abreast rather than queue
    /// for one gap under fire; the tanks themselves plan round the mines left (see
    /// [`Self::crossing_distance`]). None once every tank's way is clear.
    fn lane_mines(&self, side: PlayerId, edge: Edge) -> Vec<hexx::Hex> {
        let known = self.enemy_mines(side);
        let mut lane: Vec<hexx::Hex> = Vec::new();
        if known.is_empty() {
            return lane;
        }
        let goals = self.edge_hexes(edge);
        for tank in self
            .units
            .iter()
            .filter(|u| u.side == side && u.is_active() && u.kind == UnitKind::Tank)
        {
            let make = || self.distance_field(&goals, tank.movement);
            let first = self.with_cached_field(("straight", edge, tank.movement), make, |field| {
                let at_of = |h: hexx::Hex| self.board.index(h).and_then(|i| field[i]);
                let mut at = tank.at;
                let mut left = at_of(at);
                while let Some(d) = left.filter(|d| *d > 0) {
                    let next = at
                        .all_neighbors()
                        .into_iter()
                        .filter(|&n| at_of(n) == Some(d - 1))
                        .min_by_key(|n| (n.y, n.x))?;
                    if known.contains(&next) {
                        return Some(next);
                    }
                    at = next;
                    left = Some(d - 1);
                }
                None
            });
            if let Some(m) = first
                && !lane.contains(&m)
            {
                lane.push(m);
            }
        }
        lane
    }

    /// Cross Minefield: spaces a tank must drive from `at` to the `edge`, where a space
    /// with an enemy mine it knows of counts as [`MINE_DETOUR`] spaces: a tank goes round
    /// a minefield when a lane is open, and otherwise waits at its rim for the squads.
    fn crossing_distance(&self, unit: &Unit, at: hexx::Hex, edge: Edge) -> Option<u32> {
        let i = self.board.index(at)?;
        let mines = self.enemy_mines(unit.side);
        self.with_crossing_field(unit.movement, edge, &mines, |field| field[i])
    }

    /// Runs `read` on the field of [`Self::crossing_distance`] for `mines`.
    fn with_crossing_field<T>(
        &self,
        movement: Movement,
        edge: Edge,
        mines: &[hexx::Hex],
        read: impl FnOnce(&[Option<u32>]) -> T,
    ) -> T {
        let make = || {
            let mut field = vec![None; self.board.len()];
            let mut queue = std::collections::BinaryHeap::new();
            for g in self.edge_hexes(edge) {
                queue.push(std::cmp::Reverse((0, g.x, g.y)));
            }
            while let Some(std::cmp::Reverse((d, x, y))) = queue.pop() {
                let h = hexx::Hex::new(x, y);
                let Some(i) = self.board.index(h) else {
                    continue;
                };
                if field[i].is_some() {
                    continue;
                }
                field[i] = Some(d);
                for n in h.all_neighbors() {
                    if let Some(j) = self.board.index(n)
                        && field[j].is_none()
                        && movement.may_enter(self.terrain(n))
                    {
                        // The cost of a step is paid on the space stepped from, towards
                        // the edge: entering `h` from `n`.
                        let cost = if mines.contains(&h) { MINE_DETOUR } else { 1 };
                        queue.push(std::cmp::Reverse((d + cost, n.x, n.y)));
                    }
                }
            }
            field
        };
        self.with_cached_field(("crossing", edge, movement, mines), make, read)
    }

    /// Spaces to walk from `at` to the nearest of `goals` round buildings, from a field
    /// worked out once per goals and ground and kept per thread (the lookahead asks for
    /// every candidate move).
    fn area_distance(&self, at: hexx::Hex, goals: &[hexx::Hex], movement: Movement) -> Option<u32> {
        self.cached_distance(at, ("area", goals, movement), || {
            self.distance_field(goals, movement)
        })
    }

    /// How far `at` is from what an APC wants: with squads inside, their goal; empty,
    /// a friendly squad on foot far from its goal, and enemy infantry in its weapon's
    /// reach.
    fn apc_goal_distance(&self, unit: &Unit, at: hexx::Hex) -> f64 {
        if let Some(p) = self.riders(unit.id).next() {
            return self
                .squad_goal_distance(p, at)
                .map_or(0.0, |n| 3.0 * f64::from(n));
        }
        let range = f64::from(unit.anti_infantry_range(&self.rules).unwrap_or(0));
        let enemy = self
            .units
            .iter()
            .filter(|t| t.side != unit.side && t.is_active() && t.is_infantry())
            .map(|t| at.unsigned_distance_to(t.at))
            .min()
            .map_or(0.0, |d| {
                (f64::from(d) - (range - 1.0)).max(0.0) + 0.1 * f64::from(d)
            });
        let pickup = self
            .units
            .iter()
            .filter(|s| {
                s.side == unit.side
                    && s.is_active()
                    && s.is_infantry()
                    && s.riding.is_none()
                    && self.squad_goal_distance(s, s.at).is_some_and(|d| d > 3)
            })
            .map(|s| at.unsigned_distance_to(s.at))
            .min()
            .map_or(0.0, |d| 2.0 * f64::from(d.saturating_sub(1)));
        enemy + pickup
    }

    /// How far `at` is from what `unit` wants: just inside gun range of the nearest enemy,
    /// and the mission's waypoints or edge.
    pub(super) fn goal_distance(&self, unit: &Unit, at: hexx::Hex) -> f64 {
        if unit.is_apc() {
            return self.apc_goal_distance(unit, at);
        }
        // A unit the enemy must destroy keeps next to a friendly tank (a squad there
        // cannot be targeted, a tank there has support) rather than seek a fight.
        if matches!(&self.mission, MissionRules::DestroyTarget { target: MissionTarget::Unit(t), .. } if *t == unit.id)
        {
            return self
                .units
                .iter()
                .filter(|f| {
                    f.side == unit.side
                        && f.id != unit.id
                        && f.is_active()
                        && f.kind == UnitKind::Tank
                })
                .map(|f| at.unsigned_distance_to(f.at).saturating_sub(1))
                .min()
                .map_or(0.0, |d| 3.0 * f64::from(d));
        }
        // The escorted squad heads for the edge and nothing else.
        if self.escorted_squad() == Some(unit.id) {
            return self
                .squad_goal_distance(unit, at)
                .map_or(0.0, |n| 3.0 * f64::from(n));
        }
        let range = f64::from(unit.gun_range(&self.rules));
        // A breakthrough's attackers drive for the edge, shooting what they meet on the
        // way, rather than hunting the defenders down.
        let running = matches!(&self.mission, MissionRules::Breakthrough { attacker, .. } | MissionRules::TakeArea { attacker, .. } | MissionRules::CrossMinefield { attacker, .. } if unit.side.0 == *attacker);
        let enemy = self
            .units
            .iter()
            .filter(|t| !running && t.side != unit.side && t.is_active())
            .map(|t| at.unsigned_distance_to(t.at))
            .min()
            // Close to just inside gun range; a gentle pull beyond that finds a way round
            // cover when no shot is on offer.
            .map_or(0.0, |d| {
                (f64::from(d) - (range - 1.0)).max(0.0) + 0.1 * f64::from(d)
            });
        let mission = self.mission_goal_distance(unit, at, range);
        enemy + mission
    }

    /// The mission's part of [`Self::goal_distance`]: how far `at` is from where the
    /// mission wants `unit` (gun `range` spaces), weighted by how much it wants it there.
    fn mission_goal_distance(&self, unit: &Unit, at: hexx::Hex, range: f64) -> f64 {
        match &self.mission {
            MissionRules::CaptureObjectives { .. } if unit.is_infantry() => self
                .squad_goal_distance(unit, at)
                .map_or(0.0, |n| 3.0 * f64::from(n)),
            MissionRules::Training { waypoints } => waypoints
                .iter()
                .zip(&self.waypoints_reached)
                .filter(|(_, reached)| !**reached)
                .map(|(w, _)| at.unsigned_distance_to(*w))
                .min()
                .map_or(0.0, |n| 2.0 * f64::from(n)),
            MissionRules::Breakthrough { attacker, edge } if unit.side.0 == *attacker => {
                // Round the houses when they stand in the way.
                let to_go = self
                    .walking_distance(at, &self.edge_hexes(*edge), unit.movement)
                    .map_or(f64::from(self.rows_from_edge(at, *edge)), f64::from);
                3.0 * to_go
            }
            // Tanks drive for the edge round the mines; squads clear a lane. The
            // defenders hold the ground in front of the edge rather than charge.
            MissionRules::CrossMinefield { attacker, edge, .. } => {
                if unit.side.0 == *attacker {
                    let to_go = if unit.is_infantry() {
                        self.squad_goal_distance(unit, at)
                    } else {
                        self.crossing_distance(unit, at, *edge)
                    };
                    3.0 * to_go.map_or(0.0, f64::from)
                } else {
                    4.0 * f64::from(self.rows_from_edge(at, *edge).saturating_sub(HOLD_DEPTH))
                }
            }
            // The defenders close on the escorted squad, wherever it rides.
            MissionRules::Escort { side, squad, .. } if unit.side.0 != *side => {
                f64::from(at.unsigned_distance_to(self.units[squad.index()].at))
            }
            // The attackers make for a space with a clear line to a target within gun
            // range; the defenders stay near the targets to guard them.
            MissionRules::DestroyTarget { .. } | MissionRules::DisableAaGuns { .. } => {
                self.attack_goal_distance(unit, at, range)
            }
            // The attackers drive for the area round the houses; the defenders hold it.
            MissionRules::TakeArea { attacker, area } => {
                let to_go = self.area_distance(at, area, unit.movement).map_or_else(
                    || {
                        area.iter()
                            .map(|h| at.unsigned_distance_to(*h))
                            .min()
                            .map_or(0.0, f64::from)
                    },
                    f64::from,
                );
                if unit.side.0 == *attacker {
                    3.0 * to_go
                } else {
                    2.0 * to_go
                }
            }
            _ => 0.0,
        }
    }

    /// Destroy Target and Disable AA Guns: how far `at` is from a firing position on a
    /// target (for the attackers), or from the targets (for the defenders, who guard them).
    fn attack_goal_distance(&self, unit: &Unit, at: hexx::Hex, range: f64) -> f64 {
        match self.attack_targets() {
            Some((side, targets)) if !targets.is_empty() => {
                let nearest = targets
                    .iter()
                    .map(|t| at.unsigned_distance_to(*t))
                    .min()
                    .unwrap_or(0);
                if unit.side == side {
                    self.firing_position_distance(unit, at, &targets)
                        .map_or_else(
                            || 2.0 * (f64::from(nearest) - (range - 1.0)).max(0.0),
                            |n| 2.0 * f64::from(n),
                        )
                } else {
                    0.5 * f64::from(nearest.saturating_sub(2))
                }
            }
            _ => 0.0,
        }
    }
}

impl TankCommander {
    /// The move, turn or turret turn that most improves `unit`'s position (one step
    /// lookahead), if one does.
    pub(super) fn drive_choice(
        &self,
        player: PlayerId,
        unit: &Unit,
        legal: &[Action],
        style: &Style,
    ) -> Option<Action> {
        let here = self.position_value(unit.id, style);
        let mut best: Option<(Action, f64)> = None;
        let ahead = self.ahead(unit);
        let mined_ahead =
            self.mines_seen_by(player).any(|m| m.at == ahead) && !self.must_brave_mines(unit);
        for &a in legal {
            let drives = matches!(
                a,
                Action::Move | Action::Turn { .. } | Action::RotateTurret(_)
            );
            if !(drives || Self::is_dash(&a, style)) || (a == Action::Move && mined_ahead) {
                continue;
            }
            if let Action::UseAbility(Ability::MoveMoveMove { spaces }) = a
                && self.dash_meets_mine(player, unit, spaces)
                && !self.must_brave_mines(unit)
            {
                continue;
            }
            let mut next = self.clone();
            let mut scratch = MatchRng::new(0);
            if next.apply(player, &a, &mut scratch).is_err() {
                continue;
            }
            let mut v = next.position_value(unit.id, style);
            // Turning on the spot only pays if it sets up a move closer or a shot.
            if let Action::Turn { .. } = a {
                let closer = self.best_heading(unit).is_some_and(|best| {
                    next.unit(unit.id).facing.steps_to(best) < unit.facing.steps_to(best)
                });
                if !closer && v <= here {
                    continue;
                }
                v += 0.5;
            }
            if best.is_none_or(|b| v > b.1) {
                best = Some((a, v));
            }
        }
        best.filter(|&(a, v)| v > here || (matches!(a, Action::Turn { .. }) && v >= here))
            .map(|b| b.0)
    }

    /// Cross Minefield: an attacking tank drives over the mines when its side has no
    /// squad left to clear them.
    fn must_brave_mines(&self, unit: &Unit) -> bool {
        matches!(&self.mission, MissionRules::CrossMinefield { attacker, .. } if unit.side.0 == *attacker)
            && !self
                .units
                .iter()
                .any(|s| s.side == unit.side && s.is_infantry() && s.is_active())
    }

    /// True when `unit` is a squad on foot, far from its goal, next to a friendly APC with
    /// room that has still to drive this turn.
    fn wants_to_board(&self, unit: &Unit, style: &Style) -> bool {
        unit.is_infantry()
            && unit.riding.is_none()
            && !self.has_activated(unit.id)
            && self
                .squad_goal_distance(unit, unit.at)
                .is_some_and(|d| d > 3)
            && self.units.iter().any(|c| {
                c.side == unit.side
                    && c.is_active()
                    && self.carries(c, unit, style)
                    && !self.has_activated(c.id)
                    && c.at.unsigned_distance_to(unit.at) == 1
                    && self.riders(c.id).count() < usize::from(self.carrier_room(c))
            })
    }

    /// Whether `squad` rides `carrier` to its goal: inside an APC; in the tactical style
    /// also on a tank's hull, unless it is the squad the mission escorts (a hit on the
    /// tank would kill it).
    fn carries(&self, carrier: &Unit, squad: &Unit, style: &Style) -> bool {
        carrier.carries_inside()
            || (style.ride_tanks
                && carrier.kind == UnitKind::Tank
                && self.escorted_squad() != Some(squad.id))
    }

    /// How many squads `carrier` holds: an APC's capacity, or the riders a tank carries.
    fn carrier_room(&self, carrier: &Unit) -> u8 {
        if carrier.carries_inside() {
            self.rules.apc.capacity
        } else {
            self.rules.infantry.riders_per_tank
        }
    }

    /// A breakthrough attacker's dash for the edge once it can get there this
    /// activation: the move or turn that brings it closest, before any shooting (the
    /// battle is won on arrival). Further off it fights its way forward as usual.
    fn run_choice(&self, player: PlayerId, unit: &Unit, legal: &[Action]) -> Option<Action> {
        let (MissionRules::Breakthrough { attacker, edge }
        | MissionRules::CrossMinefield { attacker, edge, .. }) = &self.mission
        else {
            return None;
        };
        let act = self.activation()?;
        let moves_left = self.moves_allowed(unit).saturating_sub(act.moves);
        let to_go = self.walking_distance(unit.at, &self.edge_hexes(*edge), unit.movement)?;
        if unit.side.0 != *attacker || to_go > u32::from(moves_left.min(act.action_points)) {
            return None;
        }
        let here = self.goal_distance(unit, unit.at);
        let ahead = self.ahead(unit);
        let mined_ahead =
            self.mines_seen_by(player).any(|m| m.at == ahead) && !self.must_brave_mines(unit);
        let mut best: Option<(Action, f64)> = None;
        for &a in legal {
            let turning = matches!(a, Action::Turn { .. });
            if !(a == Action::Move && !mined_ahead || turning) {
                continue;
            }
            let mut next = self.clone();
            if next.apply(player, &a, &mut MatchRng::new(0)).is_err() {
                continue;
            }
            let moved = next.unit(unit.id);
            let d = next.goal_distance(moved, moved.at);
            // A turn counts only when it points the tank down a road that gets closer.
            let good = if turning {
                self.best_heading(unit)
                    .is_some_and(|h| moved.facing.steps_to(h) < unit.facing.steps_to(h))
            } else {
                d < here
            };
            if good && best.is_none_or(|b| d < b.1) {
                best = Some((a, d));
            }
        }
        // Drive rather than turn when both help.
        best.map(|b| b.0)
    }

    /// At night, the flare over an enemy that lets `unit` shoot it this activation, if one
    /// would: the enemy with the best shot once lit.
    fn flare_choice(
        &self,
        player: PlayerId,
        unit: &Unit,
        act: &super::state::Activation,
        legal: &[Action],
        style: &Style,
    ) -> Option<Action> {
        let round = unit.loaded?;
        let costs = &self.rules.costs;
        if !self.night || unit.flares_left == 0 || act.action_points < costs.flare + costs.fire {
            return None;
        }
        let mut best: Option<(Action, f64)> = None;
        for t in self
            .units
            .iter()
            .filter(|t| t.side != unit.side && t.is_active() && !self.lit(t.at))
        {
            let a = Action::FireFlare(t.at);
            if !legal.contains(&a) {
                continue;
            }
            let mut next = self.clone();
            if next.apply(player, &a, &mut MatchRng::new(0)).is_err() {
                continue;
            }
            let Some((target, v)) =
                next.best_shot(next.unit(unit.id), round, act.bring_it_down, style)
            else {
                continue;
            };
            if target == FireTarget::Unit(t.id) && v > 0.0 && best.is_none_or(|b| v > b.1) {
                best = Some((a, v));
            }
        }
        best.map(|b| b.0)
    }

    /// What an APC does: shoot a squad, put out a fire, drive, or stop.
    fn apc_choice(&self, player: PlayerId, unit: &Unit, legal: &[Action], style: &Style) -> Action {
        if let Some((a, v)) = self.best_anti_infantry_shot(unit, false, style)
            && v > 0.0
            && legal.contains(&a)
        {
            return a;
        }
        if legal.contains(&Action::Extinguish) {
            return Action::Extinguish;
        }
        if let Some(a) = self.drive_choice(player, unit, legal, &style.moving()) {
            return a;
        }
        self.safety_choice(player, unit, legal, style)
            .unwrap_or(Action::EndActivation)
    }
}

/// A bot of the greedy family: [`decide`] in one style, under one name.
macro_rules! family_bot {
    ($bot:ty, $name:literal, $style:expr) => {
        impl $crate::framework::bot::Bot<TankCommander> for $bot {
            fn name(&self) -> &str {
                $name
            }

            fn choose(
                &mut self,
                game: &TankCommander,
                player: PlayerId,
                _rng: &mut MatchRng,
            ) -> Option<Action> {
                $crate::rules::tank_commander::bot::decide(game, player, &$style)
            }
        }
    };
}
pub(super) use family_bot;

family_bot!(GreedyBot, "greedy", Style::GREEDY);

/// The greedy family's decision for `player`, weighed in `style`: the first of a list of
/// steps that applies (take over a dead crew member's job, call an air strike, dash for
/// the edge, shoot, light a target, reload, drive to a better place, lay smoke or a
/// mine), else the end of the activation.
pub(super) fn decide(game: &TankCommander, player: PlayerId, style: &Style) -> Option<Action> {
    // With hidden mines the bot plans on what its side can see.
    let seen;
    let game = if game.hidden_mines() && game.mines().iter().any(|m| m.owner != player) {
        seen = game.view(player);
        &seen
    } else {
        game
    };
    let legal = game.legal(player);
    if legal.is_empty() {
        return None;
    }
    let Some(act) = game.activation() else {
        return activation_choice(game, &legal, style);
    };
    let unit = game.unit(act.unit);
    if unit.is_infantry() {
        return Some(game.squad_choice(player, unit, &legal, style));
    }
    if unit.is_apc() {
        return Some(game.apc_choice(player, unit, &legal, style));
    }
    Some(tank_choice(game, player, unit, act, &legal, style))
}

/// The unit to activate: a squad about to board an APC, else the one with the best
/// position on offer, else the first legal action.
fn activation_choice(game: &TankCommander, legal: &[Action], style: &Style) -> Option<Action> {
    // Activate the unit with the best shot on offer, else the first one.
    let best = legal
        .iter()
        .filter_map(|a| match a {
            // A squad about to board an APC goes before the APC drives off.
            Action::Activate(id) if game.wants_to_board(game.unit(*id), style) => {
                Some((*a, f64::INFINITY))
            }
            Action::Activate(id) => Some((*a, game.position_value(*id, &style.moving()))),
            _ => None,
        })
        .max_by(|a, b| a.1.total_cmp(&b.1));
    best.map(|b| b.0).or_else(|| legal.first().copied())
}

/// The active tank's action: the first of [`decide`]'s steps that applies, else the end
/// of its activation.
fn tank_choice(
    game: &TankCommander,
    player: PlayerId,
    unit: &Unit,
    act: &Activation,
    legal: &[Action],
    style: &Style,
) -> Action {
    let has = |a: Action| legal.contains(&a);
    if let Some(a) = opening_step(game, player, unit, act, legal, style) {
        return a;
    }
    if let Some(a) = shooting_step(game, player, unit, act, legal, style) {
        return a;
    }
    // 2. Put out a fire.
    if has(Action::Extinguish) {
        return Action::Extinguish;
    }
    if let Some(a) = reload_step(game, unit, act, legal, style) {
        return a;
    }
    // 4. More actions when the enemy is near.
    if has(Action::UseAbility(Ability::BoomingVoice))
        && (!style.plan_abilities || style.rush)
        && game.nearest_enemy_distance(unit) <= u32::from(unit.gun_range(game.rules())) + 2
    {
        return Action::UseAbility(Ability::BoomingVoice);
    }
    // 4½. With no shot to be had this activation, keep out of the enemy's next reach.
    if let Some(a) = game.standoff_choice(player, unit, legal, style) {
        return a;
    }
    // 5. Turn the turret, turn or move to the best position (one step lookahead).
    if let Some(a) = game.drive_choice(player, unit, legal, &style.moving()) {
        return a;
    }
    // 5½. Settled: spend what is left on safety (cover, front armor to the threat,
    // out of a gun's sight, smoke between the tank and the guns).
    if let Some(a) = game.safety_choice(player, unit, legal, style) {
        return a;
    }
    // 6. Lay a mine on the way the nearest enemy would come.
    if unit.mines_left > 0
        && let Some(hex) = legal
            .iter()
            .filter_map(|a| match a {
                Action::LayMine(h) => Some(*h),
                _ => None,
            })
            .min_by_key(|h| game.enemy_distance(unit, *h))
    {
        return Action::LayMine(hex);
    }
    Action::EndActivation
}

/// Steps 0 to ¾ of [`decide`], before any shot: a Lieutenant Commander taking over, an
/// air strike, a breakthrough dash, or a crew ability that buys more shooting.
fn opening_step(
    game: &TankCommander,
    player: PlayerId,
    unit: &Unit,
    act: &Activation,
    legal: &[Action],
    style: &Style,
) -> Option<Action> {
    let has = |a: Action| legal.contains(&a);
    // 0. The Lieutenant Commander takes over the most useful dead crew member's job.
    if let Some(role) = Role::BY_NEED
        .into_iter()
        .find(|r| has(Action::TakeOver(*r)))
    {
        return Some(Action::TakeOver(role));
    }
    // 0½. Call the air strike on the enemy it would catch with the most company, away
    // from friends (its scatter line can reach six spaces).
    // Not while the enemy's AA guns would more likely than not drive it off.
    if (unit.air_strike_ready || game.free_strikes(player) > 0)
        && game.air_strike_gets_through(player).to_f64() >= 0.5
        && let Some(hex) = game.air_strike_mark(player)
        && has(Action::CallAirStrike(hex))
    {
        return Some(Action::CallAirStrike(hex));
    }

    // ½. A breakthrough attacker drives for the edge first.
    if let Some(a) = game.run_choice(player, unit, legal) {
        return Some(a);
    }
    // ¾. The crew ability that buys the most shooting this activation.
    game.ability_plan(unit, act, legal, style)
}

/// Steps 1 to 1½ of [`decide`]: the main gun's best shot (with "Bring it down!" first
/// when that is worth it), a flare to light a target, or the anti-infantry weapon.
fn shooting_step(
    game: &TankCommander,
    player: PlayerId,
    unit: &Unit,
    act: &Activation,
    legal: &[Action],
    style: &Style,
) -> Option<Action> {
    let has = |a: Action| legal.contains(&a);
    // 1. Shoot, if a shot does any expected damage.
    if let Some(round) = unit.loaded
        && let Some((target, value)) = game.best_shot(unit, round, act.bring_it_down, style)
        && value > 0.0
        && has(Action::Fire(target))
    {
        let boosted = game
            .best_shot(unit, round, true, style)
            .map_or(0.0, |b| b.1);
        if !act.bring_it_down
            && !style.plan_abilities
            && boosted > value * 1.2
            && has(Action::UseAbility(Ability::BringItDown))
        {
            return Some(Action::UseAbility(Ability::BringItDown));
        }
        return Some(Action::Fire(target));
    }
    // 1¼. At night, light up an enemy the dark hides, to shoot it.
    if let Some(a) = game.flare_choice(player, unit, act, legal, style) {
        return Some(a);
    }
    // 1½. The anti-infantry weapon, which needs no loading, at a squad in reach.
    if let Some((a, v)) = game.best_anti_infantry_shot(unit, act.bring_it_down, style)
        && v > 0.0
        && has(a)
    {
        return Some(a);
    }
    None
}

/// Step 3 of [`decide`]: an empty gun loads the round that would do more to the best
/// target (with "Quick load!" first when loading costs anything).
fn reload_step(
    game: &TankCommander,
    unit: &Unit,
    act: &Activation,
    legal: &[Action],
    style: &Style,
) -> Option<Action> {
    let has = |a: Action| legal.contains(&a);
    if unit.loaded.is_some() {
        return None;
    }
    let value = |r: Round| game.best_shot(unit, r, false, style).map_or(0.0, |b| b.1);
    let (he, at) = (value(Round::He), value(Round::At));
    // HE does as much as AT to a squad or a building, and sets fires: the
    // tactical style loads it whenever it is worth at least as much.
    let better = if style.prefer_he {
        he >= at && he > 0.0
    } else {
        he > at
    };
    let round = if unit.rounds().contains(&Round::He) && better {
        Round::He
    } else {
        Round::At
    };
    if has(Action::Load(round)) {
        let cost = unit.load_cost(game.rules(), act.quick_load).unwrap_or(0);
        if cost > 0 && !style.plan_abilities && has(Action::UseAbility(Ability::QuickLoad)) {
            return Some(Action::UseAbility(Ability::QuickLoad));
        }
        return Some(Action::Load(round));
    }
    None
}
