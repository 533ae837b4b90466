//! Hot reload through the real file watcher and loader: a setup or a rules table changed
//! on disk while its game is open, in every game, and the awkward ways a file changes.
//!
//! Each test runs [`child`] in a process of its own whose working directory is a copy of
//! the project's `assets/` and `scenarios/`: the watcher watches the copy, and the
//! project's files are never touched.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use tanktable::client::core::session::{GameClient, Legal, OpenGame, Order, Session};
use tanktable::client::frame::reload::{ChangeAnswer, Trouble, Watch};
use tanktable::client::headless_watching_app;
use tanktable::framework::{PlayerId, Seat};
use tanktable::rules::battle_tanks::BattleTanks;
use tanktable::rules::range_duel::RangeDuel;
use tanktable::rules::tank_chess::TankChess;
use tanktable::rules::tank_combat::TankCombat;
use tanktable::rules::tank_commander::TankCommander;

use crate::project;

/// The variable that tells [`child`] which case to run.
const CASE: &str = "TANKTABLE_RELOAD_CASE";

/// The longest any change may take to show.
const PATIENCE: Duration = Duration::from_secs(20);

/// Runs `case` in a child process on a fresh copy of the project's data files.
fn in_a_copy(case: &str) {
    let dir = std::env::temp_dir().join(format!("tanktable-reload-{}-{case}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for folder in ["assets", "scenarios"] {
        copy_folder(&project(folder), &dir.join(folder));
    }
    let started = Instant::now();
    let data = dir.join("data");
    let output = crate::child_test(
        "reload::child",
        &dir,
        &[(CASE, case.as_ref()), ("TANKTABLE_DATA", data.as_os_str())],
    );
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{out}\n{err}");
    assert!(
        out.contains("CASE DONE"),
        "the case did not run: {out}\n{err}"
    );
    eprintln!("{case}: {:.1} s", started.elapsed().as_secs_f64());
    let _ = std::fs::remove_dir_all(&dir);
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn a_tank_commander_scenario_changed_on_disk() {
    in_a_copy("setup tank-commander");
}

#[test]
fn a_tank_chess_setup_changed_on_disk() {
    in_a_copy("setup tank-chess");
}

#[test]
fn a_battle_tanks_setup_changed_on_disk() {
    in_a_copy("setup battle-tanks");
}

#[test]
fn a_tank_combat_setup_changed_on_disk() {
    in_a_copy("setup tank-combat");
}

#[test]
fn a_range_duel_setup_changed_on_disk() {
    in_a_copy("setup range-duel");
}

#[test]
fn the_tank_commander_rules_table_changed_on_disk() {
    in_a_copy("rules tank-commander");
}

#[test]
fn the_tank_chess_rules_table_changed_on_disk() {
    in_a_copy("rules tank-chess");
}

#[test]
fn the_range_duel_rules_tables_changed_on_disk() {
    in_a_copy("rules range-duel");
}

#[test]
fn a_setup_deleted_while_open() {
    in_a_copy("deleted");
}

#[test]
fn a_setup_renamed_while_open() {
    in_a_copy("renamed");
}

#[test]
fn a_setup_replaced_by_a_folder_while_open() {
    in_a_copy("folder");
}

#[test]
fn a_setup_truncated_to_nothing_while_open() {
    in_a_copy("truncated");
}

#[test]
fn a_setup_written_in_two_steps_while_open() {
    in_a_copy("two steps");
}

#[test]
fn a_setup_changed_ten_times_within_a_second() {
    in_a_copy("ten changes");
}

/// The child's side of every test here: runs the case named by [`CASE`] in the working
/// directory the parent chose.
#[test]
#[ignore = "the hot reload tests run it in a child process, on a copy of the project"]
fn child() {
    let Ok(case) = std::env::var(CASE) else {
        return;
    };
    match case.as_str() {
        "setup tank-commander" => setup_changes::<TankCommander>("scenarios/skirmish.ron"),
        "setup tank-chess" => setup_changes::<TankChess>("scenarios/tank-chess/basic-16.ron"),
        "setup battle-tanks" => setup_changes::<BattleTanks>(BT),
        "setup tank-combat" => setup_changes::<TankCombat>("scenarios/tank-combat/default.ron"),
        "setup range-duel" => setup_changes::<RangeDuel>(RD),
        "rules tank-commander" => rules_changes::<TankCommander>(
            "scenarios/skirmish.ron",
            "assets/rules/tank-commander.ron",
            (
                "gun_range: 6,",
                &["gun_range: 5,", "gun_range: 7,", "gun_range: 8,"],
            ),
            |s| s.setup.rules.tank.gun_range.to_string(),
        ),
        "rules tank-chess" => rules_changes::<TankChess>(
            "scenarios/tank-chess/basic-16.ron",
            "assets/rules/tank-chess.ron",
            (
                "move_limit: 150,",
                &["move_limit: 120,", "move_limit: 90,", "move_limit: 60,"],
            ),
            |s| s.setup.rules.move_limit.to_string(),
        ),
        "rules range-duel" => {
            rules_changes::<RangeDuel>(
                RD,
                "assets/rules/range-duel.ron",
                (
                    "name: \"Adjacent\"",
                    &[
                        "name: \"Point blank\"",
                        "name: \"Touching\"",
                        "name: \"Muzzle to hull\"",
                    ],
                ),
                |s| s.setup.table.bands[0].name.clone(),
            );
            // The duel's tanks are built and fought with Tank Commander's table.
            rules_changes::<RangeDuel>(
                RD,
                "assets/rules/tank-commander.ron",
                (
                    "gun_range: 6,",
                    &["gun_range: 5,", "gun_range: 7,", "gun_range: 8,"],
                ),
                |s| s.setup.tank_rules.tank.gun_range.to_string(),
            );
        }
        "deleted" => deleted(),
        "renamed" => renamed(),
        "folder" => replaced_by_a_folder(),
        "truncated" => truncated(),
        "two steps" => two_steps(),
        "ten changes" => ten_changes(),
        other => panic!("no case {other}"),
    }
    println!("CASE DONE");
}

const BT: &str = "scenarios/battle-tanks/default.ron";
const RD: &str = "scenarios/range-duel/default.ron";

/// Edits that break each file in two or more places.
fn breakage(file: &str) -> &'static [(&'static str, &'static str)] {
    match file {
        "scenarios/skirmish.ron" => &[("at: \"C10\"", "at: \"Q1\"")],
        "scenarios/tank-chess/basic-16.ron" => &[
            ("(kind: TD, at: \"E1\")", "(kind: TD, at: \"Z1\")"),
            ("(kind: HT, at: \"F1\")", "(kind: HT, at: \"F99\")"),
        ],
        BT => &[(
            "players: [\"Ann\", \"Bob\", \"Cat\", \"Dan\"]",
            "players: [\"Ann\", \"Ann\", \"\"]",
        )],
        "scenarios/tank-combat/default.ron" => &[
            (
                "(name: \"Ann\", class: Heavy)",
                "(name: \"\", class: Heavy)",
            ),
            (
                "(name: \"Ben\", class: Medium)",
                "(name: \"\", class: Medium)",
            ),
        ],
        RD => &[
            ("start_range: \"Medium\"", "start_range: \"Nowhere\""),
            ("front: 3, side: 2, rear: 1", "front: 30, side: 2, rear: 1"),
        ],
        "assets/rules/tank-commander.ron" => {
            &[("accuracy: 4,", "accuracy: 9,"), ("hull: 4,", "hull: 0,")]
        }
        "assets/rules/tank-chess.ron" => &[
            ("light: (speed: 5", "light: (speed: 0"),
            ("medium: (speed: 4", "medium: (speed: 0"),
        ],
        "assets/rules/range-duel.ron" => &[
            ("dice: 2,", "dice: 0,"),
            ("(name: \"Close\", hexes: 2,", "(name: \"Close\", hexes: 0,"),
        ],
        other => panic!("no breakage for {other}"),
    }
}

/// `text` with the first `from` replaced by `to`; `from` must be there.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "`{from}` is not in the file");
    text.replacen(from, to, 1)
}

/// `text` broken as [`breakage`] says for `file`.
fn broken(file: &str, text: &str) -> String {
    breakage(file)
        .iter()
        .fold(text.to_string(), |t, (from, to)| edit(&t, from, to))
}

/// A setup's name, as the banner and the menu show it.
fn title<G: GameClient>(session: &Session<G>) -> String {
    G::setup_title(&session.setup).0
}

/// The file's own name (its first `name: "…"`), renamed to `new`.
fn renamed_to(text: &str, new: &str) -> String {
    let old = text
        .split("name: \"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    edit(
        text,
        &format!("name: \"{old}\""),
        &format!("name: \"{new}\""),
    )
}

/// A setup file changed on disk: taken up at once, offered once something was played
/// (both answers), and refused with every problem when broken.
fn setup_changes<G: GameClient>(file: &str) {
    let original = std::fs::read_to_string(file).unwrap();
    let versions: Vec<String> = (1..=3)
        .map(|n| renamed_to(&original, &format!("Changed {n}")))
        .collect();
    let read = |s: &Session<G>| title(s);
    three_cases::<G>(file, file, &original, &versions, &read);
}

/// A rules table changed on disk while a game of its own is open: the same three cases,
/// the change read back from the setup the table plays with.
fn rules_changes<G: GameClient>(
    setup: &str,
    table: &str,
    (from, to): (&str, &[&str]),
    read: fn(&Session<G>) -> String,
) {
    let original = std::fs::read_to_string(table).unwrap();
    let versions: Vec<String> = to.iter().map(|t| edit(&original, from, t)).collect();
    three_cases::<G>(setup, table, &original, &versions, &read);
    // Back as it was, for the next case.
    std::fs::write(table, &original).unwrap();
    settle_watch();
}

/// Gives the watcher time to report a write before the next app starts.
fn settle_watch() {
    std::thread::sleep(Duration::from_millis(600));
}

fn three_cases<G: GameClient>(
    setup: &str,
    changed: &str,
    original: &str,
    versions: &[String],
    read: &dyn Fn(&Session<G>) -> String,
) {
    let mut app = open::<G>(setup);
    let before = read(session::<G>(&app));
    let first = session::<G>(&app).generation;

    // Nothing played yet: the change is taken up at once, with the same seed.
    let seed = session::<G>(&app).seed;
    std::fs::write(changed, &versions[0]).unwrap();
    wait(&mut app, "the first change", |app| {
        read(session::<G>(app)) != before
    });
    let s = session::<G>(&app);
    let taken = read(s);
    assert_ne!(s.generation, first);
    assert!(s.game.history().is_empty());
    assert_eq!(s.seed, seed);
    assert_eq!(watch(&app).trouble(), Trouble::None);
    println!("{changed}: taken up at once: {before} -> {taken}");

    // A broken change: every problem listed at file:line:col, the game goes on.
    let generation = s.generation;
    std::fs::write(changed, broken(changed, &versions[0])).unwrap();
    wait(&mut app, "the problems", |app| {
        watch(app).trouble() == Trouble::Problems
    });
    let problems = watch(&app).problems().to_vec();
    let name = Path::new(changed).file_name().unwrap().to_string_lossy();
    assert!(problems.len() >= 2, "{problems:?}");
    for line in &problems {
        assert!(placed_in(line, &name), "not at {name}:line:col: {line}");
    }
    let s = session::<G>(&app);
    assert_eq!(s.generation, generation, "the game goes on");
    assert_eq!(read(s), taken);
    println!("{changed}: broken: {problems:?}");
    // Mended back to the version on the table: the panel goes, nothing restarts.
    std::fs::write(changed, &versions[0]).unwrap();
    wait(&mut app, "the panel to go", |app| {
        watch(app).trouble() == Trouble::None
    });
    assert_eq!(session::<G>(&app).generation, generation);

    // Something played: the players are asked; keeping goes on with the old version.
    play_one::<G>(&mut app);
    let played = session::<G>(&app).game.history().len();
    // A bot in the last seat, frozen with the clock, shows the seats carried over.
    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    let last = PlayerId(u8::try_from(session::<G>(&app).seats.len() - 1).unwrap());
    order::<G>(&mut app, Order::Sit(last, Seat::Bot("random".into())));
    let seats = session::<G>(&app).seats.clone();
    assert_eq!(seats.last(), Some(&Seat::Bot("random".into())));
    std::fs::write(changed, &versions[1]).unwrap();
    wait(&mut app, "the question", |app| watch(app).asking());
    app.world_mut().write_message(ChangeAnswer::Keep);
    app.update();
    let s = session::<G>(&app);
    assert!(!watch(&app).asking());
    assert_eq!(s.generation, generation, "kept");
    assert_eq!(s.game.history().len(), played);
    assert_eq!(read(s), taken);
    // Not asked again for the same version.
    for _ in 0..30 {
        app.update();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!watch(&app).asking());

    // A newer version: asked again; restarting plays it with the same seats and seed.
    std::fs::write(changed, &versions[2]).unwrap();
    wait(&mut app, "the second question", |app| watch(app).asking());
    app.world_mut().write_message(ChangeAnswer::Restart);
    wait(&mut app, "the restart", |app| {
        session::<G>(app).generation != generation
    });
    let s = session::<G>(&app);
    assert_ne!(read(s), taken);
    assert_eq!(s.seats, seats);
    assert_eq!(s.seed, seed);
    assert!(s.game.history().is_empty());
    println!(
        "{changed}: asked, kept, asked again, restarted as {}",
        read(s)
    );
    assert!(!watch(&app).asking());
    drop(app);
    std::fs::write(changed, original).unwrap();
    settle_watch();
}

/// Whether `line` is a problem placed as `…name:line:col: what`.
fn placed_in(line: &str, name: &str) -> bool {
    let Some((_, rest)) = line.split_once(&format!("{name}:")) else {
        return false;
    };
    let mut parts = rest.splitn(3, ':');
    let number =
        |p: Option<&str>| p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    number(parts.next()) && number(parts.next()) && parts.next().is_some_and(|p| p.len() > 1)
}

/// A watching app with game `G` open on `file`, every seat a person.
fn open<G: GameClient>(file: &str) -> App {
    let data = PathBuf::from(std::env::var_os("TANKTABLE_DATA").unwrap());
    let mut app = headless_watching_app(Some(OpenGame::file(file)), data.join("saves"));
    wait(&mut app, "the game to open and its file to load", |app| {
        app.world().get_resource::<Session<G>>().is_some()
    });
    // The watch loads the file as an asset the frame after the session opens.
    for _ in 0..20 {
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
    app
}

fn session<G: GameClient>(app: &App) -> &Session<G> {
    app.world().resource::<Session<G>>()
}

fn watch(app: &App) -> &Watch {
    app.world().resource::<Watch>()
}

fn order<G: GameClient>(app: &mut App, order: Order<G>) {
    app.world_mut().write_message(order);
    app.update();
}

/// Plays the first legal action of a person who may act.
fn play_one<G: GameClient>(app: &mut App) {
    let start = Instant::now();
    while session::<G>(app).game.history().is_empty() {
        assert!(start.elapsed() < PATIENCE, "nobody could act");
        if session::<G>(app).pass_to.is_some() {
            order::<G>(app, Order::Reveal);
        }
        if session::<G>(app).held.is_some() {
            order::<G>(app, Order::Begin);
        }
        let legal = app.world().resource::<Legal<G>>();
        let pick = legal
            .by_player
            .iter()
            .find_map(|(p, actions)| Some((*p, actions.first()?.clone())));
        if let Some((player, action)) = pick {
            order::<G>(app, Order::Play(player, action));
        }
        app.update();
    }
}

/// Updates the app until `done`, at most [`PATIENCE`].
fn wait(app: &mut App, what: &str, done: impl Fn(&App) -> bool) {
    let start = Instant::now();
    while !done(app) {
        assert!(
            start.elapsed() < PATIENCE,
            "waited {PATIENCE:?} for {what}; the panel says {:?} {:?}",
            watch(app).trouble(),
            watch(app).problems()
        );
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Updates the app for `seconds`, calling `each` after every frame.
fn run_for(app: &mut App, seconds: f64, mut each: impl FnMut(&App)) {
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < seconds {
        app.update();
        each(app);
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A Battle Tanks game open on its default setup, and the setup's text.
fn bt() -> (App, String) {
    let text = std::fs::read_to_string(BT).unwrap();
    (open::<BattleTanks>(BT), text)
}

fn bt_title(app: &App) -> String {
    title(session::<BattleTanks>(app))
}

/// Deleted: the game goes on and the panel says so; written again, it is followed again.
fn deleted() {
    let (mut app, text) = bt();
    let before = bt_title(&app);
    std::fs::remove_file(BT).unwrap();
    wait(&mut app, "the file to be missed", |app| {
        watch(app).trouble() == Trouble::Gone
    });
    let said = watch(&app).problems().join(" ");
    assert!(said.contains("was deleted"), "{said}");
    assert_eq!(bt_title(&app), before);
    println!("deleted: {said}");
    std::fs::write(BT, renamed_to(&text, "Back again")).unwrap();
    wait(&mut app, "the file back", |app| {
        bt_title(app) == "Back again"
    });
    assert_eq!(watch(&app).trouble(), Trouble::None);
}

/// Renamed: the panel names the new name; renamed back, the panel goes and nothing
/// restarts; another version renamed onto the name is taken up.
fn renamed() {
    let (mut app, text) = bt();
    let generation = session::<BattleTanks>(&app).generation;
    let away = Path::new(BT).with_file_name("renamed.ron");
    std::fs::rename(BT, &away).unwrap();
    wait(&mut app, "the rename", |app| {
        watch(app).trouble() == Trouble::Gone
    });
    let said = watch(&app).problems().join(" ");
    assert!(
        said.contains("was renamed to") && said.contains("renamed.ron"),
        "{said}"
    );
    println!("renamed: {said}");
    std::fs::rename(&away, BT).unwrap();
    wait(&mut app, "the name back", |app| {
        watch(app).trouble() == Trouble::None
    });
    run_for(&mut app, 1.0, |_| {});
    assert_eq!(
        session::<BattleTanks>(&app).generation,
        generation,
        "the same version: no restart"
    );
    // Another file, older than the watcher's wait, renamed onto the name: Bevy's watcher
    // reports a rename, which its asset server does not reload.
    let incoming = Path::new(BT).with_file_name("incoming.ron");
    std::fs::write(&incoming, renamed_to(&text, "Renamed onto it")).unwrap();
    settle_watch();
    std::fs::rename(&incoming, BT).unwrap();
    wait(&mut app, "the version renamed onto the name", |app| {
        bt_title(app) == "Renamed onto it"
    });
}

/// A folder in its place: the game goes on; a file again, and it is taken up.
fn replaced_by_a_folder() {
    let (mut app, text) = bt();
    let before = bt_title(&app);
    std::fs::remove_file(BT).unwrap();
    std::fs::create_dir(BT).unwrap();
    wait(&mut app, "the folder", |app| {
        watch(app).trouble() == Trouble::Gone
    });
    let said = watch(&app).problems().join(" ");
    assert!(said.contains("is a folder now"), "{said}");
    assert_eq!(bt_title(&app), before);
    println!("folder: {said}");
    std::fs::remove_dir(BT).unwrap();
    std::fs::write(BT, renamed_to(&text, "A file again")).unwrap();
    wait(&mut app, "the file again", |app| {
        bt_title(app) == "A file again"
    });
}

/// Emptied: a broken change like any other; written again, it is taken up.
fn truncated() {
    let (mut app, text) = bt();
    let before = bt_title(&app);
    std::fs::File::create(BT).unwrap();
    wait(&mut app, "the empty file's problem", |app| {
        watch(app).trouble() == Trouble::Problems
    });
    let problems = watch(&app).problems().to_vec();
    assert!(
        problems.iter().all(|l| placed_in(l, "default.ron")),
        "{problems:?}"
    );
    assert_eq!(bt_title(&app), before);
    println!("truncated: {problems:?}");
    std::fs::write(BT, renamed_to(&text, "Written again")).unwrap();
    wait(&mut app, "the file written again", |app| {
        bt_title(app) == "Written again"
    });
    assert_eq!(watch(&app).trouble(), Trouble::None);
}

/// A temporary file written beside it and renamed over it, as many editors save (and as
/// this project's own saves do): taken up like a change in place.
fn two_steps() {
    let (mut app, text) = bt();
    let temporary = Path::new(BT).with_file_name(".default.ron.swp");
    std::fs::write(&temporary, renamed_to(&text, "Saved in two steps")).unwrap();
    std::fs::rename(&temporary, BT).unwrap();
    wait(&mut app, "the renamed-over file", |app| {
        bt_title(app) == "Saved in two steps"
    });
    // The project's own atomic write.
    tanktable::data::write_atomic(Path::new(BT), &renamed_to(&text, "Saved atomically")).unwrap();
    wait(&mut app, "the atomic save", |app| {
        bt_title(app) == "Saved atomically"
    });
    assert_eq!(watch(&app).trouble(), Trouble::None);
}

/// Ten writes within a second, two of them half-written: the last version is taken, once,
/// and no panel shows in between.
fn ten_changes() {
    let (mut app, text) = bt();
    let first = session::<BattleTanks>(&app).generation;
    let mut generations = vec![first];
    let mut troubled = Vec::new();
    let mut note = |app: &App| {
        let g = session::<BattleTanks>(app).generation;
        if generations.last() != Some(&g) {
            generations.push(g);
        }
        if watch(app).trouble() != Trouble::None || watch(app).asking() {
            troubled.push(watch(app).problems().to_vec());
        }
    };
    let start = Instant::now();
    let mut first_and_last = (start, start);
    for n in 1..=10 {
        let version = renamed_to(&text, &format!("Version {n}"));
        let written = if n == 3 || n == 7 {
            version[..version.len() / 2].to_string()
        } else {
            version
        };
        std::fs::write(BT, written).unwrap();
        if n == 1 {
            first_and_last.0 = Instant::now();
        }
        first_and_last.1 = Instant::now();
        let due = start + Duration::from_millis(90 * n);
        while Instant::now() < due {
            app.update();
            note(&app);
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    let span = first_and_last.1 - first_and_last.0;
    assert!(
        span < Duration::from_secs(1),
        "the ten writes took {span:?}"
    );
    let wrote = Instant::now();
    while bt_title(&app) != "Version 10" {
        assert!(wrote.elapsed() < PATIENCE, "the last version never came");
        app.update();
        note(&app);
        std::thread::sleep(Duration::from_millis(10));
    }
    println!(
        "ten changes: taken {:.2} s after the last write",
        wrote.elapsed().as_secs_f64()
    );
    run_for(&mut app, 1.0, &mut note);
    assert_eq!(
        generations.len(),
        2,
        "one restart, on the last version: {generations:?}"
    );
    assert!(
        troubled.is_empty(),
        "a panel showed in between: {troubled:?}"
    );
}
