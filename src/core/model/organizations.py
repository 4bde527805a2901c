"""Organizations: the tenant every key and resource belongs to."""

from datetime import datetime

from msgspec import Struct


class Organization(Struct, kw_only=True):
    id: str
    slug: str
    created_at: datetime
