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
"""
from __future__ import annotations

import random
from typing import Any, Protocol

from lumos.diagnostics import LumosRuntimeError
from lumos.interpreter.state import MASK64
from lumos.interpreter.visibility import card_seen, card_variables, rename_cards, zone_seen

MAX_LOOKAHEAD_OPTIONS = 40   # the greedy agent samples this many options when there are more
LOOKAHEAD_CHANCE_LIMIT = 64  # chance nodes resolved after a lookahead move before scoring
WIN_WEIGHT = 1000.0
FOLLOW_DEPTH = 2             # the greedy agent follows its own next decisions while nothing changes
FOLLOW_OPTIONS = 6           # ... sampling this many of their options when there are more


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

    For each legal option (a sample of 40 when there are more) the agent applies it
    to a copy of the state, lets chance play out with a generator of its own until
    a side must decide again (when that is the same side and the score has not moved, the
    option is worth the best of a sample of 6 of its next options, up to 3 levels deep),
    and scores the result for the deciding side:
    1000 x its return if the game ended, plus the game's `score(side)` if the rules
    declare that function, else the sum of its numeric per-side variables minus the
    rivals' average of the same.
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

    def _score_after(self, cg, seen, option: int, side: int, base: float | None = None,
                     follow: int = FOLLOW_DEPTH) -> float:
        from lumos.interpreter.engine import GameState
        st = seen.clone()
        st.rng = self.rng.getrandbits(64) & MASK64   # the lookahead does not know the real dice
        look = GameState(cg, st, None)
        try:
            look.apply_action(option)
            for _ in range(LOOKAHEAD_CHANCE_LIMIT):
                if not look.is_chance_node():
                    break
                look.apply_action(look.sample_chance())
            score = evaluate(look, side)
            if follow > 0 and score == base and not look.is_terminal() and not look.is_chance_node() \
                    and look.current_player() == side:
                # nothing changed yet and the same side decides again (a card, then its pawn, then
                # where to): the option is worth the best of what it leads to, so a choice that
                # only opens the next one is not a tie with doing nothing
                nxt = look.legal_actions()
                if len(nxt) > FOLLOW_OPTIONS:
                    nxt = self.rng.sample(nxt, FOLLOW_OPTIONS)
                return max(self._score_after(cg, look.st, o, side, base, follow - 1) for o in nxt)
            return score
        except LumosRuntimeError:
            return float("-inf")       # an option whose rules (or score) fail is the worst option

    def __repr__(self) -> str:
        return "GreedyAgent()"


def redeal_hidden(cg, st, side: int, rng: random.Random):
    """`st` with the cards `side` may not see dealt anew among the zones that hold them.

    Hidden zones and the other sides' `owner` zones keep their sizes; their cards are
    shuffled together and dealt back (a guess of the unseen cards, as a player makes),
    except those a variable that `side` sees shows it (interpreter/visibility.py). The
    variables and the locals of the running rules that named an unseen card name the card
    dealt into its place, and a variable whose card `side` may not see where it lies
    (declared `hidden`, or another side's `owner`) is given a card guessed from that place.
    So nothing of the guess depends on the cards `side` may not see. Returns `st`, changed
    in place."""
    ns = cg.nsides
    unseen = []
    for zid in range(len(st.zones)):
        owner = zid % ns
        if owner and zid // ns in cg.shared_zones:
            continue   # a shared zone lives under the first side's id
        if not zone_seen(cg, zid, side):
            unseen.append(zid)
    variables = list(card_variables(cg, st))
    known = set()     # unseen cards that a variable shows to `side`
    for _w, _i, owner, values, key, is_list, declared in variables:
        if declared is not None and values[key] is not None and card_seen(cg, st, 0, side, declared, owner):
            known.update(values[key] if is_list else (values[key],))
    places = [(zid, i) for zid in unseen for i, c in enumerate(st.zones[zid]) if c not in known]
    cards = sorted(st.zones[zid][i] for zid, i in places)   # how they lay does not matter
    mapping = {}
    if len(cards) >= 2:
        rng.shuffle(cards)
        for (zid, i), c in zip(places, cards):
            mapping[st.zones[zid][i]] = c
            st.zones[zid][i] = c
            st.card_zone[c] = zid
        rename_cards(cg, st, mapping)
    for _w, _i, owner, values, key, is_list, declared in variables:
        if declared is None or values[key] is None or card_seen(cg, st, 0, side, declared, owner):
            continue
        # which card it holds is not seen: a guess among the cards lying where each one lies
        picks = [_guess(cg, st, c, rng) if zone_seen(cg, st.card_zone[c], side) else c   # else: renamed above
                 for c in (values[key] if is_list else (values[key],))]
        values[key] = tuple(picks) if is_list else picks[0]
    return st


def _guess(cg, st, card: int, rng: random.Random) -> int:
    zid = st.card_zone[card]
    return rng.choice(sorted(st.zones[zid])) if zid >= 0 and st.zones[zid] else card


def evaluate(state, side: int) -> float:
    """A score of `state` for `side`: returns, then the game's own `score` function when it
    declares one (docs/language.md, "The game's own score"), else its numeric per-side variables."""
    st = state.st
    score = 0.0
    if st.result is not None:
        score += WIN_WEIGHT * st.result[side]
    if state.cg.score is not None:
        from lumos.interpreter.machine import Machine
        return score + float(state.cg.score(Machine(state.cg, st), side) or 0)
    ns = state.cg.nsides
    for values in st.sv:
        mine = values[side]
        if type(mine) not in (int, float):   # flags and texts say nothing about who is ahead
            continue
        if ns > 1:
            others = [v for k, v in enumerate(values) if k != side and type(v) in (int, float)]
            score += mine - (sum(others) / len(others) if others else 0)
        else:
            score += mine
    return score


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str, seed: Any):
    """An agent by name (`random`, `greedy`)."""
    try:
        return AGENTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown agent `{name}`; agents: {', '.join(AGENTS)}") from None


def agent_seed(game_seed: int, side: int) -> str:
    """The seed of the agent playing `side` in the game with `game_seed` (stable across runs)."""
    return f"{game_seed}:{side}"
