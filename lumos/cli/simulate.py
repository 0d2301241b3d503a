"""`lumos simulate`: many seeded games between agents (in worker processes with --jobs), a
summary table or JSON, and optionally one replayable log per game."""
from __future__ import annotations

import json
from pathlib import Path

from lumos.cli.common import (
    AGENT_NAMES,
    EXIT_OK,
    UsageError,
    add_dask,
    add_option,
    add_team,
    add_with,
    agent_list,
    bundled_ids,
    compile_or_fail,
    count,
    err,
    parse_options,
    render_diagnostic,
    seated_sides,
    teams_of,
)

SHOW_ERRORS = 3   # runtime errors printed in full


def register(sub) -> None:
    """Add `lumos simulate` and its arguments to the sub-command parsers."""
    s = sub.add_parser("simulate", help="play many games between agents and summarise the results")
    s.add_argument("game", metavar="GAME|PATH")
    s.add_argument("-n", type=int, default=100, help="number of games (default 100)")
    s.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed+i")
    s.add_argument("--agents", help=f"comma-separated agents per side ({', '.join(AGENT_NAMES)}; mcts:200 = 200 playouts, mcts:2s = 2 seconds, mcts:200:d4 = depth 4); default: the game's `default agents`, else random")
    add_option(s)
    s.add_argument("--json", action="store_true", help="print the summary as JSON")
    s.add_argument("--log-dir", help="write one replayable log per game into this folder")
    s.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    s.add_argument("--max-decisions", type=int, default=100_000, help="stop a game after this many decisions asked (a forced one, with a single option, is taken without asking)")
    add_team(s)
    s.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_with(s)
    add_dask(s)
    s.set_defaults(func=run)


def run(args) -> int:
    import time
    if args.n < 0:
        raise UsageError("-n must be 0 or more")
    cg, src = compile_or_fail(args.game, args.with_paths)
    options = parse_options(cg, args.option)
    teams = teams_of(cg, args.teams, options)
    seated = seated_sides(cg, options, args.seed, teams)
    agents = agent_list(cg, args.agents, seated=seated)
    if args.log_dir:
        Path(args.log_dir).mkdir(parents=True, exist_ok=True)
    seeds = [args.seed + i for i in range(args.n)]
    game_arg = args.game if args.game in bundled_ids() else str(src.rules_dir)
    from lumos.analysis.runner import run_games
    start = time.perf_counter()
    with progress(args.n, f"{cg.id}", quiet=args.quiet) as advance:
        records = run_games(cg, game_arg, seeds, agents, options, log_dir=args.log_dir,
                            max_decisions=args.max_decisions, teams=teams, with_paths=tuple(args.with_paths),
                            jobs=args.jobs, dask=args.dask, advance=advance)
    elapsed = time.perf_counter() - start
    records.sort(key=lambda r: r["seed"])
    summary = _summarise(cg, records, elapsed, args.seed, agents, options, seated)
    if args.with_paths:
        summary["with"] = list(args.with_paths)
    if teams:
        summary["teams"] = {side: team["file"] for side, team in teams.items()}
    failed = [r for r in records if r["error"] is not None]
    for r in failed[:SHOW_ERRORS]:
        err(f"game with seed {r['seed']} stopped:")
        err(render_diagnostic(r["error"], cg.files))
    if len(failed) > SHOW_ERRORS:
        err(f"... and {count(len(failed) - SHOW_ERRORS, 'more failed game')}")
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        _print_summary(summary, cg)
    return EXIT_OK


def _summarise(cg, records, elapsed, seed, agents, options, seated=None) -> dict:
    """The summary: wins of the seated sides only (a side out of play never wins), draws, decisions, the games' arc."""
    from lumos.analysis.arc import summarise_arcs
    done = [r for r in records if r["error"] is None]
    seated = list(range(cg.nsides)) if seated is None else seated
    wins = {cg.sides[i]: 0 for i in seated}
    wins["draw"] = 0
    for r in done:
        key = "draw" if r["winner"] is None else cg.sides[r["winner"]]
        wins[key] = wins.get(key, 0) + 1
    decisions = [r["decisions"] for r in done]
    errors: dict[str, int] = {}
    for r in records:
        if r["error"] is not None:
            errors[r["error"].code] = errors.get(r["error"].code, 0) + 1
    n = len(records)
    return {
        "game": cg.id, "games": n, "completed": len(done), "errors": n - len(done), "error_codes": errors,
        "wins": wins, "win_rates": {k: (v / len(done) if done else 0.0) for k, v in wins.items()},
        "mean_decisions": (sum(decisions) / len(decisions)) if decisions else 0.0,
        "min_decisions": min(decisions, default=0), "max_decisions": max(decisions, default=0),
        "seconds": round(elapsed, 3), "games_per_second": round(n / elapsed, 1) if elapsed > 0 else 0.0,
        "seed": seed, "agents": {cg.sides[i]: agents[i] for i in seated}, "options": options,
        "arc": summarise_arcs(cg, [r["arc"] for r in done if "arc" in r]),
    }


def _print_summary(s: dict, cg) -> None:
    from rich.console import Console
    from rich.table import Table
    table = Table(title=f"{cg.id}: {count(s['games'], 'game')}, first seed {s['seed']}", min_width=48)
    table.add_column("", style="bold")
    table.add_column("value", justify="right")
    table.add_row("games", str(s["games"]))
    table.add_row("completed", str(s["completed"]))
    table.add_row("errors", str(s["errors"]))
    for side in s["agents"]:
        table.add_row(f"wins {side} ({s['agents'][side]})", f"{s['wins'][side]}  ({s['win_rates'][side]:.1%})")
    table.add_row("draws", f"{s['wins']['draw']}  ({s['win_rates']['draw']:.1%})")
    table.add_row("decisions asked mean / min / max",
                  f"{s['mean_decisions']:.1f} / {s['min_decisions']} / {s['max_decisions']}")
    table.add_row("games/s", f"{s['games_per_second']}")
    console = Console(soft_wrap=False)
    console.print(table)
    arc = s.get("arc") or {}
    if arc.get("actions") or arc.get("final_means"):
        console.print(_arc_table(arc, cg, s["completed"]))
    if arc.get("statistics"):
        console.print(_statistics_table(arc["statistics"], cg, s["completed"]))


def _arc_table(arc: dict, cg, games: int):
    """The game's arc: per action, games in which each side took it (and how often per game);
    per side variable that moved, its mean value at the end."""
    from rich.table import Table
    table = Table(title=f"the games' arc ({count(games, 'completed game')})", min_width=48)
    table.add_column("", style="bold")
    for side in cg.sides:
        table.add_column(side, justify="right")
    for name, per in arc.get("actions", {}).items():
        table.add_row(f"action {name}: games / per game",
                      *[f"{per[side]['games']} / {per[side]['per_game']:.1f}" for side in cg.sides])
    moved = arc.get("final_moved", {})
    for name, per in arc.get("final_means", {}).items():
        table.add_row(f"{name} at the end: mean (games it moved)",
                      *[f"{per[side]:.2f} ({moved.get(name, {}).get(side, 0)})" for side in cg.sides])
    return table


def _statistics_table(stats: dict, cg, games: int):
    """The game's declared statistics (`statistic "Goals" of s = ...`): per side, in how many
    games each happened (its share) and its mean per game; then in how many it happened for
    some side, and for every side (both Seekers raced)."""
    from rich.table import Table
    table = Table(title=f"statistics ({count(games, 'completed game')}): per side, games it happened in / mean "
                  "per game; games it happened in for any side, for every side",
                  min_width=48)
    table.add_column("", style="bold")
    for side in cg.sides:
        table.add_column(side, justify="right")
    table.add_column("any side", justify="right")
    table.add_column("every side", justify="right")
    for title, row in stats.items():
        cells = []
        for side in cg.sides:
            per = row["sides"][side]
            cells.append(f"{per['games']} / {per['mean']:.2f}")
        anyone, everyone = row["any_side"], row.get("every_side", {"games": 0, "share": 0.0})
        table.add_row(title, *cells, f"{anyone['games']} ({anyone['share']:.0%})",
                      f"{everyone['games']} ({everyone['share']:.0%})")
    return table


class progress:
    """A rich progress bar on stderr (hidden when stderr is not a terminal or with --quiet)."""

    def __init__(self, total: int, what: str, quiet: bool = False):
        self.total, self.what, self.quiet = total, what, quiet
        self.bar = None

    def __enter__(self):
        if self.quiet:
            return lambda k: None
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )
        console = Console(stderr=True)
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TimeRemainingColumn(), console=console, transient=True,
                            disable=not console.is_terminal)
        self.bar.__enter__()
        task = self.bar.add_task(f"simulating {self.what}", total=self.total)
        return lambda k: self.bar.advance(task, k)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        return False
