"""Game sessions: turn-based games between a user and a personality."""

from datetime import datetime
from typing import Annotated, Any, Literal

from msgspec import Meta

from avatar_service.core.model.common import Request, Resource

GameStatus = Literal["waiting", "active", "completed", "abandoned"]
Side = Literal["user", "personality"]
Winner = Literal["user", "personality", "draw"]


class GameSession(Resource, kw_only=True):
    id: str
    object: Literal["game_session"] = "game_session"
    game_id: str
    personality_id: str
    status: GameStatus
    created_at: datetime
    user_id: str | None = None
    current_turn: Side | None = None
    state: dict[str, Any] = {}
    winner: Winner | None = None
    move_count: int = 0
    personality_commentary: str | None = None
    updated_at: datetime | None = None


class GameSessionRecord(GameSession, kw_only=True):
    organization_id: str
    # optimistic concurrency: a move applies only if the row still has the version it read
    version: int = 0


class GameSessionCreate(Request, kw_only=True):
    personality_id: str
    game_id: Annotated[str, Meta(min_length=1, max_length=64)]
    user_id: str | None = None
    options: dict[str, Any] = {}


class MoveCreate(Request, kw_only=True):
    move: dict[str, Any]
    message: Annotated[str, Meta(max_length=2000)] | None = None


class MoveResult(Resource, kw_only=True):
    session: GameSession
    user_move_valid: bool
    user_move_error: str | None = None
    personality_move: dict[str, Any] | None = None
    personality_message: str | None = None


class GameInfo(Resource, kw_only=True):
    id: str
    name: str
    description: str
    move_schema: dict[str, Any]
    options_schema: dict[str, Any]
    state_schema: dict[str, Any]
    options_defaults: dict[str, Any] = {}


class GameCatalogue(Resource, kw_only=True):
    data: list[GameInfo]
