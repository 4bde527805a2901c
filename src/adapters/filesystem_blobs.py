"""The blob store on the local filesystem, under the data directory."""

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import anyio

CHUNK = 256 * 1024


class FilesystemBlobs:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    def _path(self, key: str) -> Path:
        path = (self.root / key).resolve()
        if self.root not in path.parents:  # keys come from us, but never let one escape the root
            raise ValueError(f"bad blob key: {key}")
        return path

    async def put_file(self, key: str, source: Path, content_type: str) -> None:
        target = self._path(key)

        def move() -> None:
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_suffix(target.suffix + ".part")
            shutil.copyfile(source, tmp)
            os.replace(tmp, target)  # atomic: a reader never sees half a file

        await anyio.to_thread.run_sync(move)

    async def size(self, key: str) -> int | None:
        try:
            return self._path(key).stat().st_size
        except (FileNotFoundError, ValueError):
            return None

    async def read(self, key: str, start: int = 0, end: int | None = None) -> AsyncIterator[bytes]:
        async with await anyio.open_file(self._path(key), "rb") as handle:
            await handle.seek(start)
            remaining = None if end is None else end - start + 1
            while remaining is None or remaining > 0:
                data = await handle.read(CHUNK if remaining is None else min(CHUNK, remaining))
                if not data:
                    break
                if remaining is not None:
                    remaining -= len(data)
                yield data

    async def delete(self, key: str) -> None:
        try:
            self._path(key).unlink(missing_ok=True)
        except ValueError:
            pass
