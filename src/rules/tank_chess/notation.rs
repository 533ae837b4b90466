//! The rulebook's notation: `37. K1 > N3/NE , H7 > K7/SE (#)`.
//!
//! A move is the starting square (left out for a turn in place), `>`, the final square,
//! `/` and the facing; in brackets the square of a destroyed piece and/or `+` (check),
//! `#` (checkmate), `-` (escape) or `=` (escapemate). Tanktable writes a Command tank
//! leaving the board as `K16 > off`. A game record starts with a header naming the setup:
//! `[Setup "scenarios/tank-chess/basic-16.ron"]`.

use super::{Action, Announcement, Fact, Square, TankChess};

/// A move in notation; `after` (the facts it caused) adds the announcement symbol.
#[must_use]
pub fn move_text(action: &Action, after: Option<&[Fact]>) -> String {
    let mut text = match *action {
        Action::Move {
            from, to, facing, ..
        } if from == to => format!("{to}/{facing}"),
        Action::Move {
            from, to, facing, ..
        } => format!("{from} > {to}/{facing}"),
        Action::Escape { from } => format!("{from} > off"),
        Action::Take {
            from, to, facing, ..
        } if from == to => format!("{to}/{facing} (flag)"),
        Action::Take {
            from, to, facing, ..
        } => format!("{from} > {to}/{facing} (flag)"),
        Action::Resign => return "resigns".into(),
        Action::OutOfTime => return "time".into(),
    };
    let mut inside = Vec::new();
    if let Action::Move { fire: Some(sq), .. } = action {
        inside.push(sq.to_string());
    }
    if let Some(facts) = after {
        for f in facts {
            if let Fact::Announced(a) = f {
                inside.push(
                    match a {
                        Announcement::Check => "+",
                        Announcement::Checkmate => "#",
                        Announcement::Escape => "-",
                        Announcement::Escapemate => "=",
                    }
                    .into(),
                );
            }
        }
    }
    if !inside.is_empty() {
        text.push_str(&format!(" ({})", inside.join(" ")));
    }
    text
}

/// Why a move or a game record in notation does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The move's text matches no legal move of the side to move.
    #[error("`{text}` is not a legal move for {side} here ({legal} legal moves)")]
    NotLegal {
        text: String,
        side: &'static str,
        legal: usize,
    },
    /// A record's line is not `N. move , move`.
    #[error("line {line}: expected `N. move , move`")]
    NotAMoveLine { line: usize },
    /// A record's move number is not a number.
    #[error("line {line}: `{number}` is not a move number")]
    NotAMoveNumber { line: usize, number: String },
    /// A record without its `[Setup "…"]` header.
    #[error("the record names no setup: add a line `[Setup \"path\"]`")]
    NoSetup,
}

/// Reads one move in notation against the legal moves of `game`.
///
/// # Errors
/// When the text matches no legal move.
pub fn parse_move(game: &TankChess, text: &str) -> Result<Action, NotationError> {
    let want = normalise(text);
    // The moving piece's square comes first: before `>`, or before `/` for a turn.
    let from = want.split(['>', '/']).next().and_then(Square::parse);
    from.and_then(|from| {
        game.moves_from(from)
            .into_iter()
            .find(|a| normalise(&move_text(a, None)) == want)
    })
    .ok_or_else(|| NotationError::NotLegal {
        text: text.trim().to_string(),
        side: super::side_name(game.to_move()),
        legal: game.legal().len(),
    })
}

/// Drops announcement symbols and spacing, so `K7/SE (#)` reads as `K7/SE`.
fn normalise(text: &str) -> String {
    let mut s: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '+' | '#' | '='))
        .collect::<String>()
        .to_ascii_uppercase();
    // A lone `-` in brackets is the escape symbol.
    s = s.replace("(-)", "").replace("-)", ")").replace("()", "");
    s
}

/// A whole game as numbered move pairs, with a header; `tags` add header lines
/// (`[Seats "person,commander"]`).
#[must_use]
pub fn record_text(
    setup: &str,
    game_name: &str,
    tags: &[(&str, String)],
    moves: &[(Action, Vec<Fact>)],
) -> String {
    let mut out = format!("[Game \"Tank Chess\"]\n[Setup \"{setup}\"]\n[Name \"{game_name}\"]\n");
    for (tag, value) in tags {
        out.push_str(&format!("[{tag} \"{value}\"]\n"));
    }
    for (n, pair) in moves.chunks(2).enumerate() {
        let texts: Vec<String> = pair.iter().map(|(a, f)| move_text(a, Some(f))).collect();
        out.push_str(&format!("{}. {}\n", n + 1, texts.join(" , ")));
    }
    out
}

/// Whether `text` is a game record (its first line that is not a comment is a header).
#[must_use]
pub fn is_record(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("//"))
        .is_some_and(|l| l.starts_with('['))
}

/// A parsed game record: the setup it names, its other header tags and its moves in
/// notation, each with its line number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedRecord {
    pub setup: String,
    pub tags: Vec<(String, String)>,
    pub moves: Vec<(usize, String)>,
}

impl ParsedRecord {
    /// The value of header tag `name`.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(t, _)| t == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads a game record: `[Setup "…"]` and numbered lines of one or two moves.
///
/// # Errors
/// A sentence with the line number when the text is not a record.
pub fn parse_record(text: &str) -> Result<ParsedRecord, NotationError> {
    let mut setup = None;
    let mut tags = Vec::new();
    let mut moves = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let rest = rest.trim_end_matches(']');
            if let Some((tag, value)) = rest.split_once(' ') {
                let value = value.trim().trim_matches('"').to_string();
                if tag == "Setup" {
                    setup = Some(value);
                } else {
                    tags.push((tag.to_string(), value));
                }
            }
            continue;
        }
        let Some((num, body)) = line.split_once('.') else {
            return Err(NotationError::NotAMoveLine { line: n + 1 });
        };
        if num.trim().parse::<u32>().is_err() {
            return Err(NotationError::NotAMoveNumber {
                line: n + 1,
                number: num.trim().to_string(),
            });
        }
        moves.extend(
            body.split(',')
                .map(|m| m.trim().to_string())
                .filter(|m| !m.is_empty())
                .map(|m| (n + 1, m)),
        );
    }
    Ok(ParsedRecord {
        setup: setup.ok_or(NotationError::NoSetup)?,
        tags,
        moves,
    })
}
