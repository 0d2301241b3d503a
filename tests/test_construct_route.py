"""`route from A to B by LINK [through V where C]`: the spaces every shortest path passes, the
ones a move surely passed, so rules can keep them (a pawn may not pass again a space it passed earlier
in the turn: defenders-of-hogwarts.txt, Glossary, "Backtrack"). A tiny game made for the
test (no rulebook): a 3x3 grid of squares linked orthogonally, a runner that moves twice.
"""
from lumos.api import load_position

from support.sources import write_game

BOARD = """\
name: Square
grid:
  columns: abc
  rows: 3
  links:
    orthogonal: step
  legend:
    o: {colour: grey}
  map: |
    o o o
    o o o
    o o o
"""

GAME = """\
game "Twice"
board "board.yaml"
sides red, blue
kinds runner
pieces of red:
    runner at a1
var passed: list of space per piece = []
var blocked: space = none
var across: list of space = []
var nowhere: list of space = [a1]

flow:
    repeat 2 times:
        choose p from pieces of red by red label "move {p}"
        let was = p.space
        choose to from reach from p.space by step up to 2 through t where t not in p.passed and t is not blocked onto t where t not in p.passed by red label "to {to}"
        set p.passed = p.passed + [was] + (route from was to to by step through t where t not in p.passed and t is not blocked)
        place p at to
    set across = route from a1 to c3 by step
    set nowhere = route from a1 to a1 by step
    end in a draw
"""


def make(tmp_path, text=GAME):
    return write_game(tmp_path, "twice", {"game.lumos": text, "board.yaml": BOARD})


def run(state, labels):
    for label in labels:
        state.apply_action(state.action_labels().index(label))


def test_a_route_is_what_every_shortest_path_passes_and_is_not_passed_again(tmp_path):
    cg, diags, _ = make(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    state = load_position(cg, {"seed": 1})
    run(state, ["move red runner", "to c1"])            # a1 -> b1 -> c1
    assert state.position()["piece_vars"]["passed"]["red runner"] == ["a1", "b1", "c1"]
    run(state, ["move red runner"])
    # from c1, two steps that pass neither a1 nor b1: c2, c3 (b2 only by way of b1 or c2)
    assert sorted(label[3:] for label in state.action_labels()) == ["b2", "c2", "c3"]
    run(state, ["to b2"])                                # c1 -> c2 -> b2: b1 was passed, so c2 surely
    assert state.position()["piece_vars"]["passed"]["red runner"] == ["a1", "b1", "c1", "c1", "c2", "b2"]
    assert state.is_terminal()
    written = state.position()["vars"]
    assert written["across"] == ["c3"]                       # four shortest paths share only their end
    assert written["nowhere"] == []                          # a space to itself: no route


def test_a_route_goes_round_what_its_condition_bars(tmp_path):
    cg, _, _ = make(tmp_path)
    state = load_position(cg, {"seed": 1})
    run(state, ["move red runner", "to b2"])            # by b1 or by a2: neither is sure
    assert state.position()["piece_vars"]["passed"]["red runner"] == ["a1", "b2"]
    state = load_position(cg, {"seed": 1, "vars": {"blocked": "b1"}})
    run(state, ["move red runner", "to b2"])            # a1 -> a2 -> b2, not through the barred b1
    assert state.position()["piece_vars"]["passed"]["red runner"] == ["a1", "a2", "b2"]


def test_near_misses_of_route_are_reported_at_their_place(tmp_path):
    bad = GAME.replace("(route from was to to by step through", "(route from was to 3 by stpe through")
    cg, diags, _ = make(tmp_path, bad)
    assert cg is None
    got = {(d.code, d.message) for d in diags}
    assert ("E203", "the end of `route` should be a space, not a number") in got
    assert any(code == "E209" and "stpe" in message for code, message in got)
