"""Dialogue engines: the offline grounded responder and an OpenAI-compatible chat-completions client."""

from avatar_service.adapters.dialogue.offline_grounded import OfflineGroundedDialogue
from avatar_service.adapters.dialogue.openai_compatible import DialogueUnavailable, OpenAICompatibleDialogue

__all__ = ["DialogueUnavailable", "OfflineGroundedDialogue", "OpenAICompatibleDialogue"]
