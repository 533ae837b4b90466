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

use super::report::Question;
use super::run::GameResult;

/// What a shard file says it is, first thing.
pub const FORMAT: &str = "tanktable lab shard 1";

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
    /// Its games, sorted by variant and game.
    pub results: Vec<GameResult>,
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

/// The games of each variant that part `part` of `parts` plays, out of `games`.
pub fn indices(games: u32, (part, parts): (u32, u32)) -> impl Iterator<Item = u32> {
    (part.saturating_sub(1)..games).step_by(parts.max(1) as usize)
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

impl Shard {
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
    (a != b).then(|| "its question differs (drawn choices or a sweep)".to_string())
}

/// The question and every game of a run put back together from its shards, each given
/// with the name of its file.
///
/// # Errors
/// A sentence naming the file when the shards are not the parts of one run, each once:
/// a shard of another run (which field differs), of another build or other rules, a
/// part missing or given twice, or games that do not add up.
pub fn merge(shards: &[(String, Shard)]) -> Result<(Question, Vec<GameResult>), String> {
    let Some((first_name, first)) = shards.first() else {
        return Err("no shards to merge".into());
    };
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
        if let Some(other) = seen.insert(s.part, name) {
            return Err(format!(
                "shard {}/{} is given twice: {other} and {name}",
                s.part, s.parts
            ));
        }
    }
    let missing: Vec<String> = (1..=first.parts)
        .filter(|p| !seen.contains_key(p))
        .map(|p| p.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "shard{} {} of {} {} missing (given: {})",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", "),
            first.parts,
            if missing.len() == 1 { "is" } else { "are" },
            seen.keys()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let mut results: Vec<GameResult> = Vec::new();
    for (name, s) in shards {
        let expected: Vec<u32> = indices(s.question.games, (s.part, s.parts)).collect();
        for (arm, _) in s.question.arms.iter().enumerate() {
            let got: Vec<u32> = s
                .results
                .iter()
                .filter(|r| usize::from(r.arm) == arm)
                .map(|r| r.index)
                .collect();
            if got != expected {
                return Err(format!(
                    "{name} holds {} games of variant {} where its part is {} (a run cut short?)",
                    got.len(),
                    s.question.arms[arm].0,
                    expected.len()
                ));
            }
        }
        results.extend(s.results.iter().cloned());
    }
    results.sort_by_key(|r| (r.arm, r.index));
    Ok((first.question.clone(), results))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::{self, Ask, LabReport, Live};
    use crate::rules::range_duel::{DuelSetup, RangeDuel};

    /// Part `part` of `parts` of a Range Duel question (the base and a shorter duel, 70
    /// games each, seed `seed`), as its file would hold it.
    fn shard_of(seed: u64, part: (u32, u32)) -> Shard {
        let setup = DuelSetup::builtin_default();
        let short = BTreeMap::from([("rules.turn_limit".to_string(), "6".to_string())]);
        let ask = Ask {
            games: 70,
            seed,
            threads: 2,
            ..Ask::default()
        };
        let (mut plan, question) =
            lab::plan::<RangeDuel>(&setup, "default", &[("short".into(), short)], &ask)
                .expect("a plan");
        plan.shard = Some(part);
        let live = Live::new(plan.arms.len());
        lab::run::<RangeDuel>(&plan, &live).expect("played");
        let tunings: Vec<String> = plan
            .arms
            .iter()
            .map(|a| lab::variant::tuning_text::<RangeDuel>(&a.setup).expect("tuning"))
            .collect();
        Shard {
            format: FORMAT.into(),
            build: env!("CARGO_PKG_VERSION").into(),
            rules: fingerprint(&tunings),
            part: part.0,
            parts: part.1,
            question,
            results: live.snapshot().iter().map(|r| (**r).clone()).collect(),
        }
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
        let single = LabReport::build(whole.question.clone(), &whole.results);
        // Through their files' text, as a merge on another machine reads them.
        let parts: Vec<Shard> = (1..=7)
            .map(|i| {
                let s = shard_of(5, (i, 7));
                Shard::from_json("part", &s.to_json().expect("json")).expect("read back")
            })
            .collect();
        let (question, results) = merge(&named(parts)).expect("merged");
        let merged = LabReport::build(question, &results);
        assert_eq!(
            merged.to_json().expect("json"),
            single.to_json().expect("json")
        );
        assert_eq!(results.len(), 140);
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
        let mut cut_short = parts();
        cut_short[0].results.pop();
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
        let mut all: Vec<u32> = (1..=4).flat_map(|i| indices(10, (i, 4))).collect();
        all.sort_unstable();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        assert_eq!(indices(10, (2, 4)).collect::<Vec<_>>(), vec![1, 5, 9]);
    }
}
