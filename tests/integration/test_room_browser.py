"""Headless Chromium (Debian's, driven by Playwright as a library) joins rooms served by a real `avatar serve` on
loopback: the join page, and the SDK embedded in a page of another origin."""

from __future__ import annotations

import asyncio
import http.server
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)")
AVATAR = [sys.executable, "-m", "avatar_service"]
FLAGS = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream", "--allow-loopback-in-peer-connection",
         "--autoplay-policy=no-user-gesture-required", "--no-sandbox", "--disable-gpu"]
STATUS = "document.querySelector('avatar-room').shadowRoot.getElementById('status')"
CONNECTED = ("(() => { const root = document.querySelector('avatar-room').shadowRoot;"
             " return !!root && root.getElementById('status').dataset.state === 'connected'; })()")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's data folder (its SQLite file is avatar.db)."""
    return tmp_path_factory.mktemp("browser-room")


@pytest.fixture(scope="module")
def server(data: Path) -> Iterator[tuple[str, str]]:
    """`avatar serve` on a free loopback port with a SQLite file; yields its base URL and a '*' key."""
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


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        chromium = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield chromium
        finally:
            await chromium.close()


async def _conversation(api: httpx.AsyncClient, **config: Any) -> dict[str, Any]:
    personality = (await api.post("/v1/personalities", json={"name": "Ava"})).json()
    response = await api.post("/v1/conversations", json={"personality_id": personality["id"],
                                                          "initial_message": "Hello!", "config": config})
    assert response.status_code == 201, response.text
    return dict(response.json())


async def _until(check: Any, seconds: float = 30) -> Any:
    deadline = time.monotonic() + seconds
    value = None
    while time.monotonic() < deadline:
        value = await check()
        if value:
            return value
        await asyncio.sleep(0.2)
    return value


async def test_the_join_page_connects_fits_and_leaves(server: tuple[str, str], browser: Any) -> None:
    base, key = server
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}) as api:
        conversation = await _conversation(api)
        page = await browser.new_page(viewport={"width": 1366, "height": 768})
        missing: list[str] = []
        page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
        await page.goto(f"{conversation['room_url']}?token={conversation['room_token']}")

        async def connected() -> bool:
            state = await page.evaluate(CONNECTED)
            status = (await api.get(f"/v1/conversations/{conversation['id']}")).json()["status"]
            return bool(state and status == "active")

        assert await _until(connected), await page.evaluate(f"{STATUS}.textContent")
        assert "just speak" in (await page.evaluate(f"{STATUS}.textContent"))  # the VAD listens: no button to hold
        width = await _until(lambda: page.evaluate(
            "document.querySelector('avatar-room').shadowRoot.getElementById('avatar').videoWidth"), 10)
        assert width == 480  # the avatar's video plays
        # Everything needed fits a 1366x768 screen: the text box and its button are above the fold.
        box = await page.locator("#text").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 768
        assert missing == []  # no 404 (the favicon is there)
        await page.locator("#leave").click()
        ended = await _until(lambda: page.evaluate(f"{STATUS}.dataset.state === 'ended' && {STATUS}.textContent"), 10)
        assert ended == "You left the conversation."
        assert await page.locator("#text").is_disabled() and await page.locator("#send").is_disabled()
        body = (await api.get(f"/v1/conversations/{conversation['id']}")).json()
        assert (body["status"], body["end_reason"]) == ("ended", "left") and body["duration"] is not None


async def _join(browser: Any, conversation: dict[str, Any]) -> Any:
    page = await browser.new_page()
    await page.goto(f"{conversation['room_url']}?token={conversation['room_token']}")
    assert await _until(lambda: page.evaluate(CONNECTED)), await page.evaluate(f"{STATUS}.textContent")
    return page


async def _status(page: Any) -> tuple[str, str]:
    return tuple(await page.evaluate(f"[{STATUS}.dataset.state, {STATUS}.textContent]"))  # type: ignore[return-value]


async def test_push_to_talk_says_how_to_talk(server: tuple[str, str], browser: Any) -> None:
    base, key = server
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}) as api:
        conversation = await _conversation(api, vad_enabled=False)
        page = await _join(browser, conversation)
        # The hello event (push_to_talk) comes over the data channel just after the connection is up.
        assert await _until(lambda: page.locator("#talk").is_visible(), 10)
        state, text = await _status(page)
        assert state == "connected" and "Hold to talk" in text, text
        assert "speak, or type below" not in text and "just speak" not in text  # the VAD's wording, not this room's
        await page.locator("#leave").click()


async def test_a_delete_shows_why_at_once_and_disables_typing(server: tuple[str, str], browser: Any) -> None:
    base, key = server
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}) as api:
        conversation = await _conversation(api)
        page = await _join(browser, conversation)
        assert not await page.locator("#text").is_disabled()
        deleted = time.monotonic()
        assert (await api.delete(f"/v1/conversations/{conversation['id']}")).status_code == 200
        ended = await _until(lambda: page.evaluate(f"{STATUS}.dataset.state === 'ended'"), 5)
        shown_after = time.monotonic() - deleted
        assert ended and await _status(page) == ("ended", "The conversation was ended by the service.")
        assert shown_after < 1.5, shown_after  # told over the data channel, not found out seconds later
        assert await page.locator("#text").is_disabled() and await page.locator("#send").is_disabled()
        assert await page.locator("#leave").is_disabled()


async def test_a_lost_host_is_said_in_the_page(server: tuple[str, str], data: Path, browser: Any) -> None:
    """What the page shows when its room's host dies: the media goes without an `ended` event, and the room's
    state (asked when the connection drops, then every 2 s) says failed/host_lost, as a sweeper leaves it."""
    base, key = server
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}) as api:
        conversation = await _conversation(api)
        page = await _join(browser, conversation)
        # The media goes silently: another peer takes the room, and the server closes this page's peer without a
        # word (as a dead worker's would go)...
        other = await _join(browser, conversation)
        assert await _until(lambda: page.evaluate(f"{STATUS}.dataset.state === 'disconnected'"), 30), \
            await _status(page)
        await other.close()
        # ...and the conversation is failed as a sweeper fails a dead worker's (the page asks every 2 s).
        with sqlite3.connect(data / "avatar.db") as db:
            db.execute("UPDATE conversations SET status = 'failed', end_reason = 'host_lost', ended_at = "
                       "CURRENT_TIMESTAMP WHERE id = ?", (conversation["id"],))
        failed = await _until(lambda: page.evaluate(f"{STATUS}.dataset.state === 'failed'"), 6)
        assert failed and await _status(page) == ("failed", "The server hosting the conversation stopped.")
        assert await page.locator("#text").is_disabled() and await page.locator("#send").is_disabled()


async def test_a_closed_tab_ends_the_conversation(server: tuple[str, str], browser: Any) -> None:
    base, key = server
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}) as api:
        conversation = await _conversation(api)
        page = await browser.new_page()
        await page.goto(f"{conversation['room_url']}?token={conversation['room_token']}")
        assert await _until(lambda: page.evaluate(CONNECTED))
        closed = time.monotonic()
        await page.close()

        async def ended() -> bool:
            body = (await api.get(f"/v1/conversations/{conversation['id']}")).json()
            return bool(body["status"] == "ended" and body["end_reason"] == "left")

        assert await _until(ended, 15)
        assert time.monotonic() - closed < 12  # seconds, not the idle timeout's minutes


async def test_the_sdk_embeds_a_conversation_in_another_origins_page(server: tuple[str, str], browser: Any,
                                                                     tmp_path: Path) -> None:
    """The README's page: the SDK imported from the service by a page of another origin, <avatar-room> in it."""
    base, key = server
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}) as api:
        conversation = await _conversation(api)
        (tmp_path / "index.html").write_text(f"""<!doctype html>
<html><head><meta charset="utf-8"><title>Shop</title>
<script type="module" src="{base}/static/avatar-room.js"></script></head>
<body style="height: 100vh; margin: 0">
<avatar-room room-url="{conversation['room_url']}" token="{conversation['room_token']}"></avatar-room>
</body></html>""")
        handler = lambda *a: http.server.SimpleHTTPRequestHandler(*a, directory=str(tmp_path))  # noqa: E731
        site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=site.serve_forever, daemon=True).start()
        try:
            page = await browser.new_page(viewport={"width": 390, "height": 844})  # a phone
            console: list[str] = []
            page.on("console", lambda m: console.append(m.text))
            page.on("requestfailed", lambda r: console.append(f"failed {r.url} {r.failure}"))
            await page.goto(f"http://127.0.0.1:{site.server_address[1]}/index.html")
            assert await _until(lambda: page.evaluate(CONNECTED)), console
            assert await page.evaluate(f"import('{base}/static/avatar-room.js').then(m => typeof m.joinRoom)") \
                == "function"
            await page.locator("#text").fill("When does the museum open?")
            await page.locator("#text").press("Enter")
            lines = await _until(lambda: page.evaluate(
                "(() => { const root = document.querySelector('avatar-room').shadowRoot;"
                " const lines = [...root.querySelectorAll('#log p')].map(p => p.className + ': ' + p.textContent);"
                " return lines.length >= 3 && lines; })()"), 20)
            assert lines and lines[:2] == ["assistant: Hello!", "user: When does the museum open?"], lines
            assert await page.evaluate("document.scrollingElement.scrollWidth") <= 390  # nothing off the side
        finally:
            site.shutdown()
        transcript = (await api.get(f"/v1/conversations/{conversation['id']}",
                                    params={"include_transcript": "true"})).json()["transcript"]
        assert [t["role"] for t in transcript] == ["assistant", "user", "assistant"]


async def test_a_browser_that_blocks_autoplay_gets_a_click_to_start(server: tuple[str, str]) -> None:
    from playwright.async_api import async_playwright

    base, key = server
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}) as api:
        conversation = await _conversation(api)
        async with async_playwright() as p:
            chromium = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            try:
                page = await chromium.new_page()
                # Chromium lets a page that holds the microphone play sound by itself, so the refusal other browsers
                # (and Chromium without a microphone) give is played here: play() without a user's click rejects.
                await page.add_init_script("""(() => {
                  let clicked = false;
                  document.addEventListener("pointerdown", () => { clicked = true; }, true);
                  const play = HTMLMediaElement.prototype.play;
                  HTMLMediaElement.prototype.play = function () {
                    if (!clicked && !this.muted) {
                      return Promise.reject(new DOMException("The user has not interacted", "NotAllowedError"));
                    }
                    return play.call(this);
                  };
                })();""")
                await page.goto(f"{conversation['room_url']}?token={conversation['room_token']}")
                blocked = await _until(lambda: page.evaluate(
                    "(() => { const root = document.querySelector('avatar-room').shadowRoot;"
                    " return !!root && root.getElementById('status').dataset.state === 'blocked'; })()"))
                assert blocked, await page.evaluate(f"{STATUS}.textContent")
                assert await page.locator("#start button").is_visible()
                await page.locator("#start button").click()  # the click the browser wanted
                assert await _until(lambda: page.evaluate(CONNECTED), 10)
                assert not await page.locator("#start button").is_visible()
                assert await page.evaluate(
                    "!document.querySelector('avatar-room').shadowRoot.getElementById('voice').paused")
            finally:
                await chromium.close()
