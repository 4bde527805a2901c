"""Game options: one msgspec Struct per game (its fields, defaults and limits), its JSON schema for the
catalogue, and parsing a client's `options` into it."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, Literal, TypeVar, get_args, get_origin

import msgspec

from avatar_service.core.validation import param_of

from .base import Difficulty, InvalidOptions, Side

OptionsT = TypeVar("OptionsT", bound="GameOptions")

FirstOption = Annotated[Side, msgspec.Meta(description="who moves first")]


class GameOptions(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """What every game's options share: only the fields a game lists, each with a default."""


class TurnOptions(GameOptions):
    """The options of a game of turns: how well the personality plays, and who moves first."""

    difficulty: Difficulty = "medium"
    first: FirstOption = "user"


@cache
def schema_of(options: type[GameOptions]) -> dict[str, Any]:
    """The JSON schema of a game's options object, inline (no $ref), as the catalogue shows it (one per
    game, shared: never change it)."""
    (_,), components = msgspec.json.schema_components([options], ref_template="#/$defs/{name}")
    schema: dict[str, Any] = components[options.__name__]
    # msgspec sorts a Literal's values; a client offering the choices wants them as the game lists them
    # (easy, medium, hard).
    for field in msgspec.structs.fields(options):
        kind = get_args(field.type)[0] if get_origin(field.type) is Annotated else field.type
        if get_origin(kind) is Literal:
            schema["properties"][field.encode_name]["enum"] = list(get_args(kind))
    return schema


def defaults_of(options: type[GameOptions]) -> dict[str, Any]:
    return msgspec.to_builtins(options())


def parse_options(options: Mapping[str, Any] | None, kind: type[OptionsT]) -> OptionsT:
    """A client's `options` checked against the game's Struct, defaults filled in.

    `first` and `difficulty` are accepted by every game (a generic client may send both) and checked, but
    only kept where the game has them, as the contract says they apply where they mean something.
    """
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise InvalidOptions("options", "options must be an object")
    own = kind.__struct_fields__
    borrowed = {k: v for k, v in options.items() if k not in own and k in TurnOptions.__struct_fields__}
    _convert(borrowed, TurnOptions)
    return _convert({k: v for k, v in options.items() if k not in borrowed}, kind)


def _convert(options: Mapping[str, Any], kind: type[OptionsT]) -> OptionsT:
    try:
        return msgspec.convert(options, kind, strict=True)
    except msgspec.ValidationError as error:
        message, param = param_of(error, "options")
        raise InvalidOptions(param or "options", f"{param}: {message}" if param else message) from None
