"""PettingZoo runs every bundled Lumos game through the AEC adapter (lumos.analysis.pettingzoo):
`api_test` plays random legal actions (sampled from each agent's action mask) and checks the
AEC contract (observations inside their spaces, rewards, terminations and the agents list kept
in step), and a seed fixes the game. DESIGN.md, "Runtime model > Hidden information": an
agent's observation shows nothing its side may not see.

Needs the `pettingzoo` extra (`pip install ".[pettingzoo]"`); skipped without it.
"""
from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")


def _bundled():
    from lumos.api import bundled_games
    return bundled_games()


# api_test's advice (warnings, not failures) for observations that are not a bare array: it
# advises a Box or Discrete space, unless the game is one of PettingZoo's own board games, which
# use this same Dict of an observation and an action mask. Its assertions still apply.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("game", _bundled())
def test_api_test_passes(game):
    from pettingzoo.test import api_test

    from lumos.analysis.pettingzoo import LumosEnv
    api_test(LumosEnv(game), num_cycles=200)


def test_a_seed_fixes_the_game():
    from pettingzoo.test import seed_test

    from lumos.analysis.pettingzoo import LumosEnv
    seed_test(lambda: LumosEnv("snitch-snatcher"), num_cycles=50)


def test_an_observation_does_not_show_the_rivals_hand():
    """Two games that differ only in which cards lie in away's hand and away's deck look the same to home."""
    import numpy as np

    from lumos.analysis.pettingzoo import LumosEnv
    env = LumosEnv("snitch-snatcher")
    env.reset(seed=4)
    cg, st = env.cg, env.state.st
    hand, deck = cg.zone_id("hand", 1), cg.zone_id("action_deck", 1)
    assert st.zones[hand] and st.zones[deck]
    before_home, before_away = env.observe("home_0")["observation"], env.observe("away_1")["observation"]
    a, b = st.zones[hand][0], st.zones[deck][-1]
    st.zones[hand][0], st.zones[deck][-1] = b, a
    st.card_zone[a], st.card_zone[b] = deck, hand
    assert np.array_equal(env.observe("home_0")["observation"], before_home)
    assert not np.array_equal(env.observe("away_1")["observation"], before_away)
