//! Reading RON data files into validated types, with every problem reported as
//! `file:line:col: what is wrong`.
//!
//! Files are read in two passes. Serde reads the text into a `*Setup` type, noting every
//! field it does not know; then the game validates the setup, naming each problem by its
//! path in the file (`units[2].at`). [`SourceMap`] turns those paths into line and column.
//!
//! ```
//! use tanktable::data::{load_ron, Diagnostics};
//! #[derive(serde::Deserialize, Debug)]
//! struct Size { width: u16, height: u16 }
//! let err = load_ron::<Size>("size.ron", "(width: 3, height: 4, depth: 5)").unwrap_err();
//! assert_eq!(err.to_string(), "size.ron:1:23: unknown field `depth`");
//! ```

pub mod shipped;
mod source_map;

use std::fmt;
use std::path::Path;

use serde::de::DeserializeOwned;

pub use source_map::{MAX_DEPTH, SourceMap};

/// One problem at one place in a file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct Diagnostic {
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

/// Every problem found in one or more files.
#[derive(Clone, Debug, PartialEq, Eq, Default, thiserror::Error)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl Diagnostics {
    /// A single problem that has no place in a file (an unreadable file, say).
    #[must_use]
    pub fn whole_file(file: &str, message: impl Into<String>) -> Self {
        Self(vec![Diagnostic {
            file: file.to_string(),
            line: 1,
            col: 1,
            message: message.into(),
        }])
    }
}

/// Problems found while validating a setup, each named by its path in the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problems(pub Vec<(String, String)>);

impl Problems {
    /// Notes a problem at `path` (`units[2].at`; empty for the whole file).
    pub fn push(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.0.push((path.into(), message.into()));
    }

    /// Notes a problem at `path` when `value` lies outside `range`: "`what` is 1 to 6,
    /// not 9". Every number of a rules table or setup has its range checked this way.
    pub fn range<T: PartialOrd + std::fmt::Display>(
        &mut self,
        path: impl Into<String>,
        value: T,
        range: std::ops::RangeInclusive<T>,
        what: &str,
    ) {
        if !range.contains(&value) {
            self.push(
                path,
                format!(
                    "{what} is {} to {}, not {value}",
                    range.start(),
                    range.end()
                ),
            );
        }
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Adds every problem of `other`.
    pub fn extend(&mut self, other: Problems) {
        self.0.extend(other.0);
    }

    /// The same problems, their paths taken as under `prefix` (a setup inside a record is
    /// under `scenario`).
    #[must_use]
    pub fn within(self, prefix: &str) -> Self {
        Self(
            self.0
                .into_iter()
                .map(
                    |(path, message)| match (prefix.is_empty(), path.is_empty()) {
                        (true, _) => (path, message),
                        (false, true) => (prefix.to_string(), message),
                        (false, false) if path.starts_with('[') => {
                            (format!("{prefix}{path}"), message)
                        }
                        (false, false) => (format!("{prefix}.{path}"), message),
                    },
                )
                .collect(),
        )
    }

    /// A setup's problems as its tuning's, for a game whose tuning is the setup's `rules`
    /// section: `rules.tanks` is the tuning's `tanks`; a problem outside the `rules`
    /// section keeps its path, after `setup `.
    #[must_use]
    pub fn outside_rules(self) -> Self {
        Self(
            self.0
                .into_iter()
                .map(|(path, why)| match path.strip_prefix("rules") {
                    Some(rest) => (rest.trim_start_matches('.').to_string(), why),
                    None => (format!("setup {path}"), why),
                })
                .collect(),
        )
    }

    /// Places every problem in `file` with `map`, in file order.
    #[must_use]
    pub fn locate(self, file: &str, map: &SourceMap) -> Diagnostics {
        let mut list: Vec<Diagnostic> = self
            .0
            .into_iter()
            .map(|(path, message)| {
                let (line, col) = map.locate(&path);
                Diagnostic {
                    file: file.to_string(),
                    line,
                    col,
                    message,
                }
            })
            .collect();
        list.sort_by_key(|d| (d.line, d.col));
        Diagnostics(list)
    }
}

/// Reads RON text into `T`, refusing unknown fields, all of which are listed.
///
/// # Errors
/// [`Diagnostics`] with the syntax or type error, or every unknown field.
pub fn load_ron<T: DeserializeOwned>(
    file: &str,
    text: &str,
) -> Result<(T, SourceMap), Diagnostics> {
    let (value, map, unknown) = load_ron_collecting(file, text)?;
    if unknown.is_empty() {
        Ok((value, map))
    } else {
        Err(unknown.locate(file, &map))
    }
}

/// Reads RON text into the unchecked `S`, then validates it into `V` with `validate`:
/// unknown fields and the validator's problems are reported together, each placed in
/// the file.
///
/// # Errors
/// Every problem, as `file:line:col: what is wrong`.
pub fn parse_validated<S: DeserializeOwned, V>(
    file: &str,
    text: &str,
    validate: impl FnOnce(S) -> Result<V, Problems>,
) -> Result<V, Diagnostics> {
    let (setup, map, mut problems): (S, SourceMap, _) = load_ron_collecting(file, text)?;
    match validate(setup) {
        Ok(valid) if problems.is_empty() => Ok(valid),
        Ok(_) => Err(problems.locate(file, &map)),
        Err(more) => {
            problems.extend(more);
            Err(problems.locate(file, &map))
        }
    }
}

/// Reads RON text into `T`, returning the unknown fields as problems beside the value, so
/// that a validator can report them together with its own findings.
///
/// # Errors
/// [`Diagnostics`] with the syntax or type error (only the first can be known).
pub fn load_ron_collecting<T: DeserializeOwned>(
    file: &str,
    text: &str,
) -> Result<(T, SourceMap, Problems), Diagnostics> {
    let map = scan(file, text)?;
    let spanned = |e: ron::error::SpannedError| {
        Diagnostics(vec![Diagnostic {
            file: file.to_string(),
            line: e.span.start.line,
            col: e.span.start.col,
            message: describe_ron_error(&e.code),
        }])
    };
    let mut de = ron::Deserializer::from_str_with_options(text, &ron_options()).map_err(spanned)?;
    let mut unknown = Vec::new();
    let value: T = serde_ignored::deserialize(&mut de, |path| unknown.push(path_string(&path)))
        .map_err(|e| spanned(de.span_error(e)))?;
    de.end().map_err(|e| spanned(de.span_error(e)))?;
    let mut problems = Problems::default();
    for path in unknown {
        let field = path.rsplit('.').next().unwrap_or(&path).to_string();
        problems.push(path, format!("unknown field `{field}`"));
    }
    Ok((value, map, problems))
}

/// Checks a list of names as players will use them: each names something (`what`: "a
/// unit"), holds no control character (a terminal escape would be echoed raw), and no two
/// differ only in case (the command line picks names case-insensitively).
pub fn check_names<'a>(
    p: &mut Problems,
    (what, plural): (&str, &str),
    names: impl IntoIterator<Item = (String, &'a str)>,
) {
    let mut seen: Vec<&str> = Vec::new();
    for (path, name) in names {
        if name.trim().is_empty() {
            p.push(path, format!("{what} needs a name"));
        } else if name.chars().any(char::is_control) {
            p.push(
                path,
                format!(
                    "the name {name:?} holds a control character (a tab, a line break or a terminal escape)"
                ),
            );
        } else if let Some(other) = seen
            .iter()
            .find(|o| o.to_lowercase() == name.to_lowercase())
        {
            p.push(
                path,
                if *other == name {
                    format!("two {plural} are called `{name}`")
                } else {
                    format!(
                        "two {plural} are called `{other}` and `{name}`: names are picked regardless of case, so they must differ in more than case"
                    )
                },
            );
        }
        seen.push(name);
    }
}

/// Maps where each value of `text` is, refusing text that nests deeper than
/// [`MAX_DEPTH`] before any reader recurses into it.
fn scan(file: &str, text: &str) -> Result<SourceMap, Diagnostics> {
    let map = SourceMap::new(text);
    match map.too_deep() {
        Some((line, col)) => Err(Diagnostics(vec![Diagnostic {
            file: file.to_string(),
            line,
            col,
            message: format!(
                "brackets nest more than {MAX_DEPTH} levels deep here; no data file nests that deep"
            ),
        }])),
        None => Ok(map),
    }
}

/// Reads RON text into `T`, ignoring fields `T` does not name (to peek at a header).
///
/// # Errors
/// [`Diagnostics`] with the syntax or type error.
pub fn load_ron_lenient<T: DeserializeOwned>(
    file: &str,
    text: &str,
) -> Result<(T, SourceMap), Diagnostics> {
    let map = scan(file, text)?;
    ron_options().from_str(text).map(|v| (v, map)).map_err(|e| {
        Diagnostics(vec![Diagnostic {
            file: file.to_string(),
            line: e.span.start.line,
            col: e.span.start.col,
            message: describe_ron_error(&e.code),
        }])
    })
}

/// Reads a file and then [`load_ron`].
///
/// # Errors
/// [`Diagnostics`] when the file cannot be read or is not valid.
pub fn load_ron_file<T: DeserializeOwned>(
    path: &Path,
) -> Result<(T, SourceMap, String), Diagnostics> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Diagnostics::whole_file(&name, format!("cannot read the file: {e}")))?;
    let (value, map) = load_ron(&name, &text)?;
    Ok((value, map, text))
}

/// Looks for a project file: relative to the working directory, then in the project
/// folder the binary runs from ([`shipped::project_root`]), then in the copy of the
/// files that ship inside the binary ([`shipped::shipped_root`]). Files on disk win.
#[must_use]
pub fn find_project_file(relative: &str) -> Option<std::path::PathBuf> {
    let here = std::path::PathBuf::from(relative);
    if here.exists() {
        return Some(here);
    }
    // The copy is written only when the project does not have the file.
    shipped::project_root()
        .into_iter()
        .chain(std::iter::once_with(shipped::shipped_root).flatten())
        .map(|root| root.join(relative))
        .find(|p| p.exists())
}

/// A path as a record should name it: relative to the project when the file lies inside
/// it or in the copy of the shipped files (the record then replays wherever the binary
/// runs, by the shipped file's name), else absolute.
#[must_use]
pub fn portable_path(path: &Path) -> String {
    let Ok(full) = path.canonicalize() else {
        return path.display().to_string();
    };
    let roots = shipped::project_root()
        .into_iter()
        .chain(shipped::shipped_root_if_used());
    for root in roots {
        if let Ok(root) = root.canonicalize()
            && let Ok(rel) = full.strip_prefix(&root)
        {
            return rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
        }
    }
    full.display().to_string()
}

/// Loads a rules table: `path` if given, else the project's file at `relative` if
/// present, else the compiled-in copy from `builtin`.
///
/// # Errors
/// The file cannot be read, or every problem `parse` finds in it.
pub fn load_table<T>(
    path: Option<&Path>,
    relative: &str,
    builtin: impl FnOnce() -> T,
    parse: impl FnOnce(&str, &str) -> Result<T, Diagnostics>,
) -> Result<T, Diagnostics> {
    let Some(p) = path
        .map(Path::to_path_buf)
        .or_else(|| find_project_file(relative))
    else {
        return Ok(builtin());
    };
    let name = p.display().to_string();
    let text = std::fs::read_to_string(&p)
        .map_err(|e| Diagnostics::whole_file(&name, format!("cannot read the file: {e}")))?;
    parse(&name, &text)
}

/// The RON options every data file is read with.
#[must_use]
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Writes `value` as pretty RON.
///
/// # Errors
/// A sentence when the value cannot be written as RON.
pub fn to_ron_pretty<T: serde::Serialize>(value: &T) -> Result<String, String> {
    ron_options()
        .to_string_pretty(value, ron::ser::PrettyConfig::default().struct_names(true))
        .map_err(|e| e.to_string())
}

/// The user's data folder: saves, autosaves and campaigns. `$TANKTABLE_DATA` when set
/// (tests), else the platform's (`~/.local/share/tanktable` on Linux).
#[must_use]
pub fn data_dir() -> std::path::PathBuf {
    if let Some(dir) = std::env::var_os("TANKTABLE_DATA") {
        return std::path::PathBuf::from(dir);
    }
    directories::ProjectDirs::from("", "", "tanktable").map_or_else(
        || std::path::PathBuf::from(".tanktable"),
        |d| d.data_dir().to_path_buf(),
    )
}

/// Whether [`write_atomic`] may write at `path`: nothing there yet, or a regular file
/// (never a directory, a device or a pipe). Commands ask before long work, so that a bad
/// output path is refused before the work, not after.
///
/// # Errors
/// What stands at `path` instead.
pub fn writable_target(path: &Path) -> std::io::Result<()> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a directory, a device or a pipe): give the name of a file to write",
        )),
        _ => Ok(()),
    }
}

/// Writes `contents` to `path` atomically: a temporary file beside it, then a rename, so
/// a crash never leaves half a file.
///
/// # Errors
/// The I/O error; `path` is a directory, a device or anything else but a file.
pub fn write_atomic(path: &Path, contents: &str) -> std::io::Result<()> {
    use std::io::Write;
    // A link is followed to the file it names, so that the link stays a link.
    let followed;
    let path = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            followed = std::fs::canonicalize(path).map_err(|_| {
                std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "a link to a file that does not exist: give the name of a file to write",
                )
            })?;
            followed.as_path()
        }
        _ => path,
    };
    // The rename would replace whatever stands at `path`: never a directory, a device or
    // a pipe.
    writable_target(path)?;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!(".{file_name}.tmp-");
    remove_leftovers(dir, &prefix);
    let tmp = dir.join(format!("{prefix}{}", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(contents.as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })?;
    // The rename is durable only once the folder's entry is on disk too.
    #[cfg(unix)]
    if let Ok(folder) = std::fs::File::open(dir) {
        let _ = folder.sync_all();
    }
    Ok(())
}

/// Removes temporary files that an interrupted write of the same file left beside it.
/// Another process's write in progress is spared: only files older than a minute go.
fn remove_leftovers(dir: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
    for entry in entries.flatten() {
        let stale = entry
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .and_then(|m| m.modified().ok())
            .is_some_and(|t| t < old);
        if stale && entry.file_name().to_string_lossy().starts_with(prefix) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn path_string(path: &serde_ignored::Path<'_>) -> String {
    use serde_ignored::Path as P;
    match path {
        P::Root => String::new(),
        P::Seq { parent, index } => format!("{}[{index}]", path_string(parent)),
        P::Map { parent, key } => {
            let p = path_string(parent);
            if p.is_empty() {
                key.clone()
            } else {
                format!("{p}.{key}")
            }
        }
        P::Some { parent } | P::NewtypeStruct { parent } | P::NewtypeVariant { parent } => {
            path_string(parent)
        }
    }
}

fn describe_ron_error(code: &ron::Error) -> String {
    let text = code.to_string();
    // RON's messages are good; make the first letter lowercase to fit `file:line:col: …`.
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rename must never replace a directory or a device with a file.
    #[test]
    fn write_atomic_refuses_what_is_not_a_file() {
        let dir = std::env::temp_dir().join(format!("tt-write-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let err = write_atomic(&dir, "x").unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
        assert!(dir.is_dir());
        #[cfg(unix)]
        {
            let null = Path::new("/dev/null");
            assert!(write_atomic(null, "x").is_err());
            assert!(
                !std::fs::metadata(null).unwrap().is_file(),
                "/dev/null stays a device"
            );
        }
        let file = dir.join("a.txt");
        write_atomic(&file, "one").unwrap();
        write_atomic(&file, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "two");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A link is followed: the file it names gets the new text, and the link stays.
    #[cfg(unix)]
    #[test]
    fn write_atomic_follows_links_and_refuses_pipes() {
        let dir = std::env::temp_dir().join(format!("tt-write-link-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let real = dir.join("real.ron");
        std::fs::write(&real, "old").unwrap();
        let link = dir.join("link.ron");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomic(&link, "new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        let dangling = dir.join("dangling.ron");
        std::os::unix::fs::symlink(dir.join("nothing"), &dangling).unwrap();
        let err = write_atomic(&dangling, "x").unwrap_err();
        assert!(err.to_string().contains("does not exist"), "{err}");
        let fifo = dir.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let err = write_atomic(&fifo, "x").unwrap_err();
            assert!(err.to_string().contains("not a regular file"), "{err}");
            assert!(
                !std::fs::metadata(&fifo).unwrap().is_file(),
                "the pipe stays"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A temporary file left by an interrupted write is cleaned up by the next write.
    #[test]
    fn write_atomic_removes_leftovers() {
        let dir = std::env::temp_dir().join(format!("tt-write-left-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let left = dir.join(".save.ron.tmp-99999999");
        std::fs::write(&left, "half a fi").unwrap();
        let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        std::fs::File::options()
            .write(true)
            .open(&left)
            .unwrap()
            .set_modified(hour_ago)
            .unwrap();
        write_atomic(&dir.join("save.ron"), "whole").unwrap();
        assert!(!left.exists(), "the leftover is gone");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Deep nesting is refused at its place, and reading takes memory in proportion to
    /// the text: 200 KB of brackets once made the source map allocate gigabytes.
    #[test]
    fn deep_nesting_is_refused_with_its_place() {
        let deep = format!("{}{}", "(".repeat(100_000), ")".repeat(100_000));
        let err = load_ron::<File>("deep.ron", &deep).unwrap_err();
        assert_eq!(err.0.len(), 1);
        let d = &err.0[0];
        assert_eq!((d.line, d.col), (1, MAX_DEPTH + 1), "{err}");
        assert!(d.message.contains("nest"), "{err}");
        let lists = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(load_ron_lenient::<ron::Value>("deep.ron", &lists).is_err());
        // Just within the limit, the map stays linear: one place per element.
        let within = format!("{}{}", "[".repeat(MAX_DEPTH - 1), "]".repeat(MAX_DEPTH - 1));
        let map = SourceMap::new(&within);
        assert!(map.too_deep().is_none());
        assert!(map.len() < MAX_DEPTH, "{} places", map.len());
        // Wide is fine: a hundred thousand elements, each found at its place.
        let wide = format!("[{}]", "(a: 1),".repeat(100_000));
        let map = SourceMap::new(&wide);
        assert!(map.len() <= 200_000, "{} places", map.len());
        assert_eq!(map.locate("[99999].a"), (1, 2 + 7 * 99_999 + 1));
    }

    /// Names that differ only in case, or hold a terminal escape, are refused.
    #[test]
    fn names_must_differ_in_more_than_case_and_hold_no_control_characters() {
        let mut p = Problems::default();
        let names = ["Ann", "ann", "Bob", "Bob", "\u{1b}[2Jwipe", "", "Cy"];
        check_names(
            &mut p,
            ("a unit", "units"),
            names
                .iter()
                .enumerate()
                .map(|(i, n)| (format!("units[{i}].name"), *n)),
        );
        let messages: Vec<String> = p.0.iter().map(|(path, m)| format!("{path}: {m}")).collect();
        assert_eq!(
            messages,
            [
                "units[1].name: two units are called `Ann` and `ann`: names are picked regardless of case, so they must differ in more than case",
                "units[3].name: two units are called `Bob`",
                "units[4].name: the name \"\\u{1b}[2Jwipe\" holds a control character (a tab, a line break or a terminal escape)",
                "units[5].name: a unit needs a name",
            ]
        );
    }

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code, reason = "fields are read by serde only")]
    struct Unit {
        name: String,
        at: String,
    }

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code, reason = "fields are read by serde only")]
    struct File {
        units: Vec<Unit>,
    }

    #[test]
    fn every_unknown_field_is_listed_with_its_place() {
        let text = "File(\n  units: [\n    (name: \"a\", at: \"A1\", colour: 1),\n    (name: \"b\", at: \"B2\", speed: 3),\n  ],\n)";
        let err = load_ron::<File>("f.ron", text).unwrap_err();
        let lines: Vec<String> = err.0.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            vec![
                "f.ron:3:27: unknown field `colour`".to_string(),
                "f.ron:4:27: unknown field `speed`".to_string(),
            ]
        );
    }

    #[test]
    fn syntax_errors_have_a_place() {
        let err = load_ron::<File>("f.ron", "File(units: [(name: \"a\" at: \"x\")])").unwrap_err();
        assert_eq!(err.0.len(), 1);
        assert_eq!(err.0[0].line, 1);
        assert!(err.0[0].col > 20, "{err}");
    }

    #[test]
    fn atomic_write_replaces_the_file() {
        let dir = std::env::temp_dir().join(format!("tanktable-atomic-{}", std::process::id()));
        let path = dir.join("x.ron");
        write_atomic(&path, "one").unwrap();
        write_atomic(&path, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Helpers for the range tests of every game's tables and setups.
#[cfg(test)]
pub(crate) mod testing {
    use super::Diagnostics;

    /// For each `(from, to, said)`: `text` with its first `from` replaced by `to` is
    /// refused by `parse` with a problem at `from`'s line of `file` whose message holds
    /// `said`.
    pub(crate) fn assert_refused_at<T: std::fmt::Debug>(
        file: &str,
        text: &str,
        parse: impl Fn(&str) -> Result<T, Diagnostics>,
        cases: &[(&str, &str, &str)],
    ) {
        assert!(parse(text).is_ok(), "{file} reads as it is");
        for (from, to, said) in cases {
            let at = text
                .find(from)
                .unwrap_or_else(|| panic!("`{from}` is not in {file}"));
            let line = text[..at].matches('\n').count() + 1;
            let edited = text.replacen(from, to, 1);
            let err = parse(&edited)
                .expect_err(&format!("{from} -> {to} is refused"))
                .to_string();
            assert!(
                err.lines()
                    .any(|l| l.starts_with(&format!("{file}:{line}:")) && l.contains(said)),
                "{from} -> {to}: expected `{said}` at {file}:{line}, got:\n{err}"
            );
        }
    }
}
