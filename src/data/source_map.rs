//! Where each value of a RON file is, by its path (`units[2].at`).

/// Positions of the fields and list elements of a RON text, by path.
///
/// Built by a small scanner that follows RON's brackets, field names, strings and
/// comments; it does not validate (serde does), it only remembers where things start.
///
/// ```
/// use tanktable::data::SourceMap;
/// let map = SourceMap::new("S(\n  units: [\n    (name: \"a\"),\n    (name: \"b\"),\n  ],\n)");
/// assert_eq!(map.locate("units[1].name"), (4, 6));
/// assert_eq!(map.locate("units[1].missing"), (4, 5));
/// // A map's keys are found like field names.
/// let map = SourceMap::new("R(\n  types: {\n    \"Hover Tank\": (base: Tank),\n  },\n)");
/// assert_eq!(map.locate("types.Hover Tank.base"), (3, 20));
/// ```
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    /// Every field and list element seen, as a tree: each node names its parent, so the
    /// map takes memory in proportion to the text, however deep it nests.
    nodes: Vec<Node>,
    /// Where the text first nests deeper than [`MAX_DEPTH`].
    too_deep: Option<(usize, usize)>,
}

/// How deep brackets may nest in a data file. The project's deepest file nests 6 levels;
/// a deeper file is refused before it is read, so no reader recurses without bound.
pub const MAX_DEPTH: usize = 64;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Field(Box<str>),
    Index(usize),
}

#[derive(Clone, Debug)]
struct Node {
    parent: Option<u32>,
    step: Step,
    at: Option<(usize, usize)>,
}

impl SourceMap {
    /// Scans `text`.
    #[must_use]
    pub fn new(text: &str) -> Self {
        Scanner::new(text).run()
    }

    /// Line and column (from 1) of `path`, or of its nearest recorded parent, or 1:1.
    #[must_use]
    pub fn locate(&self, path: &str) -> (usize, usize) {
        let mut best = (1, 1);
        let mut parent = None;
        for step in steps(path) {
            let found = self
                .nodes
                .iter()
                .enumerate()
                .find(|(_, n)| n.parent == parent && n.step == step);
            let Some((i, node)) = found else { break };
            if let Some(at) = node.at {
                best = at;
            }
            parent = Some(u32::try_from(i).expect("fewer nodes than characters"));
        }
        best
    }

    /// Where the text first nests deeper than [`MAX_DEPTH`], if it does.
    #[must_use]
    pub fn too_deep(&self) -> Option<(usize, usize)> {
        self.too_deep
    }

    /// How many places the map holds (for tests of its size).
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the map holds no place.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// A new node for `step` under `parent`.
    fn child(&mut self, parent: Option<u32>, step: Step) -> u32 {
        let i = u32::try_from(self.nodes.len()).expect("fewer nodes than characters");
        self.nodes.push(Node {
            parent,
            step,
            at: None,
        });
        i
    }
}

/// The steps of a path such as `units[2].at`.
fn steps(path: &str) -> impl Iterator<Item = Step> + '_ {
    path.split('.').filter(|s| !s.is_empty()).flat_map(|part| {
        let (field, rest) = part.split_once('[').unwrap_or((part, ""));
        let field = (!field.is_empty()).then(|| Step::Field(field.into()));
        let indices = rest
            .split('[')
            .filter_map(|i| i.trim_end_matches(']').parse().ok())
            .map(Step::Index);
        field.into_iter().chain(indices)
    })
}

struct Frame {
    /// The node of the value this bracket opens (`None` at the top).
    base: Option<u32>,
    index: usize,
    /// The node of the field being read, if any.
    field: Option<u32>,
    /// The node of the list or tuple element being read, if any.
    element: Option<u32>,
    at_start: bool,
}

struct Scanner {
    chars: Vec<char>,
    pos: usize,
    line: usize,
    col: usize,
    frames: Vec<Frame>,
    map: SourceMap,
}

impl Scanner {
    fn new(text: &str) -> Self {
        Self {
            chars: text.chars().collect(),
            pos: 0,
            line: 1,
            col: 1,
            frames: Vec::new(),
            map: SourceMap::default(),
        }
    }

    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn skip_trivia(&mut self) {
        loop {
            match (self.peek(0), self.peek(1)) {
                (Some(c), _) if c.is_whitespace() => {
                    self.bump();
                }
                (Some('/'), Some('/')) => {
                    while let Some(c) = self.bump() {
                        if c == '\n' {
                            break;
                        }
                    }
                }
                (Some('/'), Some('*')) => {
                    self.bump();
                    self.bump();
                    let mut depth = 1;
                    while depth > 0 {
                        match (self.bump(), self.peek(0)) {
                            (Some('*'), Some('/')) => {
                                self.bump();
                                depth -= 1;
                            }
                            (Some('/'), Some('*')) => {
                                self.bump();
                                depth += 1;
                            }
                            (None, _) => return,
                            _ => {}
                        }
                    }
                }
                _ => return,
            }
        }
    }

    /// Called at the start of every value: records list and tuple elements. Returns the
    /// value's node.
    fn value_start(&mut self, at: (usize, usize)) -> Option<u32> {
        let frame = self.frames.last_mut()?;
        let node = match frame.field {
            Some(field) => Some(field),
            None => match frame.element {
                Some(element) if !frame.at_start => Some(element),
                _ => {
                    let (base, index) = (frame.base, frame.index);
                    let node = self.map.child(base, Step::Index(index));
                    self.map.nodes[node as usize].at = Some(at);
                    if let Some(frame) = self.frames.last_mut() {
                        frame.element = Some(node);
                    }
                    Some(node)
                }
            },
        };
        if let Some(frame) = self.frames.last_mut() {
            frame.at_start = false;
        }
        node
    }

    fn run(mut self) -> SourceMap {
        loop {
            self.skip_trivia();
            let at = (self.line, self.col);
            let Some(c) = self.peek(0) else { break };
            match c {
                '(' | '[' | '{' => self.open(at),
                ')' | ']' | '}' => {
                    self.bump();
                    self.frames.pop();
                }
                ',' => {
                    self.bump();
                    if let Some(f) = self.frames.last_mut() {
                        f.index += 1;
                        f.field = None;
                        f.element = None;
                        f.at_start = true;
                    }
                }
                ':' => {
                    self.bump();
                }
                '"' => self.quoted(at),
                '\'' => self.char_literal(at),
                c if c == 'r' && matches!(self.peek(1), Some('"' | '#')) => {
                    self.value_start(at);
                    self.raw_string();
                }
                c if c.is_alphanumeric() || c == '_' || c == '-' || c == '+' || c == '.' => {
                    self.word(at);
                }
                _ => {
                    self.bump();
                }
            }
        }
        self.map
    }

    /// A string starting at `at`: a map's key when a colon follows, else a value.
    fn quoted(&mut self, at: (usize, usize)) {
        let start = self.pos;
        self.string();
        // A string before a colon is a map's key: it names its value as a
        // field name does (`unit_types."Hover Tank".stats` is found as
        // `unit_types.Hover Tank.stats`).
        let end = self.pos.saturating_sub(1).max(start + 1);
        self.skip_trivia();
        let is_key = self.peek(0) == Some(':') && self.frames.last().is_some_and(|f| f.at_start);
        if is_key {
            let key: String = self.chars[start + 1..end].iter().collect();
            self.field(key, at);
        } else {
            self.value_start(at);
        }
    }

    /// A char literal starting at `at`, stepped over whole.
    fn char_literal(&mut self, at: (usize, usize)) {
        self.value_start(at);
        self.bump();
        while let Some(c) = self.bump() {
            if c == '\\' {
                self.bump();
            } else if c == '\'' {
                break;
            }
        }
    }

    /// A word starting at `at`: a field name when a colon follows, an enum variant or
    /// struct name when a paren does, else a value.
    fn word(&mut self, at: (usize, usize)) {
        let mut word = String::new();
        while let Some(c) = self.peek(0) {
            if c.is_alphanumeric() || "_-+.".contains(c) {
                word.push(c);
                self.bump();
            } else {
                break;
            }
        }
        self.skip_trivia();
        let is_field = self.peek(0) == Some(':')
            && self.peek(1) != Some(':')
            && self.frames.last().is_some_and(|f| f.at_start);
        if is_field {
            self.field(word, at);
        } else if self.peek(0) == Some('(') {
            // An enum variant or struct name: the paren belongs to this value.
            self.open(at);
        } else {
            self.value_start(at);
        }
    }

    /// Records the field (or map key) `name` at `at`, whose value follows the colon under
    /// the cursor, and steps over the colon.
    fn field(&mut self, name: String, at: (usize, usize)) {
        if let Some(base) = self.frames.last().map(|f| f.base) {
            let node = self.map.child(base, Step::Field(name.into()));
            self.map.nodes[node as usize].at = Some(at);
            if let Some(frame) = self.frames.last_mut() {
                frame.field = Some(node);
            }
        }
        self.bump();
    }

    /// Opens a bracket that starts the value at `at`.
    fn open(&mut self, at: (usize, usize)) {
        if self.frames.len() >= MAX_DEPTH {
            self.map.too_deep.get_or_insert(at);
            // Stop here: nothing deeper is mapped, and the reader refuses the file.
            self.pos = self.chars.len();
            return;
        }
        let base = self.value_start(at);
        self.bump();
        self.frames.push(Frame {
            base,
            index: 0,
            field: None,
            element: None,
            at_start: true,
        });
    }

    fn string(&mut self) {
        self.bump();
        while let Some(c) = self.bump() {
            if c == '\\' {
                self.bump();
            } else if c == '"' {
                break;
            }
        }
    }

    fn raw_string(&mut self) {
        self.bump();
        let mut hashes = 0;
        while self.peek(0) == Some('#') {
            self.bump();
            hashes += 1;
        }
        self.bump();
        'outer: while let Some(c) = self.bump() {
            if c == '"' {
                for i in 0..hashes {
                    if self.peek(i) != Some('#') {
                        continue 'outer;
                    }
                }
                for _ in 0..hashes {
                    self.bump();
                }
                break;
            }
        }
    }
}
