"""The generic board compiler, checked on the Snitch Snatcher pitch and on broken boards.

The rulebook prints no pitch; `rules/snitch-snatcher/board.yaml` is our
reconstruction, and these tests pin the facts the movement rules rely on.
"""
from __future__ import annotations

import doctest
import io
import json
import pickle
import xml.etree.ElementTree as ET
from pathlib import Path

import networkx as nx
import pytest

import lumos.compiler.boards as boards_module
import lumos.interpreter.board as board_module
from lumos.compiler.boards import (board_graph, export_graphml, export_json, export_svg,
                                   load_board, parse_board)
from lumos.interpreter.board import Board
from lumos.diagnostics import LumosCheckError, LumosError

PITCH = Path(__file__).resolve().parents[1] / "rules" / "snitch-snatcher" / "board.yaml"
SVG = "{http://www.w3.org/2000/svg}"
COLUMNS = "abcdefg"


@pytest.fixture(scope="module")
def pitch() -> Board:
    return load_board(PITCH)


def names(board: Board, indices) -> set[str]:
    return {board.spaces[i] for i in indices}


def idx(board: Board, *spaces: str) -> list[int]:
    return [board.index[s] for s in spaces]


# --------------------------------------------------------------------------------------
# The pitch


def test_pitch_compiles(pitch):
    """Equipment & Set-Up: one pitch of 7 x 13 grid spaces (3 goal spaces at each end)
    and a 20-space seeker track; link kinds are only those the YAML declares."""
    assert pitch.name == "Snitch Snatcher pitch"
    assert len(pitch) == 3 + 11 * 7 + 3 + 20
    assert set(pitch.links) == {"orthogonal", "diagonal", "track", "adjacent"}
    assert pitch.unions == {"adjacent": ("orthogonal", "diagonal")}
    assert pitch.palette == {"dark": "#2e7d32", "light": "#8bc34a", "yellow": "#fbc02d"}
    assert pitch.spaces[:3] == ("b1", "d1", "f1")  # stable order: row 1 first, left to right


@pytest.mark.parametrize("region, count", [
    ("goal_home", 3), ("goal_away", 3), ("keeper_area_home", 7), ("keeper_area_away", 7),
    ("middle_line", 7), ("half_home", 3 + 5 * 7), ("half_away", 3 + 5 * 7), ("field", 11 * 7),
    ("seeker_track", 20), ("snitch_north", 1), ("snitch_south", 1),
])
def test_region_sizes(pitch, region, count):
    """Additional Golden Snitch Game Terms (Keeper Area, Middle Line) and Quidditch Player
    Movement & Designated Board Areas: the areas the rules name, with their sizes."""
    assert len(pitch.regions[region]) == count


def test_region_members(pitch):
    """Additional Golden Snitch Game Terms > Keeper Area: the row directly in front of the
    goal spaces; Equipment & Set-Up > Golden Snitch: one Snitch space at each end."""
    assert names(pitch, pitch.regions["goal_home"]) == {"b1", "d1", "f1"}
    assert names(pitch, pitch.regions["goal_away"]) == {"b13", "d13", "f13"}
    assert names(pitch, pitch.regions["keeper_area_home"]) == {f"{c}2" for c in COLUMNS}
    assert names(pitch, pitch.regions["keeper_area_away"]) == {f"{c}12" for c in COLUMNS}
    assert names(pitch, pitch.regions["snitch_north"]) == {"t1"}
    assert names(pitch, pitch.regions["snitch_south"]) == {"t11"}
    for missing in ("a1", "c1", "e1", "g1", "a13", "g13"):
        assert missing not in pitch.index


def test_middle_line_splits_the_halves(pitch):
    """Rules of the Pitch 6: the Quaffle cannot be passed over the middle line; row 7 is
    the middle line, rows 1..6 the home half and rows 8..13 the away half."""
    home, away, middle = (pitch.regions[r] for r in ("half_home", "half_away", "middle_line"))
    assert not (home & away) and not (home & middle) and not (away & middle)
    grid = set(pitch.cells.values())
    assert home | away | middle == grid
    assert {pitch.attr(i, "row") for i in middle} == {7}
    assert {pitch.attr(i, "row") for i in home} == set(range(1, 7))
    assert {pitch.attr(i, "row") for i in away} == set(range(8, 14))
    assert pitch.in_region(pitch.index["d1"], "half_home")
    assert not pitch.in_region(pitch.index["d1"], "field")
    assert not pitch.in_region(pitch.index["d1"], "no_such_region")


def test_dark_spaces_form_a_chessboard(pitch):
    """Quidditch Players > Chasers: Chasers move diagonally, only on dark green; a field
    space is dark exactly when x + row is even, so diagonal steps keep the colour."""
    for i in pitch.regions["field"]:
        x, row = pitch.attr(i, "x"), pitch.attr(i, "row")
        assert pitch.attr(i, "colour") == ("dark" if (x + row) % 2 == 0 else "light")
    for i in pitch.regions["goal_home"] | pitch.regions["goal_away"]:
        assert pitch.attr(i, "colour") == "yellow"
    field = pitch.regions["field"]
    for i in field:
        for j in pitch.neighbours(i, "diagonal"):
            if j in field:
                assert pitch.attr(i, "colour") == pitch.attr(j, "colour")


def test_grid_attributes(pitch):
    """Quidditch Player Movement & Designated Board Areas: grid spaces know their column
    and row (row 1 is the home end), so rules can say forward and backward."""
    b5 = pitch.index["b5"]
    assert pitch.attrs[b5] == {"colour": "dark", "x": 1, "y": 5, "column": "b", "row": 5}
    assert pitch.positions[b5] == (1.0, 5.0)
    assert pitch.attr(b5, "missing", "default") == "default"


def test_chaser_diagonal_neighbours(pitch):
    """Quidditch Players > Chasers: move diagonally in any direction."""
    assert names(pitch, pitch.neighbours(pitch.index["b5"], "diagonal")) == {"a4", "c4", "a6", "c6"}
    assert names(pitch, pitch.neighbours(pitch.index["a2"], "diagonal")) == {"b1", "b3"}
    assert pitch.distance(*idx(pitch, "b3", "b7"), "diagonal") == 4


def test_beater_orthogonal_neighbours(pitch):
    """Quidditch Players > Beaters: forward, backward, left and right, not diagonally."""
    d7 = pitch.index["d7"]
    assert names(pitch, pitch.neighbours(d7, "orthogonal")) == {"d6", "d8", "c7", "e7"}
    assert names(pitch, pitch.neighbours(pitch.index["d1"], "orthogonal")) == {"d2"}
    assert names(pitch, pitch.neighbours(pitch.index["a2"], "orthogonal")) == {"a3", "b2"}
    # b5 and c6 share a colour: no orthogonal path between different colours in one step
    assert pitch.distance(*idx(pitch, "b5", "c6"), "orthogonal") == 2


def test_keeper_zigzag(pitch):
    """Quidditch Players > Keeper and Additional Golden Snitch Game Terms > Keeper Area:
    Keepers move diagonally between the goal spaces and the dark spaces of their keeper
    area; the zigzag a2-b1-c2-d1-e2-f1-g2 is a diagonal path."""
    for goals, area, row in (("goal_home", "keeper_area_home", 2),
                             ("goal_away", "keeper_area_away", 12)):
        dark = {i for i in pitch.regions[area] if pitch.attr(i, "colour") == "dark"}
        assert names(pitch, dark) == {f"{c}{row}" for c in "aceg"}
        for goal in pitch.regions[goals]:
            assert set(pitch.neighbours(goal, "diagonal")) <= dark
            assert len(pitch.neighbours(goal, "diagonal")) == 2
    zigzag = idx(pitch, "a2", "b1", "c2", "d1", "e2", "f1", "g2")
    for a, b in zip(zigzag, zigzag[1:]):
        assert b in pitch.neighbours(a, "diagonal")


def test_seeker_track_ring(pitch):
    """Quidditch Players > Seeker and Spot the Golden Snitch: Seekers move on the seeker
    track that circles the pitch; t6 is 5 spaces from the Snitch space t1."""
    track = pitch.regions["seeker_track"]
    assert names(pitch, track) == {f"t{k}" for k in range(1, 21)}
    for i in track:
        assert len(pitch.neighbours(i, "track")) == 2
        assert pitch.attr(i, "colour") == "dark"
        assert pitch.neighbours(i, "orthogonal") == ()
    assert names(pitch, pitch.neighbours(pitch.index["t1"], "track")) == {"t2", "t20"}
    assert pitch.distance(*idx(pitch, "t6", "t1"), "track") == 5
    assert pitch.distance(*idx(pitch, "t6", "t11"), "track") == 5
    assert pitch.distance(*idx(pitch, "t1", "t11"), "track") == 10
    assert pitch.distance(*idx(pitch, "t1", "d7"), "track") == -1
    assert pitch.distance(*idx(pitch, "t1", "d7"), "adjacent") == -1


def test_track_positions_circle_the_pitch(pitch):
    """Equipment & Set-Up > Set Up: Seekers start at the midpoints of the track (t6 east,
    t16 west); the Snitch spaces t1 / t11 are at the north / south ends."""
    pos = {s: pitch.positions[i] for s, i in pitch.index.items()}
    assert pos["t1"][1] > 13 and pos["t11"][1] < 1
    assert pos["t6"][0] > 6 and pos["t16"][0] < 0
    assert pos["t1"][0] == pytest.approx(3) and pos["t6"][1] == pytest.approx(7)
    for k in range(1, 21):  # clear of every grid square (half a unit around each cell)
        x, y = pos[f"t{k}"]
        assert not (-1 < x < 7 and 0 < y < 14)


def test_adjacent_is_king_distance(pitch):
    """Quidditch Player Movement & Designated Board Areas: `adjacent` is the union of
    orthogonal and diagonal links, so its distance on the field is max(|dx|, |dy|)."""
    field = sorted(pitch.regions["field"])
    for a in field:
        for b in field:
            dx = abs(pitch.attr(a, "x") - pitch.attr(b, "x"))
            dy = abs(pitch.attr(a, "y") - pitch.attr(b, "y"))
            assert pitch.distance(a, b, "adjacent") == max(dx, dy)
            assert pitch.distance(a, b, "orthogonal") == dx + dy
    b5 = pitch.index["b5"]
    assert set(pitch.neighbours(b5, "adjacent")) == \
        set(pitch.neighbours(b5, "orthogonal")) | set(pitch.neighbours(b5, "diagonal"))


def test_step_by_offset(pitch):
    """Playing Cards > Action Cards ("Fly Sideways": 2 spaces to the left or right):
    `step` finds the grid space at an offset, or -1 off the board or in a hole."""
    b5 = pitch.index["b5"]
    assert pitch.spaces[pitch.step(b5, 1, 1)] == "c6"
    assert pitch.spaces[pitch.step(b5, 2, 0)] == "d5"
    assert pitch.step(b5, -2, 0) == -1
    assert pitch.step(pitch.index["b1"], -1, 0) == -1  # a1 is not a space
    assert pitch.step(pitch.index["t1"], 0, 1) == -1  # track spaces are not grid cells


def test_board_pickles_and_is_immutable(pitch):
    """Equipment & Set-Up: one board is shared by every state of a compiled game, so it
    must pickle (workers, caches) and refuse changes."""
    copy = pickle.loads(pickle.dumps(pitch))
    assert copy == pitch and hash(copy) == hash(pitch)
    assert copy.distance(*idx(copy, "t6", "t1"), "track") == 5
    with pytest.raises(AttributeError):
        pitch.name = "other"  # type: ignore[misc]


# --------------------------------------------------------------------------------------
# Exporters


def test_board_graph(pitch):
    """Quidditch Player Movement & Designated Board Areas: the networkx view keeps every
    space's attributes and one edge per link kind; the union is derived, not drawn."""
    graph = board_graph(pitch)
    assert graph.number_of_nodes() == len(pitch)
    assert graph.nodes["b5"]["colour"] == "dark"
    assert graph.nodes["b5"]["regions"] == ["field", "half_home"]
    assert graph.has_edge("b5", "c6", key="diagonal")
    assert not graph.has_edge("b5", "c6", key="orthogonal")
    kinds = {k for _, _, k in graph.edges(keys=True)}
    assert kinds == {"orthogonal", "diagonal", "track"}
    assert graph.graph["unions"] == {"adjacent": ["orthogonal", "diagonal"]}


def test_export_json(pitch):
    """Equipment & Set-Up: the JSON export lists every space, link and region."""
    doc = json.loads(export_json(pitch))
    assert len(doc["spaces"]) == len(pitch)
    assert len(doc["links"]["track"]) == 20
    assert doc["regions"]["snitch_north"] == ["t1"]
    assert doc["unions"] == {"adjacent": ["orthogonal", "diagonal"]}


def test_export_graphml_round_trips(pitch):
    """Equipment & Set-Up: GraphML reads back with networkx, attributes as plain text."""
    graph = nx.read_graphml(io.StringIO(export_graphml(pitch)))
    assert graph.number_of_nodes() == len(pitch)
    assert graph.number_of_edges() == board_graph(pitch).number_of_edges()
    assert graph.nodes["b5"]["regions"] == "field,half_home"
    assert graph.nodes["b5"]["pos"] == "1.0,5.0"
    assert graph.nodes["b5"]["row"] == 5
    assert graph.graph["union_adjacent"] == "orthogonal,diagonal"


def test_export_svg(pitch):
    """Quidditch Player Movement & Designated Board Areas: the drawing has a square per
    grid space, a circle per track space, a label per space, and a title."""
    root = ET.fromstring(export_svg(pitch))
    shapes = [e for e in root.iter() if e.get("class") == "space"]
    assert len(shapes) == len(pitch)
    assert sum(e.tag == SVG + "rect" for e in shapes) == len(pitch.cells)
    assert sum(e.tag == SVG + "circle" for e in shapes) == 20
    assert {e.get("data-space") for e in shapes} == set(pitch.spaces)
    b5 = next(e for e in shapes if e.get("data-space") == "b5")
    assert b5.get("fill") == "#2e7d32"
    labels = {e.text for e in root.iter(SVG + "text")}
    assert set(pitch.spaces) <= labels
    assert root.find(SVG + "title").text == "Snitch Snatcher pitch"
    assert len([e for e in root.iter(SVG + "line")]) == 20  # the track links


# --------------------------------------------------------------------------------------
# Generic features other games use


def test_default_union_and_explicit_spaces():
    """Quidditch Player Movement & Designated Board Areas (generic form): a grid with
    both link generators gets `adjacent` by default; `union: {}` turns it off; explicit
    spaces and links make boards without a grid."""
    grid = ("name: g\ngrid: {columns: ab, rows: 2, links: {orthogonal: o, diagonal: d},"
            " legend: {X: {}}, map: \"X X\\nX X\"}\n")
    assert parse_board(grid).unions == {"adjacent": ("o", "d")}
    assert set(parse_board(grid + "union: {}\n").links) == {"o", "d"}
    zones = parse_board("""
name: zones
spaces:
  - {name: left, pos: [0, 0], regions: [ends]}
  - {name: mid, pos: [1, 0], attrs: {scoring: true}}
  - {name: right, pos: [2, 0], regions: [ends]}
links:
  - [left, mid, near]
  - [mid, right, near]
""")
    assert zones.distance(*idx(zones, "left", "right"), "near") == 2
    assert zones.attr(zones.index["mid"], "scoring") is True
    assert names(zones, zones.regions["ends"]) == {"left", "right"}
    assert zones.step(0, 1, 0) == -1


# --------------------------------------------------------------------------------------
# Broken boards: exact code, line and column

GRID = """name: test
grid:
  columns: abc
  rows: 2
  links: {orthogonal: o, diagonal: d}
  legend:
    X: {colour: dark}
  map: |
    X X X
    X . X
"""

BROKEN = [
    ("unknown legend char", GRID.replace("X . X", "X Q X"), "B111", 10, 7),
    ("ragged row, too short", GRID.replace("X . X", "X X"), "B113", 10, 5),
    ("ragged row, too long", GRID.replace("X . X", "X . X X"), "B113", 10, 11),
    ("two spaces between cells", GRID.replace("X . X", "X  X X"), "B114", 10, 7),
    ("rows disagree with map", GRID.replace("rows: 2", "rows: 3"), "B112", 8, 8),
    ("rows is text", GRID.replace("rows: 2", "rows: two"), "B104", 4, 9),
    ("duplicate space", GRID + "spaces:\n  - {name: a1, pos: [0, 0]}\n", "B120", 12, 12),
    ("unknown space in region", GRID + "regions:\n  r: [a1, a9]\n", "B121", 12, 11),
    ("unknown space in link", GRID + "links:\n  - [a1, c9, o]\n", "B121", 12, 10),
    ("self link", GRID + "links:\n  - [a1, a1, o]\n", "B123", 12, 10),
    ("missing name", GRID.replace("name: test\n", ""), "B102", 1, 1),
    ("unknown top-level key", GRID + "regoins: {}\n", "B103", 11, 1),
    ("unknown grid generator", GRID.replace("diagonal: d", "diagonl: d"), "B115", 5, 26),
    ("legend key is a number", GRID.replace("X: {colour", "1: {colour"), "B110", 7, 5),
    ("legend sets x", GRID.replace("{colour: dark}", "{x: 3}"), "B117", 7, 9),
    ("bad palette colour", GRID + "palette: {dark: green}\n", "B124", 11, 17),
    ("unknown union member", GRID + "union: {adjacent: [o, diag]}\n", "B122", 11, 23),
    ("union reuses a kind", GRID + "union: {o: [o, d]}\n", "B125", 11, 9),
    ("repeated column", GRID.replace("columns: abc", "columns: aba"), "B116", 3, 12),
    ("ring too small", "name: r\nrings:\n  - {name: r, count: 2, prefix: s, link: k}\n",
     "B105", 3, 22),
    ("ring attr is a list",
     "name: r\nrings:\n  - {name: r, count: 3, prefix: s, link: k, attrs: {c: [a]}}\n",
     "B104", 3, 56),
    ("link is a pair", GRID + "links:\n  - [a1, b1]\n", "B104", 12, 5),
    ("no spaces", "name: empty\n", "B126", 1, 1),
    ("not a mapping", "- a\n- b\n", "B101", 1, 1),
]


@pytest.mark.parametrize("text, code, line, col",
                         [case[1:] for case in BROKEN], ids=[case[0] for case in BROKEN])
def test_broken_board(tmp_path, text, code, line, col):
    """Quidditch Player Movement & Designated Board Areas: a designer's mistake in the
    board file is one positioned diagnostic with a code and a hint, never a traceback."""
    path = tmp_path / "board.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LumosCheckError) as info:
        load_board(path)
    first = info.value.first
    assert (first.code, first.span.file, first.span.line, first.span.col) == \
        (code, str(path), line, col)
    assert first.message and first.hint
    rendered = first.render(text.splitlines())
    assert rendered.startswith(f"{path}:{line}:{col}: {code} ")
    assert "^" in rendered


def test_broken_board_messages_word_for_word():
    """Additional Golden Snitch Game Terms > Keeper Area (a row in front of the goals):
    the map errors a designer meets most, word for word."""
    with pytest.raises(LumosCheckError) as info:
        parse_board(GRID.replace("X . X", "X Q X"), "pitch.yaml")
    d = info.value.first
    assert d.headline() == "pitch.yaml:10:7: B111 map character `Q` is not in the legend"
    assert d.hint == "the legend defines `X`; `.` means no space"
    with pytest.raises(LumosCheckError) as info:
        parse_board(GRID + "regions:\n  keeper_area: [a1, c11]\n", "pitch.yaml")
    assert info.value.first.message == "there is no space named `c11` (in region `keeper_area`)"
    assert info.value.first.hint == "did you mean `c1`?"


def test_independent_problems_reported_together():
    """Quidditch Player Movement & Designated Board Areas: a designer fixes a board file
    in one pass, so independent problems come back in one error, sorted by position."""
    text = GRID.replace("rows: 2", "rows: two").replace("diagonal: d", "diagonl: d") + \
        "palette: {dark: green}\n"
    with pytest.raises(LumosCheckError) as info:
        parse_board(text, "b.yaml")
    found = [(d.code, d.span.line) for d in info.value.diagnostics]
    assert found == [("B104", 4), ("B115", 5), ("B124", 11)]


def test_unknown_character_reported_once():
    """Quidditch Player Movement & Designated Board Areas: a misspelt legend character
    is reported at its first cell only, not once per cell."""
    with pytest.raises(LumosCheckError) as info:
        parse_board(GRID.replace("X X X", "Q Q Q").replace("X . X", "Q . Q"), "b.yaml")
    assert [(d.code, d.span.line, d.span.col) for d in info.value.diagnostics] == \
        [("B111", 9, 5)]


def test_a_grid_link_kind_that_links_nothing_still_exists():
    """A grid's declared link kind is a kind of the board even when no two cells meet that way
    (a diagonal on a one-row grid): the default union and the rules can name it. It was a
    KeyError ('internal error') while building the union."""
    strip = """name: Strip
grid:
  columns: abc
  rows: 1
  links:
    orthogonal: step
    diagonal: jump
  legend:
    o: {}
  map: |
    o o o
"""
    board = parse_board(strip, "strip.yaml")
    assert all(row == () for row in board.links["jump"])
    assert board.links["adjacent"] == board.links["step"]
    assert names(board, board.links["step"][board.index["b1"]]) == {"a1", "c1"}


def test_unreadable_and_unparsable_files(tmp_path):
    """Equipment & Set-Up: a missing file or broken YAML is a positioned error too."""
    with pytest.raises(LumosCheckError) as info:
        load_board(tmp_path / "missing.yaml")
    assert info.value.first.code == "B100"
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed\n", encoding="utf-8")
    with pytest.raises(LumosError) as info:
        load_board(bad)
    assert info.value.first.code == "Y001"


def test_doctests():
    """Equipment & Set-Up: the examples in the board modules' docstrings run."""
    for module in (boards_module, board_module):
        assert doctest.testmod(module).failed == 0
