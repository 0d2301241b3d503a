"""`lumos play` and `lumos replay`: a game at the terminal against agents, and a log replayed
and verified. Called by lumos.cli."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from lumos.cli import (EXIT_FAIL, EXIT_OK, UsageError, _compile, _display_path, _err, _parse_options, _teams,
                       render_diagnostic)


# ---------------------------------------------------------------- lumos play
def cmd_play(args) -> int:
    from lumos.interpreter.agents import agent_seed, make_agent
    from lumos.interpreter.engine import GameState
    from lumos.diagnostics import LumosRuntimeError
    cg, _ = _compile(args.game, args.with_paths)
    side = _side_index(cg, args.as_side)
    options = _parse_options(cg, args.option)
    teams = _teams(cg, args.teams, options)
    rivals = {k: make_agent(args.agent, agent_seed(args.seed, k)) for k in range(cg.nsides) if k != side}
    state = GameState.new(cg, seed=args.seed, options=options, log=True, teams=teams)
    print(f"{cg.title} - you play {cg.sides[side]}, seed {args.seed}; "
          f"{args.agent} agent plays {', '.join(cg.sides[k] for k in rivals)}. Type q to quit.")
    shown = _show_events(state, 0, side)
    try:
        while not state.is_terminal():
            if state.is_chance_node() and _asks(state, side):
                k = _answer(state)
                if k is None:
                    print("quit.")
                    return EXIT_OK
                state.apply_action(k)
            elif state.is_chance_node():
                k = state.sample_chance()
                print(f"  chance: {state.action_labels()[k]}")
                state.apply_action(k)
            elif state.current_player() == side:
                print()
                print(state)
                _show_view(state, side)
                choice = _ask(state)
                if choice is None:
                    print("quit.")
                    return EXIT_OK
                state.apply_action(choice)
            else:
                who = state.current_player()
                k = rivals[who].choose(state)
                print(f"  {cg.sides[who]} chooses: {state.action_labels()[k]}")
                state.apply_action(k)
            shown = _show_events(state, shown, side)
    except LumosRuntimeError as exc:
        _show_events(state, shown, side)
        _err("the rules stopped the game:")
        _err(render_diagnostic(exc.first, cg.files))
        return EXIT_FAIL
    print()
    print(state)
    w = state.winner()
    print("game over: " + ("a draw" if w is None else f"{cg.sides[w]} wins") +
          f" (returns {', '.join(f'{cg.sides[i]} {r:g}' for i, r in enumerate(state.returns()))})")
    return EXIT_OK


def _asks(state, side: int) -> bool:
    """Is this chance node a question put to the person's own side?"""
    q = state.question()
    return q is not None and q["side"] == state.cg.sides[side]


def _answer(state) -> int | None:
    """Read the question aloud, take the typed answer and say whether it was right. The
    game's generator draws as it would for an agent (so the rest of the game, and a replay of
    its log, go on the same way); the typed answer, not the draw, decides the outcome."""
    q = state.question()
    print()
    print(f"{q['side']}, your {q['category']} question ({q['card']}):")
    print(f"  {q['ask']}")
    for i, choice in enumerate(q["choices"], 1):
        print(f"  {i:>2}. {choice}")
    state.sample_chance()
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


def _side_index(cg, name: str | None) -> int:
    if name is None:
        return 0
    if name in cg.sides:
        return cg.sides.index(name)
    raise UsageError(f"{cg.id} has no side `{name}`; sides: {', '.join(cg.sides)}")


def _show_events(state, shown: int, side: int | None = None) -> int:
    """Print the new events as `side` may read them (cards drawn into hidden zones stay hidden)."""
    events = state.events or []
    for ev in events[shown:]:
        text = ev.get("public", ev["event"]) if side in ev.get("hidden_from", ()) else ev["event"]
        print(f"  . {text}")
    return len(events)


def _show_view(state, side: int) -> None:
    """The deciding side's view in brief: numeric variables per side, then the zones it can see."""
    obs = state.observation(side)
    for name, values in obs["sides"].items():
        shown = ", ".join(f"{k} {v}" for k, v in values.items() if isinstance(v, (int, float, bool, str)))
        print(f"  {name}: {shown}")
    me = state.cg.sides[side]
    for zone, cards in obs["zones"].items():
        if isinstance(cards, list) and cards and zone.startswith(me + " "):
            print(f"  your {zone[len(me) + 1:]}: {', '.join(cards)}")


def _ask(state) -> int | None:
    labels = state.action_labels()
    cg = state.cg
    print(f"{cg.sides[state.current_player()]} to choose:")
    for i, label in enumerate(labels, 1):
        print(f"  {i:>2}. {label}")
    while True:
        try:
            text = input(f"choice [1-{len(labels)}, q]: ")
        except EOFError:
            print()
            return None
        if not sys.stdin.isatty():
            print(text.rstrip("\n"))   # echo piped input so a transcript reads like a session
        text = text.strip().lower()
        if text in ("q", "quit", "exit"):
            return None
        if text.isdigit() and 1 <= int(text) <= len(labels):
            return int(text) - 1
        print(f"  please type a number from 1 to {len(labels)}, or q")


# ---------------------------------------------------------------- lumos replay
def cmd_replay(args) -> int:
    from lumos.interpreter.log import log_header, replay
    path = Path(args.log)
    if not path.is_file():
        raise UsageError(f"no log file `{args.log}`")
    game = args.game or log_header(path).get("game")
    if not game:
        _err(f"{args.log}:1: the first line is not a Lumos log header")
        return EXIT_FAIL
    cg, _ = _compile(game, args.with_paths)
    result = replay(cg, path)
    for w in result.warnings:
        _err(f"warning: {w}")
    if result.ok:
        print(f"{args.log}: reproduced ({result.decisions} decisions, {result.lines} lines)")
        return EXIT_OK
    d = result.divergence
    if result.cards is not None and result.cards.missing:
        print(f"{args.log}:{d.line}: the game was played with cards this replay does not have:")
        for f in result.cards.missing:
            print(f"  {f.get('file')} (was {f.get('path')})")
        hints = list(dict.fromkeys(_with_hint(f) for f in result.cards.missing))   # one per expansion
        print("  replay with " + " ".join(f"--with {h}" for h in hints))
        return EXIT_FAIL
    print(f"{args.log}:{d.line}: the replay diverges")
    print(f"  log:    {_short(d.expected)}")
    print(f"  replay: {_short(d.got)}")
    return EXIT_FAIL


def _with_hint(card_file: dict) -> str:
    """What to give `--with` for a card file of a log: its expansion folder when it has one."""
    from lumos.expansions import manifest_path
    path = Path(str(card_file.get("path") or card_file.get("file")))
    if path.is_file() and manifest_path(path.parent) is not None:
        path = path.parent
    text = _display_path(str(path))
    return f"'{text}'" if any(c.isspace() for c in text) else text


def _short(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


