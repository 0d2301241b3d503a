"""The Catch the Golden Snitch card examples of docs/designers.md are cards the game accepts."""
from __future__ import annotations

import re
from pathlib import Path

from lumos.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_the_designers_examples_check_clean(tmp_path, capsys):
    page = (ROOT / "docs" / "designers.md").read_text(encoding="utf-8")
    section = page[page.index("## Writing cards for Catch the Golden Snitch"):]
    blocks = re.findall(r"```yaml\n(.*?)```", section, re.S)
    assert len(blocks) == 2
    files = []
    for i, block in enumerate(blocks):
        text = block if "cards:" in block else "cards:\n" + block
        path = tmp_path / f"example{i}.yaml"
        path.write_text(text, encoding="utf-8")
        files.append(str(path))
    assert main(["check", "--game", "catch-the-golden-snitch", "--strict", *files]) == 0, capsys.readouterr().out
