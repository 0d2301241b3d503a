"""Fused closures: lowered conditions, sums, filters and searches joined into one Python function.

A condition such as `a and not b and s in region` would run as one closure per part, each
a Python call. Closures that can say what they compute as a Python expression carry it in
`fn.src`; lumos.compiler.lower_expr joins their texts so a whole condition runs as one call.
"""
from __future__ import annotations

import ast
import builtins
import contextlib
import itertools
import operator
import os
import re
import types
import weakref

from lumos.compiler import nodes as N
from lumos.compiler.hoist import invariant, never_none, own_slot, slot_on_miss, space_rows, truth


# -- fused closures
# A condition such as `a and not b and s in region` would run as one closure per part,
# each a Python call. Closures that can say what they compute as a Python expression
# carry it in `fn.src`: (text, names), or a _Recipe making them on demand; `and`/`or`/
# `not`, comparisons, sums, `where` and `reach` join their parts' texts into one function,
# so a whole condition runs as one call. A joined function compiles its text the first
# time it runs (most lowered code never runs in a given process). A text evaluates its
# parts in the closures' order and writes the same locals (a saved state holds them);
# parts without a text are called from the joined one.
_ids = itertools.count()

# -- which back end lowers the rules
# "specialised" (the default) joins more of the rules into generated Python (quantifiers, grid
# offsets through neighbour tables, list ends, ...) and runs them with a run loop that tests
# one flag per instruction; "reference" is the closure machine as it was before that work,
# kept so tests can play the same seeds with both and compare the logs
# (tests/test_backend_equivalence.py). LUMOS_BACKEND=reference selects it for a process.
BACKENDS = ("specialised", "reference")
_backend = [os.environ.get("LUMOS_BACKEND", "") or "specialised"]
if _backend[0] not in BACKENDS:
    _backend[0] = "specialised"


def backend() -> str:
    """The back end games are lowered with now."""
    return _backend[0]


def specialised() -> bool:
    return _backend[0] == "specialised"


@contextlib.contextmanager
def using_backend(name: str):
    """Lower games compiled inside the block with back end `name` (tests compare the two)."""
    if name not in BACKENDS:
        raise ValueError(f"unknown back end {name!r}; one of {', '.join(BACKENDS)}")
    saved = _backend[0]
    _backend[0] = name
    try:
        yield
    finally:
        _backend[0] = saved


def _name() -> str:
    """A name unique to this process, for a value or an intermediate result in a joined text."""
    return f"_{next(_ids)}"


def _src(fn):
    """(text, names) computing what fn(m, L) returns: its own text, or a call of it.
    A text is made when first asked for (see _lazy): most lowered code never runs."""
    s = getattr(fn, "src", None)
    if s is not None:
        if type(s) is _Recipe:
            text, names = s()
            return f"({text})", names
        return s
    slot = getattr(fn, "slot", None)     # a local (_local)
    if slot is not None:
        return f"L[{slot}]", _NO_NAMES
    n = _name()
    const = getattr(fn, "const", None)   # a constant (_const)
    if const is not None:
        return n, {n: const[0]}
    return f"{n}(m, L)", {n: fn}


def _has_src(fn) -> bool:
    """Can fn be written in line in a joined text (see _src)?"""
    return hasattr(fn, "src") or hasattr(fn, "slot") or hasattr(fn, "const")


def _around(child, before: str, after: str, names: dict | None = None):
    """(before + child's text + after, child's names plus `names`)."""
    text, cnames = _src(child)
    return before + text + after, ({**cnames, **names} if names else cnames)


_NO_NAMES: dict = {}   # shared, never written: joined texts copy names into new dicts


def _with_src(fn, text: str, names: dict):
    fn.src = (text, names)
    return fn


class _Recipe:
    """make() -> (text, names), called once, when a joined function using it is compiled."""
    __slots__ = ("make", "done")

    def __init__(self, make):
        self.make, self.done = make, None

    def __call__(self):
        if self.done is None:
            self.done = self.make()
            self.make = None
        return self.done


def _lazy(fn, make):
    """fn.src made by make() the first time a joined function using fn is compiled."""
    fn.src = _Recipe(make)
    return fn


def _first_run(m, L):  # the code of a joined function until its first call
    fn = _self()
    text, names = _make()
    fn.__globals__.update(names)
    fn.__code__ = _compile(text)
    return fn(m, L)


def _compile(text: str):
    code = compile(f"lambda m, L: {text}", "<lumos condition>", "eval")
    return next(c for c in code.co_consts if isinstance(c, types.CodeType))


def _joined(make):
    """fn(m, L) computing the text make() gives (text, names); compiled on its first call."""
    recipe = _Recipe(make)
    g = {"__builtins__": builtins, "_make": recipe, "_compile": _compile}
    fn = types.FunctionType(_first_run.__code__, g, "joined")
    g["_self"] = weakref.ref(fn)   # no cycle: the lowered code of a game is freed by reference counts
    fn.src = recipe
    return fn


def _merge(*srcs):
    names: dict = {}
    for _t, n in srcs:
        names.update(n)
    return names


def _const(value):
    fn = lambda m, L: value  # noqa: E731
    fn.const = (value,)
    return fn


def _memo(fn, slots, clears=()):
    """fn's result remembered per value of the local slots it reads (fn never reads the state).

    `clears`: the slots fn writes (its own: the item of a `where`, the arguments of an inlined
    call). They are set back to none after each run, so that a hit, which skips fn, leaves the
    state as a run would (a saved state holds them; see compiler/purity.py)."""
    cache: dict = {}
    if clears:
        fn = _clearing(fn, tuple(clears))
    if len(slots) == 1:
        s0 = slots[0]

        def memo1(m, L):
            key = L[s0]
            hit = cache.get(key)
            if hit is None:
                hit = cache[key] = bool(fn(m, L))
            return hit
        memo1.cache = cache
        c, f, h = _name(), _name(), _name()
        memo1.src = (f"({h} if ({h} := {c}.get(L[{s0}])) is not None else {f}(m, L))",
                     {c: cache, f: _reading(_twin(memo1), slots)})
        return memo1
    if len(slots) == 2:
        s0, s1 = slots

        def memo2(m, L):   # one dictionary per value of the first slot: no key tuple to build
            row = cache.get(L[s0])
            if row is None:
                row = cache[L[s0]] = {}
            hit = row.get(L[s1])
            if hit is None:
                hit = row[L[s1]] = bool(fn(m, L))
            return hit
        memo2.cache = cache
        c, f, h, e = _name(), _name(), _name(), _name()
        memo2.src = (f"({h} if ({h} := {c}.get(L[{s0}], {e}).get(L[{s1}])) is not None else {f}(m, L))",
                     {c: cache, e: _NO_NAMES, f: _reading(_twin(memo2), slots)})
        return memo2

    key_of = operator.itemgetter(*slots)   # several slots: the tuple of their values

    def memo(m, L):
        key = key_of(L)
        hit = cache.get(key)
        if hit is None:
            hit = cache[key] = bool(fn(m, L))
        return hit
    memo.cache = cache
    c, f, h = _name(), _name(), _name()
    key = "(" + "".join(f"L[{s}], " for s in slots) + ")"
    memo.src = (f"({h} if ({h} := {c}.get({key})) is not None else {f}(m, L))",
                {c: cache, f: _reading(_twin(memo), slots)})
    return memo


_MISS = object()   # no answer remembered yet (_first_memo: none is an answer)


def _first_memo(find, key: int, slot: int, last):
    """`first(S where C)` over a list S known when compiling whose condition never reads the
    state and reads no local but the item and slot `key`: find's answer remembered per value
    of that slot. The item's slot is left holding S's last item, as find leaves it (`last`)."""
    cache: dict = {}

    def remember_first(m, L):   # a miss: find's answer, kept (what the text calls)
        v = cache[L[key]] = find(m, L)
        return v
    remember_first.cache = cache

    def first_memo(m, L):
        v = cache.get(L[key], _MISS)
        if v is _MISS:
            v = remember_first(m, L)
        L[slot] = last
        return v
    c, f, h, miss, s = _name(), _name(), _name(), _name(), _name()
    first_memo.src = (f"(({h} if ({h} := {c}.get(L[{key}], {miss})) is not {miss} else {f}(m, L)), "
                      f"L.__setitem__({slot}, {s}))[0]", {c: cache, f: remember_first, miss: _MISS, s: last})
    return first_memo


def _reading(fn, slots):
    """fn, marked as reading no local but `slots` (a remembered part reads only the slots it is
    keyed on, and no state): a filter whose condition calls it need not write its item into its
    slot for it unless the item's slot is one of them (_where_text)."""
    fn.reads = tuple(slots)
    return fn


def _clearing(fn, clears):
    """fn, then its own slots set back to none."""
    if len(clears) == 1:
        c0 = clears[0]

        def run1(m, L):
            value = fn(m, L)
            L[c0] = None
            return value
        return run1

    def run(m, L):
        value = fn(m, L)
        for s in clears:
            L[s] = None
        return value
    return run


def _twin(fn):
    """A copy of a function (same code, same closure): a text stored on fn names the copy, so
    fn does not refer to itself (no reference cycle; a miss of the text runs the copy)."""
    return types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)


def _first_run_def(m, L):  # the code of a joined search until its first call
    fn = _self()
    text, names = _make()
    fn.__globals__.update(names)
    fn.__code__ = _compile_def(text)
    return fn(m, L)


def _joined_def(make, name: str):
    """A generated function (a def's text, from make() -> (text, names)) compiled on its first call."""
    g = {"__builtins__": builtins, "_make": make, "_compile_def": _compile_def}
    fn = types.FunctionType(_first_run_def.__code__, g, name)
    g["_self"] = weakref.ref(fn)   # no cycle: the lowered code of a game is freed by reference counts
    return fn


def _compile_def(text: str):
    code = compile(_state_lists_once(text), "<lumos search>", "exec")
    return next(c for c in code.co_consts if isinstance(c, types.CodeType))


_STATE_LIST = re.compile(r"(?<![\w.])(?:m\.)?st\.(?:([sxpc]v)\[(\d+)\]|(occ|holder|loc|g|zones|card_zone)\b)")
_DEF_OF_M = re.compile(r"def \w+\(m, [^)]*\):\n")


def _state_lists_once(text: str) -> str:
    """A generated function's text with each of the state's lists that it names four times or
    more read once, into a local, at its start (`_s_xv0 = m.st.xv[0]`, `_s_occ = m.st.occ`; the
    start reads it even on a path that would not, so fewer names gain nothing measurable): the
    machine's state object is never replaced, and its lists (who stands where, the variables
    per side, piece, space or card, the zones) are replaced only by set-up, by a copy of the
    state and by a position read from data, never while the rules run (a move, a `set`, a draw
    write into them). A tic-tac-toe's line test reads its squares' list 24 times. The names
    made here are no `_12` name."""
    head = _DEF_OF_M.match(text) if "st." in text else None
    if head is None:
        return text
    if text.startswith("def block("):
        # a run of statements, most of them on one branch or another: each line that reads a
        # list so often reads it once, just before it (a loop or a search reads it at the start)
        return "".join(_lists_read_before(line) if line.count("st.") > 3 else line
                       for line in text.splitlines(keepends=True))
    return text[:head.end()] + _lists_read_before(text[head.end():], "    ")


def _lists_read_before(text: str, indent: str | None = None) -> str:
    """text (a line, or a function's body) with the state's lists it names four times or more
    read once into locals first, at the line's indent (see _state_lists_once)."""
    counts: dict = {}
    for table, k, field in _STATE_LIST.findall(text):
        key = f"{table}[{k}]" if table else field
        counts[key] = counts.get(key, 0) + 1
    once = sorted(key for key, n in counts.items() if n > 3)
    if not once:
        return text

    def local(key):
        return "_s_" + key.replace("[", "").replace("]", "")

    def read(mt):
        key = f"{mt.group(1)}[{mt.group(2)}]" if mt.group(1) else mt.group(3)
        return local(key) if key in once else mt.group(0)
    if indent is None:
        indent = text[:len(text) - len(text.lstrip(" "))]
    return "".join(f"{indent}{local(key)} = m.st.{key}\n" for key in once) + _STATE_LIST.sub(read, text)


def _reach_search(start, link, count, through, onto, tslot, oslot, around=None):
    """`reach ... up to N through ... onto ...` as one function with both conditions in line:
    Machine.reach's breadth-first search (same order, same writes to the locals), without
    a call per space and condition. `around` (lumos.compiler.static_search.AroundKey): the
    conditions read only their key, the space tested and who stands on it, so the answer is kept
    in the state per key, with the spaces the search met, and holds while no piece comes onto or
    leaves one of them (for locals nothing reads afterwards only: a kept answer leaves the
    conditions' slots as they were)."""
    def make():
        return _reach_text(start, link, count, through, onto, tslot, oslot, around)
    fn = _joined_def(make, "search")
    return fn


def _first_search(src, cond, slot):
    """`first(S where C)` as one function that stops at the first item C holds for (C writes no
    slot of its own: checked by the caller). The item's slot is left holding S's last item, as
    the whole filter leaves it: the same value and the same locals, fewer tests."""
    def make():
        text, names = _src(cond)
        get, snames = _src(src)
        names = {**snames, **names}
        # a part that reads the locals finds the item in its slot, as in the filter's loop
        put = f"        L[{slot}] = it\n" if "(m, L)" in text else ""
        text = truth(own_slot(text, slot, "it"))
        body = f"""def find(m, L):
    items = {get} or ()
    if not items:
        return None
    for it in items:
{put}        if {text}:
            L[{slot}] = items[-1]
            return it
    L[{slot}] = items[-1]
    return None
"""
        return body, names
    fn = _joined_def(make, "find")
    return fn


_KEPT_ANSWERS = 1 << 9     # kept answers per state (a bound on memory: all are dropped when reached)
_search_ids = itertools.count()


def _keep_lines(around, names):
    """The lines of a search kept per what its conditions read (see _reach_search): the answer
    kept for its key (the search, start, count, the locals and key atoms its conditions read) is
    returned when no piece has come onto or left any space the search met since (the state's
    `occ_log`: each space whose first piece changed, in order)."""
    keys = [str(next(_search_ids)), "start", "count"] + [f"L[{s}]" for s in around.slots]
    for a in around.atoms:
        atext, an = _src(a)
        keys.append(atext.replace("m.st.", "st."))
        names.update(an)
    lines = ["_key = None",
             "if type(count) is int:",
             f"    _key = ({', '.join(keys)})",
             "    _hit = st.kept.get(_key)",
             "    if _hit is not None:",
             "        _log = st.occ_log",
             "        if _hit[0] == len(_log) or _hit[1].isdisjoint(_log[_hit[0]:]):",
             "            _hit[0] = len(_log)",
             "            return _hit[2]"]
    return "".join(f"    {x}\n" for x in lines)


def _kept_return(indent: str) -> str:
    """The lines that return the search's answer, kept (with the spaces it met) when it has a key."""
    lines = ["found = tuple(found)",
             "if _key is not None:",
             "    _kept = st.kept",
             f"    if len(_kept) >= {_KEPT_ANSWERS}:",
             "        _kept.clear()",
             "    _kept[_key] = [len(st.occ_log), seen, found]",
             "return found"]
    return lines[0] + "".join(f"\n{indent}{x}" for x in lines[1:])


def _reach_text(start, link, count, through, onto, tslot, oslot, around=None):
    (stext, sn), (ctext, cn), (ttext, tn), (otext, on) = _src(start), _src(count), _src(through), _src(onto)
    names = {**sn, **cn, **tn, **on}
    keep = "" if around is None else _keep_lines(around, names)
    # the state object is the same for the whole search: read it once (the conditions
    # read from it and never replace it); so are the locals made before the search
    # (lumos.compiler.hoist)
    ttext, otext = ttext.replace("m.st.", "st."), otext.replace("m.st.", "st.")
    (ttext, otext), first = invariant([ttext, otext], names, min(tslot, oslot), _NO_NAMES)
    ttext, otext = own_slot(ttext, tslot, "nxt"), own_slot(otext, oslot, "nxt")
    # a space of the board is never none; an `if` reads only the truth of its test
    ttext, otext = truth(never_none(ttext, "nxt")), truth(never_none(otext, "nxt"))
    (ttext, otext), first = space_rows([ttext, otext], first, "nxt", "len(nbrs)", names)
    tput, oput = f"L[{tslot}] = nxt\n                ", f"L[{oslot}] = nxt\n                "
    if around is not None:
        # nothing reads the spaces' slots after a kept search: written only for what reads them
        lazy_t = slot_on_miss(ttext, tslot, "nxt", names, (tslot, oslot))
        lazy_o = slot_on_miss(otext, oslot, "nxt", names, (tslot, oslot))
        if lazy_t is not None:
            ttext, tput = lazy_t, ""
        if lazy_o is not None:
            otext, oput = lazy_o, ""
    ttext, otext, first = _state_lists(ttext, otext, first)
    first = "".join(f"    {line}\n" for line in first)
    ret1 = ret2 = "return tuple(found)"
    if around is not None:
        ret1, ret2 = _kept_return(" " * 12), _kept_return(" " * 4)
    body = f"""def search(m, L):
    st = m.st
    start = {stext}
    count = {ctext}
    if start is None or count <= 0:
        return ()
{keep}    nbrs = m.board.links[{link!r}]
{first}    seen = {{start}}
    found = []
    ring = [start]
    for depth in range(count - 1):
        following = []
        for here in ring:
            for nxt in nbrs[here]:
                if nxt in seen:
                    continue
                seen.add(nxt)
                {oput}if {otext}:
                    found.append(nxt)
                {tput}if {ttext}:
                    following.append(nxt)
        if not following:
            found.sort()
            {ret1}
        ring = following
    for here in ring:
        for nxt in nbrs[here]:
            if nxt in seen:
                continue
            seen.add(nxt)
            {oput[:-4]}if {otext}:
                found.append(nxt)
    found.sort()
    {ret2}
"""
    return body, names


def _state_lists(ttext, otext, first):
    """(texts, first lines) with the state's lists of who stands where (`occ`) and who carries
    whom (`holder`) read once before a search into locals, not as an attribute of the state at
    every space tested: the conditions never write the state, and a move writes these lists in
    place (Machine.place), so the same list objects hold for the whole search. About 0.5% fewer
    machine instructions per decision of a game of many moves (cachegrind, 40 seeded games)."""
    first = list(first)
    for field in ("occ", "holder"):
        if f"st.{field}[" in ttext or f"st.{field}[" in otext:
            ttext = re.sub(rf"(?<![\w.])st\.{field}\[", f"_{field}[", ttext)
            otext = re.sub(rf"(?<![\w.])st\.{field}\[", f"_{field}[", otext)
            first.append(f"_{field} = st.{field}")
    return ttext, otext, first


def _arith_text(srcs, ops):
    """The text of `a + b - c ...` as e_Arith's loop computes it: the first two values, then
    none if either is none; each later value read after the sum so far, none if it is none."""
    names = _merge(*srcs)

    def apply(op, x, y):
        if op == "/":
            return f"({x} // {y} if {y} else 0)"
        if op == "%":
            return f"({x} % {y} if {y} else 0)"
        return f"({x} {op} {y})"
    (t0, _n0), (t1, _n1) = srcs[0], srcs[1]
    x, y = _name(), _name()
    tail = apply(ops[0], x, y)
    for op, (t, _n) in zip(ops[1:], srcs[2:]):
        acc, v = _name(), _name()
        tail = f"(None if (({acc} := {tail}), ({v} := {t}))[1] is None else {apply(op, acc, v)})"
    return f"None if (({x} := {t0}), ({y} := {t1}))[0] is None or {y} is None else {tail}", names


def _length_of(child):
    """(text, names) of `len(...)` of a filter's text (see _length_text)."""
    text, names = _src(child)
    return _length_text(text), names


def _length_text(text: str) -> str:
    """`len(...)` of a filter's text: its list counted without copying it into a tuple first (the
    filter's `tuple([...])` read as the list it copies; generated texts hold brackets only as
    syntax, designer strings being names bound outside the text)."""
    if text.startswith("(tuple(["):
        depth = 0
        for i in range(6, len(text)):
            depth += text[i] in "([{"
            depth -= text[i] in ")]}"
            if depth == 0:
                if text[i - 1] == "]":
                    return f"len(({text[7:i]}{text[i + 1:]})"
                break
    return f"len({text})"


def _count_of(m, v):
    """count(v): a zone id counts its cards; none counts 0 (as b_count)."""
    if isinstance(v, int):
        return len(m.st.zones[v])
    return 0 if v is None else len(v)


def _first_of(m, v):
    """first(v), as b_first."""
    if isinstance(v, int):
        v = m.st.zones[v]
    return v[0] if v else None


def _where_text(src, cond, slot, cells=()):
    """make() for `S where C` as one list comprehension with C in line. `cells`: those of C's
    parts computed at their first use in a run of this filter (lumos.compiler.invariant). The
    reference back end keeps the text as it was before the tighter forms (_plain_where_text)."""
    if not specialised():
        return _plain_where_text(src, cond, slot)

    def make():
        text, names = _src(cond)
        it, items, put = _name(), _name(), _name()
        # the list's own text in line (evaluated first, as the loop does), or a call of it
        get, snames = _src(src)
        names = {**snames, **names}
        never = _never_none(src)
        if "(m, L)" in text:
            late = _late_puts(_item_text(text, slot, it, never), names, slot, cells, put, it, items)
            if late is None:
                # it calls a part that reads the locals: each item is written into `it`'s slot
                # before the condition runs, as the loop does; the text's own reads of the slot
                # read the variable (nothing in the condition writes the slot: _item_text)
                text, st = _run_once(_item_text(text, slot, it, never), names, slot, it)
                return (f"tuple([{it} for {it} in {items} if ({put}({slot}, {it}) or {text})]) "
                        f"if ({items} := ({get}) or ()) and ({put} := L.__setitem__){st} else ()",
                        names)
            # the item is written into its slot just before a call that could read it (_late_puts)
            text, st = _run_once(late[0], names, slot, it)
            if late[1]:
                return (f"(tuple([{it} for {it} in {items} if {text}]), {put}({slot}, {items}[-1]))[0] "
                        f"if ({items} := ({get}) or ()) and ({put} := L.__setitem__){st} else ()",
                        names)
            return (f"tuple([{it} for {it} in {items} if {text}]) "
                    f"if ({items} := ({get}) or ()) and ({put} := L.__setitem__)({slot}, {items}[-1]) is None{st} "
                    f"else ()", names)
        # The condition is one text that calls nothing reading the locals: the item is a
        # variable of the text instead of `it`'s slot, and the slot gets the last item (as
        # after the loop) before the filter runs.
        text = own_slot(text, slot, it)
        text, st = _run_once(_unguarded(text, it) if never else text, names, slot, it)
        return (f"tuple([{it} for {it} in {items} if {text}]) "
                f"if ({items} := ({get}) or ()) and L.__setitem__({slot}, {items}[-1]) is None{st} else ()",
                names)
    return make


def _plain_where_text(src, cond, slot):
    """make() for `S where C` as the reference back end writes it."""
    def make():
        text, names = _src(cond)
        it, items, get, put = _name(), _name(), _name(), _name()
        if "(m, L)" in text:
            # it calls a part that reads the locals: each item is written into `it`'s slot
            # before the condition runs, as the loop does
            return (f"tuple([{it} for {it} in {items} if ({put}({slot}, {it}) or {text})]) "
                    f"if ({items} := ({get}(m, L) or ())) and ({put} := L.__setitem__) else ()",
                    {get: src, **names})
        # The condition is one text that calls nothing reading the locals: the item is a
        # variable of the text instead of `it`'s slot, and the slot gets the last item (as
        # after the loop) before the filter runs.
        text = text.replace(f"L[{slot}]", it)
        return (f"tuple([{it} for {it} in {items} if {text}]) "
                f"if ({items} := ({get}(m, L) or ())) and L.__setitem__({slot}, {items}[-1]) is None else ()",
                {get: src, **names})
    return make


# -- tighter texts of filters and quantifiers: what the item is, and the state read once

def _writes_slot(text: str, slot: int) -> bool:
    """Could the text write the slot itself? Its writes are `L.__setitem__(slot, ...)`, a call
    of a name bound to it (a filter's `_12(slot, item)`) or, in lines, `L[slot] = ...`."""
    return (f"__setitem__({slot}," in text or re.search(rf"(?<![\w.])_\d+\({slot}, ", text) is not None
            or re.search(rf"(?<![\w.])L\[{slot}\] =(?!=)", text) is not None)


def _item_text(text: str, slot: int, it: str, never_none: bool = False) -> str:
    """The condition's text with its reads of the item's slot reading `it`, the variable that
    holds the item (just written into the slot, when a part of it reads the locals). Nothing
    in a condition writes its item's slot: the slot is made before the condition is lowered,
    and every slot the condition writes (a nested filter's or quantifier's item, an inlined
    call's arguments, what a remembered part sets back to none) is made while lowering it
    (compiler/scope.py hands out slots in order; an argument that is a plain local is read,
    never written: lower_expr's inline_call). A text that could write it is left as it is.
    `never_none`: no item is none (_never_none), so the tests for none of the item go."""
    if _writes_slot(text, slot):
        return text
    text = own_slot(text, slot, it)
    return _unguarded(text, it) if never_none else text


_CALL = re.compile(r"(?<![\w.])(_\d+)\(m, L\)")   # a part called with the locals


def _late_puts(text: str, names: dict, slot: int, cells, put: str, it: str, items: str):
    """(text, restore) with the item written into its slot only where a part could read it, or
    None when each item has to be written before the condition runs. The parts the text calls
    with the locals (`_12(m, L)`): this filter's parts computed at their first use read nothing
    of it (they name neither the item nor anything bound in the condition:
    lumos.compiler.invariant), nor does a remembered part not keyed on the slot (_reading).
    One keyed on it (called only when it misses) gets the item just before the call and the
    last item (what the slot holds while the filter runs) back just after it. With one other
    part at most (it may read anything), that part gets the item just before its call, and
    `restore`: the filter gives the slot its last item after the loop. Nothing in the text may
    write the slot, and the text's own reads of it read `it` (_item_text)."""
    if _writes_slot(text, slot) or "(m, L)" in _CALL.sub("", text):
        return None
    firsts = {g for c, g in re.findall(r":= (_\d+)\[0\]\) is not _\d+ else (_\d+)\(m, L\)", text)
              if any(names.get(c) is cell for cell in cells)}
    calls = _CALL.findall(text)
    others = [g for g in calls if g not in firsts and getattr(names.get(g), "reads", None) is None]
    if len(others) > 1 or (others and _first_call(text) == others[0]):   # run for every item anyway
        return None
    restore = bool(others)

    def call(mt):
        g = mt.group(1)
        if g in firsts or (g not in others and slot not in names[g].reads):
            return mt.group(0)
        if restore:
            return f"({put}({slot}, {it}) or {g}(m, L))"
        return f"({put}({slot}, {it}) or {g}(m, L), {put}({slot}, {items}[-1]))[0]"
    return _CALL.sub(call, text), restore


def _unguarded(text: str, it: str) -> str:
    """The text with `(None if (_5 := it) is None else E)` written `(E)`, `_5` read as `it`, for
    an item `it` that is never none. The value held in `_5` is only ever `it`'s: a closure's
    text is the same wherever it is used, so each `_5 :=` in the text binds `it`."""
    guard = re.compile(rf"\(None if \((_\d+) := {it}\) is None else ")
    held = set(guard.findall(text))
    if not held:
        return text
    out = guard.sub("(", text)
    for v in held:
        out = re.sub(rf"(?<![\w.]){v}(?!\w)", it, out)
        if f"{it} :=" in out:
            return text   # bound to something else somewhere: leave the text as it was
    return out


def _state_once(text: str, least: int = 1):
    """(text, extra test) with the state object read once per run of a filter: `m.st.` becomes
    a variable set by a test added after the filter's own (the same object: nothing replaces
    `m.st` while a condition runs, interpreter/machine.py sets it once)."""
    if text.count("m.st.") < least:
        return text, ""
    st = _name()
    return text.replace("m.st.", f"{st}."), f" and ({st} := m.st) is not None"


def _state_read_once(lines: list, at: int = 1) -> str:
    """A generated function's lines with the state object read once, into `st`, as line `at`
    (after the `def` line, or after the locals are made), when it reads it at all. The texts in
    line use `_12` names only, so `st` is free for it."""
    body = "\n".join(lines[at:])
    if "m.st." not in body:
        return "\n".join(lines) + "\n"
    return "\n".join(lines[:at] + ["    st = m.st", body.replace("m.st.", "st.")]) + "\n"


_ROW = re.compile(r"(_\d+)\.get\(L\[(\d+)\], (_\d+)\)\.get\(")   # a remembered part keyed on two slots


def _run_once(text: str, names: dict, slot: int, it: str):
    """(text, extra tests) for a filter's condition with what is the same for a whole run of the
    filter read once, by tests added after the filter's own: the state object (_state_once),
    and the row of a remembered part keyed on two slots whose first is made before the
    filter's item (the condition never writes it: see _item_text), looked up once instead of
    per item. The row the remembered part would make on its first miss is made there instead
    (the same dictionary; compiler/hoist.py does the same in searches). The item's space, when
    the condition reads it more than once, is read once per item (_space_once); only the text's
    truth counts (_truth)."""
    text, st = _state_once(_space_once(text, it, names))
    rows: dict = {}

    def row(mt):
        cache, s0, e = mt.group(1), int(mt.group(2)), mt.group(3)
        if s0 >= slot or names.get(e) is not _NO_NAMES or type(names.get(cache)) is not dict:
            return mt.group(0)
        if (cache, s0) not in rows:
            rows[cache, s0] = _name()
        return f"{rows[cache, s0]}.get("
    text = _ROW.sub(row, text)
    for (cache, s0), r in rows.items():
        st += f" and ({r} := {cache}.get(L[{s0}]) or {cache}.setdefault(L[{s0}], {{}})) is not None"
    held: dict = {}

    def atom(mt):
        state = mt.group(4) or mt.group(6)   # the state object's variable (a name of no constant)
        if (int(mt.group(2)) >= slot or (mt.group(5) and type(names.get(mt.group(5))) is not tuple)
                or (state and state in names)):
            return mt.group(0)
        if mt.group(0) not in held:
            held[mt.group(0)] = _name()
        return held[mt.group(0)]
    text = _ATOM.sub(atom, text)
    for value, v in held.items():
        st += f" and (({v} := {value}) or True)"
    return _truth(text), st


def _space_once(text: str, it: str, names: dict = _NO_NAMES) -> str:
    """The condition's text with the item's space (e_Attr's text of `it.space`, the item never
    none) read once per item when it reads it more than once: the first read, when it is the first
    thing the condition evaluates (so before every other), keeps the value in a variable the
    others read (the state does not change while a condition runs)."""
    read = re.compile(rf"\(\(None if \((_\d+) := (_\d+|m\.st|st)\.loc\[{it}\]\) < 0 else \1\) "
                      rf"if \2\.holder\[{it}\] < 0 else m\.space_of\({it}\)\)")
    found = list(read.finditer(text))
    if len(found) < 2 or len({mt.group(2) for mt in found}) != 1 or found[0].group(2) in names:
        return text
    first = found[0]
    if (first.start() + 1, first.end() - 1) not in _leftmost(text):
        return text
    v = _name()
    out = [text[:first.start()], f"({v} := {first.group(0)[1:-1]})"]
    at = first.end()
    for mt in found[1:]:
        out += [text[at:mt.start()], v]
        at = mt.end()
    return "".join(out) + text[at:]


def _truth(text: str) -> str:
    """A condition's text for where only its truth counts (a filter's or a loop's test): each
    `True if X else False` there written `(X)`, through `and`, `or` and `not` (the same parts
    evaluated in the same order: which ones run depends only on the truth of those before)."""
    if not text.isascii() or "\n" in text:   # columns are characters of one line
        return text
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return text

    def seg(n):
        return f"({text[n.col_offset:n.end_col_offset]})"

    def bare(n):
        if (isinstance(n, ast.IfExp) and isinstance(n.body, ast.Constant) and n.body.value is True
                and isinstance(n.orelse, ast.Constant) and n.orelse.value is False):
            return bare(n.test)
        if isinstance(n, ast.BoolOp):
            op = " and " if isinstance(n.op, ast.And) else " or "
            return "(" + op.join(bare(v) for v in n.values) + ")"
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            return f"(not {bare(n.operand)})"
        return seg(n)
    return bare(node)


def _leftmost(text: str) -> set:
    """The (start, end) columns of the expressions of a one-line text that are evaluated before
    anything else in it: the text, its first operand, that one's first operand, ... (as
    _first_call walks)."""
    spans: set = set()
    if not text.isascii() or "\n" in text:
        return spans
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return spans
    while node is not None:
        spans.add((node.col_offset, node.end_col_offset))
        node = _evaluated_first(node)
    return spans


def _evaluated_first(node):
    """The part of an expression Python evaluates before the rest of it (its first operand), or
    None when that is not one part (a call, a name, a constant...)."""
    if isinstance(node, ast.BoolOp):
        return node.values[0]
    if isinstance(node, (ast.Compare, ast.BinOp)):
        return node.left
    if isinstance(node, ast.UnaryOp):
        return node.operand
    if isinstance(node, ast.IfExp):
        return node.test
    if isinstance(node, (ast.NamedExpr, ast.Subscript, ast.Attribute)):
        return node.value
    if isinstance(node, ast.Tuple) and node.elts and not isinstance(node.elts[0], ast.Starred):
        return node.elts[0]
    return None


# An attribute of a local, read in line (lower_expr's e_Attr): a piece's space, an attribute that
# never changes (a table: group 5) or a variable per piece, side, space or card. Of a local made
# before a filter's item, it is the same for the whole run of the filter (the condition writes
# neither the local nor the state) and it cannot fail (a table or a column indexed by the number
# of a thing of its kind, or none), so it is read once per run of the filter (_run_once).
_ATOM = re.compile(r"\(None if \((_\d+) := L\[(\d+)\]\) is None else (?:"
                   r"\(\(None if \((_\d+) := (_\d+|m\.st)\.loc\[\1\]\) < 0 else \3\) "
                   r"if \4\.holder\[\1\] < 0 else m\.space_of\(\1\)\)"
                   r"|(_\d+)\[\1\]|(_\d+|m\.st)\.(?:pv|sv|xv|cv)\[\d+\]\[\1\])\)")


def _never_none(src) -> bool:
    """Does the list `src` computes never hold none? A constant list of no none (`pieces`,
    `spaces`, a region), a table of lists that never change with no none in them (`side.pieces`,
    e_Attr's `static`), or a closure marked so where it is made (`never_none`: a zone's cards,
    `occupants`, a filter of such a list, a call whose body is one)."""
    if getattr(src, "never_none", False):
        return True
    const = getattr(src, "const", None)
    if const is not None:
        v = const[0]
        return type(v) is tuple and all(x is not None for x in v)
    static = getattr(src, "static", None)
    if static is not None:
        table = static[0]
        return all(v is None or (type(v) is tuple and all(x is not None for x in v)) for v in table)
    return False


def _mark_never_none(fn, when=True):
    """fn, marked as a list with no none in it (see _never_none) when `when` holds."""
    if when and fn is not None:
        fn.never_none = True
    return fn


def _memo_then(op, fn, slots, rest, clears=()):
    """`memo(fn) and rest` (or `or`) in one closure: the remembered part, then the rest."""
    memo = _memo(fn, slots, clears)

    def make():
        # the memo's own dictionary read in line (its text); a miss runs the memo function
        (htext, hnames), (rtext, rnames) = _src(memo), _src(rest)
        return f"True if {htext} {op} {rtext} else False", {**hnames, **rnames}
    return _joined(make)


def _mentions(node, name: str) -> bool:
    """Does the expression use the name anywhere (in nested expressions too)?"""
    if isinstance(node, N.Name):
        return node.name == name
    if isinstance(node, N.My):
        return name == "me"
    for value in vars(node).values():
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if isinstance(item, N.Node) and _mentions(item, name):
                return True
    return False


def _local(slot):
    fn = lambda m, L: L[slot]  # noqa: E731
    fn.slot = slot
    return fn




# -- the specialised back end's joined forms (see BACKENDS): used only when specialised()

def _quantifier(kind, src, cond, slot):
    """`any|all|count x in S where C` as one generated function with C in line: the loop of
    e_Quantifier (same order, same early stop), the item slot none afterwards. When C calls
    nothing that reads the locals and never writes the item's slot, the item is a variable
    of the function instead of a write to its slot per item (a write nobody could read).
    A quantifier that C evaluates first (`any l in L where all s in l where ...`, `count ... > 2`)
    is a nested loop of the same function (_nested_lines), not a call per item."""
    def make():
        names: dict = {}
        lines = ["def quantified(m, L):", "    _n = 0"]
        lines += ["    " + line for line in _quantifier_lines(kind, src, cond, slot, 0, names, None)]
        return _state_read_once(lines), names
    fn = _joined_def(make, "quantified")
    fn.quant = (kind, src, cond, slot)   # for an outer quantifier writing this one in line
    return fn


def _quantifier_lines(kind, src, cond, slot, depth, names, res):
    """The loop of a quantifier: at depth 0 it returns its value (the function's body); deeper it
    leaves its value in `res` and stops with `break` where the function would return."""
    it = f"_it{depth}" if depth else "_it"
    stext, sn = _src(src)
    names.update(sn)
    pre, ctext = _nested_lines(cond, depth, names)
    item = f"L[{slot}]"
    whole = "\n".join(pre) + "\n" + ctext
    if "(m, L)" not in whole and f"__setitem__({slot}," not in whole:
        pre, ctext, put = [line.replace(item, it) for line in pre], ctext.replace(item, it), []
    else:
        put = [f"    {item} = {it}"]
        if not _writes_slot(whole, slot):   # the text's own reads of the slot read the variable
            pre, ctext = [own_slot(line, slot, it) for line in pre], own_slot(ctext, slot, it)
    if _never_none(src):
        pre, ctext = [_unguarded(line, it) for line in pre], _unguarded(ctext, it)
    ctext = _truth(ctext)
    body = [f"for {it} in ({stext}) or ():"] + put + ["    " + line for line in pre]
    if depth == 0:
        if kind == "any":
            return body + [f"    if {ctext}:", f"        {item} = None", "        return True", f"{item} = None", "return False"]
        if kind == "all":
            return body + [f"    if not ({ctext}):", f"        {item} = None", "        return False", f"{item} = None",
                           "return True"]
        return body + [f"    if {ctext}:", "        _n += 1", f"{item} = None", "return _n"]
    if kind == "any":
        return [f"{res} = False"] + body + [f"    if {ctext}:", f"        {res} = True", "        break", f"{item} = None"]
    if kind == "all":
        return [f"{res} = True"] + body + [f"    if not ({ctext}):", f"        {res} = False", "        break", f"{item} = None"]
    return [f"{res} = 0"] + body + [f"    if {ctext}:", f"        {res} += 1", f"{item} = None"]


def _nested_lines(cond, depth, names):
    """(lines, text) for a quantifier's condition: when the first thing its text evaluates is
    another quantifier's call, that quantifier's loop as lines run before the test (its value
    in a variable of the text); nothing of the text is evaluated before it, so the order,
    the early stops and the writes to the locals are the call's."""
    ctext, cn = _src(cond)
    name = _first_call(ctext)
    inner = getattr(cn.get(name), "quant", None) if name is not None else None
    call = f"{name}(m, L)"
    if inner is None or ctext.count(call) != 1:
        names.update(cn)
        return [], ctext
    names.update({k: v for k, v in cn.items() if k != name})
    res = f"_q{depth + 1}"
    return _quantifier_lines(*inner, depth + 1, names, res), ctext.replace(call, res)


def _first_call(text: str):
    """The name `f` when the first thing the expression `text` evaluates is the call `f(m, L)`."""
    node = ast.parse(text, mode="eval").body
    while True:
        if isinstance(node, ast.Call):
            args = [a.id for a in node.args if isinstance(a, ast.Name)]
            if isinstance(node.func, ast.Name) and args == ["m", "L"] and len(node.args) == 2 and not node.keywords:
                return node.func.id
            # `_count(m, X)`, `bool(X)`: the names are read first, then X is evaluated
            rest = [a for a in node.args if not isinstance(a, (ast.Name, ast.Constant))]
            if (isinstance(node.func, ast.Name) and not node.keywords and rest and rest[0] is node.args[-1]
                    and not any(isinstance(a, ast.Starred) for a in node.args)):
                node = rest[0]
                continue
            return None
        node = _evaluated_first(node)
        if node is None:
            return None


def _grid_offsets(board):
    """offset(space, dx, dy) from tables made once per board: each space's grid cell and the
    space at each cell (Board.step, without a dict of attributes per call); none off the grid."""
    cells = {}
    xy = []
    for i, a in enumerate(board.attrs):
        if "x" in a and "y" in a:
            xy.append((a["x"], a["y"]))
        else:
            xy.append(None)
    for (x, y), i in board.cells.items():
        cells[x, y] = None if i < 0 else i
    xy = tuple(xy)

    def offset(space, dx, dy):   # its tables are offset.xy and offset.cells, for texts (_offset_text)
        if space is None:
            return None
        p = xy[space]
        if p is None:
            return None
        return cells.get((p[0] + dx, p[1] + dy))
    offset.xy, offset.cells = xy, cells
    return offset


def _offset_text(off, s, dx, dy):
    """The text of offset(s, dx, dy) with the tables in line: the three values first (as a call
    computes them), then the cell's space."""
    (st, sn), (xt, xn), (yt, yn) = _src(s), _src(dx), _src(dy)
    a, x, y, p, t, c = (_name() for _ in range(6))
    return (f"(None if (({a} := {st}), ({x} := {xt}), ({y} := {yt}))[0] is None or ({p} := {t}[{a}]) is None "
            f"else {c}.get(({p}[0] + {x}, {p}[1] + {y})))", {**sn, **xn, **yn, t: off.xy, c: off.cells})


def _end_text(a, index: int):
    """first(a) / last(a) of a value that is a list (never a zone id): in line."""
    v = _name()
    return _around(a, f"({v}[{index}] if ({v} := ", ") else None)")


def _last_of(m, v):
    """last(v), as b_last."""
    if isinstance(v, int):
        v = m.st.zones[v]
    return v[-1] if v else None


def _walk_search(start, link, count, through, onto, tslot, oslot, fixed=None, owned=None, split=None, came=None):
    """`reach ... exactly N without backtracking` (Machine.walk) as one generated function with
    both conditions in line: the same rings, the same order, the same writes to the locals.
    `fixed` (lumos.compiler.static_search.Fixed): the `through` condition is fixed, so the ends
    of the walk are kept per key; `owned`: the slots the condition writes (first, end);
    `split` (static_search.FixedOnto): the first parts of `onto` are fixed too, tested once per
    key on the kept ends, and each decision tests only the rest on those that passed. `came`: the
    walk goes on from one that arrived at the start from that space (`coming from`): its first
    step does not go back there, and a kept walk is kept per that space too."""
    if fixed is None:
        split = None

    def make():
        (stext, sn), (ctext, cn) = _src(start), _src(count)
        names = {**sn, **cn}
        came_line = ""
        if came is not None:   # evaluated after the start and the number, as Machine.walk's arguments
            cmtext, cmn = _src(came)
            names.update(cmn)
            came_line = f"    came = {cmtext}\n"
        ttext, otext = "True", "True"
        if through is not None:
            ttext, tn = _src(through)
            names.update(tn)
        if onto is not None:
            otext, on = _src(onto)
            names.update(on)
        keys = []
        if fixed is not None:
            keys = (["came"] if came is not None else []) + [f"L[{s}]" for s in fixed.slots]
            for a in fixed.atoms:
                atext, an = _src(a)
                keys.append(atext)
                names.update(an)
            if split is not None:   # what the fixed parts of `onto` read: in the key too
                keys += [f"L[{s}]" for s in split.fixed.slots]
                for a in split.fixed.atoms:
                    atext, an = _src(a)
                    keys.append(atext)
                    names.update(an)
            if fixed.guard is not None:
                gtext, gn = _src(fixed.guard)
                keys.append(gtext)
                names.update(gn)
        parts = []
        if split is not None:
            (ftext, fn_), (rtext, rn) = _src(split.first), _src(split.rest) if split.rest is not None else ("True", {})
            names.update(fn_)
            names.update(rn)
            parts = [ftext, rtext]
        # the state object and the locals made before the search are the same for the whole
        # search: read once (lumos.compiler.hoist)
        texts = [t.replace("m.st.", "st.") for t in [ttext, otext] + parts + keys]
        below = min(s for s in (tslot, oslot, 1 << 30) if s >= 0)
        (ttext, otext, *keys), first = invariant(texts, names, below, _NO_NAMES)
        if split is not None:
            ftext, rtext, *keys = keys
        first = "".join(f"    {line}\n" for line in first)
        if through is None:
            test = "ok = True"
        else:
            test = f"L[{tslot}] = nxt\n                ok = True if {truth(never_none(own_slot(ttext, tslot, 'nxt'), 'nxt'))} else False"
        if onto is None:
            ends = "    return tuple(ends)\n"
        else:
            ends = f"""    found = []
    for nxt in ends:
        L[{oslot}] = nxt
        if {truth(never_none(own_slot(otext, oslot, 'nxt'), 'nxt'))}:
            found.append(nxt)
    return tuple(found)
"""
        tested = None
        if split is not None:
            # the kept ends that pass the fixed parts, found when the walk is kept; a decision
            # tests the rest on them and leaves the space's slot at the last end, as testing
            # every end does (neither part writes any other slot)
            tested = f"""for nxt in ends or ():
    L[{oslot}] = nxt
    if {truth(never_none(own_slot(ftext, oslot, 'nxt'), 'nxt'))}:
        _passed.append(nxt)"""
            ends = f"""    if _passed is None:
{_indent(ends, 1)}    found = []
    for nxt in _passed:
        L[{oslot}] = nxt
        if {truth(never_none(own_slot(rtext, oslot, 'nxt'), 'nxt'))}:
            found.append(nxt)
    if ends:
        L[{oslot}] = ends[-1]
    return tuple(found)
"""
        walk = f"""ends = None
nbrs = m.board.links[{link!r}]
passable = {{}}
ring = {{start: {"-1" if came is None else "-1 if came is None else came"}}}
for _ in range(count - 1):
    following = {{}}
    arrive = following.setdefault
    for here, left in ring.items():
        for nxt in nbrs[here]:
            if nxt == left:
                continue
            ok = passable.get(nxt)
            if ok is None:
                {test}
                passable[nxt] = ok
            if ok and arrive(nxt, here) != here:   # walks arrive from two spaces
                following[nxt] = -2
    if not following:
        break
    ring = following
else:
    ends = sorted({{nxt for here, left in ring.items() for nxt in nbrs[here] if nxt != left and nxt != start}})
"""
        if fixed is None:
            middle = _indent(walk, 1)
        else:
            middle = _kept_walk(walk, keys, fixed.guard is not None, owned, names, tested)
        body = f"""def search(m, L):
    st = m.st
    start = {stext}
    count = {ctext}
{came_line}    if start is None or count <= 0:
        return ()
{first}{middle}    if ends is None:
        return ()
{ends}"""
        return body, names
    fn = _joined_def(make, "search")
    return fn


def _indent(text: str, depth: int) -> str:
    pad = "    " * depth
    return "".join(pad + line + "\n" if line else "\n" for line in text.splitlines())


_KEPT_MAX = 1 << 16     # kept walks per search (a bound on memory: more are searched, not kept)


class KeptWalks(dict):
    """key -> (ends, the slots' values) of one walk, or _NO_NAMES for a key the guard rules out
    (a class of its own so tests can find it)."""
    __slots__ = ()


def _kept_walk(walk: str, keys, guarded: bool, owned, names, tested=None) -> str:
    """The walk's lines kept per key (lumos.compiler.static_search): a kept walk gives its ends and
    the values the `through` condition left in the slots it writes; the first walk of a key that
    the guard allows records them (slots it did not write keep their values); a key the guard
    rules out is marked and searched every time. `tested`: lines that fill `_passed` from the
    ends, run when a walk is kept, and kept with it (`_passed` is None when nothing is kept)."""
    kept, no, unset = _name(), _name(), _name()
    names.update({kept: KeptWalks(), no: _NO_NAMES, unset: _UNSET_SLOT})
    t0, t1 = owned
    guard = keys.pop() if guarded else "True"
    key = "(start, count, " + "".join(f"{k}, " for k in keys) + ")"
    if t1 - t0 == 1:     # only the space's own slot (the common case)
        old, clear = [f"_old = L[{t0}]"], [f"L[{t0}] = {unset}"]
        restore = [f"_now = L[{t0}]", f"if _now is {unset}:", f"    L[{t0}] = _old"]
        give = [f"if _now is not {unset}:", f"    L[{t0}] = _now"]
    else:
        old, clear = [f"_old = L[{t0}:{t1}]"], [f"L[{t0}:{t1}] = ({unset},) * {t1 - t0}"]
        restore = [f"_now = L[{t0}:{t1}]", f"L[{t0}:{t1}] = [o if v is {unset} else v for o, v in zip(_old, _now)]"]
        give = [f"L[{t0}:{t1}] = [o if v is {unset} else v for o, v in zip(L[{t0}:{t1}], _now)]"]
    lines = [f"_key = {key}", f"_hit = {kept}.get(_key)", f"if _hit is None or _hit is {no}:",
             "    _fill = False", f"    if _hit is None and len({kept}) < {_KEPT_MAX}:",
             f"        if {guard}:", "            _fill = True"]
    lines += ["            " + x for x in old + clear]
    lines += ["        else:", f"            {kept}[_key] = {no}", "    try:"]
    lines += ["        " + x for x in walk.splitlines()]
    lines += ["    finally:", "        if _fill:"] + ["            " + x for x in restore]
    if tested is None:
        lines += ["    if _fill:", f"        {kept}[_key] = (ends, _now)", "else:", "    ends, _now = _hit"]
    else:
        lines += ["    _passed = None", "    if _fill:", "        _passed = []"]
        lines += ["        " + x for x in tested.splitlines()]
        lines += [f"        {kept}[_key] = (ends, _now, _passed)", "else:", "    ends, _now, _passed = _hit"]
    lines += ["    " + x for x in give]
    return _indent("\n".join(lines), 1)


_UNSET_SLOT = type("_Unset", (), {"__repr__": lambda self: "<unset>", "__slots__": ()})()   # a slot not yet written


def _listing(domains, nlocals, known, reuse, kinds=()):
    """The options of an action with binders (`with p in ...`, `with to in ...`) as one generated
    function: nested loops with each binder's list in line, the innermost binder's options
    made in one list expression. The same lists, the same writes to the locals and equal
    option tuples as the closure version; for the `do one of` instruction, which gives a tag
    and a list to fill.

    Option tuples are made once: when the innermost binder holds a piece, space, card, side or
    zone (numbered from 0), the options are read from a table of every possible option per tag
    (and per first binding, with two binders), the table's entries read by one
    `operator.itemgetter` per binding instead of one or two tuples made per option (see
    _table_reads; `map(row.__getitem__, items)` costs more than either, its method wrapper
    being called per item); an item that is no such number (none) takes the general path. The rows of one tag are found once per listing, then by the first
    binding alone (an int key, no tuple made and hashed per binding)."""
    nb = len(domains)
    sized = _option_table_size(kinds[-1]) if kinds else None

    def make():
        names = {"_known": known, "_rows": {}, "_size": sized, "_getter": operator.itemgetter}
        lines = ["def listing(m, side, tag, out):", f"    L = [None] * {nlocals}", "    L[0] = side"]
        pad = "    "
        per_tag: list = []   # the table of this tag's rows, looked up once per listing
        for i, (f, slot, is_zone) in enumerate(domains):
            text, n = _src(f)
            names.update(n)
            lines.append(f"{pad}_i{i} = {text}")
            if is_zone:
                lines.append(f"{pad}_i{i} = tuple(m.st.zones[_i{i}])")
            if i < nb - 1:
                lines.append(f"{pad}for _x{i} in _i{i} or ():")
                pad += "    "
                lines.append(f"{pad}L[{slot}] = _x{i}")
                continue
            lines.append(f"{pad}if _i{i}:")
            pad += "    "
            if slot == 2 and reuse and sized is not None:
                if not per_tag:
                    per_tag.append(f"    _tag_rows = _rows.get(tag) or _rows.setdefault(tag, {{}})")
                lines += [f"{pad}p1 = L[1]", f"{pad}row = _tag_rows.get(p1)", f"{pad}if row is None:",
                          f"{pad}    row = _tag_rows[p1] = tuple([(tag, (p1, x)) for x in range(_size(m))])",
                          f"{pad}try:", *_table_reads(pad, f"_i{i}"),
                          f"{pad}except (IndexError, TypeError):   # an item that is no number: none",
                          f"{pad}    out += [(tag, (p1, x)) for x in _i{i}]"]
            elif slot == 2 and reuse:
                lines += [f"{pad}p1 = L[1]", f"{pad}row = _known.get((tag, p1))", f"{pad}if row is None:",
                          f"{pad}    row = _known[tag, p1] = {{}}",
                          f"{pad}out.extend([row.get(x) or row.setdefault(x, (tag, (p1, x))) for x in _i{i}])"]
            elif slot == 2:
                lines += [f"{pad}p1 = L[1]", f"{pad}out.extend([(tag, (p1, x)) for x in _i{i}])"]
            elif slot == 1 and sized is not None:
                lines += [f"{pad}row = _rows.get(tag)", f"{pad}if row is None:",
                          f"{pad}    row = _rows[tag] = tuple([(tag, (x,)) for x in range(_size(m))])",
                          f"{pad}try:", *_table_reads(pad, f"_i{i}"),
                          f"{pad}except (IndexError, TypeError):   # an item that is no number: none",
                          f"{pad}    out += [(tag, (x,)) for x in _i{i}]"]
            elif slot == 1:
                lines.append(f"{pad}out.extend([(tag, (x,)) for x in _i{i}])")
            else:
                lines += [f"{pad}prefix = tuple(L[1:{slot}])",
                          f"{pad}out.extend([(tag, prefix + (x,)) for x in _i{i}])"]
        lines[3:3] = per_tag
        lines.append("    return out")
        return _state_read_once(lines, 3 + len(per_tag)), names
    g = {"__builtins__": builtins, "_make": make, "_compile_def": _compile_def}
    fn = types.FunctionType(_first_run_listing.__code__, g, "listing")
    g["_self"] = weakref.ref(fn)
    return fn


def _table_reads(pad: str, items: str) -> list:
    """The lines that add the options of `items` (never empty: the listing tests it first)
    read from the tag's `row`: one item by indexing, more by one `operator.itemgetter` (a
    tuple made in C, no comprehension frame: about 200 ns less per list of five). A bad item
    (none) raises as the comprehension did, before anything is added. No `==` in the text:
    tests/test_constant_folding.py checks that folded comparisons leave none behind."""
    return [f"{pad}    if len({items}) < 2:", f"{pad}        out.append(row[{items}[0]])",
            f"{pad}    else:", f"{pad}        out += _getter(*{items})(row)"]


def _option_table_size(kind: str):
    """fn(machine) -> how many values of `kind` the game numbers (ids 0 .. n - 1), or None for a
    kind that is not numbered so (numbers, texts, flags: their options are made as met)."""
    return {"piece": lambda m: len(m.cg.pieces), "space": lambda m: len(m.cg.board.spaces),
            "card": lambda m: len(m.cg.cards), "side": lambda m: m.cg.nsides,
            "zone": lambda m: len(m.cg.zones) * m.cg.nsides}.get(kind)


def _first_run_listing(m, side, tag, out):  # the code of a joined listing until its first call
    fn = _self()
    text, names = _make()
    fn.__globals__.update(names)
    fn.__code__ = _compile_def(text)
    return fn(m, side, tag, out)


def _exists(src, cond, slot, guard, where=None):
    """Whether `S where C` has an item (`... is not empty`), stopping at the first item that
    passes: for locals nobody reads afterwards only (Lowerer.scratch), as the item slot and
    the slots C writes are left as the first passing item leaves them, not the last item.
    Given the filter (`where`, for locals a saved state holds): the item slot is given S's last
    item first, as the filter leaves it, and C's text must write no slot and call nothing that
    reads the locals (else the answer is the filter's own, made whole); `leaves_last` says so."""
    def make():
        (stext, sn), (ctext, cn) = _src(src), _src(cond)
        names = {**sn, **cn}
        item = f"L[{slot}]"
        if where is not None:
            return _exists_leaving_last(stext, ctext, names, slot, guard, where, _never_none(src))
        if "(m, L)" not in ctext and f"__setitem__({slot}," not in ctext:
            ctext, put = ctext.replace(item, "_it"), ""
        else:
            put = f"\n        {item} = _it"
            if not _writes_slot(ctext, slot):   # the text's own reads of the slot read the variable
                ctext = own_slot(ctext, slot, "_it")
        if _never_none(src):
            ctext = _unguarded(ctext, "_it")
        ctext = _truth(ctext)
        head = ""
        if guard is not None:
            gtext, gn = _src(guard)
            names.update(gn)
            head = f"    if not ({gtext}):\n        return False\n"
        body = f"""def exists(m, L):
{head}    for _it in ({stext}) or ():{put}
        if {ctext}:
            return True
    return False
"""
        return _state_read_once(body.splitlines()), names
    fn = _joined_def(make, "exists")
    if where is not None:
        fn.leaves_last = lambda: _runs_alone(_src(cond)[0])
    return fn


def _runs_alone(ctext: str) -> bool:
    """Whether a filter's condition text may be run item by item on its own: it writes no slot
    and calls nothing that reads the locals (see _exists, given the filter)."""
    return "(m, L)" not in ctext and "__setitem__(" not in ctext


def _exists_leaving_last(stext, ctext, names, slot, guard, where, unguarded):
    """(text, names) of _exists given the filter: see there."""
    head = ""
    if guard is not None:
        gtext, gn = _src(guard)
        names.update(gn)
        head = f"    if not ({gtext}):\n        return False\n"
    if not _runs_alone(ctext):   # (e_IsEmpty reads the filter itself then)
        wtext, wn = _src(where)
        names.update(wn)
        return f"def exists(m, L):\n{head}    return bool({wtext})\n", names
    ctext = ctext.replace(f"L[{slot}]", "_it")
    ctext = _truth(_unguarded(ctext, "_it") if unguarded else ctext)
    body = f"""def exists(m, L):
{head}    _items = ({stext}) or ()
    if not _items:
        return False
    L[{slot}] = _items[-1]
    for _it in _items:
        if {ctext}:
            return True
    return False
"""
    return _state_read_once(body.splitlines()), names


def _in_text(positive: bool, a, b):
    """make() for `a in b` (`not in`) of a list: a's value first, then b's; none holds nothing."""
    def make():
        (at, an), (bt, bn) = _src(a), _src(b)
        return f"({at}) {'in' if positive else 'not in'} (({bt}) or ())", {**an, **bn}
    return make


def _in_sets_text(positive: bool, of, a, sets):
    """make() for `a in X.region` of a list per entity that never changes (one set per entity):
    the entity first, then a's value, as the closure computes them."""
    def make():
        (ot, on), (at, an) = _src(of), _src(a)
        w, s = _name(), _name()
        if positive:
            return f"({w} := ({ot})) is not None and ({at}) in {s}[{w}]", {**on, **an, s: sets}
        return f"({w} := ({ot})) is None or ({at}) not in {s}[{w}]", {**on, **an, s: sets}
    return make


def _zone_cards_text(zone):
    """make() for the cards of a zone read as a list: () for no zone."""
    def make():
        z = _name()
        return _around(zone, f"() if ({z} := (", f")) is None else m.st.zones[{z}]")
    return make


def _method_text(fn, method: str, args, forms=None):
    """fn with a text `m.<method>(a, b, ...)`, each argument's text in line (left to right, as the
    call evaluates them) when any has one (the specialised back end only). `forms`: per argument, a format for its text
    (`"{} or ()"`). `method` is a name of Machine's, never designer text."""
    if not specialised() or not any(_has_src(a) for a in args):
        return fn
    forms = forms or ("{}",) * len(args)

    def make():
        parts = [_src(a) for a in args]
        return (f"m.{method}(" + ", ".join(form.format(f"({t})") for form, (t, _n) in zip(forms, parts)) + ")",
                _merge(*parts))
    return _lazy(fn, make)
