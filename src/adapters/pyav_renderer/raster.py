"""A tiny anti-aliased vector rasterizer in numpy: shapes are signed distance functions, painted in order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

RGB = tuple[float, float, float]
Array = np.ndarray
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in avatar units
# Distance in avatar units from a point to the shape's edge, negative inside.
SDF = Callable[[Array, Array], Array]


def hex_rgb(value: str) -> RGB:
    value = value.lstrip("#")
    return (int(value[0:2], 16) / 255.0, int(value[2:4], 16) / 255.0, int(value[4:6], 16) / 255.0)


@dataclass(frozen=True)
class Shape:
    sdf: SDF
    box: Box

    def __or__(self, other: Shape) -> Shape:
        a, b = self.sdf, other.sdf
        box = (
            min(self.box[0], other.box[0]),
            min(self.box[1], other.box[1]),
            max(self.box[2], other.box[2]),
            max(self.box[3], other.box[3]),
        )
        return Shape(lambda x, y: np.minimum(a(x, y), b(x, y)), box)

    def __and__(self, other: Shape) -> Shape:
        a, b = self.sdf, other.sdf
        box = (
            max(self.box[0], other.box[0]),
            max(self.box[1], other.box[1]),
            min(self.box[2], other.box[2]),
            min(self.box[3], other.box[3]),
        )
        return Shape(lambda x, y: np.maximum(a(x, y), b(x, y)), box)

    def __sub__(self, other: Shape) -> Shape:
        a, b = self.sdf, other.sdf
        return Shape(lambda x, y: np.maximum(a(x, y), -b(x, y)), self.box)

    def stroke(self, width: float) -> Shape:
        """The band of `width` centred on this shape's edge (outlines, lash lines)."""
        a, half = self.sdf, width / 2
        x0, y0, x1, y1 = self.box
        return Shape(lambda x, y: np.abs(a(x, y)) - half, (x0 - half, y0 - half, x1 + half, y1 + half))


def ellipse(cx: float, cy: float, rx: float, ry: float, angle: float = 0.0) -> Shape:
    cos, sin = np.cos(angle), np.sin(angle)

    def sdf(x: Array, y: Array) -> Array:
        u, v = x - cx, y - cy
        if angle:
            u, v = u * cos + v * sin, -u * sin + v * cos
        # First-order distance f/|grad f|: exact enough near the edge, which is all anti-aliasing needs.
        f = (u / rx) ** 2 + (v / ry) ** 2 - 1.0
        grad = 2.0 * np.sqrt((u / rx**2) ** 2 + (v / ry**2) ** 2)
        return f / np.maximum(grad, 1e-3)

    r = max(rx, ry)
    return Shape(sdf, (cx - r, cy - r, cx + r, cy + r))


def circle(cx: float, cy: float, r: float) -> Shape:
    return Shape(lambda x, y: np.hypot(x - cx, y - cy) - r, (cx - r, cy - r, cx + r, cy + r))


def box(x0: float, y0: float, x1: float, y1: float, radius: float = 0.0) -> Shape:
    cx, cy, hx, hy = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2 - radius, (y1 - y0) / 2 - radius

    def sdf(x: Array, y: Array) -> Array:
        qx, qy = np.abs(x - cx) - hx, np.abs(y - cy) - hy
        outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0))
        return outside + np.minimum(np.maximum(qx, qy), 0) - radius

    return Shape(sdf, (x0, y0, x1, y1))


def half_plane(px: float, py: float, nx: float, ny: float) -> Shape:
    """Everything on the side of the line through (px, py) that the normal (nx, ny) points into."""
    norm = float(np.hypot(nx, ny))
    nx, ny = nx / norm, ny / norm
    big = 1e4
    return Shape(lambda x, y: (px - x) * nx + (py - y) * ny, (-big, -big, big, big))


def segment(ax: float, ay: float, bx: float, by: float, radius: float) -> Shape:
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy or 1e-9

    def sdf(x: Array, y: Array) -> Array:
        t = np.clip(((x - ax) * dx + (y - ay) * dy) / length2, 0.0, 1.0)
        return np.hypot(x - (ax + t * dx), y - (ay + t * dy)) - radius

    return Shape(
        sdf, (min(ax, bx) - radius, min(ay, by) - radius, max(ax, bx) + radius, max(ay, by) + radius)
    )


@dataclass(frozen=True)
class Paint:
    """A flat colour, optionally a vertical gradient to `color2`, optionally darker toward the edge."""

    color: RGB
    color2: RGB | None = None
    gradient: tuple[float, float] = (0.0, 1.0)  # y range (units) over which color -> color2
    rim: float = 0.0  # how much darker right at the edge (0..1): gives flat shapes some volume
    rim_depth: float = 3.0  # units over which the rim darkening fades out
    opacity: float = 1.0


@dataclass(frozen=True)
class Layer:
    shape: Shape
    paint: Paint


@dataclass
class Canvas:
    """Premultiplied RGBA float32 pixels of a rectangle of the avatar plane (`scale` px per unit)."""

    width: int
    height: int
    scale: float  # pixels per avatar unit
    origin: tuple[float, float]  # avatar-unit coordinates of the top-left pixel's top-left corner
    rgba: Array = field(init=False)

    def __post_init__(self) -> None:
        self.rgba = np.zeros((self.height, self.width, 4), dtype=np.float32)

    def paint(self, layers: Sequence[Layer]) -> Canvas:
        for layer in layers:
            self._paint(layer)
        return self

    def _paint(self, layer: Layer) -> None:
        x0, y0, x1, y1 = layer.shape.box
        ox, oy = self.origin
        # Only the pixels inside the shape's bounding box are evaluated: most shapes are small.
        c0 = max(int(np.floor((x0 - ox) * self.scale)) - 1, 0)
        r0 = max(int(np.floor((y0 - oy) * self.scale)) - 1, 0)
        c1 = min(int(np.ceil((x1 - ox) * self.scale)) + 1, self.width)
        r1 = min(int(np.ceil((y1 - oy) * self.scale)) + 1, self.height)
        if c0 >= c1 or r0 >= r1:
            return
        xs = ox + (np.arange(c0, c1, dtype=np.float32) + 0.5) / self.scale
        ys = oy + (np.arange(r0, r1, dtype=np.float32) + 0.5) / self.scale
        x, y = np.meshgrid(xs, ys)
        distance = layer.shape.sdf(x, y)
        coverage = np.clip(0.5 - distance * self.scale, 0.0, 1.0) * layer.paint.opacity
        if not coverage.any():
            return
        color = _colour(layer.paint, y, distance)
        target = self.rgba[r0:r1, c0:c1]
        a = coverage[..., None]
        target[..., :3] = target[..., :3] * (1.0 - a) + color * a
        target[..., 3:] = target[..., 3:] * (1.0 - a) + a


def _colour(paint: Paint, y: Array, distance: Array) -> Array:
    base = np.asarray(paint.color, dtype=np.float32)
    if paint.color2 is None:
        color: Array = np.broadcast_to(base, (*y.shape, 3)).copy()
    else:
        g0, g1 = paint.gradient
        t = np.clip((y - g0) / (g1 - g0), 0.0, 1.0)[..., None]
        color = base * (1.0 - t) + np.asarray(paint.color2, dtype=np.float32) * t
    if paint.rim:
        shade = 1.0 - paint.rim * np.clip(1.0 + distance / paint.rim_depth, 0.0, 1.0)
        color *= shade[..., None]
    return color
