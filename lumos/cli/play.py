"""`lumos play`: a game at the terminal, a person against agents.

The board in colour, the sides' status in names and numbers, the options grouped and
filterable with their consequences, `help`, `card NAME` and `hand` (lumos.present.terminal).
What the other sides do is told as the person's side may know it: events in their public
words, another side's choice of a card that then lies face down as "a hidden choice".
"""
from __future__ import annotations

import sys

from lumos.cli.common import (
    EXIT_FAIL,
    EXIT_OK,
    add_against_agents,
    add_option,
    add_team,
    add_with,
    err,
    render_diagnostic,
    start_against_agents,
)


def register(sub) -> None:
    """Add `lumos play` and its arguments to the sub-command parsers."""
    s = sub.add_parser("play", help="play in the terminal against an agent",
                       description="Play a game in the terminal against agents: the board in colour, each side's "
                                   "status, the options grouped by piece or action (type a number, or words to "
                                   "filter them). During the game, `help` lists the commands: `card NAME` shows a "
                                   "card, `hand` says why a card cannot be played now, `q` quits.")
    s.add_argument("game", metavar="GAME|PATH")
    s.add_argument("--seed", type=int, default=0)
    add_against_agents(s)
    add_team(s)
    add_with(s)
    add_option(s)
    s.set_defaults(func=run)


def run(args) -> int:
    from rich.console import Console

    from lumos.diagnostics import LumosRuntimeError
    from lumos.present.terminal import Quit
    cg, src, side, rivals, state = start_against_agents(args, args.game, args.seed)
    console = Console(highlight=False)
    print(f"{cg.title} - you play {cg.sides[side]}, seed {args.seed}; "
          f"{_rivals_text(cg, rivals)}. Type help for the commands, q to quit.")
    shown = _show_events(state, 0, side)
    try:
        while not state.is_terminal():
            shown = _step(console, state, src, side, rivals, shown)
    except Quit:
        print("quit.")
        return EXIT_OK
    except LumosRuntimeError as exc:
        _show_events(state, shown, side)
        err("the rules stopped the game:")
        err(render_diagnostic(exc.first, cg.files))
        return EXIT_FAIL
    from lumos.present.board_text import draw_board
    from lumos.present.status import status_lines
    print()
    for line in draw_board(state, min(100, console.width)):
        console.print(line)
    for line in status_lines(state, side):
        print("  " + line)
    w = state.winner()
    print("game over: " + ("a draw" if w is None else f"{cg.sides[w]} wins") +
          f" (returns {', '.join(f'{cg.sides[i]} {r:g}' for i, r in enumerate(state.returns()))})")
    return EXIT_OK


def _step(console, state, src, side: int, rivals: dict, shown: int) -> int:
    """One decision, whoever makes it; returns how many events have been shown."""
    from lumos.present.choices import shown_choice
    from lumos.present.terminal import Decision, Quit
    cg = state.cg
    if state.is_chance_node() and _asks(state, side):
        k = _answer(state)
        if k is None:
            raise Quit
        state.apply_action(k)
    elif state.is_chance_node():
        k = state.sample_chance()
        print(f"  chance: {state.action_labels()[k]}")
        state.apply_action(k)
    elif state.current_player() == side:
        state.apply_action(Decision(console, state, src, side).run())
    else:
        who = state.current_player()
        k = rivals[who].choose(state)
        label = state.action_labels()[k]
        before = state.position(for_side=side)
        state.apply_action(k)
        print(f"  {cg.sides[who]} chooses: {shown_choice(cg, label, who, side, before, state.position(for_side=side))}")
    return _show_events(state, shown, side)


def _asks(state, side: int) -> bool:
    """Is this chance node a question put to the person's own side?"""
    q = state.question()
    return q is not None and q["side"] == state.cg.sides[side]


def _answer(state) -> int | None:
    """Read the question aloud, take the typed answer and say whether it was right. The typed
    answer, not the generator, decides the outcome; applying it advances the generator as any
    chance outcome does, so the rest of the game goes on as it would have."""
    q = state.question()
    print()
    print(f"{q['side']}, your {q['category']} question ({q['card']}):")
    print(f"  {q['ask']}")
    for i, choice in enumerate(q["choices"], 1):
        print(f"  {i:>2}. {choice}")
    try:
        text = input("your answer (q quits): " if not q["choices"] else
                     f"your answer [1-{len(q['choices'])}, or the words; q quits]: ")
    except EOFError:
        print()
        return None
    if not sys.stdin.isatty():
        print(text.rstrip("\n"))
    if text.strip().lower() in ("q", "quit", "exit"):
        return None
    k = state.typed_answer(text)
    if k == 0:
        print("  right!")
    else:
        card, field = state.st.pending["question"]
        print(f"  wrong: the answer was {state.cg.cards[card].fields[field]['answer']}")
    return k


def _show_events(state, shown: int, side: int | None = None) -> int:
    """Print the new events as `side` may read them (cards drawn into hidden zones stay hidden)."""
    events = state.events or []
    for ev in events[shown:]:
        text = ev.get("public", ev["event"]) if side in ev.get("hidden_from", ()) else ev["event"]
        if text:
            print(f"  . {text}")
    return len(events)


def _rivals_text(cg, rivals: dict) -> str:
    """`random agent plays away`, or each rival's agent where they differ (a game's `default agents`)."""
    names = {a.name for a in rivals.values()}
    if len(names) == 1:
        return f"{names.pop()} agent plays {', '.join(cg.sides[k] for k in rivals)}"
    return ", ".join(f"{rivals[k].name} plays {cg.sides[k]}" for k in rivals)
