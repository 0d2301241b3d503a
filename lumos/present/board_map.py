"""A board whose spaces stand on a grid of positions (a map of rooms, a side board of tracks)
-> blocks of boxes for a terminal, each box where its space stands, named by the layout.

Why: a map such as a castle of rooms is read by where things are: which room is next to
which. Drawn as rows of boxes squeezed to the width (lumos.present.board_text's zones) the
castle, the tracks beside it and the side board run together. Here spaces are grouped into
blocks (spaces closer than BLOCK_GAP in both directions belong together: the main board,
each track of a side board); a block whose spaces fill at least half of the grid of their
distinct columns and rows is drawn as that grid, one box per space, top row first. Each box
has the space's label from the board's `layout:` (else its name), its colour, the tags of
the pieces in it and one glyph per layout mark (a Fly Off Point, a Bonus Space ...), which the
legend names. Knows no game: only positions, layout labels and marks.
"""
from __future__ import annotations

from rich.text import Text

BLOCK_GAP = 1.55        # spaces nearer than this in x and in y belong to one block
MIN_FILL = 0.5          # a block is a grid when its spaces fill this share of its cells
BOX_MIN = 9
MARK_GLYPHS = {"triangle": "▲", "diamond": "◆", "square": "■", "dot": "●", "star": "★", "ring": "○"}


def blocks(board) -> list[list[int]]:
    """The spaces grouped into blocks (single linkage on positions), top block first."""
    n = len(board.spaces)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    pos = board.positions
    for i in range(n):
        for j in range(i + 1, n):
            if abs(pos[i][0] - pos[j][0]) < BLOCK_GAP and abs(pos[i][1] - pos[j][1]) < BLOCK_GAP:
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    # left to right in bands two units wide (a main board, then a side board beside it), each
    # band top to bottom
    return sorted(groups.values(), key=lambda g: (min(pos[i][0] for i in g) // 2, -max(pos[i][1] for i in g)))


def grid_of(board, block: list[int]) -> dict[int, tuple[int, int]] | None:
    """Space -> (column, row) of its block's grid, or None if the block is not a grid."""
    pos = board.positions
    xs = _levels([pos[i][0] for i in block])
    ys = _levels([pos[i][1] for i in block])
    cells = {i: (_rank(xs, pos[i][0]), len(ys) - 1 - _rank(ys, pos[i][1])) for i in block}
    if len(set(cells.values())) < len(block) or len(block) < MIN_FILL * len(xs) * len(ys):
        return None
    return cells


def _levels(values: list[float]) -> list[float]:
    """Distinct values, those within 0.3 of each other taken as one."""
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > 0.3:
            out.append(v)
    return out


def _rank(levels: list[float], v: float) -> int:
    return min(range(len(levels)), key=lambda k: abs(levels[k] - v))


def is_map(board) -> bool:
    """True when every block of a board without cells is a grid (and there is more than one
    row somewhere): then draw_map draws it."""
    if board.cells or not board.positions:
        return False
    grids = [grid_of(board, b) for b in blocks(board)]
    return all(g is not None for g in grids) and any(len({r for _c, r in g.values()}) > 1 for g in grids)


def space_labels(board) -> dict[int, str]:
    """Space -> the label its layout gives it, else its name in words."""
    spaces = (board.layout or {}).get("spaces") or {}
    out = {}
    for i, name in enumerate(board.spaces):
        given = spaces.get(name) if isinstance(spaces, dict) else None
        label = given.get("label") if isinstance(given, dict) else None
        out[i] = label or name.replace("_", " ")
    return out


def space_marks(board) -> tuple[dict[int, str], list[tuple[str, str, str]]]:
    """(space -> its glyphs, [(glyph, colour, legend text)]) from the layout's marks."""
    index = {name: i for i, name in enumerate(board.spaces)}
    glyphs: dict[int, str] = {}
    legend = []
    for mark in (board.layout or {}).get("marks") or []:
        glyph = MARK_GLYPHS.get(mark.get("shape"), "•")
        for name in mark.get("spaces") or []:
            if name in index:
                glyphs[index[name]] = glyphs.get(index[name], "") + glyph
        if mark.get("legend"):
            legend.append((glyph, mark.get("colour") or "white", mark["legend"]))
    return glyphs, legend


def draw_map(state, width: int, box, placed) -> list[Text]:
    """The board's blocks, each as its grid of boxes; `box(i, pieces, width, label, glyphs)`
    draws one space and `placed` is (space -> pieces, carrier -> pieces)."""
    board = state.cg.board
    at, _carried = placed
    labels = space_labels(board)
    glyphs, _legend = space_marks(board)
    lines: list[Text] = []
    for block in blocks(board):
        cells = grid_of(board, block)
        ncols = 1 + max(c for c, _r in cells.values())
        nrows = 1 + max(r for _c, r in cells.values())
        box_w = max(BOX_MIN, min(16, (width - 2) // ncols - 1))
        by_cell = {cell: i for i, cell in cells.items()}
        for r in range(nrows):
            drawn = [(c, box(by_cell[(c, r)], at.get(by_cell[(c, r)], []), box_w, labels[by_cell[(c, r)]],
                             glyphs.get(by_cell[(c, r)], "")))
                     for c in range(ncols) if (c, r) in by_cell]
            if not drawn:
                continue
            height = max(len(b) for _c, b in drawn)
            for h in range(height):
                line = Text("  ")
                for c, b in drawn:
                    line.append(" " * max(0, 2 + c * (box_w + 1) - len(line.plain)))
                    line.append_text(b[h] if h < len(b) else Text(" " * box_w))
                lines.append(line)
        lines.append(Text(""))
    return lines


def marks_legend(board) -> Text | None:
    """One line naming the glyphs of the layout's marks, or None without marks."""
    _glyphs, legend = space_marks(board)
    if not legend:
        return None
    line = Text("  ")
    for glyph, colour, text in legend:
        line.append(glyph, style=f"bold {colour}")
        line.append(f" {text}  ")
    return line
