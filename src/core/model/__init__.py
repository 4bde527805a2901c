"""avatar_service: model."""
