"""The Dockerfile and compose.yaml agree with each other and with what they name (no container engine here to
build them: see test_container_entrypoint.py for what the image runs)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]


def test_the_dockerfile_names_what_exists() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    for source in re.findall(r"^COPY (?!--from)(.+) \S+$", dockerfile, re.MULTILINE):
        for name in source.split():
            assert (ROOT / name).exists(), name
    assert os.access(ROOT / "docker" / "entrypoint.sh", os.X_OK)
    assert 'ENTRYPOINT ["/usr/local/lib/avatar/entrypoint.sh"]' in dockerfile
    assert "healthcheck.py" in dockerfile.split("HEALTHCHECK", 1)[1].splitlines()[1]
    assert "USER avatar" in dockerfile and "--require-hashes -r runtime.lock" in dockerfile
    assert "python:3.11-slim" in dockerfile and "espeak-ng" in dockerfile


def test_compose_runs_the_api_a_worker_and_postgres_with_the_rooms_ports() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"db", "api", "worker"}
    api, worker = services["api"], services["worker"]
    assert api["command"][0] == "serve" and worker["command"] == ["worker"]
    for service in (api, worker):  # one database, jobs only in the worker, one signing secret
        assert service["environment"]["AVATAR_DATABASE_URL"].startswith("postgresql+asyncpg://")
        assert service["environment"]["AVATAR_WORKER"] == "external"
        assert "AVATAR_SECRET_KEY" in service["environment"] and service["volumes"] == api["volumes"]
    udp = next(port for port in api["ports"] if port.endswith("/udp"))
    low, high = (int(n) for n in api["sysctls"]["net.ipv4.ip_local_port_range"].split())
    assert udp == f"{low}-{high}:{low}-{high}/udp"  # the published range is the one the kernel hands out
    assert worker["depends_on"]["api"]["condition"] == "service_healthy"
    assert api["depends_on"]["db"]["condition"] == "service_healthy"
