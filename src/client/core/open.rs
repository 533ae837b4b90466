//! The messages that open each screen and game: any layer may ask for a screen by
//! writing one, and only the screen that owns it reads it.

use std::collections::BTreeMap;
use std::path::PathBuf;

use bevy::prelude::*;

use crate::framework::Seat;
use crate::rules::GameKind;
use crate::rules::tank_commander::setup::ScenarioSetup;

/// Open the next battle of the campaign in `file`, with `seats`; `start_over` first
/// replaces its saved state with a fresh one.
#[derive(Message, Clone, Debug)]
pub struct OpenCampaign {
    pub file: PathBuf,
    pub seats: Vec<Seat>,
    pub start_over: bool,
}

/// Opens the editor on a scenario file, or on a new blank board.
#[derive(Message, Clone, Debug, Default)]
pub struct OpenEditor {
    /// The scenario or setup to edit; a new board when `None`.
    pub path: Option<PathBuf>,
    /// The new board's size (default 12 × 12 hexes, 16 × 16 squares).
    pub size: Option<(u16, u16)>,
    /// The game of a new board: Tank Commander unless Tank Chess is asked for.
    pub chess: bool,
    /// Save into the file itself even when it is one that ships (`tanktable edit FILE`:
    /// a designer at work on the project). Opened from the menu, a shipped file is saved
    /// as the player's own copy in the data folder.
    pub in_place: bool,
}

/// Opens the Lab on a setup, with variants, and optionally starts the run.
#[derive(Message, Clone, Debug, Default)]
pub struct OpenLab {
    pub game: Option<GameKind>,
    /// The setup (default: the game's default setup).
    pub setup: Option<PathBuf>,
    /// Variants to compare with the base, by name.
    pub variants: Vec<(String, BTreeMap<String, String>)>,
    /// Games per variant.
    pub games: Option<u32>,
    /// A sweep: `field=from..to[:step]`.
    pub sweep: Option<String>,
    /// Start the run at once.
    pub run: bool,
    /// The picture to show first.
    pub tab: Option<PlotTab>,
    /// Draw each game's choices before play at random (Tank Commander's upgrades).
    pub random_builds: bool,
    /// Opened from a game at the table: the lab offers to go back to it (its autosave).
    pub from_table: bool,
    /// Stop when a sequential test can say whether the variant moves the first seat's
    /// win rate by at least this many points.
    pub sprt: Option<f64>,
    /// Show the merged report of the shard files in this folder instead of running.
    pub shards: Option<PathBuf>,
}

/// Which picture the plot area shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PlotTab {
    #[default]
    WinRates,
    Difference,
    Lengths,
    FirstMove,
    Pieces,
    Taken,
    Losses,
    Matchups,
    Rows,
    Sweep,
}

impl PlotTab {
    /// Every picture, in the order of the tabs.
    pub const ALL: [PlotTab; 10] = [
        PlotTab::WinRates,
        PlotTab::Difference,
        PlotTab::Lengths,
        PlotTab::FirstMove,
        PlotTab::Pieces,
        PlotTab::Taken,
        PlotTab::Losses,
        PlotTab::Matchups,
        PlotTab::Rows,
        PlotTab::Sweep,
    ];

    /// The tab's title.
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            PlotTab::WinRates => "Win rates",
            PlotTab::Difference => "Difference",
            PlotTab::Lengths => "Game length",
            PlotTab::FirstMove => "First move",
            PlotTab::Pieces => "Units & upgrades",
            PlotTab::Taken => "Value when taken",
            PlotTab::Losses => "Where tanks fall",
            PlotTab::Matchups => "Matchups",
            PlotTab::Rows => "Matrix rows",
            PlotTab::Sweep => "Sweep",
        }
    }
}

/// What the builder edits; the menu inserts it, then switches to [`Screen::Builder`].
#[derive(Resource)]
#[allow(
    clippy::large_enum_variant,
    reason = "one plan exists at a time; boxing would only burden the menu that builds it"
)]
pub enum BuilderPlan {
    /// Upgrade the tanks of a scenario, then start it.
    Scenario {
        setup: ScenarioSetup,
        /// What to call the scenario's source (a path, or "built-in").
        source: String,
        /// Who sits where once the battle starts.
        seats: Vec<Seat>,
    },
    /// "Build a tank": one tank from the basic profile, saved to RON.
    Standalone,
}

/// Asks to edit the open game's setup while the game waits.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct EditTheGame;

/// Asks to go back from the editor to the game that waits.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct BackToGame;

/// Registers every opening message, so that any layer may write one whatever screens the
/// app has.
pub(crate) fn plugin(app: &mut App) {
    app.add_message::<OpenCampaign>()
        .add_message::<OpenEditor>()
        .add_message::<OpenLab>()
        .add_message::<EditTheGame>()
        .add_message::<BackToGame>();
}
