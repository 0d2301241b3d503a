"""A team file (YAML) + a compiled game with a `team` declaration -> TeamFile, or diagnostics.

A designer or a player writes a team as data: the values of the game's team fields and,
under each group's key, the names of the cards in it. What a team must be (its size,
its budget, which cards a faction may hold) is not known here: the game says it with
`require` lines in its `team` declaration (see lower_team.py), and this module only
runs them on the file's values and reports each failure at the line of the file it
concerns. The checks run in order, and each needs the previous ones to pass:

1. YAML (Y00x), then a JSON Schema made from the declaration (S100-S105): keys, kinds
   of values, choices, `copies`;
2. card names: each must be a card of the game (T101), fit the group's `where`
   condition (T102), and have enough copies in the game (T103);
3. the game's `require` rules (T110), with the rule's own message.

T100: not a team file of this game. The engine puts a checked team's cards into the
side's zones before setup (`GameState.new(..., teams={side: team.plain()})`).

>>> TEAM_KEY, GAME_KEY
('team', 'game')
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from jsonschema import Draft202012Validator

from lumos.compiler.cards import ErrorReport
from lumos.compiler.named_files import RefusedFile, read_bytes, read_head
from lumos.compiler.yamlload import MAX_BYTES, load_yaml
from lumos.diagnostics import Diagnostic, LumosSyntaxError, Span, did_you_mean

TEAM_KEY = "team"    # a YAML file whose top level has `team:` is a team file (card files have `cards:`)
GAME_KEY = "game"    # optional: the id of the game the team is for
_JSON = {"number": "integer", "flag": "boolean", "text": "string"}
_TEAM_LINE = re.compile(r"^team[ \t]*:", re.M)
_GAME_LINE = re.compile(r"^game[ \t]*:[ \t]*['\"]?([A-Za-z0-9_./-]+)['\"]?[ \t]*(#.*)?$", re.M)


def looks_like_team_file(path: Path) -> bool:
    """A YAML file with a top-level `team:` key (a cheap look at the text, no parsing)."""
    try:
        return bool(_TEAM_LINE.search(read_head(Path(path), MAX_BYTES).decode("utf-8", "replace")))
    except OSError:   # missing, or a FIFO, a device or a folder (refused unopened)
        return False


def team_game(path: Path) -> str | None:
    """The `game:` a team file names (a cheap look at the text), or None."""
    if not looks_like_team_file(path):
        return None
    found = _GAME_LINE.search(read_head(Path(path), MAX_BYTES).decode("utf-8", "replace"))
    return found.group(1) if found else None


@dataclass
class TeamFile:
    """A checked team: its field values and, per group, the cards chosen (distinct copies)."""
    path: str
    name: str
    fields: dict = field(default_factory=dict)       # field -> value (defaults filled in)
    groups: dict = field(default_factory=dict)       # group -> [card ids]
    zones: dict = field(default_factory=dict)        # group -> zone name
    card_spans: dict = field(default_factory=dict)   # card id -> Span of its item in the file
    key_spans: dict = field(default_factory=dict)    # top-level key -> Span of the key

    def plain(self) -> dict:
        """What `GameState.new(teams=...)` takes and a game log records: plain JSON data."""
        cards: dict[str, list[int]] = {}
        for group, ids in self.groups.items():
            cards.setdefault(self.zones[group], []).extend(ids)
        return {"file": self.path, "name": self.name, "fields": dict(self.fields), "cards": cards}


def team_schema(cg, names: bool = True) -> dict:
    """A JSON Schema of the game's team files, made from its `team` declaration.

    With `names`, each group lists the names of the cards that fit it (for editors);
    the checker leaves them out and reports an unknown name itself, with a suggestion."""
    team = cg.team
    props: dict = {
        GAME_KEY: {"title": "Game", "description": "the game this team is for: its id, or the path of its folder",
                   "type": "string", "examples": [cg.id]},
        TEAM_KEY: {"title": "Team name", "description": "the team's name; this key makes the file a team file",
                   "type": "string", "minLength": 1, "examples": ["My team"]},
    }
    required = [TEAM_KEY]
    for f in team.fields:
        sub: dict = {"title": f.name, "type": _JSON.get(f.type, ["integer", "boolean", "string"])}
        if f.choices:
            sub["enum"] = list(f.choices)
        if f.default is not None:
            sub["default"] = f.default
        example = f.default if f.default is not None else (f.choices[0] if f.choices else None)
        if example is not None:
            sub["examples"] = [example]
        props[f.name] = sub
        if f.required:
            required.append(f.name)
    fitting = _fitting_names(cg) if names else {}
    for g in team.groups:
        name = {"type": "string", "minLength": 1}
        several = {"required": ["card"], "additionalProperties": False,
                   "properties": {"card": name, "copies": {"type": "integer", "minimum": 1}}}
        if names:   # for editors: complete the names of the cards that fit
            name["enum"] = fitting.get(g.name, [])
            item = {"anyOf": [name, {"type": "object", **several}]}
        else:       # one schema for both shapes, so an error is about the item's own shape
            item = {"type": ["string", "object"], "minLength": 1, **several}
        props[g.name] = {
            "title": g.name, "description": f"the cards of the group `{g.name}`: a name, or "
                                            "`{card: NAME, copies: N}` for several copies",
            "type": "array", "items": item}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"https://lumos-games.example/schema/{cg.id}.team.schema.json",
            "title": f"A team of {cg.title}", "type": "object", "required": required,
            "additionalProperties": False, "properties": props}


def _machine(cg, options=None):
    from lumos.interpreter.engine import initial_state
    from lumos.interpreter.machine import Machine
    return Machine(cg, initial_state(cg, 0, options), None)


def _fits(m, group, card: int, frame: list) -> bool:
    if group.cond is None:
        return True
    frame[group.it_slot] = card
    return bool(group.cond(m, frame))


def _fitting_names(cg) -> dict[str, list[str]]:
    m, frame = _machine(cg), [None] * cg.team.nslots
    out: dict[str, list[str]] = {}
    for g in cg.team.groups:
        out[g.name] = sorted({c.name for i, c in enumerate(cg.cards) if _fits(m, g, i, frame)})
    return out


class _TeamReport(ErrorReport):
    """Schema errors of a team file, in the words of card files ("the team: field `colour` ...")."""

    def subject(self, path: tuple) -> tuple[str, str]:
        what = ""
        if path:
            what = f"`{path[0]}`" + "".join(f" item {p + 1}" if isinstance(p, int) else f" `{p}`"
                                            for p in path[1:])
        return "the team", what

    def say(self, path: tuple, predicate: str) -> str:
        _, what = self.subject(path)
        return f"the team's {what} {predicate}" if what else f"the team {predicate}"

    def missing_hint(self, owner: dict, key: str) -> str:
        sub = owner.get("properties", {}).get(key, {})
        examples = sub.get("examples") or []
        if examples:
            value = examples[0] if not isinstance(examples[0], bool) else str(examples[0]).lower()
            return f"add `{key}: {value}`"
        return f"add a `{key}:` line"


def check_team_file(cg, path: Path, taken: set | None = None, options: dict | None = None
                    ) -> tuple[TeamFile | None, list[Diagnostic]]:
    """Load and check one team file against a compiled game: the team, or None and every problem.

    `taken`: card ids already in another side's team (their copies are not free)."""
    file = str(path)
    try:
        raw = read_bytes(Path(path), MAX_BYTES)
    except RefusedFile as exc:
        return None, [Diagnostic("Y003" if exc.message.startswith("is too big") else exc.code, f"the team file {exc.message}",
                                 Span(file, 1, 1), exc.hint)]
    except OSError as exc:
        return None, [Diagnostic("E100", f"cannot read the team file: {exc.strerror or exc}",
                                 Span(file, 1, 1), "check the path")]
    try:
        data = load_yaml(raw, file)
    except LumosSyntaxError as exc:
        return None, list(exc.diagnostics)
    top = Span(file, *getattr(data, "start", (1, 1)))
    if not isinstance(data, dict) or not data:
        return None, [Diagnostic("T100", "the team file must be a mapping of `key: value` lines", top,
                                 f"start it with `{TEAM_KEY}: NAME`, then the team's fields and groups")]
    if TEAM_KEY not in data and "cards" in data:
        return None, [Diagnostic("T100", "this is a card file, not a team file", top,
                                 f"a team file starts with `{TEAM_KEY}: NAME`; card files are checked with "
                                 "`lumos check --game GAME FILE`")]
    if cg.team is None:
        return None, [Diagnostic("T100", f"{cg.id} has no team files: its rules declare no `team`", top,
                                 "a game says what a team file holds with a `team:` block in its rules")]
    if isinstance(data.get(GAME_KEY), str) and cg.id not in (data[GAME_KEY], Path(data[GAME_KEY]).name):
        return None, [Diagnostic("T100", f"the team is for `{data[GAME_KEY]}`, not for {cg.id}",
                                 Span(file, *data.mark(GAME_KEY)), f"write `{GAME_KEY}: {cg.id}`, or check it "
                                 f"with `lumos check --game {data[GAME_KEY]}`")]
    report = _TeamReport(data, file, Path(file).parent)
    validator = Draft202012Validator(team_schema(cg, names=False))
    diags = [d for _, d in report.report(validator.iter_errors(data))]
    bad = {d.span for d in diags}
    team = TeamFile(file, str(data.get(TEAM_KEY, "")))
    team.key_spans = {str(k): Span(file, *data.key_mark(k), data.key_mark(k)[0],
                                   data.key_mark(k)[1] + len(str(k))) for k in data}
    for f in cg.team.fields:
        value = data.get(f.name, f.default)
        team.fields[f.name] = value if not isinstance(value, str) else str(value)
    m = _machine(cg, options)
    frame = [None] * cg.team.nslots
    taken = set() if taken is None else taken
    mine: set[int] = set()
    for g in cg.team.groups:
        team.zones[g.name] = cg.zones[g.zone][0]
        items = data.get(g.name)
        team.groups[g.name] = []
        if isinstance(items, list):
            for i, item in enumerate(items):
                diags += _add_item(cg, m, frame, g, team, items, i, item, taken, mine, bad)
    diags.sort(key=Diagnostic.sort_key)
    if diags:
        return None, diags
    diags = _run_rules(cg, m, team)
    return (None if diags else team), diags


def _add_item(cg, m, frame, g, team, items, i, item, taken, mine, bad) -> list[Diagnostic]:
    """One item of a group: its card name resolved to free copies that fit the group."""
    if isinstance(item, dict):
        name, copies, span = item.get("card"), item.get("copies", 1), Span(team.path, *item.mark("card"))
    else:
        name, copies, span = item, 1, Span(team.path, *items.mark(i))
    if not isinstance(name, str) or not isinstance(copies, int) or span in bad or \
            Span(team.path, *items.mark(i)) in bad:
        return []    # the schema has said what is wrong with it
    name = str(name)
    span = Span(span.file, span.line, span.col, span.line, span.col + len(name))
    copies_of = [c for c, info in enumerate(cg.cards) if info.name == name]
    if not copies_of:
        names = sorted({c.name for c in cg.cards})
        close = [n for n in names if n.casefold() == name.casefold()]
        hint = f"did you mean `{close[0]}`?" if close else did_you_mean(name, names)
        return [Diagnostic("T101", f"{cg.id} has no card `{name}`", span,
                           hint or f"`lumos explain` lists the cards of {cg.id}")]
    fit = [c for c in copies_of if _fits(m, g, c, frame)]
    if not fit:
        info = cg.cards[copies_of[0]]
        return [Diagnostic("T102", f"`{name}` ({info.type}) cannot be one of `{g.name}`", span,
                           f"the cards of `{g.name}` are those where {_quote(cg, g.cond_span)}")]
    free = [c for c in fit if c not in taken and c not in mine]
    if len(free) < copies:
        why = [f"the game has {len(fit)}"]
        if any(c in taken for c in fit):
            why.append(f"another team holds {sum(c in taken for c in fit)}")
        if any(c in mine for c in fit):
            why.append(f"this team already holds {sum(c in mine for c in fit)}")
        return [Diagnostic("T103", f"not enough copies of `{name}` for {copies} more: {', '.join(why)}", span,
                           "ask for fewer, or give the card more `copies:` in its card file")]
    for c in free[:copies]:
        team.groups[g.name].append(c)
        team.card_spans[c] = span
        mine.add(c)
    return []


def _quote(cg, span) -> str:
    if span is None:
        return "true"
    lines = cg.files.get(span.file, "").splitlines()
    if span.line == span.end_line and 1 <= span.line <= len(lines):
        return "`" + lines[span.line - 1][span.col - 1:span.end_col - 1] + "`"
    return f"the condition on line {span.line} of {Path(span.file).name}"


def _run_rules(cg, m, team: TeamFile) -> list[Diagnostic]:
    """The game's `require` lines on the team: T110 for each that does not hold, at the place it concerns."""
    from lumos.diagnostics import LumosRuntimeError
    info = cg.team
    frame = [None] * info.nslots
    for f in info.fields:
        frame[f.slot] = team.fields.get(f.name)
    for g in info.groups:
        frame[g.slot] = tuple(team.groups.get(g.name, ()))
    top = team.key_spans.get(TEAM_KEY, Span(team.path, 1, 1))
    out: list[Diagnostic] = []
    for rule in info.rules:
        at = team.key_spans.get(rule.at, top) if rule.at else top
        hint = f"a rule of {cg.id}: {Path(rule.span.file).name} line {rule.span.line}"
        try:
            if rule.var_slot < 0:
                if not rule.cond(m, frame):
                    out.append(Diagnostic("T110", rule.message(m, frame), at, hint))
                continue
            for x in rule.domain(m, frame) or ():
                frame[rule.var_slot] = x
                if not rule.cond(m, frame):
                    out.append(Diagnostic("T110", rule.message(m, frame), team.card_spans.get(x, at), hint))
        except LumosRuntimeError as exc:
            out.extend(exc.diagnostics)
        except (TypeError, ValueError, ZeroDivisionError, IndexError, KeyError, RecursionError) as exc:
            out.append(Diagnostic("R005", f"the team rule could not be checked: {exc}", rule.span,
                                  "a value the rule reads is none or of another kind than it expects"))
    return sorted(out, key=Diagnostic.sort_key)


def check_teams(cg, paths: dict[str, Path], options: dict | None = None
                ) -> tuple[dict[str, dict] | None, list[Diagnostic]]:
    """One team file per side name -> `GameState.new(teams=...)` data, or None and the problems.

    Sides are filled in the game's order; a copy one team holds is not free for the next."""
    taken: set[int] = set()
    teams, diags = {}, []
    first: dict[str, tuple[str, TeamFile]] = {}   # shared field -> (side, team) that set it first
    for side in [s for s in cg.sides if s in paths]:
        team, problems = check_team_file(cg, paths[side], taken, options)
        diags += problems
        if team is not None:
            teams[side] = team.plain()
            taken |= {c for ids in team.groups.values() for c in ids}
            diags += _shared_fields(cg, side, team, first)
    return (None if diags else teams), diags


def _shared_fields(cg, side: str, team: TeamFile, first: dict) -> list[Diagnostic]:
    """T111: a `shared` field (`field funding: number = 5 shared`) differs from an earlier team's."""
    out = []
    for f in cg.team.fields if cg.team else ():
        if not f.shared:
            continue
        if f.name not in first:
            first[f.name] = (side, team)
            continue
        other_side, other = first[f.name]
        if team.fields.get(f.name) != other.fields.get(f.name):
            at = team.key_spans.get(f.name, team.key_spans.get(TEAM_KEY, Span(team.path, 1, 1)))
            out.append(Diagnostic(
                "T111", f"`{f.name}` is {_show_value(team.fields.get(f.name))} here but "
                f"{_show_value(other.fields.get(f.name))} in {other_side}'s team ({Path(other.path).name}): "
                "every team must give the same value",
                at, f"the game declares `field {f.name} ... shared` ({Path(f.span.file).name} line {f.span.line}); "
                f"write `{f.name}: {_show_value(other.fields.get(f.name))}`"))
    return out


def _show_value(v) -> str:
    return "true" if v is True else "false" if v is False else str(v)
