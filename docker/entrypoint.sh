#!/bin/sh
# The image's entrypoint: apply the database migrations, then run `avatar` with the container's command
# (the image's default: `serve --host 0.0.0.0 --port 8000`; compose's worker: `worker`).
# tests/integration/test_container_entrypoint.py runs this script as the image would.
set -eu
avatar migrate
exec avatar "$@"
