"""`lumos view`: a game log, or a live game against an agent, in the browser (served on 127.0.0.1)."""
from __future__ import annotations

import json
from pathlib import Path

from lumos.cli.common import (
    EXIT_OK,
    UsageError,
    add_against_agents,
    add_option,
    add_team,
    add_with,
    compile_or_fail,
    start_against_agents,
)


def register(sub) -> None:
    """Add `lumos view` and its arguments to the sub-command parsers."""
    s = sub.add_parser("view", help="watch a game log, or play a game, in the browser",
                       description="Serve a page on this machine (127.0.0.1 only) that shows a game: the board "
                                   "with its pieces, a timeline of the decisions, the log with the rule behind "
                                   "each event, the options of each step and the cards as one side sees them. "
                                   "Give a log (from `lumos simulate --log-dir`) to watch it, or a game and "
                                   "--seed to play it live against an agent.")
    s.add_argument("source", metavar="LOG|GAME", help="a game log (.jsonl), or a game to play live")
    s.add_argument("--game", metavar="GAME|PATH", help="the game of the log (default: the one the log names)")
    s.add_argument("--seed", type=int, default=None, help="play GAME live from this seed (default 0)")
    add_against_agents(s, live="live: ")
    s.add_argument("--port", type=int, default=8765, help="the port on 127.0.0.1 (default 8765; 0: any free one)")
    s.add_argument("--reference", metavar="DIR",
                   help="a rules reference built by `lumos docs -o DIR`, served for the page's links "
                        "(default: ./lumos-reference when it exists)")
    s.add_argument("--no-open", action="store_true", help="do not open a browser; only print the address")
    add_team(s)
    add_with(s)
    add_option(s)
    s.set_defaults(func=run)


def is_log(path: str) -> bool:
    """Is `path` a file whose first line is a Lumos log header?"""
    p = Path(path)
    if not p.is_file():
        return False
    with p.open(encoding="utf-8", errors="replace") as fh:
        first = fh.readline(1 << 20)
    try:
        head = json.loads(first)
    except ValueError:
        return False
    return isinstance(head, dict) and "lumos" in head and "game" in head


def run(args) -> int:
    from lumos.viewer import make_server, serve
    source = Path(args.source)
    if is_log(args.source):
        if args.seed is not None:
            raise UsageError("--seed plays a game live: give a game, not a log")
        game = _log_game(args)
    elif source.is_file() and source.suffix != ".lumos":
        from lumos.diagnostics import Span, fail
        fail("V100", f"`{source.name}` is not a Lumos game log: its first line is not a log header",
             Span(str(source), 1, 1), "make a log with `lumos simulate GAME --log-dir DIR`, or give a game "
             "and --seed to play it live")
    else:
        game = _live_game(args)
    reference = args.reference or ("lumos-reference" if Path("lumos-reference", "index.html").is_file() else None)
    if reference and not Path(reference).is_dir():
        raise UsageError(f"--reference {reference}: no such folder")
    try:
        server = make_server(game, args.port, reference)
    except OSError as exc:
        raise UsageError(f"cannot listen on 127.0.0.1:{args.port}: {exc.strerror or exc}; "
                         "try another --port (0 picks a free one)") from None
    url = f"http://127.0.0.1:{server.server_port}/"
    print(f"{game.cg.title}: {'live game' if game.live else 'log'} at {url} (Ctrl-C stops)", flush=True)
    if not args.no_open:
        import webbrowser
        webbrowser.open(url)
    try:
        serve(server)
    except KeyboardInterrupt:
        print("stopped.")
    return EXIT_OK


def _log_game(args):
    from lumos.interpreter.log import log_header, replay
    from lumos.viewer import LogGame, log_history
    name = args.game or log_header(Path(args.source)).get("game")
    cg, _ = compile_or_fail(name, args.with_paths)
    checked = replay(cg, Path(args.source))
    if not checked.ok:
        from lumos.diagnostics import Span, fail
        d = checked.divergence
        fail("V101", f"the log does not replay with the rules and cards of `{cg.id}` from this line on",
             Span(str(args.source), d.line, 1), "`lumos replay LOG` shows what the log says and what the rules "
             "do; a log replays with the rules and cards it was played with (add expansions with --with)")
    states, choices = log_history(cg, args.source)
    return LogGame(cg, states, choices)


def _live_game(args):
    from lumos.viewer import LiveGame
    cg, _, side, agents, state = start_against_agents(args, args.source, args.seed or 0)
    return LiveGame(cg, state, side, agents)
