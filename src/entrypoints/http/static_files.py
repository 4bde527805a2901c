"""Files the service serves as they are, with no key: the docs UI's script and style, the favicon.

The docs page at /schema is Scalar's, with its script served from the package instead of a CDN, so it works on a
machine with no internet, as the rest of the service does.
"""

from pathlib import Path

from litestar import Router, get
from litestar.openapi.plugins import ScalarRenderPlugin
from litestar.response import File
from litestar.static_files import create_static_files_router

STATIC = Path(__file__).parent / "static"
FAVICON = '<link rel="icon" type="image/svg+xml" href="/static/favicon.svg">'


def docs_ui() -> ScalarRenderPlugin:
    """The /schema page: Scalar from /static/docs, system fonts, no calls to Scalar's services."""
    return ScalarRenderPlugin(
        js_url="/static/docs/scalar-api-reference.js", css_url="/static/docs/scalar.css", favicon=FAVICON,
        # each option stops a call out: fonts, telemetry, the agent's registry, the developer toolbar's services
        options={"withDefaultFonts": False, "hideClientButton": True, "telemetry": False,
                 "agent": {"disabled": True}, "showDeveloperTools": "never"},
    )


@get("/favicon.ico", include_in_schema=False, cache=86400)
async def favicon() -> File:
    """Browsers ask for it on every page whatever the page says; answering spares a 404 in their console."""
    return File(STATIC / "favicon.ico", media_type="image/x-icon", content_disposition_type="inline")


def static_routes() -> list[Router | object]:
    return [create_static_files_router(path="/static", directories=[STATIC], include_in_schema=False,
                                       cache_control=None, send_as_attachment=False), favicon]
