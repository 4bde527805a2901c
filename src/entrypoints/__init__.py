"""avatar_service: entrypoints."""
