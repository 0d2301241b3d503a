"""Rule checks for Defenders of Hogwarts written by an outside examiner from the rulebook
alone (defenders-of-hogwarts.txt, and the rulings page where the rulebook is silent), on
positions through the public API, without reading our other tests or the rules' sources.
They found five deviations, fixed since (Backtrack across moves, a flight to its own Fly
Off Point, a Reactive card's effect on its owner's turn, the relinquished Scroll, and
`current` in positions). Helpers: tests/games/examiner.py.
"""
import pytest
from games.examiner import (dark_card_move, dpos, pick, start, find, has, labels, where, zone, var, svar, pvar, new_game,
               game, HOUSES, DEPLOY)

GAME = "defenders-of-hogwarts"


def dests(s, pawn):
    """Destinations offered for `pawn` at the current 'to' choice."""
    return sorted(o["args"]["to"] for o in s.options() if "to" in o["args"])


def house_move(s, card, pawn, mode="move with"):
    pick(s, "explore: play a card")
    pick(s, f"play {card}")
    if find(s, mode):
        pick(s, mode)
    if find(s, "one pawn up to"):
        pick(s, "one pawn up to")
    pick(s, f"move {pawn} (")


def setup_state(hp, seed=1):
    s = new_game(game(GAME), seed=seed, options={"house_players": hp})
    while s.is_chance_node():
        s.apply_action(s.sample_chance())
    return s


def finish_turn(s, who):
    """Take 'end the turn' / leave bonuses / pass until `who` is no longer to play."""
    for _ in range(20):
        if s.is_terminal() or s.current_player() != who:
            return
        for key in ("end the turn", "leave the", "do not choose", "keep the items"):
            m = find(s, key)
            if m:
                s.apply_action_id(m[0]["id"])
                break
        else:
            s.apply_action_id(s.options()[0]["id"])


# --------------------------------------------------------------------------- set-up

@pytest.mark.parametrize("hp", [1, 2, 3, 4])
def test_setup_per_house_count(hp):
    """Game Set Up > Main Board Set Up C, D; Side Board F-L; Dark Arts Board O-R;
    House Player Board S-U.  4/5/6/7 Dark Arts pawns for 1/2/3/4 Houses, 4 of them on
    the 4 Deployment Spaces, the rest in the pool; 3 pawns per House in the Great Hall;
    2 Library Books face up; 2+2 Acquire cards; marker on the first path space; Loyalty
    pawns on space 1; 3 Location cards and 5 cards in hand per House; 5 cards for the
    Dark Arts Player; a Shield on each of the 6 Shield Spaces; 7 Hogwarts Tokens."""
    s = setup_state(hp)
    p = s.position()
    in_game = [k for k, v in p["piece_vars"]["in_game"].items() if "dark_pawn" in k and v]
    assert len(in_game) == 3 + hp
    on_board = sorted(p["pieces"][k] for k in in_game if p["pieces"][k])
    assert on_board == sorted(DEPLOY)
    for i, h in enumerate(HOUSES):
        for k in (1, 2, 3):
            assert p["pieces"][f"{h} student {k}"] == ("great_hall" if i < hp else None)
        if i < hp:
            assert len(p["zones"][f"{h} hand"]) == 5
            assert len(p["zones"][f"{h} hand"]) + len(p["zones"][f"{h} deck"]) == 7
            assert len(p["zones"][f"{h} locations"]) == 3
            assert p["side_vars"]["loyalty"][h] == 1
    assert len(p["zones"]["dark_arts hand"]) == 5
    assert len(p["zones"]["dark_arts hand"]) + len(p["zones"]["dark_arts deck"]) == 7
    assert len(p["zones"]["library_row"]) == 2
    assert len(p["zones"]["acquire_row"]) == 2 and len(p["zones"]["advanced_row"]) == 2
    assert p["vars"]["path"] == 1
    shields = [k for k in p["pieces"] if "shield" in k]
    assert len(shields) == 6 and len({p["pieces"][k] for k in shields}) == 6
    tokens = [k for k in p["pieces"] if k.endswith("_token")]
    assert len(tokens) == 7 and all(p["pieces"][k] for k in tokens)
    assert p["vars"]["scrolls_left"] == 8 and p["vars"]["coins_left"] == 4


def test_first_player_is_left_of_dark_arts_and_clockwise():
    """General Key Concepts: 'The House Player to the left of the Dark Arts Player goes
    first. Gameplay continues clockwise'.  With 2 Houses: Gryffindor, Hufflepuff, Dark Arts."""
    s = dpos(hp=2, zones={"gryffindor hand": ["House Pride"], "hufflepuff hand": ["House Pride"]})
    order = [s.current_player()]
    pick(s, "learn")  # any main action
    pick(s, "discard 1 card, take a card from the Acquire Row")
    s.apply_action_id(s.options()[0]["id"])
    s.apply_action_id(s.options()[0]["id"])
    finish_turn(s, 1)
    order.append(s.current_player())
    pick(s, "learn")
    pick(s, "discard 1 card, take a card from the Acquire Row")
    s.apply_action_id(s.options()[0]["id"])
    s.apply_action_id(s.options()[0]["id"])
    finish_turn(s, 2)
    order.append(s.current_player())
    assert order == [1, 2, 0]


# --------------------------------------------------------------------------- House turn

def test_house_turn_offers_the_three_main_actions():
    """House Player Turn: 'they must take 1 of the following Main Actions: Explore,
    Learn, Replenish'."""
    s = dpos(hp=1, zones={"gryffindor hand": ["Night Walk", "House Pride"]})
    ls = " ".join(labels(s)).lower()
    assert "explore" in ls and "learn" in ls and "replenish" in ls
    assert not has(s, "end the turn")  # a main action is compulsory


def test_single_move_up_to_n_through_open_borders():
    """Movement & Map Elements: 'A pawn can be moved up to the number of spaces';
    'Moving 1 space means ... a fully adjacent space'; Obstacles: House pawns can't move
    through obstacles.  House Pride (1) from the Great Hall: Kitchens and Entrance Hall
    only (the Trophy Room border is a Locked Door on our map)."""
    s = dpos(hp=1, zones={"gryffindor hand": ["House Pride", "Night Walk"]})
    house_move(s, "House Pride", "gryffindor student 1")
    assert dests(s, "gryffindor student 1") == ["entrance_hall", "kitchens"]


def test_up_to_includes_shorter_moves():
    """Movement Value (Glossary): 'A player need not use all the movement points'.
    Night Walk (4) from the Great Hall may stop after 1 space."""
    s = dpos(hp=1, zones={"gryffindor hand": ["Night Walk"]})
    house_move(s, "Night Walk", "gryffindor student 1")
    d = dests(s, "gryffindor student 1")
    assert "kitchens" in d and "entrance_hall" in d and "library" in d


def test_obstacle_opened_by_card_for_the_turn():
    """Obstacles: 'House Player Pawns can't move through obstacles unless they use a card
    that lets them do so during their move.'  Unlocking Charm Practice opens the Locked
    Door Great Hall-Trophy Room."""
    s = dpos(hp=1, zones={"gryffindor hand": ["Unlocking Charm Practice"]})
    pick(s, "explore: play a card")
    pick(s, "play Unlocking Charm Practice")
    pick(s, "resolve the effect of Unlocking Charm Practice, then move")
    pick(s, "move gryffindor student 1 (")
    assert "trophy_room" in dests(s, "gryffindor student 1")


def test_locked_door_blocks_without_card():
    """Obstacles: a House pawn cannot pass a Locked Door without a card: Quick Jinx (2)
    from the Great Hall never reaches the Trophy Room directly (D5-D6 Locked Door) - but
    can via Kitchens/Grand Staircase in 3, so with 2 it is unreachable."""
    s = dpos(hp=1, zones={"gryffindor hand": ["Quick Jinx"]})
    house_move(s, "Quick Jinx", "gryffindor student 1")
    assert "trophy_room" not in dests(s, "gryffindor student 1")


def test_dark_pawns_move_freely_through_obstacles():
    """Obstacles: 'Dark Arts Pawns can move freely through obstacles.'  A Dark Arts
    pawn in the Forest Clearing with 1 point reaches the Forbidden Forest (Physical
    Object border)."""
    s = dpos(hp=1, at="dark_turn", zones={"dark_arts hand": ["Lurking Shade"]})
    dark_card_move(s, "Lurking Shade", "dark_arts dark_pawn 3")
    assert "forbidden_forest" in dests(s, "dark_arts dark_pawn 3")


def test_dark_pawn_never_ends_on_or_passes_a_protected_area():
    """Protected Area: 'A Dark Arts Pawn can't pass through or end its move on any of the
    4 Protected Area Spaces'.  From the Owlery with 2 points the Seventh Floor can only
    be reached through the Headmaster's Office (protected)."""
    s = dpos(hp=1, at="dark_turn", pieces={"dark_arts dark_pawn 1": "owlery"},
             zones={"dark_arts hand": ["Whispered Orders"]})
    dark_card_move(s, "Whispered Orders", "dark_arts dark_pawn 1")
    d = dests(s, "dark_arts dark_pawn 1")
    assert "headmasters_office" not in d
    assert "seventh_floor" not in d


def test_secret_passageway_dark_pawns_cannot_use():
    """Secret Passageways: 'can only be used by the House Player(s)'.  A Dark Arts pawn
    in the Dungeons with 1 point cannot reach the Whomping Willow (red passage)."""
    s = dpos(hp=1, at="dark_turn", pieces={"dark_arts dark_pawn 1": "dungeons"},
             zones={"dark_arts hand": ["Creeping Shadow"]})
    dark_card_move(s, "Creeping Shadow", "dark_arts dark_pawn 1")
    d = dests(s, "dark_arts dark_pawn 1")
    # 3 points: Dungeons-Boathouse-Lake Shore-White Tomb/Stone Circle; never the Willow (4 by land)
    assert "whomping_willow" not in d


def test_secret_passageway_needs_card_and_costs_one_point():
    """Secret Passageways: 'Only certain card effects in the game let House Players use
    a Secret Passageway'; 'Moving through a Secret Passageway ... counts as 1 movement
    point.'  Hidden Staircase (red, 4): Dungeons -> Whomping Willow in 1, then on.
    Without the card (Night Walk, 4) the Willow is not reached from the Dungeons in 1
    and Forest Clearing (Willow+1) is not reachable."""
    s = dpos(hp=1, pieces={"gryffindor student 1": "dungeons"},
             zones={"gryffindor hand": ["Hidden Staircase", "Night Walk"]})
    pick(s, "explore: play a card")
    pick(s, "play Night Walk")
    pick(s, "move with")
    pick(s, "move gryffindor student 1 (")
    assert "forest_clearing" not in dests(s, "gryffindor student 1")
    s = dpos(hp=1, pieces={"gryffindor student 1": "dungeons"},
             zones={"gryffindor hand": ["Hidden Staircase", "Night Walk"]})
    pick(s, "explore: play a card")
    pick(s, "play Hidden Staircase")
    pick(s, "resolve the effect of Hidden Staircase, then move")
    pick(s, "move gryffindor student 1 (")
    d = dests(s, "gryffindor student 1")
    assert "whomping_willow" in d and "forest_clearing" in d and "broom_shed" in d


def test_multi_move_one_pawn_sum_or_two_pawns_never_same_pawn():
    """Card Movement: '3 + 3 ... move 2 pawns, each up to 3 spaces, or 1 pawn up to 6
    spaces. The movement cannot be split any other way'.  Greenhouse Errand (2+2):
    'one pawn up to 4' or 'two pawns'; the second pawn must differ from the first."""
    s = dpos(hp=1, zones={"gryffindor hand": ["Greenhouse Errand"]})
    pick(s, "explore: play a card")
    pick(s, "play Greenhouse Errand")
    pick(s, "move with")
    ls = labels(s)
    assert any("one pawn up to 4" in l for l in ls) and any("two pawns" in l for l in ls)
    pick(s, "two pawns")
    pick(s, "move gryffindor student 1 (")
    assert max(len(x) for x in [dests(s, "x")]) > 0
    assert "library" not in dests(s, "gryffindor student 1")  # 3 away: more than 2
    pick(s, "to entrance_hall")
    finish = [o for o in s.options() if "student 1" in o["label"]]
    assert not finish, "the second value must move a different pawn"


def test_multi_move_one_pawn_reaches_sum():
    """Multi-Move (Glossary): 'their total can be applied to the same pawn'.  Greenhouse
    Errand as 'one pawn up to 4' reaches the Library (3) and Owlery (4)."""
    s = dpos(hp=1, zones={"gryffindor hand": ["Greenhouse Errand"]})
    pick(s, "explore: play a card")
    pick(s, "play Greenhouse Errand")
    pick(s, "move with")
    pick(s, "one pawn up to 4")
    pick(s, "move gryffindor student 1 (")
    assert "owlery" in dests(s, "gryffindor student 1")


def test_no_backtrack_to_turn_start_space():
    """Movement & Map Elements: '... cannot backtrack in the same turn'; Glossary
    Backtrack: '... or end a pawn's movement in a turn on the space from which it started
    the turn'.  Night Walk from the Great Hall never offers the Great Hall."""
    s = dpos(hp=1, zones={"gryffindor hand": ["Night Walk"]})
    house_move(s, "Night Walk", "gryffindor student 1")
    assert "great_hall" not in dests(s, "gryffindor student 1")


def test_no_backtrack_through_spaces_passed_earlier_in_the_turn():
    """Glossary, Backtrack: 'Move a pawn through spaces it already passed through in the
    same turn'.  Student 1 walks Great Hall-Kitchens-Grand Staircase-Library with Night
    Walk (the only 3-step route), takes 'Quidditch Through the Ages' (move one of your
    pawns up to 2).  Grand Staircase and Kitchens were passed this turn: moving that pawn
    back to Kitchens (via the Grand Staircase) is backtracking and must not be offered."""
    s = dpos(hp=1, zones={"gryffindor hand": ["Night Walk"],
                          "library_row": ["Quidditch Through the Ages", "The Standard Book of Spells"]})
    house_move(s, "Night Walk", "gryffindor student 1")
    pick(s, "to library")
    pick(s, "take the Library Book Quidditch Through the Ages")
    # extra move of up to 2: choose the pawn that walked
    m = find(s, "gryffindor student 1 (")
    if m:
        s.apply_action_id(m[0]["id"])
    d = dests(s, "gryffindor student 1")
    assert d, labels(s)
    assert "kitchens" not in d and "grand_staircase" not in d, d


def test_stun_on_meeting_and_push_to_adjacent_space():
    """House Player Turn > Stunning: 'When a House Player Pawn ends a move on a space
    with a Dark Arts Pawn on it, both pawns are stunned and the House Player must then
    move the Dark Arts Pawn to an adjacent space of the House Player's choice.'"""
    s = dpos(hp=1, pieces={"dark_arts dark_pawn 1": "kitchens"},
             zones={"gryffindor hand": ["Night Walk"]})
    house_move(s, "Night Walk", "gryffindor student 1")
    pick(s, "to kitchens")
    pushes = sorted(o["args"]["to"] for o in s.options() if "push" in o["label"])
    assert pushes == ["dungeons", "grand_staircase", "great_hall"]
    pick(s, "push dark_arts dark_pawn 1 to dungeons")
    assert where(s, "dark_arts dark_pawn 1") == "dungeons"
    assert pvar(s, "stunned", "gryffindor student 1") is True
    assert pvar(s, "stunned", "dark_arts dark_pawn 1") is True


def test_push_never_into_protected_area():
    """Stunning (ruling 11): the pushed Dark Arts pawn never goes into a Protected Area
    (Protected Area: a Dark Arts pawn 'can't ... end its move on' one).  Meeting in the
    Grand Staircase: the Headmaster's Office is not offered."""
    s = dpos(hp=1, pieces={"dark_arts dark_pawn 1": "grand_staircase"},
             zones={"gryffindor hand": ["Quick Jinx"]})
    house_move(s, "Quick Jinx", "gryffindor student 1")
    pick(s, "to grand_staircase")
    pushes = [o["args"]["to"] for o in s.options() if "push" in o["label"]]
    assert pushes and "headmasters_office" not in pushes


def test_stunned_pawn_cannot_move():
    """Stunning: 'A stunned pawn cannot move by any means (card move or effect).'"""
    s = dpos(hp=1, zones={"gryffindor hand": ["Night Walk"]},
             piece_vars={"stunned": {"gryffindor student 1": True}})
    pick(s, "explore: play a card")
    pick(s, "play Night Walk")
    pick(s, "move with")
    assert not find(s, "move gryffindor student 1 (")
    assert find(s, "move gryffindor student 2 (")


def test_stunned_dark_pawn_cannot_move():
    """Stunning: a stunned Dark Arts pawn cannot move either."""
    s = dpos(hp=1, at="dark_turn", zones={"dark_arts hand": ["Lurking Shade"]},
             piece_vars={"stunned": {"dark_arts dark_pawn 1": True}})
    dark_card_move(s, "Lurking Shade")
    assert not find(s, "move dark_arts dark_pawn 1 (")


def test_replenish_discard_draw_to_five_stand_up_advance_marker():
    """House Player Turn > Replenish: '1. Discard any number of cards ... draw until they
    have 5 cards in hand. 2. Stand up all of their stunned pawns. 3. Advance the Dark
    Arts Marker 1 space'.  (Marker from 2 to 3, not an Event Space on our path.)"""
    deck = ["Quick Jinx", "House Pride", "Corridor Dash", "Greenhouse Errand", "Unlocking Charm Practice"]
    s = dpos(hp=1, vars={"path": 2},
             zones={"gryffindor hand": ["Night Walk", "Study Group"], "gryffindor deck": deck},
             piece_vars={"stunned": {"gryffindor student 1": True}})
    pick(s, "replenish")
    pick(s, "discard Night Walk before drawing")
    pick(s, "do not choose")
    p = s.position()
    assert len(p["zones"]["gryffindor hand"]) == 5
    assert "Night Walk" in p["zones"]["gryffindor discard"]
    assert p["piece_vars"]["stunned"]["gryffindor student 1"] is False
    assert p["vars"]["path"] == 3


def test_replenish_never_draws_more_than_five():
    """Card Draw: 'A House Player cannot draw more than 5 cards in total during a
    Replenish Action.'  Empty hand after discarding all 2: draws 5, hand 5."""
    deck = ["Quick Jinx", "House Pride", "Corridor Dash", "Greenhouse Errand",
            "Unlocking Charm Practice", "Night Walk"]
    s = dpos(hp=1, vars={"path": 2},
             zones={"gryffindor hand": ["Study Group"], "gryffindor deck": deck})
    pick(s, "replenish")
    pick(s, "discard Study Group before drawing")
    if find(s, "do not choose"):
        pick(s, "do not choose")
    assert len(zone(s, "gryffindor hand")) == 5
    assert len(zone(s, "gryffindor deck")) == 1


def test_dark_replenish_stands_up_and_draws_without_discarding():
    """Dark Arts Player Turn > Replenish: '1. Stand up all of their stunned pawns. 2. Draw
    until they have 5 cards'; 'The Dark Arts Player can draw with cards in their hand but
    not discard'.  The marker does not move."""
    s = dpos(hp=1, at="dark_turn", vars={"path": 3},
             zones={"dark_arts hand": ["Lurking Shade", "Cold Stare"],
                    "dark_arts deck": ["Creeping Shadow", "Pincer Movement", "Whispered Orders", "Confundo"]},
             piece_vars={"stunned": {"dark_arts dark_pawn 2": True}})
    pick(s, "replenish")
    assert not any("discard" in l.lower() for l in labels(s) if not s.is_terminal())
    p = s.position()
    assert len(p["zones"]["dark_arts hand"]) == 5 or s.current_player() != 0
    assert p["piece_vars"]["stunned"]["dark_arts dark_pawn 2"] is False
    assert p["vars"]["path"] == 3


# --------------------------------------------------------------------------- Bonus spaces etc.

def test_bonus_draw_space_does_not_move_marker():
    """Bonus Spaces / Card Draw: 'Cards drawn via these methods do not move the Dark Arts
    Marker'.  Kitchens is a Card Draw space."""
    s = dpos(hp=1, zones={"gryffindor hand": ["House Pride"], "gryffindor deck": ["Night Walk"]})
    house_move(s, "House Pride", "gryffindor student 1")
    pick(s, "to kitchens")
    pick(s, "draw a card (kitchens)")
    assert "Night Walk" in zone(s, "gryffindor hand")
    assert var(s, "path") == 1


def test_bonus_acquire_three_ways():
    """General Key Concepts > Card Acquire: take 1 from the Acquire Row, OR the top of the
    Acquire Deck, OR discard 1 card to take 1 from the Advanced Acquire Row and move 1
    space on the Loyalty Track.  (Grand Staircase is a Card Acquire space.)"""
    s = dpos(hp=1, pieces={"gryffindor student 1": "kitchens"},
             zones={"gryffindor hand": ["House Pride", "Night Walk"]})
    house_move(s, "House Pride", "gryffindor student 1")
    pick(s, "to grand_staircase")
    pick(s, "acquire")
    ls = " | ".join(labels(s)).lower()
    assert "acquire row" in ls and "acquire deck" in ls and "advanced" in ls, ls


def test_bonus_acquire_advanced_costs_one_card_and_one_loyalty():
    """Card Acquire: 'Discard 1 card from their hand to take 1 card from the Advanced
    Acquire Row and move 1 space along the Hogwarts Loyalty Track.'"""
    s = dpos(hp=1, pieces={"gryffindor student 1": "kitchens"},
             zones={"gryffindor hand": ["House Pride", "Night Walk"],
                    "advanced_row": ["Protego", "Invisibility Cloak"]})
    house_move(s, "House Pride", "gryffindor student 1")
    pick(s, "to grand_staircase")
    pick(s, "acquire")
    pick(s, "advanced")
    m = find(s, "discard Night Walk")
    if m:
        s.apply_action_id(m[0]["id"])
    m = find(s, "Protego")
    s.apply_action_id(m[0]["id"])
    p = s.position()
    assert "Night Walk" not in p["zones"]["gryffindor hand"]
    assert p["side_vars"]["loyalty"]["gryffindor"] == 2
    allc = p["zones"]["gryffindor hand"] + p["zones"]["gryffindor deck"] + p["zones"]["gryffindor discard"]
    assert "Protego" in allc


def test_play_again_space_gives_another_turn():
    """General Key Concepts > Play Again: 'House Players can take another turn.'  The
    Courtyard is our Play Again space."""
    s = dpos(hp=1, pieces={"gryffindor student 1": "entrance_hall"},
             zones={"gryffindor hand": ["House Pride", "Night Walk"]})
    house_move(s, "House Pride", "gryffindor student 1")
    pick(s, "to courtyard")
    pick(s, "play again")
    pick(s, "end the turn")
    assert s.current_player() == 1
    assert has(s, "explore")


def test_bonus_only_when_ending_on_it():
    """Bonus Spaces: 'can be activated only when a House Player Pawn ends its move on it'.
    Passing through the Kitchens to the Grand Staircase offers no draw."""
    s = dpos(hp=1, zones={"gryffindor hand": ["Quick Jinx"], "gryffindor deck": ["Night Walk"]})
    house_move(s, "Quick Jinx", "gryffindor student 1")
    pick(s, "to grand_staircase")
    assert not find(s, "draw a card (kitchens)")


# --------------------------------------------------------------------------- Tokens

def test_token_taken_on_landing_not_usable_same_turn():
    """Hogwarts Tokens: 'When a House Player Pawn lands on a space with a Hogwarts Token,
    the House Player may take that token'; 'can use it starting from their next turn'."""
    s = dpos(hp=1, pieces={"gryffindor student 1": "library"},
             zones={"gryffindor hand": ["House Pride", "Corridor Dash"]})
    house_move(s, "House Pride", "gryffindor student 1")
    pick(s, "to charms_classroom")
    pick(s, "take the charms_token")
    assert pvar(s, "holder_side", "charms_token") == "gryffindor"
    assert not any("token" in l.lower() for l in labels(s))


def test_token_used_for_extra_explore_then_returned():
    """Free Actions > Use a Hogwarts Token: 'Before or after a Main Action, the House
    Player can return a Hogwarts Token ... and then immediately take an Explore Action
    with a card of the same type'; 'Once a Token is used, it must be returned to its
    space.'  Only Charms cards may be played with the Charms Token."""
    s = dpos(hp=1, pieces={"charms_token": None},
             piece_vars={"holder_side": {"charms_token": "gryffindor"}},
             zones={"gryffindor hand": ["House Pride", "Corridor Dash", "Night Walk"]})
    pick(s, "token")
    plays = [o["args"].get("c") for o in s.options() if o["kind"] == "card"]
    assert plays == ["Corridor Dash"], plays
    pick(s, "play Corridor Dash")
    assert where(s, "charms_token") == "charms_classroom"
    pick(s, "move with")
    pick(s, "move gryffindor student 1 (")
    pick(s, "to kitchens")
    pick(s, "leave")
    # the Main Action is still to come
    assert has(s, "explore") and has(s, "replenish")


def test_only_one_token_at_a_time():
    """Hogwarts Tokens: 'a House Player can never have more than 1 at a time'; 'They must
    place that token back on its original space if they wish to take another one.'"""
    s = dpos(hp=1, pieces={"charms_token": None, "gryffindor student 1": "dungeons"},
             piece_vars={"holder_side": {"charms_token": "gryffindor"}},
             zones={"gryffindor hand": ["House Pride"]})
    house_move(s, "House Pride", "gryffindor student 1")
    pick(s, "to potions_classroom")
    m = find(s, "potions_token")
    if m and "take" in m[0]["label"]:
        s.apply_action_id(m[0]["id"])
    held = [t for t, h in s.position()["piece_vars"]["holder_side"].items() if h == "gryffindor"]
    assert len(held) <= 1, held
    if held == ["potions_token"]:
        assert where(s, "charms_token") == "charms_classroom"


# --------------------------------------------------------------------------- Library, Scroll, Shield

def test_library_take_one_of_two_resolve_and_refill():
    """The Library: '... they can take 1 of the 2 available ... and resolve its effect
    immediately'; 'The available Library Book Card Space ... must be replenished with a
    new card'."""
    s = dpos(hp=1, pieces={"gryffindor student 1": "grand_staircase"},
             zones={"gryffindor hand": ["House Pride"], "gryffindor deck": ["Night Walk"],
                    "library_row": ["The Standard Book of Spells", "Hogwarts, A History"],
                    "library_deck": ["Advanced Potion-Making"]})
    house_move(s, "House Pride", "gryffindor student 1")
    pick(s, "to library")
    pick(s, "take the Library Book The Standard Book of Spells")
    p = s.position()
    assert p["zones"]["gryffindor book"] == ["The Standard Book of Spells"]
    assert "Night Walk" in p["zones"]["gryffindor hand"]  # effect: draw 1, resolved at once
    assert sorted(p["zones"]["library_row"]) == ["Advanced Potion-Making", "Hogwarts, A History"]


def test_library_only_one_book_at_a_time():
    """The Library: 'A House Player can only have 1 Library Book Card at a time'."""
    s = dpos(hp=1, pieces={"gryffindor student 1": "grand_staircase"},
             zones={"gryffindor hand": ["House Pride"], "gryffindor book": ["Hogwarts, A History"],
                    "library_row": ["The Standard Book of Spells", "Advanced Potion-Making"]})
    house_move(s, "House Pride", "gryffindor student 1")
    pick(s, "to library")
    assert not find(s, "take the Library Book")


def test_parchment_scroll_first_and_cards_to_bottom():
    """Free Actions > Gain a Parchment Scroll: pawns in 2 of the 3 areas -> reveal and
    discard both to gain a Scroll; 'return those 2 ... to the bottom of the House Player
    Location Deck'; 'If this is their first Parchment Scroll, they must draw 2 new ...
    so they have a total of 3'."""
    s = dpos(hp=1, pieces={"gryffindor student 1": "library", "gryffindor student 2": "kitchens"},
             zones={"gryffindor hand": ["House Pride"], "gryffindor locations": ["Library", "Kitchens", "Owlery"],
                    "location_deck": ["Paddock", "Clock Tower", "Charms Classroom"]})
    pick(s, "gain a Parchment Scroll")
    pick(s, "reveal Library")
    pick(s, "and Kitchens")
    p = s.position()
    assert p["side_vars"]["scrolls"]["gryffindor"] == 1
    assert len(p["zones"]["gryffindor locations"]) == 3
    assert "Owlery" in p["zones"]["gryffindor locations"]
    assert set(p["zones"]["location_deck"][:2]) == {"Library", "Kitchens"}  # bottom first
    assert p["vars"]["scrolls_left"] == 7


def test_parchment_scroll_second_discards_third_card():
    """Gain a Parchment Scroll: 'If it's their second Parchment Scroll, discard the
    remaining House Player Location Card to the bottom of its deck. They can't gain any
    more House Player Location Cards'."""
    s = dpos(hp=1, pieces={"gryffindor student 1": "library", "gryffindor student 2": "kitchens"},
             zones={"gryffindor hand": ["House Pride"], "gryffindor locations": ["Library", "Kitchens", "Owlery"],
                    "location_deck": ["Paddock", "Clock Tower"]},
             side_vars={"scrolls": {"gryffindor": 0}, "scrolls_gained": {"gryffindor": 1}})
    pick(s, "gain a Parchment Scroll")
    pick(s, "reveal Library")
    pick(s, "and Kitchens")
    p = s.position()
    assert p["zones"]["gryffindor locations"] == []
    assert set(p["zones"]["location_deck"][:3]) == {"Library", "Kitchens", "Owlery"}


def test_no_scroll_with_only_one_location():
    """Gain a Parchment Scroll needs 'at least 1 pawn in 2 of the 3 areas'."""
    s = dpos(hp=1, pieces={"gryffindor student 1": "library"},
             zones={"gryffindor hand": ["House Pride"], "gryffindor locations": ["Library", "Kitchens", "Owlery"]})
    assert not has(s, "Parchment Scroll")


def test_shield_needs_the_depicted_item():
    """Defence Shield Space: needs '1 Dark Detector OR 1 D.A. Coin, whichever is depicted
    on the space's Defence Shield'.  A D.A. Coin does not buy a Detector Shield."""
    s = dpos(hp=1, pieces={},
             zones={"gryffindor hand": ["Night Walk"], "gryffindor book": ["Hogwarts, A History"]},
             side_vars={"scrolls": {"gryffindor": 1}, "coin": {"gryffindor": True}})
    house_move(s, "Night Walk", "gryffindor student 1")
    pick(s, "to clock_tower")
    assert not find(s, "exchange")


def test_shield_with_detector_drops_back_three_and_second_shield_wins():
    """Using the Dark Detector: 'they drop their pawn back 3 spaces ... and return the
    Dark Detector to its place'; Game End: 'A House Player wins when they have collected
    2 Defence Shields.'"""
    s = dpos(hp=2, pieces={},
             zones={"gryffindor hand": ["Night Walk"], "gryffindor book": ["Hogwarts, A History"]},
             vars={"detector": "gryffindor", "room_open": True, "five_order": 1},
             side_vars={"scrolls": {"gryffindor": 1}, "loyalty": {"gryffindor": 6},
                        "reached_five": {"gryffindor": 1}, "shields": {"gryffindor": 1}})
    house_move(s, "Night Walk", "gryffindor student 1")
    pick(s, "to clock_tower")
    pick(s, "exchange")
    p = s.position()
    assert p["side_vars"]["loyalty"]["gryffindor"] == 3
    assert p["vars"]["detector"] is None
    assert p["side_vars"]["shields"]["gryffindor"] == 2
    assert s.is_terminal() and s.returns()[1] > 0 and s.returns()[0] < 0


def test_relinquished_detector_passes_to_player_on_fifth_space():
    """Using the Dark Detector: 'If another House Player has already reached the fifth
    space or higher ..., then the Dark Detector passes directly to them.'"""
    s = dpos(hp=2, pieces={},
             zones={"gryffindor hand": ["Night Walk"], "gryffindor book": ["Hogwarts, A History"]},
             vars={"detector": "gryffindor", "room_open": True, "five_order": 2},
             side_vars={"scrolls": {"gryffindor": 1}, "loyalty": {"gryffindor": 6, "hufflepuff": 5},
                        "reached_five": {"gryffindor": 1, "hufflepuff": 2}})
    house_move(s, "Night Walk", "gryffindor student 1")
    pick(s, "to clock_tower")
    pick(s, "exchange")
    assert var(s, "detector") == "hufflepuff"


# --------------------------------------------------------------------------- Loyalty, Room

def test_dark_detector_icon_space_advances_loyalty():
    """Dark Detector: 'If a House Player ends a move on a space with the Dark Detector
    icon, they can advance their pawn 1 space on the Hogwarts Loyalty Track'.  (Dungeons.)"""
    s = dpos(hp=1, pieces={"gryffindor student 1": "kitchens"}, zones={"gryffindor hand": ["House Pride"]})
    house_move(s, "House Pride", "gryffindor student 1")
    pick(s, "to dungeons")
    pick(s, "advance on the Hogwarts Loyalty Track")
    assert svar(s, "loyalty", "gryffindor") == 2


def test_fifth_space_highest_gains_detector_and_reveals_room():
    """Hogwarts Loyalty Track: 'If ... a House Player lands on the fifth space or higher
    ..., and they are higher than anyone else ..., they immediately gain the Dark
    Detector.'  Room of Requirement: revealed 'The first time any House Player reaches
    or passes the fifth space'."""
    s = dpos(hp=2, zones={"gryffindor hand": ["House Pride"]}, side_vars={"loyalty": {"gryffindor": 4}})
    pick(s, "explore: play a card")
    pick(s, "play House Pride")
    pick(s, "resolve the effect of House Pride, then move")
    assert var(s, "detector") == "gryffindor"
    assert var(s, "room_open") is True


def test_fifth_space_but_not_highest_no_detector():
    """Hogwarts Loyalty Track: only if 'they are higher than anyone else'.  Gryffindor
    reaches 5 while Hufflepuff (holding it) is on 6."""
    s = dpos(hp=2, zones={"gryffindor hand": ["House Pride"]},
             vars={"detector": "hufflepuff", "room_open": True, "five_order": 1},
             side_vars={"loyalty": {"gryffindor": 4, "hufflepuff": 6}, "reached_five": {"hufflepuff": 1}})
    pick(s, "explore: play a card")
    pick(s, "play House Pride")
    pick(s, "resolve the effect of House Pride, then move")
    assert var(s, "detector") == "hufflepuff"


def test_final_space_handover_drop_back_and_draw():
    """Hogwarts Loyalty Track: 'If another House Player is occupying the [final] space and
    possesses the Dark Detector, they pass the Dark Detector to the House Player that has
    moved up and then drop back 1 space and draw a card'."""
    s = dpos(hp=2, zones={"gryffindor hand": ["House Pride"], "hufflepuff hand": [], "hufflepuff deck": ["Quick Jinx"]},
             vars={"detector": "hufflepuff", "room_open": True, "five_order": 1},
             side_vars={"loyalty": {"gryffindor": 6, "hufflepuff": 7}, "reached_five": {"hufflepuff": 1}})
    pick(s, "explore: play a card")
    pick(s, "play House Pride")
    pick(s, "resolve the effect of House Pride, then move")
    p = s.position()
    assert p["vars"]["detector"] == "gryffindor"
    assert p["side_vars"]["loyalty"] == {**p["side_vars"]["loyalty"], "gryffindor": 7, "hufflepuff": 6}
    assert p["zones"]["hufflepuff hand"] == ["Quick Jinx"]


def test_room_of_requirement_gives_one_coin():
    """Room of Requirement: 'House Players who now enter the Room of Requirement Space gain
    a D.A. Coin from the supply.'  (Room joined to the Seventh Floor.)"""
    s = dpos(hp=1, pieces={"gryffindor student 1": "seventh_floor"},
             piece_vars={"turn_start": {"gryffindor student 1": "trophy_room"}},
             vars={"room_open": True, "five_order": 1},
             side_vars={"loyalty": {"gryffindor": 5}, "reached_five": {"gryffindor": 1}},
             zones={"gryffindor hand": ["House Pride"]})
    house_move(s, "House Pride", "gryffindor student 1")
    assert "room_of_requirement" in dests(s, "gryffindor student 1")
    pick(s, "to room_of_requirement")
    for _ in range(3):
        m = find(s, "coin")
        if m and "coin" in m[0]["label"].lower() and s.current_player() == 1:
            s.apply_action_id(m[0]["id"])
    assert svar(s, "coin", "gryffindor") is True
    assert var(s, "coins_left") == 3


def test_room_closed_is_inaccessible():
    """Room of Requirement: it 'can be accessed' only once revealed."""
    s = dpos(hp=1, pieces={"gryffindor student 1": "seventh_floor"},
             zones={"gryffindor hand": ["House Pride"]})
    house_move(s, "House Pride", "gryffindor student 1")
    assert "room_of_requirement" not in dests(s, "gryffindor student 1")


def test_room_closes_when_everyone_below_five_pawn_stays_inside():
    """Room of Requirement: 'removed ... when all House Player Pawns have moved below the
    fifth space'; 'If a pawn is in the Room ... when it is removed ..., it must remain
    there until the room is revealed again.'  Gryffindor (alone on 5, holding the
    Detector) spends it on a Shield and drops back 3: the Room closes; the Hufflepuff pawn
    inside cannot leave."""
    s = dpos(hp=2, pieces={"hufflepuff student 1": "room_of_requirement"},
             zones={"gryffindor hand": ["Night Walk"], "gryffindor book": ["Hogwarts, A History"],
                    "hufflepuff hand": ["Night Walk"]},
             vars={"detector": "gryffindor", "room_open": True, "five_order": 1},
             side_vars={"scrolls": {"gryffindor": 1}, "loyalty": {"gryffindor": 5},
                        "reached_five": {"gryffindor": 1}})
    house_move(s, "Night Walk", "gryffindor student 1")
    pick(s, "to clock_tower")
    pick(s, "exchange")
    assert var(s, "room_open") is False
    finish_turn(s, 1)
    assert s.current_player() == 2
    pick(s, "explore: play a card")
    pick(s, "play Night Walk")
    pick(s, "move with")
    assert not find(s, "move hufflepuff student 1 (")


# --------------------------------------------------------------------------- Learn

def test_learn_card_goes_on_top_of_draw_deck():
    """Learn: 'Any acquired card is placed on the top of the House Player's Draw Deck'."""
    s = dpos(hp=1, zones={"gryffindor hand": ["Night Walk", "Study Group"], "gryffindor deck": ["Quick Jinx"],
                          "acquire_row": ["Stupefy", "Alohomora"]})
    pick(s, "learn")
    pick(s, "discard 1 card, take a card from the Acquire Row")
    pick(s, "discard Night Walk")
    pick(s, "take Stupefy")
    p = s.position()
    assert p["zones"]["gryffindor deck"][-1] == "Stupefy"
    assert "Night Walk" in p["zones"]["gryffindor discard"] + p["zones"]["gryffindor played"]
    assert len(p["zones"]["acquire_row"]) == 2


def test_learn_advanced_needs_two_discards_and_advances_loyalty():
    """Learn: 'Discarding 2 cards ..., taking 1 of the 2 face-up cards from the Advanced
    Acquire Row, and then advancing 1 space on the Hogwarts Loyalty Track.'  With a hand
    of one card the Advanced option is impossible."""
    s = dpos(hp=1, zones={"gryffindor hand": ["Night Walk"]})
    pick(s, "learn")
    assert not find(s, "discard 2 cards")


def test_learn_needs_pawn_outside_protected_area():
    """Learn: 'A House Player must have at least 1 pawn outside of any Protected Area in
    order to take a Learn Action.'"""
    s = dpos(hp=1, pieces={"gryffindor student 1": "hagrids_hut", "gryffindor student 2": "common_rooms",
                           "gryffindor student 3": "hospital_wing"},
             zones={"gryffindor hand": ["Night Walk", "Study Group"]})
    assert not has(s, "learn")


# --------------------------------------------------------------------------- Dark Arts turn

def test_deploy_costs_one_point_and_needs_free_deployment_space():
    """Dark Arts Player Turn > Card Movement: 'they must spend 1 of their movement points
    to place it on 1 of the available Dark Arts Deployment Spaces'; 'cannot deploy a pawn
    to a Deployment Location that already has a Dark Arts Pawn in it (including stunned
    pawns).'"""
    s = dpos(hp=1, at="dark_turn", pieces={"dark_arts dark_pawn 1": None, "dark_arts dark_pawn 2": "lake_shore"},
             piece_vars={"stunned": {"dark_arts dark_pawn 3": True}},
             zones={"dark_arts hand": ["Whispered Orders"]})
    pick(s, "explore")
    pick(s, "play Whispered Orders")
    pick(s, "move with")
    pick(s, "deploy")
    deps = sorted(o["args"]["d"] for o in s.options() if "d" in o["args"])
    assert deps == ["forbidden_forest", "pumpkin_patch"]
    pick(s, "onto pumpkin_patch")
    d = dests(s, "dark_arts dark_pawn 1")
    # 2 points: 1 to deploy, 1 left: only neighbours of the Pumpkin Patch
    assert set(d) <= {"greenhouses", "black_lake", "hagrids_hut"} and "hagrids_hut" not in d


def test_bump_sends_pawn_to_great_hall_marker_and_reward():
    """Dark Arts Player Turn > Bumped: '2. ... returns the chosen House Player Pawn to the
    Great Hall and adds the Dark Arts Pawn to their pool ... 3. ... take the House Marker
    ... 4. ... draws the top 2 cards from the Dark Arts Acquire Deck, chooses 1 to place
    on the top of their Draw Deck, and returns the other to the bottom'."""
    s = dpos(hp=2, at="dark_turn", pieces={"gryffindor student 1": "the_white_tomb"},
             zones={"dark_arts hand": ["Lurking Shade"], "dark_arts deck": ["Cold Stare"],
                    "dark_acquire": ["Stalking Werewolf", "Imperius Curse", "Confundo", "Accio Token"]})
    dark_card_move(s, "Lurking Shade", "dark_arts dark_pawn 2")
    pick(s, "to the_white_tomb")
    if find(s, "bump gryffindor student 1"):
        pick(s, "bump gryffindor student 1")
    keeps = sorted(o["args"].get("k") for o in s.options() if o["kind"] == "card")
    assert keeps == ["Accio Token", "Confundo"], labels(s)
    pick(s, "keep Confundo")
    p = s.position()
    assert p["pieces"]["gryffindor student 1"] == "great_hall"
    assert p["pieces"]["dark_arts dark_pawn 2"] is None
    assert p["side_vars"]["marker_taken"]["gryffindor"] is True
    assert p["zones"]["dark_arts deck"][-1] == "Confundo"
    assert p["zones"]["dark_acquire"][0] == "Accio Token"


def test_bump_choice_among_several_house_pawns():
    """Bumped: '1. If more than 1 House Player Pawn is on the space, the Dark Arts Player
    chooses which one will be bumped.'"""
    s = dpos(hp=2, at="dark_turn", pieces={"gryffindor student 1": "the_white_tomb", "hufflepuff student 1": "the_white_tomb"},
             zones={"dark_arts hand": ["Lurking Shade"]})
    dark_card_move(s, "Lurking Shade", "dark_arts dark_pawn 2")
    pick(s, "to the_white_tomb")
    bumps = sorted(o["args"].get("v") for o in s.options() if "bump" in o["label"])
    assert bumps == ["gryffindor student 1", "hufflepuff student 1"]


def test_all_house_markers_advance_dark_arts_marker():
    """Bumped, Note: 'Once the Dark Arts Player has all the House Players' Markers, they
    must advance the Dark Arts Marker on the Dark Arts Path 1 space and return the House
    Player Markers'."""
    s = dpos(hp=2, at="dark_turn", vars={"path": 2},
             pieces={"gryffindor student 1": "the_white_tomb"},
             side_vars={"marker_taken": {"hufflepuff": True}},
             zones={"dark_arts hand": ["Lurking Shade"]})
    dark_card_move(s, "Lurking Shade", "dark_arts dark_pawn 2")
    pick(s, "to the_white_tomb")
    for _ in range(4):
        if s.current_player() != 0:
            break
        m = find(s, "bump") or find(s, "keep")
        if not m:
            break
        s.apply_action_id(m[0]["id"])
    p = s.position()
    assert p["vars"]["path"] == 3
    assert not any(p["side_vars"]["marker_taken"].values())


def test_dark_effect_locked_until_its_zone():
    """Dark Arts Player Turn > Card Effects: 'A card effect is resolved ... only if it's
    been unlocked'; Orange effects unlock at the first orange space.  Cold Stare (orange)
    in the White Zone offers no effect."""
    s = dpos(hp=1, at="dark_turn", pieces={"gryffindor student 1": "lake_shore"},
             zones={"dark_arts hand": ["Cold Stare"]})
    pick(s, "explore")
    pick(s, "play Cold Stare")
    assert not any("effect" in l.lower() for l in labels(s)), labels(s)


def test_dark_effect_unlocked_in_its_zone():
    """Card Effects: Orange 'unlocked from the moment the marker reaches the first orange
    space'.  Cold Stare at path 7 offers its effect."""
    s = dpos(hp=1, at="dark_turn", vars={"path": 7, "giant_taken": True},
             pieces={"gryffindor student 1": "the_white_tomb"},
             zones={"dark_arts hand": ["Cold Stare"]})
    pick(s, "explore")
    pick(s, "play Cold Stare")
    assert any("effect" in l.lower() for l in labels(s)), labels(s)


# --------------------------------------------------------------------------- Path, events, end

def test_event_space_house_part_then_token_or_dark_part():
    """Dark Arts Path: 'If the Dark Arts Marker lands on an Event Space, the Dark Arts
    Player takes the topmost Event Card of that space's colour'; Resolving an Event Card:
    'First, all House Players must resolve the Event Card's effect ... Next, the Dark
    Arts Player must choose to resolve the effect or gain the Dark Arts Progress Token'."""
    s = dpos(hp=1, vars={"path": 1},
             zones={"gryffindor hand": ["Night Walk"],
                    "gryffindor deck": ["Quick Jinx", "House Pride", "Corridor Dash", "Study Group", "Greenhouse Errand"],
                    "events_white": ["Prefects on Patrol", "A Quiet Week"]})
    pick(s, "replenish")
    pick(s, "do not choose")
    assert var(s, "path") == 2
    assert s.current_player() == 0
    ls = labels(s)
    assert any("Giant" in l for l in ls) and any("A Quiet Week" in l for l in ls), ls
    assert len(zone(s, "gryffindor hand")) == 6  # House part (draw 1) already resolved


def test_zone_token_forced_before_leaving_zone():
    """Advancing the Dark Arts Marker: 'they must take the Dark Arts Progress Token from
    each zone before advancing into the next one.'  At the White Zone's last Event Space
    (6) with the Giant untaken, only the token is offered (ruling 20)."""
    s = dpos(hp=1, vars={"path": 5},
             zones={"gryffindor hand": ["Night Walk"],
                    "gryffindor deck": ["Quick Jinx", "House Pride", "Corridor Dash", "Study Group", "Greenhouse Errand"]})
    pick(s, "replenish")
    pick(s, "do not choose")
    for _ in range(3):
        if s.current_player() == 0 and find(s, "Giant"):
            assert not find(s, "resolve the Dark Arts part"), labels(s)
            pick(s, "Giant")
            break
    assert var(s, "giant_taken") is True


def test_dementor_at_first_red_event_needs_three_pawns():
    """Dark Arts Path: 'When the Dark Arts Marker reaches the first Red Event Space ...
    they can choose to take the last Dark Arts Progress Token. They will then draw a Dark
    Arts Player Location Card ... and must get 3 Dark Arts Player Pawns to that location'."""
    s = dpos(hp=1, vars={"path": 13, "giant_taken": True, "acromantula_taken": True},
             zones={"gryffindor hand": ["Night Walk"],
                    "gryffindor deck": ["Quick Jinx", "House Pride", "Corridor Dash", "Study Group"],
                    "dark_location_deck": ["Target Great Hall", "Target The White Tomb"]})
    pick(s, "replenish")
    pick(s, "do not choose")
    pick(s, "take the Dementor Progress Token")
    assert var(s, "pawns_needed") == 3
    assert zone(s, "dark_target") == ["Target The White Tomb"]


def test_dementor_at_second_red_event_needs_two_pawns():
    """Dark Arts Path: 'If they wait until ... the next Red Event Space ... they need to
    get only 2 pawns'."""
    s = dpos(hp=1, vars={"path": 15, "giant_taken": True, "acromantula_taken": True},
             zones={"gryffindor hand": ["Night Walk"],
                    "gryffindor deck": ["Quick Jinx", "House Pride", "Corridor Dash", "Study Group"]})
    pick(s, "replenish")
    pick(s, "do not choose")
    pick(s, "take the Dementor Progress Token")
    assert var(s, "pawns_needed") == 2


def test_dark_win_needs_pawns_on_location_with_all_tokens():
    """Game End: 'The Dark Arts Player wins if they have secured all 3 Dark Arts Progress
    Tokens and landed 3, 2, OR 1 Dark Arts Pawns on the Dark Arts Player Location
    simultaneously.'  Worked example: one pawn already in the White Tomb, a second lands."""
    s = dpos(hp=1, at="dark_turn",
             vars={"path": 16, "giant_taken": True, "acromantula_taken": True, "dementor_taken": True,
                   "pawns_needed": 2},
             pieces={"dark_arts dark_pawn 1": "the_white_tomb"},
             zones={"dark_target": ["Target The White Tomb"], "dark_arts hand": ["Lurking Shade"]})
    dark_card_move(s, "Lurking Shade", "dark_arts dark_pawn 2")
    pick(s, "to the_white_tomb")
    assert s.is_terminal()
    assert s.returns()[0] > 0


def test_dark_pawns_on_location_without_all_tokens_do_not_win():
    """Game End: the Dark Arts win needs all 3 tokens."""
    s = dpos(hp=1, at="dark_turn", vars={"path": 10, "giant_taken": True},
             pieces={"dark_arts dark_pawn 1": "the_white_tomb", "dark_arts dark_pawn 3": "whomping_willow"},
             zones={"dark_arts hand": ["Lurking Shade"]})
    dark_card_move(s, "Lurking Shade", "dark_arts dark_pawn 2")
    pick(s, "to the_white_tomb")
    assert not s.is_terminal()


def test_last_space_everyone_draws_up_to_five_and_no_replenish():
    """Dark Arts Path: 'When the Dark Arts Player lands on the last space ..., all players
    draw up to 5 cards and cannot Replenish again.'  'On the last space ... must take the
    Dark Arts Player Location Card (if they have not already) and must then get just 1
    Dark Arts Pawn to that location'."""
    s = dpos(hp=1, vars={"path": 17, "giant_taken": True, "acromantula_taken": True},
             zones={"gryffindor hand": ["House Pride"],
                    "gryffindor deck": ["Quick Jinx", "Study Group", "Corridor Dash", "Greenhouse Errand", "Night Walk",
                                        "Unlocking Charm Practice"],
                    "dark_arts hand": ["Lurking Shade"],
                    "dark_arts deck": ["Creeping Shadow", "Pincer Movement", "Whispered Orders", "Confundo", "Cold Stare"]})
    pick(s, "replenish")
    pick(s, "do not choose")
    p = s.position()
    assert p["vars"]["path"] == 18
    assert p["vars"]["pawns_needed"] == 1 and p["vars"]["dementor_taken"] is True
    assert len(p["zones"]["dark_arts hand"]) == 5
    assert len(p["zones"]["gryffindor hand"]) == 5
    finish_turn(s, 1)
    assert s.current_player() == 0
    assert not has(s, "replenish")


def test_draw_when_all_run_out_of_cards_after_last_space():
    """Game End: 'The game ends in a DRAW when the Dark Arts Marker reaches the last space
    ... and all players ... play them all without [anyone] completing their primary
    goals.'  Gryffindor plays its last card; the Dark Arts Player holds none."""
    s = dpos(hp=1, vars={"path": 18, "final_phase": True, "giant_taken": True, "acromantula_taken": True,
                         "dementor_taken": True, "pawns_needed": 1},
             zones={"gryffindor hand": ["House Pride"], "gryffindor deck": [], "gryffindor discard": [],
                    "dark_arts hand": [], "dark_arts deck": [], "dark_arts discard": [],
                    "dark_target": ["Target Astronomy Tower"]})
    house_move(s, "House Pride", "gryffindor student 1")
    pick(s, "to entrance_hall")
    finish_turn(s, 1)
    for _ in range(10):
        if s.is_terminal():
            break
        finish_turn(s, s.current_player())
    assert s.is_terminal()
    assert all(r == 0 for r in s.returns())


# --------------------------------------------------------------------------- more

def test_fly_off_point_to_any_other():
    """Fly Off Points: 'All pawns can fly from 1 Fly Off Point to any other, if the player
    has a card with an effect allowing them to do so.'  Nimbus Two Thousand from the Owlery."""
    s = dpos(hp=1, pieces={"gryffindor student 1": "owlery"}, zones={"gryffindor hand": ["Nimbus Two Thousand"]})
    pick(s, "explore: play a card")
    pick(s, "play Nimbus")
    for _ in range(3):
        if find(s, "flies to"):
            break
        m = find(s, "move with") or find(s, "gryffindor student 1")
        s.apply_action_id(m[0]["id"])
    flights = sorted(o["args"]["to"] for o in s.options() if "flies to" in o["label"])
    assert flights == ["astronomy_tower", "quidditch_pitch", "viaduct"]


def test_move_directly_ends_on_library_and_visits_it():
    """Glossary, Directly: 'A pawn moved directly does not stop on any spaces en route';
    The Library: visiting it gives a Book.  Floo Powder to the Library."""
    s = dpos(hp=1, zones={"gryffindor hand": ["Floo Powder"]})
    pick(s, "explore: play a card")
    pick(s, "play Floo Powder")
    pick(s, "move with")
    pick(s, "move gryffindor student 1 directly to library")
    assert where(s, "gryffindor student 1") == "library"
    assert find(s, "take the Library Book")


def test_free_action_token_after_main_action():
    """Free Actions > Use a Hogwarts Token: 'Before or after a Main Action'."""
    s = dpos(hp=1, pieces={"charms_token": None},
             piece_vars={"holder_side": {"charms_token": "gryffindor"}},
             zones={"gryffindor hand": ["House Pride", "Corridor Dash", "Night Walk"]})
    house_move(s, "Night Walk", "gryffindor student 1")
    pick(s, "to entrance_hall")
    assert has(s, "token"), labels(s)


def test_scroll_claimed_after_the_move_that_completes_it():
    """Gain a Parchment Scroll (example): 'The Hufflepuff Player already has 1 pawn in the
    Charms classroom ... has landed in the Astronomy Tower ... can now take a Parchment
    Scroll'."""
    s = dpos(hp=1, pieces={"gryffindor student 1": "charms_classroom", "gryffindor student 2": "owlery"},
             zones={"gryffindor hand": ["House Pride"],
                    "gryffindor locations": ["Charms Classroom", "Astronomy Tower", "Paddock"]})
    house_move(s, "House Pride", "gryffindor student 2")
    pick(s, "to astronomy_tower")
    finish = find(s, "gain a Parchment Scroll")
    assert finish, labels(s)


def test_bump_reward_once_per_turn():
    """Bumped, step 4 Note: 'This step is resolved once per turn, even if multiple bumps
    have occurred during that turn.'  Pincer Movement bumps two pawns."""
    s = dpos(hp=2, at="dark_turn",
             pieces={"gryffindor student 1": "the_white_tomb", "hufflepuff student 1": "paddock"},
             zones={"dark_arts hand": ["Pincer Movement"],
                    "dark_acquire": ["Stalking Werewolf", "Imperius Curse", "Confundo", "Accio Token"]})
    pick(s, "explore")
    pick(s, "play Pincer Movement")
    pick(s, "move with")
    pick(s, "two")
    rewards = 0
    pick(s, "move a Dark Arts Pawn") if find(s, "move a Dark Arts Pawn") else None
    pick(s, "move dark_arts dark_pawn 2 (")
    pick(s, "to the_white_tomb")
    for _ in range(12):
        if s.is_terminal() or s.current_player() != 0:
            break
        if find(s, "keep "):
            rewards += 1
            s.apply_action_id(find(s, "keep ")[0]["id"])
        elif find(s, "bump "):
            s.apply_action_id(find(s, "bump ")[0]["id"])
        elif find(s, "move dark_arts dark_pawn 1 ("):
            pick(s, "move dark_arts dark_pawn 1 (")
        elif find(s, "to paddock"):
            pick(s, "to paddock")
        elif find(s, "move a Dark Arts Pawn"):
            pick(s, "move a Dark Arts Pawn")
        else:
            break
    assert where(s, "hufflepuff student 1") == "great_hall"
    assert where(s, "gryffindor student 1") == "great_hall"
    assert rewards == 1


def test_dark_pawn_passing_house_pawn_does_not_bump():
    """Bumped: 'When a Dark Arts Pawn ends its move on a space occupied by a House Player
    Pawn'.  Passing through the White Tomb to the Lake Shore bumps nobody."""
    s = dpos(hp=1, at="dark_turn", pieces={"gryffindor student 1": "the_white_tomb"},
             zones={"dark_arts hand": ["Lurking Shade"]})
    dark_card_move(s, "Lurking Shade", "dark_arts dark_pawn 2")
    pick(s, "to lake_shore")
    assert where(s, "gryffindor student 1") == "the_white_tomb"


def test_house_pawn_passing_dark_pawn_is_not_stunned():
    """Movement: 'If a House Player Pawn ends in the same space as a Dark Arts Pawn, both
    pawns are stunned' (ending only; ruling 2)."""
    s = dpos(hp=1, pieces={"dark_arts dark_pawn 1": "kitchens"}, zones={"gryffindor hand": ["Quick Jinx"]})
    house_move(s, "Quick Jinx", "gryffindor student 1")
    pick(s, "to grand_staircase")
    assert pvar(s, "stunned", "gryffindor student 1") is False
    assert pvar(s, "stunned", "dark_arts dark_pawn 1") is False


def test_only_one_da_coin_at_a_time():
    """Room of Requirement, Note: 'House Players can only have 1 D.A. Coin at a time.'"""
    s = dpos(hp=1, pieces={"gryffindor student 1": "seventh_floor"},
             piece_vars={"turn_start": {"gryffindor student 1": "trophy_room"}},
             vars={"room_open": True, "five_order": 1, "coins_left": 3},
             side_vars={"loyalty": {"gryffindor": 5}, "reached_five": {"gryffindor": 1}, "coin": {"gryffindor": True}},
             zones={"gryffindor hand": ["House Pride"]})
    house_move(s, "House Pride", "gryffindor student 1")
    pick(s, "to room_of_requirement")
    finish_turn(s, 1)
    assert var(s, "coins_left") == 3


def test_coin_shield_relinquishes_coin_to_supply():
    """Defence Shield Space / Glossary Relinquish: the D.A. Coin is 'removed from ... their
    Player Board Items area and returned to its original location'.  Boathouse (coin)."""
    s = dpos(hp=1, pieces={"gryffindor student 1": "dungeons"},
             vars={"coins_left": 3},
             zones={"gryffindor hand": ["House Pride"], "gryffindor book": ["Hogwarts, A History"]},
             side_vars={"scrolls": {"gryffindor": 1}, "coin": {"gryffindor": True}})
    house_move(s, "House Pride", "gryffindor student 1")
    pick(s, "to boathouse")
    pick(s, "exchange")
    p = s.position()
    assert p["side_vars"]["shields"]["gryffindor"] == 1
    assert p["side_vars"]["coin"]["gryffindor"] is False
    assert p["side_vars"]["scrolls"]["gryffindor"] == 0
    assert p["zones"]["gryffindor book"] == []


def test_empty_draw_deck_reshuffles_discard():
    """Card Draw: 'When the Draw Deck is depleted, the player must shuffle their Discard
    Pile to create a new deck from which to draw.'"""
    s = dpos(hp=1, zones={"gryffindor hand": ["House Pride"], "gryffindor deck": [],
                          "gryffindor discard": ["Night Walk"]})
    house_move(s, "House Pride", "gryffindor student 1")
    pick(s, "to kitchens")
    pick(s, "draw a card (kitchens)")
    assert "Night Walk" in zone(s, "gryffindor hand")


def test_detector_tie_goes_to_first_on_fifth_space():
    """Using the Dark Detector: 'If 2 House Players have reached the same space ..., then
    the first to move to the fifth space or higher receives the Dark Detector.'"""
    s = dpos(hp=3, zones={"gryffindor hand": ["Night Walk"], "gryffindor book": ["Hogwarts, A History"]},
             vars={"detector": "gryffindor", "room_open": True, "five_order": 3},
             side_vars={"scrolls": {"gryffindor": 1}, "loyalty": {"gryffindor": 7, "hufflepuff": 5, "ravenclaw": 5},
                        "reached_five": {"gryffindor": 1, "hufflepuff": 3, "ravenclaw": 2}})
    house_move(s, "Night Walk", "gryffindor student 1")
    pick(s, "to clock_tower")
    pick(s, "exchange")
    assert var(s, "detector") == "ravenclaw"


def test_played_card_goes_to_discard_at_end_of_turn():
    """End of Turn: 'Any cards played must be placed on their Discard Pile'."""
    s = dpos(hp=1, zones={"gryffindor hand": ["House Pride", "Night Walk"]})
    house_move(s, "House Pride", "gryffindor student 1")
    pick(s, "to entrance_hall")
    finish_turn(s, 1)
    assert "House Pride" in zone(s, "gryffindor discard")
    assert zone(s, "gryffindor hand") == ["Night Walk"]


def test_every_house_resolves_the_event_house_part():
    """Resolving an Event Card: 'First, all House Players must resolve the Event Card's
    effect'.  A Quiet Week: every House draws 1."""
    s = dpos(hp=2, vars={"path": 1},
             zones={"gryffindor hand": ["Night Walk"],
                    "gryffindor deck": ["Quick Jinx", "House Pride", "Corridor Dash", "Study Group", "Greenhouse Errand"],
                    "hufflepuff hand": ["Night Walk"], "hufflepuff deck": ["Quick Jinx"],
                    "events_white": ["Prefects on Patrol", "A Quiet Week"]})
    pick(s, "replenish")
    pick(s, "do not choose")
    assert zone(s, "hufflepuff hand") == ["Night Walk", "Quick Jinx"] or sorted(zone(s, "hufflepuff hand")) == ["Night Walk", "Quick Jinx"]


def test_reactive_card_offered_when_bumped():
    """House Player Turn > Card Effects: 'When the condition of the effect is met, they can
    be played from a House Player's hand - resolving the effect immediately'.
    Invisibility Cloak (bumping) is offered to Gryffindor on the Dark Arts turn."""
    s = dpos(hp=1, at="dark_turn", pieces={"gryffindor student 1": "the_white_tomb"},
             zones={"dark_arts hand": ["Lurking Shade"], "gryffindor hand": ["Invisibility Cloak"]})
    dark_card_move(s, "Lurking Shade", "dark_arts dark_pawn 2")
    pick(s, "to the_white_tomb")
    if s.current_player() == 0 and find(s, "bump gryffindor"):
        pick(s, "bump gryffindor")
    assert s.current_player() == 1 and find(s, "Invisibility Cloak"), labels(s)
    pick(s, "Invisibility Cloak")
    assert where(s, "gryffindor student 1") == "the_white_tomb"
    assert "Invisibility Cloak" in zone(s, "gryffindor discard")


def test_confundo_skips_next_turn():
    """Glossary, Skip: 'if the Dark Arts Player uses the Confundo card, they can force a
    House Player to skip their turn.'"""
    s = dpos(hp=2, at="dark_turn", zones={"dark_arts hand": ["Confundo"],
                                          "gryffindor hand": ["Night Walk"], "hufflepuff hand": ["Night Walk"]})
    pick(s, "explore")
    pick(s, "play Confundo")
    pick(s, "resolve the effect of Confundo, then move")
    m = find(s, "gryffindor")
    s.apply_action_id(m[0]["id"])
    finish_turn(s, 0)
    assert s.current_player() == 2


def test_house_cannot_replenish_after_last_space():
    """Dark Arts Path: 'all players draw up to 5 cards and cannot Replenish again.'"""
    s = dpos(hp=1, vars={"path": 18, "final_phase": True, "giant_taken": True, "acromantula_taken": True,
                         "dementor_taken": True, "pawns_needed": 1},
             zones={"gryffindor hand": ["House Pride", "Night Walk"], "dark_target": ["Target Astronomy Tower"]})
    assert not has(s, "replenish")
    assert has(s, "explore")


def test_one_house_game_single_bump_takes_all_markers():
    """Bumped, Note: 'Once the Dark Arts Player has all the House Players' Markers, they
    must advance the Dark Arts Marker'.  With 1 House one bump is all of them."""
    s = dpos(hp=1, at="dark_turn", vars={"path": 2}, pieces={"gryffindor student 1": "the_white_tomb"},
             zones={"dark_arts hand": ["Lurking Shade"]})
    dark_card_move(s, "Lurking Shade", "dark_arts dark_pawn 2")
    pick(s, "to the_white_tomb")
    for _ in range(4):
        m = find(s, "bump") or find(s, "keep")
        if s.current_player() != 0 or not m:
            break
        s.apply_action_id(m[0]["id"])
    assert var(s, "path") == 3
    assert svar(s, "marker_taken", "gryffindor") is False


def test_leaving_a_zone_retires_its_event_cards():
    """Resolving an Event Card: 'Once the Dark Arts Marker moves from one colour zone to the
    next on the path, previous colour zone Event Cards cannot be used'."""
    s = dpos(hp=1, vars={"path": 6, "giant_taken": True},
             zones={"gryffindor hand": ["Night Walk"], "gryffindor deck": ["Quick Jinx", "House Pride", "Corridor Dash", "Study Group"]})
    pick(s, "replenish")
    pick(s, "do not choose")
    assert var(s, "path") == 7
    assert zone(s, "events_white") == []


def test_resolved_event_is_discarded():
    """Resolving an Event Card: 'After resolving an event, the Dark Arts Player discards the
    Event Card near the Event Card's Deck.'"""
    s = dpos(hp=1, vars={"path": 1},
             zones={"gryffindor hand": ["Night Walk"],
                    "gryffindor deck": ["Quick Jinx", "House Pride", "Corridor Dash", "Study Group", "Greenhouse Errand"],
                    "events_white": ["Prefects on Patrol", "A Quiet Week"]})
    pick(s, "replenish")
    pick(s, "do not choose")
    pick(s, "resolve the Dark Arts part")
    assert zone(s, "event_discard") == ["A Quiet Week"]
    assert zone(s, "events_white") == ["Prefects on Patrol"]


def test_loyalty_stops_at_final_space():
    """Hogwarts Loyalty Track: 'If a House Player reaches the final space ..., they stop
    moving'.  A 7-space track: House Pride at 7 stays at 7."""
    s = dpos(hp=1, zones={"gryffindor hand": ["House Pride"]},
             vars={"detector": "gryffindor", "room_open": True, "five_order": 1},
             side_vars={"loyalty": {"gryffindor": 7}, "reached_five": {"gryffindor": 1}})
    pick(s, "explore: play a card")
    pick(s, "play House Pride")
    pick(s, "resolve the effect of House Pride, then move")
    assert svar(s, "loyalty", "gryffindor") == 7


def test_shield_returns_scroll_and_coin_to_supply():
    """Glossary, Relinquish: 'A component is relinquished when it is removed from ... their
    Player Board Items area and returned to its original location'.  Scroll and Coin go
    back to their supplies."""
    s = dpos(hp=1, pieces={"gryffindor student 1": "dungeons"},
             vars={"coins_left": 3, "scrolls_left": 7},
             zones={"gryffindor hand": ["House Pride"], "gryffindor book": ["Hogwarts, A History"]},
             side_vars={"scrolls": {"gryffindor": 1}, "coin": {"gryffindor": True}})
    house_move(s, "House Pride", "gryffindor student 1")
    pick(s, "to boathouse")
    pick(s, "exchange")
    assert var(s, "coins_left") == 4
    assert var(s, "scrolls_left") == 8


def test_token_swap_on_landing():
    """Hogwarts Tokens: 'They must place that token back on its original space if they wish
    to take another one.'  Holding Charms, landing on Potions: put back and take."""
    s = dpos(hp=1, pieces={"charms_token": None, "gryffindor student 1": "dungeons"},
             piece_vars={"holder_side": {"charms_token": "gryffindor"}},
             zones={"gryffindor hand": ["House Pride"]})
    house_move(s, "House Pride", "gryffindor student 1")
    pick(s, "to potions_classroom")
    pick(s, "put back the charms_token and take the potions_token")
    assert where(s, "charms_token") == "charms_classroom"
    assert pvar(s, "holder_side", "potions_token") == "gryffindor"
    assert where(s, "potions_token") is None


def test_dark_fly_off_goes_to_another_fly_off_point():
    """Fly Off Points: 'All pawns can fly from 1 Fly Off Point to any other'.  Broomstick
    Ambush (movement value 'Move to a Fly Off Point', usable in the White Zone) from the
    Viaduct: the Viaduct itself is not 'another' Fly Off Point (and would end the move
    where it started the turn, Glossary Backtrack)."""
    s = dpos(hp=1, at="dark_turn", pieces={"dark_arts dark_pawn 1": "viaduct"},
             zones={"dark_arts hand": ["Broomstick Ambush"]})
    pick(s, "explore")
    pick(s, "play Broomstick Ambush")
    pick(s, "move with")
    pick(s, "fly dark_arts dark_pawn 1 from viaduct")
    flights = sorted(o["args"]["to"] for o in s.options() if "flies to" in o["label"])
    assert flights == ["astronomy_tower", "owlery", "quidditch_pitch"], flights


def test_reactive_card_played_on_own_turn_is_movement_only():
    """House Player Turn > Card Effects: Reactive cards 'can be played in 2 ways: 1. They
    can be played like any other card for their movement value ... - avoiding the effect
    entirely OR 2. When the condition of the effect is met ...'.  On one's own Explore
    (no bump, no Dark Arts card aimed) Invisibility Cloak offers no effect."""
    s = dpos(hp=1, zones={"gryffindor hand": ["Invisibility Cloak"]})
    pick(s, "explore: play a card")
    pick(s, "play Invisibility Cloak")
    assert not any("resolve the effect" in l for l in labels(s)), labels(s)


def test_a_dark_pawn_that_does_not_move_bumps_nobody():
    """Dark Arts Player Turn > Bumped: "When a Dark Arts Pawn ends its move on a space occupied
    by a House Player Pawn, the House Player Pawn is bumped." A pawn chosen to move that then
    stays where it is (a Stunning push left it beside a House pawn, ruling 11) ends no move:
    no bump (found by a second outside examiner)."""
    s = dpos(hp=1, at="dark_turn", pieces={"dark_arts dark_pawn 1": "greenhouses", "gryffindor student 2": "greenhouses"},
             zones={"dark_arts hand": ["Lurking Shade"]})
    dark_card_move(s, "Lurking Shade", "dark_arts dark_pawn 1")
    pick(s, "do not choose")                       # every destination declined: it does not move
    assert where(s, "dark_arts dark_pawn 1") == "greenhouses"
    assert where(s, "gryffindor student 2") == "greenhouses"
    assert not has(s, "bump"), labels(s)


def test_the_bump_reward_is_earned_again_in_a_later_turn():
    """Dark Arts Player Turn > Bumped, step 4, Note: "This step is resolved once per turn, even
    if multiple bumps have occurred during that turn." A bump on a House Player's turn (an
    Event's Dark Arts part deploys onto a House pawn) earns the reward, though the Dark Arts
    Player took it on its own turn before (bump_reward_done still set from then)."""
    events = ["Strange Lights over the Forest", "Rumours in the Corridors", "A Quiet Week",
              "Giants in the Mountains", "Prefects on Patrol"]
    s = start(at="house_turn", seed=1, current="gryffindor",
              pieces={"dark_arts dark_pawn 1": "paddock", "hufflepuff student 1": "pumpkin_patch"},
              zones={"events_white": events}, vars={"bump_reward_done": True})
    pick(s, "replenish")
    pick(s, "do not choose")                       # no discard before drawing
    for _ in range(40):                            # the Event: its Dark Arts part deploys and bumps
        if any(label.startswith("keep") for label in labels(s)) or s.is_terminal():
            break
        wanted = [w for w in ("resolve the Dark Arts part", "deploy", "bump") if has(s, w)]
        pick(s, wanted[0] if wanted else labels(s)[0], exact=not wanted)
    assert where(s, "hufflepuff student 1") == "great_hall"
    assert any(label.startswith("keep") for label in labels(s)), labels(s)
