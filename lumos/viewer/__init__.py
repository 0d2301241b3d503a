"""A game log, or a game being played, -> a page in the browser, served from this machine only.

In: a compiled game and a log (or a seed, to play live against an agent). Out: a local
web page (`lumos view`): the board with its pieces, a timeline of the decisions to step
back and forth, the log beside it with the rule and rulebook section behind each event,
the options offered at each step, and the hands as one side sees them, with links from
rules and cards to the rules reference.

Hidden information holds by construction: the page asks the server for one side's data
at a time, and that data is made from `GameState.position(for_side=...)` and the events
as that side may read them (steps.py), so what a side cannot see is never sent to it.
Nothing is downloaded when the page runs: its HTML, script and style are package data.
"""
from lumos.viewer.steps import side_data, log_history
from lumos.viewer.server import LiveGame, LogGame, make_server, serve

__all__ = ["side_data", "log_history", "LogGame", "LiveGame", "make_server", "serve"]
