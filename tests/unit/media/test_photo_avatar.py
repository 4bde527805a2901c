"""Photo avatars on the astronaut portrait: the upload analysis, the warps (what moves and what stays the
photo), the backgrounds, a render, and the room's live track."""

from __future__ import annotations

import asyncio
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import av
import numpy as np
import pytest

from avatar_service.adapters.aiortc_rooms.video import AvatarVideoTrack, avatar_composer
from avatar_service.adapters.dlib_faces import DlibFaceFinder, _models
from avatar_service.adapters.portrait_analysis import PortraitAnalysis
from avatar_service.adapters.pyav_renderer import PyAVRenderer
from avatar_service.adapters.pyav_renderer.photo import LivePhoto, PhotoComposer, Pose
from avatar_service.adapters.pyav_renderer.photo_rig import photo_rig
from avatar_service.ports.portraits import Portrait
from avatar_service.ports.renderer import RenderRequest
from avatar_service.ports.speech import Audio

PORTRAIT = Path(__file__).parents[2] / "data" / "astronaut.png"


@cache
def portrait() -> Portrait:
    return PortraitAnalysis(DlibFaceFinder()).analyze(PORTRAIT.read_bytes())


def inner_gap(rgb: np.ndarray) -> float:
    """The inner lips' gap (pixels) that dlib measures on a picture."""
    hog, _, predictor = _models()
    faces = hog(rgb, 0)
    assert faces, "no face found on the rendered picture"
    shape = predictor(rgb, max(faces, key=lambda r: r.width()))
    points = np.array([[shape.part(i).x, shape.part(i).y] for i in range(68)], np.float64)
    return float(np.mean(points[[65, 66, 67], 1] - points[[63, 62, 61], 1]))


def test_analysis_finds_the_face_and_cuts_the_person_out() -> None:
    found = portrait()
    assert (found.width, found.height) == (512, 512)
    left, top, right, bottom = found.face_box
    assert right - left >= 96 and 150 < (left + right) / 2 < 290 and 50 < (top + bottom) / 2 < 190
    points = np.asarray(found.landmarks)
    assert points.shape == (68, 2)
    assert (points[36:48, 1].mean() < points[48:68, 1].mean() < points[8, 1])  # eyes above mouth above chin
    import cv2

    rgba = cv2.imdecode(np.frombuffer(found.image_png, np.uint8), cv2.IMREAD_UNCHANGED)
    alpha = rgba[..., 3]
    assert alpha[int(points[30, 1]), int(points[30, 0])] == 255  # the nose is the person
    assert alpha[5, 5] == 0 and alpha[5, 506] == 0  # the studio backdrop is not
    assert 0.2 < (alpha > 127).mean() < 0.75


def test_rest_pose_is_the_photo_and_poses_move_only_their_part() -> None:
    rig = photo_rig(portrait(), "", 854, 480)
    composer = PhotoComposer(rig)
    rest, _ = composer.still(Pose())
    assert np.array_equal(rest, rig.rest)
    left = (854 - 480) // 2
    import cv2

    photo = cv2.resize(cv2.cvtColor(cv2.imread(str(PORTRAIT)), cv2.COLOR_BGR2RGB), (480, 480),
                       interpolation=cv2.INTER_AREA)
    assert np.abs(rest[:, left:left + 480].astype(int) - photo).mean() < 1.0  # scaled to the height, centred

    def changed(pose: Pose) -> np.ndarray:
        moved, _ = composer.still(pose)
        return np.any(moved != rest, axis=2)

    m_top, m_left, m_bottom, m_right = rig.mouth_rect
    mouth = changed(Pose(opening=0.8))
    assert mouth[m_top:m_bottom, m_left:m_right].mean() > 0.05
    mouth[m_top:m_bottom, m_left:m_right] = False
    assert not mouth.any()  # nothing outside the mouth-and-jaw crop moved
    e_top, e_left, e_bottom, e_right = rig.eye_rect
    eyes = changed(Pose(closure=1.0))
    assert eyes[e_top:e_bottom, e_left:e_right].any()
    eyes[e_top:e_bottom, e_left:e_right] = False
    assert not eyes.any()
    head = changed(Pose(head=(0.02, 0.01, 0.0, 0.0)))
    top, region_left, bottom, right = rig.region
    assert head.any()
    head[top:bottom, region_left:right] = False
    assert not head.any()  # the head's motion stays inside the region it was planned for


def test_the_lips_part_where_landmarks_find_them_again() -> None:
    composer = PhotoComposer(photo_rig(portrait(), "", 854, 480))
    gaps = [inner_gap(composer.still(Pose(opening=value))[0]) for value in (0.0, 0.5, 1.0)]
    assert gaps[0] < gaps[1] < gaps[2]
    assert gaps[2] - gaps[0] > 8  # pixels at 480 rows


def test_backgrounds_use_the_cut_out() -> None:
    plain, _ = PhotoComposer(photo_rig(portrait(), "", 854, 480)).still()
    green, _ = PhotoComposer(photo_rig(portrait(), "#00ff00", 854, 480)).still()
    assert green[5, 5].tolist() == [0, 255, 0] and green[5, 848].tolist() == [0, 255, 0]
    rig = photo_rig(portrait(), "", 854, 480)
    nose = rig.points[30].round().astype(int)
    assert np.abs(green[nose[1], nose[0]].astype(int) - plain[nose[1], nose[0]]).max() <= 2  # the face stays
    _, alpha = PhotoComposer(photo_rig(portrait(), "transparent", 854, 480)).still()
    assert alpha is not None and alpha[5, 5] == 0 and alpha[nose[1], nose[0]] == 255
    blurred, _ = PhotoComposer(photo_rig(portrait(), "blur", 854, 480)).still()
    assert np.abs(blurred[nose[1], nose[0]].astype(int) - plain[nose[1], nose[0]]).max() <= 2
    corner = (slice(0, 60), slice(190, 250))  # the flag behind her: sharp in the photo, blurred here
    assert blurred[corner].astype(float).std() < 0.8 * plain[corner].astype(float).std()


def test_an_image_background_is_behind_the_cut_out(tmp_path: Path) -> None:
    """An image background (a video's `background` URL, fetched to a file by the renderer) fills the frame
    ("cover": scaled to fill, the middle kept) where the cut-out is not the person; the person is the photo."""
    import cv2

    # 1280x960: a left-to-right red ramp over a top-to-bottom blue ramp, so every place in it is told apart.
    y, x = np.mgrid[0:960, 0:1280].astype(np.float32)
    scene = np.dstack([x / 1279 * 255, np.full_like(x, 90), y / 959 * 255]).round().astype(np.uint8)
    path = tmp_path / "beach.png"
    assert cv2.imwrite(str(path), cv2.cvtColor(scene, cv2.COLOR_RGB2BGR))
    plain_rig = photo_rig(portrait(), "", 854, 480)
    plain, _ = PhotoComposer(plain_rig).still()
    framed, alpha = PhotoComposer(photo_rig(portrait(), str(path), 854, 480)).still()
    assert alpha is None and framed.shape == (480, 854, 3)
    # Cover: 1280x960 scaled by 854/1280 is 854x640, its middle 480 rows kept (80 rows cut above and below).
    expected = cv2.resize(scene, (854, 640), interpolation=cv2.INTER_CUBIC)[80:560].astype(int)
    for row, column in ((5, 5), (5, 848), (470, 5), (470, 848), (10, 300)):  # corners, and above her shoulder
        assert np.abs(framed[row, column].astype(int) - expected[row, column]).max() <= 4, (row, column)
    assert framed[5, 5, 0] < 20 and framed[5, 848, 0] > 235  # the ramp runs across the whole frame
    person = _cut_out_alpha(plain_rig) > 0.98
    assert person.mean() > 0.15
    assert np.abs(framed[person].astype(int) - plain[person]).mean() < 1.0  # the person is the photo itself
    backdrop = _cut_out_alpha(plain_rig) < 0.02
    assert np.abs(framed[backdrop].astype(int) - expected[backdrop]).mean() < 3  # the studio is gone
    nose = plain_rig.points[30].round().astype(int)
    assert np.abs(framed[nose[1], nose[0]].astype(int) - plain[nose[1], nose[0]]).max() <= 2
    # The live room does not fetch an image for its background: a room shows the photo as it is.
    live = avatar_composer("avatar_x", "realistic", str(path), 854, 480, portrait())
    assert isinstance(live, LivePhoto) and live.composer.rig.plain


def _cut_out_alpha(rig: Any) -> np.ndarray:
    """The person's alpha (0..1) as placed in the frame: a transparent rig's rest frame carries it."""
    transparent = photo_rig(portrait(), "transparent", rig.width, rig.height)
    _, alpha = PhotoComposer(transparent).still()
    assert alpha is not None
    return np.asarray(alpha, np.float32) / 255.0


def speech_like(seconds: float, rate: int = 16_000) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    envelope = np.clip(np.sin(2 * np.pi * 2.5 * t), 0, None) ** 2
    return (envelope * np.sin(2 * np.pi * 160 * t) * 14_000).astype(np.int16)


@pytest.mark.parametrize(("background", "suffix"), [("", ".mp4"), ("transparent", ".webm")])
def test_render_a_photo_avatar(tmp_path: Path, background: str, suffix: str) -> None:
    request = RenderRequest(Audio(speech_like(1.2), 16_000), "avatar_x", "realistic", background, "480p",
                            tmp_path / "out", photo=portrait())
    result = PyAVRenderer().render(request, lambda _: None, lambda: False)
    assert result.video_path.suffix == suffix and result.thumbnail_path.exists()
    with av.open(str(result.video_path)) as container:
        frames = [frame.to_ndarray(format="rgb24") for frame in container.decode(video=0)]
    assert len(frames) == 30 and frames[0].shape == (480, 854, 3)
    assert result.duration == pytest.approx(1.2)


async def test_the_room_track_shows_the_photo_talking() -> None:
    live = avatar_composer("avatar_x", "realistic", "", 480, 360, portrait())
    assert isinstance(live, LivePhoto)
    voice: Any = SimpleNamespace(level=0.0)
    track = AvatarVideoTrack(live, voice, fps=30)
    silent = (await track.recv()).to_ndarray(format="rgb24")
    voice.level = 0.2  # loud: the mouth opens at once
    loud = (await track.recv()).to_ndarray(format="rgb24")
    rig = live.composer.rig
    m_top, m_left, m_bottom, m_right = rig.mouth_rect
    assert silent.shape == (360, 480, 3)
    assert inner_gap(loud) > inner_gap(silent) + 4
    # Outside the region that moves, the frames are the photo (only the encoder's rounding differs).
    top, left, bottom, right = rig.region
    outside = np.ones(silent.shape[:2], bool)
    outside[top:bottom, left:right] = False
    assert np.abs(loud.astype(int) - silent)[outside].max() <= 2
    assert np.abs(loud[m_top:m_bottom, m_left:m_right].astype(int) - silent[m_top:m_bottom, m_left:m_right]).max() > 60
    track.stop()
    await asyncio.sleep(0)
