"""The async client: the source the sync one (`_sync/`) is generated from."""
