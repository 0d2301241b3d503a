"""Rule checks for the Chamber of Secrets Trivia Game by a second outside examiner, from the
rulebook, the rulings page and the public API only. Each cites its rulebook section."""
from games.examiner2 import *  # noqa: F403
N = 'chamber-of-secrets-trivia'

def P(pieces, seed=2, cur='gryffindor', score=None, **kw):
    base = {'slytherin chaser': 's_chaser'}
    base.update(pieces)
    d = {'at': {'start_of': 'take_turn'}, 'current': cur, 'seed': seed, 'pieces': base}
    if score: d['side_vars'] = {'score': score}
    d.update(kw)
    return pos(N, d)

def snitch(s): return s.position()['pieces']['snitch']

def to_defence(s):
    """move the snitch as attacker (first option) until defender menu appears"""
    for _ in range(5):
        L = labels(s)
        if any('defend' in l for l in L): return L
        if any('Golden Snitch to' in l for l in L): pick(s, 'Golden Snitch to'); continue
        return L
    return labels(s)

# "The Golden Snitch": Success means you capture the Snitch, earn 150 points, and end the game.
def test_catch_ends_game_most_points_wins():
    s = P({'snitch': 'release', 'gryffindor seeker': 'f8'}, score={'gryffindor': 0, 'slytherin': 160})
    run(s, ['roll 1', 'to e7', 'Golden Snitch question', 'right'])
    assert s.is_terminal()
    assert s.position()['side_vars']['score']['gryffindor'] == 150
    assert s.winner() == 1

# "1. Roll and Move": You must move a Mover in order to answer a question with it
def test_unmoved_seeker_next_to_snitch_cannot_answer():
    s = P({'snitch': 'release', 'gryffindor seeker': 'e7', 'gryffindor chaser': 'h2'})
    pick(s, 'roll 1'); pick(s, 'gryffindor chaser from h2')
    assert not any('Snitch question' in l for l in labels(s))

# "The Golden Snitch": Failure means the Snitch remains in play... their turn ends.
def test_wrong_snitch_answer_turn_passes_snitch_stays():
    for seed in range(1, 8):
        s = P({'snitch': 'release', 'gryffindor seeker': 'f8'}, seed=seed)
        run(s, ['roll 1', 'to e7', 'Golden Snitch question', 'wrong'])
        assert not s.is_terminal()
        while any('Golden Snitch to' in l for l in labels(s)):
            assert s.current_player() == 0
            pick(s, 'Golden Snitch to')
        assert labels(s)[0].startswith('roll')
        assert s.position()['at']['frames'][-1]['locals'][0] == 'slytherin' or s.position()['current'] == 'slytherin'

# "3. Defense": Keeper on its Keeper Space only
def test_keeper_off_keeper_space_cannot_defend():
    s = P({'snitch': None, 'gryffindor chaser': 'd2', 'slytherin keeper': 'c12'})
    run(s, ['roll 1', 'to c3', 'Quaffle', 'right'])
    L = to_defence(s)
    assert not any('Keeper' in l for l in L)

# "3. Defense": a Beater anywhere on the field for a Beater question

def bludger_setup(sly_beater, seed=2):
    # light Bludger Spaces: a8? a=0 -> 0+8 even dark. Use board: row 5 'b F f B b F f B': a5 light b, e5 light b
    s = P({'snitch': None, 'gryffindor beater': 'b4', 'slytherin beater': sly_beater, 'slytherin keeper': 'f10'}, seed=seed)
    run(s, ['roll 1', 'from b4 to a5', 'Bludger'])
    return s

def test_bludger_targets_exclude_grounding_zone():
    s = bludger_setup('sz3')
    L = labels(s)
    assert L and not any('slytherin beater' in l for l in L), L
    assert any('slytherin keeper' in l for l in L), L

def test_beater_defence_offered_on_field_not_from_zone():
    s = bludger_setup('b9')
    pick(s, 'slytherin keeper'); pick(s, 'right')
    L = to_defence(s)
    assert any('Beater' in l for l in L), L
    s = bludger_setup('sz3')
    pick(s, 'slytherin keeper'); pick(s, 'right')
    L = to_defence(s)
    assert not any('Beater question' in l for l in L), L

def test_bludgered_mover_to_far_end_of_zone_wrong_beater():
    s = bludger_setup('b9')
    pick(s, 'slytherin keeper'); pick(s, 'right')
    to_defence(s); pick(s, 'Beater'); pick(s, 'wrong')
    while any('Golden Snitch to' in l for l in labels(s)): pick(s, 'Golden Snitch to')
    assert s.position()['pieces']['slytherin keeper'] == 'sz1'

# "3. Defense": If Team Two misses their Keeper question, Team One's Quaffle scores (10)
def test_keeper_miss_scores_10_keeper_right_blocks():
    for ans, pts in (('wrong', 10), ('right', 0)):
        s = P({'snitch': None, 'gryffindor chaser': 'd2'})
        run(s, ['roll 1', 'to c3', 'Quaffle', 'right'])
        to_defence(s); pick(s, 'Keeper'); pick(s, ans)
        while any('Golden Snitch to' in l for l in labels(s)): pick(s, 'Golden Snitch to')
        assert s.position()['side_vars']['score']['gryffindor'] == pts

# "3. Defense": Team One draws a card from the front of their box (defender's card from attacker's box)
def test_defence_card_from_attackers_box():
    s = P({'snitch': None, 'gryffindor chaser': 'd2'})
    run(s, ['roll 1', 'to c3', 'Quaffle', 'right'])
    to_defence(s); pick(s, 'Keeper')
    r = s.position()['zones']['reading']
    assert r and r[0].startswith('Red'), r

# "2. Offense": may only answer one question per turn -- after a defence and snitch, next turn is slytherin roll
def test_one_question_per_turn_after_quaffle():
    s = P({'snitch': None, 'gryffindor chaser': 'd2'})
    run(s, ['roll 1', 'to c3', 'Quaffle', 'wrong'])
    while any('Golden Snitch to' in l for l in labels(s)): pick(s, 'Golden Snitch to')
    L = labels(s)
    assert L[0].startswith('roll') and s.position()['current'] == 'slytherin', L

# "The Quidditch Movers > Chaser": only when on a Quaffle space; Beater not on Bludger Space cannot
def test_chaser_not_on_quaffle_space_no_question():
    s = P({'snitch': None, 'gryffindor chaser': 'd2'})
    run(s, ['roll 1', 'to e3'])
    assert not any('Quaffle' in l for l in labels(s))

# "1. Roll and Move": exact count, full number
def test_exact_count_from_start():
    s = P({'snitch': None})
    pick(s, 'roll 2')
    for l in labels(s):
        assert 'to a1' not in l and 'to c1' not in l and 'to e1' not in l and 'to g1' not in l

# Winning the Game: Snitch caught by trailing team; scores tie -> documented draw
def test_snitch_off_field_no_question():
    s = P({'snitch': None, 'gryffindor seeker': 'f8'})
    run(s, ['roll 1', 'to e7'])
    assert not any('Snitch question' in l for l in labels(s))

# "3. Defense": without a defence the Quaffle scores 10 (declined, or Keeper off its space)
def test_quaffle_scores_when_undefended():
    for keeper, decline in (('s_keeper', True), ('c12', False)):
        s = P({'snitch': None, 'gryffindor chaser': 'd2', 'slytherin keeper': keeper})
        run(s, ['roll 1', 'to c3', 'Quaffle', 'right'])
        L = to_defence(s)
        if decline: pick(s, 'do not defend')
        while any('Golden Snitch to' in l for l in labels(s)): pick(s, 'Golden Snitch to')
        assert s.position()['side_vars']['score']['gryffindor'] == 10

# "2. Offense": a Bludger hit on an undefended target goes to the Grounding Zone's far end
def test_bludger_without_rival_beater_on_field():
    s = bludger_setup('sz3')
    pick(s, 'slytherin keeper'); pick(s, 'right')
    to_defence(s)
    while any('Golden Snitch to' in l for l in labels(s)): pick(s, 'Golden Snitch to')
    assert s.position()['pieces']['slytherin keeper'] == 'sz1'

# "Using the Quaffle (Optional)": only a Chaser carrying the Quaffle answers; it returns to the release circle
def test_advanced_quaffle_needs_carry_and_returns():
    base = {'at': {'start_of': 'take_turn'}, 'current': 'gryffindor', 'seed': 2, 'options': {'advanced': 'on'}}
    s = pos(N, dict(base, pieces={'slytherin chaser': 's_chaser', 'gryffindor chaser': 'd2', 'quaffle': 'release', 'snitch': None}))
    pick(s, 'roll 1'); pick(s, 'to c3')
    assert not any('Quaffle question' in l for l in labels(s))
    s = pos(N, dict(base, pieces={'slytherin chaser': 's_chaser', 'gryffindor chaser': 'd2',
                                  'quaffle': {'carried_by': 'gryffindor chaser'}, 'snitch': None}))
    pick(s, 'roll 1'); pick(s, 'to c3'); pick(s, 'Quaffle'); pick(s, 'wrong')
    while any('Golden Snitch to' in l for l in labels(s)): pick(s, 'Golden Snitch to')
    assert s.position()['pieces']['quaffle'] == 'release'

# "The Quidditch Movers": only Chasers answer Quaffle questions; only Beaters Bludger questions
def test_only_chasers_quaffle_only_beaters_bludger():
    s = P({'snitch': None, 'gryffindor keeper': 'd2'})
    run(s, ['roll 1', 'gryffindor keeper from d2 to c3'])
    assert not any('question' in l.lower() and 'no question' not in l for l in labels(s)), labels(s)
    s = P({'snitch': None, 'gryffindor seeker': 'b4'})
    run(s, ['roll 1', 'gryffindor seeker from b4 to a5'])
    assert not any('Bludger' in l for l in labels(s)), labels(s)
