"""Checked AST of a game + its board + its cards -> CompiledGame (the IR the interpreter runs).

Checking and lowering happen in one walk: each construct is resolved (names,
kinds, arity) and turned into closures and instructions; every problem goes to
the sink, so one run reports them all. Functions and procedures are specialised
per argument kinds (designers write no type annotations), and anything never
reached from the flow, setup, actions or cards is still checked and reported as
unused.
"""
from __future__ import annotations

import re
from typing import Any

from lumos.compiler import nodes as N
from lumos.compiler.fused import _listing, specialised
from lumos.compiler.lower_expr import ExprLowering, _const
from lumos.compiler.lower_stmt import StmtLowering
from lumos.compiler.lower_team import TeamLowering
from lumos.compiler.lower_timed import TimedLowering
from lumos.compiler.scope import LocalScope, Symbol, compatible, describe, unify
from lumos.diagnostics import DiagnosticSink, Span, did_you_mean
from lumos.interpreter.program import ActionInfo, PieceInfo, Proc, RuleRecord

_VALUE_TYPES = {bool: "flag", int: "number", str: "text"}


_SIMPLE_HOLE = re.compile(r"[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*")
_KEYWORDS = {"true", "false", "none", "not", "and", "or", "my", "if", "reach"}


def _simple_hole(hole: str, origin):
    """`{name}` or `{name.attr}` in a label: build the nodes directly, without the parser."""
    if not _SIMPLE_HOLE.fullmatch(hole) or hole.split(".")[0] in _KEYWORDS:
        return None
    parts = hole.split(".")
    node = N.Name(origin.span(1, 1, 1, 1 + len(parts[0])), parts[0])
    col = 1 + len(parts[0])
    for part in parts[1:]:
        col += 1 + len(part)
        node = N.Attr(origin.span(1, 1, 1, col), node, part)
    return node


def _state_column(field: str, k: int):
    """A getter for a `var ... per piece|side|space`: column k of the state's pv, sv or xv table."""
    if field == "pv":
        fn = lambda m, i: m.st.pv[k][i]  # noqa: E731
    elif field == "xv":
        fn = lambda m, i: m.st.xv[k][i]  # noqa: E731
    elif field == "cv":
        fn = lambda m, i: m.st.cv[k][i]  # noqa: E731
    else:
        fn = lambda m, i: m.st.sv[k][i]  # noqa: E731
    fn.column = (field, k)
    return fn


def _piece_space(m, p):
    return m.space_of(p)


_piece_space.piece_space = True


def _inline(get, text):
    """A getter with its text for the specialised back end: text(v, h) -> the Python expression
    of get(m, v) for a variable v that is not none (h: a free name for an intermediate value)."""
    get.inline = text
    return get


def _table(values: tuple):
    """A getter for an attribute that never changes: one tuple indexed by the entity."""
    fn = lambda m, i: values[i]  # noqa: E731
    fn.table = values
    return fn


class Lowerer(ExprLowering, StmtLowering, TeamLowering, TimedLowering):
    def __init__(self, game: N.GameFile, board, sink: DiagnosticSink, path: str):
        self.game, self.board, self.sink, self.path = game, board, sink, path
        self.symbols: dict[str, Symbol] = {}
        self.attributes: dict[str, dict[str, Any]] = {}
        self.settable: dict[str, dict[str, tuple]] = {}
        self.procs: list[Proc | None] = []
        self.instances: dict[tuple, tuple] = {}
        self.actions: list[ActionInfo | None] = []
        self.action_ids: dict[str, int] = {}
        self.globals: list[tuple[str, Any]] = []
        self.side_vars: list[tuple[str, tuple]] = []
        self.piece_vars: list[tuple[str, Any]] = []
        self.space_vars: list[tuple[str, Any]] = []   # `var NAME per space`: (name, starting value)
        self.card_state: list[tuple[str, Any]] = []   # `var NAME per card`: (name, starting value)
        self.rules: list[RuleRecord] = []
        self.sides: tuple[str, ...] = ()
        self.kinds: list[str] = []
        self.pieces: list[PieceInfo] = []
        self.zones: list[tuple[str, str]] = []
        self.dice: dict[str, tuple[int, ...]] = {}
        self.shared_zones: set[int] = set()   # indices into self.zones of zones shared by all sides
        self.limits: dict[tuple, tuple] = {}   # ("g"|"sv"|"pv", index) -> (lowest, highest)
        self.card_vars: list[tuple] = []       # ("g"|"sv"|"pv", index, holds a list, declared visibility)
        self.var_types: dict[tuple, str] = {}   # ("g"|"sv"|"pv", index) -> kind of value
        self.die_types: dict[str, str] = {}   # die -> the kind of its faces: number or text
        self.options: dict[str, tuple] = {}
        self.option_slots: dict[str, int] = {}
        self.meta: dict[str, str] = {}
        self.trigger_decls: list = []
        self.anytime_decls: list = []
        self.score_decls: list = []     # `score of s = ...` (one per game)
        self.user_events: dict[str, tuple] = {}   # event -> (kinds, span) of `event` declarations
        self.starts: dict[int, int] = {}   # space -> pieces starting on it
        self.inlining: list[str] = []
        self.functions_used: set[str] = set()
        self.local = LocalScope()
        self.code: list = []
        self.spans: list = []
        self.loops: list = []
        self.return_types: list = []

    # ------------------------------------------------------------ declarations
    def declare(self, name: str, what: str, typ: str, value, span: Span) -> None:
        if name in self.symbols and self.symbols[name].what not in ("space",):
            first = self.symbols[name].span
            where = f" on line {first.line}" if first else \
                {"region": " as a region of the board", "builtin": " by the language"}.get(
                    self.symbols[name].what, " by the language")
            if first and first.file != span.file:
                where += f" of {first.file.replace(chr(92), '/').rsplit('/', 1)[-1]}"
            self.sink.add("E206", f"`{name}` is already declared{where}", span, "give it another name")
            return
        self.symbols[name] = Symbol(name, what, typ, value, span)

    def declare_all(self) -> None:
        if self.board is not None:
            for i, name in enumerate(self.board.spaces):
                self.symbols[name] = Symbol(name, "space", "space", i, None, used=True)
            for name, members in self.board.regions.items():
                self.symbols[name] = Symbol(name, "region", "list:space", tuple(sorted(members)), None, used=True)
        decls = self.game.decls
        for d in decls:
            if isinstance(d, N.Sides):
                self.sides = d.names
                for i, s in enumerate(d.names):
                    self.declare(s, "side", "side", i, d.span)
        if not self.sides:
            self.sink.add("E211", "the game declares no sides", Span(self.path, 1, 1),
                          "add a line such as `sides red, blue`")
            self.sides = ("side",)
        self.current_slot = len(self.globals)
        self.var_types[("g", self.current_slot)] = "side"
        self.globals.append(("current", 0))
        self.symbols["current"] = Symbol("current", "var", "side", 0, None, used=True)
        # the sides removed from play (`remove SIDE from play`), as a sorted tuple of side numbers
        self.out_slot = len(self.globals)
        self.globals.append(("_out_of_play", ()))
        for d in decls:  # kinds first, so pieces may be declared before them
            if isinstance(d, N.Kinds):
                self.d_Kinds(d)
        for d in decls:
            if isinstance(d, N.Kinds):
                self.rules.append(RuleRecord("kinds", ", ".join(d.names), d.sources, d.span))
                continue
            getter = getattr(self, "d_" + type(d).__name__, None)
            if getter is not None:
                getter(d)
            if not isinstance(d, (N.Meta,)):
                self.rules.append(RuleRecord(type(d).__name__.lower(), getattr(d, "name", "") or
                                             ", ".join(getattr(d, "names", ()) or ()), d.sources, d.span))
        self.declare_team_fields()   # after the vars: a team field may fill a `var ... per side`
        n = len(self.pieces)
        self.symbols["pieces"] = Symbol("pieces", "builtin", "list:piece", tuple(range(n)), None, used=True)
        self.symbols["sides"] = Symbol("sides", "sides", "list:side", tuple(range(len(self.sides))), None, used=True)
        self.symbols["cards"] = Symbol("cards", "cards", "list:card", None, None, used=True)
        self.symbols["spaces"] = Symbol("spaces", "builtin", "list:space",
                                        tuple(range(len(self.board.spaces))) if self.board else (), None, used=True)
        self.build_attributes()

    def d_Sides(self, d):
        pass

    def d_Meta(self, d):
        self.meta[d.key] = d.value

    def d_Option(self, d):
        default = self.literal(d.default)
        choices = tuple(self.literal(c) for c in d.choices)
        if default not in choices:
            self.sink.add("E210", f"the default {default!r} of option `{d.name}` is not one of its choices",
                          d.default.span, f"choices: {', '.join(map(str, choices))}")
        slot = len(self.globals)
        self.globals.append((d.name, default))
        self.options[d.name] = (default, choices)
        self.option_slots[d.name] = slot
        self.declare(d.name, "option", _VALUE_TYPES.get(type(default), "any"), slot, d.span)

    def literal(self, e, lists: bool = False):
        """The fixed value `e` writes; with `lists` (a `const`), a list of fixed values too, as a tuple."""
        if lists and isinstance(e, N.ListLit):
            return tuple(self.literal(i, True) for i in e.items)
        if isinstance(e, (N.Num, N.Str, N.Bool)):
            return e.value
        if isinstance(e, N.Neg) and isinstance(e.operand, N.Num):
            return -e.operand.value
        if isinstance(e, N.NoneLit):
            return None
        if isinstance(e, N.Name):
            sym = self.symbols.get(e.name)
            if sym is not None and sym.what in ("side", "kind", "region", "space", "piece"):
                sym.used = True
                return sym.value
        self.sink.add("E210", "expected a fixed value here (a number, a text, true/false or a declared name)",
                      e.span, "")
        return None

    def literal_type(self, e) -> str:
        if isinstance(e, N.ListLit):
            if not e.items:
                return "list:any"   # `[]`: a list of nothing, compared with anything
            typ = "none"
            for item in e.items:
                t = self.literal_type(item)
                if not compatible(typ, t):
                    self.sink.add("E203", f"the items of a list are of one kind: {describe(t)} among "
                                  f"{describe(typ)[2:] if describe(typ).startswith('a ') else describe(typ)}s",
                                  item.span, "write a list of spaces, or of numbers, or of texts, ...")
                    return "list:any"
                typ = unify(typ, t)
            return "list:" + typ
        if isinstance(e, N.Name) and e.name in self.symbols:
            return self.symbols[e.name].type
        if isinstance(e, N.NoneLit):
            return "none"
        return _VALUE_TYPES.get(type(self.literal(e)), "any")

    def d_Die(self, d):
        faces = tuple(self.literal(f) for f in d.faces)
        kinds = {_VALUE_TYPES.get(type(f), "any") for f in faces}
        if not kinds <= {"number", "text"} or len(kinds) > 1:
            self.sink.add("E203", f"the faces of die `{d.name}` must be all numbers or all texts",
                          d.span, 'write `faces 1, 2, 3` or `faces "hit", "hit", "blank"`')
        self.dice[d.name] = faces
        self.die_types[d.name] = kinds.pop() if len(kinds) == 1 else "any"
        self.declare(d.name, "die", "die", faces, d.span)

    def d_Kinds(self, d):
        for k in d.names:
            self.kinds.append(k)
            self.declare(k, "kind", "kind", k, d.span)

    def d_Pieces(self, d):
        if d.side not in self.sides:
            self.sink.add("E201", f"unknown side `{d.side}`", d.span, did_you_mean(d.side, self.sides))
            return
        side = self.sides.index(d.side)
        counter: dict[str, int] = {}
        for pl in d.placements:
            if pl.kind not in self.kinds:
                self.sink.add("E201", f"unknown kind `{pl.kind}`", pl.span,
                              did_you_mean(pl.kind, self.kinds) or "declare it with `kinds ...`")
                continue
            if not pl.spaces and pl.count > 1:
                self.sink.add("E220", f"`{pl.kind} off` declares one piece: write one line per piece", pl.span,
                              f"to keep a value on each space of the board instead (whose mark, which disc), "
                              f"declare `var {pl.kind}: side per space = none` and read it as `{pl.kind} of s`")
                continue
            starts = pl.spaces or (None,)
            for sp in starts:
                start = -1
                if sp is not None:
                    if self.board is None or sp not in self.board.index:
                        self.sink.add("E210", f"the board has no space `{sp}`", pl.span,
                                      did_you_mean(sp, self.board.spaces if self.board else []))
                    else:
                        start = self.board.index[sp]
                        self.check_room(start, pl.span)
                counter[pl.kind] = counter.get(pl.kind, 0) + 1
                total = sum(len(p.spaces) or 1 for p in d.placements if p.kind == pl.kind)
                label = f"{d.side} {pl.kind}" + (f" {counter[pl.kind]}" if total > 1 else "")
                self.pieces.append(PieceInfo(label, side, pl.kind, start))

    def check_room(self, space: int, span) -> None:
        """More pieces starting on a space than the board lets stand there is an error."""
        self.starts[space] = self.starts.get(space, 0) + 1
        room = self.board.holds(space)
        if room and self.starts[space] == room + 1:
            self.sink.add("E210", f"more pieces start on `{self.board.spaces[space]}` than it holds ({room})",
                          span, "give each piece its own start, or raise the space's `capacity` in the board file")

    def d_NeutralPieces(self, d):
        for name in d.names:
            self.declare(name, "piece", "piece", len(self.pieces), d.span)
            self.pieces.append(PieceInfo(name, -1, name, -1))

    def d_Var(self, d):
        listed = isinstance(d.init, N.ListLit) or (d.type or "").startswith("list:")
        init = self.literal(d.init, lists=listed)
        typ = d.type or self.literal_type(d.init)
        if listed and not self.list_var(d, typ, init):
            return
        if typ == "none":
            self.sink.add("E210", f"`{d.name}` starts as none: say what it holds", d.span,
                          f"write `var {d.name}: piece = none` (or side, space, card, ...)")
            typ = "any"
        if typ == "die" and init is not None and init not in self.dice:
            self.sink.add("E209", f"unknown die `{init}`", d.init.span,
                          did_you_mean(str(init), list(self.dice)) or
                          f"dice: {', '.join(self.dice) or 'none declared'}; or start it as `none`")
        limits = self.var_limits(d, typ, init)
        if d.scope is None:
            where = ("g", len(self.globals))
            self.declare(d.name, "var", typ, len(self.globals), d.span)
            self.globals.append((d.name, init))
        elif d.scope == "side":
            where = ("sv", len(self.side_vars))
            self.side_vars.append((d.name, tuple(init for _ in self.sides)))
            self.side_attr_decl(d.name, ("sv", len(self.side_vars) - 1, typ), d.span)
        elif d.scope in ("space", "card"):
            if typ in ("card", "list:card"):
                self.sink.add("E221", f"a variable per {d.scope} cannot hold cards; `{d.name}` holds {describe(typ)}",
                              d.span, "keep cards in a zone (`zone NAME shared public`), or hold a side, a piece, "
                              f"a number, a flag or a text per {d.scope}")
                return
            if d.scope == "card":
                where = ("cv", len(self.card_state))
                self.card_state.append((d.name, init))
                self.card_attr_decl(d.name, ("cv", len(self.card_state) - 1, typ), d.span)
                if limits is not None:
                    self.limits[where] = limits
                self.var_types[where] = typ
                return
            where = ("xv", len(self.space_vars))
            self.space_vars.append((d.name, init))
            self.space_attr_decl(d.name, ("xv", len(self.space_vars) - 1, typ), d.span)
        else:
            where = ("pv", len(self.piece_vars))
            self.piece_vars.append((d.name, init))
            self.piece_attr_decl(d.name, ("pv", len(self.piece_vars) - 1, typ), d.span)
        if limits is not None:
            self.limits[where] = limits
        self.var_types[where] = typ
        self.card_var(d, typ, where)

    def list_var(self, d, typ, init) -> bool:
        """A variable that holds a list: its kind is written (`var faces: list of text = []`) and it
        starts as a list of that kind."""
        if d.type is None:
            self.sink.add("E225", f"say what the list `{d.name}` holds", d.init.span,
                          f"write `var {d.name}: list of text = []` (or number, side, piece, space, card, ...)")
            return False
        if not d.type.startswith("list:"):
            self.sink.add("E203", f"`{d.name}` holds {describe(d.type)}, not a list", d.init.span,
                          f"write `var {d.name}: list of {d.type} = []`")
            return False
        if init is not None and not isinstance(init, tuple):
            self.sink.add("E203", f"`{d.name}` holds {describe(d.type)}: start it as a list, e.g. `[]`",
                          d.init.span, "")
            return False
        if isinstance(d.init, N.ListLit) and d.init.items and \
                not compatible(self.literal_type(d.init), d.type):
            self.sink.add("E203", f"`{d.name}` holds {describe(d.type)}, not {describe(self.literal_type(d.init))}",
                          d.init.span, "")
            return False
        return True

    def card_var(self, d, typ, where):
        """Record a variable that holds cards, with the visibility it declares (or None: the
        cards are seen by whoever sees where they lie; see interpreter/visibility.py)."""
        if d.visibility is not None and typ not in ("card", "list:card"):
            self.sink.add("E210", f"only a variable of cards has a visibility; `{d.name}` holds {describe(typ)}",
                          d.span, f"write `var {d.name}: card {d.visibility} = none`, or remove `{d.visibility}`")
            return
        if d.visibility == "owner" and d.scope is None:
            self.sink.add("E210", f"`{d.name}` belongs to no side, so it has no owner to show its card to", d.span,
                          f"write `var {d.name}: card per side owner = none`, or make it `hidden` or `public`")
            return
        if typ in ("card", "list:card"):
            self.card_vars.append((where[0], where[1], typ == "list:card", d.visibility))

    def var_limits(self, d, typ, init):
        """(lowest, highest) of a `var ... min A max B` (either may be None), or None without limits."""
        if d.low is None and d.high is None:
            return None
        low = self.literal(d.low) if d.low is not None else None
        high = self.literal(d.high) if d.high is not None else None
        for node, value in ((d.low, low), (d.high, high)):
            if node is not None and (not isinstance(value, int) or isinstance(value, bool)):
                self.sink.add("E203", f"a limit of `{d.name}` must be a whole number", node.span,
                              f"write e.g. `var {d.name} = 0 max 3`")
                return None
        if typ not in ("number", "any"):
            self.sink.add("E203", f"only a number can have limits; `{d.name}` holds {describe(typ)}", d.span,
                          "remove `min` / `max`")
            return None
        if low is not None and high is not None and low > high:
            self.sink.add("E210", f"the limits of `{d.name}` are the wrong way round: min {low} is above max {high}",
                          d.low.span, f"write `min {high} max {low}`")
            return None
        if isinstance(init, int) and ((low is not None and init < low) or (high is not None and init > high)):
            self.sink.add("E210", f"`{d.name}` starts at {init}, outside its limits", d.init.span,
                          f"start it between {low if low is not None else 'any number'} and "
                          f"{high if high is not None else 'any number'}")
        return low, high

    def side_attr_decl(self, name, entry, span):
        table = self.settable.setdefault("side", {})
        if name in table or name in self.side_consts or name in {z for z, _ in self.zones} or \
                name in ("pieces", "name"):
            self.sink.add("E206", f"sides already have an attribute `{name}`", span, "give it another name")
            return
        table[name] = entry

    def piece_attr_decl(self, name, entry, span):
        table = self.settable.setdefault("piece", {})
        if name in table or name in ("side", "kind", "space", "start", "holder", "name"):
            self.sink.add("E206", f"pieces already have an attribute `{name}`", span, "give it another name")
            return
        table[name] = entry

    def space_attr_decl(self, name, entry, span):
        """A `var ... per space` is an attribute of every space; it may not hide one the board gives."""
        table = self.settable.setdefault("space", {})
        board_keys = {k for attrs in (self.board.attrs if self.board is not None else ()) for k in attrs}
        if name in table or name in board_keys or name == "name":
            self.sink.add("E206", f"spaces already have an attribute `{name}`", span,
                          "give it another name" + (" (the board file gives every space this attribute)"
                                                    if name in board_keys else ""))
            return
        table[name] = entry

    def card_attr_decl(self, name, entry, span):
        """A `var ... per card` is an attribute of every card: the card's own state (charges, uses)."""
        table = self.settable.setdefault("card", {})
        fields = set(getattr(self, "card_field_types", {})) | {"name", "type", "deck"}
        if name in table or name in fields:
            self.sink.add("E206", f"cards already have an attribute `{name}`", span,
                          "give it another name" + (" (a field of the game's card schema)" if name in fields else ""))
            return
        table[name] = entry

    side_consts: dict = {}

    def d_Const(self, d):
        if d.scope == "space":
            self.sink.add("E222", f"`{d.name}` cannot be a constant per space", d.span,
                          "a value of each space that never changes is an attribute in the board file "
                          "(`attrs`, a legend entry), read as `s.NAME`; one that changes is `var NAME per space`")
            return
        if d.scope == "side":
            if len(d.values) != len(self.sides):
                self.sink.add("E204", f"`{d.name}` needs one value per side ({len(self.sides)}), "
                              f"not {len(d.values)}", d.span, f"sides in order: {', '.join(self.sides)}")
            values = tuple(self.literal(v) for v in d.values)
            typ = self.literal_type(d.values[0]) if d.values else "any"
            if self.side_consts is Lowerer.side_consts:
                self.side_consts = {}
            self.side_consts[d.name] = (values, typ)
        else:
            if len(d.values) != 1:
                self.sink.add("E204", f"`{d.name}` takes one value", d.span,
                              f"a list is written in brackets: `const {d.name} = [a, b, c]`")
            self.declare(d.name, "const", self.literal_type(d.values[0]), self.literal(d.values[0], True), d.span)

    def d_Zone(self, d):
        if d.shared:
            if d.visibility == "owner":
                self.sink.add("E210", f"the shared zone `{d.name}` has no owner: it is `public` or `hidden`",
                              d.span, f"write `zone {d.name} shared public`, or `zone {d.name} per side owner`")
            self.shared_zones.add(len(self.zones))
            self.declare(d.name, "zone", "zone", len(self.zones) * len(self.sides), d.span)
        self.zones.append((d.name, d.visibility))

    def d_Window(self, d):
        self.declare(d.name, "window", "text", d.name, d.span)

    def d_Procedure(self, d):
        self.declare(d.name, "procedure", "procedure", d, d.span)

    def d_Function(self, d):
        self.declare(d.name, "function", "function", d, d.span)

    def d_Action(self, d):
        self.declare(d.name, "action", "action", d, d.span)

    # Events the generic verbs announce, with the kinds of what they carry.
    EVENTS = {"drawn": ("card", "zone"), "put": ("card", "zone"), "placed": ("piece", "space"),
              "given": ("piece", "piece")}

    def d_Trigger(self, d):
        self.trigger_decls.append(d)

    def d_Anytime(self, d):
        self.anytime_decls.append(d)

    def d_Score(self, d):
        if self.score_decls:
            self.sink.add("E270", f"the game already declares its score on line {self.score_decls[0].span.line}",
                          d.span, "a game has one `score of s = ...`: combine the two into one expression")
            return
        self.score_decls.append(d)

    def lower_score(self):
        """`score of s = EXPR` -> (fn(machine, locals) -> number, slots), or None when undeclared."""
        if not self.score_decls:
            return None
        d = self.score_decls[0]
        saved = self.enter(((d.side, "side"),))
        try:
            fn = self.expect(d.body, "number", "a side's score")[0]
            nslots = len(self.local.slot_names)
        finally:
            self.leave(saved)
        return fn, nslots

    def lower_anytime(self) -> tuple:
        """`anytime LABEL by s if COND:` -> AnytimeInfo(label, procedure of s, COND, slots)."""
        from lumos.interpreter.program import AnytimeInfo
        out, seen = [], {}
        for d in self.anytime_decls:
            if d.name in seen:
                self.sink.add("E206", f"an `anytime` rule labelled \"{d.name}\" is already declared on line "
                              f"{seen[d.name].line}", d.span, "give each `anytime` rule its own label")
                continue
            seen[d.name] = d.span
            cond, nslots, quiet = None, 1, None
            if d.cond is not None:
                saved = self.enter(((d.side, "side"),))
                self.scratch = True   # on locals made per test (Machine.with_anytime)
                try:
                    cond = self.expect(d.cond, "flag", "the condition of `anytime`")[0]
                    nslots = len(self.local.slot_names)
                    if specialised():
                        from lumos.compiler.anytime_guard import lower_quiet
                        quiet = lower_quiet(self, d.cond, d.side)
                finally:
                    self.leave(saved)
            proc, _ = self.new_proc(f"anytime {d.name}", "anytime", ((d.side, "side"),), d.body, d.span, d.sources)
            out.append(AnytimeInfo(d.name, proc, cond, nslots, d.span, d.sources[0] if d.sources else "", quiet))
        return tuple(out)

    def d_Event(self, d):
        """`event NAME(KIND, ...)`: an event of the game's own, announced by `announce`."""
        if d.name in self.EVENTS:
            self.sink.add("E206", f"`{d.name}` is already an event: the verbs announce it themselves", d.span,
                          "give the event another name")
        elif d.name in self.user_events:
            first = self.user_events[d.name][1]
            self.sink.add("E206", f"the event `{d.name}` is already declared on line {first.line}", d.span,
                          "give it another name")
        else:
            self.user_events[d.name] = (d.kinds, d.span)

    def event_kinds(self, name: str):
        """The kinds an event carries (a verb's event or one the game declares), or None."""
        sig = self.EVENTS.get(name)
        if sig is None and name in self.user_events:
            sig = self.user_events[name][0]
        return sig

    def events_hint(self, name: str) -> str:
        known = list(self.EVENTS) + list(self.user_events)
        return did_you_mean(name, known) or \
            f"events: {', '.join(known)}; declare one of the game's own with `event {name}(piece)`"

    def lower_triggers(self) -> dict:
        """`when EVENT(a, b) if COND:` -> per event, a tuple of (condition, procedure)."""
        out: dict[str, list] = {}
        for d in self.trigger_decls:
            sig = self.event_kinds(d.event)
            if sig is None:
                self.sink.add("E209", f"unknown event `{d.event}`", d.span, self.events_hint(d.event))
                continue
            if len(d.params) != len(sig):
                self.sink.add("E204", f"`{d.event}` gives {len(sig)} value(s), not {len(d.params)}", d.span,
                              f"when {d.event}({', '.join(sig)})")
                continue
            index = len(self.procs)
            self.procs.append(None)
            saved = self.enter(tuple(zip(d.params, sig)))
            try:
                cond = self.expect(d.cond, "flag", "the trigger's condition")[0] if d.cond is not None else None
                self.block(d.body)
                proc = Proc(f"when {d.event}", "trigger", d.params, len(self.local.slot_names),
                            tuple(self.code), tuple(self.spans), d.span, d.sources, tuple(self.local.slot_names),
                            self.local.card_slots(), tuple(self.local.slot_types))
            finally:
                self.leave(saved)
            self.procs[index] = proc
            out.setdefault(d.event, []).append((cond, index))
        return {k: tuple(v) for k, v in out.items()}

    # ------------------------------------------------------------ attribute tables
    def build_attributes(self) -> None:
        ns = len(self.sides)
        pieces = self.pieces
        p_side = tuple(p.side if p.side >= 0 else None for p in pieces)
        p_kind = tuple(p.kind for p in pieces)
        p_start = tuple(p.start if p.start >= 0 else None for p in pieces)
        joined = specialised()   # the reference back end keeps its getters as they were
        piece = {
            "side": (_table(p_side), "side"),
            "kind": (_table(p_kind), "kind"),
            "space": (_piece_space, "space"),
            "start": (_table(p_start), "space"),
            "holder": (_inline(lambda m, p: None if (h := m.st.holder[p]) < 0 else h,
                               lambda v, h: f"(None if ({h} := m.st.holder[{v}]) < 0 else {h})"), "piece"),
            "name": (_table(tuple(p.name for p in pieces)) if joined else (lambda m, p: m.cg.pieces[p].name), "text"),
        }
        for name, (kind, k, typ) in self.settable.get("piece", {}).items():
            piece[name] = (_state_column("pv", k), typ)
        side_pieces = tuple(tuple(i for i, p in enumerate(pieces) if p.side == s) for s in range(ns))
        side = {
            "pieces": (_table(side_pieces) if joined else (lambda m, s: side_pieces[s]), "list:piece"),
            "name": (_table(tuple(self.sides)) if joined else (lambda m, s: m.cg.sides[s]), "text"),
        }
        for name, (kind, k, typ) in self.settable.get("side", {}).items():
            side[name] = (_state_column("sv", k), typ)
        for name, (values, typ) in self.side_consts.items():
            side[name] = (_table(values), typ)
        for zi, (name, _vis) in enumerate(self.zones):
            if zi in self.shared_zones:
                continue
            base = zi * ns
            side[name] = (_inline((lambda m, s, base=base: base + s), lambda v, _h, base=base: f"({base} + {v})"), "zone")
        space: dict[str, Any] = {}
        if self.board is not None:
            keys: dict[str, str] = {}
            for attrs in self.board.attrs:
                for key, value in attrs.items():
                    keys[key] = unify(keys.get(key, "none"), _VALUE_TYPES.get(type(value), "any"))
            for key, typ in keys.items():
                column = tuple(a.get(key) for a in self.board.attrs)
                space[key] = (_table(column), typ)
            space["name"] = (_table(tuple(self.board.spaces)) if joined else (lambda m, s: m.cg.board.spaces[s]), "text")
        for name, (kind, k, typ) in self.settable.get("space", {}).items():
            space[name] = (_state_column("xv", k), typ)
        card = self.card_attributes()
        for name, (kind, k, typ) in self.settable.get("card", {}).items():
            card[name] = (_state_column("cv", k), typ)
        self.attributes.update({"piece": piece, "side": side, "space": space, "card": card})

    def card_attributes(self):
        fields = {"name": "text", "type": "text", "deck": "side"}
        fields.update(getattr(self, "card_field_types", {}))
        table = {}
        for name, typ in fields.items():
            if name == "deck":
                table[name] = (_inline(lambda m, c: None if (d := m.cg.cards[c].deck) < 0 else d,
                                       lambda v, d: f"(None if ({d} := m.cg.cards[{v}].deck) < 0 else {d})"), "side")
            elif typ == "question":   # a question on the card: the value names the card and the field
                table[name] = ((lambda m, c, name=name: None if m.cg.cards[c].fields.get(name) is None
                                else (c, name)), typ)
            elif typ.startswith("list:"):   # a JSON array: a list value of the language, a tuple like all lists
                table[name] = ((lambda m, c, name=name: None if (v := m.cg.cards[c].fields.get(name)) is None
                                else tuple(v)), typ)
            else:
                table[name] = ((lambda m, c, name=name: m.cg.cards[c].fields.get(name)), typ)
        return table

    def card_columns(self, fields_per_card: list) -> None:
        """Once the cards are known (before any card text is lowered): each card field reads
        from one tuple indexed by the card, like the other attributes that never change."""
        table = self.attributes.get("card", {})
        state = self.settable.get("card", {})
        for name, (get, typ) in list(table.items()):
            if name in state:
                continue   # a `var ... per card` changes during play: read from the state
            if typ == "question":
                table[name] = (_table(tuple(None if f.get(name) is None else (i, name)
                                            for i, f in enumerate(fields_per_card))), typ)
            elif name != "deck":
                table[name] = (_table(tuple([f.get(name) for f in fields_per_card])), typ)

    # ------------------------------------------------------------ bodies
    def enter(self, params: tuple[tuple[str, str], ...]):
        saved = (self.local, self.code, self.spans, self.loops, self.return_types, getattr(self, "where_depth", 0),
                 getattr(self, "scratch", False))
        self.where_depth = 0   # a new body is inside no `where`
        # True while lowering what runs on locals of its own that nothing keeps afterwards (a
        # card's condition, a function called inside itself, an action's `with` lists, an
        # `anytime` condition): there, what a search or a filter leaves in its slots is never
        # read, so `... is empty` may stop at the first item (see ExprLowering.e_IsEmpty)
        self.scratch = False
        self.local = LocalScope()
        for name, typ in params:
            self.local.slot(name, typ)
        self.code, self.spans, self.loops, self.return_types = [], [], [], []
        return saved

    def leave(self, saved):
        self.local, self.code, self.spans, self.loops, self.return_types, self.where_depth, self.scratch = saved

    def new_proc(self, name, kind, params, body, span, sources) -> int:
        index = len(self.procs)
        self.procs.append(None)
        saved = self.enter(params)
        try:
            self.block(body)
            proc = Proc(name, kind, tuple(p for p, _ in params), len(self.local.slot_names),
                        tuple(self.code), tuple(self.spans), span, sources, tuple(self.local.slot_names),
                        self.local.card_slots(), tuple(self.local.slot_types))
            rtype = "none"
            for t in self.return_types:
                rtype = unify(rtype, t)
        finally:
            self.leave(saved)
        self.procs[index] = proc
        return index, rtype

    def procedure_instance(self, decl: N.Procedure, types: tuple[str, ...]):
        key = ("proc", decl.name, types)
        if key in self.instances:
            return self.instances[key]
        cell, rtype = [len(self.procs)], ["any"]
        self.instances[key] = (cell, rtype)
        index, rt = self.new_proc(decl.name, "procedure", tuple(zip(decl.params, types)), decl.body,
                                  decl.span, decl.sources)
        cell[0] = index
        rtype[0] = rt
        return cell, rtype

    def function_instance(self, decl: N.Function, types: tuple[str, ...]):
        key = ("func", decl.name, types)
        if key in self.instances:
            fn, rtype, nslots = self.instances[key]
            return fn, rtype[0], nslots
        fn, rtype, nslots = [lambda m, L: None], ["any"], [len(decl.params)]
        self.instances[key] = (fn, rtype, nslots)
        saved = self.enter(tuple(zip(decl.params, types)))
        self.scratch = True   # its locals are a list made per call (Machine.call_nested)
        try:
            body, rt = self.expr(decl.body)
            nslots[0] = len(self.local.slot_names)
        finally:
            self.leave(saved)
        fn[0] = body
        rtype[0] = rt
        return fn, rt, nslots

    def action_index(self, sym: Symbol) -> int:
        if sym.name in self.action_ids:
            return self.action_ids[sym.name]
        decl: N.Action = sym.value
        index = len(self.actions)
        self.action_ids[sym.name] = index
        self.actions.append(None)
        saved = self.enter((("me", "side"),) + tuple((b.name, "none") for b in decl.binders))
        try:
            domains, kinds = [], []
            self.scratch = True   # the lists are listed on locals made per listing (enumerate_)
            for b in decl.binders:
                f, t = self.expr(b.domain)
                from lumos.compiler.scope import element
                el = element(t)
                if el is None:
                    self.sink.add("E203", f"`with {b.name} in` needs a list, not {describe(t)}", b.domain.span, "")
                    el = "any"
                slot = self.local.names[b.name][0]
                self.local.names[b.name] = (slot, el)
                domains.append((f, slot, t == "zone"))
                kinds.append(el)
            self.scratch = False
            label = self.template(decl.label) if decl.label else _const(decl.name.replace("_", " "))
            self.block(decl.body)
            nlocals = len(self.local.slot_names)
            proc = Proc(decl.name, "action", ("me",) + tuple(b.name for b in decl.binders), nlocals,
                        tuple(self.code), tuple(self.spans), decl.span, decl.sources, tuple(self.local.slot_names),
                        self.local.card_slots(), tuple(self.local.slot_types))
        finally:
            self.leave(saved)
        proc_index = len(self.procs)
        self.procs.append(proc)
        nb = len(domains)

        last = nb - 1
        # binder i sits in slot i + 1 (after `me`): the innermost one completes the tuple
        plain = [slot for _f, slot, _z in domains] == list(range(1, nb + 1))

        known: dict = {}   # (tag, first binding) -> {second binding: option tuple}
        # kept only for entities (numbers and flags mix as keys: 1 == True)
        reuse = len(kinds) == 2 and all(k in ("piece", "space", "card", "side", "zone") for k in kinds)

        listing = None
        if specialised() and plain and nb:
            listing = _listing(domains, nlocals, known, reuse, tuple(kinds))

        def enumerate_(m, side, tag=None, out=None):
            """The bindings of the action for `side`; with `out`, (tag, binding) pairs are
            appended to `out` instead (the act instruction's options)."""
            if listing is not None and out is not None and tag is not None:
                return listing(m, side, tag, out)
            L = [None] * nlocals
            L[0] = side
            if out is None:
                out = []
                if nb == 0:
                    return [()]
            elif nb == 0:
                out.append((tag, ()))
                return out
            tagged = tag is not None

            def rec(i):
                if i == nb:
                    out.append((tag, tuple(L[1:1 + nb])) if tagged else tuple(L[1:1 + nb]))
                    return
                f, slot, is_zone = domains[i]
                items = f(m, L)
                if is_zone:
                    items = tuple(m.st.zones[items])
                if i == last and plain:   # the innermost binder: one tuple per item, no call per option
                    if items:
                        if slot == 2 and tagged and reuse:
                            # the same option tuples again (they never change): no allocation
                            # per option once an option has been offered
                            p1 = L[1]
                            row = known.get((tag, p1))
                            if row is None:
                                row = known[tag, p1] = {}
                            out.extend([row.get(x) or row.setdefault(x, (tag, (p1, x))) for x in items])
                        elif slot == 2:
                            p1 = L[1]
                            out.extend([(tag, (p1, x)) for x in items] if tagged else [(p1, x) for x in items])
                        elif slot == 1:
                            out.extend([(tag, (x,)) for x in items] if tagged else [(x,) for x in items])
                        else:
                            prefix = tuple(L[1:slot])
                            out.extend([(tag, prefix + (x,)) for x in items] if tagged else
                                       [prefix + (x,) for x in items])
                    return
                for x in items or ():
                    L[slot] = x
                    rec(i + 1)
            rec(0)
            return out

        if listing is not None:   # the act instruction calls it straight away (ActOp)
            enumerate_.listing = listing

        def label_(m, binding, side=None):
            L = [None] * nlocals
            L[0] = side           # `me` in the label: the side the option is for
            L[1:1 + nb] = binding
            return label(m, L)
        self.actions[index] = ActionInfo(decl.name, proc_index, enumerate_, label_, decl.sources, decl.span,
                                         tuple(b.name for b in decl.binders), tuple(kinds),
                                         frozenset(i for i, k in enumerate(kinds) if k == "card"))
        return index

    def template(self, s: N.Str):
        """A label or log text with `{expression}` holes -> fn(machine, locals) -> str."""
        from lumos.compiler.astdata import text_ast
        from lumos.compiler.origin import Origin
        from lumos.diagnostics import LumosSyntaxError
        parts, text, i = [], s.value, 0
        made: list[int] = []    # slots the holes' expressions made (an inlined call's arguments)
        while i < len(text):
            j = text.find("{", i)
            if j < 0:
                parts.append(_const(text[i:]))
                break
            k = text.find("}", j)
            if k < 0:
                self.sink.add("E212", "a `{` in this text is never closed", s.span, "add `}`")
                break
            if j > i:
                parts.append(_const(text[i:j]))
            hole = text[j + 1:k]
            origin = Origin(s.span.file, s.span.line, s.span.col + 1 + j + 1)
            try:
                node = _simple_hole(hole, origin) or text_ast(hole, "template_expr", origin)
            except LumosSyntaxError as exc:
                self.sink.extend(exc.diagnostics)
                i = k + 1
                continue
            before = len(self.local.slot_names)
            f, t = self.expr(node)
            made += range(before, len(self.local.slot_names))
            parts.append(lambda m, L, f=f, t=t: m.fmt(f(m, L), t))
            if t == "number":
                i = self._agreeing_number(parts, text, k + 1, f)
            else:
                i = k + 1
        if not made:
            return lambda m, L: "".join(p(m, L) for p in parts)
        cleared = tuple(made)

        def text_clearing(m, L):
            # A text is built only when someone reads it (a log being kept, a label shown): the
            # slots its holes wrote go back to none, so a game's state is the same whether or not
            # its texts were built (`log "... {path_zone(path)}"` inlines `path_zone`'s argument
            # into a slot no other code reads). tests/test_log_state.py.
            shown = "".join(p(m, L) for p in parts)
            for slot in cleared:
                L[slot] = None
            return shown
        return text_clearing

    @staticmethod
    def _agreeing_number(parts: list, text: str, end: int, f) -> int:
        """After a number hole, the words up to the next hole agree with the number in the
        text the rules show: "({c.cost} coins)" reads "(1 coin)" for a cost of 1 (as
        lumos.reference.phrases.fill does in the rules reference). Replaces the hole's part
        by one that writes the number and those words; returns where the text goes on."""
        from lumos.compiler.agreement import after_one
        j = text.find("{", end)
        rest = text[end:] if j < 0 else text[end:j]
        one = after_one(rest)
        if one == rest or (j >= 0 and rest.endswith(" ") and rest.split()[-1].isalpha()
                            and rest.split()[:-1] == one.split()[:-1]):
            return end          # "power {p} points {q}": the noun right before a hole names that value
        parts[-1] = lambda m, L, f=f: (lambda v: m.fmt(v, "number") + (one if v in (1, -1) else rest))(f(m, L))
        return end + len(rest)
