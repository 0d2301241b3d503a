"""Rules files, a board and card files -> a CompiledGame for the interpreter, or diagnostics.

In: a game folder (`game.lumos` and the other `.lumos` files, `board.yaml`) and its card
YAML. Out: `lumos.interpreter.program.CompiledGame` (game.compile_game), or every problem
as `lumos.diagnostics.Diagnostic` (game.check_game), and the linter's warnings (lint).
Stages: parse (Lark) -> build_ast (nodes) -> scope and lower* (checks, then closures and
flat instruction lists); cards and yamlload (YAML with line marks, JSON Schema); boards
(networkx); teams (team files); analysis (what the rules say about cards, without playing).
The compiler imports the interpreter's program types; the interpreter never imports it.
"""
