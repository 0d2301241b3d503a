"""lumos.present: what the terminal and the browser say of a game, checked against the rules.

Snitch Snatcher (snitch-snatcher.txt): "Game Play > Rules of the Pitch" 4 (a Beater knocks
an opposing player off by moving onto its space) must be said in the option itself;
"Game Play > Turn Sequence" step 1 (draw from a face-down deck) must say nothing of the
card to come. Catch the Golden Snitch (catch-the-golden-snitch.txt): "Build Your Team >
Galleons", "Tempo Points" and "Goal Tokens" are the coaches' numbers on the status line.
"""
from __future__ import annotations

import random

import pytest

from lumos.api import bundled_games, load_game, new_game
from lumos.present import group_options, status_lines, unplayable_cards
from lumos.present.board_text import draw_board, piece_tags
from lumos.present.options import consequences, matches

from test_rules_snitch_snatcher import plays_after_draw


def test_a_knock_off_is_said_in_the_option():
    t = plays_after_draw(layout={"home beater 1": "c11", "away beater 1": "b11"}, others="off")
    state = t.s
    labels = [o["label"] for o in state.options()]
    i = next(k for k, label in enumerate(labels) if label.endswith("home beater 1 from c11 to b11"))
    said = consequences(state, i)
    assert any("knocks away beater 1 off the pitch" in s for s in said), said
    plain = next(k for k, label in enumerate(labels) if label.endswith("home beater 1 from c11 to c10"))
    assert not any("knocks" in s for s in consequences(state, plain))
    assert t.where("away beater 1") == "b11", "trying options never changes the game"


def test_a_draw_from_a_face_down_deck_tells_nothing_of_the_card():
    state = new_game(load_game("snitch-snatcher"), seed=4, log=True, forced="take")
    while state.is_chance_node() or "draw an action card" not in state.action_labels():
        state.apply_action(state.sample_chance() if state.is_chance_node() else 0)
    draw = state.action_labels().index("draw an action card")
    assert consequences(state, draw) == []


def test_status_lines_are_names_and_numbers():
    cg = load_game("catch-the-golden-snitch")
    state = new_game(cg, seed=2, forced="take")
    rng = random.Random(2)
    for _ in range(80):
        state.apply_action(state.sample_chance() if state.is_chance_node() else rng.choice(state.legal_actions()))
    lines = status_lines(state, 0)
    assert [line.split(":")[0] for line in lines] in (["home", "away"], ["home", "away", "table"])
    for line in lines:
        assert line.startswith("table: ") or "galleons" in line and "tempo" in line and "goals" in line
        assert "False" not in line and "True" not in line and "_" not in line and "None" not in line


def test_options_are_grouped_by_piece_or_action_and_filtered_by_words():
    t = plays_after_draw()
    options = t.s.options()
    assert len(options) > 40
    groups = group_options(options, {p.name for p in t.cg.pieces})
    assert len(groups) <= 12
    assert sorted(i for _, idx in groups for i in idx) == list(range(len(options)))
    for name, idx in groups:
        assert all(options[i]["label"].startswith(name.split()[0]) for i in idx)
    found = [o["label"] for o in options if matches(o["label"], "Chaser 2 D3")]
    assert found and all("chaser 2" in f and "d3" in f for f in found)


@pytest.mark.parametrize("game", bundled_games())
def test_why_a_card_cannot_be_played_names_a_reason_the_rules_give(game):
    cg = load_game(game)
    rng = random.Random(5)
    state = new_game(cg, seed=5, forced="take")
    reasons = 0
    for _ in range(300):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            continue
        side = state.current_player()
        offered = " | ".join(o["label"] for o in state.options())
        for name, _zone, why in unplayable_cards(state, side):
            reasons += 1
            assert name not in offered
            if why.startswith("its condition does not hold now: "):
                written = {" ".join(str(d.fields.get("condition")).split()) for d in cg.card_defs if d.name == name}
                assert why.split(": ", 1)[1] in written
            else:
                assert why.startswith(("no card can be played at this step", "the rule offering cards now",
                                       "the cards chosen now do not come from your "))
        state.apply_action(rng.choice(state.legal_actions()))
    if any(vis == "owner" for _, vis in cg.zones) and cg.id != "chamber-of-secrets-trivia":
        assert reasons > 0


@pytest.mark.parametrize("game", bundled_games())
def test_every_piece_has_a_tag_the_legend_names(game):
    cg = load_game(game)
    tags = piece_tags(cg)
    assert all(len(tag) == 2 for tag in tags.values())
    text = "\n".join(line.plain for line in draw_board(new_game(cg, seed=1, forced="take"), 100))
    for tag in set(tags.values()):
        assert f"{tag} " in text


def test_another_sides_face_down_card_choice_is_told_as_hidden():
    """catch-the-golden-snitch.txt, "Build Your Team": each coach builds a Tactical deck
    the rival does not see; the terminal and the page tell the rival only that a choice
    was made. A card played face up is named."""
    from lumos.interpreter.agents import RandomAgent
    from lumos.present.choices import HIDDEN_CHOICE, shown_choice
    cg = load_game("catch-the-golden-snitch")
    state = new_game(cg, seed=3, forced="take")
    agent = RandomAgent(3)
    told = {"hidden": 0, "named": 0}
    for _ in range(150):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            continue
        who = state.current_player()
        k = agent.choose(state)
        label = state.action_labels()[k]
        before = state.position(for_side=1 - who)
        state.apply_action(k)
        after = state.position(for_side=1 - who)
        said = shown_choice(cg, label, who, 1 - who, before, after)
        assert shown_choice(cg, label, who, who, before, after) == label
        if "to the Tactical deck" in label:
            assert said == HIDDEN_CHOICE
            told["hidden"] += 1
        elif said == label and any(c.name in label for c in cg.cards):
            told["named"] += 1
    assert told["hidden"] > 5 and told["named"] > 0


def test_the_legend_says_which_squares_are_dark_green():
    """snitch-snatcher.txt, "Quidditch Players > Chasers": Chasers move only on dark green
    spaces, Beaters on light and dark green ones; the legend must say which squares those are."""
    from lumos.present.board_text import colour_words
    cg = load_game("snitch-snatcher")
    text = "\n".join(line.plain for line in draw_board(new_game(cg, seed=1, forced="take"), 100))
    dark = next(name for name, hexcode in cg.board.palette.items() if colour_words(hexcode) == "dark green")
    assert f"{dark} (dark green)" in text or dark == "dark green"
    assert "green" in colour_words(cg.board.palette["light"]) and "yellow" in colour_words(cg.board.palette["yellow"])


def _box_at(lines: list[str], label: str) -> tuple[int, int]:
    """(line, column) of the top border of the box named `label`."""
    for n, line in enumerate(lines):
        col = line.find("╭" + label) if ("╭" + label) in line else line.find(f"╭ {label} ")
        if col >= 0:
            return n, col
    raise AssertionError(f"no box named {label!r}")


def test_a_map_board_is_drawn_where_its_rooms_stand():
    """defenders-of-hogwarts.txt, "Movement & Map Elements": a pawn moves to a space that
    shares a full border with its own, so the terminal shows the castle as the map it is: each space
    a box at its place (the Library right of the Charms Classroom, the Great Hall two rows
    below the Library's row and right of the Kitchens), named as the board's layout names it,
    with the pawns standing in it and the glyphs of the layout's marks (a Fly Off Point)."""
    from lumos.api import load_position
    cg = load_game("defenders-of-hogwarts")
    spot = load_position(cg, {"pieces": {"gryffindor student 1": "library"}})
    lines = [line.plain for line in draw_board(spot, 100)]
    charms, library = _box_at(lines, "Charms Class"), _box_at(lines, "Library")
    kitchens, hall = _box_at(lines, "Kitchens"), _box_at(lines, "Great Hall")
    assert charms[0] == library[0] and charms[1] < library[1]
    assert kitchens[0] == hall[0] == library[0] + 3 and kitchens[1] < hall[1]
    body = lines[library[0] + 1][library[1]:library[1] + 15]
    assert "ST" in body                                    # the pawn stands in the Library's box
    assert "▲ Fly Off Point" in lines[-1]
    tower = _box_at(lines, "Astronomy To")
    assert "▲" in lines[tower[0] + 1][tower[1]:tower[1] + 15]


def test_boards_with_squares_or_loose_zones_keep_their_drawing():
    """A grid of squares (Snitch Snatcher) or a pitch of zones that fill no grid (Catch the
    Golden Snitch, "The Game Board": the Pitch of 12 Zones) is not a map of boxes: only a board whose blocks are grids is."""
    from lumos.present.board_map import is_map
    assert is_map(load_game("defenders-of-hogwarts").board)
    assert not any(is_map(load_game(g).board) for g in ("snitch-snatcher", "catch-the-golden-snitch"))


def test_the_status_names_only_seated_sides_and_the_tables_own_quantities():
    """defenders-of-hogwarts.txt, "Game Set Up": with two House players the other Houses'
    components leave the game, so the status has a line for the Dark Arts player and the two
    Houses only; "Dark Arts Path": the Dark Arts Marker's space is a number the players track,
    shown on the table's line, as is a Progress Token once taken."""
    from lumos.api import load_position
    cg = load_game("defenders-of-hogwarts")
    spot = load_position(cg, {"options": {"house_players": 2}, "vars": {"path": 5, "giant_taken": True}})
    lines = status_lines(spot, 0)
    seated = [cg.sides[s] for s in spot.sides_in_play()]
    assert len(seated) == 3 and [line.split(":")[0] for line in lines[:-1]] == [s.replace("_", " ") for s in seated]
    assert lines[-1].startswith("table: ") and "path 5" in lines[-1] and "giant taken yes" in lines[-1]
    assert "acromantula taken" not in lines[-1]            # not taken: nothing to say
    legend = [line.plain for line in draw_board(spot, 100)][-4]
    assert all(s.replace("_", " ") in legend for s in seated) and "ravenclaw" not in legend + lines[0]
