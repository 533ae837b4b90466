//! A combat turn once both orders are in: reveal, Driving, range, facings, ram, fire.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::action::{Action, Direction, Presented};
use super::matrix::{AppliedRow, Collision, Row, applied_row, collision};
use super::setup::{BothOpening, CollisionArmor, DrivingTie, DuelSetup, FireOrder, LocationArmor};
use super::{DuelTank, RangeDuel};
use crate::framework::{Game, MatchRng, Outcome, PlayerId};
use crate::rules::tank_commander::setup::ArmorFacing;
use crate::rules::tank_commander::state::{Role, RoleState};

/// One modifier of a roll, with its reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    pub label: String,
    pub value: i8,
}

impl Modifier {
    fn new(label: impl Into<String>, value: i8) -> Self {
        Self {
            label: label.into(),
            value,
        }
    }
}

/// Why a tank shows the facing it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FacingReason {
    /// It closed the range: front.
    Closing,
    /// It opened the range: rear.
    Opening,
    /// It opened the range while the enemy did too (the `both_opening` reading).
    BothOpening,
    /// The Driving winner chose, as its order said (usually its own front, the enemy's
    /// rear).
    Choice { by: PlayerId },
    /// Nobody won Driving, and the matrix leaves it to the tank itself: front.
    OwnChoice,
    /// Random: a d4, 1 front, 2 left, 3 right, 4 rear.
    Random { roll: u8 },
}

/// A crew wound.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wound {
    /// The die that picked the member: `pick` of `of` living members, in crew order.
    pub pick: u8,
    pub of: u8,
    pub role: Role,
    pub name: String,
    pub killed: bool,
    /// The medkit treated the wound: it carries no penalty.
    pub treated: bool,
    /// The lieutenant takes over the killed member's role.
    pub lieutenant_takes_over: bool,
}

/// Something that happened, with its reasons.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Fact {
    /// The duel starts.
    Began {
        tanks: [String; 2],
        range: u8,
        range_name: String,
        turn_limit: u16,
    },
    /// A driver has given its order (what it is stays hidden until the reveal).
    Chosen { player: PlayerId },
    /// Both orders are shown, with the matrix row that applies.
    Revealed {
        turn: u16,
        orders: [Action; 2],
        row: AppliedRow,
    },
    /// A Driving test: every die, every modifier, the total against the target.
    DrivingTest {
        player: PlayerId,
        dice: Vec<u8>,
        modifiers: Vec<Modifier>,
        total: i16,
        target: u8,
        passed: bool,
        /// A re-roll to break a tie: it decides the winner, not the pass.
        reroll: bool,
    },
    /// Who wins Driving: the higher total; `None` on a tie.
    DrivingWinner {
        winner: Option<PlayerId>,
        totals: [i16; 2],
    },
    /// The tanks shot past each other: the range would have gone closer than Adjacent.
    Overshoot { to: u8, to_name: String },
    /// A tank tries to ram.
    RamAttempt {
        rammer: PlayerId,
        passed: bool,
        succeeded: bool,
    },
    /// The range band after movement.
    RangeChanged {
        from: u8,
        from_name: String,
        to: u8,
        to_name: String,
        /// The shift the matrix gave (negative is closer).
        shift: i16,
        reason: String,
    },
    /// The facing a tank shows the enemy this turn.
    Facing {
        player: PlayerId,
        facing: Presented,
        reason: FacingReason,
    },
    /// A tank went hull down; `protected` when its Driving test passed.
    HullDown { player: PlayerId, protected: bool },
    /// A ram lands.
    Collision {
        rammer: PlayerId,
        target: PlayerId,
        rammer_facing: Presented,
        target_facing: Presented,
        kind: Collision,
    },
    /// The damage one tank takes in a collision.
    CollisionDamage {
        player: PlayerId,
        /// The rammer (`true`) or the rammed.
        attacker: bool,
        kind: Collision,
        /// The formula with its numbers filled in.
        formula: String,
        dice: Vec<u8>,
        points: u8,
        hull_lost: u8,
        /// A knock below one hull point: the d6 for a crew wound.
        glancing_roll: Option<u8>,
    },
    /// A tank cannot fire this turn.
    CannotFire { player: PlayerId, why: String },
    /// A shot, with every roll.
    Shot {
        shooter: PlayerId,
        target: PlayerId,
        band: u8,
        band_name: String,
        needed: u8,
        modifiers: Vec<Modifier>,
        roll: u8,
        hit: bool,
        /// The location d6 and its row.
        location_roll: Option<u8>,
        location: Option<String>,
        turret: bool,
        armor_facing: Option<ArmorFacing>,
        armor: u8,
        /// Hull Down negated the hit.
        negated: bool,
        penetration_roll: Option<u8>,
        strength: u8,
        penetrating: bool,
        glancing_roll: Option<u8>,
    },
    /// A crew member is wounded or killed.
    Wounded { player: PlayerId, wound: Wound },
    /// Hull points lost.
    HullLost {
        player: PlayerId,
        lost: u8,
        left: u8,
    },
    /// A tank is out of the duel.
    KnockedOut { player: PlayerId, why: String },
    /// The duel is over.
    Ended { outcome: Outcome },
}

/// The to-hit number of `tank` at band `range`.
pub(crate) fn to_hit(
    setup: &DuelSetup,
    tank: &DuelTank,
    range: u8,
) -> Result<(u8, Vec<Modifier>), String> {
    let tr = &setup.tank_rules;
    if tank.role_state(Role::Gunner) == RoleState::Out {
        return Err("nobody is left to fire the gun".into());
    }
    if !tank.loaded {
        return Err("the gun is empty and nobody is left to load it".into());
    }
    let band = setup.table.band(range);
    let reach = tank.gun_range(tr);
    if band.hexes > reach {
        return Err(format!(
            "{} range ({} hexes) is beyond its gun's reach of {reach}",
            band.name, band.hexes
        ));
    }
    let mut mods = vec![Modifier::new(
        "accuracy",
        i8::try_from(tr.tank.accuracy).unwrap_or(6),
    )];
    if tank.build.optics {
        mods.push(Modifier::new(
            "Enhanced Optics",
            -i8::try_from(tr.upgrades.optics_accuracy).unwrap_or(0),
        ));
    }
    if tank.role_state(Role::Gunner) == RoleState::Impaired {
        mods.push(Modifier::new(
            "wounded gunner",
            i8::try_from(tr.firing.wounded_gunner_penalty).unwrap_or(0),
        ));
    }
    if band.to_hit != 0 {
        mods.push(Modifier::new(format!("{} range", band.name), band.to_hit));
    }
    let sum: i16 = mods.iter().map(|m| i16::from(m.value)).sum();
    Ok((u8::try_from(sum.clamp(1, 7)).unwrap_or(7), mods))
}

/// The modifiers of `tank`'s Driving test.
pub(crate) fn driving_modifiers(setup: &DuelSetup, tank: &DuelTank) -> Vec<Modifier> {
    let d = &setup.table.driving;
    let mut mods = Vec::new();
    if tank.build.engine && d.engine_bonus != 0 {
        mods.push(Modifier::new("Engine upgrade", d.engine_bonus));
    }
    for (role, impaired, out) in [
        (Role::Driver, d.driver_impaired, d.driver_out),
        (Role::Commander, d.commander_impaired, d.commander_out),
    ] {
        let (label, value) = match tank.role_state(role) {
            RoleState::Healthy => continue,
            RoleState::Impaired => ("wounded or replaced", impaired),
            RoleState::Out => ("out", out),
        };
        if value != 0 {
            mods.push(Modifier::new(
                format!("{} {label}", role.to_string().to_lowercase()),
                value,
            ));
        }
    }
    mods
}

fn driving_test(
    setup: &DuelSetup,
    tank: &DuelTank,
    player: PlayerId,
    reroll: bool,
    rng: &mut MatchRng,
) -> (Fact, i16, bool) {
    let d = &setup.table.driving;
    let dice: Vec<u8> = (0..d.dice).map(|_| rng.d6()).collect();
    let modifiers = driving_modifiers(setup, tank);
    let total = dice.iter().map(|&x| i16::from(x)).sum::<i16>()
        + modifiers.iter().map(|m| i16::from(m.value)).sum::<i16>();
    let passed = total >= i16::from(d.target);
    (
        Fact::DrivingTest {
            player,
            dice,
            modifiers,
            total,
            target: d.target,
            passed,
            reroll,
        },
        total,
        passed,
    )
}

fn higher(totals: [i16; 2]) -> Option<usize> {
    match totals[0].cmp(&totals[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

/// The range change the matrix gives.
struct Movement {
    /// Signed band change, negative closer.
    shift: i16,
    /// Tanks whose driving closed the range (they may ram).
    closers: Vec<usize>,
    /// "Up to N": a closing tank may stop at Adjacent.
    up_to: bool,
    reason: String,
}

fn movement(
    row: Row,
    orders: [Action; 2],
    t1: usize,
    passed: [bool; 2],
    winner: Option<usize>,
    setup: &DuelSetup,
) -> Movement {
    let r = &setup.rules;
    let name = |i: usize| super::side_name(PlayerId(i as u8));
    let shift_of = |who: usize, n: u8| -> (i16, Vec<usize>) {
        // "Up to N": the driver's own limit, if it set one.
        let n = orders[who].most().map_or(n, |most| n.min(most));
        match orders[who].direction() {
            Some(d) if n > 0 => (
                d.sign() * i16::from(n),
                if d == Direction::Closing {
                    vec![who]
                } else {
                    Vec::new()
                },
            ),
            _ => (0, Vec::new()),
        }
    };
    let pick = |s: super::setup::Shift, ok: bool| if ok { s.success } else { s.failure };
    let t2 = 1 - t1;
    match row {
        Row::ChangeVsChange => {
            let (d1, d2) = (orders[0].direction(), orders[1].direction());
            if d1 == d2 {
                let (shift, closers) = if d1 == Some(Direction::Closing) {
                    (-i16::from(r.change_vs_change_same), vec![0, 1])
                } else {
                    (i16::from(r.change_vs_change_same), Vec::new())
                };
                Movement {
                    shift,
                    closers,
                    up_to: false,
                    reason: "both drivers went the same way".into(),
                }
            } else if let Some(w) = winner {
                let (shift, closers) = shift_of(w, r.change_vs_change);
                Movement {
                    shift,
                    closers,
                    up_to: true,
                    reason: format!("{} won Driving", name(w)),
                }
            } else {
                Movement {
                    shift: 0,
                    closers: Vec::new(),
                    up_to: true,
                    reason: "nobody won Driving".into(),
                }
            }
        }
        Row::ChangeVsManeuver | Row::ChangeVsHullDown | Row::ManeuverVsHullDown => {
            let s = match row {
                Row::ChangeVsManeuver => r.change_vs_maneuver,
                Row::ChangeVsHullDown => r.change_vs_hull_down,
                _ => r.maneuver_vs_hull_down,
            };
            let (shift, closers) = shift_of(t1, pick(s, passed[t1]));
            Movement {
                shift,
                closers,
                up_to: true,
                reason: format!(
                    "{} {} its Driving test",
                    name(t1),
                    if passed[t1] { "passed" } else { "failed" }
                ),
            }
        }
        Row::ManeuverVsManeuver => {
            let backs: Vec<usize> = [t1, t2]
                .into_iter()
                .filter(|&p| orders[p].direction() == Some(Direction::Opening))
                .collect();
            match backs.first() {
                Some(&p) if r.maneuver_back_off > 0 => Movement {
                    shift: i16::from(r.maneuver_back_off),
                    closers: Vec::new(),
                    up_to: true,
                    reason: format!("{} declared a range increase before firing", name(p)),
                },
                _ => Movement {
                    shift: 0,
                    closers: Vec::new(),
                    up_to: true,
                    reason: "both maneuvered".into(),
                },
            }
        }
        Row::HullDownVsHullDown => Movement {
            shift: 0,
            closers: Vec::new(),
            up_to: true,
            reason: "both went hull down".into(),
        },
    }
}

/// The facing each tank shows.
fn facings(
    row: Row,
    orders: [Action; 2],
    t1: usize,
    winner: Option<usize>,
    setup: &DuelSetup,
    rng: &mut MatchRng,
) -> [(Presented, FacingReason); 2] {
    let t2 = 1 - t1;
    let changer = |p: usize| -> (Presented, FacingReason) {
        let enemy_opening = orders[1 - p].direction() == Some(Direction::Opening)
            && matches!(orders[1 - p], Action::ChangeRange { .. });
        match orders[p].direction() {
            Some(Direction::Opening) if enemy_opening => match setup.rules.both_opening {
                BothOpening::Front => (Presented::Front, FacingReason::BothOpening),
                BothOpening::Rear => (Presented::Rear, FacingReason::BothOpening),
            },
            Some(Direction::Opening) => (Presented::Rear, FacingReason::Opening),
            _ => (Presented::Front, FacingReason::Closing),
        }
    };
    let random = |rng: &mut MatchRng| -> (Presented, FacingReason) {
        let roll = rng.roll(4);
        (
            Presented::from_d4(roll),
            FacingReason::Random {
                roll: u8::try_from(roll).unwrap_or(4),
            },
        )
    };
    // The chooser's order says what it picks (its own front and the enemy's rear unless
    // it asked otherwise).
    let chosen_by = |chooser: usize, p: usize| -> (Presented, FacingReason) {
        let by = PlayerId(chooser as u8);
        let picked = orders[chooser].facings();
        if chooser == p {
            (picked.own, FacingReason::Choice { by })
        } else {
            (picked.enemy, FacingReason::Choice { by })
        }
    };
    let mut out = [(Presented::Front, FacingReason::OwnChoice); 2];
    match row {
        Row::ChangeVsChange => {
            out[0] = changer(0);
            out[1] = changer(1);
        }
        Row::ChangeVsManeuver => {
            out[t1] = changer(t1);
            out[t2] = if winner == Some(t2) {
                chosen_by(t2, t2)
            } else {
                random(rng)
            };
        }
        Row::ChangeVsHullDown => {
            out[t1] = changer(t1);
            out[t2] = if winner == Some(t1) {
                chosen_by(t1, t2)
            } else {
                random(rng)
            };
        }
        Row::ManeuverVsHullDown => {
            if winner == Some(t1) {
                out[t1] = chosen_by(t1, t1);
                out[t2] = chosen_by(t1, t2);
            } else {
                out[t1] = random(rng);
                out[t2] = random(rng);
            }
        }
        Row::ManeuverVsManeuver | Row::HullDownVsHullDown => {
            if let Some(w) = winner {
                out[0] = chosen_by(w, 0);
                out[1] = chosen_by(w, 1);
            }
        }
    }
    out
}

/// Plays a combat turn.
pub(crate) fn combat_turn(
    duel: &mut RangeDuel,
    orders: [Action; 2],
    rng: &mut MatchRng,
) -> Vec<Fact> {
    let setup = Arc::clone(&duel.setup);
    let rules = &setup.rules;
    let table = &setup.table;
    let applied = applied_row(orders);
    let mut facts = vec![Fact::Revealed {
        turn: duel.turn + 1,
        orders,
        row: applied,
    }];

    // Driving.
    let mut totals = [0i16; 2];
    let mut passed = [false; 2];
    for p in 0..2 {
        let (fact, total, pass) =
            driving_test(&setup, &duel.tanks[p], PlayerId(p as u8), false, rng);
        facts.push(fact);
        totals[p] = total;
        passed[p] = pass;
    }
    let mut winner = higher(totals);
    if winner.is_none() && rules.driving_tie == DrivingTie::Reroll {
        for _ in 0..10 {
            let mut again = [0i16; 2];
            for (p, slot) in again.iter_mut().enumerate() {
                let (fact, total, _) =
                    driving_test(&setup, &duel.tanks[p], PlayerId(p as u8), true, rng);
                facts.push(fact);
                *slot = total;
            }
            winner = higher(again);
            if winner.is_some() {
                totals = again;
                break;
            }
        }
    }
    facts.push(Fact::DrivingWinner {
        winner: winner.map(|w| PlayerId(w as u8)),
        totals,
    });

    // Range and facings.
    let t1 = applied.tank1.index();
    let mv = movement(applied.row, orders, t1, passed, winner, &setup);
    let faced = facings(applied.row, orders, t1, winner, &setup, rng);
    let rammers: Vec<usize> = mv
        .closers
        .iter()
        .copied()
        .filter(|&c| orders[c].rams())
        .collect();
    let from = duel.range;
    let mut wanted = i16::from(from) + mv.shift;
    if mv.up_to && rammers.is_empty() {
        wanted = wanted.max(0);
    }
    wanted = wanted.min(i16::from(table.farthest()));
    let mut ram: Option<usize> = None;
    if wanted <= 0 && !rammers.is_empty() {
        let can = |c: usize| passed[c] || !rules.ram_needs_pass;
        let rammer = rammers
            .iter()
            .copied()
            .filter(|&c| can(c))
            .max_by_key(|&c| (Some(c) == winner, c == t1))
            .unwrap_or(rammers[0]);
        let succeeded = can(rammer);
        facts.push(Fact::RamAttempt {
            rammer: PlayerId(rammer as u8),
            passed: passed[rammer],
            succeeded,
        });
        if succeeded {
            ram = Some(rammer);
        }
    }
    let to = if wanted < 0 && ram.is_none() {
        let to = rules.overshoot_band.min(table.farthest());
        facts.push(Fact::Overshoot {
            to,
            to_name: table.band(to).name.clone(),
        });
        to
    } else {
        u8::try_from(wanted.max(0)).unwrap_or(0)
    };
    facts.push(Fact::RangeChanged {
        from,
        from_name: table.band(from).name.clone(),
        to,
        to_name: table.band(to).name.clone(),
        shift: mv.shift,
        reason: mv.reason,
    });
    duel.range = to;
    for (p, (facing, reason)) in faced.iter().enumerate() {
        facts.push(Fact::Facing {
            player: PlayerId(p as u8),
            facing: *facing,
            reason: *reason,
        });
        duel.presented[p] = Some(*facing);
        duel.hull_down[p] = orders[p] == Action::HullDown && passed[p];
        if orders[p] == Action::HullDown {
            facts.push(Fact::HullDown {
                player: PlayerId(p as u8),
                protected: passed[p],
            });
        }
    }

    // Ram.
    if let Some(r) = ram {
        resolve_collision(duel, r, [faced[0].0, faced[1].0], rng, &mut facts);
        knock_outs(duel, &mut facts);
    }

    // Fire. The Driving winner first (a tank it knocks out does not fire back), or both
    // guns at once: then the to-hit numbers are fixed before any damage.
    let volleys: Vec<Vec<usize>> = match (rules.fire_order, winner) {
        (FireOrder::DrivingWinnerFirst, Some(w)) => vec![vec![w], vec![1 - w]],
        _ => vec![vec![0, 1]],
    };
    for volley in volleys {
        let shots: Vec<(usize, Result<(u8, Vec<Modifier>), String>)> = volley
            .into_iter()
            .filter(|&p| !duel.tanks[p].knocked_out)
            .map(|p| (p, to_hit(&setup, &duel.tanks[p], duel.range)))
            .collect();
        for (p, plan) in shots {
            match plan {
                Ok((needed, modifiers)) => fire(duel, p, needed, modifiers, rng, &mut facts),
                Err(why) => facts.push(Fact::CannotFire {
                    player: PlayerId(p as u8),
                    why,
                }),
            }
        }
        knock_outs(duel, &mut facts);
    }

    duel.turn += 1;
    if let Some(outcome) = duel.outcome() {
        facts.push(Fact::Ended { outcome });
    }
    facts
}

fn resolve_collision(
    duel: &mut RangeDuel,
    rammer: usize,
    faced: [Presented; 2],
    rng: &mut MatchRng,
    facts: &mut Vec<Fact>,
) {
    let setup = Arc::clone(&duel.setup);
    let tr = &setup.tank_rules;
    let target = 1 - rammer;
    let kind = collision(faced[rammer], faced[target]);
    facts.push(Fact::Collision {
        rammer: PlayerId(rammer as u8),
        target: PlayerId(target as u8),
        rammer_facing: faced[rammer],
        target_facing: faced[target],
        kind,
    });
    let sr = duel.tanks[rammer].top_speed(tr);
    let st = duel.tanks[target].top_speed(tr);
    // "Facing armor": the rammed tank's on the side it shows (the facing that set the
    // collision type), or each tank's own for the damage it takes.
    let at = duel.tanks[target].armor.facing(faced[target].armor());
    let (ar, whose) = match setup.rules.collision_armor {
        CollisionArmor::Defender => (at, "defender's"),
        CollisionArmor::Own => (
            duel.tanks[rammer].armor.facing(faced[rammer].armor()),
            "rammer's own",
        ),
    };
    let damages: [(u8, String, Vec<u8>); 2] = match kind {
        Collision::Sideswipe => {
            let (a1, a2) = (rng.d6(), rng.d6());
            let (d1, d2) = (rng.d6(), rng.d6());
            let effect = setup.table.drive_effect(sr);
            [
                (
                    (a1 + a2).saturating_sub(2),
                    format!("2d6 - 2 = {a1} + {a2} - 2"),
                    vec![a1, a2],
                ),
                (
                    (d1 + d2).saturating_mul(effect),
                    format!("2d6 x Drive Effect = ({d1} + {d2}) x {effect}"),
                    vec![d1, d2],
                ),
            ]
        }
        Collision::TBone => [
            (
                sr.min(ar),
                format!("lesser of rammer's Top Speed {sr} and {whose} facing armor {ar}"),
                Vec::new(),
            ),
            (
                sr.min(at),
                format!("lesser of rammer's Top Speed {sr} and defender's facing armor {at}"),
                Vec::new(),
            ),
        ],
        Collision::HeadOn => [
            (
                sr + st.min(ar),
                format!(
                    "rammer's Top Speed {sr} + lesser of target's Top Speed {st} and {whose} facing armor {ar}"
                ),
                Vec::new(),
            ),
            (
                sr.min(at) + st,
                format!(
                    "lesser of rammer's Top Speed {sr} and defender's facing armor {at} + target's Top Speed {st}"
                ),
                Vec::new(),
            ),
        ],
    };
    let per_hull = setup.table.ram_damage_per_hull.max(1);
    for (i, (points, formula, dice)) in damages.into_iter().enumerate() {
        let p = if i == 0 { rammer } else { target };
        let hull_lost = points / per_hull;
        let glancing_roll = (hull_lost == 0 && points > 0).then(|| rng.d6());
        facts.push(Fact::CollisionDamage {
            player: PlayerId(p as u8),
            attacker: i == 0,
            kind,
            formula,
            dice,
            points,
            hull_lost,
            glancing_roll,
        });
        if hull_lost > 0 {
            lose_hull(duel, p, hull_lost, facts);
            wound(duel, p, rng, facts);
        } else if glancing_roll.is_some_and(|r| r >= tr.damage.glancing_wound_on) {
            wound(duel, p, rng, facts);
        }
    }
}

fn fire(
    duel: &mut RangeDuel,
    p: usize,
    needed: u8,
    modifiers: Vec<Modifier>,
    rng: &mut MatchRng,
    facts: &mut Vec<Fact>,
) {
    let setup = Arc::clone(&duel.setup);
    let tr = &setup.tank_rules;
    let target = 1 - p;
    let roll = rng.d6();
    let hit = if roll == 1 && tr.firing.natural_one_misses {
        false
    } else {
        (roll == 6 && tr.firing.natural_six_hits) || roll >= needed
    };
    if duel.tanks[p].role_state(Role::Loader) == RoleState::Out {
        duel.tanks[p].loaded = false;
    }
    let band = setup.table.band(duel.range);
    let strength = tr.firing.at_strength;
    let mut shot = Fact::Shot {
        shooter: PlayerId(p as u8),
        target: PlayerId(target as u8),
        band: duel.range,
        band_name: band.name.clone(),
        needed,
        modifiers,
        roll,
        hit,
        location_roll: None,
        location: None,
        turret: false,
        armor_facing: None,
        armor: 0,
        negated: false,
        penetration_roll: None,
        strength,
        penetrating: false,
        glancing_roll: None,
    };
    if !hit {
        facts.push(shot);
        return;
    }
    let loc_roll = rng.d6();
    let location = setup.table.location(loc_roll);
    let facing = match location.armor {
        LocationArmor::Front => ArmorFacing::Front,
        LocationArmor::Presented => duel.presented[target].unwrap_or(Presented::Front).armor(),
    };
    let armor = duel.tanks[target].armor.facing(facing);
    let negated = !location.turret && duel.hull_down[target];
    let mut penetrating = false;
    let mut wounds = false;
    let (mut pen_roll, mut glance) = (None, None);
    if !negated {
        let pen = rng.d6();
        pen_roll = Some(pen);
        penetrating = pen + strength > armor;
        if penetrating {
            wounds = true;
        } else {
            let g = rng.d6();
            glance = Some(g);
            wounds = g >= tr.damage.glancing_wound_on;
        }
    }
    if let Fact::Shot {
        location_roll,
        location: loc,
        turret,
        armor_facing,
        armor: a,
        negated: n,
        penetration_roll,
        penetrating: pe,
        glancing_roll,
        ..
    } = &mut shot
    {
        *location_roll = Some(loc_roll);
        *loc = Some(location.name.clone());
        *turret = location.turret;
        *armor_facing = Some(facing);
        *a = armor;
        *n = negated;
        *penetration_roll = pen_roll;
        *pe = penetrating;
        *glancing_roll = glance;
    }
    facts.push(shot);
    if penetrating {
        lose_hull(duel, target, 1, facts);
    }
    if wounds {
        wound(duel, target, rng, facts);
    }
}

fn lose_hull(duel: &mut RangeDuel, p: usize, lost: u8, facts: &mut Vec<Fact>) {
    let t = &mut duel.tanks[p];
    let lost = lost.min(t.hull);
    t.hull -= lost;
    facts.push(Fact::HullLost {
        player: PlayerId(p as u8),
        lost,
        left: t.hull,
    });
}

/// Wounds a random living crew member, as in Tank Commander (medkit, lieutenant).
fn wound(duel: &mut RangeDuel, p: usize, rng: &mut MatchRng, facts: &mut Vec<Fact>) {
    let t = &mut duel.tanks[p];
    let living: Vec<usize> = (0..t.crew.len())
        .filter(|&i| t.crew[i].is_alive())
        .collect();
    if living.is_empty() {
        return;
    }
    let pick = rng.pick(living.len());
    let i = living[pick];
    t.crew[i].wounds += 1;
    let killed = !t.crew[i].is_alive();
    let mut treated = false;
    if !killed && t.medkit_unused {
        t.crew[i].treated = true;
        t.medkit_unused = false;
        treated = true;
    }
    let role = t.crew[i].role;
    let mut takes_over = false;
    if killed
        && role != Role::Lieutenant
        && t.lieutenant_covers.is_none()
        && t.member(Role::Lieutenant).is_some_and(|m| m.is_alive())
    {
        t.lieutenant_covers = Some(role);
        takes_over = true;
    }
    facts.push(Fact::Wounded {
        player: PlayerId(p as u8),
        wound: Wound {
            pick: u8::try_from(pick + 1).unwrap_or(u8::MAX),
            of: u8::try_from(living.len()).unwrap_or(u8::MAX),
            role,
            name: t.crew[i].name.clone(),
            killed,
            treated,
            lieutenant_takes_over: takes_over,
        },
    });
}

fn knock_outs(duel: &mut RangeDuel, facts: &mut Vec<Fact>) {
    let crewless = duel.setup.tank_rules.damage.crewless_disabled;
    for (p, t) in duel.tanks.iter_mut().enumerate() {
        if t.knocked_out {
            continue;
        }
        let why = if t.hull == 0 {
            "no hull points left"
        } else if crewless && t.living_crew().next().is_none() {
            "the whole crew is dead"
        } else {
            continue;
        };
        t.knocked_out = true;
        facts.push(Fact::KnockedOut {
            player: PlayerId(p as u8),
            why: why.into(),
        });
    }
}
