"""docs/language.md > Positions: `load_position(game, state.position())` gives the same options and
the same continuation (examiner)."""
import random
import pytest
from lumos.api import load_game, load_position, new_game

def play(s, rnd, n):
    out = []
    for _ in range(n):
        if s.is_terminal(): break
        if s.is_chance_node():
            o = s.sample_chance(); s.apply_action(o); out.append(("c", str(o)))
        else:
            o = rnd.choice(s.options()); out.append(o["label"]); s.apply_action_id(o["id"])
    return out

@pytest.mark.parametrize("gname", ["snitch-snatcher", "catch-the-golden-snitch"])
@pytest.mark.parametrize("seed", range(4))
def test_position_round_trip(gname, seed):
    g = load_game(gname)
    rnd = random.Random(seed)
    s = new_game(g, seed=seed)
    play(s, rnd, 40 + 17 * seed)
    if s.is_terminal(): return
    p = s.position()
    t = load_position(g, p)
    assert [o["label"] for o in t.options()] == [o["label"] for o in s.options()]
    a = play(s, random.Random(99), 60)
    b = play(t, random.Random(99), 60)
    assert a == b
    assert s.position() == t.position()

def test_position_for_side_accepts_a_side_name_like_the_rest_of_the_position_format():
    """docs: `position(for_side=s)` leaves out what side `s` cannot see.  Sides are named
    ("home") everywhere in positions; a name must not silently hide a side's own hand."""
    g = load_game("snitch-snatcher")
    s = load_position(g, {"zones": {"home hand": ["Fly Sideways"]}, "at": {"start_of": "take_turn"}, "current": "home"})
    assert s.position(for_side=0)["zones"]["home hand"] == ["Fly Sideways"]
    assert s.position(for_side="home")["zones"]["home hand"] == ["Fly Sideways"]
