"""Catch the Golden Snitch's invariants: what holds after every decision of its games.

tests/test_invariants.py plays random games of every bundled game with the shared driver
(tests/support/drivers.py) and this game's `Checker`, styles and options: each side builds a random Team within the
Funding (set-up builds Teams by decisions when no team file is given), the `funding`
and `spectators` options vary, and each side picks uniformly, mostly its first option,
mostly its last (the last of a `may choose` is "do not choose") or mostly the Action that
brings the Quaffle nearest a Goal (random play hardly ever scores). After every
decision the state is checked against the rulebook (rulebooks/catch-the-golden-snitch.txt):

- "Elements of the Game > Teams", "Build Your Team": each side has 7 Players, 1 Keeper,
  2 Beaters, 3 Chasers and 1 Seeker, and a roster of Player cards of the same make-up,
  of its House, no Unique Name twice, each miniature holding a card of its Position;
- "The Game Board", "Snitch Race": Keepers, Chasers and Beaters stand on Zones of the
  Pitch, never in the Snitch Race; only the Seekers, the Golden Snitch and the Snitch Race
  tokens (Upwind/Flag tokens, the race's Dice tokens) are in the Snitch Race; one token per
  race space; tokens never on or past the Snitch, none left behind both Seekers;
- "Balls": 4 balls. The Quaffle is held by a Chaser or Keeper on the Pitch or Loose on a
  Zone that is not a Scoring Area ("Change of Possession and Loose Quaffles"); the Team
  in Possession is the Attacking Team, and a Quaffle gone Loose makes the Team that lost
  it the Defending Team; both Bludgers are on Zones; the Snitch on the race, only ever
  moving towards the Seekers;
- "Outfield Play > Kick-Off", "Setup": at the first Pitch Actions choice the Quaffle is with
  an attacking Chaser, one Bludger in each half outside Deployment Zones, Scoring Areas and
  orange Zones, 3 Players of each side out of its Deployment Zone;
- "Actions", "Disadvantage": every Action offered is one the rulebook allows (Move to an
  adjacent Zone, never out of a Disadvantage; Pass by the carrier to a friendly Chaser or
  Keeper within 2 Zones; Shoot by a Chaser with the Quaffle in the rival Scoring Area; Steal
  by the Defending Team in the carrier's Zone; Beat by a Beater beside a Bludger at a rival
  within 2 Zones; Recover a Stunned Player; neither Move nor Recover by a Seeker);
- "Change of Possession and Loose Quaffles", "Score a Goal": once the Quaffle goes Loose or a
  Goal is scored during an Action Block, that Block offers no further Action;
- "Stunned", "Dice Tokens": at most 3 Stunned tokens per Player; Dice tokens never below 0;
- "The Game Board" (3), "Score a Goal": a Scoring Area holds only its own Keeper and at
  most one Chaser of the other side, and (between Actions, see `stable`) that Chaser
  holds the Quaffle;
- "Snitch Race Deck": the Snitch deck, the face-up row, the discard pile and the cards in
  play are always the same 16 cards; the row never shows more than 3 cards (3 between
  Actions);
- "Build Your Team", "End of Game Sequence": each side's Tactical deck + hand + Pitch
  Actions card + Intrepid Moves + discard pile are always its 15 Tactical cards, of its
  House; at most 1 Pitch Actions card and 2 Intrepid Moves ("Intrepid Moves");
- "Galleons": the Galleons spent on Players, Tactical cards and Spectators never exceed
  the Funding (the option, or a team file's), and the Galleons left are the rest;
- "Goal Tokens": Uncelebrated Goal tokens never outnumber the Goals;
- "Score a Goal > Aim at the Hoop": each Coach keeps Goal Hoop cards 1, 2 and 3;
- "Tempo Points": a side never holds more than 3 Tempo Points between Actions;
- "Catch the Snitch!": while the game goes on, no Seeker stands on the Snitch's space (it
  would have caught it) nor past it; at the end the winner's Seeker is on the Snitch's
  space (both there: the Attacking Team wins);
- engine bookkeeping: every card in at most one zone and `card_zone` agrees; `occ` and
  `occ_next` agree with `loc`; the game ends within a bound of decisions.

Some rules hold only once a piece of procedure is over (a Chaser who loses the Quaffle
in a Scoring Area is Shifted out "immediately", but the Coach chooses where; a Tempo pool
of 4 is spent by a choice of Snitch card). Those checks run at *stable* decision points:
when a Coach chooses a Pitch Actions card or the next Action of a Block, with nothing
else being resolved (the frame stack holds only the Game Sequence's own procedures).

Game words appear only here, in the test: pieces, zones and variables are found by their
names in the compiled game's data.
"""
from __future__ import annotations

import itertools
import random
from collections import Counter

from lumos.api import new_game
from lumos.interpreter.machine import Machine

TEAM = {"keeper": 1, "beater": 2, "chaser": 3, "seeker": 1}
PLAYER_KINDS = ("keeper", "chaser", "beater")        # "The Seeker does not count as a Team Player"
QUAFFLE_CARRIERS = ("chaser", "keeper")              # ruling: Quaffle carriers are Chasers and Keepers
SNITCH_RACE_TYPES = ("snitch", "golden", "slipstream")
SNITCH_RACE_CARDS = 16                               # 12 Snitch, 2 Golden Snitch, 2 Slipstreaming
TACTICAL_DECK = 15
ROW = 3
MAX_STUNNED = 3
MAX_INTREPID = 2
MAX_TEMPO = 3
TACTICAL_ZONES = ("tactical_deck", "hand", "pitch_choice", "pitch_card", "intrepid", "tactical_discard")
# Where Snitch Race cards may be: the deck, the row, the discard pile, and a Coach's card in
# play (whatever race.lumos calls that zone, its name starts with "snitch").
SNITCH_ZONE_PREFIX = "snitch"
# The procedures of the Game Sequence itself: a decision whose frame stack holds only these,
# and whose top frame is one of STABLE_TOPS, is taken between two Actions (or before the
# Pitch Actions card), with no rule half-resolved.
# (`perform_action` is where pitch.lumos offers the Action of a Block; called from elsewhere,
# e.g. a Hand Swap's free Action, its stack holds other procedures and it is not stable.)
SEQUENCE_PROCS = {"flow", "game_sequence", "choose_pitch_actions", "action_blocks", "run_block", "perform_action"}
STABLE_TOPS = {"choose_pitch_actions", "run_block", "perform_action"}
FUNDINGS = (3, 5, 7, 10)


STYLES = ("random", "first", "last", "attack")


def make_checker(cg, skip: tuple[str, ...] | None = None, teams: dict | None = None) -> "Checker":
    """A checker for one game; `skip` defaults to the families of KNOWN_UNFINISHED; `teams`
    (checked team files by side name) give each side's Funding."""
    funding = None if teams is None else {cg.sides.index(side): team["fields"].get("funding", 5)
                                          for side, team in teams.items()}
    return Checker(cg, tuple(KNOWN_UNFINISHED) if skip is None else skip, funding)


# ------------------------------------------------------------------ choosing

def attack(state, rnd: random.Random) -> int | None:
    """The "attack" style: mostly the Action that brings the Quaffle nearest a Goal (random
    play almost never scores, so without it the rules of Shoot, Aim at the Hoop, Goals and the
    Keeper's Kick-Off would go unvisited); None: the driver picks at random."""
    if state.decision_kind() == "act" and rnd.random() < 0.85:
        scores = [attack_score(state, option) for option in state.st.pending["options"]]
        best = max(scores)
        return rnd.choice([i for i, v in enumerate(scores) if v == best])
    return None


OWN_STYLES = {"attack": attack}


def attack_score(state, option) -> float:
    """How much an Action offered helps towards a Goal (game words: test code only)."""
    if not isinstance(option, tuple):  # "do nothing", or an `anytime` option (a Spectator)
        return -1
    cg, st = state.cg, state.st
    a, binding = option
    name = cg.actions[a].name
    quaffle = next(i for i, p in enumerate(cg.pieces) if p.name == "quaffle")
    holder = st.holder[quaffle]
    dist = cg.board.distances["adjacent"]
    side = state.current_player()
    goal = cg.board.index[f"{cg.sides[1 - side]}_scoring"]
    if name == "shoot_action":
        return 100
    if name == "move_action":
        p, z = binding
        if p == holder:
            return 50 + 10 * (dist[st.loc[p]][goal] - dist[z][goal])
        if holder < 0 and z == st.loc[quaffle]:
            return 45
        return 0
    if name == "pass_action":
        p, r = binding
        return 40 + 10 * (dist[st.loc[p]][goal] - dist[st.loc[r]][goal])
    if name == "steal_action":
        return 30
    return 1


# ------------------------------------------------------------------ the checks

class Checker:
    """Checks one game's states; `skip` names check families left out (see KNOWN_UNFINISHED)."""

    FAMILIES = ("team", "positions", "balls", "kick_off", "stunned", "scoring_area", "snitch_cards", "snitch_row",
                "race_tokens", "tactical", "galleons", "hoops", "tempo", "goals", "catch", "options", "disadvantage",
                "block_end", "bookkeeping")

    def __init__(self, cg, skip: tuple[str, ...] = (), team_funding: dict[int, int] | None = None):
        self.cg = cg
        # Teams from team files: each side's Funding is its file's
        self.team_funding = team_funding
        self.families = [f for f in self.FAMILIES if f not in skip]
        board = cg.board
        self.pitch = board.regions["pitch"]
        self.race = board.regions["race"]
        self.scoring = {s: board.index[f"{side}_scoring"] for s, side in enumerate(cg.sides)}
        self.step = {i: board.attrs[i]["step"] for i in self.race}
        self.piece = {p.name: i for i, p in enumerate(cg.pieces)}
        self.quaffle = self.piece["quaffle"]
        self.bludgers = (self.piece["bludger_a"], self.piece["bludger_b"])
        self.snitch = self.piece["snitch"]
        self.players = [i for i, p in enumerate(cg.pieces) if p.kind in PLAYER_KINDS]
        self.seekers = {p.side: i for i, p in enumerate(cg.pieces) if p.kind == "seeker"}
        self.keepers = {p.side: i for i, p in enumerate(cg.pieces) if p.kind == "keeper"}
        self.upwinds = [i for i, p in enumerate(cg.pieces) if p.kind == "upwind"]
        # Snitch Race tokens: the Upwind (Flag) tokens and the neutral Dice tokens of the race
        self.race_tokens = self.upwinds + [i for i, p in enumerate(cg.pieces) if p.name.startswith("race_die")]
        self.g = {n: i for i, n in enumerate(cg.global_names)}
        self.sv = {n: i for i, n in enumerate(cg.side_var_names)}
        self.pv = {n: i for i, n in enumerate(cg.piece_var_names)}
        self.zone_names = [cg.zones[z // cg.nsides][0] for z in range(len(cg.zones) * cg.nsides)]
        self.race_cards = [c for c, card in enumerate(cg.cards) if card.type in SNITCH_RACE_TYPES]
        self.stable_seen = 0
        self.checks = 0
        self.kick_off_checked = False
        self.snitch_step = None
        self.last_possession = None   # the side that held the Quaffle when last seen held
        self.was_held = False         # the Quaffle was held at the previous check
        self.goals_seen = 0
        self.ended_block = None       # the Action Block that had to end
        self.last_block = None        # the Action Block at the previous check

    def at_end(self, state) -> None:
        assert state.winner() in range(self.cg.nsides), "Catch the Snitch!: a game ends with a winner"
        assert self.stable_seen > 0, "no stable decision point seen: have the Game Sequence's procedures been renamed?"
        assert self.kick_off_checked or "kick_off" not in self.families, "the first Pitch Actions choice was never seen"

    # -- helpers
    def zone(self, st, name, side):
        return st.zones[self.cg.zone_id(name, side)]

    def in_play(self, st) -> bool:
        """Set-up is over (the Game Sequence has begun) or the game has ended."""
        return st.result is not None or all(self.cg.procs[f[0]].name != "setup" for f in st.frames)

    def stable(self, st) -> bool:
        if st.result is not None or not st.frames:
            return False
        names = [self.cg.procs[f[0]].name for f in st.frames]
        return names[-1] in STABLE_TOPS and set(names) <= SEQUENCE_PROCS

    def built(self, st, s) -> bool:
        return len(self.zone(st, "roster", s)) == sum(TEAM.values())

    # -- the families
    def check(self, state) -> None:
        st = state.st
        where = f"after decision {st.decisions}"
        in_play, stable = self.in_play(st), self.stable(st)
        self.stable_seen += stable
        self.checks += 1
        for family in self.families:
            getattr(self, "check_" + family)(st, where, in_play, stable)

    def check_team(self, st, where, in_play, stable):
        cg = self.cg
        for s in range(cg.nsides):
            kinds = Counter(p.kind for p in cg.pieces if p.side == s and p.kind in TEAM)
            assert kinds == TEAM, (where, cg.sides[s], kinds)
            assert sum(1 for i in self.upwinds if cg.pieces[i].side == s) == 4, (where, "4 Flag tokens per Coach")
            if not self.built(st, s):
                continue
            roster = self.zone(st, "roster", s)
            house = st.sv[self.sv["house"]][s]
            positions = Counter(cg.cards[c].fields["position"] for c in roster)
            assert positions == TEAM, (where, cg.sides[s], "roster", positions)
            for c in roster:
                assert house in cg.cards[c].fields["affiliation"], (where, cg.cards[c].name, "not of", house)
            uniques = Counter(cg.cards[c].name for c in roster if cg.cards[c].fields.get("unique"))
            assert all(n == 1 for n in uniques.values()), (where, "a Unique Name twice", uniques)
            if in_play:
                given = [st.pv[self.pv["player_card"]][i] for i, p in enumerate(cg.pieces)
                         if p.side == s and p.kind in TEAM]
                assert sorted(given) == sorted(roster), (where, cg.sides[s], "Player cards and miniatures")
                for i, p in enumerate(cg.pieces):
                    if p.side == s and p.kind in TEAM:
                        card = cg.cards[st.pv[self.pv["player_card"]][i]]
                        assert card.fields["position"] == p.kind, (where, p.name, "holds", card.name)

    def check_positions(self, st, where, in_play, stable):
        cg = self.cg
        for i in self.players:
            assert st.loc[i] in self.pitch, (where, cg.pieces[i].name, "off the Pitch", st.loc[i])
            assert st.holder[i] == -1, (where, cg.pieces[i].name, "is carried")
        for i in self.seekers.values():
            assert st.loc[i] in self.race, (where, cg.pieces[i].name, "outside the Snitch Race", st.loc[i])
        tokens = [st.loc[i] for i in self.race_tokens if st.loc[i] != -1]
        assert all(t in self.race for t in tokens), (where, "a Snitch Race token outside the Snitch Race")
        # "Only the Seekers, the Golden Snitch and the Snitch Race tokens can be in the Snitch Race."
        allowed = set(self.seekers.values()) | {self.snitch} | set(self.race_tokens)
        for i in range(len(cg.pieces)):
            if st.loc[i] in self.race:
                assert i in allowed, (where, cg.pieces[i].name, "in the Snitch Race")
        assert len(tokens) == len(set(tokens)), (where, "two tokens on one race space")

    def check_balls(self, st, where, in_play, stable):
        cg = self.cg
        snitch = st.loc[self.snitch]
        assert snitch in self.race and st.holder[self.snitch] == -1, (where, "the Snitch is not in the race", snitch)
        if not in_play:
            return
        for b in self.bludgers:
            assert st.loc[b] in self.pitch and st.holder[b] == -1, (where, cg.pieces[b].name, st.loc[b])
        holder, loc = st.holder[self.quaffle], st.loc[self.quaffle]
        if holder >= 0:
            assert loc == -1, (where, "a held Quaffle also stands on a Zone")
            assert cg.pieces[holder].kind in QUAFFLE_CARRIERS, (where, cg.pieces[holder].name, "holds the Quaffle")
            assert st.loc[holder] in self.pitch, (where, "the Quaffle is held off the Pitch")
            if st.result is None:
                assert st.g[self.g["attacking"]] == cg.pieces[holder].side, (
                    where, "the Team in Possession is not the Attacking Team")
            self.last_possession = cg.pieces[holder].side
        else:
            assert loc in self.pitch, (where, "the Quaffle is neither held nor on a Zone", loc)
            assert loc not in self.scoring.values(), (where, "a Loose Quaffle in a Scoring Area")
            # "If the other Team takes Possession, or if the Quaffle goes Loose, the rival Team
            # automatically becomes the new Attacking Team"
            if self.last_possession is not None and st.result is None:
                assert st.g[self.g["attacking"]] != self.last_possession, (
                    where, "the Quaffle went Loose and the Team that lost it still attacks")

    def check_kick_off(self, st, where, in_play, stable):
        """At the first Pitch Actions choice, the Kick-Off is just over: the Quaffle is with a
        Chaser of the Attacking Team (Setup, 4th Step), each Bludger is outside Deployment Zones
        and Scoring Areas, one in each Coach's half (an orange Zone is in both Halves: The Game
        Board, Note), each Coach has moved 3 Players out of the
        Deployment Zone (2 + 1 and 1 + 2, none twice) and each Keeper is in its Scoring Area."""
        first_choice = stable and self.cg.procs[st.frames[-1][0]].name == "choose_pitch_actions"
        if not first_choice or st.g[self.g["sequence_number"]] != 1:
            return
        self.kick_off_checked = True
        cg = self.cg
        regions = cg.board.regions
        attacking = st.g[self.g["attacking"]]
        holder = st.holder[self.quaffle]
        assert holder >= 0 and cg.pieces[holder].kind == "chaser" and cg.pieces[holder].side == attacking, (
            where, "after the Kick-Off the Quaffle is not with a Chaser of the Attacking Team")
        for b in self.bludgers:
            assert st.loc[b] not in regions["deployment_zones"] | regions["scoring_areas"], (
                where, cg.pieces[b].name, "placed in", cg.board.spaces[st.loc[b]])
        # one Bludger in each half: each Coach placed one in the rival's half (the orange
        # Zones count for both)
        halves = [{s for s, side in enumerate(cg.sides) if st.loc[b] in regions["half_" + side]}
                  for b in self.bludgers]
        assert any(sorted(pick) == list(range(cg.nsides)) for pick in itertools.product(*halves)), (
            where, "the Bludgers are not one in each half")
        for s, side in enumerate(cg.sides):
            deploy = cg.board.index[f"{side}_deploy"]
            left = [i for i in self.players if cg.pieces[i].side == s and st.loc[i] == deploy]
            assert len(left) == 2, (where, side, "has", len(left), "Players left in the Deployment Zone")
            assert st.loc[self.keepers[s]] == self.scoring[s], (where, side, "Keeper not in its Scoring Area")

    def check_race_tokens(self, st, where, in_play, stable):
        """Snitch Race Tokens: never on or beyond the Golden Snitch; discarded once both Seekers
        have passed them."""
        if not stable:
            return
        snitch = self.step[st.loc[self.snitch]]
        behind = min(self.step[st.loc[i]] for i in self.seekers.values())
        for i in self.race_tokens:
            if st.loc[i] != -1:
                step = self.step[st.loc[i]]
                assert step < snitch, (where, self.cg.pieces[i].name, "on or past the Snitch")
                assert step >= behind, (where, self.cg.pieces[i].name, "left behind both Seekers")

    def check_goals(self, st, where, in_play, stable):
        goals, unc = st.sv[self.sv["goals"]], st.sv[self.sv["uncelebrated"]]
        for s in range(self.cg.nsides):
            assert 0 <= unc[s] <= goals[s], (where, self.cg.sides[s], "Uncelebrated", unc[s], "Goals", goals[s])

    def check_stunned(self, st, where, in_play, stable):
        stunned = st.pv[self.pv["stunned"]]
        for i in self.players + list(self.seekers.values()):
            assert 0 <= stunned[i] <= MAX_STUNNED, (where, self.cg.pieces[i].name, "Stunned", stunned[i])
        for name in self.pv:
            if name.startswith(("bonus_", "penalty_")):
                assert min(st.pv[self.pv[name]]) >= 0, (where, name, "below 0")

    def check_scoring_area(self, st, where, in_play, stable):
        cg = self.cg
        for s, area in self.scoring.items():
            inside = [i for i in self.players if st.loc[i] == area]
            keeper = self.keepers[s]
            intruders = [i for i in inside if i != keeper]
            assert all(cg.pieces[i].side != s and cg.pieces[i].kind == "chaser" for i in intruders), (
                where, cg.board.spaces[area], "holds", [cg.pieces[i].name for i in inside])
            assert len(intruders) <= 1, (where, cg.board.spaces[area], "two rival Chasers")
            if stable and intruders:
                assert st.holder[self.quaffle] == intruders[0], (
                    where, cg.board.spaces[area], cg.pieces[intruders[0]].name, "is there without the Quaffle")

    def check_snitch_cards(self, st, where, in_play, stable):
        if not in_play:
            return
        zones = Counter(self.zone_names[st.card_zone[c]] if st.card_zone[c] >= 0 else None for c in self.race_cards)
        assert sum(zones.values()) == SNITCH_RACE_CARDS
        assert all(z is not None and z.startswith(SNITCH_ZONE_PREFIX) for z in zones), (
            where, "Snitch Race cards outside deck, row, discard and play", dict(zones))
        for name, n in zones.items():
            if name not in ("snitch_deck", "snitch_row", "snitch_discard"):
                per_side = Counter(st.card_zone[c] for c in self.race_cards if self.zone_names[st.card_zone[c]] == name)
                assert max(per_side.values()) <= 1, (where, "a Coach has two Snitch cards in play", name)
        row = self.zone(st, "snitch_row", 0)
        assert len(row) <= ROW, (where, "the row shows", len(row))
        if stable:
            assert len(row) == ROW, (where, "the row shows", len(row), "cards between Actions")

    def check_snitch_row(self, st, where, in_play, stable):
        """Golden Snitch cards never stay in the row: they are resolved and replaced."""
        if not (in_play and stable):
            return
        row = self.zone(st, "snitch_row", 0)
        golden = [self.cg.cards[c].name for c in row if self.cg.cards[c].type == "golden"]
        assert not golden, (where, "a Golden Snitch card stays in the row", golden)

    def check_tactical(self, st, where, in_play, stable):
        cg = self.cg
        for s in range(cg.nsides):
            if not in_play and not self.built(st, s):
                continue
            house = st.sv[self.sv["house"]][s]
            held = [c for z in TACTICAL_ZONES for c in self.zone(st, z, s)]
            if in_play:
                assert len(held) == TACTICAL_DECK, (
                    where, cg.sides[s], {z: len(self.zone(st, z, s)) for z in TACTICAL_ZONES})
            assert all(cg.cards[c].type == "tactical" for c in held), (where, "a non-Tactical card among", cg.sides[s])
            assert all(house in cg.cards[c].fields["affiliation"] for c in held), (where, "a card of another House")
            assert len(self.zone(st, "pitch_card", s)) + len(self.zone(st, "pitch_choice", s)) <= 1, where
            assert len(self.zone(st, "intrepid", s)) <= MAX_INTREPID, (where, "more than 2 Intrepid Moves")
        # no Tactical card outside some side's Tactical zones once the decks are made
        if in_play:
            allowed = {cg.zone_id(z, s) for z in TACTICAL_ZONES for s in range(cg.nsides)}
            for c, card in enumerate(cg.cards):
                if card.type == "tactical" and st.card_zone[c] >= 0:
                    assert st.card_zone[c] in allowed, (where, card.name, "in", self.zone_names[st.card_zone[c]])

    def check_galleons(self, st, where, in_play, stable):
        cg = self.cg
        for s in range(cg.nsides):
            if not self.built(st, s):
                continue
            funding = st.g[self.g["funding"]] if self.team_funding is None else self.team_funding[s]
            bought = list(self.zone(st, "roster", s)) + [c for z in TACTICAL_ZONES for c in self.zone(st, z, s)]
            bought += [c for c in self.zone(st, "spectator_hand", s)]
            spent = sum(cg.cards[c].fields.get("cost") or 0 for c in bought)
            if in_play:
                assert spent <= funding, (where, cg.sides[s], "spent", spent, "of", funding)
            if in_play:
                # the Galleons left are the Funding less what was bought; a Spectator once
                # played sits in a shared zone of the Stand (whose it is does not show there),
                # so with Spectators on the cards still held are a lower bound
                left = st.sv[self.sv["galleons"]][s]
                if st.g[self.g["spectators"]] == "off":
                    assert left == funding - spent, (where, cg.sides[s], "Galleons left", left, "spent", spent)
                else:
                    assert left <= funding - spent, (where, cg.sides[s], "Galleons left", left, "spent", spent)
            assert st.sv[self.sv["galleons"]][s] >= 0, (where, cg.sides[s], "Galleons below 0")

    def check_hoops(self, st, where, in_play, stable):
        if not in_play:
            return
        for s in range(self.cg.nsides):
            hoops = list(self.zone(st, "hoops", s)) + list(self.zone(st, "hoop_choice", s))
            numbers = sorted(self.cg.cards[c].fields["number"] for c in hoops)
            assert numbers == [1, 2, 3], (where, self.cg.sides[s], "Goal Hoop cards", numbers)

    def check_tempo(self, st, where, in_play, stable):
        tempo = st.sv[self.sv["tempo"]]
        assert all(t >= 0 for t in tempo), where
        if stable:
            assert all(t <= MAX_TEMPO for t in tempo), (where, "more than 3 Tempo Points kept", tempo)

    def check_catch(self, st, where, in_play, stable):
        snitch = self.step[st.loc[self.snitch]]
        # the Snitch only ever moves towards the Seekers (Glimpse)
        if self.snitch_step is not None:
            assert snitch <= self.snitch_step, (where, "the Snitch moved away from the Seekers")
        self.snitch_step = snitch
        steps = {s: self.step[st.loc[i]] for s, i in self.seekers.items()}
        if st.result is None:
            assert all(v < snitch for v in steps.values()), (where, "a Seeker on or past the Snitch", steps, snitch)
            return
        winners = [s for s, v in enumerate(st.result) if v == max(st.result)]
        assert len(winners) == 1, (where, "the game ended without one winner", st.result)
        w = winners[0]
        assert steps[w] == snitch, (where, self.cg.sides[w], "won without catching the Snitch", steps, snitch)
        if all(v == snitch for v in steps.values()):
            assert w == st.g[self.g["attacking"]], (where, "both Seekers caught it: the Attacking Team wins")

    # -- the Actions offered
    def side_of(self, i):
        return self.cg.pieces[i].side

    def players_in(self, st, zone, side):
        return sum(1 for i in self.players if st.loc[i] == zone and self.side_of(i) == side)

    def distance(self, a, b):
        return self.cg.board.distances["adjacent"][a][b]

    def check_options(self, st, where, in_play, stable):
        """Every Action offered is one the rulebook allows ("Actions", "Disadvantage", "The Game
        Board"). Actions are known by the names pitch.lumos gives them; others are not checked.
        Where a Trait or Intrepid Move lifts a rule (`ignores_disadvantage`), so does the check."""
        pend = st.pending
        if st.result is not None or pend is None or pend["kind"] != "act":
            return
        cg = self.cg
        holder = st.holder[self.quaffle]
        for option in pend["options"]:
            if not isinstance(option, tuple):  # "do nothing", or an `anytime` option (a Spectator)
                continue
            a, binding = option
            if a is None:
                continue
            name = cg.actions[a].name
            check = getattr(self, "offered_" + name, None)
            if check is not None:
                try:
                    check(st, (where, "offers", name), holder, *binding)
                except AssertionError as e:  # the option's label only when it is needed
                    label = cg.actions[a].label(Machine(cg, st, None), binding)
                    raise AssertionError(f"{e} [the option: {label}]") from e

    def offered_move_action(self, st, where, holder, p, z):
        cg, side = self.cg, self.side_of(p)
        assert cg.pieces[p].kind in PLAYER_KINDS, (where, "Move/Recover: not by the Seekers")
        assert z in cg.board.neighbours(st.loc[p], "adjacent"), (where, "Move: to an adjacent Zone")
        here = st.loc[p]
        if "disadvantage" in self.families and not st.sv[self.sv["ignores_disadvantage"]][side]:
            friends, rivals = self.players_in(st, here, side), self.players_in(st, here, 1 - side)
            assert rivals <= friends, (where, "Disadvantage: a Player at a Disadvantage cannot Move out of its Zone")
        for s, area in self.scoring.items():
            if z == area:
                ok_keeper = p == self.keepers[s]
                others = [i for i in self.players if st.loc[i] == area and i != self.keepers[s]]
                ok_chaser = (cg.pieces[p].kind == "chaser" and side != s and holder == p and not others)
                assert ok_keeper or ok_chaser, (where, "The Game Board: nobody else enters a Scoring Area")

    def offered_pass_action(self, st, where, holder, p, r):
        assert holder == p, (where, "Pass: only by the Player with the Quaffle")
        assert self.side_of(r) == self.side_of(p) and r != p, (where, "Pass: to a friendly Player")
        assert self.cg.pieces[r].kind in QUAFFLE_CARRIERS, (where, "Pass: to a Chaser or Keeper (ruling)")
        assert 0 <= self.distance(st.loc[p], st.loc[r]) <= 2, (where, "Pass: up to 2 Zones away")

    def offered_shoot_action(self, st, where, holder, p):
        assert self.cg.pieces[p].kind == "chaser" and holder == p, (where, "Shoot: a Chaser with the Quaffle")
        assert st.loc[p] == self.scoring[1 - self.side_of(p)], (where, "Shoot: inside the rival Scoring Area")

    def offered_steal_action(self, st, where, holder, p):
        assert holder >= 0 and self.side_of(holder) != self.side_of(p), (where, "Steal: from a rival with the Quaffle")
        assert st.g[self.g["attacking"]] != self.side_of(p), (where, "Steal: only by the Defending Team")
        assert st.loc[p] == st.loc[holder], (where, "Steal: in the same Zone as the Player with the Quaffle")

    def offered_beat_action(self, st, where, holder, p, t):
        assert self.cg.pieces[p].kind == "beater", (where, "Beat: by a Beater")
        assert any(st.loc[b] == st.loc[p] for b in self.bludgers), (where, "Beat: in the same Zone as a Bludger")
        assert t in self.players and self.side_of(t) != self.side_of(p), (where, "Beat: a rival Player")
        assert 0 <= self.distance(st.loc[p], st.loc[t]) <= 2, (where, "Beat: up to 2 Zones away")

    def offered_recover_action(self, st, where, holder, p):
        assert self.cg.pieces[p].kind in PLAYER_KINDS, (where, "Move/Recover: not by the Seekers")
        assert st.pv[self.pv["stunned"]][p] > 0, (where, "Recover: removes a Stunned token the Player has")

    def check_block_end(self, st, where, in_play, stable):
        """"When a Quaffle goes Loose during an Action Block ... the Action Block immediately
        ends" ("Change of Possession and Loose Quaffles"); after a Goal "the Action Block
        immediately ends" ("Score a Goal"). A Block is known by the Game Sequence's number and
        the locals of action_blocks (the Blocks left, changed as each Block starts): once the
        Quaffle went Loose or a Goal was scored during a Block, no further Action of that
        Block is offered."""
        if not in_play or st.result is not None:
            return
        names = [self.cg.procs[f[0]].name for f in st.frames]
        block = None
        if "run_block" in names and "action_blocks" in names:
            block = (st.g[self.g["sequence_number"]], repr(st.frames[names.index("action_blocks")][2]))
        held = st.holder[self.quaffle] >= 0
        goals = sum(st.sv[self.sv["goals"]])
        # seen at the first check after it happened: it happened in this Block only if the
        # previous check was already in it (else that earlier Block is over anyway)
        if block is not None and block == self.last_block and ((self.was_held and not held) or goals > self.goals_seen):
            self.ended_block = block
        self.was_held, self.goals_seen, self.last_block = held, goals, block
        if stable and block is not None and st.pending["kind"] == "act":
            assert block != self.ended_block, (where, "an Action Block goes on after a Loose Quaffle or a Goal")

    def check_disadvantage(self, st, where, in_play, stable):
        """(Checked with the Moves offered: check_options.)"""

    def check_bookkeeping(self, st, where, in_play, stable):
        cg = self.cg
        everywhere = [c for zone in st.zones for c in zone]
        assert len(everywhere) == len(set(everywhere)), (where, "a card in two places")
        for z, zone in enumerate(st.zones):
            for c in zone:
                assert st.card_zone[c] == z, (where, cg.cards[c].name, st.card_zone[c], z)
        assert sum(1 for z in st.card_zone if z >= 0) == len(everywhere), (
            where, "card_zone names a card no zone holds")
        standing = Counter(st.loc[i] for i in range(len(cg.pieces)) if st.loc[i] >= 0)
        listed = Counter()
        for space, first in enumerate(st.occ):
            i = first
            while i != -1:
                assert st.loc[i] == space, (where, cg.pieces[i].name, "listed on", cg.board.spaces[space])
                listed[space] += 1
                i = st.occ_next[i]
        assert listed == standing, (where, "occ disagrees with loc")


# Check families whose rule is not written yet (the Snitch Race is a stub on main): run
# apart, as expected failures, so the rest stays strict. Remove a name when its rule lands.
# (Both earlier entries, Golden Snitch cards left in the row and Moves out of a Disadvantage,
# passed once race.lumos and pitch.lumos landed.)
KNOWN_UNFINISHED: dict[str, str] = {}


def random_options(rnd: random.Random) -> dict:
    return {"funding": rnd.choice(FUNDINGS), "spectators": rnd.choice(("off", "on"))}



def random_teams_vary(cg) -> None:
    """The random Teams really differ: Houses, Player cards and Funding are not always the same
    (else the soak would test one Team only)."""
    houses, rosters = set(), set()
    for seed in range(12):
        state = new_game(cg, seed=seed, options={"funding": FUNDINGS[seed % 4]}, forced="take")
        rnd = random.Random(seed)
        c = Checker(cg)
        while not c.in_play(state.st):
            state.apply_action(state.sample_chance() if state.is_chance_node() else rnd.choice(state.legal_actions()))
        for s in range(cg.nsides):
            houses.add(state.st.sv[c.sv["house"]][s])
            rosters.add(tuple(sorted(cg.cards[x].name for x in c.zone(state.st, "roster", s))))
    assert len(houses) == 4
    # where the cards offer a choice (two differently named cards for one Position and
    # House), the random rosters use it
    names = Counter((house, card.fields["position"]) for card in {c.name: c for c in cg.cards
                    if c.type == "player"}.values() for house in card.fields["affiliation"])
    if any(n > 1 for n in names.values()):
        assert len(rosters) > 4, rosters
