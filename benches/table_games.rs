//! Speed goals for the three table games: one whole game between heuristic bots, from the
//! shipped default setup. Aim: under 1 ms for Battle Tanks and Tank Combat, so that
//! `tanktable sim` plays thousands a second on one core; under 5 ms for the Range Duel,
//! whose bot plays out 128 sampled combat turns for each decision.
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tanktable::framework::bot::play_out;
use tanktable::framework::playable::load_setup;
use tanktable::framework::rng::derive_seed;
use tanktable::framework::{MatchRng, Playable};
use tanktable::rules::GameKind;

fn one_game<G: Playable>(setup: &G::Setup, seed: u64) -> usize {
    let game = G::from_setup(setup).expect("a valid setup");
    let mut bots: Vec<_> = (0..game.player_count())
        .map(|_| G::bot("heuristic").expect("a heuristic bot"))
        .collect();
    let played = play_out(
        game,
        &mut bots,
        &mut MatchRng::new(seed),
        &mut MatchRng::new(derive_seed(seed, 1)),
        100_000,
        |_, _| {},
    )
    .expect("the bots play to the end");
    played.actions.len()
}

fn bench_game<G: Playable>(c: &mut Criterion, which: GameKind) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(which.default_setup());
    let rules = G::load_rules(None).expect("the shipped rules");
    let setup = load_setup::<G>(&path, &rules).expect("the shipped setup");
    let mut seed = 0;
    c.bench_function(&format!("{}: a whole heuristic game", which.title()), |b| {
        b.iter(|| {
            seed += 1;
            black_box(one_game::<G>(&setup, seed))
        });
    });
}

fn table_games(c: &mut Criterion) {
    for which in [
        GameKind::BattleTanks,
        GameKind::TankCombat,
        GameKind::RangeDuel,
    ] {
        tanktable::dispatch_game!(which, bench_game(c, which));
    }
}

criterion_group!(benches, table_games);
criterion_main!(benches);
