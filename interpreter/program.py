"""The compiled form the interpreter runs: CompiledGame and its parts (built by the compiler).

A procedure is a flat tuple of instructions with jumps; an instruction is a
callable `op(machine, frame)` made once by the compiler, so the interpreter's hot
loop does no name lookups and no parsing. Everything a game needs to continue
lives in `State` (state.py), never here: a CompiledGame is shared, read-only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from lumos.interpreter.board import Board
from lumos.diagnostics import Span

CHANCE = -1
TERMINAL = -2


@dataclass(frozen=True)
class PieceInfo:
    name: str          # "<side> <kind> <n>" (e.g. "red runner 2"), or a neutral piece's own name
    side: int          # -1 for pieces that belong to no side
    kind: str          # a declared kind, or the piece's own name for neutral pieces
    start: int         # starting space index, or -1


@dataclass(frozen=True)
class CardInfo:
    name: str
    type: str
    deck: int                  # owning side, or -1
    fields: Mapping[str, Any]  # schema defaults filled in
    definition: int            # index of the card definition (shared by its copies)
    span: Span


@dataclass(frozen=True)
class CardDef:
    name: str
    type: str
    fields: Mapping[str, Any]
    effect: int          # procedure index, or -1
    condition: Any       # closure fn(machine, locals) -> bool, or None
    condition_slots: int
    span: Span
    copies: int
    deck: int
    effects: Mapping[str, int] = field(default_factory=dict)  # `..._effect` field -> procedure index


@dataclass(frozen=True)
class Proc:
    name: str
    kind: str                      # procedure | action | setup | flow | effect | trigger
    params: tuple[str, ...]
    nlocals: int
    code: tuple[Callable, ...]
    spans: tuple[Span, ...]        # one per instruction: the rule line that caused it
    span: Span
    sources: tuple[str, ...] = ()
    slot_names: tuple[str, ...] = ()
    card_slots: tuple[tuple[int, bool], ...] = ()   # (slot, holds a list) of the locals that hold cards
    slot_types: tuple[str, ...] = ()   # per local: the kind of value it holds (piece, space, card, number ...)
    # the specialised back end's runs of simple instructions (lumos.compiler.blocks): per
    # instruction, a function running the run that starts there (it returns how many it ran),
    # or the instruction itself; empty: the machine calls `code` one by one
    run: tuple[Callable, ...] = ()


@dataclass(frozen=True)
class ActionInfo:
    name: str
    proc: int
    enumerate: Callable            # fn(machine, side) -> list of binding tuples
    label: Callable                # fn(machine, bindings) -> str
    sources: tuple[str, ...]
    span: Span
    params: tuple[str, ...] = ()   # the binders' names, in binding order
    kinds: tuple[str, ...] = ()    # what each binder holds: piece, space, card, side, zone, number, text
    card_params: frozenset = frozenset()   # positions of the binders that hold cards


@dataclass(frozen=True)
class StatisticInfo:
    """A `statistic` (compiler/statistics.py): a figure of each game that `lumos simulate` reports."""
    title: str
    fn: Any                        # closure fn(machine, locals) -> number or flag, the side in slot 0 (None: a count)
    nslots: int
    kind: str                      # "number", "flag" or "count"
    action: str | None             # the action counted (kind "count")
    section: str = ""              # the rulebook section it cites first
    span: Span | None = None


@dataclass(frozen=True)
class AnytimeInfo:
    """An `anytime` rule: one option added to every decision of a side while `cond` holds."""
    label: str
    proc: int                      # the block, a procedure of one parameter (the side)
    cond: Any                      # closure fn(machine, locals) -> bool with the side in slot 0, or None
    nslots: int                    # the size of the locals `cond` needs
    span: Span
    section: str = ""              # the rulebook section it cites first
    # fn(machine, locals) -> true when the rule cannot add an option at this decision (its guard is
    # false and no rule was just taken: compiler/anytime_guard.py), or None: the specialised back
    # end's test that lets a decision skip Machine.with_anytime
    quiet: Any = None


@dataclass(frozen=True)
class RuleRecord:
    """One rule of the game as the reference and the coverage page see it."""
    kind: str
    name: str
    sources: tuple[str, ...]
    span: Span


@dataclass(frozen=True)
class TeamFieldInfo:
    """A value a team file sets (`field colour: text choices ...`); the rules read it as a side attribute."""
    name: str
    type: str                  # number | flag | text
    choices: tuple[Any, ...]   # empty: any value of the type
    default: Any               # None: the team file must give it
    required: bool
    slot: int                  # its slot in the team's frame of locals
    side_var: int              # index into the side variables (State.sv)
    span: Span
    shared: bool = False       # every team of one game must give the same value


@dataclass(frozen=True)
class TeamGroupInfo:
    """The cards listed under a key of a team file (`group players into roster where ...`)."""
    name: str
    zone: int                  # index into CompiledGame.zones: the side's zone the cards go into
    cond: Any                  # closure fn(machine, locals) -> bool on the card in `it_slot`, or None
    it_slot: int
    cond_span: Span | None     # where the condition is written, quoted in messages
    slot: int
    span: Span


@dataclass(frozen=True)
class TeamRuleInfo:
    """`require ...`: a rule every team must keep."""
    cond: Any                  # closure fn(machine, locals) -> bool
    message: Any               # closure fn(machine, locals) -> str
    var_slot: int              # `require each X in LIST`: the slot of X, or -1
    domain: Any                # closure giving LIST, or None
    at: str | None             # the team file key the problem is reported at (a field or group)
    span: Span


@dataclass(frozen=True)
class TeamInfo:
    """A game's `team` declaration: what a team file holds and the rules it must keep."""
    fields: tuple[TeamFieldInfo, ...]
    groups: tuple[TeamGroupInfo, ...]
    rules: tuple[TeamRuleInfo, ...]
    nslots: int
    span: Span
    sources: tuple[str, ...] = ()


@dataclass(frozen=True)
class CompiledGame:
    id: str
    title: str
    rulebook: str
    sides: tuple[str, ...]
    kinds: tuple[str, ...]
    pieces: tuple[PieceInfo, ...]
    board: Board
    zones: tuple[tuple[str, str], ...]          # (name, visibility); zone id = index * nsides + side
    cards: tuple[CardInfo, ...]
    card_defs: tuple[CardDef, ...]
    globals_init: tuple[Any, ...]
    global_names: tuple[str, ...]
    side_vars_init: tuple[tuple[Any, ...], ...]  # per variable, per side
    side_var_names: tuple[str, ...]
    piece_vars_init: tuple[Any, ...]             # per variable, one value for all pieces
    piece_var_names: tuple[str, ...]
    options: Mapping[str, tuple[Any, tuple[Any, ...]]]
    option_slots: Mapping[str, int]              # option name -> global slot
    dice: Mapping[str, tuple[int, ...]]
    procs: tuple[Proc, ...]
    actions: tuple[ActionInfo, ...]
    setup: int
    flow: int
    rules: tuple[RuleRecord, ...]
    current_slot: int
    source_hash: str = ""
    files: Mapping[str, str] = field(default_factory=dict)  # path -> text, for error rendering
    triggers: Mapping[str, tuple] = field(default_factory=dict)  # event -> ((condition, proc), ...)
    # indices into `zones` of zones shared by all sides: only the first side's id is used
    shared_zones: frozenset = frozenset()
    team: TeamInfo | None = None   # the `team` declaration, if the game has one
    # every number and text the rules and cards write, for the action space's value domains
    vocabulary: tuple = ()
    # ("g" | "sv" | "pv" | "xv", index) -> the kind of value the variable holds (positions name values by it)
    var_types: Mapping[tuple, str] = field(default_factory=dict)
    # variables that hold cards: ("g" | "sv" | "pv", index, holds a list, declared visibility or None)
    card_vars: tuple[tuple[str, int, bool, str | None], ...] = ()
    anytime: tuple[AnytimeInfo, ...] = ()   # `anytime` rules, in declaration order
    anytime_procs: frozenset = frozenset()  # their procedures: no anytime option inside them
    # `score of s = ...`: (fn(machine, locals) -> number, locals' size), the agents' heuristic
    score: tuple | None = None
    statistics: tuple = ()   # `statistic "..." of s ...`: StatisticInfo records, for the simulate summary
    # `default agents: ...`: one agent spec per side, for the commands not told which (None: random)
    default_agents: tuple | None = None
    space_vars_init: tuple[Any, ...] = ()        # `var ... per space`: per variable, one value for all spaces
    space_var_names: tuple[str, ...] = ()
    card_state_init: tuple[Any, ...] = ()        # `var ... per card`: per variable, one value for all cards
    card_state_names: tuple[str, ...] = ()
    # the back end the rules were lowered with (lumos.compiler.fused.BACKENDS): "reference" also
    # runs them with the reference run loop, so both can be compared seed by seed
    backend: str = "specialised"

    @property
    def nsides(self) -> int:
        return len(self.sides)

    def zone_id(self, name: str, side: int) -> int:
        for i, (zname, _vis) in enumerate(self.zones):
            if zname == name:
                return i * len(self.sides) + side
        raise KeyError(name)

    def zone_label(self, zid: int) -> str:
        name, _ = self.zones[zid // len(self.sides)]
        if zid // len(self.sides) in self.shared_zones:
            return name
        return f"{self.sides[zid % len(self.sides)]} {name}"
