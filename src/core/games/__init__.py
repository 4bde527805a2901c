"""The game engine: one module per game, a catalogue keyed by id, and offline commentary."""

from __future__ import annotations

from typing import Any

from .base import Difficulty, Game, IllegalMove, InvalidOptions, Outcome, Side, Winner
from .chess_game import ChessGame
from .commentary import comment
from .connect_four import ConnectFour
from .hangman import Hangman
from .options import defaults_of, schema_of
from .rock_paper_scissors import RockPaperScissors
from .tic_tac_toe import TicTacToe

CATALOGUE: dict[str, Game] = {
    g.id: g for g in (TicTacToe(), ConnectFour(), ChessGame(), RockPaperScissors(), Hangman())
}


def catalogue_entry(game: Game) -> dict[str, Any]:
    """What a client needs to offer a game: its schemas and the options it gets when it sends none."""
    return {
        "id": game.id,
        "name": game.name,
        "description": game.description,
        "move_schema": game.move_schema,
        "options_schema": schema_of(game.options_type),
        "state_schema": game.state_schema,
        "options_defaults": defaults_of(game.options_type),
    }


__all__ = [
    "CATALOGUE",
    "Difficulty",
    "Game",
    "IllegalMove",
    "InvalidOptions",
    "Outcome",
    "Side",
    "Winner",
    "catalogue_entry",
    "comment",
]
