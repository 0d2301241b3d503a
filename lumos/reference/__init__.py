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

import importlib

# name -> the module that defines it: imported on first use, so that a tool needing only the
# English (`lumos check`'s W330) does not load the board drawing and the page writer as well
_LAZY = {"GameDoc": "model", "ReferenceError": "model", "card_files": "model", "game_doc": "model",
         "load_sections": "model", "match_section": "model", "toc_sections": "model",
         "render_png": "boards", "render_svg": "boards", "coverage_rst": "writer", "game_rst": "writer"}


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(f"lumos.reference.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'lumos.reference' has no attribute {name!r}")

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
