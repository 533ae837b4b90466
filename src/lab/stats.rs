//! Rates with their 95% intervals, the difference of two rates with its interval, and the
//! verdict in plain words.

use serde::Serialize;

/// z for a two-sided 95% interval.
const Z: f64 = 1.959_964;

/// A rate of `wins` in `games`, with its 95% Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rate {
    pub wins: u32,
    pub games: u32,
    pub rate: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Rate {
    /// `wins` of `games`.
    #[must_use]
    pub fn of(wins: u32, games: u32) -> Self {
        let (lo, hi) = wilson95(f64::from(wins), f64::from(games));
        Self {
            wins,
            games,
            rate: if games == 0 {
                0.0
            } else {
                f64::from(wins) / f64::from(games)
            },
            lo,
            hi,
        }
    }
}

/// Wilson score interval for `successes` of `n` at 95%.
#[must_use]
pub fn wilson95(successes: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let p = successes / n;
    let denom = 1.0 + Z * Z / n;
    let centre = (p + Z * Z / (2.0 * n)) / denom;
    let half = Z * ((p * (1.0 - p) / n) + Z * Z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The difference `b − a` of two rates with its 95% interval (Newcombe's hybrid score
/// interval, built from the two Wilson intervals; sound for small counts and rates near 0
/// or 1, where the plain normal interval is not).
#[must_use]
pub fn difference(a: Rate, b: Rate) -> (f64, f64, f64) {
    let d = b.rate - a.rate;
    let lo = d - ((b.rate - b.lo).powi(2) + (a.hi - a.rate).powi(2)).sqrt();
    let hi = d + ((b.hi - b.rate).powi(2) + (a.rate - a.lo).powi(2)).sqrt();
    (d, lo.max(-1.0), hi.min(1.0))
}

/// The mean of paired differences (one per seed: a seat's score with the variant less
/// its score with the base) with its 95% interval, from the differences' own spread
/// (normal; a paired test is sound for the hundreds of seeds a lab question plays). The
/// differences come as whole numbers `k` over `per` games a seed (the score is `k / per`):
/// `n` seeds, the sum of `k` and the sum of `k²`, so that the parts of a run add up to the
/// whole exactly.
#[must_use]
pub fn paired_sums(n: u32, sum: i64, squares: i64, per: u32) -> (f64, f64, f64) {
    let (n, per) = (f64::from(n), f64::from(per.max(1)));
    let (sum, squares) = (sum as f64 / per, squares as f64 / (per * per));
    if n < 2.0 {
        return (if n == 1.0 { sum } else { 0.0 }, -1.0, 1.0);
    }
    let mean = sum / n;
    let variance = ((squares - sum * sum / n) / (n - 1.0)).max(0.0);
    let half = Z * (variance / n).sqrt();
    (mean, (mean - half).max(-1.0), (mean + half).min(1.0))
}

/// One variant against the base: how much it moves one seat's win rate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    /// The seat the change favours (two seats), or whose rate it moves most (more).
    pub seat: String,
    /// The seat whose rate moved most, and by how many points (percent), with its 95%
    /// interval.
    pub moved: String,
    pub points: f64,
    pub lo: f64,
    pub hi: f64,
    /// True when the interval leaves out zero.
    pub significant: bool,
    /// The verdict in words: "B favours Red by 4.1 points, 95% CI [2.8, 5.4]: significant".
    pub words: String,
}

/// The verdict on variant `name` with seat rates `b` against the base's `a`: the seat
/// whose win rate the change moves most, with the interval of that move. In a game of
/// two seats the change "favours" the seat it helps: the one that gains, or the other
/// one when the biggest move is a loss (draws keep the two moves apart).
#[must_use]
pub fn verdict(name: &str, seats: &[String], a: &[Rate], b: &[Rate]) -> Option<Verdict> {
    let moves: Vec<(f64, f64, f64)> = a.iter().zip(b).map(|(a, b)| difference(*a, *b)).collect();
    verdict_of(name, seats, &moves)
}

/// The verdict from each seat's move `(difference, low, high)` as fractions, however the
/// intervals were found (unpaired, or paired seed by seed).
#[must_use]
pub fn verdict_of(name: &str, seats: &[String], moves: &[(f64, f64, f64)]) -> Option<Verdict> {
    let (seat, &(d, lo, hi)) = moves
        .iter()
        .enumerate()
        .max_by(|x, y| x.1.0.abs().total_cmp(&y.1.0.abs()))?;
    let name_of = |i: usize| seats.get(i).cloned().unwrap_or_default();
    let moved = name_of(seat);
    let significant = lo > 0.0 || hi < 0.0;
    let ci = |lo: f64, hi: f64| format!("95% CI [{:.1}, {:.1}]", 100.0 * lo, 100.0 * hi);
    let tail = if significant {
        "significant"
    } else {
        "not significant (could be chance)"
    };
    let (favoured, words) = if d == 0.0 {
        // No seat's rate moved: nothing is favoured, whatever the interval.
        (
            String::new(),
            format!(
                "{name} leaves every seat's win rate where it was, {}: {tail}",
                ci(lo, hi)
            ),
        )
    } else if d > 0.0 {
        let verb = if seats.len() == 2 {
            "favours"
        } else {
            "raises the win rate of"
        };
        (
            moved.clone(),
            format!(
                "{name} {verb} {moved} by {:.1} points, {}: {tail}",
                100.0 * d,
                ci(lo, hi)
            ),
        )
    } else if seats.len() == 2 {
        let other = name_of(1 - seat.min(1));
        (
            other.clone(),
            format!(
                "{name} favours {other}: {moved}'s win rate falls {:.1} points, {}: {tail}",
                -100.0 * d,
                ci(-hi, -lo)
            ),
        )
    } else {
        (
            moved.clone(),
            format!(
                "{name} lowers the win rate of {moved} by {:.1} points, {}: {tail}",
                -100.0 * d,
                ci(-hi, -lo)
            ),
        )
    };
    Some(Verdict {
        seat: favoured,
        moved,
        points: 100.0 * d,
        lo: 100.0 * lo,
        hi: 100.0 * hi,
        significant,
        words,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_brackets_the_rate() {
        let (lo, hi) = wilson95(50.0, 100.0);
        assert!(
            (lo - 0.404).abs() < 0.01 && (hi - 0.596).abs() < 0.01,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson95(0.0, 10.0);
        assert!(lo == 0.0 && hi > 0.2);
    }

    #[test]
    fn newcombe_matches_the_published_example() {
        // Newcombe (1998), example (a): 56/70 against 48/80 gives 0.2000 [0.0524, 0.3339].
        let (d, lo, hi) = difference(Rate::of(48, 80), Rate::of(56, 70));
        assert!((d - 0.2).abs() < 1e-9);
        assert!(
            (lo - 0.0524).abs() < 0.001 && (hi - 0.3339).abs() < 0.001,
            "{lo} {hi}"
        );
    }

    #[test]
    fn the_paired_interval_is_the_mean_plus_or_minus_z_standard_errors() {
        // Differences 1, 0, 0, 0 repeated: mean 0.25, sample variance 0.25 · 0.75 · n/(n-1).
        let (d, lo, hi) = paired_sums(400, 100, 100, 1);
        let half = Z * (0.1875 * 400.0 / 399.0 / 400.0f64).sqrt();
        assert!((d - 0.25).abs() < 1e-12);
        assert!(
            (hi - d - half).abs() < 1e-12 && (d - lo - half).abs() < 1e-12,
            "{lo} {hi}"
        );
        assert_eq!(paired_sums(0, 0, 0, 1), (0.0, -1.0, 1.0));
        // Over two games a seed, the same differences counted in halves.
        assert_eq!(paired_sums(400, 200, 400, 2), (d, lo, hi));
    }

    #[test]
    fn the_verdict_names_the_favoured_seat() {
        let seats = ["Blue".to_string(), "Red".to_string()];
        let a = [Rate::of(500, 1000), Rate::of(500, 1000)];
        let b = [Rate::of(440, 1000), Rate::of(560, 1000)];
        let v = verdict("B", &seats, &a, &b).unwrap();
        assert_eq!(v.seat, "Red");
        assert!(v.significant);
        assert!(
            v.words
                .starts_with("B favours Red by 6.0 points, 95% CI [1.6,"),
            "{}",
            v.words
        );
        // With draws, a loss of one seat is not the other's gain: the bigger move speaks.
        let c = [Rate::of(500, 1000), Rate::of(420, 1000)];
        let v = verdict("C", &seats, &a, &c).unwrap();
        assert_eq!((v.seat.as_str(), v.moved.as_str()), ("Blue", "Red"));
        assert!(
            v.words
                .starts_with("C favours Blue: Red's win rate falls 8.0 points, 95% CI [3."),
            "{}",
            v.words
        );
        let same = verdict("B", &seats, &a, &a).unwrap();
        assert!(!same.significant, "{}", same.words);
        assert!(
            same.words
                .starts_with("B leaves every seat's win rate where it was, 95% CI"),
            "{}",
            same.words
        );
        assert_eq!(same.seat, "");
    }
}
