"""The inside of a parting mouth, drawn where the warped lips open: dark cavity, upper teeth, tongue, shading.

Drawn on a small crop around the lips each frame, anti-aliased (the outline is filled at 4x and
averaged down), in colours taken from the photo: the lips' own red for the cavity and tongue, the
teeth's own white when the photo shows them. Lower teeth are left out: at video sizes their thin band
along the lower lip read as an outline, not as teeth.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SUPERSAMPLE = 4


@dataclass(frozen=True)
class MouthColours:
    cavity: np.ndarray  # (3,) float32 RGB 0..255
    teeth: np.ndarray
    tongue: np.ndarray


def mouth_colours(photo: np.ndarray, points: np.ndarray) -> MouthColours:
    """Colours sampled from the (frame-sized) photo around its landmarks."""
    height, width = photo.shape[:2]
    outer = np.zeros((height, width), np.uint8)
    cv2.fillPoly(outer, [points[48:60].round().astype(np.int32)], 1)
    inner = np.zeros((height, width), np.uint8)
    cv2.fillPoly(inner, [points[60:68].round().astype(np.int32)], 1)
    lip_pixels = photo[(outer == 1) & (inner == 0)].astype(np.float32)
    lips = np.median(lip_pixels, axis=0) if len(lip_pixels) else np.array([170, 90, 90], np.float32)
    teeth = None
    inside = photo[inner == 1].astype(np.float32)
    if len(inside) >= 12:
        luma = inside @ np.array([0.2126, 0.7152, 0.0722], np.float32)
        chroma = inside.max(axis=1) - inside.min(axis=1)
        bright = inside[(luma > np.percentile(luma, 60)) & (chroma < 0.35 * np.maximum(luma, 1))]
        if len(bright) >= 6:
            teeth = np.median(bright, axis=0)
    if teeth is None:
        # No teeth in the photo: an ivory as bright as the lips' surroundings allow.
        skin = np.median(photo[max(0, int(points[33, 1]) - 2): int(points[33, 1]) + 3,
                               int(points[31, 0]): int(points[35, 0]) + 1].reshape(-1, 3), axis=0)
        level = float(np.clip(skin.mean() * 1.15, 150, 235))
        teeth = np.array([0.97, 0.94, 0.88], np.float32) * level
    cavity = lips * np.array([0.20, 0.11, 0.11], np.float32)
    tongue = lips * np.array([0.62, 0.40, 0.42], np.float32) + np.array([12, 0, 0], np.float32)
    return MouthColours(cavity.astype(np.float32), teeth.astype(np.float32), np.clip(tongue, 0, 255).astype(np.float32))


def _smoothstep(edge0: float, edge1: float, x: np.ndarray) -> np.ndarray:
    t = np.clip((x - edge0) / (edge1 - edge0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def _curve(points: np.ndarray, xs: np.ndarray) -> np.ndarray:
    order = np.argsort(points[:, 0])
    return np.interp(xs, points[order, 0], points[order, 1])


def draw_inner_mouth(image: np.ndarray, inner: np.ndarray, mouth_width: float, opacity: float,
                     colours: MouthColours) -> None:
    """Draws into `image` (uint8 RGB or RGBA, modified in place) inside the inner-lip outline `inner`
    (8 points in the image's pixels, 60..67 of the 68-point scheme)."""
    if opacity <= 0.0:
        return
    # Landmarks sit on the border between lip and teeth: reach a little past them, so no sliver of the
    # photo's own teeth stays on the moving lower lip.
    inner = inner.astype(np.float64).copy()
    inner[[5, 6, 7], 1] += 0.035 * mouth_width
    inner[[1, 2, 3], 1] -= 0.008 * mouth_width
    height, width = image.shape[:2]
    x0 = max(int(np.floor(inner[:, 0].min())) - 2, 0)
    x1 = min(int(np.ceil(inner[:, 0].max())) + 3, width)
    y0 = max(int(np.floor(inner[:, 1].min())) - 2, 0)
    y1 = min(int(np.ceil(inner[:, 1].max())) + 3, height)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return
    local = inner - np.array([x0, y0], np.float64)
    big = np.zeros(((y1 - y0) * SUPERSAMPLE, (x1 - x0) * SUPERSAMPLE), np.uint8)
    polygon = np.round((local + 0.5) * SUPERSAMPLE * 16 - 0.5 * 16).astype(np.int32)
    cv2.fillPoly(big, [polygon], 255, lineType=cv2.LINE_8, shift=4)
    coverage = cv2.resize(big, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    if coverage.max() <= 0.0:
        return
    xs = np.arange(x1 - x0, dtype=np.float64)
    ys = np.arange(y1 - y0, dtype=np.float64)[:, None]
    top = _curve(local[[0, 1, 2, 3, 4]], xs)[None, :]
    bottom = _curve(local[[4, 5, 6, 7, 0]], xs)[None, :]
    gap = np.maximum(bottom - top, 0.5)
    centre = float(local[[0, 4], 0].mean())
    half = max(mouth_width / 2, 2.0)
    across = np.clip(np.abs(xs - centre) / half, 0, 1)[None, :]
    depth = np.clip((ys - top) / gap, 0, 1)
    # Cavity: darkest deep inside, a touch lighter toward the lips.
    picture = np.broadcast_to(colours.cavity, (y1 - y0, x1 - x0, 3)).astype(np.float32)
    picture = picture * (0.75 + 0.35 * np.abs(2 * depth - 1))[..., None]
    # Tongue: a soft mound resting on the floor of the mouth, seen once the mouth is well open.
    tongue_h = np.clip(gap * 0.38, 0, None)
    floor = bottom - 0.1 * gap
    mound = 1.0 - ((xs[None, :] - centre) / (0.62 * half)) ** 2 - ((ys - floor) / np.maximum(tongue_h, 0.5)) ** 2
    tongue = _smoothstep(0.0, 0.25, mound) * _smoothstep(0.1 * mouth_width, 0.3 * mouth_width, gap)
    tongue_shade = (0.7 + 0.3 * _smoothstep(0.0, 1.0, mound))[..., None]
    picture = picture * (1 - tongue[..., None]) + colours.tongue * tongue_shade * tongue[..., None]
    # Upper teeth: a band hanging from the upper lip, shaded toward the corners and under the lip.
    tooth_h = np.minimum(0.15 * mouth_width * (1 - 0.5 * across**2), 0.58 * gap)
    below_lip = ys - top
    upper = _smoothstep(-0.5, 0.6, below_lip) * (1 - _smoothstep(tooth_h - 0.8, tooth_h + 0.4, below_lip))
    upper = upper * (1 - _smoothstep(0.78, 0.95, across))
    shade = (1 - 0.55 * across**2) * (0.72 + 0.28 * _smoothstep(0.0, 0.45, below_lip / np.maximum(tooth_h, 1)))
    # Faint gaps between the front teeth.
    spacing = 0.105 * mouth_width
    offset = (xs[None, :] - centre) / spacing
    seams = 1 - 0.14 * np.exp(-((offset - np.round(offset)) * spacing) ** 2 / 0.6)
    teeth_colour = colours.teeth * (shade * seams)[..., None]
    picture = picture * (1 - upper[..., None]) + teeth_colour * upper[..., None]
    # The lips' edges shade what is just inside them.
    rim = _smoothstep(0.0, 2.2, cv2.distanceTransform((coverage > 0.5).astype(np.uint8), cv2.DIST_L2, 3))
    picture = picture * (0.62 + 0.38 * rim)[..., None]
    alpha = (coverage * opacity)[..., None]
    target = image[y0:y1, x0:x1, :3]
    target[...] = np.clip(target * (1 - alpha) + picture * alpha + 0.5, 0, 255).astype(np.uint8)
