//! A Tank Commander battle as a mirror on another machine holds it: the rules tables,
//! the scenario's name and the free air strikes each side was given, beside the state.
//!
//! The scenario itself never travels: it may lay mines before the battle that one side
//! must not see, and the state (redacted) holds everything the battle needs. The one
//! secret is where the other side's mines lie when the scenario hides mines
//! ([`TankCommander::view`]); a spectator then sees no mine at all.

use std::sync::{Arc, LazyLock};

use hexx::Hex;
use serde::{Deserialize, Serialize};

use super::setup::{MissionRules, MissionTarget, Rules};
use super::state::{TankCommander, terrain_key};
use crate::framework::MirrorError;
use crate::framework::mirror::{self, MirrorCheck};
use crate::framework::{Game, PlayerId};

/// The rules a state read from JSON holds until [`read`] puts the mirror's own in.
pub(super) fn unset_rules() -> Arc<Rules> {
    static UNSET: LazyLock<Arc<Rules>> = LazyLock::new(|| Arc::new(Rules::builtin()));
    Arc::clone(&UNSET)
}

/// `g` as `viewer` may hold it: with hidden mines, only the viewer's own mines (none for
/// a spectator).
pub(super) fn redacted(g: &TankCommander, viewer: Option<PlayerId>) -> TankCommander {
    match viewer {
        Some(side) => g.view(side),
        None => {
            let mut seen = g.clone();
            if g.hidden_mines {
                seen.mines.clear();
            }
            seen
        }
    }
}

/// What the state's skipped fields hold, as the mirror writes them: all public (the
/// rules tables, the name, and the free air strikes the scenario gives each side).
#[derive(Serialize)]
struct PublicOut<'a> {
    rules: &'a Rules,
    name: &'a str,
    strikes_given: &'a [u8],
}

/// [`PublicOut`] read back.
#[derive(Deserialize)]
struct PublicIn {
    rules: Rules,
    name: String,
    strikes_given: Vec<u8>,
}

/// The mirror's bytes: the public things the state's skipped fields hold, then the state.
pub(super) fn write(g: &TankCommander) -> Vec<u8> {
    let public = PublicOut {
        rules: &g.rules,
        name: &g.scenario_name,
        strikes_given: &g.strikes_given,
    };
    mirror::write_mirror(&public, g)
}

/// A battle read back from [`write`]'s bytes: the rules checked as a record's are, the
/// ground's key computed again as [`TankCommander::new`] does, the state checked.
pub(super) fn read(bytes: &[u8]) -> Result<TankCommander, MirrorError> {
    let ((rules, name, strikes), mut g): ((Arc<Rules>, Arc<str>, Vec<u8>), TankCommander) =
        mirror::read_mirror_cached::<TankCommander, PublicIn, _, _>(bytes, |public| {
            MirrorCheck::no_problems("rules", public.rules.problems())?;
            Ok((
                Arc::new(public.rules),
                public.name.into(),
                public.strikes_given,
            ))
        })?;
    g.rules = rules;
    g.scenario_name = name;
    g.strikes_given = strikes;
    g.terrain_key = terrain_key(&g.terrain);
    check(&g)?;
    Ok(g)
}

/// Hexes the rules read but that may lie off the board (a flare, an air strike's mark):
/// near enough that no distance overflows.
fn near(hex: Hex) -> bool {
    hex.x.abs() <= 1024 && hex.y.abs() <= 1024
}

/// True when `hex` is on `g`'s board (asked only of a hex near it: the board's sums
/// would overflow on one far out).
fn on_board(g: &TankCommander, hex: Hex) -> bool {
    near(hex) && g.board.contains(hex)
}

/// Every seat, unit and hex the rules index is in range, lists kept per side, unit and
/// hex have one entry each, and each unit is what its kind and type make it.
fn check(g: &TankCommander) -> Result<(), MirrorError> {
    let sides = g.sides.len();
    MirrorCheck::len("the sides", sides, 2)?;
    let (w, h) = (g.board.width, g.board.height);
    MirrorCheck::that((2..=60).contains(&w) && (2..=60).contains(&h), || {
        format!("a board is 2 to 60 hexes a side, not {w}×{h}")
    })?;
    MirrorCheck::len("the terrain", g.terrain.len(), g.board.len())?;
    MirrorCheck::len("the smoke", g.smoke.len(), g.board.len())?;
    let placed = |what: &str, hex: Hex| {
        MirrorCheck::that(on_board(g, hex), || format!("{what} is off the board"))
    };
    let seat = |what: &str, p: PlayerId| MirrorCheck::seat(what, p, sides);
    let units = g.units.len();
    MirrorCheck::that(units <= usize::from(u8::MAX), || {
        format!("{units} units cannot be numbered")
    })?;
    MirrorCheck::len("the activations", g.activated.len(), units)?;
    check_units(g)?;
    for m in &g.mines {
        placed("a mine", m.at)?;
        seat("a mine's owner", m.owner)?;
    }
    for s in &g.strikes {
        seat("an air strike's side", s.side)?;
        MirrorCheck::index("an air strike's caller", s.caller.index(), units)?;
        MirrorCheck::that(near(s.at), || {
            "an air strike is far off the board".to_string()
        })?;
    }
    for &f in &g.flares {
        MirrorCheck::that(near(f), || "a flare is far off the board".to_string())?;
    }
    for o in &g.objectives {
        placed("an objective", o.at)?;
        if let Some(holder) = o.holder {
            seat("an objective's holder", holder)?;
        }
    }
    MirrorCheck::len("the free air strikes given", g.strikes_given.len(), sides)?;
    for (what, list) in [
        ("the free air strikes left", &g.strike_pool),
        ("the objectives held", &g.held_at_turn_end),
    ] {
        // An empty list is one whose entries are all 0 (not written).
        if !list.is_empty() {
            MirrorCheck::len(what, list.len(), sides)?;
        }
    }
    MirrorCheck::that(
        g.turn_limit >= 1 && g.turn >= 1 && u16::from(g.turn) <= u16::from(g.turn_limit) + 1,
        || {
            format!(
                "turn {} of {} is not one a battle reaches",
                g.turn, g.turn_limit
            )
        },
    )?;
    seat("the side to choose", g.current)?;
    for (what, side) in [
        ("the first player", g.first_player),
        ("the side that conceded", g.conceded),
    ] {
        if let Some(side) = side {
            seat(what, side)?;
        }
    }
    if let Some(a) = &g.active {
        MirrorCheck::index("the active unit", a.unit.index(), units)?;
    }
    check_mission(g)
}

/// Each unit is numbered by its place, stands on the board, rides a unit that is there,
/// and has the profile, movement and armor its kind, type and build give it.
fn check_units(g: &TankCommander) -> Result<(), MirrorError> {
    let rules = &g.rules;
    for (i, u) in g.units.iter().enumerate() {
        MirrorCheck::that(u.id.index() == i, || {
            format!("unit {i} is numbered {}", u.id.0)
        })?;
        MirrorCheck::seat("a unit's side", u.side, g.sides.len())?;
        MirrorCheck::that(on_board(g, u.at), || format!("{} is off the board", u.name))?;
        if let Some(carrier) = u.riding {
            MirrorCheck::index("a carrier", carrier.index(), g.units.len())?;
            MirrorCheck::that(carrier.index() != i, || format!("{} rides itself", u.name))?;
        }
        let base = rules.profile(u.kind, u.unit_type.as_deref());
        MirrorCheck::that(
            u.base == base
                && u.movement == rules.movement(u.unit_type.as_deref())
                && u.armor == u.build.armor(base.armor)
                && u.hull <= base.hull
                && u.crew.len() <= 5
                && u.crew.iter().all(|m| m.wounds <= 2),
            || format!("{} is not what its kind, type and build make it", u.name),
        )?;
    }
    Ok(())
}

/// The mission names sides and units that are there, hexes on the board, and the
/// training waypoints reached one flag each.
fn check_mission(g: &TankCommander) -> Result<(), MirrorError> {
    let side = |s: u8| MirrorCheck::seat("the mission's side", PlayerId(s), g.sides.len());
    let unit =
        |u: super::UnitId| MirrorCheck::index("the mission's unit", u.index(), g.units.len());
    let hexes = |list: &[Hex]| {
        MirrorCheck::that(list.iter().all(|&h| on_board(g, h)), || {
            "the mission's hexes are off the board".to_string()
        })
    };
    let waypoints = match &g.mission {
        MissionRules::Training { waypoints } => {
            hexes(waypoints)?;
            waypoints.len()
        }
        MissionRules::Breakthrough { attacker, .. }
        | MissionRules::DisableAaGuns { attacker }
        | MissionRules::CrossMinefield { attacker, .. } => {
            side(*attacker)?;
            0
        }
        MissionRules::Escort { side: s, squad, .. } => {
            side(*s)?;
            unit(*squad)?;
            0
        }
        MissionRules::DestroyTarget { attacker, target } => {
            side(*attacker)?;
            match target {
                MissionTarget::Unit(u) => unit(*u)?,
                MissionTarget::Building(h) => hexes(&[*h])?,
            }
            0
        }
        MissionRules::TakeArea { attacker, area } => {
            side(*attacker)?;
            hexes(area)?;
            0
        }
        MissionRules::DestroyAll | MissionRules::CaptureObjectives { .. } => 0,
    };
    MirrorCheck::len(
        "the waypoints reached",
        g.waypoints_reached.len(),
        waypoints,
    )
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::framework::Playable;
    use crate::framework::bot::Bot;
    use crate::framework::playable;
    use crate::rules::mirror_tests::{
        check_mirrors, check_state, refuses_garbage, survives_mutations, viewers,
    };
    use crate::rules::tank_commander::Battle;
    use crate::rules::tank_commander::setup::Scenario;
    use crate::rules::tank_commander::state::Mine;

    fn battle(file: &str, hidden_mines: bool) -> Battle {
        let rules = Rules::builtin();
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(file);
        let scenario = Scenario::load(&path, &rules).expect("a scenario");
        let mut setup = scenario.setup.clone();
        setup.mines.hidden = hidden_mines;
        Battle {
            scenario: Scenario::validate(setup, &rules).expect("still valid"),
            rules,
        }
    }

    fn bots(names: [&str; 2]) -> Vec<Box<dyn Bot<TankCommander>>> {
        names
            .iter()
            .map(|n| TankCommander::bot(n).expect("a bot"))
            .collect()
    }

    #[test]
    fn bots_battles_read_back_from_every_seats_mirror() {
        for (file, seed) in [
            ("skirmish.ron", 1),
            ("cross-minefield.ron", 2),
            ("disable-aa-guns.ron", 3),
            ("escort.ron", 4),
        ] {
            let setup = battle(file, false);
            let back =
                check_mirrors::<TankCommander>(&setup, seed, bots(["tactical", "random"]), 150);
            assert_eq!(*back.rules, setup.rules);
            assert_eq!(back.scenario_name(), setup.scenario.setup.name);
            assert_eq!(back.terrain_key, terrain_key(&back.terrain));
            if seed == 2 {
                survives_mutations::<TankCommander>(&back.to_mirror(), 400, 5);
            }
        }
        refuses_garbage::<TankCommander>();
    }

    /// Where `mine` would show in a mirror's bytes.
    fn written(mine: &Mine) -> String {
        serde_json::to_string(mine).expect("writes")
    }

    #[test]
    fn hidden_mines_never_reach_the_other_side_or_a_spectator() {
        let setup = battle("minefield-pass.ron", true);
        let mut game = playable::start::<TankCommander>(&setup, 7, &[]).expect("starts");
        let mut bots = bots(["tactical", "tactical"]);
        let mut bot_rng = crate::framework::MatchRng::new(7);
        let red = PlayerId(1);
        for _ in 0..200 {
            let g = game.state();
            assert!(g.hidden_mines());
            check_state(g);
            for viewer in viewers(g) {
                let bytes = String::from_utf8(g.redacted(viewer).to_mirror()).expect("JSON");
                for mine in g.mines() {
                    if viewer != Some(mine.owner) {
                        assert!(!bytes.contains(&written(mine)), "{viewer:?} sees {mine:?}");
                    }
                }
                let back = TankCommander::from_mirror(bytes.as_bytes()).expect("reads");
                assert!(back.mines().iter().all(|m| Some(m.owner) == viewer));
            }
            // A mine more for Red is nothing Blue or a spectator can tell.
            let mut more = g.clone();
            let free = g
                .board()
                .hexes()
                .find(|&h| !g.mined(h) && g.unit_at(h).is_none());
            more.mines.push(Mine {
                at: free.expect("a free hex"),
                owner: red,
            });
            for viewer in [Some(PlayerId(0)), None] {
                assert_eq!(
                    g.redacted(viewer).to_mirror(),
                    more.redacted(viewer).to_mirror()
                );
            }
            assert_ne!(
                g.redacted(Some(red)).to_mirror(),
                more.redacted(Some(red)).to_mirror()
            );
            if g.outcome().is_some() {
                break;
            }
            let player = g.to_act()[0];
            let action = bots[player.index()]
                .choose(g, player, &mut bot_rng)
                .expect("the bot acts");
            game.play(player, &action).expect("legal");
        }
        // The scenario's own mines are Red's: they were there to hide.
        assert!(setup.scenario.mines.iter().any(|&(_, side)| side == 1));
    }
}
