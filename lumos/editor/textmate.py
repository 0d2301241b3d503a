"""The rules language's words (lexer.py) -> a TextMate grammar, so editors colour `.lumos`
files and the effects inside card YAML: VS Code, Sublime Text, TextMate, Zed, GitHub's
Linguist and every editor that reads `.tmLanguage.json`.

Made from the same word lists as the Pygments lexer, which tests/test_toolkit_lexer.py
checks against the grammar, so a word the language gains is coloured everywhere at once.
The shipped files (`lumos.tmLanguage.json`, and `lumos-yaml.tmLanguage.json`, which injects
the language into the `effect: |`, `condition:` and `..._effect: |` values of YAML files)
are these dictionaries written out; tests/test_editor_textmate.py checks they are current.
`write_vscode_extension` writes a folder VS Code loads as an extension (colours, comment
toggling, brackets), no JavaScript needed.

>>> g = grammar()
>>> g["scopeName"], g["fileTypes"]
('source.lumos', ['lumos'])
"""
from __future__ import annotations

import json
from pathlib import Path

from lumos.editor.lexer import (BUILTIN_FUNCTIONS, BUILTIN_NAMES, CONSTANTS, DECLARATIONS, DECLARES, META,
                                OPERATOR_WORDS, STATEMENTS, TYPES)

HERE = Path(__file__).resolve().parent
FILES = {"lumos.tmLanguage.json": "grammar", "lumos-yaml.tmLanguage.json": "yaml_injection"}
_WORD = r"[A-Za-z_][A-Za-z0-9_]*"
# What the Pygments token of a declared name is -> a TextMate scope themes colour alike.
_NAME_SCOPES = {"Function": "entity.name.function.lumos", "Constant": "entity.name.constant.lumos",
                "Variable": "variable.other.definition.lumos"}


def _words(words) -> str:
    return r"\b(?:" + "|".join(sorted(set(words), key=lambda w: (-len(w), w))) + r")\b"


def grammar() -> dict:
    """The TextMate grammar of `.lumos` files (scope `source.lumos`)."""
    declares = []
    for kw, token in DECLARES:
        scope = _NAME_SCOPES[str(token).rsplit(".", 1)[-1]]
        declares.append({"match": rf"\b({kw})[ \t]+({_WORD})",
                         "captures": {"1": {"name": "storage.type.lumos"}, "2": {"name": scope}}})
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "Lumos",
        "scopeName": "source.lumos",
        "fileTypes": ["lumos"],
        "patterns": [
            {"include": "#header"},
            {"include": "#citation"},
            *declares,
            {"match": rf"\b(when)[ \t]+({_WORD})",
             "captures": {"1": {"name": "storage.type.lumos"}, "2": {"name": "entity.name.function.lumos"}}},
            {"match": r"(:)[ \t]*(" + "|".join(TYPES) + r")\b",
             "captures": {"1": {"name": "punctuation.separator.lumos"}, "2": {"name": "support.type.lumos"}}},
            {"include": "#expression"},
        ],
        "repository": {
            "header": {"match": r"^\s*(" + "|".join(META) + r")(?=\s+\")",
                       "captures": {"1": {"name": "keyword.other.header.lumos"}}},
            "citation": {"begin": r"(\[)\s*(source)\s*(:)", "end": r"\]|$",
                         "beginCaptures": {"1": {"name": "punctuation.definition.citation.lumos"},
                                           "2": {"name": "keyword.other.source.lumos"},
                                           "3": {"name": "punctuation.separator.lumos"}},
                         "endCaptures": {"0": {"name": "punctuation.definition.citation.lumos"}},
                         "name": "meta.citation.lumos",
                         "patterns": [{"match": r'"[^"\n]*"', "name": "string.quoted.double.citation.lumos"}]},
            "expression": {"patterns": [
                {"match": r"#.*$", "name": "comment.line.number-sign.lumos"},
                {"include": "#string"},
                {"match": rf"(\.)({_WORD})", "captures": {"1": {"name": "punctuation.accessor.lumos"},
                                                          "2": {"name": "variable.other.property.lumos"}}},
                {"match": _words(BUILTIN_FUNCTIONS) + r"(?=\s*\()", "name": "support.function.builtin.lumos"},
                {"match": _words(CONSTANTS), "name": "constant.language.lumos"},
                {"match": _words(OPERATOR_WORDS), "name": "keyword.operator.word.lumos"},
                {"match": _words(DECLARATIONS), "name": "storage.type.lumos"},
                {"match": _words(STATEMENTS), "name": "keyword.control.lumos"},
                {"match": _words(BUILTIN_NAMES), "name": "variable.language.lumos"},
                {"match": r"\b[0-9]+\b", "name": "constant.numeric.integer.lumos"},
                {"match": _WORD + r"(?=\s*\()", "name": "entity.name.function.call.lumos"},
                {"match": _WORD, "name": "variable.other.lumos"},
                {"match": r"==|!=|<=|>=|<|>|=|\+|-|\*|/|%", "name": "keyword.operator.lumos"},
                {"match": r"\.\.\.|[()\[\],:.]", "name": "punctuation.lumos"},
            ]},
            "string": {"begin": '"', "end": '"|$', "name": "string.quoted.double.lumos",
                       "patterns": [
                           {"match": r"\\.", "name": "constant.character.escape.lumos"},
                           {"begin": r"\{", "end": r"\}|(?=\")", "name": "meta.interpolation.lumos",
                            "beginCaptures": {"0": {"name": "punctuation.section.interpolation.begin.lumos"}},
                            "endCaptures": {"0": {"name": "punctuation.section.interpolation.end.lumos"}},
                            "contentName": "source.lumos.embedded",
                            "patterns": [{"include": "#expression"}]},
                       ]},
        },
    }


def yaml_injection() -> dict:
    """A grammar injected into YAML: the card texts written in the language are coloured as such.

    A `|` block under `effect`, `condition` or a `..._effect` key holds statements; a plain
    `condition:` value on one line holds an expression."""
    keys = r"(effect|condition|[a-z_]+_effect)"
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "Lumos in YAML cards",
        "scopeName": "source.lumos.yaml-injection",
        "injectionSelector": "L:source.yaml",
        "patterns": [
            {"begin": rf"^(\s*)(?:-\s+)?{keys}\s*(:)\s*(\|[-+]?)\s*$",
             "end": r"^(?!\1\s+\S)(?=\s*\S)",
             "beginCaptures": {"2": {"name": "entity.name.tag.yaml"}, "3": {"name": "punctuation.separator.key-value.yaml"},
                               "4": {"name": "keyword.control.flow.block-scalar.literal.yaml"}},
             "contentName": "meta.embedded.block.lumos source.lumos",
             "patterns": [{"include": "source.lumos#expression"}]},
            {"begin": rf"^(\s*)(?:-\s+)?{keys}\s*(:)\s+(?=[^|>\s\"'])", "end": "$",
             "beginCaptures": {"2": {"name": "entity.name.tag.yaml"}, "3": {"name": "punctuation.separator.key-value.yaml"}},
             "contentName": "meta.embedded.line.lumos source.lumos",
             "patterns": [{"include": "source.lumos#expression"}]},
        ],
    }


def language_configuration() -> dict:
    """VS Code's language configuration: `#` comments, brackets, auto-closed quotes, indentation after `:`."""
    pairs = [["(", ")"], ["[", "]"], ["{", "}"]]
    return {
        "comments": {"lineComment": "#"},
        "brackets": pairs,
        "autoClosingPairs": [*({"open": a, "close": b} for a, b in pairs), {"open": '"', "close": '"', "notIn": ["string"]}],
        "surroundingPairs": [*pairs, ['"', '"']],
        "indentationRules": {"increaseIndentPattern": r"^.*:\s*(#.*)?$", "decreaseIndentPattern": r"^\s*(elif|else)\b"},
        "onEnterRules": [{"beforeText": r"^.*:\s*(#.*)?$", "action": {"indent": "indent"}}],
    }


def vscode_manifest() -> dict:
    """The `package.json` of a VS Code extension that only contributes the language and its colours."""
    from lumos import __version__
    return {
        "name": "lumos-language", "displayName": "Lumos rules language", "publisher": "lumos-games",
        "version": __version__, "engines": {"vscode": "^1.60.0"}, "categories": ["Programming Languages"],
        "description": "Colours Lumos rules files (.lumos) and the effects of card YAML files.",
        "contributes": {
            "languages": [{"id": "lumos", "aliases": ["Lumos", "lumos"], "extensions": [".lumos"],
                           "configuration": "./language-configuration.json"}],
            "grammars": [
                {"language": "lumos", "scopeName": "source.lumos", "path": "./syntaxes/lumos.tmLanguage.json"},
                {"scopeName": "source.lumos.yaml-injection", "path": "./syntaxes/lumos-yaml.tmLanguage.json",
                 "injectTo": ["source.yaml"], "embeddedLanguages": {"meta.embedded.block.lumos": "lumos",
                                                                    "meta.embedded.line.lumos": "lumos"}},
            ],
        },
    }


def _dump(data: dict) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def shipped(name: str) -> str:
    """The text a shipped grammar file should have (the check that keeps it current)."""
    return _dump(globals()[FILES[name]]())


def write_grammars(folder: Path = HERE) -> list[Path]:
    """Write the TextMate grammars into `folder` (by default over the shipped ones)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name in FILES:
        (folder / name).write_text(shipped(name), encoding="utf-8")
        out.append(folder / name)
    return out


def write_vscode_extension(folder: Path) -> list[Path]:
    """A VS Code extension folder: copy it to `~/.vscode/extensions/` and `.lumos` files are coloured."""
    folder = Path(folder)
    written = write_grammars(folder / "syntaxes")
    for name, data in (("package.json", vscode_manifest()), ("language-configuration.json", language_configuration())):
        (folder / name).write_text(_dump(data), encoding="utf-8")
        written.append(folder / name)
    return written
