"""Every allowed and every forbidden move of the four state tables, written out here independently."""

from __future__ import annotations

import itertools

import pytest

from avatar_service.core.errors import Conflict
from avatar_service.core.states import TABLES, check_move, is_final

# The intended lifecycles; a change to states.py must be a deliberate change here too.
ALLOWED = {
    "knowledge_item": {
        ("pending", "processing"),
        ("pending", "failed"),
        ("processing", "ready"),
        ("processing", "failed"),
        ("processing", "pending"),
        ("ready", "processing"),
        ("failed", "processing"),
    },
    "video.generation": {
        ("pending", "processing"),
        ("pending", "failed"),
        ("pending", "cancelled"),
        ("processing", "completed"),
        ("processing", "failed"),
        ("processing", "cancelled"),
        ("processing", "pending"),
    },
    "conversation": {
        ("connecting", "active"),
        ("connecting", "ended"),
        ("connecting", "failed"),
        ("active", "ended"),
        ("active", "failed"),
    },
    "game_session": {
        ("waiting", "active"),
        ("waiting", "completed"),
        ("waiting", "abandoned"),
        ("active", "waiting"),
        ("active", "completed"),
        ("active", "abandoned"),
    },
}
STATES = {
    "knowledge_item": ["pending", "processing", "ready", "failed"],
    "video.generation": ["pending", "processing", "completed", "failed", "cancelled"],
    "conversation": ["connecting", "active", "ended", "failed"],
    "game_session": ["waiting", "active", "completed", "abandoned"],
}
FINAL = {
    "knowledge_item": set(),  # ready and failed items are refreshed on schedule
    "video.generation": {"completed", "failed", "cancelled"},
    "conversation": {"ended", "failed"},
    "game_session": {"completed", "abandoned"},
}
PAIRS = [(kind, a, b) for kind, states in STATES.items() for a, b in itertools.product(states, states)]


def test_the_state_sets_are_the_specs() -> None:
    assert {kind: sorted(table) for kind, table in TABLES.items()} == {
        k: sorted(v) for k, v in STATES.items()
    }


@pytest.mark.parametrize("kind, current, new", [p for p in PAIRS if p[1:] in ALLOWED[p[0]]])
def test_allowed_move(kind: str, current: str, new: str) -> None:
    assert check_move(kind, current, new) == new


@pytest.mark.parametrize("kind, current, new", [p for p in PAIRS if p[1:] not in ALLOWED[p[0]]])
def test_forbidden_move_is_a_conflict(kind: str, current: str, new: str) -> None:
    with pytest.raises(Conflict) as error:
        check_move(kind, current, new)
    assert error.value.code == "state_conflict"
    assert f"'{current}'" in error.value.message and f"'{new}'" in error.value.message


@pytest.mark.parametrize("kind", STATES)
def test_final_states(kind: str) -> None:
    assert {s for s in STATES[kind] if is_final(kind, s)} == FINAL[kind]
    for state in FINAL[kind]:  # nothing leaves a final state, not even to itself
        assert not any(check_move_allowed(kind, state, new) for new in STATES[kind])


def test_no_state_moves_to_itself() -> None:
    assert not any(check_move_allowed(kind, s, s) for kind, states in STATES.items() for s in states)


def check_move_allowed(kind: str, current: str, new: str) -> bool:
    try:
        check_move(kind, current, new)
    except Conflict:
        return False
    return True
