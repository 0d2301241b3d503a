"""A plain hand-written Python tic-tac-toe: the baseline the benchmark divides every game's speed by.

Written the way a Python programmer would write it for random playouts, with the same shape
of interface as OpenSpiel's and Lumos's states (legal_actions, apply_action, is_terminal,
returns), and no tricks: a list of nine squares, the eight lines checked after each move,
a random choice among the empty squares.

>>> game = TicTacToe()
>>> for square in (0, 3, 1, 4, 2):
...     game.apply_action(square)
>>> game.is_terminal(), game.returns()
(True, [1.0, -1.0])
"""
from __future__ import annotations

import random

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
EMPTY = -1


class TicTacToe:
    """One game: whose turn it is, the nine squares (EMPTY, 0 or 1), and the winner once decided."""

    def __init__(self):
        self.board = [EMPTY] * 9
        self.player = 0
        self.winner = None
        self.moves = 0

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return [i for i in range(9) if self.board[i] == EMPTY]

    def apply_action(self, square: int) -> None:
        if self.board[square] != EMPTY or self.is_terminal():
            raise ValueError(f"square {square} cannot be marked now")
        self.board[square] = self.player
        self.moves += 1
        for a, b, c in LINES:
            if self.board[a] == self.board[b] == self.board[c] == self.player:
                self.winner = self.player
        self.player = 1 - self.player

    def is_terminal(self) -> bool:
        return self.winner is not None or self.moves == 9

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]


def random_playouts(games: int, seed: int = 0) -> int:
    """Play `games` games with random moves; the number of actions taken."""
    rng = random.Random(seed)
    actions = 0
    for _ in range(games):
        game = TicTacToe()
        while not game.is_terminal():
            game.apply_action(rng.choice(game.legal_actions()))
            actions += 1
    return actions


if __name__ == "__main__":
    import time
    start = time.process_time()
    n = random_playouts(20_000)
    print(f"{n / (time.process_time() - start):.0f} actions/s")
