"""Schemathesis against the app's own OpenAPI document, in-process: every operation, positive and negative data.

All default checks run: no 5xx, response schema and status-code conformance, negative data rejected, a
request without the key answers 401, a method the document does not list answers 405. Examples per operation
are few so CI stays fast; `AVATAR_FUZZ_EXAMPLES=500` runs the longer campaign (README, Hardening).
"""

from __future__ import annotations

import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import schemathesis
from schemathesis import GenerationMode
from schemathesis.core.parameters import ParameterLocation
from schemathesis.transport.serialization import Binary

from avatar_service.adapters.dlib_faces import _models as face_models
from avatar_service.core.pagination import encode_cursor

from .conftest import build_app, prepare, run, settings_for

EXAMPLES = int(os.environ.get("AVATAR_FUZZ_EXAMPLES", "12"))
PORTRAIT = (Path(__file__).parents[1] / "data" / "astronaut.png").read_bytes()
face_models()  # loaded before the clock starts: the first upload would otherwise wait seconds for them


# Built at import: schemathesis's lazy fixture loader does not work with pytest 9 (it reads a removed
# attribute), so the schema is loaded eagerly at collection, from an app in a directory of its own.
DIRECTORY = Path(tempfile.mkdtemp(prefix="avatar-fuzz-"))
# No rate limit: the fuzzer sends far more than 600 requests a minute with one key.
SETTINGS = settings_for(DIRECTORY, rate_limit_per_minute=0)
SECRET = run(prepare, SETTINGS, {"root": ("default", ["*"])})["root"]

schema = schemathesis.openapi.from_asgi("/schema/openapi.json", build_app(SETTINGS))
schema.config.generation.update(
    modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE], max_examples=EXAMPLES, deterministic=True,
    # The service refuses U+0000 in every text (PostgreSQL cannot store it; strict_input.py answers 400, tested
    # in tests/integration/test_http_errors.py), which a document cannot say of every string it describes.
    allow_x00=False,
)


@schema.hook
def map_case(context: Any, case: Any) -> Any:
    """A cursor is opaque: any string the API did not hand out is a 400, which no schema can express. Positive
    cases get a well-formed cursor (a real encoding of a random position) in place of the generated one."""
    query = case.query or {}
    positive = case.meta is not None and case.meta.generation.mode == GenerationMode.POSITIVE
    if positive and "cursor" in query:
        query["cursor"] = encode_cursor(datetime(2024, 1, 1, tzinfo=UTC), "personality_" + "x" * 24)
    # Likewise a photo avatar's image must show one face, which no schema can say: positive uploads send a portrait.
    if positive and case.method.upper() == "POST" and case.path == "/v1/avatars" and isinstance(case.body, dict):
        # Any bytes are a valid `format: binary`, so the case stays positive; schemathesis would revalidate the
        # edited body from its typed snapshot, where a binary field never validates, and call it negative. The
        # body's hash is brought up to date instead (schemathesis's own bookkeeping, as its __setattr__ does).
        image = case.body.get("image")
        if isinstance(image, Binary):
            image.data = PORTRAIT
            case._meta.update_validated_hash(ParameterLocation.BODY, case._hash_container(case.body))
    # A personality's tool names must differ from each other, which no schema can say of objects in a list.
    body = case.body if isinstance(case.body, dict) else {}
    if case.meta is not None and case.meta.generation.mode == GenerationMode.POSITIVE and \
            isinstance(body.get("tools"), list):
        for index, tool in enumerate(body["tools"]):
            if isinstance(tool, dict) and isinstance(tool.get("name"), str):
                tool["name"] = f"t{index}_{tool['name']}"[:64]
    return case


@schema.parametrize()
def test_api(case: Any) -> None:
    # A portrait's analysis takes a second or two (many more on a machine busy with other tests): past the
    # default 10 s read timeout there is no fault to find, only a slow CPU.
    timeout = 120 if case.path == "/v1/avatars" and case.method.upper() == "POST" else 10
    case.call_and_validate(headers={"Authorization": f"Bearer {SECRET}"}, timeout=timeout)
