"""The public API: find bundled games, compile them (cached by content hash), start games.

>>> from lumos.api import load_game, new_game
>>> cg = load_game("snitch-snatcher")
>>> state = new_game(cg, seed=1)
>>> state.current_player() in (-1, 0, 1)
True
"""
from __future__ import annotations

import functools
import gc
from pathlib import Path

import importlib

from lumos.compiler.sources import GameSources  # noqa: F401  (a game's sources, for callers)
from lumos.games import bundled_games, game_sources  # noqa: F401  (part of the API)

# The compiler and the interpreter are imported on first use (`from lumos.api import GameState`
# works as ever): finding a game's files (`lumos check` with nothing to compile) needs neither.
_LAZY = {"check_game": "lumos.compiler.game", "compile_game": "lumos.compiler.game",
         "GreedyAgent": "lumos.interpreter.agents", "RandomAgent": "lumos.interpreter.agents",
         "GameState": "lumos.interpreter.engine", "replay": "lumos.interpreter.log",
         "play_game": "lumos.interpreter.play", "write_game_log": "lumos.interpreter.play"}


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'lumos.api' has no attribute {name!r}")


@functools.lru_cache(maxsize=8)
def _load(src: GameSources, digest: str):
    from lumos.compiler.game import compile_game
    cg = compile_game(src)
    settle_memory()
    return cg


def settle_memory() -> None:
    """A compiled game lives as long as the process: once it is made, move everything alive
    out of the way of Python's cycle collector (gc.freeze), so that playing thousands of
    games does not scan the game's objects again and again (about 5% more decisions/s).
    Nothing is lost: the collector still sees everything made afterwards."""
    gc.collect()
    gc.freeze()


def load_game(game: str | Path, with_paths: tuple[str | Path, ...] | list = ()):
    """Compile a game (bundled id or folder); compiled games are reused while files are unchanged.

    `with_paths`: expansions (a folder with expansion.yaml, or its manifest), card files or
    folders of card files added to the game's, as `--with` does on the command line
    (`load_game("catch-the-golden-snitch", ["examples/catch-the-golden-snitch-stars"])`).
    A mistake raises a LumosCheckError with every diagnostic; a path that is no expansion
    or card file, or an expansion of another game, a ValueError."""
    if with_paths:
        from lumos.toolkit.with_paths import compile_with
        return compile_with(game_sources(game), str(game), [str(p) for p in with_paths])[0]
    src = game_sources(game)
    return _load(src, src.content_hash())


def new_game(cg, seed: int = 0, options: dict | None = None, log: bool = False, forced: str = "ask"):
    """A new game at its first decision; `forced` is the single-option policy ("ask" or "take")."""
    # GameState.new, found once: an `import` statement run at every call costs about as much as
    # copying a tic-tac-toe's prepared start (a driver starts a game every few decisions)
    new = _new_state[0] if _new_state else _first_new_state()
    return new(cg, seed=seed, options=options, log=log, forced=forced)


_new_state: list = []    # [GameState.new] once the interpreter is imported


def _first_new_state():
    from lumos.interpreter.engine import GameState
    _new_state.append(GameState.new)
    return GameState.new


def load_position(cg, position, seed: int | None = None):
    """A game at the situation a position describes: a dict, or a YAML file's path (see the
    position format in docs/language.md). Mistakes raise a LumosCheckError whose diagnostics
    point at the file's line and column.

    >>> cg = load_game(bundled_games()[0])                             # doctest: +SKIP
    >>> state = load_position(cg, {"pieces": {...}, "at": {"start_of": "turn"}})   # doctest: +SKIP
    """
    from lumos.interpreter.position import read_position
    if isinstance(position, (str, Path)):
        from lumos.compiler.named_files import read_bytes
        from lumos.compiler.yamlload import MAX_BYTES, load_yaml
        from lumos.diagnostics import Diagnostic, LumosCheckError, Span
        path = str(position)
        try:
            raw = read_bytes(Path(path), MAX_BYTES)
        except OSError as exc:
            code, message, hint = (getattr(exc, "code", "E100"), getattr(exc, "message", str(exc)),
                                   getattr(exc, "hint", ""))
            raise LumosCheckError([Diagnostic(code, f"the position file {message}", Span(path, 1, 1), hint)]) \
                from None
        data = load_yaml(raw, path)
        file = path
    else:
        data, file = position, "<position>"
    if seed is not None:
        data = {**data, "seed": seed}
    return read_position(cg, data, _start, file)


def _start(cg, seed, options, forced):
    from lumos.interpreter.engine import GameState
    return GameState.new(cg, seed=seed, options=options, forced=forced)


def replay_iter(cg, log, events: bool = False):
    """Each state of a logged game, from its first decision to its end: a log file's path or
    its lines. Logged chance outcomes are applied as they are (no `sample_chance()` needed).
    With `events`, each state keeps the events so far (`state.events`, with who may not read
    each), as a game started with `log=True` does.

    >>> states = list(replay_iter(cg, "logs/game-1.jsonl"))      # doctest: +SKIP
    """
    import json
    from lumos.interpreter.engine import GameState
    lines = Path(log).read_text(encoding="utf-8").splitlines() if isinstance(log, (str, Path)) else list(log)
    records = [json.loads(line) if isinstance(line, str) else line for line in lines if line]
    head = records[0]
    if head.get("game") != cg.id:
        raise ValueError(f"the log is of `{head.get('game')}`, not `{cg.id}`")
    state = GameState.new(cg, seed=head.get("seed", 0), options=head.get("options") or None,
                          teams=head.get("teams") or None, forced=head.get("forced", "take"), log=events)
    yield state.clone()
    for rec in records[1:]:
        if "choice" in rec:
            state.apply_action(rec["choice"])
            yield state.clone()


def action_space(cg) -> list[tuple]:
    """Every option key the game can ever offer, numbered once: `GameState.legal_action_ids()`
    and `apply_action_id` use these numbers. A key is its rule and its arguments by name."""
    from lumos.interpreter.options import action_space as space
    return list(space(cg).keys)


__all__ = ["action_space", "load_position", "replay_iter", "bundled_games", "game_sources", "load_game", "new_game", "check_game", "GameState",
           "RandomAgent", "GreedyAgent", "play_game", "replay", "write_game_log"]
