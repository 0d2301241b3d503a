"""Runs compiled procedures on a State until a side (or chance) must decide, or the game ends.

The machine owns no game data: it pairs a shared CompiledGame with one State and
offers the generic verbs the compiled instructions call (place a piece, give a
carried piece, move cards between zones, shuffle, roll, win) and the generic
queries (occupant, reach, distance, closest). Decisions are values in
`State.pending`; applying one writes the choice into the waiting frame and resumes.
"""
from __future__ import annotations


from lumos.diagnostics import Diagnostic, LumosRuntimeError
from lumos.interpreter.program import CHANCE, CompiledGame
from lumos.interpreter.state import Rng, State

STEP_LIMIT = 200_000   # instructions between two decisions before we call it a runaway chain
MAX_BLOCK = 8          # instructions a run of the specialised back end may run in one call (compiler/blocks.py)
# Nested calls of a function inside itself (a recursive function runs on Python's stack,
# unlike procedures, whose frames are data): past this depth the rules are stopped with R005.
CALL_DEPTH_LIMIT = 200
LOG_MAX = 1 << 11      # spaces in a state's occ_log before it and the answers kept by it are dropped
# decisions where no `anytime` rule's guard holds are recorded by their instruction, without
# Machine.with_anytime (off: every decision of a game with such rules takes it; for A/B timing)
QUIET_DECISIONS = True
_UNKNOWN = object()   # a cache entry not made yet


class Machine:
    __slots__ = ("cg", "st", "events", "board", "depth", "deepest", "searched", "stop_at", "played", "halt",
                 "tables", "sizes", "nones", "hooks", "quiet")

    def __init__(self, cg: CompiledGame, st: State, events: list | None = None):
        self.cg = cg
        self.st = st
        self.board = cg.board
        self.events = events  # None: not logging
        self.stop_at = -1     # a procedure whose start stops the run (positions `at: start_of`)
        self.depth = self.deepest = 0   # nested calls of functions inside themselves (call_nested)
        self.searched = 0   # steps of `reach ... exactly` paths since the run began (reach_exact)
        # None, or a set that `play` adds (card, field) to each time a card's statements run:
        # card tests (lumos.toolkit.cardtests) measure which cards a case exercised with it
        self.played = None
        # set by whatever may end a run of the top frame's instructions (a call, a return, a
        # trigger's frame, a decision, a result): the run loop tests this one flag per instruction
        self.halt = False
        # per procedure, what the run loop reads of it (made once per compiled game)
        self.tables = cg.__dict__.get("_run_tables") or _run_tables(cg)
        # per procedure, how many locals a frame holds; tuples of none by length, to pad them with
        self.sizes, self.nones = cg.__dict__["_proc_sizes"]
        # per event that `when` rules listen to, (condition, procedure, size) of each, the last
        # declared first (made once per compiled game)
        hooks = cg.__dict__.get("_hooks")
        self.hooks = _hooks(cg) if hooks is None else hooks
        # None in a game without `anytime` rules; else quiet(m, L), true when no rule can add an
        # option at this decision: its instruction then records the decision itself
        quiet = cg.__dict__.get("_anytime_quiet", _UNKNOWN)
        self.quiet = _anytime_quiet(cg) if quiet is _UNKNOWN else quiet

    # ------------------------------------------------------------ the run loop
    def run(self) -> None:
        """Run instructions until a decision or a result. The inner loop tests one flag (and the
        end of the procedure) per instruction: the instructions that call, return, push a
        trigger, decide or end the game set `halt` (see run_reference for the loop it replaces).
        A procedure that runs off its end returns here, in line, and its caller goes on at once:
        nothing but `halt` can have changed the pending decision, the result or the frames."""
        cg = self.cg
        if cg.backend == "reference":
            return self.run_reference()
        st = self.st
        tables = self.tables
        frames = st.frames
        steps = self.searched = 0
        room = STEP_LIMIT - MAX_BLOCK
        fr = None
        try:   # one handler for the whole run (the reference enters one per run of instructions)
            while st.pending is None and st.result is None:
                if not frames:
                    self.fail_runtime("R001", "the game's flow ended without a result",
                                      [cg.flow, 1 << 30, [], -1],
                                      "end the game with `win SIDE` or `end in a draw`")
                fr = frames[-1]
                code, run, n = tables[fr[0]]
                self.halt = False
                # the instructions of the top frame, until it calls, decides or wins; a run of
                # simple ones is one call (it returns how many it ran, MAX_BLOCK at most, so below
                # `room` no run can pass the limit: the loop need not test it) ...
                while steps <= room:
                    if fr[1] < n:
                        steps += run[fr[1]](self, fr) or 1
                        if self.halt:
                            break
                        continue
                    # the procedure ran off its end: it returns nothing to its caller (return_from),
                    # which goes on here at once (nothing but `halt` changes the decision or result)
                    frames.pop()
                    if not frames:
                        break
                    caller = frames[-1]
                    if fr[3] >= 0:
                        caller[2][fr[3]] = None
                    fr = caller
                    code, run, n = tables[fr[0]]
                else:
                    # ... except in the last steps before the limit, where they run one by one so
                    # the limit falls where it would
                    while not self.halt:
                        if fr[1] >= n:
                            frames.pop()
                            if frames and fr[3] >= 0:
                                frames[-1][2][fr[3]] = None
                            break
                        code[fr[1]](self, fr)
                        steps += 1
                        if steps > STEP_LIMIT:
                            self.fail_runtime("R002", f"more than {STEP_LIMIT} steps without a decision",
                                              fr, "a loop never stops or a trigger keeps firing itself")
        except RecursionError:
            self.fail_too_deep(fr)
        except (TypeError, AttributeError, IndexError, KeyError, ZeroDivisionError) as exc:
            self.fail_impossible(fr, exc)
        st.steps += steps

    def fail_too_deep(self, fr) -> None:
        """R005 for Python's stack running out (both run loops)."""
        deepest, self.depth, self.deepest = self.deepest, 0, 0
        self.fail_runtime("R005", f"the rules nest calls deeper than Python's stack holds (a function "
                          f"inside itself {deepest} calls deep, {_stack_words()})", fr,
                          "a function that calls itself needs a case that stops; to count further, "
                          "use a `loop` in a procedure (procedures do not use Python's stack)")

    def fail_impossible(self, fr, exc: Exception) -> None:
        """R005 for a Python error inside the rules (a none where a value was needed; both run loops)."""
        self.fail_runtime("R005", f"the rules did something impossible here ({type(exc).__name__}: "
                          f"{exc})", fr, "a value is probably none where a piece, space, card or "
                          "zone is needed; test it with `is not none` first")

    def run_reference(self) -> None:
        """The reference back end's run loop: every condition tested after every instruction."""
        st = self.st
        procs = self.cg.procs
        frames = st.frames
        steps = self.searched = 0
        while st.pending is None and st.result is None:
            if not frames:
                # point at the flow's last line: that is where it ran out
                self.fail_runtime("R001", "the game's flow ended without a result",
                                  [self.cg.flow, 1 << 30, [], -1],
                                  "end the game with `win SIDE` or `end in a draw`")
            fr = frames[-1]
            code = procs[fr[0]].code
            n = len(code)
            if fr[1] >= n:
                self.return_from(None)
                continue
            try:
                # the instructions of the top frame, until it ends, calls, decides or wins
                while True:
                    code[fr[1]](self, fr)
                    steps += 1
                    if steps > STEP_LIMIT or st.pending is not None or st.result is not None or not frames \
                            or frames[-1] is not fr or fr[1] >= n:
                        break
            except RecursionError:
                self.fail_too_deep(fr)
            except (TypeError, AttributeError, IndexError, KeyError, ZeroDivisionError) as exc:
                self.fail_impossible(fr, exc)
            if steps > STEP_LIMIT:
                self.fail_runtime("R002", f"more than {STEP_LIMIT} steps without a decision",
                                  fr, "a loop never stops or a trigger keeps firing itself")
        st.steps += steps

    def call_nested(self, fn, local: list, name: str):
        """fn(self, local): the body of function `name` called inside itself, one level deeper."""
        if self.depth >= CALL_DEPTH_LIMIT:
            self.depth = self.deepest = 0
            self.fail_runtime("R005", f"`{name}` calls itself more than {CALL_DEPTH_LIMIT} calls deep, the most "
                              "Lumos nests a function", self.st.frames[-1] if self.st.frames else None,
                              f"a function that calls itself needs a case that stops within {CALL_DEPTH_LIMIT} "
                              "calls; to count further, use a `loop` in a procedure")
        self.depth = depth = self.depth + 1
        if depth > self.deepest:
            self.deepest = depth
        try:
            return fn(self, local)
        finally:
            self.depth = depth - 1

    def fail_runtime(self, code: str, message: str, fr, hint: str = ""):
        from lumos.diagnostics import NOWHERE
        span = NOWHERE
        if fr is not None:
            proc = self.cg.procs[fr[0]]
            span = proc.spans[min(fr[1], len(proc.spans) - 1)] if proc.spans else proc.span
            message = f"{message} (in `{proc.name}`)"
        raise LumosRuntimeError(Diagnostic(code, message, span, hint))

    def call(self, proc: int, args: list, result_slot: int = -1) -> None:
        """Push a frame for `proc`; its return value goes to the caller's `result_slot`. `args`
        becomes the frame's locals (padded with none): every caller passes a list of its own."""
        blank = self.sizes[proc] - len(args)
        if blank > 0:
            args += self.nones[blank]
        self.st.frames.append([proc, 0, args, result_slot])
        self.halt = True
        if proc == self.stop_at:     # a marker, not a decision: the position's reader takes it away
            self.st.pending = {"kind": "start", "side": -3, "options": []}

    def return_from(self, value) -> None:
        frames = self.st.frames
        done = frames.pop()
        self.halt = True
        if frames:
            caller = frames[-1]
            if done[3] >= 0:
                caller[2][done[3]] = value

    # ------------------------------------------------------------ decisions
    def decide(self, kind: str, side: int, options: list, may: bool) -> bool:
        """Record a pending decision. Returns False when there is nothing to decide."""
        if may:
            options = options + [None]
        elif not options:
            return False
        if side != CHANCE:   # the common case: a side decides
            if self.cg.anytime:
                options = self.with_anytime(side, options)
            self.st.pending = {"kind": kind, "side": side, "options": options}
            self.halt = True
            return True
        self.st.pending = {"kind": kind, "side": side, "options": options}
        self.halt = True
        if len(set(options)) < len(options):
            # faces that repeat are one outcome, more likely: `draw` maps the generator's draw
            # (an index into the die's faces, as before) to the outcome it gives
            distinct = list(dict.fromkeys(options))
            self.st.pending["options"] = distinct
            self.st.pending["draw"] = [distinct.index(f) for f in options]
        return True

    # ------------------------------------------------------------ `anytime` rules
    def decision_at(self) -> list:
        fr = self.st.frames[-1]
        return [len(self.st.frames), fr[0], fr[1]]

    def with_anytime(self, side: int, options: list) -> list:
        """The options of a decision of `side`, plus one option `{"anytime": i}` per `anytime`
        rule whose condition holds: not inside an anytime rule's own block, and not at the
        decision one was just taken at (it is asked again once the block is done)."""
        st = self.st
        procs = self.cg.anytime_procs
        for f in st.frames:    # a loop, not any(genexpr): this runs at every decision of such a game
            if f[0] in procs:
                return options
        if st.anytime_at is not None:
            if st.anytime_at == self.decision_at():
                return options
            st.anytime_at = None
        extra = None
        for i, cond, rest in self.cg.__dict__.get("_anytime_conds") or _anytime_conds(self.cg):
            # the condition's locals: the side, then none (a new list per test, as a frame's)
            if cond is None or cond(self, [side, *rest]):
                if extra is None:
                    extra = options + [{"anytime": i}]
                else:
                    extra.append({"anytime": i})
        return options if extra is None else extra

    def take_anytime(self, value: dict, side: int) -> None:
        """Run the rule's block for the deciding side; the decision's instruction has not moved,
        so it runs again after the block and asks afresh."""
        st = self.st
        st.anytime_at = self.decision_at()
        rule = self.cg.anytime[value["anytime"]]
        self.call(rule.proc, [side])
        if self.events is not None:
            self.emit(st.frames[-1], f"{self.fmt(side, 'side')} chooses: {rule.label}")

    def apply(self, index: int) -> None:
        """Take option `index` of the pending decision and run on to the next one. At a chance
        node the generator draws first, whichever outcome is applied (GameState.sample_chance
        shows that draw), so a logged or forced outcome advances it the same way."""
        st = self.st
        pend = st.pending
        if pend is None:
            raise ValueError("no decision is pending")
        options = pend["options"]
        if not 0 <= index < len(options):
            raise ValueError(f"option {index} is not one of the {len(options)} legal options")
        side = pend["side"]
        if side == CHANCE:
            if st.result is None:
                draw = pend.get("draw")
                Rng.below(st, len(options) if draw is None else len(draw))
        else:
            st.decisions += 1
        value = options[index]
        st.pending = None
        fr = st.frames[-1]
        if self.cg.anytime and isinstance(value, dict):    # only `anytime` rules offer dicts
            self.take_anytime(value, side)
        else:
            if st.anytime_at is not None and st.anytime_at == self.decision_at():
                st.anytime_at = None
            # the deciding side goes along: an action's instruction need not work it out again
            self.tables[fr[0]][0][fr[1]].resume(self, fr, value, side)
        self.run()

    def labels(self) -> list[str]:
        pend = self.st.pending
        if pend is None:
            return []
        fr = self.st.frames[-1]
        instr = self.cg.procs[fr[0]].code[fr[1]]
        anytime = self.cg.anytime
        # a label may call functions, whose locals live in the frame's slots: listing labels
        # must leave the state as it was (a clone, a saved position, the log stay the same)
        saved = fr[2][:]
        try:
            return [anytime[o["anytime"]].label if isinstance(o, dict) else instr.describe(self, fr, o)
                    for o in pend["options"]]
        finally:
            fr[2][:] = saved

    # ------------------------------------------------------------ triggers
    def fire(self, event: str, values: list) -> None:
        """Run the `when` rules listening to `event`: each whose condition holds is pushed
        as a frame, so it runs before the statement after the verb (first declared runs first)."""
        hooks = self.hooks.get(event)
        if hooks is None:
            return
        n = len(values)
        for cond, proc, size in hooks:
            local = [*values, *(None,) * (size - n)]   # the event's values, then none up to the rule's size
            if cond is None or cond(self, local):
                self.st.frames.append([proc, 0, local, -1])
                self.halt = True

    # ------------------------------------------------------------ events
    def emit(self, fr, text: str, hidden_from: tuple = (), public: str = "") -> None:
        """Log an event. `hidden_from` lists the sides that may not read `text` (a card going
        into a zone they cannot see); they are shown `public` instead."""
        if self.events is not None:
            proc = self.cg.procs[fr[0]]
            span = proc.spans[min(fr[1], len(proc.spans) - 1)]
            event = {"event": text, "rule": f"{span.file}:{span.line}", "in": proc.name}
            if hidden_from:
                event["hidden_from"] = list(hidden_from)
                event["public"] = public
            self.events.append(event)

    def hidden_from(self, zone: int) -> tuple:
        """The sides that may not see the cards of `zone` (from its declared visibility)."""
        ns = self.cg.nsides
        visibility = self.cg.zones[zone // ns][1]
        if visibility == "public":
            return ()
        if visibility == "owner":
            return tuple(s for s in range(ns) if s != zone % ns)
        return tuple(range(ns))

    # ------------------------------------------------------------ formatting
    def fmt(self, value, typ: str) -> str:
        cg = self.cg
        if value is None:
            return "none"
        if typ == "piece":
            return cg.pieces[value].name
        if typ == "space":
            return cg.board.spaces[value]
        if typ == "side":
            return cg.sides[value]
        if typ == "card":
            return cg.cards[value].name
        if typ == "zone":
            return cg.zone_label(value)
        if typ.startswith("list:"):
            inner = typ[5:]
            return ", ".join(self.fmt(v, inner) for v in value)
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    # ------------------------------------------------------------ pieces
    def place(self, piece: int, space: int) -> None:
        """Put a piece on a space (or off the board with -1); it stands after those already there.
        How many may stand there (the board's capacity) is checked by the `place` statement."""
        st = self.st
        old = st.loc[piece]
        log = st.occ_log
        if old >= 0:
            if st.occ[old] == piece:      # the common case: it stands first (or alone) there
                nxt = st.occ_next
                st.occ[old] = nxt[piece]
                nxt[piece] = -1
                log.append(old)
            else:
                self.leave(piece, old)
        st.loc[piece] = space
        if space >= 0:
            occ = st.occ
            here = occ[space]
            if here < 0:
                occ[space] = piece
                log.append(space)
            else:
                nxt = st.occ_next
                while nxt[here] >= 0:
                    here = nxt[here]
                nxt[here] = piece
            if "placed" in self.hooks:
                self.fire("placed", [piece, space])
        if len(log) > LOG_MAX:     # a long game: forget what was kept rather than hold it all
            st.forget_kept()

    def leave(self, piece: int, space: int) -> None:
        """Take a piece out of the pieces standing on `space` (nothing if it only lies there)."""
        st = self.st
        nxt = st.occ_next
        here = st.occ[space]
        if here == piece:
            st.occ[space] = nxt[piece]
            log = st.occ_log
            log.append(space)
            if len(log) > LOG_MAX:
                st.forget_kept()
        else:
            while here >= 0 and nxt[here] != piece:
                here = nxt[here]
            if here < 0:
                return
            nxt[here] = nxt[piece]
        nxt[piece] = -1

    def give(self, piece: int, holder: int) -> None:
        """Make `holder` carry `piece` (a carried piece stands on no space of its own)."""
        st = self.st
        old = st.loc[piece]
        if old >= 0:
            self.leave(piece, old)
        st.loc[piece] = -1
        st.holder[piece] = holder
        if "given" in self.hooks:
            self.fire("given", [piece, holder])

    def space_of(self, piece: int):
        st = self.st
        h = st.holder[piece]
        seen = 0
        while h >= 0 and seen < 8:
            piece, h = h, st.holder[h]
            seen += 1
        loc = st.loc[piece]
        return None if loc < 0 else loc

    def occupant(self, space):
        if space is None:
            return None
        p = self.st.occ[space]
        return None if p < 0 else p

    def full(self, space) -> bool:
        """Whether as many pieces stand on `space` as the board lets (never, without a limit)."""
        if space is None:
            return False
        room = self.board.holds(space)
        if room == 1:
            return self.st.occ[space] >= 0
        return room > 0 and len(self.occupants(space)) >= room

    def occupants(self, space) -> tuple:
        """The pieces standing on `space`, in the order they arrived."""
        if space is None:
            return ()
        st = self.st
        p = st.occ[space]
        if p < 0:
            return ()
        nxt = st.occ_next
        if nxt[p] < 0:     # the common case: one piece stands there
            return (p,)
        out = [p]
        while (p := nxt[p]) >= 0:
            out.append(p)
        return tuple(out)

    # ------------------------------------------------------------ cards
    def move_card(self, card: int, zone: int, at: int = -1) -> None:
        """Move a card on top of `zone`, or to position `at` counted from the bottom (0: the bottom)."""
        st = self.st
        old = st.card_zone[card]
        if old >= 0:
            st.zones[old].remove(card)
        if at < 0:
            st.zones[zone].append(card)
        else:
            st.zones[zone].insert(at, card)
        st.card_zone[card] = zone
        if "put" in self.hooks:
            self.fire("put", [card, zone])

    def draw(self, source: int, dest: int):
        st = self.st
        z = st.zones[source]
        if not z:
            return None
        card = z[-1]
        # move_card(card, dest), in line: out of its zone, onto the top of `dest`
        old = st.card_zone[card]
        if old >= 0:
            st.zones[old].remove(card)
        st.zones[dest].append(card)
        st.card_zone[card] = dest
        if "put" in self.hooks:
            self.fire("put", [card, dest])
        if "drawn" in self.hooks:
            self.fire("drawn", [card, dest])
        return card

    def shuffle(self, zone: int) -> None:
        Rng.shuffle(self.st, self.st.zones[zone])

    # ------------------------------------------------------------ board queries
    def reach(self, start, link: str, count: int, exact: bool, through, onto, local, tslot, oslot, span=None):
        """Spaces reachable from `start` in 1..count steps (or exactly count) along `link`.

        Every space strictly inside the path satisfies `through`; the end satisfies
        `onto`; a path never visits a space twice and never ends where it began."""
        if start is None or count <= 0:
            return ()
        if through is None and onto is None and not exact:
            # no condition: the spaces within `count` steps depend on the board alone, kept per
            # compiled game once found (a tuple: shared, never changed)
            plain = self.cg.__dict__.get("_plain_reach")
            if plain is None:
                plain = {}
                object.__setattr__(self.cg, "_plain_reach", plain)
            key = (link, start, count)
            found = plain.get(key)
            if found is None:
                found = plain[key] = self._reach_plain(start, self.board.links[link], count)
            return found
        nbrs = self.board.links[link]
        if not exact and through is not None and onto is not None:
            # the common case, with both conditions: the loop below without its None tests
            seen = {start}
            found = []
            ring = [start]
            for depth in range(count - 1):
                following = []
                for here in ring:
                    for nxt in nbrs[here]:
                        if nxt in seen:
                            continue
                        seen.add(nxt)
                        local[oslot] = nxt
                        if onto(self, local):
                            found.append(nxt)
                        local[tslot] = nxt
                        if through(self, local):
                            following.append(nxt)
                if not following:
                    found.sort()
                    return tuple(found)
                ring = following
            for here in ring:   # the last ring: ends only
                for nxt in nbrs[here]:
                    if nxt in seen:
                        continue
                    seen.add(nxt)
                    local[oslot] = nxt
                    if onto(self, local):
                        found.append(nxt)
            found.sort()
            return tuple(found)
        if not exact:
            # breadth first, one ring of spaces at a time (measured faster than a deque)
            seen = {start}
            found = []
            ring = [start]
            last = count - 1
            for depth in range(count):
                grow = depth < last
                following = []
                for here in ring:
                    for nxt in nbrs[here]:
                        if nxt in seen:
                            continue
                        seen.add(nxt)
                        if onto is None:
                            found.append(nxt)
                        else:
                            local[oslot] = nxt
                            if onto(self, local):
                                found.append(nxt)
                        if grow:
                            if through is None:
                                following.append(nxt)
                            else:
                                local[tslot] = nxt
                                if through(self, local):
                                    following.append(nxt)
                if not following:
                    break
                ring = following
            found.sort()
            return tuple(found)
        return self.reach_exact(start, nbrs, count, through, onto, local, tslot, oslot, span)

    @staticmethod
    def _reach_plain(start, nbrs, count):
        """`reach` without conditions: breadth first, every space within `count` steps but start."""
        seen = {start}
        ring = [start]
        for _ in range(count):
            following = []
            for here in ring:
                for nxt in nbrs[here]:
                    if nxt not in seen:
                        seen.add(nxt)
                        following.append(nxt)
            if not following:
                break
            ring = following
        seen.discard(start)
        return tuple(sorted(seen))

    def reach_exact(self, start, nbrs, count, through, onto, local, tslot, oslot, span):
        """`reach ... exactly count`: the ends of every path of count steps that never visits a
        space twice. Depth first, in the order of the links. The steps of the paths tried grow
        about exponentially with count: those of every search since the run began (since the
        last decision) count against STEP_LIMIT."""
        if count >= len(nbrs):
            return ()     # a path that never visits a space twice has fewer steps than spaces
        if count == 1:    # the common case: the neighbours (the walk below, without a path)
            found = set()
            for nxt in nbrs[start]:
                if nxt == start:
                    continue
                if oslot >= 0:
                    local[oslot] = nxt
                if onto is None or onto(self, local):
                    found.add(nxt)
            return tuple(sorted(found))
        found = set()
        on_path = {start}
        path = [start]
        ways = [iter(nbrs[start])]   # per space of the path, its links still to try
        work = self.searched
        while ways:
            nxt = next(ways[-1], None)
            if nxt is None:
                ways.pop()
                on_path.discard(path.pop())
                continue
            if nxt in on_path:
                continue
            work += 1
            if len(path) == count:      # the last step: an end
                if oslot >= 0:
                    local[oslot] = nxt
                if onto is None or onto(self, local):
                    found.add(nxt)
                continue
            if tslot >= 0:
                local[tslot] = nxt
            if through is None or through(self, local):
                if work > STEP_LIMIT:
                    self.fail_search(count, span)
                path.append(nxt)
                on_path.add(nxt)
                ways.append(iter(nbrs[nxt]))
        self.searched = work
        found.discard(start)
        return tuple(sorted(found))

    def walk(self, start, link: str, count: int, through, onto, local, tslot, oslot, came_from=None):
        """Spaces where a walk of exactly `count` steps along `link` from `start` can end: the walk
        may cross its own path but never steps straight back into the space it just left, and
        never ends where it began. Spaces inside the walk satisfy `through`, the end `onto`.

        Breadth first, one ring of spaces per step, each with the one space a walk arriving there
        may not step back into (-2 when walks arrive from two different spaces: then none is
        barred, as one of them may always take any next step), so a d8 walk costs a few dozen
        spaces per step instead of every walk. `came_from`: the walk goes on from one that arrived
        at `start` from that space, so its first step does not go back there."""
        if start is None or count <= 0:
            return ()
        nbrs = self.board.links[link]
        passable: dict = {}
        ring = {start: -1 if came_from is None else came_from}
        for _ in range(count - 1):
            following: dict = {}
            for here, left in ring.items():
                for nxt in nbrs[here]:
                    if nxt == left:
                        continue
                    ok = passable.get(nxt)
                    if ok is None:
                        if through is None:
                            ok = True
                        else:
                            local[tslot] = nxt
                            ok = bool(through(self, local))
                        passable[nxt] = ok
                    if ok:
                        came = following.get(nxt)
                        if came is None:
                            following[nxt] = here
                        elif came != here:
                            following[nxt] = -2
            if not following:
                return ()
            ring = following
        ends = sorted({nxt for here, left in ring.items() for nxt in nbrs[here] if nxt != left and nxt != start})
        if onto is None:
            return tuple(ends)
        found = []
        for nxt in ends:
            local[oslot] = nxt
            if onto(self, local):
                found.append(nxt)
        return tuple(found)

    def fail_search(self, count: int, span):
        """R002 at a `reach ... exactly` that tries more than STEP_LIMIT paths."""
        fr = self.st.frames[-1] if self.st.frames else None
        where = f" (in `{self.cg.procs[fr[0]].name}`)" if fr is not None else ""
        raise LumosRuntimeError(Diagnostic(
            "R002", f"`reach ... exactly {count}` tried more than {STEP_LIMIT} steps of paths without a "
            f"decision{where}", span, "a smaller number of steps, or a `through` condition that rules out "
            "more spaces, keeps the search short"))

    def distance(self, a, b, link: str):
        if a is None or b is None:
            return None
        d = self.board.distances[link][a][b]
        return None if d < 0 else d

    def toward(self, a, b, n: int, link: str):
        """The space n steps from a along a shortest path to b (lowest index on ties)."""
        if a is None or b is None:
            return None
        dist = self.board.distances[link]
        nbrs = self.board.links[link]
        here = a
        for _ in range(n):
            if here == b:
                break
            d = dist[here][b]
            steps = [x for x in nbrs[here] if dist[x][b] == d - 1]
            if not steps:
                break
            here = min(steps)
        return here

    def closest(self, pieces, space, link: str):
        if space is None:
            return ()
        dist = self.board.distances[link]
        best, out = None, []
        for p in pieces:
            s = self.space_of(p)
            if s is None or dist[s][space] < 0:
                continue
            d = dist[s][space]
            if best is None or d < best:
                best, out = d, [p]
            elif d == best:
                out.append(p)
        return tuple(out)

    def offset(self, space, dx: int, dy: int):
        if space is None:
            return None
        r = self.board.step(space, dx, dy)
        return None if r < 0 else r


def _run_tables(cg: CompiledGame) -> list:
    """Per procedure, (code, run, len(code)): what the run loop reads of a frame's procedure,
    kept on the compiled game (a cache beside its data, like its prepared starts)."""
    tables = [(p.code, p.run or p.code, len(p.code)) for p in cg.procs]
    sizes = [p.nlocals for p in cg.procs]
    object.__setattr__(cg, "_proc_sizes", (sizes, tuple((None,) * n for n in range(max(sizes, default=0) + 1))))
    object.__setattr__(cg, "_run_tables", tables)
    return tables



def _hooks(cg: CompiledGame) -> dict:
    """Per event with `when` rules, what Machine.fire runs: (condition, procedure, its number of
    locals) per rule, in the order fire pushes them (the last declared first, so the first
    declared runs first). Kept on the compiled game."""
    procs = cg.procs
    hooks = {event: tuple((cond, proc, procs[proc].nlocals) for cond, proc in reversed(rules))
             for event, rules in cg.triggers.items() if rules}
    object.__setattr__(cg, "_hooks", hooks)
    return hooks


def _anytime_conds(cg: CompiledGame) -> tuple:
    """Per `anytime` rule, (its number, its condition, the none after the side in its locals),
    kept on the compiled game (the side is always slot 0: compiler/lower.py, lower_anytime)."""
    found = tuple((i, rule.cond, (None,) * (rule.nslots - 1)) for i, rule in enumerate(cg.anytime))
    object.__setattr__(cg, "_anytime_conds", found)
    return found


def _anytime_quiet(cg: CompiledGame):
    """Machine.quiet, kept on the compiled game: None without `anytime` rules; the rules' own
    tests (AnytimeInfo.quiet, compiler/anytime_guard.py) when every rule has one; else a test
    that is never true (every decision takes with_anytime)."""
    tests = tuple(rule.quiet for rule in cg.anytime)
    if not tests:
        found = None
    elif not QUIET_DECISIONS or None in tests:
        found = _never_quiet
    elif len(tests) == 1:
        found = tests[0]
    else:
        found = lambda m, L: all(t(m, L) for t in tests)  # noqa: E731
    object.__setattr__(cg, "_anytime_quiet", found)
    return found


def _never_quiet(m, L) -> bool:
    return False


def _stack_words() -> str:
    import sys
    return f"Python allows {sys.getrecursionlimit()} frames and each call takes several"
