"""Lark parse tree -> typed AST (compiler.nodes), every node with its Span.

`Origin` places text that was cut out of another file (an effect string in YAML)
back at its line and column in that file, so errors point into the YAML.
"""
from __future__ import annotations

import ast as _pyast
import re
from dataclasses import replace

from lark import Token, Transformer, Tree

from lumos.compiler import nodes as N
from lumos.compiler.origin import Origin  # noqa: F401 - where it used to live: callers import it from here too
from lumos.compiler.yamlload import MAX_DIGITS
from lumos.diagnostics import Diagnostic, LumosSyntaxError, Span


def _unquote(token: str) -> str:
    q = token[:1]
    if q in ('"', "'") and len(token) >= 2 and token[-1] == q and "\\" not in token and q not in token[1:-1]:
        return token[1:-1]   # no escape and no inner quote: what literal_eval would give, without compiling
    try:
        return _pyast.literal_eval(token)
    except (ValueError, SyntaxError):  # pragma: no cover - the lexer only admits valid strings
        return token[1:-1]


class _Builder(Transformer):
    """Each method takes (meta, children) of one grammar rule and returns its AST node."""

    def __init__(self, origin: Origin):
        super().__init__()
        self.origin = origin

    def _call_userfunc(self, tree, new_children=None):
        # Lark's v_args(meta=True) builds a wrapper on every call; calling directly is
        # several times faster and gives each method the same (meta, children).
        children = new_children if new_children is not None else tree.children
        method = getattr(self, tree.data, None)
        if method is None:
            return self.__default__(tree.data, children, tree.meta)
        return method(tree.meta, children)

    def _transform_tree(self, tree):
        # Lark's version pulls children through a generator per node; a list built
        # directly does the same work (the builder never returns Discard, and a token
        # is kept as it is unless the builder has a method named after its type).
        if self._token_methods:
            own = self._token_methods
            children = [self._transform_tree(c) if isinstance(c, Tree) else
                        (getattr(self, c.type)(c) if isinstance(c, Token) and c.type in own else c)
                        for c in tree.children]
        else:
            children = [self._transform_tree(c) if isinstance(c, Tree) else c for c in tree.children]
        return self._call_userfunc(tree, children)

    def transform(self, tree):
        return self._transform_tree(tree) if isinstance(tree, Tree) else tree

    # -- helpers
    def sp(self, meta) -> Span:
        if getattr(meta, "empty", False) or not hasattr(meta, "line"):
            return self.origin.span(1, 1)
        return self.origin.span(meta.line, meta.column, meta.end_line, meta.end_column)

    def tsp(self, tok: Token) -> Span:
        return self.origin.span(tok.line, tok.column, tok.end_line, tok.end_column)

    @staticmethod
    def _names(children):
        return [c for c in children if isinstance(c, Token) and c.type == "NAME"]

    def _sources(self, children):
        for c in children:
            if isinstance(c, tuple) and c and c[0] == "source":
                return c[1]
        return ()

    # -- start rules
    def game(self, meta, ch):
        return N.GameFile(self.sp(meta), tuple(_attach_phrases([c for c in ch if isinstance(c, (N.Decl, N.Phrase))])))

    def says_decl(self, meta, ch):
        texts = [_unquote(c) for c in ch if isinstance(c, Token) and c.type == "STRING"]
        cond = next((c for c in ch if isinstance(c, N.Expr)), None)
        return N.Phrase(self.tsp(ch[0]), texts[0], texts[1] if len(texts) > 1 else None, cond)

    def effect(self, meta, ch):
        return tuple(c for c in ch if isinstance(c, N.Stmt))

    def condition(self, meta, ch):
        return ch[0]

    def template_expr(self, meta, ch):
        return ch[0]

    # -- declarations
    def source(self, meta, ch):
        return ("source", tuple(_unquote(t) for t in ch))

    def name_list(self, meta, ch):
        return tuple(ch)

    def expr_list(self, meta, ch):
        return tuple(ch)

    def params(self, meta, ch):
        return tuple(str(t) for t in ch if t is not None)

    def block(self, meta, ch):
        return tuple(c for c in ch if isinstance(c, N.Stmt))

    def meta_decl(self, meta, ch):
        value_span = self.tsp(ch[1]) if isinstance(ch[1], Token) else None
        return N.Meta(self.sp(meta), str(ch[0]), _unquote(ch[1]), value_span=value_span)

    def sides_decl(self, meta, ch):
        return N.Sides(self.sp(meta), tuple(map(str, ch[0])), sources=self._sources(ch))

    def option_decl(self, meta, ch):
        return N.Option(self.sp(meta), str(ch[0]), ch[1], ch[2], sources=self._sources(ch))

    def die_decl(self, meta, ch):
        return N.Die(self.sp(meta), str(ch[0]), ch[1], sources=self._sources(ch))

    def kinds_decl(self, meta, ch):
        return N.Kinds(self.sp(meta), tuple(map(str, ch[0])), sources=self._sources(ch))

    def placement(self, meta, ch):
        return N.Placement(self.sp(meta), str(ch[0]), tuple(map(str, ch[1])), len(ch[1]))

    def placement_off(self, meta, ch):
        return N.Placement(self.sp(meta), str(ch[0]), (), 1)

    def placement_offs(self, meta, ch):
        """`mark off, off`: refused when lowered (E220), with the way to say what was meant."""
        return N.Placement(self.sp(meta), str(ch[0]), (), 1 + sum(1 for c in ch[1:] if c == "off"))

    def more_off(self, meta, ch):
        return "off"

    def pieces_decl(self, meta, ch):
        places = tuple(c for c in ch if isinstance(c, N.Placement))
        return N.Pieces(self.sp(meta), str(ch[0]), places, sources=self._sources(ch))

    def piece_decl(self, meta, ch):
        return N.NeutralPieces(self.sp(meta), tuple(map(str, ch[0])), sources=self._sources(ch))

    def type_ann(self, meta, ch):
        return ("type", str(ch[0]))

    def die_type_ann(self, meta, ch):
        return ("type", "die")

    def list_type_ann(self, meta, ch):
        return ("type", "list:" + str(ch[0]))

    def typed_params(self, meta, ch):
        """((name, kind or None), ...) of a procedure's or function's parameters."""
        return tuple(c for c in ch if c is not None)

    def param(self, meta, ch):
        kind = ch[1][1] if len(ch) > 1 and ch[1] is not None else None
        return (str(ch[0]), kind)

    def scope(self, meta, ch):
        return ("scope", str(ch[0]))

    def var_decl(self, meta, ch):
        typ = next((c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "type"), None)
        scope = next((c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "scope"), None)
        init = next(c for c in ch if isinstance(c, N.Expr))
        limits = dict(next((c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "limits"), ()))
        seen = next((c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "visibility"), None)
        return N.Var(self.sp(meta), str(ch[0]), typ, scope, init, limits.get("min"), limits.get("max"), seen,
                     sources=self._sources(ch))

    def var_visibility(self, meta, ch):
        return ("visibility", str(ch[0]))

    def var_limits(self, meta, ch):
        return ("limits", tuple(ch))

    def var_min(self, meta, ch):
        return ("min", ch[0])

    def var_max(self, meta, ch):
        return ("max", ch[0])

    def const_decl(self, meta, ch):
        scope = next((c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "scope"), None)
        values = next(c for c in ch[1:] if isinstance(c, tuple) and (not c or isinstance(c[0], N.Expr)))
        return N.Const(self.sp(meta), str(ch[0]), scope, values, sources=self._sources(ch))

    def zone_decl(self, meta, ch):
        return N.Zone(self.sp(meta), str(ch[0]), str(ch[1]), sources=self._sources(ch))

    def shared_zone_decl(self, meta, ch):
        return N.Zone(self.sp(meta), str(ch[0]), str(ch[1]), True, sources=self._sources(ch))

    def event_decl(self, meta, ch):
        kinds = tuple(str(c) for c in ch[1:] if isinstance(c, Token) and c.type == "TYPE_NAME")
        return N.Event(self.sp(meta), str(ch[0]), kinds, sources=self._sources(ch))

    def phase_decl(self, meta, ch):
        return N.Phase(self.sp(meta), str(ch[0]), sources=self._sources(ch))

    def inline_block(self, meta, ch):
        return tuple(c for c in ch if isinstance(c, N.Stmt))

    def during_stmt(self, meta, ch):
        return N.During(self.sp(meta), str(ch[0]), ch[1])

    def _timed(kind):
        def build(self, meta, ch):
            return N.Timed(self.sp(meta), kind, str(ch[0]), ch[1], self.tsp(ch[0]))
        return build

    until_stmt = _timed("until")
    at_end_this = _timed("end_this")
    at_start_next = _timed("start_next")
    at_start_each = _timed("start_each")
    at_end_each = _timed("end_each")
    once_stmt = _timed("once")
    del _timed

    def window_decl(self, meta, ch):
        return N.Window(self.sp(meta), str(ch[0]), sources=self._sources(ch))

    def proc_decl(self, meta, ch):
        names, kinds = _split_params(ch[1])
        return N.Procedure(self.sp(meta), str(ch[0]), names, ch[-1], kinds, _FOR_CARDS in ch,
                           sources=self._sources(ch))

    def func_decl(self, meta, ch):
        names, kinds = _split_params(ch[1])
        return N.Function(self.sp(meta), str(ch[0]), names, ch[-1], kinds, _FOR_CARDS in ch,
                          sources=self._sources(ch))

    def for_cards(self, meta, ch):
        return _FOR_CARDS

    def binder(self, meta, ch):
        return N.Binder(self.sp(meta), str(ch[0]), ch[1])

    def label_clause(self, meta, ch):
        return N.Str(self.tsp(ch[0]), _unquote(ch[0]))

    def action_decl(self, meta, ch):
        binders = tuple(c for c in ch if isinstance(c, N.Binder))
        label = next((c for c in ch if isinstance(c, N.Str)), None)
        body = tuple(c for c in ch if isinstance(c, N.Stmt))
        return N.Action(self.sp(meta), str(ch[0]), binders, label, body, sources=self._sources(ch))

    def flow_decl(self, meta, ch):
        return N.Flow(self.sp(meta), ch[-1], sources=self._sources(ch))

    def setup_decl(self, meta, ch):
        return N.Setup(self.sp(meta), ch[-1], sources=self._sources(ch))

    def trigger_decl(self, meta, ch):
        cond = next((c for c in ch[2:-1] if isinstance(c, N.Expr)), None)
        return N.Trigger(self.sp(meta), str(ch[0]), ch[1], cond, ch[-1], sources=self._sources(ch))

    def anytime_decl(self, meta, ch):
        cond = next((c for c in ch[2:-1] if isinstance(c, N.Expr)), None)
        return N.Anytime(self.sp(meta), _unquote(ch[0]), str(ch[1]), cond, ch[-1], sources=self._sources(ch))

    def score_decl(self, meta, ch):
        return N.Score(self.sp(meta), str(ch[0]), ch[-1], sources=self._sources(ch))

    def statistic_decl(self, meta, ch):
        last = ch[-1]
        if isinstance(last, N.Expr):
            return N.Statistic(self.sp(meta), _unquote(ch[0]), str(ch[1]), last, None, sources=self._sources(ch))
        return N.Statistic(self.sp(meta), _unquote(ch[0]), str(ch[1]), None, str(last), self.tsp(last),
                           sources=self._sources(ch))

    def default_agents_decl(self, meta, ch):
        specs = [c for c in ch[1:] if isinstance(c, Token) and c.type in ("NAME", "STRING")]
        return N.DefaultAgents(self.sp(meta), str(ch[0]),
                               tuple(_unquote(c) if c.type == "STRING" else str(c) for c in specs),
                               tuple(self.tsp(c) for c in specs), sources=self._sources(ch))

    # -- team
    def team_decl(self, meta, ch):
        items = [c for c in ch if isinstance(c, N.Node)]
        return N.Team(self.sp(meta), tuple(c for c in items if isinstance(c, N.TeamField)),
                      tuple(c for c in items if isinstance(c, N.TeamGroup)),
                      tuple(c for c in items if isinstance(c, N.TeamRequire)), sources=self._sources(ch))

    def team_field(self, meta, ch):
        typ = next((c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "type"), None)
        choices = next((c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "choices"), ())
        default = next((c for c in ch if isinstance(c, N.Expr)), None)
        shared = ("shared", True) in ch
        return N.TeamField(self.sp(meta), str(ch[0]), typ, choices, default, shared)

    def team_shared(self, meta, ch):
        return ("shared", True)

    def team_choices(self, meta, ch):
        return ("choices", tuple(ch[0]))

    def team_group(self, meta, ch):
        return N.TeamGroup(self.sp(meta), str(ch[0]), str(ch[1]), ch[2] if len(ch) > 2 else None)

    def team_require(self, meta, ch):
        at = str(ch[2]) if len(ch) > 2 and ch[2] is not None else None
        return N.TeamRequire(self.sp(meta), ch[0], N.Str(self.tsp(ch[1]), _unquote(ch[1])), at=at)

    def team_at(self, meta, ch):
        return ch[0]

    def team_require_each(self, meta, ch):
        return N.TeamRequire(self.sp(meta), ch[2], N.Str(self.tsp(ch[3]), _unquote(ch[3])),
                             var=str(ch[0]), domain=ch[1])

    # -- statements
    def let_stmt(self, meta, ch):
        return N.Let(self.sp(meta), str(ch[0]), ch[1])

    def set_stmt(self, meta, ch):
        return N.SetVar(self.sp(meta), ch[0], ch[1])

    def add_stmt(self, meta, ch):
        return N.AddTo(self.sp(meta), ch[1], ch[0], 1)

    def sub_stmt(self, meta, ch):
        return N.AddTo(self.sp(meta), ch[1], ch[0], -1)

    def reset_stmt(self, meta, ch):
        return N.Reset(self.sp(meta), str(ch[0]))

    def place_stmt(self, meta, ch):
        return N.Place(self.sp(meta), ch[0], ch[1])

    def place_off_stmt(self, meta, ch):
        return N.Place(self.sp(meta), ch[0], None)

    def give_stmt(self, meta, ch):
        return N.Give(self.sp(meta), ch[0], ch[1])

    def drop_stmt(self, meta, ch):
        return N.Drop(self.sp(meta), ch[0])

    def remove_stmt(self, meta, ch):
        return N.RemoveSide(self.sp(meta), ch[0])

    def put_stmt(self, meta, ch):
        return N.Put(self.sp(meta), ch[0], ch[1])

    def put_bottom_stmt(self, meta, ch):
        return N.Put(self.sp(meta), ch[0], ch[1], True)

    def draw_stmt(self, meta, ch):
        return N.DrawCard(self.sp(meta), str(ch[0]), ch[1], ch[2])

    def shuffle_stmt(self, meta, ch):
        return N.Shuffle(self.sp(meta), ch[0])

    def roll_stmt(self, meta, ch):
        return N.Roll(self.sp(meta), str(ch[0]), str(ch[1]), ch[2])

    def pool_dice(self, meta, ch):
        return N.PoolDice(self.sp(meta), ch[0], str(ch[1]))

    def roll_pool_stmt(self, meta, ch):
        dice = tuple(c for c in ch if isinstance(c, N.PoolDice))
        return N.RollPool(self.sp(meta), str(ch[0]), dice, ch[-1])

    def answer_stmt(self, meta, ch):
        return N.Answer(self.sp(meta), str(ch[0]), ch[1], ch[2], ch[3])

    def win_stmt(self, meta, ch):
        return N.Win(self.sp(meta), ch[0])

    def tie_stmt(self, meta, ch):
        return N.Tie(self.sp(meta))

    def play_stmt(self, meta, ch):
        return N.PlayCard(self.sp(meta), ch[0], ch[1])

    def by(self, meta, ch):
        return ("by", ch[0])

    def label(self, meta, ch):
        return N.Str(self.tsp(ch[0]), _unquote(ch[0]))

    def choose_stmt(self, meta, ch):
        may = bool(ch) and isinstance(ch[0], Token) and ch[0].type == "MAY"
        rest = ch[1:] if may else ch
        side = next((c[1] for c in rest if isinstance(c, tuple) and c and c[0] == "by"), None)
        label = next((c for c in rest[2:] if isinstance(c, N.Str)), None)
        return N.Choose(self.sp(meta), str(rest[0]), rest[1], side, label, may)

    def act_stmt(self, meta, ch):
        may = bool(ch) and isinstance(ch[0], Token) and ch[0].type == "MAY"
        rest = ch[1:] if may else ch
        names = rest[0]
        side = next((c[1] for c in rest if isinstance(c, tuple) and c and c[0] == "by"), None)
        return N.DoAction(self.sp(meta), tuple((str(t), self.tsp(t)) for t in names), side, may)

    def announce_stmt(self, meta, ch):
        return N.Announce(self.sp(meta), str(ch[0]), tuple(c for c in ch[1:] if c is not None))

    def log_stmt(self, meta, ch):
        return N.Log(self.sp(meta), N.Str(self.tsp(ch[0]), _unquote(ch[0])))

    def return_stmt(self, meta, ch):
        return N.Return(self.sp(meta), ch[0] if ch else None)

    def break_stmt(self, meta, ch):
        return N.Break(self.sp(meta))

    def pass_stmt(self, meta, ch):
        return N.Pass(self.sp(meta))

    def call_stmt(self, meta, ch):
        return N.CallStmt(self.sp(meta), str(ch[0]), tuple(c for c in ch[1:] if c is not None))

    def if_stmt(self, meta, ch):
        branches = [(ch[0], ch[1])]
        other = ()
        for c in ch[2:]:
            if isinstance(c, tuple) and c and c[0] == "elif":
                branches.append((c[1], c[2]))
            elif isinstance(c, tuple) and c and c[0] == "else":
                other = c[1]
        return N.If(self.sp(meta), tuple(branches), other)

    def elif_clause(self, meta, ch):
        return ("elif", ch[0], ch[1])

    def else_clause(self, meta, ch):
        return ("else", ch[0])

    def for_stmt(self, meta, ch):
        return N.ForEach(self.sp(meta), str(ch[0]), ch[1], ch[2])

    def repeat_stmt(self, meta, ch):
        return N.Repeat(self.sp(meta), ch[0], ch[1])

    def while_stmt(self, meta, ch):
        return N.While(self.sp(meta), ch[0], ch[1])

    def loop_stmt(self, meta, ch):
        return N.Loop(self.sp(meta), ch[0])

    def menu_option(self, meta, ch):
        label = N.Str(self.tsp(ch[0]), _unquote(ch[0]))
        guard = ch[1] if len(ch) == 3 else None
        return N.MenuOption(self.sp(meta), label, guard, ch[-1])

    def menu_stmt(self, meta, ch):
        return N.Menu(self.sp(meta), ch[0], tuple(c for c in ch[1:] if isinstance(c, N.MenuOption)))

    def target_name(self, meta, ch):
        return N.Name(self.tsp(ch[0]), str(ch[0]))

    def target_attr(self, meta, ch):
        return N.Attr(self.sp(meta), ch[0], str(ch[1]))

    # -- expressions
    def if_expr(self, meta, ch):
        return N.IfExpr(self.sp(meta), ch[0], ch[1], ch[2])

    def where_expr(self, meta, ch):
        return N.Where(self.sp(meta), ch[0], ch[1])

    def where_as_expr(self, meta, ch):
        return N.Where(self.sp(meta), ch[0], ch[2], str(ch[1]))

    def _quantifier(kind):
        def build(self, meta, ch):
            return N.Quantifier(self.sp(meta), kind, str(ch[0]), ch[1], ch[2])
        return build

    any_quantifier = _quantifier("any")
    all_quantifier = _quantifier("all")
    count_quantifier = _quantifier("count")
    del _quantifier

    def count_call(self, meta, ch):
        return N.Call(self.sp(meta), "count", tuple(c for c in ch if c is not None))

    def or_op(self, meta, ch):
        return ch[0] if len(ch) == 1 else N.BoolOp(self.sp(meta), "or", tuple(ch))

    def and_op(self, meta, ch):
        return ch[0] if len(ch) == 1 else N.BoolOp(self.sp(meta), "and", tuple(ch))

    def not_op(self, meta, ch):
        return N.Not(self.sp(meta), ch[0])

    def compare(self, meta, ch):
        return N.Compare(self.sp(meta), str(ch[1]), ch[0], ch[2])

    def is_op(self, meta, ch):
        return N.Compare(self.sp(meta), "is", ch[0], ch[1])

    def is_not_op(self, meta, ch):
        return N.Compare(self.sp(meta), "isnot", ch[0], ch[1])

    def is_empty(self, meta, ch):
        return N.IsEmpty(self.sp(meta), ch[0], False)

    def is_not_empty(self, meta, ch):
        return N.IsEmpty(self.sp(meta), ch[0], True)

    def in_op(self, meta, ch):
        return N.Compare(self.sp(meta), "in", ch[0], ch[1])

    def not_in_op(self, meta, ch):
        return N.Compare(self.sp(meta), "notin", ch[0], ch[1])

    def arith(self, meta, ch):
        if len(ch) == 1:
            return ch[0]
        return N.Arith(self.sp(meta), tuple(str(t) for t in ch[1::2]), tuple(ch[0::2]))

    def neg(self, meta, ch):
        return N.Neg(self.sp(meta), ch[0])

    def of_op(self, meta, ch):
        return N.Attr(self.sp(meta), ch[1], str(ch[0]))

    def my_op(self, meta, ch):
        return N.My(self.sp(meta), str(ch[0]))

    def attr(self, meta, ch):
        return N.Attr(self.sp(meta), ch[0], str(ch[1]))

    def call(self, meta, ch):
        return N.Call(self.sp(meta), str(ch[0]), tuple(c for c in ch[1:] if c is not None))

    def number(self, meta, ch):
        if len(ch[0]) > MAX_DIGITS:   # Python itself refuses to read 4300 digits
            raise LumosSyntaxError(Diagnostic(
                "L106", f"this number is too large: {len(ch[0])} digits, more than {MAX_DIGITS}",
                self.tsp(ch[0]), "numbers in rules are small whole numbers (a count, a score, a limit)"))
        return N.Num(self.sp(meta), int(ch[0]))

    def string(self, meta, ch):
        return N.Str(self.sp(meta), _unquote(ch[0]))

    def true(self, meta, ch):
        return N.Bool(self.sp(meta), True)

    def false(self, meta, ch):
        return N.Bool(self.sp(meta), False)

    def none(self, meta, ch):
        return N.NoneLit(self.sp(meta))

    def name(self, meta, ch):
        return N.Name(self.sp(meta), str(ch[0]))

    def list_lit(self, meta, ch):
        return N.ListLit(self.sp(meta), tuple(c for c in ch if c is not None))

    def reach(self, meta, ch):
        start, link, (kind, count, *came) = ch[0], str(ch[1]), ch[2]
        through = next((c for c in ch[3:] if c[0] == "through"), (None, None, None))
        onto = next((c for c in ch[3:] if c[0] == "onto"), (None, None, None))
        return N.Reach(self.sp(meta), start, link, count, kind != "up_to",
                       through[1], through[2], onto[1], onto[2], kind == "walk", came[0] if came else None)

    def route(self, meta, ch):
        through = ch[3] if len(ch) > 3 and ch[3] is not None else (None, None, None)
        return N.Route(self.sp(meta), ch[0], ch[1], str(ch[2]), through[1], through[2])

    def up_to(self, meta, ch):
        return ("up_to", ch[0])

    def exactly(self, meta, ch):
        return ("exactly", ch[0])

    def exactly_walk(self, meta, ch):
        return ("walk", ch[0])

    def exactly_walk_from(self, meta, ch):
        return ("walk", ch[0], ch[1])

    def reach_through(self, meta, ch):
        return ("through", str(ch[0]), ch[1])

    def reach_onto(self, meta, ch):
        return ("onto", str(ch[0]), ch[1])


# methods named like a token type (upper case): Lark calls them for such tokens
_Builder._token_methods = frozenset(n for n in dir(_Builder) if n[:1].isupper() and callable(getattr(_Builder, n)))


_BUILT: dict = {}   # (id of a cached parse tree, origin) -> (the tree, its AST): nodes never change


def build(tree: Tree, origin: Origin):
    """Transform a parse tree into AST nodes placed at `origin` (the same tree at the same
    place is built once per process: a rules file read by the compiler and then by the
    linter or the reference)."""
    key = (id(tree), origin)
    hit = _BUILT.get(key)
    if hit is not None and hit[0] is tree:
        return hit[1]
    result = _Builder(origin).transform(tree)
    if len(_BUILT) < 4096:
        _BUILT[key] = (tree, result)
    return result


_PHRASED = (N.Function, N.Procedure, N.Action, N.Window, N.Var, N.Const)
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


def _attach_phrases(items: list) -> list:
    """Each `says` line becomes the `phrase` of the declaration right after it (E240, E241)."""
    out, pending = [], []
    for item in items:
        if isinstance(item, N.Phrase):
            if pending and pending[-1].cond is None:
                _says_error(pending[-1], "E240", "two `says` lines in a row, the first without `if`: "
                            "the second would never be used",
                            "keep one `says` line without `if`, the last, below those with `if`")
            pending.append(item)
            continue
        if pending:
            if not isinstance(item, _PHRASED):
                _says_error(pending[0], "E240", f"`says` describes the declaration on the next line, but "
                            f"`{type(item).__name__.lower()}` cannot have one",
                            "put `says` right above a function, procedure, action, window, var or const")
            chain = None
            for phrase in reversed(pending):
                _check_placeholders(phrase, item)
                chain = replace(phrase, otherwise=chain)
            item = replace(item, phrase=chain)
            pending = []
        out.append(item)
    if pending:
        _says_error(pending[0], "E240", "`says` at the end of the file describes nothing",
                    "put `says` right above the declaration it describes")
    return out


def _phrase_params(d) -> tuple[str, ...] | None:
    """The names a declaration's phrase may fill in; None: any one name (the owner of a per-side value)."""
    if isinstance(d, (N.Function, N.Procedure)):
        return d.params
    if isinstance(d, N.Action):
        return tuple(b.name for b in d.binders)
    if isinstance(d, (N.Var, N.Const)) and d.scope:
        return None
    return ()


def _check_placeholders(phrase: N.Phrase, d) -> None:
    allowed = _phrase_params(d)
    if phrase.cond is not None:
        from lumos.diagnostics import did_you_mean
        params = allowed or ()
        if not isinstance(d, (N.Function, N.Procedure)):
            _says_error(phrase, "E242", "`says ... if` chooses a phrase by the arguments of a call, and "
                        f"`{d.name}` takes none", "leave out the `if`")
        for n in _names_in(phrase.cond):
            if n.name not in params:
                raise LumosSyntaxError(Diagnostic(
                    "E242", f"the condition of this `says` names `{n.name}`, which is not a parameter of "
                    f"`{d.name}`", n.span, did_you_mean(n.name, params) or
                    "compare parameters with values written in the call, e.g. `if mode == \"roll\"`"))
    for text in (phrase.text, phrase.negative):
        if text is None:
            continue
        if text.count("{") != text.count("}"):
            _says_error(phrase, "E241", "a `{` or `}` of this phrase is not closed",
                        "write each parameter as `{name}`")
        names = [m.group(1).strip() for m in _PLACEHOLDER.finditer(text)]
        if allowed is None:
            if len(set(names)) > 1:
                _says_error(phrase, "E241", f"the phrase of `{d.name}` names {len(set(names))} owners "
                            f"({', '.join(sorted(set(names)))}); a value per {d.scope} has one",
                            f"write the {d.scope} it belongs to with one name, e.g. `{{{names[0]}}}`")
            continue
        for name in names:
            if name not in allowed:
                from lumos.diagnostics import did_you_mean
                what = f"the parameters of `{d.name}` are {', '.join(allowed)}" if allowed else \
                    f"`{getattr(d, 'name', '')}` has no parameters"
                _says_error(phrase, "E241", f"the phrase names `{{{name}}}`, which is not a parameter: {what}",
                            did_you_mean(name, allowed) or "write a parameter's name in braces, or leave the "
                            "braces out")


def _names_in(node):
    """The `Name` nodes of an expression."""
    from dataclasses import fields
    if isinstance(node, N.Name):
        yield node
    if isinstance(node, N.Node):
        for f in fields(node):
            value = getattr(node, f.name)
            for v in (value if isinstance(value, tuple) else (value,)):
                if isinstance(v, N.Node):
                    yield from _names_in(v)


def _says_error(phrase: N.Phrase, code: str, message: str, hint: str):
    raise LumosSyntaxError(Diagnostic(code, message, phrase.span, hint))


_FOR_CARDS = ("for", "cards")   # the mark of a card vocabulary word (`function f(c) for cards`)


def _split_params(params) -> tuple[tuple[str, ...], tuple]:
    """The names of typed parameters, and their declared kinds (None where none is written)."""
    return tuple(n for n, _ in params), tuple(k for _, k in params)
