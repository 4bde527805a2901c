"""One way to turn untrusted data into a request Struct: msgspec validation mapped to Invalid(param)."""

import re
from typing import Any, TypeVar

import msgspec

from avatar_service.core.errors import Invalid

T = TypeVar("T")
_AT = re.compile(r" - at `\$\.?(?P<path>[^`]*)`$")
_FIELD = re.compile(r"field `(?P<field>[^`]+)`")

METADATA_MAX_KEYS = 50
METADATA_MAX_KEY = 40
METADATA_MAX_BYTES = 8192


def param_of(error: msgspec.ValidationError, prefix: str = "") -> tuple[str, str | None]:
    """Splits msgspec's message into (message, dotted param path)."""
    text = str(error)
    path = ""
    at = _AT.search(text)
    if at:
        path = at.group("path")
        text = text[: at.start()]
    field = _FIELD.search(text)
    if field and ("missing required" in text or "unknown field" in text):
        path = f"{path}.{field.group('field')}" if path else field.group("field")
    path = f"{prefix}.{path}" if prefix and path else (prefix or path)
    return text, path or None


def parse(kind: type[T], data: Any, *, prefix: str = "") -> T:
    """Validates a mapping (or a Struct, re-checked) against `kind`, raising Invalid on any problem."""
    if isinstance(data, msgspec.Struct):
        data = msgspec.to_builtins(data)
    try:
        return msgspec.convert(data, kind, strict=True)
    except msgspec.ValidationError as error:
        message, param = param_of(error, prefix)
        raise Invalid(message, param=param) from None


def _integral(value: Any) -> Any:
    """Whole-number floats as ints, everywhere in a decoded JSON value."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    if isinstance(value, dict):
        return {key: _integral(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_integral(item) for item in value]
    return value


TOO_DEEP = "The body is nested too deeply"


def decode(kind: type[T], body: bytes) -> T:
    """Decodes a JSON body straight into `kind` (the fast path: no intermediate dicts)."""
    try:
        return _decode(kind, body)
    except RecursionError:  # msgspec (and the walks below) stop near a thousand levels: bad input, not a bug
        raise Invalid(TOO_DEEP, code="body_invalid") from None


def _decode(kind: type[T], body: bytes) -> T:
    try:
        return msgspec.json.decode(body, type=kind)
    except msgspec.ValidationError as error:
        try:  # decoding stops at the first problem: broken JSON further on is the answer, not a field
            whole = msgspec.json.decode(body)
        except (msgspec.DecodeError, UnicodeDecodeError) as broken:
            raise Invalid(f"The body is not valid JSON: {broken}", code="body_invalid") from None
        if "got `float`" in str(error):  # JSON does not tell 70.0 from 70: an integral number is an integer
            return parse(kind, _integral(whole))
        message, param = param_of(error)
        if param is None:  # the body as a whole is no object
            raise Invalid(f"The body must be a JSON object: {message}", code="body_invalid") from None
        raise Invalid(message, param=param) from None
    except (msgspec.DecodeError, UnicodeDecodeError) as error:  # invalid UTF-8 inside a string is the latter
        raise Invalid(f"The body is not valid JSON: {error}", code="body_invalid") from None


def check_metadata(metadata: dict[str, Any], param: str = "metadata") -> dict[str, Any]:
    if len(metadata) > METADATA_MAX_KEYS:
        raise Invalid(f"At most {METADATA_MAX_KEYS} metadata keys are allowed", param=param)
    for key in metadata:
        if not key or len(key) > METADATA_MAX_KEY:
            raise Invalid(f"Metadata keys must be 1 to {METADATA_MAX_KEY} characters", param=f"{param}.{key}")
    if len(msgspec.json.encode(metadata)) > METADATA_MAX_BYTES:
        raise Invalid(f"Metadata may hold at most {METADATA_MAX_BYTES} bytes of JSON", param=param)
    return metadata


def merge(current: msgspec.Struct, patch: dict[str, Any], kind: type[T], param: str) -> T:
    """Merges a partial object into a nested value (JSON merge patch, one level) and validates it."""
    merged = msgspec.to_builtins(current)
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return parse(kind, merged, prefix=param)
