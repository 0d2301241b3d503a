"""A CompiledGame and a seed -> a game you can step: state, legal options, chance, returns.

In: `lumos.interpreter.program.CompiledGame` (made by lumos.compiler). Out: `engine.GameState`
(the OpenSpiel-shaped API), per-side observations (observe), agents that choose (agents), the
driver that plays a game with them (play), and JSON Lines logs that replay (log). State is
plain data (state) run by the machine (machine); it never imports the compiler or Lark.
"""
