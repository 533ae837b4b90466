//! CPU time per frame of the client's own logic systems (session, mirror, highlights)
//! with 40 units on a 30×30 board, headless under `MinimalPlugins`.
use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tanktable::client::games::tank_commander::highlights::{Hovered, Selection};
use tanktable::client::headless_app;
use tanktable::client::session::{Order, Session, insert_session};
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

fn frames(c: &mut Criterion) {
    let rules = Rules::builtin();
    let scenario = big_scenario(&rules);
    let battle = Battle { scenario, rules };
    let seated = SeatedMatch::<TankCommander>::new(battle, "big".into(), 1, Vec::new()).unwrap();
    let scratch = std::env::temp_dir().join("tanktable-bench");
    let mut app = headless_app(None, scratch);
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
    app.update();
    let hexes: Vec<_> = app
        .world()
        .resource::<Session<TankCommander>>()
        .state()
        .board()
        .hexes()
        .collect();

    let mut group = c.benchmark_group("client frame, 40 units on 30x30");
    // The baseline: Bevy's own cost of a frame with no systems of ours.
    let mut empty = bevy::app::App::new();
    empty.add_plugins(bevy::MinimalPlugins);
    group.bench_function("empty MinimalPlugins app (baseline)", |b| {
        b.iter(|| empty.update());
    });
    group.bench_function("idle", |b| {
        b.iter(|| app.update());
    });
    let mut i = 0;
    group.bench_function("pointer moves to a new hex", |b| {
        b.iter(|| {
            i = (i + 37) % hexes.len();
            app.world_mut().resource_mut::<Hovered>().0 = Some(hexes[i]);
            app.update();
        });
    });
    group.bench_function("the rules state changed", |b| {
        b.iter(|| {
            app.world_mut()
                .resource_mut::<Session<TankCommander>>()
                .changed();
            app.update();
        });
    });
    group.finish();
    black_box(&app);
}

criterion_group!(benches, frames);
criterion_main!(benches);
