"""`lumos lsp`: the conversion of diagnostics, which game a file belongs to, unsaved text, and
a whole session with the server over stdin/stdout (JSON-RPC, as an editor speaks it)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.lspclient import Client

from lumos.api import game_sources
from lumos.diagnostics import Diagnostic, Span

pytest.importorskip("pygls")
from lumos.editor.lsp import check_file, find_target, lsp_range, to_lsp  # noqa: E402

GAME = "snitch-snatcher"
ROOT = Path(__file__).resolve().parents[1]
EXPANSION = ROOT / "examples" / "snitch-snatcher-expansion"
SPOT = """\
deck: home
cards:
  - name: Golden Glimpse
    type: spot
    end: north
    effect: |
      log "{me} glimpses the golden snitch"
"""


@pytest.fixture
def game(tmp_path: Path) -> Path:
    bundled = game_sources(GAME)
    rules = tmp_path / "my-game"
    shutil.copytree(bundled.rules_dir, rules, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(bundled.cards_dir, rules / "cards", ignore=shutil.ignore_patterns("__pycache__"))
    return rules


# ---------------------------------------------------------------- conversion
def test_ranges_are_zero_based_and_never_empty():
    assert lsp_range(Diagnostic("E201", "x", Span("a", 3, 5, 3, 9))) == ((2, 4), (2, 8))
    assert lsp_range(Diagnostic("E201", "x", Span("a", 3, 5))) == ((2, 4), (2, 5))
    assert lsp_range(Diagnostic("E201", "x", Span("a", 2, 7, 4, 1))) == ((1, 6), (3, 0))
    assert lsp_range(Diagnostic("E000", "x", Span("a", 0, 0))) == ((0, 0), (0, 1))


def test_to_lsp_keeps_code_severity_and_hint():
    from lsprotocol import types as T
    err = to_lsp(Diagnostic("E205", "unknown function `chasrs`", Span("a", 1, 2, 1, 8), "did you mean `chasers`?"))
    assert err.code == "E205" and err.source == "lumos" and err.severity == T.DiagnosticSeverity.Error
    assert err.message == "unknown function `chasrs`\nhint: did you mean `chasers`?"
    warn = to_lsp(Diagnostic("W310", "window `x` is never used", Span("a", 1, 1), severity="warning"))
    assert warn.severity == T.DiagnosticSeverity.Warning and warn.message == "window `x` is never used"


# ---------------------------------------------------------------- which game, what problems
def test_files_find_their_game(game, tmp_path):
    assert find_target(game / "game.lumos").kind == "game"
    assert find_target(game / "board.yaml").src.rules_dir == game.resolve()
    assert find_target(game / "cards" / "home.yaml").src.rules_dir == game.resolve()
    bundled = game_sources(GAME)
    assert find_target(bundled.cards_dir / "home.yaml").src.rules_dir.resolve() == bundled.rules_dir.resolve()
    exp = find_target(EXPANSION / "home.yaml")
    assert exp.kind == "expansion" and {p.name for p in exp.extra} == {"home.yaml", "away.yaml"}
    loose = tmp_path / "loose.yaml"
    loose.write_text(SPOT, encoding="utf-8")
    assert find_target(loose, GAME).kind == "cards"
    assert find_target(tmp_path / "notes.txt") is None


def test_check_file_gives_every_problem_of_the_game_by_file(game):
    (game / "extra.lumos").write_text("window time_out\nfunction f() = chasrs(home)\n", encoding="utf-8")
    result = check_file(game / "game.lumos")
    extra = str((game / "extra.lumos").resolve())
    assert sorted(d.code for d in result[extra]) == ["E205", "W301"]
    assert result[str((game / "game.lumos").resolve())] == []     # the opened file is always listed


def test_unsaved_text_is_checked_and_mapped_back_to_the_real_file(game):
    path = game / "cards" / "home.yaml"
    saved = path.read_text(encoding="utf-8")
    edited = saved.replace("colour: offense", "colour: ofense", 1)
    result = check_file(path, {str(path): edited})
    got = result[str(path.resolve())]
    assert [d.code for d in got] == ["S104"] and Path(got[0].span.file) == path.resolve()
    assert path.read_text(encoding="utf-8") == saved, "the file on disk is untouched"
    assert check_file(path)[str(path.resolve())] == []


def test_a_loose_card_file_gets_lint_warnings(tmp_path):
    loose = tmp_path / "loose.yaml"
    loose.write_text(SPOT, encoding="utf-8")
    result = check_file(loose, default_game=GAME)
    assert [d.code for d in result[str(loose.resolve())]] == ["W311"]
    assert all(not Path(f).name == "game.lumos" for f, ds in result.items() if ds)


# ---------------------------------------------------------------- a session over stdin/stdout
def test_a_session_publishes_diagnostics_on_open_change_and_save(game):
    client = Client(game)
    try:
        ident = client.send("initialize", {"processId": None, "rootUri": game.resolve().as_uri(),
                                           "capabilities": {}}, request=True)
        init = client.wait(lambda m: m.get("id") == ident)
        sync = init["result"]["capabilities"]["textDocumentSync"]
        assert sync["openClose"] and sync["change"] == 1 and sync["save"]
        client.send("initialized", {})

        path = (game / "extra.lumos").resolve()
        path.write_text("window time_out\n", encoding="utf-8")
        uri = path.as_uri()
        client.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "lumos", "version": 1,
                                                              "text": "window time_out\n"}})
        diags = client.diagnostics(uri)
        assert [(d["code"], d["severity"], d["range"]["start"]) for d in diags] == \
            [("W310", 2, {"line": 0, "character": 7})]

        broken = "window time_out\nfunction f() = chasrs(home)\n"       # unsaved: checked from the editor
        client.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                               "contentChanges": [{"text": broken}]})
        diags = client.diagnostics(uri)
        assert sorted((d["code"], d["severity"]) for d in diags) == [("E205", 1), ("W301", 2)]
        assert any("did you mean `chasers`?" in d["message"] for d in diags)

        path.write_text("", encoding="utf-8")                      # fixed and saved
        client.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3},
                                               "contentChanges": [{"text": ""}]})
        client.send("textDocument/didSave", {"textDocument": {"uri": uri}})
        assert client.diagnostics(uri) == []
    finally:
        client.close()
