"""Expressions (AST) -> closures `fn(machine, locals)`, checking names, kinds and arity on the way.

Each `e_<Node>` returns (closure, type). A problem is reported to the sink and a
harmless closure of type `any` is returned, so one run reports every problem.
"""
from __future__ import annotations

from lumos.compiler import nodes as N
from lumos.compiler.fused import (_NO_NAMES, _Recipe, _arith_text, _around, _const, _count_of, _end_text, _exists,
                                  _in_sets_text, _length_of, _in_text, _method_text, _zone_cards_text,
                                  _first_memo, _first_of, _grid_offsets, _has_src, _joined, _last_of, _lazy, _local, _memo,
                                  _mark_never_none, _memo_then, _mentions, _merge, _name, _never_none, _offset_text,
                                  _quantifier, _first_search, _reach_search, _src, _walk_search, _where_text, _with_src, specialised)
from lumos.compiler import static_search
from lumos.compiler.invariant import candidates, first_use, resetting
from lumos.compiler.scope import compatible, describe, element, unify
from lumos.diagnostics import did_you_mean
from lumos.interpreter.routes import sure_route

_BAD = (_const(None), "any")
_PLAIN_WALKS = 1 << 16      # walks with no condition kept per search site (a bound on memory)


class Bound(tuple):
    """(slot, type) of a parameter of an inlined call given a constant: its body reads the
    constant (`const`, as _const), so what depends only on it is folded while lowering."""

    def __new__(cls, slot: int, typ: str, const: tuple):
        entry = super().__new__(cls, (slot, typ))
        entry.const = const
        return entry


def _bound(slot: int, typ: str, const: tuple, f) -> Bound:
    """A parameter given a constant; given an unrolled loop's item, it is that item too."""
    entry = Bound(slot, typ, const)
    if getattr(f, "bound_slot", None) is not None:
        entry.unrolled = True
    return entry


UNROLL_ITEMS = 12    # the longest list a quantifier is unrolled over (e_Quantifier)
UNROLL_COPIES = 64   # the most copies of a condition unrolled quantifiers nested in one another make

# builtin functions: name -> (argument types, result type or a rule)
BUILTINS = {
    "count": (("list",), "number"),
    "first": (("list",), "element"),
    "last": (("list",), "element"),
    "other": (("side",), "side"),
    "occupant": (("space",), "piece"),
    "occupants": (("space",), "list:piece"),
    "full": (("space",), "flag"),
    "distance": (("space", "space", "link"), "number"),
    "toward": (("space", "space", "number", "link"), "space"),
    "closest": (("list:piece", "space", "link"), "list:piece"),
    "offset": (("space", "number", "number"), "space"),
    "max": (("list:number",), "number"),
    "min": (("list:number",), "number"),
    "sum": (("list:number",), "number"),
    "playable": (("card", "side"), "flag"),
}


_EXPR_METHODS: dict = {}   # (lowerer class, node class) -> its e_ method


class ExprLowering:
    """Mixin of Lowerer: expression methods. Needs self.sink, self.symbols, self.local."""

    builtins = BUILTINS     # what analyses given a lowering (compiler/static_search.py) read

    def expr(self, node: N.Expr):
        method = _EXPR_METHODS.get((type(self), type(node)))
        if method is None:
            method = _EXPR_METHODS[type(self), type(node)] = getattr(type(self), "e_" + type(node).__name__)
        marks = getattr(self, "first_marks", None)
        if marks and id(node) in marks:
            # a part of a `where` condition that is the same for every item (compiler/invariant.py)
            del marks[id(node)]
            f, t = method(self, node)
            f = first_use(f)
            self.first_cells.append(f.cell)
            return f, t
        return method(self, node)

    def expect(self, node: N.Expr, want: str, what: str = ""):
        fn, typ = self.expr(node)
        if not compatible(typ, want) and not (want == "list" and element(typ) is not None):
            self.sink.add("E203", f"{what or 'this'} should be {describe(want)}, not {describe(typ)}",
                          node.span, self.kind_hint(want, typ))
        return fn, typ

    def kind_hint(self, want: str, got: str) -> str:
        if want == "space" and got == "piece":
            return "use `.space` to get the space a piece stands on"
        if want == "flag" and got.startswith("list:"):
            return "test a list with `is empty` / `is not empty`"
        if want.startswith("list") and got in ("piece", "space", "card", "side"):
            return "put it in a list: `[x]`"
        if want == "side" and got in ("piece", "card"):
            return "use `.side` for the side a piece belongs to" if got == "piece" else \
                "use `.deck` for the side whose deck a card is in"
        return ""

    # -- literals and names
    def e_Num(self, n):
        return _const(n.value), "number"

    def e_Str(self, n):
        return _const(n.value), "text"

    def e_Bool(self, n):
        return _const(n.value), "flag"

    def e_NoneLit(self, n):
        return _const(None), "none"

    def e_Name(self, n):
        if n.name in self.local.names:
            entry = self.local.names[n.name]
            slot, typ = entry
            if type(entry) is Bound:   # a parameter given a constant (inline_call): that constant
                fn = _const(entry.const[0])
                if getattr(entry, "unrolled", False):   # an unrolled loop's item (e_Quantifier)
                    fn.bound_slot = slot
                return fn, typ
            return _local(slot), typ
        sym = self.symbols.get(n.name)
        if sym is None:
            known = list(self.local.names) + list(self.symbols)
            self.sink.add("E201", f"unknown name `{n.name}`", n.span,
                          did_you_mean(n.name, known) or "declare it, or check the spelling")
            return _BAD
        sym.used = True
        if sym.what == "die":  # a die, as a value, is its name (see `die_value`)
            return _const(n.name), "die"
        if sym.what == "cards":
            return (lambda m, L: tuple(range(len(m.cg.cards)))), "list:card"
        if sym.what == "sides":   # the sides still in play, in their order
            every, out = sym.value, self.out_slot
            fn = lambda m, L: tuple(s for s in every if s not in m.st.g[out]) if m.st.g[out] else every  # noqa: E731
            c = _name()
            return _with_src(fn, f"{c}(m, L)", {c: fn}), sym.type
        if sym.what in ("var", "option"):
            slot = sym.value
            return _with_src(lambda m, L: m.st.g[slot], f"m.st.g[{slot}]", _NO_NAMES), sym.type
        if sym.what in ("function", "procedure", "action", "zone-decl"):
            self.sink.add("E207", f"`{n.name}` is a {sym.what}, not a value", n.span,
                          f"call it: `{n.name}(...)`" if sym.what == "function" else "")
            return _BAD
        return _const(sym.value), sym.type

    def e_My(self, n):
        return self.e_Attr(N.Attr(n.span, N.Name(n.span, "me"), n.name))

    def e_Attr(self, n):
        errors = len(self.sink.items)
        of, typ = self.expr(n.obj)
        if typ == "any":
            # The kind is not known here (a parameter of a procedure that is never called);
            # still catch a name that is no attribute of anything, unless `n.obj` was wrong.
            known = {name for table in self.attributes.values() for name in table}
            if len(self.sink.items) == errors and n.name not in known:
                self.sink.add("E202", f"no value has an attribute `{n.name}`", n.span,
                              did_you_mean(n.name, known) or "")
            return _BAD
        if typ.startswith("list:") or typ == "zone":
            return self.list_attribute(of, typ, n)
        getter = self.attribute(typ, n.name, n.span)
        if getter is None:
            return _BAD
        get, rtype = getter
        table = getattr(get, "table", None)
        slot = getattr(of, "slot", None)
        if table is not None and specialised() and hasattr(of, "const"):
            # an attribute that never changes, of a value known when compiling (`ball.kind` of a named piece)
            v = of.const[0]
            if v is None or (type(v) is int and 0 <= v < len(table)):
                return _const(None if v is None else table[v]), rtype
        if table is None and specialised() and hasattr(of, "const") and type(of.const[0]) is int:
            # of a value known when compiling (a named piece): never none, so read without a test
            return self.attribute_of_constant(get, of.const[0]), rtype
        if table is not None:
            if slot is not None:
                fn = lambda m, L: None if (v := L[slot]) is None else table[v]  # noqa: E731
                v, t = _name(), _name()
                fn.src = (f"(None if ({v} := L[{slot}]) is None else {t}[{v}])", {t: table})
            else:
                fn = lambda m, L: None if (v := of(m, L)) is None else table[v]  # noqa: E731
                if specialised() and _has_src(of):
                    v, t = _name(), _name()
                    _lazy(fn, lambda: _around(of, f"(None if ({v} := ", f") is None else {t}[{v}])", {t: table}))
            fn.static = (table, slot, of)   # lets comparisons and `in` precompute what they can
            return fn, rtype
        if getattr(get, "piece_space", False):
            # `p.space`, read in every movement rule: the common case (a piece standing on
            # a space, carried by nobody) without a call
            def piece_space(m, L):
                v = L[slot] if slot is not None else of(m, L)
                if v is None:
                    return None
                st = m.st
                if st.holder[v] < 0:
                    loc = st.loc[v]
                    return None if loc < 0 else loc
                return m.space_of(v)
            v, loc = _name(), _name()
            if slot is not None:
                piece_space.src = (f"(None if ({v} := L[{slot}]) is None else ((None if ({loc} := m.st.loc[{v}]) < 0 "
                                   f"else {loc}) if m.st.holder[{v}] < 0 else m.space_of({v})))", _NO_NAMES)
            elif specialised() and _has_src(of):
                _lazy(piece_space, lambda: _around(
                    of, f"(None if ({v} := ", f") is None else ((None if ({loc} := m.st.loc[{v}]) < 0 "
                    f"else {loc}) if m.st.holder[{v}] < 0 else m.space_of({v})))"))
            return piece_space, rtype
        column = getattr(get, "column", None)
        if column is not None and slot is not None:
            field, k = column   # a variable per piece or per side, read straight from the state
            v = _name()
            text = f"(None if ({v} := L[{slot}]) is None else m.st.{field}[{k}][{v}])"
            if field == "pv":
                return _with_src(lambda m, L: None if (v := L[slot]) is None else m.st.pv[k][v], text, _NO_NAMES), rtype
            if field == "xv":
                return _with_src(lambda m, L: None if (v := L[slot]) is None else m.st.xv[k][v], text, _NO_NAMES), rtype
            if field == "cv":
                return _with_src(lambda m, L: None if (v := L[slot]) is None else m.st.cv[k][v], text, _NO_NAMES), rtype
            return _with_src(lambda m, L: None if (v := L[slot]) is None else m.st.sv[k][v], text, _NO_NAMES), rtype
        if column is not None and specialised() and _has_src(of):
            field, k = column   # read straight from the state, the value computed in line
            fn = lambda m, L: None if (v := of(m, L)) is None else get(m, v)  # noqa: E731
            v = _name()
            _lazy(fn, lambda: _around(of, f"(None if ({v} := ", f") is None else m.st.{field}[{k}][{v}])"))
            return fn, rtype
        inline = getattr(get, "inline", None)
        if inline is not None and specialised() and (slot is not None or _has_src(of)):
            # a getter with a text of its own (compiler/lower.py's `_inline`): read in line
            fn = lambda m, L: None if (v := of(m, L)) is None else get(m, v)  # noqa: E731
            v, h = _name(), _name()
            return _lazy(fn, lambda: _around(of, f"(None if ({v} := ", f") is None else {inline(v, h)})")), rtype
        g, v = _name(), _name()
        if slot is not None:
            return _with_src(lambda m, L: None if (v := L[slot]) is None else get(m, v),
                             f"(None if ({v} := L[{slot}]) is None else {g}(m, {v}))", {g: get}), rtype
        fn = lambda m, L: None if (v := of(m, L)) is None else get(m, v)  # noqa: E731
        if _has_src(of):
            _lazy(fn, lambda: _around(of, f"(None if ({v} := ", f") is None else {g}(m, {v}))", {g: get}))
        return fn, rtype

    @staticmethod
    def attribute_of_constant(get, value: int):
        """get(m, value) for a value known when compiling, with the text e_Attr writes for a value
        that may be none, without its test."""
        c, h = _name(), _name()
        column = getattr(get, "column", None)
        inline = getattr(get, "inline", None)
        if getattr(get, "piece_space", False):
            text = f"((None if ({h} := m.st.loc[{c}]) < 0 else {h}) if m.st.holder[{c}] < 0 else m.space_of({c}))"
        elif column is not None:
            text = f"m.st.{column[0]}[{int(column[1])}][{c}]"
        elif inline is not None:
            text = inline(c, h)
        else:
            g = _name()
            return _with_src(lambda m, L: get(m, value), f"{g}(m, {c})", {g: get, c: value})
        return _with_src(lambda m, L: get(m, value), f"({text})", {c: value})

    def list_attribute(self, of, typ: str, n):
        """`LIST.NAME`: the list of each item's NAME, in order (`sum(s.hand.cost)`); none stays none."""
        el = element(typ)
        getter = self.attribute(el, n.name, n.span) if el not in ("any", "none") else None
        if getter is None:
            if el in ("any", "none"):
                return (lambda m, L: ()), "list:any"
            return _BAD
        get, rtype = getter
        if typ == "zone":
            return (lambda m, L: () if (z := of(m, L)) is None else
                    tuple(get(m, x) for x in m.st.zones[z])), "list:" + rtype
        return (lambda m, L: tuple(None if x is None else get(m, x) for x in of(m, L) or ())), "list:" + rtype

    def attribute(self, typ: str, name: str, span):
        """(getter(machine, value), type) for `value.name` on a value of `typ`, or None."""
        table = self.attributes.get(typ, {})
        if name in table:
            return table[name]
        known = list(table)
        self.sink.add("E202", f"{describe(typ)} has no attribute `{name}`", span,
                      did_you_mean(name, known) or
                      (f"attributes of {describe(typ)}: {', '.join(sorted(known))}" if known else ""))
        return None

    def e_ListLit(self, n):
        parts = [self.expr(i) for i in n.items]
        typ = "any" if not parts else parts[0][1]
        for _fn, t in parts[1:]:
            typ = unify(typ, t)
        fns = [f for f, _ in parts]
        rtype = "list:" + typ if parts else "list:none"
        if not fns and specialised():
            return _const(()), rtype   # `[]`: the empty tuple every run would build
        if fns and (specialised() or any(_has_src(f) for f in fns)):   # no generator per run
            def make():
                srcs = [_src(f) for f in fns]
                return "(" + "".join(f"{t}, " for t, _n in srcs) + ")", _merge(*srcs)
            # a list of values known when compiling, none of them none (named pieces): no item is none
            fn = _mark_never_none(_joined(make), all(getattr(f, "const", (None,))[0] is not None for f in fns))
            if all(hasattr(f, "const") or hasattr(f, "items_const") for f in fns):
                # its items (lists of them too), for a quantifier unrolled over it
                fn.items_const = tuple(f.const[0] if hasattr(f, "const") else f.items_const for f in fns)
            return fn, rtype
        return (lambda m, L: tuple(f(m, L) for f in fns)), rtype

    def listed(self, node):
        """Lower an expression used as a list: a zone reads as the tuple of its cards."""
        f, t = self.expr(node)
        if t == "zone":
            fn = lambda m, L: tuple(m.st.zones[f(m, L)])  # noqa: E731
            if specialised() and _has_src(f):
                _lazy(fn, lambda: _around(f, "tuple(m.st.zones[", "])"))
            return _mark_never_none(fn), "list:card"   # a zone holds card numbers only
        return f, t

    def e_Where(self, n):
        src, styp = self.listed(n.source)
        el = element(styp)
        if el is None:
            self.sink.add("E203", f"`where` filters a list, not {describe(styp)}", n.source.span, "")
            return _BAD
        # Parts of an `and` that never mention `it` are the same for every item: test them once.
        parts = list(n.cond.items) if isinstance(n.cond, N.BoolOp) and n.cond.op == "and" else [n.cond]
        steady = [p for p in parts if not _mentions(p, "it") and not (n.name and _mentions(p, n.name))]
        if steady and len(steady) < len(parts):
            guard = self._chain("and", [self.expect(p, "flag", "the condition after `where`")[0] for p in steady])
            rest = [p for p in parts if p not in steady]
            cond_node = rest[0] if len(rest) == 1 else N.BoolOp(n.cond.span, "and", tuple(rest))
        else:
            guard, cond_node = None, n.cond
        slot, restore = self.local.scoped("it", el)
        named = None
        if n.name is not None:   # `S as c where ...`: `c` is the item too, also inside a nested `where`
            named = self.local.names.get(n.name)
            self.local.names[n.name] = (slot, el)
        depth = getattr(self, "where_depth", 0)
        if depth and n.name is None:
            self.nested_it(n.cond)
        self.where_depth = depth + 1
        saved_marks = getattr(self, "first_marks", None), getattr(self, "first_cells", None)
        self.first_marks, self.first_cells = None, []
        if specialised():
            found = candidates(cond_node, ("it",) + ((n.name,) if n.name else ()), self)
            self.first_marks = {id(x): x for x in found}   # the nodes kept alive: their ids stay theirs
        try:
            cond, _ = self.expect(cond_node, "flag", "the condition after `where`")
            cells = self.first_cells
            owns = len(self.local.slot_names) > slot + 1   # the condition made slots of its own
            remembered = _steady_first(self, src, cond_node, slot) if specialised() and not owns else None
        finally:
            self.where_depth = depth
            self.first_marks, self.first_cells = saved_marks
            if n.name is not None:
                if named is None:
                    self.local.names.pop(n.name, None)
                else:
                    self.local.names[n.name] = named
            restore()

        member = getattr(cond, "member", None)
        if member is not None and member[0] == slot:
            _s, hits, want = member
            # the item slot is left holding the last item, as the loop below leaves it
            # (it is part of a saved state)
            if want:
                def where(m, L):
                    items = src(m, L)
                    if not items:
                        return ()
                    L[slot] = items[-1]
                    return tuple([x for x in items if x in hits])
            else:
                def where(m, L):
                    items = src(m, L)
                    if not items:
                        return ()
                    L[slot] = items[-1]
                    return tuple([x for x in items if x not in hits])
        else:
            def where(m, L):
                out = []
                for x in src(m, L) or ():  # none filters like an empty list
                    L[slot] = x
                    if cond(m, L):
                        out.append(x)
                return tuple(out)
            if _has_src(cond):
                where = _joined(_where_text(src, cond, slot, cells))
        exists = None
        if member is None and specialised() and getattr(self, "scratch", False):
            exists = _exists(src, cond, slot, guard)   # for `... is (not) empty` (e_IsEmpty)
        elif member is None and specialised() and not owns and not cells:
            exists = _exists(src, cond, slot, guard, where)   # the item slot left as the filter leaves it
        # `first(S where C)` stops at the first item (b_first): only when C writes no slot but the
        # item's, which is then left as the whole filter leaves it
        find = None if owns else self.first_finder(src, cond, slot, member)
        if find is not None and remembered is not None and not cells:
            find = _first_memo(find, remembered[0], slot, remembered[1])
        if cells:   # each run of the filter starts with its same-for-every-item parts unknown
            where, exists, find = resetting(where, cells), resetting(exists, cells), resetting(find, cells)
        if guard is not None:
            def guarded_where(m, L):
                return where(m, L) if guard(m, L) else ()
            if specialised() and (_has_src(where) or _has_src(guard)):
                def make():   # the test first, then the filter
                    (wt, wn), (gt, gn) = _src(where), _src(guard)
                    return f"(({wt}) if ({gt}) else ())", {**wn, **gn}
                _lazy(guarded_where, make)
            if exists is not None:
                guarded_where.exists = exists
            if find is not None:
                guarded_where.first_of = _guarded_first(find, guard)
            guarded_where.always_tuple = True   # a list: never none, never a zone's number (b_count)
            return _mark_never_none(guarded_where, _never_none(src)), ("list:" + el if styp != "zone" else "list:card")
        if exists is not None:
            where.exists = exists
        if find is not None:
            where.first_of = find
        where.always_tuple = True
        return _mark_never_none(where, _never_none(src)), ("list:" + el if styp != "zone" else "list:card")

    def first_finder(self, src, cond, slot, member):
        """The function `first(S where C)` is (see e_Where): the first item C holds for, or none."""
        if member is not None and member[0] == slot:
            _s, hits, want = member

            def find_member(m, L):
                items = src(m, L)
                if not items:
                    return None
                L[slot] = items[-1]
                for x in items:
                    if (x in hits) == want:
                        return x
                return None
            return find_member
        if specialised() and _has_src(cond):
            return _first_search(src, cond, slot)

        def find(m, L):
            items = src(m, L) or ()
            for x in items:
                L[slot] = x
                if cond(m, L):
                    L[slot] = items[-1]
                    return x
            return None
        return find

    def e_Quantifier(self, n):
        """`any x in S where C`, `all x in S where C`, `count x in S where C`: C with each item named x
        (`it` keeps meaning what it meant outside, so an outer `where`'s item is still `it`)."""
        src, styp = self.listed(n.source)
        el = element(styp)
        if el is None:
            self.sink.add("E223", f"`{n.kind} {n.var} in` needs a list or a zone, not {describe(styp)}",
                          n.source.span, self.kind_hint("list", styp) or
                          f"write `{n.kind} {n.var} in LIST where CONDITION`")
            return _BAD
        slot, restore = self.local.scoped(n.var, el)
        first = len(self.local.slot_names)
        errors = len(self.sink.items)
        try:
            cond, _ = self.expect(n.cond, "flag", f"the condition after `{n.kind} {n.var} in ... where`")
        finally:
            restore()
        kind = n.kind
        if specialised() and len(self.sink.items) == errors:
            unrolled = self.unrolled(n, src, el, slot, first)
            if unrolled is not None:
                return unrolled, "number" if kind == "count" else "flag"
        if specialised() and (_has_src(cond) or _has_src(src)):
            return _quantifier(kind, src, cond, slot), "number" if kind == "count" else "flag"

        # the item slot is left holding none afterwards: a saved state holds every local, and
        # what the last item was must not depend on where the test stopped
        if kind == "any":
            def quantified(m, L):
                found = False
                for x in src(m, L) or ():
                    L[slot] = x
                    if cond(m, L):
                        found = True
                        break
                L[slot] = None
                return found
            return quantified, "flag"
        if kind == "all":
            def quantified(m, L):
                held = True
                for x in src(m, L) or ():
                    L[slot] = x
                    if not cond(m, L):
                        held = False
                        break
                L[slot] = None
                return held
            return quantified, "flag"

        def counted(m, L):
            n_ = 0
            for x in src(m, L) or ():
                L[slot] = x
                if cond(m, L):
                    n_ += 1
            L[slot] = None
            return n_
        return counted, "number"

    def unrolled(self, n, src, el, slot, first):
        """`any x in L where C` / `all ...` over a short list known when compiling, as the chain
        `C[x=a] or C[x=b] or ...` (`and` for `all`; for `count`, the sum of their truths): C lowered once per item with x that item
        (Bound), so what depends on it folds (`offset(s, k * first(d), ...)` becomes a table
        read). The same parts run in the same order and stop where the loop stops. The item's
        slot is never written: the loop leaves it none, and nothing in C reads it (x is a
        constant there; a call given x reads the constant, `bound_slot`). Each copy must make
        the same slots as C did (they are the same slots, used one copy after another, as the
        loop uses them one item after another), or the loop is kept. None when not unrolled."""
        items = _known_items(src)
        budget = getattr(self, "unroll_budget", UNROLL_COPIES)
        if not items or len(items) > min(UNROLL_ITEMS, budget):
            return None
        local = self.local
        names_after, types_after = local.slot_names[first:], local.slot_types[first:]
        errors = len(self.sink.items)
        previous = local.names.get(n.var)
        self.unroll_budget = budget // len(items)
        parts, same = [], True
        try:
            for v in items:
                del local.slot_names[first:], local.slot_types[first:]
                entry = Bound(slot, el, (v,))
                entry.unrolled = True
                local.names[n.var] = entry
                parts.append(self.expect(n.cond, "flag", "the condition")[0])
                if local.slot_names[first:] != names_after or len(self.sink.items) != errors:
                    same = False
                    break
        finally:
            self.unroll_budget = budget
            if previous is None:
                local.names.pop(n.var, None)
            else:
                local.names[n.var] = previous
            del local.slot_names[first:], local.slot_types[first:], self.sink.items[errors:]
            local.slot_names += names_after
            local.slot_types += types_after
        if not same:
            return None
        if n.kind == "count":   # every copy runs, in order: the sum of their truths
            known = sum(1 for f in parts if hasattr(f, "const") and f.const[0])
            live = [f for f in parts if not hasattr(f, "const")]
            if not live:
                return _const(known)

            def make():
                tests = [_tested(f) for f in live]
                text = " + ".join(f"(1 if {t} else 0)" for t, _n in tests)
                return (f"{known} + {text}" if known else text), _merge(*tests)
            return _joined(make)
        op = "or" if n.kind == "any" else "and"
        kept = _folded_parts(op, parts, range(len(parts)))
        if kept is None:
            return _const(op == "and")
        if len(kept) == 1:
            f = parts[kept[0]]
            return _const(bool(f.const[0])) if hasattr(f, "const") else _truth(f)
        return self._chain(op, [parts[i] for i in kept])

    def counted_where(self, w):
        """`count(S where C)` over a short list known when compiling (a constant's name, or a
        list written of names and values), C reading `it` in every part of its `and` and making
        no slot of its own: the sum of C's truths, one copy per item with `it` that item (as
        `count x in S where C` is unrolled), after the item slot is given S's last item, where
        the filter leaves it. None when not unrolled (nothing lowered is left behind then)."""
        simple = (N.Name, N.Num, N.Str, N.Bool, N.NoneLit)
        source = w.source
        if w.name is not None or not (isinstance(source, N.Name) or isinstance(source, N.ListLit) and all(
                isinstance(x, simple) or isinstance(x, N.ListLit) and all(isinstance(y, simple) for y in x.items)
                for x in source.items)):
            return None
        parts = list(w.cond.items) if isinstance(w.cond, N.BoolOp) and w.cond.op == "and" else [w.cond]
        if any(not _mentions(p, "it") for p in parts):
            return None        # parts the same for every item: the filter tests them once, first
        errors = len(self.sink.items)
        src, styp = self.listed(source)
        el = element(styp)
        items = _known_items(src) if el is not None else None
        if not items or len(self.sink.items) != errors:
            del self.sink.items[errors:]
            return None
        local = self.local
        slot, restore = local.scoped("it", el)
        depth = getattr(self, "where_depth", 0)
        saved = getattr(self, "first_marks", None), getattr(self, "first_cells", None)
        self.where_depth, self.first_marks, self.first_cells = depth + 1, None, []
        try:
            total = self.unrolled(N.Quantifier(w.span, "count", "it", source, w.cond), src, el, slot, slot + 1)
            cells = self.first_cells
        finally:
            self.where_depth = depth
            self.first_marks, self.first_cells = saved
            restore()
        if total is None or cells:
            del local.slot_names[slot:], local.slot_types[slot:]   # the item slot: the filter makes its own
            return None
        if depth:
            self.nested_it(w.cond)
        last = items[-1]

        def make():
            t, names = _src(total)
            lv = _name()
            return f"(L.__setitem__({slot}, {lv}) or {t})", {**names, lv: last}
        return _joined(make)

    def nested_it(self, cond) -> None:
        """W320: in a `where` nested inside another, two equal operands that read `it`
        (`distance(it.space, it.space, ...)`) test the inner item against itself — almost
        always an `it` meant as the outer item, and a condition silently always true or false."""
        for node in _operand_pairs(cond):
            self.sink.add("W320", "both `it`s here are the item of the inner `where`, so it is compared "
                          "with itself", node.span,
                          "to use the outer item, name it: `LIST as NAME where ...` on the outer `where`, "
                          "then write NAME here (`pieces as p where any q in pieces where distance(p.space, q.space, LINK) <= 2`)",
                          severity="warning")

    def e_IfExpr(self, n):
        c, _ = self.expect(n.cond, "flag", "the condition")
        a, ta = self.expr(n.then)
        b, tb = self.expr(n.other)
        if not compatible(ta, tb):
            self.sink.add("E203", f"both branches should give the same kind of value, not {describe(ta)} "
                          f"and {describe(tb)}", n.span, "")
        if hasattr(c, "const"):   # a constant condition (both branches lowered: their errors are reported)
            return (a if c.const[0] else b), unify(ta, tb)
        if any(_has_src(f) for f in (a, b, c)):
            test = _tested if specialised() else _src

            def make():
                (at, an), (bt, bn), (ct, cn) = _src(a), _src(b), test(c)
                return f"{at} if {ct} else {bt}", {**an, **bn, **cn}
            return _joined(make), unify(ta, tb)
        return (lambda m, L: a(m, L) if c(m, L) else b(m, L)), unify(ta, tb)

    def e_BoolOp(self, n):
        from lumos.compiler.purity import analyse
        facts = [analyse(self, i) for i in n.items]
        fns, owned = [], []
        for i in n.items:
            first = len(self.local.slot_names)
            fns.append(self.expect(i, "flag", f"each side of `{n.op}`")[0])
            owned.append(range(first, len(self.local.slot_names)))   # the slots this part writes
        steady = [i for i, (pure, slots) in enumerate(facts) if pure and slots and -1 not in slots]
        folding = any(hasattr(f, "const") for f in fns)
        if steady and len(fns) > 1 and len(steady) < len(fns) + (1 if len(steady) > 1 else 0):
            # Test the parts that never read the state first, remembered per value of the
            # locals they read; then the rest (see compiler/purity.py).
            rest = [i for i in range(len(fns)) if i not in steady]
            if folding:   # constant parts folded, in this order (the group first, then the rest)
                group = _folded_parts(n.op, fns, steady)
                if group is None:   # every part of the group is a constant that decides nothing
                    return self._folded_chain(n, fns, rest), "flag"
                if len(group) == 1 and hasattr(fns[group[0]], "const"):   # the group decides
                    return _const(bool(fns[group[0]].const[0])), "flag"
                steady, kept = group, _folded_parts(n.op, fns, rest)
                rest = kept if kept is not None else []
            slots = sorted(set().union(*(facts[i][1] for i in steady)))
            bound = {e[0] for e in self.local.names.values() if type(e) is Bound}
            if bound and set(slots) - bound:   # a parameter given a constant is no key
                slots = [s for s in slots if s not in bound]
            clears = sorted(set().union(*(owned[i] for i in steady)))
            group = self._chain(n.op, [fns[i] for i in steady])
            if len(slots) <= 2 and len(rest) == 1:
                return _memo_then(n.op, group, slots, fns[rest[0]], clears), "flag"
            memo = _memo(group, slots, clears)
            return self._chain(n.op, [memo] + [fns[i] for i in rest]), "flag"
        if folding:
            return self._folded_chain(n, fns, range(len(fns))), "flag"
        return self._chain(n.op, fns), "flag"

    def _folded_chain(self, n, fns, order):
        """The chain of the parts `order` (indexes of fns) with its constant parts folded."""
        kept = _folded_parts(n.op, fns, order)
        if kept is None:
            return _const(n.op == "and")
        if len(kept) > 1:
            return self._chain(n.op, [fns[i] for i in kept])
        f = fns[kept[0]]
        if hasattr(f, "const"):
            return _const(bool(f.const[0]))
        if isinstance(n.items[kept[0]], (N.Compare, N.Not, N.BoolOp)):
            return f     # already true or false
        return _truth(f)

    def _chain(self, op, fns):
        if len(fns) == 1:
            return fns[0]
        n_op = op
        def pair(f1, f2):
            if n_op == "and":
                return lambda m, L: True if f1(m, L) and f2(m, L) else False
            return lambda m, L: True if f1(m, L) or f2(m, L) else False
        fast = specialised()
        if len(fns) > 4 and fast and any(_has_src(f) for f in fns):
            return _tests_chain(n_op, fns)   # one text however long: no generator and no call per part
        if len(fns) > 4:  # a long chain as nested pairs would recurse once per item at run time
            if n_op == "and":
                return lambda m, L: all(f(m, L) for f in fns)
            return lambda m, L: any(f(m, L) for f in fns)
        # up to four parts in one closure: no layer per part at run time
        if 2 <= len(fns) <= 4 and fast:
            return _tests_chain(n_op, fns)
        if 2 <= len(fns) <= 4:
            def make():
                parts = [_src(f) for f in fns]
                return f"True if {f' {n_op} '.join(t for t, _n in parts)} else False", _merge(*parts)
            return _joined(make)
        acc = fns[-1]
        for f in reversed(fns[:-1]):
            acc = pair(f, acc)
        return acc

    def e_Not(self, n):
        f, _ = self.expect(n.operand, "flag", "the value after `not`")
        if hasattr(f, "const"):
            return _const(not f.const[0]), "flag"
        if _has_src(f) and specialised():
            return _joined(lambda: _around_test(f, "not ", "")), "flag"
        if _has_src(f):
            return _joined(lambda: _around(f, "not ", "")), "flag"
        return (lambda m, L: not f(m, L)), "flag"

    def e_IsEmpty(self, n):
        f, t = self.listed(n.operand)
        if element(t) is None:
            self.sink.add("E203", f"only a list or a zone can be empty, not {describe(t)}", n.operand.span, "")
        exists = getattr(f, "exists", None)
        stops_early = getattr(exists, "leaves_last", None)
        if exists is not None and specialised() and stops_early and not getattr(self, "scratch", False):
            # the filter's item slot is left as the filter leaves it (fused._exists): stop at the
            # first item when its condition's text may be run on its own, else read the filter
            negated = n.negated

            def make():
                g = exists if stops_early() else f
                if negated:
                    return _around(g, "bool(", ")") if g is f else _around(g, "", "")
                return _around(g, "not ", "")
            return _joined(make), "flag"
        if exists is not None and specialised() and getattr(self, "scratch", False):
            # a filter asked only whether it has an item: stop at the first (see fused._exists)
            if n.negated:
                return exists, "flag"
            return _joined(lambda: _around(exists, "not ", "")), "flag"
        if _has_src(f):
            negated = n.negated
            return _joined(lambda: _around(f, "bool(", ")") if negated else _around(f, "not ", "")), "flag"
        if n.negated:
            return (lambda m, L: bool(f(m, L))), "flag"
        return (lambda m, L: not f(m, L)), "flag"

    def e_Compare(self, n):
        a, ta = self.expr(n.left)
        op = n.op
        if op in ("in", "notin"):
            region = self.region_set(n.right)
            b, tb = self.expr(n.right)
            el = element(tb)
            if el is None:
                self.sink.add("E203", f"`in` needs a list or a zone on its right, not {describe(tb)}", n.right.span,
                              "a card field is a list when the game's schema declares it an array "
                              "(`\"type\": \"array\"`, as `tags`); to compare two texts, write `==`"
                              if tb == "text" else self.kind_hint("list", tb))
            elif not compatible(ta, el):
                self.sink.add("E203", f"cannot look for {describe(ta)} in a list of {describe(el)}", n.span, "")
            if region is not None:
                if hasattr(a, "const"):
                    try:
                        return _const((a.const[0] in region) == (op == "in")), "flag"
                    except TypeError:   # a value that cannot be in a set: left to run (and fail) as before
                        pass
                sa = getattr(a, "slot", None)
                if sa is not None:
                    f = (lambda m, L: L[sa] in region) if op == "in" else (lambda m, L: L[sa] not in region)
                    r = _name()
                    return _with_src(f, f"(L[{sa}] {'in' if op == 'in' else 'not in'} {r})", {r: region}), "flag"
                f = (lambda m, L: a(m, L) in region) if op == "in" else (lambda m, L: a(m, L) not in region)
                if specialised() and _has_src(a):
                    r, word = _name(), "in" if op == "in" else "not in"
                    _lazy(f, lambda: _around(a, "((", f") {word} {r})", {r: region}))
                return f, "flag"
            static = getattr(b, "static", None)
            if static is not None and all(isinstance(v, tuple) for v in static[0]):
                # a per-entity list that never changes (e.g. a region per side): test membership in sets
                sets = tuple(frozenset(v) for v in static[0])
                _t, slot, of = static
                if op == "in":
                    fn = lambda m, L: (w := of(m, L)) is not None and a(m, L) in sets[w]  # noqa: E731
                else:
                    fn = lambda m, L: (w := of(m, L)) is None or a(m, L) not in sets[w]  # noqa: E731
                if specialised():
                    _lazy(fn, _in_sets_text(op == "in", of, a, sets))
                return fn, "flag"
            if tb == "zone":
                b0 = b
                b = lambda m, L: () if (z := b0(m, L)) is None else m.st.zones[z]  # noqa: E731
                if specialised():
                    _lazy(b, _zone_cards_text(b0))
            if op == "in":  # nothing is in none
                fn = lambda m, L: a(m, L) in (b(m, L) or ())  # noqa: E731
            else:
                fn = lambda m, L: a(m, L) not in (b(m, L) or ())  # noqa: E731
            if specialised() and (_has_src(a) or _has_src(b)):
                _lazy(fn, _in_text(op == "in", a, b))
            return fn, "flag"
        b, tb = self.expr(n.right)
        if "die" in (ta, tb):
            self.die_compare(n, ta, tb)
        elif not compatible(ta, tb):
            self.sink.add("E203", f"cannot compare {describe(ta)} with {describe(tb)}", n.span,
                          "both sides of a comparison must be the same kind of value")
        if hasattr(a, "const") and hasattr(b, "const"):
            folded = _folded_compare(op, a.const[0], b.const[0])
            if folded is not None:
                return _const(folded), "flag"
        space_of = getattr(a, "occupant_of", None)
        if space_of is not None and isinstance(n.right, N.NoneLit) and op in ("is", "==", "isnot", "!="):
            # `occupant(s) is none` — the commonest test in movement rules — reads the board once.
            s = getattr(space_of, "slot", None)
            if s is not None:
                x = _name()
                if op in ("is", "=="):
                    return _with_src(lambda m, L: (x := L[s]) is None or m.st.occ[x] < 0,  # noqa: F841
                                     f"(({x} := L[{s}]) is None or m.st.occ[{x}] < 0)", _NO_NAMES), "flag"
                return _with_src(lambda m, L: (x := L[s]) is not None and m.st.occ[x] >= 0,  # noqa: F841
                                 f"(({x} := L[{s}]) is not None and m.st.occ[{x}] >= 0)", _NO_NAMES), "flag"
            known = getattr(space_of, "const", None)
            if specialised() and known is not None and (known[0] is None or type(known[0]) is int):
                # a square known when compiling (an unrolled loop's item): one read of the board
                if known[0] is None:   # no space holds nothing
                    return _const(op in ("is", "==")), "flag"
                k, v = _name(), known[0]
                if op in ("is", "=="):
                    return _with_src(lambda m, L: m.st.occ[v] < 0, f"(m.st.occ[{k}] < 0)", {k: v}), "flag"
                return _with_src(lambda m, L: m.st.occ[v] >= 0, f"(m.st.occ[{k}] >= 0)", {k: v}), "flag"
            if op in ("is", "=="):
                fn = lambda m, L: (x := space_of(m, L)) is None or m.st.occ[x] < 0  # noqa: E731
                test = "({x} := {s}) is None or m.st.occ[{x}] < 0"
            else:
                fn = lambda m, L: (x := space_of(m, L)) is not None and m.st.occ[x] >= 0  # noqa: E731
                test = "({x} := {s}) is not None and m.st.occ[{x}] >= 0"
            if specialised() and _has_src(space_of):   # the space's text in line (a constant one too)
                def make():
                    st, sn = _src(space_of)
                    return "(" + test.format(x=_name(), s=st) + ")", sn
                _lazy(fn, make)
            return fn, "flag"
        static = getattr(a, "static", None)
        if static is not None and hasattr(b, "const") and b.const[0] is not None and op in ("==", "is", "!=", "isnot"):
            # `x.attr == constant` on an attribute that never changes: precompute the matches.
            table, slot, of = static
            const = b.const[0]
            known = self.__dict__.setdefault("_static_hits", {})   # tables live as long as the lowerer
            hits = known.get((id(table), type(const), const))
            if hits is None:
                hits = known[id(table), type(const), const] = frozenset(
                    i for i, v in enumerate(table) if v == const)
            want = op in ("==", "is")
            if slot is not None:
                if want:
                    fn = lambda m, L: L[slot] in hits   # noqa: E731  (none is never in `hits`)
                else:
                    fn = lambda m, L: L[slot] not in hits  # noqa: E731
                fn.member = (slot, hits, want)   # lets `where` filter without a call per item
                h = _name()
                return _with_src(fn, f"(L[{slot}] {'in' if want else 'not in'} {h})", {h: hits}), "flag"

            def static_compare(m, L):
                v = of(m, L)
                return not want if v is None else (v in hits) == want
            if specialised() and _has_src(of):   # none is never in `hits`: a membership test says it all
                h = _name()
                _lazy(static_compare, lambda: _around(of, "((", f") {'in' if want else 'not in'} {h})", {h: hits}))
            return static_compare, "flag"
        if hasattr(b, "const"):
            v = b.const[0]
            sa = getattr(a, "slot", None)
            if op in ("==", "is", "!=", "isnot"):
                py = "==" if op in ("==", "is") else "!="
                c = _name()
                if sa is not None and py == "==":
                    fn = lambda m, L: L[sa] == v  # noqa: E731
                elif sa is not None:
                    fn = lambda m, L: L[sa] != v  # noqa: E731
                elif py == "==":
                    fn = lambda m, L: a(m, L) == v  # noqa: E731
                else:
                    fn = lambda m, L: a(m, L) != v  # noqa: E731
                if not _has_src(a):
                    return fn, "flag"
                if v is None and specialised():   # the values of a game equal none only when they are none
                    return _lazy(fn, lambda: _around(a, "(", " is None)" if py == "==" else " is not None)")), "flag"
                return _lazy(fn, lambda: _around(a, "(", f" {py} {c})", {c: v})), "flag"
        sa, sb = getattr(a, "slot", None), getattr(b, "slot", None)
        if op in ("==", "is", "!=", "isnot") and (_has_src(a) or
                                                  _has_src(b)):
            py = "==" if op in ("==", "is") else "!="

            def make():
                (atext, an), (btext, bn) = _src(a), _src(b)
                return f"{atext} {py} {btext}", {**an, **bn}
            return _joined(make), "flag"
        if op in ("==", "is"):
            if sb is not None:
                return (lambda m, L: a(m, L) == L[sb]), "flag"
            if sa is not None:
                return (lambda m, L: L[sa] == b(m, L)), "flag"
            return (lambda m, L: a(m, L) == b(m, L)), "flag"
        if op in ("!=", "isnot"):
            if sb is not None:
                return (lambda m, L: a(m, L) != L[sb]), "flag"
            if sa is not None:
                return (lambda m, L: L[sa] != b(m, L)), "flag"
            return (lambda m, L: a(m, L) != b(m, L)), "flag"
        for t, side in ((ta, n.left), (tb, n.right)):
            if t not in ("number", "any"):
                self.sink.add("E203", f"`{op}` compares numbers, not {describe(t)}", side.span, "")
        import operator
        fop = {"<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge}[op]

        def cmp(m, L):
            x, y = a(m, L), b(m, L)
            return x is not None and y is not None and fop(x, y)
        if _has_src(a) or _has_src(b):
            fast = specialised()

            def make():
                (atext, an), (btext, bn) = _src(a), _src(b)
                x, y = _name(), _name()
                # a number written in the rules is never none: only the other value is tested
                if fast and _known_number(b):
                    return f"({x} := {atext}) is not None and {x} {op} {btext}", {**an, **bn}
                if fast and _known_number(a):
                    return f"({y} := {btext}) is not None and {atext} {op} {y}", {**an, **bn}
                # both values first (left, then right), as cmp reads them
                return (f"(({x} := {atext}), ({y} := {btext}))[0] is not None and {y} is not None and {x} {op} {y}",
                        {**an, **bn})
            return _joined(make), "flag"
        return cmp, "flag"

    def region_set(self, node):
        """A frozenset when `node` names a region constant, for fast membership tests."""
        if isinstance(node, N.Name) and node.name not in self.local.names:
            sym = self.symbols.get(node.name)
            if sym is not None and sym.what == "region":
                sym.used = True
                return frozenset(sym.value)
        return None

    def e_Arith(self, n):
        f0, t0 = self.expr(n.items[0])
        if set(n.ops) == {"+"} and element(t0) is not None and t0 != "any":
            if t0 == "zone":
                z0 = f0
                f0 = lambda m, L: () if (z := z0(m, L)) is None else tuple(m.st.zones[z])  # noqa: E731
            return self.joined_lists(n, (f0, t0))
        if not compatible(t0, "number"):
            self.sink.add("E203", f"a value in a sum should be {describe('number')}, not {describe(t0)}",
                          n.items[0].span, self.kind_hint("number", t0))
        fns = [f0] + [self.expect(i, "number", "a value in a sum")[0] for i in n.items[1:]]
        ops = n.ops

        def arith(m, L):
            acc = fns[0](m, L)
            for op, f in zip(ops, fns[1:]):
                v = f(m, L)
                if acc is None or v is None:
                    return None
                if op == "+":
                    acc += v
                elif op == "-":
                    acc -= v
                elif op == "*":
                    acc *= v
                elif op == "/":
                    acc = acc // v if v else 0
                else:
                    acc = acc % v if v else 0
            return acc
        if all(hasattr(f, "const") for f in fns) and all(_number(f.const[0]) or f.const[0] is None for f in fns):
            return _const(arith(None, None)), "number"   # constants: the sum as it would run
        if len(fns) == 2 and len(ops) == 1 and any(_known_number(f) for f in fns) and specialised():
            return _joined(lambda: _arith_with_number(fns, ops[0])), "number"
        if len(fns) >= 2 and len(ops) == len(fns) - 1 and any(_has_src(f) for f in fns):
            return _joined(lambda: _arith_text([_src(f) for f in fns], ops)), "number"
        return arith, "number"

    def joined_lists(self, n, first):
        """`A + B + C` of lists (or zones): one list, A's items first (`ro + rb + rp`, the dice of a pool)."""
        parts, typ = [first[0]], first[1] if first[1] != "zone" else "list:card"
        for item in n.items[1:]:
            f, t = self.listed(item)
            t = "list:card" if t == "zone" else t
            if element(t) is None or not compatible(t, typ):
                self.sink.add("E203", f"`+` joins lists of one kind: {describe(t)} after {describe(typ)}",
                              item.span, "put a single item in brackets: `faces + [f]`")
                return _BAD
            parts.append(f)
            typ = unify(typ, t)
        return (lambda m, L: tuple(x for p in parts for x in (p(m, L) or ()))), typ

    def e_Neg(self, n):
        f, _ = self.expect(n.operand, "number", "the value after `-`")
        if hasattr(f, "const") and _number(f.const[0]):   # `-1`
            return _const(-f.const[0]), "number"
        fn = lambda m, L: -f(m, L)  # noqa: E731
        if specialised() and _has_src(f):
            _lazy(fn, lambda: _around(f, "(-(", "))"))
        return fn, "number"

    def e_Reach(self, n):
        start, _ = self.expect(n.start, "space", "the start of `reach`")
        link = self.link_name(n.link, n.span)
        count, _ = self.expect(n.count, "number", "the number of steps")
        tslot = oslot = -1
        through = onto = None
        pushed = self.sink.pushed
        if n.through is not None:
            tslot, restore = self.local.scoped(n.through_var, "space")
            try:
                through, _ = self.expect(n.through, "flag", "the `through` condition")
            finally:
                restore()
        owned = (tslot, len(self.local.slot_names))   # the slots the `through` condition writes
        if n.onto is not None:
            oslot, restore = self.local.scoped(n.onto_var, "space")
            try:
                onto, _ = self.expect(n.onto, "flag", "the `onto` condition")
            finally:
                restore()
        exact = n.exact
        if through is None and onto is None:
            plain = self.plain_reach(n, start, link, count)
            if plain is not None:
                return plain, "list:space"
        came = None
        if n.walk and n.came_from is not None:
            came, _ = self.expect(n.came_from, "space", "the space the walk came from")
            if not specialised():
                return (lambda m, L: m.walk(start(m, L), link, count(m, L), through, onto, L, tslot, oslot,
                                            came(m, L))), "list:space"
        if n.walk and specialised():
            fixed = None
            if through is not None and self.sink.pushed == pushed and static_search.enabled():
                fixed = static_search.fixed_through(self, n.through, n.through_var)
            split = None
            if fixed is not None and onto is not None and self.sink.pushed == pushed:
                split = static_search.split_onto(self, n.onto, n.onto_var, oslot)
            return _walk_search(start, link, count, through, onto, tslot, oslot, fixed, owned, split, came), "list:space"
        if n.walk:
            return (lambda m, L: m.walk(start(m, L), link, count(m, L), through, onto, L, tslot, oslot)), "list:space"
        if not exact and through is not None and onto is not None:
            around = None
            if getattr(self, "scratch", False) and self.sink.pushed == pushed and static_search.around_enabled():
                # on locals nothing keeps: the search's answer kept per what it can read
                around = static_search.around_key(self, [(n.through, n.through_var), (n.onto, n.onto_var)])
            return _reach_search(start, link, count, through, onto, tslot, oslot, around), "list:space"
        span = n.span    # a search that runs away is reported here
        return (lambda m, L: m.reach(start(m, L), link, count(m, L), exact, through, onto, L, tslot, oslot, span)), \
            "list:space"

    def plain_reach(self, n, start, link, count):
        """A search with no condition depends on the board alone: `exactly 1` is a table of each
        space's neighbours, `up to N` (N written in the rules) a table of each space's answer; a walk (`without backtracking`, also `coming from`) is kept per start,
        length and space it came from (both back ends: Machine.reach_exact and Machine.walk give
        these answers and write no local; a walk counts no steps)."""
        if self.board is None or link not in self.board.links:   # an unknown kind: reported already
            return None
        if not n.walk and n.exact and getattr(count, "const", (None,))[0] == 1:
            nbrs = self.board.links[link]
            return _table_read(start, tuple(tuple(sorted(set(row) - {i})) if len(nbrs) > 1 else ()
                                            for i, row in enumerate(nbrs)))
        c = getattr(count, "const", (None,))[0]
        if not n.walk and not n.exact and type(c) is int and c > 0:
            # `up to N`, N written in the rules: every space's answer made now (Machine.reach's)
            from lumos.interpreter.machine import Machine
            nbrs = self.board.links[link]
            return _table_read(start, tuple(Machine._reach_plain(i, nbrs, c) for i in range(len(nbrs))))
        if not n.walk:
            return None
        came = None
        if n.came_from is not None:
            came, _ = self.expect(n.came_from, "space", "the space the walk came from")
        kept: dict = {}

        def plain_walk(m, L):
            key = (start(m, L), count(m, L), None if came is None else came(m, L))
            found = kept.get(key)
            if found is None:
                found = m.walk(key[0], link, key[1], None, None, L, -1, -1, key[2])
                if len(kept) < _PLAIN_WALKS:
                    kept[key] = found
            return found
        return plain_walk

    def e_Route(self, n):
        start, _ = self.expect(n.start, "space", "the start of `route`")
        end, _ = self.expect(n.end, "space", "the end of `route`")
        link = self.link_name(n.link, n.span)
        tslot, through = -1, None
        if n.through is not None:
            tslot, restore = self.local.scoped(n.through_var, "space")
            try:
                through, _ = self.expect(n.through, "flag", "the `through` condition")
            finally:
                restore()
        return (lambda m, L: sure_route(m, start(m, L), end(m, L), link, through, L, tslot)), "list:space"

    def link_name(self, name: str, span) -> str:
        links = self.board.links if self.board is not None else {}
        if name not in links:
            self.sink.add("E209", f"the board has no link kind `{name}`", span,
                          did_you_mean(name, links) or f"link kinds: {', '.join(sorted(links))}")
        return name

    # -- calls
    def e_Call(self, n):
        if n.func in BUILTINS:
            return self.builtin(n)
        sym = self.symbols.get(n.func)
        if sym is None:
            known = list(BUILTINS) + [s.name for s in self.symbols.values() if s.what in ("function", "procedure")]
            self.sink.add("E205", f"unknown function `{n.func}`", n.span, did_you_mean(n.func, known))
            for a in n.args:
                self.expr(a)
            return _BAD
        sym.used = True
        if sym.what == "procedure":
            self.sink.add("E207", f"`{n.func}` is a procedure: it can only be run as a statement", n.span,
                          f"write `{n.func}(...)` on its own line, or `let x = {n.func}(...)`")
            return _BAD
        if sym.what != "function":
            self.sink.add("E207", f"`{n.func}` is {describe(sym.type)}, not a function", n.span, "")
            return _BAD
        decl = sym.value
        self.functions_used.add(decl.name)
        if len(n.args) != len(decl.params):
            self.sink.add("E204", f"`{n.func}` takes {len(decl.params)} argument(s), not {len(n.args)}", n.span,
                          f"{n.func}({', '.join(decl.params)})")
            return _BAD
        args = self.typed_args(decl, n.args)
        self.functions_used.add(decl.name)
        if decl.name not in self.inlining:
            return self.inline_call(decl, args)
        fn, rtype, nslots = self.function_instance(decl, tuple(t for _, t in args))
        argfns = [f for f, _ in args]
        name = decl.name
        # a call inside the function's own body: one level deeper (Machine.call_nested bounds it)
        if len(argfns) == 1:
            a0 = argfns[0]

            def call1(m, L):
                inner = [None] * nslots[0]
                inner[0] = a0(m, L)
                return m.call_nested(fn[0], inner, name)
            return call1, rtype

        def call(m, L):
            inner = [None] * nslots[0]
            for i, f in enumerate(argfns):
                inner[i] = f(m, L)
            return m.call_nested(fn[0], inner, name)
        return call, rtype

    # -- declared kinds of parameters (`procedure gain(s, colour: die)`)
    def typed_args(self, decl, nodes):
        """Lower a call's arguments. A parameter with a declared kind checks its argument here,
        at the call, so a wrong value is an error where it is written (E203, E209), and the
        body is lowered for the declared kind."""
        kinds = decl.kinds or (None,) * len(decl.params)
        out = []
        for p, kind, node in zip(decl.params, kinds, nodes):
            what = f"argument `{p}` of `{decl.name}`"
            if kind is None:
                out.append(self.expr(node))
            elif kind == "die":
                out.append(self.die_value(node, what))
            else:
                f, _t = self.expect(node, kind, what)
                out.append((f, kind))
        return out

    def dice_names(self) -> str:
        return ", ".join(f"`{d}`" for d in self.dice) or "none declared"

    def die_value(self, node, what: str):
        """A value that must name a declared die: a text naming one (`"orange"`), a die's name
        (`orange`), or a value already of kind die. Anything else is refused at compile time."""
        if isinstance(node, N.Str):
            self.check_die_text(node)
            return _const(node.value), "die"
        f, t = self.expr(node)
        if t not in ("die", "any", "none"):
            self.sink.add("E203", f"{what} should be a die ({self.dice_names()}), not {describe(t)}",
                          node.span, 'write the die\'s name, e.g. `"' + next(iter(self.dice), "d6") + '"`')
        return f, "die"

    def check_die_text(self, node) -> None:
        if node.value not in self.dice:
            self.sink.add("E209", f"unknown die `{node.value}`", node.span,
                          did_you_mean(node.value, list(self.dice)) or f"dice: {self.dice_names()}")

    def die_compare(self, n, ta, tb) -> None:
        """A die compared with a text: the text, when written out, must name a die."""
        other, node = (tb, n.right) if ta == "die" else (ta, n.left)
        if other in ("die", "any", "none"):
            return
        if other == "text":
            if isinstance(node, N.Str):
                self.check_die_text(node)
            return
        self.sink.add("E203", f"cannot compare {describe(ta)} with {describe(tb)}", n.span,
                      "both sides of a comparison must be the same kind of value")

    def inline_call(self, decl, args):
        """Lower a function's body at the call site: its parameters become hidden slots of the
        caller's locals, so a call costs no new locals list. The body still sees only its own
        parameters and the game's names. A function met again inside itself is called instead.
        A parameter given a constant (`dice_for(p, "move")`) is that constant in the body (Bound),
        so its tests of it fold to the branch taken (e_Compare, e_IfExpr, e_BoolOp)."""
        saved = self.local.names
        # A parameter given a plain local reads that local directly (bodies never assign); one
        # given a constant is that constant in the body, so what depends on it folds. Its hidden
        # slot is still made and written (a saved state holds it: the same state, the same hash),
        # except on locals nothing keeps (`scratch`: an action's `with` lists, a card's condition).
        consts = [getattr(f, "const", None) for f, _t in args]
        kept = not getattr(self, "scratch", False)
        # an unrolled loop's item (e_Quantifier) is passed as the loop passes its slot: the
        # parameter is that slot (which the body never reads: it is the item, a constant)
        aliased = [getattr(f, "slot", None) if getattr(f, "bound_slot", None) is None else f.bound_slot
                   for f, _t in args]
        slots = [a if a is not None else self.local.hidden(f"{decl.name}.{p}", t)
                 for p, a, (_f, t) in zip(decl.params, aliased, args)]
        self.local.names = {p: (slot, t) if c is None else _bound(slot, t, c, f)
                            for p, slot, (f, t), c in zip(decl.params, slots, args, consts)}
        self.inlining.append(decl.name)
        depth, self.where_depth = getattr(self, "where_depth", 0), 0   # the body's `where`s are its own
        try:
            body, rtype = self.expr(decl.body)
        finally:
            self.inlining.pop()
            self.local.names = saved
            self.where_depth = depth
        copies = [(slot, f) for slot, (f, _t), a, c in zip(slots, args, aliased, consts)
                  if a is None and (c is None or kept)]
        if not copies:
            return body, rtype
        slots = [slot for slot, _f in copies]
        argfns = [f for _s, f in copies]
        if len(slots) == 1:
            s0, a0 = slots[0], argfns[0]

            def inline1(m, L):
                L[s0] = a0(m, L)
                return body(m, L)
            exists = getattr(body, "exists", None)
            if specialised():
                # one compiled function, also where it is called rather than written in line
                # (a `where`'s list, a first-use part): the argument stored in its slot
                # (__setitem__ gives None), then the body
                def make_of(b):
                    def make():
                        (at, an), (bt, bn) = _src(a0), _src(b)
                        return f"(L.__setitem__({s0}, {at}) or {bt})", {**an, **bn}
                    return make
                fn = _joined(make_of(body))
                if exists is not None:   # the body is a filter: the call can be asked whether it has an item
                    fn.exists = _joined(make_of(exists))
                    fn.exists.leaves_last = getattr(exists, "leaves_last", None)
                return _mark_never_none(fn, _never_none(body)), rtype
            if exists is not None:   # the body is a filter: the call can be asked whether it has an item
                def inline1_exists(m, L):
                    L[s0] = a0(m, L)
                    return exists(m, L)
                inline1.exists = inline1_exists
                inline1_exists.leaves_last = getattr(exists, "leaves_last", None)
            if _has_src(a0) or _has_src(body):
                def make():
                    (at, an), (bt, bn) = _src(a0), _src(body)
                    return f"(L.__setitem__({s0}, {at}) or {bt})", {**an, **bn}
                _lazy(inline1, make)
            return _mark_never_none(inline1, _never_none(body)), rtype
        def make():
            # every argument first, left to right; then their slots; then the body
            parts = [_src(f) for f in argfns]
            bt, bn = _src(body)
            names = {**_merge(*parts), **bn}
            if slots == list(range(slots[0], slots[0] + len(slots))):
                # slots side by side (as a call's are made): one store of a slice, the values
                # still all made first, left to right; constants stored as one tuple
                cut, values = _name(), _name()
                names[cut] = slice(slots[0], slots[0] + len(slots))
                known = [getattr(f, "const", None) for f in argfns]
                if all(k is not None for k in known):
                    names[values] = tuple(k[0] for k in known)
                else:
                    values = "(" + "".join(f"{t}, " for t, _n in parts) + ")"
                return f"(L.__setitem__({cut}, {values}) or {bt})", names
            values = [_name() for _ in parts]
            text = "".join(f"({v} := {t}), " for v, (t, _n) in zip(values, parts))
            text += ", ".join(f"L.__setitem__({slot}, {v})" for slot, v in zip(slots, values))
            return f"(({text})[-1] or {bt})", names
        if len(slots) == 2:
            s0, s1 = slots
            a0, a1 = argfns

            def inline2(m, L):
                v0 = a0(m, L)
                L[s1] = a1(m, L)
                L[s0] = v0
                return body(m, L)
            if specialised():
                return _mark_never_none(_joined(make), _never_none(body)), rtype
            return _mark_never_none(inline2, _never_none(body)), rtype
        pairs = tuple(zip(slots, argfns))

        def inline(m, L):
            values = [f(m, L) for _s, f in pairs]
            for (slot, _f), v in zip(pairs, values):
                L[slot] = v
            return body(m, L)
        if specialised():
            return _mark_never_none(_joined(make), _never_none(body)), rtype
        return _mark_never_none(inline, _never_none(body)), rtype

    def builtin(self, n):
        want, result = BUILTINS[n.func]
        if len(n.args) != len(want):
            self.sink.add("E204", f"`{n.func}` takes {len(want)} argument(s), not {len(n.args)}", n.span,
                          f"{n.func}({', '.join(w.replace('list:', 'list of ') for w in want)})")
            return _BAD
        if n.func == "count" and specialised() and isinstance(n.args[0], N.Where):
            counted = self.counted_where(n.args[0])
            if counted is not None:
                return counted, "number"
        fns, types = [], []
        for arg, w in zip(n.args, want):
            if w == "link":
                if isinstance(arg, N.Name):
                    link = self.link_name(arg.name, arg.span)
                    fns.append(_const(link))
                    types.append("link")
                    continue
                self.sink.add("E203", f"`{n.func}` needs a link kind name here", arg.span, "")
                return _BAD
            f, t = self.expect(arg, w, f"argument of `{n.func}`")
            fns.append(f)
            types.append(t)
        rtype = element(types[0]) or "any" if result == "element" else result
        if n.func in ("first", "last") and specialised() and hasattr(fns[0], "const") \
                and type(fns[0].const[0]) is tuple:   # of a list known when compiling (not a zone's id)
            v = fns[0].const[0]
            return _const((v[0] if n.func == "first" else v[-1]) if v else None), rtype
        fn = getattr(self, "b_" + n.func)(fns)
        found = getattr(fns[0], "first_of", None) if n.func == "first" else None
        if found is not None:     # of a filter: the first item its condition holds for (e_Where)
            return found, rtype
        if n.func in ("first", "last") and specialised() and _has_src(fns[0]) and types[0].startswith("list:"):
            # a list, never a zone's id: its end read in line
            _lazy(fn, lambda: _end_text(fns[0], 0 if n.func == "first" else -1))
        return fn, rtype

    def b_count(self, f):
        a, = f
        if getattr(a, "always_tuple", False):   # a filter's list: its length, no test of what it is
            fn = lambda m, L: len(a(m, L))  # noqa: E731
            if _has_src(a):
                _lazy(fn, lambda: _length_of(a))
            return fn

        def count(m, L):
            v = a(m, L)
            if isinstance(v, int):
                return len(m.st.zones[v])
            return 0 if v is None else len(v)
        if _has_src(a):
            c = _name()
            _lazy(count, lambda: _around(a, f"{c}(m, ", ")", {c: _count_of}))
        return count

    def b_last(self, f):
        a, = f

        def last(m, L):
            v = a(m, L)
            if isinstance(v, int):
                v = m.st.zones[v]
            return v[-1] if v else None
        if specialised() and _has_src(a):
            c = _name()
            _lazy(last, lambda: _around(a, f"{c}(m, ", ")", {c: _last_of}))
        return last

    def b_first(self, f):
        a, = f

        def first(m, L):
            v = a(m, L)
            if isinstance(v, int):
                v = m.st.zones[v]
            return v[0] if v else None
        if _has_src(a):
            c = _name()
            _lazy(first, lambda: _around(a, f"{c}(m, ", ")", {c: _first_of}))
        return first

    def b_other(self, f):
        a, = f
        ns, out = len(self.sides), self.out_slot   # the compiled game's sides; those out of play

        def next_in_play(m, v):
            if v is None:
                return None
            gone = m.st.g[out]
            for step in range(1, ns + 1):
                if (v + step) % ns not in gone:
                    return (v + step) % ns
            return v

        fn = lambda m, L: next_in_play(m, a(m, L))  # noqa: E731
        if _has_src(a) and specialised():
            # with every side in play (most of the time), the next side without a call
            c, v = _name(), _name()
            _lazy(fn, lambda: _around(a, f"(None if ({v} := ", f") is None else ({v} + 1) % {ns} if not m.st.g[{out}] "
                                      f"else {c}(m, {v}))", {c: next_in_play}))
        elif _has_src(a):
            c = _name()
            _lazy(fn, lambda: _around(a, f"{c}(m, ", ")", {c: next_in_play}))
        return fn

    def b_occupant(self, f):
        a, = f
        fn = lambda m, L: m.occupant(a(m, L))  # noqa: E731
        fn.occupant_of = a
        known = getattr(a, "const", None)
        if specialised() and known is not None and type(known[0]) is int:
            # a square known when compiling (an unrolled loop's item): its first piece, read once
            k, p = _name(), _name()
            _lazy(fn, lambda: (f"(None if ({p} := m.st.occ[{k}]) < 0 else {p})", {k: known[0]}))
        elif _has_src(a) and specialised():   # Machine.occupant in line
            v, p = _name(), _name()
            _lazy(fn, lambda: _around(a, f"(None if ({v} := ", f") is None or ({p} := m.st.occ[{v}]) < 0 else {p})"))
        elif _has_src(a):
            _lazy(fn, lambda: _around(a, "m.occupant(", ")"))
        return fn

    def b_occupants(self, f):
        a, = f
        return _mark_never_none(_method_text(lambda m, L: m.occupants(a(m, L)), "occupants", f))   # pieces

    def b_full(self, f):
        a, = f
        return _method_text(lambda m, L: m.full(a(m, L)), "full", f)

    def b_distance(self, f):
        a, b, link = f
        fn = lambda m, L: m.distance(a(m, L), b(m, L), link(m, L))  # noqa: E731
        table = self.board.distances.get(link.const[0]) if self.board is not None and hasattr(link, "const") else None
        if table is not None and specialised() and (_has_src(a) or _has_src(b)):
            # Machine.distance in line, the link's table of distances bound as a constant
            def make():
                (at, an), (bt, bn) = _src(a), _src(b)
                x, y, d, t = _name(), _name(), _name(), _name()
                return (f"(None if (({x} := {at}), ({y} := {bt}))[0] is None or {y} is None or ({d} := {t}[{x}][{y}]) < 0 "
                        f"else {d})", {**an, **bn, t: table})
            return _lazy(fn, make)
        return _method_text(fn, "distance", f)

    def b_toward(self, f):
        a, b, k, link = f
        return _method_text(lambda m, L: m.toward(a(m, L), b(m, L), k(m, L), link(m, L)), "toward", f)

    def b_closest(self, f):
        a, s, link = f
        return _method_text(lambda m, L: m.closest(a(m, L) or (), s(m, L), link(m, L)), "closest", f,
                            ("{} or ()", "{}", "{}"))

    def b_offset(self, f):
        s, dx, dy = f
        if specialised() and self.board is not None:
            off = self.__dict__.get("_offsets")
            if off is None:   # the board's tables, made once per game compiled
                off = self._offsets = _grid_offsets(self.board)
            if _known_number(dx) and _known_number(dy):   # one step known when compiling: its table
                return _offset_table(off, s, dx.const[0], dy.const[0])
            fn = lambda m, L: off(s(m, L), dx(m, L), dy(m, L))  # noqa: E731
            if any(_has_src(g) for g in f):
                _lazy(fn, lambda: _offset_text(off, s, dx, dy))
            return fn
        fn = lambda m, L: m.offset(s(m, L), dx(m, L), dy(m, L))  # noqa: E731
        if any(_has_src(g) for g in f):
            def make():
                (st, sn), (xt, xn), (yt, yn) = _src(s), _src(dx), _src(dy)
                return f"m.offset({st}, {xt}, {yt})", {**sn, **xn, **yn}
            _lazy(fn, make)
        return fn

    def b_max(self, f):
        a, = f
        fn = lambda m, L: max(a(m, L) or (), default=0)  # noqa: E731
        if specialised() and _has_src(a):
            _lazy(fn, lambda: _around(a, "max((", ") or (), default=0)"))
        return fn

    def b_min(self, f):
        a, = f
        fn = lambda m, L: min(a(m, L) or (), default=0)  # noqa: E731
        if specialised() and _has_src(a):
            _lazy(fn, lambda: _around(a, "min((", ") or (), default=0)"))
        return fn

    def b_sum(self, f):
        a, = f
        return lambda m, L: sum(x for x in a(m, L) or () if x is not None)   # a card without the field adds 0

    def b_playable(self, f):
        c, s = f

        def playable(m, L):
            card, side = c(m, L), s(m, L)
            if card is None:
                return False
            cdef = m.cg.card_defs[m.cg.cards[card].definition]
            if cdef.condition is None:
                return True
            inner = [None] * cdef.condition_slots
            inner[0], inner[1] = side, card
            return bool(cdef.condition(m, inner))
        return playable


def _known_items(src):
    """The items of a list known when compiling (a constant, or a list written of such values),
    or None."""
    items = getattr(src, "items_const", None)
    if items is None and hasattr(src, "const") and type(src.const[0]) is tuple:
        items = src.const[0]
    return items


def _steady_first(low, src, cond_node, slot):
    """(key slot, last item) when `first(S where C)` may be remembered per value of one local
    (fused._first_memo): S is a list known when compiling, not empty, and C never reads the
    state and reads no local but the item and that one (a `b in it` over constant lists)."""
    from lumos.compiler.purity import analyse
    items = _known_items(src)
    if not items:
        return None
    pure, slots = analyse(low, cond_node)
    keys = set(slots) - {slot}
    bound = {e[0] for e in low.local.names.values() if type(e) is Bound}
    if not pure or len(keys) != 1 or keys & bound or -1 in keys:
        return None
    return next(iter(keys)), items[-1]


def _offset_table(off, s, dx, dy):
    """offset(s, dx, dy) with dx, dy known when compiling: the space read from a table per space
    (none off the grid), as `off` would find it; one table per step and board, shared by the
    sites that take that step (an unrolled line test takes each step at several)."""
    steps = off.__dict__.setdefault("steps", {})
    table = steps.get((dx, dy))
    if table is None:
        table = steps[dx, dy] = tuple(off(i, dx, dy) for i in range(len(off.xy)))
    if hasattr(s, "const"):
        v = s.const[0]
        if v is None or (type(v) is int and 0 <= v < len(table)):
            return _const(None if v is None else table[v])
    fn = lambda m, L: None if (v := s(m, L)) is None else table[v]  # noqa: E731
    if _has_src(s):
        t, v = _name(), _name()
        _lazy(fn, lambda: _around(s, f"(None if ({v} := ", f") is None else {t}[{v}])", {t: table}))
    return fn


def _table_read(start, table):
    """A search's answer read from its table of every space's answers (no answer for none)."""
    fn = lambda m, L: () if (s := start(m, L)) is None else table[s]  # noqa: E731
    if _has_src(start):
        t, v = _name(), _name()
        _lazy(fn, lambda: _around(start, f"(() if ({v} := ", f") is None else {t}[{v}])", {t: table}))
    return fn


def _guarded_first(find, guard):
    """`first(S where G and C)` with G the same for every item: none unless G holds."""
    fn = lambda m, L: find(m, L) if guard(m, L) else None  # noqa: E731
    if specialised() and (_has_src(find) or _has_src(guard)):
        def make():
            (ft, fn_), (gt, gn) = _src(find), _src(guard)
            return f"(({ft}) if ({gt}) else None)", {**fn_, **gn}
        _lazy(fn, make)
    return fn


def _folded_parts(op: str, fns, order):
    """The indexes (of `order`, in its order) of the parts of an `and`/`or` left after its
    constant ones, or None when every part is a constant that does not decide it (the chain is
    then true for `and`, false for `or`). A constant that does not decide is dropped (it does
    nothing); the first that decides ends the chain (the parts after it never run), and the
    parts before it still run (their errors are raised where they would be)."""
    deciding = op == "or"
    kept = []
    for i in order:
        c = getattr(fns[i], "const", None)
        if c is None:
            kept.append(i)
        elif bool(c[0]) == deciding:
            kept.append(i)
            break
    return kept or None


def _truth(f):
    """True or False as `f` is true or not (a chain of one part)."""
    fn = lambda m, L: True if f(m, L) else False  # noqa: E731
    if _has_src(f):
        _lazy(fn, lambda: _around(f, "True if ", " else False"))
    return fn


def _tested(f):
    """(text, names) that is true when f's value is: an `and`/`or` chain's own tests, without the
    `True if ... else False` that makes its value a flag, where only its truth is asked."""
    bare = getattr(f, "bare", None)
    if bare is not None:
        text, names = bare()
        return f"({text})", names
    return _src(f)


def _around_test(child, before: str, after: str):
    text, names = _tested(child)
    return before + text + after, names


def _tests_chain(op: str, fns):
    """`a and b and ...` (or `or`) as one joined function giving true or false; its parts' tests
    in line (a part that is itself a chain without its own conversion to a flag)."""
    def bare():
        parts = [_tested(f) for f in fns]
        return f" {op} ".join(t for t, _n in parts), _merge(*parts)
    tests = _Recipe(bare)
    fn = _joined(lambda: (f"True if {tests()[0]} else False", tests()[1]))
    fn.bare = tests
    return fn


def _known_number(f) -> bool:
    """Is f a constant number (never none)?"""
    return hasattr(f, "const") and _number(f.const[0])


def _arith_with_number(fns, op: str):
    """The text of `a OP b` where one side is a number known when compiling (`n + 1`, `4 - d`):
    as e_Arith's loop computes it (none if the other value is none; `/` and `%` by 0 give 0),
    without testing the constant."""
    (at, an), (bt, bn) = _src(fns[0]), _src(fns[1])
    v = _name()
    if _known_number(fns[1]):
        c = fns[1].const[0]
        if op in ("/", "%") and not c:
            value = "0"
        else:
            value = f"({v} {'//' if op == '/' else op} {bt})"
        return f"None if ({v} := {at}) is None else {value}", {**an, **bn}
    if op == "/":
        value = f"({at} // {v} if {v} else 0)"
    elif op == "%":
        value = f"({at} % {v} if {v} else 0)"
    else:
        value = f"({at} {op} {v})"
    return f"None if ({v} := {bt}) is None else {value}", {**an, **bn}


def _number(v) -> bool:
    return type(v) in (int, float)


def _folded_compare(op: str, x, y):
    """`x op y` of two constants, as the comparison's closure computes it (`is` is `==`; a
    numeric comparison with none is false), or None when it is left to run."""
    if op in ("==", "is"):
        return x == y
    if op in ("!=", "isnot"):
        return x != y
    if op in ("<", ">", "<=", ">="):
        if x is None or y is None:
            return False
        if _number(x) and _number(y):
            return {"<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y}[op]
    return None


def _operand_pairs(cond):
    """The calls and comparisons of a `where` condition (not inside a nested `where`, whose `it`
    is another item) with two equal operands that mention `it`."""
    stack = [cond]
    while stack:
        node = stack.pop()
        if isinstance(node, N.Where):
            stack.append(node.source)
            continue
        operands = node.args if isinstance(node, N.Call) else \
            (node.left, node.right) if isinstance(node, N.Compare) else ()
        marked = [o for o in operands if _mentions(o, "it")]
        if any(a == b for i, a in enumerate(marked) for b in marked[i + 1:]):
            yield node
        for value in vars(node).values():
            for item in value if isinstance(value, tuple) else (value,):
                if isinstance(item, N.Node):
                    stack.append(item)
