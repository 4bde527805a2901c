"""avatar_service: services."""
