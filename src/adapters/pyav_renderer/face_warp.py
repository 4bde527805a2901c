"""Face poses as warps of one photograph: where the 68 landmarks go for a mouth or eye pose, and the
backward maps (for cv2.remap) that move the pixels with them, piecewise affine over a triangle mesh.

A pose moves landmarks; fixed points on the edge of the warped crop and rings of half-moving points
around the moving parts give the displacement a smooth falloff to zero, so no seam can show where the
warped crop meets the untouched photo. Maps are computed once per avatar and frame size, for a grid of
poses, and blended per frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

Rect = tuple[int, int, int, int]  # top, left, bottom, right

# Mouth shapes: (lip gap, mouth width) at full opening, as shares of the mouth's width at rest.
SHAPES = {
    "open": (0.42, 0.98),  # "ah": jaw down, lips apart
    "round": (0.30, 0.74),  # "oo", "oh": narrower, rounder
    "wide": (0.16, 1.07),  # "ee": lips spread, little gap
}
OPEN_LEVELS = np.linspace(0.0, 1.0, 7)


@dataclass(frozen=True)
class FaceFrame:
    """Sizes that scale every movement to the face, in frame pixels."""

    mouth_width: float
    face_height: float  # nose bridge to chin
    face_width: float


def face_frame(points: np.ndarray) -> FaceFrame:
    mouth = float(np.linalg.norm(points[54] - points[48]))
    height = float(np.linalg.norm(points[8] - points[27]))
    width = float(np.linalg.norm(points[16] - points[0]))
    return FaceFrame(max(mouth, 4.0), max(height, 8.0), max(width, 8.0))


def mouth_pose(points: np.ndarray, opening: float, shape: str) -> np.ndarray:
    """The 68 landmarks with the mouth `opening` (0..1) of `shape`; everything above the mouth stays."""
    gap_share, width_share = SHAPES[shape]
    f = face_frame(points)
    out = points.astype(np.float64).copy()
    gap = opening * gap_share * f.mouth_width
    # The photo's own parting (a smile showing teeth) counts toward the gap.
    rest_gap = max(0.0, float(points[66, 1] - points[62, 1]))
    gap = max(0.0, gap - 0.5 * rest_gap * opening)
    centre_x = float((points[48, 0] + points[54, 0]) / 2)
    half = f.mouth_width / 2
    squeeze = (width_share - 1.0) * opening  # negative: narrower

    def profile(x: np.ndarray) -> np.ndarray:
        # 1 at the mouth's centre, about 0.35 at its corners: lips part most in the middle.
        u = np.clip(np.abs(x - centre_x) / half, 0.0, 1.0)
        return 1.0 - 0.65 * u**2

    upper = [49, 50, 51, 52, 53, 61, 62, 63]
    lower = [55, 56, 57, 58, 59, 65, 66, 67]
    corners = [48, 54, 60, 64]
    out[upper, 1] -= 0.22 * gap * profile(points[upper, 0])
    out[lower, 1] += 0.78 * gap * profile(points[lower, 0])
    out[corners, 1] += 0.30 * gap
    # Narrowing or spreading pulls every lip point toward or away from the centre line.
    lips = list(range(48, 68))
    out[lips, 0] += (points[lips, 0] - centre_x) * squeeze
    if shape == "round":  # pursed lips push forward: they look a little fuller
        mid_y = float(points[[62, 66], 1].mean())
        out[lips, 1] += (points[lips, 1] - mid_y) * 0.12 * opening
    # The jaw drops with the lower lip: most at the chin, nothing at the ears (it turns about them).
    jaw_drop = 0.85 * gap
    weights = np.array([0, 0, 0.06, 0.18, 0.38, 0.62, 0.84, 0.97, 1.0, 0.97, 0.84, 0.62, 0.38, 0.18, 0.06, 0, 0])
    out[0:17, 1] += jaw_drop * weights
    # ...and swings slightly inward as it drops, as a jaw on its hinge does.
    out[0:17, 0] += (centre_x - points[0:17, 0]) * 0.02 * weights * opening * gap_share / 0.42
    return out


def eye_pose(points: np.ndarray, closure: float) -> np.ndarray:
    """The 68 landmarks with both upper lids lowered by `closure` (0 open .. 1 shut)."""
    out = points.astype(np.float64).copy()
    for upper, lower in (((37, 41), (38, 40)), ((43, 47), (44, 46))):
        for top, bottom in (upper, lower):
            span = points[bottom] - points[top]
            out[top] = points[top] + span * 0.92 * closure
            out[bottom] = points[bottom] - span * 0.08 * closure
    return out


@dataclass
class Mesh:
    """Control points (landmarks plus helpers) and triangles, fixed per avatar."""

    rect: Rect  # the crop the maps cover, in frame pixels
    triangles: np.ndarray  # (t, 3) int indices into the control points


def _ring(points: np.ndarray, centre: np.ndarray, scale: float) -> np.ndarray:
    return centre + (points - centre) * scale


def helpers(points: np.ndarray, rect: Rect, part: str) -> np.ndarray:
    """Points besides the landmarks: a fixed border around the crop, and rings that carry part of the
    movement so it fades out smoothly instead of stopping at the landmarks."""
    top, left, bottom, right = rect
    xs = np.linspace(left, right - 1, 9)
    ys = np.linspace(top, bottom - 1, 9)
    border = np.concatenate([
        np.stack([xs, np.full_like(xs, top)], 1), np.stack([xs, np.full_like(xs, bottom - 1)], 1),
        np.stack([np.full_like(ys[1:-1], left), ys[1:-1]], 1),
        np.stack([np.full_like(ys[1:-1], right - 1), ys[1:-1]], 1),
    ])
    if part == "mouth":
        jaw = points[2:15]
        width = float(np.linalg.norm(points[16] - points[0]))
        normals = _outward_normals(points[0:17])[2:15]
        # Two rings below the jaw line (neck, collar) and one between the mouth and the jaw line.
        near = jaw + normals * 0.16 * width
        far = jaw + normals * 0.38 * width
        inside = _ring(jaw, points[[48, 54, 57]].mean(axis=0), 0.62)
        return np.concatenate([border, near, far, inside])
    # Eyes: a ring between each eye and its brow, and one below.
    rings = []
    for eye in (range(36, 42), range(42, 48)):
        e = points[list(eye)]
        centre = e.mean(axis=0)
        rings.append(_ring(e, centre, 1.9))
        rings.append(_ring(e, centre, 3.0))
    return np.concatenate([border, *rings])


def helper_motion(rest_helpers: np.ndarray, rest: np.ndarray, posed: np.ndarray, part: str) -> np.ndarray:
    """Where the helpers go for a pose: the border stays; the rings follow part of the landmarks' motion."""
    moved = rest_helpers.copy()
    border = 32
    if part == "mouth":
        jaw_motion = posed[2:15] - rest[2:15]
        moved[border:border + 13] += 0.55 * jaw_motion  # the skin under the jaw stretches with it
        moved[border + 13:border + 26] += 0.12 * jaw_motion
        moved[border + 26:border + 39] += 0.9 * jaw_motion
        return moved
    offset = border
    for eye in (range(36, 42), range(42, 48)):
        motion = posed[list(eye)] - rest[list(eye)]
        moved[offset:offset + 6] += 0.35 * motion
        moved[offset + 6:offset + 12] += 0.0 * motion
        offset += 12
    return moved


def _outward_normals(jaw: np.ndarray) -> np.ndarray:
    """Unit normals of the jaw line pointing away from the face (down and out)."""
    tangents = np.gradient(jaw, axis=0)
    normals = np.stack([tangents[:, 1], -tangents[:, 0]], axis=1)
    normals /= np.maximum(np.linalg.norm(normals, axis=1, keepdims=True), 1e-6)
    if normals[8, 1] < 0:  # the chin's normal must point down
        normals = -normals
    return normals


def triangulate(points: np.ndarray, rect: Rect) -> np.ndarray:
    """Delaunay triangles over `points` (indices), via OpenCV's Subdiv2D."""
    top, left, bottom, right = rect
    subdiv = cv2.Subdiv2D((left - 2, top - 2, right - left + 4, bottom - top + 4))
    lookup: dict[tuple[float, float], int] = {}
    for index, (x, y) in enumerate(points):
        key = (round(float(x), 3), round(float(y), 3))
        if key in lookup:
            continue
        lookup[key] = index
        subdiv.insert((float(x), float(y)))
    triangles = []
    for x1, y1, x2, y2, x3, y3 in subdiv.getTriangleList():
        corners = []
        for x, y in ((x1, y1), (x2, y2), (x3, y3)):
            found = lookup.get((round(float(x), 3), round(float(y), 3)))
            if found is None:
                break
            corners.append(found)
        if len(corners) == 3:
            triangles.append(corners)
    return np.asarray(triangles, np.int32)


def backward_map(source: np.ndarray, target: np.ndarray, triangles: np.ndarray, rect: Rect
                 ) -> tuple[np.ndarray, np.ndarray]:
    """For each pixel of `rect` in the posed picture, where to read it in the photo (float32 x and y maps).

    Each triangle of the posed mesh maps affinely onto its triangle at rest; pixels no triangle covers
    read themselves.
    """
    top, left, bottom, right = rect
    height, width = bottom - top, right - left
    labels = np.zeros((height, width), np.int32)
    shift = np.array([left, top], np.float64)
    affines = np.zeros((len(triangles) + 1, 2, 3), np.float64)
    affines[0] = [[1, 0, 0], [0, 1, 0]]
    for index, corners in enumerate(triangles, start=1):
        dst = target[corners] - shift
        src = source[corners] - shift
        area = (dst[1, 0] - dst[0, 0]) * (dst[2, 1] - dst[0, 1]) - (dst[2, 0] - dst[0, 0]) * (dst[1, 1] - dst[0, 1])
        if abs(area) < 1e-6:
            affines[index] = affines[0]
            continue
        affines[index] = cv2.getAffineTransform(dst.astype(np.float32), src.astype(np.float32))
        polygon = np.round(dst * 16).astype(np.int32)  # 4 fractional bits
        cv2.fillConvexPoly(labels, polygon, index, lineType=cv2.LINE_8, shift=4)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
    a = affines[labels]
    map_x = a[..., 0, 0] * xs + a[..., 0, 1] * ys + a[..., 0, 2] + left
    map_y = a[..., 1, 0] * xs + a[..., 1, 1] * ys + a[..., 1, 2] + top
    return map_x.astype(np.float32), map_y.astype(np.float32)


def pose_maps(rest: np.ndarray, posed: np.ndarray, rect: Rect, part: str
              ) -> tuple[np.ndarray, np.ndarray]:
    """Backward maps of one pose over `rect`; the displacement is smoothed so mesh edges leave no kinks."""
    extra = helpers(rest, rect, part)
    extra_posed = helper_motion(extra, rest, posed, part)
    source = np.concatenate([rest, extra])
    target = np.concatenate([posed, extra_posed])
    top, left, bottom, right = rect
    # Only points inside the crop take part (the border helpers are on its edge).
    inside = ((source[:, 0] >= left - 0.01) & (source[:, 0] <= right - 0.99)
              & (source[:, 1] >= top - 0.01) & (source[:, 1] <= bottom - 0.99))
    source, target = source[inside], target[inside]
    target[:, 0] = np.clip(target[:, 0], left, right - 1)
    target[:, 1] = np.clip(target[:, 1], top, bottom - 1)
    # The mesh is cut where its points are well apart: the open mouth (the lips touch at rest), the open
    # eyes (the lids touch when shut). The same triangles serve both ends; none flips in between.
    triangles = triangulate(target if part == "mouth" else source, rect)
    map_x, map_y = backward_map(source, target, triangles, rect)
    ys, xs = np.mgrid[top:bottom, left:right].astype(np.float32)
    dx, dy = map_x - xs, map_y - ys
    # A light blur of the displacement rounds the creases between triangles; the lips' inner edge is
    # drawn over by the inner mouth, so the blur cannot smear it into view.
    sigma = max(0.8, 0.006 * (right - left))
    smooth_x = cv2.GaussianBlur(dx, (0, 0), sigma)
    smooth_y = cv2.GaussianBlur(dy, (0, 0), sigma)
    if part == "mouth":
        # Not across the lips' parting: there the blur would pull the photo's teeth onto the lower lip.
        lips = np.zeros(dx.shape, np.uint8)
        cv2.fillPoly(lips, [np.round(posed[48:60] - [left, top]).astype(np.int32)], 1)
        near = cv2.dilate(lips, np.ones((5, 5), np.uint8)).astype(bool)
        smooth_x[near], smooth_y[near] = dx[near], dy[near]
    return xs + smooth_x, ys + smooth_y
