"""Designer text never becomes code in the specialised back end's generated Python.

House rule (DESIGN): nothing a designer wrote is executed. The specialised back end
(lumos.compiler.fused) joins conditions, quantifiers, filters and grid offsets into Python
source compiled at run time (short lists known when compiling unrolled); texts, names and numbers of the rules reach that source only as
bound constants (`_12`) or slot numbers, never as written. A tiny game (no rulebook) whose
texts are quotes, a backslash, a newline, unicode, braces and an `__import__` call is played
through every face of its die: it behaves as written (the text compared is the text rolled),
no file appears, and no generated source holds any of the texts.
"""
from __future__ import annotations

import lumos.compiler.blocks as blocks
import lumos.compiler.fused as fused
from lumos.interpreter.engine import GameState

from support.sources import write_game

BOARD = """\
name: Strip
grid:
  columns: abc
  rows: 1
  links:
    orthogonal: orthogonal
  legend:
    o: {}
  map: |
    o o o
"""

EVIL = r'''"'); __import__('os').system('touch PWNED') #", "\\", "line\nbreak", "ünï \"q\" {x}"'''

GAME = f"""\
game "Hostile"
board "board.yaml"
sides red, blue
const evil = [{EVIL}]
die sneaky faces {EVIL}
var marked: text per space = "none"
var hits = 0

flow:
    for each s in spaces:
        set s.marked = first(evil)
    roll f with sneaky by red
    if any w in evil where w == f:
        add 1 to hits
    if all s in spaces where offset(s, 0, 0).marked == "'); __import__('os').system('touch PWNED') #":
        add 1 to hits
    # a loop over a list made while playing, and a step not known when compiling
    if any w in evil + [f] where w == f and offset(first(spaces), hits - hits, 0).marked == first(evil):
        add 1 to hits
    if count(evil where it == f) == 1 and hits == 3:
        win red
    win blue
"""

FACES = ["'); __import__('os').system('touch PWNED') #", "\\", "line\nbreak", 'ünï "q" {x}']


def test_hostile_texts_stay_data_in_generated_source(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    texts = []
    plain, search = fused._compile, fused._compile_def
    monkeypatch.setattr(fused, "_compile", lambda t: (texts.append(t), plain(t))[1])
    monkeypatch.setattr(fused, "_compile_def", lambda t: (texts.append(t), search(t))[1])
    monkeypatch.setattr(blocks, "_compile_def", lambda t: (texts.append(t), search(t))[1])
    with fused.using_backend("specialised"):
        cg, diags, _ = write_game(tmp_path, "hostile", {"game.lumos": GAME, "board.yaml": BOARD})
    assert cg is not None, [d.headline() for d in diags]
    for face in range(len(FACES)):
        state = GameState.new(cg, seed=1, log=True)
        assert state.is_chance_node()
        rolled = state.st.pending["options"][face]
        state.apply_action(face)
        assert state.winner() == 0, f"face {rolled!r}: the texts compared unequal"
        assert [e["event"] for e in state.events] == [f"red rolled {rolled}", "red wins"]
    assert sorted(cg.dice["sneaky"]) == sorted(FACES)   # the texts as written, each one face
    assert not (tmp_path / "PWNED").exists() and not (tmp_path / "hostile" / "PWNED").exists()
    generated = "\n".join(texts)
    # the new back end's texts ran: loops, grid offsets, and the loops over the texts known when
    # compiling unrolled (`any w in evil where w == f`: the four texts compared in line, by name)
    assert "def quantified" in generated and ".get((" in generated
    assert any(t.count(" == L[") >= 4 and "def quantified" not in t for t in texts)
    for written in ("__import__", "PWNED", "ünï", "line\nbreak", "\\\\", "{x}"):
        assert written not in generated
