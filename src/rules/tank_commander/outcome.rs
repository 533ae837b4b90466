//! How the battle ends. Derived from the state, never stored.

use super::setup::{Edge, MissionRules, MissionTarget, Terrain, TurnLimitResult, UnitKind};
use super::state::{TankCommander, UnitId};
use crate::framework::{Outcome, PlayerId};

impl TankCommander {
    /// True when `side` has no unit left in the fight.
    #[must_use]
    pub fn side_knocked_out(&self, side: PlayerId) -> bool {
        !self.units.iter().any(|u| u.side == side && u.is_active())
    }

    /// The result, if the battle is over.
    #[must_use]
    pub fn outcome_now(&self) -> Option<Outcome> {
        self.first_player?;
        let (a, b) = (PlayerId(0), PlayerId(1));
        if let Some(loser) = self.conceded {
            let winner = if loser == a { b } else { a };
            return Some(Outcome::win(
                winner,
                format!("{} conceded", self.side_name(loser)),
            ));
        }
        let (a_out, b_out) = (self.side_knocked_out(a), self.side_knocked_out(b));
        // Missions with an attacker decide the turn limit themselves; the others leave it
        // to the scenario's rule below when they decide nothing.
        let decided = match &self.mission {
            MissionRules::DestroyAll => self.knock_out_outcome(a_out, b_out),
            MissionRules::Breakthrough { attacker, edge } => {
                return self.breakthrough_outcome(PlayerId(*attacker), *edge);
            }
            MissionRules::CrossMinefield {
                attacker,
                edge,
                tanks,
            } => return self.cross_minefield_outcome(PlayerId(*attacker), *edge, *tanks),
            MissionRules::Training { .. } => self.training_outcome(),
            MissionRules::Escort { side, squad, edge } => {
                self.escort_outcome(PlayerId(*side), *squad, *edge)
            }
            MissionRules::DestroyTarget { attacker, target } => {
                return self.destroy_target_outcome(PlayerId(*attacker), *target);
            }
            MissionRules::DisableAaGuns { attacker } => {
                return self.disable_aa_outcome(PlayerId(*attacker));
            }
            MissionRules::TakeArea { attacker, .. } => {
                return self.take_area_outcome(PlayerId(*attacker));
            }
            MissionRules::CaptureObjectives { count } => self.capture_outcome(*count, a_out, b_out),
        };
        if decided.is_some() {
            return decided;
        }
        if self.turn > self.turn_limit {
            return Some(self.turn_limit_result());
        }
        None
    }

    /// The win or draw once a side, or both, has no unit left in the fight.
    fn knock_out_outcome(&self, a_out: bool, b_out: bool) -> Option<Outcome> {
        let (a, b) = (PlayerId(0), PlayerId(1));
        match (a_out, b_out) {
            (true, true) => Some(Outcome::draw("both sides were knocked out")),
            (true, false) => Some(self.destroyed_win(b, a)),
            (false, true) => Some(self.destroyed_win(a, b)),
            (false, false) => None,
        }
    }

    /// Breakthrough: the attacker wins with a working tank on the `edge`.
    fn breakthrough_outcome(&self, attacker: PlayerId, edge: Edge) -> Option<Outcome> {
        let defender = opponent(attacker);
        if let Some(u) = self.units.iter().find(|u| {
            u.side == attacker
                && u.kind == UnitKind::Tank
                && u.is_active()
                && self.on_edge(u.at, edge)
        }) {
            return Some(Outcome::win(
                attacker,
                format!("{} broke through to the {edge:?} edge", u.name),
            ));
        }
        self.attack_not_won(attacker, defender, true, || {
            format!("{} held until the turn limit", self.side_name(defender))
        })
    }

    /// Cross the Minefield: the attacker wins with `tanks` working tanks on the `edge`,
    /// and loses once it has fewer than that.
    fn cross_minefield_outcome(
        &self,
        attacker: PlayerId,
        edge: Edge,
        tanks: u8,
    ) -> Option<Outcome> {
        let defender = opponent(attacker);
        let working = || {
            self.units
                .iter()
                .filter(move |u| u.side == attacker && u.kind == UnitKind::Tank)
                .filter(|u| u.is_active())
        };
        let across: Vec<&str> = working()
            .filter(|u| self.on_edge(u.at, edge))
            .map(|u| u.name.as_str())
            .collect();
        if across.len() >= usize::from(tanks) {
            return Some(Outcome::win(
                attacker,
                format!("{} crossed the minefield", across.join(" and ")),
            ));
        }
        if working().count() < usize::from(tanks) {
            return Some(Outcome::win(
                defender,
                format!(
                    "{} has fewer than {tanks} working tank(s) left to cross",
                    self.side_name(attacker)
                ),
            ));
        }
        self.attack_not_won(attacker, defender, true, || {
            format!("{} held until the turn limit", self.side_name(defender))
        })
    }

    /// Training: the trainee wins with every waypoint reached and every target knocked
    /// out, loses with its tank, and draws when time runs out.
    fn training_outcome(&self) -> Option<Outcome> {
        let (a, b) = (PlayerId(0), PlayerId(1));
        let targets_left = self
            .units
            .iter()
            .filter(|u| u.side == b && u.is_active())
            .count();
        let waypoints_left = self.waypoints_reached.iter().filter(|r| !**r).count();
        if targets_left == 0 && waypoints_left == 0 {
            return Some(Outcome::win(
                a,
                "every waypoint reached and every target knocked out",
            ));
        }
        if !self
            .units
            .iter()
            .any(|u| u.side == a && u.kind == UnitKind::Tank && u.is_active())
        {
            return Some(Outcome::win(b, "the trainee's tank was knocked out"));
        }
        if self.turn > self.turn_limit {
            return Some(Outcome::draw(format!(
                "time ran out with {targets_left} target(s) and {waypoints_left} waypoint(s) left"
            )));
        }
        None
    }

    /// Escort: the escort wins when `squad` reaches the `edge` alive, or when the
    /// defenders are knocked out; the defender wins when the squad is lost or the turn
    /// limit passes.
    fn escort_outcome(&self, escort: PlayerId, squad: UnitId, edge: Edge) -> Option<Outcome> {
        let defender = opponent(escort);
        let s = &self.units[squad.index()];
        if !s.is_active() {
            return Some(Outcome::win(
                defender,
                format!("{} was destroyed before it got through", s.name),
            ));
        }
        if self.on_edge(s.at, edge) {
            let how = match s.riding {
                Some(c) => format!(" inside {}", self.units[c.index()].name),
                None => String::new(),
            };
            return Some(Outcome::win(
                escort,
                format!("{} reached the {edge:?} edge alive{how}", s.name),
            ));
        }
        if self.side_knocked_out(defender) {
            return Some(self.destroyed_win(escort, defender));
        }
        if self.turn > self.turn_limit {
            return Some(Outcome::win(
                defender,
                format!(
                    "{} held until the turn limit: {} never got through",
                    self.side_name(defender),
                    s.name
                ),
            ));
        }
        None
    }

    /// Destroy Target: the attacker wins once `target` is down.
    fn destroy_target_outcome(&self, attacker: PlayerId, target: MissionTarget) -> Option<Outcome> {
        let defender = opponent(attacker);
        if self.target_standing().is_none() {
            let how = match target {
                MissionTarget::Unit(id) => {
                    format!("{} was knocked out", self.units[id.index()].name)
                }
                MissionTarget::Building(h) => {
                    format!("the building at {} was brought down", self.label(h))
                }
            };
            return Some(Outcome::win(attacker, how));
        }
        self.attack_not_won(attacker, defender, false, || {
            format!(
                "{} held until the turn limit: the target still stands",
                self.side_name(defender)
            )
        })
    }

    /// Disable AA Guns: the attacker wins once every AA gun against it is knocked out.
    fn disable_aa_outcome(&self, attacker: PlayerId) -> Option<Outcome> {
        let defender = opponent(attacker);
        if self.aa_guns_against(attacker) == 0 {
            return Some(Outcome::win(
                attacker,
                format!(
                    "{} knocked out every AA gun of {}",
                    self.side_name(attacker),
                    self.side_name(defender)
                ),
            ));
        }
        self.attack_not_won(attacker, defender, false, || {
            let guns = self.aa_guns_against(attacker);
            format!(
                "{} held until the turn limit: {guns} AA gun{} still stand{}",
                self.side_name(defender),
                if guns == 1 { "" } else { "s" },
                if guns == 1 { "s" } else { "" },
            )
        })
    }

    /// Take the Area: the attacker wins once a turn ends with it alone in the area.
    fn take_area_outcome(&self, attacker: PlayerId) -> Option<Outcome> {
        let defender = opponent(attacker);
        if let Some(turn) = self.area_taken_on {
            return Some(Outcome::win(
                attacker,
                format!(
                    "{} held the area alone at the end of turn {turn}",
                    self.side_name(attacker)
                ),
            ));
        }
        self.attack_not_won(attacker, defender, true, || {
            format!(
                "{} held until the turn limit: the area was never taken",
                self.side_name(defender)
            )
        })
    }

    /// Capture Objectives: a side wins holding `count` objectives, and more than the
    /// other, at a turn's end; else by knocking the other out, or holding more at the
    /// turn limit.
    fn capture_outcome(&self, count: u8, a_out: bool, b_out: bool) -> Option<Outcome> {
        let (a, b) = (PlayerId(0), PlayerId(1));
        // Decided when a turn ends, so that the side that moves second in the
        // turn can still answer a capture.
        let held = |side: PlayerId| {
            self.held_at_turn_end
                .get(side.index())
                .copied()
                .unwrap_or(0)
        };
        for (side, other) in [(a, b), (b, a)] {
            let n = held(side);
            if n >= count && n > held(other) {
                return Some(Outcome::win(
                    side,
                    format!(
                        "{} held {n} objective{} at the end of turn {}",
                        self.side_name(side),
                        if n == 1 { "" } else { "s" },
                        self.turn
                    ),
                ));
            }
        }
        if let Some(outcome) = self.knock_out_outcome(a_out, b_out) {
            return Some(outcome);
        }
        if self.turn > self.turn_limit {
            let (ha, hb) = (self.objectives_held(a), self.objectives_held(b));
            let held = |side, n: usize| {
                Outcome::win(
                    side,
                    format!(
                        "turn limit: {} holds more objectives ({n})",
                        self.side_name(side)
                    ),
                )
            };
            match ha.cmp(&hb) {
                std::cmp::Ordering::Greater => return Some(held(a, ha)),
                std::cmp::Ordering::Less => return Some(held(b, hb)),
                std::cmp::Ordering::Equal => {}
            }
        }
        None
    }

    /// How an attack that has not yet reached its goal ends: the defender wins once the
    /// attackers are knocked out, or when the turn limit passes (`held` says what it held);
    /// with `rout`, knocking out every defender wins it for the attacker.
    fn attack_not_won(
        &self,
        attacker: PlayerId,
        defender: PlayerId,
        rout: bool,
        held: impl FnOnce() -> String,
    ) -> Option<Outcome> {
        if self.side_knocked_out(attacker) {
            return Some(self.destroyed_win(defender, attacker));
        }
        if rout && self.side_knocked_out(defender) {
            return Some(self.destroyed_win(attacker, defender));
        }
        (self.turn > self.turn_limit).then(|| Outcome::win(defender, held()))
    }

    fn destroyed_win(&self, winner: PlayerId, loser: PlayerId) -> Outcome {
        Outcome::win(
            winner,
            format!("every unit of {} was knocked out", self.side_name(loser)),
        )
    }

    /// Where a Destroy Target mission's target stands, while it does (a working unit, or
    /// a building not yet rubble); `None` once it is down, or in another mission.
    #[must_use]
    pub fn target_standing(&self) -> Option<hexx::Hex> {
        match &self.mission {
            MissionRules::DestroyTarget { target, .. } => match *target {
                MissionTarget::Unit(id) => {
                    let t = &self.units[id.index()];
                    t.is_active().then_some(t.at)
                }
                MissionTarget::Building(h) => (self.terrain(h) == Terrain::Building).then_some(h),
            },
            _ => None,
        }
    }

    /// The spaces a Take Area mission's attacker must hold, and that side.
    #[must_use]
    pub fn goal_area(&self) -> Option<(PlayerId, &[hexx::Hex])> {
        match &self.mission {
            MissionRules::TakeArea { attacker, area } => Some((PlayerId(*attacker), area)),
            _ => None,
        }
    }

    /// Working units of `side` that count in an area: anything still in the fight but
    /// static targets and emplacements (a squad inside an APC stands where it does).
    pub(crate) fn units_in_area<'a>(
        &'a self,
        side: PlayerId,
        area: &'a [hexx::Hex],
    ) -> impl Iterator<Item = &'a super::state::Unit> + 'a {
        self.units.iter().filter(move |u| {
            u.side == side
                && u.is_active()
                && !matches!(u.kind, UnitKind::Target | UnitKind::AaGun)
                && area.contains(&u.at)
        })
    }

    /// True when, in a Take Area mission, a working attacker stands in the area and no
    /// working defender does.
    #[must_use]
    pub fn area_held_by_attacker(&self) -> bool {
        let Some((attacker, area)) = self.goal_area() else {
            return false;
        };
        let defender_there = self
            .units
            .iter()
            .any(|u| u.side != attacker && u.is_active() && area.contains(&u.at));
        !defender_there && self.units_in_area(attacker, area).next().is_some()
    }

    /// The squad an Escort mission must bring through.
    #[must_use]
    pub fn escorted_squad(&self) -> Option<UnitId> {
        match &self.mission {
            MissionRules::Escort { squad, .. } => Some(*squad),
            _ => None,
        }
    }

    /// The passable hexes of `edge`, where a breakthrough or an escort ends.
    #[must_use]
    pub fn edge_hexes(&self, edge: Edge) -> Vec<hexx::Hex> {
        self.board
            .hexes()
            .filter(|h| self.on_edge(*h, edge) && !self.terrain(*h).is_impassable())
            .collect()
    }

    /// The edge the mission sends a side to, and that side: Breakthrough, Cross Minefield
    /// and Escort.
    #[must_use]
    pub fn goal_edge(&self) -> Option<(PlayerId, Edge)> {
        match &self.mission {
            MissionRules::Breakthrough { attacker, edge }
            | MissionRules::CrossMinefield { attacker, edge, .. } => {
                Some((PlayerId(*attacker), *edge))
            }
            MissionRules::Escort { side, edge, .. } => Some((PlayerId(*side), *edge)),
            _ => None,
        }
    }

    pub(crate) fn on_edge(&self, hex: hexx::Hex, edge: Edge) -> bool {
        let [c, r] = self.board.offset_of(hex);
        match edge {
            Edge::North => r == 0,
            Edge::South => r == i32::from(self.board.height) - 1,
            Edge::West => c == 0,
            Edge::East => c == i32::from(self.board.width) - 1,
        }
    }

    fn turn_limit_result(&self) -> Outcome {
        let limit = self.turn_limit;
        match self.at_turn_limit {
            TurnLimitResult::Draw => Outcome::draw(format!("the {limit}-turn limit was reached")),
            TurnLimitResult::Points => {
                let score = |side: PlayerId| {
                    let active = self
                        .units
                        .iter()
                        .filter(|u| u.side == side && u.is_active());
                    (
                        active.clone().count(),
                        active.map(|u| u32::from(u.hull)).sum::<u32>(),
                    )
                };
                let (sa, sb) = (score(PlayerId(0)), score(PlayerId(1)));
                let says = |s: (usize, u32)| format!("{} unit(s), {} hull point(s)", s.0, s.1);
                let win = |side: PlayerId, mine, theirs| {
                    let why = format!(
                        "turn limit: {} has {} against {}",
                        self.side_name(side),
                        says(mine),
                        says(theirs)
                    );
                    Outcome::win(side, why)
                };
                match sa.cmp(&sb) {
                    std::cmp::Ordering::Greater => win(PlayerId(0), sa, sb),
                    std::cmp::Ordering::Less => win(PlayerId(1), sb, sa),
                    std::cmp::Ordering::Equal => Outcome::draw(format!(
                        "turn limit reached with both sides at {}",
                        says(sa)
                    )),
                }
            }
        }
    }
}

/// The side playing against `side`.
fn opponent(side: PlayerId) -> PlayerId {
    let (a, b) = (PlayerId(0), PlayerId(1));
    if side == a { b } else { a }
}
