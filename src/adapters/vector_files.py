"""A namespace's cached vectors on local disk, so the first search after a restart loads one file instead of
reading every row: a NumPy archive of the float32 matrix (contiguous), the ids, the groups and the stored
version it reflects.

A file is only a head start: the search that restores it then applies the changes logged since its version
(or reloads in full if the log no longer reaches back that far, or the file is newer than the database). Files
are written whole to a temporary name and renamed, so a reader never sees half of one; several processes on
one machine share them.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)


class VectorFiles:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, namespace: str, embedder: str) -> Path:
        digest = hashlib.sha256(f"{embedder}\0{namespace}".encode()).hexdigest()[:40]
        return self.folder / f"{digest}.npz"

    def read(self, namespace: str, embedder: str) -> tuple[int, list[str], np.ndarray, list[str]] | None:
        """(version, ids, matrix, groups), or None when there is no readable file."""
        path = self.path(namespace, embedder)
        try:
            with np.load(path, allow_pickle=False) as archive:
                if str(archive["namespace"]) != namespace:
                    return None
                return (int(archive["version"]), archive["ids"].tolist(), archive["matrix"],
                        archive["groups"].tolist())
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError) as error:
            log.warning("vector file %s unreadable (%s): the namespace loads from the database", path, error)
            return None

    def write(self, namespace: str, embedder: str, version: int, ids: list[str], matrix: np.ndarray,
              groups: list[str]) -> None:
        path = self.path(namespace, embedder)
        self.folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                np.savez(out, namespace=np.array(namespace), version=np.array(version, dtype=np.int64),
                         ids=np.array(ids, dtype=str), matrix=matrix, groups=np.array(groups, dtype=str))
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def remove(self, namespace: str, embedder: str) -> None:
        self.path(namespace, embedder).unlink(missing_ok=True)
