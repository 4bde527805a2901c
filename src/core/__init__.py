"""avatar_service: core."""
