"""The sync client, generated from `_async/` (scripts/unasync_client.py)."""
