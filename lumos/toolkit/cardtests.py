"""Card tests a designer writes in YAML, run without Python: a test file -> each case passed or
failed, with the place of the failing expectation and what was found instead.

A test file (`*.test.yaml`, by convention in a `tests/` folder next to the cards) names its
game (`game:`, a bundled id or a folder relative to the file), the expansions to add
(`with:`) and its `cases:`. A case starts from a position (`position:`, the format of
lumos.interpreter.position) or from a seed and a list of choices by label, takes its
`steps:` (`choose:`, `play:`, `roll:`, `take_first:`), then checks its `expect:` block
against the state and that it exercised the cards its `covers:` names. Each case notes
the cards whose statements ran during its choices and steps (lumos.toolkit.coverage
counts them). The format is documented in docs/designers.md; the codes (T2xx) in
docs/errors.md. Nothing here knows a game: every name is looked up in the compiled game.

    >>> result = run_file("cards/my-game/tests/cards.test.yaml")   # doctest: +SKIP
    >>> [(c.name, c.passed) for c in result.cases]                 # doctest: +SKIP
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lumos.diagnostics import Diagnostic, LumosError, Span, did_you_mean

SUFFIX = ".test.yaml"
FILE_KEYS = ("game", "with", "cases")
CASE_KEYS = ("name", "source", "covers", "position", "seed", "options", "choices", "steps", "expect")
STEP_KEYS = ("choose", "play", "roll", "take_first")
EXPECT_KEYS = ("options_include", "options_exclude", "pieces", "vars", "side_vars", "piece_vars",
               "zones", "events_include", "winner", "deciding")
MAX_DECISIONS = 10_000   # chance and `take_first` steps never run a case for ever
MAX_TAKEN = 1_000        # decisions one `take_first` step may take
EFFECT_SUFFIX = "_effect"   # as lumos.compiler.game: a field `..._effect` holds statements


def effect_fields(fields: dict) -> list[str]:
    """The fields of a card that hold statements (its effects), in the card's order: a card
    with one *has an effect* (lumos.toolkit.coverage)."""
    return [k for k, v in fields.items() if isinstance(v, str) and (k == "effect" or k.endswith(EFFECT_SUFFIX))]


@dataclass
class CaseResult:
    """One case: passed when it has no failures; a failure is a Diagnostic at the expectation."""

    name: str
    line: int
    failures: list[Diagnostic] = field(default_factory=list)
    # the cards the case exercised: (card file, name) of each card whose statements (`effect`,
    # `..._effect`) ran during its choices and steps (lumos.toolkit.coverage counts them)
    exercised: set = field(default_factory=set)

    @property
    def passed(self) -> bool:
        return not self.failures


@dataclass
class FileResult:
    """One test file: its cases, or the problems that stop it from running (a broken file)."""

    path: str
    text: str = ""
    cases: list[CaseResult] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)
    # every card of the game the file ran: (card file, name) -> its fields (None when broken)
    cards: dict | None = None

    @property
    def broken(self) -> bool:
        return bool(self.problems)


def find_test_files(roots: list[Path]) -> list[Path]:
    """Every `*.test.yaml` under these folders (a file given itself is kept)."""
    out: list[Path] = []
    for root in roots:
        root = Path(root)
        if root.is_file():
            out.append(root)
        elif root.is_dir():
            out += sorted(p for p in root.rglob(f"*{SUFFIX}") if p.is_file())
    return out


def is_test_file(path: Path) -> bool:
    return Path(path).name.endswith(SUFFIX)


# ---------------------------------------------------------------- reading
class _File:
    """A test file being read: its data and the problems found, each with its place."""

    def __init__(self, path: str):
        self.path = path
        self.problems: list[Diagnostic] = []

    def span(self, container, key=None) -> Span:
        if key is not None and hasattr(container, "mark"):
            try:
                return Span(self.path, *container.mark(key))
            except (KeyError, IndexError, TypeError):
                pass
        start = getattr(container, "start", None)
        return Span(self.path, *start) if start else Span(self.path, 1, 1)

    def key_span(self, container, key) -> Span:
        if hasattr(container, "key_mark"):
            return Span(self.path, *container.key_mark(key))
        return self.span(container, key)

    def fail(self, code, message, span, hint="") -> None:
        self.problems.append(Diagnostic(code, message, span, hint))

    def keys(self, mapping: dict, known: tuple, what: str) -> None:
        for key in mapping:
            if key not in known:
                self.fail("T201", f"{what} has no key `{key}`", self.key_span(mapping, key),
                          did_you_mean(str(key), known) or "its keys are: " + ", ".join(f"`{k}`" for k in known))

    def kind(self, container, key, ok: bool, wanted: str, hint: str = "") -> bool:
        if not ok:
            self.fail("T202", f"`{key}` must be {wanted}", self.span(container, key), hint)
        return ok


def read_file(path: str | Path) -> tuple[Any, list[Diagnostic], str]:
    """(the file's data, its shape problems, its text): YAML and keys checked, no game needed."""
    from lumos.compiler.named_files import read_bytes
    from lumos.compiler.yamlload import MAX_BYTES, load_yaml
    path = str(path)
    f = _File(path)
    try:
        raw = read_bytes(Path(path), MAX_BYTES)
    except OSError as exc:
        code = getattr(exc, "code", "E100")
        message = getattr(exc, "message", None) or f"cannot be read: {getattr(exc, 'strerror', None) or exc}"
        return None, [Diagnostic(code, f"the test file {message}", Span(path, 1, 1), "")], ""
    text = raw.decode("utf-8", "replace")
    try:
        data = load_yaml(raw, path)
    except LumosError as exc:
        return None, list(exc.diagnostics), text
    if not isinstance(data, dict):
        f.fail("T200", "a test file is a mapping with `game:` and `cases:`", f.span(data),
               "start it with `game: GAME`, then `cases:` and a list of cases")
        return None, f.problems, text
    f.keys(data, FILE_KEYS, "a test file")
    if "game" not in data or not isinstance(data.get("game"), str):
        f.fail("T200", "a test file names its game: `game: ID` (or a folder, relative to the file)",
               f.span(data, "game") if "game" in data else Span(path, 1, 1),
               "a bundled game id such as `snitch-snatcher`, or the path of a folder holding game.lumos")
    with_ = data.get("with", [])
    if isinstance(with_, str):
        with_ = [with_]
    f.kind(data, "with", isinstance(with_, list) and all(isinstance(w, str) for w in with_),
           "a list of expansion folders", "write `with: [../my-expansion]`")
    cases = data.get("cases")
    if not isinstance(cases, list) or not cases:
        f.fail("T200", "a test file holds a list of `cases:`", f.span(data, "cases") if "cases" in data
               else Span(path, 1, 1), "write `cases:` and under it `- name: ...` for each case")
        cases = []
    for i, case in enumerate(cases):
        _read_case(f, cases, i, case)
    return data, f.problems, text


def _read_case(f: _File, cases, i: int, case) -> None:
    if not isinstance(case, dict):
        f.fail("T200", f"case {i + 1} is a mapping with `name:`, `steps:` and `expect:`", f.span(cases, i), "")
        return
    f.keys(case, CASE_KEYS, "a case")
    if not isinstance(case.get("name"), str) or not case.get("name").strip():
        f.fail("T200", f"case {i + 1} has no `name:`", f.span(case, "name") if "name" in case else f.span(case),
               "give each case a name, which the output shows")
    if "position" in case and ("choices" in case or "seed" in case):
        key = "choices" if "choices" in case else "seed"
        f.fail("T203", "a case starts from a `position:` or from a `seed:` and `choices:`, not both",
               f.key_span(case, key), "put the seed inside the position: `position: {seed: 3, ...}`")
    if "position" in case:
        f.kind(case, "position", isinstance(case["position"], dict), "a mapping in the position format",
               "pieces:, zones:, vars:, at: ... (see docs/designers.md)")
    if "seed" in case:
        f.kind(case, "seed", isinstance(case["seed"], int) and not isinstance(case["seed"], bool),
               "a whole number")
    if "options" in case:
        f.kind(case, "options", isinstance(case["options"], dict), "a mapping of the game's options")
    if "covers" in case:
        f.kind(case, "covers", isinstance(case["covers"], list) and all(isinstance(c, str) for c in case["covers"]),
               "a list of card names", "write `covers: [Card, Card]`")
    if "choices" in case:
        f.kind(case, "choices", isinstance(case["choices"], list) and all(isinstance(c, str) for c in case["choices"]),
               "a list of option labels")
    steps = case.get("steps", [])
    if f.kind(case, "steps", isinstance(steps, list), "a list of steps", "write `- choose: LABEL` lines"):
        for k, step in enumerate(steps):
            _read_step(f, steps, k, step)
    expect = case.get("expect")
    if expect is None:
        f.fail("T200", f"case {i + 1} has no `expect:`", f.key_span(case, "name") if "name" in case else f.span(case),
               "say what must hold after the steps: `expect: {options_include: [...]}` ...")
    elif f.kind(case, "expect", isinstance(expect, dict), "a mapping of expectations"):
        if not expect:
            f.fail("T200", f"case {i + 1} expects nothing: it would always pass", f.span(case, "expect"),
                   "say what must hold: `options_include:`, `pieces:`, `zones:`, `winner:` ...")
        f.keys(expect, EXPECT_KEYS, "`expect`")
        for key in ("options_include", "options_exclude", "events_include"):
            if key in expect:
                f.kind(expect, key, isinstance(expect[key], list) and all(isinstance(x, str) for x in expect[key]),
                       "a list of texts", f"write `{key}: [text, text]`")
        for key in ("pieces", "vars", "side_vars", "piece_vars", "zones"):
            if key in expect:
                f.kind(expect, key, isinstance(expect[key], dict), "a mapping of names to values")
        for key in ("winner", "deciding"):
            if key in expect:
                f.kind(expect, key, isinstance(expect[key], str), "a side's name")


def _read_step(f: _File, steps, k: int, step) -> None:
    if not isinstance(step, dict) or len(step) != 1:
        f.fail("T204", "a step is one of `choose: LABEL`, `play: CARD`, `roll: FACE`, `take_first: N`",
               f.span(steps, k), "write one step per `-` line")
        return
    (key, value), = step.items()
    if key not in STEP_KEYS:
        f.fail("T201", f"a step has no key `{key}`", f.key_span(step, key),
               did_you_mean(str(key), STEP_KEYS) or "a step is `choose`, `play`, `roll` or `take_first`")
    elif key == "take_first":
        f.kind(step, key, isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_TAKEN,
               f"a whole number of decisions, from 1 to {MAX_TAKEN}")
    elif key == "choose":
        f.kind(step, key, isinstance(value, (str, dict)) and not isinstance(value, bool),
               "an option's label or a mapping of its arguments")
    else:
        f.kind(step, key, isinstance(value, (str, int)) and not isinstance(value, bool),
               "a card's name" if key == "play" else "a face of the die")


# ---------------------------------------------------------------- the game
def compile_for(path: str, data: dict):
    """(CompiledGame or None, diagnostics, files) of the game and expansions a test file names."""
    from lumos.api import bundled_games, game_sources
    from lumos.compiler.game import check_game
    from lumos.toolkit.expansions import load_expansion, manifest_path, with_rules
    f = _File(path)
    here = Path(path).parent
    game = data["game"]
    if game in bundled_games():
        src = game_sources(game)
    elif (here / game / "game.lumos").is_file():
        src = game_sources(here / game)
    else:
        f.fail("T205", f"no game `{game}`: neither a bundled game nor a folder holding game.lumos",
               f.span(data, "game"), did_you_mean(game, bundled_games()) or
               f"bundled games: {', '.join(bundled_games())}; a folder is relative to the test file")
        return None, f.problems, {}
    with_ = data.get("with") or []
    with_ = [with_] if isinstance(with_, str) else with_
    extra, files, paths = [], {}, []
    own = {p.resolve() for p in src.card_files()}
    for k, item in enumerate(with_):
        manifest = manifest_path(here / item)
        where = f.span(data["with"], k) if isinstance(data["with"], list) else f.span(data, "with")
        if manifest is None:
            f.fail("T205", f"no expansion `{item}`: a folder holding expansion.yaml, relative to the test file",
                   where, "")
            continue
        exp, problems, texts = load_expansion(manifest)
        f.problems += problems
        files.update(texts)
        if exp is None:
            continue
        if exp.base.rules_dir.resolve() != src.rules_dir.resolve():
            f.fail("T205", f"the expansion `{item}` extends `{exp.extends}`, not `{game}`", where, "")
            continue
        extra += [p for p in exp.card_files if p.resolve() not in own and p not in extra]
        paths.append(str(manifest))
    if f.problems:
        return None, f.problems, files
    try:
        src = with_rules(src, paths)
    except ValueError as exc:
        return None, [Diagnostic("T205", str(exc), f.span(data, "with"), "")], files
    from lumos.compiler.teams import looks_like_team_file
    extra = [p for p in extra if not looks_like_team_file(p)]
    cg, diags, texts = check_game(src, extra_cards=extra or None)
    files.update(texts)
    if cg is None or any(d.is_error for d in diags):
        return None, [d for d in diags if d.is_error], files
    return cg, [], files


# ---------------------------------------------------------------- names checked against the game
def check_names(cg, path: str, data: dict) -> list[Diagnostic]:
    """Names of the expectations (pieces, spaces, zones, cards, variables, sides) that the game
    does not have: a test that names them could never pass."""
    f = _File(path)
    pieces = [p.name for p in cg.pieces]
    spaces = list(cg.board.spaces)
    sides = list(cg.sides)
    zones = [cg.zone_label(z) for z in range(len(cg.zones) * cg.nsides)
             if not (z // cg.nsides in cg.shared_zones and z % cg.nsides)]
    cards = list(dict.fromkeys(c.name for c in cg.cards))

    def known(container, key, name, table, what, at_key=True):
        if name not in table:
            span = f.key_span(container, key) if at_key else f.span(container, key)
            f.fail("T206", f"{cg.id} has no {what} `{name}`", span,
                   did_you_mean(str(name), table) or f"the {what}s are: {', '.join(map(str, table[:12]))}")
            return False
        return True

    for case in data.get("cases") or []:
        if not isinstance(case, dict):
            continue
        for name, value in (case.get("options") or {}).items():
            if known(case["options"], name, name, list(cg.options), "option") and value not in cg.options[name][1]:
                f.fail("T202", f"option `{name}` is one of {', '.join(map(str, cg.options[name][1]))}, not {value!r}",
                       f.span(case["options"], name), "")
        for step in case.get("steps") or []:
            if isinstance(step, dict) and isinstance(step.get("play"), str):
                known(step, "play", step["play"], cards, "card", at_key=False)
        if isinstance(case.get("covers"), list):
            for k, card in enumerate(case["covers"]):
                known(case["covers"], k, card, cards, "card", at_key=False)
        expect = case.get("expect")
        if not isinstance(expect, dict):
            continue
        for name, where in (expect.get("pieces") or {}).items():
            if known(expect["pieces"], name, name, pieces, "piece"):
                if isinstance(where, dict):
                    if set(where) != {"carried_by"}:
                        f.fail("T202", "a piece stands on a space, is `null` (off the board) or "
                                       "`{carried_by: PIECE}`", f.span(expect["pieces"], name), "")
                    else:
                        known(where, "carried_by", where["carried_by"], pieces, "piece", at_key=False)
                elif where is not None:
                    known(expect["pieces"], name, where, spaces, "space", at_key=False)
        for name, cardlist in (expect.get("zones") or {}).items():
            if known(expect["zones"], name, name, zones, "zone"):
                if not isinstance(cardlist, list):
                    f.fail("T202", f"`{name}` holds a list of card names, bottom first", f.span(expect["zones"], name),
                           "write `[Card, Card]`; `[]` for an empty zone")
                    continue
                for k, card in enumerate(cardlist):
                    known(cardlist, k, card, cards, "card", at_key=False)
        for name in expect.get("vars") or {}:
            known(expect["vars"], name, name, list(cg.global_names), "variable")
        for key, names, owners, what in (("side_vars", cg.side_var_names, sides, "side"),
                                         ("piece_vars", cg.piece_var_names, pieces, "piece")):
            for name, per in (expect.get(key) or {}).items():
                if known(expect[key], name, name, list(names), key[:-5].replace("_", " ") + " variable"):
                    if not isinstance(per, dict):
                        f.fail("T202", f"`{name}` is a mapping of {what}s to values", f.span(expect[key], name), "")
                        continue
                    for owner in per:
                        known(per, owner, owner, owners, what)
        if isinstance(expect.get("winner"), str):
            known(expect, "winner", expect["winner"], sides + ["draw"], "side", at_key=False)
        if isinstance(expect.get("deciding"), str):
            known(expect, "deciding", expect["deciding"], sides, "side", at_key=False)
    return f.problems


# ---------------------------------------------------------------- running
def run_file(path: str | Path) -> FileResult:
    """Read, check and run one test file; each case from a fresh state."""
    path = str(path)
    data, problems, text = read_file(path)
    result = FileResult(path, text)
    if problems:
        result.problems = problems
        return result
    cg, problems, _ = compile_for(path, data)
    if cg is None:
        result.problems = problems
        return result
    result.problems = check_names(cg, path, data)
    if result.problems:
        return result
    result.cards = {(c.span.file, c.name): c.fields for c in cg.cards}
    for case in data["cases"]:
        outcome = run_case(cg, path, case)
        if isinstance(outcome, list):        # the position is broken: the file is
            result.problems += outcome
        else:
            result.cases.append(outcome)
    return result


class _Stop(Exception):
    """A step could not be taken: the case fails there."""

    def __init__(self, diag: Diagnostic):
        self.diag = diag


def _start(cg, seed, options, forced):
    from lumos.interpreter.engine import GameState
    return GameState.new(cg, seed=seed, options=options, log=True, forced=forced)


def run_case(cg, path: str, case: dict):
    """A CaseResult, or the list of a broken position's diagnostics."""
    from lumos.diagnostics import LumosCheckError, LumosRuntimeError
    from lumos.interpreter.position import read_position
    f = _File(path)
    result = CaseResult(str(case["name"]), f.key_span(case, "name").line)
    try:
        if "position" in case:
            state = read_position(cg, case["position"], _start, path)
        else:
            state = _start(cg, case.get("seed", 0), case.get("options") or None, "ask")
    except LumosCheckError as exc:
        return list(exc.diagnostics)
    except LumosRuntimeError as exc:    # the rules went wrong on the way to the start
        result.failures += list(exc.diagnostics)
        return result
    state.machine.played = played = set()   # which cards' statements run from here on
    moves: dict = {}    # the values of the arguments of the options taken (cards among them)
    before = _card_places(state)
    try:
        choices = case.get("choices") or []
        for k, label in enumerate(choices):
            _choose_label(f, state, label, choices, k, moves)
        for k, step in enumerate(case.get("steps") or []):
            _step(f, state, step, moves)
        _settle(state)      # the dice the rules roll next are rolled, as before a step
    except _Stop as stop:
        result.failures.append(stop.diag)
        return result
    except LumosRuntimeError as exc:    # the rules went wrong while the steps ran: the case fails there
        result.failures += list(exc.diagnostics)
        return result
    finally:
        state.machine.played = None
    result.exercised = {(cg.cards[c].span.file, cg.cards[c].name) for c, _key in played}
    result.failures += _expectations(f, state, case["expect"])
    result.failures += _covers(f, cg, case, result.exercised, moves, before, _card_places(state))
    return result


def _card_places(state) -> dict:
    """card name -> the sorted (zone, place in the zone) of its copies: what a case moved."""
    out: dict = {}
    for zone, cards in state.position()["zones"].items():
        for k, c in enumerate(cards):
            out.setdefault(c["card"] if isinstance(c, dict) else c, []).append((zone, k))
    return {name: sorted(places) for name, places in out.items()}


def _covers(f: _File, cg, case: dict, exercised: set, taken: dict, before: dict, after: dict) -> list[Diagnostic]:
    """T221 for each card the case says it covers but did not exercise. A card with statements
    (`effect`, `..._effect`) is exercised when they ran; a card without them (its effect is
    data the rules read) when an option taken named it or it changed place (its zone, or its
    place in the zone) during the case."""
    out = []
    ran = {name for _file, name in exercised}
    moved = {name for name in set(before) | set(after) if before.get(name) != after.get(name)}
    fields = {c.name: c.fields for c in cg.cards}
    for k, name in enumerate(case.get("covers") or []):
        if effect_fields(fields[name]):
            if name not in ran:
                out.append(Diagnostic("T221", f"the case covers `{name}`, but no statement of `{name}` ran",
                                      f.span(case["covers"], k), "play the card in the steps (or take the option "
                                      "that resolves it), or leave it out of `covers:`"))
        elif name not in taken and name not in moved:
            out.append(Diagnostic("T221", f"the case covers `{name}`, but no option taken named it and it "
                                          "never moved", f.span(case["covers"], k),
                                  "take the option that plays or picks the card, or leave it out of `covers:`"))
    return out


def _settle(state) -> None:
    """Chance outcomes before a step are drawn by the game's own generator (seeded)."""
    for _ in range(MAX_DECISIONS):
        if state.is_terminal() or not state.is_chance_node():
            return
        state.apply_action(state.sample_chance())


def _labels(state) -> list[str]:
    return [] if state.is_terminal() else state.action_labels()


def _no_option(f: _File, state, container, key, what: str, wanted: str) -> _Stop:
    labels = _labels(state)
    if state.is_terminal():
        return _Stop(Diagnostic("T210", f"{what}: the game is over", f.span(container, key),
                                "remove the steps after the end of the game"))
    shown = "; ".join(labels[:8]) + (f"; ... ({len(labels)} in all)" if len(labels) > 8 else "")
    return _Stop(Diagnostic("T210", f"{what}: no option {wanted} here", f.span(container, key),
                            did_you_mean(wanted.strip("`"), labels) or f"the options are: {shown}"))


def _take(state, i: int, taken: dict) -> None:
    """Apply option i, noting the values of its arguments (cards among them: `covers:`)."""
    for v in state.options()[i]["args"].values():
        taken[str(v)] = True
    state.apply_action(i)


def _choose_label(f: _File, state, label, container, key, taken: dict) -> None:
    if not state.is_terminal() and state.is_chance_node() and label in _labels(state):
        state.apply_action(_labels(state).index(label))
        return
    _settle(state)
    labels = _labels(state)
    if label not in labels:
        raise _no_option(f, state, container, key, "cannot choose", f"`{label}`")
    _take(state, labels.index(label), taken)


def _step(f: _File, state, step: dict, taken: dict) -> None:
    (key, value), = step.items()
    if key == "choose" and isinstance(value, str):
        _choose_label(f, state, value, step, key, taken)
    elif key == "choose":
        _settle(state)
        records = [] if state.is_terminal() else state.options()
        found = [i for i, r in enumerate(records)
                 if all(str(r["args"].get(k)) == str(v) for k, v in value.items())]
        if len(found) != 1:
            wanted = ", ".join(f"{k}: {v}" for k, v in value.items())
            if found:
                raise _Stop(Diagnostic("T211", f"{len(found)} options have the arguments `{wanted}`",
                                       f.span(step, key), "add arguments until one option is left: " +
                                       "; ".join(records[i]["label"] for i in found[:6])))
            raise _no_option(f, state, step, key, "cannot choose", f"with the arguments `{wanted}`")
        _take(state, found[0], taken)
    elif key == "play":
        _settle(state)
        records = [] if state.is_terminal() else state.options()
        found = [i for i, r in enumerate(records)
                 if r["kind"] in ("card", "action") and value in [str(v) for v in r["args"].values()]]
        if len(found) != 1:
            if found:
                raise _Stop(Diagnostic("T211", f"{len(found)} options play `{value}`", f.span(step, key),
                                       "choose one by its label: " + "; ".join(records[i]["label"] for i in found[:6])))
            raise _no_option(f, state, step, key, f"cannot play `{value}`", "that plays it")
        _take(state, found[0], taken)
    elif key == "roll":
        if state.is_terminal() or not state.is_chance_node():
            raise _Stop(Diagnostic("T210", f"cannot roll {value}: no die is rolled here", f.span(step, key),
                                   "the rules wait for a decision: " + "; ".join(_labels(state)[:6])))
        labels = _labels(state)
        label = f"roll {value}"
        if label not in labels:
            raise _Stop(Diagnostic("T210", f"the die has no face `{value}`", f.span(step, key),
                                   "its outcomes are: " + ", ".join(labels)))
        state.apply_action(labels.index(label))
    else:
        moves, taken = taken, 0
        for _ in range(MAX_DECISIONS):
            if taken == value or state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
                continue
            _take(state, 0, moves)
            taken += 1
        if taken < value:
            raise _Stop(Diagnostic("T210", f"took {taken} of {value} decisions: the game is over",
                                   f.span(step, key), ""))


# ---------------------------------------------------------------- expectations
def _expectations(f: _File, state, expect: dict) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    cg = state.cg

    def miss(container, key, message, hint="", at_key=False):
        span = f.key_span(container, key) if at_key else f.span(container, key)
        out.append(Diagnostic("T220", message, span, hint))

    labels = _labels(state)
    shown = "; ".join(labels[:10]) + (f"; ... ({len(labels)} in all)" if len(labels) > 10 else "")
    for k, label in enumerate(expect.get("options_include") or []):
        if label not in labels:
            miss(expect["options_include"], k, f"the options do not include `{label}`",
                 f"the options are: {shown}" if labels else "no decision is pending")
    for k, label in enumerate(expect.get("options_exclude") or []):
        if label in labels:
            miss(expect["options_exclude"], k, f"the options include `{label}`")
    position = state.position()
    for name, where in (expect.get("pieces") or {}).items():
        found = position["pieces"].get(name)
        if _plain(found) != _plain(where):
            miss(expect["pieces"], name, f"`{name}` is {_where(found)}, not {_where(where)}")
    for name, cards in (expect.get("zones") or {}).items():
        found = [c["card"] if isinstance(c, dict) else c for c in position["zones"].get(name, [])]
        if found != list(cards):
            miss(expect["zones"], name, f"`{name}` holds {_list(found)}, not {_list(cards)}")
    for name, value in (expect.get("vars") or {}).items():
        found = _card_name(position["vars"].get(name))
        if _plain(found) != _plain(value):
            miss(expect["vars"], name, f"`{name}` is {_show(found)}, not {_show(value)}")
    for key in ("side_vars", "piece_vars"):
        for name, per in (expect.get(key) or {}).items():
            for owner, value in per.items():
                found = _card_name(position[key].get(name, {}).get(owner))
                if _plain(found) != _plain(value):
                    miss(per, owner, f"`{name}` of {owner} is {_show(found)}, not {_show(value)}")
    events = [e.get("event", "") for e in state.events or []]
    for k, text in enumerate(expect.get("events_include") or []):
        if not any(text in e for e in events):
            recent = "; ".join(events[-5:])
            miss(expect["events_include"], k, f"no event says `{text}`",
                 f"the last events: {recent}" if events else "nothing was logged")
    if "winner" in expect:
        if not state.is_terminal():
            miss(expect, "winner", f"the game is not over, so `{expect['winner']}` has not won",
                 f"the rules wait for {_decider(state)}")
        else:
            w = state.winner()
            found = "draw" if w is None else cg.sides[w]
            if found != expect["winner"]:
                miss(expect, "winner", f"the winner is {found}, not {expect['winner']}")
    if "deciding" in expect:
        found = _decider(state)
        if found != expect["deciding"]:
            miss(expect, "deciding", f"{found} decides here, not {expect['deciding']}")
    return sorted(out, key=lambda d: (d.span.line, d.span.col))


def _decider(state) -> str:
    if state.is_terminal():
        return "nobody (the game is over)"
    return state.cg.sides[state.current_player()]


def _card_name(value):
    if isinstance(value, dict) and "card" in value:
        return value["card"]
    if isinstance(value, list):
        return [_card_name(v) for v in value]
    return value


def _plain(value):
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


def _where(value) -> str:
    if value is None:
        return "off the board"
    if isinstance(value, dict):
        return f"carried by {value.get('carried_by')}"
    return f"on {value}"


def _show(value) -> str:
    if isinstance(value, (list, tuple)):
        return _list(value)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"`{value}`" if isinstance(value, str) else str(value)


def _list(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"
