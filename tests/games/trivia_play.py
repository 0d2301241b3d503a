"""Helpers for the Chamber of Secrets Trivia Game tests: games compiled with small decks
written here, and a driver that plays a game by the labels of the options it picks.

Every situation is reached by playing: the tests choose the dice and the right or wrong
answers (chance outcomes are options like any other, picked by their label) and the moves,
through the public API only (GameState: current_player, action_labels, apply_action,
is_chance_node, sample_chance, returns, observation). No test edits the state.
"""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

from lumos.api import game_sources
from lumos.compiler.game import GameSources, compile_game
from lumos.interpreter.engine import GameState

GAME = "chamber-of-secrets-trivia"
SIDES = ("gryffindor", "slytherin")
GRYFFINDOR, SLYTHERIN = 0, 1


def card(name: str, circle: int) -> str:
    """One test card: each question's right answer is its first choice (or `yes`)."""
    return f"""\
  - name: {name}
    type: trivia
    quaffle: {{ask: "{name} Quaffle?", choices: ["right", "wrong"], answer: "right"}}
    keeper: {{ask: "{name} Keeper?", choices: ["right", "wrong", "other"], answer: "right"}}
    bludger: {{ask: "{name} Bludger?", choices: ["right", "wrong", "other", "more"], answer: "right"}}
    beater: {{ask: "{name} Beater?", choices: ["right", "wrong", "other", "more"], answer: "right"}}
    snitch: {{ask: "{name} Snitch?", answer: "yes", accept: ["of course"]}}
    circle: {circle}
"""


def deck(side: str, circles: tuple[int, ...]) -> str:
    prefix = "Red" if side == "gryffindor" else "Green"
    return f"deck: {side}\ncards:\n" + "".join(card(f"{prefix} {i + 1}", c) for i, c in enumerate(circles))


_GAMES: dict = {}


def trivia_game(circles: tuple[int, ...] = (1, 1, 1)):
    """The shipped rules and field, with boxes of test cards whose circles are `circles`."""
    if circles not in _GAMES:
        shipped = game_sources(GAME)
        with tempfile.TemporaryDirectory() as tmp:
            cards = Path(tmp)
            for side in SIDES:
                (cards / f"{side}.yaml").write_text(deck(side, circles), encoding="utf-8")
            _GAMES[circles] = compile_game(GameSources(GAME, shipped.rules_dir, cards, shipped.schema_dir))
    return _GAMES[circles]


class Play:
    """A game driven by option labels. `do(label, ...)` picks each option by its exact label
    (or a regular expression given as re.compile); a Golden Snitch move the script does not
    name takes the first space offered, so scripts need not follow the Snitch."""

    def __init__(self, cg=None, seed: int = 1, options: dict | None = None, log: bool = True):
        # forced decisions (a single option) are taken, as `lumos play` and `simulate` do
        self.state = GameState.new(cg or trivia_game(), seed=seed, options=options, log=log, forced="take")

    # ---------------------------------------------------------- reading
    def labels(self) -> list[str]:
        return self.state.action_labels()

    def obs(self, side: int | None = None) -> dict:
        return self.state.observation(side)

    def space(self, piece: str) -> str | None:
        return self.obs()["pieces"][piece]["space"]

    def score(self, side: str) -> int:
        return self.obs()["sides"][side]["score"]

    def events(self) -> list[str]:
        return [e["event"] for e in self.state.events or []]

    def moves_of(self, piece: str) -> set[str]:
        """The spaces the options offer `piece` to end its move on."""
        pat = re.compile(rf"^move {piece} from \S+ to (\S+)$")
        return {m.group(1) for m in map(pat.match, self.labels()) if m}

    # ---------------------------------------------------------- playing
    def pick(self, want) -> None:
        labels = self.labels()
        while want not in labels and labels and labels[0].startswith("move the Golden Snitch") and \
                not (isinstance(want, re.Pattern) and any(want.fullmatch(x) for x in labels)):
            self.state.apply_action(0)
            labels = self.labels()
        if isinstance(want, re.Pattern):
            found = [i for i, x in enumerate(labels) if want.fullmatch(x)]
            assert found, f"no option matches {want.pattern!r}; options: {labels}"
            self.state.apply_action(found[0])
            return
        assert want in labels, f"no option {want!r}; options: {labels}"
        self.state.apply_action(labels.index(want))

    def do(self, *wants) -> "Play":
        for w in wants:
            self.pick(w)
        return self

    def skip_snitch_moves(self) -> "Play":
        while self.labels() and self.labels()[0].startswith("move the Golden Snitch"):
            self.state.apply_action(0)
        return self

    def decline(self) -> "Play":
        """Ask no question, when one is offered."""
        self.skip_snitch_moves()
        if self.labels() and self.labels()[-1] == "ask no question":
            self.do("ask no question")
        return self

    def move_to(self, piece: str, target: str) -> "Play":
        """Roll the number that lets `piece` end its move on `target` (the smallest such roll,
        found by trying each on a copy of the game) and move it there."""
        for roll in range(1, 9):
            trial = self.state.clone()
            trial.apply_action(trial.action_labels().index(f"roll {roll}"))
            if target in Play.wrap(trial).moves_of(piece):
                return self.do(f"roll {roll}", re.compile(rf"move {piece} from \S+ to {target}"))
        raise AssertionError(f"no roll takes {piece} to {target}; pieces: {self.obs()['pieces']}")

    def idle(self, side: str) -> "Play":
        """A turn that changes nothing that matters: roll 1, move the side's first option's
        Mover, ask no question."""
        return self.do("roll 1", re.compile(rf"move {side} .*")).decline()

    @classmethod
    def wrap(cls, state: GameState) -> "Play":
        p = cls.__new__(cls)
        p.state = state
        return p

    def gryffindor_first(self) -> "Play":
        """The opening roll: Gryffindor 8, Slytherin 1."""
        return self.do("roll 8", "roll 1")

    def slytherin_first(self) -> "Play":
        return self.do("roll 1", "roll 8")
