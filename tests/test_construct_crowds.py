"""Spaces that hold several pieces: the board's `capacity`, `occupants(space)`, and `place`
refusing only when the space is full (R004). A space holds one piece unless the board says more.

A tiny game made for the test (no rulebook): three spaces in a row; the board lets two
pieces stand on each space and any number on `c`.
"""
from pathlib import Path

import pytest

from lumos.compiler.boards import parse_board
from lumos.interpreter.engine import GameState
from lumos.diagnostics import LumosCheckError, LumosRuntimeError

from support.sources import write_game

BOARD = """\
name: Row
capacity: 2
spaces:
  - {name: a, pos: [0, 0]}
  - {name: b, pos: [1, 0]}
  - {name: c, pos: [2, 0], attrs: {capacity: 0}}
links:
  - [a, b, step]
  - [b, c, step]
"""

GAME = """\
game "Crowds"
board "board.yaml"
sides red, blue
kinds runner
pieces of red:
    runner at a, a
pieces of blue:
    runner at c, c
piece ball

setup:
    place ball at c
    log "on c: {occupants(c)}"
    log "first on a: {occupant(a)}"
    place first(occupants(a)) at b
    log "first on a: {occupant(a)}; on b: {occupants(b)}; {count(occupants(c))} on c"
    place ball at a
    log "on a: {occupants(a)}; on c: {occupants(c)}"
    log "full: {spaces where full(it)}"

flow:
    choose p from occupants(c)
    place p at b
    end in a draw
"""


def make_game(tmp_path: Path, game_text: str = GAME, board_text: str = BOARD):
    return write_game(tmp_path, "crowds", {"game.lumos": game_text, "board.yaml": board_text})


def logged(state):
    return [e["event"] for e in state.events]


def test_occupants_lists_the_pieces_on_a_space_in_arrival_order(tmp_path):
    cg, diags, _ = make_game(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=1, log=True, forced="take")
    assert logged(state) == [
        "ball to c",
        "on c: blue runner 1, blue runner 2, ball",
        "first on a: red runner 1",
        "red runner 1 to b",
        "first on a: red runner 2; on b: red runner 1; 3 on c",
        "ball to a",
        "on a: red runner 2, ball; on c: blue runner 1, blue runner 2",
        "full: a",                 # b holds one of two; c has no limit
    ]


def test_a_choice_among_the_occupants_and_json_restore(tmp_path):
    cg, _, _ = make_game(tmp_path)
    state = GameState.new(cg, seed=1, forced="take")
    assert state.action_labels() == ["blue runner 1", "blue runner 2"]
    copy = GameState.from_json(cg, state.to_json())
    assert copy.st.occ == state.st.occ and copy.st.occ_next == state.st.occ_next
    copy.apply_action(1)
    b = cg.board.index["b"]
    assert [cg.pieces[p].name for p in copy.machine.occupants(b)] == ["red runner 1", "blue runner 2"]
    assert [cg.pieces[p].name for p in state.machine.occupants(b)] == ["red runner 1"]   # the copy is apart


def test_place_on_a_full_space_is_r004(tmp_path):
    cg, _, _ = make_game(tmp_path, GAME.replace("    place ball at a\n", "    place ball at b\n"
                                                 "    place first(occupants(c)) at b\n"))
    with pytest.raises(LumosRuntimeError) as info:
        GameState.new(cg, seed=1, forced="take")
    d = info.value.first
    assert d.code == "R004"
    assert d.message == "b is full: red runner 1, ball stand there and it holds 2 (in `setup`)"
    assert d.span.line == 18


def test_one_piece_per_space_by_default(tmp_path):
    board = BOARD.replace("capacity: 2\n", "").replace(", attrs: {capacity: 0}", "")
    cg, diags, _ = make_game(tmp_path, GAME.replace("runner at a, a", "runner at a")
                             .replace("runner at c, c", "runner at c"), board)
    assert cg is not None, [d.headline() for d in diags]
    with pytest.raises(LumosRuntimeError) as info:
        GameState.new(cg, seed=1, forced="take")
    assert info.value.first.code == "R004"
    assert info.value.first.message == "c is already occupied by blue runner (in `setup`)"


def test_more_pieces_starting_on_a_space_than_it_holds(tmp_path):
    cg, diags, _ = make_game(tmp_path, GAME.replace("runner at a, a", "runner at a, a, a"))
    assert cg is None
    d = next(d for d in diags if d.code == "E210")
    assert d.message == "more pieces start on `a` than it holds (2)"
    assert (d.span.line, d.span.col) == (6, 5)


@pytest.mark.parametrize("text, code, message", [
    ("capacity: -1\n", "B105", "`capacity` must be 0 (no limit) or more, not -1"),
    ("capacity: many\n", "B104", "`capacity` must be a whole number, not the text `many`"),
])
def test_board_capacity_must_be_a_whole_number(text, code, message):
    with pytest.raises(LumosCheckError) as info:
        parse_board(BOARD.replace("capacity: 2\n", text), "row.yaml")
    d = info.value.first
    assert (d.code, d.message, d.span.line) == (code, message, 2)


def test_space_capacity_is_also_an_attribute():
    board = parse_board(BOARD, "row.yaml")
    assert [board.holds(i) for i in range(3)] == [2, 2, 0]
    assert board.attr(2, "capacity") == 0
    with pytest.raises(LumosCheckError) as info:
        parse_board(BOARD.replace("{capacity: 0}", "{capacity: 1.5}"), "row.yaml")
    assert info.value.first.code == "B104"


def test_a_piece_given_away_leaves_the_crowd(tmp_path):
    """`give` takes the carried piece out of the pieces standing on its space, wherever it stood."""
    cg, diags, _ = make_game(tmp_path, GAME.replace(
        '    log "on a: {occupants(a)}; on c: {occupants(c)}"\n',
        '    give last_on_c() to first(occupants(c))\n'
        '    log "on c: {occupants(c)}; {count(occupants(a))} on a"\n'
        '    place ball at c\n'
        '    log "on c: {occupants(c)}"\n').replace(
        "flow:\n", "function last_on_c() = first(occupants(c) where it.kind is runner and it is not "
                   "first(occupants(c)))\n\nflow:\n"))
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=1, log=True, forced="take")
    texts = [e["event"] for e in state.events]
    assert texts[-4:] == ["on c: blue runner 1; 2 on a", "ball to c", "on c: blue runner 1, ball", "full: "]


def test_board_json_export_shows_capacities():
    import json

    from lumos.compiler.boards import export_json
    doc = json.loads(export_json(parse_board(BOARD, "row.yaml")))
    assert doc["capacity"] == {"a": 2, "b": 2, "c": 0}
    assert "capacity" not in json.loads(export_json(parse_board(BOARD.replace("capacity: 2\n", "")
                                                                .replace(", attrs: {capacity: 0}", ""), "row.yaml")))


def _model_check(cg, m, model):
    st = m.st
    for space in range(len(cg.board.spaces)):
        assert list(m.occupants(space)) == model[space], (cg.board.spaces[space], model[space])
        assert m.occupant(space) == (model[space][0] if model[space] else None)
    standing = {p for ps in model.values() for p in ps}
    for p in range(len(cg.pieces)):
        if p not in standing:
            assert st.occ_next[p] == -1


def test_occupants_follow_a_model_over_random_moves(tmp_path):
    """Random place / give / drop / place off on a board of crowds: the pieces standing on each
    space are always those a plain list model says, in arrival order (and survive JSON)."""
    from hypothesis import given, settings
    from hypothesis import strategies as hs

    cg, diags, _ = make_game(tmp_path, GAME.replace("    place p at b\n", "    pass\n"))
    assert cg is not None, [d.headline() for d in diags]
    npieces, nspaces = len(cg.pieces), len(cg.board.spaces)
    move = hs.tuples(hs.sampled_from(["place", "give", "drop", "off"]), hs.integers(0, npieces - 1),
                     hs.integers(0, max(npieces, nspaces) - 1))

    @settings(max_examples=150, deadline=None)
    @given(hs.lists(move, max_size=40))
    def run(moves):
        state = GameState.new(cg, seed=1, forced="take")
        m = state.machine
        model = {s: list(m.occupants(s)) for s in range(nspaces)}
        for verb, piece, other in moves:
            for ps in model.values():
                if piece in ps and verb != "drop":
                    ps.remove(piece)
            if verb == "place":
                space = other % nspaces
                m.st.holder[piece] = -1
                m.place(piece, space)
                model[space].append(piece)
            elif verb == "give" and other % npieces != piece:
                m.give(piece, other % npieces)
            elif verb == "drop":
                where = m.space_of(piece)
                if any(piece in ps for ps in model.values()):
                    continue   # a standing piece is not carried: nothing to drop
                m.st.holder[piece] = -1
                m.st.loc[piece] = -1 if where is None else where
            elif verb == "off":
                m.place(piece, -1)
            elif verb == "give":
                m.place(piece, -1)   # given to itself: the test takes it off instead
            _model_check(cg, m, model)
        again = GameState.from_json(cg, state.to_json())
        _model_check(cg, again.machine, model)
    run()


def test_the_text_picture_shows_every_piece_of_a_crowd(tmp_path):
    from lumos.interpreter.observe import render_text
    cg, _, _ = make_game(tmp_path)
    state = GameState.new(cg, seed=1, forced="take")
    assert "off-grid: a=RU+ba, b=RU, c=ru+ru" in render_text(state, 0)
