"""Effects that last or repeat (AST `Phase`, `During`, `Timed`) -> instructions, checking as they go.

A `phase NAME` is a span of play the rules mark with `during NAME:`. Card effects (and rules)
attach to it: `until the end of this NAME:` (the block's changes to variables are undone when
NAME ends), `at the end of this NAME:` and `at the start of the next NAME:` (the block runs
once, later), `at the start of each NAME:` / `at the end of each NAME:` (it runs every time,
while the card stays in the zone it was in), `once per NAME:` (at most once per NAME for this
card, or this rule, and side).

Everything they remember is plain data in four hidden global variables per phase (how many
NAMEs are running, the undo records, the waiting effects with the locals they captured, the
`once` uses), so a state with effects waiting clones, saves and restores like any other. A
waiting block is a procedure of its own that shares the locals layout of the rule it was
written in, and is called with a copy of that rule's locals taken when it was registered.
"""
from __future__ import annotations

from lumos.diagnostics import did_you_mean
from lumos.interpreter.program import Proc

_PARTS = ("running", "until", "later", "once")
WHEN = {"end_this": ("end", False), "start_next": ("start", False), "start_each": ("start", True),
        "end_each": ("end", True)}
WORDS = {"until": "until the end of this", "end_this": "at the end of this", "start_next": "at the start of the next",
         "start_each": "at the start of each", "end_each": "at the end of each", "once": "once per"}


def hidden_name(phase: str, part: str) -> str:
    """The name of a phase's hidden variable: never a Lumos name, left out of what a side sees."""
    return f"_phase {phase} {part}"


class TimedLowering:
    """Mixin of Lowerer: `phase` declarations and the statements that attach to them."""

    def d_Phase(self, d):
        if self.symbols.get(d.name) is not None:
            self.declare(d.name, "phase", "phase", None, d.span)   # E206, said once
            return
        slots = []
        for part in _PARTS:
            slots.append(len(self.globals))
            self.globals.append((hidden_name(d.name, part), 0 if part == "running" else ()))
        self.declare(d.name, "phase", "phase", tuple(slots), d.span)

    def phase_slots(self, name: str, span):
        sym = self.symbols.get(name)
        if sym is None or sym.what != "phase":
            phases = [s.name for s in self.symbols.values() if s.what == "phase"]
            self.sink.add("E224", f"`{name}` is not a phase" + (f" (it is {sym.what} `{name}`)" if sym else ""), span,
                          did_you_mean(name, phases) or
                          f"declare it with `phase {name}` and mark it in the rules with `during {name}:`"
                          + (f"; phases: {', '.join(phases)}" if phases else ""))
            return None
        sym.used = True
        return sym.value

    # -- `during NAME:`
    def s_During(self, s):
        slots = self.phase_slots(s.phase, s.span)
        if slots is None:
            self.block(s.body)
            return
        running, until, later, once = slots
        queue = self.local.hidden("waiting", "any")

        def begin(m, fr):
            m.st.g[running] += 1
            fr[2][queue] = _due(m, later, "start")
            fr[1] += 1
        self.emit(begin, s.span)
        self.emit(_run_queue(queue), s.span)
        self.block(s.body)

        def ending(m, fr):
            fr[2][queue] = _due(m, later, "end")
            fr[1] += 1
        self.emit(ending, s.span)
        self.emit(_run_queue(queue), s.span)

        def close(m, fr):
            g = m.st.g
            for where, k, i, old in reversed(g[until]):   # lasting effects end, the last first
                if where == "g":
                    g[k] = old
                else:
                    getattr(m.st, where)[k][i] = old
            g[until] = ()
            g[once] = ()
            g[running] = max(0, g[running] - 1)
            fr[1] += 1
        self.emit(close, s.span)

    # -- the effects that attach to a phase
    def s_Timed(self, s):
        slots = self.phase_slots(s.phase, s.phase_span or s.span)
        if slots is None:
            self.block(s.body)
            return
        getattr(self, "timed_" + ("later" if s.kind in WHEN else s.kind))(s, slots)

    def timed_until(self, s, slots):
        until = slots[1]
        internal = frozenset(i for sym in self.symbols.values() if sym.what == "phase" and sym.value
                             for i in sym.value)
        snap = self.local.hidden("before", "any")

        def before(m, fr):
            st = m.st
            fr[2][snap] = (tuple(st.g), tuple(map(tuple, st.sv)), tuple(map(tuple, st.pv)), tuple(map(tuple, st.xv)))
            fr[1] += 1
        self.emit(before, s.span)
        self.block(s.body)

        def after(m, fr):
            st, L = m.st, fr[2]
            g0, sv0, pv0, xv0 = L[snap]
            changed = [("g", k, 0, old) for k, old in enumerate(g0) if k not in internal and st.g[k] != old]
            for where, table in (("sv", sv0), ("pv", pv0), ("xv", xv0)):
                now = getattr(st, where)
                changed += [(where, k, i, old) for k, row in enumerate(table) for i, old in enumerate(row)
                            if now[k][i] != old]
            if changed:
                st.g[until] = st.g[until] + tuple(changed)
            L[snap] = None
            fr[1] += 1
        self.emit(after, s.span)

    def timed_later(self, s, slots):
        later = slots[2]
        when, repeat = WHEN[s.kind]
        proc = self.sub_proc(s, f"{WORDS[s.kind]} {s.phase}")
        card = self.local.names.get("card")
        card_slot = card[0] if card is not None and card[1] == "card" else -1

        def register(m, fr):
            L = fr[2]
            c = L[card_slot] if card_slot >= 0 else None
            zone = m.st.card_zone[c] if c is not None else -1
            entry = (when, repeat, proc, tuple(L), -1 if c is None else c, zone)
            m.st.g[later] = m.st.g[later] + (entry,)
            fr[1] += 1
        self.emit(register, s.span)

    def timed_once(self, s, slots):
        once = slots[3]
        sites = self.__dict__.setdefault("once_sites", {})
        site = sites.setdefault((s.span.file, s.span.line, s.span.col), len(sites))
        card = self.local.names.get("card")
        card_slot = card[0] if card is not None and card[1] == "card" else -1
        me = self.local.names.get("me")
        me_slot = me[0] if me is not None else -1
        from lumos.compiler.lower_stmt import Cell
        skip = Cell()

        def test(m, fr):
            L = fr[2]
            key = (site, L[card_slot] if card_slot >= 0 and L[card_slot] is not None else -1,
                   L[me_slot] if me_slot >= 0 and L[me_slot] is not None else -1)
            if key in m.st.g[once]:
                fr[1] = skip.pc
                return
            m.st.g[once] = m.st.g[once] + (key,)
            fr[1] += 1
        self.emit(test, s.span)
        self.block(s.body)
        skip.pc = self.here()

    def sub_proc(self, s, what: str) -> int:
        """The block as a procedure of its own over the same locals (a copy of them is kept with the
        waiting effect): its own code, jumps and loops; `stop` cannot leave it, `return` ends it."""
        index = len(self.procs)
        self.procs.append(None)
        saved = (self.code, self.spans, self.loops, self.return_types)
        self.code, self.spans, self.loops, self.return_types = [], [], [], []
        try:
            self.block(s.body)
            self.emit(lambda m, fr: m.return_from(None), s.span)
            local = self.local
            self.procs[index] = Proc(what, "effect", (), len(local.slot_names), tuple(self.code), tuple(self.spans),
                                     s.span, (), tuple(local.slot_names), local.card_slots(),
                                     tuple(local.slot_types))
        finally:
            self.code, self.spans, self.loops, self.return_types = saved
        return index


def _due(m, later: int, when: str) -> tuple:
    """The waiting effects due at this start or end, in the order they were registered; those that
    ran for good, and repeating ones whose card has left its zone, stop waiting."""
    st = m.st
    due, keep = [], []
    for entry in st.g[later]:
        at, repeat, _proc, _locals, card, zone = entry
        alive = card < 0 or st.card_zone[card] == zone
        if repeat and not alive:
            continue
        if at == when:
            due.append(entry)
            if repeat:
                keep.append(entry)
        else:
            keep.append(entry)
    st.g[later] = tuple(keep)
    return tuple(due)


def _run_queue(queue: int):
    def run(m, fr):
        L = fr[2]
        waiting = L[queue]
        if not waiting:
            L[queue] = None
            fr[1] += 1
            return
        entry, L[queue] = waiting[0], waiting[1:]
        m.call(entry[2], list(entry[3]))     # back here when it returns: the next one, or on
    return run
