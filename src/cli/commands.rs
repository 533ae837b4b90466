//! The headless subcommands, each written once, generic over [`Playable`]: the file's
//! game, told by [`detect`], picks the game.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};

use super::Command;
use crate::data::{Diagnostics, Problems, SourceMap};
use crate::dispatch_game;
use crate::framework::bot::play_out;
use crate::framework::hash::format_hash;
use crate::framework::playable::{self, Recorded, Replayed};
use crate::framework::rng::derive_seed;
use crate::framework::{Match, MatchRng, Playable, Seat};
use crate::rules::{Detected, FileKind, GameKind, detect};

pub(super) fn run(command: Command) -> Result<ExitCode, String> {
    match command {
        Command::Campaign {
            file,
            play,
            bots,
            seed,
            save,
            new,
            upgrade,
        } => super::campaign::run(
            &file,
            super::campaign::Plan {
                play,
                bots: &bots,
                seed,
                save,
                new,
                upgrades: &upgrade,
            },
        ),
        Command::Check { files, rules } => check(&files, rules.as_deref()),
        Command::List { all } => super::install::list(all),
        Command::Desktop { remove } => super::install::desktop(remove),
        Command::Lab(args) => super::lab::run(&args),
        command @ (Command::Perft { .. } | Command::Analyse { .. } | Command::Odds { .. }) => {
            inspect(command)
        }
        command @ (Command::Sim { .. }
        | Command::Record { .. }
        | Command::Replay { .. }
        | Command::Legal { .. }) => play_headless(command),
        Command::Rules { game, search, id } => rules_map(&game, search.as_deref(), id.as_deref()),
        #[cfg(feature = "client")]
        Command::Serve {
            setup,
            port,
            seats,
            code,
            seed,
            resume,
            autosave,
            watchers,
        } => super::net::serve(&super::net::ServeOptions {
            setup,
            port,
            seats,
            code,
            seed,
            resume,
            autosave,
            watchers,
        }),
        #[cfg(not(feature = "client"))]
        Command::Serve { .. } => {
            Err("this build has no networking (built without the `client` feature)".into())
        }
        Command::Play { .. } | Command::Preview { .. } | Command::Edit { .. } => {
            Err("`play` opens the client and is handled before headless commands".into())
        }
        #[cfg(feature = "dev")]
        Command::BenchFrames(_) => {
            Err("`bench-frames` opens the client and is handled before headless commands".into())
        }
    }
}

/// Runs the commands that look into one position or shot: `perft`, `analyse`, `odds`.
fn inspect(command: Command) -> Result<ExitCode, String> {
    match command {
        Command::Perft {
            file,
            depth,
            divide,
        } => {
            let input = Input::read(&file, &[FileKind::Setup, FileKind::Record], "perft")?;
            super::chess::perft(&input, depth, divide)
        }
        Command::Analyse {
            file,
            depth,
            nodes,
            seconds,
        } => {
            let input = Input::read(&file, &[FileKind::Setup, FileKind::Record], "analyse")?;
            super::chess::analyse(&input, depth, nodes, seconds)
        }
        Command::Odds {
            scenario,
            shooter,
            target,
            round,
            rules,
        } => {
            let input = Input::read(&scenario, &[FileKind::Setup], "odds")?;
            if input.found.game != GameKind::TankCommander {
                return Err(format!(
                    "{} is {}; `odds` works on Tank Commander scenarios (shots with a to-hit roll and armor)",
                    input.name(),
                    input.found.describe()
                ));
            }
            super::odds::run(&input, &shooter, &target, round, rules.as_deref())
        }
        _ => unreachable!("run passes only perft, analyse and odds to inspect"),
    }
}

/// Runs the commands that play or replay a game without the client: `sim`, `record`,
/// `replay`, `legal`.
fn play_headless(command: Command) -> Result<ExitCode, String> {
    match command {
        Command::Sim {
            setup,
            games,
            seed,
            bots,
            json,
            threads,
            rules,
            coverage,
        } => {
            let input = Input::read(&setup, &[FileKind::Setup], "sim")?;
            let options = super::sim::Options {
                games,
                seed,
                bots,
                threads,
                coverage,
            };
            dispatch_game!(
                input.found.game,
                super::sim::run(&input, &options, json, rules.as_deref())
            )
        }
        Command::Record {
            setup,
            output,
            seed,
            bots,
            rules,
        } => {
            let input = Input::read(&setup, &[FileKind::Setup], "record")?;
            dispatch_game!(
                input.found.game,
                record(&input, &output, seed, &bots, rules.as_deref())
            )
        }
        Command::Replay {
            record,
            json,
            rules,
        } => {
            let input = Input::read(&record, &[FileKind::Record], "replay")?;
            dispatch_game!(input.found.game, replay(&input, json, rules.as_deref()))
        }
        Command::Legal { file, seed, rules } => {
            let input = Input::read(&file, &[FileKind::Setup, FileKind::Record], "legal")?;
            dispatch_game!(input.found.game, legal(&input, seed, rules.as_deref()))
        }
        _ => unreachable!("run passes only sim, record, replay and legal to play_headless"),
    }
}

/// A file named on the command line: its text, and which game and kind it is.
pub(super) struct Input {
    pub path: PathBuf,
    pub text: String,
    pub found: Detected,
}

impl Input {
    /// Reads `path` and tells what it is; a file of a kind `command` does not take gets a
    /// sentence saying what it is and what the command needs.
    pub fn read(path: &Path, wanted: &[FileKind], command: &str) -> Result<Self, String> {
        let name = path.display();
        let text = playable::read_text(path).map_err(|d| d.to_string())?;
        let found = detect(path, &text).map_err(|e| e.to_string())?;
        if !wanted.contains(&found.kind) {
            let needs: Vec<String> = wanted
                .iter()
                .map(|k| match k {
                    FileKind::Setup => "a scenario or setup".to_string(),
                    FileKind::Record => {
                        "a match record (from `tanktable record`, or a save)".to_string()
                    }
                    other => format!("a {other}"),
                })
                .collect();
            return Err(format!(
                "{name} is {}; `{command}` needs {}",
                found.describe(),
                needs.join(" or ")
            ));
        }
        Ok(Self {
            path: path.to_path_buf(),
            text,
            found,
        })
    }

    pub fn name(&self) -> String {
        self.path.display().to_string()
    }
}

/// The rules tables of `G`: `path` if given (refused with a sentence when it is another
/// game's), else the project's.
pub(super) fn rules_for<G: Playable>(path: Option<&Path>) -> Result<G::Rules, String> {
    if let Some(p) = path {
        let text = playable::read_text(p).map_err(|d| d.to_string())?;
        let found = detect(p, &text).map_err(|e| e.to_string())?;
        if found.kind != FileKind::Rules || !G::KIND.rules_tables_of().contains(&found.game) {
            return Err(format!(
                "--rules {} is {}, but the file it should apply to is a {} file",
                p.display(),
                found.describe(),
                G::KIND.title()
            ));
        }
    }
    G::load_rules(path).map_err(|d| d.to_string())
}

/// A match from a setup (a fresh game on `seed`, else the setup's own, else 0) or a
/// record (replayed to its end, its hash checked).
pub(super) fn open<G: Playable>(
    input: &Input,
    rules: &G::Rules,
    seed: Option<u64>,
) -> Result<(Match<G>, Option<Recorded<G>>), String> {
    if input.found.kind == FileKind::Record {
        let record = G::read_record(&input.path, &input.text, rules).map_err(|d| d.to_string())?;
        if let Some(notice) = record.rules_notice() {
            eprintln!("{}: {notice}", input.name());
        }
        let game = playable::replay(&record)
            .map_err(|e| e.locate(&input.name(), &input.text).to_string())?;
        return Ok((game, Some(record)));
    }
    let setup = G::parse_setup(&input.path, &input.text, rules).map_err(|d| d.to_string())?;
    let seed = seed.or_else(|| G::setup_seed(&setup)).unwrap_or(0);
    let game = playable::start::<G>(&setup, seed, &[]).map_err(|e| e.to_string())?;
    Ok((game, None))
}

fn check(files: &[PathBuf], rules: Option<&Path>) -> Result<ExitCode, String> {
    let mut all = Diagnostics::default();
    let rules_game = match rules {
        Some(p) => {
            let text = playable::read_text(p).map_err(|d| d.to_string())?;
            let found = detect(p, &text).map_err(|e| e.to_string())?;
            if found.kind != FileKind::Rules {
                return Err(format!(
                    "--rules {} is {}, not a rules table",
                    p.display(),
                    found.describe()
                ));
            }
            Some(found.game)
        }
        None => None,
    };
    for file in files {
        let given = file.display().to_string();
        let file = &match crate::rules::catalogue::resolve(file) {
            Ok(found) => found,
            Err(message) => {
                all.0.extend(
                    Diagnostics::whole_file(&given, strip_name(&message.to_string(), &given)).0,
                );
                continue;
            }
        };
        let name = if *file == Path::new(&given) {
            given
        } else {
            format!("{given} ({})", crate::data::portable_path(file))
        };
        let result = playable::read_text(file).and_then(|text| {
            let found =
                crate::rules::detect_placed(file, &text).map_err(|d| Diagnostics(vec![d]))?;
            let rules = rules
                .filter(|_| rules_game.is_some_and(|g| found.game.rules_tables_of().contains(&g)));
            let input = Input {
                path: file.clone(),
                text,
                found,
            };
            dispatch_game!(found.game, check_one(&input, rules))
        });
        match result {
            Ok(what) => say!("{name}: ok ({what})"),
            Err(d) => all.0.extend(d.0),
        }
    }
    if all.0.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!("{all}");
    eprintln!(
        "{} problem{} found.",
        all.0.len(),
        if all.0.len() == 1 { "" } else { "s" }
    );
    Ok(ExitCode::FAILURE)
}

/// `detect`'s sentence starts with the file's name, which a diagnostic already gives.
fn strip_name(sentence: &str, name: &str) -> String {
    sentence
        .strip_prefix(name)
        .and_then(|s| s.strip_prefix(": "))
        .unwrap_or(sentence)
        .to_string()
}

/// Checks one file of game `G`; `Ok` says what it is.
fn check_one<G: Playable>(input: &Input, rules: Option<&Path>) -> Result<String, Diagnostics> {
    let name = input.name();
    let what = input.found.describe();
    let whole = |e: String| Diagnostics::whole_file(&name, e);
    match input.found.kind {
        FileKind::Rules => {
            G::load_rules(Some(&input.path))?;
            Ok(what)
        }
        FileKind::Setup => {
            let rules = G::load_rules(rules)?;
            let setup = G::parse_setup(&input.path, &input.text, &rules)?;
            G::from_setup(&setup).map_err(|e| whole(e.to_string()))?;
            Ok(what)
        }
        FileKind::Record => {
            let rules = G::load_rules(rules)?;
            let record = G::read_record(&input.path, &input.text, &rules)?;
            let game = playable::replay(&record).map_err(|e| e.locate(&name, &input.text))?;
            Ok(format!(
                "{what}, {} actions{}{}",
                record.actions.len(),
                if record.own_rules {
                    ", played under its own rules (they differ from the project's)"
                } else {
                    ""
                },
                match game.state().outcome() {
                    Some(o) => format!(", finished: {}", o.reason),
                    None => String::new(),
                }
            ))
        }
        FileKind::Design => {
            let rules = crate::rules::tank_commander::Rules::load(rules)?;
            check_design(input, &rules)?;
            Ok(what)
        }
        FileKind::Campaign => {
            use crate::rules::tank_commander::campaign::Campaign;
            let rules = crate::rules::tank_commander::Rules::load(rules)?;
            let c = Campaign::parse(&input.path, &input.text, &rules)?;
            Ok(format!("{what}, {} battle(s)", c.setup.battles.len()))
        }
        FileKind::SeatCopy => {
            let copy = crate::net::copy::SeatCopy::read::<G>(&input.path, &input.text)?;
            let states = copy.states::<G>(&input.path)?;
            Ok(format!(
                "{what} (from {}), {} state(s) up to action {}",
                copy.host,
                states.len(),
                states.last().map_or(0, |(n, _)| *n)
            ))
        }
        FileKind::Variant => {
            let (variant, _) = crate::lab::variant::check::<G>(&input.path, &input.text)?;
            Ok(format!(
                "{what} `{}`, {} change(s)",
                variant.name,
                variant.changes.len()
            ))
        }
        FileKind::CampaignState => {
            use crate::rules::tank_commander::campaign::CampaignState;
            let (s, map): (CampaignState, _) = crate::data::load_ron(&name, &input.text)?;
            let rules = crate::rules::tank_commander::Rules::load(rules)?;
            let problems = s.problems(&rules);
            if !problems.is_empty() {
                return Err(problems.locate(&name, &map));
            }
            Ok(format!(
                "{what}: `{}`, {} battle(s) fought, {} tank(s)",
                s.campaign,
                s.reports.len(),
                s.roster.len()
            ))
        }
    }
}

/// A tank design must be one the build rules allow.
fn check_design(
    input: &Input,
    rules: &crate::rules::tank_commander::Rules,
) -> Result<(), Diagnostics> {
    use crate::rules::tank_commander::setup::{TankDesign, UnitKind};
    let name = input.name();
    let (design, map): (TankDesign, SourceMap) = crate::data::load_ron(&name, &input.text)?;
    let mut problems = Problems::default();
    for p in design
        .build
        .problems(UnitKind::Tank, rules, design.painted, design.named)
    {
        let field = if p.field.is_empty() {
            "build".to_string()
        } else {
            format!("build.{}", p.field)
        };
        problems.push(field, p.message);
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.locate(&name, &map))
    }
}

fn record<G: Playable>(
    input: &Input,
    output: &Path,
    seed: u64,
    bots: &[String],
    rules: Option<&Path>,
) -> Result<ExitCode, String> {
    let rules = rules_for::<G>(rules)?;
    let setup = G::parse_setup(&input.path, &input.text, &rules).map_err(|d| d.to_string())?;
    let game = G::from_setup(&setup).map_err(|e| e.to_string())?;
    let seats = game.player_count();
    let mut players = playable::bots_for::<G>(bots, seats).map_err(|e| e.to_string())?;
    let played = play_out(
        game,
        &mut players,
        &mut MatchRng::new(seed),
        &mut MatchRng::new(derive_seed(seed, u64::MAX)),
        100_000,
        |_, _| {},
    )
    .map_err(|e| e.to_string())?;
    let names: Vec<Seat> = players
        .iter()
        .map(|b| Seat::Bot(b.name().to_string()))
        .collect();
    let mut m = playable::start::<G>(&setup, seed, &[]).map_err(|e| e.to_string())?;
    for (player, action) in &played.actions {
        m.play(*player, action).map_err(|e| e.to_string())?;
    }
    let record = Recorded::of(&setup, seed, &[], &names, &m);
    playable::save_record(&record, output).map_err(|e| e.to_string())?;
    say!(
        "Wrote {} ({} actions; {}).",
        output.display(),
        record.actions.len(),
        played.outcome.map_or("unfinished".to_string(), |o| {
            match o.winners.as_slice() {
                [] => format!("no winner: {}", o.reason),
                ws => format!(
                    "{} won: {}",
                    ws.iter()
                        .map(|w| m.state().player_name(*w))
                        .collect::<Vec<_>>()
                        .join(" and "),
                    o.reason
                ),
            }
        })
    );
    Ok(ExitCode::SUCCESS)
}

fn replay<G: Playable>(
    input: &Input,
    json: bool,
    rules: Option<&Path>,
) -> Result<ExitCode, String> {
    let rules = rules_for::<G>(rules)?;
    let record = G::read_record(&input.path, &input.text, &rules).map_err(|d| d.to_string())?;
    if let Some(notice) = record.rules_notice() {
        eprintln!("{}: {notice}", input.name());
    }
    let mut index = 0;
    let game = playable::replay_each(&record, |game: &G, event| {
        let (player, action, facts) = match event {
            Replayed::Opening(facts) => (None, None, facts),
            Replayed::Action(i, step) => {
                if !json {
                    say!(
                        "{:>4}. {}: {}",
                        i + 1,
                        game.player_name(step.player),
                        game.describe_action(&step.action)
                    );
                }
                return;
            }
            Replayed::Facts(step, facts) => (Some(step.player), Some(&step.action), facts),
        };
        for f in facts {
            if json {
                let line = serde_json::json!({
                    "index": index,
                    "player": player,
                    "action": action,
                    "fact": f,
                    "text": game.describe_fact(f),
                });
                say!("{line}");
            } else {
                say!("{}", game.describe_fact(f));
            }
            index += 1;
        }
    })
    .map_err(|e| e.locate(&input.name(), &input.text).to_string())?;
    let got = format_hash(game.state_hash());
    match &record.final_hash {
        Some(_) if !json => say!("Final state {got} matches the record."),
        None if !json => say!("Final state {got} (the record carries no hash to check)."),
        _ => {}
    }
    if let Some(o) = game.state().outcome()
        && !json
    {
        say!("Result: {}", o.reason);
    }
    Ok(ExitCode::SUCCESS)
}

fn legal<G: Playable>(
    input: &Input,
    seed: Option<u64>,
    rules: Option<&Path>,
) -> Result<ExitCode, String> {
    let rules = rules_for::<G>(rules)?;
    let (game, _) = open::<G>(input, &rules, seed)?;
    let state = game.state();
    if let Some(o) = state.outcome() {
        say!("The game is over: {}", o.reason);
        return Ok(ExitCode::SUCCESS);
    }
    for player in state.to_act() {
        let actions = state.legal_actions(player);
        say!(
            "Round {} · {} may play {} action{}:",
            state.rounds() + 1,
            state.waiting_for(player),
            actions.len(),
            if actions.len() == 1 { "" } else { "s" }
        );
        for a in &actions {
            say!("  {}", state.describe_action(a));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A progress bar for `n` games.
pub(super) fn progress(n: u32) -> ProgressBar {
    let bar = ProgressBar::new(u64::from(n));
    bar.set_style(
        ProgressStyle::with_template("{spinner} {bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// The game a user named: its name (`battle-tanks`), its title, or the start of either.
fn game_named(name: &str) -> Result<GameKind, String> {
    let wanted = name.trim().to_lowercase().replace(' ', "-");
    let title = |g: GameKind| g.title().to_lowercase().replace(' ', "-");
    if let Some(g) = GameKind::ALL.into_iter().find(|&g| {
        g.name() == wanted || title(g) == wanted || crate::rules::map::prefix(g) == wanted
    }) {
        return Ok(g);
    }
    let starts: Vec<GameKind> = GameKind::ALL
        .into_iter()
        .filter(|&g| {
            !wanted.is_empty() && (g.name().starts_with(&wanted) || title(g).starts_with(&wanted))
        })
        .collect();
    match starts.as_slice() {
        [g] => Ok(*g),
        _ => Err(format!(
            "`{name}` names no one game: {}",
            GameKind::ALL.map(GameKind::name).join(", ")
        )),
    }
}

/// `tanktable rules`: a game's rules map, whole, searched, or one rule.
fn rules_map(game: &str, search: Option<&str>, id: Option<&str>) -> Result<ExitCode, String> {
    use crate::rules::map;
    let game = game_named(game)?;
    let rules = map::map(game).map_err(|problems| problems.join("\n"))?;
    if let Some(id) = id {
        let row = rules.get(id).ok_or_else(|| {
            format!(
                "{} has no rule `{id}` (try `tanktable rules {} --search WORD`)",
                game.title(),
                game.name()
            )
        })?;
        say!("{}  [{}]  {}", row.id, row.kind, row.section);
        say!("{}", row.rule);
        if !row.reading.is_empty() {
            say!("Reading: {}", row.reading);
        }
        if !row.switches.is_empty() {
            say!("Switch: {}", row.switches.join(", "));
        }
        if !row.code.is_empty() {
            say!("Code: {}", row.code.join(", "));
        }
        if !row.tests.is_empty() {
            say!("Tests: {}", row.tests.join(", "));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let rows = rules.search(search.unwrap_or(""));
    say!("{}: {}", game.title(), rules.counts());
    if let Some(words) = search {
        say!(
            "{} of {} rows hold \"{words}\"",
            rows.len(),
            rules.rows.len()
        );
    }
    let mut section = "";
    for row in &rows {
        if row.section != section {
            section = &row.section;
            say!("");
            say!("## {section}");
        }
        let reading = if row.reading.is_empty() || row.reading == "as written" {
            String::new()
        } else {
            format!("\n      Reading: {}", row.reading)
        };
        let switch = if row.switches.is_empty() {
            String::new()
        } else {
            format!("\n      Switch: {}", row.switches.join(", "))
        };
        say!("  {} [{}] {}{reading}{switch}", row.id, row.kind, row.rule);
    }
    if rows.is_empty() {
        return Err(format!(
            "no rule of {} holds \"{}\"",
            game.title(),
            search.unwrap_or_default()
        ));
    }
    Ok(ExitCode::SUCCESS)
}
