//! Planning aids for players: where the active unit can drive this activation, and the
//! cheapest orders that take it there.
//!
//! Routes are found by playing the rules themselves on copies of the battle (moves and
//! hull turns roll no dice), so a route's cost is exactly what the rules will charge.

use std::collections::{BinaryHeap, HashMap};

use hexx::Hex;

use super::{Action, TankCommander, Unit};
use crate::framework::{Game, MatchRng};
use crate::grid::{Facing, Rotation};

/// A hex the active unit can reach, the cheapest way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub to: Hex,
    /// The hull facing on arrival.
    pub facing: Facing,
    /// Action points the orders cost.
    pub cost: u8,
    /// The orders, in play order (moves and hull turns with the turret following).
    pub actions: Vec<Action>,
}

struct Node {
    cost: u8,
    actions: Vec<Action>,
    state: TankCommander,
}

impl PartialEq for Node {
    fn eq(&self, other: &Self) -> bool {
        (self.cost, self.actions.len()) == (other.cost, other.actions.len())
    }
}

impl Eq for Node {}

impl Ord for Node {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // Cheapest first, then fewest orders.
        (other.cost, other.actions.len()).cmp(&(self.cost, self.actions.len()))
    }
}

impl PartialOrd for Node {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl TankCommander {
    /// Every other hex the active unit can reach with the action points it has left, with
    /// the cheapest orders (moves and hull turns) that get it there. Empty when no unit
    /// is active.
    #[must_use]
    pub fn routes(&self) -> Vec<Route> {
        let Some(act) = self.activation() else {
            return Vec::new();
        };
        let (unit, start_ap, player) = (act.unit, act.action_points, self.current_side());
        let origin = self.unit(unit).at;
        // A squad steps in any direction, so which way it faces does not matter.
        let infantry = self.unit(unit).is_infantry();
        let key_of = |u: &super::Unit| (u.at, if infantry { Facing::N } else { u.facing });
        let mut best: HashMap<(Hex, Facing), u8> = HashMap::new();
        let mut found: HashMap<Hex, Route> = HashMap::new();
        let mut queue = BinaryHeap::new();
        queue.push(Node {
            cost: 0,
            actions: Vec::new(),
            state: self.clone(),
        });
        // Moves and turns roll no dice; a generator is needed only to call the rules.
        let mut rng = MatchRng::new(0);
        while let Some(node) = queue.pop() {
            let u = node.state.unit(unit);
            let key = key_of(u);
            if best.get(&key).is_some_and(|&c| c <= node.cost) && !node.actions.is_empty() {
                continue;
            }
            best.insert(key, node.cost);
            if u.at != origin {
                note_route(&mut found, u, &node);
            }
            if node.state.outcome().is_some() {
                continue;
            }
            for order in drive_orders(infantry) {
                if node.state.check(player, &order).is_err() {
                    continue;
                }
                let mut next = node.state.clone();
                if next.apply(player, &order, &mut rng).is_err() {
                    continue;
                }
                let Some(left) = next.activation().map(|a| a.action_points) else {
                    continue;
                };
                let cost = start_ap.saturating_sub(left);
                let nu = next.unit(unit);
                if best.get(&key_of(nu)).is_some_and(|&c| c <= cost) {
                    continue;
                }
                let mut actions = node.actions.clone();
                actions.push(order);
                queue.push(Node {
                    cost,
                    actions,
                    state: next,
                });
            }
        }
        let mut routes: Vec<Route> = found.into_values().collect();
        routes.sort_by_key(|r| (r.cost, r.to.x, r.to.y));
        routes
    }
}

/// Keeps `node`'s orders as the route to where they leave `u`, if they are the cheapest
/// (then the fewest) found so far.
fn note_route(found: &mut HashMap<Hex, Route>, u: &Unit, node: &Node) {
    let better = found
        .get(&u.at)
        .is_none_or(|r| (node.cost, node.actions.len()) < (r.cost, r.actions.len()));
    if better {
        found.insert(
            u.at,
            Route {
                to: u.at,
                facing: u.facing,
                cost: node.cost,
                actions: node.actions.clone(),
            },
        );
    }
}

/// The orders routes are made of: a squad's steps, or a vehicle's moves and hull turns
/// with the turret following.
fn drive_orders(infantry: bool) -> Vec<Action> {
    if infantry {
        Facing::ALL.into_iter().map(Action::Step).collect()
    } else {
        vec![
            Action::Move,
            Action::Turn {
                rotation: Rotation::Left,
                turret_follows: true,
            },
            Action::Turn {
                rotation: Rotation::Right,
                turret_follows: true,
            },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framework::Match;
    use crate::rules::tank_commander::{Rules, Scenario};

    fn active_battle() -> Match<TankCommander> {
        let rules = Rules::builtin();
        let scenario = Scenario::builtin_default();
        let mut m = Match::new(TankCommander::new(&scenario, &rules).unwrap(), 3);
        let side = m.state().to_act()[0];
        let first = m
            .state()
            .legal_actions(side)
            .into_iter()
            .find(|a| matches!(a, Action::Activate(_)))
            .unwrap();
        m.play(side, &first).unwrap();
        m
    }

    #[test]
    fn routes_play_out_at_their_stated_cost() {
        let m = active_battle();
        let battle = m.state();
        let routes = battle.routes();
        assert!(!routes.is_empty());
        let ap = battle.activation().unwrap().action_points;
        let unit = battle.activation().unwrap().unit;
        let side = battle.current_side();
        for route in &routes {
            let mut copy = battle.clone();
            let mut rng = MatchRng::new(1);
            for a in &route.actions {
                copy.apply(side, a, &mut rng).unwrap();
            }
            assert_eq!(copy.unit(unit).at, route.to);
            let left = copy.activation().unwrap().action_points;
            assert_eq!(ap - left, route.cost, "{route:?}");
            assert!(route.cost <= ap);
        }
    }

    #[test]
    fn straight_ahead_costs_one_move() {
        let m = active_battle();
        let battle = m.state();
        let u = battle.unit(battle.activation().unwrap().unit);
        let ahead = battle.ahead(u);
        let routes = battle.routes();
        if battle.check(battle.current_side(), &Action::Move).is_ok() {
            let r = routes.iter().find(|r| r.to == ahead).unwrap();
            assert_eq!(r.actions, vec![Action::Move]);
            assert_eq!(r.cost, battle.move_cost(u));
        }
    }

    #[test]
    fn no_routes_without_an_active_unit() {
        let rules = Rules::builtin();
        let scenario = Scenario::builtin_default();
        let m = Match::new(TankCommander::new(&scenario, &rules).unwrap(), 3);
        assert!(m.state().routes().is_empty());
    }
}
