"""A GameState -> the index of a legal option: the built-in agents (lumos.interpreter.play drives them).

An agent is anything with `choose(state) -> int` returning one of
`state.legal_actions()`. Agents are asked only when a side decides; chance nodes
are resolved by the driver with the state's own generator, so a seed fixes the game.

Agents should decide from what their side may see: `state.observation(side)`,
`state.legal_actions()` and `state.action_labels()`. The random agent needs none
of it. The greedy agent looks one decision ahead on a copy of the state in which the
cards its side may not see (face-down decks, the rivals' hands) are dealt anew among
those same places, so the lookahead cannot read the rival's hand or the deck order;
nor does it see future dice: each lookahead copy gets a fresh generator seeded from
the agent's own.

>>> from lumos.api import bundled_games, load_game, play_game   # doctest: +SKIP
>>> cg = load_game(bundled_games()[0])                        # doctest: +SKIP
>>> play_game(cg, [RandomAgent(1), GreedyAgent(2)], seed=7)   # doctest: +SKIP
GameResult(seed=7, winner=1, returns=[-1.0, 1.0], decisions=42, error=None)

The search agent (`mcts`) is in lumos.interpreter.mcts; `make_agent` builds any of them from a
spec such as `mcts:200`.
"""
from __future__ import annotations

import random
from typing import Any, Protocol

from lumos.diagnostics import LumosRuntimeError
from lumos.interpreter.guess import redeal_hidden
from lumos.interpreter.score import WIN_WEIGHT, evaluate  # noqa: F401  (evaluate: the greedy agent's score)
from lumos.interpreter.state import MASK64

MAX_LOOKAHEAD_OPTIONS = 24   # the greedy agent samples this many options when there are more
LOOKAHEAD_CHANCE_LIMIT = 64  # chance nodes resolved after a lookahead move before scoring
FOLLOW_DEPTH = 6             # the greedy agent follows its own next decisions while nothing changes
FOLLOW_OPTIONS = 4           # ... sampling this many of their options when there are more


class Agent(Protocol):
    name: str

    def choose(self, state) -> int: ...


class RandomAgent:
    """Uniform over the legal options, with its own generator."""

    name = "random"

    def __init__(self, seed: Any = 0):
        self.rng = random.Random(seed)

    def choose(self, state) -> int:
        return self.rng.choice(state.legal_actions())

    def __repr__(self) -> str:
        return "RandomAgent()"


class GreedyAgent:
    """One-ply lookahead with a generic score; ties are broken at random.

    For each legal option (a sample of 24 when there are more) the agent applies it
    to a copy of the state, lets chance play out with a generator of its own until
    a side must decide again (when that is the same side and the score has not moved, the
    option is worth the best of a sample of 4 of its next options; while those still tie, it
    follows one of them, up to 6 decisions on: a chain, so the cost grows with the depth, not
    exponentially),
    and scores the result for the deciding side:
    (lumos.interpreter.score.evaluate: 1000 x its return if the game ended, plus the
    game's `score of s` against the rivals', or a generic score without one).
    """

    name = "greedy"

    def __init__(self, seed: Any = 0):
        self.rng = random.Random(seed)

    def choose(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        side = state.current_player()
        options = legal if len(legal) <= MAX_LOOKAHEAD_OPTIONS else self.rng.sample(legal, MAX_LOOKAHEAD_OPTIONS)
        seen = redeal_hidden(state.cg, state.st.clone(), side, self.rng)   # one guess for every option
        from lumos.interpreter.engine import GameState
        base = evaluate(GameState(state.cg, seen, None), side)
        best, best_score = [], None
        for option in options:
            score = self._score_after(state.cg, seen, option, side, base)
            if best_score is None or score > best_score:
                best, best_score = [option], score
            elif score == best_score:
                best.append(option)
        return self.rng.choice(best)

    def _score_after(self, cg, seen, option: int, side: int, base: float | None = None) -> float:
        """The option's worth: its score once chance has played out; while that has not moved and
        the same side decides again, the best of a sample of its next options, following one of
        those that still tie with `base` (a chain, FOLLOW_DEPTH long, not a tree: linear cost)."""
        look = self._step(cg, seen, option)
        if look is None:
            return float("-inf")       # an option whose rules (or score) fail is the worst option
        score = self._value(look, side)
        for _ in range(FOLLOW_DEPTH):
            if score != base or look.is_terminal() or look.is_chance_node() or look.current_player() != side:
                break
            # nothing changed yet and the same side decides again (a card, then its pawn, then
            # where to): the option is worth the best of what it leads to, so a choice that only
            # opens the next one is not a tie with doing nothing
            nxt = look.legal_actions()
            if len(nxt) > FOLLOW_OPTIONS:
                nxt = self.rng.sample(nxt, FOLLOW_OPTIONS)
            tied, best = [], float("-inf")
            for o in nxt:
                after = self._step(cg, look.st, o)
                value = float("-inf") if after is None else self._value(after, side)
                best = max(best, value)
                if value == base:
                    tied.append(after)
            if best != base or not tied:
                return best
            look, score = self.rng.choice(tied), base
        return score

    def _step(self, cg, st, option: int):
        """A copy of `st` after `option` and the chance that follows (dice the agent cannot know:
        a fresh generator of its own), or None if the rules fail."""
        from lumos.interpreter.engine import GameState
        st = st.clone()
        st.rng = self.rng.getrandbits(64) & MASK64   # the lookahead does not know the real dice
        look = GameState(cg, st, None)
        try:
            look.apply_action(option)
            for _ in range(LOOKAHEAD_CHANCE_LIMIT):
                if not look.is_chance_node():
                    break
                look.apply_action(look.sample_chance())
        except LumosRuntimeError:
            return None
        return look

    @staticmethod
    def _value(look, side: int) -> float:
        try:
            return evaluate(look, side)
        except LumosRuntimeError:
            return float("-inf")

    def __repr__(self) -> str:
        return "GreedyAgent()"


def _mcts(seed: Any, params: str):
    from lumos.interpreter.mcts import MCTSAgent, parse_spec
    return MCTSAgent(seed, **parse_spec(params))


def _plain(cls):
    def make(seed: Any, params: str):
        if params:
            raise ValueError(f"the {cls.name} agent takes no parameters, not `{params}`")
        return cls(seed)
    return make


# name -> make(seed, parameters after the colon): `random`, `greedy`, `mcts:200`
AGENTS = {"random": _plain(RandomAgent), "greedy": _plain(GreedyAgent), "mcts": _mcts}


def make_agent(spec: str, seed: Any):
    """An agent by its spec: a name (`random`, `greedy`, `mcts`) and parameters after a colon
    (`mcts:200` playouts, `mcts:2s` seconds, `mcts:200:d4` depth). ValueError for a bad spec."""
    name, _, params = spec.partition(":")
    if name not in AGENTS:
        raise ValueError(f"unknown agent `{name}`; agents: {', '.join(AGENTS)}")
    return AGENTS[name](seed, params)


def check_agent(spec: str) -> None:
    """Raise ValueError if `spec` does not name an agent with valid parameters."""
    make_agent(spec, 0)


def agent_seed(game_seed: int, side: int) -> str:
    """The seed of the agent playing `side` in the game with `game_seed` (stable across runs)."""
    return f"{game_seed}:{side}"
