"""Compiled games -> their rules reference: the English renderer, the reference model, the
reStructuredText writer, the `lumos` Sphinx domain, and the `lumos docs` builder.

In: a game (bundled id or folder) and optional expansions. Out: reStructuredText pages and,
through Sphinx, HTML (components, sequence, actions, every card in the language and in
English, the board, and the rulebook coverage). As a Sphinx extension, add
``"lumos.reference"`` to ``extensions``. Only the domain and the builder import Sphinx, so
the English and the model work without the docs extra.

Modules: english (nodes -> English prose), markup (its name markers, numbered steps, plain
text and reStructuredText out), vocabulary (what each name of a game is), phrases (`says`
templates -> filled sentences), model (compiled game -> GameDoc), writer
(GameDoc -> reStructuredText), domain (Sphinx directives, roles, domain), build (`lumos docs`),
boards (compiled board + layout + position -> SVG/PNG, also used by `lumos board` and the viewer).
"""
from __future__ import annotations

from lumos.reference.model import GameDoc, ReferenceError, card_files, game_doc, load_sections, match_section, \
    toc_sections
from lumos.reference.boards import render_png, render_svg
from lumos.reference.writer import coverage_rst, game_rst

__all__ = ["GameDoc", "ReferenceError", "build_docs", "card_files", "coverage_rst", "game_doc", "game_rst",
           "load_sections", "match_section", "render_png", "render_svg", "setup", "toc_sections"]


def setup(app) -> dict:
    """The Sphinx extension entry point (lumos.reference.domain.setup; imports Sphinx only now)."""
    from lumos.reference.domain import setup as setup_domain
    return setup_domain(app)


def build_docs(out_dir=None, with_paths=()) -> int:
    """`lumos docs`: lumos.reference.build.build_docs (imports Sphinx only now)."""
    from lumos.reference.build import build_docs as build
    return build(out_dir, with_paths)
