"""Shared test support for every bundled game: builds games and tables, drives seeded games.

In: a game's name (or a small game written in a test, or test cards) and, from the game's
tests, what is its own (a Checker of its invariants, its choosing styles, its options).
Out: compiled games (`sources`), a `Table` to build situations on and read the options
(`table`), and seeded games traced, replayed, restored or played with checks after every
decision (`drivers`), so tests/test_determinism.py and tests/test_invariants.py run the same
drivers over every game. Nothing here knows a game: game words live in tests/games/ and
the test files. A new game reuses all of it: subclass `table.Table`, compile its rules with
test cards by `sources.with_cards`, give its Checker to `drivers.play_checked`.
"""
