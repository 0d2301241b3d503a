"""A game -> a JSON Lines log, and a log -> a replay that checks every line.

A log is the whole story of one game, one JSON object per line:

1. a header: ``{"lumos", "game", "source_hash", "seed", "options", "agents", "cards_hash",
   "card_files"}``; ``source_hash`` covers the game's own files, ``cards_hash`` every card
   the game was played with (its own and those added with ``--with``), and ``card_files``
   lists the files those cards came from (``{"file", "path", "hash"}``: the file's folder
   and name, its absolute path, a hash of its text), so that a replay without an
   expansion the game was played with can say which one is missing; a game started
   with team files also has ``teams`` (per side: the file, its fields and the cards put
   into each zone, by card number), which the replay puts back the same way;
2. the events of the setup, then for each decision one decision line
   ``{"n", "side", "choice", "label"}`` (``side`` is a side's name or
   ``"chance"``) followed by the events it caused ``{"event", "rule", "in"}``;
3. a result line ``{"result", "winner", "decisions", "state_hash"}`` (plus
   ``"error"`` when the rules failed during play).

The seed, the options and the choices are enough to play the game again, because
chance draws from the generator kept in the state (the driver resolves a chance
node with `state.sample_chance()`; the replay draws again and checks the outcome). `replay` does so and compares
every line it would write with the line in the log, so the first divergence
(a changed rule, a changed card, a tampered log) is reported with its line number.

Rule positions are written relative to the folder that holds all of the game's
files, so a log made in one checkout replays in another.

>>> from lumos.api import bundled_games, load_game   # doctest: +SKIP
>>> cg = load_game(bundled_games()[0])               # doctest: +SKIP
>>> write_game_log(cg, "game.jsonl", seed=3)         # doctest: +SKIP
>>> replay(cg, "game.jsonl").ok                      # doctest: +SKIP
True
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from lumos.diagnostics import Diagnostic, LumosError, LumosRuntimeError
from lumos.interpreter.program import CHANCE, CompiledGame

FORMAT_KEYS = ("lumos", "game", "source_hash", "seed", "options", "agents", "cards_hash", "card_files")
LIMIT_CODE = "R010"   # the driver stopped a game at its decision limit (not an error of the rules)


# ---------------------------------------------------------------- shared pieces
def _version() -> str:
    try:
        from lumos import __version__
        return __version__
    except ImportError:  # pragma: no cover - the package always has one
        return "0"


def _common_root(cg: CompiledGame) -> str:
    paths = [os.path.abspath(p) for p in cg.files]
    if not paths:
        return ""
    try:
        root = os.path.commonpath([os.path.dirname(p) for p in paths])
    except ValueError:  # different drives
        return ""
    return root


def source_hash(cg: CompiledGame) -> str:
    """A hash of the texts the game was compiled from (names relative to the game's folder)."""
    if cg.source_hash:
        return cg.source_hash
    root = _common_root(cg)
    h = hashlib.sha256()
    for path in sorted(cg.files, key=lambda p: _relative(p, root)):
        h.update(_relative(path, root).encode())
        h.update(b"\0")
        h.update(cg.files[path].encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


def _text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def cards_hash(cg: CompiledGame) -> str:
    """A hash of every card definition of the game (where its files are does not count)."""
    h = hashlib.sha256()
    defs = sorted(json.dumps([d.name, d.type, d.deck, d.copies, dict(d.fields)], sort_keys=True,
                             ensure_ascii=False, default=str) for d in cg.card_defs)
    for text in defs:
        h.update(text.encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


def card_files(cg: CompiledGame) -> list[dict[str, str]]:
    """The files the game's cards come from: folder/name, absolute path, hash of the text."""
    out, seen = [], set()
    for d in cg.card_defs:
        path = d.span.file
        if path in seen:
            continue
        seen.add(path)
        p = Path(path)
        text = cg.files.get(path)
        out.append({"file": f"{p.parent.name}/{p.name}", "path": os.path.abspath(path),
                    "hash": _text_hash(text) if text is not None else ""})
    return out


@dataclass
class CardMismatch:
    """How the cards of a log differ from the cards of the game replaying it."""
    missing: list[dict] = field(default_factory=list)    # logged files the replay has not (by name or hash)
    changed: list[dict] = field(default_factory=list)    # logged files the replay has, with another text
    added: list[dict] = field(default_factory=list)      # files of the replay the log does not list


def compare_cards(head: dict, cg: CompiledGame) -> CardMismatch | None:
    """None when the log's cards are the game's (or the log is older than card hashes)."""
    logged_hash = head.get("cards_hash")
    if not isinstance(logged_hash, str) or logged_hash == cards_hash(cg):
        return None
    logged = [f for f in head.get("card_files") or [] if isinstance(f, dict)]
    mine = card_files(cg)
    hashes = {f["hash"] for f in mine}
    names = {f["file"]: f for f in mine} | {f["path"]: f for f in mine}
    out = CardMismatch()
    for f in logged:
        if f.get("hash") in hashes:
            continue
        if f.get("path") in names or f.get("file") in names:
            out.changed.append(f)
        else:
            out.missing.append(f)
    known = {f.get("hash") for f in logged} | {f.get("path") for f in logged} | {f.get("file") for f in logged}
    out.added = [f for f in mine if not {f["hash"], f["path"], f["file"]} & known]
    return out


def _relative(path: str, root: str) -> str:
    if not root:
        return path.replace(os.sep, "/")
    try:
        return os.path.relpath(os.path.abspath(path), root).replace(os.sep, "/")
    except ValueError:
        return path.replace(os.sep, "/")


class _RuleNames:
    """Turns the `file:line` of an event into `relative/file:line`, caching per file."""

    def __init__(self, cg: CompiledGame):
        self.root = _common_root(cg)
        self.cache: dict[str, str] = {}

    def __call__(self, rule: str) -> str:
        path, sep, line = rule.rpartition(":")
        if not sep:
            return rule
        rel = self.cache.get(path)
        if rel is None:
            rel = self.cache[path] = _relative(path, self.root)
        return f"{rel}:{line}"


def state_hash(state) -> str:
    return hashlib.sha256(state.to_json().encode()).hexdigest()


def _side_name(cg: CompiledGame, side: int) -> str:
    return "chance" if side == CHANCE else cg.sides[side]


def decision_record(state, n: int, choice: int) -> dict[str, Any]:
    """The decision line for applying `choice` at `state` (call before applying it): the option
    as data too (its kind, the rule that offers it and its arguments by name)."""
    options = state.options()
    rec: dict[str, Any] = {"n": n, "side": _side_name(state.cg, state.current_player()), "choice": choice}
    if 0 <= choice < len(options):
        o = options[choice]
        rec.update(label=o["label"], kind=o["kind"], rule=o["rule"]["name"], args=o["args"])
    else:
        rec["label"] = None
    return rec


def result_record(state, error: Diagnostic | None = None) -> dict[str, Any]:
    """The last line: returns, winner, decisions, a hash of the final state, and the error if any.

    `state` is None when the game could not even be set up."""
    if state is None:
        rec: dict[str, Any] = {"result": None, "winner": None, "decisions": 0, "state_hash": None}
    else:
        w = state.winner()
        rec = {
            "result": state.returns() if state.is_terminal() else None,
            "winner": None if w is None else state.cg.sides[w],
            "decisions": state.st.decisions,
            "state_hash": state_hash(state),
        }
    if error is not None:
        rec["error"] = {"code": error.code, "message": error.message}
    return rec


# ---------------------------------------------------------------- writing
class GameLog:
    """Writes one game's log as it is played.

    Call `start` once after the state is created (with `log=True`), `decision`
    before each `apply_action`, `flush_events` after it, and `finish` at the end.
    """

    def __init__(self, out: IO[str], cg: CompiledGame, seed: int, options: dict | None = None,
                 agents: list[str] | None = None, teams: dict | None = None, forced: str = "take"):
        self.out = out
        self.cg = cg
        self.rule = _RuleNames(cg)
        self.seen = 0
        self.n = 0
        self._write({"lumos": _version(), "game": cg.id, "source_hash": source_hash(cg), "seed": seed,
                     "options": dict(options or {}), "agents": list(agents or []),
                     "cards_hash": cards_hash(cg), "card_files": card_files(cg), "forced": forced,
                     **({"teams": teams} if teams else {})})

    def _write(self, record: dict) -> None:
        self.out.write(json.dumps(record, separators=(",", ":"), ensure_ascii=False))
        self.out.write("\n")

    def flush_events(self, state) -> None:
        events = state.events or []
        for ev in events[self.seen:]:
            self._write(event_record(ev, self.rule))
        self.seen = len(events)

    start = flush_events

    def decision(self, state, choice: int) -> None:
        self.flush_events(state)
        self._write(decision_record(state, self.n, choice))
        self.n += 1

    def finish(self, state, error: Diagnostic | None = None) -> None:
        if state is not None:
            self.flush_events(state)
        self._write(result_record(state, error))


def event_record(ev: dict, rule_names) -> dict:
    return {"event": ev["event"], "rule": rule_names(ev["rule"]), "in": ev["in"]}


# ---------------------------------------------------------------- replaying
@dataclass
class Divergence:
    line: int          # 1-based line of the log
    expected: Any      # what the log says
    got: Any           # what the replay produced

    def __str__(self) -> str:
        return (f"line {self.line}: the log has {_show(self.expected)}\n"
                f"  but the replay gives {_show(self.got)}")


def _show(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


@dataclass
class ReplayResult:
    ok: bool
    lines: int = 0
    decisions: int = 0
    divergence: Divergence | None = None
    warnings: list[str] = field(default_factory=list)
    header: dict = field(default_factory=dict)
    cards: CardMismatch | None = None    # set when the log's cards differ from the game's

    def __str__(self) -> str:
        if self.ok:
            return f"ok: {self.lines} lines, {self.decisions} decisions reproduced"
        return f"diverges at {self.divergence}"


class _Bad(Exception):
    def __init__(self, line: int, expected, got):
        self.div = Divergence(line, expected, got)


def read_log(path: str | Path) -> list[tuple[int, dict]]:
    """(line number, record) for each non-blank line; a line that is not a JSON object is a divergence."""
    records = []
    with open(path, encoding="utf-8", errors="replace") as fh:
        for i, text in enumerate(fh, 1):
            if not text.strip():
                continue
            try:
                rec = json.loads(text)
            except ValueError as exc:
                raise _Bad(i, text.strip()[:120], f"text that is not JSON ({exc.msg})") from None
            if not isinstance(rec, dict):
                raise _Bad(i, rec, "a JSON object")
            records.append((i, rec))
    return records


def log_header(path: str | Path) -> dict:
    """The header of a log (to find which game to load before replaying)."""
    try:
        with open(path, encoding="utf-8") as fh:
            head = json.loads(fh.readline())
    except ValueError:   # not UTF-8, or not JSON
        return {}
    return head if isinstance(head, dict) else {}


def replay(cg: CompiledGame, path: str | Path) -> ReplayResult:
    """Play the logged game again and compare every line; stop at the first divergence."""
    result = ReplayResult(True)
    try:
        return _replay(cg, read_log(path), result)
    except _Bad as bad:
        result.ok, result.divergence = False, bad.div
        return result


def _replay(cg: CompiledGame, records: list[tuple[int, dict]], result: ReplayResult) -> ReplayResult:
    from lumos.interpreter.engine import GameState
    if not records or "lumos" not in records[0][1]:
        raise _Bad(records[0][0] if records else 1, "a header line", "no header")
    line0, head = records[0]
    result.header = head
    if head.get("game") != cg.id:
        raise _Bad(line0, {"game": head.get("game")}, {"game": cg.id})
    if head.get("source_hash") != source_hash(cg):
        result.warnings.append("the game's files changed since the log was written "
                               f"(source hash {head.get('source_hash')} -> {source_hash(cg)})")
    mismatch = compare_cards(head, cg)
    if mismatch is not None:
        result.cards = mismatch
        if mismatch.missing:   # the game was played with cards this one lacks: it cannot reproduce
            raise _Bad(line0, {"card_files": [f.get("file") for f in mismatch.missing]},
                       "a game without the cards of " + ", ".join(str(f.get("file")) for f in mismatch.missing))
        for f in mismatch.changed:
            result.warnings.append(f"the cards of {f.get('file')} changed since the log was written")
        for f in mismatch.added:
            result.warnings.append(f"the log's game had no cards of {f['file']} ({f['path']})")
    rule = _RuleNames(cg)
    produced: list[dict] = []   # lines the replay has made and the log has not yet matched
    seen = 0
    error: LumosError | None = None

    def collect(state):
        nonlocal seen
        events = state.events or []
        produced.extend(event_record(ev, rule) for ev in events[seen:])
        seen = len(events)

    try:
        state = GameState.new(cg, seed=head.get("seed", 0), options=head.get("options") or None, log=True,
                              teams=head.get("teams") or None, forced=head.get("forced", "take"))
    except LumosRuntimeError as exc:
        error = exc
        state = None
    except (ValueError, TypeError) as exc:
        raise _Bad(line0, head, f"a game that cannot start: {exc}") from None
    if state is not None:
        collect(state)
    n = 0
    for lineno, rec in records[1:]:
        if produced:
            got = produced.pop(0)
            if rec != got:
                raise _Bad(lineno, rec, got)
            continue
        if "event" in rec:
            raise _Bad(lineno, rec, _waiting(state, error))
        if "choice" in rec:
            if state is None or error is not None or state.is_terminal():
                raise _Bad(lineno, rec, _waiting(state, error))
            choice = rec.get("choice")
            if state.is_chance_node():
                # the driver drew this outcome with the state's own generator; so do we
                # (a question a person answered by typing was settled by the answer, not the draw)
                sampled = state.sample_chance()
                if choice != sampled and state.question() is None:
                    raise _Bad(lineno, rec, decision_record(state, n, sampled))
            if not isinstance(choice, int) or choice not in state.legal_actions():
                raise _Bad(lineno, rec, f"{len(state.legal_actions())} legal options for "
                                        f"{_side_name(cg, state.current_player())}")
            got = decision_record(state, n, choice)
            if rec != got:
                raise _Bad(lineno, rec, got)
            n += 1
            try:
                state.apply_action(choice)
            except LumosRuntimeError as exc:
                error = exc
            collect(state)
            result.decisions = n
            continue
        if "result" in rec or "state_hash" in rec:
            diag = None if error is None else error.first
            logged = rec.get("error") if isinstance(rec.get("error"), dict) else {}
            if diag is None and logged.get("code") == LIMIT_CODE and state is not None and not state.is_terminal():
                diag = Diagnostic(LIMIT_CODE, str(logged.get("message")))   # the player stopped at its limit
            got = result_record(state, diag)
            if rec != got:
                raise _Bad(lineno, rec, got)
            result.lines = lineno
            if lineno != records[-1][0]:
                nxt = records[records.index((lineno, rec)) + 1]
                raise _Bad(nxt[0], nxt[1], "the end of the log")
            return result
        raise _Bad(lineno, rec, "a decision, an event or a result line")
    last = records[-1][0] + 1
    raise _Bad(last, "the end of the log", produced[0] if produced else _waiting(state, error))


def _waiting(state, error) -> str:
    if error is not None:
        return f"the game stopped with {error.first.code} {error.first.message}"
    if state is None:
        return "no game"
    if state.is_terminal():
        return "the end of the game"
    return f"a decision for {_side_name(state.cg, state.current_player())}"
