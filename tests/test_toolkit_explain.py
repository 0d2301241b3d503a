"""`lumos explain CARD`: data, effect, English, and where the rules can play the card."""
from __future__ import annotations

import re
from pathlib import Path

from lumos.cli import main

ROOT = Path(__file__).resolve().parents[1]
GAME = "snitch-snatcher"
EXAMPLE = ROOT / "examples" / "snitch-snatcher-expansion"


def explain(capsys, *args) -> str:
    assert main(["explain", *args]) == 0
    return capsys.readouterr().out


def test_interrupt_card(capsys):
    out = explain(capsys, "Barrel Roll", "--game", GAME)
    assert out.startswith("Barrel Roll - an action card of snitch-snatcher")
    assert re.search(r"home\.yaml:\d+: deck home, 2 copies", out)
    assert "  window: knock_off" in out and "  threshold: 2" in out
    assert 'effect:\n  log "{attacker} swings at empty air"\n  set negated = true' in out
    assert "in plain English:" in out
    # the play sites, decided per call of the procedure that offers interrupts
    lines = out.splitlines()
    offered = [ln for ln in lines if "calls it" in ln and "offer_interrupt(" in ln]
    assert len(offered) == 3
    assert [ln for ln in offered if "knock_off" in ln and ": yes" in ln]
    assert all(": no: `it.window == w`" in ln for ln in offered if "knock_off" not in ln)
    assert re.search(r"calls it .*: no: `not it.interrupt` does not hold", out)
    assert "its `window` names the window `knock_off`, which the rules open at:" in out
    assert re.search(r"procedure knock_off_player \(game\.lumos:\d+\): `offer_interrupt\(knock_off, victim\.side\)`",
                     out)


def test_ordinary_action_card_with_condition(capsys):
    out = explain(capsys, "fly  sideways")      # names match ignoring case and spacing
    assert out.startswith("Fly Sideways - an action card")
    assert "condition (when it can be played):\n  (chasers(me) where sideways(it, 2)" in out
    assert "Playable when" in out
    assert re.search(r"procedure play_step .*\n.*\n    when procedure take_turn calls it .*: yes", out)


def test_card_drawn_not_played(capsys):
    out = explain(capsys, "Spot the Golden Snitch (north)", "--no-english")
    assert "in plain English" not in out
    assert "rules that look for cards of type `spot`:" in out
    assert re.search(r"procedure draw_action \(game\.lumos:\d+\): `c\.type == \"spot\"`", out)
    assert ": yes" not in out          # no `play` statement takes it


def test_expansion_card(capsys):
    out = explain(capsys, "Sloth Grip Roll", "--game", GAME, "--with", str(EXAMPLE))
    assert "snitch-snatcher-expansion/home.yaml:" in out
    assert "names the window `knock_off`" in out


def test_unknown_card(capsys):
    assert main(["explain", "Barel Roll"]) == 2
    assert "did you mean `Barrel Roll`?" in capsys.readouterr().err
    assert main(["explain", "Sloth Grip Roll", "--game", GAME]) == 2
