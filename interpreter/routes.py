"""A start and an end on the board -> the spaces of one shortest path between them: the
spaces a move passes (the rules keep them to forbid passing them again in the same turn).

Why a path and not every space of every shortest path: a player moves along one route; when
several are shortest, the one taken is the first in the board's order of links (breadth
first), so the same move always passes the same spaces. Knows no game.
"""
from __future__ import annotations


def shortest_route(machine, start, end, link: str, through, local, tslot: int) -> tuple:
    """The spaces after `start` up to `end` (included) of the first shortest path along `link`
    whose inside spaces meet `through` (tested with the space in local slot `tslot`); () when
    `end` cannot be reached, or is `start`, or either is none."""
    if start is None or end is None or start == end:
        return ()
    nbrs = machine.board.links[link]
    came = {start: None}
    ring = [start]
    while ring:
        following = []
        for here in ring:
            for nxt in nbrs[here]:
                if nxt in came:
                    continue
                came[nxt] = here
                if nxt == end:
                    path = [end]
                    while came[path[-1]] != start:
                        path.append(came[path[-1]])
                    return tuple(reversed(path))
                if through is not None:
                    local[tslot] = nxt
                    if not through(machine, local):
                        continue
                following.append(nxt)
        ring = following
    return ()
