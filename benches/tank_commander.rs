//! Speed goals for Tank Commander: greedy-bot battles per second and the odds computation.
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tanktable::framework::MatchRng;
use tanktable::framework::bot::{Bot, play_out};
use tanktable::rules::tank_commander::{
    FireTarget, GreedyBot, Round, Rules, Scenario, TankCommander,
};

fn scenario(name: &str, rules: &Rules) -> Scenario {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(name);
    Scenario::load(&path, rules).expect("shipped scenario")
}

fn greedy_battles(c: &mut Criterion) {
    let rules = Rules::builtin();
    let mut group = c.benchmark_group("greedy battle");
    group.throughput(Throughput::Elements(1));
    for name in ["skirmish.ron", "battle.ron"] {
        let scenario = scenario(name, &rules);
        let mut seed = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let game = TankCommander::new(&scenario, &rules).unwrap();
                let mut bots: Vec<Box<dyn Bot<TankCommander>>> =
                    vec![Box::new(GreedyBot), Box::new(GreedyBot)];
                let played = play_out(
                    game,
                    &mut bots,
                    &mut MatchRng::new(seed),
                    &mut MatchRng::new(!seed),
                    100_000,
                    |_, _| {},
                )
                .unwrap();
                black_box(played.outcome)
            });
        });
    }
    group.finish();
}

fn odds(c: &mut Criterion) {
    let rules = Rules::builtin();
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/close-duel.ron");
    let scenario = Scenario::load(&path, &rules).unwrap();
    let game = TankCommander::new(&scenario, &rules).unwrap();
    let shooter = game.unit_named("Striker").unwrap().id;
    let target = FireTarget::Unit(game.unit_named("Bulwark").unwrap().id);
    c.bench_function("odds (profile + exact fractions)", |b| {
        b.iter(|| {
            let p = game
                .shot_profile(black_box(shooter), black_box(target), Round::At, false)
                .unwrap();
            black_box(game.odds(&p))
        });
    });
}

criterion_group!(benches, greedy_battles, odds);
criterion_main!(benches);
