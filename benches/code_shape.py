#!/usr/bin/env python3
"""The code's shape, as a Markdown report (issue 51).

    benches/code_shape.py [--root DIR] [--list N] [--folders] [--edges]

Measures, over DIR/src (DIR defaults to this checkout):

1. functions over 80 and over 150 lines (a `fn` from the line holding `fn name` to its
   closing brace; test code left out: `#[cfg(test)]` items and the modules they declare,
   `#[test]` functions, files named tests.rs or under a tests/ folder), and the N longest;
2. code files (.rs) over 800 lines (every line of the file);
3. function signatures in src/rules/ and src/framework/ with a `Result<_, String>`;
4. import circles between the parts of src/client/ (strongly connected components of the
   graph part -> part built from `use` items and inline `crate::`/`super::` paths);
5. the library's layers: references from one top-level module to another that run up
   the order data, grid < framework < rules < lab, editor < client < cli.

Parts of the client (4.): each immediate subfolder of src/client/, except that each
src/client/games/<game>/ is its own part (loose files in games/ make the part `games`);
each loose .rs file in src/client/ is its own part, and src/client/mod.rs is
`client(mod)`, whose own edges (it wires the plugins) are reported but left out of the
graph. With --folders (the layout after the redesign: core, table, frame, games/<game>,
screens, dev_tools) the parts are the same folders, a loose file other than mod.rs is
flagged (`hud.rs`: it belongs in a folder), and the report adds the edges that run up the
client's layers (core < table < frame < games < screens < dev_tools), across from one
game to another, or across from one screen (screens/<name>.rs or screens/<name>/) to
another: the circles counted are then the ones that cross a client folder.

A path through a `pub use` re-export (`crate::client::Session`, re-exported from
session.rs) counts as a reference to the module that defines the item.

Standard library only; reads the sources as text (a small lexer masks comments, strings,
raw strings and char literals, so braces and paths in them don't count).
"""
import argparse
import os
import re
import sys
from collections import defaultdict

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def is_ident_char(c):
    return c.isalnum() or c == "_"


# --------------------------------------------------------------------------- lexing


def mask(text):
    """The text with comments and string/char literals replaced by spaces (newlines
    kept), so offsets and line numbers stay the same. Lifetimes ('a) are left alone."""
    out = list(text)
    n = len(text)
    i = 0

    def blank(a, b):
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
            continue
        if c == "/" and i + 1 < n and text[i + 1] == "*":
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth += 1
                    j += 2
                elif text.startswith("*/", j):
                    depth -= 1
                    j += 2
                else:
                    j += 1
            blank(i, j)
            i = j
            continue
        # Raw strings: r"..", r#".."#, br"..", cr#".."#.
        if c == "r" and (i == 0 or not is_ident_char(text[i - 1]) or (
                text[i - 1] in "bc" and (i < 2 or not is_ident_char(text[i - 2])))):
            j = i + 1
            while j < n and text[j] == "#":
                j += 1
            if j < n and text[j] == '"':
                hashes = j - i - 1
                close = '"' + "#" * hashes
                k = text.find(close, j + 1)
                k = n if k < 0 else k + len(close)
                blank(i, k)
                i = k
                continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            blank(i, j + 1)
            i = j + 1
            continue
        if c == "'":
            # A char literal ('x', '{', '\n', '\'', '\u{1F600}') or a lifetime/label.
            if i + 1 < n and text[i + 1] == "\\":
                k = text.find("'", i + 3)
                k = n if k < 0 else k
                blank(i, k + 1)
                i = k + 1
                continue
            if i + 2 < n and text[i + 2] == "'" and text[i + 1] != "\n":
                blank(i, i + 3)
                i += 3
                continue
            i += 1
            continue
        i += 1
    return "".join(out)


class Source:
    """One .rs file: its text, masked text, line starts and test ranges."""

    def __init__(self, root, rel):
        self.rel = rel  # relative to root, e.g. src/client/hud.rs
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            self.text = f.read()
        self.code = mask(self.text)
        self.line_starts = [0]
        for m in re.finditer("\n", self.text):
            self.line_starts.append(m.end())
        self.lines = self.text.count("\n") + (0 if self.text.endswith("\n") or not self.text else 1)
        self.test_ranges = []  # (start, end) offsets of test-only items
        self.test_mods = []  # names of `#[cfg(test)] mod x;` declared here
        self._find_tests()

    def line_of(self, pos):
        lo, hi = 0, len(self.line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.line_starts[mid] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    def match_brace(self, pos):
        """Offset just past the brace that closes the one at pos."""
        code, depth = self.code, 0
        for j in range(pos, len(code)):
            ch = code[j]
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    return j + 1
        return len(code)

    def item_end(self, pos):
        """From pos (after a keyword or an attribute), the end of the item: past its
        `;` or past its `{...}` body, at ()/[] depth 0. Returns (end, has_body, brace)."""
        code, depth = self.code, 0
        j = pos
        while j < len(code):
            ch = code[j]
            if ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1
            elif depth <= 0 and ch == ";":
                return j + 1, False, None
            elif depth <= 0 and ch == "{":
                return self.match_brace(j), True, j
            j += 1
        return len(code), False, None

    def skip_attrs(self, pos):
        code = self.code
        while True:
            m = re.compile(r"\s*#\s*\[").match(code, pos)
            if not m:
                return pos
            depth, j = 0, m.end() - 1
            while j < len(code):
                if code[j] == "[":
                    depth += 1
                elif code[j] == "]":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            pos = j + 1

    def _find_tests(self):
        for m in re.finditer(r"#\s*\[\s*(?:cfg\s*\(\s*test\s*\)|test)\s*\]", self.code):
            if any(a <= m.start() < b for a, b in self.test_ranges):
                continue
            start = self.skip_attrs(m.end())
            end, has_body, _ = self.item_end(start)
            self.test_ranges.append((m.start(), end))
            if not has_body:
                d = re.compile(r"\s*(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+(\w+)\s*;").match(self.code, start)
                if d:
                    self.test_mods.append(d.group(1))

    def in_test(self, pos):
        return any(a <= pos < b for a, b in self.test_ranges)


def module_path(rel):
    """src/client/hud.rs -> ('client', 'hud'); src/client/mod.rs -> ('client',);
    src/lib.rs -> ()."""
    parts = rel.split("/")[1:]
    if parts in (["lib.rs"], ["main.rs"]):
        return ()
    last = parts[-1][:-3]
    if last == "mod":
        return tuple(parts[:-1])
    return tuple(parts[:-1]) + (last,)


def load(root):
    sources = {}
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, "src")):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".rs"):
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, root).replace(os.sep, "/")
                sources[rel] = Source(root, rel)
    # Files that are test-only modules: declared `#[cfg(test)] mod x;`, named tests.rs,
    # or under a tests/ folder.
    by_module = {module_path(r): r for r in sources if not r.endswith("main.rs")}
    test_files = set()
    for rel, s in sources.items():
        if os.path.basename(rel) == "tests.rs" or "/tests/" in rel:
            test_files.add(rel)
        for name in s.test_mods:
            child = by_module.get(module_path(rel) + (name,))
            if child:
                test_files.add(child)
    # ... and everything under a test-only module.
    changed = True
    while changed:
        changed = False
        test_modules = [module_path(r) for r in test_files]
        for rel in sources:
            mp = module_path(rel)
            if rel not in test_files and any(mp[:len(t)] == t and len(mp) > len(t) for t in test_modules if t):
                test_files.add(rel)
                changed = True
    return sources, by_module, test_files


# --------------------------------------------------------------------------- 1. functions

FN = re.compile(r"\bfn\s+(r#)?([A-Za-z_][A-Za-z0-9_]*)")
IMPL = re.compile(r"\bimpl\b")
TRAIT = re.compile(r"\btrait\s+([A-Za-z_][A-Za-z0-9_]*)")


def owner_blocks(s):
    """(start, end, name) of impl and trait blocks, for naming methods Type::name."""
    blocks = []
    code = s.code
    for m in IMPL.finditer(code):
        # An item impl starts a statement; `-> impl Trait` / `x: impl Fn()` do not.
        k = m.start() - 1
        while k >= 0 and code[k].isspace():
            k -= 1
        before = code[max(0, k - 5):k + 1]
        if k >= 0 and code[k] not in "};{]" and not before.endswith("unsafe"):
            continue
        end, has_body, brace = s.item_end(m.end())
        if not has_body:
            continue
        header = code[m.end():brace]
        header = re.split(r"\bwhere\b", header)[0]
        # Drop the impl's own generics.
        h = header.lstrip()
        if h.startswith("<"):
            depth = 0
            for j, ch in enumerate(h):
                depth += ch == "<"
                depth -= ch == ">"
                if depth == 0:
                    h = h[j + 1:]
                    break
        # `Trait for Type`: the type.
        depth, split = 0, None
        for j, ch in enumerate(h):
            depth += ch in "<(["
            depth -= ch in ">)]"
            if depth == 0 and re.match(r"\bfor\b", h[j:]) and (j == 0 or not is_ident_char(h[j - 1])):
                split = j + 3
        if split is not None:
            h = h[split:]
        h = h.strip().lstrip("&").strip()
        h = re.sub(r"^(mut\s+|dyn\s+)", "", h)
        head = re.split(r"[<\s(\[]", h, maxsplit=1)[0]
        name = head.split("::")[-1] or "impl"
        blocks.append((brace, end, name))
    for m in TRAIT.finditer(code):
        end, has_body, brace = s.item_end(m.end())
        if has_body:
            blocks.append((brace, end, m.group(1)))
    return blocks


def functions(sources, test_files):
    """[(length, rel, line, name)] of every fn with a body, test code left out."""
    found = []
    for rel, s in sources.items():
        if rel in test_files:
            continue
        blocks = owner_blocks(s)
        for m in FN.finditer(s.code):
            if s.in_test(m.start()):
                continue
            end, has_body, brace = s.item_end(m.end())
            if not has_body:
                continue  # a declaration: `fn x(&self) -> u32;`
            first = s.line_of(m.start())
            last = s.line_of(end - 1)
            owners = [b for b in blocks if b[0] < m.start() < b[1]]
            name = m.group(2)
            if owners:
                owner = max(owners, key=lambda b: b[0])  # innermost
                name = f"{owner[2]}::{name}"
            found.append((last - first + 1, rel, first, name))
    found.sort(key=lambda f: (-f[0], f[1], f[2]))
    return found


# --------------------------------------------------------------------------- 3. Result<_, String>


def generic_args(text, start):
    """text[start] is '<'; returns (args, end) splitting on commas at depth 1."""
    depth, args, cur = 0, [], []
    j = start
    while j < len(text):
        ch = text[j]
        if ch == "-" and text.startswith("->", j):
            cur.append("->")
            j += 2
            continue
        if ch in "<([":
            depth += 1
            if depth == 1:
                j += 1
                continue
        elif ch in ">)]":
            depth -= 1
            if depth == 0:
                args.append("".join(cur).strip())
                return args, j + 1
        elif ch == "," and depth == 1:
            args.append("".join(cur).strip())
            cur = []
            j += 1
            continue
        cur.append(ch)
        j += 1
    return args, len(text)


RESULT = re.compile(r"(?<![A-Za-z0-9_])(?:[A-Za-z_][A-Za-z0-9_]*::)*Result\s*<")


def string_results(s):
    """Signatures (the text from `fn` to its body or `;`) holding a Result whose error
    type is String: [(line, name, signature)]."""
    out = []
    for m in FN.finditer(s.code):
        end, has_body, brace = s.item_end(m.end())
        sig_end = brace if has_body else end
        sig = s.code[m.start():sig_end]
        hit = False
        for r in RESULT.finditer(sig):
            args, _ = generic_args(sig, r.end() - 1)
            if len(args) == 2 and re.fullmatch(r"(?:(?:std|alloc)::string::)?String", args[1].replace(" ", "")):
                hit = True
                break
        if hit:
            out.append((s.line_of(m.start()), m.group(2), " ".join(sig.split()), s.in_test(m.start())))
    return out


# --------------------------------------------------------------------------- paths

USE = re.compile(r"\buse\s+")
TOKEN = re.compile(r"r#[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*|::|[{},*;]")


def parse_use(code, pos):
    """The use tree starting at pos: ([(segments, leaf_offset)], end). A glob `a::*`
    gives segments [a]; `a::{self, B}` gives [a] and [a, B]."""
    toks = []
    for m in TOKEN.finditer(code, pos):
        t = m.group(0)
        toks.append((t, m.start()))
        if t == ";":
            break
    end = toks[-1][1] + 1 if toks else pos
    results = []

    def tree(i, prefix):
        path = list(prefix)
        if i < len(toks) and toks[i][0] == "::":
            i += 1
        while i < len(toks):
            t, p = toks[i]
            if t == "{":
                i += 1
                while i < len(toks) and toks[i][0] != "}":
                    i = tree(i, path)
                    if i < len(toks) and toks[i][0] == ",":
                        i += 1
                return i + 1
            if t == "*":
                results.append((path, p))
                return i + 1
            if t in ("}", ",", ";"):
                return i
            if t == "self" and path:
                results.append((path, p))
                i += 1
            else:
                path.append(t)
                i += 1
                if i < len(toks) and toks[i][0] == "::":
                    i += 1
                    continue
                results.append((list(path), p))
            if i < len(toks) and toks[i][0] == "as":
                i += 2
            return i
        return i

    tree(0, [])
    return results, end


INLINE = re.compile(r"(?<![A-Za-z0-9_:])([A-Za-z_][A-Za-z0-9_]*)((?:\s*::\s*[A-Za-z_][A-Za-z0-9_]*)+)")


class Paths:
    """Resolves the paths in each file to absolute module paths, following `pub use`."""

    def __init__(self, sources, by_module):
        self.sources = sources
        self.by_module = by_module
        self.modules = set(by_module)
        self.reexports = defaultdict(dict)  # module -> {name: absolute path}
        for rel, s in sources.items():
            if rel.endswith("main.rs"):
                continue
            mp = module_path(rel)
            for m in re.finditer(r"\bpub(?:\s*\([^)]*\))?\s+use\s+", s.code):
                if self.inline_mod_prefix(s, m.start()):
                    continue
                trees, _ = parse_use(s.code, m.end())
                for segs, _pos in trees:
                    absolute = self.absolute(rel, mp, segs)
                    if absolute and segs[-1] not in ("self", "super", "crate"):
                        self.reexports[mp][segs[-1]] = absolute

    def inline_mods(self, s):
        if not hasattr(s, "_inline"):
            s._inline = []
            for m in re.finditer(r"\bmod\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{", s.code):
                s._inline.append((m.end() - 1, s.match_brace(m.end() - 1), m.group(1)))
        return s._inline

    def inline_mod_prefix(self, s, pos):
        return [name for a, b, name in sorted(self.inline_mods(s)) if a < pos < b]

    def absolute(self, rel, mp, segs, pos=None):
        """An absolute path (tuple, from the crate root) for segs used in the file rel
        (module mp), or None for an outside crate."""
        if not segs:
            return None
        here = tuple(mp)
        if pos is not None:
            here = here + tuple(self.inline_mod_prefix(self.sources[rel], pos))
        first = segs[0]
        if first in ("crate", "tanktable"):
            return tuple(segs[1:])
        if first == "self":
            return here + tuple(segs[1:])
        if first == "super":
            base = list(here)
            i = 0
            while i < len(segs) and segs[i] == "super":
                if base:
                    base.pop()
                i += 1
            return tuple(base) + tuple(segs[i:])
        if here + (first,) in self.modules:
            return here + tuple(segs)  # a child module, 2018-style
        return None

    def resolve(self, path):
        """(defining module, rest) for an absolute path, following re-exports."""
        path = tuple(path)
        self.via = None
        for _ in range(10):
            k = 0
            while k < len(path) and path[:k + 1] in self.modules:
                k += 1
            module = path[:k]
            rest = path[k:]
            if rest and rest[0] in self.reexports.get(module, {}):
                target = self.reexports[module][rest[0]]
                if target[:len(module) + 1] == path[:len(module) + 1]:
                    break
                self.via = "::".join(module + (rest[0],))
                path = target + rest[1:]
                continue
            return module, rest
        return module, rest

    def references(self, rel):
        """[(line, absolute path, written text, in test)] of every use item and every
        inline crate::/super::/self:: path in the file."""
        s = self.sources[rel]
        mp = module_path(rel)
        refs = []
        use_spans = []
        for m in USE.finditer(s.code):
            trees, end = parse_use(s.code, m.end())
            use_spans.append((m.start(), end))
            for segs, pos in trees:
                absolute = self.absolute(rel, mp, segs, m.start())
                if absolute is not None:
                    refs.append((s.line_of(pos), absolute, "::".join(segs), s.in_test(pos)))
        for m in INLINE.finditer(s.code):
            if any(a <= m.start() < b for a, b in use_spans):
                continue
            before = s.code[max(0, m.start() - 4):m.start()]
            if re.search(r"\bin\s+$", before):  # pub(in crate::x)
                continue
            segs = [m.group(1)] + [x.strip() for x in m.group(2).split("::") if x.strip()]
            absolute = self.absolute(rel, mp, segs, m.start())
            if absolute is not None:
                refs.append((s.line_of(m.start()), absolute, "::".join(segs), s.in_test(m.start())))
        return refs


# --------------------------------------------------------------------------- 4. client circles


def client_part(rel, folders):
    parts = rel.split("/")
    if parts[:2] != ["src", "client"]:
        return None
    inner = parts[2:]
    if len(inner) == 1:
        if inner[0] == "mod.rs":
            return "client(mod)"
        # A loose file: its own part (with --folders, flagged as outside the folders).
        return inner[0] if folders else inner[0][:-3]
    if inner[0] == "games":
        if len(inner) == 2:
            return "games"
        return "games/" + inner[1]
    return inner[0]


def tarjan(nodes, edges):
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


# --------------------------------------------------------------------------- 5. layers

LEVEL = {"data": 0, "grid": 0, "framework": 1, "rules": 2, "lab": 3, "editor": 3, "client": 4, "cli": 5}


def top_module(rel):
    parts = rel.split("/")[1:]
    if len(parts) == 1:
        return parts[0][:-3]
    return parts[0]


# --------------------------------------------------------------------------- report


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."),
                    help="the checkout to measure (its src/ is read)")
    ap.add_argument("--list", type=int, default=40, metavar="N", help="list the N longest functions")
    ap.add_argument("--folders", action="store_true",
                    help="client parts are the immediate subfolders only (the redesigned layout)")
    ap.add_argument("--edges", action="store_true", help="list every client edge with its evidence")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    if not os.path.isdir(os.path.join(root, "src")):
        sys.exit(f"no src/ under {root}")
    sources, by_module, test_files = load(root)
    paths = Paths(sources, by_module)
    p = print

    p(f"# Code shape of `{root}`\n")
    p(f"{len(sources)} .rs files under src/, {sum(s.lines for s in sources.values()):,} lines; "
      f"test-only files left out of the function counts: {len(test_files)}.\n")

    # 1.
    fns = functions(sources, test_files)
    over80 = [f for f in fns if f[0] > 80]
    over150 = [f for f in fns if f[0] > 150]
    p("## 1. Long functions\n")
    p(f"{len(fns)} functions (test code left out): **{len(over80)} over 80 lines**, "
      f"**{len(over150)} over 150 lines** ({sum(f[0] for f in over80):,} lines in those over 80).\n")
    by_top = defaultdict(lambda: [0, 0])
    for f in over80:
        t = top_module(f[1])
        by_top[t][0] += 1
        by_top[t][1] += f[0] > 150
    p("| module | over 80 | over 150 |\n|---|---:|---:|")
    for t in sorted(by_top, key=lambda t: -by_top[t][0]):
        p(f"| {t} | {by_top[t][0]} | {by_top[t][1]} |")
    p("")
    if args.list:
        p(f"The {min(args.list, len(fns))} longest:\n")
        p("| lines | function | at |\n|---:|---|---|")
        for length, rel, line, name in fns[:args.list]:
            p(f"| {length} | `{name}` | {rel}:{line} |")
        p("")

    # 2.
    big = sorted(((s.lines, rel) for rel, s in sources.items() if s.lines > 800), key=lambda x: (-x[0], x[1]))
    big_code = [b for b in big if b[1] not in test_files]
    p("## 2. Files over 800 lines\n")
    p(f"**{len(big_code)} code files over 800 lines** (and {len(big) - len(big_code)} test files).\n")
    p("| lines | file |\n|---:|---|")
    for lines, rel in big:
        p(f"| {lines} | {rel}{' (tests)' if rel in test_files else ''} |")
    p("")

    # 3.
    p("## 3. `Result<_, String>` signatures in rules/ and framework/\n")
    total, total_test, rows = 0, 0, []
    for folder in ("src/rules/", "src/framework/"):
        n = n_test = 0
        for rel in sorted(r for r in sources if r.startswith(folder)):
            for line, name, sig, in_test in string_results(sources[rel]):
                if rel in test_files or in_test:
                    n_test += 1
                else:
                    n += 1
                    rows.append((rel, line, name))
        p(f"- {folder}: **{n}**" + (f" (and {n_test} in test code)" if n_test else ""))
        total += n
        total_test += n_test
    p(f"- total: **{total}**" + (f" (and {total_test} in test code)" if total_test else "") + "\n")
    p("<details><summary>the signatures</summary>\n")
    for rel, line, name in rows:
        p(f"- {rel}:{line} `{name}`")
    p("\n</details>\n")

    # 4.
    p("## 4. Import circles in the client" + (" (folders)" if args.folders else "") + "\n")
    client_files = sorted(r for r in sources if r.startswith("src/client/"))
    part_of = {r: client_part(r, args.folders) for r in client_files}
    parts = sorted(set(part_of.values()))
    edges = defaultdict(set)
    evidence = defaultdict(list)
    from_mod = defaultdict(list)
    across_screens = []

    def screen_of(rel):
        inner = rel.split("/")[3:]  # after src/client/screens/
        return "screens/" + (inner[0][:-3] if len(inner) == 1 else inner[0])
    for rel in client_files:
        src = part_of[rel]
        for line, absolute, written, in_test in paths.references(rel):
            if in_test or rel in test_files:
                continue
            if absolute[:1] != ("client",):
                continue
            module, rest = paths.resolve(absolute)
            if module[:1] != ("client",):
                continue
            if paths.via:
                written += f" (re-exported as {paths.via})"
            target_file = by_module.get(module)
            if not target_file:
                continue
            dst = part_of[target_file]
            if dst == src:
                if args.folders and src == "screens" and screen_of(rel) != screen_of(target_file):
                    across_screens.append((rel, line, written, screen_of(rel), screen_of(target_file)))
                continue
            item = "::".join(rest) or "*"
            if src == "client(mod)":
                from_mod[dst].append((rel, line, written))
                continue
            edges[src].add(dst)
            evidence[(src, dst)].append((rel, line, written, item))
    sccs = [c for c in tarjan(parts, edges) if len(c) > 1]
    n_parts = len(parts)
    p(f"{len(parts)} parts (with `client(mod)`), "
      f"{sum(len(v) for v in edges.values())} edges between parts "
      f"({sum(len(v) for v in evidence.values())} references).\n")
    p(f"**{len(sccs)} import circle(s)** (strongly connected components of more than one part):\n")
    for c in sccs:
        files = [r for r in client_files if part_of[r] in c]
        lines = sum(sources[r].lines for r in files)
        p(f"- **{len(c)} of {n_parts} parts, {len(files)} files, {lines:,} lines**: {', '.join(c)}")
    p("")
    for c in sccs:
        inside = sorted((a, b) for a in c for b in edges.get(a, ()) if b in c)
        p(f"Edges inside the {len(c)}-part circle ({len(inside)}), with the first reference of each:\n")
        p("| from | to | refs | e.g. |\n|---|---|---:|---|")
        for a, b in inside:
            ev = evidence[(a, b)]
            rel, line, written, item = ev[0]
            p(f"| {a} | {b} | {len(ev)} | {rel}:{line} `{written}` |")
        p("")
    outside = [x for x in parts if not any(x in c for c in sccs)]
    p(f"Parts in no circle: {', '.join(outside)}.\n")
    p(f"Edges from `client(mod)` (wiring, left out of the graph): "
      + ", ".join(f"{d} ({len(v)}: " + ", ".join(f"`{w}`" for _, _, w in v) + ")"
                  for d, v in sorted(from_mod.items())) + ".\n")
    if args.folders:
        loose = [x for x in parts if x.endswith(".rs")]
        p(f"Loose files outside the folders: {len(loose)}" + (f" ({', '.join(loose)})" if loose else "") + ".\n")
        level = {"core": 0, "table": 1, "frame": 2, "games": 3, "screens": 4, "dev_tools": 5}

        def lvl(x):
            return level.get(x.split("/")[0])
        bad = []
        for (a, b), ev in sorted(evidence.items()):
            la, lb = lvl(a), lvl(b)
            if la is None or lb is None:
                continue
            if lb > la:
                kind = "up"
            elif a.startswith("games/") and b.startswith("games/") and a != b:
                kind = "across games"
            else:
                continue
            bad.append((a, b, kind, ev))
        p(f"Edges up the client's layers (core < table < frame < games < screens < dev_tools) "
          f"or across games: **{len(bad)}** ({sum(len(e) for *_, e in bad)} references).\n")
        for a, b, kind, ev in bad:
            p(f"- {a} -> {b} ({kind}): " + "; ".join(f"{r}:{l} `{w}`" for r, l, w, _ in ev[:3])
              + (f" and {len(ev) - 3} more" if len(ev) > 3 else ""))
        p("")
        p(f"References across screens (one screen's folder or file to another's): "
          f"**{len(across_screens)}**.\n")
        for rel, line, written, a, b in across_screens:
            p(f"- {a} -> {b}: {rel}:{line} `{written}`")
        p("")
    if args.edges:
        p("All edges:\n")
        for (a, b), ev in sorted(evidence.items()):
            for rel, line, written, item in ev:
                p(f"- {a} -> {b}: {rel}:{line} `{written}`")
        p("")

    # 5.
    p("## 5. Library layers\n")
    p("Order: data, grid < framework < rules < lab, editor < client < cli. "
      "An edge runs *up* when it reaches a higher layer, *sideways* when it reaches another "
      "module of the same layer.\n")
    up, side, loose, counts = [], [], [], defaultdict(int)
    for rel in sorted(sources):
        a = top_module(rel)
        for line, absolute, written, in_test in paths.references(rel):
            if not absolute:
                continue
            b = absolute[0]
            if b == a or (b not in LEVEL and not (("src/" + b + ".rs") in sources)):
                continue
            test = in_test or rel in test_files
            counts[(a, b)] += 1
            entry = (rel, line, a, b, "::".join(absolute), test)
            if a not in LEVEL:
                loose.append(entry)
            elif b not in LEVEL:
                up.append(entry)
            elif LEVEL[b] > LEVEL[a]:
                up.append(entry)
            elif LEVEL[b] == LEVEL[a]:
                side.append(entry)
    up_code = [e for e in up if not e[5]]
    side_code = [e for e in side if not e[5]]
    p(f"**{len(up_code)} references run up a layer** in code "
      f"({len(up) - len(up_code)} more in test code); "
      f"{len(side_code)} run sideways ({len(side) - len(side_code)} more in test code).\n")
    p("Module to module (references, all code and tests):\n")
    p("| from \\ to | " + " | ".join(sorted(set(b for _, b in counts))) + " |")
    tops = sorted(set(b for _, b in counts))
    p("|---|" + "---:|" * len(tops))
    for a in sorted(set(a for a, _ in counts)):
        p(f"| {a} | " + " | ".join(str(counts.get((a, b), "")) for b in tops) + " |")
    p("")
    for title, rows in (("Up a layer", up), ("Sideways", side), ("From loose files (not counted)", loose)):
        p(f"{title}:\n")
        for rel, line, a, b, path, test in rows:
            p(f"- {rel}:{line} {a} -> {b} (`{path}`){' [test]' if test else ''}")
        if not rows:
            p("- none")
        p("")


if __name__ == "__main__":
    main()
