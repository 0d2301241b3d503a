"""A game's declarations (and its board) -> what each of its names is, so the English can say
it and link it (lumos.reference.english uses it; so do the explainer and the text checks)."""
from __future__ import annotations

from typing import Iterable

from lumos.compiler import nodes as N
from lumos.reference.markup import mark

_RULE_KINDS = ("option", "die", "var", "const", "zone", "window", "phase", "function", "procedure")


class Vocabulary:
    """What each name of a game is, so the English can say it and link it.

    Made from the declarations of the game's rules files (and, when known, the board's
    spaces, regions and link kinds)."""

    def __init__(self, decls: Iterable[N.Decl] = (), board=None):
        self.what: dict[str, str] = {}
        self.sides: tuple[str, ...] = ()
        self.dice: dict[str, tuple[N.Expr, ...]] = {}
        self.windows: set[str] = set()
        self.procedures: set[str] = set()
        self.phrases: dict[str, N.Decl] = {}   # name -> the declaration whose `says` gives its English
        self.flags: set[str] = set()           # variables that hold true or false
        self.zones: set[str] = set()
        self.decls: dict[str, N.Decl] = {}     # name -> its declaration (for `describe`)
        for d in decls:
            if isinstance(getattr(d, "name", None), str):
                self.decls.setdefault(d.name, d)
            getattr(self, "_" + type(d).__name__, self._other)(d)
            if getattr(d, "phrase", None) is not None and getattr(d, "name", None):
                self.phrases[d.name] = d
            if isinstance(d, N.Var) and (d.type == "flag" or isinstance(d.init, N.Bool)):
                self.flags.add(d.name)
            if isinstance(d, N.Zone):
                self.zones.add(d.name)
        if board is not None:
            for s in board.spaces:
                self.what.setdefault(s, "space")
            for r in board.regions:
                self.what.setdefault(r, "region")
            for k in list(board.links) + list(getattr(board, "unions", {})):
                self.what.setdefault(k, "link")

    def _other(self, d) -> None:
        name = getattr(d, "name", None)
        if isinstance(d, (N.Option, N.Var, N.Const, N.Zone, N.Window, N.Phase, N.Function, N.Procedure)):
            self.what[name] = "rule"
        elif isinstance(d, N.Action):
            self.what[name] = "action"

    def _Sides(self, d) -> None:
        self.sides = d.names
        for s in d.names:
            self.what[s] = "side"

    def _Kinds(self, d) -> None:
        for k in d.names:
            self.what[k] = "kind"

    def _NeutralPieces(self, d) -> None:
        for p in d.names:
            self.what[p] = "piece"

    def _Die(self, d) -> None:
        self.dice[d.name] = d.faces
        self.what[d.name] = "rule"

    def _Window(self, d) -> None:
        self.windows.add(d.name)
        self.what[d.name] = "rule"

    def _Procedure(self, d) -> None:
        self.procedures.add(d.name)
        self.what[d.name] = "rule"

    def name(self, name: str) -> str | None:
        """A marker for a declared name, or None for a name given inside a rule."""
        what = self.what.get(name)
        if what in ("rule", "action"):
            return mark(what, name)
        if what is not None:
            return mark("lit", name)
        return None
