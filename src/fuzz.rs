//! A structure-aware fuzzer for every file reader, on stable Rust.
//!
//! Seeds are the project's own files (every scenario, setup, rules table and test file)
//! and a fresh match record of every game. Each input is a seed changed one to four times
//! the way a person editing RON by hand (or a damaged disk) would: a number swapped for a
//! boundary value, a string for an empty, huge, escape-laden or duplicated one, a list
//! element removed, doubled or swapped, a field or variant name swapped for another of
//! the file's, deep nesting, truncation, a flipped byte.
//!
//! Every input goes the way `tanktable check` takes it (detect the game and kind, read,
//! validate, replay a record) and, when it reads, the way `legal` and `sim` go on (a
//! match starts, and a few random legal actions are played). Checked for each input:
//! no panic, and every error names the file and a place in it.
//!
//! A short run is part of `cargo test`; the long run (10⁶ inputs per reader) is
//!
//! ```text
//! cargo test --release --no-default-features --lib long_fuzz -- --ignored --nocapture
//! ```
//!
//! with `TANKTABLE_FUZZ_INPUTS` to change the count.

use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};

use crate::data::Diagnostics;
use crate::dispatch_game;
use crate::framework::MatchRng;
use crate::framework::playable::{self, Playable, Recorded};
use crate::rules::{FileKind, GameKind, detect};

/// One seed file: its path (errors name it) and text.
#[derive(Clone, Debug)]
pub struct Seed {
    pub path: PathBuf,
    pub text: String,
    /// The reader it exercises: game and kind of file.
    pub reader: (GameKind, FileKind),
}

/// Every seed: the project's data files and a record of each game.
///
/// # Panics
/// When a shipped file does not read: the project is broken then.
#[must_use]
pub fn seeds() -> Vec<Seed> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        "scenarios",
        "scenarios/tank-chess",
        "scenarios/battle-tanks",
        "scenarios/tank-combat",
        "scenarios/range-duel",
        "assets/rules",
        "tests/scenarios",
        "tests/data",
        "tests/data/tank-chess",
    ] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        let mut names: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        names.sort();
        files.extend(names.into_iter().filter(|p| p.is_file()));
    }
    let mut out: Vec<Seed> = files
        .into_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(&path).ok()?;
            let found = detect(&path, &text).ok()?;
            Some(Seed {
                path,
                text,
                reader: (found.game, found.kind),
            })
        })
        .collect();
    for game in GameKind::ALL {
        out.push(dispatch_game!(game, record_seed()));
    }
    out.push(design_seed());
    out
}

/// A record of a short bot game on the game's default setup.
fn record_seed<G: Playable>() -> Seed {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = G::load_rules(None).expect("the shipped rules read");
    let path = root.join(G::KIND.default_setup());
    let setup = playable::load_setup::<G>(&path, &rules).expect("the default setup reads");
    let mut game = playable::start::<G>(&setup, 3, &[]).expect("it starts");
    let mut bots = playable::bots_for::<G>(&[], game.state().player_count()).expect("bots");
    let mut rng = MatchRng::new(4);
    while game.state().outcome().is_none() && game.history().len() < 60 {
        let player = game.state().to_act()[0];
        let Some(action) = bots[usize::from(player.0)].choose(game.state(), player, &mut rng)
        else {
            break;
        };
        game.play(player, &action).expect("a bot plays legally");
    }
    let text = G::write_record(&Recorded::of(&setup, 3, &[], &[], &game)).expect("it writes");
    Seed {
        path: root.join(format!("tests/fuzz-record.{}", G::RECORD_EXTENSION)),
        text,
        reader: (G::KIND, FileKind::Record),
    }
}

/// A saved tank design, as the builder writes them.
fn design_seed() -> Seed {
    let text = "TankDesign(\n    name: \"Longshot\",\n    painted: true,\n    named: true,\n    crew: CrewNames(commander: \"Ada\", driver: \"Bo\", gunner: \"Cy\", loader: \"Di\", lieutenant: \"\"),\n    build: Build(armor: ArmorPoints(front: 2, side: 1, rear: 0), engine: true, barrel: true, optics: true, he_rounds: false, anti_infantry: false, smoke_launcher: false, medkit: false, lieutenant: false, air_support: false, mines: 0),\n)\n";
    Seed {
        path: Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-design.ron"),
        text: text.to_string(),
        reader: (GameKind::TankCommander, FileKind::Design),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Open,
    Close,
    Str,
    Num,
    Ident,
    Other,
}

/// The text's tokens, as byte ranges (whitespace and comments left out).
fn tokens(text: &str) -> Vec<(Tok, usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        let kind = match c {
            b' ' | b'\t' | b'\r' | b'\n' => {
                i += 1;
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' => {
                i += 1;
                Tok::Open
            }
            b')' | b']' | b'}' => {
                i += 1;
                Tok::Close
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(bytes.len());
                Tok::Str
            }
            b'0'..=b'9' | b'-' | b'+' => {
                i += 1;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || b"._".contains(&bytes[i]))
                {
                    i += 1;
                }
                Tok::Num
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                Tok::Ident
            }
            _ => {
                i += 1;
                while i < bytes.len() && !text.is_char_boundary(i) {
                    i += 1;
                }
                Tok::Other
            }
        };
        out.push((kind, start, i));
    }
    out
}

/// The end of the bracketed value opened by token `open`, as a token index.
fn matching(toks: &[(Tok, usize, usize)], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.0 {
            Tok::Open => depth += 1,
            Tok::Close => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

const NUMBERS: [&str; 16] = [
    "0",
    "1",
    "-1",
    "2",
    "6",
    "7",
    "255",
    "256",
    "65535",
    "65536",
    "4294967295",
    "18446744073709551615",
    "-9223372036854775808",
    "99999999999999999999999",
    "1e308",
    "0.5",
];

/// One structure-aware change to `text`.
fn mutate_once(text: &str, rng: &mut MatchRng) -> String {
    let toks = tokens(text);
    if toks.is_empty() {
        return format!("{text}(");
    }
    let pick_of = |rng: &mut MatchRng, kind: Tok| {
        let of: Vec<usize> = (0..toks.len()).filter(|&k| toks[k].0 == kind).collect();
        (!of.is_empty()).then(|| of[rng.pick(of.len())])
    };
    let splice =
        |(_, a, b): (Tok, usize, usize), with: &str| format!("{}{with}{}", &text[..a], &text[b..]);
    match rng.pick(10) {
        0 => match pick_of(rng, Tok::Num) {
            Some(k) => splice(toks[k], NUMBERS[rng.pick(NUMBERS.len())]),
            None => text.to_string(),
        },
        1 => match pick_of(rng, Tok::Str) {
            Some(k) => {
                let other = pick_of(rng, Tok::Str).map_or("\"\"", |o| &text[toks[o].1..toks[o].2]);
                let upper = other.to_uppercase();
                let long = format!("\"{}\"", "x".repeat(1 + rng.pick(5000)));
                let choices = [
                    "\"\"",
                    "\"\\u{1b}[2J\"",
                    "\"a\\tb\"",
                    "\"Ünïcödé 戦車\"",
                    other,
                    upper.as_str(),
                    long.as_str(),
                    "\"scenarios/skirmish.ron\"",
                    "\"../../../../etc/passwd\"",
                    "\"",
                ];
                splice(toks[k], choices[rng.pick(choices.len())])
            }
            None => text.to_string(),
        },
        2 | 3 => {
            // A whole value out, doubled, or swapped with its neighbour: a list element,
            // a struct or a tuple.
            let Some(open) = pick_of(rng, Tok::Open) else {
                return text.to_string();
            };
            let Some(close) = matching(&toks, open) else {
                return text.to_string();
            };
            // Widen to the identifier naming the value (`Band(`) if there is one.
            let first = if open > 0 && toks[open - 1].0 == Tok::Ident {
                open - 1
            } else {
                open
            };
            let (a, b) = (toks[first].1, toks[close].2);
            let value = &text[a..b];
            match rng.pick(3) {
                0 => format!("{}{}", &text[..a], &text[b..]),
                1 if value.len() < 20_000 => {
                    let most = if rng.pick(8) == 0 { 300 } else { 3 };
                    let times = 1 + rng.pick(most);
                    let more = format!(", {value}").repeat(times);
                    format!("{}{value}{more}{}", &text[..a], &text[b..])
                }
                _ => {
                    // Swap with the next value at the same depth, if any.
                    let next = toks
                        .iter()
                        .enumerate()
                        .skip(close + 1)
                        .find(|(_, t)| t.0 != Tok::Other)
                        .map(|(k, _)| k);
                    match next.and_then(|n| {
                        let open2 = if toks[n].0 == Tok::Ident { n + 1 } else { n };
                        (toks.get(open2)?.0 == Tok::Open)
                            .then(|| matching(&toks, open2).map(|c| (n, c)))
                            .flatten()
                    }) {
                        Some((n, c)) => {
                            let (c0, c1) = (toks[n].1, toks[c].2);
                            format!(
                                "{}{}{}{value}{}",
                                &text[..a],
                                &text[c0..c1],
                                &text[b..c0],
                                &text[c1..]
                            )
                        }
                        None => format!("{}{}", &text[..a], &text[b..]),
                    }
                }
            }
        }
        4 => match (pick_of(rng, Tok::Ident), pick_of(rng, Tok::Ident)) {
            (Some(k), Some(o)) => splice(toks[k], &text[toks[o].1..toks[o].2]),
            _ => text.to_string(),
        },
        5 => {
            let k = rng.pick(toks.len());
            text[..toks[k].1].to_string()
        }
        6 => {
            let k = rng.pick(toks.len());
            let depth = 1 + rng.pick(200);
            format!(
                "{}{}{}{}",
                &text[..toks[k].1],
                "(".repeat(depth),
                ")".repeat(depth),
                &text[toks[k].1..]
            )
        }
        7 => {
            // A token out: a comma, a colon, a bracket.
            let k = rng.pick(toks.len());
            splice(toks[k], "")
        }
        8 => {
            let mut bytes = text.as_bytes().to_vec();
            let at = rng
                .pick(bytes.len().max(1))
                .min(bytes.len().saturating_sub(1));
            if let Some(b) = bytes.get_mut(at) {
                *b ^= 1 << rng.pick(8);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        }
        _ => match pick_of(rng, Tok::Num) {
            Some(k) => {
                let n = &text[toks[k].1..toks[k].2];
                let changed = n.parse::<i64>().map_or_else(
                    |_| "3".to_string(),
                    |v| (v + [-1, 1, 2, -2][rng.pick(4)]).to_string(),
                );
                splice(toks[k], &changed)
            }
            None => text.to_string(),
        },
    }
}

/// A seed changed one to four times.
#[must_use]
pub fn mutate(text: &str, rng: &mut MatchRng) -> String {
    let mut out = text.to_string();
    for _ in 0..=rng.pick(4) {
        out = mutate_once(&out, rng);
        // Keep inputs to a size a person could make; memory stays bounded.
        if out.len() > 4_000_000 {
            out.truncate(out.floor_char_boundary(4_000_000));
        }
    }
    out
}

/// What one input did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It read, and a few legal actions played.
    Read,
    /// It was refused with placed errors.
    Refused,
}

/// Why an input failed the harness.
#[derive(Clone, Debug)]
pub struct Failure {
    pub input: String,
    pub why: String,
}

/// Runs one input the way the commands read files.
///
/// # Errors
/// A panic, or an error that does not name the file and a place.
pub fn run_one(path: &Path, text: &str) -> Result<Verdict, Failure> {
    let fail = |why: String| Failure {
        input: text.to_string(),
        why,
    };
    let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| check_input(path, text)));
    match outcome {
        Ok(Ok(())) => Ok(Verdict::Read),
        Ok(Err(Refusal::Placed(d))) => {
            let name = path.display().to_string();
            let lines = text.lines().count().max(1) + 1;
            for e in &d.0 {
                if e.message.trim().is_empty() {
                    return Err(fail(format!("an empty message: {d}")));
                }
                if e.line == 0 || e.col == 0 {
                    return Err(fail(format!("a place outside the file: {e}")));
                }
                if e.file == name && e.line > lines {
                    return Err(fail(format!("line {} of a {lines}-line file: {e}", e.line)));
                }
            }
            if d.0.is_empty() {
                return Err(fail("refused with no diagnostic".into()));
            }
            Ok(Verdict::Refused)
        }
        Ok(Err(Refusal::Sentence(s))) => {
            let name = path.display().to_string();
            if s.starts_with(&name) {
                Ok(Verdict::Refused)
            } else {
                Err(fail(format!("an error that does not name the file: {s}")))
            }
        }
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(ToString::to_string))
                .unwrap_or_default();
            Err(fail(format!("panicked: {message}")))
        }
    }
}

enum Refusal {
    Placed(Diagnostics),
    Sentence(String),
}

fn check_input(path: &Path, text: &str) -> Result<(), Refusal> {
    let found = detect(path, text).map_err(|e| Refusal::Sentence(e.to_string()))?;
    dispatch_game!(found.game, read_and_play(path, text, found.kind))
}

/// Reads the file as its kind, then plays a few random legal actions from it.
fn read_and_play<G: Playable>(path: &Path, text: &str, kind: FileKind) -> Result<(), Refusal> {
    let name = path.display().to_string();
    let placed = |message: String| Refusal::Placed(Diagnostics::whole_file(&name, message));
    let mut game = match kind {
        FileKind::Rules => {
            match G::KIND {
                GameKind::TankCommander => {
                    crate::rules::tank_commander::Rules::parse(&name, text).map(|_| ())
                }
                GameKind::TankChess => {
                    crate::rules::tank_chess::Rules::parse(&name, text).map(|_| ())
                }
                GameKind::RangeDuel => {
                    crate::rules::range_duel::DuelTable::parse(&name, text).map(|_| ())
                }
                GameKind::BattleTanks | GameKind::TankCombat => {
                    G::load_rules(Some(path)).map(|_| ())
                }
            }
            .map_err(Refusal::Placed)?;
            return Ok(());
        }
        FileKind::Design => {
            let rules = crate::rules::tank_commander::Rules::builtin();
            let (design, _): (crate::rules::tank_commander::setup::TankDesign, _) =
                crate::data::load_ron(&name, text).map_err(Refusal::Placed)?;
            for kind in [
                crate::rules::tank_commander::UnitKind::Tank,
                crate::rules::tank_commander::UnitKind::Apc,
            ] {
                let _ = design
                    .build
                    .problems(kind, &rules, design.painted, design.named);
            }
            return Ok(());
        }
        FileKind::Campaign => {
            let rules = crate::rules::tank_commander::Rules::builtin();
            crate::rules::tank_commander::campaign::Campaign::parse(path, text, &rules)
                .map_err(Refusal::Placed)?;
            return Ok(());
        }
        FileKind::CampaignState => {
            let _: (crate::rules::tank_commander::campaign::CampaignState, _) =
                crate::data::load_ron(&name, text).map_err(Refusal::Placed)?;
            return Ok(());
        }
        FileKind::Variant => {
            crate::lab::variant::check::<G>(path, text).map_err(Refusal::Placed)?;
            return Ok(());
        }
        FileKind::SeatCopy => {
            let copy =
                crate::net::copy::SeatCopy::read::<G>(path, text).map_err(Refusal::Placed)?;
            copy.states::<G>(path).map_err(Refusal::Placed)?;
            return Ok(());
        }
        FileKind::Setup => {
            let rules = G::load_rules(None).map_err(Refusal::Placed)?;
            let setup = G::parse_setup(path, text, &rules).map_err(Refusal::Placed)?;
            playable::start::<G>(&setup, 1, &[]).map_err(|e| placed(e.to_string()))?
        }
        FileKind::Record => {
            let rules = G::load_rules(None).map_err(Refusal::Placed)?;
            let record = G::read_record(path, text, &rules).map_err(Refusal::Placed)?;
            playable::replay(&record).map_err(|e| Refusal::Placed(e.locate(&name, text)))?
        }
    };
    let mut rng = MatchRng::new(text.len() as u64);
    for _ in 0..5 {
        if game.state().outcome().is_some() {
            break;
        }
        let Some(&player) = game.state().to_act().first() else {
            break;
        };
        let legal = game.state().legal_actions(player);
        if legal.is_empty() {
            break;
        }
        let action = legal[rng.pick(legal.len())].clone();
        // A legal action is played; only a scripted die may refuse it.
        if let Err(e) = game.play(player, &action) {
            panic!("a legal action was refused: {e}");
        }
        let _ = game.state().describe_action(&action);
    }
    Ok(())
}

/// Fuzzes every seed with `per_reader` inputs per reader (game and kind of file);
/// returns the counts read and refused per reader, and every failure.
#[must_use]
pub fn run(per_reader: usize, seed: u64, progress: bool) -> (Vec<Tally>, Vec<Failure>) {
    use rayon::prelude::*;
    let seeds = seeds();
    let mut readers: Vec<(GameKind, FileKind)> = seeds.iter().map(|s| s.reader).collect();
    readers.sort_by_key(|r| (r.0.name(), format!("{:?}", r.1)));
    readers.dedup();
    let results: Vec<(Tally, Vec<Failure>)> = readers
        .par_iter()
        .map(|&reader| {
            let mine: Vec<&Seed> = seeds.iter().filter(|s| s.reader == reader).collect();
            let mut rng =
                MatchRng::new(seed ^ crate::framework::stable_hash(&format!("{reader:?}")));
            let mut tally = Tally {
                reader: format!("{} {:?}", reader.0.name(), reader.1),
                inputs: 0,
                read: 0,
                refused: 0,
                seconds: 0.0,
            };
            let started = std::time::Instant::now();
            let mut failures = Vec::new();
            for i in 0..per_reader {
                let s = mine[rng.pick(mine.len())];
                let input = mutate(&s.text, &mut rng);
                tally.inputs += 1;
                match run_one(&s.path, &input) {
                    Ok(Verdict::Read) => tally.read += 1,
                    Ok(Verdict::Refused) => tally.refused += 1,
                    Err(f) => {
                        if progress {
                            eprintln!("{}: FAILED at input {i}: {}", tally.reader, f.why);
                        }
                        if failures.len() < 20 {
                            failures.push(f);
                        }
                    }
                }
                if progress && i > 0 && i % 100_000 == 0 {
                    eprintln!("{}: {i} inputs", tally.reader);
                }
            }
            tally.seconds = started.elapsed().as_secs_f64();
            (tally, failures)
        })
        .collect();
    let mut tallies = Vec::new();
    let mut failures = Vec::new();
    for (t, f) in results {
        tallies.push(t);
        failures.extend(f);
    }
    (tallies, failures)
}

/// Inputs tried on one reader.
#[derive(Clone, Debug)]
pub struct Tally {
    pub reader: String,
    pub inputs: usize,
    pub read: usize,
    pub refused: usize,
    /// Seconds this reader took.
    pub seconds: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(tallies: &[Tally], failures: &[Failure]) -> String {
        let mut out = String::new();
        for t in tallies {
            out.push_str(&format!(
                "{:28} {:>8} inputs {:>8} read {:>8} refused {:>8.1} s\n",
                t.reader, t.inputs, t.read, t.refused, t.seconds
            ));
        }
        for f in failures.iter().take(5) {
            let head: String = f.input.chars().take(3000).collect();
            out.push_str(&format!("FAILED: {}\n--- input ---\n{head}\n", f.why));
        }
        out
    }

    #[test]
    fn every_reader_has_seeds_and_mutation_changes_them() {
        let seeds = seeds();
        for game in GameKind::ALL {
            for kind in [FileKind::Setup, FileKind::Record] {
                assert!(
                    seeds.iter().any(|s| s.reader == (game, kind)),
                    "no seed for {game} {kind:?}"
                );
            }
        }
        let mut rng = MatchRng::new(1);
        let changed = (0..200)
            .filter(|_| mutate(&seeds[0].text, &mut rng) != seeds[0].text)
            .count();
        assert!(
            changed > 150,
            "only {changed} of 200 mutations changed the seed"
        );
        // Every seed as it is reads, but the test files made to be refused.
        for s in seeds
            .iter()
            .filter(|s| !s.path.ends_with("bad-scenario.ron"))
        {
            assert_eq!(
                run_one(&s.path, &s.text).map_err(|f| f.why),
                Ok(Verdict::Read),
                "{}",
                s.path.display()
            );
        }
    }

    #[test]
    fn short_fuzz_run_finds_no_panic_and_no_unplaced_error() {
        let (tallies, failures) = run(200, 1, false);
        assert!(failures.is_empty(), "{}", report(&tallies, &failures));
        for t in &tallies {
            assert!(
                t.read > 0 && t.refused > 0,
                "{}",
                report(&tallies, &failures)
            );
        }
    }

    /// The long run: 10⁶ inputs per reader (`TANKTABLE_FUZZ_INPUTS` to change).
    #[test]
    #[ignore = "long: run with --release -- --ignored"]
    fn long_fuzz() {
        let n = std::env::var("TANKTABLE_FUZZ_INPUTS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1_000_000);
        let seed = std::env::var("TANKTABLE_FUZZ_SEED")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(2026);
        let started = std::time::Instant::now();
        let (tallies, failures) = run(n, seed, true);
        let peak = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("VmHWM"))
                    .map(ToString::to_string)
            })
            .unwrap_or_default();
        eprintln!(
            "{}{} failures; {:.0} s; peak memory {peak}",
            report(&tallies, &failures),
            failures.len(),
            started.elapsed().as_secs_f64()
        );
        assert!(failures.is_empty());
    }
}
