//! A lab question's answer: per variant the seat win rates with intervals, the verdict
//! against the base, first-mover advantage, game lengths and each game's own counts
//! (units and upgrades, where tanks fell, the duel matrix's rows, class matchups); as
//! JSON and CSV.

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::coverage::{Count, Exercise, RuleRef, exercise_counts};
use super::run::{GameResult, Pairing, seed_of};
use super::sprt::{Reading, Sprt};
use super::stats::{Rate, Verdict, verdict, verdict_of};
use super::sums::{self, ArmSums, seed_differences};

/// What a variant that changes nothing is told instead of a verdict.
pub const SAME_AS_BASE: &str = "the base's own rules (the same games as A): no verdict";

/// Whether the variant `name` of `report` leaves the rules as the base has them.
fn question_same(report: &LabReport, name: &str) -> bool {
    report.question.same_as_base.iter().any(|n| n == name)
}

/// What the report is about.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Question {
    pub game: String,
    pub setup: String,
    pub seed: u64,
    /// Games asked for, per variant.
    pub games: u32,
    pub bots: Vec<String>,
    /// Seat names, in seat order.
    pub seats: Vec<String>,
    /// Variant names and changes, base first.
    pub arms: Vec<(String, BTreeMap<String, String>)>,
    /// A sweep's field, when the variants are one field's values.
    pub sweep: Option<String>,
    /// The variants whose changes leave the rules as the base has them (a sweep's value
    /// that is the base's own): they get no verdict.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub same_as_base: Vec<String>,
    /// What was drawn at random for every game, when the question drew choices.
    pub draws: Option<String>,
    /// How the games are paired; none: compared unpaired.
    #[serde(default)]
    pub pairing: Option<Pairing>,
    /// The sequential test that stops the run once it answers, when one was asked.
    #[serde(default)]
    pub sprt: Option<Sprt>,
    /// For each field a variant changes, the rules of the game's rules map it changes:
    /// the report counts the games that applied them.
    pub field_rules: BTreeMap<String, Vec<RuleRef>>,
}

/// A unit's or upgrade's worth: its side's win rate when it lasted and when it was lost.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PieceValue {
    pub seat: u8,
    pub name: String,
    pub lasted: Rate,
    pub lost: Rate,
}

/// A choice's worth (an upgrade a seat took before play): its seat's win rate in the
/// games where it took it and in those where it did not, and the difference.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TakenValue {
    pub seat: u8,
    pub name: String,
    pub taken: Rate,
    pub without: Rate,
    /// Taken less without, in win-rate points (0..1), with its 95% interval.
    pub difference: (f64, f64, f64),
}

impl TakenValue {
    /// Whether the interval of the difference leaves out zero.
    #[must_use]
    pub fn significant(&self) -> bool {
        self.difference.1 > 0.0 || self.difference.2 < 0.0
    }
}

/// How often one label beat another (rows win against columns).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Matchup {
    pub row: String,
    pub col: String,
    pub rate: Rate,
}

/// One variant's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArmReport {
    pub name: String,
    pub changes: BTreeMap<String, String>,
    pub games: u32,
    pub wins: Vec<u32>,
    pub no_winner: u32,
    /// Each seat's win rate with its 95% interval.
    pub rates: Vec<Rate>,
    /// How often the seat that moved first won, when chance decided who did.
    pub first_mover: Option<Rate>,
    /// Games by length in rounds.
    pub lengths: BTreeMap<u32, u32>,
    pub mean_rounds: f64,
    pub mean_actions: f64,
    /// Against the base (absent for the base itself).
    pub verdict: Option<Verdict>,
    /// Games whose winners differ from the base's game of the same seed (absent for the
    /// base): 0 means the change never came into play.
    pub turned: Option<u32>,
    /// How the variant moves the first mover's win rate, in words, when chance decides
    /// who moves first.
    pub first_mover_verdict: Option<String>,
    pub pieces: Vec<PieceValue>,
    /// Choices taken in some games and not in others, best first within each seat.
    pub taken: Vec<TakenValue>,
    /// Board size and the spaces where tanks fell, with counts.
    pub board: Option<[i32; 2]>,
    pub losses: Vec<([i32; 2], u32)>,
    /// Named events and how often they happened (a duel's matrix rows).
    pub counts: Vec<(String, u32)>,
    /// Labels against labels, where seats have labels of their own (Tank Combat classes)
    /// or a game has more than two seats (seat against seat).
    pub matchups: Vec<Matchup>,
    /// For each changed field, how many of the variant's games applied the rules it
    /// changes, flagged in words when few or none did.
    pub exercised: Vec<Exercise>,
    /// Every rule of the map the variant's games applied and every kind of action they
    /// took, with in how many games and how many times.
    pub coverage: Count,
    /// With paired games, how the verdict's interval was found (absent for the base).
    pub paired: Option<PairedStat>,
}

/// A verdict read from paired games: how many seeds, and how much narrower the paired
/// interval of the verdict's seat is than the unpaired one would be.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairedStat {
    /// Seeds the base and the variant both played in full.
    pub seeds: u32,
    /// Games a seed: 2 when each is played again with the first move swapped.
    pub per_seed: u32,
    /// Half the width of the paired 95% interval, in points.
    pub half_width: f64,
    /// Half the width of the unpaired (Newcombe) interval over the same games, in points.
    pub unpaired_half_width: f64,
}

impl PairedStat {
    /// How much narrower the paired interval is, as a fraction of the unpaired (negative
    /// when it is wider).
    #[must_use]
    pub fn narrower(&self) -> f64 {
        if self.unpaired_half_width > 0.0 {
            1.0 - self.half_width / self.unpaired_half_width
        } else {
            0.0
        }
    }

    /// The line the report gives it.
    #[must_use]
    pub fn words(&self) -> String {
        let n = self.narrower();
        format!(
            "paired over {} seeds{}: interval ±{:.1} points, {:.0}% {} than unpaired (±{:.1})",
            self.seeds,
            if self.per_seed == 2 {
                " × 2 games, the first move swapped in the second"
            } else {
                ""
            },
            self.half_width,
            100.0 * n.abs(),
            if n >= 0.0 { "narrower" } else { "wider" },
            self.unpaired_half_width
        )
    }
}

/// The sequential test's reading, and whether it stopped the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtReport {
    pub reading: Reading,
    /// The reading in words.
    pub words: String,
}

/// The sequential test of `question` over `results`: its reading after the seeds played
/// in full from seed 0 on, stopping at the first seed after which it answers.
#[must_use]
pub fn sprt_reading<R: Borrow<GameResult>>(question: &Question, results: &[R]) -> Option<Reading> {
    let test = question.sprt.as_ref()?;
    let seat = test.seat_index(&question.seats)?;
    let all: Vec<&GameResult> = results.iter().map(Borrow::borrow).collect();
    let per = f64::from(Pairing::per_seed(question.pairing));
    let diffs: Vec<f64> = seed_differences(question, &all, 1)
        .into_iter()
        .enumerate()
        .take_while(|(i, (seed, _))| *seed as usize == *i)
        .map(|(_, (_, d))| f64::from(d.get(seat).copied().unwrap_or(0)) / per)
        .collect();
    Some(test.read(&diffs))
}

/// The whole answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LabReport {
    pub question: Question,
    pub arms: Vec<ArmReport>,
    /// The sweep's value whose seats' win rates are closest together, when it is a sweep.
    pub balanced: Option<String>,
    /// The sequential test's reading, when the question asked for one.
    pub sprt: Option<SprtReport>,
}

impl LabReport {
    /// Sums `results` (any order) into the report of `question`.
    #[must_use]
    pub fn build<R: Borrow<GameResult>>(question: Question, results: &[R]) -> Self {
        let mut sorted: Vec<&GameResult> = results.iter().map(Borrow::borrow).collect();
        sorted.sort_by_key(|r| (r.arm, r.index));
        // A sequential test that answered: the report is of the seeds it needed, however
        // many more the workers had finished by the time they stopped.
        let reading = sprt_reading(&question, &sorted);
        if let Some(r) = reading.as_ref().filter(|r| r.answer.is_some()) {
            sorted.retain(|g| seed_of(g.index, question.pairing).0 < r.seeds);
        }
        let sprt = reading.zip(question.sprt.as_ref()).map(|(reading, test)| {
            let per = Pairing::per_seed(question.pairing);
            let name = question.arms.get(1).map_or("B", |a| a.0.as_str());
            SprtReport {
                words: test.words(name, &reading, per, question.games / per),
                reading,
            }
        });
        let sums = sums::of(&question, &sorted);
        Self::from_sums(question, &sums, sprt)
    }

    /// The report of `question` from its variants' sums (a run's, or its shards' added up).
    #[must_use]
    pub fn from_sums(question: Question, sums: &[ArmSums], sprt: Option<SprtReport>) -> Self {
        let mut arms = arm_reports(&question, sums);
        compare_with_base(&question, sums, &mut arms);
        // The sweep's value with the smallest spread between the seats' win rates.
        let balanced = question.sweep.as_ref().and_then(|_| {
            arms.iter()
                .skip(1)
                .filter(|a| a.games > 0)
                .min_by(|a, b| spread(a).total_cmp(&spread(b)))
                .map(|a| a.name.clone())
        });
        Self {
            question,
            arms,
            balanced,
            sprt,
        }
    }

    /// The report as JSON.
    ///
    /// # Errors
    /// Never in practice (every field is plain data).
    pub fn to_json(&self) -> Result<String, String> {
        serde_json::to_string_pretty(self).map_err(|e| e.to_string())
    }

    /// One line per variant and seat: the table a spreadsheet wants.
    #[must_use]
    pub fn to_csv(&self) -> String {
        let mut out = String::from(
            "variant,seat,games,wins,win_rate,ci_low,ci_high,no_winner,mean_rounds,mean_actions,rules_applied,warning\n",
        );
        for arm in &self.arms {
            // Per changed field, the games that applied its rules ("field: 12/400").
            let applied = arm
                .exercised
                .iter()
                .map(|e| match e.base {
                    Some((n, of)) => format!("{}: {}/{} (base {n}/{of})", e.field, e.games, e.of),
                    None => format!("{}: {}/{}", e.field, e.games, e.of),
                })
                .collect::<Vec<_>>()
                .join("; ");
            let warning = arm
                .exercised
                .iter()
                .filter_map(|e| e.warning.as_deref())
                .collect::<Vec<_>>()
                .join(" ");
            for (seat, rate) in self.question.seats.iter().zip(&arm.rates) {
                let _ = writeln!(
                    out,
                    "{},{},{},{},{:.4},{:.4},{:.4},{},{:.3},{:.2},{},{}",
                    csv_field(&arm.name),
                    csv_field(seat),
                    arm.games,
                    rate.wins,
                    rate.rate,
                    rate.lo,
                    rate.hi,
                    arm.no_winner,
                    arm.mean_rounds,
                    arm.mean_actions,
                    csv_field(&applied),
                    csv_field(&warning)
                );
            }
        }
        out
    }

    /// The report as lines of text, for the terminal.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = heading_text(&self.question);
        for arm in &self.arms {
            self.write_arm_rates(&mut out, arm);
            self.write_arm_findings(&mut out, arm);
        }
        if let Some(b) = &self.balanced {
            let _ = writeln!(out, "nearest to even: {b}");
        }
        if let Some(t) = &self.sprt {
            let _ = writeln!(out, "{}", t.words);
        }
        out
    }

    /// Writes a variant's name, changes and numbers: each seat's win rate, games nobody
    /// won, the first mover's win rate and the mean length.
    fn write_arm_rates(&self, out: &mut String, arm: &ArmReport) {
        let _ = writeln!(out, "{} — {} games", arm.name, arm.games);
        for (change, value) in &arm.changes {
            let _ = writeln!(out, "    {change} = {value}");
        }
        for (seat, r) in self.question.seats.iter().zip(&arm.rates) {
            let _ = writeln!(
                out,
                "  {seat:<16} {:>5.1}%  95% CI [{:.1}%, {:.1}%]",
                100.0 * r.rate,
                100.0 * r.lo,
                100.0 * r.hi
            );
        }
        if arm.no_winner > 0 {
            let _ = writeln!(out, "  {:<16} {:>5}", "no winner", arm.no_winner);
        }
        if let Some(f) = arm.first_mover {
            let _ = writeln!(
                out,
                "  first mover won {:.1}% [{:.1}, {:.1}]",
                100.0 * f.rate,
                100.0 * f.lo,
                100.0 * f.hi
            );
        }
        let _ = writeln!(
            out,
            "  mean length {:.2} rounds, {:.1} actions",
            arm.mean_rounds, arm.mean_actions
        );
    }

    /// Writes what a variant's numbers say: its verdict against the base, how often its
    /// changed rules came into play, the first mover's verdict, the choices made before
    /// play, and the results its change turned.
    fn write_arm_findings(&self, out: &mut String, arm: &ArmReport) {
        if let Some(v) = &arm.verdict {
            let _ = writeln!(out, "  {}", v.words);
            if let Some(p) = &arm.paired {
                let _ = writeln!(out, "  {}", p.words());
            }
        } else if question_same(self, &arm.name) {
            let _ = writeln!(out, "  {}", SAME_AS_BASE);
        }
        for e in &arm.exercised {
            let _ = match &e.warning {
                Some(w) if e.counted() => writeln!(out, "  ⚠ {w}"),
                Some(w) => writeln!(out, "  note: {w}"),
                None => writeln!(out, "  {}", e.summary()),
            };
        }
        if let Some(f) = &arm.first_mover_verdict {
            let _ = writeln!(out, "  {f}");
        }
        write_taken_text(out, &self.question, arm);
        if let Some(t) = arm.turned {
            let _ = writeln!(
                out,
                "  the change turned the result of {t} of {} games played on the same dice",
                arm.games
            );
        }
    }
}

/// The text report's first line: the game, the setup, games per variant, the bots, the
/// seed and the pairing.
fn heading_text(q: &Question) -> String {
    format!(
        "{} ({}): {} games per variant, bots {}, seed {}{}\n",
        q.game,
        q.setup,
        q.games,
        if q.bots.is_empty() {
            "default".to_string()
        } else {
            q.bots.join(" vs ")
        },
        q.seed,
        match q.pairing {
            Some(Pairing { twins: true }) => {
                ", paired (each seed twice, the first move swapped in the second game)"
            }
            Some(Pairing { twins: false }) => ", paired by seed",
            None => "",
        }
    )
}

/// Writes each choice made before play with a variant's win rate when it was taken and
/// without it.
fn write_taken_text(out: &mut String, q: &Question, arm: &ArmReport) {
    if !arm.taken.is_empty() {
        let _ = writeln!(
            out,
            "  win rate when taken, and without ({}):",
            q.draws.as_deref().unwrap_or("choices before play")
        );
    }
    for t in &arm.taken {
        let seat = q.seats.get(usize::from(t.seat)).map_or("?", String::as_str);
        let (d, lo, hi) = t.difference;
        let _ = writeln!(
            out,
            "    {seat:<8} {:<16} {:>5.1}% [{:.1}, {:.1}] of {:<5} without {:>5.1}%  {:+.1} points [{:+.1}, {:+.1}]{}",
            t.name,
            100.0 * t.taken.rate,
            100.0 * t.taken.lo,
            100.0 * t.taken.hi,
            t.taken.games,
            100.0 * t.without.rate,
            100.0 * d,
            100.0 * lo,
            100.0 * hi,
            if t.significant() { "  significant" } else { "" }
        );
    }
}

/// Each variant's report from its sums: its numbers, how often each changed field's
/// rules came into play (beside the base's count), and the results its change turned.
fn arm_reports(question: &Question, sums: &[ArmSums]) -> Vec<ArmReport> {
    let none = ArmSums::default();
    let sum_of = |i: usize| sums.get(i).unwrap_or(&none);
    question
        .arms
        .iter()
        .enumerate()
        .map(|(i, (name, changes))| {
            let s = sum_of(i);
            let mut arm = arm_report(name, changes, &question.seats, s);
            let count =
                |s: &ArmSums, field: &String| (s.applied.get(field).copied().unwrap_or(0), s.games);
            arm.exercised = changes
                .keys()
                .map(|field| {
                    let refs = question
                        .field_rules
                        .get(field)
                        .map_or(&[][..], Vec::as_slice);
                    let base = (i > 0).then(|| count(sum_of(0), field));
                    exercise_counts(field, refs, count(s, field), base)
                })
                .collect();
            // With common seeds, game i of a variant and of the base meet the same
            // dice as long as they play alike: the games whose result the change
            // turned.
            if i > 0 {
                arm.turned = Some(s.turned);
            }
            arm
        })
        .collect()
}

/// Sets each variant's verdicts against the base (paired where the games are), and
/// against the base's first mover; a variant with the base's own rules gets none.
fn compare_with_base(question: &Question, sums: &[ArmSums], arms: &mut [ArmReport]) {
    let none = ArmSums::default();
    let sum_of = |i: usize| sums.get(i).unwrap_or(&none);
    let per = Pairing::per_seed(question.pairing);
    let Some((base, first)) = arms.first().map(|a| (a.rates.clone(), a.first_mover)) else {
        return;
    };
    for (i, arm) in arms.iter_mut().enumerate().skip(1) {
        if question.same_as_base.contains(&arm.name) {
            continue;
        }
        arm.verdict = verdict(&arm.name, &question.seats, &base, &arm.rates);
        if question.pairing.is_some() {
            set_paired_verdict(question, sum_of(i), per, &base, arm);
        }
        if let (Some(a), Some(b)) = (first, arm.first_mover) {
            arm.first_mover_verdict = Some(first_mover_words(&arm.name, a, b));
        }
    }
}

/// Sets a variant's verdict from its games paired seed by seed with the base's, and
/// how much narrower that makes the interval than the unpaired one.
fn set_paired_verdict(
    question: &Question,
    s: &ArmSums,
    per: u32,
    base: &[Rate],
    arm: &mut ArmReport,
) {
    let moves: Vec<(f64, f64, f64)> = (0..question.seats.len())
        .map(|seat| {
            let [sum, squares] = s.paired.get(seat).copied().unwrap_or([0; 2]);
            super::stats::paired_sums(s.seeds, sum, squares, per)
        })
        .collect();
    arm.verdict = verdict_of(&arm.name, &question.seats, &moves);
    // The unpaired interval of the same seat's move, over the same games.
    let seat = arm
        .verdict
        .as_ref()
        .and_then(|v| question.seats.iter().position(|s| *s == v.moved));
    if let (Some(v), Some(seat)) = (&arm.verdict, seat) {
        let (_, lo, hi) = super::stats::difference(base[seat], arm.rates[seat]);
        arm.paired = Some(PairedStat {
            seeds: s.seeds,
            per_seed: per,
            half_width: (v.hi - v.lo) / 2.0,
            unpaired_half_width: 100.0 * (hi - lo) / 2.0,
        });
    }
}

/// How a variant moves the first mover's win rate from the base's `a` to its `b`.
fn first_mover_words(name: &str, a: Rate, b: Rate) -> String {
    let (d, lo, hi) = super::stats::difference(a, b);
    format!(
        "{} moves the first mover's win rate from {:.1}% to {:.1}%: {:+.1} points, 95% CI [{:+.1}, {:+.1}]: {}",
        name,
        100.0 * a.rate,
        100.0 * b.rate,
        100.0 * d,
        100.0 * lo,
        100.0 * hi,
        if lo > 0.0 || hi < 0.0 {
            "significant"
        } else {
            "not significant (could be chance)"
        }
    )
}

/// How far apart the seats' win rates are: the best seat's rate less the worst's.
#[must_use]
pub fn spread(arm: &ArmReport) -> f64 {
    let rates = arm.rates.iter().map(|r| r.rate);
    let max = rates.clone().fold(f64::MIN, f64::max);
    let min = rates.fold(f64::MAX, f64::min);
    if arm.rates.is_empty() { 0.0 } else { max - min }
}

/// Writes the per-game results as CSV: one line per game.
#[must_use]
pub fn games_csv<R: Borrow<GameResult>>(question: &Question, results: &[R]) -> String {
    let mut out =
        String::from("variant,game,seed,winners,first_mover,rounds,actions,first_move_swapped\n");
    let mut sorted: Vec<&GameResult> = results.iter().map(Borrow::borrow).collect();
    sorted.sort_by_key(|r| (r.arm, r.index));
    for r in sorted {
        let name = question
            .arms
            .get(usize::from(r.arm))
            .map_or("?", |a| a.0.as_str());
        let winners: Vec<&str> = r
            .winners
            .iter()
            .map(|&w| {
                question
                    .seats
                    .get(usize::from(w))
                    .map_or("?", String::as_str)
            })
            .collect();
        let first = r
            .first
            .and_then(|f| question.seats.get(usize::from(f)))
            .map_or("", String::as_str);
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{}",
            csv_field(name),
            r.index,
            r.seed,
            csv_field(&winners.join(" ")),
            csv_field(first),
            r.rounds,
            r.actions,
            r.swapped
        );
    }
    out
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn arm_report(
    name: &str,
    changes: &BTreeMap<String, String>,
    seat_names: &[String],
    s: &ArmSums,
) -> ArmReport {
    let count = s.games;
    let div = f64::from(count.max(1));
    // Every seat plays every game: a seat's games are the variant's.
    let mut taken: Vec<TakenValue> = s
        .taken
        .iter()
        .filter_map(|((seat, name), &[tg, tw])| {
            let sw = *s.wins.get(usize::from(*seat))?;
            if tg == 0 || tg >= count {
                return None;
            }
            let (with, without) = (Rate::of(tw, tg), Rate::of(sw - tw, count - tg));
            Some(TakenValue {
                seat: *seat,
                name: name.clone(),
                taken: with,
                without,
                difference: super::stats::difference(without, with),
            })
        })
        .collect();
    taken.sort_by(|a, b| {
        a.seat
            .cmp(&b.seat)
            .then(b.difference.0.total_cmp(&a.difference.0))
    });
    let mut wins = s.wins.clone();
    wins.resize(seat_names.len(), 0);
    ArmReport {
        name: name.to_string(),
        changes: changes.clone(),
        games: count,
        rates: wins.iter().map(|&w| Rate::of(w, count)).collect(),
        wins,
        no_winner: s.no_winner,
        first_mover: (s.first[0] > 0).then(|| Rate::of(s.first[1], s.first[0])),
        lengths: s.lengths.clone(),
        mean_rounds: s.rounds as f64 / div,
        mean_actions: s.actions as f64 / div,
        verdict: None,
        turned: None,
        first_mover_verdict: None,
        pieces: s
            .pieces
            .iter()
            .map(|((seat, name), &[lg, lw, xg, xw])| PieceValue {
                seat: *seat,
                name: name.clone(),
                lasted: Rate::of(lw, lg),
                lost: Rate::of(xw, xg),
            })
            .collect(),
        taken,
        board: s.board,
        losses: s.losses.iter().map(|(k, v)| (*k, *v)).collect(),
        counts: s.counts.iter().map(|(k, v)| (k.clone(), *v)).collect(),
        matchups: if s.labelled {
            s.matchups
                .iter()
                .map(|((row, col), &[n, w])| Matchup {
                    row: row.clone(),
                    col: col.clone(),
                    rate: Rate::of(w, n),
                })
                .collect()
        } else {
            Vec::new()
        },
        exercised: Vec::new(),
        paired: None,
        coverage: s.coverage.clone(),
    }
}
