"""Effects that last or repeat, written on the card itself: `phase NAME` + `during NAME:` in the
rules; `until the end of this NAME:`, `at the end of this NAME:`, `at the start of the next
NAME:`, `at the start of each NAME:`, `at the end of each NAME:` and `once per NAME:` in card
effects (and rules). What they remember is part of the state: it clones, saves and restores.

A tiny game made for the test (no rulebook), with its own small card schema.
"""
from pathlib import Path

from lumos.interpreter.engine import GameState

from support.sources import DOT_BOARD, card_schema, write_game

BOARD = DOT_BOARD

SCHEMA = card_schema("timed", {"copies": {"type": "integer"}, "text": {"type": "string"}, "effect": {"type": "string"}})

CARDS = """\
cards:
  - name: Surge
    type: boost
    text: "Until the end of this round, you have 3 more power."
    effect: |
      until the end of this round:
          add 3 to me.power
  - name: Echo
    type: boost
    text: "At the end of this round, gain 1 point. At the start of the next round, gain 10."
    effect: |
      let gain = 1
      at the end of this round:
          add gain to me.points
      at the start of the next round:
          add 10 to me.points
  - name: Beacon
    type: boost
    text: "While this card stays in play: at the start of each round, gain 100 points."
    effect: |
      at the start of each round:
          add 100 to me.points
  - name: Spark
    type: boost
    text: "Once per round: gain 1000 points."
    effect: |
      once per round:
          add 1000 to me.points
"""

GAME = """\
game "Timed"
board "board.yaml"
schema "timed.schema.json"
sides red, blue
phase round
zone table shared public
zone hand per side owner
var power per side = 1
var points per side = 0
var rounds = 0

procedure play_named(name, s):
    for each c in cards where it.name == name:
        play c by s

flow:
    put cards into red.hand
    loop:
        add 1 to rounds
        during round:
            log "round {rounds}: power {red.power} points {red.points}"
            if rounds == 1:
                play_named("Surge", red)
                play_named("Surge", red)
                play_named("Echo", red)
                play_named("Spark", red)
                play_named("Spark", red)
                play_named("Spark", blue)
                play_named("Beacon", red)
                log "played: power {red.power} points {red.points} blue {blue.points}"
            if rounds == 2:
                play_named("Spark", red)
                for each c in cards where it.name == "Beacon":
                    choose z from [1, 2] by red label "keep {z}"
                    if z == 2:
                        put c into table
            if rounds == 4:
                end in a draw
"""


def make(tmp_path, game=GAME, cards=CARDS):
    return write_game(tmp_path, "timed", {"game.lumos": game, "board.yaml": BOARD},
                      cards={"boosts.yaml": cards}, schemas={"timed.schema.json": SCHEMA})


def _play(cg, keep: int):
    state = GameState.new(cg, seed=1, log=True, forced="take")
    state.apply_action(state.option_index(label=f"keep {keep}"))
    return state


def test_effects_last_until_the_end_of_the_round_and_wait_for_later_rounds(tmp_path):
    cg, diags, _ = make(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    events = [e["event"] for e in _play(cg, 1).events]
    assert events[:5] == [
        "round 1: power 1 points 0",
        # two Surges: +6 power; Spark once for red (the second play does nothing) and once for blue
        "played: power 7 points 1000 blue 1000",
        # the end of round 1: Echo's 1 point; power back to 1. The start of round 2: Echo's 10,
        # Beacon's 100
        "round 2: power 1 points 1111",
        # round 2: Spark again (once per round, not per game); Beacon keeps coming while its card stays
        "round 3: power 1 points 2211",
        "round 4: power 1 points 2311",
    ]


def test_a_repeating_effect_stops_when_its_card_leaves_its_zone(tmp_path):
    cg, _, _ = make(tmp_path)
    events = [e["event"] for e in _play(cg, 2).events]
    assert events[3:5] == ["round 3: power 1 points 2111", "round 4: power 1 points 2111"]


def test_waiting_effects_are_part_of_the_state(tmp_path):
    """A game saved while effects wait (at the decision of round 2) continues identically."""
    cg, _, _ = make(tmp_path)
    state = GameState.new(cg, seed=1, log=True, forced="take")
    saved = state.to_json()
    again = GameState.from_json(cg, saved)
    for s in (state, again):
        s.apply_action(s.option_index(label="keep 1"))
    assert state.to_json() == again.to_json()
    # a side's view does not show the bookkeeping (a waiting effect keeps its rule's locals)
    assert not any(name.startswith("_phase") for name in state.observation(1)["variables"])
    assert not any(name.startswith("_phase") for name in GameState.new(cg, seed=1).position(for_side=1)["vars"])


def _diag(tmp_path, code, game=GAME, cards=CARDS):
    cg, diags, _ = make(tmp_path, game, cards)
    found = [d for d in diags if d.code == code]
    assert found, [d.headline() for d in diags]
    return found[0]


def test_an_unknown_phase_is_reported_in_the_card_file(tmp_path):
    d = _diag(tmp_path, "E224", cards=CARDS.replace("until the end of this round:", "until the end of this rund:"))
    assert d.message == "`rund` is not a phase"
    assert d.hint == "did you mean `round`?"
    assert Path(d.span.file).name == "boosts.yaml" and (d.span.line, d.span.col) == (6, 29)


def test_a_name_that_is_not_a_phase(tmp_path):
    d = _diag(tmp_path, "E224", game=GAME.replace("during round:", "during rounds:"))
    assert d.message == "`rounds` is not a phase (it is var `rounds`)"
    assert d.hint == "did you mean `round`?"


def test_a_misworded_lasting_effect_is_explained(tmp_path):
    d = _diag(tmp_path, "L101", cards=CARDS.replace("until the end of this round:", "until end of round:"))
    assert d.message == "an effect that lasts or waits is written `until the end of this PHASE:`"
    assert "`once per PHASE:`" in d.hint and "`phase NAME`" in d.hint
    assert (d.span.line, d.span.col) == (6, 13)


def test_a_one_line_block(tmp_path):
    cg, diags, _ = make(tmp_path, cards=CARDS.replace("until the end of this round:\n          add 3 to me.power",
                                                      "until the end of this round: add 3 to me.power"))
    assert cg is not None, [d.headline() for d in diags]
    assert [e["event"] for e in _play(cg, 1).events][1] == "played: power 7 points 1000 blue 1000"


BATTERY = """\
  - name: Battery
    type: boost
    text: "Each time you play it, it keeps one more charge; at the end of each round, gain its charges."
    effect: |
      add 1 to card.charges
      log "{card.name} has {card.charges}"
      once per round:
          at the end of each round: add card.charges to me.points
"""


def test_a_card_keeps_state_of_its_own(tmp_path):
    """`var NAME per card`: the card's own state, read and set as `card.NAME`, kept between plays."""
    game = GAME.replace("var rounds = 0\n", "var rounds = 0\nvar charges per card = 0 max 5\n").replace(
        '                play_named("Beacon", red)\n',
        '                play_named("Battery", red)\n                play_named("Battery", red)\n')
    cg, diags, _ = make(tmp_path, game, CARDS + BATTERY)
    assert cg is not None, [d.headline() for d in diags]
    state = _play(cg, 1)
    events = [e["event"] for e in state.events]
    assert events[1:3] == ["Battery has 1", "Battery has 2"]
    # 1000 (Spark) + 1 (Echo at the end of round 1) + 2 (Battery's charges, each round end) + 10
    assert events[4] == "round 2: power 1 points 1013"
    written = state.position()
    assert written["card_vars"]["charges"]["Battery"] == 2
    from lumos.api import load_position
    again = load_position(cg, {"card_vars": {"charges": {"Battery": 4}}})
    assert again.position()["card_vars"]["charges"]["Battery"] == 4


def test_a_card_variable_is_not_a_field_of_the_schema(tmp_path):
    d = _diag(tmp_path, "E206", game=GAME.replace("var rounds = 0\n", "var rounds = 0\nvar text per card = 0\n"))
    assert d.message == "cards already have an attribute `text`"
