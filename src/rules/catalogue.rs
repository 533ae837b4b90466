//! Every setup, campaign and lab variant the binary knows, by name: the project's (when it
//! runs from the project folder), the player's own (saved from the editor into the data
//! folder's `scenarios/`), and the ones built into the binary. `tanktable list` prints
//! them; every command that takes a file takes one of these names too.
//!
//! A file's name is its path under `scenarios/` without `.ron` (`skirmish`,
//! `tank-chess/basic-16`, `campaigns/iron-road`); it is also found by its last part
//! (`basic-16`), by its game and last part (`tank-commander/skirmish`), and by the name
//! it gives itself, in lower case with dashes (`river-town` for River Town). Where two
//! places hold a file of the same name, the project's wins, then the player's, then the
//! built-in one.

use std::fmt;
use std::path::{Path, PathBuf};

use super::{FileKind, GameKind, detect};
use crate::data::shipped;

/// Where a listed file comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Origin {
    /// The project folder the binary runs from.
    Project,
    /// The player's own, in the data folder's `scenarios/`.
    Mine,
    /// Built into the binary.
    BuiltIn,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Origin::Project => "project",
            Origin::Mine => "my scenarios",
            Origin::BuiltIn => "built in",
        })
    }
}

/// One file the binary knows.
#[derive(Clone, Debug)]
pub struct Listed {
    pub game: GameKind,
    pub kind: FileKind,
    /// Its name: the path under `scenarios/` without `.ron`, `/` between folders.
    pub key: String,
    /// The name it gives itself (`River Town`), or its key.
    pub title: String,
    pub path: PathBuf,
    pub origin: Origin,
    /// A file of the same key from an earlier origin hides this one.
    pub hidden: bool,
}

impl Listed {
    /// Every name this file answers to, in lower case.
    fn aliases(&self) -> Vec<String> {
        let stem = self.key.rsplit('/').next().unwrap_or(&self.key).to_string();
        let slug = slug(&self.title);
        let game = self.game.name();
        let mut out = vec![
            self.key.clone(),
            stem.clone(),
            format!("{game}/{stem}"),
            slug.clone(),
            format!("{game}/{slug}"),
        ];
        out.dedup();
        out
    }
}

/// `River Town` → `river-town`.
#[must_use]
pub fn slug(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// The kinds of file a name can stand for.
const LISTED_KINDS: [FileKind; 3] = [FileKind::Setup, FileKind::Campaign, FileKind::Variant];

/// Every setup, campaign and lab variant the binary knows: the project's, the player's
/// own, then the built-in ones, each sorted by game and name.
#[must_use]
pub fn gather() -> Vec<Listed> {
    let mut out = Vec::new();
    if let Some(root) = shipped::project_root() {
        scan_tree(&root.join("scenarios"), "", Origin::Project, &mut out);
    }
    scan_mine(&crate::data::data_dir().join("scenarios"), &mut out);
    if let Some(root) = shipped::shipped_root() {
        scan_tree(&root.join("scenarios"), "", Origin::BuiltIn, &mut out);
    }
    let mut seen = std::collections::HashSet::new();
    for listed in &mut out {
        listed.hidden = !seen.insert(listed.key.clone());
    }
    out.sort_by(|a, b| {
        (
            GameKind::ALL.iter().position(|g| *g == a.game),
            a.kind as u8,
            &a.key,
            a.origin,
        )
            .cmp(&(
                GameKind::ALL.iter().position(|g| *g == b.game),
                b.kind as u8,
                &b.key,
                b.origin,
            ))
    });
    out
}

/// The listed files under `dir`, with keys prefixed by `prefix`.
fn scan_tree(dir: &Path, prefix: &str, origin: Origin, out: &mut Vec<Listed>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if path.is_dir() {
            scan_tree(&path, &format!("{prefix}{name}/"), origin, out);
        } else if let Some(stem) = name.strip_suffix(".ron")
            && let Some(listed) = classify(&path, format!("{prefix}{stem}"), origin)
        {
            out.push(listed);
        }
    }
}

/// The player's own setups: one folder for every game, named as the shipped ones of
/// their game would be (`tank-chess/mine`).
fn scan_mine(dir: &Path, out: &mut Vec<Listed>) {
    let mut found = Vec::new();
    scan_tree(dir, "", Origin::Mine, &mut found);
    for mut listed in found {
        let folder = listed.game.folder().strip_prefix("scenarios").unwrap_or("");
        let folder = folder.trim_start_matches('/');
        if !folder.is_empty() && listed.kind == FileKind::Setup {
            listed.key = format!("{folder}/{}", listed.key);
        }
        out.push(listed);
    }
}

/// What `path` is, if it is a setup, campaign or lab variant.
fn classify(path: &Path, key: String, origin: Origin) -> Option<Listed> {
    let text = std::fs::read_to_string(path).ok()?;
    let found = detect(path, &text).ok()?;
    LISTED_KINDS.contains(&found.kind).then(|| Listed {
        game: found.game,
        kind: found.kind,
        title: title_of(&text).unwrap_or_else(|| key.clone()),
        key,
        path: path.to_path_buf(),
        origin,
        hidden: false,
    })
}

/// The first `name: "…"` of a file: the name a setup, campaign or variant gives itself.
fn title_of(text: &str) -> Option<String> {
    let text = super::strip_comments(text);
    let at = text.find("name:")?;
    let rest = text[at + "name:".len()..].trim_start().strip_prefix('"')?;
    Some(rest[..rest.find('"')?].to_string())
}

/// Why a file argument names no one file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// No file is there and nothing listed has that name; `closest` holds the nearest
    /// names, best first.
    #[error(
        "{}: no such file, and no setup, campaign or lab variant is called `{query}`; {}",
        .arg.display(),
        closest_hint(.closest)
    )]
    NoSuch {
        arg: PathBuf,
        query: String,
        closest: Vec<String>,
    },
    /// The name stands for several listed files, each as `key (title)`.
    #[error("`{query}` names {} files; say which: {}", .choices.len(), .choices.join(", "))]
    Ambiguous { query: String, choices: Vec<String> },
}

/// What to try instead of a name that is not there.
fn closest_hint(closest: &[String]) -> String {
    if closest.is_empty() {
        "`tanktable list` prints every name".to_string()
    } else {
        format!(
            "the closest: {} (`tanktable list` prints every name)",
            closest.join(", ")
        )
    }
}

/// What a file argument names: the file itself when there is one at that path, else the
/// listed file of that name.
///
/// # Errors
/// [`ResolveError`]: nothing has that name (with the closest names), or the name stands
/// for several files (with theirs).
pub fn resolve(arg: &Path) -> Result<PathBuf, ResolveError> {
    if arg.exists() {
        return Ok(arg.to_path_buf());
    }
    let query = arg.to_string_lossy();
    let query = query.strip_suffix(".ron").unwrap_or(&query).to_lowercase();
    let listed: Vec<Listed> = gather().into_iter().filter(|l| !l.hidden).collect();
    let exact: Vec<&Listed> = listed.iter().filter(|l| l.key == query).collect();
    let matches: Vec<&Listed> = if exact.is_empty() {
        listed
            .iter()
            .filter(|l| l.aliases().contains(&query))
            .collect()
    } else {
        exact
    };
    match matches.as_slice() {
        [one] => Ok(one.path.clone()),
        [] => Err(no_such(&query, arg, &listed)),
        many => Err(ResolveError::Ambiguous {
            choices: many
                .iter()
                .map(|l| format!("{} ({})", l.key, l.title))
                .collect(),
            query,
        }),
    }
}

/// Nothing is called `query`: say so, with the closest names.
fn no_such(query: &str, arg: &Path, listed: &[Listed]) -> ResolveError {
    let mut scored: Vec<(f64, &str)> = listed
        .iter()
        .map(|l| {
            let best = l
                .aliases()
                .iter()
                .map(|a| strsim::jaro_winkler(query, a))
                .fold(0.0, f64::max);
            (best, l.key.as_str())
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.dedup_by(|a, b| a.1 == b.1);
    let closest = scored
        .iter()
        .filter(|(score, _)| *score > 0.7)
        .take(4)
        .map(|(_, key)| (*key).to_string())
        .collect();
    ResolveError::NoSuch {
        arg: arg.to_path_buf(),
        query: query.to_string(),
        closest,
    }
}

/// A record names its setup by a path that is not on this machine: say which file it
/// needs, and which known setup has that file's name (the record replays on it, if it is
/// the same setup, once it is put where the record looks).
#[must_use]
pub fn missing_setup(record: &Path, saved: &str) -> crate::data::Diagnostics {
    let stem = Path::new(saved)
        .file_stem()
        .map(|s| s.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let same: Vec<String> = gather()
        .into_iter()
        .filter(|l| !l.hidden && l.key.rsplit('/').next() == Some(stem.as_str()))
        .map(|l| format!("`{}` ({}, {})", l.key, l.title, l.origin))
        .collect();
    let hint = if same.is_empty() {
        String::new()
    } else {
        format!(
            "; known here under that name: {} (`tanktable list --all` gives its path)",
            same.join(", ")
        )
    };
    crate::data::Diagnostics::whole_file(
        &record.display().to_string(),
        format!(
            "this record was played on the setup `{saved}`, which is not on this machine: \
             put that file there, or beside the record{hint}"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name_of(arg: &str) -> Result<String, ResolveError> {
        resolve(Path::new(arg)).map(|p| crate::data::portable_path(&p))
    }

    #[test]
    fn setups_are_found_by_key_last_part_game_and_own_name() {
        assert_eq!(name_of("skirmish").unwrap(), "scenarios/skirmish.ron");
        assert_eq!(
            name_of("tank-chess/basic-16").unwrap(),
            "scenarios/tank-chess/basic-16.ron"
        );
        assert_eq!(
            name_of("basic-16").unwrap(),
            "scenarios/tank-chess/basic-16.ron"
        );
        assert_eq!(
            name_of("tank-commander/skirmish").unwrap(),
            "scenarios/skirmish.ron"
        );
        // River Town is `battle.ron`.
        assert_eq!(name_of("river-town").unwrap(), "scenarios/battle.ron");
        assert_eq!(name_of("River-Town.ron").unwrap(), "scenarios/battle.ron");
        // The key wins over another game's last part of the same name.
        assert_eq!(name_of("three-flags").unwrap(), "scenarios/three-flags.ron");
        assert_eq!(
            name_of("campaigns/iron-road").unwrap(),
            "scenarios/campaigns/iron-road.ron"
        );
        // A path that is there is itself.
        assert_eq!(
            resolve(Path::new("Cargo.toml")).unwrap(),
            PathBuf::from("Cargo.toml")
        );
    }

    #[test]
    fn an_unknown_or_shared_name_says_which_names_there_are() {
        let err = name_of("skirmsh").unwrap_err().to_string();
        assert!(err.contains("the closest: skirmish"), "{err}");
        let err = name_of("zzzzzzzz").unwrap_err();
        assert!(matches!(err, ResolveError::NoSuch { .. }), "{err}");
        assert!(err.to_string().contains("`tanktable list`"), "{err}");
        let err = name_of("default").unwrap_err().to_string();
        assert!(
            err.contains("battle-tanks/default") && err.contains("range-duel/default"),
            "{err}"
        );
    }

    #[test]
    fn every_shipped_setup_is_listed_once_from_the_project_and_once_built_in() {
        let all = gather();
        for game in GameKind::ALL {
            let project = all
                .iter()
                .filter(|l| l.game == game && l.origin == Origin::Project)
                .count();
            let built_in: Vec<&Listed> = all
                .iter()
                .filter(|l| l.game == game && l.origin == Origin::BuiltIn)
                .collect();
            assert!(project > 0, "{game:?}");
            assert_eq!(project, built_in.len(), "{game:?}");
            assert!(built_in.iter().all(|l| l.hidden), "the project's files win");
        }
    }

    #[test]
    fn a_record_on_a_setup_that_is_not_here_says_which_it_needs() {
        let d = missing_setup(
            Path::new("old.ron"),
            "/home/someone/tanktable/scenarios/skirmish.ron",
        );
        let text = d.to_string();
        assert!(text.starts_with("old.ron:1:1: this record was played on the setup `/home/someone/tanktable/scenarios/skirmish.ron`"), "{text}");
        assert!(text.contains("`skirmish` (Skirmish, project)"), "{text}");
    }

    #[test]
    fn titles_become_names() {
        assert_eq!(slug("River Town"), "river-town");
        assert_eq!(slug("Basic 16×16"), "basic-16-16");
        assert_eq!(slug("Duel: Heavy vs Medium"), "duel-heavy-vs-medium");
        assert_eq!(
            title_of("// x\nScenario(\n  name: \"Skirmish\", units: [(name: \"A\")])"),
            Some("Skirmish".to_string())
        );
    }
}
