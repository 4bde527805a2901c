"""The garbage collector's settings for a long-lived process, applied once: by `avatar serve` when its first app
starts, and by an embedding application that calls `avatar_service.settle_heap()` once it has started.

Measured under 32 concurrent POST /v1/users on PostgreSQL (a gc callback timing each collection): the cyclic
collector took about 8% of the process's CPU. Most of it was full collections, each walking the ~200,000
objects that the imports and the app made at start-up and that live as long as the process (70-100 ms each,
one every two seconds); the rest were young collections, which ran 60 times a second because the few hundred
objects each request in flight holds crossed the default threshold of 700 again and again.

`gc.freeze()` moves what exists once the app has started out of the collector's sight (the objects are kept
as they would have been; only cycles among them are never looked for again, and start-up garbage is collected
just before), and a young-generation threshold of 7,000 lets requests' own objects be freed by reference
counting before a collection walks them. Together they took the collector to about one young collection in ten
seconds of that load. Cyclic garbage made while serving is still collected, a little later (7,000 allocations
instead of 700).
"""

import functools
import gc

YOUNG_THRESHOLD = 7_000


@functools.cache  # once per process: tests start many apps
def settle() -> None:
    """Freeze the start-up heap and raise the young threshold."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)
