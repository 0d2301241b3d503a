"""The public state API, shaped like OpenSpiel's: who decides, legal options, apply, chance, returns.

>>> # from lumos import load_game
>>> # state = GameState.new(load_game(GAME_ID), seed=1)
>>> # while not state.is_terminal(): state.apply_action(state.legal_actions()[0])
"""
from __future__ import annotations

from typing import Any

from lumos.interpreter.machine import Machine
from lumos.interpreter.program import CHANCE, TERMINAL, CompiledGame
from lumos.interpreter.state import MASK64, Rng, State


class GameState:
    """One game in progress: a shared CompiledGame plus this game's State."""

    __slots__ = ("cg", "st", "events", "machine", "_seen", "_records_of_seen")

    def __init__(self, cg: CompiledGame, st: State, events: list | None = None):
        self.cg, self.st, self.events = cg, st, events
        self.machine = Machine(cg, st, events)
        self._seen = None              # the pending decision whose option records are kept
        self._records_of_seen: list | tuple = ()   # (read only once `_seen` is set)

    @classmethod
    def new(cls, cg: CompiledGame, seed: int = 0, options: dict[str, Any] | None = None,
            log: bool = False, teams: dict[str, dict] | None = None, forced: str = "ask") -> "GameState":
        """A game at its first decision. `teams`: per side name, a checked team file as plain data
        (`lumos.compiler.teams.TeamFile.plain()`): its fields set the side's variables and its
        cards are put into the side's zones before `setup` runs.

        `forced` is the single-option policy: "ask" (the default) offers every decision, even
        one with a single option; "take" takes a forced decision (one option, no `may`) at once,
        as the CLI and the agents' driver do for speed."""
        if forced not in ("ask", "take"):
            raise ValueError(f"forced must be 'ask' or 'take', not {forced!r}")
        if not teams:
            prepared = _prepared_start(cls, cg, options, log, forced)
            if prepared is not None:    # set-up drew nothing from the generator: copy its end
                st = prepared.st.clone()
                st.rng = seed_state(seed)
                return cls(cg, st, None if prepared.events is None else list(prepared.events))
        return cls._set_up(cg, seed, options, log, teams, forced)

    @classmethod
    def _set_up(cls, cg: CompiledGame, seed: int, options, log: bool, teams, forced: str) -> "GameState":
        """A game at its first decision, its set-up run from the start (what `new` copies)."""
        st = initial_state(cg, seed, options)
        st.forced = forced == "take"
        if teams:
            put_teams(cg, st, teams)
        state = cls(cg, st, [] if log else None)
        m = state.machine
        m.call(cg.flow, [])
        if cg.setup >= 0:
            m.call(cg.setup, [])
        m.run()
        return state

    # ---------------------------------------------------------- who decides
    def current_player(self) -> int:
        if self.st.result is not None:
            return TERMINAL
        return self.st.pending["side"]

    def is_terminal(self) -> bool:
        return self.st.result is not None

    def is_chance_node(self) -> bool:
        return self.st.result is None and self.st.pending["side"] == CHANCE

    def returns(self) -> list[float]:
        return list(self.st.result) if self.st.result is not None else [0.0] * self.cg.nsides

    def winner(self) -> int | None:
        """The winning side, or None (draw or not over)."""
        if self.st.result is None:
            return None
        best = max(self.st.result)
        tops = [i for i, r in enumerate(self.st.result) if r == best]
        return tops[0] if len(tops) == 1 and best > 0 else None

    def sides_in_play(self) -> list[int]:
        """The sides still seated: every side but those the rules removed (`remove SIDE from play`)."""
        gone = self.st.g[self.cg.global_names.index("_out_of_play")]
        return [i for i in range(self.cg.nsides) if i not in gone]

    # ---------------------------------------------------------- options
    def legal_actions(self) -> list[int]:
        if self.st.result is not None:
            return []
        n = len(self.st.pending["options"])
        # a copy of a kept list: about half the time of list(range(n)), asked at every decision
        return _COUNTING[n].copy() if n < _COUNTED else list(range(n))

    def action_labels(self) -> list[str]:
        """The options' labels, unique within the decision."""
        labels = self.machine.labels()
        if len(set(labels)) == len(labels):
            return labels
        from lumos.interpreter.options import unique_labels
        return unique_labels(labels, [o["args"] for o in self._records()])

    def options(self) -> list[dict]:
        """The pending decision's options as plain records: id (in the action space), label,
        kind, the rule that offers it (name, section) and its arguments by name."""
        records = [dict(r, rule=dict(r["rule"]), args=dict(r["args"])) for r in self._records()]
        for r, label in zip(records, self.action_labels()):
            r["label"] = label
        return records

    def _records(self) -> list[dict]:
        """The records of the pending decision, made once per decision (a new decision is a
        new `pending` mapping; the records are read, never changed, here)."""
        pending = self.st.pending
        if pending is None or self._seen is not pending:
            from lumos.interpreter.options import option_records
            self._records_of_seen = option_records(self)
            self._seen = pending
        return self._records_of_seen

    def option_index(self, label: str | None = None, **args) -> int:
        """The index of the one option with this label and/or these arguments (values by name)."""
        found = [i for i, r in enumerate(self.options())
                 if (label is None or r["label"] == label) and all(r["args"].get(k) == v for k, v in args.items())]
        if len(found) != 1:
            wanted = ", ".join(([repr(label)] if label is not None else []) + [f"{k}={v!r}" for k, v in args.items()])
            raise LookupError(f"{len(found)} options match {wanted}; options: {self.action_labels()}")
        return found[0]

    # ---------------------------------------------------------- the fixed action space
    def legal_action_ids(self) -> list[int]:
        """The ids (in `lumos.api.action_space(game)`) of the options, in option order."""
        pending = self.st.pending
        if pending is not None and self._seen is pending:
            ids = [r["id"] for r in self._records_of_seen]
        else:   # the ids alone, without the labels the records carry
            from lumos.interpreter.options import option_ids
            ids = option_ids(self)
        if -1 in ids:
            bad = self._records()[ids.index(-1)]
            self.machine.fail_runtime("R011", f"the option `{bad['label']}` is not in the game's action space "
                                      f"(arguments {bad['args']})", self.st.frames[-1] if self.st.frames else None,
                                      "a choice of a number or text the rules never write; "
                                      "choose from a list the rules spell out")
        return ids

    def action_mask(self) -> list[bool]:
        from lumos.interpreter.options import action_space
        mask = [False] * len(action_space(self.cg))
        for i in self.legal_action_ids():
            mask[i] = True
        return mask

    def apply_action_id(self, action_id: int) -> None:
        """Apply the option whose action-space id is `action_id`."""
        ids = self.legal_action_ids()
        if action_id not in ids:
            raise ValueError(f"action id {action_id} is not legal here; legal ids: {ids}")
        self.apply_action(ids.index(action_id))

    def decision_kind(self) -> str:
        return "" if self.st.pending is None else self.st.pending["kind"]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(option index, probability) for a chance node: each face of the die is as likely,
        so an outcome that is on two faces is twice as likely; a question's right and wrong
        answers are weighted the same way (`answer ... chance N`: N right faces in 100)."""
        if not self.is_chance_node():
            return []
        pend = self.st.pending
        draw = pend.get("draw")
        n = len(pend["options"])
        if draw is None:
            return [(i, 1.0 / n) for i in range(n)]
        return [(i, draw.count(i) / len(draw)) for i in range(n)]

    def sample_chance(self) -> int:
        """The chance outcome the game's own generator draws here (deterministic per seed).

        It only looks: applying any outcome at a chance node advances the generator by this
        same draw, so a logged or forced outcome needs no call of this first."""
        probe = State.__new__(State)
        probe.rng = self.st.rng
        return self._draw(probe)

    def _draw(self, st: State) -> int:
        pend = self.st.pending
        draw = pend.get("draw")
        if draw is None:
            return Rng.below(st, len(pend["options"]))
        return draw[Rng.below(st, len(draw))]

    # ---------------------------------------------------------- questions
    def question(self) -> dict[str, Any] | None:
        """The question being answered at this chance node (`answer ... to ...`), as read aloud:
        who answers, its text, its choices (never the answer); None at any other node."""
        pend = self.st.pending
        if self.st.result is not None or pend is None or "question" not in pend:
            return None
        card, field = pend["question"]
        q = self.cg.cards[card].fields[field]
        return {"side": self.cg.sides[pend["for"]], "card": self.cg.cards[card].name, "category": field,
                "ask": str(q.get("ask", "")), "choices": [str(c) for c in q.get("choices") or ()]}

    def typed_answer(self, text: str) -> int:
        """The outcome of this question node for an answer a person typed (right: 0, wrong: 1),
        compared without case or punctuation with the answer and its accepted alternatives."""
        from lumos.interpreter.questions import is_right
        pend = self.st.pending
        if pend is None or "question" not in pend:
            raise ValueError("no question is being answered")
        card, field = pend["question"]
        return 0 if is_right(self.cg.cards[card].fields[field], text) else 1

    def apply_action(self, index: int) -> None:
        """Take option `index` and play on to the next decision (Machine.apply; at a chance node
        it makes the draw sample_chance shows, whichever outcome is applied)."""
        self.machine.apply(index)

    def option_value(self, index: int):
        return self.st.pending["options"][index]

    # ---------------------------------------------------------- copies
    def clone(self) -> "GameState":
        return GameState(self.cg, self.st.clone(), None if self.events is None else list(self.events))

    def __deepcopy__(self, memo) -> "GameState":
        """A clone: the compiled game is shared, never copied (tools such as OpenSpiel clone a
        state by deep-copying its attributes; copying the compiled game made that take minutes)."""
        return self.clone()

    def to_json(self) -> str:
        return self.st.to_json()

    @classmethod
    def from_json(cls, cg: CompiledGame, text: str) -> "GameState":
        return cls(cg, State.from_json(text))

    # ---------------------------------------------------------- positions
    def position(self, for_side: int | str | None = None) -> dict:
        """This situation written in names (see lumos.interpreter.position); with `for_side`
        (a side's number or name), without what that side cannot see."""
        from lumos.interpreter.position import write_position
        return write_position(self, self.side_number(for_side, "position(for_side=...)"))

    # ---------------------------------------------------------- views
    def observation(self, side: int | str) -> dict[str, Any]:
        """What `side` (its number or name) may see: hidden zones show only their size; others'
        hands are hidden."""
        from lumos.interpreter.observe import observe
        return observe(self, self.side_number(side, "observation(side)"))

    def side_number(self, side: int | str | None, what: str = "side") -> int | None:
        """A side given by number or by name, as a number (None stays None: no side, all is seen).
        A name that is no side, or a number out of range, is a ValueError naming the sides: a
        misspelt side must never quietly see as nobody (hidden information by construction)."""
        sides = self.cg.sides
        if side is None:
            return None
        if isinstance(side, str) and side in sides:
            return sides.index(side)
        if isinstance(side, int) and not isinstance(side, bool) and 0 <= side < len(sides):
            return side
        raise ValueError(f"{what}: {side!r} is not a side of {self.cg.id}; its sides are "
                         f"{', '.join(sides)} (or their numbers 0 to {len(sides) - 1})")

    def __str__(self) -> str:
        from lumos.interpreter.observe import render_text
        return render_text(self, None)


_COUNTED = 128
_COUNTING = tuple(list(range(n)) for n in range(_COUNTED))   # legal_actions of n options: a copy of one of these
MAX_PREPARED = 16   # prepared starts kept per compiled game (one per options, policy and logging)
_UNPREPARED = object()   # marks a start that must be set up each time


def _prepared_start(cls, cg: CompiledGame, options, log: bool, forced: str):
    """The game at its first decision, set up once per compiled game, options, policy and logging,
    when its set-up draws nothing from the generator (None otherwise: then set-up runs each time).

    Why it is safe: the generator's state is the only part of a new game that depends on the seed
    (initial_state), and a set-up that never draws leaves it as it was; so every seed's set-up
    ends in the same state, events included, but for that one number, which the copy gets
    anew. A set-up that draws (a shuffle, a roll) or fails is run each time, as before."""
    starts = cg.__dict__.get("_prepared_starts")
    if starts is None:
        starts = {}
        object.__setattr__(cg, "_prepared_starts", starts)   # a cache: the game's data is unchanged
    if options:
        try:
            key = (tuple(sorted(options.items())), bool(log), forced)
            hash(key)
        except TypeError:   # an option value that is not plain data: no copy, the old path says why
            return None
    else:    # no options, the common case: a key made without sorting anything
        key = ((), bool(log), forced)
    found = starts.get(key)
    if found is None:
        found = _UNPREPARED
        try:
            probe = cls._set_up(cg, 0, options, log, None, forced)
            if probe.st.rng == seed_state(0):
                found = probe
        except Exception:  # noqa: BLE001 - a bad option or a failing set-up: the old path raises it
            pass
        if len(starts) < MAX_PREPARED:
            starts[key] = found
    return None if found is _UNPREPARED else found


def seed_state(seed: int) -> int:
    """The generator's first state for a game seed. The seed goes through splitmix64's mixing
    function so nearby seeds start far apart in its one cycle (the cycle's step is the same
    constant, so `seed * step + c` made seed n+1 the stream of seed n shifted by one draw)."""
    z = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def initial_state(cg: CompiledGame, seed: int = 0, options: dict[str, Any] | None = None) -> State:
    """The state before the flow and the setup run: pieces at their starts, every card in the box."""
    st = State()
    st.rng = seed_state(seed)
    g = list(cg.globals_init)
    for name, value in (options or {}).items():
        if name not in cg.options:
            raise ValueError(f"unknown option `{name}`; options: {', '.join(cg.options) or 'none'}")
        if value not in cg.options[name][1]:
            raise ValueError(f"option `{name}` must be one of {list(cg.options[name][1])}, not {value!r}")
        g[cg.option_slots[name]] = value
    st.g = g
    ns = cg.nsides
    st.sv = [list(v) for v in cg.side_vars_init]
    st.pv = [[v] * len(cg.pieces) for v in cg.piece_vars_init]
    st.xv = [[v] * len(cg.board.spaces) for v in cg.space_vars_init]
    st.cv = [[v] * len(cg.cards) for v in cg.card_state_init]
    st.loc = [-1] * len(cg.pieces)
    st.holder = [-1] * len(cg.pieces)
    st.occ = [-1] * len(cg.board.spaces)
    st.occ_next = [-1] * len(cg.pieces)
    last = {}  # space -> the last piece standing there so far
    for i, p in enumerate(cg.pieces):
        if p.start >= 0:
            st.loc[i] = p.start
            if p.start in last:
                st.occ_next[last[p.start]] = i
            else:
                st.occ[p.start] = i
            last[p.start] = i
    st.zones = [[] for _ in range(len(cg.zones) * ns)]
    st.card_zone = [-1] * len(cg.cards)
    return st


def put_teams(cg: CompiledGame, st: State, teams: dict[str, dict]) -> None:
    """Each side's team (plain data: `fields` and `cards` per zone name) into its variables and zones."""
    for side_name, team in teams.items():
        if side_name not in cg.sides:
            raise ValueError(f"{cg.id} has no side `{side_name}`; sides: {', '.join(cg.sides)}")
        s = cg.sides.index(side_name)
        for name, value in (team.get("fields") or {}).items():
            if name not in cg.side_var_names:
                raise ValueError(f"sides have no variable `{name}`")
            st.sv[cg.side_var_names.index(name)][s] = value
        for zone_name, card_ids in (team.get("cards") or {}).items():
            if zone_name not in [z for z, _ in cg.zones]:
                raise ValueError(f"{cg.id} has no zone `{zone_name}`")
            z = cg.zone_id(zone_name, s)
            for c in card_ids:
                if not 0 <= c < len(cg.cards) or st.card_zone[c] >= 0:
                    raise ValueError(f"card {c} cannot go into {zone_name} of {side_name}: "
                                     "no such card, or another team has it")
                st.zones[z].append(c)
                st.card_zone[c] = z
