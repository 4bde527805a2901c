"""avatar_service: memory."""
