"""`lumos check` as a designer and a CI job use it: games, game folders, expansions, loose card
files; every problem in one run, sorted, capped, summarised; text, json and github formats;
exit status 0 / 1 / 2. Also `simulate` and `play` with `--with` an expansion.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lumos.cli import main
from lumos.cli.common import compile_or_fail

ROOT = Path(__file__).resolve().parents[1]
GAME = "snitch-snatcher"
EXAMPLE = ROOT / "examples" / "snitch-snatcher-expansion"
SUMMARY = re.compile(r"^(\d+) errors?, (\d+) warnings? in (\d+) files?$", re.M)


def run(*args, stdin: str | None = None):
    """`python -m lumos ARGS` in a fresh process."""
    return subprocess.run([sys.executable, "-m", "lumos", *args], input=stdin, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "LUMOS_DEBUG": ""})


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


CARD = """  - name: {name}
    type: action
    colour: {colour}
    threshold: 1
    text: "A card."
    effect: |
      {effect}
"""


def card_file(path: Path, *cards: dict, deck: str = "home") -> Path:
    body = "".join(CARD.format(**{"colour": "offense", "effect": 'log "{card}"', **c}) for c in cards)
    return write(path, f"deck: {deck}\ncards:\n{body}")


@pytest.fixture(scope="module")
def game_copy(tmp_path_factory) -> Path:
    """A copy of the bundled game with two errors in two files and one warning."""
    root = tmp_path_factory.mktemp("copy") / "my-game"
    shutil.copytree(ROOT / "rules" / GAME, root)
    shutil.copytree(ROOT / "cards" / GAME, root / "cards")
    with open(root / "game.lumos", "a", encoding="utf-8") as fh:
        fh.write("\nfunction never_used(x) = x + 1\n")
    with open(root / "cards.lumos", "a", encoding="utf-8") as fh:
        fh.write("\nfunction broken_a(s) = chasrs(s)\nfunction broken_b(s) = chasers(s) + tru\n")
    return root


@pytest.fixture(scope="module")
def clean_with_warning(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("warn") / "warned"
    shutil.copytree(ROOT / "rules" / GAME, root)
    shutil.copytree(ROOT / "cards" / GAME, root / "cards")
    with open(root / "game.lumos", "a", encoding="utf-8") as fh:
        fh.write("\nfunction never_used(x) = x + 1\n")
    return root


# ---------------------------------------------------------------- games
def test_bundled_game_and_default_are_clean(capsys):
    assert main(["check", GAME]) == 0
    out = capsys.readouterr().out
    assert re.search(rf"^ok: {GAME} \(\d+ rules, \d+ cards\)$", out, re.M)
    assert not SUMMARY.search(out)
    assert main(["check"]) == 0


def test_game_folder_every_problem_in_one_run(game_copy, capsys):
    assert main(["check", str(game_copy)]) == 1
    out = capsys.readouterr().out
    heads = re.findall(r"^(\S+?):(\d+):(\d+): (\w\d+) ", out, re.M)
    codes = [h[3] for h in heads]
    assert "E205" in codes or "E201" in codes
    assert len([c for c in codes if c.startswith("E")]) >= 2, out
    keys = [(h[0], int(h[1]), int(h[2])) for h in heads]
    assert keys == sorted(keys), "sorted by file, line and column"
    m = SUMMARY.search(out)
    assert m and int(m.group(1)) >= 2 and int(m.group(3)) == len({h[0] for h in heads})
    assert "hint: did you mean `chasers`?" in out


def test_max_caps_the_listing(game_copy, capsys):
    assert main(["check", str(game_copy), "--max", "1"]) == 1
    out = capsys.readouterr().out
    assert len(re.findall(r"^\S+:\d+:\d+: \w\d+ ", out, re.M)) == 1
    assert re.search(r"^\.\.\. and \d+ more", out, re.M)
    assert SUMMARY.search(out)      # the summary still counts everything
    assert main(["check", str(game_copy), "--max", "0"]) == 1
    assert "... and" not in capsys.readouterr().out


def test_warnings_pass_unless_strict(clean_with_warning, capsys):
    assert main(["check", str(clean_with_warning)]) == 0
    out = capsys.readouterr().out
    assert "W301" in out and "warning:" in out and "ok: warned" in out
    assert SUMMARY.search(out).group(1, 2) == ("0", "1")
    assert main(["check", str(clean_with_warning), "--strict"]) == 1
    capsys.readouterr()
    assert main(["check", str(clean_with_warning), "--strict", "--format", "json"]) == 1
    assert [d["code"] for d in json.loads(capsys.readouterr().out)] == ["W301"]


def test_json_format(game_copy, capsys):
    assert main(["check", str(game_copy), "--format", "json"]) == 1
    diags = json.loads(capsys.readouterr().out)
    assert diags and all({"path", "line", "column", "end_line", "end_column", "code", "severity", "message",
                          "hint"} <= set(d) for d in diags)
    assert {d["severity"] for d in diags} == {"error", "warning"}
    assert main(["check", GAME, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_github_format(game_copy, capsys):
    assert main(["check", str(game_copy), "--format", "github"]) == 1
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("::")]
    assert lines
    for ln in lines:
        m = re.match(r"^::(error|warning) file=([^,]+),line=(\d+),col=(\d+)(,endLine=\d+,endColumn=\d+)?"
                     r",title=(\w\d+)::(.+)$", ln)
        assert m, ln
        assert "\n" not in m.group(7)
    assert any("%0Ahint: did you mean" in ln for ln in lines)


def test_usage_errors_exit_2(tmp_path, capsys):
    assert main(["check", "no-such-game"]) == 2
    assert main(["check", "--game", GAME, str(tmp_path / "missing.yaml")]) == 2
    loose = card_file(tmp_path / "loose.yaml", {"name": "Loose"})
    assert main(["check", str(loose)]) == 2
    assert "--game GAME" in capsys.readouterr().err
    assert main(["check", GAME, "--max", "-1"]) == 2
    assert main(["check", "--format", "xml"]) == 2


# ---------------------------------------------------------------- loose card files
def test_loose_card_files_against_a_game(tmp_path, capsys):
    good = card_file(tmp_path / "good.yaml", {"name": "Good One"})
    bad = card_file(tmp_path / "bad.yaml", {"name": "Bad One", "effect": "choose c from chasrs(me)"},
                    {"name": "Worse One", "colour": "ofense"})
    assert main(["check", "--game", GAME, str(good)]) == 0
    assert "ok: 1 card file against snitch-snatcher (1 card)" in capsys.readouterr().out
    assert main(["check", "--game", GAME, str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert re.search(r"bad\.yaml:9:21: E205 unknown function `chasrs`", out), out
    assert re.search(r"bad\.yaml:12:13: S104 card `Worse One`: field `colour`", out), out
    assert SUMMARY.search(out).group(1, 3) == ("2", "1")
    # a folder of card files
    assert main(["check", "--game", GAME, str(tmp_path)]) == 1
    capsys.readouterr()


def test_the_games_own_files_are_not_counted_twice(capsys):
    from lumos.api import game_sources
    own = game_sources(GAME).cards_dir / "home.yaml"  # where the installed game keeps it
    assert main(["check", "--game", GAME, str(own)]) == 0
    assert f"ok: {GAME} (" in capsys.readouterr().out


# ---------------------------------------------------------------- expansions
def test_example_expansion_is_clean(capsys):
    assert main(["check", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^ok: Hawkshead Tricks \(extends snitch-snatcher: 12 cards in 2 files\)$", out, re.M)
    assert main(["check", str(EXAMPLE / "expansion.yaml"), "--strict"]) == 0


def test_example_expansion_cards_are_compiled_in():
    cg, _ = compile_or_fail(GAME, [str(EXAMPLE)])
    names = {c.name for c in cg.cards}
    assert {"Hawkshead Attack", "Sloth Grip Roll", "Counter-Charm", "Long Throw"} <= names
    base, _ = compile_or_fail(GAME)
    assert len(cg.cards) == len(base.cards) + 12
    added = [c for c in cg.cards if c.name == "Hawkshead Attack"]
    assert sorted(cg.sides[c.deck] for c in added) == ["away", "away", "home", "home"]


def test_simulate_with_the_example_expansion(tmp_path, capsys):
    assert main(["simulate", GAME, "--with", str(EXAMPLE), "-n", "20", "--seed", "1", "--json", "-q",
                 "--log-dir", str(tmp_path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 20 and summary["completed"] == 20 and summary["errors"] == 0
    assert summary["with"] == [str(EXAMPLE)]
    played = "".join(p.read_text(encoding="utf-8") for p in tmp_path.glob("*.jsonl"))
    assert "plays Hawkshead Attack" in played       # the new cards are dealt and played
    log = sorted(tmp_path.glob("*.jsonl"))[0]
    assert main(["replay", str(log), "--with", str(EXAMPLE)]) == 0


def test_simulate_with_expansion_in_processes(capsys):
    base = ["simulate", GAME, "--with", str(EXAMPLE), "-n", "4", "--seed", "5", "--json", "-q"]
    assert main(base) == 0
    serial = json.loads(capsys.readouterr().out)
    assert main(base + ["--jobs", "2"]) == 0
    parallel = json.loads(capsys.readouterr().out)
    assert serial["wins"] == parallel["wins"] and serial["mean_decisions"] == parallel["mean_decisions"]


def test_play_with_the_example_expansion():
    r = run("play", GAME, "--with", str(EXAMPLE), "--seed", "2", stdin="q\n")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr and "quit." in r.stdout


def test_with_errors(tmp_path, capsys):
    assert main(["simulate", GAME, "--with", str(tmp_path / "nothing"), "-n", "1", "-q"]) == 2
    other = write(tmp_path / "other" / "expansion.yaml", "extends: ../game\n")
    shutil.copytree(ROOT / "rules" / GAME, tmp_path / "game")
    assert main(["simulate", GAME, "--with", str(other.parent), "-n", "1", "-q"]) == 2
    assert "extends `../game`, not `snitch-snatcher`" in capsys.readouterr().err
    bad = card_file(tmp_path / "bad" / "cards.yaml", {"name": "Bad", "effect": "set nothing = 1"})
    assert main(["simulate", GAME, "--with", str(bad), "-n", "1", "-q"]) == 1
    err = capsys.readouterr().err
    assert "cards.yaml:9:11:" in err and "Traceback" not in err


def test_broken_manifest_every_problem(tmp_path, capsys):
    folder = tmp_path / "exp"
    write(folder / "expansion.yaml", "extends: snitch-snatchr\nnmae: X\ncards: [home.yml, cards.yaml]\n")
    card_file(folder / "cards.yaml", {"name": "A", "effect": "choose c from chasrs(me)"})
    assert main(["check", str(folder), "--format", "json"]) == 1
    got = {(d["code"], d["line"], d["column"]) for d in json.loads(capsys.readouterr().out)}
    assert got == {("S104", 1, 10), ("S102", 2, 1), ("E100", 3, 9)}
    write(folder / "expansion.yaml", "extends: snitch-snatcher\nnmae: X\ncards: [home.yml, cards.yaml]\n")
    assert main(["check", str(folder), "--format", "json"]) == 1
    diags = json.loads(capsys.readouterr().out)
    got = {(Path(d["path"]).name, d["code"], d["line"], d["column"]) for d in diags}
    assert got == {("expansion.yaml", "S102", 2, 1), ("expansion.yaml", "E100", 3, 9),
                   ("cards.yaml", "E205", 9, 21)}
    assert [d["hint"] for d in diags if d["code"] == "S102"] == ["did you mean `name`?"]


def test_expansion_relative_to_a_game_folder(tmp_path, capsys):
    shutil.copytree(ROOT / "rules" / GAME, tmp_path / "game")
    shutil.copytree(ROOT / "cards" / GAME, tmp_path / "game" / "cards")
    write(tmp_path / "exp" / "expansion.yaml", "extends: ../game\nname: Local\n")
    card_file(tmp_path / "exp" / "one.yaml", {"name": "One"})
    card_file(tmp_path / "exp" / "two.yaml", {"name": "Two"}, deck="away")
    assert main(["check", str(tmp_path / "exp")]) == 0
    assert "ok: Local (extends game: 2 cards in 2 files)" in capsys.readouterr().out


def test_github_annotation_escaping():
    from lumos.cli.check import github_annotation
    from lumos.diagnostics import Diagnostic, Span
    d = Diagnostic("S104", "100% wrong: a, b\nnext", Span("/abs/dir,x/a:b.yaml", 3, 4, 3, 9), "fix: this",
                   severity="warning")
    line = github_annotation(d)
    assert line == ("::warning file=/abs/dir%2Cx/a%3Ab.yaml,line=3,col=4,endLine=3,endColumn=9,title=S104::"
                    "100%25 wrong: a, b%0Anext%0Ahint: fix: this")
    nowhere = github_annotation(Diagnostic("E000", "failed"))
    assert nowhere == "::error title=E000::failed"
