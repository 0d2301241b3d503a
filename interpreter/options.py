"""A pending decision -> its options as plain records; a compiled game -> its fixed action space.

An option record says what the option does, in names a person (or a test, a log, a
learning agent) can read and write back:

    {"id": 412, "label": "move red runner 1 to d6", "kind": "action",
     "rule": {"name": "move_player", "section": "Movement"},
     "args": {"p": "red runner 1", "to": "d6"}}

`kind` is `action` (one of the actions a `do one of` offers), `choice` (a `choose` in a
rule), `card` (a `choose` of a card: playing, discarding, answering a window), `menu` (a
`choose one:` branch), `pass` (the "no" of a `may`), `anytime` (an `anytime` rule, added to
any decision of its side) or `chance` (a die's face). Values are
named: pieces, spaces, sides and zones by their names, cards by their card name (copies
of one card are one option), numbers and texts as themselves.

The action space numbers every option the game can ever offer, the same in every state:
an option's key is its rule and its arguments by name (`("action", "move_player",
(("p", "red runner 1"), ("to", "d6")))`), and the keys are listed once per compiled
game from the types the rules declare (every piece for a piece, every space for a space,
every card name for a card, the numbers and texts the game writes for a number or a
text). Nothing here knows a game.
"""
from __future__ import annotations

import itertools
from typing import Any

from lumos.interpreter.program import CHANCE, CompiledGame

PASS_KEY = ("pass",)


# ---------------------------------------------------------------- naming values
def name_of(cg: CompiledGame, value: Any, kind: str) -> Any:
    """A value as a record shows it: entities by name, lists as lists, scalars as themselves."""
    if value is None:
        return None
    if kind.startswith("list:"):
        return [name_of(cg, v, kind[5:]) for v in value]
    if kind == "piece":
        return cg.pieces[value].name
    if kind == "space":
        return cg.board.spaces[value]
    if kind == "side":
        return cg.sides[value]
    if kind == "card":
        return cg.cards[value].name
    if kind == "zone":
        return cg.zone_label(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def _frozen(value: Any) -> Any:
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


# ---------------------------------------------------------------- the pending decision
def _decision_op(state):
    st = state.st
    fr = st.frames[-1]
    return st.pending, fr, state.cg.procs[fr[0]].code[fr[1]], state.cg.procs[fr[0]]


def _rule_of(cg: CompiledGame, op, proc, value) -> dict:
    if getattr(op, "kind", "") == "action" and value is not None:
        info = cg.actions[value[0]]
        return {"name": info.name, "section": info.sources[0] if info.sources else ""}
    return {"name": proc.name, "section": proc.sources[0] if proc.sources else ""}


def key_of(cg: CompiledGame, op, kind: str, args: dict, value) -> tuple:
    """The action-space key of one option of the decision made by `op`."""
    if kind == "chance":   # a die's face, a question's "right" or "wrong": the outcome named
        return ("chance", _frozen(next(iter(args.values()), None)))
    if value is None:
        return PASS_KEY
    if kind == "action":
        return ("action", cg.actions[value[0]].name, tuple((k, _frozen(v)) for k, v in args.items()))
    if kind == "menu":
        return ("menu", op.site, args["option"])
    return ("choose", op.site, _frozen(next(iter(args.values()), None)))


def option_records(state) -> list[dict]:
    """The pending decision's options as records (see the module docstring), in option order."""
    if state.st.pending is None or state.st.result is not None:
        return []
    cg = state.cg
    pend, fr, op, proc = _decision_op(state)
    labels = state.machine.labels()
    kind = "chance" if pend["side"] == CHANCE else getattr(op, "kind", "choice")
    space = action_space(cg)
    out = []
    for i, value in enumerate(pend["options"]):
        if isinstance(value, dict):   # an `anytime` rule's option: its own key, no arguments
            rule = cg.anytime[value["anytime"]]
            out.append({"id": space.index.get(("anytime", rule.label), -1), "label": labels[i], "kind": "anytime",
                        "rule": {"name": f"anytime {rule.label}", "section": rule.section}, "args": {}})
            continue
        raw = op.args(state.machine, fr, value) if hasattr(op, "args") else {}
        args = {k: name_of(cg, v, t) for k, (v, t) in raw.items()}
        k = "pass" if value is None and kind != "chance" else kind
        key = key_of(cg, op, kind, args, value)
        out.append({"id": space.index.get(key, -1), "label": labels[i], "kind": k,
                    "rule": _rule_of(cg, op, proc, value), "args": args})
    return out


def chosen_action(state, index: int) -> str | None:
    """The name of the action option `index` takes (None when it is not an action): cheap, no labels."""
    pend = state.st.pending
    if pend is None or state.st.result is not None or pend["side"] == CHANCE:
        return None
    _pend, _fr, op, _proc = _decision_op(state)
    value = pend["options"][index]
    if getattr(op, "kind", "") != "action" or value is None or isinstance(value, dict):
        return None
    return state.cg.actions[value[0]].name


def chosen_cards(state, index: int) -> list[int]:
    """The cards option `index` of a side's decision names (a card option: play, use, discard)."""
    pend = state.st.pending
    if pend is None or state.st.result is not None or pend["side"] == CHANCE:
        return []
    _pend, fr, op, _proc = _decision_op(state)
    value = pend["options"][index]
    if value is None or isinstance(value, dict) or not hasattr(op, "args"):
        return []
    out = []
    for v, t in op.args(state.machine, fr, value).values():
        if t == "card" and isinstance(v, int):
            out.append(v)
        elif t == "list:card" and isinstance(v, (list, tuple)):
            out.extend(c for c in v if isinstance(c, int))
    return out


def option_ids(state) -> list[int]:
    """The action-space ids of the pending decision's options, in option order, without making
    their labels (the records' slow part): what a search asks at every node it visits."""
    if state.st.pending is None or state.st.result is not None:
        return []
    cg = state.cg
    pend, fr, op, _proc = _decision_op(state)
    kind = "chance" if pend["side"] == CHANCE else getattr(op, "kind", "choice")
    index = action_space(cg).index
    has_args = hasattr(op, "args")
    out = []
    for value in pend["options"]:
        if isinstance(value, dict):
            out.append(index.get(("anytime", cg.anytime[value["anytime"]].label), -1))
            continue
        raw = op.args(state.machine, fr, value) if has_args else {}
        args = {k: name_of(cg, v, t) for k, (v, t) in raw.items()}
        out.append(index.get(key_of(cg, op, kind, args, value), -1))
    return out


def unique_labels(labels: list[str], args: list[dict]) -> list[str]:
    """Labels made unique within one decision: a repeated label gets its arguments, then a number."""
    counts: dict[str, int] = {}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    if all(c == 1 for c in counts.values()):
        return labels
    out = []
    for label, a in zip(labels, args):
        if counts[label] > 1 and a:
            label = f"{label} ({', '.join(f'{k} {_show(v)}' for k, v in a.items())})"
        out.append(label)
    seen: dict[str, int] = {}
    final = []
    for label in out:
        seen[label] = seen.get(label, 0) + 1
        final.append(label if seen[label] == 1 else f"{label} #{seen[label]}")
    return final


def _show(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


# ---------------------------------------------------------------- the action space
class ActionSpace:
    """Every option key of a compiled game, numbered once: `keys[i]` and `index[key] == i`."""

    __slots__ = ("keys", "index")

    def __init__(self, keys: list[tuple]):
        self.keys = keys
        self.index = {k: i for i, k in enumerate(keys)}

    def __len__(self) -> int:
        return len(self.keys)


def action_space(cg: CompiledGame) -> ActionSpace:
    """The action space of `cg`, built on first use and kept with the compiled game."""
    space = cg.__dict__.get("_action_space")
    if space is None:
        space = ActionSpace(_all_keys(cg))
        object.__setattr__(cg, "_action_space", space)   # a cache: the game's data is unchanged
    return space


def domain(cg: CompiledGame, kind: str) -> list:
    """Every named value a value of `kind` can take in `cg`."""
    if kind == "piece":
        return [p.name for p in cg.pieces]
    if kind == "space":
        return list(cg.board.spaces)
    if kind == "side":
        return list(cg.sides)
    if kind == "card":
        return list(dict.fromkeys(c.name for c in cg.cards))
    if kind == "zone":
        return list(dict.fromkeys(cg.zone_label(z) for z in range(len(cg.zones) * cg.nsides)))
    if kind == "flag":
        return [False, True]
    if kind == "number":
        return [v for v in cg.vocabulary if isinstance(v, (int, float))]
    if kind == "text":
        return [v for v in cg.vocabulary if isinstance(v, str)]
    return list(cg.vocabulary)


def _all_keys(cg: CompiledGame) -> list[tuple]:
    keys: list[tuple] = [PASS_KEY]
    for info in cg.actions:
        domains = [domain(cg, k) for k in info.kinds]
        for combo in itertools.product(*domains):
            keys.append(("action", info.name, tuple(zip(info.params, combo))))
    faces: list = []
    for proc in cg.procs:
        for op in proc.code:
            kind = getattr(op, "kind", None)
            faces += [f for f in getattr(op, "outcomes", ()) if f not in faces]   # chance nodes not of a die
            if kind in ("choice", "card"):
                keys += [("choose", op.site, v) for v in domain(cg, op.el)]
            elif kind == "menu":
                keys += [("menu", op.site, i + 1) for i in range(len(op.labels))]
    keys += [("anytime", rule.label) for rule in cg.anytime]
    for die in cg.dice.values():
        faces += [f for f in die if f not in faces]
    keys += [("chance", f) for f in faces]
    return list(dict.fromkeys(keys))
