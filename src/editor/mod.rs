//! The scenario editor's rules side: a design being edited, every edit as a value, undo
//! and redo, live validation with the places to mark, and saving as RON. The client's
//! editor screen drives it; nothing here knows of Bevy.
//!
//! ```
//! use tanktable::editor::{Edit, HexEditor, Terrain};
//! use tanktable::rules::tank_commander::Rules;
//!
//! let mut editor = HexEditor::new(Rules::builtin(), 12, 10);
//! editor.apply(Edit::Paint { cells: vec![[3, 4], [4, 4]], terrain: Terrain::Forest });
//! assert!(editor.modified());
//! editor.undo();
//! assert!(!editor.modified());
//! ```

mod hex;
mod square;

use std::path::{Path, PathBuf};

use crate::framework::hash::stable_hash;

pub use hex::{Cell, Edit, HexDesign, HexEditor, Symmetry};
pub use square::{SquareDesign, SquareEdit, SquareEditor, TEAMS};

pub use crate::rules::tank_commander::setup::Terrain;

/// How many edits undo reaches back.
pub const UNDO_DEPTH: usize = 500;

/// A design and its past: undo and redo stacks of whole snapshots (a 60 × 60 board is a
/// few kilobytes), and the snapshot last saved, for the "modified" marker.
#[derive(Clone, Debug)]
pub struct History<D> {
    now: D,
    undo: Vec<D>,
    redo: Vec<D>,
    saved: D,
}

impl<D: Clone + PartialEq> History<D> {
    /// A history starting at `design`, which counts as saved.
    #[must_use]
    pub fn new(design: D) -> Self {
        Self {
            saved: design.clone(),
            now: design,
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }

    /// The design as it stands.
    #[must_use]
    pub fn now(&self) -> &D {
        &self.now
    }

    /// Records `next` as the result of an edit; an edit that changes nothing is not
    /// recorded. Returns whether it changed the design.
    pub fn push(&mut self, next: D) -> bool {
        if next == self.now {
            return false;
        }
        let before = std::mem::replace(&mut self.now, next);
        self.undo.push(before);
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
        true
    }

    /// Replaces the design without a new undo step: the next part of an edit already
    /// recorded (a brush stroke, hex by hex, is one step to undo).
    pub fn amend(&mut self, next: D) -> bool {
        if next == self.now {
            return false;
        }
        self.now = next;
        self.redo.clear();
        true
    }

    /// Steps back one edit; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(before) = self.undo.pop() else {
            return false;
        };
        let now = std::mem::replace(&mut self.now, before);
        self.redo.push(now);
        true
    }

    /// Steps forward one undone edit; false when there is none.
    pub fn redo(&mut self) -> bool {
        let Some(next) = self.redo.pop() else {
            return false;
        };
        let now = std::mem::replace(&mut self.now, next);
        self.undo.push(now);
        true
    }

    #[must_use]
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    #[must_use]
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Whether the design differs from the one last saved (or opened).
    #[must_use]
    pub fn modified(&self) -> bool {
        self.now != self.saved
    }

    /// Marks the design as it stands as saved.
    pub fn mark_saved(&mut self) {
        self.saved = self.now.clone();
    }
}

/// What an editor edits: a scenario or setup of some game, its edits as values, its
/// file text, and its live check.
pub trait Design: Clone + PartialEq + Sized {
    type Edit: Clone;
    type Rules: Clone;

    /// The design after `edit`.
    #[must_use]
    fn edited(&self, edit: &Self::Edit) -> Self;

    /// The design as the RON it saves, in a stable form.
    fn to_ron(&self) -> String;

    /// Every problem the game's validator finds, with what each marks on the table.
    fn check(&self, rules: &Self::Rules) -> Check;

    /// A design from a file's text.
    ///
    /// # Errors
    /// `file:line:col: …` for text that is not such a file.
    fn read(file: &str, text: &str) -> Result<Self, String>;

    /// A hash of the design (of the RON it saves): equal designs, equal hashes.
    fn hash(&self) -> u64 {
        stable_hash(&self.to_ron())
    }
}

/// A place on the table a problem is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// A space of the board.
    Cell(Cell),
    /// A unit, by index: outlined where it stands.
    Unit(usize),
    /// A whole row of the board.
    Row(usize),
}

/// The live check of a design: each problem (path, message) and what it marks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Check {
    pub problems: Vec<(String, String)>,
    pub markers: Vec<Option<Marker>>,
}

impl Check {
    /// Each problem as a line: `units[1].at: …`.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        self.problems
            .iter()
            .map(|(path, message)| {
                if path.is_empty() {
                    message.clone()
                } else {
                    format!("{path}: {message}")
                }
            })
            .collect()
    }
}

/// A design being edited: the design and its history, the rules it is checked against,
/// the file it came from, and the live check.
#[derive(Clone, Debug)]
pub struct Editor<D: Design> {
    pub rules: D::Rules,
    history: History<D>,
    /// The file the design was opened from or last saved to.
    pub path: Option<PathBuf>,
    /// The text the design was opened from, written back as it was while nothing is
    /// changed (so that saving an unchanged file leaves it byte for byte).
    original: Option<String>,
    check: Check,
    /// A stroke is under way and has made its undo step.
    stroke: bool,
}

impl<D: Design> Editor<D> {
    /// An editor on `design`, from the file `path` whose text was `original`.
    #[must_use]
    pub fn with(
        rules: D::Rules,
        design: D,
        path: Option<PathBuf>,
        original: Option<String>,
    ) -> Self {
        let check = design.check(&rules);
        Self {
            rules,
            history: History::new(design),
            path,
            original,
            check,
            stroke: false,
        }
    }

    /// Opens a file. A file that reads as a design opens even when the validator finds
    /// problems in it: they are listed, to be fixed in the editor.
    ///
    /// # Errors
    /// `file:line:col: …` for a file that is not a design of this kind.
    pub fn open(path: &Path, rules: D::Rules) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        let design = D::read(&path.display().to_string(), &text)?;
        Ok(Self::with(
            rules,
            design,
            Some(path.to_path_buf()),
            Some(text),
        ))
    }

    /// The design as it stands.
    #[must_use]
    pub fn design(&self) -> &D {
        self.history.now()
    }

    /// The live check of the design as it stands.
    #[must_use]
    pub fn check(&self) -> &Check {
        &self.check
    }

    /// Makes an edit and checks the result; returns whether anything changed.
    pub fn apply(&mut self, edit: D::Edit) -> bool {
        self.stroke = false;
        let next = self.design().edited(&edit);
        let changed = self.history.push(next);
        if changed {
            self.recheck();
        }
        changed
    }

    /// Makes an edit as part of a stroke (a brush dragged over the board): the stroke's
    /// first change makes the undo step, the rest join it. Returns whether anything
    /// changed.
    pub fn apply_stroke(&mut self, edit: D::Edit) -> bool {
        let next = self.design().edited(&edit);
        let changed = if self.stroke {
            self.history.amend(next)
        } else {
            let pushed = self.history.push(next);
            self.stroke = pushed;
            pushed
        };
        if changed {
            self.recheck();
        }
        changed
    }

    /// Ends the stroke under way: the next edit is a step of its own.
    pub fn end_stroke(&mut self) {
        self.stroke = false;
    }

    fn recheck(&mut self) {
        self.check = self.design().check(&self.rules);
    }

    pub fn undo(&mut self) -> bool {
        self.stroke = false;
        let done = self.history.undo();
        if done {
            self.recheck();
        }
        done
    }

    pub fn redo(&mut self) -> bool {
        let done = self.history.redo();
        if done {
            self.recheck();
        }
        done
    }

    #[must_use]
    pub fn can_undo(&self) -> bool {
        self.history.can_undo()
    }

    #[must_use]
    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }

    /// Whether there are changes since the design was opened or saved.
    #[must_use]
    pub fn modified(&self) -> bool {
        self.history.modified()
    }

    /// The text a save writes: the opened file's own while nothing has changed, else the
    /// design as RON.
    #[must_use]
    pub fn text(&self) -> String {
        match &self.original {
            Some(text) if !self.modified() => text.clone(),
            _ => self.design().to_ron(),
        }
    }

    /// Saves the design to `path` atomically; it becomes the design's file.
    ///
    /// # Errors
    /// The I/O error, in a sentence.
    pub fn save(&mut self, path: &Path) -> Result<(), String> {
        let text = self.text();
        crate::data::write_atomic(path, &text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        self.history.mark_saved();
        self.original = Some(text);
        self.path = Some(path.to_path_buf());
        Ok(())
    }
}

#[cfg(test)]
mod tests;
