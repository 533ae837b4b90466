//! The command line: one binary, the 3D client without arguments, headless work in
//! subcommands.

/// Prints a line to stdout; a closed pipe (`tanktable replay x | head`) ends the program
/// quietly, as Unix tools do, instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::write_line(format_args!($($arg)*))
    };
}

mod chess;
mod commands;
mod sim;
mod tabletop;

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
/// Run without a subcommand to open the desktop client on the default scenario.
#[derive(Parser, Debug)]
#[command(name = "tanktable", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Which bot plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BotKind {
    /// Uniformly random legal actions.
    Random,
    /// The game's heuristic bot (`heuristic` is another name for it): in Tank Commander
    /// the best exact expected damage, else closing in.
    #[value(alias = "heuristic")]
    Greedy,
}

/// Round override for `odds`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RoundArg {
    #[value(name = "AT", alias = "at")]
    At,
    #[value(name = "HE", alias = "he")]
    He,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Open the desktop client on a scenario.
    Play {
        /// The scenario (default: scenarios/skirmish.ron).
        scenario: Option<PathBuf>,
        /// Save a screenshot of the table here once drawn, then exit.
        #[arg(long, hide = true)]
        screenshot: Option<PathBuf>,
        /// Let the greedy bot play this many actions first (scripted runs).
        #[arg(long, hide = true, default_value_t = 0)]
        autoplay: u32,
        /// The frame at which the screenshot is taken.
        #[arg(long, hide = true, default_value_t = 20)]
        screenshot_frame: u32,
        /// Seed for the dice (default: the scenario's, else the clock).
        #[arg(long)]
        seed: Option<u64>,
        /// Hide the panels and highlights (image comparisons).
        #[arg(long, hide = true)]
        clean: bool,
        /// Print the time to the first rendered frame and the resident memory, then exit.
        #[arg(long, hide = true)]
        measure_startup: bool,
        /// With --measure-startup: measure an empty Bevy app instead, for comparison.
        #[arg(long, hide = true)]
        empty_app: bool,
        /// Open the main menu instead of a scenario (scripted screenshots).
        #[arg(long, hide = true)]
        menu: bool,
        /// With --menu: open this page of the menu (0 Tank Commander and Tank Chess, then
        /// one page per table game).
        #[arg(long, hide = true, default_value_t = 0)]
        menu_page: usize,
        /// Open a match record (a save, or from `record`) in the replay viewer.
        #[arg(long, value_name = "MATCH", conflicts_with = "scenario")]
        replay: Option<PathBuf>,
        /// Battle Tanks, Tank Combat and the Range Duel: who sits in each seat, in seat
        /// order, comma-separated: `human`, or a bot (`heuristic`, `random`). Missing
        /// seats are people.
        #[arg(long, value_delimiter = ',')]
        seats: Vec<String>,
    },
    /// Render a scenario's table to a PNG (a scenario design preview; works under Xvfb).
    Preview {
        scenario: PathBuf,
        /// The PNG to write.
        #[arg(long, short = 'o')]
        output: PathBuf,
        /// Look at the table from the south at an angle instead of straight down.
        #[arg(long)]
        angled: bool,
    },
    /// Validate scenario, rules and match files; print every problem as file:line:col.
    Check {
        /// Files to check (scenarios, rules tables, match records).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Rules file to check scenarios and matches against.
        #[arg(long)]
        rules: Option<PathBuf>,
    },
    /// Play N bot-against-bot battles headless and report the balance.
    Sim {
        scenario: PathBuf,
        /// Number of battles.
        #[arg(long, short = 'n', default_value_t = 100)]
        games: u32,
        /// Base seed; battle i uses a seed derived from it.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Bots by seat, comma-separated; fewer names than seats repeat in turn (one name
        /// plays every seat).
        #[arg(long, value_delimiter = ',', default_value = "greedy")]
        bots: Vec<BotKind>,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
        /// Worker threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        #[arg(long)]
        rules: Option<PathBuf>,
    },
    /// Play one bot battle and write its match record.
    Record {
        scenario: PathBuf,
        /// Where to write the record.
        #[arg(long, short = 'o')]
        output: PathBuf,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, value_delimiter = ',', default_value = "greedy")]
        bots: Vec<BotKind>,
        #[arg(long)]
        rules: Option<PathBuf>,
    },
    /// Replay a match record and print its fact events, one a line.
    Replay {
        record: PathBuf,
        /// One JSON object per line.
        #[arg(long)]
        json: bool,
        #[arg(long)]
        rules: Option<PathBuf>,
    },
    /// Exact odds of one shot in a scenario.
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
    /// List the legal actions of whoever acts next in a match record or scenario.
    Legal {
        file: PathBuf,
        /// Seed for a scenario's first-player roll (default: the scenario's, else 0).
        #[arg(long)]
        seed: Option<u64>,
        #[arg(long)]
        rules: Option<PathBuf>,
    },
}

/// Runs the command line.
#[must_use]
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => open_client(ClientArgs::default()),
        Some(Command::Play {
            scenario,
            screenshot,
            autoplay,
            screenshot_frame,
            seed,
            clean,
            measure_startup,
            empty_app,
            menu,
            menu_page,
            replay,
            seats,
        }) => open_client(ClientArgs {
            seats,
            menu_page,
            replay: replay.clone(),
            scenario: if menu || replay.is_some() {
                None
            } else {
                scenario.or_else(|| {
                    crate::rules::tank_commander::setup::find_project_file("scenarios/skirmish.ron")
                })
            },
            screenshot,
            autoplay,
            seed,
            screenshot_frame,
            clean,
            measure_startup,
            empty_app,
            ..ClientArgs::default()
        }),
        Some(Command::Preview {
            scenario,
            output,
            angled,
        }) => open_client(ClientArgs {
            scenario: Some(scenario),
            screenshot: Some(output.clone()),
            top_down: !angled,
            clean: true,
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

/// How to open the desktop client.
#[derive(Debug)]
#[cfg_attr(
    not(feature = "client"),
    allow(dead_code, reason = "only the client reads them")
)]
struct ClientArgs {
    scenario: Option<PathBuf>,
    screenshot: Option<PathBuf>,
    top_down: bool,
    autoplay: u32,
    seed: Option<u64>,
    screenshot_frame: u32,
    clean: bool,
    measure_startup: bool,
    empty_app: bool,
    replay: Option<PathBuf>,
    seats: Vec<String>,
    menu_page: usize,
}

impl Default for ClientArgs {
    fn default() -> Self {
        Self {
            scenario: None,
            screenshot: None,
            top_down: false,
            autoplay: 0,
            seed: None,
            screenshot_frame: 20,
            clean: false,
            measure_startup: false,
            empty_app: false,
            replay: None,
            seats: Vec::new(),
            menu_page: 0,
        }
    }
}

#[cfg(feature = "client")]
fn open_client(args: ClientArgs) -> Result<ExitCode, String> {
    if let Some(path) = &args.screenshot {
        // Check before the window opens that the image can be written there.
        crate::data::write_atomic(path, "")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let _ = std::fs::remove_file(path);
    }
    crate::client::run(crate::client::Launch {
        scenario: args.scenario,
        screenshot: args.screenshot,
        top_down: args.top_down,
        autoplay: args.autoplay,
        seed: args.seed,
        screenshot_frame: args.screenshot_frame,
        clean: args.clean,
        measure_startup: args.measure_startup,
        empty_app: args.empty_app,
        replay: args.replay,
        menu_page: args.menu_page,
        seats: args
            .seats
            .iter()
            .map(|s| match s.trim() {
                "human" | "person" => Ok(crate::client::table_session::Seat::Human),
                "heuristic" | "greedy" => {
                    Ok(crate::client::table_session::Seat::Bot("heuristic".into()))
                }
                "random" => Ok(crate::client::table_session::Seat::Bot("random".into())),
                other => Err(format!(
                    "--seats: `{other}` is not a seat; use human, heuristic or random"
                )),
            })
            .collect::<Result<_, String>>()?,
    })?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "client"))]
fn open_client(_args: ClientArgs) -> Result<ExitCode, String> {
    use clap::CommandFactory;
    eprintln!("This build has no desktop client (built without the `client` feature).\n");
    let _ = Cli::command().print_help();
    Ok(ExitCode::SUCCESS)
}
