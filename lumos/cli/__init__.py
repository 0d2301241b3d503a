"""Command-line arguments -> the `lumos` tool: one module per command, shared plumbing in
lumos.cli.common.

In: `argv`. Out: an exit status and text (results on stdout, problems and progress on
stderr). Conventions of Python tools: subcommands with `--help`, problems printed as
`file:line:col: CODE message` with the source line and a caret (so editors jump to
them), exit status 0 when all is well, 1 when the rules or a log are wrong, 2 for a usage
error or an internal failure, `--json` where a machine reads the output. No traceback
reaches a user unless `LUMOS_DEBUG=1`.

Each command module has `register(sub)` (its arguments) and `run(args)`. Heavy modules (the
compiler, the interpreter, rich) are imported inside `run`, so `lumos --help` starts fast.

>>> main(["check", "--format", "json"])      # doctest: +SKIP
[]
0
"""
from __future__ import annotations

import argparse
import os
import sys
from importlib import import_module

from lumos.cli.common import (
    EXIT_FAIL,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    count,
    err,
    render_diagnostic,
)

__all__ = ["build_parser", "entry", "main"]

# in the order `lumos --help` lists them; each is the module lumos.cli.NAME
COMMAND_NAMES = ("games", "check", "test", "simulate", "balance", "play", "view", "replay", "board", "position",
                 "explain", "schema", "new", "docs", "lsp")


def __getattr__(name: str):
    if name == "COMMANDS":   # the command modules, imported when asked for
        return tuple(import_module(f"lumos.cli.{n}") for n in COMMAND_NAMES)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The `lumos` parser: every command module adds its own sub-command (with `only`, that
    command alone: `lumos check ...` need not import the fourteen others to start)."""
    from lumos import __version__
    p = argparse.ArgumentParser(prog="lumos", description="Check, play and simulate board games written in Lumos.")
    p.add_argument("--version", action="version", version=f"lumos {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_NAMES:
        if only is None or name == only:
            import_module(f"lumos.cli.{name}").register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    first = (sys.argv[1:] if argv is None else argv)[:1]
    parser = build_parser(first[0] if first and first[0] in COMMAND_NAMES else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:   # --help, --version, or a usage error already printed by argparse
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    debug = os.environ.get("LUMOS_DEBUG") == "1"
    from lumos.diagnostics import LumosError
    try:
        return args.func(args)
    except UsageError as exc:
        err(f"lumos {args.command}: error: {exc}")
        return EXIT_USAGE
    except LumosError as exc:
        files = getattr(exc, "files", None)
        for d in exc.diagnostics:
            err(render_diagnostic(d, files))
        errors = sum(d.is_error for d in exc.diagnostics)
        err(f"{count(errors, 'error')}, {count(len(exc.diagnostics) - errors, 'warning')}")
        return EXIT_FAIL
    except KeyboardInterrupt:
        err("interrupted")
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - the one place internal failures become a message
        if debug:
            raise
        err(f"lumos: internal error: {type(exc).__name__}: {exc} (set LUMOS_DEBUG=1 for the traceback)")
        return EXIT_USAGE


def entry() -> None:
    """The `lumos` program (its console script and `python -m lumos`): `main()`, then the exit.

    A command whose module sets QUICK_EXIT (`check`, `test`, `explain`, `schema`, `games`) leaves
    nothing open when it returns: its output is flushed, the exit handlers run, and the process
    ends with `os._exit`, skipping the interpreter's teardown. Why: a check of a large game builds hundreds of thousands of
    objects, and freeing them one by one and walking them once more for cycles took a third of
    a cold check (0.19 s of 0.55 s, Catch the Golden Snitch); the operating system frees the
    whole process at once. Only what a check could leave undone is skipped (objects' own
    finalisers); its files are written and closed before it returns (lumos.compiler.cache). Under
    a profiler or a tracer (`python -m cProfile -m lumos check`), which writes its report once the
    program has returned, the process ends the ordinary way."""
    status = main()
    first = sys.argv[1:2]
    watched = sys.getprofile() is not None or sys.gettrace() is not None   # cProfile, trace: they report after us
    if watched or not (first and first[0] in COMMAND_NAMES
                       and getattr(import_module(f"lumos.cli.{first[0]}"), "QUICK_EXIT", False)):
        sys.exit(status)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):   # a closed pipe or stream: nothing more reaches it
            pass
    import atexit
    run_handlers = getattr(atexit, "_run_exitfuncs", None)
    if run_handlers is not None:
        run_handlers()
    os._exit(status if isinstance(status, int) else EXIT_USAGE)


if __name__ == "__main__":  # pragma: no cover
    entry()
