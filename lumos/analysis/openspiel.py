"""A Lumos game -> an OpenSpiel game (pyspiel), through options as data and the action space.

Player actions are the ids of the game's fixed action space without its die faces, numbered
densely; chance outcomes are the die faces, numbered apart (OpenSpiel keeps chance
outcomes below `max_chance_outcomes`). Labels are the options' labels, unique within a
decision. Nothing here knows a game.

>>> game = openspiel_game("snitch-snatcher")                     # doctest: +SKIP
>>> import pyspiel; pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)  # doctest: +SKIP
"""
from __future__ import annotations

from lumos.api import load_game, new_game
from lumos.interpreter.options import action_space

MAX_GAME_LENGTH = 100_000


def _numbering(cg):
    keys = action_space(cg).keys
    player = [i for i, k in enumerate(keys) if k[0] != "chance"]
    chance = [i for i, k in enumerate(keys) if k[0] == "chance"]
    return player, chance, {s: d for d, s in enumerate(player)}, {s: d for d, s in enumerate(chance)}


def openspiel_game(game: str, utility: tuple[float, float] = (-1.0, 1.0)):
    """The Lumos game `game` (a bundled id or folder) as a registered pyspiel game."""
    import pyspiel
    cg = load_game(game)
    player, chance, to_player, to_chance = _numbering(cg)
    short = "lumos_" + cg.id.replace("-", "_")
    game_type = pyspiel.GameType(
        short_name=short, long_name=f"Lumos: {cg.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cg.nsides, min_num_players=cg.nsides,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=False,
        parameter_specification={"seed": 0})
    info = pyspiel.GameInfo(num_distinct_actions=len(player), max_chance_outcomes=len(chance),
                            num_players=cg.nsides, min_utility=utility[0], max_utility=utility[1],
                            utility_sum=None, max_game_length=MAX_GAME_LENGTH)

    class LumosState(pyspiel.State):
        """One Lumos GameState seen through OpenSpiel's State API."""

        def __init__(self, game_, state=None):
            super().__init__(game_)
            self.s = state if state is not None else new_game(cg, seed=game_.get_parameters().get("seed", 0),
                                                                forced="take")

        def current_player(self):
            if self.s.is_terminal():
                return pyspiel.PlayerId.TERMINAL
            if self.s.is_chance_node():
                return pyspiel.PlayerId.CHANCE
            return self.s.current_player()

        def _ids(self):
            return self._view()[0]

        def _view(self):
            """(dense ids, labels) of the pending decision, made once per decision."""
            pending = self.s.st.pending
            if getattr(self, "_seen", None) is not pending:
                table = to_chance if self.s.is_chance_node() else to_player
                ids = [table[i] for i in self.s.legal_action_ids()] if pending is not None else []
                self._cached = (ids, self.s.action_labels() if pending is not None else [])
                self._seen = pending
            return self._cached

        def _legal_actions(self, player):
            return sorted(self._ids())

        def chance_outcomes(self):
            ids = self._ids()
            return sorted((ids[i], p) for i, p in self.s.chance_outcomes())

        def _apply_action(self, action):
            self.s.apply_action(self._ids().index(action))

        def _action_to_string(self, player, action):
            ids, labels = self._view()
            if action in ids:
                return labels[ids.index(action)]
            keys = action_space(cg).keys
            return str(keys[(chance if player == pyspiel.PlayerId.CHANCE else player_ids)[action]])

        def is_terminal(self):
            return self.s.is_terminal()

        def returns(self):
            return self.s.returns()

        def __str__(self):
            return str(self.s)

        def __deepcopy__(self, memo):
            return LumosState(self.get_game(), self.s.clone())

    player_ids = player

    class LumosGame(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(game_type, info, params or {})

        def new_initial_state(self):
            return LumosState(self)

    pyspiel.register_game(game_type, LumosGame)
    return pyspiel.load_game(short)

