"""Where a text parsed on its own (a card's effect in YAML, a `{...}` hole of a log line) starts
in its host file: every span of its AST is placed through it, so errors point into that file.

Its own module so that what only places spans (the cached ASTs of lumos.compiler.astdata) need
not import the parser.
"""
from __future__ import annotations

from dataclasses import dataclass

from lumos.diagnostics import Span


@dataclass(frozen=True)
class Origin:
    """Where text parsed on its own starts in its host file."""
    file: str
    line: int = 1      # 1-based line of the text's first character in the file
    col: int = 1       # 1-based column of the text's first character
    block: bool = False  # True: every line starts at `col` (a YAML `|` block)

    def span(self, line: int, col: int, end_line: int | None = None, end_col: int | None = None) -> Span:
        end_line = end_line or line
        end_col = end_col or col

        def place(ln: int, c: int) -> tuple[int, int]:
            if ln == 1 or self.block:
                return self.line + ln - 1, c + self.col - 1
            return self.line + ln - 1, c
        l1, c1 = place(line, col)
        l2, c2 = place(end_line, end_col)
        return Span(self.file, l1, c1, l2, c2)
