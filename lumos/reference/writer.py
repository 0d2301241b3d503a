"""A GameDoc -> the reStructuredText of its reference page and its coverage page."""
from __future__ import annotations

from typing import Any

from lumos.compiler import nodes as N
from lumos.reference.english import rst, rst_escape, to_rst
from lumos.reference.model import (HIDDEN_FIELDS, CardDoc, CardVariant, GameDoc, RuleDoc, note_rst, short_path,
                            match_section, walk)


# ================================================================== reStructuredText of a game
def rst_title(text: str, char: str) -> list[str]:
    text = rst_escape(text)
    return [text, char * max(len(text), 3), ""]


def _indent(lines: list[str], n: int = 3) -> list[str]:
    return [(" " * n + l) if l.strip() else "" for l in lines]


def _code(text: str, indent: int = 0) -> list[str]:
    pad = " " * indent
    return [f"{pad}.. code-block:: lumos", ""] + [f"{pad}   {l}" if l.strip() else "" for l in text.splitlines()] + [""]


def field_label(key: str) -> str:
    """A card field's key as a label in words: `accelerate_dice` -> `Accelerate dice`."""
    words = key.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


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
            body += [note_rst(rule.note), ""]
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
        self.add(*rst_title(cg.title, "="))
        self.summary()
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

    def summary(self) -> None:
        """The page opens with what the game is (the `summary:` of sections.yaml) and its board."""
        text = self.doc.summary
        if text:
            self.add(".. container:: lumos-summary", "", *[f"   {line}" if line else "" for line in text.splitlines()], "")
        self.add(f".. lumos:board:: {self.ref}", "")

    def intro(self) -> None:
        doc, cg = self.doc, self.doc.cg
        files = ", ".join(f"``{short_path(str(p))}``" for p in doc.src.rules_files())
        ncards = sum(cd.copies for cd in cg.card_defs)
        self.add(f"The rules reference of *{rst_escape(cg.title)}* (game ``{cg.id}``), generated from the "
                 f"files the interpreter runs: the rules {files}, the board and "
                 f"{len(cg.card_defs)} card definitions ({ncards} cards). It cannot drift from the game: "
                 "change a rule and the reference changes with it.", "")
        if doc.extra_cards:
            names = ", ".join(f"*{rst_escape(n)}*" for n in doc.expansions)
            files = ", ".join(f"``{short_path(str(p))}``" for p in doc.extra_cards)
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
        self.add(*rst_title("Components", "-"))
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
        self.add(*rst_title("The board", "-"))
        self.add(f"*{rst_escape(board.name)}*: {len(board.spaces)} spaces, drawn from the compiled board "
                 "graph (the picture is made at each build, never by hand).", "")
        self.add("The picture at the top of the page is this board.", "")
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
        self.add(*rst_title("Set-up", "-"))
        self.add("What happens once, before the first turn, in order; then the procedures it uses.", "")
        for r in setup:
            self.rule(r)
        self.shown = {r.target for r in setup + flow}
        for r in doc.reached_from(setup, set()):
            self.rule(r)
            self.shown.add(r.target)
        self.add(*rst_title("Sequence of play", "-"))
        self.add("The flow of the game, in order, and the procedures it runs (including those the "
                 "actions below run).", "")
        for r in flow:
            self.rule(r)
        for r in doc.reached_from(flow, set(self.shown)):
            self.rule(r)
            self.shown.add(r.target)

    def actions(self) -> None:
        self.add(*rst_title("Actions", "-"))
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
        self.add(*rst_title("Interrupt windows", "-"))
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
        self.phases()

    def phases(self) -> None:
        rules = self.doc.rules_of(N.Phase)
        if not rules:
            return
        self.add(*rst_title("Phases", "-"))
        self.add("Spans of play the rules mark with ``during``: card effects last until the end of one, wait "
                 "for the start or the end of one, or happen once per one.", "")
        for r in rules:
            self.rule(r)

    def triggers(self) -> None:
        self.add(*rst_title("Triggered effects", "-"))
        rules = self.doc.rules_of(N.Trigger)
        if not rules:
            self.add("This game has no ``when`` rules: nothing happens by itself.", "")
        for r in rules:
            self.rule(r)
        anytime = self.doc.rules_of(N.Anytime)
        if anytime:
            self.add(*rst_title("At any time", "-"))
            self.add("Options the rules add to every decision a side is asked, while their condition holds.", "")
            for r in anytime:
                self.rule(r)

    def others(self) -> None:
        rest = [r for r in self.doc.rules_of(N.Procedure) if r.target not in self.shown]
        self.add(*rst_title("Other procedures", "-"))
        self.add("Procedures not reached from the set-up or the flow: most are the vocabulary of the card "
                 "effects.", "")
        if not rest:
            self.add("None.", "")
        for r in rest:
            self.rule(r)
        self.add(*rst_title("Functions", "-"))
        self.add("Named calculations: a function never changes the game.", "")
        for r in self.doc.rules_of(N.Function):
            self.rule(r)
        score = self.doc.rules_of(N.Score)
        if score:
            self.add(*rst_title("Score", "-"))
            self.add("Not a rule of the game: how well a side stands, as the agents that look ahead judge it.", "")
            for r in score:
                self.rule(r)
        statistics = self.doc.rules_of(N.Statistic)
        if statistics:
            self.add(*rst_title("Statistics", "-"))
            self.add("Not rules of the game: the figures `lumos simulate` reports of each game, per side.", "")
            for r in statistics:
                self.rule(r)
        for r in self.doc.rules_of(N.DefaultAgents):   # who plays when a command is not told
            self.rule(r)

    # -- cards
    def cards(self) -> None:
        doc = self.doc
        self.add(*rst_title("Cards", "-"))
        types = list(dict.fromkeys(c.type for c in doc.cards))
        if not types:
            self.add("This game has no cards.", "")
        self.add(f"{len(doc.cards)} different cards, grouped by type. Each shows its data, the card text "
                 "players read, and what the engine runs: its condition and its effect as written, then in "
                 "plain English.", "")
        for t in types:
            group = [c for c in doc.cards if c.type == t]
            self.add(*rst_title(f"{t.replace('_', ' ').capitalize()} cards ({len(group)})", "~"))
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
        data = [(k, val) for k, val in v.fields.items() if k not in HIDDEN_FIELDS and k not in v.effects]
        for k, val in data:
            out.append(f":{rst_escape(field_label(k))}: {self.value(k, val)}")
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
    lines = rst_title(f"{cg.title}: rulebook coverage", "=")
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
    where = f"``{short_path(str(doc.src.rules_dir / 'sections.yaml'))}``"
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
    lines += rst_title("Sections", "-")
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


