"""lumos.compiler.astdata.assembled: an edited rules file is put together from the ASTs of the
declarations the edit did not touch (kept in the cache) and parses only the ones it did, and
the result is exactly the AST of the whole file parsed at once: every node, every span; a
file with an error is parsed whole, so the error reads as it always did."""
from __future__ import annotations

import glob
import json
from pathlib import Path

import pytest

from lumos.compiler import astdata as A

from lumos.compiler import parse as P
from lumos.compiler.build_ast import Origin, build
from lumos.diagnostics import LumosSyntaxError

from support.caches import own_cache
from test_astdata import _exact

ROOT = Path(__file__).resolve().parents[1]
RULES = sorted(glob.glob(str(ROOT / "rules" / "*" / "*.lumos")) + glob.glob(str(ROOT / "examples" / "*" / "*.lumos")))
BIG = max(RULES, key=lambda p: len(Path(p).read_text(encoding="utf-8")))


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    folder = own_cache(monkeypatch, tmp_path)
    monkeypatch.setattr(A, "_BUILT", {})
    monkeypatch.setattr(P, "_TREES", {})
    return folder


def _whole(text: str, path: str):
    return build(P.parse(text, path), Origin(path))


def _parsed_texts(monkeypatch) -> list[str]:
    """The texts the parser is asked for from now on (as in a new process: nothing in memory)."""
    monkeypatch.setattr(A, "_BUILT", {})
    monkeypatch.setattr(P, "_TREES", {})
    seen: list[str] = []
    real = P.parse

    def spy(text, *args, **kwargs):
        seen.append(text)
        return real(text, *args, **kwargs)
    monkeypatch.setattr(P, "parse", spy)
    return seen


@pytest.mark.parametrize("path", RULES, ids=lambda p: "/".join(Path(p).parts[-2:]))
def test_every_rules_file_put_together_from_its_parts_is_the_whole_files_ast(path, fresh):
    text = Path(path).read_text(encoding="utf-8")
    whole = _whole(text, path)
    assert len(A.parts(text)) > 1
    built = A.assembled(text, path, A._stamp())           # every part parsed
    again = A.assembled(text, path, A._stamp())           # every part from the cache
    assert _exact(built) == _exact(whole)
    assert _exact(again) == _exact(whole)


def test_the_parts_joined_are_the_text():
    for path in RULES:
        text = Path(path).read_text(encoding="utf-8")
        assert "".join(part for _, part in A.parts(text)) == text


def test_a_says_line_and_a_continued_line_stay_with_what_follows():
    text = ('says "the {p}"\nfunction f(p) = 1\n\nconst a = 1, \\\n2\nvar b = (1 +\n2)\n# note\nvar c = 3\n')
    parts = [part for _, part in A.parts(text)]
    assert parts == ['says "the {p}"\nfunction f(p) = 1\n\n', "const a = 1, \\\n2\n",
                     "var b = (1 +\n", "2)\n# note\n", "var c = 3\n"]


def _edited(text: str) -> tuple[str, str]:
    """`text` with one number of one declaration in the middle changed, and that declaration's old text."""
    parts = A.parts(text)
    for _, part in parts[len(parts) // 2:]:
        digits = next((i for i, ch in enumerate(part) if ch.isdigit() and not part.startswith("#")), None)
        if digits is not None and not part.lstrip().startswith(("#", "says")):
            new = part[:digits] + ("7" if part[digits] != "7" else "8") + part[digits + 1:]
            return text.replace(part, new, 1), part
    raise AssertionError("no number to edit")


def test_an_edit_parses_only_the_declaration_it_touched(fresh, monkeypatch):
    text = Path(BIG).read_text(encoding="utf-8")
    A.rules_ast(text, BIG)
    edited, old = _edited(text)
    seen = _parsed_texts(monkeypatch)
    tree = A.rules_ast(edited, BIG)
    assert len(seen) == 1 and seen[0].split("\n")[0] == old.split("\n")[0]
    assert _exact(tree) == _exact(_whole(edited, BIG))


def test_lines_added_above_a_declaration_move_its_spans_without_parsing_it(fresh, monkeypatch):
    text = Path(BIG).read_text(encoding="utf-8")
    A.rules_ast(text, BIG)
    moved = "# a note\n# and another\n\n" + text
    seen = _parsed_texts(monkeypatch)
    tree = A.rules_ast(moved, BIG)
    assert seen == ["# a note\n# and another\n\n" + A.parts(text)[0][1]]   # the first part only
    assert _exact(tree) == _exact(_whole(moved, BIG))
    assert tree.decls[0].span.line == _whole(text, BIG).decls[0].span.line + 3


def test_the_entry_holds_the_current_parts_only(fresh, monkeypatch):
    text = Path(BIG).read_text(encoding="utf-8")
    for round_ in range(4):
        monkeypatch.setattr(A, "_BUILT", {})
        A.rules_ast(text, BIG)
        text, _ = _edited(text)
    [entry] = fresh.glob("astparts-*.json")
    data = json.loads(entry.read_text())["data"]
    assert len(data["parts"]) <= len(A.parts(text))


@pytest.mark.parametrize("mistake, code", [
    ("action broken:\n    with p in\n", "L10"),        # a syntax error inside one declaration
    ('says "the {x}"\n', "E240"),                     # `says` at the end of the file
])
def test_a_part_with_an_error_gives_the_whole_files_error(fresh, monkeypatch, mistake, code):
    text = Path(BIG).read_text(encoding="utf-8")
    A.rules_ast(text, BIG)
    broken = text + "\n" + mistake
    with pytest.raises(LumosSyntaxError) as whole:
        _whole(broken, BIG)
    monkeypatch.setattr(A, "_BUILT", {})
    monkeypatch.setattr(P, "_TREES", {})
    with pytest.raises(LumosSyntaxError) as got:
        A.rules_ast(broken, BIG)
    assert str(got.value) == str(whole.value)
    [diag] = got.value.diagnostics
    assert diag.code.startswith(code)
    assert diag.span.line > text.count("\n")


def test_a_damaged_or_foreign_entry_is_parsed_again(fresh, monkeypatch):
    text = Path(BIG).read_text(encoding="utf-8")
    A.rules_ast(text, BIG)
    edited, _ = _edited(text)
    [entry] = fresh.glob("astparts-*.json")
    wrapper = json.loads(entry.read_text())
    data = wrapper["data"]
    for digest in list(data["parts"])[::2]:
        data["parts"][digest] = [1, "NotANode", 3]
    entry.write_text(json.dumps(wrapper))
    monkeypatch.setattr(A, "_BUILT", {})
    assert _exact(A.rules_ast(edited, BIG)) == _exact(_whole(edited, BIG))
    wrapper["data"] = {"parts": data["parts"], "files": ["/elsewhere.lumos"]}
    entry.write_text(json.dumps(wrapper))
    monkeypatch.setattr(A, "_BUILT", {})
    tree = A.rules_ast(edited + "\n", BIG)
    assert {d.span.file for d in tree.decls} == {BIG}
