"""A compiled game -> the SVG drawing of its board that the viewer shows.

The one place the viewer asks for a board picture, so a better drawing (board layouts,
pieces drawn by the drawing itself) is taken up here alone. The page places the pieces
itself over the spaces the drawing marks with `data-space`.
"""
from __future__ import annotations


def board_svg(cg, position: dict | None = None) -> str:
    """The board as SVG; with a drawing that can draw pieces (`render_svg`), with them."""
    from lumos.compiler import boards
    render = getattr(boards, "render_svg", None)
    if render is not None:
        return render(cg, position=position)
    return boards.export_svg(cg.board)
