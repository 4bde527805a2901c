"""The contract's scope table: what each scope grants, what it does not, and what each mode needs."""

from __future__ import annotations

import pytest

from avatar_service.core.errors import Forbidden
from avatar_service.core.scopes import for_mode, grants, require

SCOPES = ["*", "read", "write", "conversations", "chat", "voice", "video"]
# (held, needed) -> granted, for every single held scope against every scope an operation can need
GRANTED = {
    "*": set(SCOPES),
    "read": {"read"},
    "write": {"write", "read"},
    "conversations": {"conversations"},
    "chat": {"chat"},
    "voice": {"voice"},
    "video": {"video"},
}


@pytest.mark.parametrize("held", SCOPES)
@pytest.mark.parametrize("needed", SCOPES)
def test_single_scope_grants(held: str, needed: str) -> None:
    assert grants({held}, needed) is (needed in GRANTED[held])


def test_management_needs_star_even_with_every_other_scope() -> None:
    # /api-keys and /webhooks require "*": no combination of the other scopes reaches it
    assert not grants(set(SCOPES) - {"*"}, "*")


def test_require_names_every_missing_scope() -> None:
    require({"read"}, "read")
    require({"write"}, "read", "write")
    with pytest.raises(Forbidden) as error:
        require({"read", "conversations"}, "conversations", "voice", "video")
    assert error.value.code == "insufficient_scope"
    assert "voice" in error.value.message and "video" in error.value.message
    assert "conversations" not in error.value.message


@pytest.mark.parametrize(
    "mode, needed", [("voice", ("voice",)), ("video", ("video",)), ("voice_video", ("voice", "video"))]
)
def test_for_mode(mode: str, needed: tuple[str, ...]) -> None:
    assert for_mode(mode) == needed
    require({"conversations", *needed}, "conversations", *for_mode(mode))


def test_voice_video_needs_both() -> None:
    with pytest.raises(Forbidden):
        require({"conversations", "voice"}, "conversations", *for_mode("voice_video"))
    with pytest.raises(Forbidden):
        require({"conversations", "video"}, "conversations", *for_mode("voice_video"))
