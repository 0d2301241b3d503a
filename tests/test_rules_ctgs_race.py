"""Catch the Golden Snitch: the Snitch Race, checked on situations built directly.

The shipped rules are compiled with their `setup` and `flow` taken out and replaced by a
small test driver (DRIVER): a menu that runs one procedure of race.lumos with arguments
the test writes into variables. The cards are a test deck (TEST_CARDS: two Seeker cards
and a Snitch deck whose Impulses are easy to tell apart), so no test depends on the
shipped decks; those are checked by the last tests (contents, set-up, random games).
Docstrings cite the rulebook section (rulebooks/catch-the-golden-snitch.txt); rulings
where the rulebook is silent are listed at the top of rules/catch-the-golden-snitch/race.lumos.
"""
from __future__ import annotations

import random
import re
import shutil
import tempfile
from pathlib import Path

import pytest

from lumos.api import game_sources, load_game
from lumos.interpreter.engine import GameState

from support import sources
from support import table as shared

HOME, AWAY = 0, 1
GAME = "catch-the-golden-snitch"


def impulse(tag: str, n: int) -> str:
    return f'log "{tag}"\nseeker_action(me, "accelerate", "fixed", {n})\n'


def snitch_card(name: str, symbol: str, fast: list[str], rushed: str | None = None) -> str:
    rushed = rushed or impulse(f"{name} rushed", 1)
    return (f"  - name: {name}\n    type: snitch\n    symbol: {symbol}\n    fast_symbols: [{fast[0]}, {fast[1]}]\n"
            f"    text: \"test card\"\n"
            f"    rushed_effect: |\n{_indent(rushed)}"
            f"    fast_effect: |\n{_indent(impulse(f'{name} fast', 2))}"
            f"    perfect_effect: |\n{_indent(impulse(f'{name} perfect', 3))}")


def _indent(code: str) -> str:
    return "".join(f"      {line}\n" for line in code.splitlines())


FAST = {"broom": ["wing", "cloud"], "wing": ["cloud", "star"], "cloud": ["star", "broom"], "star": ["broom", "wing"]}

TEST_CARDS = "cards:\n" + """\
  - name: Home Seeker
    type: player
    position: seeker
    affiliation: [gryffindor]
    accelerate_dice: [orange, orange]
    glimpse_dice: [purple]
    obstruct_dice: [black]
  - name: Away Seeker
    type: player
    position: seeker
    affiliation: [slytherin]
    accelerate_dice: [orange, orange]
    glimpse_dice: [purple]
    obstruct_dice: [black]
  - name: Golden Snitch
    type: golden
    copies: 2
    text: "Glimpse."
    effect: |
      seeker_action(me, "glimpse", "fixed", 1)
  - name: Slipstreaming
    type: slipstream
    copies: 2
    text: "Fast of the next card; Obstruct 1 first if Lagged."
    effect: |
      seeker_action(me, "obstruct", "fixed", 1)
""" + "".join(
    snitch_card(f"{sym.capitalize()} {i}", sym, FAST[sym],
                rushed=('place_upwind(me)\nseeker_action(me, "accelerate", "fixed", 1)\n'
                        if (sym, i) == ("star", 3) else None))
    for sym in ("broom", "wing", "cloud", "star") for i in (1, 2, 3))

# The test driver: set-up puts each Seeker's card on it, makes home the Attacking Team and
# puts the 16 Snitch Race cards in the deck (not shuffled, no row); the flow offers one
# procedure of race.lumos at a time, with arguments from the t_ variables.
DRIVER = """
var t_side: side = home
var t_action: text = "accelerate"
var t_mode: text = "fixed"
var t_n = 0
var t_colour: die = "orange"
var t_bonus = true

setup:
    place snitch at r15
    set seeker_of(home).player_card = first(cards where it.name == "Home Seeker")
    set seeker_of(away).player_card = first(cards where it.name == "Away Seeker")
    set attacking = home
    put cards where snitch_deck_card(it) into snitch_deck

flow:
    loop:
        choose by home:
            option "test seeker action":
                seeker_action(t_side, t_action, t_mode, t_n)
            option "test take":
                take_snitch_card(t_side)
            option "test upwind":
                place_upwind(t_side)
            option "test die":
                place_race_die(t_side, t_colour, t_bonus)
            option "test refill":
                refill_snitch_row(t_side)
            option "test sweep":
                sweep_race_tokens()
"""


def _strip_block(text: str, head: str) -> str:
    """Remove a top-level block (`setup ...:` / `flow ...:`) and its indented lines."""
    out, skipping = [], False
    for line in text.splitlines(keepends=True):
        if re.match(rf"{head}\b[^\n]*:\s*$", line):
            skipping = True
            continue
        if skipping and (line.startswith((" ", "\t")) or not line.strip()):
            continue
        skipping = False
        out.append(line)
    return "".join(out)


_CG: dict = {}


def race_game():
    """The shipped rules with the test driver, compiled with TEST_CARDS (once per run)."""
    if "cg" not in _CG:
        shipped = game_sources(GAME)
        with tempfile.TemporaryDirectory() as tmp:
            rules = Path(tmp) / "rules"
            shutil.copytree(shipped.rules_dir, rules)
            for f in rules.glob("*.lumos"):
                f.write_text(_strip_block(_strip_block(f.read_text(encoding="utf-8"), "setup"), "flow"),
                             encoding="utf-8")
            (rules / "zz_race_driver.lumos").write_text(DRIVER, encoding="utf-8")
            cg = sources.with_cards(GAME, {"test.yaml": TEST_CARDS}, rules_dir=rules)
        assert cg is not None, "the rules with the test driver do not compile"
        _CG["cg"] = cg[0] if isinstance(cg, tuple) else cg
    return _CG["cg"]


class Race(shared.Table):
    """A game of the test driver with helpers to build race situations."""

    def __init__(self, seed: int = 0):
        super().__init__(GameState.new(race_game(), seed=seed, log=True, forced="take"))

    # ------------------------------------------------------------ reading
    def step(self, piece: str) -> int | None:
        sp = self.m.space_of(self.P[piece])
        return None if sp is None else int(self.board.spaces[sp][1:])

    def log(self) -> str:
        return "\n".join(str(e.get("event", "")) for e in self.s.events)

    def over(self) -> bool:
        return self.s.is_terminal()

    def winner(self):
        return self.s.winner()

    def tokens(self) -> dict[int, str]:
        out = {}
        for name, i in self.P.items():
            if name.startswith(("home upwind", "away upwind", "race_die")):
                st = self.step(name)
                if st is not None:
                    out[st] = name
        return out

    # ------------------------------------------------------------ editing
    def at(self, piece: str, step: int) -> None:
        self.put({piece: f"r{step}"})

    def seekers(self, home: int, away: int, snitch: int = 15) -> None:
        self.put({"snitch": f"r{snitch}", "home seeker": f"r{home}", "away seeker": f"r{away}"})

    def card(self, name: str) -> int:
        ids = [i for i, c in enumerate(self.cg.cards) if c.name == name]
        free = [i for i in ids if self.st.card_zone[i] == self.cg.zone_id("snitch_deck", 0)]
        return (free or ids)[0]

    def to_zone(self, name: str, zone: str, side: int = 0) -> int:
        """A copy of the card (one in the deck first) on top of the zone, through a position."""
        return self.relocate([(self.card(name), self.zone_label(zone, side))])[0]

    def row(self, *names: str) -> None:
        for n in names:
            self.to_zone(n, "snitch_row")

    def deck_top(self, *names: str) -> None:
        """Put these cards (different copies) on top of the deck, the first named drawn first."""
        used = []
        for n in names:
            used.append(next(i for i, c in enumerate(self.cg.cards) if c.name == n and i not in used))
        self.relocate([(c, self.zone_label("snitch_deck")) for c in reversed(used)])

    # ------------------------------------------------------------ deciding
    def run(self, option: str, side: int = HOME, **args) -> None:
        self.set_var("t_side", side)
        for k, v in args.items():
            self.set_var(f"t_{k}", v)
        self.pick(f"test {option}")

    def action(self, a: str, mode: str, n: int, side: int = HOME) -> None:
        self.run("seeker action", side, action=a, mode=mode, n=n)

    def idle(self) -> bool:
        """Back at the driver's menu."""
        return not self.over() and "test seeker action" in self.labels()


# ======================================================================================
# The Snitch Race > Seeker's Actions


def test_fixed_accelerate_moves_exactly_its_successes_without_a_roll():
    """The Snitch Race > Seeker's Actions: "if the Action has many Success symbols next to
    it, no dice roll is made and the amount of Success shown is automatically applied";
    Accelerate advances the Seeker toward the Golden Snitch by the Successes."""
    r = Race()
    r.seekers(1, 1)
    r.action("accelerate", "fixed", 3)
    assert r.idle()
    assert r.step("home seeker") == 4 and r.step("away seeker") == 1


def test_rolled_accelerate_uses_the_seeker_cards_dice_and_the_modifier():
    """The Snitch Race > Seeker's Actions: the Seeker rolls the dice of the Action on its
    Player card; a +N modifier adds N Successes (success = 1, double success = 2)."""
    r = Race()
    r.seekers(1, 1)
    r.action("accelerate", "roll", 1)
    r.roll("success", "double success")   # the card lists two orange dice
    assert r.idle()
    assert r.step("home seeker") == 1 + 1 + 2 + 1


def test_a_negative_modifier_never_moves_backwards():
    """The Snitch Race > Seeker's Actions: a (-) modifier subtracts Successes; ruling: never
    below 0, and 0 Successes move nothing."""
    r = Race()
    r.seekers(3, 1)
    r.action("accelerate", "roll", -2)
    r.roll("success", "blank")
    assert r.idle()
    assert r.step("home seeker") == 3


def test_dodge_rolls_the_accelerate_dice():
    """The Snitch Race > Seeker's Actions: "Dodge works the same as an Accelerate Action";
    ruling: it rolls the Seeker card's accelerate_dice (two dice here, glimpse has one)."""
    r = Race()
    r.seekers(1, 1)
    r.action("dodge", "roll", 0)
    r.roll("success", "success")
    assert r.idle()
    assert r.step("home seeker") == 3


def test_glimpse_brings_the_snitch_toward_the_seekers_and_discards_tokens_behind_it():
    """The Snitch Race > Seeker's Actions, Glimpse: the Snitch advances toward the Seekers by
    the Successes; "All tokens behind and in the same space as the Golden Snitch are
    discarded"."""
    r = Race()
    r.seekers(2, 4)
    r.run("upwind", HOME)
    r.pick("place an Upwind (Flag token) on r12")
    r.run("upwind", HOME)
    r.pick("place an Upwind (Flag token) on r10")
    r.run("upwind", AWAY)
    r.pick("place an Upwind (Flag token) on r6")
    r.action("glimpse", "roll", 0, AWAY)
    r.roll("double success")              # the Glimpse die (purple)
    r.action("glimpse", "fixed", 3, AWAY)
    assert r.idle()
    assert r.step("snitch") == 10
    assert set(r.tokens()) == {6}         # r12 was passed, r10 is under the Snitch


def test_obstruct_pushes_the_rival_back_and_stops_on_the_first_space():
    """The Snitch Race > Seeker's Actions, Obstruct: move the rival Seeker back by the
    Successes; ruling: it stops on the first space."""
    r = Race()
    r.seekers(2, 6)
    r.action("obstruct", "fixed", 2)
    assert r.step("away seeker") == 4
    r.action("obstruct", "fixed", 9)
    assert r.idle()
    assert r.step("away seeker") == 1 and r.step("home seeker") == 2


def test_obstruct_cannot_be_performed_against_a_lagged_rival():
    """The Snitch Race > Seeker's Actions: Obstruct "cannot be performed if the rival Seeker
    is Lagged" (Ahead and Lagged Seekers: further from the Snitch and behind)."""
    r = Race()
    r.seekers(7, 3)
    r.action("obstruct", "fixed", 2)
    assert r.idle()
    assert r.step("away seeker") == 3
    assert "cannot Obstruct" in r.log()


def test_obstruct_works_when_both_seekers_share_a_space():
    """The Snitch Race > Ahead and Lagged Seekers: "If both Seekers are in the same space,
    neither Seeker is considered to be Ahead or Lagged", so Obstruct is allowed."""
    r = Race()
    r.seekers(5, 5)
    r.action("obstruct", "fixed", 1, AWAY)
    assert r.idle()
    assert r.step("home seeker") == 4


def test_obstruct_makes_the_pushed_seeker_spend_the_token_it_ends_on():
    """The Snitch Race > Seeker's Actions, Obstruct: "If there is a token in the space where
    the Seeker ends, they must spend and discard it" (an orange Bonus Dice token here)."""
    r2 = Race()
    r2.seekers(8, 3)
    r2.run("die", AWAY, colour="orange", bonus=True)
    r2.pick("place a Bonus Dice token (orange) on r6")
    r2.action("obstruct", "fixed", 2, AWAY)
    assert r2.idle()
    assert r2.step("home seeker") == 6
    assert r2.piece_var("bonus_orange", "home seeker") == 1
    assert r2.tokens() == {}


def test_accelerate_must_spend_the_token_where_it_ends():
    """The Snitch Race > Seeker's Actions, Accelerate: "If there is a token in the space where
    the Seeker ends, you must spend and discard it"; a race Dice token goes onto the
    Seeker's Player card (ruling: Dice Tokens work "in exactly the same way")."""
    r = Race()
    r.seekers(2, 2)
    r.run("die", AWAY, colour="purple", bonus=False)
    r.pick("place a Penalty Dice token (purple) on r5")
    r.action("accelerate", "fixed", 3)
    assert r.idle()
    assert r.step("home seeker") == 5
    assert r.piece_var("penalty_purple", "home seeker") == 1
    assert r.tokens() == {}


def test_dodge_may_ignore_the_token_where_it_ends():
    """The Snitch Race > Seeker's Actions, Dodge: "you can choose to ignore the token in the
    space where the Seeker ends"."""
    r = Race()
    r.seekers(2, 2)
    r.run("upwind", AWAY)
    r.pick("place an Upwind (Flag token) on r5")
    r.action("dodge", "fixed", 3)
    r.pick("home seeker dodges away upwind 1 on r5")
    assert r.idle()
    assert r.step("home seeker") == 5 and r.tokens() == {5: "away upwind 1"}


def test_a_token_placed_in_the_same_impulse_is_not_spent():
    """The Snitch Race > Seeker's Actions, Accelerate: the token must be spent "except in the
    same turn that you have placed it"; ruling: the turn is the Impulse. The test card
    Star 3's Rushed Impulse places an Upwind, then Accelerates 1 onto it."""
    r = Race()
    r.seekers(2, 2)
    r.row("Star 3", "Broom 1", "Wing 1")
    r.deck_top("Cloud 1")
    r.run("take")
    r.pick("take Star 3 from the Snitch row")
    r.pick("resolve the Rushed Impulse of Star 3")
    r.pick("place an Upwind (Flag token) on r3")
    assert r.idle()
    assert r.step("home seeker") == 3
    assert r.tokens() == {3: "home upwind 1"}


def test_a_token_placed_outside_an_impulse_is_spent_at_once():
    """The Snitch Race > Seeker's Actions: the "same turn" exception; ruling: a token placed
    outside a Snitch card Impulse (an Intrepid Move, a Trait: here the test driver) is live
    at once, so a Seeker ending on it spends it."""
    r = Race()
    r.seekers(2, 2)
    r.run("die", HOME, colour="black", bonus=True)
    r.pick("place a Bonus Dice token (black) on r4")
    r.action("accelerate", "fixed", 2)
    assert r.idle()
    assert r.piece_var("bonus_black", "home seeker") == 1 and r.tokens() == {}


def test_dice_tokens_are_not_used_on_fixed_actions_but_are_on_rolled_ones():
    """The Snitch Race > Seeker's Actions: "Dice tokens cannot be used to this kind of
    Actions" (fixed Successes); Dice Tokens: the Coach may spend a Bonus token to add a
    die of its colour, the rival spends a Penalty token to take one away."""
    r = Race()
    r.seekers(1, 1)
    r.set_piece_var("bonus_purple", "home seeker", 1)
    r.set_piece_var("penalty_orange", "home seeker", 1)
    r.action("accelerate", "fixed", 1)
    assert r.idle() and r.piece_var("bonus_purple", "home seeker") == 1
    r.action("accelerate", "roll", 0)
    r.pick("spend a purple Bonus Dice token of home seeker")
    r.pick("spend an orange Penalty Dice token of home seeker")
    r.roll("double success", "success")   # one orange left, then the purple die
    assert r.idle()
    assert r.step("home seeker") == 2 + 3
    assert r.piece_var("bonus_purple", "home seeker") == 0 and r.piece_var("penalty_orange", "home seeker") == 0


def test_a_goal_token_rerolls_one_die_of_a_seeker_roll():
    """Goal Tokens: "Once per Action or Reaction, one of your Players (including the Seeker)
    may re-roll a dice by flipping over one of your Uncelebrated Goal tokens"."""
    r = Race()
    r.seekers(1, 1)
    r.set_side_var("uncelebrated", HOME, 1)
    r.action("accelerate", "roll", 0)
    r.roll("blank", "success")
    r.pick("flip a Goal token: reroll an orange die of home seeker")
    r.pick("reroll the orange blank")
    r.roll("double success")
    assert r.idle()
    assert r.step("home seeker") == 1 + 3
    assert r.st.sv[r.cg.side_var_names.index("uncelebrated")][HOME] == 0


# ======================================================================================
# The Snitch Race > Ahead and Lagged Seekers, Snitch Race Tokens


def _upwind_spaces(r: Race, side: int) -> set[int]:
    r.run("upwind", side)
    spaces = {int(lab.rsplit(" on r", 1)[1]) for lab in r.labels() if lab.startswith("place an Upwind")}
    return spaces


def test_tokens_go_between_the_ahead_seeker_and_the_snitch():
    """The Snitch Race > Snitch Race Tokens: a token is placed "between the Seeker that is
    Ahead and the Golden Snitch (never in the same space as the Golden Snitch)"; ruling: not
    on the Ahead Seeker's own space either."""
    r = Race()
    r.seekers(9, 4, snitch=14)
    assert _upwind_spaces(r, HOME) == {10, 11, 12, 13}


def test_a_lagged_coach_may_also_place_between_the_seekers():
    """The Snitch Race > Snitch Race Tokens: "if their Seeker is Lagged, they may place the
    token in a space between the two Seekers" (ruling: strictly between)."""
    r = Race()
    r.seekers(9, 4, snitch=14)
    assert _upwind_spaces(r, AWAY) == {5, 6, 7, 8, 10, 11, 12, 13}


def test_seekers_on_one_space_place_after_it():
    """The Snitch Race > Snitch Race Tokens / Ahead and Lagged Seekers: with both Seekers on
    one space neither is Ahead nor Lagged; ruling: the window starts after that space."""
    r = Race()
    r.seekers(11, 11)
    assert _upwind_spaces(r, AWAY) == {12, 13, 14}


def test_one_token_per_space_and_none_placed_without_a_free_space():
    """The Snitch Race > Snitch Race Tokens: "There can only be one token in each space";
    "if ... there is no free space to place tokens, they cannot be placed and will be
    discarded directly"."""
    r = Race()
    r.seekers(12, 12)
    r.run("upwind", HOME)
    r.pick("place an Upwind (Flag token) on r13")
    r.run("upwind", AWAY)                  # one free space left: no question asked
    assert r.tokens() == {13: "home upwind 1", 14: "away upwind 1"}
    r.run("die", HOME, colour="black", bonus=True)
    assert r.idle()                        # nothing to choose: the token is discarded
    assert "no free space" in r.log()
    assert set(r.tokens()) == {13, 14}


def test_a_coach_without_flag_tokens_places_no_upwind():
    """Flag Tokens / Snitch Race Tokens: each Coach's Upwinds are their Flag tokens (4 in
    our game); ruling: with all four on the track, no Upwind is placed."""
    r = Race()
    r.seekers(1, 1)
    for sp in (2, 3, 4, 5):
        r.run("upwind", HOME)
        r.pick(f"place an Upwind (Flag token) on r{sp}")
    r.run("upwind", HOME)
    assert r.idle()
    assert "no Flag token left" in r.log()


def test_a_discarded_flag_goes_back_to_its_coach():
    """Flag Tokens / Snitch Race Tokens; ruling: a discarded Upwind (Flag token) goes back to
    its Coach's supply and can be placed again."""
    r = Race()
    r.seekers(1, 1)
    for sp in (2, 3, 4, 5):
        r.run("upwind", HOME)
        r.pick(f"place an Upwind (Flag token) on r{sp}")
    r.action("accelerate", "fixed", 3, AWAY)         # away to r4: spends home's Flag, back to r3
    r.action("accelerate", "fixed", 5)               # home to r6: both Seekers are past r2
    assert set(r.tokens()) == {3, 5}
    r.run("upwind", HOME)
    r.pick("place an Upwind (Flag token) on r7")
    assert r.idle() and set(r.tokens()) == {3, 5, 7}
    assert "no Flag token left" not in r.log()


def test_tokens_both_seekers_passed_are_discarded():
    """The Snitch Race > Snitch Race Tokens: "Tokens are always discarded when both Seekers
    have passed through"; a token only one Seeker passed stays."""
    r = Race()
    r.seekers(2, 2)
    r.run("upwind", HOME)
    r.pick("place an Upwind (Flag token) on r4")
    r.run("upwind", AWAY)
    r.pick("place an Upwind (Flag token) on r6")
    r.action("accelerate", "fixed", 5)     # home to r7, past both
    assert set(r.tokens()) == {4, 6}
    r.action("accelerate", "fixed", 3, AWAY)   # away to r5: both past r4 only
    assert r.idle()
    assert set(r.tokens()) == {6}


def test_own_upwind_advances_one_space_rival_upwind_pushes_back_one():
    """The Snitch Race > Snitch Race Tokens, Upwind: ending on a Flag of one's own colour,
    discard it and advance to the next space; on the rival's colour, move back one space
    (ruling: that Flag is discarded too)."""
    r = Race()
    r.seekers(2, 2)
    r.run("upwind", HOME)
    r.pick("place an Upwind (Flag token) on r5")
    r.run("upwind", AWAY)
    r.pick("place an Upwind (Flag token) on r8")
    r.action("accelerate", "fixed", 3)
    assert r.step("home seeker") == 6 and 5 not in r.tokens()
    r.action("accelerate", "fixed", 2)
    assert r.idle()
    assert r.step("home seeker") == 7 and r.tokens() == {}


def test_upwind_once_per_colour_in_one_move():
    """The Snitch Race > Snitch Race Tokens: an Upwind "can only happen once per Flag of each
    colour in a single turn": own Flag r5 -> r6, own Flag on r6 is not used again."""
    r = Race()
    r.seekers(2, 2)
    for sp in (5, 6):
        r.run("upwind", HOME)
        r.pick(f"place an Upwind (Flag token) on r{sp}")
    r.action("accelerate", "fixed", 3)
    assert r.idle()
    assert r.step("home seeker") == 6 and r.tokens() == {6: "home upwind 2"}


def test_a_second_rival_upwind_does_not_push_again():
    """The Snitch Race > Snitch Race Tokens: once per Flag colour in one move: pushed back by
    a rival Flag onto another rival Flag, the Seeker stays (that Flag stays too)."""
    r = Race()
    r.seekers(2, 2)
    for sp in (5, 6):
        r.run("upwind", AWAY)
        r.pick(f"place an Upwind (Flag token) on r{sp}")
    r.action("accelerate", "fixed", 4)
    assert r.idle()
    assert r.step("home seeker") == 5 and r.tokens() == {5: "away upwind 1"}


def test_own_then_rival_upwind_in_one_move():
    """The Snitch Race > Snitch Race Tokens: one Flag of one's own and one of the other
    colour may both act in the same advance (r5 own -> r6 rival -> back to r5)."""
    r = Race()
    r.seekers(2, 2)
    r.run("upwind", HOME)
    r.pick("place an Upwind (Flag token) on r5")
    r.run("upwind", AWAY)
    r.pick("place an Upwind (Flag token) on r6")
    r.action("accelerate", "fixed", 3)
    assert r.idle()
    assert r.step("home seeker") == 5 and r.tokens() == {}


# ======================================================================================
# Snitch Race Deck, Golden Snitch Card, Playing Snitch Cards, Slipstreaming Card


def test_taking_a_card_refills_the_row_to_three():
    """Playing Snitch Cards / Tempo Points: after a Snitch card is taken, "draw a card from
    the Snitch deck and place it face-up in the row so that there are three cards again"."""
    r = Race()
    r.seekers(1, 1)
    r.row("Broom 1", "Wing 1", "Cloud 1")
    r.deck_top("Star 1")
    r.run("take")
    r.pick("take Broom 1 from the Snitch row")
    r.pick("resolve the Rushed Impulse of Broom 1")
    assert r.idle()
    assert sorted(r.zone_names("snitch_row")) == ["Cloud 1", "Star 1", "Wing 1"]
    assert r.zone_names("snitch_discard") == ["Broom 1"]
    assert "Broom 1 rushed" in r.log() and r.step("home seeker") == 2


def test_golden_snitch_cards_are_resolved_on_reveal_and_replaced_repeatedly():
    """The Snitch Race > Golden Snitch Card / Playing Snitch Cards: a revealed Golden Snitch
    card makes the revealing Coach's Seeker Glimpse, is discarded, and a new card is drawn,
    "repeat ... until there are no more such cards visible"."""
    r = Race()
    r.seekers(1, 1)
    r.row("Broom 1", "Wing 1")
    r.deck_top("Golden Snitch", "Golden Snitch", "Cloud 1")
    r.run("refill", AWAY)
    assert r.idle()
    assert sorted(r.zone_names("snitch_row")) == ["Broom 1", "Cloud 1", "Wing 1"]
    assert r.zone_names("snitch_discard") == ["Golden Snitch", "Golden Snitch"]
    assert r.step("snitch") == 13          # two Glimpse 1 (the test Golden cards)
    assert "away reveals Golden Snitch" in r.log()


def test_the_discard_pile_is_reshuffled_when_the_deck_is_empty():
    """Playing Snitch Cards: "If ... there are none, take all the Snitch cards of the discard
    pile and shuffle them to create a new deck. Then continue to draw"."""
    r = Race()
    r.seekers(1, 1)
    r.relocate([(c, r.zone_label("snitch_discard")) for c in r.zone("snitch_deck")])
    r.row("Broom 1", "Wing 1")
    r.to_zone("Broom 2", "snitch_deck")              # the only card left in the deck
    r.run("refill")
    assert r.zone_names("snitch_deck") == [] and len(r.zone_names("snitch_discard")) == 13
    r.to_zone("Wing 1", "snitch_discard")
    r.run("refill")
    assert r.idle()
    assert len(r.zone_names("snitch_row")) == 3
    assert len(r.zone_names("snitch_deck")) + len(r.zone_names("snitch_discard")) == 13
    assert len(r.zone_names("snitch_deck")) >= 11         # only revealed Golden cards are discarded again
    assert all(n == "Golden Snitch" for n in r.zone_names("snitch_discard"))


def test_option_b_keeps_the_card_in_play_secret_from_the_rival():
    """Playing Snitch Cards, b: "keep the Snitch card a secret from the rival Coach ... it will
    be the Snitch card in play"; the rival sees only that there is one."""
    r = Race()
    r.seekers(1, 1)
    r.row("Broom 1", "Wing 1", "Cloud 1")
    r.run("take")
    r.pick("take Broom 1 from the Snitch row")
    r.pick("keep Broom 1 in play")
    assert r.idle()
    assert r.zone_names("snitch_in_play", HOME) == ["Broom 1"]
    assert r.step("home seeker") == 1
    seen_by_away = repr(r.s.observation(AWAY))
    assert "Broom 1" not in seen_by_away
    assert "Broom 1" in repr(r.s.observation(HOME))


def test_slipstreaming_is_never_resolved_as_rushed():
    """Playing Snitch Cards, a: "You can't choose this option if the card drawn is a
    Slipstreaming card"."""
    r = Race()
    r.seekers(1, 1)
    r.row("Slipstreaming", "Wing 1", "Cloud 1")
    r.run("take")
    r.pick("take Slipstreaming from the Snitch row")
    assert r.idle()                        # only option b was left: taken without asking
    assert r.zone_names("snitch_in_play", HOME) == ["Slipstreaming"]


@pytest.mark.parametrize("new, impulse_used, steps", [
    ("Broom 2", "perfect", 3),      # same Type
    ("Wing 1", "fast", 2),          # one of the 2 Fast Types of Broom 1
    ("Star 1", "rushed", 1),        # neither
])
def test_option_c_type_of_the_new_card_picks_the_impulse(new, impulse_used, steps):
    """Playing Snitch Cards, c: Perfect Impulse if the new card is of the same Type as the
    card in play, Fast if it is one of its 2 Fast Types, else Rushed; then both cards are
    discarded. Only the Type of the new card is used."""
    r = Race()
    r.seekers(1, 1)
    r.to_zone("Broom 1", "snitch_in_play", HOME)
    r.row(new, "Cloud 1", "Cloud 2")
    r.deck_top("Cloud 3")
    r.run("take")
    r.pick(f"take {new} from the Snitch row")
    assert r.idle()
    assert f"Broom 1 {impulse_used}" in r.log()
    assert not any(f"{new} {w}" in r.log() for w in ("rushed", "fast", "perfect"))
    assert r.step("home seeker") == 1 + steps
    assert sorted(r.zone_names("snitch_discard")) == sorted(["Broom 1", new])
    assert r.zone_names("snitch_in_play", HOME) == []


def test_a_card_in_play_forces_option_c():
    """Playing Snitch Cards, c: "If you already had a Snitch card in play ... you must use"
    it; ruling (open question): a Coach with a card in play cannot choose a or b."""
    r = Race()
    r.seekers(1, 1)
    r.to_zone("Broom 1", "snitch_in_play", HOME)
    r.row("Star 1", "Cloud 1", "Cloud 2")
    r.run("take")
    r.pick("take Star 1 from the Snitch row")
    assert r.idle()                        # no a/b menu was offered
    assert "Broom 1 rushed" in r.log()


def test_slipstreaming_cannot_be_taken_with_a_card_in_play():
    """Slipstreaming Card: "you cannot choose this Snitch card if you have another Snitch card
    in play"."""
    r = Race()
    r.seekers(1, 1)
    r.to_zone("Broom 1", "snitch_in_play", HOME)
    r.row("Slipstreaming", "Cloud 1", "Cloud 2")
    r.run("take")
    assert "take Slipstreaming from the Snitch row" not in r.labels()
    assert "take Cloud 1 from the Snitch row" in r.labels()


def test_slipstreaming_in_play_applies_the_fast_impulse_of_the_new_card():
    """Slipstreaming Card / Playing Snitch Cards, c: with Slipstreaming in play, apply the
    Fast Impulse of the new card, whatever its Type; both are discarded."""
    r = Race()
    r.seekers(4, 4)                        # home is not Lagged: no Obstruct
    r.to_zone("Slipstreaming", "snitch_in_play", HOME)
    r.row("Star 1", "Cloud 1", "Cloud 2")
    r.run("take")
    r.pick("take Star 1 from the Snitch row")
    assert r.idle()
    assert "Star 1 fast" in r.log()
    assert r.step("home seeker") == 6 and r.step("away seeker") == 4
    assert sorted(r.zone_names("snitch_discard")) == ["Slipstreaming", "Star 1"]


def test_slipstreaming_obstructs_first_when_lagged():
    """Slipstreaming Card: "If your Seeker is Lagged, before resolving the effects of the
    Fast Impulse, perform Obstruct 1"."""
    r = Race()
    r.seekers(2, 6)                        # home is Lagged
    r.to_zone("Slipstreaming", "snitch_in_play", HOME)
    r.row("Star 1", "Cloud 1", "Cloud 2")
    r.run("take")
    r.pick("take Star 1 from the Snitch row")
    assert r.idle()
    assert r.step("away seeker") == 5 and r.step("home seeker") == 4


# ======================================================================================
# Catch the Snitch!


def test_a_seeker_flying_onto_or_through_the_snitch_catches_it():
    """Catch the Snitch!: a Seeker and the Snitch on the same space: that Seeker's Team wins;
    ruling: a Seeker with Successes to spare stops on the Snitch (passing through counts)."""
    r = Race()
    r.seekers(3, 12, snitch=14)
    r.action("accelerate", "fixed", 15)
    assert r.over() and r.winner() == HOME


def test_the_snitch_reaching_a_seeker_is_caught_even_by_the_inactive_seeker():
    """Catch the Snitch!: "(even if it wasn't the active Seeker)": home's Glimpse brings the
    Snitch onto away's Seeker, which is Ahead."""
    r = Race()
    r.seekers(3, 12, snitch=14)
    r.action("glimpse", "fixed", 5)
    assert r.over() and r.winner() == AWAY


def test_both_seekers_on_the_snitch_space_the_attacking_team_catches():
    """Catch the Snitch!: "If the Snitch coincides in a space where both Seekers are, the one
    who has caught the Snitch is the Seeker of the Attacking Team"."""
    r = Race()
    r.seekers(9, 9, snitch=11)
    r.set_var("attacking", AWAY)
    r.action("glimpse", "fixed", 4, HOME)
    assert r.over() and r.winner() == AWAY


def test_an_upwind_can_carry_a_seeker_onto_the_snitch():
    """Catch the Snitch! / Snitch Race Tokens: the Upwind advance onto the Snitch's space is a
    catch like any other move."""
    r = Race()
    r.seekers(2, 2, snitch=6)
    r.run("upwind", HOME)
    r.pick("place an Upwind (Flag token) on r5")
    r.action("accelerate", "fixed", 3)
    assert r.over() and r.winner() == HOME


# ======================================================================================
# The shipped deck, Setup and random games


def test_the_shipped_snitch_deck_holds_16_cards():
    """The Snitch Race > Snitch Race Deck: "always 16 cards (12 Snitch cards, 2 Slipstreaming
    cards and 2 Golden Snitch cards)"; Snitch Card: 4 Types (3 each in our deck), each with
    2 Fast Types other than its own and three Impulses."""
    cg = load_game(GAME)
    deck = [c for c in cg.cards if c.type in ("snitch", "golden", "slipstream")]
    assert len(deck) == 16
    assert sum(c.type == "golden" for c in deck) == 2 and sum(c.type == "slipstream" for c in deck) == 2
    snitch = [c for c in deck if c.type == "snitch"]
    assert len({c.name for c in snitch}) == 12
    for sym in ("broom", "wing", "cloud", "star"):
        assert sum(c.fields["symbol"] == sym for c in snitch) == 3
    for c in snitch:
        fast = list(c.fields["fast_symbols"])
        assert len(fast) == 2 and c.fields["symbol"] not in fast
        for f in ("rushed_effect", "fast_effect", "perfect_effect"):
            assert c.fields.get(f)


def _random_game(seed: int, check=None, limit: int = 20000) -> GameState:
    st = GameState.new(load_game(GAME), seed=seed, log=True, forced="take")
    rng = random.Random(seed)
    for _ in range(limit):
        if st.is_terminal():
            break
        if st.is_chance_node():
            st.apply_action(st.sample_chance())
        else:
            st.apply_action(rng.randrange(len(st.legal_actions())))
        if check:
            check(st)
    return st


def _snitch_cards(st: GameState) -> int:
    cg = st.cg
    n = sum(len(st.st.zones[cg.zone_id(z, 0)]) for z in ("snitch_deck", "snitch_row", "snitch_discard"))
    return n + sum(len(st.st.zones[cg.zone_id("snitch_in_play", s)]) for s in (HOME, AWAY))


def race_pieces(st: GameState) -> None:
    """The Snitch Race / Elements of the Game > The Game Board: "Only the Seekers, the Golden
    Snitch and the Snitch Race tokens can be in the Snitch Race", one token per space, and
    no Seeker ever stands past the Snitch (moves stop on it: a catch)."""
    cg, m = st.cg, st.machine
    board = cg.board
    snitch = next(i for i, p in enumerate(cg.pieces) if p.name == "snitch")
    snitch_step = m.space_of(snitch)
    per_space: dict = {}
    track = set(board.regions["race"])
    for i, p in enumerate(cg.pieces):
        sp = m.space_of(i)
        if sp is None or sp not in track:
            continue
        assert p.kind in ("seeker", "upwind") or p.name in ("snitch",) or p.name.startswith("race_die"), p.name
        if p.kind == "upwind" or p.name.startswith("race_die"):
            per_space[sp] = per_space.get(sp, 0) + 1
        if p.kind == "seeker" and snitch_step is not None:
            assert int(board.spaces[sp][1:]) <= int(board.spaces[snitch_step][1:])
    assert all(n == 1 for n in per_space.values()), per_space


def test_setup_turns_three_cards_face_up_golden_snitch_cards_resolved_by_the_attacking_team():
    """Setup, 5th Step: the 16 cards shuffled, the top 3 face up; a Golden Snitch card that
    appears is resolved with the Attacking Team and replaced."""
    goldens = 0
    for seed in range(1, 40):
        st = GameState.new(load_game(GAME), seed=seed, log=True, forced="take")
        rng = random.Random(seed)
        while not any("place a Bludger" in lab for lab in st.action_labels()):
            if st.is_chance_node():
                st.apply_action(st.sample_chance())
            else:
                st.apply_action(rng.randrange(len(st.legal_actions())))
        cg = st.cg
        row = [cg.cards[c] for c in st.st.zones[cg.zone_id("snitch_row", 0)]]
        assert len(row) == 3 and all(c.type != "golden" for c in row)
        assert _snitch_cards(st) == 16
        attacking = st.st.g[cg.global_names.index("attacking")]
        for e in st.events:
            text = str(e.get("event", ""))
            if "reveals Golden Snitch" in text:
                goldens += 1
                assert text.startswith(cg.sides[attacking])
    assert goldens > 0, "no seed revealed a Golden Snitch card at set-up"


def test_snitch_cards_always_number_16_and_random_games_end_with_both_sides_winning():
    """The Snitch Race > Snitch Race Deck: the deck, the row, the discard pile and the cards
    in play always hold the 16 cards; The Snitch Race: only Seekers, the Snitch and tokens
    stand on it (race_pieces); random games end with a catch (Catch the Snitch!),
    won by both sides, after a reasonable number of Game Sequences (4 to 12 on average:
    the balance of our Snitch cards)."""
    wins = set()
    sequences = []
    seen: list = []

    def check(st):
        race_pieces(st)
        # 0 until set-up deals the Snitch Race deck, 16 from then on
        assert _snitch_cards(st) == (16 if seen else 0) or (not seen and _snitch_cards(st) == 16)
        if _snitch_cards(st):
            seen.append(True)
        assert len(st.st.zones[st.cg.zone_id("snitch_row", 0)]) <= 3

    for seed in range(1, 13):
        seen.clear()
        st = _random_game(seed, check)
        assert seen and _snitch_cards(st) == 16
        assert st.is_terminal()
        wins.add(st.winner())
        sequences.append(st.st.g[st.cg.global_names.index("sequence_number")])
        assert any("catches" in str(e.get("event", "")) for e in st.events)
    assert wins == {HOME, AWAY}
    assert 4 <= sum(sequences) / len(sequences) <= 12, sequences
