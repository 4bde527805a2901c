"""Retrieval through the services on SQLite: memory and knowledge search latency, ingestion throughput.

Run: .venv/bin/python bench/retrieval.py [--sizes 1000,10000,100000] [--queries 200] [--megabytes 1.0]
        [--postgres URL] [--ann-rows 1000000] [--ann-ef 512,768,1024,1536]

Search: one user with 1k/10k/100k memories, one personality with 100k chunks, inserted in bulk (random unit
vectors: the search costs the same as with real ones, and embedding 100k texts would take minutes). Each
search is what `POST .../search` runs after embedding the query: a read-only unit of work, the version
check, the exact NumPy search and the rows of the hits. The query embedding (MiniLM) is timed on its own.
Ingestion: a ~1 MB text uploaded as a document and processed by the knowledge job (extract, chunk, embed,
store), next to the raw embedder on the same chunks in the same run.

Also per size: the search end to end (a real query embedded with the model, then the search), the exact NumPy
scan alone as the reference, and the first search of a restarted process (a new vector cache on the same data
directory: the namespace's file plus the changes since, instead of every row). `--postgres URL` runs it all on
a fresh PostgreSQL database instead of SQLite. `--ann-rows N` (default 1,000,000; 0 skips it) times the
approximate index alone on N synthetic 384-d unit vectors of low intrinsic dimension (as sentence embeddings
are): build time, search p50/p99 and recall@10 against exact search in the same run, at the index's own search
expansion (ef) and at each of `--ann-ef` (one build, searched at each).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from retrieval_engines import corpus

from avatar_service.adapters.database_jobs import DatabaseJobQueue
from avatar_service.adapters.sqlalchemy.migrate import upgrade
from avatar_service.core.knowledge.chunking import chunk_text
from avatar_service.core.model import Chunk, MemoryRecord, MemorySource, PersonalityCreate, UserCreate
from avatar_service.core.services.api_keys import ApiKeys
from avatar_service.core.services.knowledge import Knowledge, Upload, namespace
from avatar_service.core.services.knowledge_processing import CHUNK_TOKENS, OVERLAP_TOKENS
from avatar_service.core.services.memories import Memories
from avatar_service.core.services.memories import namespace as memory_namespace
from avatar_service.core.services.personalities import Personalities
from avatar_service.core.services.users import Users
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.settings import load_settings
from avatar_service.ports.semantic import Semantic
from avatar_service.ports.storage import Storage

BATCH = 5000


def vectors(rng: np.random.Generator, n: int, dims: int) -> np.ndarray:
    matrix = rng.standard_normal((n, dims)).astype(np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def figures(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    return f"p50 {statistics.median(ms):7.2f} ms  p99 {ms[int(0.99 * (len(ms) - 1))]:7.2f} ms"


async def main(sizes: list[int], queries: int, megabytes: float, database_url: str | None) -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-retrieval-"))
    settings = load_settings({}, database_url=database_url or f"sqlite+aiosqlite:///{work / 'bench.db'}",
                             data_dir=str(work), secret_key="bench")
    container = bootstrap.embedded(settings)
    storage = container.resolve(Storage)
    await upgrade(storage.engine)
    semantic: Semantic = container.resolve(Semantic)
    dims = len(await semantic.embed(["x"])) and len((await semantic.embed(["x"]))[0]) // 4
    print(f"embedder {semantic.embedder_name} ({dims} dimensions), {settings.database_url.split(':')[0]}; "
          f"load average {os.getloadavg()[0]:.2f}")
    org = (await container.resolve(ApiKeys).organization("bench")).id
    personality = await container.resolve(Personalities).create(org, PersonalityCreate(name="Bench"))
    memories: Memories = container.resolve(Memories)
    knowledge: Knowledge = container.resolve(Knowledge)
    rng = np.random.default_rng(7)
    now = container.resolve(bootstrap.Clock).now()
    query_vectors = [v.tobytes() for v in vectors(rng, queries, dims)]

    texts = [f"what does the user like to do on weekend number {i}?" for i in range(queries)]
    embed_times = []
    for text in texts[:100]:
        start = time.perf_counter()
        await semantic.embed([text])
        embed_times.append(time.perf_counter() - start)
    print(f"query embedding ({semantic.embedder_name}, one query): {figures(embed_times)}")

    for number, size in enumerate(sizes):
        user = await container.resolve(Users).create(org, UserCreate())
        start = time.perf_counter()
        for offset in range(0, size, BATCH):
            n = min(BATCH, size - offset)
            records = [
                MemoryRecord(id=f"mem_{number:04d}{offset + i:020d}", user_id=user.id,
                             personality_id=personality.id, content=f"User fact number {offset + i}",
                             created_at=now, updated_at=now,
                             source=MemorySource(type="import"), organization_id=org, embedding=row.tobytes(),
                             embedder=semantic.embedder_name)
                for i, row in enumerate(vectors(rng, n, dims))
            ]
            async with storage(org) as uow:
                await uow.memories.add_many(records)
                await uow.vector_versions.bump(memory_namespace(user.id), [r.id for r in records])
                await uow.commit()
        insert = time.perf_counter() - start
        start = time.perf_counter()
        async with storage(org, read_only=True) as uow:
            await memories.ensure_loaded(uow, user.id)
        load = time.perf_counter() - start
        times = []
        for vector in query_vectors:
            start = time.perf_counter()
            async with storage(org, read_only=True) as uow:
                await uow.users.get(user.id)
                hits = await memories.ranked_by_vector(uow, user.id, vector, None, 10)
            times.append(time.perf_counter() - start)
            assert len(hits) == 10
        print(f"memory search, {size:>6} memories: {figures(times)}  (excluding the query embedding; "
              f"bulk insert {insert:.1f} s, first load from storage {load:.2f} s)")
        end_to_end = []
        for text in texts:
            start = time.perf_counter()
            [query] = await semantic.embed([text])  # as Memories.search does: before the unit of work
            async with storage(org, read_only=True) as uow:
                await uow.users.get(user.id)
                hits = await memories.ranked_by_vector(uow, user.id, query, None, 10)
            end_to_end.append(time.perf_counter() - start)
        index = semantic.index  # type: ignore[attr-defined]
        scan = []
        for vector in query_vectors:
            start = time.perf_counter()
            index.search(memory_namespace(user.id), np.frombuffer(vector, np.float32), 10)
            scan.append(time.perf_counter() - start)
        print(f"  end to end (MiniLM query embedding + search): {figures(end_to_end)}; "
              f"exact scan alone (reference): {figures(scan)}")
        semantic.flush()  # type: ignore[attr-defined]  # its file is on disk
        restarted = bootstrap.embedded(settings)  # a restarted process: same database and data directory
        again: Memories = restarted.resolve(Memories)
        start = time.perf_counter()
        async with restarted.resolve(Storage)(org, read_only=True) as uow:
            await again.ranked_by_vector(uow, user.id, query_vectors[0], None, 10)
        first = time.perf_counter() - start
        stats = restarted.resolve(Semantic).stats  # type: ignore[attr-defined]
        print(f"  first search after a restart: {first:.2f} s ({stats.file_loads} file load, {stats.full_loads} "
              f"full loads from the database)")
        restarted.resolve(Semantic).close()  # type: ignore[attr-defined]
        await restarted.resolve(Storage).close()

    chunks_total = 100_000
    start = time.perf_counter()
    for offset in range(0, chunks_total, BATCH):
        n = min(BATCH, chunks_total - offset)
        rows = [Chunk(id=f"chunk_{offset + i:024d}", organization_id=org, personality_id=personality.id,
                      knowledge_item_id=f"kb_{(offset + i) // 50:024d}", ordinal=i, content=f"Chunk {offset + i}",
                      token_count=3, embedding=row.tobytes(), embedder=semantic.embedder_name)
                for i, row in enumerate(vectors(rng, n, dims))]
        async with storage(org) as uow:
            await uow.chunks.add_many(rows)
            await uow.vector_versions.bump(namespace(personality.id), [r.id for r in rows])
            await uow.commit()
    insert = time.perf_counter() - start
    times = []
    for vector in query_vectors:
        start = time.perf_counter()
        async with storage(org, read_only=True) as uow:
            await uow.personalities.get(personality.id)
            hits = await knowledge.ranked_by_vector(uow, personality.id, vector, 5)
        times.append(time.perf_counter() - start)
        assert len(hits) == 5
    print(f"knowledge search, {chunks_total} chunks: {figures(times[1:])}  (excluding the query embedding; "
          f"first search with the load from storage {times[0]:.2f} s, bulk insert {insert:.1f} s)")

    text = corpus(megabytes)
    pieces = chunk_text(text, semantic.count_tokens, CHUNK_TOKENS, OVERLAP_TOKENS)
    tokens = sum(p.token_count for p in pieces)
    await semantic.embed([p.text for p in pieces[:16]])  # warm up
    start = time.perf_counter()
    await semantic.embed([p.text for p in pieces])
    raw = tokens / (time.perf_counter() - start)
    queue: DatabaseJobQueue = container.resolve(DatabaseJobQueue)
    start = time.perf_counter()
    item = await knowledge.add(org, personality.id, _document(), Upload("corpus.txt", "text/plain", text.encode()))
    await queue.drain()
    seconds = time.perf_counter() - start
    done = await knowledge.get(org, personality.id, item.id)
    assert done.status == "ready", done
    rate = done.token_count / seconds
    print(f"ingestion of {len(text.encode()) / 1e6:.2f} MB: {rate:8.0f} tokens/s "
          f"({done.chunk_count} chunks, {done.token_count} tokens in {seconds:.1f} s, end to end through the job); "
          f"raw embedder on the same chunks: {raw:8.0f} tokens/s -> ingestion at {100 * rate / raw:.0f}%")
    await storage.close()


def _document() -> object:
    from avatar_service.core.model import KnowledgeCreate

    return KnowledgeCreate(type="document", name="corpus")


def approximate(rows: int, queries: int, expansions: list[int]) -> None:
    """The approximate index alone at `rows` synthetic vectors: build, p50/p99, recall@10 against exact, at the
    index's own ef and at each of `expansions`."""
    from avatar_service.adapters.numpy_index import NumpyVectorIndex
    from avatar_service.adapters.usearch_ann import EXPANSION_SEARCH, build

    rng = np.random.default_rng(11)
    basis = rng.standard_normal((48, 384)).astype(np.float32)
    matrix = np.empty((rows, 384), dtype=np.float32)
    for start in range(0, rows, 100_000):  # low intrinsic dimension plus noise, as sentence embeddings
        n = min(100_000, rows - start)
        part = rng.standard_normal((n, 48)).astype(np.float32) @ basis + 0.5 * rng.standard_normal((n, 384))
        matrix[start:start + n] = part / np.linalg.norm(part, axis=1, keepdims=True)
    ids = [f"chunk_{i}" for i in range(rows)]
    index = NumpyVectorIndex(memory_bytes=1 << 40, approximate_from=rows, builder=build)
    started = time.perf_counter()
    index.replace("kb", ids, matrix, ["item"] * rows)
    while not index.approximate("kb"):
        time.sleep(0.5)
    built = time.perf_counter() - started
    # A query near one stored vector, as a question is near the passage that answers it: cosine about 0.6 to it
    # (noise of 0.07 per dimension; 0.3 per dimension made the query 98% noise, cosine 0.17 to its source, so
    # the exact top 10 were decided by noise and no index could be asked to find them).
    sources = matrix[rng.integers(0, rows, queries)]
    picks = sources + 0.07 * rng.standard_normal((queries, 384)).astype(np.float32)
    picks /= np.linalg.norm(picks, axis=1, keepdims=True)
    closeness = float(np.median((picks * sources).sum(axis=1)))
    exact_times, exact = [], []
    for query in picks:
        start = time.perf_counter()
        exact.append({ids[int(i)] for i in np.argpartition(-(matrix @ query), 10)[:10]})
        exact_times.append(time.perf_counter() - start)
    print(f"knowledge search (approximate index alone), {rows} synthetic 384-d vectors, queries at cosine "
          f"{closeness:.2f} to a stored vector; exact scan (reference) {figures(exact_times)}; built in {built:.0f} s, "
          f"index {index.memory() / 2**20:.0f} MiB with the rows")
    hnsw = index._spaces["kb"].approximate.index  # type: ignore[union-attr]  # the usearch Index, to set its ef
    for ef in dict.fromkeys([EXPANSION_SEARCH, *expansions]):
        hnsw.expansion_search = ef
        times, found = [], 0
        for query, truth in zip(picks, exact, strict=True):
            start = time.perf_counter()
            hits = index.search("kb", query, 10)
            times.append(time.perf_counter() - start)
            found += len(truth & {ident for ident, _ in hits})
        mark = " (the index's own)" if ef == EXPANSION_SEARCH else ""
        print(f"  ef {ef}{mark}: {figures(times)}, recall@10 {found / (10 * queries):.3f} against exact")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--megabytes", type=float, default=1.0)
    parser.add_argument("--postgres", default=None, help="a PostgreSQL server's URL: a fresh database on it")
    parser.add_argument("--ann-rows", type=int, default=1_000_000)
    parser.add_argument("--ann-ef", default="512,768,1024,1536", help="search expansions to try on the one build")
    args = parser.parse_args()
    url, fresh = None, None
    if args.postgres:
        from postgres_admin import admin
        from sqlalchemy.engine import make_url

        fresh = f"bench_retrieval_{secrets.token_hex(4)}"
        asyncio.run(admin(args.postgres, f'CREATE DATABASE "{fresh}"'))
        url = make_url(args.postgres).set(database=fresh).render_as_string(hide_password=False)
    try:
        if args.sizes:
            asyncio.run(main([int(s) for s in args.sizes.split(",")], args.queries, args.megabytes, url))
        if args.ann_rows:
            approximate(args.ann_rows, args.queries, [int(ef) for ef in args.ann_ef.split(",") if ef])
    finally:
        if fresh:
            asyncio.run(admin(args.postgres, f'DROP DATABASE IF EXISTS "{fresh}" WITH (FORCE)'))
