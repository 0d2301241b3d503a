"""The Pygments lexer of the rules language: registered by entry point, covers the grammar's
words, and lexes the bundled rules and every card effect without an Error token."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from pygments.token import Error, Keyword, Name, String

from lumos.editor.lexer import (BUILTIN_FUNCTIONS, CONSTANTS, DECLARATIONS, META, OPERATOR_WORDS, STATEMENTS, TYPES,
                         LumosLexer)

ROOT = Path(__file__).resolve().parents[1]
RULES = sorted((ROOT / "rules").glob("*/*.lumos"))


def tokens(text: str) -> list:
    return list(LumosLexer().get_tokens(text))


def test_registered_through_the_entry_point():
    from importlib.metadata import entry_points
    from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
    found = [ep for ep in entry_points(group="pygments.lexers") if ep.name == "lumos"]
    assert found and found[0].value == "lumos.editor.lexer:LumosLexer"
    assert isinstance(get_lexer_by_name("lumos"), LumosLexer)
    assert isinstance(get_lexer_for_filename("game.lumos"), LumosLexer)


@pytest.mark.parametrize("path", RULES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_rules_files_lex_without_errors(path):
    text = path.read_text(encoding="utf-8")
    toks = tokens(text)
    assert not [(t, v) for t, v in toks if t in Error]
    assert "".join(v for _, v in toks) == text if text.endswith("\n") else text + "\n"
    kinds = {t for t, _ in toks}
    assert {Keyword.Declaration, Keyword, Name.Function, String.Interpol} <= kinds


def test_card_effects_and_conditions_lex_without_errors():
    texts = []
    for path in sorted((ROOT / "cards").glob("*/*.yaml")) + sorted((ROOT / "examples").glob("*/*.yaml")):
        for card in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("cards") or []:
            if isinstance(card, dict):
                texts += [card[k] for k in ("effect", "condition") if isinstance(card.get(k), str)]
    assert len(texts) > 20
    for text in texts:
        assert not [v for t, v in tokens(text) if t in Error], text


def test_every_word_of_the_grammar_is_highlighted():
    grammar = (ROOT / "grammar" / "lumos.lark").read_text(encoding="utf-8")
    words = set(re.findall(r'"([a-z_]+)"', grammar))
    known = set(META + DECLARATIONS + STATEMENTS + OPERATOR_WORDS + CONSTANTS + TYPES) | {"source"}
    assert words <= known, words - known
    from lumos.compiler.lower_expr import BUILTINS
    assert set(BUILTINS) == set(BUILTIN_FUNCTIONS)


def test_token_kinds():
    toks = [(t, v) for t, v in tokens('procedure go(p) [source: "Game > Turn"]:\n'
                                      '    log "{p.name} moves {count(p.side.hand) + 1}"\n'
                                      '    var x: piece = none\n') if v.strip()]
    assert (Keyword.Declaration, "procedure") in toks and (Name.Function, "go") in toks
    assert (Keyword.Pseudo, "source") in toks and (String.Doc, '"Game > Turn"') in toks
    assert (String.Interpol, "{") in toks and (Name.Attribute, "name") in toks
    assert (Name.Builtin, "count") in toks and (Keyword.Type, "piece") in toks
    assert (Keyword.Constant, "none") in toks


def test_illegal_characters_are_errors_but_never_crash():
    assert [v for t, v in tokens("let x = 1 ; y\n") if t in Error] == [";"]
    assert [t for t, v in tokens('log "unclosed\nlet y = 2\n') if t in Error]
    tokens("\x00\xff" * 100 + "{" * 500 + '"' * 33)     # junk: tokens, not an exception


def test_documentation_examples_lex_without_errors():
    """Sphinx turns a lexing error into a warning (a failed -W build): the docs' ```lumos blocks lex cleanly."""
    for path in sorted((ROOT / "docs").rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"```lumos\n(.*?)```", text, re.S):
            bad = [v for t, v in tokens(m.group(1)) if t in Error]
            assert not bad, f"{path.name}:{text[:m.start()].count(chr(10)) + 1}: {bad}"
