//! Stopping when the answer is known: a sequential probability ratio test (SPRT, as
//! Fishtest runs Stockfish's tests) for "does the variant change this seat's win rate by
//! at least δ points?".
//!
//! The test reads the paired games seed by seed, in seed order: for seed `k` the
//! difference `d_k` of the seat's score (its wins over the seed's games) between the
//! variant and the base. Two one-sided tests run side by side, each of the hypothesis
//! "no change" (mean 0) against "a change of δ" (mean +δ, and mean −δ), with the
//! log-likelihood ratio of normal means (the generalised SPRT, with the variance of the
//! differences estimated from the data):
//!
//! ```text
//! LLR± = n · (±δ · mean − δ² / 2) / variance
//! ```
//!
//! Each side keeps its error below α/2 and β, so its bounds are Wald's
//! `lower = ln(β / (1 − α/2))` and `upper = ln((1 − β) / (α/2))`. Each side stops at
//! the first bound it meets: the answer is *yes* when a side reaches `upper`, *no* once
//! both sides have fallen to `lower`; until then the run goes on, up to the games asked
//! for. The variance is never taken below
//! `δ(1 − δ)`, the least a win-or-lose difference with mean δ has, so a run whose first
//! seeds turned no result cannot answer "no" on a handful of games.

use serde::{Deserialize, Serialize};

/// A sequential test of one A/B question.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// The seat whose win rate the question is about, by name ("Blue").
    pub seat: String,
    /// The smallest change worth knowing, in win-rate points (5: five points).
    pub delta: f64,
    /// The chance of answering "it changes" when it does not (both directions together).
    pub alpha: f64,
    /// The chance of answering "it does not" when it changes by δ.
    pub beta: f64,
}

/// What the test says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer {
    /// The variant raises the seat's win rate by at least δ.
    Raises,
    /// The variant lowers it by at least δ.
    Lowers,
    /// It moves it by less than δ.
    Within,
}

/// The test after the seeds read so far.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reading {
    /// Seeds read: the answer's seed, or every complete seed when there is none yet.
    pub seeds: u32,
    /// The mean difference of the seat's score, in points.
    pub points: f64,
    /// The log-likelihood ratios for a raise and for a fall of δ.
    pub llr_up: f64,
    pub llr_down: f64,
    /// Wald's bounds.
    pub lower: f64,
    pub upper: f64,
    pub answer: Option<Answer>,
}

impl Sprt {
    /// The test with the usual error rates (5% each way).
    #[must_use]
    pub fn new(seat: &str, delta: f64) -> Self {
        Self {
            seat: seat.to_string(),
            delta,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// Whether the test can be asked of a game with these seats.
    ///
    /// # Errors
    /// A sentence for a seat the game does not have, or a δ or error rate out of range.
    pub fn check(&self, seats: &[String]) -> Result<(), String> {
        if !seats.iter().any(|s| s.eq_ignore_ascii_case(&self.seat)) {
            return Err(format!(
                "the sequential test asks about a seat of the game ({}), not `{}`",
                seats.join(", "),
                self.seat
            ));
        }
        if !(self.delta > 0.0 && self.delta < 100.0) {
            return Err(format!(
                "the sequential test's δ is a change in win-rate points between 0 and 100, not {}",
                self.delta
            ));
        }
        for (name, value) in [("α", self.alpha), ("β", self.beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(format!(
                    "the sequential test's {name} is an error rate between 0 and 0.5, not {value}"
                ));
            }
        }
        Ok(())
    }

    /// The seat's place among `seats`.
    #[must_use]
    pub fn seat_index(&self, seats: &[String]) -> Option<usize> {
        seats
            .iter()
            .position(|s| s.eq_ignore_ascii_case(&self.seat))
    }

    /// Wald's bounds `(lower, upper)` for each of the two one-sided tests.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        let alpha = self.alpha / 2.0;
        (
            (self.beta / (1.0 - alpha)).ln(),
            ((1.0 - self.beta) / alpha).ln(),
        )
    }

    /// Reads the differences of seeds 0, 1, 2, … in order and stops at the first seed
    /// after which the test answers; without an answer, the reading after them all.
    #[must_use]
    pub fn read(&self, diffs: &[f64]) -> Reading {
        let (lower, upper) = self.bounds();
        let delta = self.delta / 100.0;
        let floor = delta * (1.0 - delta);
        let (mut sum, mut squares) = (0.0, 0.0);
        // A side whose ratio has fallen to `lower` has answered "no move" and stops.
        let (mut up_done, mut down_done) = (false, false);
        let mut reading = Reading {
            seeds: 0,
            points: 0.0,
            llr_up: 0.0,
            llr_down: 0.0,
            lower,
            upper,
            answer: None,
        };
        for (i, d) in diffs.iter().enumerate() {
            sum += d;
            squares += d * d;
            let n = (i + 1) as f64;
            let mean = sum / n;
            let variance = (squares / n - mean * mean).max(floor);
            let llr = |sign: f64| n * (sign * delta * mean - delta * delta / 2.0) / variance;
            reading.seeds = u32::try_from(i + 1).unwrap_or(u32::MAX);
            reading.points = 100.0 * mean;
            reading.llr_up = llr(1.0);
            reading.llr_down = llr(-1.0);
            up_done |= reading.llr_up <= lower;
            down_done |= reading.llr_down <= lower;
            reading.answer = if !up_done && reading.llr_up >= upper {
                Some(Answer::Raises)
            } else if !down_done && reading.llr_down >= upper {
                Some(Answer::Lowers)
            } else if up_done && down_done {
                Some(Answer::Within)
            } else {
                None
            };
            if reading.answer.is_some() {
                break;
            }
        }
        reading
    }

    /// The reading in words, for the variant `name` over `per_seed` games a seed, with
    /// `cap` seeds the most the run may play.
    #[must_use]
    pub fn words(&self, name: &str, reading: &Reading, per_seed: u32, cap: u32) -> String {
        let games = reading.seeds.saturating_mul(per_seed);
        let rates = format!(
            "SPRT, δ {} points, α {}, β {}",
            self.delta, self.alpha, self.beta
        );
        let after = format!(
            "answered after {} seeds ({games} games a variant; the mean move is {:+.1} points)",
            reading.seeds, reading.points
        );
        match reading.answer {
            Some(Answer::Raises) => format!(
                "yes: {name} raises {}'s win rate, the games favour a move of +{} points over none ({rates}): {after}",
                self.seat, self.delta
            ),
            Some(Answer::Lowers) => format!(
                "yes: {name} lowers {}'s win rate, the games favour a move of −{} points over none ({rates}): {after}",
                self.seat, self.delta
            ),
            Some(Answer::Within) => format!(
                "no: {name} does not move {}'s win rate by {} points, the games favour no move over one of ±{} ({rates}): {after}",
                self.seat, self.delta, self.delta
            ),
            None => format!(
                "{rates}: no answer {} {} seeds ({games} games a variant): log-likelihood ratios {:+.2} for a raise and {:+.2} for a fall, bounds {:.2} and {:+.2}",
                if reading.seeds >= cap {
                    "within the"
                } else {
                    "yet after"
                },
                reading.seeds,
                reading.llr_up,
                reading.llr_down,
                reading.lower,
                reading.upper
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framework::MatchRng;

    #[test]
    fn the_bounds_are_walds() {
        let (lower, upper) = Sprt::new("Blue", 5.0).bounds();
        assert!((lower - (0.05f64 / 0.975).ln()).abs() < 1e-12, "{lower}");
        assert!((upper - 38f64.ln()).abs() < 1e-12, "{upper}");
    }

    /// Runs of win-or-lose differences with a true move of `points`, each read to its
    /// answer: how often each answer comes, and the mean seeds read.
    fn answers(points: f64, runs: u32) -> ([u32; 4], f64) {
        let test = Sprt::new("Blue", 5.0);
        let mut rng = MatchRng::new(7);
        let mut counts = [0; 4];
        let mut seeds = 0u64;
        for _ in 0..runs {
            // Each seed: the base's and the variant's games, a 50% and a 50%+points win.
            let diffs: Vec<f64> = (0..6_000)
                .map(|_| {
                    let a = f64::from(u8::from(rng.roll(1000) <= 500));
                    let b = f64::from(u8::from(f64::from(rng.roll(1000)) <= 500.0 + 10.0 * points));
                    b - a
                })
                .collect();
            let r = test.read(&diffs);
            seeds += u64::from(r.seeds);
            counts[match r.answer {
                Some(Answer::Raises) => 0,
                Some(Answer::Lowers) => 1,
                Some(Answer::Within) => 2,
                None => 3,
            }] += 1;
        }
        (counts, seeds as f64 / f64::from(runs))
    }

    #[test]
    fn it_keeps_to_its_error_rates() {
        // No change: "yes" at most α of the time (slack for 200 runs: 10 expected).
        let (none, _) = answers(0.0, 200);
        assert!(none[0] + none[1] <= 20, "{none:?}");
        assert!(none[2] >= 175, "{none:?}");
        // A change of δ: "no" at most β of the time.
        let (up, _) = answers(5.0, 200);
        assert!(up[2] <= 20 && up[1] == 0, "{up:?}");
        // A big change is found in few seeds.
        let (big, seeds) = answers(20.0, 100);
        assert_eq!(big[0], 100, "{big:?}");
        assert!(seeds < 300.0, "{seeds}");
    }

    #[test]
    fn a_change_that_never_comes_into_play_needs_more_than_a_handful_of_seeds() {
        let r = Sprt::new("Blue", 5.0).read(&[0.0; 1000]);
        assert_eq!(r.answer, Some(Answer::Within));
        assert!(r.seeds > 100, "{}", r.seeds);
    }

    #[test]
    fn out_of_range_settings_are_refused() {
        let seats = ["Blue".to_string(), "Red".to_string()];
        assert!(Sprt::new("blue", 5.0).check(&seats).is_ok());
        assert!(
            Sprt::new("Green", 5.0)
                .check(&seats)
                .unwrap_err()
                .contains("Blue, Red")
        );
        assert!(Sprt::new("Blue", 0.0).check(&seats).is_err());
        let mut t = Sprt::new("Blue", 5.0);
        t.alpha = 0.7;
        assert!(t.check(&seats).unwrap_err().contains("α"));
    }
}
