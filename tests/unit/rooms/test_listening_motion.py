"""The avatar's head in a room: a slow sway at rest and, while the user speaks, a small nod every NOD_EVERY
seconds (HeadMotion), drawn into the frames the room's video track sends."""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest

from avatar_service.adapters.aiortc_rooms.video import AvatarVideoTrack, DrawnAvatar, HeadMotion, avatar_composer

FPS = 15


@pytest.fixture(scope="module")
def avatar() -> DrawnAvatar:
    made = avatar_composer("ava", "cartoon", "", 480, 360)  # the rooms' video size
    assert isinstance(made, DrawnAvatar)
    return made


def poses(motion: HeadMotion, seconds: float, listening: Any = lambda t: True) -> list[tuple[float, int, int]]:
    return [(i / FPS, *motion.offset(i / FPS, listening(i / FPS))) for i in range(int(seconds * FPS))]


def test_the_head_moves_over_time_at_rest_and_while_listening(avatar: DrawnAvatar) -> None:
    for listening in (lambda t: False, lambda t: True):
        seen = poses(HeadMotion(avatar.px_per_unit), 30, listening)
        assert len({x for _, x, _ in seen}) >= 2  # it sways: not one frozen position
        changes = sum(1 for a, b in itertools.pairwise(seen) if a[1:] != b[1:])
        assert changes >= 4
        assert all(x % 2 == 0 and y % 2 == 0 for _, x, y in seen)  # even offsets: the chroma grid stays aligned
    listening = poses(HeadMotion(avatar.px_per_unit), 30)
    assert len({y for _, _, y in listening}) >= 2  # and nods


def test_a_listening_head_nods_every_couple_of_seconds_and_stops_when_the_user_does(avatar: DrawnAvatar) -> None:
    """Against a resting head with the same sway: the listening one is the same but for a dip of the head at
    each nod, every NOD_EVERY seconds while the user speaks, and none after."""
    speaking_until = 9.0
    listening = poses(HeadMotion(avatar.px_per_unit), 14, lambda t: t < speaking_until)
    resting = poses(HeadMotion(avatar.px_per_unit), 14, lambda t: False)
    assert [x for _, x, _ in listening] == [x for _, x, _ in resting]  # a nod is vertical only
    dips = [t for (t, _, y), (_, _, rest) in zip(listening, resting, strict=True) if y != rest]
    assert all(y >= rest for (_, _, y), (_, _, rest) in zip(listening, resting, strict=True))  # down, not up

    starts = [round(k * HeadMotion.NOD_EVERY, 6) for k in range(math.ceil(speaking_until / HeadMotion.NOD_EVERY))]
    for start in starts:  # every nod is seen: some frames within it, and the head back after it
        within = [t for t in dips if start <= t < start + HeadMotion.NOD_SECONDS]
        assert len(within) >= 2, (start, dips)
    assert all(any(s <= t < s + HeadMotion.NOD_SECONDS for s in starts) for t in dips)  # no dip between nods
    assert not [t for t in dips if t >= starts[-1] + HeadMotion.NOD_SECONDS]  # the user stopped: no more nods


async def test_the_video_track_draws_the_nods_while_the_pipeline_hears_the_user(avatar: DrawnAvatar) -> None:
    class NoWait:
        async def wait(self, seconds: float) -> None:
            return None

    hearing = {"now": False}
    track = AvatarVideoTrack(avatar, None, FPS, listening=lambda: hearing["now"])
    track._pacer = NoWait()  # type: ignore[assignment]  # frames as fast as asked, not in real time
    sent: list[tuple[int, int]] = []
    track.on_pose = lambda dx, dy, mouth, eyes: sent.append((dx, dy))
    for _ in range(3 * FPS):
        await track.recv()
    hearing["now"] = True  # the user starts speaking
    for _ in range(3 * FPS):
        await track.recv()
    track.stop()
    resting = [HeadMotion(avatar.px_per_unit).offset(i / FPS, False) for i in range(6 * FPS)]
    assert sent[:3 * FPS] == resting[:3 * FPS]
    dips = [i for i in range(3 * FPS, 6 * FPS) if sent[i][1] > resting[i][1]]
    assert dips and dips[0] - 3 * FPS <= 3  # the first nod shows within 0.2 s of the user starting
    assert len({d // int(HeadMotion.NOD_EVERY * FPS) for d in dips}) >= 2  # and another follows
