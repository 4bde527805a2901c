"""/v1/personalities/{id}/knowledge: a personality's knowledge items, added as JSON or as an uploaded file."""

from dataclasses import dataclass
from typing import Any, get_args

from litestar import Request, Router, delete, get, post
from litestar.di import NamedDependency
from litestar.openapi.spec import (
    OpenAPIFormat,
    OpenAPIMediaType,
    OpenAPIType,
    Operation,
    Reference,
    RequestBody,
    Schema,
)
from litestar.params import FromPath, FromQuery, JSONBody

from avatar_service.core.errors import Invalid
from avatar_service.core.model import (
    Deleted,
    KnowledgeCreate,
    KnowledgeItem,
    KnowledgeSearch,
    KnowledgeSearchResult,
    Page,
)
from avatar_service.core.model.knowledge import MAX_CONTENT, KnowledgeType, RefreshInterval
from avatar_service.core.services.api_keys import Caller
from avatar_service.core.services.knowledge import Knowledge, Upload
from avatar_service.core.validation import decode, parse
from avatar_service.entrypoints.http.auth import scopes
from avatar_service.entrypoints.http.routes.common import Cursor, Limit, page


@get("/{personality_id:str}/knowledge", opt=scopes("read"))
async def list_knowledge(
    personality_id: FromPath[str],
    knowledge: NamedDependency[Knowledge],
    caller: NamedDependency[Caller],
    type: FromQuery[KnowledgeType | None] = None,
    limit: Limit = 20,
    cursor: Cursor = None,
) -> Page[KnowledgeItem]:
    return await knowledge.list(caller.organization_id, personality_id, page(limit, cursor), type)


async def _knowledge_body(request: Request[Any, Any, Any]) -> tuple[KnowledgeCreate, Upload | None]:
    """JSON, or multipart/form-data with `file` (type `document` implied), `name`, `refresh_interval`."""
    if request.content_type[0] == "multipart/form-data":
        form = await request.form()
        file = form.get("file")
        if file is None or isinstance(file, str):
            raise Invalid("A multipart upload needs a 'file' field", param="file")
        data = await file.read()
        fields = {k: v for k, v in form.items() if k in ("name", "refresh_interval") and isinstance(v, str)}
        item = parse(KnowledgeCreate, {"type": "document", **fields})
        return item, Upload(file.filename or "upload", file.content_type or "application/octet-stream", data)
    return decode(KnowledgeCreate, await request.body()), None


def _knowledge_fields(**extra: Schema) -> dict[str, Schema | Reference]:
    return {
        "name": Schema(type=OpenAPIType.STRING, max_length=255),
        "refresh_interval": Schema(type=OpenAPIType.STRING, enum=list(get_args(RefreshInterval)), default="never"),
        **extra,
    }


def _knowledge_variants() -> list[Schema | Reference]:
    """text: content; url, feed: url; document: url or content (the other absent or null); a refresh
    only for what is fetched."""
    def kind(*types: str) -> Schema:
        return Schema(type=OpenAPIType.STRING, enum=list(types))

    absent, never = Schema(type=OpenAPIType.NULL), Schema(type=OpenAPIType.STRING, enum=["never"])
    return [
        Schema(required=["content"], properties={"type": kind("text"), "url": absent, "refresh_interval": never}),
        Schema(required=["url"], properties={"type": kind("url", "feed", "document"), "content": absent}),
        Schema(required=["content"],
               properties={"type": kind("document"), "url": absent, "refresh_interval": never}),
    ]


@dataclass
class _KnowledgeOperation(Operation):
    """The body is read by hand (JSON or multipart), so the document describes it here."""

    def __post_init__(self) -> None:
        json_body = Schema(
            type=OpenAPIType.OBJECT,
            required=["type"],
            properties=_knowledge_fields(
                type=Schema(type=OpenAPIType.STRING, enum=list(get_args(KnowledgeType))),
                url=Schema(type=OpenAPIType.STRING, format=OpenAPIFormat.URI, min_length=8, max_length=2048,
                           pattern="^https?://", description="for `url`, `feed`, `document`"),
                content=Schema(type=OpenAPIType.STRING, max_length=MAX_CONTENT, pattern=r"\S",
                               description="for `text`, `document`"),
            ),
            additional_properties=False,
            one_of=_knowledge_variants(),  # which fields each type takes (core.services.knowledge._check)
        )
        upload = Schema(
            type=OpenAPIType.OBJECT,
            required=["file"],
            properties=_knowledge_fields(
                file=Schema(type=OpenAPIType.STRING, format=OpenAPIFormat.BINARY, description="type `document`")
            ),
        )
        self.request_body = RequestBody(
            required=True,
            content={
                "application/json": OpenAPIMediaType(schema=json_body),
                "multipart/form-data": OpenAPIMediaType(schema=upload),
            },
        )


UPLOAD_OVERHEAD = 64 * 1024  # bytes of multipart boundaries, part headers and the form's other fields


@post(
    "/{personality_id:str}/knowledge",
    status_code=201,
    opt=scopes("write"),
    operation_class=_KnowledgeOperation,
)
async def add_knowledge(
    personality_id: FromPath[str],
    request: Request[Any, Any, Any],
    knowledge: NamedDependency[Knowledge],
    caller: NamedDependency[Caller],
) -> KnowledgeItem:
    item, upload = await _knowledge_body(request)
    return await knowledge.add(caller.organization_id, personality_id, item, upload)


@get("/{personality_id:str}/knowledge/{item_id:str}", opt=scopes("read"))
async def get_knowledge(
    personality_id: FromPath[str],
    item_id: FromPath[str],
    knowledge: NamedDependency[Knowledge],
    caller: NamedDependency[Caller],
) -> KnowledgeItem:
    return await knowledge.get(caller.organization_id, personality_id, item_id)


@delete("/{personality_id:str}/knowledge/{item_id:str}", status_code=200, opt=scopes("write"))
async def delete_knowledge(
    personality_id: FromPath[str],
    item_id: FromPath[str],
    knowledge: NamedDependency[Knowledge],
    caller: NamedDependency[Caller],
) -> Deleted:
    return await knowledge.delete(caller.organization_id, personality_id, item_id)


@post("/{personality_id:str}/knowledge/search", status_code=200, opt=scopes("read"))
async def search_knowledge(
    personality_id: FromPath[str],
    data: JSONBody[KnowledgeSearch],
    knowledge: NamedDependency[Knowledge],
    caller: NamedDependency[Caller],
) -> KnowledgeSearchResult:
    return await knowledge.search(caller.organization_id, personality_id, data)


# Knowledge lives under /personalities, and the OpenAPI document lists it with them.
router = Router(
    "/personalities",
    tags=["Personalities"],
    route_handlers=[list_knowledge, get_knowledge, delete_knowledge, search_knowledge],
)


def knowledge_uploads(max_upload_bytes: int) -> Router:
    """POST .../knowledge on a router of its own: its body may hold an uploaded file, so its cap is
    AVATAR_MAX_UPLOAD_BYTES (plus the multipart framing and the form's other fields), not the API's."""
    return Router("/personalities", tags=["Personalities"], route_handlers=[add_knowledge],
                  request_max_body_size=max_upload_bytes + UPLOAD_OVERHEAD)
