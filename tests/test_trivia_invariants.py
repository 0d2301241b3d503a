"""Properties of the Chamber of Secrets Trivia Game that hold after every decision of seeded
random games, basic and advanced (rulebooks/chamber-of-secrets-trivia.txt):

- "1. Roll and Move": Movers never share a space ("Movers can never share the same space
  anywhere on the board"), are always on the board, each on its team's colour ("Trivia
  Cards", Note), never on a Golden Snitch space;
- "The Golden Snitch": the Snitch is on a Golden Snitch space or off the board;
- "Winning the Game (Table)": scores change only in steps of 10 (a Quaffle) and 150 (the
  Snitch, once, ending the game);
- "2. Offense" (Note): every trivia card is in its box or being read (at most one at a time),
  and no card is read twice in a row;
- "Grounding Zone": a Mover is in a Grounding Zone only of its own team, and gets there only
  by being Bludgered;
- the advanced rules: the Quaffle is on the release circle or carried by a Chaser; a Bludger
  is off the board, on a Mover's base, or alone on a space;
- every game ends with the Snitch caught, or at the declared cap of decisions (reported).

The short runs (20 games each way) are in the default test run; the long soaks (1,000 games each) are marked
`slow` (`pytest -m slow`).
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lumos.api import load_game
from lumos.interpreter.engine import GameState

GAME = "chamber-of-secrets-trivia"
CAP = 20000         # decisions: the declared cap of these runs (random games run to a few thousand)
MOVERS = [f"{side} {kind}" for side in ("gryffindor", "slytherin") for kind in ("chaser", "keeper", "beater", "seeker")]
COLOUR = {"gryffindor": "light", "slytherin": "dark"}


class Checker:
    """Checks one game's observations one after another."""

    def __init__(self, cg):
        board = cg.board
        self.colour = {s: board.attrs[i].get("colour") for i, s in enumerate(board.spaces)}
        self.snitch_spaces = {board.spaces[i] for i in board.regions["snitch_spaces"]}
        self.zone = {board.spaces[i]: side for side in COLOUR for i in board.regions[f"grounding_{side}"]}
        self.cards = sorted(c.name for c in cg.cards)
        self.scores = {"gryffindor": 0, "slytherin": 0}
        self.where = {}
        self.events_seen = 0
        self.last_read = None
        self.caught = False

    def check(self, state: GameState) -> None:
        obs = state.observation(None)
        pieces = obs["pieces"]
        spaces = [pieces[m]["space"] for m in MOVERS]
        assert None not in spaces, pieces
        assert len(set(spaces)) == len(spaces), pieces
        for m, s in zip(MOVERS, spaces):
            side = m.split()[0]
            assert self.colour[s] == COLOUR[side], (m, s)
            assert s not in self.snitch_spaces, (m, s)
            if s in self.zone:
                assert self.zone[s] == side, (m, s)
        snitch = pieces["snitch"]["space"]
        assert snitch is None or snitch in self.snitch_spaces, snitch
        new_events = [e["event"] for e in state.events[self.events_seen:]]
        self.events_seen = len(state.events)
        for m, s in zip(MOVERS, spaces):
            before = self.where.get(m)
            if s in self.zone and before is not None and before not in self.zone:
                assert f"{m} is Bludgered" in new_events, (m, before, s, new_events)
            self.where[m] = s
        for side, score in ((s, obs["sides"][s]["score"]) for s in self.scores):
            step = score - self.scores[side]
            assert step in (0, 10, 150), (side, step)
            if step == 150:
                assert not self.caught and state.is_terminal()
                self.caught = True
            self.scores[side] = score
        boxes = obs["zones"]
        held = boxes["gryffindor box"] + boxes["slytherin box"] + boxes["reading"]    # the referee's view
        assert sorted(held) == self.cards and len(boxes["reading"]) <= 1, boxes
        for e in new_events:
            if e.startswith("draws ") and e.endswith(" into reading"):
                card = e[len("draws "):-len(" into reading")]
                assert card in self.cards and card != self.last_read, (card, self.last_read)
                self.last_read = card
        quaffle = pieces["quaffle"]
        if obs["variables"].get("aimed") is None:       # not in the middle of a Bludger question
            for b in ("bludger_one", "bludger_two"):
                bs = pieces[b]
                assert bs["held_by"] is None and (bs["space"] is None or bs["space"] not in spaces), bs
        if quaffle["held_by"] is not None:
            assert quaffle["held_by"].endswith(" chaser"), quaffle
        else:
            assert quaffle["space"] in (None, "release"), quaffle


def keen(state: GameState, rng: random.Random) -> int:
    """Mostly attempts every question and defends, else picks at random: random play hardly
    ever brings a Seeker next to the Snitch."""
    labels = state.action_labels()
    for i, label in enumerate(labels):
        if label.startswith(("attempt", "defend")) and rng.random() < 0.9:
            return i
    return rng.randrange(len(labels))


def play_and_check(seed: int, advanced: bool, style: str) -> str:
    cg = load_game(GAME)
    state = GameState.new(cg, seed=seed, options={"advanced": "on" if advanced else "off"}, log=True, forced="take")
    rng = random.Random(seed)
    checker = Checker(cg)
    checker.check(state)
    while not state.is_terminal() and state.st.decisions < CAP:
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        elif style == "keen":
            state.apply_action(keen(state, rng))
        else:
            state.apply_action(rng.randrange(len(state.legal_actions())))
        checker.check(state)
    if state.is_terminal():
        assert checker.caught, "the game ended without the Snitch being caught"
        assert any(e["event"].endswith("catches the Golden Snitch") for e in state.events)
        return "caught"
    return "cap"


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), style=st.sampled_from(["random", "keen"]))
def test_basic_games_keep_the_rules_after_every_decision(seed, style):
    play_and_check(seed, False, style)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), style=st.sampled_from(["random", "keen"]))
def test_advanced_games_keep_the_rules_after_every_decision(seed, style):
    play_and_check(seed, True, style)


@pytest.mark.slow
@pytest.mark.parametrize("advanced", [False, True], ids=["basic", "advanced"])
def test_a_thousand_seeded_games_keep_the_rules_and_end(advanced):
    """1,000 seeded games each way: every one ends with the Snitch caught or at the cap
    (reported: the count of capped games is printed, and must stay a small part)."""
    ends = [play_and_check(seed, advanced, "keen" if seed % 2 else "random") for seed in range(1000)]
    capped = ends.count("cap")
    print(f"{'advanced' if advanced else 'basic'}: {1000 - capped} caught, {capped} at the cap of {CAP}")
    assert capped <= 5


@pytest.mark.parametrize("advanced", ["off", "on"])
def test_every_option_of_a_game_is_in_the_fixed_action_space(advanced):
    """Options as data: every option offered in a whole game, moves, menus, Snitch moves and
    the right / wrong outcome of each question, has an id in the game's action space."""
    from lumos.api import action_space
    cg = load_game(GAME)
    size = len(action_space(cg))
    for seed in (1, 2):
        state = GameState.new(cg, seed=seed, options={"advanced": advanced}, forced="take")
        rng = random.Random(seed)
        while not state.is_terminal() and state.st.decisions < CAP:
            ids = state.legal_action_ids()
            assert len(ids) == len(state.legal_actions()) and all(0 <= i < size for i in ids)
            state.apply_action(keen(state, rng) if not state.is_chance_node() else state.sample_chance())
