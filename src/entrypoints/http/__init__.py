"""avatar_service: http."""
