"""Face finder port: the faces in a photograph, each with its box and 68 landmarks (iBUG 300-W order).

The shipped adapter is dlib's (`adapters/dlib_faces.py`); its 68-point model was trained on iBUG 300-W,
whose terms exclude commercial use, so a deployment that needs otherwise registers its own finder here.
"""

from dataclasses import dataclass
from typing import Any, Protocol

Point = tuple[float, float]

# Index ranges of the 68-point scheme (0-based), as every 68-point model numbers them.
JAW = range(0, 17)
RIGHT_BROW, LEFT_BROW = range(17, 22), range(22, 27)
NOSE = range(27, 36)
RIGHT_EYE, LEFT_EYE = range(36, 42), range(42, 48)  # the subject's right eye is on the image's left
OUTER_LIPS, INNER_LIPS = range(48, 60), range(60, 68)


@dataclass(frozen=True, slots=True)
class FoundFace:
    box: tuple[float, float, float, float]  # left, top, right, bottom in image pixels
    width: float  # the face's width in image pixels, as the finder measures it
    landmarks: tuple[Point, ...]  # 68 (x, y) points in image pixels


class FaceFinder(Protocol):
    """Sync and CPU-bound: callers run it off the event loop."""

    name: str  # shown by /healthz, e.g. "dlib-hog+mmod/68"

    def find(self, rgb: Any) -> list[FoundFace]:
        """Every face in an (h, w, 3) uint8 RGB image, largest first; faces too unsure to keep are left out."""
        ...
