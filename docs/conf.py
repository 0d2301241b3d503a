"""Sphinx configuration of the Lumos documentation.

Build with:  sphinx-build -W -b html docs docs/_build/html
(needs the `docs` extra: Sphinx and myst-parser, so the Markdown pages are read).

A small Pygments lexer for the rules language is defined here so that ```lumos code
blocks are coloured; it never fails on text it does not know (no lexer warnings).
"""
from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text

project = "Lumos"
author = "the Lumos maintainers"
copyright = "the Lumos maintainers"

extensions = ["myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

# `[text](#some-heading)` links inside a page and across pages.
myst_heading_anchors = 3
myst_enable_extensions = ["deflist"]

html_theme = "alabaster"
html_title = "Lumos"
html_static_path: list[str] = []
pygments_style = "sphinx"


class LumosLexer(RegexLexer):
    """The Lumos rules language (grammar/lumos.lark), for highlighting only."""

    name = "Lumos"
    aliases = ["lumos"]
    filenames = ["*.lumos"]

    DECLARATIONS = (
        "game", "rulebook", "board", "schema", "cards", "sides", "option", "choices", "die",
        "faces", "kinds", "pieces", "piece", "var", "const", "per", "zone", "window",
        "procedure", "function", "action", "with", "label", "setup", "flow", "when",
        "hidden", "owner", "public",
    )
    STATEMENTS = (
        "let", "set", "add", "to", "subtract", "from", "place", "at", "off", "give", "drop",
        "put", "into", "draw", "shuffle", "roll", "win", "end", "in", "a", "play", "by",
        "may", "choose", "do", "one", "of", "log", "return", "stop", "pass", "if", "elif",
        "else", "for", "each", "repeat", "times", "while", "loop", "then", "where", "reach",
        "up", "exactly", "through", "onto", "my", "is", "not", "and", "or", "empty",
    )
    TYPES = ("number", "flag", "text", "side", "space", "card")

    tokens = {
        "root": [
            (r"#[^\n]*", Comment.Single),
            (r'"', String, "string"),
            (r"(\[)(\s*)(source)(\s*)(:)", bygroups(Punctuation, Text, Keyword.Pseudo, Text, Punctuation)),
            (words(("true", "false", "none"), suffix=r"\b"), Keyword.Constant),
            (words(DECLARATIONS, prefix=r"\b", suffix=r"\b"), Keyword.Declaration),
            (words(STATEMENTS, prefix=r"\b", suffix=r"\b"), Keyword),
            (words(TYPES, prefix=r"\b", suffix=r"\b"), Keyword.Type),
            (r"[0-9]+", Number.Integer),
            (r"(==|!=|<=|>=|<|>|=|\+|-|\*|/|%)", Operator),
            (r"[()\[\],.:]", Punctuation),
            (r"[a-z_][a-z0-9_]*", Name),
            (r"\s+", Text),
            (r".", Text),
        ],
        "string": [
            (r"\{[^}\n\"]*\}", String.Interpol),
            (r'\\.', String.Escape),
            (r'"', String, "#pop"),
            (r'[^"\\{]+', String),
            (r".", String),
        ],
    }


def setup(app):
    app.add_lexer("lumos", LumosLexer)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
