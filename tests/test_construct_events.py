"""Events of the game's own: `event NAME(KIND, ...)` declares one, `announce NAME(values)` runs the
`when NAME(...)` rules listening to it at once, as the verbs do for placed / given / put / drawn
("each time an Action succeeds, gain a Tempo point"; "with more than 3 Tempo, ...").

A tiny game made for the test (no rulebook): each success announces `succeeded(side)`; a rule
gains tempo, and another rule listening to `tempo_changed` buys a card at more than 3.
"""
from pathlib import Path

from lumos.interpreter.engine import GameState

from support.sources import write_game

BOARD = """\
name: Dot
spaces:
  - {name: a, pos: [0, 0]}
"""

GAME = """\
game "Tempo"
board "board.yaml"
sides red, blue
event succeeded(side)                    [source: "Tempo"]
event tempo_changed(side, number)
var tempo per side = 0
var bought per side = 0

when succeeded(s) [source: "Tempo"]:
    add 1 to s.tempo
    announce tempo_changed(s, s.tempo)

when tempo_changed(s, n) if n > 3:
    subtract 4 from s.tempo
    add 1 to s.bought
    log "{s} buys with {n}"

flow:
    repeat 5 times:
        announce succeeded(red)
        log "red {red.tempo}"
    announce succeeded(blue)
    log "blue {blue.tempo} {blue.bought}"
    end in a draw
"""


def make_game(tmp_path: Path, game_text: str = GAME):
    return write_game(tmp_path, "tempo", {"game.lumos": game_text, "board.yaml": BOARD})


def test_announce_runs_the_rules_listening_before_the_next_statement(tmp_path):
    cg, diags, _ = make_game(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    state = GameState.new(cg, seed=1, log=True, forced="take")
    assert [e["event"] for e in state.events] == [
        "red 1", "red 2", "red 3", "red buys with 4", "red 0", "red 1", "blue 1 0", "the game ends in a draw"]
    assert state.st.sv[1] == [1, 0]


def first_error(tmp_path, old, new, code):
    cg, diags, _ = make_game(tmp_path, GAME.replace(old, new, 1))
    assert cg is None
    return next(d for d in diags if d.code == code)


def test_unknown_event(tmp_path):
    d = first_error(tmp_path, "announce succeeded(blue)", "announce succeded(blue)", "E209")
    assert d.message == "unknown event `succeded`" and d.hint == "did you mean `succeeded`?"
    assert (d.span.line, d.span.col) == (22, 5)
    (tmp_path / "b").mkdir()
    d = first_error(tmp_path / "b", "when succeeded(s)", "when succeded(s)", "E209")
    assert d.message == "unknown event `succeded`" and d.span.line == 9


def test_values_are_checked_against_the_declaration(tmp_path):
    d = first_error(tmp_path, "announce succeeded(blue)", "announce succeeded(blue, 1)", "E204")
    assert d.message == "`succeeded` carries 1 value(s), not 2"
    assert d.hint == "announce succeeded(side)"
    (tmp_path / "b").mkdir()
    d = first_error(tmp_path / "b", "announce succeeded(blue)", "announce succeeded(3)", "E203")
    assert d.message == "value 1 of `succeeded` should be a side, not a number"
    assert (d.span.line, d.span.col) == (22, 24)
    (tmp_path / "c").mkdir()
    d = first_error(tmp_path / "c", "when tempo_changed(s, n)", "when tempo_changed(s)", "E204")
    assert d.message == "`tempo_changed` gives 2 value(s), not 1"


def test_verb_events_are_not_announced_nor_redeclared(tmp_path):
    d = first_error(tmp_path, "announce succeeded(blue)", "announce placed(blue)", "E206")
    assert d.message == "`placed` is announced by the verb itself, not by `announce`"
    (tmp_path / "b").mkdir()
    d = first_error(tmp_path / "b", "event succeeded(side)", "event placed(side)", "E206")
    assert d.message == "`placed` is already an event: the verbs announce it themselves"
    (tmp_path / "c").mkdir()
    d = first_error(tmp_path / "c", "event tempo_changed(side, number)", "event succeeded(side, number)", "E206")
    assert d.message == "the event `succeeded` is already declared on line 4"
