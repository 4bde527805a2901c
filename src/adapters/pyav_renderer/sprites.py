"""Everything drawn once per (avatar, style, frame size): body, head, and the mouth and eye patches."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from avatar_service.adapters.pyav_renderer.avatars import (
    AVATARS,
    BODY_BOX,
    EYE_POSES,
    EYES_BOX,
    HEAD_BOX,
    MOUTH_BOX,
    MOUTH_POSES,
    body_layers,
    head_layers,
)
from avatar_service.adapters.pyav_renderer.raster import Canvas

Rect = tuple[int, int, int, int]  # top, left, bottom, right in frame pixels; always even


@dataclass(frozen=True)
class Sprites:
    scale: float  # pixels per avatar unit
    body_rect: Rect
    body: np.ndarray  # premultiplied RGBA float32
    head_rect: Rect  # where the head sits when the offset is (0, 0)
    head: np.ndarray  # mouth pose 0, eye pose 0
    mouth_rect: Rect
    mouths: tuple[np.ndarray, ...]  # RGB float32, one per MOUTH_POSES entry; opaque (over the face)
    eyes_rect: Rect
    eyes: tuple[np.ndarray, ...]  # RGB float32, one per EYE_POSES entry


def pixel_rect(units: tuple[float, float, float, float], width: int, height: int, scale: float) -> Rect:
    """Even-aligned pixel rectangle covering an avatar-unit box, clipped to the frame."""
    x0, y0, x1, y1 = units
    left = max(0, _even_floor(width / 2 + x0 * scale))
    right = min(width, _even_ceil(width / 2 + x1 * scale))
    top = max(0, _even_floor(y0 * scale))
    bottom = min(height, _even_ceil(y1 * scale))
    return top, left, bottom, right


def _even_floor(value: float) -> int:
    return 2 * math.floor(value / 2)


def _even_ceil(value: float) -> int:
    return 2 * math.ceil(value / 2)


def _canvas(rect: Rect, width: int, scale: float) -> Canvas:
    top, left, bottom, right = rect
    origin = ((left - width / 2) / scale, top / scale)
    return Canvas(right - left, bottom - top, scale, origin)


@lru_cache(maxsize=8)
def build_sprites(avatar_id: str, style: str, width: int, height: int) -> Sprites:
    """Cached: a service renders the same few avatars at the same few sizes over and over."""
    look = AVATARS[avatar_id]
    scale = height / 100.0
    body_rect = pixel_rect(BODY_BOX, width, height, scale)
    body = _canvas(body_rect, width, scale).paint(body_layers(look, style)).rgba
    head_rect = pixel_rect(HEAD_BOX, width, height, scale)
    head = _canvas(head_rect, width, scale).paint(head_layers(look, style, MOUTH_POSES[0], EYE_POSES[0])).rgba
    mouth_rect = pixel_rect(MOUTH_BOX, width, height, scale)
    eyes_rect = pixel_rect(EYES_BOX, width, height, scale)
    mouths = tuple(
        _canvas(mouth_rect, width, scale).paint(head_layers(look, style, pose, EYE_POSES[0])).rgba[..., :3]
        for pose in MOUTH_POSES
    )
    eyes = tuple(
        _canvas(eyes_rect, width, scale).paint(head_layers(look, style, MOUTH_POSES[0], pose)).rgba[..., :3]
        for pose in EYE_POSES
    )
    for array in (body, head, *mouths, *eyes):
        array.setflags(write=False)  # shared between renders through the cache
    return Sprites(scale, body_rect, body, head_rect, head, mouth_rect, mouths, eyes_rect, eyes)
