"""Apply the broken-input corpus (tests/fixtures/broken/cases.yaml) to a copy of the bundled game.

Shared by test_errors.py; run it as a script to print what the checker says for every case
(`python tests/broken_corpus.py [case-id ...]`), which is how new cases are written.
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import yaml

from lumos.api import game_sources
from lumos.compiler.game import GameSources, check_game

HERE = Path(__file__).parent / "fixtures" / "broken"
GAME = "snitch-snatcher"


def load_cases() -> list[dict]:
    return yaml.safe_load((HERE / "cases.yaml").read_text(encoding="utf-8"))["cases"]


def copy_game(root: Path) -> GameSources:
    """rules/, cards/ and schema/ of the bundled game, copied under `root`."""
    src = game_sources(GAME)
    skip = shutil.ignore_patterns("__pycache__", "__init__.py", "*.pyc")
    shutil.copytree(src.rules_dir, root / "rules", ignore=skip)
    shutil.copytree(src.cards_dir, root / "cards", ignore=skip)
    shutil.copytree(src.schema_dir, root / "schema", ignore=skip)
    return GameSources(GAME, root / "rules", root / "cards", root / "schema")


def _generated(kind: str) -> bytes:
    if kind == "huge_cards":
        # ~6 MB of well-formed card data: the checker must answer quickly with one error.
        body = "".join(f"  - name: Skill {i:06d}\n    type: skill\n    colour: offense\n" for i in range(120_000))
        return ("deck: home\ncards:\n" + body).encode()
    if kind == "long_line":
        return ("deck: home\ncards:\n  - name: " + "x" * 3_000_000 + "\n    type: skill\n").encode()
    if kind == "huge_rules":
        return "".join(f"var v{i} = {i}\n" for i in range(60_000)).encode()
    raise ValueError(f"unknown generator {kind!r}")


def apply_edit(root: Path, edit: dict) -> int:
    """Apply one edit; return the 1-based line where its text starts (1 for whole files)."""
    path = root / edit["file"]
    if "content" in edit:
        path.write_text(edit["content"], encoding="utf-8")
        return 1
    if "content_file" in edit:
        path.write_bytes((HERE / edit["content_file"]).read_bytes())
        return 1
    if "generate" in edit:
        path.write_bytes(_generated(edit["generate"]))
        return 1
    text = path.read_text(encoding="utf-8")
    if "effect" in edit:  # a new action card at the end of a card file, with this effect
        edit = {"append": CARD_WITH_EFFECT + "".join("      " + ln + "\n" for ln in edit["effect"].splitlines())}
        return apply_edit_text(path, text, edit) + CARD_WITH_EFFECT.count("\n")
    return apply_edit_text(path, text, edit)


CARD_WITH_EFFECT = """  - name: Broken Card
    type: action
    colour: offense
    threshold: 1
    text: "A card whose effect is broken."
    effect: |
"""


def apply_edit_text(path: Path, text: str, edit: dict) -> int:
    if "prepend" in edit:
        path.write_text(edit["prepend"] + text, encoding="utf-8")
        return 1
    if "append" in edit:
        if not text.endswith("\n"):
            text += "\n"
        start = text.count("\n") + 1
        path.write_text(text + edit["append"], encoding="utf-8")
        return start
    old, new = edit["replace"], edit["with"]
    found = text.count(old)
    if found != 1:
        raise AssertionError(f"{edit['file']}: the text to replace occurs {found} times, not once: {old!r}")
    start = text.count("\n", 0, text.index(old)) + 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return start


def run_case(case: dict, root: Path):
    """-> (diagnostics, file texts, the start line of each edit, the GameSources)."""
    src = copy_game(root)
    starts = [apply_edit(root, e) for e in case["edits"]]
    cg, diags, files = check_game(src)
    return cg, diags, files, starts


def where(case: dict, exp: dict, root: Path, starts: list[int]) -> tuple[str, int, int]:
    """The absolute (file, line, col) an expectation names."""
    edit = case["edits"][exp.get("edit", 0)]
    file = exp.get("file", edit["file"])
    line = exp["line"] + (starts[exp.get("edit", 0)] - 1 if file == edit["file"] else 0)
    return str(root / file), line, exp["col"]


if __name__ == "__main__":  # pragma: no cover - a tool for writing cases
    import tempfile
    wanted = set(sys.argv[1:])
    for case in load_cases():
        if wanted and case["id"] not in wanted:
            continue
        root = Path(tempfile.mkdtemp())
        print("=" * 20, case["id"])
        try:
            cg, diags, files, starts = run_case(case, root)
        except Exception:  # noqa: BLE001
            import traceback
            traceback.print_exc()
            continue
        print("starts:", starts, "compiled" if cg else "not compiled")
        for d in diags:
            if d.code == "W301":
                continue
            print(d.render(files.get(d.span.file, "").splitlines()).replace(str(root) + "/", ""))
        shutil.rmtree(root)
