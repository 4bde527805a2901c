"""Text extraction: HTML, PDF, Markdown, feeds, and the two failure codes."""

from __future__ import annotations

import pytest

from avatar_service.adapters.text_extraction import (
    DocumentTextExtractor,
    EmptyContent,
    UnsupportedMedia,
    extract_feed,
    extract_text,
    media_kind,
)
from avatar_service.ports.extractor import ExtractError, TextExtractor

ARTICLE = b"""<!doctype html><html><head><meta charset="utf-8"><title>Coffee</title>
<script>var tracking = "no";</script><style>p { color: red }</style></head><body>
<nav><a href="/">Home</a> | <a href="/about">About us</a></nav>
<article><h1>Caf\xc3\xa9 culture in Vienna</h1>
<p>The first coffee house in Vienna opened in 1685, soon after the siege, and served strong coffee to
merchants and officers who met there to trade news.</p>
<p>Today the city counts more than two thousand caf\xc3\xa9s, and the tradition is listed by UNESCO as
intangible cultural heritage, with newspapers on wooden holders and a glass of water with every cup.</p>
</article><footer>Copyright 2024 Example Media. All rights reserved.</footer></body></html>"""


def make_pdf(lines: list[str]) -> bytes:
    """A minimal one-page PDF with Helvetica text, offsets computed so pypdf reads it without repair."""
    text_ops = " ".join(f"BT /F1 12 Tf 72 {720 - 20 * i} Td ({line}) Tj ET" for i, line in enumerate(lines))
    stream = text_ops.encode("latin-1")
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


RSS = b"""<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>News</title><link>https://example.com/</link>
<item><title>First &amp; foremost</title><link>https://example.com/1</link><guid>urn:1</guid>
<description>&lt;p&gt;Hello &lt;b&gt;world&lt;/b&gt;.&lt;/p&gt;&lt;script&gt;x()&lt;/script&gt;
</description></item>
<item><title>Second</title><link>https://example.com/2</link>
<description>Plain text body.</description></item>
</channel></rss>"""

ATOM = b"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title><id>urn:blog</id>
<entry><title>Atom entry</title><id>urn:entry:1</id><link href="https://example.com/a"/>
<content type="html">&lt;p&gt;Atom body text.&lt;/p&gt;</content></entry></feed>"""


def test_html_keeps_the_article_and_drops_boilerplate() -> None:
    text = extract_text(ARTICLE, "text/html; charset=utf-8", "https://example.com/coffee")
    assert "first coffee house in Vienna opened in 1685" in text
    assert "Café culture" in text
    assert "tracking" not in text and "color: red" not in text
    assert "\n\n" in text  # paragraphs survive as blank-line breaks, which chunking reads


def test_html_without_charset_header_reads_the_meta_charset() -> None:
    page = "<html><head><meta charset='windows-1252'></head><body><article><p>" + "Crème brûlée à la " * 12
    page += "</p></article></body></html>"
    assert "Crème brûlée" in extract_text(page.encode("cp1252"), "text/html")


def test_html_that_trafilatura_rejects_falls_back_to_a_tag_strip() -> None:
    assert extract_text(b"<p>Just <b>one</b> line.</p>", "text/html") == "Just one line."


def test_pdf_text() -> None:
    data = make_pdf(["Hello from a PDF.", "Second line of text."])
    text = extract_text(data, "application/pdf")
    assert "Hello from a PDF." in text and "Second line of text." in text
    assert media_kind(data, "application/octet-stream") == "pdf"  # sniffed from %PDF-


def test_markdown_and_plain_text_pass_through() -> None:
    markdown = "# Title\n\nSome *markdown* text.\n\n- a list item"
    assert extract_text(markdown.encode(), "text/markdown") == markdown
    assert extract_text("Olá, mundo".encode(), "text/plain; charset=utf-8") == "Olá, mundo"
    assert extract_text(b"\xef\xbb\xbfwith BOM", None, "https://x/readme.txt") == "with BOM"


def test_rss_entries() -> None:
    entries = extract_feed(RSS)
    assert [(e.key, e.title, e.text) for e in entries] == [
        ("urn:1", "First & foremost", "Hello world."),
        ("https://example.com/2", "Second", "Plain text body."),
    ]
    assert media_kind(RSS, "application/xml") == "feed"
    assert extract_text(RSS, "application/rss+xml").startswith("First & foremost\n\nHello world.")


def test_atom_entries() -> None:
    [entry] = extract_feed(ATOM)
    assert (entry.key, entry.title, entry.text) == ("urn:entry:1", "Atom entry", "Atom body text.")


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "image/png"),
        (b"PK\x03\x04\x14\x00\x00\x00", "application/zip"),
        (b"\x00\x01\x02binary", None),
        (b"%PDF-1.4 this is not really a pdf", "application/pdf"),
        (b"<?xml version='1.0'?><config/>", "application/xml"),
    ],
)
def test_unsupported_media(data: bytes, content_type: str | None) -> None:
    with pytest.raises(UnsupportedMedia) as caught:
        extract_text(data, content_type)
    assert caught.value.code == "unsupported_media"
    assert isinstance(caught.value, ExtractError)


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        (b"   \n\n  ", "text/plain"),
        (b"<html><body><script>only()</script></body></html>", "text/html"),
        (make_pdf([]), "application/pdf"),
    ],
)
def test_empty_content(data: bytes, content_type: str) -> None:
    with pytest.raises(EmptyContent) as caught:
        extract_text(data, content_type)
    assert caught.value.code == "content_empty"


def test_a_feed_without_entries_is_empty() -> None:
    with pytest.raises(EmptyContent):
        extract_feed(b"<?xml version='1.0'?><rss version='2.0'><channel><title>x</title></channel></rss>")


def test_the_adapter_implements_the_port() -> None:
    extractor: TextExtractor = DocumentTextExtractor()
    assert extractor.text(b"plain", "text/plain") == "plain"
    assert extractor.feed(ATOM)[0].title == "Atom entry"
