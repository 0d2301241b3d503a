"""A rules file's text -> its AST (lumos.compiler.nodes), from the compiler's JSON cache when the
same text at the same path was built before by the same builder; and AST <-> plain JSON data.

Why: reading a rules file's parse tree back from the cache and building the AST from it is
about a fifth of a cold `lumos check` of a large game; the AST itself, written as data, comes
back in a fraction of that, and neither Lark's parser nor its trees are needed at all. Why it
is safe: an entry is JSON read by `json.loads`, then rebuilt by `from_data`, which makes only
classes of lumos.compiler.nodes (by name, from that module's own table), spans, tuples and
plain values, and refuses anything else; a damaged or planted entry is at worst a miss. The
key covers the text, the path (every span names it), Lark's version and the grammar, and the
code that shapes the AST (the builder, the node classes, the span).

Encoding: a node is `[1, "ClassName", field values...]` in its fields' order, a tuple
`[0, items...]`, a span `[2, file number, line, col, end line, end col]` (files listed once),
other values (texts, numbers, flags, None) as themselves.

>>> from lumos.diagnostics import LumosSyntaxError, Span
>>> from lumos.compiler import nodes as N
>>> node = N.Call(Span("r.lumos", 1, 5, 1, 9), "f", (N.Num(Span("r.lumos", 1, 7), 2),))
>>> files = []
>>> data = to_data(node, files)
>>> data, files
([1, 'Call', [2, 0, 1, 5, 1, 9], 'f', [0, [1, 'Num', [2, 0, 1, 7, 0, 0], 2]]], ['r.lumos'])
>>> from_data(data, files) == node
True
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
from pathlib import Path

from lumos.compiler import nodes as N
from lumos.diagnostics import LumosSyntaxError, Span

MAX_DEPTH = 400    # the parser refuses rules nested deeper than parse.MAX_DEPTH levels of tree
_TUPLE, _NODE, _SPAN = 0, 1, 2
_SCALARS = (str, int, float, bool, type(None))
_EXACT = frozenset(_SCALARS)    # a str subclass (a Lark token) is not written as a plain text


@functools.lru_cache(maxsize=1)
def _classes() -> dict[str, tuple[type, tuple[str, ...]]]:
    """Every node class by name, with its fields' names: the only classes `from_data` makes."""
    return {name: (cls, tuple(f.name for f in dataclasses.fields(cls)))
            for name, cls in vars(N).items()
            if isinstance(cls, type) and issubclass(cls, N.Node) and cls.__module__ == N.__name__}


def to_data(value, files: list[str]):
    """`value` (a node, a tuple, a span or a plain value) as JSON-able lists; the span files are
    numbered in `files`. A value of any other type raises TypeError: nothing is guessed."""
    if type(value) in _EXACT:
        return value
    if isinstance(value, tuple):
        return [_TUPLE, *(to_data(v, files) for v in value)]
    if isinstance(value, Span):
        if value.file not in files:
            files.append(value.file)
        return [_SPAN, files.index(value.file), value.line, value.col, value.end_line, value.end_col]
    if isinstance(value, N.Node):
        name = type(value).__name__
        if _classes().get(name, (None,))[0] is not type(value):
            raise TypeError(f"{name} is not a node class of lumos.compiler.nodes")
        return [_NODE, name, *(to_data(getattr(value, f), files) for f in _classes()[name][1])]
    raise TypeError(f"cannot write a {type(value).__name__} as AST data")


def from_data(data, files: list[str], depth: int = 0, lines: int = 0, origin=None):
    """The value `to_data` wrote, its spans `lines` lines further down (a part of a file written
    from its own line 1: `assembled`), or, with an `origin` (lumos.compiler.origin.Origin), placed
    through it (a text written as parsed on its own: `text_ast`); anything malformed raises
    ValueError, TypeError, IndexError or KeyError."""
    if isinstance(data, _SCALARS):
        return data
    if not isinstance(data, list) or not data or depth > MAX_DEPTH:
        raise ValueError("not AST data")
    tag = data[0]
    if tag == _TUPLE:
        return tuple(from_data(v, files, depth + 1, lines, origin) for v in data[1:])
    if tag == _SPAN:
        _, file, line, col, end_line, end_col = data
        if not all(type(v) is int for v in (file, line, col, end_line, end_col)) or file < 0:
            raise ValueError("bad span in AST data")
        if origin is not None:
            files[file]    # a span of a file the entry does not list is damage (IndexError)
            return origin.span(line, col, end_line, end_col)
        return Span(files[file], line + lines, col, end_line + lines if end_line else 0, end_col)
    if tag == _NODE:
        cls, names = _classes()[data[1]]
        if len(data) != len(names) + 2:
            raise ValueError(f"a {data[1]} with {len(data) - 2} fields in AST data")
        values = [from_data(v, files, depth + 1, lines, origin) for v in data[2:]]
        if names[:1] == ("span",) and not isinstance(values[0], Span):
            raise ValueError(f"a {data[1]} without a span in AST data")
        node = object.__new__(cls)     # the fields as written: __init__ would only store them
        node.__dict__.update(zip(names, values))
        return node
    raise ValueError("not AST data")


# ---------------------------------------------------------------- rules files
_BUILT: dict[tuple[str, str], N.GameFile] = {}   # (path, text) -> its AST, this process
DISK_MIN_CHARS = 2000   # shorter rules files are not worth an entry of their own
MAX_REMEMBERED = 256    # ASTs kept in memory


_BUILDER_MODULES = ("lumos.compiler.build_ast", "lumos.compiler.nodes", "lumos.compiler.records",
                    "lumos.diagnostics", "lumos.compiler.parse", "lumos.compiler.origin",
                    "lumos.compiler.yamlload",     # yamlload: MAX_DIGITS
                    "lark")                        # Lark's own version: its __init__ names it


@functools.lru_cache(maxsize=1)
def _stamp() -> bytes:
    """What an AST depends on besides its text and path: the grammar, Lark, and the code that
    builds nodes (hashed, so an edited builder never reads an AST the old one wrote). The files
    are found without importing them: a check whose ASTs are all cached never imports Lark."""
    from importlib.resources import files
    from importlib.util import find_spec
    h = hashlib.sha256(files("lumos.grammar").joinpath("lumos.lark").read_bytes())
    for name in _BUILDER_MODULES:
        spec = find_spec(name)
        if spec is None or not spec.origin:
            raise OSError(f"cannot find {name}")
        h.update(Path(spec.origin).read_bytes())
    return h.digest()


def rules_ast(text: str, path: str) -> N.GameFile:
    """`build(parse(text, path), Origin(path))`: the AST of one rules file, once per process, from
    the cache when an earlier run built it. Raises LumosSyntaxError as parse and build do."""
    key = (path, text)
    hit = _BUILT.get(key)
    if hit is not None:
        return hit
    from lumos.compiler import cache
    name = None
    if len(text) >= DISK_MIN_CHARS and cache.folder() is not None:
        try:
            name = cache.key("ast", _stamp() + path.encode() + b"\0" + text.encode())
        except OSError:      # the builder's own files unreadable: no cache
            name = None
    tree = _saved(name) if name else None
    if tree is None and name:     # an edited file: the declarations it did not touch from the cache
        tree = assembled(text, path, _stamp())
        if tree is not None:
            _save(name, tree)
    if tree is None and name is None and _OPEN:    # a short file: with the card texts
        from lumos.compiler.origin import Origin
        tree = text_ast(text, "game", Origin(path))
    if tree is None:
        from lumos.compiler.build_ast import build
        from lumos.compiler.origin import Origin
        from lumos.compiler.parse import parse
        tree = build(parse(text, path), Origin(path))
        if name:
            _save(name, tree)
    if len(_BUILT) >= MAX_REMEMBERED:    # a long session (the language server) edits files often
        _BUILT.clear()
    _BUILT[key] = tree
    return tree


def _saved(name: str) -> N.GameFile | None:
    from lumos.compiler import cache
    entry = cache.get(name)
    try:
        tree = from_data(entry["ast"], entry["files"])
        if isinstance(tree, N.GameFile) and all(isinstance(d, N.Decl) for d in tree.decls) \
                and all(isinstance(f, str) for f in entry["files"]):
            return tree
    except (ValueError, TypeError, IndexError, KeyError, RecursionError):
        pass
    return None    # missing, damaged or not ours: built again (and written over)


def _save(name: str, tree: N.GameFile) -> None:
    from lumos.compiler import cache
    files: list[str] = []
    try:
        data = to_data(tree, files)
    except (TypeError, RecursionError):
        return
    cache.put(name, {"ast": data, "files": files})


# ---------------------------------------------------------------- parts of a rules file
# A rules file's AST put together from the ASTs of its declarations, each parsed once.
#
# Why: after an edit, a cold `lumos check` used to parse the whole edited file again with Lark
# (a tenth of a second for a 600-line file, more than the rest of the check). A file is a list
# of declarations (`game: _NL* (decl _NL*)*` in grammar/lumos.lark), and a declaration that
# starts at the first column of a line is parsed the same whether the text before it is there
# or not; so each one's AST is kept, by its own text, in one cache entry per file, and an edit
# parses only the declarations it touched. The entry holds the current parts only: it does not
# grow with every edit.
#
# Why it is the same AST: a file is cut only before a line that starts at the first column (not
# blank, not a comment), and not after a `says` line (it belongs to the declaration below it) or
# a line continued with a backslash. A cut inside brackets or inside any other unfinished
# construct leaves a part that does not parse; then, as for any part with an error, the whole
# file is parsed as before, so errors keep their exact text and place. Each part is parsed and
# built as a file of its own placed at line 1; its spans move down to where it is in the file
# when it is read (`astdata.from_data(..., lines=...)`). tests/test_ast_parts.py checks that every
# rules file in the repository gives the AST the whole-file parse gives.

MIN_PARTS = 2        # a file of one declaration is parsed whole


def parts(text: str) -> list[tuple[int, str]]:
    """(number of lines before it, text) of each part of `text`, in order; their texts joined
    are `text`."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    says = continued = False
    for i, line in enumerate(lines):
        first = line[:1]
        if i and first not in ("", " ", "\t", "#", "\n", "\r", "\f") and not says and not continued:
            starts.append(i)
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            says = first == "s" and line.startswith("says") and line[4:5] in (" ", "\t", '"')
        continued = line.rstrip("\r\n").endswith("\\")
    starts.append(len(lines))
    return [(a, "".join(lines[a:b])) for a, b in zip(starts, starts[1:]) if b > a]


def assembled(text: str, path: str, stamp: bytes) -> N.GameFile | None:
    """The AST of the rules file `text` at `path` from the ASTs of its parts (from the cache,
    parsing the parts not found there); None when the file is one part or a part has an error
    (the caller parses the whole file: its errors are reported as the whole file gives them)."""
    from lumos.compiler import cache
    pieces = parts(text)
    if len(pieces) < MIN_PARTS:
        return None
    try:
        name = cache.key("astparts", stamp + path.encode())
    except OSError:
        return None
    entry = cache.get(name)
    known = entry.get("parts") if isinstance(entry, dict) else None
    if not isinstance(known, dict) or entry.get("files") != [path]:
        known = {}          # missing, damaged or not this file's: every part is parsed
    files = [path]          # every span of a rules file's AST is in that file
    kept: dict = {}
    decls: list = []
    spans = []
    for before, part in pieces:
        digest = hashlib.sha256(part.encode()).hexdigest()
        got = None
        data = known.get(digest)
        if data is not None:
            try:
                got = from_data(data, files, lines=before)
            except (ValueError, TypeError, IndexError, KeyError, RecursionError):
                got = None
        if not (isinstance(got, N.GameFile) and all(isinstance(d, N.Decl) for d in got.decls)):
            data = _parse_part(part, path)
            if data is None:
                return None
            got = from_data(data, files, lines=before)
        kept[digest] = data
        decls.extend(got.decls)
        spans.append(got.span)
    if kept.keys() != known.keys():
        cache.put(name, {"parts": kept, "files": files})
    # the file spans from its first part's first token to its last part's last one
    first, last = spans[0], spans[-1]
    return N.GameFile(Span(path, first.line, first.col, last.end_line, last.end_col), tuple(decls))


def _parse_part(part: str, path: str):
    """A part's AST as data with spans from its own line 1; None if it does not parse or build."""
    from lumos.compiler.build_ast import build
    from lumos.compiler.origin import Origin
    from lumos.compiler.parse import parse
    try:
        tree = build(parse(part, path), Origin(path))
        return to_data(tree, [path])
    except (LumosSyntaxError, TypeError, RecursionError):
        return None


# ---------------------------------------------------------------- short texts
# The ASTs of a game's short texts (card effects and conditions, `{...}` holes of log lines and
# labels, small rules files) in one cache entry, found by their exact text.
#
# Why: without it a check parses every card text with Lark again (more than a tenth of a cold
# check, and Lark imported and its parser built for nothing), and the linter and the reference
# parsed them once more. A text's AST is kept as it is parsed on its own, from line 1 column 1
# (`Origin(file)`); read back, each span is placed through the origin of the text's place in
# its file (a card moved down by an edit above it is still found). The AST is the one the builder
# makes at that origin, since every span it makes goes through `Origin.span`
# (tests/test_cache_texts.py checks it for every text of every bundled game).

_MADE: dict = {}     # (start, text, origin) -> its AST, this process: the compiler's, then the linter's
_DATA: dict = {}     # (start, text) -> its AST as data, spans as parsed on its own, this process
_OPEN: list = []     # the innermost open `text_bundle`, last
MAX_TEXTS = 8192     # texts kept in memory


class _TextBundle:
    """One cache entry: start + NUL + text -> AST data; written back with what this run used."""

    def __init__(self, name: str):
        from lumos.compiler import cache
        saved = cache.get(name)
        self.name = name
        self.saved = saved if isinstance(saved, dict) else {}
        self.used: dict = {}
        self.added = False

    def get(self, key: str):
        return self.saved.get(key)

    def keep(self, key: str, data) -> None:
        if key not in self.used:
            self.used[key] = data
            self.added = self.added or self.saved.get(key) != data

    def write(self) -> None:
        from lumos.compiler import cache
        if self.added or len(self.used) != len(self.saved):
            cache.put(self.name, self.used)


@contextlib.contextmanager
def text_bundle(name: bytes):
    """Within this block, `text_ast` looks texts up in one cache entry, named by `name` (e.g. the
    paths of a game's card files) and what an AST depends on, and the entry is written back with
    the texts this block used when it ends. `name` only decides which entry is read, never which
    AST a text gets: a text is found by its exact text, an edited card is parsed again."""
    from lumos.compiler import cache
    if cache.folder() is None:
        yield
        return
    try:
        bundle = _TextBundle(cache.key("asts", _stamp() + b"\0" + name))
    except OSError:      # the builder's own files unreadable: no cache
        yield
        return
    _OPEN.append(bundle)
    try:
        yield
    finally:
        _OPEN.remove(bundle)
        bundle.write()


def text_ast(text: str, start: str, origin):
    """`build(parse(text, origin.file, start, origin), origin)` (start: "effect", "condition",
    "template_expr" or "game"), once per text and place in a process, from the open
    `text_bundle` when an earlier run parsed the same text. Raises LumosSyntaxError as parse
    and build do."""
    made_key = (start, text, origin)
    hit = _MADE.get(made_key)
    if hit is not None:
        return hit
    key = (start, text)
    bundle = _OPEN[-1] if _OPEN else None
    wire = start + "\0" + text
    data = _DATA.get(key)
    if data is None and bundle is not None:
        data = bundle.get(wire)
    node = _placed(data, start, origin) if data is not None else None
    if node is None:
        from lumos.compiler.build_ast import build
        from lumos.compiler.origin import Origin
        from lumos.compiler.parse import parse
        tree = parse(text, origin.file, start, origin)
        # built once, as written from its file's line 1 (what is kept), then placed through its
        # origin as a kept one is: not built a second time for the place it stands in
        try:
            data = to_data(build(tree, Origin(origin.file)), [origin.file])
        except (TypeError, RecursionError):
            data = None
        node = _placed(data, start, origin) if data is not None else None
        if node is None:
            node = build(tree, origin)
    if data is not None:
        if len(_DATA) >= MAX_TEXTS:
            _DATA.clear()
        _DATA[key] = data
        if bundle is not None:
            bundle.keep(wire, data)
    if len(_MADE) >= MAX_TEXTS:
        _MADE.clear()
    _MADE[made_key] = node
    return node


_KINDS = {"effect": tuple, "condition": N.Expr, "template_expr": N.Expr, "game": N.GameFile}


def _placed(data, start: str, origin):
    """The AST `data` holds, placed at `origin`; None if it is not one of `start`'s kind."""
    try:
        node = from_data(data, [origin.file], origin=origin)
    except (ValueError, TypeError, IndexError, KeyError, RecursionError):
        return None
    kind = _KINDS.get(start)
    if kind is None or not isinstance(node, kind):
        return None
    if start == "effect" and not all(isinstance(n, N.Stmt) for n in node):
        return None
    if start == "game" and not all(isinstance(d, N.Decl) for d in node.decls):
        return None
    return node
