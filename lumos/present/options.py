"""A decision's options -> groups a person can pick from, and what each option would cause.

Groups: an option's first word (the verb its rule's label starts with: `move`, `pass`,
`play`, `take`) and the first piece it names make its group (`move home keeper`); the
rest of the label says where. A group of one is offered as it is. A filter keeps the
options whose label holds every word typed.

Consequences: the option is tried on a copy of the game (the real game is never touched)
and the events the rules log up to the next decision of the deciding side, or the next
roll of the dice, are its consequences (`home beater 1 knocks away chaser 2 off the
pitch`). Where the rules open a window to another side, the copy takes that side's "no"
and goes on, so a knock-off that the victim may still answer is said too. Only events the
deciding side may read are kept, and the copy stops at the first it may not read; when the
copy changed a zone the side cannot look into (a card drawn from a face-down deck, a
shuffle), nothing is said at all, since what came of it depends on what the side cannot
see. So trying an option tells nothing the side could not know.
"""
from __future__ import annotations

MAX_WINDOWS = 4   # windows of other sides passed through while trying one option
MAX_SAID = 4      # events said per option: the first few are what the option does


def group_key(option: dict, piece_names) -> str:
    """The group of an option: its verb and the first piece it names."""
    label = option["label"]
    verb = label.split(" ", 1)[0] if label else option["kind"]
    pieces = [v for v in option["args"].values() if isinstance(v, str) and v in piece_names]
    return f"{verb} {pieces[0]}" if pieces and verb != pieces[0] else verb


def group_options(options: list[dict], piece_names) -> list[tuple[str, list[int]]]:
    """(group name, indices of its options), groups in the order their first option comes."""
    groups: dict[str, list[int]] = {}
    for i, o in enumerate(options):
        groups.setdefault(group_key(o, piece_names), []).append(i)
    return list(groups.items())


def matches(label: str, text: str) -> bool:
    """Does the label hold every word of `text` (without case)?"""
    low = label.lower()
    return all(w in low for w in text.lower().split())


def consequences(state, index: int) -> list[str]:
    """What the rules say happens when option `index` is taken, up to the deciding side's next
    decision or the next chance outcome (see the module docstring)."""
    side = state.current_player()
    if side < 0:
        return []
    trial = state.clone()
    if trial.events is None:
        trial.events = []
        trial.machine.events = trial.events
    start = len(trial.events)
    option = state.options()[index]
    try:
        trial.apply_action(index)
        for _ in range(MAX_WINDOWS):
            if trial.is_terminal() or trial.is_chance_node() or trial.current_player() == side:
                break
            passes = [i for i, o in enumerate(trial.options()) if o["kind"] == "pass"]
            if not passes:
                break
            trial.apply_action(passes[0])
    except Exception:  # noqa: BLE001 - a rule failing in the copy is the real game's business, later
        return []
    if _unseen_changed(state, trial, side):
        return []
    said = []
    for ev in trial.events[start:]:
        if side in ev.get("hidden_from", ()):
            break
        if not _restates(ev["event"], option["label"]):
            said.append(ev["event"])
    return said[:MAX_SAID] + (["..."] if len(said) > MAX_SAID else [])


def _unseen_changed(before, after, side: int) -> bool:
    """Did the trial change the cards of a zone `side` cannot look into?"""
    from lumos.interpreter.visibility import zone_seen
    cg = before.cg
    return any(a != b and not zone_seen(cg, z, side)
               for z, (a, b) in enumerate(zip(before.st.zones, after.st.zones)))


def _restates(text: str, label: str) -> bool:
    """An event that only says what the label says (`home chaser 1 to b3` for a move to b3)."""
    return set(text.split()) <= set(label.split())


def option_text(state, index: int, with_consequences: bool = True) -> str:
    """An option's label, with its consequences after a dash when it has any."""
    label = state.options()[index]["label"]
    if not with_consequences:
        return label
    extra = consequences(state, index)
    return f"{label} - {'; '.join(extra)}" if extra else label
