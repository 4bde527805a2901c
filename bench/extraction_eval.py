"""Memory extraction evaluation: recall and precision of the memories a finished conversation leaves.

For each conversation of `tests/data/extraction_eval.json`, in-process on a fresh SQLite database (the
embedded API, the configured embedder): a new user with the conversation's `prior` memories, a
conversation in which the user says each turn (the offline engine answers), the conversation ended, and the
extraction job run. Then the user's memories are read back:

- recall: stated facts found in a memory extracted from the conversation (a memory whose source is the
  conversation: created, or an older one updated) with the right category and every listed piece;
- precision: extracted memories that state one of the expected facts; a prior memory marked `outdated` that
  is still there unchanged counts as a wrong memory too (the contradiction was stored beside it).

Splits: dev (tuned on), heldout1 (held out in round 1, then tuned on), heldout2 (held out in round 2, then
tuned on), heldout3 (written before round 3, not tuned on in round 3), heldout4 (written before round 4, before
any change to the rules), heldout5 (written at the end of round 4, measured once untuned, then tuned on), heldout6
(written after that, measured once, untuned), heldout7 (written blind, without reading the extraction code,
after heldout6; to be measured once, untuned), heldout8 (written blind, after heldout7; to be measured
once, untuned), heldout9 (written blind, after heldout8; to be measured once, untuned), heldout10 (written blind,
after heldout9; to be measured once, untuned), heldout11 (written blind, after round 6; to be measured once,
untuned; measured 2026-11-28: 72.4% recall, 73.3% precision), heldout12 (written blind on 2026-11-28, after round 7,
with the dialogue split of that name; everyday topics, not tied to its domains; measured once, untuned, on
2026-11-29: 58.6% recall, 75.0% precision), heldout13 (written blind on 2026-11-29, after round 8, with the dialogue
split of that name; everyday topics, not tied to its domains; measured once, untuned, on 2026-11-29: 88.0% recall,
63.6% precision; then tuned on in round 9), heldout14 (written blind on 2026-11-29, after round 9, with the dialogue
split of that name; everyday topics, not tied to its domains; measured once, untuned, on 2026-11-29: 36.4% recall,
63.6% precision; then tuned on in round 10), heldout15 (written blind on 2026-11-29, after round 10, with the dialogue
split of that name, whose domains are an indoor climbing centre, a farm shop and a print and copy shop; everyday
topics, not tied to its domains; measured once, untuned, on 2026-11-29: 61.5% recall, 63.2% precision; then tuned
on in round 11), heldout16
(written blind on 2026-11-29, after round 11, with the dialogue split of that name, whose domains are a physiotherapy
clinic, a dog daycare and home boarding service and a tattoo and piercing studio; everyday topics, not tied to its
domains; measured once, untuned, after extraction round 11, on 2026-11-29: 70.8% recall, 81.2% precision), heldout17
(written blind on 2026-11-29, after heldout16 was measured, with the dialogue split of that name, whose domains are a
tenpin bowling centre, a wedding florist and a community swimming pool; everyday topics in those customers' voices;
measured once, untuned, after extraction round 11, on 2026-11-29: 88.5% recall, 75.0% precision; then tuned on in
round 12), heldout18
(written blind on 2026-11-29, after heldout17 was measured, with the dialogue split of that name, whose domains are a
phone and laptop repair shop, a riding school and a self-storage centre; everyday topics in those customers' voices;
measured once, untuned, after extraction round 12, on 2026-11-29: 88.0% recall, 83.3% precision), heldout19
(written blind on 2026-11-29, after heldout18 was measured and tuned on, with the dialogue split of that name, whose
domains are an MOT and car servicing garage, a dance school and a dry cleaner; everyday topics in those customers'
voices; measured once, untuned, after extraction round 12, on 2026-11-29: 80.0% recall, 77.8% precision), heldout21
(written blind on 2026-11-29, with the dialogue split of that name, whose domains are a chimney sweep, a yoga and
Pilates studio and a picture framing shop; everyday topics in those customers' voices; measured once, untuned, after extraction round 13,
on 2026-11-29: 84.0% recall, 87.5% precision; there is no extraction split heldout20).

    .venv/bin/python bench/extraction_eval.py [--split dev|heldout1|...|heldout21|all]
                                              [--embedder auto|lexical] [--show wrong|all|none]

Targets: recall >= 90%, precision >= 90%.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import avatar_service
from avatar_service.core.model import ConversationCreate, MemoryBulkCreate, PersonalityCreate, UserCreate
from avatar_service.core.model.memories import MemoryItem
from avatar_service.core.pagination import PageRequest

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "extraction_eval.json"
SPLITS = ("dev", "heldout1", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8",
          "heldout9", "heldout10", "heldout11", "heldout12", "heldout13", "heldout14", "heldout15", "heldout16",
          "heldout17", "heldout18", "heldout19", "heldout21")
# Blind splits not measured yet: left out of "all", so tuning never shows their figures; name one to measure it once.
UNMEASURED: tuple[str, ...] = ()
# heldout21 was measured once, untuned (after extraction round 13), on 2026-11-29: 84.0% recall, 87.5% precision
# heldout19 was measured once, untuned (after extraction round 12), on 2026-11-29: 80.0% recall, 77.8% precision
# heldout18 was measured once, untuned (after extraction round 12), on 2026-11-29: 88.0% recall, 83.3% precision
# heldout17 was measured once, untuned (after extraction round 11), on 2026-11-29: 88.5% recall, 75.0% precision
# heldout16 was measured once, untuned (after extraction round 11), on 2026-11-29: 70.8% recall, 81.2% precision
# heldout15 was measured once, untuned, on 2026-11-29: 61.5% recall, 63.2% precision
# heldout14 was measured once, untuned, on 2026-11-29: 36.4% recall, 63.6% precision
# heldout13 was measured once, untuned, on 2026-11-29: 88.0% recall, 63.6% precision


@dataclass
class Score:
    facts: int = 0
    found: int = 0
    memories: int = 0
    right: int = 0
    notes: list[str] = field(default_factory=list)

    def add(self, other: Score) -> None:
        self.facts += other.facts
        self.found += other.found
        self.memories += other.memories
        self.right += other.right
        self.notes += other.notes


def states(memory: Any, fact: dict[str, Any]) -> bool:
    categories = fact["category"] if isinstance(fact["category"], list) else [fact["category"]]
    text = memory.content.casefold()
    return memory.category in categories and all(piece.casefold() in text for piece in fact["contains"])


async def one(avatars: Any, org: str, personality: str, item: dict[str, Any], index: int) -> Score:
    user = await avatars.users.create(org, UserCreate(external_id=f"user{index}"))
    prior = []
    if item["prior"]:
        made = await avatars.memories.bulk(org, user.id, MemoryBulkCreate(personality_id=personality, memories=[
            MemoryItem(content=p["content"], category=p["category"]) for p in item["prior"]]))
        prior = list(zip(item["prior"], made.data, strict=True))
    conversation = await avatars.conversations.create(org, ConversationCreate(personality_id=personality,
                                                                              user_id=user.id))
    for turn in item["turns"]:
        await avatars.conversations.say(org, conversation.id, turn)
    await avatars.conversations.end(org, conversation.id)
    await avatars.run_jobs()
    memories = (await avatars.memories.list(org, user.id, PageRequest(limit=100))).data
    extracted = [m for m in memories if m.source.type == "conversation"]
    score = Score(facts=len(item["facts"]), memories=len(extracted))
    label = " / ".join(item["turns"])
    for fact in item["facts"]:
        if any(states(m, fact) for m in extracted):
            score.found += 1
        else:
            score.notes.append(f"MISSED {label!r}: {fact['category']} {fact['contains']}")
    for memory in extracted:
        if any(states(memory, fact) for fact in item["facts"]):
            score.right += 1
        else:
            score.notes.append(f"WRONG  {label!r} -> {memory.content!r} ({memory.category})")
    by_id = {m.id: m for m in memories}
    for spec, made in prior:
        kept = by_id.get(made.id)
        if spec.get("outdated") and kept is not None and kept.content == made.content:
            score.memories += 1
            score.notes.append(f"STALE  {label!r}: {made.content!r} kept beside the new fact")
    if not score.notes:
        score.notes.append(f"ok     {label!r} -> {[m.content for m in extracted]}")
    return score


async def evaluate(items: list[dict[str, Any]], embedder: str) -> dict[str, Score]:
    scores = {split: Score() for split in SPLITS}
    with tempfile.TemporaryDirectory() as tmp:
        async with avatar_service.open(f"sqlite+aiosqlite:///{tmp}/eval.db", worker=False, data_dir=tmp,
                                       embedder=embedder) as avatars:
            org = (await avatars.organization("default")).id
            personality = (await avatars.personalities.create(org, PersonalityCreate(name="Ava"))).id
            for index, item in enumerate(items):
                scores[item["split"]].add(await one(avatars, org, personality, item, index))
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", default="all", choices=[*SPLITS, "all"])
    parser.add_argument("--embedder", default="auto", choices=["auto", "lexical"])
    parser.add_argument("--show", default="wrong", choices=["wrong", "all", "none"])
    args = parser.parse_args()
    items = [i for i in json.loads(DATA.read_text(encoding="utf-8"))["conversations"]
             if args.split == i["split"] or (args.split == "all" and i["split"] not in UNMEASURED)]
    started = time.perf_counter()
    scores = asyncio.run(evaluate(items, args.embedder))
    total = Score()
    for score in scores.values():
        total.add(score)
    for note in total.notes:
        if args.show == "all" or (args.show == "wrong" and not note.startswith("ok")):
            print(note)
    print(f"\n{'split':8} {'conversations':>13} {'facts':>6} {'memories':>8}  {'recall':>7}  {'precision':>9}")
    for name, score in [*scores.items(), ("all", total)]:
        count = sum(1 for i in items if name in ("all", i["split"]))
        if not count:
            continue
        recall = score.found / max(score.facts, 1)
        precision = score.right / score.memories if score.memories else 1.0
        print(f"{name:8} {count:13} {score.facts:6} {score.memories:8}  {100 * recall:6.1f}%  {100 * precision:8.1f}%")
    print(f"({len(items)} conversations in {time.perf_counter() - started:.0f} s, embedder {args.embedder})")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    main()
