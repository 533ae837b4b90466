//! The command line: one binary, the 3D client without arguments, headless work in
//! subcommands. Every command that takes a file asks [`crate::rules::detect`] which game
//! and kind of file it is, and runs the same generic code for all five games.

/// Prints a line to stdout; a closed pipe (`tanktable replay x | head`) ends the program
/// quietly, as Unix tools do, instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::write_line(format_args!($($arg)*))
    };
}

mod campaign;
mod chess;
mod commands;
mod install;
pub mod lab;
#[cfg(feature = "client")]
pub mod net;
mod odds;
mod sim;

pub use crate::lab::stats::wilson95;
pub use sim::{SimReport, simulate};

/// Writes one line to stdout; see `say!`.
pub(crate) fn write_line(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.write_all(b"\n")) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("cannot write the output: {e}");
        std::process::exit(1);
    }
}

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// Tanktable: tank wargames on a 3D table, with every rule enforced and explained.
///
/// Run without a subcommand to open the desktop client's main menu.
#[derive(Parser, Debug)]
#[command(name = "tanktable", version = crate::data::shipped::VERSION, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Round override for `odds`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RoundArg {
    #[value(name = "AT", alias = "at")]
    At,
    #[value(name = "HE", alias = "he")]
    He,
}

/// Switches for development: measuring the client. Built only with the `dev` feature.
#[cfg(feature = "dev")]
#[derive(clap::Args, Debug, Default)]
pub struct DevArgs {
    /// Print the time to the first rendered frame and the resident memory, then exit.
    #[arg(long)]
    pub measure_startup: bool,
    /// With --measure-startup: measure an empty Bevy app instead, for comparison.
    #[arg(long)]
    pub empty_app: bool,
}

/// Without the `dev` feature there are no development switches.
#[cfg(not(feature = "dev"))]
#[derive(clap::Args, Debug, Default)]
pub struct DevArgs {}

#[derive(Subcommand, Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "parsed once from the command line: the lab's many options cost nothing there"
)]
pub enum Command {
    /// Open the desktop client on a game: a scenario or setup of any game (a new game), or
    /// a match record (play on from where it ends).
    Play {
        /// The file (default: the main menu's first game, Tank Commander on Skirmish).
        file: Option<PathBuf>,
        /// Seed for the dice (default: the setup's, else the clock).
        #[arg(long)]
        seed: Option<u64>,
        /// Open a match record (a save, or from `record`) in the replay viewer.
        #[arg(long, value_name = "MATCH", conflicts_with = "file")]
        replay: Option<PathBuf>,
        /// Who sits in each seat, in seat order, comma-separated: `person`, or a bot of the
        /// game (`greedy`/`heuristic`, `random`; Tank Chess: `commander`, `cadet`).
        /// Missing seats are people.
        #[arg(long, value_delimiter = ',')]
        seats: Vec<String>,
        #[command(flatten)]
        join: JoinArgs,
        #[command(flatten)]
        dev: DevArgs,
    },
    /// Host a game for players on other machines, with no window: the host holds the
    /// match and its dice and sends each seat only what it may see. Runs until the game
    /// ends; autosaves after every action (`--resume` reopens it after a restart).
    Serve {
        /// The scenario or setup of any game.
        setup: PathBuf,
        /// The UDP port to listen on (open it in the firewall).
        #[arg(long, default_value_t = 5252)]
        port: u16,
        /// Who sits in each seat, comma-separated: `remote` (a person joining from
        /// another machine) or a bot of the game. Missing seats are remote.
        #[arg(long, value_delimiter = ',')]
        seats: Vec<String>,
        /// The room code players must give (default: six letters drawn at start).
        #[arg(long)]
        code: Option<String>,
        /// Seed for the dice (default: the setup's, else the clock). It never leaves the
        /// host.
        #[arg(long)]
        seed: Option<u64>,
        /// Reopen the game this host autosaved (after a crash or a restart); the players
        /// rejoin their seats with their tokens.
        #[arg(long)]
        resume: bool,
        /// Where to autosave (default: `network/host-GAME.ron` in the data folder).
        #[arg(long)]
        autosave: Option<PathBuf>,
        /// How many spectators may watch besides the seats.
        #[arg(long, default_value_t = 8)]
        watchers: usize,
    },
    /// Every setup, campaign and lab variant this binary knows, by game, with where each
    /// comes from (the project folder, your own scenarios, built in): the names every
    /// command takes instead of a file.
    List {
        /// Also show the files hidden by one of the same name (a project's copy of a
        /// built-in setup), and each one's path.
        #[arg(long)]
        all: bool,
    },
    /// Add Tanktable to the desktop's applications menu (Linux: a `.desktop` entry and an
    /// icon under `~/.local/share`), or take it out again.
    Desktop {
        /// Take the entry and the icon out.
        #[arg(long)]
        remove: bool,
    },
    /// Render a scenario or setup of any game to a PNG, top-down (a design preview; works
    /// under Xvfb).
    Preview {
        file: PathBuf,
        /// The PNG to write.
        #[arg(long, short = 'o')]
        output: PathBuf,
        /// Look at the table from the south at an angle instead of straight down.
        #[arg(long)]
        angled: bool,
    },
    /// Open the scenario editor on a Tank Commander scenario or a Tank Chess setup, or on
    /// a new board.
    Edit {
        /// The scenario or setup to edit; a new board when left out.
        file: Option<PathBuf>,
        /// A new board is a Tank Chess setup (square) rather than a Tank Commander
        /// scenario (hex).
        #[arg(long)]
        chess: bool,
    },
    /// Validate any file the project reads or writes (scenarios and setups, rules tables,
    /// match records, tank designs); print every problem as file:line:col.
    Check {
        /// Files to check; the game and kind of each is told from its contents.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// A rules table to check the files of its game against.
        #[arg(long)]
        rules: Option<PathBuf>,
    },
    /// Play N bot games of a setup headless and report the balance.
    Sim {
        setup: PathBuf,
        /// Number of games.
        #[arg(long, short = 'n', default_value_t = 100)]
        games: u32,
        /// Base seed; game i uses a seed derived from it.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Bots by seat, comma-separated; fewer names than seats repeat in turn (one name
        /// plays every seat). Default: the game's own heuristic bot.
        #[arg(long, value_delimiter = ',')]
        bots: Vec<String>,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
        /// Worker threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// A rules table to play with instead of the project's.
        #[arg(long)]
        rules: Option<PathBuf>,
        /// Also list every action kind and every rule of the game's rules map with how
        /// often the bots used it: what the games exercised of the rulebook.
        #[arg(long)]
        coverage: bool,
    },
    /// Play one bot game of a setup and write its match record.
    Record {
        setup: PathBuf,
        /// Where to write the record.
        #[arg(long, short = 'o')]
        output: PathBuf,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Bots by seat, as for `sim`.
        #[arg(long, value_delimiter = ',')]
        bots: Vec<String>,
        #[arg(long)]
        rules: Option<PathBuf>,
    },
    /// Replay a match record and print its facts, one a line; fails if the final state
    /// differs from the record's.
    Replay {
        record: PathBuf,
        /// One JSON object per line.
        #[arg(long)]
        json: bool,
        #[arg(long)]
        rules: Option<PathBuf>,
    },
    /// A game's rules map: every rule of its rulebook in the project's words, the reading
    /// played, the switch that changes it, and the code and tests behind it.
    Rules {
        /// The game: tank-commander, tank-chess, battle-tanks, tank-combat, range-duel
        /// (or its first letters).
        game: String,
        /// Show only the rules that hold every word given (in the rule, the reading, the
        /// section, the id or the switch).
        #[arg(long)]
        search: Option<String>,
        /// Show one rule by its id (`bt.war.matches`), with its code and tests.
        #[arg(long, conflicts_with = "search")]
        id: Option<String>,
    },
    /// Exact odds of one shot in a Tank Commander scenario.
    Odds {
        scenario: PathBuf,
        #[arg(long)]
        shooter: String,
        #[arg(long)]
        target: String,
        /// The round to fire (default: what the shooter has loaded).
        #[arg(long, value_enum)]
        round: Option<RoundArg>,
        #[arg(long)]
        rules: Option<PathBuf>,
    },
    /// A Tank Commander campaign: show its roster and progress, or play its next battles
    /// with bots (the state is saved atomically after each battle, where the client's
    /// menu finds it too).
    Campaign {
        /// The campaign file (`scenarios/campaigns/…`).
        file: PathBuf,
        /// Play this many of the next battles with bots (default: none, just show).
        #[arg(long, default_value_t = 0)]
        play: u32,
        /// Bots by side, as for `sim` (default: the game's default bot, tactical, for both).
        #[arg(long, value_delimiter = ',')]
        bots: Vec<String>,
        /// Seed for the first battle played; each next battle adds one.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Where the campaign's state is kept (default: the data folder's `campaigns/`).
        #[arg(long)]
        save: Option<PathBuf>,
        /// Start the campaign over (its saved state is replaced).
        #[arg(long)]
        new: bool,
        /// Refit a tank of the company before the next battle: `TANK=EQUIPMENT`, the
        /// whole new build (`"Iron Duke=engine,optics,he_rounds,front:2,side:1"`; `none`
        /// for a bare tank), within its budget and the points it earned. Repeatable.
        #[arg(long, value_name = "TANK=EQUIPMENT")]
        upgrade: Vec<String>,
    },
    /// The playtest lab: rules variants against the base over many bot games, with win
    /// rates, 95% intervals and a verdict; sweeps of one number; what-if from a record.
    ///
    /// FILES: a setup and/or lab variant files (`LabVariant(…)`); the base is the setup
    /// given, else the one the variants name, else the game's default. A match record
    /// instead asks what-if from its end (or --at): each side's chance to win.
    Lab(lab::LabArgs),
    /// Tank Chess perft: count the move sequences N moves deep from a setup's start or
    /// a game record's end, depth by depth, with nodes per second.
    Perft {
        /// A Tank Chess setup, or a game in notation.
        file: PathBuf,
        /// How many moves deep.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=8))]
        depth: u32,
        /// Also count below each first move.
        #[arg(long)]
        divide: bool,
    },
    /// Tank Chess: the engine's view of a position (a setup's start or a game's end): the
    /// best move, the score, the expected line in notation, depth, nodes and speed.
    Analyse {
        /// A Tank Chess setup, or a game in notation.
        file: PathBuf,
        /// The deepest iteration, in plies.
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u8).range(1..=32))]
        depth: u8,
        /// The node budget (default: the General's).
        #[arg(long)]
        nodes: Option<u64>,
        /// A time budget in seconds instead of nodes.
        #[arg(long)]
        seconds: Option<f64>,
    },
    /// Frame times and resident memory of scenes of the client, rendered offscreen (no
    /// window, no display needed), beside an empty Bevy app (`dev` feature).
    #[cfg(feature = "dev")]
    BenchFrames(crate::client::dev_tools::bench::BenchArgs),
    /// List the legal actions of whoever acts next in a match record or a new game of a
    /// setup.
    Legal {
        file: PathBuf,
        /// Seed for a new game's opening (default: the setup's, else 0).
        #[arg(long)]
        seed: Option<u64>,
        #[arg(long)]
        rules: Option<PathBuf>,
    },
}

/// Runs the command line.
#[must_use]
pub fn main() -> ExitCode {
    let mut cli = Cli::parse();
    if let Some(command) = &mut cli.command
        && let Err(message) = name_files(command)
    {
        eprintln!("{message}");
        return ExitCode::FAILURE;
    }
    let result = match cli.command {
        None => open_client(ClientArgs::default()),
        Some(Command::Play {
            join:
                JoinArgs {
                    join: Some(address),
                    code,
                    name,
                    bot,
                    watch,
                    seat,
                },
            ..
        }) => join_host(address, code, name, bot, watch, seat),
        Some(Command::Play {
            file,
            seed,
            replay,
            seats,
            dev,
            ..
        }) => open_client(ClientArgs {
            file: replay.clone().or(file),
            replay: replay.is_some(),
            seed,
            seats,
            dev,
            ..ClientArgs::default()
        }),
        Some(Command::Edit { file, chess }) => editable(file.as_deref()).and_then(|()| {
            open_client(ClientArgs {
                edit: Some((file, chess)),
                ..ClientArgs::default()
            })
        }),
        Some(Command::Preview {
            file,
            output,
            angled,
        }) => open_client(ClientArgs {
            file: Some(file),
            preview: Some((output.clone(), !angled)),
            ..ClientArgs::default()
        })
        .map(|code| {
            if output.is_file() {
                say!("Wrote {}.", output.display());
                code
            } else {
                eprintln!("no image was written to {}", output.display());
                ExitCode::FAILURE
            }
        }),
        #[cfg(feature = "dev")]
        Some(Command::BenchFrames(args)) => {
            crate::client::bench_frames(&args).map(|()| ExitCode::SUCCESS)
        }
        Some(command) => commands::run(command),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// Turns the names of setups, campaigns and lab variants given for files into their files
/// ([`crate::rules::catalogue::resolve`]): `tanktable sim river-town` works from any
/// folder. A path that is there stays as given; `check` names its files itself, so that
/// one unknown name does not hide the other files' problems.
fn name_files(command: &mut Command) -> Result<(), String> {
    use crate::rules::catalogue::resolve;
    let one = |file: &mut PathBuf| -> Result<(), String> {
        *file = resolve(file).map_err(|e| e.to_string())?;
        Ok(())
    };
    match command {
        Command::Play {
            file: Some(file), ..
        }
        | Command::Preview { file, .. }
        | Command::Edit {
            file: Some(file), ..
        }
        | Command::Sim { setup: file, .. }
        | Command::Serve { setup: file, .. }
        | Command::Record { setup: file, .. }
        | Command::Odds { scenario: file, .. }
        | Command::Campaign { file, .. }
        | Command::Perft { file, .. }
        | Command::Analyse { file, .. }
        | Command::Legal { file, .. } => one(file),
        // A merge's files are shards, given by their paths.
        Command::Lab(args) if args.is_merge() => Ok(()),
        Command::Lab(args) => args.files.iter_mut().try_for_each(one),
        _ => Ok(()),
    }
}

/// How `play` joins a game hosted on another machine.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct JoinArgs {
    /// Join the game hosted at HOST:PORT (by `tanktable serve`) instead of opening a file.
    #[arg(long, value_name = "HOST:PORT", conflicts_with_all = ["file", "replay", "seats"])]
    pub join: Option<String>,
    /// The room code the host shows.
    #[arg(long, requires = "join", default_value = "")]
    pub code: String,
    /// Your name, as the others see it.
    #[arg(long, requires = "join", default_value = "Player")]
    pub name: String,
    /// Let this bot of the game play your seat, in the terminal.
    #[arg(long, requires = "join")]
    pub bot: Option<String>,
    /// Watch instead of taking a seat.
    #[arg(long, requires = "join")]
    pub watch: bool,
    /// The seat to take, from 1 (default: the first open one).
    #[arg(long, requires = "join")]
    pub seat: Option<u8>,
}

#[cfg(feature = "client")]
fn join_host(
    address: String,
    code: String,
    name: String,
    bot: Option<String>,
    watch: bool,
    seat: Option<u8>,
) -> Result<ExitCode, String> {
    let Some(bot) = bot else {
        // The seat is played in the window: its lobby opens over the menu.
        crate::net::session::resolve(&address)?;
        crate::client::run(crate::client::Launch {
            join: Some(crate::client::core::remote::JoinHost {
                address,
                code,
                name,
                watch,
                seat: seat.map(|s| s.saturating_sub(1)),
            }),
            ..crate::client::Launch::default()
        })?;
        return Ok(ExitCode::SUCCESS);
    };
    net::join(&net::JoinOptions {
        address,
        code,
        name,
        bot,
        watch,
        seat: seat.map(|s| s.saturating_sub(1)),
    })
}

#[cfg(not(feature = "client"))]
fn join_host(
    _address: String,
    _code: String,
    _name: String,
    _bot: Option<String>,
    _watch: bool,
    _seat: Option<u8>,
) -> Result<ExitCode, String> {
    Err("this build has no networking (built without the `client` feature)".into())
}

/// Refuses a file the editor cannot open, before a window opens.
fn editable(file: Option<&std::path::Path>) -> Result<(), String> {
    let Some(f) = file else { return Ok(()) };
    let text =
        std::fs::read_to_string(f).map_err(|e| format!("{}: cannot read: {e}", f.display()))?;
    let found = crate::rules::detect(f, &text).map_err(|e| e.to_string())?;
    let game_ok = matches!(
        found.game,
        crate::rules::GameKind::TankCommander | crate::rules::GameKind::TankChess
    );
    if game_ok && found.kind == crate::rules::FileKind::Setup {
        Ok(())
    } else {
        Err(format!(
            "{} is {}: the editor opens Tank Commander scenarios and Tank Chess setups",
            f.display(),
            found.describe()
        ))
    }
}

/// How to open the desktop client.
#[derive(Debug, Default)]
#[cfg_attr(
    not(feature = "client"),
    allow(dead_code, reason = "only the client reads them")
)]
struct ClientArgs {
    file: Option<PathBuf>,
    replay: bool,
    seed: Option<u64>,
    seats: Vec<String>,
    /// Render to this PNG, straight down when true, then exit.
    preview: Option<(PathBuf, bool)>,
    /// Open the editor on this file (a new board when none; square when true).
    edit: Option<(Option<PathBuf>, bool)>,
    dev: DevArgs,
}

#[cfg(feature = "client")]
fn open_client(args: ClientArgs) -> Result<ExitCode, String> {
    if let Some((path, _)) = &args.preview {
        // Check before the window opens that the image can be written there.
        crate::data::write_atomic(path, "")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let _ = std::fs::remove_file(path);
    }
    let mut launch = crate::client::Launch {
        open: args
            .file
            .map(|path| crate::client::core::session::OpenGame {
                source: crate::client::core::session::GameSource::File(path),
                path: None,
                replay: args.replay,
                seats: (!args.seats.is_empty()).then(|| {
                    args.seats
                        .iter()
                        .map(|s| crate::framework::Seat::parse(s))
                        .collect()
                }),
                seed: args.seed,
                backup: None,
                title: None,
            }),
        preview: args.preview,
        edit: args.edit,
        ..crate::client::Launch::default()
    };
    #[cfg(feature = "dev")]
    {
        launch.measure_startup = args.dev.measure_startup;
        launch.empty_app = args.dev.empty_app;
    }
    #[cfg(not(feature = "dev"))]
    let _ = &args.dev;
    crate::client::run(std::mem::take(&mut launch))?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "client"))]
fn open_client(_args: ClientArgs) -> Result<ExitCode, String> {
    use clap::CommandFactory;
    eprintln!("This build has no desktop client (built without the `client` feature).\n");
    let _ = Cli::command().print_help();
    Ok(ExitCode::SUCCESS)
}
