//! Tank Chess headless: perft-style legal-move counts for positions kept as data files
//! (`tests/data/tank-chess/perft/`), and the command line on setups and game records.
//!
//! A perft file is a game record with two extra headers: `[Depth "N"]` and
//! `[Expect "d1=… d2=…"]`. Regenerate the counts with `TANKTABLE_BLESS=1 cargo test perft`
//! and review the diff.

use tanktable::framework::{Game, MatchRng};
use tanktable::rules::tank_chess::{Rules, Scenario, TankChess, notation};
use tanktable::rules::tank_commander::resolve_path;

use crate::{project, tanktable};

fn header<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines().find_map(|l| {
        l.trim()
            .strip_prefix(&format!("[{key} \""))
            .and_then(|r| r.strip_suffix("\"]"))
    })
}

fn position(path: &std::path::Path, text: &str) -> TankChess {
    let rules = Rules::builtin();
    let parsed = notation::parse_record(text).unwrap();
    let setup = resolve_path(&parsed.setup, path.parent());
    let scenario = Scenario::load(&setup, &rules).unwrap();
    let mut game = TankChess::new(&scenario, &rules);
    for (_, mv) in &parsed.moves {
        let a = notation::parse_move(&game, mv).unwrap();
        let side = game.to_move();
        game.apply(side, &a, &mut MatchRng::new(0)).unwrap();
    }
    game
}

#[test]
fn perft_counts_match_the_data_files() {
    let dir = project("tests/data/tank-chess/perft");
    let bless = std::env::var_os("TANKTABLE_BLESS").is_some();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 5);
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let game = position(&path, &text);
        let depth: u32 = header(&text, "Depth").unwrap().parse().unwrap();
        let counts: Vec<String> = (1..=depth)
            .map(|d| format!("d{d}={}", game.perft(d)))
            .collect();
        let got = counts.join(" ");
        if bless {
            let old = format!("[Expect \"{}\"]", header(&text, "Expect").unwrap_or(""));
            std::fs::write(&path, text.replace(&old, &format!("[Expect \"{got}\"]"))).unwrap();
        } else {
            assert_eq!(
                header(&text, "Expect"),
                Some(got.as_str()),
                "{}",
                path.display()
            );
        }
    }
}

#[test]
fn perft_divides_into_the_moves_below_and_the_command_line_counts_it() {
    let path = project("tests/data/tank-chess/perft/small-8-middle.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let game = position(&path, &text);
    let divided = game.perft_divide(2);
    assert_eq!(divided.len() as u64, game.perft(1));
    assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), game.perft(2));

    let expect = header(&text, "Expect").unwrap();
    let out = tanktable(&[
        "perft",
        "tests/data/tank-chess/perft/small-8-middle.txt",
        "--depth",
        "2",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}");
    for (d, count) in expect.split(' ').filter_map(|e| e.split_once('=')) {
        let d = d.trim_start_matches('d');
        assert!(
            stdout.contains(&format!("depth {d}: {count} nodes")),
            "{stdout}"
        );
    }
    assert!(stdout.contains("nodes/s"), "{stdout}");
    // Only Tank Chess has perft.
    let out = tanktable(&["perft", "scenarios/skirmish.ron"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("perft works on Tank Chess positions"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_command_line_checks_lists_and_replays_tank_chess() {
    let out = tanktable(&[
        "check",
        "scenarios/tank-chess/basic-16.ron",
        "scenarios/tank-chess/basic-20.ron",
        "scenarios/tank-chess/open-field.ron",
        "scenarios/tank-chess/old-town.ron",
        "assets/rules/tank-chess.ron",
        "tests/data/tank-chess/perft/basic-16-in-check.txt",
        "tests/data/tank-chess/capture-the-flag-game.txt",
        "scenarios/tank-chess/capture-the-flag.ron",
        "scenarios/tank-chess/three-flags.ron",
        "scenarios/tank-chess/four-players.ron",
        "scenarios/tank-chess/last-tank-standing.ron",
        "scenarios/tank-chess/escape-of-three.ron",
        "scenarios/tank-chess/single-type-light.ron",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // `legal` lists the moves in notation; their number is the perft count at depth 1.
    let out = tanktable(&["legal", "tests/data/tank-chess/perft/basic-16-in-check.txt"]);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let text =
        std::fs::read_to_string(project("tests/data/tank-chess/perft/basic-16-in-check.txt"))
            .unwrap();
    let d1 = header(&text, "Expect").unwrap().trim_start_matches("d1=");
    assert!(
        stdout.contains(&format!("may play {d1} actions")),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .skip(1)
            .all(|l| l.trim().contains('/') || l.contains(" > off")),
        "{stdout}"
    );
    // A Capture the Flag game replays from its notation to the same result.
    let out = tanktable(&["replay", "tests/data/tank-chess/capture-the-flag-game.txt"]);
    let told = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        told.contains("takes flag 1") && told.contains("Result: Black brought home 1 of 1 flag(s)"),
        "{told}"
    );
    // `replay` tells the game; an illegal move is refused with its number.
    let out = tanktable(&["replay", "tests/data/tank-chess/perft/small-8-middle.txt"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("CHECK"));
    let bad = std::env::temp_dir().join(format!("tanktable-bad-{}.txt", std::process::id()));
    std::fs::write(
        &bad,
        "[Setup \"tests/data/tank-chess/small-8.ron\"]\n1. D1 > D8/N\n",
    )
    .unwrap();
    let out = tanktable(&["replay", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("move 1"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_file(bad);
}
