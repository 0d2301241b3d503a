"""A rules file's AST put together from the ASTs of its declarations, each parsed once.

Why: after an edit, a cold `lumos check` used to parse the whole edited file again with Lark
(a tenth of a second for a 600-line file, more than the rest of the check). A file is a list
of declarations (`game: _NL* (decl _NL*)*` in grammar/lumos.lark), and a declaration that
starts at the first column of a line is parsed the same whether the text before it is there
or not; so each one's AST is kept, by its own text, in one cache entry per file, and an edit
parses only the declarations it touched. The entry holds the current parts only: it does not
grow with every edit.

Why it is the same AST: a file is cut only before a line that starts at the first column (not
blank, not a comment), and not after a `says` line (it belongs to the declaration below it) or
a line continued with a backslash. A cut inside brackets or inside any other unfinished
construct leaves a part that does not parse; then, as for any part with an error, the whole
file is parsed as before, so errors keep their exact text and place. Each part is parsed and
built as a file of its own placed at line 1; its spans move down to where it is in the file
when it is read (`astdata.from_data(..., lines=...)`). tests/test_ast_parts.py checks that every
rules file in the repository gives the AST the whole-file parse gives.
"""
from __future__ import annotations

import hashlib

from lumos.compiler import nodes as N
from lumos.diagnostics import LumosSyntaxError, Span

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
    from lumos.compiler.astdata import from_data
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
    from lumos.compiler.astdata import to_data
    from lumos.compiler.build_ast import Origin, build
    from lumos.compiler.parse import parse
    try:
        tree = build(parse(part, path), Origin(path))
        return to_data(tree, [path])
    except (LumosSyntaxError, TypeError, RecursionError):
        return None
