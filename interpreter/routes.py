"""A start and an end on the board -> the spaces every shortest path between them passes: the
spaces a move surely passed (the rules keep them to forbid passing them again in the turn).

Why every shortest path, and not one: a player moves along a route of their choice, and the
rules only know where the move ended. A space that every shortest route passes was passed;
one that some shortest route avoids may have been avoided, so it stays open (the benefit of
the doubt goes to the player). Knows no game.
"""
from __future__ import annotations


def _distances(machine, source, target, nbrs, through, local, tslot) -> dict:
    """Steps from `source` to each space along `nbrs` that a path may pass (it meets `through`)
    or end on (`target`)."""
    dist = {source: 0}
    barred = set()
    ring = [source]
    while ring:
        following = []
        for here in ring:
            for nxt in nbrs[here]:
                if nxt in dist or nxt in barred:
                    continue
                if nxt != target and through is not None:
                    local[tslot] = nxt
                    if not through(machine, local):
                        barred.add(nxt)
                        continue
                dist[nxt] = dist[here] + 1
                if nxt != target:
                    following.append(nxt)
        ring = following
    return dist


def sure_route(machine, start, end, link: str, through, local, tslot: int) -> tuple:
    """The spaces after `start` up to `end` (included) that every shortest path along `link`
    passes, in the order passed (inside spaces meet `through`, tested with the space in local
    slot `tslot`); () when `end` cannot be reached, or is `start`, or either is none."""
    if start is None or end is None or start == end:
        return ()
    nbrs = machine.board.links[link]
    ahead = _distances(machine, start, end, nbrs, through, local, tslot)
    if end not in ahead:
        return ()
    behind = _distances(machine, end, start, nbrs, through, local, tslot)
    total = ahead[end]
    levels: dict[int, list] = {}
    for space, d in ahead.items():
        if d > 0 and behind.get(space, total + 1) + d == total:
            levels.setdefault(d, []).append(space)
    return tuple(spaces[0] for d, spaces in sorted(levels.items()) if len(spaces) == 1)
