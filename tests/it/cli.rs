//! The command line, run as a user would.

use std::process::Command;

use crate::{project, tanktable, text};

#[test]
fn check_accepts_the_shipped_files() {
    let out = tanktable(&[
        "check",
        "scenarios/skirmish.ron",
        "scenarios/battle.ron",
        "scenarios/training-range.ron",
        "scenarios/capture-objectives.ron",
        "scenarios/escort.ron",
        "scenarios/destroy-target.ron",
        "scenarios/breakthrough.ron",
        "scenarios/storm-front.ron",
        "scenarios/disable-aa-guns.ron",
        "scenarios/night-raid.ron",
        "scenarios/urban-warfare.ron",
        "scenarios/beach-landing.ron",
        "scenarios/minefield-pass.ron",
        "scenarios/river-crossing.ron",
        "scenarios/cross-minefield.ron",
        "scenarios/crossroads.ron",
        "scenarios/three-flags.ron",
        "scenarios/command-tank.ron",
        "scenarios/spotters.ron",
        "scenarios/campaigns/iron-road.ron",
        "assets/rules/tank-commander.ron",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 21);
}

#[test]
fn check_lists_every_problem_and_fails() {
    let out = tanktable(&[
        "check",
        "tests/data/bad-scenario.ron",
        "scenarios/skirmish.ron",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("tests/data/bad-scenario.ron:18:38: K12 is off the board"),
        "{err}"
    );
    assert!(err.contains("10 problems found."), "{err}");
    assert!(text(&out.stdout).contains("scenarios/skirmish.ron: ok"));
}

#[test]
fn bad_arguments_fail_with_a_message() {
    let out = tanktable(&["sim", "scenarios/skirmish.ron", "--games", "lots"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("invalid value 'lots'"));
    let out = tanktable(&[
        "odds",
        "scenarios/skirmish.ron",
        "--shooter",
        "Nobody",
        "--target",
        "Red Baron",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no unit called `Nobody` (units: Iron Duke, Red Baron)"));
    let out = tanktable(&["replay", "does-not-exist.ron"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("does-not-exist.ron:1:1: cannot read the file"));
}

#[test]
fn sim_reports_balance_as_json() {
    let out = tanktable(&[
        "sim",
        "scenarios/skirmish.ron",
        "--games",
        "40",
        "--seed",
        "7",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (wins, none) = crate::wins_and_no_winner(&report);
    assert_eq!(wins + none, 40);
    assert!(report["mean_rounds"].as_f64().unwrap() >= 1.0);
    // The same seed gives the same battles, whatever the thread count.
    let again = tanktable(&[
        "sim",
        "scenarios/skirmish.ron",
        "--games",
        "40",
        "--seed",
        "7",
        "--json",
        "--threads",
        "1",
    ]);
    let again: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(report["wins"], again["wins"]);
    assert_eq!(report["mean_rounds"], again["mean_rounds"]);
}

#[test]
fn record_then_replay_reproduces_the_battle_and_detects_tampering() {
    let dir = std::env::temp_dir().join(format!("tanktable-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("battle.ron");
    let file_s = file.to_str().unwrap();
    let out = tanktable(&[
        "record",
        "scenarios/battle.ron",
        "-o",
        file_s,
        "--seed",
        "3",
        "--bots",
        "greedy,random",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = tanktable(&["replay", file_s]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("Roll for first turn:"));
    assert!(stdout.contains("matches the record"));
    let out = tanktable(&["replay", file_s, "--json"]);
    let first: serde_json::Value =
        serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
    assert!(first["fact"]["FirstPlayerRolled"].is_object());
    assert!(tanktable(&["check", file_s]).status.success());
    // Change the seed: the replay no longer reaches the recorded state.
    let record = std::fs::read_to_string(&file)
        .unwrap()
        .replacen("seed: 3", "seed: 4", 1);
    std::fs::write(&file, record).unwrap();
    let out = tanktable(&["replay", file_s]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("cannot be played") || err.contains("but the record says"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn odds_prints_exact_fractions() {
    let out = tanktable(&[
        "odds",
        "tests/scenarios/close-duel.ron",
        "--shooter",
        "Striker",
        "--target",
        "Bulwark",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("To hit: needs 3+: base 4, optics −1"), "{s}");
    assert!(s.contains("Armor: front 9"), "{s}");
    // Hit 2/3; penetration needs 4+ on the d6: 1/2; so 1/3 penetrating, 1/3 glancing.
    assert!(
        s.contains("hit                             2/3  0.6667"),
        "{s}"
    );
    assert!(
        s.contains("penetrating hit                 1/3  0.3333"),
        "{s}"
    );
    assert!(
        s.contains("glancing hit                    1/3  0.3333"),
        "{s}"
    );
    // Wound: 1/3 + 1/3 × 1/2 = 1/2.
    assert!(
        s.contains("crew wound                      1/2  0.5000"),
        "{s}"
    );
    let he = tanktable(&[
        "odds",
        "tests/scenarios/he-range.ron",
        "--shooter",
        "Striker",
        "--target",
        "Burner",
        "--round",
        "HE",
    ]);
    let s = text(&he.stdout);
    // HE 4 + d6 > 6 needs 3+: 2/3 of 2/3 hits; fire 2/3 × 1/3.
    assert!(s.contains("penetrating hit                 4/9"), "{s}");
    assert!(s.contains("fire                            2/9"), "{s}");
    // A shot that cannot be taken now still gets "what if" odds, with the reason.
    let far = tanktable(&[
        "odds",
        "scenarios/skirmish.ron",
        "--shooter",
        "Iron Duke",
        "--target",
        "Red Baron",
    ]);
    assert!(far.status.success());
    let s = text(&far.stdout);
    assert!(
        s.contains("Not possible from here: H1 is 11 spaces away; the main gun reaches 7."),
        "{s}"
    );
    assert!(s.contains("expected hull points lost"), "{s}");
    // No odds for a shot at itself, at a friend, or from a training target.
    for (file, shooter, target, why) in [
        (
            "scenarios/skirmish.ron",
            "Iron Duke",
            "Iron Duke",
            "Iron Duke cannot fire at itself",
        ),
        (
            "scenarios/battle.ron",
            "Hammer",
            "Anvil",
            "Anvil is on Hammer's own side",
        ),
        (
            "scenarios/training-range.ron",
            "Target 1",
            "Rookie",
            "Target 1 is a training target: it never fires",
        ),
    ] {
        let out = tanktable(&["odds", file, "--shooter", shooter, "--target", target]);
        assert!(!out.status.success(), "{shooter} at {target}");
        assert!(text(&out.stderr).contains(why), "{}", text(&out.stderr));
    }
}

#[test]
fn a_closed_pipe_ends_output_quietly() {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tanktable"))
        .args(["replay", "tests/data/mid-activation.ron"])
        .current_dir(project("."))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        status.success() || status.code() == Some(0),
        "{status:?} {err}"
    );
}

#[test]
fn legal_lists_actions_for_scenarios_and_records() {
    let out = tanktable(&["legal", "scenarios/skirmish.ron", "--seed", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("choose a unit to activate"), "{s}");
    assert!(s.contains("activate "), "{s}");
    let out = tanktable(&["legal", "tests/data/mid-activation.ron"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("Striker, 4 AP left"), "{s}");
    assert!(s.contains("Striker: move D6 to D5 (1 AP)"), "{s}");
    assert!(s.contains("Striker: fire AT at Bulwark (D3) (1 AP)"), "{s}");
    assert!(
        s.contains("Striker: turn left to NW, turret follows to N (1 AP)"),
        "{s}"
    );
}

#[test]
fn range_duel_plays_headless_through_record_replay_legal_and_sim() {
    let dir = std::env::temp_dir().join(format!("tt-rd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("duel.ron");
    let record = record.to_str().unwrap();
    let out = tanktable(&[
        "record",
        "scenarios/range-duel/default.ron",
        "-o",
        record,
        "--seed",
        "3",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = tanktable(&["replay", record]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("Matrix row"), "{said}");
    assert!(said.contains("tests Driving"), "{said}");
    assert!(tanktable(&["check", record]).status.success());
    let out = tanktable(&["legal", "scenarios/range-duel/default.ron"]);
    let said = text(&out.stdout);
    let every = tanktable::rules::range_duel::Action::every().len();
    assert!(
        said.contains(&format!("may play {every} actions")),
        "{said}"
    );
    // A record whose final hash was tampered with is refused.
    let tampered = std::fs::read_to_string(record)
        .unwrap()
        .replace("final_hash: \"0x", "final_hash: \"0x1");
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, tampered).unwrap();
    assert!(
        !tanktable(&["replay", bad.to_str().unwrap()])
            .status
            .success()
    );
    let out = tanktable(&[
        "sim",
        "scenarios/range-duel/default.ron",
        "-n",
        "200",
        "--json",
        "--threads",
        "1",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (wins, none) = crate::wins_and_no_winner(&report);
    assert_eq!(wins + none, 200, "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn campaign_plays_its_battles_with_bots_and_keeps_the_roster_between_them() {
    let dir = std::env::temp_dir().join(format!("tanktable-cli-campaign-{}", std::process::id()));
    let save = dir.join("road.ron");
    let save_arg = save.display().to_string();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "campaign",
            "scenarios/campaigns/iron-road.ron",
            "--save",
            &save_arg,
        ];
        args.extend_from_slice(extra);
        tanktable(&args)
    };
    let out = run(&["--new", "--play", "1", "--seed", "3", "--bots", "greedy"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.starts_with("Battle 1 of 4, Breakthrough: "), "{said}");
    assert!(
        said.contains("Lancer joins the company: Commander Abel (recruit)"),
        "{said}"
    );
    assert!(
        said.contains("battle 2 of 4 next: Cross Minefield."),
        "{said}"
    );
    assert!(said.contains("Roster (Blue):"), "{said}");
    // The state is a file the project knows.
    let out = tanktable(&["check", &save_arg]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout)
            .contains("a Tank Commander campaign in progress: `The Iron Road`, 1 battle(s) fought"),
        "{}",
        text(&out.stdout)
    );
    // Without --play it only shows where the campaign stands; with it, it goes on.
    let shown = run(&[]);
    assert!(text(&shown.stdout).contains("  1. Breakthrough: "));
    let out = run(&["--play", "9", "--seed", "4"]);
    let said = text(&out.stdout);
    assert!(said.contains("Battle 4 of 4, Disable AA Guns: "), "{said}");
    assert!(
        said.contains("The campaign is over: every battle is fought."),
        "{said}"
    );
    assert!(said.contains("  over: "), "{said}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_bad_campaign_file_gets_every_problem_placed() {
    let dir = crate::project("scenarios/campaigns");
    let bad = dir.join(format!("bad-{}.ron", std::process::id()));
    std::fs::write(
        &bad,
        "Campaign(\n    name: \"\",\n    side: \"Blue\",\n    battles: [(scenario: \"../training-range.ron\"), (scenario: \"../gone.ron\")],\n    turns: 3,\n)\n",
    )
    .unwrap();
    let out = tanktable(&["check", &bad.display().to_string()]);
    let _ = std::fs::remove_file(&bad);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains(":2:") && err.contains("give the campaign a name"),
        "{err}"
    );
    assert!(
        err.contains(":4:16: `../training-range.ron` has no side `Blue`"),
        "{err}"
    );
    assert!(err.contains("`../gone.ron` cannot be played"), "{err}");
    assert!(err.contains(":5:") && err.contains("turns"), "{err}");
}

#[test]
fn edit_refuses_a_file_the_editor_cannot_open_before_any_window() {
    let out = tanktable(&["edit", "scenarios/range-duel/default.ron"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("the editor opens Tank Commander scenarios and Tank Chess setups"),
        "{err}"
    );
    let out = tanktable(&["edit", "no-such-scenario.ron"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("no-such-scenario.ron: no such file"),
        "{}",
        text(&out.stderr)
    );
}

/// The binary run from a folder away from the project, with a new data folder: what a
/// copied or installed binary meets.
fn away(args: &[&str], folder: &std::path::Path) -> std::process::Output {
    std::fs::create_dir_all(folder).unwrap();
    Command::new(env!("CARGO_BIN_EXE_tanktable"))
        .args(args)
        .current_dir(folder)
        .env("TANKTABLE_DATA", folder.join("data"))
        .output()
        .expect("the binary runs")
}

/// Away from the project, setups are found by name in the copy built into the binary:
/// `list` says so, and `check`, `sim`, `record` and `lab` take names; a record made there
/// replays from anywhere; a name that matches nothing gets the closest names.
#[test]
fn setups_by_name_work_from_any_folder() {
    let folder = std::env::temp_dir().join(format!("tanktable-away-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    let out = away(&["list"], &folder);
    let listing = text(&out.stdout);
    assert!(out.status.success(), "{listing}");
    assert!(listing.contains("No project folder here"), "{listing}");
    for name in [
        "skirmish",
        "tank-chess/basic-16",
        "battle-tanks/default",
        "tank-combat/deathmatch-4",
        "range-duel/knife-fight",
        "campaigns/iron-road",
        "lab/river-town-thick-woods",
    ] {
        let line = listing
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} is not listed: {listing}"));
        assert!(line.ends_with("built in"), "{line}");
    }
    assert!(
        !listing
            .lines()
            .any(|l| l.ends_with("project") || l.contains("project,")),
        "{listing}"
    );

    let out = away(
        &[
            "check",
            "skirmish",
            "basic-16",
            "campaigns/iron-road",
            "river-town",
        ],
        &folder,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("skirmish (scenarios/skirmish.ron): ok"));

    let out = away(
        &["sim", "river-town", "-n", "4", "--json", "--threads", "1"],
        &folder,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (wins, no_winner) = crate::wins_and_no_winner(&report);
    assert_eq!(wins + no_winner, 4);

    for lab in [
        &[
            "lab",
            "lab/river-town-thick-woods",
            "-n",
            "4",
            "--threads",
            "1",
        ][..],
        &[
            "lab",
            "tank-chess/basic-16",
            "--set",
            "heavy.armor.front=4",
            "--bots",
            "random",
            "-n",
            "4",
            "--threads",
            "1",
        ],
    ] {
        let out = away(lab, &folder);
        assert!(
            out.status.success(),
            "{}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
    }

    for (name, file) in [("tank-chess/basic-16", "chess.txt"), ("skirmish", "tc.ron")] {
        let out = away(&["record", name, "-o", file, "--seed", "3"], &folder);
        assert!(out.status.success(), "{}", text(&out.stderr));
        // Replayed from another folder, with another data folder.
        let elsewhere = folder.join("elsewhere");
        let record = folder.join(file);
        let out = away(&["replay", record.to_str().unwrap()], &elsewhere);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
    }

    let out = away(&["sim", "skirmsh"], &folder);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("the closest: skirmish"), "{err}");
    let out = away(&["play", "default"], &folder);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("range-duel/default"));
    let _ = std::fs::remove_dir_all(&folder);
}

/// An old record that names its scenario by a path not on this machine says which file
/// it needs, and which known setup has that name.
#[test]
fn a_record_on_a_missing_file_says_which_setup_it_needs() {
    let folder = std::env::temp_dir().join(format!("tanktable-old-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let record = folder.join("old.ron");
    std::fs::write(
        &record,
        "MatchRecord(game: \"tank-commander\", scenario: Path(\"/home/gone/tanktable/scenarios/skirmish.ron\"), seed: 1, actions: [])",
    )
    .unwrap();
    let out = tanktable(&["replay", record.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("played on the setup `/home/gone/tanktable/scenarios/skirmish.ron`, which is not on this machine"),
        "{err}"
    );
    assert!(err.contains("`skirmish` (Skirmish, project)"), "{err}");
    // The same record naming the project's file still replays.
    std::fs::write(
        &record,
        "MatchRecord(game: \"tank-commander\", scenario: Path(\"scenarios/skirmish.ron\"), seed: 1, actions: [])",
    )
    .unwrap();
    let out = tanktable(&["replay", record.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn version_names_the_commit() {
    let out = tanktable(&["--version"]);
    let line = text(&out.stdout);
    assert!(
        line.starts_with(&format!("tanktable {} (", env!("CARGO_PKG_VERSION"))),
        "{line}"
    );
    assert!(line.trim_end().ends_with(')'), "{line}");
}

/// Two battles with a refit between them, from the command line: a refit beyond the
/// budget is refused with its rule and makes nothing; one within it is saved, checked and
/// played in the next battle.
#[test]
fn a_campaign_tank_is_refitted_between_battles() {
    let dir = std::env::temp_dir().join(format!("tanktable-cli-refit-{}", std::process::id()));
    let save = dir.join("road.ron");
    let save_arg = save.display().to_string();
    let run = |extra: &[&str]| {
        let mut args = vec!["campaign", "iron-road", "--save", &save_arg];
        args.extend_from_slice(extra);
        tanktable(&args)
    };
    let out = run(&["--new", "--play", "1", "--seed", "3", "--bots", "greedy"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.contains("Lancer earns 1 upgrade point for a refit"),
        "{said}"
    );
    assert!(said.contains("Lancer: 1 battle(s)"), "{said}");
    let before = std::fs::read_to_string(&save).unwrap();
    let out = run(&[
        "--upgrade",
        "Lancer=engine,optics,barrel,he,smoke,medkit,front:3,side:2,rear:1",
        "--upgrade",
        "Rapier=engine",
    ]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("no refit was made"), "{err}");
    assert!(
        err.contains(
            "only 11 are available (10 base, +1 earned in the campaign) (§ tc.build.budget)"
        ),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&save).unwrap(),
        before,
        "nothing changed"
    );
    let out = run(&[
        "--upgrade",
        "Lancer=engine,optics,barrel,he,smoke,medkit,lieutenant,front:2,side:1",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.contains("Lancer refitted: +barrel, +lieutenant (10 of 11 upgrade points)"),
        "{said}"
    );
    assert!(
        said.contains("joins Lancer as Lieutenant Commander"),
        "{said}"
    );
    let out = tanktable(&["check", &save_arg]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(&["--play", "1", "--seed", "4", "--bots", "greedy"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("Battle 2 of 4, Cross Minefield: "), "{said}");
    assert!(said.contains("Lieutenant Commander"), "{said}");
    // A state edited past the budget is refused at the tank's build.
    let state = std::fs::read_to_string(&save).unwrap();
    let edited = dir.join("edited.ron");
    std::fs::write(&edited, state.replacen("front: 2,", "front: 9,", 1)).unwrap();
    let out = tanktable(&["check", &edited.display().to_string()]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("front armor takes at most 3 upgrade points, not 9"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
