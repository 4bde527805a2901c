"""Plain text out of fetched or uploaded bytes: HTML (trafilatura), PDF (pypdf), feeds (feedparser), text."""

from __future__ import annotations

import html
import io
import logging
import re
from html.parser import HTMLParser
from typing import Literal

from avatar_service.ports.extractor import ExtractError, FeedEntry

log = logging.getLogger(__name__)

MediaKind = Literal["html", "pdf", "feed", "text"]


class UnsupportedMedia(ExtractError):
    """Bytes of a kind no text can be read from (images, archives, damaged or encrypted PDFs)."""

    def __init__(self, message: str) -> None:
        super().__init__("unsupported_media", message)


class EmptyContent(ExtractError):
    """A readable document with no text in it."""

    def __init__(self, message: str) -> None:
        super().__init__("content_empty", message)


class DocumentTextExtractor:
    """The TextExtractor port over the module's functions."""

    def text(self, body: bytes, content_type: str, url: str | None = None) -> str:
        return extract_text(body, content_type, url)

    def feed(self, body: bytes) -> list[FeedEntry]:
        return extract_feed(body)


_HTML_TYPES = {"text/html", "application/xhtml+xml"}
_FEED_TYPES = {"application/rss+xml", "application/atom+xml", "application/feed+json", "application/rdf+xml"}
_TEXT_TYPES = {"text/plain", "text/markdown", "text/x-markdown", "text/csv", "application/json"}
_EXTENSIONS: dict[str, MediaKind] = {
    ".html": "html", ".htm": "html", ".xhtml": "html", ".pdf": "pdf", ".rss": "feed", ".atom": "feed",
    ".txt": "text", ".md": "text", ".markdown": "text", ".rst": "text", ".csv": "text",
}  # fmt: skip


def media_kind(data: bytes, content_type: str | None, url: str | None = None) -> MediaKind:
    """What the bytes are: the declared type when it is specific, else their first bytes, else the URL."""
    mime = (content_type or "").split(";")[0].strip().lower()
    head = data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if mime == "application/pdf":
        return "pdf"
    if mime in _FEED_TYPES:
        return "feed"
    if mime in _HTML_TYPES:
        return "html"
    if mime in _TEXT_TYPES:
        return "text"
    if mime in {"application/xml", "text/xml"}:
        if b"<rss" in head or b"<feed" in head or b"<rdf:rdf" in head:
            return "feed"
        raise UnsupportedMedia(f"XML that is not a feed ({mime})")
    # Unknown, generic (application/octet-stream) or missing type: sniff.
    if head.startswith(b"%pdf-"):
        return "pdf"
    if head.startswith((b"<!doctype html", b"<html")) or b"<body" in head:
        return "html"
    if head.startswith(b"<?xml") and (b"<rss" in head or b"<feed" in head or b"<rdf:rdf" in head):
        return "feed"
    path = (url or "").split("?")[0].split("#")[0].lower()
    for extension, kind in _EXTENSIONS.items():
        if path.endswith(extension):
            return kind
    if mime.startswith("text/") or (not mime and _looks_textual(data)):
        return "text"
    raise UnsupportedMedia(f"cannot extract text from {mime or 'untyped binary content'}")


def extract_text(data: bytes, content_type: str | None, url: str | None = None) -> str:
    """The document's readable text; a feed's entries are joined, each as its title then its text."""
    kind = media_kind(data, content_type, url)
    if kind == "pdf":
        text = _pdf_text(data)
    elif kind == "html":
        # Without a declared charset, trafilatura gets the bytes and reads the page's own <meta charset>.
        text = html_text(_decode(data, content_type) if "charset=" in (content_type or "") else data, url)
    elif kind == "feed":
        text = "\n\n".join(f"{e.title}\n\n{e.text}".strip() for e in extract_feed(data, url))
    else:
        text = _decode(data, content_type)
    text = _tidy(text)
    if not text:
        raise EmptyContent("the content has no text")
    return text


def extract_feed(data: bytes, url: str | None = None) -> list[FeedEntry]:
    """Entries of an RSS, Atom or RDF feed, with their HTML reduced to text; `url` resolves relative links."""
    import feedparser  # the parsers load on first use: 0.27 s of every CLI command's start otherwise

    parsed = feedparser.parse(data, response_headers={"content-location": url} if url else None)
    if parsed.bozo and not parsed.entries:
        raise UnsupportedMedia(f"not a readable feed: {parsed.get('bozo_exception')}")
    entries = []
    for entry in parsed.entries:
        body = ""
        if entry.get("content"):
            body = "\n\n".join(part.get("value", "") for part in entry.content)
        body = body or entry.get("summary", "") or entry.get("description", "")
        title = _tidy(strip_tags(entry.get("title", "")))
        text = _tidy(strip_tags(body))
        if not (title or text):
            continue
        # The id, else the link, else the title: what identifies the entry across refreshes.
        key = entry.get("id") or entry.get("link") or title
        entries.append(FeedEntry(key=key, title=title, text=text))
    if not entries:
        raise EmptyContent("the feed has no entries with text")
    return entries


def html_text(markup: str | bytes, url: str | None = None) -> str:
    """Main content by trafilatura (boilerplate removed); a plain tag strip when it finds nothing."""
    import trafilatura  # outside the try: a broken install is an error, not a page with no main content

    try:
        text = trafilatura.extract(markup, url=url, include_comments=False, include_tables=True)
    except Exception as exc:  # trafilatura raises assorted parser errors on broken markup
        log.info("trafilatura failed on %s: %s", url or "document", exc)
        text = None
    if text:
        # trafilatura writes one block (paragraph, heading, list item) per line; chunking reads
        # paragraphs from blank lines.
        return text.replace("\n", "\n\n")
    if isinstance(markup, bytes):
        markup = _decode(markup, None)
    return strip_tags(markup)


class _TagStripper(HTMLParser):
    _SKIP = {"script", "style", "noscript", "template", "svg", "head"}
    _BLOCK = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "pre"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._SKIP:
            self._skipping += 1
        elif tag in self._BLOCK:
            self.parts.append("\n\n" if tag != "br" else "\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP and self._skipping:
            self._skipping -= 1
        elif tag in self._BLOCK:
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.parts.append(data)


def strip_tags(markup: str) -> str:
    if "<" not in markup:
        return html.unescape(markup)
    stripper = _TagStripper()
    stripper.feed(markup)
    stripper.close()
    return "".join(stripper.parts)


def _pdf_text(data: bytes) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise UnsupportedMedia("the PDF is encrypted")
        return "\n\n".join(page.extract_text() or "" for page in reader.pages)
    except UnsupportedMedia:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        # pypdf reports damaged files through several exception types.
        raise UnsupportedMedia(f"unreadable PDF: {exc}") from exc


def _decode(data: bytes, content_type: str | None) -> str:
    match = re.search(r"charset=[\"']?([\w.:-]+)", content_type or "", re.I)
    if match:
        try:
            return data.decode(match.group(1), errors="replace")
        except LookupError:
            pass  # an unknown charset name: fall through to the guesses
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _looks_textual(data: bytes) -> bool:
    sample = data[:4096]
    if b"\x00" in sample:
        return False
    try:
        sample.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(sample) - 3  # a multi-byte character cut by the sample's end
    return True


_SPACES = re.compile(r"[ \t\f\v\u00a0]+")
_BLANK_LINES = re.compile(r"\n\s*\n\s*")


def _tidy(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    text = _SPACES.sub(" ", text)
    text = "\n".join(line.strip() for line in text.split("\n"))
    return _BLANK_LINES.sub("\n\n", text).strip()
