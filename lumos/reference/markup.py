"""The English's markup: game names wrapped in invisible markers, numbered steps, and their
output as plain text or as reStructuredText with cross-references.

Why apart from lumos.reference.english: the renderer decides *what* to say; this module only
how a said thing is written out, and the reference writer and the editor need only this.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from lumos.reference.phrases import MARK, plain, words

# A marker (lumos.reference.phrases.MARK): ESC kind US target US text GS. Kinds: rule,
# action, card, lit (a literal name: a space, side, kind...), local (a name given inside the rule).


def mark(kind: str, target: str, text: str | None = None) -> str:
    """A game name, shown as words (`shift_one` reads "shift one") and linked to its target."""
    return f"\x1b{kind}\x1f{target}\x1f{words(target) if text is None else text}\x1d"


_RST_SPECIAL = re.compile(r"([\\*`|_\[\]<>])")


def rst_escape(text: str) -> str:
    """Plain text safe inside a reStructuredText paragraph (no inline markup)."""
    return _RST_SPECIAL.sub(r"\\\1", text)


# What may stand right before / after inline markup in reStructuredText without a separator.
_BEFORE_OK = set(" \n-:/'\"<([{“‘")
_AFTER_OK = set(" \n-.,:;!?\\/'\")]}>”’")


def rst(text: str) -> str:
    """The English as reStructuredText: game names become `lumos` cross-references."""
    out, pos = [], 0
    for m in MARK.finditer(text):
        out.append(rst_escape(text[pos:m.start()]))
        prev = text[m.start() - 1:m.start()]
        if prev and prev not in _BEFORE_OK and prev != "\x1d":
            out.append("\\ ")
        kind, target, shown = m.groups()
        if kind in ("rule", "action", "card"):
            role = f":lumos:{kind}:"
            out.append(f"{role}`{shown}`" if shown == target else f"{role}`{shown} <{target}>`")
        elif kind == "local":
            out.append(f"*{shown}*")
        else:
            out.append(f"``{shown}``")
        # inline markup must be followed by a space or a punctuation mark: else an escaped nothing
        nxt = text[m.end():m.end() + 1]
        if nxt and nxt not in _AFTER_OK:
            out.append("\\ ")
        pos = m.end()
    out.append(rst_escape(text[pos:]))
    return "".join(out)


@dataclass(frozen=True)
class Step:
    """One numbered step: its sentence, the steps of its block, and continuations at the
    same level (the `Otherwise, ...` of an `if`)."""
    text: str
    body: tuple["Step", ...] = ()
    more: tuple["Step", ...] = ()


def to_text(steps: Iterable[Step], indent: int = 0) -> str:
    """Numbered plain text, blocks indented by three spaces."""
    lines: list[str] = []
    for i, step in enumerate(steps, 1):
        pad = " " * indent
        lines.append(f"{pad}{i}. {plain(step.text)}")
        if step.body:
            lines.append(to_text(step.body, indent + 3))
        for extra in step.more:
            lines.append(f"{pad}   {plain(extra.text)}")
            if extra.body:
                lines.append(to_text(extra.body, indent + 3))
    return "\n".join(lines)


def to_rst(steps: Iterable[Step], indent: int = 0) -> list[str]:
    """An enumerated reStructuredText list (nested for blocks), as lines."""
    pad = " " * indent
    lines: list[str] = []
    for step in steps:
        lines += [f"{pad}#. {rst(step.text)}", ""]
        if step.body:
            lines += to_rst(step.body, indent + 3)
        for extra in step.more:
            lines += [f"{pad}   {rst(extra.text)}", ""]
            if extra.body:
                lines += to_rst(extra.body, indent + 3)
    return lines
