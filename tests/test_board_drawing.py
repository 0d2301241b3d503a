"""The board pictures (lumos.reference.boards) show the boards the rulebooks describe.

The SVG is parsed, not compared with a stored picture: every space is drawn once, labels sit
inside their spaces, the Snitch Race's spaces do not overlap, pieces stand where a position
puts them, and each board shows the parts its rulebook names.
"""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

from lumos.api import bundled_games, load_game, new_game
from lumos.compiler import geometry as G
from lumos.reference.boards import PngUnavailable, piece_label, render_png, render_svg

SVG = "{http://www.w3.org/2000/svg}"
GAMES = sorted(bundled_games())


@pytest.fixture(scope="module", params=GAMES)
def game(request):
    return load_game(request.param)


@pytest.fixture(scope="module")
def cgs():
    return load_game("catch-the-golden-snitch")


def _svg(cg, position=None) -> ET.Element:
    return ET.fromstring(render_svg(cg, position))


def _groups(root, cls: str):
    return [g for g in root.iter(f"{SVG}g") if cls in (g.get("class") or "").split()]


def _labels(root) -> dict[str, ET.Element]:
    return {t.get("data-space"): t for t in root.iter(f"{SVG}text") if t.get("class") == "space-label"}


def _text(el) -> str:
    return " ".join(s.text or "" for s in el.iter(f"{SVG}tspan")) or (el.text or "")


def _polygon(g) -> list[tuple[float, float]]:
    shape = next(iter(g.iter(f"{SVG}polygon")))
    return [tuple(map(float, p.split(","))) for p in shape.get("points").split()]


def _circle(g) -> tuple[float, float, float]:
    c = next(iter(g.iter(f"{SVG}circle")))
    return float(c.get("cx")), float(c.get("cy")), float(c.get("r"))


def _text_box(t) -> tuple[float, float, float, float]:
    """The box (left, top, right, bottom, in pixels) of a label's lines, at the width the
    drawing allows per character (an upper bound of real glyphs, checked in a browser below)."""
    font = float(t.get("font-size"))
    spans = list(t.iter(f"{SVG}tspan"))
    x = float(spans[0].get("x"))
    half = max(G.text_width(s.text or "", font, bold=t.get("font-weight") == "bold") for s in spans) / 2
    ys = [float(s.get("y")) for s in spans]
    return x - half, min(ys) - font * 0.85, x + half, max(ys) + font * 0.25


def test_every_space_is_drawn_once_with_its_name(game):
    root = _svg(game)
    drawn = [g.get("data-space") for g in _groups(root, "space")]
    assert sorted(drawn) == sorted(game.board.spaces)


def test_the_picture_is_well_formed_with_and_without_pieces(game):
    root = _svg(game, new_game(game, seed=3))
    assert root.get("viewBox", "").startswith("0 0 ")
    assert root.find(f"{SVG}title").text == game.board.name


# ---------------------------------------------------------------- Catch the Golden Snitch


ZONES = {"home_scoring": "Home Scoring Area", "away_scoring": "Away Scoring Area",
         "home_deploy": "Home Deployment Zone", "away_deploy": "Away Deployment Zone",
         "centre_north": "North Orange Zone", "centre_south": "South Orange Zone"}


def test_cgs_zones_are_areas_of_the_oval_with_whole_names_inside(cgs):
    """"Elements of the Game > The Game Board": the oval Pitch is divided into 12 Zones; each
    is drawn as an area whose whole label (no "me_sco", "ntre_no") lies inside it."""
    root = _svg(cgs)
    zones = {g.get("data-space"): g for g in _groups(root, "space") if g.find(f"{SVG}polygon") is not None}
    assert len(zones) == 12
    labels = _labels(root)
    for name, g in zones.items():
        poly = _polygon(g)
        left, top, right, bottom = _text_box(labels[name])
        xs, ys = [p[0] for p in poly], [p[1] for p in poly]
        assert min(xs) <= left and right <= max(xs) and min(ys) <= top and bottom <= max(ys), name
        # the label's corners are inside the area itself, not only its box
        for y in (top, bottom):
            run = G.span_at([(x, -yy) for x, yy in poly], -y)
            assert run and run[0] <= left and right <= run[1], (name, y)
    for name, words in ZONES.items():
        assert _text(labels[name]) == words


def test_cgs_zones_that_touch_are_the_adjacent_ones(cgs):
    """The Zones drawn side by side are exactly those the board links (`adjacent`): the picture
    tells the same adjacency as the rules ("The central circle is not a Zone")."""
    lay = cgs.board.layout["spaces"]
    zones = [s for s in lay if "outline" in lay[s]]

    def touch(a, b):
        pa, pb = lay[a]["outline"], lay[b]["outline"]
        shared = 0
        for p, q in zip(pa, pa[1:] + pa[:1]):
            for r, s in zip(pb, pb[1:] + pb[:1]):
                if p[0] == q[0] == r[0] == s[0] or p[1] == q[1] == r[1] == s[1]:
                    axis = 1 if p[0] == q[0] else 0
                    lo = max(min(p[axis], q[axis]), min(r[axis], s[axis]))
                    hi = min(max(p[axis], q[axis]), max(r[axis], s[axis]))
                    shared += max(0.0, hi - lo)
        return shared > 1e-6

    b = cgs.board
    for i, a in enumerate(zones):
        for c in zones[i + 1:]:
            linked = b.index[c] in b.neighbours(b.index[a], "adjacent")
            assert touch(a, c) == linked, (a, c)


def test_cgs_snitch_race_is_a_track_of_15_spaces_that_do_not_overlap(cgs):
    """"The Snitch Race": the area beyond the standard Zones; 15 spaces from the Seekers' first
    space to the Snitch's last, drawn around the Pitch, none on top of another."""
    root = _svg(cgs)
    race = [g for g in _groups(root, "space") if re.fullmatch(r"r\d+", g.get("data-space"))]
    assert len(race) == 15
    circles = [_circle(g) for g in race]
    for i, (x1, y1, r1) in enumerate(circles):
        for x2, y2, r2 in circles[i + 1:]:
            assert math.hypot(x2 - x1, y2 - y1) >= r1 + r2
    # outside the oval: every race space lies beyond the Pitch's ellipse
    pitch = next(d for d in cgs.board.layout["shapes"] if d["shape"] == "ellipse")
    (cx, cy), (rx, ry) = pitch["center"], pitch["radius"]
    for name, c in zip(cgs.board.layout["tracks"][0]["spaces"], cgs.board.layout["tracks"][0]["centres"]):
        assert ((c[0] - cx) / rx) ** 2 + ((c[1] - cy) / ry) ** 2 > 1, name
    labels = _labels(root)
    assert [_text(labels[f"r{k}"]) for k in range(1, 16)] == [str(k) for k in range(1, 16)]


def test_cgs_pieces_stand_in_their_zones(cgs):
    """"Setup", 2nd Step: Keepers in their Scoring Areas, Seekers on the first race space, the
    other Players in their Deployment Zones; the Snitch on the last space (1st Step)."""
    state = new_game(cgs, seed=1)
    placed = state.position()["pieces"]
    root = _svg(cgs, state)
    spaces = {g.get("data-space"): g for g in _groups(root, "space")}
    pieces = _groups(root, "piece")
    on_board = {n: s for n, s in placed.items() if isinstance(s, str)}
    assert {p.get("data-piece") for p in pieces} == set(on_board)
    for p in pieces:
        name, space = p.get("data-piece"), p.get("data-space")
        assert space == on_board[name]
        x, y, _ = _circle(p)
        g = spaces[space]
        if g.find(f"{SVG}polygon") is not None:
            poly = _polygon(g)
            run = G.span_at([(a, -b) for a, b in poly], -y)
            assert run and run[0] <= x <= run[1], name
        else:
            cx, cy, r = _circle(g)
            assert math.hypot(x - cx, y - cy) <= r, name
    assert on_board["home keeper"] == "home_scoring" and on_board["snitch"] == "r15"


# ---------------------------------------------------------------- Snitch Snatcher


def test_snitch_snatcher_shows_its_designated_areas():
    """"Quidditch Player Movement & Designated Board Areas": Middle Line, Keeper Areas, goal
    spaces, Seeker Track, Golden Snitch spaces; "Set Up": the start marks of each role."""
    cg = load_game("snitch-snatcher")
    root = _svg(cg)
    texts = {t.text for t in root.iter(f"{SVG}text") if t.get("class") in ("label", None)}
    assert {"Middle Line", "Home Keeper Area", "Away Keeper Area", "Seeker Track"} <= texts
    marks = {g.get("data-space") for g in _groups(root, "mark")}
    starts = {cg.board.spaces[p.start] for p in cg.pieces if p.start >= 0}
    assert starts <= marks          # every start space of every piece is marked
    shapes = {g.get("data-space"): [c for c in g if c.tag != f"{SVG}title"][0] for g in _groups(root, "space")}
    goal = cg.board.palette["yellow"]
    assert {s for s, el in shapes.items() if el.get("fill") == goal} == {"b1", "d1", "f1", "b13", "d13", "f13"}
    snitch = {cg.board.spaces[i] for r in ("snitch_north", "snitch_south") for i in cg.board.regions[r]}
    gold = {shapes[s].get("fill") for s in snitch}
    assert len(gold) == 1 and gold != {cg.board.palette["dark"]}


# ---------------------------------------------------------------- Defenders of Hogwarts


def test_defenders_walls_and_entrances():
    """"Movement & Map Elements": the castle and the grounds meet at three red entrances; every
    other border between them is a wall; obstacles are drawn on the borders they block."""
    cg = load_game("defenders-of-hogwarts")
    root = _svg(cg)
    borders = [l.get("data-kind") for l in root.iter(f"{SVG}line") if l.get("class") == "border"]
    assert borders.count("entrance") == 3
    assert borders.count("none") >= 3          # the castle walls between rows 5 and 4
    for kind in ("locked_door", "protective_spell", "physical_object", "water"):
        assert kind in borders, kind
    passages = [p.get("data-kind") for p in root.iter(f"{SVG}path") if p.get("class") == "link"]
    assert sorted(passages) == ["passage_blue", "passage_green", "passage_red"]
    labels = _labels(root)
    assert _text(labels["headmasters_office"]) == "Headmaster's Office"


# ---------------------------------------------------------------- pieces and PNG


def test_piece_labels_read_as_kind_and_number():
    assert piece_label("away beater 2", "beater", 1) == "B2"
    assert piece_label("quaffle", "quaffle", -1) == "Q"
    assert piece_label("race_die_3", "race_die_3", -1) == "RD3"


def test_a_carried_piece_is_drawn_beside_its_carrier():
    cg = load_game("snitch-snatcher")
    position = new_game(cg, seed=2).position()
    position["pieces"] = {**position["pieces"], "quaffle": {"carried_by": "home chaser 1"}}
    root = _svg(cg, position)
    quaffle = next(p for p in _groups(root, "piece") if p.get("data-piece") == "quaffle")
    assert quaffle.get("data-carried-by") == "home chaser 1"


def test_png_when_cairosvg_is_installed(cgs):
    try:
        data = render_png(cgs)
    except PngUnavailable as exc:   # no cairosvg, or no cairo library
        pytest.skip(str(exc))
    assert data[:8] == b"\x89PNG\r\n\x1a\n"


# ---------------------------------------------------------------- lumos board


def test_lumos_board_draws_a_position_file(tmp_path, capsys):
    """`lumos board GAME --position FILE`: the pieces stand where the position file says."""
    from lumos.cli import main
    position = tmp_path / "position.yaml"
    position.write_text("game: snitch-snatcher\nseed: 1\npieces:\n  home chaser 1: d7\n"
                        "  quaffle: {carried_by: home chaser 1}\n", encoding="utf-8")
    out = tmp_path / "board.svg"
    assert main(["board", "snitch-snatcher", "--position", str(position), "-o", str(out)]) == 0
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    where = {p.get("data-piece"): p.get("data-space") for p in _groups(root, "piece")}
    assert where["home chaser 1"] == "d7" and where["away keeper"] == "d13"
    capsys.readouterr()


def test_lumos_board_refuses_what_it_cannot_do(tmp_path, capsys):
    from lumos.cli import main
    assert main(["board", "snitch-snatcher", "--format", "png"]) == 2
    assert "PNG is binary: write it to a file with -o FILE.png" in capsys.readouterr().err
    assert main(["board", "snitch-snatcher", "--format", "json", "--position", "p.yaml"]) == 2
    assert "--position draws pieces on a picture" in capsys.readouterr().err
    bad = tmp_path / "position.yaml"
    bad.write_text("pieces:\n  home chaser 9: d7\n", encoding="utf-8")
    assert main(["board", "snitch-snatcher", "--position", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "position.yaml:2:3: P" in err and "home chaser 9" in err


def test_lumos_board_png(tmp_path):
    from lumos.cli import main
    try:
        render_png(load_game("snitch-snatcher"))
    except PngUnavailable as exc:
        pytest.skip(str(exc))
    out = tmp_path / "board.png"
    assert main(["board", "snitch-snatcher", "--format", "png", "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
