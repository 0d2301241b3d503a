"""A state -> the board drawn for a terminal with colour (rich Text), and its legend.

Three drawings, chosen from the board's own data, knowing no game:

- a board whose spaces stand in blocks of grids (a map of rooms; lumos.present.board_map)
  is drawn as boxes where its spaces stand;
- grid spaces (a board with `cells`) are squares in the palette colour of their `colour`
  attribute, with column letters and row numbers; a piece is a two-letter tag on its
  side's colour;
- other spaces are laid out by their positions: a row of many spaces at one height is a
  track (drawn as one line of small cells, the Snitch Race), and the others are boxes
  named after their space, bordered in their colour, with the tags of the pieces in them
  (the Catch the Golden Snitch Pitch as its twelve Zones).

Tags: two letters of the piece's kind (`CH` chaser); kinds that differ only by a trailing
letter or number share one tag (`bludger_a`, `bludger_b` are both `BL`); clashes take the
initials of the words. The legend names every tag, the sides' colours, the squares'
colours and which piece carries which.
"""
from __future__ import annotations

import re

from rich.text import Text

from lumos.present import board_map

SIDE_STYLES = ("bold white on red3", "bold white on blue3", "bold black on green3", "bold white on magenta",
               "bold black on orange3", "bold black on cyan3")
NEUTRAL_STYLE = "bold black on bright_white"
BOX_WIDTH = 14
TRACK_MIN = 8          # a row of at least this many spaces is drawn as a track


def base_kind(kind: str) -> str:
    """`bludger_a` -> `bludger`, `race_die_2` -> `race die`: the kind without its serial."""
    return re.sub(r"[ _]([a-z]|\d+)$", "", kind).replace("_", " ")


def piece_tags(cg) -> dict[str, str]:
    """Kind -> its two-letter tag, unique per base kind within the game."""
    tags: dict[str, str] = {}
    used: dict[str, str] = {}
    for p in cg.pieces:
        base = base_kind(p.kind)
        if p.kind in tags:
            continue
        if base in used.values():
            tags[p.kind] = next(t for t, b in used.items() if b == base)
            continue
        words = base.split()
        letters = re.sub(r"[^a-z]", "", base.lower())
        candidates = [letters[:2], "".join(w[0] for w in words)[:2], letters[0] + letters[-1:]] + \
            [letters[0] + c for c in letters[1:]]
        tag = next((c.upper() for c in candidates if len(c) == 2 and c.upper() not in used), letters[:2].upper())
        used[tag] = base
        tags[p.kind] = tag
    return tags


def _style(cg, piece) -> str:
    return SIDE_STYLES[piece.side % len(SIDE_STYLES)] if piece.side >= 0 else NEUTRAL_STYLE


def _placed(state) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """(space -> pieces standing there, carrier -> pieces it carries)."""
    cg, st, m = state.cg, state.st, state.machine
    at: dict[int, list[int]] = {}
    carried: dict[int, list[int]] = {}
    for i in range(len(cg.pieces)):
        if st.holder[i] >= 0:
            carried.setdefault(st.holder[i], []).append(i)
            continue
        sp = m.space_of(i)
        if sp is not None:
            at.setdefault(sp, []).append(i)
    return at, carried


def _tag_text(cg, tags, i: int, carried) -> Text:
    p = cg.pieces[i]
    t = Text(tags[p.kind], style=_style(cg, p))
    if carried.get(i):
        t.append("*", style="bold yellow")
    return t


def colour_words(hexcode: str) -> str:
    """`#2e7d32` -> `dark green`: a palette colour in words, for the legend."""
    import colorsys
    try:
        r, g, b = (int(hexcode[k:k + 2], 16) / 255 for k in (1, 3, 5))
    except (ValueError, TypeError):
        return ""
    h, light, sat = colorsys.rgb_to_hls(r, g, b)
    if sat < 0.15:
        hue = "grey" if 0.2 < light < 0.8 else ("black" if light <= 0.2 else "white")
    else:
        names = ((15, "red"), (40, "orange"), (70, "yellow"), (165, "green"), (200, "cyan"), (255, "blue"),
                 (290, "purple"), (335, "pink"), (360, "red"))
        hue = next(n for top, n in names if h * 360 <= top)
    shade = "dark " if light < 0.35 else "light " if light > 0.7 else ""
    return shade + hue


def _hex_style(colour: str | None, fallback: str = "grey50") -> str:
    return colour if colour and colour.startswith("#") else fallback


# ---------------------------------------------------------------- grid boards
def draw_grid(state, tags) -> list[Text]:
    cg = state.cg
    board = cg.board
    at, carried = _placed(state)
    xs = sorted({x for x, _ in board.cells})
    ys = sorted({y for _, y in board.cells}, reverse=True)
    cols = {}
    for (x, _y), i in board.cells.items():
        cols.setdefault(x, str(board.attrs[i].get("column", x)))
    lines = [Text("    " + "".join(f"{cols.get(x, ''):^4}" for x in xs), style="dim")]
    for y in ys:
        line = Text(f"{y:>3} ", style="dim")
        for x in xs:
            i = board.cells.get((x, y))
            if i is None:
                line.append("    ")
                continue
            bg = "on " + _hex_style(board.palette.get(str(board.attr(i, "colour"))), "grey30")
            pieces = at.get(i, [])
            if not pieces:
                line.append("    ", style=bg)
                continue
            tag = _tag_text(cg, tags, pieces[0], carried)
            if len(pieces) > 1:
                tag.append(f"+{len(pieces) - 1}", style="bold")
            pad = max(0, 4 - len(tag.plain))
            line.append(" " * (pad // 2 + pad % 2), style=bg)
            line.append_text(tag)
            line.append(" " * (pad // 2), style=bg)
        lines.append(line)
    return lines


# ---------------------------------------------------------------- boards of zones
def _rows(board, spaces: list[int]) -> list[list[int]]:
    """Spaces grouped into rows by height (top first), each row left to right."""
    rows: list[list[int]] = []
    for i in sorted(spaces, key=lambda i: -board.positions[i][1]):
        y = board.positions[i][1]
        if rows and abs(board.positions[rows[-1][0]][1] - y) <= 0.5:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [sorted(r, key=lambda i: board.positions[i][0]) for r in rows]


def _box(cg, tags, i: int, pieces: list[int], carried, width: int, label: str | None = None,
         glyphs: str = "") -> list[Text]:
    """One space as a box: its name (or `label`) in the top border, the tags of its pieces
    inside, and the glyphs of its layout marks at the right of the last line."""
    board = cg.board
    colour = _hex_style(board.palette.get(str(board.attr(i, "colour"))))
    name = label or board.spaces[i].replace("_", " ")
    inner = width - 2
    title = f" {name} " if len(name) <= inner - 2 else name if len(name) <= inner else name[:inner - 1] + "~"
    top = Text("╭", style=colour)
    top.append(title, style=f"bold {colour}")
    top.append("─" * max(0, inner - len(title)) + "╮", style=colour)
    body: list[Text] = []
    current = Text()
    for k in pieces:
        tag = _tag_text(cg, tags, k, carried)
        if current.plain and len(current.plain) + 1 + len(tag.plain) > inner - 1:
            body.append(current)
            current = Text()
        if current.plain:
            current.append(" ")
        current.append_text(tag)
    body.append(current)
    if glyphs and len(body[-1].plain) + 1 + len(glyphs) > inner - 1:
        body.append(Text())
    lines = [top]
    for k, b in enumerate(body):
        line = Text("│", style=colour)
        line.append(" ")
        line.append_text(b)
        tail = glyphs if glyphs and k == len(body) - 1 else ""
        line.append(" " * max(0, inner - 1 - len(b.plain) - len(tail)))
        line.append(tail, style="bold")
        line.append("│", style=colour)
        lines.append(line)
    lines.append(Text("╰" + "─" * inner + "╯", style=colour))
    return lines


def _track(cg, tags, row: list[int], at, carried) -> list[Text]:
    board = cg.board
    names = [board.spaces[i] for i in row]
    prefix = _common_prefix(names)
    labels = Text("  ")
    marks = Text("  ")
    for i, name in zip(row, names):
        colour = _hex_style(board.palette.get(str(board.attr(i, "colour"))))
        label = name[len(prefix):] or name
        cell = max(5, len(label) + 1)
        labels.append(f"{label:^{cell}}", style=f"black on {colour}")
        pieces = at.get(i, [])
        mark = Text()
        for k in pieces[:2]:
            mark.append_text(_tag_text(cg, tags, k, carried))
        if len(pieces) > 2:
            mark.append(f"+{len(pieces) - 2}")
        marks.append_text(mark)
        marks.append(" " * max(0, cell - len(mark.plain)))
    regions = [r for r, members in board.regions.items() if set(row) <= members and len(members) == len(row)]
    title = Text("  " + (regions[0].replace("_", " ").capitalize() if regions else "Track") +
                 f" ({names[0]} to {names[-1]})", style="bold")
    return [title, marks, labels]


def _common_prefix(names: list[str]) -> str:
    prefix = names[0]
    for n in names[1:]:
        while not n.startswith(prefix):
            prefix = prefix[:-1]
    return prefix if all(n[len(prefix):] for n in names) else ""


def draw_zones(state, tags, spaces: list[int], width: int) -> list[Text]:
    cg = state.cg
    board = cg.board
    at, carried = _placed(state)
    rows = _rows(board, spaces)
    boxes = [r for r in rows if len(r) < TRACK_MIN]
    xs = [board.positions[i][0] for r in boxes for i in r] or [0.0]
    lo, hi = min(xs), max(xs)
    box_w = min(BOX_WIDTH, max(9, width // max(1, max((len(r) for r in boxes), default=1))))
    span = max(1, width - box_w)
    lines: list[Text] = []
    for row in rows:
        if len(row) >= TRACK_MIN:
            lines += _track(cg, tags, row, at, carried)
            continue
        drawn = [(_col(board.positions[i][0], lo, hi, span), _box(cg, tags, i, at.get(i, []), carried, box_w))
                 for i in row]
        drawn = _spread(drawn, box_w, width)
        height = max(len(b) for _, b in drawn)
        for h in range(height):
            line = Text()
            for col, box in drawn:
                line.append(" " * max(0, col - len(line.plain)))
                line.append_text(box[h] if h < len(box) else Text(" " * box_w))
            lines.append(line)
    return lines


def _col(x: float, lo: float, hi: float, span: int) -> int:
    return round((x - lo) / (hi - lo) * span) if hi > lo else 0


def _spread(drawn, box_w: int, width: int):
    """Push boxes right so that none overlaps the one before it, then back left so that the
    last one ends inside the width."""
    out, end = [], 0
    for col, box in drawn:
        col = max(col, end)
        out.append([col, box])
        end = col + box_w + 1
    limit = width
    for item in reversed(out):
        item[0] = max(0, min(item[0], limit - box_w))
        limit = item[0] - 1
    return [tuple(item) for item in out]


# ---------------------------------------------------------------- the whole picture
def draw_board(state, width: int = 100) -> list[Text]:
    """The board's lines: a map of boxes (lumos.present.board_map) when every block of the
    board is a grid of spaces; else the grid of squares, then the other spaces as zones and tracks."""
    cg = state.cg
    board = cg.board
    tags = piece_tags(cg)
    grid = set(board.cells.values())
    lines = [Text(board.name, style="bold underline")]
    if board_map.is_map(board):
        placed = _placed(state)

        def box(i, pieces, w, label, glyphs):
            return _box(cg, tags, i, pieces, placed[1], w, label, glyphs)
        lines += board_map.draw_map(state, width, box, placed)
        marks = board_map.marks_legend(board)
        return lines + legend(state, tags) + ([marks] if marks else [])
    if grid:
        lines += draw_grid(state, tags)
    others = [i for i in range(len(board.spaces)) if i not in grid]
    at, _ = _placed(state)
    if grid:   # off the grid, only the spaces where something stands (goals, the knock-off bench)
        others = [i for i in others if at.get(i)]
    if others:
        lines += draw_zones(state, tags, others, width)
    return lines + legend(state, tags)


def legend(state, tags) -> list[Text]:
    cg = state.cg
    board = cg.board
    line = Text("  ")
    for s in state.sides_in_play():      # a side the rules removed has nothing on the board
        line.append(f" {cg.sides[s].replace('_', ' ')} ", style=SIDE_STYLES[s % len(SIDE_STYLES)])
        line.append(" ")
    line.append(" neutral ", style=NEUTRAL_STYLE)
    line.append("   * carries a piece", style="yellow")
    kinds = Text("  ")
    seen = set()
    for p in cg.pieces:
        tag = tags[p.kind]
        if (tag, p.side >= 0) in seen:
            continue
        seen.add((tag, p.side >= 0))
        kinds.append(tag, style=_style(cg, p) if p.side < 0 else "bold")
        kinds.append(f" {base_kind(p.kind)}  ")
    colours = Text("  ")
    used = {str(board.attr(i, "colour")) for i in range(len(board.spaces)) if board.attr(i, "colour") is not None}
    for name, hexcode in board.palette.items():
        if name in used:
            colours.append("  ", style="on " + _hex_style(hexcode))
            said = colour_words(hexcode)
            label = name.replace("_", " ")
            colours.append(f" {label}" + (f" ({said})" if said and said != label else "") + "  ")
    out = [line, kinds]
    if colours.plain.strip():
        out.append(colours)
    at, carried = _placed(state)
    carry = [f"{cg.pieces[c].name} carries {', '.join(cg.pieces[k].name for k in ks)}" for c, ks in carried.items()]
    if carry:
        out.append(Text("  " + "; ".join(carry), style="yellow"))
    return out


def region_lines(cg, most: int = 8) -> list[Text]:
    """The board's small named regions (goals, scoring areas, a middle line) and their spaces."""
    board = cg.board
    out = []
    for name, members in board.regions.items():
        if 1 <= len(members) <= most:
            spaces = ", ".join(board.spaces[i].replace("_", " ") for i in sorted(members))
            out.append(Text(f"  {name.replace('_', ' ')}: {spaces}", style="dim"))
    return out
