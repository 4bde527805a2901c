"""`avatar video render|list|get|cancel`: render with a live progress bar and write the file."""

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio
import typer
from rich.progress import BarColumn, DownloadColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn

from avatar_service.entrypoints.cli.backends import Backend, CliError
from avatar_service.entrypoints.cli.common import Cli, Column, command, console, errors, find_personality

app = typer.Typer(help="Video generations: an avatar speaking text or lip-syncing audio.", no_args_is_help=True)

COLUMNS: list[Column] = [("id", "id"), ("status", "status"), ("progress", "progress"), ("duration", "duration"),
                         ("personality id", "personality_id"), ("error", "error.code"), ("created", "created_at")]
FINAL = ("completed", "failed", "cancelled")


@contextmanager
def served(file: Path) -> Iterator[str]:
    """A local audio file at a loopback URL for as long as the render needs it: the service fetches audio_url."""
    handler = partial(_Quiet, directory=str(file.parent))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/{file.name}"
    finally:
        server.shutdown()
        server.server_close()


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return None


async def follow(cli: Cli, api: Backend, video: dict[str, Any], out: Path) -> dict[str, Any]:
    """Polls the generation with a progress bar (percentage and ETA), then downloads the file."""
    columns = (TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, disable=cli.json) as progress:
        task = progress.add_task("rendering", total=100, completed=video["progress"])
        try:
            while video["status"] not in FINAL:
                await anyio.sleep(0.3)
                video = await api.call("videos.get", video["id"])
                progress.update(task, completed=video["progress"], description=video["status"])
        except (KeyboardInterrupt, anyio.get_cancelled_exc_class()):
            with anyio.CancelScope(shield=True):
                await api.call("videos.cancel", video["id"])
            raise
    if video["status"] != "completed":
        return video
    with Progress(TextColumn("downloading"), BarColumn(), DownloadColumn(), console=console,
                  disable=cli.json) as progress:
        fetch = progress.add_task("downloading", total=None)
        await api.download(video["video_url"], out, lambda done, total: progress.update(
            fetch, completed=done, total=total))
    return video


@command(app, "render")
async def render(cli: Cli, personality: str = typer.Argument(..., help="personality_... or its name."),
                 text: str | None = typer.Option(None, help="What the avatar says."),
                 audio: str | None = typer.Option(None, help="Audio to lip-sync: a local file or an http(s) URL."),
                 out: Path = typer.Option(..., "--out", dir_okay=False, help="Where to write the video (.mp4)."),
                 resolution: str = typer.Option("720p", help="480p, 720p or 1080p."),
                 duration: int | None = typer.Option(None, help="At most this many seconds (1-300)."),
                 background: str | None = typer.Option(None, help="transparent, blur, #rrggbb or an image URL.")
                 ) -> None:
    """Render a video of the personality speaking, showing progress, and write it to --out."""
    if (text is None) == (audio is None):
        raise typer.BadParameter("give exactly one of --text or --audio", param_hint="--text/--audio")
    local = Path(audio) if audio and not audio.startswith(("http://", "https://")) else None
    if local is not None and not local.is_file():
        raise typer.BadParameter(f"no such file: {local}", param_hint="--audio")
    with served(local.resolve()) if local else _nothing() as audio_url:
        # Embedded, this process renders (and may fetch its own loopback URL); over HTTP the server
        # fetches it, which works for a server on this machine that allows private URLs.
        settings = {"allow_private_urls": True} if local and not cli.remote else {}
        async with cli.connect(jobs=True, **settings) as api:
            found = await find_personality(api, personality)
            body = {"personality_id": found["id"], "text": text, "audio_url": audio_url or audio,
                    "resolution": resolution, "duration": duration, "background": background}
            video = await api.call("videos.create", body={k: v for k, v in body.items() if v is not None})
            video = await follow(cli, api, video, out)
    if cli.json:
        cli.dump(video)
    if video["status"] != "completed":
        error = video.get("error") or {}
        raise CliError(f"the video {video['status']}: {error.get('message', '')} ({error.get('code', '-')})".strip())
    size = (await anyio.Path(out).stat()).st_size
    errors.print(f"wrote {out} ({video.get('duration')} s, {size} bytes) from {video['id']}")


@contextmanager
def _nothing() -> Iterator[None]:
    yield None


@command(app, "list")
async def list_(cli: Cli, status: str | None = typer.Option(None, help="pending, processing, completed, failed "
                                                                      "or cancelled."),
                limit: int = typer.Option(20, help="Page size, 1 to 100."),
                cursor: str | None = typer.Option(None, help="next_cursor of the previous page.")) -> None:
    """List video generations, newest first."""
    async with cli.connect() as api:
        page = await api.call("videos.list", query={"status": status, "limit": limit, "cursor": cursor})
    cli.page(page, COLUMNS, empty="no videos yet")


@command(app, "get")
async def get(cli: Cli, video_id: str = typer.Argument(..., help="vid_...")) -> None:
    """Show one video generation (its video_url is signed: no key needed to fetch it)."""
    async with cli.connect() as api:
        cli.show(await api.call("videos.get", video_id))


@command(app, "cancel")
async def cancel(cli: Cli, video_id: str = typer.Argument(..., help="vid_...")) -> None:
    """Cancel a pending or processing render."""
    async with cli.connect() as api:
        cli.show(await api.call("videos.cancel", video_id))
