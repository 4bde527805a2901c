"""The PyAV avatar renderer: numpy-drawn 2D avatars, lip-synced to audio, encoded to MP4 or WebM."""

from avatar_service.adapters.pyav_renderer.avatars import AVATARS, STYLES
from avatar_service.adapters.pyav_renderer.backgrounds import BackgroundUnreadable
from avatar_service.adapters.pyav_renderer.renderer import RESOLUTIONS, PyAVRenderer

__all__ = ["AVATARS", "RESOLUTIONS", "STYLES", "BackgroundUnreadable", "PyAVRenderer"]
