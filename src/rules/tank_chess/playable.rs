//! Tank Chess as a [`Playable`] game: setups with their rules, the search bots by
//! strength, and game records in the rulebook's notation.

use std::path::Path;

use super::bot::{ChessBot, Strength};
use super::engine::{EngineBot, GENERAL, Limits, MAJOR};
use super::{Action, Announcement, Fact, Mode, Rules, Scenario, TankChess, notation};
use crate::data::{Diagnostic, Diagnostics, SourceMap};
use crate::framework::bot::{Bot, RandomBot};
use crate::framework::playable::{self, InRecord, RecordError, Recorded};
use crate::framework::{Game, MatchRng, Playable, RecordedAction, Seat, SetupError};
use crate::rules::GameKind;
use crate::rules::tank_commander::resolve_path;

/// A validated setup with the rules it was checked against, and the file it came from
/// (game records name their setup by path).
#[derive(Clone, Debug)]
pub struct ChessSetup {
    pub scenario: Scenario,
    pub rules: Rules,
    /// The setup file as records name it: relative to the project, else absolute.
    pub path: String,
}

impl ChessSetup {
    /// The default 16×16 setup with the built-in rules.
    #[must_use]
    pub fn builtin_default() -> Self {
        let rules = Rules::builtin();
        Self {
            scenario: Scenario::builtin_default(&rules),
            rules,
            path: "scenarios/tank-chess/basic-16.ron".into(),
        }
    }
}

impl Playable for TankChess {
    fn counted_rules() -> &'static [&'static str] {
        &[
            "chess.armor.beat",
            "chess.check.announce",
            "chess.check.checkmate",
            "chess.check.escape",
            "chess.check.escapemate",
            "chess.flag.goal",
            "chess.flag.take",
            "chess.four.points",
            "chess.goal.escape",
            "chess.goal.first",
            "chess.last.goal",
            "chess.speed.steps",
            "chess.three.goal",
        ]
    }

    fn action_kind(action: &Action) -> &'static str {
        match action {
            Action::Move { fire: None, .. } => "move",
            Action::Move { fire: Some(_), .. } => "move and fire",
            Action::Escape { .. } => "escape",
            Action::Take { .. } => "take a flag",
            Action::Resign => "resign",
            Action::OutOfTime => "out of time",
        }
    }

    fn action_kinds() -> &'static [&'static str] {
        &[
            "move",
            "move and fire",
            "escape",
            "take a flag",
            "resign",
            "out of time",
        ]
    }

    fn fact_rule(&self, fact: &Fact) -> Option<&'static str> {
        Some(match fact {
            Fact::Moved { .. } => "chess.speed.steps",
            Fact::Destroyed { .. } => "chess.armor.beat",
            Fact::Escaped { .. } if self.mode == Mode::EscapeOfThree => "chess.three.goal",
            Fact::Escaped { .. } => "chess.goal.escape",
            Fact::FlagTaken { .. } => "chess.flag.take",
            Fact::FlagHome { .. } => "chess.flag.goal",
            Fact::Announced(Announcement::Check) => "chess.check.announce",
            Fact::Announced(Announcement::Escape) => "chess.check.escape",
            Fact::Announced(Announcement::Checkmate) => "chess.check.checkmate",
            Fact::Announced(Announcement::Escapemate) => "chess.check.escapemate",
            Fact::Resigned { .. } => "chess.goal.first",
            Fact::GameEnded { .. } => self.end_rule(),
        })
    }

    type Rules = Rules;
    type Setup = ChessSetup;
    /// Records name the setup file.
    type SavedSetup = String;

    type Tuning = Rules;

    const KIND: GameKind = GameKind::TankChess;
    /// No dice: a move taken back can be played again knowing nothing new.
    const CHANCE: bool = false;
    const RECORD_EXTENSION: &'static str = "txt";

    fn load_rules(path: Option<&Path>) -> Result<Rules, Diagnostics> {
        Rules::load(path)
    }

    fn parse_setup(path: &Path, text: &str, rules: &Rules) -> Result<ChessSetup, Diagnostics> {
        Ok(ChessSetup {
            scenario: Scenario::parse(&path.display().to_string(), text, rules)?,
            rules: rules.clone(),
            path: crate::data::portable_path(path),
        })
    }

    fn setup_rules(setup: &ChessSetup) -> Option<&Rules> {
        Some(&setup.rules)
    }

    fn rules_problems(rules: &Rules) -> crate::data::Problems {
        rules.problems()
    }

    fn save_setup(setup: &ChessSetup) -> String {
        setup.path.clone()
    }

    fn restore_setup(
        saved: String,
        record: &InRecord<'_>,
        rules: &Rules,
    ) -> Result<ChessSetup, Diagnostics> {
        let path = resolve_path(&saved, record.folder());
        if !path.exists() {
            return Err(crate::rules::catalogue::missing_setup(record.path, &saved));
        }
        playable::load_setup::<Self>(&path, rules)
    }

    fn from_setup(setup: &ChessSetup) -> Result<Self, SetupError> {
        Ok(Self::new(&setup.scenario, &setup.rules))
    }

    fn setup_title(setup: &ChessSetup) -> (String, String) {
        let s = &setup.scenario.setup;
        (s.name.clone(), s.description.clone())
    }

    fn bot(name: &str) -> Option<Box<dyn Bot<Self>>> {
        match name {
            "commander" | "greedy" | "heuristic" => Some(Box::new(ChessBot(Strength::Commander))),
            "cadet" => Some(Box::new(ChessBot(Strength::Cadet))),
            "random" => Some(Box::new(RandomBot)),
            "general" => Some(Box::new(EngineBot::new("general", GENERAL))),
            "major" => Some(Box::new(EngineBot::new("major", MAJOR))),
            _ => {
                // `general:1.5s`: the engine with a time per move.
                let seconds: f64 = name
                    .strip_prefix("general:")?
                    .strip_suffix('s')?
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s <= 600.0)?;
                Some(Box::new(EngineBot::new(
                    name,
                    Limits::time(std::time::Duration::from_secs_f64(seconds)),
                )))
            }
        }
    }

    fn bot_names() -> &'static [&'static str] {
        &["commander", "cadet", "major", "general", "random"]
    }

    fn bot_about(name: &str) -> &'static str {
        match name {
            "cadet" => "Easiest: looks one move ahead and takes what it can",
            "commander" => {
                "Club player: one move ahead and the best reply to it, checks for mates, sends its pieces out before its Command tank and plays each mode's goal (escapes, flags, the hunt); instant"
            }
            "major" => {
                "Strong: the search engine on 10,000 positions a move (about 0.2 s), sees every exchange through"
            }
            "general" => {
                "Strongest: the search engine on 80,000 positions a move (about 1.5 s); `general:5s` thinks 5 s a move"
            }
            "random" => "Plays any legal move at random: for testing, not for a game",
            _ => "The engine with a time per move",
        }
    }

    fn tuning(setup: &ChessSetup) -> Rules {
        setup.rules.clone()
    }

    fn retune(setup: &ChessSetup, rules: Rules) -> Result<ChessSetup, crate::data::Problems> {
        let problems = rules.problems();
        if !problems.is_empty() {
            return Err(problems);
        }
        let scenario = Scenario::validate(setup.scenario.setup.clone(), &rules)
            .map_err(|p| p.within("scenario"))?;
        Ok(ChessSetup {
            scenario,
            rules,
            path: setup.path.clone(),
        })
    }

    fn tuning_notes() -> Vec<(&'static str, &'static str)> {
        vec![("", super::setup::BUILTIN_RULES)]
    }

    fn rounds(&self) -> u32 {
        self.plies() / u32::try_from(self.player_count().max(1)).unwrap_or(1)
    }

    fn to_mirror(&self) -> Vec<u8> {
        super::mirror::write(self)
    }

    fn from_mirror(bytes: &[u8]) -> Result<Self, crate::framework::MirrorError> {
        super::mirror::read(bytes)
    }

    /// The rulebook's notation, with a `[Seats "…"]` line when bots sat at the table.
    fn write_record(record: &Recorded<Self>) -> Result<String, RecordError> {
        let game = playable::replay(record)?;
        let moves: Vec<_> = game
            .history()
            .iter()
            .map(|s| (s.action, s.facts.clone()))
            .collect();
        let mut tags = Vec::new();
        if record.seats.iter().any(|s| !s.is_person()) {
            let seats: Vec<String> = record
                .seats
                .iter()
                .map(|s| match s {
                    Seat::Person | Seat::Remote(_) => "person".to_string(),
                    Seat::Bot(name) => name.clone(),
                })
                .collect();
            tags.push(("Seats", seats.join(",")));
        }
        // The rules on one line, so the record replays after the project's table changes
        // (the table holds no strings, so no quote can end the tag early).
        let rules = ron::ser::to_string(&record.setup.rules)
            .map_err(|e| RecordError::Write(format!("cannot write the rules: {e}")))?;
        tags.push(("Rules", rules));
        Ok(notation::record_text(
            &record.setup.path,
            record.setup.scenario.setup.name.as_str(),
            &tags,
            &moves,
        ))
    }

    fn read_record(path: &Path, text: &str, rules: &Rules) -> Result<Recorded<Self>, Diagnostics> {
        let name = path.display().to_string();
        let parsed = notation::parse_record(text)
            .map_err(|e| Diagnostics::whole_file(&name, e.to_string()))?;
        let map = SourceMap::default();
        let carried = match parsed.tag("Rules") {
            Some(text) => Some(
                crate::data::load_ron::<Rules>(&name, text)
                    .map(|(r, _)| r)
                    .map_err(|d| {
                        Diagnostics::whole_file(&name, format!("the [Rules] tag is not valid: {d}"))
                    })?,
            ),
            None => None,
        };
        let (rules, own_rules) = playable::own_rules::<Self>(carried, rules, |p| {
            p.within("[Rules]").locate(&name, &map)
        })?;
        let setup =
            Self::restore_setup(parsed.setup.clone(), &InRecord { path, map: &map }, &rules)?;
        let mut game = Self::new(&setup.scenario, &setup.rules);
        let mut actions = Vec::new();
        for (i, (line, text)) in parsed.moves.iter().enumerate() {
            let at = |message: String| {
                Diagnostics(vec![Diagnostic {
                    file: name.clone(),
                    line: *line,
                    col: 1,
                    message,
                }])
            };
            if let Some(o) = game.outcome() {
                return Err(at(format!(
                    "move {} ({text}): the game is already over ({})",
                    i / 2 + 1,
                    o.reason
                )));
            }
            let action = notation::parse_move(&game, text)
                .map_err(|e| at(format!("move {} ({text}): {e}", i / 2 + 1)))?;
            let player = game.to_move();
            game.apply(player, &action, &mut MatchRng::new(0))
                .map_err(|e| at(format!("move {} ({text}): {e}", i / 2 + 1)))?;
            actions.push(RecordedAction { player, action });
        }
        let seats = parsed
            .tag("Seats")
            .map(|s| s.split(',').map(Seat::parse).collect())
            .unwrap_or_default();
        Ok(Recorded {
            setup,
            seed: 0,
            dice: Vec::new(),
            seats,
            actions,
            final_hash: None,
            own_rules,
        })
    }
}
