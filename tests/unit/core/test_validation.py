"""parse(), decode(), metadata limits and merge(): every problem is Invalid with the field's dotted param."""

from __future__ import annotations

from typing import Any

import pytest

from avatar_service.core.errors import Invalid
from avatar_service.core.model import (
    MemoryBulkCreate,
    PersonalityCreate,
    Traits,
    VideoCreate,
    Voice,
    WebhookCreate,
)
from avatar_service.core.validation import check_metadata, decode, merge, parse

HOOK = "https://hooks.example.com/in"


def param_of(kind: type, data: Any) -> str | None:
    with pytest.raises(Invalid) as error:
        parse(kind, data)
    assert error.value.code == "parameter_invalid"
    return error.value.param


@pytest.mark.parametrize(
    "kind, data, param",
    [
        (PersonalityCreate, {"name": "Ada", "traits": {"warmth": 1.5}}, "traits.warmth"),
        (PersonalityCreate, {"name": "Ada", "traits": {"humor": -0.1}}, "traits.humor"),
        (PersonalityCreate, {}, "name"),
        (PersonalityCreate, {"name": ""}, "name"),
        (PersonalityCreate, {"name": 5}, "name"),
        (PersonalityCreate, {"name": "Ada", "colour": "red"}, "colour"),
        (PersonalityCreate, {"name": "Ada", "appearance": {"hat": True}}, "appearance.hat"),
        (PersonalityCreate, {"name": "Ada", "appearance": {"style": "anime"}}, "appearance.style"),
        (PersonalityCreate, {"name": "Ada", "appearance": {"background": "#12345"}}, "appearance.background"),
        (PersonalityCreate, {"name": "Ada", "voice": {"provider": "acme"}}, "voice.provider"),
        (PersonalityCreate, {"name": "Ada", "voice": {"settings": {"speed": 3}}}, "voice.settings.speed"),
        (MemoryBulkCreate, {"personality_id": "p", "memories": [{"content": "x"}] * 101}, "memories"),
        (
            MemoryBulkCreate,
            {"personality_id": "p", "memories": [{"content": "x"}, {"content": ""}]},
            "memories[1].content",
        ),
        (
            MemoryBulkCreate,
            {"personality_id": "p", "memories": [{"content": "x", "category": "food"}]},
            "memories[0].category",
        ),
        (VideoCreate, {"personality_id": "p", "text": "x" * 5001}, "text"),
        (VideoCreate, {"personality_id": "p", "text": "hi", "duration": 301}, "duration"),
        (VideoCreate, {"personality_id": "p", "text": "hi", "resolution": "4k"}, "resolution"),
        (WebhookCreate, {"url": HOOK, "events": ["memory.deleted"]}, "events[0]"),
        (WebhookCreate, {"url": HOOK, "events": []}, "events"),
        (WebhookCreate, {"url": "ftp://example.com/x", "events": ["memory.created"]}, "url"),
        (WebhookCreate, {"events": ["memory.created"]}, "url"),
    ],
)
def test_parse_maps_errors_to_params(kind: type, data: dict[str, Any], param: str) -> None:
    assert param_of(kind, data) == param


def test_parse_accepts_and_fills_defaults() -> None:
    created = parse(PersonalityCreate, {"name": "Ada", "traits": {"warmth": 1}})
    assert created.traits == Traits(warmth=1.0)
    assert created.voice.provider == "openai" and created.appearance.avatar_id == "ava"
    hook = parse(WebhookCreate, {"url": HOOK, "events": list(("memory.created", "video.failed"))})
    assert hook.enabled is True and hook.events == ["memory.created", "video.failed"]


def test_parse_is_strict_about_types() -> None:
    # strict: a numeric string is not a number, so typos in clients fail loudly
    assert param_of(PersonalityCreate, {"name": "Ada", "traits": {"warmth": "0.5"}}) == "traits.warmth"


def test_parse_rechecks_a_struct() -> None:
    loose = PersonalityCreate(name="Ada", traits=Traits(warmth=7.0))  # constructors do not validate
    assert param_of(PersonalityCreate, loose) == "traits.warmth"


def test_decode_bad_json_and_bad_fields() -> None:
    with pytest.raises(Invalid) as error:
        decode(PersonalityCreate, b"{not json")
    assert error.value.code == "body_invalid" and error.value.param is None
    with pytest.raises(Invalid) as error:
        decode(PersonalityCreate, b'{"name": "Ada", "traits": {"empathy": 2}}')
    assert error.value.param == "traits.empathy"
    assert decode(PersonalityCreate, b'{"name": "Ada"}').name == "Ada"


def test_metadata_limits() -> None:
    assert check_metadata({f"k{i}": i for i in range(50)}) == {f"k{i}": i for i in range(50)}
    cases = [
        ({f"k{i}": i for i in range(51)}, "metadata"),
        ({"k" * 41: 1}, "metadata." + "k" * 41),
        ({"": 1}, "metadata."),
        ({"blob": "x" * 8200}, "metadata"),
    ]
    for metadata, param in cases:
        with pytest.raises(Invalid) as error:
            check_metadata(metadata)
        assert error.value.param == param
    with pytest.raises(Invalid) as error:
        check_metadata({"x" * 41: 1}, param="settings")
    assert error.value.param == "settings." + "x" * 41


def test_merge_keeps_what_the_patch_leaves_out() -> None:
    traits = merge(Traits(warmth=0.2, humor=0.8), {"warmth": 0.9}, Traits, "traits")
    assert traits == Traits(warmth=0.9, humor=0.8)
    voice = merge(Voice(voice_id="nova"), {"settings": {"speed": 1.5}}, Voice, "voice")
    assert voice.voice_id == "nova" and voice.settings.speed == 1.5 and voice.settings.stability == 0.5


@pytest.mark.parametrize(
    "patch, param",
    [
        ({"warmth": 1.2}, "traits.warmth"),
        ({"charm": 0.5}, "traits.charm"),
        ({"warmth": None}, "traits.warmth"),
    ],
)
def test_merge_validates_with_the_prefix(patch: dict[str, Any], param: str) -> None:
    with pytest.raises(Invalid) as error:
        merge(Traits(), patch, Traits, "traits")
    assert error.value.param == param
