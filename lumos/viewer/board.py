"""A compiled game and a position -> the SVG drawing of the board that the viewer shows.

The one place the viewer asks for a board picture: the same drawing as the rules reference
and `lumos board --position` (lumos.reference.boards.render_svg), pieces included, made
from the position written for the side the page shows.
"""
from __future__ import annotations


def board_svg(cg, position: dict | None = None) -> str:
    """The board as SVG, with the pieces of `position` when one is given."""
    from lumos.reference.boards import render_svg
    return render_svg(cg, position)
