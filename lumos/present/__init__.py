"""A game in progress -> words and groups for people: the front ends' shared plumbing.

In: a `GameState` (or a position written for one side). Out: plain data a person reads
without knowing the engine: status lines in names and numbers (no internal variables,
no `False`), options grouped by their piece or action and then by where, the
consequences an option has (a knock-off), a card's text, and why a card in hand cannot
be played now. `lumos play` (the terminal) and `lumos view` (the browser) both use it,
so the two say the same things the same way. Nothing here knows a game: what to show is
decided from what the rules declare (kinds of variables, the rulebook sections they
cite) and from the options as data.
"""
from lumos.present.status import status_lines, side_status
from lumos.present.options import group_options, option_text
from lumos.present.cards import card_text, unplayable_cards, find_card

__all__ = ["status_lines", "side_status", "group_options", "option_text", "card_text", "unplayable_cards",
           "find_card"]
