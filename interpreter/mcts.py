"""A GameState -> the option an information-set Monte Carlo tree search prefers (`--agents mcts:200`).

Why: one-ply lookahead never finds a plan two decisions deep (carry the ball, then shoot);
a search does, and it is the agent designers' statistics need. It is an information-set
search (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012): each playout starts
from a determinisation, a guess of what the deciding side cannot see, dealt by
`guess.redeal_hidden` from what that side sees (never from the hidden cards themselves), with
dice the agent draws from its own generator. One tree is shared by all the guesses: a node is
a sequence of options by action id (`GameState.legal_action_ids`, the same in every guess), and
a child is weighed by how often it was available (UCB1 with availability counts). Playouts run
`depth` random decisions past the tree and are then judged by `score.evaluate` (the game's
`score of s`, or the generic score), squashed to about [-1, 1]; an ended game counts its returns.

Seeded and deterministic for a seed when budgeted by playouts; a time budget (`mcts:2s`) is
not deterministic, since how many playouts fit depends on the machine.
"""
from __future__ import annotations

import math
import random
import time
from typing import Any

from lumos.diagnostics import LumosRuntimeError
from lumos.interpreter.guess import redeal_hidden
from lumos.interpreter.score import standing
from lumos.interpreter.state import MASK64

DEFAULT_PLAYOUTS = 100
DEFAULT_DEPTH = 6          # random decisions played past the tree before the position is judged
EXPLORATION = 0.7          # UCB1's constant, for rewards in [-1, 1]
CHANCE_LIMIT = 256         # chance nodes resolved in a row before a playout gives up (a runaway)
TREE_DEPTH_LIMIT = 200     # decisions one playout may descend through the tree


class _Node:
    """Statistics of one option sequence: visits, how often it was available, rewards per side."""

    __slots__ = ("children", "visits", "avail", "total")

    def __init__(self, nsides: int):
        self.children: dict = {}
        self.visits = 0
        self.avail = 0
        self.total = [0.0] * nsides


def parse_spec(params: str) -> dict:
    """`200` (playouts), `2s` / `0.5s` (seconds), with `:dN` (depth), e.g. `200:d4` -> keyword arguments."""
    out: dict = {}
    for part in [p for p in params.split(":") if p]:
        try:
            if part.endswith("s"):
                out["seconds"] = float(part[:-1])
                if out["seconds"] <= 0:
                    raise ValueError
            elif part.startswith("d"):
                out["depth"] = int(part[1:])
                if out["depth"] < 0:
                    raise ValueError
            else:
                out["playouts"] = int(part)
                if out["playouts"] < 1:
                    raise ValueError
        except ValueError:
            raise ValueError(f"mcts takes playouts (`mcts:200`), seconds (`mcts:2s`) and a depth "
                             f"(`mcts:200:d4`), not `{part}`") from None
    return out


class MCTSAgent:
    """Information-set MCTS: `playouts` per decision (or `seconds`), `depth` random decisions past the tree."""

    name = "mcts"

    def __init__(self, seed: Any = 0, playouts: int = DEFAULT_PLAYOUTS, seconds: float | None = None,
                 depth: int = DEFAULT_DEPTH, exploration: float = EXPLORATION):
        self.rng = random.Random(seed)
        self.playouts, self.seconds, self.depth, self.c = playouts, seconds, depth, exploration
        self.scale = 1.0   # a running mean of |standing|, so judgements of any game land near [-1, 1]
        self._judged = 0

    def __repr__(self) -> str:
        budget = f"{self.seconds}s" if self.seconds else str(self.playouts)
        return f"MCTSAgent({budget}, depth={self.depth})"

    # ------------------------------------------------------------------ the decision
    def choose(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        side = state.current_player()
        root_keys = _keys(state)
        root = _Node(state.cg.nsides)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        n = 0
        while (n < self.playouts) if deadline is None else (time.perf_counter() < deadline or n == 0):
            st = redeal_hidden(state.cg, state.st.clone(), side, self.rng)
            st.rng = self.rng.getrandbits(64) & MASK64     # the search does not know the real dice
            self._playout(_fresh(state.cg, st), root)
            n += 1
        best = max(range(len(root_keys)), key=lambda i: _rank(root.children.get(root_keys[i]), side))
        return legal[best]

    def _playout(self, g, root: _Node) -> None:
        path = [root]
        node = root
        try:
            for _ in range(TREE_DEPTH_LIMIT):
                if not _settle(g) or g.is_terminal():
                    break
                keys = _keys(g)
                player = g.current_player()
                untried = []
                for k in keys:
                    child = node.children.get(k)
                    if child is None:
                        untried.append(k)
                    else:
                        child.avail += 1
                if untried:
                    k = self.rng.choice(untried)
                    child = node.children[k] = _Node(len(root.total))
                    child.avail = 1
                    g.apply_action(keys.index(k))
                    path.append(child)
                    break
                log_n = {}
                best_i, best_v = 0, -math.inf
                for i, k in enumerate(keys):
                    child = node.children[k]
                    av = child.avail
                    if av not in log_n:
                        log_n[av] = math.log(av)
                    v = child.total[player] / child.visits + self.c * math.sqrt(log_n[av] / child.visits) \
                        if child.visits else math.inf
                    if v > best_v:
                        best_i, best_v = i, v
                node = node.children[keys[best_i]]
                g.apply_action(best_i)
                path.append(node)
            values = self._rollout(g)
        except LumosRuntimeError:
            values = [-1.0] * len(root.total)   # a line whose rules fail is worth nothing to anyone
        for nd in path:
            nd.visits += 1
            tot = nd.total
            for k, v in enumerate(values):
                tot[k] += v

    def _rollout(self, g) -> list[float]:
        rng = self.rng
        for _ in range(self.depth):
            if not _settle(g) or g.is_terminal():
                break
            g.apply_action(rng.randrange(len(g.st.pending["options"])))
        _settle(g)
        if g.is_terminal():
            return [float(r) for r in g.returns()]
        return [self._squash(standing(g, k)) for k in range(g.cg.nsides)]

    def _squash(self, x: float) -> float:
        self._judged += 1
        self.scale += (abs(x) - self.scale) / min(self._judged, 1000)
        return math.tanh(x / (2 * self.scale + 1e-9)) * 0.9   # an unfinished lead is worth less than a win


def _rank(node: _Node | None, side: int) -> tuple:
    """The final choice: most visited, then best mean for the deciding side."""
    if node is None or not node.visits:
        return (0, -math.inf)
    return (node.visits, node.total[side] / node.visits)


def _fresh(cg, st):
    from lumos.interpreter.engine import GameState
    return GameState(cg, st, None)


def _settle(g) -> bool:
    """Resolve chance nodes with the state's generator (the agent's, in a guess); False on a runaway."""
    for _ in range(CHANCE_LIMIT):
        if not g.is_chance_node():
            return True
        g.apply_action(g.sample_chance())
    return False


def _keys(g) -> list:
    """The options' keys in the tree: their action ids, the same in every guess (indices if a
    decision's options are not in the action space)."""
    try:
        return g.legal_action_ids()
    except LumosRuntimeError:
        return [("option", i) for i in range(len(g.st.pending["options"]))]
