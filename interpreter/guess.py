"""A state and a side -> the same state with the cards that side cannot see dealt anew: the
guess agents that look ahead (greedy, mcts) play on, so they never read a hidden card.

Why apart from the agents: every agent that looks ahead needs the same guess, and it is the
one place where hidden information meets search (interpreter/visibility.py says who sees what).
"""
from __future__ import annotations

import random

from lumos.interpreter.visibility import card_seen, card_variables, rename_cards, zone_seen


def redeal_hidden(cg, st, side: int, rng: random.Random):
    """`st` with the cards `side` may not see dealt anew among the zones that hold them.

    Hidden zones and the other sides' `owner` zones keep their sizes; their cards are
    shuffled together and dealt back (a guess of the unseen cards, as a player makes),
    except those a variable that `side` sees shows it (interpreter/visibility.py). The
    variables and the locals of the running rules that named an unseen card name the card
    dealt into its place, and a variable whose card `side` may not see where it lies
    (declared `hidden`, or another side's `owner`) is given a card guessed from that place.
    So nothing of the guess depends on the cards `side` may not see. Returns `st`, changed
    in place."""
    ns = cg.nsides
    unseen = []
    for zid in range(len(st.zones)):
        owner = zid % ns
        if owner and zid // ns in cg.shared_zones:
            continue   # a shared zone lives under the first side's id
        if not zone_seen(cg, zid, side):
            unseen.append(zid)
    variables = list(card_variables(cg, st))
    known = set()     # unseen cards that a variable shows to `side`
    for _w, _i, owner, values, key, is_list, declared in variables:
        if declared is not None and values[key] is not None and card_seen(cg, st, 0, side, declared, owner):
            known.update(values[key] if is_list else (values[key],))
    places = [(zid, i) for zid in unseen for i, c in enumerate(st.zones[zid]) if c not in known]
    cards = sorted(st.zones[zid][i] for zid, i in places)   # how they lay does not matter
    mapping = {}
    if len(cards) >= 2:
        rng.shuffle(cards)
        for (zid, i), c in zip(places, cards):
            mapping[st.zones[zid][i]] = c
            st.zones[zid][i] = c
            st.card_zone[c] = zid
        rename_cards(cg, st, mapping)
    for _w, _i, owner, values, key, is_list, declared in variables:
        if declared is None or values[key] is None or card_seen(cg, st, 0, side, declared, owner):
            continue
        # which card it holds is not seen: a guess among the cards lying where each one lies
        picks = [_guess(cg, st, c, rng) if zone_seen(cg, st.card_zone[c], side) else c   # else: renamed above
                 for c in (values[key] if is_list else (values[key],))]
        values[key] = tuple(picks) if is_list else picks[0]
    return st


def _guess(cg, st, card: int, rng: random.Random) -> int:
    zid = st.card_zone[card]
    return rng.choice(sorted(st.zones[zid])) if zid >= 0 and st.zones[zid] else card
