"""Questions on cards (a text, maybe choices, the answer and accepted alternatives) -> what is
read aloud, and whether a typed answer is right.

A question is plain card data; the engine never shows its answer. A person's typed answer is
compared with the answer and its accepted alternatives without case, punctuation or extra
spaces; with choices, the number or letter of a choice is its text.

>>> q = {"ask": "Which planet is largest?", "choices": ["Mars", "Jupiter"], "answer": "Jupiter"}
>>> read_aloud(q)
'Which planet is largest? (1) Mars (2) Jupiter'
>>> is_right(q, "2"), is_right(q, "B"), is_right(q, " jupiter!"), is_right(q, "mars")
(True, True, True, False)
"""
from __future__ import annotations

import unicodedata

__all__ = ["normalise", "read_aloud", "is_right", "choices_of"]

LETTERS = "abcdefghij"


def normalise(text: str) -> str:
    """Lower case, accents, punctuation and runs of spaces taken out: 'Wingardium  Leviosa!' ->
    'wingardium leviosa'."""
    text = unicodedata.normalize("NFKD", str(text)).casefold()
    kept = "".join(ch if ch.isalnum() else " " for ch in text if not unicodedata.combining(ch))
    return " ".join(kept.split())


def choices_of(question: dict) -> list[str]:
    return [str(c) for c in question.get("choices") or ()]


def read_aloud(question: dict) -> str:
    """The question and its numbered choices, never the answer."""
    text = str(question.get("ask", ""))
    choices = choices_of(question)
    if choices:
        text += " " + " ".join(f"({i}) {c}" for i, c in enumerate(choices, 1))
    return text


def is_right(question: dict, typed: str) -> bool:
    """Is `typed` the answer (or an accepted alternative; with choices, also its number or letter)?"""
    said = normalise(typed)
    choices = choices_of(question)
    if choices:
        for i, c in enumerate(choices):
            if said in (str(i + 1), LETTERS[i] if i < len(LETTERS) else ""):
                said = normalise(c)
                break
    good = {normalise(question.get("answer", ""))} | {normalise(a) for a in question.get("accept") or ()}
    return bool(said) and said in good
