"""Game tests marked slow (full-budget chess games) run only when asked for with `-m slow`."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow")
    for item in items:
        # this hook sees the whole session; only this directory's tests are ours to skip
        if "slow" in item.keywords and HERE in Path(item.path).parents:
            item.add_marker(skip)
