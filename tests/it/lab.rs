//! The playtest lab from the outside: the command line and the Lab screen's backend agree
//! for a seed, variant files apply exactly their fields, and branching a record leaves
//! it as it was.

use std::collections::BTreeMap;

use tanktable::framework::playable::{self, Playable};
use tanktable::lab::{self, Ask, LabReport, VariantFile};
use tanktable::rules::GameKind;
use tanktable::rules::tank_commander::TankCommander;

use crate::{project, tanktable, text};

/// The numbers of a report as JSON, without the question's wording of the setup.
fn arms(report: &serde_json::Value) -> serde_json::Value {
    report["arms"].clone()
}

#[test]
fn the_command_line_and_the_lab_screen_give_the_same_numbers() {
    let variant = "scenarios/lab/skirmish-tougher-hulls.ron";
    let out = tanktable(&[
        "lab",
        variant,
        "-n",
        "300",
        "--seed",
        "7",
        "--threads",
        "2",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let cli: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The Lab screen's way: its backend, one worker, results gathered as they finish.
    let path = project(variant);
    let file = VariantFile::parse(&path, &std::fs::read_to_string(&path).unwrap()).unwrap();
    let backend =
        lab::any::load(GameKind::TankCommander, &file.setup_path(&path).unwrap()).unwrap();
    let ask = Ask {
        games: 300,
        seed: 7,
        bots: vec!["tactical".into(), "tactical".into()],
        threads: 1,
        // As the screen asks: its workers below the screen's priority, its games paired
        // (the command line's default for a question with variants).
        background: true,
        paired: true,
        ..Ask::default()
    };
    let mut running = backend
        .start(&[(file.name.clone(), file.changes.clone())], &ask, None)
        .unwrap();
    running.join().unwrap();
    let report = LabReport::build(running.question.clone(), &running.live.snapshot());
    let screen: serde_json::Value = serde_json::from_str(&report.to_json().unwrap()).unwrap();
    assert_eq!(arms(&cli), arms(&screen));
    assert_eq!(cli["arms"][1]["games"], 300);
    assert!(
        cli["arms"][1]["verdict"]["words"]
            .as_str()
            .unwrap()
            .contains("95% CI")
    );
}

#[test]
fn the_lab_writes_csv_and_a_variant_file_that_applies_exactly_its_fields() {
    let dir = std::env::temp_dir().join(format!("tanktable-lab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, games_csv, saved) = (
        dir.join("sum.csv"),
        dir.join("games.csv"),
        dir.join("forest.ron"),
    );
    let out = tanktable(&[
        "lab",
        "scenarios/battle.ron",
        "--set",
        "firing.forest_penalty=2",
        "--name",
        "Thick forest",
        "--save-variant",
        saved.to_str().unwrap(),
        "-n",
        "40",
        "--csv",
        csv.to_str().unwrap(),
        "--games-csv",
        games_csv.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(summary.lines().count(), 1 + 2 * 2, "{summary}");
    assert!(summary.contains("Thick forest,Blue,40,"), "{summary}");
    assert_eq!(
        std::fs::read_to_string(&games_csv).unwrap().lines().count(),
        1 + 2 * 40
    );
    // The saved variant checks, names its setup, and changes exactly one field.
    let check = tanktable(&["check", saved.to_str().unwrap()]);
    assert!(check.status.success(), "{}", text(&check.stderr));
    let v = VariantFile::parse(&saved, &std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(
        v.changes,
        BTreeMap::from([("firing.forest_penalty".to_string(), "2".to_string())])
    );
    let rules = TankCommander::load_rules(None).unwrap();
    let base =
        playable::load_setup::<TankCommander>(&v.setup_path(&saved).unwrap(), &rules).unwrap();
    let tuned = lab::variant::apply::<TankCommander>(&base, &v.changes).unwrap();
    let mut want = base.rules.clone();
    want.firing.forest_penalty = 2;
    assert_eq!(tuned.rules, want);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_variant_gets_every_problem_and_no_run() {
    let dir = std::env::temp_dir().join(format!("tanktable-badlab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ron");
    std::fs::write(
        &bad,
        "LabVariant(\n    game: \"battle-tanks\",\n    name: \"x\",\n    changes: { \"tanks\": \"0\", \"nope\": \"1\" },\n)\n",
    )
    .unwrap();
    let out = tanktable(&["check", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("tanks: each arsenal needs at least 1 Tank")
            && err.contains("no number or switch `nope`"),
        "{err}"
    );
    assert!(err.contains("bad.ron:4:"), "placed at the changes: {err}");
    let out = tanktable(&["lab", bad.to_str().unwrap(), "-n", "5"]);
    assert!(!out.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sweep_and_what_if_run_from_the_command_line() {
    let out = tanktable(&[
        "lab",
        "scenarios/range-duel/default.ron",
        "--sweep",
        "rules.turn_limit=6..12:3",
        "-n",
        "60",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["arms"].as_array().unwrap().len(), 4);
    assert!(
        report["balanced"]
            .as_str()
            .unwrap()
            .starts_with("rules.turn_limit = ")
    );
    // What if: a record of a bot game, the position after its 10th action.
    let dir = std::env::temp_dir().join(format!("tanktable-whatif-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.ron");
    let out = tanktable(&[
        "record",
        "scenarios/skirmish.ron",
        "-o",
        record.to_str().unwrap(),
        "--seed",
        "3",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let before = std::fs::read(&record).unwrap();
    let branch = dir.join("branch.ron");
    let out = tanktable(&[
        "lab",
        record.to_str().unwrap(),
        "--at",
        "10",
        "-n",
        "100",
        "--candidates",
        "3",
        "--branch",
        branch.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.starts_with("After 10 of "), "{said}");
    // The chances now (a line a side), then after each candidate action.
    assert!(
        said.lines().filter(|l| l.contains("% [")).count() > 2,
        "{said}"
    );
    // The original record is untouched; the branch replays to the 10th action.
    assert_eq!(std::fs::read(&record).unwrap(), before);
    let check = tanktable(&["check", branch.to_str().unwrap()]);
    assert!(check.status.success(), "{}", text(&check.stderr));
    assert!(
        text(&check.stdout).contains(", 10 actions"),
        "{}",
        text(&check.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn branching_a_record_leaves_its_hash_unchanged() {
    use tanktable::framework::{Seat, SeatedMatch};
    let rules = TankCommander::load_rules(None).unwrap();
    let setup =
        playable::load_setup::<TankCommander>(&project("scenarios/skirmish.ron"), &rules).unwrap();
    let mut m = SeatedMatch::<TankCommander>::new(
        setup,
        "skirmish".into(),
        4,
        vec![Seat::Bot("greedy".into()); 2],
    )
    .unwrap();
    m.autoplay(30).unwrap();
    let original = m.record();
    let text_before = TankCommander::write_record(&original).unwrap();
    let hash_before = original.final_hash.clone();
    // Branch at action 12 and play on with bots: a new game.
    let branched = lab::whatif::branch(&original, 12);
    let mut replay = SeatedMatch::from_record(branched, "branch".into(), true, None).unwrap();
    replay.seek(12).unwrap();
    replay.take_over().unwrap();
    replay
        .set_seat(
            tanktable::framework::PlayerId(0),
            Seat::Bot("greedy".into()),
        )
        .unwrap();
    replay
        .set_seat(
            tanktable::framework::PlayerId(1),
            Seat::Bot("random".into()),
        )
        .unwrap();
    replay.autoplay(20).unwrap();
    assert_eq!(replay.record().actions[..12], original.actions[..12]);
    assert_ne!(replay.record().actions.len(), 12);
    assert_eq!(original.final_hash, hash_before);
    assert_eq!(TankCommander::write_record(&original).unwrap(), text_before);
}

#[test]
fn flags_for_the_other_kind_of_question_and_bad_outputs_are_refused_before_any_game() {
    let out = tanktable(&["lab", "scenarios/skirmish.ron", "--at", "3"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("--at asks what-if of a match record"),
        "{}",
        text(&out.stderr)
    );
    let started = std::time::Instant::now();
    let out = tanktable(&[
        "lab",
        "scenarios/skirmish.ron",
        "-n",
        "100000",
        "--csv",
        "scenarios",
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("cannot write scenarios: not a regular file"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        started.elapsed().as_secs() < 10,
        "refused only after the games"
    );
}

#[test]
fn random_builds_value_every_upgrade_the_same_from_the_command_line_and_the_screen() {
    let out = tanktable(&[
        "lab",
        "scenarios/skirmish.ron",
        "--random-builds",
        "-n",
        "400",
        "--seed",
        "5",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let cli: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let backend =
        lab::any::load(GameKind::TankCommander, &project("scenarios/skirmish.ron")).unwrap();
    assert!(backend.draws().is_some());
    let ask = Ask {
        games: 400,
        seed: 5,
        threads: 1,
        draft: true,
        ..Ask::default()
    };
    let mut running = backend.start(&[], &ask, None).unwrap();
    running.join().unwrap();
    let report = LabReport::build(running.question.clone(), &running.live.snapshot());
    let screen: serde_json::Value = serde_json::from_str(&report.to_json().unwrap()).unwrap();
    assert_eq!(arms(&cli), arms(&screen));
    let taken = cli["arms"][0]["taken"].as_array().unwrap();
    for name in ["engine", "long barrel", "optics", "armor", "air support"] {
        assert!(
            taken.iter().filter(|t| t["name"] == name).count() == 2,
            "{name} is valued for both sides: {taken:?}"
        );
    }
    // A game without choices before play says so, and plays nothing.
    let out = tanktable(&[
        "lab",
        "scenarios/tank-chess/basic-16.ron",
        "--random-builds",
        "-n",
        "5",
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("no choices made before play"),
        "{}",
        text(&out.stderr)
    );
}

/// A run cut into seven shards on the command line, as seven machines would play it,
/// merges into the report the whole run gives, to the last digit; a shard of another
/// seed and a missing shard are refused with a sentence that names them.
#[test]
fn seven_shards_from_the_command_line_merge_into_the_single_run() {
    let dir = std::env::temp_dir().join(format!("tanktable-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let variant = "scenarios/lab/skirmish-tougher-hulls.ron";
    let run = |extra: &[&str]| {
        let mut args = vec!["lab", variant, "-n", "70", "--seed", "3", "--threads", "2"];
        args.extend_from_slice(extra);
        let out = tanktable(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        out
    };
    let single = run(&["--json"]);
    let mut files = Vec::new();
    for i in 1..=7 {
        let file = dir.join(format!("part{i}.json"));
        run(&[
            "--shard",
            &format!("{i}/7"),
            "--out",
            file.to_str().unwrap(),
        ]);
        files.push(file.to_str().unwrap().to_string());
    }
    let merge = |files: &[String]| {
        let mut args = vec!["lab", "merge", "--json"];
        args.extend(files.iter().map(String::as_str));
        tanktable(&args)
    };
    let merged = merge(&files);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    assert_eq!(text(&merged.stdout), text(&single.stdout));
    // Part 4 of another seed, then no part 4 at all.
    let other = dir.join("other4.json");
    let mut args = vec![
        "lab", variant, "-n", "70", "--seed", "4", "--shard", "4/7", "--out",
    ];
    args.push(other.to_str().unwrap());
    assert!(tanktable(&args).status.success());
    let mut mixed = files.clone();
    mixed[3] = other.to_str().unwrap().to_string();
    let refused = merge(&mixed);
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("is a shard of another run")
            && text(&refused.stderr).contains("seed is 4, not 3"),
        "{}",
        text(&refused.stderr)
    );
    let mut short = files.clone();
    short.remove(3);
    let refused = merge(&short);
    assert!(
        text(&refused.stderr).contains("shard 4 of 7 is missing (given: 1, 2, 3, 5, 6, 7)"),
        "{}",
        text(&refused.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_sequential_question_stops_once_answered_and_odd_asks_are_refused() {
    let variant = "scenarios/lab/skirmish-tougher-hulls.ron";
    let out = tanktable(&[
        "lab",
        variant,
        "-n",
        "20000",
        "--sprt",
        "5",
        "--sprt-seat",
        "Red",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let reading = &report["sprt"]["reading"];
    assert_eq!(reading["answer"], "Lowers", "{}", report["sprt"]);
    let games = report["arms"][1]["games"].as_u64().unwrap();
    assert!(games < 2000, "{games} games a variant");
    assert_eq!(games, 2 * reading["seeds"].as_u64().unwrap());
    assert!(report["arms"][1]["paired"]["per_seed"] == 2);
    for (args, why) in [
        (&["--sprt", "5", "--unpaired"][..], "leave out --unpaired"),
        (
            &["--sprt", "5", "--sweep", "tank.hull=4..6"][..],
            "A/B question",
        ),
        (&["--sprt", "5", "--sprt-seat", "Green"][..], "(Blue, Red)"),
        (&["--sprt", "0"][..], "between 0 and 100"),
        (&["--sprt-seat", "Red"][..], "give --sprt POINTS"),
    ] {
        let mut all = vec!["lab", variant, "-n", "10"];
        all.extend_from_slice(args);
        let out = tanktable(&all);
        assert!(!out.status.success(), "{args:?}");
        assert!(
            text(&out.stderr).contains(why),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}
