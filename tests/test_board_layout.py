"""A board file's `layout:` is checked like the rest of the board: each mistake is a
positioned diagnostic in the designer's words (docs/errors.md, B140-B147), all at once."""
from __future__ import annotations

import glob
from pathlib import Path

import pytest

from lumos.compiler.boards import load_board, parse_board
from lumos.diagnostics import LumosCheckError

ROOT = Path(__file__).resolve().parents[1]
HEAD = """\
name: pitch
palette: {grass: "#2e7d32"}
spaces:
  - {name: a, pos: [0, 0]}
  - {name: b, pos: [1, 0]}
  - {name: c, pos: [2, 0]}
links:
  - [a, b, step]
layout:
"""


def _problems(layout: str) -> list[str]:
    with pytest.raises(LumosCheckError) as info:
        parse_board(HEAD + layout, "board.yaml")
    return [f"{d.span.line}:{d.span.col} {d.code} {d.message} | {d.hint}" for d in info.value.diagnostics]


@pytest.mark.parametrize("layout, expected", [
    ("  shapes:\n    - {shape: hexagon, center: [0, 0], radius: 1}\n",
     "11:15 B140 unknown shape `hexagon` for a decoration | shapes: `rect`, `polygon`, `ellipse`, `circle`, `line`"),
    ("  shapes:\n    - {shape: rect, from: [0, 0]}\n",
     "11:15 B141 a `rect` needs `to` (a decoration) | write its corners: `from: [x, y]` and `to: [x, y]`"),
    ("  shapes:\n    - {shape: polygon, points: [[0, 0], [1, 1]]}\n",
     "11:32 B141 the polygon's `points` needs at least 3 points, not 2 | write one [x, y] per corner"),
    ("  background: gras\n",
     '10:15 B142 the background `gras` is neither a palette colour nor a hex colour | palette colours: `grass`; '
     'or write a hex colour in quotes, like "#2e7d32"'),
    ("  links:\n    stpe: hidden\n",
     "11:5 B143 there is no link kind `stpe` (layout `links`) | did you mean `step`?"),
    ("  borders:\n    wall: {colour: grass}\n",
     "11:5 B143 there is no link kind `wall` (layout `borders`) | link kinds: `step`"),
    ("  tracks:\n    - spaces: [a, b, c]\n      along: {shape: line, points: [[0, 0], [1, 0]]}\n      size: 0.3\n",
     "13:13 B144 track spaces `a` and `b` overlap: their centres are 0.50 apart and each is 0.60 wide | "
     "make the path longer or the `size` smaller"),
    ("  spaces:\n    a: {shape: circle, center: [0, 0], radius: 0.4}\n"
     "  tracks:\n    - spaces: [a, b]\n      along: {shape: line, points: [[0, 0], [4, 0]]}\n",
     "13:16 B145 `a` is placed twice: in layout `spaces` and in a track | "
     "give each space one shape: in `spaces:` or in one track"),
    ("  spaces:\n    a: {shape: rect, from: [0, 0], to: [1, 1], clip: oval}\n",
     "11:54 B146 `clip: oval` names no convex decoration (space `a`) | "
     "give a convex decoration of `shapes:` a `name:` first; named: none"),
    ("  spaces:\n    a: {shape: rect, from: [0, 0], to: [0.5, 0.3], label: \"Home Scoring Area\"}\n",
     "11:59 B147 the label `Home Scoring Area` does not fit inside the shape of `a` | "
     "make the shape larger, move `label_at`, or write a shorter `label`"),
    ("  spaces:\n    z: {fill: grass}\n",
     "11:5 B121 there is no space named `z` (layout `spaces`) | spaces come from the grid map, the rings and `spaces`"),
    ("  colour: grass\n",
     "10:3 B103 unknown key `colour` in `layout` | allowed keys: `unit`, `background`, `names`, `shapes`, `spaces`, "
     "`default`, `tracks`, `marks`, `labels`, `links`, `borders`, `legend`, `sides`"),
])
def test_layout_mistakes_are_positioned(layout, expected):
    assert _problems(layout) == [expected]


def test_every_layout_mistake_is_reported_at_once():
    codes = [p.split()[1] for p in _problems("  background: gras\n  links:\n    stpe: hidden\n"
                                            "  marks:\n    - {spaces: [a], shape: blob}\n")]
    assert codes == ["B142", "B143", "B140"]


def test_a_label_that_fits_is_accepted_and_kept():
    board = parse_board(HEAD + '  unit: 60\n  spaces:\n    a: {shape: rect, from: [0, 0], to: [3, 1], '
                        'label: "Home Scoring Area"}\n', "board.yaml")
    entry = board.layout["spaces"]["a"]
    assert entry["label"] == "Home Scoring Area" and entry["label_at"] == [1.5, 0.5]


def test_clipping_keeps_the_part_inside():
    board = parse_board(HEAD + "  shapes:\n    - {name: oval, shape: ellipse, center: [0, 0], radius: [2, 1]}\n"
                        "  spaces:\n    a: {shape: rect, from: [1, -2], to: [3, 2], clip: oval, label: \"\"}\n",
                        "board.yaml")
    xs = [p[0] for p in board.layout["spaces"]["a"]["outline"]]
    assert min(xs) == pytest.approx(1) and max(xs) == pytest.approx(2, abs=1e-3)


@pytest.mark.parametrize("path", sorted(glob.glob(str(ROOT / "rules" / "*" / "board.yaml"))),
                         ids=lambda p: Path(p).parent.name)
def test_the_bundled_boards_have_layouts(path):
    layout = load_board(path).layout
    assert layout and layout["legend"], "each bundled board is drawn from a layout with a legend"
