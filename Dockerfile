# syntax=docker/dockerfile:1
# avatar_service: `avatar serve` by default, or any `avatar` command (compose.yaml also runs `avatar worker`).
# The entrypoint applies the migrations first (docker/entrypoint.sh). The models are inside the image: they come
# with the Python packages from PyPI, checked against their pinned SHA-256 at the end of the build.
# UNTESTED HERE: this project's machines have no container engine. What the image runs (docker/entrypoint.sh,
# docker/healthcheck.py, the runtime cut of requirements.lock) is tested as plain processes; see the README.
#
#   docker build -t avatar-service .                        (--build-arg EXTRAS=s3 adds the S3 blob store)
#   docker run -p 8000:8000 -v avatar:/var/lib/avatar avatar-service

ARG PYTHON=python:3.11-slim-bookworm

FROM ${PYTHON} AS build
# dlib and pyworld are built from source (dlib takes minutes): a compiler and cmake, in this stage only
RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential cmake \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
ARG EXTRAS=""
COPY requirements.lock pyproject.toml docker/runtime_requirements.py ./
# The lock with hashes, less the test tools (docker/runtime_requirements.py walks the lock's `# via` edges).
RUN python runtime_requirements.py requirements.lock pyproject.toml ${EXTRAS:+--extra $EXTRAS} > runtime.lock \
 && python -m venv /opt/avatar \
 && /opt/avatar/bin/pip install --no-cache-dir --upgrade pip \
 && /opt/avatar/bin/pip install --no-cache-dir --require-hashes -r runtime.lock
COPY setup.py README.md ./
COPY src ./src
RUN /opt/avatar/bin/pip install --no-cache-dir --no-deps . \
 && /opt/avatar/bin/python -c "from avatar_service.adapters.model_files import EVERY_FILE; \
[print('ok', f.what, f.verified()) for f in EVERY_FILE]"

FROM ${PYTHON}
# espeak-ng: other languages than English and the light fallback voice
RUN apt-get update \
 && apt-get install -y --no-install-recommends espeak-ng \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --create-home --home-dir /home/avatar avatar \
 && mkdir -p /var/lib/avatar \
 && chown avatar /var/lib/avatar
COPY --from=build /opt/avatar /opt/avatar
COPY docker/entrypoint.sh docker/healthcheck.py /usr/local/lib/avatar/
ENV PATH=/opt/avatar/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    AVATAR_DATA_DIR=/var/lib/avatar \
    AVATAR_DATABASE_URL=sqlite+aiosqlite:////var/lib/avatar/avatar.db
USER avatar
WORKDIR /var/lib/avatar
VOLUME ["/var/lib/avatar"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=10s --start-period=120s --retries=3 \
    CMD ["python", "/usr/local/lib/avatar/healthcheck.py"]
ENTRYPOINT ["/usr/local/lib/avatar/entrypoint.sh"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000"]
