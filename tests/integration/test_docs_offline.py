"""The docs page at /schema works offline: Chromium renders it from a real `avatar serve` with every request it
makes answered by the service itself (no CDN, no font service)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest

from .helpers import free_port

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)")


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("docs")
    port = free_port()
    env = {**os.environ, "AVATAR_DATABASE_URL": f"sqlite+aiosqlite:///{data}/avatar.db", "AVATAR_DATA_DIR": str(data),
           "AVATAR_EMBEDDER": "lexical"}
    process = subprocess.Popen([sys.executable, "-m", "avatar_service", "serve", "--host", "127.0.0.1",
                                "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, "avatar serve did not come up"
            time.sleep(0.3)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_docs_page_renders_with_no_outside_request(base_url: str) -> None:
    from playwright.sync_api import sync_playwright

    requests: list[str] = []
    failures: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        try:
            page = browser.new_page()
            page.on("request", lambda request: requests.append(request.url))
            page.on("requestfailed", lambda request: failures.append(request.url))
            page.goto(f"{base_url}/schema", wait_until="networkidle")
            # Scalar draws the document: the API's title and an operation of ours appear as text.
            page.wait_for_selector("text=avatar_service", timeout=30_000)
            page.wait_for_selector("text=/personalities", timeout=30_000)
        finally:
            browser.close()
    outside = [url for url in requests if not url.startswith((base_url, "data:", "blob:", "about:"))]
    assert outside == [], outside
    assert failures == [], failures
    assert f"{base_url}/static/docs/scalar-api-reference.js" in requests
    assert f"{base_url}/schema/openapi.json" in requests


def test_favicon_and_static_files_are_served(base_url: str) -> None:
    icon = httpx.get(f"{base_url}/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/x-icon" and icon.content[:4] == \
        b"\x00\x00\x01\x00"
    script = httpx.get(f"{base_url}/static/docs/scalar-api-reference.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert httpx.get(f"{base_url}/static/nothing-here.js").status_code == 404
    assert httpx.get(f"{base_url}/static/../../settings.py").status_code in (400, 404)
