"""Game states drawn for the terminal: grids for tic-tac-toe and connect four, a diagram for chess."""

from typing import Any

import chess


def tic_tac_toe(state: dict[str, Any]) -> str:
    # empty cells show their number: it is what the player types
    cells = [mark or str(i) for i, mark in enumerate(state["board"])]
    rows = [f" {cells[r * 3]} │ {cells[r * 3 + 1]} │ {cells[r * 3 + 2]} " for r in range(3)]
    return "\n───┼───┼───\n".join(rows)


def connect_four(state: dict[str, Any]) -> str:
    lines = ["│" + "│".join(mark or " " for mark in row) + "│" for row in state["board"]]
    width = len(state["board"][0])
    lines.append("└" + "┴".join("─" * width) + "┘")
    lines.append(" " + " ".join(str(c) for c in range(width)))
    return "\n".join(lines)


def chess_board(state: dict[str, Any]) -> str:
    # the user's own pieces at the bottom, as over a real board
    orientation = chess.BLACK if state.get("colors", {}).get("user") == "black" else chess.WHITE
    board = chess.Board(state["fen"]).unicode(borders=True, empty_square="·", orientation=orientation)
    last = state.get("last_move")
    notes = [f"last move: {last['san']} ({last['by']})"] if last else []
    if state.get("check"):
        notes.append("check!")
    return board + ("\n" + "  ".join(notes) if notes else "")


def rock_paper_scissors(state: dict[str, Any]) -> str:
    score = state.get("score", {})
    line = (f"score: you {score.get('user', 0)} · them {score.get('personality', 0)} · draws {score.get('draws', 0)}"
            f"   (first to {state.get('wins_needed', '?')})")
    history = state.get("history") or []
    if history:
        last = history[-1]
        line += f"\nlast round: you {last['user']}, they {last['personality']} -> {last['winner']}"
    return line


def hangman(state: dict[str, Any]) -> str:
    word = state.get("word") or state.get("masked", "")
    lines = [" ".join(word), f"lives left: {state.get('lives_left')}/{state.get('lives')}"]
    wrong = [*state.get("wrong_letters", []), *state.get("wrong_words", [])]
    if wrong:
        lines.append("wrong: " + ", ".join(wrong))
    return "\n".join(lines)


DRAW = {"tic_tac_toe": tic_tac_toe, "connect_four": connect_four, "chess": chess_board,
        "rock_paper_scissors": rock_paper_scissors, "hangman": hangman}
PROMPTS = {"tic_tac_toe": "cell 0-8", "connect_four": "column 0-6", "chess": "move, e.g. e2e4 or Nf3",
           "rock_paper_scissors": "rock, paper or scissors", "hangman": "a letter or the word"}


def draw(game_id: str, state: dict[str, Any]) -> str:
    drawer = DRAW.get(game_id)
    return drawer(state) if drawer else str(state)


def parse_move(game_id: str, text: str) -> dict[str, Any]:
    """What a player types, in the contract's move formats; the service judges it (in-band errors)."""
    text = text.strip()
    if game_id in ("tic_tac_toe", "connect_four"):
        key = "cell" if game_id == "tic_tac_toe" else "column"
        return {key: int(text) if text.lstrip("-").isdigit() else text}
    if game_id == "chess":
        try:
            chess.Move.from_uci(text.lower())
            return {"uci": text.lower()}
        except ValueError:
            return {"san": text}
    if game_id == "rock_paper_scissors":
        word = text.lower()
        return {"choice": {"r": "rock", "p": "paper", "s": "scissors"}.get(word, word)}
    if game_id == "hangman":
        return {"letter": text.lower()} if len(text) == 1 else {"word": text.lower()}
    return {"move": text}


def describe_move(game_id: str, move: dict[str, Any] | None) -> str | None:
    if not move:
        return None
    if game_id == "tic_tac_toe":
        return f"cell {move.get('cell')}"
    if game_id == "connect_four":
        return f"column {move.get('column')}"
    if game_id == "chess":
        return str(move.get("san") or move.get("uci"))
    return ", ".join(f"{k} {v}" for k, v in move.items())
