"""The README's embedding example runs as printed, and embedded callers get the core's validation."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

import avatar_service
from avatar_service.core.errors import Invalid
from avatar_service.core.model import PersonalityCreate
from avatar_service.core.pagination import PageRequest

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_example() -> str:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert blocks, "the README has no Python example"
    return blocks[0]


def test_readme_example_runs(tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(readme_example())
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
                            timeout=120, env={"AVATAR_EMBEDDER": "lexical", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Ava remembers: Alice has a dog named Rex" in result.stdout
    assert (tmp_path / "var" / "embedded.db").exists()


async def test_embedded_calls_are_validated_like_http(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/e.db"
    async with avatar_service.open(url, worker=False, embedder="lexical", data_dir=str(tmp_path)) as avatars:
        org = await avatars.organization()
        with pytest.raises(Invalid) as caught:
            await avatars.personalities.create(org.id, PersonalityCreate(name="x" * 300))
        assert caught.value.param == "name"
        ava = await avatars.personalities.create(org.id, PersonalityCreate(name="Ava"))
        page = await avatars.personalities.list(org.id, PageRequest())
        assert [p.id for p in page.data] == [ava.id]
