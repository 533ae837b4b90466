//! The heuristic duellist: it weighs each order against every order the enemy might
//! give, playing the turn out on copies of the duel with the enemy's hidden order wiped.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Weak};

use super::action::Action;
use super::resolve::to_hit_number;
use super::{DuelSetup, DuelTank, RangeDuel};
use crate::framework::bot::Bot;
use crate::framework::rng::derive_seed;
use crate::framework::{Game, MatchRng, PlayerId};
use crate::rules::tank_commander::setup::ArmorFacing;

/// Samples of each (own order, enemy order) pair.
const SAMPLES: u64 = 2;

/// A sensible duellist. For each of its orders it plays the coming turn on copies of the
/// duel against each enemy order (the enemy's real order, if already given, is wiped
/// from the copy: the bot sees only what its seat may see), with the same dice for every
/// candidate, and scores the result: hull, crew and knock-outs on both sides, plus how
/// well the new range band suits its gun against the enemy's.
///
/// A decision is a function of what the seat sees (the dice of its weighing are drawn
/// from that too), so each thread keeps the decisions it has weighed: a duel comes back
/// to the same few states game after game, and one weighing plays 288 turns.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicBot;

/// Chance that one shot from `shooter` at band `band` penetrates or wounds `target`.
fn threat(game: &RangeDuel, shooter: PlayerId, target: PlayerId, band: u8) -> f32 {
    let Some(needed) = to_hit_number(&game.setup, game.tank(shooter), band) else {
        return 0.0;
    };
    let strength = game.setup().tank_rules.firing.at_strength;
    let armor = game.tank(target).armor.facing(ArmorFacing::Front);
    let pen = (1..=6u8).filter(|d| d + strength > armor).count();
    let hit = f32::from(7 - needed.clamp(2, 6)) / 6.0;
    hit * (pen as f32 / 6.0 + 0.2)
}

fn value(tank: &DuelTank) -> f32 {
    if tank.knocked_out {
        return -6.0;
    }
    let crew: f32 = tank
        .crew
        .iter()
        .map(|m| match m.wounds {
            0 => 0.35,
            1 => 0.2,
            _ => 0.0,
        })
        .sum();
    f32::from(tank.hull) + crew
}

pub(crate) fn score(game: &RangeDuel, me: PlayerId, foe: PlayerId) -> f32 {
    let position = threat(game, me, foe, game.range()) - threat(game, foe, me, game.range());
    value(game.tank(me)) - value(game.tank(foe)) + 0.5 * position
}

impl Bot<RangeDuel> for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    // The dice of a weighing come from what the seat sees, not from the bot's generator:
    // that is what lets a decision be kept.
    fn choose(
        &mut self,
        game: &RangeDuel,
        player: PlayerId,
        _rng: &mut MatchRng,
    ) -> Option<Action> {
        if !game.to_act().contains(&player) {
            return None;
        }
        let key = (setup_fingerprint(&game.setup), seen_state(game, player));
        if let Some(known) = DECISIONS.with_borrow(|d| d.get(&key).copied()) {
            return known;
        }
        let choice = weigh_orders(game, player, key.1);
        DECISIONS.with_borrow_mut(|d| {
            if d.len() >= DECISIONS_KEPT {
                d.clear();
            }
            d.insert(key, choice);
        });
        choice
    }
}

/// How many decisions a thread keeps before it starts afresh.
const DECISIONS_KEPT: usize = 1 << 18;

thread_local! {
    /// Decisions already weighed, by the setup's fingerprint and what the seat sees of
    /// the duel: the same duel comes back to the same few states again and again, game
    /// after game, and the weighing plays 288 turns.
    static DECISIONS: RefCell<HashMap<(u64, u64), Option<Action>, BuildHasherDefault<Mixer>>> =
        RefCell::new(HashMap::default());
    /// The last setup fingerprinted (held weakly: its address is not reused while held).
    static SETUP: RefCell<Option<(Weak<DuelSetup>, u64)>> = const { RefCell::new(None) };
}

/// Hashes the keys of the kept decisions, which are hashes already: a multiply and a
/// rotate per word rather than SipHash's rounds.
#[derive(Default)]
struct Mixer(u64);

impl Hasher for Mixer {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(26) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// A fingerprint of everything in `setup` (the tanks, the tables, the rules), worked out
/// once per setup.
fn setup_fingerprint(setup: &Arc<DuelSetup>) -> u64 {
    SETUP.with_borrow_mut(|last| {
        if let Some((weak, print)) = last.as_ref()
            && weak.upgrade().is_some_and(|s| Arc::ptr_eq(&s, setup))
        {
            return *print;
        }
        let mut hasher = DefaultHasher::new();
        serde_json::to_string(&**setup)
            .unwrap_or_default()
            .hash(&mut hasher);
        let print = hasher.finish();
        *last = Some((Arc::downgrade(setup), print));
        print
    })
}

/// What `player` sees of the duel that its choice depends on: the range, both tanks'
/// state and what each showed last turn; never the orders given this turn.
fn seen_state(game: &RangeDuel, player: PlayerId) -> u64 {
    let mut h = DefaultHasher::new();
    (player.0, game.range, game.presented, game.hull_down).hash(&mut h);
    for t in &game.tanks {
        (
            t.hull,
            t.loaded,
            t.knocked_out,
            t.medkit_unused,
            t.lieutenant_covers,
        )
            .hash(&mut h);
        for m in &t.crew {
            (m.role, m.wounds, m.treated, m.ability_used, m.veteran).hash(&mut h);
        }
    }
    h.finish()
}

/// Weighs each of `player`'s orders against every enemy order on copies of the duel
/// with the enemy's order wiped, the dice drawn from `seed` (the same for every
/// candidate).
fn weigh_orders(game: &RangeDuel, player: PlayerId, seed: u64) -> Option<Action> {
    let foe = PlayerId(1 - player.0);
    let mut blank = game.clone();
    blank.orders = [None, None];
    // One copy, reset before each turn played on it: nothing is allocated per turn.
    let mut g = blank.clone();
    // The dice of each (enemy order, sample), primed once and cloned for every candidate.
    let dice: Vec<MatchRng> = (0..Action::ALL.len() as u64 * SAMPLES)
        .map(|i| MatchRng::new(derive_seed(seed, i)).primed())
        .collect();
    let mut best: Option<(f32, Action)> = None;
    for mine in Action::offered()
        .into_iter()
        .filter(|a| game.order_problem(player, *a).is_none())
    {
        let mut total = 0.0;
        for (k, theirs) in Action::ALL.into_iter().enumerate() {
            let mut orders = [theirs; 2];
            orders[player.index()] = mine;
            for s in 0..SAMPLES {
                g.copy_play_from(&blank);
                let mut dice = dice[k * SAMPLES as usize + s as usize].clone();
                if g.play_quietly(orders, &mut dice) {
                    total += score(&g, player, foe);
                }
            }
        }
        if best.is_none_or(|(b, _)| total > b) {
            best = Some((total, mine));
        }
    }
    best.map(|(_, a)| a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framework::bot::play_out;
    use crate::rules::range_duel::DuelSetup;

    /// The bot as it was before it kept its decisions: fresh dice for every weighing.
    struct FreshBot;

    impl Bot<RangeDuel> for FreshBot {
        fn name(&self) -> &str {
            "fresh"
        }

        fn choose(
            &mut self,
            game: &RangeDuel,
            player: PlayerId,
            rng: &mut MatchRng,
        ) -> Option<Action> {
            game.to_act()
                .contains(&player)
                .then(|| weigh_orders(game, player, rng.next_u64()))
                .flatten()
        }
    }

    #[test]
    fn a_kept_decision_is_the_one_weighed_and_hides_the_enemys_order() {
        let setup = DuelSetup::builtin_default();
        let mut game = RangeDuel::new(&setup);
        game.begin(&mut MatchRng::new(1));
        let seen = seen_state(&game, PlayerId(0));
        let first = HeuristicBot.choose(&game, PlayerId(0), &mut MatchRng::new(5));
        assert_eq!(first, weigh_orders(&game, PlayerId(0), seen));
        // The enemy's order, given or not, changes neither what the seat sees nor its
        // choice.
        let theirs = Action::HullDown;
        game.apply(PlayerId(1), &theirs, &mut MatchRng::new(2))
            .expect("an order");
        assert_eq!(seen_state(&game, PlayerId(0)), seen);
        assert_eq!(
            HeuristicBot.choose(&game, PlayerId(0), &mut MatchRng::new(6)),
            first
        );
    }

    /// A measurement: the bot that keeps its decisions against the one that weighs every
    /// decision afresh, both seats, `cargo test --release --no-default-features --lib
    /// kept_decisions -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement: cargo test --release --no-default-features --lib kept_decisions -- --ignored --nocapture"]
    fn kept_decisions_play_as_strong_as_fresh_ones() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/range-duel");
        let rules = <RangeDuel as crate::framework::Playable>::load_rules(None).expect("rules");
        let (mut score, mut games) = (0.0, 0);
        for entry in std::fs::read_dir(root).expect("folder") {
            let path = entry.expect("entry").path();
            let setup =
                crate::framework::playable::load_setup::<RangeDuel>(&path, &rules).expect("setup");
            for seed in 0..200u64 {
                for kept_seat in 0..2usize {
                    let mut bots: Vec<Box<dyn Bot<RangeDuel>>> = if kept_seat == 0 {
                        vec![Box::new(HeuristicBot), Box::new(FreshBot)]
                    } else {
                        vec![Box::new(FreshBot), Box::new(HeuristicBot)]
                    };
                    let played = play_out(
                        RangeDuel::new(&setup),
                        &mut bots,
                        &mut MatchRng::new(seed),
                        &mut MatchRng::new(seed ^ 0x5eed),
                        10_000,
                        |_, _| {},
                    )
                    .expect("plays");
                    let winners = played.outcome.map(|o| o.winners).unwrap_or_default();
                    score += if winners.is_empty() {
                        0.5
                    } else if winners.contains(&PlayerId(kept_seat as u8)) {
                        1.0
                    } else {
                        0.0
                    };
                    games += 1;
                }
            }
        }
        let rate = score / f64::from(games);
        println!(
            "kept decisions score {:.1}% over {games} duels",
            100.0 * rate
        );
        assert!((0.47..=0.53).contains(&rate), "{rate}");
    }
}
