"""What every client command shares: the connection options, running it, errors, tables and --json."""

import asyncio
import functools
import inspect
import json
import sys
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from avatar_service.entrypoints.cli.backends import Backend, CliError, connect

# A column: header and either a dotted field path or a function of the row.
Column = tuple[str, str | Callable[[dict[str, Any]], Any]]

# Tables are read by people on a terminal and by scripts and tests through a pipe: in a pipe, no
# terminal width applies, so a wide one keeps ids on one line.
console = Console(width=None if sys.stdout.isatty() else 200, highlight=False)
errors = Console(stderr=True, highlight=False)

_COMMON = [
    inspect.Parameter("api_url", inspect.Parameter.KEYWORD_ONLY, annotation=str | None, default=typer.Option(
        None, "--api-url", envvar="AVATAR_API_URL", help="Use a running server (e.g. http://127.0.0.1:8000) "
        "instead of the database directly.", rich_help_panel="Connection")),
    inspect.Parameter("api_key", inspect.Parameter.KEYWORD_ONLY, annotation=str | None, default=typer.Option(
        None, "--api-key", envvar="AVATAR_API_KEY", help="Secret key (sk_...) for --api-url.",
        rich_help_panel="Connection")),
    inspect.Parameter("organization", inspect.Parameter.KEYWORD_ONLY, annotation=str | None, default=typer.Option(
        None, "--organization", help="Organization slug, embedded only (created when missing; default 'default'); "
        "over HTTP the key decides.", rich_help_panel="Connection")),
    inspect.Parameter("as_json", inspect.Parameter.KEYWORD_ONLY, annotation=bool, default=typer.Option(
        False, "--json", help="Print JSON (the API's objects) instead of tables.")),
]


class Cli:
    """Handed to every command: how to connect, and how to print."""

    def __init__(self, api_url: str | None, api_key: str | None, organization: str | None, as_json: bool) -> None:
        self.api_url, self.api_key, self.json = api_url, api_key, as_json
        self.organization = organization or "default"
        # the operator's commands (`keys list`, `keys revoke`) reach every organization unless one is named
        self.every_organization = organization is None and not api_url

    @property
    def remote(self) -> bool:
        return bool(self.api_url)

    @asynccontextmanager
    async def connect(self, *, jobs: bool = False, **settings: Any) -> AsyncIterator[Backend]:
        async with connect(self.api_url, self.api_key, self.organization, jobs=jobs, **settings) as backend:
            yield backend

    # output -------------------------------------------------------------------------------------------

    def dump(self, data: Any) -> None:
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))

    def show(self, item: dict[str, Any], title: str | None = None) -> None:
        """One object: JSON, or a field/value table (nested objects as dotted fields)."""
        if self.json:
            self.dump(item)
            return
        table = Table("field", "value", title=title, show_header=False, title_justify="left")
        for key, value in _flatten(item):
            table.add_row(key, _cell(value))
        console.print(table)

    def rows(self, data: Any, items: Sequence[dict[str, Any]], columns: Sequence[Column],
             next_cursor: str | None = None, empty: str = "nothing yet") -> None:
        """A list: JSON (the whole answer, e.g. the list envelope), or a table with these columns."""
        if self.json:
            self.dump(data)
            return
        if not items:
            errors.print(f"({empty})")
            return
        table = Table(*(header for header, _ in columns))
        for index, (header, _) in enumerate(columns):
            if header == "id" or header.endswith(" id"):
                table.columns[index].no_wrap = True
        for item in items:
            table.add_row(*(_cell(field(item) if callable(field) else _get(item, field)) for _, field in columns))
        console.print(table)
        if next_cursor:
            errors.print(f"more: --cursor {next_cursor}")

    def page(self, page: dict[str, Any], columns: Sequence[Column], empty: str = "nothing yet") -> None:
        self.rows(page, page.get("data", []), columns, page.get("next_cursor") if page.get("has_more") else None,
                  empty)

    def deleted(self, result: dict[str, Any]) -> None:
        if self.json:
            self.dump(result)
        else:
            console.print(f"deleted {result['id']}")

    def done(self, message: str) -> None:
        """A confirmation for people; scripts read --json (or the exit code)."""
        if self.json:
            return
        errors.print(message)


def _get(item: dict[str, Any], path: str) -> Any:
    value: Any = item
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _flatten(item: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for key, value in item.items():
        if isinstance(value, dict) and value:
            out += _flatten(value, f"{prefix}{key}.")
        else:
            out.append((f"{prefix}{key}", value))
    return out


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_cell(v) for v in value) if all(not isinstance(v, dict) for v in value) else json.dumps(value)
    if isinstance(value, dict):
        return json.dumps(value) if value else "{}"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    text = str(value)
    # RFC 3339 timestamps read better without seconds' fractions
    if len(text) >= 20 and text[4:5] == "-" and text[10:11] == "T" and text.endswith("Z"):
        return f"{text[:10]} {text[11:19]}"
    return text


def fail(error: CliError) -> None:
    errors.print(f"[red]error:[/red] {error}", markup=True, highlight=False, soft_wrap=True)
    raise typer.Exit(1)


def _leaf(error: BaseException) -> BaseException:
    """The one error inside task groups' wrappers (the embedded service runs in one)."""
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    return error


def command(app: typer.Typer, name: str | None = None) -> Callable[[Callable[..., Coroutine[Any, Any, None]]], None]:
    """Registers an async command `fn(cli, ...)` and adds the shared options (--api-url, --api-key, ...)."""

    def register(fn: Callable[..., Coroutine[Any, Any, None]]) -> None:
        own = [p for p in inspect.signature(fn, eval_str=True).parameters.values() if p.name != "cli"]

        @functools.wraps(fn)
        def run(**kwargs: Any) -> None:
            cli = Cli(*(kwargs.pop(p.name) for p in _COMMON))
            try:
                asyncio.run(fn(cli, **kwargs))
            except BaseException as raised:
                error = _leaf(raised)
                if isinstance(error, CliError):
                    fail(error)
                if isinstance(error, KeyboardInterrupt):
                    errors.print("interrupted")
                    raise typer.Exit(130) from None
                if error is not raised and isinstance(error, (typer.Exit, typer.Abort, typer.TyperException)):
                    raise error from None
                raise

        run.__signature__ = inspect.Signature([*own, *_COMMON])  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in [*own, *_COMMON]}
        app.command(name)(run)

    return register


def parse_json(value: str | None, param: str) -> Any:
    """A JSON option value (e.g. --metadata '{"plan": "pro"}'); a usage error when it is not JSON."""
    if value is None:
        return None
    try:
        return json.loads(value)
    except json.JSONDecodeError as error:
        raise typer.BadParameter(f"not JSON: {error}", param_hint=f"--{param.replace('_', '-')}") from None


def drop_none(**fields: Any) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


async def find_personality(api: Backend, ref: str) -> dict[str, Any]:
    """A personality by id, or by its name (the newest with that name), so people can type `avatar chat Ava`."""
    if ref.startswith("personality_"):
        return dict(await api.call("personalities.get", ref))
    cursor = None
    while True:
        page = await api.call("personalities.list", query={"limit": 100, "cursor": cursor})
        for personality in page["data"]:
            if personality["name"].casefold() == ref.casefold():
                return dict(personality)
        cursor = page.get("next_cursor")
        if not page["has_more"] or not cursor:
            raise CliError(f"No personality named '{ref}' (give its id or name)", param="personality")


async def find_user(api: Backend, ref: str | None) -> str | None:
    """A user id, or the id of the user with this external_id."""
    if ref is None or ref.startswith("user_"):
        return ref
    page = await api.call("users.list", query={"external_id": ref, "limit": 1})
    if not page["data"]:
        raise CliError(f"No user with external_id '{ref}' (give a user id, or create one: "
                       f"avatar users create --external-id {ref})", param="user")
    return str(page["data"][0]["id"])


async def personality_id(api: Backend, ref: str | None) -> str | None:
    """The id for an id or a name (an id is used as is: the API answers for a missing one)."""
    if ref is None or ref.startswith("personality_"):
        return ref
    return str((await find_personality(api, ref))["id"])
