"""A position -> each side's status in words: the quantities the rulebook names, by name.

Which side variables are worth a line is read from the rules, not from a list of names: a
variable whose name is a word of the rulebook section it cites (`var tempo per side`
citing "Tempo Points", `var score` citing "Goal Attempts & Scoring") is a quantity the
players track on the table, and is always shown; any other variable is shown only while
it differs from its starting value (a boost that an Intrepid Move gave this sequence),
so the line stays short. Flags read "yes"/"no", missing values are left out, and names
lose their underscores.

>>> from lumos.api import load_game, new_game       # doctest: +SKIP
>>> status_lines(new_game(load_game("snitch-snatcher")))   # doctest: +SKIP
['red: score 0', 'blue: score 0']

Only the sides still seated have a line (a game of two Houses out of four shows two).
"""
from __future__ import annotations

import re
from typing import Any


def words(name: str) -> str:
    """An identifier as words: `home_scoring` -> `home scoring`."""
    return str(name).replace("_", " ")


def _stem(word: str) -> str:
    return word[:max(4, len(word) - 2)]


def named_by_rulebook(name: str, sources) -> bool:
    """Does the variable's first word appear (by its stem) in the sections it cites?"""
    first = name.split("_")[0].lower()
    if len(first) < 3:
        return False
    text = " ".join(sources).lower()
    return any(w.startswith(_stem(first)) for w in re.findall(r"[a-z]+", text))


def value_text(value: Any) -> str | None:
    """A value as a person reads it; None for a value with nothing to say."""
    if value is None or value == [] or value == {}:
        return None
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, dict) and "hidden" in value:
        return "(hidden)"
    if isinstance(value, dict) and "card" in value:
        return str(value["card"])
    if isinstance(value, list):
        return ", ".join(filter(None, (value_text(v) for v in value))) or None
    return words(value) if isinstance(value, str) else str(value)


def _var_info(cg) -> dict[str, tuple[tuple[str, ...], Any, str]]:
    """Side variable name -> (its sources, its starting value of side 0, its kind)."""
    sources = {r.name: r.sources for r in cg.rules if r.kind == "var"}
    out = {}
    for k, name in enumerate(cg.side_var_names):
        start = cg.side_vars_init[k][0] if cg.side_vars_init[k] else None
        out[name] = (sources.get(name, ()), start, cg.var_types.get(("sv", k), "number"))
    return out


def side_status(cg, position: dict, side: str) -> list[tuple[str, str]]:
    """(name in words, value in words) of the side's variables worth showing, in declared order."""
    info = _var_info(cg)
    out = []
    for name, per_side in (position.get("side_vars") or {}).items():
        if side not in per_side or name not in info:
            continue
        value = per_side[side]
        sources, start, kind = info[name]
        always = kind == "number" and named_by_rulebook(name, sources)
        if not always and (value == start or kind in ("side", "piece", "space", "zone")):
            continue
        text = value_text(value)
        if text is not None:
            out.append((words(name), text))
    return out


def table_status(cg, position: dict) -> list[tuple[str, str]]:
    """(name in words, value in words) of the game's own variables worth showing: a number
    the cited rulebook section names (`var path` citing "Dark Arts Path"), else a number,
    flag or side that differs from its start and is not 0 or false (a Progress Token taken, who holds the Dark
    Detector); never an internal name (`_out_of_play`) nor a piece, space, card or text."""
    sources = {r.name: r.sources for r in cg.rules if r.kind == "var"}
    out = []
    for k, name in enumerate(cg.global_names):
        if name.startswith("_") or name not in (position.get("vars") or {}) or name not in sources:
            continue
        value, start = position["vars"][name], cg.globals_init[k]
        kind = cg.var_types.get(("g", k), "number")
        if kind not in ("number", "flag", "side") or isinstance(value, (list, dict, str)) and kind != "side":
            continue
        always = kind == "number" and named_by_rulebook(name, sources[name])
        if not always and (value == start or value == 0 or value is False):
            continue
        text = value_text(value)
        if text is not None:
            out.append((words(name), text))
    return out


def status_lines(state, for_side: int | None = None) -> list[str]:
    """One line per seated side (`home: galleons 3, tempo 1, goals 0`), then, when the game
    has any worth showing, one line of its own quantities (`table: path 4, giant taken yes`)."""
    position = state.position(for_side=for_side)
    lines = []
    for s in state.sides_in_play():
        side = state.cg.sides[s]
        parts = [f"{n} {v}" for n, v in side_status(state.cg, position, side)]
        lines.append(f"{words(side)}: " + (", ".join(parts) if parts else "-"))
    table = [f"{n} {v}" for n, v in table_status(state.cg, position)]
    if table:
        lines.append("table: " + ", ".join(table))
    return lines
