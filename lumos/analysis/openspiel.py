"""A Lumos game -> an OpenSpiel game (pyspiel), through options as data and the action space.

Player actions are the ids of the game's fixed action space without its die faces, numbered
densely; chance outcomes are the die faces, numbered apart (OpenSpiel keeps chance
outcomes below `max_chance_outcomes`). Labels are the options' labels, unique within a
decision. Nothing here knows a game.

Observations and information states, per side, from what that side may see only: the
observation tensor is lumos.analysis.observation.Layout's vector; the observation string a
digest of the same view as a tuple (observation.Keys); the information state string a running
digest of every step as that side saw it (lumos.analysis.recall: its own actions, the chance
outcomes, the visible part of the others' moves, and what it saw after each), and its tensor
the observation tensor followed by how often the side took each action. Strings are short
digests (the readable view is `state.s.observation(side)`). The history is followed only once
a state is asked for an information state (a search that never asks pays nothing): that
state replays its moves once, and its clones carry the history on.

Serialisation is OpenSpiel's (the history and the state's attributes, pickled): the Lumos state
pickles as its game's registered name and its JSON (the compiled game is never pickled).

>>> game = openspiel_game("snitch-snatcher")                     # doctest: +SKIP
>>> import pyspiel; pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)  # doctest: +SKIP
"""
from __future__ import annotations

from lumos.api import load_game, new_game
from lumos.interpreter.options import action_space

MAX_GAME_LENGTH = 100_000
CHANCE = -1

_ADAPTERS: dict[str, "_Adapter"] = {}   # registered short name -> its adapter (for unpickling states)


class _Adapter:
    """One compiled game's numbering, observation layout and keys."""

    def __init__(self, cg, short: str):
        from lumos.analysis.observation import Keys, Layout
        self.cg, self.short = cg, short
        keys = action_space(cg).keys
        self.player = [i for i, k in enumerate(keys) if k[0] != "chance"]
        self.chance = [i for i, k in enumerate(keys) if k[0] == "chance"]
        self.to_player = {s: d for d, s in enumerate(self.player)}
        self.to_chance = {s: d for d, s in enumerate(self.chance)}
        self.layout, self.keys = Layout(cg), Keys(cg)
        self.starts: dict[int, object] = {}

    def initial(self, seed: int):
        """A new game for `seed`: a clone of the one made the first time (OpenSpiel makes a new
        state each time it asks for a tensor's shape)."""
        if seed not in self.starts:
            self.starts[seed] = new_game(self.cg, seed=seed, forced="take")
        return self.starts[seed].clone()

    def ids(self, gs) -> list[int]:
        """The dense ids of the pending decision's options, in option order."""
        if gs.st.pending is None or gs.is_terminal():
            return []
        table = self.to_chance if gs.is_chance_node() else self.to_player
        return [table[i] for i in gs.legal_action_ids()]

    def all_keys(self, gs, ids: list[int]) -> list[tuple]:
        return [self.keys.key(gs, side, ids) for side in range(self.cg.nsides)]

    def tokens(self, gs, index: int, action: int, player: int) -> list:
        from lumos.analysis.recall import seen_move
        if player == CHANCE:
            return [("chance", action)] * self.cg.nsides
        return [("own", action) if side == player else ("seen", player, seen_move(gs, index, side))
                for side in range(self.cg.nsides)]


class Held:
    """The Lumos state inside an OpenSpiel state, with what is cached for its pending decision;
    pickles as (registered game, state JSON)."""

    __slots__ = ("adapter", "gs", "ids", "labels", "keys", "vectors", "text")

    def __init__(self, adapter: _Adapter, gs):
        self.adapter, self.gs = adapter, gs
        self.ids = self.labels = self.keys = self.text = None
        self.vectors: dict = {}

    def apply(self, index: int) -> None:
        """Apply option `index`: every cache of the decision is dropped (the adapter applies
        every move through here, so the caches never outlive their decision)."""
        self.gs.apply_action(index)
        self.ids = self.labels = self.keys = self.text = None
        self.vectors = {}

    def dense_ids(self) -> list[int]:
        """The dense ids of the pending decision, made once per decision."""
        if self.ids is None:
            self.ids = self.adapter.ids(self.gs)
        return self.ids

    def ids_labels(self):
        """(dense ids, labels) of the pending decision (the labels made once, when first asked for)."""
        ids = self.dense_ids()
        if self.labels is None:
            self.labels = self.gs.action_labels() if ids else []
        return ids, self.labels

    def key_list(self) -> list[tuple]:
        """What each side sees now (observation.Keys), made once per decision."""
        ids = self.dense_ids()
        if self.keys is None:
            self.keys = self.adapter.all_keys(self.gs, ids)
        return self.keys

    def vector(self, side: int):
        """The side's observation vector (observation.Layout, as a numpy array), made once per decision."""
        if side not in self.vectors:
            self.vectors[side] = self.adapter.layout.encode_array(self.gs, side)
        return self.vectors[side]

    def picture(self) -> str:
        """The text picture of the board (OpenSpiel prints a state at every step), made once per decision."""
        if self.text is None:
            self.text = str(self.gs)
        return self.text

    def __deepcopy__(self, memo) -> "Held":
        """A clone (OpenSpiel clones a Python state by deep-copying its attributes): the Lumos
        state cloned, the compiled game shared, the caches of this decision kept."""
        twin = Held(self.adapter, self.gs.clone())
        twin.ids, twin.labels, twin.keys = self.ids, self.labels, self.keys
        twin.vectors, twin.text = dict(self.vectors), self.text
        return twin

    def __reduce__(self):
        return (_unpickle, (self.adapter.short, self.gs.to_json()))


def _unpickle(short: str, text: str) -> Held:
    from lumos.interpreter.engine import GameState
    adapter = _ADAPTERS[short]
    return Held(adapter, GameState.from_json(adapter.cg, text))


def rewrap(state, gs):
    """An OpenSpiel state of `state`'s game around the Lumos state `gs` (a position edited by a
    tool or a test), whose information states carry on `state`'s record; its OpenSpiel
    history starts empty (OpenSpiel keeps it itself)."""
    twin = type(state)(state.get_game(), Held(state.held.adapter, gs), state.recalled().copy())
    twin.recall.digests = list(state.recall.digests)
    return twin


def openspiel_game(game: str, utility: tuple[float, float] = (-1.0, 1.0)):
    """The Lumos game `game` (a bundled id or folder) as a registered pyspiel game."""
    import numpy as np
    import pyspiel
    cg = load_game(game)
    short = "lumos_" + cg.id.replace("-", "_")
    adapter = _Adapter(cg, short)
    _ADAPTERS[short] = adapter
    game_type = pyspiel.GameType(
        short_name=short, long_name=f"Lumos: {cg.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cg.nsides, min_num_players=cg.nsides,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"seed": 0})
    nplayer = len(adapter.player)
    info = pyspiel.GameInfo(num_distinct_actions=nplayer, max_chance_outcomes=len(adapter.chance),
                            num_players=cg.nsides, min_utility=utility[0], max_utility=utility[1],
                            utility_sum=None, max_game_length=MAX_GAME_LENGTH)

    class LumosState(pyspiel.State):
        """One Lumos GameState seen through OpenSpiel's State API."""

        def __init__(self, game_, held=None, recall=None):
            super().__init__(game_)
            if held is None:
                held = Held(adapter, adapter.initial(game_.get_parameters().get("seed", 0)))
            self.held = held
            self.recall = recall   # None until an information state is asked for

        @property
        def s(self):
            """The Lumos GameState."""
            return self.held.gs

        def current_player(self):
            if self.s.is_terminal():
                return pyspiel.PlayerId.TERMINAL
            if self.s.is_chance_node():
                return pyspiel.PlayerId.CHANCE
            return self.s.current_player()

        def _legal_actions(self, player):
            return sorted(self.held.dense_ids())

        def chance_outcomes(self):
            ids = self.held.dense_ids()
            return sorted((ids[i], p) for i, p in self.s.chance_outcomes())

        def _apply_action(self, action):
            held = self.held
            index = held.dense_ids().index(action)
            recall = self.recall
            tokens = None
            if recall is not None:
                player = CHANCE if self.s.is_chance_node() else self.s.current_player()
                tokens = adapter.tokens(self.s, index, action, player)
                if player != CHANCE:
                    recall.own(player, action)
            held.apply(index)
            if recall is not None:
                recall.fold(tokens, held.key_list())

        def _action_to_string(self, player, action):
            ids, labels = self.held.ids_labels()
            if action in ids:
                return labels[ids.index(action)]
            keys = action_space(cg).keys
            return str(keys[(adapter.chance if player == pyspiel.PlayerId.CHANCE else adapter.player)[action]])

        def is_terminal(self):
            return self.s.is_terminal()

        def returns(self):
            return self.s.returns()

        def __str__(self):
            return self.held.picture()

        def __deepcopy__(self, memo):
            """OpenSpiel's own clone (its history kept; the attributes copied as Held and Recall say)."""
            return self.clone()

        # ------------------------------------------------------------ what a side saw
        def recalled(self):
            """The information state history, replayed from the start the first time it is asked for."""
            if self.recall is None:
                from lumos.analysis.recall import Recall
                history = self.full_history()
                fresh = self.held if not history else Held(adapter, adapter.initial(
                    self.get_game().get_parameters().get("seed", 0)))
                recall = Recall(fresh.key_list())
                for pa in history:
                    ids = fresh.dense_ids()
                    index = ids.index(pa.action)
                    player = CHANCE if fresh.gs.is_chance_node() else fresh.gs.current_player()
                    tokens = adapter.tokens(fresh.gs, index, pa.action, player)
                    if player != CHANCE:
                        recall.own(player, pa.action)
                    fresh.apply(index)
                    recall.fold(tokens, fresh.key_list())
                self.recall = recall
            return self.recall

    class Observer:
        """OpenSpiel's observer (`make_py_observer`): a side's observation, or with perfect recall
        its information state, as a tensor and a string."""

        def __init__(self, perfect_recall: bool):
            self.recall = perfect_recall
            size = adapter.layout.size
            self.tensor = np.zeros(size + (nplayer if perfect_recall else 0), np.float32)
            self.dict = {"observation": self.tensor[:size]}
            if perfect_recall:
                self.dict["own_actions"] = self.tensor[size:]

        def set_from(self, state, player):
            self.dict["observation"][:] = state.held.vector(player)
            if self.recall:
                own = self.dict["own_actions"]
                own.fill(0)
                for a, k in state.recalled().counts[player].items():
                    own[a] = k

        def string_from(self, state, player):
            from lumos.analysis.recall import digest
            if self.recall:
                r = state.recalled()   # the history, and what the side sees now (a position may have been set)
                now = digest(r.digests[player], "now", state.held.key_list()[player])
                return f"p{player} step {r.steps} {now.hex()}"
            return f"p{player} {digest(b'', 'now', state.held.key_list()[player]).hex()}"

    class LumosGame(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(game_type, info, params or {})

        def new_initial_state(self):
            return LumosState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return Observer(bool(iig_obs_type is not None and iig_obs_type.perfect_recall))

    pyspiel.register_game(game_type, LumosGame)
    return pyspiel.load_game(short)
