"""What the PostgreSQL benchmarks share: one statement (CREATE/DROP DATABASE) run on the server outside a
transaction, as asyncpg allows and SQLAlchemy's pooled connections do not."""

import asyncpg
from sqlalchemy.engine import make_url


async def admin(url: str, statement: str) -> None:
    conn = await asyncpg.connect(make_url(url).set(drivername="postgresql").render_as_string(hide_password=False))
    try:
        await conn.execute(statement)
    finally:
        await conn.close()
