"""`lumos balance`: many seeded games -> per side win rates with intervals, first-player
advantage, game length and per-card figures (lumos.analysis.balance); with `--with`, the
expansion's games against the base game's, figure by figure. A table, `--json`, `--html PAGE`."""
from __future__ import annotations

import json
from pathlib import Path

from lumos.cli.common import (
    AGENT_NAMES,
    EXIT_OK,
    UsageError,
    add_dask,
    add_option,
    add_with,
    agent_list,
    bundled_ids,
    compile_or_fail,
    parse_options,
)


def register(sub) -> None:
    """Add `lumos balance` and its arguments to the sub-command parsers."""
    s = sub.add_parser("balance", help="win rates, first-player advantage and per-card figures from many games")
    s.add_argument("game", metavar="GAME|PATH")
    s.add_argument("-n", type=int, default=200, help="games per run (default 200)")
    s.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed+i")
    s.add_argument("--agents", help=f"comma-separated agents per side ({', '.join(AGENT_NAMES)}); default: the game's `default agents`, else random")
    add_option(s)
    s.add_argument("--json", action="store_true", help="print the report as JSON")
    s.add_argument("--html", metavar="PAGE", help="write the report as an HTML page with plots (plots need matplotlib)")
    s.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    s.add_argument("--max-decisions", type=int, default=100_000, help="stop a game after this many decisions")
    s.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_with(s)
    add_dask(s)
    s.set_defaults(func=run)


def _games(args, with_paths: list[str]):
    from lumos.analysis.balance import report
    from lumos.analysis.runner import run_games
    from lumos.cli.simulate import progress
    cg, src = compile_or_fail(args.game, with_paths)
    agents = agent_list(cg, args.agents)
    options = parse_options(cg, args.option)
    game_arg = args.game if args.game in bundled_ids() else str(src.rules_dir)
    seeds = [args.seed + i for i in range(args.n)]
    what = cg.id + (" + " + ", ".join(Path(p).name for p in with_paths) if with_paths else "")
    with progress(args.n, what, quiet=args.quiet) as advance:
        records = run_games(cg, game_arg, seeds, agents, options, max_decisions=args.max_decisions,
                            with_paths=tuple(with_paths), cards=True, jobs=args.jobs, dask=args.dask,
                            advance=advance)
    rep = report(cg, records)
    rep.update({"seed": args.seed, "agents": dict(zip(cg.sides, agents)), "options": options})
    return cg, rep


def run(args) -> int:
    from lumos.analysis.balance import compare
    if args.n < 1:
        raise UsageError("-n must be 1 or more")
    cg, rep = _games(args, [])
    if args.with_paths:
        _cg, expanded = _games(args, args.with_paths)
        expanded["with"] = list(args.with_paths)
        rep = compare(rep, expanded)
    if args.html:
        from lumos.analysis.balance_html import write_page
        write_page(rep, Path(args.html))
    if args.json:
        print(json.dumps(rep, indent=2))
    else:
        _print(rep)
    return EXIT_OK


def _pct(r: dict) -> str:
    return "-" if r["rate"] is None else f"{r['rate']:.0%} [{r['low']:.0%}, {r['high']:.0%}]"


def _print(rep: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    from lumos.analysis.balance import flagged
    console = Console(soft_wrap=False)
    change = rep.get("change")
    title = f"{rep['game']}{' + ' + ', '.join(rep['with']) if rep.get('with') else ''}: {rep['completed']} games"
    t = Table(title=title + " (95% Wilson intervals)", min_width=48)
    t.add_column("", style="bold")
    t.add_column("value", justify="right")
    if change:
        t.add_column("change vs base", justify="right")
    for side, r in rep["sides"].items():
        t.add_row(f"wins {side} ({rep['agents'][side]})", _pct(r),
                  *([_signed(change["sides"][side])] if change else []))
    fp = rep["first_player"]
    t.add_row("first player wins", _pct(fp) + f" (fair {fp['fair']:.0%})",
              *([_signed(change["first_player"])] if change else []))
    ln = rep["length"]
    t.add_row("decisions asked mean / median / min / max", f"{ln['mean']:.1f} / {ln['median']} / {ln['min']} / {ln['max']}",
              *([_signed(change["length"], pct=False)] if change else []))
    console.print(t)
    cards = Table(title="cards: the side that held it", min_width=48)
    for col in ("card", "drawn/game", "played", "win played", "win held, not played", "note"):
        cards.add_column(col, justify="left" if col in ("card", "note") else "right")
    for name, c in rep["cards"].items():
        note = " ".join(x for x in (c["flag"] and f"[bold red]{c['flag'].upper()}[/]", c["note"],
                                    change and change["cards"].get(name, {}).get("new") and "new") if x)
        cards.add_row(name, f"{c['drawn_per_game']:.2f}", f"{c['played']} ({c['play_rate']:.0%})",
                      _pct(c["win_when_played"]), _pct(c["win_when_held"]), note)
    console.print(cards)
    out = flagged(rep)
    if out:
        console.print("singled out: " + ", ".join(f"{c} ({rep['cards'][c]['flag']}, lift "
                                                    f"{rep['cards'][c]['lift']:+.0%})" for c in out))


def _signed(v, pct: bool = True) -> str:
    if v is None:
        return "-"
    return f"{v:+.0%}" if pct else f"{v:+.1f}"
