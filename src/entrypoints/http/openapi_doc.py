"""Makes the OpenAPI document say what the app really does, which Litestar cannot infer by itself.

- Every operation declares the statuses it can answer, with the contract's envelope (Litestar would otherwise
  describe only its own 400 body, which the app never sends).
- Request objects that refuse unknown fields say `additionalProperties: false`.
- Rules across fields and values known only at run time: `appearance.avatar_id` names a shipped avatar; a
  video has exactly one of `text` and `audio_url`.
- Health, signed media and rooms need no API key.
- Every response has a `Request-Id` header.

Applied once to the built document by `create_app`; a route registered on the app afterwards makes Litestar
rebuild the document without it, so routes are only ever declared up front.
"""

from collections.abc import Iterator

import msgspec
from litestar import Litestar
from litestar.openapi.spec import (
    OpenAPIHeader,
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    Reference,
    Schema,
)

PACKAGE = __name__.split(".")[0]  # avatar_service
ERROR_SCHEMA = Schema(
    type=OpenAPIType.OBJECT,
    required=["error"],
    properties={
        "error": Schema(
            type=OpenAPIType.OBJECT,
            required=["type", "code", "message", "param", "request_id"],
            properties={
                "type": Schema(type=OpenAPIType.STRING),
                "code": Schema(type=OpenAPIType.STRING),
                "message": Schema(type=OpenAPIType.STRING),
                "param": Schema(one_of=[Schema(type=OpenAPIType.STRING), Schema(type=OpenAPIType.NULL)]),
                "request_id": Schema(type=OpenAPIType.STRING, description="The response's `Request-Id` header: "
                                     "quote it when reporting a failure"),
            },
        )
    },
    description="Every failure: {error: {type, code, message, param, request_id}}",
)
REQUEST_ID = OpenAPIHeader(schema=Schema(type=OpenAPIType.STRING), required=True,
                           description="The request's id: the caller's own `Request-Id` when well-formed (1 to 128 of "
                           "`A-Z a-z 0-9 _ . : -`), else a new `req_...`; also in error bodies and the service's logs")
DESCRIPTIONS = {
    400: "Invalid request: body, query, path or a limit (`param` names the field)",
    401: "Missing, unknown or revoked API key",
    403: "The API key lacks a scope this operation needs",
    404: "No such resource in this organization (also malformed ids)",
    409: "The resource's state forbids it, a uniqueness rule, or an Idempotency-Key conflict",
    413: "The request body is over its cap",
    416: "The requested range is not satisfiable",
    429: "Rate limited; retry after `Retry-After` seconds",
    503: "Storage is unreachable",
}


def _error(status: int) -> OpenAPIResponse:
    return OpenAPIResponse(
        description=DESCRIPTIONS[status],
        content={"application/json": OpenAPIMediaType(schema=Reference("#/components/schemas/Error"))},
    )


def _statuses(path: str, method: str, operation: Operation) -> list[int]:
    """What this operation can answer besides success."""
    has_body = operation.request_body is not None
    if path.startswith("/v1/"):
        statuses = [400, 401, 403, 404, 429]
        if method != "get":
            statuses.append(409)  # state and uniqueness conflicts; an Idempotency-Key repeat on any POST
        if has_body:
            statuses.append(413)
        return statuses
    if path.startswith("/rooms/"):
        return [400, 401, 404, 409, 413] if has_body else [400, 401, 404, 409]
    if path.startswith("/media/"):
        return [400, 403, 404]
    return []


def _structs(kind: type[msgspec.Struct]) -> Iterator[type[msgspec.Struct]]:
    for sub in kind.__subclasses__():
        yield sub
        yield from _structs(sub)


def _closed_objects(components: dict[str, Schema]) -> None:
    strict = {k.__name__ for k in _structs(msgspec.Struct)
              if k.__module__.startswith(PACKAGE) and k.__struct_config__.forbid_unknown_fields}
    for name, schema in components.items():
        if name in strict and schema.properties is not None:
            schema.additional_properties = False


def _zero_bounds(components: dict[str, Schema]) -> None:
    """Litestar drops a bound of 0 (`Meta(ge=0)` reads as false): put back those msgspec's own schema states."""
    kinds = [k for k in _structs(msgspec.Struct) if k.__module__.startswith(PACKAGE) and k.__name__ in components]
    _, defs = msgspec.json.schema_components(kinds)
    for name, definition in defs.items():
        schema = components.get(name)
        for field, spec in (definition.get("properties") or {}).items():
            target = (schema.properties or {}).get(field) if schema is not None else None
            for variant in [spec, *spec.get("anyOf", [])]:
                for key, attribute in (("minimum", "minimum"), ("maximum", "maximum")):
                    if variant.get(key) == 0 and isinstance(target, Schema) and getattr(target, attribute) is None:
                        setattr(target, attribute, 0)


def _cross_field_rules(components: dict[str, Schema], avatar_ids: list[str]) -> None:
    for schema in components.values():  # metadata: at most 50 keys of 1 to 40 characters (core.model.common)
        metadata = (schema.properties or {}).get("metadata")
        for variant in [metadata, *(metadata.one_of or [])] if isinstance(metadata, Schema) else []:
            if isinstance(variant, Schema) and variant.type == OpenAPIType.OBJECT:
                variant.property_names = Schema(type=OpenAPIType.STRING, min_length=1, max_length=40)
                variant.max_properties = 50
    appearance = components.get("Appearance")
    avatar = (appearance.properties or {}).get("avatar_id") if appearance is not None else None
    if isinstance(avatar, Schema) and avatar_ids:
        avatar.enum = list(avatar_ids)
        avatar.description = ("One of the avatars `GET /v1/avatars` lists: a drawn one (listed here) or one of the "
                              "organization's photo avatars (`avatar_...`).")
    voice = components.get("Voice")
    voice_id = (voice.properties or {}).get("voice_id") if voice is not None else None
    if isinstance(voice_id, Schema):
        voice_id.description = ("The provider's own voice id, or an offline voice `GET /v1/voices` lists; without the "
                                "provider's credentials the nearest offline voice speaks.")
    video = components.get("VideoCreate")
    if video is not None:
        video.one_of = [
            Schema(required=[speak], properties={speak: Schema(type=OpenAPIType.STRING),
                                                  other: Schema(type=OpenAPIType.NULL)})
            for speak, other in (("text", "audio_url"), ("audio_url", "text"))
        ]


def document(app: Litestar, avatar_ids: list[str]) -> None:
    schema = app.openapi_schema
    if schema.components.schemas is None:
        schema.components.schemas = {}
    components = schema.components.schemas
    components["Error"] = ERROR_SCHEMA
    _closed_objects(components)
    _zero_bounds(components)
    _cross_field_rules(components, avatar_ids)
    for path, item in (schema.paths or {}).items():
        for method in ("get", "put", "post", "delete", "patch"):
            operation: Operation | None = getattr(item, method, None)
            if operation is None:
                continue
            responses = operation.responses if operation.responses is not None else {}
            for status in _statuses(path, method, operation):
                responses[str(status)] = _error(status)
            for response in responses.values():
                if isinstance(response, OpenAPIResponse):  # every answer carries one (request_ids.py)
                    response.headers = {**(response.headers or {}), "Request-Id": REQUEST_ID}
            operation.responses = responses
            if not path.startswith("/v1/"):
                operation.security = []  # health, signed media and rooms need no API key
