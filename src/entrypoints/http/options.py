"""OPTIONS answers with an `Allow` header listing every method of the path.

Litestar builds a path's automatic OPTIONS handler when it meets the path's first handler and keeps it when
later handlers of the same path (another method) are added, so its `Allow` named only the first method
(`GET, OPTIONS` on a path that also has DELETE and PATCH). This hook answers OPTIONS from the app's routes.
"""

from typing import Any

from litestar import Request, Response
from litestar.routes import HTTPRoute
from litestar.status_codes import HTTP_204_NO_CONTENT


def allowed_methods(request: Request[Any, Any, Any]) -> set[str]:
    template = request.scope.get("path_template")
    methods: set[str] = set()
    for route in request.app.routes:
        if isinstance(route, HTTPRoute) and route.path_format == template:
            methods.update(route.methods)
    return methods


async def answer_options(request: Request[Any, Any, Any]) -> Response[Any] | None:
    if request.method != "OPTIONS":
        return None
    methods = allowed_methods(request) | {"OPTIONS"}
    return Response(content=None, status_code=HTTP_204_NO_CONTENT, headers={"Allow": ", ".join(sorted(methods))})
