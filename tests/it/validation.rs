//! Bad input gets every problem, each with its place, never a panic.

use tanktable::rules::tank_commander::{Rules, Scenario};

use crate::project;

#[test]
fn a_broken_scenario_lists_every_problem_in_file_order() {
    let path = project("tests/data/bad-scenario.ron");
    let err = Scenario::load(&path, &Rules::builtin()).unwrap_err();
    let lines: Vec<String> = err
        .0
        .iter()
        .map(|d| format!("{}:{}: {}", d.line, d.col, d.message))
        .collect();
    let expected = [
        "6:9: there are 7 terrain rows but the board is 8 rows high",
        "11:13: `x` in row 5 is not a terrain: use . m r f B h w s",
        "18:38: K12 is off the board (8 columns A-H, rows 1-8)",
        "19:39: `Mason` is placed on a building at D2",
        "19:60: unknown field `colour`",
        "20:61: `Spender`: the build costs 11 upgrade points but only 10 are available (10 base)",
        "21:88: `Lopsided`: side armor 7 cannot exceed front armor 6",
        "22:23: two units are called `Lopsided`",
        "23:10: `Green` is not a side of this scenario (sides: Blue, Red)",
        "25:15: the turn limit must be at least 1",
    ];
    assert_eq!(lines, expected, "\n{}", lines.join("\n"));
}

#[test]
fn a_syntax_error_has_a_place() {
    let err = Scenario::parse(
        "x.ron",
        "Scenario(name: \"x\", board: (width: 4 height: 4))",
        &Rules::builtin(),
    )
    .unwrap_err();
    assert_eq!(err.0.len(), 1);
    let d = &err.0[0];
    assert_eq!((d.file.as_str(), d.line), ("x.ron", 1));
    assert!(d.to_string().starts_with("x.ron:1:"), "{d}");
}

#[test]
fn a_broken_rules_file_is_refused() {
    let text = std::fs::read_to_string(project("assets/rules/tank-commander.ron")).unwrap();
    let broken = text
        .replace("turret_arc_degrees: 120", "turret_arc_degrees: 100")
        .replacen("accuracy: 4,", "accuracy: 9, speed: 3,", 1);
    let err = Rules::parse("r.ron", &broken).unwrap_err();
    let messages: Vec<&str> = err.0.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "accuracy is a d6 target number: 2 to 6",
            "unknown field `speed`",
            "the turret arc must be 60, 120, 180 or 360 degrees"
        ]
    );
}
