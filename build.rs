//! Build script: the files that ship inside the binary, and the commit it was built from.
//!
//! Every file under `scenarios/` and `assets/` is listed in `$OUT_DIR/shipped.rs` as
//! `(relative path, include_bytes!(…))`, so that a binary copied or installed away from
//! the project still has its setups, campaigns, rules tables and lab variants
//! (`src/data/shipped.rs`). `include_bytes!` makes the compiler rebuild when a file
//! changes; `rerun-if-changed` on the folders makes this script list a new file.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The folders whose files ship inside the binary.
const SHIPPED: [&str; 2] = ["scenarios", "assets"];

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let mut files = Vec::new();
    for folder in SHIPPED {
        println!("cargo::rerun-if-changed={folder}");
        walk(&root, &root.join(folder), &mut files);
    }
    files.sort();
    let mut table = String::from("&[\n");
    for (relative, full) in &files {
        table.push_str(&format!(
            "    ({relative:?}, include_bytes!({:?})),\n",
            full.display().to_string()
        ));
    }
    table.push(']');
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    std::fs::write(out.join("shipped.rs"), table).expect("OUT_DIR is writable");

    println!("cargo::rustc-env=TANKTABLE_COMMIT={}", commit(&root));
    println!("cargo::rerun-if-env-changed=TANKTABLE_COMMIT");
}

/// Every file under `dir`, as (path relative to `root` with `/`, full path).
fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            walk(root, &path, out);
        } else if let Ok(rel) = path.strip_prefix(root) {
            let relative = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            out.push((relative, path));
        }
    }
}

/// The commit being built: `$TANKTABLE_COMMIT` when set (an archive without `.git`), else
/// `git describe --always` of the work tree, else "unknown".
fn commit(root: &Path) -> String {
    if let Ok(given) = std::env::var("TANKTABLE_COMMIT") {
        return given;
    }
    let git = root.join(".git");
    if git.is_dir() {
        // A new commit moves HEAD or the branch it points to.
        // (A path that is not there would rerun this script, and rebuild the crate,
        // on every build: a packed branch is watched through `packed-refs`.)
        let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
        if let Ok(head) = std::fs::read_to_string(git.join("HEAD"))
            && let Some(branch) = head.trim().strip_prefix("ref: ")
        {
            watched.push(branch.to_string());
        }
        for file in watched {
            if git.join(&file).is_file() {
                println!("cargo::rerun-if-changed=.git/{file}");
            }
        }
    }
    Command::new("git")
        .args(["describe", "--always", "--abbrev=10"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}
