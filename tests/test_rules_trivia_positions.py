"""Chamber of Secrets Trivia Game rules checked from positions (lumos.api.load_position): the
situation is written by names (where pieces stand, the options, the rule to start at), then
the test picks the dice and the options by their labels. Docstrings cite the rulebook section
(rulebooks/chamber-of-secrets-trivia.txt); rulings are on docs/rulings/chamber-of-secrets-trivia.md.
"""
from __future__ import annotations

from lumos.api import load_position

from games.trivia_play import Play, trivia_game

GRYFFINDOR = 0


def at_turn(pieces: dict, options: dict | None = None) -> Play:
    """Gryffindor's turn about to start (its roll next), with these pieces moved."""
    position = {"pieces": pieces, "at": {"start_of": "take_turn"}, "current": GRYFFINDOR}
    if options:
        position["options"] = options
    return Play.wrap(load_position(trivia_game(), position))


def test_from_the_far_end_of_the_zone_the_roll_goes_on_onto_the_field():
    """Grounding Zone: 'They can move the full number rolled when exiting the Grounding Zone'
    (rulings 8): gz9, gz10, then a1 and on."""
    p = at_turn({"gryffindor keeper": "gz9"}).do("roll 4")
    assert p.moves_of("gryffindor keeper") == {"c1", "a3", "c3"}      # gz9-gz10-a1-b2-...
    assert at_turn({"gryffindor keeper": "gz9"}).do("roll 1").moves_of("gryffindor keeper") == {"gz10"}


def test_only_a_square_touching_the_snitch_is_next_to_it():
    """The Golden Snitch: 'you must maneuver your Seeker onto any space next to the Golden
    Snitch' (rulings 1): the four squares around its golden point; here snitch5 between d4, e4,
    d5 and e5."""
    for to, offered in (("d4", True), ("b4", False), ("d2", False)):
        p = at_turn({"gryffindor seeker": "c3", "snitch": "snitch5"}).do("roll 1", f"move gryffindor seeker from c3 to {to}")
        assert ("attempt a Golden Snitch question with gryffindor seeker" in p.labels()) is offered, to


def test_advanced_a_bludger_on_a_square_blocks_moving_through_it():
    """The Bludgers (Optional): 'No other Mover can move onto or through that space': with a
    Bludger on d2, a Chaser on e1 rolling 2 cannot go by d2 (to c1 or c3)."""
    free = at_turn({"gryffindor chaser": "e1"}, {"advanced": "on"}).do("roll 2")
    assert free.moves_of("gryffindor chaser") == {"c1", "c3", "e3", "g1", "g3"}
    blocked = at_turn({"gryffindor chaser": "e1", "bludger_one": "d2"}, {"advanced": "on"}).do("roll 2")
    assert blocked.moves_of("gryffindor chaser") == {"e3", "g1", "g3"}


def test_a_chaser_on_a_quaffle_space_behind_no_goal_line_may_attempt_a_quaffle_question():
    """The Quidditch Movers: a Chaser 'may do so only when on a Quaffle space that is not
    behind a goal line': from b2 a roll of 1 onto c3 offers the question, onto a1 does not."""
    for to, offered in (("c3", True), ("a1", False)):
        p = at_turn({"gryffindor chaser": "b2"}).do("roll 1", f"move gryffindor chaser from b2 to {to}")
        assert ("attempt a Quaffle question with gryffindor chaser" in p.labels()) is offered, to
