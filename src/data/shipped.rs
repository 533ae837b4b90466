//! Where the project's files are found: the project folder when the binary runs from it,
//! else the copy that ships inside the binary.
//!
//! Every file of `scenarios/` and `assets/` is compiled in (`build.rs`). The first time a
//! binary that runs away from its project needs one, it writes the whole set once into
//! the data folder (`shipped/<hash of the set>/`) and reads it there like a project, so
//! the loaders, the file watcher, records that name `scenarios/…` and the editor work the
//! same on both. The copy is checked against the compiled-in files at each start: a file
//! changed there is put back (the editor saves changes to shipped setups as the player's
//! own, in the data folder's `scenarios/`).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Every shipped file: its path relative to the project (with `/`), and its bytes.
pub static FILES: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

/// The version and the commit the binary was built from (`0.1.0 (a1b2c3d4e5)`).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("TANKTABLE_COMMIT"),
    ")"
);

/// A shipped file's bytes by its path relative to the project (`scenarios/skirmish.ron`).
#[must_use]
pub fn file(relative: &str) -> Option<&'static [u8]> {
    FILES
        .iter()
        .find(|(path, _)| *path == relative)
        .map(|&(_, bytes)| bytes)
}

/// The project folder the binary runs from: the nearest folder, from the working
/// directory up, that holds both `scenarios/` and `assets/rules/`.
#[must_use]
pub fn project_root() -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    cwd.ancestors()
        .find(|dir| dir.join("scenarios").is_dir() && dir.join("assets/rules").is_dir())
        .map(Path::to_path_buf)
}

/// The copy of the shipped files, once this process has written or checked it.
static ROOT: OnceLock<Option<PathBuf>> = OnceLock::new();

/// The folders the copy is written in: the data folder's `shipped/`, else the temporary
/// folder's.
fn places() -> [PathBuf; 2] {
    [
        super::data_dir().join("shipped"),
        std::env::temp_dir().join("tanktable-shipped"),
    ]
}

/// The folder that holds the shipped files as a project would, written on first use.
/// `None` when no folder could be written (the data folder and the temporary folder
/// both refused).
#[must_use]
pub fn shipped_root() -> Option<PathBuf> {
    ROOT.get_or_init(|| {
        let name = format!("{:016x}", fingerprint());
        places()
            .into_iter()
            .find_map(|place| unpack(&place, &name).ok())
    })
    .clone()
}

/// [`shipped_root`] if this process has already used the copy: a binary that runs from
/// its project never writes one.
#[must_use]
pub fn shipped_root_if_used() -> Option<PathBuf> {
    ROOT.get().cloned().flatten()
}

/// Whether `path` lies in a copy of the shipped files, of this build or another (not the
/// player's to change: it is put back at the next start).
#[must_use]
pub fn is_shipped_copy(path: &Path) -> bool {
    let Ok(full) = path.canonicalize() else {
        return false;
    };
    places()
        .iter()
        .filter_map(|place| place.canonicalize().ok())
        .any(|place| full.starts_with(place))
}

/// Whether `path` is a file that ships: in the project folder's `scenarios/`, or in the
/// copy of the built-in files.
#[must_use]
pub fn is_shipped(path: &Path) -> bool {
    is_shipped_copy(path)
        || project_root()
            .and_then(|root| root.join("scenarios").canonicalize().ok())
            .zip(path.canonicalize().ok())
            .is_some_and(|(scenarios, full)| full.starts_with(scenarios))
}

/// FNV-1a over every path and its bytes: the name of this set's folder.
fn fingerprint() -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (path, bytes) in FILES {
        for b in path
            .bytes()
            .chain([0])
            .chain(bytes.iter().copied())
            .chain([0])
        {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// Makes `place/name` hold exactly the shipped files: written into a fresh folder and
/// renamed into place the first time (two processes starting at once both succeed);
/// any file changed or removed since is put back.
fn unpack(place: &Path, name: &str) -> std::io::Result<PathBuf> {
    let dir = place.join(name);
    if !dir.is_dir() {
        let fresh = place.join(format!(".{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&fresh);
        write_all(&fresh, false)?;
        if let Err(e) = std::fs::rename(&fresh, &dir) {
            let _ = std::fs::remove_dir_all(&fresh);
            if !dir.is_dir() {
                return Err(e);
            }
        }
    }
    write_all(&dir, true)?;
    Ok(dir)
}

/// Writes every shipped file under `dir`; with `repair`, only those missing or changed.
fn write_all(dir: &Path, repair: bool) -> std::io::Result<()> {
    for (relative, bytes) in FILES {
        let path = dir.join(relative);
        if repair && std::fs::read(&path).is_ok_and(|now| now == *bytes) {
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, bytes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_the_shipped_folders_is_compiled_in() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for folder in ["scenarios", "assets"] {
            let mut stack = vec![root.join(folder)];
            while let Some(dir) = stack.pop() {
                for entry in std::fs::read_dir(&dir).unwrap() {
                    let path = entry.unwrap().path();
                    if path.is_dir() {
                        stack.push(path);
                        continue;
                    }
                    let relative = path.strip_prefix(root).unwrap().to_str().unwrap();
                    assert_eq!(
                        file(relative),
                        Some(std::fs::read(&path).unwrap().as_slice()),
                        "{relative}"
                    );
                }
            }
        }
        assert!(file("scenarios/skirmish.ron").is_some());
        assert!(file("assets/rules/tank-commander.ron").is_some());
    }

    #[test]
    fn the_shipped_copy_is_written_whole_and_put_back_when_changed() {
        let place = std::env::temp_dir().join(format!("tanktable-unpack-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&place);
        let dir = unpack(&place, "set").unwrap();
        for (relative, bytes) in FILES {
            assert_eq!(std::fs::read(dir.join(relative)).unwrap(), *bytes);
        }
        let skirmish = dir.join("scenarios/skirmish.ron");
        std::fs::write(&skirmish, "changed").unwrap();
        std::fs::remove_file(dir.join("assets/rules/tank-chess.ron")).unwrap();
        // A second start finds the folder and repairs it.
        assert_eq!(unpack(&place, "set").unwrap(), dir);
        assert_eq!(
            std::fs::read(&skirmish).unwrap(),
            file("scenarios/skirmish.ron").unwrap()
        );
        assert!(dir.join("assets/rules/tank-chess.ron").is_file());
        // Nothing half-written is left beside it.
        assert_eq!(std::fs::read_dir(&place).unwrap().count(), 1);
        std::fs::remove_dir_all(&place).unwrap();
    }
}
