"""What a search's conditions read that stays the same for the whole search, read once per search.

Why: a `reach` tests its conditions for every space it meets, and their texts (lumos.compiler.fused)
read the locals of the rule around it each time: `p` of `open_ground(p, s)` is `L[1]` on every
test, and a remembered part keyed on `(p, s)` looks up `p`'s row of its dictionary before the
space's entry. Nothing in a search writes the slots made before it (an expression writes only
slots of its own: the search's spaces, the items of its `where`s, the arguments of its inlined
calls; see compiler/purity.py), so those slots have one value for the whole search. Here their
reads become variables of the search function, set once, and the remembered part's row is looked up
once, before the search, instead of on every test. The space being tested (the search's own
slot) is read from the loop's variable instead of the list of locals; being a space of the
board, it is never none, so the conditions' none tests on it go (`never_none`); and an `if`
reads only its test's truth, so `True if X else False` around it goes (`truth`).

The same values, the same tests in the same order, the same writes to the locals: only fewer
lookups. Nothing a designer wrote is in these texts (names are `_12`, slots are numbers).
"""
from __future__ import annotations

import re

_ROW = re.compile(r"(_\d+)\.get\(L\[(\d+)\], (_\d+)\)\.get\(")   # a remembered part keyed on two slots
_SLOT = re.compile(r"(?<![\w.])L\[(\d+)\]")


def invariant(texts: list[str], names: dict, below: int, empty: dict) -> tuple[list[str], list[str]]:
    """(texts, lines to run first in the search) for condition texts run in a loop that writes no
    slot under `below`. `empty` is the shared empty dictionary a remembered part's text reads a
    missing row from (fused._NO_NAMES): the pattern is a remembered part only with it."""
    rows: dict = {}
    slots: set = set()

    def row(mt):
        cache, s0, e = mt.group(1), int(mt.group(2)), mt.group(3)
        if s0 >= below or names.get(e) is not empty or type(names.get(cache)) is not dict:
            return mt.group(0)
        slots.add(s0)
        r = rows.setdefault((cache, s0), (f"_row{cache}", cache, s0))[0]
        # looked up once, before the search (the row the remembered part would make on its first
        # miss is made there instead: the same dict), not tested at every use
        return f"{r}.get("

    def slot(mt):
        s = int(mt.group(1))
        if s >= below:
            return mt.group(0)
        slots.add(s)
        return f"_L{s}"
    out = [_SLOT.sub(slot, _ROW.sub(row, t)) for t in texts]
    first = [f"_L{s} = L[{s}]" for s in sorted(slots)] + \
        [f"{r} = {cache}.get(_L{s0}) or {cache}.setdefault(_L{s0}, {{}})" for r, cache, s0 in rows.values()]
    return out, first


def own_slot(text: str, slot: int, var: str) -> str:
    """The text with reads of the search's own slot (just written with the loop's variable `var`)
    reading the variable."""
    return re.sub(rf"(?<![\w.])L\[{slot}\]", var, text)



_ROW_LINE = re.compile(r"(_row(_\d+)) = \2\.get\((_L\d+)\) or \2\.setdefault\(\3, \{\}\)")
_ROW_USE = re.compile(r"\((_\d+) if \(\1 := (_row_\d+)\.get\((\w+)\)\) is not None else (_\d+)\(m, L\)\)")


def space_rows(texts: list[str], first: list[str], var: str, size: str, names: dict):
    """(texts, first lines) with each remembered part's row that the search reads only by the space
    it tests (`var`, a space of the board: a number under `size`, the board's count of spaces) read
    from a list indexed by the space instead of the row's dictionary: an index of a list instead of
    a call of `get` for every space tested. The list mirrors the row: a space not in it yet is
    looked up as before (the remembered part's own function reads the row, or works the answer out
    and keeps it there) and its answer written in the list, so both hold the same answers (a
    remembered part's answer never changes: it reads no state). One list per value of the row's
    key, kept beside the search (names `_spaces_12`)."""
    texts, first = _space_keyed_rows(texts, first, var, size, names)
    lines = {mt.group(1): mt for mt in map(_ROW_LINE.fullmatch, first) if mt}
    other = {r for r in lines if any(len(re.findall(rf"{r}(?!\w)", t)) != len(
        [u for u in _ROW_USE.finditer(t) if u.group(2) == r and u.group(3) == var]) for t in texts)}
    listed = [r for r in lines if r not in other and any(r in t for t in texts)]
    if not listed:
        return texts, first

    texts = _read_from_lists(texts, _ROW_USE, listed, var, "_s", names)
    out = []
    for line in first:
        mt = _ROW_LINE.fullmatch(line)
        if mt is None or mt.group(1) not in listed:
            out.append(line)
            continue
        r, key = mt.group(1), mt.group(3)
        names[f"_spaces{mt.group(2)}"] = {}
        out.append(f"_s{r} = _spaces{mt.group(2)}.get({key}) or _new_answers(_spaces{mt.group(2)}, {key}, {size})")
    return texts, out


def _space_keyed_rows(texts: list[str], first: list[str], var: str, size: str, names: dict):
    """(texts, first lines) with each remembered part keyed on the tested space alone (its
    dictionary read by `var`: `(_9 if (_9 := _8.get(nxt)) is not None else _7(m, L))`) read
    from a list indexed by the space, as space_rows does for parts keyed on a local and the
    space: the list mirrors the dictionary (one list for the whole game, `_spaces1_8`, made on
    the search's first run). Only for a dictionary the texts read nowhere else."""
    uses = [mt for t in texts for mt in _SPACE_USE.finditer(t) if mt.group(3) == var]
    caches = {mt.group(2) for mt in uses
              if type(names.get(mt.group(2))) is dict and getattr(names.get(mt.group(4)), "reads", None) is not None
              and len(names[mt.group(4)].reads) == 1}
    caches = {c for c in caches if sum(len(re.findall(rf"(?<![\w.]){c}(?!\w)", t)) for t in texts)
              == sum(1 for mt in uses if mt.group(2) == c)}
    if not caches:
        return texts, first

    texts = _read_from_lists(texts, _SPACE_USE, caches, var, "_s1", names)
    out = list(first)
    for c in sorted(caches):
        names[f"_spaces1{c}"] = {}
        out.append(f"_s1{c} = _spaces1{c}.get(0) or _new_answers(_spaces1{c}, 0, {size})")
    return texts, out


def _read_from_lists(texts: list[str], use: re.Pattern, rows, var: str, prefix: str, names: dict) -> list[str]:
    """The texts with each use (`use`: groups name, row, space, function) of one of `rows` by the
    space `var` read from the row's list (`{prefix}{row}`), and on a miss worked out by the
    remembered part's function and written there (space_rows, _space_keyed_rows)."""
    def read(mt):
        h, r, v, f = mt.groups()
        if r not in rows or v != var:
            return mt.group(0)
        return f"({h} if ({h} := {prefix}{r}[{var}]) is not None else _put_answer({prefix}{r}, {var}, {f}(m, L)))"
    names["_put_answer"], names["_new_answers"] = _put_answer, _new_answers
    return [use.sub(read, t) for t in texts]


_SPACE_USE = re.compile(r"\((_\d+) if \(\1 := (_\d+)\.get\((\w+)\)\) is not None else (_\d+)\(m, L\)\)")
_CALL_WITH_LOCALS = re.compile(r"(?<![\w.])(_\d+)\(m, L\)")
_LOCALS = re.compile(r"(?<![\w.])L(?!\w)")


def slot_on_miss(text: str, slot: int, var: str, names: dict, search_slots=()):
    """The text of a condition on the space `var` for a search that need not leave the space in
    its slot (a kept search: nothing reads the slot afterwards), when only its remembered parts
    read the locals: the slot is written just before a remembered part that reads it works its
    answer out, instead of before every test. None when anything else in the text reads the locals
    (then the search writes the slot as before), or when a remembered part reads another of the
    search's slots (`search_slots`)."""
    clash = []

    def call(mt):
        reads = getattr(names.get(mt.group(1)), "reads", None)
        if reads is None:
            return mt.group(0)
        if set(reads) & (set(search_slots) - {slot}):
            clash.append(mt.group(1))
        if slot not in reads:
            return f"{mt.group(1)}(m, _L_)"
        return f"(L.__setitem__({slot}, {var}) or {mt.group(1)}(m, _L_))"
    out = _CALL_WITH_LOCALS.sub(call, text)
    bare = re.sub(rf"\(L\.__setitem__\({slot}, {var}\) or ", "", out)
    if clash or _LOCALS.search(bare):
        return None
    return out.replace("(m, _L_)", "(m, L)")


def _put_answer(row: list, space: int, answer):
    row[space] = answer
    return answer


def _new_answers(lists: dict, key, size: int) -> list:
    row = lists[key] = [None] * size
    return row


_GENERATED_NAME = re.compile(r"(?<![\w.])_\d+(?!\w)")


def never_none(text: str, var: str) -> str:
    """The text with its tests of `var` against none dropped: `var` is a space of the board (a
    search's loop variable), never none. A name the text binds to `var` (`(_7 := nxt) is None or
    ...`) reads `var` itself; only names bound to nothing else in the text."""
    names = set()
    for name in set(re.findall(rf"\((_\d+) := {var}\)", text)):
        if text.count(f"({name} := ") != text.count(f"({name} := {var})"):
            continue
        names.add(name)
        text = text.replace(f"({name} := {var}) is None or ", "")
        text = text.replace(f"({name} := {var}) is not None and ", "")
        text = text.replace(f"None if ({name} := {var}) is None else ", "")
        text = text.replace(f"({name} := {var})", var)
    if names:
        text = _GENERATED_NAME.sub(lambda mt: var if mt.group(0) in names else mt.group(0), text)
    return text


def truth(text: str) -> str:
    """The text as an `if` statement's test, where only its truth counts: `True if X else False`
    is X, and so is each operand of an `and`/`or` chain of such tests."""
    while text.startswith("(True if ") and text.endswith(" else False)") and _closes_at_end(text):
        text = text[len("(True if "):-len(" else False)")]
    parts = _top_level(text)
    if parts is None:
        return text
    op, items = parts
    return f" {op} ".join(_bracketed(truth(item)) for item in items)


def _bracketed(text: str) -> str:
    return text if text.startswith("(") and _closes_at_end(text) else f"({text})"


def _top_level(text: str):
    """(op, operands) when the text is an `and` chain or an `or` chain of bracketed operands at
    its top level, else None. (Generated texts hold brackets only as syntax: designer strings
    are names bound outside the text.)"""
    items, ops, depth, start, i = [], set(), 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and ch == " ":
            op = "or" if text.startswith(" or ", i) else "and" if text.startswith(" and ", i) else None
            if op is not None:
                items.append(text[start:i])
                ops.add(op)
                i += len(op) + 2
                start = i
                continue
        i += 1
    items.append(text[start:])
    if len(ops) != 1 or not all(t.startswith("(") and _closes_at_end(t) for t in items):
        return None
    return ops.pop(), items


def _closes_at_end(text: str) -> bool:
    """Does the bracket opened by the text's first character close at its last one?"""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i == len(text) - 1
    return False
