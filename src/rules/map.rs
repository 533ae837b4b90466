//! The rules maps: for every rule of a game's rulebook, in the project's own words, the
//! reading chosen, the switch that changes it, where it lives in the code and the tests
//! that check it.
//!
//! A map is the `## Rules map` section of `docs/rules/<game>.md`, compiled into the
//! program: one table per rulebook section (its `###` heading), one row per rule. The
//! command line (`tanktable rules`) and the client's rules reference read it from here,
//! and a test keeps it true (every test it names exists, every switch of the rules data
//! appears in it).
//!
//! ```
//! use tanktable::rules::{GameKind, map};
//!
//! let map = map::map(GameKind::BattleTanks).unwrap();
//! assert!(map.rows.iter().any(|row| row.switches.iter().any(|s| s == "war_matches")));
//! ```

use std::fmt;

use super::GameKind;

/// What a row of a map says about a part of the rulebook.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RowKind {
    /// The text is clear, and the code does what it says.
    Rule,
    /// The text leaves a gap or two readings: the row says which one is played.
    Reading,
    /// Story, advice or an example: nothing to enforce.
    Flavour,
    /// Not built, and the row says why.
    NotImplemented,
}

impl RowKind {
    fn parse(text: &str) -> Option<Self> {
        match text.trim() {
            "rule" => Some(Self::Rule),
            "reading" => Some(Self::Reading),
            "flavour" => Some(Self::Flavour),
            "not implemented" => Some(Self::NotImplemented),
            _ => None,
        }
    }

    /// Whether a row of this kind must name a test.
    #[must_use]
    pub const fn needs_test(self) -> bool {
        matches!(self, Self::Rule | Self::Reading)
    }
}

impl fmt::Display for RowKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Rule => "rule",
            Self::Reading => "reading",
            Self::Flavour => "flavour",
            Self::NotImplemented => "not implemented",
        })
    }
}

/// One rule of a rulebook, as the map accounts for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleRow {
    /// A stable name (`bt.war.matches`): log lines, refusals and odds link to it.
    pub id: String,
    /// The rulebook's section it comes from.
    pub section: String,
    /// The rule, in the project's words.
    pub rule: String,
    pub kind: RowKind,
    /// The reading played (for a reading), or why it is not implemented.
    pub reading: String,
    /// The paths in the rules data that change it (`war_matches`, `night.flare_radius`).
    pub switches: Vec<String>,
    /// Where it lives: `src/…/file.rs` or `src/…/file.rs::item`.
    pub code: Vec<String>,
    /// The tests that check it: test function names, or files under `tests/`.
    pub tests: Vec<String>,
    /// The row's line in the map's file.
    pub line: usize,
}

impl RuleRow {
    /// Whether every word of `query` appears in the row (any case; in its id, section,
    /// rule, reading or switches).
    #[must_use]
    pub fn matches(&self, query: &str) -> bool {
        let text = format!(
            "{} {} {} {} {}",
            self.id,
            self.section,
            self.rule,
            self.reading,
            self.switches.join(" ")
        )
        .to_lowercase();
        query
            .split_whitespace()
            .all(|word| text.contains(&word.to_lowercase()))
    }
}

/// A game's rules map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesMap {
    pub game: GameKind,
    pub rows: Vec<RuleRow>,
}

/// How many rows of each kind a map has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub rules: usize,
    pub readings: usize,
    pub flavour: usize,
    pub not_implemented: usize,
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} rules, {} readings, {} flavour, {} not implemented",
            self.rules, self.readings, self.flavour, self.not_implemented
        )
    }
}

impl RulesMap {
    /// The row named `id`.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<&RuleRow> {
        self.rows.iter().find(|row| row.id == id)
    }

    /// The rows that hold every word of `query` (all rows for an empty one).
    #[must_use]
    pub fn search(&self, query: &str) -> Vec<&RuleRow> {
        self.rows.iter().filter(|row| row.matches(query)).collect()
    }

    /// The rows by kind.
    #[must_use]
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for row in &self.rows {
            match row.kind {
                RowKind::Rule => counts.rules += 1,
                RowKind::Reading => counts.readings += 1,
                RowKind::Flavour => counts.flavour += 1,
                RowKind::NotImplemented => counts.not_implemented += 1,
            }
        }
        counts
    }

    /// The rows that a switch at `path` changes (a row naming a group, `night`, changes
    /// every switch under it).
    #[must_use]
    pub fn rows_for_switch(&self, path: &str) -> Vec<&RuleRow> {
        self.rows
            .iter()
            .filter(|row| row.switches.iter().any(|s| covers(s, path)))
            .collect()
    }
}

/// Whether the map's switch entry `entry` names `path`, or a group or list holding it
/// (`night` holds `night.flare_radius`, `unit_types` holds `unit_types[0].armor.front`).
#[must_use]
pub fn covers(entry: &str, path: &str) -> bool {
    path == entry
        || path
            .strip_prefix(entry)
            .is_some_and(|r| r.starts_with(['.', '[']))
}

/// The prefix of every id in the game's map, also a short name for the game on the
/// command line (`tanktable rules bt`).
#[must_use]
pub const fn prefix(game: GameKind) -> &'static str {
    match game {
        GameKind::TankCommander => "tc",
        GameKind::TankChess => "chess",
        GameKind::BattleTanks => "bt",
        GameKind::TankCombat => "cmb",
        GameKind::RangeDuel => "rd",
    }
}

/// The map's file, as compiled in.
#[must_use]
pub const fn source(game: GameKind) -> (&'static str, &'static str) {
    match game {
        GameKind::TankCommander => (
            "docs/rules/tank-commander.md",
            include_str!("../../docs/rules/tank-commander.md"),
        ),
        GameKind::TankChess => (
            "docs/rules/tank-chess.md",
            include_str!("../../docs/rules/tank-chess.md"),
        ),
        GameKind::BattleTanks => (
            "docs/rules/battle-tanks.md",
            include_str!("../../docs/rules/battle-tanks.md"),
        ),
        GameKind::TankCombat => (
            "docs/rules/tank-combat.md",
            include_str!("../../docs/rules/tank-combat.md"),
        ),
        GameKind::RangeDuel => (
            "docs/rules/range-duel.md",
            include_str!("../../docs/rules/range-duel.md"),
        ),
    }
}

/// The game in a paragraph or two, for a player who has not read the rulebook: its rules
/// file's `## Overview` section, without the Markdown marks.
#[must_use]
pub fn overview(game: GameKind) -> Option<String> {
    let (_, text) = source(game);
    let start = text.find("\n## Overview\n")? + "\n## Overview\n".len();
    let rest = &text[start..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    let paragraphs: Vec<String> = rest[..end]
        .split("\n\n")
        .map(|p| {
            p.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .replace("**", "")
                .replace('`', "")
        })
        .filter(|p| !p.is_empty())
        .collect();
    (!paragraphs.is_empty()).then(|| paragraphs.join("\n\n"))
}

/// The rulebook's sections, in the map's order, each with how many of its rules the map
/// accounts for.
#[must_use]
pub fn sections(map: &RulesMap) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for row in &map.rows {
        match out.iter_mut().find(|(s, _)| *s == row.section) {
            Some((_, n)) => *n += 1,
            None => out.push((row.section.clone(), 1)),
        }
    }
    out
}

/// The game's rules map.
///
/// # Errors
/// Every problem in the map's table, each as `file:line: what is wrong`.
pub fn map(game: GameKind) -> Result<RulesMap, Vec<String>> {
    let (file, text) = source(game);
    parse(game, file, text)
}

/// The backticked items of a cell (`—` or nothing for none).
fn items(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Reads the `## Rules map` section of a game's rules file.
///
/// # Errors
/// Every problem, each as `file:line: what is wrong`.
pub fn parse(game: GameKind, file: &str, text: &str) -> Result<RulesMap, Vec<String>> {
    let mut problems = Vec::new();
    let mut rows: Vec<RuleRow> = Vec::new();
    let mut inside = false;
    let mut section = String::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let trimmed = line.trim();
        if let Some(heading) = trimmed.strip_prefix("## ") {
            inside = heading.trim() == "Rules map";
            continue;
        }
        if !inside {
            continue;
        }
        if let Some(heading) = trimmed.strip_prefix("### ") {
            section = heading.trim().to_string();
            continue;
        }
        if !trimmed.starts_with('|') {
            continue;
        }
        let cells: Vec<&str> = trimmed
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        if cells.first() == Some(&"Id")
            || cells.iter().all(|c| c.chars().all(|ch| "-: ".contains(ch)))
        {
            continue;
        }
        if let Some(row) = parse_row(game, file, line_no, &cells, &section, &rows, &mut problems) {
            rows.push(row);
        }
    }
    if rows.is_empty() && problems.is_empty() {
        problems.push(format!("{file}: no `## Rules map` section with rows"));
    }
    if problems.is_empty() {
        Ok(RulesMap { game, rows })
    } else {
        Err(problems)
    }
}

/// A row of the map's table, read from its `cells` at line `line_no` of `file` under
/// `section` (`rows` are those read before it); its problems go to `problems`, and a
/// row without seven cells or a kind is none.
fn parse_row(
    game: GameKind,
    file: &str,
    line_no: usize,
    cells: &[&str],
    section: &str,
    rows: &[RuleRow],
    problems: &mut Vec<String>,
) -> Option<RuleRow> {
    let at = format!("{file}:{line_no}");
    if cells.len() != 7 {
        problems.push(format!(
            "{at}: a row has 7 cells (Id, Rule, Kind, Reading, Switch, Code, Tests), this one {}",
            cells.len()
        ));
        return None;
    }
    let id = cells[0].trim_matches('`').to_string();
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-')
    {
        problems.push(format!(
            "{at}: `{id}` is not an id (lowercase letters, digits, `.` and `-`)"
        ));
    }
    if !id.starts_with(&format!("{}.", prefix(game))) {
        problems.push(format!(
            "{at}: `{id}` does not start with the game's prefix `{}.`",
            prefix(game)
        ));
    }
    if rows.iter().any(|r| r.id == id) {
        problems.push(format!("{at}: the id `{id}` is used twice"));
    }
    if section.is_empty() {
        problems.push(format!("{at}: a row before any `###` section heading"));
    }
    let Some(kind) = RowKind::parse(cells[2]) else {
        problems.push(format!(
            "{at}: `{}` is not a kind (rule, reading, flavour, not implemented)",
            cells[2]
        ));
        return None;
    };
    if cells[1].is_empty() {
        problems.push(format!("{at}: `{id}` says no rule"));
    }
    let tests = items(cells[6]);
    if kind.needs_test() && tests.is_empty() {
        problems.push(format!("{at}: `{id}` is a {kind} and names no test"));
    }
    if kind == RowKind::NotImplemented && cells[3].trim_matches('—').trim().is_empty() {
        problems.push(format!("{at}: `{id}` is not implemented: say why"));
    }
    Some(RuleRow {
        id,
        section: section.to_string(),
        rule: cells[1].to_string(),
        kind,
        reading: cells[3].trim_matches('—').trim().to_string(),
        switches: items(cells[4]),
        code: items(cells[5]),
        tests,
        line: line_no,
    })
}

/// Why a game's switches could not be listed.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    /// The game's rules table or default setup does not read.
    #[error("{0}")]
    Data(#[from] crate::data::Diagnostics),
    /// The default setup is neither in the project nor built in.
    #[error("no {0} here or built in")]
    NoDefaultSetup(&'static str),
    /// The tuning could not be written out as JSON.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
}

/// Every switch of a game's rules data, as dotted paths to its values (`night.flare_radius`):
/// the tuning the playtest lab changes, read from the game's default setup.
///
/// # Errors
/// The default setup could not be read.
pub fn switch_paths(game: GameKind) -> Result<Vec<String>, MapError> {
    Ok(default_switch_values(game)?
        .into_iter()
        .map(|(path, _)| path)
        .collect())
}

/// The tuning of `G`'s default setup, as JSON: the project's file, else the built-in one.
fn default_tuning<G: crate::framework::Playable>() -> Result<serde_json::Value, MapError> {
    let rules = G::load_rules(None)?;
    let path = crate::data::find_project_file(G::KIND.default_setup())
        .ok_or_else(|| MapError::NoDefaultSetup(G::KIND.default_setup()))?;
    let setup = crate::framework::playable::load_setup::<G>(&path, &rules)?;
    Ok(serde_json::to_value(G::tuning(&setup))?)
}

/// The values in force for every switch of an open game, by path.
///
/// # Errors
/// The tuning could not be written out.
pub fn switch_values<G: crate::framework::Playable>(
    setup: &G::Setup,
) -> Result<Vec<(String, serde_json::Value)>, MapError> {
    let value = serde_json::to_value(G::tuning(setup))?;
    Ok(values_of(&value))
}

/// The values of every switch in the game's default setup, by path.
///
/// # Errors
/// The default setup could not be read.
pub fn default_switch_values(game: GameKind) -> Result<Vec<(String, serde_json::Value)>, MapError> {
    let value = crate::dispatch_game!(game, default_tuning())?;
    Ok(values_of(&value))
}

fn values_of(value: &serde_json::Value) -> Vec<(String, serde_json::Value)> {
    let mut paths = Vec::new();
    leaves(value, String::new(), &mut paths);
    paths
        .into_iter()
        .filter_map(|p| {
            let v = lookup(value, &p)?.clone();
            Some((p, v))
        })
        .collect()
}

/// The game's rules map, read once for the whole program (`None` if it does not read,
/// which the tests rule out).
#[must_use]
pub fn cached(game: GameKind) -> Option<&'static RulesMap> {
    static MAPS: std::sync::OnceLock<Vec<Option<RulesMap>>> = std::sync::OnceLock::new();
    let maps = MAPS.get_or_init(|| GameKind::ALL.map(|g| map(g).ok()).into_iter().collect());
    let i = GameKind::ALL.iter().position(|g| *g == game)?;
    maps.get(i)?.as_ref()
}

fn lookup<'a>(value: &'a serde_json::Value, path: &str) -> Option<&'a serde_json::Value> {
    if path.is_empty() {
        return Some(value);
    }
    path.split('.').try_fold(value, |v, key| v.get(key))
}

/// The paths of `value`'s leaves (a list is one leaf: it is changed as a whole).
fn leaves(value: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(fields) if !fields.is_empty() => {
            for (key, inner) in fields {
                let path = if at.is_empty() {
                    key.clone()
                } else {
                    format!("{at}.{key}")
                };
                leaves(inner, path, out);
            }
        }
        _ => {
            if !at.is_empty() {
                out.push(at);
            }
        }
    }
}

/// The tests of the project's Rust files: `#[test]` functions and `proptest!` cases,
/// each with whether it is `#[ignore]`d (an ignored test does not run in CI).
///
/// # Errors
/// A file that could not be read.
pub fn project_tests(root: &std::path::Path) -> std::io::Result<Vec<(String, bool)>> {
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches"] {
        rust_files(&root.join(dir), &mut files)?;
    }
    let mut tests = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file)?;
        let in_proptest = text.contains("proptest!");
        let (mut test, mut ignored) = (false, false);
        for line in text.lines() {
            let line = line.trim();
            if line.starts_with("#[test]") {
                test = true;
            } else if line.starts_with("#[ignore") {
                ignored = true;
            } else if let Some(rest) = line
                .strip_prefix("fn ")
                .or_else(|| line.strip_prefix("pub fn "))
                .or_else(|| line.strip_prefix("async fn "))
            {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                // A proptest case: `fn name(x in strategy)`.
                let case = in_proptest && rest.contains(" in ");
                if test || case {
                    tests.push((name, ignored));
                }
                test = false;
                ignored = false;
            } else if !line.starts_with("#[") && !line.starts_with("//") && !line.is_empty() {
                test = false;
                ignored = false;
            }
        }
    }
    Ok(tests)
}

fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
    if !dir.is_dir() {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            rust_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// Everything that makes a game's map untrue: a test, file or item it names that does
/// not exist, a switch it names that the rules data lacks, and a switch of the rules
/// data that no row names.
///
/// # Errors
/// The game's switches could not be listed (its default setup does not read).
pub fn check(
    map: &RulesMap,
    root: &std::path::Path,
    tests: &[(String, bool)],
) -> Result<Vec<String>, MapError> {
    let (file, _) = source(map.game);
    let switches = switch_paths(map.game)?;
    let mut problems = Vec::new();
    for row in &map.rows {
        let at = format!("{file}:{}: `{}`", row.line, row.id);
        for test in &row.tests {
            if test.contains('/') {
                if !root.join(test).is_file() {
                    problems.push(format!("{at} names `{test}`, which is not a file"));
                }
            } else {
                match tests.iter().find(|(name, _)| name == test) {
                    None => problems.push(format!(
                        "{at} names the test `{test}`, which does not exist"
                    )),
                    Some((_, true)) => problems.push(format!(
                        "{at} names the test `{test}`, which is ignored (it does not run in CI)"
                    )),
                    Some(_) => {}
                }
            }
        }
        for code in &row.code {
            let (path, item) = code
                .split_once("::")
                .map_or((code.as_str(), None), |(p, i)| (p, Some(i)));
            match std::fs::read_to_string(root.join(path)) {
                Err(_) => problems.push(format!("{at} names `{path}`, which is not a file")),
                Ok(text) => {
                    if let Some(item) = item
                        && !text.contains(item)
                    {
                        problems.push(format!("{at} names `{item}`, which is not in {path}"));
                    }
                }
            }
        }
        for switch in &row.switches {
            if !switches.iter().any(|path| covers(switch, path)) {
                problems.push(format!(
                    "{at} names the switch `{switch}`, which the rules data lacks"
                ));
            }
        }
    }
    for path in &switches {
        if map.rows_for_switch(path).is_empty() {
            problems.push(format!(
                "{file}: the switch `{path}` of the rules data appears in no row of the map"
            ));
        }
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game has its one-screen "How to play": an overview in plain words and the
    /// sections of its rulebook.
    #[test]
    fn every_game_has_an_overview_and_its_sections() {
        for game in GameKind::ALL {
            let text = overview(game).unwrap_or_else(|| panic!("{game:?} has no overview"));
            assert!(text.len() > 300, "{game:?}: {text}");
            assert!(
                !text.contains("**") && !text.contains('`'),
                "{game:?}: {text}"
            );
            let sections = sections(&map(game).unwrap());
            assert!(sections.len() >= 3, "{game:?}: {sections:?}");
            assert!(sections.iter().all(|(s, n)| !s.is_empty() && *n > 0));
        }
    }

    /// The maps stay true: run by `cargo test`, so a rule whose test is removed fails CI.
    #[test]
    fn every_rules_map_is_true() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let tests = project_tests(root).unwrap();
        let mut problems = Vec::new();
        for game in GameKind::ALL {
            match map(game) {
                Err(found) => problems.extend(found),
                Ok(map) => problems.extend(check(&map, root, &tests).unwrap()),
            }
        }
        assert!(
            problems.is_empty(),
            "the rules maps are not true:\n{}",
            problems.join("\n")
        );
    }

    /// Plays random games of `G`'s default setup and gathers the rules every fact and
    /// every refused legal-looking action link to; `None` marks a fact with no link.
    fn links<G: crate::framework::Playable>(
        games: u64,
        candidates: &dyn Fn() -> Vec<G::Action>,
    ) -> (Vec<Option<&'static str>>, Vec<&'static str>) {
        use crate::framework::bot::{Bot, RandomBot, play_out};
        use crate::framework::{Game, MatchRng};
        let rules = G::load_rules(None).unwrap();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(G::KIND.default_setup());
        let setup = crate::framework::playable::load_setup::<G>(&path, &rules).unwrap();
        let (mut facts, mut refusals) = (Vec::new(), Vec::new());
        for seed in 0..games {
            let game = G::from_setup(&setup).unwrap();
            let mut bots: Vec<Box<dyn Bot<G>>> = (0..game.player_count())
                .map(|_| Box::new(RandomBot) as Box<dyn Bot<G>>)
                .collect();
            let _ = play_out(
                game,
                &mut bots,
                &mut MatchRng::new(seed),
                &mut MatchRng::new(seed + 1000),
                400,
                |state, new| {
                    facts.extend(new.iter().map(|f| state.fact_rule(f)));
                    // A refusal is tried on copies of the state and the generator, so
                    // any generator will do.
                    let rng = MatchRng::new(seed);
                    for player in state.to_act() {
                        let legal = state.legal_actions(player);
                        for action in candidates() {
                            if !legal.contains(&action) {
                                refusals.extend(
                                    Game::refusal(state, player, &action, &rng)
                                        .map(|refusal| refusal.rule),
                                );
                            }
                        }
                    }
                },
            );
        }
        (facts, refusals)
    }

    #[test]
    fn every_tank_build_problem_names_a_rule_of_the_map() {
        use crate::rules::tank_commander::{Build, UnitKind};
        let map = map(GameKind::TankCommander).unwrap();
        let flags = Build::default().flags().map(|(field, _)| field);
        let fields = ["", "armor.front", "armor.side", "armor.rear", "mines"]
            .into_iter()
            .chain(flags)
            .map(|f| {
                if f.is_empty() {
                    "build".to_string()
                } else {
                    format!("build.{f}")
                }
            })
            .chain(["loaded", "named", "veterans[0]"].map(String::from));
        for kind in [UnitKind::Tank, UnitKind::Apc] {
            for field in fields.clone() {
                let id = Build::rule_of(kind, &field);
                assert!(
                    map.get(id).is_some(),
                    "{kind:?} `{field}`: `{id}` is not in the map"
                );
            }
        }
        assert_eq!(
            Build::rule_of(UnitKind::Tank, "build.armor.side"),
            "tc.build.armor"
        );
        assert_eq!(
            Build::rule_of(UnitKind::Apc, "build.barrel"),
            "tc.apc.engine-smoke"
        );
        assert_eq!(Build::rule_of(UnitKind::Tank, "build"), "tc.build.budget");
    }

    #[test]
    fn every_log_line_and_refusal_names_a_rule_of_its_games_map() {
        fn check<G: crate::framework::Playable>(
            problems: &mut Vec<String>,
            candidates: &dyn Fn() -> Vec<G::Action>,
        ) {
            let map = map(G::KIND).unwrap();
            let (facts, refusals) = links::<G>(30, candidates);
            assert!(!facts.is_empty(), "{:?}: no fact seen", G::KIND);
            if facts.iter().any(Option::is_none) {
                problems.push(format!("{:?}: a fact links to no rule", G::KIND));
            }
            for id in facts.into_iter().flatten().chain(refusals) {
                if map.get(id).is_none() {
                    problems.push(format!("{:?}: `{id}` is not in the map", G::KIND));
                }
            }
        }
        let mut problems = Vec::new();
        {
            use crate::rules::battle_tanks::{Action, BattleTanks};
            check::<BattleTanks>(&mut problems, &|| {
                vec![
                    Action::Tank,
                    Action::Nuke,
                    Action::Keep,
                    Action::SwitchToNuke,
                    Action::Launch,
                ]
            });
        }
        {
            use crate::rules::range_duel::{Action, RangeDuel};
            check::<RangeDuel>(&mut problems, &Action::offered);
        }
        {
            // Moves from the pieces' start rows, a turn, a shot and escapes: a few of
            // them, as each refusal searches the position.
            use crate::rules::tank_chess::{Action, Dir8, Square, TankChess};
            check::<TankChess>(&mut problems, &|| {
                let at = |col, row| Square { col, row };
                vec![
                    Action::Move {
                        from: at(3, 1),
                        to: at(3, 4),
                        facing: Dir8::N,
                        fire: None,
                    },
                    Action::Move {
                        from: at(6, 14),
                        to: at(6, 10),
                        facing: Dir8::S,
                        fire: Some(at(6, 2)),
                    },
                    Action::Escape { from: at(7, 0) },
                    Action::Escape { from: at(8, 15) },
                ]
            });
        }
        {
            use crate::rules::tank_commander::{Action, Round, TankCommander};
            check::<TankCommander>(&mut problems, &|| {
                vec![
                    Action::Move,
                    Action::Load(Round::He),
                    Action::Load(Round::At),
                    Action::TakeCover,
                    Action::Capture,
                    Action::Extinguish,
                    Action::DeploySmoke(hexx::Hex::ZERO),
                    Action::FireFlare(hexx::Hex::ZERO),
                    Action::CallAirStrike(hexx::Hex::ZERO),
                ]
            });
        }
        {
            use crate::framework::PlayerId;
            use crate::rules::tank_combat::{Action, Card, TankCombat};
            check::<TankCombat>(&mut problems, &|| {
                let mut all = vec![Action::Smoke, Action::Pass];
                for card in Card::ALL {
                    all.extend([
                        Action::Load { card },
                        Action::Equip { card },
                        Action::Discard { card },
                        Action::Swap { card },
                    ]);
                    for target in (0..4).map(PlayerId) {
                        all.extend([
                            Action::Sabotage {
                                hazard: card,
                                target,
                            },
                            Action::Repair {
                                remedy: card,
                                target,
                            },
                            Action::LoadAndFire { card, target },
                        ]);
                    }
                }
                for target in (0..4).map(PlayerId) {
                    all.extend([Action::Fire { target }, Action::CoaxialMg { target }]);
                }
                all
            });
        }
        problems.sort();
        problems.dedup();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// A shipped setup may play a variant of the rules, but it must say so: the rulebook's
    /// reading is the default, and a playtester reads the setup's description.
    #[test]
    fn a_shipped_setup_that_changes_the_rules_says_it_is_a_variant() {
        fn check<G: crate::framework::Playable>(problems: &mut Vec<String>) {
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
            let rules = G::load_rules(None).unwrap();
            let default = default_switch_values(G::KIND).unwrap();
            let dir = root.join(G::KIND.folder());
            let mut files: Vec<_> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "ron"))
                .collect();
            files.sort();
            for path in files {
                let Ok(setup) = crate::framework::playable::load_setup::<G>(&path, &rules) else {
                    continue;
                };
                let changed: Vec<String> = switch_values::<G>(&setup)
                    .unwrap()
                    .into_iter()
                    .filter(|(p, v)| default.iter().any(|(dp, dv)| dp == p && dv != v))
                    .map(|(p, _)| p)
                    .collect();
                let (title, about) = G::setup_title(&setup);
                let says = format!("{title} {about}")
                    .to_lowercase()
                    .contains("variant");
                if !changed.is_empty() && !says {
                    problems.push(format!(
                        "{} changes {} but does not call itself a variant",
                        path.display(),
                        changed.join(", ")
                    ));
                }
            }
        }
        let mut problems = Vec::new();
        check::<crate::rules::battle_tanks::BattleTanks>(&mut problems);
        check::<crate::rules::tank_combat::TankCombat>(&mut problems);
        check::<crate::rules::range_duel::RangeDuel>(&mut problems);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn a_row_without_a_test_or_with_a_bad_kind_is_refused() {
        let text = "# X\n\n## Rules map\n\n### Setup\n\n| Id | Rule | Kind | Reading | Switch | Code | Tests |\n|---|---|---|---|---|---|---|\n| bt.a | Five tanks. | rule | as written | `tanks` | `src/x.rs` | — |\n| bt.b | Fun. | story | — | — | — | — |\n| bt.c | Scores. | not implemented | — | — | — | — |\n";
        let problems = parse(GameKind::BattleTanks, "m.md", text).unwrap_err();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(
            problems[0].starts_with("m.md:9: `bt.a` is a rule and names no test"),
            "{problems:?}"
        );
        assert!(
            problems[1].contains("`story` is not a kind"),
            "{problems:?}"
        );
        assert!(
            problems[2].contains("not implemented: say why"),
            "{problems:?}"
        );
    }

    #[test]
    fn a_map_is_read_by_section_and_searched_by_every_word() {
        let text = "## Rules map\n\n### War\n\n| Id | Rule | Kind | Reading | Switch | Code | Tests |\n|---|---|---|---|---|---|---|\n| bt.war.matches | Matching dice go to War. | reading | All matches. | `war_matches` | `src/rules/battle_tanks/resolve.rs` | `t1`, `t2` |\n\n### Nukes\n\n| Id | Rule | Kind | Reading | Switch | Code | Tests |\n|---|---|---|---|---|---|---|\n| bt.nuke.bonus | A Nuke adds one. | rule | as written | — | — | `t3` |\n";
        let map = parse(GameKind::BattleTanks, "m.md", text).unwrap();
        assert_eq!(map.rows.len(), 2);
        let war = map.get("bt.war.matches").unwrap();
        assert_eq!(
            (war.section.as_str(), war.tests.len(), war.line),
            ("War", 2, 7)
        );
        assert_eq!(map.search("dice WAR").len(), 1);
        assert_eq!(map.search("nuke one").len(), 1);
        assert_eq!(map.search("").len(), 2);
        assert_eq!(map.rows_for_switch("war_matches").len(), 1);
        assert_eq!(map.counts().readings, 1);
        assert!(covers("night", "night.flare_radius") && !covers("night", "nightfall"));
    }

    #[test]
    fn tests_are_found_with_their_ignore_marks() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let tests = project_tests(root).unwrap();
        let has = |name: &str| tests.iter().find(|(n, _)| n == name).map(|(_, i)| *i);
        assert_eq!(has("tests_are_found_with_their_ignore_marks"), Some(false));
        assert_eq!(has("switch_paths"), None, "a function that is not a test");
        assert!(
            tests.iter().any(|(_, ignored)| *ignored),
            "the project has ignored tests"
        );
    }
}
