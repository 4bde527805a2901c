"""Avatars: the shipped drawn ones and an organization's photo avatars (upload, list, get, delete), and the
portrait that renders and rooms animate."""

from __future__ import annotations

import logging
import secrets
from pathlib import Path

from avatar_service.core.errors import Conflict, Invalid
from avatar_service.core.ids import looks_like
from avatar_service.core.media_urls import MediaSigner
from avatar_service.core.model import Avatar, AvatarList, AvatarRecord, Deleted
from avatar_service.core.model.avatars import MAX_PHOTO_AVATARS
from avatar_service.core.services.base import Deps, fetch
from avatar_service.ports.blobs import BlobStore
from avatar_service.ports.offload import Offload
from avatar_service.ports.portraits import Portrait, PortraitAnalyzer, PortraitRejected
from avatar_service.ports.renderer import AvatarRenderer
from avatar_service.ports.storage import UnitOfWork

log = logging.getLogger(__name__)
DRAWN, PHOTO = "cartoon", "realistic"


class Avatars:
    def __init__(self, deps: Deps, renderer: AvatarRenderer, analyzer: PortraitAnalyzer, blobs: BlobStore,
                 signer: MediaSigner, offload: Offload, work_dir: Path) -> None:
        self.deps, self.analyzer, self.blobs, self.signer, self.offload = deps, analyzer, blobs, signer, offload
        self.work_dir = work_dir
        self.drawn = {a.id: Avatar(id=a.id, name=a.name, style=DRAWN) for a in renderer.list_avatars()}

    def view(self, record: AvatarRecord) -> Avatar:
        return Avatar(id=record.id, name=record.name, style=PHOTO, created_at=record.created_at,
                      preview_url=self.signer.url(record.preview_key, self.deps.clock.now()))

    async def create(self, organization_id: str, name: str, image: bytes) -> Avatar:
        """Analyses the portrait (one face, its landmarks, the person's cut-out) and stores it; a refused
        image is a 400 on `image` and stores nothing."""
        if not 1 <= len(name) <= 255 or not name.strip():
            raise Invalid("'name' must be 1 to 255 characters", param="name")
        async with self.deps.storage(organization_id, read_only=True) as uow:
            if len(await uow.avatars.find(limit=MAX_PHOTO_AVATARS)) >= MAX_PHOTO_AVATARS:
                raise Conflict(f"An organization has at most {MAX_PHOTO_AVATARS} photo avatars; delete one first",
                               code="limit_reached")
        try:
            portrait = await self.offload(self.analyzer.analyze, image)
        except PortraitRejected as rejected:
            raise Invalid(rejected.message, param="image", code=rejected.code) from None
        preview = await self.offload(self.analyzer.preview, portrait)
        avatar_id = self.deps.ids.new("avatar")
        now = self.deps.clock.now()
        record = AvatarRecord(
            id=avatar_id, organization_id=organization_id, name=name, created_at=now, updated_at=now,
            image_key=f"avatars/{avatar_id}/portrait.png", preview_key=f"avatars/{avatar_id}/preview.jpg",
            width=portrait.width, height=portrait.height, face_box=list(portrait.face_box),
            landmarks=[[x, y] for x, y in portrait.landmarks],
        )
        stored = False
        try:
            await self._put(record.image_key, portrait.image_png, "image/png")
            await self._put(record.preview_key, preview, "image/jpeg")
            async with self.deps.storage(organization_id) as uow:
                await uow.avatars.add(record)
                await uow.commit()
            stored = True
        finally:
            if not stored:
                await self._delete_blobs(record)
        return self.view(record)

    async def list(self, organization_id: str) -> AvatarList:
        """The drawn avatars, then the organization's photo avatars, newest first."""
        async with self.deps.storage(organization_id, read_only=True) as uow:
            records = await uow.avatars.find(limit=MAX_PHOTO_AVATARS)
        return AvatarList(data=[*self.drawn.values(), *(self.view(r) for r in records)])

    async def get(self, organization_id: str, avatar_id: str) -> Avatar:
        if avatar_id in self.drawn:
            return self.drawn[avatar_id]
        async with self.deps.storage(organization_id, read_only=True) as uow:
            return self.view(await fetch(uow.avatars, "avatar", avatar_id))

    async def delete(self, organization_id: str, avatar_id: str) -> Deleted:
        """Deletes a photo avatar and its files; one a personality uses is a 409 naming the personality."""
        if avatar_id in self.drawn:
            raise Conflict(f"'{avatar_id}' is one of the avatars the service ships; it cannot be deleted")
        async with self.deps.storage(organization_id) as uow:
            record = await fetch(uow.avatars, "avatar", avatar_id)
            # Writing the row first holds it: a personality being given this avatar meanwhile either
            # committed before (and is seen below) or finds the avatar gone.
            await uow.avatars.set(record.id, updated_at=self.deps.clock.now())
            users = [p for p in await uow.personalities.find() if p.appearance.avatar_id == record.id]
            if users:
                named = ", ".join(f"'{p.name}' ({p.id})" for p in users[:3])
                more = f" and {len(users) - 3} more" if len(users) > 3 else ""
                raise Conflict(f"The avatar is used by personality {named}{more}: give it another avatar first",
                               param="avatar_id")
            await uow.avatars.delete(record.id)
            await uow.commit()
        await self._delete_blobs(record)
        return Deleted(id=record.id, object="avatar")

    async def style_for(self, uow: UnitOfWork, avatar_id: str) -> str:
        """The style of an avatar a personality is being given, inside the caller's write: a photo avatar's
        row is written, so a delete running at the same time waits for this transaction (see delete)."""
        if avatar_id in self.drawn:
            return DRAWN
        if looks_like("avatar", avatar_id) and await uow.avatars.set(avatar_id, updated_at=self.deps.clock.now()):
            return PHOTO
        raise Invalid(f"Unknown avatar '{avatar_id}': GET /v1/avatars lists the avatars",
                      param="appearance.avatar_id")

    async def portrait(self, organization_id: str, avatar_id: str) -> Portrait | None:
        if not looks_like("avatar", avatar_id):
            return None
        async with self.deps.storage(organization_id, read_only=True) as uow:
            record = await uow.avatars.get(avatar_id)
        if record is None:
            return None
        image = b"".join([chunk async for chunk in self.blobs.read(record.image_key)])
        return Portrait(image_png=image, width=record.width, height=record.height,
                        face_box=(record.face_box[0], record.face_box[1], record.face_box[2], record.face_box[3]),
                        landmarks=tuple((float(x), float(y)) for x, y in record.landmarks))

    async def _put(self, key: str, data: bytes, content_type: str) -> None:
        path = self.work_dir / f"avatar-{secrets.token_hex(8)}"
        await self.offload(_write, path, data)
        try:
            await self.blobs.put_file(key, path, content_type)
        finally:
            path.unlink(missing_ok=True)  # put_file may have moved it already

    async def _delete_blobs(self, record: AvatarRecord) -> None:
        for key in (record.image_key, record.preview_key):
            try:
                await self.blobs.delete(key)
            except Exception:  # a leftover file is harmless; the row is what counts
                log.warning("could not delete blob %s", key, exc_info=True)


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)

