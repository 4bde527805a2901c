"""The baseline of bench/http_api.py: a bare Litestar app answering a constant."""

from litestar import Litestar, get


@get("/v1/personalities/{personality_id:str}")
async def constant(personality_id: str) -> dict[str, str]:
    return {"id": personality_id, "object": "personality", "name": "constant"}


app = Litestar([constant])
