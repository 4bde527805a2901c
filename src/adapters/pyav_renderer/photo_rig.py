"""Everything prepared once per photo avatar, background and frame size: the photo placed in the frame,
the backdrop behind its cut-out, the region that moves, and the warp maps of every mouth and eye pose.
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass

import cv2
import numpy as np

from avatar_service.adapters.pyav_renderer.backgrounds import make_backdrop
from avatar_service.adapters.pyav_renderer.face_warp import (
    OPEN_LEVELS,
    SHAPES,
    FaceFrame,
    Rect,
    eye_pose,
    face_frame,
    mouth_pose,
    pose_maps,
)
from avatar_service.adapters.pyav_renderer.inner_mouth import MouthColours, mouth_colours
from avatar_service.ports.portraits import Portrait

EYE_LEVELS = np.array([0.0, 0.5, 1.0])
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass
class PhotoRig:
    width: int
    height: int
    transparent: bool
    plain: bool  # no background setting: the frame is the photo itself
    person: np.ndarray  # what the warps read: (H, W, 3) uint8 when plain, else (H, W, 4) with the cut-out
    backdrop: np.ndarray | None  # (H, W, 3) uint8 behind the cut-out; None when plain or transparent
    rest: np.ndarray  # the whole frame at rest, (H, W, 3) or (H, W, 4) uint8
    points: np.ndarray  # (68, 2) landmarks in frame pixels
    face: FaceFrame
    region: Rect  # everything a pose may change lies inside
    grid: np.ndarray  # (2, h, w) float32 absolute coordinates of the region's pixels
    head_weight: np.ndarray  # (h, w) float32: how much of the head's motion each pixel follows
    breath_weight: np.ndarray  # (h, w) float32
    pivot: tuple[float, float]  # the head turns about the neck
    mouth_rect: Rect
    mouth_maps: dict[str, np.ndarray]  # shape -> (levels, 2, h, w) float32 absolute coordinates
    mouth_inner: dict[str, np.ndarray]  # shape -> (levels, 8, 2) inner-lip outline per level
    eye_rect: Rect
    eye_maps: np.ndarray  # (levels, 2, h, w)
    colours: MouthColours


def decode_portrait(portrait: Portrait) -> np.ndarray:
    rgba = cv2.imdecode(np.frombuffer(portrait.image_png, np.uint8), cv2.IMREAD_UNCHANGED)
    if rgba is None or rgba.ndim != 3 or rgba.shape[2] != 4:
        raise ValueError("the photo avatar's picture is not an RGBA PNG")
    return cv2.cvtColor(rgba, cv2.COLOR_BGRA2RGBA)


_cache: OrderedDict[tuple[str, str, int, int], PhotoRig] = OrderedDict()
_cache_lock = threading.Lock()


def photo_rig(portrait: Portrait, background: str, width: int, height: int) -> PhotoRig:
    """Cached (a few per process): a room and the renders of one avatar reuse the same rig."""
    digest = hashlib.blake2b(portrait.image_png, digest_size=12).hexdigest()
    # An image background is a path to a fresh temporary file: not worth keeping.
    key = (digest, background, width, height)
    cacheable = background in ("", "blur", "transparent") or bool(_COLOR.match(background))
    with _cache_lock:
        rig = _cache.get(key)
        if rig is not None:
            _cache.move_to_end(key)
            return rig
    rig = build_rig(portrait, background, width, height)
    if cacheable:
        with _cache_lock:
            _cache[key] = rig
            while len(_cache) > 4:
                _cache.popitem(last=False)
    return rig


def _even(value: float, down: bool) -> int:
    return 2 * (math.floor(value / 2) if down else math.ceil(value / 2))


def _rect(x0: float, y0: float, x1: float, y1: float, width: int, height: int) -> Rect:
    return (max(0, _even(y0, True)), max(0, _even(x0, True)), min(height, _even(y1, False)),
            min(width, _even(x1, False)))


def _place(image: np.ndarray, width: int, height: int) -> tuple[np.ndarray, float, int]:
    """The image scaled to the frame's height and centred (cropped or padded at the sides)."""
    h0, w0 = image.shape[:2]
    scale = height / h0
    scaled_w = max(1, round(w0 * scale))
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    scaled = cv2.resize(image, (scaled_w, height), interpolation=interpolation)
    offset = (width - scaled_w) // 2
    canvas = np.zeros((height, width, image.shape[2]), np.uint8)
    src0, dst0 = max(0, -offset), max(0, offset)
    span = min(scaled_w - src0, width - dst0)
    canvas[:, dst0:dst0 + span] = scaled[:, src0:src0 + span]
    return canvas, scale, offset


def _side_fill(rgb: np.ndarray, width: int, height: int) -> np.ndarray:
    """What shows beside a photo narrower than the frame: the photo itself, scaled to cover and blurred."""
    h0, w0 = rgb.shape[:2]
    scale = max(width / w0, height / h0)
    cover = cv2.resize(rgb, (max(width, round(w0 * scale)), max(height, round(h0 * scale))),
                       interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    y0, x0 = (cover.shape[0] - height) // 2, (cover.shape[1] - width) // 2
    cover = cover[y0:y0 + height, x0:x0 + width]
    return (cv2.GaussianBlur(cover, (0, 0), 0.03 * height) * 0.8).astype(np.uint8)


def _without_person(rgb: np.ndarray, alpha: np.ndarray, height: int) -> np.ndarray:
    """The background with the person's place filled from around it (normalised blur), then blurred."""
    keep = (1.0 - alpha)[..., None]
    sigma = 0.06 * height
    filled = cv2.GaussianBlur(rgb.astype(np.float32) * keep, (0, 0), sigma)
    weight = cv2.GaussianBlur(keep, (0, 0), sigma)[..., None]
    filled = filled / np.maximum(weight, 1e-3)
    mixed = rgb.astype(np.float32) * keep + filled * (1.0 - keep)
    return np.clip(cv2.GaussianBlur(mixed, (0, 0), 0.018 * height), 0, 255).astype(np.uint8)


def build_rig(portrait: Portrait, background: str, width: int, height: int) -> PhotoRig:
    rgba = decode_portrait(portrait)
    placed, scale, offset = _place(rgba, width, height)
    photo_rgb, alpha = placed[..., :3], placed[..., 3].astype(np.float32) / 255.0
    covered = np.zeros((height, width), bool)
    covered[:, max(0, offset):max(0, offset) + round(rgba.shape[1] * scale)] = True
    points = np.asarray(portrait.landmarks, np.float64) * scale + np.array([offset, 0.0])
    plain = background == ""
    transparent = background == "transparent"
    if plain:
        side = _side_fill(rgba[..., :3], width, height)
        person = np.where(covered[..., None], photo_rgb, side)
        backdrop = None
        rest = person.copy()
    else:
        person = np.dstack([photo_rgb, (alpha * 255 + 0.5).astype(np.uint8)])
        if transparent:
            backdrop = None
            rest = person.copy()
        else:
            if background == "blur":
                backdrop = _without_person(photo_rgb, alpha, height)
                if not covered.all():
                    side = _without_person(_side_fill(rgba[..., :3], width, height), np.zeros_like(alpha), height)
                    backdrop = np.where(covered[..., None], backdrop, side)
            else:
                backdrop = (make_backdrop(background, width, height).rgb * 255 + 0.5).astype(np.uint8)  # type: ignore[operator]
            a = alpha[..., None]
            rest = np.clip(photo_rgb * a + backdrop * (1 - a) + 0.5, 0, 255).astype(np.uint8)
    face = face_frame(points)
    fw = face.face_width
    cx = float(points[0:17, 0].mean())
    chin = float(points[8, 1])
    brow = float(points[17:27, 1].min())
    region = _rect(cx - 1.35 * fw, brow - 1.0 * fw, cx + 1.35 * fw, chin + 0.9 * fw, width, height)
    top, left, bottom, right = region
    ys, xs = np.mgrid[top:bottom, left:right].astype(np.float32)
    grid = np.stack([xs, ys])
    head_weight, breath_weight = _weights(xs, ys, region, cx, brow, chin, fw)
    mouth_rect = _rect(points[2:15, 0].min() - 0.3 * fw, points[29, 1],
                       points[2:15, 0].max() + 0.3 * fw, chin + 0.62 * fw, width, height)
    mouth_maps, mouth_inner = {}, {}
    for shape in SHAPES:
        maps, inner = [], []
        for level in OPEN_LEVELS:
            posed = mouth_pose(points, float(level), shape)
            maps.append(np.stack(pose_maps(points, posed, mouth_rect, "mouth")))
            inner.append(posed[60:68])
        mouth_maps[shape] = np.stack(maps).astype(np.float32)
        mouth_inner[shape] = np.stack(inner)
    eye_rect = _rect(points[17:27, 0].min() - 0.06 * fw, points[17:27, 1].min() - 0.04 * fw,
                     points[17:27, 0].max() + 0.06 * fw, points[36:48, 1].max() + 0.18 * fw, width, height)
    eye_maps = np.stack([np.stack(pose_maps(points, eye_pose(points, float(c)), eye_rect, "eyes"))
                         for c in EYE_LEVELS]).astype(np.float32)
    return PhotoRig(width, height, transparent, plain, np.ascontiguousarray(person), backdrop, rest, points, face,
                    region, grid, head_weight, breath_weight, (cx, chin + 0.35 * fw), mouth_rect, mouth_maps,
                    mouth_inner, eye_rect, eye_maps, mouth_colours(photo_rgb, points))


def _smoothstep(edge0: float, edge1: float, x: np.ndarray) -> np.ndarray:
    t = np.clip((x - edge0) / (edge1 - edge0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def _weights(xs: np.ndarray, ys: np.ndarray, region: Rect, cx: float, brow: float, chin: float, fw: float
             ) -> tuple[np.ndarray, np.ndarray]:
    """The head follows its motion fully inside an ellipse around face and hair, fading out over the neck
    and the background around it; breath lifts the middle of the region. Both are 0 on the region's edge."""
    top, left, bottom, right = region
    centre_y = (brow + chin) / 2 - 0.1 * fw
    radius_x, radius_y = 0.78 * fw, 0.5 * (chin - brow) + 0.5 * fw
    distance = np.sqrt(((xs - cx) / radius_x) ** 2 + ((ys - centre_y) / radius_y) ** 2)
    head = 1.0 - _smoothstep(1.0, 1.55, distance)
    edge = np.minimum.reduce([xs - left, right - 1 - xs, ys - top, bottom - 1 - ys])
    border = _smoothstep(0.0, max(6.0, 0.12 * fw), edge)
    breath = border * _smoothstep(0.0, 1.0, (ys - top) / max(1.0, chin - top))
    return (head * border).astype(np.float32), breath.astype(np.float32)

