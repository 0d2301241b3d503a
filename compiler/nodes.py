"""The typed AST of the rules language: frozen records (dataclasses made quickly, see
lumos.compiler.records), each with a Span.

One class per construct of the grammar. The checker and the lowering dispatch on
the class name (`visit_<ClassName>`), so adding a construct means adding a class
here, a transformer method in build_ast.py and one method per pass.
"""
from __future__ import annotations

from dataclasses import field
from typing import Optional

from lumos.compiler.records import record
from lumos.diagnostics import Span


@record
class Node:
    span: Span = field(compare=False, repr=False)


# ------------------------------------------------------------------ expressions
@record
class Expr(Node):
    pass


@record
class Num(Expr):
    value: int


@record
class Str(Expr):
    value: str


@record
class Bool(Expr):
    value: bool


@record
class NoneLit(Expr):
    pass


@record
class Name(Expr):
    name: str


@record
class Attr(Expr):
    obj: Expr
    name: str


@record
class My(Expr):
    """`my X` — the attribute X of the side `me`."""
    name: str


@record
class Call(Expr):
    func: str
    args: tuple[Expr, ...]


@record
class ListLit(Expr):
    items: tuple[Expr, ...]


@record
class Where(Expr):
    """`S where COND` — the items of S for which COND holds, each bound to `it`
    (`S as NAME where COND`: to NAME too, so a nested condition can still name it)."""
    source: Expr
    cond: Expr
    name: Optional[str] = None


@record
class Quantifier(Expr):
    """`any x in S where COND` (a flag), `all ...` (a flag, true for an empty S),
    `count ...` (a number): COND tested with each item of S named `var`."""
    kind: str   # "any" | "all" | "count"
    var: str
    source: Expr
    cond: Expr


@record
class IfExpr(Expr):
    cond: Expr
    then: Expr
    other: Expr


@record
class BoolOp(Expr):
    op: str  # "and" | "or"
    items: tuple[Expr, ...]


@record
class Not(Expr):
    operand: Expr


@record
class Compare(Expr):
    op: str  # == != < > <= >= is isnot in notin
    left: Expr
    right: Expr


@record
class IsEmpty(Expr):
    operand: Expr
    negated: bool


@record
class Arith(Expr):
    ops: tuple[str, ...]
    items: tuple[Expr, ...]


@record
class Neg(Expr):
    operand: Expr


@record
class Reach(Expr):
    """Spaces reachable from `start` along `link` in 1..count steps (or exactly count).
    `walk`: exactly count steps that may cross the path but never step straight back (nor, at
    the first step, into `came_from`, when the walk goes on from one that arrived from there)."""
    start: Expr
    link: str
    count: Expr
    exact: bool
    through_var: Optional[str]
    through: Optional[Expr]
    onto_var: Optional[str]
    onto: Optional[Expr]
    walk: bool = False
    came_from: Optional[Expr] = None   # a walk going on: its first step never goes back into this space


@record
class Route(Expr):
    """The spaces every shortest path from `start` to `end` along `link` passes (after the start,
    the end included; every space inside meets `through`): the spaces a move surely passed."""
    start: Expr
    end: Expr
    link: str
    through_var: Optional[str]
    through: Optional[Expr]


# ------------------------------------------------------------------ statements
@record
class Stmt(Node):
    pass


@record
class Let(Stmt):
    name: str
    value: Expr


@record
class SetVar(Stmt):
    target: Expr  # Name or Attr
    value: Expr


@record
class AddTo(Stmt):
    target: Expr
    amount: Expr
    sign: int


@record
class Reset(Stmt):
    """`reset boosted`: a `var` back to its starting value, for every side or piece it has."""
    name: str


@record
class Place(Stmt):
    piece: Expr
    space: Optional[Expr]  # None = off the board


@record
class Give(Stmt):
    piece: Expr
    holder: Expr


@record
class Drop(Stmt):
    piece: Expr


@record
class RemoveSide(Stmt):
    """`remove SIDE from play`: the side takes no further part (an unchosen seat)."""
    side: Expr


@record
class Put(Stmt):
    cards: Expr
    zone: Expr
    bottom: bool = False   # `put X at bottom of Z`: under the cards already there


@record
class DrawCard(Stmt):
    name: str
    source: Expr
    dest: Expr


@record
class Shuffle(Stmt):
    zone: Expr


@record
class Roll(Stmt):
    name: str
    die: str
    side: Expr


@record
class PoolDice(Node):
    """`3 orange` in a pool roll: how many dice of which die."""
    count: Expr
    die: str


@record
class RollPool(Stmt):
    """`roll NAME with 2 orange and 1 purple by SIDE`: the list of the faces rolled."""
    name: str
    dice: tuple[PoolDice, ...]
    side: Expr


@record
class Answer(Stmt):
    """`answer NAME to QUESTION by SIDE chance PERCENT`: SIDE answers a question read from a card;
    NAME is true when the answer is right. A chance decision (right with PERCENT in 100) that a
    person at the table settles by typing an answer instead."""
    name: str
    question: Expr
    side: Expr
    chance: Expr


@record
class Win(Stmt):
    side: Expr


@record
class Tie(Stmt):
    pass


@record
class PlayCard(Stmt):
    card: Expr
    side: Expr


@record
class Choose(Stmt):
    name: str
    options: Expr
    side: Optional[Expr]
    label: Optional[Str]
    optional: bool


@record
class DoAction(Stmt):
    actions: tuple[tuple[str, Span], ...]
    side: Optional[Expr]
    optional: bool


@record
class Announce(Stmt):
    """`announce scored(s)`: the `when scored(...)` rules run, as after a verb's own event."""
    event: str
    args: tuple[Expr, ...]


@record
class Log(Stmt):
    text: Str


@record
class Return(Stmt):
    value: Optional[Expr]


@record
class Break(Stmt):
    pass


@record
class Pass(Stmt):
    pass


@record
class CallStmt(Stmt):
    func: str
    args: tuple[Expr, ...]


@record
class If(Stmt):
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    other: tuple[Stmt, ...]


@record
class During(Stmt):
    """`during NAME:` — the block is one NAME: effects waiting for its start run first; at its
    end, the effects waiting for its end run, lasting effects end and `once per` uses are freed."""
    phase: str
    body: tuple[Stmt, ...]


@record
class Timed(Stmt):
    """An effect that lasts or repeats: `until the end of this P:` (its changes to variables are
    undone when P ends), `at the end of this P:` / `at the start of the next P:` (runs once,
    later), `at the start of each P:` / `at the end of each P:` (runs each time, while the card
    stays where it was), `once per P:` (at most once per P, for this card or rule and side)."""
    kind: str     # until | end_this | start_next | start_each | end_each | once
    phase: str
    body: tuple[Stmt, ...]
    phase_span: Span = field(compare=False, repr=False, default=None)


@record
class ForEach(Stmt):
    name: str
    items: Expr
    body: tuple[Stmt, ...]


@record
class Repeat(Stmt):
    count: Expr
    body: tuple[Stmt, ...]


@record
class While(Stmt):
    cond: Expr
    body: tuple[Stmt, ...]


@record
class Loop(Stmt):
    body: tuple[Stmt, ...]


@record
class MenuOption(Node):
    label: Str
    guard: Optional[Expr]
    body: tuple[Stmt, ...]


@record
class Menu(Stmt):
    side: Expr
    options: tuple[MenuOption, ...]


# ------------------------------------------------------------------ declarations
@record
class Decl(Node):
    sources: tuple[str, ...] = field(default=(), kw_only=True)
    # `says "..."` on the line above: the declaration's English (a function, procedure,
    # action, window, variable or constant); read by lumos.reference.english only
    phrase: Optional["Phrase"] = field(default=None, kw_only=True, compare=False, repr=False)


@record
class Phrase(Node):
    """`says "{s} is ahead", "{s} is behind"`: an English template, and that of its negation."""
    text: str
    negative: Optional[str] = None
    cond: Optional[Expr] = None           # `if mode == "roll"`: for calls whose arguments make it true
    otherwise: Optional["Phrase"] = None  # the next `says` line of the same declaration


@record
class Meta(Decl):
    key: str
    value: str
    # where the value (the quoted text) is: a file a header names is reported there
    value_span: Span | None = field(default=None, compare=False, repr=False, kw_only=True)


@record
class Sides(Decl):
    names: tuple[str, ...]


@record
class Option(Decl):
    name: str
    default: Expr
    choices: tuple[Expr, ...]


@record
class Die(Decl):
    name: str
    faces: tuple[Expr, ...]


@record
class Kinds(Decl):
    names: tuple[str, ...]


@record
class Placement(Node):
    kind: str
    spaces: tuple[str, ...]  # empty = starts off the board
    count: int = 1


@record
class Pieces(Decl):
    side: str
    placements: tuple[Placement, ...]


@record
class NeutralPieces(Decl):
    names: tuple[str, ...]


@record
class Var(Decl):
    name: str
    type: Optional[str]
    scope: Optional[str]  # None (global), "side", "piece", "space"
    init: Expr
    low: Optional[Expr] = None    # `min N`: add, subtract and set never go below
    high: Optional[Expr] = None   # `max N`: ... nor above
    visibility: Optional[str] = None   # hidden / owner / public: who sees the cards it holds


@record
class Const(Decl):
    name: str
    scope: Optional[str]
    values: tuple[Expr, ...]


@record
class Zone(Decl):
    name: str
    visibility: str
    shared: bool = False   # `zone NAME shared public`: one zone for all sides, read by its name


@record
class Window(Decl):
    name: str


@record
class Phase(Decl):
    """`phase NAME`: a span of play (a turn, a round, a Game Sequence) the rules mark with
    `during NAME:`, which effects can last until the end of, wait for, or be limited to."""
    name: str


@record
class Event(Decl):
    """`event scored(side, number)`: an event the rules announce, with the kinds it carries."""
    name: str
    kinds: tuple[str, ...]


@record
class Procedure(Decl):
    name: str
    params: tuple[str, ...]
    body: tuple[Stmt, ...]
    kinds: tuple[Optional[str], ...] = ()   # per parameter: its declared kind (`colour: die`) or None
    for_cards: bool = False                 # `for cards`: card vocabulary, used or not by the cards


@record
class Function(Decl):
    name: str
    params: tuple[str, ...]
    body: Expr
    kinds: tuple[Optional[str], ...] = ()
    for_cards: bool = False


@record
class Binder(Node):
    name: str
    domain: Expr


@record
class Action(Decl):
    name: str
    binders: tuple[Binder, ...]
    label: Optional[Str]
    body: tuple[Stmt, ...]


@record
class Flow(Decl):
    body: tuple[Stmt, ...]


@record
class Setup(Decl):
    body: tuple[Stmt, ...]


@record
class Trigger(Decl):
    event: str
    params: tuple[str, ...]
    cond: Optional[Expr]
    body: tuple[Stmt, ...]


@record
class Anytime(Decl):
    """`anytime "take a card" by s if COND:` — offered to side s at each of its decisions."""
    name: str                 # the option's label
    side: str                 # the name the deciding side is bound to in COND and the block
    cond: Optional[Expr]
    body: tuple[Stmt, ...]


@record
class Score(Decl):
    """`score of s = EXPR`: how well side s stands (a number), for agents that look ahead."""
    side: str                 # the name the side is bound to in EXPR
    body: Expr


@record
class Statistic(Decl):
    """`statistic "Goals" of s = EXPR` / `statistic "Shoots" of s counts ACTION`: a figure of each
    game, per side, that `lumos simulate` reports (docs/analysis.md)."""
    name: str                 # the title shown in the summary
    side: str                 # the name the side is bound to in EXPR
    body: Optional[Expr]      # the value at the end of the game (a number or a flag) ...
    counts: Optional[str]     # ... or the action whose takings are counted
    counts_span: Optional[Span] = field(compare=False, repr=False, default=None)


@record
class DefaultAgents(Decl):
    """`default agents: greedy` or one per side: who plays when a command is not told."""
    word: str                 # `agents` (`agent` is refused: E283)
    specs: tuple[str, ...]    # agent specs (`greedy`, `mcts:200`), one, or one per side
    spans: tuple[Span, ...]   # where each spec is written


@record
class GameFile(Node):
    decls: tuple[Decl, ...]


@record
class TeamField(Node):
    """`field NAME: KIND choices A, B = DEFAULT` — a value a team file sets; a side attribute in the rules."""
    name: str
    type: Optional[str]
    choices: tuple[Expr, ...]
    default: Optional[Expr]
    shared: bool = False       # `shared`: every team file of a game gives the same value


@record
class TeamGroup(Node):
    """`group KEY into ZONE where COND` — the cards a team file lists under KEY, put into the side's ZONE."""
    name: str
    zone: str
    cond: Optional[Expr]


@record
class TeamRequire(Node):
    """`require COND else "message" at KEY`, or `require each X in LIST: COND else "message"`."""
    cond: Expr
    message: Str
    var: Optional[str] = None       # `each X in ...`: checked for every item, reported at the item
    domain: Optional[Expr] = None
    at: Optional[str] = None        # the team file key the problem is reported at


@record
class Team(Decl):
    """`team:` — what a team file holds (fields, groups of cards) and the rules a team must keep."""
    fields: tuple[TeamField, ...]
    groups: tuple[TeamGroup, ...]
    rules: tuple[TeamRequire, ...]
