"""`statistic "TITLE" of s = EXPR` / `statistic "TITLE" of s counts ACTION` -> StatisticInfo records.

Why: a game's notable figures (Goals scored, a race run, a shot taken) say whether the agents
play the game as people do; the rules name them once, and `lumos simulate` reports, per side,
in how many games each one happened and its mean (lumos.analysis.arc). A figure is read at
the end of a game (a number or a flag), or counts how many times the side took an action. Not
a rule: nothing in play reads it.
"""
from __future__ import annotations

from lumos.compiler import nodes as N
from lumos.compiler.scope import describe
from lumos.diagnostics import did_you_mean
from lumos.interpreter.program import StatisticInfo


def lower_statistics(low, decls) -> tuple:
    """The game's statistics, in declaration order (E290 a title twice, E291 an unknown action,
    E292 a value that is neither a number nor a flag)."""
    out, seen = [], {}
    actions = [d.name for d in decls if isinstance(d, N.Action)]   # declared, whether or not lowered
    for d in decls:
        if not isinstance(d, N.Statistic):
            continue
        if d.name in seen:
            low.sink.add("E290", f'a statistic titled "{d.name}" is already declared on line {seen[d.name].line}',
                         d.span, "give each statistic its own title")
            continue
        seen[d.name] = d.span
        section = d.sources[0] if d.sources else ""
        if d.counts is not None:
            if d.counts not in actions:
                low.sink.add("E291", f"`counts` needs an action, and the game has no action `{d.counts}`",
                             d.counts_span or d.span,
                             did_you_mean(d.counts, actions) or "name an `action` the game declares")
                continue
            out.append(StatisticInfo(d.name, None, 1, "count", d.counts, section, d.span))
            continue
        saved = low.enter(((d.side, "side"),))
        try:
            fn, kind = low.expr(d.body)
            nslots = len(low.local.slot_names)
        finally:
            low.leave(saved)
        if kind not in ("number", "flag"):
            low.sink.add("E292", f"a statistic is a number or a flag, not {describe(kind)}", d.body.span,
                         "count a list with `count of ...`, or compare it: `... is not empty`")
            continue
        out.append(StatisticInfo(d.name, fn, max(1, nslots), kind, None, section, d.span))
    return tuple(out)
