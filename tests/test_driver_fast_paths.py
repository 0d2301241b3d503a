"""What runs around the rules at every decision takes short cuts; each gives what its general
path gives (issue 14: the driver's own cost per decision; docs/speed.md, "The run loop and the
driver").

- An action's joined listing reads its option tuples from a table per action (and per first
  binding) when the innermost binder holds a numbered thing (piece, space, card, side, zone):
  the options must equal the closure listing's, also when a list holds none (the table cannot
  index it: the general path takes over).
- `do one of` records its decision itself when no `anytime` rule can add an option: the same
  record, keys in the same order (the state's JSON, hashed into every log, depends on it), as
  Machine.decide makes.
- Machine.call pads the caller's list of arguments into the frame's locals.
- The run loop returns from a procedure in line, also in the last steps before the step limit:
  a loop of calls stops at the same step and line with both back ends.
- legal_actions copies a kept list; State.clone skips empty tables and copies a lone frame
  without a comprehension; lumos.api.new_game finds GameState.new once.

Tiny games made for the tests (no rulebook).
"""
from __future__ import annotations

import random

import pytest

from lumos.api import bundled_games, load_game, new_game
from lumos.compiler.fused import using_backend
from lumos.interpreter.engine import GameState
from support.equivalence import every_game
from support.sources import DOT_BOARD, write_game


def _act_op(state):
    fr = state.st.frames[-1]
    return state.cg.procs[fr[0]].code[fr[1]]


def _general_options(state) -> list:
    """The act decision's options made again by each action's closure listing (no table)."""
    from lumos.compiler.lower_stmt import _distinct_bindings
    op = _act_op(state)
    side = state.st.pending["for"]
    m = state.machine
    opts = [(a, b) for a in op.actions for b in state.cg.actions[a].enumerate(m, side)]
    if len(opts) > 1 and op.with_cards:
        opts = _distinct_bindings(m, opts)
    return opts + [None] * op.may


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.rsplit("/", 1)[-1])
def test_listing_tables_give_the_closure_listings_options(game):
    cg = load_game(game)
    seen = 0
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        state = new_game(cg, seed=seed)
        for _ in range(150):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
                continue
            pend = state.st.pending
            if pend["kind"] == "act":
                options = [o for o in pend["options"] if not isinstance(o, dict)]
                assert options == _general_options(state)
                seen += 1
            state.apply_action(rng.choice(state.legal_actions()))
    if game in bundled_games() and game != "defenders-of-hogwarts":
        assert seen, "no act decision met"


NONES = """\
game "Nones"
board "board.yaml"
sides red, blue
const spots = [a, none]

action pick [source: "Pick"]:
    with s in spots
    label "pick {s}"
    log "picked"

action pair [source: "Pair"]:
    with p in [red, blue]
    with s in spots
    label "pair {p} {s}"
    log "paired"

flow:
    do one of pick, pair by red
    do one of pick by blue
    end in a draw
"""


def _compiled(tmp_path, name: str, text: str, backend: str):
    with using_backend(backend):
        (tmp_path / backend).mkdir(exist_ok=True)
        cg, diags, _ = write_game(tmp_path / backend, name, {"game.lumos": text, "board.yaml": DOT_BOARD})
    assert cg is not None, [d.headline() for d in diags]
    return cg


def test_a_list_holding_none_lists_as_the_reference(tmp_path):
    got = {}
    for backend in ("reference", "specialised"):
        cg = _compiled(tmp_path, "nones", NONES, backend)
        state = GameState.new(cg, seed=1)
        first = list(state.st.pending["options"])
        state.apply_action(3)     # pair blue none
        got[backend] = (first, list(state.st.pending["options"]), state.action_labels())
    assert got["specialised"] == got["reference"]
    first, second, _labels = got["specialised"]
    assert [b for _a, b in first] == [(0,), (None,), (0, 0), (0, None), (1, 0), (1, None)]
    assert [b for _a, b in second] == [(0,), (None,)]


def test_act_records_its_decision_as_machine_decide_does():
    for game in bundled_games():
        cg = load_game(game)
        rng = random.Random(4)
        state = new_game(cg, seed=4)
        for _ in range(200):
            if state.is_terminal():
                break
            pend = state.st.pending
            if pend["kind"] == "act":
                op = _act_op(state)
                fr = state.st.frames[-1]
                saved = (fr[1], fr[2][:])
                general = state.clone()
                general.machine.quiet = lambda m, L: False   # the general path: Machine.decide, then "for"
                general.st.pending = None
                op(general.machine, general.st.frames[-1])
                assert list(general.st.pending.items()) == list(pend.items())
                assert (fr[1], fr[2]) == saved
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def test_call_pads_the_arguments_into_the_frames_locals():
    cg = load_game(str(every_game()[-2]))
    state = new_game(cg, seed=1)
    m = state.machine
    proc = next(i for i, p in enumerate(cg.procs) if p.nlocals >= 2)
    m.call(proc, [7])
    assert state.st.frames[-1] == [proc, 0, [7] + [None] * (cg.procs[proc].nlocals - 1), -1]
    longer = list(range(cg.procs[proc].nlocals + 2))
    m.call(proc, longer, 3)
    assert state.st.frames[-1] == [proc, 0, longer, 3]


CALL_LOOP = """\
game "Calls"
board "board.yaml"
sides red, blue
var n = 0

procedure bump():
    add 1 to n

flow:
    loop:
        bump()
        set n = n + 1
"""


def test_a_loop_of_calls_stops_at_the_same_step_with_both_back_ends(tmp_path):
    from lumos.diagnostics import LumosRuntimeError
    got = []
    for backend in ("reference", "specialised"):
        cg = _compiled(tmp_path, "calls", CALL_LOOP, backend)
        with pytest.raises(LumosRuntimeError) as err:
            GameState.new(cg, seed=1)
        d = err.value.first
        got.append((d.code, d.message, d.span.line, d.span.col))
    assert got[0] == got[1]
    assert got[0][0] == "R002"


def test_legal_actions_is_a_fresh_list_every_time():
    cg = load_game(str(every_game()[-2]))
    state = new_game(cg, seed=1)
    first = state.legal_actions()
    first.append(99)
    assert state.legal_actions() == list(range(len(state.st.pending["options"])))
    state.st.pending = dict(state.st.pending, options=list(range(300)))
    assert state.legal_actions() == list(range(300))
    state.st.pending = dict(state.st.pending, options=list(range(127)))
    many = state.legal_actions()
    many.clear()
    assert state.legal_actions() == list(range(127))


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.rsplit("/", 1)[-1])
def test_a_clone_is_the_state_and_shares_no_list(game):
    cg = load_game(game)
    rng = random.Random(2)
    state = new_game(cg, seed=2)
    for _ in range(40):
        clone = state.st.clone()
        assert clone.to_json() == state.st.to_json()
        for name in ("g", "sv", "pv", "xv", "cv", "loc", "holder", "occ", "occ_next", "zones", "card_zone",
                     "frames"):
            a, b = getattr(clone, name), getattr(state.st, name)
            assert a is not b or a == [] and name in ("sv", "pv", "xv", "cv", "zones")
            for x, y in zip(a, b):
                assert not isinstance(x, list) or x is not y
        for fa, fb in zip(clone.frames, state.st.frames):
            assert fa[2] is not fb[2]
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_new_game_is_game_state_new():
    for game in every_game():
        cg = load_game(game)
        for seed in (1, 9):
            assert new_game(cg, seed=seed).to_json() == GameState.new(cg, seed=seed).to_json()
