"""Frame assembly in the encoder's own pixel format: YUV planes composed once, then only copied."""

from __future__ import annotations

from collections import OrderedDict

import av
import numpy as np

from avatar_service.adapters.pyav_renderer.backgrounds import Backdrop
from avatar_service.adapters.pyav_renderer.sprites import Rect, Sprites

# BT.709, limited range: what H.264/VP9 players assume for HD, and what the streams are tagged with.
_KR, _KB = 0.2126, 0.0722
_KG = 1.0 - _KR - _KB


def rgb_to_planes(rgb: np.ndarray, alpha: np.ndarray | None = None) -> list[np.ndarray]:
    """(h, w, 3) float RGB in 0..1 (h, w even) to uint8 Y, U, V (and A) planes, 4:2:0."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    luma = _KR * r + _KG * g + _KB * b
    y = 16.0 + 219.0 * luma
    # Chroma from the 2x2 average, as a box-filtered downsample of the full-resolution picture.
    small = (rgb[0::2, 0::2] + rgb[1::2, 0::2] + rgb[0::2, 1::2] + rgb[1::2, 1::2]) * 0.25
    small_luma = _KR * small[..., 0] + _KG * small[..., 1] + _KB * small[..., 2]
    u = 128.0 + 224.0 * (small[..., 2] - small_luma) / (2.0 * (1.0 - _KB))
    v = 128.0 + 224.0 * (small[..., 0] - small_luma) / (2.0 * (1.0 - _KR))
    planes = [_to_u8(y), _to_u8(u), _to_u8(v)]
    if alpha is not None:
        planes.append(_to_u8(alpha * 255.0))
    return planes


def _to_u8(values: np.ndarray) -> np.ndarray:
    return np.clip(np.rint(values), 0, 255).astype(np.uint8)


def _over(under_rgb: np.ndarray, under_a: np.ndarray, top: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a = top[..., 3:]
    return top[..., :3] + under_rgb * (1.0 - a), top[..., 3:] + under_a * (1.0 - a)


def _straight(rgb: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    # Video planes carry straight colour beside the alpha plane, not premultiplied colour.
    return np.where(alpha > 1e-4, rgb / np.maximum(alpha, 1e-4), 0.0)


class FrameComposer:
    """Builds av.VideoFrames for (offset, mouth, eyes) states, reusing identical frames.

    The backdrop and body are flattened once. The head, over that backdrop, is converted once per head
    offset that the plan visits; mouth and eye patches are converted once per render. A frame is then a
    few plane copies, and a state seen before is the very same VideoFrame (encoders copy the pixels when
    a frame is sent, so handing one over twice is safe as long as nobody writes to it).
    """

    def __init__(
        self,
        sprites: Sprites,
        backdrop: Backdrop,
        width: int,
        height: int,
        margin: int,
        cache_bytes: int = 96 * 2**20,
    ) -> None:
        self.width, self.height = width, height
        self.transparent = backdrop.transparent
        self.format = "yuva420p" if self.transparent else "yuv420p"
        self._sprites = sprites
        self._frames: OrderedDict[tuple[int, int, int, int], av.VideoFrame] = OrderedDict()
        frame_bytes = width * height * (5 if self.transparent else 3) // 2
        self._max_frames = max(4, cache_bytes // frame_bytes)
        self.reused = 0
        # Background plus body, as premultiplied RGB and coverage over the whole frame.
        if backdrop.rgb is None:
            canvas = np.zeros((height, width, 3), np.float32)
            coverage = np.zeros((height, width, 1), np.float32)
        else:
            canvas = backdrop.rgb.astype(np.float32, copy=False)  # make_backdrop hands over a fresh array
            coverage = np.ones((height, width, 1), np.float32)
        top, left, bottom, right = sprites.body_rect
        canvas[top:bottom, left:right], coverage[top:bottom, left:right] = _over(
            canvas[top:bottom, left:right], coverage[top:bottom, left:right], sprites.body
        )
        self._under_rgb, self._under_a = canvas, coverage
        head_top, head_left, head_bottom, head_right = sprites.head_rect
        self._region: Rect = (
            max(0, head_top - margin),
            max(0, head_left - margin),
            min(height, head_bottom + margin),
            min(width, head_right + margin),
        )
        self._regions: dict[tuple[int, int], list[np.ndarray]] = {}
        self._mouths = [rgb_to_planes(patch, self._opaque(patch)) for patch in sprites.mouths]
        self._eyes = [rgb_to_planes(patch, self._opaque(patch)) for patch in sprites.eyes]
        # Outside the head's region nothing ever changes: that part of every frame is these planes.
        self._base = self._planes(self._under_rgb, self._under_a)

    def _opaque(self, patch: np.ndarray) -> np.ndarray | None:
        return np.ones(patch.shape[:2], np.float32) if self.transparent else None

    def _planes(self, rgb: np.ndarray, alpha: np.ndarray) -> list[np.ndarray]:
        if not self.transparent:
            return rgb_to_planes(rgb)  # opaque: premultiplied and straight colour are the same
        return rgb_to_planes(_straight(rgb, alpha), alpha[..., 0])

    def still_rgba(self, dx: int, dy: int) -> tuple[np.ndarray, np.ndarray]:
        """The whole picture (premultiplied RGB, alpha) with the head at an offset and the rest poses."""
        rgb, alpha = self._under_rgb.copy(), self._under_a.copy()
        top, left, bottom, right = self._sprites.head_rect
        area = (slice(top + dy, bottom + dy), slice(left + dx, right + dx))
        rgb[area], alpha[area] = _over(rgb[area], alpha[area], self._sprites.head)
        return rgb, alpha

    def _region_planes(self, dx: int, dy: int) -> list[np.ndarray]:
        planes = self._regions.get((dx, dy))
        if planes is None:
            top, left, bottom, right = self._region
            rgb = self._under_rgb[top:bottom, left:right].copy()
            alpha = self._under_a[top:bottom, left:right].copy()
            h_top, h_left, h_bottom, h_right = self._sprites.head_rect
            area = (
                slice(h_top + dy - top, h_bottom + dy - top),
                slice(h_left + dx - left, h_right + dx - left),
            )
            rgb[area], alpha[area] = _over(rgb[area], alpha[area], self._sprites.head)
            planes = self._planes(rgb, alpha)
            self._regions[(dx, dy)] = planes
        return planes

    def frame(self, dx: int, dy: int, mouth: int, eyes: int) -> av.VideoFrame:
        key = (dx, dy, mouth, eyes)
        cached = self._frames.get(key)
        if cached is not None:
            self._frames.move_to_end(key)
            self.reused += 1
            return cached
        frame = av.VideoFrame(self.width, self.height, self.format)
        views = [_plane_view(plane) for plane in frame.planes]
        for view, base in zip(views, self._base, strict=True):
            view[...] = base
        _paste(views, self._region_planes(dx, dy), self._region[0], self._region[1])
        m_top, m_left = self._sprites.mouth_rect[:2]
        _paste(views, self._mouths[mouth], m_top + dy, m_left + dx)
        e_top, e_left = self._sprites.eyes_rect[:2]
        _paste(views, self._eyes[eyes], e_top + dy, e_left + dx)
        self._frames[key] = frame
        if len(self._frames) > self._max_frames:
            self._frames.popitem(last=False)
        return frame


def _plane_view(plane: av.video.plane.VideoPlane) -> np.ndarray:
    # A writable numpy view on the frame's own buffer, cropped from the padded line size.
    return np.frombuffer(memoryview(plane), np.uint8).reshape(plane.height, plane.line_size)[:, : plane.width]


def _paste(views: list[np.ndarray], planes: list[np.ndarray], top: int, left: int) -> None:
    for index, (view, plane) in enumerate(zip(views, planes, strict=True)):
        # Planes 1 and 2 (U, V) are half size in both directions; Y and A are full size.
        shift = 1 if index in (1, 2) else 0
        t, lft = top >> shift, left >> shift
        view[t : t + plane.shape[0], lft : lft + plane.shape[1]] = plane
