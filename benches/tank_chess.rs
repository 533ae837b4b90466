//! Speed goals for Tank Chess: full legal-move generation with announced play's check
//! filtering on a 20×20 middlegame (aim: under 1 ms), reading and replaying a 300-move
//! 20×20 game from its notation (aim: under 1 s), and perft's nodes per second.
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tanktable::framework::bot::{Bot, RandomBot};
use tanktable::framework::playable::{self, Recorded};
use tanktable::framework::{Game, Match, MatchRng, Playable};
use tanktable::rules::tank_chess::bot::{ChessBot, Strength};
use tanktable::rules::tank_chess::{Rules, Scenario, TankChess};

/// The basic 20×20 setup after 30 random moves.
fn middlegame() -> TankChess {
    let rules = Rules::builtin();
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/tank-chess/basic-20.ron");
    let scenario = Scenario::load(&path, &rules).expect("shipped setup");
    let mut m = Match::new(TankChess::new(&scenario, &rules), 7);
    let mut rng = MatchRng::new(7);
    for _ in 0..30 {
        let Some(&side) = m.state().to_act().first() else {
            break;
        };
        let a = RandomBot.choose(m.state(), side, &mut rng).expect("a move");
        m.play(side, &a).expect("legal");
    }
    m.state().clone()
}

fn legal_moves(c: &mut Criterion) {
    let game = middlegame();
    let n = game.legal().len();
    let pseudo = game.pseudo_moves(game.to_move()).len();
    println!("20×20 middlegame: {pseudo} pseudo-legal moves, {n} legal");
    c.bench_function("tank chess legal moves, 20x20 middlegame", |b| {
        b.iter(|| black_box(game.legal()));
    });
    c.bench_function("tank chess pseudo-legal moves, 20x20 middlegame", |b| {
        b.iter(|| black_box(game.pseudo_moves(game.to_move())));
    });
    let mut group = c.benchmark_group("tank chess bot move, 20x20 middlegame");
    group.sample_size(10);
    for strength in [Strength::Cadet, Strength::Commander] {
        group.bench_function(format!("{strength:?}"), |b| {
            b.iter(|| {
                let side = game.to_move();
                black_box(ChessBot(strength).choose(&game, side, &mut MatchRng::new(1)))
            });
        });
    }
    group.finish();
    // The default 16×16 board from the start, where the bot must answer within 2 s.
    let rules = Rules::builtin();
    let start = TankChess::new(&Scenario::builtin_default(&rules), &rules);
    let mut group = c.benchmark_group("tank chess bot move, default 16x16 opening");
    group.sample_size(10);
    group.bench_function("Commander", |b| {
        b.iter(|| {
            black_box(ChessBot(Strength::Commander).choose(
                &start,
                start.to_move(),
                &mut MatchRng::new(1),
            ))
        });
    });
    group.finish();
}

/// A 20×20 game of at least 300 moves between random players, as its record.
fn long_game() -> Recorded<TankChess> {
    let rules = Rules::builtin();
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/tank-chess/basic-20.ron");
    let setup = playable::load_setup::<TankChess>(&path, &rules).expect("shipped setup");
    for seed in 1.. {
        let mut m = playable::start::<TankChess>(&setup, seed, &[]).expect("starts");
        let mut rng = MatchRng::new(seed);
        while m.history().len() < 300 {
            let Some(&side) = m.state().to_act().first() else {
                break;
            };
            let a = RandomBot.choose(m.state(), side, &mut rng).expect("a move");
            m.play(side, &a).expect("legal");
        }
        if m.history().len() >= 300 {
            return Recorded::of(&setup, seed, &[], &[], &m);
        }
    }
    unreachable!("some seed plays 300 moves")
}

fn replay_and_perft(c: &mut Criterion) {
    let record = long_game();
    let text = TankChess::write_record(&record).expect("writes");
    let rules = Rules::builtin();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("game.txt");
    println!(
        "a {}-move 20×20 game, {} bytes of notation",
        record.actions.len(),
        text.len()
    );
    let mut group = c.benchmark_group("tank chess replay");
    group.sample_size(10);
    group.bench_function("read and replay a 300-move 20x20 game", |b| {
        b.iter(|| {
            let read = TankChess::read_record(&path, &text, &rules).expect("reads");
            black_box(playable::replay(&read).expect("replays"))
        });
    });
    group.finish();
    let start = TankChess::new(&Scenario::builtin_default(&rules), &rules);
    let mut group = c.benchmark_group("tank chess perft");
    group.sample_size(10);
    println!("perft 2 from the 16×16 start: {} nodes", start.perft(2));
    group.bench_function("perft 2, default 16x16 start", |b| {
        b.iter(|| black_box(start.perft(2)));
    });
    group.finish();
}

criterion_group!(benches, legal_moves, replay_and_perft);
criterion_main!(benches);
