"""A card's hand-written `text` against the English of its effect -> W330 warnings.

A designer writes a card's `text` for players and its `effect` (and `condition`, and each
`..._effect` part) for the interpreter; the two drift apart when one is edited and not the
other ("gains 2 Successes" over `boost_actions(me, 1)`). The English of the effect
(lumos.reference.english.card_english, through the `says` phrases of the game's rules) names
the numbers, colours, roles and zones the effect uses; when it names one the text does not
(the text says 2 where the effect does 1, or black where it gives orange), the text has
drifted. Knowing no game: roles are the game's `kinds`, zones its card zones and board
regions, colours a fixed list of colour words.

Only what the English names and the text lacks is reported: a text may say more than the
effect does (the rules do part of a card's work from its fields, such as a movement value).

>>> facts("Your Runner leaps two spaces, then place an orange token in the Hand.", {"runner"}, {"hand"})
{'number': {'2'}, 'colour': {'orange'}, 'role': {'runner'}, 'zone': {'hand'}}
"""
from __future__ import annotations

import functools
import re

from lumos.diagnostics import Diagnostic, Span

CODES = ("W330",)
_NUMBER_WORDS = {"one": "1", "once": "1", "a single": "1", "two": "2", "twice": "2", "both": "2", "three": "3",
                 "thrice": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9",
                 "ten": "10"}
COLOURS = ("red", "orange", "yellow", "green", "blue", "purple", "violet", "black", "white", "grey", "gray",
           "brown", "pink", "gold", "silver", "scarlet", "emerald", "bronze")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*|\d+")


@functools.lru_cache(maxsize=4096)
def _singular(word: str) -> str:
    from lumos.reference.phrases import singular   # a card text repeats its words: each is made singular once
    return singular(word)


# every number word at once (longest first): the same words as searching for each in turn
_NUMBER_WORD = re.compile(r"\b(" + "|".join(sorted(map(re.escape, _NUMBER_WORDS), key=len, reverse=True)) + r")\b")
_ARTICLE_ONE = re.compile(r"\bone (of|after|another|or)\b|\bone's\b")
_DIGITS = re.compile(r"\b\d+\b")


def facts(text: str, roles: set[str], zones: set[str]) -> dict[str, set[str]]:
    """The numbers, colours, roles and zones a text names (lower case, singular, digits)."""
    low = " ".join(text.lower().replace("-", " ").split())
    low = _ARTICLE_ONE.sub(r"a \1", low)   # "one of your Players": an article
    numbers = set(_DIGITS.findall(low))
    numbers.update(_NUMBER_WORDS[word] for word in _NUMBER_WORD.findall(low))
    tokens = [_singular(w) for w in _WORD.findall(low)]
    joined = " " + " ".join(tokens) + " "
    return {
        "number": numbers,
        "colour": {c for c in COLOURS if f" {c} " in joined},
        "role": {r for r in roles if f" {r} " in joined},
        "zone": {z for z in zones if f" {z} " in joined},
    }


_WHAT = {"number": "the number", "colour": "the colour", "role": "the role", "zone": "the zone"}


_STEP = re.compile(r"^\s*(\d+\.|[A-Z][a-z]+( [A-Z][a-z]+)* effect:)\s*", re.M)


def drift(text: str, english: str, roles: set[str], zones: set[str]) -> dict[str, set[str]]:
    """Where the text and the English name different values of one kind: what the English names
    and the text does not, for each kind of which the text also names a value the English does
    not (empty when they agree)."""
    said, done = facts(text, roles, zones), facts(_STEP.sub("", english), roles, zones)
    return {k: done[k] - said[k] for k in done if done[k] - said[k] and said[k] - done[k]}


def text_span(card_span: Span, texts: dict[str, str], value: str) -> Span:
    """Where a card's `text:` value is in its YAML file (the card's own span if not found)."""
    lines = texts.get(card_span.file, "").splitlines()
    indent = card_span.col - 1
    for i in range(card_span.line - 1, min(len(lines), card_span.line + 200)):
        line = lines[i]
        if i >= card_span.line and line.strip().startswith("- ") and len(line) - len(line.lstrip()) < indent:
            break
        m = re.match(r"(\s*(?:- )?)text:\s*", line)
        if m and i >= card_span.line - 1:
            start = m.end() + 1
            first = value.splitlines()[0] if value else ""
            quotes = 2 if line[m.end():m.end() + 1] in "\"'" else 0
            return Span(card_span.file, i + 1, start, i + 1, start + len(first) + quotes)
    return card_span


def card_text_drift(cg, decls, texts: dict[str, str] | None = None) -> list[Diagnostic]:
    """W330 for each card whose `text` disagrees with the English of its effect."""
    from lumos.compiler import nodes as N
    from lumos.compiler.origin import Origin
    from lumos.diagnostics import LumosError
    from lumos.reference.english import English, Vocabulary, card_fields_english, english_sources, words
    vocab = Vocabulary(decls, cg.board)
    english = English(vocab, me=True)
    roles = {_singular(words(k).lower()) for d in decls if isinstance(d, N.Kinds) for k in d.names}
    zones = {words(d.name).lower() for d in decls if isinstance(d, N.Zone)}
    zones |= {words(r).lower() for r in getattr(cg.board, "regions", ()) or ()}
    out = []
    for cd in cg.card_defs:
        text = cd.fields.get("text")
        if not isinstance(text, str) or not text.strip():
            continue
        if not english_sources(cd.fields):
            continue
        try:
            rendered = card_fields_english(english, cd.fields, Origin(cd.span.file, cd.span.line, cd.span.col))
        except (LumosError, LookupError):   # the compiler reports a broken effect itself
            continue
        found = drift(text, rendered, roles, zones)
        if not found:
            continue
        said = "; ".join(f"{_WHAT[k]} {', '.join(sorted(v))}" for k, v in found.items())
        first = rendered.splitlines()[0] if rendered else ""
        span = text_span(cd.span, texts or cg.files or {}, text)
        out.append(Diagnostic(
            "W330", f"the text of card `{cd.name}` does not say {said}, which its effect does",
            span, f"the effect reads: “{first}”{' ...' if len(rendered.splitlines()) > 1 else ''}; "
                  "change the text or the effect so they agree", "warning"))
    return out


def text_warnings(cg, src) -> list[Diagnostic]:
    """The W330 warnings of a compiled game whose rules are read from `src`, as `lumos check`
    and the language server report them after lumos.compiler.lint's (the English belongs to
    the tools, so the compiler's linter does not call this)."""
    from lumos.compiler.analysis import rules_decls
    from lumos.diagnostics import LumosError
    try:
        decls, texts = rules_decls(src)
    except (LumosError, OSError, UnicodeDecodeError):
        return []           # the compiler has reported why the rules cannot be read
    return card_text_drift(cg, decls, {**(cg.files or {}), **texts})


__all__ = ["CODES", "card_text_drift", "drift", "facts", "text_warnings"]
