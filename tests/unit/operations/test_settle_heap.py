"""`avatar_service.settle_heap()`: what `avatar serve` does to the collector once started, for an embedder."""

import gc

import avatar_service
from avatar_service.entrypoints.heap import YOUNG_THRESHOLD


def test_settling_freezes_the_heap_once_and_raises_the_young_threshold() -> None:
    avatar_service.settle_heap()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold()[0] == YOUNG_THRESHOLD
    frozen = gc.get_freeze_count()
    avatar_service.settle_heap()  # again: nothing more happens
    assert gc.get_freeze_count() == frozen
