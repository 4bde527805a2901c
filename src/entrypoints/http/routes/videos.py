"""/v1/video/generations: create, read, list, cancel."""

from litestar import Router, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, FromQuery, JSONBody

from avatar_service.core.model import Page, VideoCreate, VideoGeneration, VideoGenerationCreated
from avatar_service.core.model.videos import VideoStatus
from avatar_service.core.scopes import READ_VIDEOS
from avatar_service.core.services.api_keys import Caller
from avatar_service.core.services.videos import Videos
from avatar_service.entrypoints.http.auth import scopes
from avatar_service.entrypoints.http.routes.common import Cursor, Limit, page


@post("/", status_code=201, opt=scopes("video"))
async def create_video(
    data: JSONBody[VideoCreate], videos: NamedDependency[Videos], caller: NamedDependency[Caller]
) -> VideoGenerationCreated:
    return await videos.create(caller.organization_id, data)


@get("/", opt=scopes(READ_VIDEOS))
async def list_videos(
    videos: NamedDependency[Videos],
    caller: NamedDependency[Caller],
    limit: Limit = 20,
    cursor: Cursor = None,
    status: FromQuery[VideoStatus | None] = None,
) -> Page[VideoGeneration]:
    return await videos.list(caller.organization_id, page(limit, cursor), status)


@get("/{video_id:str}", opt=scopes(READ_VIDEOS))
async def get_video(
    video_id: FromPath[str], videos: NamedDependency[Videos], caller: NamedDependency[Caller]
) -> VideoGeneration:
    return await videos.get(caller.organization_id, video_id)


@post("/{video_id:str}/cancel", status_code=200, opt=scopes("video"))
async def cancel_video(
    video_id: FromPath[str], videos: NamedDependency[Videos], caller: NamedDependency[Caller]
) -> VideoGeneration:
    return await videos.cancel(caller.organization_id, video_id)


router = Router(
    "/video/generations",
    tags=["Video generations"],
    route_handlers=[create_video, list_videos, get_video, cancel_video],
)
