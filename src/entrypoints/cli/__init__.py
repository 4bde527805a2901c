"""The `avatar` command: one module per command group."""

import typer

from avatar_service.entrypoints.cli import keys, server

app = typer.Typer(help="avatar_service: self-hostable conversational avatars.", no_args_is_help=True,
                  add_completion=False, pretty_exceptions_enable=False)
server.register(app)
app.add_typer(keys.app, name="keys")


def main() -> None:
    app()


__all__ = ["app", "main"]
