"""The `avatar` command: one module per command group."""

import typer

from avatar_service.entrypoints.cli import (
    chat,
    doctor,
    keys,
    knowledge,
    memories,
    personalities,
    play,
    server,
    users,
    video,
    webhooks,
)

app = typer.Typer(help="avatar_service: self-hostable conversational avatars. Every command works on the database "
                       "directly (AVATAR_DATABASE_URL), or on a running server with --api-url and --api-key.",
                  no_args_is_help=True, add_completion=True, pretty_exceptions_enable=False)


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    from avatar_service import __version__

    try:
        return installed("avatar-service")
    except PackageNotFoundError:  # run from a source tree that is not installed
        return __version__


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"avatar-service {version()}")
        raise typer.Exit()


@app.callback()
def _options(show_version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                               help="Print the version and exit.")) -> None:
    """The options of `avatar` itself (before the command)."""
    from avatar_service.entrypoints.logs import configure_from_environment

    configure_from_environment()  # one log format for every command (entrypoints/logs.py)


server.register(app)
app.command()(doctor.doctor)
app.add_typer(personalities.app, name="personalities")
app.add_typer(users.app, name="users")
app.add_typer(memories.app, name="memories")
app.add_typer(knowledge.app, name="knowledge")
app.add_typer(webhooks.app, name="webhooks")
app.add_typer(keys.app, name="keys")
app.add_typer(video.app, name="video")
app.add_typer(play.games, name="games")
app.registered_commands += chat.app.registered_commands + play.app.registered_commands


def main() -> None:
    app()


__all__ = ["app", "main"]
