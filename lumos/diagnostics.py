"""Positions and errors shared by every stage: Span -> Diagnostic -> LumosError.

Every problem a designer can cause is a `Diagnostic`: a stable code, a message in
the designer's words, the position in *their* file, and a hint. Stages yield
diagnostics; drivers collect, sort and render them (`render`). A stage that must
stop at once raises a `LumosError` carrying one or more diagnostics, so no Python
traceback ever reaches a designer.

>>> d = Diagnostic("E201", "unknown name `runer`", Span("game.lumos", 3, 6, 3, 11),
...                hint="did you mean `runner`?")
>>> print(d.render(["a", "b", "move runer to x"]))
game.lumos:3:6: E201 unknown name `runer`
  move runer to x
       ^^^^^
  hint: did you mean `runner`?
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, replace
from typing import Iterable, NoReturn, Sequence


@dataclass(frozen=True)
class Span:
    """A region of a source file, 1-based lines and columns (end is exclusive)."""

    file: str
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def shifted(self, file: str, line0: int, col0: int) -> "Span":
        """Place a span measured inside an embedded string at its spot in a host file.

        `line0`/`col0` are the 1-based position of the string's first character."""
        def place(line: int, col: int) -> tuple[int, int]:
            return (line0 + line - 1, col + col0 - 1 if line == 1 else col)
        l1, c1 = place(self.line, self.col)
        l2, c2 = place(self.end_line or self.line, self.end_col or self.col)
        return Span(file, l1, c1, l2, c2)

    @property
    def is_point(self) -> bool:
        """True when the span names a place but no extent (a YAML mark, a parser position)."""
        return (self.end_line or self.line) == self.line and (self.end_col or self.col) <= self.col

    def widened(self, text: str) -> "Span":
        """A point span stretched over the token that starts there, on its line `text`.

        A rules file's token is a word, a number or a quoted text; in YAML it is a quoted
        text, a key (up to its `:`) or a plain value (up to a `,`, `]`, `}`, ` #` or the
        end of the line). Anything else is one character.

        >>> Span("a.lumos", 1, 7).widened("while plays_lft > 0").end_col
        16
        >>> Span("t.yaml", 1, 8).widened("vars: {plays_lft: 2}").end_col
        17
        """
        if not self.is_point or not 1 <= self.col <= len(text):
            return self
        start = self.col - 1
        pattern = _YAML_TOKEN if self.file.endswith((".yaml", ".yml")) else _RULES_TOKEN
        m = pattern.match(text, start)
        end = start + max(1, len(m.group(0).rstrip()) if m else 1)
        return Span(self.file, self.line, self.col, self.line, end + 1)

    def focused(self, name: str, text: str) -> "Span":
        """A one-line span cut short to the identifier `name` it starts with (an unknown
        function's name, not its whole call); else the span itself. The start never moves, so
        the position a problem is reported at stays where the compiler put it.

        >>> s = Span("a", 1, 3, 1, 17).focused("sidways", "( sidways(it, 2) )")
        >>> s.col, s.end_col
        (3, 10)
        >>> Span("a", 1, 1, 1, 7).focused("spce", "c.spce").end_col
        7
        """
        if self.is_point or self.end_line != self.line or not _IDENTIFIER.match(name):
            return self
        inside = text[self.col - 1:self.end_col - 1]
        if inside[:1] in ("\"", "'"):    # a text is one token: its quotes belong to it
            return self
        found = [m.start() for m in re.finditer(rf"(?<![\w]){re.escape(name)}(?![\w])", inside)]
        if found[:1] != [0] or len(name) == len(inside):   # only the end moves: the column stays
            return self
        return Span(self.file, self.line, self.col, self.line, self.col + len(name))


_RULES_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|\w+')
_YAML_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|\'[^\'\n]*\'?|[^\s,\[\]{}:#][^,\[\]{}#\n]*?(?=\s*(?::\s|:$|,|\]|\}|\s#|$))')
_NAMED = re.compile(r"`([^`\s]+)`")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*\Z")


NOWHERE = Span("<unknown>", 0, 0)


@dataclass(frozen=True)
class Diagnostic:
    """One problem: where, what, and how to fix it."""

    code: str
    message: str
    span: Span = NOWHERE
    hint: str = ""
    severity: str = "error"  # "error" or "warning"

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def sort_key(self) -> tuple:
        return (self.span.file, self.span.line, self.span.col, self.code)

    def headline(self) -> str:
        kind = "" if self.is_error else "warning: "
        return f"{self.span}: {self.code} {kind}{self.message}"

    def render(self, lines: Sequence[str] | None = None) -> str:
        """The headline, the offending source line with a caret, and the hint."""
        out = [self.headline()]
        if lines is not None and 1 <= self.span.line <= len(lines):
            text = lines[self.span.line - 1].rstrip("\n")
            out.append("  " + text)
            width = 1
            if self.span.end_line == self.span.line and self.span.end_col > self.span.col:
                width = self.span.end_col - self.span.col
            width = max(1, min(width, len(text) - self.span.col + 1))
            out.append("  " + " " * max(0, self.span.col - 1) + "^" * width)
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)

    def to_json(self) -> dict:
        return {
            "path": self.span.file, "line": self.span.line, "column": self.span.col,
            "end_line": self.span.end_line or self.span.line,
            "end_column": self.span.end_col or self.span.col,
            "code": self.code, "severity": self.severity,
            "message": self.message, "hint": self.hint,
        }


def pinpoint(diag: Diagnostic, lines: Sequence[str] | None) -> Diagnostic:
    """The diagnostic with a span that covers exactly its offending token, for editors
    (`lumos lsp`), `lumos check --format json` and the caret: a point span is widened to
    the token there, and a span over a whole call is cut short to the name its message
    quotes (`unknown function `x``: the name, not the call).

    >>> d = Diagnostic("E201", "unknown name `plays_lft`", Span("g.lumos", 1, 7), "did you mean `plays_left`?")
    >>> pinpoint(d, ["while plays_lft > 0:"]).to_json()["end_column"]
    16
    """
    span = diag.span
    if lines is None or not 1 <= span.line <= len(lines):
        return diag
    text = lines[span.line - 1].rstrip("\r\n")
    new = span.widened(text)
    named = _NAMED.search(diag.message)
    if named:
        new = new.focused(named.group(1), text)
    return diag if new == span else replace(diag, span=new)


def pinpoint_all(diags: Iterable[Diagnostic], texts: dict[str, str]) -> list[Diagnostic]:
    """`pinpoint` for many diagnostics, given the texts of their files by path."""
    lines: dict[str, list[str] | None] = {}
    out = []
    for d in diags:
        f = d.span.file
        if f not in lines:
            lines[f] = texts[f].splitlines() if f in texts else None
        out.append(pinpoint(d, lines[f]))
    return out


def suggestion(hint: str) -> str | None:
    """The name a "did you mean `x`?" hint suggests, or None.

    >>> suggestion("did you mean `plays_left`?")
    'plays_left'
    """
    m = _SUGGESTION.search(hint or "")
    return m.group(1) if m else None


_SUGGESTION = re.compile(r"did you mean `([^`]+)`\?")


class LumosError(Exception):
    """Base of every error Lumos reports to a user; carries diagnostics."""

    def __init__(self, diagnostics: Diagnostic | Iterable[Diagnostic]):
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: list[Diagnostic] = sorted(diagnostics, key=Diagnostic.sort_key)
        first = self.diagnostics[0] if self.diagnostics else Diagnostic("E000", "error")
        super().__init__(first.headline())

    def __reduce__(self):  # errors pickle (multiprocessing, caches)
        return (type(self), (self.diagnostics,))

    @property
    def first(self) -> Diagnostic:
        return self.diagnostics[0]


class LumosSyntaxError(LumosError):
    """The text could not be parsed (YAML or rules language)."""


class LumosCheckError(LumosError):
    """The text parsed but names, kinds or values are wrong."""


class LumosRuntimeError(LumosError):
    """The rules did something impossible while a game was being played."""


def fail(code: str, message: str, span: Span = NOWHERE, hint: str = "",
         kind: type[LumosError] = LumosCheckError) -> NoReturn:
    """The one funnel for stopping with a positioned error."""
    raise kind(Diagnostic(code, message, span, hint))


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """A hint naming the closest known name, or an empty string."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else ""


@dataclass
class DiagnosticSink:
    """Collects diagnostics from the passes of one check run."""

    items: list[Diagnostic] = field(default_factory=list)
    _seen: set = field(default_factory=set, repr=False)
    pushed: int = field(default=0, repr=False)   # diagnostics offered, repeats included

    def add(self, code: str, message: str, span: Span = NOWHERE, hint: str = "",
            severity: str = "error") -> None:
        self.push(Diagnostic(code, message, span, hint, severity))

    def push(self, diag: Diagnostic) -> None:
        """Record a diagnostic once: code lowered at several places reports each problem once."""
        self.pushed += 1
        key = (diag.code, diag.message, diag.span)
        if key not in self._seen:
            self._seen.add(key)
            self.items.append(diag)

    def extend(self, diags: Iterable[Diagnostic]) -> None:
        for d in diags:
            self.push(d)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.is_error]

    def raise_if_errors(self, kind: type[LumosError] = LumosCheckError) -> None:
        if self.errors:
            raise kind(self.items)
