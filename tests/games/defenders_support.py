"""Helpers for the Defenders of Hogwarts tests: start a game, choose options by label, read the view.

Every test drives the game through the public state API only (`current_player`,
`action_labels`, `apply_action`, `is_chance_node`, `sample_chance`, `returns`,
`observation`): situations are reached by choosing options, never by editing the state.
The rules are the shipped ones; the cards are either the shipped ones or the small
test set in tests/fixtures/defenders/, in which every Starter card is the same
"Test Card" (move 6, and a menu of test abilities), so a test knows every hand.
"""
from __future__ import annotations

import functools
import re
from collections import deque
from pathlib import Path

import yaml

from lumos.api import game_sources, load_game, new_game
from lumos.compiler.game import GameSources, compile_game

ROOT = Path(__file__).resolve().parents[2]
GAME = "defenders-of-hogwarts"
FIXTURE = ROOT / "tests" / "fixtures" / "defenders"
SIDES = ("dark_arts", "gryffindor", "hufflepuff", "ravenclaw", "slytherin")
DARK, GRYFFINDOR, HUFFLEPUFF, RAVENCLAW, SLYTHERIN = range(5)

# The most passive answer to each kind of question, in order of preference.
PASSIVE = (r"^end the turn$", r"^leave ", r"^keep the items$", r"^do not choose$", r"^move no Dark Arts Pawn$",
           r"^test: nothing$", r"^pass \(no card in hand\)$", r"^resolve the Dark Arts part")


@functools.lru_cache(maxsize=1)
def rules_with_test_cards():
    """The shipped rules compiled with the test card set."""
    src = game_sources(GAME)
    return compile_game(GameSources(src.id, src.rules_dir, FIXTURE, src.schema_dir))


def shipped_game():
    return load_game(GAME)


def start(house_players: int = 2, seed: int = 1, shipped: bool = False, log: bool = False):
    cg = shipped_game() if shipped else rules_with_test_cards()
    st = new_game(cg, seed=seed, options={"house_players": house_players}, log=log, forced="take")
    settle(st)
    return st


def settle(st) -> None:
    """Resolve chance (dice) with the game's own generator until someone decides."""
    while not st.is_terminal() and st.is_chance_node():
        st.apply_action(st.sample_chance())


def labels(st) -> list[str]:
    settle(st)
    return [] if st.is_terminal() else st.action_labels()


def pick(st, pattern: str, side: int | None = None) -> str:
    """Choose the first option whose label matches `pattern` (a regular expression)."""
    settle(st)
    if side is not None:
        assert st.current_player() == side, f"{SIDES[side]} should decide, not {st.current_player()}: {labels(st)}"
    options = st.action_labels()
    for i, text in enumerate(options):
        if re.search(pattern, text):
            st.apply_action(i)
            settle(st)
            return text
    raise AssertionError(f"no option matches {pattern!r}; options: {options}")


def offers(st, pattern: str) -> bool:
    return any(re.search(pattern, t) for t in labels(st))


def passive(st) -> str:
    """Answer the current question as passively as possible."""
    options = labels(st)
    for pattern in PASSIVE:
        for i, text in enumerate(options):
            if re.search(pattern, text):
                st.apply_action(i)
                settle(st)
                return text
    st.apply_action(0)
    settle(st)
    return options[0]


def finish_turn(st, side: int) -> None:
    """Answer passively until another side decides (or the game ends)."""
    while not st.is_terminal() and st.current_player() == side:
        if offers(st, r"^end the turn$"):
            pick(st, r"^end the turn$")
            return
        if offers(st, r"^explore: play a card$"):
            return   # a new turn of the same side (Play Again)
        passive(st)


def play_for_its_move(st, card: str = "") -> bool:
    """Explore (if asked), play the first card (or `card`) and use it for its move only. Whether a card was played."""
    played = offers(st, r"^explore: play a card$")
    if played:
        pick(st, r"^explore: play a card$")
    if offers(st, rf"^play {re.escape(card)}"):
        pick(st, rf"^play {re.escape(card)}")
        played = True
    if offers(st, r"^move with "):
        pick(st, r"^move with ")
        played = True
    return played


def quiet_turn(st) -> None:
    """The side to play plays a card and moves nothing (its hand shrinks by one), or replenishes when empty."""
    side = st.current_player()
    if not play_for_its_move(st) and offers(st, r"^replenish"):
        pick(st, r"^replenish")
    finish_turn(st, side)


def house_move(st, side: int, pawn: str, to: str, effect: str | None = None) -> None:
    """On `side`'s turn: Explore with a Test Card (its test ability `effect` first, if given), `pawn` to `to`."""
    pick(st, r"^explore: play a card$", side)
    if offers(st, r"^play Test Card$"):       # asked unless only one card is in hand
        pick(st, r"^play Test Card$")
    if effect is None:
        pick(st, r"^move with Test Card$")
    else:
        pick(st, r"^resolve the effect of Test Card, then move$")
        pick(st, re.escape(effect))
    pick(st, rf"^move {re.escape(pawn)} \(")
    pick(st, rf"^{re.escape(pawn)} to {re.escape(to)}$")


def view(st) -> dict:
    """Everything on the table and in every hand (the observation of no particular side)."""
    return st.observation(None)


def space_of(st, piece: str):
    return view(st)["pieces"][piece]["space"]


def piece_var(st, piece: str, name: str):
    return view(st)["pieces"][piece]["vars"][name]


def side_var(st, side: int, name: str):
    return view(st)["sides"][SIDES[side]][name]


def var(st, name: str):
    return view(st)["variables"][name]


def zone(st, label: str) -> list[str]:
    return view(st)["zones"][label]


# ------------------------------------------------------------------ an independent map oracle

# Who crosses which borders (General Key Concepts > Obstacles): House pawns open dividers and
# the red entrances (the Room of Requirement while revealed); Dark Arts pawns every obstacle too.
DARK_WALK = frozenset({"open", "entrance", "locked_door", "protective_spell", "physical_object", "water"})


def house_walk(room_open: bool) -> set[str]:
    return {"open", "entrance"} | ({"room"} if room_open else set())

@functools.lru_cache(maxsize=1)
def board_data() -> dict:
    return yaml.safe_load((ROOT / "rules" / GAME / "board.yaml").read_text(encoding="utf-8"))


def neighbours(kinds: set[str]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {s["name"]: set() for s in board_data()["spaces"]}
    for a, b, kind in board_data()["links"]:
        if kind in kinds:
            graph[a].add(b)
            graph[b].add(a)
    return graph


def within(start: str, n: int, kinds: set[str], blocked: set[str] = frozenset()) -> set[str]:
    """Spaces 1..n steps from `start` along links of `kinds`, never entering `blocked`."""
    graph = neighbours(kinds)
    seen, todo = {start: 0}, deque([start])
    while todo:
        here = todo.popleft()
        if seen[here] == n:
            continue
        for nxt in graph[here]:
            if nxt not in seen and nxt not in blocked:
                seen[nxt] = seen[here] + 1
                todo.append(nxt)
    return {s for s, d in seen.items() if d >= 1}


def region(name: str) -> set[str]:
    return {s["name"] for s in board_data()["spaces"] if name in s.get("regions", [])}


def attr(space: str, name: str):
    return next(s for s in board_data()["spaces"] if s["name"] == space)["attrs"].get(name)


def dark_move(st, to: str, reach: int = 6) -> str | None:
    """On the Dark Arts Player's turn: Explore, and move a pawn that can reach `to` there. Gives the pawn."""
    assert st.current_player() == DARK
    play_for_its_move(st)
    if not offers(st, r"^move a Dark Arts Pawn up to"):
        return None
    pick(st, r"^move a Dark Arts Pawn up to")
    blocked = region("protected") | {"room_of_requirement"}
    for text in labels(st):
        m = re.match(r"^move (dark_arts dark_pawn \d) \((\w+)\)", text)
        if m and m.group(2) != to and to in within(m.group(2), reach, DARK_WALK, blocked):
            pick(st, "^" + re.escape(text))
            pick(st, rf"^{re.escape(m.group(1))} to {re.escape(to)}$")
            return m.group(1)
    return None


def advance_to(st, side: int, limit: int = 200) -> None:
    """Quiet turns and passive answers until `side` starts a turn (the Explore option is offered)."""
    for _ in range(limit):
        if st.is_terminal() or (st.current_player() == side and offers(st, r"^explore: play a card$")):
            return
        if offers(st, r"^(explore: play a card|replenish)"):
            quiet_turn(st)
        else:
            passive(st)
    raise AssertionError(f"{SIDES[side]} never got a turn")


def go(st, side: int, to: str, effect: str | None = None, keep: tuple = ()) -> str:
    """On `side`'s turn: Explore with a Test Card and bring a pawn that can reach `to` (and is on no space of `keep`)."""
    house = SIDES[side]
    kinds = house_walk(var(st, "room_open"))
    for k in (1, 2, 3):
        pawn = f"{house} student {k}"
        here = space_of(st, pawn)
        if here and here != to and here not in keep and not piece_var(st, pawn, "stunned") and to in within(here, 6, kinds):
            house_move(st, side, pawn, to, effect)
            return pawn
    raise AssertionError(f"no pawn of {house} can reach {to}")


# ------------------------------------------------------------------ scripted House turns

def scripted_turn(st, side: int, to: str, effect: str | None = None, then: tuple = (), keep: tuple = ()) -> None:
    """`side`'s next turn (the others play quietly until then): a pawn to `to`, then each of `then`."""
    advance_to(st, side)
    go(st, side, to, effect, keep)
    for pattern in then:
        while not offers(st, pattern):
            passive(st)
        pick(st, pattern)
    finish_turn(st, side)


def scripted_scroll(st, side: int) -> None:
    """Two turns onto two of the side's locations, then the Free Action that gains a Parchment Scroll."""
    house = SIDES[side]
    targets = [card.removeprefix("Test Location ") for card in zone(st, f"{house} locations")[:2]]
    for target in targets:
        scripted_turn(st, side, target, keep=tuple(targets))
    advance_to(st, side)
    pick(st, "^gain a Parchment Scroll$")
    finish_turn(st, side)


def refill(st, side: int, below: int = 3) -> None:
    """On `side`'s next turn, Replenish (discarding nothing) when fewer than `below` cards are in hand."""
    advance_to(st, side)
    if len(zone(st, f"{SIDES[side]} hand")) < below:
        pick(st, "^replenish")
        while offers(st, "before drawing$"):
            pick(st, "^do not choose$")
        finish_turn(st, side)
