//! Shards: a lab run cut into parts that separate processes or machines play, and a merge
//! that puts the parts back together into the report the whole run gives, to the last
//! digit.
//!
//! Game `i` of every variant draws its seed from the run's seed and `i` alone, so which
//! machine plays a game changes nothing. Shard `I` of `N` plays the games whose index is
//! `I - 1` more than a multiple of `N` (interleaved, so that every shard gets as many
//! long games as short ones) and writes them with the question they answer. The merge
//! checks that the shards are the parts of one run, each once, and builds the report
//! from all their games, sorted as the report always sorts them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::report::{LabReport, Question};
use super::run::{GameResult, Pairing};
use super::sums::{self, ArmSums};

/// What a shard file says it is, first thing.
pub const FORMAT: &str = "tanktable lab shard 2";

/// One part of a lab run, as written to its file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shard {
    pub format: String,
    /// The version of the program that played it.
    pub build: String,
    /// A fingerprint of every variant's rules as played (see [`fingerprint`]).
    pub rules: String,
    /// This part, from 1.
    pub part: u32,
    /// Parts in the run.
    pub parts: u32,
    pub question: Question,
    /// Its games, sorted by variant and game: kept for a sequential run, whose report
    /// is of the seeds its test needed (see [`Shard::of`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub results: Vec<GameResult>,
    /// What its games add up to, by variant: a shard's usual content, a few kilobytes
    /// however many games it played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sums: Option<Vec<ArmSums>>,
}

/// The games of a merged run: every game, or what they add up to.
#[derive(Clone, Debug, PartialEq)]
pub enum Merged {
    Games(Vec<GameResult>),
    Sums(Vec<ArmSums>),
}

impl Merged {
    /// The run's report.
    #[must_use]
    pub fn report(&self, question: Question) -> LabReport {
        match self {
            Self::Games(games) => LabReport::build(question, games),
            Self::Sums(sums) => LabReport::from_sums(question, sums, None),
        }
    }

    /// Games merged, over all variants.
    #[must_use]
    pub fn games(&self) -> u64 {
        match self {
            Self::Games(games) => games.len() as u64,
            Self::Sums(sums) => sums.iter().map(|s| u64::from(s.games)).sum(),
        }
    }
}

/// The part `I/N` names: `1/1` is the whole run.
///
/// # Errors
/// A sentence for anything but two whole numbers with 1 ≤ I ≤ N.
pub fn parse_part(spec: &str) -> Result<(u32, u32), String> {
    let bad =
        || format!("--shard takes I/N with 1 ≤ I ≤ N (3/8: the third of eight), not `{spec}`");
    let (i, n) = spec.split_once('/').ok_or_else(bad)?;
    let (i, n): (u32, u32) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The games of each variant that part `part` of `parts` plays, out of `games`: those
/// whose seed's number leaves `part - 1` divided by `parts`, so that a seed's twins (and
/// with them the pairs the statistics read) stay in one part.
pub fn indices(
    games: u32,
    (part, parts): (u32, u32),
    pairing: Option<Pairing>,
) -> impl Iterator<Item = u32> {
    let per = Pairing::per_seed(pairing);
    let parts = parts.max(1);
    (0..games).filter(move |i| (i / per) % parts == part.saturating_sub(1))
}

/// A fingerprint of the rules a run plays: FNV-1a over the program's version and every
/// variant's tuning written out, the same on every machine.
#[must_use]
pub fn fingerprint(tunings: &[String]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for text in tunings {
        for byte in text.bytes().chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// How many games of each variant part `part` of `parts` plays: the length of
/// [`indices`], without walking them.
#[must_use]
pub fn part_size(games: u32, (part, parts): (u32, u32), pairing: Option<Pairing>) -> u32 {
    let per = Pairing::per_seed(pairing);
    let parts = parts.max(1);
    let first = part.saturating_sub(1);
    let seeds = games.div_ceil(per);
    if first >= seeds {
        return 0;
    }
    let mine = (seeds - first).div_ceil(parts);
    // The last seed may hold fewer than `per` games.
    let last_short = (seeds - 1) % parts == first && !games.is_multiple_of(per);
    mine * per - u32::from(last_short) * (per - games % per)
}

impl Shard {
    /// Part `part` of `parts` of the run that asks `question`, with rules fingerprint
    /// `rules`, holding `results`: as sums, or for a sequential run (whose report is of
    /// the seeds its test needed, so cannot be summed ahead) as games.
    #[must_use]
    pub fn of<R: std::borrow::Borrow<GameResult>>(
        (part, parts): (u32, u32),
        question: Question,
        rules: String,
        results: &[R],
    ) -> Self {
        let mut games: Vec<&GameResult> = results.iter().map(std::borrow::Borrow::borrow).collect();
        games.sort_by_key(|r| (r.arm, r.index));
        let (results, sums) = if question.sprt.is_some() {
            (games.into_iter().cloned().collect(), None)
        } else {
            (Vec::new(), Some(sums::of(&question, &games)))
        };
        Self {
            format: FORMAT.into(),
            build: env!("CARGO_PKG_VERSION").into(),
            rules,
            part,
            parts,
            question,
            results,
            sums,
        }
    }

    /// The shard as JSON, for its file.
    ///
    /// # Errors
    /// A sentence if it cannot be written (a bug).
    pub fn to_json(&self) -> Result<String, String> {
        serde_json::to_string(self).map_err(|e| e.to_string())
    }

    /// A shard read back from the file `name` holding `text`.
    ///
    /// # Errors
    /// A sentence naming the file when it is not a shard this program can merge.
    pub fn from_json(name: &str, text: &str) -> Result<Self, String> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            format!(
                "{name}:{}:{}: not a lab shard, or one cut short: {e}",
                e.line(),
                e.column()
            )
        })?;
        match value.get("format").and_then(|f| f.as_str()) {
            Some(FORMAT) => {}
            Some(other) => {
                return Err(format!(
                    "{name} is a shard in the format `{other}`; this program merges `{FORMAT}`"
                ));
            }
            None => {
                return Err(format!(
                    "{name} is not a lab shard (`tanktable lab … --shard I/N --out FILE` writes them)"
                ));
            }
        }
        serde_json::from_value(value).map_err(|e| format!("{name}: not a whole shard: {e}"))
    }
}

/// What tells two questions apart, in words: the first field that differs.
fn difference(a: &Question, b: &Question) -> Option<String> {
    let say = |what: &str, x: String, y: String| Some(format!("its {what} is {y}, not {x}"));
    if a.game != b.game {
        return say("game", a.game.clone(), b.game.clone());
    }
    if a.setup != b.setup {
        return say("setup", a.setup.clone(), b.setup.clone());
    }
    if a.seed != b.seed {
        return say("seed", a.seed.to_string(), b.seed.to_string());
    }
    if a.games != b.games {
        return say("number of games", a.games.to_string(), b.games.to_string());
    }
    if a.bots != b.bots {
        return say("bots", a.bots.join(","), b.bots.join(","));
    }
    if a.arms != b.arms {
        let names = |q: &Question| {
            q.arms
                .iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        return say("variants", names(a), names(b));
    }
    if a.pairing != b.pairing {
        let say_pairing = |p: Option<super::run::Pairing>| match p {
            Some(p) if p.twins => "paired, first move swapped".to_string(),
            Some(_) => "paired by seed".to_string(),
            None => "unpaired".to_string(),
        };
        return say("pairing", say_pairing(a.pairing), say_pairing(b.pairing));
    }
    if a.sprt != b.sprt {
        let say_test = |t: &Option<super::sprt::Sprt>| match t {
            Some(t) => format!("a sequential test of {} by {} points", t.seat, t.delta),
            None => "none".to_string(),
        };
        return say("sequential test", say_test(&a.sprt), say_test(&b.sprt));
    }
    (a != b).then(|| "its question differs (drawn choices or a sweep)".to_string())
}

/// The question and every game of a run put back together from its shards, each given
/// with the name of its file.
///
/// # Errors
/// A sentence naming the file when the shards are not the parts of one run, each once:
/// a shard of another run (which field differs), of another build or other rules, a
/// part missing or given twice, or games that do not add up.
pub fn merge(shards: &[(String, Shard)]) -> Result<(Question, Merged), String> {
    let (question, merged, missing) = merge_present(shards)?;
    if let Some(words) = missing_words(&missing, shards) {
        return Err(words);
    }
    Ok((question, merged))
}

/// "shards 3, 5 of 8 are missing (given: …)", or none when no part is missing.
#[must_use]
pub fn missing_words(missing: &[u32], shards: &[(String, Shard)]) -> Option<String> {
    let parts = shards.first()?.1.parts;
    if missing.is_empty() {
        return None;
    }
    let mut given: Vec<u32> = shards.iter().map(|(_, s)| s.part).collect();
    given.sort_unstable();
    let count = parts as usize - given.len();
    let list = |v: &[u32]| {
        let mut words = v
            .iter()
            .take(MISSING_NAMED)
            .map(u32::to_string)
            .collect::<Vec<_>>();
        if v.len() > MISSING_NAMED {
            words.push(format!("… {} more", v.len() - MISSING_NAMED));
        }
        words.join(", ")
    };
    let named = if count > missing.len() {
        format!("{} and {} more", list(missing), count - missing.len())
    } else {
        list(missing)
    };
    Some(format!(
        "shard{} {named} of {parts} {} missing (given: {})",
        if count == 1 { "" } else { "s" },
        if count == 1 { "is" } else { "are" },
        list(&given)
    ))
}

/// How many missing or given parts a sentence names before it counts the rest.
const MISSING_NAMED: usize = 20;

/// Reads every shard file (`*.json`) in `folder` and merges those that are there: the
/// question, the merged games, the parts missing and, in words, what is missing and each
/// file that could not be read (the client's lab shows a run's shards as they come in).
///
/// # Errors
/// A sentence when the folder cannot be read, holds no shard, or its shards are not the
/// parts of one run.
pub fn read_folder(
    folder: &std::path::Path,
) -> Result<(Question, Merged, Vec<u32>, Vec<String>), String> {
    let entries = std::fs::read_dir(folder)
        .map_err(|e| format!("cannot read the folder {}: {e}", folder.display()))?;
    let mut paths: Vec<std::path::PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    let mut shards = Vec::new();
    let mut notes = Vec::new();
    for path in &paths {
        let name = path.display().to_string();
        match std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {name}: {e}"))
            .and_then(|text| Shard::from_json(&name, &text))
        {
            Ok(shard) => shards.push((name, shard)),
            Err(e) => notes.push(e),
        }
    }
    if shards.is_empty() {
        return Err(format!(
            "{} holds no lab shard{}",
            folder.display(),
            notes.first().map(|n| format!(" ({n})")).unwrap_or_default()
        ));
    }
    let (question, merged, missing) = merge_present(&shards)?;
    if let Some(words) = missing_words(&missing, &shards) {
        notes.insert(0, words);
    }
    Ok((question, merged, missing, notes))
}

/// [`merge`] of the shards given, with the parts missing listed instead of refused.
///
/// # Errors
/// As [`merge`], but for missing parts.
pub fn merge_present(shards: &[(String, Shard)]) -> Result<(Question, Merged, Vec<u32>), String> {
    let Some((first_name, first)) = shards.first() else {
        return Err("no shards to merge".into());
    };
    let seen = check_parts(shards, first_name, first)?;
    // The first parts missing, enough to name them (a run of many parts may lack most).
    let missing: Vec<u32> = (1..=first.parts)
        .filter(|p| !seen.contains_key(p))
        .take(MISSING_NAMED)
        .collect();
    let question = &first.question;
    let arms = question.arms.len();
    let by_sums = first.sums.is_some();
    let mut results: Vec<GameResult> = Vec::new();
    let mut total: Vec<ArmSums> = vec![ArmSums::default(); arms];
    for (name, s) in shards {
        if s.sums.is_some() != by_sums {
            return Err(format!(
                "{name} holds {} and {first_name} {}: merge the shards of one run",
                if by_sums { "games" } else { "sums" },
                if by_sums { "sums" } else { "games" }
            ));
        }
        let size = part_size(question.games, (s.part, s.parts), question.pairing) as usize;
        let cut_short = |arm: usize, got: usize| {
            format!(
                "{name} holds {got} games of variant {} where its part is {size} (a run cut short?)",
                question.arms[arm].0,
            )
        };
        if let Some(sums) = &s.sums {
            if sums.len() != arms {
                return Err(format!(
                    "{name} holds the sums of {} variants where its question has {arms}",
                    sums.len()
                ));
            }
            for (arm, sum) in sums.iter().enumerate() {
                if sum.games as usize != size {
                    return Err(cut_short(arm, sum.games as usize));
                }
                total[arm].merge(sum);
            }
            continue;
        }
        check_games(s, question, &cut_short)?;
        results.extend(s.results.iter().cloned());
    }
    if by_sums {
        return Ok((question.clone(), Merged::Sums(total), missing));
    }
    results.sort_by_key(|r| (r.arm, r.index));
    Ok((question.clone(), Merged::Games(results), missing))
}

/// Checks that the shards are parts of one run (one build, question, rules and count
/// of parts) and that each part is numbered within its count and given once; the parts
/// given, with the file of each.
fn check_parts<'a>(
    shards: &'a [(String, Shard)],
    first_name: &str,
    first: &Shard,
) -> Result<BTreeMap<u32, &'a str>, String> {
    let mut seen: BTreeMap<u32, &str> = BTreeMap::new();
    for (name, s) in shards {
        if s.build != first.build {
            return Err(format!(
                "{name} was played by tanktable {}, {first_name} by {}: merge shards of one build",
                s.build, first.build
            ));
        }
        if let Some(why) = difference(&first.question, &s.question) {
            return Err(format!(
                "{name} is a shard of another run than {first_name}: {why}"
            ));
        }
        if s.rules != first.rules {
            return Err(format!(
                "{name} was played with other rules than {first_name} (rules fingerprint {}, not {})",
                s.rules, first.rules
            ));
        }
        if s.parts != first.parts {
            return Err(format!(
                "{name} is one of {} shards, {first_name} one of {}",
                s.parts, first.parts
            ));
        }
        if s.part == 0 || s.part > s.parts {
            return Err(format!(
                "{name} says it is part {} of {}: a part is numbered 1 to its count",
                s.part, s.parts
            ));
        }
        if let Some(other) = seen.insert(s.part, name) {
            return Err(format!(
                "shard {}/{} is given twice: {other} and {name}",
                s.part, s.parts
            ));
        }
    }
    Ok(seen)
}

/// Checks that a shard of games holds, for each variant, the games its part plays (a
/// sequential run's may be cut short); `cut_short` words the refusal for a variant and
/// the games it holds.
fn check_games(
    s: &Shard,
    question: &Question,
    cut_short: &dyn Fn(usize, usize) -> String,
) -> Result<(), String> {
    let arms = question.arms.len();
    let expected: Vec<u32> = indices(question.games, (s.part, s.parts), question.pairing).collect();
    for arm in 0..arms {
        let got: Vec<u32> = s
            .results
            .iter()
            .filter(|r| usize::from(r.arm) == arm)
            .map(|r| r.index)
            .collect();
        // A sequential run's shards are merged as they go: each may be cut short,
        // and the test reads the seeds all of them have played.
        let partial = question.sprt.is_some()
            && got.iter().all(|i| expected.binary_search(i).is_ok())
            && got.windows(2).all(|w| w[0] < w[1]);
        if got != expected && !partial {
            return Err(cut_short(arm, got.len()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framework::{Game, Playable};
    use crate::lab::{self, Ask, LabReport, Live};
    use crate::rules::range_duel::{DuelSetup, RangeDuel};

    /// Part `part` of a Range Duel question asked with `ask` (the base and a duel of
    /// `turns` turns), played in full, as its file would hold it.
    fn duel_shard(ask: &Ask, turns: &str, part: (u32, u32)) -> Shard {
        let setup = DuelSetup::builtin_default();
        let short = BTreeMap::from([("rules.turn_limit".to_string(), turns.to_string())]);
        let (mut plan, question) =
            lab::plan::<RangeDuel>(&setup, "default", &[("short".into(), short)], ask)
                .expect("a plan");
        plan.shard = Some(part);
        let live = Live::new(plan.arms.len());
        lab::run::<RangeDuel>(&plan, &live).expect("played");
        let tunings: Vec<String> = plan
            .arms
            .iter()
            .map(|a| lab::variant::tuning_text::<RangeDuel>(&a.setup).expect("tuning"))
            .collect();
        Shard::of(part, question, fingerprint(&tunings), &live.snapshot())
    }

    /// Part `part` of `parts` of a shorter duel, 70 games each, seed `seed`.
    fn shard_of(seed: u64, part: (u32, u32)) -> Shard {
        let ask = Ask {
            games: 70,
            seed,
            threads: 2,
            ..Ask::default()
        };
        duel_shard(&ask, "6", part)
    }

    /// Part `part` of a sequential question (a much shorter duel, paired, a test of
    /// Duelist 1's rate).
    fn sequential_shard(part: (u32, u32)) -> Shard {
        let seat = RangeDuel::from_setup(&DuelSetup::builtin_default())
            .expect("a duel")
            .player_name(crate::framework::PlayerId(0));
        let ask = Ask {
            games: 3000,
            seed: 5,
            threads: 2,
            paired: true,
            sprt: Some(crate::lab::Sprt::new(&seat, 5.0)),
            ..Ask::default()
        };
        duel_shard(&ask, "3", part)
    }

    #[test]
    fn a_sequential_runs_shards_merge_as_they_go_and_answer_as_the_single_run() {
        let whole = sequential_shard((1, 1));
        assert!(whole.sums.is_none() && !whole.results.is_empty());
        let single = LabReport::build(whole.question.clone(), &whole.results);
        let answered = single.sprt.as_ref().expect("a reading").reading.seeds;
        assert!(
            single
                .sprt
                .as_ref()
                .is_some_and(|t| t.reading.answer.is_some())
        );
        // Three shards, each stopped a little after the answer's seed, as a merge reads
        // them while they play.
        let parts: Vec<Shard> = (1..=3)
            .map(|i| {
                let mut s = sequential_shard((i, 3));
                s.results.retain(|r| r.index < answered + 40 + i);
                s
            })
            .collect();
        let (question, merged) = merge(&named(parts)).expect("merged");
        let report = merged.report(question);
        assert_eq!(
            report.to_json().expect("json"),
            single.to_json().expect("json")
        );
        // Cut before the answer, the merge has no answer yet.
        let early: Vec<Shard> = (1..=3)
            .map(|i| {
                let mut s = sequential_shard((i, 3));
                s.results.retain(|r| r.index < answered / 2);
                s
            })
            .collect();
        let (question, merged) = merge(&named(early)).expect("merged");
        let t = merged.report(question).sprt.expect("a reading");
        assert!(t.reading.answer.is_none(), "{}", t.words);
    }

    fn named(shards: Vec<Shard>) -> Vec<(String, Shard)> {
        shards
            .into_iter()
            .map(|s| (format!("part{}.json", s.part), s))
            .collect()
    }

    #[test]
    fn seven_shards_merge_into_the_whole_runs_report_to_the_last_digit() {
        let whole = shard_of(5, (1, 1));
        let single = LabReport::from_sums(
            whole.question.clone(),
            whole.sums.as_deref().expect("sums"),
            None,
        );
        // Through their files' text, as a merge on another machine reads them.
        let parts: Vec<Shard> = (1..=7)
            .map(|i| {
                let s = shard_of(5, (i, 7));
                Shard::from_json("part", &s.to_json().expect("json")).expect("read back")
            })
            .collect();
        let (question, merged) = merge(&named(parts)).expect("merged");
        assert_eq!(merged.games(), 140);
        let merged = merged.report(question);
        assert_eq!(
            merged.to_json().expect("json"),
            single.to_json().expect("json")
        );
    }

    #[test]
    fn shards_of_another_run_a_missing_or_a_doubled_shard_are_refused() {
        let parts = || (1..=3).map(|i| shard_of(5, (i, 3))).collect::<Vec<_>>();
        let mut other_seed = parts();
        other_seed[1] = shard_of(6, (2, 3));
        let why = merge(&named(other_seed)).expect_err("another seed");
        assert!(
            why.contains("part2.json is a shard of another run")
                && why.contains("seed is 6, not 5"),
            "{why}"
        );
        let mut missing = parts();
        missing.remove(1);
        let why = merge(&named(missing)).expect_err("a part missing");
        assert_eq!(why, "shard 2 of 3 is missing (given: 1, 3)");
        let mut doubled = parts();
        doubled[2] = doubled[0].clone();
        let why = merge(&named(doubled)).expect_err("a part twice");
        assert_eq!(why, "shard 1/3 is given twice: part1.json and part1.json");
        let mut other_rules = parts();
        other_rules[2].rules = fingerprint(&["another table".into()]);
        let why = merge(&named(other_rules)).expect_err("other rules");
        assert!(
            why.contains("was played with other rules than part1.json"),
            "{why}"
        );
        let mut not_a_part = parts();
        not_a_part[2].part = 9;
        let why = merge(&named(not_a_part)).expect_err("part 9 of 3");
        assert!(why.contains("says it is part 9 of 3"), "{why}");
        // A run of a million parts with two given names the first missing (the merge
        // looks for 20 only) and counts the rest.
        let mut many = parts();
        many.truncate(2);
        for s in &mut many {
            s.parts = 1_000_000;
        }
        let why =
            missing_words(&(3..23).collect::<Vec<u32>>(), &named(many)).expect("parts missing");
        assert!(
            why.starts_with("shards 3, 4, 5,") && why.contains("and 999978 more of 1000000"),
            "{why}"
        );
        let mut cut_short = parts();
        if let Some(sums) = cut_short[0].sums.as_mut() {
            sums[1].games -= 1;
        }
        let why = merge(&named(cut_short)).expect_err("a part cut short");
        assert!(why.contains("a run cut short"), "{why}");
        let text = shard_of(5, (1, 3)).to_json().expect("json");
        let half = (0..=text.len() / 2)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        let why = Shard::from_json("cut.json", &text[..half]).expect_err("cut short");
        assert!(
            why.starts_with("cut.json:1:") && why.contains("cut short"),
            "{why}"
        );
        assert!(
            Shard::from_json("x.json", "{\"arms\": []}")
                .expect_err("not a shard")
                .contains("x.json is not a lab shard")
        );
    }

    #[test]
    fn parts_are_named_i_of_n_and_split_the_games_between_them() {
        assert_eq!(parse_part("3/8"), Ok((3, 8)));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(parse_part(bad).is_err(), "{bad}");
        }
        let mut all: Vec<u32> = (1..=4).flat_map(|i| indices(10, (i, 4), None)).collect();
        all.sort_unstable();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        assert_eq!(indices(10, (2, 4), None).collect::<Vec<_>>(), vec![1, 5, 9]);
        // Twins stay together: seed 1 is games 2 and 3.
        let twins = Some(Pairing { twins: true });
        assert_eq!(
            indices(12, (2, 4), twins).collect::<Vec<_>>(),
            vec![2, 3, 10, 11]
        );
        for games in 0..40 {
            for parts in 1..7 {
                for part in 1..=parts {
                    for pairing in [None, twins] {
                        assert_eq!(
                            part_size(games, (part, parts), pairing) as usize,
                            indices(games, (part, parts), pairing).count(),
                            "{games} games, part {part}/{parts}, {pairing:?}"
                        );
                    }
                }
            }
        }
    }
}
