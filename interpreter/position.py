"""A game state <-> a position: the same situation written in names, as a dict (and as YAML).

A position says where every piece stands (or who carries it), each zone's cards by name
from the bottom, the variables by name, the options, the generator and where the rules
stand. It is what a designer writes to test a card, what a test starts from, and what
`GameState.position()` writes at any decision point; loading a written position gives
the same options and the same continuation.

    game: red-and-blue           # the compiled game's id (checked)
    options: {speed: 2}
    pieces: {red runner 1: b2, ball: {carried_by: red runner 1}, blue runner 1: null}
    zones: {red hand: [Dash, Dash], deck: [...]}        # bottom first; copies by name
    vars: {turn: 3}
    side_vars: {score: {red: 1, blue: 0}}
    piece_vars: {tired: {red runner 1: true}}
    at: {start_of: take_turn}    # or {frames: [...]} as written, or absent: the game's start
    seed: 7                      # or rng: the generator's exact state

`at` says where the rules stand: absent, the game's first decision; `start_of: RULE`, the
first time the rules start RULE when played from the seed taking the first option of
every decision (then the layout is set, and the game runs on to its next decision); or
`frames`, the exact stack of rules in progress that `position()` writes. Anything the
position does not name keeps the value the game has there. Mistakes are reported as
diagnostics at the position's own line and column (`P` codes). Nothing here knows a game.
"""
from __future__ import annotations

from typing import Any, Callable

from lumos.diagnostics import Diagnostic, LumosCheckError, Span, did_you_mean
from lumos.interpreter.options import name_of
from lumos.interpreter.program import CompiledGame

KEYS = ("game", "options", "seed", "rng", "pieces", "zones", "vars", "side_vars", "piece_vars", "space_vars",
        "card_vars", "at",
        "decisions", "forced", "current", "anytime_at")
BREAK = -3   # the side of the pending marker that stops a run at the start of a rule


# ---------------------------------------------------------------- writing
def rule_labels(cg: CompiledGame) -> list[str]:
    """A unique name per procedure: its rule name, with `#2`, `#3` for further instances."""
    seen: dict[str, int] = {}
    out = []
    for p in cg.procs:
        seen[p.name] = seen.get(p.name, 0) + 1
        out.append(p.name if seen[p.name] == 1 else f"{p.name} #{seen[p.name]}")
    return out


def _named(cg, st, value, kind: str):
    """A value in names; a card of which the game has several copies also says where it lies,
    so a position read back points at the same copy (`{card: NAME, in: ZONE}`)."""
    if value is None:
        return None
    if kind == "list:card":
        return [_named(cg, st, v, "card") for v in value]
    if kind == "card" and isinstance(value, int):
        name = cg.cards[value].name
        if _copies(cg)[name] > 1:
            z = st.card_zone[value]
            return {"card": name, "in": cg.zone_label(z) if z >= 0 else None}
        return name
    return name_of(cg, value, kind)


def card_labels(cg) -> list[str]:
    """A name per card (copy): its card name, with ` #2`, ` #3` for the further copies of a name."""
    seen: dict[str, int] = {}
    out = []
    for c in cg.cards:
        seen[c.name] = seen.get(c.name, 0) + 1
        out.append(c.name if seen[c.name] == 1 else f"{c.name} #{seen[c.name]}")
    return out


def _copies(cg) -> dict:
    counts = cg.__dict__.get("_copies_by_name")
    if counts is None:
        counts = {}
        for c in cg.cards:
            counts[c.name] = counts.get(c.name, 0) + 1
        object.__setattr__(cg, "_copies_by_name", counts)   # a cache: the game's data is unchanged
    return counts


def write_position(state, for_side: int | None = None) -> dict:
    """The position of `state`; with `for_side`, without what that side cannot see (zones it
    may not look into show only their size; the generator and the rules' locals are left out)."""
    cg, st = state.cg, state.st
    out: dict[str, Any] = {"game": cg.id}
    slots = set(cg.option_slots.values())
    out["options"] = {n: st.g[s] for n, s in cg.option_slots.items()}
    out["pieces"] = _pieces(cg, st)
    out["zones"] = _zones(cg, st, for_side)
    out["vars"] = {n: _named(cg, st, st.g[i], cg.var_types.get(("g", i), "any"))
                   for i, n in enumerate(cg.global_names) if i not in slots and i != cg.current_slot}
    out["side_vars"] = {n: {cg.sides[s]: _named(cg, st, st.sv[i][s], cg.var_types.get(("sv", i), "any"))
                            for s in range(cg.nsides)} for i, n in enumerate(cg.side_var_names)}
    out["piece_vars"] = {n: {cg.pieces[p].name: _named(cg, st, st.pv[i][p], cg.var_types.get(("pv", i), "any"))
                             for p in range(len(cg.pieces))} for i, n in enumerate(cg.piece_var_names)}
    if cg.space_var_names:   # `var ... per space`: each space by name (only in games that declare one)
        out["space_vars"] = {n: {cg.board.spaces[x]: _named(cg, st, st.xv[i][x], cg.var_types.get(("xv", i), "any"))
                                 for x in range(len(cg.board.spaces))} for i, n in enumerate(cg.space_var_names)}
    if cg.card_state_names and for_side is None:   # `var ... per card`, each card by its label
        labels = card_labels(cg)
        out["card_vars"] = {n: {labels[c]: _named(cg, st, st.cv[i][c], cg.var_types.get(("cv", i), "any"))
                                for c in range(len(cg.cards))} for i, n in enumerate(cg.card_state_names)}
    out["decisions"] = st.decisions
    out["forced"] = "take" if st.forced else "ask"
    if for_side is None:
        out["rng"] = st.rng
        out["at"] = {"frames": _frames(cg, st)}
        out["current"] = name_of(cg, st.g[cg.current_slot], "side")
        if getattr(st, "anytime_at", None) is not None:
            out["anytime_at"] = st.anytime_at
    if for_side is not None:
        _hide_card_vars(cg, st, for_side, out)
        for name in [n for n in out["vars"] if n.startswith("_phase ")]:   # waiting effects keep their rule's locals
            del out["vars"][name]
    return out


def _hide_card_vars(cg, st, side: int, out: dict) -> None:
    """Card variables show only the cards `side` may see (lumos.interpreter.visibility)."""
    from lumos.interpreter.visibility import card_variables, shown
    section = {"g": "vars", "sv": "side_vars", "pv": "piece_vars"}
    names = {"g": cg.global_names, "sv": cg.side_var_names, "pv": cg.piece_var_names}
    for where, index, owner, values, k, is_list, declared in card_variables(cg, st):
        value = shown(cg, st, values[k], is_list, side, declared, owner)
        name = names[where][index]
        if where == "g":
            out[section[where]][name] = value
        else:
            who = cg.sides[k] if where == "sv" else cg.pieces[k].name
            out[section[where]][name][who] = value


def _pieces(cg, st) -> dict:
    out: dict[str, Any] = {}
    for space in range(len(cg.board.spaces)):        # in the order they stand on each space
        p = st.occ[space]
        while p >= 0:
            out[cg.pieces[p].name] = cg.board.spaces[space]
            p = st.occ_next[p]
    for p, info in enumerate(cg.pieces):
        if info.name in out:
            continue
        if st.holder[p] >= 0:
            out[info.name] = {"carried_by": cg.pieces[st.holder[p]].name}
        elif st.loc[p] >= 0:      # lies there without standing (a carried piece's own record)
            out[info.name] = cg.board.spaces[st.loc[p]]
        else:
            out[info.name] = None
    return out


def _zones(cg, st, for_side) -> dict:
    out: dict[str, Any] = {}
    ns = cg.nsides
    for z in range(len(cg.zones) * ns):
        if z // ns in cg.shared_zones and z % ns:
            continue
        names = [cg.cards[c].name for c in st.zones[z]]
        if for_side is not None and _hidden_zone(cg, z, for_side):
            out[cg.zone_label(z)] = {"hidden": len(names)}
        else:
            out[cg.zone_label(z)] = names
    return out


def _hidden_zone(cg, z: int, side: int) -> bool:
    vis = cg.zones[z // cg.nsides][1]
    return vis == "hidden" or (vis == "owner" and z % cg.nsides != side and z // cg.nsides not in cg.shared_zones)


def _frames(cg, st) -> list[dict]:
    labels = rule_labels(cg)
    out = []
    for proc, pc, local, result in st.frames:
        types = cg.procs[proc].slot_types
        values = [_named(cg, st, v, types[i] if i < len(types) else "any") for i, v in enumerate(local)]
        frame = {"rule": labels[proc], "pc": pc, "locals": values}
        if result >= 0:
            frame["result_slot"] = result
        out.append(frame)
    return out


# ---------------------------------------------------------------- reading
class _Reader:
    """Turns a position into a state, collecting every mistake with its place."""

    def __init__(self, cg: CompiledGame, data, file: str):
        self.cg, self.data, self.file = cg, data, file
        self.state = None
        self.diags: list[Diagnostic] = []
        self.piece_index = {p.name: i for i, p in enumerate(cg.pieces)}
        self.zone_index = {cg.zone_label(z): z for z in range(len(cg.zones) * cg.nsides)
                           if not (z // cg.nsides in cg.shared_zones and z % cg.nsides)}

    # -- places and messages
    def span(self, container, key) -> Span:
        mark = getattr(container, "mark", None)
        if mark is None:
            return Span(self.file, 1, 1)
        try:
            line, col = mark(key)
            value = container[key]
        except (KeyError, IndexError, TypeError):
            line, col = getattr(container, "start", (1, 1))
            value = None
        width = len(value) if isinstance(value, str) else 0    # the caret covers a name given
        return Span(self.file, line, col, line if width else 0, col + width if width else 0)

    def key_span(self, container, key) -> Span:
        mark = getattr(container, "key_mark", None)
        if mark is None:
            return self.span(container, key)
        line, col = mark(key)
        width = len(key) if isinstance(key, str) else 0
        return Span(self.file, line, col, line if width else 0, col + width if width else 0)

    def fail(self, code: str, message: str, span: Span, hint: str = "") -> None:
        self.diags.append(Diagnostic(code, message, span, hint))

    def mapping(self, key: str) -> dict:
        value = self.data.get(key)
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.fail("P101", f"`{key}` must be a mapping of names to values", self.span(self.data, key),
                      f"write `{key}:` followed by indented `name: value` lines")
            return {}
        return value

    # -- values by name
    def value(self, text, kind: str, container, key):
        cg = self.cg
        if text is None:
            return None
        if kind.startswith("list:"):
            if not isinstance(text, list):
                self.fail("P103", f"`{key}` holds a list here, not {text!r}", self.span(container, key),
                          "write the items in brackets: [a, b]")
                return ()
            return tuple(self.value(v, kind[5:], text, i) for i, v in enumerate(text))
        table = {"piece": self.piece_index, "space": cg.board.index, "side": {s: i for i, s in enumerate(cg.sides)},
                 "zone": self.zone_index}.get(kind)
        if table is not None:
            if not isinstance(text, str) or text not in table:
                self.fail("P102", f"no {kind} `{text}` in {cg.id}", self.span(container, key),
                          did_you_mean(str(text), list(table)) or f"the {kind}s are: {', '.join(list(table)[:12])}")
                return None
            return table[text]
        if kind == "card":
            zone = None
            if isinstance(text, dict):
                zone, text = text.get("in"), text.get("card")
            ids = [c for c, info in enumerate(cg.cards) if info.name == text]
            if not ids:
                self.fail("P102", f"no card `{text}` in {cg.id}", self.span(container, key),
                          did_you_mean(str(text), [c.name for c in cg.cards]))
                return None
            st = self.state.st
            z = self.zone_index.get(zone, -2) if zone is not None else -1
            if zone is not None and z == -2:
                z = -1
            there = [c for c in ids if st.card_zone[c] == z] if zone is not None or len(ids) > 1 else []
            return (there or [c for c in ids if st.card_zone[c] >= 0] or ids)[0]
        if kind == "number" and (isinstance(text, bool) or not isinstance(text, (int, float))):
            self.fail("P103", f"`{key}` holds a number, not {text!r}", self.span(container, key), "")
            return None
        if kind == "flag" and not isinstance(text, bool):
            self.fail("P103", f"`{key}` is true or false, not {text!r}", self.span(container, key), "")
            return None
        if kind == "text" and not isinstance(text, str):
            self.fail("P103", f"`{key}` holds a text, not {text!r}", self.span(container, key), "")
            return None
        if isinstance(text, str):
            return str(text)           # a plain text, not the YAML reader's marked one
        return tuple(text) if isinstance(text, list) else text

    def names(self, given: dict, known: list[str], what: str) -> list[tuple[str, int]]:
        """(name, index) of the keys of `given` that are known; unknown ones are reported."""
        out = []
        for name in given:
            if name in known:
                out.append((name, known.index(name)))
            else:
                self.fail("P102", f"no {what} `{name}` in {self.cg.id}", self.key_span(given, name),
                          did_you_mean(str(name), known) or f"the {what}s are: {', '.join(known[:12])}")
        return out


def read_position(cg: CompiledGame, data, start: Callable, file: str = "<position>"):
    """The GameState a position describes (see the module docstring), or a LumosCheckError
    with every mistake. `start(cg, seed, options, forced)` makes the state the position
    starts from (`GameState.new`: lumos.api.load_position passes it, so this module stays
    below the engine)."""
    r = _Reader(cg, data, file)
    if not isinstance(data, dict):
        raise LumosCheckError([Diagnostic("P100", "a position is a mapping of `pieces:`, `zones:`, `vars:` ...",
                                          Span(file, 1, 1), "see the position format in docs/language.md")])
    for key in data:
        if key not in KEYS:
            r.fail("P100", f"a position has no `{key}`", r.key_span(data, key),
                   did_you_mean(str(key), list(KEYS)) or f"its keys are: {', '.join(KEYS)}")
    if data.get("game") not in (None, cg.id):
        r.fail("P100", f"this position is of `{data.get('game')}`, not `{cg.id}`", r.span(data, "game"), "")
    options = {}
    for name, value in r.mapping("options").items():
        if name not in cg.options:
            r.fail("P102", f"{cg.id} has no option `{name}`", r.key_span(data["options"], name),
                   did_you_mean(str(name), list(cg.options)))
        elif value not in cg.options[name][1]:
            r.fail("P103", f"option `{name}` is one of {list(cg.options[name][1])}, not {value!r}",
                   r.span(data["options"], name), "")
        else:
            options[name] = next(c for c in cg.options[name][1] if c == value)   # the declared value itself
    forced = data.get("forced", "ask")
    if forced not in ("ask", "take"):
        r.fail("P103", f"`forced` is `ask` or `take`, not {forced!r}", r.span(data, "forced"), "")
        forced = "ask"
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        r.fail("P103", f"`seed` is a whole number, not {seed!r}", r.span(data, "seed"), "")
        seed = 0
    at = data.get("at") or {}
    if not isinstance(at, dict) or not (set(at) <= {"start_of", "frames"}) or len(at) > 1:
        r.fail("P104", "`at` is `start_of: RULE` or the `frames:` a written position holds", r.span(data, "at"),
               "leave `at` out to start at the game's first decision")
        at = {}
    wanted = None                  # `current`: whose turn the position is at (a name, or a side's index)
    if data.get("current") is not None:
        current = data["current"]
        wanted = current if isinstance(current, int) and not isinstance(current, bool) else \
            r.value(current, "side", data, "current")
        if isinstance(wanted, int) and not 0 <= wanted < cg.nsides:
            r.fail("P103", f"`current` is a side of {cg.id}, not {current!r}", r.span(data, "current"),
                   f"its sides: {', '.join(cg.sides)}")
            wanted = None
    state = start(cg, seed, options or None, forced)    # mistakes so far are all reported at the end
    r.state = state
    if "start_of" in at:
        _play_to_start_of(r, state, at["start_of"], wanted)
    _lay_out(r, state)
    state.st.forget_kept()    # the layout writes where pieces stand without the log kept answers rely on
    if "frames" in at:        # after the layout: card references find the copies where they lie
        _set_frames(r, state, at["frames"])
    if r.diags:
        raise LumosCheckError(r.diags)
    st = state.st
    if "rng" in data:
        st.rng = data["rng"]
    if wanted is not None and "frames" in at:       # a written position: its rules in progress and their turn
        st.g[cg.current_slot] = wanted
    elif wanted is not None and "start_of" not in at and st.g[cg.current_slot] != wanted:
        r.fail("P104", f"here it is {cg.sides[st.g[cg.current_slot]]}'s turn, not {cg.sides[wanted]}'s: "
                       "`current` alone does not hand the turn over", r.span(data, "current"),
               "add `at: {start_of: RULE}` to start where RULE starts on that side's turn, "
               "or give the `frames:` of a written position")
    if isinstance(data.get("decisions"), int):
        st.decisions = data["decisions"]
    if data.get("anytime_at") is not None:
        st.anytime_at = list(data["anytime_at"])
    if r.diags:
        raise LumosCheckError(r.diags)
    if st.result is None:
        st.pending = None          # the decision waiting here is asked again, on the new layout
        if st.frames:
            state.machine.run()
    return state


def _turn_of(cg, st, frame) -> int:
    """The side a rule that has just started is for: its first side parameter, else `current`."""
    proc = cg.procs[frame[0]]
    for k, kind in enumerate(proc.slot_types[:len(proc.params)]):
        if kind == "side" and isinstance(frame[2][k], int):
            return frame[2][k]
    return st.g[cg.current_slot]


def _listed(names: list[str]) -> str:
    """`a`, `a` and `b`, `a`, `b` and `c`: names as a sentence lists them."""
    quoted = [f"`{n}`" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _some(names: list[str], most: int = 20) -> str:
    """A few names for a hint: the first `most`, then how many more."""
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def _play_to_start_of(r: _Reader, state, rule, side: int | None = None) -> None:
    """Play from the seed, taking the first option of every decision, until `rule` starts (for
    `side`, when given: its first side parameter, or the current side, is that side)."""
    cg = state.cg
    labels = rule_labels(cg)
    if rule not in labels:
        r.fail("P104", f"no rule `{rule}` in {cg.id}", r.span(r.data["at"], "start_of"),
               did_you_mean(str(rule), labels) or "name a procedure, action or step of the rules: "
               + _some(sorted(n for n in set(labels) - {"setup", "flow"} if not n.startswith("card "))))
        return
    target = labels.index(rule)
    if any(f[0] == target and f[1] == 0 and (side is None or _turn_of(cg, state.st, f) == side)
           for f in state.st.frames):
        return
    m = state.machine
    m.stop_at = target
    try:
        for _ in range(100_000):
            st = state.st
            if st.pending is not None and st.pending["side"] == BREAK:
                st.pending = None
                if side is None or _turn_of(cg, st, st.frames[-1]) == side:
                    return
                m.run()            # started for another side: play on to its start for `side`
                continue
            if st.result is not None:
                break
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
            else:
                state.apply_action(0)
    finally:
        m.stop_at = -1
    whose = "" if side is None else f" for {cg.sides[side]}"
    r.fail("P104", f"the game never starts `{rule}`{whose} when played from its seed with the first option of "
                   "every decision", r.span(r.data["at"], "start_of"),
           "give the frames a written position holds, or another rule")


def _set_frames(r: _Reader, state, frames) -> None:
    cg, st = state.cg, state.st
    labels = rule_labels(cg)
    if not isinstance(frames, list):
        r.fail("P104", "`frames` is the list a written position holds", r.span(r.data["at"], "frames"), "")
        return
    out = []
    for i, f in enumerate(frames):
        if not isinstance(f, dict) or f.get("rule") not in labels or not isinstance(f.get("pc"), int):
            r.fail("P104", f"frame {i + 1} names no rule of {cg.id} and its place in it", r.span(frames, i),
                   did_you_mean(str(f.get("rule")) if isinstance(f, dict) else "", labels))
            continue
        proc = labels.index(f["rule"])
        p = cg.procs[proc]
        types = p.slot_types
        given = f.get("locals") or []
        local = [None] * p.nlocals
        for k, v in enumerate(given[:p.nlocals]):
            local[k] = r.value(v, types[k] if k < len(types) else "any", given, k)
        out.append([proc, f["pc"], local, f.get("result_slot", -1)])
    st.frames = out
    st.pending = None
    st.result = None


def _lay_out(r: _Reader, state) -> None:
    """Pieces, zones and variables as the position says; what it does not name stays."""
    cg, st, data = state.cg, state.st, r.data
    m = state.machine
    pieces = r.mapping("pieces")
    named = r.names(pieces, list(r.piece_index), "piece")
    for name, p in named:                      # off first, so the order on each space is the written one
        st.holder[p] = -1
        if st.loc[p] >= 0:
            m.leave(p, st.loc[p])
            st.loc[p] = -1
    for name, p in named:
        where = pieces[name]
        if isinstance(where, dict):
            carrier = where.get("carried_by")
            c = r.value(carrier, "piece", where, "carried_by")
            if c is not None:
                st.holder[p] = c
            continue
        s = r.value(where, "space", pieces, name)
        side = cg.pieces[p].side
        if s is not None and side >= 0 and side not in state.sides_in_play():
            r.fail("P103", f"`{name}` is a piece of {cg.sides[side]}, who is not in this game", r.span(pieces, name),
                   f"the options leave {cg.sides[side]} out (their pieces stay off the board): write `{name}: null` "
                   "or set the options that seat that side")
            continue
        if s is not None:
            standing = m.occupants(s)
            room = m.board.holds(s)
            if room and len(standing) >= room:
                r.fail("P106", f"`{name}` cannot stand on `{where}`: {_listed([cg.pieces[q].name for q in standing])} "
                       f"already stand{'s' if len(standing) == 1 else ''} there and it holds {room}",
                       r.span(pieces, name),
                       "put one of them elsewhere: a piece the position does not name stays where it was "
                       "(name it too, with its space or `null`)")
                continue
            st.loc[p] = s
            here = st.occ[s]
            if here < 0:
                st.occ[s] = p
            else:
                while st.occ_next[here] >= 0:
                    here = st.occ_next[here]
                st.occ_next[here] = p
    zones = r.mapping("zones")
    listed = r.names(zones, list(r.zone_index), "zone")
    for name, _ in listed:
        z = r.zone_index[name]
        for c in st.zones[z]:
            st.card_zone[c] = -1
        st.zones[z] = []
    for name, _ in listed:
        z = r.zone_index[name]
        cards = zones[name]
        if not isinstance(cards, list):
            r.fail("P103", f"`{name}` holds a list of card names, bottom first", r.span(zones, name), "")
            continue
        for k, card in enumerate(cards):
            c = _take_card(r, state, card, z, cards, k)
            if c is not None:
                st.zones[z].append(c)
                st.card_zone[c] = z
    slots = set(cg.option_slots.values())
    for name, i in r.names(r.mapping("vars"), list(cg.global_names), "variable"):
        if i in slots or i == cg.current_slot:
            r.fail("P102", f"`{name}` is an option: set it under `options:`", r.key_span(data["vars"], name), "")
            continue
        st.g[i] = r.value(data["vars"][name], cg.var_types.get(("g", i), "any"), data["vars"], name)
    per_kind = {"sv": ("side_vars", list(cg.sides), "side"), "pv": ("piece_vars", list(r.piece_index), "piece"),
                "xv": ("space_vars", list(cg.board.spaces), "space"), "cv": ("card_vars", card_labels(cg), "card")}
    for kind, names, table in (("sv", cg.side_var_names, st.sv), ("pv", cg.piece_var_names, st.pv),
                               ("xv", cg.space_var_names, st.xv), ("cv", cg.card_state_names, st.cv)):
        key, owners, what = per_kind[kind]
        given = r.mapping(key)
        for name, i in r.names(given, list(names), f"{what} variable"):
            per = given[name]
            if not isinstance(per, dict):
                r.fail("P101", f"`{name}` is a mapping of {what}s to values", r.span(given, name), "")
                continue
            for owner, j in r.names(per, owners, what):
                table[i][j] = r.value(per[owner], cg.var_types.get((kind, i), "any"), per, owner)


def _take_card(r: _Reader, state, name, z: int, container, key):
    """A copy of the card `name` for zone `z`: from the box first, else from a zone the
    position does not list; a copy of the zone's side's deck when there is one."""
    cg, st = state.cg, state.st
    ids = [c for c, info in enumerate(cg.cards) if info.name == name]
    if not ids:
        r.fail("P102", f"no card `{name}` in {cg.id}", r.span(container, key),
               did_you_mean(str(name), list(dict.fromkeys(c.name for c in cg.cards))))
        return None
    side = z % cg.nsides
    listed = {r.zone_index[n] for n in (r.data.get("zones") or {}) if n in r.zone_index}
    free = [c for c in ids if st.card_zone[c] == -1] or [c for c in ids if st.card_zone[c] not in listed]
    if not free:
        held: dict[str, int] = {}
        for c in ids:
            if st.card_zone[c] >= 0:
                label = cg.zone_label(st.card_zone[c])
                held[label] = held.get(label, 0) + 1
        where = ", ".join(f"{n} in {label}" for label, n in held.items())
        r.fail("P105", f"the game has {len(ids)} cop{'y' if len(ids) == 1 else 'ies'} of `{name}`, "
                       f"and the position uses them all ({where})", r.span(container, key),
               "list the card as many times as the game has copies, in all the zones together")
        return None
    own = [c for c in free if cg.cards[c].deck == side] or free
    c = own[0]
    old = st.card_zone[c]
    if old >= 0:
        st.zones[old].remove(c)
        st.card_zone[c] = -1
    return c
