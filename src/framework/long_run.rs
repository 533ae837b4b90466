//! The long property run: random legal play of a game for 10⁶ actions, its invariants
//! checked after every action and every finished match replayed from its record to the
//! same hash. Each game's tests call [`play`] from an ignored test; run them all with
//!
//! ```text
//! cargo test --release --no-default-features --lib long_ -- --ignored --nocapture
//! ```
//!
//! (`TANKTABLE_LONG_ACTIONS` changes the count.)

use std::path::Path;

use super::MatchRng;
use super::playable::{self, Playable, Recorded};

/// Actions the long run plays per game.
pub(crate) fn actions_wanted() -> u64 {
    std::env::var("TANKTABLE_LONG_ACTIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000)
}

/// Plays random legal matches on `setups` in turn until `actions` actions have been
/// played; `check` runs on the state after every action. A match stops at its end or
/// after `cap` actions. Returns the matches and actions played.
///
/// # Panics
/// When an invariant fails, a legal action is refused, a match offers no action while
/// it goes on, or a record does not replay to its match's hash.
pub(crate) fn play<G: Playable>(
    setups: &[G::Setup],
    actions: u64,
    cap: usize,
    check: impl Fn(&G),
) -> (u64, u64) {
    let started = std::time::Instant::now();
    let (mut games, mut played) = (0u64, 0u64);
    while played < actions {
        let seed = games;
        let setup = &setups[usize::try_from(seed).unwrap_or(0) % setups.len()];
        let mut m = playable::start::<G>(setup, seed, &[]).expect("the setup starts");
        let mut pick = MatchRng::new(seed ^ 0x5EED);
        check(m.state());
        while m.state().outcome().is_none() && m.history().len() < cap {
            let player = m.state().to_act()[0];
            let legal = m.state().legal_actions(player);
            assert!(
                !legal.is_empty(),
                "seed {seed}: the match goes on but offers no action"
            );
            let action = legal[pick.pick(legal.len())].clone();
            if let Err(e) = m.play(player, &action) {
                panic!("seed {seed}: the legal action {action:?} was refused: {e}");
            }
            check(m.state());
            played += 1;
        }
        let record = Recorded::of(setup, seed, &[], &[], &m);
        let replayed = if games.is_multiple_of(50) {
            // Now and then through the record's text, as a save would go.
            let rules = G::load_rules(None).expect("the rules read");
            let text = G::write_record(&record).expect("the record writes");
            let read = G::read_record(Path::new("long-run.ron"), &text, &rules)
                .unwrap_or_else(|e| panic!("seed {seed}: the record does not read back: {e}"));
            playable::replay(&read)
        } else {
            playable::replay(&record)
        };
        let replayed = replayed.unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(replayed.state_hash(), m.state_hash(), "seed {seed}");
        games += 1;
    }
    eprintln!(
        "{}: {played} actions in {games} matches, every invariant held and every match replayed ({:.1} s)",
        G::KIND.title(),
        started.elapsed().as_secs_f64()
    );
    (games, played)
}
