"""The constructs made for Catch the Golden Snitch working together in one small made-up game
(no rulebook, no game words): crowded zones, symbol dice pools with rerolls, capped tokens,
a shared deck returned to the bottom, events announced by the rules, named card effects and
`reset`. Random games run to the end with invariants checked after every step.
"""
from pathlib import Path

from lumos.interpreter.engine import GameState

from support.sources import write_game

BOARD = """\
name: Field
capacity: 0
spaces:
  - {name: left, pos: [0, 0]}
  - {name: middle, pos: [1, 0]}
  - {name: right, pos: [2, 0]}
  - {name: goal, pos: [3, 0], attrs: {capacity: 2}}
links:
  - [left, middle, step]
  - [middle, right, step]
  - [right, goal, step]
"""

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://lumos-games.example/schema/field.schema.json",
    "type": "object", "required": ["cards"], "additionalProperties": False,
    "properties": {"cards": {"type": "array", "items": {
        "type": "object", "required": ["name", "type"], "additionalProperties": False,
        "properties": {"name": {"type": "string"}, "type": {"type": "string"}, "copies": {"type": "integer"},
                       "small_effect": {"type": "string"}, "big_effect": {"type": "string"}}}}},
}

CARDS = """\
cards:
  - name: Push
    type: boost
    copies: 3
    small_effect: |
      add 1 to me.tempo
    big_effect: |
      add 2 to me.tempo
  - name: Stumble
    type: boost
    copies: 2
    small_effect: |
      for each p in me.pieces:
          add 1 to p.stunned
"""

GAME = """\
game "Field"
board "board.yaml"
schema "field.schema.json"
sides red, blue
kinds runner
pieces of red:
    runner at left, left, left
pieces of blue:
    runner at right, right, right
die orange faces "hit", "hit", "double", "blank", "blank", "block"
die black faces "block", "block", "blank"
var stunned per piece = 0 max 3
var tempo per side = 0 min 0 max 9
var goals per side = 0
var turns = 0
zone pile shared hidden
zone row shared public
event scored(side)

when scored(s):
    add 1 to s.goals
    draw c from pile into row
    if c is not none:
        if s.tempo > 3:
            play c.big_effect by s
        else:
            play c.small_effect by s
        put c at bottom of pile
    reset stunned

action run:
    with p in me.pieces where it.stunned < 3
    with to in reach from p.space by step up to 1 onto t where not full(t)
    label "{p} to {to}"
    roll rs with 2 orange and p.stunned black by me
    may choose f from rs where it == "blank" label "reroll a {f}"
    if f is not none:
        subtract f from rs
        roll again with orange by me
        add again to rs
    let hits = count(rs where it == "hit") + 2 * count(rs where it == "double") - count(rs where it == "block")
    if hits > 0:
        place p at to
        add 1 to me.tempo
        if to is goal:
            announce scored(me)
            place p at left
    else:
        add 1 to p.stunned

action rest:
    with p in me.pieces where it.stunned > 0
    subtract 1 from p.stunned

setup:
    put cards into pile
    shuffle pile

flow:
    loop:
        do one of run, rest
        add 1 to turns
        if turns >= 40:
            end in a draw
        if current.goals >= 3:
            win current
        set current = other(current)
"""


def make_game(tmp_path: Path):
    return write_game(tmp_path, "field", {"game.lumos": GAME, "board.yaml": BOARD},
                      cards={"boosts.yaml": CARDS}, schemas={"field.schema.json": SCHEMA})


def check(cg, state):
    st, m = state.st, state.machine
    stunned = st.pv[0]
    assert all(0 <= s <= 3 for s in stunned), stunned
    assert all(0 <= t <= 9 for t in st.sv[0]), st.sv[0]
    standing = sorted(p for s in range(len(cg.board.spaces)) for p in m.occupants(s))
    assert standing == list(range(len(cg.pieces)))          # every runner stands somewhere, once
    assert len(m.occupants(cg.board.index["goal"])) <= 2
    assert sum(len(z) for z in st.zones) == len(cg.cards)   # cards are conserved


def test_random_games_keep_the_invariants(tmp_path):
    cg, diags, _ = make_game(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    winners = set()
    for seed in range(60):
        state = GameState.new(cg, seed=seed, forced="take")
        n = 0
        while not state.is_terminal():
            check(cg, state)
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
            else:
                state.apply_action((seed * 7 + n) % len(state.legal_actions()))
            n += 1
            if n % 25 == 0:   # a restored copy plays on identically
                state = GameState.from_json(cg, state.to_json())
        check(cg, state)
        winners.add(state.winner())
    assert {0, 1} <= winners, winners
