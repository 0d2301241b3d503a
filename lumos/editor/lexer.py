"""A Pygments lexer for the Lumos rules language (`*.lumos`, card effects and conditions).

Registered as the Pygments lexer `lumos` through the `pygments.lexers` entry point of the
package, so Sphinx (```lumos blocks), `pygmentize -l lumos game.lumos` and any other
Pygments-based tool highlight the rules. The keyword lists follow grammar/lumos.lark
(tests/test_toolkit_lexer.py checks that every word of the grammar is here).

Tokens: comments (`# ...`), texts with `{...}` holes (the holes lexed as expressions),
numbers, declaration keywords and the names they declare, statement keywords, operator
words (`and`, `or`, `not`, `is`, `in`), constants, type names after `:`, attributes after
`.`, builtins (`me`, `it`, `current`, `count` ...) and `[source: "..."]` citations.
Characters the language never uses are `Error` tokens; everything the grammar accepts
lexes without one.

>>> from pygments.token import Error
>>> Error in {t for t, _ in LumosLexer().get_tokens('function f(x) = x + 1  # one\\n')}
False
"""
from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, include, words
from pygments.token import (Comment, Error, Keyword, Name, Number, Operator, Punctuation, String,
                            Whitespace)

__all__ = ["LumosLexer"]

META = ("game", "rulebook", "board", "schema", "cards")
DECLARATIONS = ("sides", "option", "choices", "die", "faces", "kinds", "pieces", "piece", "var", "const",
                "per", "zone", "window", "procedure", "function", "action", "with", "label", "setup", "flow",
                "when", "hidden", "owner", "public", "shared", "min", "max", "event", "team", "field", "group",
                "require", "anytime", "phase", "list", "says", "score", "statistic", "counts", "default", "agents", "agent")
STATEMENTS = ("let", "set", "add", "to", "subtract", "from", "place", "at", "off", "give", "drop", "remove", "put",
              "into", "draw", "shuffle", "roll", "win", "end", "a", "play", "by", "may", "choose", "do",
              "one", "of", "log", "return", "stop", "pass", "if", "elif", "else", "for", "each", "repeat",
              "times", "while", "loop", "then", "where", "reach", "route", "up", "exactly", "without", "backtracking", "coming",
              "answer", "chance", "through", "onto", "my",
              "empty", "bottom", "announce", "reset",
              "during", "until", "the", "this", "next", "start", "once", "as")
OPERATOR_WORDS = ("and", "or", "not", "is", "in", "any", "all", "count")
CONSTANTS = ("true", "false", "none")
TYPES = ("number", "flag", "text", "side", "piece", "space", "card", "zone")
BUILTIN_NAMES = ("me", "it", "current", "sides", "pieces", "cards", "card")
BUILTIN_FUNCTIONS = ("closest", "count", "distance", "first", "last", "full", "max", "min", "occupant", "occupants",
                     "offset", "other", "playable", "sum", "toward")
# Declarations whose next word is the name they declare, and what that name is.
DECLARES = (("procedure", Name.Function), ("function", Name.Function), ("action", Name.Function),
             ("window", Name.Constant), ("zone", Name.Variable), ("var", Name.Variable),
             ("const", Name.Constant), ("option", Name.Variable), ("die", Name.Variable),
             ("event", Name.Function), ("field", Name.Variable), ("group", Name.Variable))

_WORD = r"[A-Za-z_][A-Za-z0-9_]*"


class LumosLexer(RegexLexer):
    """The Lumos rules language (grammar/lumos.lark)."""

    name = "Lumos"
    aliases = ["lumos"]
    filenames = ["*.lumos"]
    mimetypes = ["text/x-lumos"]
    url = "https://lumos-games.example/"

    tokens = {
        "root": [
            (r"\n", Whitespace),
            (r"^(\s*)(" + "|".join(META) + r")(\s+)(?=\")", bygroups(Whitespace, Keyword.Namespace, Whitespace)),
            (r"(\[)(\s*)(source)(\s*)(:)", bygroups(Punctuation, Whitespace, Keyword.Pseudo, Whitespace,
                                                    Punctuation), "source"),
            *[(rf"\b({kw})([ \t]+)({_WORD})", bygroups(Keyword.Declaration, Whitespace, kind))
              for kw, kind in DECLARES],
            (r"\b(when)([ \t]+)(" + _WORD + ")", bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (r"(:)([ \t]*)(" + "|".join(TYPES) + r")\b", bygroups(Punctuation, Whitespace, Keyword.Type)),
            (r"\b(per)([ \t]+)(side|piece)\b", bygroups(Keyword.Declaration, Whitespace, Keyword.Type)),
            include("expr"),
        ],
        "expr": [
            (r"#[^\n]*", Comment.Single),
            (r"[ \t\f]+", Whitespace),
            (r"\\[ \t\f]*\r?\n", Whitespace),           # a line continued on the next
            (r'"', String.Double, "string"),
            (r"(\.)(" + _WORD + ")", bygroups(Punctuation, Name.Attribute)),
            (words(BUILTIN_FUNCTIONS, prefix=r"\b", suffix=r"(?=\s*\()"), Name.Builtin),  # before `max` the limit
            (words(CONSTANTS, prefix=r"\b", suffix=r"\b"), Keyword.Constant),
            (words(OPERATOR_WORDS, prefix=r"\b", suffix=r"\b"), Operator.Word),
            (words(DECLARATIONS, prefix=r"\b", suffix=r"\b"), Keyword.Declaration),
            (words(STATEMENTS, prefix=r"\b", suffix=r"\b"), Keyword),
            (words(BUILTIN_NAMES, prefix=r"\b", suffix=r"\b"), Name.Builtin.Pseudo),
            (r"\b[0-9]+\b", Number.Integer),
            (_WORD + r"(?=\s*\()", Name.Function),
            (_WORD, Name),
            (r"==|!=|<=|>=|<|>|=|\+|-|\*|/|%", Operator),
            (r"\.\.\.|[()\[\],:.]", Punctuation),
            (r"\r", Whitespace),
            (r"[^\n]", Error),
        ],
        "string": [
            (r'\\.', String.Escape),
            (r"\{", String.Interpol, "hole"),
            (r'"', String.Double, "#pop"),
            (r'[^"\\{\n]+', String.Double),
            (r"\n", Error, "#pop"),                    # a text is never continued on the next line
        ],
        "hole": [
            (r"\}", String.Interpol, "#pop"),
            (r'\\.', String.Escape),                 # `\"` in a hole: a quote of the text inside it
            (r'"', String.Double, "#pop:2"),        # as the grammar's STRING: the text ends here
            (r"\n", Error, "#pop:2"),
            include("expr"),
        ],
        "source": [
            (r"\]", Punctuation, "#pop"),
            (r'"[^"\n]*"', String.Doc),
            (r",", Punctuation),
            (r"[ \t]+", Whitespace),
            (r"\n", Error, "#pop"),
            (r"[^\n]", Error),
        ],
    }
