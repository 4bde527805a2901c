"""Dialogue evaluation: does the avatar answer the question asked? Over HTTP, against a fresh server.

Starts `avatar serve` on a free loopback port with a new SQLite database in a temporary data dir, creates a
key with the CLI, then for each personality of `tests/data/dialogue_eval.json` creates it (verbosity 0.3),
its knowledge items (waits until they are ready), a user with their memories, and one conversation per
list of questions, asked in order through `POST /v1/conversations/{id}/messages`. A reply is right when
every `expect` pattern matches and no `forbid` pattern does; questions of kind 'unknown' must get an honest
"I don't know", and no other question may. Prints right %, right % on memory questions and the median
words per reply, per split: dev (tuned on), heldout1 (held out in round 1, then tuned on), heldout2 (held out in
round 2, then tuned on), heldout3 (written before round 3, not tuned on in round 3), heldout4 (written before
round 4, before any change to the engine), heldout5 (written at the end of round 4, measured once untuned, then
tuned on), heldout6 (written after that, measured once, untuned), heldout7 (written blind, without reading the
engine's code, after heldout6; to be measured once, untuned), heldout8 (written blind, after heldout7; to be measured
once, untuned), heldout9 (written blind, after heldout8, in domains the answerer was probed in during
tuning: a campsite, a hair salon, a cinema; measured once, untuned), heldout10 (written blind, in domains never used
before: a ski school, a removals firm, a tax advisor; measured once, untuned), heldout11 (written blind, after round 6,
in domains never used before: a plumber, a bakery, a piano teacher; measured once, after round 7: 63.5%), heldout12
(written blind on 2026-11-28, after round 7, in domains never used before: a pet groomer, an optician, a bike courier
service; measured once, untuned, on 2026-11-29: 61.0%), heldout13 (written blind on 2026-11-29, after round 8, in
domains never used before: an escape-room venue, a locksmith, an allotment society; measured once, untuned, on
2026-11-29: 69.2%, memory questions 100%; then tuned on in round 9), heldout14 (written blind on 2026-11-29, after
round 9, in domains never used before: a tailoring and alterations shop, a children's soft-play centre, a sailing
club; measured once, untuned, on 2026-11-29: 53.8%, memory questions 81.8%, follow-ups 11 of 29; then tuned on in
round 10), heldout15 (written blind on 2026-11-29, after round 10, in domains never used before: an indoor climbing
centre, a farm shop, a print and copy shop; measured once, untuned, after round 11, on 2026-11-29: 69.4%, memory
questions 88.9%, follow-ups 16 of 26; then tuned on in round 12), heldout16 (written blind on 2026-11-29, after round
11, in domains never used before: a physiotherapy clinic, a dog daycare and home boarding service, a tattoo and
piercing studio; measured once, untuned, after round 12, on 2026-11-29: 73.5%, memory questions 86.7%, follow-ups 19
of 27), heldout17 (written blind on 2026-11-29, after heldout16 was measured, in domains never used before: a tenpin
bowling centre, a wedding florist, a community swimming pool; measured once, untuned, after round 16, on 2026-11-29:
71.3%, memory questions 88.2%, follow-ups 16 of 27; then tuned on in round 17), heldout18 (written blind on
2026-11-29, after heldout17 was measured and tuned on, in domains never used before: a phone and laptop repair shop,
a riding school, a self-storage centre; measured once, untuned, after round 18, on 2026-11-29: 61.4%, memory questions
93.8%, follow-ups 15 of 29), heldout19 (written blind on 2026-11-29, after heldout18 was measured and tuned on, in
domains never used before: an MOT and car servicing garage, a dance school, a dry cleaner; measured once, untuned, after
round 19, on 2026-11-29: 65.9%, memory questions 77.8%, follow-ups 16 of 36; then tuned on in round 20), heldout20
(written blind on 2026-11-29, after heldout19 was measured and tuned on, in domains never used before: a window
cleaner, a guitar repair shop, a children's party entertainer; measured once, untuned, after round 20, on 2026-11-29:
75.6%, memory questions 100%, follow-ups 25 of 37), heldout21 (written blind on 2026-11-29, after heldout20 was
measured, in domains never used before: a chimney sweep, a yoga and Pilates studio, a picture framing shop; measured
once, untuned, after round 22, on 2026-11-29: 65.9%, memory questions 94.1%, follow-ups 16 of 39), heldout22
(written blind on 2026-11-29, by someone who had not read the engine, after heldout21 was measured, in domains never
used before: a pest control firm, a taxi firm, a village hall; measured once, untuned, after round 23, on 2026-11-29:
69.5%, memory questions 88.9%, follow-ups 24 of 40), heldout23 (written blind on 2026-11-29, by someone who had not read
the engine, in domains never used before: a bed-and-breakfast guesthouse, a golf driving range, a shoe repair shop;
measured once, untuned, after round 25, on 2026-11-29: 67.3%, memory questions 81.2%, follow-ups 25 of 42), heldout24
(written blind on 2026-11-29, by someone who had not read the engine, after heldout23 was measured and tuned on, in
domains never used before: a boat hire on a river, a children's drama and music holiday club, a mobile car valeting
service; measured once, untuned, after round 26, on 2026-11-30: 66.7%, memory questions 88.2%, follow-ups 20 of 39;
the tree before round 26 read 64.6% on it), heldout25 (written blind on 2026-11-30, by someone who had not read the
engine, after round 28 reached 90% on the other splits, in domains never used before: an indoor trampoline park, an
independent bookshop with a café, a hearing clinic; measured once, untuned, after round 28, on 2026-11-30: 72.9%, memory
questions 94.4%, follow-ups 25 of 45; the tree before round 28 read the same), heldout26 (written blind on 2026-11-30,
by someone who had not read the engine, during round 29, in domains never used before: a driving school, a dental
practice, a music shop; measured once, untuned, after round 29's changes from the review set, on 2026-11-30: 67.0%,
memory questions 76.9%, unknown 6 of 12, follow-ups 29 of 43; the tree before round 29 read the same, 65 of 97; then
tuned on).

    .venv/bin/python bench/dialogue_eval.py [--split dev|heldout1|...|heldout40|all]
                                            [--embedder auto|lexical] [--show wrong|all|none]

Targets with the offline engine: >= 90% right overall, >= 90% on memory questions, median reply <= 30 words.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "dialogue_eval.json"
SPLITS = ("dev", "heldout1", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8",
          "heldout9", "heldout10", "heldout11", "heldout12", "heldout13", "heldout14", "heldout15", "heldout16",
          "heldout17", "heldout18", "heldout19", "heldout20", "heldout21", "heldout22", "heldout23", "heldout24",
          "heldout25", "heldout26", "heldout27", "heldout28", "heldout29",
          "heldout30", "heldout31", "heldout32", "heldout33", "heldout34",
          "heldout35", "heldout36", "heldout37", "heldout38", "heldout39", "heldout40")
# Blind splits not measured yet: left out of "all", so tuning never shows their figures; name one to measure it once.
UNMEASURED: tuple[str, ...] = ()
# heldout40 (a family butcher, a doorstep milk round, a carpet cleaner; written blind on 2026-12-02 by a helper who read
# neither the engine nor the evaluation) was measured once, untuned (after round 37), on 2026-12-02: 75.7%, memory 60.0%
# (18 of 30), unknown 10 of 15, follow-ups 32 of 45 (the tree before round 37, 7213de4: 75.0%, 102 of 136)
# heldout39 (a paintball and laser tag venue, a traditional barber shop, a children's petting farm; written blind on
# 2026-12-01) was measured once, untuned (before any change of round 37), on 2026-12-01: 74.8%, memory 62.5% (20 of
# 32), unknown 13 of 15, follow-ups 20 of 36
# heldout38 (a scuba diving school, a celebration and wedding cake maker, a mobile wood-fired pizza van; written blind on
# 2026-12-01) was measured once, untuned (after round 36's first changes), on 2026-12-01: 70.7%, memory 70.0% (21 of
# 30), unknown 6 of 9, follow-ups 25 of 37
# heldout37 (a hot tub hire firm, a karate club, a bouncy castle and soft-play hire firm; written blind on 2026-12-01) was
# measured once, untuned (before any change of round 36), on 2026-12-01: 75.8%, memory 63.0% (17 of 27), unknown 6 of
# 9, follow-ups 21 of 30
# heldout36 (a canal rowing and kayaking club, a mobile knife and garden-tool sharpening service, a pottery-painting
# cafe; written blind on 2026-12-01) was measured once, untuned (before any change of round 35), on 2026-12-01: 70.2%,
# memory 53.6% (15 of 28), unknown 9 of 10, follow-ups 37 of 52
# heldout35 (a mobile bicycle repair van, a children's swimming school in a hotel pool, a marquee hire firm; written
# blind on 2026-12-01) was measured once, untuned (before any change of round 34), on 2026-12-01: 69.4%, memory 34.8%
# (8 of 23), unknown 10 of 12, follow-ups 28 of 44
# heldout34 (a mobile dog groomer, a woodworking makerspace, a fish and chip shop; written blind on 2026-11-30) was
# measured once, untuned (after round 33's first changes), on 2026-11-30: 70.4%, memory 54.5% (12 of 22), unknown 10
# of 12, follow-ups 29 of 44 (the tree before round 33 gave every reply the same, 76 of 108)
# heldout33 was measured once, untuned (after round 32 and its review), on 2026-11-30: 65.7%, memory 30.0% (6 of 20),
# unknown 9 of 12, follow-ups 28 of 47 (the tree before round 32 gave every reply the same, 69 of 105)
# heldout32 was measured once, untuned (after round 32's changes), on 2026-11-30: 58.1%, memory 30.0% (6 of 20), unknown
# 10 of 12, follow-ups 30 of 50 (the tree before round 32 read the same, 61 of 105; one reply differs)
# heldout31 was measured once, untuned (after round 31), on 2026-11-30: 69.5%, memory 55.0% (11 of 20), unknown 7 of
# 12, follow-ups 28 of 46
# heldout30 was measured once, untuned (after round 31), on 2026-11-30: 68.6%, memory 47.1% (8 of 17), unknown 9 of
# 12, follow-ups 31 of 44 (the tree before round 31 gave every reply the same, 72 of 105)
# heldout29 was measured once, untuned (after round 30), on 2026-11-30: 62.9%, memory 47.1% (8 of 17), unknown 8 of
# 12, follow-ups 27 of 46
# heldout28 was measured once, untuned (after round 30), on 2026-11-30: 68.3%, memory 81.2% (13 of 16), unknown 10 of
# 12, follow-ups 25 of 45 (the tree before round 30 read the same, 69 of 101)
# heldout27 was measured once, untuned (after round 29), on 2026-11-30: 70.9%, memory 56.2% (9 of 16), unknown 10 of
# 12, follow-ups 28 of 42
# heldout26 was measured once, untuned (after round 29's first changes), on 2026-11-30: 67.0%, memory 76.9%,
# unknown 6 of 12, follow-ups 29 of 43 (the tree before round 29 read the same, 65 of 97)
# heldout25 was measured once, untuned (after round 28), on 2026-11-30: 72.9%, memory 94.4%, follow-ups 25 of 45 (the
# tree before round 28 read the same)
# heldout24 was measured once, untuned (after round 26), on 2026-11-30: 66.7%, memory 88.2%, follow-ups 20 of 39 (the
# tree before round 26 read 64.6% on it)
# heldout23 was measured once, untuned (after round 25), on 2026-11-29: 67.3%, memory 81.2%, follow-ups 25 of 42
# heldout22 was measured once, untuned (after round 23), on 2026-11-29: 69.5%, memory 88.9%, follow-ups 24 of 40
# heldout21 was measured once, untuned (after round 22), on 2026-11-29: 65.9%, memory 94.1%, follow-ups 16 of 39
# heldout20 was measured once, untuned (after round 20), on 2026-11-29: 75.6%, memory 100%, follow-ups 25 of 37
# heldout19 was measured once, untuned (after round 19), on 2026-11-29: 65.9%, memory 77.8%, follow-ups 16 of 36
# heldout18 was measured once, untuned (after round 18), on 2026-11-29: 61.4%, memory 93.8%, follow-ups 15 of 29
# heldout17 was measured once, untuned (after round 16), on 2026-11-29: 71.3%, memory 88.2%, follow-ups 16 of 27
# heldout16 was measured once, untuned (after round 12), on 2026-11-29: 73.5%, memory 86.7%, follow-ups 19 of 27
# heldout15 was measured once, untuned (after round 11), on 2026-11-29: 69.4%, memory 88.9%, follow-ups 16 of 26
# heldout14 was measured once, untuned, on 2026-11-29: 53.8%, memory 81.8%, follow-ups 11 of 29
# heldout13 was measured once, untuned, on 2026-11-29: 69.2%, memory 100%


@dataclass
class Result:
    split: str
    personality: str
    question: str
    kind: str
    tags: list[str]
    reply: str
    right: bool


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(embedder: str) -> Iterator[tuple[str, str]]:
    """`avatar serve` on a free loopback port with a fresh SQLite file; its base URL and a '*' key."""
    with tempfile.TemporaryDirectory() as tmp:
        port = _free_port()
        env = {**os.environ, "AVATAR_DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/avatar.db", "AVATAR_DATA_DIR": tmp,
               "AVATAR_PUBLIC_URL": f"http://127.0.0.1:{port}", "AVATAR_EMBEDDER": embedder,
               "AVATAR_LOG_LEVEL": "WARNING"}
        env.pop("AVATAR_DIALOGUE_BASE_URL", None)  # the offline engine is what is evaluated
        cli = [sys.executable, "-m", "avatar_service"]
        subprocess.run([*cli, "migrate"], env=env, check=True, capture_output=True)
        key = subprocess.run([*cli, "keys", "create", "--name", "eval", "--scopes", "*"], env=env, check=True,
                             capture_output=True, text=True).stdout.strip()
        log = Path(tmp) / "server.log"
        with log.open("wb") as sink:
            server = subprocess.Popen([*cli, "serve", "--host", "127.0.0.1", "--port", str(port)], env=env,
                                      stdout=sink, stderr=subprocess.STDOUT)
            try:
                yield f"http://127.0.0.1:{port}", key
            finally:
                server.terminate()
                server.wait(timeout=20)
        if "Traceback" in log.read_text(errors="replace"):
            print(log.read_text(errors="replace")[-4000:], file=sys.stderr)


def _ok(response: httpx.Response) -> Any:
    if response.status_code >= 400:
        raise SystemExit(f"{response.request.method} {response.request.url}: {response.status_code} {response.text}")
    return response.json()


def _wait_ready(api: httpx.Client) -> None:
    for _ in range(600):
        try:
            if api.get("/healthz").status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit("the server did not start")


def set_up(api: httpx.Client, spec: dict[str, Any]) -> tuple[str, str]:
    """The personality (with ready knowledge) and its user (with memories): their ids."""
    personality = _ok(api.post("/v1/personalities", json={
        "name": spec["name"], "description": spec["description"], "system_prompt": spec["system_prompt"],
        "traits": spec["traits"]}))
    pid = personality["id"]
    items = [_ok(api.post(f"/v1/personalities/{pid}/knowledge", json={"type": "text", **item}))
             for item in spec["knowledge"]]
    deadline = time.monotonic() + 120
    for item in items:
        while True:
            status = _ok(api.get(f"/v1/personalities/{pid}/knowledge/{item['id']}"))["status"]
            if status == "ready":
                break
            if status == "failed" or time.monotonic() > deadline:
                raise SystemExit(f"knowledge item {item['id']} is {status}")
            time.sleep(0.1)
    # one user per personality: two splits' users may share an external id ("daniel")
    user = _ok(api.post("/v1/users", json={"external_id": f"{spec['key']}:{spec['user']['external_id']}"}))
    _ok(api.post(f"/v1/users/{user['id']}/memories/bulk", json={
        "personality_id": pid, "memories": spec["user"]["memories"]}))
    return pid, user["id"]


def judge(question: dict[str, Any], reply: str, dont_know: re.Pattern[str]) -> bool:
    said_dont_know = bool(dont_know.search(reply))
    if question["kind"] == "unknown":
        return said_dont_know
    if said_dont_know:
        return False
    return all(re.search(p, reply, re.I) for p in question.get("expect", ())) and not any(
        re.search(p, reply, re.I) for p in question.get("forbid", ()))


def run(base: str, key: str, data: dict[str, Any], splits: set[str]) -> list[Result]:
    dont_know = re.compile(data["dont_know"], re.I)
    results: list[Result] = []
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=60) as api:
        _wait_ready(api)
        for spec in data["personalities"]:
            if spec["split"] not in splits:
                continue
            pid, uid = set_up(api, spec)
            for questions in spec["conversations"]:
                conversation = _ok(api.post("/v1/conversations", json={"personality_id": pid, "user_id": uid}))
                for question in questions:
                    answer = _ok(api.post(f"/v1/conversations/{conversation['id']}/messages",
                                          json={"content": question["q"]}))
                    reply = answer["reply"]["content"]
                    results.append(Result(spec["split"], spec["key"], question["q"], question["kind"],
                                          question.get("tags", []), reply, judge(question, reply, dont_know)))
                _ok(api.delete(f"/v1/conversations/{conversation['id']}"))
    return results


def _share(results: list[Result]) -> str:
    if not results:
        return "  n/a"
    right = sum(r.right for r in results)
    return f"{100 * right / len(results):5.1f}% ({right}/{len(results)})"


def report(results: list[Result], show: str) -> None:
    for r in results:
        if show == "all" or (show == "wrong" and not r.right):
            mark = "ok " if r.right else "BAD"
            print(f"{mark} [{r.split}/{r.personality}/{r.kind}{'/' + ','.join(r.tags) if r.tags else ''}] "
                  f"{r.question}\n      -> {r.reply}")
    print()
    print(f"{'split':8} {'questions':>9}  {'right':>16}  {'memory questions':>16}  {'unknown':>14}  "
          f"{'follow-up/repeat':>16}  median words")
    for split in (*SPLITS, "all"):
        chosen = [r for r in results if split in ("all", r.split)]
        if not chosen:
            continue
        memory = [r for r in chosen if r.kind == "memory"]
        unknown = [r for r in chosen if r.kind == "unknown"]
        context = [r for r in chosen if {"followup", "repeat"} & set(r.tags)]
        words = statistics.median(len(r.reply.split()) for r in chosen)
        print(f"{split:8} {len(chosen):9}  {_share(chosen):>16}  {_share(memory):>16}  {_share(unknown):>14}  "
              f"{_share(context):>16}  {words:g}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", default="all", choices=[*SPLITS, "all"])
    parser.add_argument("--embedder", default="auto", choices=["auto", "lexical"])
    parser.add_argument("--show", default="wrong", choices=["wrong", "all", "none"])
    args = parser.parse_args()
    data = json.loads(DATA.read_text(encoding="utf-8"))
    splits = set(SPLITS) - set(UNMEASURED) if args.split == "all" else {args.split}
    started = time.perf_counter()
    with serving(args.embedder) as (base, key):
        results = run(base, key, data, splits)
    report(results, args.show)
    print(f"({len(results)} questions over HTTP in {time.perf_counter() - started:.0f} s, embedder {args.embedder})")


if __name__ == "__main__":
    main()
