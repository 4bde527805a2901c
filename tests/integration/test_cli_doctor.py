"""`avatar --version`, shell completion and `avatar doctor`, as a user runs them."""

from __future__ import annotations

import dataclasses
import importlib.metadata
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from avatar_service.adapters import model_files
from avatar_service.entrypoints.cli import app

AVATAR = str(Path(sys.executable).with_name("avatar"))


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("AVATAR_")}
    return subprocess.run([AVATAR, *args], capture_output=True, text=True, timeout=180,
                          env={**environment, "AVATAR_EMBEDDER": "auto", **(env or {})})


@pytest.fixture
def migrated(sqlite_template: Path, tmp_path: Path) -> dict[str, str]:
    database = tmp_path / "avatar.db"
    shutil.copyfile(sqlite_template, database)
    return {"AVATAR_DATABASE_URL": f"sqlite+aiosqlite:///{database}", "AVATAR_DATA_DIR": str(tmp_path / "data")}


def lines(output: str) -> dict[str, list[str]]:
    """The doctor's lines by what they check: {"model file": ["ok ...", ...], ...}."""
    found: dict[str, list[str]] = {}
    for line in output.splitlines():
        status, what = line[:5].strip(), line[6:24].strip()
        found.setdefault(what, []).append(f"{status} {line[25:]}")
    return found


def test_version_and_completion() -> None:
    done = run("--version")
    assert done.returncode == 0 and done.stdout == f"avatar-service {importlib.metadata.version('avatar-service')}\n"
    # typer finds the shell it runs in (shellingham); a test's parent may be sh, which it does not support, so the
    # shell is named instead, through the switch typer's own tests use
    script = run("--show-completion", "bash", env={"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"})
    assert script.returncode == 0 and "_AVATAR_COMPLETE=complete_bash" in script.stdout
    # what bash asks for at `avatar perso<TAB>` and `avatar memories s<TAB>` (sub-apps and merged commands alike)
    for words, cword, expected in [("avatar perso", "1", "personalities"), ("avatar memories s", "2", "search"),
                                   ("avatar ch", "1", "chat"), ("avatar do", "1", "doctor")]:
        completed = run(env={"_AVATAR_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": cword})
        assert completed.returncode == 0 and completed.stdout.split() == [expected], (words, completed)


def test_doctor_on_this_machine(migrated: dict[str, str]) -> None:
    done = run("doctor", env=migrated)
    assert done.returncode == 0, done.stdout + done.stderr
    found = lines(done.stdout)
    assert found["database"][0].startswith("ok ") and "migrations at head" in found["database"][0]
    assert len(found["model file"]) == len(model_files.EVERY_FILE)
    assert all(line.startswith("ok ") for line in found["model file"])
    for file in model_files.EVERY_FILE:
        assert any(file.what in line and file.sha256[:12] in line for line in found["model file"])
    assert found["espeak-ng"][0].startswith("ok ") and found["photo avatars"][0].startswith("ok ")
    assert found["embedder"] == ["ok minilm-l6-v2-int8"] and found["dialogue"] == ["ok offline-grounded"]
    assert {"speech openai", "speech to text", "renderer", "rooms"} <= set(found)
    assert found["voice activity"] == ["ok silero-v6"]
    assert all(not line.startswith("fail") for group in found.values() for line in group)


def test_doctor_warns_when_the_vad_falls_back_to_energy(migrated: dict[str, str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "faster_whisper.vad", None)  # as if Silero could not be imported
    for name, value in migrated.items():
        monkeypatch.setenv(name, value)
    result: Any = CliRunner().invoke(app, ["doctor"])
    assert result.exit_code == 0, result.output  # a warning: rooms still hear speech in quiet rooms
    [line] = lines(result.stdout)["voice activity"]
    assert line.startswith("warn energy:") and "-> reinstall faster-whisper" in line


def test_doctor_fails_on_a_database_behind_its_migrations(tmp_path: Path) -> None:
    missing = run("doctor", env={"AVATAR_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/none.db",
                                 "AVATAR_DATA_DIR": str(tmp_path)})
    assert missing.returncode == 1 and "run `avatar migrate`" in lines(missing.stdout)["database"][0]
    assert not (tmp_path / "none.db").exists()  # looking does not create the file


def test_doctor_names_a_model_file_whose_hash_does_not_match(migrated: dict[str, str], tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A republished wheel: the Piper voice replaced by a file of other bytes is refused, by name."""
    voice = model_files.PIPER_JOE[0]
    tampered = tmp_path / "en_US-joe-medium.onnx"
    shutil.copyfile(voice.path(), tampered)
    with tampered.open("r+b") as fh:
        fh.seek(1000)
        fh.write(b"\x00\x01\x02\x03")
    swapped = dataclasses.replace(voice, distribution=None, relative=str(tampered))  # same pinned hash
    monkeypatch.setattr(model_files, "EVERY_FILE", tuple(swapped if f is voice else f for f in model_files.EVERY_FILE))
    for name, value in migrated.items():
        monkeypatch.setenv(name, value)
    result: Any = CliRunner().invoke(app, ["doctor"])
    assert result.exit_code == 1, result.output
    failed = [line for line in lines(result.stdout)["model file"] if line.startswith("fail")]
    assert len(failed) == 1 and str(tampered) in failed[0] and "Piper voice en_US-joe-medium" in failed[0]
    assert f"expected {voice.sha256}" in failed[0] and "-> reinstall" in failed[0]
