"""Avatar renderer port: audio plus an appearance in, an encoded video file and a thumbnail out."""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from avatar_service.ports.portraits import Portrait
from avatar_service.ports.speech import Audio


class RenderCancelled(Exception):
    """Raised by a renderer when `should_cancel()` turned true; partial files are removed."""


@dataclass(frozen=True, slots=True)
class RenderRequest:
    audio: Audio
    avatar_id: str  # one of the shipped avatars (see list_avatars), or a photo avatar's id with `photo`
    style: str  # "realistic" | "cartoon"
    # "transparent" | "blur" | "#rrggbb" | path to a local image file already fetched | "" (none set: a
    # photo avatar shows its own photo, a drawn one its blurred room)
    background: str
    resolution: str  # "480p" | "720p" | "1080p"
    out_dir: Path
    photo: Portrait | None = None  # a photo avatar's picture and landmarks (loaded by the caller)


@dataclass(frozen=True, slots=True)
class RenderResult:
    video_path: Path  # .mp4 (H.264 + AAC) or .webm (VP9 with alpha + Opus) when transparent
    thumbnail_path: Path  # .jpg, or .png when transparent
    duration: float  # seconds
    content_type: str


@dataclass(frozen=True, slots=True)
class AvatarInfo:
    id: str
    name: str
    style: str


class AvatarRenderer(Protocol):
    """Sync and CPU-bound: callers run it in a worker thread.

    `on_progress` gets 0..100 (monotonic, called at most a few times a second);
    `should_cancel` is polled between frames.
    """

    name: str

    def list_avatars(self) -> list[AvatarInfo]: ...

    def render(
        self,
        request: RenderRequest,
        on_progress: Callable[[int], None],
        should_cancel: Callable[[], bool],
    ) -> RenderResult: ...
