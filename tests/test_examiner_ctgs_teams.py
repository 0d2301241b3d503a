"""Build Your Team rules checked through `lumos check` on team files (examiner)."""
import pathlib
import subprocess
import sys

import pytest
T = pathlib.Path(__file__).resolve().parent / "games" / "examiner_teams"
LUMOS = [sys.executable, "-m", "lumos"]

def check(name):
    r = subprocess.run([*LUMOS, "check", str(T / name)], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr

def test_a_legal_team_passes():
    rc, out = check("ok.yaml")
    assert rc == 0 and "ok:" in out

@pytest.mark.parametrize("name, words", [
    ("overfunded.yaml", "more than its Funding"),              # Galleons: never exceed the Funding
    ("fund_ok_with_spectator.yaml", "more than its Funding"),  # a bought Spectator costs Galleons
    ("no_keeper.yaml", "exactly 1 Keeper"),                    # 1 Keeper, 1 Seeker, 2 Beaters, 3 Chasers
    ("three_spectators.yaml", "at most 2 Spectators"),         # up to 2 additional Spectators
    ("spectator_affiliation.yaml", "Affiliation"),             # restricted to certain Teams
    ("tactical_affiliation.yaml", "Affiliation"),
    ("unique_spectator.yaml", "Scarlet Banner Bearer"),        # Unique Names
    ("duplicate_tactical.yaml", "Lion's Charge"),
])
def test_broken_team_reports_at_a_line(name, words):
    rc, out = check(name)
    assert rc != 0 and words in out, out
    assert f"{name}:" in out and any(ch.isdigit() for ch in out.split(f"{name}:")[1][:3])
