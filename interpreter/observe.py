"""State -> what one side may see (an observation), and a text picture of the board for people.

Zone visibility comes from the game's declarations: `hidden` zones show only their
size to everyone, `owner` zones show their cards to their owner only, `public`
zones to all. A variable that holds cards shows each card by name to the sides that see
it (where it lies, or the variable's declared visibility: interpreter/visibility.py) and
as {"hidden": "card"} to the others. A pending decision's options are shown only to the
side deciding.
"""
from __future__ import annotations

from typing import Any

from lumos.interpreter.visibility import card_variables, shown


def observe(state, side: int | None) -> dict[str, Any]:
    cg, st, m = state.cg, state.st, state.machine
    ns = cg.nsides
    zones = {}
    for zid, cards in enumerate(st.zones):
        name, vis = cg.zones[zid // ns]
        owner = zid % ns
        if owner and zid // ns in cg.shared_zones:
            continue   # a shared zone is kept under the first side's id only
        visible = vis == "public" or (vis == "owner" and side is not None and side == owner) or side is None
        label = cg.zone_label(zid)
        zones[label] = [cg.cards[c].name for c in cards] if visible else {"count": len(cards)}
    pieces = {}
    for i, p in enumerate(cg.pieces):
        sp = m.space_of(i)
        holder = st.holder[i]
        pieces[p.name] = {"space": None if sp is None else cg.board.spaces[sp],
                          "held_by": None if holder < 0 else cg.pieces[holder].name}
        if cg.piece_var_names:   # a piece's variables are on the table for all to see (a stunned pawn lies on its side)
            pieces[p.name]["vars"] = _plain({name: st.pv[k][i] for k, name in enumerate(cg.piece_var_names)}, m)
    # a phase's hidden bookkeeping (waiting effects keep the locals of their rule) is not on the table
    variables = {name: st.g[i] for i, name in enumerate(cg.global_names) if not name.startswith("_phase ")}
    variables["current"] = cg.sides[st.g[cg.current_slot]]
    variables = _plain(variables, m)
    side_vars = {cg.sides[s]: {name: st.sv[k][s] for k, name in enumerate(cg.side_var_names)} for s in range(ns)}
    for where, index, owner, values, key, is_list, declared in card_variables(cg, st):
        value = shown(cg, st, values[key], is_list, side, declared, owner)
        if where == "g":
            variables[cg.global_names[index]] = value
        elif where == "sv":
            side_vars[cg.sides[key]][cg.side_var_names[index]] = value
    obs = {"side": None if side is None else cg.sides[side], "pieces": pieces, "zones": zones,
           "variables": variables, "sides": side_vars, "terminal": st.result is not None,
           "returns": st.result}
    if cg.space_var_names:   # what lies on each space (a mark, a disc) is on the table for all to see
        from lumos.interpreter.options import name_of
        kinds = [cg.var_types.get(("xv", k), "any") for k in range(len(cg.space_var_names))]
        obs["spaces"] = {cg.board.spaces[x]: {n: name_of(cg, st.xv[k][x], kinds[k])
                                              for k, n in enumerate(cg.space_var_names)}
                         for x in range(len(cg.board.spaces))}
    if st.pending is not None and st.result is None:
        decider = st.pending["side"]
        obs["to_decide"] = "chance" if decider < 0 else cg.sides[decider]
        if side is None or decider == side:
            obs["options"] = state.action_labels()
        question = state.question()
        if question is not None:   # read aloud to the table: everyone hears it, nobody sees the answer
            obs["question"] = question
    return obs


def _plain(values, m):
    return {k: v if isinstance(v, (int, str, bool, type(None))) else str(v) for k, v in values.items()}


def render_text(state, side: int | None) -> str:
    """A grid picture of the board (grid spaces) with piece initials, plus the other spaces."""
    cg, m = state.cg, state.machine
    board = cg.board
    marks = {}
    for i, p in enumerate(cg.pieces):
        sp = m.space_of(i)
        if sp is not None and state.st.holder[i] < 0:
            tag = (p.kind[:2].upper() if p.side == 0 else p.kind[:2].lower()) if p.side >= 0 else p.kind[:2]
            if any(state.st.holder[j] == i for j in range(len(cg.pieces))):
                tag = tag + "*"
            marks.setdefault(sp, []).append(tag)
    # what lies on a space with no piece: the first of its `var ... per space` that is set, shortened
    # (a side in the case of its pieces: upper case the first side, lower case the others)
    for k, name in enumerate(cg.space_var_names):
        kind = cg.var_types.get(("xv", k), "any")
        for sp, value in enumerate(state.st.xv[k]):
            if value is None or value is False or sp in marks:
                continue
            text = cg.sides[value] if kind == "side" else str(value)
            tag = text[:2].upper() if kind == "side" and value == 0 else text[:2].lower() if kind == "side" else text[:3]
            marks[sp] = [tag]
    # a space where several pieces stand: all of them off the grid, the first and how many more on it
    grid = set(board.cells.values())
    marks = {sp: "+".join(tags) if sp not in grid or len(tags) == 1 else f"{tags[0][:2]}+{len(tags) - 1}"
             for sp, tags in marks.items()}
    lines = []
    if board.cells:
        xs = sorted({x for x, _ in board.cells})
        ys = sorted({y for _, y in board.cells}, reverse=True)
        cols = [board.attrs[board.cells[(x, ys[-1])]].get("column", str(x)) if (x, ys[-1]) in board.cells else
                next((board.attrs[i].get("column", "?") for (cx, _cy), i in board.cells.items() if cx == x), "?")
                for x in xs]
        lines.append("     " + "".join(f"{c:^4}" for c in cols))
        for y in ys:
            row = []
            for x in xs:
                i = board.cells.get((x, y))
                if i is None:
                    row.append("    ")
                else:
                    shade = {"dark": " . ", "light": " : ", "yellow": " # "}.get(board.attrs[i].get("colour"), " . ")
                    row.append(f"{marks.get(i, shade):^4}")
            lines.append(f"{y:>3}  " + "".join(row))
    others = [f"{board.spaces[i]}={tag}" for i, tag in sorted(marks.items()) if i not in grid]
    if others:
        lines.append("  off-grid: " + ", ".join(others))
    lines.append("  (upper case: " + cg.sides[0] + ", lower case: " + (cg.sides[1] if cg.nsides > 1 else "-") +
                 ", * carries a piece)")
    return "\n".join(lines)
