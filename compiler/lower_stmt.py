"""Statements (AST) -> flat instruction lists with jumps, checking as they go.

An instruction is a callable `op(machine, frame)` that does its work and moves
the frame's program counter. Decision instructions are objects that also know
how to `resume` with the chosen value and how to `describe` an option.
"""
from __future__ import annotations

from lumos.compiler import nodes as N
from lumos.compiler.blocks import STEP
from lumos.compiler.chance import AnswerOp, PoolOp, RollOp
from lumos.compiler.fused import _NO_NAMES, _joined, _name, _src, specialised
from lumos.compiler.scope import compatible, describe, element


class Cell:
    """A jump target patched once the target's index is known."""
    __slots__ = ("pc",)

    def __init__(self):
        self.pc = -1


def _jump(cell):
    def jump(m, fr):
        fr[1] = cell.pc
    jump.block = ("jump", cell)   # how compiler/blocks.py writes it in line
    return jump


class ChooseOp:
    """`choose NAME from LIST`: one option per distinct item (copies of one card are one option)."""
    kind = "choice"
    block = STEP   # it decides (halts), or sets the name and goes on (compiler/blocks.py)

    def __init__(self, slot, options, side, may, describe_fn, name="", el="any"):
        self.slot, self.options, self.side, self.may, self.describe_fn = slot, options, side, may, describe_fn
        self.name, self.el = name, el
        self.site = name          # named by `name_sites` once the procedure is built
        if el == "card":
            self.kind = "card"
        # how the items of a list of two or more become options, chosen once here instead of
        # per call: copies of a card are one, equal numbers or texts one; pieces, spaces, sides
        # and zones are distinct already
        self.distinct = _distinct_cards if el == "card" else \
            None if el in ("piece", "space", "side", "zone") else _distinct_values

    def __call__(self, m, fr):
        L = fr[2]
        opts = self.options(m, L)
        if isinstance(opts, int):  # a zone
            opts = m.st.zones[opts]
        opts = list(opts)
        n = len(opts)
        if n > 1:
            if self.distinct is not None:
                opts = self.distinct(m, opts)
        elif not n:
            L[self.slot] = None
            fr[1] += 1
            return
        elif not self.may and m.st.forced:   # forced only when the list itself holds one item
            L[self.slot] = opts[0]
            fr[1] += 1
            return
        quiet = m.quiet
        if quiet is not None and not quiet(m, L):
            m.decide("choose", self.side(m, L), opts, self.may)
            return
        # Machine.decide's record, written here: no `anytime` rule can add an option
        m.st.pending = {"kind": "choose", "side": self.side(m, L), "options": opts + [None] if self.may else opts}
        m.halt = True

    def resume(self, m, fr, value, side=None):
        fr[2][self.slot] = value
        fr[1] += 1

    def describe(self, m, fr, value):
        if value is None:
            return "do not choose"
        return self.describe_fn(m, fr[2], value)

    def args(self, m, fr, value) -> dict:
        return {} if value is None else {self.name: (value, self.el)}


def _card_keys(cg) -> list:
    """Per card, the number of the first card of its name: copies share it (kept per compiled game)."""
    keys = cg.__dict__.get("_card_keys")
    if keys is None:
        first: dict = {}
        keys = [first.setdefault(c.name, i) for i, c in enumerate(cg.cards)]
        object.__setattr__(cg, "_card_keys", keys)   # a cache beside the game's data
    return keys


def _distinct_cards(m, cards: list) -> list:
    """The first copy of each card name: choosing one copy or another does the same."""
    keys = m.cg.__dict__.get("_card_keys") or _card_keys(m.cg)
    try:   # the common case, no two copies of a name: the list as it is (counted in C)
        if len(set(map(keys.__getitem__, cards))) == len(cards):
            return cards
    except TypeError:   # a none among the cards: the loop below
        pass
    cinfo = m.cg.cards
    seen = set()
    out = []
    for c in cards:
        name = cinfo[c].name if c is not None else None
        if name not in seen:
            seen.add(name)
            out.append(c)
    return out


def _distinct_values(m, opts: list) -> list:
    """Equal numbers or texts are one option (two blanks of a roll: rerolling either does the same)."""
    try:
        return list(dict.fromkeys(opts))
    except TypeError:        # lists of lists: compared as they are
        out = []
        for o in opts:
            if o not in out:
                out.append(o)
        return out


class ActOp:
    """`do one of ACTIONS`: one option per action and binding (copies of one card are one option)."""
    kind = "action"
    block = STEP   # it decides or calls the one action (halts), or goes on (compiler/blocks.py)

    def __init__(self, actions, side, may):
        self.actions, self.side, self.may = actions, side, may
        self.site = "act"
        # made on the first call, once the game's actions are all built (`_prepare`): per action,
        # (what lists its options, its number); whether an action binds a card
        self.listers = None
        self.with_cards = False

    def _prepare(self, m) -> tuple:
        actions = m.cg.actions
        self.with_cards = any(actions[a].card_params for a in self.actions)
        # an action's joined listing fills the instruction's list itself (Lowerer.action_index)
        self.listers = tuple((getattr(actions[a].enumerate, "listing", None) or actions[a].enumerate, a)
                             for a in self.actions)
        return self.listers

    def __call__(self, m, fr):
        side = self.side(m, fr[2])
        opts = []
        for lister, a in self.listers or self._prepare(m):
            lister(m, side, a, opts)
        if not opts and not self.may:
            fr[1] += 1
            return
        if len(opts) == 1:    # forced only when one binding exists, not one card name
            if not self.may and m.st.forced:
                self.resume(m, fr, opts[0], side)
                return
        elif self.with_cards:
            opts = _distinct_bindings(m, opts)
        quiet = m.quiet
        if quiet is None or quiet(m, fr[2]):
            # Machine.decide's record, written here: no `anytime` rule can add an option
            m.st.pending = {"kind": "act", "side": side, "options": opts + [None] if self.may else opts,
                            "for": side}
            m.halt = True
            return
        m.decide("act", side, opts, self.may)
        m.st.pending["for"] = side

    def resume(self, m, fr, value, side=None):
        """`side`: the side that decided (Machine.apply gives it), the one the action is for."""
        fr[1] += 1
        if value is None:
            return
        if side is None:
            side = self.side(m, fr[2])
        a, binding = value
        m.call(m.cg.actions[a].proc, [side, *binding])

    def describe(self, m, fr, value):
        if value is None:
            return "do nothing"
        a, binding = value
        return m.cg.actions[a].label(m, binding, self.side(m, fr[2]))

    def args(self, m, fr, value) -> dict:
        if value is None:
            return {}
        a, binding = value
        info = m.cg.actions[a]
        return {p: (v, k) for p, k, v in zip(info.params, info.kinds, binding)}


def _distinct_bindings(m, opts: list) -> list:
    """Action options whose bindings differ only by copies of one card are one option."""
    cinfo = m.cg.cards
    actions = m.cg.actions
    seen = set()
    out = []
    for o in opts:
        a, binding = o
        cards = actions[a].card_params
        key = (a, tuple(cinfo[v].name if i in cards and v is not None else v for i, v in enumerate(binding)))
        if key not in seen:
            seen.add(key)
            out.append(o)
    return out


class MenuOp:
    """`choose one:` a menu of labelled branches, each offered when its guard holds."""
    kind = "menu"

    def __init__(self, side, guards, labels, targets):
        self.side, self.guards, self.labels, self.targets = side, guards, labels, targets
        self.site = "menu"
        # the options whose guards hold, in order: the specialised back end writes the guards
        # in line in one expression (no comprehension's frame, no call per guard)
        self.listing = _menu_listing(guards) if specialised() else self._listing

    def _listing(self, m, L) -> list:
        return [i for i, g in enumerate(self.guards) if g is None or g(m, L)]

    def __call__(self, m, fr):
        L = fr[2]
        opts = self.listing(m, L)
        if not opts or (len(opts) == 1 and m.st.forced):
            fr[1] = self.targets[opts[0]].pc if opts else self.targets[-1].pc
            return
        quiet = m.quiet
        if quiet is not None and not quiet(m, L):
            m.decide("menu", self.side(m, L), opts, False)
            return
        # Machine.decide's record, written here: no `anytime` rule can add an option
        m.st.pending = {"kind": "menu", "side": self.side(m, L), "options": opts}
        m.halt = True

    def resume(self, m, fr, value, side=None):
        fr[1] = self.targets[value].pc

    def describe(self, m, fr, value):
        return self.labels[value](m, fr[2])

    def args(self, m, fr, value) -> dict:
        return {"option": (value + 1, "number")}


def _menu_listing(guards):
    """fn(m, L): the numbers of a menu's options whose guards hold, the guards tested left to right
    as MenuOp._listing tests them (`[*((0,) if (G0) else ()), 1, ...]`)."""
    def make():
        parts, names = [], {}
        for i, g in enumerate(guards):
            if g is None:
                parts.append(str(i))
                continue
            text, n = _src(g)
            names.update(n)
            parts.append(f"*(({i},) if ({text}) else ())")
        return "[" + ", ".join(parts) + "]", names
    return _joined(make)


def name_sites(procs) -> None:
    """Name every decision of every procedure, the same way in every compile of the same rules:
    `RULE: choose NAME` (with `#2`, `#3` for a second and third such choose in one rule),
    `RULE: menu`, `RULE: act`. The action space keys choices by these names."""
    seen: dict[str, int] = {}
    for proc in procs:
        for op in proc.code:
            kind = getattr(op, "kind", None)
            if kind is None or kind == "chance":
                continue
            what = f"choose {op.name}" if isinstance(op, ChooseOp) else op.site.split(": ")[-1]
            base = f"{proc.name}: {what}"
            seen[base] = seen.get(base, 0) + 1
            op.site = base if seen[base] == 1 else f"{base} #{seen[base]}"


def _puts(store, put):
    """store(m, L, v) with its text: put(value_text) -> (lines, names) that write what store
    writes, the value first (as store gets it), then what says where (compiler/blocks.py)."""
    store.put = put
    return store


def _no_target(m, name: str, needed: str, hint: str) -> None:
    """R003 for a `set` of an attribute of none (the store closures and their texts)."""
    m.fail_runtime("R003", f"`{name}` of none cannot be set: {needed}",
                   m.st.frames[-1] if m.st.frames else None, hint)


_NO_CARD = ("a card is needed here", "a `draw` from an empty zone or a `choose` from an empty list gives none; "
            "test `c is not none` first")
_NO_SPACE = ("a space is needed here", "a piece off the board stands on no space; test `x is not none` first")


def _checked_put(of, field: str, k: int, name: str, why: tuple):
    """The text of a store into a card's or a space's variable: none where it goes is R003."""
    def put(value):
        ot, on = _src(of)
        fail, msg = _name(), _name()
        lines = [f"_bs = {value}", f"_bo = {ot}", "if _bo is None:", f"    {fail}(m, {msg}, *{msg}_why)",
                 f"m.st.{field}[{k}][_bo] = _bs"]
        return lines, {**on, fail: _no_target, msg: name, f"{msg}_why": why}
    return put


def _clamp_put(store, low, high):
    """The text of a store of a `var` with limits: the value brought within them, then stored."""
    def put(value):
        lines, names = ["_bc = " + value, "if _bc is not None:"], {}
        first = "if"
        if low is not None:
            lo = _name()
            names[lo] = low
            lines += [f"    if _bc < {lo}:", f"        _bc = {lo}"]
            first = "elif"
        if high is not None:
            hi = _name()
            names[hi] = high
            lines += [f"    {first} _bc > {hi}:", f"        _bc = {hi}"]
        more, mn = store.put("_bc")
        return lines + more, {**names, **mn}
    return put


def _grown(m, old, value, adding: bool, many: bool, is_zone: bool) -> tuple:
    """The list `old` after `add value to` it (`subtract ... from`), as the statement's closure makes it."""
    items = list(old or ())
    if value is not None:
        values = tuple(m.st.zones[value]) if is_zone else (value if many else (value,))
        for v in values:
            if adding:
                items.append(v)
            elif v in items:
                items.remove(v)
    return tuple(items)


def _place_checks(m, fr, piece, space) -> None:
    """What `place PIECE at SPACE` checks before it moves the piece: a piece and a space, and room
    there (the board's capacity). Called only when one of them is none or the space is taken."""
    if piece is None:
        _no_piece(m, fr, "place")
    if space is None:
        m.fail_runtime("R003", "cannot place a piece on no space", fr, "check the space is not none first")
    other = m.st.occ[space]
    if other >= 0 and other != piece:
        room = m.board.holds(space)
        if room == 1:
            m.fail_runtime("R004", f"{m.fmt(space, 'space')} is already occupied by {m.fmt(other, 'piece')}",
                           fr, "move or knock off the piece standing there first")
        if room and len(crowd := [x for x in m.occupants(space) if x != piece]) >= room:
            m.fail_runtime("R004", f"{m.fmt(space, 'space')} is full: {m.fmt(crowd, 'list:piece')} "
                           f"stand there and it holds {room}", fr,
                           "test `count(occupants(s)) < ...` before placing, or move a piece away first")


def _placed(m, piece, space) -> str:
    return f"{m.fmt(piece, 'piece')} to {m.fmt(space, 'space')}"


def _no_piece(m, fr, verb: str) -> None:
    m.fail_runtime("R003", f"`{verb}` needs a piece here, not none", fr,
                   "a `choose` from an empty list, or a `first` of one, gives none; test `x is not none` first")


def _returned(value: str) -> list[str]:
    """The lines of Machine.return_from(value) in a run's text: the value first, then the frame
    taken off (the run's own: a run ends at whatever pushes one) and the value given to the caller."""
    return [f"_br = {value}", "_bf = m.st.frames", "_bd = _bf.pop()", "m.halt = True",
            "if _bf and _bd[3] >= 0:", "    _bf[-1][2][_bd[3]] = _br"]


class StmtLowering:
    """Mixin of Lowerer: statement methods. Emits into self.code / self.spans."""

    def emit(self, op, span):
        self.code.append(op)
        self.spans.append(span)

    def here(self) -> int:
        return len(self.code)

    def block(self, stmts):
        for s in stmts:
            getattr(self, "s_" + type(s).__name__)(s)

    def side_or_default(self, node, span):
        if node is not None:
            f, _ = self.expect(node, "side", "the side after `by`")
            return f
        if "me" in self.local.names:
            slot = self.local.names["me"][0]
            return lambda m, L: L[slot]
        cur = self.current_slot
        return lambda m, L: m.st.g[cur]

    # -- assignment
    def s_Let(self, s):
        if isinstance(s.value, N.Call) and self.symbols.get(s.value.func) is not None \
                and self.symbols[s.value.func].what == "procedure":
            self.call_procedure(s.value, s, result_name=s.name)
            return
        f, t = self.expr(s.value)
        slot = self.local.slot(s.name, t)

        def let(m, fr):
            L = fr[2]
            L[slot] = f(m, L)
            fr[1] += 1
        let.block = ("let", slot, f)
        self.emit(let, s.span)

    def setter(self, target, span):
        """(store(m, L, value), type) for a `set` target, or None. A `var` with limits
        (`max 3`) stores its value brought within them."""
        found = self.plain_setter(target, span)
        if found is None:
            return None
        store, typ, where = found
        limits = self.limits.get(where)
        if limits is None:
            return store, typ
        low, high = limits

        def clamp(m, L, v):
            if v is not None:
                if low is not None and v < low:
                    v = low
                elif high is not None and v > high:
                    v = high
            store(m, L, v)
        if hasattr(store, "put"):
            _puts(clamp, _clamp_put(store, low, high))
        return clamp, typ

    def plain_setter(self, target, span):
        """(store, type, where) with `where` the variable's key in self.limits (None for a local)."""
        if isinstance(target, N.Name):
            if target.name in self.local.names:
                slot, t = self.local.names[target.name]

                def store_local(m, L, v):
                    L[slot] = v
                return _puts(store_local, lambda v: ([f"L[{slot}] = {v}"], _NO_NAMES)), t, None
            sym = self.symbols.get(target.name)
            if sym is not None and sym.what == "var":
                sym.used = True
                g = sym.value

                def store_global(m, L, v):
                    m.st.g[g] = v
                return _puts(store_global, lambda v: ([f"m.st.g[{g}] = {v}"], _NO_NAMES)), sym.type, ("g", g)
            from lumos.diagnostics import did_you_mean
            settable = list(self.local.names) + [x.name for x in self.symbols.values() if x.what == "var"]
            self.sink.add("E206" if sym else "E201",
                          f"`{target.name}` cannot be set" if sym else f"unknown name `{target.name}`",
                          target.span, (not sym and did_you_mean(target.name, settable)) or
                          "only variables declared with `var` can be set")
            return None
        of, t = self.expr(target.obj)
        table = self.settable.get(t, {})
        if t == "any" and target.name not in table:
            # a parameter of a procedure no rule calls yet (card vocabulary): the attribute
            # name alone says which kind it belongs to, when only one kind has it
            owners = [tb for tb in self.settable.values() if target.name in tb]
            if len(owners) == 1:
                table = owners[0]
        if target.name not in table:
            self.sink.add("E202", f"`{target.name}` of {describe(t)} cannot be set", target.span,
                          f"settable: {', '.join(sorted(table))}" if table else "declare a `var ... per side` or `per piece`")
            return None
        kind, k, typ = table[target.name]
        if kind in ("sv", "pv"):
            def store_side(m, L, v):
                m.st.sv[k][of(m, L)] = v

            def store_piece(m, L, v):
                m.st.pv[k][of(m, L)] = v

            def put(value):   # the value first, then the entity (as the store closure gets them)
                ot, on = _src(of)
                return [f"_bs = {value}", f"m.st.{kind}[{k}][{ot}] = _bs"], on
            return _puts(store_side if kind == "sv" else store_piece, put), typ, (kind, k)

        if kind == "cv":
            def store_card(m, L, v):
                c = of(m, L)
                if c is None:
                    _no_target(m, target.name, *_NO_CARD)
                m.st.cv[k][c] = v
            return _puts(store_card, _checked_put(of, "cv", k, target.name, _NO_CARD)), typ, (kind, k)
        if kind == "xv":
            def store_space(m, L, v):
                where = of(m, L)
                if where is None:
                    _no_target(m, target.name, *_NO_SPACE)
                m.st.xv[k][where] = v
            return _puts(store_space, _checked_put(of, "xv", k, target.name, _NO_SPACE)), typ, (kind, k)
        raise ValueError(kind)

    def s_SetVar(self, s):
        st = self.setter(s.target, s.span)
        if st is not None and st[1] == "die":
            f, t = self.die_value(s.value, "the value set")
        else:
            f, t = self.expr(s.value)
        if st is None:
            return
        store, typ = st
        if typ == "none" and t not in ("none", "any") and isinstance(s.target, N.Name) \
                and s.target.name in self.local.names:
            # `let found = none` ... `set found = c`: the name learns the kind of what it holds
            self.local.names[s.target.name] = (self.local.names[s.target.name][0], t)
        if not compatible(t, typ):
            self.sink.add("E203", f"cannot set {describe(typ)} to {describe(t)}", s.value.span, "")

        def set_(m, fr):
            L = fr[2]
            store(m, L, f(m, L))
            fr[1] += 1
        set_.block = ("set", store, f)
        self.emit(set_, s.span)

    def s_AddTo(self, s):
        f, ftyp = self.expr(s.amount)
        get, ttyp = self.expr(s.target)
        if ttyp.startswith("list:"):
            self.add_to_list(s, f, ftyp, get, ttyp)
            return
        if not compatible(ftyp, "number"):
            self.sink.add("E203", f"the amount should be {describe('number')}, not {describe(ftyp)}",
                          s.amount.span, self.kind_hint("number", ftyp))
        st = self.setter(s.target, s.span)
        if st is None:
            return
        store, typ = st
        if typ not in ("number", "any"):
            self.sink.add("E203", f"can only add to a number, not {describe(typ)}", s.target.span, "")
        sign = s.sign

        def add(m, fr):
            L = fr[2]
            store(m, L, (get(m, L) or 0) + sign * f(m, L))
            fr[1] += 1
        add.block = ("add", store, get, f, sign)
        self.emit(add, s.span)

    def add_to_list(self, s, f, ftyp, get, ttyp):
        """`add x to items` puts x (or each item of a list x) at the end of a list named by `let`;
        `subtract x from items` takes out the first item equal to x (or to each item of a list x)."""
        el = ttyp[5:]
        many = ftyp.startswith("list:") or ftyp == "zone"
        got = element(ftyp) if many else ftyp
        if not compatible(got, el) and el != "none":
            self.sink.add("E203", f"cannot {'add' if s.sign > 0 else 'subtract'} {describe(ftyp)} "
                          f"{'to' if s.sign > 0 else 'from'} {describe(ttyp)}", s.amount.span, "")
        is_zone = ftyp == "zone"
        adding = s.sign > 0
        if not (isinstance(s.target, N.Name) and s.target.name in self.local.names):
            if isinstance(s.target, N.Name) and getattr(self.symbols.get(s.target.name), "what", None) != "var":
                self.sink.add("E206", "only a list named by `let` can grow or shrink", s.target.span,
                              "write `let items = ...` first, or declare `var items: list of KIND = []`")
                return
            # a `var NAME: list of KIND`: read it, change the list, store it back
            st = self.setter(s.target, s.span)
            if st is None:
                return
            store = st[0]

            def grow_var(m, fr):
                L = fr[2]
                value = f(m, L)
                store(m, L, _grown(m, get(m, L), value, adding, many, is_zone))
                fr[1] += 1
            grow_var.block = STEP   # it halts or goes on to the next instruction
            self.emit(grow_var, s.span)
            return
        slot = self.local.names[s.target.name][0]
        if el == "none" and got not in ("none", "any"):
            self.local.names[s.target.name] = (slot, "list:" + got)   # `let l = []` learns its kind

        def grow(m, fr):
            L = fr[2]
            value = f(m, L)
            items = list(L[slot] or ())
            if value is not None:
                values = tuple(m.st.zones[value]) if is_zone else (value if many else (value,))
                for v in values:
                    if adding:
                        items.append(v)
                    elif v in items:
                        items.remove(v)
            L[slot] = tuple(items)
            fr[1] += 1

        def text(pc):   # the value first, then the list it changes
            vt, names = _src(f)
            if adding and not many and not is_zone:   # one item at the end: a new tuple in line
                new = f"tuple(L[{slot}] or ()) if _bg is None else (*(L[{slot}] or ()), _bg)"
            else:
                h = _name()
                names = {**names, h: _grown}
                new = f"{h}(m, L[{slot}], _bg, {bool(adding)}, {bool(many)}, {bool(is_zone)})"
            return [f"_bg = {vt}", f"L[{slot}] = {new}", f"fr[1] = {pc + 1}"], names
        grow.block = ("plain", text)
        self.emit(grow, s.span)

    def s_Reset(self, s):
        """Every value of a `var` back to where it started (an effect that lasts "until the end of ...")."""
        resets, texts = [], []   # texts: (line of m.st's, its start value), for compiler/blocks.py
        sym = self.symbols.get(s.name)
        if sym is not None and sym.what == "var" and s.name != "current":
            sym.used = True
            slot, start = sym.value, self.globals[sym.value][1]
            resets.append(lambda st: st.g.__setitem__(slot, start))
            texts.append(("g[{}] = {}".format(slot, "{}"), start))
        for kind, table in (("side", self.settable.get("side", {})), ("piece", self.settable.get("piece", {})),
                            ("space", self.settable.get("space", {})), ("card", self.settable.get("card", {}))):
            if s.name in table:
                _kind, k, _typ = table[s.name]
                if kind == "card":
                    start = self.card_state[k][1]
                    resets.append(lambda st, k=k, start=start: st.cv[k].__setitem__(slice(None),
                                                                                     [start] * len(st.cv[k])))
                    texts.append((f"cv[{k}][:] = [{{}}] * len(m.st.cv[{k}])", start))
                elif kind == "space":
                    start = self.space_vars[k][1]
                    resets.append(lambda st, k=k, start=start: st.xv[k].__setitem__(slice(None),
                                                                                     [start] * len(st.xv[k])))
                    texts.append((f"xv[{k}][:] = [{{}}] * len(m.st.xv[{k}])", start))
                elif kind == "side":
                    starts = list(self.side_vars[k][1])
                    resets.append(lambda st, k=k, starts=starts: st.sv[k].__setitem__(slice(None), starts))
                    texts.append((f"sv[{k}][:] = {{}}", starts))
                else:
                    start = self.piece_vars[k][1]
                    resets.append(lambda st, k=k, start=start: st.pv[k].__setitem__(slice(None),
                                                                                     [start] * len(st.pv[k])))
                    texts.append((f"pv[{k}][:] = [{{}}] * len(m.st.pv[{k}])", start))
        if not resets:
            from lumos.diagnostics import did_you_mean
            known = [x.name for x in self.symbols.values() if x.what == "var" and x.name != "current"]
            known += list(self.settable.get("side", {})) + list(self.settable.get("piece", {}))
            known += list(self.settable.get("space", {})) + list(self.settable.get("card", {}))
            self.sink.add("E201", f"`{s.name}` is not a variable declared with `var`", s.span,
                          did_you_mean(s.name, known) or "`reset` takes the name of a `var`")
            return
        resets = tuple(resets)

        def reset(m, fr):
            for r in resets:
                r(m.st)
            fr[1] += 1

        def text(pc):   # the same writes in the same order, each start value a bound constant
            names, lines = {}, []
            for line, start in texts:
                n = _name()
                names[n] = start
                lines.append("m.st." + line.format(n))
            return lines + [f"fr[1] = {pc + 1}"], names
        reset.block = ("plain", text)
        self.emit(reset, s.span)

    # -- verbs
    def s_Place(self, s):
        p, _ = self.expect(s.piece, "piece", "what is placed")
        if s.space is None:
            def place_off(m, fr):
                piece = p(m, fr[2])
                if piece is None:
                    _no_piece(m, fr, "place")
                m.place(piece, -1)
                m.st.holder[piece] = -1
                fr[1] += 1
            place_off.block = STEP   # it halts or goes on to the next instruction
            self.emit(place_off, s.span)
            return
        sp, _ = self.expect(s.space, "space", "where it is placed")

        def place(m, fr):
            L = fr[2]
            piece, space = p(m, L), sp(m, L)
            if piece is None or space is None or m.st.occ[space] >= 0:
                _place_checks(m, fr, piece, space)
            m.st.holder[piece] = -1
            m.place(piece, space)
            if m.events is not None:  # no text is built when nobody logs
                m.emit(fr, _placed(m, piece, space))
            fr[1] += 1

        def text(pc):   # the piece, then the space, then what the closure does with them
            (pt, pn), (st, sn) = _src(p), _src(sp)
            chk, said = _name(), _name()
            return ([f"_bp = {pt}", f"_bs = {st}", "if _bp is None or _bs is None or m.st.occ[_bs] >= 0:",
                     f"    {chk}(m, fr, _bp, _bs)", "m.st.holder[_bp] = -1", "m.place(_bp, _bs)",
                     "if m.events is not None:", f"    m.emit(fr, {said}(m, _bp, _bs))", f"fr[1] = {pc + 1}"],
                    {**pn, **sn, chk: _place_checks, said: _placed})
        # it halts (a `when placed` rule) or goes on to the next instruction; its text in a run
        place.block = ("steptext", text) if specialised() else STEP
        self.emit(place, s.span)

    def s_Give(self, s):
        p, _ = self.expect(s.piece, "piece", "what is given")
        h, _ = self.expect(s.holder, "piece", "who receives it")

        def give(m, fr):
            L = fr[2]
            piece, holder = p(m, L), h(m, L)
            if piece is None or holder is None:
                _no_piece(m, fr, "give")
            m.give(piece, holder)
            if m.events is not None:  # no text is built when nobody logs
                m.emit(fr, f"{m.fmt(holder, 'piece')} takes {m.fmt(piece, 'piece')}")
            fr[1] += 1
        give.block = STEP   # it halts or goes on to the next instruction
        self.emit(give, s.span)

    def s_Drop(self, s):
        p, _ = self.expect(s.piece, "piece", "what is dropped")

        def drop(m, fr):
            piece = p(m, fr[2])
            if piece is None:
                _no_piece(m, fr, "drop")
            where = m.space_of(piece)
            m.st.holder[piece] = -1
            m.st.loc[piece] = -1 if where is None else where
            fr[1] += 1
        drop.block = STEP   # it halts or goes on to the next instruction
        self.emit(drop, s.span)

    def s_Put(self, s):
        c, t = self.expr(s.cards)
        z, _ = self.expect(s.zone, "zone", "where the cards go")
        if t not in ("card", "zone", "any") and element(t) not in ("card", "any"):
            self.sink.add("E203", f"`put` moves cards, not {describe(t)}", s.cards.span, "")
        single = t == "card"
        is_zone = t == "zone"
        bottom = s.bottom

        def put_many(m, what, dest):
            items = list(m.st.zones[what]) if is_zone else list(what)
            for i, card in enumerate(items):   # at the bottom, the cards keep their order
                m.move_card(card, dest, i if bottom else -1)

        def put(m, fr):
            L = fr[2]
            dest = z(m, L)
            what = c(m, L)
            if what is None:
                fr[1] += 1
                return
            if single:
                m.move_card(what, dest, 0 if bottom else -1)
            else:
                put_many(m, what, dest)
            fr[1] += 1

        def text(pc):   # the zone, then the cards, then the moves
            (zt, zn), (ct, cn) = _src(z), _src(c)
            names = {**zn, **cn}
            if single:
                move = f"m.move_card(_bw, _bz, {0 if bottom else -1})"
            else:
                many = _name()
                names[many] = put_many
                move = f"{many}(m, _bw, _bz)"
            return [f"_bz = {zt}", f"_bw = {ct}", "if _bw is not None:", f"    {move}", f"fr[1] = {pc + 1}"], names
        # it halts (a `when put` rule) or goes on to the next instruction; its text in a run
        put.block = ("steptext", text) if specialised() else STEP
        self.emit(put, s.span)

    def s_DrawCard(self, s):
        src, _ = self.expect(s.source, "zone", "the zone drawn from")
        dst, _ = self.expect(s.dest, "zone", "the zone the card goes to")
        slot = self.local.slot(s.name, "card")

        def logged(m, fr, L, card):   # the zone read again, as the statement has always read it
            zone = dst(m, L)
            where = m.cg.zone_label(zone)
            m.emit(fr, f"draws {m.fmt(card, 'card')} into {where}", m.hidden_from(zone),
                   f"draws a card into {where}")

        def draw(m, fr):
            L = fr[2]
            card = m.draw(src(m, L), dst(m, L))
            L[slot] = card
            if card is not None and m.events is not None:
                logged(m, fr, L, card)
            fr[1] += 1

        def text(pc):   # the source, then the destination, then the draw and its log
            (at, an), (bt, bn) = _src(src), _src(dst)
            said = _name()
            return ([f"L[{slot}] = _bc = m.draw({at}, {bt})", "if _bc is not None and m.events is not None:",
                     f"    {said}(m, fr, L, _bc)", f"fr[1] = {pc + 1}"], {**an, **bn, said: logged})
        # it halts (a `when drawn` rule) or goes on to the next instruction; its text in a run
        draw.block = ("steptext", text) if specialised() else STEP
        self.emit(draw, s.span)

    def s_Shuffle(self, s):
        z, _ = self.expect(s.zone, "zone", "what is shuffled")

        def shuffle(m, fr):
            m.shuffle(z(m, fr[2]))
            fr[1] += 1
        shuffle.block = STEP   # it halts or goes on to the next instruction
        self.emit(shuffle, s.span)

    def die(self, name, span):
        """(faces, kind of face) of a declared die; E209 for an unknown one."""
        sym = self.symbols.get(name)
        if sym is None or sym.what != "die":
            dice = [x.name for x in self.symbols.values() if x.what == "die"]
            from lumos.diagnostics import did_you_mean
            self.sink.add("E209", f"unknown die `{name}`", span, did_you_mean(name, dice) or
                          f"dice: {', '.join(dice)}" if dice else "declare it: `die d6 faces 1, 2, 3, 4, 5, 6`")
            return (1,), "any"
        sym.used = True
        return sym.value, self.die_types.get(name, "any")

    def s_Roll(self, s):
        faces, typ = self.die(s.die, s.span)
        side = self.side_or_default(s.side, s.span)
        slot = self.local.slot(s.name, typ)
        self.emit(RollOp(slot, faces, side), s.span)

    def s_Answer(self, s):
        question, _ = self.expect(s.question, "question", "the question answered")
        side = self.side_or_default(s.side, s.span)
        chance, _ = self.expect(s.chance, "number", "the chance in 100 of a right answer")
        slot = self.local.slot(s.name, "flag")
        self.emit(AnswerOp(slot, question, side, chance), s.span)

    def s_RollPool(self, s):
        parts, typ = [], "none"
        for part in s.dice:
            count, _ = self.expect(part.count, "number", "how many dice")
            faces, t = self.die(part.die, part.span)
            if typ != "none" and t != typ and "any" not in (t, typ):
                self.sink.add("E203", f"the dice of one roll must all have number faces or all text faces; "
                              f"`{part.die}` has {t} faces", part.span, "roll them into two lists")
            typ = t if typ == "none" else typ
            parts.append((count, faces))
        side = self.side_or_default(s.side, s.span)
        slot = self.local.slot(s.name, "list:" + typ)
        plan, got = self.local.hidden("dice"), self.local.hidden("rolled")

        def plan_(m, fr):
            L = fr[2]
            L[plan] = tuple(faces for count, faces in parts for _ in range(max(count(m, L) or 0, 0)))
            L[got] = ()
            fr[1] += 1
        plan_.block = STEP   # it halts or goes on to the next instruction
        self.emit(plan_, s.span)
        pool = PoolOp(slot, plan, got, side)
        pool.block = STEP   # it records a die's chance decision, or sets the list and goes on
        self.emit(pool, s.span)

    def s_RemoveSide(self, s):
        f, _ = self.expect(s.side, "side", "the side removed from play")
        out = self.out_slot

        def remove(m, fr):
            side = f(m, fr[2])
            if side is not None and side not in m.st.g[out]:
                m.st.g[out] = tuple(sorted(m.st.g[out] + (side,)))
                m.emit(fr, f"{m.fmt(side, 'side')} takes no part in this game")
            fr[1] += 1
        remove.block = STEP   # it halts or goes on to the next instruction
        self.emit(remove, s.span)

    def s_Win(self, s):
        f, _ = self.expect(s.side, "side", "the winner")
        out = self.out_slot

        def win(m, fr):
            w = f(m, fr[2])
            gone = m.st.g[out]   # a side out of play neither wins nor loses
            m.st.result = [1.0 if i == w else 0.0 if i in gone else -1.0 for i in range(m.cg.nsides)]
            m.halt = True
            if m.events is not None:  # no text is built when nobody logs
                m.emit(fr, f"{m.fmt(w, 'side')} wins")
            fr[1] += 1
        self.emit(win, s.span)

    def s_Tie(self, s):
        def tie(m, fr):
            m.st.result = [0.0] * m.cg.nsides
            m.halt = True
            m.emit(fr, "the game ends in a draw")
            fr[1] += 1
        self.emit(tie, s.span)

    def s_PlayCard(self, s):
        if isinstance(s.card, N.Attr) and s.card.name.endswith("_effect"):
            self.play_named_effect(s)
            return
        c, _ = self.expect(s.card, "card", "the card played")
        side, _ = self.expect(s.side, "side", "who plays it")

        def play(m, fr):
            L = fr[2]
            card, who = c(m, L), side(m, L)
            fr[1] += 1
            if card is None:
                return
            cdef = m.cg.card_defs[m.cg.cards[card].definition]
            if cdef.effect >= 0:
                if m.played is not None:
                    m.played.add((card, "effect"))
                m.call(cdef.effect, [who, card])
        play.block = STEP   # it halts or goes on to the next instruction
        self.emit(play, s.span)

    def play_named_effect(self, s):
        """`play card.fast_effect by s`: run the statements of the card's `fast_effect` field
        (a card without one does nothing)."""
        c, _ = self.expect(s.card.obj, "card", "the card played")
        self.attribute("card", s.card.name, s.card.span)   # E202 when the schema has no such field
        side, _ = self.expect(s.side, "side", "who plays it")
        key = s.card.name

        def play_effect(m, fr):
            L = fr[2]
            card, who = c(m, L), side(m, L)
            fr[1] += 1
            if card is None:
                return
            proc = m.cg.card_defs[m.cg.cards[card].definition].effects.get(key, -1)
            if proc >= 0:
                if m.played is not None:
                    m.played.add((card, key))
                m.call(proc, [who, card])
        play_effect.block = STEP   # it halts or goes on to the next instruction
        self.emit(play_effect, s.span)

    def s_Announce(self, s):
        sig = self.user_events.get(s.event, (None,))[0]
        if sig is None:
            if s.event in self.EVENTS:
                self.sink.add("E206", f"`{s.event}` is announced by the verb itself, not by `announce`", s.span,
                              "declare an event of the game's own: `event NAME(...)`")
            else:
                self.sink.add("E209", f"unknown event `{s.event}`", s.span, self.events_hint(s.event))
            return
        if len(s.args) != len(sig):
            self.sink.add("E204", f"`{s.event}` carries {len(sig)} value(s), not {len(s.args)}", s.span,
                          f"announce {s.event}({', '.join(sig)})")
            return
        fns = [self.expect(a, k, f"value {i + 1} of `{s.event}`")[0] for i, (a, k) in enumerate(zip(s.args, sig))]
        event = s.event

        def announce(m, fr):
            L = fr[2]
            values = [f(m, L) for f in fns]
            fr[1] += 1
            if event in m.hooks:
                m.fire(event, values)
        self.emit(announce, s.span)

    def s_Log(self, s):
        text = self.template(s.text)

        def log(m, fr):
            if m.events is not None:
                m.emit(fr, text(m, fr[2]))
            fr[1] += 1
        log.block = ("log", text)
        self.emit(log, s.span)

    # -- decisions
    def s_Choose(self, s):
        f, t = self.expr(s.options)
        el = element(t)
        if el is None:
            self.sink.add("E203", f"`choose` picks from a list, not {describe(t)}", s.options.span,
                          "choose from a list, a zone or `... where ...`")
            el = "any"
        side = self.side_or_default(s.side, s.span)
        slot = self.local.slot(s.name, el)
        if s.label is not None:
            label = self.template(s.label)

            def describe_fn(m, L, value, label=label, slot=slot):
                scratch = L[:]
                scratch[slot] = value
                return label(m, scratch)
        else:
            def describe_fn(m, L, value, el=el):
                return m.fmt(value, el)
        self.emit(ChooseOp(slot, f, side, s.optional, describe_fn, s.name, el), s.span)

    def s_DoAction(self, s):
        ids = []
        for name, span in s.actions:
            sym = self.symbols.get(name)
            if sym is None or sym.what != "action":
                from lumos.diagnostics import did_you_mean
                acts = [x.name for x in self.symbols.values() if x.what == "action"]
                self.sink.add("E208", f"unknown action `{name}`", span, did_you_mean(name, acts))
                continue
            sym.used = True
            ids.append(self.action_index(sym))
        side = self.side_or_default(s.side, s.span)
        self.emit(ActOp(tuple(ids), side, s.optional), s.span)

    def s_Menu(self, s):
        side = self.side_or_default(s.side, s.span)
        guards, labels, targets = [], [], []
        op_index = self.here()
        self.emit(None, s.span)  # patched below
        end = Cell()
        for opt in s.options:
            guards.append(self.expect(opt.guard, "flag", "the option's condition")[0] if opt.guard else None)
            labels.append(self.template(opt.label))
            cell = Cell()
            cell.pc = self.here()
            targets.append(cell)
            self.block(opt.body)
            self.emit(_jump(end), opt.span)
        targets.append(end)
        end.pc = self.here()
        self.code[op_index] = MenuOp(side, guards, labels, targets)

    # -- calls and control flow
    def s_CallStmt(self, s):
        sym = self.symbols.get(s.func)
        if sym is not None and sym.what == "procedure":
            self.call_procedure(N.Call(s.span, s.func, s.args), s)
            return
        if sym is not None and sym.what == "function":
            self.sink.add("E207", f"`{s.func}` is a function: its value must be used", s.span,
                          f"write `let x = {s.func}(...)`")
            return
        from lumos.diagnostics import did_you_mean
        procs = [x.name for x in self.symbols.values() if x.what == "procedure"]
        self.sink.add("E205", f"unknown procedure `{s.func}`", s.span, did_you_mean(s.func, procs))

    def call_procedure(self, call, stmt, result_name=None):
        sym = self.symbols[call.func]
        sym.used = True
        decl = sym.value
        if len(call.args) != len(decl.params):
            self.sink.add("E204", f"`{call.func}` takes {len(decl.params)} argument(s), not {len(call.args)}",
                          call.span, f"{call.func}({', '.join(decl.params)})")
            return
        args = self.typed_args(decl, call.args)
        index, rtype = self.procedure_instance(decl, tuple(t for _, t in args))
        fns = [f for f, _ in args]
        slot = self.local.slot(result_name, rtype[0]) if result_name else -1

        def call_(m, fr):
            L = fr[2]
            values = [f(m, L) for f in fns]
            fr[1] += 1
            m.call(index[0], values, slot)

        procs = self.procs   # complete by the time a run's text is written (its first run)

        def text(pc):
            """The arguments left to right, then what Machine.call does, in line: the callee's
            locals padded with none (its size known by now), its frame pushed, the run halted;
            a call of the procedure a position's reader stops at goes through Machine.call."""
            parts = [_src(f) for f in fns]
            names = {}
            for _t, n in parts:
                names.update(n)
            proc = int(index[0])
            values = [t for t, _n in parts] + ["None"] * (procs[proc].nlocals - len(parts))
            return ([f"_bv = [{', '.join(values)}]", f"fr[1] = {pc + 1}",
                     f"if m.stop_at == {proc}:", f"    m.call({proc}, _bv, {int(slot)})", "else:",
                     f"    m.st.frames.append([{proc}, 0, _bv, {int(slot)}])", "    m.halt = True"], names)
        if specialised() and len(fns) <= 2:
            # the arguments' list without a comprehension (its own frame in this Python)
            if not fns:
                def call_(m, fr):
                    fr[1] += 1
                    m.call(index[0], [], slot)
            elif len(fns) == 1:
                f0 = fns[0]

                def call_(m, fr):
                    values = [f0(m, fr[2])]
                    fr[1] += 1
                    m.call(index[0], values, slot)
            else:
                f0, f1 = fns

                def call_(m, fr):
                    L = fr[2]
                    values = [f0(m, L), f1(m, L)]
                    fr[1] += 1
                    m.call(index[0], values, slot)
        if specialised():
            call_.block = ("tail", text)
        self.emit(call_, stmt.span)

    def s_Return(self, s):
        if s.value is None:
            op = lambda m, fr: m.return_from(None)  # noqa: E731
            op.block = ("tail", lambda pc: (_returned("None"), _NO_NAMES))
            self.emit(op, s.span)
            return
        f, t = self.expr(s.value)
        self.return_types.append(t)
        op = lambda m, fr: m.return_from(f(m, fr[2]))  # noqa: E731

        def text(pc):
            value, names = _src(f)
            return _returned(value), names
        if specialised():
            op.block = ("tail", text)
        self.emit(op, s.span)

    def s_Break(self, s):
        if not self.loops:
            self.sink.add("E207", "`stop` can only be used inside a loop", s.span,
                          "use `return` to leave a procedure")
            return
        self.emit(_jump(self.loops[-1]), s.span)

    def s_Pass(self, s):
        def pass_(m, fr):
            fr[1] += 1
        pass_.block = ("pass",)
        self.emit(pass_, s.span)

    def s_If(self, s):
        end = Cell()
        for cond, body in s.branches:
            c, _ = self.expect(cond, "flag", "the condition of `if`")
            skip = Cell()

            def test(m, fr, c=c, skip=skip):
                if c(m, fr[2]):
                    fr[1] += 1
                else:
                    fr[1] = skip.pc
            test.block = ("test", c, skip)
            self.emit(test, cond.span)
            self.block(body)
            self.emit(_jump(end), cond.span)
            skip.pc = self.here()
        self.block(s.other)
        end.pc = self.here()

    def s_ForEach(self, s):
        f, t = self.expr(s.items)
        el = element(t)
        if el is None:
            self.sink.add("E203", f"`for each` walks a list, not {describe(t)}", s.items.span,
                          "to do something N times, write `repeat N times:`" if t == "number" else "")
            el = "any"
        var = self.local.slot(s.name, el)
        lst, idx = self.local.hidden("list", "list:" + el), self.local.hidden("index", "number")
        is_zone = t == "zone"

        def init(m, fr):
            L = fr[2]
            v = f(m, L)
            L[lst] = tuple(m.st.zones[v]) if is_zone else tuple(v or ())
            L[idx] = 0
            fr[1] += 1
        init.block = ("each", f, lst, idx, is_zone)
        self.emit(init, s.span)
        end = Cell()
        top = self.here()

        def next_(m, fr):
            L = fr[2]
            i = L[idx]
            items = L[lst]
            if i >= len(items):
                fr[1] = end.pc
            else:
                L[var] = items[i]
                L[idx] = i + 1
                fr[1] += 1
        next_.block = ("next", lst, idx, var, end)
        self.emit(next_, s.span)
        self.loop_body(s.body, end, top, s.span)

    def loop_body(self, body, end, top, span):
        self.loops.append(end)
        self.block(body)
        self.loops.pop()

        def back(m, fr):
            fr[1] = top
        back.block = ("jump", Cell())
        back.block[1].pc = top
        self.emit(back, span)
        end.pc = self.here()

    def s_Repeat(self, s):
        f, _ = self.expect(s.count, "number", "the number of times")
        n = self.local.hidden("count")

        def init(m, fr):
            fr[2][n] = f(m, fr[2]) or 0
            fr[1] += 1
        init.block = ("times", n, f)
        self.emit(init, s.span)
        end = Cell()
        top = self.here()

        def test(m, fr):
            L = fr[2]
            if L[n] <= 0:
                fr[1] = end.pc
            else:
                L[n] -= 1
                fr[1] += 1
        test.block = ("count", n, end)
        self.emit(test, s.span)
        self.loop_body(s.body, end, top, s.span)

    def s_While(self, s):
        c, _ = self.expect(s.cond, "flag", "the condition of `while`")
        end = Cell()
        top = self.here()

        def test(m, fr):
            if c(m, fr[2]):
                fr[1] += 1
            else:
                fr[1] = end.pc
        test.block = ("test", c, end)
        self.emit(test, s.span)
        self.loop_body(s.body, end, top, s.span)

    def s_Loop(self, s):
        end = Cell()
        top = self.here()
        self.loop_body(s.body, end, top, s.span)
