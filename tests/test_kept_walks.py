"""compiler/static_search.py: a walk whose `through` condition reads only what never changes in a
game (besides the space tested, its locals and a few state reads the same for the whole search)
is found once per key and kept per compiled game; only `onto` is tested at each decision
(docs/speed.md, "Kept walks").

A tiny game made for the test (no rulebook): two runners walk a 5 x 5 field on the squares of
their side's colour (columns a, c, e dark; b, d light) or the middle row, as far as a d4 says. Each case is played with both back
ends over seeded random games: the logs and the whole state at every step (a turn's procedure
keeps a walk in its own locals while the side decides: a saved state holds them) must be equal;
the generated source says whether the walk was kept.
"""
from __future__ import annotations

import random
import pytest

import lumos.compiler.fused as fused
from lumos.compiler import lower_expr, static_search
from lumos.diagnostics import LumosRuntimeError
from lumos.interpreter.engine import GameState

from support.equivalence import every_step
from support.sources import write_game

BOARD = """\
name: Field
palette: {dark: "#2e7d32", light: "#8bc34a"}
grid:
  columns: abcde
  rows: 5
  links:
    orthogonal: step
  legend:
    D: {colour: dark}
    L: {colour: light}
    M: {colour: dark, regions: [middle]}
    H: {colour: light, height: high}
    N: {colour: dark, height: 2}
  map: |
    D L D L D
    D L D H D
    M M M M M
    D L D L D
    D L N L D
"""

GAME = """\
game "Kept walks"
board "board.yaml"
sides red, blue
die d4 faces 1, 2, 3, 4
kinds runner
pieces of red:
    runner at a1
pieces of blue:
    runner at d5
option hard = "off" choices "off", "on"
const colour per side = "dark", "light"
var rolled = 0
var turns = 0
var mark: number per space = 0

function free(s) = occupant(s) is none
function is_colour(c, p) = c == p.side.colour
function ground(p, s) = (is_colour(s.colour, p) or s in middle) and not (hard == "on" and occupant(s) is not none)
function ends(p, n) = reach from p.space by step exactly n without backtracking through s where {through} onto s where ground(p, s) and free(s)

action walk:
    with p in pieces of current
    with to in ends(p, rolled)
    label "walk {{p}} to {{to}}"
    place p at to
    set to.mark = to.mark + 1

procedure turn(s):
    roll n with d4 by s
    set rolled = n
    let kept = ends(first(pieces of s), n)
    log "{{s}} may end on {{kept}}"
    do one of walk by s

flow:
    loop:
        turn(current)
        add 1 to turns
        if turns >= 30:
            end in a draw
        set current = other(current)
"""


def compiled(tmp_path, through: str, backend: str):
    with fused.using_backend(backend):
        cg, diags, _ = write_game(tmp_path, "walks", {"game.lumos": GAME.format(through=through), "board.yaml": BOARD})
    assert cg is not None, [d.headline() for d in diags]
    return cg


steps = every_step   # the whole state after every step, then the log


@pytest.fixture
def kept_walks(monkeypatch):
    """The kept walks of every walk compiled in the test: a list of their dictionaries, filled
    as they run (empty if no walk was kept)."""
    made = []
    real = lower_expr._walk_search

    def spy(*args):
        fn = real(*args)
        made.append(fn)
        return fn
    monkeypatch.setattr(lower_expr, "_walk_search", spy)

    def found():
        return [v for fn in made for v in fn.__globals__.values() if type(v) is fused.KeptWalks]
    return found


def same_games(tmp_path, through: str, seeds=range(1, 13), options=None):
    ref, new = compiled(tmp_path, through, "reference"), compiled(tmp_path, through, "specialised")
    for seed in seeds:
        assert steps(ref, seed, options) == steps(new, seed, options), f"seed {seed}"
    return new


FIXED = "ground(p, s)"


def test_a_walk_on_fixed_ground_is_kept_and_plays_as_the_reference(tmp_path, kept_walks):
    same_games(tmp_path, FIXED)
    kept = [k for k in kept_walks() if k]
    assert kept, "no walk was kept"
    entries = [v for k in kept for v in k.values()]
    assert all(v is not fused._NO_NAMES for v in entries)    # the option is off: every key kept
    # a kept walk gives its ends and the value the condition left in the space's slot
    assert any(ends for ends, _slot in entries)


def test_a_key_the_guard_rules_out_is_searched_every_time(tmp_path, kept_walks):
    # `hard` on: the condition reads who stands where (occupant(s)), so no answer is kept
    same_games(tmp_path, FIXED, options={"hard": "on"})
    entries = [v for k in kept_walks() for v in k.values()]
    assert entries and all(v is fused._NO_NAMES for v in entries)


@pytest.mark.parametrize("through, kept", [
    ('s.colour == "dark"', True),
    ("s in middle or s.colour == p.side.colour", True),
    ('hard == "off" or free(s)', True),           # free(s) runs only with the option on: a guard
    ('free(s) or hard == "off"', False),          # free(s) runs first, whatever the option
    ("free(s)", False),                           # who stands where changes
    ("s.mark == 0", False),                       # a variable per space changes
    ("s is not p.space", True),                   # the piece's space: the same for the whole search
    ("count(occupants(s)) == 0", False),
])
def test_which_walks_are_kept(tmp_path, kept_walks, through, kept):
    same_games(tmp_path, through, seeds=range(1, 4))
    assert bool(kept_walks()) == kept


def test_a_walk_through_a_changing_variable_is_not_kept_and_keeping_it_would_be_wrong(tmp_path, kept_walks,
                                                                                      monkeypatch):
    # every walk marks the space it ends on; the walks avoid marked spaces
    changing = "s.mark == 0 and ground(p, s)"
    same_games(tmp_path, changing)
    assert kept_walks() == []
    # told (wrongly) that the condition is fixed, the specialised back end keeps the first
    # answers and the games part from the reference's: what the test above would catch
    monkeypatch.setattr(static_search, "analyse_fixed", lambda low, cond, var: ((), (), (), static_search.ALWAYS))
    ref, new = compiled(tmp_path, changing, "reference"), compiled(tmp_path, changing, "specialised")
    assert any(steps(ref, seed) != steps(new, seed) for seed in range(1, 13))
    assert kept_walks()


def test_the_slots_a_kept_condition_writes_are_given_back(tmp_path, kept_walks):
    # is_colour(s.colour, p) stores its first argument in a slot of its own (not a plain
    # local): a kept walk must leave it, and the space's slot, as the search would
    through = "is_colour(s.colour, p) and s is not p.space"
    same_games(tmp_path, through)
    entries = [v for k in kept_walks() for v in k.values()]
    assert entries and all(isinstance(slots, list) and len(slots) == 2 for _ends, slots in entries)


def test_an_error_in_a_kept_condition_stops_both_back_ends_at_the_same_step(tmp_path, kept_walks):
    # d2's height is a text: `>` with a number fails there (R005), on every walk that tests it
    through = "s.height is none or s.height > 1"
    got = []
    for backend in ("reference", "specialised"):
        cg = compiled(tmp_path, through, backend)
        for seed in range(1, 6):
            rng = random.Random(seed)
            state = GameState.new(cg, seed=seed)
            try:
                while not state.is_terminal():
                    state.apply_action(state.sample_chance() if state.is_chance_node()
                                       else rng.choice(state.legal_actions()))
                got.append((backend, seed, None))
            except LumosRuntimeError as err:
                d = err.first
                got.append((backend, seed, (d.code, d.message, d.span.line, d.span.col, state.to_json())))
    ref = [g[1:] for g in got if g[0] == "reference"]
    new = [g[1:] for g in got if g[0] == "specialised"]
    assert ref == new
    assert any(g[1] is not None and g[1][0] == "R005" for g in ref)
    assert kept_walks()     # the walk was kept where it did not fail


# -- the fixed first parts of `onto`, tested once per kept walk

ONTO = "onto s where ground(p, s) and free(s)"


def same_games_onto(tmp_path, through: str, onto: str, seeds=range(1, 13)):
    game = GAME.replace(ONTO, onto).format(through=through)
    made = {}
    for backend in ("reference", "specialised"):
        with fused.using_backend(backend):   # one folder: the log names the rules' file
            cg, diags, _ = write_game(tmp_path, "walks", {"game.lumos": game, "board.yaml": BOARD})
        assert cg is not None, [d.headline() for d in diags]
        made[backend] = cg
    for seed in seeds:
        assert steps(made["reference"], seed) == steps(made["specialised"], seed), f"seed {seed}"


@pytest.mark.parametrize("onto, split", [
    # the colour and the middle row are fixed: kept with the ends; free(s) tested each decision
    ("onto s where (s.colour == p.side.colour or s in middle) and free(s)", True),
    ("onto s where s.colour == p.side.colour and s is not p.space and free(s)", True),
    # who stands there is tested first: the fixed part after it runs only where it holds
    ("onto s where free(s) and s.colour == p.side.colour", False),
    # a variable per space changes
    ("onto s where s.mark == 0 and free(s)", False),
])
def test_the_fixed_first_parts_of_onto_are_kept_with_the_ends(tmp_path, kept_walks, onto, split):
    """Kept walks (docs/speed.md): on the kept ends of a walk, the first parts of `onto` that
    read only what the key holds give the same answers every time; they are tested when the walk
    is kept. The games, and the whole state at every step (the space's slot holds the last end,
    as testing every end leaves it), are the reference back end's."""
    same_games_onto(tmp_path, FIXED, onto)
    entries = [v for k in kept_walks() for v in k.values() if v is not fused._NO_NAMES]
    assert entries, "no walk was kept"
    assert all(len(v) == (3 if split else 2) for v in entries)
    if split:    # the ends that passed the fixed parts are kept, a part of the ends
        assert all(set(passed) <= set(ends or ()) for ends, _slot, passed in entries)
        assert any(passed for _ends, _slot, passed in entries)


@pytest.mark.parametrize("through", [FIXED, "free(s)"])
def test_a_walk_coming_from_a_space_plays_as_the_reference(tmp_path, kept_walks, through):
    """`... without backtracking coming from X`: the walk goes on from one that arrived at the
    start from X, so its first step does not go back there; kept per X too when `through` is
    fixed (with `free(s)` it is searched every time). The whole state after every step is the
    reference back end's."""
    walk = "reach from p.space by step exactly n without backtracking through"
    game = GAME.replace(walk, "reach from p.space by step exactly n without backtracking coming from "
                              "offset(p.space, 1, 0) through").format(through=through)
    made = {}
    for backend in ("reference", "specialised"):
        with fused.using_backend(backend):
            cg, diags, _ = write_game(tmp_path, "walks", {"game.lumos": game, "board.yaml": BOARD})
        assert cg is not None, [d.headline() for d in diags]
        made[backend] = cg
    for seed in range(1, 13):
        assert steps(made["reference"], seed) == steps(made["specialised"], seed), f"seed {seed}"
    kept = [v for k in kept_walks() for v in k.values() if v is not fused._NO_NAMES]
    assert bool(kept) == (through == FIXED)
