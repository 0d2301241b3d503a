"""Compiled game + its rules files -> the rules reference: the `lumos` Sphinx domain and `lumos docs`.

The reference is generated from the files the interpreter runs, so it cannot drift
from the game. In a Sphinx project, add ``"lumos.reference"`` to ``extensions``; then

    .. lumos:game:: GAME                 the whole reference of a game (a bundled id or a
       :with: path/to/expansion          game folder), optionally with extra cards
    .. lumos:coverage:: GAME             each rulebook section with the rules citing it
    .. lumos:board:: GAME                the board, drawn from the compiled graph

(GAME and the `:with:` paths are relative to the page's folder) and the roles
``:lumos:card:``, ``:lumos:rule:``, ``:lumos:action:`` (checked: an unknown
target is a warning, so ``sphinx-build -W`` fails on it), ``:lumos:game:``,
``:lumos:coverage:`` and ``:lumos:section:``. The extension also registers the ``lumos``
Pygments lexer. ``build_docs`` (``lumos docs``) makes a whole HTML reference of every
bundled game without any Sphinx project of the designer's.

Everything here is generic: a game's words come from its files only.
"""
from __future__ import annotations

import io
import posixpath
import re
import sys
import tempfile
from dataclasses import dataclass, field, fields as dc_fields
from html import escape
from pathlib import Path
from typing import Any, Iterable, Iterator

from docutils import nodes
from docutils.parsers.rst import directives
from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text
from sphinx.addnodes import desc_annotation, desc_name, desc_parameter, desc_parameterlist, desc_signature
from sphinx.directives import ObjectDescription
from sphinx.domains import Domain, ObjType
from sphinx.roles import XRefRole
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

from lumos.compiler import nodes as N
from lumos.english import English, Vocabulary, rst, rst_escape, to_rst

__all__ = ["GameDoc", "build_docs", "load_sections", "toc_sections", "setup", "LumosLexer"]


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
    "Setup": "setup", "Trigger": "when", "Team": "team",
}
_HIDDEN_FIELDS = ("name", "type", "text", "effect", "condition", "copies")


class GameDoc:
    """A compiled game with the AST of its rules and cards, and what the reference derives
    from them: who offers each action, which rules use each name, where windows open."""

    def __init__(self, src, extra_cards: Iterable[Path] = ()):
        from lumos.compiler.build_ast import Origin, build
        from lumos.compiler.game import check_game
        from lumos.compiler.parse import parse
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
            self.decls += build(parse(text, str(path)), Origin(str(path))).decls
        self.vocab = Vocabulary(self.decls, cg.board)
        self.english = English(self.vocab)
        self.rules = [self._rule(d, i) for i, d in enumerate(self.decls) if not isinstance(d, N.Meta)]
        self.by_target = {r.target: r for r in self.rules}
        self.cards = self._cards(parse, build, Origin)
        self.sections = load_sections(src.rules_dir)
        self.expansions: list[str] = [p.name for p in self.extra_cards]
        self._index_uses()

    # -- reading
    @property
    def id(self) -> str:
        return self.cg.id

    def where(self, span) -> str:
        return f"{_short_path(span.file)}, line {span.line}"

    def _rule(self, d: N.Decl, index: int) -> RuleDoc:
        kind = _KIND_WORD[type(d).__name__]
        target, sig = _target(d)
        if isinstance(d, N.Trigger) and any(isinstance(o, N.Trigger) and o.event == d.event
                                            for o in self.decls[:index]):
            target = f"{target} ({d.span.line})"
        lines = self.files.get(d.span.file, "").splitlines()
        return RuleDoc(target, kind, d, sig, _decl_source(lines, d.span), _note_above(lines, d.span.line),
                       self.where(d.span))

    def _cards(self, parse, build, Origin) -> list[CardDoc]:
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
                effect = build(parse(cd.fields["effect"], cd.span.file, "effect", origin), origin)
            if isinstance(cd.fields.get("condition"), str):
                condition = build(parse(cd.fields["condition"], cd.span.file, "condition", origin), origin)
            named = {k: build(parse(v, cd.span.file, "effect", origin), origin)
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


def _note_rst(note: str) -> str:
    """A designer's comment as reST: `code` in backquotes stays code, the rest is plain text."""
    parts = re.split(r"`([^`]+)`", note)
    return "".join(f"``{p}``" if i % 2 else rst_escape(p) for i, p in enumerate(parts))


def _short_path(path: str) -> str:
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


def load_sections(rules_dir: Path) -> list[str] | None:
    """The section list of a game (rules/<game>/sections.yaml), or None when it has none."""
    import yaml
    path = Path(rules_dir) / "sections.yaml"
    if not path.is_file():
        return None
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return [str(s) for s in data.get("sections") or []]


def match_section(citation: str, sections: list[str]) -> str | None:
    """The section a citation names: the same path, or the only section whose path ends with it."""
    if citation in sections:
        return citation
    ends = [s for s in sections if s.endswith(" > " + citation)]
    return ends[0] if len(ends) == 1 else None


# ================================================================== reStructuredText of a game
def _title(text: str, char: str) -> list[str]:
    text = rst_escape(text)
    return [text, char * max(len(text), 3), ""]


def _indent(lines: list[str], n: int = 3) -> list[str]:
    return [(" " * n + l) if l.strip() else "" for l in lines]


def _code(text: str, indent: int = 0) -> list[str]:
    pad = " " * indent
    return [f"{pad}.. code-block:: lumos", ""] + [f"{pad}   {l}" if l.strip() else "" for l in text.splitlines()] + [""]


def _words(items: list[str]) -> str:
    return ", ".join(items)


class _Writer:
    """The lines of one game's reference page."""

    def __init__(self, doc: GameDoc, ref: str, with_paths: list[str]):
        self.doc, self.ref, self.with_paths = doc, ref, with_paths
        self.en = doc.english
        self.lines: list[str] = []

    def add(self, *lines: str) -> None:
        self.lines += list(lines)

    # -- pieces of text
    def sources(self, rule: RuleDoc) -> str:
        out = []
        for s in rule.decl.sources:
            section = match_section(s, self.doc.sections or []) if self.doc.sections else None
            out.append(f":lumos:section:`{rst_escape(s)} <{section}>`" if section else f"“{rst_escape(s)}”")
        return "; ".join(out)

    def link(self, kind: str, user: str) -> str:
        if kind == "card":
            return f":lumos:card:`{user}`"
        role = "action" if isinstance(self.doc.by_target[user].decl, N.Action) else "rule"
        return f":lumos:{role}:`{user}`"

    def involves(self, rule: RuleDoc) -> str:
        rolls, decisions, ends, cards = [], set(), [], False
        for n in walk(rule.decl):
            if isinstance(n, N.Roll) and n.die not in rolls:
                rolls.append(n.die)
            elif isinstance(n, (N.Choose, N.Menu)):
                decisions.add("a choice")
            elif isinstance(n, N.DoAction):
                decisions.add("an action")
            elif isinstance(n, N.Win):
                ends.append("a win")
            elif isinstance(n, N.Tie):
                ends.append("a draw")
            elif isinstance(n, N.PlayCard):
                cards = True
        parts = [f"a roll of :lumos:rule:`{d}`" for d in rolls]
        if decisions:
            parts.append("a decision (" + " and ".join(sorted(decisions)) + ")")
        if cards:
            parts.append("playing a card")
        if ends:
            parts.append("may end the game (" + " or ".join(dict.fromkeys(ends)) + ")")
        return "; ".join(parts)

    # -- one rule
    def rule(self, rule: RuleDoc, extra: list[str] = (), after: list[str] = ()) -> None:
        """A rule object: note, fields (+ `extra` fields), English, `after`, source."""
        d = rule.decl
        directive = "action" if isinstance(d, N.Action) else "rule"
        name, _, rest = rule.signature.partition("(")
        self.add(f".. lumos:{directive}:: {rule.target}")
        if rule.kind != rule.target:
            self.add(f"   :kind: {rule.kind}")
        if rule.signature:
            self.add(f"   :display: {name}")
        if rest:
            self.add(f"   :params: {rest.rstrip(')')}")
        self.add("")
        body: list[str] = []
        if rule.note:
            body += [_note_rst(rule.note), ""]
        body += self.fields(rule, list(extra))
        step = self.en.decl(d)
        if isinstance(d, N.Function) or not step.body:
            body += [rst(step.text), ""]
        else:
            body += [rst(step.text), ""] + to_rst(step.body)
        body += list(after)
        body += _code(rule.source)
        self.add(*_indent(body))

    def fields(self, rule: RuleDoc, extra: list[str]) -> list[str]:
        out = []
        if rule.decl.sources:
            out.append(f":Rulebook: {self.sources(rule)}")
        out += extra
        users = [] if isinstance(rule.decl, N.Action) else self.doc.used_by.get(rule.target, [])
        rules = [self.link(k, u) for k, u in users if k == "rule"]
        cards = [self.link(k, u) for k, u in users if k == "card"]
        if rules:
            out.append(f":Used by: {_words(rules)}")
        if cards:
            out.append(f":Used by cards: {_words(cards)}")
        involves = self.involves(rule)
        if involves and isinstance(rule.decl, (N.Procedure, N.Action, N.Trigger, N.Setup, N.Flow)):
            out.append(f":Involves: {involves}")
        out.append(f":Defined in: ``{rule.where}``")
        return out + [""]

    # -- the page
    def page(self) -> list[str]:
        cg = self.doc.cg
        self.add(*_title(cg.title, "="))
        self.intro()
        self.components()
        self.board()
        self.sequence()
        self.actions()
        self.windows()
        self.triggers()
        self.others()
        self.cards()
        return self.lines

    def intro(self) -> None:
        doc, cg = self.doc, self.doc.cg
        files = ", ".join(f"``{_short_path(str(p))}``" for p in doc.src.rules_files())
        ncards = sum(cd.copies for cd in cg.card_defs)
        self.add(f"The rules reference of *{rst_escape(cg.title)}* (game ``{cg.id}``), generated from the "
                 f"files the interpreter runs: the rules {files}, the board and "
                 f"{len(cg.card_defs)} card definitions ({ncards} cards). It cannot drift from the game: "
                 "change a rule and the reference changes with it.", "")
        if doc.extra_cards:
            names = ", ".join(f"*{rst_escape(n)}*" for n in doc.expansions)
            files = ", ".join(f"``{_short_path(str(p))}``" for p in doc.extra_cards)
            self.add(f"It includes the expansion {names} (cards from {files}).", "")
        if cg.rulebook:
            self.add(f"Each rule cites the section of the rulebook ``{rst_escape(cg.rulebook)}`` it encodes; "
                     f"the :lumos:coverage:`coverage page <{cg.id}>` lists every section with the rules that "
                     "cite it.", "")
        self.add(".. rubric:: How to read the English", "",
                 "- Names in ``code`` are the game's own names (variables, functions, procedures, actions, "
                 "spaces, sides, kinds); the linked ones lead to their definition below.",
                 "- Names in *italics* are given inside the rule: its parameters, and what ``let``, "
                 "``choose``, ``draw``, ``roll`` and ``for each`` name.",
                 "- *You* is the side taking the action or playing the card.",
                 "- Choosing from nothing chooses nothing (the name is then nothing); a choice with a single "
                 "option is taken without asking. The same holds for actions and menus. Drawing from an "
                 "empty zone draws nothing.",
                 "- A rule that *stops here* ends at once; *giving* is the value it hands back.",
                 "- Numbers are whole numbers: *divided by* rounds down.", "")
        pieces = len(cg.pieces)
        self.add(".. rubric:: At a glance", "",
                 f"- Sides, in turn order: {', '.join(f'``{s}``' for s in cg.sides)}",
                 f"- Pieces: {pieces}; kinds: {', '.join(f'``{k}``' for k in cg.kinds) or 'none'}",
                 f"- Board: {len(cg.board.spaces)} spaces; link kinds "
                 f"{', '.join(f'``{k}``' for k in cg.board.links) or 'none'}",
                 f"- Zones per side: {', '.join(f'``{z}``' for i, (z, _) in enumerate(cg.zones) if i not in cg.shared_zones) or 'none'}",
                 *([f"- Shared zones: {', '.join(f'``{cg.zones[i][0]}``' for i in sorted(cg.shared_zones))}"]
                   if cg.shared_zones else []),
                 f"- Actions: {', '.join(f':lumos:action:`{r.target}`' for r in doc.rules_of(N.Action)) or 'none'}",
                 f"- Cards: {len(doc.cards)} different cards, {ncards} in all",
                 f"- Rules: {len(cg.rules)} declarations", "")

    def components(self) -> None:
        self.add(*_title("Components", "-"))
        self.add("What the game is played with, and how it stands before the set-up runs.", "")
        for rule in self.doc.rules_of(N.Sides, N.Option, N.Die, N.Kinds, N.Pieces, N.NeutralPieces,
                                      N.Const, N.Zone, N.Var, N.Team):
            after = self.pieces_table(rule.decl) if isinstance(rule.decl, N.Pieces) else []
            self.rule(rule, after=after)

    def pieces_table(self, d: N.Pieces) -> list[str]:
        cg = self.doc.cg
        side = cg.sides.index(d.side) if d.side in cg.sides else -1
        rows = [p for p in cg.pieces if p.side == side]
        out = [".. list-table::", "   :header-rows: 1", "", "   * - piece", "     - kind", "     - starts on"]
        for p in rows:
            start = f"``{cg.board.spaces[p.start]}``" if p.start >= 0 else "off the board"
            out += [f"   * - {rst_escape(p.name)}", f"     - ``{p.kind}``", f"     - {start}"]
        return out + [""]

    def board(self) -> None:
        cg = self.doc.cg
        board = cg.board
        self.add(*_title("The board", "-"))
        self.add(f"*{rst_escape(board.name)}*: {len(board.spaces)} spaces, drawn from the compiled board "
                 "graph (the picture is made at each build, never by hand).", "")
        self.add(f".. lumos:board:: {self.ref}", "")
        if board.links or getattr(board, "unions", None):
            self.add(".. list-table:: Link kinds (how pieces move from space to space)", "   :header-rows: 1", "",
                     "   * - link kind", "     - links", "     - made of")
            for kind, nbrs in board.links.items():
                count = sum(len(n) for n in nbrs) // 2
                union = ", ".join(f"``{u}``" for u in board.unions.get(kind, ())) if board.unions else ""
                self.add(f"   * - ``{kind}``", f"     - {count}", f"     - {union or '—'}")
            self.add("")
        if board.regions:
            self.add(".. list-table:: Regions (named groups of spaces)", "   :header-rows: 1", "",
                     "   * - region", "     - spaces")
            for name, members in board.regions.items():
                spaces = ", ".join(board.spaces[i] for i in sorted(members))
                self.add(f"   * - ``{name}``", f"     - {rst_escape(spaces)}")
            self.add("")

    def sequence(self) -> None:
        doc = self.doc
        setup, flow = doc.rules_of(N.Setup), doc.rules_of(N.Flow)
        self.add(*_title("Set-up", "-"))
        self.add("What happens once, before the first turn, in order; then the procedures it uses.", "")
        for r in setup:
            self.rule(r)
        self.shown = {r.target for r in setup + flow}
        for r in doc.reached_from(setup, set()):
            self.rule(r)
            self.shown.add(r.target)
        self.add(*_title("Sequence of play", "-"))
        self.add("The flow of the game, in order, and the procedures it runs (including those the "
                 "actions below run).", "")
        for r in flow:
            self.rule(r)
        for r in doc.reached_from(flow, set(self.shown)):
            self.rule(r)
            self.shown.add(r.target)

    def actions(self) -> None:
        self.add(*_title("Actions", "-"))
        self.add("What a side may choose to do when the rules offer it (``do one of``): who may take it, "
                 "where it is offered, its choices and what follows.", "")
        for r in self.doc.rules_of(N.Action):
            offers = self.doc.offers.get(r.target, [])
            extra = []
            if offers:
                where = [f"{self.link(kind, user)} (to {rst(who)})" for kind, user, who in offers]
                extra = [f":Offered by: {_words(where)}"]
            self.rule(r, extra)

    def windows(self) -> None:
        self.add(*_title("Interrupt windows", "-"))
        rules = self.doc.rules_of(N.Window)
        if not rules:
            self.add("This game has no windows.", "")
            return
        self.add("Moments the rules open for a side to answer with a card. *Used by* names the rules that "
                 "open the window; *answered by* the cards played in it.", "")
        for r in rules:
            cards = self.doc.answers.get(r.target, [])
            extra = [f":Answered by: {_words([f':lumos:card:`{c}`' for c in cards])}"] if cards else []
            self.rule(r, extra)

    def triggers(self) -> None:
        self.add(*_title("Triggered effects", "-"))
        rules = self.doc.rules_of(N.Trigger)
        if not rules:
            self.add("This game has no ``when`` rules: nothing happens by itself.", "")
        for r in rules:
            self.rule(r)

    def others(self) -> None:
        rest = [r for r in self.doc.rules_of(N.Procedure) if r.target not in self.shown]
        self.add(*_title("Other procedures", "-"))
        self.add("Procedures not reached from the set-up or the flow: most are the vocabulary of the card "
                 "effects.", "")
        if not rest:
            self.add("None.", "")
        for r in rest:
            self.rule(r)
        self.add(*_title("Functions", "-"))
        self.add("Named calculations: a function never changes the game.", "")
        for r in self.doc.rules_of(N.Function):
            self.rule(r)

    # -- cards
    def cards(self) -> None:
        doc = self.doc
        self.add(*_title("Cards", "-"))
        types = list(dict.fromkeys(c.type for c in doc.cards))
        if not types:
            self.add("This game has no cards.", "")
        self.add(f"{len(doc.cards)} different cards, grouped by type. Each shows its data, the card text "
                 "players read, and what the engine runs: its condition and its effect as written, then in "
                 "plain English.", "")
        for t in types:
            group = [c for c in doc.cards if c.type == t]
            self.add(*_title(f"{t.replace('_', ' ').capitalize()} cards ({len(group)})", "~"))
            for c in group:
                self.card(c)

    def card(self, card: CardDoc) -> None:
        self.add(f".. lumos:card:: {card.name}", "")
        body: list[str] = []
        for v in card.variants:
            decks = " and ".join(f"the {d} deck ({n} {'copy' if n == 1 else 'copies'})" if d else
                                 f"no deck ({n} {'copy' if n == 1 else 'copies'})" for d, n in v.decks)
            origin = " from the expansion" if v.expansion else ""
            if len(card.variants) > 1:
                body += [f".. rubric:: In {decks}{origin}", ""]
            else:
                body += [f"*{rst_escape(card.type)} card*{origin}, in {decks}.", ""]
            body += self.card_variant(v)
        self.add(*_indent(body))

    def card_variant(self, v: CardVariant) -> list[str]:
        out = []
        data = [(k, val) for k, val in v.fields.items() if k not in _HIDDEN_FIELDS and k not in v.effects]
        for k, val in data:
            out.append(f":{rst_escape(k)}: {self.value(k, val)}")
        out.append(f":Defined in: ``{v.where}``")
        out.append("")
        if isinstance(v.fields.get("text"), str):
            out += [".. container:: lumos-card-text", "", f"   “{rst_escape(v.fields['text'])}”", ""]
        me = self.en.with_me()
        if v.condition is not None:
            out += [f"**May be played when** {rst(me.cond(v.condition))}.", ""]
            out += _code(v.fields["condition"])
        if v.effect is not None:
            out += ["**Effect**, as written:", ""] + _code(v.fields["effect"])
            out += ["In plain English:", ""] + to_rst(me.steps(v.effect))
        for key, body in v.effects.items():
            title = key[:-len("_effect")].replace("_", " ").capitalize()
            out += [f"**{rst_escape(title)} effect** (``play card.{key}``), as written:", ""] + _code(v.fields[key])
            out += ["In plain English:", ""] + to_rst(me.steps(body))
        if v.effect is None and v.condition is None and not v.effects:
            out += ["This card has no effect of its own: the rules use it by its data.", ""]
        return out

    def value(self, key: str, value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str) and value in self.doc.vocab.windows:
            return f":lumos:rule:`{value}`"
        if isinstance(value, (list, tuple)):
            return ", ".join(rst_escape(str(x)) for x in value) or "none"
        return rst_escape(str(value))


def game_rst(doc: GameDoc, ref: str, with_paths: list[str] = ()) -> list[str]:
    """The reStructuredText of a game's reference page (what `lumos:game` parses)."""
    return _Writer(doc, ref, list(with_paths)).page()


def coverage_rst(doc: GameDoc) -> list[str]:
    """The coverage page: each rulebook section with the rules citing it; uncited ones stand out."""
    cg = doc.cg
    lines = _title(f"{cg.title}: rulebook coverage", "=")
    citing: dict[str, list[RuleDoc]] = {}
    unmatched: dict[str, list[RuleDoc]] = {}
    sections = doc.sections
    for r in doc.rules:
        for s in r.decl.sources:
            found = match_section(s, sections) if sections is not None else s
            (citing.setdefault(found, []) if found else unmatched.setdefault(s, [])).append(r)
    if sections is None:
        lines += [f"The game ``{cg.id}`` keeps no list of its rulebook's sections (``sections.yaml`` beside "
                  "its rules), so only the sections its rules cite are shown.", ""]
        sections = sorted(citing)
    where = f"``{_short_path(str(doc.src.rules_dir / 'sections.yaml'))}``"
    lines += [f"Every section of the rulebook ``{rst_escape(cg.rulebook or cg.id)}`` (its table of contents, "
              f"kept in {where}) with the rules of :lumos:game:`{cg.id}` that cite it "
              "(``[source: ...]``). A section no rule cites stands out: either the rules miss something "
              "or the section holds nothing to encode (a glossary, a list of contents). Cards are not "
              "listed: a card file cites no section.", ""]

    def below(s: str) -> list[str]:
        return [t for t in sections if t.startswith(s + " > ")]
    uncited = [s for s in sections if not citing.get(s) and not any(citing.get(t) for t in below(s))]
    heading_only = [s for s in sections if not citing.get(s) and s not in uncited]
    cited = len(sections) - len(uncited) - len(heading_only)
    lines += [f"{cited} of {len(sections)} sections are cited directly; {len(heading_only)} only through their "
              f"subsections; {len(uncited)} not at all.", ""]
    if uncited:
        lines += [".. warning:: No rule cites these sections:", ""]
        lines += [f"   - :lumos:section:`{rst_escape(s)} <{s}>`" for s in uncited] + [""]
    if unmatched:
        lines += [".. warning:: These citations name no section of the table of contents:", ""]
        for s, rules in unmatched.items():
            lines.append(f"   - “{rst_escape(s)}”, cited by " + ", ".join(_rule_link(r) for r in rules))
        lines.append("")
    lines += [".. list-table::", "   :header-rows: 1", "   :widths: 50 10", "",
              "   * - section", "     - rules"]
    for s in sections:
        n = len(citing.get(s, []))
        mark = f"**{n}**" if s in uncited else str(n)
        lines += [f"   * - {'— ' * s.count(' > ')}:lumos:section:`{rst_escape(s.split(' > ')[-1])} <{s}>`",
                  f"     - {mark}"]
    lines.append("")
    lines += _title("Sections", "-")
    for s in sections:
        lines += [f".. lumos:section:: {s}", ""]
        rules = citing.get(s, [])
        if rules:
            body = ["Cited by " + ", ".join(_rule_link(r) for r in rules) + "."]
        elif s in heading_only:
            body = ["Cited only through its subsections."]
        else:
            body = [".. container:: lumos-uncited", "", "   **No rule cites this section.**"]
        lines += _indent(body) + [""]
    return lines


def _rule_link(r: RuleDoc) -> str:
    role = "action" if isinstance(r.decl, N.Action) else "rule"
    return f":lumos:{role}:`{r.target}`"


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
    from lumos.expansions import load_expansion, manifest_path
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


# ================================================================== Sphinx: nodes, directives, roles, domain
class lumos_board(nodes.General, nodes.Element):
    """The board picture: an SVG file written into the build's images, shown as an image."""


def _visit_board_html(self, node: lumos_board) -> None:
    out = Path(self.builder.outdir) / self.builder.imagedir
    out.mkdir(parents=True, exist_ok=True)
    (out / node["filename"]).write_text(node["svg"], encoding="utf-8")
    src = posixpath.join(self.builder.imgpath, node["filename"])
    self.body.append(f'<figure class="lumos-board"><a href="{escape(src)}"><img src="{escape(src)}" '
                     f'alt="{escape(node["alt"])}" style="max-width:100%"/></a>'
                     f'<figcaption>{escape(node["alt"])}</figcaption></figure>\n')
    raise nodes.SkipNode


def _skip(self, node) -> None:
    raise nodes.SkipNode


class _GameDirective(SphinxDirective):
    """Base: loads the game named by the argument, noting its files as dependencies."""
    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {"with": directives.unchanged}

    def with_paths(self) -> list[str]:
        raw = self.options.get("with") or ""
        return [p.strip() for p in re.split(r"[\n,]", raw) if p.strip()]

    def load(self) -> GameDoc:
        base = Path(self.env.srcdir) / Path(self.env.docname).parent
        try:
            doc = game_doc(self.arguments[0], base, self.with_paths())
        except ReferenceError as exc:
            raise self.error(f"lumos: cannot document `{self.arguments[0]}`:\n{exc}") from None
        for f in doc.src.all_files() + doc.extra_cards + [doc.src.rules_dir / "sections.yaml"]:
            if f.is_file():
                self.env.note_dependency(str(f))
        return doc

    def parse(self, lines: list[str]) -> list[nodes.Node]:
        return self.parse_text_to_nodes("\n".join(lines), allow_section_headings=True)


class GameReference(_GameDirective):
    """``.. lumos:game:: GAME`` — the whole reference of a game."""

    def run(self) -> list[nodes.Node]:
        doc = self.load()
        self.env.ref_context["lumos:game"] = doc.id
        domain: LumosDomain = self.env.get_domain("lumos")
        domain.note_object(doc.id, "game", doc.id, self.env.docname, "")
        return self.parse(game_rst(doc, self.arguments[0], self.with_paths()))


class CoverageDirective(_GameDirective):
    """``.. lumos:coverage:: GAME`` — each rulebook section and the rules citing it."""

    def run(self) -> list[nodes.Node]:
        doc = self.load()
        self.env.ref_context["lumos:game"] = doc.id
        self.env.get_domain("lumos").note_object(doc.id, "coverage", doc.id, self.env.docname, "")
        return self.parse(coverage_rst(doc))


class BoardDirective(_GameDirective):
    """``.. lumos:board:: GAME`` — the board, drawn from the compiled graph."""

    def run(self) -> list[nodes.Node]:
        from lumos.compiler.boards import export_svg
        doc = self.load()
        board = doc.cg.board
        node = lumos_board()
        node["svg"] = export_svg(board)
        node["filename"] = f"lumos-board-{nodes.make_id(doc.id)}.svg"
        node["alt"] = f"{board.name} ({len(board.spaces)} spaces), the board of {doc.cg.title}"
        return [node]


class LumosObject(ObjectDescription[str]):
    """A described object of a game (a rule, an action, a card, a rulebook section)."""
    option_spec = dict(ObjectDescription.option_spec)
    option_spec.update({"kind": directives.unchanged, "display": directives.unchanged,
                        "params": directives.unchanged})

    def handle_signature(self, sig: str, signode: desc_signature) -> str:
        kind = self.options.get("kind")
        shown = self.options.get("display", sig)
        if self.objtype == "section" and " > " in sig:
            parent, _, shown = sig.rpartition(" > ")
            signode += desc_annotation(parent.replace(" > ", " › ") + " › ", parent + " › ")
        if kind:
            signode += desc_annotation(kind + " ", kind + " ")
        signode += desc_name(shown, shown)
        if "params" in self.options:
            plist = desc_parameterlist()
            for p in filter(None, (x.strip() for x in self.options["params"].split(","))):
                plist += desc_parameter(p, p)
            signode += plist
        signode["lumos:toc"] = shown
        return sig

    def add_target_and_index(self, name: str, sig: str, signode: desc_signature) -> None:
        game = self.env.ref_context.get("lumos:game", "")
        node_id = base = nodes.make_id(f"lumos-{game}-{self.objtype}-{name}")
        n = 1
        while node_id in self.state.document.ids:   # two names that make the same id
            n += 1
            node_id = f"{base}-{n}"
        signode["ids"].append(node_id)
        self.state.document.note_explicit_target(signode)
        domain: LumosDomain = self.env.get_domain("lumos")
        domain.note_object(game, self.objtype, name, self.env.docname, node_id)
        if self.objtype == "action":
            domain.note_object(game, "rule", name, self.env.docname, node_id)
        if self.objtype != "section":
            kind = self.options.get("kind", self.objtype)
            self.indexnode["entries"].append(("single", f"{name} ({kind}, {game})", node_id, "", None))

    def _object_hierarchy_parts(self, sig_node: desc_signature) -> tuple[str, ...]:
        return (sig_node.get("lumos:toc", ""),)

    def _toc_entry_name(self, sig_node: desc_signature) -> str:
        return sig_node.get("lumos:toc", "")


class LumosXRefRole(XRefRole):
    """A cross-reference; remembers the game of the page it is written in."""

    def process_link(self, env, refnode, has_explicit_title, title, target):
        refnode["lumos:game"] = env.ref_context.get("lumos:game")
        return title, target


class LumosDomain(Domain):
    """The `lumos` domain: games, their rules, actions, cards and rulebook sections."""

    name = "lumos"
    label = "Lumos"
    object_types = {
        "game": ObjType("game", "game"), "coverage": ObjType("coverage", "coverage"),
        "rule": ObjType("rule", "rule"), "action": ObjType("action", "action", "rule"),
        "card": ObjType("card", "card"), "section": ObjType("section", "section"),
    }
    directives = {"game": GameReference, "coverage": CoverageDirective, "board": BoardDirective,
                  "rule": LumosObject, "action": LumosObject, "card": LumosObject, "section": LumosObject}
    roles = {
        "card": LumosXRefRole(warn_dangling=True),
        "rule": LumosXRefRole(warn_dangling=True, innernodeclass=nodes.literal),
        "action": LumosXRefRole(warn_dangling=True, innernodeclass=nodes.literal),
        "game": LumosXRefRole(warn_dangling=True),
        "coverage": LumosXRefRole(),   # the game page links it; a project may have no coverage page
        "section": LumosXRefRole(),
    }
    dangling_warnings = {
        "card": "unknown Lumos card: %(target)s", "rule": "unknown Lumos rule: %(target)s",
        "action": "unknown Lumos action: %(target)s", "game": "unknown Lumos game: %(target)s",
        "coverage": "no coverage page for the Lumos game %(target)s",
    }
    initial_data: dict = {"objects": {}}   # (game, type, name) -> (docname, node id)
    data_version = 1

    @property
    def objects(self) -> dict[tuple[str, str, str], tuple[str, str]]:
        return self.data.setdefault("objects", {})

    def note_object(self, game: str, objtype: str, name: str, docname: str, node_id: str) -> None:
        self.objects[(game, objtype, name)] = (docname, node_id)

    def clear_doc(self, docname: str) -> None:
        for key, (doc, _id) in list(self.objects.items()):
            if doc == docname:
                del self.objects[key]

    def merge_domaindata(self, docnames, otherdata: dict) -> None:
        for key, (doc, node_id) in otherdata["objects"].items():
            if doc in docnames:
                self.objects[key] = (doc, node_id)

    def find(self, game: str | None, types: tuple[str, ...], target: str):
        """(game, type, name) -> (docname, id) for a target written `name` or `game:name`."""
        games = {g for g, _t, _n in self.objects}
        prefix, sep, rest = target.partition(":")
        if sep and prefix in games:
            game, target = prefix, rest.strip()
        for t in types:
            if game and (game, t, target) in self.objects:
                return (game, t, target), self.objects[(game, t, target)]
        if game and game in games and types != ("game",) and types != ("coverage",):
            return None
        for (g, t, n), where in sorted(self.objects.items()):
            if t in types and n == target:
                return (g, t, n), where
        return None

    def resolve_xref(self, env, fromdocname, builder, typ, target, node, contnode):
        found = self.find(node.get("lumos:game"), (typ,), target)
        if found is None:
            return None
        (_g, _t, name), (docname, node_id) = found
        return make_refnode(builder, fromdocname, docname, node_id, contnode, name)

    def resolve_any_xref(self, env, fromdocname, builder, target, node, contnode):
        results = []
        for typ in ("card", "action", "rule", "game"):
            found = self.find(node.get("lumos:game"), (typ,), target)
            if found is not None:
                (_g, _t, name), (docname, node_id) = found
                role = "lumos:action" if typ == "action" else f"lumos:{typ}"
                results.append((role, make_refnode(builder, fromdocname, docname, node_id, contnode, name)))
        return results

    def get_objects(self):
        for (game, typ, name), (docname, node_id) in self.objects.items():
            if typ in ("rule", "card", "action", "section"):
                yield f"{game}:{name}", name, typ, docname, node_id, 1


class LumosLexer(RegexLexer):
    """The Lumos rules language (grammar/lumos.lark), for highlighting only: it never fails on
    text it does not know (no lexer warnings)."""

    name = "Lumos"
    aliases = ["lumos"]
    filenames = ["*.lumos"]

    DECLARATIONS = (
        "game", "rulebook", "board", "schema", "cards", "sides", "option", "choices", "die",
        "faces", "kinds", "pieces", "piece", "var", "const", "per", "zone", "window",
        "procedure", "function", "action", "with", "label", "setup", "flow", "when",
        "hidden", "owner", "public", "shared", "event",
    )
    STATEMENTS = (
        "let", "set", "add", "to", "subtract", "from", "place", "at", "off", "give", "drop",
        "put", "into", "draw", "shuffle", "roll", "win", "end", "in", "a", "play", "by",
        "may", "choose", "do", "one", "of", "log", "return", "stop", "pass", "if", "elif",
        "else", "for", "each", "repeat", "times", "while", "loop", "then", "where", "reach",
        "up", "exactly", "through", "onto", "my", "is", "not", "and", "or", "empty", "bottom", "announce", "reset",
    )
    TYPES = ("number", "flag", "text", "side", "space", "card")

    tokens = {
        "root": [
            (r"#[^\n]*", Comment.Single),
            (r'"', String, "string"),
            (r"(\[)(\s*)(source)(\s*)(:)", bygroups(Punctuation, Text, Keyword.Pseudo, Text, Punctuation)),
            (words(("true", "false", "none"), suffix=r"\b"), Keyword.Constant),
            (words(DECLARATIONS, prefix=r"\b", suffix=r"\b"), Keyword.Declaration),
            (words(STATEMENTS, prefix=r"\b", suffix=r"\b"), Keyword),
            (words(TYPES, prefix=r"\b", suffix=r"\b"), Keyword.Type),
            (r"[0-9]+", Number.Integer),
            (r"(==|!=|<=|>=|<|>|=|\+|-|\*|/|%)", Operator),
            (r"[()\[\],.:]", Punctuation),
            (r"[a-z_][a-z0-9_]*", Name),
            (r"\s+", Text),
            (r".", Text),
        ],
        "string": [
            (r"\{[^}\n\"]*\}", String.Interpol),
            (r'\\.', String.Escape),
            (r'"', String, "#pop"),
            (r'[^"\\{]+', String),
            (r".", String),
        ],
    }


def _lexer() -> type:
    """The package's full lexer (lumos.lexer) when there is one, else the small one above."""
    try:
        from lumos.lexer import LumosLexer as full
    except ImportError:
        return LumosLexer
    return full


_CSS = """
.lumos-card-text { font-style: italic; border-left: 3px solid #c9b458; padding-left: .8em; }
.lumos-uncited { background: #fdecea; border-left: 3px solid #c62828; padding: .2em .8em; }
figure.lumos-board img { border: 1px solid #ccc; }
"""


def _write_css(app, exc) -> None:
    if exc is None and app.builder.format == "html":
        static = Path(app.outdir) / "_static"
        static.mkdir(parents=True, exist_ok=True)
        (static / "lumos-reference.css").write_text(_CSS, encoding="utf-8")


def setup(app) -> dict:
    """The Sphinx extension: the `lumos` domain, the board node and the `lumos` lexer."""
    app.add_domain(LumosDomain)
    app.add_node(lumos_board, html=(_visit_board_html, None), latex=(_skip, None), text=(_skip, None),
                 man=(_skip, None), texinfo=(_skip, None))
    app.add_lexer("lumos", _lexer())
    app.add_css_file("lumos-reference.css")
    app.connect("build-finished", _write_css)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": LumosDomain.data_version}


# ================================================================== lumos docs
def _plan(with_paths: Iterable[str | Path]) -> dict[str, tuple[str, list[str]]]:
    """Which games to document: game key -> (directive argument, extra card paths)."""
    from lumos.api import bundled_games
    from lumos.expansions import load_expansion, manifest_path
    plan = {g: (g, []) for g in bundled_games()}
    for raw in with_paths:
        text = str(raw)
        game, sep, rest = text.partition("=")
        if sep and game in plan:
            path = Path(rest).resolve()
        else:
            game, path = "", Path(text).resolve()
        if not path.exists():
            raise ReferenceError(f"--with {text}: no such file or folder", 2)
        if path.is_dir() and (path / "game.lumos").is_file():
            plan[path.name] = (str(path), [])
            continue
        manifest = manifest_path(path) if not game else None
        if manifest is not None:
            exp, problems, texts = load_expansion(manifest)
            if exp is None:
                raise ReferenceError("\n".join(d.render(texts.get(d.span.file, "").splitlines())
                                               for d in problems) or f"--with {text}: not an expansion")
            game = exp.base.id
            if game not in plan or plan[game][0] != game:
                plan[game] = (str(exp.base.rules_dir), plan.get(game, ("", []))[1])
        elif not game:
            game = _game_for(path, plan)
        plan[game][1].append(str(path))
    return plan


def _game_for(path: Path, plan: dict) -> str:
    """The bundled game an expansion's cards belong to: the only one they compile with."""
    from lumos.api import bundled_games, game_sources
    from lumos.compiler.game import check_game
    games = bundled_games()
    if len(games) == 1:
        return games[0]
    fits = [g for g in games if check_game(game_sources(g), card_files([path])[0])[0] is not None]
    if len(fits) != 1:
        raise ReferenceError(f"--with {path}: say which game the cards are for: --with GAME={path} "
                             f"(games: {', '.join(games)})", 2)
    return fits[0]


def write_project(srcdir: Path, plan: dict[str, tuple[str, list[str]]]) -> None:
    """A Sphinx source folder: an index and, per game, its reference and coverage pages."""
    srcdir.mkdir(parents=True, exist_ok=True)
    index = _title("Lumos rules reference", "=") + [
        "Generated by ``lumos docs`` from the compiled rules and cards of each game.", "",
        ".. toctree::", "   :maxdepth: 2", ""]
    for key, (ref, extra) in plan.items():
        page = nodes.make_id(key) or "game"
        index += [f"   {page}", f"   {page}-coverage"]
        with_opt = [f"   :with: {', '.join(extra)}"] if extra else []
        (srcdir / f"{page}.rst").write_text("\n".join([f".. lumos:game:: {ref}"] + with_opt + [""]),
                                            encoding="utf-8")
        (srcdir / f"{page}-coverage.rst").write_text("\n".join([f".. lumos:coverage:: {ref}"] + with_opt + [""]),
                                                     encoding="utf-8")
    (srcdir / "index.rst").write_text("\n".join(index + [""]), encoding="utf-8")


def build_docs(out_dir: str | Path | None = None, with_paths: Iterable[str | Path] = ()) -> int:
    """Build the HTML reference of every bundled game (and of `with_paths`: expansion card files or
    folders, `GAME=PATH`, or game folders) into `out_dir`. Returns an exit status: 0 when the
    reference was built without a warning, 1 otherwise, 2 for a bad `--with`.

    >>> build_docs("/tmp/lumos-reference")   # doctest: +SKIP
    0
    """
    from sphinx.application import Sphinx
    from sphinx.util.console import nocolor
    out = Path(out_dir or "lumos-reference").resolve()
    try:
        plan = _plan(with_paths)
    except ReferenceError as exc:
        print(f"lumos docs: error: {exc}", file=sys.stderr)
        return exc.status
    for key, (ref, extra) in plan.items():   # compile first: problems are shown as `lumos check` does
        try:
            game_doc(ref, Path.cwd(), extra)
        except ReferenceError as exc:
            print(f"{exc}\nlumos docs: `{key}` does not compile; no reference was written", file=sys.stderr)
            return exc.status
    nocolor()
    warnings = io.StringIO()
    with tempfile.TemporaryDirectory(prefix="lumos-docs-") as tmp:
        src = Path(tmp) / "src"
        write_project(src, plan)
        conf = {"project": "Lumos rules reference", "extensions": ["lumos.reference"], "root_doc": "index",
                "html_theme": "alabaster", "html_title": "Lumos rules reference", "pygments_style": "sphinx",
                "html_show_sourcelink": False, "html_copy_source": False}
        app = Sphinx(str(src), None, str(out), str(Path(tmp) / "doctrees"), "html", confoverrides=conf,
                     status=None, warning=warnings, freshenv=True)
        app.build()
    text = warnings.getvalue().strip()
    if text:
        print(text, file=sys.stderr)
    if text or app.statuscode:
        print(f"lumos docs: the reference in {out} has problems (above)", file=sys.stderr)
        return 1
    print(f"wrote {out / 'index.html'} ({', '.join(plan)})")
    return 0
