"""avatar_service: knowledge."""
