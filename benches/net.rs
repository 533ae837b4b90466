//! Play across machines, on loopback: how long from a client's order to every other
//! client holding its facts, how many bytes each action costs, and what a host with many
//! connections spends per action.
//!
//! Goals: p99 latency ≤ 2 ms for every game (frame pacing excluded: every loop runs
//! without sleeping); no whole state resent per action once a client is up to date.
//!
//! ```text
//! cargo bench --bench net                 # the table below, then criterion's timing
//! TANKTABLE_NET_ACTIONS=200 cargo bench --bench net   # a quicker table
//! ```
use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use tanktable::framework::playable::load_setup;
use tanktable::framework::{Game, MatchRng, Playable, SeatedMatch};
use tanktable::net::session::{Host, Remote};
use tanktable::net::{Mirror, Room, SeatPlan};
use tanktable::rules::GameKind;
use tanktable::rules::battle_tanks::BattleTanks;
use tanktable::rules::range_duel::RangeDuel;
use tanktable::rules::tank_chess::TankChess;
use tanktable::rules::tank_combat::TankCombat;
use tanktable::rules::tank_commander::TankCommander;

fn setup<G: Playable>(file: &str) -> G::Setup {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let rules = G::load_rules(None).expect("the shipped rules");
    load_setup::<G>(&path, &rules).expect("the shipped setup")
}

/// A host with the first two seats remote (the rest the host's bots) and two clients.
struct Table<G: Playable> {
    host: Host<G>,
    remotes: Vec<Remote<G>>,
}

impl<G: Playable> Table<G> {
    fn open(setup: &G::Setup, seed: u64, watchers: usize) -> Self {
        let n = G::from_setup(setup).expect("starts").player_count();
        let mut plans = vec![SeatPlan::Remote, SeatPlan::Remote];
        plans.resize(n, SeatPlan::Bot(G::bot_names()[0].into()));
        let seated =
            SeatedMatch::new(setup.clone(), "bench".into(), seed, Vec::new()).expect("starts");
        let mut room = Room::new(seated, "BENCH", plans);
        // A bench orders as fast as the host answers, which is the point.
        room.flood = tanktable::net::FloodLimit {
            burst: 1e9,
            per_second: 1e9,
        };
        let host = Host::bind(room, 0, n + watchers).expect("binds");
        let addr = std::net::SocketAddr::from(([127, 0, 0, 1], host.local_addr().port()));
        let remotes = (0..2)
            .map(|i| {
                let mut m = Mirror::joining("BENCH", &format!("p{i}"), None, Some(i), false);
                m.ready(true);
                Remote::connect(addr, m, None, u64::from(i)).expect("connects")
            })
            .collect();
        let mut t = Self { host, remotes };
        t.settle(|t| t.host.room.started() && t.remotes.iter().all(|r| r.mirror.state().is_some()));
        t
    }

    fn pump(&mut self) {
        self.host.tick();
        for r in &mut self.remotes {
            r.tick();
        }
    }

    fn settle(&mut self, done: impl Fn(&Self) -> bool) {
        let start = Instant::now();
        while !done(self) {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the table stalled"
            );
            self.pump();
        }
    }
}

/// Latencies (µs) and bytes per client per action of `actions` client orders.
fn measure<G: Playable>(file: &str, actions: usize) -> (Vec<f64>, Vec<u64>, usize) {
    let setup = setup::<G>(file);
    let mut latencies = Vec::new();
    let mut bytes = Vec::new();
    let mut whole = 0;
    let mut seed = 1;
    let mut bot = G::bot(G::bot_names()[0]).expect("a bot");
    let mut rng = MatchRng::new(7);
    while latencies.len() < actions {
        let mut t = Table::<G>::open(&setup, seed, 0);
        seed += 1;
        while latencies.len() < actions && !t.host.room.over() {
            let Some(i) = t.remotes.iter().position(|r| r.mirror.to_act()) else {
                // The host's bots play, or the table catches up.
                t.pump();
                continue;
            };
            let r = &t.remotes[i];
            let (state, seat) = (
                r.mirror.state().expect("state"),
                r.mirror.seat.expect("seat"),
            );
            let action = bot.choose(state, seat, &mut rng).expect("an action");
            let n = t.host.room.seated.game.history().len() as u32;
            let before: Vec<u64> = t.remotes.iter().map(|r| r.received).collect();
            let start = Instant::now();
            t.remotes[i].mirror.order(&action);
            t.remotes[i].flush();
            t.settle(|t| t.remotes.iter().all(|r| r.mirror.actions > n));
            latencies.push(start.elapsed().as_secs_f64() * 1e6);
            for (r, b) in t.remotes.iter().zip(before) {
                bytes.push(r.received - b);
                whole = whole.max(r.mirror.text().len());
            }
        }
    }
    (latencies, bytes, whole)
}

fn pct<T: Copy + PartialOrd>(v: &mut [T], p: f64) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[i]
}

fn row<G: Playable>(kind: GameKind, actions: usize) {
    let (mut lat, mut bytes, whole) = measure::<G>(kind.default_setup(), actions);
    let (l50, l99) = (pct(&mut lat, 0.5), pct(&mut lat, 0.99));
    let (b50, b99, bmax) = (
        pct(&mut bytes, 0.5),
        pct(&mut bytes, 0.99),
        pct(&mut bytes, 1.0),
    );
    println!(
        "| {:<15} | {:>6} | {:>8.0} | {:>8.0} | {:>6} | {:>6} | {:>7} | {:>7} |",
        kind.title(),
        lat.len(),
        l50,
        l99,
        b50,
        b99,
        bmax,
        whole
    );
}

/// Eight bots at the host, 32 spectators: the host's time per action.
fn crowd(seed: u64, actions_cap: usize) -> (usize, Duration, Duration, usize, usize) {
    let setup = setup::<BattleTanks>("scenarios/battle-tanks/eight-players.ron");
    let n = BattleTanks::from_setup(&setup)
        .expect("starts")
        .player_count();
    let plans = vec![SeatPlan::Bot(BattleTanks::bot_names()[0].into()); n];
    let seated = SeatedMatch::<BattleTanks>::new(setup.clone(), "crowd".into(), seed, Vec::new())
        .expect("starts");
    let mut room = Room::new(seated, "CROWD", plans);
    room.auto_start = false;
    let mut host = Host::bind(room, 0, n + 32).expect("binds");
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], host.local_addr().port()));
    let mut watchers: Vec<Remote<BattleTanks>> = (0..32)
        .map(|i| {
            let m = Mirror::joining("CROWD", &format!("w{i}"), None, None, true);
            Remote::connect(addr, m, None, i).expect("connects")
        })
        .collect();
    let start = Instant::now();
    while watchers
        .iter()
        .any(|w| w.mirror.token.is_none() && w.mirror.code.is_empty())
    {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the crowd did not join"
        );
        host.tick();
        for w in &mut watchers {
            w.tick();
        }
    }
    host.room.start().expect("all seats are bots");
    let mut host_time = Duration::ZERO;
    while !host.room.over() && host.room.seated.game.history().len() < actions_cap {
        let t = Instant::now();
        host.tick();
        host_time += t.elapsed();
        for w in &mut watchers {
            w.tick();
        }
    }
    let played = host.room.seated.game.history().len();
    // The last actions reach every spectator.
    let start = Instant::now();
    while watchers
        .iter()
        .any(|w| (w.mirror.actions as usize) < played)
        && start.elapsed() < Duration::from_secs(10)
    {
        host.tick();
        for w in &mut watchers {
            w.tick();
        }
    }
    // The same game without the network: what the bots and rules alone cost.
    let mut alone = SeatedMatch::<BattleTanks>::new(
        setup,
        "alone".into(),
        seed,
        vec![tanktable::framework::Seat::Bot(BattleTanks::bot_names()[0].into()); n],
    )
    .expect("starts");
    let t = Instant::now();
    while let Some(Ok((p, a))) = alone.bot_choice() {
        alone.play(p, &a).expect("legal");
    }
    let alone_time = t.elapsed();
    let agree = watchers
        .iter()
        .filter(|w| {
            w.mirror.state().map(Game::state_hash)
                == Some(host.room.seated.state().redacted(None).state_hash())
        })
        .count();
    (
        played,
        host_time,
        alone_time,
        alone.game.history().len(),
        agree,
    )
}

/// [`crowd`] over ten games.
fn crowds() {
    let (mut played, mut host, mut alone, mut alone_n, mut agree) =
        (0, Duration::ZERO, Duration::ZERO, 0, 0);
    for seed in 1..=10 {
        let (p, h, a, n, g) = crowd(seed, 100_000);
        played += p;
        host += h;
        alone += a;
        alone_n += n;
        agree += g;
    }
    println!(
        "Battle Tanks, 8 bot seats + 32 spectators, 10 games: {played} actions, host {:.0} µs per action (bots and rules alone: {:.0} µs); {agree}/320 spectators agreed with the host at the end",
        host.as_secs_f64() * 1e6 / played.max(1) as f64,
        alone.as_secs_f64() * 1e6 / alone_n.max(1) as f64
    );
}

fn table() {
    let actions = std::env::var("TANKTABLE_NET_ACTIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    println!(
        "| Game            | orders | p50 µs   | p99 µs   | B p50  | B p99  | B max   | mirror  |"
    );
    println!(
        "|-----------------|--------|----------|----------|--------|--------|---------|---------|"
    );
    row::<TankCommander>(GameKind::TankCommander, actions);
    row::<TankChess>(GameKind::TankChess, actions);
    row::<BattleTanks>(GameKind::BattleTanks, actions);
    row::<TankCombat>(GameKind::TankCombat, actions);
    row::<RangeDuel>(GameKind::RangeDuel, actions);
    crowds();
}

fn round_trip(c: &mut Criterion) {
    let setup = setup::<TankCombat>(GameKind::TankCombat.default_setup());
    let mut bot = TankCombat::bot(TankCombat::bot_names()[0]).expect("a bot");
    let mut rng = MatchRng::new(3);
    let mut seed = 100;
    let mut t = Table::<TankCombat>::open(&setup, seed, 0);
    c.bench_function("Tank Combat: an order to both clients over loopback", |b| {
        b.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                if t.host.room.over() {
                    seed += 1;
                    t = Table::open(&setup, seed, 0);
                }
                let Some(i) = t.remotes.iter().position(|r| r.mirror.to_act()) else {
                    t.pump();
                    continue;
                };
                let r = &t.remotes[i];
                let action = bot
                    .choose(
                        r.mirror.state().expect("state"),
                        r.mirror.seat.expect("seat"),
                        &mut rng,
                    )
                    .expect("an action");
                let n = t.host.room.seated.game.history().len() as u32;
                let start = Instant::now();
                t.remotes[i].mirror.order(&action);
                t.remotes[i].flush();
                t.settle(|t| t.remotes.iter().all(|r| r.mirror.actions > n));
                spent += start.elapsed();
            }
            spent
        });
    });
}

criterion_group!(benches, round_trip);

fn main() {
    table();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
