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

/// Where a combat turn's facts go: kept for the table and the log, or never written
/// when a bot plays a turn out on a copy of the duel. Either way the dice and the
/// result are the same; a quiet turn only skips building the words.
pub(crate) struct Facts(Option<Vec<Fact>>);

impl Facts {
    /// Facts kept, after `first`.
    pub(crate) fn kept(first: Vec<Fact>) -> Self {
        Self(Some(first))
    }

    /// Facts not written at all.
    pub(crate) const fn quiet() -> Self {
        Self(None)
    }

    /// Whether the facts are kept (so that their words are worth building).
    const fn wanted(&self) -> bool {
        self.0.is_some()
    }

    /// Adds the fact `make` builds, if the facts are kept.
    fn push(&mut self, make: impl FnOnce() -> Fact) {
        if let Some(facts) = &mut self.0 {
            facts.push(make());
        }
    }

    /// The facts kept (none for a quiet turn).
    pub(crate) fn into_vec(self) -> Vec<Fact> {
        self.0.unwrap_or_default()
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

/// Why a tank cannot fire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoShot {
    NoGunner,
    Empty,
    OutOfReach { reach: u8 },
}

impl NoShot {
    /// The reason at band `range`, with the band's name and distance.
    fn explained(self, setup: &DuelSetup, range: u8) -> CannotFire {
        match self {
            Self::NoGunner => CannotFire::NoGunner,
            Self::Empty => CannotFire::Empty,
            Self::OutOfReach { reach } => {
                let band = setup.table.band(range);
                CannotFire::OutOfReach {
                    band: band.name.clone(),
                    hexes: band.hexes,
                    reach,
                }
            }
        }
    }
}

/// Why a tank cannot fire at a band.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CannotFire {
    /// The gunner is dead.
    #[error("nobody is left to fire the gun")]
    NoGunner,
    /// The gun is empty, and the loader is dead.
    #[error("the gun is empty and nobody is left to load it")]
    Empty,
    /// The band is beyond the gun's range.
    #[error("{band} range ({hexes} hexes) is beyond its gun's reach of {reach}")]
    OutOfReach { band: String, hexes: u8, reach: u8 },
}

/// Calls `each` with every modifier of `tank`'s to-hit roll at band `range` (its value
/// and a maker of its words), or says why it cannot fire there.
fn each_hit_modifier(
    setup: &DuelSetup,
    tank: &DuelTank,
    range: u8,
    mut each: impl FnMut(i8, &dyn Fn() -> String),
) -> Result<(), NoShot> {
    let tr = &setup.tank_rules;
    if tank.role_state(Role::Gunner) == RoleState::Out {
        return Err(NoShot::NoGunner);
    }
    if !tank.loaded {
        return Err(NoShot::Empty);
    }
    let band = setup.table.band(range);
    let reach = tank.gun_range(tr);
    if band.hexes > reach {
        return Err(NoShot::OutOfReach { reach });
    }
    each(i8::try_from(tr.tank.accuracy).unwrap_or(6), &|| {
        "accuracy".into()
    });
    if tank.build.optics {
        each(
            -i8::try_from(tr.upgrades.optics_accuracy).unwrap_or(0),
            &|| "Enhanced Optics".into(),
        );
    }
    if tank.role_state(Role::Gunner) == RoleState::Impaired {
        each(
            i8::try_from(tr.firing.wounded_gunner_penalty).unwrap_or(0),
            &|| "wounded gunner".into(),
        );
    }
    if band.to_hit != 0 {
        each(band.to_hit, &|| format!("{} range", band.name));
    }
    Ok(())
}

/// The to-hit number a sum of modifiers gives.
fn needed(sum: i16) -> u8 {
    u8::try_from(sum.clamp(1, 7)).unwrap_or(7)
}

/// The to-hit number of `tank` at band `range`, with its modifiers in words when `words`.
fn aim(
    setup: &DuelSetup,
    tank: &DuelTank,
    range: u8,
    words: bool,
) -> Result<(u8, Vec<Modifier>), NoShot> {
    if !words {
        return aim_number(setup, tank, range).map(|n| (n, Vec::new()));
    }
    let (mut sum, mut mods) = (0i16, Vec::new());
    each_hit_modifier(setup, tank, range, |value, label| {
        sum += i16::from(value);
        mods.push(Modifier::new(label(), value));
    })?;
    Ok((needed(sum), mods))
}

/// The to-hit number of `tank` at band `range` alone: what the bot's trial turns and
/// weighings ask, many times a decision.
fn aim_number(setup: &DuelSetup, tank: &DuelTank, range: u8) -> Result<u8, NoShot> {
    let mut sum = 0i16;
    each_hit_modifier(setup, tank, range, |value, _| sum += i16::from(value))?;
    Ok(needed(sum))
}

/// The to-hit number of `tank` at band `range`.
///
/// # Errors
/// Why the tank cannot fire there.
pub(crate) fn to_hit(
    setup: &DuelSetup,
    tank: &DuelTank,
    range: u8,
) -> Result<(u8, Vec<Modifier>), CannotFire> {
    aim(setup, tank, range, true).map_err(|no| no.explained(setup, range))
}

/// The to-hit number of `tank` at band `range`, without the words; `None` when it cannot
/// fire there.
pub(crate) fn to_hit_number(setup: &DuelSetup, tank: &DuelTank, range: u8) -> Option<u8> {
    aim_number(setup, tank, range).ok()
}

/// Calls `each` with every modifier of `tank`'s Driving test.
fn each_driving_modifier(
    setup: &DuelSetup,
    tank: &DuelTank,
    mut each: impl FnMut(i8, &dyn Fn() -> String),
) {
    let d = &setup.table.driving;
    if tank.build.engine && d.engine_bonus != 0 {
        each(d.engine_bonus, &|| "Engine upgrade".into());
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
            each(value, &|| {
                format!("{} {label}", role.to_string().to_lowercase())
            });
        }
    }
}

/// The modifiers of `tank`'s Driving test.
pub(crate) fn driving_modifiers(setup: &DuelSetup, tank: &DuelTank) -> Vec<Modifier> {
    let mut mods = Vec::new();
    each_driving_modifier(setup, tank, |value, label| {
        mods.push(Modifier::new(label(), value));
    });
    mods
}

/// A Driving test: its total and whether it passed (its fact goes to `facts`).
fn driving_test(
    setup: &DuelSetup,
    tank: &DuelTank,
    player: PlayerId,
    reroll: bool,
    rng: &mut MatchRng,
    facts: &mut Facts,
) -> (i16, bool) {
    let d = &setup.table.driving;
    let (mut dice, mut total) = (Vec::new(), 0i16);
    for _ in 0..d.dice {
        let die = rng.d6();
        total += i16::from(die);
        if facts.wanted() {
            dice.push(die);
        }
    }
    each_driving_modifier(setup, tank, |value, _| total += i16::from(value));
    let passed = total >= i16::from(d.target);
    facts.push(|| Fact::DrivingTest {
        player,
        dice,
        modifiers: driving_modifiers(setup, tank),
        total,
        target: d.target,
        passed,
        reroll,
    });
    (total, passed)
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
    closers: [bool; 2],
    /// "Up to N": a closing tank may stop at Adjacent.
    up_to: bool,
    reason: MoveReason,
}

impl Movement {
    /// No change of range, for `reason`.
    const fn stay(reason: MoveReason) -> Self {
        Self {
            shift: 0,
            closers: [false; 2],
            up_to: true,
            reason,
        }
    }
}

/// Why the range changed as it did.
#[derive(Clone, Copy)]
enum MoveReason {
    SameWay,
    WonDriving(usize),
    NobodyWon,
    Test { tank: usize, passed: bool },
    BackOff(usize),
    BothManeuvered,
    BothHullDown,
}

impl MoveReason {
    fn words(self) -> String {
        let name = |i: usize| super::side_name(PlayerId(i as u8));
        match self {
            Self::SameWay => "both drivers went the same way".into(),
            Self::WonDriving(w) => format!("{} won Driving", name(w)),
            Self::NobodyWon => "nobody won Driving".into(),
            Self::Test { tank, passed } => format!(
                "{} {} its Driving test",
                name(tank),
                if passed { "passed" } else { "failed" }
            ),
            Self::BackOff(p) => format!("{} declared a range increase before firing", name(p)),
            Self::BothManeuvered => "both maneuvered".into(),
            Self::BothHullDown => "both went hull down".into(),
        }
    }
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
    let pick = |s: super::setup::Shift, ok: bool| if ok { s.success } else { s.failure };
    let t2 = 1 - t1;
    match row {
        Row::ChangeVsChange => change_vs_change(orders, winner, setup),
        Row::ChangeVsManeuver | Row::ChangeVsHullDown | Row::ManeuverVsHullDown => {
            let s = match row {
                Row::ChangeVsManeuver => r.change_vs_maneuver,
                Row::ChangeVsHullDown => r.change_vs_hull_down,
                _ => r.maneuver_vs_hull_down,
            };
            let (shift, closers) = shift_of(orders, t1, pick(s, passed[t1]));
            Movement {
                shift,
                closers,
                up_to: true,
                reason: MoveReason::Test {
                    tank: t1,
                    passed: passed[t1],
                },
            }
        }
        Row::ManeuverVsManeuver => {
            let back = [t1, t2]
                .into_iter()
                .find(|&p| orders[p].direction() == Some(Direction::Opening));
            match back {
                Some(p) if r.maneuver_back_off > 0 => Movement {
                    shift: i16::from(r.maneuver_back_off),
                    closers: [false; 2],
                    up_to: true,
                    reason: MoveReason::BackOff(p),
                },
                _ => Movement::stay(MoveReason::BothManeuvered),
            }
        }
        Row::HullDownVsHullDown => Movement::stay(MoveReason::BothHullDown),
    }
}

/// The range change of two Change Range orders: the same way, both move; else the
/// Driving winner's, or none when nobody won.
fn change_vs_change(orders: [Action; 2], winner: Option<usize>, setup: &DuelSetup) -> Movement {
    let r = &setup.rules;
    let (d1, d2) = (orders[0].direction(), orders[1].direction());
    if d1 == d2 {
        let (shift, closers) = if d1 == Some(Direction::Closing) {
            (-i16::from(r.change_vs_change_same), [true; 2])
        } else {
            (i16::from(r.change_vs_change_same), [false; 2])
        };
        Movement {
            shift,
            closers,
            up_to: false,
            reason: MoveReason::SameWay,
        }
    } else if let Some(w) = winner {
        let (shift, closers) = shift_of(orders, w, r.change_vs_change);
        Movement {
            shift,
            closers,
            up_to: true,
            reason: MoveReason::WonDriving(w),
        }
    } else {
        Movement::stay(MoveReason::NobodyWon)
    }
}

/// The shift of `n` bands tank `who`'s order drives (at most its own limit), and which
/// tanks it leaves as closers.
fn shift_of(orders: [Action; 2], who: usize, n: u8) -> (i16, [bool; 2]) {
    // "Up to N": the driver's own limit, if it set one.
    let n = orders[who].most().map_or(n, |most| n.min(most));
    match orders[who].direction() {
        Some(d) if n > 0 => (
            d.sign() * i16::from(n),
            [
                who == 0 && d == Direction::Closing,
                who == 1 && d == Direction::Closing,
            ],
        ),
        _ => (0, [false; 2]),
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
    let changer = |p: usize| changer_facing(orders, p, setup);
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
                random_facing(rng)
            };
        }
        Row::ChangeVsHullDown => {
            out[t1] = changer(t1);
            out[t2] = if winner == Some(t1) {
                chosen_by(t1, t2)
            } else {
                random_facing(rng)
            };
        }
        Row::ManeuverVsHullDown => {
            if winner == Some(t1) {
                out[t1] = chosen_by(t1, t1);
                out[t2] = chosen_by(t1, t2);
            } else {
                out[t1] = random_facing(rng);
                out[t2] = random_facing(rng);
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

/// The facing a tank that changed the range shows: its front closing, its rear opening
/// (both opening: as the rules say).
fn changer_facing(orders: [Action; 2], p: usize, setup: &DuelSetup) -> (Presented, FacingReason) {
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
}

/// A facing drawn at random with a d4.
fn random_facing(rng: &mut MatchRng) -> (Presented, FacingReason) {
    let roll = rng.roll(4);
    (
        Presented::from_d4(roll),
        FacingReason::Random {
            roll: u8::try_from(roll).unwrap_or(4),
        },
    )
}

/// Plays a combat turn, its facts going to `facts`.
pub(crate) fn combat_turn(
    duel: &mut RangeDuel,
    orders: [Action; 2],
    rng: &mut MatchRng,
    facts: &mut Facts,
) {
    let setup = Arc::clone(&duel.setup);
    let applied = applied_row(orders);
    facts.push(|| Fact::Revealed {
        turn: duel.turn + 1,
        orders,
        row: applied,
    });

    // Driving.
    let (passed, winner) = driving(duel, &setup, rng, facts);

    // Range and facings.
    let (faced, ram) = range_and_facings(duel, &setup, orders, applied, passed, winner, rng, facts);

    // Ram.
    if let Some(r) = ram {
        resolve_collision(duel, r, [faced[0].0, faced[1].0], rng, facts);
        knock_outs(duel, facts);
    }

    // Fire.
    fire_volleys(duel, &setup, winner, rng, facts);

    duel.turn += 1;
    if facts.wanted()
        && let Some(outcome) = duel.outcome()
    {
        facts.push(|| Fact::Ended { outcome });
    }
}

/// Both tanks' Driving tests, re-rolled on a tie where the rules say so: who passed,
/// and who won (none on a tie that stands).
fn driving(
    duel: &RangeDuel,
    setup: &DuelSetup,
    rng: &mut MatchRng,
    facts: &mut Facts,
) -> ([bool; 2], Option<usize>) {
    let mut totals = [0i16; 2];
    let mut passed = [false; 2];
    for p in 0..2 {
        let (total, pass) =
            driving_test(setup, &duel.tanks[p], PlayerId(p as u8), false, rng, facts);
        totals[p] = total;
        passed[p] = pass;
    }
    let mut winner = higher(totals);
    if winner.is_none() && setup.rules.driving_tie == DrivingTie::Reroll {
        for _ in 0..10 {
            let mut again = [0i16; 2];
            for (p, slot) in again.iter_mut().enumerate() {
                (*slot, _) =
                    driving_test(setup, &duel.tanks[p], PlayerId(p as u8), true, rng, facts);
            }
            winner = higher(again);
            if winner.is_some() {
                totals = again;
                break;
            }
        }
    }
    facts.push(|| Fact::DrivingWinner {
        winner: winner.map(|w| PlayerId(w as u8)),
        totals,
    });
    (passed, winner)
}

/// The range change and the facings the matrix row gives, with a ram tried at contact
/// or an overshoot past it: the facings shown, and the rammer when a ram makes contact.
fn range_and_facings(
    duel: &mut RangeDuel,
    setup: &DuelSetup,
    orders: [Action; 2],
    applied: AppliedRow,
    passed: [bool; 2],
    winner: Option<usize>,
    rng: &mut MatchRng,
    facts: &mut Facts,
) -> ([(Presented, FacingReason); 2], Option<usize>) {
    let rules = &setup.rules;
    let table = &setup.table;
    let t1 = applied.tank1.index();
    let mv = movement(applied.row, orders, t1, passed, winner, setup);
    let faced = facings(applied.row, orders, t1, winner, setup, rng);
    let rams = |c: usize| mv.closers[c] && orders[c].rams();
    let from = duel.range;
    let mut wanted = i16::from(from) + mv.shift;
    if mv.up_to && !rams(0) && !rams(1) {
        wanted = wanted.max(0);
    }
    wanted = wanted.min(i16::from(table.farthest()));
    let ram = ram_attempt(rams, wanted, passed, winner, t1, setup, facts);
    let to = if wanted < 0 && ram.is_none() {
        let to = rules.overshoot_band.min(table.farthest());
        facts.push(|| Fact::Overshoot {
            to,
            to_name: table.band(to).name.clone(),
        });
        to
    } else {
        u8::try_from(wanted.max(0)).unwrap_or(0)
    };
    facts.push(|| Fact::RangeChanged {
        from,
        from_name: table.band(from).name.clone(),
        to,
        to_name: table.band(to).name.clone(),
        shift: mv.shift,
        reason: mv.reason.words(),
    });
    duel.range = to;
    show_facings(duel, orders, passed, &faced, facts);
    (faced, ram)
}

/// The ram tried when a tank that closed with a ram order reaches contact (`wanted` at
/// 0 or less): the Driving winner's, else Tank 1's, among those that may; the rammer
/// when it makes contact.
fn ram_attempt(
    rams: impl Fn(usize) -> bool,
    wanted: i16,
    passed: [bool; 2],
    winner: Option<usize>,
    t1: usize,
    setup: &DuelSetup,
    facts: &mut Facts,
) -> Option<usize> {
    let mut ram: Option<usize> = None;
    if let Some(first) = (0..2).find(|&c| rams(c))
        && wanted <= 0
    {
        let can = |c: usize| passed[c] || !setup.rules.ram_needs_pass;
        let rammer = (0..2)
            .filter(|&c| rams(c) && can(c))
            .max_by_key(|&c| (Some(c) == winner, c == t1))
            .unwrap_or(first);
        let succeeded = can(rammer);
        facts.push(|| Fact::RamAttempt {
            rammer: PlayerId(rammer as u8),
            passed: passed[rammer],
            succeeded,
        });
        if succeeded {
            ram = Some(rammer);
        }
    }
    ram
}

/// Each tank shows its facing, and goes hull down if it ordered so and passed.
fn show_facings(
    duel: &mut RangeDuel,
    orders: [Action; 2],
    passed: [bool; 2],
    faced: &[(Presented, FacingReason); 2],
    facts: &mut Facts,
) {
    for (p, &(facing, reason)) in faced.iter().enumerate() {
        let player = PlayerId(p as u8);
        facts.push(|| Fact::Facing {
            player,
            facing,
            reason,
        });
        duel.presented[p] = Some(facing);
        duel.hull_down[p] = orders[p] == Action::HullDown && passed[p];
        if orders[p] == Action::HullDown {
            facts.push(|| Fact::HullDown {
                player,
                protected: passed[p],
            });
        }
    }
}

/// The guns fire: the Driving winner's first (a tank it knocks out does not fire back),
/// or both at once, the to-hit numbers fixed before any damage.
fn fire_volleys(
    duel: &mut RangeDuel,
    setup: &DuelSetup,
    winner: Option<usize>,
    rng: &mut MatchRng,
    facts: &mut Facts,
) {
    let volleys: [&[usize]; 2] = match (setup.rules.fire_order, winner) {
        (FireOrder::DrivingWinnerFirst, Some(0)) => [&[0], &[1]],
        (FireOrder::DrivingWinnerFirst, Some(_)) => [&[1], &[0]],
        _ => [&[0, 1], &[]],
    };
    for volley in volleys.into_iter().filter(|v| !v.is_empty()) {
        let mut shots: [Option<(usize, Result<(u8, Vec<Modifier>), NoShot>)>; 2] = [None, None];
        for (slot, &p) in shots.iter_mut().zip(volley) {
            if !duel.tanks[p].knocked_out {
                *slot = Some((p, aim(setup, &duel.tanks[p], duel.range, facts.wanted())));
            }
        }
        for (p, plan) in shots.into_iter().flatten() {
            match plan {
                Ok((needed, modifiers)) => fire(duel, p, needed, modifiers, rng, facts),
                Err(no) => facts.push(|| Fact::CannotFire {
                    player: PlayerId(p as u8),
                    why: no.explained(setup, duel.range).to_string(),
                }),
            }
        }
        knock_outs(duel, facts);
    }
}

fn resolve_collision(
    duel: &mut RangeDuel,
    rammer: usize,
    faced: [Presented; 2],
    rng: &mut MatchRng,
    facts: &mut Facts,
) {
    let setup = Arc::clone(&duel.setup);
    let tr = &setup.tank_rules;
    let target = 1 - rammer;
    let kind = collision(faced[rammer], faced[target]);
    facts.push(|| Fact::Collision {
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
    let damages = collision_damages(kind, [sr, st], [ar, at], whose, &setup, rng);
    let per_hull = setup.table.ram_damage_per_hull.max(1);
    for (i, (points, formula, dice)) in damages.into_iter().enumerate() {
        let p = if i == 0 { rammer } else { target };
        let hull_lost = points / per_hull;
        let glancing_roll = (hull_lost == 0 && points > 0).then(|| rng.d6());
        facts.push(|| Fact::CollisionDamage {
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

/// The damage a collision of `kind` deals the rammer and the rammed tank, each with its
/// formula in words and the dice rolled: from the Top Speeds `[rammer, target]` and the
/// facing armor `[ar, at]` (`whose` says whose armor `ar` is).
fn collision_damages(
    kind: Collision,
    [sr, st]: [u8; 2],
    [ar, at]: [u8; 2],
    whose: &str,
    setup: &DuelSetup,
    rng: &mut MatchRng,
) -> [(u8, String, Vec<u8>); 2] {
    match kind {
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
    }
}

fn fire(
    duel: &mut RangeDuel,
    p: usize,
    needed: u8,
    modifiers: Vec<Modifier>,
    rng: &mut MatchRng,
    facts: &mut Facts,
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
    let strength = tr.firing.at_strength;
    let (mut location_roll, mut location, mut armor_facing) = (None, None, None);
    let (mut armor, mut negated, mut penetrating, mut wounds) = (0, false, false, false);
    let (mut penetration_roll, mut glancing_roll) = (None, None);
    if hit {
        let roll = rng.d6();
        let row = setup.table.location(roll);
        let facing = match row.armor {
            LocationArmor::Front => ArmorFacing::Front,
            LocationArmor::Presented => duel.presented[target].unwrap_or(Presented::Front).armor(),
        };
        armor = duel.tanks[target].armor.facing(facing);
        negated = !row.turret && duel.hull_down[target];
        if !negated {
            let pen = rng.d6();
            penetration_roll = Some(pen);
            penetrating = pen + strength > armor;
            if penetrating {
                wounds = true;
            } else {
                let g = rng.d6();
                glancing_roll = Some(g);
                wounds = g >= tr.damage.glancing_wound_on;
            }
        }
        (location_roll, location, armor_facing) = (Some(roll), Some(row), Some(facing));
    }
    facts.push(|| Fact::Shot {
        shooter: PlayerId(p as u8),
        target: PlayerId(target as u8),
        band: duel.range,
        band_name: setup.table.band(duel.range).name.clone(),
        needed,
        modifiers,
        roll,
        hit,
        location_roll,
        location: location.map(|row| row.name.clone()),
        turret: location.is_some_and(|row| row.turret),
        armor_facing,
        armor,
        negated,
        penetration_roll,
        strength,
        penetrating,
        glancing_roll,
    });
    if penetrating {
        lose_hull(duel, target, 1, facts);
    }
    if wounds {
        wound(duel, target, rng, facts);
    }
}

fn lose_hull(duel: &mut RangeDuel, p: usize, lost: u8, facts: &mut Facts) {
    let t = &mut duel.tanks[p];
    let lost = lost.min(t.hull);
    t.hull -= lost;
    facts.push(|| Fact::HullLost {
        player: PlayerId(p as u8),
        lost,
        left: t.hull,
    });
}

/// Wounds a random living crew member, as in Tank Commander (medkit, lieutenant).
fn wound(duel: &mut RangeDuel, p: usize, rng: &mut MatchRng, facts: &mut Facts) {
    let t = &mut duel.tanks[p];
    let living = t.living_crew().count();
    if living == 0 {
        return;
    }
    let pick = rng.pick(living);
    let Some(i) = (0..t.crew.len())
        .filter(|&i| t.crew[i].is_alive())
        .nth(pick)
    else {
        return;
    };
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
    facts.push(|| Fact::Wounded {
        player: PlayerId(p as u8),
        wound: Wound {
            pick: u8::try_from(pick + 1).unwrap_or(u8::MAX),
            of: u8::try_from(living).unwrap_or(u8::MAX),
            role,
            name: t.crew[i].name.clone(),
            killed,
            treated,
            lieutenant_takes_over: takes_over,
        },
    });
}

fn knock_outs(duel: &mut RangeDuel, facts: &mut Facts) {
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
        facts.push(|| Fact::KnockedOut {
            player: PlayerId(p as u8),
            why: why.into(),
        });
    }
}
