"""Sphinx configuration of the Lumos documentation.

Build with:  sphinx-build -W -b html docs docs/_build/html
(needs the `docs` extra: Sphinx and myst-parser, so the Markdown pages are read).

The `lumos.reference` extension (lumos/reference/) generates the rules reference of
each game (docs/reference/) from its compiled rules and cards, checks the `lumos`
cross-reference roles, and registers the Pygments lexer that colours ```lumos blocks.
"""
from __future__ import annotations

project = "Lumos"
author = "the Lumos maintainers"
copyright = "the Lumos maintainers"

extensions = ["myst_parser", "lumos.reference"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

# `[text](#some-heading)` links inside a page and across pages.
myst_heading_anchors = 3
myst_enable_extensions = ["deflist"]

html_theme = "alabaster"
html_title = "Lumos"
html_static_path: list[str] = []
pygments_style = "sphinx"
