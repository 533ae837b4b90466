//! CPU time per frame of the client with 40 units on a 30×30 board: the logic systems
//! alone (headless, under `MinimalPlugins`), and the whole client with no GPU (scenes,
//! panels, labels, picking) beside Bevy's own plugins with a camera.
//!
//! Goals: the whole client's systems at most 0.5 ms a frame above the baseline when idle,
//! and at most 1 ms on a frame where the pointer moves to a new hex.
//!
//! Every app here, the baselines included, runs its schedules with the executor the client
//! picks ([`tanktable::client::pick_executor`]: one thread); `TANKTABLE_EXECUTOR=multi` or
//! `single` compares the two.
use std::fmt::Write as _;
use std::hint::black_box;

use bevy::camera::NormalizedRenderTarget;
use bevy::picking::pointer::{Location, PointerAction, PointerId, PointerInput};
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowRef};
use criterion::{Criterion, criterion_group, criterion_main};
use tanktable::client::core::session::{Order, Session, insert_session};
use tanktable::client::games::tank_commander::hex_to_world;
use tanktable::client::games::tank_commander::highlights::{Hovered, Selection};
use tanktable::client::{headless_app, windowless_app, windowless_baseline};
use tanktable::framework::{Game, PlayerId, SeatedMatch};
use tanktable::grid::HexBoard;
use tanktable::rules::tank_commander::{Action, Battle, Rules, Scenario, TankCommander};

/// A 30×30 board with woods, hills and buildings, and 20 tanks a side.
fn big_scenario(rules: &Rules) -> Scenario {
    let board = HexBoard {
        width: 30,
        height: 30,
    };
    let mut rows = String::new();
    for r in 0..30 {
        let row: String = (0..30)
            .map(|c| match (r * 7 + c * 13) % 23 {
                0 | 1 => 'f',
                2 => 'h',
                3 if (4..26).contains(&r) => 'B',
                4 => 'm',
                _ => '.',
            })
            .collect();
        let _ = write!(rows, "\"{row}\",");
    }
    let mut units = String::new();
    for i in 0..20 {
        let col = tanktable::grid::hex::column_letters(i + 5);
        let _ = write!(
            units,
            "(side: \"Blue\", name: \"Blue {i}\", at: \"{col}{}\", facing: N),",
            28 + i % 2
        );
        let _ = write!(
            units,
            "(side: \"Red\", name: \"Red {i}\", at: \"{col}{}\", facing: S),",
            2 + i % 2
        );
    }
    let text = format!(
        "Scenario(name: \"Big\", board: (width: {}, height: {}), terrain: (rows: [{rows}]), sides: [(name: \"Blue\"), (name: \"Red\")], units: [{units}])",
        board.width, board.height
    );
    Scenario::parse("big.ron", &text, rules).expect("the generated scenario is valid")
}

/// The big battle opened in `app`, its first unit activated and selected.
fn open_big(app: &mut App) {
    let rules = Rules::builtin();
    let battle = Battle {
        scenario: big_scenario(&rules),
        rules,
    };
    let seated = SeatedMatch::<TankCommander>::new(battle, "big".into(), 1, Vec::new()).unwrap();
    insert_session(app.world_mut(), Session::new(seated, None));
    app.update();
    app.update();
    // Activate the first side's first unit so routes, arcs and targets are all worked out.
    let (player, first) = {
        let t = app.world().resource::<Session<TankCommander>>();
        let p: PlayerId = t.state().to_act()[0];
        (p, t.state().pending_units(p).next().unwrap())
    };
    app.world_mut().write_message(Order::<TankCommander>::Play(
        player,
        Action::Activate(first),
    ));
    app.update();
    app.world_mut().resource_mut::<Selection>().unit = Some(first);
    for _ in 0..5 {
        app.update();
    }
}

fn hexes(app: &App) -> Vec<hexx::Hex> {
    app.world()
        .resource::<Session<TankCommander>>()
        .state()
        .board()
        .hexes()
        .collect()
}

/// The logic systems alone (session, mirror, highlights) under `MinimalPlugins`.
fn logic(c: &mut Criterion) {
    let mut app = headless_app(None, std::env::temp_dir().join("tanktable-bench"));
    open_big(&mut app);
    let hexes = hexes(&app);
    let mut group = c.benchmark_group("client logic, 40 units on 30x30");
    let mut empty = App::new();
    empty.add_plugins(bevy::MinimalPlugins);
    tanktable::client::pick_executor(&mut empty);
    group.bench_function("empty MinimalPlugins app (baseline)", |b| {
        b.iter(|| empty.update());
    });
    group.bench_function("idle", |b| b.iter(|| app.update()));
    let mut i = 0;
    group.bench_function("pointer moves to a new hex", |b| {
        b.iter(|| {
            i = (i + 37) % hexes.len();
            app.world_mut().resource_mut::<Hovered>().0 = Some(hexes[i]);
            app.update();
        });
    });
    group.finish();
    black_box(&app);
}

/// The whole client with no GPU: scenes (models gliding, effects, tiles), panels and
/// labels (egui), and picking (the pointer ray-cast against the table), beside Bevy's
/// own plugins with one camera and nothing else.
fn whole_client(c: &mut Criterion) {
    let mut app = windowless_app(std::env::temp_dir().join("tanktable-bench-frame"));
    open_big(&mut app);
    let hexes = hexes(&app);
    // Where each hex is on screen, for the pointer.
    let spots: Vec<Vec2> = {
        let world = app.world_mut();
        let mut cameras = world.query::<(&Camera, &GlobalTransform)>();
        let (camera, eye) = cameras.iter(world).next().expect("a camera");
        hexes
            .iter()
            .filter_map(|h| camera.world_to_viewport(eye, hex_to_world(*h)).ok())
            .filter(|p| p.x > 320.0 && p.x < 940.0 && p.y > 100.0 && p.y < 600.0)
            .collect()
    };
    assert!(
        spots.len() > 50,
        "the board is on screen ({} hexes)",
        spots.len()
    );
    let window = {
        let world = app.world_mut();
        let mut windows = world.query_filtered::<Entity, With<PrimaryWindow>>();
        windows.iter(world).next().expect("a window")
    };
    let target = WindowRef::Primary
        .normalize(Some(window))
        .expect("the primary window");
    let mut baseline = windowless_baseline();
    let mut group =
        c.benchmark_group("client frame, whole client without a GPU, 40 units on 30x30");
    group.bench_function("Bevy's plugins and a camera (baseline)", |b| {
        b.iter(|| baseline.update());
    });
    let counts = |app: &App| {
        app.world()
            .resource::<tanktable::client::frame::redraw::Redraw>()
            .counts
    };
    let before = counts(&app);
    group.bench_function("idle", |b| b.iter(|| app.update()));
    let after = counts(&app);
    eprintln!(
        "idle: panels laid out on {} frames, reused on {}",
        after.0 - before.0,
        after.1 - before.1
    );
    let mut i = 0;
    let mut last = spots[0];
    group.bench_function("pointer moves to a new hex", |b| {
        b.iter(|| {
            i = (i + 37) % spots.len();
            let to = spots[i];
            app.world_mut().write_message(PointerInput::new(
                PointerId::Mouse,
                Location {
                    target: NormalizedRenderTarget::Window(target),
                    position: to,
                },
                PointerAction::Move { delta: to - last },
            ));
            last = to;
            app.update();
        });
    });
    let hovered_counts = counts(&app);
    eprintln!(
        "pointer moves: panels laid out on {} frames, reused on {}",
        hovered_counts.0 - after.0,
        hovered_counts.1 - after.1
    );
    // The same table with panels, labels and highlights hidden (as in previews): what the
    // egui panels and labels cost.
    app.world_mut()
        .insert_resource(tanktable::client::core::Clean);
    app.update();
    let before = counts(&app);
    group.bench_function("idle, panels and labels hidden", |b| {
        b.iter(|| app.update());
    });
    let after = counts(&app);
    eprintln!(
        "idle, hidden: panels laid out on {} frames, reused on {}",
        after.0 - before.0,
        after.1 - before.1
    );
    app.world_mut()
        .remove_resource::<tanktable::client::core::Clean>();
    group.finish();
    let hovered = app.world().resource::<Hovered>().0;
    assert!(
        hovered.is_some(),
        "picking found the hexes under the pointer"
    );
    black_box(&app);
}

criterion_group!(benches, logic, whole_client);
criterion_main!(benches);
