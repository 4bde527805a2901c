"""PortraitAnalysis: the PortraitAnalyzer port on Pillow (decoding), a FaceFinder, and OpenCV GrabCut (cut-out).

Done once at upload: the image is decoded and turned upright, the one face is found with its landmarks, and
the person is cut out of the background with GrabCut seeded by the face (the face and a neck/chest core
are certainly the person, a head-and-shoulders outline probably is, the rest probably is not).
"""

from __future__ import annotations

import hashlib
import io
import threading
import warnings
from collections import OrderedDict

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from avatar_service.ports.faces import FaceFinder, FoundFace
from avatar_service.ports.portraits import MIN_FACE_WIDTH, Portrait, PortraitRejected

FORMATS = {"JPEG", "PNG", "WEBP"}
MAX_PIXELS = 40_000_000  # decoding more would take seconds and gigabytes; no camera portrait needs it
MAX_SIDE = 1920  # the stored picture's longer side; more detail than a 1080p frame shows is not kept
CUT_SIDE = 512  # GrabCut runs on a copy this size (its cost grows with the pixel count)
SECOND_FACE_SHARE = 0.5  # a second face at least this share of the first's width is a second person


class PortraitAnalysis:
    def __init__(self, faces: FaceFinder, min_face_width: int = MIN_FACE_WIDTH) -> None:
        self.faces, self.min_face_width = faces, min_face_width
        # The same photo uploaded again (a retry, a second avatar of one picture) is not analysed twice.
        self._recent: OrderedDict[bytes, Portrait] = OrderedDict()
        self._lock = threading.Lock()

    def analyze(self, data: bytes) -> Portrait:
        digest = hashlib.sha256(data).digest()
        with self._lock:
            if digest in self._recent:
                self._recent.move_to_end(digest)
                return self._recent[digest]
        portrait = self._analyze(data)
        with self._lock:
            self._recent[digest] = portrait
            while len(self._recent) > 4:
                self._recent.popitem(last=False)
        return portrait

    def _analyze(self, data: bytes) -> Portrait:
        rgb = decode(data)
        found = self.faces.find(rgb)
        face = self._one_face(found)
        alpha = cut_out(rgb, face)
        rgba = np.dstack([rgb, alpha])
        ok, png = cv2.imencode(".png", cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGRA), [cv2.IMWRITE_PNG_COMPRESSION, 6])
        if not ok:  # pragma: no cover - OpenCV encodes any uint8 RGBA array
            raise RuntimeError("PNG encoding failed")
        height, width = rgb.shape[:2]
        return Portrait(image_png=png.tobytes(), width=width, height=height, face_box=face.box,
                        landmarks=face.landmarks)

    def preview(self, portrait: Portrait) -> bytes:
        from avatar_service.adapters.pyav_renderer.photo import still_jpeg

        return still_jpeg(portrait, 854, 480)

    def _one_face(self, found: list[FoundFace]) -> FoundFace:
        if not found:
            raise PortraitRejected("face_not_found", "No face was found in the image: use a photo of one person "
                                   "facing the camera")
        first = found[0]
        others = [f for f in found[1:] if f.width >= self.min_face_width
                  or f.width >= SECOND_FACE_SHARE * first.width]
        if others:
            raise PortraitRejected("multiple_faces", f"The image shows {len(others) + 1} faces: use a photo of "
                                   "one person")
        if first.width < self.min_face_width:
            raise PortraitRejected("face_too_small", f"The face is {first.width:.0f} px wide; it must be at least "
                                   f"{self.min_face_width} px: use a larger or closer photo")
        return first


def decode(data: bytes) -> np.ndarray:
    """JPEG, PNG or WebP bytes to an upright (EXIF orientation applied) RGB uint8 array, at most MAX_SIDE."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image: Image.Image = Image.open(io.BytesIO(data))
            if image.format not in FORMATS:
                raise PortraitRejected("image_invalid", "The image must be a JPEG, PNG or WebP file")
            if image.width * image.height > MAX_PIXELS:
                raise PortraitRejected("image_invalid", f"The image has more than {MAX_PIXELS:,} pixels")
            image = ImageOps.exif_transpose(image)
            if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
                # Transparent parts shown on white, as an image viewer would show them.
                rgba = image.convert("RGBA")
                flat = Image.new("RGB", rgba.size, (255, 255, 255))
                flat.paste(rgba, mask=rgba.getchannel("A"))
                image = flat
            image = image.convert("RGB")
            scale = min(1.0, MAX_SIDE / max(image.size))
            if scale < 1.0:
                size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
                image = image.resize(size, Image.Resampling.LANCZOS)
            rgb = np.asarray(image, dtype=np.uint8)
    except PortraitRejected:
        raise
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, Image.DecompressionBombError,
            Image.DecompressionBombWarning, EOFError) as error:
        raise PortraitRejected("image_invalid", "The image could not be decoded: send a JPEG, PNG or WebP "
                               "file") from error
    if min(rgb.shape[:2]) < 32:
        raise PortraitRejected("image_invalid", "The image is too small to hold a face")
    return np.ascontiguousarray(rgb)


def cut_out(rgb: np.ndarray, face: FoundFace) -> np.ndarray:
    """The person's alpha (uint8, full size): GrabCut on a small copy, seeded by the face, edges feathered."""
    height, width = rgb.shape[:2]
    scale = min(1.0, CUT_SIDE / max(height, width))
    small = cv2.resize(rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else rgb.copy()
    h, w = small.shape[:2]
    points = np.asarray(face.landmarks, np.float32) * scale
    fw = (face.box[2] - face.box[0]) * scale
    cx = float(points[:17, 0].mean())
    chin = float(points[8, 1])
    brow = float(points[17:27, 1].min())
    seeds = np.full((h, w), cv2.GC_PR_BGD, np.uint8)
    # Probably the person: the head (hair included) and a head-and-shoulders outline down to the bottom.
    head_centre = (round(cx), round((brow + chin) / 2 - 0.12 * fw))
    head_axes = (round(0.85 * fw), round(0.5 * (chin - brow) + 0.55 * fw))
    outline = _body(cx, chin, fw, h, spread=1.0)
    cv2.ellipse(seeds, head_centre, head_axes, 0, 0, 360, cv2.GC_PR_FGD, -1)
    cv2.fillPoly(seeds, [outline], cv2.GC_PR_FGD)
    # Certainly the person: the face inside its jaw and brows, and a core of neck and chest.
    face_hull = cv2.convexHull(np.concatenate([points[:17], points[17:27]]).round().astype(np.int32))
    cv2.fillConvexPoly(seeds, face_hull, cv2.GC_FGD)
    cv2.fillPoly(seeds, [_body(cx, chin, fw, h, spread=0.35)], cv2.GC_FGD)
    # Certainly not: far from that outline (a band around it is left for GrabCut to decide).
    near = np.zeros((h, w), np.uint8)
    cv2.ellipse(near, head_centre, (round(head_axes[0] * 1.5), round(head_axes[1] * 1.35)), 0, 0, 360, 1, -1)
    cv2.fillPoly(near, [_body(cx, chin, fw, h, spread=1.6)], 1)
    seeds[near == 0] = cv2.GC_BGD
    background_model = np.zeros((1, 65), np.float64)
    foreground_model = np.zeros((1, 65), np.float64)
    try:
        cv2.grabCut(small, seeds, None, background_model,  # type: ignore[call-overload]
                    foreground_model, 5, cv2.GC_INIT_WITH_MASK)
    except cv2.error:  # a degenerate image (one flat colour): keep the seeded outline as it is
        pass
    person = np.isin(seeds, (cv2.GC_FGD, cv2.GC_PR_FGD)).astype(np.uint8)
    person = _keep_face_component(person, head_centre)
    person = cv2.morphologyEx(person,  # type: ignore[assignment]
                              cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    alpha = cv2.resize(person.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)
    feather = max(1.0, 1.2 / max(scale, 1e-3) * 0.5)
    alpha = cv2.GaussianBlur(alpha, (0, 0), feather)
    return np.clip(alpha * 255.0 + 0.5, 0, 255).astype(np.uint8)


def _body(cx: float, chin: float, fw: float, h: int, spread: float) -> np.ndarray:
    """A neck-and-shoulders polygon under the chin, `spread` times the usual width."""
    rows = [
        (chin - 0.1 * fw, 0.32),
        (chin + 0.45 * fw, 0.42),
        (chin + 0.75 * fw, 1.15),
        (chin + 1.3 * fw, 1.55),
        (max(h, chin + 1.4 * fw), 1.65),
    ]
    left = [(cx - half * spread * fw, y) for y, half in rows]
    right = [(cx + half * spread * fw, y) for y, half in reversed(rows)]
    return np.asarray(left + right, np.float32).round().astype(np.int32)


def _keep_face_component(person: np.ndarray, seed: tuple[int, int]) -> np.ndarray:
    """Only the region connected to the face: specks GrabCut left in the background go."""
    count, labels = cv2.connectedComponents(person, connectivity=8)
    if count <= 2:
        return person
    x = min(max(seed[0], 0), person.shape[1] - 1)
    y = min(max(seed[1], 0), person.shape[0] - 1)
    label = labels[y, x]
    if label == 0:
        sizes = np.bincount(labels.ravel())
        sizes[0] = 0
        label = int(sizes.argmax())
    keep = (labels == label).astype(np.uint8)
    # Holes inside the person (a dark collar GrabCut took for background) are filled.
    filled = keep.copy()
    mask = np.zeros((person.shape[0] + 2, person.shape[1] + 2), np.uint8)
    cv2.floodFill(filled, mask, (0, 0), 1)
    return keep | (1 - filled)
