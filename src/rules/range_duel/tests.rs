//! Range Duel tests: the rulebook's matrix rows and tables, our readings, refusals,
//! setups, determinism, random play, and the heuristic bot.

use std::path::Path;

use proptest::prelude::*;

use super::resolve::FacingReason;
use super::*;
use crate::framework::bot::play_out;
use crate::framework::{Game, Match, MatchRng, PlayerId};
use crate::rules::tank_commander::setup::Rules as TankRules;

const P1: PlayerId = PlayerId(0);
const P2: PlayerId = PlayerId(1);

const CLOSE: Action = Action::ChangeRange {
    direction: Direction::Closing,
    ram: false,
    most: None,
    facings: Facings::USUAL,
};
const CLOSE_RAM: Action = Action::ChangeRange {
    direction: Direction::Closing,
    ram: true,
    most: None,
    facings: Facings::USUAL,
};
const OPEN: Action = Action::ChangeRange {
    direction: Direction::Opening,
    ram: false,
    most: None,
    facings: Facings::USUAL,
};
const MANEUVER: Action = Action::Maneuver {
    drift: None,
    ram: false,
    facings: Facings::USUAL,
};
const DRIFT_CLOSER: Action = Action::Maneuver {
    drift: Some(Direction::Closing),
    ram: false,
    facings: Facings::USUAL,
};
const BACK_OFF: Action = Action::Maneuver {
    drift: Some(Direction::Opening),
    ram: false,
    facings: Facings::USUAL,
};
const HULL_DOWN: Action = Action::HullDown;

/// Two stock tanks (armor 6/6/6, hull 4, Top Speed 3, gun range 6) at `start`.
fn stock(start: &str, rules: &str) -> RangeDuel {
    let text = format!(
        "RangeDuelSetup(name: \"t\", tanks: [(design: (name: \"A\")), (design: (name: \"B\"))], \
         start_range: \"{start}\", rules: ({rules}))"
    );
    RangeDuel::new(&parse(&text).expect("valid test setup"))
}

fn parse(text: &str) -> Result<DuelSetup, crate::data::Diagnostics> {
    DuelSetup::parse_with(
        Path::new("test.ron"),
        text,
        &DuelTable::builtin(),
        &TankRules::builtin(),
    )
}

/// Plays one combat turn with scripted dice (then a fixed seed).
fn turn(duel: &mut RangeDuel, a: Action, b: Action, script: &[u32]) -> Vec<Fact> {
    let mut rng = MatchRng::scripted(99, script.iter().copied());
    let mut facts = duel.apply(P1, &a, &mut rng).expect("legal");
    facts.extend(duel.apply(P2, &b, &mut rng).expect("legal"));
    facts
}

fn facing(facts: &[Fact], p: PlayerId) -> (Presented, FacingReason) {
    facts
        .iter()
        .find_map(|f| match f {
            Fact::Facing {
                player,
                facing,
                reason,
            } if *player == p => Some((*facing, *reason)),
            _ => None,
        })
        .expect("a facing fact")
}

fn row(facts: &[Fact]) -> AppliedRow {
    facts
        .iter()
        .find_map(|f| match f {
            Fact::Revealed { row, .. } => Some(*row),
            _ => None,
        })
        .expect("a reveal")
}

fn has(facts: &[Fact], pred: impl Fn(&Fact) -> bool) -> bool {
    facts.iter().any(pred)
}

// Bands: 0 Adjacent, 1 Close, 2 Short, 3 Medium, 4 Long, 5 Extreme.

#[test]
fn shipped_table_and_scenarios_are_valid() {
    let table = DuelTable::builtin();
    assert_eq!(table.bands[0].name, "Adjacent");
    assert_eq!(table.bands[1].name, "Close");
    let _ = DuelSetup::builtin_default();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/range-duel");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        if let Err(e) = DuelSetup::parse(&path, &text) {
            panic!("{e}");
        }
        n += 1;
    }
    assert!(n >= 3);
}

#[test]
fn matrix_rows_apply_with_roles_swapped() {
    use matrix::applied_row;
    let r = applied_row([MANEUVER, CLOSE]);
    assert_eq!((r.row, r.tank1), (Row::ChangeVsManeuver, P2));
    let r = applied_row([HULL_DOWN, DRIFT_CLOSER]);
    assert_eq!((r.row, r.tank1), (Row::ManeuverVsHullDown, P2));
    let r = applied_row([CLOSE, HULL_DOWN]);
    assert_eq!((r.row, r.tank1), (Row::ChangeVsHullDown, P1));
    assert_eq!(applied_row([OPEN, CLOSE]).row, Row::ChangeVsChange);
    assert_eq!(
        applied_row([MANEUVER, BACK_OFF]).row,
        Row::ManeuverVsManeuver
    );
    assert_eq!(
        applied_row([HULL_DOWN, HULL_DOWN]).row,
        Row::HullDownVsHullDown
    );
}

#[test]
fn collision_type_table() {
    use Presented::*;
    use matrix::collision;
    assert_eq!(collision(Left, Right), Collision::Sideswipe);
    assert_eq!(collision(Front, Left), Collision::TBone);
    assert_eq!(collision(Front, Front), Collision::HeadOn);
    assert_eq!(collision(Front, Rear), Collision::Sideswipe);
    // Our symmetric readings.
    assert_eq!(collision(Right, Front), Collision::TBone);
    assert_eq!(collision(Rear, Front), Collision::Sideswipe);
    assert_eq!(collision(Rear, Rear), Collision::Sideswipe);
}

#[test]
fn row1_winner_changes_range_by_one() {
    let mut d = stock("Medium", "");
    // P1 8, P2 4: P1 wins and closes 1; P1 shows front (closing), P2 rear (opening).
    let f = turn(&mut d, CLOSE, OPEN, &[4, 4, 2, 2]);
    assert_eq!(row(&f).row, Row::ChangeVsChange);
    assert_eq!(d.range(), 2);
    assert_eq!(facing(&f, P1), (Presented::Front, FacingReason::Closing));
    assert_eq!(facing(&f, P2), (Presented::Rear, FacingReason::Opening));
}

#[test]
fn row1_tie_leaves_range() {
    let mut d = stock("Medium", "");
    let f = turn(&mut d, CLOSE, OPEN, &[3, 3, 4, 2]);
    assert!(has(&f, |x| matches!(
        x,
        Fact::DrivingWinner { winner: None, .. }
    )));
    assert_eq!(d.range(), 3);
}

#[test]
fn row1_tie_rerolled_under_the_switch() {
    let mut d = stock("Medium", "driving_tie: Reroll");
    let f = turn(&mut d, CLOSE, OPEN, &[3, 3, 4, 2, 1, 1, 6, 6]);
    assert!(has(&f, |x| matches!(
        x,
        Fact::DrivingTest { reroll: true, .. }
    )));
    assert_eq!(d.range(), 4, "P2 wins the re-roll and opens 1");
}

#[test]
fn row1_both_closing_shift_two_regardless_of_driving() {
    let mut d = stock("Long", "");
    turn(&mut d, CLOSE, CLOSE, &[1, 1, 1, 1]);
    assert_eq!(d.range(), 2);
}

#[test]
fn row1_both_opening_shift_two_and_face_front() {
    let mut d = stock("Close", "");
    let f = turn(&mut d, OPEN, OPEN, &[1, 1, 6, 6]);
    assert_eq!(d.range(), 3);
    assert_eq!(
        facing(&f, P1),
        (Presented::Front, FacingReason::BothOpening)
    );
    let mut d = stock("Close", "both_opening: Rear");
    let f = turn(&mut d, OPEN, OPEN, &[1, 1, 6, 6]);
    assert_eq!(facing(&f, P2).0, Presented::Rear);
}

#[test]
fn row1_overshoot_to_close_without_a_ram() {
    let mut d = stock("Close", "");
    let f = turn(&mut d, CLOSE, CLOSE, &[6, 6, 6, 6]);
    assert!(has(&f, |x| matches!(x, Fact::Overshoot { to: 1, .. })));
    assert_eq!(d.range(), 1);
}

#[test]
fn row2_change_vs_maneuver_success_two_failure_one() {
    let mut d = stock("Long", "");
    // P2 changes range (Tank 1 of the row), passes (8), and wins: P1's facing is random.
    let f = turn(&mut d, MANEUVER, CLOSE, &[2, 2, 4, 4, 3]);
    assert_eq!(row(&f).tank1, P2);
    assert_eq!(d.range(), 2);
    assert_eq!(
        facing(&f, P1),
        (Presented::Right, FacingReason::Random { roll: 3 })
    );
    assert_eq!(facing(&f, P2).0, Presented::Front);
    let mut d = stock("Long", "");
    // P2 fails (5) and P1 wins Driving: P1 chooses its own facing (front).
    let f = turn(&mut d, MANEUVER, CLOSE, &[5, 5, 2, 3]);
    assert_eq!(d.range(), 3);
    assert_eq!(
        facing(&f, P1),
        (Presented::Front, FacingReason::Choice { by: P1 })
    );
}

#[test]
fn row3_maneuver_winner_chooses_both_facings_and_back_off() {
    let mut d = stock("Short", "");
    let f = turn(&mut d, MANEUVER, MANEUVER, &[6, 5, 1, 2]);
    assert_eq!(d.range(), 2);
    assert_eq!(facing(&f, P1).0, Presented::Front);
    assert_eq!(
        facing(&f, P2),
        (Presented::Rear, FacingReason::Choice { by: P1 })
    );
    let mut d = stock("Short", "");
    let f = turn(&mut d, MANEUVER, BACK_OFF, &[3, 3, 3, 3]);
    assert_eq!(d.range(), 3, "either party may back off 1");
    assert_eq!(facing(&f, P2), (Presented::Front, FacingReason::OwnChoice));
}

#[test]
fn row4_change_vs_hull_down() {
    let mut d = stock("Extreme", "");
    // P1 passes (9) and wins: 3 closer; P1 chooses P2's facing (rear). P2 fails (4).
    let f = turn(&mut d, CLOSE, HULL_DOWN, &[4, 5, 2, 2]);
    assert_eq!(d.range(), 2);
    assert_eq!(facing(&f, P2).0, Presented::Rear);
    assert!(has(&f, |x| matches!(
        x,
        Fact::HullDown {
            protected: false,
            ..
        }
    )));
    let mut d = stock("Extreme", "");
    // P1 fails (3): 2 closer; P2 passes and wins: random facing; hull down holds.
    let f = turn(&mut d, CLOSE, HULL_DOWN, &[1, 2, 5, 5, 1]);
    assert_eq!(d.range(), 3);
    assert_eq!(
        facing(&f, P2),
        (Presented::Front, FacingReason::Random { roll: 1 })
    );
    assert!(has(&f, |x| matches!(
        x,
        Fact::HullDown {
            protected: true,
            ..
        }
    )));
    assert!(d.last_posture(P2).1);
}

#[test]
fn row5_maneuver_vs_hull_down() {
    let mut d = stock("Medium", "");
    let f = turn(&mut d, HULL_DOWN, DRIFT_CLOSER, &[1, 1, 6, 6]);
    assert_eq!(row(&f).row, Row::ManeuverVsHullDown);
    assert_eq!(d.range(), 2, "the maneuvering tank passed: 1 its way");
    assert_eq!(facing(&f, P1).0, Presented::Rear);
    let mut d = stock("Medium", "");
    let f = turn(&mut d, HULL_DOWN, DRIFT_CLOSER, &[6, 6, 1, 1, 2, 4]);
    assert_eq!(d.range(), 3, "failure: unchanged");
    // Both random, the row's Tank 1 (P2) first: d4 2 then 4.
    assert_eq!(facing(&f, P2).0, Presented::Left);
    assert_eq!(facing(&f, P1).0, Presented::Rear);
}

#[test]
fn row6_each_tank_that_passes_is_protected() {
    let mut d = stock("Short", "");
    let f = turn(&mut d, HULL_DOWN, HULL_DOWN, &[6, 6, 1, 1]);
    assert_eq!(d.range(), 2);
    assert_eq!(d.last_posture(P1), (Some(Presented::Front), true));
    assert_eq!(d.last_posture(P2), (Some(Presented::Rear), false));
    assert!(has(
        &f,
        |x| matches!(x, Fact::HullDown { player, protected: true } if *player == P1)
    ));
}

#[test]
fn a_driver_may_open_the_range_less_than_the_matrix_allows() {
    // Change Range against Hull Down: a pass moves the range up to 3 bands. From Medium
    // the full shift reaches Extreme (no gun reaches it); at most 1 stops at Long.
    let open_one = Action::ChangeRange {
        direction: Direction::Opening,
        ram: false,
        most: Some(1),
        facings: Facings::USUAL,
    };
    let mut d = stock("Medium", "");
    turn(&mut d, OPEN, HULL_DOWN, &[6, 6, 1, 1, 1, 1, 1, 1, 1, 1]);
    assert_eq!(d.range(), 5, "the full shift: Medium to Extreme");
    let mut d = stock("Medium", "");
    let f = turn(&mut d, open_one, HULL_DOWN, &[6, 6, 1, 1, 1, 1, 1, 1, 1, 1]);
    assert_eq!(d.range(), 4, "one band: Medium to Long");
    assert!(has(&f, |x| matches!(
        x,
        Fact::RangeChanged { from: 3, to: 4, .. }
    )));
    // Closing at most 2 from Long stops at Short, not Adjacent.
    let close_two = Action::ChangeRange {
        direction: Direction::Closing,
        ram: false,
        most: Some(2),
        facings: Facings::USUAL,
    };
    let mut d = stock("Long", "");
    turn(
        &mut d,
        close_two,
        HULL_DOWN,
        &[6, 6, 1, 1, 1, 1, 1, 1, 1, 1],
    );
    assert_eq!(d.range(), 2);
    // A limit of no bands, or a limit with a ram, is refused.
    let mut rng = MatchRng::new(1);
    for bad in [
        Action::ChangeRange {
            direction: Direction::Opening,
            ram: false,
            most: Some(0),
            facings: Facings::USUAL,
        },
        Action::ChangeRange {
            direction: Direction::Closing,
            ram: true,
            most: Some(1),
            facings: Facings::USUAL,
        },
    ] {
        let err = d.apply(P1, &bad, &mut rng).unwrap_err();
        assert_eq!(err.rule, "rd.chart.up-to", "{bad:?}: {err}");
    }
    // A record written before the limit existed reads as no limit.
    let old: Action = ron::from_str("ChangeRange(direction: Opening, ram: false)").unwrap();
    assert_eq!(old, OPEN);
}

#[test]
fn up_to_stops_at_adjacent_unless_ramming() {
    let mut d = stock("Close", "");
    let f = turn(&mut d, CLOSE, HULL_DOWN, &[6, 6, 1, 1]);
    assert_eq!(d.range(), 0);
    assert!(!has(&f, |x| matches!(x, Fact::Overshoot { .. })));
}

#[test]
fn a_failed_ram_overshoots() {
    let mut d = stock("Close", "");
    // P1 fails (3) but P2 (2) is lower: P1 shifts 2 closer, past Adjacent, and misses.
    let f = turn(&mut d, CLOSE_RAM, HULL_DOWN, &[1, 2, 1, 1, 1]);
    assert!(has(&f, |x| matches!(
        x,
        Fact::RamAttempt {
            succeeded: false,
            ..
        }
    )));
    assert!(has(&f, |x| matches!(x, Fact::Overshoot { .. })));
    assert_eq!(d.range(), 1);
}

#[test]
fn the_driving_winner_fires_first_and_a_tank_it_knocks_out_does_not_fire_back() {
    // P1 wins Driving (12 against 2); P2 has one hull point left. P1 hits (6) the hull
    // (4) and penetrates (1 + 6 > 6).
    let dice = [6, 6, 1, 1, 6, 4, 1, 1, 1, 1, 1, 1];
    let mut d = stock("Short", "");
    d.tanks[1].hull = 1;
    let f = turn(&mut d, MANEUVER, MANEUVER, &dice);
    assert!(has(
        &f,
        |x| matches!(x, Fact::KnockedOut { player, .. } if *player == P2)
    ));
    assert!(!has(
        &f,
        |x| matches!(x, Fact::Shot { shooter, .. } if *shooter == P2)
    ));
    assert_eq!(d.outcome().unwrap().winners, vec![P1]);
    // Fired together, the knocked-out tank's shot still goes off.
    let mut d = stock("Short", "fire_order: Simultaneous");
    d.tanks[1].hull = 1;
    let f = turn(&mut d, MANEUVER, MANEUVER, &dice);
    assert!(has(
        &f,
        |x| matches!(x, Fact::Shot { shooter, .. } if *shooter == P2)
    ));
}

#[test]
fn head_on_ram_damage() {
    let mut d = stock("Close", "");
    // Both close with P1 ramming; both pass, P1 wins; both front: Head-On.
    // Rammer: 3 + min(3, 6) = 6; rammed: min(3, 6) + 3 = 6; under 8 points a hull point
    // (the duel table's `ram_damage_per_hull`), so each is a glancing knock: a wound on
    // 4+, and the scripted 1s wound nobody.
    let f = turn(&mut d, CLOSE_RAM, CLOSE, &[6, 6, 4, 4, 1, 1, 1, 1]);
    assert!(has(&f, |x| matches!(
        x,
        Fact::Collision {
            kind: Collision::HeadOn,
            ..
        }
    )));
    assert!(has(&f, |x| matches!(
        x,
        Fact::CollisionDamage {
            attacker: true,
            points: 6,
            hull_lost: 0,
            glancing_roll: Some(1),
            ..
        }
    )));
    assert!(has(&f, |x| matches!(
        x,
        Fact::CollisionDamage {
            attacker: false,
            points: 6,
            hull_lost: 0,
            glancing_roll: Some(1),
            ..
        }
    )));
    assert_eq!(d.range(), 0);
    assert_eq!(d.tank(P1).hull, 4);
    assert_eq!(d.tank(P2).hull, 4);
}

#[test]
fn sideswipe_and_t_bone_damage() {
    // Maneuver vs Hull Down at Adjacent: P2 drifts closer with a ram and wins, so P2
    // chooses: its own front, P1's rear: a Sideswipe.
    let ram = Action::Maneuver {
        drift: Some(Direction::Closing),
        ram: true,
        facings: Facings::USUAL,
    };
    let mut d = stock("Adjacent", "");
    // Dice: driving 1+1, 6+6; sideswipe attacker 2d6 (3, 4) = 5, defender (5, 6) x 1 = 11.
    let f = turn(
        &mut d,
        HULL_DOWN,
        ram,
        &[1, 1, 6, 6, 3, 4, 5, 6, 1, 1, 1, 1],
    );
    assert!(has(&f, |x| matches!(
        x,
        Fact::Collision {
            kind: Collision::Sideswipe,
            ..
        }
    )));
    assert!(has(&f, |x| matches!(
        x,
        Fact::CollisionDamage {
            attacker: true,
            points: 5,
            hull_lost: 0,
            ..
        }
    )));
    assert!(has(&f, |x| matches!(
        x,
        Fact::CollisionDamage {
            attacker: false,
            points: 11,
            hull_lost: 1,
            ..
        }
    )));
    // A T-Bone: P2 passes but loses Driving, so P1's facing is random: left side.
    let mut d = stock("Adjacent", "");
    let f = turn(&mut d, HULL_DOWN, ram, &[6, 6, 4, 4, 2, 1, 6]);
    assert!(has(&f, |x| matches!(
        x,
        Fact::Collision {
            kind: Collision::TBone,
            ..
        }
    )));
    assert!(has(&f, |x| matches!(
        x,
        Fact::CollisionDamage {
            attacker: true,
            points: 3,
            hull_lost: 0,
            glancing_roll: Some(6),
            ..
        }
    )));
}

#[test]
fn a_tank_without_its_driver_cannot_change_the_range() {
    let mut d = stock("Medium", "");
    d.tanks[0].crew[1].wounds = 2;
    assert_eq!(d.tank(P1).top_speed(&d.setup().tank_rules), 0);
    let mut rng = MatchRng::new(1);
    let err = d.apply(P1, &CLOSE, &mut rng).unwrap_err();
    assert!(err.why.contains("no driver"), "{err}");
    assert_eq!(err.rule, "rd.turn.driverless");
    assert!(d.apply(P1, &DRIFT_CLOSER, &mut rng).is_err());
    let legal = d.legal_actions(P1);
    assert!(legal.iter().all(|a| a.direction().is_none()), "{legal:?}");
    assert!(legal.contains(&HULL_DOWN) && legal.contains(&MANEUVER));
    // The enemy still may, and the switch gives the old reading back.
    assert!(d.legal_actions(P2).contains(&CLOSE));
    let mut d = stock("Medium", "driverless_moves: true");
    d.tanks[0].crew[1].wounds = 2;
    assert!(d.apply(P1, &CLOSE, &mut rng).is_ok());
}

#[test]
fn the_driving_winner_picks_the_facings_its_order_names() {
    // Maneuver (drifting closer, with a ram) against Hull Down at Adjacent: P2 wins
    // Driving and chooses both facings. The usual choice (its front, P1's rear) makes a
    // Sideswipe; aiming for P1's side makes a T-Bone.
    let aim = |enemy: Presented| {
        Action::Maneuver {
            drift: Some(Direction::Closing),
            ram: true,
            facings: Facings::USUAL,
        }
        .with_facings(Facings {
            own: Presented::Front,
            enemy,
        })
    };
    let dice = [1, 1, 6, 6, 3, 4, 5, 6, 1, 1, 1, 1, 1, 1];
    let kind = |facts: &[Fact]| {
        facts.iter().find_map(|f| match f {
            Fact::Collision { kind, .. } => Some(*kind),
            _ => None,
        })
    };
    let mut d = stock("Adjacent", "");
    let f = turn(&mut d, HULL_DOWN, aim(Presented::Rear), &dice);
    assert_eq!(kind(&f), Some(Collision::Sideswipe));
    let mut d = stock("Adjacent", "");
    let f = turn(&mut d, HULL_DOWN, aim(Presented::Left), &dice);
    assert_eq!(kind(&f), Some(Collision::TBone));
    assert_eq!(
        facing(&f, P1),
        (Presented::Left, FacingReason::Choice { by: P2 })
    );
    assert_eq!(
        facing(&f, P2),
        (Presented::Front, FacingReason::Choice { by: P2 })
    );
    // The choice is part of the secret order, written only when it is not the usual.
    let text = ron::to_string(&aim(Presented::Left)).unwrap();
    assert!(text.contains("enemy:Left"), "{text}");
    assert!(!ron::to_string(&CLOSE).unwrap().contains("facings"));
    assert!(Action::offered().contains(&aim(Presented::Left)));
    assert!(d.legal_actions(P1).contains(&aim(Presented::Front)));
}

/// Collision damage points, rammer's then rammed's, of the first ram in `facts`.
fn ram_points(facts: &[Fact]) -> (u8, u8) {
    let of = |attacker: bool| {
        facts
            .iter()
            .find_map(|f| match f {
                Fact::CollisionDamage {
                    attacker: a,
                    points,
                    ..
                } if *a == attacker => Some(*points),
                _ => None,
            })
            .expect("a collision")
    };
    (of(true), of(false))
}

#[test]
fn collision_armor_is_the_defenders_in_both_formulas_or_each_tanks_own() {
    use crate::rules::tank_commander::setup::Armor;
    // Thin armor, so that the lesser of speed (3) and armor is the armor: P1 (the
    // rammer) front 2, P2 front 1 and side 0.
    let thin = |d: &mut RangeDuel| {
        d.tanks[0].armor = Armor {
            front: 2,
            side: 2,
            rear: 2,
        };
        d.tanks[1].armor = Armor {
            front: 1,
            side: 0,
            rear: 0,
        };
    };
    // Head-On: both close, P1 rams and wins Driving; both show their fronts.
    let head_on = |rules: &str| {
        let mut d = stock("Close", rules);
        thin(&mut d);
        let f = turn(&mut d, CLOSE_RAM, CLOSE, &[6, 6, 4, 4, 1, 1, 1, 1, 1, 1]);
        assert!(has(&f, |x| matches!(
            x,
            Fact::Collision {
                kind: Collision::HeadOn,
                ..
            }
        )));
        ram_points(&f)
    };
    // Rammer: its speed 3 + lesser of the target's speed 3 and the facing armor;
    // rammed: lesser of 3 and its own front 1, + its speed 3.
    assert_eq!(head_on(""), (3 + 1, 1 + 3), "the defender's front, 1");
    assert_eq!(
        head_on("collision_armor: Own"),
        (3 + 2, 1 + 3),
        "the rammer's own front, 2"
    );
    // T-Bone: P2 closes with a ram against Hull Down and wins Driving, choosing P1's
    // ... here the rammer is P1: P1 maneuvers closer with a ram and passes, P2 hull down
    // loses; P1 chooses both facings: its front, P2's rear (a Sideswipe) — so use the
    // random facing instead: P1 passes but loses Driving, P2's facing is a d4: 2 (left).
    let ram = Action::Maneuver {
        drift: Some(Direction::Closing),
        ram: true,
        facings: Facings::USUAL,
    };
    let t_bone = |rules: &str| {
        let mut d = stock("Adjacent", rules);
        thin(&mut d);
        // Driving: P1 4 + 4 = 8 (passes), P2 6 + 6 = 12 (wins); facings both random:
        // P1 front (1), P2 left (2).
        let f = turn(
            &mut d,
            ram,
            HULL_DOWN,
            &[4, 4, 6, 6, 1, 2, 1, 1, 1, 1, 1, 1],
        );
        assert!(
            has(&f, |x| matches!(
                x,
                Fact::Collision {
                    kind: Collision::TBone,
                    ..
                }
            )),
            "{f:?}"
        );
        ram_points(&f)
    };
    // Both take the lesser of the rammer's speed 3 and the facing armor.
    assert_eq!(t_bone(""), (0, 0), "the defender's side, 0, for both");
    assert_eq!(
        t_bone("collision_armor: Own"),
        (2, 0),
        "the rammer's own front, 2, for the rammer"
    );
}

#[test]
fn shots_hit_penetrate_and_wound() {
    let mut d = stock("Short", "");
    // HvH, nobody passes (tie at 2): both front. P1 fires: 5 hits (4+), location 4 (hull),
    // penetration 3 + 6 = 9 > 6, wound pick 2 (driver). P2 misses with a 1.
    let f = turn(&mut d, MANEUVER, MANEUVER, &[1, 1, 1, 1, 5, 4, 3, 2, 1]);
    assert!(has(&f, |x| matches!(
        x,
        Fact::Shot { shooter, hit: true, penetrating: true, needed: 4, .. } if *shooter == P1
    )));
    assert!(has(
        &f,
        |x| matches!(x, Fact::Shot { shooter, hit: false, .. } if *shooter == P2)
    ));
    assert_eq!(d.tank(P2).hull, 3);
    assert_eq!(d.tank(P2).crew[1].wounds, 1);
    assert_eq!(d.tank(P2).top_speed(&d.setup().tank_rules), 2);
}

#[test]
fn hull_down_negates_hull_hits_but_not_turret_hits() {
    let both = "fire_order: Simultaneous";
    let mut d = stock("Short", both);
    // P2 hull down and passes; P1 hits the hull (location 5): negated.
    let f = turn(&mut d, MANEUVER, HULL_DOWN, &[1, 1, 6, 6, 1, 1, 6, 5]);
    assert!(has(
        &f,
        |x| matches!(x, Fact::Shot { shooter, negated: true, .. } if *shooter == P1)
    ));
    assert_eq!(d.tank(P2).hull, 4);
    let mut d = stock("Short", both);
    // The turret (location 1) is never negated.
    let f = turn(&mut d, MANEUVER, HULL_DOWN, &[1, 1, 6, 6, 1, 1, 6, 1, 6, 1]);
    assert!(has(&f, |x| matches!(
        x,
        Fact::Shot { shooter, negated: false, turret: true, penetrating: true, .. } if *shooter == P1
    )));
}

#[test]
fn out_of_range_at_extreme_and_barrel_reach() {
    let mut d = stock("Extreme", "");
    let f = turn(&mut d, HULL_DOWN, HULL_DOWN, &[1, 1, 1, 1]);
    assert_eq!(
        f.iter()
            .filter(|x| matches!(x, Fact::CannotFire { .. }))
            .count(),
        2
    );
    let duel = RangeDuel::new(&parse(crate::rules::range_duel::setup::BUILTIN_SETUP).unwrap());
    assert!(
        duel.to_hit(P2, 4).is_ok(),
        "the Extended Barrel reaches Long"
    );
    assert!(duel.to_hit(P1, 4).is_err());
}

#[test]
fn knock_out_ends_the_duel_and_turn_limit_draws() {
    let mut d = stock("Short", "");
    d.tanks[1].hull = 1;
    let f = turn(&mut d, MANEUVER, MANEUVER, &[1, 1, 1, 1, 6, 4, 6, 1, 1]);
    assert!(has(
        &f,
        |x| matches!(x, Fact::KnockedOut { player, .. } if *player == P2)
    ));
    let outcome = d.outcome().unwrap();
    assert_eq!(outcome.winners, vec![P1]);
    assert!(d.to_act().is_empty());
    assert!(has(&f, |x| matches!(x, Fact::Ended { .. })));

    let mut d = stock("Extreme", "turn_limit: 2");
    turn(&mut d, HULL_DOWN, HULL_DOWN, &[1, 1, 1, 1]);
    assert!(d.outcome().is_none());
    turn(&mut d, HULL_DOWN, HULL_DOWN, &[1, 1, 1, 1]);
    assert!(d.outcome().unwrap().is_draw());
}

#[test]
fn both_knocked_out_is_a_draw() {
    let mut d = stock("Short", "");
    d.tanks[0].hull = 1;
    d.tanks[1].hull = 1;
    turn(
        &mut d,
        MANEUVER,
        MANEUVER,
        &[1, 1, 1, 1, 6, 4, 6, 1, 6, 4, 6, 1],
    );
    assert!(d.outcome().unwrap().is_draw());
}

#[test]
fn refusals_leave_the_state_unchanged() {
    let mut d = stock("Medium", "");
    let mut rng = MatchRng::new(1);
    let bad = Action::ChangeRange {
        direction: Direction::Opening,
        ram: true,
        most: None,
        facings: Facings::USUAL,
    };
    let err = d.apply(P1, &bad, &mut rng).unwrap_err();
    assert!(err.why.contains("closing"), "{err}");
    assert_eq!(err.rule, "rd.ram.who");
    let bad = Action::Maneuver {
        drift: None,
        ram: true,
        facings: Facings::USUAL,
    };
    assert_eq!(d.apply(P1, &bad, &mut rng).unwrap_err().rule, "rd.ram.who");
    d.apply(P1, &MANEUVER, &mut rng).unwrap();
    let hash = d.state_hash();
    let err = d.apply(P1, &OPEN, &mut rng).unwrap_err();
    assert!(err.why.contains("already"), "{err}");
    assert_eq!(err.rule, "rd.turn.three-orders");
    assert!(d.apply(PlayerId(2), &OPEN, &mut rng).is_err());
    assert_eq!(d.state_hash(), hash);
    assert!(d.legal_actions(P1).is_empty());
    assert_eq!(d.legal_actions(P2).len(), Action::every().len());
}

#[test]
fn view_hides_the_other_order_until_the_reveal() {
    let mut d = stock("Medium", "");
    let mut rng = MatchRng::new(1);
    d.apply(P1, &CLOSE_RAM, &mut rng).unwrap();
    let theirs = d.view(P2);
    assert_eq!(theirs.your_order, None);
    assert!(theirs.enemy_has_chosen);
    let json = serde_json::to_string(&theirs).unwrap();
    assert!(!json.contains("Closing"), "{json}");
    assert_eq!(d.view(P1).your_order, Some(CLOSE_RAM));
    assert_eq!(d.to_act(), vec![P2]);
}

#[test]
fn a_bad_setup_lists_every_problem_with_its_place() {
    let text = "RangeDuelSetup(\n  name: \"bad\",\n  tanks: [\n    (design: (name: \"A\", build: (armor: (front: 1, side: 3)))),\n    (),\n  ],\n  start_range: \"Nowhere\",\n  rules: (turn_limit: 0, colour: 3),\n)";
    let err = parse(text).unwrap_err().to_string();
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines.len() >= 4, "{err}");
    assert!(err.contains("test.ron:4:"), "{err}");
    assert!(err.contains("side armor"), "{err}");
    assert!(
        err.contains("test.ron:5:5: a tank needs a `design` or a `file`"),
        "{err}"
    );
    assert!(err.contains("`Nowhere` is not a range band"), "{err}");
    assert!(err.contains("unknown field `colour`"), "{err}");
    assert!(err.contains("turn limit"), "{err}");
}

#[test]
fn a_duel_build_with_an_idle_upgrade_is_refused_with_the_reason() {
    let text = |rules: &str| {
        format!(
            "RangeDuelSetup(\n  name: \"idle\",\n  tanks: [\n    (design: (name: \"A\", build: (smoke_launcher: true, anti_infantry: true))),\n    (design: (name: \"B\")),\n  ],\n  start_range: \"Short\",\n  rules: ({rules}),\n)"
        )
    };
    let err = parse(&text("")).unwrap_err().to_string();
    assert!(
        err.contains("test.ron:4:")
            && err.contains("a smoke launcher does nothing in a Range Duel"),
        "{err}"
    );
    assert!(err.contains("anti-infantry does nothing"), "{err}");
    assert_eq!(err.lines().count(), 2, "{err}");
    // Allowed by the switch: they cost points and do nothing.
    assert!(parse(&text("idle_upgrades: Allow")).is_ok());
}

#[test]
fn designs_can_come_from_files() {
    let dir = std::env::temp_dir().join(format!("rd-test-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("builds")).unwrap();
    std::fs::write(
        dir.join("builds/brick.ron"),
        "TankDesign(name: \"Brick\", build: (armor: (front: 3, side: 3, rear: 3)))",
    )
    .unwrap();
    let text = "RangeDuelSetup(name: \"f\", tanks: [(file: \"builds/brick.ron\"), (file: \"builds/none.ron\")], start_range: \"Close\")";
    let err = DuelSetup::parse_with(
        &dir.join("duel.ron"),
        text,
        &DuelTable::builtin(),
        &TankRules::builtin(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("no design file `builds/none.ron`"), "{err}");
    let text = "RangeDuelSetup(name: \"f\", tanks: [(file: \"builds/brick.ron\"), (design: (name: \"B\"))], start_range: \"Close\")";
    let setup = DuelSetup::parse_with(
        &dir.join("duel.ron"),
        text,
        &DuelTable::builtin(),
        &TankRules::builtin(),
    )
    .unwrap();
    assert_eq!(setup.tanks[0].name, "Brick");
    assert_eq!(RangeDuel::new(&setup).tank(P1).armor.rear, 9);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn same_setup_seed_and_actions_give_the_same_hash() {
    let setup = DuelSetup::builtin_default();
    let play = || {
        let mut m = Match::new(RangeDuel::new(&setup), 7);
        for (a, b) in [(CLOSE, OPEN), (HULL_DOWN, MANEUVER), (CLOSE_RAM, CLOSE)] {
            if m.state().outcome().is_some() {
                break;
            }
            m.play(P1, &a).unwrap();
            m.play(P2, &b).unwrap();
        }
        m.state().state_hash()
    };
    assert_eq!(play(), play());
}

fn check_invariants(d: &RangeDuel) {
    assert!(d.range() <= d.setup().table.farthest());
    for t in d.tanks() {
        assert!(t.hull <= d.setup().tank_rules.tank.hull);
        assert!(t.crew.iter().all(|m| m.wounds <= 2));
        if t.hull == 0 {
            assert!(t.knocked_out);
        }
    }
    assert!(d.turn() <= d.setup().rules.turn_limit);
    match d.outcome() {
        Some(_) => assert!(d.to_act().is_empty()),
        None => assert!(!d.to_act().is_empty()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_play_keeps_the_invariants_and_ends(seed in any::<u64>(), start in 0u8..6) {
        let mut setup = DuelSetup::builtin_default();
        setup.start_range = start;
        let mut d = RangeDuel::new(&setup);
        let mut rng = MatchRng::new(seed);
        let mut pick = MatchRng::new(seed ^ 0xABCD);
        let mut steps = 0;
        while d.outcome().is_none() {
            let p = d.to_act()[0];
            let actions = d.legal_actions(p);
            let a = actions[pick.pick(actions.len())];
            d.apply(p, &a, &mut rng).unwrap();
            check_invariants(&d);
            steps += 1;
            prop_assert!(steps <= 2 * usize::from(setup.rules.turn_limit));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// A bot's quiet turn on a reset copy plays exactly the turn the table plays: the
    /// same dice, the same duel after it.
    #[test]
    fn a_quiet_turn_on_a_reset_copy_is_the_turn_played(
        seed in any::<u64>(),
        setup_index in 0usize..4,
        turns in 0usize..12,
    ) {
        let setups = ["default", "knife-fight", "marathon", "sniper-vs-brawler"];
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("scenarios/range-duel/{}.ron", setups[setup_index]));
        let rules = <RangeDuel as crate::framework::Playable>::load_rules(None).expect("rules");
        let setup = crate::framework::playable::load_setup::<RangeDuel>(&path, &rules)
            .expect("setup");
        let mut d = RangeDuel::new(&setup);
        let mut pick = MatchRng::new(seed ^ 0x51);
        let mut scratch = d.clone();
        for _ in 0..=turns {
            if d.outcome().is_some() {
                break;
            }
            let orders = [P1, P2].map(|p| {
                let legal = d.legal_actions(p);
                legal[pick.pick(legal.len())]
            });
            scratch.copy_play_from(&d);
            let dice_seed = pick.next_u64();
            prop_assert!(scratch.play_quietly(orders, &mut MatchRng::new(dice_seed)));
            let mut dice = MatchRng::new(dice_seed);
            d.apply(P1, &orders[0], &mut dice).expect("an order");
            d.apply(P2, &orders[1], &mut dice).expect("an order");
            prop_assert_eq!(&scratch.tanks, &d.tanks);
            prop_assert_eq!(
                (scratch.range, scratch.turn, scratch.presented, scratch.hull_down),
                (d.range, d.turn, d.presented, d.hull_down)
            );
        }
    }
}

#[test]
fn facts_describe_themselves() {
    let mut d = stock("Close", "");
    let f = turn(&mut d, CLOSE_RAM, CLOSE, &[6, 6, 4, 4]);
    for fact in &f {
        let s = d.describe_fact(fact);
        assert!(!s.is_empty());
    }
    assert_eq!(d.describe_action(&CLOSE_RAM), "Close + ram");
}

#[test]
fn heuristic_beats_random() {
    let setup = DuelSetup::builtin_default();
    let (mut wins, mut losses, mut games) = (0, 0, 0);
    for seed in 0..300u64 {
        let heuristic_seat = (seed % 2) as usize;
        let mut bots: Vec<Box<dyn Bot<RangeDuel>>> = if heuristic_seat == 0 {
            vec![Box::new(bot::HeuristicBot), Box::new(RandomBot)]
        } else {
            vec![Box::new(RandomBot), Box::new(bot::HeuristicBot)]
        };
        let played = play_out(
            RangeDuel::new(&setup),
            &mut bots,
            &mut MatchRng::new(seed),
            &mut MatchRng::new(seed + 1000),
            1000,
            |_, _| {},
        )
        .unwrap();
        let outcome = played.outcome.unwrap();
        games += 1;
        if outcome.winners.contains(&PlayerId(heuristic_seat as u8)) {
            wins += 1;
        } else if !outcome.winners.is_empty() {
            losses += 1;
        }
    }
    eprintln!("heuristic vs random: {wins} wins, {losses} losses, {games} games");
    // The duel is dice-heavy: a clear but not crushing margin.
    assert!(
        2 * wins > 3 * losses && wins > games / 2,
        "{wins} wins, {losses} losses"
    );
}

#[test]
fn tank_names_are_checked_like_every_other_name() {
    let setup = |a: &str, b: &str| {
        format!(
            "RangeDuelSetup(\n  name: \"x\",\n  tanks: [\n    (design: (name: {a:?})),\n    (design: (name: {b:?}, crew: (gunner: \"Cy\\u{{1b}}[2J\"))),\n  ],\n  start_range: \"Long\",\n)"
        )
    };
    let err = parse(&setup("Stock", "stock")).unwrap_err().to_string();
    assert!(
        err.contains("test.ron:5:15: two tanks are called `Stock` and `stock`"),
        "{err}"
    );
    assert!(err.contains("the gunner's name"), "{err}");
    let err = parse(&setup("Ste\u{7}ve", "Stock"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("test.ron:4:15: the name"), "{err}");
}

/// The long run: random legal play for 10⁶ actions from every starting band.
#[test]
#[ignore = "long: run with --release -- --ignored"]
fn long_random_play_keeps_the_invariants() {
    let setups: Vec<DuelSetup> = (0..6)
        .map(|start| {
            let mut setup = DuelSetup::builtin_default();
            setup.start_range = start;
            setup
        })
        .collect();
    crate::framework::long_run::play::<RangeDuel>(
        &setups,
        crate::framework::long_run::actions_wanted(),
        10_000,
        check_invariants,
    );
}

// Rules map: tests for rules that had none.

#[test]
fn the_driving_test_adds_the_engine_and_takes_off_for_missing_crew() {
    let total = |d: &RangeDuel| -> i16 {
        resolve::driving_modifiers(d.setup(), &d.tanks[0])
            .iter()
            .map(|m| i16::from(m.value))
            .sum()
    };
    let mut d = stock("Medium", "");
    assert_eq!(total(&d), 0, "a stock tank rolls plain 2d6");
    d.tanks[0].build.engine = true;
    assert_eq!(total(&d), 1, "Engine upgrade +1");
    d.tanks[0].crew[1].wounds = 1;
    assert_eq!(total(&d), 1 - 1, "wounded driver -1");
    d.tanks[0].crew[0].wounds = 1;
    assert_eq!(total(&d), 1 - 1, "a wounded commander costs nothing");
    d.tanks[0].crew[0].wounds = 2;
    d.tanks[0].crew[1].wounds = 2;
    assert_eq!(total(&d), 1 - 3 - 1, "no driver -3, no commander -1");
}

#[test]
fn a_tank_needs_its_gunner_to_fire_and_its_loader_to_reload() {
    // No gunner: no shot.
    let mut d = stock("Short", "");
    d.tanks[0].crew[2].wounds = 2;
    let err = d.to_hit(P1, 2).unwrap_err();
    assert_eq!(err, crate::rules::range_duel::CannotFire::NoGunner);
    assert!(err.to_string().contains("nobody is left to fire"), "{err}");
    // No loader: the round in the gun is fired, then the gun stays empty. A wounded
    // loader still loads.
    let mut d = stock("Short", "");
    d.tanks[0].crew[3].wounds = 2;
    d.tanks[1].crew[3].wounds = 1;
    assert!(d.to_hit(P1, 2).is_ok());
    // Nobody wins Driving (2 against 2): both fire together, and both roll 1 (a miss).
    let f = turn(&mut d, MANEUVER, MANEUVER, &[1, 1, 1, 1, 1, 1]);
    assert!(has(
        &f,
        |x| matches!(x, Fact::Shot { shooter, .. } if *shooter == P1)
    ));
    let err = d.to_hit(P1, 2).unwrap_err();
    assert!(err.to_string().contains("the gun is empty"), "{err}");
    assert!(d.to_hit(P2, 2).is_ok());
}

#[test]
fn drive_effect_follows_top_speed() {
    let table = DuelTable::builtin();
    assert_eq!(table.drive_effect(0), 0, "no driver");
    assert_eq!(table.drive_effect(1), 1);
    assert_eq!(table.drive_effect(3), 1, "a stock tank");
    assert_eq!(table.drive_effect(4), 2, "an Engine upgrade");
    assert_eq!(
        table.drive_effect(9),
        2,
        "the last entry serves faster tanks"
    );
}

#[test]
fn a_tank_knocked_out_by_a_ram_does_not_fire() {
    // The Sideswipe of `sideswipe_and_t_bone_damage`: P2 rams and wins Driving; P1, on
    // its last hull point, takes 11 points (a hull point) and is out before the guns fire.
    let ram = Action::Maneuver {
        drift: Some(Direction::Closing),
        ram: true,
        facings: Facings::USUAL,
    };
    let mut d = stock("Adjacent", "");
    d.tanks[0].hull = 1;
    let f = turn(
        &mut d,
        HULL_DOWN,
        ram,
        &[1, 1, 6, 6, 3, 4, 5, 6, 1, 1, 1, 1],
    );
    assert!(has(
        &f,
        |x| matches!(x, Fact::KnockedOut { player, .. } if *player == P1)
    ));
    assert!(!has(
        &f,
        |x| matches!(x, Fact::Shot { shooter, .. } if *shooter == P1)
    ));
    assert_eq!(d.outcome().unwrap().winners, vec![P2]);
}

/// Every number of the rules table and of a setup's rules section has its range checked,
/// each refused at its own line.
#[test]
fn every_number_of_the_tables_and_the_setup_rules_is_kept_in_its_range() {
    use crate::data::testing::assert_refused_at;
    let table = include_str!("../../../assets/rules/range-duel.ron");
    assert_refused_at(
        "range-duel.ron",
        table,
        |t| DuelTable::parse("range-duel.ron", t),
        &[
            (
                "hexes: 1,",
                "hexes: 0,",
                "a band's distance in hexes is 1 to 40, not 0",
            ),
            (
                "hexes: 9,",
                "hexes: 41,",
                "a band's distance in hexes is 1 to 40, not 41",
            ),
            (
                "to_hit: -1)",
                "to_hit: -7)",
                "a band's to-hit modifier is -6 to 6, not -7",
            ),
            (
                "to_hit: 3)",
                "to_hit: 7)",
                "a band's to-hit modifier is -6 to 6, not 7",
            ),
            ("dice: 2,", "dice: 5,", "the Driving test rolls 1 to 4 dice"),
            (
                "target: 7,",
                "target: 13,",
                "the Driving target on 2d6 is 2 to 12, not 13",
            ),
            (
                "target: 7,",
                "target: 1,",
                "the Driving target on 2d6 is 2 to 12, not 1",
            ),
            (
                "engine_bonus: 1,",
                "engine_bonus: -1,",
                "the Engine's Driving bonus is 0 to 12, not -1",
            ),
            (
                "driver_impaired: -1,",
                "driver_impaired: -13,",
                "a crew penalty to the Driving test is -12 to 0, not -13",
            ),
            (
                "driver_out: -3,",
                "driver_out: 1,",
                "a crew penalty to the Driving test is -12 to 0, not 1",
            ),
            (
                "commander_impaired: 0,",
                "commander_impaired: 2,",
                "a crew penalty to the Driving test is -12 to 0, not 2",
            ),
            (
                "commander_out: -1,",
                "commander_out: -20,",
                "a crew penalty to the Driving test is -12 to 0, not -20",
            ),
            (
                "drive_effect: [0, 1, 1, 1, 2]",
                "drive_effect: [0, 1, 1, 1, 7]",
                "a Drive Effect is 0 to 6, not 7",
            ),
            (
                "drive_effect: [0, 1, 1, 1, 2]",
                "drive_effect: []",
                "give at least one Drive Effect value",
            ),
            (
                "ram_damage_per_hull: 8,",
                "ram_damage_per_hull: 0,",
                "at least 1",
            ),
        ],
    );
    let setup = include_str!("../../../scenarios/range-duel/default.ron");
    let setup = setup.replacen(
        "    start_range: \"Medium\",",
        "    start_range: \"Medium\",\n    rules: (RULES),",
        1,
    );
    let parse = |t: &str| DuelSetup::parse(Path::new("duel.ron"), t);
    let shift = "a shift in range bands (the bands run 0 to 5) is 0 to 5, not 6";
    assert_refused_at(
        "duel.ron",
        &setup.replace("RULES", "turn_limit: 30"),
        parse,
        &[
            (
                "turn_limit: 30",
                "turn_limit: 0",
                "the turn limit must be at least 1",
            ),
            ("turn_limit: 30", "change_vs_change: 6", shift),
            ("turn_limit: 30", "change_vs_change_same: 6", shift),
            ("turn_limit: 30", "maneuver_back_off: 6", shift),
            (
                "turn_limit: 30",
                "change_vs_maneuver: (success: 6, failure: 0)",
                shift,
            ),
            (
                "turn_limit: 30",
                "change_vs_hull_down: (success: 6, failure: 0)",
                shift,
            ),
            (
                "turn_limit: 30",
                "maneuver_vs_hull_down: (success: 6, failure: 0)",
                shift,
            ),
            (
                "turn_limit: 30",
                "change_vs_maneuver: (success: 1, failure: 2)",
                "a failed test cannot shift the range more than a passed one",
            ),
            ("turn_limit: 30", "overshoot_band: 6", "there is no band 6"),
        ],
    );
}
