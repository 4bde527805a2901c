"""The four state sets and their allowed transitions; any other move is a Conflict."""

from avatar_service.core.errors import Conflict

KNOWLEDGE = {
    "pending": {"processing", "failed"},
    "processing": {"ready", "failed", "pending"},  # back to pending when a crashed run is re-queued
    "ready": {"processing"},  # a scheduled refresh
    "failed": {"processing"},  # a scheduled refresh may recover it
}
VIDEO = {
    "pending": {"processing", "failed", "cancelled"},
    "processing": {"completed", "failed", "cancelled", "pending"},
    "completed": set(),
    "failed": set(),
    "cancelled": set(),
}
CONVERSATION = {
    "connecting": {"active", "ended", "failed"},
    "active": {"ended", "failed"},
    "ended": set(),
    "failed": set(),
}
GAME = {
    "waiting": {"active", "completed", "abandoned"},
    "active": {"waiting", "completed", "abandoned"},
    "completed": set(),
    "abandoned": set(),
}
TABLES = {"knowledge_item": KNOWLEDGE, "video.generation": VIDEO, "conversation": CONVERSATION, "game_session": GAME}
FINAL = {kind: {s for s, nxt in table.items() if not nxt} for kind, table in TABLES.items()}


def can_move(kind: str, current: str, new: str) -> bool:
    return new in TABLES[kind][current]


def check_move(kind: str, current: str, new: str) -> str:
    """Returns `new` when the table allows current -> new, else raises Conflict."""
    if not can_move(kind, current, new):
        raise Conflict(f"A {kind.replace('.', ' ').replace('_', ' ')} that is '{current}' cannot become '{new}'")
    return new


def is_final(kind: str, status: str) -> bool:
    return status in FINAL[kind]
