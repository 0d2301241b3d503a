"""Number agreement of English words: the singular of a plural noun, and the words after a
number 1 made to agree with it ("1 Success", "(1 coin)").

Shared by the run-time texts the compiler builds (labels and log lines, lumos.compiler.lower)
and the rules reference (lumos.reference.phrases); knows no game.
"""
from __future__ import annotations

import re

_IRREGULAR = {"dice": "die", "men": "man", "women": "woman", "children": "child", "people": "person"}


def singular(word: str) -> str:
    """The singular of an English plural noun (`Successes` -> `Success`, `Opportunities` ->
    `Opportunity`, `dice` -> `die`); a word that is not plural is left as it is.

    >>> [singular(w) for w in ("coins", "Successes", "Opportunities", "dice", "Bonus", "Dice")]
    ['coin', 'Success', 'Opportunity', 'die', 'Bonus', 'Die']
    """
    low = word.lower()
    if low in _IRREGULAR:
        one = _IRREGULAR[low]
        return one.capitalize() if word[:1].isupper() else one
    if low.endswith("ies") and len(word) > 4:
        return word[:-3] + ("Y" if word.isupper() else "y")
    if re.search(r"(ss|sh|ch|x|z)es$", low):
        return word[:-2]
    if low.endswith("s") and not re.search(r"(ss|us|is)$", low) and len(word) > 2:
        return word[:-1]
    return word


_NOT_NOUN = {"of", "to", "from", "on", "in", "into", "at", "by", "with", "and", "or", "the", "a", "an", "your",
             "their", "its", "more", "each", "up", "is", "are", "times"}


def one_of(text: str) -> str:
    """The words after the number 1, with the first plural noun made singular (`Victory Points`)."""
    parts = text.split(" ")
    for i, w in enumerate(parts):
        if not w:
            continue
        if w.lower() in _NOT_NOUN - {"more", "times"}:
            break
        one = singular(w)
        if one != w:
            parts[i] = one
            break
    return " ".join(parts)


NOUN_AFTER = re.compile(r"((?: [A-Za-z-]+){1,3})")


def after_one(rest: str) -> str:
    """The text that follows a number 1, agreeing with it: its first plural noun made singular
    (`" coins)"` -> `" coin)"`, `" more Successes"` -> `" more Success"`). The run-time
    labels and log lines use it (lumos.compiler.lower) as the rules reference does (`fill`).

    >>> after_one(" coins) to the deck"), after_one(" is left"), after_one(", then")
    (' coin) to the deck', ' is left', ', then')
    """
    noun = NOUN_AFTER.match(rest)
    if not noun:
        return rest
    return one_of(noun.group(1)) + rest[noun.end():]
