"""The image's HEALTHCHECK: exit 0 when /healthz answers 200 within 5 s, else 1 (the standard library only: the
slim image has no curl). AVATAR_HEALTHCHECK_URL overrides the address."""

from __future__ import annotations

import os
import sys
import urllib.request

URL = os.environ.get("AVATAR_HEALTHCHECK_URL", "http://127.0.0.1:8000/healthz")


def main() -> int:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never through a proxy
    try:
        with opener.open(URL, timeout=5) as response:
            healthy: bool = response.status == 200
    except OSError as error:  # refused, timed out, or a 503 (storage unreachable)
        print(f"unhealthy: {URL}: {error}", file=sys.stderr)
        return 1
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
