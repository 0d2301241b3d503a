"""Replay docs/tutorial-first-card.md: its commands, its files and the outputs it shows.

The page is read in order. A ```sh block is run line by line (the `cp` / `mkdir` of the
copy, and `lumos ...` through `lumos.cli.main`); the ```text block after it is what the
last command printed. A ```yaml block after `<!-- write: PATH -->` is written to PATH; one
after `<!-- edit: PATH line N -->` replaces line N of PATH. The table of "other mistakes"
is applied, one row at a time, to the corrected card.
"""
from __future__ import annotations

import difflib
import re
import shutil
from pathlib import Path

import pytest

from lumos.api import game_sources
from lumos.cli import main

PAGE = Path(__file__).resolve().parents[1] / "docs" / "tutorial-first-card.md"
GAME = "snitch-snatcher"
NOT_RUN = {"play"}          # interactive: it waits for a player at the terminal
BLOCK = re.compile(r"(?:^<!-- (\w+): (\S+)(?: line (\d+))? -->\n)?^```(\w+)\n(.*?)^```$", re.M | re.S)
COUNTS = re.compile(r"\((\d+) rules, (\d+) cards\)")


def _page() -> str:
    return PAGE.read_text(encoding="utf-8")


def _steps():
    """(action, path, line, language, text) for every fenced block of the page, in order."""
    return [m.groups() for m in BLOCK.finditer(_page())]


def _repo_path(arg: str) -> Path | None:
    """`rules/<game>` and `cards/<game>` of a checkout: the bundled folders."""
    src = game_sources(GAME)
    if arg == f"rules/{GAME}":
        return src.rules_dir
    if arg == f"cards/{GAME}":
        return src.cards_dir
    return None


def _run(line: str, capsys) -> str | None:
    words = line.split()
    if words[:2] == ["cp", "-r"]:
        shutil.copytree(_repo_path(words[2]), words[3])
    elif words[0] == "mkdir":
        Path(words[1]).mkdir()
    elif words[0] == "cp":
        folder, pattern = words[1].rsplit("/", 1)
        files = sorted(_repo_path(folder).glob(pattern))
        assert files, line
        for file in files:
            shutil.copy(file, words[2])
    elif words[0] == "lumos":
        if words[1] in NOT_RUN:
            return None
        capsys.readouterr()
        status = main(words[1:])
        out, err = capsys.readouterr()
        if words[1] != "check":
            assert status == 0, f"`{line}` failed:\n{out}{err}"
        return out + err
    else:
        raise AssertionError(f"the tutorial runs a command the test does not know: `{line}`")
    return None


def _normalise(text: str, root: Path) -> str:
    text = text.replace(str(root) + "/", "").replace(str(root), ".")
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


def _replace_like(path: Path, new_line: str) -> None:
    """Replace the line of `path` most like `new_line`, keeping its indentation."""
    lines = path.read_text(encoding="utf-8").splitlines()
    stripped = [line.strip() for line in lines]
    best = difflib.get_close_matches(new_line.strip(), stripped, n=1, cutoff=0.6)
    assert best, f"no line of {path.name} looks like `{new_line}`"
    i = stripped.index(best[0])
    lines[i] = lines[i][: len(lines[i]) - len(lines[i].lstrip())] + new_line.strip()
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    return tmp_path


def test_the_page_has_the_steps_the_test_replays():
    steps = _steps()
    assert [a for a, *_ in steps if a] == ["write", "edit", "edit"]
    assert sum(lang == "text" for *_, lang, _ in steps) == 4
    assert sum("lumos check" in text for *_, lang, text in steps if lang == "sh") == 4


def test_tutorial_replays(workdir, capsys):
    last_output = None
    checks: list[str] = []
    for action, path, line, lang, text in _steps():
        if action == "write":
            Path(path).write_text(text, encoding="utf-8")
        elif action == "edit":
            file = Path(path)
            lines = file.read_text(encoding="utf-8").splitlines()
            old = lines[int(line) - 1]
            assert difflib.SequenceMatcher(None, old, text.rstrip("\n")).ratio() > 0.8, \
                f"line {line} of {path} is `{old}`, not the line the tutorial changes"
            lines[int(line) - 1] = text.rstrip("\n")
            file.write_text("\n".join(lines) + "\n", encoding="utf-8")
        elif lang == "sh":
            for command in text.strip().splitlines():
                output = _run(command.strip(), capsys)
                if output is not None and command.split()[:2] == ["lumos", "check"]:
                    last_output = output
        elif lang == "text":
            assert last_output is not None, f"a text block follows no command:\n{text}"
            shown, printed = _normalise(text, workdir), _normalise(last_output, workdir)
            # The numbers of rules and cards depend on the version (the page says so).
            assert COUNTS.sub("(N rules, M cards)", printed) == COUNTS.sub("(N rules, M cards)", shown)
            checks.append(printed)
            last_output = None
    assert len(checks) == 4
    first, last = COUNTS.search(checks[0]), COUNTS.search(checks[-1])
    assert first and last, "the first and the last check are clean"
    assert first.group(1) == last.group(1)
    assert int(last.group(2)) - int(first.group(2)) == 2, "the page says: two more copies of Sidestep"
    assert main(["check", "my-snitch"]) == 0


def _mistakes():
    section = _page().split("## 4.", 1)[1].split("## 5.", 1)[0]
    rows = re.findall(r"^\| `([^`]+)`[^|]*\| ([A-Z]\d{3}) \| (.+?) \|$", section, re.M)
    assert len(rows) >= 4
    return rows


@pytest.mark.parametrize("change, code, message", _mistakes(), ids=[c for _, c, _ in _mistakes()])
def test_other_mistakes(workdir, capsys, change, code, message):
    for action, path, line, lang, text in _steps():
        if lang == "sh":
            for command in text.strip().splitlines():
                if not command.startswith("lumos"):
                    _run(command.strip(), capsys)
        elif action == "write":
            Path(path).write_text(text, encoding="utf-8")
        elif action == "edit":
            _replace_like(Path(path), text)
    card = Path("my-snitch/cards/sidestep.yaml")
    capsys.readouterr()
    assert main(["check", "my-snitch"]) == 0
    _replace_like(card, change)
    capsys.readouterr()
    assert main(["check", "my-snitch"]) != 0
    out, err = capsys.readouterr()
    printed = out + err
    assert re.search(rf"sidestep\.yaml:\d+:\d+: {code} ", printed), printed
    for part in message.split(" — "):
        part = part.removeprefix("hint: ")
        assert part in printed, f"`{part}` is not in:\n{printed}"
