//! Rules variants: a base setup plus changed numbers and switches, read from and written
//! to small RON override files, and the form of every field a designer may change.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::doc::{self, LeafKind};
use crate::data::{self, Diagnostics, Problems};
use crate::framework::Playable;

/// A variant file: the changes to a game's tuning, and optionally the setup it is for.
///
/// ```ron
/// LabVariant(
///     game: "tank-commander",
///     setup: "../scenarios/skirmish.ron",
///     name: "Forest -2",
///     changes: { "firing.forest_penalty": "2" },
/// )
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename = "LabVariant")]
pub struct VariantFile {
    /// The game, as records name it (`"tank-commander"`).
    pub game: String,
    /// The setup, relative to the variant file; the one run when none is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    pub name: String,
    /// Changed values by path, each written as RON (`"2"`, `"true"`, `"FirstDeath"`).
    #[serde(default)]
    pub changes: BTreeMap<String, String>,
}

impl VariantFile {
    /// Reads a variant file.
    ///
    /// # Errors
    /// Every problem, placed in the file.
    pub fn parse(path: &Path, text: &str) -> Result<Self, Diagnostics> {
        let file = path.display().to_string();
        let (variant, map): (VariantFile, _) = data::load_ron(&file, text)?;
        let mut p = Problems::default();
        if crate::rules::GameKind::from_name(&variant.game).is_none() {
            p.push(
                "game",
                format!(
                    "there is no game `{}` (tank-commander, tank-chess, battle-tanks, tank-combat, range-duel)",
                    variant.game
                ),
            );
        }
        if variant.name.trim().is_empty() {
            p.push("name", "a variant needs a name");
        }
        if p.is_empty() {
            Ok(variant)
        } else {
            Err(p.locate(&file, &map))
        }
    }

    /// The setup file the variant names: relative to the variant's own folder, else as
    /// a record's is found (the working directory, the project, the built-in copy).
    #[must_use]
    pub fn setup_path(&self, variant_path: &Path) -> Option<PathBuf> {
        let setup = self.setup.as_ref()?;
        let beside = variant_path.parent().unwrap_or(Path::new("")).join(setup);
        if beside.exists() {
            return Some(beside);
        }
        Some(crate::rules::tank_commander::resolve_path(setup, None))
    }

    /// The file's text, as [`VariantFile::parse`] reads it.
    ///
    /// # Errors
    /// A sentence when it cannot be written (never for a well-formed variant).
    pub fn to_text(&self) -> Result<String, String> {
        Ok(format!(
            "// A playtest lab variant: the base rules with these fields changed.\n{}\n",
            data::to_ron_pretty(self)?
        ))
    }

    /// Writes the file atomically.
    ///
    /// # Errors
    /// A sentence when it cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        data::write_atomic(path, &self.to_text()?)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

/// The setup a variant runs on: the one it names (beside the variant file), else the
/// game's default.
///
/// # Errors
/// Every problem of the setup file, placed in it.
pub fn variant_setup<G: Playable>(
    variant: &VariantFile,
    variant_path: &Path,
) -> Result<(G::Setup, PathBuf), Diagnostics> {
    let path = variant
        .setup_path(variant_path)
        .or_else(|| data::find_project_file(G::KIND.default_setup()))
        .unwrap_or_else(|| PathBuf::from(G::KIND.default_setup()));
    let rules = G::load_rules(None)?;
    let setup = crate::framework::playable::load_setup::<G>(&path, &rules)?;
    Ok((setup, path))
}

/// Reads a variant file and checks it against its setup: every change must name a field
/// of the game's tuning, hold a value of its kind, and be one the rules accept.
///
/// # Errors
/// Every problem, placed in the file at the variant's `changes`.
pub fn check<G: Playable>(path: &Path, text: &str) -> Result<(VariantFile, G::Setup), Diagnostics> {
    let variant = VariantFile::parse(path, text)?;
    let file = path.display().to_string();
    let map = data::SourceMap::new(text);
    if variant.game != G::NAME {
        let mut p = Problems::default();
        p.push(
            "game",
            format!(
                "this variant is for `{}`, not {}",
                variant.game,
                G::KIND.title()
            ),
        );
        return Err(p.locate(&file, &map));
    }
    let (setup, _) = variant_setup::<G>(&variant, path)?;
    let tuned = apply::<G>(&setup, &variant.changes).map_err(|problems| {
        let mut p = Problems::default();
        for why in problems {
            p.push("changes", why);
        }
        p.locate(&file, &map)
    })?;
    Ok((variant, tuned))
}

/// One number or switch of a game's tuning, as the lab's form shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Field {
    /// Its path (`firing.forest_penalty`).
    pub path: String,
    /// The top-level group it sits in (`firing`), as the rules file groups them.
    pub group: String,
    pub kind: LeafKind,
    /// The base value, as RON writes it.
    pub value: String,
    /// What it means: the comment above it in the rules file, else its group's.
    pub meaning: String,
}

/// The tuning of `setup` as RON text, every field written out.
///
/// # Errors
/// A sentence when the tuning cannot be written (a bug).
pub fn tuning_text<G: Playable>(setup: &G::Setup) -> Result<String, String> {
    data::to_ron_pretty(&G::tuning(setup))
}

/// Every number and switch of `setup`'s tuning, with its meaning.
///
/// # Errors
/// A sentence when the tuning cannot be written (a bug).
pub fn fields<G: Playable>(setup: &G::Setup) -> Result<Vec<Field>, String> {
    let text = tuning_text::<G>(setup)?;
    let mut notes: BTreeMap<String, String> = BTreeMap::new();
    for (prefix, notes_text) in G::tuning_notes() {
        for (path, note) in doc::notes(notes_text) {
            let full = if prefix.is_empty() {
                path
            } else {
                format!("{prefix}.{path}")
            };
            notes.entry(full).or_insert(note);
        }
    }
    Ok(doc::leaves(&text)
        .into_iter()
        .filter(|leaf| leaf.kind != LeafKind::Text)
        .map(|leaf| {
            let meaning = ancestors(&leaf.path)
                .find_map(|p| notes.get(p).cloned())
                .unwrap_or_default();
            Field {
                group: match leaf.path.split_once(['.', '[']) {
                    Some((group, _)) => group.to_string(),
                    None => String::new(),
                },
                path: leaf.path,
                kind: leaf.kind,
                value: leaf.text,
                meaning,
            }
        })
        .collect())
}

/// `a.b[2].c`, then `a.b[2]`, `a.b`, `a`: a path and the paths above it.
fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    let mut cut = Some(path.len());
    std::iter::from_fn(move || {
        let end = cut?;
        let here = &path[..end];
        cut = here.rfind(['.', '[']).filter(|&i| i > 0);
        Some(here)
    })
}

/// `setup` with `changes` made to its tuning, validated as the files would be.
///
/// # Errors
/// Every problem, each naming the changed field: a path that is not there, a value of
/// the wrong kind, or a value the rules refuse.
pub fn apply<G: Playable>(
    setup: &G::Setup,
    changes: &BTreeMap<String, String>,
) -> Result<G::Setup, Vec<String>> {
    if changes.is_empty() {
        return Ok(setup.clone());
    }
    let text = tuning_text::<G>(setup).map_err(|e| vec![e])?;
    // Changes that cannot be made are reported, and the others still checked by the
    // rules, so that one look lists every problem.
    let mut problems = Vec::new();
    let patched = match doc::patch(&text, changes) {
        Ok(p) => p,
        Err(bad) => {
            let rest: BTreeMap<String, String> = changes
                .iter()
                .filter(|(path, _)| !bad.iter().any(|(b, _)| b == *path))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            problems.extend(bad.into_iter().map(|(path, why)| format!("{path}: {why}")));
            doc::patch(&text, &rest).map_err(|_| problems.clone())?
        }
    };
    let (tuning, _map): (G::Tuning, _) = match data::load_ron("variant", &patched) {
        Ok(t) => t,
        Err(d) => {
            problems.extend(d.0.into_iter().map(|d| d.message));
            return Err(problems);
        }
    };
    match G::retune(setup, tuning) {
        Ok(tuned) if problems.is_empty() => Ok(tuned),
        Ok(_) => Err(problems),
        Err(found) => {
            problems.extend(found.0.into_iter().map(|(path, why)| {
                if path.is_empty() {
                    why
                } else {
                    format!("{path}: {why}")
                }
            }));
            Err(problems)
        }
    }
}

/// The settings a switch (a word field) may take, found by offering the rules a word
/// they do not know and reading the list they answer with. Empty when they name none.
#[must_use]
pub fn settings<G: Playable>(setup: &G::Setup, path: &str) -> Vec<String> {
    let changes = BTreeMap::from([(path.to_string(), "NoSuchSetting".to_string())]);
    let Err(problems) = apply::<G>(setup, &changes) else {
        return Vec::new();
    };
    let text = problems.join(" ");
    let Some((_, expected)) = text.rsplit_once("expected") else {
        return Vec::new();
    };
    expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The whole numbers around a field's base value that the rules accept: walking down and
/// up from it until a value is refused, at most `reach` steps each way. `None` for a field
/// that is not a whole number.
#[must_use]
pub fn accepted_range<G: Playable>(
    setup: &G::Setup,
    field: &Field,
    reach: i64,
) -> Option<(i64, i64)> {
    if field.kind != LeafKind::Int {
        return None;
    }
    let base: i64 = field.value.parse().ok()?;
    let ok = |v: i64| {
        let changes = BTreeMap::from([(field.path.clone(), v.to_string())]);
        apply::<G>(setup, &changes).is_ok()
    };
    let mut lo = base;
    while lo > base - reach && ok(lo - 1) {
        lo -= 1;
    }
    let mut hi = base;
    while hi < base + reach && ok(hi + 1) {
        hi += 1;
    }
    Some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tank_commander::{Battle, TankCommander};

    #[test]
    fn ancestors_walk_up_the_path() {
        let all: Vec<&str> = ancestors("a.b[2].c").collect();
        assert_eq!(all, ["a.b[2].c", "a.b[2]", "a.b", "a"]);
    }

    #[test]
    fn tank_commander_fields_have_meanings() {
        let battle = Battle::builtin_default();
        let fields = fields::<TankCommander>(&battle).unwrap();
        let forest = fields
            .iter()
            .find(|f| f.path == "firing.forest_penalty")
            .unwrap();
        assert_eq!(forest.value, "1");
        assert_eq!(forest.group, "firing");
        let arc = fields
            .iter()
            .find(|f| f.path == "firing.arc_boundary")
            .unwrap();
        assert!(arc.meaning.contains("stronger armor"), "{}", arc.meaning);
        assert!(fields.len() > 80, "{}", fields.len());
    }

    #[test]
    fn switch_settings_are_read_from_the_rules() {
        let battle = Battle::builtin_default();
        let got = settings::<TankCommander>(&battle, "crew.lieutenant");
        assert!(
            got.contains(&"FirstDeath".to_string()) && got.contains(&"Choice".to_string()),
            "{got:?}"
        );
    }

    #[test]
    fn a_refused_value_names_its_field() {
        let battle = Battle::builtin_default();
        let changes = BTreeMap::from([("tank.accuracy".to_string(), "0".to_string())]);
        let problems = apply::<TankCommander>(&battle, &changes).unwrap_err();
        assert!(
            problems.iter().any(|p| p.starts_with("tank.accuracy")),
            "{problems:?}"
        );
        let f = Field {
            path: "tank.accuracy".into(),
            group: "tank".into(),
            kind: LeafKind::Int,
            value: "4".into(),
            meaning: String::new(),
        };
        let (lo, hi) = accepted_range::<TankCommander>(&battle, &f, 10).unwrap();
        assert!(
            (1..=2).contains(&lo) && (6..=14).contains(&hi),
            "{lo}..{hi}"
        );
    }
}
