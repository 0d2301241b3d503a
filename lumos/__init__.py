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
