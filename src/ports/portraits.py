"""Portrait analysis port: an uploaded photograph in, the person ready to animate out (or why not)."""

from dataclasses import dataclass
from typing import Protocol

from avatar_service.ports.faces import Point

MIN_FACE_WIDTH = 96  # pixels of the uploaded image; smaller faces turn to mush at 720p


class PortraitRejected(Exception):
    """The image cannot become a photo avatar; `code` is the API's error code for `param` `image`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


@dataclass(frozen=True, slots=True)
class Portrait:
    """A photo avatar's picture and what was measured on it, found once at upload."""

    image_png: bytes  # RGBA PNG: the photo upright, its alpha the person's cut-out
    width: int
    height: int
    face_box: tuple[float, float, float, float]  # left, top, right, bottom
    landmarks: tuple[Point, ...]  # 68 points, iBUG 300-W order, in the PNG's pixels


class PortraitAnalyzer(Protocol):
    """Sync and CPU-bound (a second or two): callers run it off the event loop."""

    def analyze(self, data: bytes) -> Portrait:
        """Raises PortraitRejected with `image_invalid`, `face_not_found`, `multiple_faces` or `face_too_small`."""
        ...

    def preview(self, portrait: Portrait) -> bytes:
        """A JPEG still of the avatar at rest, as a video would show it."""
        ...


class PortraitSource(Protocol):
    """Where renderers and rooms get a photo avatar's portrait (the Avatars use case, from the blob store)."""

    async def portrait(self, organization_id: str, avatar_id: str) -> Portrait | None:
        """The portrait of one of the organization's photo avatars; None for any other id."""
        ...
