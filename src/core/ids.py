"""Resource ids: a prefix plus 24 unguessable URL-safe characters."""

import re
import secrets

PREFIXES = {
    "api_key": "key_",
    "webhook": "wh_",
    "memory": "mem_",
    "personality": "personality_",
    "knowledge_item": "kb_",
    "game_session": "gs_",
    "video.generation": "vid_",
    "conversation": "conv_",
    "user": "user_",
    "organization": "org_",
    "event": "evt_",
    "webhook_delivery": "whd_",
    "chunk": "chunk_",
    "job": "job_",
    "tool_call": "call_",
    "avatar": "avatar_",
}

# What follows the prefix: URL-safe characters only, so e.g. a NUL never reaches a query.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")


def new_id(kind: str) -> str:
    # 18 random bytes -> 24 base64url characters (144 bits).
    return PREFIXES[kind] + secrets.token_urlsafe(18)


def looks_like(kind: str, ident: str) -> bool:
    """A cheap shape check: a malformed id is simply not found, never an error of another kind."""
    prefix = PREFIXES[kind]
    return ident.startswith(prefix) and _TOKEN.fullmatch(ident[len(prefix):]) is not None
