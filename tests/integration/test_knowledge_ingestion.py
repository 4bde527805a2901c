"""Knowledge ingestion end to end: HTML pages, RSS and Atom feeds, uploads, fetch refusals and refreshes."""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from typing import Any

import anyio
import anyio.lowlevel
import pytest
from litestar.testing import AsyncTestClient

from avatar_service.core.model import KnowledgeSearch
from avatar_service.core.services.knowledge import Knowledge
from avatar_service.core.services.knowledge_processing import KnowledgeProcessor
from avatar_service.ports.storage import Storage

from .helpers import Receiver, Service, create_personality, events_of, subscribe

FETCH_CAP = 200_000


@pytest.fixture
def settings_overrides() -> dict[str, Any]:
    # the pages are served on 127.0.0.1; a small fetch cap so `too_large` is cheap to provoke
    return {"allow_private_urls": True, "max_fetch_bytes": FETCH_CAP}


ARTICLE = """<!doctype html><html><head><title>Lighthouse</title>
<script>var tracking = "SECRET_TRACKER";</script><style>body { color: red }</style></head>
<body><nav><a href="/">Home</a> | <a href="/shop">Shop</a> | <a href="/login">Login</a></nav>
<article><h1>The Harbour Lighthouse</h1>
<p>The harbour lighthouse was built in 1868 from granite quarried on the northern cliffs. Its lamp can be
seen from twenty nautical miles away on a clear night, and it still guides the fishing fleet home.</p>
<p>Visitors may climb the 142 steps of the spiral staircase on weekends between April and October. The
gallery at the top gives a view over the whole bay and the islands beyond it.</p>
<p>The keeper's cottage at its foot is now a small museum about shipwrecks along the coast, with a
collection of brass instruments recovered by divers over the last century.</p>
</article><footer>Copyright 2024 Harbour Trust. All rights reserved. Cookie settings.</footer></body></html>"""


def rss(*entries: tuple[str, str, str]) -> bytes:
    items = "".join(f"<item><guid>{guid}</guid><title>{title}</title><description>{text}</description></item>"
                    for guid, title, text in entries)
    return (f'<?xml version="1.0"?><rss version="2.0"><channel><title>Town news</title>'
            f"<link>http://example.com/</link><description>News</description>{items}</channel></rss>").encode()


NEWS = {
    "n1": ("n1", "Bakery opens", "A new bakery opened on Mill Street selling sourdough bread and cinnamon rolls."),
    "n2": ("n2", "Bridge repairs", "The old stone bridge is closed to cars until June while its arches are repaired."),
    "n3": ("n3", "Choir concert", "The town choir sings carols in the cathedral on the evening of December 20th."),
    "n4": ("n4", "Ferry timetable", "From May the island ferry leaves every forty minutes instead of every hour."),
}


def minimal_pdf(text: str) -> bytes:
    """A one-page PDF with `text` in Helvetica, written by hand (pypdf reads it; it cannot write text)."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


async def ready(service: Service, client: AsyncTestClient[Any], base: str, item_id: str) -> dict[str, Any]:
    await service.drain()
    item: dict[str, Any] = (await client.get(f"{base}/{item_id}")).json()
    return item


def chunks_of(service: Service, item_id: str) -> list[Any]:
    async def read() -> list[Any]:
        async with service.container.resolve(Storage)(service.organization_id, read_only=True) as uow:
            return sorted(await uow.chunks.find(knowledge_item_id=item_id), key=lambda c: c.ordinal)

    return service.call(read)


def refresh_jobs(service: Service, item_id: str) -> list[Any]:
    async def read() -> list[Any]:
        async with service.container.resolve(Storage)(None, read_only=True) as uow:
            return [j for j in await uow.jobs.queued("knowledge.process") if j.payload["id"] == item_id]

    return service.call(read)


def make_due(service: Service, item_id: str) -> None:
    """The item's scheduled refresh becomes due now (instead of in an hour or a day)."""
    [job] = refresh_jobs(service, item_id)

    async def write() -> None:
        async with service.container.resolve(Storage)(None) as uow:
            await uow.jobs.retry(job.id, datetime.now(UTC), "")
            await uow.commit()

    service.call(write)


async def test_url_html_page_becomes_readable_text(service: Service, client: AsyncTestClient[Any],
                                                   receiver: Receiver) -> None:
    receiver.pages["/lighthouse"] = ("text/html; charset=utf-8", ARTICLE.encode())
    base = f"/v1/personalities/{(await create_personality(client))['id']}/knowledge"
    item = (await client.post(base, json={"type": "url", "url": receiver.url + "/lighthouse"})).json()
    done = await ready(service, client, base, item["id"])
    assert done["status"] == "ready", done
    assert done["source_url"] == receiver.url + "/lighthouse"
    text = "\n".join(c.content for c in chunks_of(service, item["id"]))
    assert "built in 1868" in text and "142 steps" in text and "shipwrecks" in text
    for boilerplate in ("SECRET_TRACKER", "color: red", "Cookie settings", "<p>"):
        assert boilerplate not in text and boilerplate not in done["content_preview"]
    assert done["content_preview"] == done["content_preview"][:500] and "lighthouse" in done["content_preview"]
    hits = (await client.post(f"{base}/search", json={"query": "How many steps up the staircase?"})).json()["data"]
    assert hits[0]["knowledge_item_id"] == item["id"] and "142 steps" in hits[0]["content"]


async def test_rss_refetch_adds_exactly_the_new_entry(service: Service, client: AsyncTestClient[Any],
                                                      receiver: Receiver) -> None:
    receiver.pages["/news.rss"] = ("application/rss+xml", rss(NEWS["n1"], NEWS["n2"], NEWS["n3"]))
    base = f"/v1/personalities/{(await create_personality(client))['id']}/knowledge"
    item = (await client.post(base, json={"type": "feed", "url": receiver.url + "/news.rss",
                                          "refresh_interval": "hourly"})).json()
    first = await ready(service, client, base, item["id"])
    assert first["status"] == "ready", first
    before = chunks_of(service, item["id"])
    assert len(before) == first["chunk_count"] == 3  # every entry became text of its own
    assert {c.content.split("\n")[0] for c in before} == {"Bakery opens", "Bridge repairs", "Choir concert"}
    assert len(refresh_jobs(service, item["id"])) == 1

    # n1 left the feed, n4 is new, n2 and n3 are still there: only n4 is indexed, nothing is dropped
    receiver.pages["/news.rss"] = ("application/rss+xml", rss(NEWS["n4"], NEWS["n2"], NEWS["n3"]))
    make_due(service, item["id"])
    second = await ready(service, client, base, item["id"])
    after = chunks_of(service, item["id"])
    assert second["status"] == "ready"
    before_ids = {c.id for c in before}
    assert [c for c in after if c.id in before_ids] == before  # kept as they were, n1's chunk too
    added = [c for c in after if c.id not in before_ids]
    assert len(added) == 1 and added[0].content.startswith("Ferry timetable")
    assert added[0].ordinal == 3
    assert second["chunk_count"] == 4
    assert second["token_count"] == sum(c.token_count for c in after)
    assert len(refresh_jobs(service, item["id"])) == 1  # the chain goes on, one job at a time

    # an unchanged feed adds nothing
    make_due(service, item["id"])
    third = await ready(service, client, base, item["id"])
    assert [c.id for c in chunks_of(service, item["id"])] == [c.id for c in after]
    assert third["chunk_count"] == 4
    hits = (await client.post(f"{base}/search", json={"query": "island ferry every forty minutes"})).json()["data"]
    assert hits[0]["content"].startswith("Ferry timetable")


async def test_atom_feed_entries_become_text(service: Service, client: AsyncTestClient[Any],
                                             receiver: Receiver) -> None:
    atom = ('<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title>'
            '<id>urn:blog</id><updated>2024-01-01T00:00:00Z</updated>'
            '<entry><id>urn:e1</id><title>Tomato tips</title><updated>2024-01-01T00:00:00Z</updated>'
            '<content type="html">&lt;p&gt;Water tomatoes at the base in the &lt;b&gt;morning&lt;/b&gt;.&lt;/p&gt;'
            '</content></entry><entry><id>urn:e2</id><title>Compost</title><updated>2024-01-02T00:00:00Z</updated>'
            '<summary>Turn the compost heap every two weeks to keep it aerated.</summary></entry></feed>')
    receiver.pages["/blog.atom"] = ("application/atom+xml", atom.encode())
    base = f"/v1/personalities/{(await create_personality(client))['id']}/knowledge"
    item = (await client.post(base, json={"type": "feed", "url": receiver.url + "/blog.atom"})).json()
    done = await ready(service, client, base, item["id"])
    assert done["status"] == "ready" and done["chunk_count"] == 2
    contents = [c.content for c in chunks_of(service, item["id"])]
    assert contents == ["Tomato tips\n\nWater tomatoes at the base in the morning.",
                        "Compost\n\nTurn the compost heap every two weeks to keep it aerated."]
    assert refresh_jobs(service, item["id"]) == []  # refresh_interval never


async def test_document_types(service: Service, client: AsyncTestClient[Any], receiver: Receiver) -> None:
    base = f"/v1/personalities/{(await create_personality(client))['id']}/knowledge"
    pdf = minimal_pdf("The observatory telescope has a mirror of 2.4 metres.")
    html = b"<html><body><h1>Menu</h1><p>The soup of the day is roasted pumpkin with ginger.</p></body></html>"
    uploads = {
        "stars.pdf": (pdf, "application/pdf", "mirror of 2.4 metres"),
        "menu.html": (html, "text/html", "roasted pumpkin"),
        "rules.md": (b"# Pool rules\n\n- Shower **before** swimming.\n", "text/markdown", "Shower **before**"),
        "notes.txt": (b"The bus to the airport leaves from platform 7.", "text/plain", "platform 7"),
        "scan.pdf": (pdf, "application/octet-stream", "mirror of 2.4 metres"),  # sniffed from %PDF-
    }
    made = {}
    for filename, (body, content_type, _) in uploads.items():
        response = await client.post(base, files={"file": (filename, body, content_type)})
        assert response.status_code == 201, response.text
        made[filename] = response.json()
    receiver.pages["/files/stars.pdf"] = ("application/pdf", pdf)
    by_url = (await client.post(base, json={"type": "document", "url": receiver.url + "/files/stars.pdf"})).json()
    await service.drain()
    for filename, (_, _, expected) in uploads.items():
        done = (await client.get(f"{base}/{made[filename]['id']}")).json()
        assert done["status"] == "ready", (filename, done)
        assert expected in done["content_preview"], (filename, done["content_preview"])
    done = (await client.get(f"{base}/{by_url['id']}")).json()
    assert done["status"] == "ready" and "mirror of 2.4 metres" in done["content_preview"]
    assert "<h1>" not in (await client.get(f"{base}/{made['menu.html']['id']}")).json()["content_preview"]


async def test_failures_end_the_item_with_a_code(service: Service, client: AsyncTestClient[Any],
                                                 receiver: Receiver) -> None:
    await subscribe(client, receiver.url + "/hook", "knowledge.processed")
    receiver.pages["/huge.txt"] = ("text/plain", b"word " * (FETCH_CAP // 4))
    receiver.pages["/photo.png"] = ("image/png", b"\x89PNG\r\n\x1a\n" + bytes(200))
    receiver.pages["/blank.html"] = ("text/html", b"<html><body>   </body></html>")
    base = f"/v1/personalities/{(await create_personality(client))['id']}/knowledge"
    cases = {
        "fetch_failed": {"type": "url", "url": receiver.url + "/missing"},
        "url_not_allowed": {"type": "url", "url": "http://169.254.169.254/latest/meta-data/"},
        "too_large": {"type": "document", "url": receiver.url + "/huge.txt"},
        "unsupported_media": {"type": "document", "url": receiver.url + "/photo.png"},
        "content_empty": {"type": "url", "url": receiver.url + "/blank.html"},
    }
    made = {code: (await client.post(base, json=body)).json()["id"] for code, body in cases.items()}
    await service.drain()
    for code, item_id in made.items():
        failed = (await client.get(f"{base}/{item_id}")).json()
        assert failed["status"] == "failed", (code, failed)
        assert failed["error"]["code"] == code and failed["error"]["message"], failed
        assert failed["chunk_count"] == 0 and chunks_of(service, item_id) == []
    delivered = {e["data"]["id"]: e["data"]["status"] for e in events_of(receiver, "knowledge.processed")}
    assert delivered == {item_id: "failed" for item_id in made.values()}


async def test_refresh_replaces_chunks_atomically(service: Service, client: AsyncTestClient[Any],
                                                  receiver: Receiver) -> None:
    old = [f"Old fact {i}: the red tram line number {i} stops at the market square." for i in range(40)]
    new = [f"New fact {i}: the blue metro line number {i} stops at the harbour." for i in range(40)]
    receiver.pages["/lines.txt"] = ("text/plain", "\n\n".join(old).encode())
    base = f"/v1/personalities/{(await create_personality(client))['id']}/knowledge"
    item = (await client.post(base, json={"type": "url", "url": receiver.url + "/lines.txt",
                                          "refresh_interval": "daily"})).json()
    first = await ready(service, client, base, item["id"])
    assert first["status"] == "ready" and first["chunk_count"] > 1
    old_ids = {c.id for c in chunks_of(service, item["id"])}
    [scheduled] = refresh_jobs(service, item["id"])

    # the first job running again (a crash after its result was committed) changes nothing, adds no job
    processor = service.container.resolve(KnowledgeProcessor)
    service.call(processor, {"organization_id": service.organization_id, "id": item["id"]})
    assert [j.id for j in refresh_jobs(service, item["id"])] == [scheduled.id]
    assert {c.id for c in chunks_of(service, item["id"])} == old_ids

    receiver.pages["/lines.txt"] = ("text/plain", "\n\n".join(new).encode())
    make_due(service, item["id"])
    knowledge = service.container.resolve(Knowledge)
    personality_id = base.split("/")[3]
    seen: list[set[str]] = []

    async def refresh_while_searching() -> None:
        done = anyio.Event()

        async def search() -> None:
            result = await knowledge.search(service.organization_id, personality_id,
                                            KnowledgeSearch(query="which line stops where", limit=20))
            seen.append({"old" if "red tram" in h.content else "new" for h in result.data})

        async def searcher() -> None:
            while not done.is_set():
                await search()
                await anyio.lowlevel.checkpoint()

        # One search before and one after the refresh pin both ends (how many land in between depends on
        # timing); every search, wherever it lands, sees all old chunks or all new ones, never a mix.
        await search()
        async with anyio.create_task_group() as group:
            group.start_soon(searcher)
            await processor(scheduled.payload)
            done.set()
        await search()

    service.call(refresh_while_searching)
    after = chunks_of(service, item["id"])
    assert not old_ids & {c.id for c in after} and all(c.content.startswith("New") for c in after)
    assert seen and all(kinds in ({"old"}, {"new"}) for kinds in seen), seen
    assert seen[0] == {"old"} and seen[-1] == {"new"}, seen
    # the superseded refresh job (the one just run by hand is still queued) does nothing when it runs
    await service.drain()
    assert {c.id for c in chunks_of(service, item["id"])} == {c.id for c in after}
    [next_job] = refresh_jobs(service, item["id"])
    assert next_job.id != scheduled.id and next_job.run_at > datetime.now(UTC)


async def test_a_refresh_committed_between_the_cache_check_and_the_row_read_is_found(
        service: Service, client: AsyncTestClient[Any], receiver: Receiver, monkeypatch: pytest.MonkeyPatch) -> None:
    """The interleaving the test above can only land on by chance, forced: the search checks its cache's
    version, the refresh commits, then the search reads the rows its (old) vectors named. It catches up and
    answers from the new chunks; it once discarded the old vectors and answered nothing."""
    receiver.pages["/lines.txt"] = ("text/plain", b"The red tram line stops at the market square.")
    base = f"/v1/personalities/{(await create_personality(client))['id']}/knowledge"
    item = (await client.post(base, json={"type": "url", "url": receiver.url + "/lines.txt",
                                          "refresh_interval": "daily"})).json()
    assert (await ready(service, client, base, item["id"]))["status"] == "ready"
    [scheduled] = refresh_jobs(service, item["id"])
    receiver.pages["/lines.txt"] = ("text/plain", b"The blue metro line stops at the harbour.")
    make_due(service, item["id"])
    knowledge = service.container.resolve(Knowledge)
    processor = service.container.resolve(KnowledgeProcessor)
    query = KnowledgeSearch(query="which line stops where", limit=5)
    personality_id = base.split("/")[3]
    service.call(knowledge.search, service.organization_id, personality_id, query)  # the old chunk is cached

    semantic = knowledge.semantic
    search, apply, held_back = semantic.search, semantic.apply, []

    async def hold_back(*args: Any, **kwargs: Any) -> None:
        held_back.append((args, kwargs))  # the refreshing task's own cache update, not yet run

    async def refreshing_first(*args: Any, **kwargs: Any) -> Any:
        hits = await search(*args, **kwargs)
        if not held_back:
            with monkeypatch.context() as patch:
                patch.setattr(semantic, "apply", hold_back)
                await processor(scheduled.payload)  # commits after this search read its version, before its rows
        return hits

    monkeypatch.setattr(semantic, "search", refreshing_first)
    result = service.call(knowledge.search, service.organization_id, personality_id, query)
    assert held_back and [h.content for h in result.data] == ["The blue metro line stops at the harbour."]
    for args, kwargs in held_back:  # the refresh's own update lands late: the cache stays right
        service.call(functools.partial(apply, *args, **kwargs))
    again = service.call(knowledge.search, service.organization_id, personality_id, query)
    assert [h.content for h in again.data] == ["The blue metro line stops at the harbour."]
