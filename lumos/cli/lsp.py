"""`lumos lsp`: the language server on stdin/stdout (needs the lsp extra)."""
from __future__ import annotations

from lumos.cli.common import UsageError


def register(sub) -> None:
    """Add `lumos lsp` and its arguments to the sub-command parsers."""
    s = sub.add_parser("lsp", help="run a language server: lumos check problems in the editor",
                       description="A Language Server Protocol server on stdin/stdout: when a rules or card "
                                   "file is opened, changed or saved, the editor shows the problems `lumos check` "
                                   "finds in its game. Needs pygls (pip install 'lumos-games[lsp]').")
    s.set_defaults(func=run)


def run(args) -> int:
    try:
        import pygls  # noqa: F401
    except ImportError:
        raise UsageError("`lumos lsp` needs pygls: pip install 'lumos-games[lsp]'") from None
    from lumos.editor.lsp import serve
    return serve()
