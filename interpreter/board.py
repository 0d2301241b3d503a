"""Compiled board data -> constant-time questions the engine asks during play.

Why this exists: the rules ask "which spaces are diagonal neighbours of b5?", "how
far is t6 from t1 along the track?", "is this space in that region?" thousands
of times per game. The compiler (`lumos.compiler.boards`) answers all of them once,
with networkx, and stores the answers here as plain tuples, dicts and frozensets.
The interpreter only indexes into them, never imports networkx, and can share one
`Board` between every state of a compiled game (it is immutable and pickles).

Spaces are numbered 0..n-1; `index` maps names to numbers. A link kind names one
way of moving (`orthogonal`, `diagonal`, `track`, ...); a union kind such as
`adjacent` is every link of its member kinds. Distances count hops along one link
kind, -1 when there is no path.

>>> b = Board.from_parts("tiny", ["a1", "b1", "c1"], [{"x": 0, "y": 1}, {"x": 1, "y": 1},
...     {"x": 2, "y": 1}], {"row": [(0, 1), (1, 2)]}, {"ends": {0, 2}})
>>> b.neighbours(b.index["b1"], "row"), b.distance(0, 2, "row"), b.step(0, 2, 0)
((0, 2), 2, 2)
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

_EMPTY: tuple = ()


@dataclass(frozen=True)
class Board:
    """One board: spaces, their attributes, links by kind, regions and distances.

    The mappings are plain dicts so the board pickles; treat them as read-only."""

    name: str
    spaces: tuple[str, ...]
    index: Mapping[str, int]
    attrs: tuple[Mapping[str, object], ...]
    links: Mapping[str, tuple[tuple[int, ...], ...]]
    regions: Mapping[str, frozenset[int]]
    positions: tuple[tuple[float, float], ...]
    distances: Mapping[str, tuple[tuple[int, ...], ...]]
    palette: Mapping[str, str] = field(default_factory=dict)
    # (x, y) -> index for grid spaces, so `step` is one dict lookup.
    cells: Mapping[tuple[int, int], int] = field(default_factory=dict)
    # union kind -> the member link kinds it was made from (e.g. adjacent).
    unions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # space -> how many pieces may stand on it (0: no limit); empty: one piece per space.
    capacity: tuple[int, ...] = ()
    # how the board is drawn (the board file's checked `layout:`, plain data); {}: drawn from positions
    layout: Mapping[str, object] = field(default_factory=dict)

    def __hash__(self) -> int:  # dict fields are unhashable; name + spaces identify a board
        return hash((self.name, self.spaces))

    def __len__(self) -> int:
        return len(self.spaces)

    # -- questions the engine asks -------------------------------------------------

    def neighbours(self, i: int, kind: str) -> tuple[int, ...]:
        """Sorted indices one `kind` link away from space `i`."""
        return self.links[kind][i]

    def distance(self, a: int, b: int, kind: str) -> int:
        """Fewest `kind` links from `a` to `b`; -1 when `b` cannot be reached."""
        return self.distances[kind][a][b]

    def in_region(self, i: int, region: str) -> bool:
        """Whether space `i` belongs to the named region (unknown regions are empty)."""
        return i in self.regions.get(region, _EMPTY)

    def attr(self, i: int, name: str, default: object = None) -> object:
        """Attribute `name` of space `i` (e.g. colour, row), or `default`."""
        return self.attrs[i].get(name, default)

    def step(self, i: int, dx: int, dy: int) -> int:
        """The grid space offset by (dx, dy) from grid space `i`, or -1 (off the grid,
        a hole in the map, or `i` is not a grid space)."""
        a = self.attrs[i]
        if "x" not in a or "y" not in a:
            return -1
        return self.cells.get((a["x"] + dx, a["y"] + dy), -1)

    def holds(self, i: int) -> int:
        """How many pieces may stand on space `i` at once; 0 means no limit."""
        return self.capacity[i] if self.capacity else 1

    def regions_of(self, i: int) -> tuple[str, ...]:
        """Names of the regions holding space `i`, sorted."""
        return tuple(sorted(r for r, members in self.regions.items() if i in members))

    # -- construction ----------------------------------------------------------------

    @classmethod
    def from_parts(cls, name: str, spaces: Sequence[str],
                   attrs: Sequence[Mapping[str, object]],
                   edges: Mapping[str, Iterable[tuple[int, int]]],
                   regions: Mapping[str, Iterable[int]] | None = None,
                   positions: Sequence[tuple[float, float]] | None = None,
                   palette: Mapping[str, str] | None = None,
                   unions: Mapping[str, Sequence[str]] | None = None,
                   distances: Mapping[str, Sequence[Sequence[int]]] | None = None,
                   capacity: Sequence[int] | None = None,
                   layout: Mapping[str, object] | None = None) -> "Board":
        """Build a board from undirected edge lists per kind.

        Distances are computed here by breadth-first search unless the caller
        (the compiler) passes them in; unions are added as link kinds."""
        n = len(spaces)
        adjacency = {kind: _adjacency(n, pairs) for kind, pairs in edges.items()}
        for union, members in (unions or {}).items():
            adjacency[union] = tuple(
                tuple(sorted(set().union(*(adjacency[m][i] for m in members))))
                for i in range(n))
        if distances is None:
            distances = {kind: _all_pairs(adj) for kind, adj in adjacency.items()}
        attrs = tuple(dict(a) for a in attrs)
        cells = {(a["x"], a["y"]): i for i, a in enumerate(attrs) if "x" in a and "y" in a}
        return cls(
            name=name, spaces=tuple(spaces), index={s: i for i, s in enumerate(spaces)},
            attrs=attrs, links=adjacency,
            regions={r: frozenset(m) for r, m in (regions or {}).items()},
            positions=tuple((float(x), float(y)) for x, y in (positions or [(0.0, 0.0)] * n)),
            distances={k: tuple(tuple(row) for row in d) for k, d in distances.items()},
            palette=dict(palette or {}), cells=cells,
            unions={u: tuple(m) for u, m in (unions or {}).items()},
            capacity=tuple(capacity) if capacity and any(c != 1 for c in capacity) else (),
            layout=dict(layout or {}))


    # -- as plain data (the compiler's on-disk cache stores boards as JSON, never pickles) ----

    def as_data(self) -> dict:
        """The board as JSON-able lists, dicts, texts and numbers; `from_data` rebuilds it."""
        return {"name": self.name, "spaces": list(self.spaces), "attrs": [dict(a) for a in self.attrs],
                "links": {k: [list(r) for r in v] for k, v in self.links.items()},
                "regions": {r: sorted(m) for r, m in self.regions.items()},
                "positions": [list(p) for p in self.positions],
                "distances": {k: [list(r) for r in v] for k, v in self.distances.items()},
                "palette": dict(self.palette), "cells": [[x, y, i] for (x, y), i in self.cells.items()],
                "unions": {u: list(m) for u, m in self.unions.items()}, "capacity": list(self.capacity),
                "layout": self.layout}

    @classmethod
    def from_data(cls, d: Mapping) -> "Board":
        """The board `as_data` wrote; any missing or mistyped part raises (KeyError, TypeError, ValueError)."""
        spaces = tuple(str(s) for s in d["spaces"])
        return cls(
            name=str(d["name"]), spaces=spaces, index={s: i for i, s in enumerate(spaces)},
            attrs=tuple(dict(a) for a in d["attrs"]),
            links={str(k): tuple(tuple(int(j) for j in r) for r in v) for k, v in d["links"].items()},
            regions={str(r): frozenset(int(i) for i in m) for r, m in d["regions"].items()},
            positions=tuple((float(x), float(y)) for x, y in d["positions"]),
            distances={str(k): tuple(tuple(int(j) for j in r) for r in v) for k, v in d["distances"].items()},
            palette={str(k): str(v) for k, v in d["palette"].items()},
            cells={(x, y): int(i) for x, y, i in d["cells"]},
            unions={str(u): tuple(str(m) for m in ms) for u, ms in d["unions"].items()},
            capacity=tuple(int(c) for c in d["capacity"]), layout=dict(d["layout"]))


def _adjacency(n: int, pairs: Iterable[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
    out: list[set[int]] = [set() for _ in range(n)]
    for a, b in pairs:
        out[a].add(b)
        out[b].add(a)
    return tuple(tuple(sorted(s)) for s in out)


def _all_pairs(adj: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """Hop counts by breadth-first search; a fallback for boards built without networkx."""
    n = len(adj)
    rows = []
    for src in range(n):
        dist = [-1] * n
        dist[src] = 0
        queue = deque([src])
        while queue:
            here = queue.popleft()
            for there in adj[here]:
                if dist[there] < 0:
                    dist[there] = dist[here] + 1
                    queue.append(there)
        rows.append(tuple(dist))
    return tuple(rows)
