"""The shipped 2D avatars: each one's look, and its body, head, mouth and eye shapes in two styles."""

from __future__ import annotations

from dataclasses import dataclass

from avatar_service.adapters.pyav_renderer.raster import (
    RGB,
    Layer,
    Paint,
    Shape,
    box,
    circle,
    ellipse,
    half_plane,
    hex_rgb,
    segment,
)

STYLES = ("realistic", "cartoon")

# Avatar units: the frame is 100 units tall; x = 0 is the frame's centre, y grows downward.
FACE_Y = 40.0
EYE_Y, EYE_DX = 40.5, 5.6
BROW_Y = 36.6
MOUTH_Y = 51.8
HEAD_BOX = (-18.5, 18.0, 18.5, 67.0)
BODY_BOX = (-40.0, 48.0, 40.0, 100.0)
# Rectangles re-drawn per state; everything a state changes lies inside them, over opaque face.
EYES_BOX = (-11.0, 32.0, 11.0, 45.0)
MOUTH_BOX = (-6.0, 48.5, 6.0, 56.5)

# Mouth poses: openness levels x {wide, rounded}; the rounded set is used for dark "oo"/"oh" sounds.
MOUTH_LEVELS = (0.0, 0.18, 0.36, 0.55, 0.75, 1.0)
MOUTH_POSES: tuple[tuple[float, bool], ...] = tuple(
    (level, rounded) for rounded in (False, True) for level in MOUTH_LEVELS
)
# Eye poses: lid closure (open, half, closed) x brows (rest, raised).
BLINK_LEVELS = (0.0, 0.5, 1.0)
EYE_POSES: tuple[tuple[float, bool], ...] = tuple(
    (blink, raised) for raised in (False, True) for blink in BLINK_LEVELS
)


@dataclass(frozen=True)
class AvatarLook:
    id: str
    name: str
    default_style: str
    skin: str
    hair: str
    hair_style: str  # "long" | "short" | "bob" | "curly"
    eyes: str
    lips: str
    shirt: str
    beard: bool = False
    glasses: bool = False


AVATARS: dict[str, AvatarLook] = {
    look.id: look
    for look in (
        AvatarLook("ava", "Ava", "realistic", "#efc4a2", "#3b2417", "long", "#6b4a2b", "#c05a5e", "#2f7f86"),
        AvatarLook(
            "leo",
            "Leo",
            "realistic",
            "#d49e7a",
            "#4d321f",
            "short",
            "#4f6f8f",
            "#a8655a",
            "#2c3e66",
            beard=True,
        ),
        AvatarLook("mia", "Mia", "cartoon", "#f6d2b4", "#b5472a", "bob", "#3f8a4f", "#d0606a", "#d9a441"),
        AvatarLook(
            "sam",
            "Sam",
            "cartoon",
            "#8d5a3b",
            "#1c1410",
            "curly",
            "#3a2618",
            "#7d4338",
            "#7a2e3a",
            glasses=True,
        ),
    )
}


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t)


def _scale(a: RGB, f: float) -> RGB:
    return (min(a[0] * f, 1.0), min(a[1] * f, 1.0), min(a[2] * f, 1.0))


@dataclass(frozen=True)
class _Palette:
    skin: RGB
    skin_shadow: RGB
    hair: RGB
    eyes: RGB
    lips: RGB
    shirt: RGB
    outline: RGB


def _palette(look: AvatarLook) -> _Palette:
    skin = hex_rgb(look.skin)
    return _Palette(
        skin=skin,
        skin_shadow=_scale(skin, 0.82),
        hair=hex_rgb(look.hair),
        eyes=hex_rgb(look.eyes),
        lips=hex_rgb(look.lips),
        shirt=hex_rgb(look.shirt),
        outline=(0.13, 0.09, 0.08),
    )


class _Painter:
    """Collects layers; cartoon style adds an outline after each outlined fill, realistic adds shading."""

    def __init__(self, style: str) -> None:
        self.cartoon = style == "cartoon"
        self.layers: list[Layer] = []

    def fill(
        self,
        shape: Shape,
        color: RGB,
        *,
        outline: bool = False,
        rim: float = 0.0,
        color2: RGB | None = None,
        gradient: tuple[float, float] = (0.0, 1.0),
        opacity: float = 1.0,
        rim_depth: float = 3.0,
    ) -> None:
        if self.cartoon:
            # Flat colours: no gradient or rim shading, which is what makes it read as a cartoon.
            self.layers.append(Layer(shape, Paint(color, opacity=opacity)))
            if outline:
                self.layers.append(Layer(shape.stroke(0.5), Paint((0.13, 0.09, 0.08))))
        else:
            paint = Paint(color, color2, gradient, rim=rim, rim_depth=rim_depth, opacity=opacity)
            self.layers.append(Layer(shape, paint))


def body_layers(look: AvatarLook, style: str) -> list[Layer]:
    """Neck, shoulders and shirt: they never move, so they are drawn once into the backdrop."""
    p, paint = _palette(look), _Painter(style)
    neck = box(-5.4, 50.0, 5.4, 76.0, radius=1.0)
    paint.fill(neck, p.skin_shadow, outline=True, color2=p.skin, gradient=(56.0, 72.0), rim=0.25)
    shirt = ellipse(0.0, 104.0, 37.5, 32.5)
    paint.fill(
        shirt,
        p.shirt,
        outline=True,
        color2=_scale(p.shirt, 0.7),
        gradient=(72.0, 100.0),
        rim=0.3,
        rim_depth=6.0,
    )
    neckline = ellipse(0.0, 71.0, 6.4, 5.2) & ellipse(0.0, 104.0, 37.5, 32.5)
    paint.fill(neckline, p.skin_shadow, outline=True, color2=p.skin, gradient=(70.0, 76.0))
    if not paint.cartoon:
        # The chin's shadow on the neck.
        paint.fill(ellipse(0.0, 58.5, 6.0, 3.2), _scale(p.skin_shadow, 0.8), opacity=0.55)
    return paint.layers


def head_layers(
    look: AvatarLook, style: str, mouth: tuple[float, bool], eyes: tuple[float, bool]
) -> list[Layer]:
    """The whole head for one mouth pose and one eye pose."""
    p, paint = _palette(look), _Painter(style)
    _back_hair(paint, look, p)
    for side in (-1.0, 1.0):
        paint.fill(ellipse(side * 13.8, 42.0, 2.3, 3.7), p.skin_shadow, outline=True, rim=0.3, rim_depth=1.5)
    face = ellipse(0.0, FACE_Y, 14.0, 17.0) | ellipse(0.0, 47.0, 10.6, 12.6)
    paint.fill(
        face,
        p.skin,
        outline=True,
        rim=0.22,
        rim_depth=4.5,
        color2=_scale(p.skin, 0.95),
        gradient=(30.0, 60.0),
    )
    if paint.cartoon:
        for side in (-1.0, 1.0):
            paint.fill(ellipse(side * 7.6, 47.2, 2.4, 1.4), (0.94, 0.45, 0.45), opacity=0.35)
    if look.beard:
        beard = (ellipse(0.0, 46.5, 13.8, 13.4) & half_plane(0, 48.0, 0, 1)) | ellipse(0.0, 49.9, 4.4, 1.1)
        paint.fill(beard & face, p.hair, opacity=0.8 if not paint.cartoon else 1.0)
    _nose(paint, p)
    _mouth(paint, p, *mouth)
    for side in (-1.0, 1.0):
        _eye(paint, p, side * EYE_DX, eyes[0])
    brow_y = BROW_Y - (0.9 if eyes[1] else 0.0)
    for side in (-1.0, 1.0):
        brow = ellipse(side * 5.9, brow_y, 3.1, 0.62 if paint.cartoon else 0.5, angle=-side * 0.05)
        paint.fill(brow, _scale(p.hair, 0.8))
    _top_hair(paint, look, p)
    if look.glasses:
        frame = (0.12, 0.12, 0.14)
        for side in (-1.0, 1.0):
            rim = box(side * EYE_DX - 3.6, 38.0, side * EYE_DX + 3.6, 43.2, radius=1.5).stroke(0.42)
            paint.fill(rim, frame)
        paint.fill(segment(-2.0, 39.6, 2.0, 39.6, 0.22), frame)
    return paint.layers


def _nose(paint: _Painter, p: _Palette) -> None:
    if paint.cartoon:
        paint.fill(ellipse(0.0, 46.6, 1.25, 0.85), p.skin_shadow)
        return
    paint.fill(segment(-0.8, 41.5, -1.1, 46.0, 0.35), p.skin_shadow, opacity=0.35)
    paint.fill(ellipse(0.0, 46.9, 1.7, 1.05), p.skin_shadow, opacity=0.55)
    for side in (-1.0, 1.0):
        paint.fill(ellipse(side * 0.8, 47.3, 0.45, 0.24), _scale(p.skin_shadow, 0.55), opacity=0.7)


def _mouth(paint: _Painter, p: _Palette, opening: float, rounded: bool) -> None:
    half_width = (3.3 if paint.cartoon else 3.6) * (0.72 if rounded else 1.0) * (1.0 - 0.08 * opening)
    lips = p.lips
    dark = (0.22, 0.06, 0.07)
    if opening < 0.05:
        # Closed: two lips meeting on a slightly smiling line.
        upper = ellipse(0.0, MOUTH_Y - 0.1, half_width, 0.72) & half_plane(0, MOUTH_Y, 0, -1)
        lower = ellipse(0.0, MOUTH_Y, half_width * 0.86, 0.95) & half_plane(0, MOUTH_Y, 0, 1)
        paint.fill(upper, _scale(lips, 0.85), rim=0.2, rim_depth=0.6)
        paint.fill(lower, lips, rim=0.2, rim_depth=0.8)
        line = ellipse(0.0, MOUTH_Y - 1.2, half_width, 1.3).stroke(0.2) & half_plane(0, MOUTH_Y - 0.6, 0, 1)
        paint.fill(line, dark)
        return
    gap = 3.3 * opening * (1.15 if rounded else 1.0)
    cy = MOUTH_Y + gap * 0.3  # the jaw drops, so the mouth's centre moves down as it opens
    outer = ellipse(0.0, cy, half_width + 0.4, gap / 2 + 0.8)
    inner = ellipse(0.0, cy, half_width * 0.86, gap / 2)
    paint.fill(outer, lips, outline=True, rim=0.25, rim_depth=0.7)
    paint.fill(inner, dark)
    teeth = inner & half_plane(0, cy - gap / 2 + min(0.6, gap * 0.35), 0, -1)
    paint.fill(teeth, (0.95, 0.93, 0.88))
    tongue = inner & ellipse(0.0, cy + gap / 2, half_width * 0.55, gap * 0.35)
    paint.fill(tongue, _mix(lips, (0.9, 0.35, 0.4), 0.5))


def _eye(paint: _Painter, p: _Palette, cx: float, closure: float) -> None:
    rx, ry = (3.0, 2.2) if paint.cartoon else (2.75, 1.4)
    iris_r, pupil_r = (1.65, 0.85) if paint.cartoon else (1.15, 0.55)
    eye = ellipse(cx, EYE_Y, rx, ry)
    # The upper lid is a large ellipse whose lower edge sweeps down over the eye as it closes.
    lid_edge = EYE_Y - ry * 0.75 + closure * ry * 1.8
    lid = ellipse(cx, lid_edge - ry * 3.0, rx * 1.4, ry * 3.0)
    visible = eye - lid
    paint.fill(visible, (0.97, 0.96, 0.94), rim=0.15, rim_depth=0.8)
    paint.fill(circle(cx, EYE_Y, iris_r) & visible, p.eyes, rim=0.35, rim_depth=0.6)
    paint.fill(circle(cx, EYE_Y, pupil_r) & visible, (0.05, 0.04, 0.04))
    highlight = iris_r * 0.4
    paint.fill(circle(cx + highlight, EYE_Y - highlight, iris_r * 0.28) & visible, (1.0, 1.0, 1.0))
    paint.fill(lid & eye, p.skin_shadow)
    lash = lid.stroke(0.45 if paint.cartoon else 0.3) & ellipse(cx, EYE_Y, rx * 1.12, ry * 1.6)
    paint.fill(lash, (0.12, 0.08, 0.07))
    if not paint.cartoon:
        crease = ellipse(cx, EYE_Y + 0.2, rx * 1.12, ry * 1.95).stroke(0.16) & half_plane(
            0, EYE_Y - ry * 0.9, 0, -1
        )
        paint.fill(crease, p.skin_shadow, opacity=0.6)


def _back_hair(paint: _Painter, look: AvatarLook, p: _Palette) -> None:
    dark = _scale(p.hair, 0.75)
    if look.hair_style == "long":
        back = box(-16.8, 30.0, 16.8, 66.0, radius=6.0) | ellipse(0.0, 37.0, 17.2, 17.5)
        paint.fill(back, dark, outline=True, color2=_scale(p.hair, 0.6), gradient=(30.0, 66.0))
    elif look.hair_style == "bob":
        back = ellipse(0.0, 40.0, 17.6, 19.0) & half_plane(0, 53.5, 0, -1)
        paint.fill(back, dark, outline=True)


def _top_hair(paint: _Painter, look: AvatarLook, p: _Palette) -> None:
    hair = p.hair
    gradient = {"color2": _scale(hair, 0.7), "gradient": (20.0, 40.0), "rim": 0.25}
    if look.hair_style == "long":
        top = ellipse(0.0, 37.5, 15.3, 16.9) - ellipse(1.3, 44.6, 13.9, 15.4)
        paint.fill(top, hair, outline=True, **gradient)  # type: ignore[arg-type]
    elif look.hair_style == "short":
        top = (ellipse(0.0, 36.6, 14.9, 15.6) - ellipse(0.0, 43.6, 14.0, 14.6)) & half_plane(0, 41.0, 0, -1)
        paint.fill(top, hair, outline=True, **gradient)  # type: ignore[arg-type]
    elif look.hair_style == "bob":
        top = ellipse(0.0, 37.0, 15.7, 16.7) - (ellipse(0.0, 44.5, 13.7, 13.4) & half_plane(0, 32.6, 0, 1))
        paint.fill(top, hair, outline=True, **gradient)  # type: ignore[arg-type]
    elif look.hair_style == "curly":
        crown = ellipse(0.0, 31.0, 14.6, 10.5)
        import math

        for i in range(13):
            angle = math.pi * (1.0 + i / 12.0)
            crown = crown | circle(14.6 * math.cos(angle), 31.0 + 10.5 * math.sin(angle), 3.0)
        top = crown - (ellipse(0.0, 43.8, 13.4, 14.2) & half_plane(0, 29.0, 0, 1))
        paint.fill(top, hair, outline=True, **gradient)  # type: ignore[arg-type]
