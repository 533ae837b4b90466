//! Unit tests for each rule, and the rulebook's worked examples.

use hexx::Hex;

use super::action::{Ability, Action, Fact, FireTarget};
use super::setup::*;
use super::state::{Role, RoleState, Status, TankCommander, UnitId};
use crate::framework::{Fraction, Game, MatchRng, PlayerId, Refusal};
use crate::grid::{Facing, Rotation};

pub(super) const BLUE: PlayerId = PlayerId(0);
pub(super) const RED: PlayerId = PlayerId(1);

/// Builds small battles around the centre of a 21×21 board, in axial offsets from it.
pub(super) struct Field {
    setup: ScenarioSetup,
    board: crate::grid::HexBoard,
    center: Hex,
}

impl Field {
    pub(super) fn new() -> Self {
        let board = crate::grid::HexBoard::new(21, 21);
        Self {
            setup: ScenarioSetup {
                name: "test".into(),
                description: String::new(),
                board: BoardSetup {
                    width: 21,
                    height: 21,
                },
                terrain: TerrainSetup::default(),
                sides: vec![
                    SideSetup {
                        name: "Blue".into(),
                    },
                    SideSetup { name: "Red".into() },
                ],
                units: Vec::new(),
                victory: VictorySetup::default(),
                mines: MinesSetup::default(),
                objectives: Vec::new(),
                seed: None,
                weather: false,
                night: false,
                air_support: Vec::new(),
            },
            board,
            center: board.hex_at(10, 10),
        }
    }

    fn label(&self, rel: Hex) -> String {
        self.board.label(self.center + rel)
    }

    /// A unit of `kind` with no upgrades, crew names or type.
    pub(super) fn unit(
        mut self,
        side: &str,
        kind: UnitKind,
        name: &str,
        rel: Hex,
        facing: Facing,
    ) -> Self {
        self.setup.units.push(UnitSetup {
            side: side.into(),
            kind,
            name: name.into(),
            at: self.label(rel),
            facing,
            turret: None,
            build: Build::default(),
            crew: CrewNames::default(),
            painted: false,
            named: false,
            loaded: None,
            unit_type: None,
            veterans: Vec::new(),
            earned: 0,
        });
        self
    }

    pub(super) fn tank(
        mut self,
        side: &str,
        name: &str,
        rel: Hex,
        facing: Facing,
        turret: Facing,
    ) -> Self {
        self = self.unit(side, UnitKind::Tank, name, rel, facing);
        if let Some(u) = self.setup.units.last_mut() {
            u.turret = Some(turret);
        }
        self
    }

    /// An infantry squad.
    pub(super) fn squad(self, side: &str, name: &str, rel: Hex) -> Self {
        self.unit(side, UnitKind::Infantry, name, rel, Facing::N)
    }

    /// Objectives to capture; `count` of them win.
    fn objectives(mut self, rels: &[Hex], count: u8) -> Self {
        self.setup.objectives = rels.iter().map(|r| self.label(*r)).collect();
        self.setup.victory.mission = Mission::CaptureObjectives { count };
        self
    }

    pub(super) fn with_build(mut self, build: Build) -> Self {
        if let Some(u) = self.setup.units.last_mut() {
            u.build = build;
        }
        self
    }

    pub(super) fn loaded(mut self, round: Round) -> Self {
        if let Some(u) = self.setup.units.last_mut() {
            u.loaded = Some(round);
        }
        self
    }

    pub(super) fn terrain(mut self, rel: Hex, terrain: Terrain) -> Self {
        let at = self.label(rel);
        self.setup.terrain.patches.push(TerrainPatch {
            at: vec![at],
            terrain,
        });
        self
    }

    fn smoke(mut self, rel: Hex) -> Self {
        let at = self.label(rel);
        self.setup.terrain.smoke.push(at);
        self
    }

    /// Mines laid by `side` before the battle.
    fn mines(mut self, side: &str, rels: &[Hex]) -> Self {
        let at = rels.iter().map(|r| self.label(*r)).collect();
        self.setup.mines.fields.push(MineField {
            side: side.into(),
            at,
        });
        self
    }

    fn turn_limit(mut self, n: u8) -> Self {
        self.setup.victory.turn_limit = Some(n);
        self
    }

    pub(super) fn rules(self) -> (TankCommander, MatchRng) {
        self.with_rules(&Rules::builtin())
    }

    pub(super) fn with_rules(self, rules: &Rules) -> (TankCommander, MatchRng) {
        let scenario = Scenario::validate(self.setup, rules).expect("test scenario is valid");
        let mut game = TankCommander::new(&scenario, rules).unwrap();
        // Blue rolls 6, Red 1: Blue goes first.
        let mut rng = MatchRng::scripted(0, [6, 1]);
        game.begin(&mut rng);
        (game, rng)
    }
}

pub(super) fn id(game: &TankCommander, name: &str) -> UnitId {
    game.unit_named(name).unwrap().id
}

fn play(game: &mut TankCommander, rng: &mut MatchRng, action: Action) -> Vec<Fact> {
    let player = game.to_act()[0];
    game.apply(player, &action, rng)
        .unwrap_or_else(|e| panic!("{action:?}: {e}"))
}

/// Why `action` is refused now, in its sentence.
fn refuse(game: &TankCommander, action: Action) -> String {
    refusal(game, action).why
}

/// The refusal of `action` now, its rule checked to be on the rules map.
fn refusal(game: &TankCommander, action: Action) -> Refusal {
    let player = game.to_act()[0];
    let refusal = game
        .check(player, &action)
        .expect_err("the action should be refused");
    assert_on_map(&refusal);
    refusal
}

/// Every refusal names a rule of the game's rules map.
fn assert_on_map(refusal: &Refusal) {
    let map = crate::rules::map::cached(crate::rules::GameKind::TankCommander)
        .expect("the rules map reads");
    assert!(
        map.get(refusal.rule).is_some(),
        "{refusal:?}: its rule is not on the rules map"
    );
}

fn fire_at(
    game: &TankCommander,
    shooter: &str,
    target: &str,
) -> Result<super::odds::ShotProfile, Refusal> {
    let s = id(game, shooter);
    let round = game.unit(s).loaded.unwrap_or(Round::At);
    game.shot_profile(s, FireTarget::Unit(id(game, target)), round, false)
        .inspect_err(assert_on_map)
}

const N: Hex = Facing::N.offset();

// ----- Building a tank -----

#[test]
fn rulebook_example_build_is_legal() {
    // Front 8, side 8, rear 6; engine, barrel, optics; lieutenant; air support.
    let rules = Rules::builtin();
    let build = Build {
        armor: ArmorPoints {
            front: 2,
            side: 2,
            rear: 0,
        },
        engine: true,
        barrel: true,
        optics: true,
        lieutenant: true,
        air_support: true,
        ..Build::default()
    };
    assert_eq!(build.cost(&rules.upgrades), 10);
    assert_eq!(
        build.armor(rules.tank.armor),
        Armor {
            front: 8,
            side: 8,
            rear: 6
        }
    );
    assert!(
        build
            .problems(UnitKind::Tank, &rules, false, false)
            .is_empty()
    );
}

#[test]
fn each_broken_build_rule_is_refused_with_a_reason() {
    let rules = Rules::builtin();
    let messages = |b: Build, painted: bool, named: bool| -> Vec<String> {
        b.problems(UnitKind::Tank, &rules, painted, named)
            .into_iter()
            .map(|p| p.message)
            .collect()
    };
    let over_cap = Build {
        armor: ArmorPoints {
            front: 4,
            side: 0,
            rear: 0,
        },
        ..Build::default()
    };
    assert_eq!(
        messages(over_cap, false, false),
        ["front armor takes at most 3 upgrade points, not 4"]
    );
    let side_over_front = Build {
        armor: ArmorPoints {
            front: 1,
            side: 2,
            rear: 0,
        },
        ..Build::default()
    };
    assert_eq!(
        messages(side_over_front, false, false),
        ["side armor 8 cannot exceed front armor 7"]
    );
    let rear_over_side = Build {
        armor: ArmorPoints {
            front: 1,
            side: 0,
            rear: 1,
        },
        ..Build::default()
    };
    assert_eq!(
        messages(rear_over_side, false, false),
        ["rear armor 7 cannot exceed side armor 6"]
    );
    let too_many_mines = Build {
        mines: 4,
        ..Build::default()
    };
    assert_eq!(
        messages(too_many_mines, false, false),
        ["a tank carries at most 3 mines, not 4"]
    );
    let eleven = Build {
        armor: ArmorPoints {
            front: 3,
            side: 3,
            rear: 3,
        },
        engine: true,
        barrel: true,
        ..Build::default()
    };
    assert_eq!(
        messages(eleven, false, false),
        ["the build costs 11 upgrade points but only 10 are available (10 base)"]
    );
    // A painted tank gets the 11th point; painted and named gets a 12th.
    assert!(messages(eleven, true, false).is_empty());
    let twelve = Build {
        optics: true,
        ..eleven
    };
    assert!(!messages(twelve, true, false).is_empty());
    assert!(messages(twelve, true, true).is_empty());
}

#[test]
fn named_bonus_needs_every_crew_name() {
    let mut f = Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "B", N * 3, Facing::S, Facing::S);
    f.setup.units[0].named = true;
    f.setup.units[0].crew.commander = "Ada".into();
    let err = Scenario::validate(f.setup, &Rules::builtin()).unwrap_err();
    assert!(
        err.0
            .iter()
            .any(|(path, m)| path == "units[0].named" && m.contains("driver, gunner, loader")),
        "{err:?}"
    );
}

// ----- Movement -----

#[test]
fn move_cap_is_three_plus_engine_minus_wounded_driver() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "B", Hex::new(8, 0), Facing::S, Facing::S)
        .rules();
    let a = id(&g, "A");
    play(&mut g, &mut rng, Action::Activate(a));
    for _ in 0..3 {
        play(&mut g, &mut rng, Action::Move);
    }
    assert_eq!(
        refuse(&g, Action::Move),
        "A has already moved 3 spaces this turn, its limit"
    );

    let engine = Build {
        engine: true,
        ..Build::default()
    };
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .with_build(engine)
        .tank("Red", "B", Hex::new(8, 0), Facing::S, Facing::S)
        .rules();
    g.units[0].crew[1].wounds = 1; // the driver
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    for _ in 0..3 {
        play(&mut g, &mut rng, Action::Move);
    }
    assert!(refuse(&g, Action::Move).contains("limit"));
    assert_eq!(g.units[0].move_cap(g.rules()), 3);
}

#[test]
fn mud_and_rubble_cost_two_to_leave_and_buildings_and_tanks_block() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .terrain(Hex::ZERO, Terrain::Mud)
        .terrain(N, Terrain::Rubble)
        .terrain(N * 3, Terrain::Building)
        .tank("Red", "B", Hex::new(5, 0), Facing::S, Facing::S)
        .rules();
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    let facts = play(&mut g, &mut rng, Action::Move);
    assert!(matches!(facts[0], Fact::UnitMoved { cost: 2, .. }));
    let facts = play(&mut g, &mut rng, Action::Move);
    assert!(matches!(facts[0], Fact::UnitMoved { cost: 2, .. }));
    assert!(refuse(&g, Action::Move).ends_with("is a building"));
    assert_eq!(
        refusal(&g, Action::Move).rule,
        "tc.terrain.building-impassable"
    );
    assert_eq!(g.activation().unwrap().action_points, 1);

    let (mut g, mut rng) = Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "B", N, Facing::S, Facing::S)
        .rules();
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    assert!(refuse(&g, Action::Move).contains("occupied by B"));
    assert_eq!(refusal(&g, Action::Move).rule, "tc.play.move");
}

#[test]
fn turning_can_leave_the_turret_behind() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "B", Hex::new(5, 0), Facing::S, Facing::S)
        .rules();
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    play(
        &mut g,
        &mut rng,
        Action::Turn {
            rotation: Rotation::Right,
            turret_follows: false,
        },
    );
    assert_eq!(
        (g.units[0].facing, g.units[0].turret),
        (Facing::NE, Facing::N)
    );
    play(
        &mut g,
        &mut rng,
        Action::Turn {
            rotation: Rotation::Right,
            turret_follows: true,
        },
    );
    assert_eq!(
        (g.units[0].facing, g.units[0].turret),
        (Facing::SE, Facing::NE)
    );
    play(&mut g, &mut rng, Action::RotateTurret(Rotation::Left));
    assert_eq!(g.units[0].turret, Facing::N);
    assert_eq!(g.activation().unwrap().action_points, 2);
}

// ----- Firing: the rulebook's firing diagram -----

/// T in the middle facing north; A, B, C, D, E, F placed as the diagram describes.
fn firing_diagram() -> (TankCommander, MatchRng) {
    Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "A", Hex::new(0, -3), Facing::S, Facing::S)
        .tank("Red", "B", Hex::new(2, -3), Facing::N, Facing::N)
        .tank("Red", "C", Hex::new(2, 1), Facing::NW, Facing::NW)
        .tank("Red", "D", Hex::new(-2, -5), Facing::S, Facing::S)
        .tank("Red", "E", Hex::new(-2, -2), Facing::SE, Facing::SE)
        .smoke(Hex::new(-1, -1))
        .tank("Red", "F", Hex::new(0, -5), Facing::S, Facing::S)
        .rules()
}

/// Every unit on the table blocks sight, of either side and of every kind: tanks, APCs,
/// infantry squads, AA guns and training targets; a destroyed unit is gone and does not
/// (docs/rules/tank-commander.md, "Line of sight").
#[test]
fn every_unit_on_the_table_blocks_sight_and_a_destroyed_one_does_not() {
    let between = Hex::new(0, -2);
    let kinds = [
        ("Blue", UnitKind::Infantry),
        ("Red", UnitKind::Infantry),
        ("Red", UnitKind::Apc),
        ("Red", UnitKind::AaGun),
        ("Red", UnitKind::Target),
        ("Blue", UnitKind::Tank),
    ];
    for (side, kind) in kinds {
        let (mut g, _) = Field::new()
            .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
            .tank("Red", "X", Hex::new(0, -4), Facing::S, Facing::S)
            .unit(side, kind, "InTheWay", between, Facing::N)
            .rules();
        let (from, to) = (g.unit(id(&g, "T")).at, g.unit(id(&g, "X")).at);
        let line = g.sight_line(from, to);
        let (hex, why) = line.blocked.expect("blocked");
        assert_eq!(hex, g.unit(id(&g, "InTheWay")).at, "{kind:?}");
        assert!(why.starts_with("InTheWay at "), "{why}");
        assert!(fire_at(&g, "T", "X").is_err(), "{kind:?} of {side}");
        // Destroyed, it is gone.
        let gone = id(&g, "InTheWay");
        g.units[gone.index()].status = Status::Destroyed;
        assert!(g.sight_line(from, to).blocked.is_none(), "{kind:?}");
    }
}

#[test]
fn firing_diagram_who_t_can_fire_at() {
    let (g, _) = firing_diagram();
    assert!(fire_at(&g, "T", "A").is_ok());
    assert!(fire_at(&g, "T", "B").is_ok());
    assert!(
        fire_at(&g, "T", "C")
            .unwrap_err()
            .why
            .contains("outside the turret")
    );
    assert!(
        fire_at(&g, "T", "D")
            .unwrap_err()
            .why
            .contains("the main gun reaches 6")
    );
    assert!(
        fire_at(&g, "T", "E")
            .unwrap_err()
            .why
            .contains("blocked by smoke")
    );
    assert!(
        fire_at(&g, "T", "F")
            .unwrap_err()
            .why
            .contains("blocked by A")
    );
}

#[test]
fn firing_diagram_armor_facings() {
    let (g, _) = firing_diagram();
    let facing = |s: &str, t: &str| fire_at(&g, s, t).unwrap().armor.unwrap().0;
    assert_eq!(facing("T", "A"), ArmorFacing::Front);
    assert_eq!(facing("T", "B"), ArmorFacing::Side);
    assert_eq!(facing("C", "T"), ArmorFacing::Side);
    assert_eq!(facing("A", "T"), ArmorFacing::Front);
    assert!(
        fire_at(&g, "B", "T")
            .unwrap_err()
            .why
            .contains("outside the turret")
    );
    assert!(fire_at(&g, "E", "T").unwrap_err().why.contains("smoke"));
    assert!(
        fire_at(&g, "F", "T")
            .unwrap_err()
            .why
            .contains("blocked by A")
    );
}

#[test]
fn rear_arc_and_boundaries_favour_the_defender() {
    let (g, _) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "Behind", Hex::new(0, 2), Facing::N, Facing::N)
        .tank("Red", "Vertex", Hex::new(1, -2), Facing::S, Facing::S)
        .tank("Red", "RearVertex", Hex::new(1, 1), Facing::NW, Facing::NW)
        .rules();
    let facing = |s: &str| {
        g.armor_facing_hit(g.unit_named("T").unwrap(), g.unit_named(s).unwrap().at)
            .0
    };
    assert_eq!(facing("Behind"), ArmorFacing::Rear);
    // (1,-2) lies exactly on the 30° line between the front and side arcs: front counts.
    assert_eq!(facing("Vertex"), ArmorFacing::Front);
    // (1,1) lies exactly on the 150° line between side and rear: side counts.
    assert_eq!(facing("RearVertex"), ArmorFacing::Side);

    let mut rules = Rules::builtin();
    rules.firing.arc_boundary = ArcBoundary::Attacker;
    let (g, _) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "Vertex", Hex::new(1, -2), Facing::S, Facing::S)
        .with_rules(&rules);
    assert_eq!(
        g.armor_facing_hit(&g.units[0], g.units[1].at).0,
        ArmorFacing::Side
    );
}

#[test]
fn turret_arc_is_120_degrees_including_its_edges() {
    let (g, _) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank(
            "Red",
            "OnEdge",
            Facing::NE.offset() * 3,
            Facing::S,
            Facing::S,
        )
        .tank("Red", "Beyond", Hex::new(3, 0), Facing::S, Facing::S)
        .rules();
    assert!(fire_at(&g, "T", "OnEdge").is_ok());
    assert!(fire_at(&g, "T", "Beyond").is_err());
}

#[test]
fn a_line_along_a_hexside_is_blocked_only_when_both_sides_block() {
    // From T to (2,-4) the line runs along hexsides at (1,-2)/(0,-2)… use one building.
    let target = Hex::new(1, -2);
    let line = crate::grid::hex::line_between(Hex::ZERO, target);
    let crate::grid::hex::LineStep::Hexside(a, b) = line[0] else {
        panic!("expected a hexside")
    };
    let one = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "X", target, Facing::S, Facing::S)
        .terrain(a, Terrain::Building);
    let both = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "X", target, Facing::S, Facing::S)
        .terrain(a, Terrain::Building)
        .terrain(b, Terrain::Building);
    let (g, _) = one.rules();
    assert!(fire_at(&g, "T", "X").is_ok());
    let (g, _) = both.rules();
    assert!(fire_at(&g, "T", "X").unwrap_err().why.contains("building"));
    let mut rules = Rules::builtin();
    rules.firing.hexside = HexsideRule::EitherSide;
    let (g, _) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "X", target, Facing::S, Facing::S)
        .terrain(a, Terrain::Building)
        .with_rules(&rules);
    assert!(fire_at(&g, "T", "X").is_err());
}

// ----- To-hit modifiers -----

#[test]
fn accuracy_modifiers_and_exact_odds() {
    let optics = Build {
        optics: true,
        ..Build::default()
    };
    let (g, _) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .with_build(optics)
        .tank("Red", "Open", Hex::new(0, -3), Facing::S, Facing::S)
        .tank("Red", "InForest", Hex::new(-2, -2), Facing::SE, Facing::SE)
        .terrain(Hex::new(-2, -2), Terrain::Forest)
        .tank("Red", "BehindHill", Hex::new(3, -3), Facing::S, Facing::S)
        .terrain(Hex::new(2, -2), Terrain::Hill)
        .rules();
    let open = fire_at(&g, "T", "Open").unwrap();
    assert_eq!(open.to_hit.shown_need(), 3);
    assert_eq!(open.to_hit.explain(), "needs 3+: base 4, optics −1");
    // The unit card and the pointer card say what a shot in the open needs.
    let shooter = g.units().iter().find(|u| u.name == "T").unwrap();
    assert_eq!(shooter.gun_need(g.rules()), open.to_hit.shown_need());
    let o = g.odds(&open);
    assert_eq!(o.hit, Fraction::new(2, 3));
    // AT 6 + d6 against front 6: every hit penetrates.
    assert_eq!(o.penetrating, Fraction::new(2, 3));
    assert_eq!(o.glancing, Fraction::ZERO);
    assert_eq!(o.expected_hull_loss, Fraction::new(2, 3));
    let forest = fire_at(&g, "T", "InForest").unwrap();
    assert_eq!(
        forest.to_hit.explain(),
        "needs 4+: base 4, optics −1, target in forest +1"
    );
    let hill = fire_at(&g, "T", "BehindHill").unwrap();
    assert_eq!(
        hill.to_hit.explain(),
        "needs 4+: base 4, optics −1, behind a hill +1"
    );
}

/// Enhanced Optics improve the main gun alone: the anti-infantry weapon of a tank with
/// optics needs its base number, and every modifier of a shot of every weapon is one its
/// rule lets reach that weapon (`odds::reason::REACHES`, checked against the rule rows).
#[test]
fn optics_improve_the_main_gun_only_and_no_modifier_reaches_a_weapon_its_rule_leaves_out() {
    use super::action::Weapon;
    use super::odds::reason;
    let build = Build {
        optics: true,
        anti_infantry: true,
        ..Build::default()
    };
    let (g, _) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .with_build(build)
        .squad("Red", "Wolf", Hex::new(0, -2))
        .tank("Red", "X", Hex::new(0, -3), Facing::S, Facing::S)
        .rules();
    let profile = |target: &str, weapon| {
        g.shot_profile_anyway(
            id(&g, "T"),
            FireTarget::Unit(id(&g, target)),
            weapon,
            Round::At,
            false,
        )
    };
    let gun = profile("X", Weapon::MainGun);
    assert_eq!(gun.to_hit.explain(), "needs 3+: base 4, optics −1");
    let ai = profile("Wolf", Weapon::AntiInfantry);
    assert_eq!(ai.to_hit.explain(), "needs 4+: base 4");
    // The table agrees with the rule rows: optics name the main gun.
    let map = crate::rules::map::map(crate::rules::GameKind::TankCommander).unwrap();
    let optics = &map
        .get("tc.build.optics")
        .expect("the optics rule row")
        .rule;
    assert!(optics.contains("main gun"), "{optics}");
    assert!(!reason::reaches(reason::OPTICS, Weapon::AntiInfantry));
    assert!(!reason::reaches(reason::OPTICS, Weapon::Missile));
    // Every modifier of every weapon, under every condition this field gives, is one
    // the table lets reach it.
    for (target, weapon) in [
        ("X", Weapon::MainGun),
        ("Wolf", Weapon::MainGun),
        ("Wolf", Weapon::AntiInfantry),
        ("X", Weapon::Missile),
    ] {
        for m in &profile(target, weapon).to_hit.modifiers {
            assert!(
                reason::reaches(&m.reason, weapon),
                "{} reaches {weapon:?}",
                m.reason
            );
        }
    }
}

#[test]
fn forest_along_the_line_counts_and_does_not_stack_with_forest_under_the_target() {
    let (g, _) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "X", Hex::new(0, -3), Facing::S, Facing::S)
        .terrain(Hex::new(0, -1), Terrain::Forest)
        .terrain(Hex::new(0, -3), Terrain::Forest)
        .rules();
    assert_eq!(
        fire_at(&g, "T", "X").unwrap().to_hit.explain(),
        "needs 5+: base 4, target in forest +1"
    );
}

#[test]
fn a_tank_on_a_hill_is_hit_on_its_rear() {
    let (g, _) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "X", Hex::new(0, -3), Facing::S, Facing::S)
        .terrain(Hex::new(0, -3), Terrain::Hill)
        .rules();
    assert_eq!(
        fire_at(&g, "T", "X").unwrap().armor.unwrap().0,
        ArmorFacing::Rear
    );
}

#[test]
fn wounded_gunner_and_bring_it_down() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "X", Hex::new(0, -3), Facing::S, Facing::S)
        .terrain(Hex::new(0, -3), Terrain::Forest)
        .rules();
    g.units[0].crew[2].wounds = 1;
    assert_eq!(
        fire_at(&g, "T", "X").unwrap().to_hit.explain(),
        "needs 6+: base 4, wounded gunner +1, target in forest +1"
    );
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    play(&mut g, &mut rng, Action::UseAbility(Ability::BringItDown));
    let p = g
        .shot_profile(UnitId(0), FireTarget::Unit(UnitId(1)), Round::At, true)
        .unwrap();
    // 2+ flat: neither the wound nor the forest counts.
    assert_eq!(p.to_hit.explain(), "needs 2+: Bring it down! 2");
    // One ability a turn.
    assert_eq!(
        refuse(&g, Action::UseAbility(Ability::QuickLoad)),
        "only one crew ability may be used each turn"
    );
}

#[test]
fn natural_one_misses_and_natural_six_hits() {
    let (g, _) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "X", Hex::new(0, -3), Facing::S, Facing::S)
        .rules();
    let mut p = fire_at(&g, "T", "X").unwrap().to_hit;
    // The rulebook's reading by default: a 1 misses, a shot that needs 7+ cannot hit.
    assert!(p.natural_one_misses && !p.natural_six_hits);
    p.need = 0;
    assert!(!p.hits(1));
    assert_eq!(p.chance(), Fraction::new(5, 6));
    p.need = 7;
    assert!(!p.hits(6));
    assert_eq!(p.chance(), Fraction::ZERO);
    assert!(p.explain().starts_with("cannot hit"));
    // The house rule, switched on: a 6 always hits.
    p.natural_six_hits = true;
    p.need = 9;
    assert!(p.hits(6));
    assert_eq!(p.chance(), Fraction::new(1, 6));
}

/// Blue's T facing Red's X three hexes north, X in a forest just behind a hill: the
/// most cover a target can have (+2).
fn forest_behind_hill(rules: &Rules) -> TankCommander {
    Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .terrain(Hex::new(0, -2), Terrain::Hill)
        .terrain(Hex::new(0, -3), Terrain::Forest)
        .tank("Red", "X", Hex::new(0, -3), Facing::S, Facing::S)
        .with_rules(rules)
        .0
}

/// "Bring it down!" hits on 2+ flat by default, cover or not; with the switch off the
/// target's cover still counts.
#[test]
fn bring_it_down_hits_on_two_flat_unless_the_switch_says_cover_counts() {
    for (flat, need) in [(true, 2), (false, 4)] {
        let mut rules = Rules::builtin();
        rules.firing.bring_it_down_flat = flat;
        let g = forest_behind_hill(&rules);
        let target = FireTarget::Unit(UnitId(1));
        let p = g.shot_profile(UnitId(0), target, Round::At, true).unwrap();
        assert_eq!(p.to_hit.need, need, "{}", p.to_hit.explain());
        // Without the ability the cover counts either way: 4 + forest 1 + hill 1.
        let plain = g.shot_profile(UnitId(0), target, Round::At, false).unwrap();
        assert_eq!(plain.to_hit.need, 6, "{}", plain.to_hit.explain());
    }
}

/// The rulebook's worst case: a wounded gunner at a tank in a forest behind a hill needs
/// 7+, which it cannot roll unless the house rule is on.
#[test]
fn a_shot_that_needs_seven_cannot_hit_by_default() {
    for (six_hits, chance) in [(false, Fraction::ZERO), (true, Fraction::new(1, 6))] {
        let mut rules = Rules::builtin();
        rules.firing.natural_six_hits = six_hits;
        let mut g = forest_behind_hill(&rules);
        g.units[0].crew[2].wounds = 1;
        let p = fire_at(&g, "T", "X").unwrap().to_hit;
        assert_eq!(p.need, 7, "{}", p.explain());
        assert_eq!(p.chance(), chance, "{}", p.explain());
    }
}

// ----- Damage -----

#[test]
fn penetrating_hit_wounds_and_costs_a_hull_point() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "X", Hex::new(0, -3), Facing::S, Facing::S)
        .rules();
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    // Hit on 4, penetration 1+6=7 > 6, crew pick 3 of 4 (gunner).
    rng.push_script([4, 1, 3]);
    let facts = play(&mut g, &mut rng, Action::Fire(FireTarget::Unit(UnitId(1))));
    let x = &g.units[1];
    assert_eq!(x.hull, 3);
    assert_eq!(x.crew[2].wounds, 1);
    assert_eq!(x.role_state(Role::Gunner), RoleState::Impaired);
    assert!(
        facts
            .iter()
            .any(|f| matches!(f, Fact::HullDamaged { remaining: 3, .. }))
    );
    assert_eq!(g.units[0].loaded, None);
    assert_eq!(
        refuse(&g, Action::Fire(FireTarget::Unit(UnitId(1)))),
        "the gun is not loaded"
    );
}

#[test]
fn glancing_hit_wounds_on_four_plus() {
    let armor = Build {
        armor: ArmorPoints {
            front: 3,
            side: 0,
            rear: 0,
        },
        ..Build::default()
    };
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "X", Hex::new(0, -3), Facing::S, Facing::S)
        .with_build(armor)
        .rules();
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    // Hit 5; penetration 3+6=9 vs front 9: glancing; wound roll 3: no wound.
    rng.push_script([5, 3, 3]);
    let facts = play(&mut g, &mut rng, Action::Fire(FireTarget::Unit(UnitId(1))));
    assert!(
        facts
            .iter()
            .any(|f| matches!(f, Fact::WoundRolled { check, .. } if !check.success))
    );
    assert!(g.units[1].crew.iter().all(|m| m.wounds == 0));
    assert_eq!(g.units[1].hull, 4);
    play(&mut g, &mut rng, Action::Load(Round::At));
    // Hit 6; penetration 1: glancing; wound roll 4: wound, pick 1 (commander).
    rng.push_script([6, 1, 4, 1]);
    play(&mut g, &mut rng, Action::Fire(FireTarget::Unit(UnitId(1))));
    assert_eq!(g.units[1].crew[0].wounds, 1);
    assert_eq!(g.units[1].action_points(g.rules()), 4);
}

/// Blue's T, with a Lieutenant Commander, three hexes from Red's X.
fn lieutenant_duel(rules: &Rules) -> (TankCommander, MatchRng) {
    Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .with_build(Build {
            lieutenant: true,
            ..Build::default()
        })
        .tank("Red", "X", Hex::new(0, -3), Facing::S, Facing::S)
        .with_rules(rules)
}

#[test]
fn second_wound_kills_and_the_lieutenant_takes_over_when_his_side_chooses() {
    let (mut g, mut rng) = lieutenant_duel(&Rules::builtin());
    let t = UnitId(0);
    g.units[0].crew[3].wounds = 1; // loader wounded: loading costs 2
    assert_eq!(g.units[0].load_cost(g.rules(), false), Some(2));
    let mut facts = Vec::new();
    rng.push_script([4]); // pick 4 of 5: the loader
    g.wound(t, &mut rng, &mut facts);
    assert!(matches!(
        facts[..],
        [Fact::CrewWounded {
            role: Role::Loader,
            killed: true,
            ..
        }]
    ));
    // Nobody loads until the lieutenant is told to take over.
    assert_eq!(g.units[0].load_cost(g.rules(), false), None);
    play(&mut g, &mut rng, Action::Activate(t));
    assert!(g.legal(BLUE).contains(&Action::TakeOver(Role::Loader)));
    assert_eq!(
        refuse(&g, Action::TakeOver(Role::Gunner)),
        "the Gunner is alive: he takes over only a killed crew member's job"
    );
    let facts = play(&mut g, &mut rng, Action::TakeOver(Role::Loader));
    assert!(matches!(
        facts[0],
        Fact::LieutenantTookOver {
            role: Role::Loader,
            ..
        }
    ));
    assert_eq!(g.activation().unwrap().action_points, 5, "it costs nothing");
    // The lieutenant loads as if wounded, and takes over one role for the battle.
    assert_eq!(g.units[0].role_state(Role::Loader), RoleState::Impaired);
    assert_eq!(g.units[0].load_cost(g.rules(), false), Some(2));
    g.units[0].crew[2].wounds = 2;
    assert_eq!(
        refuse(&g, Action::TakeOver(Role::Gunner)),
        "the Lieutenant Commander already does the Loader's job"
    );
    // Kill the lieutenant: now nobody can load.
    let l = 4;
    g.units[0].crew[l].wounds = 2;
    assert_eq!(g.units[0].load_cost(g.rules(), false), None);
}

#[test]
fn the_lieutenant_can_wait_for_a_later_death_and_covering_the_commander_gives_back_an_action() {
    let (mut g, mut rng) = lieutenant_duel(&Rules::builtin());
    g.units[0].crew[3].wounds = 2; // the loader is dead, and the side waits
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(UnitId(1)));
    play(&mut g, &mut rng, Action::EndActivation);
    // Turn 2: the commander has died too; the lieutenant takes his place instead.
    g.units[0].crew[0].wounds = 2;
    let facts = play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    assert!(matches!(
        facts[0],
        Fact::UnitActivated {
            action_points: 3,
            ..
        }
    ));
    play(&mut g, &mut rng, Action::TakeOver(Role::Commander));
    // Killed costs 2 actions, covered by the lieutenant (as if wounded) 1.
    assert_eq!(g.activation().unwrap().action_points, 4);
    assert_eq!(g.units[0].action_points(g.rules()), 4);
    assert_eq!(g.units[0].role_state(Role::Loader), RoleState::Out);
}

#[test]
fn under_the_first_death_switch_the_lieutenant_takes_over_at_once() {
    let mut rules = Rules::builtin();
    rules.crew.lieutenant = LieutenantRule::FirstDeath;
    let (mut g, mut rng) = lieutenant_duel(&rules);
    g.units[0].crew[3].wounds = 1;
    let mut facts = Vec::new();
    rng.push_script([4]);
    g.wound(UnitId(0), &mut rng, &mut facts);
    assert!(matches!(
        facts[1],
        Fact::LieutenantTookOver {
            role: Role::Loader,
            ..
        }
    ));
    assert_eq!(g.units[0].role_state(Role::Loader), RoleState::Impaired);
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    assert!(refuse(&g, Action::TakeOver(Role::Loader)).contains("on his own"));
    assert_eq!(
        refusal(&g, Action::TakeOver(Role::Loader)).rule,
        "tc.crew.lieutenant"
    );
}

#[test]
fn killed_crew_effects() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "X", Hex::new(0, -3), Facing::S, Facing::S)
        .rules();
    for m in &mut g.units[0].crew {
        if m.role != Role::Loader {
            m.wounds = 2;
        }
    }
    g.units[0].loaded = None;
    // Commander killed: 5 - 2 = 3 actions.
    let facts = play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    assert!(matches!(
        &facts[0],
        Fact::UnitActivated {
            action_points: 3,
            ..
        }
    ));
    assert!(refuse(&g, Action::Move).contains("driver is dead"));
    assert_eq!(refusal(&g, Action::Move).rule, "tc.wounds.driver");
    assert!(
        refuse(
            &g,
            Action::Turn {
                rotation: Rotation::Left,
                turret_follows: true
            }
        )
        .contains("driver is dead")
    );
    play(&mut g, &mut rng, Action::Load(Round::At));
    assert!(refuse(&g, Action::Fire(FireTarget::Unit(UnitId(1)))).contains("gunner is dead"));
    assert_eq!(
        refusal(&g, Action::Fire(FireTarget::Unit(UnitId(1)))).rule,
        "tc.wounds.gunner"
    );
    assert!(refuse(&g, Action::UseAbility(Ability::BoomingVoice)).contains("Commander is dead"));
}

#[test]
fn medkit_cancels_the_first_wound_penalty() {
    let kit = Build {
        medkit: true,
        ..Build::default()
    };
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .with_build(kit)
        .tank("Red", "X", Hex::new(0, -3), Facing::S, Facing::S)
        .rules();
    let mut facts = Vec::new();
    rng.push_script([1, 2]);
    g.wound(UnitId(0), &mut rng, &mut facts);
    g.wound(UnitId(0), &mut rng, &mut facts);
    assert_eq!(g.units[0].role_state(Role::Commander), RoleState::Healthy);
    assert_eq!(g.units[0].role_state(Role::Driver), RoleState::Impaired);
    assert!(matches!(facts[0], Fact::CrewWounded { treated: true, .. }));
}

#[test]
fn a_veteran_uses_the_ability_twice_a_battle_and_the_card_counts_down() {
    let mut field = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "X", Hex::new(6, -3), Facing::S, Facing::S);
    field.setup.units[0].veterans = vec![Role::Commander];
    let (mut g, mut rng) = field.rules();
    let commander = |g: &TankCommander| g.units[0].member(Role::Commander).unwrap().clone();
    assert!(commander(&g).veteran);
    assert_eq!(commander(&g).ability_uses_left(), 2);
    for turn in 1..=3 {
        play(&mut g, &mut rng, Action::Activate(UnitId(0)));
        if turn < 3 {
            play(&mut g, &mut rng, Action::UseAbility(Ability::BoomingVoice));
            assert_eq!(g.activation().unwrap().action_points, 7);
            assert_eq!(commander(&g).ability_uses_left(), 2 - turn);
        } else {
            assert_eq!(
                refuse(&g, Action::UseAbility(Ability::BoomingVoice)),
                "Booming Voice has been used 2 times this battle, as often as a veteran may"
            );
        }
        play(&mut g, &mut rng, Action::EndActivation);
        play(&mut g, &mut rng, Action::Activate(UnitId(1)));
        play(&mut g, &mut rng, Action::EndActivation);
    }
    // Veterans are a tank crew's, and each role once.
    let mut field = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .squad("Blue", "S", S)
        .tank("Red", "X", Hex::new(6, -3), Facing::S, Facing::S);
    field.setup.units[0].veterans = vec![Role::Gunner, Role::Lieutenant, Role::Gunner];
    field.setup.units[1].veterans = vec![Role::Gunner];
    let problems: Vec<String> = Scenario::validate(field.setup, &Rules::builtin())
        .unwrap_err()
        .0
        .into_iter()
        .map(|(at, m)| format!("{at}: {m}"))
        .collect();
    assert_eq!(
        problems,
        [
            "units[0].veterans[1]: this tank has no Lieutenant Commander (the `lieutenant` upgrade)",
            "units[0].veterans[2]: the Gunner is named twice",
            "units[1].veterans[0]: only a tank's crew can be veterans",
        ]
    );
}

#[test]
fn abilities_are_once_per_battle() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "X", Hex::new(6, -3), Facing::S, Facing::S)
        .rules();
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    play(&mut g, &mut rng, Action::UseAbility(Ability::BoomingVoice));
    assert_eq!(g.activation().unwrap().action_points, 7);
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(UnitId(1)));
    play(&mut g, &mut rng, Action::EndActivation);
    // Turn 2.
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    assert_eq!(
        refuse(&g, Action::UseAbility(Ability::BoomingVoice)),
        "Booming Voice has already been used this battle"
    );
    // Move move move! carries the tank three spaces for one action; they are the turn's
    // three moves.
    let start = g.units[0].at;
    play(
        &mut g,
        &mut rng,
        Action::UseAbility(Ability::MoveMoveMove { spaces: 3 }),
    );
    assert_eq!(g.units[0].at, start + N * 3);
    assert_eq!(g.activation().unwrap().moves, 3);
    assert_eq!(g.activation().unwrap().action_points, 4);
    assert!(refuse(&g, Action::Move).contains("its limit"));
}

/// Every sequence of moves, dashes and Booming Voice in one activation, searched to the
/// end: the farthest a tank gets from where it started.
fn farthest_in_one_activation(g: &TankCommander) -> u32 {
    let start = g.units[0].at;
    let mut farthest = 0;
    let mut stack = vec![g.clone()];
    let mut rng = MatchRng::new(0);
    while let Some(state) = stack.pop() {
        farthest = farthest.max(start.unsigned_distance_to(state.units[0].at));
        let mut options = vec![Action::Move, Action::UseAbility(Ability::BoomingVoice)];
        options.extend(
            (1..=state.rules.crew.dash_spaces)
                .map(|spaces| Action::UseAbility(Ability::MoveMoveMove { spaces })),
        );
        for a in options {
            if state.check(BLUE, &a).is_ok() {
                let mut next = state.clone();
                next.apply(BLUE, &a, &mut rng).unwrap();
                stack.push(next);
            }
        }
    }
    farthest
}

#[test]
fn move_move_move_stays_within_the_move_cap_and_pays_for_mud() {
    let engine = Build {
        engine: true,
        ..Build::default()
    };
    let field = || {
        Field::new()
            .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
            .with_build(engine)
            .tank("Red", "B", Hex::new(8, 0), Facing::S, Facing::S)
    };
    // The worst case, every order of moves, dashes and Booming Voice tried: an engine
    // tank (cap 4) gets no farther than its cap, whatever it does.
    let (mut g, mut rng) = field().rules();
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    assert_eq!(farthest_in_one_activation(&g), 4);
    play(&mut g, &mut rng, Action::Move);
    play(&mut g, &mut rng, Action::Move);
    assert_eq!(
        refuse(&g, Action::UseAbility(Ability::MoveMoveMove { spaces: 3 })),
        "Move move move! counts towards the move limit: A may move 2 more spaces this turn"
    );
    play(
        &mut g,
        &mut rng,
        Action::UseAbility(Ability::MoveMoveMove { spaces: 2 }),
    );
    assert_eq!(g.units[0].at, N * 4 + g.board.hex_at(10, 10));

    // Out of mud the dash pays the extra action point, like a move would.
    let (mut g, mut rng) = field().terrain(Hex::ZERO, Terrain::Mud).rules();
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    play(
        &mut g,
        &mut rng,
        Action::UseAbility(Ability::MoveMoveMove { spaces: 3 }),
    );
    assert_eq!(g.activation().unwrap().action_points, 3);

    // With both switches off the dash comes on top of the cap, and mud is free.
    let mut rules = Rules::builtin();
    rules.crew.dash_within_cap = false;
    rules.crew.dash_pays_rough = false;
    let (mut g, mut rng) = field().terrain(Hex::ZERO, Terrain::Mud).with_rules(&rules);
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    assert_eq!(farthest_in_one_activation(&g), 7);
    play(
        &mut g,
        &mut rng,
        Action::UseAbility(Ability::MoveMoveMove { spaces: 3 }),
    );
    assert_eq!(g.activation().unwrap().action_points, 4);
}

#[test]
fn quick_load_makes_loading_free() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "X", Hex::new(6, -3), Facing::S, Facing::S)
        .rules();
    g.units[0].loaded = None;
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    play(&mut g, &mut rng, Action::UseAbility(Ability::QuickLoad));
    let facts = play(&mut g, &mut rng, Action::Load(Round::At));
    assert!(matches!(facts[0], Fact::GunLoaded { cost: 0, .. }));
    assert_eq!(g.activation().unwrap().action_points, 5);
    assert!(refuse(&g, Action::Load(Round::He)).contains("no HE rounds"));
    assert_eq!(
        refusal(&g, Action::Load(Round::He)).rule,
        "tc.build.he-rounds"
    );
}

#[test]
fn he_fire_burns_at_the_end_of_turn_and_fire_kills_cook_off_at_once() {
    let he = Build {
        he_rounds: true,
        ..Build::default()
    };
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .with_build(he)
        .loaded(Round::He)
        .tank("Red", "X", Hex::new(0, -3), Facing::S, Facing::S)
        .tank("Red", "Near", Hex::new(1, -4), Facing::S, Facing::S)
        .rules();
    g.units[1].hull = 2;
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    // Hit 4; penetration 3+4=7 > 6; wound pick 1; fire roll 5: on fire.
    rng.push_script([4, 3, 1, 5]);
    let facts = play(&mut g, &mut rng, Action::Fire(FireTarget::Unit(UnitId(1))));
    assert!(
        facts
            .iter()
            .any(|f| matches!(f, Fact::FireRolled { check, .. } if check.success))
    );
    assert!(g.units[1].on_fire);
    assert_eq!(g.units[1].hull, 1);
    play(&mut g, &mut rng, Action::EndActivation);
    // Red activates X and Near and does nothing.
    play(&mut g, &mut rng, Action::Activate(UnitId(1)));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(UnitId(2)));
    // End of turn: fire takes X's last hull point, X cooks off at once; the blast hits
    // Near (distance 1) and T (distance 3: out of the blast). Blast penetration roll 1.
    rng.push_script([1, 1]);
    let facts = play(&mut g, &mut rng, Action::EndActivation);
    assert!(
        facts.iter().any(|f| matches!(
            f,
            Fact::CookedOff {
                immediate: true,
                ..
            }
        )),
        "{facts:#?}"
    );
    assert_eq!(g.units[1].status, Status::Destroyed);
    assert_eq!(g.terrain(g.units[1].at), Terrain::Rubble);
    let blasts: Vec<UnitId> = facts
        .iter()
        .filter_map(|f| match f {
            Fact::BlastHit { target, .. } => Some(*target),
            _ => None,
        })
        .collect();
    assert_eq!(blasts, vec![UnitId(2)]);
}

#[test]
fn disabled_tanks_roll_to_cook_off_each_end_of_turn() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "X", Hex::new(0, -3), Facing::S, Facing::S)
        .tank("Red", "Y", Hex::new(5, -3), Facing::S, Facing::S)
        .rules();
    g.units[1].hull = 1;
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    rng.push_script([4, 1, 1]);
    let facts = play(&mut g, &mut rng, Action::Fire(FireTarget::Unit(UnitId(1))));
    assert!(facts.iter().any(|f| matches!(f, Fact::UnitDisabled { .. })));
    assert!(refuse(&g, Action::Fire(FireTarget::Unit(UnitId(1)))).contains("not loaded"));
    assert_eq!(
        refusal(&g, Action::Fire(FireTarget::Unit(UnitId(1)))).rule,
        "tc.play.load"
    );
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(UnitId(2)));
    // Cook-off roll 3: holds.
    rng.push_script([3]);
    let facts = play(&mut g, &mut rng, Action::EndActivation);
    assert!(
        facts
            .iter()
            .any(|f| matches!(f, Fact::CookOffRolled { check, .. } if !check.success))
    );
    assert_eq!(g.units[1].status, Status::Disabled);
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(UnitId(2)));
    // Cook-off roll 4: boom; the blast reaches T at distance 3? No: radius 2.
    rng.push_script([4]);
    let facts = play(&mut g, &mut rng, Action::EndActivation);
    assert!(facts.iter().any(|f| matches!(
        f,
        Fact::CookedOff {
            immediate: false,
            ..
        }
    )));
    assert!(!facts.iter().any(|f| matches!(f, Fact::BlastHit { .. })));
}

#[test]
fn shooting_a_building_turns_it_to_rubble() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .terrain(Hex::new(0, -2), Terrain::Building)
        .tank("Red", "X", Hex::new(0, -4), Facing::S, Facing::S)
        .rules();
    assert!(fire_at(&g, "T", "X").unwrap_err().why.contains("building"));
    let house = g.units[0].at + Hex::new(0, -2);
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    rng.push_script([5]);
    play(&mut g, &mut rng, Action::Fire(FireTarget::Building(house)));
    assert_eq!(g.terrain(house), Terrain::Rubble);
    assert!(fire_at(&g, "T", "X").is_ok());
}

#[test]
fn a_building_needs_no_hit_roll_when_the_switch_is_off() {
    let field = || {
        Field::new()
            .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
            .terrain(Hex::new(0, -2), Terrain::Building)
            .tank("Red", "X", Hex::new(0, -4), Facing::S, Facing::S)
    };
    let house = Hex::new(0, -2);
    for (needs_roll, rubble) in [(true, false), (false, true)] {
        let mut rules = Rules::builtin();
        rules.firing.building_needs_hit_roll = needs_roll;
        let (mut g, mut rng) = field().with_rules(&rules);
        let house = g.units[0].at + house;
        play(&mut g, &mut rng, Action::Activate(UnitId(0)));
        let profile = g
            .shot_profile(UnitId(0), FireTarget::Building(house), Round::At, false)
            .unwrap();
        assert_eq!(
            profile.to_hit.chance() == Fraction::ONE,
            !needs_roll,
            "{}",
            profile.to_hit.explain()
        );
        // A natural 1: a miss only when buildings need a roll.
        rng.push_script([1]);
        play(&mut g, &mut rng, Action::Fire(FireTarget::Building(house)));
        assert_eq!(g.terrain(house) == Terrain::Rubble, rubble);
    }
}

#[test]
fn smoke_launcher_range_and_blocking() {
    let smoke = Build {
        smoke_launcher: true,
        ..Build::default()
    };
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .with_build(smoke)
        .tank("Red", "X", Hex::new(0, -4), Facing::S, Facing::S)
        .rules();
    let at = g.units[0].at;
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    assert!(refuse(&g, Action::DeploySmoke(at + Hex::new(0, -3))).contains("1 to 2 spaces"));
    play(&mut g, &mut rng, Action::DeploySmoke(at + Hex::new(0, -2)));
    assert!(fire_at(&g, "T", "X").unwrap_err().why.contains("smoke"));
    assert!(refuse(&g, Action::DeploySmoke(at + Hex::new(0, -1))).contains("1 time a turn"));
    assert_eq!(
        refusal(&g, Action::DeploySmoke(at + Hex::new(0, -1))).rule,
        "tc.play.deploy-smoke"
    );
}

// ----- Turns and the end of the battle -----

#[test]
fn turns_alternate_and_the_limit_ends_in_a_draw() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .tank("Blue", "A2", Hex::new(-3, 0), Facing::N, Facing::N)
        .tank("Red", "B", Hex::new(8, -4), Facing::S, Facing::S)
        .turn_limit(2)
        .rules();
    assert_eq!(g.to_act(), vec![BLUE]);
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    play(&mut g, &mut rng, Action::EndActivation);
    assert_eq!(g.to_act(), vec![RED]);
    play(&mut g, &mut rng, Action::Activate(UnitId(2)));
    play(&mut g, &mut rng, Action::EndActivation);
    // Red has nothing left: Blue activates its second tank.
    assert_eq!(g.to_act(), vec![BLUE]);
    assert!(refuse(&g, Action::Activate(UnitId(0))).contains("already been activated"));
    assert_eq!(
        refusal(&g, Action::Activate(UnitId(0))).rule,
        "tc.intro.activations"
    );
    play(&mut g, &mut rng, Action::Activate(UnitId(1)));
    let facts = play(&mut g, &mut rng, Action::EndActivation);
    assert!(
        facts
            .iter()
            .any(|f| matches!(f, Fact::TurnStarted { turn: 2 }))
    );
    assert_eq!(g.turn(), 2);
    for u in [0, 2, 1] {
        play(&mut g, &mut rng, Action::Activate(UnitId(u)));
        play(&mut g, &mut rng, Action::EndActivation);
    }
    let outcome = g.outcome().expect("the turn limit ends the battle");
    assert!(outcome.is_draw());
    assert_eq!(outcome.reason, "the 2-turn limit was reached");
    assert!(g.to_act().is_empty());
}

#[test]
fn concession_and_destruction_end_the_battle() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "B", Hex::new(0, -3), Facing::S, Facing::S)
        .rules();
    let mut conceded = g.clone();
    let facts = play(&mut conceded, &mut rng.clone(), Action::Concede);
    assert!(matches!(facts.last(), Some(Fact::BattleEnded { .. })));
    assert_eq!(conceded.outcome().unwrap().winners, vec![RED]);

    g.units[1].hull = 1;
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    rng.push_script([4, 1, 1]);
    let facts = play(&mut g, &mut rng, Action::Fire(FireTarget::Unit(UnitId(1))));
    assert_eq!(g.outcome().unwrap().winners, vec![BLUE]);
    assert!(matches!(facts.last(), Some(Fact::BattleEnded { .. })));
}

#[test]
fn first_player_roll_rerolls_ties() {
    let scenario = Scenario::builtin_default();
    let mut g = TankCommander::new(&scenario, &Rules::builtin()).unwrap();
    let mut rng = MatchRng::scripted(0, [3, 3, 2, 5]);
    let facts = g.begin(&mut rng);
    assert!(
        matches!(&facts[0], Fact::FirstPlayerRolled { rounds, first } if rounds.len() == 2 && *first == RED)
    );
    assert_eq!(g.to_act(), vec![RED]);
}

#[test]
fn shipped_files_are_valid() {
    let rules = Rules::builtin();
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ron") {
            Scenario::load(&path, &rules).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

#[test]
fn a_rules_table_with_huge_upgrades_is_refused_and_builds_never_wrap() {
    let text = BUILTIN_RULES
        .replacen("armor_max_per_facing: 3", "armor_max_per_facing: 250", 1)
        .replacen("budget: 10", "budget: 255", 1);
    let err = Rules::parse("big.ron", &text).unwrap_err().to_string();
    let line = text
        .lines()
        .position(|l| l.contains("armor_max_per_facing"))
        .unwrap()
        + 1;
    assert!(
        err.contains(&format!(
            "big.ron:{line}:9: 250 is too large here: the rules allow at most 20"
        )),
        "{err}"
    );
    assert!(
        err.contains("255 is too large here: the rules allow at most 100"),
        "{err}"
    );
    // Even a build no table allows costs and armors without wrapping.
    let rules = Rules::builtin();
    let build = Build {
        armor: ArmorPoints {
            front: 250,
            side: 250,
            rear: 250,
        },
        ..Build::default()
    };
    assert_eq!(build.cost(&rules.upgrades), 750);
    assert_eq!(build.armor(rules.tank.armor).front, 255);
    let problems = build.problems(UnitKind::Tank, &rules, false, false);
    assert!(
        problems
            .iter()
            .any(|p| p.message.contains("750 upgrade points")),
        "{problems:?}"
    );
}

#[test]
fn a_tank_lays_its_mines_beside_it_and_the_enemy_drives_onto_one() {
    let miner = Build {
        mines: 2,
        ..Build::default()
    };
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "M", Hex::ZERO, Facing::N, Facing::N)
        .with_build(miner)
        .tank("Red", "X", N * 3, Facing::S, Facing::S)
        .tank("Red", "Y", Hex::new(6, 0), Facing::S, Facing::S)
        .rules();
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    let here = g.units[0].at;
    assert!(refuse(&g, Action::LayMine(here + N * 2)).contains("1 space from the tank"));
    assert!(refuse(&g, Action::LayMine(here)).contains("is 0"));
    let at = g.units[0].at;
    play(&mut g, &mut rng, Action::LayMine(at + N));
    assert!(refuse(&g, Action::LayMine(at + N)).contains("already mined"));
    play(&mut g, &mut rng, Action::LayMine(at + Facing::NE.offset()));
    assert!(refuse(&g, Action::LayMine(at + Facing::NW.offset())).contains("all its"));
    assert_eq!(g.activation().unwrap().action_points, 3);
    play(&mut g, &mut rng, Action::EndActivation);
    // Red's X drives south onto the first mine: an AT 6 hit on its rear armor 6.
    play(&mut g, &mut rng, Action::Activate(UnitId(1)));
    play(&mut g, &mut rng, Action::Move);
    rng.push_script([1, 2]); // penetration 1+6=7 > 6; then the wound pick
    let facts = play(&mut g, &mut rng, Action::Move);
    let Fact::MineExploded {
        owner, penetration, ..
    } = &facts[1]
    else {
        panic!("{facts:?}")
    };
    assert_eq!(*owner, BLUE);
    assert_eq!(penetration.armor_facing, ArmorFacing::Rear);
    assert!(penetration.penetrating);
    assert_eq!(g.units[1].hull, 3);
    assert_eq!(g.mines().len(), 1, "the mine is gone");
    // A tank without the upgrade carries none.
    play(&mut g, &mut rng, Action::EndActivation);
    assert!(refuse(&g, Action::LayMine(g.units[0].at + N)).contains("activate"));
    assert_eq!(
        refusal(&g, Action::LayMine(g.units[0].at + N)).rule,
        "tc.intro.activations"
    );
}

#[test]
fn a_dash_stops_on_the_mine_that_goes_off() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "B", Hex::new(8, 0), Facing::S, Facing::S)
        .mines("Red", &[N])
        .rules();
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    rng.push_script([1]); // penetration 1+6=7 against rear 6: penetrating...
    rng.push_script([1]); // ...wounding crew pick 1
    let facts = play(
        &mut g,
        &mut rng,
        Action::UseAbility(Ability::MoveMoveMove { spaces: 3 }),
    );
    assert_eq!(g.units[0].at, g.board.hex_at(10, 10) + N);
    assert_eq!(
        facts
            .iter()
            .filter(|f| matches!(f, Fact::UnitMoved { .. }))
            .count(),
        1
    );
    assert_eq!(g.activation().unwrap().moves, 1);
}

#[test]
fn hidden_mines_are_seen_only_by_their_side() {
    let mut field = Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .with_build(Build {
            mines: 1,
            ..Build::default()
        })
        .tank("Red", "B", Hex::new(8, 0), Facing::S, Facing::S)
        .mines("Red", &[N, N * 2]);
    field.setup.mines.hidden = true;
    let (mut g, mut rng) = field.rules();
    assert_eq!(g.view(BLUE).mines().len(), 0);
    assert_eq!(g.view(RED).mines().len(), 2);
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    // Laying on a hidden enemy mine is allowed: refusing would give it away.
    let at = g.units[0].at;
    let facts = play(&mut g, &mut rng, Action::LayMine(at + N));
    assert_eq!(g.describe_fact(&facts[0]), "A lays a hidden mine (1 AP).");
    assert_eq!(g.view(BLUE).mines().len(), 1);
    assert_eq!(g.view(RED).mines().len(), 2);
}

#[test]
fn scenario_mines_are_checked() {
    let mut field = Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .terrain(N, Terrain::Building)
        .tank("Red", "B", Hex::new(8, 0), Facing::S, Facing::S)
        .mines("Red", &[Hex::ZERO, N, N * 2, N * 2])
        .mines("Green", &[N * 3]);
    field.setup.mines.fields[0].at.push("ZZ99".into());
    let p: Vec<String> = Scenario::validate(field.setup, &Rules::builtin())
        .unwrap_err()
        .0
        .into_iter()
        .map(|(path, message)| format!("{path}: {message}"))
        .collect();
    let p = p.join("\n");
    for expected in [
        "mines.fields[0].at[0]: a mine at K11 would lie under `A` before the battle",
        "mines.fields[0].at[1]: a mine at K10 would lie in a building",
        "mines.fields[0].at[3]: K9 is mined twice",
        "mines.fields[0].at[4]",
        "mines.fields[1].side: `Green` is not a side of this scenario",
    ] {
        assert!(p.contains(expected), "{expected} in {p}");
    }
}

#[test]
fn an_air_strike_comes_in_on_six_then_five_and_scatters() {
    let air = Build {
        air_support: true,
        ..Build::default()
    };
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .with_build(air)
        .tank("Red", "B", N * 5, Facing::S, Facing::S)
        .tank("Red", "C", N * 7, Facing::S, Facing::S)
        .terrain(N * 6, Terrain::Building)
        .rules();
    let mark = g.units[1].at;
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    assert!(refuse(&g, Action::CallAirStrike(Hex::new(99, 99))).contains("on the board"));
    let facts = play(&mut g, &mut rng, Action::CallAirStrike(mark));
    assert_eq!(
        g.describe_fact(&facts[0]),
        "A calls in an air strike on K6 (1 AP): it comes on a 6+ next turn."
    );
    assert!(refuse(&g, Action::CallAirStrike(mark)).contains("already called"));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(UnitId(1)));
    play(&mut g, &mut rng, Action::EndActivation);
    // Turn 2 starts with the first roll: 5 is not a 6.
    rng.push_script([5]);
    play(&mut g, &mut rng, Action::Activate(UnitId(2)));
    let facts = play(&mut g, &mut rng, Action::EndActivation);
    let rolled = facts
        .iter()
        .find_map(|f| match f {
            Fact::AirStrikeRolled { waited, check, .. } => Some((*waited, *check)),
            _ => None,
        })
        .unwrap();
    assert_eq!((rolled.0, rolled.1.need, rolled.1.success), (1, 6, false));
    assert_eq!(g.air_strikes().len(), 1);
    for _ in 0..3 {
        let side = g.to_act()[0];
        let unit = g.pending_units(side).next().unwrap();
        play(&mut g, &mut rng, Action::Activate(unit));
        let others = g.pending_units(BLUE).chain(g.pending_units(RED));
        if others.filter(|u| *u != unit).count() == 0 {
            // The last activation of turn 2: turn 3 rolls 5 (needs 5+): it comes in.
            // Scatter north 2: B's hex, the building, then C.
            rng.push_script([5, 1, 2]);
            // B and C: penetration rolls 1 (7 > 6, penetrating) with wound picks 1.
            rng.push_script([1, 1, 1, 1]);
        }
        let facts = play(&mut g, &mut rng, Action::EndActivation);
        if let Some(Fact::AirStrikeLanded { scatter, hexes, .. }) = facts
            .iter()
            .find(|f| matches!(f, Fact::AirStrikeLanded { .. }))
        {
            let s = scatter.unwrap();
            assert_eq!((s.direction, s.distance), (Facing::N, 2));
            assert_eq!(hexes, &vec![mark, mark + N, mark + N * 2]);
            assert!(facts.contains(&Fact::BuildingDestroyed { hex: mark + N }));
            let hit: Vec<UnitId> = facts
                .iter()
                .filter_map(|f| match f {
                    Fact::StrikeHit { target, .. } => Some(*target),
                    _ => None,
                })
                .collect();
            assert_eq!(hit, vec![UnitId(1), UnitId(2)]);
            assert!(g.air_strikes().is_empty());
            return;
        }
    }
    panic!("the strike never came in");
}

#[test]
fn an_air_strike_gets_one_easier_each_turn_but_never_comes_on_a_one() {
    let a = Rules::builtin().air_strike;
    let needs: Vec<u8> = (1..=7).map(|w| a.need(w)).collect();
    assert_eq!(needs, [6, 5, 4, 3, 2, 2, 2]);
    let mut rules = Rules::builtin();
    rules.air_strike.best_need = 1;
    assert!(
        Rules::parse("r.ron", &ron::to_string(&rules).unwrap())
            .unwrap_err()
            .to_string()
            .contains("a 1 never calls it in")
    );
}

#[test]
fn the_air_strike_preview_gives_this_turns_chance_and_every_space_it_can_hit() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .with_build(Build {
            air_support: true,
            ..Build::default()
        })
        .tank("Red", "B", N * 5, Facing::S, Facing::S)
        .rules();
    let mark = g.units[1].at;
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    play(&mut g, &mut rng, Action::CallAirStrike(mark));
    let strike = g.air_strikes()[0];
    assert_eq!(g.air_strike_chance(&strike), Fraction::new(1, 6));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(UnitId(1)));
    rng.push_script([2]); // turn 2: needs 6, rolls 2
    play(&mut g, &mut rng, Action::EndActivation);
    assert_eq!(
        g.air_strike_chance(&g.air_strikes()[0]),
        Fraction::new(2, 6)
    );
    let reach = g.air_strike_reach(mark);
    let chance = |h: Hex| reach.iter().find(|(r, _)| *r == h).map(|(_, c)| *c);
    assert_eq!(chance(mark), Some(Fraction::ONE));
    assert_eq!(chance(mark + N), Some(Fraction::new(1, 6)));
    assert_eq!(chance(mark + N * 5), Some(Fraction::new(2, 36)));
    assert_eq!(chance(mark - N * 6), Some(Fraction::new(1, 36)));
    assert_eq!(chance(mark + Hex::new(1, 1)), None, "off every line");
    // The mark sits 5 rows from the top edge: the sixth space north is off the board.
    assert_eq!(reach.len(), 1 + 6 * 6 - 1);
}

// ----- Infantry -----

const S: Hex = Facing::S.offset();

/// True when `facts` say `unit` was wiped out.
fn wiped_out(facts: &[Fact], unit: UnitId) -> bool {
    facts
        .iter()
        .any(|f| matches!(f, Fact::UnitDestroyed { unit: u, .. } if *u == unit))
}

#[test]
fn a_squad_has_the_table_profile_and_steps_two_spaces_in_any_direction() {
    let (mut g, mut rng) = Field::new()
        .squad("Blue", "Fox", Hex::ZERO)
        .tank("Red", "X", Hex::new(8, 0), Facing::S, Facing::S)
        .rules();
    let fox = id(&g, "Fox");
    let u = g.unit(fox);
    assert_eq!(
        (u.armor.front, u.armor.side, u.armor.rear, u.hull),
        (3, 3, 3, 1)
    );
    assert!(u.crew.is_empty());
    play(&mut g, &mut rng, Action::Activate(fox));
    assert_eq!(g.activation().unwrap().action_points, 3);
    assert!(refuse(&g, Action::Move).contains("any direction"));
    assert_eq!(refusal(&g, Action::Move).rule, "tc.infantry.move");
    assert!(refuse(&g, Action::Load(Round::At)).contains("no loading"));
    assert!(refuse(&g, Action::UseAbility(Ability::BoomingVoice)).contains("tanks"));
    let start = g.unit(fox).at;
    play(&mut g, &mut rng, Action::Step(Facing::SE));
    play(&mut g, &mut rng, Action::Step(Facing::SW));
    assert_eq!(
        g.unit(fox).at,
        start + Facing::SE.offset() + Facing::SW.offset()
    );
    assert!(refuse(&g, Action::Step(Facing::N)).contains("its limit"));
    // Tanks cannot do what only infantry do.
    play(&mut g, &mut rng, Action::EndActivation);
    let unit = id(&g, "X");
    play(&mut g, &mut rng, Action::Activate(unit));
    assert!(refuse(&g, Action::TakeCover).contains("only infantry"));
    assert!(refuse(&g, Action::Step(Facing::N)).contains("only infantry"));
}

#[test]
fn a_squad_does_not_enter_buildings_or_other_units() {
    let (mut g, mut rng) = Field::new()
        .squad("Blue", "Fox", Hex::ZERO)
        .terrain(N, Terrain::Building)
        .tank("Blue", "T", S, Facing::N, Facing::N)
        .tank("Red", "X", Hex::new(8, 0), Facing::S, Facing::S)
        .rules();
    let unit = id(&g, "Fox");
    play(&mut g, &mut rng, Action::Activate(unit));
    assert!(refuse(&g, Action::Step(Facing::N)).contains("building"));
    assert!(refuse(&g, Action::Step(Facing::S)).contains("occupied by T"));
}

#[test]
fn any_main_gun_hit_wipes_out_a_squad_and_its_odds_say_so() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .squad("Red", "Wolf", N * 3)
        .rules();
    let wolf = id(&g, "Wolf");
    let p = fire_at(&g, "T", "Wolf").unwrap();
    assert!(p.armor.is_none(), "no penetration roll against infantry");
    let o = g.odds(&p);
    assert_eq!(o.hit, Fraction::new(1, 2));
    assert_eq!(o.disable, o.hit);
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    rng.push_script([4]);
    let facts = play(&mut g, &mut rng, Action::Fire(FireTarget::Unit(wolf)));
    assert!(wiped_out(&facts, wolf), "{facts:?}");
    assert_eq!(g.unit(wolf).status, Status::Destroyed);
    assert!(g.unit_at(g.unit(wolf).at).is_none(), "it leaves no wreck");
}

#[test]
fn a_squad_fires_missiles_at_vehicles_and_its_anti_infantry_weapon_at_squads() {
    let (mut g, mut rng) = Field::new()
        .squad("Blue", "Fox", Hex::ZERO)
        .tank("Red", "X", N * 3, Facing::S, Facing::S)
        .squad("Red", "Wolf", Hex::new(2, 0))
        .squad("Red", "Far", Hex::new(-3, 0))
        .rules();
    let (fox, x, wolf, far) = (id(&g, "Fox"), id(&g, "X"), id(&g, "Wolf"), id(&g, "Far"));
    play(&mut g, &mut rng, Action::Activate(fox));
    assert!(refuse(&g, Action::FireMissile(wolf, Round::At)).contains("vehicles"));
    assert_eq!(
        refusal(&g, Action::FireMissile(wolf, Round::At)).rule,
        "tc.infantry.fire-missile"
    );
    assert!(refuse(&g, Action::FireAntiInfantry(x)).contains("only at infantry"));
    assert!(refuse(&g, Action::Fire(FireTarget::Unit(x))).contains("missile launcher"));
    assert!(refuse(&g, Action::FireAntiInfantry(far)).contains("reaches 2"));
    // An HE missile at the tank behind it (no arc): hit on 4, 3+4=7 > 6 penetrates,
    // wound pick 1, fire roll 6.
    rng.push_script([4, 3, 1, 6]);
    let facts = play(&mut g, &mut rng, Action::FireMissile(x, Round::He));
    assert!(
        facts.iter().any(|f| matches!(
            f,
            Fact::ShotResolved {
                weapon: super::action::Weapon::Missile,
                hit: true,
                ..
            }
        )),
        "{facts:?}"
    );
    assert_eq!(g.unit(x).hull, 3);
    assert!(g.unit(x).on_fire);
    // No loading, but one shot an activation.
    assert!(refuse(&g, Action::FireAntiInfantry(wolf)).contains("1 shot"));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(wolf));
    rng.push_script([5]);
    let facts = play(&mut g, &mut rng, Action::FireAntiInfantry(fox));
    assert!(wiped_out(&facts, fox), "{facts:?}");
}

#[test]
fn a_tank_needs_the_upgrade_for_its_anti_infantry_weapon() {
    let ai = Build {
        anti_infantry: true,
        ..Build::default()
    };
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "Plain", Hex::ZERO, Facing::N, Facing::N)
        .tank("Blue", "Gunned", Hex::new(4, 0), Facing::N, Facing::N)
        .with_build(ai)
        .squad("Red", "Wolf", Hex::new(2, 1))
        .rules();
    let wolf = id(&g, "Wolf");
    let unit = id(&g, "Plain");
    play(&mut g, &mut rng, Action::Activate(unit));
    assert!(refuse(&g, Action::FireAntiInfantry(wolf)).contains("Anti-Infantry Weapons"));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(wolf));
    play(&mut g, &mut rng, Action::EndActivation);
    let unit = id(&g, "Gunned");
    play(&mut g, &mut rng, Action::Activate(unit));
    // All round: the squad is behind the turret's arc.
    assert!(
        g.unit(wolf)
            .at
            .unsigned_distance_to(g.unit(id(&g, "Gunned")).at)
            <= 2
    );
    rng.push_script([6]);
    let facts = play(&mut g, &mut rng, Action::FireAntiInfantry(wolf));
    assert!(wiped_out(&facts, wolf), "{facts:?}");
}

#[test]
fn a_squad_next_to_its_own_tank_cannot_be_targeted() {
    let guarded = |rules: &Rules| {
        Field::new()
            .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
            .tank(
                "Red",
                "Guard",
                N * 4 + Facing::NE.offset(),
                Facing::S,
                Facing::S,
            )
            .squad("Red", "Wolf", N * 4)
            .with_rules(rules)
            .0
    };
    let refused = fire_at(&guarded(&Rules::builtin()), "T", "Wolf").unwrap_err();
    assert_eq!(refused.rule, "tc.infantry.shielded");
    assert!(refused.why.contains("next to Guard"), "{refused:?}");
    let mut rules = Rules::builtin();
    rules.infantry.shielded_by_friendly_tank = false;
    assert!(fire_at(&guarded(&rules), "T", "Wolf").is_ok());
}

#[test]
fn taking_cover_costs_the_enemy_one_until_the_next_turn_and_stops_the_squad() {
    let (mut g, mut rng) = Field::new()
        .squad("Blue", "Fox", N * 3)
        .tank("Red", "X", Hex::ZERO, Facing::N, Facing::N)
        .rules();
    let fox = id(&g, "Fox");
    play(&mut g, &mut rng, Action::Activate(fox));
    play(&mut g, &mut rng, Action::TakeCover);
    assert!(refuse(&g, Action::Step(Facing::N)).contains("taken cover"));
    assert_eq!(
        refusal(&g, Action::Step(Facing::N)).rule,
        "tc.infantry.take-cover"
    );
    assert!(refuse(&g, Action::TakeCover).contains("already"));
    play(&mut g, &mut rng, Action::EndActivation);
    let p = fire_at(&g, "X", "Fox").unwrap();
    assert_eq!(p.to_hit.need, 5, "{}", p.to_hit.explain());
    assert!(p.to_hit.explain().contains("taking cover +1"));
    let unit = id(&g, "X");
    play(&mut g, &mut rng, Action::Activate(unit));
    play(&mut g, &mut rng, Action::EndActivation);
    assert_eq!(g.turn(), 2);
    assert!(!g.unit(fox).in_cover, "cover lasts until the next turn");
    assert_eq!(fire_at(&g, "X", "Fox").unwrap().to_hit.need, 4);
}

#[test]
fn a_squad_captures_an_objective_by_standing_on_it_and_holds_it_after_leaving() {
    let (mut g, mut rng) = Field::new()
        .squad("Blue", "Fox", Hex::ZERO)
        .squad("Red", "Wolf", N * 5)
        .objectives(&[N, N * 4], 2)
        .rules();
    let (fox, wolf) = (id(&g, "Fox"), id(&g, "Wolf"));
    play(&mut g, &mut rng, Action::Activate(fox));
    assert!(refuse(&g, Action::Capture).contains("no objective"));
    play(&mut g, &mut rng, Action::Step(Facing::N));
    let facts = play(&mut g, &mut rng, Action::Capture);
    assert!(matches!(
        facts[0],
        Fact::ObjectiveCaptured { from: None, .. }
    ));
    assert!(refuse(&g, Action::Capture).contains("already holds"));
    play(&mut g, &mut rng, Action::Step(Facing::N));
    assert_eq!(g.objectives_held(BLUE), 1, "held after leaving");
    play(&mut g, &mut rng, Action::EndActivation);
    // Red takes the other one: one each, the battle goes on.
    play(&mut g, &mut rng, Action::Activate(wolf));
    play(&mut g, &mut rng, Action::Step(Facing::S));
    play(&mut g, &mut rng, Action::Capture);
    assert!(g.outcome().is_none());
    play(&mut g, &mut rng, Action::EndActivation);
    // Turn 2: Red's squad wanders off its objective; Blue's goes for it.
    assert_eq!(g.turn(), 2);
    play(&mut g, &mut rng, Action::Activate(fox));
    play(&mut g, &mut rng, Action::Step(Facing::N));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(wolf));
    play(&mut g, &mut rng, Action::Step(Facing::NE));
    play(&mut g, &mut rng, Action::EndActivation);
    assert_eq!(g.turn(), 3);
    play(&mut g, &mut rng, Action::Activate(fox));
    play(&mut g, &mut rng, Action::Step(Facing::N));
    let facts = play(&mut g, &mut rng, Action::Capture);
    assert!(matches!(
        facts[0],
        Fact::ObjectiveCaptured {
            from: Some(RED),
            ..
        }
    ));
    // The capture is counted when the turn ends: Red may still answer.
    assert!(g.outcome().is_none());
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(wolf));
    play(&mut g, &mut rng, Action::EndActivation);
    let outcome = g
        .outcome()
        .expect("two objectives held at the end of the turn win");
    assert_eq!(outcome.winners, vec![BLUE]);
    assert!(
        outcome.reason.contains("end of turn 3"),
        "{}",
        outcome.reason
    );
}

#[test]
fn a_squad_disarms_an_adjacent_mine_and_does_not_set_mines_off() {
    let (mut g, mut rng) = Field::new()
        .squad("Blue", "Sappers", Hex::ZERO)
        .tank("Red", "X", Hex::new(8, 0), Facing::S, Facing::S)
        .mines("Red", &[N, N * 2])
        .rules();
    let sappers = id(&g, "Sappers");
    play(&mut g, &mut rng, Action::Activate(sappers));
    let here = g.unit(sappers).at;
    assert!(refuse(&g, Action::Disarm(here + N * 2)).contains("adjacent"));
    assert_eq!(
        refusal(&g, Action::Disarm(here + N * 2)).rule,
        "tc.infantry.disarm"
    );
    assert!(refuse(&g, Action::Disarm(here + S)).contains("no mine"));
    let facts = play(&mut g, &mut rng, Action::Disarm(here + N));
    assert!(matches!(facts[0], Fact::MineDisarmed { found: 1, .. }));
    assert_eq!(g.mines().len(), 1);
    // Walking onto the other mine: too light to set it off.
    play(&mut g, &mut rng, Action::Step(Facing::N));
    let facts = play(&mut g, &mut rng, Action::Step(Facing::N));
    assert!(
        !facts.iter().any(|f| matches!(f, Fact::MineExploded { .. })),
        "{facts:?}"
    );
    assert_eq!(g.mines().len(), 1);
}

#[test]
fn with_hidden_mines_a_squad_sweeps_any_adjacent_space() {
    let mut field = Field::new()
        .squad("Blue", "Sappers", Hex::ZERO)
        .tank("Red", "X", Hex::new(8, 0), Facing::S, Facing::S)
        .mines("Red", &[N]);
    field.setup.mines.hidden = true;
    let (mut g, mut rng) = field.rules();
    let sappers = id(&g, "Sappers");
    play(&mut g, &mut rng, Action::Activate(sappers));
    let here = g.unit(sappers).at;
    let facts = play(&mut g, &mut rng, Action::Disarm(here + S));
    assert!(matches!(facts[0], Fact::MineDisarmed { found: 0, .. }));
    let facts = play(&mut g, &mut rng, Action::Disarm(here + N));
    assert!(matches!(facts[0], Fact::MineDisarmed { found: 1, .. }));
    assert!(g.mines().is_empty());
}

#[test]
fn a_squad_rides_on_its_tank_moves_with_it_and_dies_when_the_tank_is_hit() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .squad("Blue", "Fox", S)
        .tank("Red", "X", N * 6, Facing::S, Facing::S)
        .rules();
    let (t, fox, x) = (id(&g, "T"), id(&g, "Fox"), id(&g, "X"));
    play(&mut g, &mut rng, Action::Activate(fox));
    play(&mut g, &mut rng, Action::Mount(t));
    assert_eq!(g.unit(fox).riding, Some(t));
    assert_eq!(g.unit(fox).at, g.unit(t).at);
    assert_eq!(g.unit_at(g.unit(t).at).map(|u| u.id), Some(t));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(x));
    // Riders cannot be picked out: only a hit on the tank harms them.
    assert!(
        fire_at(&g, "X", "Fox")
            .unwrap_err()
            .why
            .contains("rides on T")
    );
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(t));
    play(&mut g, &mut rng, Action::Move);
    assert_eq!(g.unit(fox).at, g.unit(t).at, "it moves with its tank");
    play(&mut g, &mut rng, Action::EndActivation);
    assert_eq!(g.turn(), 2);
    play(&mut g, &mut rng, Action::Activate(fox));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(x));
    // Hit on 4, penetration 1+6=7 beats front armor 6, wound pick 1: the riders die.
    rng.push_script([4, 1, 1]);
    let facts = play(&mut g, &mut rng, Action::Fire(FireTarget::Unit(t)));
    assert!(wiped_out(&facts, fox), "{facts:?}");
    assert_eq!(g.unit(fox).riding, None);
}

#[test]
fn mounting_and_dismounting_happen_once_a_turn_next_to_the_tank() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .squad("Blue", "Fox", S)
        .tank("Blue", "Far", Hex::new(4, 0), Facing::N, Facing::N)
        .tank("Red", "X", N * 8, Facing::S, Facing::S)
        .rules();
    let (t, fox, far) = (id(&g, "T"), id(&g, "Fox"), id(&g, "Far"));
    play(&mut g, &mut rng, Action::Activate(fox));
    assert!(refuse(&g, Action::Mount(far)).contains("not next to"));
    assert!(refuse(&g, Action::Mount(id(&g, "X"))).contains("enemy"));
    play(&mut g, &mut rng, Action::Mount(t));
    let tank_at = g.unit(t).at;
    assert!(refuse(&g, Action::Dismount(tank_at + Facing::NE.offset())).contains("once per turn"));
    assert_eq!(
        refusal(&g, Action::Dismount(tank_at + Facing::NE.offset())).rule,
        "tc.infantry.mount"
    );
    assert!(refuse(&g, Action::Step(Facing::N)).contains("dismount first"));
}

#[test]
fn a_squad_dismounts_into_a_space_next_to_its_tank() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .squad("Blue", "Fox", S)
        .tank("Red", "X", N * 8, Facing::S, Facing::S)
        .rules();
    let (t, fox, x) = (id(&g, "T"), id(&g, "Fox"), id(&g, "X"));
    play(&mut g, &mut rng, Action::Activate(fox));
    play(&mut g, &mut rng, Action::Mount(t));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(x));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(t));
    play(&mut g, &mut rng, Action::EndActivation);
    assert_eq!(g.turn(), 2);
    play(&mut g, &mut rng, Action::Activate(fox));
    let at = g.unit(t).at;
    assert!(refuse(&g, Action::Dismount(at + N * 2)).contains("next to its carrier"));
    let facts = play(&mut g, &mut rng, Action::Dismount(at + Facing::NE.offset()));
    assert!(matches!(facts[0], Fact::Dismounted { .. }));
    assert_eq!(g.unit(fox).at, at + Facing::NE.offset());
    assert_eq!(g.unit(fox).riding, None);
    // It may still fight with the points it has left.
    assert_eq!(g.activation().unwrap().action_points, 2);
}

#[test]
fn capture_objectives_scenarios_are_checked() {
    let rules = Rules::builtin();
    let mut f = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "X", N * 4, Facing::S, Facing::S);
    f.setup.victory.mission = Mission::CaptureObjectives { count: 2 };
    f.setup.objectives = vec![f.label(N), f.label(N), "Z99".into()];
    let problems = Scenario::validate(f.setup, &rules).unwrap_err();
    let text = format!("{problems:?}");
    assert!(text.contains("an objective twice"), "{text}");
    assert!(text.contains("off the board"), "{text}");
    assert!(text.contains("the scenario needs infantry"), "{text}");
    let mut f = Field::new()
        .squad("Blue", "Fox", Hex::ZERO)
        .squad("Red", "W", N * 3);
    f.setup.units[0].loaded = Some(Round::He);
    f.setup.victory.mission = Mission::CaptureObjectives { count: 3 };
    f.setup.objectives = vec![f.label(N)];
    let text = format!("{:?}", Scenario::validate(f.setup, &rules).unwrap_err());
    assert!(text.contains("1 to 1 objectives"), "{text}");
    assert!(text.contains("need no loading"), "{text}");
}

// ----- APCs -----

impl Field {
    /// An APC with no upgrades.
    pub(super) fn apc(self, side: &str, name: &str, rel: Hex, facing: Facing) -> Self {
        self.unit(side, UnitKind::Apc, name, rel, facing)
    }
}

#[test]
fn an_apc_has_the_table_profile_drives_forward_three_and_turns() {
    let (mut g, mut rng) = Field::new()
        .apc("Blue", "Mule", Hex::ZERO, Facing::N)
        .tank("Red", "X", Hex::new(8, 0), Facing::S, Facing::S)
        .rules();
    let mule = id(&g, "Mule");
    let u = g.unit(mule);
    assert_eq!(
        (u.armor, u.base.accuracy, u.hull, u.crew.len(), u.loaded),
        (
            Armor {
                front: 4,
                side: 4,
                rear: 4
            },
            4,
            2,
            0,
            None
        )
    );
    play(&mut g, &mut rng, Action::Activate(mule));
    assert_eq!(g.activation().unwrap().action_points, 3);
    assert!(refuse(&g, Action::RotateTurret(Rotation::Left)).contains("no turret"));
    assert!(refuse(&g, Action::Load(Round::At)).contains("no main gun"));
    assert!(refuse(&g, Action::Step(Facing::S)).contains("only infantry"));
    assert!(refuse(&g, Action::UseAbility(Ability::BoomingVoice)).contains("no named crew"));
    for _ in 0..3 {
        play(&mut g, &mut rng, Action::Move);
    }
    assert_eq!(g.unit(mule).at, g.board().hex_at(10, 7));
    play(&mut g, &mut rng, Action::EndActivation);
    let x = id(&g, "X");
    play(&mut g, &mut rng, Action::Activate(x));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(mule));
    let facts = play(
        &mut g,
        &mut rng,
        Action::Turn {
            rotation: Rotation::Right,
            turret_follows: false,
        },
    );
    assert!(matches!(facts[0], Fact::UnitTurned { to: Facing::NE, .. }));
    assert_eq!(
        g.unit(mule).turret,
        Facing::NE,
        "an APC has no turret to leave behind"
    );
}

#[test]
fn an_apc_build_spends_four_points_on_armor_engine_and_smoke() {
    let rules = Rules::builtin();
    let messages = |b: Build| -> Vec<String> {
        b.problems(UnitKind::Apc, &rules, true, true)
            .into_iter()
            .map(|p| p.message)
            .collect()
    };
    let full = Build {
        armor: ArmorPoints {
            front: 1,
            side: 1,
            rear: 0,
        },
        engine: true,
        smoke_launcher: true,
        ..Build::default()
    };
    assert!(messages(full).is_empty(), "{:?}", messages(full));
    let over_cap = Build {
        armor: ArmorPoints {
            front: 3,
            side: 0,
            rear: 0,
        },
        ..Build::default()
    };
    assert_eq!(
        messages(over_cap),
        ["front armor takes at most 2 upgrade points, not 3"]
    );
    let side_over_front = Build {
        armor: ArmorPoints {
            front: 0,
            side: 1,
            rear: 0,
        },
        ..Build::default()
    };
    assert_eq!(
        messages(side_over_front),
        ["side armor 5 cannot exceed front armor 4"]
    );
    let tank_only = Build {
        optics: true,
        mines: 1,
        ..Build::default()
    };
    assert_eq!(
        messages(tank_only),
        [
            "an APC cannot take the optics upgrade",
            "an APC cannot take the mines upgrade"
        ]
    );
    // Painted and named bonuses are a tank's: an APC has its flat 4 points.
    let five = Build {
        armor: ArmorPoints {
            front: 2,
            side: 2,
            rear: 0,
        },
        engine: true,
        ..Build::default()
    };
    assert_eq!(
        messages(five),
        ["the build costs 5 upgrade points but an APC has 4"]
    );
    let (g, _) = Field::new()
        .apc("Blue", "Mule", Hex::ZERO, Facing::N)
        .with_build(Build {
            engine: true,
            ..Build::default()
        })
        .tank("Red", "X", Hex::new(8, 0), Facing::S, Facing::S)
        .rules();
    assert_eq!(g.unit(id(&g, "Mule")).move_cap(g.rules()), 4);
}

#[test]
fn an_apc_scenario_unit_gets_no_gun_round_or_turret() {
    let rules = Rules::builtin();
    let mut f = Field::new()
        .apc("Blue", "Mule", Hex::ZERO, Facing::N)
        .with_build(Build {
            barrel: true,
            ..Build::default()
        })
        .tank("Red", "X", N * 4, Facing::S, Facing::S);
    f.setup.units[0].loaded = Some(Round::At);
    f.setup.units[0].turret = Some(Facing::S);
    let text = format!("{:?}", Scenario::validate(f.setup, &rules).unwrap_err());
    assert!(
        text.contains("no main gun, so leave `loaded` out"),
        "{text}"
    );
    assert!(text.contains("is an APC and has no turret"), "{text}");
    assert!(text.contains("cannot take the barrel upgrade"), "{text}");
}

#[test]
fn an_apc_fires_its_anti_infantry_weapon_all_round_at_squads_within_three() {
    let (mut g, mut rng) = Field::new()
        .apc("Blue", "Mule", Hex::ZERO, Facing::N)
        .squad("Red", "Near", S * 3)
        .squad("Red", "Far", N * 4)
        .tank("Red", "X", Hex::new(3, 0), Facing::S, Facing::S)
        .rules();
    let (mule, near, far, x) = (id(&g, "Mule"), id(&g, "Near"), id(&g, "Far"), id(&g, "X"));
    play(&mut g, &mut rng, Action::Activate(mule));
    assert!(refuse(&g, Action::FireAntiInfantry(far)).contains("reaches 3"));
    assert!(refuse(&g, Action::FireAntiInfantry(x)).contains("only at infantry"));
    assert!(refuse(&g, Action::Fire(FireTarget::Unit(x))).contains("no main gun"));
    assert_eq!(
        g.weapon_for(g.unit(mule), g.unit(x)),
        super::action::Weapon::AntiInfantry
    );
    // Behind it, three spaces away: the weapon fires all round.
    rng.push_script([4]);
    let facts = play(&mut g, &mut rng, Action::FireAntiInfantry(near));
    assert!(wiped_out(&facts, near), "{facts:?}");
    assert!(refuse(&g, Action::FireAntiInfantry(far)).contains("limit"));
}

#[test]
fn squads_ride_inside_an_apc_two_at_a_time_and_survive_hits_on_it() {
    let (mut g, mut rng) = Field::new()
        .apc("Blue", "Mule", Hex::ZERO, Facing::N)
        .squad("Blue", "A", S)
        .squad("Blue", "B", Facing::NE.offset())
        .squad("Blue", "C", Facing::NW.offset())
        .tank("Red", "X", N * 3, Facing::S, Facing::S)
        .rules();
    let (mule, a, b, c, x) = (
        id(&g, "Mule"),
        id(&g, "A"),
        id(&g, "B"),
        id(&g, "C"),
        id(&g, "X"),
    );
    play(&mut g, &mut rng, Action::Activate(a));
    let facts = play(&mut g, &mut rng, Action::Mount(mule));
    assert_eq!(g.describe_fact(&facts[0]), "A climbs into Mule (1 AP).");
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(x));
    // Passengers inside cannot be picked out either.
    assert!(
        fire_at(&g, "X", "A")
            .unwrap_err()
            .why
            .contains("rides inside Mule")
    );
    // Hit on 4, penetration 1+6=7 beats armor 4: the APC loses a hull point, the
    // squad inside lives.
    rng.push_script([4, 1]);
    let facts = play(&mut g, &mut rng, Action::Fire(FireTarget::Unit(mule)));
    assert!(!wiped_out(&facts, a), "{facts:?}");
    assert_eq!((g.unit(mule).hull, g.unit(a).riding), (1, Some(mule)));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(b));
    play(&mut g, &mut rng, Action::Mount(mule));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(c));
    assert!(refuse(&g, Action::Mount(mule)).contains("already carries 2 squads"));
    assert_eq!(refusal(&g, Action::Mount(mule)).rule, "tc.apc.capacity");
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(mule));
    play(&mut g, &mut rng, Action::Move);
    assert_eq!(
        g.unit(a).at,
        g.unit(mule).at,
        "passengers move with the APC"
    );
    assert_eq!(g.unit(b).at, g.unit(mule).at);
}

#[test]
fn squads_bail_out_rear_first_when_their_apc_is_knocked_out() {
    let mut rules = Rules::builtin();
    rules.apc.stats.hull = 1;
    let field = || {
        Field::new()
            .apc("Blue", "Mule", Hex::ZERO, Facing::N)
            .squad("Blue", "A", S)
            .squad("Blue", "B", Facing::NE.offset())
            .tank("Red", "X", N * 3, Facing::S, Facing::S)
    };
    let knock_out = |rules: &Rules| {
        let (mut g, mut rng) = field().with_rules(rules);
        let (mule, a, b, x) = (id(&g, "Mule"), id(&g, "A"), id(&g, "B"), id(&g, "X"));
        for s in [a, b] {
            play(&mut g, &mut rng, Action::Activate(s));
            play(&mut g, &mut rng, Action::Mount(mule));
            play(&mut g, &mut rng, Action::EndActivation);
            if s == a {
                play(&mut g, &mut rng, Action::Activate(x));
                play(&mut g, &mut rng, Action::EndActivation);
            }
        }
        play(&mut g, &mut rng, Action::Activate(mule));
        play(&mut g, &mut rng, Action::EndActivation);
        // Turn 2: X knocks the APC out.
        assert_eq!(g.turn(), 2);
        play(&mut g, &mut rng, Action::Activate(a));
        play(&mut g, &mut rng, Action::EndActivation);
        play(&mut g, &mut rng, Action::Activate(x));
        rng.push_script([4, 1]);
        let facts = play(&mut g, &mut rng, Action::Fire(FireTarget::Unit(mule)));
        (g, facts, a, b)
    };
    let (g, facts, a, b) = knock_out(&rules);
    let bailed: Vec<_> = facts
        .iter()
        .filter_map(|f| match f {
            Fact::BailedOut { unit, to, .. } => Some((*unit, *to)),
            _ => None,
        })
        .collect();
    let at = g.board().hex_at(10, 10);
    // Facing north: out of the rear hatch to the south, then the rear corners,
    // clockwise first (south-west).
    assert_eq!(
        bailed,
        [(a, at + Facing::S.offset()), (b, at + Facing::SW.offset())]
    );
    assert_eq!(g.unit(a).riding, None);
    assert!(g.unit(a).is_active());
    let mut lost = rules.clone();
    lost.apc.bail_out = false;
    let (g, facts, a, b) = knock_out(&lost);
    assert!(wiped_out(&facts, a) && wiped_out(&facts, b), "{facts:?}");
    assert!(!g.unit(b).on_table());
}

impl Field {
    /// Blue must bring `squad` to the north edge.
    fn escort(mut self, squad: &str) -> Self {
        self.setup.victory.mission = Mission::Escort {
            escort: "Blue".into(),
            squad: squad.into(),
            edge: Edge::North,
        };
        self
    }
}

#[test]
fn escort_is_won_when_the_squad_reaches_the_edge_inside_its_apc() {
    // Row 1 is nine spaces north of the centre; the APC stands there, one move from row 0.
    let (mut g, mut rng) = Field::new()
        .apc("Blue", "Mule", N * 9, Facing::N)
        .squad("Blue", "Courier", N * 8)
        .tank("Red", "X", S * 5, Facing::S, Facing::S)
        .escort("Courier")
        .rules();
    let (mule, courier, x) = (id(&g, "Mule"), id(&g, "Courier"), id(&g, "X"));
    play(&mut g, &mut rng, Action::Activate(courier));
    play(&mut g, &mut rng, Action::Mount(mule));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(x));
    play(&mut g, &mut rng, Action::EndActivation);
    assert_eq!(g.outcome_now(), None);
    play(&mut g, &mut rng, Action::Activate(mule));
    play(&mut g, &mut rng, Action::Move);
    let outcome = g.outcome_now().expect("the courier is on the edge");
    assert_eq!(outcome.winners, [BLUE]);
    assert_eq!(
        outcome.reason,
        "Courier reached the North edge alive inside Mule"
    );
}

#[test]
fn escort_is_lost_with_the_squad_and_at_the_turn_limit() {
    let field = || {
        Field::new()
            .squad("Blue", "Courier", Hex::ZERO)
            .tank("Blue", "Guard", S * 4, Facing::N, Facing::N)
            .tank("Red", "X", N * 2, Facing::S, Facing::S)
            .escort("Courier")
    };
    let (mut g, mut rng) = field().rules();
    let (courier, guard, x) = (id(&g, "Courier"), id(&g, "Guard"), id(&g, "X"));
    play(&mut g, &mut rng, Action::Activate(guard));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(x));
    rng.push_script([4]);
    play(&mut g, &mut rng, Action::Fire(FireTarget::Unit(courier)));
    let outcome = g.outcome_now().expect("the courier is dead");
    assert_eq!(outcome.winners, [RED]);
    assert_eq!(
        outcome.reason,
        "Courier was destroyed before it got through"
    );

    let (mut g, mut rng) = field().turn_limit(1).rules();
    for name in ["Courier", "X", "Guard"] {
        let unit = id(&g, name);
        play(&mut g, &mut rng, Action::Activate(unit));
        play(&mut g, &mut rng, Action::EndActivation);
    }
    let outcome = g.outcome_now().expect("turn 1 was the last");
    assert_eq!(outcome.winners, [RED]);
    assert!(
        outcome.reason.contains("held until the turn limit"),
        "{}",
        outcome.reason
    );
}

#[test]
fn an_escort_mission_needs_a_real_side_and_one_of_its_squads() {
    let problems = |escort: &str, squad: &str| {
        let mut field = Field::new()
            .squad("Blue", "Courier", Hex::ZERO)
            .tank("Blue", "Guard", S * 4, Facing::N, Facing::N)
            .squad("Red", "Lancer", N * 4)
            .tank("Red", "X", N * 2, Facing::S, Facing::S)
            .escort(squad);
        if let Mission::Escort { escort: e, .. } = &mut field.setup.victory.mission {
            *e = escort.into();
        }
        match Scenario::validate(field.setup, &Rules::builtin()) {
            Ok(_) => Vec::new(),
            Err(p) => p.0.into_iter().map(|(_, m)| m).collect::<Vec<_>>(),
        }
    };
    assert!(problems("Blue", "Courier").is_empty());
    assert_eq!(
        problems("Green", "Courier"),
        ["the escort `Green` is not a side of this scenario"]
    );
    assert_eq!(problems("Blue", "Nobody"), ["no unit is called `Nobody`"]);
    assert_eq!(
        problems("Blue", "Guard"),
        ["`Guard` is a tank: the escorted unit must be an infantry squad"]
    );
    assert_eq!(
        problems("Blue", "Lancer"),
        ["`Lancer` belongs to `Red`, not to the escort `Blue`"]
    );
}

#[test]
fn a_blast_hits_the_apc_but_not_the_squads_inside() {
    let (mut g, mut rng) = Field::new()
        .apc("Blue", "Mule", Hex::ZERO, Facing::N)
        .squad("Blue", "A", S)
        .tank("Red", "X", N * 2, Facing::S, Facing::S)
        .rules();
    let (mule, a, x) = (id(&g, "Mule"), id(&g, "A"), id(&g, "X"));
    g.units[x.index()].on_fire = true;
    g.units[x.index()].hull = 1;
    play(&mut g, &mut rng, Action::Activate(a));
    play(&mut g, &mut rng, Action::Mount(mule));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(x));
    play(&mut g, &mut rng, Action::EndActivation);
    play(&mut g, &mut rng, Action::Activate(mule));
    // End of turn: the fire takes X's last hull point and it cooks off at once; the
    // blast reaches the APC two spaces away (roll 1: 1+4=5 beats armor 4).
    rng.push_script([1, 1]);
    let facts = play(&mut g, &mut rng, Action::EndActivation);
    let blasts: Vec<UnitId> = facts
        .iter()
        .filter_map(|f| match f {
            Fact::BlastHit { target, .. } => Some(*target),
            _ => None,
        })
        .collect();
    assert_eq!(blasts, [mule], "{facts:#?}");
    assert_eq!(g.unit(mule).hull, 1);
    assert!(g.unit(a).is_active() && g.unit(a).riding == Some(mule));
}

impl Field {
    /// Blue must destroy the unit called `unit`, or the building at `building`.
    fn destroy(mut self, unit: Option<&str>, building: Option<Hex>) -> Self {
        let building = building.map(|rel| self.label(rel));
        self.setup.victory.mission = Mission::DestroyTarget {
            attacker: "Blue".into(),
            unit: unit.map(str::to_string),
            building,
        };
        self
    }
}

#[test]
fn destroy_target_is_won_by_bringing_the_building_down() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .terrain(N * 2, Terrain::Building)
        .tank("Red", "X", S * 5, Facing::N, Facing::N)
        .destroy(None, Some(N * 2))
        .rules();
    let t = id(&g, "T");
    let house = g.unit(t).at + N * 2;
    play(&mut g, &mut rng, Action::Activate(t));
    rng.push_script([5]);
    play(&mut g, &mut rng, Action::Fire(FireTarget::Building(house)));
    let outcome = g.outcome_now().expect("the depot is rubble");
    assert_eq!(outcome.winners, [BLUE]);
    assert_eq!(
        outcome.reason,
        format!("the building at {} was brought down", g.label(house))
    );
}

#[test]
fn destroy_target_is_won_by_knocking_out_the_unit_and_lost_at_the_turn_limit() {
    let field = || {
        Field::new()
            .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
            .squad("Red", "Sapper", N * 2)
            .tank("Red", "X", S * 5, Facing::N, Facing::N)
            .destroy(Some("Sapper"), None)
    };
    let (mut g, mut rng) = field().rules();
    let (t, sapper) = (id(&g, "T"), id(&g, "Sapper"));
    play(&mut g, &mut rng, Action::Activate(t));
    rng.push_script([5]);
    play(&mut g, &mut rng, Action::Fire(FireTarget::Unit(sapper)));
    let outcome = g.outcome_now().expect("the target is gone");
    assert_eq!(outcome.winners, [BLUE]);
    assert_eq!(outcome.reason, "Sapper was knocked out");

    let (mut g, mut rng) = field().turn_limit(1).rules();
    for name in ["T", "Sapper", "X"] {
        let unit = id(&g, name);
        play(&mut g, &mut rng, Action::Activate(unit));
        play(&mut g, &mut rng, Action::EndActivation);
    }
    let outcome = g.outcome_now().expect("turn 1 was the last");
    assert_eq!(outcome.winners, [RED]);
    assert!(
        outcome.reason.contains("the target still stands"),
        "{}",
        outcome.reason
    );
}

#[test]
fn a_destroy_target_mission_names_one_enemy_unit_or_one_building() {
    let problems = |unit: Option<&str>, building: Option<Hex>| {
        let field = Field::new()
            .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
            .terrain(N * 3, Terrain::Building)
            .tank("Red", "X", N * 5, Facing::S, Facing::S)
            .destroy(unit, building);
        match Scenario::validate(field.setup, &Rules::builtin()) {
            Ok(_) => Vec::new(),
            Err(p) => p.0.into_iter().map(|(_, m)| m).collect::<Vec<_>>(),
        }
    };
    assert!(problems(Some("X"), None).is_empty());
    assert!(problems(None, Some(N * 3)).is_empty());
    assert_eq!(
        problems(None, None),
        ["name the target: `unit: \"…\"` or `building: \"F3\"`"]
    );
    assert_eq!(
        problems(Some("X"), Some(N * 3)),
        ["name one target, a `unit` or a `building`, not both"]
    );
    assert_eq!(
        problems(Some("T"), None),
        ["`T` belongs to the attacker `Blue`: the target must be an enemy unit"]
    );
    let open = problems(None, Some(N));
    assert_eq!(open.len(), 1);
    assert!(open[0].ends_with("is not a building"), "{open:?}");
}

impl Field {
    /// The Weather option on.
    fn weather(mut self) -> Self {
        self.setup.weather = true;
        self
    }
}

#[test]
fn without_the_weather_option_no_weather_is_rolled() {
    let (g, _) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "X", N * 3, Facing::S, Facing::S)
        .rules();
    assert!(!g.weather() && !g.storm());
}

#[test]
fn a_storm_on_a_one_costs_tanks_a_point_of_aim_and_squads_a_space() {
    let field = || {
        Field::new()
            .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
            .squad("Blue", "A", S * 3)
            .tank("Red", "X", N * 3, Facing::S, Facing::S)
            .weather()
    };
    // First-player rolls 6 and 1, then the weather roll: 1, a storm.
    let scenario = Scenario::validate(field().setup, &Rules::builtin()).unwrap();
    let mut g = TankCommander::new(&scenario, &Rules::builtin()).unwrap();
    let mut rng = MatchRng::scripted(0, [6, 1, 1]);
    let facts = g.begin(&mut rng);
    assert!(
        facts.contains(&Fact::WeatherRolled {
            roll: 1,
            storm: true
        }),
        "{facts:?}"
    );
    assert!(g.storm());
    assert_eq!(
        g.describe_fact(&Fact::WeatherRolled {
            roll: 1,
            storm: true
        }),
        "Weather: rolls 1 (a storm on 1 or less): a storm blows this turn; tanks and APCs \
         need 1 more to hit, squads move 1 less."
    );
    // The tank needs 5+ (base 4, storm +1).
    let p = fire_at(&g, "T", "X").unwrap();
    assert_eq!(p.to_hit.need, 5);
    assert!(p.to_hit.modifiers.iter().any(|m| m.reason == "storm"));
    // The squad steps one space, not two.
    let a = id(&g, "A");
    play(&mut g, &mut rng, Action::Activate(a));
    play(&mut g, &mut rng, Action::Step(Facing::N));
    assert!(refuse(&g, Action::Step(Facing::N)).contains("its limit in the storm"));
    assert_eq!(
        refusal(&g, Action::Step(Facing::N)).rule,
        "tc.ideas.weather"
    );

    // On a 2 the sky stays clear.
    let mut g = TankCommander::new(&scenario, &Rules::builtin()).unwrap();
    let mut rng = MatchRng::scripted(0, [6, 1, 2]);
    g.begin(&mut rng);
    assert!(!g.storm());
    assert_eq!(fire_at(&g, "T", "X").unwrap().to_hit.need, 4);
}

// ----- AA guns, free air strikes and the Disable AA Guns mission -----

impl Field {
    /// An AA gun emplacement.
    fn aa_gun(self, side: &str, name: &str, rel: Hex) -> Self {
        self.unit(side, UnitKind::AaGun, name, rel, Facing::N)
    }

    /// Free air strikes for `side`.
    fn air_support(mut self, side: &str, strikes: u8) -> Self {
        self.setup.air_support.push(super::setup::AirSupportSetup {
            side: side.into(),
            strikes,
        });
        self
    }

    fn mission(mut self, mission: Mission) -> Self {
        self.setup.victory.mission = mission;
        self
    }
}

/// Plays out every remaining activation of the turn (each unit ends at once), so that the
/// next turn starts; `script` is pushed before the last activation ends.
fn finish_turn(g: &mut TankCommander, rng: &mut MatchRng, script: &[u8]) -> Vec<Fact> {
    let turn = g.turn();
    let mut all = Vec::new();
    while g.turn() == turn && g.outcome_now().is_none() {
        let side = g.to_act()[0];
        if g.activation().is_none() {
            let unit = g.pending_units(side).next().unwrap();
            all.extend(play(g, rng, Action::Activate(unit)));
        }
        let active = g.activation().map(|a| a.unit);
        let last = g
            .pending_units(BLUE)
            .chain(g.pending_units(RED))
            .all(|u| Some(u) == active);
        if last {
            rng.push_script(script.iter().map(|&d| u32::from(d)));
        }
        all.extend(play(g, rng, Action::EndActivation));
    }
    all
}

fn aa_range() -> Field {
    Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .tank("Blue", "B", S * 3, Facing::N, Facing::N)
        .aa_gun("Red", "Flak 1", N * 4)
        .aa_gun("Red", "Flak 2", N * 8)
        .aa_gun("Red", "Flak 3", N * 8 + Hex::new(3, 0))
        .tank("Red", "R", Hex::new(-4, 2), Facing::S, Facing::S)
        .air_support("Blue", 3)
        .mission(Mission::DisableAaGuns {
            attacker: "Blue".into(),
        })
}

#[test]
fn an_aa_gun_never_acts_and_is_knocked_out_by_penetrating_hits_without_burning() {
    let (mut g, mut rng) = aa_range().loaded(Round::At).rules();
    let flak = id(&g, "Flak 1");
    assert_eq!(g.unit(flak).hull, 2);
    assert_eq!(g.unit(flak).armor.front, 4);
    assert!(g.pending_units(RED).all(|u| u != flak));
    // A's shot at the gun: AT 6 + d6 beats armor 4 on any roll.
    {
        let u = id(&g, "A");
        play(&mut g, &mut rng, Action::Activate(u));
    }
    rng.push_script([4, 1]);
    let facts = play(&mut g, &mut rng, Action::Fire(FireTarget::Unit(flak)));
    assert!(
        facts
            .iter()
            .any(|f| matches!(f, Fact::HullDamaged { remaining: 1, .. }))
    );
    assert!(
        !facts
            .iter()
            .any(|f| matches!(f, Fact::WoundRolled { .. } | Fact::CrewWounded { .. })),
        "an AA gun has no crew to wound: {facts:?}"
    );
    // Red's turn: the gun cannot be activated.
    play(&mut g, &mut rng, Action::EndActivation);
    assert_eq!(
        g.check(RED, &Action::Activate(flak)).unwrap_err(),
        Refusal::new("tc.missions.aa-guns", "Flak 1 is an AA gun: it never acts")
    );
    // An HE blast or hit never sets it on fire, and knocked out it never cooks off.
    let mut h = g.clone();
    h.units[flak.index()].hull = 1;
    let mut facts = Vec::new();
    h.damage(
        flak,
        true,
        true,
        &mut MatchRng::scripted(0, [1, 1, 1]),
        &mut facts,
    );
    assert_eq!(h.unit(flak).status, super::state::Status::Disabled);
    assert!(!facts.iter().any(|f| matches!(f, Fact::FireRolled { .. })));
    let mut facts = Vec::new();
    h.end_turn(&mut MatchRng::scripted(0, [6, 6, 6]), &mut facts);
    assert!(
        !facts
            .iter()
            .any(|f| matches!(f, Fact::CookOffRolled { unit, .. } if *unit == flak)),
        "{facts:?}"
    );
}

#[test]
fn free_air_strikes_are_called_by_tanks_once_a_turn_each_from_the_sides_pool() {
    let (mut g, mut rng) = aa_range().squad("Blue", "Spotters", S * 5).rules();
    assert_eq!(g.free_strikes(BLUE), 3);
    assert_eq!(g.free_strikes(RED), 0);
    let mark = g.unit(id(&g, "R")).at;
    {
        let u = id(&g, "A");
        play(&mut g, &mut rng, Action::Activate(u));
    }
    play(&mut g, &mut rng, Action::CallAirStrike(mark));
    assert_eq!(g.free_strikes(BLUE), 2);
    assert_eq!(
        refuse(&g, Action::CallAirStrike(mark)),
        "A has already called an air strike this turn"
    );
    play(&mut g, &mut rng, Action::EndActivation);
    {
        let u = id(&g, "R");
        play(&mut g, &mut rng, Action::Activate(u));
    }
    // Red has no air support at all.
    assert_eq!(
        refuse(&g, Action::CallAirStrike(mark)),
        "R has no Air Support (an upgrade)"
    );
    play(&mut g, &mut rng, Action::EndActivation);
    {
        let u = id(&g, "Spotters");
        play(&mut g, &mut rng, Action::Activate(u));
    }
    assert_eq!(
        refuse(&g, Action::CallAirStrike(mark)),
        "Spotters is an infantry squad: only tanks call in air strikes"
    );
    play(&mut g, &mut rng, Action::EndActivation);
    {
        let u = id(&g, "B");
        play(&mut g, &mut rng, Action::Activate(u));
    }
    play(&mut g, &mut rng, Action::CallAirStrike(mark));
    assert_eq!(g.free_strikes(BLUE), 1);
    let mut h = g.clone();
    h.strike_pool[0] = 0;
    h.active.as_mut().unwrap().unit = id(&h, "A");
    assert_eq!(
        h.check(BLUE, &Action::CallAirStrike(mark)).unwrap_err(),
        Refusal::new("tc.play.air-strike", "Blue has no free air strikes left")
    );
}

#[test]
fn aa_guns_drive_off_strikes_on_two_with_three_standing_and_ease_as_they_fall() {
    let rules = Rules::builtin();
    let aa = &rules.aa_gun;
    let needs: Vec<u8> = (0..=5).map(|n| aa.shoot_down_need(n)).collect();
    assert_eq!(needs, [7, 6, 4, 2, 2, 2]);

    let (mut g, mut rng) = aa_range().rules();
    let mark = g.unit(id(&g, "R")).at;
    {
        let u = id(&g, "A");
        play(&mut g, &mut rng, Action::Activate(u));
    }
    play(&mut g, &mut rng, Action::CallAirStrike(mark));
    let strike = g.air_strikes()[0];
    assert_eq!(g.anti_aircraft_need(BLUE), Some((2, 3)));
    assert_eq!(g.air_strike_gets_through(BLUE), Fraction::new(1, 6));
    assert_eq!(g.air_strike_lands_chance(&strike), Fraction::new(1, 36));
    assert!(
        g.describe_fact(&Fact::AirStrikeCalled {
            unit: id(&g, "A"),
            hex: mark,
            cost: 1
        })
        .ends_with("it comes on a 6+ next turn; while 3 AA guns stand, it is driven off on a 2+.")
    );
    play(&mut g, &mut rng, Action::EndActivation);
    // Turn 2: the strike comes in on a 6, and the guns roll 2: driven off and spent.
    let facts = finish_turn(&mut g, &mut rng, &[6, 2]);
    let aa = facts
        .iter()
        .find_map(|f| match f {
            Fact::AntiAircraftFired { guns, check, .. } => Some((*guns, *check)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("the guns fire: {facts:#?}"));
    assert_eq!((aa.0, aa.1.need, aa.1.success), (3, 2, true));
    assert!(
        !facts
            .iter()
            .any(|f| matches!(f, Fact::AirStrikeLanded { .. }))
    );
    assert!(g.air_strikes().is_empty(), "a strike driven off is spent");
    assert_eq!(
        g.describe_fact(&Fact::AntiAircraftFired {
            side: BLUE,
            hex: mark,
            guns: 3,
            check: aa.1
        }),
        format!(
            "3 AA guns fire at Blue's planes over {}: rolls 2 (needs 2+): driven off, the \
             strike is lost.",
            g.label(mark)
        )
    );

    // With two guns left they need 4+: a 3 lets the next strike through.
    let flak = id(&g, "Flak 1");
    g.units[flak.index()].status = super::state::Status::Disabled;
    assert_eq!(g.air_strike_gets_through(BLUE), Fraction::new(3, 6));
    let a = id(&g, "A");
    let side = g.to_act()[0];
    if side == BLUE && g.activation().is_none() {
        play(&mut g, &mut rng, Action::Activate(a));
    } else {
        panic!("Blue activates first every turn");
    }
    play(&mut g, &mut rng, Action::CallAirStrike(mark));
    play(&mut g, &mut rng, Action::EndActivation);
    // Turn 3: comes in on a 6; the two guns roll 3; then scatter north 1, and the hits.
    let facts = finish_turn(&mut g, &mut rng, &[6, 3, 1, 1, 6, 1]);
    assert!(facts.iter().any(|f| matches!(
        f,
        Fact::AntiAircraftFired { guns: 2, check, .. } if check.need == 4 && !check.success
    )));
    assert!(
        facts
            .iter()
            .any(|f| matches!(f, Fact::AirStrikeLanded { .. }))
    );
}

#[test]
fn the_attacker_wins_disable_aa_guns_when_the_last_gun_falls_and_the_defender_at_the_limit() {
    let (mut g, _) = aa_range().turn_limit(3).rules();
    assert_eq!(g.outcome_now(), None);
    for name in ["Flak 1", "Flak 2"] {
        let i = id(&g, name).index();
        g.units[i].status = super::state::Status::Disabled;
    }
    assert_eq!(g.outcome_now(), None);
    let mut h = g.clone();
    let i = id(&h, "Flak 3").index();
    h.units[i].status = super::state::Status::Disabled;
    let o = h.outcome_now().unwrap();
    assert_eq!(o.winners, [BLUE]);
    assert_eq!(o.reason, "Blue knocked out every AA gun of Red");
    g.turn = 4;
    let o = g.outcome_now().unwrap();
    assert_eq!(o.winners, [RED]);
    assert_eq!(
        o.reason,
        "Red held until the turn limit: 1 AA gun still stands"
    );
}

#[test]
fn disable_aa_guns_needs_a_gun_and_air_support_a_side() {
    let field = Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "R", N * 4, Facing::S, Facing::S)
        .air_support("Green", 2)
        .mission(Mission::DisableAaGuns {
            attacker: "Blue".into(),
        });
    let problems: Vec<String> = Scenario::validate(field.setup, &Rules::builtin())
        .unwrap_err()
        .0
        .into_iter()
        .map(|(_, m)| m)
        .collect();
    assert_eq!(
        problems,
        [
            "the defender of `Blue` has no AA gun to disable: add units of `kind: AaGun`",
            "`Green` is not a side of this scenario",
        ]
    );
}

// ----- Night Fighting -----

impl Field {
    /// The Night Fighting option on.
    fn night(mut self) -> Self {
        self.setup.night = true;
        self
    }
}

#[test]
fn at_night_an_unlit_target_is_seen_only_within_three_and_is_harder_to_hit() {
    let (g, _) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "Near", N * 3, Facing::S, Facing::S)
        .tank(
            "Red",
            "Far",
            N * 3 + Hex::new(1, -1) * 2,
            Facing::S,
            Facing::S,
        )
        .night()
        .rules();
    assert!(g.night());
    let near = fire_at(&g, "T", "Near").unwrap();
    assert_eq!(near.to_hit.need, 5, "{}", near.to_hit.explain());
    assert_eq!(near.to_hit.explain(), "needs 5+: base 4, night +1");
    let far = fire_at(&g, "T", "Far").unwrap_err();
    assert_eq!(far.rule, "tc.ideas.night");
    assert_eq!(
        far.why,
        format!(
            "{} is 5 spaces away in the dark: at night a target is made out only within 3 \
             spaces, unless a flare or a fire lights it",
            g.label(g.unit(id(&g, "Far")).at)
        )
    );
    // By day the same shot is fine.
    let (day, _) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank(
            "Red",
            "Far",
            N * 3 + Hex::new(1, -1) * 2,
            Facing::S,
            Facing::S,
        )
        .rules();
    assert_eq!(fire_at(&day, "T", "Far").unwrap().to_hit.need, 4);
}

#[test]
fn a_flare_lights_a_space_and_its_neighbours_for_both_sides_until_the_turn_ends() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "Far", N * 5, Facing::S, Facing::S)
        .squad("Blue", "Scouts", S * 2)
        .night()
        .rules();
    let t = id(&g, "T");
    let far = g.unit(id(&g, "Far")).at;
    assert_eq!(g.unit(t).flares_left, 2);
    assert_eq!(g.unit(id(&g, "Far")).flares_left, 2);
    assert_eq!(g.unit(id(&g, "Scouts")).flares_left, 0);
    assert!(fire_at(&g, "T", "Far").is_err());
    assert!(fire_at(&g, "Far", "T").is_err());
    play(&mut g, &mut rng, Action::Activate(t));
    assert_eq!(
        refuse(&g, Action::FireFlare(far + N * 2)),
        format!("a flare reaches 6 spaces; {} is 7", g.label(far + N * 2))
    );
    // The flare lands next to the enemy: its radius of 1 lights the enemy's space too.
    let facts = play(&mut g, &mut rng, Action::FireFlare(far + N));
    assert_eq!(
        g.describe_fact(&facts[0]),
        format!(
            "T fires a flare over {} (1 AP): it lights the spaces within 1 of it until the \
             turn ends.",
            g.label(far + N)
        )
    );
    assert!(g.lit(far) && g.lit(far + N * 2) && !g.lit(far + N * 3));
    assert_eq!(g.unit(t).flares_left, 1);
    assert_eq!(
        refuse(&g, Action::FireFlare(far + N)),
        format!("a flare already burns over {}", g.label(far + N))
    );
    let lit = fire_at(&g, "T", "Far").unwrap();
    assert_eq!(lit.to_hit.need, 4, "a lit target is shot as by day");
    // T stands in the dark: Red still cannot pick it out from 5 spaces.
    assert!(fire_at(&g, "Far", "T").is_err());
    play(&mut g, &mut rng, Action::EndActivation);
    {
        let u = id(&g, "Far");
        play(&mut g, &mut rng, Action::Activate(u));
    }
    play(&mut g, &mut rng, Action::EndActivation);
    {
        let u = id(&g, "Scouts");
        play(&mut g, &mut rng, Action::Activate(u));
    }
    assert_eq!(
        refuse(&g, Action::FireFlare(far)),
        "only tanks fire flares, and Scouts is not one"
    );
    play(&mut g, &mut rng, Action::EndActivation);
    assert_eq!(g.turn(), 2);
    assert!(
        g.flares().is_empty() && !g.lit(far),
        "flares burn out with the turn"
    );
}

#[test]
fn a_burning_tank_lights_itself_and_no_flares_are_fired_by_day() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "Far", N * 5, Facing::S, Facing::S)
        .night()
        .rules();
    let far = id(&g, "Far");
    g.units[far.index()].on_fire = true;
    assert_eq!(fire_at(&g, "T", "Far").unwrap().to_hit.need, 4);
    let mut rules = Rules::builtin();
    rules.night.fires_light = false;
    g.rules = std::sync::Arc::new(rules);
    assert!(fire_at(&g, "T", "Far").is_err());

    let (mut day, _) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "Far", N * 5, Facing::S, Facing::S)
        .rules();
    play(&mut day, &mut rng, Action::Activate(UnitId(0)));
    assert_eq!(
        refuse(&day, Action::FireFlare(Hex::ZERO)),
        "flares are fired only in night battles"
    );
}

// ----- Take Area (Urban Warfare) -----

fn plaza() -> Field {
    let f = Field::new();
    let area = vec![f.label(N * 3), f.label(N * 4)];
    f.tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "D", N * 8, Facing::S, Facing::S)
        .mission(Mission::TakeArea {
            attacker: "Blue".into(),
            area,
        })
}

#[test]
fn the_attacker_takes_the_area_when_a_turn_ends_with_it_there_alone() {
    let (mut g, mut rng) = plaza().turn_limit(5).rules();
    let a = id(&g, "A");
    let center = g.unit(a).at;
    play(&mut g, &mut rng, Action::Activate(a));
    for _ in 0..3 {
        play(&mut g, &mut rng, Action::Move);
    }
    assert_eq!(g.unit(a).at, N * 3 + center);
    assert!(g.area_held_by_attacker());
    assert_eq!(g.outcome_now(), None, "decided when the turn ends");
    play(&mut g, &mut rng, Action::EndActivation);
    // Red's answer: it drives into the area too.
    let d = id(&g, "D");
    play(&mut g, &mut rng, Action::Activate(d));
    for _ in 0..3 {
        play(&mut g, &mut rng, Action::Move);
    }
    assert_eq!(g.unit(d).at, N * 5 + center);
    let mut h = g.clone();
    h.units[d.index()].at = N * 4 + center;
    assert!(
        !h.area_held_by_attacker(),
        "a defender in the area holds it"
    );
    let facts = play(&mut g, &mut rng, Action::EndActivation);
    let end = facts
        .iter()
        .find_map(|f| match f {
            Fact::BattleEnded { outcome } => Some(outcome.clone()),
            _ => None,
        })
        .expect("the turn ended with Blue alone in the area");
    assert_eq!(end.winners, [BLUE]);
    assert_eq!(end.reason, "Blue held the area alone at the end of turn 1");
}

#[test]
fn the_defender_of_an_area_wins_at_the_turn_limit_and_areas_are_checked() {
    let (mut g, _) = plaza().turn_limit(2).rules();
    g.turn = 3;
    let o = g.outcome_now().unwrap();
    assert_eq!(o.winners, [RED]);
    assert_eq!(
        o.reason,
        "Red held until the turn limit: the area was never taken"
    );
    let f = Field::new();
    let area = vec![f.label(N), f.label(N), "ZZ99".into()];
    let field = f
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "D", N * 8, Facing::S, Facing::S)
        .terrain(N, Terrain::Building)
        .mission(Mission::TakeArea {
            attacker: "Blue".into(),
            area,
        });
    let problems: Vec<String> = Scenario::validate(field.setup, &Rules::builtin())
        .unwrap_err()
        .0
        .into_iter()
        .map(|(_, m)| m)
        .collect();
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems[0].ends_with("is a building: no unit could stand there"));
    assert!(problems[1].ends_with("is a building: no unit could stand there"));
    assert!(problems[2].contains("off the board"), "{problems:?}");
}

// ----- Water -----

#[test]
fn no_unit_enters_water_but_it_hides_nothing_and_a_strike_leaves_it_water() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .squad("Blue", "S", S * 2)
        .tank("Red", "X", N * 4, Facing::S, Facing::S)
        .terrain(N, Terrain::Water)
        .terrain(N * 2, Terrain::Water)
        .terrain(S * 3, Terrain::Water)
        .rules();
    let t = id(&g, "T");
    play(&mut g, &mut rng, Action::Activate(t));
    assert_eq!(
        refuse(&g, Action::Move),
        format!("{} is water", g.label(g.unit(t).at + N))
    );
    // The shot across the water is clear and uncovered.
    let p = fire_at(&g, "T", "X").unwrap();
    assert_eq!(p.to_hit.need, 4);
    assert!(
        g.sight_line(g.unit(t).at, g.unit(id(&g, "X")).at)
            .is_clear()
    );
    play(&mut g, &mut rng, Action::EndActivation);
    {
        let u = id(&g, "X");
        play(&mut g, &mut rng, Action::Activate(u));
    }
    play(&mut g, &mut rng, Action::EndActivation);
    let s = id(&g, "S");
    play(&mut g, &mut rng, Action::Activate(s));
    assert_eq!(
        refuse(&g, Action::Step(Facing::S)),
        format!("{} is water", g.label(g.unit(s).at + S))
    );
    // A strike over water hits nothing there and leaves it water.
    let water = g.unit(t).at + N;
    let mut facts = Vec::new();
    let strike = super::state::AirStrike {
        at: water,
        side: RED,
        caller: id(&g, "X"),
        called_on: 1,
    };
    g.air_strike_lands(strike, &mut MatchRng::scripted(0, [1, 1]), &mut facts);
    assert_eq!(g.terrain(water), Terrain::Water);
    assert!(
        !facts
            .iter()
            .any(|f| matches!(f, Fact::BuildingDestroyed { .. })),
        "{facts:?}"
    );
}

#[test]
fn nothing_is_placed_in_water() {
    let f = Field::new();
    let label = f.label(N);
    let mut field = f
        .tank("Blue", "T", N, Facing::N, Facing::N)
        .tank("Red", "X", N * 4, Facing::S, Facing::S)
        .terrain(N, Terrain::Water)
        .terrain(N * 2, Terrain::Water)
        .mines("Red", &[N * 2]);
    field.setup.objectives = vec![field.label(N * 2)];
    let problems: Vec<String> = Scenario::validate(field.setup, &Rules::builtin())
        .unwrap_err()
        .0
        .into_iter()
        .map(|(_, m)| m)
        .collect();
    let at2 = Field::new().label(N * 2);
    assert_eq!(
        problems,
        [
            format!("`T` is placed on water at {label}"),
            format!("a mine at {at2} would lie in water"),
            format!("the objective at {at2} is on water: no squad could reach it"),
        ]
    );
    assert_eq!(Terrain::from_symbol('w'), Some((Terrain::Water, false)));
}

// ----- Unit types made in the rules table -----

impl Field {
    /// Gives the last unit a unit type of the rules table.
    fn typed(mut self, unit_type: &str) -> Self {
        if let Some(u) = self.setup.units.last_mut() {
            u.unit_type = Some(unit_type.into());
        }
        self
    }
}

#[test]
fn a_hover_tank_has_the_tables_profile_crosses_water_and_glides_over_mud() {
    let rules = Rules::builtin();
    let hover = &rules.unit_types["Hover Tank"];
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "Skimmer", Hex::ZERO, Facing::N, Facing::N)
        .typed("Hover Tank")
        .with_build(Build {
            armor: ArmorPoints {
                front: 1,
                ..ArmorPoints::default()
            },
            ..Build::default()
        })
        .tank("Red", "X", N * 6, Facing::S, Facing::S)
        .terrain(Hex::ZERO, Terrain::Mud)
        .terrain(N, Terrain::Water)
        .terrain(N * 2, Terrain::Water)
        .rules();
    let s = id(&g, "Skimmer");
    let start = g.unit(s).at;
    let u = g.unit(s);
    assert_eq!(u.base, hover.stats);
    assert_eq!(u.hull, 3);
    assert_eq!(u.armor.front, hover.stats.armor.front + 1);
    assert_eq!(u.unit_type.as_deref(), Some("Hover Tank"));
    play(&mut g, &mut rng, Action::Activate(s));
    // Leaving mud costs it 1, not 2; and it drives onto the water and across.
    assert_eq!(g.move_cost(g.unit(s)), 1);
    let facts = play(&mut g, &mut rng, Action::Move);
    assert!(
        matches!(facts[0], Fact::UnitMoved { cost: 1, .. }),
        "{facts:?}"
    );
    assert_eq!(g.terrain(g.unit(s).at), Terrain::Water);
    play(&mut g, &mut rng, Action::Move);
    play(&mut g, &mut rng, Action::Move);
    assert_eq!(g.unit(s).at, start + N * 3);
    assert_eq!(g.terrain(g.unit(s).at), Terrain::Open);
    // Its move cap is the table's 4.
    play(&mut g, &mut rng, Action::Move);
    assert!(refuse(&g, Action::Move).contains("its limit"));
}

#[test]
fn a_walker_turns_for_nothing_and_a_plain_tank_cannot_enter_water() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "Strider", Hex::ZERO, Facing::N, Facing::N)
        .typed("Walker")
        .tank("Blue", "Plain", S * 4, Facing::N, Facing::N)
        .tank("Red", "X", N * 6, Facing::S, Facing::S)
        .terrain(S * 3, Terrain::Water)
        .rules();
    let w = id(&g, "Strider");
    play(&mut g, &mut rng, Action::Activate(w));
    let turn = Action::Turn {
        rotation: Rotation::Right,
        turret_follows: true,
    };
    assert_eq!(
        g.describe_action(&turn),
        "Strider: turn right to NE, turret follows to NE (0 AP)"
    );
    let facts = play(&mut g, &mut rng, turn);
    assert!(matches!(facts[0], Fact::UnitTurned { cost: 0, .. }));
    assert_eq!(g.activation().unwrap().action_points, 5);
    play(&mut g, &mut rng, Action::EndActivation);
    {
        let x = id(&g, "X");
        play(&mut g, &mut rng, Action::Activate(x));
    }
    play(&mut g, &mut rng, Action::EndActivation);
    let plain = id(&g, "Plain");
    play(&mut g, &mut rng, Action::Activate(plain));
    assert_eq!(
        refuse(&g, Action::Move),
        format!("{} is water", g.label(g.unit(plain).at + N))
    );
}

#[test]
fn a_scenario_names_only_types_the_table_defines_on_their_own_chassis() {
    let problems = |field: Field| -> Vec<String> {
        match Scenario::validate(field.setup, &Rules::builtin()) {
            Ok(_) => Vec::new(),
            Err(p) => p.0.into_iter().map(|(_, m)| m).collect(),
        }
    };
    let base = || {
        Field::new()
            .tank("Red", "X", N * 6, Facing::S, Facing::S)
            .terrain(N, Terrain::Water)
    };
    assert_eq!(
        problems(
            base()
                .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
                .typed("Zeppelin")
        ),
        [
            "`T` is of type `Zeppelin`, which the rules table does not define (types: Hover Tank, Walker)"
        ]
    );
    assert_eq!(
        problems(base().squad("Blue", "S", Hex::ZERO).typed("Walker")),
        ["`S` is a Walker, which is built on a tank: write `kind: Tank`"]
    );
    // A hover tank may start on the water; a plain tank may not.
    assert!(
        problems(
            base()
                .tank("Blue", "H", N, Facing::N, Facing::N)
                .typed("Hover Tank")
        )
        .is_empty()
    );
    assert_eq!(
        problems(base().tank("Blue", "P", N, Facing::N, Facing::N)).len(),
        1
    );
}

#[test]
fn a_designer_adds_a_unit_type_in_the_rules_text_alone() {
    // An amphibious APC, written only in the table's text: no code knows its name.
    let text = crate::rules::tank_commander::setup::BUILTIN_RULES.replace(
        "    unit_types: {",
        r#"    unit_types: {
        "Amphibian": (
            base: Apc,
            description: "Swims.",
            stats: (armor: (front: 3, side: 3, rear: 3), accuracy: 4, hull: 2, actions: 3, move_cap: 2, gun_range: 0),
            movement: (crosses_water: true),
        ),"#,
    );
    let rules = Rules::parse("custom.ron", &text).unwrap();
    let field = Field::new()
        .tank("Red", "X", N * 6, Facing::S, Facing::S)
        .terrain(N, Terrain::Water)
        .unit("Blue", UnitKind::Apc, "Duck", Hex::ZERO, Facing::N)
        .typed("Amphibian");
    let (mut g, mut rng) = field.with_rules(&rules);
    let duck = id(&g, "Duck");
    assert_eq!(g.unit(duck).base.move_cap, 2);
    assert_eq!(g.unit(duck).armor.front, 3);
    play(&mut g, &mut rng, Action::Activate(duck));
    play(&mut g, &mut rng, Action::Move);
    assert_eq!(g.terrain(g.unit(duck).at), Terrain::Water);

    // A type must sit on a chassis that acts, and squads do not swim.
    let bad = crate::rules::tank_commander::setup::BUILTIN_RULES.replace(
        "    unit_types: {",
        r#"    unit_types: {
        "Flak Boat": (base: AaGun, stats: (armor: (front: 3, side: 3, rear: 3), accuracy: 4, hull: 1, actions: 0, move_cap: 0, gun_range: 0)),
        "Frogmen": (base: Infantry, movement: (crosses_water: true), stats: (armor: (front: 3, side: 3, rear: 3), accuracy: 4, hull: 1, actions: 3, move_cap: 2, gun_range: 3)),"#,
    );
    let err = Rules::parse("bad.ron", &bad).unwrap_err().to_string();
    assert!(
        err.contains("a unit type is built on a Tank, an Apc or Infantry, not an AA gun"),
        "{err}"
    );
    assert!(
        err.contains("squads ride across water only in a vehicle"),
        "{err}"
    );
}

// ----- Hidden mines in hot seat -----

#[test]
fn hidden_mines_raise_the_privacy_screen_between_people_and_the_log_keeps_the_hex_secret() {
    use crate::framework::playable::Playable;
    use crate::framework::seated::SeatedMatch;
    let mines = Build {
        mines: 1,
        ..Build::default()
    };
    let mut field = Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .with_build(mines)
        .tank("Red", "B", N * 6, Facing::S, Facing::S)
        .with_build(mines);
    field.setup.mines.hidden = true;
    let rules = Rules::builtin();
    let battle = super::Battle {
        scenario: Scenario::validate(field.setup.clone(), &rules).unwrap(),
        rules: rules.clone(),
    };
    let mut m = SeatedMatch::<TankCommander>::new(battle, "t".into(), 1, Vec::new()).unwrap();
    assert!(m.state().holds_secrets());
    m.hand_over();
    let first = m
        .pass_to
        .expect("the screen is up before the first person looks");
    m.reveal();
    assert_eq!(m.viewer, Some(first));
    let unit = m.state().pending_units(first).next().unwrap();
    m.play(first, &Action::Activate(unit)).unwrap();
    let at = m.state().unit(unit).at + m.state().unit(unit).facing.offset();
    let label = m.state().label(at);
    m.play(first, &Action::LayMine(at)).unwrap();
    m.play(first, &Action::EndActivation).unwrap();
    m.hand_over();
    let second = m.pass_to.expect("the screen is up between the two people");
    assert_ne!(second, first);
    m.reveal();
    let log: Vec<String> = m.log().into_iter().map(|l| l.text).collect();
    let laid = log
        .iter()
        .find(|l| l.contains("lay a hidden mine"))
        .unwrap_or_else(|| panic!("{log:#?}"));
    assert!(!laid.contains(&label), "{laid}");
    assert!(log.iter().all(|l| !l.contains(&label)), "{log:#?}");

    // With mines in the open, nothing is secret: no screen.
    field.setup.mines.hidden = false;
    let battle = super::Battle {
        scenario: Scenario::validate(field.setup, &rules).unwrap(),
        rules,
    };
    let mut m = SeatedMatch::<TankCommander>::new(battle, "t".into(), 1, Vec::new()).unwrap();
    m.hand_over();
    assert_eq!(m.pass_to, None);
}

#[test]
fn a_tank_knocked_out_by_a_mine_in_its_own_activation_can_only_end_it() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Blue", "U", S * 3, Facing::N, Facing::N)
        .tank("Red", "X", N * 6, Facing::S, Facing::S)
        .mines("Red", &[N])
        .rules();
    let t = id(&g, "T");
    g.units[t.index()].hull = 1;
    play(&mut g, &mut rng, Action::Activate(t));
    rng.push_script([1, 1]); // penetration 1+6=7 > 6; then the wound pick
    let facts = play(&mut g, &mut rng, Action::Move);
    assert!(
        facts
            .iter()
            .any(|f| matches!(f, Fact::UnitDisabled { unit, .. } if *unit == t)),
        "{facts:?}"
    );
    assert!(g.activation().unwrap().action_points > 0);
    let turn = Action::Turn {
        rotation: Rotation::Left,
        turret_follows: true,
    };
    assert_eq!(
        refuse(&g, turn),
        "T was knocked out: it can only end its activation"
    );
    assert_eq!(g.legal(BLUE), [Action::EndActivation]);
    play(&mut g, &mut rng, Action::EndActivation);
}

// ----- Cross Minefield -----

impl Field {
    /// Blue must bring `tanks` of its tanks onto the north edge.
    fn cross_minefield(mut self, tanks: u8) -> Self {
        self.setup.victory.mission = Mission::CrossMinefield {
            attacker: "Blue".into(),
            edge: Edge::North,
            tanks,
        };
        self
    }

    /// A Red mine in every space of the board's row `row`.
    fn mined_row(self, row: i32) -> Self {
        let rels: Vec<Hex> = (0..21)
            .map(|col| self.board.hex_at(col, row) - self.center)
            .collect();
        self.mines("Red", &rels)
    }
}

#[test]
fn a_minefield_is_crossed_when_enough_working_tanks_stand_on_the_edge_at_once() {
    let (g, _) = Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .tank("Blue", "B", S, Facing::N, Facing::N)
        .tank("Blue", "C", S * 2, Facing::N, Facing::N)
        .tank("Red", "D", N * 8, Facing::S, Facing::S)
        .mined_row(7)
        .cross_minefield(2)
        .rules();
    let (a, b, c) = (id(&g, "A"), id(&g, "B"), id(&g, "C"));
    let edge = |col| g.board.hex_at(col, 0);
    let mut h = g.clone();
    h.units[a.index()].at = edge(3);
    assert_eq!(h.outcome_now(), None, "one tank across is not enough");
    h.units[b.index()].at = edge(5);
    let o = h.outcome_now().unwrap();
    assert_eq!(o.winners, [BLUE]);
    assert_eq!(o.reason, "A and B crossed the minefield");
    // A knocked-out tank on the edge does not count.
    h.units[b.index()].status = Status::Disabled;
    assert_eq!(h.outcome_now(), None);
    // Two tanks lost of three: two can no longer cross.
    h.units[c.index()].status = Status::Disabled;
    let o = h.outcome_now().unwrap();
    assert_eq!(o.winners, [RED]);
    assert_eq!(
        o.reason,
        "Blue has fewer than 2 working tank(s) left to cross"
    );
    let mut late = g.clone();
    late.turn = late.turn_limit + 1;
    assert_eq!(
        late.outcome_now().unwrap().reason,
        "Red held until the turn limit"
    );
}

#[test]
fn a_minefield_mission_needs_mines_and_a_count_of_tanks_the_attacker_fields() {
    let problems = |field: Field| -> Vec<String> {
        Scenario::validate(field.setup, &Rules::builtin())
            .unwrap_err()
            .0
            .into_iter()
            .map(|(_, m)| m)
            .collect()
    };
    let two = || {
        Field::new()
            .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
            .squad("Blue", "S", S)
            .tank("Red", "D", N * 5, Facing::S, Facing::S)
    };
    let p = problems(two().cross_minefield(2));
    assert_eq!(p.len(), 2, "{p:?}");
    assert_eq!(
        p[0],
        "`Blue` fields 1 tank(s): the tanks to bring across must be from 1 to 1, not 2"
    );
    assert_eq!(
        p[1],
        "a minefield to cross needs mines: add `mines: (fields: [...])`"
    );
    let p = problems(two().mined_row(7).cross_minefield(0));
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].ends_with("not 0"), "{p:?}");
    assert!(
        Scenario::validate(
            two().mined_row(7).cross_minefield(1).setup,
            &Rules::builtin()
        )
        .is_ok()
    );
}

#[test]
fn the_bot_sweeps_a_lane_through_the_minefield_and_drives_its_tank_through_it() {
    use crate::framework::bot::Bot;
    // A band of mines across the whole board, two rows deep: no way round. Red's only
    // unit is an AA gun far off in a corner, out of every gun's reach.
    let field = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .squad("Blue", "S", N)
        .aa_gun("Red", "G", Hex::ZERO);
    let corner = field.board.hex_at(0, 20) - field.center;
    let mut field = field
        .mined_row(6)
        .mined_row(7)
        .cross_minefield(1)
        .turn_limit(12);
    field.setup.units[2].at = field.label(corner);
    let (mut g, mut rng) = field.rules();
    let mut exploded = 0;
    let mut disarmed = 0;
    for _ in 0..400 {
        if g.outcome_now().is_some() {
            break;
        }
        let player = g.to_act()[0];
        let action = super::GreedyBot
            .choose(&g, player, &mut MatchRng::new(0))
            .expect("a legal action");
        for f in play(&mut g, &mut rng, action) {
            match f {
                Fact::MineExploded { .. } => exploded += 1,
                Fact::MineDisarmed { .. } => disarmed += 1,
                _ => {}
            }
        }
    }
    let o = g.outcome_now().expect("the battle ended");
    assert_eq!(o.reason, "T crossed the minefield");
    assert_eq!(exploded, 0, "the tank waited for its lane");
    assert!(
        (2..=4).contains(&disarmed),
        "the squad cleared a lane, not the field: {disarmed} mines"
    );
}

// Rules map: tests for rules that had none.

#[test]
fn the_extended_barrel_adds_one_space_to_the_main_gun() {
    let field = |build: Build| {
        Field::new()
            .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
            .with_build(build)
            .tank("Red", "X", N * 7, Facing::S, Facing::S)
            .rules()
            .0
    };
    let plain = field(Build::default());
    assert!(
        fire_at(&plain, "T", "X")
            .unwrap_err()
            .why
            .contains("the main gun reaches 6")
    );
    let long = field(Build {
        barrel: true,
        ..Build::default()
    });
    assert_eq!(long.unit(id(&long, "T")).gun_range(long.rules()), 7);
    assert!(fire_at(&long, "T", "X").is_ok());
}

#[test]
fn a_knocked_out_tank_cannot_be_targeted_and_its_wreck_blocks_moves_and_sight() {
    let (mut g, mut rng) = Field::new()
        .tank("Blue", "T", Hex::ZERO, Facing::N, Facing::N)
        .tank("Red", "X", N, Facing::S, Facing::S)
        .tank("Red", "Y", N * 3, Facing::S, Facing::S)
        .rules();
    g.units[1].status = Status::Disabled;
    assert_eq!(
        fire_at(&g, "T", "X").unwrap_err(),
        Refusal::new("tc.damage.disabled", "X is already knocked out")
    );
    let why = fire_at(&g, "T", "Y").unwrap_err().why;
    assert!(why.contains("blocked by X"), "{why}");
    play(&mut g, &mut rng, Action::Activate(UnitId(0)));
    assert!(refuse(&g, Action::Move).contains("occupied by X"));
}

#[test]
fn an_apc_deploys_smoke_with_its_launcher_and_puts_out_its_fire() {
    let (mut g, mut rng) = Field::new()
        .apc("Blue", "Mule", Hex::ZERO, Facing::N)
        .with_build(Build {
            smoke_launcher: true,
            ..Build::default()
        })
        .tank("Red", "X", N * 4, Facing::S, Facing::S)
        .rules();
    let mule = id(&g, "Mule");
    g.units[mule.index()].on_fire = true;
    play(&mut g, &mut rng, Action::Activate(mule));
    let at = g.unit(mule).at;
    assert!(refuse(&g, Action::DeploySmoke(at + N * 3)).contains("1 to 2 spaces"));
    play(&mut g, &mut rng, Action::DeploySmoke(at + N * 2));
    assert!(g.smoke(at + N * 2));
    play(&mut g, &mut rng, Action::Extinguish);
    assert!(!g.unit(mule).on_fire);
    assert_eq!(g.activation().unwrap().action_points, 1);
}

#[test]
fn basic_training_is_won_by_driving_over_every_waypoint_and_knocking_out_every_target() {
    let f = Field::new();
    let waypoints = vec![f.label(N)];
    let (mut g, mut rng) = f
        .tank("Blue", "Rookie", Hex::ZERO, Facing::N, Facing::N)
        .unit("Red", UnitKind::Target, "Dummy", N * 3, Facing::S)
        .mission(Mission::Training { waypoints })
        .rules();
    let (rookie, dummy) = (id(&g, "Rookie"), id(&g, "Dummy"));
    play(&mut g, &mut rng, Action::Activate(rookie));
    // Hit on 4, penetration 1+6=7 beats armor 6: the target's one hull point is gone.
    rng.push_script([4, 1]);
    play(&mut g, &mut rng, Action::Fire(FireTarget::Unit(dummy)));
    assert_eq!(g.unit(dummy).status, Status::Disabled);
    assert_eq!(g.outcome_now(), None, "the waypoint is still to reach");
    let facts = play(&mut g, &mut rng, Action::Move);
    assert!(
        facts
            .iter()
            .any(|f| matches!(f, Fact::WaypointReached { .. })),
        "{facts:?}"
    );
    let outcome = g.outcome_now().expect("the course is done");
    assert_eq!(outcome.winners, [BLUE]);
    assert_eq!(
        outcome.reason,
        "every waypoint reached and every target knocked out"
    );
}

#[test]
fn a_breakthrough_is_won_by_a_tank_on_the_far_edge_not_by_an_apc_or_a_squad() {
    let (mut g, _) = Field::new()
        .tank("Blue", "A", Hex::ZERO, Facing::N, Facing::N)
        .apc("Blue", "Carrier", N, Facing::N)
        .unit("Blue", UnitKind::Infantry, "Squad", N * 2, Facing::N)
        .tank("Red", "D", N * 6, Facing::S, Facing::S)
        .mission(Mission::Breakthrough {
            attacker: "Blue".into(),
            edge: super::setup::Edge::North,
        })
        .rules();
    let edge = g.edge_hexes(super::setup::Edge::North);
    let (carrier, squad, tank) = (id(&g, "Carrier"), id(&g, "Squad"), id(&g, "A"));
    g.units[carrier.index()].at = edge[0];
    g.units[squad.index()].at = edge[1];
    assert_eq!(g.outcome_now(), None, "only a tank breaks through");
    g.units[tank.index()].at = edge[2];
    let won = g.outcome_now().expect("the tank broke through");
    assert_eq!(won.winners, vec![BLUE]);
}

#[test]
fn ground_turned_to_rubble_gets_a_new_terrain_key() {
    // The bots' distance fields are cached by this key: a stale one would have them
    // drive round a building that is gone.
    use crate::framework::playable::Playable;
    let battle = super::Battle::builtin_default();
    let mut g = TankCommander::from_setup(&battle).expect("a battle");
    let before = g.terrain_key;
    assert_eq!(before, super::state::terrain_key(&g.terrain));
    let house = g
        .terrain
        .iter()
        .position(|&t| t == Terrain::Building)
        .expect("River Town has houses");
    g.wreck_ground(house);
    assert_eq!(g.terrain[house], Terrain::Rubble);
    assert_ne!(g.terrain_key, before);
    assert_eq!(g.terrain_key, super::state::terrain_key(&g.terrain));
}
