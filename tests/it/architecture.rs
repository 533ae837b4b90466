//! The layers, read from the sources: every `crate::` path a file names (in a `use`, or
//! written out in code) must point at its own layer or one below it. A path that runs up a
//! layer, from one game's client to another's, or from one screen to another, fails the
//! test with the file, the line and the rule it breaks. `docs/architecture.md` draws the
//! layers.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The library's layers, lowest first: a module may use its own layer and those below.
const LIBRARY: &[(&str, u8)] = &[
    ("data", 0),
    ("grid", 0),
    ("framework", 1),
    ("rules", 2),
    ("lab", 3),
    ("editor", 3),
    ("net", 3),
    ("client", 4),
    ("cli", 5),
];

/// The client's folders, lowest first. `client/mod.rs`, the app, stands above the
/// screens: it builds the app from every folder (and what it defines, no folder may use);
/// the development tools stand above the app, which they build to measure.
const CLIENT: &[(&str, u8)] = &[
    ("core", 0),
    ("table", 1),
    ("frame", 2),
    ("games", 3),
    ("screens", 4),
    ("dev_tools", 6),
];

/// The rank of `client/mod.rs`'s own items (`Launch`, `app`, and what it re-exports for
/// the command line and the tests).
const APP: u8 = 5;

/// Folders whose children must not use each other: each game's client stands alone, and
/// so does each screen.
const SIBLINGS_APART: &[&str] = &["games", "screens"];

/// One path a file names: where, and the module path it points at (`["client", "hud",
/// "label_box"]`).
#[derive(Debug)]
struct Reference {
    line: usize,
    path: Vec<String>,
}

/// The file's module path from `src/`: `src/client/games/tank_chess/board.rs` is
/// `["client", "games", "tank_chess", "board"]`, a `mod.rs` its folder's.
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if stem != "mod" && stem != "lib" && stem != "main" {
            parts.push(stem.to_string());
        }
    }
    parts
}

/// The source with comments, strings and character literals blanked (newlines kept, so
/// that lines still count).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && matches!(next, Some('"' | '#'))
            && !ident_char(chars.get(i.wrapping_sub(1)))
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            out.extend(std::iter::repeat_n(' ', j + 1 - i));
            i = j + 1;
            while i < chars.len() {
                if chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
                    out.extend(std::iter::repeat_n(' ', hashes + 1));
                    i += hashes + 1;
                    break;
                }
                out.push(blank(chars[i]));
                i += 1;
            }
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' && is_char_literal(&chars, i) {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                out.push(' ');
                i += 1;
            }
            out.push(' ');
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_char(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

/// `'x'` or `'\n'` (a character), not `'a` (a lifetime).
fn is_char_literal(chars: &[char], i: usize) -> bool {
    matches!(
        (chars.get(i + 1), chars.get(i + 2)),
        (Some('\\'), _) | (Some(_), Some('\''))
    )
}

/// Every `crate::`, `super::` and `self::` path in `code` (comments and strings blanked),
/// with `use` trees expanded, resolved against `module` (the file's module path).
fn references(code: &str, module: &[String]) -> Vec<Reference> {
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let starts_word = i == 0
            || !(bytes[i - 1].is_ascii_alphanumeric()
                || bytes[i - 1] == b'_'
                || bytes[i - 1] == b':');
        if starts_word && code[i..].starts_with("use ") {
            let end = code[i..].find(';').map_or(code.len(), |e| i + e);
            let tree: String = code[i + 4..end]
                .split_whitespace()
                .map(|word| if word == "as" { " as " } else { word })
                .collect();
            for path in expand_tree(&tree) {
                if let Some(path) = resolve(&path, module) {
                    found.push(Reference {
                        line: line_of(i),
                        path,
                    });
                }
            }
            i = end;
            continue;
        }
        if starts_word {
            for root in ["crate::", "super::", "self::"] {
                if code[i..].starts_with(root) {
                    let len = code[i..]
                        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                        .unwrap_or(code.len() - i);
                    let path: Vec<String> = code[i..i + len]
                        .split("::")
                        .filter(|s| !s.is_empty())
                        .map(str::to_string)
                        .collect();
                    if let Some(path) = resolve(&path, module) {
                        found.push(Reference {
                            line: line_of(i),
                            path,
                        });
                    }
                    i += len;
                    break;
                }
            }
        }
        i += 1;
    }
    found
}

/// `a::{b, c::{d, e}}` as `[a, b]`, `[a, c, d]`, `[a, c, e]` (spaces already removed).
fn expand_tree(tree: &str) -> Vec<Vec<String>> {
    let tree = tree.trim_start_matches("::");
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or(tree);
        return vec![
            path.split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
        ];
    };
    let prefix: Vec<String> = tree[..open]
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut depth = 0;
    let mut start = 0;
    let mut items = Vec::new();
    for (k, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    items
        .into_iter()
        .filter(|item| !item.is_empty())
        .flat_map(expand_tree)
        .map(|rest| prefix.iter().cloned().chain(rest).collect())
        .collect()
}

/// A path from the crate's root, or `None` for one that leaves the crate (`std::…`,
/// `bevy::…`).
fn resolve(path: &[String], module: &[String]) -> Option<Vec<String>> {
    let first = path.first()?;
    match first.as_str() {
        "crate" => Some(path[1..].to_vec()),
        "self" | "super" => {
            // A `mod.rs` is its folder's module (see `module_of`); another file is a
            // module of its own inside the folder.
            let mut base = module.to_vec();
            let mut rest = path;
            if rest.first().is_some_and(|s| s == "self") {
                rest = &rest[1..];
            }
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
            base.extend(rest.iter().cloned());
            Some(base)
        }
        _ => None,
    }
}

/// The rule `reference` from a file of module `from` breaks, if any.
fn broken_rule(from: &[String], to: &[String]) -> Option<String> {
    let rank =
        |table: &[(&str, u8)], name: &str| table.iter().find(|(n, _)| *n == name).map(|(_, r)| *r);
    let (Some(top_from), Some(top_to)) = (from.first(), to.first()) else {
        return None;
    };
    if let (Some(a), Some(b)) = (rank(LIBRARY, top_from), rank(LIBRARY, top_to))
        && b > a
    {
        return Some(format!(
            "`{top_from}` may not use `{top_to}`: the library's layers are data, grid < framework < rules < lab, editor, net < client < cli, and a module uses only its own layer and those below"
        ));
    }
    if top_from != "client" || top_to != "client" || from.len() < 2 {
        return None;
    }
    // `client/mod.rs` wires every plugin: it may use any folder (`check_file` skips it).
    let folder_from = &from[1];
    let Some(a) = rank(CLIENT, folder_from) else {
        return Some(format!(
            "`client/{folder_from}` lies outside the client's layer folders: every file of the client lives in core, table, frame, games, screens or dev_tools"
        ));
    };
    let folder_to = to.get(1)?;
    let b = rank(CLIENT, folder_to).unwrap_or(APP);
    if b > a {
        let what = if b == APP {
            format!("the app's own `client::{folder_to}`")
        } else {
            format!("`client/{folder_to}`")
        };
        return Some(format!(
            "`client/{folder_from}` may not use {what}: the client's layers are core < table < frame < games < screens < the app (client/mod.rs) < dev_tools, and a folder uses only itself and the layers below"
        ));
    }
    if a == b
        && SIBLINGS_APART.contains(&folder_from.as_str())
        && let (Some(mine), Some(theirs)) = (from.get(2), to.get(2))
        && mine != theirs
        && is_child_module(to)
    {
        return Some(format!(
            "`client/{folder_from}/{mine}` may not use `client/{folder_to}/{theirs}`: each of the {folder_from} stands alone; move what both need down a layer"
        ));
    }
    None
}

/// Whether the path names a child folder of `games`/`screens` rather than an item of
/// the folder's own `mod.rs` (a registry both may use).
fn is_child_module(to: &[String]) -> bool {
    let Some(name) = to.get(2) else { return false };
    name.chars().next().is_some_and(char::is_lowercase)
        && (src().join("client").join(&to[1]).join(name).is_dir()
            || src()
                .join("client")
                .join(&to[1])
                .join(format!("{name}.rs"))
                .is_file())
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

/// Every broken rule in the file at `relative` (from `src/`) holding `text`, one line each:
/// `src/FILE:LINE: uses crate::PATH: RULE`.
fn check_file(relative: &Path, text: &str) -> Vec<String> {
    let module = module_of(relative);
    // The client's own mod.rs builds the app: it wires every layer.
    if module == ["client"] {
        return Vec::new();
    }
    let code = code_only(text);
    let mut broken = Vec::new();
    for reference in references(&code, &module) {
        if let Some(rule) = broken_rule(&module, &reference.path) {
            broken.push(format!(
                "src/{}:{}: uses crate::{}: {rule}",
                relative.display(),
                reference.line,
                reference.path.join("::")
            ));
        }
    }
    broken.dedup();
    broken
}

#[test]
fn every_import_keeps_to_the_layers() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    assert!(
        files.len() > 100,
        "the sources are found ({} files)",
        files.len()
    );
    let mut report = String::new();
    for file in &files {
        let relative = file.strip_prefix(src()).expect("under src/");
        if relative.parent() == Some(Path::new("client")) && relative != Path::new("client/mod.rs")
        {
            writeln!(
                report,
                "src/{}: lies outside the client's layer folders: every file of the client lives in core, table, frame, games, screens or dev_tools",
                relative.display()
            )
            .unwrap();
        }
        let text = std::fs::read_to_string(file).expect("readable");
        for line in check_file(relative, &text) {
            writeln!(report, "{line}").unwrap();
        }
    }
    assert!(
        report.is_empty(),
        "imports that break the layers:\n{report}"
    );
}

#[test]
fn the_check_names_the_file_the_line_and_the_rule() {
    let text = "use bevy::prelude::*;\n// use crate::client::games::tank_chess::X;\nuse crate::client::{\n    games::tank_chess::board::square_centre,\n    core::keyboard,\n};\nfn f() { let s = \"crate::cli::run\"; crate::client::screens::menu::open(); }\n";
    let broken = check_file(Path::new("client/core/session.rs"), text);
    assert_eq!(broken.len(), 2, "{broken:#?}");
    assert!(broken[0].starts_with(
        "src/client/core/session.rs:3: uses crate::client::games::tank_chess::board::square_centre: `client/core` may not use `client/games`"
    ), "{}", broken[0]);
    assert!(
        broken[1]
            .starts_with("src/client/core/session.rs:7: uses crate::client::screens::menu::open")
    );
    // Across games, and the library's layers.
    let across = check_file(
        Path::new("client/games/tank_chess/board.rs"),
        "use super::super::tank_commander::hex_to_world;\nuse super::panels;\n",
    );
    assert_eq!(across.len(), 1, "{across:#?}");
    assert!(
        across[0].contains("`client/games/tank_chess` may not use `client/games/tank_commander`")
    );
    let up = check_file(
        Path::new("framework/playable.rs"),
        "use crate::lab::Tally;\n",
    );
    assert_eq!(up.len(), 1);
    assert!(up[0].starts_with(
        "src/framework/playable.rs:1: uses crate::lab::Tally: `framework` may not use `lab`"
    ));
    assert!(
        check_file(
            Path::new("rules/tank_commander/mod.rs"),
            "use crate::framework::Refusal;\n"
        )
        .is_empty()
    );
}
