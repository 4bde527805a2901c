"""Writes the sync client (src/client/_sync/) from the async one (src/client/_async/), as httpcore does its own.

The two clients are one code: the async source is rewritten token by token (`async def` -> `def`, `await` goes,
`AsyncX` -> `X`, `aclose` -> `close` ...). Run it after editing src/client/_async/; `--check` (a test runs the
same comparison) fails when the sync files are not what the async ones make.

    .venv/bin/python scripts/unasync_client.py [--check]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "src" / "client"
FILES = ("transport.py", "content.py", "activity.py", "admin.py", "client.py")

SUBSTITUTIONS = [
    (r"avatar_service\.client\._async\.", "avatar_service.client._sync."),
    (r"AsyncIterator", "Iterator"),
    (r"Async([A-Z][A-Za-z0-9_]*)", r"\1"),
    (r"async def", "def"),
    (r"async with", "with"),
    (r"async for", "for"),
    (r"await ", ""),
    (r"__aenter__", "__enter__"),
    (r"__aexit__", "__exit__"),
    (r"__aiter__", "__iter__"),
    (r"aclose", "close"),
    (r"aread", "read"),
    (r"aiter_lines", "iter_lines"),
    (r"aiter_bytes", "iter_bytes"),
    (r"import asyncio", "import time"),
    (r"asyncio\.sleep", "time.sleep"),
]
# What only the sync twin may (or must) say: `yield from` a list; no noqa for the async-only checks.
REWRITES = [
    (re.compile(r"for (\w+) in ([\w.]+):\n(\s+)yield \1\n"), r"yield from \2\n"),
    (re.compile(r"  # noqa: ASYNC\d+"), ""),
]
COMPILED = [(re.compile(rf"\b{pattern}"), replacement) for pattern, replacement in SUBSTITUTIONS]
# The async file's note about its generated twin becomes the generated file's note about its source.
FROM_IMPORT = re.compile(r"^(from \S+ import )(\w+(?:, \w+)+)$", re.MULTILINE)
NOTE = re.compile(r"`_sync/(\w+\.py)` is generated from this file \(scripts/unasync_client\.py\): edit this one, "
                  r"then regenerate\.")


def unasync(source: str) -> str:
    text = NOTE.sub(r"Generated from `_async/\1` by scripts/unasync_client.py: edit that file and regenerate.", source)
    for pattern, replacement in [*COMPILED, *REWRITES]:
        text = pattern.sub(replacement, text)
    # `AsyncIterator, Callable` becomes `Iterator, Callable`: the names are sorted again, as isort wants them
    return FROM_IMPORT.sub(lambda m: m[1] + ", ".join(sorted(m[2].split(", "), key=_isort_key)), text)


def _isort_key(name: str) -> tuple[int, str, str]:
    """isort's order by type (CONSTANTS, Classes, functions), then case-insensitive."""
    return (0 if name.isupper() else 1 if name[0].isupper() else 2, name.lower(), name)


def generate() -> dict[Path, str]:
    return {ROOT / "_sync" / name: unasync((ROOT / "_async" / name).read_text()) for name in FILES}


def main(argv: list[str]) -> int:
    stale = [target for target, text in generate().items()
             if not target.exists() or target.read_text() != text]
    if "--check" in argv:
        for target in stale:
            print(f"{target} is not what {target.name} in _async/ makes: run scripts/unasync_client.py")
        return 1 if stale else 0
    for target, text in generate().items():
        target.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
