"""Rules and card files being edited -> what an editor shows: the language server, the
Pygments lexer, and the JSON Schemas editors validate card files with.

In: the text of `.lumos` rules files and card YAML (saved or still in the editor). Out:
diagnostics as LSP messages (lsp, `lumos lsp`), coloured tokens (lexer, registered as the
Pygments lexer `lumos`), and self-contained card schemas for YAML editors (schemas,
`lumos schema`). Nothing here changes a game: every check is the compiler's.
"""
