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

pub use hex::{Edit, HexCheck, HexDesign, HexEditor, Marker, Symmetry};

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

#[cfg(test)]
mod tests;
