"""Work offloaded to a thread is not cut off by the process exiting: anyio's workers are daemons, and one killed
inside a native library as the interpreter finalises aborts the process ("terminate called without an active
exception", exit 134).

The case that showed it: a test run whose last app had just started the room warm-up (Piper's onnxruntime session
being built in a worker) exited with 134 after "1 passed". So does this one, run alone, without the wait at exit.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_a_run_that_ends_during_the_room_warm_up_exits_cleanly() -> None:
    test = "tests/integration/test_http_conversations.py::test_messages_and_transcript[sqlite]"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", test],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
