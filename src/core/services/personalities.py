"""Personalities: create, read, list, update (nested objects merged), delete with their knowledge; the request that
first gives a personality tools answers with their signing secret, once."""

from __future__ import annotations

import msgspec

from avatar_service.core.model import (
    Appearance,
    Deleted,
    Page,
    Personality,
    PersonalityCreate,
    PersonalityPatch,
    PersonalityRecord,
    PersonalityWithSecret,
    Traits,
    Voice,
    public,
    replace,
)
from avatar_service.core.model.common import UNSET
from avatar_service.core.model.tools import check_tools
from avatar_service.core.pagination import PageRequest
from avatar_service.core.services.avatars import Avatars
from avatar_service.core.services.base import Deps, fetch, page_of
from avatar_service.core.validation import check_metadata, merge
from avatar_service.core.webhooks.signing import new_secret
from avatar_service.ports.storage import UnitOfWork


class Personalities:
    def __init__(self, deps: Deps, avatars: Avatars) -> None:
        self.deps, self.avatars = deps, avatars

    async def _appearance(self, uow: UnitOfWork, appearance: Appearance) -> Appearance:
        """The avatar must exist (a shipped one or the organization's photo avatar); `style` is the
        avatar's own: `realistic` for a photo avatar, `cartoon` for a drawn one, whatever was sent."""
        style = await self.avatars.style_for(uow, appearance.avatar_id)
        return appearance if appearance.style == style else replace(appearance, style=style)

    async def create(self, organization_id: str, data: PersonalityCreate) -> PersonalityWithSecret:
        check_metadata(data.metadata)
        check_tools(data.tools)
        now = self.deps.clock.now()
        record = PersonalityRecord(
            id=self.deps.ids.new("personality"),
            name=data.name,
            created_at=now,
            updated_at=now,
            description=data.description,
            system_prompt=data.system_prompt,
            voice=data.voice,
            appearance=data.appearance,
            traits=data.traits,
            metadata=data.metadata,
            tools=data.tools,
            organization_id=organization_id,
            tool_signing_secret=new_secret() if data.tools else None,
        )
        async with self.deps.storage(organization_id) as uow:
            record = replace(record, appearance=await self._appearance(uow, data.appearance))
            await uow.personalities.add(record)
            await uow.commit()
        return _answer(record, issued=record.tool_signing_secret is not None)

    async def get(self, organization_id: str, personality_id: str) -> Personality:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            record = await fetch(uow.personalities, "personality", personality_id)
        return public(record, Personality)

    async def list(self, organization_id: str, page: PageRequest) -> Page[Personality]:
        async with self.deps.storage(organization_id, read_only=True) as uow:
            records, more = await uow.personalities.page(page)
        return page_of(records, more, Personality)

    async def update(self, organization_id: str, personality_id: str, patch: PersonalityPatch
                     ) -> PersonalityWithSecret:
        async with self.deps.storage(organization_id) as uow:
            record = await fetch(uow.personalities, "personality", personality_id)
            changes: dict[str, object] = {
                name: getattr(patch, name)
                for name in ("name", "description", "system_prompt", "metadata")
                if getattr(patch, name) is not UNSET
            }
            if patch.metadata is not UNSET:
                check_metadata(patch.metadata)
            if patch.voice is not UNSET:
                changes["voice"] = merge(record.voice, patch.voice, Voice, "voice")
            if patch.appearance is not UNSET:
                appearance = merge(record.appearance, patch.appearance, Appearance, "appearance")
                changes["appearance"] = await self._appearance(uow, appearance)
            if patch.traits is not UNSET:
                changes["traits"] = merge(record.traits, patch.traits, Traits, "traits")
            issued = False
            if patch.tools is not UNSET:
                changes["tools"] = check_tools(patch.tools)
                if patch.tools and record.tool_signing_secret is None:  # the first tools: their secret, once
                    changes["tool_signing_secret"], issued = new_secret(), True
            record = replace(record, **changes, updated_at=self.deps.clock.now())
            await uow.personalities.update(record)
            await uow.commit()
        return _answer(record, issued)

    async def delete(self, organization_id: str, personality_id: str) -> Deleted:
        """Deletes the personality with its knowledge, chunks and memories (conversations keep their id)."""
        async with self.deps.storage(organization_id) as uow:
            record = await fetch(uow.personalities, "personality", personality_id)
            await uow.chunks.delete_where(personality_id=record.id)
            await uow.knowledge.delete_where(personality_id=record.id)
            await uow.memories.delete_where(personality_id=record.id)
            await uow.personalities.delete(record.id)
            await uow.commit()
        return Deleted(id=record.id, object="personality")


def _answer(record: PersonalityRecord, issued: bool) -> PersonalityWithSecret:
    fields = msgspec.structs.asdict(public(record, Personality))
    return PersonalityWithSecret(**fields, tools_secret=record.tool_signing_secret if issued else None)
