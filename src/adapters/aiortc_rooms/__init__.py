"""The self-hosted WebRTC room: aiortc peers running VAD, Whisper, the dialogue engine and speech synthesis."""

from avatar_service.adapters.aiortc_rooms.ice import add_host_addresses, is_loopback_url
from avatar_service.adapters.aiortc_rooms.provider import AiortcRooms, shared_transcriber
from avatar_service.adapters.aiortc_rooms.session import RoomSession

__all__ = ["AiortcRooms", "RoomSession", "add_host_addresses", "is_loopback_url", "shared_transcriber"]
