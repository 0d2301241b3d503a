"""States of one game -> the viewer's data for one side: per decision, what that side may see.

Every step is made from the side's own view: pieces and zones from
`GameState.position(for_side=side)` (a zone the side may not look into is only its size),
events as the side may read them (`public` text for those hidden from it), the options
only of the side's own decisions and of chance, and the choices of other sides only where
they show nothing hidden (a card another side chose is named once the side can see that
card, otherwise "a hidden choice"). The data never holds a card the side cannot see, so
the page cannot leak one, whatever its script does.

>>> from lumos.api import load_game                               # doctest: +SKIP
>>> data = side_data(load_game("catch-the-golden-snitch"), *log_history(cg, "game.jsonl"), side=0)   # doctest: +SKIP
>>> data["steps"][0]["decider"]                                   # doctest: +SKIP
'home'
"""
from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

from lumos.present.choices import HIDDEN_CHOICE, shown_choice, visible_cards  # noqa: F401 - HIDDEN_CHOICE: what the data says
from lumos.present.options import consequences
from lumos.present.status import side_status, words



def log_history(cg, log) -> tuple[list, list[int]]:
    """(every state of a logged game, with its events; the option chosen at each state but the last)."""
    from lumos.api import replay_iter
    lines = Path(log).read_text(encoding="utf-8").splitlines() if isinstance(log, (str, Path)) else list(log)
    records = [json.loads(line) if isinstance(line, str) else line for line in lines if line]
    states = list(replay_iter(cg, records, events=True))
    choices = [rec["choice"] for rec in records[1:] if "choice" in rec]
    return states, choices[:len(states) - 1]


# ---------------------------------------------------------------- links to the reference
def make_id(text: str) -> str:
    """An HTML id as docutils makes it (so links land on the reference's own anchors)."""
    try:
        from docutils.nodes import make_id as docutils_id
        return docutils_id(text)
    except ImportError:   # the same rule, for installs without the docs extra
        text = unicodedata.normalize("NFKD", text.lower()).encode("ascii", "ignore").decode("ascii")
        text = re.sub(r"[^a-z0-9]+", "-", " ".join(text.split()))
        return re.sub(r"^[^a-z]+|[^a-z0-9]+$", "", text)


def ref_link(cg, kind: str, name: str, base: str = "/reference/") -> str:
    """The address of a rule, action or card on the game's reference page."""
    return f"{base}{make_id(cg.id) or 'game'}.html#{make_id(f'lumos-{cg.id}-{kind}-{name}')}"


class Rules:
    """Rule names -> what the page says of them: name in words, rulebook section, where, link."""

    def __init__(self, cg, base: str):
        self.cg, self.base = cg, base
        self.procs = {}
        for p in cg.procs:
            self.procs.setdefault(p.name, p)
        self.actions = {a.name: a for a in cg.actions}

    def describe(self, name: str, section: str = "", where: str = "") -> dict:
        if name.startswith("card "):
            kind, target = "card", name[5:]
        elif name in self.actions:
            kind, target = "action", name
        else:
            kind, target = "rule", name
        if not section:
            info = self.actions.get(name) or self.procs.get(name)
            section = info.sources[0] if info is not None and info.sources else ""
        return {"name": words(name), "section": section, "where": where,
                "href": ref_link(self.cg, kind, target, self.base)}


# ---------------------------------------------------------------- one side's data
def _chosen(cg, state, choice: int, side: int, before: dict, after: dict) -> str:
    return shown_choice(cg, state.options()[choice]["label"], state.current_player(), side, before, after)


def _events(rules: Rules, events: list[dict], side: int) -> list[dict]:
    out = []
    for ev in events:
        hidden = side in ev.get("hidden_from", ())
        text = ev.get("public", "") if hidden else ev["event"]
        if text:
            out.append({"text": text, "rule": rules.describe(ev["in"], where=_short_where(ev["rule"]))})
    return out


def _short_where(where: str) -> str:
    """`/abs/path/rules/game/file.lumos:12` -> `game/file.lumos:12` (no machine's folders in the page)."""
    path, _, line = where.rpartition(":")
    p = Path(path)
    return f"{p.parent.name}/{p.name}:{line}" if path else where


def _options(rules: Rules, state, side: int, live: bool = False) -> list[dict] | None:
    decider = state.current_player()
    if state.is_terminal() or (decider != side and decider >= 0):
        return None
    if live and state.question() is not None:
        return None   # a question is answered in words: its outcomes are not buttons
    return [{"label": o["label"], "kind": o["kind"],
             "rule": rules.describe(o["rule"]["name"], o["rule"]["section"])} for o in state.options()]


def _pieces(position: dict) -> dict:
    out = {}
    for name, where in position["pieces"].items():
        if isinstance(where, dict):
            out[name] = {"carried_by": where.get("carried_by")}
        else:
            out[name] = where
    return out


def _step(cg, rules: Rules, k: int, state, prev, choice, side: int, position: dict, nxt: dict | None,
          live: bool = False) -> dict:
    decider = state.current_player()
    new_events = (state.events or [])[len(prev.events or []) if prev is not None else 0:]
    step = {"n": k,
            "decider": None if state.is_terminal() else ("chance" if decider < 0 else cg.sides[decider]),
            "events": _events(rules, new_events, side),
            "options": _options(rules, state, side, live),
            "chosen": None if choice is None else _chosen(cg, state, choice, side, position, nxt or position),
            "chosen_index": choice if choice is not None and (decider == side or decider < 0) else None,
            "pieces": _pieces(position),
            "zones": position["zones"],
            "status": {cg.sides[s]: side_status(cg, position, cg.sides[s]) for s in state.sides_in_play()}}
    question = state.question()
    if question is not None:   # read aloud to the table: everyone hears it, nobody sees the answer
        step["question"] = question
    if state.is_terminal():
        w = state.winner()
        step["result"] = "a draw" if w is None else f"{cg.sides[w]} wins"
    return step


def side_data(cg, states: list, choices: list[int], side: int, base: str = "/reference/",
              live: bool = False) -> dict:
    """The viewer's data for `side`: the game, the board, the pieces and one step per state."""
    rules = Rules(cg, base)
    positions = [s.position(for_side=side) for s in states]
    steps = []
    for k, state in enumerate(states):
        choice = choices[k] if k < len(choices) else None
        nxt = positions[k + 1] if k + 1 < len(positions) else None
        steps.append(_step(cg, rules, k, state, states[k - 1] if k else None, choice, side, positions[k], nxt,
                           live))
    if live and steps and states[-1].current_player() == side:
        for o, i in zip(steps[-1]["options"] or (), range(len(states[-1].options()))):
            o["then"] = consequences(states[-1], i)
    return {"game": {"id": cg.id, "title": cg.title, "sides": list(cg.sides), "rulebook": cg.rulebook},
            "side": cg.sides[side], "live": live,
            "pieces": {p.name: {"side": cg.sides[p.side] if p.side >= 0 else None, "kind": words(p.kind)}
                       for p in cg.pieces},
            "cards": {name: ref_link(cg, "card", name, base) for name in sorted(_seen_cards(positions))},
            "steps": steps}


def _seen_cards(positions: list[dict]) -> set[str]:
    """The names of the cards the side sees somewhere in the game (the page links those only)."""
    return {name for p in positions for name in visible_cards(p)}
