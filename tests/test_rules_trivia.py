"""Chamber of Secrets Trivia Game: the rulebook's rules, checked by playing.

Each test plays a game through the public API from its first decision, choosing the dice,
the moves and whether each answer is right (chance outcomes are picked by their label), then
checks the options offered and what the observation shows. Docstrings cite the rulebook
section (rulebooks/chamber-of-secrets-trivia.txt); rulings where the rulebook is silent are on
docs/rulings/chamber-of-secrets-trivia.md. The games use small test boxes
(tests/games/trivia_play.py), so no test depends on the shipped questions.
"""
from __future__ import annotations

import re

import pytest

from games.trivia_play import GRYFFINDOR, SLYTHERIN, Play, trivia_game

CHASER, KEEPER, BEATER, SEEKER = (f"gryffindor {k}" for k in ("chaser", "keeper", "beater", "seeker"))
S_CHASER, S_KEEPER, S_BEATER, S_SEEKER = (f"slytherin {k}" for k in ("chaser", "keeper", "beater", "seeker"))


def reference_walk_ends(board, start: str, n: int, ok) -> set[str]:
    """Where a walk of exactly n `moves` steps from `start` can end, never stepping straight
    back, never ending on `start`, passing only spaces for which ok(space) holds: written
    here independently of the engine, from the board's links."""
    idx = board.spaces.index
    nbrs = board.links["moves"]
    ring = {(idx(start), -1)}
    for step in range(n):
        last = step == n - 1
        ring = {(b, a) for a, prev in ring for b in nbrs[a] if b != prev and (last or ok(board.spaces[b]))}
    return {board.spaces[a] for a, _ in ring} - {start}


# ---------------------------------------------------------------- the field and moving

def test_each_team_moves_diagonally_on_its_own_colour():
    """Trivia Cards (Note): Gryffindor on light green, Slytherin on dark; 1. Roll and Move:
    only diagonal moves on the field."""
    p = Play().gryffindor_first().do("roll 5")
    board = p.state.cg.board
    for label in p.labels():
        to = label.rsplit(" to ", 1)[1]
        assert board.attrs[board.spaces.index(to)]["colour"] == "light", label
    p.do(f"move {CHASER} from g_chaser to c3", "ask no question", "roll 5")
    for label in p.labels():
        to = label.rsplit(" to ", 1)[1]
        assert board.attrs[board.spaces.index(to)]["colour"] == "dark", label


def test_a_mover_leaves_the_end_zone_by_its_connected_square():
    """1. Roll and Move: 'When exiting the end zone, Movers must move onto the square
    connected to their starting space'."""
    p = Play().gryffindor_first().do("roll 1")
    assert p.moves_of(CHASER) == {"e1"} and p.moves_of(KEEPER) == {"c1"}
    assert p.moves_of(BEATER) == {"a1"} and p.moves_of(SEEKER) == {"g1"}


def test_the_mover_moves_exactly_the_roll():
    """1. Roll and Move: 'You must always move the full number of spaces rolled.'"""
    p = Play().gryffindor_first().do("roll 3")
    assert p.moves_of(CHASER) == {"c1", "c3", "e3", "g1", "g3"}


@pytest.mark.parametrize("roll", range(1, 9))
def test_a_move_never_steps_straight_back_and_never_ends_where_it_started(roll):
    """1. Roll and Move: 'You cannot end in the space from which you started, nor can you
    move back into a space you just left' (rulings 4: a walk may cross its own path)."""
    p = Play().gryffindor_first().do("roll 2", f"move {CHASER} from g_chaser to d2", "roll 1",
                                      re.compile(r"move slytherin chaser .*"), f"roll {roll}")
    board = p.state.cg.board
    occupied = {v["space"] for v in p.obs()["pieces"].values() if v["space"]}
    light = lambda s: board.attrs[board.spaces.index(s)].get("colour") == "light" and not s.startswith("gz")
    expected = {s for s in reference_walk_ends(board, "d2", roll, light) if light(s) and s not in occupied}
    assert p.moves_of(CHASER) == expected
    assert "d2" not in p.moves_of(CHASER)


def test_a_mover_passes_other_movers_but_never_stops_on_one():
    """1. Roll and Move: 'You can move through a space occupied by another Mover, but you
    can't share the space with it.'"""
    p = Play().gryffindor_first().do("roll 1", f"move {CHASER} from g_chaser to e1", "roll 1",
                                      re.compile(r"move slytherin chaser .*"), "roll 3")
    assert "e1" not in p.moves_of(SEEKER)             # g_seeker-g1-f2-e1: e1 is taken
    p = Play().gryffindor_first().do("roll 1", f"move {CHASER} from g_chaser to e1", "roll 1",
                                      re.compile(r"move slytherin chaser .*"), "roll 4")
    assert "g_chaser" in p.moves_of(SEEKER)           # g_seeker-g1-f2-e1-g_chaser: through e1


def test_a_roll_no_mover_can_use_passes_the_turn(tmp_path):
    """1. Roll and Move (rulings 14): a roll no Mover can use moves nothing, asks nothing, and
    the turn passes. Played on a copy of the field whose Gryffindor Starting Spaces lead
    nowhere, so no Gryffindor roll can be used."""
    import shutil
    from lumos.compiler.game import GameSources, compile_game
    from lumos.api import game_sources
    src = game_sources("chamber-of-secrets-trivia")
    rules = tmp_path / "rules"
    shutil.copytree(src.rules_dir, rules)
    board = rules / "board.yaml"
    board.write_text("\n".join(line for line in board.read_text().splitlines()
                               if not re.match(r"\s*- \[g_\w+, \w+, entry\]", line)) + "\n")
    cards = tmp_path / "cards"
    cards.mkdir()
    from games.trivia_play import deck
    for side in ("gryffindor", "slytherin"):
        (cards / f"{side}.yaml").write_text(deck(side, (1, 1, 1)))
    cg = compile_game(GameSources("chamber-of-secrets-trivia", rules, cards, src.schema_dir))
    p = Play(cg).gryffindor_first().do("roll 6")
    assert p.state.current_player() < 0 and p.labels()[0] == "roll 1"      # Slytherin rolls at once
    p.do("roll 1")
    assert all(label.startswith("move slytherin") for label in p.labels())
    assert p.obs()["variables"]["current"] == "slytherin"


def test_the_higher_opening_roll_plays_first_and_ties_roll_again():
    """Setting Up the Field: 'Both teams roll the die. Highest roll plays first.' (rulings 3:
    a tie rolls again)."""
    p = Play().do("roll 4", "roll 4")
    assert p.labels()[0] == "roll 1"                    # rolling off again
    p.do("roll 2", "roll 6", "roll 1")
    assert all(label.startswith("move slytherin") for label in p.labels())


# ---------------------------------------------------------------- questions

def test_only_the_mover_that_moved_may_answer():
    """1. Roll and Move: 'You must move a Mover in order to answer a question with it'."""
    p = Play().gryffindor_first().do("roll 3", f"move {CHASER} from g_chaser to c3", "ask no question",
                                      "roll 1", re.compile(r"move slytherin chaser .*"), "roll 1",
                                      f"move {KEEPER} from g_keeper to c1")
    # the Chaser stands on a Quaffle Space but did not move: no question is offered
    assert p.labels() == [f"roll {n}" for n in range(1, 9)]
    assert p.state.current_player() < 0


def test_a_right_quaffle_answer_scores_ten():
    """2. Offense: a Chaser on a Quaffle Space may attempt a Quaffle question; Winning the Game
    (Table): 10 pts. (The rival declines its Keeper question.)"""
    p = Play().gryffindor_first().do("roll 3", f"move {CHASER} from g_chaser to c3",
                                      "attempt a Quaffle question with gryffindor chaser", "right answer",
                                      "do not defend")
    assert p.score("gryffindor") == 10


def test_a_wrong_quaffle_answer_scores_nothing():
    """2. Offense: 'If Team One answers incorrectly, they still get to move the Golden Snitch,
    and the turn ends.'"""
    p = Play().gryffindor_first().do("roll 3", f"move {CHASER} from g_chaser to c3",
                                      "attempt a Quaffle question with gryffindor chaser", "wrong answer")
    p.skip_snitch_moves()
    assert p.score("gryffindor") == 0 and p.labels()[0] == "roll 1"
    assert p.space("snitch") is not None


def test_a_keeper_on_its_keeper_space_blocks_with_a_right_answer():
    """3. Defense: Keeper Question (Block a Quaffle): right, Team One does not score; wrong,
    it scores. The defender may decline (rulings 6) and answers without moving (rulings 5)."""
    def attempt(answer):
        p = Play().gryffindor_first().do("roll 3", f"move {CHASER} from g_chaser to c3",
                                          "attempt a Quaffle question with gryffindor chaser", "right answer")
        p.skip_snitch_moves()
        assert p.labels() == ["defend with a Keeper question", "do not defend"]
        assert p.state.current_player() == SLYTHERIN
        p.do("defend with a Keeper question", answer)
        return p.skip_snitch_moves()
    assert attempt("right answer").score("gryffindor") == 0
    assert attempt("wrong answer").score("gryffindor") == 10


def test_a_keeper_off_its_keeper_space_cannot_defend():
    """3. Defense: only 'a Keeper on its Keeper Space for a Keeper question'."""
    p = Play().slytherin_first().do("roll 1", f"move {S_KEEPER} from s_keeper to c12", "roll 3",
                                     f"move {CHASER} from g_chaser to c3",
                                     "attempt a Quaffle question with gryffindor chaser", "right answer")
    p.skip_snitch_moves()
    assert p.score("gryffindor") == 10 and p.labels()[0] == "roll 1"


def beater_on_a_bludger_space(p: Play) -> Play:
    """Gryffindor's Beater g_beater-a1-b2-c3-d4-e5: a Bludger Space, in 5."""
    return p.do("roll 5", f"move {BEATER} from g_beater to e5")


def test_a_bludger_sends_its_target_to_the_far_end_of_the_grounding_zone():
    """2. Offense: Bludger Question; the target is named before the question is heard;
    Grounding Zone: 'placed at the start of the Grounding Zone (the end furthest from the
    arrow)'. The rival declines its Beater question here."""
    p = beater_on_a_bludger_space(Play().gryffindor_first())
    p.do("attempt a Bludger question with gryffindor beater")
    assert p.labels() == [f"aim the Bludger at {S_CHASER} (s_chaser)", f"aim the Bludger at {S_KEEPER} (s_keeper)",
                          f"aim the Bludger at {S_BEATER} (s_beater)", f"aim the Bludger at {S_SEEKER} (s_seeker)"]
    p.do(f"aim the Bludger at {S_KEEPER} (s_keeper)")
    assert p.state.question()["category"] == "bludger"
    p.do("right answer", "do not defend")
    assert p.space(S_KEEPER) == "sz1"


def test_a_wrong_bludger_answer_leaves_the_target_in_play():
    """2. Offense: 'If Team One answers incorrectly, they still get to move the Golden Snitch,
    and the turn ends': no defence is asked, the target stays."""
    p = beater_on_a_bludger_space(Play().gryffindor_first())
    p.do("attempt a Bludger question with gryffindor beater", f"aim the Bludger at {S_KEEPER} (s_keeper)",
         "wrong answer")
    assert p.labels()[0].startswith("move the Golden Snitch") and p.state.current_player() == GRYFFINDOR
    p.skip_snitch_moves()
    assert p.space(S_KEEPER) == "s_keeper" and p.labels()[0] == "roll 1"


def test_a_right_beater_answer_blocks_the_bludger():
    """3. Defense: Beater Question (Block a Bludger): right, they avoid the Bludger; wrong,
    their Mover is Bludgered."""
    for answer, where in (("right answer", "s_keeper"), ("wrong answer", "sz1")):
        p = beater_on_a_bludger_space(Play().gryffindor_first())
        p.do("attempt a Bludger question with gryffindor beater", f"aim the Bludger at {S_KEEPER} (s_keeper)",
             "right answer", "defend with a Beater question", answer)
        assert p.skip_snitch_moves().space(S_KEEPER) == where


def test_a_seeker_next_to_the_snitch_may_attempt_a_snitch_question():
    """The Golden Snitch: 'you must maneuver your Seeker onto any space next to the Golden
    Snitch' (rulings 1: one of the four squares around its point)."""
    p = seeker_beside_the_snitch()
    assert "attempt a Golden Snitch question with gryffindor seeker" in p.labels()


def seeker_beside_the_snitch() -> Play:
    """A Quaffle question brings the Snitch to the release circle and on to snitch5 (circle 1,
    the first space offered); then Slytherin passes and the Gryffindor Seeker walks to d4,
    one of the four squares around snitch5 (d4, e4, d5, e5) of its colour."""
    p = Play().gryffindor_first().do("roll 3", f"move {CHASER} from g_chaser to c3",
                                      "attempt a Quaffle question with gryffindor chaser", "wrong answer",
                                      "move the Golden Snitch to snitch5")
    assert p.space("snitch") == "snitch5"
    p.do("roll 1", re.compile(r"move slytherin chaser .*"), "roll 4", f"move {SEEKER} from g_seeker to d4")
    return p


def test_catching_the_snitch_scores_150_and_ends_the_game():
    """The Golden Snitch: 'Success means you capture the Snitch, earn 150 points, and end the
    game'; Winning the Game (Table): the most points wins."""
    p = seeker_beside_the_snitch().do("attempt a Golden Snitch question with gryffindor seeker")
    assert p.state.question()["category"] == "snitch" and p.state.question()["choices"] == []
    p.do("right answer")
    assert p.state.is_terminal() and p.score("gryffindor") == 150
    assert p.state.returns() == [1.0, -1.0] and p.space("snitch") is None


def test_a_missed_snitch_stays_in_play():
    """The Golden Snitch: 'Failure means the Snitch remains in play: the answering team moves
    it as the card indicates'."""
    p = seeker_beside_the_snitch().do("attempt a Golden Snitch question with gryffindor seeker", "wrong answer")
    assert p.labels()[0].startswith("move the Golden Snitch")
    assert p.state.current_player() == GRYFFINDOR


def catch_the_snitch(p: Play, seeker: str) -> Play:
    """Bring the Seeker next to the Snitch (whatever roll does it) and catch it."""
    board = p.state.cg.board
    around = [board.spaces[b] for b in board.links["beside"][board.spaces.index(p.space("snitch"))]]
    for square in around:
        try:
            p.move_to(seeker, square)
        except AssertionError:
            continue
        return p.do(f"attempt a Golden Snitch question with {seeker}", "right answer")
    raise AssertionError("the Seeker cannot reach the Snitch")


def test_equal_scores_after_the_catch_are_a_draw():
    """Winning the Game (Table) (rulings 10): 'The team with the most points after the
    additional Golden Snitch points have been tallied wins'; equal points are a draw.
    Slytherin scores 15 Quaffles (150), then Gryffindor catches the Snitch (150)."""
    p = Play().slytherin_first()
    for goal in range(15):
        p.move_to(S_CHASER, "c10" if p.space(S_CHASER) != "c10" else "g10")
        p.do("attempt a Quaffle question with slytherin chaser", "right answer")
        p.skip_snitch_moves().do("do not defend")
        if goal < 14:
            p.idle("gryffindor")
    assert p.score("slytherin") == 150
    catch_the_snitch(p, SEEKER)
    assert p.state.is_terminal() and p.score("gryffindor") == 150
    assert p.state.returns() == [0.0, 0.0]


def quaffle_attempts(p: Play, n: int) -> list[str]:
    """Gryffindor's Chaser answers n Quaffle questions (wrong), Slytherin idling between: the
    cards read from Slytherin's box, in order."""
    read = []
    for _ in range(n):
        p.move_to(CHASER, "c3" if p.space(CHASER) != "c3" else "g3")
        p.do("attempt a Quaffle question with gryffindor chaser")
        read.append(p.state.question()["card"])
        p.do("wrong answer").skip_snitch_moves()
        p.idle("slytherin")
    return read


def test_cards_are_read_from_the_front_and_returned_to_the_back():
    """2. Offense (Note): 'always replace the cards in the back of the question box after one
    question has been asked'; Team Two reads from its own box. With three cards a box, the
    same three come round in the same order."""
    read = quaffle_attempts(Play().gryffindor_first(), 6)
    assert all(name.startswith("Green") for name in read)      # from the rival's box
    assert len(set(read[:3])) == 3 and read[3:] == read[:3]


def test_the_defenders_card_comes_from_the_attackers_box():
    """3. Defense: 'Team One draws a card from the front of their box and reads the question
    and all answers to Team Two.'"""
    p = Play().gryffindor_first().do("roll 3", f"move {CHASER} from g_chaser to c3",
                                      "attempt a Quaffle question with gryffindor chaser", "right answer")
    p.skip_snitch_moves().do("defend with a Keeper question")
    assert p.state.question()["card"].startswith("Red") and p.state.question()["side"] == "slytherin"


def test_never_the_same_card_twice_in_a_row():
    """2. Offense (Note): 'Never read questions from the same card back-to-back', also with a
    box of one card... of two: every question of a game, in order, from both boxes."""
    p = Play(trivia_game((1, 2)))
    p.gryffindor_first()
    quaffle_attempts(p, 4)
    read = [e.split("draws ")[1].split(" into")[0] for e in p.events() if e.startswith("draws ")]
    assert len(read) == 4 and all(a != b for a, b in zip(read, read[1:]))


def test_the_answering_side_moves_the_snitch_by_the_circle():
    """Moving the Golden Snitch: off the field and a number: in at the release circle, then the
    full number; on the field: the number (rulings 9, 15: exactly, never a space twice)."""
    for circle, ends in ((1, {"snitch5", "snitch7", "snitch8", "snitch10"}),
                         (2, {"snitch2", "snitch4", "snitch6", "snitch9", "snitch11", "snitch13"})):
        p = Play(trivia_game((circle,) * 3)).gryffindor_first().do(
            "roll 3", f"move {CHASER} from g_chaser to c3", "attempt a Quaffle question with gryffindor chaser",
            "wrong answer")
        assert p.state.current_player() == GRYFFINDOR   # the answering side moves it
        offered = {label.split(" to ")[1] for label in p.labels()}
        assert offered == ends, circle


def test_a_blacked_out_circle_takes_the_snitch_off():
    """Moving the Golden Snitch: a blacked-out circle removes the Snitch, or keeps it off."""
    p = Play(trivia_game((0, 0, 0))).gryffindor_first().do(
        "roll 3", f"move {CHASER} from g_chaser to c3", "attempt a Quaffle question with gryffindor chaser",
        "wrong answer")
    assert p.space("snitch") is None and p.labels()[0] == "roll 1"


def test_the_snitch_moves_only_on_snitch_spaces():
    """The Quidditch Movers: Seekers 'do not move on the Golden Snitch spaces, only the Golden
    Snitch does'; Moving the Golden Snitch: never behind the goal lines."""
    cg = trivia_game()
    board = cg.board
    snitch_spaces = {board.spaces[i] for i in board.regions["snitch_spaces"]}
    assert not snitch_spaces & {board.spaces[b] for a in range(len(board.spaces)) for b in board.links["moves"][a]}
    p = Play().gryffindor_first().do("roll 3", f"move {CHASER} from g_chaser to c3",
                                      "attempt a Quaffle question with gryffindor chaser", "wrong answer")
    assert {label.split(" to ")[1] for label in p.labels()} <= snitch_spaces


# ---------------------------------------------------------------- the Grounding Zone

def grounded_keeper() -> Play:
    """Slytherin's Beater Bludgers Gryffindor's Keeper, who goes to gz1."""
    p = Play().slytherin_first().do("roll 5", "move slytherin beater from s_beater to e8",
                                     "attempt a Bludger question with slytherin beater",
                                     f"aim the Bludger at {KEEPER} (g_keeper)", "right answer", "do not defend")
    assert p.space(KEEPER) == "gz1"
    return p


def test_a_grounded_mover_walks_the_zone_and_reenters_with_the_full_roll():
    """Grounding Zone: Bludgered Movers 'must move the length of the Zone back into the game'
    and 'can move the full number rolled when exiting' (rulings 7, 8)."""
    p = grounded_keeper().do("roll 4")
    assert p.moves_of(KEEPER) == {"gz5"}
    p.do(f"move {KEEPER} from gz1 to gz5", "roll 1", re.compile(r"move slytherin .*"), "roll 8")
    # gz5 .. gz10 is 5 steps, a1 the 6th, b2 the 7th, then a3 or c3 or c1
    assert p.moves_of(KEEPER) == {"a3", "c3", "c1"}


def test_a_bludgered_mover_takes_the_next_free_space_of_the_zone():
    """Grounding Zone: 'If you are Bludgered to the Grounding Zone and another Mover is in the
    space you need, move ahead to the next available space'; 3. Defense: a Beater in the
    Grounding Zone is not on the field, so it cannot answer a Beater question."""
    p = Play().slytherin_first().do("roll 5", "move slytherin beater from s_beater to e8",
                                     "attempt a Bludger question with slytherin beater",
                                     f"aim the Bludger at {BEATER} (g_beater)", "right answer")
    p.skip_snitch_moves().do("do not defend").skip_snitch_moves()
    assert p.space(BEATER) == "gz1"
    p.idle("gryffindor")
    p.do("roll 3", "move slytherin beater from e8 to d5", "attempt a Bludger question with slytherin beater",
         f"aim the Bludger at {KEEPER} (g_keeper)", "right answer").skip_snitch_moves()
    assert not any(label.startswith("defend") for label in p.labels())      # Gryffindor's Beater is grounded
    assert p.space(KEEPER) == "gz2"                                          # gz1 is taken


def test_no_question_from_the_grounding_zone():
    """Grounding Zone: 'Movers cannot answer questions while in the Grounding Zone'; a Beater
    in the zone cannot defend (3. Defense: a Beater anywhere on the field)."""
    p = Play().slytherin_first().do("roll 5", "move slytherin beater from s_beater to e8",
                                     "attempt a Bludger question with slytherin beater",
                                     f"aim the Bludger at {BEATER} (g_beater)", "right answer")
    # Gryffindor's Beater is the target and on the field: it may defend, then is grounded
    p.do("defend with a Beater question", "wrong answer").skip_snitch_moves()
    assert p.space(BEATER) == "gz1"
    p.do("roll 5", re.compile(r"move gryffindor chaser .*")).skip_snitch_moves()
    if p.labels() and p.labels()[-1] == "ask no question":
        p.do("ask no question")
    p.do("roll 3", re.compile(r"move slytherin beater from e8 to (d9|f9|b7|h7|c6|g6|d7|f7|c10|g10|e6|e10)"))
    assert "attempt a Bludger question with slytherin beater" not in p.labels()


def test_no_mover_walks_into_a_grounding_zone():
    """Grounding Zone (rulings): a zone is entered only by being Bludgered; gz10 - a1 is a way
    out only."""
    p = Play().gryffindor_first().do("roll 1", f"move {BEATER} from g_beater to a1", "roll 1",
                                      re.compile(r"move slytherin .*"), "roll 1")
    assert "gz10" not in p.moves_of(BEATER)


# ---------------------------------------------------------------- the skill model

def test_the_skill_options_set_the_chance_of_a_right_answer():
    """Trivia Cards (the skill model, rulings): an agent's answer is a chance node, right with
    the option's chance in 100; the order of difficulty gives the defaults."""
    def chances(options=None):
        p = Play(options=options).gryffindor_first().do("roll 3", f"move {CHASER} from g_chaser to c3",
                                                         "attempt a Quaffle question with gryffindor chaser")
        assert p.state.is_chance_node()
        return p.state.chance_outcomes()
    assert chances() == [(0, 0.8), (1, pytest.approx(0.2))]
    assert chances({"gryffindor_quaffle": 30}) == [(0, 0.3), (1, 0.7)]
    assert chances({"slytherin_quaffle": 30}) == [(0, 0.8), (1, pytest.approx(0.2))]   # per side


# ---------------------------------------------------------------- advanced rules (advanced=on)

ADVANCED = {"advanced": "on"}


def test_advanced_a_chaser_takes_the_quaffle_and_finishes_its_move():
    """Using the Quaffle (Optional): 'Move your Chaser to any space adjacent to the Quaffle
    (this does not have to be by exact count) and place the Quaffle on the base of your Mover.
    Finish the remainder of your move' (rulings 11: the rest is compulsory)."""
    p = Play(options=ADVANCED).gryffindor_first()
    assert p.space("quaffle") == "release"
    p.do("roll 8")
    takes = [label for label in p.labels() if "take the Quaffle" in label]
    # d6 and e7 are the light squares touching the release circle
    assert takes == ["move gryffindor chaser to d6 and take the Quaffle",
                     "move gryffindor chaser to e7 and take the Quaffle"]
    p.do(takes[0])
    assert p.labels() == ["reach d6 in 6 steps", "reach d6 in 8 steps"]    # not by exact count
    p.do("reach d6 in 6 steps")
    assert "end the move on d8" in p.labels() and "end the move on d6" not in p.labels()   # 2 steps left
    p.do("end the move on d8")
    assert p.obs()["pieces"]["quaffle"]["held_by"] == CHASER and p.space(CHASER) == "d8"


def test_advanced_a_chaser_answers_only_carrying_the_quaffle():
    """Using the Quaffle (Optional): 'In order to answer a Quaffle question your Chaser must
    first pick up the Quaffle and carry it to a Quaffle space'; it goes back to the release
    circle after the question."""
    p = Play(options=ADVANCED).gryffindor_first().do("roll 3", f"move {CHASER} from g_chaser to c3")
    assert p.labels()[0] == "roll 1"                                  # no question offered
    p = Play(options=ADVANCED).gryffindor_first().do(
        "roll 8", "move gryffindor chaser to d6 and take the Quaffle", "reach d6 in 6 steps",
        "end the move on d4", "roll 1",
        re.compile(r"move slytherin (keeper|beater|seeker) .*"))
    p.decline().move_to(CHASER, "c3")
    p.do("attempt a Quaffle question with gryffindor chaser", "wrong answer")
    assert p.skip_snitch_moves().space("quaffle") == "release"
    assert p.obs()["pieces"]["quaffle"]["held_by"] is None


def test_advanced_a_rival_chaser_steals_the_quaffle():
    """Using the Quaffle (Optional): 'An opposing Chaser may steal the Quaffle by moving into
    any space adjacent to the Quaffle-carrying Chaser' (rulings: any of the eight squares)."""
    p = Play(options=ADVANCED).gryffindor_first().do(
        "roll 8", "move gryffindor chaser to d6 and take the Quaffle", "reach d6 in 6 steps",
        "end the move on d8")
    # the Slytherin Chaser (dark squares) reaches c8, e8, d7, d9, c9, e9, c7, e7's dark ones
    p.do("roll 5")
    steals = [label for label in p.labels() if label.startswith("move slytherin chaser to") and "take the Quaffle" in label]
    board = p.state.cg.board
    around_d8 = {board.spaces[b] for b in board.links["adjacent"][board.spaces.index("d8")]}
    assert steals and {re.match(r"move slytherin chaser to (\S+) and", t).group(1) for t in steals} <= around_d8
    p.do(steals[0])
    while not p.labels()[0].startswith(("roll", "attempt")):
        p.do(p.labels()[0])
    assert p.obs()["pieces"]["quaffle"]["held_by"] == S_CHASER


def advanced_bludger_on_the_keeper(answer: str) -> Play:
    p = Play(options=ADVANCED).slytherin_first().do(
        "roll 5", "move slytherin beater from s_beater to e8", "attempt a Bludger question with slytherin beater",
        f"aim the Bludger at {KEEPER} (g_keeper)")
    assert p.labels() == ["use bludger_one", "use bludger_two"]      # either Bludger
    p.do("use bludger_two")
    assert p.obs()["pieces"]["bludger_two"]["held_by"] == KEEPER     # on the target's base
    p.do(answer)
    if answer == "right answer":
        p.skip_snitch_moves().do("do not defend")
    return p.skip_snitch_moves()


def test_advanced_a_bludger_stays_on_the_space_and_blocks_it():
    """The Bludgers (Optional): 'their Mover retires to the Grounding Zone, but the Bludger
    remains on that space. No other Mover can move onto or through that space until someone
    uses it to Bludger another Mover.'"""
    p = advanced_bludger_on_the_keeper("right answer")
    assert p.space(KEEPER) == "gz1" and p.space("bludger_two") == "g_keeper"
    p.do("roll 4")                                         # g_beater-a1-b2-c1-g_keeper: blocked
    assert "g_keeper" not in p.moves_of(BEATER)
    assert "g_keeper" not in p.moves_of(CHASER)            # g_chaser-e1-d2-c1-g_keeper


def test_advanced_a_missed_bludger_leaves_the_field():
    """The Bludgers (Optional): 'If a player is unsuccessful in their Bludger attempt, remove
    the Bludger in question from the board until someone chooses to use it again.'"""
    p = advanced_bludger_on_the_keeper("wrong answer")
    assert p.space(KEEPER) == "g_keeper" and p.space("bludger_two") is None


def test_advanced_a_bludgered_carrier_drops_the_quaffle_to_the_release_circle():
    """Using the Quaffle (Optional) (rulings 16): a Chaser Bludgered with the Quaffle drops it;
    it goes back to the release circle."""
    p = Play(options=ADVANCED).gryffindor_first().do(
        "roll 8", "move gryffindor chaser to d6 and take the Quaffle", "reach d6 in 6 steps",
        "end the move on d8")
    p.do("roll 5", "move slytherin beater from s_beater to e8", "attempt a Bludger question with slytherin beater",
         f"aim the Bludger at {CHASER} (d8)", "use bludger_one", "right answer")
    p.skip_snitch_moves().do("do not defend")
    assert p.skip_snitch_moves().space(CHASER) == "gz1"
    assert p.space("quaffle") == "release" and p.obs()["pieces"]["quaffle"]["held_by"] is None
    assert p.space("bludger_one") == "d8"


def test_advanced_the_rest_of_the_move_never_steps_back_into_the_square_just_left():
    """1. Roll and Move: "nor can you move back into a space you just left"; Using the Quaffle
    (Optional): "Finish the remainder of your move": the same move. From c5 with a roll of 3,
    one step to d6 takes the Quaffle; the two steps left may not go back into c5, so b4 (two
    steps from d6 only through c5) is no end; from a square walks reach from two squares, any
    next step stays open (rulings 11)."""
    from lumos.api import load_position
    cg = trivia_game()
    spot = load_position(cg, {"options": ADVANCED, "seed": 2, "at": {"start_of": "take_turn"},
                              "current": "gryffindor", "pieces": {"gryffindor chaser": "c5"}})
    assert spot.position()["current"] == "gryffindor"
    spot.apply_action(spot.action_labels().index("roll 3"))
    spot.apply_action(spot.action_labels().index("move gryffindor chaser to d6 and take the Quaffle"))
    spot.apply_action(spot.action_labels().index("reach d6 in 1 step"))
    ends = {label.rsplit(" ", 1)[1] for label in spot.action_labels() if label.startswith("end the move on ")}
    assert ends and "b4" not in ends
