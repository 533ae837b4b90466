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
            rate: if games == 0 { 0.0 } else { f64::from(wins) / f64::from(games) },
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

/// One variant against the base: how much it moves one seat's win rate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    /// The seat whose rate moves most (or the seat the change favours, in a two-seat game).
    pub seat: String,
    /// Points (percent) the change adds to that seat's rate, with its 95% interval.
    pub points: f64,
    pub lo: f64,
    pub hi: f64,
    /// True when the interval leaves out zero.
    pub significant: bool,
    /// The verdict in words: "B favours Red by 4.1 points, 95% CI [2.8, 5.4]: significant".
    pub words: String,
}

/// The verdict on variant `name` with seat rates `b` against the base's `a`. In a game of
/// two seats the change "favours" the seat it helps; with more, the seat it moves most.
#[must_use]
pub fn verdict(name: &str, seats: &[String], a: &[Rate], b: &[Rate]) -> Option<Verdict> {
    let diffs: Vec<(usize, (f64, f64, f64))> = a
        .iter()
        .zip(b)
        .map(|(a, b)| difference(*a, *b))
        .enumerate()
        .collect();
    let (seat, (d, lo, hi)) = if seats.len() == 2 {
        // Seat 1's gain is seat 2's loss (draws aside): name the seat that gains.
        let (i, (d, lo, hi)) = diffs.first().copied()?;
        if d >= 0.0 { (i, (d, lo, hi)) } else { (1, (-d, -hi, -lo)) }
    } else {
        diffs
            .iter()
            .copied()
            .max_by(|x, y| x.1.0.abs().total_cmp(&y.1.0.abs()))?
    };
    let seat_name = seats.get(seat).cloned().unwrap_or_default();
    let significant = lo > 0.0 || hi < 0.0;
    let verb = if seats.len() == 2 {
        format!("favours {seat_name} by")
    } else if d >= 0.0 {
        format!("raises {seat_name}'s win rate by")
    } else {
        format!("lowers {seat_name}'s win rate by")
    };
    let magnitude = if seats.len() == 2 { d } else { d.abs() };
    let (show_lo, show_hi) = if seats.len() == 2 || d >= 0.0 { (lo, hi) } else { (-hi, -lo) };
    let words = format!(
        "{name} {verb} {:.1} points, 95% CI [{:.1}, {:.1}]: {}",
        100.0 * magnitude,
        100.0 * show_lo,
        100.0 * show_hi,
        if significant { "significant" } else { "not significant (could be chance)" }
    );
    Some(Verdict {
        seat: seat_name,
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
        assert!((lo - 0.404).abs() < 0.01 && (hi - 0.596).abs() < 0.01, "{lo} {hi}");
        let (lo, hi) = wilson95(0.0, 10.0);
        assert!(lo == 0.0 && hi > 0.2);
    }

    #[test]
    fn newcombe_matches_the_published_example() {
        // Newcombe (1998), example (a): 56/70 against 48/80 gives 0.2000 [0.0524, 0.3339].
        let (d, lo, hi) = difference(Rate::of(48, 80), Rate::of(56, 70));
        assert!((d - 0.2).abs() < 1e-9);
        assert!((lo - 0.0524).abs() < 0.001 && (hi - 0.3339).abs() < 0.001, "{lo} {hi}");
    }

    #[test]
    fn the_verdict_names_the_favoured_seat() {
        let seats = ["Blue".to_string(), "Red".to_string()];
        let a = [Rate::of(500, 1000), Rate::of(500, 1000)];
        let b = [Rate::of(440, 1000), Rate::of(560, 1000)];
        let v = verdict("B", &seats, &a, &b).unwrap();
        assert_eq!(v.seat, "Red");
        assert!(v.significant);
        assert!(v.words.starts_with("B favours Red by 6.0 points, 95% CI [1.6,"), "{}", v.words);
        let same = verdict("B", &seats, &a, &a).unwrap();
        assert!(!same.significant, "{}", same.words);
    }
}
