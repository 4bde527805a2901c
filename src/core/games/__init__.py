"""avatar_service: games."""
