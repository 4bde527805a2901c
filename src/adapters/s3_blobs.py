"""The blob store on any S3-compatible server (AWS S3, MinIO, Ceph, R2 ...), through boto3 in worker threads."""

from __future__ import annotations

from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path
from typing import Any

import anyio.to_thread

CHUNK = 256 * 1024


class S3Blobs:
    """boto3 is blocking, so every call runs in a worker thread; its client is thread-safe."""

    def __init__(self, bucket: str, *, endpoint_url: str | None = None, access_key: str | None = None,
                 secret_key: str | None = None, region: str | None = None, prefix: str = "") -> None:
        try:
            import boto3
            from botocore.config import Config
        except ImportError:
            raise SystemExit("AVATAR_BLOB_STORE=s3 needs boto3: pip install 'avatar-service[s3]'") from None
        self.bucket = bucket
        self.prefix = prefix.strip("/") + "/" if prefix.strip("/") else ""
        # Without explicit keys boto3 looks in its usual places (environment, profile, instance role).
        self.client: Any = boto3.client(
            "s3", endpoint_url=endpoint_url or None, aws_access_key_id=access_key or None,
            aws_secret_access_key=secret_key or None, region_name=region or None,
            config=Config(retries={"max_attempts": 3, "mode": "standard"},
                          s3={"addressing_style": "path"} if endpoint_url else None),
        )

    def _key(self, key: str) -> str:
        return self.prefix + key

    async def _call(self, method: str, **kwargs: Any) -> Any:
        return await anyio.to_thread.run_sync(partial(getattr(self.client, method), **kwargs))

    async def put_file(self, key: str, source: Path, content_type: str) -> None:
        # upload_file goes multipart for large files; the object appears whole or not at all.
        await anyio.to_thread.run_sync(partial(
            self.client.upload_file, str(source), self.bucket, self._key(key),
            ExtraArgs={"ContentType": content_type}))

    async def size(self, key: str) -> int | None:
        from botocore.exceptions import ClientError

        try:
            head = await self._call("head_object", Bucket=self.bucket, Key=self._key(key))
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
                return None
            raise
        return int(head["ContentLength"])

    async def read(self, key: str, start: int = 0, end: int | None = None) -> AsyncIterator[bytes]:
        ranged = {} if start == 0 and end is None else {"Range": f"bytes={start}-{'' if end is None else end}"}
        response = await self._call("get_object", Bucket=self.bucket, Key=self._key(key), **ranged)
        body = response["Body"]
        try:
            while True:
                data = await anyio.to_thread.run_sync(body.read, CHUNK)
                if not data:
                    break
                yield data
        finally:
            body.close()

    async def delete(self, key: str) -> None:
        await self._call("delete_object", Bucket=self.bucket, Key=self._key(key))  # absent keys are fine
