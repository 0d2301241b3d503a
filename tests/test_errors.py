"""Errors that never crash: the broken-input corpus, and random text into check_game.

Every case of tests/fixtures/broken/cases.yaml breaks a copy of the bundled game; the
checker must report exactly the listed errors, each at its line and column (in the
YAML file for a card effect), rendered with the source line and a caret, with a hint
where one helps. Then Hypothesis feeds random text and random mutations of the real
files to check_game: it must return (diagnostics or a game), never raise.

Run as a script (`python tests/test_errors.py [case-id ...]`) it prints what the checker
says for each case, which is how a case is written.
"""
from __future__ import annotations

import os
import random
import shutil
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lumos.api import game_sources
from lumos.compiler.game import GameSources, check_game

# ------------------------------------------------------------------ applying a case

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
    if kind == "huge_rules":
        return "".join(f"var v{i} = {i}\n" for i in range(60_000)).encode()
    if kind == "number_5000_digits_card":   # Python refuses to read an int of 4300+ digits
        return ("  - name: Big Ask\n    type: action\n    colour: offense\n    threshold: " + "9" * 5000 +
                "\n    text: \"Hard.\"\n    effect: |\n      pass\n").encode()
    if kind == "number_5000_digits_rules":
        return ("var huge_n = " + "9" * 5000 + "\n").encode()
    raise ValueError(f"unknown generator {kind!r}")


def apply_edit(root: Path, edit: dict) -> int:
    """Apply one edit; return the 1-based line where its text starts (1 for whole files)."""
    path = root / edit["file"]
    if edit.get("delete"):
        path.unlink()
        return 1
    if "symlink" in edit:   # the file becomes a link to `symlink` (absolute, or relative to the copy)
        target = Path(edit["symlink"])
        path.unlink()
        path.symlink_to(target if target.is_absolute() else root / target)
        return 1
    if edit.get("fifo"):    # the file becomes a named pipe: reading it would block for ever
        if not hasattr(os, "mkfifo"):
            pytest.skip("named pipes need a POSIX system")
        path.unlink()
        os.mkfifo(path)
        return 1
    if "content" in edit:
        path.write_text(edit["content"], encoding="utf-8")
        return 1
    if "content_file" in edit:
        path.write_bytes((HERE / edit["content_file"]).read_bytes())
        return 1
    if "generate" in edit and edit.get("at_end"):   # generated text appended, lines counted from it
        return apply_edit_text(path, path.read_text(encoding="utf-8"),
                               {"append": _generated(edit["generate"]).decode("utf-8")})
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
    """Copy the game under `root`, apply the case -> (game or None, diagnostics, file texts, edit start lines)."""
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


CASES = load_cases()


def _render(diag, files) -> str:
    return diag.render(files.get(diag.span.file, "").splitlines())


def _shown(diags, files, root: Path) -> str:
    return "\n".join(_render(d, files).replace(str(root) + "/", "") for d in diags if d.is_error) or "(none)"


# ------------------------------------------------------------------ the corpus

def test_corpus_is_large_and_well_formed():
    assert len(CASES) >= 30
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    for case in CASES:
        assert case["edits"], case["id"]
        for exp in case["expect"]:
            assert {"code", "line", "col", "message"} <= set(exp), (case["id"], exp)


def test_bundled_game_has_no_errors(tmp_path):
    """The corpus breaks a copy of the bundled game: it must compile cleanly to start with."""
    cg, diags, files = check_game(copy_game(tmp_path))
    assert cg is not None, _shown(diags, files, tmp_path)
    assert not [d for d in diags if d.is_error], _shown(diags, files, tmp_path)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_broken_input(case, tmp_path):
    cg, diags, files, starts = run_case(case, tmp_path)
    errors = [d for d in diags if d.is_error]
    report = f"{case['id']}: {case.get('about', '')}\nthe checker said:\n{_shown(diags, files, tmp_path)}"
    if not case["expect"]:
        assert cg is not None and not errors, report
        return
    assert cg is None, report  # a game with an error is never handed out
    matched = set()
    for exp in case["expect"]:
        file, line, col = where(case, exp, tmp_path, starts)
        found = [d for d in errors if d.code == exp["code"] and Path(d.span.file) == Path(file)
                 and (d.span.line, d.span.col) == (line, col) and exp["message"] in d.message]
        assert found, f"expected {exp['code']} at {file}:{line}:{col} `{exp['message']}`\n{report}"
        d = found[0]
        matched.add(id(d))
        if exp.get("hint") is False:
            assert not d.hint, report
        else:
            assert d.hint, f"{exp['code']} should come with a hint\n{report}"
            if isinstance(exp.get("hint"), str):
                assert exp["hint"] in d.hint, report
        text = _render(d, files)
        assert text.splitlines()[0].endswith(f"{d.code} {d.message}")
        if exp.get("source", True):
            source_line = files[d.span.file].splitlines()[d.span.line - 1]
            rendered = text.splitlines()
            assert rendered[1] == "  " + source_line.rstrip("\n"), report
            caret = rendered[2]
            assert caret.strip() and set(caret.strip()) == {"^"}, report
            assert caret.index("^") == 2 + d.span.col - 1, f"the caret is not under column {d.span.col}\n{report}"
    unexpected = [d for d in errors if id(d) not in matched]
    assert not unexpected or case.get("more_errors"), f"errors the case does not list:\n{report}"


def test_effect_errors_point_into_the_yaml_file(tmp_path):
    """An error in an effect is placed in the card file, on the effect's own line."""
    case = next(c for c in CASES if c["id"] == "effect-missing-colon")
    _cg, diags, files, starts = run_case(case, tmp_path)
    d = next(d for d in diags if d.is_error)
    assert d.span.file.endswith("home.yaml")
    assert files[d.span.file].splitlines()[d.span.line - 1].strip() == "if c is none"


def test_generated_huge_inputs_are_refused_quickly(tmp_path):
    import time
    for gen, file in (("huge_cards", "cards/home.yaml"), ("huge_rules", "rules/cards.lumos")):
        root = tmp_path / gen
        src = copy_game(root)
        apply_edit(root, {"file": file, "generate": gen})
        started = time.perf_counter()
        cg, diags, _files = check_game(src)
        assert cg is None and any(d.is_error for d in diags)
        assert time.perf_counter() - started < 5


# ------------------------------------------------------------------ nothing escapes check_game

_TOKENS = [
    "(", ")", "[", "]", ":", ",", ".", "=", "==", "\n", "    ", "\t", "\"", "{", "}", "#", "-",
    "if", "else", "elif", "for each", "while", "loop", "stop", "return", "let", "set", "place",
    "choose", "do one of", "by", "from", "in", "where", "reach", "up to", "exactly", "procedure",
    "function", "action", "var", "const", "per side", "sides", "none", "true", "me", "card", "it",
    "1", "99999999999999999999", "-1", "x", "p.space", "pieces", "cards", "count(", "first(",
    "&a", "*a", "!!str", "- ", "name:", "effect: |", "---", "\x00", "\ufeff", "é", "\r\n",
]


def _mutate(text: str, rnd: random.Random, n: int) -> str:
    lines = text.split("\n")
    for _ in range(n):
        op = rnd.randrange(5)
        i = rnd.randrange(len(lines)) if lines else 0
        if op == 0 and lines:  # delete a line
            del lines[i]
        elif op == 1 and lines:  # duplicate a line
            lines.insert(i, lines[i])
        elif op == 2 and lines and len(lines[i]) > 1:  # swap two characters
            s = lines[i]
            j = rnd.randrange(len(s) - 1)
            lines[i] = s[:j] + s[j + 1] + s[j] + s[j + 2:]
        elif op == 3:  # insert a token
            s = lines[i] if lines else ""
            j = rnd.randrange(len(s) + 1)
            piece = rnd.choice(_TOKENS)
            if lines:
                lines[i] = s[:j] + piece + s[j:]
            else:
                lines.append(piece)
        elif lines:  # change a line's indentation
            lines[i] = " " * rnd.choice((0, 1, 2, 3, 4, 6, 8)) + lines[i].lstrip()
    return "\n".join(lines)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    root = tmp_path_factory.mktemp("pristine")
    copy_game(root)
    return root


_FUZZ_TARGETS = ["rules/game.lumos", "rules/cards.lumos", "cards/home.yaml", "cards/away.yaml",
                 "rules/board.yaml", "schema/snitch-snatcher.schema.json"]


def _check_never_raises(pristine: Path, work: Path, file: str, text: str | bytes) -> None:
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(pristine, work)
    path = work / file
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
    src = GameSources("fuzz", work / "rules", work / "cards", work / "schema")
    cg, diags, files = check_game(src)  # must return, whatever the input
    assert cg is not None or any(d.is_error for d in diags)
    for d in diags:  # and every diagnostic renders
        d.render(files.get(d.span.file, "").splitlines())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(file=st.sampled_from(_FUZZ_TARGETS), seed=st.integers(0, 2**32 - 1), edits=st.integers(1, 6))
def test_mutated_files_never_crash(pristine, tmp_path, file, seed, edits):
    rnd = random.Random(seed)
    original = (pristine / file).read_text(encoding="utf-8")
    _check_never_raises(pristine, tmp_path / "game", file, _mutate(original, rnd, edits))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(file=st.sampled_from(_FUZZ_TARGETS),
       text=st.one_of(st.text(max_size=300),
                      st.lists(st.sampled_from(_TOKENS), max_size=60).map("".join),
                      st.binary(max_size=200)))
def test_random_text_never_crashes(pristine, tmp_path, file, text):
    _check_never_raises(pristine, tmp_path / "game", file, text)


def test_random_effects_never_crash(pristine, tmp_path):
    """Random token soup as a card effect: positions must stay inside the YAML file."""
    rnd = random.Random(1234)
    for i in range(25):
        body = "".join(rnd.choice(_TOKENS[:60]) + " " for _ in range(rnd.randrange(1, 25)))
        body = body.replace("\x00", "").replace("\r\n", "\n")
        effect = "\n".join(line for line in body.split("\n"))
        work = tmp_path / f"e{i}"
        shutil.copytree(pristine, work)
        start = apply_edit(work, {"file": "cards/home.yaml", "effect": effect})
        cg, diags, files = check_game(GameSources("fuzz", work / "rules", work / "cards", work / "schema"))
        for d in diags:
            if d.is_error and d.span.file.endswith("home.yaml") and d.code.startswith(("L", "E2")):
                n_lines = len(files[d.span.file].splitlines())
                assert start - 7 <= d.span.line <= n_lines, d.render(files[d.span.file].splitlines())
        shutil.rmtree(work)


def test_none_at_run_time_is_a_lumos_error(tmp_path):
    """Rules that meet `none` where a piece or a list is wanted: a positioned runtime error,
    never a Python TypeError."""
    from lumos.api import new_game
    from lumos.diagnostics import LumosRuntimeError
    src = copy_game(tmp_path)
    setup = "    let first_side = roll_off()\n"
    probe = ("    let nobody = first(pieces where it.kind is seeker and it.kind is keeper)\n"
             "    log \"{count(pieces of nobody.side where true)} {nobody in pieces of nobody.side}\"\n"
             "    place nobody at nobody.start\n")
    apply_edit(tmp_path, {"file": "rules/game.lumos", "replace": setup, "with": probe + setup})
    cg, diags, files = check_game(src)
    assert cg is not None, _shown(diags, files, tmp_path)
    with pytest.raises(LumosRuntimeError) as caught:
        new_game(cg, seed=1, log=True, forced="take")
    d = caught.value.first
    assert d.code == "R003" and "none" in d.message and d.hint
    assert files[d.span.file].splitlines()[d.span.line - 1].strip() == "place nobody at nobody.start"


def test_fixture_files_exist():
    assert (HERE / "alias_bomb.yaml").is_file() and (HERE / "binary.yaml").is_file()


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
