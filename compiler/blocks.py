"""Runs of simple instructions -> one generated Python function each (the specialised back end).

A procedure is a tuple of instructions the machine calls one by one; between two calls it
tests whether the run must stop. Most instructions never stop it (`let`, `set`, `add`,
`log`, an `if`'s test, a `for each` step, a jump), so a run of them, and the one instruction
after them (a call, a decision, a move...), can be one function:
their statements written out with their expressions in line (lumos.compiler.fused), the
program counter set after each exactly as the instructions set it (so an error still points
at its own line), leaving early where a test or a step goes elsewhere. It returns how many
instructions it ran, so the step limit counts exactly what the instructions would count.

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

_LEAVES = ("jump",)    # a run ends after these; after a `test` or a `next` it goes on the way that falls through


def blocks(code: tuple) -> tuple:
    """Proc.run for `code`: per instruction, the function of the run starting there, or the
    instruction itself when fewer than two simple instructions start there."""
    n = len(code)
    run = list(code)
    for i in range(n):
        parts = []
        j = i
        while j < n and len(parts) < MAX_BLOCK:
            b = getattr(code[j], "block", None)
            if b is None:
                # any other instruction may end a run: called as it is, then the run returns
                # (the machine tests what it did: a call, a decision, a result)
                if parts:
                    parts.append((j, ("op", code[j])))
                break
            parts.append((j, b))
            j += 1
            if b[0] in _LEAVES:
                break
        if len(parts) >= 2:
            run[i] = _block(parts)
    return tuple(run)


def _statements(pc: int, b: tuple, k: int, names: dict) -> list[str]:
    """The lines of instruction `pc` (the k-th of its run) and the program counter after it."""
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
        s = _name()
        names[s] = store
        return [f"{s}(m, L, {text})", nxt]
    if kind == "add":
        _, store, get, f, sign = b
        (gt, gn), (ft, fn) = _src(get), _src(f)
        names.update(gn)
        names.update(fn)
        s = _name()
        names[s] = store
        return [f"{s}(m, L, (({gt}) or 0) + {int(sign)} * ({ft}))", nxt]
    if kind == "log":
        t = _name()
        names[t] = b[1]
        return ["if m.events is not None:", f"    m.emit(fr, {t}(m, L))", nxt]
    if kind == "pass":
        return [nxt]
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
        return [f"if not ({text}):", f"    fr[1] = {int(skip.pc)}", f"    return {k}", nxt]
    if kind == "next":
        _, lst, idx, var, end = b
        return [f"_bi = L[{idx}]", f"_bl = L[{lst}]", "if _bi >= len(_bl):", f"    fr[1] = {int(end.pc)}",
                f"    return {k}", f"L[{var}] = _bl[_bi]", f"L[{idx}] = _bi + 1", nxt]
    if kind == "jump":
        return [f"fr[1] = {int(b[1].pc)}"]
    if kind == "op":
        o = _name()
        names[o] = b[1]
        return [f"{o}(m, fr)"]
    raise ValueError(kind)


def _block(parts):
    def make():
        names: dict = {}
        lines = ["def block(m, fr):", "    L = fr[2]"]
        for k, (pc, b) in enumerate(parts, 1):
            lines += ["    " + line for line in _statements(pc, b, k, names)]
        lines.append(f"    return {len(parts)}")
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
