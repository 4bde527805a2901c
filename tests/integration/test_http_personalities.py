"""Personalities over HTTP: create, read, list, merge-patch, delete, and the avatars they may use."""

from typing import Any

from litestar.testing import AsyncTestClient

from . import fields
from .helpers import assert_created, assert_deleted, assert_error, create_personality

FIELDS = fields.PERSONALITY | {"tools_secret"}  # create and update answer with the tools' secret (null unless new)


def without_secret(answer: dict[str, Any]) -> dict[str, Any]:
    """A create or update answer as a GET shows it: `tools_secret` is shown only by the request that made it."""
    assert answer["tools_secret"] is None
    return {key: value for key, value in answer.items() if key != "tools_secret"}


async def test_create_returns_the_full_personality(client: AsyncTestClient[Any]) -> None:
    body = {
        "name": "Ava",
        "description": "A museum guide",
        "system_prompt": "You guide visitors.",
        "voice": {
            "provider": "elevenlabs",
            "voice_id": "rachel",
            "settings": {"stability": 0.3, "speed": 1.2},
        },
        "appearance": {"avatar_id": "ava", "style": "cartoon", "background": "#12ab34"},
        "traits": {"warmth": 0.9, "humor": 0.1},
        "metadata": {"team": "museum"},
    }
    response = await client.post("/v1/personalities", json=body)
    created = assert_created(response, FIELDS, "personality_", "personality")
    assert created["name"] == "Ava" and created["description"] == "A museum guide"
    assert created["system_prompt"] == "You guide visitors."
    assert created["voice"] == {
        "provider": "elevenlabs",
        "voice_id": "rachel",
        "settings": {"stability": 0.3, "similarity_boost": 0.75, "speed": 1.2},
    }
    assert created["appearance"] == {"avatar_id": "ava", "style": "cartoon", "background": "#12ab34"}
    assert created["traits"] == {
        "warmth": 0.9,
        "humor": 0.1,
        "formality": 0.5,
        "verbosity": 0.5,
        "empathy": 0.5,
    }
    assert created["metadata"] == {"team": "museum"}

    fetched = await client.get(f"/v1/personalities/{created['id']}")
    assert fetched.status_code == 200
    assert fetched.json() == without_secret(created)


async def test_only_a_name_is_required(client: AsyncTestClient[Any]) -> None:
    created = await create_personality(client, name="Bo")
    assert created["voice"]["provider"] in {"elevenlabs", "cartesia", "openai", "azure"}
    assert set(created["traits"]) == {"warmth", "humor", "formality", "verbosity", "empathy"}
    assert all(0 <= value <= 1 for value in created["traits"].values())
    assert_error(await client.post("/v1/personalities", json={}), 400, code="parameter_invalid", param="name")
    assert_error(await client.post("/v1/personalities", json={"name": ""}), 400, param="name")


async def test_no_appearance_is_a_drawn_avatar_called_cartoon(client: AsyncTestClient[Any]) -> None:
    """The default appearance must not call a cartoon realistic (issue 17): no appearance, an empty one, or a
    style alone all give the default drawn avatar with style `cartoon`, and GET /avatars agrees."""
    drawn = {a["id"]: a["style"] for a in (await client.get("/v1/avatars")).json()["data"]}
    for appearance in (None, {}, {"style": "realistic"}, {"background": "blur"}):
        fields_sent = {} if appearance is None else {"appearance": appearance}
        created = await create_personality(client, name="Bo", **fields_sent)
        look = created["appearance"]
        assert look["style"] == "cartoon", (appearance, look)
        assert drawn[look["avatar_id"]] == "cartoon"  # one of the shipped, drawn avatars
        assert (await client.get(f"/v1/personalities/{created['id']}")).json()["appearance"] == look
    assert (await create_personality(client, name="Bo"))["appearance"] == {
        "avatar_id": "ava", "style": "cartoon", "background": None}


async def test_invalid_fields_name_their_param(client: AsyncTestClient[Any]) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"name": 5}, "name"),
        ({"name": "x" * 256}, "name"),
        ({"name": "a", "traits": {"warmth": 1.5}}, "traits.warmth"),
        ({"name": "a", "traits": {"empathy": -0.1}}, "traits.empathy"),
        ({"name": "a", "traits": {"charm": 0.5}}, "traits.charm"),
        ({"name": "a", "voice": {"provider": "acme"}}, "voice.provider"),
        ({"name": "a", "voice": {"settings": {"speed": 2.5}}}, "voice.settings.speed"),
        ({"name": "a", "voice": {"settings": {"stability": 2}}}, "voice.settings.stability"),
        ({"name": "a", "appearance": {"style": "anime"}}, "appearance.style"),
        ({"name": "a", "appearance": {"background": "red"}}, "appearance.background"),
        ({"name": "a", "appearance": {"background": "#12345"}}, "appearance.background"),
        ({"name": "a", "appearance": {"avatar_id": "no-such-avatar"}}, "appearance.avatar_id"),
        ({"name": "a", "metadata": "not an object"}, "metadata"),
    ]
    for body, param in cases:
        assert_error(
            await client.post("/v1/personalities", json=body), 400, code="parameter_invalid", param=param
        )
    listed = await client.get("/v1/personalities")
    assert listed.json()["data"] == []  # nothing invalid was stored


async def test_backgrounds_the_contract_allows(client: AsyncTestClient[Any]) -> None:
    for background in ("transparent", "blur", "#a1B2c3", "https://example.com/bg.png"):
        created = await create_personality(client, appearance={"background": background})
        assert created["appearance"]["background"] == background


async def test_patch_merges_nested_objects(client: AsyncTestClient[Any]) -> None:
    created = await create_personality(
        client, traits={"warmth": 0.2, "humor": 0.3}, voice={"provider": "cartesia", "voice_id": "v1"}
    )
    response = await client.patch(
        f"/v1/personalities/{created['id']}",
        json={
            "name": "Ava 2",
            "traits": {"warmth": 0.8},
            "voice": {"settings": {"speed": 1.5}},
            "metadata": {"k": "v"},
        },
    )
    assert response.status_code == 200, response.text
    patched = response.json()
    assert patched["name"] == "Ava 2"
    assert patched["traits"]["warmth"] == 0.8 and patched["traits"]["humor"] == 0.3
    assert patched["voice"]["provider"] == "cartesia" and patched["voice"]["voice_id"] == "v1"
    assert patched["voice"]["settings"]["speed"] == 1.5
    assert patched["metadata"] == {"k": "v"}
    assert patched["created_at"] == created["created_at"]
    assert patched["updated_at"] >= created["updated_at"]
    assert (await client.get(f"/v1/personalities/{created['id']}")).json() == without_secret(patched)

    for body, param in [
        ({"traits": {"warmth": 7}}, "traits.warmth"),
        ({"name": ""}, "name"),
        ({"voice": {"provider": "acme"}}, "voice.provider"),
        ({"appearance": {"avatar_id": "nobody"}}, "appearance.avatar_id"),
        ({"colour": "red"}, "colour"),
    ]:
        assert_error(await client.patch(f"/v1/personalities/{created['id']}", json=body), 400, param=param)
    assert (await client.get(f"/v1/personalities/{created['id']}")).json() == without_secret(patched)


async def test_delete_then_missing(client: AsyncTestClient[Any]) -> None:
    created = await create_personality(client)
    assert_deleted(await client.delete(f"/v1/personalities/{created['id']}"), created["id"], "personality")
    for method in ("get", "delete"):
        response = await getattr(client, method)(f"/v1/personalities/{created['id']}")
        assert_error(response, 404, code="resource_missing")
    assert_error(
        await client.patch(f"/v1/personalities/{created['id']}", json={"name": "x"}),
        404,
        code="resource_missing",
    )


async def test_list_is_newest_first(client: AsyncTestClient[Any]) -> None:
    ids = [(await create_personality(client, name=f"P{i}"))["id"] for i in range(3)]
    response = await client.get("/v1/personalities")
    assert response.status_code == 200
    page = response.json()
    assert page["has_more"] is False and page["next_cursor"] is None
    assert [p["id"] for p in page["data"]] == ids[::-1]


async def test_avatars_lists_what_personalities_may_use(client: AsyncTestClient[Any]) -> None:
    response = await client.get("/v1/avatars")
    assert response.status_code == 200
    avatars = response.json()["data"]
    assert avatars
    for avatar in avatars:
        assert set(avatar) == {"id", "object", "name", "style", "preview_url", "created_at"}
        assert avatar["object"] == "avatar" and avatar["style"] == "cartoon"  # the shipped ones are drawn
    for avatar in avatars:
        created = await create_personality(client, appearance={"avatar_id": avatar["id"]})
        assert created["appearance"]["avatar_id"] == avatar["id"]
        assert created["appearance"]["style"] == "cartoon"  # whatever was sent: the style is the avatar's
