"""Rule checks for Defenders of Hogwarts by a second outside examiner, from the rulebook, the
rulings page and the public API only. Each cites its rulebook section."""
from games.examiner2 import *  # noqa: F403
N = 'defenders-of-hogwarts'

def H(cur='gryffindor', seed=1, **kw):
    d = {'at': {'start_of': 'house_turn'}, 'current': cur, 'seed': seed}; d.update(kw)
    return pos(N, d)

def move(s, card, pawn, to):
    pick(s, 'explore'); pick(s, 'play ' + card); pick(s, 'move with')
    pick(s, 'move ' + pawn); pick(s, pawn + ' to ' + to, exact=True)

# Hogwarts Loyalty Track: "If, after moving their pawn, a House Player lands on the fifth space
# or higher ... and they are higher than anyone else ... they immediately gain the Dark Detector."
# Room of Requirement: revealed the first time any House Player reaches the fifth space.
def test_advanced_row_learn_advances_and_gives_detector_and_room():
    s = H(side_vars={'loyalty': {'gryffindor': 4}})
    pick(s, 'learn'); pick(s, 'discard 2 cards'); pick(s, 'discard Quick Jinx'); pick(s, 'discard Corridor Dash')
    pick(s, 'take Invisibility Cloak')
    p = s.position()
    assert p['side_vars']['loyalty']['gryffindor'] == 5
    assert p['vars']['detector'] == 'gryffindor' and p['vars']['room_open'] is True
    # House Player Turn > Learn: "Any acquired card is placed on the top of the ... Draw Deck"
    assert p['zones']['gryffindor deck'][-1] == 'Invisibility Cloak'
    assert sorted(p['zones']['gryffindor discard']) == ['Corridor Dash', 'Quick Jinx']

# Hogwarts Loyalty Track: the final space hand-over (Slytherin/Ravenclaw example)
def test_final_space_handover_drop_back_and_draw():
    s = H(side_vars={'loyalty': {'gryffindor': 6, 'hufflepuff': 7}, 'reached_five': {'hufflepuff': 1}},
          vars={'detector': 'hufflepuff', 'five_order': 1, 'room_open': True})
    before = len(s.position()['zones']['hufflepuff hand'])
    pick(s, 'learn'); pick(s, 'discard 2 cards'); pick(s, 'discard Quick Jinx'); pick(s, 'discard Corridor Dash')
    pick(s, 'take Invisibility Cloak')
    p = s.position()
    assert p['vars']['detector'] == 'gryffindor'
    assert p['side_vars']['loyalty']['hufflepuff'] == 6 and p['side_vars']['loyalty']['gryffindor'] == 7
    assert len(p['zones']['hufflepuff hand']) == before + 1

# Using the Dark Detector: drop back 3; passes directly to a player on the fifth space or higher
def test_relinquished_detector_passes_on():
    s = H(pieces={'gryffindor student 1': 'entrance_hall'}, zones={'gryffindor book': ['Hogwarts, A History']},
          side_vars={'loyalty': {'gryffindor': 6, 'hufflepuff': 5}, 'reached_five': {'gryffindor': 1, 'hufflepuff': 2},
                     'scrolls': {'gryffindor': 1}},
          vars={'detector': 'gryffindor', 'five_order': 2, 'room_open': True})
    move(s, 'Corridor Dash', 'gryffindor student 1', 'clock_tower'); pick(s, 'exchange')
    p = s.position()
    assert p['side_vars']['shields']['gryffindor'] == 1
    assert p['side_vars']['loyalty']['gryffindor'] == 3
    assert p['vars']['detector'] == 'hufflepuff' and p['vars']['room_open'] is True
    assert p['zones']['gryffindor book'] == [] and p['side_vars']['scrolls']['gryffindor'] == 0

# Room of Requirement: closes when all House pawns are below the fifth space; a pawn in it remains.
def test_room_closes_and_pawn_inside_stays():
    s = H(pieces={'gryffindor student 1': 'entrance_hall'}, zones={'gryffindor book': ['Hogwarts, A History']},
          side_vars={'loyalty': {'gryffindor': 5}, 'reached_five': {'gryffindor': 1}, 'scrolls': {'gryffindor': 1}},
          vars={'detector': 'gryffindor', 'five_order': 1, 'room_open': True})
    move(s, 'Corridor Dash', 'gryffindor student 1', 'clock_tower'); pick(s, 'exchange')
    p = s.position()
    assert p['vars']['room_open'] is False and p['vars']['detector'] is None
    s = H(pieces={'gryffindor student 1': 'room_of_requirement'}, vars={'room_open': False})
    pick(s, 'explore'); pick(s, 'play Corridor Dash'); pick(s, 'move with')
    assert not any('student 1' in l for l in labels(s))

# Room of Requirement: House Players who enter the Room gain a D.A. Coin
def test_room_gives_coin():
    s = H(pieces={'gryffindor student 1': 'seventh_floor'}, vars={'room_open': True},
          side_vars={'loyalty': {'hufflepuff': 5}})
    move(s, 'Corridor Dash', 'gryffindor student 1', 'room_of_requirement')
    assert s.position()['side_vars']['coin']['gryffindor'] is True

# Stunning: both pawns stunned; House Player moves the Dark Arts Pawn to an adjacent space
def test_stun_on_meeting():
    s = H(pieces={'gryffindor student 1': 'greenhouses'})
    move(s, 'Corridor Dash', 'gryffindor student 1', 'pumpkin_patch')
    L = labels(s)
    assert L and all(l.startswith('push dark_arts dark_pawn 1') for l in L)
    assert not any('hagrids_hut' in l for l in L)  # Protected Area
    pick(s, 'to greenhouses')
    p = s.position()
    assert p['pieces']['dark_arts dark_pawn 1'] == 'greenhouses'
    assert p['piece_vars']['stunned']['dark_arts dark_pawn 1'] and p['piece_vars']['stunned']['gryffindor student 1']

# Replenish: discard any, draw until 5, stand up, advance marker
def test_house_replenish():
    s = H(piece_vars={'stunned': {'gryffindor student 2': True}},
          zones={'events_white': ["Strange Lights over the Forest", "Rumours in the Corridors", "A Quiet Week", "Giants in the Mountains", "Prefects on Patrol"]})
    pick(s, 'replenish'); pick(s, 'discard Quick Jinx before'); pick(s, 'discard Corridor Dash before'); pick(s, 'do not choose')
    p = s.position()
    assert len(p['zones']['gryffindor hand']) == 5
    assert p['piece_vars']['stunned']['gryffindor student 2'] is False
    assert p['vars']['path'] >= 2

# Card Draw: empty Draw Deck -> shuffle the Discard Pile into a new deck
def test_bonus_draw_with_empty_deck_reshuffles_discard():
    s = H(zones={'gryffindor deck': [], 'gryffindor discard': ['Study Group', 'Night Walk']})
    move(s, 'Corridor Dash', 'gryffindor student 1', 'kitchens'); pick(s, 'draw a card')
    p = s.position()
    assert len(p['zones']['gryffindor hand']) == 5 and len(p['zones']['gryffindor deck']) == 1

# Play Again: House Players can take another turn
def test_play_again():
    s = H(pieces={'gryffindor student 1': 'entrance_hall'})
    move(s, 'Corridor Dash', 'gryffindor student 1', 'courtyard'); pick(s, 'play again'); pick(s, 'end the turn')
    assert s.current_player() == 1 and labels(s)[0].startswith('explore')

# Game End: a House Player wins when they have collected 2 Defence Shields
def test_second_shield_wins():
    s = H(cur='hufflepuff', pieces={'hufflepuff student 1': 'courtyard'}, zones={'hufflepuff book': ['Hogwarts, A History']},
          side_vars={'shields': {'hufflepuff': 1}, 'scrolls': {'hufflepuff': 1}, 'coin': {'hufflepuff': True}})
    move(s, 'Corridor Dash', 'hufflepuff student 1', 'stone_circle'); pick(s, 'exchange')
    assert s.is_terminal() and s.returns()[2] == 1.0 and s.returns()[0] == -1.0

# Game End: draw when all run out of cards after the last space
def test_draw_after_last_space():
    s = H(vars={'path': 18, 'giant_taken': True, 'acromantula_taken': True, 'dementor_taken': True, 'final_phase': True,
                'pawns_needed': 1},
          zones={'dark_target': ['Target Great Hall'], 'dark_arts hand': [], 'hufflepuff hand': [], 'gryffindor hand': []})
    assert not any(l.startswith('replenish') for l in labels(s))
    pick(s, 'end the turn')
    assert s.is_terminal() and all(r == 0 for r in s.returns())

# Dark Arts Path: last space -> all draw up to 5, cannot Replenish again
def test_last_space_draw_and_no_replenish():
    s = H(vars={'path': 17, 'giant_taken': True, 'acromantula_taken': True})
    pick(s, 'replenish'); pick(s, 'do not choose')
    while labels(s) != ['end the turn']:
        pick(s, labels(s)[0], exact=True)
    p = s.position()
    assert p['vars']['path'] == 18 and p['vars']['final_phase'] and p['vars']['pawns_needed'] == 1 and p['zones']['dark_target']
    pick(s, 'end the turn')
    assert not any(l.startswith('replenish') for l in labels(s))
# Bumped 2.-4.: pawn to the Great Hall, Dark pawn to the pool, House Marker taken; all Markers ->
# advance the Dark Arts Marker and return them; draw 2 from the Dark Arts Acquire Deck, keep 1 on top
def test_bump_all_markers_advance_and_reward():
    s = pos(N, {'at': {'start_of': 'dark_turn'}, 'current': 'dark_arts', 'seed': 1,
                'pieces': {'hufflepuff student 2': 'greenhouses'},
                'side_vars': {'marker_taken': {'gryffindor': True}},
                'zones': {'events_white': []}})
    acq = s.position()['zones']['dark_acquire']
    pick(s, 'explore'); pick(s, 'play Lurking Shade'); pick(s, 'move with'); pick(s, 'move a Dark Arts Pawn up to')
    pick(s, 'move dark_arts dark_pawn 1 (pumpkin_patch)'); pick(s, 'dark_arts dark_pawn 1 to greenhouses', exact=True)
    pick(s, 'bump hufflepuff student 2')
    while not labels(s)[0].startswith('keep'): pick(s, labels(s)[0], exact=True)
    L = labels(s)
    assert sorted(L) == sorted(['keep %s on the draw deck' % c for c in acq[-2:]]), (L, acq[-2:])
    pick(s, L[0], exact=True)
    p = s.position()
    assert p['pieces']['hufflepuff student 2'] == 'great_hall' and p['pieces']['dark_arts dark_pawn 1'] is None
    assert p['vars']['path'] == 2
    assert not any(v for k, v in p['side_vars']['marker_taken'].items())
    kept = L[0][len('keep '):-len(' on the draw deck')]
    assert p['zones']['dark_arts deck'][-1] == kept
    other = [c for c in acq[-2:] if c != kept][0]
    assert p['zones']['dark_acquire'][0] == other
# Game End: the Dark Arts Player wins with all 3 tokens and the required pawns on the location
def test_dark_arts_win_on_location():
    s = pos(N, {'at': {'start_of': 'dark_turn'}, 'current': 'dark_arts', 'seed': 1,
                'pieces': {'dark_arts dark_pawn 1': 'lake_shore', 'dark_arts dark_pawn 2': 'the_white_tomb'},
                'vars': {'path': 16, 'giant_taken': True, 'acromantula_taken': True, 'dementor_taken': True, 'pawns_needed': 2},
                'zones': {'dark_target': ['Target The White Tomb']}})
    pick(s, 'explore'); pick(s, 'play Lurking Shade'); pick(s, 'move with'); pick(s, 'move a Dark Arts Pawn up to')
    pick(s, 'move dark_arts dark_pawn 1 (lake_shore)'); pick(s, 'dark_arts dark_pawn 1 to the_white_tomb', exact=True)
    assert s.is_terminal() and s.returns()[0] == 1.0
