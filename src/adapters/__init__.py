"""avatar_service: adapters."""
