//! The registry of the five games, and the one place that tells which game and which kind
//! of file a text is.
//!
//! Every command and the client call [`detect`]; nothing else sniffs file contents.
//!
//! ```
//! use std::path::Path;
//! use tanktable::rules::{FileKind, GameKind, detect};
//!
//! let found = detect(Path::new("x.ron"), "// a duel\nRangeDuelSetup(name: \"x\")").unwrap();
//! assert_eq!((found.game, found.kind), (GameKind::RangeDuel, FileKind::Setup));
//! ```

use std::fmt;
use std::path::Path;

use serde::Deserialize;

use crate::data::Diagnostic;
pub use crate::framework::kind::GameKind;

/// What a data file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// A scenario (Tank Commander) or setup (the others): what a new game starts from.
    Setup,
    /// A rules table: every number and switch of a game.
    Rules,
    /// A match record (a save, an autosave, or from `tanktable record`).
    Record,
    /// A tank design saved from the upgrade builder.
    Design,
    /// A Tank Commander campaign: battles in a row.
    Campaign,
    /// A campaign in progress (its roster), as the game saves it after each battle.
    CampaignState,
    /// A playtest lab variant: changes to a game's rules numbers and switches.
    Variant,
    /// A seat's own copy of a game played across machines: the states it was shown.
    SeatCopy,
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::Setup => "setup",
            FileKind::Rules => "rules table",
            FileKind::Record => "match record",
            FileKind::Design => "tank design",
            FileKind::Campaign => "campaign",
            FileKind::CampaignState => "campaign in progress",
            FileKind::Variant => "lab variant",
            FileKind::SeatCopy => "seat's copy of a game played across machines",
        })
    }
}

/// The game and kind of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Detected {
    pub game: GameKind,
    pub kind: FileKind,
}

impl Detected {
    /// "a Tank Chess setup", "a Tank Commander scenario", "a Range Duel rules table".
    #[must_use]
    pub fn describe(self) -> String {
        let what = match (self.game, self.kind) {
            (GameKind::TankCommander, FileKind::Setup) => "scenario".to_string(),
            (_, kind) => kind.to_string(),
        };
        format!("a {} {what}", self.game.title())
    }
}

/// The RON struct names that open each kind of file.
const TAGS: [(&str, GameKind, FileKind); 11] = [
    ("Scenario", GameKind::TankCommander, FileKind::Setup),
    ("Campaign", GameKind::TankCommander, FileKind::Campaign),
    (
        "CampaignState",
        GameKind::TankCommander,
        FileKind::CampaignState,
    ),
    ("Rules", GameKind::TankCommander, FileKind::Rules),
    ("TankDesign", GameKind::TankCommander, FileKind::Design),
    ("TankChessSetup", GameKind::TankChess, FileKind::Setup),
    ("TankChessRules", GameKind::TankChess, FileKind::Rules),
    ("BattleTanksSetup", GameKind::BattleTanks, FileKind::Setup),
    ("TankCombatSetup", GameKind::TankCombat, FileKind::Setup),
    ("RangeDuelSetup", GameKind::RangeDuel, FileKind::Setup),
    ("RangeDuelRules", GameKind::RangeDuel, FileKind::Rules),
];

/// Just the game name of a lab variant.
#[derive(Deserialize)]
#[serde(rename = "LabVariant")]
struct VariantHeader {
    game: String,
}

/// Just the game name of a seat's copy.
#[derive(Deserialize)]
#[serde(rename = "SeatCopy")]
struct SeatCopyHeader {
    game: String,
}

/// Just the game name of a record, to pick the game before reading the rest.
#[derive(Deserialize)]
#[serde(rename = "MatchRecord")]
struct RecordHeader {
    game: String,
}

/// Tells which game and kind of file `text` is. `path` names the file in the error.
///
/// RON files are known by the struct name they open with (`TankChessSetup(…)`), match
/// records by their `game` field, and Tank Chess game records by their notation header
/// (`[Setup "…"]`).
///
/// # Errors
/// The place where reading stopped and what was expected there (it reads as
/// `file:line:col: …`), when it is none of these ([`detect_placed`]).
pub fn detect(path: &Path, text: &str) -> Result<Detected, Diagnostic> {
    detect_placed(path, text)
}

/// [`detect`], with the problem as a [`Diagnostic`]: the line and column where reading
/// stopped and what was expected there.
///
/// # Errors
/// The place and the reason, when the file is of no kind Tanktable knows.
pub fn detect_placed(path: &Path, text: &str) -> Result<Detected, Diagnostic> {
    let name = path.display().to_string();
    let head = strip_comments(text);
    let at = |offset: usize, message: String| diagnostic_at(&name, text, offset, message);
    let head_at = text.len() - head.len();
    if is_notation_record(head) {
        return Ok(Detected {
            game: GameKind::TankChess,
            kind: FileKind::Record,
        });
    }
    if head.is_empty() {
        return Err(at(
            text.len(),
            format!("the file ends before anything but comments and blank lines: {WANTED}"),
        ));
    }
    let tag: String = head
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let after_tag = head[tag.len()..].trim_start();
    let is_record = tag == "MatchRecord" || (tag.is_empty() && after_tag.starts_with('('));
    if is_record {
        return record_detected(&name, text, head_at);
    }
    if tag == "LabVariant" && after_tag.starts_with('(') {
        return variant_detected(&name, text, head_at);
    }
    if tag == "SeatCopy" && after_tag.starts_with('(') {
        return seat_copy_detected(&name, text, head_at);
    }
    if let Some(&(_, game, kind)) = TAGS.iter().find(|(t, _, _)| *t == tag) {
        if after_tag.starts_with('(') {
            return Ok(Detected { game, kind });
        }
        let offset = text.len() - after_tag.len();
        let found = after_tag
            .chars()
            .next()
            .map_or_else(|| "the end of the file".to_string(), |c| format!("`{c}`"));
        return Err(at(
            offset,
            format!("expected `(` after `{tag}`, found {found}"),
        ));
    }
    Err(at(head_at, unknown_tag_message(&tag, head)))
}

/// A diagnostic for `file` at byte `offset` of its `text`, placed by line and column.
fn diagnostic_at(file: &str, text: &str, offset: usize, message: String) -> Diagnostic {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Diagnostic {
        file: file.to_string(),
        line,
        col,
        message,
    }
}

/// A match record, told by the game it names; else where its header goes wrong and why.
fn record_detected(name: &str, text: &str, head_at: usize) -> Result<Detected, Diagnostic> {
    let at = |offset: usize, message: String| diagnostic_at(name, text, offset, message);
    record_game(text).map_or_else(
        || {
            let header = crate::data::load_ron_lenient::<RecordHeader>("", text);
            Err(match header {
                // The header reads, so the game is missing or unknown.
                Ok((h, _)) => at(
                    text.find(&format!("\"{}\"", h.game)).unwrap_or(head_at),
                    format!(
                        "a match record of `{}`, which is not a game Tanktable knows ({})",
                        h.game,
                        GameKind::ALL.map(GameKind::name).join(", ")
                    ),
                ),
                Err(d) => match d.0.into_iter().next() {
                    Some(first) if !text.contains("game:") => Diagnostic {
                        file: name.to_string(),
                        message: format!(
                            "{}; a match record names its game first, as `game: \"tank-commander\"`",
                            first.message
                        ),
                        ..first
                    },
                    Some(first) => Diagnostic {
                        file: name.to_string(),
                        ..first
                    },
                    None => at(head_at, "a match record must name its game first, as `game: \"tank-commander\"`".into()),
                },
            })
        },
        |game| {
            Ok(Detected {
                game,
                kind: FileKind::Record,
            })
        },
    )
}

/// A lab variant, told by the game it names; else where the name should be.
fn variant_detected(name: &str, text: &str, head_at: usize) -> Result<Detected, Diagnostic> {
    let at = |offset: usize, message: String| diagnostic_at(name, text, offset, message);
    let header = crate::data::load_ron_lenient::<VariantHeader>("", text);
    match header.map(|(h, _)| GameKind::from_name(&h.game)) {
        Ok(Some(game)) => Ok(Detected {
            game,
            kind: FileKind::Variant,
        }),
        _ => Err(at(
            text.find("game:").unwrap_or(head_at),
            format!(
                "a lab variant must name a game Tanktable knows, as `game: \"tank-commander\"` ({})",
                GameKind::ALL.map(GameKind::name).join(", ")
            ),
        )),
    }
}

/// A seat's copy, told by the game it names; else where the name should be.
fn seat_copy_detected(name: &str, text: &str, head_at: usize) -> Result<Detected, Diagnostic> {
    let header = crate::data::load_ron_lenient::<SeatCopyHeader>("", text);
    match header.map(|(h, _)| GameKind::from_name(&h.game)) {
        Ok(Some(game)) => Ok(Detected {
            game,
            kind: FileKind::SeatCopy,
        }),
        _ => Err(diagnostic_at(
            name,
            text,
            text.find("game:").unwrap_or(head_at),
            format!(
                "a seat's copy must name a game Tanktable knows, as `game: \"range-duel\"` ({})",
                GameKind::ALL.map(GameKind::name).join(", ")
            ),
        )),
    }
}

/// Why a file that opens with `tag` (none when `head` opens with something else) is no
/// kind Tanktable knows, with the closest known name.
fn unknown_tag_message(tag: &str, head: &str) -> String {
    if tag.is_empty() {
        let c = head.chars().next().unwrap_or(' ');
        let what = if c == '{' {
            " (JSON is not read: the files are RON)"
        } else {
            ""
        };
        format!("expected the name of what the file holds, found `{c}`{what}: {WANTED}")
    } else {
        let closest = TAGS
            .iter()
            .map(|(t, _, _)| (strsim::jaro_winkler(tag, t), *t))
            .chain(
                ["MatchRecord", "LabVariant", "SeatCopy"]
                    .map(|t| (strsim::jaro_winkler(tag, t), t)),
            )
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .filter(|(score, _)| *score > 0.8)
            .map(|(_, t)| format!(" (did you mean `{t}`?)"))
            .unwrap_or_default();
        format!("`{tag}` is not a kind of file Tanktable knows{closest}: {WANTED}")
    }
}

/// What a file may open with, for the messages of [`detect_placed`].
const WANTED: &str = "a file opens with the name of what it holds: Scenario(…) \
    (Tank Commander), TankChessSetup(…), BattleTanksSetup(…), TankCombatSetup(…) or \
    RangeDuelSetup(…) for a setup; Rules(…), TankChessRules(…) or RangeDuelRules(…) for a \
    rules table; MatchRecord(…) for a match record; TankDesign(…) for a tank design; \
    Campaign(…) or CampaignState(…) for a campaign; LabVariant(…) for a lab variant; \
    SeatCopy(…) for a seat's copy of a game played across machines; or `[Setup \"…\"]` for a Tank Chess game in notation";

/// The game a match record names in its `game` field, read without the rest of the file
/// (which may be cut short or hold a mistake the full reading will place).
fn record_game(text: &str) -> Option<GameKind> {
    let rest = text.split("game:").nth(1)?.trim_start().strip_prefix('"')?;
    GameKind::from_name(&rest[..rest.find('"')?])
}

/// Whether `head` opens with a notation header line such as `[Setup "basic-16.ron"]`
/// (a RON list opens with `[` too, but never with a word and a quoted string).
fn is_notation_record(head: &str) -> bool {
    let Some(rest) = head.strip_prefix('[') else {
        return false;
    };
    let word: String = rest.chars().take_while(char::is_ascii_alphabetic).collect();
    !word.is_empty() && rest[word.len()..].trim_start().starts_with('"')
}

/// The text from its first line that is neither blank nor a comment (nor a RON
/// `#![enable(…)]` line).
#[must_use]
pub fn strip_comments(text: &str) -> &str {
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start();
        if let Some(after) = trimmed.strip_prefix("//") {
            rest = after.split_once('\n').map_or("", |(_, r)| r);
        } else if let Some(after) = trimmed.strip_prefix("/*") {
            rest = after.split_once("*/").map_or("", |(_, r)| r);
        } else if trimmed.starts_with("#![") {
            rest = trimmed.split_once('\n').map_or("", |(_, r)| r);
        } else {
            return trimmed;
        }
    }
}

/// Calls the generic function `$f::<G>(args…)` with `G` the game of the [`GameKind`]
/// `$which`.
#[macro_export]
macro_rules! dispatch_game {
    ($which:expr, $($f:ident)::+ $(::<$($extra:ty),+>)? ( $($arg:expr),* $(,)? )) => {
        match $which {
            $crate::rules::GameKind::TankCommander => {
                $($f)::+::<$crate::rules::tank_commander::TankCommander $($(, $extra)+)?>($($arg),*)
            }
            $crate::rules::GameKind::TankChess => {
                $($f)::+::<$crate::rules::tank_chess::TankChess $($(, $extra)+)?>($($arg),*)
            }
            $crate::rules::GameKind::BattleTanks => {
                $($f)::+::<$crate::rules::battle_tanks::BattleTanks $($(, $extra)+)?>($($arg),*)
            }
            $crate::rules::GameKind::TankCombat => {
                $($f)::+::<$crate::rules::tank_combat::TankCombat $($(, $extra)+)?>($($arg),*)
            }
            $crate::rules::GameKind::RangeDuel => {
                $($f)::+::<$crate::rules::range_duel::RangeDuel $($(, $extra)+)?>($($arg),*)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> Result<(GameKind, FileKind), String> {
        detect(Path::new("f.ron"), text)
            .map(|d| (d.game, d.kind))
            .map_err(|d| d.to_string())
    }

    #[test]
    fn every_shipped_file_is_recognised() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for game in GameKind::ALL {
            let dir = root.join(game.folder());
            let mut found = 0;
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_none_or(|e| e != "ron") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let d = detect(&path, &text).unwrap();
                assert_eq!(
                    (d.game, d.kind),
                    (game, FileKind::Setup),
                    "{}",
                    path.display()
                );
                found += 1;
            }
            assert!(found > 0, "no setups in {}", dir.display());
            for table in game.rules_tables() {
                let path = root.join(table);
                let text = std::fs::read_to_string(&path).unwrap();
                assert_eq!(detect(&path, &text).unwrap().kind, FileKind::Rules);
            }
        }
    }

    #[test]
    fn records_are_known_by_their_game() {
        assert_eq!(
            kind("MatchRecord(game: \"battle-tanks\", scenario: ())"),
            Ok((GameKind::BattleTanks, FileKind::Record))
        );
        assert_eq!(
            kind("(game: \"tank-commander\", actions: [])"),
            Ok((GameKind::TankCommander, FileKind::Record))
        );
        assert_eq!(
            kind("// a game\n[Game \"Tank Chess\"]\n[Setup \"x.ron\"]\n1. A1/N"),
            Ok((GameKind::TankChess, FileKind::Record))
        );
        let e = kind("MatchRecord(game: \"checkers\")").unwrap_err();
        assert!(e.contains("not a game Tanktable knows"), "{e}");
    }

    #[test]
    fn a_ron_list_is_not_a_chess_record() {
        let e = kind("[1, 2, 3]").unwrap_err();
        assert!(
            e.starts_with("f.ron:1:1: expected the name of what the file holds, found `[`"),
            "{e}"
        );
        assert!(kind("Scenarios(name: \"x\")").is_err());
        assert!(kind("").is_err());
    }

    /// A file of no kind Tanktable knows, or a record cut short, is told where reading
    /// stopped and what was expected there.
    #[test]
    fn a_file_of_no_known_kind_is_told_where_reading_stopped() {
        let place = |text: &str| {
            let d = detect_placed(Path::new("f.ron"), text).unwrap_err();
            (d.line, d.col, d.message)
        };
        let (line, col, m) = place("{\"game\": \"tank-commander\"}");
        assert_eq!((line, col), (1, 1));
        assert!(m.contains("found `{` (JSON is not read"), "{m}");
        let (line, col, m) = place("// a scenario\n\n  Scenarioo(name: \"x\")");
        assert_eq!((line, col), (3, 3));
        assert!(
            m.starts_with(
                "`Scenarioo` is not a kind of file Tanktable knows (did you mean `Scenario`?)"
            ),
            "{m}"
        );
        let (line, col, m) = place("// only a comment\n");
        assert_eq!((line, col), (2, 1));
        assert!(
            m.starts_with("the file ends before anything but comments"),
            "{m}"
        );
        let (line, col, m) = place("TankChessSetup\n  name: \"x\")");
        assert_eq!((line, col), (2, 3));
        assert_eq!(m, "expected `(` after `TankChessSetup`, found `n`");
        let (line, col, m) = place("MatchRecord(\n    game: \"checkers\",\n)");
        assert_eq!((line, col), (2, 11));
        assert!(m.starts_with("a match record of `checkers`"), "{m}");
        // A record cut short, or with a mistake after its game, is a record of its game:
        // reading it in full places the mistake.
        assert_eq!(
            kind(
                "MatchRecord(\n    game: \"tank-commander\",\n    scenario: Inline(Scenario(name: \"x\""
            ),
            Ok((GameKind::TankCommander, FileKind::Record))
        );
        assert_eq!(
            kind("MatchRecord(game: \"range-duel\", actions: 3)"),
            Ok((GameKind::RangeDuel, FileKind::Record))
        );
    }

    #[test]
    fn comments_and_extensions_are_skipped() {
        assert_eq!(
            kind("#![enable(implicit_some)]\n/* a\n table */ // x\nRangeDuelRules(bands: [])"),
            Ok((GameKind::RangeDuel, FileKind::Rules))
        );
        assert_eq!(
            kind("TankDesign(name: \"x\")"),
            Ok((GameKind::TankCommander, FileKind::Design))
        );
    }
}
