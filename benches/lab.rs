//! Speed goals of the playtest lab, on Skirmish (Tank Commander's default battle):
//!
//! - a lab run scales with cores: 400 games (base and one variant) on 2 threads take at
//!   most 1/1.8 of the time on 1 (compare the two figures);
//! - simulate-from-here: 1,000 bot continuations from a position part-way through a
//!   battle in at most 1 s on 2 threads;
//! - a merge of 1,000 shard files (read from their text, checked, added up, reported) in
//!   at most 1 s.
use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use tanktable::framework::playable::{self, Playable};
use tanktable::framework::{Game, Match, MatchRng};
use tanktable::lab::{self, Ask, LabReport, Live, whatif};
use tanktable::rules::tank_commander::TankCommander;

fn skirmish() -> <TankCommander as Playable>::Setup {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/skirmish.ron");
    let rules = TankCommander::load_rules(None).expect("the shipped rules");
    playable::load_setup::<TankCommander>(&path, &rules).expect("the shipped scenario")
}

fn lab_run(c: &mut Criterion) {
    let setup = skirmish();
    let variant = vec![(
        "Tougher hulls".to_string(),
        std::collections::BTreeMap::from([("tank.hull".to_string(), "5".to_string())]),
    )];
    let mut group = c.benchmark_group("lab: 2 x 200 Skirmish games");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    for threads in [1, 2] {
        group.bench_function(format!("{threads} thread(s)"), |b| {
            b.iter(|| {
                let ask = Ask {
                    games: 200,
                    seed: 1,
                    bots: Vec::new(),
                    threads,
                    ..Ask::default()
                };
                let (plan, question) =
                    lab::plan::<TankCommander>(&setup, "skirmish", &variant, &ask)
                        .expect("a valid plan");
                let live = Live::new(plan.arms.len());
                lab::run::<TankCommander>(&plan, &live).expect("the games play");
                black_box(LabReport::build(question, &live.snapshot()))
            });
        });
    }
    group.finish();
}

fn simulate_from_here(c: &mut Criterion) {
    let setup = skirmish();
    let mut m = Match::new(TankCommander::from_setup(&setup).expect("a battle"), 3);
    let mut bots = playable::bots_for::<TankCommander>(&[], 2).expect("greedy bots");
    for _ in 0..8 {
        let p = m.state().to_act()[0];
        let a = bots[p.index()]
            .choose(m.state(), p, &mut MatchRng::new(1))
            .expect("an action");
        m.play(p, &a).expect("legal");
    }
    let mut group = c.benchmark_group("what-if");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    group.bench_function("1,000 Skirmish continuations on 2 threads", |b| {
        b.iter(|| {
            let opts = whatif::Continue {
                games: 1000,
                seed: 9,
                bots: &[],
                threads: 2,
                cancel: None,
                done: None,
            };
            black_box(whatif::simulate_from(m.state(), &opts).expect("the bots play on"))
        });
    });
    group.finish();
}

fn merge_shards(c: &mut Criterion) {
    use lab::shard::{Shard, fingerprint, merge};
    let setup = skirmish();
    let variant = vec![(
        "Tougher hulls".to_string(),
        std::collections::BTreeMap::from([("tank.hull".to_string(), "5".to_string())]),
    )];
    // One real shard (200 games a variant, part 1 of 1,000), as its file holds it; the
    // other 999 are its text under their own part numbers: a shard's size does not grow
    // with its games, so the merge's work is that of 1,000 shards of any size.
    let ask = Ask {
        games: 200_000,
        seed: 1,
        threads: 2,
        paired: true,
        ..Ask::default()
    };
    let (mut plan, question) =
        lab::plan::<TankCommander>(&setup, "skirmish", &variant, &ask).expect("a valid plan");
    plan.shard = Some((1, 1000));
    let live = Live::new(plan.arms.len());
    lab::run::<TankCommander>(&plan, &live).expect("the games play");
    let text = Shard::of((1, 1000), question, fingerprint(&[]), &live.snapshot())
        .to_json()
        .expect("json");
    let texts: Vec<String> = (1..=1000)
        .map(|i| text.replacen("\"part\":1,", &format!("\"part\":{i},"), 1))
        .collect();
    c.bench_function("lab: merge 1,000 shards", |b| {
        b.iter(|| {
            let shards: Vec<(String, Shard)> = texts
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let name = format!("part{i}.json");
                    let shard = Shard::from_json(&name, t).expect("a shard");
                    (name, shard)
                })
                .collect();
            let (question, merged) = merge(&shards).expect("merged");
            black_box(merged.report(question))
        });
    });
}

criterion_group!(benches, lab_run, simulate_from_here, merge_shards);
criterion_main!(benches);
