"""avatar_service: ports."""
