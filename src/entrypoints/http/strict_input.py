"""Strict request input: JSON bodies are decoded without type coercion, and no text may hold a NUL character.

Litestar converts bodies leniently (`"10"` for an integer, `1` for a boolean); the contract wants a wrong type
to be a 400 naming the field, as `core.validation.decode` answers. PostgreSQL cannot store U+0000, so it is
refused everywhere (also on SQLite) rather than being a 500 on one backend.
"""

from typing import Any

import msgspec
from litestar import Request
from litestar.routes import HTTPRoute

from avatar_service.core.errors import Invalid
from avatar_service.core.validation import TOO_DEEP, decode

NUL = "\x00"
MESSAGE = "Text may not contain the NUL character (U+0000)"


def _nul_at(value: Any, path: str) -> str | None:
    """The dotted path of the first string (or object key) holding a NUL, or None."""
    if isinstance(value, str):
        return path if NUL in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            inner = f"{path}.{key}" if path else str(key)
            if NUL in str(key):
                return inner
            found = _nul_at(item, inner)
            if found is not None:
                return found
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = _nul_at(item, f"{path}[{index}]")
            if found is not None:
                return found
    return None


def _refuse_nul(param: str | None) -> Invalid:
    return Invalid(MESSAGE, param=(param or "").replace(NUL, "") or None)


def declared_query(request: Request[Any, Any, Any]) -> frozenset[str]:
    """The query parameters the request's handler takes (its route's kwargs model), cached per route."""
    template, method = request.scope.get("path_template"), request.method
    cache: dict[tuple[Any, str], frozenset[str]] = request.app.state.setdefault("declared_query", {})
    if (template, method) not in cache:
        names: set[str] = set()
        for route in request.app.routes:
            if isinstance(route, HTTPRoute) and route.path_format == template and method in route.route_handler_map:
                names.update(p.field_alias for p in route.route_handler_map[method][1].expected_query_params)
        cache[(template, method)] = frozenset(names)
    return cache[(template, method)]


async def check_input(request: Request[Any, Any, Any]) -> None:
    """A before-request hook (it runs after authentication): query, form fields and JSON bodies. Under /v1 an
    unknown query parameter is a 400 naming it, as an unknown body field is: a typo never passes in silence."""
    if request.scope["query_string"]:
        known = declared_query(request) if request.scope["path"].startswith("/v1/") else None
        for key, value in request.query_params.multi_items():
            if NUL in key or NUL in value:
                raise _refuse_nul(key)
            if known is not None and key not in known:
                raise Invalid(f"Unknown query parameter '{key}'", param=key)
    if request.method not in ("POST", "PUT", "PATCH"):
        return
    if request.content_type[0] in ("multipart/form-data", "application/x-www-form-urlencoded"):
        try:
            form = await request.form()
        except UnicodeDecodeError:  # Litestar decodes text fields as UTF-8 and lets the error through
            raise Invalid("A form field is not valid UTF-8", code="body_invalid") from None
        for key, field in form.multi_items():
            if isinstance(field, str) and (NUL in key or NUL in field):
                raise _refuse_nul(key)
        return
    body = await request.body()
    data_field = request.route_handler.parsed_data_field
    kind = data_field.annotation if data_field is not None else None
    if body.strip() and isinstance(kind, type) and issubclass(kind, msgspec.Struct):
        decode(kind, body)  # raises Invalid(param) on a wrong type, or body_invalid on broken JSON
    if b"\\u0000" in body:  # a raw NUL byte is not valid JSON: that is answered as body_invalid
        try:
            decoded = msgspec.json.decode(body)
            param = _nul_at(decoded, "")
        except (msgspec.DecodeError, UnicodeDecodeError):
            return
        except RecursionError:
            raise Invalid(TOO_DEEP, code="body_invalid") from None
        if param is not None:
            raise _refuse_nul(param)
