"""Compiled games -> what researchers' tools expect: adapters to other engines' APIs.

In: a compiled game (lumos.api.load_game) and its fixed action space (options as data).
Out: the game as an OpenSpiel game (openspiel: `pyspiel.random_sim_test` and OpenSpiel's
algorithms run on it), built on the same GameState API as everything else; each adapter
imports its engine only when it is used (the `openspiel` extra installs OpenSpiel).
"""
