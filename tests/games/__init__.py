"""What each bundled game brings to the shared tests: its test tables and its invariants.

tests/support/ is generic (tables, seeded drivers, test games); a module here holds one
game's knowledge that several test files share. In: the game's rules and rulebook; out:
`<game>_table` (that game's situations built on `support.table.Table` with test cards;
a Table used by one test file only stays in that file, as Snitch Snatcher's does),
`<game>_invariants` (the `Checker`, with `check(state)` and `at_end(state)`, and the
choosing styles that tests/test_invariants.py gives the shared driver) and, where they
are long, `<game>_mutations` (states broken on purpose, so no check is vacuous). A new
game adds its modules here and one entry to GAMES in tests/test_invariants.py and in
tests/test_determinism.py.
"""
