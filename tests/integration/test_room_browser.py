"""Headless Chromium joins the room page served by a real `avatar serve` on loopback and connects by WebRTC."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)")
AVATAR = [sys.executable, "-m", "avatar_service"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """`avatar serve` on a free loopback port with a SQLite file; yields its base URL and a '*' key."""
    data = tmp_path_factory.mktemp("browser-room")
    port = _free_port()
    env = {**os.environ, "AVATAR_DATABASE_URL": f"sqlite+aiosqlite:///{data}/avatar.db", "AVATAR_DATA_DIR": str(data),
           "AVATAR_EMBEDDER": "lexical", "AVATAR_PUBLIC_URL": f"http://127.0.0.1:{port}",
           "AVATAR_ROOM_HOST_ADDRESSES": "127.0.0.1"}
    subprocess.run([*AVATAR, "migrate"], env=env, check=True, capture_output=True, timeout=60)
    key = subprocess.run([*AVATAR, "keys", "create", "--name", "browser", "--scopes", "*"], env=env, check=True,
                         capture_output=True, text=True, timeout=60).stdout.strip()
    process = subprocess.Popen([*AVATAR, "serve", "--host", "127.0.0.1", "--port", str(port)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            pytest.fail("avatar serve did not come up")
        yield base, key
    finally:
        process.terminate()
        process.wait(timeout=20)


class Chromium:
    """A headless Chromium with a fresh profile, driven over the DevTools protocol."""

    def __init__(self, url: str, profile: Path) -> None:
        self.profile = profile
        self.process = subprocess.Popen(
            [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--use-fake-device-for-media-stream",
             "--use-fake-ui-for-media-stream", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--no-first-run", "--allow-loopback-in-peer-connection",
             "--autoplay-policy=no-user-gesture-required", f"--user-data-dir={profile}",
             "--remote-debugging-port=0", url],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def page_socket(self) -> str:
        port_file = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if port_file.exists() and port_file.read_text().strip():
                port = port_file.read_text().split()[0]
                try:
                    pages = httpx.get(f"http://127.0.0.1:{port}/json/list", timeout=2).json()
                except httpx.HTTPError:
                    pages = []
                for page in pages:
                    if page.get("type") == "page" and "/rooms/" in page.get("url", ""):
                        return str(page["webSocketDebuggerUrl"])
            time.sleep(0.2)
        raise AssertionError("Chromium's DevTools did not come up")

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


async def _evaluate(socket_url: str, expression: str) -> Any:
    async with websockets.connect(socket_url, max_size=None) as ws:
        await ws.send(json.dumps({"id": 1, "method": "Runtime.evaluate",
                                  "params": {"expression": expression, "returnByValue": True}}))
        while True:
            message = json.loads(await ws.recv())
            if message.get("id") == 1:
                return message["result"]["result"].get("value")


async def test_page_joins_and_connects(server: tuple[str, str], tmp_path: Path) -> None:
    base, key = server
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(base_url=base, headers=headers) as api:
        personality = (await api.post("/v1/personalities", json={"name": "Ava"})).json()
        conversation = (await api.post("/v1/conversations", json={"personality_id": personality["id"],
                                                                  "initial_message": "Hello!"})).json()
        url = f"{conversation['room_url']}?token={conversation['room_token']}"
        browser = Chromium(url, tmp_path / "profile")
        try:
            page = await asyncio.to_thread(browser.page_socket)
            state, status = "", ""
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                state = await _evaluate(page, "document.getElementById('status').dataset.state")
                status = (await api.get(f"/v1/conversations/{conversation['id']}")).json()["status"]
                if state == "connected" and status == "active":
                    break
                await asyncio.sleep(0.3)
            text = await _evaluate(page, "document.getElementById('status').textContent")
            assert (state, status) == ("connected", "active"), text
            # The avatar's video reaches the page's <video> element.
            frames = 0
            for _ in range(50):
                frames = await _evaluate(page, "document.getElementById('avatar').videoWidth")
                if frames:
                    break
                await asyncio.sleep(0.2)
            assert frames == 480
            ended = (await api.delete(f"/v1/conversations/{conversation['id']}")).json()
            assert ended["status"] == "ended"
        finally:
            browser.close()
