"""Seeded games driven to the end, for the determinism and invariant tests of every game.

Two drivers, the same for every bundled game:

- `Trace` plays a game with a seeded random agent and records every option applied and
  every state's JSON; `replay` and `continue_from` apply a record again (chance drawn from
  the state's own generator, which must agree with the record);
- `play_checked` plays a game with each side choosing in a style (`chooser`) and calls a
  game's checker after every decision; `soak` plays many seeded games so.

What a game checks is its own: the checker passed in (an object with `check(state)` and
`at_end(state)`) and any extra choosing styles come from the game's tests.
"""
from __future__ import annotations

import random
from typing import Callable, Iterable, Protocol

import pytest

from lumos.interpreter.engine import GameState

MAX_STEPS = 50_000          # options applied in one traced game, chance included
MAX_DECISIONS = 20_000      # decisions in one checked game

# A style's own way of picking: (state, rnd) -> an option's index, or None to pick at random.
Style = Callable[[GameState, random.Random], "int | None"]


# ------------------------------------------------------------------ traces

class Trace:
    """One game played to the end: every option applied (chance included) and, before each
    apply, the state's JSON and how many events had been logged."""

    def __init__(self, cg, seed: int, agent_seed: int, options: dict | None = None, teams: dict | None = None):
        rnd = random.Random(agent_seed)
        state = GameState.new(cg, seed=seed, options=options, log=True, teams=teams, forced="take")
        self.applied: list[int] = []
        self.snapshots: list[tuple[str, int]] = []
        self.chance: list[bool] = []
        while not state.is_terminal():
            assert len(self.applied) < MAX_STEPS
            self.snapshots.append((state.to_json(), len(state.events)))
            self.chance.append(state.is_chance_node())
            index = state.sample_chance() if state.is_chance_node() else rnd.choice(state.legal_actions())
            self.applied.append(index)
            state.apply_action(index)
        self.events = list(state.events)
        self.final = state.to_json()
        self.state = state


def replay(cg, seed: int, applied: list[int], options: dict | None = None, teams: dict | None = None):
    """Apply recorded options; chance is drawn again from the state's own generator (it
    also shuffles, so a replay must draw it the same way) and must agree with the record."""
    state = GameState.new(cg, seed=seed, options=options, log=True, teams=teams, forced="take")
    for step, index in enumerate(applied):
        if state.is_chance_node():
            assert state.sample_chance() == index, f"chance differs at step {step}"
        state.apply_action(index)
    return state


def continue_from(state: GameState, trace: Trace, k: int) -> GameState:
    """Apply the trace's options from step k on; chance is drawn from the state's own generator."""
    for step in range(k, len(trace.applied)):
        if trace.chance[step]:
            assert state.is_chance_node()
            assert state.sample_chance() == trace.applied[step], f"chance differs at step {step}"
        state.apply_action(trace.applied[step])
    return state


# ------------------------------------------------------------------ checked games

class Checker(Protocol):
    """A game's invariants: `check` after every decision, `at_end` once the game is over."""

    def check(self, state: GameState) -> None: ...

    def at_end(self, state: GameState) -> None: ...


def chooser(style: str, rnd: random.Random, styles: dict[str, Style] | None = None):
    """How a side picks, given the state: "random" (uniform), "first" (mostly the first
    option), "last" (mostly the last: the last of a `may choose` is "do not choose"), or a
    style of the game's own from `styles`."""
    own = (styles or {}).get(style)

    def pick(state: GameState) -> int:
        n = len(state.legal_actions())
        if style == "first" and rnd.random() < 0.8:
            return 0
        if style == "last" and rnd.random() < 0.8:
            return n - 1
        if own is not None:
            index = own(state, rnd)
            if index is not None:
                return index
        return rnd.randrange(n)
    return pick


def play_checked(cg, seed: int, styles: tuple[str, ...], checker: Checker, options: dict | None = None,
                 teams: dict | None = None, rnd_seed: int | None = None,
                 own_styles: dict[str, Style] | None = None) -> int:
    """Play one game to the end, `checker` checking after every decision and at the end;
    return how many checks were made. `teams`: checked team files by side name."""
    rnd = random.Random(seed if rnd_seed is None else rnd_seed)
    picks = [chooser(styles[s % len(styles)], rnd, own_styles) for s in range(cg.nsides)]   # styles go round the sides
    state = GameState.new(cg, seed=seed, options=options, teams=teams, forced="take")
    checker.check(state)
    checks = 1
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            continue
        assert state.st.decisions < MAX_DECISIONS, f"seed {seed}: no end after {MAX_DECISIONS} decisions"
        side = state.current_player()
        options_now = state.legal_actions()
        assert options_now and 0 <= side < cg.nsides
        # every option offered is in the game's fixed action space (OpenSpiel, PettingZoo and
        # apply_action_id rely on it); raises R011 when one is not
        assert len(state.legal_action_ids()) == len(options_now)
        state.apply_action(options_now[picks[side](state)])
        try:
            checker.check(state)
        except AssertionError as e:
            raise AssertionError(f"seed {seed}, styles {styles}, options {options}: {e}") from e
        checks += 1
    checker.at_end(state)
    return checks


def fails(checker: Checker, state: GameState) -> bool:
    """Whether the checker finds something wrong with the state (for checks of the checks:
    each family must fail on a state broken on purpose)."""
    try:
        checker.check(state)
    except AssertionError:
        return True
    return False


def each_game(games: list, having: str | None = None) -> list:
    """pytest parameters, one per game (with `having`: the games whose attribute of that name is set)."""
    return [pytest.param(g, id=g.name) for g in games if having is None or getattr(g, having)]


def styles_in_turn(styles: tuple[str, ...]) -> Callable[[int], tuple[str, str]]:
    """The choosing styles of a seeded game of two sides: every pair in turn."""
    def of(seed: int) -> tuple[str, str]:
        return styles[seed % len(styles)], styles[(seed // len(styles)) % len(styles)]
    return of


def soak(cg, seeds: Iterable[int], game_of: Callable[[int], tuple[tuple[str, ...], dict | None]],
         make_checker: Callable[[], Checker], own_styles: dict[str, Style] | None = None) -> int:
    """Play the seeded games (`game_of(seed)`: the styles and options), each with a new
    checker; return the checks made."""
    checks = 0
    for seed in seeds:
        styles, options = game_of(seed)
        checks += play_checked(cg, seed, styles, make_checker(), options, own_styles=own_styles)
    return checks


# ------------------------------------------------------------------ hidden information

def first_side_to_decide(cg, seed: int) -> GameState | None:
    """A game of random moves at one of the first side's decisions (with a choice) after a few
    turns; None if the game ends first."""
    g = GameState.new(cg, seed=seed, forced="take")
    rnd = random.Random(seed)
    for turn in range(200):
        if g.is_terminal():
            return None
        if g.is_chance_node():
            g.apply_action(g.sample_chance())
        elif g.current_player() == 0 and len(g.legal_actions()) >= 2 and turn > 10:
            return g
        else:
            g.apply_action(rnd.choice(g.legal_actions()))
    return None


def unseen_swaps(cg, hand: str, deck: str, seeds: Iterable[int] = range(20)):
    """(seed, game, twin) at the first side's decisions, where the twin differs only in what
    that side cannot see: the first card of side 1's `hand` and the top of its `deck` swapped."""
    for seed in seeds:
        g = first_side_to_decide(cg, seed)
        if g is None:
            continue
        h, d = cg.zone_id(hand, 1), cg.zone_id(deck, 1)
        if not g.st.zones[h] or not g.st.zones[d]:
            continue
        twin = g.clone()
        a, b = twin.st.zones[h][0], twin.st.zones[d][-1]
        twin.st.zones[h][0], twin.st.zones[d][-1] = b, a
        twin.st.card_zone[a], twin.st.card_zone[b] = d, h
        yield seed, g, twin
