"""Personalities: name, prompt, voice, appearance and numeric traits."""

from datetime import datetime
from typing import Annotated, Any, Literal

from msgspec import Meta, field

from avatar_service.core.model.common import UNSET, Metadata, Request, Resource, UnsetType
from avatar_service.core.model.tools import Tool, Tools

VoiceProvider = Literal["elevenlabs", "cartesia", "openai", "azure"]
Unit = Annotated[float, Meta(ge=0, le=1)]
# "transparent", "blur", "#rrggbb" or an http(s) image URL (contract, section 6).
Background = Annotated[
    str,
    Meta(
        max_length=2048,
        pattern=r"^(transparent|blur|#[0-9a-fA-F]{6}|https?://\S+)$",
        description="`transparent`, `blur`, a color `#rrggbb`, or an http(s) image URL.",
    ),
]
Style = Literal["realistic", "cartoon"]


class VoiceSettings(Resource, kw_only=True, forbid_unknown_fields=True):
    stability: Unit = 0.5
    similarity_boost: Unit = 0.75
    speed: Annotated[float, Meta(ge=0.5, le=2.0)] = 1.0


class Voice(Resource, kw_only=True, forbid_unknown_fields=True):
    provider: VoiceProvider = "openai"
    voice_id: Annotated[str, Meta(min_length=1, max_length=255)] = "alloy"
    settings: VoiceSettings = field(default_factory=VoiceSettings)


class Appearance(Resource, kw_only=True, forbid_unknown_fields=True):
    """`style` follows the avatar (`cartoon` for the drawn ones, `realistic` for photo avatars); `background`
    null (the default) shows the avatar's own: a photo avatar's photo, a drawn avatar's blurred room."""

    avatar_id: Annotated[str, Meta(min_length=1, max_length=64)] = "ava"
    style: Style = "cartoon"
    background: Background | None = None


class Traits(Resource, kw_only=True, forbid_unknown_fields=True):
    warmth: Unit = 0.5
    humor: Unit = 0.5
    formality: Unit = 0.5
    verbosity: Unit = 0.5
    empathy: Unit = 0.5


class Personality(Resource, kw_only=True):
    id: str
    object: Literal["personality"] = "personality"
    name: str
    created_at: datetime
    updated_at: datetime
    description: str = ""
    system_prompt: str = ""
    voice: Voice = field(default_factory=Voice)
    appearance: Appearance = field(default_factory=Appearance)
    traits: Traits = field(default_factory=Traits)
    metadata: dict[str, Any] = {}
    tools: list[Tool] = []  # functions a language model may call during a turn (the offline engine calls none)


class PersonalityWithSecret(Personality, kw_only=True):
    """What create and update answer: `tools_secret` is shown once, by the request that first gave the
    personality tools (null otherwise); tool calls are signed with it (Standard Webhooks)."""

    tools_secret: str | None = None


class PersonalityRecord(Personality, kw_only=True):
    organization_id: str
    tool_signing_secret: str | None = None  # whsec_...: made when the personality first gets tools


Name = Annotated[str, Meta(min_length=1, max_length=255)]
Description = Annotated[str, Meta(max_length=2000)]
SystemPrompt = Annotated[str, Meta(max_length=20000)]


class PersonalityCreate(Request, kw_only=True):
    name: Name
    description: Description = ""
    system_prompt: SystemPrompt = ""
    voice: Voice = field(default_factory=Voice)
    appearance: Appearance = field(default_factory=Appearance)
    traits: Traits = field(default_factory=Traits)
    metadata: Metadata = {}
    tools: Tools = []


class PersonalityPatch(Request, kw_only=True):
    """Top-level fields replace; `voice`, `appearance` and `traits` are merged into the current values."""

    name: Name | UnsetType = UNSET
    description: Description | UnsetType = UNSET
    system_prompt: SystemPrompt | UnsetType = UNSET
    voice: dict[str, Any] | UnsetType = UNSET
    appearance: dict[str, Any] | UnsetType = UNSET
    traits: dict[str, Any] | UnsetType = UNSET
    metadata: Metadata | UnsetType = UNSET
    tools: Tools | UnsetType = UNSET  # replaces the list whole ([] removes every tool)
