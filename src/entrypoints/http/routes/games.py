"""/v1/games (the catalogue) and /v1/game-sessions."""

from litestar import Router, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, FromQuery, JSONBody

from avatar_service.core.model import GameCatalogue, GameSession, GameSessionCreate, MoveCreate, MoveResult, Page
from avatar_service.core.model.games import GameStatus
from avatar_service.core.services.api_keys import Caller
from avatar_service.core.services.games import GameSessions
from avatar_service.entrypoints.http.auth import scopes
from avatar_service.entrypoints.http.routes.common import Cursor, Limit, page


@get("/games", opt=scopes("read"), tags=["Games"])
async def list_games(games: NamedDependency[GameSessions]) -> GameCatalogue:
    return games.catalogue()


@post("/game-sessions", status_code=201, opt=scopes("chat"), tags=["Games"])
async def create_session(data: JSONBody[GameSessionCreate], games: NamedDependency[GameSessions],
                         caller: NamedDependency[Caller]) -> GameSession:
    return await games.create(caller.organization_id, data)


@get("/game-sessions", opt=scopes("read"), tags=["Games"])
async def list_sessions(games: NamedDependency[GameSessions], caller: NamedDependency[Caller], limit: Limit = 20,
                        cursor: Cursor = None, status: FromQuery[GameStatus | None] = None) -> Page[GameSession]:
    return await games.list(caller.organization_id, page(limit, cursor), status)


@get("/game-sessions/{session_id:str}", opt=scopes("read"), tags=["Games"])
async def get_session(session_id: FromPath[str], games: NamedDependency[GameSessions], caller: NamedDependency[Caller]
                      ) -> GameSession:
    return await games.get(caller.organization_id, session_id)


@post("/game-sessions/{session_id:str}/move", status_code=200, opt=scopes("chat"), tags=["Games"])
async def move(session_id: FromPath[str], data: JSONBody[MoveCreate], games: NamedDependency[GameSessions],
               caller: NamedDependency[Caller]) -> MoveResult:
    return await games.move(caller.organization_id, session_id, data)


@post("/game-sessions/{session_id:str}/abandon", status_code=200, opt=scopes("chat"), tags=["Games"])
async def abandon(session_id: FromPath[str], games: NamedDependency[GameSessions], caller: NamedDependency[Caller]
                  ) -> GameSession:
    return await games.abandon(caller.organization_id, session_id)


router = Router("/", route_handlers=[list_games, create_session, list_sessions, get_session, move, abandon])
