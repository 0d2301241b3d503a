"""The designer's-toolkit corpus (tests/fixtures/toolkit/cases.yaml), driven through the CLI.

All loose card files are checked in one `lumos check --game GAME` run, as a designer checks
a folder of new cards; each expansion folder with `lumos check FOLDER`. Every case must get
exactly its expected diagnostics (code, line, column, and did-you-mean hints). Then inputs
that must never crash or hang, generated here: binary junk, empty files, files of several
MB, deep nesting, YAML alias bombs, in card files, manifests and rules files.
"""
from __future__ import annotations

import io
import json
import os
import random
import shutil
import subprocess
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
import yaml

from lumos.cli import main

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).parent / "fixtures" / "toolkit"
GAME = "snitch-snatcher"
CASES = yaml.safe_load((HERE / "cases.yaml").read_text(encoding="utf-8"))["cases"]
CARD_FILES = sorted((HERE / "cards").glob("*.yaml"))


def lumos(*args) -> tuple[int, str, str]:
    """`lumos ARGS` in-process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def card_run() -> dict[str, list[dict]]:
    status, out, err = lumos("check", "--game", GAME, "--format", "json", *map(str, CARD_FILES))
    assert status == 1 and not err
    found: dict[str, list[dict]] = {}
    for d in json.loads(out):
        found.setdefault(Path(d["path"]).name, []).append(d)
    return found


def _params():
    for case in CASES:
        marks = [pytest.mark.xfail(strict=True, reason=case["known"])] if case.get("known") else []
        yield pytest.param(case, id=case["id"], marks=marks)


def _got(diags: list[dict], with_file: bool) -> set:
    return {((Path(d["path"]).name,) if with_file else ()) + (d["code"], d["line"], d["column"]) for d in diags}


@pytest.mark.parametrize("case", list(_params()))
def test_case(case, card_run):
    path = HERE / case["path"]
    expect = case["expect"]
    if path.is_dir():
        status, out, err = lumos("check", str(path), "--format", "json")
        diags = json.loads(out)
        with_file = True
        want = {(e["file"], e["code"], e["line"], e["col"]) for e in expect}
    else:
        diags = card_run.get(path.name, [])
        status = 1 if any(d["severity"] == "error" for d in diags) else 0
        with_file = False
        want = {(e["code"], e["line"], e["col"]) for e in expect}
    assert _got(diags, with_file) == want, [(d["code"], d["line"], d["column"], d["message"]) for d in diags]
    for e in expect:
        if "hint" in e:
            assert any(d["code"] == e["code"] and d["line"] == e["line"] and e["hint"] in d["hint"] for d in diags)
    assert status == (1 if any(e["code"][0] != "W" for e in expect) else 0)


def test_corpus_size_and_coverage():
    assert len(CASES) >= 60
    assert {c["path"] for c in CASES} == {f"cards/{p.name}" for p in CARD_FILES} | \
        {f"expansions/{p.name}" for p in (HERE / "expansions").iterdir() if p.is_dir()}
    stages = {e["code"][0] for c in CASES for e in c["expect"]}
    assert {"Y", "S", "L", "E"} <= stages


def test_one_run_reports_every_file_in_a_fresh_process():
    """The real entry point, text output: every broken file, a summary, exit 1, no traceback."""
    r = subprocess.run([sys.executable, "-m", "lumos", "check", "--game", GAME, "--max", "0",
                        *map(str, CARD_FILES)], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "LUMOS_DEBUG": ""})
    assert r.returncode == 1 and "Traceback" not in r.stderr and not r.stderr
    broken = {c["path"].split("/")[1] for c in CASES if c["path"].startswith("cards/") and c["expect"]}
    named = {line.split(":")[0].rsplit("/", 1)[-1] for line in r.stdout.splitlines() if ".yaml:" in line}
    assert broken == named
    last = r.stdout.strip().splitlines()[-1]
    assert last.endswith(f"in {len(broken)} files") and last.split()[0].isdigit()


# ---------------------------------------------------------------- never crash, never hang
def _junk(seed: int, size: int) -> bytes:
    return random.Random(seed).randbytes(size)


NESTED = "deck: home\ncards:\n  - name: Deep\n    type: skill\n    colour: offense\n    tags: " + \
    "[" * 5000 + "]" * 5000 + "\n"
NESTED_MAP = "".join(" " * i + "a:\n" for i in range(3000)) + " " * 3000 + "a: 1\n"
BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(8)) + "cards: []\n"
HUGE = "deck: home\ncards:\n" + "".join(f"  - name: Skill {i:06d}\n    type: skill\n    colour: offense\n"
                                        for i in range(70_000))
DEEP_EFFECT = ('deck: home\ncards:\n  - name: Deep Effect\n    type: action\n    colour: offense\n'
               '    threshold: 1\n    text: "t"\n    effect: |\n      log "{' + "(" * 3000 + "1" + ")" * 3000 + '}"\n')
LONG_EFFECT = ('deck: home\ncards:\n  - name: Long Effect\n    type: action\n    colour: offense\n'
               '    threshold: 1\n    text: "t"\n    effect: |\n' + '      log "x"\n' * 20_000)
SELF_ALIAS = "cards: &c\n  - *c\n"

JUNK = {
    "binary.yaml": _junk(1, 65_536),
    "empty.yaml": b"",
    "spaces.yaml": b"   \n\n\t\n",
    "nul.yaml": b"deck: home\ncards:\x00\n",
    "latin1.yaml": "deck: home\ncards:\n  - name: Caf\xe9\n".encode("latin-1"),
    "utf16.yaml": "deck: home\ncards: []\n".encode("utf-16"),
    "nested-list.yaml": NESTED.encode(),
    "nested-map.yaml": NESTED_MAP.encode(),
    "bomb.yaml": BOMB.encode(),
    "self-alias.yaml": SELF_ALIAS.encode(),
    "huge.yaml": HUGE.encode(),                 # ~3.7 MB
    "long-line.yaml": b"deck: home\ncards:\n  - name: " + b"x" * 3_000_000 + b"\n",
    "deep-effect.yaml": DEEP_EFFECT.encode(),
    "long-effect.yaml": LONG_EFFECT.encode(),
    "crlf.yaml": b"deck: home\r\ncards:\r\n  - name: Crlf\r\n    type: skill\r\n    colour: ofense\r\n",
}

JUNK_CODES = {   # the first (and only) problem reported per file; the long effect is a legal card
    "binary.yaml": "Y008", "empty.yaml": "S106", "spaces.yaml": "Y001", "nul.yaml": "Y008",
    "latin1.yaml": "Y008", "utf16.yaml": "Y008", "nested-list.yaml": "Y003", "nested-map.yaml": "Y003",
    "bomb.yaml": "Y003", "self-alias.yaml": "Y003", "huge.yaml": "Y003", "long-line.yaml": "Y003",
    "deep-effect.yaml": "L100", "crlf.yaml": "S104",
}


def _no_crash(status: int, out: str, err: str) -> None:
    assert status in (0, 1), (status, err[-2000:])
    assert "Traceback" not in out + err and "internal error" not in err


@pytest.fixture(scope="module")
def junk_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("junk")
    for name, data in JUNK.items():
        (folder / name).write_bytes(data)
    return folder


def test_junk_card_files_in_one_run(junk_dir):
    start = time.perf_counter()
    files = sorted(junk_dir.glob("*.yaml"))
    status, out, err = lumos("check", "--game", GAME, "--format", "json", *map(str, files))
    _no_crash(status, out, err)
    assert time.perf_counter() - start < 20
    diags = json.loads(out)
    for d in diags:
        assert d["line"] >= 1 and d["column"] >= 1 and d["code"][0] in "YSLE", d
    codes = {Path(d["path"]).name: d["code"] for d in diags}
    assert codes == JUNK_CODES, {k: v for k, v in codes.items() if JUNK_CODES.get(k) != v}
    crlf = next(d for d in diags if d["path"].endswith("crlf.yaml"))
    assert (crlf["line"], crlf["column"]) == (5, 13)


def test_junk_text_output_does_not_break(junk_dir):
    for fmt in ("text", "github"):
        status, out, err = lumos("check", "--game", GAME, "--format", fmt, *map(str, sorted(junk_dir.glob("*.yaml"))))
        _no_crash(status, out, err)
        assert all(len(line) < 10_000 for line in out.splitlines())   # a 3 MB line is not echoed whole


@pytest.mark.parametrize("name", ["binary.yaml", "empty.yaml", "bomb.yaml", "nested-map.yaml", "huge.yaml"])
def test_junk_manifests(name, tmp_path):
    (tmp_path / "expansion.yaml").write_bytes(JUNK[name])
    start = time.perf_counter()
    status, out, err = lumos("check", str(tmp_path), "--format", "json")
    assert time.perf_counter() - start < 10
    _no_crash(status, out, err)
    assert status == 1 and json.loads(out)[0]["path"].endswith("expansion.yaml")
    status, out, err = lumos("simulate", GAME, "--with", str(tmp_path), "-n", "1", "-q")
    _no_crash(status, out, err)


@pytest.fixture(scope="module")
def game_copy(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("rules") / "game"
    shutil.copytree(ROOT / "rules" / GAME, root, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    return root


RULES_JUNK = {
    "binary": _junk(2, 20_000),
    "empty": b"",
    "huge": b"var v = 1\n" * 80_000,
    "deep-expression": b"function deep(x) = " + b"(" * 5000 + b"x" + b")" * 5000 + b"\n",
    "deep-blocks": b"procedure deep(x):\n" + b"".join(b"    " * i + b"if x:\n" for i in range(1, 300))
                   + b"    " * 300 + b"pass\n",
    "unclosed-text": b'procedure p():\n    log "never closed\n',
}


@pytest.mark.parametrize("name", sorted(RULES_JUNK))
def test_junk_rules_files(name, game_copy, tmp_path):
    game = tmp_path / "game"
    shutil.copytree(game_copy, game)
    (game / "extra.lumos").write_bytes(RULES_JUNK[name])
    start = time.perf_counter()
    status, out, err = lumos("check", str(game), "--format", "json")
    assert time.perf_counter() - start < 10
    _no_crash(status, out, err)
    diags = json.loads(out)
    if name != "empty":
        assert status == 1 and any(d["path"].endswith("extra.lumos") for d in diags)
