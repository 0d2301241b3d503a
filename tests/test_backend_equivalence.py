"""The specialised back end plays every game exactly as the reference closure machine does.

House rule (DESIGN, determinism): the same seed and the same choices give the same game and the
same log, whatever the process ran before; issue 14: the faster back end must not change a
single game. Each game is compiled twice in this process, once per back end
(lumos.compiler.fused.using_backend), and the same seeded random games are played with both:
the JSON Lines logs (every event, choice and the result) must be equal byte for byte, and so
must the last state of games played without a log (the path playouts take). A few seeds per
game run by default; `-m slow` plays a thousand per game.
"""
from __future__ import annotations

import pytest

from support.equivalence import compiled, every_game, first_difference, game_name, play_final, play_log, runaway_stops

GAMES = every_game()


@pytest.fixture(scope="module")
def pairs():
    cache = {}

    def get(game):
        if game not in cache:
            cache[game] = (compiled(game, "reference"), compiled(game, "specialised"))
        return cache[game]
    return get


def _same_logs(ref, new, seeds):
    for seed in seeds:
        a, b = play_log(ref, seed), play_log(new, seed)
        assert a == b, f"{ref.id} seed {seed}: the logs differ at {first_difference(a, b)}"


def _same_finals(ref, new, seeds):
    for seed in seeds:
        a, b = play_final(ref, seed), play_final(new, seed)
        assert a == b, f"{ref.id} seed {seed}: the games end differently without a log"


@pytest.mark.parametrize("game", GAMES, ids=game_name)
def test_same_logs_few_seeds(pairs, game):
    ref, new = pairs(game)
    assert ref.backend == "reference" and new.backend == "specialised"
    _same_logs(ref, new, range(1, 4))
    _same_finals(ref, new, range(1, 6))


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=game_name)
def test_same_logs_thousand_seeds(pairs, game):
    ref, new = pairs(game)
    _same_logs(ref, new, range(1, 301))
    _same_finals(ref, new, range(1, 1001))


# A runaway loop stops at the same instruction with both back ends, an error inside a run of
# instructions on its own line (support.equivalence.RUNAWAY).
BODIES = [
    "        add 1 to n",
    "        add 1 to n\n        let k = n",
    "        add 1 to n\n        let k = n\n        if k < 0:\n            win red",
    "        for each s in spaces:\n            set s.mark = n\n        add 1 to n",
    "        let k = n\n        let j = k + 1\n        let s = first(spaces where it.mark > j)\n        set s.mark = 1",
]


@pytest.mark.parametrize("body", BODIES, ids=range(len(BODIES)))
def test_the_step_limit_and_errors_fall_on_the_same_line(tmp_path, body):
    got = runaway_stops(tmp_path, body)
    assert got[0] == got[1]
    assert got[0][0] in ("R002", "R003")
