"""Runs of simple instructions -> one generated Python function each (the specialised back end).

A procedure is a tuple of instructions the machine calls one by one; between two calls it
tests whether the run must stop. Most instructions never stop it (`let`, `set`, `add`,
`log`, an `if`'s test, a `for each` step, a jump), so a run of them, and the one instruction
after them (a call, a decision, a move...), can be one function:
their statements written out with their expressions in line (lumos.compiler.fused), the
program counter set after each exactly as the instructions set it (so an error still points
at its own line). Where a test or a step goes elsewhere, or a jump goes, the function goes
on with the instructions there (so a loop of simple instructions is one call), up to
MAX_BLOCK instructions in a call. It returns how many instructions it ran, so the step limit
counts exactly what the instructions would count. An instruction may carry its own text
(`block = ("plain", make)`: a statement the run goes on after; `("tail", make)`: one that may
call, return or fire a trigger, after which the run returns, as after a call of it), or say it
is a *step* (`block = STEP`: it either sets `Machine.halt` or goes on to the next instruction,
such as a `place`, a `put` or a `choose` of one item; the run calls it and goes on when it did
not halt, instead of returning to the machine to call the next one; `("steptext", make)`: a
step with a text of its own, written in line, then the same test of `halt`).

The function for the run starting at instruction i is `Proc.run[i]` (the instruction itself
when no run starts there); it is compiled the first time it runs. Nothing a designer wrote
enters its text: values are bound names (`_12`), slots and program counters numbers.
"""
from __future__ import annotations

import builtins
import types
import weakref

from lumos.compiler.fused import _compile_def, _name, _src
from lumos.interpreter.machine import MAX_BLOCK   # instructions per run at most

_BUDGET = 3 * MAX_BLOCK   # instructions written per run's function at most (its branches copy instructions)
# instructions that are not a run by themselves: their own call costs what a run's would (a jump,
# an instruction without a text); any other alone is a run whose text writes in line what its
# closure calls (a store, a condition, a call of a procedure)
_NOT_ALONE = frozenset(("op", "step", "jump", "pass"))
STEP = ("step",)   # the `block` of an instruction that halts or goes on to the next one (see above)


def blocks(code: tuple) -> tuple:
    """Proc.run for `code`: per instruction, the function of the run starting there, or the
    instruction itself when fewer than two simple instructions start there and it is not worth
    a run alone (_NOT_ALONE)."""
    run = [_callable(op) for op in code]
    for i in range(len(code)):
        if getattr(code[i], "block", None) is None:
            continue
        tree = _path(code, i, 0, [_BUDGET])
        if _size(tree) >= 2 or tree[1][0] not in _NOT_ALONE:   # one instruction alone: its text in line
            run[i] = _block(tree)
    return tuple(run)


def _path(code: tuple, pc: int, k: int, budget: list):
    """The instructions a run goes through from instruction pc, when k ran before in its call:
    a tree of (pc, block, k + 1, what follows) with, at a `test` or a `next`, both ways: the one
    that falls through first, then the one taken (a jump is followed too), so a loop of simple
    instructions is one call. It stops (None: return k) at MAX_BLOCK instructions, at the end
    of the procedure or when the budget of written instructions is spent; any other instruction
    ends it (called as it is, then the run returns: the machine tests what it did)."""
    if k >= MAX_BLOCK or pc >= len(code) or budget[0] <= 0:
        return None
    b = getattr(code[pc], "block", None)
    budget[0] -= 1
    if b is None:
        return (pc, ("op", code[pc]), k + 1, None, None)
    if b[0] == "tail":   # an instruction that may call, return or fire: written out, then the run ends
        return (pc, b, k + 1, None, None)
    kind = b[0]
    if kind == "step":   # called; the run goes on at the next instruction unless it halted
        return (pc, ("step", code[pc]), k + 1, _path(code, pc + 1, k + 1, budget), None)
    if kind == "steptext":   # a step with a text of its own, written in line
        return (pc, b, k + 1, _path(code, pc + 1, k + 1, budget), None)
    if kind == "jump":
        return (pc, b, k + 1, _path(code, int(b[1].pc), k + 1, budget), None)
    fall = _path(code, pc + 1, k + 1, budget)
    taken = None
    if kind in ("test", "count"):
        taken = _path(code, int(b[2].pc), k + 1, budget)
    elif kind == "next":
        taken = _path(code, int(b[4].pc), k + 1, budget)
    return (pc, b, k + 1, fall, taken)


def _size(tree) -> int:
    if tree is None:
        return 0
    return 1 + _size(tree[3]) + _size(tree[4])


def _lines(tree, k: int, names: dict) -> list[str]:
    """The statements of a tree (see _path) whose first instruction is the (k+1)-th of its run."""
    if tree is None:
        return [f"return {k}"]
    pc, b, k1, fall, taken = tree
    if b[0] in ("op", "tail"):
        return _statements(pc, b, k1, names, None) + [f"return {k1}"]
    if b[0] == "jump":
        return _statements(pc, b, k1, names, None) + _lines(fall, k1, names)
    way = None
    if b[0] in ("test", "next", "count"):
        way = ["    " + line for line in _lines(taken, k1, names)]
    return _statements(pc, b, k1, names, way) + _lines(fall, k1, names)


def _statements(pc: int, b: tuple, k: int, names: dict, taken) -> list[str]:
    """The lines of instruction `pc` (the k-th of its run) and the program counter after it;
    `taken`: for a `test` or a `next`, the lines run when it goes elsewhere (after it has set
    the program counter there)."""
    kind = b[0]
    nxt = f"fr[1] = {pc + 1}"
    if kind == "let":
        _, slot, f = b
        text, n = _src(f)
        names.update(n)
        return [f"L[{slot}] = {text}", nxt]
    if kind == "set":
        _, store, f = b
        text, n = _src(f)
        names.update(n)
        return _stored(store, text, names) + [nxt]
    if kind == "add":
        _, store, get, f, sign = b
        (gt, gn), (ft, fn) = _src(get), _src(f)
        names.update(gn)
        names.update(fn)
        return _stored(store, f"(({gt}) or 0) + {int(sign)} * ({ft})", names) + [nxt]
    if kind == "log":
        t = _name()
        names[t] = b[1]
        return ["if m.events is not None:", f"    m.emit(fr, {t}(m, L))", nxt]
    if kind == "pass":
        return [nxt]
    if kind == "times":   # `repeat N times`: the count, none counting 0
        _, slot, f = b
        text, n = _src(f)
        names.update(n)
        return [f"L[{slot}] = ({text}) or 0", nxt]
    if kind == "count":   # a turn of `repeat`: none left goes to the end, else one fewer
        _, slot, end = b
        return [f"if L[{slot}] <= 0:", f"    fr[1] = {int(end.pc)}", *taken, f"L[{slot}] -= 1", nxt]
    if kind in ("plain", "tail"):   # a statement's own text (lower_stmt.py): it sets the program counter
        lines, n = b[1](pc)
        names.update(n)
        return lines
    if kind == "each":
        _, f, lst, idx, is_zone = b
        text, n = _src(f)
        names.update(n)
        items = "tuple(m.st.zones[_bv])" if is_zone else "tuple(_bv or ())"
        return [f"_bv = {text}", f"L[{lst}] = {items}", f"L[{idx}] = 0", nxt]
    if kind == "test":
        _, c, skip = b
        text, n = _src(c)
        names.update(n)
        return [f"if not ({text}):", f"    fr[1] = {int(skip.pc)}", *taken, nxt]
    if kind == "next":
        _, lst, idx, var, end = b
        return [f"_bi = L[{idx}]", f"_bl = L[{lst}]", "if _bi >= len(_bl):", f"    fr[1] = {int(end.pc)}",
                *taken, f"L[{var}] = _bl[_bi]", f"L[{idx}] = _bi + 1", nxt]
    if kind == "jump":
        return [f"fr[1] = {int(b[1].pc)}"]
    if kind == "op":
        o = _name()
        names[o] = _callable(b[1])
        return [f"{o}(m, fr)"]
    if kind == "steptext":   # its own text (lower_stmt.py) sets the program counter; then as a step
        lines, n = b[1](pc)
        names.update(n)
        return lines + ["if m.halt:", f"    return {k}"]
    if kind == "step":   # it set the program counter to pc + 1 unless it halted
        o = _name()
        names[o] = _callable(b[1])
        return [f"{o}(m, fr)", "if m.halt:", f"    return {k}"]
    raise ValueError(kind)


def _callable(op):
    """What calls `op`: a decision's object by its bound `__call__` (a call of an object with
    `__call__` takes a slower way through Python than a call of a method), else op itself."""
    return op if isinstance(op, types.FunctionType) else op.__call__


def _stored(store, value: str, names: dict) -> list[str]:
    """The lines of `store(m, L, value)`: the store's own text when it has one (a local, a
    `var`, a variable per side, piece, card or space, within its limits), else a call of it."""
    put = getattr(store, "put", None)
    if put is None:
        s = _name()
        names[s] = store
        return [f"{s}(m, L, {value})"]
    lines, n = put(value)
    names.update(n)
    return lines


def _block(tree):
    def make():
        names: dict = {}
        lines = ["def block(m, fr):", "    L = fr[2]"]
        lines += ["    " + line for line in _lines(tree, 0, names)]
        return "\n".join(lines) + "\n", names
    g = {"__builtins__": builtins, "_make": make, "_compile_def": _compile_def}
    fn = types.FunctionType(_first_run_block.__code__, g, "block")
    g["_self"] = weakref.ref(fn)
    return fn


def _first_run_block(m, fr):  # the code of a run's function until its first call
    fn = _self()  # noqa: F821 (in the function's own globals)
    text, names = _make()  # noqa: F821
    fn.__globals__.update(names)
    fn.__code__ = _compile_def(text)
    return fn(m, fr)
