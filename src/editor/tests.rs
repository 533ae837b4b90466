use super::*;
use crate::framework::Playable;
use crate::grid::Facing;
use crate::rules::tank_commander::setup::{Edge, Mission, UnitSetup, VictorySetup};
use crate::rules::tank_commander::{
    Battle, Rules, Scenario, ScenarioSetup, TankCommander, UnitKind,
};

fn unit(side: &str, name: &str, at: &str, facing: Facing) -> Box<UnitSetup> {
    let mut u: UnitSetup = ron::from_str(&format!(
        "(side: {side:?}, name: {name:?}, at: {at:?}, facing: {facing:?})"
    ))
    .unwrap();
    u.kind = UnitKind::Tank;
    Box::new(u)
}

/// Reads a design back from the text it saves.
fn reread(design: &HexDesign) -> HexDesign {
    let text = design.to_ron();
    let (setup, _) = crate::data::load_ron::<ScenarioSetup>("t.ron", &text)
        .unwrap_or_else(|d| panic!("{d}\n{text}"));
    HexDesign::from_setup(setup)
}

/// A design with a bit of everything on it.
fn busy() -> HexDesign {
    let edits = [
        Edit::Paint {
            cells: vec![[1, 1], [2, 1], [3, 2]],
            terrain: Terrain::Forest,
        },
        Edit::Paint {
            cells: vec![[5, 5]],
            terrain: Terrain::Building,
        },
        Edit::Smoke {
            cells: vec![[4, 4], [0, 7]],
            on: true,
        },
        Edit::AddUnit(unit("Blue", "Anvil", "B8", Facing::N)),
        Edit::AddUnit(unit("Red", "Hammer", "G2", Facing::SW)),
        Edit::Objective {
            at: [3, 3],
            on: true,
        },
        Edit::Mine {
            at: [6, 6],
            side: Some("Red".into()),
        },
        Edit::Victory(VictorySetup {
            mission: Mission::Breakthrough {
                attacker: "Blue".into(),
                edge: Edge::North,
            },
            turn_limit: Some(8),
            ..VictorySetup::default()
        }),
    ];
    edits
        .iter()
        .fold(HexDesign::blank(8, 9), |d, e| d.edited(e))
}

#[test]
fn every_edit_round_trips_through_save_and_load() {
    let base = busy();
    let mut red = *unit("Red", "Hammer", "G3", Facing::S);
    red.turret = Some(Facing::NW);
    red.build.engine = true;
    red.build.armor.front = 2;
    red.crew.commander = "Vera".into();
    red.painted = true;
    let edits = vec![
        Edit::Resize {
            width: 10,
            height: 7,
        },
        Edit::Paint {
            cells: vec![[0, 0], [7, 8]],
            terrain: Terrain::Water,
        },
        Edit::Fill {
            at: [0, 0],
            terrain: Terrain::Mud,
        },
        Edit::Smoke {
            cells: vec![[4, 4]],
            on: false,
        },
        Edit::AddUnit(unit("Blue", "Spare", "A1", Facing::SE)),
        Edit::SetUnit(1, Box::new(red)),
        Edit::RemoveUnit(0),
        Edit::Objective {
            at: [1, 5],
            on: true,
        },
        Edit::Objective {
            at: [3, 3],
            on: false,
        },
        Edit::Mine {
            at: [6, 6],
            side: None,
        },
        Edit::Mine {
            at: [2, 2],
            side: Some("Blue".into()),
        },
        Edit::Title {
            name: "Ford \"Two\"".into(),
            description: "A river, a ford, two tanks.".into(),
        },
        Edit::Victory(VictorySetup::default()),
        Edit::Options {
            weather: true,
            night: true,
            hidden_mines: true,
        },
        Edit::AirSupport {
            side: "Red".into(),
            strikes: 2,
        },
        Edit::Seed(Some(77)),
        Edit::Flip(Symmetry::Rotate180),
        Edit::Mirror(Symmetry::MirrorWestEast),
    ];
    // The mission's own hexes: waypoints, an area, a target building.
    let missions = [
        Mission::Training {
            waypoints: vec!["A1".into()],
        },
        Mission::TakeArea {
            attacker: "Blue".into(),
            area: Vec::new(),
        },
        Mission::DestroyTarget {
            attacker: "Blue".into(),
            unit: Some("Hammer".into()),
            building: None,
        },
    ];
    for mission in missions {
        let on = base.edited(&Edit::Victory(VictorySetup {
            mission,
            ..VictorySetup::default()
        }));
        let marked = on.edited(&Edit::MissionHex { at: [5, 5] });
        assert_eq!(marked.mission_hexes().last(), Some(&[5, 5]), "{marked:?}");
        assert_eq!(reread(&marked), marked);
        let flipped = marked.edited(&Edit::Flip(Symmetry::Rotate180));
        assert!(
            flipped.mission_hexes().contains(&[2, 3]),
            "the flip moves them"
        );
    }
    for edit in &edits {
        let after = base.edited(edit);
        assert_ne!(after, base, "{edit:?} changed nothing");
        assert_eq!(reread(&after), after, "{edit:?} does not survive a save");
        // Written the same way twice: stable text.
        assert_eq!(reread(&after).to_ron(), after.to_ron());
    }
}

#[test]
fn undo_and_redo_return_to_the_same_hash() {
    let mut editor = HexEditor::new(Rules::builtin(), 8, 9);
    let start = editor.design().hash();
    let mut hashes = vec![start];
    for (i, cell) in [[1, 1], [2, 2], [3, 3]].into_iter().enumerate() {
        let terrain = [Terrain::Forest, Terrain::Hill, Terrain::Mud][i];
        assert!(editor.apply(Edit::Paint {
            cells: vec![cell],
            terrain
        }));
        hashes.push(editor.design().hash());
    }
    // Painting what is already there is no edit.
    assert!(!editor.apply(Edit::Paint {
        cells: vec![[1, 1]],
        terrain: Terrain::Forest
    }));
    for want in hashes.iter().rev().skip(1) {
        assert!(editor.undo());
        assert_eq!(editor.design().hash(), *want);
    }
    assert!(!editor.undo());
    assert!(!editor.modified());
    for want in hashes.iter().skip(1) {
        assert!(editor.redo());
        assert_eq!(editor.design().hash(), *want);
    }
    assert!(!editor.redo());
    assert!(editor.modified());
}

#[test]
fn a_brush_stroke_is_one_step_to_undo() {
    let mut editor = HexEditor::new(Rules::builtin(), 8, 8);
    let start = editor.design().hash();
    // The stroke starts on a hex that is already forest after its first step.
    for cells in [
        vec![[1, 1]],
        vec![[1, 1]],
        vec![[2, 1], [3, 1]],
        vec![[4, 2]],
    ] {
        editor.apply_stroke(Edit::Paint {
            cells,
            terrain: Terrain::Forest,
        });
    }
    editor.end_stroke();
    let stroked = editor.design().hash();
    editor.apply(Edit::Paint {
        cells: vec![[5, 5]],
        terrain: Terrain::Hill,
    });
    assert!(editor.undo());
    assert_eq!(editor.design().hash(), stroked);
    assert!(editor.undo());
    assert_eq!(editor.design().hash(), start);
    assert!(!editor.can_undo());
    assert!(editor.redo());
    assert_eq!(editor.design().hash(), stroked);
}

#[test]
fn each_symmetry_twice_is_the_identity() {
    let design = busy();
    for w in [8, 9] {
        let design = design.edited(&Edit::Resize {
            width: w,
            height: 9,
        });
        for sym in Symmetry::ALL {
            let once = design.edited(&Edit::Flip(sym));
            assert_ne!(once, design, "{sym:?}");
            assert_eq!(
                once.edited(&Edit::Flip(sym)),
                design,
                "{sym:?} on {w} columns"
            );
        }
    }
}

#[test]
fn mirroring_makes_a_board_that_the_symmetry_leaves_alike() {
    for sym in Symmetry::ALL {
        let mirrored = busy().edited(&Edit::Mirror(sym));
        let flipped = mirrored.edited(&Edit::Flip(sym));
        // The terrain is its own image, and each unit has a twin of the other side.
        assert_eq!(flipped.setup.terrain, mirrored.setup.terrain, "{sym:?}");
        for u in &mirrored.setup.units {
            let image = flipped
                .setup
                .units
                .iter()
                .find(|v| v.at == u.at)
                .unwrap_or_else(|| panic!("{sym:?}: no twin for {}", u.name));
            assert_ne!(image.side, u.side, "{sym:?}");
            assert_eq!(image.facing, u.facing, "{sym:?}");
        }
        // Mirroring again changes nothing.
        assert_eq!(mirrored.edited(&Edit::Mirror(sym)), mirrored, "{sym:?}");
    }
}

#[test]
fn a_scenario_made_in_the_editor_validates_and_plays() {
    let rules = Rules::builtin();
    let mut editor = HexEditor::new(rules.clone(), 10, 10);
    assert!(
        editor
            .check()
            .problems
            .iter()
            .any(|(_, m)| m.contains("unit")),
        "an empty board is not a battle: {:?}",
        editor.check().problems
    );
    editor.apply(Edit::Paint {
        cells: vec![[4, 4], [4, 5], [5, 5]],
        terrain: Terrain::Forest,
    });
    editor.apply(Edit::Paint {
        cells: vec![[2, 7], [3, 8]],
        terrain: Terrain::Hill,
    });
    editor.apply(Edit::AddUnit(unit("Blue", "Anvil", "C9", Facing::N)));
    editor.apply(Edit::AddUnit(unit("Blue", "Bolt", "E10", Facing::N)));
    editor.apply(Edit::Mirror(Symmetry::Rotate180));
    editor.apply(Edit::Title {
        name: "Forest crossing".into(),
        description: "Two tanks a side on either side of a wood.".into(),
    });
    assert!(
        editor.check().problems.is_empty(),
        "{:?}",
        editor.check().lines()
    );
    let scenario = Scenario::validate(editor.design().setup.clone(), &rules).unwrap();
    assert_eq!(scenario.units.len(), 4);
    // Each copy is named for the side it joins.
    let red: Vec<&str> = editor
        .design()
        .setup
        .units
        .iter()
        .filter(|u| u.side == "Red")
        .map(|u| u.name.as_str())
        .collect();
    assert_eq!(red, ["Red Anvil", "Red Bolt"]);
    let battle = Battle { scenario, rules };
    for i in 0..5 {
        let result =
            crate::lab::run::play_one::<TankCommander>(&battle, &[], 1, (0, i), false).unwrap();
        assert!(result.actions > 0);
    }
    assert!(TankCommander::from_setup(&battle).is_ok());
}

#[test]
fn an_escort_mission_made_in_the_editor_validates_and_follows_a_renamed_squad() {
    let rules = Rules::builtin();
    let mut editor = HexEditor::new(rules.clone(), 10, 10);
    editor.apply(Edit::AddUnit(unit("Blue", "Anvil", "C9", Facing::N)));
    let mut squad = unit("Blue", "Scouts", "D9", Facing::N);
    squad.kind = UnitKind::Infantry;
    editor.apply(Edit::AddUnit(squad.clone()));
    editor.apply(Edit::AddUnit(unit("Red", "Hammer", "F2", Facing::S)));
    editor.apply(Edit::Victory(VictorySetup {
        mission: Mission::Escort {
            escort: "Blue".into(),
            squad: "Scouts".into(),
            edge: Edge::North,
        },
        turn_limit: Some(10),
        ..VictorySetup::default()
    }));
    assert!(
        editor.check().problems.is_empty(),
        "{:?}",
        editor.check().lines()
    );
    squad.name = "Pathfinders".into();
    editor.apply(Edit::SetUnit(1, squad));
    let Mission::Escort { squad, .. } = &editor.design().setup.victory.mission else {
        panic!("the mission stays an escort");
    };
    assert_eq!(squad, "Pathfinders");
    assert!(editor.check().problems.is_empty());
    assert_eq!(reread(editor.design()), *editor.design());
    editor.undo();
    let Mission::Escort { squad, .. } = &editor.design().setup.victory.mission else {
        panic!("the mission stays an escort");
    };
    assert_eq!(
        squad, "Scouts",
        "undo takes the rename back with the mission"
    );
    Scenario::validate(editor.design().setup.clone(), &rules).unwrap();
}

#[test]
fn problems_are_listed_and_marked_where_they_are() {
    let mut editor = HexEditor::new(Rules::builtin(), 8, 8);
    editor.apply(Edit::AddUnit(unit("Blue", "Anvil", "C7", Facing::N)));
    editor.apply(Edit::AddUnit(unit("Red", "Hammer", "C2", Facing::S)));
    assert!(
        editor.check().problems.is_empty(),
        "{:?}",
        editor.check().lines()
    );
    // Water under a tank, and an objective off the board after a resize.
    editor.apply(Edit::Paint {
        cells: vec![[2, 6]],
        terrain: Terrain::Water,
    });
    editor.apply(Edit::Objective {
        at: [7, 7],
        on: true,
    });
    editor.apply(Edit::Resize {
        width: 6,
        height: 8,
    });
    let check = editor.check();
    assert!(check.problems.len() >= 2, "{:?}", check.lines());
    assert!(check.markers.contains(&Some(Marker::Unit(0))), "{check:?}");
    assert!(
        check.lines().iter().any(|l| l.starts_with("objectives[0]")),
        "{check:?}"
    );
    editor.undo();
    editor.undo();
    editor.undo();
    assert!(editor.check().problems.is_empty());
}

#[test]
fn every_shipped_scenario_opens_and_saves_unchanged_byte_for_byte() {
    let rules = Rules::builtin();
    let dir = crate::data::find_project_file("scenarios").unwrap();
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ron") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let editor = HexEditor::open(&path, rules.clone()).unwrap();
        assert!(
            editor.check().problems.is_empty(),
            "{}: {:?}",
            path.display(),
            editor.check().lines()
        );
        assert_eq!(editor.text(), text);
        // The design is the same battle as the file.
        let file = Scenario::parse("f", &text, &rules).unwrap();
        let design = Scenario::validate(editor.design().setup.clone(), &rules).unwrap();
        assert_eq!(design.terrain, file.terrain, "{}", path.display());
        assert_eq!(design.smoke, file.smoke, "{}", path.display());
        assert_eq!(design.units, file.units, "{}", path.display());
        assert_eq!(design.mission, file.mission, "{}", path.display());
        // Its own text reads back to itself.
        assert_eq!(
            reread(editor.design()),
            *editor.design(),
            "{}",
            path.display()
        );
        seen += 1;
    }
    assert!(seen >= 15);
    // A file the editor wrote, opened and saved unchanged, is the same bytes.
    let dir = std::env::temp_dir().join(format!("tanktable-editor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let first = dir.join("a.ron");
    let mut editor = HexEditor::new(rules.clone(), 6, 6);
    editor.apply(Edit::AddUnit(unit("Blue", "Anvil", "C5", Facing::N)));
    editor.save(&first).unwrap();
    assert!(!editor.modified());
    let again = dir.join("b.ron");
    HexEditor::open(&first, rules)
        .unwrap()
        .save(&again)
        .unwrap();
    assert_eq!(
        std::fs::read(&first).unwrap(),
        std::fs::read(&again).unwrap()
    );
    std::fs::remove_dir_all(&dir).ok();
}

mod square {
    use super::super::*;
    use crate::rules::tank_chess::setup::PieceSetup;
    use crate::rules::tank_chess::{Dir8, Kind, Mode, Rules, Setup};

    fn piece(kind: Kind, at: &str, command: bool) -> PieceSetup {
        PieceSetup {
            kind,
            at: at.into(),
            facing: None,
            command,
        }
    }

    fn reread(design: &SquareDesign) -> SquareDesign {
        let text = design.to_ron();
        SquareDesign::read("t.ron", &text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    /// A small setup with a bit of everything.
    fn busy() -> SquareDesign {
        [
            SquareEdit::Obstacles {
                cells: vec![[0, 3], [2, 3], [5, 4]],
                on: true,
            },
            SquareEdit::AddPiece {
                team: 0,
                piece: piece(Kind::LT, "D1", true),
            },
            SquareEdit::AddPiece {
                team: 0,
                piece: PieceSetup {
                    facing: Some(Dir8::NE),
                    ..piece(Kind::HT, "E2", false)
                },
            },
        ]
        .iter()
        .fold(SquareDesign::blank(8, 8), |d, e| d.edited(e))
    }

    #[test]
    fn every_edit_round_trips_and_each_symmetry_twice_is_the_identity() {
        let base = busy();
        let edits = vec![
            SquareEdit::Resize {
                width: 10,
                height: 9,
            },
            SquareEdit::Obstacles {
                cells: vec![[0, 3]],
                on: false,
            },
            SquareEdit::AddPiece {
                team: 1,
                piece: piece(Kind::TD, "A8", false),
            },
            SquareEdit::SetPiece {
                team: 0,
                index: 1,
                piece: piece(Kind::HM, "F2", false),
            },
            SquareEdit::RemovePiece { team: 0, index: 1 },
            SquareEdit::Flag {
                at: [3, 3],
                on: true,
            },
            SquareEdit::Title {
                name: "Walls".into(),
                description: "Two walls.".into(),
            },
            SquareEdit::Mode(Mode::LastTankStanding { move_limit: 40 }),
            SquareEdit::Announced(Some(false)),
            SquareEdit::Position(true),
            SquareEdit::Flip(Symmetry::MirrorWestEast),
        ];
        for edit in &edits {
            let after = base.edited(edit);
            assert_ne!(after, base, "{edit:?} changed nothing");
            assert_eq!(reread(&after), after, "{edit:?} does not survive a save");
        }
        let flagged = base.edited(&SquareEdit::Flag {
            at: [1, 2],
            on: true,
        });
        for sym in Symmetry::ALL {
            let once = flagged.edited(&SquareEdit::Flip(sym));
            assert_ne!(once, flagged, "{sym:?}");
            assert_eq!(once.edited(&SquareEdit::Flip(sym)), flagged, "{sym:?}");
        }
        // Black written out is flipped with the rest.
        let explicit = base.edited(&SquareEdit::AddPiece {
            team: 1,
            piece: piece(Kind::TD, "A8", false),
        });
        let twice = explicit
            .edited(&SquareEdit::Flip(Symmetry::Rotate180))
            .edited(&SquareEdit::Flip(Symmetry::Rotate180));
        assert_eq!(twice, explicit);
    }

    #[test]
    fn mirroring_makes_black_whites_image_and_a_symmetric_board() {
        let design = busy().edited(&SquareEdit::AddPiece {
            team: 1,
            piece: piece(Kind::TD, "A8", false),
        });
        assert!(design.setup.black.is_some(), "editing Black writes it out");
        let mirrored = design.edited(&SquareEdit::Mirror);
        assert_eq!(mirrored.setup.black, None);
        assert_eq!(mirrored.black().len(), mirrored.setup.white.len());
        let flipped = mirrored.edited(&SquareEdit::Flip(Symmetry::Rotate180));
        let mut a = mirrored.setup.obstacles.clone();
        let mut b = flipped.setup.obstacles.clone();
        a.sort();
        b.sort();
        assert_eq!(a, b, "the obstacles are their own image");
        assert_eq!(mirrored.edited(&SquareEdit::Mirror), mirrored);
    }

    #[test]
    fn a_piece_at_risk_on_the_first_move_is_marked_on_its_square() {
        let rules = Rules::builtin();
        // The rulebook's open board: White's medium tank on D1 has Black's image of it in
        // its sights down the open file.
        let mut editor = SquareEditor::new_board(rules, 8, 8);
        editor.apply(SquareEdit::AddPiece {
            team: 0,
            piece: piece(Kind::MT, "D1", false),
        });
        editor.apply(SquareEdit::AddPiece {
            team: 0,
            piece: piece(Kind::LT, "A1", true),
        });
        let check = editor.check().clone();
        let at_risk: Vec<_> = check
            .lines()
            .into_iter()
            .zip(&check.markers)
            .filter(|(l, _)| l.contains("can be destroyed on"))
            .collect();
        assert!(!at_risk.is_empty(), "{:?}", check.lines());
        for (line, marker) in at_risk {
            assert!(
                matches!(marker, Some(Marker::Cell(_))),
                "{line}: no square marked"
            );
        }
        // A wall across the file takes the risk away.
        editor.apply(SquareEdit::Obstacles {
            cells: (0..8).map(|c| [c, 3]).collect(),
            on: true,
        });
        editor.apply(SquareEdit::Mirror);
        assert!(
            editor.check().problems.is_empty(),
            "{:?}",
            editor.check().lines()
        );
        let scenario = crate::rules::tank_chess::Scenario::validate(
            editor.design().setup.clone(),
            &editor.rules,
        );
        assert!(scenario.is_ok());
    }

    #[test]
    fn every_shipped_setup_opens_and_saves_unchanged_byte_for_byte() {
        let rules = Rules::builtin();
        let dir = crate::data::find_project_file("scenarios/tank-chess").unwrap();
        let mut seen = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let editor = SquareEditor::open(&path, rules.clone()).unwrap();
            assert!(
                editor.check().problems.is_empty(),
                "{}: {:?}",
                path.display(),
                editor.check().lines()
            );
            assert_eq!(editor.text(), text);
            let design = editor.design();
            assert_eq!(reread(design), *design, "{}", path.display());
            let setup: Setup = reread(design).setup;
            assert_eq!(setup, design.setup);
            seen += 1;
        }
        assert!(seen >= 8);
    }
}
