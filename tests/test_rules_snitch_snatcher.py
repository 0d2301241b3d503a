"""Snitch Snatcher: the rulebook's rules, checked on situations built directly.

Each test builds a situation by driving the public API (GameState) and editing it
through positions (the shared Table of tests/support: pieces placed, the Quaffle given and
cards moved by name, the situation written down, changed and read back), forces dice by
applying the chance outcome it wants, then checks the legal option labels and the state
after applying one.
Docstrings cite the rulebook section (rulebooks/snitch-snatcher.txt); rulings where
the rulebook is silent are on docs/rulings/snitch-snatcher.md.

The rules are compiled with a small deck written here (TEST_DECK), so no test
depends on which cards the shipped decks hold; the shipped decks are used by the
random-game smoke test at the end and by the tests of what the shipped interrupt cards
do (ruling 38 says what they do).
"""
from __future__ import annotations

import random
from collections import deque

import pytest

from lumos.api import load_game
from lumos.interpreter.engine import GameState

from support import sources
from support import table as shared

HOME, AWAY = 0, 1
SIDES = ("home", "away")

# A deck made for these tests. Every effect uses only names of rules/snitch-snatcher/
# game.lumos. Wizardry is the colour of the Skill card the helpers draw by default, so
# only the Filler (threshold 4) depends on it.
TEST_DECK = """\
deck: {side}
cards:
  - name: Offense Skill
    type: skill
    colour: offense
    copies: 4
  - name: Defense Skill
    type: skill
    colour: defense
    copies: 4
  - name: Wizardry Skill
    type: skill
    colour: wizardry
    copies: 4
  - name: Test Step
    type: action
    colour: offense
    threshold: 1
    text: "Move one of your Chasers as a pitch play would."
    effect: |
      choose c from chasers(me) where moves(it) is not empty label "{{c}} steps"
      if c is not none:
          choose to from moves(c) label "{{c}} to {{to}}"
          place c at to
  - name: Test Roll Off
    type: action
    colour: offense
    threshold: 2
    text: "Roll off."
    effect: |
      let w = roll_off()
      log "{{w}} wins the roll off"
  - name: Test Kick Off
    type: action
    colour: offense
    threshold: 3
    text: "Give the Quaffle as at the start of the game."
    effect: |
      kick_off(me)
  - name: Test Block
    type: action
    colour: defense
    threshold: 2
    interrupt: true
    window: goal_attempt
    text: "Block a goal."
    effect: |
      set negated = true
  - name: Test Intercept
    type: action
    colour: defense
    threshold: 1
    interrupt: true
    window: pass_play
    text: "Stop a pass."
    effect: |
      set negated = true
  - name: Test Dodge
    type: action
    colour: defense
    threshold: 1
    interrupt: true
    window: knock_off
    text: "Avoid a knock-off."
    effect: |
      set negated = true
  - name: Test Ground
    type: action
    colour: offense
    threshold: 4
    text: "Show where a Chaser and the Keeper may stand (nothing moves)."
    effect: |
      let c = first(chasers(me))
      may choose a from reach from c.space by adjacent up to 1 onto s where chaser_ground(c, s) label "chaser ground {{a}}"
      let k = keeper_of(me)
      may choose b from reach from k.space by adjacent up to 2 onto s where keeper_ground(k, s) label "keeper ground {{b}}"
  - name: Test Filler
    type: action
    colour: wizardry
    threshold: 4
    copies: 10
    text: "Nothing."
    effect: |
      pass
  - name: Test Spot North
    type: spot
    end: north
  - name: Test Spot South
    type: spot
    end: south
"""


def compile_with_deck(deck_text: str):
    """The shipped rules and board, compiled with `deck_text` as both teams' decks."""
    return sources.with_cards("snitch-snatcher", {f"{side}.yaml": deck_text.format(side=side) for side in SIDES})


def rules_game():
    """The rules compiled with TEST_DECK (once per test run)."""
    return sources.compiled_once(("snitch-snatcher", "test"), lambda: compile_with_deck(TEST_DECK))


class Table(shared.Table):
    """A game in progress with helpers to build situations and read the options."""

    BALL = "quaffle"
    STAY_ON = ("seeker",)                # Seekers stay on their track
    ONE_PER_SPACE = True

    # ------------------------------------------------------------ reading
    def moves_of(self, piece: str) -> set[str]:
        prefix = f"move {piece} from "
        return {lab.rsplit(" to ", 1)[1] for lab in self.labels() if lab.startswith(prefix)}

    def passes(self) -> set[str]:
        """Receivers of the offered passes, as `passer -> receiver` names."""
        out = set()
        for lab in self.labels():
            if lab.startswith("pass the quaffle from "):
                rest = lab[len("pass the quaffle from "):]
                a, b = rest.split(" to ")
                out.add(f"{a.split(' (')[0]} -> {b.split(' (')[0]}")
        return out

    # ------------------------------------------------------------ deciding
    def move(self, piece: str, to: str) -> None:
        labels = [lab for lab in self.labels() if lab.startswith(f"move {piece} from ") and lab.endswith(f" to {to}")]
        assert labels, f"{piece} to {to} is not offered; options: {self.labels()}"
        self.pick(labels[0])

    def pass_to(self, passer: str, receiver: str) -> None:
        labels = [lab for lab in self.labels()
                  if lab.startswith(f"pass the quaffle from {passer} (") and f" to {receiver} (" in lab]
        assert labels, f"no pass {passer} -> {receiver}; options: {self.labels()}"
        self.pick(labels[0])

    def roll(self, face: int, side: int | None = None) -> None:
        """Force the next die to `face`; `side`: the side that must be rolling."""
        assert self.s.is_chance_node(), f"no die is being rolled; options: {self.labels()}"
        if side is not None:
            assert self.st.pending.get("for") == side, "the other side is rolling"
        self.s.apply_action(self.labels().index(f"roll {face}"))

    # ------------------------------------------------------------ editing
    def cards(self, name: str, side: int) -> list[int]:
        return [i for i, c in enumerate(self.cg.cards) if c.name == name and c.deck == side]

    def to_zone(self, card_name: str, zone: str, side: int, n: int = 1) -> list[int]:
        """Move n copies of a card of `side` (taken from wherever they are, hands last) into a zone."""
        zid = self.cg.zone_id(zone, side)
        hand = self.cg.zone_id("hand", side)
        ids = sorted((c for c in self.cards(card_name, side) if self.st.card_zone[c] != zid),
                     key=lambda c: self.st.card_zone[c] == hand)
        assert len(ids) >= n, f"only {len(ids)} {card_name} cards left for {SIDES[side]}"
        return self.relocate([(c, self.zone_label(zone, side)) for c in ids[:n]])

    def skills(self, side: int, **colours: int) -> None:
        """Give a side exactly these Skill cards face up (the rest back in the Skill deck)."""
        self.relocate([(c, self.zone_label("skill_deck", side)) for c in self.zone("skills", side)])
        for colour, n in colours.items():
            if n:
                self.to_zone(f"{colour.capitalize()} Skill", "skills", side, n)

    def empty_hands(self) -> None:
        self.relocate([(c, self.zone_label("action_deck", side)) for side in (HOME, AWAY)
                       for c in self.zone("hand", side)])

    def top_of(self, zone: str, side: int, card_name: str) -> int:
        """Put one card of that name on top of a zone (the end of its list)."""
        zid = self.cg.zone_id(zone, side)
        ids = [c for c in self.cards(card_name, side) if self.st.card_zone[c] == zid]
        card = ids[0] if ids else self.to_zone(card_name, zone, side)[0]
        return self.relocate([(card, self.zone_label(zone, side))])[0]

    # ------------------------------------------------------------ moving on
    def draw_skill(self, colour: str = "wizardry") -> None:
        """Step 1 of the turn: draw a Skill card of the given colour."""
        side = self.current()
        self.top_of("skill_deck", side, f"{colour.capitalize()} Skill")
        self.pick("draw a skill card")

    def plays(self) -> list[str]:
        return [lab for lab in self.labels() if lab.startswith(("move ", "pass the quaffle"))]


def table(first: int = HOME, options: dict | None = None, seed: int = 0, cg=None) -> Table:
    """A new game whose roll for the first turn `first` wins 6 to 1, the Quaffle on its
    Chaser 2, both hands emptied back into the Action decks. The game waits for the
    first turn's draw (Turn Sequence, Step 1)."""
    state = GameState.new(cg or rules_game(), seed=seed, options=options, log=True, forced="take")
    t = Table(state)
    t.roll(6 if first == HOME else 1, HOME)
    t.roll(1 if first == HOME else 6, AWAY)
    side = SIDES[first]
    start = "d5" if first == HOME else "d9"
    t.pick(f"give the quaffle to {side} chaser 2 ({start})")
    t.empty_hands()
    assert t.labels() == ["draw an action card", "draw a skill card"], t.labels()
    return t


def plays_after_draw(first: int = HOME, layout: dict | None = None, others: str = "stay",
                     ball: str | None = None, **kw) -> Table:
    """A table where `first` has drawn and waits for its first pitch play."""
    t = table(first, **kw)
    if layout is not None:
        t.put(layout, others)
    if ball is not None:
        t.give(ball)
    t.draw_skill()
    return t


# --------------------------------------------------------------------------------------
# Board geometry written independently of the engine, to check the moves against.

COLS = "abcdefg"


def xy(space: str) -> tuple[int, int]:
    return COLS.index(space[0]), int(space[1:])


def name(x: int, y: int) -> str:
    return f"{COLS[x]}{y}"


def is_dark(space: str) -> bool:
    x, y = xy(space)
    return (x + y) % 2 == 0


def field_space(x: int, y: int) -> bool:
    return 0 <= x < 7 and 2 <= y <= 12


def walk(start: str, steps, n: int, ok) -> set[str]:
    """Spaces reached in 1..n steps from start, every space on the way passing ok()."""
    seen, found, frontier = {start}, set(), deque([(start, 0)])
    while frontier:
        here, d = frontier.popleft()
        x, y = xy(here)
        for dx, dy in steps:
            if not field_space(x + dx, y + dy):
                continue
            nxt = name(x + dx, y + dy)
            if nxt in seen or not ok(nxt):
                continue
            seen.add(nxt)
            found.add(nxt)
            if d + 1 < n:
                frontier.append((nxt, d + 1))
    return found


DIAGONAL = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
ORTHOGONAL = [(1, 0), (-1, 0), (0, 1), (0, -1)]


# ======================================================================================
# Contents, Equipment & Set-Up


def test_pieces_are_fourteen_players_a_quaffle_and_a_snitch_and_the_die_is_a_d6():
    """Contents / Quidditch Players: 16 playing pieces = 2 x (3 Chasers, 2 Beaters,
    1 Keeper, 1 Seeker) + the Quaffle + the Golden Snitch; the die has six faces
    (Spot the Golden Snitch: "you throw a 6")."""
    cg = rules_game()
    assert len(cg.pieces) == 16
    for side in (HOME, AWAY):
        kinds = sorted(p.kind for p in cg.pieces if p.side == side)
        assert kinds == ["beater"] * 2 + ["chaser"] * 3 + ["keeper", "seeker"]
    assert sorted(p.name for p in cg.pieces if p.side < 0) == ["quaffle", "snitch"]
    assert cg.dice["d6"] == (1, 2, 3, 4, 5, 6)


def test_board_reconstruction_facts():
    """Quidditch Player Movement & Designated Board Areas; Additional Golden Snitch Game
    Terms: the middle line is a row of spaces (row 7), each keeper area is the row in
    front of its three goal spaces, the seeker track is a ring with a Golden Snitch
    space at each end."""
    b = rules_game().board
    assert {b.spaces[i] for i in b.regions["middle_line"]} == {f"{c}7" for c in COLS}
    assert {b.spaces[i] for i in b.regions["goal_home"]} == {"b1", "d1", "f1"}
    assert {b.spaces[i] for i in b.regions["goal_away"]} == {"b13", "d13", "f13"}
    assert {b.spaces[i] for i in b.regions["keeper_area_home"]} == {f"{c}2" for c in COLS}
    assert {b.spaces[i] for i in b.regions["keeper_area_away"]} == {f"{c}12" for c in COLS}
    assert len(b.regions["seeker_track"]) == 20
    assert [b.spaces[i] for i in b.regions["snitch_north"]] == ["t1"]
    assert [b.spaces[i] for i in b.regions["snitch_south"]] == ["t11"]
    # North is the away end (row 13 side), south the home end.
    assert b.positions[b.index["t1"]][1] > 13 and b.positions[b.index["t11"]][1] < 1


def test_starting_positions():
    """Equipment & Set-Up > Set Up 1: Chasers on dark spaces (the dots), Beaters on light
    spaces directly behind two of the Chasers, Keepers on the centre goal space,
    Seekers at the midpoints of the seeker track to the right of their team."""
    t = table()
    b = t.board
    for side, direction in (("home", 1), ("away", -1)):
        chasers = [t.where(f"{side} chaser {i}") for i in (1, 2, 3)]
        beaters = [t.where(f"{side} beater {i}") for i in (1, 2)]
        assert all(is_dark(s) for s in chasers)
        assert not any(is_dark(s) for s in beaters)
        for s in beaters:
            x, y = xy(s)
            assert name(x, y + direction) in chasers  # a Chaser directly in front
        assert t.where(f"{side} keeper") == ("d1" if side == "home" else "d13")
    assert sorted(t.where(f"home chaser {i}") for i in (1, 2, 3)) == ["b5", "d5", "f5"]
    assert sorted(t.where(f"away chaser {i}") for i in (1, 2, 3)) == ["b9", "d9", "f9"]
    # Home looks north: its right is east (x > centre); away looks south: right is west.
    assert t.where("home seeker") == "t6" and b.positions[b.index["t6"]][0] > 6
    assert t.where("away seeker") == "t16" and b.positions[b.index["t16"]][0] < 0


def test_each_team_deals_its_own_deck_and_spot_cards_go_to_the_action_deck():
    """Equipment & Set-Up > Set Up 2: each team separates its Skill Cards from its Action
    Cards and shuffles them; Spot the Golden Snitch cards are Action-deck cards (To
    Begin a Game 1 finds them while drawing Action Cards)."""
    t = table()
    cg = t.cg
    for side in (HOME, AWAY):
        for zone in ("skill_deck", "skills", "action_deck", "hand", "discard"):
            assert all(cg.cards[c].deck == side for c in t.zone(zone, side))
        assert all(cg.cards[c].type == "skill" for c in t.zone("skill_deck", side))
        assert {cg.cards[c].type for c in t.zone("action_deck", side)} == {"action", "spot"}
        owned = sum(len(t.zone(z, side)) for z in ("skill_deck", "skills", "action_deck", "hand", "discard"))
        assert owned == sum(1 for c in cg.cards if c.deck == side)


def test_opening_hand_is_four_action_cards_and_never_a_spot_card():
    """Game Play > To Begin a Game 1: draw 4 Action cards; a Spot the Golden Snitch card
    drawn now goes back into the deck, which is reshuffled, and another card is drawn."""
    deck = TEST_DECK.replace("name: Test Spot North\n    type: spot\n    end: north",
                             "name: Test Spot North\n    type: spot\n    end: north\n    copies: 20")
    cg = compile_with_deck(deck)
    for seed in range(8):
        t = Table(GameState.new(cg, seed=seed, forced="take"))
        for side in (HOME, AWAY):
            hand = [cg.cards[c] for c in t.zone("hand", side)]
            assert len(hand) == 4
            assert all(c.type == "action" for c in hand)
            assert sum(cg.cards[c].type == "spot" for c in t.zone("action_deck", side)) == 21


def test_opening_hand_stops_when_only_spot_cards_are_left():
    """Game Play > To Begin a Game 1 (not covered: when the Action deck holds nothing but
    Spot the Golden Snitch cards, the opening draw stops instead of reshuffling forever)."""
    deck = "\n".join(line for line in TEST_DECK.splitlines()) + "\n"
    start = deck.index("  - name: Test Step")
    end = deck.index("  - name: Test Spot North")
    cg = compile_with_deck(deck[:start] + """\
  - name: Test Only
    type: action
    colour: offense
    threshold: 1
    copies: 2
    text: "Nothing."
    effect: |
      pass
""" + deck[end:])
    t = Table(GameState.new(cg, seed=0, forced="take"))
    for side in (HOME, AWAY):
        assert t.zone_names("hand", side) == ["Test Only", "Test Only"]
        assert sorted(t.zone_names("action_deck", side)) == ["Test Spot North", "Test Spot South"]


def test_first_turn_roll_winner_plays_first_and_takes_the_quaffle():
    """Game Play > To Begin a Game 2: the higher roll takes the first turn and the Quaffle,
    on top of its forward-most Chaser."""
    t = Table(GameState.new(rules_game(), seed=0, forced="take"))
    t.roll(2, HOME)
    t.roll(5, AWAY)
    assert t.current() == AWAY
    assert t.labels() == ["give the quaffle to away chaser 1 (b9)", "give the quaffle to away chaser 2 (d9)",
                          "give the quaffle to away chaser 3 (f9)"]
    t.pick("give the quaffle to away chaser 3 (f9)")
    assert t.holder() == "away chaser 3"
    assert t.s.current_player() == AWAY  # away's first draw


def test_first_turn_roll_tie_rolls_again():
    """Game Play > To Begin a Game 2 (ties are not covered: we roll again)."""
    t = Table(GameState.new(rules_game(), seed=0, forced="take"))
    t.roll(4, HOME)
    t.roll(4, AWAY)
    assert t.s.is_chance_node() and t.st.pending["for"] == HOME
    t.roll(3, HOME)
    t.roll(1, AWAY)
    assert t.current() == HOME and not t.s.is_chance_node()


def test_kick_off_offers_only_the_forward_most_chasers():
    """Game Play > To Begin a Game 2: the Quaffle goes on the forward-most Chaser; when
    several are equally far forward the team picks one of them."""
    t = table()
    t.skills(HOME, offense=3)
    t.to_zone("Test Kick Off", "hand", HOME)
    t.put({"home chaser 1": "a8", "home chaser 2": "c8", "home chaser 3": "e6"})
    t.draw_skill()
    t.pick("play Test Kick Off")
    assert t.labels() == ["give the quaffle to home chaser 1 (a8)", "give the quaffle to home chaser 2 (c8)"]
    # Away attacks toward lower rows: its forward-most Chaser has the lowest row.
    t2 = table(AWAY)
    t2.skills(AWAY, offense=3)
    t2.to_zone("Test Kick Off", "hand", AWAY)
    t2.put({"away chaser 1": "a10", "away chaser 2": "c8", "away chaser 3": "e6"})
    t2.draw_skill()
    t2.pick("play Test Kick Off")
    assert t2.holder() == "away chaser 3"  # a single forward-most Chaser: no choice


def test_goals_to_win_option_is_three_or_five():
    """Game Play > Goal Attempts & Scoring 5: play to 3 goals (default) or 5."""
    cg = rules_game()
    assert cg.options["goals_to_win"] == (3, (3, 5))
    with pytest.raises(ValueError):
        GameState.new(cg, options={"goals_to_win": 4}, forced="take")


# ======================================================================================
# Game Play > Turn Sequence


def test_draw_is_compulsory_from_either_deck():
    """Turn Sequence, Step 1: draw one card from either the Action or the Skill deck (no
    option to skip); a Skill card is laid face up, an Action card goes to the hand."""
    t = table()
    assert t.labels() == ["draw an action card", "draw a skill card"]
    t.draw_skill("offense")
    assert t.zone_names("skills", HOME) == ["Offense Skill"]
    t2 = table()
    card = t2.top_of("action_deck", HOME, "Test Filler")
    t2.pick("draw an action card")
    assert t2.zone("hand", HOME) == [card]


def test_draw_options_follow_what_is_left_in_the_decks():
    """Turn Sequence, Step 1; Playing Cards > Action Cards (an exhausted Skill deck is not
    covered: then the draw is from the Action deck, taken without asking; with no card
    left anywhere the team draws nothing and plays on)."""
    t = table()
    # out of play (skills would make cards playable)
    t.relocate([(c, t.zone_label("discard", HOME)) for c in t.zone("skill_deck", AWAY)])
    filler = t.top_of("action_deck", AWAY, "Test Filler")
    t.draw_skill()
    t.move("home beater 1", "b3")
    t.move("home beater 2", "f3")
    assert t.current() == AWAY and t.zone("hand", AWAY) == [filler]
    assert t.plays() == t.labels()
    t2 = table()
    t2.relocate([(c, t2.zone_label("discard", HOME)) for c in t2.zone("skill_deck", AWAY) + t2.zone("action_deck", AWAY)])
    t2.draw_skill()
    t2.move("home beater 1", "b3")
    t2.move("home beater 2", "f3")
    assert t2.current() == AWAY and t2.zone("hand", AWAY) == []
    assert t2.plays() == t2.labels()


def test_one_action_card_before_the_pitch_plays():
    """Turn Sequence, Step 2; Playing Cards > Action Cards: at most one Action card per
    turn, played before the 2 pitch plays, then discarded; playing none is allowed."""
    t = table()
    t.skills(HOME, offense=2)
    t.to_zone("Test Step", "hand", HOME)
    t.to_zone("Test Roll Off", "hand", HOME)
    t.draw_skill()
    assert t.labels() == ["play Test Step", "play Test Roll Off", "do not choose"]
    t.pick("play Test Step")
    t.pick(t.labels()[0])  # which Chaser
    t.pick(t.labels()[0])  # where
    assert t.zone_names("discard", HOME) == ["Test Step"]
    assert t.zone_names("hand", HOME) == ["Test Roll Off"]
    assert t.plays() and t.plays() == t.labels()  # straight to the pitch plays: no second card
    t2 = table()
    t2.skills(HOME, offense=2)
    t2.to_zone("Test Step", "hand", HOME)
    t2.draw_skill()
    t2.pick("do not choose")
    assert t2.plays() == t2.labels()
    assert t2.zone_names("hand", HOME) == ["Test Step"]


def test_two_pitch_plays_then_the_turn_passes():
    """Turn Sequence, Step 3: make 2 pitch plays on every turn; then the other team plays."""
    t = plays_after_draw()
    t.move("home beater 1", "b3")
    assert t.current() == HOME and t.plays()
    t.move("home beater 2", "f3")
    assert t.current() == AWAY
    assert t.labels() == ["draw an action card", "draw a skill card"]


def test_pitch_plays_are_compulsory_when_possible():
    """Turn Sequence, Step 3 (we read "Make 2 pitch plays on every turn" as compulsory:
    there is no option to stop or to pass up a play)."""
    t = plays_after_draw()
    assert all(lab.startswith(("move ", "pass the quaffle")) for lab in t.labels())
    assert "do nothing" not in t.labels()


def test_fewer_pitch_plays_when_none_is_legal():
    """Turn Sequence, Step 3 (not covered: a team makes as many pitch plays as it can).
    Only one Chaser without the Quaffle is on the pitch: after it moves, nothing is
    legal and the turn passes."""
    t = plays_after_draw(layout={"home chaser 1": "d5", "away chaser 1": "d9"}, others="off",
                         ball="away chaser 1")
    assert {lab.split(" from ")[0] for lab in t.labels()} == {"move home chaser 1"}
    t.move("home chaser 1", "c6")
    assert t.current() == AWAY


def test_a_player_cannot_move_twice_in_a_turn():
    """Turn Sequence, Important; Game Play > Rules of the Pitch 1: you cannot move the
    same player twice in a turn."""
    t = plays_after_draw()
    t.move("home chaser 1", "a6")
    assert t.moves_of("home chaser 1") == set()
    assert t.moves_of("home chaser 2")


def test_a_player_may_move_and_pass_in_the_same_turn():
    """Turn Sequence, Important: a player can move once and pass the Quaffle on the same turn."""
    t = plays_after_draw(ball="home chaser 2")
    t.move("home chaser 2", "c6")
    assert "home chaser 2 -> home chaser 1" in t.passes()
    t.pass_to("home chaser 2", "home chaser 1")
    assert t.holder() == "home chaser 1"


def test_two_passes_in_one_turn():
    """Turn Sequence, Step 3 (two passes are not forbidden: allowed)."""
    t = plays_after_draw(ball="home chaser 2")
    t.pass_to("home chaser 2", "home chaser 1")
    t.pass_to("home chaser 1", "home chaser 3")
    assert t.holder() == "home chaser 3" and t.current() == AWAY


# ======================================================================================
# Quidditch Players: movement by role


def test_chaser_moves_up_to_three_diagonal_steps_on_dark_green():
    """Quidditch Players > Chasers: up to 3 spaces diagonally, straight or zigzag, only
    on dark green spaces. Checked against an independent walk of the grid."""
    t = plays_after_draw(layout={"home chaser 2": "e6"}, others="off")
    expected = walk("e6", DIAGONAL, 3, lambda s: is_dark(s) and xy(s)[1] != 2) - {"e6"}
    got = t.moves_of("home chaser 2")
    assert got == expected
    assert all(is_dark(s) for s in got)
    assert {"c4", "b3", "g8", "b9", "d7", "c6"} <= got  # straight lines and zigzags


def test_chaser_zigzags_but_never_ends_where_it_started():
    """Quidditch Players > Chasers (a move must end on a different space; a zigzag may come
    back beside its start, e.g. e6-d7-c6)."""
    t = plays_after_draw(layout={"home chaser 2": "e6"}, others="off")
    got = t.moves_of("home chaser 2")
    assert "e6" not in got
    assert {"c6", "g6", "e8", "e4"} <= got


def test_chaser_never_ends_on_or_passes_through_an_occupied_space():
    """Quidditch Players > Chasers: Chasers cannot move onto or through a space occupied
    by another player (teammate or opponent)."""
    free = plays_after_draw(layout={"home chaser 2": "c4"}, others="off").moves_of("home chaser 2")
    assert {"d5", "e6", "f7"} <= free
    for blocker in ("home chaser 1", "away beater 1"):
        t = plays_after_draw(layout={"home chaser 2": "c4", blocker: "d5"}, others="off")
        got = t.moves_of("home chaser 2")
        # e6 and f7 can only be reached through d5 in three steps.
        assert not {"d5", "e6", "f7"} & got
        assert {"b5", "a6", "b3"} <= got


def test_chaser_never_enters_its_own_keeper_area():
    """Quidditch Players > Chasers: Chasers cannot occupy any space of their own keeper
    area (the row in front of their goal); the other team's keeper area is allowed."""
    t = plays_after_draw(layout={"home chaser 2": "c4", "home chaser 3": "d11"}, others="off")
    assert not any(s.endswith("2") and len(s) == 2 for s in t.moves_of("home chaser 2"))
    assert {"b3", "d3"} <= t.moves_of("home chaser 2")
    assert {"c12", "e12"} <= t.moves_of("home chaser 3")
    # Nor through it: with c4 taken, d3 could only be reached from b3 through c2.
    t3 = plays_after_draw(layout={"home chaser 2": "b3", "home chaser 3": "c4"}, others="off")
    assert "d3" not in t3.moves_of("home chaser 2") and "a4" in t3.moves_of("home chaser 2")
    t2 = plays_after_draw(AWAY, layout={"away chaser 2": "c10", "away chaser 3": "d3"}, others="off")
    assert not {s for s in t2.moves_of("away chaser 2") if s.endswith("12")}
    assert {"c2", "e2"} <= t2.moves_of("away chaser 3")


def test_chaser_without_the_quaffle_never_enters_goal_spaces():
    """Game Play > Goal Attempts & Scoring 1; Quidditch Players > Chasers (a Chaser without
    the Quaffle may not step onto goal spaces: they are not dark green field spaces)."""
    t = plays_after_draw(layout={"home chaser 2": "c12", "home chaser 1": "a4"}, others="off",
                         ball="home chaser 1")
    assert not {"b13", "d13", "f13"} & t.moves_of("home chaser 2")


def test_chaser_with_the_quaffle_scores_by_stepping_onto_an_open_goal_space():
    """Game Play > Goal Attempts & Scoring 1: a goal is scored by moving the Chaser holding
    the Quaffle onto one of the opponent's open goal spaces; an occupied goal space is
    not open; the own goal spaces never are a target."""
    t = plays_after_draw(layout={"home chaser 2": "c12", "away keeper": "d13"}, others="off",
                         ball="home chaser 2")
    got = t.moves_of("home chaser 2")
    assert "b13" in got and "d13" not in got
    t2 = plays_after_draw(layout={"home chaser 2": "c4"}, others="off", ball="home chaser 2")
    assert not {"b1", "d1", "f1"} & t2.moves_of("home chaser 2")


def test_beater_moves_up_to_two_orthogonal_steps_on_any_green():
    """Quidditch Players > Beaters: up to 2 spaces forward, backward, left and right, not
    diagonally, on light and dark green. Checked against an independent walk."""
    t = plays_after_draw(layout={"home beater 1": "c5"}, others="off")
    expected = walk("c5", ORTHOGONAL, 2, lambda s: True) - {"c5"}
    got = t.moves_of("home beater 1")
    assert got == expected
    assert any(is_dark(s) for s in got) and any(not is_dark(s) for s in got)


def test_beater_steps_may_turn_a_corner():
    """Quidditch Players > Beaters (the two steps need not be in a straight line: one
    forward then one left is allowed, which puts a Beater on a diagonal neighbour)."""
    t = plays_after_draw(layout={"home beater 1": "c5"}, others="off")
    assert {"b6", "d6", "b4", "d4"} <= t.moves_of("home beater 1")


def test_beater_cannot_pass_through_an_occupied_space():
    """Quidditch Players > Beaters; Rules of the Pitch 2 (a Beater is blocked like a
    Chaser: it does not jump over players)."""
    t = plays_after_draw(layout={"home beater 1": "c5", "home chaser 1": "c6",
                                 "home chaser 2": "b5", "home chaser 3": "d5", "home keeper": "c4"},
                         others="off")
    assert t.moves_of("home beater 1") == set()


def test_beater_never_enters_goal_spaces():
    """Quidditch Players > Beaters: a Beater can occupy any space except goal spaces
    (its own keeper area is allowed)."""
    t = plays_after_draw(layout={"home beater 1": "b3"}, others="off")
    got = t.moves_of("home beater 1")
    assert "b2" in got and "a2" in got
    assert "b1" not in got
    t2 = plays_after_draw(layout={"home beater 1": "b11"}, others="off")
    assert "b13" not in t2.moves_of("home beater 1") and "b12" in t2.moves_of("home beater 1")


def test_beater_knocks_off_opposing_chasers_and_beaters_but_not_keepers():
    """Quidditch Players > Beaters; Rules of the Pitch 4 and 5: a Beater knocks an opposing
    player off by moving onto its space, but cannot knock Keepers (or Seekers) off; it
    never moves onto a teammate."""
    t = plays_after_draw(layout={"home beater 1": "c11", "away chaser 1": "c10", "away beater 1": "b11",
                                 "away keeper": "d12", "home chaser 1": "c12"}, others="off")
    got = t.moves_of("home beater 1")
    assert "c10" in got and "b11" in got
    assert "d12" not in got and "c12" not in got
    t.move("home beater 1", "b11")
    assert t.where("away beater 1") is None and t.where("home beater 1") == "b11"


def test_chasers_never_knock_anyone_off():
    """Game Play > Rules of the Pitch 4: only Beaters and Keepers can move onto a space
    occupied by an opposing player."""
    t = plays_after_draw(layout={"home chaser 2": "c6", "away chaser 1": "d7", "away beater 1": "b7"},
                         others="off")
    got = t.moves_of("home chaser 2")
    assert "d7" not in got and "b7" not in got


def test_keeper_moves_up_to_two_diagonal_steps_in_its_goal_and_keeper_area():
    """Quidditch Players > Keeper: up to 2 spaces diagonally between its goal spaces and
    the dark green spaces of its keeper area; never beyond."""
    t = plays_after_draw(layout={"home keeper": "d1"}, others="off")
    assert t.moves_of("home keeper") == {"c2", "e2", "b1", "f1"}
    t2 = plays_after_draw(layout={"home keeper": "a2"}, others="off")
    assert t2.moves_of("home keeper") == {"b1", "c2"}
    t3 = plays_after_draw(AWAY, layout={"away keeper": "e12"}, others="off")
    assert t3.moves_of("away keeper") == {"d13", "f13", "c12", "g12"}


def test_keeper_knocks_off_opponents_only_inside_its_keeper_area():
    """Quidditch Players > Keeper; Rules of the Pitch 4: a Keeper can knock any opposing
    player in its keeper area off the pitch; it cannot leave that area to do so."""
    t = plays_after_draw(layout={"home keeper": "d1", "away chaser 1": "c2", "away chaser 2": "b3",
                                 "home chaser 1": "e4"}, others="off")
    got = t.moves_of("home keeper")
    assert "c2" in got and "b3" not in got
    t.move("home keeper", "c2")
    assert t.where("away chaser 1") is None and t.where("home keeper") == "c2"


def test_keeper_cannot_reach_light_keeper_area_spaces():
    """Quidditch Players > Keeper (a Keeper moves only on dark keeper-area spaces, so an
    opposing Beater standing on a light one is out of its reach)."""
    t = plays_after_draw(layout={"home keeper": "d1", "away beater 1": "c2", "away beater 2": "e2"},
                         others="off")
    # Both dark neighbours are Beaters: the Keeper may knock them off...
    assert {"c2", "e2"} <= t.moves_of("home keeper")
    t2 = plays_after_draw(layout={"home keeper": "c2", "away beater 1": "d2", "away beater 2": "b2"},
                          others="off")
    # ... but never one on a light space such as d2 or b2.
    assert not {"d2", "b2"} & t2.moves_of("home keeper")


def test_chaser_and_keeper_ground_is_dark_green():
    """Quidditch Players > Chasers ("They move only on dark green spaces"); Quidditch
    Players > Keeper (goal spaces and the dark green keeper-area spaces). Diagonal steps
    never change colour on our board, so this asks the ground tests directly, as card
    effects do, over every neighbouring space."""
    t = table()
    t.skills(HOME, offense=4)
    t.to_zone("Test Ground", "hand", HOME)
    t.put({"home chaser 1": "c4", "home keeper": "c2"})
    t.draw_skill()
    t.pick("play Test Ground")
    chaser = {lab.split()[-1] for lab in t.labels() if lab.startswith("chaser ground ")}
    assert chaser == {"b3", "d3", "b5", "d5"} - {"d5"}  # d5 holds home chaser 2
    t.pick("do not choose")
    keeper = {lab.split()[-1] for lab in t.labels() if lab.startswith("keeper ground ")}
    # Within 2 king steps of c2: the goal spaces and dark keeper-area spaces, never the
    # light b2 / d2 or anything beyond row 2.
    assert keeper == {"a2", "e2", "b1", "d1"}
    t.pick("do not choose")


def test_keeper_keeps_the_quaffle_while_no_chaser_can_take_a_pass():
    """Game Play > Goal Attempts & Scoring 4 (not covered when no Chaser can receive the
    pass, e.g. all are over the middle line: the Keeper keeps the Quaffle and the team
    makes its other pitch plays)."""
    t = table()
    t.put({"home chaser 1": "a8", "home chaser 2": "c8", "home chaser 3": "e8"})
    t.give("home keeper")
    t.draw_skill()
    assert t.passes() == set()
    t.move("home beater 1", "b3")
    t.move("home chaser 1", "a6")
    assert t.holder() == "home keeper" and t.current() == AWAY


def test_seekers_make_no_pitch_play():
    """Quidditch Players > Seeker: Seekers move only when a Spot the Golden Snitch card is
    drawn, never as a pitch play."""
    t = plays_after_draw()
    assert not any("seeker" in lab for lab in t.labels())


# ======================================================================================
# Game Play > Rules of the Pitch: knock-offs and returns


def test_knocked_off_player_returns_to_its_start_at_the_start_of_its_teams_turn():
    """Game Play > Rules of the Pitch 3: knocked-off players are out until the start of
    their team's next turn, then go back to their starting positions; returning is not
    a pitch play."""
    t = plays_after_draw(layout={"home beater 1": "c7", "away chaser 1": "c8"})
    t.move("home beater 1", "c8")
    assert t.where("away chaser 1") is None
    t.move("home beater 2", "f3")
    assert t.current() == AWAY
    assert t.where("away chaser 1") == "b9"
    t.draw_skill()
    t.move("away chaser 1", "a10")
    assert t.current() == AWAY  # still two pitch plays after the return


def test_return_goes_to_another_start_of_the_role_when_its_own_is_taken():
    """Game Play > Rules of the Pitch 3 ("If all starting positions are occupied, players
    must wait": a player may use any open starting position of its role; its own first)."""
    t = plays_after_draw(layout={"home beater 1": "c7", "away chaser 1": "c8", "home chaser 1": "b9",
                                 "away chaser 2": "c10", "away chaser 3": "e10"})
    t.move("home beater 1", "c8")
    t.move("home beater 2", "f3")
    # away chaser 1's own start b9 is taken; d9 and f9 are open: away picks.
    assert t.labels() == ["return away chaser 1 to d9", "return away chaser 1 to f9"]
    t.pick("return away chaser 1 to f9")
    assert t.where("away chaser 1") == "f9"


def test_return_waits_while_every_start_of_the_role_is_taken():
    """Game Play > Rules of the Pitch 3: if all starting positions are occupied the player
    waits until the start of a turn on which one is available."""
    t = plays_after_draw(layout={"home beater 1": "c7", "away chaser 1": "c8", "home chaser 1": "b9",
                                 "home chaser 2": "d9", "home chaser 3": "f9",
                                 "away chaser 2": "c10", "away chaser 3": "e10"})
    t.move("home beater 1", "c8")
    t.move("home beater 2", "f3")
    assert t.current() == AWAY and t.where("away chaser 1") is None
    assert t.labels() == ["draw an action card", "draw a skill card"]


def test_quaffle_goes_to_the_nearest_opposing_chaser_when_its_carrier_is_knocked_off():
    """Game Play > Rules of the Pitch 8: the Quaffle goes to the Chaser of the other team
    closest to where it was taken (distance in king steps over the grid)."""
    t = plays_after_draw(layout={"home beater 1": "c7", "away chaser 1": "c8", "home chaser 1": "a10",
                                 "home chaser 2": "e6", "home chaser 3": "d7"}, ball="away chaser 1")
    # From c8: d7 is 1 king step away, a10 and e6 are 2.
    t.move("home beater 1", "c8")
    assert t.holder() == "home chaser 3"


def test_keeper_knocking_off_the_carrier_gives_the_quaffle_to_its_nearest_chaser():
    """Game Play > Rules of the Pitch 8 applies to a Keeper's knock-off too: the Quaffle goes
    to the Keeper's team's Chaser closest to where it was taken."""
    t = plays_after_draw(layout={"away chaser 1": "c2", "home chaser 1": "b3", "home chaser 2": "e4"},
                         ball="away chaser 1")
    t.move("home keeper", "c2")
    assert t.where("away chaser 1") is None and t.holder() == "home chaser 1"


def test_quaffle_tie_for_nearest_chaser_is_picked_by_the_team_that_knocked():
    """Game Play > Rules of the Pitch 8 (ties are not covered: the team that knocked the
    carrier off picks among the nearest)."""
    t = plays_after_draw(layout={"home beater 1": "c7", "away chaser 1": "c8", "home chaser 1": "a10",
                                 "home chaser 2": "e10", "home chaser 3": "g4"}, ball="away chaser 1")
    t.move("home beater 1", "c8")
    assert t.s.current_player() == HOME
    assert t.labels() == ["give the quaffle to home chaser 1 (a10)", "give the quaffle to home chaser 2 (e10)"]
    t.pick("give the quaffle to home chaser 2 (e10)")
    assert t.holder() == "home chaser 2"


def test_quaffle_goes_to_the_keeper_when_the_other_team_has_no_chaser_on_the_pitch():
    """Game Play > Rules of the Pitch 8 (undefined when no opposing Chaser is on the pitch:
    the knocking team's Keeper takes the Quaffle)."""
    t = plays_after_draw(layout={"home beater 1": "c7", "away chaser 1": "c8", "home chaser 1": None,
                                 "home chaser 2": None, "home chaser 3": None}, ball="away chaser 1")
    t.move("home beater 1", "c8")
    assert t.holder() == "home keeper"


# ======================================================================================
# Passing


def test_pass_only_to_chasers_of_the_team():
    """Equipment & Set-Up > Quaffle; Rules of the Pitch 7: only Chasers and Keepers hold the
    Quaffle, and a Keeper takes it only after a blocked goal, so passes go to Chasers
    only (never to the own Keeper, a Beater or an opponent)."""
    t = plays_after_draw(ball="home chaser 2")
    assert t.passes() == {"home chaser 2 -> home chaser 1", "home chaser 2 -> home chaser 3"}


def test_pass_not_offered_across_the_middle_line():
    """Game Play > Rules of the Pitch 6; Equipment & Set-Up > Quaffle: the Quaffle cannot be
    passed over the middle line; only players on the same side of the pitch pass to
    each other."""
    t = plays_after_draw(layout={"home chaser 2": "c6", "home chaser 1": "a8", "home chaser 3": "e4"},
                         ball="home chaser 2")
    assert t.passes() == {"home chaser 2 -> home chaser 3"}


def test_chaser_on_the_middle_line_passes_and_receives_anywhere():
    """Game Play > Rules of the Pitch 6: a Chaser on the middle line can pass to any
    location and receive a pass from any location."""
    t = plays_after_draw(layout={"home chaser 2": "d7", "home chaser 1": "b11", "home chaser 3": "f3"},
                         ball="home chaser 2")
    assert t.passes() == {"home chaser 2 -> home chaser 1", "home chaser 2 -> home chaser 3"}
    t2 = plays_after_draw(layout={"home chaser 2": "d3", "home chaser 1": "b7", "home chaser 3": "f11"},
                          ball="home chaser 2")
    assert t2.passes() == {"home chaser 2 -> home chaser 1"}


def test_pass_has_any_length_and_is_not_blocked_by_players():
    """Game Play > Turn Sequence (no pass distance and nothing about players in the way:
    any distance, through anyone)."""
    t = plays_after_draw(layout={"home chaser 2": "a4", "home chaser 1": "g6",
                                 "away beater 1": "b5", "away beater 2": "d5", "away chaser 1": "e6"},
                         ball="home chaser 2")
    assert "home chaser 2 -> home chaser 1" in t.passes()


def test_pass_interrupt_keeps_the_quaffle_with_the_passer():
    """Playing Cards > Action Cards > Interrupt Cards: an interrupt the other team plays in
    the pass window stops the pass; the pitch play is spent."""
    t = table()
    t.skills(AWAY, defense=1)
    t.to_zone("Test Intercept", "hand", AWAY)
    t.give("home chaser 2")
    t.draw_skill()
    t.pass_to("home chaser 2", "home chaser 1")
    assert t.s.current_player() == AWAY
    assert t.labels() == ["interrupt with Test Intercept", "do not choose"]
    t.pick("interrupt with Test Intercept")
    assert t.holder() == "home chaser 2"
    assert t.zone_names("discard", AWAY) == ["Test Intercept"]
    assert t.current() == HOME and t.plays()  # the second pitch play


def shipped_table() -> Table:
    """A table (see `table`) on the shipped rules and decks, for the shipped interrupt cards."""
    return table(cg=sources.shipped("snitch-snatcher"))


def test_shipped_interception_gives_the_quaffle_to_the_intercepting_chaser():
    """Playing Cards > Action Cards > Interrupt Cards (ruling 38): the shipped Interception
    ("Your Chaser cuts in and catches the pass instead") does not just cancel the pass: the
    Quaffle goes to the intercepting Chaser, not back to the passer; the pitch play is spent."""
    t = shipped_table()
    t.put({"home chaser 2": "c4", "home chaser 1": "e4", "away chaser 1": "e5"}, others="off")
    t.give("home chaser 2")
    t.skills(AWAY, defense=2)
    t.to_zone("Interception", "hand", AWAY)
    t.draw_skill()
    t.pass_to("home chaser 2", "home chaser 1")
    t.pick("interrupt with Interception")
    if t.current() != HOME or not t.plays():  # which Chaser cuts in, when the card asks
        t.pick("away chaser 1 (e5) cuts in front of home chaser 1")
    assert t.holder() == "away chaser 1"
    assert t.where("home chaser 1") == "e4" and t.where("away chaser 1") == "e5"
    assert t.zone_names("discard", AWAY) == ["Interception"]
    assert t.current() == HOME and t.plays()  # the second pitch play


def test_shipped_bludger_rebound_sends_the_attacker_to_its_start():
    """Playing Cards > Action Cards > Interrupt Cards (ruling 38): the shipped Bludger Rebound
    ("the knock-off fails and the attacker is flung back to its starting position, if that
    space is free"): the victim stays, the Beater goes to its start; with the start taken,
    the Beater stays where it was."""
    start = shipped_table().where("home beater 1")
    for start_taken in (False, True):
        t = shipped_table()
        layout = {"home beater 1": "c7", "away chaser 1": "c8"}
        if start_taken:
            layout["home chaser 3"] = start
        t.put(layout, others="off")
        t.skills(AWAY, wizardry=3)
        t.to_zone("Bludger Rebound", "hand", AWAY)
        t.draw_skill()
        t.move("home beater 1", "c8")
        t.pick("interrupt with Bludger Rebound")
        assert t.where("away chaser 1") == "c8"
        assert t.where("home beater 1") == ("c7" if start_taken else start)
        assert t.zone_names("discard", AWAY) == ["Bludger Rebound"]


# ======================================================================================
# Game Play > Goal Attempts & Scoring


def goal_table(**kw) -> Table:
    """Home's Chaser 2 holds the Quaffle on c12, one step from the open goal space b13."""
    t = table(**kw)
    t.put({"home chaser 2": "c12"})
    t.give("home chaser 2")
    return t


def test_goal_scores_ten_and_everyone_but_the_seekers_goes_back_to_start():
    """Game Play > Goal Attempts & Scoring 3 and 5: a goal scores 10 points; all players
    return to their starting positions except the Seekers; the team scored against
    takes the Quaffle; the goal attempt ends the turn."""
    t = goal_table()
    t.put({"home beater 1": "c9", "away beater 2": "e5", "away chaser 1": None,
           "home seeker": "t3", "away seeker": "t19"})
    t.draw_skill()
    t.move("home chaser 2", "b13")
    assert t.side_var("score", HOME) == 10 and t.side_var("goals_scored", HOME) == 1
    assert t.s.current_player() == AWAY
    assert t.labels() == ["give the quaffle to away chaser 1 (b9)", "give the quaffle to away chaser 2 (d9)",
                          "give the quaffle to away chaser 3 (f9)"]
    t.pick("give the quaffle to away chaser 1 (b9)")
    for i, p in enumerate(t.cg.pieces):
        if p.side >= 0 and p.kind != "seeker":
            assert t.where(p.name) == t.board.spaces[p.start], p.name
    assert t.where("home seeker") == "t3" and t.where("away seeker") == "t19"
    assert t.holder() == "away chaser 1"
    assert t.current() == AWAY and t.labels() == ["draw an action card", "draw a skill card"]


def test_goal_attempt_ends_the_turn_even_as_the_first_pitch_play():
    """Game Play > Goal Attempts & Scoring 2: whenever you make a goal attempt, whether or
    not it is successful, your turn ends."""
    t = goal_table()
    t.draw_skill()
    t.move("home chaser 2", "b13")
    t.pick(t.labels()[0])  # away takes the Quaffle
    assert t.current() == AWAY


def test_goal_is_blocked_only_by_an_interrupt_card():
    """Game Play > Goal Attempts & Scoring 1 and 4: the attempt succeeds unless the
    opponent plays an interrupt card that blocks it; then its Keeper holds the Quaffle,
    the Chaser returns to a starting position and the turn is over."""
    t = goal_table()
    t.skills(AWAY, defense=2)
    t.to_zone("Test Block", "hand", AWAY)
    t.draw_skill()
    t.move("home chaser 2", "b13")
    assert t.s.current_player() == AWAY
    assert t.labels() == ["interrupt with Test Block", "do not choose"]
    t.pick("interrupt with Test Block")
    assert t.side_var("score", HOME) == 0
    assert t.holder() == "away keeper"
    assert t.where("home chaser 2") == "d5"
    assert t.current() == AWAY


def test_goal_interrupt_needs_its_skill_cards():
    """Playing Cards > Action Cards > Color-Coded Action Cards: with too few Skill cards of
    its colour, the interrupt is not offered and the goal stands."""
    t = goal_table()
    t.skills(AWAY, defense=1, offense=3)
    t.to_zone("Test Block", "hand", AWAY)
    t.draw_skill()
    t.move("home chaser 2", "b13")
    assert "interrupt with Test Block" not in t.labels()
    assert t.side_var("score", HOME) == 10


def test_blocked_chaser_returns_to_a_start_space_or_waits():
    """Game Play > Goal Attempts & Scoring 4 ("returns to a starting position": its own if
    open, else another open start of its role, else it waits off the pitch)."""
    t = goal_table()
    t.put({"away beater 1": "d5", "home chaser 1": "c8", "home chaser 3": "e8"})
    t.skills(AWAY, defense=2)
    t.to_zone("Test Block", "hand", AWAY)
    t.draw_skill()
    t.move("home chaser 2", "b13")
    t.pick("interrupt with Test Block")
    assert t.s.current_player() == HOME
    assert t.labels() == ["return home chaser 2 to b5", "return home chaser 2 to f5"]
    t.pick("return home chaser 2 to b5")
    assert t.where("home chaser 2") == "b5"
    t2 = goal_table()
    t2.put({"home chaser 1": "a8", "home chaser 3": "g8", "away beater 1": "d5", "away beater 2": "b5",
            "away chaser 1": "f5"})
    t2.skills(AWAY, defense=2)
    t2.to_zone("Test Block", "hand", AWAY)
    t2.draw_skill()
    t2.move("home chaser 2", "b13")
    t2.pick("interrupt with Test Block")
    assert t2.where("home chaser 2") is None and t2.current() == AWAY


def test_keeper_holding_the_quaffle_must_pass_it_out():
    """Game Play > Goal Attempts & Scoring 4: the team whose Keeper blocked must use one of
    its pitch plays to pass the Quaffle from the Keeper to a Chaser (we allow it as
    either play; the Keeper does not move while it holds the Quaffle)."""
    t = goal_table()
    t.skills(AWAY, defense=2)
    t.to_zone("Test Block", "hand", AWAY)
    t.draw_skill()
    t.move("home chaser 2", "b13")
    t.pick("interrupt with Test Block")
    t.draw_skill()  # away's turn
    assert t.moves_of("away keeper") == set()
    assert t.passes() == {"away keeper -> away chaser 1", "away keeper -> away chaser 2",
                          "away keeper -> away chaser 3"}
    t.move("away beater 1", "b11")
    # The second play must be the pass.
    assert t.labels() and all(lab.startswith("pass the quaffle from away keeper") for lab in t.labels())
    t.pass_to("away keeper", "away chaser 2")
    assert t.holder() == "away chaser 2" and t.current() == HOME


def test_game_ends_at_three_goals_by_default():
    """Game Play > Goal Attempts & Scoring 5: the game is over when a team reaches the
    agreed number of goals (3 by default); that team wins."""
    t = goal_table()
    t.set_side_var("goals_scored", HOME, 2)
    t.draw_skill()
    t.move("home chaser 2", "b13")
    assert t.s.is_terminal() and t.s.winner() == HOME


def test_game_ends_at_five_goals_with_the_option():
    """Game Play > Goal Attempts & Scoring 5: with goals_to_win = 5 a third goal does not end
    the game; the fifth does."""
    t = goal_table(options={"goals_to_win": 5})
    t.set_side_var("goals_scored", HOME, 2)
    t.draw_skill()
    t.move("home chaser 2", "b13")
    assert not t.s.is_terminal() and t.side_var("goals_scored", HOME) == 3
    t2 = goal_table(options={"goals_to_win": 5})
    t2.set_side_var("goals_scored", HOME, 4)
    t2.draw_skill()
    t2.move("home chaser 2", "b13")
    assert t2.s.is_terminal() and t2.s.winner() == HOME


# ======================================================================================
# Playing Cards


def test_skill_card_thresholds_count_only_cards_of_the_same_colour():
    """Playing Cards > Action Cards > Color-Coded Action Cards: the number on the card is
    how many Skill cards of its colour are needed."""
    t = table()
    t.skills(HOME, defense=3)
    t.to_zone("Test Step", "hand", HOME)  # offense, 1
    t.draw_skill("wizardry")
    assert "play Test Step" not in t.labels()
    t2 = table()
    t2.skills(HOME, offense=1)
    t2.to_zone("Test Step", "hand", HOME)
    t2.to_zone("Test Roll Off", "hand", HOME)  # offense, 2
    t2.draw_skill("wizardry")
    assert t2.labels() == ["play Test Step", "do not choose"]


def test_skill_cards_are_kept_for_the_whole_game():
    """Playing Cards > Skill Cards: keep all the Skill cards drawn; do not discard them."""
    t = table()
    t.skills(HOME, offense=1)
    t.to_zone("Test Step", "hand", HOME)
    t.draw_skill("defense")
    t.pick("play Test Step")
    t.pick(t.labels()[0])
    t.pick(t.labels()[0])
    assert sorted(t.zone_names("skills", HOME)) == ["Defense Skill", "Offense Skill"]


def test_interrupt_cards_are_not_played_on_your_own_turn():
    """Playing Cards > Action Cards > Interrupt Cards (they are played when it is not your
    turn; we do not offer them as the turn's Action card)."""
    t = table()
    t.skills(HOME, defense=4)
    for card in ("Test Block", "Test Intercept", "Test Dodge"):
        t.to_zone(card, "hand", HOME)
    t.draw_skill()
    assert t.plays() == t.labels()  # no card decision at all


def test_an_interrupt_does_not_use_up_the_next_turns_action_card():
    """Playing Cards > Action Cards (one Action card per turn; an interrupt played on the
    other team's turn does not count against the interrupting team's own turn)."""
    t = goal_table()
    t.skills(AWAY, defense=2, offense=1)
    t.to_zone("Test Block", "hand", AWAY)
    t.to_zone("Test Step", "hand", AWAY)
    t.draw_skill()
    t.move("home chaser 2", "b13")
    t.pick("interrupt with Test Block")
    t.draw_skill()
    assert t.labels() == ["play Test Step", "do not choose"]


def test_knock_off_interrupt_saves_the_player():
    """Playing Cards > Action Cards > Interrupt Cards: the team about to lose a player may
    answer in the knock-off window; then nobody is knocked off and the Beater stays."""
    t = table()
    t.put({"home beater 1": "c7", "away chaser 1": "c8"})
    t.skills(AWAY, defense=1)
    t.to_zone("Test Dodge", "hand", AWAY)
    t.draw_skill()
    t.move("home beater 1", "c8")
    assert t.labels() == ["interrupt with Test Dodge", "do not choose"]
    t.pick("interrupt with Test Dodge")
    assert t.where("away chaser 1") == "c8" and t.where("home beater 1") == "c7"
    assert t.moves_of("home beater 1") == set()  # the pitch play was spent on it


def test_card_move_is_not_a_pitch_play_and_the_player_may_still_move():
    """Playing Cards > Action Cards; Turn Sequence (a player moved by an Action card is not
    counted as moved: card moves are outside the 2 pitch plays)."""
    t = table()
    t.skills(HOME, offense=1)
    t.to_zone("Test Step", "hand", HOME)
    t.put({"home chaser 1": "b5", "home chaser 2": None, "home chaser 3": None})
    t.draw_skill()
    t.pick("play Test Step")
    t.pick("home chaser 1 to a6")
    assert t.where("home chaser 1") == "a6"
    assert t.moves_of("home chaser 1")
    t.move("home chaser 1", "b7")
    assert t.current() == HOME  # still a second pitch play


def test_sideways_card_moves_are_left_or_right_on_dark_green():
    """Playing Cards > Action Cards > Color-Coded Action Cards ("Fly Sideways": left or
    right is along the row, both offered whichever way the team attacks; the Chaser
    stays on dark green and off its own keeper area). Uses the card vocabulary
    function `sideways` of rules/snitch-snatcher/cards.lumos."""
    deck = TEST_DECK + """\
  - name: Test Sideways
    type: action
    colour: offense
    threshold: 1
    text: "Fly sideways."
    effect: |
      choose c from chasers(me) where sideways(it, 2) is not empty label "{{c}} flies"
      if c is not none:
          choose to from sideways(c, 2) label "{{c}} to {{to}}"
          place c at to
"""
    cg = compile_with_deck(deck)
    for first, chaser, start, want in ((HOME, "home chaser 1", "c6", ["a6", "e6"]),
                                       (AWAY, "away chaser 1", "c6", ["a6", "e6"])):
        t = table(first, cg=cg)
        side = SIDES[first]
        t.skills(first, offense=1)
        t.to_zone("Test Sideways", "hand", first)
        t.put({chaser: start, f"{side} chaser 2": None, f"{side} chaser 3": None})
        t.draw_skill()
        t.pick("play Test Sideways")
        assert t.labels() == [f"{chaser} to {s}" for s in want]


def test_hand_limit_seven_at_the_end_of_the_turn():
    """Playing Cards > Action Cards: at the end of each turn a team has no more than 7
    Action cards; it chooses which excess cards to discard."""
    t = table()
    t.to_zone("Test Filler", "hand", HOME, 9)
    t.draw_skill()
    t.move("home beater 1", "b3")
    t.move("home beater 2", "f3")
    assert t.s.current_player() == HOME
    assert set(t.labels()) == {"discard Test Filler"}
    t.pick("discard Test Filler")
    t.pick("discard Test Filler")
    assert len(t.zone("hand", HOME)) == 7 and t.zone_names("discard", HOME) == ["Test Filler"] * 2
    assert t.current() == AWAY


def test_hand_limit_applies_at_the_end_of_the_teams_own_turn():
    """Playing Cards > Action Cards ("end of each turn" is read as the end of the team's own
    turn: the other team is not asked to discard at the end of this one)."""
    t = table()
    t.to_zone("Test Filler", "hand", AWAY, 9)
    t.draw_skill()
    t.move("home beater 1", "b3")
    t.move("home beater 2", "f3")
    assert t.current() == AWAY and t.labels() == ["draw an action card", "draw a skill card"]
    t.draw_skill()
    t.move("away beater 1", "b11")
    t.move("away beater 2", "f11")
    assert set(t.labels()) == {"discard Test Filler"}


def test_empty_action_deck_is_the_shuffled_discard_pile():
    """Playing Cards > Action Cards: if you run out of Action cards, shuffle your discard
    pile and place it face down as your Action deck."""
    t = table()
    deck, discard = t.cg.zone_id("action_deck", HOME), t.cg.zone_id("discard", HOME)
    t.relocate([(c, t.zone_label("hand", AWAY) if t.cg.cards[c].type == "spot" else t.zone_label("discard", HOME))
                for c in t.zone("action_deck", HOME)])
    assert t.st.zones[deck] == []
    before = len(t.st.zones[discard])
    t.pick("draw an action card")
    assert len(t.st.zones[deck]) == before - 1 and t.st.zones[discard] == []
    assert len(t.zone("hand", HOME)) == 1


def test_roll_off_highest_roll_wins_and_ties_roll_again():
    """Game Play > Roll Off!: opponents roll the die; the highest roll wins (ties are not
    covered: roll again)."""
    t = table()
    t.skills(HOME, offense=2)
    t.to_zone("Test Roll Off", "hand", HOME)
    t.draw_skill()
    t.pick("play Test Roll Off")
    t.roll(5, HOME)
    t.roll(5, AWAY)
    t.roll(2, HOME)
    t.roll(3, AWAY)
    assert "away wins the roll off" in t.events()
    assert t.plays()


# ======================================================================================
# Playing Cards > Spot the Golden Snitch


def spot_table(card: str = "Test Spot North", **kw) -> Table:
    t = table(**kw)
    t.top_of("action_deck", HOME, card)
    t.pick("draw an action card")
    return t


def test_spot_card_places_the_snitch_at_its_end_and_the_drawer_rolls_first():
    """Playing Cards > Spot the Golden Snitch 1 and 2; Equipment & Set-Up > Golden Snitch:
    the Snitch goes to the Golden Snitch space of the end the card shows, then each team
    rolls (the team that drew the card first)."""
    t = spot_table("Test Spot South")
    assert t.where("snitch") == "t11"
    assert t.s.is_chance_node() and t.st.pending["for"] == HOME
    t2 = spot_table("Test Spot North")
    assert t2.where("snitch") == "t1"


def test_seeker_moves_toward_the_snitch_by_the_roll():
    """Playing Cards > Spot the Golden Snitch 2: each team moves its Seeker the number
    rolled toward the Golden Snitch (the shorter way round the track)."""
    t = spot_table("Test Spot North")
    t.roll(2, HOME)   # home seeker t6 -> t4 (5 away)
    t.roll(1, AWAY)   # away seeker t16 -> t17 (5 away, via t17..t20)
    assert t.where("home seeker") == "t4" and t.where("away seeker") == "t17"


def test_exact_roll_is_needed_to_catch_the_snitch():
    """Playing Cards > Spot the Golden Snitch 3: a roll above the distance does not move the
    Seeker (it cannot cross the Golden Snitch space)."""
    t = spot_table("Test Spot North")
    t.roll(6, HOME)   # 5 away: no move
    t.roll(6, AWAY)
    assert t.where("home seeker") == "t6" and t.where("away seeker") == "t16"
    assert not t.s.is_terminal()


def test_exact_roll_catches_the_snitch_for_150_and_the_win():
    """Playing Cards > Spot the Golden Snitch 3; Goal Attempts & Scoring 5: landing exactly
    on the Snitch scores 150 and that team wins at once."""
    t = spot_table("Test Spot North")
    t.roll(1, HOME)
    t.roll(5, AWAY)
    assert t.where("away seeker") == "t1"
    assert t.side_var("score", AWAY) == 150
    assert t.s.is_terminal() and t.s.winner() == AWAY


def test_drawer_catching_first_ends_the_game_before_the_other_roll():
    """Playing Cards > Spot the Golden Snitch (who rolls first is not stated: the team that
    drew the card; if it catches the Snitch the other team does not roll)."""
    t = spot_table("Test Spot North")
    t.roll(5, HOME)
    assert t.s.is_terminal() and t.s.winner() == HOME


def test_seeker_does_not_land_on_the_other_seeker():
    """Playing Cards > Spot the Golden Snitch; Rules of the Pitch 2 (two players never share
    a space: a Seeker whose roll would end on the other Seeker does not advance)."""
    t = table()
    t.put({"away seeker": "t4"})
    t.top_of("action_deck", HOME, "Test Spot North")
    t.pick("draw an action card")
    t.roll(2, HOME)  # t6 -> t4 is taken
    assert t.where("home seeker") == "t6"
    t.roll(1, AWAY)
    assert t.where("away seeker") == "t3"


def test_seeker_may_pass_the_other_seeker_to_catch_the_snitch():
    """Playing Cards > Spot the Golden Snitch 3: only the landing space matters; a Seeker
    may pass over the other Seeker on its way."""
    t = table()
    t.put({"away seeker": "t4"})
    t.top_of("action_deck", HOME, "Test Spot North")
    t.pick("draw an action card")
    t.roll(5, HOME)  # t6 -> t5, t4 (the away Seeker), t3, t2, t1
    assert t.where("home seeker") == "t1" and t.s.winner() == HOME


def test_spot_card_is_discarded_the_snitch_removed_and_another_card_drawn():
    """Playing Cards > Spot the Golden Snitch, Important: the Spot card does not count as
    the turn's draw; play it, then draw another card. (The card goes to the discard pile
    and the Snitch leaves the board after the rolls.)"""
    t = spot_table("Test Spot North")
    t.roll(1, HOME)
    t.roll(1, AWAY)
    assert t.where("snitch") is None
    assert t.zone_names("discard", HOME) == ["Test Spot North"]
    assert t.zone("hand", HOME) == []
    assert t.labels() == ["draw an action card", "draw a skill card"]
    t.draw_skill()
    assert t.plays()


# ======================================================================================
# Whole games


def check_invariants(t: Table) -> None:
    cg, st, b = t.cg, t.st, t.board
    spots = {}
    for i, p in enumerate(cg.pieces):
        if p.side < 0:
            continue
        sp = st.loc[i]
        if sp < 0:
            continue
        assert sp not in spots, f"{p.name} shares {b.spaces[sp]}"
        spots[sp] = i
        s = b.spaces[sp]
        regions = b.regions_of(sp)
        own = SIDES[p.side]
        if p.kind == "chaser":
            assert "field" in regions or f"goal_{SIDES[1 - p.side]}" in regions, s
            assert b.attrs[sp]["colour"] in ("dark", "yellow") and f"keeper_area_{own}" not in regions, s
        elif p.kind == "beater":
            assert "field" in regions, s
        elif p.kind == "keeper":
            assert f"goal_{own}" in regions or (f"keeper_area_{own}" in regions and is_dark(s)), s
        else:
            assert "seeker_track" in regions, s
    for sp, piece in enumerate(st.occ):
        if piece >= 0 and cg.pieces[piece].side >= 0:
            assert st.loc[piece] == sp
    h = st.holder[t.P["quaffle"]]
    if st.decisions:  # once the Quaffle has been given at the start
        assert h >= 0 and cg.pieces[h].kind in ("chaser", "keeper")
    assert all(z >= 0 for z in st.card_zone)
    assert sum(len(z) for z in st.zones) == len(cg.cards)


def play_randomly(cg, seed: int, limit: int = 4000) -> Table:
    t = Table(GameState.new(cg, seed=seed, forced="take"))
    rng = random.Random(seed)
    for _ in range(limit):
        if t.s.is_terminal():
            break
        if t.s.is_chance_node():
            t.s.apply_action(t.s.sample_chance())
        else:
            if t.labels() == ["draw an action card", "draw a skill card"]:
                assert len(t.zone("hand", t.current())) <= 7
            t.s.apply_action(rng.randrange(len(t.s.legal_actions())))
        check_invariants(t)
    return t


def test_random_games_keep_the_rules_invariants():
    """Rules of the Pitch 2 and 7; Quidditch Players (where each role may stand); Equipment &
    Set-Up > Quaffle (the Quaffle is always held, never loose, by a Chaser or a Keeper);
    Playing Cards > Action Cards (hand limit): checked after every decision of random
    games, which all end."""
    cg = rules_game()
    for seed in range(12):
        t = play_randomly(cg, seed)
        assert t.s.is_terminal()


def test_random_games_with_the_shipped_decks():
    """The same invariants with the shipped card decks, whatever cards they hold."""
    cg = load_game("snitch-snatcher")
    for seed in range(6):
        t = play_randomly(cg, seed)
        assert t.s.is_terminal()
