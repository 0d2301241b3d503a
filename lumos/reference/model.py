"""A compiled game read for its rules reference: rules with their sources, cards, sections.

`GameDoc` gathers what the reference shows of one game — each declaration with its
source text, note and English, each card with its variants, the rulebook's sections —
from the same files the interpreter runs. Used by lumos.reference.writer (the pages) and
lumos.reference (the Sphinx extension). Everything here is generic.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, fields as dc_fields
from pathlib import Path
from typing import Iterable, Iterator

from lumos.compiler import nodes as N
from lumos.reference.english import English, Vocabulary, rst_escape


# ================================================================== the game, read for the reference
@dataclass
class RuleDoc:
    """One declaration of the rules files, as the reference shows it."""
    target: str              # the cross-reference name: `take_turn`, `setup`, `pieces of red`
    kind: str                # the declaration's word: procedure, function, action, var, ...
    decl: N.Decl
    signature: str           # what follows the kind word, e.g. `take_turn(s)`
    source: str              # the declaration as written
    note: str                # the comment lines just above it
    where: str               # file and line


@dataclass
class CardVariant:
    decks: list[tuple[str, int]]   # (deck, copies) holding exactly these fields
    fields: dict
    effect: tuple | None           # statements
    condition: N.Expr | None
    where: str
    expansion: bool = False        # from a card file added with --with / :with:
    effects: dict = field(default_factory=dict)   # `..._effect` field -> its statements


@dataclass
class CardDoc:
    name: str
    type: str
    variants: list[CardVariant] = field(default_factory=list)


class ReferenceError(Exception):
    """The game cannot be documented: it does not compile (the message holds the diagnostics).

    `status` is the exit status `lumos docs` gives for it: 1 for problems in the files, 2 for a
    command line that names nothing usable."""

    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.status = status


_KIND_WORD = {
    "Sides": "sides", "Option": "option", "Die": "die", "Kinds": "kinds", "Pieces": "pieces of",
    "NeutralPieces": "piece", "Var": "var", "Const": "const", "Zone": "zone", "Window": "window",
    "Procedure": "procedure", "Function": "function", "Action": "action", "Flow": "flow",
    "Setup": "setup", "Trigger": "when", "Team": "team", "Anytime": "anytime", "Phase": "phase",
    "Score": "score of", "Event": "event", "Statistic": "statistic", "DefaultAgents": "default agents",
}
HIDDEN_FIELDS = ("name", "type", "text", "effect", "condition", "copies")


class GameDoc:
    """A compiled game with the AST of its rules and cards, and what the reference derives
    from them: who offers each action, which rules use each name, where windows open."""

    def __init__(self, src, extra_cards: Iterable[Path] = ()):
        from lumos.compiler.astdata import rules_ast
        from lumos.compiler.game import check_game
        self.src = src
        self.extra_cards = [Path(p) for p in extra_cards]
        cg, diags, files = check_game(src, self.extra_cards or None)
        if cg is None:
            errors = [d.render(files.get(d.span.file, "").splitlines()) for d in diags if d.is_error]
            raise ReferenceError("\n".join(errors) or "the game does not compile")
        self.cg, self.files = cg, files
        self.decls: list[N.Decl] = []
        for path in src.rules_files():
            text = files[str(path)]
            self.decls += rules_ast(text, str(path)).decls     # the compiler's own ASTs: nothing parsed again
        self.vocab = Vocabulary(self.decls, cg.board)
        self.english = English(self.vocab)
        self.rules = [self._rule(d, i) for i, d in enumerate(self.decls) if not isinstance(d, N.Meta)]
        self.by_target = {r.target: r for r in self.rules}
        self.cards = self._cards()
        self.sections = load_sections(src.rules_dir)
        self.summary = load_summary(src.rules_dir)
        self.expansions: list[str] = [p.name for p in self.extra_cards]
        self._index_uses()

    # -- reading
    @property
    def id(self) -> str:
        return self.cg.id

    def where(self, span) -> str:
        return f"{short_path(span.file)}, line {span.line}"

    def _rule(self, d: N.Decl, index: int) -> RuleDoc:
        kind = _KIND_WORD[type(d).__name__]
        target, sig = _target(d)
        if isinstance(d, N.Trigger) and any(isinstance(o, N.Trigger) and o.event == d.event
                                            for o in self.decls[:index]):
            target = f"{target} ({d.span.line})"
        lines = self.files.get(d.span.file, "").splitlines()
        return RuleDoc(target, kind, d, sig, _decl_source(lines, d.span), _note_above(lines, d.span.line),
                       self.where(d.span))

    def _cards(self) -> list[CardDoc]:
        from lumos.compiler.astdata import text_ast
        from lumos.compiler.origin import Origin
        cards: dict[str, CardDoc] = {}
        for cd in sorted(self.cg.card_defs, key=lambda c: c.deck if c.deck >= 0 else len(self.cg.sides)):
            deck = self.cg.sides[cd.deck] if 0 <= cd.deck < len(self.cg.sides) else ""
            doc = cards.setdefault(cd.name, CardDoc(cd.name, cd.type))
            shown = {k: v for k, v in cd.fields.items() if k != "copies"}
            same = next((v for v in doc.variants if v.fields == shown), None)
            if same is not None:
                same.decks.append((deck, cd.copies))
                continue
            origin = Origin(cd.span.file, cd.span.line, cd.span.col)
            effect = condition = None
            if isinstance(cd.fields.get("effect"), str):
                effect = text_ast(cd.fields["effect"], "effect", origin)
            if isinstance(cd.fields.get("condition"), str):
                condition = text_ast(cd.fields["condition"], "condition", origin)
            named = {k: text_ast(v, "effect", origin)
                     for k, v in cd.fields.items() if k.endswith("_effect") and isinstance(v, str)}
            extra = any(Path(cd.span.file) == p for p in self.extra_cards)
            doc.variants.append(CardVariant([(deck, cd.copies)], shown, effect, condition, self.where(cd.span),
                                            extra, named))
        return list(cards.values())

    def _index_uses(self) -> None:
        """Which rule or card uses each name; who offers each action; which cards answer each window."""
        self.used_by: dict[str, list[tuple[str, str]]] = {}
        self.offers: dict[str, list[tuple[str, str, str]]] = {}   # action -> (kind, user, side text)
        users = [("rule", r.target, r.decl) for r in self.rules] + \
                [("card", c.name, stmt) for c in self.cards for v in c.variants
                 for stmt in (v.effect or ()) + ((v.condition,) if v.condition is not None else ()) +
                 tuple(s for body in v.effects.values() for s in body)]
        for kind, user, node in users:
            for n in walk(node):
                for name in _names_of(n):
                    if name in self.by_target and name != user:
                        entry = (kind, user)
                        if entry not in self.used_by.setdefault(name, []):
                            self.used_by[name].append(entry)
                if isinstance(n, N.DoAction):
                    en = self.english.with_me() if kind == "card" or isinstance(node, N.Action) else self.english
                    who = en.subject(n.side)[0]
                    if kind == "card" and who == "you":
                        who = "the side playing it"
                    for name, _span in n.actions:
                        self.offers.setdefault(name, []).append((kind, user, who))
        self.answers: dict[str, list[str]] = {}
        for c in self.cards:
            for v in c.variants:
                w = v.fields.get("window")
                if isinstance(w, str) and w in self.vocab.windows and c.name not in self.answers.get(w, []):
                    self.answers.setdefault(w, []).append(c.name)

    def rules_of(self, *classes) -> list[RuleDoc]:
        return [r for r in self.rules if isinstance(r.decl, classes)]

    def reached_from(self, start: list[RuleDoc], skip: set[str]) -> list[RuleDoc]:
        """Procedures reached from `start` by calls (and through the actions they offer), in call order."""
        order: list[RuleDoc] = []
        seen = set(skip)

        def visit(rule: RuleDoc) -> None:
            for n in walk(rule.decl):
                called = []
                if isinstance(n, N.CallStmt):
                    called = [n.func]
                elif isinstance(n, N.Let) and isinstance(n.value, N.Call):
                    called = [n.value.func]
                elif isinstance(n, N.DoAction):
                    called = [a for a, _ in n.actions]
                for name in called:
                    r = self.by_target.get(name)
                    if r is None or name in seen:
                        continue
                    seen.add(name)
                    if isinstance(r.decl, N.Procedure):
                        order.append(r)
                    visit(r)
        for r in start:
            seen.add(r.target)
            visit(r)
        return order


def walk(node) -> Iterator[N.Node]:
    """The node and every node below it."""
    yield node
    for f in dc_fields(node):
        yield from _walk_value(getattr(node, f.name))


def _walk_value(value) -> Iterator[N.Node]:
    if isinstance(value, N.Node):
        yield from walk(value)
    elif isinstance(value, tuple):
        for v in value:
            yield from _walk_value(v)


def _names_of(n: N.Node) -> list[str]:
    """The game names a node mentions."""
    if isinstance(n, N.Name):
        return [n.name]
    if isinstance(n, (N.Call, N.CallStmt)):
        return [n.func]
    if isinstance(n, (N.Attr, N.My)):
        return [n.name]
    if isinstance(n, N.Roll):
        return [n.die]
    if isinstance(n, N.DoAction):
        return [a for a, _ in n.actions]
    return []


def _target(d: N.Decl) -> tuple[str, str]:
    """(cross-reference name, signature after the kind word) of a declaration."""
    if isinstance(d, N.Sides):
        return "sides", ", ".join(d.names)
    if isinstance(d, N.Kinds):
        return "kinds", ", ".join(d.names)
    if isinstance(d, N.Pieces):
        return f"pieces of {d.side}", d.side
    if isinstance(d, N.NeutralPieces):
        return f"piece {', '.join(d.names)}", ", ".join(d.names)
    if isinstance(d, (N.Setup, N.Flow, N.Team)):
        return type(d).__name__.lower(), ""
    if isinstance(d, N.Trigger):
        return f"when {d.event}", f"{d.event}({', '.join(d.params)})"
    if isinstance(d, N.Anytime):
        return f"anytime {d.name}", ""
    if isinstance(d, N.Score):
        return f"score of {d.side}", d.side
    if isinstance(d, N.DefaultAgents):
        return "default agents", ", ".join(d.specs)
    if isinstance(d, (N.Procedure, N.Function)):
        return d.name, f"{d.name}({', '.join(d.params)})"
    return d.name, d.name


def _decl_source(lines: list[str], span) -> str:
    """The declaration's lines as written, without the comments that follow it."""
    end = span.end_line if span.end_line and span.end_line >= span.line else span.line
    if end > span.line and span.end_col == 1:
        end -= 1
    chunk = lines[span.line - 1:end]
    while chunk and (not chunk[-1].strip() or chunk[-1].lstrip().startswith("#")):
        chunk.pop()
    return "\n".join(chunk)


def _note_above(lines: list[str], line: int) -> str:
    """The comment lines right above a declaration (its designer's note), as one text."""
    note: list[str] = []
    i = line - 2
    while i >= 0 and lines[i].lstrip().startswith("#"):
        text = lines[i].strip().lstrip("#").strip()
        if re.fullmatch(r"[-=~ ]*[a-z ]*[-=~]{3,}.*", text) or re.fullmatch(r"[-=~]+.*", text):
            break   # a separator line between groups of rules
        note.insert(0, text)
        i -= 1
    return " ".join(t for t in note if t)


def note_rst(note: str) -> str:
    """A designer's comment as reST: `code` in backquotes stays code, the rest is plain text."""
    parts = re.split(r"`([^`]+)`", note)
    return "".join(f"``{p}``" if i % 2 else rst_escape(p) for i, p in enumerate(parts))


def short_path(path: str) -> str:
    return "/".join(Path(path).parts[-3:])


# ================================================================== the rulebook's sections
def toc_sections(rulebook_text: str) -> list[str]:
    """The sections of a rulebook's "Table of Contents" bullet list, as `A > B > C` paths.

    >>> toc_sections("Table of Contents\\n\\n• Play\\n  • Turns\\n    • Dice\\n• End\\n\\nPlay\\n")
    ['Play', 'Play > Turns', 'Play > Turns > Dice', 'End']
    """
    sections: list[str] = []
    stack: list[str] = []
    started = False
    for line in rulebook_text.splitlines():
        m = re.match(r"^( *)[•*-] (.+)$", line)
        if m:
            started = True
            depth = len(m.group(1)) // 2
            stack = stack[:depth] + [m.group(2).strip()]
            sections.append(" > ".join(stack))
        elif started and line.strip():
            break
    return sections


def _sections_file(rules_dir: Path) -> dict | None:
    import yaml

    from lumos.compiler.named_files import read_bytes, refusal
    path = Path(rules_dir) / "sections.yaml"
    if refusal(path, [rules_dir]) is not None:   # missing, a link out of the folder, a FIFO...
        return None
    data = yaml.safe_load(read_bytes(path, 2_000_000, [rules_dir]).decode("utf-8")) or {}
    return data if isinstance(data, dict) else {}


def load_sections(rules_dir: Path) -> list[str] | None:
    """The section list of a game (rules/<game>/sections.yaml), or None when it has none."""
    data = _sections_file(rules_dir)
    return None if data is None else [str(s) for s in data.get("sections") or []]


def load_summary(rules_dir: Path) -> str:
    """The short summary that opens a game's reference page (`summary:` in sections.yaml), or ""."""
    data = _sections_file(rules_dir) or {}
    text = data.get("summary")
    return str(text).strip() if isinstance(text, str) else ""


def match_section(citation: str, sections: list[str]) -> str | None:
    """The section a citation names: the same path, or the only section whose path ends with it."""
    if citation in sections:
        return citation
    ends = [s for s in sections if s.endswith(" > " + citation)]
    return ends[0] if len(ends) == 1 else None


# ================================================================== loading games (cached)
_CACHE: dict[tuple, GameDoc] = {}


def game_doc(ref: str, base: Path, with_paths: Iterable[str] = ()) -> GameDoc:
    """The GameDoc of a bundled game id or a game folder (relative to `base`), with extra card files."""
    from lumos.api import bundled_games, game_sources
    if ref in bundled_games():
        src = game_sources(ref)
    else:
        path = (base / ref).resolve()
        if not (path / "game.lumos").is_file():
            raise ReferenceError(f"`{ref}` is neither a bundled game ({', '.join(bundled_games())}) nor a "
                                 "folder holding game.lumos")
        src = game_sources(path)
    from lumos.toolkit.expansions import with_rules
    try:
        src = with_rules(src, [(base / p).resolve() for p in with_paths])
    except ValueError as exc:
        raise ReferenceError(str(exc)) from None
    extra, names = card_files([(base / p).resolve() for p in with_paths])
    own = {p.resolve() for p in src.card_files()}
    extra = [p for p in extra if p.resolve() not in own]
    key = (str(src.rules_dir), tuple(map(str, extra)), src.content_hash(),
           tuple((str(p), _mtime(p)) for p in extra), _mtime(src.rules_dir / "sections.yaml"))
    if key not in _CACHE:
        if len(_CACHE) > 8:
            _CACHE.clear()
        _CACHE[key] = GameDoc(src, extra)
        _CACHE[key].expansions = names
    return _CACHE[key]


def card_files(paths: Iterable[Path]) -> tuple[list[Path], list[str]]:
    """(card YAML files, names of the expansions) of `--with` paths: an expansion folder or
    manifest (expansion.yaml) gives its card files; a folder its *.yaml files; a file itself."""
    from lumos.toolkit.expansions import load_expansion, manifest_path
    out: list[Path] = []
    names: list[str] = []
    for p in map(Path, paths):
        manifest = manifest_path(p)
        if manifest is not None:
            exp, problems, texts = load_expansion(manifest)
            errors = [d.render(texts.get(d.span.file, "").splitlines()) for d in problems if d.is_error]
            if exp is None or errors:
                raise ReferenceError("\n".join(errors) or f"`{p}` is not a usable expansion")
            out += [f for f in exp.card_files if f not in out]
            names.append(exp.name)
        elif p.is_dir():
            out += sorted(q for q in p.glob("*.yaml") if q.is_file() and q not in out)
            names.append(p.name)
        elif p.is_file():
            out.append(p)
            names.append(p.name)
        else:
            raise ReferenceError(f"no expansion or card file `{p}`")
    return out, names


def _mtime(path: Path) -> int:
    return path.stat().st_mtime_ns if path.is_file() else 0


