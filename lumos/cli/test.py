"""`lumos test [PATH ...]`: a designer's card tests (`*.test.yaml`) run, printed like pytest.

Each case is PASS or FAIL; a failure shows the file:line:col of the expectation (or step)
that failed, its source line with a caret and what was found instead; a broken test file
shows its problems the way `lumos check` does. Exit status 0 when every case passes, 1 when
a case fails or a test file is broken, 2 for a usage error. The runner is
lumos.toolkit.cardtests; the format is in docs/designers.md.
"""
from __future__ import annotations

import json
from pathlib import Path

from lumos.cli.common import EXIT_FAIL, EXIT_OK, UsageError, count, display_path, render_diagnostic

QUICK_EXIT = True  # leaves no file open: lumos.cli.entry ends the process at once

EXIT_BROKEN = EXIT_FAIL   # a broken test file is a problem found, as in `lumos check`


def register(sub) -> None:
    """Add `lumos test` and its arguments to the sub-command parsers."""
    s = sub.add_parser("test", help="run card tests written in YAML (*.test.yaml)",
                       description="Run the cases of card test files (*.test.yaml) and print each one's result. "
                                   "Exit status: 0 all pass, 1 a case fails or a test file is broken, 2 usage error.")
    s.add_argument("paths", nargs="*", metavar="PATH",
                   help="test files or folders searched for *.test.yaml (default: the bundled games' cards "
                        "and the examples)")
    s.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")
    s.add_argument("--coverage", action="store_true",
                   help="also list, per folder of cards, the cards with an effect that no passing case "
                        "exercised; exit 1 when there is one")
    s.set_defaults(func=run)


def default_roots() -> list[Path]:
    """The bundled games' card folders, and the examples folder of a source checkout."""
    from lumos.api import game_sources, bundled_games
    roots = [game_sources(g).cards_dir for g in bundled_games()]
    examples = Path(__file__).resolve().parents[2] / "examples"
    return [r for r in roots if r is not None] + ([examples] if examples.is_dir() else [])


def run(args) -> int:
    from lumos.toolkit.cardtests import find_test_files, run_file
    for item in args.paths:
        if not Path(item).exists():
            raise UsageError(f"no test file or folder `{item}`")
    files = find_test_files([Path(p) for p in args.paths] if args.paths else default_roots())
    if not files:
        raise UsageError("no test files (*.test.yaml) found" + (f" in {', '.join(args.paths)}" if args.paths else ""))
    results = [run_file(p) for p in files]
    report = _coverage(results, not args.paths) if args.coverage else None
    if args.format == "json":
        out = _as_json(results)
        if report is not None:
            out["coverage"] = [{"cards": fc.folder, "with_effect": len(fc.with_effect), "exercised": len(fc.covered),
                                "not_exercised": fc.uncovered, "without_effect": fc.without_effect}
                               for fc in report]
        print(json.dumps(out, indent=2))
    else:
        _print_text(results)
        if report is not None:
            _print_coverage(report)
    if any(r.broken for r in results):
        return EXIT_BROKEN
    if any(not c.passed for r in results for c in r.cases):
        return EXIT_FAIL
    return EXIT_FAIL if report and any(fc.uncovered for fc in report) else EXIT_OK


def _coverage(results, shipped: bool):
    """Per folder of cards, which cards with an effect the passing cases exercised; with no
    PATH, every bundled game and example expansion, tests or not (lumos.toolkit.coverage)."""
    from lumos.toolkit.coverage import measure, shipped_cards
    return measure(results, shipped_cards() if shipped else None)


def _print_coverage(report) -> None:
    print("== cards with an effect exercised by a passing case ==")
    for fc in report:
        n, k = len(fc.with_effect), len(fc.covered)
        share = f" ({100 * k // n}%)" if n else ""
        print(f"{display_path(fc.folder)}: {k} of {n}{share}" + (", " + count(fc.without_effect, "card") +
                                                          " without an effect" if fc.without_effect else ""))
        if fc.uncovered:
            print("    not exercised: " + ", ".join(fc.uncovered))


def _print_text(results) -> None:
    passed = failed = 0
    for r in results:
        print(display_path(r.path))
        files = {r.path: r.text}
        for d in r.problems:
            print(_indent(render_diagnostic(d, files)))
        for c in r.cases:
            print(f"  {'PASS' if c.passed else 'FAIL'}  {c.name}")
            passed += c.passed
            failed += not c.passed
            for d in c.failures:
                print(_indent(render_diagnostic(d, files), 8))
    broken = sum(r.broken for r in results)
    parts = [count(passed, "case") + " passed", f"{failed} failed"]
    if broken:
        parts.append(count(broken, "broken test file"))
    print(f"== {', '.join(parts)} in {count(len(results), 'file')} ==")


def _indent(text: str, n: int = 4) -> str:
    return "\n".join(" " * n + line for line in text.splitlines())


def _as_json(results) -> dict:
    out = []
    for r in results:
        out.append({"file": r.path, "broken": r.broken, "problems": [d.to_json() for d in r.problems],
                    "cases": [{"name": c.name, "line": c.line, "passed": c.passed,
                               "failures": [d.to_json() for d in c.failures]} for c in r.cases]})
    cases = [c for r in results for c in r.cases]
    return {"files": out, "summary": {"passed": sum(c.passed for c in cases),
                                      "failed": sum(not c.passed for c in cases),
                                      "broken_files": sum(r.broken for r in results)}}
