//! The numbers and switches of a RON text, by path, and a text with some of them changed.
//!
//! The lab edits a game's tuning (its rules tables) by path: `firing.forest_penalty`,
//! `table.bands[2].name`. [`leaves`] finds every scalar value of a RON text with its
//! place and the comment written above it; [`patch`] replaces values by path, touching
//! nothing else, so a variant is exactly its base with the changed fields changed.
//!
//! ```
//! use std::collections::BTreeMap;
//! use tanktable::lab::doc::{leaves, patch, LeafKind};
//!
//! let text = "R(\n  // Dice.\n  dice: (sides: 6, open: true),\n  name: \"x\",\n)";
//! let found = leaves(text);
//! assert_eq!(found[0].path, "dice.sides");
//! assert_eq!(found[0].kind, LeafKind::Int);
//! // The comment above a group explains the group.
//! assert_eq!(tanktable::lab::doc::notes(text)["dice"], "Dice.");
//! let changed = patch(text, &BTreeMap::from([("dice.open".to_string(), "false".to_string())]));
//! assert_eq!(changed.unwrap(), "R(\n  // Dice.\n  dice: (sides: 6, open: false),\n  name: \"x\",\n)");
//! ```

use std::collections::BTreeMap;
use std::ops::Range;

/// What kind of value a leaf holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum LeafKind {
    /// A whole number.
    Int,
    /// A number with a fraction.
    Float,
    /// `true` or `false`.
    Bool,
    /// A bare word: an enum's variant (`Defender`, `FirstDeath`) or `None`.
    Word,
    /// A quoted string or character.
    Text,
}

impl LeafKind {
    /// Whether `value` is a value of this kind, as RON writes it.
    #[must_use]
    pub fn accepts(self, value: &str) -> bool {
        let v = value.trim();
        match self {
            LeafKind::Int => v.parse::<i64>().is_ok(),
            LeafKind::Float => v.parse::<f64>().is_ok_and(f64::is_finite),
            LeafKind::Bool => v == "true" || v == "false",
            LeafKind::Word => {
                v.chars().next().is_some_and(char::is_alphabetic)
                    && v.chars().all(|c| c.is_alphanumeric() || c == '_')
            }
            LeafKind::Text => {
                v.len() >= 2
                    && v.starts_with('"')
                    && v.ends_with('"')
                    && !v[1..v.len() - 1].contains('"')
            }
        }
    }
}

/// One scalar value of a RON text.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaf {
    /// Its path: fields by name, list and tuple elements by `[index]`, map entries by key.
    pub path: String,
    /// Where its text is, in bytes.
    pub span: Range<usize>,
    /// The value as written.
    pub text: String,
    pub kind: LeafKind,
    /// The comment written just above its field (empty when none).
    pub note: String,
}

/// The comments written above fields and groups of a RON text, by path (`firing`,
/// `firing.arc_boundary`).
#[must_use]
pub fn notes(text: &str) -> BTreeMap<String, String> {
    let mut scanner = Scanner::new(text);
    scanner.value(String::new());
    scanner.notes
}

/// Every scalar value of `text`, in the order written. A text that is not well-formed
/// RON gives the leaves found up to the problem.
#[must_use]
pub fn leaves(text: &str) -> Vec<Leaf> {
    let mut scanner = Scanner::new(text);
    scanner.value(String::new());
    scanner.leaves
}

/// `text` with the value at each path of `changes` replaced by the given RON value.
///
/// # Errors
/// Every change that cannot be made, as `(path, why)`: no such value, or a value of
/// another kind (a word for a number, a list for a switch).
pub fn patch(
    text: &str,
    changes: &BTreeMap<String, String>,
) -> Result<String, Vec<(String, String)>> {
    let found = leaves(text);
    let mut problems = Vec::new();
    let mut edits: Vec<(Range<usize>, &str)> = Vec::new();
    for (path, value) in changes {
        let Some(leaf) = found.iter().find(|l| &l.path == path) else {
            problems.push((
                path.clone(),
                format!("there is no number or switch `{path}`"),
            ));
            continue;
        };
        let value = value.trim();
        // A float field accepts a whole number; every other kind takes its own.
        let fits = leaf.kind.accepts(value)
            || (leaf.kind == LeafKind::Float && LeafKind::Int.accepts(value));
        if !fits {
            problems.push((
                path.clone(),
                format!(
                    "`{value}` is not {} (it is `{}` now)",
                    kind_words(leaf.kind),
                    leaf.text
                ),
            ));
            continue;
        }
        edits.push((leaf.span.clone(), value));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    edits.sort_by_key(|(span, _)| std::cmp::Reverse(span.start));
    let mut out = text.to_string();
    for (span, value) in edits {
        out.replace_range(span, value);
    }
    Ok(out)
}

fn kind_words(kind: LeafKind) -> &'static str {
    match kind {
        LeafKind::Int => "a whole number",
        LeafKind::Float => "a number",
        LeafKind::Bool => "true or false",
        LeafKind::Word => "a word (one of the switch's settings)",
        LeafKind::Text => "a quoted text",
    }
}

fn join(path: &str, step: &str) -> String {
    if path.is_empty() {
        step.to_string()
    } else {
        format!("{path}.{step}")
    }
}

/// A recursive reader of RON values that remembers where scalars are. Nesting is bounded
/// by [`crate::data::MAX_DEPTH`].
struct Scanner<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    depth: usize,
    /// Comment lines read since the last value.
    pending: Vec<String>,
    leaves: Vec<Leaf>,
    notes: BTreeMap<String, String>,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            s: text.as_bytes(),
            text,
            i: 0,
            depth: 0,
            pending: Vec::new(),
            leaves: Vec::new(),
            notes: BTreeMap::new(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    /// Skips white space and comments, keeping line comments as the next field's note.
    fn trivia(&mut self) {
        loop {
            match (self.peek(), self.s.get(self.i + 1).copied()) {
                (Some(c), _) if c.is_ascii_whitespace() => {
                    // A blank line parts a comment from what follows.
                    if c == b'\n' && self.s.get(self.i + 1) == Some(&b'\n') {
                        self.pending.clear();
                    }
                    self.i += 1;
                }
                (Some(b'/'), Some(b'/')) => {
                    let start = self.i + 2;
                    while self.peek().is_some_and(|c| c != b'\n') {
                        self.i += 1;
                    }
                    self.pending
                        .push(self.text[start..self.i].trim().to_string());
                }
                (Some(b'/'), Some(b'*')) => {
                    self.i += 2;
                    while self.i < self.s.len() && !self.s[self.i..].starts_with(b"*/") {
                        self.i += 1;
                    }
                    self.i = (self.i + 2).min(self.s.len());
                }
                _ => return,
            }
        }
    }

    fn word(&mut self) -> Range<usize> {
        let start = self.i;
        while self.peek().is_some_and(|c| {
            c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'+' | b'.') || c >= 0x80
        }) {
            self.i += 1;
        }
        start..self.i
    }

    fn quoted(&mut self, quote: u8) -> Range<usize> {
        let start = self.i;
        self.i += 1;
        while let Some(c) = self.peek() {
            self.i += 1;
            if c == b'\\' {
                self.i += 1;
            } else if c == quote {
                break;
            }
        }
        start..self.i.min(self.s.len())
    }

    fn take_note(&mut self) -> String {
        std::mem::take(&mut self.pending).join(" ")
    }

    /// Reads one value at `path`.
    fn value(&mut self, path: String) {
        self.trivia();
        let note = self.take_note();
        if !note.is_empty() && !path.is_empty() {
            self.notes.insert(path.clone(), note.clone());
        }
        let Some(c) = self.peek() else { return };
        match c {
            b'(' => self.group(&path, b')'),
            b'[' => self.group(&path, b']'),
            b'{' => self.group(&path, b'}'),
            b'"' | b'\'' => {
                let span = self.quoted(c);
                self.leaf(path, span, LeafKind::Text, note);
            }
            _ => {
                let span = self.word();
                if span.is_empty() {
                    // Not a value: step over it so the scan always ends.
                    self.i += 1;
                    return;
                }
                self.trivia();
                if self.peek() == Some(b'(') {
                    // A named struct, tuple or enum variant: the parenthesis is its body.
                    self.group(&path, b')');
                    return;
                }
                let word = &self.text[span.clone()];
                let kind = if word == "true" || word == "false" {
                    LeafKind::Bool
                } else if word.parse::<i64>().is_ok() {
                    LeafKind::Int
                } else if word.parse::<f64>().is_ok() {
                    LeafKind::Float
                } else {
                    LeafKind::Word
                };
                self.leaf(path, span, kind, note);
            }
        }
    }

    fn leaf(&mut self, path: String, span: Range<usize>, kind: LeafKind, note: String) {
        self.leaves.push(Leaf {
            path,
            text: self.text[span.clone()].to_string(),
            span,
            kind,
            note,
        });
    }

    /// Reads a bracketed body: fields (`name: value`), map entries (`key: value`) or
    /// elements (`value`), separated by commas.
    fn group(&mut self, path: &str, close: u8) {
        self.i += 1;
        self.depth += 1;
        if self.depth > crate::data::MAX_DEPTH {
            self.i = self.s.len();
            return;
        }
        let mut index = 0;
        loop {
            self.trivia();
            match self.peek() {
                None => break,
                Some(c) if c == close => {
                    self.i += 1;
                    break;
                }
                Some(b',') => {
                    self.i += 1;
                    continue;
                }
                Some(b')' | b']' | b'}') => {
                    // A mismatched bracket: end this group without consuming it.
                    break;
                }
                _ => {}
            }
            let before = self.i;
            let key = self.key();
            match key {
                Some(name) => self.value(join(path, &name)),
                None => {
                    self.i = before;
                    self.value(format!("{path}[{index}]"));
                }
            }
            index += 1;
            if self.i == before {
                self.i += 1;
            }
        }
        self.depth -= 1;
    }

    /// A field name or map key followed by `:` at the cursor, consumed with its colon.
    fn key(&mut self) -> Option<String> {
        let name = match self.peek()? {
            b'"' => {
                let span = self.quoted(b'"');
                let inner =
                    &self.text[span.start + 1..span.end.saturating_sub(1).max(span.start + 1)];
                inner.to_string()
            }
            c if c.is_ascii_alphanumeric() || c == b'_' || c == b'-' => {
                let span = self.word();
                self.text[span].to_string()
            }
            _ => return None,
        };
        let pending = std::mem::take(&mut self.pending);
        self.trivia();
        if self.peek() == Some(b':') && self.s.get(self.i + 1) != Some(&b':') {
            self.i += 1;
            // The comment above the key belongs to its value.
            let mut all = pending;
            all.append(&mut self.pending);
            self.pending = all;
            Some(name)
        } else {
            self.pending = pending;
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_cover_fields_lists_tuples_and_maps() {
        let text =
            "R(a: [1, 2.5], b: { \"Hover Tank\": (hp: 3) }, c: Some(4), d: (x, 'c'), e: None)";
        let got: Vec<(String, LeafKind)> =
            leaves(text).into_iter().map(|l| (l.path, l.kind)).collect();
        let want = [
            ("a[0]", LeafKind::Int),
            ("a[1]", LeafKind::Float),
            ("b.Hover Tank.hp", LeafKind::Int),
            ("c[0]", LeafKind::Int),
            ("d[0]", LeafKind::Word),
            ("d[1]", LeafKind::Text),
            ("e", LeafKind::Word),
        ];
        let want: Vec<(String, LeafKind)> =
            want.iter().map(|(p, k)| ((*p).to_string(), *k)).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn a_patch_changes_exactly_the_named_values() {
        let text = "R(a: 1, b: (c: -2, d: Defender), e: 1)";
        let changes = BTreeMap::from([
            ("b.c".to_string(), "-3".to_string()),
            ("b.d".to_string(), "Shooter".to_string()),
        ]);
        assert_eq!(
            patch(text, &changes).unwrap(),
            "R(a: 1, b: (c: -3, d: Shooter), e: 1)"
        );
    }

    #[test]
    fn a_bad_patch_lists_every_problem() {
        let text = "R(a: 1, b: true)";
        let changes = BTreeMap::from([
            ("a".to_string(), "x".to_string()),
            ("b".to_string(), "2".to_string()),
            ("z".to_string(), "2".to_string()),
        ]);
        let problems = patch(text, &changes).unwrap_err();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[2].1.contains("no number or switch `z`"));
    }

    #[test]
    fn notes_come_from_the_comment_above() {
        let text = "R(\n  // Group.\n  g: (\n    // Leaf one,\n    // two lines.\n    x: 1,\n\n    y: 2,\n  ),\n)";
        let l = leaves(text);
        assert_eq!(l[0].note, "Leaf one, two lines.");
        assert_eq!(l[1].note, "");
        assert_eq!(notes(text).get("g").map(String::as_str), Some("Group."));
    }

    #[test]
    fn broken_text_ends_the_scan() {
        for text in ["R(a: [1, 2", "((((", ")))", "R(a: \"open", "R(: 1)", ""] {
            let _ = leaves(text);
        }
    }
}
