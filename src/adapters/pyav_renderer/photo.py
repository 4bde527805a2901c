"""Photo avatars: a photograph that talks. Each frame warps the photo's moving region (mouth and jaw,
eyelids, head and breath) with one cv2.remap, draws the inner mouth where the lips part, and pastes the
region into the frame's planes; everything outside that region is converted once per render.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import av
import cv2
import numpy as np

from avatar_service.adapters.pyav_renderer.encoder import write_thumbnail
from avatar_service.adapters.pyav_renderer.face_warp import OPEN_LEVELS
from avatar_service.adapters.pyav_renderer.inner_mouth import draw_inner_mouth
from avatar_service.adapters.pyav_renderer.photo_motion import PhotoPlan, head_motion, plan_photo
from avatar_service.adapters.pyav_renderer.photo_rig import EYE_LEVELS, PhotoRig, photo_rig
from avatar_service.ports.portraits import Portrait

# BT.709 limited range, as compositing.rgb_to_planes (and the encoder's stream tags) use; rows for 0..255 input.
_KR, _KB = 0.2126, 0.0722
_KG = 1.0 - _KR - _KB
_YUV = np.array([
    [219 / 255 * _KR, 219 / 255 * _KG, 219 / 255 * _KB, 16.0],
    [224 / 255 * -_KR / (2 * (1 - _KB)), 224 / 255 * -_KG / (2 * (1 - _KB)), 224 / 255 * 0.5, 128.0],
    [224 / 255 * 0.5, 224 / 255 * -_KG / (2 * (1 - _KR)), 224 / 255 * -_KB / (2 * (1 - _KR)), 128.0],
], np.float32)


def to_planes(rgb: np.ndarray, alpha: np.ndarray | None) -> list[np.ndarray]:
    """uint8 RGB (h, w even) to Y, U, V (4:2:0, chroma from 2x2 averages) and optionally A planes."""
    yuv = cv2.transform(rgb.astype(np.float32), _YUV)
    height, width = rgb.shape[:2]
    chroma = cv2.resize(yuv[..., 1:], (width // 2, height // 2), interpolation=cv2.INTER_AREA)
    planes = [_u8(yuv[..., 0]), _u8(chroma[..., 0]), _u8(chroma[..., 1])]
    if alpha is not None:
        planes.append(np.ascontiguousarray(alpha))
    return planes


def _u8(values: np.ndarray) -> np.ndarray:
    return np.clip(values + 0.5, 0, 255).astype(np.uint8)


@dataclass(frozen=True)
class Pose:
    opening: float = 0.0
    rounded: float = 0.0
    spread: float = 0.0
    closure: float = 0.0
    head: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # roll, x, y, breath (face widths)


class PhotoComposer:
    """Frames of one photo avatar: `region(pose)` warps and draws the moving region; `frame(pose)` is the
    whole av.VideoFrame."""

    def __init__(self, rig: PhotoRig) -> None:
        self.rig = rig
        self.width, self.height = rig.width, rig.height
        self.transparent = rig.transparent
        self.format = "yuva420p" if rig.transparent else "yuv420p"
        rest_alpha = rig.rest[..., 3] if rig.transparent else None
        self._base = to_planes(np.ascontiguousarray(rig.rest[..., :3]), rest_alpha)
        self._pose_map = rig.grid.copy()  # identity outside the mouth and eye crops, rewritten per pose
        top, left, _, _ = rig.region
        self._origin = np.array([left, top], np.float32)

    def _mouth(self, pose: Pose) -> tuple[np.ndarray, np.ndarray]:
        """The mouth crop's map and inner-lip outline: shapes blended, open levels interpolated."""
        rig = self.rig
        position = min(max(pose.opening, 0.0), 1.0) * (len(OPEN_LEVELS) - 1)
        low = min(int(position), len(OPEN_LEVELS) - 2)
        t = position - low
        weights = {"open": 1.0 - pose.rounded - pose.spread, "round": pose.rounded, "wide": pose.spread}
        maps = None
        inner = None
        for shape, weight in weights.items():
            if weight <= 1e-3:
                continue
            levels, outline = rig.mouth_maps[shape], rig.mouth_inner[shape]
            part = levels[low] * ((1 - t) * weight) + levels[low + 1] * (t * weight)
            edge = outline[low] * ((1 - t) * weight) + outline[low + 1] * (t * weight)
            maps = part if maps is None else maps + part
            inner = edge if inner is None else inner + edge
        assert maps is not None and inner is not None
        return maps, inner

    def _eyes(self, closure: float) -> np.ndarray:
        position = min(max(closure, 0.0), 1.0) * (len(EYE_LEVELS) - 1)
        low = min(int(position), len(EYE_LEVELS) - 2)
        t = position - low
        return self.rig.eye_maps[low] * (1 - t) + self.rig.eye_maps[low + 1] * t

    def _head(self, pose: Pose) -> tuple[np.ndarray, np.ndarray] | None:
        """The head's displacement field over the region (forward motion of each pixel), or None at rest."""
        roll, shift_x, shift_y, breath = pose.head
        if abs(roll) < 1e-5 and abs(shift_x) < 1e-5 and abs(shift_y) < 1e-5 and abs(breath) < 1e-5:
            return None
        rig = self.rig
        fw = rig.face.face_width
        px, py = rig.pivot
        rel_x, rel_y = rig.grid[0] - px, rig.grid[1] - py
        cos, sin = math.cos(roll) - 1.0, math.sin(roll)
        weight = rig.head_weight
        dx = weight * (cos * rel_x - sin * rel_y + shift_x * fw)
        dy = weight * (sin * rel_x + cos * rel_y + shift_y * fw) - rig.breath_weight * breath * fw
        return dx, dy

    def _forward(self, points: np.ndarray, pose: Pose) -> np.ndarray:
        """Where the head motion carries `points` (the mouth moves with the face, which moves rigidly)."""
        roll, shift_x, shift_y, breath = pose.head
        rig = self.rig
        fw = rig.face.face_width
        px, py = rig.pivot
        rel = points - np.array([px, py])
        cos, sin = math.cos(roll), math.sin(roll)
        rotated = np.stack([cos * rel[:, 0] - sin * rel[:, 1], sin * rel[:, 0] + cos * rel[:, 1]], 1)
        top, left, _, _ = rig.region
        local = np.clip((points - np.array([left, top])).round().astype(int), 0,
                        np.array(rig.head_weight.shape[::-1]) - 1)
        weight = rig.head_weight[local[:, 1], local[:, 0]][:, None]
        breath_w = rig.breath_weight[local[:, 1], local[:, 0]][:, None]
        moved = points + weight * (rotated - rel + np.array([shift_x, shift_y]) * fw)
        return moved - breath_w * np.array([0.0, breath * fw])

    def region(self, pose: Pose) -> np.ndarray:
        """The moving region for `pose`: uint8 RGB, or RGBA when the person is cut out."""
        rig = self.rig
        top, left, bottom, right = rig.region
        pose_map = self._pose_map
        m_top, m_left, m_bottom, m_right = rig.mouth_rect
        inner = None
        if pose.opening > 1e-3:
            maps, inner = self._mouth(pose)
            pose_map[:, m_top - top:m_bottom - top, m_left - left:m_right - left] = maps
        else:
            pose_map[:, m_top - top:m_bottom - top, m_left - left:m_right - left] = \
                rig.grid[:, m_top - top:m_bottom - top, m_left - left:m_right - left]
        e_top, e_left, e_bottom, e_right = rig.eye_rect
        eyes = self._eyes(pose.closure) if pose.closure > 1e-3 else \
            rig.grid[:, e_top - top:e_bottom - top, e_left - left:e_right - left]
        pose_map[:, e_top - top:e_bottom - top, e_left - left:e_right - left] = eyes
        head = self._head(pose)
        if head is None:
            map_x, map_y = pose_map[0], pose_map[1]
        else:
            # Backward: the pixel at q shows what the pose puts at q - d(q) (d is small and smooth).
            sample_x = rig.grid[0] - head[0] - left
            sample_y = rig.grid[1] - head[1] - top
            map_x = cv2.remap(pose_map[0], sample_x, sample_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            map_y = cv2.remap(pose_map[1], sample_x, sample_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        if head is None and inner is None and pose.closure <= 1e-3:
            out = rig.person[top:bottom, left:right].copy()
        else:
            out = cv2.remap(rig.person, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        if inner is not None:
            outline = self._forward(inner, pose) - self._origin
            opacity = float(np.clip(pose.opening / 0.12, 0.0, 1.0))
            draw_inner_mouth(out, outline, rig.face.mouth_width, opacity, rig.colours)
        return out

    def region_rgba(self, pose: Pose) -> tuple[np.ndarray, np.ndarray | None]:
        """The region composed over the backdrop: RGB uint8, and alpha uint8 when transparent."""
        rig = self.rig
        out = self.region(pose)
        if rig.plain:
            return out, None
        if rig.transparent:
            return np.ascontiguousarray(out[..., :3]), np.ascontiguousarray(out[..., 3])
        top, left, bottom, right = rig.region
        assert rig.backdrop is not None
        alpha = out[..., 3:].astype(np.float32) / 255.0
        under = rig.backdrop[top:bottom, left:right]
        rgb = np.clip(out[..., :3] * alpha + under * (1 - alpha) + 0.5, 0, 255).astype(np.uint8)
        return rgb, None

    def frame(self, pose: Pose) -> av.VideoFrame:
        rgb, alpha = self.region_rgba(pose)
        frame = av.VideoFrame(self.width, self.height, self.format)
        top, left, _, _ = self.rig.region
        planes = to_planes(rgb, alpha)
        for index, (plane, base, region) in enumerate(zip(frame.planes, self._base, planes, strict=True)):
            view = np.frombuffer(memoryview(plane), np.uint8).reshape(plane.height, plane.line_size)[:, : plane.width]
            view[...] = base
            shift = 1 if index in (1, 2) else 0
            t, lft = top >> shift, left >> shift
            view[t:t + region.shape[0], lft:lft + region.shape[1]] = region
        return frame

    def still(self, pose: Pose | None = None) -> tuple[np.ndarray, np.ndarray | None]:
        """The whole picture (uint8 RGB, and alpha when transparent) for a pose, rest by default."""
        rig = self.rig
        rgb = np.ascontiguousarray(rig.rest[..., :3]).copy()
        alpha = np.ascontiguousarray(rig.rest[..., 3]).copy() if rig.transparent else None
        region_rgb, region_alpha = self.region_rgba(pose or Pose())
        top, left, bottom, right = rig.region
        rgb[top:bottom, left:right] = region_rgb
        if alpha is not None and region_alpha is not None:
            alpha[top:bottom, left:right] = region_alpha
        return rgb, alpha


def plan_pose(plan: PhotoPlan, index: int) -> Pose:
    head = plan.head[index]
    return Pose(float(plan.opening[index]), float(plan.rounded[index]), float(plan.spread[index]),
                float(plan.closure[index]), (float(head[0]), float(head[1]), float(head[2]), float(head[3])))


class PhotoSession:
    """One render of a photo avatar: the plan and the composer (the renderer's `_Session` for photos)."""

    def __init__(self, plan: PhotoPlan, composer: PhotoComposer, size: tuple[int, int]) -> None:
        self.plan, self.composer, self.size = plan, composer, size

    @classmethod
    def prepare(cls, portrait: Portrait, samples: np.ndarray, sample_rate: int, background: str,
                width: int, height: int, fps: int) -> PhotoSession:
        composer = PhotoComposer(photo_rig(portrait, background, width, height))
        seed = zlib.crc32(f"{len(portrait.image_png)}:{len(samples)}".encode())
        plan = plan_photo(samples, sample_rate, fps, seed)
        return cls(plan, composer, (width, height))

    def frames(self) -> Iterator[av.VideoFrame]:
        for index in range(len(self.plan)):
            yield self.composer.frame(plan_pose(self.plan, index))

    def write_thumbnail(self, path: Path) -> None:
        rgb, alpha = self.composer.still()
        straight_alpha = None if alpha is None else alpha.astype(np.float32) / 255.0
        write_thumbnail(path, rgb.astype(np.float32) / 255.0, straight_alpha)


class LivePhoto:
    """The room's photo avatar: frames for a moment and a mouth opening, with its own sway and breath."""

    def __init__(self, composer: PhotoComposer, seed: int = 7) -> None:
        self.composer, self.seed = composer, seed
        self.transparent = composer.transparent

    def frame_at(self, seconds: float, opening: float, closure: float) -> av.VideoFrame:
        # The same seed every call: the sway's phases stay put, so the motion is continuous in time.
        head = head_motion(np.array([seconds], np.float64), np.array([], np.float32),
                           np.random.default_rng(self.seed))[0]
        pose = Pose(opening=opening, closure=closure, head=(float(head[0]), float(head[1]),
                                                              float(head[2] + 0.012 * opening), float(head[3])))
        return self.composer.frame(pose)


def still_jpeg(portrait: Portrait, width: int, height: int) -> bytes:
    """The avatar at rest on its own photo, as a JPEG (the preview shown by GET /avatars)."""
    composer = PhotoComposer(photo_rig(portrait, "", width, height))
    rgb, _ = composer.still()
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 88])
    if not ok:  # pragma: no cover - OpenCV encodes any uint8 RGB array
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()
