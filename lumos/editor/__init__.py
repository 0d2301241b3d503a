"""Rules and card files being edited -> what an editor shows: the language server, the
Pygments lexer, the TextMate grammars, and the JSON Schemas editors validate card files with.

In: the text of `.lumos` rules files and card YAML (saved or still in the editor). Out:
diagnostics, hover, definitions, completions and quick fixes as LSP messages (lsp, `lumos
lsp`, answered by features from the names symbols indexes), coloured tokens (lexer,
registered as the Pygments lexer `lumos`; textmate, the `*.tmLanguage.json` files beside
it), and self-contained card schemas for YAML editors (schemas, `lumos schema`). Nothing
here changes a game: every check is the compiler's.
"""
