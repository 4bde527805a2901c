"""DlibFaceFinder: the FaceFinder port on dlib, with the model files the `face-recognition-models` package ships
(pinned by hash in adapters/model_files.py).

HOG finds candidates fast (also faces down to about 40 px, with one upsampling; in a photo larger than the
working copy, a search that finds nothing is made again at full size, so a small face in a large photo is found
and refused as too small rather than as missing); each candidate is then
confirmed by dlib's CNN detector (MMOD) on a crop where the face is about 150 px wide, which drops HOG's
false faces (a badge, a patch) and measures the width the same way whatever the photo's size. The
68-point shape predictor places the landmarks. The predictor was trained on iBUG 300-W, whose terms
exclude commercial use: a deployment that needs otherwise registers another FaceFinder.
"""

from __future__ import annotations

import threading
from functools import cache
from typing import Any

import cv2
import dlib
import numpy as np

from avatar_service.adapters.model_files import DLIB_FACE_DETECTOR, DLIB_LANDMARKS
from avatar_service.ports.faces import FoundFace

WORK_SIDE = 1280  # candidates are searched on a copy whose longer side is at most this
CONFIRM_WIDTH = 150.0  # the face's width in the crop the CNN confirms it on
MAX_CANDIDATES = 8  # a crowd is refused anyway; confirming more would only cost time


@cache
def _models() -> tuple[Any, Any, Any]:
    # Loaded once per process (the CNN file is 700 KB, the predictor 100 MB; about a second), each file checked
    # against its pinned hash first (a tenth of a second for the predictor): a mismatch is refused, naming it.
    hog = dlib.get_frontal_face_detector()
    cnn = dlib.cnn_face_detection_model_v1(str(DLIB_FACE_DETECTOR.verified()))
    predictor = dlib.shape_predictor(str(DLIB_LANDMARKS.verified()))
    return hog, cnn, predictor


class DlibFaceFinder:
    name = "dlib-hog+mmod/68"

    def __init__(self) -> None:
        self._lock = threading.Lock()  # dlib's detectors are not documented as thread-safe

    def find(self, rgb: Any) -> list[FoundFace]:
        image = np.ascontiguousarray(rgb, dtype=np.uint8)
        hog, cnn, predictor = _models()
        scale = min(1.0, WORK_SIDE / max(image.shape[:2]))
        work = image if scale == 1.0 else cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        with self._lock:
            faces = self._search(hog, cnn, predictor, image, work, scale)
            if not faces and scale < 1.0:
                # Faces under about 40/scale px are below HOG's reach on the working copy (a 40 px face in a
                # 1920 px photo is 27 px there). Any face big enough to accept (96 px) is found there, so this
                # costs time (about 2 s at 1920x1080) only on the way to a refusal, and makes it the true one.
                faces = self._search(hog, cnn, predictor, image, image, 1.0)
        return sorted(faces, key=lambda f: -f.width)

    def _search(self, hog: Any, cnn: Any, predictor: Any, image: np.ndarray, work: np.ndarray,
                scale: float) -> list[FoundFace]:
        """HOG's candidates on `work` (`image` scaled by `scale`), each confirmed by the CNN, with landmarks."""
        candidates = sorted(hog(work, 1), key=lambda r: -r.width())[:MAX_CANDIDATES]
        faces = []
        for candidate in candidates:
            box = (candidate.left() / scale, candidate.top() / scale,
                   candidate.right() / scale, candidate.bottom() / scale)
            confirmed = self._confirm(cnn, image, box)
            if confirmed is None:
                continue
            rect = dlib.rectangle(*(round(v) for v in confirmed))
            shape = predictor(image, rect)
            points = tuple((float(p.x), float(p.y)) for p in shape.parts())
            faces.append(FoundFace(box=confirmed, width=confirmed[2] - confirmed[0], landmarks=points))
        return faces

    @staticmethod
    def _confirm(cnn: Any, image: np.ndarray, box: tuple[float, float, float, float]
                 ) -> tuple[float, float, float, float] | None:
        """The CNN's box for the face near `box` (image pixels), or None when the CNN sees no face there."""
        left, top, right, bottom = box
        width = max(right - left, 1.0)
        zoom = CONFIRM_WIDTH / width
        side = round(2 * width * zoom)
        cx, cy = (left + right) / 2, (top + bottom) / 2
        origin_x, origin_y = cx - width, cy - width
        matrix = np.array([[zoom, 0, -origin_x * zoom], [0, zoom, -origin_y * zoom]], np.float32)
        interpolation = cv2.INTER_AREA if zoom < 1 else cv2.INTER_LINEAR
        crop = cv2.warpAffine(image, matrix, (side, side), flags=interpolation, borderMode=cv2.BORDER_REPLICATE)
        best = None
        for found in cnn(crop, 0):
            r = found.rect
            centre_x, centre_y = (r.left() + r.right()) / 2, (r.top() + r.bottom()) / 2
            # The confirmed face must be the candidate, not a neighbour that entered the crop.
            near = abs(centre_x - side / 2) < side / 4 and abs(centre_y - side / 2) < side / 4
            if near and (best is None or r.width() > best.width()):
                best = r
        if best is None:
            return None
        return (origin_x + best.left() / zoom, origin_y + best.top() / zoom,
                origin_x + best.right() / zoom, origin_y + best.bottom() / zoom)
