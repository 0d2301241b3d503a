"""Helpers of the second outside examiner's checks (tests/test_examiner2_*.py): positions read by
`load_position`, options picked by words of their label."""
import lumos.api as a
G={}
def game(n):
    if n not in G: G[n]=a.load_game(n)
    return G[n]
def pos(n, d):
    d=dict(d); d['game']=n; return a.load_position(game(n), d)
def labels(s): return [o['label'] for o in s.options()]
def pick(s, sub, exact=False):
    os=s.options()
    m=[o for o in os if (o['label']==sub if exact else sub in o['label'])]
    assert m, f"no option {sub!r} in {[o['label'] for o in os]}"
    s.apply_action_id(m[0]['id']); return m[0]
def run(s, seq, show=False):
    for x in seq:
        if show: print(labels(s))
        pick(s, x)
