"""`avatar play GAME PERSONALITY` in the terminal, and `avatar games list` (the catalogue)."""

from typing import Any

import typer
from rich.markup import escape

from avatar_service.entrypoints.cli import boards
from avatar_service.entrypoints.cli.backends import Backend
from avatar_service.entrypoints.cli.chat import ask
from avatar_service.entrypoints.cli.common import Cli, command, console, errors, find_personality, find_user

app = typer.Typer()
games = typer.Typer(help="The games personalities play.", no_args_is_help=True)
OUTCOME = {"user": "You win!", "personality": "{name} wins.", "draw": "A draw."}


def _show(name: str, session: dict[str, Any], commentary: str | None) -> None:
    console.print()
    console.print(escape(boards.draw(session["game_id"], session["state"])))
    if commentary:
        console.print(f"[bold]{escape(name)}:[/bold] {escape(commentary)}")


async def _play(api: Backend, game: str, personality: str, user: str | None, options: dict[str, Any]) -> str:
    found = await find_personality(api, personality)
    name = found["name"]
    body = {"personality_id": found["id"], "game_id": game, "user_id": await find_user(api, user),
            "options": options}
    session = await api.call("games.create", body={k: v for k, v in body.items() if v is not None})
    errors.print(f"{game} with {name} ({session['id']}). Moves: {boards.PROMPTS.get(game, 'see avatar games list')}"
                 "; 'quit' abandons.")
    _show(name, session, session.get("personality_commentary"))
    while session["status"] not in ("completed", "abandoned"):
        line = ask("your move> ")
        if line is None or line.strip().lower() in ("quit", "exit", "/quit"):
            session = await api.call("games.abandon", session["id"])
            console.print("Game abandoned.")
            return str(session["status"])
        if not line.strip():
            continue
        result = await api.call("games.move", session["id"], body={"move": boards.parse_move(game, line)})
        session = result["session"]
        if not result["user_move_valid"]:
            console.print(f"[red]not a valid move:[/red] {escape(result['user_move_error'] or '')}")
            continue
        reply = boards.describe_move(game, result.get("personality_move"))
        if reply and game != "rock_paper_scissors":  # a throw shows in the round's line instead
            console.print(f"{escape(name)} plays {escape(reply)}")
        _show(name, session, result.get("personality_message"))
    console.print(f"[bold]{OUTCOME.get(session['winner'] or '', 'Game over.').format(name=escape(name))}[/bold]")
    return str(session["status"])


@command(app, "play")
async def play(cli: Cli, game: str = typer.Argument(..., help="tic_tac_toe, connect_four, chess, "
                                                                "rock_paper_scissors or hangman."),
               personality: str = typer.Argument(..., help="personality_... or its name."),
               user: str | None = typer.Option(None, "--user", help="user_... or an external_id."),
               difficulty: str | None = typer.Option(None, help="easy, medium or hard."),
               first: str | None = typer.Option(None, help="Who moves first: user or personality."),
               rounds: int | None = typer.Option(None, help="rock_paper_scissors: best of N.")) -> None:
    """Play a game against a personality, the board drawn after every move; type 'quit' to abandon."""
    options = {k: v for k, v in {"difficulty": difficulty, "first": first, "rounds": rounds}.items() if v is not None}
    async with cli.connect() as api:
        await _play(api, game, personality, user, options)


@command(games, "list")
async def list_games(cli: Cli) -> None:
    """The games and how their moves are typed."""
    async with cli.connect() as api:
        catalogue = await api.call("games.catalogue")
    cli.rows(catalogue, catalogue["data"], [("id", "id"), ("name", "name"), ("description", "description"),
                                            ("options", "options_defaults")])
