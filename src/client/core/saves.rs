//! Files the player keeps: where each screen saves them in the data folder, and how a
//! folder's files of one game and kind are listed.

use std::path::PathBuf;

use crate::rules::GameKind;

/// The RON files in `dir` that hold a `kind` file of `game` (a folder may hold other
/// games' files too), sorted.
#[must_use]
pub fn files_of(
    dir: &std::path::Path,
    game: GameKind,
    kind: crate::rules::FileKind,
) -> Vec<PathBuf> {
    ron_files(dir)
        .into_iter()
        .filter(|path| {
            std::fs::read_to_string(path).is_ok_and(|t| {
                crate::rules::detect(path, &t).is_ok_and(|d| d.game == game && d.kind == kind)
            })
        })
        .collect()
}

/// Every `.ron` file in `dir`, sorted by name.
#[must_use]
pub fn ron_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// Lab variant files of `game`: the project's (or the built-in) `scenarios/lab/`, and
/// `saved`, where the lab saves them (the data folder's `lab/`).
pub(crate) fn variant_files(game: GameKind, saved: &std::path::Path) -> Vec<PathBuf> {
    [
        crate::data::find_project_file("scenarios/lab"),
        Some(saved.to_path_buf()),
    ]
    .into_iter()
    .flatten()
    .flat_map(|dir| files_of(&dir, game, crate::rules::FileKind::Variant))
    .collect()
}

/// Where the Lab saves variants and exports: the data folder's `lab/`.
#[must_use]
pub fn lab_dir() -> PathBuf {
    super::session::data_dir().join("lab")
}

/// Where designs are saved: `builds/` in the user's data folder.
#[must_use]
pub fn builds_dir() -> PathBuf {
    super::session::data_dir().join("builds")
}
