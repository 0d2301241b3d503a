"""Checked AST (compiler/nodes.py) -> plain English, for the rules reference.

Every node class of the language has one method here, `_<ClassName>`, so a construct
added to the language without an English rendering is found at once
(`missing_renderings()`, and tests/test_english.py). Expressions become phrases,
statements become numbered steps (`Step`, nested for blocks), declarations become a
step whose body is what they contain.

The English keeps the game's own names (functions, procedures, variables, spaces)
as they are written, because a designer reads it beside the rules; each such name
is wrapped in an invisible marker saying what it is, so the same text becomes
plain text (`plain`) or reStructuredText with cross-references (`rst`): the markers and
the output are in lumos.reference.markup, what each name is in lumos.reference.vocabulary.

>>> from lumos.compiler.parse import parse
>>> from lumos.compiler.build_ast import build, Origin
>>> stmts = build(parse("if count(my hand) > 7:\\n    win me\\n", "x", "effect"), Origin("x"))
>>> print(to_text(English(me=True).steps(stmts)))
1. If the number of your hand is more than 7:
   1. You win the game: the game ends.
"""
from __future__ import annotations

import re
from typing import Iterable

from lumos.compiler import nodes as N
from lumos.reference.markup import Step, mark, rst, rst_escape, to_rst, to_text  # noqa: F401
from lumos.reference.phrases import (HOLE, IDENTIFIER, MARK, POSSESSIVE_OF, fill, pick, plain,  # noqa: F401
                                     singular, words)
from lumos.reference.vocabulary import Vocabulary

# Text that must never reach a reader: a sign that something was not rendered.
_LEFTOVER = re.compile(r"\bNone\b|\?\?\?|\bTODO\b|[\x1b\x1d\x1f]|\b[A-Z][A-Za-z]+\(")

__all__ = ["English", "Step", "Vocabulary", "card_english", "card_fields_english", "english_sources", "fill", "leaks", "missing_renderings", "placeholder_in", "plain", "rst",
           "to_text", "to_rst"]


def _words(items: list[str], last: str = "and") -> str:
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def _cap(text: str) -> str:
    """Upper-case the first letter, unless the text starts with a name given in a rule or a
    literal name (a space, a side); a phrase that starts the sentence is capitalised."""
    if text and text[0].isalpha():
        return text[0].upper() + text[1:]
    m = MARK.match(text)
    if m and m.group(1) in ("rule", "action") and m.group(3)[:1].isalpha():
        shown = m.group(3)
        return f"\x1b{m.group(1)}\x1f{m.group(2)}\x1f{shown[0].upper()}{shown[1:]}\x1d{text[m.end():]}"
    return text


def _uncap(text: str) -> str:
    """Lower-case the first letter of a sentence (not of a name such as `Zone`... unless it
    starts the phrase, where it is the imperative of a designer's card text)."""
    return text[:1].lower() + text[1:] if text[:1].isupper() and text[1:2].islower() else text


def _quote(value: str) -> str:
    return f"“{value}”"


# ------------------------------------------------------------------ English
_SPECIAL_NAMES = {
    "me": "you", "card": "this card", "it": "it", "current": "the side whose turn it is",
    "sides": "all sides", "pieces": "all pieces", "cards": "all cards of the game",
    "spaces": "all spaces of the board",
}
_POSSESSIVE = {"me": "your", "it": "its", "card": "this card's"}
_COMPARE = {
    "==": "is", "!=": "is not", "<": "is less than", ">": "is more than", "<=": "is at most",
    ">=": "is at least", "is": "is", "isnot": "is not", "in": "is one of", "notin": "is not one of",
}
_ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "%": "modulo"}
_META = {
    "game": "The game is called {v}.", "rulebook": "Rule citations refer to the rulebook {v}.",
    "board": "The board is drawn from the file {v}.", "schema": "Cards are checked against the schema {v}.",
    "cards": "Cards come from {v}.",
}
_VISIBILITY = {
    "hidden": "nobody sees its cards, only how many there are",
    "owner": "only its side sees its cards; the others see how many there are",
    "public": "everybody sees its cards",
}
_EVENTS = {
    "placed": "a piece {0} is placed on a space {1}",
    "given": "a piece {0} is given to {1} to carry",
    "put": "a card {0} is put into a zone {1}",
    "drawn": "a card {0} is drawn into a zone {1}",
}
_BUILTINS = {
    "count": "the number of {0}",
    "first": "the first of {0}",
    "last": "the last of {0}",
    "other": "the side after {0}",
    "occupant": "the piece standing on {0}",
    "occupants": "the pieces standing on {0}",
    "full": "{0} holds as many pieces as it may",
    "distance": "the number of {2} steps from {0} to {1}",
    "toward": "the space {2} {3} steps from {0} on the way to {1}",
    "closest": "those of {0} closest to {1} in {2} steps",
    "offset": "the space {1} columns across and {2} rows up from {0}",
    "max": "the largest of {0}",
    "min": "the smallest of {0}",
    "sum": "the sum of {0}",
    "playable": "{0} may be played by {1}",
}
_WRAP = (N.BoolOp, N.IfExpr, N.Where, N.Reach, N.Compare, N.IsEmpty, N.Not)


class MissingRendering(LookupError):
    """A node class with no English method."""


class English:
    """Renders AST nodes of one game as English.

    `me=True` renders `me` as "you" and a decision without `by` as yours (actions,
    card effects, conditions); otherwise it is the side whose turn it is."""

    def __init__(self, vocab: Vocabulary | None = None, me: bool = False):
        self.vocab = vocab or Vocabulary()
        self.me = me
        self.seen: set[str] = set()   # node classes rendered so far (for the coverage test)

    # -------------------------------------------------------------- entry points
    def node(self, n: N.Node):
        """Any node: a phrase (expressions), a list of steps (statements) or a step."""
        method = getattr(self, "_" + type(n).__name__, None)
        if method is None:
            raise MissingRendering(f"no English for {type(n).__name__}")
        self.seen.add(type(n).__name__)
        return method(n)

    def expr(self, e: N.Expr) -> str:
        return self.node(e)

    def steps(self, body: Iterable[N.Stmt]) -> tuple[Step, ...]:
        out: list[Step] = []
        for s in body:
            out += self.node(s)
        return tuple(out)

    def decl(self, d: N.Decl) -> Step:
        return self.node(d)

    def describe(self, name: str) -> str | None:
        """The English of a declared name, as plain text: its phrase, then what its declaration
        says (for an editor's hover over the name). None for a name the rules do not declare.

        >>> from lumos.compiler.parse import parse
        >>> from lumos.compiler.build_ast import build, Origin
        >>> g = build(parse('says "{s}\\'s rival"\\nfunction rival(s) = other(s)\\n', "x"), Origin("x"))
        >>> print(English(Vocabulary(g.decls)).describe("rival"))
        Rival: s's rival is the side after s.
        """
        d = self.vocab.decls.get(name)
        if d is None:
            return None
        step = self.node(d)
        first = plain(step.text)
        return first if not step.body else to_text([step])[3:]

    def with_me(self) -> "English":
        """The same vocabulary, in a context where `me` is the acting side."""
        other = English(self.vocab, me=True)
        other.seen = self.seen
        return other

    # -------------------------------------------------------------- helpers
    def sub(self, e: N.Expr) -> str:
        """An operand (the English needs no parentheses: each phrase says where it ends)."""
        return self.expr(e)

    def cond(self, e: N.Expr) -> str:
        """A condition: a flag reads as its phrase, or `X is on`."""
        if isinstance(e, (N.Attr, N.My, N.Name)):
            said = self.flag_phrase(e, False)
            if said is not None:
                return said
        if isinstance(e, (N.Attr, N.My)) or (isinstance(e, N.Name) and e.name not in _SPECIAL_NAMES
                                              and self.vocab.what.get(e.name) in (None, "rule")):
            return f"{self.expr(e)} is true"
        if isinstance(e, N.Not) and isinstance(e.operand, (N.Attr, N.My, N.Name)):
            self.seen.add("Not")
            said = self.flag_phrase(e.operand, True)
            return said if said is not None else f"{self.expr(e.operand)} is false"
        return self.expr(e)

    def local(self, name: str) -> str:
        return mark("local", name)

    def subject(self, side: N.Expr | None) -> tuple[str, bool]:
        """(who, is it "you") for a statement done by a side."""
        if side is None:
            return ("you", True) if self.me else ("the side whose turn it is", False)
        if isinstance(side, N.Name) and side.name == "me":
            self.seen.add("Name")
            return "you", True
        return self.expr(side), False

    def attr_name(self, name: str) -> str:
        return self.vocab.name(name) or words(name)

    def label(self, label: N.Str | None) -> str:
        return f", shown as {self.expr(label)}" if label is not None else ""

    # -------------------------------------------------------------- phrases (`says`)
    def arg(self, e: N.Expr) -> str:
        """An argument filled into a phrase: a text is shown as its words, without quotes."""
        if isinstance(e, N.Str):
            self.seen.add("Str")
            return words(e.value) if IDENTIFIER.fullmatch(e.value) else self.template(e.value)
        return self.expr(e)

    def said(self, name: str, args, negative: bool = False) -> str | None:
        """The phrase of a declared function, procedure or action with its arguments filled in."""
        d = self.vocab.phrases.get(name)
        if d is None:
            return None
        self.seen.add("Phrase")
        params = tuple(d.params) if isinstance(d, (N.Function, N.Procedure)) else ()
        phrase = pick(d.phrase, dict(zip(params, args)))
        text = phrase.negative if negative else phrase.text
        if text is None:
            return None
        values = {p: self.arg(a) for p, a in zip(params, args)}
        if isinstance(d, N.Action):
            values = {b.name: self.local(b.name) for b in d.binders}
        filled = fill(text, values)
        return mark("rule" if not isinstance(d, N.Action) else "action", name, filled) \
            if not HOLE.search(text) else filled

    def owned(self, name: str, owner: N.Expr | None) -> str | None:
        """The phrase of a per-side or per-piece variable (or constant) of `owner` (None: of `me`)."""
        d = self.vocab.phrases.get(name)
        if d is None or not isinstance(d, (N.Var, N.Const)) or d.phrase is None:
            return None
        self.seen.add("Phrase")
        who = ("you" if self.me else "the acting side") if owner is None else self.expr(owner)
        holes = HOLE.findall(d.phrase.text)
        if holes:
            return fill(d.phrase.text, {holes[0].strip(): who})
        return f"{POSSESSIVE_OF.get(plain(who), who + chr(39) + 's')} {d.phrase.text}"

    def flag_phrase(self, e: N.Expr, negative: bool) -> str | None:
        """A flag variable as the sentence its `says` gives (or that of its negation)."""
        name = e.name if isinstance(e, (N.Attr, N.My, N.Name)) else None
        d = self.vocab.phrases.get(name) if name else None
        if d is None or name not in self.vocab.flags:
            return None
        self.seen.add("Phrase")
        text = d.phrase.negative if negative else d.phrase.text
        if text is None:
            text = "it is not so that " + d.phrase.text
        holes = HOLE.findall(text)
        if isinstance(e, N.Name) or not holes:
            return text if not holes else fill(text, {})
        owner = e.obj if isinstance(e, N.Attr) else None
        who = ("you" if self.me else "the acting side") if owner is None else self.expr(owner)
        return fill(text, {holes[0].strip(): who})

    def template(self, text: str) -> str:
        """A label or log text: each `{expression}` replaced by its English."""
        def hole(m):
            return self.hole(m.group(1))
        return HOLE.sub(hole, text).replace("{", "").replace("}", "")

    def hole(self, source: str) -> str:
        from lumos.compiler.astdata import text_ast
        from lumos.compiler.origin import Origin
        try:
            node = text_ast(source, "template_expr", Origin("<text>"))
        except Exception:  # noqa: BLE001 - a hole the compiler refuses is shown as words
            return words(source)
        return plain(self.arg(node))

    # -------------------------------------------------------------- expressions
    def _Num(self, e: N.Num) -> str:
        return str(e.value)

    def _Str(self, e: N.Str) -> str:
        if IDENTIFIER.fullmatch(e.value):   # a value such as "fly_off" or "library_book"
            return _quote(words(e.value))
        return _quote(self.template(e.value))

    def _Bool(self, e: N.Bool) -> str:
        return "true" if e.value else "false"

    def _NoneLit(self, e: N.NoneLit) -> str:
        return "nothing"

    def _Phrase(self, p: N.Phrase) -> str:
        return fill(p.text, {})

    def _Name(self, e: N.Name) -> str:
        d = self.vocab.phrases.get(e.name)
        if d is not None and not isinstance(d, (N.Function, N.Procedure, N.Action)) and \
                not getattr(d, "scope", None):
            self.seen.add("Phrase")
            return mark("rule", e.name, fill(d.phrase.text, {})) if not HOLE.search(d.phrase.text) \
                else fill(d.phrase.text, {})
        known = self.vocab.name(e.name)
        if known is not None:
            return known
        if e.name in _SPECIAL_NAMES:
            return "you" if e.name == "me" and self.me else \
                ("the side acting" if e.name == "me" else _SPECIAL_NAMES[e.name])
        return self.local(e.name)

    def _Attr(self, e: N.Attr) -> str:
        said = self.owned(e.name, e.obj)
        if said is not None:
            return said
        attr = self.attr_name(e.name)
        if isinstance(e.obj, N.Name) and e.obj.name in _POSSESSIVE and self.vocab.name(e.obj.name) is None:
            self.seen.add("Name")
            owner = _POSSESSIVE[e.obj.name] if (e.obj.name != "me" or self.me) else "the acting side's"
            return f"{owner} {attr}"
        return f"the {attr} of {self.sub(e.obj)}"

    def _My(self, e: N.My) -> str:
        said = self.owned(e.name, None)
        if said is not None:
            return said
        return f"{'your' if self.me else 'the acting side' + chr(39) + 's'} {self.attr_name(e.name)}"

    def _Call(self, e: N.Call) -> str:
        said = self.said(e.func, e.args)
        if said is not None:
            return said
        if e.func in _BUILTINS and self.vocab.what.get(e.func) is None:
            args = [self.sub(a) for a in e.args]
            if e.func in ("distance", "toward", "closest"):   # the link kind is a bare name
                args[-1] = self.expr(e.args[-1])
            try:
                return _BUILTINS[e.func].format(*args)
            except IndexError:
                pass
        return self._call_text(e.func, e.args, as_value=True)

    def _ListLit(self, e: N.ListLit) -> str:
        if not e.items:
            return "an empty list"
        return f"the list of {_words([self.sub(i) for i in e.items])}"

    def _Where(self, e: N.Where) -> str:
        source = self.sub(e.source)
        lead = "" if plain(source).startswith(("your ", "the ", "all ")) or "'s " in plain(source) else "those of "
        return f"{lead}{source} for which {self.cond(e.cond)}"

    def _Quantifier(self, e: N.Quantifier) -> str:
        head = {"any": "some", "all": "every", "count": "the number of"}[e.kind]
        return f"{head} {self.local(e.var)} of {self.sub(e.source)} for which {self.cond(e.cond)}" \
            if e.kind == "count" else f"{self.cond(e.cond)} for {head} {self.local(e.var)} of {self.sub(e.source)}"

    def _IfExpr(self, e: N.IfExpr) -> str:
        return f"{self.sub(e.then)} if {self.cond(e.cond)}, otherwise {self.sub(e.other)}"

    def _BoolOp(self, e: N.BoolOp) -> str:
        lead = "both" if e.op == "and" else "either"
        parts = [f"{lead} {self.expr(i)}" if isinstance(i, N.BoolOp) else self.cond(i) for i in e.items]
        return f" {e.op} ".join(parts) if len(parts) < 3 else f"{', '.join(parts[:-1])} {e.op} {parts[-1]}"

    def _Not(self, e: N.Not) -> str:
        if isinstance(e.operand, N.Call):
            said = self.said(e.operand.func, e.operand.args, negative=True)
            if said is not None:
                self.seen.add("Call")
                return said
            return f"it is not so that {self.expr(e.operand)}"
        if isinstance(e.operand, (N.Attr, N.My, N.Name)):
            said = self.flag_phrase(e.operand, True)
            return said if said is not None else f"{self.expr(e.operand)} is false"
        return f"it is not so that {self.expr(e.operand)}"

    def _Compare(self, e: N.Compare) -> str:
        if isinstance(e.right, N.NoneLit) and e.op in ("is", "isnot", "==", "!="):
            self.seen.add("NoneLit")
            nothing = e.op in ("is", "==")
            return f"{self.sub(e.left)} is {'nothing' if nothing else 'something'}"
        return f"{self.sub(e.left)} {_COMPARE.get(e.op, e.op)} {self.sub(e.right)}"

    def _IsEmpty(self, e: N.IsEmpty) -> str:
        target = e.operand
        if isinstance(target, (N.Attr, N.My, N.Name)) and getattr(target, "name", None) in self.vocab.zones:
            return f"{self.sub(target)} is {'not ' if e.negated else ''}empty"
        return f"there is {'at least one of' if e.negated else 'none of'} {self.sub(target)}"

    def _Arith(self, e: N.Arith) -> str:
        parts = [self.sub(e.items[0])]
        for op, item in zip(e.ops, e.items[1:]):
            parts.append(f"{_ARITH.get(op, op)} {self.sub(item)}")
        return " ".join(parts)

    def _Neg(self, e: N.Neg) -> str:
        if isinstance(e.operand, N.Num):
            self.seen.add("Num")
            return f"-{e.operand.value}"
        return f"minus {self.sub(e.operand)}"

    def _Reach(self, e: N.Reach) -> str:
        count = self.sub(e.count)
        steps = f"in exactly {count}" if e.exact else f"in 1 to {count}"
        if e.walk:
            steps = f"never stepping straight back, in exactly {count}"
            if e.came_from is not None:
                steps = f"never stepping straight back, nor first into {self.sub(e.came_from)}, in exactly {count}"
        one = isinstance(e.count, N.Num) and e.count.value == 1
        text = f"the spaces reachable from {self.sub(e.start)} {steps} {mark('lit', e.link)} step{'' if one else 's'}"
        if e.through is not None:
            text += f", passing only over spaces {self.local(e.through_var)} for which {self.cond(e.through)}"
        if e.onto is not None:
            text += f", ending on a space {self.local(e.onto_var)} for which {self.cond(e.onto)}"
        return text

    def _Route(self, e: N.Route) -> str:
        text = (f"the spaces that every shortest route of {mark('lit', e.link)} steps from {self.sub(e.start)} "
                f"to {self.sub(e.end)} passes")
        if e.through is not None:
            text += f", passing only over spaces {self.local(e.through_var)} for which {self.cond(e.through)}"
        return text

    # -------------------------------------------------------------- statements
    def _Let(self, s: N.Let) -> list[Step]:
        if isinstance(s.value, N.Call) and self._is_procedure(s.value.func):
            self.seen.add("Call")
            return [Step(f"{_cap(self._call_text(s.value.func, s.value.args))} and call its result "
                         f"{self.local(s.name)}.")]
        return [Step(f"Let {self.local(s.name)} be {self.expr(s.value)}.")]

    def _SetVar(self, s: N.SetVar) -> list[Step]:
        if isinstance(s.value, N.Bool) and isinstance(s.target, (N.Attr, N.Name)):
            said = self.flag_phrase(s.target, not s.value.value)
            if said is not None:
                self.seen.add("Bool")
                return [Step(_cap(f"{said}."))]
        return [Step(_cap(f"set {self.expr(s.target)} to {self.expr(s.value)}."))]

    def _AddTo(self, s: N.AddTo) -> list[Step]:
        if s.sign < 0:
            return [Step(f"Subtract {self.sub(s.amount)} from {self.expr(s.target)}.")]
        return [Step(f"Add {self.sub(s.amount)} to {self.expr(s.target)}.")]

    def _Place(self, s: N.Place) -> list[Step]:
        if s.space is None:
            return [Step(f"Take {self.expr(s.piece)} off the board.")]
        return [Step(f"Place {self.expr(s.piece)} on {self.expr(s.space)}.")]

    def _Give(self, s: N.Give) -> list[Step]:
        return [Step(f"Give {self.expr(s.piece)} to {self.expr(s.holder)} to carry.")]

    def _RemoveSide(self, s: N.RemoveSide) -> list[Step]:
        return [Step(_cap(f"{self.expr(s.side)} takes no part in this game."))]

    def _Drop(self, s: N.Drop) -> list[Step]:
        return [Step(f"Drop {self.expr(s.piece)}: it lies loose where it was carried.")]

    def _Put(self, s: N.Put) -> list[Step]:
        if s.bottom:
            return [Step(f"Put {self.expr(s.cards)} at the bottom of {self.expr(s.zone)}, under its cards.")]
        return [Step(f"Put {self.expr(s.cards)} into {self.expr(s.zone)}.")]

    def _DrawCard(self, s: N.DrawCard) -> list[Step]:
        name = self.local(s.name)
        return [Step(f"Draw the top card of {self.expr(s.source)} into {self.expr(s.dest)} and call it {name}.")]

    def _Shuffle(self, s: N.Shuffle) -> list[Step]:
        return [Step(f"Shuffle {self.expr(s.zone)}.")]

    def _Roll(self, s: N.Roll) -> list[Step]:
        who, you = self.subject(s.side)
        faces = self.vocab.dice.get(s.die)
        shown = f", a die with the faces {_words([self.expr(f) for f in faces])}" if faces else ""
        return [Step(_cap(f"{who} {'roll' if you else 'rolls'} {mark('rule', s.die)}{shown}; "
                          f"call the result {self.local(s.name)}."))]

    def _Answer(self, s: N.Answer) -> list[Step]:
        who, you = self.subject(s.side)
        return [Step(_cap(f"{who} {'answer' if you else 'answers'} the question {self.expr(s.question)} "
                          f"; an agent is right {self.expr(s.chance)} times in 100; call it "
                          f"{self.local(s.name)} when the answer is right."))]

    def _Reset(self, s: N.Reset) -> list[Step]:
        return [Step(f"Set every {mark('rule', s.name)} back to its starting value.")]

    def _PoolDice(self, d: N.PoolDice) -> str:
        one = isinstance(d.count, N.Num) and d.count.value == 1
        return f"{self.expr(d.count)} {mark('rule', d.die)} {'die' if one else 'dice'}"

    def _RollPool(self, s: N.RollPool) -> list[Step]:
        who, you = self.subject(s.side)
        dice = _words([self.node(d) for d in s.dice])
        return [Step(_cap(f"{who} {'roll' if you else 'rolls'} {dice}, one at a time; "
                          f"call the list of faces rolled {self.local(s.name)}."))]

    def _Win(self, s: N.Win) -> list[Step]:
        who, you = self.subject(s.side)
        return [Step(_cap(f"{who} {'win' if you else 'wins'} the game: the game ends."))]

    def _Tie(self, s: N.Tie) -> list[Step]:
        return [Step("The game ends in a draw: nobody wins.")]

    def _PlayCard(self, s: N.PlayCard) -> list[Step]:
        who, you = self.subject(s.side)
        if isinstance(s.card, N.Attr) and s.card.name.endswith("_effect"):
            part = s.card.name[:-len("_effect")].replace("_", " ")
            return [Step(_cap(f"{who} {'play' if you else 'plays'} the {part} effect of "
                              f"{self.expr(s.card.obj)}."))]
        return [Step(_cap(f"{who} {'play' if you else 'plays'} {self.expr(s.card)}: "
                          "the card's effect happens."))]

    def _Choose(self, s: N.Choose) -> list[Step]:
        who, you = self.subject(s.side)
        name = self.local(s.name)
        verb = ("may choose" if s.optional else ("choose" if you else "chooses"))
        text = f"{who} {verb} {name} from {self.expr(s.options)}{self.label(s.label)}"
        return [Step(_cap(text + (", or nothing." if s.optional else ".")))]

    def _DoAction(self, s: N.DoAction) -> list[Step]:
        who, you = self.subject(s.side)
        actions = _words([self.said(name, ()) or mark("action", name) for name, _span in s.actions], "or")
        verb = "may take" if s.optional else ("take" if you else "takes")
        return [Step(_cap(f"{who} {verb} one action: {actions}."))]

    def _Log(self, s: N.Log) -> list[Step]:
        return [Step(f"Announce {self.expr(s.text)}.")]

    def _Return(self, s: N.Return) -> list[Step]:
        if s.value is None:
            return [Step("Stop here: this rule ends.")]
        return [Step(f"Stop here: this rule ends, giving {self.expr(s.value)}.")]

    def _Break(self, s: N.Break) -> list[Step]:
        return [Step("Leave the loop.")]

    def _Pass(self, s: N.Pass) -> list[Step]:
        return [Step("Do nothing.")]

    def _CallStmt(self, s: N.CallStmt) -> list[Step]:
        return [Step(_cap(f"{self._call_text(s.func, s.args)}."))]

    def _If(self, s: N.If) -> list[Step]:
        (cond, body), *rest = s.branches
        more = [Step(f"Otherwise, if {self.cond(c)}:", self.steps(b)) for c, b in rest]
        if s.other:
            more.append(Step("Otherwise:", self.steps(s.other)))
        return [Step(f"If {self.cond(cond)}:", self.steps(body), tuple(more))]

    def _ForEach(self, s: N.ForEach) -> list[Step]:
        return [Step(f"For each {self.local(s.name)} in {self.expr(s.items)}:", self.steps(s.body))]

    def _Repeat(self, s: N.Repeat) -> list[Step]:
        once = isinstance(s.count, N.Num) and s.count.value == 1
        return [Step("Once:" if once else f"Repeat {self.sub(s.count)} times:", self.steps(s.body))]

    def _While(self, s: N.While) -> list[Step]:
        return [Step(f"As long as {self.cond(s.cond)}:", self.steps(s.body))]

    def _Loop(self, s: N.Loop) -> list[Step]:
        return [Step("Repeat until the game ends or a step leaves the loop:", self.steps(s.body))]

    def _Menu(self, s: N.Menu) -> list[Step]:
        who, you = self.subject(s.side)
        options = tuple(self.node(o) for o in s.options)
        return [Step(_cap(f"{who} {'pick' if you else 'picks'} one of these options:"), options)]

    def _MenuOption(self, o: N.MenuOption) -> Step:
        guard = f", offered only if {self.cond(o.guard)}" if o.guard is not None else ""
        return Step(f"{self.expr(o.label)}{guard}:", self.steps(o.body))

    def _call_text(self, func: str, args, as_value: bool = False) -> str:
        """A call in English: the callee's phrase with the arguments filled in; without a phrase,
        its name as words and the arguments after it."""
        said = self.said(func, args)
        if said is not None:
            return said
        name = self.vocab.name(func) or mark("rule", func)
        given = _words([self.arg(a) for a in args])
        if as_value and len(args) == 1 and re.match(r"(is|has|can|may|must)_", func):
            return f"{self.arg(args[0])} {name}"   # `is_lagged(p)`: "p is lagged"
        if as_value:
            joint = " " if plain(name).endswith(" of") else " of "
            return f"the {name}" + (f"{joint}{given}" if args else "")
        return f"do {name}" + (f", with {given}" if args else "")

    def _is_procedure(self, name: str) -> bool:
        return name in self.vocab.procedures

    # -------------------------------------------------------------- declarations
    def _GameFile(self, g: N.GameFile) -> Step:
        return Step("The rules of the game:", tuple(self.decl(d) for d in g.decls))

    def _Meta(self, d: N.Meta) -> Step:
        return Step(_META.get(d.key, f"{d.key.capitalize()}: {{v}}.").format(v=_quote(d.value)))

    def _Sides(self, d: N.Sides) -> Step:
        return Step(f"The sides are {_words([mark('lit', s) for s in d.names])}, in turn order.")

    def _Option(self, d: N.Option) -> Step:
        choices = _words([self.expr(c) for c in d.choices], "or")
        return Step(f"The option {mark('rule', d.name)} is set before the game: {choices}; "
                    f"{self.expr(d.default)} unless the players choose otherwise.")

    def _Die(self, d: N.Die) -> Step:
        faces = ", ".join(self.expr(f) for f in d.faces)
        return Step(f"The die {mark('rule', d.name)} has the faces {faces}; each face is as likely as "
                    "any other.")

    def _Kinds(self, d: N.Kinds) -> Step:
        return Step(f"The kinds of pieces are {_words([mark('lit', k) for k in d.names])}.")

    def _Placement(self, p: N.Placement) -> Step:
        if not p.spaces:
            return Step(f"one {mark('lit', p.kind)} that starts off the board")
        many = "one " if p.count == 1 else f"{p.count} "
        return Step(f"{many}{mark('lit', p.kind)}{'' if p.count == 1 else 's'} starting on "
                    f"{_words([mark('lit', s) for s in p.spaces])}")

    def _Pieces(self, d: N.Pieces) -> Step:
        return Step(f"The pieces of {mark('lit', d.side)}:", tuple(self.node(p) for p in d.placements))

    def _NeutralPieces(self, d: N.NeutralPieces) -> Step:
        names = _words([mark("lit", n) for n in d.names])
        return Step(f"{names} {'belongs' if len(d.names) == 1 else 'belong'} to no side and "
                    f"{'starts' if len(d.names) == 1 else 'start'} off the board.")

    def own_phrase(self, d) -> str:
        """A declaration's own phrase, its parameters shown as the names they are."""
        params = getattr(d, "params", ()) or tuple(b.name for b in getattr(d, "binders", ()))
        values = {p: self.local(p) for p in params}
        phrase = d.phrase
        while phrase.otherwise is not None:   # the general case: the last line
            phrase = phrase.otherwise
        for hole in HOLE.findall(phrase.text):
            values.setdefault(hole.strip(), "a " + (d.scope or "side") if getattr(d, "scope", None) else "it")
        self.seen.add("Phrase")
        return fill(phrase.text, values)

    def _Var(self, d: N.Var) -> Step:
        if d.type and d.type.startswith("list:"):
            kind = f", a list of {d.type[5:]}s,"
        else:
            kind = {"flag": " that is true or false", "number": " that is a number"}.get(
                d.type, f", a {d.type}" if d.type else "")
        owner = {"side": "Each side has its own", "piece": "Each piece has its own",
                 "space": "Each space of the board has its own"}.get(d.scope, "The game keeps one")
        bounds = [f"below {self.expr(d.low)}"] if d.low is not None else []
        bounds += [f"above {self.expr(d.high)}"] if d.high is not None else []
        limits = f"; it never goes {_words(bounds, 'nor')}" if bounds else ""
        said = f", which says whether {self.own_phrase(d)}" if d.phrase and d.name in self.vocab.flags else \
            (f": {self.own_phrase(d)}" if d.phrase else "")
        return Step(f"{owner} {mark('rule', d.name)}{kind}{said}, changed during play; it starts as "
                    f"{self.expr(d.init)}{limits}.")

    def _Const(self, d: N.Const) -> Step:
        values = [self.expr(v) for v in d.values]
        name = mark('rule', d.name) + (f", {self.own_phrase(d)}," if d.phrase else "")
        if d.scope == "side" and len(values) == len(self.vocab.sides):
            each = "; ".join(f"{mark('lit', s)}: {v}" for s, v in zip(self.vocab.sides, values))
            return Step(f"{_cap(name)} is fixed for each side: {each}.")
        if d.scope:
            return Step(f"{_cap(name)} is fixed per {d.scope}: {_words(values)}, in order.")
        return Step(f"{_cap(name)} is always {_words(values)}.")

    def _Zone(self, d: N.Zone) -> Step:
        if d.shared:
            return Step(f"All sides share one zone of cards {mark('rule', d.name)}: "
                        f"{_VISIBILITY.get(d.visibility, d.visibility)}.")
        return Step(f"Each side has a zone of cards {mark('rule', d.name)}: "
                    f"{_VISIBILITY.get(d.visibility, d.visibility)}.")

    def _Phase(self, d: N.Phase) -> Step:
        return Step(f"{mark('rule', d.name)} is a phase: a span of play that effects can last until the end "
                    f"of, wait for, or be limited to.")

    def _During(self, s: N.During) -> list[Step]:
        return [Step(f"This is one {mark('rule', s.phase)}:", self.steps(s.body))]

    def _Timed(self, s: N.Timed) -> list[Step]:
        head = {"until": "Until the end of this {}", "end_this": "At the end of this {}",
                "start_next": "At the start of the next {}", "start_each": "At the start of each {}",
                "end_each": "At the end of each {}", "once": "Once per {}"}[s.kind]
        return [Step(head.format(mark("rule", s.phase)) + ":", self.steps(s.body))]

    def _Window(self, d: N.Window) -> Step:
        said = f", {self.own_phrase(d)}," if d.phrase else ""
        return Step(f"{_cap(mark('rule', d.name))}{said} is a window: a moment the rules open for a side to "
                    f"answer with a card whose window is {_quote(words(d.name))}.")

    def _Procedure(self, d: N.Procedure) -> Step:
        if d.phrase is not None:
            return Step(f"{_cap(mark('rule', d.name))}: {_cap(self.own_phrase(d))}. Step by step:",
                        self.steps(d.body))
        given = f", given {_words([self.local(p) for p in d.params])}" if d.params else ""
        return Step(f"To do {mark('rule', d.name)}{given}:", self.steps(d.body))

    def _Function(self, d: N.Function) -> Step:
        if d.phrase is not None:
            verb = "when" if d.phrase.negative is not None else "is"
            return Step(f"{_cap(mark('rule', d.name))}: {self.own_phrase(d)} {verb} {self.cond(d.body)}.")
        given = f" of {_words([self.local(p) for p in d.params])}" if d.params else ""
        return Step(f"The {mark('rule', d.name)}{given} means {self.cond(d.body)}.")

    def _Binder(self, b: N.Binder) -> Step:
        return Step(f"{self.local(b.name)} among {self.expr(b.domain)}")

    def _Action(self, d: N.Action) -> Step:
        me = self.with_me()
        text = f"When you take the action {mark('action', d.name)}"
        if d.phrase is not None:
            text += f", {self.own_phrase(d)},"
        label = me.expr(d.label) if d.label is not None else None
        if d.binders:
            text += ", choosing " + _words([me.node(b).text for b in d.binders]) + \
                ": each possible choice is one option; with none, the action cannot be taken."
            text += (f" Each option is shown as {label}." if label else "") + " Then:"
        else:
            text += (f", shown as {label}" if label else "") + ":"
        return Step(text, me.steps(d.body))

    def _Flow(self, d: N.Flow) -> Step:
        return Step("Once set up, the game runs as follows:", self.steps(d.body))

    def _Setup(self, d: N.Setup) -> Step:
        return Step("To set up the game, the pieces already standing on their start spaces:",
                    self.steps(d.body))

    def _Event(self, d: N.Event) -> Step:
        carries = f", carrying {_words([f'a {k}' for k in d.kinds])}" if d.kinds else ""
        return Step(f"{mark('lit', d.name)} is an event the rules announce{carries}.")

    def _Score(self, d: N.Score) -> Step:
        who = self.local(d.side)
        return Step(f"Not a rule of the game: how well a side {who} stands, as agents that look ahead judge "
                    f"it, is {self.expr(d.body)}.")

    def _Statistic(self, d: N.Statistic) -> Step:
        who = self.local(d.side)
        what = (f"how many times side {who} takes the action {mark('lit', d.counts)}" if d.counts is not None
                else f"{self.expr(d.body)} when the game ends")
        return Step(f"Not a rule of the game: the figure \"{d.name}\" that `lumos simulate` reports for each "
                    f"side {who} is {what}.")

    def _DefaultAgents(self, d: N.DefaultAgents) -> Step:
        who = (f"the {d.specs[0]} agent plays every side" if len(d.specs) == 1 else
               "; ".join(f"the {a} agent plays {s}" for a, s in zip(d.specs, self.vocab.sides)))
        return Step(f"Not a rule of the game: when a simulation is not told which agents play, {who}.")

    def _Announce(self, s: N.Announce) -> list[Step]:
        args = f", with {_words([self.expr(a) for a in s.args])}" if s.args else ""
        return [Step(f"Announce the event {mark('lit', s.event)}{args}: the rules that wait for it run now.")]

    def _Trigger(self, d: N.Trigger) -> Step:
        params = [self.local(p) for p in d.params]
        pattern = _EVENTS.get(d.event)
        if pattern is not None and len(params) == 2:
            event = pattern.format(*params)
        else:
            event = f"the event {mark('lit', d.event)} happens" + (f", with {_words(params)}" if params else "")
        cond = f" and {self.cond(d.cond)}" if d.cond is not None else ""
        return Step(f"Whenever {event}{cond}, at once:", self.steps(d.body))

    def _Anytime(self, d: N.Anytime) -> Step:
        who = self.local(d.side)
        cond = f", while {self.cond(d.cond)}" if d.cond is not None else ""
        return Step(f"At any time: whenever the game waits for a decision of a side {who}{cond}, "
                    f"{who} may also choose “{d.name}”, which does this, then the same decision is asked "
                    "again:", self.steps(d.body))

    # -------------------------------------------------------------- team files
    def _Team(self, d: N.Team) -> Step:
        parts = tuple(self.node(x) for x in d.fields + d.groups + d.rules)
        return Step("A team may be given as a team file, in YAML, that names the team under “team” and holds, "
                    "checked before the game starts:", parts)

    def _TeamField(self, f: N.TeamField) -> Step:
        kind = f", a {f.type}," if f.type else ""
        choices = f", one of {_words([self.expr(c) for c in f.choices], 'or')}" if f.choices else ""
        default = f"; {self.expr(f.default)} if the file does not say" if f.default is not None else \
            "; the file must say it"
        shared = " Every team of one game must give the same value." if f.shared else ""
        return Step(f"{mark('lit', f.name)}{kind}{choices}{default}. It becomes the side's "
                    f"{mark('lit', f.name)}; without a team file, {self.expr(f.default) if f.default else 'nothing'}."
                    f"{shared}")

    def _TeamGroup(self, g: N.TeamGroup) -> Step:
        which = f"cards for which {self.cond(g.cond)}" if g.cond is not None else "cards of the game"
        return Step(f"under {self.local(g.name)}: the names of {which}; they are put into the side's "
                    f"{mark('rule', g.zone)} before the setup.")

    def _TeamRequire(self, r: N.TeamRequire) -> Step:
        where = f", reported at {self.local(r.at)}" if r.at else ""
        if r.var is not None:
            return Step(f"For each {self.local(r.var)} among {self.expr(r.domain)}: {self.cond(r.cond)}; "
                        f"otherwise the check says {self.expr(r.message)} at that card.")
        return Step(f"The team must keep: {self.cond(r.cond)}; otherwise the check says "
                    f"{self.expr(r.message)}{where}.")


def card_english(english: "English", effect=None, condition=None, effects: dict | None = None) -> str:
    """A card's English as plain text: when it can be played, then what it does (its effect and
    each `..._effect` part). The reference, `lumos explain` and the language server show this.

    `english` renders the game's names (`English(Vocabulary(decls, board))`); `me` is the side
    playing the card."""
    me = english if english.me else english.with_me()
    parts = []
    if condition is not None:
        parts.append("Playable when " + plain(me.cond(condition)) + ".")
    if effect:
        parts.append(to_text(me.steps(effect)))
    for key, body in (effects or {}).items():
        part = key[:-len("_effect")] if key.endswith("_effect") else key
        parts.append(f"{words(part).title()} effect:\n" + to_text(me.steps(body), 3))
    return "\n".join(parts)


def english_sources(fields: dict) -> dict[str, str]:
    """The fields of a card whose text is in the language: `condition`, `effect` and each
    `..._effect` part, when written."""
    return {k: v for k, v in fields.items()
            if (k in ("effect", "condition") or k.endswith("_effect")) and isinstance(v, str) and v.strip()}


def card_fields_english(english: "English", fields: dict, origin=None) -> str:
    """A card's English from its YAML fields, parsed here (the reference, `lumos explain`, the
    text checks and the language server all start from the fields). `origin` places the
    parsed texts (lumos.compiler.origin.Origin) for error messages; a broken text raises
    the compiler's LumosError."""
    from lumos.compiler.astdata import text_ast     # the compiler's ASTs of the same texts, when it built them
    from lumos.compiler.origin import Origin
    origin = origin or Origin("<card>")
    parts = {k: text_ast(v, "condition" if k == "condition" else "effect", origin)
             for k, v in english_sources(fields).items()}
    return card_english(english, parts.get("effect"), parts.get("condition"),
                        {k: v for k, v in parts.items() if k.endswith("_effect")})


def node_classes() -> list[type]:
    """Every concrete node class of the language (compiler/nodes.py)."""
    abstract = {N.Node, N.Expr, N.Stmt, N.Decl}
    return [c for c in vars(N).values()
            if isinstance(c, type) and issubclass(c, N.Node) and c not in abstract and c.__module__ == N.__name__]


def missing_renderings() -> list[str]:
    """Names of node classes that English cannot render."""
    return [c.__name__ for c in node_classes() if not hasattr(English, "_" + c.__name__)]


# Code in the English: an identifier with an underscore, a call `name(`, a `{template}`, an
# operator, a parenthesis, Python's True / False. Quoted designer's words are not looked at
# for parentheses, but a `{` left in them is a template that was not filled.
_LEAK = re.compile(r"[A-Za-z0-9]_[A-Za-z0-9]|\b[a-z_][a-z0-9_]*\(|[{}]|==|!=|<=|>=|=|\s[<>+*/%×]\s|"
                   r"\bTrue\b|\bFalse\b|[()\[\]]")


def leaks(text: str) -> list[str]:
    """The pieces of code a rendering shows its reader (empty when it reads as prose).

    >>> leaks("Do boost_action(you, “shoot”, 1).")
    ['boost_action(', ')']
    >>> leaks("Your Shoot rolls gain 1 Success until the end of this Game Sequence.")
    []
    """
    text = plain(text)
    quoted = re.sub("“[^”]*”", lambda m: re.sub(r"[()\[\]]", "", m.group(0)), text)
    return [m.group(0) for m in _LEAK.finditer(quoted)]


def placeholder_in(text: str) -> str | None:
    """What in a rendering looks unrendered (a Python `None`, a node's repr, a marker), or None.

    Quoted texts of the game are left out: they are the designer's words."""
    found = _LEFTOVER.search(re.sub("“[^”]*”", "", text))
    return found.group(0) if found else None
