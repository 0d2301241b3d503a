"""What each bundled game brings to the shared tests: its test tables and its invariants.

tests/support/ is generic (tables, seeded drivers, test games); a module here holds one
game's knowledge that several test files share: `<game>_table` builds that game's
situations on `support.table.Table` with test cards, `<game>_invariants` is the `Checker`
(with `check(state)` and `at_end(state)`) and choosing styles that tests/test_invariants.py
passes to the shared driver, `<game>_mutations` breaks states on purpose so no check is
vacuous. A new game adds its modules here and one entry to the game lists of
tests/test_invariants.py and tests/test_determinism.py.
"""
