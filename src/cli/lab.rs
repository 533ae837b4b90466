//! `tanktable lab`: the playtest lab's questions from the command line, for scripts and
//! CI. The same seed gives the same numbers as the client's Lab screen.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicU32;

use super::commands::{Input, progress};
use crate::dispatch_game;
use crate::framework::Playable;
use crate::framework::playable;
use crate::lab::{self, Ask, LabReport, Live, VariantFile, shard, variant, whatif};
use crate::rules::{FileKind, GameKind};

/// What `lab` was asked: `tanktable lab --help`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct LabArgs {
    /// A setup and/or lab variant files; or one match record for what-if.
    pub files: Vec<PathBuf>,
    /// Games per variant (what-if: continuations).
    #[arg(long, short = 'n', default_value_t = 1000)]
    pub games: u32,
    /// Base seed; game i of every variant uses the same seed derived from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Bots by seat, as for `sim`.
    #[arg(long, value_delimiter = ',')]
    pub bots: Vec<String>,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// A variant from the command line: `field=value`, repeatable
    /// (`--set firing.forest_penalty=2`).
    #[arg(long, value_name = "FIELD=VALUE")]
    pub set: Vec<String>,
    /// The name of the --set variant (default: B).
    #[arg(long)]
    pub name: Option<String>,
    /// Vary one field: `field=from..to`, `field=from..to:step` or `field=a,b,c`.
    #[arg(long, value_name = "FIELD=RANGE")]
    pub sweep: Option<String>,
    /// Write the summary (a line per variant and seat) as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write every game (a line each) as CSV.
    #[arg(long, value_name = "FILE")]
    pub games_csv: Option<PathBuf>,
    /// List every number and switch a variant may change, with its meaning and the
    /// values the rules accept, and exit.
    #[arg(long)]
    pub fields: bool,
    /// Draw each game's choices before play at random (Tank Commander: every side's tank
    /// upgrades), and report each choice's win rate when taken and without.
    #[arg(long)]
    pub random_builds: bool,
    /// Write the --set changes as a variant file.
    #[arg(long, value_name = "FILE")]
    pub save_variant: Option<PathBuf>,
    /// What-if: the position after this many actions of the record.
    #[arg(long)]
    pub at: Option<usize>,
    /// What-if: also the chances after each of this many candidate actions.
    #[arg(long, default_value_t = 0)]
    pub candidates: usize,
    /// What-if: write the record cut at --at, to play on from there.
    #[arg(long, value_name = "FILE")]
    pub branch: Option<PathBuf>,
    /// Play only part I of N of the games (game i of each variant when i mod N = I - 1),
    /// for `tanktable lab merge` to put together with the other parts; needs --out.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Write the games played (a shard, or with no --shard the whole run) to FILE for
    /// `tanktable lab merge FILE…`, instead of printing the report.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Compare the variants unpaired: one game a seed, intervals as if the games were
    /// independent (by default a question with variants pairs its games by seed and, where
    /// chance decides who moves first, plays each seed again with the first move swapped).
    #[arg(long)]
    pub unpaired: bool,
    /// Stop as soon as a sequential test (SPRT) can say whether the variant moves a seat's
    /// win rate by at least this many points; -n is then the most games a variant plays.
    #[arg(long, value_name = "POINTS")]
    pub sprt: Option<f64>,
    /// The seat the sequential test asks about (default: the first).
    #[arg(long, value_name = "SEAT")]
    pub sprt_seat: Option<String>,
    /// The sequential test's chance of answering "it changes" when it does not.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// The sequential test's chance of answering "it does not" when it changes by the
    /// points asked.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
}

impl LabArgs {
    /// Whether this is `lab merge FILE…` (and not a file called `merge`).
    #[must_use]
    pub fn is_merge(&self) -> bool {
        self.files.first().is_some_and(|f| f.as_os_str() == "merge") && !Path::new("merge").exists()
    }
}

/// Runs `lab`.
///
/// # Errors
/// A sentence for a bad argument or file.
pub fn run(options: &LabArgs) -> Result<ExitCode, String> {
    if options.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if options
        .files
        .first()
        .is_some_and(|f| f.as_os_str() == "merge")
        && !Path::new("merge").exists()
    {
        return merge(&options.files[1..], options);
    }
    if options.shard.is_some() && options.out.is_none() {
        return Err(
            "--shard writes its games to --out FILE, for `tanktable lab merge` to put together"
                .into(),
        );
    }
    for path in [
        &options.csv,
        &options.games_csv,
        &options.save_variant,
        &options.branch,
        &options.out,
    ]
    .into_iter()
    .flatten()
    {
        crate::data::writable_target(path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let mut inputs = Vec::new();
    for file in &options.files {
        inputs.push(Input::read(
            file,
            &[FileKind::Setup, FileKind::Variant, FileKind::Record],
            "lab",
        )?);
    }
    let game = match inputs.first() {
        Some(first) => first.found.game,
        None => GameKind::TankCommander,
    };
    if let Some(other) = inputs.iter().find(|i| i.found.game != game) {
        return Err(format!(
            "{} is {}, but {} is a {} file: a lab question is about one game",
            other.name(),
            other.found.describe(),
            inputs[0].name(),
            game.title()
        ));
    }
    dispatch_game!(game, run_game(&inputs, options))
}

fn run_game<G: Playable>(inputs: &[Input], options: &LabArgs) -> Result<ExitCode, String> {
    if let Some(record) = what_if_record(inputs, options)? {
        return what_if::<G>(record, options);
    }
    // The base: the setup given, else the one the variants name, else the default.
    let rules = G::load_rules(None).map_err(|d| d.to_string())?;
    let (setup, setup_name, mut variants) = base_and_variants::<G>(inputs, &rules)?;
    if options.fields {
        return print_fields::<G>(&setup);
    }
    if let Some(set) = set_variant::<G>(options, &setup, &setup_name)? {
        variants.push(set);
    }
    let mut sweep_path = None;
    if let Some(spec) = &options.sweep {
        let (path, values) = lab::parse_sweep(spec)?;
        variants.extend(lab::sweep_variants(&path, &values));
        sweep_path = Some(path);
    }
    let sprt = sequential_test::<G>(options, &setup)?;
    let ask = Ask {
        games: options.games,
        seed: options.seed,
        bots: options.bots.clone(),
        threads: options.threads.unwrap_or_else(lab::run::all_cores),
        draft: options.random_builds,
        background: false,
        paired: !options.unpaired && !variants.is_empty(),
        sprt,
    };
    let (mut plan, mut question) = lab::plan::<G>(&setup, &setup_name, &variants, &ask)?;
    question.sweep = sweep_path;
    if let Some(spec) = &options.shard {
        plan.shard = Some(shard::parse_part(spec)?);
    }
    let live = Live::new(plan.arms.len());
    let per_arm = shard::indices(plan.games, plan.shard.unwrap_or((1, 1)), plan.pairing).count();
    let total = u64::try_from(per_arm.saturating_mul(plan.arms.len())).unwrap_or(u64::MAX);
    let bar = progress(u32::try_from(total).unwrap_or(u32::MAX));
    let started = std::time::Instant::now();
    let tunings = plan
        .arms
        .iter()
        .map(|a| variant::tuning_text::<G>(&a.setup))
        .collect::<Result<Vec<_>, _>>()?;
    let (part, parts) = plan.shard.unwrap_or((1, 1));
    let shard_file = |results: &[std::sync::Arc<lab::GameResult>]| {
        shard::Shard::of(
            (part, parts),
            question.clone(),
            shard::fingerprint(&tunings),
            results,
        )
    };
    play_watched::<G>(&plan, &question, &live, &bar, options, &shard_file)?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let results = live.snapshot();
    if let Some(out) = &options.out {
        let file = shard_file(&results);
        return write_shard(out, &file, &question, &results, options, seconds);
    }
    let report = LabReport::build(question, &results);
    emit(&report, &results, options)?;
    if !options.json {
        say!(
            "{} games in {seconds:.2} s, {:.0} games/s on {} thread(s)",
            results.len(),
            results.len() as f64 / seconds.max(1e-9),
            ask.threads
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The match record of a what-if question, if one was given; an error for a flag that
/// belongs to the other kind of question, or for a record given with other files.
fn what_if_record<'a>(inputs: &'a [Input], options: &LabArgs) -> Result<Option<&'a Input>, String> {
    let records: Vec<&Input> = inputs
        .iter()
        .filter(|i| i.found.kind == FileKind::Record)
        .collect();
    let what_if_only = [
        options.at.map(|_| "--at"),
        (options.candidates > 0).then_some("--candidates"),
        options.branch.as_ref().map(|_| "--branch"),
    ];
    let lab_only = [
        (!options.set.is_empty()).then_some("--set"),
        options.sweep.as_ref().map(|_| "--sweep"),
        options.csv.as_ref().map(|_| "--csv"),
        options.games_csv.as_ref().map(|_| "--games-csv"),
        options.save_variant.as_ref().map(|_| "--save-variant"),
        options.fields.then_some("--fields"),
        options.random_builds.then_some("--random-builds"),
        options.shard.as_ref().map(|_| "--shard"),
        options.out.as_ref().map(|_| "--out"),
        options.unpaired.then_some("--unpaired"),
        options.sprt.map(|_| "--sprt"),
    ];
    if let Some(record) = records.first() {
        if inputs.len() > 1 {
            return Err("a what-if question takes one match record and nothing else".into());
        }
        if let Some(flag) = lab_only.into_iter().flatten().next() {
            return Err(format!(
                "{flag} asks about rules variants of a setup; {} is a match record (what-if takes --at, --candidates, --branch)",
                record.name()
            ));
        }
        return Ok(Some(*record));
    }
    if let Some(flag) = what_if_only.into_iter().flatten().next() {
        return Err(format!(
            "{flag} asks what-if of a match record; give one instead of a setup or variants"
        ));
    }
    Ok(None)
}

/// The base setup and its portable name (the setup given, else the one the variants
/// name, else the game's default), and the variant files' variants in order.
fn base_and_variants<G: Playable>(
    inputs: &[Input],
    rules: &G::Rules,
) -> Result<(G::Setup, String, Vec<(String, BTreeMap<String, String>)>), String> {
    let mut variants: Vec<(String, BTreeMap<String, String>)> = Vec::new();
    let mut base: Option<(G::Setup, String)> = None;
    for input in inputs {
        match input.found.kind {
            FileKind::Setup => {
                if base.is_some() {
                    return Err(format!("{}: a lab question has one setup", input.name()));
                }
                let setup =
                    G::parse_setup(&input.path, &input.text, rules).map_err(|d| d.to_string())?;
                base = Some((setup, crate::data::portable_path(&input.path)));
            }
            _ => {
                let v = VariantFile::parse(&input.path, &input.text).map_err(|d| d.to_string())?;
                if base.is_none()
                    && let Some(path) = v.setup_path(&input.path)
                {
                    let setup =
                        playable::load_setup::<G>(&path, rules).map_err(|d| d.to_string())?;
                    base = Some((setup, crate::data::portable_path(&path)));
                }
                variants.push((v.name, v.changes));
            }
        }
    }
    let (setup, setup_name) = match base {
        Some(b) => b,
        None => {
            let path = crate::data::find_project_file(G::KIND.default_setup())
                .unwrap_or_else(|| PathBuf::from(G::KIND.default_setup()));
            (
                playable::load_setup::<G>(&path, rules).map_err(|d| d.to_string())?,
                crate::data::portable_path(&path),
            )
        }
    };
    Ok((setup, setup_name, variants))
}

/// The `--set` variant, named by `--name` (else B), written first as a variant file
/// with `--save-variant`; none without `--set`.
fn set_variant<G: Playable>(
    options: &LabArgs,
    setup: &G::Setup,
    setup_name: &str,
) -> Result<Option<(String, BTreeMap<String, String>)>, String> {
    if options.set.is_empty() {
        return Ok(None);
    }
    let mut changes = BTreeMap::new();
    for pair in &options.set {
        let (path, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("--set takes `field=value`, not `{pair}`"))?;
        changes.insert(path.trim().to_string(), value.trim().to_string());
    }
    let name = options.name.clone().unwrap_or_else(|| "B".to_string());
    if let Some(out) = &options.save_variant {
        variant::apply::<G>(setup, &changes).map_err(|p| p.join("\n"))?;
        let file = VariantFile {
            game: G::NAME.to_string(),
            setup: Some(relative_setup(setup_name, out)),
            name: name.clone(),
            changes: changes.clone(),
        };
        file.save(out)?;
        eprintln!("Wrote {}.", out.display());
    }
    Ok(Some((name, changes)))
}

/// The sequential test `--sprt` asks for, on `--sprt-seat` (else the first seat); an
/// error for `--sprt-seat` without it, or for a test with `--unpaired`.
fn sequential_test<G: Playable>(
    options: &LabArgs,
    setup: &G::Setup,
) -> Result<Option<lab::Sprt>, String> {
    let sprt = match options.sprt {
        Some(delta) => {
            let seat = match &options.sprt_seat {
                Some(seat) => seat.clone(),
                None => {
                    let game = G::from_setup(setup).map_err(|e| e.to_string())?;
                    game.player_name(crate::framework::PlayerId(0))
                }
            };
            Some(lab::Sprt {
                seat,
                delta,
                alpha: options.alpha,
                beta: options.beta,
            })
        }
        None if options.sprt_seat.is_some() => {
            return Err(
                "--sprt-seat names the seat of a sequential test: give --sprt POINTS".into(),
            );
        }
        None => None,
    };
    if options.unpaired && sprt.is_some() {
        return Err("--sprt reads paired games; leave out --unpaired".into());
    }
    Ok(sprt)
}

/// Plays the plan on worker threads while moving the progress bar and, for a
/// sequential test, reading it as the games finish (or, for a shard with `--out`,
/// writing its games so far for a merge to read).
fn play_watched<G: Playable>(
    plan: &lab::Plan<G::Setup>,
    question: &lab::Question,
    live: &Live,
    bar: &indicatif::ProgressBar,
    options: &LabArgs,
    shard_file: &dyn Fn(&[std::sync::Arc<lab::GameResult>]) -> shard::Shard,
) -> Result<(), String> {
    let mut last_write = None;
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| lab::run::<G>(plan, live));
        while !worker.is_finished() {
            bar.set_position(live.finished());
            std::thread::sleep(std::time::Duration::from_millis(50));
            let every = if plan.shard.is_some() {
                SHARD_EVERY
            } else {
                SPRT_EVERY
            };
            if question.sprt.is_none()
                || last_write.is_some_and(|t: std::time::Instant| t.elapsed().as_secs_f64() < every)
            {
                continue;
            }
            last_write = Some(std::time::Instant::now());
            match &options.out {
                // A shard of a sequential run: written as it goes, for a merge to read.
                Some(out) if plan.shard.is_some() => {
                    if let Ok(json) = shard_file(&live.snapshot()).to_json() {
                        let _ = crate::data::write_atomic(out, &json);
                    }
                }
                _ => {
                    lab::watch(question, live);
                }
            }
        }
        worker
            .join()
            .unwrap_or_else(|_| Err("a lab worker stopped".into()))
    })
}

/// Writes a shard's games to `out` (and its games' lines to `--games-csv`), and says
/// so on the standard error.
fn write_shard(
    out: &Path,
    file: &shard::Shard,
    question: &lab::Question,
    results: &[std::sync::Arc<lab::GameResult>],
    options: &LabArgs,
    seconds: f64,
) -> Result<ExitCode, String> {
    let (part, parts) = (file.part, file.parts);
    crate::data::write_atomic(out, &file.to_json()?)
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    // A shard keeps its own games' lines: the merge has only their sums.
    if let Some(path) = &options.games_csv {
        crate::data::write_atomic(path, &lab::report::games_csv(question, results))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    eprintln!(
        "Wrote shard {part}/{parts} ({} games in {seconds:.2} s) to {}: merge the parts with `tanktable lab merge FILE…`.",
        results.len(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// How often, in seconds, a sequential run reads its test.
const SPRT_EVERY: f64 = 0.05;

/// How often, in seconds, a shard of a sequential run writes its games so far, for a
/// merge to read.
const SHARD_EVERY: f64 = 2.0;

/// The exit status of `lab merge` when a sequential test has no answer yet and the
/// shards are still playing: the shards should go on.
pub const GO_ON: u8 = 3;

/// Writes a report as the options ask: its CSV files, then the report itself on the
/// standard output, as text or JSON.
fn emit<R: std::borrow::Borrow<lab::GameResult>>(
    report: &LabReport,
    results: &[R],
    options: &LabArgs,
) -> Result<(), String> {
    if let Some(path) = &options.csv {
        crate::data::write_atomic(path, &report.to_csv())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(path) = &options.games_csv {
        // A sequential run's games are those of the seeds its test read, as its report's.
        let q = &report.question;
        let read = report
            .sprt
            .as_ref()
            .filter(|t| t.reading.answer.is_some())
            .map_or(u32::MAX, |t| t.reading.seeds);
        let kept: Vec<&lab::GameResult> = results
            .iter()
            .map(std::borrow::Borrow::borrow)
            .filter(|r| lab::run::seed_of(r.index, q.pairing).0 < read)
            .collect();
        crate::data::write_atomic(path, &lab::report::games_csv(q, &kept))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if options.json {
        say!("{}", report.to_json()?);
    } else {
        for line in report.to_text().lines() {
            say!("{line}");
        }
    }
    Ok(())
}

/// `tanktable lab merge FILE…`: the report of the run the shards are the parts of, the
/// same to the last digit as the whole run played on one machine.
fn merge(files: &[PathBuf], options: &LabArgs) -> Result<ExitCode, String> {
    if files.is_empty() {
        return Err("lab merge takes the shard files to put together (`--shard I/N --out FILE` writes them)".into());
    }
    for path in [&options.csv, &options.games_csv].into_iter().flatten() {
        crate::data::writable_target(path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let mut shards = Vec::new();
    for path in files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
        shards.push((name.clone(), shard::Shard::from_json(&name, &text)?));
    }
    let (question, merged, missing) = shard::merge_present(&shards)?;
    if let Some(words) = shard::missing_words(&missing, &shards) {
        // A sequential run's shards are merged while they play: one that has not
        // written its file yet is not an error, only no answer yet.
        if question.sprt.is_none() {
            return Err(words);
        }
        eprintln!("No answer yet: {words}; merge again (exit status {GO_ON}).");
        return Ok(ExitCode::from(GO_ON));
    }
    let games = merged.games();
    let whole = games == u64::from(question.games) * question.arms.len() as u64;
    let report = merged.report(question);
    match &merged {
        shard::Merged::Games(results) => emit(&report, results, options)?,
        shard::Merged::Sums(_) if options.games_csv.is_some() => {
            return Err("--games-csv: these shards hold what their games add up to, not each game; give --games-csv to each shard's command instead".into());
        }
        shard::Merged::Sums(_) => emit::<lab::GameResult>(&report, &[], options)?,
    }
    if !options.json {
        say!("{games} games from {} shards", shards.len());
    }
    if let Some(test) = &report.sprt {
        if test.reading.answer.is_some() {
            eprintln!("The sequential test has answered: the shards can stop.");
        } else if !whole {
            eprintln!("No answer yet: let the shards go on and merge again (exit status {GO_ON}).");
            return Ok(ExitCode::from(GO_ON));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The setup's path as a variant file beside `out` names it.
fn relative_setup(setup: &str, out: &Path) -> String {
    let setup = Path::new(setup);
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let (setup, folder) = (abs(setup), abs(out.parent().unwrap_or(Path::new("."))));
    // Walk up from the variant's folder until the setup lies below it.
    let mut up = String::new();
    let mut here = folder.as_path();
    loop {
        if let Ok(rest) = setup.strip_prefix(here) {
            return format!("{up}{}", rest.display());
        }
        match here.parent() {
            Some(parent) => {
                here = parent;
                up.push_str("../");
            }
            None => return setup.display().to_string(),
        }
    }
}

fn print_fields<G: Playable>(setup: &G::Setup) -> Result<ExitCode, String> {
    let fields = variant::fields::<G>(setup)?;
    let mut group = String::new();
    for f in &fields {
        if f.group != group {
            group.clone_from(&f.group);
            say!("[{group}]");
        }
        let accepts = match f.kind {
            lab::doc::LeafKind::Int => variant::accepted_range::<G>(setup, f, 20)
                .map(|(lo, hi)| format!("{lo}..={hi}"))
                .unwrap_or_default(),
            lab::doc::LeafKind::Bool => "true, false".into(),
            lab::doc::LeafKind::Word => variant::settings::<G>(setup, &f.path).join(", "),
            _ => String::new(),
        };
        say!("  {} = {}   [{accepts}]  {}", f.path, f.value, f.meaning);
    }
    Ok(ExitCode::SUCCESS)
}

/// A what-if from a record: each seat's chance from its end (or `--at`), per candidate
/// action with `--candidates`, and `--branch` writes the record cut there.
fn what_if<G: Playable>(input: &Input, options: &LabArgs) -> Result<ExitCode, String> {
    let rules = G::load_rules(None).map_err(|d| d.to_string())?;
    let record = G::read_record(&input.path, &input.text, &rules).map_err(|d| d.to_string())?;
    let at = options
        .at
        .unwrap_or(record.actions.len())
        .min(record.actions.len());
    let cut = whatif::branch(&record, at);
    let m = playable::replay(&cut).map_err(|e| e.locate(&input.name(), &input.text).to_string())?;
    if let Some(out) = &options.branch {
        playable::save_record(&cut, out).map_err(|e| e.to_string())?;
        eprintln!(
            "Wrote {} (the first {at} actions of {}).",
            out.display(),
            input.name()
        );
    }
    let state = m.state();
    if let Some(o) = state.outcome() {
        say!("The match is over after {at} actions: {}", o.reason);
        return Ok(ExitCode::SUCCESS);
    }
    let threads = options.threads.unwrap_or_else(lab::run::all_cores);
    let done = AtomicU32::new(0);
    let opts = whatif::Continue {
        games: options.games,
        seed: options.seed,
        bots: &options.bots,
        threads,
        cancel: None,
        done: Some(&done),
    };
    let started = std::time::Instant::now();
    let now = whatif::simulate_from(state, &opts)?;
    let seconds = started.elapsed().as_secs_f64();
    let seats: Vec<String> = (0..state.player_count())
        .map(|i| {
            state.player_name(crate::framework::PlayerId(
                u8::try_from(i).unwrap_or(u8::MAX),
            ))
        })
        .collect();
    let cands = if options.candidates > 0 {
        let actions = whatif::candidates(state, options.candidates, options.seed);
        whatif::per_candidate(state, &actions, &opts)?
    } else {
        Vec::new()
    };
    if options.json {
        let out = serde_json::json!({
            "record": input.name(),
            "at": at,
            "seats": seats,
            "now": now,
            "candidates": cands,
        });
        say!("{out}");
        return Ok(ExitCode::SUCCESS);
    }
    say_what_if(
        state,
        at,
        record.actions.len(),
        seconds,
        &seats,
        &now,
        &cands,
    );
    Ok(ExitCode::SUCCESS)
}

/// Says a what-if's answer in words: who is to act, each seat's chance, and each
/// candidate action's chances.
fn say_what_if<G: Playable>(
    state: &G,
    at: usize,
    actions: usize,
    seconds: f64,
    seats: &[String],
    now: &whatif::Chances,
    cands: &[whatif::Candidate],
) {
    let actor = whatif::to_act(state)
        .map(|p| state.player_name(p))
        .unwrap_or_default();
    say!(
        "After {at} of {actions} actions, {actor} to act; {} continuations in {seconds:.2} s:",
        now.games
    );
    for (seat, r) in seats.iter().zip(&now.rates) {
        say!(
            "  {seat} wins {:.1}% [{:.1}, {:.1}]",
            100.0 * r.rate,
            100.0 * r.lo,
            100.0 * r.hi
        );
    }
    for c in cands {
        let words: Vec<String> = seats
            .iter()
            .zip(&c.chances.rates)
            .map(|(s, r)| {
                format!(
                    "{s} {:.0}% [{:.0}, {:.0}]",
                    100.0 * r.rate,
                    100.0 * r.lo,
                    100.0 * r.hi
                )
            })
            .collect();
        say!("  {}: {}", c.action, words.join(", "));
    }
}
