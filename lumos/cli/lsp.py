"""`lumos lsp`: the language server on stdin/stdout (needs the lsp extra); `--vscode DIR`
writes a VS Code extension folder that colours the language (no server, no extra needed)."""
from __future__ import annotations

from pathlib import Path

from lumos.cli.common import UsageError


def register(sub) -> None:
    """Add `lumos lsp` and its arguments to the sub-command parsers."""
    s = sub.add_parser("lsp", help="run a language server: lumos check problems in the editor",
                       description="A Language Server Protocol server on stdin/stdout: when a rules or card "
                                   "file is opened, changed or saved, the editor shows the problems `lumos check` "
                                   "finds in its game; hover, go to definition, completion and quick fixes help "
                                   "while typing. Needs pygls (pip install 'lumos-games[lsp]').")
    s.add_argument("--vscode", metavar="DIR", type=Path,
                   help="write a VS Code extension that colours .lumos files and card effects into DIR "
                        "(copy it to ~/.vscode/extensions/) and stop")
    s.set_defaults(func=run)


def run(args) -> int:
    if getattr(args, "vscode", None) is not None:
        from lumos.editor.textmate import write_vscode_extension
        for path in write_vscode_extension(args.vscode):
            print(path)
        return 0
    try:
        import pygls  # noqa: F401
    except ImportError:
        raise UsageError("`lumos lsp` needs pygls: pip install 'lumos-games[lsp]'") from None
    from lumos.editor.lsp import serve
    return serve()
