"""A board file's `layout:` section -> checked drawing data (plain dicts), or diagnostics.

Why: a board's links say how pieces move; its layout says how the board looks (the shapes of
its spaces, decorations, tracks, marks, labels and colours), so that the drawing in the
reference, in `lumos board` and in the viewer looks like the game's own board. Everything is
checked here, with positions, so a designer learns of a clipped label or overlapping track
spaces from `lumos check`, not from a picture. Geometry is shared with the drawing through
`lumos.compiler.geometry`. Codes (besides B102-B105 and B121 for missing keys, unknown keys,
wrong types, bad values and unknown spaces):

    B140  an unknown shape (`shape:` of a decoration, a space, a track path or a mark)
    B141  a shape lacks what its kind needs, or has too little (a polygon of two points)
    B142  a colour is neither a palette name nor `#rgb` / `#rrggbb`
    B143  `links:` or `borders:` names a link kind the board does not have
    B144  two spaces of a track overlap (the path is too short for their size)
    B145  a space is given a place twice (in `spaces:` and a track, or in two tracks)
    B146  `clip:` names no convex decoration with that `name`
    B147  a space's label does not fit inside its shape
"""
from __future__ import annotations

import re

from lumos.compiler import geometry as G
from lumos.diagnostics import did_you_mean

LAYOUT_KEYS = ("unit", "background", "names", "shapes", "spaces", "default", "tracks", "marks", "labels",
               "links", "borders", "legend", "sides")
SHAPES = ("rect", "polygon", "ellipse", "circle", "line")
AREA_SHAPES = ("rect", "polygon", "ellipse", "circle")
MARK_PLACES = ("centre", "top-left", "top-right", "bottom-left", "bottom-right")
MARKS = ("dot", "ring", "square", "diamond", "triangle", "star")
STYLE_KEYS = ("fill", "stroke", "width", "dash", "opacity")
SHAPE_KEYS = ("shape", "name", "from", "to", "points", "center", "radius", "above", "clip") + STYLE_KEYS
SPACE_KEYS = ("shape", "from", "to", "points", "center", "radius", "clip", "label", "label_at", "fill")
TRACK_KEYS = ("spaces", "along", "size", "label", "closed")
ALONG_KEYS = ("shape", "center", "radius", "from", "to", "points")
MARK_KEYS = ("spaces", "shape", "colour", "size", "legend", "at")
LABEL_KEYS = ("text", "at", "size", "colour", "rotate", "bold")
LINK_STYLE_KEYS = ("colour", "width", "dash", "hidden", "curve")
BORDER_KEYS = ("colour", "width")
LEGEND_KEYS = ("colour", "mark", "text")
NAMES = ("all", "shaped", "none")
NO_LINK = "none"   # `borders: {none: ...}`: touching spaces that no link joins (a wall)
_HEX = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


def _is_num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def humanise(name: str) -> str:
    """A space's name as a label: `north_gate` -> `north gate`."""
    return name.replace("_", " ")


class LayoutChecker:
    """Checks one `layout:` mapping with the board builder's reporting helpers and names."""

    def __init__(self, builder, palette: dict, link_kinds):
        self.b = builder
        self.palette = palette
        self.kinds = set(link_kinds)
        self.named_shapes: dict[str, list] = {}
        self.placed: dict[str, str] = {}       # space -> where it got its place
        self.unit = 40.0

    # -- small values ---------------------------------------------------------------------

    def colour(self, d: dict, key: str, what: str) -> str | None:
        if key not in d:
            return None
        value = d[key]
        if isinstance(value, str) and value in self.palette:
            return self.palette[value]
        if isinstance(value, str) and _HEX.fullmatch(value):
            return str(value)
        names = ", ".join(f"`{k}`" for k in self.palette) or "none yet"
        self.b.error("B142", f"{what} `{value}` is neither a palette colour nor a hex colour", d.mark(key),
                     f'palette colours: {names}; or write a hex colour in quotes, like "#2e7d32"')
        return None

    def number(self, d: dict, key: str, what: str, default=None, positive=True):
        if key not in d:
            return default
        if not self.b.expect(d, key, lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
                             "a number", what):
            return default
        if positive and d[key] <= 0:
            self.b.error("B105", f"{what} must be greater than 0", d.mark(key), "write a positive number")
            return default
        return float(d[key])

    def flag(self, d: dict, key: str, what: str) -> bool:
        return key in d and self.b.expect(d, key, lambda v: isinstance(v, bool), "`true` or `false`", what) \
            and bool(d[key])

    def point(self, d: dict, key: str, what: str):
        value = self.b.pair(d, key, what, None) if key in d else None
        return [value[0], value[1]] if value else None

    def points(self, d: dict, key: str, what: str, least: int):
        items = self.b.items(d, key, what)
        if items is None:
            return None
        out = []
        for i, p in enumerate(items):
            if not (isinstance(p, list) and len(p) == 2 and all(_is_num(v) for v in p)):
                self.b.error("B104", f"each point of {what} must be two numbers like [3, 7]", items.mark(i),
                             "write [x, y] in board units")
                return None
            out.append([float(p[0]), float(p[1])])
        if len(out) < least:
            self.b.error("B141", f"{what} needs at least {least} points, not {len(out)}", d.mark(key),
                         "write one [x, y] per corner")
            return None
        return out

    def text(self, d: dict, key: str, what: str):
        if key not in d:
            return None
        if not self.b.expect(d, key, lambda v: isinstance(v, (str, int, float)) and not isinstance(v, bool),
                             "text", what):
            return None
        return str(d[key])

    # -- shapes ---------------------------------------------------------------------------

    def geometry(self, d: dict, what: str, allowed=SHAPES) -> dict | None:
        """The shape kind and its geometry from `d` (rect from/to, polygon or line points,
        ellipse or circle center/radius), or None after reporting."""
        if "shape" not in d:
            self.b.error("B102", f"{what} needs `shape`", d.start, "one of " + ", ".join(f"`{s}`" for s in allowed))
            return None
        kind = d["shape"]
        if kind not in allowed:
            self.b.error("B140", f"unknown shape `{kind}` for {what}", d.mark("shape"),
                         did_you_mean(str(kind), allowed) or "shapes: " + ", ".join(f"`{s}`" for s in allowed))
            return None
        need = {"rect": ("from", "to"), "polygon": ("points",), "line": ("points",),
                "ellipse": ("center", "radius"), "circle": ("center", "radius")}[kind]
        missing = [k for k in need if k not in d]
        if missing:
            self.b.error("B141", f"a `{kind}` needs `{'` and `'.join(missing)}` ({what})", d.mark("shape"),
                         {"rect": "write its corners: `from: [x, y]` and `to: [x, y]`",
                          "polygon": "write its corners: `points: [[x, y], ...]`",
                          "line": "write its points: `points: [[x, y], [x, y]]`"}.get(
                             kind, "write `center: [x, y]` and `radius: r` (or `[rx, ry]`)"))
            return None
        out = {"shape": str(kind)}
        if kind == "rect":
            a, b = self.point(d, "from", "`from`"), self.point(d, "to", "`to`")
            if a is None or b is None:
                return None
            out["from"] = [min(a[0], b[0]), min(a[1], b[1])]
            out["to"] = [max(a[0], b[0]), max(a[1], b[1])]
            if out["from"][0] == out["to"][0] or out["from"][1] == out["to"][1]:
                self.b.error("B141", f"this rect has no area ({what})", d.mark("to"),
                             "`from` and `to` are opposite corners")
                return None
        elif kind in ("polygon", "line"):
            pts = self.points(d, "points", f"the {kind}'s `points`", 3 if kind == "polygon" else 2)
            if pts is None:
                return None
            out["points"] = pts
        else:
            center = self.point(d, "center", "`center`")
            radius = self.b.pair(d, "radius", "`radius`", None, positive=True)
            if center is None or radius is None:
                return None
            out["center"], out["radius"] = center, [radius[0], radius[1]]
        return out

    def style(self, d: dict, what: str) -> dict:
        out = {"fill": self.colour(d, "fill", f"the fill of {what}"),
               "stroke": self.colour(d, "stroke", f"the stroke of {what}"),
               "width": self.number(d, "width", "`width`", 1.0),
               "dash": self.flag(d, "dash", "`dash`"),
               "opacity": self.number(d, "opacity", "`opacity`", 1.0)}
        return out

    def clipped(self, d: dict, shape: dict, what: str) -> list | None:
        """The outline of an area shape, cut to the named decoration when `clip:` says so."""
        poly = G.outline(shape)
        if "clip" not in d:
            return poly
        name = d["clip"]
        window = self.named_shapes.get(name) if isinstance(name, str) else None
        if window is None:
            named = ", ".join(f"`{k}`" for k in self.named_shapes) or "none"
            self.b.error("B146", f"`clip: {name}` names no convex decoration ({what})", d.mark("clip"),
                         f"give a convex decoration of `shapes:` a `name:` first; named: {named}")
            return None
        cut = G.clip(poly, window)
        if len(cut) < 3 or G.area(cut) < 1e-9:
            self.b.error("B141", f"{what} lies outside `{name}`, so nothing of it is left", d.mark("clip"),
                         "move the shape inside the one it is clipped to")
            return None
        return cut

    # -- sections -------------------------------------------------------------------------

    def check(self, layout: dict, mark) -> dict:
        b = self.b
        b.keys(layout, LAYOUT_KEYS, (), "`layout`", mark)
        self.unit = self.number(layout, "unit", "`unit` (pixels per board unit)", 40.0)
        names = layout.get("names", "all")
        if names not in NAMES:
            b.error("B105", f"`names` must be one of {', '.join(NAMES)}, not `{names}`", layout.mark("names"),
                    "`all`: every space's name; `shaped`: only spaces the layout shapes; `none`")
            names = "all"
        out = {"unit": self.unit, "background": self.colour(layout, "background", "the background"),
               "names": str(names)}
        out["shapes"] = [s for s in self.each(layout, "shapes", "a decoration", self.decoration) if s]
        out["default"] = self.default(layout)
        out["spaces"] = self.spaces(layout)
        out["tracks"] = [t for t in self.each(layout, "tracks", "a track", self.track) if t]
        out["marks"] = [m for m in self.each(layout, "marks", "a mark", self.mark) if m]
        out["labels"] = [x for x in self.each(layout, "labels", "a label", self.label) if x]
        out["links"] = self.link_styles(layout)
        out["borders"] = self.borders(layout)
        out["legend"] = [x for x in self.each(layout, "legend", "a legend entry", self.legend_entry) if x]
        out["sides"] = [c for c in self.each(layout, "sides", "a side's colour", None) if c]
        return out

    def each(self, layout: dict, key: str, what: str, check):
        items = self.b.items(layout, key, f"`{key}`") or []
        for i, item in enumerate(items):
            if check is None:   # a list of colours
                yield self.colour(items, i, what)
            elif self.b.expect(items, i, lambda v: isinstance(v, dict), "a mapping", what):
                yield check(item)

    def decoration(self, d: dict) -> dict | None:
        self.b.keys(d, SHAPE_KEYS, ("shape",), "a decoration", d.start)
        shape = self.geometry(d, "a decoration")
        if shape is None:
            return None
        out = {**shape, **self.style(d, "a decoration"), "above": self.flag(d, "above", "`above`")}
        if shape["shape"] != "line":
            poly = self.clipped(d, shape, "a decoration")
            if poly is None:
                return None
            out["outline"] = [list(p) for p in poly]
        if "name" in d:
            name = self.b.text(d, "name", "the decoration's `name`")
            if name and shape["shape"] != "line" and G.is_convex(G.outline(shape)):
                self.named_shapes[name] = G.outline(shape)
        return out

    def default(self, layout: dict) -> dict:
        d = self.b.mapping(layout, "default", "`default`")
        if d is None:
            return {"shape": "auto", "size": [0.94, 0.94]}
        self.b.keys(d, ("shape", "size"), (), "`default`", layout.mark("default"))
        kind = d.get("shape", "auto")
        if kind not in ("auto", "circle", "rect"):
            self.b.error("B140", f"unknown shape `{kind}` for `default`", d.mark("shape"),
                         "`rect`, `circle`, or `auto` (squares for grid cells, circles for the rest)")
            kind = "auto"
        size = self.b.pair(d, "size", "`size`", (0.94, 0.94), positive=True) or (0.94, 0.94)
        return {"shape": str(kind), "size": [size[0], size[1]]}

    def space_name(self, container, key, what: str) -> str | None:
        """A space named by a mapping key or list item; B121 when the board has none."""
        name = str(key) if isinstance(container, dict) else container[key]
        if isinstance(name, str) and name in self.b.index:
            return str(name)
        mark = container.key_mark(key) if isinstance(container, dict) else container.mark(key)
        self.b.error("B121", f"there is no space named `{name}` ({what})", mark,
                     did_you_mean(str(name), self.b.names) or "spaces come from the grid map, the rings and `spaces`")
        return None

    def place(self, space: str, where: str, mark) -> bool:
        if space in self.placed:
            self.b.error("B145", f"`{space}` is placed twice: in {self.placed[space]} and in {where}", mark,
                         "give each space one shape: in `spaces:` or in one track")
            return False
        self.placed[space] = where
        return True

    def spaces(self, layout: dict) -> dict:
        table = self.b.mapping(layout, "spaces", "layout `spaces`") or {}
        out = {}
        for key, d in table.items():
            name = self.space_name(table, key, "layout `spaces`")
            if name is None or not self.b.expect(table, key, lambda v: isinstance(v, dict), "a mapping",
                                                 f"the layout of `{name}`"):
                continue
            self.b.keys(d, SPACE_KEYS, (), f"the layout of `{name}`", table.key_mark(key))
            entry = {"label": self.text(d, "label", "`label`"), "fill": self.colour(d, "fill", "`fill`")}
            if "shape" in d:
                shape = self.geometry(d, f"space `{name}`", AREA_SHAPES)
                poly = self.clipped(d, shape, f"space `{name}`") if shape else None
                if poly is None or not self.place(name, "layout `spaces`", table.key_mark(key)):
                    continue
                entry["outline"] = [list(p) for p in poly]
                at = self.point(d, "label_at", "`label_at`") or list(G.centroid(poly))
                entry["label_at"] = at
                text = entry["label"] if entry["label"] is not None else humanise(name)
                if G.fit_label(text, poly, at, self.unit) is None:
                    self.b.error("B147", f"the label `{text}` does not fit inside the shape of `{name}`",
                                 d.mark("label") if "label" in d else table.key_mark(key),
                                 "make the shape larger, move `label_at`, or write a shorter `label`")
                    continue
            out[name] = entry
        return out

    def track(self, d: dict) -> dict | None:
        self.b.keys(d, TRACK_KEYS, ("spaces", "along"), "a track", d.start)
        names = []
        for i in range(len(self.b.items(d, "spaces", "the track's `spaces`") or [])):
            names.append(self.space_name(d["spaces"], i, "a track"))
        along = self.b.mapping(d, "along", "the track's `along`")
        size = self.number(d, "size", "the track's `size`", 0.35)
        label = d.get("label", "number")
        if label not in ("number", "name", "none"):
            self.b.error("B105", f"a track's `label` is `number`, `name` or `none`, not `{label}`", d.mark("label"),
                         "`number`: 1, 2, 3 ... along the track")
            label = "number"
        if along is None or None in names or not names:
            return None
        self.b.keys(along, ALONG_KEYS, ("shape",), "the track's `along`", d.mark("along"))
        path = self.geometry(along, "the track's `along`", ("ellipse", "circle", "line"))
        if path is None:
            return None
        for k in ("from", "to"):
            if k in along and path["shape"] != "line":
                path[k] = self.number(along, k, f"`{k}` (degrees clockwise from north)", 0.0, positive=False)
        closed = self.flag(d, "closed", "`closed`")
        centres = G.spread(G.path_points(path), len(names), closed)
        gap, i, j = G.closest_pair(centres)
        if gap < 2 * size:
            self.b.error("B144", f"track spaces `{names[i]}` and `{names[j]}` overlap: their centres are "
                         f"{gap:.2f} apart and each is {2 * size:.2f} wide", d.mark("size") if "size" in d
                         else d.mark("along"), "make the path longer or the `size` smaller")
            return None
        for i, name in enumerate(names):
            self.place(name, "a track", d["spaces"].mark(i))
        return {"spaces": names, "centres": [list(c) for c in centres], "size": size, "label": str(label)}

    def mark(self, d: dict) -> dict | None:
        self.b.keys(d, MARK_KEYS, ("spaces", "shape"), "a mark", d.start)
        items = self.b.items(d, "spaces", "the mark's `spaces`") or []
        names = [self.space_name(items, i, "a mark") for i in range(len(items))]
        kind = d.get("shape")
        if kind not in MARKS:
            if "shape" in d:
                self.b.error("B140", f"unknown mark `{kind}`", d.mark("shape"),
                             did_you_mean(str(kind), MARKS) or "marks: " + ", ".join(f"`{m}`" for m in MARKS))
            return None
        at = d.get("at", "centre")
        if at not in MARK_PLACES:
            self.b.error("B105", f"a mark's `at` is one of {', '.join(MARK_PLACES)}, not `{at}`", d.mark("at"),
                         "`centre`, or a corner of the space such as `top-left`")
            at = "centre"
        if None in names:
            return None
        return {"spaces": names, "shape": str(kind), "colour": self.colour(d, "colour", "the mark's colour") or "#ffffff",
                "size": self.number(d, "size", "the mark's `size`", 0.18), "legend": self.text(d, "legend", "`legend`"),
                "at": str(at)}

    def label(self, d: dict) -> dict | None:
        self.b.keys(d, LABEL_KEYS, ("text", "at"), "a label", d.start)
        text, at = self.text(d, "text", "the label's `text`"), self.point(d, "at", "the label's `at`")
        if text is None or at is None:
            return None
        return {"text": text, "at": at, "size": self.number(d, "size", "the label's `size`", 12.0),
                "colour": self.colour(d, "colour", "the label's colour") or "#212121",
                "rotate": self.number(d, "rotate", "`rotate`", 0.0, positive=False),
                "bold": self.flag(d, "bold", "`bold`")}

    def kind_key(self, table: dict, key, what: str, extra=()) -> bool:
        if key in self.kinds or key in extra:
            return True
        self.b.error("B143", f"there is no link kind `{key}` ({what})", table.key_mark(key),
                     did_you_mean(str(key), sorted(self.kinds) + list(extra)) or
                     "link kinds: " + ", ".join(f"`{k}`" for k in sorted(self.kinds)))
        return False

    def link_styles(self, layout: dict) -> dict:
        table = self.b.mapping(layout, "links", "layout `links`") or {}
        out = {}
        for kind, d in table.items():
            if not self.kind_key(table, kind, "layout `links`"):
                continue
            if d == "hidden":
                out[str(kind)] = {"hidden": True}
                continue
            if not self.b.expect(table, kind, lambda v: isinstance(v, dict), "`hidden` or a mapping",
                                 f"the style of `{kind}` links"):
                continue
            self.b.keys(d, LINK_STYLE_KEYS, (), f"the style of `{kind}` links", table.key_mark(kind))
            out[str(kind)] = {"hidden": self.flag(d, "hidden", "`hidden`"),
                              "colour": self.colour(d, "colour", "the link colour"),
                              "width": self.number(d, "width", "`width`", 2.0), "dash": self.flag(d, "dash", "`dash`"),
                              "curve": self.number(d, "curve", "`curve`", 0.0, positive=False)}
        return out

    def borders(self, layout: dict) -> dict:
        table = self.b.mapping(layout, "borders", "layout `borders`") or {}
        out = {}
        for kind, d in table.items():
            if not self.kind_key(table, kind, "layout `borders`", (NO_LINK,)):
                continue
            if not self.b.expect(table, kind, lambda v: isinstance(v, dict), "a mapping", f"the border `{kind}`"):
                continue
            self.b.keys(d, BORDER_KEYS, ("colour",), f"the border `{kind}`", table.key_mark(kind))
            colour = self.colour(d, "colour", "the border colour")
            if colour:
                out[str(kind)] = {"colour": colour, "width": self.number(d, "width", "`width`", 2.0)}
        return out

    def legend_entry(self, d: dict) -> dict | None:
        self.b.keys(d, LEGEND_KEYS, ("text",), "a legend entry", d.start)
        mark = d.get("mark")
        if mark is not None and mark not in MARKS + ("line", "swatch"):
            self.b.error("B140", f"unknown mark `{mark}` in the legend", d.mark("mark"),
                         "marks: " + ", ".join(f"`{m}`" for m in MARKS + ("line", "swatch")))
            return None
        text = self.text(d, "text", "the legend's `text`")
        return {"text": text, "colour": self.colour(d, "colour", "the legend colour") or "#9e9e9e",
                "mark": str(mark or "swatch")} if text else None
