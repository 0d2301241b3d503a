"""Catch the Golden Snitch: the shipped cards (Houses, Tactical decks, Spectators).

Three kinds of checks:
- the card files hold what the rulebook asks of a Team (Build Your Team, Prepare to Play >
  Team Selection, Game Contents): counts, costs, positions, Swift cards, unique Players;
- every card compiles, and every effect (Intrepid Moves, Traits, Spectators' two effects)
  runs, in random games and all at once from a test card;
- a handful of cards do what their text says, each on a situation built by driving the
  public API (GameState) and editing it through positions (the shared Table of
  tests/support: pieces placed, balls given and cards moved by name).

The rules are compiled with the shipped cards plus a few test cards written here
(TEST_CARDS): they play a named card's effect during the Intrepid Moves step, so a test
can set the moment (current_actor, current_action, ...) a Trait or a Swift card reads.
Rulings where the rulebook is silent are on docs/rulings/catch-the-golden-snitch.md.
"""
from __future__ import annotations

import functools
import random
import tempfile
from collections import Counter
from pathlib import Path

import pytest
import yaml

from lumos.api import game_sources, load_game
from lumos.compiler.game import compile_game
from lumos.interpreter.agents import RandomAgent
from lumos.interpreter.play import play_game
from lumos.interpreter.engine import GameState

from support import table as shared

CTGS = "catch-the-golden-snitch"
HOUSES = ("gryffindor", "slytherin", "ravenclaw", "hufflepuff")
HOME, AWAY = 0, 1
SRC = game_sources(CTGS)
CARD_DIR = Path(SRC.cards_dir)
# The unique Players with Traits: an example expansion, outside the box's 28 Player cards.
STARS = Path(__file__).resolve().parents[1] / "examples" / "catch-the-golden-snitch-stars" / "stars.yaml"

# Test cards: not part of the game. Each plays shipped cards' effects when resolved as an
# Intrepid Move. `Test Every Effect` runs every effect of the game, each from a fresh
# Snitch Race (so no Seeker catches the Snitch half-way) and with a moment set, once with
# a friendly Player acting and once with a rival one.
TEST_CARDS = """\
cards:
- name: Test Play Target
  type: tactical
  affiliation: [gryffindor, slytherin, ravenclaw, hufflepuff]
  cost: 0
  copies: 2
  blocks: [1]
  text: Play the chosen card's effect.
  effect: |
    choose c from cards where it.type == "tactical" or it.type == "player" or it.type == "spectator" by me label "test-play {c}"
    log "test playable {c}: {playable(c, me)}"
    play c by me
- name: Test Play Rival Effect
  type: tactical
  affiliation: [gryffindor, slytherin, ravenclaw, hufflepuff]
  cost: 0
  copies: 2
  blocks: [1]
  text: Play the chosen Spectator's rival effect.
  effect: |
    choose c from cards where it.type == "spectator" by me label "test-rival {c}"
    play c.rival_effect by me
- name: Test Every Effect
  type: tactical
  affiliation: [gryffindor, slytherin, ravenclaw, hufflepuff]
  cost: 0
  blocks: [1]
  text: Play every effect of the game.
  effect: |
    for each c in cards where it.type == "tactical" or it.type == "player" or it.type == "spectator":
        if c.name not in ["Test Play Target", "Test Play Rival Effect", "Test Every Effect"]:
            place seeker_of(me) at r1
            place seeker_of(rival(me)) at r1
            place snitch at r15
            set current_actor = first(friendly_players(me))
            set current_target = first(rival_players(me))
            set current_action = "steal"
            play c by me
            set current_actor = first(rival_players(me))
            set current_target = first(friendly_players(me))
            set current_action = "shoot"
            play c by me
            play c.rival_effect by me
            log "test ran {c}"
"""

_GAMES: dict = {}


def cards_game():
    """The shipped rules and cards plus TEST_CARDS (compiled once per run)."""
    if "test" not in _GAMES:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "test_cards.yaml"
            path.write_text(TEST_CARDS, encoding="utf-8")
            _GAMES["test"] = compile_game(SRC, extra_cards=[path, STARS])
    return _GAMES["test"]


@functools.lru_cache(maxsize=None)
def _card_rows() -> tuple:
    rows = []
    for path in sorted(CARD_DIR.glob("*.yaml")):
        for c in yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]:
            rows.append(dict(c, file=path.name))
    return tuple(rows)


def card_rows() -> list[dict]:
    """Every card of the shipped files, as written (one row per card, `copies` unexpanded)."""
    return [dict(c) for c in _card_rows()]


def star_rows() -> list[dict]:
    """The cards of the Star Players example expansion, as written."""
    return [dict(c, file=STARS.name) for c in yaml.safe_load(STARS.read_text(encoding="utf-8"))["cards"]]


def copies(c: dict) -> int:
    return c.get("copies", 1)


def house_cards(house: str, type_: str) -> list[dict]:
    return [c for c in card_rows() if c["type"] == type_ and house in c.get("affiliation", [])]


# ------------------------------------------------------------------------------ counts

@pytest.mark.parametrize("house,at_least", [("gryffindor", 25), ("slytherin", 28), ("ravenclaw", 28),
                                            ("hufflepuff", 25)])
def test_tactical_deck_sizes(house, at_least):
    """Game Contents: 106 Tactical cards (25 Gryffindor, 28 Slytherin, 28 Ravenclaw,
    25 Hufflepuff); Team Selection: a first game uses the cards of cost 0, and a Tactical
    deck always holds 15 cards (Build Your Team), so each House has at least 15 of cost 0."""
    cards = house_cards(house, "tactical")
    assert sum(copies(c) for c in cards) >= at_least
    assert sum(copies(c) for c in cards if c.get("cost", 0) == 0) >= 15


@pytest.mark.parametrize("house", HOUSES)
def test_swift_intrepid_moves(house):
    """Intrepid Moves > Swift Intrepid Moves: at least three per House, each naming the
    moment (`window`) it may be played at, and every Tactical card has an Intrepid Move
    (an `effect`) described by its `text`, and Action Blocks of the allowed shapes."""
    cards = house_cards(house, "tactical")
    swift = [c for c in cards if c.get("swift")]
    assert len(swift) >= 3
    windows = {"before_action", "after_roll", "targeted", "end_of_blocks"}
    assert all(c["window"] in windows for c in swift)
    shapes = {(1,), (2,), (1, 1), (2, 1), (1, 2), (3,), (1, 1, 1)}
    for c in cards:
        assert tuple(c["blocks"]) in shapes, c["name"]
        assert c.get("effect") and c.get("text"), c["name"]
    assert not any(c.get("window") for c in cards if not c.get("swift"))


def test_strong_intrepid_moves_sit_on_weak_action_blocks():
    """Tactical Cards: a card is played either for its Action Blocks or for its Intrepid
    Move. Among the cards of cost 0, the strongest Intrepid Moves (every roll boosted, an
    extra Action) come with at most 2 Actions, and 3 Actions come with a modest one."""
    strong = ("boost_actions(", "extra_action(")
    for c in card_rows():
        if c["type"] == "tactical" and c.get("cost", 0) == 0 and any(w in c["effect"] for w in strong):
            assert sum(c["blocks"]) <= 2, c["name"]


def test_some_cards_are_shared_and_some_have_conditions():
    """Build Your Team: 'Some elements are restricted to certain Teams' — a few Tactical
    cards belong to two Houses; a few can only be played when their condition holds."""
    tactical = [c for c in card_rows() if c["type"] == "tactical"]
    assert any(len(c["affiliation"]) == 2 for c in tactical)
    assert sum(1 for c in tactical if c.get("condition")) >= 4


@pytest.mark.parametrize("house", HOUSES)
def test_standard_players(house):
    """Prepare to Play > Team Selection: each Coach takes the Player cards of cost 0 of
    their House: 1 Keeper, 2 Beaters, 3 Chasers and 1 Seeker (Elements of the Game >
    Teams), each with the dice of its Actions and Reactions."""
    standard = [c for c in house_cards(house, "player") if c.get("cost", 0) == 0]
    positions = Counter()
    for c in standard:
        positions[c["position"]] += copies(c)
        assert not c.get("unique")
    assert positions == {"keeper": 1, "beater": 2, "chaser": 3, "seeker": 1}
    by_position = {c["position"]: c for c in standard}
    assert by_position["chaser"]["shoot_dice"] and by_position["chaser"]["pass_dice"]
    assert by_position["beater"]["beat_dice"] and by_position["beater"]["defense_dice"]
    assert by_position["keeper"]["catch_dice"]
    assert by_position["seeker"]["accelerate_dice"] and by_position["seeker"]["glimpse_dice"]


@pytest.mark.parametrize("house", HOUSES)
def test_a_player_card_lists_only_actions_its_player_can_perform(house):
    """Prepare to Play > Player Cards, 5 Actions: "The different Actions a Player can perform";
    Actions: a Coach picks "an Action listed on that miniature's Player card". A Beater never
    carries the Quaffle (rulings: who carries the Quaffle), so it can neither Steal nor Pass
    nor Shoot, and its card lists none of them; only Chasers Shoot ("Actions > Shoot")."""
    for c in house_cards(house, "player"):
        if c["position"] == "beater":
            assert not {"steal_dice", "pass_dice", "shoot_dice"} & set(c), c["name"]
        if c["position"] != "chaser":
            assert "shoot_dice" not in c, c["name"]


@pytest.mark.parametrize("house", HOUSES)
def test_the_box_holds_seven_player_cards_per_house(house):
    """Game Contents: "28 Player Cards (7 Gryffindor, 7 Slytherin, 7 Ravenclaw, 7
    Hufflepuff)" — one per miniature of the House's Team (Teams: "The box contains four
    complete Teams"); the unique Players are an expansion (examples/catch-the-golden-snitch-stars)."""
    players = house_cards(house, "player")
    assert sum(copies(c) for c in players) == 7
    assert sum(copies(c) for c in card_rows() if c["type"] == "player") == 28
    assert not any(c.get("unique") for c in players)


@pytest.mark.parametrize("house", HOUSES)
def test_unique_players(house):
    """Prepare to Play > Player Cards (6 Trait, 7 Cost, Locked) and Build Your Team >
    Unique Names: the Star Players expansion has at least two unique Players per House, each
    with a Galleon cost of 1-3, a Trait text, its rule (`effect`) and the moment it is used
    (`window`)."""
    unique = [c for c in star_rows() if c["type"] == "player" and house in c["affiliation"] and c.get("unique")]
    assert len(unique) >= 2
    for c in unique:
        assert 1 <= c["cost"] <= 3, c["name"]
        assert c["trait"] and c["effect"], c["name"]
        assert c["window"] in {"before_action", "after_roll", "targeted", "end_of_blocks"}
        assert copies(c) == 1
    assert any(c.get("lockable") for c in unique)


def test_card_names_are_unique_and_spectators_complete():
    """Optional Rules > Spectators: a free Fervent Fan for every Coach and at least three
    more Spectators, each with the Zones it may be placed in and its two effects."""
    rows = card_rows()
    names = [c["name"] for c in rows]
    assert len(names) == len(set(names))
    spectators = [c for c in rows if c["type"] == "spectator"]
    fan = [c for c in spectators if c.get("free")]
    assert [c["name"] for c in fan] == ["Fervent Fan"] and copies(fan[0]) == 2
    assert len(spectators) >= 4
    for c in spectators:
        assert c["stands"] and set(c["stands"]) <= {"magic", "encouragement"}
        assert c["effect"] and c["rival_effect"] and c["text"]
    assert any(c.get("unique") for c in spectators)
    assert any(c.get("cost", 0) > 0 for c in spectators)


def test_every_card_compiles():
    """Every card of the shipped files is in the compiled game (a card whose fields break
    the schema, or whose effect does not compile, would be reported and left out)."""
    cg = load_game(CTGS)
    expected = Counter()
    for c in card_rows():
        expected[c["name"]] += copies(c)
    assert Counter(c.name for c in cg.cards) == expected


# ------------------------------------------------------------------------------ driving

class Match(shared.Table):
    """A game in progress, with helpers to answer the set-up and read the state."""

    def __init__(self, seed: int = 0, options: dict | None = None, cg=None):
        super().__init__(GameState.new(cg or cards_game(), seed=seed, options=options, log=True, forced="take"))

    # reading
    def card_of(self, piece: str) -> str | None:
        c = self.piece_var("player_card", piece)
        return None if c is None else self.cg.cards[c].name

    # deciding
    def move_card(self, name: str, zone: str, side: int) -> int:
        """Put a copy of the card on top of the zone (a copy already there is moved to the top)."""
        zid = self.cg.zone_id(zone, side)
        ids = [i for i, c in enumerate(self.cg.cards) if c.name == name]
        assert ids, name
        hands = {self.cg.zone_id("hand", side) for side in (HOME, AWAY)}
        card = next((i for i in ids if self.st.card_zone[i] == zid),
                    next((i for i in ids if self.st.card_zone[i] not in hands), ids[0]))
        return self.relocate([(card, self.zone_label(zone, side))])[0]

    def setup(self, houses=("gryffindor", "slytherin"), players=(), tactical=(), spectators=(),
              zero_cost=False, hand: dict | None = None) -> None:
        """Answer the set-up: the Houses, Players (the named ones where offered, otherwise
        the first of cost 0), Tactical cards (likewise), Spectators (home buys the named ones, away none);
        home wins the roll for advantage; Bludgers and Kick-Off moves take the first
        option. Once the starting hands are drawn, the cards named in `hand` ({side: [names]})
        join them (the options of a decision are fixed when it is asked, so cards to be
        played must be in the hand before). Stops at the first choice of a Pitch Actions card."""
        hand = dict(hand or {})
        while True:
            if hand and self.zone_names("hand", HOME):
                for side, names in hand.items():
                    for name in names:
                        self.move_card(name, "hand", side)
                hand = {}
            labels = self.labels()
            if self.s.is_chance_node():
                self.roll("success")
                continue
            first = labels[0]
            if first.startswith("coach "):
                self.pick(f"coach {houses[self.s.current_player()]}")
            elif first.startswith("take "):
                wanted = [lab for lab in labels if any(lab.startswith(f"take {p} (") for p in players)]
                zero = [lab for lab in labels if lab.endswith("(0 Galleons)")]
                if zero_cost:
                    assert zero, f"no Player of cost 0 offered: {labels}"
                self.pick((wanted or zero or labels)[0])
            elif first.startswith("add "):
                wanted = [lab for lab in labels if any(lab.startswith(f"add {t} (") for t in tactical)]
                zero = [lab for lab in labels if "(0 Galleons)" in lab and "Test " not in lab]
                if zero_cost:
                    assert zero, f"no Tactical card of cost 0 offered: {labels}"
                self.pick((wanted or zero)[0])
            elif first.startswith("buy the Spectator"):
                owned = self.zone_names("spectator_hand", self.s.current_player())
                wanted = [lab for t in spectators if t not in owned and self.s.current_player() == HOME
                          for lab in labels
                          if lab.startswith(f"buy the Spectator {t} (")]
                self.pick(wanted[0] if wanted else "do not choose")
            elif " as the Pitch Actions card" in first:
                return
            else:
                self.pick(first)

    def pitch_cards(self, home_card: str | None = None, away_card: str | None = None) -> None:
        """Step 2 of the Game Sequence: each Coach's Pitch Actions card (the named one, which
        must be in the hand, or the first card of the hand that is no test card)."""
        for card in (home_card, away_card):
            if card is not None:
                self.pick(f"play {card} as the Pitch Actions card")
            else:
                self.pick(next(lab for lab in self.labels() if not lab.startswith("play Test ")))

    def intrepid(self, home: list[str] = (), away: list[str] = ()) -> None:
        """Step 3: the named Intrepid Moves (in the hand), then both pass."""
        plays = {HOME: list(home), AWAY: list(away)}
        passes = 0
        while passes < 2:
            labels = self.labels()
            if not any(lab.endswith(" as an Intrepid Move") for lab in labels):
                return
            side = self.s.current_player()
            if plays[side]:
                self.pick(f"play {plays[side].pop(0)} as an Intrepid Move")
                passes = 0
            else:
                self.pick("do not choose")
                passes += 1

    def finish_randomly(self, seed: int = 0, limit: int = 20000) -> None:
        agent = RandomAgent(seed)
        n = 0
        while not self.s.is_terminal() and n < limit:
            if self.s.is_chance_node():
                self.s.apply_action(self.s.sample_chance())
            else:
                self.s.apply_action(agent.choose(self.s))
            n += 1
        assert self.s.is_terminal()


def put(m: Match, piece: str, space: str) -> None:
    """The piece onto the space, arriving after the pieces already there (a position edit)."""
    m.put({piece: space})


def start(seed: int = 0, **kw) -> Match:
    """A Match set up (see Match.setup); the test cards are in both hands."""
    options = kw.pop("options", None)
    hand = kw.pop("hand", {})
    for side in (HOME, AWAY):
        hand[side] = ["Test Play Target", "Test Play Rival Effect"] + list(hand.get(side, []))
    m = Match(seed, options)
    m.setup(hand=hand, **kw)
    return m


def play_target(m: Match, name: str, context: dict | None = None, side: int = HOME) -> None:
    """Resolve `Test Play Target` as side's only Intrepid Move, choosing `name`; `context`
    sets global variables (pieces by name) just before the card's effect runs."""
    m.pitch_cards()
    m.intrepid(**({"home": ["Test Play Target"]} if side == HOME else {"away": ["Test Play Target"]}))
    for key, value in (context or {}).items():
        m.set_var(key, m.P[value] if isinstance(value, str) and value in m.P else value)
    m.pick_prefix(f"test-play {name}")


def playable_logged(m: Match, name: str) -> bool:
    lines = [e for e in m.events() if e.startswith(f"test playable {name}: ")]
    return lines[-1].endswith("true")


# ------------------------------------------------------------------------------ building teams

@pytest.mark.parametrize("home_house,away_house", [("gryffindor", "slytherin"), ("ravenclaw", "hufflepuff"),
                                                   ("hufflepuff", "gryffindor"), ("slytherin", "ravenclaw")])
def test_team_of_cost_zero_cards(home_house, away_house):
    """Prepare to Play > Team Selection: with the cards of cost 0 only, each House builds a
    full Team (the standard seven Players and a Tactical deck of 15 cards), whatever the
    Funding; every Player card goes with a miniature of its Position."""
    for funding in (3, 5):
        m = Match(options={"funding": funding}, cg=load_game(CTGS))
        m.setup(houses=(home_house, away_house), zero_cost=True)
        for side, house in ((HOME, home_house), (AWAY, away_house)):
            roster = m.zone_names("roster", side)
            assert sorted(roster) == sorted(
                [f"{house.capitalize()} {p}" for p in ("Keeper", "Beater", "Beater", "Chaser", "Chaser", "Chaser", "Seeker")])
            deck = m.zone_names("tactical_deck", side) + m.zone_names("hand", side)
            assert len(deck) == 15
            assert m.side_var("galleons", side) == funding
            prefix = ("home", "away")[side]
            for kind in ("keeper", "seeker", "chaser 1", "beater 2"):
                assert m.card_of(f"{prefix} {kind}").endswith(kind.split()[0].capitalize())


@pytest.mark.parametrize("card,colour,house", [("Cannonball Shot", "orange", "gryffindor"),
                                               ("Earth and Root", "black", "hufflepuff"),
                                               ("Kind Word", "purple", "hufflepuff")])
def test_each_bonus_dice_card_gives_a_token_of_its_own_colour(card, colour, house):
    """Dice Tokens: effects award Bonus Dice tokens "of a specified colour", and a token adds
    "dice of the same colour": the Player chosen takes a token of the card's colour and of no
    other (a colour the game has no die of does not compile: test_construct_param_kinds.py)."""
    m = start(houses=(house, "slytherin"))
    before = {c: m.piece_var(f"bonus_{c}", "home chaser 1") for c in ("orange", "black", "purple")}
    play_target(m, card)
    m.pick(f"give home chaser 1 a {colour} Bonus Dice token")
    after = {c: m.piece_var(f"bonus_{c}", "home chaser 1") for c in ("orange", "black", "purple")}
    assert after == {c: before[c] + (1 if c == colour else 0) for c in before}


def test_unique_players_are_bought_and_assigned():
    """Build Your Team > Galleons and Unique Names: a unique Player costs Galleons, is
    taken once, and its card goes with a miniature of its Position."""
    m = start(players=("Rowan Emberwing", "Bram Hollowtusk"), houses=("gryffindor", "slytherin"))
    roster = m.zone_names("roster", HOME)
    assert roster.count("Rowan Emberwing") == 1 and roster.count("Bram Hollowtusk") == 1
    assert roster.count("Gryffindor Chaser") == 2 and roster.count("Gryffindor Beater") == 1
    assert m.side_var("galleons", HOME) == 5 - 3
    assert "Rowan Emberwing" in [m.card_of(f"home chaser {i}") for i in (1, 2, 3)]


# ------------------------------------------------------------------------------ every effect runs

def test_every_effect_runs():
    """Every Intrepid Move, Trait and Spectator effect of the game and of the Star Players
    expansion runs without error (with a friendly and with a rival Player acting), then the
    game goes on to its end."""
    for seed in (1, 2):
        m = start(seed, houses=(HOUSES[seed], HOUSES[seed - 1]), hand={HOME: ["Test Every Effect"]},
                  players=("Rowan Emberwing", "Cassius Vantablade", "Tobias Inkwell", "Hollis Fernbrook"))
        m.pitch_cards()
        m.intrepid(home=["Test Every Effect"])
        m.finish_randomly(seed)
        ran = {e[len("test ran "):] for e in m.events() if e.startswith("test ran ")}
        expected = {c["name"] for c in card_rows() + star_rows() if c["type"] in ("tactical", "player", "spectator")}
        assert expected <= ran, sorted(expected - ran)


@pytest.mark.parametrize("spectators", ["off", "on"])
def test_random_games_complete(spectators):
    """Random games with the shipped cards (and Spectators off and on) all reach a winner
    without a runtime error; both sides win some."""
    cg = load_game(CTGS)
    winners = Counter()
    for seed in range(30):
        result = play_game(cg, [RandomAgent(seed), RandomAgent(seed + 100)], seed=seed,
                           options={"spectators": spectators})
        assert result.completed, (seed, result.error)
        winners[result.winner] += 1
    assert winners[0] > 0 and winners[1] > 0


# ------------------------------------------------------------------------------ cards do what they say

def test_lions_charge_boosts_every_action_roll():
    """Lion's Charge: 'Until the end of this Game Sequence, every Action roll of your
    Players gains 1 Success' (Intrepid Moves); the bonus ends with the Game Sequence."""
    m = start(hand={HOME: ["Lion's Charge"]})
    m.pitch_cards()
    m.intrepid(home=["Lion's Charge"])
    assert m.side_var("action_boost", HOME) == 1 and m.side_var("action_boost", AWAY) == 0
    while " as the Pitch Actions card" not in m.labels()[0]:
        m.s.apply_action(m.s.sample_chance() if m.s.is_chance_node() else 0)
    assert m.side_var("action_boost", HOME) == 0
    assert "Lion's Charge" in m.zone_names("tactical_discard", HOME)


def test_golden_glory_dive_accelerates_two():
    """Golden Glory Dive: 'Your Seeker Accelerates 2 (2 Successes, no roll)' (The Snitch
    Race > Seeker's Actions): from the first space to the third."""
    m = start(hand={HOME: ["Golden Glory Dive"]})
    assert m.where("home seeker") == "r1"
    m.pitch_cards()
    m.intrepid(home=["Golden Glory Dive"])
    assert m.where("home seeker") == "r3" and m.where("away seeker") == "r1"


def test_bludger_bash_stuns_a_rival_beside_a_bludger():
    """Bludger Bash: 'Place a Stunned token on a rival Player in a Zone with a Bludger'
    (Stunned); a rival elsewhere cannot be chosen."""
    m = start(hand={HOME: ["Bludger Bash"]})
    put(m, "away chaser 1", m.where("bludger_a"))
    m.pitch_cards()
    m.intrepid(home=["Bludger Bash"])
    labels = m.labels()
    near = {p for p in ("away chaser 1", "away chaser 2", "away chaser 3", "away beater 1", "away beater 2",
                        "away keeper") if m.where(p) in (m.where("bludger_a"), m.where("bludger_b"))}
    if labels and labels[0].startswith("Stun "):
        assert {lab[len("Stun "):] for lab in labels} == near
        m.pick("Stun away chaser 1")
    assert m.piece_var("stunned", "away chaser 1") == 1
    assert all(m.piece_var("stunned", p) == 0 for p in ("home chaser 1", "home keeper", "away chaser 2"))


def test_cunning_plan_draws_and_makes_the_rival_discard():
    """Cunning Plan: 'Draw a Tactical card. The rival Coach discards a Tactical card at
    random (never their last).'"""
    m = start(houses=("slytherin", "gryffindor"), hand={HOME: ["Cunning Plan"]})
    m.pitch_cards()
    before = (len(m.zone_names("hand", HOME)), len(m.zone_names("hand", AWAY)))
    m.intrepid(home=["Cunning Plan"])
    # Cunning Plan left the hand to be played, and one card was drawn.
    assert len(m.zone_names("hand", HOME)) == before[0]
    assert len(m.zone_names("hand", AWAY)) == before[1] - 1
    assert len(m.zone_names("tactical_discard", AWAY)) == 1


def test_hex_the_broom_locks_a_rival_trait():
    """Hex the Broom: 'Place a Locked token on a rival Trait that can be Locked' (Prepare to
    Play > Player Cards, Locked); Players whose Trait has no Locked icon cannot be chosen."""
    m = start(houses=("slytherin", "gryffindor"), players=("Rowan Emberwing",), hand={HOME: ["Hex the Broom"]})
    rowan = next(p for p in ("away chaser 1", "away chaser 2", "away chaser 3") if m.card_of(p) == "Rowan Emberwing")
    m.pitch_cards()
    m.intrepid(home=["Hex the Broom"])
    while m.labels() and not m.labels()[0].startswith("give "):
        m.pick(m.labels()[0])
    assert m.piece_var("locked", rowan) is True
    assert sum(1 for p in m.P if m.piece_var("locked", p)) == 1


def test_trait_blazing_finish_only_on_its_own_shoot():
    """Rowan Emberwing's Trait: 'after this Player rolls to Shoot, add 1 Success to the
    roll': its condition holds for its own Shoot only, and it adds one Success."""
    m = start(players=("Rowan Emberwing",))
    rowan = next(p for p in ("home chaser 1", "home chaser 2", "home chaser 3") if m.card_of(p) == "Rowan Emberwing")
    other = next(p for p in ("home chaser 1", "home chaser 2", "home chaser 3") if p != rowan)
    m.pitch_cards()
    m.intrepid(home=["Test Play Target"])
    m.set_var("current_actor", m.P[rowan])
    m.set_var("current_action", "shoot")
    m.pick_prefix("test-play Rowan Emberwing")
    assert playable_logged(m, "Rowan Emberwing")
    assert m.var("roll_bonus") == 1
    # Another Chaser's Shoot, or Rowan's Pass: the Trait cannot be used.
    for actor, action in ((other, "shoot"), (rowan, "pass")):
        m2 = start(players=("Rowan Emberwing",))
        play_target(m2, "Rowan Emberwing", {"current_actor": actor, "current_action": action})
        assert not playable_logged(m2, "Rowan Emberwing")


def test_swift_last_second_lunge_needs_a_friendly_roll():
    """Last-Second Lunge (Swift, after a roll): 'when one of your Players has rolled for an
    Action, add 1 Success to that roll' — not on a rival's roll."""
    m = start()
    play_target(m, "Last-Second Lunge", {"current_actor": "home chaser 1", "current_action": "pass"})
    assert playable_logged(m, "Last-Second Lunge") and m.var("roll_bonus") == 1
    m = start()
    play_target(m, "Last-Second Lunge", {"current_actor": "away chaser 1", "current_action": "pass"})
    assert not playable_logged(m, "Last-Second Lunge") and m.var("roll_bonus") == 0


def test_trait_steadfast_guard_helps_a_reaction_in_its_zone():
    """Hollis Fernbrook's Trait: 'after a Reaction is rolled against a rival Action aimed at
    this Beater, or by this Beater for a friendly Player in its Zone, add 1 Opportunity':
    not for a rival Action aimed at a Player in another Zone."""
    m = start(houses=("hufflepuff", "slytherin"), players=("Hollis Fernbrook",))
    hollis = next(p for p in ("home beater 1", "home beater 2") if m.card_of(p) == "Hollis Fernbrook")
    put(m, "home chaser 3", m.where(hollis))
    play_target(m, "Hollis Fernbrook", {"current_actor": "away beater 1", "current_target": "home chaser 3",
                                        "current_action": "beat"})
    assert playable_logged(m, "Hollis Fernbrook") and m.var("reaction_bonus") == 1
    m = start(houses=("hufflepuff", "slytherin"), players=("Hollis Fernbrook",))
    hollis = next(p for p in ("home beater 1", "home beater 2") if m.card_of(p) == "Hollis Fernbrook")
    put(m, "home chaser 3", "home_back" if m.where(hollis) != "home_back" else "home_north")
    play_target(m, "Hollis Fernbrook", {"current_actor": "away beater 1", "current_target": "home chaser 3",
                                        "current_action": "beat"})
    assert not playable_logged(m, "Hollis Fernbrook")


def test_foul_play_penalises_the_rival_actor():
    """Foul Play (Swift, when targeted): 'when a rival Action targets one of your Players,
    the rival Player acting takes an orange Penalty Dice token' — not on a friendly Action."""
    m = start(houses=("slytherin", "gryffindor"))
    play_target(m, "Foul Play", {"current_actor": "away chaser 2", "current_target": "home chaser 1",
                                 "current_action": "steal"})
    assert playable_logged(m, "Foul Play")
    assert m.piece_var("penalty_orange", "away chaser 2") == 1
    m = start(houses=("slytherin", "gryffindor"))
    play_target(m, "Foul Play", {"current_actor": "home chaser 2", "current_target": "away chaser 1",
                                 "current_action": "steal"})
    assert not playable_logged(m, "Foul Play")


def test_conditions_of_cards():
    """Heart of the Lion may be played only with a Stunned Player; Sly Obstruction only if
    the rival Seeker is not Lagged (Seeker's Actions: no Obstruct against a Lagged Seeker)."""
    m = start()
    play_target(m, "Heart of the Lion")
    assert not playable_logged(m, "Heart of the Lion")
    m = start()
    m.set_piece_var("stunned", "home chaser 2", 2)
    play_target(m, "Heart of the Lion")
    assert playable_logged(m, "Heart of the Lion")
    assert m.piece_var("stunned", "home chaser 2") == 1
    m = start(houses=("slytherin", "gryffindor"))
    put(m, "home seeker", "r5")
    play_target(m, "Sly Obstruction")
    assert not playable_logged(m, "Sly Obstruction")


# ------------------------------------------------------------------------------ Spectators

def spectator_match(home_card: str | None = None, **kw) -> Match:
    m = start(options={"spectators": "on"}, **kw)
    m.pitch_cards(home_card)
    m.intrepid()
    return m


def test_every_coach_gets_a_fervent_fan_and_buys_spectators():
    """Build Your Team > Galleons: with Spectators, each Coach receives a Fervent Fan for free
    and may buy up to two more Spectators of their House with Galleons; off, none."""
    m = start(options={"spectators": "on"}, spectators=("Scarlet Banner Bearer", "Bellowing Megaphonist"))
    assert sorted(m.zone_names("spectator_hand", HOME)) == ["Bellowing Megaphonist", "Fervent Fan", "Scarlet Banner Bearer"]
    assert m.side_var("galleons", HOME) == 5 - 3
    assert m.zone_names("spectator_hand", AWAY) == ["Fervent Fan"]
    m = start()
    assert m.zone_names("spectator_hand", HOME) == [] and m.zone_names("spectator_hand", AWAY) == []


PLAY_SPECTATOR = "play a Spectator"


def decide_until_offered(m: Match, side: int, wanted: str = PLAY_SPECTATOR, limit: int = 200) -> None:
    """Answer decisions (the first option; dice show blanks) until `side` is offered `wanted`."""
    for _ in range(limit):
        if not m.s.is_chance_node() and m.s.current_player() == side and wanted in m.labels():
            return
        if m.s.is_chance_node():
            m.roll("blank")
        else:
            m.pick(m.labels()[0])
    raise AssertionError(f"{wanted!r} never offered to side {side}; last options: {m.labels()}")


def test_spectator_in_empty_zone_then_replaced_by_a_rival():
    """Optional Rules > Spectators: placed in an empty Zone, the first effect applies; placed
    over a rival Spectator, that one is removed first and the second effect applies. A
    Coach cannot place where a friendly Spectator stands; a removed Spectator is out of the
    game (ruling). "At any time": one option at the Coach's decision opens the choice."""
    m = spectator_match()
    before = m.labels()
    assert before[-1] == PLAY_SPECTATOR and before.count(PLAY_SPECTATOR) == 1
    m.pick(PLAY_SPECTATOR)
    assert m.labels() == ["place the Spectator Fervent Fan", "do not choose"]
    m.pick("place the Spectator Fervent Fan")
    assert m.zone_names("encouragement_zone") == ["Fervent Fan"] and m.var("encouragement_owner") == HOME
    assert m.side_var("tempo", HOME) == 1
    # the same decision is asked again, without the Spectator option
    assert m.labels() == before[:-1]
    decide_until_offered(m, AWAY)
    m.set_piece_var("stunned", "away chaser 1", 1)
    m.pick(PLAY_SPECTATOR)
    m.pick("place the Spectator Fervent Fan")
    while m.piece_var("stunned", "away chaser 1") == 1 and m.labels() and m.labels()[0].startswith("remove a Stunned"):
        m.pick_prefix("remove a Stunned token from away chaser 1")
    assert m.zone_names("encouragement_zone") == ["Fervent Fan"] and m.var("encouragement_owner") == AWAY
    assert m.zone_names("spectators_out") == ["Fervent Fan"]
    assert m.side_var("tempo", AWAY) == 1 and m.piece_var("stunned", "away chaser 1") == 0
    assert m.zone_names("spectator_hand", HOME) == [] and m.zone_names("spectator_hand", AWAY) == []


def test_a_friendly_spectator_blocks_its_zone():
    """Optional Rules > Spectators: 'You cannot place a Spectator in a Zone that already
    contains other friendly Spectator': with its Fervent Fan in the encouragement Zone, a
    Coach may still place a magic Spectator, not an encouragement one."""
    m = spectator_match(spectators=("Bellowing Megaphonist", "Charm-Waving Supporter"), home_card="Scarlet Blitz",
                        hand={HOME: ["Scarlet Blitz"]})
    m.pick(PLAY_SPECTATOR)
    assert sorted(m.labels()) == sorted(["place the Spectator Fervent Fan", "place the Spectator Bellowing Megaphonist",
                                         "place the Spectator Charm-Waving Supporter", "do not choose"])
    m.pick("place the Spectator Fervent Fan")
    m.pick(m.labels()[0])   # the decision asked again: answered, so the next one offers Spectators
    decide_until_offered(m, HOME)
    m.pick(PLAY_SPECTATOR)
    assert m.labels() == ["place the Spectator Charm-Waving Supporter", "do not choose"]


def test_declining_returns_to_the_same_decision_without_the_option():
    """Optional Rules > Spectators ("at any time"): opening the choice and placing nothing
    leaves the game where it was; that decision is not offered the Spectator again (so a
    Coach cannot be asked for ever), the next one is."""
    m = spectator_match()
    before = m.labels()
    m.pick(PLAY_SPECTATOR)
    m.pick("do not choose")
    assert m.labels() == before[:-1] and m.zone_names("spectator_hand", HOME) == ["Fervent Fan"]
    m.pick(m.labels()[0])
    decide_until_offered(m, HOME)


def test_spectators_are_offered_to_both_coaches_at_every_decision_of_the_game_sequence():
    """Optional Rules > Spectators: "A Coach can play a Spectator card at any time": once the
    Game Sequence has started (Kick-Off 3; not during the Kick-Off, where "no Player may be
    moved more than once, by any means"), every decision a Coach is asked offers exactly one
    "play a Spectator" while that Coach has a Spectator it can place, whatever the decision
    is (an Action, a Pitch Actions card, an Intrepid Move, a roll's tokens, a Bludger);
    never during the Setup or the Kick-Off, never inside the Spectator's own choice, never
    when none can be placed."""
    m = Match(seed=4, options={"spectators": "on"})
    seen, where = {HOME: 0, AWAY: 0}, set()
    rnd = random.Random(4)
    for _ in range(4000):
        if m.s.is_terminal():
            break
        if m.s.is_chance_node():
            m.s.apply_action(m.s.sample_chance())
            continue
        side, labels = m.s.current_player(), m.labels()
        frames = [m.cg.procs[f[0]].name for f in m.st.frames]
        inside = any(name.startswith("anytime ") for name in frames)
        owners = {"encouragement": m.var("encouragement_owner"), "magic": m.var("magic_owner")}
        hand = [m.cg.cards[c] for c in m.st.zones[m.cg.zone_id("spectator_hand", side)]]
        placeable = m.var("sequence_number") > 0 and any(owners[z] != side for c in hand for z in c.fields["stands"])
        here = [len(m.st.frames), m.st.frames[-1][0], m.st.frames[-1][1]]
        if PLAY_SPECTATOR in labels:
            assert labels.count(PLAY_SPECTATOR) == 1 and labels[-1] == PLAY_SPECTATOR
            assert placeable and not inside, frames
            seen[side] += 1
            where.add(frames[-1])
        else:
            assert not placeable or inside or m.st.anytime_at == here, (labels, frames)
        # mostly play on; now and then open the choice (and sometimes place nothing)
        if labels[-1] == PLAY_SPECTATOR and rnd.random() < 0.9:
            m.s.apply_action(rnd.randrange(len(labels) - 1))
        else:
            m.s.apply_action(rnd.randrange(len(labels)))
    assert seen[HOME] >= 5 and seen[AWAY] >= 5, seen
    assert not {"kick_off", "deploy_moves", "build_team", "setup"} & where, where
    assert "choose_pitch_actions" in where and len(where) >= 4, where


def test_hand_swap_clears_the_stand():
    """Optional Rules > Spectators: 'When a Hand Swap happens, all the Spectator tokens are
    removed from the Spectator Stand.'"""
    m = spectator_match()
    m.pick(PLAY_SPECTATOR)
    m.pick("place the Spectator Fervent Fan")
    m.relocate([(c, m.zone_label("tactical_deck", HOME)) for c in m.zone("hand", HOME)])
    while " as the Pitch Actions card" not in m.labels()[0]:
        labels = m.labels()
        if m.s.is_chance_node():
            m.s.apply_action(m.s.sample_chance())
        else:
            m.pick(labels[0])
    assert m.side_var("hand_swapped", HOME) is True
    assert m.zone_names("encouragement_zone") == [] and m.zone_names("magic_zone") == []
    assert m.var("encouragement_owner") is None
    assert m.zone_names("spectators_out") == ["Fervent Fan"]


def test_spectator_rival_effect_of_the_heckler():
    """Serpent-Tongue Heckler, over a rival Spectator: 'if a rival Player carries the
    Quaffle, place a Stunned token on that Player; then give a rival Player a black Penalty
    Dice token'."""
    m = start(houses=("gryffindor", "slytherin"), options={"spectators": "on"})
    carrier = m.cg.pieces[m.st.holder[m.P["quaffle"]]].name
    assert carrier.startswith("home chaser")
    m.pitch_cards()
    m.intrepid(away=["Test Play Rival Effect"])
    m.pick_prefix("test-rival Serpent-Tongue Heckler")
    if m.labels() and m.labels()[0].startswith("give "):
        m.pick(f"give {carrier} a black Penalty Dice token")
    assert m.piece_var("stunned", carrier) == 1 and m.piece_var("penalty_black", carrier) == 1


# ------------------------------------------------------------------------------ through the rules' windows

def drive_until(m: Match, wanted: str, limit: int = 60) -> list[str]:
    """Answer decisions (decline Swift cards, Traits and Spectators; first option otherwise;
    dice show blanks) until an option starting with `wanted` is offered; gives the labels."""
    for _ in range(limit):
        labels = m.labels()
        if any(lab.startswith(wanted) for lab in labels):
            return labels
        if m.s.is_chance_node():
            m.roll("blank")
        elif any(lab.startswith(("play the Swift", "use the Trait", "place the Spectator")) for lab in labels):
            m.pick("do not choose")
        else:
            m.pick(labels[0])
    raise AssertionError(f"{wanted!r} never offered; last options: {m.labels()}")


def test_trait_offered_after_its_own_shoot_roll_then_locked():
    """Rowan Emberwing's Trait, through the rules: after its Shoot roll the Coach may use it
    (Dice > Dice Rolls); it adds 1 Success and, showing the Locked icon, Locks the card
    (Prepare to Play > Player Cards: 'cannot be used again until the token is removed')."""
    m = start(players=("Rowan Emberwing",))
    rowan = next(p for p in ("home chaser 1", "home chaser 2", "home chaser 3") if m.card_of(p) == "Rowan Emberwing")
    put(m, rowan, "away_scoring")
    m.give(rowan, "quaffle")
    m.pitch_cards()
    m.intrepid()
    drive_until(m, f"{rowan} shoots")
    m.pick(f"{rowan} shoots at the Goal Hoops")
    labels = drive_until(m, "use the Trait of")
    assert f"use the Trait of {rowan} (Rowan Emberwing)" in labels
    m.pick(f"use the Trait of {rowan} (Rowan Emberwing)")
    assert m.var("roll_bonus") == 1 and m.piece_var("locked", rowan) is True


def test_seeker_trait_at_the_end_of_the_action_blocks():
    """Ivy Larkspur's Trait: 'once all Action Blocks are played, this Seeker Accelerates 1
    (1 Success, no roll)' — a Seeker's own Trait is offered too (Prepare to Play > Player
    Cards: every miniature has its card; the Seeker is left out of 'Team Player' only when
    cards mention Players), and it Locks the card."""
    m = start(players=("Ivy Larkspur",))
    assert m.card_of("home seeker") == "Ivy Larkspur"
    m.pitch_cards()
    m.intrepid()
    labels = drive_until(m, "use the Trait of home seeker")
    assert "use the Trait of home seeker (Ivy Larkspur)" in labels
    before = m.where("home seeker")
    m.pick("use the Trait of home seeker (Ivy Larkspur)")
    assert int(m.where("home seeker")[1:]) == int(before[1:]) + 1
    assert m.piece_var("locked", "home seeker") is True


def test_spectators_for_sale_follow_affiliation_and_funding():
    """Build Your Team > Galleons: 'Only the Teams listed may purchase these elements', up to
    2 Spectators, never over the Funding: a Slytherin Coach is not offered the Gryffindor
    Banner Bearer, and with 1 Galleon left no Spectator of cost 2."""
    m = Match(options={"spectators": "on", "funding": 3})
    offers = []
    while True:
        labels = m.labels()
        if m.s.is_chance_node() or " as the Pitch Actions card" in labels[0]:
            break
        if labels[0].startswith("coach "):
            m.pick(f"coach {('slytherin', 'gryffindor')[m.s.current_player()]}")
        elif labels[0].startswith("take "):
            m.pick(next((lab for lab in labels if lab.endswith("(0 Galleons)")), labels[0]))
        elif labels[0].startswith("add "):
            # home spends 2 Galleons on Tactical cards; away only cards of cost 0
            paid = [lab for lab in labels if "(1 Galleon)" in lab and "Test " not in lab]
            spent = 3 - m.side_var("galleons", m.s.current_player())
            pick = paid[0] if paid and spent < 2 and m.s.current_player() == HOME else \
                next(lab for lab in labels if "(0 Galleons)" in lab and "Test " not in lab)
            m.pick(pick)
        elif labels[0].startswith("buy the Spectator"):
            offers.append((m.s.current_player(), set(labels)))
            m.pick("do not choose")
        else:
            m.pick(labels[0])
    home_offers = set().union(*(o for side, o in offers if side == HOME))
    away_offers = set().union(*(o for side, o in offers if side == AWAY))
    assert m.side_var("galleons", HOME) == 1
    assert not any("Scarlet Banner Bearer" in o or "Serpent-Tongue Heckler" in o for o in home_offers)
    assert "buy the Spectator Charm-Waving Supporter (1 Galleon)" in home_offers
    assert "buy the Spectator Scarlet Banner Bearer (2 Galleons)" in away_offers
    assert not any("Serpent-Tongue Heckler" in o or "Badger Brass Band" in o for o in away_offers)
    assert m.zone_names("spectator_hand", HOME) == ["Fervent Fan"] and m.zone_names("spectator_hand", AWAY) == ["Fervent Fan"]


def test_swift_card_played_from_the_hand_after_a_roll():
    """Last-Second Lunge through the rules (Intrepid Moves > Swift Intrepid Moves): after a
    friendly Pass roll the Coach may play it from the hand; it counts as an Intrepid Move
    and adds 1 Success to the roll."""
    m = start(hand={HOME: ["Last-Second Lunge"]})
    carrier = m.cg.pieces[m.st.holder[m.P["quaffle"]]].name
    m.pitch_cards()
    m.intrepid()
    drive_until(m, f"pass the Quaffle from {carrier}")
    m.pick_prefix(f"pass the Quaffle from {carrier}")
    drive_until(m, "play the Swift Intrepid Move Last-Second Lunge")
    assert m.var("current_action") == "pass" and m.var("roll_bonus") == 0
    assert m.events()[-1].startswith("home rolled")          # the dice of the Pass are rolled
    m.pick("play the Swift Intrepid Move Last-Second Lunge")
    assert m.var("roll_bonus") == 1
    assert m.side_var("intrepid_played", HOME) == 1 and m.zone_names("intrepid", HOME)[-1] == "Last-Second Lunge"
