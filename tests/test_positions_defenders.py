"""Defenders of Hogwarts worked examples started from positions (`lumos.api.load_position`), with
the shipped cards: the situation is written down in names, then the rulebook's example is played.
"""
from __future__ import annotations

from lumos.api import load_position

from games.defenders_support import DARK, GRYFFINDOR, labels, pick, piece_var, shipped_game, space_of

GAME = "defenders-of-hogwarts"


def test_gryffindor_stun_from_a_position():
    """House Player Turn > Stunning: a Gryffindor pawn one space from a Dark Arts Pawn ends its move on it."""
    st = load_position(shipped_game(), {
        "game": GAME, "options": {"house_players": 1}, "seed": 3,
        "pieces": {"gryffindor student 1": "main_gates", "dark_arts dark_pawn 4": "hogsmeade_road"},
        "zones": {"gryffindor hand": ["Corridor Dash"]},
        "at": {"start_of": "house_turn"}})
    pick(st, "^explore", GRYFFINDOR)
    if "play Corridor Dash" in labels(st):
        pick(st, "^play Corridor Dash$")
    if "move with Corridor Dash" in labels(st):
        pick(st, "^move with Corridor Dash$")
    pick(st, r"^move gryffindor student 1 \(main_gates\)")
    pick(st, "^gryffindor student 1 to hogsmeade_road$")
    assert {t for t in labels(st)} == {"push dark_arts dark_pawn 4 to broom_shed", "push dark_arts dark_pawn 4 to main_gates"}
    pick(st, "to broom_shed$")
    assert piece_var(st, "gryffindor student 1", "stunned") and piece_var(st, "dark_arts dark_pawn 4", "stunned")
    assert space_of(st, "dark_arts dark_pawn 4") == "broom_shed"


def test_white_tomb_win_from_a_position():
    """Game End worked example: the Dementor taken at the second Red Event Space (2 pawns); one Dark Arts
    Pawn already in The White Tomb, a second lands there: the Dark Arts Player wins."""
    st = load_position(shipped_game(), {
        "game": GAME, "options": {"house_players": 1}, "seed": 3,
        "pieces": {"dark_arts dark_pawn 1": "the_white_tomb", "dark_arts dark_pawn 2": "lake_shore"},
        "zones": {"dark_arts hand": ["Creeping Shadow"], "dark_target": ["Target The White Tomb"]},
        "vars": {"giant_taken": True, "acromantula_taken": True, "dementor_taken": True, "pawns_needed": 2,
                 "path": 16},
        "at": {"start_of": "dark_turn"}})
    pick(st, "^explore", DARK)
    if "play Creeping Shadow" in labels(st):
        pick(st, "^play Creeping Shadow$")
    if "move with Creeping Shadow" in labels(st):
        pick(st, "^move with Creeping Shadow$")
    pick(st, "^move a Dark Arts Pawn up to 3$")
    pick(st, r"^move dark_arts dark_pawn 2 \(lake_shore\)")
    assert not st.is_terminal()
    pick(st, "^dark_arts dark_pawn 2 to the_white_tomb$")
    assert st.is_terminal() and st.returns() == [1.0, -1.0, 0.0, 0.0, 0.0]
