"""Board YAML -> checked `Board` (plain data for the interpreter), plus networkx, JSON,
GraphML and SVG views of it.

A board file is generic: a `grid` drawn as a character map with a legend, `rings`
of spaces (tracks), explicit `spaces` and `links`, named `regions` and `union`
link kinds. Nothing here knows any game; the game's choices live in its YAML.
Distances per link kind are computed once, here, with networkx, so the interpreter
only looks them up.

Every problem in a board file is a `LumosCheckError`; its diagnostics point at the
offending YAML value. Independent problems are reported together. Codes:

    B100  the board file cannot be read
    B101  the board file is not a mapping of sections (or is empty)
    B102  a required key is missing
    B103  an unknown key (usually a typo)
    B104  a value has the wrong type
    B105  a value is out of range or malformed (rows < 1, blank name, bad radius)
    B110  a legend key is not one character, or redefines `.`
    B111  a map cell uses a character the legend does not define
    B112  the map has a different number of lines than `rows`
    B113  a map line has a different number of cells than `columns`
    B114  map cells are not single characters separated by single spaces
    B115  an unknown grid link generator (only `orthogonal` and `diagonal` exist)
    B116  `columns` repeats a letter or contains a blank
    B117  a legend or ring sets an attribute the compiler sets itself (x, y, ...)
    B120  two spaces have the same name
    B121  a region or link names a space that does not exist
    B122  a union names a link kind that does not exist
    B123  a link joins a space to itself
    B124  a palette colour is not `#rgb` or `#rrggbb`
    B125  a union reuses the name of a link kind
    B126  the board has no spaces

>>> board = parse_board('''
... name: strip
... grid: {columns: abc, rows: 1, links: {orthogonal: step}, legend: {X: {}}, map: "X X X"}
... ''', "strip.yaml")
>>> board.spaces, board.distance(0, 2, "step")
(('a1', 'b1', 'c1'), 2)
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import networkx as nx

from lumos.compiler.yamlload import load_yaml
from lumos.interpreter.board import Board
from lumos.diagnostics import (DiagnosticSink, LumosCheckError, Span, did_you_mean,
                                      fail)

__all__ = ["load_board", "parse_board", "board_graph", "export_json", "export_graphml",
           "export_svg"]

# Grid link generators: the offsets (dx, dy) that link a cell to a neighbour. Each
# pair is generated once; links are undirected.
GRID_GENERATORS = {
    "orthogonal": ((1, 0), (0, 1)),
    "diagonal": ((1, 1), (1, -1)),
}
DEFAULT_UNION = "adjacent"  # added when a grid has both generators and `union` is absent

TOP_KEYS = ("name", "palette", "capacity", "grid", "rings", "spaces", "links", "regions", "union", "layout")
GRID_KEYS = ("columns", "rows", "links", "legend", "map")
RING_KEYS = ("name", "count", "prefix", "link", "center", "radius", "attrs", "regions")
SPACE_KEYS = ("name", "pos", "attrs", "regions")
GRID_ATTRS = ("x", "y", "column", "row")
RING_ATTRS = ("ring", "number")
NO_SPACE = "."
MAX_BOARD_BYTES = 2_000_000   # real boards are a few KB
_COLOUR = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


def load_board(path: str | Path) -> Board:
    """Read and compile one board file.

    >>> try:
    ...     load_board("no/such/board.yaml")
    ... except LumosCheckError as error:
    ...     print(error.first.headline())
    no/such/board.yaml:1:1: B100 cannot read the board file
    """
    from lumos.compiler.named_files import RefusedFile, read_bytes
    try:
        raw = read_bytes(Path(path), MAX_BOARD_BYTES)   # a FIFO or /dev/zero is refused unread
    except RefusedFile as exc:
        missing = exc.message == "does not exist"
        fail("B100", "cannot read the board file" + ("" if missing else f": it {exc.message}"),
             Span(str(path), 1, 1), "No such file or directory" if missing else exc.hint)
    except OSError as exc:
        fail("B100", "cannot read the board file", Span(str(path), 1, 1),
             exc.strerror or "check the path")
    return parse_board(raw, str(path))


def parse_board(text: str | bytes, path: str = "<board>") -> Board:
    """Compile board YAML text; `path` is only used in error positions."""
    data = load_yaml(text, path)  # raises on bad YAML, including text that is not UTF-8
    source = text.decode("utf-8") if isinstance(text, bytes) else text
    return _Builder(path, source).build(data)


# --------------------------------------------------------------------------------------
# Describing values in the designer's words


def _describe(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text `{value}`"
    if isinstance(value, dict):
        return "a mapping"
    return f"a list of {len(value)} item{'s' * (len(value) != 1)}"


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_scalar(v: object) -> bool:
    return isinstance(v, (str, int, float, bool))


def _plain(v: object) -> object:
    """Drop YAML position data so the board pickles small and compares simply."""
    return str(v) if isinstance(v, str) else v


# --------------------------------------------------------------------------------------
# The builder: walks the YAML once, collecting diagnostics


class _Builder:
    def __init__(self, path: str, source: str):
        self.path = path
        self.source = source.splitlines()
        self.sink = DiagnosticSink()
        self.names: list[str] = []
        self.index: dict[str, int] = {}
        self.defined_at: list[tuple[int, int]] = []
        self.attrs: list[dict] = []
        self.positions: list[tuple[float, float]] = []
        self.members: dict[str, set[int]] = {}
        self.edges: dict[str, set[tuple[int, int]]] = {}
        self.generators: dict[str, str] = {}  # grid generator -> link kind
        self.grid_size: tuple[int, int] | None = None
        self.columns_text = ""
        self.reported_chars: set[str] = set()
        self.default_capacity = 1  # pieces that may stand on a space; 0 = no limit

    # -- reporting ---------------------------------------------------------------------

    def error(self, code: str, message: str, mark: tuple[int, int], hint: str = "") -> None:
        self.sink.add(code, message, Span(self.path, *mark), hint)

    def expect(self, container, key, ok, words: str, what: str, hint: str = "") -> bool:
        """Report B104 unless `ok(container[key])`."""
        value = container[key]
        if ok(value):
            return True
        self.error("B104", f"{what} must be {words}, not {_describe(value)}",
                   container.mark(key), hint or f"write {words} here")
        return False

    def keys(self, d: dict, allowed, required, what: str, mark) -> None:
        for key in d:
            if key not in allowed:
                hint = did_you_mean(str(key), allowed) or \
                    "allowed keys: " + ", ".join(f"`{k}`" for k in allowed)
                self.error("B103", f"unknown key `{key}` in {what}", d.key_mark(key), hint)
        for key in required:
            if key not in d:
                self.error("B102", f"{what} needs `{key}`", mark,
                           f"add `{key}:`; {what} has " +
                           (", ".join(f"`{k}`" for k in d) or "no keys"))

    def text(self, d: dict, key: str, what: str) -> str | None:
        if key not in d or not self.expect(d, key, lambda v: isinstance(v, str), "text", what):
            return None
        if not d[key].strip():
            self.error("B105", f"{what} must not be blank", d.mark(key), "write a name here")
            return None
        return str(d[key])

    def mapping(self, d: dict, key: str, what: str) -> dict | None:
        if key not in d:
            return None
        return d[key] if self.expect(d, key, lambda v: isinstance(v, dict),
                                     "a mapping (`key: value` lines)", what) else None

    def items(self, d: dict, key: str, what: str) -> list | None:
        if key not in d:
            return None
        return d[key] if self.expect(d, key, lambda v: isinstance(v, list),
                                     "a list (`[a, b]` or `- a` lines)", what) else None

    def names_list(self, d: dict, key: str, what: str) -> list[str]:
        """A list of names (regions, link kinds, spaces); bad items are reported."""
        items = self.items(d, key, what) or []
        return [str(x) for i, x in enumerate(items)
                if self.expect(items, i, lambda v: isinstance(v, str), "a name", f"each of {what}")]

    def attr_map(self, d: dict, key: str, what: str, reserved) -> dict:
        """Designer attributes of spaces (`colour: dark`); `regions` is taken out."""
        attrs = self.mapping(d, key, what) or {}
        out = {}
        for name, value in attrs.items():
            if name == "regions":
                continue
            if name in reserved:
                self.error("B117", f"`{name}` is set by the compiler and cannot be set in {what}",
                           attrs.key_mark(name), "use another attribute name")
            elif name == "capacity":
                if self.capacity_ok(attrs, name, f"the `capacity` in {what}"):
                    out[str(name)] = value
            elif self.expect(attrs, name, _is_scalar, "a single value (text, number, true/false)",
                             f"attribute `{name}`"):
                out[str(name)] = _plain(value)
        return out

    def capacity_ok(self, d: dict, key: str, what: str) -> bool:
        """How many pieces may stand on a space: a whole number, 0 for no limit."""
        if not self.expect(d, key, _is_int, "a whole number", what,
                           "write how many pieces may stand on the space, 0 for no limit"):
            return False
        if d[key] < 0:
            self.error("B105", f"{what} must be 0 (no limit) or more, not {d[key]}", d.mark(key),
                       "write how many pieces may stand on the space, 0 for no limit")
            return False
        return True

    # -- spaces, regions and links ----------------------------------------------------

    def add_space(self, name: str, attrs: dict, pos, regions, mark) -> None:
        if name in self.index:
            line = self.defined_at[self.index[name]][0]
            self.error("B120", f"there are two spaces named `{name}`", mark,
                       f"the first one is defined on line {line}; rename one of them")
            return
        if not name or any(c.isspace() or c == "," for c in name):
            self.error("B105", f"space name `{name}` must be one word without commas", mark,
                       "use letters, digits, `_` or `-`")
            return
        self.index[name] = len(self.names)
        self.names.append(name)
        self.defined_at.append(mark)
        self.attrs.append(attrs)
        self.positions.append((float(pos[0]), float(pos[1])))
        for region in regions:
            self.members.setdefault(region, set()).add(self.index[name])

    def link(self, a: int, b: int, kind: str) -> None:
        self.edges.setdefault(kind, set()).add((min(a, b), max(a, b)))

    def space_ref(self, container, i, what: str) -> int | None:
        """The index of the space named at container[i], or None after reporting B121."""
        if not self.expect(container, i, lambda v: isinstance(v, str), "a space name", what):
            return None
        name = container[i]
        if name in self.index:
            return self.index[name]
        self.error("B121", f"there is no space named `{name}` ({what})", container.mark(i),
                   did_you_mean(name, self.names) or "spaces come from the grid map, the "
                   "rings and `spaces`")
        return None

    # -- the whole file -----------------------------------------------------------------

    def build(self, data) -> Board:
        if not isinstance(data, dict):
            mark = getattr(data, "start", (1, 1))
            fail("B101", "a board file must be a mapping of sections"
                 if data is not None else "the board file is empty", Span(self.path, *mark),
                 "start with `name:` and add `grid:`, `rings:` or `spaces:`")
        self.keys(data, TOP_KEYS, ("name",), "the board file", data.start)
        name = self.text(data, "name", "`name`") or ""
        palette = self.palette(data)
        if "capacity" in data and self.capacity_ok(data, "capacity", "`capacity`"):
            self.default_capacity = data["capacity"]
        if self.mapping(data, "grid", "`grid`") is not None:
            self.grid(data["grid"], data.key_mark("grid"))
        for i, ring in enumerate(self.items(data, "rings", "`rings`") or []):
            if self.expect(data["rings"], i, lambda v: isinstance(v, dict), "a mapping", "a ring"):
                self.ring(ring)
        for i, space in enumerate(self.items(data, "spaces", "`spaces`") or []):
            if self.expect(data["spaces"], i, lambda v: isinstance(v, dict), "a mapping",
                           "a space"):
                self.space(space)
        # Later sections name spaces: stop here so one typo does not cascade.
        self.sink.raise_if_errors(LumosCheckError)
        if not self.names:
            self.error("B126", "the board has no spaces", data.start,
                       "add a `grid:` with a map, `rings:` or `spaces:`")
        self.explicit_links(data)
        self.regions(data)
        unions = self.unions(data)
        layout = self.layout(data, palette, unions)
        self.sink.raise_if_errors(LumosCheckError)
        return self.finish(name, palette, unions, layout)

    def layout(self, data: dict, palette: dict, unions: dict) -> dict:
        """The checked `layout:` section (how the board is drawn); {} when there is none."""
        from lumos.compiler.layout import LayoutChecker
        section = self.mapping(data, "layout", "`layout`")
        if section is None:
            return {}
        return LayoutChecker(self, palette, list(self.edges) + list(unions)).check(section, data.key_mark("layout"))

    def palette(self, data: dict) -> dict[str, str]:
        colours = self.mapping(data, "palette", "`palette`") or {}
        out = {}
        for key, value in colours.items():
            if not self.expect(colours, key, lambda v: isinstance(v, str),
                               'a colour like "#2e7d32"', f"the colour of `{key}`"):
                continue
            if not _COLOUR.fullmatch(value):
                self.error("B124", f"`{value}` is not a colour", colours.mark(key),
                           'write a hex colour in quotes, like "#2e7d32"')
                continue
            out[str(key)] = str(value)
        return out

    # -- grid -----------------------------------------------------------------------------

    def grid(self, g: dict, mark) -> None:
        self.keys(g, GRID_KEYS, ("columns", "rows", "legend", "map"), "`grid`", mark)
        columns = self.columns(g)
        rows = None
        if "rows" in g and self.expect(g, "rows", _is_int, "a whole number", "`rows`"):
            if g["rows"] < 1:
                self.error("B105", "`rows` must be at least 1", g.mark("rows"),
                           "count the lines of the map")
            else:
                rows = g["rows"]
        legend = self.legend(g)
        self.grid_links(g)
        if columns is None or rows is None or legend is None or "map" not in g:
            return
        if self.expect(g, "map", lambda v: isinstance(v, str),
                       "a text block (`map: |` then one line per row)", "`map`"):
            self.grid_size, self.columns_text = (len(columns), rows), columns
            self.grid_map(g, columns, rows, legend)

    def columns(self, g: dict) -> str | None:
        if "columns" not in g or not self.expect(g, "columns", lambda v: isinstance(v, str),
                                                 'text, one letter per column ("abcdefg")',
                                                 "`columns`"):
            return None
        cols = str(g["columns"])
        seen = set()
        for c in cols:
            if c.isspace() or c in seen:
                what = "a blank" if c.isspace() else f"`{c}` twice"
                self.error("B116", f"`columns` contains {what}", g.mark("columns"),
                           'write each column letter once, left to right, e.g. "abcdefg"')
                return None
            seen.add(c)
        if not cols:
            self.error("B105", "`columns` must name at least one column", g.mark("columns"),
                       'write one letter per column, left to right, e.g. "abcdefg"')
            return None
        return cols

    def legend(self, g: dict) -> dict | None:
        legend = self.mapping(g, "legend", "`legend`")
        if legend is None:
            return None
        out: dict = {}
        for key, entry in legend.items():
            self.reported_chars.add(str(key))  # a bad entry is reported once, not per cell
            if not isinstance(key, str) or len(key) != 1 or key.isspace():
                self.error("B110", f"legend key `{key}` must be a single character",
                           legend.key_mark(key), f'quote it if YAML reads it as a number: "{key}":')
                continue
            if key == NO_SPACE:
                self.error("B110", "`.` always means \"no space\" and cannot be in the legend",
                           legend.key_mark(key), "pick another character")
                continue
            if not self.expect(legend, key, lambda v: isinstance(v, dict),
                               "a mapping of attributes (`{colour: dark}`)", f"legend `{key}`"):
                continue
            attrs = self.attr_map(legend, key, f"legend `{key}`", GRID_ATTRS)
            regions = self.names_list(entry, "regions", "`regions`") if "regions" in entry else []
            out[key] = (attrs, regions)
            self.reported_chars.discard(key)
        return out

    def grid_links(self, g: dict) -> None:
        links = self.mapping(g, "links", "grid `links`") or {}
        for generator in links:
            if generator not in GRID_GENERATORS:
                self.error("B115", f"unknown grid link `{generator}`", links.key_mark(generator),
                           did_you_mean(str(generator), GRID_GENERATORS) or
                           "a grid links cells `orthogonal`ly or `diagonal`ly")
            elif self.text(links, generator, f"the link kind made by `{generator}`"):
                self.generators[generator] = str(links[generator])

    def map_origin(self, g: dict) -> tuple[int, int] | None:
        """The (line, col) of the map's first cell when it is a `|` block, else None."""
        value = g["map"]
        if getattr(value, "style", None) != "|":
            return None
        return (g.mark("map")[0] + 1, self._indent_of_block(g.mark("map")[0]))

    def _indent_of_block(self, header_line: int) -> int:
        # A `|` block's content is indented like its first line; YAML stripped that
        # indentation, so read it back from the source text.
        line = self.source[header_line] if header_line < len(self.source) else ""
        return len(line) - len(line.lstrip(" ")) + 1

    def grid_map(self, g: dict, columns: str, rows: int, legend: dict) -> None:
        lines = str(g["map"]).rstrip("\n").split("\n")
        origin = self.map_origin(g)

        def at(r: int, c: int) -> tuple[int, int]:
            return (origin[0] + r, origin[1] + c) if origin else g.mark("map")

        if len(lines) != rows:
            where = at(rows, 0) if origin and len(lines) > rows else g.mark("map")
            self.error("B112", f"the map has {len(lines)} lines but `rows` is {rows}", where,
                       f"write one line per row; the top line is row {rows}, the bottom row 1")
            return
        cells = {}
        for r, line in enumerate(lines):
            row = rows - r  # the top line is the highest row, so the map reads as the board looks
            for x, (char, col) in enumerate(self.map_cells(line, r, columns, at)):
                if char == NO_SPACE or char in self.reported_chars:
                    continue
                if char not in legend:
                    known = ", ".join(f"`{k}`" for k in legend) or "nothing yet"
                    self.error("B111", f"map character `{char}` is not in the legend", at(r, col),
                               f"the legend defines {known}; `.` means no space")
                    self.reported_chars.add(char)  # once per character, at its first cell
                else:
                    cells[(x, row)] = (char, at(r, col))
        for (x, row) in sorted(cells, key=lambda xy: (xy[1], xy[0])):
            char, mark = cells[(x, row)]
            attrs, regions = legend[char]
            grid_attrs = {"x": x, "y": row, "column": columns[x], "row": row}
            self.add_space(f"{columns[x]}{row}", {**attrs, **grid_attrs}, (x, row), regions, mark)
        self.grid_edges(cells)

    def map_cells(self, line: str, r: int, columns: str, at):
        """(character, column offset) of each cell on one map line; reports B113/B114."""
        line = line.rstrip()
        out, offset = [], 0
        for token in line.split(" "):
            if len(token) != 1:
                shown = f"`{token}`" if token else "two spaces in a row"
                self.error("B114", f"map cells are single characters separated by single "
                           f"spaces; found {shown}", at(r, offset),
                           "write one character per cell, e.g. `. G . G . G .`")
                return []
            out.append((token, offset))
            offset += 2
        if len(out) != len(columns):
            where = at(r, out[len(columns)][1]) if len(out) > len(columns) else at(r, 0)
            self.error("B113", f"this map line has {len(out)} cells but there are "
                       f"{len(columns)} columns ({columns})", where,
                       "every line needs one cell per column; use `.` where there is no space")
            return []
        return out

    def grid_edges(self, cells: dict) -> None:
        for generator, kind in self.generators.items():
            # a kind the grid declares exists even when it links nothing (a diagonal on a one-row
            # grid): rules may name it, and the default union reads it
            self.edges.setdefault(kind, set())
            for (x, y) in cells:
                for dx, dy in GRID_GENERATORS[generator]:
                    if (x + dx, y + dy) in cells:
                        self.link(self.cell(x, y), self.cell(x + dx, y + dy), kind)

    def cell(self, x: int, y: int) -> int:
        return self.index[f"{self.columns_text[x]}{y}"]

    # -- rings and explicit spaces -------------------------------------------------------

    def ring(self, ring: dict) -> None:
        self.keys(ring, RING_KEYS, ("name", "count", "prefix", "link"), "a ring", ring.start)
        name = self.text(ring, "name", "the ring's `name`")
        prefix = self.text(ring, "prefix", "the ring's `prefix`")
        kind = self.text(ring, "link", "the ring's `link`")
        count = None
        if "count" in ring and self.expect(ring, "count", _is_int, "a whole number", "`count`"):
            if ring["count"] < 3:
                self.error("B105", "a ring needs at least 3 spaces", ring.mark("count"),
                           "for two spaces, use `spaces:` and `links:` instead")
            else:
                count = ring["count"]
        center = self.pair(ring, "center", "the ring's `center`", self.default_center())
        radius = self.pair(ring, "radius", "the ring's `radius`", self.default_radius(),
                           positive=True)
        attrs = self.attr_map(ring, "attrs", "the ring's `attrs`", GRID_ATTRS + RING_ATTRS)
        regions = self.names_list(ring, "regions", "the ring's `regions`")
        if None in (name, prefix, kind, count, center, radius):
            return
        first = len(self.names)
        for k in range(count):
            # Numbered clockwise from the top: angle 0 is north, angles grow eastward.
            angle = 2 * math.pi * k / count
            pos = (center[0] + radius[0] * math.sin(angle), center[1] + radius[1] * math.cos(angle))
            self.add_space(f"{prefix}{k + 1}", {**attrs, "ring": name, "number": k + 1}, pos,
                           regions, ring.mark("prefix"))
        made = range(first, len(self.names))
        if len(made) == count:
            for k in made:
                self.link(k, first + (k - first + 1) % count, kind)

    def pair(self, d: dict, key: str, what: str, default, positive: bool = False):
        """Two numbers [a, b] (a single number means [n, n]); `default` when absent."""
        if key not in d:
            return default
        value = d[key]
        if _is_num(value):
            value = [value, value]
        if not (isinstance(value, list) and len(value) == 2 and all(map(_is_num, value))):
            self.error("B104", f"{what} must be two numbers like [3, 7], not {_describe(d[key])}",
                       d.mark(key), "write [x, y] in board units")
            return None
        if positive and min(value) <= 0:
            self.error("B105", f"{what} must be greater than 0", d.mark(key),
                       "radii are in board units, e.g. [6, 9]")
            return None
        return (float(value[0]), float(value[1]))

    def default_center(self) -> tuple[float, float]:
        if self.grid_size:
            return ((self.grid_size[0] - 1) / 2, (self.grid_size[1] + 1) / 2)
        return (0.0, 0.0)

    def default_radius(self) -> tuple[float, float]:
        if self.grid_size:
            return (self.grid_size[0] / 2 + 1.5, self.grid_size[1] / 2 + 1.5)
        return (3.0, 3.0)

    def space(self, space: dict) -> None:
        self.keys(space, SPACE_KEYS, ("name", "pos"), "a space", space.start)
        name = self.text(space, "name", "the space's `name`")
        pos = self.pair(space, "pos", "the space's `pos`", None)
        attrs = self.attr_map(space, "attrs", "the space's `attrs`", GRID_ATTRS + RING_ATTRS)
        regions = self.names_list(space, "regions", "the space's `regions`")
        if name is not None and pos is not None:
            self.add_space(name, attrs, pos, regions, space.mark("name"))

    # -- sections that name spaces ------------------------------------------------------

    def explicit_links(self, data: dict) -> None:
        links = self.items(data, "links", "`links`") or []
        for i, item in enumerate(links):
            if not self.expect(links, i, lambda v: isinstance(v, list) and len(v) == 3,
                               "[space, space, kind]", "a link"):
                continue
            a = self.space_ref(item, 0, "first space of a link")
            b = self.space_ref(item, 1, "second space of a link")
            kind = item[2] if self.expect(item, 2, lambda v: isinstance(v, str) and v.strip(),
                                          "a link kind name", "the link kind") else None
            if a is not None and a == b:
                self.error("B123", f"a link joins `{item[0]}` to itself", item.mark(1),
                           "a link needs two different spaces")
            elif None not in (a, b, kind):
                self.link(a, b, kind)

    def regions(self, data: dict) -> None:
        regions = self.mapping(data, "regions", "`regions`") or {}
        for region in regions:
            members = self.items(regions, region, f"region `{region}`") or []
            for i in range(len(members)):
                space = self.space_ref(members, i, f"in region `{region}`")
                if space is not None:
                    self.members.setdefault(str(region), set()).add(space)

    def unions(self, data: dict) -> dict[str, list[str]]:
        if "union" not in data:
            both = all(g in self.generators for g in GRID_GENERATORS)
            kinds = list(dict.fromkeys(self.generators[g] for g in GRID_GENERATORS)) if both else []
            return {DEFAULT_UNION: kinds} if both and DEFAULT_UNION not in self.edges else {}
        unions = self.mapping(data, "union", "`union`") or {}
        out = {}
        for union in unions:
            if union in self.edges:
                self.error("B125", f"`{union}` is already a link kind", unions.key_mark(union),
                           "give the union its own name")
                continue
            members = self.items(unions, union, f"union `{union}`") or []
            good = True
            for i, kind in enumerate(members):
                if kind not in self.edges:
                    good = False
                    self.error("B122", f"there is no link kind `{kind}` (union `{union}`)",
                               members.mark(i), did_you_mean(str(kind), self.edges) or
                               "link kinds: " + ", ".join(f"`{k}`" for k in sorted(self.edges)))
            if good:
                out[str(union)] = [str(k) for k in members]
        return out

    # -- the result ---------------------------------------------------------------------

    def finish(self, name: str, palette: dict, unions: dict, layout: dict | None = None) -> Board:
        edges = {kind: sorted(pairs) for kind, pairs in self.edges.items()}
        for union, members in unions.items():
            edges[union] = sorted(set().union(*(self.edges[m] for m in members)))
        distances = {kind: _distances(len(self.names), pairs) for kind, pairs in edges.items()}
        capacity = [a.get("capacity", self.default_capacity) for a in self.attrs]
        return Board.from_parts(name, self.names, self.attrs, edges,
                                {r: sorted(m) for r, m in self.members.items()},
                                self.positions, palette, unions, distances, capacity, layout)


def _distances(n: int, pairs) -> list[list[int]]:
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(pairs)
    table = [[-1] * n for _ in range(n)]
    for src, lengths in nx.all_pairs_shortest_path_length(graph):
        for dst, hops in lengths.items():
            table[src][dst] = hops
    return table


# --------------------------------------------------------------------------------------
# Views: networkx graph, JSON, GraphML, SVG


def board_graph(board: Board) -> nx.MultiGraph:
    """A networkx multigraph: one node per space (its attrs, `pos`, `regions`), one edge
    per link and kind (`kind` attribute; the key is the kind too). Union kinds are
    derived, so they are listed in `graph["unions"]` rather than drawn as edges.

    >>> g = board_graph(parse_board("name: t\\nrings: [{name: r, count: 3, prefix: s, link: k}]"))
    >>> sorted(g.edges(keys=True))
    [('s1', 's2', 'k'), ('s1', 's3', 'k'), ('s2', 's3', 'k')]
    """
    graph = nx.MultiGraph(name=board.name, unions={u: list(m) for u, m in board.unions.items()})
    for i, space in enumerate(board.spaces):
        graph.add_node(space, **board.attrs[i], pos=board.positions[i],
                       regions=list(board.regions_of(i)))
    for kind, pairs in _edge_pairs(board):
        for a, b in pairs:
            graph.add_edge(board.spaces[a], board.spaces[b], key=kind, kind=kind)
    return graph


def _edge_pairs(board: Board):
    """(kind, [(a, b) with a < b]) for every link kind that is not a union."""
    for kind, adjacency in board.links.items():
        if kind not in board.unions:
            yield kind, [(a, b) for a, nbrs in enumerate(adjacency) for b in nbrs if a < b]


def export_json(board: Board) -> str:
    """The board as JSON: spaces (attrs, position, regions), links by kind, regions,
    unions, palette, and capacities when a space holds more than one piece; distances are
    left out (they follow from the links)."""
    doc = {
        "name": board.name,
        "palette": dict(board.palette),
        "spaces": [{"name": s, "attrs": dict(board.attrs[i]), "pos": list(board.positions[i]),
                    "regions": list(board.regions_of(i))} for i, s in enumerate(board.spaces)],
        "links": {kind: [[board.spaces[a], board.spaces[b]] for a, b in pairs]
                  for kind, pairs in _edge_pairs(board)},
        "unions": {u: list(m) for u, m in board.unions.items()},
        "regions": {r: [board.spaces[i] for i in sorted(m)] for r, m in board.regions.items()},
    }
    if board.capacity:  # how many pieces may stand on each space (0: no limit), when not one each
        doc["capacity"] = {s: board.holds(i) for i, s in enumerate(board.spaces)}
    return json.dumps(doc, indent=2)


def _graphml_safe(value: object) -> object:
    if isinstance(value, (list, tuple, set, frozenset)):
        return ",".join(str(v) for v in (sorted(value) if isinstance(value, (set, frozenset))
                                         else value))
    return value


def export_graphml(board: Board) -> str:
    """The board graph as GraphML; lists and positions become comma-separated text."""
    graph = board_graph(board)
    safe = nx.MultiGraph(name=board.name)
    for union, members in board.unions.items():
        safe.graph[f"union_{union}"] = ",".join(members)
    for node, data in graph.nodes(data=True):
        safe.add_node(node, **{k: _graphml_safe(v) for k, v in data.items()})
    safe.add_edges_from(graph.edges(keys=True, data=True))
    return "\n".join(nx.generate_graphml(safe))


_UNIT = 40  # pixels per board unit
_MARGIN = 1.0  # board units around the drawing


def export_svg(board: Board) -> str:
    """A drawing of the board: squares for grid spaces (filled by the palette colour of
    their `colour` attribute), circles for other spaces, lines for links between non-grid
    spaces (thin and grey, or thick in the palette colour of their link kind when the
    palette names it), a small label on each space, and the board's name as a title."""
    xs = [p[0] for p in board.positions] or [0.0]
    ys = [p[1] for p in board.positions] or [0.0]
    left, top, title_h = min(xs) - _MARGIN, max(ys) + _MARGIN, 30

    def px(x: float, y: float) -> tuple[float, float]:
        return round((x - left) * _UNIT, 1), round((top - y) * _UNIT + title_h, 1)

    width = round((max(xs) - min(xs) + 2 * _MARGIN) * _UNIT, 1)
    height = round((max(ys) - min(ys) + 2 * _MARGIN) * _UNIT + title_h, 1)
    grid = set(board.cells.values())
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
           f"<title>{escape(board.name)}</title>",
           f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="16">'
           f"{escape(board.name)}</text>"]
    for kind, pairs in _edge_pairs(board):
        for a, b in pairs:
            if a in grid and b in grid:
                continue  # touching squares already show grid links
            (x1, y1), (x2, y2) = px(*board.positions[a]), px(*board.positions[b])
            # a link kind named in the palette (`water: "#4fc3f7"`) is drawn in that colour, thicker
            colour = board.palette.get(kind)
            stroke, width = (colour, 3) if colour else ("#555", 1)
            out.append(f'<line class="link" data-kind={quoteattr(kind)} x1="{x1}" y1="{y1}" '
                       f'x2="{x2}" y2="{y2}" stroke={quoteattr(stroke)} stroke-width="{width}"/>')
    for i, space in enumerate(board.spaces):
        out.append(_svg_space(board, i, space, px(*board.positions[i]), i in grid))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_space(board: Board, i: int, space: str, centre, is_cell: bool) -> str:
    x, y = centre
    fill = quoteattr(board.palette.get(str(board.attr(i, "colour")), "#cccccc"))
    name = quoteattr(space)
    if is_cell:
        half = _UNIT * 0.47
        shape = (f'<rect class="space" data-space={name} x="{x - half}" y="{y - half}" '
                 f'width="{2 * half}" height="{2 * half}" fill={fill} stroke="#1b1b1b" '
                 f'stroke-width="0.5"/>')
    else:
        shape = (f'<circle class="space" data-space={name} cx="{x}" cy="{y}" '
                 f'r="{_UNIT * 0.38}" fill={fill} stroke="#1b1b1b" stroke-width="0.5"/>')
    label = (f'<text x="{x}" y="{y + 3}" text-anchor="middle" font-size="9" fill="#ffffff">'
             f"{escape(space)}</text>")
    return shape + label
