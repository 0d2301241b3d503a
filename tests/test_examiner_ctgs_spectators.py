"""Optional Spectators rules (Catch the Golden Snitch > Optional Rules > Spectators), examiner."""
from games.examiner_ctgs import *

def spos(**kw):
    z = {"home spectator_hand": ["Fervent Fan", "Charm-Waving Supporter"],
         "away spectator_hand": ["Fervent Fan", "Charm-Waving Supporter"], "magic_zone": [], "encouragement_zone": []}
    z.update(kw.pop("zones", {}))
    return pos(zones=z, options={"spectators": "on"}, **kw)

def open_spectator(s):
    act(s, label="play a Spectator")
    return s

def test_spectator_offered_at_a_decision():
    s = spos()
    assert find(s, label="play a Spectator")

def test_spectator_in_empty_magic_zone_first_effect():
    s = spos()
    me = s.current_player()
    side = "home" if me == 0 else "away"
    open_spectator(s)
    act(s, label="Charm-Waving Supporter")
    if find(s, label="magic Zone"): act(s, label="magic Zone")
    # first effect: one of your Players takes a purple Bonus Dice token
    assert any("Bonus" in l for l in labels(s)), labels(s)
    s.apply_action_id(s.options()[0]["id"])
    assert P(s)["zones"]["magic_zone"] == ["Charm-Waving Supporter"]
    assert sum(P(s)["piece_vars"]["bonus_purple"].values()) == 1

def test_fervent_fan_in_empty_encouragement_zone_gains_tempo():
    # every Coach's free Spectator; it can only stand in the Encouragement Zone
    s = spos()
    me = "home" if s.current_player() == 0 else "away"
    open_spectator(s)
    act(s, label="Fervent Fan")
    if find(s, label="encouragement Zone"): act(s, label="encouragement Zone")
    assert P(s)["zones"]["encouragement_zone"] == ["Fervent Fan"]
    assert sv(s, "tempo", me) == 1

def test_cannot_place_over_friendly_spectator():
    s = spos(zones={"magic_zone": ["Charm-Waving Supporter"], "home spectator_hand": ["Fervent Fan", "Charm-Waving Supporter"], "away spectator_hand": ["Fervent Fan"]},
             vars={"magic_owner": "home"})
    if s.current_player() == 0:
        open_spectator(s)
        assert not find(s, label="Charm-Waving Supporter in the magic")


def test_placing_over_rival_spectator_removes_it_second_effect():
    s = spos(zones={"magic_zone": ["Charm-Waving Supporter"], "home spectator_hand": ["Fervent Fan", "Charm-Waving Supporter"],
                    "away spectator_hand": ["Fervent Fan"]}, vars={"magic_owner": "away"})
    assert s.current_player() == 0
    open_spectator(s)
    act(s, label="Charm-Waving Supporter")
    if find(s, label="magic Zone"): act(s, label="magic Zone")
    # second effect: a purple Bonus token and a purple Penalty token for a rival Player
    for _ in range(4):
        if rule_of(s) in ("choose_pitch_actions",): break
        s.apply_action_id(s.options()[0]["id"])
    assert sum(P(s)["piece_vars"]["bonus_purple"].values()) == 1
    assert sum(v for k, v in P(s)["piece_vars"]["penalty_purple"].items() if k.startswith("away")) == 1
    assert var(s, "magic_owner") == "home"
    assert "Charm-Waving Supporter" in P(s)["zones"]["spectators_out"]

def test_hand_swap_clears_the_stand():
    s = spos(zones={"magic_zone": ["Charm-Waving Supporter"], "home spectator_hand": ["Fervent Fan", "Charm-Waving Supporter"],
                    "away spectator_hand": ["Fervent Fan"], "home hand": [],
                    "home tactical_deck": ["Lion's Charge", "Scarlet Blitz", "Hoop Hunter", "Brave Breakaway", "Firebolt Feint"]},
             vars={"magic_owner": "away"})
    for _ in range(10):
        if rule_of(s) == "choose_pitch_actions": break
        m = [o for o in s.options() if o["label"] == "do not choose"]
        s.apply_action_id((m or s.options())[0]["id"])
    assert P(s)["zones"]["magic_zone"] == []
