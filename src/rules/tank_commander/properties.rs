//! Invariants under random legal play (the short run here; the long one is ignored).

use crate::framework::bot::{Bot, RandomBot};
use crate::framework::{Game, Match, MatchRng, PlayerId};
use crate::rules::tank_commander::state::{RoleState, Status};
use crate::rules::tank_commander::{
    self as tc, Action, Fact, GreedyBot, Role, Rules, Scenario, TankCommander,
};
use proptest::prelude::*;

fn project(relative: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

const SCENARIOS: [&str; 19] = [
    "scenarios/skirmish.ron",
    "scenarios/battle.ron",
    "scenarios/training-range.ron",
    "tests/scenarios/he-range.ron",
    "scenarios/capture-objectives.ron",
    "tests/scenarios/infantry-mounts.ron",
    "scenarios/escort.ron",
    "scenarios/destroy-target.ron",
    "scenarios/breakthrough.ron",
    "scenarios/disable-aa-guns.ron",
    "scenarios/night-raid.ron",
    "scenarios/urban-warfare.ron",
    "scenarios/beach-landing.ron",
    "scenarios/river-crossing.ron",
    "scenarios/cross-minefield.ron",
    "scenarios/crossroads.ron",
    "scenarios/three-flags.ron",
    "scenarios/command-tank.ron",
    "scenarios/spotters.ron",
];

fn check_invariants(game: &TankCommander) {
    check_units(game);
    check_supplies(game);
    check_activation(game);
    check_offers(game);
}

/// Each unit's hull, place and status: on the board, on ground it may enter, one to a
/// space (riders aside), squads never disabled nor on fire, no active wreck.
fn check_units(game: &TankCommander) {
    let rules = game.rules();
    let mut seen = Vec::new();
    for u in game.units() {
        assert!(
            u.hull <= u.base.hull,
            "{} has {} hull points of {}",
            u.name,
            u.hull,
            u.base.hull
        );
        if u.on_table() {
            assert!(game.board().contains(u.at), "{} is off the board", u.name);
            assert!(
                u.may_enter(game.terrain(u.at)) || u.riding.is_some(),
                "{} stands on {}",
                u.name,
                game.terrain(u.at).a_noun()
            );
            match u.riding {
                // A squad riding on a tank or in an APC shares its space, and moves with it.
                Some(carrier) => check_rider(game, rules, u, carrier),
                None => {
                    assert!(
                        !seen.contains(&u.at),
                        "two units share {}",
                        game.label(u.at)
                    );
                    seen.push(u.at);
                }
            }
        }
        if u.is_infantry() {
            assert!(
                u.status != Status::Disabled,
                "{} is a disabled squad: squads are destroyed outright",
                u.name
            );
            assert!(!u.on_fire, "{} is a squad on fire", u.name);
        }
        if u.hull == 0 {
            assert_ne!(
                u.status,
                Status::Active,
                "{} has no hull but is active",
                u.name
            );
        }
    }
}

/// A squad riding on a tank or in an APC: infantry, with its vehicle, which has room for
/// it and, carrying it inside, is still active.
fn check_rider(
    game: &TankCommander,
    rules: &Rules,
    u: &tc::state::Unit,
    carrier: tc::state::UnitId,
) {
    let c = game.unit(carrier);
    assert!(u.is_infantry(), "{} rides but is not infantry", u.name);
    assert!(
        c.kind.is_vehicle(),
        "{} rides on {}, no vehicle",
        u.name,
        c.name
    );
    assert_eq!(u.at, c.at, "{} has fallen behind {}", u.name, c.name);
    assert!(c.on_table(), "{} rides on a wreck that is gone", u.name);
    let room = if c.carries_inside() {
        rules.apc.capacity
    } else {
        rules.infantry.riders_per_tank
    };
    assert!(
        game.riders(carrier).count() <= usize::from(room),
        "{} carries too many squads",
        c.name
    );
    // Squads inside bail out (or die) when their APC is knocked out.
    assert!(
        !c.carries_inside() || c.is_active(),
        "{} is still inside the knocked-out {}",
        u.name,
        c.name
    );
}

/// Flares and free strikes within what the rules give.
fn check_supplies(game: &TankCommander) {
    let rules = game.rules();
    // Flares burn only at night, and nobody carries more than the rules give a tank.
    assert!(game.night() || game.flares().is_empty(), "a flare by day");
    for u in game.units() {
        assert!(
            u.flares_left <= rules.night.flares_per_tank
                && (u.kind.has_crew() || u.flares_left == 0),
            "{} carries {} flares",
            u.name,
            u.flares_left
        );
    }
    for side in [PlayerId(0), PlayerId(1)] {
        assert!(
            game.free_strikes(side) <= game.strikes_given(side),
            "more free strikes than were given"
        );
    }
}

/// The activation: never an AA gun's, a knocked-out unit may only end it, and its action
/// points and moves within their caps.
fn check_activation(game: &TankCommander) {
    let rules = game.rules();
    let Some(act) = game.activation() else {
        return;
    };
    let u = game.unit(act.unit);
    assert!(!u.is_aa_gun(), "the AA gun {} is activated", u.name);
    // A unit knocked out during its own activation (a mine under it) can only end it.
    if !u.acts() {
        for player in game.to_act() {
            for action in game.legal_actions(player) {
                assert!(
                    matches!(action, Action::EndActivation | Action::Concede),
                    "the knocked-out {} is offered {action:?}",
                    u.name
                );
            }
        }
    }
    assert!(act.action_points <= u.base.actions + rules.crew.booming_voice_actions);
    // A driver hurt during the activation (by a mine under the tank) lowers the cap
    // below the moves already made; then the healthy cap bounds them.
    let cap = if u.role_state(Role::Driver) == RoleState::Healthy {
        game.moves_allowed(u)
    } else {
        u.base.move_cap
            + if u.build.engine {
                rules.upgrades.engine_moves
            } else {
                0
            }
    };
    assert!(
        act.moves <= cap,
        "{} moved {} of {cap} this activation",
        u.name,
        act.moves
    );
}

/// The actions offered to the active unit: no fire at riders, nothing an APC cannot do,
/// nothing whose crew member is dead.
fn check_offers(game: &TankCommander) {
    for player in game.to_act() {
        for action in game.legal_actions(player) {
            let Some(act) = game.activation() else {
                continue;
            };
            let u = game.unit(act.unit);
            let needs = |role: Role| u.role_state(role) != RoleState::Out;
            let target_rides = |t: tc::state::UnitId| game.unit(t).riding.is_some();
            match action {
                Action::Fire(tc::FireTarget::Unit(t)) | Action::FireAntiInfantry(t) => assert!(
                    !target_rides(t),
                    "{} may fire at {}, who rides on a vehicle",
                    u.name,
                    game.unit(t).name
                ),
                _ => {}
            }
            if u.is_apc() {
                assert!(
                    !matches!(
                        action,
                        Action::Fire(_)
                            | Action::Load(_)
                            | Action::RotateTurret(_)
                            | Action::UseAbility(_)
                            | Action::TakeOver(_)
                    ),
                    "the APC {} offers {action:?}",
                    u.name
                );
            }
            let ok = match action {
                a if a.is_infantry_only() => u.is_infantry(),
                Action::Move | Action::Turn { .. } => needs(Role::Driver),
                Action::Fire(_) | Action::FireAntiInfantry(_) => needs(Role::Gunner),
                Action::Load(_) => needs(Role::Loader),
                Action::UseAbility(a) => needs(a.role()),
                _ => true,
            };
            assert!(
                ok,
                "{} offers {action:?} though the crew member for it is dead",
                u.name
            );
        }
    }
}

fn play_random(scenario_path: &str, seed: u64, greedy_blue: bool) {
    let rules = Rules::builtin();
    let scenario = Scenario::load(&project(scenario_path), &rules).unwrap();
    let mut m = Match::new(TankCommander::new(&scenario, &rules).unwrap(), seed);
    let mut bot_rng = MatchRng::new(seed ^ 0x5eed);
    let mut bots: Vec<Box<dyn Bot<TankCommander>>> = vec![
        if greedy_blue {
            Box::new(GreedyBot)
        } else {
            Box::new(RandomBot)
        },
        Box::new(RandomBot),
    ];
    check_invariants(m.state());
    let mut steps = 0;
    while m.state().outcome().is_none() {
        let player: PlayerId = m.state().to_act()[0];
        let action = bots[player.index()]
            .choose(m.state(), player, &mut bot_rng)
            .expect("a legal action");
        let facts = m.play(player, &action).unwrap().to_vec();
        for f in &facts {
            if let Fact::HullDamaged {
                unit, remaining, ..
            } = f
            {
                assert!(*remaining <= m.state().unit(*unit).base.hull);
            }
        }
        check_invariants(m.state());
        steps += 1;
        assert!(steps < 20_000, "the battle does not end");
    }
    // Replaying the record reproduces the state exactly.
    let battle = tc::Battle {
        scenario: scenario.clone(),
        rules: rules.clone(),
    };
    let record = crate::framework::Recorded::of(&battle, seed, &[], &[], &m);
    let again = crate::framework::playable::replay(&record).expect("the replay matches");
    assert_eq!(again.state_hash(), m.state_hash());
    // Undo back to the start and replay the first half: same state as the first time.
    let half = m.history().len() / 2;
    let mut undone = m.clone();
    undone.undo_to(0);
    for step in &m.history()[..half] {
        undone.play(step.player, &step.action).unwrap();
    }
    let mut fresh = m.clone();
    fresh.undo_to(half);
    assert_eq!(undone.state_hash(), fresh.state_hash());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_play_keeps_every_invariant(seed in any::<u64>(), which in 0..SCENARIOS.len(), greedy in any::<bool>()) {
        play_random(SCENARIOS[which], seed, greedy);
    }
}

#[test]
fn abilities_are_never_offered_twice() {
    let rules = Rules::builtin();
    let scenario = Scenario::load(&project("scenarios/skirmish.ron"), &rules).unwrap();
    let mut m = Match::new(TankCommander::new(&scenario, &rules).unwrap(), 11);
    let mut bot_rng = MatchRng::new(5);
    let mut used = Vec::new();
    while m.state().outcome().is_none() {
        let player = m.state().to_act()[0];
        let action = RandomBot.choose(m.state(), player, &mut bot_rng).unwrap();
        if let Action::UseAbility(a) = action {
            let key = (
                m.state().activation().unwrap().unit,
                std::mem::discriminant(&a),
            );
            assert!(!used.contains(&key), "{a:?} offered twice");
            used.push(key);
        }
        m.play(player, &action).unwrap();
    }
}

/// The long run: random legal play for 10⁶ actions on every scenario above.
#[test]
#[ignore = "long: run with --release -- --ignored"]
fn long_random_play_keeps_every_invariant() {
    let rules = Rules::builtin();
    let setups: Vec<tc::Battle> = SCENARIOS
        .iter()
        .map(|path| tc::Battle {
            scenario: Scenario::load(&project(path), &rules).unwrap(),
            rules: rules.clone(),
        })
        .collect();
    crate::framework::long_run::play::<TankCommander>(
        &setups,
        crate::framework::long_run::actions_wanted(),
        20_000,
        check_invariants,
    );
}
