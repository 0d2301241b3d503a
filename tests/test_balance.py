"""`lumos balance` (lumos.analysis.balance): win rates with Wilson intervals, first-player
advantage, game length, per-card figures; with `--with`, the change against the base game.

The test expansion tests/fixtures/overpowered-expansion adds to each Snitch Snatcher deck a
card that wins on the spot ("Playing Cards > Action Cards": an Action Card's effect happens
when it is played): the report must single it out, and only it.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from lumos.analysis.balance import flagged, wilson
from lumos.cli import main

EXPANSION = Path(__file__).parent / "fixtures" / "overpowered-expansion"


def test_wilson_intervals_hold_the_rate_and_narrow_with_more_games():
    lo, hi = wilson(5, 10)
    assert lo < 0.5 < hi and abs((0.5 - lo) - (hi - 0.5)) < 1e-9
    lo2, hi2 = wilson(50, 100)
    assert hi2 - lo2 < hi - lo
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] > 0.999 and wilson(10, 10)[0] > 0.6


def _balance(capsys, *extra) -> dict:
    assert main(["balance", "snitch-snatcher", "-n", "60", "-q", "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_report_singles_out_the_overpowered_card(capsys, tmp_path):
    page = tmp_path / "balance.html"
    rep = _balance(capsys, "--with", str(EXPANSION), "--html", str(page))
    assert flagged(rep) == ["Liquid Luck"]
    luck = rep["cards"]["Liquid Luck"]
    assert luck["flag"] == "strong" and luck["win_when_played"]["low"] > luck["win_when_held"]["high"]
    assert rep["change"]["cards"]["Liquid Luck"]["new"] is True
    assert rep["base"]["games"] == 60 and set(rep["change"]["sides"]) == {"home", "away"}
    text = page.read_text(encoding="utf-8")
    assert "Liquid Luck" in text and 'class="flag"' in text


def test_the_report_is_the_same_for_the_same_seed(capsys):
    a = _balance(capsys, "--seed", "3")
    b = _balance(capsys, "--seed", "3")
    assert a == b
    assert sum(s["wins"] for s in a["sides"].values()) + a["draws"] == a["completed"]
    assert a["first_player"]["fair"] == 0.5 and a["length"]["min"] <= a["length"]["median"] <= a["length"]["max"]


def test_a_small_sample_is_noted(capsys):
    rep = _balance(capsys)
    assert any(c["note"] == "sample too small" and c["flag"] == "" for c in rep["cards"].values())


def test_balance_needs_a_game():
    assert main(["balance", "snitch-snatcher", "-n", "0"]) == 2
