//! What a variant's games add up to: every count the report is built from, in whole
//! numbers only. Sums of disjoint sets of games add up to the sums of all of them exactly,
//! whatever the order, so a shard can carry its sums instead of its games (a few
//! kilobytes however many games it played) and the merge of the parts gives the whole
//! run's report to the last digit.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::coverage::{Count, RuleRef, applies};
use super::report::Question;
use super::run::{GameResult, Pairing, seed_of};

/// One variant's sums.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ArmSums {
    pub games: u32,
    /// Wins by seat.
    pub wins: Vec<u32>,
    pub no_winner: u32,
    /// Games by length in rounds.
    #[serde(with = "entries")]
    pub lengths: BTreeMap<u32, u32>,
    pub rounds: u64,
    pub actions: u64,
    /// Games someone won where chance decided the first mover, and the first mover's wins.
    pub first: [u32; 2],
    /// (seat, piece) → [lasted games, lasted wins, lost games, lost wins].
    #[serde(with = "entries")]
    pub pieces: BTreeMap<(u8, String), [u32; 4]>,
    /// (seat, choice) → [games taken, wins when taken].
    #[serde(with = "entries")]
    pub taken: BTreeMap<(u8, String), [u32; 2]>,
    #[serde(with = "entries")]
    pub losses: BTreeMap<[i32; 2], u32>,
    #[serde(with = "entries")]
    pub counts: BTreeMap<String, u32>,
    pub board: Option<[i32; 2]>,
    /// Whether any game had seats with labels of their own (or more than two seats).
    pub labelled: bool,
    /// (row, column) → [games, row's wins over column].
    #[serde(with = "entries")]
    pub matchups: BTreeMap<(String, String), [u32; 2]>,
    pub coverage: Count,
    /// Per changed field of the question, the games that applied its counted rules.
    #[serde(with = "entries")]
    pub applied: BTreeMap<String, u32>,
    /// Games whose winners differ from the base's game of the same number.
    pub turned: u32,
    /// Paired games: the seeds the base and this variant both played in full, and per
    /// seat the sum of the differences of its wins on a seed (variant less base) and of
    /// their squares.
    pub seeds: u32,
    pub paired: Vec<[i64; 2]>,
}

impl ArmSums {
    fn new(seats: usize) -> Self {
        Self {
            wins: vec![0; seats],
            ..Self::default()
        }
    }

    /// Adds one game of a game with `seat_names`.
    fn add(&mut self, g: &GameResult, seat_names: &[String]) {
        let won = |seat: u8| g.winners.contains(&seat);
        self.games += 1;
        for &w in &g.winners {
            if let Some(c) = self.wins.get_mut(usize::from(w)) {
                *c += 1;
            }
        }
        if g.winners.is_empty() {
            self.no_winner += 1;
        }
        *self.lengths.entry(g.rounds).or_default() += 1;
        self.rounds += u64::from(g.rounds);
        self.actions += u64::from(g.actions);
        if let Some(f) = g.first
            && !g.winners.is_empty()
        {
            self.first[0] += 1;
            self.first[1] += u32::from(won(f));
        }
        for (seat, name) in &g.tally.taken {
            let e = self.taken.entry((*seat, name.clone())).or_default();
            e[0] += 1;
            e[1] += u32::from(won(*seat));
        }
        for p in &g.tally.pieces {
            let e = self.pieces.entry((p.seat, p.name.clone())).or_default();
            let i = if p.lasted { 0 } else { 2 };
            e[i] += 1;
            e[i + 1] += u32::from(won(p.seat));
        }
        for spot in &g.tally.losses {
            *self.losses.entry(*spot).or_default() += 1;
        }
        for c in &g.tally.counts {
            *self.counts.entry(c.clone()).or_default() += 1;
        }
        self.board = self.board.or(g.tally.board);
        // Seats with labels of their own (classes), or many seats: who beat whom.
        let own_labels = g.labels.len() > 2
            || g.labels
                .iter()
                .zip(seat_names)
                .any(|(l, s)| !s.contains(l.as_str()));
        if own_labels {
            self.labelled = true;
            let seat = |i: usize| u8::try_from(i).unwrap_or(u8::MAX);
            for (i, row) in g.labels.iter().enumerate() {
                for (j, col) in g.labels.iter().enumerate() {
                    if i == j {
                        continue;
                    }
                    let e = self.matchups.entry((row.clone(), col.clone())).or_default();
                    e[0] += 1;
                    e[1] += u32::from(won(seat(i)) && !won(seat(j)));
                }
            }
        }
        self.coverage.add(&g.tally);
    }

    /// Both sums together.
    pub fn merge(&mut self, other: &Self) {
        fn add<K: Ord + Clone, const N: usize>(
            to: &mut BTreeMap<K, [u32; N]>,
            from: &BTreeMap<K, [u32; N]>,
        ) {
            for (k, v) in from {
                let e = to.entry(k.clone()).or_insert([0; N]);
                for (a, b) in e.iter_mut().zip(v) {
                    *a += b;
                }
            }
        }
        fn add_one<K: Ord + Clone>(to: &mut BTreeMap<K, u32>, from: &BTreeMap<K, u32>) {
            for (k, v) in from {
                *to.entry(k.clone()).or_default() += v;
            }
        }
        self.games += other.games;
        if self.wins.len() < other.wins.len() {
            self.wins.resize(other.wins.len(), 0);
        }
        for (a, b) in self.wins.iter_mut().zip(&other.wins) {
            *a += b;
        }
        self.no_winner += other.no_winner;
        add_one(&mut self.lengths, &other.lengths);
        self.rounds += other.rounds;
        self.actions += other.actions;
        self.first[0] += other.first[0];
        self.first[1] += other.first[1];
        add(&mut self.pieces, &other.pieces);
        add(&mut self.taken, &other.taken);
        add_one(&mut self.losses, &other.losses);
        add_one(&mut self.counts, &other.counts);
        self.board = self.board.or(other.board);
        self.labelled |= other.labelled;
        add(&mut self.matchups, &other.matchups);
        self.coverage = std::mem::take(&mut self.coverage).merge(other.coverage.clone());
        add_one(&mut self.applied, &other.applied);
        self.turned += other.turned;
        self.seeds += other.seeds;
        if self.paired.len() < other.paired.len() {
            self.paired.resize(other.paired.len(), [0; 2]);
        }
        for (a, b) in self.paired.iter_mut().zip(&other.paired) {
            a[0] += b[0];
            a[1] += b[1];
        }
    }
}

/// The sums of every variant of `question` over `games` (any order).
#[must_use]
pub fn of(question: &Question, games: &[&GameResult]) -> Vec<ArmSums> {
    let seats = question.seats.len();
    let fields: Vec<(&String, Vec<&RuleRef>)> = question
        .field_rules
        .iter()
        .map(|(field, refs)| (field, refs.iter().filter(|r| r.counted).collect()))
        .collect();
    let mut arms: Vec<ArmSums> = question.arms.iter().map(|_| ArmSums::new(seats)).collect();
    let base: BTreeMap<u32, &Vec<u8>> = games
        .iter()
        .filter(|g| g.arm == 0)
        .map(|g| (g.index, &g.winners))
        .collect();
    for g in games {
        let Some(arm) = arms.get_mut(usize::from(g.arm)) else {
            continue;
        };
        arm.add(g, &question.seats);
        for (field, refs) in &fields {
            if applies(refs, g) {
                *arm.applied.entry((*field).clone()).or_default() += 1;
            }
        }
        if g.arm > 0 && base.get(&g.index).is_some_and(|b| **b != g.winners) {
            arm.turned += 1;
        }
    }
    if question.pairing.is_some() {
        for (i, arm) in arms.iter_mut().enumerate().skip(1) {
            let diffs = seed_differences(question, games, u16::try_from(i).unwrap_or(u16::MAX));
            arm.seeds = u32::try_from(diffs.len()).unwrap_or(u32::MAX);
            arm.paired = (0..seats)
                .map(|s| {
                    diffs.iter().fold([0i64; 2], |[sum, squares], (_, d)| {
                        let k = i64::from(d[s]);
                        [sum + k, squares + k * k]
                    })
                })
                .collect();
        }
    }
    arms
}

/// For each seed that the base and variant `arm` both played in full, the seed's number
/// and each seat's wins on it with the variant less its wins with the base (over the
/// seed's games: one, or two with twins), in seed order.
#[must_use]
pub fn seed_differences(
    question: &Question,
    games: &[&GameResult],
    arm: u16,
) -> Vec<(u32, Vec<i32>)> {
    let per = Pairing::per_seed(question.pairing);
    let seats = question.seats.len();
    // (is the variant, seed) → (games, wins by seat)
    let mut scores: BTreeMap<(bool, u32), (u32, Vec<i32>)> = BTreeMap::new();
    for g in games.iter().filter(|g| g.arm == 0 || g.arm == arm) {
        let (seed, _) = seed_of(g.index, question.pairing);
        let e = scores
            .entry((g.arm == arm, seed))
            .or_insert_with(|| (0, vec![0; seats]));
        e.0 += 1;
        for &w in &g.winners {
            if let Some(c) = e.1.get_mut(usize::from(w)) {
                *c += 1;
            }
        }
    }
    scores
        .iter()
        .filter(|((variant, _), (n, _))| !variant && *n == per)
        .filter_map(|((_, seed), (_, base))| {
            let (n, wins) = scores.get(&(true, *seed))?;
            (*n == per).then(|| (*seed, wins.iter().zip(base).map(|(b, a)| b - a).collect()))
        })
        .collect()
}

/// A map written as a list of `[key, value]` pairs, for keys JSON cannot name.
mod entries {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<K: Serialize, V: Serialize, S: Serializer>(
        map: &BTreeMap<K, V>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(map.iter())
    }

    pub fn deserialize<'de, K, V, D>(deserializer: D) -> Result<BTreeMap<K, V>, D::Error>
    where
        K: Deserialize<'de> + Ord,
        V: Deserialize<'de>,
        D: Deserializer<'de>,
    {
        Vec::<(K, V)>::deserialize(deserializer).map(|v| v.into_iter().collect())
    }
}
