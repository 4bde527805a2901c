"""The log formats: JSON lines that parse, text lines with a timestamp, request ids from the context."""

import io
import json
import logging
import re
from collections.abc import Iterator

import pytest

from avatar_service.entrypoints.logs import REQUEST_ID, JsonFormatter, configure_from_environment, configure_logging

RFC3339_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


@pytest.fixture
def restored() -> Iterator[None]:
    """configure_logging replaces the root's handlers: put pytest's back afterwards."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    libraries = {name: (logging.getLogger(name).handlers[:], logging.getLogger(name).propagate)
                 for name in ("uvicorn", "uvicorn.error", "uvicorn.access")}
    try:
        yield
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
        for name, (kept, propagate) in libraries.items():
            logging.getLogger(name).handlers[:] = kept
            logging.getLogger(name).propagate = propagate


def test_json_lines_parse_with_every_field(restored: None) -> None:
    stream = io.StringIO()
    configure_logging("INFO", "json", stream)
    logging.getLogger("avatar_service.x").info("plain %s", "line")
    token = REQUEST_ID.set("req_abc")
    try:
        logging.getLogger("uvicorn.error").warning("multi\nline")  # a library's logger, through the root
        try:
            raise ValueError("boom")
        except ValueError:
            logging.getLogger("avatar_service.x").exception("failed")
    finally:
        REQUEST_ID.reset(token)
    logging.getLogger("avatar_service.x").debug("below the level")
    plain, library, failed = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert set(plain) == {"timestamp", "level", "logger", "message"}
    assert RFC3339_UTC.fullmatch(plain["timestamp"]) and plain["level"] == "INFO"
    assert plain["logger"] == "avatar_service.x" and plain["message"] == "plain line"
    assert library == {**library, "logger": "uvicorn.error", "level": "WARNING", "message": "multi\nline",
                       "request_id": "req_abc"}
    assert failed["request_id"] == "req_abc" and failed["level"] == "ERROR"
    assert failed["exception"].startswith("Traceback") and "ValueError: boom" in failed["exception"]


def test_text_lines_carry_time_level_logger_and_request_id(restored: None) -> None:
    stream = io.StringIO()
    configure_logging("info", "text", stream)
    logging.getLogger("avatar_service.x").warning("outside")
    token = REQUEST_ID.set("abc-1")
    try:
        logging.getLogger("avatar_service.x").warning("inside")
    finally:
        REQUEST_ID.reset(token)
    outside, inside = stream.getvalue().splitlines()
    stamp = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"
    assert re.fullmatch(stamp + r" WARNING avatar_service\.x: outside", outside), outside
    assert re.fullmatch(stamp + r" WARNING avatar_service\.x \[abc-1\]: inside", inside), inside


def test_an_unknown_format_is_refused(restored: None) -> None:
    with pytest.raises(SystemExit, match="AVATAR_LOG_FORMAT"):
        configure_logging("INFO", "yaml")  # type: ignore[arg-type]


def test_an_unknown_level_is_refused(restored: None) -> None:
    with pytest.raises(SystemExit, match="AVATAR_LOG_LEVEL"):
        configure_logging("loud", "text")


def test_before_any_command_the_environment_decides(restored: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AVATAR_LOG_FORMAT", "json")
    monkeypatch.delenv("AVATAR_LOG_LEVEL", raising=False)
    configure_from_environment()
    root = logging.getLogger()
    assert root.level == logging.WARNING and isinstance(root.handlers[0].formatter, JsonFormatter)
    monkeypatch.setenv("AVATAR_LOG_LEVEL", "debug")
    configure_from_environment()
    assert logging.getLogger().level == logging.DEBUG
