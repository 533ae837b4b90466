//! `tanktable list` (every setup the binary knows, by name) and `tanktable desktop` (the
//! applications-menu entry and icon on Linux).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::data::shipped;
use crate::rules::catalogue::{self, Origin};
use crate::rules::{FileKind, GameKind};

/// Prints every setup, campaign and lab variant by game and kind, with its name, its own
/// title and where it comes from; `all` adds the hidden ones and every path.
pub(super) fn list(all: bool) -> Result<ExitCode, String> {
    let listed = catalogue::gather();
    match shipped::project_root() {
        Some(root) => say!("Project folder: {}", root.display()),
        None => say!("No project folder here: the built-in setups are used."),
    }
    say!(
        "Your own scenarios: {}",
        crate::data::data_dir().join("scenarios").display()
    );
    let width = listed
        .iter()
        .map(|l| l.key.chars().count())
        .max()
        .unwrap_or(0);
    let title_width = listed
        .iter()
        .map(|l| l.title.chars().count())
        .max()
        .unwrap_or(0);
    for game in GameKind::ALL {
        for kind in [FileKind::Setup, FileKind::Campaign, FileKind::Variant] {
            let rows: Vec<_> = listed
                .iter()
                .filter(|l| l.game == game && l.kind == kind && (all || !l.hidden))
                .collect();
            if rows.is_empty() {
                continue;
            }
            let heading = match kind {
                FileKind::Setup => "setups",
                FileKind::Campaign => "campaigns",
                _ => "lab variants",
            };
            say!("");
            say!("{} {heading} ({})", game.title(), rows.len());
            for l in rows {
                let mut origin = l.origin.to_string();
                if l.hidden {
                    origin.push_str(", hidden by the one above");
                } else if l.origin != Origin::BuiltIn
                    && listed
                        .iter()
                        .any(|o| o.key == l.key && o.origin == Origin::BuiltIn)
                {
                    origin.push_str(", also built in");
                }
                let path = if all {
                    format!("  {}", l.path.display())
                } else {
                    String::new()
                };
                say!(
                    "  {:width$}  {:title_width$}  {origin}{path}",
                    l.key,
                    l.title
                );
            }
        }
    }
    say!("");
    say!("Give a name instead of a file: `tanktable play skirmish`, `tanktable sim river-town`.");
    Ok(ExitCode::SUCCESS)
}

/// Where the desktop entry and the icon go: `$XDG_DATA_HOME` (`~/.local/share`).
fn desktop_places() -> Result<(PathBuf, PathBuf), String> {
    let base = directories::BaseDirs::new()
        .ok_or("cannot tell the home folder, so not where desktop entries go")?;
    let data = base.data_dir();
    Ok((
        data.join("applications/tanktable.desktop"),
        data.join("icons/hicolor/scalable/apps/tanktable.svg"),
    ))
}

/// Installs (or with `remove`, takes out) the applications-menu entry and its icon.
pub(super) fn desktop(remove: bool) -> Result<ExitCode, String> {
    let (entry, icon) = desktop_places()?;
    if remove {
        for path in [&entry, &icon] {
            match std::fs::remove_file(path) {
                Ok(()) => say!("Removed {}.", path.display()),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(format!("cannot remove {}: {e}", path.display())),
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let exe = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| format!("cannot tell where this binary is: {e}"))?;
    let text = desktop_entry(&exe)?;
    let svg = shipped::file("assets/icon/tanktable.svg")
        .and_then(|b| std::str::from_utf8(b).ok())
        .ok_or("no icon was built in")?;
    for (path, contents) in [(&entry, text.as_str()), (&icon, svg)] {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot make {}: {e}", parent.display()))?;
        }
        crate::data::write_atomic(path, contents)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        say!("Wrote {}.", path.display());
    }
    say!(
        "Tanktable is in the applications menu (Games), starting {}.",
        exe.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The shipped desktop entry with `Exec` set to this binary.
fn desktop_entry(exe: &Path) -> Result<String, String> {
    let template = shipped::file("assets/desktop/tanktable.desktop")
        .and_then(|b| std::str::from_utf8(b).ok())
        .ok_or("no desktop entry was built in")?;
    // The desktop entry spec quotes arguments with spaces in double quotes.
    let exec = exe.display().to_string();
    let exec = if exec.contains([' ', '"', '\\']) {
        format!("\"{}\"", exec.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        exec
    };
    Ok(template
        .lines()
        .map(|line| {
            if line.starts_with("Exec=") {
                format!("Exec={exec}")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_desktop_entry_starts_this_binary_and_names_the_icon() {
        let text = desktop_entry(Path::new("/opt/tank table/tanktable")).unwrap();
        assert!(
            text.contains("\nExec=\"/opt/tank table/tanktable\"\n"),
            "{text}"
        );
        assert!(text.contains("\nIcon=tanktable\n"), "{text}");
        assert!(text.starts_with("[Desktop Entry]\n"), "{text}");
        let svg = std::str::from_utf8(shipped::file("assets/icon/tanktable.svg").unwrap()).unwrap();
        assert!(svg.contains("<svg") && svg.contains("viewBox"), "{svg}");
    }
}
