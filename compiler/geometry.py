"""Layout shapes -> plain geometry: outlines as polygons, clipping, tracks laid along a path,
and how much room a label needs.

Why here: the layout checker (`lumos.compiler.layout`) must know whether a track's spaces
overlap or a label fits its space before a designer ever draws the board, and the drawing
(`lumos.reference.boards`) must place them the same way. Both call these functions, so the
check and the picture cannot disagree. Coordinates are board units, y up; nothing here knows
a game or SVG.

>>> square = outline({"shape": "rect", "from": [0, 0], "to": [2, 2]})
>>> round(area(clip(square, outline({"shape": "circle", "center": [0, 0], "radius": 2}))), 2)
3.14
"""
from __future__ import annotations

import math

Point = tuple[float, float]

SEGMENTS = 96           # points on a drawn ellipse
CHAR_WIDTH = 0.6        # a sans-serif character is at most about this many font sizes wide on average
BOLD_WIDTH = 0.7        # the same for bold text (space labels are drawn bold; measured in a browser)
LINE_HEIGHT = 1.2       # line spacing, in font sizes
MAX_FONT, MIN_FONT = 13.0, 7.5   # label font sizes tried, in pixels


def ellipse_point(center, radius, degrees: float) -> Point:
    """The point of an ellipse at an angle measured clockwise from north (as rings number)."""
    a = math.radians(degrees)
    return (center[0] + radius[0] * math.sin(a), center[1] + radius[1] * math.cos(a))


def outline(shape: dict) -> list[Point]:
    """The polygon of a checked shape (`rect`, `polygon`, `ellipse`, `circle`), clockwise or not."""
    kind = shape["shape"]
    if kind == "rect":
        (x0, y0), (x1, y1) = shape["from"], shape["to"]
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    if kind in ("ellipse", "circle"):
        r = shape["radius"]
        radius = (r, r) if isinstance(r, (int, float)) else r
        return [ellipse_point(shape["center"], radius, 360 * k / SEGMENTS) for k in range(SEGMENTS)]
    return [tuple(p) for p in shape["points"]]


def area(poly: list[Point]) -> float:
    """The area of a simple polygon (shoelace), always positive."""
    return abs(_signed_area(poly))


def _signed_area(poly) -> float:
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1])) / 2


def centroid(poly: list[Point]) -> Point:
    """The centre of mass of a polygon (the mean of its points when it has no area)."""
    a = _signed_area(poly)
    if abs(a) < 1e-12:
        return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))
    cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        cross = x0 * y1 - x1 * y0
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    return (cx / (6 * a), cy / (6 * a))


def clip(subject: list[Point], window: list[Point]) -> list[Point]:
    """The part of `subject` inside the convex polygon `window` (Sutherland-Hodgman)."""
    if _signed_area(window) < 0:
        window = window[::-1]
    out = list(subject)
    for a, b in zip(window, window[1:] + window[:1]):
        if not out:
            break
        inside = lambda p: (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0
        given, out = out, []
        for p, q in zip(given, given[1:] + given[:1]):
            if inside(q):
                if not inside(p):
                    out.append(_cross(p, q, a, b))
                out.append(q)
            elif inside(p):
                out.append(_cross(p, q, a, b))
    return out


def _cross(p, q, a, b) -> Point:
    """Where segment p-q meets the line through a and b."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    ex, ey = b[0] - a[0], b[1] - a[1]
    t = (ex * (p[1] - a[1]) - ey * (p[0] - a[0])) / (ey * dx - ex * dy)
    return (p[0] + t * dx, p[1] + t * dy)


def is_convex(poly: list[Point]) -> bool:
    """Whether every turn of the polygon goes the same way (a window `clip` can use)."""
    signs = set()
    n = len(poly)
    for i in range(n):
        (x0, y0), (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n], poly[(i + 2) % n]
        z = (x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1)
        if abs(z) > 1e-12:
            signs.add(z > 0)
    return len(signs) <= 1


def bounds(poly: list[Point]) -> tuple[float, float, float, float]:
    """(left, bottom, right, top) of a polygon."""
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    return (min(xs), min(ys), max(xs), max(ys))


def span_at(poly: list[Point], y: float) -> tuple[float, float] | None:
    """The horizontal extent of a polygon's inside along the line at height `y` (convex or not,
    the widest single run containing the most), or None when the line misses it."""
    xs = []
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        if (y0 <= y < y1) or (y1 <= y < y0):
            xs.append(x0 + (y - y0) * (x1 - x0) / (y1 - y0))
    xs.sort()
    runs = [(xs[i], xs[i + 1]) for i in range(0, len(xs) - 1, 2)]
    return max(runs, key=lambda r: r[1] - r[0]) if runs else None


# ---------------------------------------------------------------- tracks


def path_points(along: dict) -> list[Point]:
    """The polyline a track follows: an ellipse arc (`from`/`to` in degrees clockwise from
    north) sampled finely, or the given points."""
    if along["shape"] in ("ellipse", "circle"):
        r = along["radius"]
        radius = (r, r) if isinstance(r, (int, float)) else r
        start, end = along.get("from", 0.0), along.get("to", 360.0)
        n = 720
        return [ellipse_point(along["center"], radius, start + (end - start) * k / n) for k in range(n + 1)]
    return [tuple(p) for p in along["points"]]


def spread(path: list[Point], count: int, closed: bool = False) -> list[Point]:
    """`count` points at equal distances along a polyline (first at its start, last at its end;
    a closed path leaves the same gap after the last)."""
    lengths = [0.0]
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        lengths.append(lengths[-1] + math.hypot(x1 - x0, y1 - y0))
    total = lengths[-1]
    steps = count if closed else max(count - 1, 1)
    out, j = [], 0
    for k in range(count):
        want = total * k / steps
        while j < len(lengths) - 2 and lengths[j + 1] < want:
            j += 1
        seg = lengths[j + 1] - lengths[j] or 1.0
        t = min(max((want - lengths[j]) / seg, 0.0), 1.0)
        (x0, y0), (x1, y1) = path[j], path[j + 1]
        out.append((x0 + t * (x1 - x0), y0 + t * (y1 - y0)))
    return out


def closest_pair(points: list[Point]) -> tuple[float, int, int]:
    """(distance, i, j) of the two nearest points (i < j); inf when fewer than two."""
    best = (math.inf, 0, 0)
    for i, p in enumerate(points):
        for j in range(i + 1, len(points)):
            d = math.dist(p, points[j])
            if d < best[0]:
                best = (d, i, j)
    return best


# ---------------------------------------------------------------- labels


def text_width(text: str, font: float, bold: bool = False) -> float:
    """An upper bound of a line's width in pixels at a font size (no font metrics needed)."""
    return (BOLD_WIDTH if bold else CHAR_WIDTH) * font * len(text)


def _wraps(words: list[str], lines: int):
    """Every way to break `words` into `lines` lines, in order, shortest longest line first."""
    if lines == 1:
        return [[" ".join(words)]]
    out = []
    for cut in range(1, len(words) - lines + 2):
        for rest in _wraps(words[cut:], lines - 1):
            out.append([" ".join(words[:cut])] + rest)
    return sorted(out, key=lambda ls: max(map(len, ls)))


def fit_label(text: str, poly: list[Point], at: Point, unit: float, pad: float = 3.0, bold: bool = True):
    """The largest font (MAX_FONT down to MIN_FONT) and line breaks at which `text`, centred on
    `at`, lies inside `poly` with `pad` pixels to spare: (font, lines), or None when it cannot.
    `unit` is pixels per board unit; `bold`: the text is drawn bold (wider)."""
    words = text.split()
    if not words:
        return (MAX_FONT, [])
    font = MAX_FONT
    while font >= MIN_FONT:
        for n in range(1, min(len(words), 4) + 1):
            for lines in _wraps(words, n):
                if _fits(lines, font, poly, at, unit, pad, bold):
                    return (font, lines)
        font -= 0.5
    return None


def label_box(lines: list[str], font: float, at: Point, unit: float, bold: bool = True):
    """(left, bottom, right, top) in board units of lines of text centred on `at`."""
    w = max((text_width(s, font, bold) for s in lines), default=0) / unit
    h = len(lines) * font * LINE_HEIGHT / unit
    return (at[0] - w / 2, at[1] - h / 2, at[0] + w / 2, at[1] + h / 2)


def _fits(lines, font, poly, at, unit, pad, bold) -> bool:
    height = font * LINE_HEIGHT / unit
    top = at[1] + len(lines) * height / 2
    for k, line in enumerate(lines):
        half = (text_width(line, font, bold) / 2 + pad) / unit
        for y in (top - k * height - pad / unit * 0.5, top - (k + 1) * height + pad / unit * 0.5):
            run = span_at(poly, y)
            if run is None or run[0] > at[0] - half or run[1] < at[0] + half:
                return False
    return True
