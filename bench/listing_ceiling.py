"""Snitch Snatcher's pitch plays listed by Lumos beside a plain hand-written Python listing of the same rules.

Run it as ``python bench/listing_ceiling.py [--games N] [--reps N]``. It prints figures only.

Why: the benchmark's one open target (issue 14: Snitch Snatcher at 0.08x the hand-written
tic-tac-toe's actions/s) is spent mostly listing the pitch plays (`do one of move_player,
pass_quaffle`: every player's moves, searches through the pitch, and the passes). This script
says how far from hand-written Python that listing is: it plays random games with Lumos, keeps
the state at each pitch play, and lists the options there again both ways, on the same
positions, in turns (CPU time, medians over repetitions). Both must give the same options in
the same order, or it says where they differ and stops.

The hand-written listing is what a Python programmer would write for this one game from
rulebooks/snitch-snatcher.txt ("Quidditch Players", "Game Play > Rules of the Pitch", "Goal
Attempts & Scoring") and the rules' rulings: the board's neighbour tables and regions as tuples and
sets read once, a breadth-first search per player with its conditions written in line, no
caching between positions. It reads the positions' plain data (where each piece stands, who
holds the Quaffle, who has moved, the plays left), never Lumos's code.

Lumos lists with its kept search answers dropped before each listing (each position is listed
many times here; in play they are found again 11-28% of the time): a little slower than in play.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time


class HandWritten:
    """The pitch-play listing of Snitch Snatcher, written by hand for its board and pieces."""

    def __init__(self, cg):
        b = cg.board
        self.diagonal, self.orthogonal = b.links["diagonal"], b.links["orthogonal"]
        self.dark = frozenset(i for i, a in enumerate(b.attrs) if a.get("colour") == "dark")
        r = b.regions
        self.field = frozenset(r["field"])
        self.keeper_area = (frozenset(r["keeper_area_home"]), frozenset(r["keeper_area_away"]))
        self.goals = (frozenset(r["goal_home"]), frozenset(r["goal_away"]))
        self.middle, self.halves = frozenset(r["middle_line"]), (frozenset(r["half_home"]), frozenset(r["half_away"]))
        self.side = [p.side for p in cg.pieces]
        self.kind = [p.kind for p in cg.pieces]
        self.team = ([i for i, p in enumerate(cg.pieces) if p.side == 0], [i for i, p in enumerate(cg.pieces) if p.side == 1])
        self.quaffle = [p.name for p in cg.pieces].index("quaffle")
        self.keeper = [next(i for i in t if self.kind[i] == "keeper") for t in self.team]
        self.moved_var = cg.piece_var_names.index("moved")
        self.plays_left_slot = cg.global_names.index("plays_left")
        self.current_slot = cg.current_slot
        self.move_action = [a.name for a in cg.actions].index("move_player")
        self.pass_action = [a.name for a in cg.actions].index("pass_quaffle")

    def listing(self, st) -> list:
        side = st.g[self.current_slot]
        loc, occ = st.loc, st.occ
        holder = st.holder[self.quaffle]
        moved = st.pv[self.moved_var]
        team = [p for p in self.team[side] if loc[p] >= 0]
        out = []
        keeper = self.keeper[side]
        must_pass = holder == keeper and st.g[self.plays_left_slot] == 1 and bool(self.pass_targets(st, keeper))
        if not must_pass:
            for p in team:
                if moved[p]:
                    continue
                kind = self.kind[p]
                if kind == "chaser":
                    found = self.chaser_moves(p, loc[p], occ, holder == p)
                elif kind == "beater":
                    found = self.beater_moves(p, loc[p], occ)
                elif kind == "keeper" and holder != p:
                    found = self.keeper_moves(p, loc[p], occ)
                else:
                    found = ()
                out += [(self.move_action, (p, s)) for s in found]
        for p in team:
            if holder == p:
                out += [(self.pass_action, (p, r)) for r in self.pass_targets(st, p)]
        return out

    def chaser_moves(self, p, start, occ, holds):
        side = self.side[p]
        dark, field, own_area, rival_goals = self.dark, self.field, self.keeper_area[side], self.goals[1 - side]
        seen, found, ring = {start}, [], [start]
        for depth in range(3):
            following = []
            for here in ring:
                for s in self.diagonal[here]:
                    if s in seen:
                        continue
                    seen.add(s)
                    ground = occ[s] < 0 and s in dark and s not in own_area and s in field
                    if ground or (holds and s in rival_goals and occ[s] < 0):
                        found.append(s)
                    if ground and depth < 2:
                        following.append(s)
            ring = following
            if not ring:
                break
        return sorted(found)

    def beater_moves(self, p, start, occ):
        rival, field, kind, side = 1 - self.side[p], self.field, self.kind, self.side
        seen, found, ring = {start}, [], [start]
        for depth in range(2):
            following = []
            for here in ring:
                for s in self.orthogonal[here]:
                    if s in seen:
                        continue
                    seen.add(s)
                    if s not in field:
                        continue
                    q = occ[s]
                    if q < 0:
                        found.append(s)
                        if depth < 1:
                            following.append(s)
                    elif side[q] == rival and kind[q] not in ("keeper", "seeker"):
                        found.append(s)
            ring = following
            if not ring:
                break
        return sorted(found)

    def keeper_moves(self, p, start, occ):
        side = self.side[p]
        goals, area, dark, sides = self.goals[side], self.keeper_area[side], self.dark, self.side
        seen, found, ring = {start}, [], [start]
        for depth in range(2):
            following = []
            for here in ring:
                for s in self.diagonal[here]:
                    if s in seen:
                        continue
                    seen.add(s)
                    if not (s in goals or (s in area and s in dark)):
                        continue
                    q = occ[s]
                    if q < 0 or sides[q] == 1 - side:
                        found.append(s)
                    if q < 0 and depth < 1:
                        following.append(s)
            ring = following
            if not ring:
                break
        return sorted(found)

    def pass_targets(self, st, p):
        loc, here = st.loc, st.loc[p]
        return [r for r in self.team[self.side[p]] if r != p and loc[r] >= 0 and self.kind[r] == "chaser"
                and self.same_side_of_line(here, loc[r])]

    def same_side_of_line(self, a, b):
        home, away = self.halves
        return a in self.middle or b in self.middle or (a in home and b in home) or (a in away and b in away)


def positions(cg, games: int, seed: int = 1):
    """(machine, frame, instruction) at each pitch play of `games` random games, each on its own state."""
    from lumos.interpreter.machine import Machine

    from lumos.api import new_game
    rng = random.Random(seed)
    out = []
    for g in range(games):
        state = new_game(cg, seed=seed + g)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
                continue
            st = state.st
            if st.pending["kind"] == "act" and cg.procs[st.frames[-1][0]].name == "take_turn":
                copy = st.clone()
                m = Machine(cg, copy)
                fr = copy.frames[-1]
                out.append((m, fr, m.tables[fr[0]][0][fr[1]]))
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def lumos_listing(m, fr, op):
    st = m.st
    st.pending = None
    st.kept.clear()
    op(m, fr)
    return st.pending["options"]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=40, help="random games to take positions from (default 40)")
    p.add_argument("--reps", type=int, default=7, help="repetitions, taken in turns (default 7)")
    args = p.parse_args(argv)
    from lumos.api import load_game
    cg = load_game("snitch-snatcher")
    hand = HandWritten(cg)
    found = positions(cg, args.games)
    for i, (m, fr, op) in enumerate(found):
        ours, theirs = lumos_listing(m, fr, op), hand.listing(m.st)
        if ours != theirs:
            print(f"position {i}: the listings differ\n  Lumos        {ours}\n  hand-written {theirs}")
            return 1
    options = sum(len(lumos_listing(m, fr, op)) for m, fr, op in found)
    ratios, lumos_rates, hand_rates = [], [], []
    for _ in range(args.reps):
        t = time.process_time()
        for m, fr, op in found:
            lumos_listing(m, fr, op)
        lumos = time.process_time() - t
        t = time.process_time()
        for m, _fr, _op in found:
            hand.listing(m.st)
        written = time.process_time() - t
        lumos_rates.append(len(found) / lumos)
        hand_rates.append(len(found) / written)
        ratios.append(written / lumos)
    print(f"Snitch Snatcher's pitch plays listed at {len(found)} positions of {args.games} random games "
          f"({options / len(found):.1f} options each), the same options both ways")
    print(f"  Lumos               {statistics.median(lumos_rates):9.0f} listings/s")
    print(f"  hand-written Python {statistics.median(hand_rates):9.0f} listings/s")
    print(f"  Lumos / hand-written {statistics.median(ratios):.3f}x (median of {args.reps} per-repetition ratios)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
