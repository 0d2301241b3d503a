"""Catch the Golden Snitch: a small test deck and a table to build situations on.

Test files of Catch the Golden Snitch import this module. The shipped rules and board are
compiled with the cards written here (PLAYERS, TACTICAL, SNITCH, HOOPS), so no test
depends on which cards the shipped decks hold. `Table` is the shared table of
tests/support/table.py (it drives the public API, GameState, and edits the State) with
this game's ball, the Attacking Team and the Tactical hands.

    t = pitch_table({"home chaser 1": "home_north", "home chaser 2": "centre_north"},
                    ball="home chaser 1", blocks={"home": 1, "away": 1})
    t.pick_prefix("pass the Quaffle from home chaser 1 (")
    t.roll("success", "blank")       # the pool's dice: orange first, then black, purple

`pitch_table` runs the set-up by taking the first option of every decision (home coaches
Gryffindor, away Slytherin; the roll for advantage goes to `attack`), gives both Coaches
the Tactical card with the Action Blocks asked for, plays the Intrepid Moves asked for,
puts the pieces where the test says (every other Player off the Pitch), and returns at
the first decision of the Attacking Coach's first Action Block. A decision whose options
are already listed does not see later edits: edit before (`pv`, `sv`), or only what the
next decisions read.
"""
from __future__ import annotations

from lumos.interpreter.engine import GameState

from support import sources, table

GAME = "catch-the-golden-snitch"
HOME, AWAY = 0, 1
SIDES = ("home", "away")
HOUSES = ("gryffindor", "slytherin")

# Player cards: one per position and House, with pools the tests count on.
PLAYERS = """\
  - name: Test {House} Keeper
    type: player
    position: keeper
    affiliation: [{house}]
    pass_dice: [purple]
    steal_dice: [black]
    manoeuvre_dice: [black]
    catch_dice: [black, purple]
  - name: Test {House} Chaser
    type: player
    position: chaser
    affiliation: [{house}]
    copies: 3
    pass_dice: [orange, purple]
    shoot_dice: [orange, orange]
    steal_dice: [purple, black]
    manoeuvre_dice: [black]
  - name: Test {House} Beater
    type: player
    position: beater
    affiliation: [{house}]
    copies: 2
    beat_dice: [orange, orange]
    manoeuvre_dice: [black]
    defense_dice: [black, purple]
  - name: Test {House} Seeker
    type: player
    position: seeker
    affiliation: [{house}]
    accelerate_dice: [orange]
    glimpse_dice: [purple]
    obstruct_dice: [black]
"""

# Tactical cards: named by their Action Blocks; 15 of them make the Tactical deck.
TACTICAL = """\
  - name: {House} One
    type: tactical
    cost: 0
    affiliation: [{house}]
    blocks: [1]
    copies: 5
    text: "One Action."
  - name: {House} Two
    type: tactical
    cost: 0
    affiliation: [{house}]
    blocks: [2]
    copies: 5
    text: "A block of two Actions."
  - name: {House} Three
    type: tactical
    cost: 0
    affiliation: [{house}]
    blocks: [3]
    copies: 3
    text: "A block of three Actions."
  - name: {House} One One
    type: tactical
    cost: 0
    affiliation: [{house}]
    blocks: [1, 1]
    copies: 2
    text: "Two blocks of one Action."
"""

# The Snitch Race deck: cards that do nothing but say they were taken.
SNITCH = """\
cards:
  - name: Test Snitch Broom
    type: snitch
    symbol: broom
    fast_symbols: [wing, cloud]
    copies: 4
    text: "Nothing."
    rushed_effect: |
      log "{me} takes a Test Snitch"
    fast_effect: |
      log "{me} takes a Test Snitch"
    perfect_effect: |
      log "{me} takes a Test Snitch"
  - name: Test Snitch Star
    type: snitch
    symbol: star
    fast_symbols: [cloud, broom]
    copies: 4
    text: "Nothing."
    rushed_effect: |
      log "{me} takes a Test Snitch"
    fast_effect: |
      log "{me} takes a Test Snitch"
    perfect_effect: |
      log "{me} takes a Test Snitch"
"""

HOOPS = """\
cards:
  - name: Goal Hoop 1
    type: hoop
    number: 1
    copies: 2
  - name: Goal Hoop 2
    type: hoop
    number: 2
    copies: 2
  - name: Goal Hoop 3
    type: hoop
    number: 3
    copies: 2
"""


def house_file(house: str, extra: str = "") -> str:
    fill = {"House": house.capitalize(), "house": house}
    return "cards:\n" + PLAYERS.format(**fill) + TACTICAL.format(**fill) + extra.format(**fill)


def compile_test_game(extra: str = "", extra_files: dict[str, str] | None = None):
    """The shipped rules and board with the test cards (`extra` adds cards to both Houses,
    written with {House}/{house}; `extra_files` adds whole card files)."""
    files = {f"{house}.yaml": house_file(house, extra) for house in HOUSES}
    files.update({"snitch.yaml": SNITCH, "hoops.yaml": HOOPS}, **(extra_files or {}))
    return sources.with_cards(GAME, files)


def ctgs_game(extra: str = ""):
    """The rules compiled with the test cards (once per test run and `extra`)."""
    return sources.compiled_once((GAME, extra), lambda: compile_test_game(extra))


class Table(table.Table):
    """A game in progress with helpers to build situations and read the options."""

    BALL = "quaffle"
    STAY_ON = ("seeker", "upwind")       # off the Pitch: every other Player, not the race

    def attacking(self) -> str | None:
        a = self.var("attacking")
        return None if a is None else SIDES[a]

    def set_attacking(self, side: str) -> None:
        self.set_var("attacking", SIDES.index(side))

    # ------------------------------------------------------------ editing
    def hand(self, side: str, *names: str) -> None:
        """Put these Tactical cards of `side` (by name) into its hand, the rest of the hand
        back into its Tactical deck."""
        def change(pos):
            zones = pos["zones"]
            deck = zones[f"{side} tactical_deck"] + zones[f"{side} hand"]
            discard = zones[f"{side} tactical_discard"]
            for name in names:          # from the deck, the discard pile, else the box
                for source in (deck, discard):
                    if name in source:
                        source.remove(name)
                        break
            zones[f"{side} tactical_deck"], zones[f"{side} hand"] = deck, list(names)
        self.edit(change)


BLOCK_NAMES = {(1,): "One", (2,): "Two", (3,): "Three", (1, 1): "One One"}


def house_of(side: str) -> str:
    return HOUSES[SIDES.index(side)].capitalize()


def tactical_name(side: str, blocks) -> str:
    blocks = tuple(blocks) if isinstance(blocks, (list, tuple)) else (blocks,)
    return f"{house_of(side)} {BLOCK_NAMES[blocks]}"


_SETUPS: dict = {}


def before_pitch_actions(cg, attack: str = "home", seed: int = 0) -> GameState:
    """A game just before its last set-up decision (the last Kick-Off move), taking the
    first option of every decision; the roll for advantage (the only roll of the set-up)
    goes to `attack`. Applying the first option from here reaches the Attacking Coach's
    choice of the Pitch Actions card, whose options are the hand at that moment: edit the
    hands before. Cached per game, side and seed (a clone is returned)."""
    key = (id(cg), attack, seed)
    if key not in _SETUPS:
        t = Table(GameState.new(cg, seed=seed, log=True, forced="take"))
        last = None
        for _ in range(500):
            if t.offered("play ") and all(lab.endswith(" as the Pitch Actions card") for lab in t.labels()):
                break
            last = t.s.clone()
            if t.s.is_chance_node():
                t.pick("roll success" if attack == "home" else "roll opportunity")
            else:
                t.first()
        else:
            raise AssertionError(f"never reached the Pitch Actions card; options: {t.labels()}")
        _SETUPS[key] = (cg, last)
    return _SETUPS[key][1].clone()


def pitch_table(layout: dict[str, str | None], ball: str | None = None, loose: str | None = None,
                attack: str = "home", blocks: dict | None = None, seed: int = 0, cg=None,
                others: str = "off", hands: dict | None = None, pv: dict | None = None,
                sv: dict | None = None, intrepid: list | None = None) -> Table:
    """A game at the first decision of the Attacking Coach's first Action Block: pieces
    where `layout` says (every other Player off the Pitch unless others="stay"), the
    Quaffle held by `ball` or Loose in `loose`, `attack` the Attacking Team, each Coach's
    Pitch Actions card with the Action Blocks of `blocks` (default one Action each), no
    Intrepid Move. `hands` lists the other Tactical cards left in each hand (default one
    more card, so no Hand Swap is near); `pv` sets piece vars ({var: {piece: value}}) and
    `sv` side vars ({var: {side: value}}) before the first Action is offered. `intrepid`
    lists (side, Tactical card name) played as Intrepid Moves, in that order (the cards
    must be in `hands`); they resolve before the first Action."""
    blocks = blocks or {"home": 1, "away": 1}
    cg = cg or ctgs_game()
    t = Table(before_pitch_actions(cg, attack, seed))
    for side in SIDES:
        extra = list((hands or {}).get(side, [f"{house_of(side)} One"]))
        t.hand(side, tactical_name(side, blocks[side]), *extra)
    t.first()
    defend = SIDES[1 - SIDES.index(attack)]
    for side in (attack, defend):
        assert t.deciding() == side, (side, t.labels())
        t.pick(f"play {tactical_name(side, blocks[side])} as the Pitch Actions card")
    # Intrepid Moves: `intrepid` lists (side, card name) played in that order, the others
    # decline; the declaration ends when both decline in a row. The situation is set just
    # before the last decline, whose answer runs on (Intrepid Moves resolved) to the first
    # Action.
    plays = list(intrepid or [])
    side, passes = attack, 0
    for _ in range(12):
        assert t.deciding() == side, (side, t.labels())
        if plays and plays[0][0] == side:
            t.pick(f"play {plays.pop(0)[1]} as an Intrepid Move")
            passes = 0
        elif passes == 1 and not plays:
            break
        else:
            t.decline()
            passes += 1
        side = SIDES[1 - SIDES.index(side)]
    t.put(layout, others)
    if ball is not None:
        t.give(ball)
    elif loose is not None:
        t.loose_at(loose)
    t.set_attacking(attack)
    for name, values in (pv or {}).items():
        for piece, value in values.items():
            t.set_piece_var(name, piece, value)
    for name, values in (sv or {}).items():
        for side, value in values.items():
            t.set_side_var(name, side, value)
    t.decline()
    return t

