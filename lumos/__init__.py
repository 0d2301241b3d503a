"""Lumos: a rules language, compiler and interpreter for wizarding board games.

In: a game written in the language (`rules/<game>/`) and its cards (`cards/<game>/`). Out:
games you can check, play, simulate, replay and publish. The engine is lumos.compiler and
lumos.interpreter (both report through lumos.diagnostics); the public API is lumos.api;
the tools sit in one sub-package each: lumos.cli (the `lumos` command, one module per
sub-command), lumos.reference (English and the Sphinx rules reference), lumos.editor (the
language server, the Pygments lexer, editor schemas), lumos.toolkit (expansions,
`lumos explain`, card skeletons).
"""
__version__ = "0.1.0"

# Installed, compiler/, interpreter/, grammar/, rules/ and cards/ are sub-packages of `lumos`
# (pyproject.toml's package-dir). In a source checkout they sit beside this folder: when the
# checkout's `lumos/` is the one imported (`python -m lumos` run in the checkout's root), its
# sub-packages are found there too, so it never mixes with an installed copy.
def _checkout_root():
    from pathlib import Path
    here = Path(__file__).resolve().parent
    root = here.parent
    if not (here / "compiler").is_dir() and (root / "compiler" / "__init__.py").is_file() \
            and (root / "pyproject.toml").is_file():
        return str(root)
    return None


if _checkout_root() is not None:
    __path__.append(_checkout_root())  # noqa: F821 - a package's own __path__
