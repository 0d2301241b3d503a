"""`default agents: ...`: which agents play a game when a command is not told (docs/language.md,
"Who plays by default"). Why a declaration: a game whose random play never ends in some result
(one side never wins) can say which agents show it as it is, and every command that plays
games (`lumos simulate`, `lumos balance`) follows it without a flag.
"""
from __future__ import annotations

from lumos.compiler import nodes as N
from lumos.diagnostics import did_you_mean


def lower_default_agents(decls, sides: tuple[str, ...], sink) -> tuple[str, ...] | None:
    """The agent specs, one per side, of the game's `default agents`, or None without one.
    E280 an unknown agent or bad parameters, E281 neither one nor one per side, E282 a second
    declaration, E283 `default agent` (singular)."""
    from lumos.interpreter.agents import AGENTS, check_agent
    found = [d for d in decls if isinstance(d, N.DefaultAgents)]
    if not found:
        return None
    d = found[0]
    for extra in found[1:]:
        sink.add("E282", f"the game already says its default agents on line {d.span.line}", extra.span,
                 "a game has one `default agents: ...`: one agent for every side, or one per side")
    ok = True
    if d.word != "agents":
        sink.add("E283", "write `default agents:` (plural), even for one agent", d.span,
                 "`default agents: greedy` seats greedy on every side")
        ok = False
    for spec, span in zip(d.specs, d.spans):
        try:
            check_agent(spec)
        except ValueError as exc:
            name = spec.partition(":")[0]
            near = did_you_mean(name, AGENTS) if name not in AGENTS else ""
            sink.add("E280", f"{exc}", span,
                     near or f"agents: {', '.join(AGENTS)} (parameters after a colon, quoted: \"mcts:200\")")
            ok = False
    if len(d.specs) not in (1, len(sides)):
        sink.add("E281", f"{len(d.specs)} default agents for {len(sides)} sides ({', '.join(sides)})", d.span,
                 f"give one agent for every side, or {len(sides)}, one per side in the order of `sides`")
        ok = False
    if not ok:
        return None
    return tuple(d.specs) * len(sides) if len(d.specs) == 1 else tuple(d.specs)
