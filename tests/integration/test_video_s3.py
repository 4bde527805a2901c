"""The S3 blob store against a local S3-compatible server (moto's server mode on loopback): the adapter on its
own, then a whole generation served from the bucket through the signed media route with ranges."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from avatar_service.entrypoints.settings import Settings

from .helpers import Receiver, Service
from .test_video_render import fetch_media, generate, read, serve_audio, syllables

boto3 = pytest.importorskip("boto3", reason="the S3 blob store needs boto3 (pip install 'avatar-service[s3]')")
moto_server = pytest.importorskip("moto.server", reason="the S3 tests need moto's local S3 server: moto[server]")

KEYS = {"access_key": "testing", "secret_key": "testing", "region": "us-east-1"}


@pytest.fixture(scope="module")
def s3_endpoint() -> Iterator[str]:
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield f"http://{host}:{port}"
    finally:
        server.stop()


@pytest.fixture
def bucket(s3_endpoint: str) -> str:
    name = f"media-{uuid.uuid4().hex[:12]}"
    client = boto3.client("s3", endpoint_url=s3_endpoint, aws_access_key_id="testing",
                          aws_secret_access_key="testing", region_name="us-east-1")
    client.create_bucket(Bucket=name)
    return name


@pytest.fixture
def settings_overrides(s3_endpoint: str, bucket: str) -> dict[str, Any]:
    return {"allow_private_urls": True, "blob_store": "s3", "s3_bucket": bucket, "s3_endpoint_url": s3_endpoint,
            "s3_access_key": "testing", "s3_secret_key": "testing", "s3_region": "us-east-1"}


async def test_adapter_put_size_read_ranges_delete(s3_endpoint: str, bucket: str, tmp_path: Path) -> None:
    from avatar_service.adapters.s3_blobs import S3Blobs

    blobs = S3Blobs(bucket, endpoint_url=s3_endpoint, prefix="tenant-a", **KEYS)
    data = bytes(range(256)) * 4000  # about 1 MB: several read chunks
    source = tmp_path / "v.mp4"
    source.write_bytes(data)
    await blobs.put_file("videos/v1/video.mp4", source, "video/mp4")

    async def read_all(*span: Any) -> bytes:
        return b"".join([chunk async for chunk in blobs.read("videos/v1/video.mp4", *span)])

    assert await blobs.size("videos/v1/video.mp4") == len(data)
    assert await read_all() == data
    assert await read_all(1000, 1999) == data[1000:2000]
    assert await read_all(len(data) - 10) == data[-10:]
    head = blobs.client.head_object(Bucket=bucket, Key="tenant-a/videos/v1/video.mp4")  # under the prefix
    assert head["ContentType"] == "video/mp4"
    assert await blobs.size("videos/v1/missing.mp4") is None
    await blobs.delete("videos/v1/video.mp4")
    await blobs.delete("videos/v1/video.mp4")  # deleting what is gone is fine
    assert await blobs.size("videos/v1/video.mp4") is None


async def test_generation_is_served_from_the_bucket(
        service: Service, client: AsyncTestClient[Any], receiver: Receiver, bucket: str, s3_endpoint: str) -> None:
    created = await generate(client, audio_url=serve_audio(receiver, "a.wav", syllables(0.8)), background="#203040")
    await service.drain()
    video = await read(client, created["id"])
    assert video["status"] == "completed", video
    s3 = boto3.client("s3", endpoint_url=s3_endpoint, aws_access_key_id="testing", aws_secret_access_key="testing",
                      region_name="us-east-1")
    stored = {o["Key"]: o["Size"] for o in s3.list_objects_v2(Bucket=bucket)["Contents"]}
    assert len(stored) == 2 and all(key.startswith(f"videos/{created['id']}/") for key in stored)
    data = (await fetch_media(client, video["video_url"])).content
    assert len(data) == next(size for key, size in stored.items() if key.endswith(".mp4"))
    part = await fetch_media(client, video["video_url"], Range="bytes=10-209")
    assert part.status_code == 206 and part.content == data[10:210]
    assert part.headers["content-range"] == f"bytes 10-209/{len(data)}"
    assert (await fetch_media(client, video["thumbnail_url"])).headers["content-type"] == "image/jpeg"
    media = Path(service.container.resolve(Settings).data_dir) / "media"
    assert not media.exists() or not any(media.rglob("*.*"))  # nothing went to the local disk
