//! Every game through the same headless commands, and every kind of file the project
//! writes or ships through `check`.

use tanktable::rules::GameKind;

use crate::tanktable;

fn ok(args: &[&str]) -> String {
    let out = tanktable(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn fails(args: &[&str]) -> String {
    let out = tanktable(args);
    assert_eq!(out.status.code(), Some(1), "{args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tt-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The bots a quick test plays each game with (Tank Chess's search bots take seconds a
/// game; its random bot does not).
fn quick_bots(game: GameKind) -> &'static str {
    match game {
        GameKind::TankChess => "random",
        _ => "greedy,random",
    }
}

/// Every game plays headless from the command line: a record, its replay, `check` and
/// `legal` on it and on the setup, and a short simulation in which every game counts.
#[test]
fn every_game_plays_headless() {
    let dir = scratch("games");
    for game in GameKind::ALL {
        let setup = game.default_setup();
        let record = dir.join(format!("{}.record", game.name()));
        let record = record.to_str().unwrap();
        let bots = quick_bots(game);
        ok(&["record", setup, "-o", record, "--seed", "5", "--bots", bots]);
        let said = ok(&["replay", record]);
        assert!(said.contains("Final state 0x"), "{game}: {said}");
        let said = ok(&["check", record, setup]);
        assert!(said.contains("match record"), "{game}: {said}");
        ok(&["legal", record]);
        let said = ok(&["legal", setup, "--seed", "2"]);
        assert!(said.contains(" may play "), "{game}: {said}");
        let games = if game == GameKind::TankChess {
            "4"
        } else {
            "40"
        };
        let json = ok(&[
            "sim",
            setup,
            "-n",
            games,
            "--json",
            "--threads",
            "2",
            "--bots",
            bots,
        ]);
        let report: serde_json::Value = serde_json::from_str(&json).unwrap();
        let (wins, none) = crate::wins_and_no_winner(&report);
        // A shared win counts for each winner, so wins may exceed the games they share.
        assert!(
            wins + none >= report["games"].as_u64().unwrap(),
            "{game}: {report}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file of every kind the project ships or writes is recognised and validated.
#[test]
fn check_knows_every_kind_of_file() {
    let dir = scratch("kinds");
    let design = dir.join("hammer.ron");
    std::fs::write(
        &design,
        "TankDesign(name: \"Hammer\", build: (armor: (front: 2), engine: true))",
    )
    .unwrap();
    let record = dir.join("chess.txt");
    ok(&[
        "record",
        "tests/data/tank-chess/small-8.ron",
        "-o",
        record.to_str().unwrap(),
        "--bots",
        "random",
    ]);
    let said = ok(&[
        "check",
        "scenarios/skirmish.ron",
        "scenarios/tank-chess/basic-16.ron",
        "scenarios/battle-tanks/default.ron",
        "scenarios/tank-combat/default.ron",
        "scenarios/range-duel/default.ron",
        "assets/rules/tank-commander.ron",
        "assets/rules/tank-chess.ron",
        "assets/rules/range-duel.ron",
        "tests/data/mid-activation.ron",
        "tests/data/tank-chess/capture-the-flag-game.txt",
        record.to_str().unwrap(),
        design.to_str().unwrap(),
    ]);
    for what in [
        "a Tank Commander scenario",
        "a Tank Chess setup",
        "a Battle Tanks setup",
        "a Tank Combat setup",
        "a Range Duel setup",
        "a Tank Commander rules table",
        "a Tank Chess rules table",
        "a Range Duel rules table",
        "a Tank Commander match record",
        "a Tank Chess match record",
        "a Tank Commander tank design",
    ] {
        assert!(said.contains(what), "{what}: {said}");
    }
    // A design that breaks the build rules is refused, in its place.
    std::fs::write(
        &design,
        "TankDesign(\n  name: \"Brick\",\n  build: (armor: (front: 9)),\n)",
    )
    .unwrap();
    let err = fails(&["check", design.to_str().unwrap()]);
    assert!(err.contains("hammer.ron:3:"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file of one game given to a command or option it does not fit gets a sentence that
/// says what the file is, never a parse error of the wrong type.
#[test]
fn a_file_of_the_wrong_kind_is_named_for_what_it_is() {
    let err = fails(&[
        "odds",
        "scenarios/tank-chess/basic-16.ron",
        "--shooter",
        "a",
        "--target",
        "b",
    ]);
    assert!(
        err.contains("is a Tank Chess setup; `odds` works on Tank Commander scenarios"),
        "{err}"
    );
    let err = fails(&["replay", "scenarios/battle-tanks/default.ron"]);
    assert!(
        err.contains("is a Battle Tanks setup; `replay` needs a match record"),
        "{err}"
    );
    let err = fails(&["sim", "assets/rules/range-duel.ron"]);
    assert!(
        err.contains("is a Range Duel rules table; `sim` needs a scenario or setup"),
        "{err}"
    );
    let err = fails(&[
        "sim",
        "scenarios/tank-combat/default.ron",
        "--rules",
        "assets/rules/tank-chess.ron",
    ]);
    assert!(
        err.contains(
            "is a Tank Chess rules table, but the file it should apply to is a Tank Combat file"
        ),
        "{err}"
    );
    let err = fails(&["legal", "Cargo.toml"]);
    assert!(
        err.contains("Cargo.toml:1:1: expected the name of what the file holds, found `[`"),
        "{err}"
    );
    let err = fails(&["sim", "scenarios/skirmish.ron", "--bots", "genius"]);
    assert!(
        err.contains(
            "Tank Commander has no bot called `genius`; its bots are tactical, veteran, major, general, greedy, random"
        ),
        "{err}"
    );
}
