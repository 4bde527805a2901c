"""Logging for every process (`avatar serve`, `avatar worker`, `avatar migrate`, the other commands).

One handler on the root logger, so library loggers (uvicorn, litestar, sqlalchemy, procrastinate) are
formatted alike: `AVATAR_LOG_FORMAT=text` (the default) writes `TIME LEVEL LOGGER [REQUEST_ID]: message`,
`AVATAR_LOG_FORMAT=json` one JSON object per line (`timestamp` in RFC 3339 UTC, `level`, `logger`, `message`,
`request_id` when the line was written while handling a request, `exception` when there is one).

The request id lives in a context variable that the HTTP layer sets for each request; a filter on the
handler copies it onto every record, whoever logged it. Context variables follow the request into its
tasks and into anyio's worker threads (`to_thread.run_sync` copies the context).
"""

import logging
import os
import sys
import time
from contextvars import ContextVar
from typing import IO, Any, Literal

from msgspec import json

LogFormat = Literal["text", "json"]
REQUEST_ID: ContextVar[str | None] = ContextVar("avatar_request_id", default=None)
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s%(request_tag)s: %(message)s"
# uvicorn configures its own handlers unless told not to (log_config=None); these then reach the root's.
LIBRARY_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "litestar")


def current_request_id() -> str | None:
    """The id of the request being handled in this context, if any."""
    return REQUEST_ID.get()


class RequestIdFilter(logging.Filter):
    """Stamps the current request id on each record (`request_id`, and `request_tag` for the text format)."""

    def filter(self, record: logging.LogRecord) -> bool:
        request_id = getattr(record, "request_id", None) or REQUEST_ID.get()
        record.request_id = request_id
        record.request_tag = f" [{request_id}]" if request_id else ""
        return True


def _rfc3339(created: float) -> str:
    seconds = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(created))
    return f"{seconds}.{int(created % 1 * 1000):03d}Z"


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return _rfc3339(record.created)


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line (newlines inside the message or traceback are escaped)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {"timestamp": _rfc3339(record.created), "level": record.levelname,
                                "logger": record.name, "message": record.getMessage()}
        request_id = getattr(record, "request_id", None)
        if request_id:
            line["request_id"] = request_id
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.encode(line).decode()


def handler(log_format: LogFormat, stream: IO[str] | None = None) -> logging.Handler:
    """A stream handler (stderr by default) in the given format, stamping request ids."""
    if log_format not in ("text", "json"):
        raise SystemExit(f"AVATAR_LOG_FORMAT must be 'text' or 'json', not {log_format!r}")
    made = logging.StreamHandler(stream or sys.stderr)
    made.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    made.addFilter(RequestIdFilter())
    return made


def configure_logging(level: str = "INFO", log_format: LogFormat = "text", stream: IO[str] | None = None) -> None:
    """Replaces the root logger's handlers with one in the chosen format; library loggers propagate to it."""
    if not isinstance(logging.getLevelName(level.upper()), int):
        raise SystemExit(f"AVATAR_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {level!r}")
    logging.basicConfig(level=level.upper(), handlers=[handler(log_format, stream)], force=True)
    for name in LIBRARY_LOGGERS:
        library = logging.getLogger(name)
        library.handlers.clear()
        library.propagate = True
    logging.getLogger("alembic").setLevel(logging.WARNING)  # migrations are routine, not news


def configure_from_environment() -> None:
    """Before any `avatar` command: the format of AVATAR_LOG_FORMAT, at AVATAR_LOG_LEVEL when it is set and
    WARNING otherwise (a command's own output is what its user reads; `serve`, `worker` and `migrate` set
    the level of the settings again, INFO by default)."""
    log_format = os.environ.get("AVATAR_LOG_FORMAT", "text").lower()
    configure_logging(os.environ.get("AVATAR_LOG_LEVEL", "WARNING"), log_format)  # type: ignore[arg-type]
