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
/// ```
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    entries: Vec<(String, (usize, usize))>,
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
        let mut path = path;
        loop {
            if let Some((_, pos)) = self.entries.iter().find(|(p, _)| p == path) {
                return *pos;
            }
            match path.rfind(['.', '[']) {
                Some(i) => path = &path[..i],
                None => return (1, 1),
            }
        }
    }
}

struct Frame {
    base: String,
    index: usize,
    field: Option<String>,
    at_start: bool,
}

impl Frame {
    fn value_path(&self) -> String {
        match &self.field {
            Some(f) if self.base.is_empty() => f.clone(),
            Some(f) => format!("{}.{f}", self.base),
            None => format!("{}[{}]", self.base, self.index),
        }
    }
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

    /// Called at the start of every value: records list and tuple elements.
    fn value_start(&mut self, at: (usize, usize)) -> String {
        match self.frames.last_mut() {
            Some(frame) => {
                let path = frame.value_path();
                if frame.at_start && frame.field.is_none() {
                    self.map.entries.push((path.clone(), at));
                }
                frame.at_start = false;
                path
            }
            None => String::new(),
        }
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
                        f.at_start = true;
                    }
                }
                ':' => {
                    self.bump();
                }
                '"' => {
                    self.value_start(at);
                    self.string();
                }
                '\'' => {
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
                c if c == 'r' && matches!(self.peek(1), Some('"' | '#')) => {
                    self.value_start(at);
                    self.raw_string();
                }
                c if c.is_alphanumeric() || c == '_' || c == '-' || c == '+' || c == '.' => {
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
                        if let Some(frame) = self.frames.last_mut() {
                            frame.field = Some(word);
                            let path = frame.value_path();
                            self.map.entries.push((path, at));
                        }
                        self.bump();
                    } else if self.peek(0) == Some('(') {
                        // An enum variant or struct name: the paren belongs to this value.
                        self.open(at);
                    } else {
                        self.value_start(at);
                    }
                }
                _ => {
                    self.bump();
                }
            }
        }
        self.map
    }

    /// Opens a bracket that starts the value at `at`.
    fn open(&mut self, at: (usize, usize)) {
        let base = self.value_start(at);
        self.bump();
        self.frames.push(Frame {
            base,
            index: 0,
            field: None,
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
