"""A compiled board (+ its layout, + optionally a position) -> an SVG picture (and PNG bytes).

Why one module: the rules reference, `lumos board --format svg|png` and the browser viewer
all show the same board, drawn here from the compiled board's checked `layout:` (shapes of
spaces, decorations, tracks, marks, labels, colours; see docs/language.md, "How the board is
drawn"). A board without a layout is drawn from its positions: squares for grid cells,
circles for the rest. With a position, each piece is drawn where it stands. Nothing here
knows a game: every word and colour comes from the board file and the compiled game.

The SVG is plain and stable, so tests and the viewer can read it: every space is a
``<g class="space" data-space=NAME>``, its name a ``<text class="space-label">``, every
piece a ``<g class="piece" data-piece=NAME data-space=SPACE>``.

>>> from lumos.compiler.boards import parse_board
>>> svg = render_svg(parse_board("name: t\\nrings: [{name: r, count: 3, prefix: s, link: k}]"))
>>> svg.count('class="space"')
3
"""
from __future__ import annotations

import math
import re
from xml.sax.saxutils import escape, quoteattr

from lumos.compiler import geometry as G
from lumos.compiler.layout import humanise

__all__ = ["render_svg", "render_png", "PngUnavailable", "piece_label"]

SIDE_COLOURS = ("#c62828", "#1565c0", "#f9a825", "#6a1b9a", "#00838f")
NEUTRAL = "#fafafa"
TITLE_H = 34          # pixels above the board for its name
MARGIN = 0.6          # board units around the drawing
DEFAULT_FILL = "#cfd8dc"
MAX_PIECE_PX = 15.0   # the largest piece radius, in pixels


class PngUnavailable(RuntimeError):
    """PNG output needs the optional `cairosvg` package (the `png` extra) and the cairo library."""


# ---------------------------------------------------------------- public entry points


def render_svg(cg, position=None, *, title: bool = True) -> str:
    """The board of a compiled game (or a bare `Board`) as SVG text.

    `position`: what `GameState.position()` writes (a mapping with `pieces`), or a `GameState`;
    each piece that stands on a space is drawn there, a carried piece beside its carrier.
    """
    board = getattr(cg, "board", cg)
    pieces = _pieces(cg, position) if position is not None and hasattr(cg, "pieces") else []
    return _Drawing(board, getattr(cg, "sides", ()), pieces, title).svg()


def render_png(cg, position=None, *, scale: float = 1.0) -> bytes:
    """The same picture as PNG bytes (needs cairosvg: ``pip install lumos-games[png]``)."""
    try:
        import cairosvg
    except (ImportError, OSError) as exc:   # OSError: the package is there, the cairo library is not
        raise PngUnavailable(f"PNG output needs the `cairosvg` package and the cairo library ({exc}); "
                             "install it with `pip install lumos-games[png]`, or write SVG") from None
    return cairosvg.svg2png(bytestring=render_svg(cg, position).encode("utf-8"), scale=scale)


def piece_label(name: str, kind: str, side: int) -> str:
    """The letters drawn on a piece: its kind's initial and number (`red runner 2` -> `R2`), or
    a neutral piece's initials (`big_stone` -> `BS`, `ball` -> `B`).

    >>> piece_label("red runner 2", "runner", 0), piece_label("big_stone", "big_stone", -1)
    ('R2', 'BS')
    """
    words = [w for w in re.split(r"[ _]+", name) if w]
    number = words[-1] if words and words[-1].isdigit() else ""
    if side >= 0:
        return kind[:1].upper() + number
    letters = "".join(w[0] for w in words if not w.isdigit()).upper()[:2]
    return letters + number


def _pieces(cg, position) -> list[tuple]:
    """(name, side, kind, where) for every piece the position puts on the board; `where` is
    a space name, or ("carried", carrier) for a carried piece."""
    if hasattr(position, "position"):
        position = position.position()
    placed = (position or {}).get("pieces") or {}
    out = []
    for info in cg.pieces:
        where = placed.get(info.name)
        if isinstance(where, dict) and where.get("carried_by"):
            out.append((info.name, info.side, info.kind, ("carried", where["carried_by"])))
        elif isinstance(where, str) and where in cg.board.index:
            out.append((info.name, info.side, info.kind, where))
    return out


# ---------------------------------------------------------------- small helpers


def _luminance(colour: str) -> float:
    h = colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    r, g, b = (int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _ink(fill: str | None) -> str:
    """Text colour that reads on `fill`."""
    return "#ffffff" if fill and _luminance(fill) < 0.45 else "#1b1b1b"


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


class _Drawing:
    """One picture: collects SVG elements in drawing order."""

    def __init__(self, board, sides, pieces, title: bool):
        self.board, self.sides, self.pieces, self.title = board, tuple(sides), pieces, title
        self.layout = board.layout or {}
        self.unit = float(self.layout.get("unit", 40.0))
        self.grid = set(board.cells.values())
        self.shapes = self._space_shapes()
        self.left, self.bottom, self.right, self.top = self._bounds()
        self.out: list[str] = []

    # -- geometry of every space -------------------------------------------------------

    def _space_shapes(self) -> dict[int, dict]:
        """space -> {"kind": outline|circle|rect, "poly": [...], "centre": (x, y), "r": ...}"""
        b, lay = self.board, self.layout
        default = lay.get("default", {"shape": "auto", "size": [0.94, 0.94]})
        out = {}
        for i, name in enumerate(b.spaces):
            x, y = b.positions[i]
            kind = default["shape"]
            if kind == "auto":
                kind = "rect" if i in self.grid else "circle"
            w, h = default["size"]
            if kind == "rect":
                poly = [(x - w / 2, y - h / 2), (x + w / 2, y - h / 2), (x + w / 2, y + h / 2), (x - w / 2, y + h / 2)]
                out[i] = {"kind": "rect", "poly": poly, "centre": (x, y), "rect": (x - w / 2, y - h / 2, w, h)}
            else:
                r = min(w, h) * 0.4
                out[i] = {"kind": "circle", "centre": (x, y), "r": r,
                          "poly": G.outline({"shape": "circle", "center": [x, y], "radius": r})}
        for track in lay.get("tracks", []):
            for k, (name, c) in enumerate(zip(track["spaces"], track["centres"])):
                r = track["size"]
                out[b.index[name]] = {"kind": "circle", "centre": tuple(c), "r": r, "track": track, "number": k + 1,
                                      "poly": G.outline({"shape": "circle", "center": c, "radius": r})}
        for name, entry in lay.get("spaces", {}).items():
            i = b.index[name]
            if "outline" in entry:
                poly = [tuple(p) for p in entry["outline"]]
                out[i] = {"kind": "outline", "poly": poly, "centre": tuple(entry["label_at"])}
            out[i]["label"] = entry.get("label")
            out[i]["fill"] = entry.get("fill")
        return out

    def _bounds(self):
        xs, ys = [], []
        for s in self.shapes.values():
            xs += [p[0] for p in s["poly"]]
            ys += [p[1] for p in s["poly"]]
        for d in self.layout.get("shapes", []):
            pts = d.get("outline") or d.get("points") or []
            xs += [p[0] for p in pts]
            ys += [p[1] for p in pts]
        for lab in self.layout.get("labels", []):
            half = G.text_width(lab["text"], lab["size"]) / 2 / self.unit
            xs += [lab["at"][0] - half, lab["at"][0] + half] if not lab["rotate"] else [lab["at"][0]]
            ys += [lab["at"][1]] if not lab["rotate"] else [lab["at"][1] - half, lab["at"][1] + half]
        xs, ys = xs or [0.0], ys or [0.0]
        return min(xs) - MARGIN, min(ys) - MARGIN, max(xs) + MARGIN, max(ys) + MARGIN

    def px(self, x: float, y: float) -> tuple[float, float]:
        return (round((x - self.left) * self.unit, 1), round((self.top - y) * self.unit + self.title_h, 1))

    @property
    def title_h(self) -> int:
        return TITLE_H if self.title else 4

    def points(self, poly) -> str:
        return " ".join(f"{_num(a)},{_num(b)}" for a, b in (self.px(*p) for p in poly))

    def fill_of(self, i: int) -> str:
        s = self.shapes[i]
        if s.get("fill"):
            return s["fill"]
        return self.board.palette.get(str(self.board.attr(i, "colour")), DEFAULT_FILL)

    # -- the picture ----------------------------------------------------------------------

    def svg(self) -> str:
        width = round((self.right - self.left) * self.unit, 1)
        legend = self._legend_items()
        legend_h = self._legend_height(legend, width)
        height = round((self.top - self.bottom) * self.unit + self.title_h + legend_h, 1)
        o = self.out
        o.append(f'<svg xmlns="http://www.w3.org/2000/svg" class="lumos-board" width="{_num(width)}" '
                 f'height="{_num(height)}" viewBox="0 0 {_num(width)} {_num(height)}" '
                 f'font-family="DejaVu Sans, Verdana, sans-serif">')
        o.append(f"<title>{escape(self.board.name)}</title>")
        o.append(f'<rect class="background" x="0" y="0" width="{_num(width)}" height="{_num(height)}" '
                 f'fill={quoteattr(self.layout.get("background") or "#ffffff")}/>')
        if self.title:
            ink = _ink(self.layout.get("background") or "#ffffff")
            o.append(f'<text class="board-title" x="{_num(width / 2)}" y="23" text-anchor="middle" '
                     f'font-size="17" font-weight="bold" fill="{ink}">{escape(self.board.name)}</text>')
        self._decorations(above=False)
        for i in range(len(self.board.spaces)):
            self._space(i)
        self._borders()
        self._links()
        self._marks()
        self._decorations(above=True)
        for i in range(len(self.board.spaces)):
            self._space_label(i)
        self._labels()
        self._draw_pieces()
        self._legend(legend, width, height - legend_h)
        o.append("</svg>")
        return "\n".join(o) + "\n"

    def _style(self, d: dict, fill_default="none") -> str:
        fill = d.get("fill") or fill_default
        stroke = d.get("stroke")
        out = f'fill={quoteattr(fill)}'
        if d.get("opacity", 1.0) != 1.0:
            out += f' fill-opacity="{_num(d["opacity"])}"'
        if stroke:
            out += f' stroke={quoteattr(stroke)} stroke-width="{_num(d.get("width", 1.0))}"'
            if d.get("dash"):
                out += ' stroke-dasharray="6 4"'
        return out

    def _decorations(self, above: bool) -> None:
        for d in self.layout.get("shapes", []):
            if d["above"] != above:
                continue
            if d["shape"] == "line":
                self.out.append(f'<polyline class="decoration" points="{self.points(d["points"])}" '
                                f'{self._style({**d, "fill": None})} stroke-linecap="round"/>')
            else:
                self.out.append(f'<polygon class="decoration" points="{self.points(d["outline"])}" {self._style(d)}/>')

    # -- links and borders --------------------------------------------------------------

    def _touching(self, a: int, b: int):
        """The shared edge of two rect spaces that touch, as two points, or None."""
        sa, sb = self.shapes[a], self.shapes[b]
        if sa["kind"] != "rect" or sb["kind"] != "rect":
            return None
        (ax, ay, aw, ah), (bx, by, bw, bh) = sa["rect"], sb["rect"]
        gap = 0.12   # squares drawn a little smaller than their cells still touch
        # (edge of the first, facing edge of the second, the first's extent along it, the second's)
        for near, far, span_a, span_b, vertical in (
                (ax + aw, bx, (ay, ay + ah), (by, by + bh), True),
                (bx + bw, ax, (by, by + bh), (ay, ay + ah), True),
                (ay + ah, by, (ax, ax + aw), (bx, bx + bw), False),
                (by + bh, ay, (bx, bx + bw), (ax, ax + aw), False)):
            lo, hi = max(span_a[0], span_b[0]), min(span_a[1], span_b[1])
            if 0 <= far - near <= gap and hi - lo > 1e-6:
                mid = (near + far) / 2
                return ((mid, lo), (mid, hi)) if vertical else ((lo, mid), (hi, mid))
        return None

    def _edges(self):
        """(kind, a, b) of every drawn link kind (unions are made of the others)."""
        for kind, adjacency in self.board.links.items():
            if kind in self.board.unions:
                continue
            for a, nbrs in enumerate(adjacency):
                for b in nbrs:
                    if a < b:
                        yield kind, a, b

    def _links(self) -> None:
        styles = self.layout.get("links", {})
        borders = self.layout.get("borders", {})
        for kind, a, b in self._edges():
            style = styles.get(kind, {})
            if style.get("hidden") or (a in self.grid and b in self.grid and not style):
                continue
            if kind in borders and self._touching(a, b):
                continue   # drawn as a border
            colour = style.get("colour") or self.board.palette.get(kind)
            stroke, width = (colour, style.get("width", 3)) if colour else ("#607d8b", style.get("width", 1.2))
            (x1, y1), (x2, y2) = self._trimmed(a, b)
            dash = ' stroke-dasharray="7 5"' if style.get("dash") else ""
            curve = style.get("curve", 0.0)
            if curve:
                mx, my = (x1 + x2) / 2 - (y2 - y1) * curve, (y1 + y2) / 2 + (x2 - x1) * curve
                path = f"M {x1} {y1} Q {_num(mx)} {_num(my)} {x2} {y2}"
            else:
                path = f"M {x1} {y1} L {x2} {y2}"
            self.out.append(f'<path class="link" data-kind={quoteattr(kind)} d="{path}" fill="none" '
                            f'stroke={quoteattr(stroke)} stroke-width="{_num(width)}"{dash} stroke-linecap="round"/>')

    def _exit(self, i: int, dx: float, dy: float) -> float:
        """How far (board units) from space i's centre a line in direction (dx, dy) leaves it."""
        s = self.shapes[i]
        if s["kind"] == "circle":
            return s["r"]
        if s["kind"] == "rect":
            _, _, w, h = s["rect"]
            return min(w / 2 / abs(dx) if dx else math.inf, h / 2 / abs(dy) if dy else math.inf)
        return 0.0

    def _trimmed(self, a: int, b: int):
        """A link's ends in pixels, cut back to the edges of the two spaces it joins."""
        (ax, ay), (bx, by) = self.shapes[a]["centre"], self.shapes[b]["centre"]
        length = math.hypot(bx - ax, by - ay) or 1.0
        dx, dy = (bx - ax) / length, (by - ay) / length
        ta, tb = self._exit(a, dx, dy), self._exit(b, dx, dy)
        if ta + tb >= length:
            ta = tb = 0.0
        return (self.px(ax + dx * ta, ay + dy * ta), self.px(bx - dx * tb, by - dy * tb))

    def _borders(self) -> None:
        borders = self.layout.get("borders", {})
        if not borders:
            return
        linked: dict[tuple[int, int], str] = {}
        for kind, a, b in self._edges():
            if kind in borders:
                linked[(a, b)] = kind
            else:
                linked.setdefault((a, b), "")
        rects = [i for i, s in self.shapes.items() if s["kind"] == "rect"]
        for n, a in enumerate(rects):
            for b in rects[n + 1:]:
                pair = (min(a, b), max(a, b))
                kind = linked.get(pair, "none")
                if kind == "" or kind not in borders:
                    continue
                edge = self._touching(a, b)
                if edge:
                    (x1, y1), (x2, y2) = self.px(*edge[0]), self.px(*edge[1])
                    st = borders[kind]
                    self.out.append(f'<line class="border" data-kind={quoteattr(kind)} x1="{x1}" y1="{y1}" '
                                    f'x2="{x2}" y2="{y2}" stroke={quoteattr(st["colour"])} '
                                    f'stroke-width="{_num(st["width"])}" stroke-linecap="round"/>')

    # -- spaces --------------------------------------------------------------------------

    def _space(self, i: int) -> None:
        s, name = self.shapes[i], self.board.spaces[i]
        fill = quoteattr(self.fill_of(i))
        if s["kind"] == "circle":
            (cx, cy), r = self.px(*s["centre"]), s["r"] * self.unit
            shape = f'<circle cx="{cx}" cy="{cy}" r="{_num(r)}" fill={fill} stroke="#1b1b1b" stroke-width="0.8"/>'
        elif s["kind"] == "rect":
            x, y, w, h = s["rect"]
            (px, py) = self.px(x, y + h)
            shape = (f'<rect x="{px}" y="{py}" width="{_num(w * self.unit)}" height="{_num(h * self.unit)}" '
                     f'fill={fill} stroke="#1b1b1b" stroke-width="0.6"/>')
        else:
            shape = f'<polygon points="{self.points(s["poly"])}" fill={fill} stroke="#ffffff" stroke-width="2"/>'
        self.out.append(f'<g class="space" data-space={quoteattr(name)}><title>{escape(name)}</title>{shape}</g>')

    def _space_label(self, i: int) -> None:
        s, name = self.shapes[i], self.board.spaces[i]
        mode = self.layout.get("names", "all")
        shaped = s["kind"] == "outline" or s.get("label") is not None
        if mode == "none" or (mode == "shaped" and not shaped and "track" not in s):
            return
        if "track" in s:
            how = s["track"]["label"]
            if how == "none":
                return
            text = str(s["number"]) if how == "number" else humanise(name)
        else:
            text = s["label"] if s.get("label") is not None else (name if i in self.grid else humanise(name))
        ink = _ink(self.fill_of(i))
        at = s["centre"]
        if s["kind"] == "rect" and not shaped:   # a grid cell: its name small in the top-left corner
            x, y, w, h = s["rect"]
            fitted = G.fit_label(text, s["poly"], at, self.unit) if i not in self.grid else None
            if fitted is None:
                px, py = self.px(x + 0.06, y + h - 0.06)
                self.out.append(f'<text class="space-label" data-space={quoteattr(name)} x="{px}" y="{_num(py + 8)}" '
                                f'font-size="8" fill="{ink}" fill-opacity="0.8">{escape(text)}</text>')
                return
        else:
            fitted = G.fit_label(text, s["poly"], at, self.unit)
        if fitted is None:   # too long for its circle: written under it
            cx, cy = self.px(at[0], at[1] - s.get("r", 0.3))
            self.out.append(f'<text class="space-label outside" data-space={quoteattr(name)} x="{cx}" '
                            f'y="{_num(cy + 10)}" text-anchor="middle" font-size="8" fill="#263238">{escape(text)}</text>')
            return
        font, lines = fitted
        s["label_block"] = fitted
        self._text_block(lines, font, at, ink, "space-label", name, bold=shaped)

    def _text_block(self, lines, font, at, ink, cls, name=None, bold=False) -> None:
        if not lines:
            return
        cx, cy = self.px(*at)
        step = font * G.LINE_HEIGHT
        first = cy - step * (len(lines) - 1) / 2 + font * 0.35
        spans = "".join(f'<tspan x="{cx}" y="{_num(first + k * step)}">{escape(t)}</tspan>' for k, t in enumerate(lines))
        data = f" data-space={quoteattr(name)}" if name else ""
        weight = ' font-weight="bold"' if bold else ""
        self.out.append(f'<text class="{cls}"{data} text-anchor="middle" font-size="{_num(font)}"{weight} '
                        f'fill="{ink}">{spans}</text>')

    # -- marks, labels, legend ------------------------------------------------------------

    def _mark_shape(self, kind: str, cx: float, cy: float, r: float, colour: str) -> str:
        c = quoteattr(colour)
        if kind == "dot":
            return f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}" fill={c} stroke="#1b1b1b" stroke-width="0.6"/>'
        if kind == "ring":
            return f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}" fill="none" stroke={c} stroke-width="{_num(max(r / 7, 1.5))}"/>'
        if kind == "square":
            return (f'<rect x="{_num(cx - r)}" y="{_num(cy - r)}" width="{_num(2 * r)}" height="{_num(2 * r)}" '
                    f'fill={c} stroke="#1b1b1b" stroke-width="0.6"/>')
        corners = {"diamond": [(0, -1), (1, 0), (0, 1), (-1, 0)],
                   "triangle": [(0, -1), (0.87, 0.5), (-0.87, 0.5)],
                   "star": [(math.sin(k * math.pi / 5) * (1 if k % 2 == 0 else 0.45),
                             -math.cos(k * math.pi / 5) * (1 if k % 2 == 0 else 0.45)) for k in range(10)]}[kind]
        pts = " ".join(f"{_num(cx + r * dx)},{_num(cy + r * dy)}" for dx, dy in corners)
        return f'<polygon points="{pts}" fill={c} stroke="#1b1b1b" stroke-width="0.6"/>'

    def _marks(self) -> None:
        for m in self.layout.get("marks", []):
            for name in m["spaces"]:
                s = self.shapes[self.board.index[name]]
                x, y = s["centre"]
                if m["at"] != "centre":
                    left, bottom, right, top = G.bounds(s["poly"])
                    inset = m["size"] * 1.5
                    x = left + inset if m["at"].endswith("left") else right - inset
                    y = top - inset if m["at"].startswith("top") else bottom + inset
                cx, cy = self.px(x, y)
                self.out.append(f'<g class="mark" data-space={quoteattr(name)}>'
                                f'{self._mark_shape(m["shape"], cx, cy, m["size"] * self.unit, m["colour"])}</g>')

    def _labels(self) -> None:
        for lab in self.layout.get("labels", []):
            x, y = self.px(*lab["at"])
            rotate = f' transform="rotate({_num(-lab["rotate"])} {x} {y})"' if lab["rotate"] else ""
            weight = ' font-weight="bold"' if lab["bold"] else ""
            self.out.append(f'<text class="label" x="{x}" y="{_num(y + lab["size"] * 0.35)}" text-anchor="middle" '
                            f'font-size="{_num(lab["size"])}"{weight} fill={quoteattr(lab["colour"])}{rotate}>'
                            f'{escape(lab["text"])}</text>')

    def _legend_items(self) -> list[dict]:
        items = list(self.layout.get("legend", []))
        for m in self.layout.get("marks", []):
            if m.get("legend"):
                items.append({"text": m["legend"], "colour": m["colour"], "mark": m["shape"]})
        if self.pieces:
            sides = sorted({p[1] for p in self.pieces if p[1] >= 0})
            for side in sides:
                name = self.sides[side] if side < len(self.sides) else f"side {side + 1}"
                items.append({"text": f"{humanise(name).capitalize()} pieces", "colour": self._side_colour(side), "mark": "dot"})
        return items

    def _legend_rows(self, items, width):
        rows, row, used = [], [], 10.0
        for it in items:
            w = 22 + G.text_width(it["text"], 11) * 0.95 + 16
            if row and used + w > width - 10:
                rows.append(row)
                row, used = [], 10.0
            row.append((it, used))
            used += w
        if row:
            rows.append(row)
        return rows

    def _legend_height(self, items, width) -> float:
        return 22.0 * len(self._legend_rows(items, width)) + (8 if items else 0)

    def _legend(self, items, width, y0) -> None:
        for r, row in enumerate(self._legend_rows(items, width)):
            y = y0 + 14 + 22 * r
            for it, x in row:
                if it["mark"] == "swatch":
                    shape = (f'<rect x="{_num(x)}" y="{_num(y - 7)}" width="16" height="14" '
                             f'fill={quoteattr(it["colour"])} stroke="#1b1b1b" stroke-width="0.6"/>')
                elif it["mark"] == "line":
                    shape = (f'<line x1="{_num(x)}" y1="{_num(y)}" x2="{_num(x + 16)}" y2="{_num(y)}" '
                             f'stroke={quoteattr(it["colour"])} stroke-width="4"/>')
                else:
                    shape = self._mark_shape(it["mark"], x + 8, y, 6, it["colour"])
                ink = _ink(self.layout.get("background") or "#ffffff")
                self.out.append(f'<g class="legend">{shape}<text x="{_num(x + 22)}" y="{_num(y + 4)}" font-size="11" '
                                f'fill="{ink}">{escape(it["text"])}</text></g>')

    # -- pieces ----------------------------------------------------------------------------

    def _side_colour(self, side: int) -> str:
        mine = self.layout.get("sides") or []
        if side < 0:
            return NEUTRAL
        return mine[side] if side < len(mine) else SIDE_COLOURS[side % len(SIDE_COLOURS)]

    def _slots(self, i: int, n: int) -> tuple[list, float]:
        """Centres (board units) and radius for `n` pieces on space `i`, clear of its label."""
        s = self.shapes[i]
        left, bottom, right, top = G.bounds(s["poly"])
        w, h = right - left, top - bottom
        if s["kind"] == "circle" or (s["kind"] == "rect" and "label_block" not in s):
            cols = math.ceil(math.sqrt(n))
            rows = math.ceil(n / cols)
            r = min(min(w / cols, h / rows) * 0.36, MAX_PIECE_PX / self.unit)
            cx, cy = s["centre"]
            return [(cx + (k % cols - (cols - 1) / 2) * 2.3 * r, cy - (k // cols - (rows - 1) / 2) * 2.3 * r)
                    for k in range(n)], r
        r = min(0.17, MAX_PIECE_PX / self.unit)
        step = 2.4 * r
        cx, cy = s["centre"]
        font, lines = s.get("label_block") or (G.MAX_FONT, [])
        half = len(lines) * font * G.LINE_HEIGHT / 2 / self.unit
        out, y = [], cy - half - r - 0.06
        direction = -1
        while len(out) < n:
            run = G.span_at(s["poly"], y)
            if run is None or y < bottom or y > top:
                if direction < 0:   # no room below the label: go above it
                    direction, y = 1, cy + half + r + 0.06
                    continue
                run = (cx - 1, cx + 1)   # no room at all: overlap rather than lose a piece
            fit = max(1, int((min(cx - run[0], run[1] - cx) - r * 0.5) * 2 // step) + 1)
            take = min(fit, n - len(out))
            out += [(cx + (k - (take - 1) / 2) * step, y) for k in range(take)]
            y += direction * step
        return out, r

    def _draw_pieces(self) -> None:
        by_space: dict[str, list] = {}
        carried = []
        for p in self.pieces:
            if isinstance(p[3], tuple):
                carried.append(p)
            else:
                by_space.setdefault(p[3], []).append(p)
        drawn: dict[str, tuple[float, float, float]] = {}
        for space, group in by_space.items():
            i = self.board.index[space]
            slots, r = self._slots(i, len(group))
            for (name, side, kind, _), (x, y) in zip(group, slots):
                cx, cy = self.px(x, y)
                drawn[name] = (cx, cy, r * self.unit)
                self._piece(name, side, kind, space, cx, cy, r * self.unit)
        for name, side, kind, (_, carrier) in carried:
            if carrier in drawn:
                x, y, r = drawn[carrier]
                self._piece(name, side, kind, "", x + r * 0.9, y - r * 0.9, r * 0.6, carrier)

    def _piece(self, name, side, kind, space, cx, cy, r, carrier=None) -> None:
        fill = self._side_colour(side)
        text = piece_label(name, kind, side)
        font = max(6.0, min(r * 1.1, r * 2.6 / max(len(text), 1)))
        by = f" data-carried-by={quoteattr(carrier)}" if carrier else ""
        self.out.append(f'<g class="piece" data-piece={quoteattr(name)} data-space={quoteattr(space)}{by}>'
                        f"<title>{escape(name)}" + (f" (carried by {escape(carrier)})" if carrier else "") + "</title>"
                        f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}" fill={quoteattr(fill)} '
                        f'stroke="#111111" stroke-width="1.2"/>'
                        f'<text x="{_num(cx)}" y="{_num(cy + font * 0.35)}" text-anchor="middle" font-size="{_num(font)}" '
                        f'font-weight="bold" fill="{_ink(fill)}">{escape(text)}</text></g>')
