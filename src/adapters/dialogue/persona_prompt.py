"""Builds the system message for language-model dialogue engines from a persona and its grounding."""

from __future__ import annotations

from collections.abc import Mapping

from avatar_service.ports.dialogue import DialogueRequest

# trait -> (guidance when low, when high); the middle third gets no line, leaving the model's default.
_TRAIT_GUIDANCE: dict[str, tuple[str, str]] = {
    "warmth": (
        "Be courteous but reserved; skip pleasantries.",
        "Be warm and friendly; use the user's name now and then.",
    ),
    "humor": ("Stay serious; no jokes.", "Be playful; a light joke or witty remark is welcome when it fits."),
    "formality": (
        "Be casual and relaxed; contractions and everyday words are fine.",
        "Use formal, polished language without slang or contractions.",
    ),
    "verbosity": (
        "Keep replies short: one or two sentences.",
        "Give detailed, thorough answers of several sentences.",
    ),
    "empathy": (
        "Stay matter-of-fact about feelings.",
        "Notice and acknowledge the user's feelings before answering.",
    ),
}
MAX_CONTEXT_CHARS = 6000  # knowledge beyond this would crowd out the conversation in small context windows


def trait_guidance(traits: Mapping[str, float]) -> list[str]:
    lines = []
    for trait, (low, high) in _TRAIT_GUIDANCE.items():
        try:
            value = float(traits.get(trait, 0.5))
        except (TypeError, ValueError):
            continue
        if value <= 0.33:
            lines.append(low)
        elif value >= 0.67:
            lines.append(high)
    return lines


def system_message(request: DialogueRequest) -> str:
    persona = request.persona
    sections = [persona.system_prompt.strip() or f"You are {persona.name}."]
    if persona.description.strip():
        sections.append(f"About you ({persona.name}): {persona.description.strip()}")
    style = trait_guidance(persona.traits)
    # Replies are spoken by the avatar's voice, so anything visual would be read out loud.
    style.append("Your replies are spoken aloud: plain sentences, no markdown, lists, emoji or URLs.")
    sections.append("Style:\n" + "\n".join(f"- {line}" for line in style))
    if request.user_name:
        sections.append(f"The user's name is {request.user_name}.")
    if request.memories:
        sections.append(
            "What you remember about the user (most relevant first):\n"
            + "\n".join(f"- {m.strip()}" for m in request.memories)
        )
    if request.knowledge:
        budget, kept = MAX_CONTEXT_CHARS, []
        for chunk in request.knowledge:
            if budget <= 0:
                break
            kept.append(chunk.strip()[:budget])
            budget -= len(kept[-1])
        sections.append(
            "Reference material (most relevant first). Answer from it when it is relevant; if it does not "
            "cover the question, say you do not know rather than guessing:\n"
            + "\n\n".join(f"[{i}] {c}" for i, c in enumerate(kept, 1))
        )
    if request.situation:
        game = request.situation
        moves = "; ".join(f"{who} played {move}" for who, move in (("the user", game.user_move),
                                                                     ("you", game.personality_move)) if move)
        details = f"a game of {game.game}: {game.summary}" + (f" ({moves})" if moves else "")
        if game.finished:
            details += f"; the game is over, winner: {game.winner or 'nobody'}"
        sections.append(f"Comment briefly, in character, on {details}. Do not repeat a line you said earlier "
                        f"in this game. For example: {game.line}")
    return "\n\n".join(sections)
