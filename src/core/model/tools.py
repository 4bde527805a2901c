"""A personality's tools: functions a language model may call during a turn, each served by an HTTPS endpoint of
the personality's owner, which gets the call signed (Standard Webhooks) and answers with JSON."""

from typing import Annotated, Any
from urllib.parse import urlsplit

import msgspec
from msgspec import Meta

from avatar_service.core.errors import Invalid
from avatar_service.core.model.common import Resource

MAX_TOOLS = 16
MAX_PARAMETERS_BYTES = 8192  # a tool's JSON Schema, encoded: it is sent to the model on every turn

ToolName = Annotated[str, Meta(pattern=r"^[a-zA-Z0-9_-]{1,64}$",
                               description="1 to 64 letters, digits, `_` or `-` (the OpenAI function name rule).")]
# A host name or IPv4 address (no user info), an optional port, then a path and query in printable ASCII
# (percent-encode the rest).
ToolUrl = Annotated[str, Meta(min_length=9, max_length=2048, pattern=r"^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?([/?][!-~]*)?$",
                              description="An https URL the call is POSTed to.")]
# What the document can say of `parameters` (check_tools says the rest, e.g. its size).
_SCHEMA_OBJECT = {
    "required": ["type"],
    "properties": {
        "type": {"type": "string", "enum": ["object"]},
        "properties": {"type": "object", "additionalProperties": {"type": "object"}},
        "required": {"type": "array", "items": {"type": "string"}},
    },
}
Parameters = Annotated[dict[str, Any], Meta(
    description="A JSON Schema object (`type` `object`) describing the arguments, as OpenAI's function "
                "`parameters`; at most 8 KB of JSON.",
    extra_json_schema={"extra": _SCHEMA_OBJECT})]


class Tool(Resource, kw_only=True, forbid_unknown_fields=True):
    name: ToolName
    description: Annotated[str, Meta(max_length=1024)] = ""
    parameters: Parameters = msgspec.field(default_factory=lambda: {"type": "object", "properties": {}})
    url: ToolUrl


Tools = Annotated[list[Tool], Meta(max_length=MAX_TOOLS, description=f"At most {MAX_TOOLS} tools.")]


def check_tools(tools: list[Tool], param: str = "tools") -> list[Tool]:
    """What the field types cannot say: names unique, `parameters` a JSON Schema object, a URL with a host."""
    seen: set[str] = set()
    for index, tool in enumerate(tools):
        at = f"{param}[{index}]"
        if tool.name in seen:
            raise Invalid(f"Two tools are named '{tool.name}': names must be unique", param=f"{at}.name")
        seen.add(tool.name)
        _check_schema(tool.parameters, f"{at}.parameters")
        try:
            host = urlsplit(tool.url).hostname
        except ValueError:
            host = None
        if not host:
            raise Invalid("The tool's url must be an https URL with a host", param=f"{at}.url")
    return tools


def _check_schema(schema: dict[str, Any], param: str) -> None:
    if schema.get("type") != "object":
        raise Invalid('`parameters` must be a JSON Schema object: {"type": "object", "properties": {...}}',
                      param=param)
    properties = schema.get("properties", {})
    if not isinstance(properties, dict) or not all(isinstance(v, dict) for v in properties.values()):
        raise Invalid("`parameters.properties` must map each argument's name to its JSON Schema",
                      param=f"{param}.properties")
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(name, str) for name in required):
        raise Invalid("`parameters.required` must be a list of argument names", param=f"{param}.required")
    if len(msgspec.json.encode(schema)) > MAX_PARAMETERS_BYTES:
        raise Invalid(f"`parameters` may hold at most {MAX_PARAMETERS_BYTES} bytes of JSON", param=param)
