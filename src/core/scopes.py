"""Which scopes grant what (contract, section 4)."""

from collections.abc import Collection

from avatar_service.core.errors import Forbidden

# A scope listed here also grants the scopes it maps to.
IMPLIES = {"write": {"read"}}

# `read` grants every GET, so reading conversations and video generations takes their own scope or `read`.
READ_CONVERSATIONS = "conversations|read"
READ_VIDEOS = "video|read"


def grants(held: Collection[str], needed: str) -> bool:
    """Whether `held` grants `needed`: a scope, or alternatives written `a|b` (any one of them will do)."""
    if "|" in needed:
        return any(grants(held, alternative) for alternative in needed.split("|"))
    if "*" in held or needed in held:
        return True
    return any(needed in IMPLIES.get(scope, ()) for scope in held)


def require(held: Collection[str], *needed: str) -> None:
    missing = [scope.replace("|", " or ") for scope in needed if not grants(held, scope)]
    if missing:
        raise Forbidden(f"This API key lacks the scope(s): {', '.join(missing)}")


def for_mode(mode: str) -> tuple[str, ...]:
    """Scopes a conversation of this mode needs besides `conversations`."""
    return {"voice": ("voice",), "video": ("video",), "voice_video": ("voice", "video")}[mode]
